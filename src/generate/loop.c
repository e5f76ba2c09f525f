/*
 * loop.c - the model in the loop as a service (loop.h): rounds of ask
 * (on a thread of its own, heard through a pipe), store, verify (a
 * verify service driven by the same poll loop) and feed back.  Called by
 * the generate and repair commands and the workbench's model runs.
 */
#define _GNU_SOURCE
#include "generate/loop.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/textsafe.h"
#include "generate/optimize.h"
#include "model/vocab.h"

/*
 * A batch being asked on its thread.  The thread owns it until it ends:
 * then it hands it back through the pipe (SIZE_MAX), or, when the
 * service was freed meanwhile (abandoned), frees it itself.
 */
struct asking {
	struct model_cfg	 cfg;		/* a copy: outlives the caller */
	int			 jobs;
	struct gen_batch	*batch;
	int			 wfd;		/* the pipe's write end */
	pthread_mutex_t		 lock;
	struct model_stop	 stop;		/* cfg.stop: gloop_cancel() and
						 * gloop_free() set it */
	int			 abandoned;	/* the service let go of it */
	int			 finished;	/* the thread handed it back */
	/* the latest wait to retry (under lock; RETRY_MARK tells) */
	char			 why[256];
	long			 wait_ms;
	int			 next_try;
};

/* What the asking thread writes to the pipe: a count of answers, or
 * these. */
#define ASK_END		SIZE_MAX
#define RETRY_MARK	(SIZE_MAX - 1)

enum gloop_state { G_IDLE, G_ASK, G_VERIFY, G_DONE };

struct gloop {
	struct gen_ctx		 g;
	struct gloop_opts	 o;
	struct gloop_hooks	 h;
	char			**ids;		/* this round's; owned */
	size_t			 n;
	enum gloop_state	 state;
	int			 round, stopped;
	struct asking		*ask;		/* G_ASK */
	pthread_t		 thread;
	int			 threaded;	/* thread runs the batch */
	int			 rfd;		/* the pipe's read end */
	struct pollfd		 pfd;
	struct vsvc		*vs;		/* G_VERIFY */
	struct gen_report	 rep;		/* this round's */
	struct gen_report	 total;		/* the sums */
	size_t			 verify_errors;
	char			*error;		/* a store failure; owned */
};

static void
asking_free(struct asking *a)
{
	model_cfg_release(&a->cfg);
	gen_batch_free(a->batch);
	if (a->wfd >= 0)
		close(a->wfd);
	model_stop_destroy(&a->stop);
	pthread_mutex_destroy(&a->lock);
	free(a);
}

/* On the asking thread: one answer more; the count goes to the pipe
 * (a write of 8 bytes is atomic). */
static void
asking_progress(size_t done, size_t n, void *arg)
{
	struct asking *a = arg;

	(void)n;
	(void)!write(a->wfd, &done, sizeof done);
}

/* On the asking thread: a request waits to try again; the loop hears
 * of it through the pipe. */
static void
asking_waiting(void *arg, const char *why, long wait_ms, int next_try)
{
	struct asking *a = arg;
	size_t mark = RETRY_MARK;

	pthread_mutex_lock(&a->lock);
	snprintf(a->why, sizeof a->why, "%s", why);
	a->wait_ms = wait_ms;
	a->next_try = next_try;
	pthread_mutex_unlock(&a->lock);
	(void)!write(a->wfd, &mark, sizeof mark);
}

static void *
asking_run(void *arg)
{
	struct asking *a = arg;
	size_t end = ASK_END;
	int abandoned;

	(void)gen_batch_ask(&a->cfg, a->jobs, a->batch, asking_progress, a);
	pthread_mutex_lock(&a->lock);
	abandoned = a->abandoned;
	if (!abandoned) {
		a->finished = 1;
		(void)!write(a->wfd, &end, sizeof end);
	}
	pthread_mutex_unlock(&a->lock);
	if (abandoned)
		asking_free(a);
	return NULL;
}

