/*
 * panes/spec.c - what the candidate answers and how it fared: the
 * candidate, assay's latest verdict next to the recorded ones, the
 * decisions, then the task's spec, interface and files.  Word-wrapped
 * and scrolled when focused.
 */
#include "ui/wb.h"
#include "base/textsafe.h"
#include "model/feedback.h"
#include "model/vocab.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SPEC_LABEL 10		/* width of the label column */

struct spec_item {
	const char	*label;
	char		*text;		/* owned */
	enum theme_elem	 elem;
	int		 block;		/* text below the label */
};

struct spec_doc {
	struct spec_item *items;
	size_t		 n;
};

/*
 * A JSON object of the store (a run's metrics, a task's env parameters)
 * as a person reads it: "mismatches 0 · total 600", each member after
 * sep, strings without their quotes, other values as compact JSON (it
 * showed as {"mismatches":0,"total":600}).  Keys and strings come from
 * imported tasks and toolchain output: their controls and line breaks
 * are shown escaped (safe_text()), so that no value draws a line of its
 * own in the pane.  An empty object adds nothing; text that is not an
 * object is added escaped as it is.
 */
static void
spec_fields(struct buf *b, const char *json, const char *sep)
{
	json_t *o = json_loads(json, 0, NULL), *v;
	const char *k;

	if (!json_is_object(o)) {
		buf_adds(b, sep);
		safe_text(b, json, strlen(json), 0);
		json_decref(o);
		return;
	}
	json_object_foreach(o, k, v) {
		char *t = json_is_string(v) ? NULL : json_dumps(v,
		    JSON_COMPACT | JSON_ENCODE_ANY);
		const char *val = t != NULL ? t : json_string_value(v);

		buf_adds(b, sep);
		safe_text(b, k, strlen(k), 0);
		buf_adds(b, " ");
		safe_text(b, val, json_is_string(v) ? json_string_length(v) :
		    strlen(val), 0);
		free(t);
	}
	json_decref(o);
}

static void
doc_add(struct spec_doc *d, const char *label, enum theme_elem elem,
    int block, char *text)
{
	if (text == NULL)
		return;
	if (block) {
		/* blank lines around a block only push it down */
		size_t lead = strspn(text, "\r\n"), n;

		memmove(text, text + lead, strlen(text + lead) + 1);
		n = strlen(text);
		while (n > 0 && (text[n - 1] == '\n' || text[n - 1] == '\r' ||
		    text[n - 1] == ' '))
			text[--n] = '\0';
	}
	if (*text == '\0') {
		free(text);
		return;
	}
	d->items = xreallocarray(d->items, d->n + 1, sizeof *d->items);
	d->items[d->n].label = label;
	d->items[d->n].text = text;
	d->items[d->n].elem = elem;
	d->items[d->n].block = block;
	d->n++;
}

static void
doc_free(struct spec_doc *d)
{
	for (size_t i = 0; i < d->n; i++)
		free(d->items[i].text);
	free(d->items);
}

/* First line of text, at most 200 bytes, new string. */
static char *
first_line(const char *text)
{
	size_t n;

	if (text == NULL)
		return xstrdup("");
	while (*text == '\n' || *text == '\r' || *text == ' ')
		text++;
	n = strcspn(text, "\r\n");
	return xstrndup(text, n < 200 ? n : 200);
}

/*
 * Where several reviewers labelled the candidate: each one's vote, in
 * the evidence colour when they differ, and the final label that
 * settled them (the disagreement queue's 1-5).
 */
