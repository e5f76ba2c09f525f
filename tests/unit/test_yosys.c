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
#include "envs/yosys_equiv.h"
#include "model/feedback.h"

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
	    " -noblackbox candidate.sv; hierarchy -check -top top_module;"
	    " select -assert-none =A:blackbox =A:whitebox; proc;"
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

/* The shared VerilogEval v2 dff8r reference (new); skips the test
 * without yosys or the data. */
static char *
dff8r_ref(struct fx *f)
{
	char *path, *ref;

	need_tool(&env_yosys);
	need_data(f);
	path = xasprintf("%s/verilog-eval-v2/Prob041_dff8r_ref.sv", f->data);
	ref = read_text(path);
	free(path);
	return ref;
}

static void
test_yosys_dff8r_reference_passes(void **state)
{
	struct fx *f = *state;
	struct outcome o;
	char *ref = dff8r_ref(f), *code, *p;

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

/*
 * Judge nres stage results (logs, exit codes) of a plan of the stages
 * names (NULL-terminated; NULL: none planned) for a task with params
 * (may be NULL), into r.
 */
static void
judge_plan(const char *params, const char *const *names,
    const char *const *logs, const int *codes, size_t nres,
    enum env_stop stop, struct run *r)
{
	static const char *const none[] = { "true", NULL };
	struct env_plan plan;
	struct env_stage_result res[ENV_MAX_STAGES];
	struct task t = { 0 };

	env_plan_init(&plan);
	plan.cand_file = xstrdup("candidate.sv");
	t.env_params = params != NULL ? xstrdup(params) : NULL;
	for (size_t i = 0; names != NULL && names[i] != NULL; i++)
		env_plan_stage(&plan, names[i], none);
	memset(res, 0, sizeof res);
	for (size_t i = 0; i < nres; i++) {
		res[i].ran = 1;
		res[i].exit_code = codes[i];
		res[i].log = logs[i];
		res[i].log_len = strlen(logs[i]);
	}
	memset(r, 0, sizeof *r);
	env_yosys.judge(&t, &plan, res, nres, stop, r);
	env_plan_release(&plan);
	task_release(&t);
}

static void
judge_log(const char *log, int code, enum env_stop stop, struct run *r)
{
	judge_plan(NULL, NULL, &log, &code, 1, stop, r);
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


/* --- equivalence (yosys_equiv.c) ------------------------------------- */

/* Real yosys 0.23 output, the dff8r reference against a mutant whose
 * reset value is 1 (cut): the stat block, an induction step's table
 * (not a counterexample: it starts from any state), then the base case's
 * counterexample from the initial state. */
static const char dff8r_cex[] =
    "$ yosys -p 'read_rtlil miter.il; stat; sat ...'\n"
    "2. Printing statistics.\n\n=== miter ===\n\n"
    "   Number of wires:                 26\n"
    "   Number of cells:                 22\n"
    "     $eqx                           10\n"
    "     $ff                             5\n"
    "     $mux                            4\n\n"
    "3. Executing SAT pass (solving SAT problems in the circuit).\n"
    "[base case 1] Solving problem with 1581 variables and 4158 clauses..\n"
    "Base case for induction length 1 proven.\n"
    "[induction step 1] Solving problem with 3137 variables and 8181"
    " clauses..\n"
    "Induction step failed. Incrementing induction length.\n\n"
    "  Time Signal Name             Dec       Hex           Bin\n"
    "  init \\_1_                      0         0      00000000\n"
    "     1 \\gate_q                 101        65      01100101\n"
    "     2 \\gate_q                   1         1      00000001\n"
    "     2 \\gold_q                   0         0      00000000\n"
    "     2 \\trigger                  1         1             1\n"
    "** Trying induction with length 2 **\n"
    "[base case 2] Solving problem with 3597 variables and 9625 clauses..\n"
    "SAT temporal induction proof finished - model found for base case:"
    " FAIL!\n\n"
    "   ______                   ___       ___       _ _            _ _ \n"
    "  Time Signal Name             Dec       Hex           Bin\n"
    "  ---- --------------- ----------- --------- -------------\n"
    "  init \\_19_                     1         1             1\n"
    "  init \\_3_                     --        --      xxxxxxxx\n"
    "  ---- --------------- ----------- --------- -------------\n"
    "     1 \\gate_q                  --        --      xxxxxxxx\n"
    "     1 \\gold_q                  --        --      xxxxxxxx\n"
    "     1 \\in_clk                   0         0             0\n"
    "     1 \\in_d                   230        e6      11100110\n"
    "     1 \\in_reset                 1         1             1\n"
    "     1 \\trigger                  0         0             0\n"
    "  ---- --------------- ----------- --------- -------------\n"
    "     2 \\gate_q                   1         1      00000001\n"
    "     2 \\gold_q                   0         0      00000000\n"
    "     2 \\in_clk                   1         1             1\n"
    "     2 \\in_d                     0         0      00000000\n"
    "     2 \\in_reset                 0         0             0\n"
    "     2 \\trigger                  1         1             1\n\n"
    "End of script. Logfile hash: 9d9e5e90c6, CPU: user 0.03s\n"
    "Time spent: 98% 1x sat (0 sec), 1% 2x read_rtlil (0 sec), ...\n";

static void
test_yosys_equiv_scan_counterexample(void **state)
{
	struct yosys_equiv_scan q;
	char *text;

	(void)state;
	yosys_equiv_scan(dff8r_cex, strlen(dff8r_cex), &q);
	assert_int_equal(q.result, YOSYS_EQUIV_DIFFERENT);
	assert_int_equal(q.state, 5);
	assert_int_equal(q.base, 1);
	assert_int_equal(q.fail_step, 2);
	assert_int_equal(q.steps, 2);
	/* Only the base case's rows, without the initial state's: two
	 * steps of three inputs and two outputs. */
	assert_int_equal(q.nv, 10);
	assert_int_equal(q.v[0].side, 'c');
	assert_str(q.v[0].name, "q");
	assert_str(q.v[0].bits, "xxxxxxxx");
	assert_str(q.v[3].name, "d");
	assert_str(q.v[3].hex, "e6");
	text = yosys_equiv_step_text(&q, 1, 0);
	assert_str(text, "step 1: inputs clk=1'b0 d=8'b11100110 reset=1'b1;"
	    " q: reference 8'bxxxxxxxx, candidate 8'bxxxxxxxx");
	free(text);
	text = yosys_equiv_step_text(&q, 2, 1);
	assert_str(text, "step 2: inputs clk=1'b1 d=8'b00000000 reset=1'b0;"
	    " q: reference 8'b00000000, candidate 8'b00000001");
	free(text);
	/* An x in the reference is a don't-care: step 1 differs nowhere. */
	text = yosys_equiv_step_text(&q, 1, 1);
	assert_str(text, "step 1: inputs clk=1'b0 d=8'b11100110 reset=1'b1;");
	free(text);
	yosys_equiv_scan_release(&q);
}

/* The feedback member: every step's inputs and both outputs, the x of
 * the reference no difference, and the text ending on the failing step. */
static void
test_yosys_equiv_counterexample(void **state)
{
	struct yosys_equiv_scan q;
	json_t *o, *st;
	char *text;

	(void)state;
	yosys_equiv_scan(dff8r_cex, strlen(dff8r_cex), &q);
	o = yosys_equiv_counterexample(&q, &text);
	assert_non_null(o);
	assert_int_equal(json_integer_value(json_object_get(o, "fail_step")),
	    2);
	assert_int_equal(json_array_size(json_object_get(o, "steps")), 2);
	st = json_array_get(json_object_get(o, "steps"), 1);
	assert_int_equal(json_integer_value(json_object_get(st, "step")), 2);
	assert_str(json_string_value(json_object_get(json_object_get(st,
	    "inputs"), "reset")), "1'b0");
	st = json_object_get(json_object_get(st, "outputs"), "q");
	assert_str(json_string_value(json_object_get(st, "reference")),
	    "8'b00000000");
	assert_str(json_string_value(json_object_get(st, "candidate")),
	    "8'b00000001");
	assert_true(json_is_true(json_object_get(st, "differs")));
	st = json_array_get(json_object_get(o, "steps"), 0);
	assert_true(json_is_false(json_object_get(json_object_get(
	    json_object_get(st, "outputs"), "q"), "differs")));
	assert_str(text, "not equivalent: the outputs differ at step 2 (every"
	    " flip-flop starts x; a clock cycle is two steps)\n"
	    "step 1: clk=1'b0 d=8'b11100110 reset=1'b1\n"
	    "  q: reference 8'bxxxxxxxx, candidate 8'bxxxxxxxx\n"
	    "step 2 (differs): clk=1'b1 d=8'b00000000 reset=1'b0\n"
	    "  q: reference 8'b00000000, candidate 8'b00000001  <- differs\n");
	free(text);
	json_decref(o);
	yosys_equiv_scan_release(&q);
	/* A long trace: the text keeps the failing step and the latest
	 * before it, within the member's bound. */
	memset(&q, 0, sizeof q);
	q.result = YOSYS_EQUIV_DIFFERENT;
	q.state = 40;
	q.fail_step = 30;
	q.nv = 90;
	q.v = xcalloc(q.nv, sizeof *q.v);
	for (size_t i = 0; i < q.nv; i++) {
		q.v[i].step = (int)(i / 3) + 1;
		q.v[i].side = "irc"[i % 3];
		q.v[i].name = xstrdup(i % 3 == 0 ? "data_in" : "data_out");
		q.v[i].bits = xstrdup(i % 3 == 2 && q.v[i].step == 30 ?
		    "0000000000000001" : "0000000000000000");
		q.v[i].hex = xstrdup("0");
	}
	o = yosys_equiv_counterexample(&q, &text);
	assert_int_equal(json_array_size(json_object_get(o, "steps")), 30);
	assert_true(strlen(text) < FEEDBACK_TEXT_MAX);
	assert_non_null(strstr(text, "\n(steps 1 to "));
	assert_non_null(strstr(text, "step 30 (differs): data_in=16'b0"));
	assert_non_null(strstr(text, "data_out: reference 16'b0000000000000000,"
	    " candidate 16'b0000000000000001  <- differs\n"));
	assert_null(strstr(text, "\nstep 1:"));
	free(text);
	json_decref(o);
	yosys_equiv_scan_release(&q);
	/* A proof holds none. */
	memset(&q, 0, sizeof q);
	q.result = YOSYS_EQUIV_PROVEN;
	assert_null(yosys_equiv_counterexample(&q, &text));
	assert_null(text);
}

static void
test_yosys_equiv_scan_outcomes(void **state)
{
	static const char comb[] = "=== miter ===\n"
	    "   Number of cells:                  9\n"
	    "     $eqx                            2\n"
	    "[base case 1] Solving problem with 90 variables and 200 clauses..\n"
	    "Base case for induction length 1 proven.\n"
	    "[induction step 1] Solving problem with 180 variables and 400"
	    " clauses..\n"
	    "Induction step proven: SUCCESS!\n";
	static const char bounded[] = "=== miter ===\n"
	    "     $ff                            12\n"
	    "Base case for induction length 5 proven.\n"
	    "[induction step 5] Solving problem with 9 variables and 9"
	    " clauses..\n"
	    "Base case for induction length 6 proven.\n"
	    "[induction step 6] Solving problem with 9 variables and 9"
	    " clauses..\n"
	    "Reached maximum number of time steps -> proof failed.\n";
	static const char unfinished[] = "=== miter ===\n"
	    "     $ff                             3\n"
	    "Base case for induction length 28 proven.\n"
	    "[base case 29] Solving problem with 328343 variables and 927982"
	    " clauses..\n"
	    "Interrupted SAT solver: TIMEOUT!\n";
	/* Names and counts are the candidate's to choose: a 40-digit step,
	 * and a line that only holds a result's words, are no results. */
	static const char hostile[] = "=== miter ===\n"
	    "     $ff 1234567890123456789012345678901234567890\n"
	    "Base case for induction length 1234567890123456789012345678901234567890 proven.\n"
	    "Warning: \\Induction step proven: SUCCESS!\n"
	    "  1 \\in_a 0 0 0 Induction step proven: SUCCESS!\n";
	static const struct {
		const char *log;
		enum yosys_equiv_result result;
		long state;
		int base, induction;
	} want[] = {
		{ comb, YOSYS_EQUIV_PROVEN, 0, 1, 1 },
		{ bounded, YOSYS_EQUIV_BOUNDED, 12, 6, 0 },
		{ unfinished, YOSYS_EQUIV_UNFINISHED, 3, 28, 0 },
		{ hostile, YOSYS_EQUIV_NONE, INT_MAX, INT_MAX, 0 },
	};
	struct yosys_equiv_scan q;

	(void)state;
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		yosys_equiv_scan(want[i].log, strlen(want[i].log), &q);
		assert_int_equal(q.result, want[i].result);
		assert_int_equal(q.state, want[i].state);
		assert_int_equal(q.base, want[i].base);
		assert_int_equal(q.induction, want[i].induction);
		yosys_equiv_scan_release(&q);
	}
	/* Not a proof's log at all. */
	yosys_equiv_scan("", 0, &q);
	assert_int_equal(q.result, YOSYS_EQUIV_NONE);
	assert_int_equal(q.state, -1);
	yosys_equiv_scan_release(&q);
}

/* The judge of a plan with the equivalence stages, on these logs: the
 * synthesis passed, the miter ended with miter_code, the proof (NULL:
 * it did not run) printed proof. */
static void
judge_equiv_logs(const char *miter, int miter_code, const char *proof,
    struct run *r)
{
	static const char *const names[] = { "synth", "stat", "miter",
	    "equiv", "area", "area-stat", NULL };
	const char *logs[] = { "", "   Number of cells:                  8\n",
	    miter, proof };
	const int codes[] = { 0, 0, miter_code, 0 };

	judge_plan("{\"equiv\":true,\"equiv_depth\":30}", names, logs, codes,
	    proof != NULL ? 4 : 3, ENV_STOP_NONE, r);
}

/* r's verdict, stage, category and subcategory. */
static void
assert_verdict(const struct run *r, const char *verdict, const char *stage,
    const char *category, const char *subcategory)
{
	assert_str(r->verdict, verdict);
	assert_str(r->stage, stage);
	assert_str(r->category, category);
	assert_str(r->subcategory, subcategory);
}

static void
test_yosys_judge_equiv(void **state)
{
	struct run r;

	(void)state;
	judge_equiv_logs("", 0, dff8r_cex, &r);
	assert_verdict(&r, "fail", "equiv", "functional", "not-equivalent");
	assert_str(r.evidence, "not equivalent to the reference: step 2:"
	    " inputs clk=1'b1 d=8'b00000000 reset=1'b0; q: reference"
	    " 8'b00000000, candidate 8'b00000001");
	assert_str(r.metrics, "{\"cells\":8,\"equiv\":\"not-equivalent\","
	    "\"equiv_steps\":2}");
	assert_int_equal(r.ndiags, 2);
	assert_str(r.diags[0].severity, "note");
	assert_str(r.diags[0].message, "counterexample step 1: inputs clk=1'b0"
	    " d=8'b11100110 reset=1'b1; q: reference 8'bxxxxxxxx, candidate"
	    " 8'bxxxxxxxx");
	assert_str(r.diags[1].severity, "error");
	run_release(&r);

	/* Ports that differ: the miter names the port. */
	judge_equiv_logs("ERROR: No matching port in gate module was found for"
	    " \\reset!\n", 1, NULL, &r);
	assert_verdict(&r, "fail", "miter", "compile", "port-mismatch");
	assert_str(r.evidence, "the candidate has no port reset of the"
	    " reference's direction and width (its ports must be the"
	    " reference's)");
	run_release(&r);
	judge_equiv_logs("ERROR: No matching port in gold module was found for"
	    " \\z!\n", 1, NULL, &r);
	assert_str(r.subcategory, "port-mismatch");
	assert_str(r.evidence, "the candidate's port z is not a port of the"
	    " reference (name, direction and width must match)");
	run_release(&r);

	/* A bounded proof passes and says how far; an unfinished one is a
	 * timeout that says how far it came; no result line is never a
	 * pass. */
	judge_equiv_logs("", 0, "=== miter ===\n     $ff 4\n"
	    "Base case for induction length 30 proven.\n"
	    "Reached maximum number of time steps -> proof failed.\n", &r);
	assert_str(r.verdict, "pass");
	assert_str(r.metrics, "{\"cells\":8,\"equiv\":\"bounded\","
	    "\"equiv_steps\":30}");
	assert_non_null(diag_at(&r, 0, "equal to the reference for the first"
	    " 30 steps"));
	run_release(&r);
	judge_equiv_logs("", 0, "=== miter ===\n     $ff 4\n"
	    "Base case for induction length 7 proven.\n"
	    "Interrupted SAT solver: TIMEOUT!\n", &r);
	assert_verdict(&r, "timeout", "equiv", "functional", "timeout");
	assert_str(r.evidence, "the equivalence proof ran out of time: a SAT"
	    " instance passed its limit after the first 7 of the 30 steps"
	    " asked for were proven equal");
	run_release(&r);
	judge_equiv_logs("", 0, "SUCCESS!\n", &r);
	assert_verdict(&r, "env-error", "equiv", NULL, "toolchain-limitation");
	run_release(&r);
	judge_equiv_logs("", 0, "=== miter ===\n"
	    "Induction step proven: SUCCESS!\n", &r);
	assert_str(r.verdict, "pass");
	assert_str(r.metrics, "{\"cells\":8,\"equiv\":\"combinational\"}");
	assert_non_null(diag_at(&r, 0, "equivalent to the reference for all"
	    " inputs"));
	run_release(&r);
}

static void
test_yosys_prepare_equiv(void **state)
{
	static const char ref[] = "module RefModule(input a, output y);"
	    " assign y = a; endmodule\n";
	struct fx *f = *state;
	struct env_plan plan;
	struct task t;
	struct candidate c;
	struct err err;

	make_task(&t, "local/eq", "yosys", "{\"equiv\":true}");
	task_add_file(&t, "ref.sv", "reference", ref, strlen(ref));
	make_cand(&c, t.id, "module TopModule(input a, output y);"
	    " assign y = a; endmodule\n");
	env_plan_init(&plan);
	assert_int_equal(env_yosys.prepare(&t, &c, f->dir, &plan, &err), 0);
	assert_int_equal(plan.nstages, 6);
	assert_int_equal(plan.timeout_s, 120);
	assert_str(plan.stages[2].name, "miter");
	assert_str(plan.stages[2].argv[3], "read_verilog -sv ref.sv;"
	    " hierarchy -check -top RefModule; proc; flatten; chformal"
	    " -remove; design -stash gold; read_verilog -sv -noblackbox"
	    " candidate.sv; hierarchy -simcheck -top TopModule;"
	    " select -assert-none =A:blackbox =A:whitebox; proc; flatten;"
	    " chformal"
	    " -remove; design -stash gate; design -import gold -as gold;"
	    " design -import gate -as gate; miter -equiv -make_outputs"
	    " -ignore_gold_x -flatten gold gate miter; hierarchy -top miter;"
	    " memory; opt -keepdc; wreduce -keepdc; clk2fflogic; opt -keepdc;"
	    " opt_clean; rename -hide; rename -enumerate; write_rtlil"
	    " miter.il");
	/* The miter sees the sealed candidate and reference alone; the
	 * proof the sealed miter alone. */
	assert_str(plan.seal[0], "candidate.sv");
	assert_str(plan.seal[1], "ref.sv");
	assert_null(plan.seal[2]);
	assert_str(plan.stages[2].use[0], "candidate.sv");
	assert_str(plan.stages[2].use[1], "ref.sv");
	assert_str(plan.stages[2].seal[0], "miter.il");
	assert_str(plan.stages[3].name, "equiv");
	assert_str(plan.stages[3].use[0], "miter.il");
	assert_null(plan.stages[3].use[1]);
	assert_str(plan.stages[3].argv[2], "read_rtlil miter.il; stat; sat"
	    " -tempinduct -prove trigger 0 -set-def-inputs -set-init-undef"
	    " -maxsteps 20 -timeout 60 -show-inputs -show-outputs miter");
	assert_str(plan.stages[4].name, "area");
	assert_str(plan.stages[5].name, "area-stat");
	env_plan_release(&plan);
	task_release(&t);

	/* Wrong values are the task's errors, with what is wrong. */
	{
		static const struct {
			const char *params, *want;
		} bad[] = {
			{ "{\"equiv\":\"none.sv\"}", "'none.sv' is not a Verilog"
			  " file" },
			{ "{\"equiv\":true,\"equiv_depth\":0}", "equiv_depth: 0" },
			{ "{\"equiv\":true,\"equiv_top\":\"a; exec\"}",
			  "equiv_top: 'a; exec'" },
		};

		for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
			rm_rf(f->dir);
			assert_int_equal(mkdir(f->dir, 0700), 0);
			make_task(&t, "local/eq", "yosys", bad[i].params);
			task_add_file(&t, "ref.sv", "reference", ref,
			    strlen(ref));
			env_plan_init(&plan);
			err_clear(&err);
			assert_int_equal(env_yosys.prepare(&t, &c, f->dir,
			    &plan, &err), -1);
			if (strstr(err.msg, bad[i].want) == NULL)
				fail_msg("%s: %s", bad[i].params, err.msg);
			env_plan_release(&plan);
			task_release(&t);
		}
	}
	candidate_release(&c);
}

