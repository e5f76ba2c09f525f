/*
 * termfilter.h - a run's output made safe to feed a terminal (term.h).
 *
 * A verification job's bytes, a stored run log and a model's answer are
 * written by code under test; fed raw to the toolchain pane's terminal
 * they could hide or erase the harness's lines and assay's own (conceal,
 * black on black, ESC[2J, cursor moves, a charset switch), so that the
 * pane says something other than the verdict.  The filter lets through
 * what a log needs and nothing that reaches beyond the line it is on:
 *
 *  - printable ASCII, tabs, and valid UTF-8 other than C1 controls,
 *    separators and bidirectional overrides (safe_cp_unsafe); every
 *    other byte or sequence becomes U+FFFD;
 *  - a combining or other zero-width character (U+0301, U+200B) with no
 *    character before it on its line to attach to (at a line's start,
 *    after a tab) gets U+25CC DOTTED CIRCLE as its base: alone, a
 *    terminal or a multiplexer draws it onto the cell before the
 *    cursor, the end of the line above;
 *  - line ends: "\n", "\r\n" and a lone "\r" each end the line, as
 *    "\r\n" (a lone "\r" would let a line be overwritten); the pen is
 *    reset at every line end when the line set it;
 *  - SGR (ESC [ ... m) with only these parameters: 0 (reset), 1 bold,
 *    2 dim, 3 italic, 4 underline, 22-24 (their resets), 39 (default
 *    foreground), 31-36 and 91-96 (red, green, yellow, blue, magenta,
 *    cyan, normal and bright).  Others are dropped from the sequence:
 *    background colours, black, white and grey (the colours of one
 *    theme's background or another's), 256-colour and RGB colours,
 *    reverse, conceal, blink (reverse video is the mark of the pane's
 *    own lines, which a run must not imitate);
 *  - nothing else: every other CSI (cursor moves, erase, scroll
 *    regions, modes), every OSC, DCS, APC, PM and SOS string, every
 *    other escape sequence and every other C0 control (BS, BEL, SO, SI,
 *    VT, FF, NUL) and DEL is dropped.
 *
 * An escape sequence or UTF-8 sequence may straddle two calls (a pty
 * read ends anywhere).  A sequence never crosses a line end: a line end
 * ends it (and is kept), and a sequence longer than TERM_FILTER_SEQ_MAX
 * (a CSI or ESC sequence) or TERM_FILTER_STR_MAX (a string) bytes ends
 * there, so that a sequence a run leaves open swallows at most that
 * many bytes of what follows on its line.
 */
#ifndef ASSAY_TERMFILTER_H
#define ASSAY_TERMFILTER_H

#include <stddef.h>

#include "base/buf.h"

#define TERM_FILTER_SEQ_MAX 48	/* bytes of a CSI or ESC sequence */
#define TERM_FILTER_STR_MAX 256	/* bytes of an OSC/DCS/... string */

struct term_filter {
	int		 state;		/* enum in termfilter.c */
	char		 seq[TERM_FILTER_SEQ_MAX + 1];	/* CSI parameters */
	size_t		 nseq;		/* bytes of the sequence so far */
	int		 seq_bad;	/* the CSI is not a plain SGR */
	unsigned char	 u8[4];		/* a UTF-8 sequence so far */
	int		 nu8;
	int		 pen;		/* an SGR was passed on this line */
	int		 after_cr;	/* the last byte was a lone "\r" */
	int		 mid_line;	/* text since the last line end */
	int		 base;		/* the last text was a character a
					 * combining one attaches to */
};

/* A filter in its first state (a line's start, no pen). */
void	term_filter_init(struct term_filter *f);

/*
 * Filter n bytes of s (any bytes, NULs included), appending what may be
 * shown to out.  What a sequence cut at the end needs is kept in f.
 */
void	term_filter_run(struct term_filter *f, const char *s, size_t n,
	    struct buf *out);

/*
 * The text ends (a stored log, a model's answer) or other text follows
 * (assay's own lines): a sequence left open is dropped (a cut UTF-8
 * sequence becomes U+FFFD), the pen is reset, f starts again.  Does not
 * end the line; term_filter_mid_line() says whether one is open.
 */
void	term_filter_end(struct term_filter *f, struct buf *out);

/* 1 when text was passed since the last line end. */
int	term_filter_mid_line(const struct term_filter *f);

#endif
