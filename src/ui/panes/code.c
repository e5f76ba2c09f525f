/*
 * panes/code.c - the candidate's code: highlighted through syntax.h,
 * with line numbers, the latest run's diagnostics marked in the gutter
 * (and their message after the line where it fits), its hot lines
 * (feedback "hot_lines": a profiler's share of the instructions) marked
 * H with their share, and the evidence of a failed run on the last row.
 */
#include "ui/wb.h"
#include "model/vocab.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "lang/syntax.h"
#include "model/feedback.h"

/* A hot line is marked when it holds this share of the count, and the
 * hottest always. */
#define HOT_SHARE 0.10
#define HOT_MAX 8

/* The first diagnostic on line (1-based), or NULL. */
static const struct diag *
diag_on(const struct wb_cur *c, int line)
{
	if (!c->has_run)
		return NULL;
	for (size_t i = 0; i < c->run.ndiags; i++)
		if (c->run.diags[i].cand_line == line)
			return &c->run.diags[i];
	return NULL;
}

static int
is_warning(const struct diag *d)
{
	return d->severity != NULL && (strcmp(d->severity, "warning") == 0 ||
	    strcmp(d->severity, "note") == 0);
}

/* The gutter mark of a diagnostic: E error, W warning, N note (such as
 * iverilog's "declared here" beside an error). */
static char
diag_mark(const struct diag *d)
{
	if (d->severity != NULL && strcmp(d->severity, "note") == 0)
		return 'N';
	return is_warning(d) ? 'W' : 'E';
}

/* The line the evidence row shows, new string or NULL. */
static char *
code_evidence(const struct wb_cur *c)
{
	if (!c->has_run || c->run.verdict == NULL ||
	    verdict_is(c->run.verdict, VERDICT_PASS))
		return NULL;
	/* Triage's cause, and the candidate line it points to, first. */
	if (c->run.evidence_line > 0 && c->run.evidence != NULL)
		return xasprintf("line %d: %s", c->run.evidence_line,
		    c->run.evidence);
	for (size_t i = 0; i < c->run.ndiags; i++) {
		const struct diag *d = &c->run.diags[i];

		if (d->cand_line > 0 && !is_warning(d))
			return xasprintf("line %d: %s", d->cand_line,
			    d->message ? d->message : "");
	}
	/* A performance failure's bottleneck (a feedback member, never
	 * the evidence's): its hottest line. */
	if (c->run.feedback != NULL && c->run.evidence != NULL) {
		json_t *root;
		const char *bn = feedback_text(c->run.feedback, "bottleneck",
		    &root);
		json_int_t line = json_integer_value(json_object_get(
		    json_object_get(root, "bottleneck"), "line"));
		char *row = bn != NULL && line > 0 ? xasprintf("line %lld:"
		    " %s; bottleneck: %s", (long long)line, c->run.evidence,
		    bn) : NULL;

		json_decref(root);
		if (row != NULL)
			return row;
	}
	if (c->run.evidence != NULL && *c->run.evidence != '\0')
		return xasprintf("evidence: %s", c->run.evidence);
	return NULL;
}

/*
 * Put a segment of a line, expanding tabs against the line's own
 * columns: *col is the column in the line where it starts; what falls in
 * [hs, hs + maxcol) is drawn from x0 (hs: the horizontal scroll, or the
 * start of a wrapped row).
 */
static void
code_put(WINDOW *win, int y, int x0, int *col, int hs, int maxcol,
    const char *s, size_t len, attr_t attr)
{
	size_t i = 0;

	while (i < len && *col < hs + maxcol) {
		size_t k;
		int w;

		if (s[i] == '\t') {
			int n = 4 - *col % 4;

			while (n-- > 0 && *col < hs + maxcol) {
				if (*col >= hs)
					mvwaddch(win, y, x0 + *col - hs,
					    ' ' | attr);
				(*col)++;
			}
			i++;
			continue;
		}
		k = pane_char(s + i, len - i, &w);
		if (*col + w > hs + maxcol)
			return;		/* cut at the edge */
		if (*col >= hs)
			pane_put(win, y, x0 + *col - hs, w, s + i, k, attr);
		else if (*col + w > hs)	/* a wide character half shown */
			mvwaddch(win, y, x0, ' ' | attr);
		*col += w;
		i += k;
	}
}

