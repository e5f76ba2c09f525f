/*
 * test_service.c - the verify service (src/verify/service.c): reference
 * first, the input-key skip, claims, storing under a held lock, cancel,
 * and a pool no larger than its jobs.  Real parts: a SQLite store in a
 * mkdtemp directory, the iverilog env's real stages run without the
 * sandbox (vo.no_sandbox: the sandbox has e2e tests of its own), polled
 * as the verify command and the workbench poll them.  Skipped when
 * iverilog is not installed.
 *
 * Issue 22 item 7: a configured secret a design prints is redacted in
 * the stored run.  Issue 24: a large batch looks for its references a
 * slice a step; the round loop (generate/loop.h) asks on its thread,
 * stores through the decision layer and verifies through this service.
 *
 * The designs are a 2-input AND under a VerilogEval-style testbench
 * that counts mismatches against a & b: the reference and "good" pass,
 * "bad" (a | b) mismatches on two of four inputs and fails.
 */
#include <stdarg.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>
#include <sqlite3.h>

#include "base/buf.h"
#include "base/err.h"
#include "base/hash.h"
#include "base/secret.h"
#include "envs/env.h"
#include "model/sample.h"
#include "store/store.h"
#include "decide/decide.h"
#include "generate/loop.h"
#include "generate/model.h"
#include "verify/service.h"
#include "testlib.h"

extern const struct env_ops env_iverilog;

static const char tb[] =
    "module tb;\n"
    "  reg a, b; wire y; integer i, errors = 0;\n"
    "  TopModule dut(.a(a), .b(b), .y(y));\n"
    "  initial begin\n"
    "    for (i = 0; i < 4; i = i + 1) begin\n"
    "      {a, b} = i; #1;\n"
    "      if (y !== (a & b)) errors = errors + 1;\n"
    "    end\n"
    "    $display(\"Mismatches: %1d in %1d samples\", errors, 4);\n"
    "    $finish;\n"
    "  end\n"
    "endmodule\n";

/* A testbench that never finishes by itself: the job runs until killed. */
static const char tb_forever[] =
    "module tb;\n"
    "  reg a, b; wire y;\n"
    "  TopModule dut(.a(a), .b(b), .y(y));\n"
    "  initial begin a = 0; b = 0; forever #1 a = ~a; end\n"
    "endmodule\n";

static const char ref_and[] =
    "module TopModule(input a, input b, output y);\n"
    "  assign y = a & b;\n"
    "endmodule\n";
static const char good_and[] =
    "module TopModule(input a, input b, output y);\n"
    "  assign y = b & a;\n"
    "endmodule\n";
static const char bad_and[] =
    "module TopModule(input a, input b, output y);\n"
    "  assign y = a | b;\n"
    "endmodule\n";

struct fx {
	char		 dir[64];
	char		 db[96];
	struct store	*st;
	char		*ref, *good, *bad;	/* candidate ids */
};

/* What the hooks heard. */
struct heard {
	size_t	 started, finished, stored, cancelled, problems;
	size_t	 max_running;		/* jobs running at once, at most */
	char	 order[16][16];		/* candidate ids as they started */
	int	 cand_before_ref;	/* a candidate started while its
					   task's reference ran */
	struct vsvc *s;
	const char *ref;
};

static void
put_task(struct store *st, const char *id, const char *bench)
{
	struct task t;
	struct err err;
	int ins;

	memset(&t, 0, sizeof t);
	t.id = xstrdup(id);
	t.benchmark = xstrdup("local");
	t.domain = xstrdup("chip");
	t.env = xstrdup("iverilog");
	t.env_params = xstrdup("{\"top\":\"tb\"}");
	t.spec = xstrdup("An AND gate.");
	t.source = xstrdup("test_service");
	task_add_file(&t, "tb.sv", "testbench", bench, strlen(bench));
	if (store_task_put(st, &t, &ins, &err) < 0)
		fail_msg("store_task_put: %s", err.msg);
	task_release(&t);
}

static char *
add_cand(struct store *st, const char *task, const char *origin,
    const char *code)
{
	struct candidate c;
	struct err err;
	int ins;
	char *id;

	memset(&c, 0, sizeof c);
	c.task_id = xstrdup(task);
	c.origin = xstrdup(origin);
	c.kind = xstrdup("direct");
	c.lang = xstrdup("verilog");
	c.source = xstrdup("test_service:1");
	c.code = xstrdup(code);
	c.code_len = strlen(code);
	hash_sha256(c.code, c.code_len, c.code_hash);
	if (store_candidate_add(st, &c, &ins, &err) < 0)
		fail_msg("store_candidate_add: %s", err.msg);
	id = xstrdup(c.id);
	candidate_release(&c);
	return id;
}

