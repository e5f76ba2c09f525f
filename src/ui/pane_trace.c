/*
 * pane_trace.c - the trajectory of the candidate on screen: its
 * ancestors (failed -> feedback -> repair), itself, and the repairs made
 * from it, each with the verdict of its latest run.  When that run is a
 * pipeline's (pipeline.h), each env's stages follow the candidate's row.
 */
#include "ui/pane.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verify/pipeline.h"
#include "model/vocab.h"

struct trace_line {
	int		 link;		/* index into the trace */
	int		 feedback;	/* 1: that link's feedback */
	int		 step;		/* >= 0: that pipeline member's row */
};

/* The members of the current candidate's pipeline run, if it is one. */
static void
trace_steps(const struct wb_cur *c, struct pipeline_step **st, size_t *n)
{
	*st = NULL;
	*n = 0;
	if (c->has_run)
		pipeline_steps(c->run.env, c->run.metrics, st, n);
}

/* The rows of the trace; returns how many, fills up to max. */
static size_t
trace_lines(const struct wb_cur *c, size_t nsteps, struct trace_line *out,
    size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < c->ntrace; i++) {
		const struct wb_link *l = &c->trace[i];

		if (n < max)
			out[n] = (struct trace_line){ (int)i, 0, -1 };
		n++;
		for (size_t k = 0; l->current && k < nsteps; k++) {
			if (n < max)
				out[n] = (struct trace_line){ (int)i, 0,
				    (int)k };
			n++;
		}
		if (l->feedback != NULL && (l->verdict == NULL ||
		    !verdict_is(l->verdict, VERDICT_PASS))) {
			if (n < max)
				out[n] = (struct trace_line){ (int)i, 1, -1 };
			n++;
		}
	}
	return n;
}

/*
 * A pipeline member's row: "iverilog  pass  compile ✓ isolate ✓
 * simulate ✓  mismatches=0 total=20", the stage where it failed marked ✗.
 */
static void
step_draw(struct pane *p, WINDOW *win, int y, const struct pipeline_step *s)
{
	int pass = verdict_is(s->verdict, VERDICT_PASS), x = 4;
	char buf[128];

	snprintf(buf, sizeof buf, "%-9s", s->env);
	x += pane_puts(win, y, x, p->cols - x, buf, theme_attr(THEME_NORMAL));
	snprintf(buf, sizeof buf, "%-8s", s->verdict);
	x += pane_puts(win, y, x, p->cols - x, buf, theme_attr(
	    pane_verdict_elem(strcmp(s->verdict, "not-run") == 0 ? NULL :
	    s->verdict)));
	for (size_t k = 0; k < s->nstages && x < p->cols; k++) {
		int ok = !pipeline_step_failed(s, k);

		snprintf(buf, sizeof buf, " %s %s", s->stages[k], ok ?
		    "\xe2\x9c\x93" : "\xe2\x9c\x97");
		x += pane_puts(win, y, x, p->cols - x, buf, theme_attr(ok ?
		    THEME_DIM : THEME_EVIDENCE));
	}
	if (s->subcategory != NULL && !pass && x < p->cols) {
		snprintf(buf, sizeof buf, "  %s", s->subcategory);
		x += pane_puts(win, y, x, p->cols - x, buf, theme_attr(
		    THEME_EVIDENCE));
	}
	if (s->metrics != NULL && *s->metrics != '\0' && x < p->cols) {
		char *m = xasprintf("  %s", s->metrics);

		pane_puts(win, y, x, p->cols - x, m, theme_attr(THEME_DIM));
		free(m);
	}
}

/*
 * A step's title, by its verdict: "failed", "repaired ✓" (a repair that
 * passes), "passed ✓", "not run", or the verdict itself (timeout,
 * env-error), padded to 11 columns.
 */
static void
trace_role(const struct wb_link *l, char *buf, size_t n)
{
	const char *v = l->verdict, *t;
	int repair = cand_kind_from_name(l->kind) == KIND_REPAIR;

	if (v == NULL)
		t = "not run";
	else if (verdict_is(v, VERDICT_PASS))
		t = repair ? "repaired \xe2\x9c\x93" : "passed \xe2\x9c\x93";
	else if (verdict_is(v, VERDICT_FAIL))
		t = "failed";
	else
		t = v;
	/* pad by columns: the check mark is one column, three bytes */
	snprintf(buf, n, "%s%*s", t, 11 - pane_width(t, strlen(t)) > 0 ?
	    11 - pane_width(t, strlen(t)) : 0, "");
}

/*
 * A candidate just loaded shows itself (with what came before it as far
 * as it fits); after that the view is the reader's: j k PgUp g G scroll
 * it.  Never past the last line (a zoom, a resize).
 */
