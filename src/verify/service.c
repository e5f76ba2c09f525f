/*
 * service.c - the verify service: a batch of candidates through verify
 * jobs, reference first, claimed, skipped when unchanged, stored; see
 * service.h.  One pool for the verify command and the workbench's pane.
 */
#define _GNU_SOURCE
#include "verify/service.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/duration.h"
#include "base/err.h"
#include "base/strset.h"
#include "store/store.h"
#include "model/vocab.h"
#include "envs/env.h"
#include "verify/pipeline.h"
#include "verify/smoke.h"

/* A batch of at most this many looks for its references in vsvc_new();
 * a larger one VSVC_PREP_MS at a time in vsvc_start() and vsvc_step(). */
#define VSVC_PREP_NOW	1024
#define VSVC_PREP_MS	8

struct vsvc_slot {
	struct verify_job	*job;
	int			 is_ref;
};

/* A finished run the store refused while another connection held its
 * write lock (opts.lock_wait_ms): tried again until until_ms. */
struct vsvc_wait {
	struct verify_job	*job;
	struct run		 run;
	int			 is_ref;
	int64_t			 until_ms;
};

struct vsvc {
	struct store		*st;
	struct vsvc_opts	 o;
	struct vsvc_hooks	 h;
	char			**ids;
	size_t			 n, next;
	struct vsvc_slot	*run;		/* o.jobs slots, nrun used */
	struct pollfd		*pfd;		/* o.jobs */
	size_t			 nrun, refs_running;
	size_t			 prep;		/* ids looked at for refs */
	struct strset		 added;		/* references added, not
						 * among the ids given */
	struct strset		 ref_tasks;	/* tasks whose reference was
						 * looked for */
	char			**refs;		/* nrefs found so far */
	size_t			 nrefs;
	int			 prepped;	/* references first, done */
	struct vsvc_wait	*wait;		/* nwait runs to store yet */
	size_t			 nwait;
	int64_t			 retry_at;	/* ms: the next try */
	int			 stopped;	/* vsvc_cancel() */
	char			*holder;	/* claims, or NULL */
	int			 ttl_s;
	time_t			 t_start, renewed;
	struct vsvc_summary	 sum;
	char			*broken_told;	/* "\nENV\n..." noted */
};

const char *
vsvc_result_line(const struct vsvc_result *res, char *buf, size_t n)
{
	const struct run *r = res->run;

	snprintf(buf, n, "[%zu/%zu] %s %s%s%s%s%s%s", res->k, res->n,
	    r->cand_id, r->verdict, r->stage != NULL ? " " : "",
	    r->stage != NULL ? r->stage : "", r->subcategory != NULL ? " " : "",
	    r->subcategory != NULL ? r->subcategory : "", res->stored ? "" :
	    " (not stored)");
	return buf;
}

void
vsvc_tally_add(struct vsvc_tally *t, const char *verdict)
{
	switch (verdict_from_name(verdict)) {
	case VERDICT_PASS:		t->pass++; break;
	case VERDICT_FAIL:		t->fail++; break;
	case VERDICT_TIMEOUT:		t->timeout++; break;
	case VERDICT_SKIPPED:		t->skipped++; break;
	case VERDICT_ENV_ERROR:		t->env_error++; break;
	case VERDICT_TASK_DEFECT:	t->task_defect++; break;
	default:			t->other++; break;
	}
}

/*
 * How long a claim on a candidate lasts unless renewed: a killed
 * verify's claims lapse after this (issue 10, item 14).
 * ASSAY_CLAIM_TTL_S overrides it, for tests of the lapse.
 */
static int
claim_ttl(void)
{
	const char *v = getenv("ASSAY_CLAIM_TTL_S");
	long n = v != NULL ? strtol(v, NULL, 10) : 0;

	return n >= 1 && n <= 86400 ? (int)n : 60;
}

/*
 * When process pid started, in clock ticks since boot (field 22 of
 * /proc/PID/stat, after the command's parenthesis), so that a pid used
 * again by a later process is told from the one that claimed; 0 when
 * unknown.
 */
static unsigned long long
proc_start(long pid)
{
	char path[64], buf[1024], *p;
	unsigned long long start = 0;
	size_t n;
	FILE *f;

	snprintf(path, sizeof path, "/proc/%ld/stat", pid);
	if ((f = fopen(path, "r")) == NULL)
		return 0;
	n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	if ((p = strrchr(buf, ')')) == NULL)
		return 0;
	/* ") S ppid ..." : field 3 is the state; starttime is field 22. */
	for (int field = 2; field < 22 && p != NULL; field++)
		p = strchr(p + 1, ' ');
	if (p == NULL || sscanf(p + 1, "%llu", &start) != 1)
		return 0;
	return start;
}

