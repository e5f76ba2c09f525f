/*
 * decide.c - the decision layer: label, review, note, repair, undo and
 * redo, and a decision over a list of candidates, for both front ends.
 *
 * Each call here is one transaction (or joins the caller's: a batch, an
 * import) around the store's own decision calls, which insert the history
 * row, move the candidate's pointer and append to the journal.  What is
 * decided here and nowhere else: what a label rests on (the latest run,
 * read inside the label's transaction), how a repair is stored and who
 * makes it (the reviewer or the model it ran as its origin, the reviewer
 * in the journal), and what undo says it did.  It does
 * not ask or print; the front ends do (docs/adr/0019-decision-layer.md).
 */
#include "decide/decide.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/hash.h"
#include "base/ident.h"
#include "base/textsafe.h"
#include "model/sample.h"
#include "model/vocab.h"

/* Close what begin_own() opened: commit on rc 0, else roll back. */
static int
end_own(struct store *st, int own, int rc, struct err *err)
{
	if (!own)
		return rc;
	if (rc == 0 && store_commit(st, err) == 0)
		return 0;
	store_rollback(st);
	return -1;
}

/* Two optional strings are the same (NULL only equals NULL). */
static int
same_str(const char *a, const char *b)
{
	return a == NULL ? b == NULL : b != NULL && strcmp(a, b) == 0;
}

/*
 * Whether act by by would change nothing on the candidate d describes:
 * its current label or review is by by and says the same, and (a label)
 * rests on the same run.  Such a decision is not made: it would only
 * add a journal event (pressing f sixteen times wrote sixteen, which
 * inflated the throughput and took sixteen undos).  A note always adds.
 */
static int
changes_nothing(const struct decide_act *act, const struct store_decision *d,
    const char *by, int64_t run_id)
{
	switch (act->kind) {
	case DECIDE_LABEL:
		return d->category != NULL && same_str(d->label_by, by) &&
		    strcmp(d->category, act->category) == 0 &&
		    d->label_final == (act->final != 0) &&
		    d->label_run_id == run_id && (act->final ||
		    (same_str(d->subcategory, act->sub) &&
		    same_str(d->label_note, act->note)));
	case DECIDE_REVIEW:
		return d->review_by != NULL && same_str(d->review_by, by) &&
		    same_str(d->status, act->status) &&
		    same_str(d->review_note, act->note);
	default:
		return 0;
	}
}

/* Caller holds a transaction: the current decision, read in it, and
 * *same 1 when act changes nothing.  0 or -1. */
static int
unchanged(struct store *st, const struct decide_act *act, const char *cand_id,
    const char *by, int64_t run_id, int *same, struct err *err)
{
	struct store_decision d;

	*same = 0;
	if (act->kind == DECIDE_NOTE)
		return 0;
	if (store_decision_get(st, cand_id, &d, err) < 0)
		return -1;
	*same = changes_nothing(act, &d, by, run_id);
	store_decision_release(&d);
	return 0;
}

/* Caller holds a transaction: the latest run is read in it. */
static int
label_on_latest(struct store *st, const struct decide_act *act,
    const char *cand_id, const char *by, struct decide_out *out,
    struct err *err)
{
	struct run r;
	int has, rc, same;

	has = store_run_latest(st, cand_id, &r, err);
	if (has < 0)
		return -1;
	if (out != NULL)
		out->run_id = has == 0 ? r.id : 0;
	rc = unchanged(st, act, cand_id, by, has == 0 ? r.id : 0, &same, err);
	if (rc < 0 || same) {
		if (out != NULL)
			out->unchanged = same;
		if (has == 0)
			run_release(&r);
		return rc;
	}
	if (act->final)
		rc = store_label_final(st, cand_id, act->category, by,
		    has == 0 ? r.id : 0, has == 0 ? r.evidence : NULL, err);
	else
		rc = store_label_set(st, cand_id, act->category, act->sub,
		    act->note, by, has == 0 ? r.id : 0, has == 0 ?
		    r.evidence : NULL, err);
	if (has == 0)
		run_release(&r);
	return rc;
}

