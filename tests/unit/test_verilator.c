/*
 * test_verilator.c - unit tests for the verilator env (cmocka): what
 * prepare() writes and plans, and what judge() makes of real Verilator
 * 5.006 output.
 *
 * Real runs: each candidate is prepared into a mkdtemp work directory, the
 * planned stages are run here without a sandbox (fork, chdir to the
 * stage's subdirectory, exec, merged stdout+stderr) and their logs go to
 * judge().  Lint runs take 0.1 s; the two build-and-run tests
 * (Prob041_dff8r) take about 10 s each, under a second with a warm ccache
 * (the env uses it when installed; here it is the user's own cache).
 * Skipped when verilator (or g++, make) is not installed; the dff8r tests
 * also need ../shared/data.
 */
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "buf.h"
#include "envs/env.h"
#include "err.h"
#include "hash.h"
#include "sample.h"
#include "testlib.h"
#include "envtest.h"

extern const struct env_ops env_verilator;

static int
fx_setup(void **state)
{
	return fx_init(state, "verilator");
}

/* Prepare code for t in f->dir, run the stages until one fails, judge. */
static void
verify_task(struct fx *f, const struct task *t, const char *code,
    struct outcome *o)
{
	struct candidate c;

	make_cand(&c, "local/lint", code);
	run_plan(f, &env_verilator, t, &c, 300, o);	/* a build: 5-110 s */
	candidate_release(&c);
}

/* Lint only: a task with no files. */
static void
lint_here(struct fx *f, const char *code, struct outcome *o)
{
	struct task t;

	make_task(&t, "local/lint", "verilator", "{\"lint_only\":true}");
	verify_task(f, &t, code, o);
	task_release(&t);
}

/* The VerilogEval v2 task prob, as the importer makes it. */
static void
v2_task(struct fx *f, const char *prob, struct task *t)
{
	static const char *const roles[] = { "test", "testbench", "ref",
	    "reference" };

	make_task(t, "local/lint", "verilator", "{\"top\":\"tb\"}");
	for (size_t i = 0; i < 4; i += 2) {
		char *name = xasprintf("%s_%s.sv", prob, roles[i]);
		char *p = xasprintf("%s/verilog-eval-v2/%s", f->data, name);
		char *data = read_text(p);

		task_add_file(t, name, roles[i + 1], data, strlen(data));
		free(data);
		free(p);
		free(name);
	}
}

/* --- prepare ---------------------------------------------------------- */