static void
spec_votes(const struct wb_cur *c, struct spec_doc *d)
{
	struct buf b = BUF_INIT;
	size_t nv = 0;
	int differ = 0;

	for (size_t i = 0; i < c->nvotes; i++) {
		const struct store_vote *v = &c->votes[i];

		if (v->final) {
			buf_printf(&b, "%sfinal %s (%s)", b.len > 0 ?
			    " \xc2\xb7 " : "", v->category, v->by);
			continue;
		}
		if (nv > 0 && strcmp(v->category, c->votes[0].category) != 0)
			differ = 1;
		buf_printf(&b, "%s%s %s", b.len > 0 ? " \xc2\xb7 " : "", v->by,
		    v->category);
		nv++;
	}
	/* one reviewer's label is the decision line already */
	if (nv < 2 && c->nvotes == nv) {
		buf_release(&b);
		return;
	}
	doc_add(d, "votes", differ ? THEME_EVIDENCE : THEME_LABEL, 0,
	    buf_detach(&b, NULL));
}

/*
 * The spec's words with blanks and line ends as single blanks, cut with
 * an ellipsis to cols columns (one line of the pane): new string.
 */
static char *
spec_gist(const char *spec, int cols)
{
	struct buf b = BUF_INIT;
	char *out;

	for (const char *p = spec; *p != '\0'; p++) {
		int blank = *p == ' ' || *p == '\t' || *p == '\n' || *p == '\r';

		if (blank && (b.len == 0 || b.p[b.len - 1] == ' '))
			continue;
		buf_addc(&b, blank ? ' ' : *p);
	}
	while (b.len > 0 && b.p[b.len - 1] == ' ')
		b.p[--b.len] = '\0';
	out = xmalloc(b.len + 8);
	pane_cut(buf_str(&b), cols > 12 ? cols : 12, out, b.len + 8);
	buf_release(&b);
	return out;
}

/* The checker's counterexample (feedback.h), as a block of its lines. */
static void
spec_counterexample(const struct wb_cur *c, struct spec_doc *d)
{
	json_t *root = NULL;
	const char *text = feedback_text(c->run.feedback, "counterexample",
	    &root);

	if (text != NULL)
		doc_add(d, "counterexample", THEME_EVIDENCE, 1, xstrdup(text));
	json_decref(root);
}