/*
 * A note's text: valid UTF-8, not blank, no control characters but
 * newline and tab (it is printed by show and drawn by the spec pane; an
 * escape sequence in it would reach the reviewer's terminal).
 */
static int
note_check(const char *text, struct err *err)
{
	size_t len = strlen(text), k;
	int blank = 1;
	unsigned cp;

	for (size_t i = 0; i < len; i += k) {
		k = safe_utf8_len(text + i, len - i, &cp);
		if (k == 0)
			return err_set(err, "the note is not valid UTF-8 (byte"
			    " %zu)", i + 1);
		if ((cp < 0x20 && cp != '\n' && cp != '\t') || cp == 0x7f ||
		    (cp >= 0x80 && cp < 0xa0))
			return err_set(err, "the note holds a control character"
			    " (U+%04X at byte %zu)", cp, i + 1);
		if (cp != ' ' && cp != '\n' && cp != '\t')
			blank = 0;
	}
	if (blank)
		return err_set(err, "the note is empty");
	return 0;
}

/* What a person typed, checked before anything is opened. */
static int
act_check(const struct decide_act *act, struct err *err)
{
	if (act->sub != NULL && ident_check_label(act->sub, "a subcategory",
	    err) < 0)
		return -1;
	if (act->note != NULL && note_check(act->note, err) < 0)
		return -1;
	return 0;
}

int
decide_one(struct store *st, const struct decide_act *act,
    const char *cand_id, const char *by, struct decide_out *out,
    struct err *err)
{
	int own = !store_in_tx(st), rc, same;

	if (out != NULL)
		memset(out, 0, sizeof *out);
	if (act_check(act, err) < 0)
		return -1;
	if (own && store_begin(st, err) < 0)
		return -1;
	switch (act->kind) {
	case DECIDE_LABEL:
		rc = label_on_latest(st, act, cand_id, by, out, err);
		break;
	case DECIDE_REVIEW:
		rc = unchanged(st, act, cand_id, by, 0, &same, err);
		if (rc == 0 && same && out != NULL)
			out->unchanged = 1;
		if (rc == 0 && !same)
			rc = store_review_set(st, cand_id, act->status,
			    act->note, by, err);
		break;
	case DECIDE_NOTE:
		rc = store_note_add(st, cand_id, act->note, by, err);
		break;
	default:
		rc = err_set(err, "unknown decision %d", (int)act->kind);
		break;
	}
	return end_own(st, own, rc, err);
}

int
decide_label(struct store *st, const char *cand_id, const char *category,
    const char *sub, const char *note, const char *by, struct decide_out *out,
    struct err *err)
{
	struct decide_act a = { .kind = DECIDE_LABEL, .category = category,
	    .sub = sub, .note = note };

	return decide_one(st, &a, cand_id, by, out, err);
}

int
decide_review(struct store *st, const char *cand_id, const char *status,
    const char *note, const char *by, struct err *err)
{
	struct decide_act a = { .kind = DECIDE_REVIEW, .status = status,
	    .note = note };

	return decide_one(st, &a, cand_id, by, NULL, err);
}

int
decide_note(struct store *st, const char *cand_id, const char *text,
    const char *by, struct err *err)
{
	struct decide_act a = { .kind = DECIDE_NOTE, .note = text };

	return decide_one(st, &a, cand_id, by, NULL, err);
}

int
decide_bulk(struct store *st, const struct decide_act *act,
    char *const *ids, size_t n, const char *by, size_t *failed,
    size_t *made, struct err *err)
{
	size_t k = 0;

	if (failed != NULL)
		*failed = n;
	if (made != NULL)
		*made = 0;
	if (store_batch_begin(st, err) < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		struct decide_out o;

		if (decide_one(st, act, ids[i], by, &o, err) < 0) {
			store_batch_rollback(st);
			if (failed != NULL)
				*failed = i;
			return -1;
		}
		k += !o.unchanged;
	}
	if (store_batch_commit(st, err) < 0) {
		store_batch_rollback(st);
		return -1;
	}
	if (made != NULL)
		*made = k;
	return 0;
}

