/*
 * batch.c - :verify, background verification of many candidates from
 * the workbench, through the verify service (verify/service.h) on a
 * thread of its own (ADR 0039, ADR 0054).
 *
 * The service is the one `assay verify` drives: references first,
 * claims, the input-key skip, a pool of jobs on pipes, each run stored
 * the moment it is judged.  Its thread has a store connection of its
 * own (store_open_again()) and its own poll loop: it reads the view's
 * ids, starts the jobs, judges their output, stores their runs, claims
 * and loads the next candidates, none of which the frame loop waits for.
 * What it did reaches the frame loop as events on a pipe (a job started,
 * a run stored or not, a problem, the end), and its counts as a copy of
 * the service's summary, both under one mutex.  The frame loop counts
 * what was stored, re-reads at most every BATCH_REFRESH_MS the rows that
 * got a verdict (the view again only when one entered or left it: ADR
 * 0053), and the cursor stays where the reviewer put it.  x or C-c
 * cancels: running jobs are stopped, what was stored stays.
 *
 * The live store (wb_live) cannot tell the thread's commits from another
 * process's by its connection's data_version, which both move; the
 * thread, whose own commits leave its data_version as it is, counts the
 * commits of every other connection it sees (batch_foreign()), but for
 * the screen's own: a change in a look's interval in which the screen's
 * connection committed (store_commits()) is taken for the screen's.  A
 * decision key would otherwise make the screen read its view, a held
 * grep= search included, afresh (1.25 s on a million candidates).  The
 * cost: another process's commit in the same interval as one of the
 * screen's shows with the next one it sees, or at C-l.
 */
#define _GNU_SOURCE	/* pipe2 */
#include "ui/wb.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/hash.h"
#include "model/vocab.h"
#include "verify/service.h"

#define BATCH_REFRESH_MS	300	/* re-read the view at most this often */
#define BATCH_MAX_JOBS		64
#define BATCH_PAGE		2048	/* ids of the view read per query */
#define BATCH_LOOK_MS		250	/* the thread's look at data_version */

/* A candidate whose job started: whether it matched the view then, and
 * once its run is stored, whether it matches now. */
struct batch_cand {
	char		*id;
	char		*filter;	/* the view's filter then; NULL: all */
	int		 matched;	/* 1, 0; -1: not known */
	char		*filter_now;	/* the view's filter when stored */
	int		 matches;	/* then: 1, 0; -1: not known */
	int64_t		 seq;		/* its queue seq; 0: not known */
	int64_t		 run;		/* the stored run's id */
};

/* What the thread tells the frame loop, in order. */
enum bev_kind { BEV_STARTED, BEV_REMATCH, BEV_FINISHED, BEV_PROBLEM,
    BEV_NOTE, BEV_DONE };

/* A job of the thread's that runs: its candidate's match, asked again
 * under a new view before its run is stored (thread_rematch). */
struct batch_job {
	char		*id;
	char		*filter;
};

struct bev {
	struct bev	*next;
	enum bev_kind	 kind;
	char		*id;		/* owned; NULL for NOTE, DONE */
	char		*filter;	/* the filter matched; owned */
	int		 matched;	/* STARTED: before; FINISHED: after the
					   run was stored (1, 0, -1) */
	int		 stored, cancelled, pass;	/* FINISHED */
	int64_t		 seq;		/* FINISHED, stored: the candidate's */
	int64_t		 run;		/* FINISHED, stored: the run's id */
	char		*msg;		/* PROBLEM, NOTE; FINISHED: why not
					   stored; owned */
};

/* The state of :verify, owned by wb->batch. */
struct batch {
	/* set before the thread starts, then the thread's */
	struct store	*st;		/* the thread's connection; owned */
	struct vsvc	*vs;		/* the thread's */
	int		 read_view;	/* read the view's ids (else given) */
	char		*filter;	/* the view to read; NULL: all */
	char		**ids;		/* nids; owned until the service */
	size_t		 nids, cap;
	struct vsvc_opts o;

	/* shared: under lock */
	pthread_mutex_t	 lock;
	struct bev	*head, **tail;
	struct vsvc_summary sum;	/* the service's, after its last step */
	int		 have_sum;
	char		*view;		/* the view's filter now (match) */
	atomic_int	 cancel, stop;	/* the frame loop asks */
	atomic_ullong	 foreign;	/* other connections' commits seen */
	const struct store *screen;	/* the screen's connection */
	unsigned long long screen_commits;	/* the thread's: at its look */
	struct batch_job *jobs;		/* the thread's: running, njobs */
	size_t		 njobs;
	int		 evfd[2];	/* thread -> frame loop: events */
	int		 wakefd[2];	/* frame loop -> thread: cancel, stop */
	pthread_t	 th;
	int		 th_live;	/* started, not joined */