static void
spec_build(struct wb *wb, struct spec_doc *d)
{
	struct wb_cur *c = &wb->cur;
	struct buf b = BUF_INIT;
	char dur[32];
	int has_evidence;

	if (c->id == NULL || c->cand.id == NULL)
		return;
	/* the language is in the candidate pane's title */
	buf_printf(&b, "%s \xc2\xb7 %s \xc2\xb7 %s", c->cand.id,
	    c->cand.origin ? c->cand.origin : "?",
	    c->cand.kind ? c->cand.kind : "?");
	if (c->cand.parent != NULL)
		buf_printf(&b, " \xc2\xb7 repair of %s", c->cand.parent);
	doc_add(d, "candidate", THEME_NORMAL, 0, buf_detach(&b, NULL));
	/*
	 * What the task asks, on the first screen: its first words right
	 * under the candidate (the whole spec follows further down), so
	 * that a short pane never shows a task that looks empty.
	 */
	if (c->task.spec != NULL)
		doc_add(d, "spec", THEME_NORMAL, 0, spec_gist(c->task.spec,
		    wb->lay.panes[WB_SPEC].cols - SPEC_LABEL));
	if (c->has_run) {
		buf_printf(&b, "%s", c->run.verdict ? c->run.verdict : "?");
		if (c->run.stage != NULL)
			buf_printf(&b, " \xc2\xb7 %s", c->run.stage);
		if (c->run.subcategory != NULL)
			buf_printf(&b, " \xc2\xb7 %s", c->run.subcategory);
		pane_duration(c->run.wall_ms, dur, sizeof dur);
		buf_printf(&b, " \xc2\xb7 run #%lld \xc2\xb7 %s",
		    (long long)c->run.id, dur);
		if (c->run.metrics != NULL)
			spec_fields(&b, c->run.metrics, " \xc2\xb7 ");
		doc_add(d, "assay", pane_verdict_elem(c->run.verdict), 0,
		    buf_detach(&b, NULL));
	} else {
		doc_add(d, "assay", THEME_DIM, 0,
		    xstrdup("not run yet (v verifies)"));
	}
	has_evidence = c->has_run && c->run.evidence != NULL &&
	    *c->run.evidence != '\0' && !verdict_is(c->run.verdict,
	    VERDICT_PASS);
	for (size_t i = 0; i < c->nrec; i++) {
		char *line = first_line(c->rec[i].log);
		int differs = 0;
		/* An importer's flag on the row ("suspicious-speedup", which
		 * the log's first line names) stands out as well. */
		int flagged = c->rec[i].extra != NULL &&
		    strstr(c->rec[i].extra, "\"flags\":[\"") != NULL;

		/* Recorded and re-derived side by side; a disagreement (a
		 * recorded compile error that now passes) is marked.  A
		 * skipped run (no GPU here) judged nothing: no disagreement. */
		if (c->has_run && c->rec[i].verdict != NULL &&
		    c->run.verdict != NULL &&
		    !verdict_is(c->run.verdict, VERDICT_SKIPPED)) {
			differs = strcmp(c->rec[i].verdict, c->run.verdict) != 0 ||
			    (c->rec[i].stage != NULL && c->run.stage != NULL &&
			    !verdict_is(c->run.verdict, VERDICT_PASS) &&
			    strcmp(c->rec[i].stage, c->run.stage) != 0);
		}
		if (differs)
			buf_adds(&b, "\xe2\x89\xa0 ");	/* ≠ */
		buf_printf(&b, "%s", c->rec[i].verdict ? c->rec[i].verdict :
		    "?");
		if (c->rec[i].stage != NULL)
			buf_printf(&b, " (%s)", c->rec[i].stage);
		if (differs)
			buf_printf(&b, " \xc2\xb7 assay says %s%s%s",
			    c->run.verdict, c->run.stage != NULL ? " at " : "",
			    c->run.stage != NULL ? c->run.stage : "");
		/* the recorded log only where it says something assay's
		 * evidence (below) does not: a disagreement, a flag, or no
		 * evidence of assay's; after assay's verdict it is named
		 * (it read as assay's evidence there) */
		if (*line != '\0' && (differs || flagged || !has_evidence))
			buf_printf(&b, "%s%s", differs ?
			    " \xc2\xb7 the recorded log: " : ": ", line);
		free(line);
		doc_add(d, i == 0 ? "recorded" : "", differs || flagged ?
		    THEME_EVIDENCE : THEME_DIM, 0, buf_detach(&b, NULL));
	}
	/* what assay's verdict rests on, on a line of its own (the recorded
	 * line used to show the dataset's log where it belongs) */
	if (has_evidence)
		doc_add(d, "evidence", THEME_EVIDENCE, 0,
		    first_line(c->run.evidence));
	/* the decision and the votes before what may run long (a
	 * counterexample, notes): in the disagreement queue the votes are
	 * what a final label is given on, and a 40-row pane hid them */
	if (c->row.id != NULL) {
		if (c->row.category != NULL)
			buf_printf(&b, "%s%s%s (%s)", c->row.category,
			    c->row.subcategory ? "/" : "",
			    c->row.subcategory ? c->row.subcategory : "",
			    c->row.category_source ? c->row.category_source :
			    "?");
		else
			buf_adds(&b, "no label");
		buf_printf(&b, " \xc2\xb7 %s", c->row.status ? c->row.status :
		    "unreviewed");
		if (c->row.reviewed_by != NULL)
			buf_printf(&b, " by %s", c->row.reviewed_by);
		doc_add(d, "decision", THEME_LABEL, 0, buf_detach(&b, NULL));
	}
	spec_votes(c, d);
	if (c->has_run)
		spec_counterexample(c, d);
	for (size_t i = 0; i < c->nnotes; i++) {
		buf_printf(&b, "%s (%s)", c->notes[i].text, c->notes[i].by);
		doc_add(d, i == 0 ? "notes" : "", THEME_NORMAL, 0,
		    buf_detach(&b, NULL));
	}
	if (c->task.id != NULL) {
		buf_printf(&b, "%s \xc2\xb7 %s \xc2\xb7 %s", c->task.id,
		    c->task.domain ? c->task.domain : "?",
		    c->task.env ? c->task.env : "?");
		if (c->task.env_params != NULL)
			spec_fields(&b, c->task.env_params, " \xc2\xb7 ");
		doc_add(d, "task", THEME_NORMAL, 0, buf_detach(&b, NULL));
		if (c->task.nfiles > 0) {
			for (size_t i = 0; i < c->task.nfiles; i++)
				buf_printf(&b, "%s%s (%s, %zu B)",
				    i ? ", " : "",
				    c->task.files[i].name,
				    c->task.files[i].role ?
				    c->task.files[i].role : "file",
				    c->task.files[i].len);
			doc_add(d, "files", THEME_NORMAL, 0,
			    buf_detach(&b, NULL));
		}
		doc_add(d, "spec (whole)", THEME_NORMAL, 1,
		    xstrdup(c->task.spec));
		doc_add(d, "interface", THEME_NORMAL, 1,
		    xstrdup(c->task.interface));
	}
	doc_add(d, "source", THEME_DIM, 0, xstrdup(c->cand.source));
	buf_release(&b);
}