static void
set_ids(struct gloop *l, char *const *ids, size_t n)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->ids[i]);
	free(l->ids);
	l->ids = xcalloc(n + 1, sizeof *l->ids);
	for (size_t i = 0; i < n; i++)
		l->ids[i] = xstrdup(ids[i]);
	l->n = n;
}

static void
fail_with(struct gloop *l, const char *msg)
{
	free(l->error);
	l->error = xstrdup(msg);
	l->state = G_DONE;
}

/* Start round l->round + 1 over l->ids: build the batch, start asking. */
static void
round_start(struct gloop *l)
{
	struct gen_batch *b = NULL;
	struct err err;
	sigset_t block, old;
	int fds[2];
	int rc;

	l->round++;
	gen_report_release(&l->rep);
	rc = l->o.kind == GLOOP_REPAIR ? gen_batch_repair(&l->g, l->ids, l->n,
	    &b, &err) : l->o.kind == GLOOP_OPTIMIZE ? gen_batch_optimize(&l->g,
	    l->ids, l->n, &b, &err) : gen_batch_direct(&l->g, l->ids, l->n,
	    l->o.samples, &b, &err);
	if (rc < 0) {
		fail_with(l, err.msg);
		return;
	}
	for (size_t i = 0; l->h.asking != NULL && i < gen_batch_size(b);
	    i++) {
		const char *parent, *feedback;
		int r;

		gen_batch_request(b, i, &parent, &r, &feedback);
		if (parent != NULL)
			l->h.asking(l->h.arg, parent, r, feedback);
	}
	if (pipe2(fds, O_CLOEXEC) < 0) {
		gen_batch_free(b);
		snprintf(err.msg, sizeof err.msg, "pipe: %s", strerror(errno));
		fail_with(l, err.msg);
		return;
	}
	l->ask = xcalloc(1, sizeof *l->ask);
	model_cfg_copy(&l->ask->cfg, l->g.cfg);
	l->ask->cfg.waiting = asking_waiting;
	l->ask->cfg.waiting_arg = l->ask;
	l->ask->jobs = l->o.jobs < 1 ? 1 : l->o.jobs;
	l->ask->batch = b;
	l->ask->wfd = fds[1];
	pthread_mutex_init(&l->ask->lock, NULL);
	model_stop_init(&l->ask->stop);
	l->ask->cfg.stop = &l->ask->stop;
	if (l->stopped)		/* cancelled between rounds */
		model_stop_set(&l->ask->stop);
	l->rfd = fds[0];
	/* The signals a front end handles (SIGINT and SIGTERM stop the
	 * commands, SIGWINCH resizes the workbench) go to its thread, whose
	 * poll they end, never to the asking thread or its workers. */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigaddset(&block, SIGWINCH);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	l->threaded = pthread_create(&l->thread, NULL, asking_run,
	    l->ask) == 0;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!l->threaded)	/* no thread: ask here, the caller waits */
		asking_run(l->ask);
	l->state = G_ASK;
}

/* The latest verdict of id is a failure of its own (to repair). */
static int
fails(struct store *st, const char *id, int *pass)
{
	struct run r;
	int failed;

	*pass = 0;
	if (store_run_latest(st, id, &r, NULL) != 0)
		return 0;
	*pass = verdict_is(r.verdict, VERDICT_PASS);
	failed = verdict_failed(r.verdict);
	run_release(&r);
	return failed;
}