	/* the frame loop's */
	size_t		 expect;	/* the view's count when started */
	size_t		 results, pass, fail;	/* runs stored */
	size_t		 dropped;	/* finished, kept for the lock, not
					 * stored when it ended */
	size_t		 seen;		/* results when the view was read */
	struct batch_cand *started;	/* running, nstarted */
	struct batch_cand *fresh;	/* stored since the view was read */
	size_t		 nstarted, nfresh;
	int64_t		 t0, refreshed;	/* ms */
	int		 cancelled;
	unsigned long long foreign_seen;
	char		 last_err[256];
};

/* --- the thread ---------------------------------------------------------- */

static void
bev_post(struct batch *b, struct bev *e)
{
	char c = 1;

	pthread_mutex_lock(&b->lock);
	e->next = NULL;
	*b->tail = e;
	b->tail = &e->next;
	pthread_mutex_unlock(&b->lock);
	/* the pipe is non-blocking: a full pipe already wakes the loop */
	(void)!write(b->evfd[1], &c, 1);
}

static struct bev *
bev_new(enum bev_kind kind, const char *id, const char *msg)
{
	struct bev *e = xcalloc(1, sizeof *e);

	e->kind = kind;
	e->id = xstrdup(id);
	e->msg = xstrdup(msg);
	return e;
}

static void
bev_free(struct bev *e)
{
	free(e->id);
	free(e->filter);
	free(e->msg);
	free(e);
}

static void thread_match(struct batch *b, struct bev *e, const char *id);

/*
 * A job started: whether its candidate is in the view now, asked on the
 * thread's connection before its run can be stored, so that when it is
 * a look at that one row tells whether the view changed (batch_show).
 */
static void
on_started(void *arg, struct verify_job *j, const struct candidate *c,
    const struct task *t)
{
	struct batch *b = arg;
	struct bev *e = bev_new(BEV_STARTED, c->id, NULL);

	(void)j;
	(void)t;
	thread_match(b, e, c->id);
	b->jobs = xreallocarray(b->jobs, b->njobs + 1, sizeof *b->jobs);
	b->jobs[b->njobs].id = xstrdup(c->id);
	b->jobs[b->njobs++].filter = xstrdup(e->filter);
	bev_post(b, e);
}

/* Whether c matches the view the frame loop last gave, into e. */
static void
thread_match(struct batch *b, struct bev *e, const char *id)
{
	struct err err;

	pthread_mutex_lock(&b->lock);
	e->filter = xstrdup(b->view);
	pthread_mutex_unlock(&b->lock);
	if (store_query_match(b->st, e->filter, id, &e->matched, &err) < 0)
		e->matched = -1;
}

/* A run stored, or not: and, stored, whether its candidate matches the
 * view now, asked here so that the frame loop asks nothing (under
 * grep= on a million the match is a full-text search). */
static void
on_finished(void *arg, const struct vsvc_result *res)
{
	struct batch *b = arg;
	struct bev *e = bev_new(BEV_FINISHED, res->run->cand_id,
	    res->stored ? NULL : res->error != NULL ? res->error : "?");

	for (size_t i = 0; i < b->njobs; i++)
		if (strcmp(b->jobs[i].id, res->run->cand_id) == 0) {
			free(b->jobs[i].id);
			free(b->jobs[i].filter);
			b->jobs[i] = b->jobs[--b->njobs];
			break;
		}

	if (res->stored && !res->cancelled) {
		struct store_row *row = NULL;
		struct err err;
		size_t n = 0;
		char *f = xasprintf("id=%s", res->run->cand_id);

		if (store_query_page(b->st, f, 0, 1, &row, &n, &err) == 0 &&
		    n == 1)
			e->seq = row[0].seq;
		/* the thread's own grep= results take the run's text in,
		 * rather than searching again at each match (held until
		 * another connection commits: thread_look) */
		if (e->seq > 0 && store_grep_patch(b->st, &e->seq, 1,
		    &err) < 0)
			store_grep_forget(b->st);
		thread_match(b, e, res->run->cand_id);
		for (size_t i = 0; i < n; i++)
			store_row_release(&row[i]);
		free(row);
		free(f);
	}
	e->stored = res->stored;
	e->run = res->stored ? res->run->id : 0;
	e->cancelled = res->cancelled;
	e->pass = verdict_is(res->run->verdict, VERDICT_PASS);
	bev_post(b, e);
}

