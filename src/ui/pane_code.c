/*
 * pane_code.c - the candidate's code: highlighted through syntax.h,
 * with line numbers, the latest run's diagnostics marked in the gutter
 * (and their message after the line where it fits), and the evidence
 * of a failed run on the last row.
 */
#include "pane.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* The line the evidence row shows, new string or NULL. */
static char *
code_evidence(const struct wb_cur *c)
{
	if (!c->has_run || c->run.verdict == NULL ||
	    strcmp(c->run.verdict, "pass") == 0)
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
	if (c->run.evidence != NULL && *c->run.evidence != '\0')
		return xasprintf("evidence: %s", c->run.evidence);
	return NULL;
}

/* Put a segment, expanding tabs against the line's own columns. */
static void
code_put(WINDOW *win, int y, int x0, int *col, int maxcol, const char *s,
    size_t len, attr_t attr)
{
	while (len > 0 && *col < maxcol) {
		size_t run = 0;

		while (run < len && s[run] != '\t')
			run++;
		if (run > 0) {
			int w = pane_put(win, y, x0 + *col, maxcol - *col, s,
			    run, attr);

			*col += w;
			if (w < pane_width(s, run))
				return;		/* cut at the edge */
		}
		s += run;
		len -= run;
		if (len > 0 && *s == '\t') {
			int n = 4 - *col % 4;

			while (n-- > 0 && *col < maxcol) {
				mvwaddch(win, y, x0 + *col, ' ' | attr);
				(*col)++;
			}
			s++;
			len--;
		}
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

static void
code_draw(struct pane *p, WINDOW *win)
{
	struct wb_cur *c = &p->wb->cur;
	const char *text = c->cand.code;
	size_t nlines, *at;
	char *ev;
	int rows = p->rows, nw, gut;
	char num[32];

	if (c->id == NULL || text == NULL) {
		pane_puts(win, 0, 0, p->cols, "no candidate",
		    theme_attr(THEME_DIM));
		return;
	}
	at = code_lines(text, c->cand.code_len, &nlines);
	ev = code_evidence(c);
	if (ev != NULL && rows >= 3)
		rows--;
	/* a taller pane (after a resize) shows as much as fits */
	if (p->scroll > (int)nlines - rows)
		p->scroll = (int)nlines - rows > 0 ? (int)nlines - rows : 0;
	nw = snprintf(num, sizeof num, "%zu", nlines);
	gut = nw + 2;
	for (int y = 0; y < rows; y++) {
		size_t line = (size_t)(p->scroll + y);
		const struct diag *d;
		size_t ls, le, nspans = 0, pos;
		const struct syn_span *sp = NULL;
		int col = 0, maxcol = p->cols - gut;

		if (line >= nlines)
			break;
		d = diag_on(c, (int)line + 1);
		snprintf(num, sizeof num, "%*zu", nw, line + 1);
		/* The evidence line's number stands out even without a
		 * diagnostic on it (a mismatch points at the driving code). */
		pane_puts(win, y, 0, nw, num, theme_attr((d != NULL &&
		    !is_warning(d)) || (c->has_run && c->run.evidence_line ==
		    (int)line + 1) ? THEME_EVIDENCE : THEME_LINENR));
		if (d == NULL && c->has_run && c->run.evidence_line ==
		    (int)line + 1)
			pane_puts(win, y, nw, 1, ">",
			    theme_attr(THEME_EVIDENCE));
		if (d != NULL)
			pane_puts(win, y, nw, 1, is_warning(d) ? "W" : "E",
			    theme_attr(is_warning(d) ? THEME_GUTTER_WARN :
			    THEME_GUTTER_ERR));
		ls = at[line];
		le = at[line + 1];
		if (le > ls && text[le - 1] == '\n')
			le--;
		if (le > ls && text[le - 1] == '\r')
			le--;
		if (c->syn != NULL && line < syntax_nlines(c->syn))
			sp = syntax_line_spans(c->syn, line, &nspans);
		pos = 0;
		for (size_t s = 0; s < nspans && col < maxcol; s++) {
			size_t st = sp[s].start, en = sp[s].end;

			if (st > le - ls)
				break;
			if (en > le - ls)
				en = le - ls;
			if (st > pos)
				code_put(win, y, gut, &col, maxcol, text + ls +
				    pos, st - pos, theme_attr(THEME_NORMAL));
			if (st < pos)
				st = pos;
			if (en > st)
				code_put(win, y, gut, &col, maxcol, text + ls +
				    st, en - st, theme_attr(theme_syntax(
				    sp[s].group)));
			if (en > pos)
				pos = en;
		}
		if (pos < le - ls)
			code_put(win, y, gut, &col, maxcol, text + ls + pos,
			    le - ls - pos, theme_attr(THEME_NORMAL));
		if (d != NULL && d->message != NULL && col + 6 < maxcol) {
			char *m = xasprintf("\xe2\x97\x80 %s", d->message);

			pane_puts(win, y, gut + col + 2, maxcol - col - 2, m,
			    theme_attr(is_warning(d) ? THEME_OTHER :
			    THEME_EVIDENCE));
			free(m);
		}
	}
	if (ev != NULL && rows < p->rows) {
		wmove(win, p->rows - 1, 0);
		for (int i = 0; i < p->cols; i++)
			waddch(win, ' ' | theme_attr(THEME_EVIDENCE));
		pane_puts(win, p->rows - 1, 0, p->cols, ev,
		    theme_attr(THEME_EVIDENCE) | A_REVERSE);
	}
	free(ev);
	free(at);
}

static int
code_request(struct pane *p, enum action a)
{
	struct wb_cur *c = &p->wb->cur;
	size_t nlines = 0, *at;

	if (c->cand.code == NULL)
		return 0;
	at = code_lines(c->cand.code, c->cand.code_len, &nlines);
	free(at);
	return pane_scroll(p, a, nlines + 1);
}

static void
code_title(struct pane *p, char *buf, size_t n)
{
	struct wb_cur *c = &p->wb->cur;

	if (c->id == NULL)
		buf[0] = '\0';
	else if (c->has_run)
		snprintf(buf, n, "%s \xe2\x94\x80 run #%lld %s",
		    c->cand.lang ? c->cand.lang : "", (long long)c->run.id,
		    c->run.verdict ? c->run.verdict : "");
	else
		snprintf(buf, n, "%s", c->cand.lang ? c->cand.lang : "");
}

const struct pane_ops pane_code_ops = {
	.name = "candidate",
	.draw = code_draw,
	.request = code_request,
	.title = code_title,
};
