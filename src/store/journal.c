/*
 * journal.c - decisions and the journal (store.h): labels, reviews and
 * notes, each one transaction that moves the candidate's pointer and
 * appends an event; undo and redo as the journal says, one batch at a
 * time; the events, notes and decisions of a candidate; the decisions
 * an import replays with their own dates.  The journal is only ever
 * appended to.
 */
#include "store/store_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/ident.h"

/* Current pointer (label_id or review_id) of a candidate; 0 when NULL. */
static int
cand_pointer(struct store *st, const char *cand_id, const char *field,
    int64_t *val, struct err *err)
{
	sqlite3_stmt *s;
	char sql[96];
	int rc;

	snprintf(sql, sizeof sql, "SELECT %s_id FROM candidate WHERE id = ?1",
	    field);
	if (prepare(st, &s, sql, err) < 0)
		return -1;
	bind_text(s, 1, cand_id);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		*val = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	if (rc == SQLITE_DONE)
		return err_set(err, "no candidate %s", cand_id);
	if (rc != SQLITE_ROW)
		return err_sqlite(err, st->db, "read candidate");
	return 0;
}

static int
set_pointer(struct store *st, const char *cand_id, const char *field,
    int64_t val, struct err *err)
{
	sqlite3_stmt *s;
	char sql[96];

	snprintf(sql, sizeof sql, "UPDATE candidate SET %s_id = ?1 WHERE"
	    " id = ?2", field);
	if (prepare(st, &s, sql, err) < 0)
		return -1;
	if (val != 0)
		sqlite3_bind_int64(s, 1, val);
	else
		sqlite3_bind_null(s, 1);
	bind_text(s, 2, cand_id);
	return step_done(st, s, "update candidate", err);
}

static int
event_insert(struct store *st, const char *who, const char *action,
    const char *cand_id, const char *field, int64_t before, int64_t after,
    int64_t target, const char *detail, struct err *err)
{
	sqlite3_stmt *s;

	/* The journal's who is a reviewer name or a command's ("import"):
	 * the same rule, for every journalled act. */
	if (check_by(who, err) < 0)
		return -1;
	if (prepare(st, &s, "INSERT INTO event(at, who, action, cand_id, field,"
	    " before, after, target, detail, batch) VALUES (?1, ?2, ?3, ?4, ?5,"
	    " ?6, ?7, ?8, ?9, ?10)", err) < 0)
		return -1;
	if (st->batch != 0)
		sqlite3_bind_int64(s, 10, st->batch);
	sqlite3_bind_int64(s, 1, now_s());
	bind_text(s, 2, who);
	bind_text(s, 3, action);
	bind_text(s, 4, cand_id);
	bind_text(s, 5, field);
	if (before != 0)
		sqlite3_bind_int64(s, 6, before);
	if (after != 0)
		sqlite3_bind_int64(s, 7, after);
	if (target != 0)
		sqlite3_bind_int64(s, 8, target);
	bind_text(s, 9, detail);
	return step_done(st, s, "journal", err);
}

/*
 * Record a decision: insert the history row with sql/binds done by the
 * caller's statement s, point the candidate at it and journal the move,
 * all in one transaction.
 */
static int
decide(struct store *st, sqlite3_stmt *s, const char *cand_id,
    const char *field, const char *by, const char *detail, struct err *err)
{
	int64_t before = 0, after;
	int own_tx = !st->in_tx;	/* inside an import: its transaction */

	if (own_tx && store_begin(st, err) < 0) {
		sqlite3_finalize(s);
		return -1;
	}
	if (cand_pointer(st, cand_id, field, &before, err) < 0) {
		sqlite3_finalize(s);
		goto fail;
	}
	if (step_done(st, s, field, err) < 0)
		goto fail;
	after = sqlite3_last_insert_rowid(st->db);
	if (set_pointer(st, cand_id, field, after, err) < 0 ||
	    event_insert(st, by, field, cand_id, field, before, after, 0,
	    detail, err) < 0 ||
	    (own_tx && store_commit(st, err) < 0))
		goto fail;
	return 0;
fail:
	if (own_tx)
		store_rollback(st);
	return -1;
}