static void
trace_place(struct pane *p, const struct trace_line *lines, size_t n)
{
	struct wb_cur *c = &p->wb->cur;
	int cur_row = 0;

	for (size_t i = 0; i < n; i++)
		if (c->trace[lines[i].link].current && !lines[i].feedback &&
		    lines[i].step < 0)
			cur_row = (int)i;
	if (c->trace_fresh && p->rows > 0) {
		c->trace_fresh = 0;
		p->scroll = cur_row + 2 > p->rows ? cur_row + 2 - p->rows : 0;
	}
	if (p->scroll > (int)n - p->rows)
		p->scroll = (int)n - p->rows;
	if (p->scroll < 0)
		p->scroll = 0;
}

static void
trace_draw(struct pane *p, WINDOW *win)
{
	struct wb_cur *c = &p->wb->cur;
	struct trace_line *lines;
	struct pipeline_step *steps;
	size_t n, nsteps;

	if (c->id == NULL || c->ntrace == 0)
		return;
	trace_steps(c, &steps, &nsteps);
	n = trace_lines(c, nsteps, NULL, 0);
	lines = xcalloc(n, sizeof *lines);
	trace_lines(c, nsteps, lines, n);
	trace_place(p, lines, n);
	for (int y = 0; y < p->rows && (size_t)(y + p->scroll) < n; y++) {
		struct trace_line *tl = &lines[y + p->scroll];
		const struct wb_link *l = &c->trace[tl->link];
		const char *role;
		char buf[256];
		int x = 0;

		if (tl->step >= 0) {
			step_draw(p, win, y, &steps[tl->step]);
			continue;
		}
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
		x += l->depth < 8 ? l->depth : 8;	/* a branch indents */
		trace_role(l, buf, sizeof buf);
		x += pane_puts(win, y, x, p->cols - x, buf, theme_attr(
		    pane_verdict_elem(l->verdict)));
		snprintf(buf, sizeof buf, " %s  %s", l->id,
		    l->origin ? l->origin : "");
		x += pane_puts(win, y, x, p->cols - x, buf, l->current ?
		    A_BOLD | theme_attr(THEME_NORMAL) : theme_attr(
		    THEME_NORMAL));
		snprintf(buf, sizeof buf, "  %s%s%s",
		    l->verdict ? l->verdict : "not run",
		    l->stage ? " \xc2\xb7 " : "", l->stage ? l->stage : "");
		pane_puts(win, y, x, p->cols - x, buf, theme_attr(
		    pane_verdict_elem(l->verdict)));
	}
	if (c->ntrace == 1 && n < (size_t)p->rows && c->has_run &&
	    c->run.verdict && !verdict_is(c->run.verdict, VERDICT_PASS))
		pane_puts(win, (int)n, 2, p->cols - 2,
		    "no repair yet: e edits it into one", theme_attr(
		    THEME_DIM));
	free(lines);
	pipeline_steps_free(steps, nsteps);
}

static int
trace_key(struct pane *p, int key, enum action a)
{
	struct pipeline_step *steps;
	size_t nsteps, n;

	(void)key;	/* the workbench's actions only */
	trace_steps(&p->wb->cur, &steps, &nsteps);
	n = trace_lines(&p->wb->cur, nsteps, NULL, 0);
	pipeline_steps_free(steps, nsteps);
	return pane_scroll(p, a, n);
}

static void
trace_title(struct pane *p, char *buf, size_t n)
{
	struct pipeline_step *steps;
	size_t k = p->wb->cur.ntrace, nsteps, lines;

	struct trace_line *tl;

	trace_steps(&p->wb->cur, &steps, &nsteps);
	lines = trace_lines(&p->wb->cur, nsteps, NULL, 0);
	tl = xcalloc(lines + 1, sizeof *tl);
	trace_lines(&p->wb->cur, nsteps, tl, lines);
	trace_place(p, tl, lines);	/* the title is drawn first */
	free(tl);
	pipeline_steps_free(steps, nsteps);
	buf[0] = '\0';
	if (k > 1)
		snprintf(buf, n, "%zu steps", k);
	if (lines > (size_t)p->rows && p->rows > 0) {
		size_t first = (size_t)p->scroll + 1;
		size_t last = first + (size_t)p->rows - 1;

		snprintf(buf + strlen(buf), n - strlen(buf), "%slines "
		    "%zu-%zu/%zu", k > 1 ? " \xc2\xb7 " : "", first,
		    last < lines ? last : lines, lines);
	}
}

const struct pane_ops pane_trace_ops = {
	.name = "trace",
	.draw = trace_draw,
	.key = trace_key,
	.title = trace_title,
};