/* Line start offsets of text: new array of *n + 1 entries. */
static size_t *
code_lines(const char *text, size_t len, size_t *n)
{
	size_t cap = 64, k = 0, *at = xmalloc(cap * sizeof *at);

	at[k++] = 0;
	for (size_t i = 0; i < len; i++) {
		if (text[i] != '\n')
			continue;
		if (k + 1 >= cap) {
			cap *= 2;
			at = xreallocarray(at, cap, sizeof *at);
		}
		at[k++] = i + 1;
	}
	if (len > 0 && text[len - 1] == '\n')
		k--;		/* a trailing newline ends the last line */
	*n = k;
	at[k] = len;
	return at;
}

/* Bytes [*ls, *le) of line (0-based) without its line end. */
static void
code_span(const char *text, const size_t *at, size_t line, size_t *ls,
    size_t *le)
{
	*ls = at[line];
	*le = at[line + 1];
	if (*le > *ls && text[*le - 1] == '\n')
		(*le)--;
	if (*le > *ls && text[*le - 1] == '\r')
		(*le)--;
}

/* Rows line takes when wrapped at maxcol columns. */
static int
code_rows(const char *text, const size_t *at, size_t line, int maxcol)
{
	size_t ls, le;
	int w;

	code_span(text, at, line, &ls, &le);
	w = pane_width(text + ls, le - ls);
	return w <= maxcol || maxcol < 1 ? 1 : (w + maxcol - 1) / maxcol;
}

/*
 * The pane's own state: the syntax tree of the candidate it was parsed
 * for (NULL: none, or no grammar for its language).
 */
struct code_pane {
	unsigned long	 gen;		/* wb->cur_gen it was parsed at */
	int		 parsed;	/* syn is for gen */
	struct syntax	*syn;
	struct {
		int	 line;		/* 1-based */
		double	 share;		/* of the candidate's count */
	}		 hot[HOT_MAX];	/* the run's hot lines to mark */
	int		 nhot;
	/* the line the pane opened on and the scroll it gave at rows:
	 * while the reviewer has not scrolled, a resize shows that line
	 * again (a shrink left the evidence below the pane) */
	int		 anchor;	/* 1-based, 0: none */
	int		 anchor_rows;
	int		 anchor_scroll;
};

/* The hot lines of the run's feedback ("hot_lines": {"lines": [{"line",
 * "count", "share"}]}, hottest first) that are marked. */
static void
code_hot(struct code_pane *cp, const struct wb_cur *c)
{
	json_t *root, *v;
	size_t i;

	cp->nhot = 0;
	if (!c->has_run || c->run.feedback == NULL)
		return;
	root = json_loads(c->run.feedback, 0, NULL);
	json_array_foreach(json_object_get(json_object_get(root,
	    "hot_lines"), "lines"), i, v) {
		json_int_t line = json_integer_value(json_object_get(v,
		    "line"));
		double share = json_number_value(json_object_get(v, "share"));

		if (cp->nhot == HOT_MAX || line <= 0 || line > 1000000 ||
		    (cp->nhot > 0 && share < HOT_SHARE))
			continue;
		cp->hot[cp->nhot].line = (int)line;
		cp->hot[cp->nhot++].share = share;
	}
	json_decref(root);
}

/* Line's share of the count when it is a marked hot line, else < 0. */
static double
hot_on(const struct code_pane *cp, int line)
{
	for (int i = 0; i < cp->nhot; i++)
		if (cp->hot[i].line == line)
			return cp->hot[i].share;
	return -1;
}

static void
code_parse(struct pane *p)
{
	struct code_pane *cp = p->priv;
	const struct wb_cur *c = &p->wb->cur;
	struct err err;

	syntax_free(cp->syn);
	cp->syn = NULL;
	cp->parsed = 1;
	if (c->id == NULL || c->cand.id == NULL)
		return;
	if (syntax_parse(&cp->syn, c->cand.lang, c->cand.code ?
	    c->cand.code : "", c->cand.code_len, &err) < 0)
		cp->syn = NULL;
}

/* Scroll so that the anchor line stands a third down the pane, and
 * note the rows and scroll it was placed at. */
static void
code_anchor(struct pane *p, struct code_pane *cp)
{
	int rows = p->rows - 1;
	int top = cp->anchor - 1 - rows / 3;
	int max = (int)syntax_nlines(cp->syn) - rows;

	if (cp->anchor <= 0)
		return;
	if (cp->syn != NULL && top > max)
		top = max;
	p->scroll = top > 0 ? top : 0;
	cp->anchor_rows = p->rows;
	cp->anchor_scroll = p->scroll;
}