static void
test_verilator_prepare_plans_lint_build_run(void **state)
{
	struct fx *f = *state;
	static const char *const lint[] = { "verilator", "--lint-only",
	    "--timing", "-Wall", "-Wno-fatal", "-Wno-DECLFILENAME",
	    "--top-module", "top_module", "candidate.sv", NULL };
	static const char *const build[] = { "verilator", "--binary",
	    "--timing", "-Wno-fatal", "-Wno-DECLFILENAME", "--top-module",
	    "tb", "-j", "2", "-Mdir", "obj", "-o", "../run/Vtb", NULL };
	struct env_plan plan;
	struct task t;
	struct candidate c;
	struct err err;
	char **argv, *p, *written, *want;
	size_t i, k;

	make_task(&t, "local/lint", "verilator", NULL);
	task_add_file(&t, "p_test.sv", "testbench", tiny_tb, strlen(tiny_tb));
	task_add_file(&t, "p_ref.sv", "reference", "module RefModule;"
	    " endmodule\n", 28);
	/* No dut_top: the candidate's top_module (v1 / RTLFixer). */
	make_cand(&c, "local/lint", "/* module Fake; */\nmodule"
	    " top_module(input a, output y); assign y = a; endmodule\n");
	env_plan_init(&plan);
	assert_int_equal(env_verilator.prepare(&t, &c, f->dir, &plan, &err),
	    0);
	assert_int_equal(plan.nstages, 3);
	assert_int_equal(plan.timeout_s, 300);
	assert_string_equal(plan.cand_file, "candidate.sv");
	assert_true(strlen(plan.nonce) >= 8);
	assert_true(plan.finish_tagged);
	assert_string_equal(plan.stages[0].name, "lint");
	for (i = 0; lint[i] != NULL; i++)
		assert_string_equal(plan.stages[0].argv[i], lint[i]);
	assert_null(plan.stages[0].argv[i]);
	assert_string_equal(plan.stages[1].name, "build");
	argv = plan.stages[1].argv;
	for (i = 0; build[i] != NULL; i++)
		assert_string_equal(argv[i], build[i]);
	if (access("/usr/bin/ccache", X_OK) == 0) {
		assert_string_equal(argv[i], "-MAKEFLAGS");
		assert_string_equal(argv[i + 1], "OBJCACHE=ccache");
		i += 2;
	}
	assert_string_equal(argv[i], "candidate.sv");
	assert_string_equal(argv[i + 1], "p_test.sv");
	assert_string_equal(argv[i + 2], "p_ref.sv");
	assert_null(argv[i + 3]);
	assert_string_equal(plan.stages[2].name, "simulate");
	assert_string_equal(plan.stages[2].subdir, "run");
	assert_string_equal(plan.stages[2].argv[0], "./Vtb");
	assert_null(plan.stages[2].argv[1]);

	/* Our copy of the testbench carries the nonce; inputs name the
	 * task's own file. */
	p = xasprintf("%s/p_test.sv", f->dir);
	written = read_text(p);
	free(p);
	want = xasprintf("$display(\"%s Mismatches: %%1d in %%1d samples\"",
	    plan.nonce);
	assert_non_null(strstr(written, want));
	free(want);
	want = xasprintf("begin $display(\"%s finish\"); $finish; end",
	    plan.nonce);
	assert_non_null(strstr(written, want));
	free(want);
	free(written);
	{
		char h_tb[HASH_HEX_LEN + 1];

		hash_sha256(tiny_tb, strlen(tiny_tb), h_tb);
		want = xasprintf("\"p_test.sv\":\"%s\"", h_tb);
		assert_non_null(strstr(buf_str(&plan.inputs), want));
		free(want);
	}
	env_plan_release(&plan);
	task_release(&t);

	/* lint_only: one stage, the task files are not written; dut_top. */
	rm_rf(f->dir);
	assert_int_equal(mkdir(f->dir, 0700), 0);
	make_task(&t, "local/lint", "verilator",
	    "{\"lint_only\":true,\"dut_top\":\"alu\"}");
	task_add_file(&t, "p_test.sv", "testbench", tiny_tb, strlen(tiny_tb));
	env_plan_init(&plan);
	assert_int_equal(env_verilator.prepare(&t, &c, f->dir, &plan, &err),
	    0);
	assert_int_equal(plan.nstages, 1);
	assert_string_equal(plan.stages[0].argv[7], "alu");
	assert_string_equal(plan.nonce, "");
	p = xasprintf("%s/p_test.sv", f->dir);
	k = (size_t)(access(p, F_OK) == 0);
	free(p);
	assert_int_equal(k, 0);
	env_plan_release(&plan);
	task_release(&t);
	candidate_release(&c);
}

/* --- real lint runs --------------------------------------------------- */

static void
test_verilator_dff8r_reference_lints_clean(void **state)
{
	struct fx *f = *state;
	struct outcome o;
	struct task t;
	char *code;

	need_data(f);
	need_tool(&env_verilator);
	v2_task(f, "Prob041_dff8r", &t);
	code = reference_code(&t);
	task_release(&t);
	lint_here(f, code, &o);
	free(code);
	assert_int_equal(o.nres, 1);
	assert_str(o.run.verdict, "pass");
	assert_str(o.run.stage, "lint");
	assert_str(o.run.metrics, "{\"warnings\":0}");
	assert_int_equal(o.run.ndiags, 0);
	outcome_release(&o);
}

static const char truncating[] =
    "module TopModule (\n"
    "  input [7:0] a,\n"
    "  output [3:0] y\n"
    ");\n"
    "  assign y = a;\n"
    "endmodule\n";

