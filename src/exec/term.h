/*
 * term.h - a virtual terminal screen: the only module that calls vterm_*.
 *
 * Bytes go in (term_feed), screen cells and damaged rows come out.  The
 * module knows nothing about ptys or curses: src/ui/pane_term.c wires a
 * pty's output into term_feed() and draws cells with curses; keys typed
 * into the pane go through term_key*() and come back out through the
 * output callback, to be written to the pty.  libvterm callbacks only
 * record damage; nothing is drawn from inside them.
 *
 * Lines that scroll off the top of the screen go into a scrollback ring
 * owned by the terminal (at most TERM_SB_MAX lines; the oldest go
 * first).  Rows below 0 read it: row -1 is the newest line scrolled off,
 * row -term_sb_lines() the oldest held.  The alternate screen (a full
 * screen program such as vi) scrolls nothing into it.
 */
#ifndef ASSAY_TERM_H
#define ASSAY_TERM_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"

#define TERM_MAX_CHARS 6	/* code points per cell (combining marks) */
#define TERM_SB_MAX 5000	/* lines of scrollback kept */

/* Colour of a cell: default, an xterm-256 index, or 24-bit RGB. */
enum term_color_kind { TERM_COLOR_DEFAULT, TERM_COLOR_INDEXED, TERM_COLOR_RGB };
struct term_color {
	enum term_color_kind kind;
	uint8_t		 idx;		/* TERM_COLOR_INDEXED */
	uint8_t		 r, g, b;	/* TERM_COLOR_RGB */
};

struct term_cell {
	uint32_t	 chars[TERM_MAX_CHARS + 1];	/* 0-terminated; empty = blank */
	int		 width;		/* 1, or 2 for a wide character */
	int		 bold, underline, italic, reverse;
	struct term_color fg, bg;
};

/* Named keys for term_key(); printable input goes through term_unichar. */
enum term_key {
	TERM_KEY_ENTER, TERM_KEY_TAB, TERM_KEY_BACKSPACE, TERM_KEY_ESCAPE,
	TERM_KEY_UP, TERM_KEY_DOWN, TERM_KEY_LEFT, TERM_KEY_RIGHT,
	TERM_KEY_HOME, TERM_KEY_END, TERM_KEY_PAGEUP, TERM_KEY_PAGEDOWN,
	TERM_KEY_DEL, TERM_KEY_INS, TERM_KEY_FN	/* TERM_KEY_FN + n: F(n) */
};
#define TERM_MOD_CTRL 4	/* modifier bit for term_unichar (Ctrl-letter) */

/* Bytes the terminal answers with (typed keys, query replies). */
typedef void (*term_output_fn)(const char *bytes, size_t len, void *arg);

struct term;

/* New terminal of rows x cols (each >= 1); caller frees with term_free(). */
struct term *term_new(int rows, int cols, term_output_fn out, void *arg);
void	term_free(struct term *t);		/* NULL-safe */

/*
 * Feed output of the program into the terminal: any number of bytes, in
 * chunks cut anywhere (an escape or a UTF-8 sequence may straddle two
 * calls; the start of a UTF-8 sequence cut at the end is held until
 * the next call).  A line of any length is safe: libvterm gets at most
 * TERM_WRITE_MAX bytes a write (term.c says why).
 */
#define TERM_WRITE_MAX 16384	/* bytes per libvterm write */
void	term_feed(struct term *t, const char *bytes, size_t len);

/*
 * Clear the screen and the scrollback and reset modes (a new program
 * starts in the pane).
 */
void	term_reset(struct term *t);

/*
 * Change the size; content is cut, not reflowed (libvterm 0.1.4), so a
 * caller that wants to keep long lines grows the terminal and clips what
 * it draws rather than shrink it.  Fewer rows push the top lines into
 * the scrollback; more rows pull them back.
 */
void	term_resize(struct term *t, int rows, int cols);
void	term_size(const struct term *t, int *rows, int *cols);

/*
 * Read one cell; a position outside the screen and the scrollback gives
 * a blank cell.  Row -1 .. -term_sb_lines() read the scrollback (-1 is
 * the newest line); a scrollback line keeps the width it had, cells past
 * it are blank.
 */
void	term_cell(const struct term *t, int row, int col, struct term_cell *c);

/* Lines held in the scrollback, 0 .. TERM_SB_MAX. */
int	term_sb_lines(const struct term *t);

/*
 * Lines scrolled off the top since term_new() or term_reset(), less
 * those pulled back by a resize: the absolute number of screen row 0.
 * Screen row r is line term_sb_total() + r and scrollback row -k is line
 * term_sb_total() - k, whatever arrives later, so a view that keeps an
 * absolute line number does not move with new output.  Lines below
 * term_sb_total() - term_sb_lines() were dropped from the ring.
 */
long	term_sb_total(const struct term *t);

/* Drop the scrollback (the screen stays). */
void	term_sb_clear(struct term *t);

/*
 * Rows damaged since the last call, as [*lo, *hi); returns 0 when none.
 * Calling it clears the damage.
 */
int	term_damage(struct term *t, int *lo, int *hi);

/* Cursor position and visibility. */
void	term_cursor(const struct term *t, int *row, int *col, int *visible);

/* Send a key to the program (through the output callback). */
void	term_key(struct term *t, enum term_key k, int mods);
void	term_unichar(struct term *t, uint32_t ch, int mods);

/*
 * Text of row (0-based; below 0 the scrollback, as for term_cell) as
 * UTF-8, trailing blanks dropped, into buf of size n (always
 * NUL-terminated).  For --dump-screen, the pane and tests.
 */
void	term_row_text(const struct term *t, int row, char *buf, size_t n);

#endif