/*
 * A candidate loaded since the last look (wb->cur_gen moved): parse it,
 * and show its first diagnosed line (else its evidence line when that is
 * a hot line) a third down the pane.  Parsed again
 * in place after open (the grammars became ready).
 */
static void
code_sync(struct pane *p)
{
	struct code_pane *cp = p->priv;
	const struct wb_cur *c = &p->wb->cur;
	int line;

	if (cp->parsed && cp->gen == p->wb->cur_gen) {
		/* resized, not scrolled since it opened: the same line */
		if (cp->anchor > 0 && p->rows != cp->anchor_rows &&
		    p->scroll == cp->anchor_scroll)
			code_anchor(p, cp);
		return;
	}
	if (cp->gen == p->wb->cur_gen) {	/* open: the same candidate */
		code_parse(p);
		return;
	}
	cp->gen = p->wb->cur_gen;
	cp->anchor = 0;
	code_parse(p);
	if (c->id == NULL || !c->has_run)
		return;
	/* the line the verdict rests on (its evidence's), else the first
	 * error, else the first diagnosed line, else the hottest (a
	 * performance failure's): a lint warning at line 171 took the view
	 * from the evidence at line 108 */
	code_hot(cp, c);
	line = c->run.evidence_line;
	for (size_t i = 0; line <= 0 && i < c->run.ndiags; i++)
		if (c->run.diags[i].severity != NULL &&
		    strcmp(c->run.diags[i].severity, "error") == 0)
			line = c->run.diags[i].cand_line;
	for (size_t i = 0; line <= 0 && i < c->run.ndiags; i++)
		line = c->run.diags[i].cand_line;
	if (line <= 0 && cp->nhot > 0)
		line = cp->hot[0].line;
	cp->anchor = line > 0 ? line : 0;
	code_anchor(p, cp);
}

/* Parse the candidate again (the grammars are ready now). */
static int
code_open(struct pane *p, const struct pane_place *at)
{
	struct code_pane *cp = p->priv;

	(void)at;
	cp->parsed = 0;
	return 0;
}

static void
code_close(struct pane *p)
{
	struct code_pane *cp = p->priv;

	syntax_free(cp->syn);
	cp->syn = NULL;
}

/*
 * Draw line (0-based) at row y from its column hs, highlighted; returns
 * the column the drawing reached (in line columns).
 */
static int
code_line(struct pane *p, WINDOW *win, int y, int x0, size_t line,
    const size_t *at, int hs, int maxcol)
{
	struct wb_cur *c = &p->wb->cur;
	const struct code_pane *cp = p->priv;
	const char *text = c->cand.code;
	const struct syn_span *sp = NULL;
	size_t ls, le, nspans = 0, pos = 0;
	int col = 0;

	code_span(text, at, line, &ls, &le);
	if (cp->syn != NULL && line < syntax_nlines(cp->syn))
		sp = syntax_line_spans(cp->syn, line, &nspans);
	for (size_t s = 0; s < nspans && col < hs + maxcol; s++) {
		size_t st = sp[s].start, en = sp[s].end;

		if (st > le - ls)
			break;
		if (en > le - ls)
			en = le - ls;
		if (st > pos)
			code_put(win, y, x0, &col, hs, maxcol, text + ls + pos,
			    st - pos, theme_attr(THEME_NORMAL));
		if (st < pos)
			st = pos;
		if (en > st)
			code_put(win, y, x0, &col, hs, maxcol, text + ls + st,
			    en - st, theme_attr(theme_syntax(sp[s].group)));
		if (en > pos)
			pos = en;
	}
	if (pos < le - ls)
		code_put(win, y, x0, &col, hs, maxcol, text + ls + pos,
		    le - ls - pos, theme_attr(THEME_NORMAL));
	return col;
}

/* The gutter of line (0-based): its number and its diagnostic's mark. */
static void
code_gutter(struct pane *p, WINDOW *win, int y, size_t line, int nw)
{
	struct wb_cur *c = &p->wb->cur;
	const struct diag *d = diag_on(c, (int)line + 1);
	int ev = c->has_run && c->run.evidence_line == (int)line + 1;
	int hot = hot_on(p->priv, (int)line + 1) >= 0;
	char num[32];

	snprintf(num, sizeof num, "%*zu", nw, line + 1);
	/* The evidence line's number stands out even without a
	 * diagnostic on it (a mismatch points at the driving code). */
	pane_puts(win, y, 0, nw, num, theme_attr((d != NULL &&
	    diag_mark(d) == 'E') || ev ? THEME_EVIDENCE : THEME_LINENR));
	if (d == NULL && hot)	/* a profiler's hot line */
		pane_puts(win, y, nw, 1, "H", theme_attr(THEME_GUTTER_WARN) |
		    A_BOLD);
	else if (d == NULL && ev)
		pane_puts(win, y, nw, 1, ">", theme_attr(THEME_EVIDENCE));
	if (d != NULL) {
		char m[2] = { diag_mark(d), '\0' };

		pane_puts(win, y, nw, 1, m, theme_attr(m[0] == 'E' ?
		    THEME_GUTTER_ERR : m[0] == 'W' ? THEME_GUTTER_WARN :
		    THEME_DIM));
	}
}

