/*
 * batch.c - :verify, background verification of many candidates from
 * the workbench, through the verify service (verify/service.h) in this
 * process (ADR 0039).
 *
 * The service is the one `assay verify` drives: references first,
 * claims, the input-key skip, a pool of jobs on pipes, each run stored
 * the moment it is judged.  Here the frame loop drives it: its jobs'
 * fds are polled with the keyboard's (batch_pollfds), and batch_io()
 * steps it, so moving and deciding go on meanwhile.  Its hooks count
 * what it stored; the queue re-reads its view at most every
 * BATCH_REFRESH_MS as results land, and the cursor stays where the
 * reviewer put it (a row that leaves the view stays on screen, dimmed:
 * wb_view_changed).  x or C-c cancels: running jobs are stopped, what was
 * stored stays.
 *
 * The ids of a view are read a page at a time, BATCH_PAGE per step, so
 * that a view of a million does not stop the screen while it is read.
 */
#include "ui/wb.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/vocab.h"
#include "verify/service.h"

#define BATCH_REFRESH_MS	300	/* re-read the view at most this often */
#define BATCH_MAX_JOBS		64
#define BATCH_PAGE		2048	/* ids of the view read per step */

/* A candidate whose job started: whether it matched the view then. */
struct batch_cand {
	char		*id;
	char		*filter;	/* the view's filter then; NULL: all */
	int		 matched;	/* 1, 0; -1: not known */
};

/* The state of :verify, owned by wb->batch. */
struct batch {
	struct vsvc	*vs;		/* running; NULL: not (yet) */
	int		 reading;	/* the view's ids are being read */
	char		*filter;	/* the view read; owned */
	int64_t		 after;		/* the last seq read */
	char		**ids;		/* nids read so far; owned */
	size_t		 nids, cap;
	size_t		 expect;	/* the view's count when started */
	struct vsvc_opts o;
	size_t		 results, pass, fail;	/* runs stored */
	size_t		 seen;		/* results when the view was read */
	struct batch_cand *started;	/* running, nstarted */
	struct batch_cand *fresh;	/* stored since the view was read */
	size_t		 nstarted, nfresh;
	int64_t		 t0, refreshed;	/* ms */
	int		 cancelled;
	char		 last_err[256];
};

int
batch_running(const struct wb *wb)
{
	return wb->batch != NULL && (wb->batch->vs != NULL ||
	    wb->batch->reading);
}

int
batch_progress(const struct wb *wb, size_t *done, size_t *total,
    size_t *fail)
{
	const struct vsvc_summary *s;

	if (!batch_running(wb))
		return 0;
	if (wb->batch->vs == NULL) {
		*done = 0;
		*total = wb->batch->expect;
		*fail = 0;
		return 1;
	}
	s = vsvc_summary(wb->batch->vs);
	*done = s->finished + s->unchanged + s->busy + s->load_errors +
	    s->start_errors;
	*total = s->total;
	*fail = wb->batch->fail;
	return 1;
}

size_t
batch_stored(const struct wb *wb, size_t *fail)
{
	*fail = wb->batch != NULL ? wb->batch->fail : 0;
	return wb->batch != NULL ? wb->batch->results : 0;
}

static void
cands_free(struct batch_cand *v, size_t *n)
{
	for (size_t i = 0; i < *n; i++) {
		free(v[i].id);
		free(v[i].filter);
	}
	*n = 0;
}

/*
 * A job started: note whether its candidate is in the view now, so that
 * when its run is stored a look at that one row tells whether the view
 * changed (batch_show) rather than counting the view again.
 */
static void
on_started(void *arg, struct verify_job *j, const struct candidate *c,
    const struct task *t)
{
	struct wb *wb = arg;
	struct batch *b = wb->batch;
	struct batch_cand *bc;
	struct err err;

	(void)j;
	(void)t;
	b->started = xreallocarray(b->started, b->nstarted + 1,
	    sizeof *b->started);
	bc = &b->started[b->nstarted++];
	bc->id = xstrdup(c->id);
	bc->filter = wb->filter != NULL ? xstrdup(wb->filter) : NULL;
	if (store_query_match(wb->st, wb->filter, c->id, &bc->matched,
	    &err) < 0)
		bc->matched = -1;
}

