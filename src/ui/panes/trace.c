/*
 * panes/trace.c - the trajectory of the candidate on screen: its
 * ancestors (failed -> feedback -> repair), itself, and the repairs made
 * from it, each with the verdict of its latest run.  When that run is a
 * pipeline's (pipeline.h), each env's stages follow the candidate's row.
 */
#include "ui/wb.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decide/decide.h"
#include "model/feedback.h"
#include "model/vocab.h"
#include "verify/pipeline.h"

/* One step of the trace: a candidate of the chain and its latest run. */
struct trace_link {
	char	*id, *origin, *kind, *verdict, *stage, *feedback;
	char	*cex;		/* its run's counterexample text, or NULL */
	int	 current;
	int	 depth;		/* branches above it (for the indent) */
};

/* The pane's own state: the chain of the candidate it was read for. */
struct trace_pane {
	unsigned long	 gen;		/* wb->cur_gen it was read at */
	struct trace_link *trace;	/* ancestors, it, its repairs */
	size_t		 ntrace;
	int		 trace_fresh;	/* place the view anew */
};

static void
link_release(struct trace_link *l)
{
	free(l->id);
	free(l->origin);
	free(l->kind);
	free(l->verdict);
	free(l->stage);
	free(l->feedback);
	free(l->cex);
}

/* The toolchain feedback a repair answers: first error, else evidence. */
static char *
feedback_of(const struct run *r)
{
	/* The triaged evidence is the message that decided the verdict;
	 * else the first error (never a warning or a note: "no GPU" is a
	 * note beside a launch-limit failure). */
	if (r->evidence != NULL && *r->evidence != '\0')
		return xstrdup(r->evidence);
	for (size_t i = 0; i < r->ndiags; i++) {
		const struct diag *d = &r->diags[i];

		if (d->severity == NULL || strcmp(d->severity, "error") != 0 ||
		    d->message == NULL)
			continue;
		if (d->line > 0)
			return xasprintf("%s:%d: %s", d->file ? d->file : "",
			    d->line, d->message);
		return xstrdup(d->message);
	}
	if (r->subcategory != NULL)
		return xstrdup(r->subcategory);
	return NULL;
}

/* The run's counterexample text (feedback.h), new, or NULL. */
static char *
cex_of(const struct run *r)
{
	json_t *root = NULL;
	const char *t = feedback_text(r->feedback, "counterexample", &root);
	char *out = t != NULL && *t != '\0' ? xstrdup(t) : NULL;

	json_decref(root);
	return out;
}

static void
trace_add(struct trace_pane *c, const char *id, const char *origin,
    const char *kind, const struct run *r, const char *verdict,
    const char *stage, int current)
{
	struct trace_link *l;

	c->trace = xreallocarray(c->trace, c->ntrace + 1,
	    sizeof *c->trace);
	l = &c->trace[c->ntrace++];
	memset(l, 0, sizeof *l);
	l->id = xstrdup(id);
	l->origin = xstrdup(origin);
	l->kind = xstrdup(kind);
	l->current = current;
	if (r != NULL) {
		l->verdict = xstrdup(r->verdict);
		l->stage = xstrdup(r->stage);
		l->feedback = feedback_of(r);
		l->cex = cex_of(r);
	} else {
		l->verdict = xstrdup(verdict);
		l->stage = xstrdup(stage);
	}
}

#define TRACE_MAX	256	/* links shown; a chain is rarely 10 */

/*
 * The repairs of id, depth first (each followed by its own repairs), so
 * that the whole tree of the chain shows: a repair that failed and the
 * one after it that passed.  depth counts the branches above (a parent
 * with more than one repair indents its repairs, and each of them its
 * own; a chain of one repair each stays at its depth).
 */
/* 1 when id is in the trace already. */
static int
trace_has(const struct trace_pane *c, const char *id)
{
	for (size_t i = 0; i < c->ntrace; i++)
		if (strcmp(c->trace[i].id, id) == 0)
			return 1;
	return 0;
}

/* One repair of the tree: its row (and latest run) at depth. */
static void
trace_add_row(const struct wb *wb, struct trace_pane *c,
    const struct store_row *row, const char *origin, int depth)
{
	struct err err;
	struct run r;
	int has = store_run_latest(wb->st, row->id, &r, &err) == 0;

	trace_add(c, row->id, origin, row->kind, has ? &r : NULL,
	    row->verdict, row->stage, 0);
	c->trace[c->ntrace - 1].depth = depth;
	if (has)
		run_release(&r);
}