static int
fx_setup(void **state)
{
	struct fx *f = xcalloc(1, sizeof *f);
	struct err err;

	snprintf(f->dir, sizeof f->dir, "/tmp/assay-test-service-XXXXXX");
	if (mkdtemp(f->dir) == NULL) {
		free(f);
		return -1;
	}
	snprintf(f->db, sizeof f->db, "%s/assay.db", f->dir);
	if (store_open(&f->st, f->db, &err) < 0) {
		print_error("store_open: %s\n", err.msg);
		rm_rf(f->dir);
		free(f);
		return -1;
	}
	put_task(f->st, "local/and2", tb);
	f->ref = add_cand(f->st, "local/and2", "reference", ref_and);
	f->good = add_cand(f->st, "local/and2", "model-x", good_and);
	f->bad = add_cand(f->st, "local/and2", "model-y", bad_and);
	*state = f;
	return 0;
}

static int
fx_teardown(void **state)
{
	struct fx *f = *state;

	store_close(f->st);
	rm_rf(f->dir);
	free(f->ref);
	free(f->good);
	free(f->bad);
	free(f);
	return 0;
}

static void
need_iverilog(void)
{
	char ver[256];
	struct err err;

	if (env_iverilog.toolchain(ver, sizeof ver, &err) < 0) {
		print_message("%s; skipped\n", err.msg);
		skip();
	}
}

static struct vsvc_opts
opts(const struct fx *f, int jobs)
{
	struct vsvc_opts o = { .jobs = jobs, .claim = 1,
	    .refs = VSVC_REFS_ALL };

	o.vo.no_sandbox = 1;
	o.vo.workroot = f->dir;
	o.vo.timeout_s = 20;
	return o;
}

static void
on_started(void *arg, struct verify_job *j, const struct candidate *c,
    const struct task *t)
{
	struct heard *h = arg;

	(void)j;
	(void)t;
	if (h->started < 16)
		snprintf(h->order[h->started], sizeof h->order[0], "%s", c->id);
	h->started++;
	if (vsvc_running(h->s) > h->max_running)
		h->max_running = vsvc_running(h->s);
	if (h->ref != NULL && strcmp(c->id, h->ref) != 0) {
		for (size_t i = 0; i < vsvc_running(h->s); i++)
			if (strcmp(verify_job_cand(vsvc_job(h->s, i)),
			    h->ref) == 0)
				h->cand_before_ref = 1;
	}
}

static void
on_finished(void *arg, const struct vsvc_result *res)
{
	struct heard *h = arg;

	h->finished++;
	h->stored += res->stored;
	h->cancelled += res->cancelled;
	assert_true(res->k >= 1 && res->k <= res->n);
	if (!res->stored && !res->cancelled)
		assert_non_null(res->error);
}

static void
on_problem(void *arg, enum vsvc_problem what, const char *id,
    const char *msg)
{
	struct heard *h = arg;

	(void)what;
	(void)id;
	(void)msg;
	h->problems++;
}

/* Run a batch over ids to its end, polling as the callers do. */
static struct vsvc_summary
run_batch(struct fx *f, const struct vsvc_opts *o, char **ids, size_t n,
    struct heard *h)
{
	struct vsvc_hooks hk = { .started = on_started,
	    .finished = on_finished, .problem = on_problem, .arg = h };
	struct vsvc_summary sum;
	struct vsvc *s;
	struct err err;
	int over, rounds = 0;

	if (vsvc_new(&s, f->st, o, &hk, ids, n, &err) < 0)
		fail_msg("vsvc_new: %s", err.msg);
	h->s = s;
	over = vsvc_start(s);
	while (!over) {
		struct pollfd *fds;
		size_t nfd = vsvc_pollfds(s, &fds);

		assert_true(nfd <= (size_t)o->jobs);
		assert_true(vsvc_timeout_ms(s) >= 0 &&
		    vsvc_timeout_ms(s) <= 1000);
		poll(fds, nfd, vsvc_timeout_ms(s));
		over = vsvc_step(s);
		assert_true(++rounds < 100000);
	}
	assert_int_equal(vsvc_running(s), 0);
	sum = *vsvc_summary(s);
	vsvc_free(s);
	return sum;
}

/* The latest stored verdict of id, new string or NULL. */
static char *
verdict_of(struct fx *f, const char *id)
{
	struct run r;
	char *v;

	if (store_run_latest(f->st, id, &r, NULL) != 0)
		return NULL;
	v = xstrdup(r.verdict);
	run_release(&r);
	return v;
}