/* The job of id ended: its entry moves to fresh when stored, else goes. */
static void
batch_ended(struct batch *b, const char *id, int stored)
{
	for (size_t i = 0; i < b->nstarted; i++) {
		if (strcmp(b->started[i].id, id) != 0)
			continue;
		if (stored) {
			b->fresh = xreallocarray(b->fresh, b->nfresh + 1,
			    sizeof *b->fresh);
			b->fresh[b->nfresh++] = b->started[i];
		} else {
			free(b->started[i].id);
			free(b->started[i].filter);
		}
		b->started[i] = b->started[--b->nstarted];
		return;
	}
}

/*
 * Show the runs stored since the view was last read.  When every one of
 * their candidates matches the view as it did when its job started, the
 * view has the same rows: only the page and the candidate on screen are
 * read again (a view of a million is not counted again every
 * BATCH_REFRESH_MS).  Else the view is read again (wb_view_changed).
 */
static void
batch_show(struct wb *wb)
{
	struct batch *b = wb->batch;
	char **ids = xcalloc(b->nfresh + 1, sizeof *ids);
	int same = 1;
	struct err err;

	for (size_t i = 0; i < b->nfresh && same; i++) {
		const struct batch_cand *f = &b->fresh[i];
		int m;

		ids[i] = f->id;
		same = f->matched >= 0 && (f->filter == NULL ?
		    wb->filter == NULL : wb->filter != NULL &&
		    strcmp(f->filter, wb->filter) == 0) &&
		    store_query_match(wb->st, wb->filter, f->id, &m,
		    &err) == 0 && m == f->matched;
	}
	if (same)
		wb_rows_changed(wb, ids, b->nfresh);
	else
		wb_view_changed(wb);
	free(ids);
	cands_free(b->fresh, &b->nfresh);
}

/* The service's hooks: count what it stored, keep what went wrong. */
static void
on_finished(void *arg, const struct vsvc_result *res)
{
	struct batch *b = ((struct wb *)arg)->batch;

	batch_ended(b, res->run->cand_id, !res->cancelled && res->stored);
	if (res->cancelled)
		return;
	if (!res->stored) {
		snprintf(b->last_err, sizeof b->last_err, "%s: not stored: %s",
		    res->run->cand_id, res->error != NULL ? res->error : "?");
		return;
	}
	b->results++;
	if (verdict_is(res->run->verdict, VERDICT_PASS))
		b->pass++;
	else
		b->fail++;
}

static void
on_problem(void *arg, enum vsvc_problem what, const char *id,
    const char *msg)
{
	struct wb *wb = arg;
	struct batch *b = wb->batch;

	if (what == VSVC_NOTE) {
		/* about the whole batch (a broken toolchain): say it now */
		wb_msg(wb, 1, ":verify: %s", msg);
		return;
	}
	snprintf(b->last_err, sizeof b->last_err, "%s: %s", id != NULL ? id :
	    "?", msg);
}