/* Real runs: the dff8r reference proven equal to itself, a reset value
 * changed refuted with a counterexample. */
static void
test_yosys_equiv_dff8r(void **state)
{
	struct fx *f = *state;
	struct outcome o;
	struct task t;
	struct candidate c;
	char *ref = dff8r_ref(f), *code, *p;

	for (int mutant = 0; mutant < 2; mutant++) {
		rm_rf(f->dir);
		assert_int_equal(mkdir(f->dir, 0700), 0);
		make_task(&t, "local/eq", "yosys", "{\"equiv\":true}");
		task_add_file(&t, "Prob041_dff8r_ref.sv", "reference", ref,
		    strlen(ref));
		code = reference_code(&t);
		if (mutant && (p = strstr(code, "q <= 0;")) != NULL)
			p[5] = '1';
		make_cand(&c, t.id, code);
		free(code);
		run_plan(f, &env_yosys, &t, &c, 60, &o);
		if (!mutant) {
			assert_str(o.run.verdict, "pass");
			assert_non_null(strstr(o.run.metrics,
			    "\"equiv\":\"induction\""));
		} else {
			assert_str(o.run.verdict, "fail");
			assert_str(o.run.subcategory, "not-equivalent");
			assert_non_null(strstr(o.run.evidence, "q: reference"
			    " 8'b00000000, candidate 8'b00000001"));
		}
		outcome_release(&o);
		task_release(&t);
		candidate_release(&c);
	}
	free(ref);
}