static void
trace_descend(const struct wb *wb, struct trace_pane *c, const char *id,
    int depth)
{
	struct store_row *kids = NULL;
	struct err err;
	size_t nkids = 0, nalso = 0, n;
	char *f = xasprintf("parent=%s", id), **also = NULL;

	if (store_query_page(wb->st, f, 0, TRACE_MAX, &kids, &nkids,
	    &err) < 0) {
		free(f);
		return;
	}
	free(f);
	/* and the existing code an edit or a model reproduced while
	 * repairing id ("also a repair of"): the status line called it
	 * id's repair, and the trace said "no repair yet" */
	if (decide_also_repairs(wb->st, id, &also, &nalso, &err) < 0)
		nalso = 0;
	n = nkids + nalso;
	for (size_t i = 0; i < nkids; i++) {
		if (c->ntrace < TRACE_MAX) {
			trace_add_row(wb, c, &kids[i], kids[i].origin, depth +
			    (n > 1 ? 1 : 0));
			/* one of several: its own repairs go one further
			 * in, so that a chain under it does not read as
			 * leading to its next sibling (c99696a9's repair
			 * stood at the depth of c7ecfe2b, its sibling) */
			trace_descend(wb, c, kids[i].id, depth +
			    (n > 1 ? 2 : 0));
		}
		store_row_release(&kids[i]);
	}
	free(kids);
	/* a reproduced repair is shown, not descended into: its own
	 * repairs belong to its own parent's tree (and a loop of
	 * reproductions would never end) */
	for (size_t i = 0; i < nalso; i++) {
		struct store_row *row = NULL;
		size_t nrow = 0;

		f = xasprintf("id=%s", also[i]);
		if (c->ntrace < TRACE_MAX && !trace_has(c, also[i]) &&
		    store_query_page(wb->st, f, 0, 1, &row, &nrow, &err) == 0 &&
		    nrow == 1) {
			char *o = xasprintf("%s (the same code as a repair of"
			    " %.8s)", row[0].origin ? row[0].origin : "?",
			    row[0].parent ? row[0].parent : "none");

			trace_add_row(wb, c, &row[0], o, depth + (n > 1 ? 1 :
			    0));
			free(o);
		}
		for (size_t k = 0; k < nrow; k++)
			store_row_release(&row[k]);
		free(row);
		free(f);
	}
	strv_free(also, nalso);
}

/* Ancestors (oldest first), the candidate, then its repairs' tree. */
static void
trace_load(const struct wb *wb, struct trace_pane *c)
{
	const struct wb_cur *cur = &wb->cur;
	char *chain[64];
	size_t nchain = 0;
	char *parent = xstrdup(cur->cand.parent);
	struct err err;

	while (parent != NULL && nchain < 64) {
		struct candidate pc = { 0 };

		chain[nchain++] = parent;
		if (store_candidate_get(wb->st, parent, &pc, &err) != 0) {
			parent = NULL;
			break;
		}
		parent = xstrdup(pc.parent);
		candidate_release(&pc);
	}
	free(parent);	/* past 64 ancestors */
	for (size_t i = nchain; i-- > 0;) {
		struct candidate pc = { 0 };
		struct run pr = { 0 };
		int has;

		if (store_candidate_get(wb->st, chain[i], &pc, &err) != 0) {
			free(chain[i]);
			continue;
		}
		has = store_run_latest(wb->st, chain[i], &pr, &err) == 0;
		trace_add(c, pc.id, pc.origin, pc.kind, has ? &pr : NULL, NULL,
		    NULL, 0);
		if (has)
			run_release(&pr);
		candidate_release(&pc);
		free(chain[i]);
	}
	trace_add(c, cur->cand.id, cur->cand.origin, cur->cand.kind,
	    cur->has_run ? &cur->run : NULL, NULL, NULL, 1);
	trace_descend(wb, c, cur->cand.id, 0);
	c->trace_fresh = 1;
}

static void
trace_release(struct trace_pane *t)
{
	for (size_t i = 0; i < t->ntrace; i++)
		link_release(&t->trace[i]);
	free(t->trace);
	t->trace = NULL;
	t->ntrace = 0;
}

/*
 * The chain of the candidate on screen, read again when another one was
 * loaded (wb->cur_gen moved): the pane's own copy.
 */
