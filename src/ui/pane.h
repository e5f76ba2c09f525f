/*
 * pane.h - the workbench's shared state and the pane interface, for the
 * files of src/ui only.
 *
 * struct wb is the model: the queue page, the candidate on screen, the
 * toolchain job or editor, the message line.  Panes are objects over it
 * (tig's view_ops, struct pane_ops): each owns its private state, draws
 * its own window and handles keys while it has the focus; the sheets
 * (help, stats, diff) are panes over the layout.  Only ui.c names the
 * panes' tables.  Nothing is drawn outside ui_frame(); I/O handlers and
 * decisions only change the model and mark it dirty.
 */
#ifndef ASSAY_UI_PANE_H
#define ASSAY_UI_PANE_H

#include <regex.h>
#include <stddef.h>
#include <stdint.h>

#include <curses.h>

#include "app/action.h"
#include "model/agreement.h"
#include "base/buf.h"
#include "app/config.h"
#include "app/history.h"
#include "app/keymap.h"
#include "exec/pty.h"
#include "model/sample.h"
#include "store/store.h"
#include "lang/syntax.h"
#include "exec/term.h"
#include "ui/theme.h"
#include "ui/ui.h"
#include "verify/verify.h"

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
	/* Text for the right end of the title rule into buf (may be NULL). */
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
enum wb_sheet { WB_HELP, WB_STATS, WB_DIFF, WB_NSHEETS };

/*
 * v and e zoom a small toolchain pane: while the program runs (RUN), and
 * after a verification ended until the next key that is not a scroll
 * key (HOLD), so that its output can be read.
 */
enum wb_auto_zoom { WB_AZ_NONE, WB_AZ_RUN, WB_AZ_HOLD };

/* A y/n question in the status bar and what a "y" does. */
enum wb_ask { WB_ASK_NONE, WB_ASK_ACCEPT, WB_ASK_QUIT, WB_ASK_BULK,
    WB_ASK_LABEL };

/* One step of the trace: a candidate of the chain and its latest run. */
struct wb_link {
	char	*id, *origin, *kind, *verdict, *stage, *feedback;
	int	 current;
	int	 depth;		/* branches above it (for the indent) */
};

/*
 * The `:` and `/` lines beyond their text (prompt.c): the history and
 * where Up/Down are in it, and the completions of the word at the end.
 */
struct wb_prompt {
	struct history	 hist;
	long		 pos;		/* the entry shown; -1: typed */
	char		*typed;		/* the line before Up; owned */
	char		**comps;	/* ncomps completions; owned */
	size_t		 ncomps;
	size_t		 comp;		/* the one chosen; ncomps: none */
	size_t		 word;		/* where the completed word starts */
	int		 cycling;	/* the next Tab walks comps */
};

/* The candidate on screen and everything shown about it. */
struct wb_cur {
	char		*id;		/* NULL: nothing selected */
	struct candidate cand;
	struct task	 task;
	struct store_row row;		/* its queue row (decisions) */
	struct run	 run;		/* latest run, if has_run */
	int		 has_run;
	struct recorded	*rec;
	size_t		 nrec;
	struct store_note *notes;	/* its free notes, oldest first */
	size_t		 nnotes;
	struct store_vote *votes;	/* reviewers' labels (store_votes) */
	size_t		 nvotes;
	struct syntax	*syn;
	struct wb_link	*trace;		/* ancestors, it, its repairs */
	size_t		 ntrace;
	int		 trace_fresh;	/* place the trace's view anew */
};

/*
 * The navigation stack (VisiData's sheets): what Esc, or q in a
 * sub-view, goes back to.  A drill-down from the stats sheet, a :view
 * and a zoom push one; the entry holds what was there before.  Owns its
 * strings.
 */
enum wb_nav_kind { WB_NAV_FILTER, WB_NAV_ZOOM };
struct wb_nav {
	int	 kind;		/* enum wb_nav_kind */
	char	*filter;	/* the filter before, NULL: all */
	char	*id;		/* the candidate under the cursor then */
	struct pane *sheet;	/* a drill-down from it: open it again */
	struct pane_place place;	/* where its cursor was */
	char	 what[64];	/* for the message: "stats drill-down" */
};

/* :verify running in the background (batch.c). */
struct wb_batch {
	int		 pid;		/* the child `assay verify`; 0: none */
	int		 fd;		/* its stdout and stderr */
	struct buf	 part;		/* a line not ended yet */
	size_t		 done, total;	/* [done/total] of its last line */
	size_t		 results, pass, fail;	/* runs it stored */
	size_t		 seen;		/* results when the view was read */
	size_t		 unchanged;	/* from verify's summary line */
	int		 summary;	/* 1: that line was read */
	int64_t		 t0, refreshed;	/* ms */
	int		 jobs, cancelled;
	char		 last_err[256];
};