/* The round is over: tell, then the next round (repair) or the end. */
static void
round_end(struct gloop *l)
{
	const struct vsvc_summary *vs = l->vs != NULL ? vsvc_summary(l->vs) :
	    NULL;
	char **next = xcalloc(l->rep.nids + 1, sizeof *next);
	size_t nnext = 0, passed = 0;

	for (size_t i = 0; i < l->rep.nids; i++) {
		int pass;

		/* what failed again goes on; a repeated code ends its
		 * chain */
		if (fails(l->g.st, l->rep.ids[i], &pass) && l->rep.is_new[i])
			next[nnext++] = l->rep.ids[i];
		passed += pass;
	}
	if (vs != NULL)
		l->verify_errors += vs->load_errors + vs->start_errors;
	/* An optimisation counts by its measured gain: stored with it. */
	for (size_t i = 0; l->o.kind == GLOOP_OPTIMIZE && l->o.verify &&
	    i < l->rep.nids; i++) {
		struct err err;
		json_t *gain;

		if (opt_record(l->g.st, l->rep.ids[i], l->o.min_gain > 0 ?
		    l->o.min_gain : OPT_MIN_GAIN_DEFAULT, l->o.min_gain_from !=
		    NULL ? l->o.min_gain_from : "default", l->g.by, &gain,
		    &err) < 0) {
			free(next);
			vsvc_free(l->vs);
			l->vs = NULL;
			fail_with(l, err.msg);
			return;
		}
		if (l->h.measured != NULL)
			l->h.measured(l->h.arg, l->rep.ids[i], gain);
		json_decref(gain);
	}
	if (l->h.verified != NULL && l->o.verify)
		l->h.verified(l->h.arg, l->round, &l->rep, passed, vs);
	vsvc_free(l->vs);
	l->vs = NULL;
	if (l->o.kind == GLOOP_REPAIR && l->o.verify && !l->stopped &&
	    l->round < l->o.rounds && nnext > 0) {
		set_ids(l, next, nnext);
		free(next);
		round_start(l);
		return;
	}
	free(next);
	l->state = G_DONE;
}

/* The answers are in: store them, then verify them. */
static void
answers_in(struct gloop *l)
{
	struct asking *a = l->ask;
	struct vsvc_hooks vh = l->h.verify;
	struct err err;
	int rc;

	if (l->threaded)
		pthread_join(l->thread, NULL);
	close(l->rfd);
	l->rfd = -1;
	l->ask = NULL;
	rc = gen_batch_store(&l->g, a->batch, &l->rep, &err);
	asking_free(a);
	l->total.asked += l->rep.asked;
	l->total.added += l->rep.added;
	l->total.duplicates += l->rep.duplicates;
	l->total.failed += l->rep.failed;
	l->total.prompt_tokens += l->rep.prompt_tokens;
	l->total.completion_tokens += l->rep.completion_tokens;
	l->total.cached_tokens += l->rep.cached_tokens;
	l->total.reasoning_tokens += l->rep.reasoning_tokens;
	l->total.cost_usd += l->rep.cost_usd;
	l->total.priced += l->rep.priced;
	l->total.requests += l->rep.requests;
	l->total.responses += l->rep.responses;
	l->total.cancelled += l->rep.cancelled;
	l->total.refusals += l->rep.refusals;
	l->total.retried += l->rep.retried;
	l->total.retries += l->rep.retries;
	l->total.latency_ms += l->rep.latency_ms;
	if (l->total.first_error[0] == '\0')
		memcpy(l->total.first_error, l->rep.first_error,
		    sizeof l->total.first_error);
	if (l->h.stored != NULL)
		l->h.stored(l->h.arg, l->round, &l->rep);
	if (rc < 0) {
		fail_with(l, err.msg);
		return;
	}
	if (!l->o.verify || l->stopped || l->rep.nids == 0) {
		round_end(l);
		return;
	}
	vh.arg = l->h.arg;
	if (vsvc_new(&l->vs, l->g.st, &l->o.vo, &vh, l->rep.ids,
	    l->rep.nids, &err) < 0) {
		fail_with(l, err.msg);
		return;
	}
	l->state = G_VERIFY;
	if (vsvc_start(l->vs) == 1)
		round_end(l);
}