static void
code_draw(struct pane *p, WINDOW *win)
{
	struct wb_cur *c = &p->wb->cur;
	const char *text = c->cand.code;
	const char *more = pane_ascii ? ">" : "\xe2\x80\xba";
	const char *less = pane_ascii ? "<" : "\xe2\x80\xb9";
	size_t nlines, *at, line = 0;
	char *ev;
	int rows = p->rows, nw, gut, maxcol, total, k = 0;
	char num[32];

	code_sync(p);
	code_hot(p->priv, c);	/* the run may be new since the parse */
	if (c->id == NULL || text == NULL) {
		pane_text(win, 0, 0, p->cols, "no candidate",
		    theme_attr(THEME_DIM));
		return;
	}
	at = code_lines(text, c->cand.code_len, &nlines);
	ev = code_evidence(c);
	if (ev != NULL && rows >= 3)
		rows--;
	nw = snprintf(num, sizeof num, "%zu", nlines);
	gut = nw + 2;
	maxcol = p->cols - gut;
	if (maxcol < 1)
		maxcol = 1;
	total = (int)nlines;
	if (p->wrap) {
		total = 0;
		for (size_t i = 0; i < nlines; i++)
			total += code_rows(text, at, i, maxcol);
	}
	/* a taller pane (after a resize) shows as much as fits */
	if (p->scroll > total - rows)
		p->scroll = total - rows > 0 ? total - rows : 0;
	if (p->wrap) {
		/* the line and the row of it at the top */
		int row = 0;

		while (line < nlines) {
			int n = code_rows(text, at, line, maxcol);

			if (row + n > p->scroll) {
				k = p->scroll - row;
				break;
			}
			row += n;
			line++;
		}
	} else {
		line = (size_t)p->scroll;
	}
	for (int y = 0; y < rows && line < nlines; y++) {
		const struct diag *d = diag_on(c, (int)line + 1);
		int hs = p->wrap ? k * maxcol : p->hscroll, col, w, last;
		size_t ls, le;

		if (k == 0)
			code_gutter(p, win, y, line, nw);
		col = code_line(p, win, y, gut, line, at, hs, maxcol);
		code_span(text, at, line, &ls, &le);
		w = pane_width(text + ls, le - ls);
		if (!p->wrap && w > hs + maxcol)	/* cut: say so */
			pane_puts(win, y, gut + maxcol - 1, 1, more,
			    theme_attr(THEME_LINENR) | A_BOLD);
		if (!p->wrap && hs > 0 && w > 0)
			pane_puts(win, y, gut - 1, 1, less,
			    theme_attr(THEME_LINENR) | A_BOLD);
		/* the message after the line's last row, wrapped or not
		 * (wrapping took every message away) */
		last = !p->wrap || k + 1 >= code_rows(text, at, line, maxcol);
		if (d != NULL && d->message != NULL && (p->wrap || hs == 0) &&
		    last && col + 6 < maxcol) {
			char *m = xasprintf("\xe2\x97\x80 %s", d->message);

			pane_text(win, y, gut + col + 2, maxcol - col - 2, m,
			    theme_attr(diag_mark(d) == 'E' ? THEME_EVIDENCE :
			    THEME_OTHER));
			free(m);
		} else if (d == NULL && (p->wrap || hs == 0) && last &&
		    col + 6 < maxcol && hot_on(p->priv, (int)line + 1) >= 0) {
			char *m = xasprintf("%s hot: %.1f %% of the"
			    " instructions", pane_ascii ? "<" :
			    "\xe2\x97\x80", 100 * hot_on(p->priv,
			    (int)line + 1));

			pane_text(win, y, gut + col + 2, maxcol - col - 2, m,
			    theme_attr(THEME_GUTTER_WARN));
			free(m);
		}
		if (p->wrap && ++k < code_rows(text, at, line, maxcol))
			continue;
		k = 0;
		line++;
	}
	if (ev != NULL && rows < p->rows) {
		wmove(win, p->rows - 1, 0);
		for (int i = 0; i < p->cols; i++)
			waddch(win, ' ' | theme_attr(THEME_EVIDENCE));
		pane_text(win, p->rows - 1, 0, p->cols, ev,
		    theme_attr(THEME_EVIDENCE) | A_REVERSE);
	}
	free(ev);
	free(at);
}

