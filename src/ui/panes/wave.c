/*
 * panes/wave.c - `W` or `:wave`: the waveform sheet of the current
 * candidate's latest run (run.wave, the compared signals a Verilog
 * simulation kept; envs/verilog_wave.h).  One row per signal, time
 * across in steps (the times at which any signal changes), each
 * reference/candidate pair interleaved: 1-bit signals as a trace of
 * lower and upper blocks, buses as their values.  A pair that differs
 * gets a mark row under it, "^" under every differing step, and the
 * differing steps of its rows are drawn in the fail colour, so the
 * difference shows with NO_COLOR too.  The cursor opens on the first
 * mismatch; n/N (Tab/BTab) go to the next/previous one, h/l move a
 * step, g/G to the ends, +/- zoom in time, Esc goes back.
 *
 * The VCD is read by model/vcd.c; this file only lays the steps out
 * and draws them.
 */
#include "ui/wb.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/vcd.h"

#define WAVE_CW_MIN 1		/* columns of one step, zoomed out */
#define WAVE_CW_MAX 16		/* zoomed in */
#define WAVE_LABEL_MAX 18	/* columns of the names */

/* A row of the sheet: a signal, or a pair's mark row. */
struct wave_row {
	int	 sig;		/* index into vcd.sig; -1: mark row */
	int	 pair;		/* its pair, -1: none */
	int	 cand;		/* 1: the candidate's side */
};

/* The sheet's state: the parsed run.wave and its layout.  Owns all. */
struct wave_sheet {
	struct vcd	 v;
	struct vcd_pair	*pairs;
	size_t		 np;
	struct wave_row	*rows;
	size_t		 nrows;
	int64_t		*times;		/* the steps */
	size_t		 nt;
	size_t		 cur;		/* the cursor's step */
	size_t		 left;		/* the first step shown */
	int		 cw;		/* columns a step takes */
	int64_t		 first;		/* the first mismatch, or -1 */
	char		 id[64];	/* whose run */
};

static void
wave_release(struct wave_sheet *w)
{
	if (w == NULL)
		return;
	vcd_release(&w->v);
	free(w->pairs);
	free(w->rows);
	free(w->times);
	memset(w, 0, sizeof *w);
}

static void
row_add(struct wave_sheet *w, int sig, int pair, int cand)
{
	w->rows = xreallocarray(w->rows, w->nrows + 1, sizeof *w->rows);
	w->rows[w->nrows].sig = sig;
	w->rows[w->nrows].pair = pair;
	w->rows[w->nrows].cand = cand;
	w->nrows++;
}

/* Does pair k differ at step i? */
static int
differs_at(const struct wave_sheet *w, size_t k, size_t i)
{
	const struct vcd_pair *p = &w->pairs[k];

	return vcd_differs(vcd_value_at(&w->v, p->ref, w->times[i]),
	    vcd_value_at(&w->v, p->cand, w->times[i]),
	    w->v.sig[p->ref].width);
}

/* The step at time t (the last one at or before it). */
static size_t
step_of(const struct wave_sheet *w, int64_t t)
{
	size_t i = 0;

	while (i + 1 < w->nt && w->times[i + 1] <= t)
		i++;
	return i;
}

/* The next (dir 1) or previous (-1) mismatch of any pair from the
 * cursor: 0 and the step in *out, or -1. */
static int
next_mismatch(const struct wave_sheet *w, int dir, size_t *out)
{
	int64_t best = 0, t;
	int found = 0;

	if (w->nt == 0)
		return -1;
	for (size_t k = 0; k < w->np; k++) {
		if (vcd_mismatch(&w->v, &w->pairs[k], w->times[w->cur], dir,
		    &t) < 0)
			continue;
		if (!found || (dir > 0 ? t < best : t > best))
			best = t;
		found = 1;
	}
	if (!found)
		return -1;
	*out = step_of(w, best);
	return 0;
}

/* Columns left for the steps, and how many steps fit. */
static int
label_width(const struct wave_sheet *w)
{
	int lw = 6;

	for (size_t i = 0; i < w->nrows; i++) {
		const struct wave_row *r = &w->rows[i];
		int n = r->sig >= 0 ? (int)strlen(r->pair >= 0 ?
		    w->pairs[r->pair].name : w->v.sig[r->sig].leaf) + 5 : 0;

		lw = n > lw ? n : lw;
	}
	return lw > WAVE_LABEL_MAX ? WAVE_LABEL_MAX : lw;
}

static size_t
steps_shown(const struct pane *p, const struct wave_sheet *w)
{
	int n = (p->cols - label_width(w) - 1) / w->cw;

	return n > 0 ? (size_t)n : 1;
}