static void
on_problem(void *arg, enum vsvc_problem what, const char *id,
    const char *msg)
{
	bev_post(arg, bev_new(what == VSVC_NOTE ? BEV_NOTE : BEV_PROBLEM,
	    what == VSVC_NOTE ? NULL : id != NULL ? id : "?", msg));
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

static void
batch_ids_free(struct batch *b)
{
	for (size_t i = 0; i < b->nids; i++)
		free(b->ids[i]);
	free(b->ids);
	b->ids = NULL;
	b->nids = b->cap = 0;
}

/* The view's ids, a page at a time.  0, or -1 with a NOTE told. */
static int
thread_read(struct batch *b)
{
	int64_t after = 0;
	struct err err;

	for (;;) {
		struct store_row *rows = NULL;
		size_t n = 0;

		if (atomic_load(&b->cancel) || atomic_load(&b->stop))
			return -1;
		if (store_query_seek(b->st, b->filter, after, 1, 0, BATCH_PAGE,
		    &rows, &n, &err) < 0) {
			bev_post(b, bev_new(BEV_PROBLEM, "the view", err.msg));
			return -1;
		}
		for (size_t i = 0; i < n; i++) {
			batch_add_id(b, rows[i].id);
			after = rows[i].seq;
			store_row_release(&rows[i]);
		}
		free(rows);
		if (n < BATCH_PAGE)
			return 0;
	}
}

/*
 * The view changed under running jobs: ask their candidates' matches
 * again under it before their runs are stored (the next vsvc_step), so
 * that a filter changed while they ran does not make the frame loop
 * read the whole view again when they land.
 */
static void
thread_rematch(struct batch *b)
{
	for (size_t i = 0; i < b->njobs; i++) {
		struct batch_job *jb = &b->jobs[i];
		struct bev *e;
		int same;

		pthread_mutex_lock(&b->lock);
		same = jb->filter == NULL ? b->view == NULL :
		    b->view != NULL && strcmp(jb->filter, b->view) == 0;
		pthread_mutex_unlock(&b->lock);
		if (same)
			continue;
		e = bev_new(BEV_REMATCH, jb->id, NULL);
		thread_match(b, e, jb->id);
		free(jb->filter);
		jb->filter = xstrdup(e->filter);
		bev_post(b, e);
	}
}

/* The summary for the frame loop, after each step. */
static void
thread_publish(struct batch *b)
{
	pthread_mutex_lock(&b->lock);
	b->sum = *vsvc_summary(b->vs);
	b->have_sum = 1;
	pthread_mutex_unlock(&b->lock);
}

/* Another connection, not the screen's, committed since the last look:
 * count it. */
static void
thread_look(struct batch *b, int64_t *dv, int *seen)
{
	/* read before the data_version: a commit of the screen's between
	 * the two reads is counted as another's, never the other way */
	unsigned long long mine = store_commits(b->screen);
	int64_t v;

	if (store_data_version(b->st, &v, NULL) < 0)
		return;
	if (*seen && v != *dv && mine == b->screen_commits) {
		atomic_fetch_add(&b->foreign, 1);
		store_grep_forget(b->st);	/* another's text may be new */
	}
	*dv = v;
	*seen = 1;
	b->screen_commits = mine;
}

static void *
batch_thread(void *arg)
{
	struct batch *b = arg;
	struct vsvc_hooks h = { .started = on_started,
	    .finished = on_finished, .problem = on_problem, .arg = b };
	struct pollfd *fds = NULL;
	size_t cap = 0;
	sigset_t all;
	int64_t dv = 0, looked = 0;
	int seen = 0, cancelled = 0, over;
	struct err err;

	/* the screen's signals (SIGWINCH, SIGTERM ...) go to its thread */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	thread_look(b, &dv, &seen);
	if (b->read_view && thread_read(b) < 0)
		goto done;
	if (b->nids == 0) {
		bev_post(b, bev_new(BEV_PROBLEM, "the view", "it is empty"));
		goto done;
	}
	if (vsvc_new(&b->vs, b->st, &b->o, &h, b->ids, b->nids, &err) < 0) {
		bev_post(b, bev_new(BEV_PROBLEM, "the batch", err.msg));
		goto done;
	}
	batch_ids_free(b);	/* the service keeps its own copy */
	over = vsvc_start(b->vs);
	thread_publish(b);
	while (!over && !atomic_load(&b->stop)) {
		struct pollfd *jfds;
		size_t n = vsvc_pollfds(b->vs, &jfds);
		int t = vsvc_timeout_ms(b->vs);
		char drain[64];

		if (atomic_load(&b->cancel) && !cancelled) {
			vsvc_cancel(b->vs);	/* steps on until its jobs end */
			cancelled = 1;
		}
		if (n + 1 > cap) {
			cap = n + 1;
			fds = xreallocarray(fds, cap, sizeof *fds);
		}
		memcpy(fds, jfds, n * sizeof *fds);
		fds[n].fd = b->wakefd[0];
		fds[n].events = POLLIN;
		if (t < 0 || t > BATCH_LOOK_MS)
			t = BATCH_LOOK_MS;
		if (poll(fds, n + 1, t) < 0 && errno != EINTR)
			break;
		while (read(b->wakefd[0], drain, sizeof drain) > 0)
			;
		if (atomic_load(&b->stop))
			break;
		thread_rematch(b);
		over = vsvc_step(b->vs);
		thread_publish(b);
		if (wb_now_ms() - looked >= BATCH_LOOK_MS) {
			thread_look(b, &dv, &seen);
			looked = wb_now_ms();
		}
	}
done:
	for (size_t i = 0; i < b->njobs; i++) {
		free(b->jobs[i].id);
		free(b->jobs[i].filter);
	}
	free(b->jobs);
	b->jobs = NULL;
	b->njobs = 0;
	free(fds);
	/* runs the lock kept from the store, dropped now: said on exit */
	b->dropped = b->vs != NULL ? vsvc_summary(b->vs)->waiting : 0;
	vsvc_free(b->vs);	/* kills what still runs (stop), frees claims */
	b->vs = NULL;
	batch_ids_free(b);
	/* b->st stays open until the join: the status bar asks it how long
	 * it waits for the lock while the thread may be ending */
	hash_thread_end();	/* the thread's digest context */
	bev_post(b, bev_new(BEV_DONE, NULL, NULL));
	return NULL;
}

/* --- the frame loop's side ------------------------------------------------ */

int
batch_running(const struct wb *wb)
{
	return wb->batch != NULL && wb->batch->th_live;
}

int
batch_progress(const struct wb *wb, size_t *done, size_t *total,
    size_t *fail)
{
	struct batch *b = wb->batch;

	if (!batch_running(wb))
		return 0;
	/* all three from one summary: the fails counted from the events
	 * ran ahead of the summary's done ("44/347 (45 fail)") */
	pthread_mutex_lock(&b->lock);
	if (!b->have_sum) {
		*done = 0;
		*total = b->expect;
		*fail = 0;
	} else {
		const struct vsvc_summary *s = &b->sum;

		*done = s->finished + s->unchanged + s->busy +
		    s->load_errors + s->start_errors;
		*total = s->total > b->expect ? s->total : b->expect;
		*fail = s->not_pass;
	}
	pthread_mutex_unlock(&b->lock);
	return 1;
}

void
batch_counts(const struct wb *wb, size_t *busy, size_t *refs_added)
{
	struct batch *b = wb->batch;

	*busy = *refs_added = 0;
	if (!batch_running(wb))
		return;
	pthread_mutex_lock(&b->lock);
	if (b->have_sum) {
		*busy = b->sum.busy;
		*refs_added = b->sum.total > b->expect ? b->sum.total -
		    b->expect : 0;
	}
	pthread_mutex_unlock(&b->lock);
}

long
batch_lock_ms(const struct wb *wb)
{
	return batch_running(wb) ? store_lock_waiting_ms(wb->batch->st) : 0;
}

size_t
batch_stored(const struct wb *wb, size_t *fail)
{
	*fail = wb->batch != NULL ? wb->batch->fail : 0;
	return wb->batch != NULL ? wb->batch->results : 0;
}

int
batch_foreign(struct wb *wb)
{
	struct batch *b = wb->batch;
	unsigned long long f;

	if (!batch_running(wb))
		return -1;
	f = atomic_load(&b->foreign);
	if (f == b->foreign_seen)
		return 0;
	b->foreign_seen = f;
	return 1;
}

static void
cand_release(struct batch_cand *c)
{
	free(c->id);
	free(c->filter);
	free(c->filter_now);
}

static void
cands_free(struct batch_cand *v, size_t *n)
{
	for (size_t i = 0; i < *n; i++)
		cand_release(&v[i]);
	*n = 0;
}

/* The job of e's candidate ended: its entry moves to fresh, with the
 * match after its run, when stored; else it goes. */
static void
batch_ended(struct batch *b, struct bev *e, int stored)
{
	for (size_t i = 0; i < b->nstarted; i++) {
		struct batch_cand *c = &b->started[i];

		if (strcmp(c->id, e->id) != 0)
			continue;
		if (stored) {
			c->filter_now = e->filter;
			c->matches = e->matched;
			c->seq = e->seq;
			c->run = e->run;
			e->filter = NULL;
			b->fresh = xreallocarray(b->fresh, b->nfresh + 1,
			    sizeof *b->fresh);
			b->fresh[b->nfresh++] = *c;
		} else {
			cand_release(c);
		}
		*c = b->started[--b->nstarted];
		return;
	}
}

static int
same_filter(const char *a, const char *b)
{
	return a == NULL ? b == NULL : b != NULL && strcmp(a, b) == 0;
}

/*
 * Show the runs stored since the view was last read, without counting
 * the view again (a view of a million is not counted every
 * BATCH_REFRESH_MS): the grep= results this screen keeps are brought up
 * to date for their candidates alone (store_grep_patch); when every one
 * matches the view as it did when its job started, only their rows are
 * read again; when some came into it or left it, the count and the page
 * shift by them (wb_rows_moved).  Both matches were asked on the thread
 * under this view's filter.  Else (the filter changed since, a match not
 * known, the candidate on screen moved) the view is read again.
 */
static void
batch_show(struct wb *wb)
{
	struct batch *b = wb->batch;
	char **ids = xcalloc(b->nfresh + 1, sizeof *ids);
	int64_t *seqs = xcalloc(b->nfresh + 1, sizeof *seqs);
	int *delta = xcalloc(b->nfresh + 1, sizeof *delta);
	int same = 1, movable = 1;
	struct err err;

	for (size_t i = 0; i < b->nfresh; i++) {
		const struct batch_cand *f = &b->fresh[i];
		int known = f->matched >= 0 && f->matches >= 0 &&
		    f->seq > 0 && same_filter(f->filter, wb->filter) &&
		    same_filter(f->filter_now, wb->filter);

		ids[i] = f->id;
		seqs[i] = f->seq;
		delta[i] = known ? f->matches - f->matched : 0;
		/* a view read afresh since holds this run already */
		if (f->run > 0 && f->run <= wb->run_mark)
			delta[i] = 0;
		same = same && known && delta[i] == 0;
		movable = movable && known && (delta[i] == 0 ||
		    wb->cur.id == NULL || strcmp(wb->cur.id, f->id) != 0);
	}
	if (store_grep_patch(wb->st, seqs, b->nfresh, &err) < 0) {
		store_grep_forget(wb->st);
		same = movable = 0;
	}
	if (same) {
		wb_rows_changed(wb, ids, b->nfresh);
	} else if (movable) {
		wb_rows_moved(wb, seqs, delta, b->nfresh);
		wb_rows_changed(wb, ids, b->nfresh);
	} else {
		wb_view_changed(wb);
	}
	free(ids);
	free(seqs);
	free(delta);
	cands_free(b->fresh, &b->nfresh);
}

/* One event of the thread.  1 when it was the end. */
static int
batch_event(struct wb *wb, struct bev *e)
{
	struct batch *b = wb->batch;
	struct batch_cand *bc;

	switch (e->kind) {
	case BEV_STARTED:
		b->started = xreallocarray(b->started, b->nstarted + 1,
		    sizeof *b->started);
		bc = &b->started[b->nstarted++];
		memset(bc, 0, sizeof *bc);
		bc->matches = -1;
		bc->id = e->id;
		bc->filter = e->filter;
		bc->matched = e->matched;
		e->id = e->filter = NULL;
		break;
	case BEV_REMATCH:
		for (size_t i = 0; i < b->nstarted; i++)
			if (strcmp(b->started[i].id, e->id) == 0) {
				free(b->started[i].filter);
				b->started[i].filter = e->filter;
				b->started[i].matched = e->matched;
				e->filter = NULL;
				break;
			}
		break;
	case BEV_FINISHED:
		batch_ended(b, e, !e->cancelled && e->stored);
		if (e->cancelled)
			break;
		if (!e->stored) {
			snprintf(b->last_err, sizeof b->last_err, "%s: not "
			    "stored: %s", e->id, e->msg);
			break;
		}
		b->results++;
		if (e->pass)
			b->pass++;
		else
			b->fail++;
		break;
	case BEV_PROBLEM:
		snprintf(b->last_err, sizeof b->last_err, "%s: %s", e->id,
		    e->msg);
		break;
	case BEV_NOTE:
		/* about the whole batch (a broken toolchain): say it now */
		wb_msg(wb, 1, ":verify: %s", e->msg);
		break;
	case BEV_DONE:
		return 1;
	}
	return 0;
}

/* The events so far, in order; 1 when the thread ended. */
static int
batch_events(struct wb *wb)
{
	struct batch *b = wb->batch;
	struct bev *e, *next;
	char drain[256];
	int over = 0;

	while (read(b->evfd[0], drain, sizeof drain) > 0)
		;
	pthread_mutex_lock(&b->lock);
	e = b->head;
	b->head = NULL;
	b->tail = &b->head;
	pthread_mutex_unlock(&b->lock);
	for (; e != NULL; e = next) {
		next = e->next;
		over |= batch_event(wb, e);
		bev_free(e);
	}
	return over;
}

static void
batch_wake(struct batch *b)
{
	char c = 1;

	(void)!write(b->wakefd[1], &c, 1);
}

/* The thread ended (or is told to): join it and free what it shared. */
static void
batch_join(struct batch *b)
{
	struct bev *e, *next;

	if (!b->th_live)
		return;
	pthread_join(b->th, NULL);
	b->th_live = 0;
	store_close(b->st);	/* the thread's connection, done with */
	b->st = NULL;
	for (e = b->head; e != NULL; e = next) {
		next = e->next;
		bev_free(e);
	}
	b->head = NULL;
	b->tail = &b->head;
	for (int i = 0; i < 2; i++) {
		close(b->evfd[i]);
		close(b->wakefd[i]);
	}
	free(b->filter);
	b->filter = NULL;
	free(b->view);
	b->view = NULL;
	pthread_mutex_destroy(&b->lock);
}

/* The batch is over: say how it went and read the view again. */
static void
batch_end(struct wb *wb)
{
	struct batch *b = wb->batch;
	size_t total, left, unchanged, handled, busy;
	char dur[32], refs[64] = "";

	batch_join(b);
	/* the view's count until the service has looked at every
	 * candidate (a large batch looks a page a step: its total was 0,
	 * and a cancel at once said "0 left unverified") */
	total = b->have_sum && b->sum.total > b->expect ? b->sum.total :
	    b->expect;
	unchanged = b->have_sum ? b->sum.unchanged : 0;
	busy = b->have_sum ? b->sum.busy : 0;
	/* what has a run now: the runs stored, the unchanged, and those
	 * another verify claimed; a job cancelled half way stored nothing
	 * (counting it as handled said 270 left where 271 were) */
	handled = b->results + unchanged + busy;
	left = total > handled ? total - handled : 0;
	/* the tasks' references the batch ran first, not in the view:
	 * counted with it (7 in the view, "9 verified") */
	if (total > b->expect)
		snprintf(refs, sizeof refs, ", %zu of them the tasks' "
		    "reference%s", total - b->expect, total - b->expect == 1 ?
		    "" : "s");
	pane_duration(wb_now_ms() - b->t0, dur, sizeof dur);
	if (b->cancelled)
		/* forced, those left keep the runs they had */
		wb_msg(wb, 0, ":verify cancelled after %zu result%s (stored); "
		    "%zu %s%s", b->results, b->results == 1 ? "" : "s", left,
		    b->o.force ? "not verified again (their runs stand)" :
		    "left unverified", busy > 0 ? ", some of them by another"
		    " verify" : "");
	else if (b->last_err[0] != '\0' && b->results == 0 && unchanged == 0)
		wb_msg(wb, 1, ":verify: %s", b->last_err);
	else
		wb_msg(wb, b->last_err[0] != '\0', ":verify done in %s: %zu "
		    "verified (%zu pass, %zu not), %zu unchanged%s%s%s", dur,
		    b->results, b->pass, b->fail, unchanged, refs, b->last_err[0]
		    != '\0' ? "; last problem: " : "", b->last_err);
	cands_free(b->started, &b->nstarted);
	cands_free(b->fresh, &b->nfresh);
	free(b->started);
	free(b->fresh);
	b->started = b->fresh = NULL;
	store_grep_forget(wb->st);	/* the hold of batch_show ends */
	wb_view_changed(wb);
}

void
batch_pollfds(struct wb *wb, struct wb_pollset *ps)
{
	if (batch_running(wb))
		wb_pollset_add(ps, wb->batch->evfd[0], POLLIN);
}

void
batch_io(struct wb *wb)
{
	struct batch *b = wb->batch;

	if (!batch_running(wb))
		return;
	/* the view the thread matches new runs against */
	if (!same_filter(b->view, wb->filter)) {
		pthread_mutex_lock(&b->lock);
		free(b->view);
		b->view = xstrdup(wb->filter);
		pthread_mutex_unlock(&b->lock);
	}
	if (batch_events(wb)) {
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
	int64_t due;

	if (!batch_running(wb) || b->results == b->seen)
		return -1;	/* the thread's events wake the loop */
	/* a result stored but not shown yet: show it in time */
	due = BATCH_REFRESH_MS - (wb_now_ms() - b->refreshed);
	return due > 0 ? (int)due : 0;
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
	atomic_store(&b->cancel, 1);
	batch_wake(b);
	wb_msg(wb, 0, "cancelling :verify after %zu of %zu", done, total);
}

size_t
batch_stop(struct wb *wb)
{
	struct batch *b = wb->batch;
	size_t dropped = 0;

	if (b == NULL)
		return 0;
	if (batch_running(wb)) {
		b->cancelled = 1;
		atomic_store(&b->stop, 1);	/* vsvc_free kills what runs */
		batch_wake(b);
		batch_end(wb);
		dropped = b->dropped;
	}
	free(b);
	wb->batch = NULL;
	return dropped;
}

/* Make the pipes and start the thread over what b holds.  0 or -1. */
static int
batch_launch(struct wb *wb)
{
	struct batch *b = wb->batch;
	struct err err;

	if (store_open_again(wb->st, &b->st, &err) < 0) {
		wb_msg(wb, 1, ":verify: %s", err.msg);
		return -1;
	}
	store_lock_timeout(b->st, WB_LOCK_MS);
	b->screen = wb->st;
	if (pipe2(b->evfd, O_CLOEXEC | O_NONBLOCK) < 0) {
		wb_msg(wb, 1, ":verify: pipe: %s", strerror(errno));
		store_close(b->st);
		return -1;
	}
	if (pipe2(b->wakefd, O_CLOEXEC | O_NONBLOCK) < 0) {
		wb_msg(wb, 1, ":verify: pipe: %s", strerror(errno));
		close(b->evfd[0]);
		close(b->evfd[1]);
		store_close(b->st);
		return -1;
	}
	pthread_mutex_init(&b->lock, NULL);
	b->tail = &b->head;
	/* a commit between the screen's last look and the thread's first
	 * is seen by neither: count one, so the view is read once more */
	atomic_store(&b->foreign, 1);
	b->view = xstrdup(wb->filter);
	if (pthread_create(&b->th, NULL, batch_thread, b) != 0) {
		wb_msg(wb, 1, ":verify: cannot start its thread");
		store_close(b->st);
		for (int i = 0; i < 2; i++) {
			close(b->evfd[i]);
			close(b->wakefd[i]);
		}
		pthread_mutex_destroy(&b->lock);
		free(b->view);
		b->view = NULL;
		return -1;
	}
	b->th_live = 1;
	return 0;
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
	free(wb->batch);	/* the last one's counts (batch_stored) */
	wb->batch = b = xcalloc(1, sizeof *b);
	wb->job_last = WB_JOB_BATCH;
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
	} else {
		b->read_view = 1;
		b->filter = xstrdup(wb->filter);
	}
	if (batch_launch(wb) < 0) {
		batch_ids_free(b);
		free(b->filter);
		b->filter = NULL;
		return -1;
	}
	wb_msg(wb, 0, ":verify %zu candidate%s, %ld at a time, in the "
	    "background (x cancels)", b->expect, b->expect == 1 ? "" : "s",
	    nj);
	return 0;
}