int
gloop_new(struct gloop **out, const struct gen_ctx *g,
    const struct gloop_opts *o, const struct gloop_hooks *h,
    char *const *ids, size_t n, struct err *err)
{
	struct gloop *l;

	(void)err;	/* nothing fails here since the repair rule is a
			 * floor below, not a callback to check */
	*out = NULL;
	l = xcalloc(1, sizeof *l);
	l->g = *g;
	l->o = *o;
	if (l->o.samples < 1)
		l->o.samples = 1;
	if (l->o.rounds < 1)
		l->o.rounds = 1;
	if (h != NULL)
		l->h = *h;
	l->rfd = -1;
	set_ids(l, ids, n);
	*out = l;
	return 0;
}

int
gloop_start(struct gloop *l)
{
	if (l->n == 0) {
		l->state = G_DONE;
		return 1;
	}
	round_start(l);
	return l->state == G_DONE;
}

size_t
gloop_pollfds(struct gloop *l, struct pollfd **fds)
{
	if (l->state == G_VERIFY && l->vs != NULL)
		return vsvc_pollfds(l->vs, fds);
	if (l->state == G_ASK) {
		l->pfd.fd = l->rfd;
		l->pfd.events = POLLIN;
		l->pfd.revents = 0;
		*fds = &l->pfd;
		return 1;
	}
	*fds = NULL;
	return 0;
}

int
gloop_timeout_ms(const struct gloop *l)
{
	if (l->state == G_VERIFY && l->vs != NULL)
		return vsvc_timeout_ms(l->vs);
	return l->state == G_DONE ? 0 : 1000;
}

/* A request of the asking thread waits to try again: counted, and told. */
static void
retry_heard(struct gloop *l)
{
	char why[256];
	long wait_ms;
	int next_try;

	pthread_mutex_lock(&l->ask->lock);
	memcpy(why, l->ask->why, sizeof why);
	wait_ms = l->ask->wait_ms;
	next_try = l->ask->next_try;
	pthread_mutex_unlock(&l->ask->lock);
	l->rep.retries++;
	if (l->h.waiting != NULL)
		l->h.waiting(l->h.arg, why, wait_ms, next_try);
}

/* Read what the asking thread said; 1 when its batch is done. */
static int
ask_heard(struct gloop *l)
{
	size_t v[64];
	ssize_t got;
	int end = 0;

	/* the fd blocks: read only what poll said is there */
	struct pollfd p = { l->rfd, POLLIN, 0 };

	while (!end && poll(&p, 1, 0) == 1 && (p.revents & (POLLIN |
	    POLLHUP))) {
		got = read(l->rfd, v, sizeof v);
		if (got <= 0)
			break;
		for (size_t i = 0; i < (size_t)got / sizeof v[0]; i++) {
			if (v[i] == ASK_END)
				end = 1;
			else if (v[i] == RETRY_MARK)
				retry_heard(l);
			else if (l->h.answered != NULL)
				l->h.answered(l->h.arg, v[i],
				    gen_batch_size(l->ask->batch));
		}
	}
	return end;
}

int
gloop_step(struct gloop *l)
{
	switch (l->state) {
	case G_ASK:
		if (ask_heard(l))
			answers_in(l);
		break;
	case G_VERIFY:
		if (vsvc_step(l->vs) == 1)
			round_end(l);
		break;
	default:
		break;
	}
	return l->state == G_DONE;
}

void
gloop_cancel(struct gloop *l)
{
	l->stopped = 1;
	/* the waits to retry end now, and no try is sent after this */
	if (l->ask != NULL)
		model_stop_set(&l->ask->stop);
	if (l->vs != NULL)
		vsvc_cancel(l->vs);
}

int
gloop_round(const struct gloop *l)
{
	return l->round;
}

const struct gen_report *
gloop_total(const struct gloop *l)
{
	return &l->total;
}

const char *
gloop_error(const struct gloop *l)
{
	return l->error;
}

size_t
gloop_verify_errors(const struct gloop *l)
{
	return l->verify_errors;
}