size_t
decide_unchanged(struct store *st, const struct decide_act *act,
    char *const *ids, size_t n, const char *by)
{
	size_t k = 0;

	if (act->kind == DECIDE_NOTE)
		return 0;
	for (size_t i = 0; i < n; i++) {
		struct store_decision d;
		struct err err;
		struct run r;
		int64_t run_id = 0;

		if (act->kind == DECIDE_LABEL) {
			int has = store_run_latest(st, ids[i], &r, &err);

			if (has < 0)
				continue;
			if (has == 0) {
				run_id = r.id;
				run_release(&r);
			}
		}
		if (store_decision_get(st, ids[i], &d, &err) < 0)
			continue;
		k += changes_nothing(act, &d, by, run_id) != 0;
		store_decision_release(&d);
	}
	return k;
}

const char *
decide_warning(struct store *st, const struct decide_act *act,
    char *const *ids, size_t n, char *buf, size_t len)
{
	int accept = act->kind == DECIDE_REVIEW &&
	    status_from_name(act->status) == STATUS_ACCEPTED;
	size_t npass = 0, nnone = 0;

	buf[0] = '\0';
	if (!accept && act->kind != DECIDE_LABEL)
		return buf;
	for (size_t i = 0; i < n; i++) {
		struct err err;
		struct run r;

		if (store_run_latest(st, ids[i], &r, &err) != 0) {
			nnone++;
			continue;
		}
		if (verdict_is(r.verdict, VERDICT_PASS))
			npass++;
		run_release(&r);
	}
	if (n == 1 && accept && npass == 0)
		snprintf(buf, len, " although it %s", nnone ? "never ran" :
		    "does not pass");
	else if (n == 1 && !accept && npass == 1)
		snprintf(buf, len, " although it passes");
	else if (accept && npass < n)
		snprintf(buf, len, " although %zu of them do%s not pass%s",
		    n - npass, n - npass == 1 ? "es" : "", nnone > 0 ?
		    " or never ran" : "");
	else if (!accept && npass > 0)
		snprintf(buf, len, " although %zu of them pass%s", npass,
		    npass == 1 ? "es" : "");
	return buf;
}

void
decide_repair_release(struct decide_repair *r)
{
	if (r == NULL)
		return;
	free(r->id);
	free(r->origin);
	free(r->parent);
	memset(r, 0, sizeof *r);
}

/* The words that start the journal's "repair" event of a reproduced
 * repair, which decide_also_repairs() reads back. */
#define ALSO_REPAIR	"also a repair of "

int
decide_also_repairs(struct store *st, const char *parent, char ***ids,
    size_t *n, struct err *err)
{
	char *prefix = xasprintf(ALSO_REPAIR "%s:", parent);
	int rc = store_repair_events(st, prefix, ids, n, err);

	free(prefix);
	return rc;
}

/* 1 when id is said to be a reproduced repair of parent already, 0 when
 * not, -1 with err. */
static int
reproduced_before(struct store *st, const char *parent, const char *id,
    struct err *err)
{
	char **ids = NULL;
	size_t n = 0;
	int found = 0;

	if (decide_also_repairs(st, parent, &ids, &n, err) < 0)
		return -1;
	for (size_t i = 0; i < n && !found; i++)
		found = strcmp(ids[i], id) == 0;
	strv_free(ids, n);
	return found;
}

/*
 * The code was candidate c->id of the task already: when it is not a
 * repair of parent yet (nor said to be one: a third answer of the same
 * code journals nothing more), say so in the journal and in a note on it.
 * Caller holds the transaction.
 */
static int
repair_reproduced(struct store *st, const char *parent, const char *by,
    const char *origin, struct decide_repair *r, struct err *err)
{
	struct candidate ex = { 0 };
	char *note;
	int rc;

	rc = store_candidate_get(st, r->id, &ex, err);
	if (rc != 0)
		return rc < 0 ? -1 : err_set(err, "no candidate %s", r->id);
	r->origin = xstrdup(ex.origin);
	r->parent = xstrdup(ex.parent);
	rc = 0;
	if ((ex.parent == NULL || strcmp(ex.parent, parent) != 0) &&
	    (rc = reproduced_before(st, parent, r->id, err)) == 0) {
		note = xasprintf(ALSO_REPAIR "%s: a repair of it by %s"
		    " reproduced this code", parent, origin);
		rc = store_event_add(st, by, "repair", r->id, note, err) < 0 ||
		    store_note_add(st, r->id, note, by, err) < 0 ? -1 : 0;
		free(note);
	}
	candidate_release(&ex);
	return rc < 0 ? -1 : 0;
}

