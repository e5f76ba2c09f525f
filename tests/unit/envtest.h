/*
 * envtest.h - fixture helpers shared by the env unit tests (test_iverilog.c,
 * test_verilator.c, test_yosys.c): a mkdtemp work directory and the shared
 * data directory, skips when the data or the toolchain is missing, and
 * running a prepared plan here, without a sandbox (fork, chdir to the
 * stage's subdirectory, exec, merged stdout+stderr), before judge().
 * Header-only (static inline) like testlib.h, which it includes.  Include
 * after <cmocka.h>, buf.h, err.h, hash.h, sample.h and envs/env.h.
 */
#ifndef ASSAY_ENVTEST_H
#define ASSAY_ENVTEST_H

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/buf.h"
#include "envs/env.h"
#include "base/err.h"
#include "base/hash.h"
#include "exec/workdir.h"
#include "model/sample.h"
#include "testlib.h"

/* The smallest VerilogEval-style testbench: a result line, a $finish. */
static const char tiny_tb[] =
    "module tb;\n"
    "  initial begin\n"
    "    $display(\"Mismatches: %1d in %1d samples\", 0, 1);\n"
    "    $finish;\n"
    "  end\n"
    "endmodule\n";

/*
 * A testbench that reads its stimulus and expected values from data
 * files at run time, by their bare names, as RTLLM's do: tdata.txt
 * ($readmemh, a data file by its extension) and golden.vh ($fopen and
 * $fscanf; a data file by its role "data" only).  It checks
 * TopModule's y = a + 1 on four inputs.
 */
static const char data_tb[] =
    "module tb;\n"
    "  reg [7:0] a; wire [7:0] y;\n"
    "  reg [7:0] in [0:3];\n"
    "  integer fd, i, want, errors = 0, n = 0;\n"
    "  TopModule dut(.a(a), .y(y));\n"
    "  initial begin\n"
    "    $readmemh(\"tdata.txt\", in);\n"
    "    fd = $fopen(\"golden.vh\", \"r\");\n"
    "    if (fd == 0) begin $display(\"no golden.vh\"); $fatal(1); end\n"
    "    for (i = 0; i < 4; i = i + 1) begin\n"
    "      a = in[i]; #1;\n"
    "      if ($fscanf(fd, \"%h\", want) != 1) $fatal(1);\n"
    "      n = n + 1;\n"
    "      if (y !== want[7:0]) errors = errors + 1;\n"
    "    end\n"
    "    $display(\"Mismatches: %1d in %1d samples\", errors, n);\n"
    "    $finish;\n"
    "  end\n"
    "endmodule\n";
static const char data_tdata[] = "01\n10\n7f\nfe\n";
static const char data_golden[] = "02\n11\n80\nff\n";
static const char data_good[] =
    "module TopModule(input [7:0] a, output [7:0] y);\n"
    "  assign y = a + 1;\n"
    "endmodule\n";

/* The data-file task: tb.sv, tdata.txt and golden.vh (role data). */
static inline void
make_data_task(struct task *t, const char *env)
{
	memset(t, 0, sizeof *t);
	t->id = xstrdup("local/data");
	t->env = xstrdup(env);
	t->env_params = xstrdup("{\"top\":\"tb\"}");
	task_add_file(t, "tb.sv", "testbench", data_tb, strlen(data_tb));
	task_add_file(t, "tdata.txt", "source", data_tdata,
	    strlen(data_tdata));
	task_add_file(t, "golden.vh", "data", data_golden,
	    strlen(data_golden));
}

/*
 * Check what prepare() made of the data-file task in dir: the data files
 * are in run/ (mode 0444) and nowhere else, listed read-only on the last
 * stage only, and their hashes are inputs.
 */
static inline void
assert_data_planned(const char *dir, const struct env_plan *plan)
{
	static const char *const names[] = { "tdata.txt", "golden.vh" };
	const struct env_stage *sim = &plan->stages[plan->nstages - 1];
	struct stat sb;

	assert_string_equal(sim->subdir, "run");
	for (size_t i = 0; i < 2; i++) {
		char *p = xasprintf("%s/run/%s", dir, names[i]);
		char *q = xasprintf("%s/%s", dir, names[i]);
		char *key = xasprintf("\"%s\":", names[i]);

		assert_int_equal(stat(p, &sb), 0);
		assert_int_equal(sb.st_mode & 0777, 0444);
		assert_int_not_equal(stat(q, &sb), 0);
		assert_non_null(sim->ro[i]);
		assert_string_equal(sim->ro[i], names[i]);
		assert_non_null(strstr(buf_str(&plan->inputs), key));
		free(key);
		free(p);
		free(q);
	}
	assert_null(sim->ro[2]);
	for (size_t s = 0; s + 1 < plan->nstages; s++) {
		assert_null(plan->stages[s].ro[0]);
		/* Never compiled. */
		for (size_t i = 0; plan->stages[s].argv[i] != NULL; i++) {
			assert_string_not_equal(plan->stages[s].argv[i],
			    "tdata.txt");
			assert_string_not_equal(plan->stages[s].argv[i],
			    "golden.vh");
		}
	}
}