static void
assert_verdict(struct fx *f, const char *id, const char *want)
{
	char *v = verdict_of(f, id);

	if (v == NULL)
		fail_msg("%s: no run, want %s", id, want);
	if (strcmp(v, want) != 0) {
		print_error("%s: %s, want %s\n", id, v, want);
		free(v);
		fail();
	}
	free(v);
}

/* The reference is added in front, runs alone, then the rest at once. */
static void
test_reference_first(void **state)
{
	struct fx *f = *state;
	struct vsvc_opts o = opts(f, 4);
	struct heard h = { .ref = f->ref };
	char *ids[] = { f->bad, f->good };
	struct vsvc_summary sum;

	need_iverilog();
	sum = run_batch(f, &o, ids, 2, &h);
	assert_int_equal(sum.total, 3);
	assert_int_equal(sum.refs, 1);
	assert_string_equal(h.order[0], f->ref);
	assert_int_equal(h.cand_before_ref, 0);
	assert_int_equal(h.started, 3);
	assert_int_equal(sum.done, 3);
	assert_int_equal(sum.finished, 3);
	assert_int_equal(sum.tally.pass, 2);
	assert_int_equal(sum.tally.fail, 1);
	assert_int_equal(sum.not_pass, 1);
	assert_int_equal(sum.not_stored, 0);
	assert_int_equal(h.stored, 3);
	assert_verdict(f, f->ref, "pass");
	assert_verdict(f, f->good, "pass");
	assert_verdict(f, f->bad, "fail");
}

/* Unchanged inputs are not run again; force runs them. */
static void
test_input_key_skip(void **state)
{
	struct fx *f = *state;
	struct vsvc_opts o = opts(f, 2);
	struct heard h = { 0 }, h2 = { 0 }, h3 = { 0 };
	char *ids[] = { f->bad, f->good };
	struct vsvc_summary sum;

	need_iverilog();
	sum = run_batch(f, &o, ids, 2, &h);
	assert_int_equal(sum.done, 3);
	sum = run_batch(f, &o, ids, 2, &h2);
	assert_int_equal(h2.started, 0);
	assert_int_equal(sum.done, 0);
	assert_int_equal(sum.unchanged, 3);
	assert_int_equal(sum.tally.pass, 2);
	assert_int_equal(sum.tally.fail, 1);
	assert_int_equal(sum.not_pass, 1);
	/* A new timeout is a new input. */
	o.vo.timeout_s = 21;
	sum = run_batch(f, &o, ids + 1, 1, &h3);
	assert_int_equal(sum.done, 2);	/* the reference and good */
	assert_int_equal(sum.unchanged, 0);
	memset(&h3, 0, sizeof h3);
	o.force = 1;
	sum = run_batch(f, &o, ids + 1, 1, &h3);
	assert_int_equal(sum.done, 2);
	assert_int_equal(sum.unchanged, 0);
}

/* The workbench's mode: the reference only when it never ran. */
static void
test_reference_unrun(void **state)
{
	struct fx *f = *state;
	struct vsvc_opts o = opts(f, 1);
	struct heard h = { 0 }, h2 = { 0 };
	char *ids[] = { f->bad };
	struct vsvc_summary sum;
	struct vsvc *s;
	struct err err;

	need_iverilog();
	o.refs = VSVC_REFS_UNRUN;
	o.force = 1;
	o.claim = 0;
	sum = run_batch(f, &o, ids, 1, &h);
	assert_int_equal(sum.refs, 1);
	assert_string_equal(h.order[0], f->ref);
	assert_int_equal(sum.done, 2);
	/* Now the reference has a run: v runs the candidate alone. */
	if (vsvc_new(&s, f->st, &o, NULL, ids, 1, &err) < 0)
		fail_msg("vsvc_new: %s", err.msg);
	assert_int_equal(vsvc_count(s), 1);
	assert_string_equal(vsvc_id(s, 0), f->bad);
	vsvc_free(s);
	sum = run_batch(f, &o, ids, 1, &h2);
	assert_int_equal(sum.done, 1);
	assert_int_equal(h2.started, 1);
}

/* A defective reference makes its candidates' failures task-defect. */
static void
test_defective_reference(void **state)
{
	struct fx *f = *state;
	struct vsvc_opts o = opts(f, 2);
	struct heard h = { 0 };
	char *ref, *bad, *ids[1];
	struct vsvc_summary sum;

	need_iverilog();
	put_task(f->st, "local/and2-defect", tb);
	/* Its reference is an OR: it fails its own testbench. */
	ref = add_cand(f->st, "local/and2-defect", "reference", bad_and);
	bad = add_cand(f->st, "local/and2-defect", "model-y",
	    "module TopModule(input a, input b, output y);\n"
	    "  assign y = a ^ b;\nendmodule\n");
	ids[0] = bad;
	sum = run_batch(f, &o, ids, 1, &h);
	assert_int_equal(sum.done, 2);
	assert_int_equal(sum.tally.task_defect, 2);
	assert_verdict(f, ref, "task-defect");
	assert_verdict(f, bad, "task-defect");
	free(ref);
	free(bad);
}