static void
test_verilator_width_warning_on_its_line(void **state)
{
	struct fx *f = *state;
	struct outcome o;
	const struct diag *d;

	need_tool(&env_verilator);
	lint_here(f, truncating, &o);
	/* Warnings do not fail lint (-Wno-fatal); they are diagnostics. */
	assert_str(o.run.verdict, "pass");
	assert_str(o.run.metrics, "{\"warnings\":2}");
	d = diag_at(&o.run, 5, "WIDTH: ");
	if (d == NULL)
		dump(&o);
	assert_non_null(d);
	assert_string_equal(d->file, "candidate.sv");
	assert_int_equal(d->line, 5);
	assert_int_equal(d->col, 12);
	assert_string_equal(d->severity, "warning");
	assert_string_equal(d->message, "WIDTH: Operator ASSIGNW expects 4 bits"
	    " on the Assign RHS, but Assign RHS's VARREF 'a' generates 8"
	    " bits.");
	d = diag_at(&o.run, 2, "UNUSEDSIGNAL: ");
	assert_non_null(d);
	outcome_release(&o);
}

static const char syntax_error[] =
    "module TopModule (\n"
    "  input [7:0] a,\n"
    "  output [3:0] y\n"
    ");\n"
    "  assign y = a +;\n"
    "endmodule\n";

static void
test_verilator_syntax_error_fails_lint(void **state)
{
	struct fx *f = *state;
	struct task t;
	struct outcome o;
	const struct diag *d;

	need_tool(&env_verilator);
	/* Not lint_only: the lint error stops the run before the build. */
	make_task(&t, "local/lint", "verilator", NULL);
	task_add_file(&t, "p_test.sv", "testbench", tiny_tb, strlen(tiny_tb));
	verify_task(f, &t, syntax_error, &o);
	task_release(&t);
	assert_int_equal(o.nres, 1);
	assert_str(o.run.verdict, "fail");
	assert_str(o.run.stage, "lint");
	assert_str(o.run.category, "compile");
	assert_str(o.run.subcategory, "syntax-error");
	assert_str(o.run.evidence, "%Error: candidate.sv:5:17: syntax error,"
	    " unexpected ';', expecting TYPE-IDENTIFIER");
	d = diag_at(&o.run, 5, "syntax error");
	assert_non_null(d);
	assert_string_equal(d->severity, "error");
	assert_int_equal(d->col, 17);
	/* "Exiting due to 1 error(s)" is no diagnostic. */
	assert_int_equal(o.run.ndiags, 1);
	outcome_release(&o);
}

static void
test_verilator_malformed_literal_and_missing_top(void **state)
{
	struct fx *f = *state;
	struct outcome o;

	need_tool(&env_verilator);
	lint_here(f, "module TopModule(input clk, output reg [1:0] q);\n"
	    "  always @(posedge clk) q <= 2'b100;\nendmodule\n", &o);
	assert_str(o.run.verdict, "fail");
	assert_str(o.run.subcategory, "malformed-literal");
	assert_non_null(diag_at(&o.run, 2, "Too many digits"));
	outcome_release(&o);

	rm_rf(f->dir);
	assert_int_equal(mkdir(f->dir, 0700), 0);
	{
		struct task t;

		make_task(&t, "local/lint", "verilator",
		    "{\"lint_only\":true,\"dut_top\":\"TopModule\"}");
		verify_task(f, &t, "module Other(input a, output y);\n"
		    "  assign y = a;\nendmodule\n", &o);
		task_release(&t);
	}
	assert_str(o.run.verdict, "fail");
	assert_str(o.run.category, "format");
	assert_str(o.run.subcategory, "missing-top");
	outcome_release(&o);
}

/* #delay and event controls lint with --timing (no NEEDTIMINGOPT). */
static void
test_verilator_delays_lint_with_timing(void **state)
{
	struct fx *f = *state;
	struct outcome o;

	need_tool(&env_verilator);
	lint_here(f, "module TopModule(input clk, output reg q);\n"
	    "  initial begin q = 0; #5 q = 1; end\n"
	    "endmodule\n", &o);
	for (size_t i = 0; i < o.run.ndiags; i++)
		assert_null(strstr(o.run.diags[i].message, "NEEDTIMINGOPT"));
	assert_str(o.run.verdict, "pass");
	outcome_release(&o);
}