static struct trace_pane *
trace_sync(struct pane *p)
{
	struct trace_pane *t = p->priv;
	const struct wb *wb = p->wb;

	if (t->gen == wb->cur_gen)
		return t;
	trace_release(t);
	t->gen = wb->cur_gen;
	if (wb->cur.id != NULL && wb->cur.cand.id != NULL)
		trace_load(wb, t);
	return t;
}



struct trace_line {
	int		 link;		/* index into the trace */
	int		 feedback;	/* 1: that link's feedback, 2 + K:
					   line K of its counterexample */
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

#define TRACE_CEX_LINES	6	/* counterexample lines under a link */

/* Line k of text (its length in *len), or NULL past the last. */
static const char *
cex_line(const char *text, int k, size_t *len)
{
	const char *p = text;

	for (; k > 0 && p != NULL; k--) {
		p = strchr(p, '\n');
		if (p != NULL && *++p == '\0')
			p = NULL;
	}
	if (p != NULL && len != NULL)
		*len = strcspn(p, "\n");
	return p;
}

/* The rows of the trace; returns how many, fills up to max. */
static size_t
trace_lines(const struct trace_pane *t, size_t nsteps,
    struct trace_line *out, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < t->ntrace; i++) {
		const struct trace_link *l = &t->trace[i];

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
			for (int k = 0; l->cex != NULL && k < TRACE_CEX_LINES &&
			    cex_line(l->cex, k, NULL) != NULL; k++) {
				if (n < max)
					out[n] = (struct trace_line){ (int)i,
					    2 + k, -1 };
				n++;
			}
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
	x += pane_text(win, y, x, p->cols - x, buf, theme_attr(THEME_NORMAL));
	snprintf(buf, sizeof buf, "%-8s", s->verdict);
	x += pane_text(win, y, x, p->cols - x, buf, theme_attr(
	    pane_verdict_elem(strcmp(s->verdict, "not-run") == 0 ? NULL :
	    s->verdict)));
	for (size_t k = 0; k < s->nstages && x < p->cols; k++) {
		int ok = !pipeline_step_failed(s, k);

		snprintf(buf, sizeof buf, " %s %s", s->stages[k], ok ?
		    "\xe2\x9c\x93" : "\xe2\x9c\x97");
		x += pane_text(win, y, x, p->cols - x, buf, theme_attr(ok ?
		    THEME_DIM : THEME_EVIDENCE));
	}
	if (s->subcategory != NULL && !pass && x < p->cols) {
		snprintf(buf, sizeof buf, "  %s", s->subcategory);
		x += pane_text(win, y, x, p->cols - x, buf, theme_attr(
		    THEME_EVIDENCE));
	}
	if (s->metrics != NULL && *s->metrics != '\0' && x < p->cols) {
		char *m = xasprintf("  %s", s->metrics);

		pane_text(win, y, x, p->cols - x, m, theme_attr(THEME_DIM));
		free(m);
	}
}

/*
 * A step's title, by its verdict: "failed", "repaired ✓" (a repair that
 * passes), "passed ✓", "not run", or the verdict itself (timeout,
 * env-error), padded to 11 columns.
 */
static void
trace_role(const struct trace_link *l, char *buf, size_t n)
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
	struct trace_pane *t = p->priv;
	int cur_row = 0;

	for (size_t i = 0; i < n; i++)
		if (t->trace[lines[i].link].current && !lines[i].feedback &&
		    lines[i].step < 0)
			cur_row = (int)i;
	if (t->trace_fresh && p->rows > 0) {
		t->trace_fresh = 0;
		p->scroll = cur_row + 2 > p->rows ? cur_row + 2 - p->rows : 0;
		/* never start on a step's feedback without its step: up to
		 * the step when the candidate still shows, else down past
		 * it ("└ feedback: ..." stood first, its parent above) */
		if (p->scroll > 0 && p->scroll < (int)n &&
		    lines[p->scroll].feedback) {
			int j = p->scroll;

			while (j > 0 && lines[j].feedback)
				j--;
			if (cur_row - j < p->rows)
				p->scroll = j;
			else
				while (p->scroll < cur_row &&
				    lines[p->scroll].feedback)
					p->scroll++;
		}
	}
	if (p->scroll > (int)n - p->rows)
		p->scroll = (int)n - p->rows;
	if (p->scroll < 0)
		p->scroll = 0;
}