/* Who claims: "host:pid:start:random" (vsvc_holder_gone()), new string. */
static char *
claim_holder(void)
{
	char host[256] = "";
	unsigned r = 0;
	FILE *f = fopen("/dev/urandom", "rb");

	if (f != NULL) {
		if (fread(&r, sizeof r, 1, f) != 1)
			r = 0;
		fclose(f);
	}
	gethostname(host, sizeof host - 1);
	return xasprintf("%s:%ld:%llu:%08x", host, (long)getpid(),
	    proc_start((long)getpid()), r ^ (unsigned)time(NULL));
}

int
vsvc_holder_gone(const char *holder)
{
	char host[256] = "", *end;
	const char *c = strchr(holder, ':');
	unsigned long long start = 0, now;
	long pid;

	/* "host:pid:start:random", or an older "host:pid:random"; a host
	 * name holds no colon. */
	if (c == NULL)
		return 0;
	gethostname(host, sizeof host - 1);
	if ((size_t)(c - holder) != strlen(host) ||
	    memcmp(holder, host, strlen(host)) != 0)
		return 0;	/* another host's: only the lapse tells */
	errno = 0;
	pid = strtol(c + 1, &end, 10);
	if (end == c + 1 || *end != ':' || pid <= 0 || errno != 0)
		return 0;
	if (strchr(end + 1, ':') != NULL) {
		start = strtoull(end + 1, &end, 10);
		if (*end != ':')
			return 0;
	}
	if (kill((pid_t)pid, 0) < 0 && errno == ESRCH)
		return 1;
	if (start == 0)
		return 0;	/* older form, or start unknown: alive */
	now = proc_start(pid);
	return now != 0 && now != start;	/* the pid was used again */
}

static void
problem(struct vsvc *s, enum vsvc_problem what, const char *id,
    const char *msg)
{
	if (s->h.problem != NULL)
		s->h.problem(s->h.arg, what, id, msg);
}

static int
listed(char *const *v, size_t n, const char *id)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(v[i], id) == 0)
			return 1;
	return 0;
}

/*
 * Look for the references of the batch's tasks, from s->ids[s->prep]
 * on, for about budget_ms (0: to the end): with VSVC_REFS_UNRUN only
 * those that never ran.  A candidate's failure is only the model's fault
 * when the reference passes.  When every id was looked at, the
 * references go to the front of s->ids (added when not selected) and
 * the batch may start (s->prepped).  0, or -1 with err.
 */
static int
references_first(struct vsvc *s, int budget_ms, struct err *err)
{
	struct timespec t0, t;
	char **v;
	size_t k = 0, start = s->prep;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (; s->prep < s->n; s->prep++) {
		struct candidate c;
		char *ref = NULL, *verdict = NULL;
		int rc;

		/* every time: one look can take ms on a large store */
		if (budget_ms > 0 && s->prep > start) {
			clock_gettime(CLOCK_MONOTONIC, &t);
			if ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec -
			    t0.tv_nsec) / 1000000 >= budget_ms)
				return 0;	/* the rest at the next step */
		}
		/* One that cannot be read says so when it would start. */
		if (store_candidate_get(s->st, s->ids[s->prep], &c, NULL) != 0)
			continue;
		/* a task's reference is the same for each of its
		 * candidates: looked for once (a million copies of a few
		 * hundred tasks read their rows once, not per copy) */
		if (!strset_add(&s->ref_tasks, c.task_id)) {
			candidate_release(&c);
			continue;
		}
		rc = store_task_reference(s->st, c.task_id, &ref, &verdict,
		    err);
		candidate_release(&c);
		if (rc < 0)
			return -1;
		if (ref != NULL && !listed(s->refs, s->nrefs, ref) &&
		    (s->o.refs == VSVC_REFS_ALL || verdict == NULL)) {
			s->refs = xreallocarray(s->refs, s->nrefs + 1,
			    sizeof *s->refs);
			s->refs[s->nrefs++] = ref;
			ref = NULL;
		}
		free(ref);
		free(verdict);
	}
	v = xreallocarray(NULL, s->n + s->nrefs + 1, sizeof *v);
	for (size_t r = 0; r < s->nrefs; r++) {
		v[k++] = s->refs[r];
		if (!listed(s->ids, s->n, s->refs[r]))
			strset_add(&s->added, s->refs[r]);
	}
	for (size_t i = 0; i < s->n; i++) {
		if (listed(s->refs, s->nrefs, s->ids[i]))
			free(s->ids[i]);
		else
			v[k++] = s->ids[i];
	}
	v[k] = NULL;
	free(s->refs);
	s->refs = NULL;
	free(s->ids);
	s->ids = v;
	s->n = k;
	s->sum.refs = s->nrefs;
	s->sum.total = s->n;
	s->nrefs = 0;	/* they are in ids now */
	strset_release(&s->ref_tasks);
	s->prepped = 1;
	return 0;
}