struct fx {
	char	 dir[64];		/* the work directory */
	char	 data[PATH_MAX];	/* shared data, "" when missing */
	char	*owned[8];		/* freed at teardown (see keep()) */
};

/*
 * The setup of a test of env: a new work directory
 * /tmp/assay-test-ENV-XXXXXX and $ASSAY_SHARED/data (else ../shared/data),
 * "" when that is no directory.  Call from the test's own setup function;
 * fx_teardown() frees it all.
 */
static inline int
fx_init(void **state, const char *env)
{
	struct fx *f = xcalloc(1, sizeof *f);

	snprintf(f->dir, sizeof f->dir, "/tmp/assay-test-%s-XXXXXX", env);
	if (mkdtemp(f->dir) == NULL) {
		free(f);
		return -1;
	}
	shared_data_dir(f->data, sizeof f->data);
	*state = f;
	return 0;
}

static inline int
fx_teardown(void **state)
{
	struct fx *f = *state;

	rm_rf(f->dir);
	for (size_t i = 0; i < sizeof f->owned / sizeof f->owned[0]; i++)
		free(f->owned[i]);
	free(f);
	return 0;
}

/* p, freed at teardown: for strings a failing assert would leak. */
static inline char *
keep(struct fx *f, char *p)
{
	for (size_t i = 0; i < sizeof f->owned / sizeof f->owned[0]; i++) {
		if (f->owned[i] == NULL) {
			f->owned[i] = p;
			return p;
		}
	}
	fail_msg("keep: too many strings");
	return p;
}

/* Skip the test when the shared data is missing. */
static inline void
need_data(struct fx *f)
{
	if (f->data[0] == '\0') {
		print_message("shared data missing (set ASSAY_SHARED);"
		    " skipped\n");
		skip();
	}
}

/* Skip the test when env's toolchain is not installed. */
static inline void
need_tool(const struct env_ops *env)
{
	char ver[256];
	struct err err;

	if (env->toolchain(ver, sizeof ver, &err) < 0) {
		print_message("%s; skipped\n", err.msg);
		skip();
	}
}

static inline void
assert_str(const char *got, const char *want)
{
	if (want == NULL && got == NULL)
		return;
	if (want == NULL)
		fail_msg("want NULL, got \"%s\"", got);
	if (got == NULL)
		fail_msg("want \"%s\", got NULL", want);
	assert_string_equal(got, want);
}

/* A task of env with no files; release with task_release(). */
static inline void
make_task(struct task *t, const char *id, const char *env,
    const char *params)
{
	memset(t, 0, sizeof *t);
	t->id = xstrdup(id);
	t->env = xstrdup(env);
	t->env_params = params != NULL ? xstrdup(params) : NULL;
}

/* A candidate of task with this code; release with candidate_release(). */
static inline void
make_cand(struct candidate *c, const char *task, const char *code)
{
	memset(c, 0, sizeof *c);
	c->id = xstrdup("c0000000");
	c->task_id = xstrdup(task);
	c->origin = xstrdup("test");
	c->kind = xstrdup("direct");
	c->lang = xstrdup("verilog");
	c->code = xstrdup(code);
	c->code_len = strlen(code);
	hash_sha256(c->code, c->code_len, c->code_hash);
}

/* The v2 reference as a candidate: RefModule renamed to TopModule.  New
 * string. */
static inline char *
reference_code(const struct task *t)
{
	const struct task_file *ref = task_file_by_role(t, "reference");
	const char *p;

	assert_non_null(ref);
	p = strstr(ref->data, "module RefModule");
	assert_non_null(p);
	return xasprintf("%.*smodule TopModule%s", (int)(p - ref->data),
	    ref->data, p + strlen("module RefModule"));
}

/*
 * Run argv in dir with stdout and stderr merged into *log (appended); a
 * stage still running after alarm_s seconds is killed (SIGALRM).  With
 * nonce not NULL the stage reads it and a newline from fd ENV_NONCE_FD,
 * as verify.c gives it (env_stage.nonce_fd); with input >= 0, it gets
 * that descriptor as fd ENV_INPUT_FD (env_stage.input).  Returns the
 * exit status, 128 + signal when killed.
 */