int
decide_repair_make(struct store *st, const struct decide_repair_in *in,
    const char *by, struct decide_repair *r, struct err *err)
{
	struct candidate old = { 0 }, c = { 0 };
	const char *origin = in->origin != NULL ? in->origin : by;
	int own, rc, inserted = 0;
	char *detail;

	memset(r, 0, sizeof *r);
	/* the journal's who; a reviewer's repair is also its origin */
	if (ident_check_reviewer(by, err) < 0)
		return -1;
	rc = store_candidate_get(st, in->parent, &old, err);
	if (rc != 0)
		return rc < 0 ? -1 : err_set(err, "no candidate %s",
		    in->parent);
	if (!in->refusal && decide_code_blank(in->code, in->len)) {
		candidate_release(&old);
		err_set(err, "the repair of %s is empty%s: no code, nothing"
		    " stored", in->parent, in->len > 0 ? " (only white space)" :
		    "");
		return 2;
	}
	hash_sha256(in->code != NULL ? in->code : "", in->len, c.code_hash);
	if (strcmp(c.code_hash, old.code_hash) == 0) {
		candidate_release(&old);
		err_set(err, "this is the code of %s itself: nothing stored",
		    in->parent);
		return 1;
	}
	c.task_id = xstrdup(old.task_id);
	c.origin = xstrdup(origin);
	c.kind = xstrdup("repair");
	c.lang = xstrdup(old.lang);
	c.parent = xstrdup(old.id);
	c.source = in->source != NULL ? xstrdup(in->source) :
	    xasprintf("repair of %s by %s", old.id, origin);
	c.extra = xstrdup(in->extra);
	c.code = xmalloc(in->len + 1);
	if (in->len > 0)
		memcpy(c.code, in->code, in->len);
	c.code[in->len] = '\0';
	c.code_len = in->len;
	own = !store_in_tx(st);
	if (own && store_begin(st, err) < 0) {
		rc = -1;
		goto out;
	}
	rc = store_candidate_add(st, &c, &inserted, err);
	if (rc == 0) {
		r->id = xstrdup(c.id);
		r->inserted = inserted;
	}
	if (rc == 0 && inserted) {
		r->origin = xstrdup(c.origin);
		r->parent = xstrdup(c.parent);
		/* who made it, when that is not who ran it (a model) */
		detail = strcmp(origin, by) == 0 ? xasprintf("repair of %s",
		    old.id) : xasprintf("repair of %s by %s", old.id, origin);
		rc = store_event_add(st, by, "repair", c.id, detail, err);
		free(detail);
	} else if (rc == 0) {
		rc = repair_reproduced(st, old.id, by, origin, r, err);
	}
	rc = end_own(st, own, rc, err);
	if (rc < 0)
		decide_repair_release(r);
out:
	candidate_release(&old);
	candidate_release(&c);
	return rc;
}

int
decide_code_blank(const char *code, size_t len)
{
	for (size_t i = 0; code != NULL && i < len; i++)
		if (strchr(" \t\n\r\v\f", code[i]) == NULL ||
		    code[i] == '\0')
			return 0;
	return 1;
}

int
decide_repair(struct store *st, const char *parent, const char *code,
    size_t len, const char *by, const char *source, struct decide_repair *r,
    struct err *err)
{
	struct decide_repair_in in = { parent, code, len, NULL, source,
	    NULL, 0 };

	return decide_repair_make(st, &in, by, r, err) != 0 ? -1 : 0;
}

int
decide_undo(struct store *st, int redo, const char *by, int any,
    struct store_step *out, struct err *err)
{
	return store_undo_step(st, redo, by, any, out, err);
}

const char *
decide_undo_text(int rc, int redo, const char *by, int any,
    const struct store_step *out, char *buf, size_t n)
{
	return store_step_text(rc, redo, by, any, out, buf, n);
}