int
store_label_set(struct store *st, const char *cand_id, const char *category,
    const char *sub, const char *note, const char *by, int64_t run_id,
    const char *evidence, struct err *err)
{
	sqlite3_stmt *s;
	char detail[128];

	if (check_category(category, err) < 0 || check_by(by, err) < 0)
		return -1;
	if (prepare(st, &s, "INSERT INTO label(cand_id, category, subcategory,"
	    " note, by, run_id, evidence, at) VALUES (?1, ?2, ?3, ?4, ?5, ?6,"
	    " ?7, ?8)", err) < 0)
		return -1;
	bind_text(s, 1, cand_id);
	bind_text(s, 2, category);
	bind_text(s, 3, sub);
	bind_text(s, 4, note);
	bind_text(s, 5, by);
	if (run_id != 0)
		sqlite3_bind_int64(s, 6, run_id);
	bind_text(s, 7, evidence);
	sqlite3_bind_int64(s, 8, now_s());
	snprintf(detail, sizeof detail, "label %s%s%s", category,
	    sub != NULL ? "/" : "", sub != NULL ? sub : "");
	return decide(st, s, cand_id, "label", by, detail, err);
}

int
store_review_set(struct store *st, const char *cand_id, const char *status,
    const char *note, const char *by, struct err *err)
{
	static const char *const statuses[] = { "unreviewed", "accepted",
		"rejected", "flagged" };
	sqlite3_stmt *s;
	char detail[64], show[96];
	int known = 0;

	for (size_t i = 0; status != NULL && i < 4; i++)
		known = known || strcmp(status, statuses[i]) == 0;
	if (!known)
		return err_set(err, "unknown review status '%s' (unreviewed"
		    " accepted rejected flagged)", ident_show(status, show,
		    sizeof show));
	if (check_by(by, err) < 0)
		return -1;
	if (prepare(st, &s, "INSERT INTO review(cand_id, status, note, by, at)"
	    " VALUES (?1, ?2, ?3, ?4, ?5)", err) < 0)
		return -1;
	bind_text(s, 1, cand_id);
	bind_text(s, 2, status);
	bind_text(s, 3, note);
	bind_text(s, 4, by);
	sqlite3_bind_int64(s, 5, now_s());
	snprintf(detail, sizeof detail, "review %s", status);
	return decide(st, s, cand_id, "review", by, detail, err);
}

/* A journal row as undo/redo see it. */
struct jrow {
	int64_t	 id, before, after, target, batch;
	char	 action[16], field[16], cand_id[128], detail[128];
};

static int
jrow_get(struct store *st, int64_t id, struct jrow *j, struct err *err)
{
	sqlite3_stmt *s;
	int rc;

	memset(j, 0, sizeof *j);
	if (prepare(st, &s, "SELECT id, action, coalesce(field, ''),"
	    " coalesce(cand_id, ''), coalesce(before, 0), coalesce(after, 0),"
	    " coalesce(target, 0), coalesce(detail, ''), coalesce(batch, 0)"
	    " FROM event WHERE id = ?1",
	    err) < 0)
		return -1;
	sqlite3_bind_int64(s, 1, id);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		j->id = sqlite3_column_int64(s, 0);
		snprintf(j->action, sizeof j->action, "%s",
		    sqlite3_column_text(s, 1));
		snprintf(j->field, sizeof j->field, "%s",
		    sqlite3_column_text(s, 2));
		snprintf(j->cand_id, sizeof j->cand_id, "%s",
		    sqlite3_column_text(s, 3));
		j->before = sqlite3_column_int64(s, 4);
		j->after = sqlite3_column_int64(s, 5);
		j->target = sqlite3_column_int64(s, 6);
		snprintf(j->detail, sizeof j->detail, "%s",
		    sqlite3_column_text(s, 7));
		j->batch = sqlite3_column_int64(s, 8);
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_ROW)
		return err_sqlite(err, st->db, "read journal");
	return 0;
}

