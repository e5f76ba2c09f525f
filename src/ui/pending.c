/*
 * pending.c - decisions that wait for the store's write lock, so that a
 * held lock never stops the screen.
 *
 * The workbench's connection waits WB_LOCK_MS at most for a lock another
 * process holds (an import, a headless verify storing a run, a sqlite3
 * shell): a decision key then does not freeze the screen for the 5 s of
 * the store's usual timeout.  A decision the store refuses for that
 * reason (store_locked_out()) is kept here, in order, shown as pending
 * on the status line, and made when the lock frees: the frame loop
 * drives this queue as one of its services (pending_running,
 * pending_wait, pending_step), trying every PENDING_RETRY_MS.  While
 * decisions wait, the next ones queue behind them, so they are made in
 * the order the keys came.  A decision that fails for another reason is
 * dropped with its message.  Called by ui.c (keys 1-5, a, r, f).
 */
#include "ui/wb.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/vocab.h"

#define PENDING_RETRY_MS	250

/* One decision that waits: its act (strings owned) on id; or, with
 * oid set, the journal's entry of a commit made in the repository. */
struct pending {
	enum decide_kind kind;
	char		*category, *status, *id;
	int		 final;
	char		*oid;
};

/* Make p now: decide_one(), or the commit's journal entry.  0, or -1
 * with err. */
static int
pending_make(struct wb *wb, const struct pending *p, struct decide_out *out,
    struct err *err)
{
	struct decide_act a = { .kind = p->kind, .category = p->category,
	    .status = p->status, .final = p->final };

	if (p->oid != NULL) {
		memset(out, 0, sizeof *out);
		return store_event_add(wb->st, wb->reviewer, "commit", NULL,
		    p->oid, err) < 0 ? -1 : 0;
	}
	return decide_one(wb->st, &a, p->id, wb->reviewer, out, err);
}

/* "label compile c1a2b3c", "review flagged c1a2b3c", "the journal of
 * commit 1a2b3c4" into buf. */
static const char *
pending_text(const struct pending *p, char *buf, size_t n)
{
	if (p->oid != NULL)
		snprintf(buf, n, "the journal of commit %.7s", p->oid);
	else
		snprintf(buf, n, "%s %s%s %.8s", p->kind == DECIDE_LABEL ?
		    "label" : "review", p->kind == DECIDE_LABEL ?
		    p->category : p->status, p->final ? " (final)" : "",
		    p->id);
	return buf;
}

static void
pending_free(struct pending *p)
{
	free(p->category);
	free(p->status);
	free(p->id);
	free(p->oid);
}

/* A new entry at the end of the queue, zeroed; the retry timer set. */
static struct pending *
pending_add(struct wb *wb)
{
	struct pending *p;

	wb->pending = xreallocarray(wb->pending, wb->npending + 1,
	    sizeof *wb->pending);
	p = &wb->pending[wb->npending++];
	memset(p, 0, sizeof *p);
	wb->pending_at = wb_now_ms() + PENDING_RETRY_MS;
	return p;
}

void
pending_commit(struct wb *wb, const char *oid)
{
	pending_add(wb)->oid = xstrdup(oid);
}

int
wb_decide(struct wb *wb, const struct decide_act *act, const char *id,
    struct decide_out *out, struct err *err)
{
	struct pending *p;
	char what[128];

	memset(out, 0, sizeof *out);
	/* while some wait, the next wait behind them: keys keep order */
	if (wb->npending == 0) {
		if (decide_one(wb->st, act, id, wb->reviewer, out, err) == 0)
			return 0;
		if (!store_locked_out(wb->st))
			return -1;
	}
	p = pending_add(wb);
	p->kind = act->kind;
	p->category = xstrdup(act->category);
	p->status = xstrdup(act->status);
	p->id = xstrdup(id);
	p->final = act->final;
	wb_msg(wb, 0, "%s waits: another process holds the database's lock "
	    "(%zu pending; made when it frees)", pending_text(p, what,
	    sizeof what), wb->npending);
	return 1;
}