void
gloop_free(struct gloop *l)
{
	if (l == NULL)
		return;
	if (l->ask != NULL) {
		int finished;

		/* the thread ends when its requests do, and frees what it
		 * holds; one that handed it back already is joined */
		/* a thread left to itself sends nothing more and ends as
		 * soon as the tries it has sent do */
		model_stop_set(&l->ask->stop);
		pthread_mutex_lock(&l->ask->lock);
		finished = l->ask->finished;
		l->ask->abandoned = !finished;
		pthread_mutex_unlock(&l->ask->lock);
		if (finished || !l->threaded) {
			if (l->threaded)
				pthread_join(l->thread, NULL);
			asking_free(l->ask);
		} else {
			pthread_detach(l->thread);
		}
	}
	if (l->rfd >= 0)
		close(l->rfd);
	vsvc_free(l->vs);
	for (size_t i = 0; i < l->n; i++)
		free(l->ids[i]);
	free(l->ids);
	gen_report_release(&l->rep);
	gen_report_release(&l->total);
	free(l->error);
	free(l);
}

/* --- what to repair ------------------------------------------------------ */

/* The candidates a query gives, in its order (store_query_each). */
struct ids {
	char	**v;
	size_t	  n;
};

static int
ids_add(const struct store_row *row, void *arg)
{
	struct ids *s = arg;

	s->v = xreallocarray(s->v, s->n + 1, sizeof *s->v);
	s->v[s->n++] = xstrdup(row->id);
	return 0;
}

/* The feedback level candidate id's request carried: its generation
 * record's "feedback", "rich" when the record has none (made before
 * the levels, when every request carried all it had). */
static int
level_is(struct store *st, const char *id, const char *level)
{
	struct candidate c;
	json_t *x;
	const char *v;
	int yes;

	if (store_candidate_get(st, id, &c, NULL) != 0)
		return 0;
	x = c.extra != NULL ? json_loads(c.extra, 0, NULL) : NULL;
	v = json_string_value(json_object_get(json_object_get(x,
	    "generation"), "feedback"));
	yes = strcmp(v != NULL ? v : "rich", level) == 0;
	json_decref(x);
	candidate_release(&c);
	return yes;
}

/* The newest repair of at by origin (and of that feedback level when
 * level is not NULL), new string or NULL; -1 when the store fails. */
static int
newest_repair(struct store *st, const char *at, const char *qo,
    const char *level, char **out, struct err *err)
{
	char *f = xasprintf("parent=%s kind=repair origin=%s", at, qo);
	struct ids s = { 0 };
	int rc = store_query_each(st, f, ids_add, &s, err);

	*out = NULL;
	for (size_t i = s.n; rc >= 0 && i-- > 0 && *out == NULL; )
		if (level == NULL || level_is(st, s.v[i], level))
			*out = xstrdup(s.v[i]);
	for (size_t i = 0; i < s.n; i++)
		free(s.v[i]);
	free(s.v);
	free(f);
	return rc < 0 ? -1 : 0;
}

int
gen_repair_leaf(struct store *st, const char *origin,
    const struct store_row *row, char **leaf, struct err *err)
{
	return gen_repair_leaf_level(st, origin, NULL, row, leaf, err);
}

int
gen_repair_leaf_level(struct store *st, const char *origin,
    const char *level, const struct store_row *row, char **leaf,
    struct err *err)
{
	char *ref = NULL, *rv = NULL, *at, *child = NULL;
	char *qo = store_filter_quote(origin);
	int rc = 0, depth = 0, pass;

	*leaf = NULL;
	if (!verdict_failed(row->verdict))
		goto out;
	if (store_task_reference(st, row->task, &ref, &rv, err) < 0) {
		rc = -1;
		goto out;
	}
	if (ref != NULL && strcmp(ref, row->id) != 0 && rv != NULL &&
	    !verdict_is(rv, VERDICT_PASS))
		goto out;	/* the task's fault, not the candidate's */
	at = xstrdup(row->id);
	for (;;) {
		rc = newest_repair(st, at, qo, level, &child, err);
		if (rc < 0 || child == NULL || ++depth > 100)
			break;
		free(at);
		at = child;
	}
	free(child);
	if (rc < 0 || (strcmp(at, row->id) != 0 && !fails(st, at, &pass)))
		free(at);	/* the newest repair does not fail */
	else
		*leaf = at;
out:
	free(ref);
	free(rv);
	free(qo);
	return rc < 0 ? -1 : 0;
}