/* Look for references within a step's budget; a store failure ends the
 * batch with a note.  1 while there is more to look at. */
static int
prepare(struct vsvc *s)
{
	struct err err;

	if (s->prepped)
		return 0;
	if (references_first(s, VSVC_PREP_MS, &err) < 0) {
		problem(s, VSVC_NOTE, NULL, err.msg);
		s->stopped = 1;
		s->prepped = 1;	/* nothing starts */
	}
	return !s->prepped;
}

int
vsvc_new(struct vsvc **out, struct store *st, const struct vsvc_opts *o,
    const struct vsvc_hooks *h, char *const *ids, size_t n, struct err *err)
{
	struct vsvc *s = xcalloc(1, sizeof *s);

	*out = NULL;
	s->st = st;
	s->o = *o;
	/* Every batch proves its envs' toolchains first (smoke.h). */
	s->o.vo.smoke = verify_smoke;
	if (s->o.jobs < 1)
		s->o.jobs = 1;
	if (h != NULL)
		s->h = *h;
	s->ids = xcalloc(n + 1, sizeof *s->ids);
	for (size_t i = 0; i < n; i++)
		s->ids[i] = xstrdup(ids[i]);
	s->n = n;
	/* a batch of a few: its references now; a large one's a slice a
	 * step, so that a caller's screen never waits for them all */
	if (n <= VSVC_PREP_NOW && references_first(s, 0, err) < 0) {
		vsvc_free(s);
		return -1;
	}
	s->run = xcalloc((size_t)s->o.jobs, sizeof *s->run);
	s->pfd = xcalloc((size_t)s->o.jobs, sizeof *s->pfd);
	if (s->o.claim) {
		s->holder = claim_holder();
		s->ttl_s = claim_ttl();
	}
	s->t_start = s->renewed = time(NULL);
	*out = s;
	return 0;
}

size_t
vsvc_count(const struct vsvc *s)
{
	return s->n;
}

const char *
vsvc_id(const struct vsvc *s, size_t i)
{
	return i < s->n ? s->ids[i] : NULL;
}

static void
release_claim(struct vsvc *s, const char *id)
{
	if (s->holder != NULL)
		store_claim_release(s->st, id, s->holder, NULL);
}

/*
 * Whether candidate c needs no run now: its latest run has the input key
 * it would have (without force), or (with force) another verify stored
 * one after this batch began.  Counts it when so.
 */
static int
unchanged(struct vsvc *s, const struct task *t, const struct candidate *c)
{
	struct run last;
	char key[SAMPLE_HASH_HEX];
	int skip;

	if (store_run_latest(s->st, c->id, &last, NULL) != 0)
		return 0;
	/* An env-error of the machine's state says nothing of the
	 * candidate, and the machine may have been repaired without a new
	 * toolchain identity (a package reinstalled, the sandbox's
	 * namespaces freed): such a run is made again (issue 21).  One of
	 * the toolchain's fixed limits (toolchain-limitation, unsupported-
	 * arch) would only come out the same. */
	if (verdict_is(last.verdict, VERDICT_ENV_ERROR) &&
	    last.subcategory != NULL &&
	    (strcmp(last.subcategory, "toolchain-broken") == 0 ||
	    strcmp(last.subcategory, "toolchain-error") == 0 ||
	    strcmp(last.subcategory, "sandbox-failure") == 0)) {
		run_release(&last);
		return 0;
	}
	/* After its first second: times are whole seconds, and a run an
	 * earlier verify stored in the second this one began is not newer
	 * (e2e 050 ran into it). */
	skip = s->o.force ? last.started > (int64_t)s->t_start :
	    verify_input_key(t, c, s->o.vo.timeout_s, key, NULL) == 0 &&
	    strcmp(key, last.input_key) == 0;
	if (skip) {
		s->sum.unchanged++;
		vsvc_tally_add(&s->sum.tally, last.verdict);
		if (!verdict_is(last.verdict, VERDICT_PASS))
			s->sum.not_pass++;
		if (s->h.current != NULL)
			s->h.current(s->h.arg, &last, t->id);
	}
	run_release(&last);
	return skip;
}

