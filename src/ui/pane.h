/*
 * pane.h - the pane interface of the workbench, for the files of
 * src/ui only: a pane is an object (tig's view_ops, struct pane_ops)
 * that owns its private state, draws its own window and handles keys
 * while it has the focus; the sheets (help, stats, diff) are panes over
 * the layout.  Only ui.c names the panes' tables.  And the drawing
 * helpers every pane uses.  The model they draw is wb.h.
 */
#ifndef ASSAY_UI_PANE_H
#define ASSAY_UI_PANE_H

#include <stddef.h>
#include <stdint.h>

#include <curses.h>

#include "app/action.h"
#include "ui/theme.h"

struct pane;
struct wb;

/*
 * Where a sheet's cursor is (its page, row and column): the navigation
 * stack keeps it to open the sheet there again on the way back.
 */
struct pane_place {
	int	 page;
	size_t	 row, col;
};

/*
 * A pane's operations (tig's view_ops).  Every pane, the layout's and
 * the sheets' (help, stats, diff) alike, is one of these with its own
 * state in priv; the workbench calls them through the table only.
 */
struct pane_ops {
	const char	*name;
	/* Bytes of private state pane_init() allocates, zeroed, in priv
	 * (0: none). */
	size_t	  priv_size;
	/*
	 * Show the pane, at a place the navigation stack kept (NULL: its
	 * start).  0, or -1 when there is nothing to show (a message on
	 * the status line says why).  NULL: it always opens.
	 */
	int	(*open)(struct pane *, const struct pane_place *at);
	/* Draw the content into win (the pane's area, title excluded). */
	void	(*draw)(struct pane *, WINDOW *);
	/*
	 * A key while the pane has the focus (a sheet: while it is on top):
	 * key is its keymap code (0 when the action came from elsewhere:
	 * the mouse, a move handed on), a its action in the workbench's
	 * table.  1 when handled.
	 */
	int	(*key)(struct pane *, int key, enum action a);
	/* The area changed to rows x cols (may be NULL). */
	void	(*resize)(struct pane *, int rows, int cols);
	/*
	 * Text for the right end of the title rule into buf (may be NULL).
	 * The frame cuts it from the right past p->title_room columns.
	 */
	void	(*title)(struct pane *, char *buf, size_t n);
	/* Release what priv holds (not priv itself; may be NULL). */
	void	(*close)(struct pane *);
};

struct pane {
	const struct pane_ops	*ops;
	struct wb		*wb;		/* borrowed: the owner */
	void			*priv;		/* ops->priv_size bytes; owned */
	WINDOW			*win;		/* content; NULL: hidden */
	int			 y, x, rows, cols;	/* content area */
	int			 scroll;	/* first line shown */
	int			 hscroll;	/* first column shown (h, l) */
	int			 wrap;		/* long lines wrap (w) */
	int			 shown;		/* a sheet: open */
	struct pane_place	 place;		/* a sheet's cursor */
	int			 title_room;	/* columns the title may
						   take; set before ->title */
};

/* Give p its operations and owner and allocate its private state. */
void	pane_init(struct pane *p, const struct pane_ops *ops, struct wb *wb);
/* Open p (ops->open) at at (may be NULL) and show it: 0 or -1. */
int	pane_open(struct pane *p, const struct pane_place *at);
/* Close p (ops->close), free its private state and its window. */
void	pane_free(struct pane *p);
/* The sheet on top (help over stats over diff), or NULL. */
struct pane *pane_sheet(struct wb *wb);

enum wb_pane { WB_QUEUE, WB_SPEC, WB_CODE, WB_TERM, WB_TRACE, WB_NPANES };
/* The sheets over the layout, the one on top first. */
enum wb_sheet { WB_HELP, WB_STATS, WB_DIFF, WB_WAVE, WB_SOLID,
    WB_NSHEETS };

/* --- the panes and drawing helpers ------------------------------------ */

extern const struct pane_ops pane_queue_ops;
extern const struct pane_ops pane_spec_ops;
extern const struct pane_ops pane_code_ops;
extern const struct pane_ops pane_term_ops;
extern const struct pane_ops pane_trace_ops;
extern const struct pane_ops pane_help_ops;
extern const struct pane_ops pane_stats_ops;
extern const struct pane_ops pane_diff_ops;
extern const struct pane_ops pane_wave_ops;
extern const struct pane_ops pane_solid_ops;

/* 1 when the locale cannot show non-ASCII text (set by ui.c). */
extern int pane_ascii;

/*
 * Put UTF-8 text at (y, x) of win, at most maxw columns, tabs expanded
 * to tab-stops of 4 counted from col0, control bytes shown as '?'.
 * Returns the columns used.
 */
int	pane_put(WINDOW *win, int y, int x, int maxw, const char *s,
	    size_t len, attr_t attr);
/* The same for a NUL-terminated string. */
int	pane_puts(WINDOW *win, int y, int x, int maxw, const char *s,
	    attr_t attr);
/*
 * pane_puts() for prose (a message, a diagnostic, a trace line): text
 * wider than maxw ends in an ellipsis (pane_cut()) instead of stopping
 * bare at the edge, where "Y1 is no" read as the whole message.  Code
 * and logs, cut at the edge as an editor does, use pane_puts().
 */
int	pane_text(WINDOW *win, int y, int x, int maxw, const char *s,
	    attr_t attr);
/*
 * One character of UTF-8 text at s (n bytes): its bytes, with the
 * combining marks that follow it, and its width in columns into *width
 * (a control byte counts 1, as pane_put shows it as '?').
 */
size_t	pane_char(const char *s, size_t n, int *width);

/* Display width of UTF-8 text (tabs as 4). */
int	pane_width(const char *s, size_t len);
/*
 * Fit a title of " · "-separated fields into room columns by dropping
 * its leading fields, never the last keep of them: the fields a title
 * puts first are the ones that say least (a pane's own name, an id).
 * buf is changed in place; a title still too wide is left to the frame
 * to cut.
 */
void	pane_title_fit(char *buf, int room, int keep);
/*
 * Append " · lines A-B/TOTAL" to the title in buf (n bytes) when a
 * pane of rows rows shows total lines from top (0-based) and not all
 * fit; nothing otherwise (no " · " when buf is empty).
 */
void	pane_title_lines(char *buf, size_t n, long top, int rows, long total);
/*
 * Copy s into buf (size n), cut to at most maxw columns: a cut text
 * ends in an ellipsis ("~" where the locale has no UTF-8).
 */
void	pane_cut(const char *s, int maxw, char *buf, size_t n);
/*
 * pane_cut() for names that differ at their end (models, tasks: five
 * "codellama…" rows read alike): the ellipsis stands in the middle,
 * the head and the tail kept ("codella…2-13b").
 */
void	pane_cut_mid(const char *s, int maxw, char *buf, size_t n);

/*
 * Word-wrap text to width columns: *lines receives up to max (start,
 * length) pairs into text; returns the number of lines there are.
 */
struct pane_line {
	const char	*s;
	size_t		 len;
};
size_t	pane_wrap(const char *text, int width, struct pane_line *lines,
	    size_t max);

/* Scroll a focused pane by an action over n lines of content. */
int	pane_scroll(struct pane *p, enum action a, size_t n);

/* A duration for people: "14 ms", "2.3 s". */
void	pane_duration(int64_t ms, char *buf, size_t n);

/* Theme element of a verdict (pass, fail, other). */
enum theme_elem pane_verdict_elem(const char *verdict);

/* Short forms for the queue. */
const char *pane_short_verdict(const char *verdict);
const char *pane_short_category(const char *category);
const char *pane_short_status(const char *status);

#endif