struct wb {
	struct store		*st;		/* borrowed */
	const struct ui_opts	*o;		/* borrowed */
	struct verify_opts	 vopts;
	struct keymap		 km;
	struct config		 cfg;		/* theme, mouse, advance */
	char			*reviewer;
	char			*filter;	/* NULL: everything */

	/* The queue: only the visible page is held. */
	size_t			 count, sel, top;
	struct store_row	*rows;
	size_t			 nrows, rows_off;
	int			 stale;		/* re-read the page */
	/*
	 * With stale: the view changed around the cursor (a refresh, a
	 * bulk decision, a run stored), so the cursor follows its
	 * candidate, not its row number (wb_view_changed).
	 */
	int			 follow;
	/*
	 * The candidate under the cursor changed by itself (it left the
	 * view): decision keys do nothing until this time (ms, monotonic).
	 */
	int64_t			 guard_until;
	int			 detached;	/* cur is not in the queue */
	struct wb_cur		 cur;
	/* Marked candidates (Space), in memory only; owns the ids. */
	char			**marks;
	size_t			 nmarks;
	char			*bulk;		/* the :command a y runs */

	/* Layout. */
	struct pane		 panes[WB_NPANES];
	struct pane		 sheets[WB_NSHEETS];
	int			 focus;		/* enum wb_pane */
	int			 zoom;		/* zoomed pane or -1 */
	int			 auto_zoom;	/* enum wb_auto_zoom */
	int			 zoom_before;	/* zoom before auto_zoom */
	int			 focus_before;	/* focus before auto_zoom */
	int			 relayout;
	int			 resized;	/* the terminal changed size */

	/* Bytes of program output since the last frame (the toolchain
	 * pane adds them): a flood draws less often. */
	size_t			 term_fed;

	/* The status bar. */
	char			 msg[512];
	int			 msg_err;
	enum wb_ask		 ask;
	char			 ask_id[80];	/* what WB_ASK_ACCEPT, _LABEL
						   ask of */
	char			 ask_cat[32];	/* the WB_ASK_LABEL category */
	int			 prompt_open;	/* the : or / line */
	char			 prompt_kind;	/* ':' or '/' */
	char			 prompt[256];
	size_t			 prompt_len;
	struct wb_prompt	 pr;

	/* `/` search: the pattern, compiled (search_ok) */
	char			*search;
	regex_t			 search_re;
	int			 search_ok;

	struct wb_batch		 batch;
	struct wb_nav		*nav;		/* nnav, the top last */
	size_t			 nnav;

	int			 quit;
	int			 dirty;
	int			 redraw_all;
};

/* --- wb.c: the model -------------------------------------------------- */

/* Status bar message; err_msg != 0 shows it as an error. */
void	wb_msg(struct wb *wb, int is_err, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));

/* Re-read the count and the visible page when stale or scrolled, and
 * load the selected candidate when it changed. */
void	wb_sync(struct wb *wb, int page_rows);

/* The visible row at absolute index i, or NULL when not loaded. */
const struct store_row *wb_row(const struct wb *wb, size_t i);

/* Move the selection to index i (clamped). */
void	wb_select(struct wb *wb, size_t i);

/* Select candidate id: in the queue when the filter has it, else shown
 * on its own (until it matches: wb_sync checks again when stale).  Marks
 * everything stale.  id is borrowed and may point into wb->cur. */
void	wb_select_id(struct wb *wb, const char *id);

/*
 * After a decision on id, the candidate under the selection: move to the
 * next row (when advance) if it is still in the filter; if it left, the
 * next row has taken its place.  Why not count again: at a million
 * candidates a count and a position cost tens of milliseconds each, and
 * a decision changes one row (store_query_match tells).  Any other id,
 * or a candidate shown outside the queue, is counted and placed anew.
 */
void	wb_advance(struct wb *wb, const char *id, int advance);

/*
 * Candidate id changed (undo, redo, a bulk action): count the queue and
 * read its page again together, and select id (shown on its own when it
 * is not in the filter), as wb_select_id().
 */
void	wb_changed(struct wb *wb, const char *id);

/* Load candidate id as the current one (NULL clears).  id is borrowed
 * and may be wb->cur.id, which this frees: it works on a copy. */
void	wb_load(struct wb *wb, const char *id);

/* Mark the queue and the current candidate for re-reading. */
void	wb_refresh(struct wb *wb);