/* A set of event ids (open addressing; 0 is never an id): the steps an
 * undo or redo above already took, met while walking the journal. */
struct idset64 {
	int64_t	*slot;
	size_t	 cap, n;
};

static size_t
idset64_at(const struct idset64 *h, int64_t id)
{
	size_t i = (size_t)((uint64_t)id * 0x9e3779b97f4a7c15ULL) &
	    (h->cap - 1);

	while (h->slot[i] != 0 && h->slot[i] != id)
		i = (i + 1) & (h->cap - 1);
	return i;
}

static int
idset64_has(const struct idset64 *h, int64_t id)
{
	return h->cap > 0 && h->slot[idset64_at(h, id)] == id;
}

static void
idset64_add(struct idset64 *h, int64_t id)
{
	if (id == 0 || idset64_has(h, id))
		return;
	if (2 * (h->n + 1) > h->cap) {
		struct idset64 g = { NULL, h->cap > 0 ? 2 * h->cap : 64, 0 };

		g.slot = xcalloc(g.cap, sizeof *g.slot);
		for (size_t i = 0; i < h->cap; i++)
			if (h->slot[i] != 0)
				g.slot[idset64_at(&g, h->slot[i])] = h->slot[i];
		g.n = h->n;
		free(h->slot);
		*h = g;
	}
	h->slot[idset64_at(h, id)] = id;
	h->n++;
}

/*
 * The events one undo (redo == 0) or redo (redo == 1) takes, found in
 * one walk of the journal backwards: the newest step not yet undone
 * (for a redo, the newest undo not yet redone, before any newer
 * decision), and, when it belongs to a batch, every step of that batch
 * below it, until the first step of another batch.  The journal is
 * append-only, so "already undone" is a later undo naming the event as
 * its target.  *ids (owned by the caller; in the order to take them,
 * newest first) and *n are empty when there is nothing to do.  One
 * walk, not one a step: a batch of 4,000 labels took 14 s undone step
 * by step, each walk passing the undos before it.
 */
static int
journal_targets(struct store *st, int redo, const char *who, int64_t **ids,
    size_t *n, struct err *err)
{
	struct idset64 seen = { NULL, 0, 0 };
	sqlite3_stmt *s;
	int64_t batch = 0;
	int rc;

	*ids = NULL;
	*n = 0;
	/* who: only that reviewer's steps (their decisions, their undos and
	 * redos), so that one reviewer's undo never takes back another's;
	 * and what others did to those steps (an undo --any of one of them,
	 * a redo of that undo), so that a step someone else undid counts as
	 * undone here too. */
	if (prepare(st, &s, "SELECT id, action, coalesce(target, 0),"
	    " coalesce(batch, 0) FROM event"
	    " WHERE action IN ('label', 'review', 'undo', 'redo')"
	    " AND (?1 IS NULL OR who = ?1"
	    "  OR (action = 'undo' AND target IN"
	    "   (SELECT id FROM event WHERE who = ?1))"
	    "  OR (action = 'redo' AND target IN (SELECT id FROM event"
	    "   WHERE action = 'undo' AND target IN"
	    "    (SELECT id FROM event WHERE who = ?1))))"
	    " ORDER BY id DESC", err) < 0)
		return -1;
	bind_text(s, 1, who);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(s, 0);
		const char *action = (const char *)sqlite3_column_text(s, 1);
		int64_t target = sqlite3_column_int64(s, 2);
		int64_t b = sqlite3_column_int64(s, 3);
		/* what names a step to take: an undo for a redo, anything
		 * else for an undo; what names a taken one: the other */
		int takes = strcmp(action, redo ? "redo" : "undo") == 0;
		int step = redo ? strcmp(action, "undo") == 0 : !takes;

		if (takes) {
			idset64_add(&seen, target);
			continue;
		}
		if (!step)
			break;	/* a new decision ends the redo chain */
		if (idset64_has(&seen, id))
			continue;
		if (*n > 0 && (batch == 0 || b != batch))
			break;
		batch = b;
		*ids = xreallocarray(*ids, *n + 1, sizeof **ids);
		(*ids)[(*n)++] = id;
		if (batch == 0)
			break;
	}
	free(seen.slot);
	sqlite3_finalize(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		free(*ids);
		*ids = NULL;
		*n = 0;
		return err_sqlite(err, st->db, "read journal");
	}
	return 0;
}