/* A candidate another verify holds is left to it. */
static void
test_claims(void **state)
{
	struct fx *f = *state;
	struct vsvc_opts o = opts(f, 2);
	struct heard h = { 0 };
	char *ids[] = { f->bad, f->good };
	struct vsvc_summary sum;
	struct err err;
	int got = 0;

	need_iverilog();
	if (store_claim(f->st, f->good, "elsewhere:1:0", 600, vsvc_holder_gone,
	    &got, &err) < 0)
		fail_msg("store_claim: %s", err.msg);
	assert_int_equal(got, 1);
	sum = run_batch(f, &o, ids, 2, &h);
	assert_int_equal(sum.busy, 1);
	assert_int_equal(sum.done, 2);
	assert_null(verdict_of(f, f->good));
	/* Its own claims are gone when the batch ends. */
	if (store_claim(f->st, f->bad, "elsewhere:1:0", 600, NULL, &got,
	    &err) < 0)
		fail_msg("store_claim: %s", err.msg);
	assert_int_equal(got, 1);
}

/* Field 22 of /proc/PID/stat, as the service reads it. */
static unsigned long long
start_of(long pid)
{
	char path[64], buf[1024], *p;
	unsigned long long v = 0;
	size_t n;
	FILE *f;

	snprintf(path, sizeof path, "/proc/%ld/stat", pid);
	assert_non_null(f = fopen(path, "r"));
	n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	assert_non_null(p = strrchr(buf, ')'));
	assert_int_equal(sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u"
	    " %*u %*u %*u %*u %*d %*d %*d %*d %*d %*d %llu", &v), 1);
	return v;
}

/*
 * A claim of a verify that died on this host is
 * known to be gone (no process with its pid, or one that started at
 * another time: the pid used again); one of a live process, of another
 * host or in a form not understood stands.
 */
static void
test_holder_gone(void **state)
{
	char host[256] = "", *h;
	unsigned long long me;
	pid_t dead;

	(void)state;
	gethostname(host, sizeof host - 1);
	me = start_of((long)getpid());
	h = xasprintf("%s:%ld:%llu:0badcafe", host, (long)getpid(), me);
	assert_int_equal(vsvc_holder_gone(h), 0);
	free(h);
	h = xasprintf("%s:%ld:%llu:0badcafe", host, (long)getpid(), me + 1);
	assert_int_equal(vsvc_holder_gone(h), 1);	/* pid used again */
	free(h);
	h = xasprintf("%s:%ld:0badcafe", host, (long)getpid());
	assert_int_equal(vsvc_holder_gone(h), 0);	/* older form, alive */
	free(h);
	dead = fork();
	assert_true(dead >= 0);
	if (dead == 0)
		_exit(0);
	assert_int_equal(waitpid(dead, NULL, 0), dead);
	h = xasprintf("%s:%ld:1:0badcafe", host, (long)dead);
	assert_int_equal(vsvc_holder_gone(h), 1);
	free(h);
	h = xasprintf("%s:%ld:0badcafe", host, (long)dead);
	assert_int_equal(vsvc_holder_gone(h), 1);
	free(h);
	h = xasprintf("not-%s:%ld:1:0badcafe", host, (long)dead);
	assert_int_equal(vsvc_holder_gone(h), 0);	/* another host's */
	free(h);
	assert_int_equal(vsvc_holder_gone("garbage"), 0);
	assert_int_equal(vsvc_holder_gone(""), 0);
}

/*
 * Another writer holds the database past the lock timeout: the runs
 * finish, none is stored, each reaches the caller unstored, and the
 * summary counts them as not stored, not as verified (issue 13).
 */