/* --- words ---------------------------------------------------------------- */

/* Untrusted text as safe terminal text, lines kept, ending in a newline. */
static void
add_safe(struct buf *b, const char *s, size_t len)
{
	safe_text(b, s, len, SAFE_KEEP_LINES);
	if (len == 0 || s[len - 1] != '\n')
		buf_addc(b, '\n');
}

char *
gloop_request_text(const char *model, const char *cand_id, int round,
    const char *feedback)
{
	struct buf b = BUF_INIT;

	buf_printf(&b, "\033[1m--- asking %s to repair %s (round %d) ---"
	    "\033[0m\n", model, cand_id, round);
	add_safe(&b, feedback != NULL ? feedback : "",
	    feedback != NULL ? strlen(feedback) : 0);
	return buf_detach(&b, NULL);
}

char *
gloop_answer_text(struct store *st, const struct gen_report *rep, size_t i)
{
	struct candidate c;
	struct buf b = BUF_INIT;
	const char *asked = rep->asked_for != NULL ? rep->asked_for[i] : NULL;

	if (i >= rep->nids || store_candidate_get(st, rep->ids[i], &c,
	    NULL) != 0)
		return NULL;
	/* the candidate it was asked for: an answer that repeats code
	 * already there is that candidate, whose own parent is another */
	if (asked != NULL)
		buf_printf(&b, "\033[1m--- answer: %s, %s of %s%s ---"
		    "\033[0m\n", c.id, c.kind != NULL && strcmp(c.kind,
		    "optimization") == 0 ? "optimization" : "repair", asked,
		    rep->is_new[i] ? "" : " (the same code as before)");
	else
		buf_printf(&b, "\033[1m--- answer: %s, %s of %s ---\033[0m\n",
		    c.id, c.kind != NULL ? c.kind : "candidate", c.task_id);
	add_safe(&b, c.code, c.code_len);
	candidate_release(&c);
	return buf_detach(&b, NULL);
}

char *
gloop_summary_text(const char *verb, const struct gen_report *rep,
    int round)
{
	struct buf b = BUF_INIT;

	if (round > 0)
		buf_printf(&b, "%s round %d: ", verb, round);
	else
		buf_printf(&b, "%s: ", verb);
	buf_printf(&b, "asked %zu, stored %zu new", rep->asked, rep->added);
	if (rep->duplicates > 0)
		buf_printf(&b, ", %zu the same code as before",
		    rep->duplicates);
	if (rep->refusals > 0)
		buf_printf(&b, " (%zu refusal%s)", rep->refusals,
		    rep->refusals == 1 ? "" : "s");
	if (rep->failed > 0)
		buf_printf(&b, ", %zu failed", rep->failed);
	if (rep->cancelled > 0)
		buf_printf(&b, ", %zu not asked (cancelled)", rep->cancelled);
	if (rep->requests != rep->asked)
		buf_printf(&b, "; %zu request%s", rep->requests,
		    rep->requests == 1 ? "" : "s");
	if (rep->prompt_tokens + rep->completion_tokens > 0)
		buf_printf(&b, "; %lld+%lld tokens",
		    (long long)rep->prompt_tokens,
		    (long long)rep->completion_tokens);
	if (rep->priced > 0)
		buf_printf(&b, "; $%.4f%s", rep->cost_usd, rep->priced <
		    rep->responses ? " (some responses unpriced)" : "");
	if (rep->retries > 0)
		buf_printf(&b, "; %zu retr%s (HTTP 429, 5xx or the network)",
		    rep->retries, rep->retries == 1 ? "y" : "ies");
	else if (rep->retried > 0)
		buf_printf(&b, "; %zu retried (HTTP 429, 5xx or the network)",
		    rep->retried);
	buf_addc(&b, '\n');
	return buf_detach(&b, NULL);
}
