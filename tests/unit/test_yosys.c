/*
 * test_yosys.c - unit tests for the yosys env (cmocka): what prepare()
 * writes and plans, and what judge() makes of real yosys 0.23 output.
 *
 * Real runs: each candidate is prepared into a mkdtemp work directory, the
 * planned stages are run here without a sandbox (fork, chdir, exec, merged
 * stdout+stderr) and their logs go to judge().  Skipped when yosys is not
 * installed; the dff8r test also needs ../shared/data.
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

#include "base/buf.h"
#include "envs/env.h"
#include "base/err.h"
#include "base/hash.h"
#include "model/sample.h"
#include "testlib.h"
#include "envtest.h"

extern const struct env_ops env_yosys;

static int
fx_setup(void **state)
{
	return fx_init(state, "yosys");
}

/* Prepare code for a task with params in f->dir, run the stages until
 * one fails, judge. */
static void
verify_here(struct fx *f, const char *params, const char *code,
    struct outcome *o)
{
	struct task t;
	struct candidate c;

	make_task(&t, "local/synth", "yosys", params);
	make_cand(&c, "local/synth", code);
	run_plan(f, &env_yosys, &t, &c, 60, o);
	task_release(&t);
	candidate_release(&c);
}

/* verify_here() for a task with no env_params whose interface is
 * interface. */
static void
verify_named(struct fx *f, const char *interface, const char *code,
    struct outcome *o)
{
	struct task t;
	struct candidate c;

	make_task(&t, "local/synth", "yosys", NULL);
	t.interface = xstrdup(interface);
	make_cand(&c, "local/synth", code);
	run_plan(f, &env_yosys, &t, &c, 60, o);
	task_release(&t);
	candidate_release(&c);
}

/* --- prepare ---------------------------------------------------------- */

static void
test_yosys_prepare_plans_synth_and_area(void **state)
{
	struct fx *f = *state;
	struct env_plan plan;
	struct task t;
	struct candidate c;
	struct err err;
	char *p, *lib, *want, h_par[HASH_HEX_LEN + 1];
	char h_lib[HASH_HEX_LEN + 1];

	make_task(&t, "local/synth", "yosys", "{\"timeout_s\":20}");
	/* No top given: the candidate's top_module (v1 / RTLFixer). */
	make_cand(&c, t.id, "// module Fake;\nmodule helper(); endmodule\n"
	    "module top_module(input a, output y); assign y = a;"
	    " endmodule\n");
	env_plan_init(&plan);
	assert_int_equal(env_yosys.prepare(&t, &c, f->dir, &plan, &err), 0);
	assert_int_equal(plan.nstages, 4);
	assert_int_equal(plan.timeout_s, 20);
	assert_string_equal(plan.cand_file, "candidate.sv");
	assert_string_equal(plan.nonce, "");
	assert_string_equal(plan.stages[0].name, "synth");
	assert_string_equal(plan.stages[0].argv[0], "yosys");
	assert_string_equal(plan.stages[0].argv[1], "-q");
	assert_string_equal(plan.stages[0].argv[2], "-W");
	assert_string_equal(plan.stages[0].argv[3], "Latch inferred for"
	    " signal");
	assert_string_equal(plan.stages[0].argv[4], "-p");
	assert_string_equal(plan.stages[0].argv[5], "read_verilog -sv"
	    " candidate.sv; hierarchy -check -top top_module; proc;"
	    " rename -src; check -assert; synth -top top_module;"
	    " tee -q -o stat.txt stat; check -assert; write_rtlil"
	    " synth.il");
	/* translate_off would hide code from the synthesis only. */
	assert_string_equal(plan.stages[0].argv[6], "-e");
	assert_null(plan.stages[0].argv[8]);
	assert_string_equal(plan.stages[1].name, "stat");
	assert_string_equal(plan.stages[1].argv[0], "cat");
	assert_string_equal(plan.stages[1].argv[1], "stat.txt");
	assert_null(plan.stages[1].argv[2]);
	assert_string_equal(plan.stages[2].name, "area");
	assert_string_equal(plan.stages[2].argv[3], "read_rtlil synth.il;"
	    " dfflibmap -liberty cmos_cells.lib; abc -liberty cmos_cells.lib;"
	    " opt_clean; tee -q -o area.txt stat -liberty cmos_cells.lib");
	assert_string_equal(plan.stages[3].name, "area-stat");
	assert_string_equal(plan.stages[3].argv[1], "area.txt");

	/* The embedded liberty file is share/cmos_cells.lib (from the
	 * repository root, where make runs the tests). */
	p = xasprintf("%s/cmos_cells.lib", f->dir);
	lib = read_text(p);
	free(p);
	if (access("share/cmos_cells.lib", R_OK) == 0) {
		char *share = read_text("share/cmos_cells.lib");

		assert_string_equal(lib, share);
		free(share);
	}
	hash_sha256(lib, strlen(lib), h_lib);
	hash_sha256(t.env_params, strlen(t.env_params), h_par);
	want = xasprintf("{\"candidate.sv\":\"%s\",\"cmos_cells.lib\":\"%s\","
	    "\"env_params\":\"%s\"", c.code_hash, h_lib, h_par);
	assert_string_equal(buf_str(&plan.inputs), want);
	free(want);
	free(lib);
	env_plan_release(&plan);
	task_release(&t);
	candidate_release(&c);
}