/* Keep the cursor's step on screen, a few steps in from the edge. */
static void
follow(struct pane *p, struct wave_sheet *w)
{
	size_t n = steps_shown(p, w), margin = n > 8 ? 2 : 0;

	if (w->cur < w->left + margin)
		w->left = w->cur > margin ? w->cur - margin : 0;
	else if (w->cur >= w->left + n - margin)
		w->left = w->cur + margin + 1 - n;
}

/* Say the values under the cursor on the status line. */
static void
say_cursor(struct wb *wb, const struct wave_sheet *w)
{
	struct buf b = BUF_INIT;
	size_t nd = 0;

	if (w->nt == 0)
		return;
	{
		char when[48];

		vcd_time_text(&w->v, w->times[w->cur], when, sizeof when);
		buf_printf(&b, "wave: %s:", when);
	}
	for (size_t k = 0; k < w->np; k++) {
		char a[48], c[48];
		const struct vcd_pair *p = &w->pairs[k];
		int width = w->v.sig[p->ref].width;

		vcd_format(vcd_value_at(&w->v, p->ref, w->times[w->cur]),
		    width, a, sizeof a);
		vcd_format(vcd_value_at(&w->v, p->cand, w->times[w->cur]),
		    width, c, sizeof c);
		buf_printf(&b, " %s %s/%s%s", p->name, a, c,
		    differs_at(w, k, w->cur) ? "!" : "");
		nd += differs_at(w, k, w->cur);
	}
	wb_msg(wb, 0, "%s%s", buf_str(&b), nd > 0 ? "  (! differs)" : "");
	buf_release(&b);
}

static int
wave_open(struct pane *p, const struct pane_place *at)
{
	struct wb *wb = p->wb;
	struct wave_sheet *w = p->priv;
	const struct run *r = &wb->cur.run;
	struct err err = { "" };
	int *idx;
	size_t k;

	(void)at;	/* always at the first mismatch */
	if (wb->cur.id == NULL) {
		wb_msg(wb, 1, "wave: no candidate selected");
		return -1;
	}
	if (!wb->cur.has_run || r->wave == NULL || r->wave_len == 0) {
		wb_msg(wb, 0, "wave: %s has no waveform (a Verilog simulation"
		    " of a testbench comparing NAME_ref with NAME_dut keeps"
		    " one)", wb->cur.id);
		return -1;
	}
	wave_release(w);
	if (vcd_parse(r->wave, r->wave_len, "run.wave", &w->v, &err) < 0) {
		wb_msg(wb, 1, "wave: %s", err.msg);
		return -1;
	}
	snprintf(w->id, sizeof w->id, "%s", wb->cur.id);
	w->np = vcd_pairs(&w->v, &w->pairs);
	/* pairs interleaved, a mark row under each that ever differs;
	 * then the rest */
	for (k = 0; k < w->np; k++) {
		int64_t t;

		row_add(w, w->pairs[k].ref, (int)k, 0);
		row_add(w, w->pairs[k].cand, (int)k, 1);
		if (vcd_mismatch(&w->v, &w->pairs[k], INT64_MIN, 1, &t) == 0)
			row_add(w, -1, (int)k, 0);
	}
	for (size_t i = 0; i < w->v.nsig; i++) {
		int paired = 0;

		for (k = 0; k < w->np; k++)
			paired |= w->pairs[k].ref == (int)i ||
			    w->pairs[k].cand == (int)i;
		if (!paired)
			row_add(w, (int)i, -1, 0);
	}
	idx = xcalloc(w->v.nsig + 1, sizeof *idx);
	for (size_t i = 0; i < w->v.nsig; i++)
		idx[i] = (int)i;
	w->nt = vcd_times(&w->v, idx, w->v.nsig, INT64_MIN, INT64_MAX,
	    &w->times);
	free(idx);
	w->cw = 6;
	w->first = -1;
	w->cur = 0;
	{
		size_t s;

		if (w->nt > 0 && next_mismatch(w, 1, &s) == 0) {
			w->cur = s;
			w->first = w->times[s];
		} else if (w->nt > 0) {
			/* INT64_MIN is no step: look from before the first */
			for (k = 0; k < w->np; k++)
				if (differs_at(w, k, 0))
					w->first = w->times[0];
		}
	}
	w->left = 0;
	p->scroll = 0;
	follow(p, w);
	if (w->first < 0)
		wb_msg(wb, 0, "wave: the reference and the candidate agree"
		    " throughout");
	else
		say_cursor(wb, w);
	return 0;
}