static void
test_locked_store(void **state)
{
	struct fx *f = *state;
	struct vsvc_opts o = opts(f, 2);
	struct heard h = { 0 };
	char *ids[] = { f->good };
	struct vsvc_summary sum;
	sqlite3 *other;

	need_iverilog();
	o.claim = 0;
	o.refs = VSVC_REFS_UNRUN;
	assert_int_equal(sqlite3_open(f->db, &other), SQLITE_OK);
	assert_int_equal(sqlite3_exec(other, "BEGIN IMMEDIATE", NULL, NULL,
	    NULL), SQLITE_OK);
	store_lock_timeout(f->st, 200);
	sum = run_batch(f, &o, ids, 1, &h);
	sqlite3_exec(other, "ROLLBACK", NULL, NULL, NULL);
	sqlite3_close(other);
	assert_int_equal(sum.finished, 2);
	assert_int_equal(sum.not_stored, 2);
	assert_int_equal(sum.done, 0);
	assert_int_equal(sum.tally.pass, 0);
	assert_int_equal(h.stored, 0);
	assert_int_equal(h.finished, 2);
	assert_null(verdict_of(f, f->good));
	assert_null(verdict_of(f, f->ref));
}

/*
 * With opts.lock_wait_ms (the workbench, whose connection waits for a
 * lock only briefly): a run the store refuses under a held lock is kept
 * and stored when the lock frees; the reference waiting so holds back
 * the candidate after it, and nothing reaches hooks.finished unstored.
 */
static void
test_locked_store_waits(void **state)
{
	struct fx *f = *state;
	struct vsvc_opts o = opts(f, 2);
	struct heard h = { 0 };
	struct vsvc_hooks hk = { .started = on_started,
	    .finished = on_finished, .problem = on_problem, .arg = &h };
	char *ids[] = { f->good };
	struct vsvc *s;
	struct err err;
	sqlite3 *other;
	int over, rounds = 0;

	need_iverilog();
	o.claim = 0;
	o.refs = VSVC_REFS_UNRUN;
	o.lock_wait_ms = 60000;
	assert_int_equal(sqlite3_open(f->db, &other), SQLITE_OK);
	assert_int_equal(sqlite3_exec(other, "BEGIN IMMEDIATE", NULL, NULL,
	    NULL), SQLITE_OK);
	store_lock_timeout(f->st, 10);
	assert_int_equal(vsvc_new(&s, f->st, &o, &hk, ids, 1, &err), 0);
	h.s = s;
	over = vsvc_start(s);
	/* the reference runs and finishes; its run waits for the lock */
	while (!over && !(vsvc_running(s) == 0 && rounds > 0)) {
		struct pollfd *fds;
		size_t nfd = vsvc_pollfds(s, &fds);

		poll(fds, nfd, vsvc_timeout_ms(s));
		over = vsvc_step(s);
		assert_true(++rounds < 100000);
	}
	assert_false(over);
	assert_int_equal(h.started, 1);		/* the reference only */
	assert_int_equal(h.finished, 0);	/* waiting, not given up */
	assert_true(vsvc_timeout_ms(s) <= 200);
	sqlite3_exec(other, "ROLLBACK", NULL, NULL, NULL);
	sqlite3_close(other);
	while (!over) {
		struct pollfd *fds;
		size_t nfd = vsvc_pollfds(s, &fds);

		poll(fds, nfd, vsvc_timeout_ms(s));
		over = vsvc_step(s);
		assert_true(++rounds < 100000);
	}
	assert_int_equal(vsvc_summary(s)->done, 2);
	assert_int_equal(vsvc_summary(s)->not_stored, 0);
	vsvc_free(s);
	assert_int_equal(h.started, 2);
	assert_int_equal(h.stored, 2);
	assert_verdict(f, f->ref, "pass");
	assert_verdict(f, f->good, "pass");
}

/* x: the running job stops, is not stored, and nothing else starts. */
static void
test_cancel(void **state)
{
	struct fx *f = *state;
	struct vsvc_opts o = opts(f, 1);
	struct heard h = { 0 };
	struct vsvc_hooks hk = { .started = on_started,
	    .finished = on_finished, .problem = on_problem, .arg = &h };
	char *a, *b, *ids[2];
	struct vsvc *s;
	struct err err;
	int over;

	need_iverilog();
	o.claim = 0;
	put_task(f->st, "local/forever", tb_forever);
	a = add_cand(f->st, "local/forever", "model-x", good_and);
	b = add_cand(f->st, "local/forever", "model-y", bad_and);
	ids[0] = a;
	ids[1] = b;
	if (vsvc_new(&s, f->st, &o, &hk, ids, 2, &err) < 0)
		fail_msg("vsvc_new: %s", err.msg);
	h.s = s;
	assert_int_equal(vsvc_start(s), 0);
	assert_int_equal(vsvc_running(s), 1);
	vsvc_cancel(s);
	do {
		struct pollfd *fds;
		size_t nfd = vsvc_pollfds(s, &fds);

		poll(fds, nfd, vsvc_timeout_ms(s));
		over = vsvc_step(s);
	} while (!over);
	assert_int_equal(h.started, 1);
	assert_int_equal(h.cancelled, 1);
	assert_int_equal(vsvc_summary(s)->cancelled, 1);
	assert_int_equal(vsvc_summary(s)->done, 0);
	vsvc_free(s);
	assert_null(verdict_of(f, a));
	assert_null(verdict_of(f, b));
	free(a);
	free(b);
}