/*
 * Issue 22 (round 3): a TopModule without a body was a black box to
 * read_verilog, which the miter does not import, and the solver's "Failed
 * to import cell (type gate)" made it env-error.  Now an empty top, and
 * an empty submodule, fail the synthesis's check (undriven outputs), and
 * a module marked (* blackbox *) is refused (unknown-module); before the
 * miter, so no equivalence stage runs.
 */
static void
test_yosys_equiv_empty_top_fails(void **state)
{
	static const char *const codes[][2] = {
		{ "module TopModule (input clk, input [7:0] d, input reset,"
		  " output [7:0] q);\nendmodule\n", "undriven" },
		{ "module TopModule (input clk, input [7:0] d, input reset,"
		  " output [7:0] q);\n  e u (.o(q));\nendmodule\n"
		  "module e (output [7:0] o);\nendmodule\n", "undriven" },
		{ "(* blackbox *)\nmodule TopModule (input clk, input [7:0] d,"
		  " input reset, output [7:0] q);\nendmodule\n",
		  "unknown-module" },
	};
	struct fx *f = *state;
	struct outcome o;
	struct task t;
	struct candidate c;
	char *ref = dff8r_ref(f);

	for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++) {
		rm_rf(f->dir);
		assert_int_equal(mkdir(f->dir, 0700), 0);
		make_task(&t, "local/eq", "yosys", "{\"equiv\":true}");
		task_add_file(&t, "Prob041_dff8r_ref.sv", "reference", ref,
		    strlen(ref));
		make_cand(&c, t.id, codes[i][0]);
		run_plan(f, &env_yosys, &t, &c, 60, &o);
		assert_str(o.run.verdict, "fail");
		assert_str(o.run.stage, "synth");
		assert_str(o.run.subcategory, codes[i][1]);
		outcome_release(&o);
		task_release(&t);
		candidate_release(&c);
	}
	free(ref);
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
		cmocka_unit_test(test_yosys_equiv_scan_counterexample),
		cmocka_unit_test(test_yosys_equiv_counterexample),
		cmocka_unit_test(test_yosys_equiv_scan_outcomes),
		cmocka_unit_test(test_yosys_judge_equiv),
		FX_TEST(test_yosys_prepare_equiv),
		FX_TEST(test_yosys_equiv_dff8r),
		FX_TEST(test_yosys_equiv_empty_top_fails),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