static int
wave_key(struct pane *p, int key, enum action a)
{
	struct wb *wb = p->wb;
	struct wave_sheet *w = p->priv;
	enum action wa = keymap_lookup(&wb->km, KEYMAP_WAVE, key);
	size_t s;

	if (wa == ACTION_CLOSE) {
		p->shown = 0;
		/* the sheet's own message (values under its cursor, its
		 * zoom) says nothing once it is gone */
		if (strncmp(wb->msg, "wave: ", 6) == 0)
			wb->msg[0] = '\0';
		return 1;
	}
	if (wa == ACTION_NONE && a == ACTION_HELP) {
		(void)pane_open(&wb->lay.sheets[WB_HELP], NULL);
		return 1;
	}
	if (wa == ACTION_WAVE_NEXT || wa == ACTION_WAVE_PREV) {
		if (next_mismatch(w, wa == ACTION_WAVE_NEXT ? 1 : -1, &s) < 0) {
			wb_msg(wb, 0, "wave: no %s mismatch", wa ==
			    ACTION_WAVE_NEXT ? "later" : "earlier");
			return 1;
		}
		w->cur = s;
		follow(p, w);
		say_cursor(wb, w);
		return 1;
	}
	if (wa == ACTION_WAVE_ZOOM_IN || wa == ACTION_WAVE_ZOOM_OUT) {
		int cw = wa == ACTION_WAVE_ZOOM_IN ? w->cw * 2 : w->cw / 2;

		w->cw = cw < WAVE_CW_MIN ? WAVE_CW_MIN : cw > WAVE_CW_MAX ?
		    WAVE_CW_MAX : cw;
		follow(p, w);
		wb_msg(wb, 0, "wave: %d column%s a step", w->cw, w->cw == 1 ?
		    "" : "s");
		return 1;
	}
	switch (a) {
	case ACTION_SCROLL_LEFT:
		if (w->cur > 0)
			w->cur--;
		break;
	case ACTION_SCROLL_RIGHT:
		if (w->cur + 1 < w->nt)
			w->cur++;
		break;
	case ACTION_MOVE_FIRST:
		w->cur = 0;
		break;
	case ACTION_MOVE_LAST:
		w->cur = w->nt > 0 ? w->nt - 1 : 0;
		break;
	default:
		return pane_scroll(p, a, w->nrows + 1);
	}
	follow(p, w);
	say_cursor(wb, w);
	return 1;
}

static void
wave_close(struct pane *p)
{
	wave_release(p->priv);
}

/* The label of row r into buf. */
static void
row_label(const struct wave_sheet *w, const struct wave_row *r, char *buf,
    size_t n)
{
	if (r->sig < 0)
		snprintf(buf, n, "  %s", pane_ascii ? "!=" : "\xe2\x89\xa0");
	else if (r->pair >= 0)
		snprintf(buf, n, "%s %s", w->pairs[r->pair].name, r->cand ?
		    "cand" : "ref");
	else
		snprintf(buf, n, "%s", w->v.sig[r->sig].leaf);
}

/* A 1-bit signal's step: cw cells of its level. */
static void
draw_bit(WINDOW *win, int y, int x, int cw, char bit, attr_t attr)
{
	const char *c;

	switch (bit) {
	case '0':
		c = pane_ascii ? "_" : "\xe2\x96\x81";	/* lower block */
		break;
	case '1':
		c = pane_ascii ? "^" : "\xe2\x96\x94";	/* upper block */
		break;
	case 'z':
		c = "-";
		break;
	default:
		c = "x";
		break;
	}
	for (int i = 0; i < cw; i++)
		pane_puts(win, y, x + i, 1, c, attr);
}

/*
 * A bus from step s on: a span of steps with one value shows "|" and the
 * value, cut to the span.  Returns the steps the span covers on screen.
 */
static size_t
draw_bus(const struct pane *p, const struct wave_sheet *w, WINDOW *win,
    int y, int x0, const struct wave_row *r, size_t s, size_t end)
{
	const struct vcd_signal *sig = &w->v.sig[r->sig];
	const char *val = vcd_value_at(&w->v, r->sig, w->times[s]);
	char text[80];
	size_t e = s + 1;
	int x = x0 + (int)(s - w->left) * w->cw, span;
	int diff = r->pair >= 0 && differs_at(w, (size_t)r->pair, s);
	attr_t attr = theme_attr(diff ? THEME_FAIL : THEME_NORMAL);

	/* a span ends where the value or the difference changes */
	while (e < end && vcd_value_at(&w->v, r->sig, w->times[e]) != NULL &&
	    val != NULL && memcmp(vcd_value_at(&w->v, r->sig, w->times[e]),
	    val, (size_t)sig->width) == 0 && (r->pair < 0 ||
	    differs_at(w, (size_t)r->pair, e) == diff))
		e++;
	span = (int)(e - s) * w->cw;
	if (x + span > p->cols)
		span = p->cols - x;
	vcd_format(val, sig->width, text, sizeof text);
	for (int i = 0; i < span; i++)
		pane_puts(win, y, x + i, 1, " ", attr);
	pane_puts(win, y, x, 1, pane_ascii ? "|" : "\xe2\x94\x82",
	    theme_attr(THEME_BORDER));
	if (span > 1) {
		int tw = (int)strlen(text);

		if (tw > span - 1) {
			/* cut, never silently */
			pane_put(win, y, x + 1, span - 2, text, (size_t)span - 2,
			    attr);
			pane_puts(win, y, x + span - 1, 1, pane_ascii ? "~" :
			    "\xe2\x80\xa6", attr);
		} else {
			pane_puts(win, y, x + 1, span - 1, text, attr);
		}
	}
	return e - s;
}