/* More candidates than jobs: never more jobs at once than asked. */
static void
test_pool_bound(void **state)
{
	struct fx *f = *state;
	struct vsvc_opts o = opts(f, 2);
	struct heard h = { 0 };
	char *ids[6];
	struct vsvc_summary sum;

	need_iverilog();
	for (int i = 0; i < 6; i++) {
		char *code = xasprintf("module TopModule(input a, input b,"
		    " output y);\n  assign y = a & b; // %d\nendmodule\n", i);

		ids[i] = add_cand(f->st, "local/and2", "model-z", code);
		free(code);
	}
	sum = run_batch(f, &o, ids, 6, &h);
	assert_int_equal(sum.done, 7);
	assert_int_equal(sum.tally.pass, 7);
	assert_true(h.max_running <= 2);
	assert_true(h.max_running >= 1);
	for (int i = 0; i < 6; i++)
		free(ids[i]);
}

/* Unknown ids are reported, the rest still run. */
static void
test_load_error(void **state)
{
	struct fx *f = *state;
	struct vsvc_opts o = opts(f, 2);
	struct heard h = { 0 };
	char *ids[] = { "cdeadbe", f->good };
	struct vsvc_summary sum;

	need_iverilog();
	sum = run_batch(f, &o, ids, 2, &h);
	assert_int_equal(sum.load_errors, 1);
	assert_int_equal(h.problems, 1);
	assert_int_equal(sum.done, 2);
}

static void
test_tally(void **state)
{
	struct vsvc_tally t = { 0 };
	static const char *const v[] = { "pass", "fail", "timeout",
	    "skipped", "env-error", "task-defect", "weird", "pass" };

	(void)state;
	for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
		vsvc_tally_add(&t, v[i]);
	assert_int_equal(t.pass, 2);
	assert_int_equal(t.fail, 1);
	assert_int_equal(t.timeout, 1);
	assert_int_equal(t.skipped, 1);
	assert_int_equal(t.env_error, 1);
	assert_int_equal(t.task_defect, 1);
	assert_int_equal(t.other, 1);
}

/* A design that prints the generator's API key (it reached the code
 * some other way): the stored log, evidence and all hold it redacted. */
static void
test_secret_in_run_log(void **state)
{
	static const char key[] = "sk-test-4242-canary-key";
	static const char leaky[] =
	    "module TopModule(input a, input b, output y);\n"
	    "  assign y = a & b;\n"
	    "  initial $display(\"Authorization: Bearer sk-test-4242-canary-key\");\n"
	    "endmodule\n";
	struct fx *f = *state;
	struct vsvc_opts o = opts(f, 1);
	struct heard h = { 0 };
	char *id = add_cand(f->st, "local/and2", "model-z", leaky);
	char *ids[] = { id };
	struct run r;
	struct err err;

	need_iverilog();
	secret_clear();
	assert_int_equal(secret_add(key), 0);
	run_batch(f, &o, ids, 1, &h);
	assert_int_equal(store_run_latest(f->st, id, &r, &err), 0);
	assert_string_equal(r.verdict, "pass");
	assert_int_equal(strlen(r.log), r.log_len);
	assert_null(strstr(r.log, key));
	assert_non_null(strstr(r.log, "Authorization: Bearer " SECRET_MARK));
	run_release(&r);
	secret_clear();
	free(id);
}

/*
 * A batch larger than vsvc_new() looks through at once (1024): its
 * references are found a slice a step, so vsvc_new() returns before
 * they lead; the batch still runs the reference first, and the ids that
 * are no candidates fail to load as they come (issue 24: a view of a
 * million must not stop the workbench's screen while it is looked at).
 */
static void
test_large_batch_prepares_in_steps(void **state)
{
	struct fx *f = *state;
	struct vsvc_opts o = opts(f, 2);
	struct heard h = { 0 };
	size_t n = 1100;
	char **ids = xcalloc(n + 1, sizeof *ids);
	struct vsvc_summary sum;
	struct vsvc *s;
	struct err err;

	need_iverilog();
	o.claim = 0;
	for (size_t i = 0; i + 1 < n; i++)
		ids[i] = xasprintf("cnone%04zu", i);
	ids[n - 1] = xstrdup(f->good);
	assert_int_equal(vsvc_new(&s, f->st, &o, NULL, ids, n, &err), 0);
	assert_int_equal(vsvc_count(s), n);	/* no reference in front yet */
	vsvc_free(s);
	h.ref = f->ref;
	sum = run_batch(f, &o, ids, n, &h);
	assert_int_equal(sum.total, n + 1);
	assert_int_equal(sum.refs, 1);
	assert_string_equal(h.order[0], f->ref);
	assert_false(h.cand_before_ref);
	assert_int_equal(sum.load_errors, n - 1);
	assert_int_equal(sum.done, 2);
	assert_verdict(f, f->good, "pass");
	strv_free(ids, n);
}