/*
 * Undo or redo one journal step: the event id found by journal_target.
 * Caller holds the transaction; the new event joins st->batch.
 */
static int
undo_redo_one(struct store *st, int redo, int64_t id, const char *by,
    int mine, struct jrow *d, struct err *err)
{
	struct jrow t;
	int64_t val, now;

	if (jrow_get(st, id, &t, err) < 0)
		return -1;
	if (redo) {
		/* t is an undo; d is the decision it undid. */
		if (jrow_get(st, t.target, d, err) < 0)
			return -1;
		val = d->after;
	} else {
		*d = t;
		val = d->before;
	}
	d->batch = t.batch;
	/* A reviewer's own step whose candidate someone else decided since:
	 * moving the pointer back would take that later decision away. */
	if (mine) {
		if (cand_pointer(st, d->cand_id, d->field, &now, err) < 0)
			return -1;
		if (now != (redo ? d->before : d->after))
			return err_set(err, "cannot %s %s of %s: someone else"
			    " decided it since (undo --any takes the newest"
			    " step of anyone)", redo ? "redo" : "undo",
			    d->detail, d->cand_id);
	}
	if (set_pointer(st, d->cand_id, d->field, val, err) < 0 ||
	    event_insert(st, by, redo ? "redo" : "undo", d->cand_id, d->field,
	    redo ? d->before : d->after, val, id, d->detail, err) < 0)
		return -1;
	return 0;
}

/*
 * Undo or redo the newest step; when it belongs to a batch (a bulk
 * decision), every step of that batch goes with it, in one transaction.
 */
int
store_undo_step(struct store *st, int redo, const char *by, int any,
    struct store_step *out, struct err *err)
{
	int mine = !any;
	const char *who = mine ? by : NULL;
	struct jrow d, first;
	int64_t *ids;
	size_t n;

	memset(out, 0, sizeof *out);
	if (store_begin(st, err) < 0)
		return -1;
	if (journal_targets(st, redo, who, &ids, &n, err) < 0)
		goto fail;
	if (n == 0) {
		store_rollback(st);
		return 1;
	}
	if (jrow_get(st, ids[0], &first, err) < 0)
		goto fail;
	st->batch = first.batch;
	for (size_t i = 0; i < n; i++) {
		if (undo_redo_one(st, redo, ids[i], by, mine, &d, err) < 0)
			goto fail;
		/* Undo walks the batch newest first, redo oldest first:
		 * both name the step decided first. */
		if (i == 0 || !redo)
			first = d;
	}
	st->batch = 0;
	free(ids);
	ids = NULL;
	if (store_commit(st, err) < 0)
		goto fail;
	out->count = n;
	snprintf(out->cand_id, sizeof out->cand_id, "%s", first.cand_id);
	snprintf(out->field, sizeof out->field, "%s", first.field);
	snprintf(out->detail, sizeof out->detail, "%s", first.detail);
	return 0;
fail:
	free(ids);
	st->batch = 0;
	store_rollback(st);
	return -1;
}

const char *
store_step_text(int rc, int redo, const char *by, int any,
    const struct store_step *s, char *buf, size_t n)
{
	const char *verb = redo ? "redid" : "undid";

	if (buf == NULL || n == 0)
		return buf;
	buf[0] = '\0';
	if (rc == 1)
		snprintf(buf, n, "nothing to %s%s%s", redo ? "redo" : "undo",
		    any ? "" : " by ", any ? "" : by);
	else if (rc == 0 && s->count == 1)
		snprintf(buf, n, "%s %s of %s", verb, s->detail, s->cand_id);
	else if (rc == 0)
		snprintf(buf, n, "%s %s of %zu candidates, first of %s", verb,
		    s->detail, s->count, s->cand_id);
	return buf;
}