/*
 * A task's env whose toolchain fails its smoke test is told once per
 * batch, before its first candidate starts: every run of it will be
 * env-error/toolchain-broken, and the note says why and what to do.
 */
static void
tell_broken(struct vsvc *s, const struct task *t)
{
	char names[PIPELINE_MAX][PIPELINE_NAME], id[ERR_MSG_MAX];
	int n;

	if (s->o.vo.smoke == NULL)
		return;
	n = pipeline_split(t->env, names, NULL);
	for (int k = 0; k < n; k++) {
		const struct smoke_result *sm;
		char *key, *m;

		struct err te = { 0 };
		int tc = verify_toolchain(names[k], id, sizeof id, &te);

		if (tc < 0 && tc != ENV_TOOL_BROKEN)
			continue;
		key = xasprintf("\n%s\n", names[k]);
		if (s->broken_told != NULL && strstr(s->broken_told, key) !=
		    NULL) {
			free(key);
			continue;
		}
		if (tc == ENV_TOOL_BROKEN) {
			m = xasprintf("%s is broken here (it does not run: %s);"
			    " every candidate of it is env-error", names[k],
			    te.msg);
			problem(s, VSVC_NOTE, NULL, m);
			free(m);
		} else if ((sm = s->o.vo.smoke(names[k], &s->o.vo))->state ==
		    SMOKE_BROKEN) {
			m = verify_smoke_evidence(names[k], sm);
			problem(s, VSVC_NOTE, NULL, m);
			free(m);
		}
		m = xasprintf("%s%s", s->broken_told != NULL ?
		    s->broken_told : "", key + (s->broken_told != NULL));
		free(s->broken_told);
		s->broken_told = m;
		free(key);
	}
}

/* Start the candidate at s->next, or account for why not. */
static void
start_next(struct vsvc *s)
{
	size_t at = s->next++;
	const char *id = s->ids[at];
	struct candidate c = { 0 };
	struct task t = { 0 };
	struct verify_job *j;
	struct err err;
	int got = 1, rows = s->o.rows, cols = s->o.cols, rc;

	/* Claimed first: another verify on this database may be running
	 * it now (issue 10, item 14). */
	if (s->holder != NULL &&
	    store_claim(s->st, id, s->holder, s->ttl_s, vsvc_holder_gone,
	    &got, &err) < 0) {
		/* A database busy past its lock timeout: run it
		 * unclaimed; the run still reaches the caller, who keeps
		 * it (no run is lost to a lock). */
		if (s->sum.unclaimed++ == 0) {
			/* what goes on first: the store's words (which
			 * say to try again) last, so that a cut line
			 * keeps what matters */
			char *m = xasprintf("verifying without claims, "
			    "no run lost (a claim failed: %s)", err.msg);

			problem(s, VSVC_NOTE, NULL, m);
			free(m);
		}
		got = 1;
	}
	if (!got) {
		s->sum.busy++;
		if (strset_has(&s->added, id))
			s->sum.busy_added++;
		return;
	}
	rc = store_candidate_get(s->st, id, &c, &err);
	if (rc == 0) {
		rc = store_task_get(s->st, c.task_id, &t, &err);
		if (rc > 0)
			err_set(&err, "no task %s", c.task_id);
	} else if (rc > 0) {
		err_set(&err, "no candidate %s", id);
	}
	if (rc != 0) {
		s->sum.load_errors++;
		problem(s, VSVC_LOAD, id, err.msg);
		release_claim(s, id);
		candidate_release(&c);
		task_release(&t);
		return;
	}
	if (unchanged(s, &t, &c)) {
		release_claim(s, id);
	} else {
		tell_broken(s, &t);
		if (s->h.starting != NULL)
			s->h.starting(s->h.arg, &c, &t, &rows, &cols);
		if (verify_job_start(&j, &s->o.vo, &t, &c, s->o.use_pty, rows,
		    cols, &err) < 0) {
			s->sum.start_errors++;
			problem(s, VSVC_START, id, err.msg);
			release_claim(s, id);
		} else {
			s->run[s->nrun].job = j;
			s->run[s->nrun].is_ref = at < s->sum.refs;
			s->refs_running += s->run[s->nrun].is_ref;
			s->nrun++;
			if (s->h.started != NULL)
				s->h.started(s->h.arg, j, &c, &t);
		}
	}
	candidate_release(&c);
	task_release(&t);
}