/* Lay out (and when win != NULL draw) the document; returns lines. */
static size_t
spec_render(struct pane *p, WINDOW *win, struct spec_doc *d)
{
	size_t y = 0;
	int tw = p->cols - SPEC_LABEL;

	if (tw < 10)
		tw = p->cols;
	for (size_t i = 0; i < d->n; i++) {
		struct spec_item *it = &d->items[i];
		int block = it->block || tw == p->cols;
		int width = block ? p->cols - 2 : tw;
		size_t n = pane_wrap(it->text, width, NULL, 0);
		struct pane_line *lines = xcalloc(n + 1, sizeof *lines);

		pane_wrap(it->text, width, lines, n);
		if (block) {
			if (win != NULL && (int)y >= p->scroll &&
			    (int)y - p->scroll < p->rows)
				pane_puts(win, (int)y - p->scroll, 0, p->cols,
				    it->label, theme_attr(THEME_HEADER));
			y++;
		}
		for (size_t l = 0; l < n; l++, y++) {
			int row = (int)y - p->scroll;

			if (win == NULL || row < 0 || row >= p->rows)
				continue;
			if (!block && l == 0)
				pane_puts(win, row, 0, SPEC_LABEL - 1,
				    it->label, theme_attr(THEME_HEADER));
			pane_put(win, row, block ? 2 : SPEC_LABEL, width,
			    lines[l].s, lines[l].len, theme_attr(it->elem));
		}
		free(lines);
	}
	return y;
}

static void
spec_draw(struct pane *p, WINDOW *win)
{
	struct spec_doc d = { 0 };

	spec_build(p->wb, &d);
	if (d.n == 0)
		pane_puts(win, 0, 0, p->cols, "nothing selected",
		    theme_attr(THEME_DIM));
	spec_render(p, win, &d);
	doc_free(&d);
}

static int
spec_key(struct pane *p, int key, enum action a)
{
	struct spec_doc d = { 0 };
	size_t n;

	(void)key;	/* the workbench's actions only */
	spec_build(p->wb, &d);
	n = spec_render(p, NULL, &d);
	doc_free(&d);
	return pane_scroll(p, a, n);
}

/* The benchmark, and which lines show when not all fit (the pane was
 * cut at its bottom with no mark), as the trace's title says them. */
static void
spec_title(struct pane *p, char *buf, size_t n)
{
	struct wb_cur *c = &p->wb->cur;
	struct spec_doc d = { 0 };
	size_t lines;

	snprintf(buf, n, "%s", c->task.benchmark ? c->task.benchmark : "");
	spec_build(p->wb, &d);
	lines = spec_render(p, NULL, &d);
	doc_free(&d);
	pane_title_lines(buf, n, p->scroll, p->rows, (long)lines);
}

const struct pane_ops pane_spec_ops = {
	.name = "spec",
	.draw = spec_draw,
	.key = spec_key,
	.title = spec_title,
};