/*
 * The view changed around the cursor (C-l, a bulk decision, an undo of
 * many, a run stored): re-read it and keep the cursor on the candidate
 * it was on.  When that candidate left the view the cursor goes to the
 * nearest following one (else the nearest before it), the status line
 * says so ("c072ba25 left the view; now on c23842e5") and decision keys
 * are refused for WB_GUARD_MS (wb_guarded).
 */
void	wb_view_changed(struct wb *wb);
#define WB_GUARD_MS	700

/* Monotonic milliseconds. */
int64_t	wb_now_ms(void);

/* 1 when a decision key must not act now: the candidate under the
 * cursor changed by itself less than WB_GUARD_MS ago. */
int	wb_guarded(const struct wb *wb);

/* Set a new filter (NULL or "" for all); 0, or -1 with a message.
 * filter is borrowed and may be wb->filter. */
int	wb_set_filter(struct wb *wb, const char *filter);

/*
 * `/`: compile pattern (POSIX extended, ignoring case) as the search and
 * go to its first match after the selection.  0, or -1 with a message.
 */
int	wb_search_set(struct wb *wb, const char *pattern);
/* n / N: the next (dir 1) or previous (dir -1) match in the filter,
 * reading pages from the store as needed and wrapping around. */
void	wb_search_next(struct wb *wb, int dir);

void	wb_release(struct wb *wb);

/*
 * The navigation stack.  wb_nav_filter: push the filter in force and the
 * candidate under the cursor (with the sheet it came from and its
 * cursor, from->place, when from is not NULL), then set filter; what names the step in messages.  0, or
 * -1 with a message (nothing pushed).  wb_nav_zoom: push a zoom (the
 * caller zooms).  wb_nav_unzoom: drop the newest zoom entry (z gave the
 * layout back).  wb_nav_pop: go back one step: 0, or 1 when the stack is
 * empty.
 */
int	wb_nav_filter(struct wb *wb, const char *filter, struct pane *from,
	    const char *what);
void	wb_nav_zoom(struct wb *wb);
void	wb_nav_unzoom(struct wb *wb);
int	wb_nav_pop(struct wb *wb);
void	wb_nav_release(struct wb *wb);

/* Marks: toggle id (1 when it is marked now), ask, clear all. */
int	wb_mark_toggle(struct wb *wb, const char *id);
int	wb_marked(const struct wb *wb, const char *id);
void	wb_marks_clear(struct wb *wb);

/* --- prompt.c: the `:` and `/` lines ---------------------------------- */

/* Load the history (a message says when it cannot be read). */
void	prompt_init(struct wb *wb);
void	prompt_release(struct wb *wb);
/* Open the prompt kind (':' or '/') with text (may be NULL). */
void	prompt_open(struct wb *wb, char kind, const char *text);
/*
 * A key while the prompt is open.  Returns 1 when Enter ran the line:
 * it is in out (size n), the prompt is closed and the line is in the
 * history.  0 otherwise (Esc closes the prompt).
 */
int	prompt_key(struct wb *wb, int key, char *out, size_t n);
/* Draw the completion menu above the status bar, if one is open. */
void	prompt_draw_menu(struct wb *wb);

/* --- batch.c: :verify in the background ------------------------------ */

/*
 * :verify [JOBS] [force]: verify the marked candidates, else the view
 * (its filter), JOBS at a time (default: the CPUs, at most 8), through a
 * child `assay verify` whose progress lines are read here.  0, or -1
 * with a message.
 */
int	batch_start(struct wb *wb, const char *arg);
int	batch_running(const struct wb *wb);
/* The fd to poll while it runs, else -1; the poll timeout it needs
 * (ms, -1: none). */
int	batch_fd(const struct wb *wb);
int	batch_timeout(const struct wb *wb);
/* Read its progress; re-read the view as results land; finish it. */
void	batch_io(struct wb *wb);
/* x, C-c: end it (what it stored stays).  batch_stop also reaps it. */
void	batch_cancel(struct wb *wb);
void	batch_stop(struct wb *wb);

/* --- mouse.c ---------------------------------------------------------- */

/*
 * A mouse event at screen row y, column x: a click (button 1, 3) selects
 * the queue row or focuses the pane under it, the wheel (dir -1 up, 1
 * down, 0 for a click) scrolls what is under it.
 */
void	mouse_event(struct wb *wb, int y, int x, int button, int dir);

/* --- pane_term.c: the toolchain pane ---------------------------------- */

/*
 * v: verify candidate id, its task's reference first when that never ran
 * (verify_reference_pending()), so that a defective task shows as
 * task-defect, not as the model's failure.  0 or -1 (message).
 */
int	wb_verify(struct wb *wb, const char *id);
/* Start verifying candidate id live in the pane.  0 or -1 (message).
 * id is borrowed and may be wb->cur.id: this never reloads wb->cur. */