static int
undo_redo(struct store *st, int redo, const char *by, int mine, char *what,
    size_t n, struct err *err)
{
	struct store_step s;
	int rc = store_undo_step(st, redo, by, !mine, &s, err);

	if (rc >= 0)
		store_step_text(rc, redo, by, !mine, &s, what, n);
	return rc;
}

int
store_undo(struct store *st, const char *by, char *what, size_t n,
    struct err *err)
{
	return undo_redo(st, 0, by, 1, what, n, err);
}

int
store_redo(struct store *st, const char *by, char *what, size_t n,
    struct err *err)
{
	return undo_redo(st, 1, by, 1, what, n, err);
}

int
store_undo_any(struct store *st, const char *by, char *what, size_t n,
    struct err *err)
{
	return undo_redo(st, 0, by, 0, what, n, err);
}

int
store_redo_any(struct store *st, const char *by, char *what, size_t n,
    struct err *err)
{
	return undo_redo(st, 1, by, 0, what, n, err);
}

int
store_batch_begin(struct store *st, struct err *err)
{
	sqlite3_stmt *s;
	int rc;

	if (store_begin(st, err) < 0)
		return -1;
	if (prepare(st, &s, "SELECT coalesce(max(batch), 0) + 1 FROM event",
	    err) < 0)
		goto fail;
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		st->batch = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	if (rc != SQLITE_ROW) {
		err_sqlite(err, st->db, "journal batch");
		goto fail;
	}
	return 0;
fail:
	store_rollback(st);
	return -1;
}

int
store_batch_commit(struct store *st, struct err *err)
{
	st->batch = 0;
	return store_commit(st, err);
}

void
store_batch_rollback(struct store *st)
{
	st->batch = 0;
	store_rollback(st);
}

int
store_note_add(struct store *st, const char *cand_id, const char *text,
    const char *by, struct err *err)
{
	sqlite3_stmt *s;
	int64_t ptr;
	int own_tx = !st->in_tx;
	char detail[128];

	if (text == NULL || *text == '\0')
		return err_set(err, "a note wants a text");
	if (check_by(by, err) < 0)
		return -1;
	if (own_tx && store_begin(st, err) < 0)
		return -1;
	if (cand_pointer(st, cand_id, "label", &ptr, err) < 0)
		goto fail;
	if (prepare(st, &s, "INSERT INTO note(cand_id, text, by, at) VALUES"
	    " (?1, ?2, ?3, ?4)", err) < 0)
		goto fail;
	bind_text(s, 1, cand_id);
	bind_text(s, 2, text);
	bind_text(s, 3, by);
	sqlite3_bind_int64(s, 4, now_s());
	if (step_done(st, s, "note", err) < 0)
		goto fail;
	snprintf(detail, sizeof detail, "note %.100s", text);
	if (event_insert(st, by, "note", cand_id, NULL, 0, 0, 0, detail,
	    err) < 0 || (own_tx && store_commit(st, err) < 0))
		goto fail;
	return 0;
fail:
	if (own_tx)
		store_rollback(st);
	return -1;
}

static const struct col note_cols[] = {
	COL(struct store_note, id, COL_I64),
	COL(struct store_note, at, COL_I64),
	COL(struct store_note, text, COL_TEXT),
	COL(struct store_note, by, COL_TEXT),
};

void
store_note_release(struct store_note *nt)
{
	cols_release(nt, sizeof *nt, note_cols, NCOLS(note_cols));
}

int
store_note_list(struct store *st, const char *cand_id,
    struct store_note **out, size_t *n, struct err *err)
{
	return rows_by_cand(st, "SELECT id, at, text, by FROM note WHERE"
	    " cand_id = ?1 ORDER BY id", cand_id,
	    sizeof **out, note_cols, NCOLS(note_cols), out, n,
	    "read notes", err);
}

int
store_event_add(struct store *st, const char *who, const char *action,
    const char *cand_id, const char *detail, struct err *err)
{
	return event_insert(st, who, action, cand_id, NULL, 0, 0, 0, detail,
	    err);
}