static inline int
run_stage_io(const char *dir, char *const argv[], struct buf *log,
    unsigned alarm_s, const char *nonce, int input)
{
	int fds[2], nfd[2] = { -1, -1 }, status;
	char chunk[4096];
	ssize_t n;
	pid_t pid;

	assert_int_equal(pipe(fds), 0);
	if (nonce != NULL) {
		assert_int_equal(pipe(nfd), 0);
		assert_int_equal(write(nfd[1], nonce, strlen(nonce)),
		    (ssize_t)strlen(nonce));
		assert_int_equal(write(nfd[1], "\n", 1), 1);
		close(nfd[1]);
	}
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int in = input >= 0 ? fcntl(input, F_DUPFD, 20) : -1;

		close(fds[0]);
		dup2(fds[1], 1);
		dup2(fds[1], 2);
		close(fds[1]);
		if (nfd[0] >= 0 && nfd[0] != ENV_NONCE_FD) {
			dup2(nfd[0], ENV_NONCE_FD);
			close(nfd[0]);
		}
		if (in >= 0) {
			dup2(in, ENV_INPUT_FD);
			close(in);
		}
		if (chdir(dir) < 0)
			_exit(126);
		alarm(alarm_s);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(fds[1]);
	if (nfd[0] >= 0)
		close(nfd[0]);
	while ((n = read(fds[0], chunk, sizeof chunk)) > 0)
		buf_add(log, chunk, (size_t)n);
	close(fds[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

static inline int
run_stage_nonce(const char *dir, char *const argv[], struct buf *log,
    unsigned alarm_s, const char *nonce)
{
	return run_stage_io(dir, argv, log, alarm_s, nonce, -1);
}

static inline int
run_stage(const char *dir, char *const argv[], struct buf *log,
    unsigned alarm_s)
{
	return run_stage_nonce(dir, argv, log, alarm_s, NULL);
}

/* What verify.c would hand to judge(), after running the plan here. */
struct outcome {
	struct env_plan	 plan;
	struct run	 run;
	struct buf	 logs[ENV_MAX_STAGES];
	size_t		 nres;
};

static inline void
outcome_release(struct outcome *o)
{
	env_plan_release(&o->plan);
	run_release(&o->run);
	for (size_t i = 0; i < ENV_MAX_STAGES; i++)
		buf_release(&o->logs[i]);
}

/*
 * Prepare c for t with env in f->dir, run the stages (alarm_s each) in
 * their subdirectories until one fails, and judge as verify.c would: the
 * run's log is every stage's log in turn.  Fails the test when prepare()
 * fails.  Release o with outcome_release().
 */
/*
 * Files sealed for a plan's stages, as verify.c seals them (env.h,
 * env_stage.seal and use): kept in the fixture's ".seal-test", by name.
 */
struct test_seals {
	char	*store;
	char	 name[ENV_MAX_SEAL * (ENV_MAX_STAGES + 1)][64];
	char	 hex[ENV_MAX_SEAL * (ENV_MAX_STAGES + 1)][HASH_HEX_LEN + 1];
	size_t	 n;
};

/* Seal paths (relative to dir) into ts, as verify.c does. */
static inline void
test_seal(struct test_seals *ts, const char *dir, char *const *paths)
{
	for (size_t i = 0; paths[i] != NULL; i++) {
		const char *name = strrchr(paths[i], '/') != NULL ?
		    strrchr(paths[i], '/') + 1 : paths[i];
		char *dst = xasprintf("%s/%s", ts->store, name);
		struct err err;

		if (workdir_seal(dir, paths[i], dst, (int64_t)64 << 20,
		    ts->hex[ts->n], &err) == 0)
			snprintf(ts->name[ts->n++], sizeof ts->name[0], "%s",
			    name);
		free(dst);
	}
}

/*
 * Where stage k of plan runs, as verify.c decides (new): its subdir, or,
 * when it uses sealed files or comes after a candidate stage, a fresh
 * area in the fixture with those files, checked against their hashes.
 */
static inline char *
test_stage_dir(struct fx *f, const struct env_plan *plan, size_t k,
    struct test_seals *ts)
{
	const struct env_stage *st = &plan->stages[k];
	int area = st->use[0] != NULL || st->input[0] != '\0';
	char *dir;
	struct err err;

	for (size_t i = 0; i < k; i++)
		area |= plan->stages[i].candidate;
	if (!area)
		return st->subdir[0] != '\0' ? xasprintf("%s/%s", f->dir,
		    st->subdir) : xstrdup(f->dir);
	dir = xasprintf("%s/.area-%s", f->dir, st->name);
	if (workdir_fresh_dir(dir, (uid_t)-1, &err) < 0)
		fail_msg("area: %s", err.msg);
	for (size_t i = 0; st->use[i] != NULL; i++)
		for (size_t q = 0; q < ts->n; q++) {
			char *src, *dst;

			if (strcmp(ts->name[q], st->use[i]) != 0)
				continue;
			src = xasprintf("%s/%s", ts->store, ts->name[q]);
			dst = xasprintf("%s/%s", dir, ts->name[q]);
			if (workdir_unseal(src, ts->hex[q], dst, &err) < 0)
				fail_msg("unseal: %s", err.msg);
			free(src);
			free(dst);
		}
	return dir;
}

/* The stage's sealed input, opened as verify.c opens it, or -1. */
static inline int
test_input(const struct test_seals *ts, const struct env_stage *st)
{
	for (size_t q = 0; st->input[0] != '\0' && q < ts->n; q++)
		if (strcmp(ts->name[q], st->input) == 0) {
			char *src = xasprintf("%s/%s", ts->store, ts->name[q]);
			struct err err;
			int fd = workdir_open_sealed(src, ts->hex[q], &err);

			free(src);
			if (fd < 0)
				fail_msg("sealed input: %s", err.msg);
			return fd;
		}
	return -1;
}

static inline void
run_plan(struct fx *f, const struct env_ops *env, const struct task *t,
    const struct candidate *c, unsigned alarm_s, struct outcome *o)
{
	struct env_stage_result res[ENV_MAX_STAGES];
	struct buf all = BUF_INIT;
	struct test_seals ts = { .n = 0 };
	struct err err;

	memset(o, 0, sizeof *o);
	memset(res, 0, sizeof res);
	env_plan_init(&o->plan);
	if (env->prepare(t, c, f->dir, &o->plan, &err) < 0)
		fail_msg("prepare: %s", err.msg);
	ts.store = xasprintf("%s/.seal-test", f->dir);
	workdir_remove(ts.store);
	if (mkdir(ts.store, 0700) < 0)
		fail_msg("mkdir %s", ts.store);
	test_seal(&ts, f->dir, o->plan.seal);
	for (size_t s = 0; s < o->plan.nstages; s++) {
		char *dir = test_stage_dir(f, &o->plan, s, &ts);
		int in = test_input(&ts, &o->plan.stages[s]);

		res[s].ran = 1;
		res[s].exit_code = run_stage_io(dir, o->plan.stages[s].argv,
		    &o->logs[s], alarm_s, o->plan.stages[s].nonce_fd ?
		    o->plan.nonce : NULL, in);
		if (in >= 0)
			close(in);
		o->nres = s + 1;
		if (res[s].exit_code == 0)
			test_seal(&ts, dir, o->plan.stages[s].seal);
		free(dir);
		if (res[s].exit_code != 0)
			break;
	}
	free(ts.store);
	for (size_t s = 0; s < o->nres; s++) {
		res[s].log = buf_str(&o->logs[s]);
		res[s].log_len = o->logs[s].len;
		buf_add(&all, o->logs[s].p != NULL ? o->logs[s].p : "",
		    o->logs[s].len);
	}
	o->run.cand_id = xstrdup(c->id);
	o->run.env = xstrdup(env->name);
	o->run.exit_code = res[o->nres - 1].exit_code;
	o->run.log = buf_detach(&all, &o->run.log_len);
	if (o->run.log == NULL)
		o->run.log = xstrdup("");
	env->judge(t, &o->plan, res, o->nres, ENV_STOP_NONE, &o->run);
}

/* The diagnostic at candidate line n whose message starts with prefix,
 * or NULL. */
static inline const struct diag *
diag_at(const struct run *r, int n, const char *prefix)
{
	for (size_t i = 0; i < r->ndiags; i++)
		if (r->diags[i].cand_line == n &&
		    strncmp(r->diags[i].message, prefix, strlen(prefix)) == 0)
			return &r->diags[i];
	return NULL;
}

/* Print every stage's log: what a failing assert is about. */
static inline void
dump(const struct outcome *o)
{
	for (size_t s = 0; s < o->nres; s++)
		print_message("--- stage %zu\n%s\n", s, buf_str(&o->logs[s]));
}

#endif