/* The batch is over: say how it went and read the view again. */
static void
batch_end(struct wb *wb)
{
	struct batch *b = wb->batch;
	const struct vsvc_summary *s = b->vs != NULL ? vsvc_summary(b->vs) :
	    NULL;
	size_t total = s != NULL ? s->total : b->nids, left;
	size_t unchanged = s != NULL ? s->unchanged : 0;
	size_t handled = s != NULL ? s->finished + s->unchanged : 0;
	char dur[32];

	left = total > handled ? total - handled : 0;
	pane_duration(wb_now_ms() - b->t0, dur, sizeof dur);
	if (b->cancelled)
		wb_msg(wb, 0, ":verify cancelled after %zu result%s (stored); "
		    "%zu left unverified", b->results, b->results == 1 ? "" :
		    "s", left);
	else if (b->last_err[0] != '\0' && b->results == 0 && unchanged == 0)
		wb_msg(wb, 1, ":verify: %s", b->last_err);
	else
		wb_msg(wb, b->last_err[0] != '\0', ":verify done in %s: %zu "
		    "verified (%zu pass, %zu not), %zu unchanged%s%s", dur,
		    b->results, b->pass, b->fail, unchanged,
		    b->last_err[0] != '\0' ? "; last problem: " : "",
		    b->last_err);
	vsvc_free(b->vs);
	b->vs = NULL;
	b->reading = 0;
	for (size_t i = 0; i < b->nids; i++)
		free(b->ids[i]);
	free(b->ids);
	b->ids = NULL;
	b->nids = b->cap = 0;
	free(b->filter);
	b->filter = NULL;
	cands_free(b->started, &b->nstarted);
	cands_free(b->fresh, &b->nfresh);
	free(b->started);
	free(b->fresh);
	b->started = b->fresh = NULL;
	wb_view_changed(wb);
}

static void
batch_add_id(struct batch *b, const char *id)
{
	if (b->nids == b->cap) {
		b->cap = b->cap ? b->cap * 2 : 256;
		b->ids = xreallocarray(b->ids, b->cap, sizeof *b->ids);
	}
	b->ids[b->nids++] = xstrdup(id);
}

/* Make the service over the ids read and start it. */
static void
batch_launch(struct wb *wb)
{
	struct batch *b = wb->batch;
	struct vsvc_hooks h = { .started = on_started,
	    .finished = on_finished, .problem = on_problem, .arg = wb };
	struct err err;

	b->reading = 0;
	if (b->nids == 0) {
		snprintf(b->last_err, sizeof b->last_err, "the view is empty");
		batch_end(wb);
		return;
	}
	if (vsvc_new(&b->vs, wb->st, &b->o, &h, b->ids, b->nids, &err) < 0) {
		snprintf(b->last_err, sizeof b->last_err, "%.200s", err.msg);
		batch_end(wb);
		return;
	}
	/* the service keeps its own copy */
	for (size_t i = 0; i < b->nids; i++)
		free(b->ids[i]);
	free(b->ids);
	b->ids = NULL;
	b->nids = b->cap = 0;
	if (vsvc_start(b->vs) == 1)
		batch_end(wb);
}

/* Read the next page of the view's ids; launch when all are read. */
static void
batch_read(struct wb *wb)
{
	struct batch *b = wb->batch;
	struct store_row *rows = NULL;
	struct err err;
	size_t n = 0;

	if (store_query_seek(wb->st, b->filter, b->after, 1, 0, BATCH_PAGE,
	    &rows, &n, &err) < 0) {
		snprintf(b->last_err, sizeof b->last_err, "%.200s", err.msg);
		batch_end(wb);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		batch_add_id(b, rows[i].id);
		b->after = rows[i].seq;
		store_row_release(&rows[i]);
	}
	free(rows);
	if (n < BATCH_PAGE && !b->cancelled)
		batch_launch(wb);
	else if (b->cancelled)
		batch_end(wb);
}

void
batch_pollfds(struct wb *wb, struct wb_pollset *ps)
{
	struct pollfd *fds;
	size_t n;

	if (wb->batch == NULL || wb->batch->vs == NULL)
		return;
	n = vsvc_pollfds(wb->batch->vs, &fds);
	for (size_t i = 0; i < n; i++)
		wb_pollset_add(ps, fds[i].fd, POLLIN);
}

void
batch_io(struct wb *wb)
{
	struct batch *b = wb->batch;

	if (!batch_running(wb))
		return;
	if (b->reading) {
		batch_read(wb);
		wb->dirty = 1;
		return;
	}
	if (vsvc_step(b->vs) == 1) {
		batch_end(wb);
		return;
	}
	wb->dirty = 1;	/* the progress in the status bar */
	if (b->results != b->seen &&
	    wb_now_ms() - b->refreshed >= BATCH_REFRESH_MS) {
		b->seen = b->results;
		b->refreshed = wb_now_ms();
		batch_show(wb);	/* the rows that got a verdict */
	}
}