static void
test_yosys_prepare_liberty_and_top_params(void **state)
{
	struct fx *f = *state;
	struct env_plan plan;
	struct task t;
	struct candidate c;
	struct err err;

	make_task(&t, "local/synth", "yosys",
	    "{\"top\":\"alu\",\"liberty\":\"my.lib\"}");
	task_add_file(&t, "my.lib", "source", "library(x) { }\n", 15);
	make_cand(&c, t.id, "module alu(); endmodule\n");
	env_plan_init(&plan);
	assert_int_equal(env_yosys.prepare(&t, &c, f->dir, &plan, &err), 0);
	assert_non_null(strstr(plan.stages[0].argv[5], "synth -top alu;"));
	assert_non_null(strstr(plan.stages[2].argv[3], "abc -liberty"
	    " my.lib;"));
	env_plan_release(&plan);
	task_release(&t);

	/* A liberty file the task does not have. */
	rm_rf(f->dir);
	assert_int_equal(mkdir(f->dir, 0700), 0);
	make_task(&t, "local/synth", "yosys", "{\"liberty\":\"none.lib\"}");
	env_plan_init(&plan);
	err_clear(&err);
	assert_int_equal(env_yosys.prepare(&t, &c, f->dir, &plan, &err), -1);
	assert_non_null(strstr(err.msg, "none.lib"));
	env_plan_release(&plan);
	task_release(&t);

	/* A top that would split the script. */
	make_task(&t, "local/synth", "yosys", "{\"top\":\"x; exec\"}");
	env_plan_init(&plan);
	err_clear(&err);
	assert_int_equal(env_yosys.prepare(&t, &c, f->dir, &plan, &err), -1);
	env_plan_release(&plan);
	task_release(&t);
	candidate_release(&c);
}

/* --- real runs ------------------------------------------------------- */

