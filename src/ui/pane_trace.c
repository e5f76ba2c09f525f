/*
 * pane_trace.c - the trajectory of the candidate on screen: its
 * ancestors (failed -> feedback -> repair), itself, and the repairs made
 * from it, each with the verdict of its latest run.
 */
#include "pane.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct trace_line {
	int		 link;		/* index into the trace */
	int		 feedback;	/* 1: that link's feedback */
};

/* The rows of the trace; returns how many, fills up to max. */
static size_t
trace_lines(const struct wb_cur *c, struct trace_line *out, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < c->ntrace; i++) {
		const struct wb_link *l = &c->trace[i];

		if (n < max)
			out[n] = (struct trace_line){ (int)i, 0 };
		n++;
		if (l->feedback != NULL && (l->verdict == NULL ||
		    strcmp(l->verdict, "pass") != 0)) {
			if (n < max)
				out[n] = (struct trace_line){ (int)i, 1 };
			n++;
		}
	}
	return n;
}

static void
trace_draw(struct pane *p, WINDOW *win)
{
	struct wb_cur *c = &p->wb->cur;
	struct trace_line *lines;
	size_t n;
	int cur_row = 0;

	if (c->id == NULL || c->ntrace == 0)
		return;
	n = trace_lines(c, NULL, 0);
	lines = xcalloc(n, sizeof *lines);
	trace_lines(c, lines, n);
	for (size_t i = 0; i < n; i++)
		if (c->trace[lines[i].link].current && !lines[i].feedback)
			cur_row = (int)i;
	/* keep the candidate itself in view */
	if (cur_row < p->scroll)
		p->scroll = cur_row;
	if (cur_row >= p->scroll + p->rows)
		p->scroll = cur_row - p->rows + 1;
	for (int y = 0; y < p->rows && (size_t)(y + p->scroll) < n; y++) {
		struct trace_line *tl = &lines[y + p->scroll];
		const struct wb_link *l = &c->trace[tl->link];
		const char *role;
		char buf[256];
		int x = 0;

		if (tl->feedback) {
			char *fb = xasprintf("\xe2\x94\x94 feedback: %s",
			    l->feedback);

			pane_puts(win, y, 4, p->cols - 4, fb,
			    theme_attr(THEME_EVIDENCE));
			free(fb);
			continue;
		}
		if (l->current)
			role = c->ntrace == 1 ? "" : "\xe2\x96\xb6 ";
		else
			role = "  ";
		x += pane_puts(win, y, x, p->cols, role, theme_attr(
		    THEME_TITLE));
		role = tl->link + 1 < (int)c->ntrace &&
		    c->trace[tl->link + 1].kind != NULL &&
		    l->verdict != NULL && strcmp(l->verdict, "pass") != 0 ?
		    "failed" : l->kind != NULL &&
		    strcmp(l->kind, "repair") == 0 ? "repaired" :
		    l->kind ? l->kind : "";
		snprintf(buf, sizeof buf, "%-8s %s  %s", role, l->id,
		    l->origin ? l->origin : "");
		x += pane_puts(win, y, x, p->cols - x, buf, l->current ?
		    A_BOLD | theme_attr(THEME_NORMAL) : theme_attr(
		    THEME_NORMAL));
		snprintf(buf, sizeof buf, "  %s%s%s%s",
		    l->verdict ? l->verdict : "not run",
		    l->stage ? " \xc2\xb7 " : "", l->stage ? l->stage : "",
		    l->verdict && strcmp(l->verdict, "pass") == 0 ?
		    " \xe2\x9c\x93" : "");
		pane_puts(win, y, x, p->cols - x, buf, theme_attr(
		    pane_verdict_elem(l->verdict)));
	}
	if (c->ntrace == 1 && n < (size_t)p->rows && c->has_run &&
	    c->run.verdict && strcmp(c->run.verdict, "pass") != 0)
		pane_puts(win, (int)n, 2, p->cols - 2,
		    "no repair yet: e edits it into one", theme_attr(
		    THEME_DIM));
	free(lines);
}

static int
trace_request(struct pane *p, enum action a)
{
	return pane_scroll(p, a, trace_lines(&p->wb->cur, NULL, 0));
}

static void
trace_title(struct pane *p, char *buf, size_t n)
{
	size_t k = p->wb->cur.ntrace;

	if (k > 1)
		snprintf(buf, n, "%zu steps", k);
	else
		buf[0] = '\0';
}

const struct pane_ops pane_trace_ops = {
	.name = "trace",
	.draw = trace_draw,
	.request = trace_request,
	.title = trace_title,
};