int
pending_has(const struct wb *wb, const char *id)
{
	for (size_t i = 0; i < wb->npending; i++)
		if (wb->pending[i].id != NULL && strcmp(wb->pending[i].id,
		    id) == 0)
			return 1;
	return 0;
}

int
pending_running(const struct wb *wb)
{
	return wb->npending > 0;
}

int
pending_wait(const struct wb *wb)
{
	int64_t t = wb->pending_at - wb_now_ms();

	return t < 0 ? 0 : (int)t;
}

void
pending_pollfds(struct wb *wb, struct wb_pollset *ps)
{
	(void)wb;	/* a timer only */
	(void)ps;
}

void
pending_step(struct wb *wb)
{
	struct decide_out out;
	struct err err;
	char what[128];
	size_t made = 0;

	if (wb->npending == 0 || wb_now_ms() < wb->pending_at)
		return;
	wb->pending_at = wb_now_ms() + PENDING_RETRY_MS;
	while (wb->npending > 0) {
		struct pending *p = &wb->pending[0];

		if (pending_make(wb, p, &out, &err) < 0) {
			if (store_locked_out(wb->st))
				break;	/* still held */
			wb_msg(wb, 1, "%s (pending) failed: %s",
			    pending_text(p, what, sizeof what), err.msg);
		} else {
			made++;
		}
		pending_free(p);
		memmove(p, p + 1, --wb->npending * sizeof *p);
	}
	if (made == 0)
		return;
	if (wb->npending == 0)
		wb_msg(wb, 0, "the database is free: %zu pending decision%s "
		    "made", made, made == 1 ? "" : "s");
	wb_view_changed(wb);	/* their rows; the cursor stays */
}

/* "assay --db DB --reviewer NAME VERB ID": what a pending decision
 * makes, as a command that runs as printed from any folder. */
static void
pending_command(const struct wb *wb, const struct pending *p,
    const char *db_path, struct buf *b)
{
	char *abs = db_path != NULL ? realpath(db_path, NULL) : NULL;

	buf_adds(b, "  assay");
	if (db_path != NULL) {
		buf_adds(b, " --db ");
		buf_add_quoted(b, abs != NULL ? abs : db_path);
	}
	buf_adds(b, " --reviewer ");
	buf_add_quoted(b, wb->reviewer);
	if (p->kind == DECIDE_LABEL) {
		buf_adds(b, " label ");
		buf_add_quoted(b, p->id);
		if (p->final)
			buf_adds(b, " --final");
		buf_addc(b, ' ');
		buf_add_quoted(b, p->category);
	} else {
		buf_adds(b, " review ");
		buf_add_quoted(b, p->id);
		buf_addc(b, ' ');
		buf_adds(b, status_verb(status_from_name(p->status)));
	}
	buf_addc(b, '\n');
	free(abs);
}

size_t
pending_flush(struct wb *wb, int wait_ms, const char *db_path)
{
	struct decide_out out;
	struct err err;
	struct buf b;
	size_t left = 0;

	buf_init(&b);
	store_lock_timeout(wb->st, wait_ms);
	for (size_t i = 0; i < wb->npending; i++) {
		struct pending *p = &wb->pending[i];

		/* once the lock stayed held, the rest waits no more */
		if (left == 0 && pending_make(wb, p, &out, &err) == 0)
			continue;
		left++;
		if (p->oid != NULL)
			buf_printf(&b, "  (commit %s is in the repository,"
			    " not in the journal)\n", p->oid);
		else
			pending_command(wb, p, db_path, &b);
	}
	if (left > 0)
		fprintf(stderr, "assay: the database's lock stayed held: %zu"
		    " decision%s not made; run %s when it frees:\n%s", left,
		    left == 1 ? " was" : "s were", left == 1 ? "it" : "them",
		    buf_str(&b));
	buf_release(&b);
	pending_release(wb);
	return left;
}

void
pending_release(struct wb *wb)
{
	for (size_t i = 0; i < wb->npending; i++)
		pending_free(&wb->pending[i]);
	free(wb->pending);
	wb->pending = NULL;
	wb->npending = 0;
}