/* --- real build-and-run of Prob041_dff8r ------------------------------ */

static void
test_verilator_dff8r_reference_passes(void **state)
{
	struct fx *f = *state;
	struct outcome o;
	struct task t;
	char *code;

	need_data(f);
	need_tool(&env_verilator);
	v2_task(f, "Prob041_dff8r", &t);
	code = reference_code(&t);
	verify_task(f, &t, code, &o);
	free(code);
	task_release(&t);
	if (strcmp(o.run.verdict, "pass") != 0)
		dump(&o);
	assert_int_equal(o.nres, 3);
	assert_str(o.run.verdict, "pass");
	assert_str(o.run.stage, "simulate");
	assert_str(o.run.metrics, "{\"mismatches\":0,\"total\":432,"
	    "\"warnings\":0}");
	assert_null(o.run.category);
	assert_non_null(strstr(o.logs[2].p, " Mismatches: 0 in 432 samples"));
	outcome_release(&o);
}

static const char dff8r_no_reset[] =
    "module TopModule (\n"
    "  input clk,\n"
    "  input [7:0] d,\n"
    "  input reset,\n"
    "  output reg [7:0] q\n"
    ");\n"
    "  always @(posedge clk)\n"
    "    q <= d;\n"
    "endmodule\n";

static void
test_verilator_dff8r_mismatches(void **state)
{
	struct fx *f = *state;
	struct outcome o;
	struct task t;

	need_data(f);
	need_tool(&env_verilator);
	v2_task(f, "Prob041_dff8r", &t);
	verify_task(f, &t, dff8r_no_reset, &o);
	task_release(&t);
	if (o.nres != 3)
		dump(&o);
	assert_int_equal(o.nres, 3);
	assert_str(o.run.verdict, "fail");
	assert_str(o.run.stage, "simulate");
	assert_str(o.run.category, "functional");
	assert_str(o.run.subcategory, "mismatch");
	/*
	 * Counted by hand from ./obj/Vtb on the same files: 32 under
	 * Verilator 5.006, where Icarus Verilog 11 counts 46 (the
	 * simulators differ, see ../shared/data/README.md).  The unused
	 * reset input is lint's one warning.
	 */
	assert_str(o.run.metrics, "{\"mismatches\":32,\"total\":432,"
	    "\"warnings\":1}");
	assert_non_null(strstr(o.run.evidence, "Hint: Output 'q' has 32"
	    " mismatches."));
	assert_non_null(diag_at(&o.run, 4, "UNUSEDSIGNAL: "));
	outcome_release(&o);
}

/* --- judge without running ------------------------------------------ */

/* The build stage's log, after a clean lint, judged. */
static void
judge_build_log(const char *log, int code, enum env_stop stop,
    struct run *r)
{
	static const char *const none[] = { "true", NULL };
	struct env_plan plan;
	struct env_stage_result res[2];
	struct task t = { 0 };

	env_plan_init(&plan);
	plan.cand_file = xstrdup("candidate.sv");
	env_plan_stage(&plan, "lint", none);
	env_plan_stage(&plan, "build", none);
	env_plan_stage(&plan, "simulate", none);
	memset(res, 0, sizeof res);
	res[0].ran = res[1].ran = 1;
	res[0].log = "";
	res[1].exit_code = code;
	res[1].log = log;
	res[1].log_len = strlen(log);
	memset(r, 0, sizeof *r);
	env_verilator.judge(&t, &plan, res, 2, stop, r);
	env_plan_release(&plan);
}