/* --- the round loop (generate/loop.h) over this verify service -------- */

/* What the round loop's hooks heard. */
struct lheard {
	size_t	 asking, answered, stored, verified, passed, added;
	int	 round;
	char	 asked_for[32];
};

static void
l_asking(void *arg, const char *cand_id, int round, const char *feedback)
{
	struct lheard *h = arg;

	assert_non_null(feedback);
	h->asking++;
	h->round = round;
	snprintf(h->asked_for, sizeof h->asked_for, "%s", cand_id);
}

static void
l_answered(void *arg, size_t done, size_t n)
{
	struct lheard *h = arg;

	assert_true(done >= 1 && done <= n);
	h->answered++;
}

static void
l_stored(void *arg, int round, const struct gen_report *rep)
{
	struct lheard *h = arg;

	(void)round;
	h->stored++;
	h->added += rep->added;
}

static void
l_verified(void *arg, int round, const struct gen_report *rep,
    size_t passed, const struct vsvc_summary *vs)
{
	struct lheard *h = arg;

	(void)round;
	(void)rep;
	assert_non_null(vs);
	h->verified++;
	h->passed += passed;
}

/* A command generator that answers the code in file path. */
static void
loop_cfg(struct model_cfg *cfg, const char *path, const char *prefix)
{
	model_cfg_init(cfg);
	cfg->command = xasprintf("%scat %s", prefix, path);
	cfg->model = xstrdup("fixer-t");
}

/* Drive l to its end as the commands do; 0 when it ended. */
static void
loop_run_all(struct gloop *l)
{
	int over = gloop_start(l), rounds = 0;

	while (!over) {
		struct pollfd *fds;
		size_t nfd = gloop_pollfds(l, &fds);
		int t = gloop_timeout_ms(l);

		assert_true(t >= 0 && t <= 1000);
		poll(fds, nfd, t);
		over = gloop_step(l);
		assert_true(++rounds < 100000);
	}
}

/*
 * A repair round: the failed candidate's conversation is asked (on the
 * loop's thread), the answer stored by the decision layer's rule as a
 * repair of it, verified by the verify service in the same poll loop,
 * and, passing, ends the loop after one round of the two allowed.
 */
static void
test_loop_repairs_and_verifies(void **state)
{
	struct fx *f = *state;
	struct vsvc_opts vo = opts(f, 1);
	struct gloop_opts o = { .kind = GLOOP_REPAIR, .rounds = 2, .jobs = 1,
	    .verify = 1 };
	struct lheard h = { 0 };
	struct gloop_hooks hk = { .asking = l_asking, .answered = l_answered,
	    .stored = l_stored, .verified = l_verified, .arg = &h };
	struct model_cfg cfg;
	struct gen_ctx g;
	struct heard vh = { 0 };
	struct gloop *l;
	struct err err;
	char *path = xasprintf("%s/answer.v", f->dir), *ids[1] = { f->bad };
	FILE *fp;

	need_iverilog();
	vo.claim = 0;
	(void)run_batch(f, &vo, ids, 1, &vh);	/* bad fails first */
	assert_verdict(f, f->bad, "fail");
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(good_and, fp);
	fputs("// repaired\n", fp);
	fclose(fp);
	loop_cfg(&cfg, path, "");
	g = (struct gen_ctx){ f->st, &cfg, "tester" };
	o.vo = vo;
	assert_int_equal(gloop_new(&l, &g, &o, &hk, ids, 1, &err), 0);
	loop_run_all(l);
	assert_null(gloop_error(l));
	assert_int_equal(gloop_round(l), 1);	/* it passed: no round 2 */
	assert_int_equal(gloop_total(l)->asked, 1);
	assert_int_equal(gloop_total(l)->added, 1);
	assert_int_equal(gloop_total(l)->failed, 0);
	assert_int_equal(gloop_verify_errors(l), 0);
	gloop_free(l);
	assert_int_equal(h.asking, 1);
	assert_int_equal(h.round, 1);
	assert_string_equal(h.asked_for, f->bad);
	assert_true(h.answered >= 1);
	assert_int_equal(h.stored, 1);
	assert_int_equal(h.verified, 1);
	assert_int_equal(h.passed, 1);
	model_cfg_release(&cfg);
	free(path);
}