int
batch_timeout(const struct wb *wb)
{
	const struct batch *b = wb->batch;
	int t;

	if (!batch_running(wb))
		return -1;
	if (b->reading)
		return 0;	/* the next page at once */
	t = vsvc_timeout_ms(b->vs);
	if (b->results != b->seen) {
		/* a result stored but not shown yet: show it in time */
		int64_t due = BATCH_REFRESH_MS - (wb_now_ms() - b->refreshed);

		if (due < t)
			t = due > 0 ? (int)due : 0;
	}
	return t;
}

void
batch_cancel(struct wb *wb)
{
	struct batch *b = wb->batch;
	size_t done = 0, total = 0, fail;

	if (!batch_running(wb))
		return;
	(void)batch_progress(wb, &done, &total, &fail);
	b->cancelled = 1;
	if (b->vs != NULL)
		vsvc_cancel(b->vs);	/* steps on until its jobs end */
	wb_msg(wb, 0, "cancelling :verify after %zu of %zu", done, total);
}

void
batch_stop(struct wb *wb)
{
	if (wb->batch == NULL)
		return;
	if (batch_running(wb)) {
		wb->batch->cancelled = 1;
		batch_end(wb);	/* vsvc_free kills what runs */
	}
	free(wb->batch);
	wb->batch = NULL;
}

/* Default parallelism: the CPUs, at most 8. */
static long
batch_default_jobs(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > 8 ? 8 : n;
}

int
batch_start(struct wb *wb, const char *arg)
{
	struct batch *b;
	char *copy, *tok, *save = NULL;
	long nj = batch_default_jobs();
	int force = 0;
	size_t done, total, fail;

	if (batch_progress(wb, &done, &total, &fail)) {
		wb_msg(wb, 1, ":verify is running (%zu of %zu; x cancels it)",
		    done, total);
		return -1;
	}
	copy = xstrdup(arg != NULL ? arg : "");
	for (tok = strtok_r(copy, " ", &save); tok != NULL;
	    tok = strtok_r(NULL, " ", &save)) {
		char *end;
		long v = strtol(tok, &end, 10);

		if (strcmp(tok, "force") == 0 || strcmp(tok, "--force") == 0) {
			force = 1;
		} else if (*end == '\0' && v >= 1 && v <= BATCH_MAX_JOBS) {
			nj = v;
		} else {
			wb_msg(wb, 1, ":verify [JOBS] [force]: JOBS is 1..%d, "
			    "not '%s'", BATCH_MAX_JOBS, tok);
			free(copy);
			return -1;
		}
	}
	free(copy);
	if (wb->nmarks == 0 && wb->count == 0) {
		wb_msg(wb, 1, ":verify: the view is empty");
		return -1;
	}
	if (wb->batch == NULL)
		wb->batch = xcalloc(1, sizeof *wb->batch);
	b = wb->batch;
	memset(b, 0, sizeof *b);
	/* as `assay verify` runs it: every reference first, claimed, an
	 * unchanged input skipped (force: run again), jobs on pipes */
	b->o.vo = wb->vopts;
	b->o.jobs = (int)nj;
	b->o.force = force;
	b->o.claim = 1;
	b->o.refs = VSVC_REFS_ALL;
	b->o.lock_wait_ms = WB_RUN_WAIT_MS;	/* a held lock: no freeze */
	b->t0 = wb_now_ms();
	b->refreshed = b->t0;
	b->expect = wb->nmarks > 0 ? wb->nmarks : wb->count;
	if (wb->nmarks > 0) {
		for (size_t i = 0; i < wb->nmarks; i++)
			batch_add_id(b, wb->marks[i]);
		batch_launch(wb);
	} else {
		b->filter = xstrdup(wb->filter);
		b->reading = 1;
	}
	if (batch_running(wb))
		wb_msg(wb, 0, ":verify %zu candidate%s, %ld at a time, in the "
		    "background (x cancels)", b->expect, b->expect == 1 ? "" :
		    "s", nj);
	return 0;
}