static void
wave_draw(struct pane *p, WINDOW *win)
{
	struct wave_sheet *w = p->priv;
	int lw = label_width(w), x0 = lw + 1;
	size_t n = steps_shown(p, w), end;
	char buf[64];

	if (w->nt == 0) {
		pane_puts(win, 0, 0, p->cols, "(the waveform has no changes)",
		    theme_attr(THEME_DIM));
		return;
	}
	end = w->left + n < w->nt ? w->left + n : w->nt;
	/* the time ruler: a time every few steps, the cursor's marked */
	pane_puts(win, 0, 0, lw, "time", theme_attr(THEME_HEADER));
	for (size_t s = w->left; s < end;) {
		int x = x0 + (int)(s - w->left) * w->cw;
		int len = snprintf(buf, sizeof buf, "%lld",
		    (long long)w->times[s]);

		if (x + len > p->cols)
			break;
		pane_puts(win, 0, x, len, buf, theme_attr(THEME_DIM));
		s += (size_t)((len + w->cw) / w->cw);
	}
	{
		int x = x0 + (int)(w->cur - w->left) * w->cw;

		pane_puts(win, 1, 0, lw, "", 0);
		pane_puts(win, 1, x, 1, pane_ascii ? "v" : "\xe2\x96\xbc",
		    theme_attr(THEME_CURSOR));
		snprintf(buf, sizeof buf, " %lld", (long long)w->times[w->cur]);
		if (x + 1 + (int)strlen(buf) <= p->cols)
			pane_puts(win, 1, x + 1, (int)strlen(buf), buf,
			    theme_attr(THEME_CURSOR));
	}
	for (int y = 2; y < p->rows; y++) {
		size_t ri = (size_t)(p->scroll + y - 2);
		const struct wave_row *r;
		char label[96];

		if (ri >= w->nrows)
			break;
		r = &w->rows[ri];
		row_label(w, r, label, sizeof label);
		pane_puts(win, y, 0, lw, label, theme_attr(r->sig < 0 ?
		    THEME_FAIL : r->cand ? THEME_LABEL : THEME_NORMAL));
		if (r->sig < 0) {
			/* the mark row: "^" under each differing step */
			for (size_t s = w->left; s < end; s++)
				if (differs_at(w, (size_t)r->pair, s))
					for (int i = 0; i < w->cw; i++)
						pane_puts(win, y, x0 + (int)(s -
						    w->left) * w->cw + i, 1,
						    "^", theme_attr(
						    THEME_FAIL));
			continue;
		}
		if (w->v.sig[r->sig].width == 1) {
			for (size_t s = w->left; s < end; s++) {
				const char *v = vcd_value_at(&w->v, r->sig,
				    w->times[s]);
				int d = r->pair >= 0 &&
				    differs_at(w, (size_t)r->pair, s);

				draw_bit(win, y, x0 + (int)(s - w->left) *
				    w->cw, w->cw, v != NULL ? v[0] : 'x',
				    theme_attr(d ? THEME_FAIL : THEME_NORMAL));
			}
			continue;
		}
		for (size_t s = w->left; s < end;)
			s += draw_bus(p, w, win, y, x0, r, s, end);
	}
}

static void
wave_title(struct pane *p, char *buf, size_t n)
{
	const struct wave_sheet *w = p->priv;
	char when[48];

	if (w->first >= 0)
		vcd_time_text(&w->v, w->first, when, sizeof when);
	/* the rule already names the sheet "wave" */
	snprintf(buf, n, "%s \xc2\xb7 %s%s%s", w->id, w->first >= 0 ?
	    "first mismatch " : "no mismatch", w->first >= 0 ? when : "",
	    p->cols >= 100 ? " \xc2\xb7 n/N mismatch, +/- zoom" : "");
}

const struct pane_ops pane_wave_ops = {
	.name = "wave",
	.priv_size = sizeof(struct wave_sheet),
	.open = wave_open,
	.draw = wave_draw,
	.key = wave_key,
	.title = wave_title,
	.close = wave_close,
};