int
store_repair_events(struct store *st, const char *prefix, char ***ids,
    size_t *n, struct err *err)
{
	sqlite3_stmt *s;
	char *end;
	int rc;

	*ids = NULL;
	*n = 0;
	/* detail >= prefix and < prefix with its last byte raised: a range
	 * of event_repair (a prefix with no last byte to raise, or one
	 * ending in 0xff, is not asked by any caller) */
	end = xstrdup(prefix);
	if (*end != '\0' && (unsigned char)end[strlen(end) - 1] < 0xff)
		end[strlen(end) - 1]++;
	if (prepare(st, &s, "SELECT cand_id FROM event INDEXED BY event_repair"
	    " WHERE action = 'repair' AND detail >= ?1 AND detail < ?2"
	    " AND cand_id IS NOT NULL GROUP BY cand_id ORDER BY min(id)",
	    err) < 0) {
		free(end);
		return -1;
	}
	bind_text(s, 1, prefix);
	bind_text(s, 2, end);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		*ids = xreallocarray(*ids, *n + 1, sizeof **ids);
		(*ids)[(*n)++] = xstrdup((const char *)sqlite3_column_text(s,
		    0));
	}
	sqlite3_finalize(s);
	free(end);
	if (rc != SQLITE_DONE) {
		strv_free(*ids, *n);
		*ids = NULL;
		*n = 0;
		return err_sqlite(err, st->db, "read journal");
	}
	return 0;
}

int
store_candidate_extra_set(struct store *st, const char *cand_id,
    const char *key, const char *value, const char *who, const char *action,
    const char *detail, struct err *err)
{
	sqlite3_stmt *s;
	int own = !st->in_tx, rc;
	char *path;

	for (const char *p = key; *p != '\0'; p++)
		if (!((*p >= 'a' && *p <= 'z') || *p == '_'))
			return err_set(err, "extra key '%s': a-z and '_'"
			    " only", key);
	if (own && store_begin(st, err) < 0)
		return -1;
	path = xasprintf("$.%s", key);
	rc = prepare(st, &s, "UPDATE candidate SET extra = json_set(CASE WHEN"
	    " extra IS NOT NULL AND json_valid(extra) AND json_type(extra) ="
	    " 'object' THEN extra ELSE '{}' END, ?1, json(?2)) WHERE id = ?3",
	    err);
	if (rc == 0) {
		bind_text(s, 1, path);
		bind_text(s, 2, value);
		bind_text(s, 3, cand_id);
		rc = step_done(st, s, "set a candidate's extra", err);
	}
	free(path);
	if (rc == 0 && sqlite3_changes(st->db) == 0)
		rc = 1;
	if (rc == 0)
		rc = event_insert(st, who, action, cand_id, NULL, 0, 0, 0,
		    detail, err);
	if (own) {
		if (rc == 0 && store_commit(st, err) < 0)
			rc = -1;
		if (rc != 0)
			store_rollback(st);
	}
	return rc;
}

static const struct col event_cols[] = {
	COL(struct store_event, id, COL_I64),
	COL(struct store_event, at, COL_I64),
	COL(struct store_event, who, COL_TEXT),
	COL(struct store_event, action, COL_TEXT),
	COL(struct store_event, cand_id, COL_TEXT),
	COL(struct store_event, detail, COL_TEXT),
};

void
store_event_release(struct store_event *e)
{
	cols_release(e, sizeof *e, event_cols, NCOLS(event_cols));
}

int
store_event_list(struct store *st, const char *cand_id,
    struct store_event **out, size_t *n, struct err *err)
{
	return rows_by_cand(st, "SELECT id, at, who, action, cand_id, detail FROM"
	    " event WHERE ?1 IS NULL OR cand_id = ?1 ORDER BY id", cand_id,
	    sizeof **out, event_cols, NCOLS(event_cols), out, n,
	    "read events", err);
}

void
store_decision_release(struct store_decision *d)
{
	if (d == NULL)
		return;
	free(d->category);
	free(d->subcategory);
	free(d->label_by);
	free(d->label_note);
	free(d->status);
	free(d->review_note);
	free(d->review_by);
	memset(d, 0, sizeof *d);
}

