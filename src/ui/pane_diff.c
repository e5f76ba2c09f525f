/*
 * pane_diff.c - `d`: a zoomed sheet with the unified diff of the current
 * candidate against what it came from: its parent for a repair, else its
 * task's reference; Tab switches when both exist.  The diff itself comes
 * from vcs_diff_text() (libgit2); this file only picks the texts, splits
 * the result into lines and colours them.
 */
#include "pane.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vcs.h"

void
diff_release(struct wb_diff *d)
{
	if (d == NULL)
		return;
	free(d->ref_id);
	free(d->parent_id);
	free(d->text);
	free(d->lines);
	memset(d, 0, sizeof *d);
}

/* Why: the sheet draws by line, so index the line starts once. */
static void
diff_index(struct wb_diff *d)
{
	size_t cap = 16;

	free(d->lines);
	d->lines = xmalloc(cap * sizeof *d->lines);
	d->nlines = 0;
	for (size_t i = 0; i < d->len; ) {
		if (d->nlines == cap) {
			cap *= 2;
			d->lines = xrealloc(d->lines, cap * sizeof *d->lines);
		}
		d->lines[d->nlines++] = i;
		while (i < d->len && d->text[i] != '\n')
			i++;
		i++;
	}
}

/* Compute the diff of mode (0 reference, 1 parent) into d.  0 or -1. */
static int
diff_compute(struct wb *wb, int mode)
{
	struct wb_diff *d = &wb->diff;
	const char *from = mode ? d->parent_id : d->ref_id;
	const struct candidate *c = &wb->cur.cand;
	struct candidate base;
	struct err err = { "" };
	char *text = NULL;
	size_t len = 0;
	int rc;

	memset(&base, 0, sizeof base);
	rc = store_candidate_get(wb->st, from, &base, &err);
	if (rc != 0) {
		if (rc > 0)
			wb_msg(wb, 1, "diff: candidate %s not found", from);
		else
			wb_msg(wb, 1, "diff: %s", err.msg);
		candidate_release(&base);
		return -1;
	}
	rc = vcs_diff_text(base.code, base.code_len, c->code, c->code_len,
	    base.id, c->id, &text, &len, &err);
	candidate_release(&base);
	if (rc < 0) {
		wb_msg(wb, 1, "diff: %s", err.msg);
		return -1;
	}
	free(d->text);
	d->text = text;
	d->len = len;
	d->mode = mode;
	diff_index(d);
	wb->diff_pane.scroll = 0;
	snprintf(d->title, sizeof d->title, "%s %s \xe2\x86\x92 candidate %s",
	    mode ? "parent" : "reference", from, c->id);
	return 0;
}

void
diff_open(struct wb *wb)
{
	struct wb_diff *d = &wb->diff;
	const struct candidate *c = &wb->cur.cand;
	struct err err = { "" };
	char *ref = NULL, *verdict = NULL;

	if (wb->cur.id == NULL) {
		wb_msg(wb, 1, "diff: no candidate selected");
		return;
	}
	diff_release(d);
	if (c->kind != NULL && strcmp(c->kind, "repair") == 0 &&
	    c->parent != NULL)
		d->parent_id = xstrdup(c->parent);
	if (c->task_id != NULL &&
	    store_task_reference(wb->st, c->task_id, &ref, &verdict,
	    &err) < 0) {
		wb_msg(wb, 1, "diff: %s", err.msg);
		diff_release(d);
		return;
	}
	free(verdict);
	if (ref != NULL && strcmp(ref, c->id) != 0)
		d->ref_id = ref;
	else
		free(ref);
	if (d->parent_id == NULL && d->ref_id == NULL) {
		wb_msg(wb, 0, "diff: nothing to compare (no parent and no "
		    "other reference for this task)");
		diff_release(d);
		return;
	}
	if (diff_compute(wb, d->parent_id != NULL) < 0) {
		diff_release(d);
		return;
	}
	d->open = 1;
	if (d->len == 0)
		wb_msg(wb, 0, "diff: the texts are identical");
}

void
diff_key(struct wb *wb, int key, enum action a)
{
	struct wb_diff *d = &wb->diff;

	if (a == ACTION_QUIT || a == ACTION_DIFF || key == KEYMAP_KEY_ESC) {
		d->open = 0;
		return;
	}
	if (key == KEYMAP_KEY_TAB) {
		if (d->parent_id != NULL && d->ref_id != NULL)
			diff_compute(wb, !d->mode);
		else
			wb_msg(wb, 0, "diff: only the %s to compare with",
			    d->parent_id != NULL ? "parent" : "reference");
		return;
	}
	pane_scroll(&wb->diff_pane, a, d->nlines);
}

static void
diff_draw(struct pane *p, WINDOW *win)
{
	const struct wb_diff *d = &p->wb->diff;

	if (d->nlines == 0) {
		pane_puts(win, 0, 0, p->cols, "(no differences)",
		    theme_attr(THEME_DIM));
		return;
	}
	for (int r = 0; r < p->rows; r++) {
		size_t i = (size_t)(p->scroll + r), s, e;
		enum theme_elem el = THEME_NORMAL;

		if (i >= d->nlines)
			break;
		s = d->lines[i];
		e = i + 1 < d->nlines ? d->lines[i + 1] - 1 : d->len;
		if (e > s && d->text[e - 1] == '\n')
			e--;
		if (e - s >= 3 && (strncmp(d->text + s, "---", 3) == 0 ||
		    strncmp(d->text + s, "+++", 3) == 0))
			el = THEME_HEADER;
		else if (e - s >= 2 && strncmp(d->text + s, "@@", 2) == 0)
			el = THEME_DIM;
		else if (e > s && d->text[s] == '+')
			el = THEME_PASS;
		else if (e > s && d->text[s] == '-')
			el = THEME_FAIL;
		else if (e > s && d->text[s] != ' ')
			el = THEME_DIM;	/* diff --git, \ No newline */
		pane_put(win, r, 0, p->cols, d->text + s, e - s,
		    theme_attr(el));
	}
}

static void
diff_title(struct pane *p, char *buf, size_t n)
{
	const struct wb_diff *d = &p->wb->diff;

	snprintf(buf, n, "%s%s", d->title,
	    d->parent_id != NULL && d->ref_id != NULL && p->cols >= 90 ?
	    " \xc2\xb7 Tab switches" : "");
}

const struct pane_ops pane_diff_ops = {
	.name = "diff",
	.draw = diff_draw,
	.title = diff_title,
};