/* The widest line of the code (columns). */
static int
code_widest(const struct wb_cur *c)
{
	size_t nlines, *at = code_lines(c->cand.code, c->cand.code_len,
	    &nlines), ls, le;
	int max = 0;

	for (size_t i = 0; i < nlines; i++) {
		int w;

		code_span(c->cand.code, at, i, &ls, &le);
		w = pane_width(c->cand.code + ls, le - ls);
		if (w > max)
			max = w;
	}
	free(at);
	return max;
}

static int
code_key(struct pane *p, int key, enum action a)
{
	struct wb_cur *c = &p->wb->cur;
	size_t nlines = 0, *at;
	int maxcol, step, total;
	char num[32];

	(void)key;	/* the workbench's actions only */
	code_sync(p);
	if (c->cand.code == NULL)
		return 0;
	at = code_lines(c->cand.code, c->cand.code_len, &nlines);
	maxcol = p->cols - snprintf(num, sizeof num, "%zu", nlines) - 2;
	if (maxcol < 1)
		maxcol = 1;
	step = maxcol / 2 > 1 ? maxcol / 2 : 1;
	total = (int)nlines;
	if (p->wrap) {
		total = 0;
		for (size_t i = 0; i < nlines; i++)
			total += code_rows(c->cand.code, at, i, maxcol);
	}
	free(at);
	switch (a) {
	case ACTION_SCROLL_LEFT:
	case ACTION_SCROLL_RIGHT: {
		/* the last column shows with the cut mark gone */
		int max = code_widest(c) - maxcol;

		if (p->wrap) {
			wb_msg(p->wb, 0, "the lines wrap (w cuts them again)");
			return 1;
		}
		p->hscroll += a == ACTION_SCROLL_RIGHT ? step : -step;
		if (p->hscroll > max)
			p->hscroll = max;
		if (p->hscroll < 0)
			p->hscroll = 0;
		return 1;
	}
	case ACTION_WRAP: {
		/* the line at the top stays there (w w went back to line
		 * 1): its first row when the lines wrap, else the line */
		int row = 0, top = 0;

		at = code_lines(c->cand.code, c->cand.code_len, &nlines);
		for (size_t i = 0; i < nlines; i++) {
			int n = code_rows(c->cand.code, at, i, maxcol);

			if (p->wrap ? row + n > p->scroll : (int)i == p->scroll)
				break;
			row += n;
			top++;
		}
		free(at);
		p->scroll = p->wrap ? top : row;
		p->wrap = !p->wrap;
		p->hscroll = 0;
		wb_msg(p->wb, 0, "candidate: long lines %s", p->wrap ?
		    "wrap" : "are cut (h l scroll them)");
		return 1;
	}
	default:
		return pane_scroll(p, a, (size_t)total + 1);
	}
}

static void
code_title(struct pane *p, char *buf, size_t n)
{
	struct wb_cur *c = &p->wb->cur;

	if (c->id == NULL)
		buf[0] = '\0';
	else if (c->has_run)
		snprintf(buf, n, "%s \xc2\xb7 run #%lld %s",
		    c->cand.lang ? c->cand.lang : "", (long long)c->run.id,
		    c->run.verdict ? c->run.verdict : "");
	else
		snprintf(buf, n, "%s", c->cand.lang ? c->cand.lang : "");
	if (c->id != NULL && p->wrap)
		snprintf(buf + strlen(buf), n - strlen(buf), " \xc2\xb7 wrap");
	else if (c->id != NULL && p->hscroll > 0)
		snprintf(buf + strlen(buf), n - strlen(buf), " \xc2\xb7 from "
		    "col %d", p->hscroll + 1);
	/* too long for the frame: the language and run go first, the
	 * column stays (it was cut at the end: "fail · from") */
	pane_title_fit(buf, p->title_room, 1);
}

const struct pane_ops pane_code_ops = {
	.name = "candidate",
	.priv_size = sizeof(struct code_pane),
	.open = code_open,
	.draw = code_draw,
	.key = code_key,
	.title = code_title,
	.close = code_close,
};