int	term_pane_verify(struct wb *wb, const char *id);
/* Cancel the job (x). */
void	term_pane_cancel(struct wb *wb);
/* Open $EDITOR on the current candidate.  0 or -1 (message). */
/*
 * The path of the running assay program into buf (n bytes), for the
 * workbench's child commands (:verify, R, :repair): 0, or -1 with a
 * message "WHAT: cannot find the assay program: ...".
 */
int	wb_assay_path(struct wb *wb, const char *what, char *buf, size_t n);
int	term_pane_edit(struct wb *wb);
/*
 * R: run `assay repair --where id=ID --rounds 1 --show` on the current
 * candidate in the toolchain pane (the generator from the config file,
 * model.h), so the feedback sent, the answer and its verification show
 * there; when it exits, select the repair it made.  0 or -1 (message).
 */
int	term_pane_model_repair(struct wb *wb);
/*
 * :repair [ROUNDS] and :generate [SAMPLES]: `assay repair` (with
 * --show) or `assay generate` over the marked candidates, else the
 * view's filter, in the toolchain pane; the workbench refreshes when it
 * exits.  verb: "repair" or "generate".  0 or -1 (message).
 */
int	term_pane_model_run(struct wb *wb, const char *verb,
	    const char *count);
/* A job or an editor is running. */
int	term_pane_busy(const struct wb *wb);
/* A verification job is running. */
int	term_pane_verifying(const struct wb *wb);
/* 1 while the program in the pane has the keyboard. */
int	term_pane_kbd(const struct wb *wb);
/*
 * C-] (on 1): give the keyboard to the program in the pane (zoomed when
 * the pane is small), or say that none runs.  on 0: the workbench has
 * it (every key that reaches the workbench's tables says so).
 */
void	term_pane_keyboard(struct wb *wb, int on);
/* What runs in the pane, for the status line ("ENV · ID"); never NULL. */
const char *term_pane_program(const struct wb *wb);
/* Where the program's cursor is while it has the keyboard: 0, or -1
 * when the workbench has the keyboard. */
int	term_pane_cursor(const struct wb *wb, int *row, int *col,
	    int *visible);
/* The fd to poll, or -1. */
int	term_pane_fd(const struct wb *wb);
/* Poll timeout the pane needs (ms), -1 for none. */
int	term_pane_timeout(const struct wb *wb);
/* Read what is ready, advance the job, finish it or the editor. */
void	term_pane_io(struct wb *wb);
/* A key (keymap code) while the program has the keyboard: C-] (the
 * term table's keyboard action) takes it back, every other goes to the
 * program. */
void	term_pane_key(struct wb *wb, int key);
/* Zoom the pane for its program on a small screen (on), or give the
 * layout back (off); only undoes a zoom it made itself. */
void	term_pane_zoom(struct wb *wb, int on);
/* A key came while the zoom is held after a run: 1 when it only gave
 * the layout back (the key is used up), 0 when it should act too. */
int	term_pane_unhold(struct wb *wb, enum action a);
/* Stop everything before quitting. */
void	term_pane_stop(struct wb *wb);
/*
 * The candidate on screen changed while nothing runs in the pane: show
 * its latest run's stored log there (from the line its verdict rests
 * on), or say it never ran.  A live run stays until it ends; the output
 * of a model run (:repair, :generate) stays until the next program.
 */
void	term_pane_follow(struct wb *wb);

/* --- the panes and drawing helpers ------------------------------------ */

extern const struct pane_ops pane_queue_ops;
extern const struct pane_ops pane_spec_ops;
extern const struct pane_ops pane_code_ops;
extern const struct pane_ops pane_term_ops;
extern const struct pane_ops pane_trace_ops;
extern const struct pane_ops pane_help_ops;
extern const struct pane_ops pane_stats_ops;
extern const struct pane_ops pane_diff_ops;

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
 * One character of UTF-8 text at s (n bytes): its bytes, with the
 * combining marks that follow it, and its width in columns into *width
 * (a control byte counts 1, as pane_put shows it as '?').
 */
size_t	pane_char(const char *s, size_t n, int *width);

/* Display width of UTF-8 text (tabs as 4). */
int	pane_width(const char *s, size_t len);
/*
 * Copy s into buf (size n), cut to at most maxw columns: a cut text
 * ends in an ellipsis ("~" where the locale has no UTF-8).
 */
void	pane_cut(const char *s, int maxw, char *buf, size_t n);

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

/* --- statusbar.c ------------------------------------------------------ */

void	statusbar_draw(struct wb *wb, WINDOW *win, int y, int cols);

#endif