/* Fill the pool; the references' phase ends before the rest starts. */
static void
fill(struct vsvc *s)
{
	while (s->prepped && !s->stopped && s->nrun < (size_t)s->o.jobs && s->next < s->n &&
	    !(s->next >= s->sum.refs && s->refs_running > 0))
		start_next(s);
}

static int
over(const struct vsvc *s)
{
	return s->nrun == 0 && s->nwait == 0 && (s->stopped ||
	    (s->prepped && s->next >= s->n));
}

#define VSVC_RETRY_MS	200	/* a locked store is tried this often */

int
vsvc_start(struct vsvc *s)
{
	prepare(s);
	fill(s);
	return over(s);
}

size_t
vsvc_pollfds(struct vsvc *s, struct pollfd **fds)
{
	for (size_t i = 0; i < s->nrun; i++) {
		s->pfd[i].fd = verify_job_fd(s->run[i].job);
		s->pfd[i].events = POLLIN;
		s->pfd[i].revents = 0;
	}
	*fds = s->pfd;
	return s->nrun;
}

int
vsvc_timeout_ms(const struct vsvc *s)
{
	int timeout = 1000;

	if (!s->prepped && !s->stopped)
		return 0;	/* more references to look for at once */
	for (size_t i = 0; i < s->nrun; i++) {
		int t = verify_job_timeout_ms(s->run[i].job);

		if (t < timeout)
			timeout = t;
	}
	if (s->nwait > 0) {
		int64_t t = s->retry_at - mono_ms();

		if (t < timeout)
			timeout = t < 0 ? 0 : (int)t;
	}
	return timeout < 0 ? 0 : timeout;
}

/*
 * A reference failed: before its task is called defective, its envs'
 * toolchains are proven anew where a cached proof vouched for them
 * (verify_smoke_again()).  A toolchain that fails now made the reference
 * fail: its run becomes env-error/toolchain-broken, and the jobs after
 * it are not run (verify_job_start() reads the same result).
 */
static void
reprove(struct vsvc *s, struct run *r)
{
	char names[PIPELINE_MAX][PIPELINE_NAME];
	int n = pipeline_split(r->env, names, NULL);

	for (int k = 0; k < n; k++) {
		const struct smoke_result *sm = verify_smoke_again(names[k],
		    &s->o.vo);
		char *ev, *m;

		if (sm->state != SMOKE_BROKEN)
			continue;
		ev = verify_smoke_evidence(names[k], sm);
		m = xasprintf("%s; its reference failed, and the toolchain,"
		    " proven again, fails its smoke test", ev);
		problem(s, VSVC_NOTE, NULL, m);
		free(m);
		env_set(&r->verdict, "env-error");
		env_set(&r->subcategory, "toolchain-broken");
		env_set(&r->category, NULL);
		env_set(&r->evidence, ev);
		free(ev);
		return;
	}
}

/*
 * Store run r of job j and tell hooks.finished, then free both: 1.  0
 * when the store refused it because another connection held the write
 * lock and it may wait for it until until_ms (opts.lock_wait_ms): the
 * caller keeps it and tries again.
 */
static int
store_and_tell(struct vsvc *s, struct verify_job *j, struct run *r,
    int is_ref, int64_t until_ms)
{
	struct vsvc_result res = { 0 };
	struct err err;

	res.run = r;
	res.job = j;
	res.cancelled = r->subcategory != NULL &&
	    strcmp(r->subcategory, "cancelled") == 0 && s->stopped;
	if (res.cancelled) {
		s->sum.cancelled++;
	} else if (store_run_add(s->st, r, &err) == 0) {
		/* A busy database was waited for (store_lock_timeout()). */
		res.stored = 1;
		s->sum.done++;
		vsvc_tally_add(&s->sum.tally, r->verdict);
	} else if (s->o.lock_wait_ms > 0 && store_locked_out(s->st) &&
	    mono_ms() < until_ms) {
		return 0;
	} else {
		res.error = err.msg;
		s->sum.not_stored++;
	}
	s->sum.finished++;
	if (!res.cancelled && !verdict_is(r->verdict, VERDICT_PASS))
		s->sum.not_pass++;
	res.k = s->sum.finished + s->sum.unchanged;
	res.n = s->n;
	if (s->h.finished != NULL)
		s->h.finished(s->h.arg, &res);
	release_claim(s, r->cand_id);
	run_release(r);
	verify_job_free(j);
	/* a reference counts as running until its run is stored: the
	 * candidates after it are judged by it */
	s->refs_running -= is_ref;
	return 1;
}