/*
 * Freed while its request is being asked (the workbench quitting): the
 * asking thread is left to end by itself and frees what it holds.
 */
static void
test_loop_freed_while_asking(void **state)
{
	struct fx *f = *state;
	struct gloop_opts o = { .kind = GLOOP_GENERATE, .samples = 1,
	    .jobs = 1, .verify = 0 };
	struct model_cfg cfg;
	struct gen_ctx g;
	struct gloop *l;
	struct err err;
	char *path = xasprintf("%s/slow.v", f->dir), *ids[1] = { "local/and2" };
	FILE *fp = fopen(path, "w");

	assert_non_null(fp);
	fputs(good_and, fp);
	fclose(fp);
	loop_cfg(&cfg, path, "sleep 1; ");
	g = (struct gen_ctx){ f->st, &cfg, "tester" };
	assert_int_equal(gloop_new(&l, &g, &o, NULL, ids, 1, &err), 0);
	assert_int_equal(gloop_start(l), 0);
	gloop_free(l);
	model_cfg_release(&cfg);	/* the thread has a copy */
	sleep(2);			/* its answer comes, unread */
	free(path);
}

/*
 * Two batches at once on two threads, each with a store connection of
 * its own (store_open_again): the workbench's :verify thread while `v`
 * runs on the screen's.  Judging (the ERE cache of the verdict lines),
 * the smoke slots and the work directories are shared by the process;
 * each batch must still store its own candidate's verdict, every round.
 */
struct side {
	struct fx	*f;
	char		*id;
	const char	*want;
	int		 rounds, bad;	/* rounds to run; those that went wrong */
};

static void *
side_run(void *arg)
{
	struct side *sd = arg;
	struct store *st;
	struct err err;

	if (store_open_again(sd->f->st, &st, &err) < 0) {
		sd->bad = sd->rounds;
		return NULL;
	}
	for (int r = 0; r < sd->rounds; r++) {
		struct vsvc_opts o = opts(sd->f, 1);
		struct heard h = { 0 };
		struct vsvc_hooks hk = { .problem = on_problem, .arg = &h };
		struct vsvc *s;
		struct run run;
		int over, ok;

		o.force = 1;
		o.claim = 0;
		o.lock_wait_ms = 10000;
		if (vsvc_new(&s, st, &o, &hk, &sd->id, 1, &err) < 0) {
			sd->bad++;
			continue;
		}
		over = vsvc_start(s);
		while (!over) {
			struct pollfd *fds;
			size_t nfd = vsvc_pollfds(s, &fds);

			poll(fds, nfd, vsvc_timeout_ms(s));
			over = vsvc_step(s);
		}
		ok = vsvc_summary(s)->done == 2 && h.problems == 0;
		vsvc_free(s);
		if (ok && store_run_latest(st, sd->id, &run, NULL) == 0) {
			ok = strcmp(run.verdict, sd->want) == 0;
			run_release(&run);
		} else {
			ok = 0;
		}
		sd->bad += !ok;
	}
	store_close(st);
	hash_thread_end();
	return NULL;
}

static void
test_two_threads_at_once(void **state)
{
	struct fx *f = *state;
	struct side a = { .f = f, .id = f->good, .want = "pass", .rounds = 4 };
	struct side b = { .f = f, .id = f->bad, .want = "fail", .rounds = 4 };
	pthread_t ta, tbad;

	need_iverilog();
	assert_int_equal(pthread_create(&ta, NULL, side_run, &a), 0);
	assert_int_equal(pthread_create(&tbad, NULL, side_run, &b), 0);
	pthread_join(ta, NULL);
	pthread_join(tbad, NULL);
	assert_int_equal(a.bad, 0);
	assert_int_equal(b.bad, 0);
	assert_verdict(f, f->good, "pass");
	assert_verdict(f, f->bad, "fail");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tally),
		cmocka_unit_test_setup_teardown(test_secret_in_run_log,
		    fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_two_threads_at_once,
		    fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_reference_first,
		    fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_input_key_skip,
		    fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_reference_unrun,
		    fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_defective_reference,
		    fx_setup, fx_teardown),
		cmocka_unit_test(test_holder_gone),
		cmocka_unit_test_setup_teardown(test_claims,
		    fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_locked_store,
		    fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_locked_store_waits,
		    fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_cancel,
		    fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_pool_bound,
		    fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_load_error,
		    fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_large_batch_prepares_in_steps,
		    fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_loop_repairs_and_verifies,
		    fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_loop_freed_while_asking,
		    fx_setup, fx_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