int
store_decision_get(struct store *st, const char *cand_id,
    struct store_decision *out, struct err *err)
{
	sqlite3_stmt *s;
	int rc;

	memset(out, 0, sizeof *out);
	if (prepare(st, &s, "SELECT l.category, l.subcategory, l.by, l.note,"
	    " l.at, v.status, v.note, v.by, v.at, l.run_id, l.final"
	    " FROM candidate c"
	    " LEFT JOIN label l ON l.id = c.label_id"
	    " LEFT JOIN review v ON v.id = c.review_id WHERE c.id = ?1",
	    err) < 0)
		return -1;
	bind_text(s, 1, cand_id);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		out->category = col_text(s, 0);
		out->subcategory = col_text(s, 1);
		out->label_by = col_text(s, 2);
		out->label_note = col_text(s, 3);
		out->label_at = sqlite3_column_int64(s, 4);
		out->status = col_text(s, 5);
		out->review_note = col_text(s, 6);
		out->review_by = col_text(s, 7);
		out->review_at = sqlite3_column_int64(s, 8);
		out->label_run_id = sqlite3_column_int64(s, 9);
		out->label_final = sqlite3_column_int(s, 10);
	}
	sqlite3_finalize(s);
	if (rc == SQLITE_DONE)
		return err_set(err, "no candidate %s", cand_id);
	if (rc != SQLITE_ROW)
		return err_sqlite(err, st->db, "read decision");
	if (out->status == NULL)
		out->status = xstrdup("unreviewed");
	return 0;
}

int
store_label_final(struct store *st, const char *cand_id,
    const char *category, const char *by, int64_t run_id,
    const char *evidence, struct err *err)
{
	sqlite3_stmt *s;
	char detail[128];

	if (check_category(category, err) < 0 || check_by(by, err) < 0)
		return -1;
	if (prepare(st, &s, "INSERT INTO label(cand_id, category, by, run_id,"
	    " evidence, at, final) VALUES (?1, ?2, ?3, ?4, ?5, ?6, 1)",
	    err) < 0)
		return -1;
	bind_text(s, 1, cand_id);
	bind_text(s, 2, category);
	bind_text(s, 3, by);
	if (run_id != 0)
		sqlite3_bind_int64(s, 4, run_id);
	bind_text(s, 5, evidence);
	sqlite3_bind_int64(s, 6, now_s());
	/* for the journal's reader; label.final is what counts (v9) */
	snprintf(detail, sizeof detail, "label %s (final)", category);
	return decide(st, s, cand_id, "label", by, detail, err);
}

/* --- decisions replayed by an import (dated) ------------------------- */

/*
 * Date the history row id of table (label, review or note) and the
 * candidate's newest journal event, the one that recorded it, at at.
 */
static int
restamp(struct store *st, const char *table, int64_t id,
    const char *cand_id, int64_t at, struct err *err)
{
	sqlite3_stmt *s;
	char sql[64];

	snprintf(sql, sizeof sql, "UPDATE %s SET at = ?1 WHERE id = ?2",
	    table);
	if (prepare(st, &s, sql, err) < 0)
		return -1;
	sqlite3_bind_int64(s, 1, at);
	sqlite3_bind_int64(s, 2, id);
	if (step_done(st, s, table, err) < 0)
		return -1;
	if (prepare(st, &s, "UPDATE event SET at = ?1 WHERE id = (SELECT"
	    " max(id) FROM event WHERE cand_id = ?2)", err) < 0)
		return -1;
	sqlite3_bind_int64(s, 1, at);
	bind_text(s, 2, cand_id);
	return step_done(st, s, "journal", err);
}

/* End what a dated decision began: commit or roll back its own
 * transaction (none inside an import's).  Returns rc. */
static int
dated_end(struct store *st, int own_tx, int rc, struct err *err)
{
	if (!own_tx)
		return rc;
	if (rc == 0 && store_commit(st, err) == 0)
		return 0;
	store_rollback(st);
	return -1;
}