static void
test_verilator_judge_build_failures(void **state)
{
	struct run r;

	(void)state;
	/* toolchains.md: a port the module does not have. */
	judge_build_log("%Warning-PINMISSING: tb.sv:2:20: Cell has missing"
	    " pin: 'rst'\n"
	    "%Error-PINNOTFOUND: tb.sv:2:35: Pin not found: 'reset'\n"
	    "                   : ... Suggested alternative: 'rst'\n"
	    "%Error: Exiting due to 1 error(s)\n", 1, ENV_STOP_NONE, &r);
	assert_str(r.verdict, "fail");
	assert_str(r.stage, "build");
	assert_str(r.category, "compile");
	assert_str(r.subcategory, "port-mismatch");
	assert_str(r.evidence, "%Error-PINNOTFOUND: tb.sv:2:35: Pin not"
	    " found: 'reset'");
	assert_int_equal(r.ndiags, 2);
	assert_string_equal(r.diags[0].message, "PINMISSING: Cell has missing"
	    " pin: 'rst'");
	assert_int_equal(r.diags[0].cand_line, 0);
	assert_int_equal(r.diags[1].col, 35);
	run_release(&r);

	/* Only Verilator's own limitations: not the candidate's fault. */
	judge_build_log("%Error-UNSUPPORTED: candidate.sv:3:5: Unsupported:"
	    " something\n%Error: Exiting due to 1 error(s)\n", 1,
	    ENV_STOP_NONE, &r);
	assert_str(r.verdict, "env-error");
	assert_str(r.subcategory, "toolchain-limitation");
	assert_int_equal(r.diags[0].cand_line, 3);
	run_release(&r);

	/* The C++ compiler failed: Verilator had accepted the design. */
	judge_build_log("make: g++: No such file or directory\n", 2,
	    ENV_STOP_NONE, &r);
	assert_str(r.verdict, "env-error");
	assert_str(r.subcategory, "build-failed");
	run_release(&r);

	judge_build_log("g++: fatal error: Killed signal terminated program"
	    " cc1plus\nvirtual memory exhausted: Cannot allocate memory\n", 2,
	    ENV_STOP_NONE, &r);
	assert_str(r.verdict, "fail");
	assert_str(r.subcategory, "resource-limit");
	run_release(&r);

	/* Of the testbench's build warnings only port connections stay. */
	judge_build_log("%Warning-WIDTH: tb.sv:53:5: Operator ASSIGNDLY expects"
	    " 8 bits on the Assign RHS, but Assign RHS's RAND generates 32"
	    " bits.\n"
	    "%Warning-WIDTH: tb.sv:2:58: Output port connection 'q' expects 16"
	    " bits on the pin connection, but pin connection's VARREF 'q'"
	    " generates 8 bits.\n"
	    "%Warning-UNUSEDSIGNAL: candidate.sv:4:9: Signal is not used:"
	    " 'reset'\n"
	    "%Error: candidate.sv:9:3: Can't find definition of variable:"
	    " 'qq'\n", 1, ENV_STOP_NONE, &r);
	assert_int_equal(r.ndiags, 2);
	assert_int_equal(r.diags[0].line, 2);
	assert_int_equal(r.diags[0].cand_line, 0);
	assert_int_equal(r.diags[1].cand_line, 9);
	assert_str(r.subcategory, "unable-to-bind");
	run_release(&r);

	judge_build_log("", 128 + SIGKILL, ENV_STOP_TIMEOUT, &r);
	assert_str(r.verdict, "timeout");
	assert_str(r.stage, "build");
	assert_str(r.category, "compile");
	run_release(&r);
}

#define FX_TEST(t) cmocka_unit_test_setup_teardown(t, fx_setup, fx_teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		FX_TEST(test_verilator_prepare_plans_lint_build_run),
		FX_TEST(test_verilator_dff8r_reference_lints_clean),
		FX_TEST(test_verilator_width_warning_on_its_line),
		FX_TEST(test_verilator_syntax_error_fails_lint),
		FX_TEST(test_verilator_malformed_literal_and_missing_top),
		FX_TEST(test_verilator_delays_lint_with_timing),
		FX_TEST(test_verilator_dff8r_reference_passes),
		FX_TEST(test_verilator_dff8r_mismatches),
		cmocka_unit_test(test_verilator_judge_build_failures),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