static void
test_yosys_dff8r_reference_passes(void **state)
{
	struct fx *f = *state;
	struct outcome o;
	char *path, *ref, *code, *p;

	need_tool(&env_yosys);
	need_data(f);
	path = xasprintf("%s/verilog-eval-v2/Prob041_dff8r_ref.sv", f->data);
	ref = read_text(path);
	free(path);
	p = strstr(ref, "module RefModule");
	assert_non_null(p);
	code = xasprintf("%.*smodule TopModule%s", (int)(p - ref), ref,
	    p + strlen("module RefModule"));
	free(ref);
	verify_here(f, NULL, code, &o);
	free(code);
	if (strcmp(o.run.verdict, "pass") != 0)
		dump(&o);
	assert_int_equal(o.nres, 4);
	assert_str(o.run.verdict, "pass");
	assert_str(o.run.stage, "area");
	/*
	 * Measured by hand with yosys 0.23: `synth -top TopModule; stat`
	 * gives 8 cells (8 $_SDFF_PP0_); after dfflibmap + abc with
	 * cmos_cells.lib, 24 cells (8 DFF, 8 NOR, 8 NOT) and
	 * "Chip area for module '\TopModule': 200.000000".
	 */
	assert_str(o.run.metrics, "{\"cells\":8,\"area\":200.0,"
	    "\"mapped_cells\":24}");
	assert_null(o.run.category);
	assert_int_equal(o.run.ndiags, 0);
	outcome_release(&o);
}

static const char async_reset[] =
    "module TopModule (input clk, input areset, input [3:0] d,\n"
    "    output reg [3:0] q);\n"
    "  always @(posedge clk or posedge areset)\n"
    "    if (areset) q <= 0; else q <= d;\n"
    "endmodule\n";

/* Async reset flops map onto DFFSR: 4 x 18 (measured by hand). */
static void
test_yosys_async_reset_has_area(void **state)
{
	struct fx *f = *state;
	struct outcome o;

	need_tool(&env_yosys);
	verify_here(f, NULL, async_reset, &o);
	assert_str(o.run.verdict, "pass");
	assert_str(o.run.metrics, "{\"cells\":4,\"area\":72.0,"
	    "\"mapped_cells\":4}");
	outcome_release(&o);
}

static const char two_drivers[] =
    "module TopModule (\n"
    "  input a,\n"
    "  input b,\n"
    "  output y\n"
    ");\n"
    "  assign y = a & b;\n"
    "  assign y = a | b;\n"
    "endmodule\n";

static void
test_yosys_multiple_drivers_fail_check(void **state)
{
	struct fx *f = *state;
	struct outcome o;
	const struct diag *d6, *d7;

	need_tool(&env_yosys);
	verify_here(f, NULL, two_drivers, &o);
	assert_int_equal(o.nres, 1);
	assert_str(o.run.verdict, "fail");
	assert_str(o.run.stage, "synth");
	assert_str(o.run.category, "compile");
	assert_str(o.run.subcategory, "multiple-drivers");
	assert_non_null(strstr(o.run.evidence, "Warning: multiple conflicting"
	    " drivers for TopModule."));
	/* The drivers are the cells of lines 6 and 7. */
	d6 = diag_at(&o.run, 6, "multiple conflicting drivers");
	d7 = diag_at(&o.run, 7, "multiple conflicting drivers");
	if (d6 == NULL || d7 == NULL)
		dump(&o);
	assert_non_null(d6);
	assert_non_null(d7);
	assert_string_equal(d6->severity, "error");
	assert_string_equal(d6->file, "candidate.sv");
	assert_null(o.run.metrics);	/* it stopped before stat */
	outcome_release(&o);
}

static const char latch[] =
    "module TopModule (\n"
    "  input en,\n"
    "  input d,\n"
    "  output reg q\n"
    ");\n"
    "  always @(*)\n"
    "    if (en)\n"
    "      q = d;\n"
    "endmodule\n";

static void
test_yosys_latch_is_reported(void **state)
{
	struct fx *f = *state;
	struct outcome o;
	const struct diag *d;

	need_tool(&env_yosys);
	verify_here(f, NULL, latch, &o);
	/* A latch synthesises: a pass with a warning on the always block. */
	assert_str(o.run.verdict, "pass");
	d = diag_at(&o.run, 6, "Latch inferred for signal");
	if (d == NULL)
		dump(&o);
	assert_non_null(d);
	assert_string_equal(d->severity, "warning");
	/* The latch has no liberty cell, and yosys then prints no area. */
	assert_str(o.run.metrics, "{\"cells\":1,\"latches\":1,"
	    "\"mapped_cells\":1,\"unmapped_cells\":1}");
	assert_non_null(diag_at(&o.run, 0, "some cells have no cell in the"));
	outcome_release(&o);
}