int
store_label_set_at(struct store *st, const char *cand_id,
    const char *category, const char *sub, const char *note, const char *by,
    int final, const char *evidence, int64_t at, struct err *err)
{
	int own_tx = !st->in_tx, rc;
	int64_t id;

	if (own_tx && store_begin(st, err) < 0)
		return -1;
	if (final)
		rc = store_label_final(st, cand_id, category, by, 0, evidence,
		    err);
	else
		rc = store_label_set(st, cand_id, category, sub, note, by, 0,
		    evidence, err);
	if (rc == 0 && at > 0)
		rc = cand_pointer(st, cand_id, "label", &id, err) < 0 ? -1 :
		    restamp(st, "label", id, cand_id, at, err);
	return dated_end(st, own_tx, rc, err);
}

int
store_review_set_at(struct store *st, const char *cand_id,
    const char *status, const char *note, const char *by, int64_t at,
    struct err *err)
{
	int own_tx = !st->in_tx, rc;
	int64_t id;

	if (own_tx && store_begin(st, err) < 0)
		return -1;
	rc = store_review_set(st, cand_id, status, note, by, err);
	if (rc == 0 && at > 0)
		rc = cand_pointer(st, cand_id, "review", &id, err) < 0 ? -1 :
		    restamp(st, "review", id, cand_id, at, err);
	return dated_end(st, own_tx, rc, err);
}

int
store_note_add_at(struct store *st, const char *cand_id, const char *text,
    const char *by, int64_t at, struct err *err)
{
	sqlite3_stmt *s;
	int own_tx = !st->in_tx, rc;
	int64_t id = 0;

	if (own_tx && store_begin(st, err) < 0)
		return -1;
	rc = store_note_add(st, cand_id, text, by, err);
	if (rc == 0 && at > 0) {
		rc = prepare(st, &s, "SELECT max(id) FROM note WHERE"
		    " cand_id = ?1", err);
		if (rc == 0) {
			bind_text(s, 1, cand_id);
			if (sqlite3_step(s) == SQLITE_ROW)
				id = sqlite3_column_int64(s, 0);
			sqlite3_finalize(s);
			rc = restamp(st, "note", id, cand_id, at, err);
		}
	}
	return dated_end(st, own_tx, rc, err);
}

int
store_label_is_final(struct store *st, const char *cand_id,
    int64_t label_id, int *final, struct err *err)
{
	sqlite3_stmt *s;
	int rc;

	*final = 0;
	if (prepare(st, &s, "SELECT EXISTS (SELECT 1 FROM label WHERE"
	    " cand_id = ?1 AND id = ?2 AND final)", err) < 0)
		return -1;
	bind_text(s, 1, cand_id);
	sqlite3_bind_int64(s, 2, label_id);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		*final = sqlite3_column_int(s, 0);
	sqlite3_finalize(s);
	if (rc != SQLITE_ROW)
		return err_sqlite(err, st->db, "read label");
	return 0;
}

/* --- a task's split set by hand (journalled) ------------------------ */

int
store_task_split_set(struct store *st, const char *task_id,
    const char *split, int hand, const char *by, struct err *err)
{
	sqlite3_stmt *s;

	if (prepare(st, &s, hand ? "UPDATE task SET split = ?2, split_hand ="
	    " (?2 IS NOT NULL) WHERE id = ?1" : "UPDATE task SET split = ?2"
	    " WHERE id = ?1 AND split_hand = 0", err) < 0)
		return -1;
	bind_text(s, 1, task_id);
	bind_text(s, 2, split);
	if (step_done(st, s, "set split", err) < 0)
		return -1;
	if (hand && sqlite3_changes(st->db) == 0)
		return err_set(err, "no task %s", task_id);
	if (hand) {
		char *detail = xasprintf("split of %s: %s", task_id,
		    split != NULL ? split : "(by hash)");
		int rc = store_event_add(st, by, "split", NULL, detail, err);

		free(detail);
		return rc;
	}
	return 0;
}