/* The job in slot i finished: judge, then store (now, or when the lock
 * frees), tell, free. */
static void
finish(struct vsvc *s, size_t i)
{
	struct verify_job *j = s->run[i].job;
	int is_ref = s->run[i].is_ref;
	struct run r;

	verify_job_result(j, &r);
	if (is_ref && s->o.vo.smoke != NULL && verdict_failed(r.verdict))
		reprove(s, &r);
	verify_judge_reference(s->st, j, &r);
	s->run[i] = s->run[--s->nrun];
	if (store_and_tell(s, j, &r, is_ref, mono_ms() + s->o.lock_wait_ms))
		return;
	s->wait = xreallocarray(s->wait, s->nwait + 1, sizeof *s->wait);
	s->wait[s->nwait].job = j;
	s->wait[s->nwait].run = r;
	s->wait[s->nwait].is_ref = is_ref;
	s->wait[s->nwait].until_ms = mono_ms() + s->o.lock_wait_ms;
	s->sum.waiting = ++s->nwait;
	s->retry_at = mono_ms() + VSVC_RETRY_MS;
}

/* Try the runs that wait for the lock again, oldest first, while the
 * store takes them. */
static void
store_waiting(struct vsvc *s)
{
	size_t i = 0;

	if (s->nwait == 0 || mono_ms() < s->retry_at)
		return;
	s->retry_at = mono_ms() + VSVC_RETRY_MS;
	while (i < s->nwait) {
		struct vsvc_wait *w = &s->wait[i];

		if (!store_and_tell(s, w->job, &w->run, w->is_ref,
		    w->until_ms)) {
			if (store_locked_out(s->st))
				break;	/* still held: the rest wait too */
			i++;
			continue;
		}
		memmove(w, w + 1, (s->nwait - i - 1) * sizeof *w);
		s->sum.waiting = --s->nwait;
	}
}

int
vsvc_step(struct vsvc *s)
{
	if (s->holder != NULL && s->nrun > 0 &&
	    time(NULL) - s->renewed >= s->ttl_s / 3) {
		struct err err;

		/* Still alive: a long run keeps its claims. */
		s->renewed = time(NULL);
		if (store_claims_renew(s->st, s->holder, s->ttl_s, &err) < 0)
			problem(s, VSVC_NOTE, NULL, err.msg);
	}
	if (prepare(s))
		return over(s);
	store_waiting(s);
	for (size_t i = 0; i < s->nrun; ) {
		if (verify_job_step(s->run[i].job, s->h.output, s->h.arg))
			finish(s, i);	/* slot i now holds the last job */
		else
			i++;
	}
	fill(s);
	return over(s);
}

void
vsvc_cancel(struct vsvc *s)
{
	s->stopped = 1;
	for (size_t i = 0; i < s->nrun; i++)
		verify_job_cancel(s->run[i].job);
}

size_t
vsvc_running(const struct vsvc *s)
{
	return s->nrun;
}

struct verify_job *
vsvc_job(struct vsvc *s, size_t i)
{
	return i < s->nrun ? s->run[i].job : NULL;
}

void
vsvc_resize(struct vsvc *s, int rows, int cols)
{
	for (size_t i = 0; i < s->nrun; i++)
		verify_job_resize(s->run[i].job, rows, cols);
}

const struct vsvc_summary *
vsvc_summary(const struct vsvc *s)
{
	return &s->sum;
}

void
vsvc_free(struct vsvc *s)
{
	if (s == NULL)
		return;
	for (size_t i = 0; i < s->nrun; i++)
		verify_job_free(s->run[i].job);
	for (size_t i = 0; i < s->nwait; i++) {
		run_release(&s->wait[i].run);
		verify_job_free(s->wait[i].job);
	}
	free(s->wait);
	for (size_t i = 0; i < s->nrefs; i++)
		free(s->refs[i]);
	free(s->refs);
	strset_release(&s->ref_tasks);
	strset_release(&s->added);
	if (s->holder != NULL)
		store_claim_release(s->st, NULL, s->holder, NULL);
	for (size_t i = 0; i < s->n; i++)
		free(s->ids[i]);
	free(s->ids);
	free(s->run);
	free(s->pfd);
	free(s->holder);
	free(s->broken_told);
	free(s);
	verify_job_wait();	/* no work directory left behind */
}