static const char while_loop[] =
    "module TopModule (\n"
    "  input [7:0] a,\n"
    "  output reg [3:0] n\n"
    ");\n"
    "  reg [7:0] t;\n"
    "  always @(*) begin\n"
    "    t = a; n = 0;\n"
    "    while (t != 0) begin\n"
    "      t = t >> 1;\n"
    "      n = n + 1;\n"
    "    end\n"
    "  end\n"
    "endmodule\n";

static void
test_yosys_while_loop_is_unsynthesizable(void **state)
{
	struct fx *f = *state;
	struct outcome o;

	need_tool(&env_yosys);
	verify_here(f, NULL, while_loop, &o);
	assert_str(o.run.verdict, "fail");
	assert_str(o.run.category, "compile");
	assert_str(o.run.subcategory, "unsynthesizable");
	/* yosys 0.23 prints line 0 for this error: no candidate line. */
	assert_str(o.run.evidence, "candidate.sv:0: ERROR: While loops are"
	    " only allowed in constant functions!");
	assert_non_null(diag_at(&o.run, 0, "While loops are only allowed"));
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
test_yosys_syntax_error(void **state)
{
	struct fx *f = *state;
	struct outcome o;
	const struct diag *d;

	need_tool(&env_yosys);
	verify_here(f, NULL, syntax_error, &o);
	assert_str(o.run.verdict, "fail");
	assert_str(o.run.stage, "synth");
	assert_str(o.run.category, "compile");
	assert_str(o.run.subcategory, "syntax-error");
	d = diag_at(&o.run, 5, "syntax error");
	assert_non_null(d);
	assert_string_equal(d->severity, "error");
	assert_int_equal(d->line, 5);
	outcome_release(&o);
}

static void
test_yosys_missing_top_is_format(void **state)
{
	struct fx *f = *state;
	struct outcome o;

	need_tool(&env_yosys);
	verify_here(f, "{\"top\":\"TopModule\"}",
	    "module Other(input a, output y); assign y = a; endmodule\n", &o);
	assert_str(o.run.verdict, "fail");
	assert_str(o.run.category, "format");
	assert_str(o.run.subcategory, "missing-top");
	assert_str(o.run.evidence, "ERROR: Module `TopModule' not found!");
	outcome_release(&o);

	/* No top named by the task: a candidate without the interface's
	 * module is still missing it, not judged by its own first module
	 * (a tester saw it pass with 0 cells). */
	rm_rf(f->dir);
	assert_int_equal(mkdir(f->dir, 0700), 0);
	verify_here(f, "{}",
	    "module Other(input a, output y); assign y = a; endmodule\n", &o);
	assert_str(o.run.verdict, "fail");
	assert_str(o.run.category, "format");
	assert_str(o.run.subcategory, "missing-top");
	outcome_release(&o);
	/* Issue 22 item 8: a task whose interface names its module (an
	 * RTLLM alu) synthesises that module, not TopModule. */
	rm_rf(f->dir);
	assert_int_equal(mkdir(f->dir, 0700), 0);
	verify_named(f, "module alu(input a, output y);",
	    "module alu(input a, output y); assign y = ~a; endmodule\n", &o);
	assert_str(o.run.verdict, "pass");
	outcome_release(&o);
	rm_rf(f->dir);
	assert_int_equal(mkdir(f->dir, 0700), 0);
	verify_named(f, "module alu(input a, output y);",
	    "module alu32(input a, output y); assign y = ~a; endmodule\n",
	    &o);
	assert_str(o.run.subcategory, "missing-top");
	assert_str(o.run.evidence, "ERROR: Module `alu' not found!");
	outcome_release(&o);
}

static const char undriven[] =
    "module TopModule(input a, output y, output z);\n"
    "  assign y = a;\n"
    "endmodule\n";

static void
test_yosys_undriven_output_fails(void **state)
{
	struct fx *f = *state;
	struct outcome o;

	need_tool(&env_yosys);
	verify_here(f, NULL, undriven, &o);
	assert_str(o.run.verdict, "fail");
	assert_str(o.run.subcategory, "undriven");
	assert_str(o.run.evidence, "Warning: Wire TopModule.\\z is used but"
	    " has no driver.");
	outcome_release(&o);
}

static void
test_yosys_logic_loop_and_unknown_module(void **state)
{
	struct fx *f = *state;
	struct outcome o;

	need_tool(&env_yosys);
	verify_here(f, NULL, "module TopModule(input a, output y);\n"
	    "  wire w;\n"
	    "  assign w = ~w & a;\n"
	    "  assign y = w;\n"
	    "endmodule\n", &o);
	assert_str(o.run.verdict, "fail");
	assert_str(o.run.subcategory, "combinational-loop");
	assert_str(o.run.evidence, "Warning: found logic loop in module"
	    " TopModule:");
	assert_non_null(diag_at(&o.run, 3, "found logic loop"));
	outcome_release(&o);

	rm_rf(f->dir);
	assert_int_equal(mkdir(f->dir, 0700), 0);
	verify_here(f, NULL, "module TopModule(input a, output y);\n"
	    "  sub u0(.a(a), .y(y));\n"
	    "endmodule\n", &o);
	assert_str(o.run.verdict, "fail");
	assert_str(o.run.category, "compile");
	assert_str(o.run.subcategory, "unknown-module");
	outcome_release(&o);
}

/* --- judge without running ------------------------------------------ */

static void
judge_log(const char *log, int code, enum env_stop stop, struct run *r)
{
	struct env_plan plan;
	struct env_stage_result res;
	struct task t = { 0 };

	env_plan_init(&plan);
	plan.cand_file = xstrdup("candidate.sv");
	memset(&res, 0, sizeof res);
	res.ran = 1;
	res.exit_code = code;
	res.log = log;
	res.log_len = strlen(log);
	memset(r, 0, sizeof *r);
	env_yosys.judge(&t, &plan, &res, 1, stop, r);
	env_plan_release(&plan);
}

static void
test_yosys_judge_limits_and_missing_tool(void **state)
{
	struct run r;

	(void)state;
	judge_log("", 127, ENV_STOP_NONE, &r);
	assert_str(r.verdict, "env-error");
	assert_str(r.subcategory, "toolchain-missing");
	run_release(&r);

	judge_log("", 128 + SIGKILL, ENV_STOP_TIMEOUT, &r);
	assert_str(r.verdict, "timeout");
	run_release(&r);

	judge_log("x\n", 128 + SIGKILL, ENV_STOP_OUTPUT, &r);
	assert_str(r.verdict, "fail");
	assert_str(r.subcategory, "output-limit");
	run_release(&r);

	judge_log("", 128 + SIGSEGV, ENV_STOP_NONE, &r);
	assert_str(r.verdict, "env-error");
	assert_str(r.subcategory, "toolchain-crash");
	run_release(&r);

	/* A failure with no message is still the candidate's. */
	judge_log("", 1, ENV_STOP_NONE, &r);
	assert_str(r.verdict, "fail");
	assert_str(r.subcategory, "other");
	run_release(&r);

	/* Two drivers fail even when the stage itself passed. */
	judge_log("Warning: multiple conflicting drivers for TopModule.\\y:\n"
	    "    port Y[0] of cell $and$candidate.sv:6$1 ($and)\n"
	    "    port Y[0] of cell $or$candidate.sv:7$2 ($or)\n"
	    "   Number of cells:                  2\n", 0, ENV_STOP_NONE, &r);
	assert_str(r.verdict, "fail");
	assert_str(r.subcategory, "multiple-drivers");
	assert_int_equal(r.ndiags, 2);
	assert_int_equal(r.diags[0].cand_line, 6);
	assert_int_equal(r.diags[1].cand_line, 7);
	assert_str(r.metrics, "{\"cells\":2}");
	run_release(&r);
}

/* An area the liberty file cannot map leaves the verdict a pass. */
static void
test_yosys_judge_area_failure_keeps_pass(void **state)
{
	static const char *const none[] = { "true", NULL };
	static const char stat[] = "   Number of cells:                  4\n"
	    "     $_DFF_PP0_                      4\n";
	struct env_plan plan;
	struct env_stage_result res[3];
	struct task t = { 0 };
	struct run r;

	(void)state;
	env_plan_init(&plan);
	plan.cand_file = xstrdup("candidate.sv");
	env_plan_stage(&plan, "synth", none);
	env_plan_stage(&plan, "stat", none);
	env_plan_stage(&plan, "area", none);
	env_plan_stage(&plan, "area-stat", none);
	memset(res, 0, sizeof res);
	res[0].ran = res[1].ran = res[2].ran = 1;
	res[0].log = "";
	res[1].log = stat;
	res[1].log_len = strlen(stat);
	res[2].exit_code = 1;
	res[2].log = "ERROR: FF TopModule.$auto$ff.cc:266:slice$80 (type"
	    " $_DFF_PP0_) cannot be legalized: dffs with async set or reset"
	    " are not supported\n";
	res[2].log_len = strlen(res[2].log);
	memset(&r, 0, sizeof r);
	env_yosys.judge(&t, &plan, res, 3, ENV_STOP_NONE, &r);
	assert_str(r.verdict, "pass");
	assert_str(r.stage, "synth");
	assert_str(r.metrics, "{\"cells\":4}");
	assert_non_null(diag_at(&r, 0, "no area: the netlist could not be"));
	run_release(&r);
	env_plan_release(&plan);
}

#define FX_TEST(t) cmocka_unit_test_setup_teardown(t, fx_setup, fx_teardown)

/* Issue 10: 40-digit numbers in a log overflow nothing. */
static void
test_yosys_judge_long_digit_runs(void **state)
{
	struct run r;

	(void)state;
	judge_log("candidate.sv:1234567890123456789012345678901234567890: ERROR: syntax error, unexpected"
	    " TOK_ID\n", 1, ENV_STOP_NONE, &r);
	assert_non_null(r.verdict);
	for (size_t i = 0; i < r.ndiags; i++)
		assert_true(r.diags[i].line >= 0);
	run_release(&r);
	judge_log("ERROR: Module `\\TopModule' referenced in module `\\tb' in"
	    " cell `\\x' is not part of the design.\n"
	    "candidate.sv:1234567890123456789012345678901234567890:\n   Number of cells: 1234567890123456789012345678901234567890\n", 1,
	    ENV_STOP_NONE, &r);
	assert_non_null(r.verdict);
	run_release(&r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		FX_TEST(test_yosys_prepare_plans_synth_and_area),
		FX_TEST(test_yosys_judge_long_digit_runs),
		FX_TEST(test_yosys_prepare_liberty_and_top_params),
		FX_TEST(test_yosys_dff8r_reference_passes),
		FX_TEST(test_yosys_async_reset_has_area),
		FX_TEST(test_yosys_multiple_drivers_fail_check),
		FX_TEST(test_yosys_latch_is_reported),
		FX_TEST(test_yosys_while_loop_is_unsynthesizable),
		FX_TEST(test_yosys_syntax_error),
		FX_TEST(test_yosys_missing_top_is_format),
		FX_TEST(test_yosys_undriven_output_fails),
		FX_TEST(test_yosys_logic_loop_and_unknown_module),
		cmocka_unit_test(test_yosys_judge_limits_and_missing_tool),
		cmocka_unit_test(test_yosys_judge_area_failure_keeps_pass),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