static void
trace_close(struct pane *p)
{
	trace_release(p->priv);
}

static void
trace_draw(struct pane *p, WINDOW *win)
{
	const struct wb_cur *c = &p->wb->cur;
	const struct trace_pane *t = trace_sync(p);
	struct trace_line *lines;
	struct pipeline_step *steps;
	size_t n, nsteps;

	if (c->id == NULL || t->ntrace == 0)
		return;
	trace_steps(c, &steps, &nsteps);
	n = trace_lines(t, nsteps, NULL, 0);
	lines = xcalloc(n, sizeof *lines);
	trace_lines(t, nsteps, lines, n);
	trace_place(p, lines, n);
	for (int y = 0; y < p->rows && (size_t)(y + p->scroll) < n; y++) {
		struct trace_line *tl = &lines[y + p->scroll];
		const struct trace_link *l = &t->trace[tl->link];
		const char *role;
		char buf[256];
		int x = 0;

		if (tl->step >= 0) {
			step_draw(p, win, y, &steps[tl->step]);
			continue;
		}
		if (tl->feedback >= 2) {
			size_t len = 0;
			const char *ln = cex_line(l->cex, tl->feedback - 2,
			    &len);
			char *fb = xasprintf("%s%.*s", tl->feedback == 2 ?
			    "  counterexample: " : "    ", (int)len, ln);

			pane_text(win, y, 4, p->cols - 4, fb,
			    theme_attr(THEME_EVIDENCE));
			free(fb);
			continue;
		}
		if (tl->feedback) {
			char *fb = xasprintf("\xe2\x94\x94 feedback: %s",
			    l->feedback);

			pane_text(win, y, 4, p->cols - 4, fb,
			    theme_attr(THEME_EVIDENCE));
			free(fb);
			continue;
		}
		if (l->current)
			role = t->ntrace == 1 ? "" : "\xe2\x96\xb6 ";
		else
			role = "  ";
		x += pane_puts(win, y, x, p->cols, role, theme_attr(
		    THEME_TITLE));
		x += l->depth < 8 ? l->depth : 8;	/* a branch indents */
		trace_role(l, buf, sizeof buf);
		x += pane_text(win, y, x, p->cols - x, buf, theme_attr(
		    pane_verdict_elem(l->verdict)));
		snprintf(buf, sizeof buf, " %s  %s", l->id,
		    l->origin ? l->origin : "");
		x += pane_text(win, y, x, p->cols - x, buf, l->current ?
		    A_BOLD | theme_attr(THEME_NORMAL) : theme_attr(
		    THEME_NORMAL));
		snprintf(buf, sizeof buf, "  %s%s%s",
		    l->verdict ? l->verdict : "not run",
		    l->stage ? " \xc2\xb7 " : "", l->stage ? l->stage : "");
		pane_text(win, y, x, p->cols - x, buf, theme_attr(
		    pane_verdict_elem(l->verdict)));
	}
	if (t->ntrace == 1 && n < (size_t)p->rows && c->has_run &&
	    c->run.verdict && !verdict_is(c->run.verdict, VERDICT_PASS))
		pane_text(win, (int)n, 2, p->cols - 2,
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
	n = trace_lines(trace_sync(p), nsteps, NULL, 0);
	pipeline_steps_free(steps, nsteps);
	return pane_scroll(p, a, n);
}

static void
trace_title(struct pane *p, char *buf, size_t n)
{
	const struct trace_pane *t = trace_sync(p);
	struct pipeline_step *steps;
	size_t k = t->ntrace, nsteps, lines;
	struct trace_line *tl;

	trace_steps(&p->wb->cur, &steps, &nsteps);
	lines = trace_lines(t, nsteps, NULL, 0);
	tl = xcalloc(lines + 1, sizeof *tl);
	trace_lines(t, nsteps, tl, lines);
	trace_place(p, tl, lines);	/* the title is drawn first */
	free(tl);
	pipeline_steps_free(steps, nsteps);
	buf[0] = '\0';
	if (k > 1)
		snprintf(buf, n, "%zu steps", k);
	pane_title_lines(buf, n, p->scroll, p->rows, (long)lines);
}

const struct pane_ops pane_trace_ops = {
	.name = "trace",
	.priv_size = sizeof(struct trace_pane),
	.draw = trace_draw,
	.key = trace_key,
	.title = trace_title,
	.close = trace_close,
};
