/*
 * test_iverilog.c - unit tests for the iverilog env (cmocka): what
 * prepare() writes and plans, and what judge() makes of real logs.
 *
 * Real runs: a VerilogEval v2 problem (Prob041_dff8r, Prob151 for the
 * toolchain limitation) is prepared into a mkdtemp work directory, the two
 * planned stages are run here without a sandbox (fork, chdir, exec, merged
 * stdout+stderr) and their logs go to judge().  Skipped when iverilog is
 * not installed or ../shared/data is missing.
 *
 * Recorded logs: compiler errors recorded in the RTLFixer syntax set
 * (../shared/data/rtlfixer/verilogeval-syntax.jsonl) are judged as the
 * compile stage's log with exit status 1.  Expected counts per
 * subcategory were taken from the data with a few lines of Python (the
 * first "FILE:LINE:" line that is not a warning, sorry or note).
 */
#include <dirent.h>
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
#include <jansson.h>

#include "base/buf.h"
#include "envs/env.h"
#include "envs/verilog.h"
#include "envs/verilog_wave.h"
#include "base/err.h"
#include "base/hash.h"
#include "model/sample.h"
#include "testlib.h"
#include "verify/triage.h"
#include "envtest.h"
#include "envs/verilog.h"

extern const struct env_ops env_iverilog;

static int
fx_setup(void **state)
{
	return fx_init(state, "iverilog");
}

/* The file's bytes as a new string (NUL-terminated), *len its size. */
static char *
read_all(const char *path, size_t *len)
{
	struct buf b = BUF_INIT;
	char chunk[4096];
	size_t n;
	FILE *fp = fopen(path, "rb");

	if (fp == NULL)
		fail_msg("cannot open %s", path);
	while ((n = fread(chunk, 1, sizeof chunk, fp)) > 0)
		buf_add(&b, chunk, n);
	fclose(fp);
	buf_adds(&b, "");
	return buf_detach(&b, len);
}

/* --- a task, a candidate, a run -------------------------------------- */

/* The VerilogEval v2 task prob, as the importer makes it. */
static void
v2_task(struct fx *f, const char *prob, struct task *t)
{
	char *p, *data, *name;
	size_t len;

	memset(t, 0, sizeof *t);
	t->id = xasprintf("verilog-eval-v2/%s", prob);
	t->benchmark = xstrdup("verilog-eval-v2");
	t->domain = xstrdup("chip");
	t->env = xstrdup("iverilog");
	t->env_params = xstrdup("{\"top\":\"tb\",\"timeout_s\":30}");
	name = xasprintf("%s_test.sv", prob);
	p = xasprintf("%s/verilog-eval-v2/%s", f->data, name);
	data = read_all(p, &len);
	task_add_file(t, name, "testbench", data, len);
	free(data);
	free(p);
	free(name);
	name = xasprintf("%s_ref.sv", prob);
	p = xasprintf("%s/verilog-eval-v2/%s", f->data, name);
	data = read_all(p, &len);
	task_add_file(t, name, "reference", data, len);
	free(data);
	free(p);
	free(name);
}

/* Prepare c for t in f->dir, run the stages until one fails, judge. */
static void
verify_here(struct fx *f, const struct task *t, const struct candidate *c,
    struct outcome *o)
{
	run_plan(f, &env_iverilog, t, c, 60, o);	/* 60 s a stage */
	/* A finding of the static checks: no simulation; a testbench
	 * that compares NAME_ref with NAME_dut: the wave stage after it. */
	assert_int_equal(o->plan.nstages, verilog_has_finding(&o->plan) ? 2 :
	    strcmp(o->plan.stages[o->plan.nstages - 1].name, "wave") == 0 ?
	    4 : 3);
}

static void
verify_code(struct fx *f, const char *prob, const char *code,
    struct outcome *o)
{
	struct task t;
	struct candidate c;

	v2_task(f, prob, &t);
	make_cand(&c, t.id, code);
	verify_here(f, &t, &c, o);
	task_release(&t);
	candidate_release(&c);
}

/* --- prepare ---------------------------------------------------------- */

static void
test_iverilog_prepare_plans_harness_commands(void **state)
{
	struct fx *f = *state;
	static const char *const compile[] = { "iverilog", "-Wall",
	    "-Winfloop", "-Wno-timescale", "-g2012", "-s", "tb", "-o",
	    "", "candidate.sv", "p_test.sv", "p_ref.sv", NULL };
	static const char *const isolate[] = { "iverilog", "-g2012",
	    "-Wno-timescale", "-t", "null", "candidate.sv", NULL };
	struct env_plan plan;
	struct task t = { 0 };
	struct candidate c;
	struct err err;
	char *p, *written, *want;
	size_t i, len;

	t.id = xstrdup("local/p");
	t.env = xstrdup("iverilog");
	t.env_params = xstrdup("{\"top\":\"tb\",\"timeout_s\":12}");
	task_add_file(&t, "p_test.sv", "testbench", tiny_tb, strlen(tiny_tb));
	task_add_file(&t, "p_ref.sv", "reference", "module RefModule;"
	    " endmodule\n", 28);
	make_cand(&c, t.id, "module TopModule; endmodule\n");
	env_plan_init(&plan);
	assert_int_equal(env_iverilog.prepare(&t, &c, f->dir, &plan, &err), 0);

	assert_int_equal(plan.nstages, 3);
	assert_string_equal(plan.stages[0].name, "compile");
	for (i = 0; compile[i] != NULL; i++) {
		assert_non_null(plan.stages[0].argv[i]);
		if (i != 8)
			assert_string_equal(plan.stages[0].argv[i],
			    compile[i]);
	}
	/* The image, which holds the nonce, in a directory of run/ with a
	 * random name: run/RANDOM/sim. */
	assert_int_equal(strncmp(plan.stages[0].argv[8], "run/", 4), 0);
	assert_int_equal(strlen(plan.stages[0].argv[8]), 4 + 16 + 4);
	assert_string_equal(plan.stages[0].argv[8] + 20, "/sim");
	assert_null(strstr(plan.stages[0].argv[8], plan.nonce));
	assert_null(plan.stages[0].argv[i]);
	assert_string_equal(plan.stages[0].subdir, "");
	/* The candidate alone, then the simulation in run/ only. */
	assert_string_equal(plan.stages[1].name, "isolate");
	for (i = 0; isolate[i] != NULL; i++)
		assert_string_equal(plan.stages[1].argv[i], isolate[i]);
	assert_null(plan.stages[1].argv[i]);
	assert_string_equal(plan.stages[2].name, "simulate");
	assert_string_equal(plan.stages[2].argv[0], "vvp");
	assert_string_equal(plan.stages[2].argv[1], "-n");
	assert_string_equal(plan.stages[2].argv[2], plan.stages[0].argv[8] +
	    4);
	/* No waveform: the testbench's $dumpfile writes nothing. */
	assert_string_equal(plan.stages[2].argv[3], "-none");
	assert_null(plan.stages[2].argv[4]);
	assert_string_equal(plan.stages[2].subdir, "run");
	/* No /proc for the simulation: it cannot read its own image. */
	assert_int_equal(plan.stages[2].no_proc, 1);
	assert_int_equal(plan.stages[0].no_proc, 0);
	assert_int_equal(plan.timeout_s, 12);
	assert_string_equal(plan.cand_file, "candidate.sv");
	assert_true(strlen(plan.nonce) >= 8);

	/* The candidate is written as it is. */
	p = xasprintf("%s/candidate.sv", f->dir);
	written = read_all(p, &len);
	free(p);
	assert_string_equal(written, "module TopModule; endmodule\n");
	free(written);
	/* Our copy of the testbench carries the nonce in its result line. */
	p = xasprintf("%s/p_test.sv", f->dir);
	written = read_all(p, &len);
	free(p);
	want = xasprintf("$display(\"%s Mismatches: %%1d in %%1d samples\"",
	    plan.nonce);
	assert_non_null(strstr(written, want));
	free(want);
	free(written);
	/* Inputs name the task's own files, not our copy, in order; verify.c
	 * closes the object. */
	{
		char h_tb[HASH_HEX_LEN + 1], h_ref[HASH_HEX_LEN + 1];
		char h_par[HASH_HEX_LEN + 1];

		hash_sha256(tiny_tb, strlen(tiny_tb), h_tb);
		hash_sha256("module RefModule; endmodule\n", 28, h_ref);
		hash_sha256(t.env_params, strlen(t.env_params), h_par);
		want = xasprintf("{\"candidate.sv\":\"%s\",\"p_test.sv\":\"%s\","
		    "\"p_ref.sv\":\"%s\",\"env_params\":\"%s\"", c.code_hash,
		    h_tb, h_ref, h_par);
		assert_string_equal(buf_str(&plan.inputs), want);
		free(want);
	}
	env_plan_release(&plan);
	task_release(&t);
	candidate_release(&c);
}

static void
test_iverilog_prepare_candidate_last(void **state)
{
	struct fx *f = *state;
	struct env_plan plan;
	struct task t = { 0 };
	struct candidate c;
	struct err err;
	char **argv;

	t.id = xstrdup("rtlfixer/x");
	t.env = xstrdup("iverilog");
	t.env_params = xstrdup("{\"top\":\"tb\",\"timeout_s\":30,"
	    "\"candidate_last\":true}");
	task_add_file(&t, "test.sv", "testbench", tiny_tb, strlen(tiny_tb));
	make_cand(&c, t.id, "module top_module; endmodule\n");
	env_plan_init(&plan);
	assert_int_equal(env_iverilog.prepare(&t, &c, f->dir, &plan, &err), 0);
	argv = plan.stages[0].argv;
	assert_int_equal(strncmp(argv[8], "run/", 4), 0);
	assert_string_equal(argv[9], "test.sv");
	assert_string_equal(argv[10], "candidate.sv");
	assert_null(argv[11]);
	env_plan_release(&plan);

	/* A task file may not take the candidate's name. */
	free(t.files[0].name);
	t.files[0].name = xstrdup("candidate.sv");
	env_plan_init(&plan);
	err_clear(&err);
	assert_int_equal(env_iverilog.prepare(&t, &c, f->dir, &plan, &err), -1);
	assert_non_null(strstr(err.msg, "candidate.sv"));
	env_plan_release(&plan);
	task_release(&t);
	candidate_release(&c);
}

/* A testbench whose name has a comma still gives a well-formed inputs
 * object: the hash of the task's file replaces our copy's hash. */
static void
test_iverilog_prepare_inputs_with_comma_in_name(void **state)
{
	struct fx *f = *state;
	struct env_plan plan;
	struct task t = { 0 };
	struct candidate c;
	struct err err;
	char h_tb[HASH_HEX_LEN + 1], *want;

	t.id = xstrdup("local/comma");
	t.env = xstrdup("iverilog");
	task_add_file(&t, "tb,v2.sv", "testbench", tiny_tb, strlen(tiny_tb));
	make_cand(&c, t.id, "module TopModule; endmodule\n");
	env_plan_init(&plan);
	assert_int_equal(env_iverilog.prepare(&t, &c, f->dir, &plan, &err), 0);
	hash_sha256(tiny_tb, strlen(tiny_tb), h_tb);
	want = keep(f, xasprintf("{\"candidate.sv\":\"%s\",\"tb,v2.sv\":\"%s\"",
	    c.code_hash, h_tb));
	task_release(&t);
	candidate_release(&c);
	if (strcmp(buf_str(&plan.inputs), want) != 0) {
		print_error("got  %s\nwant %s\n", buf_str(&plan.inputs), want);
		env_plan_release(&plan);
		fail_msg("inputs of a testbench named with a comma");
	}
	env_plan_release(&plan);
}

/* --- real runs of Prob041_dff8r -------------------------------------- */

static void
test_iverilog_reference_passes(void **state)
{
	struct fx *f = *state;
	struct outcome o;
	struct task t;
	struct candidate c;
	char *code;

	need_data(f);
	need_tool(&env_iverilog);
	v2_task(f, "Prob041_dff8r", &t);
	code = reference_code(&t);
	make_cand(&c, t.id, code);
	free(code);
	verify_here(f, &t, &c, &o);
	task_release(&t);
	candidate_release(&c);
	assert_int_equal(o.nres, 4);	/* compile, isolate, simulate, wave */
	assert_str(o.run.verdict, "pass");
	assert_str(o.run.stage, "simulate");
	assert_str(o.run.metrics, "{\"mismatches\":0,\"total\":432}");
	assert_null(o.run.category);
	assert_null(o.run.subcategory);
	/* The stored log is the testbench's, without our nonce. */
	assert_non_null(strstr(o.run.log, " Mismatches: 0 in 432 samples"));
	/* The judge leaves the nonce; verify.c strips it from the log. */
	assert_non_null(strstr(o.run.log, o.plan.nonce));
	for (size_t i = 0; i < o.run.ndiags; i++)
		assert_string_not_equal(o.run.diags[i].severity, "error");
	outcome_release(&o);
}

static const char dff8r_syntax_error[] =
    "module TopModule (\n"
    "  input clk,\n"
    "  input [7:0] d,\n"
    "  input reset,\n"
    "  output reg [7:0] q\n"
    ");\n"
    "  always @(posedge clk)\n"
    "    q <= d +;\n"
    "endmodule\n";

static void
test_iverilog_syntax_error_fails_at_compile(void **state)
{
	struct fx *f = *state;
	struct outcome o;
	size_t in_cand = 0;

	need_data(f);
	need_tool(&env_iverilog);
	verify_code(f, "Prob041_dff8r", dff8r_syntax_error, &o);
	assert_int_equal(o.nres, 1);
	assert_str(o.run.verdict, "fail");
	assert_str(o.run.stage, "compile");
	assert_str(o.run.category, "compile");
	assert_str(o.run.subcategory, "syntax-error");
	assert_str(o.run.evidence, "candidate.sv:8: syntax error");
	assert_null(o.run.metrics);
	assert_true(o.run.ndiags >= 1);
	assert_string_equal(o.run.diags[0].file, "candidate.sv");
	assert_int_equal(o.run.diags[0].line, 8);
	assert_int_equal(o.run.diags[0].cand_line, 8);
	assert_string_equal(o.run.diags[0].severity, "error");
	assert_string_equal(o.run.diags[0].message, "syntax error");
	for (size_t i = 0; i < o.run.ndiags; i++)
		if (o.run.diags[i].cand_line != 0) {
			assert_int_equal(o.run.diags[i].cand_line, 8);
			in_cand++;
		}
	assert_int_equal(in_cand, o.run.ndiags);
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
test_iverilog_wrong_candidate_mismatches(void **state)
{
	struct fx *f = *state;
	struct outcome o;

	need_data(f);
	need_tool(&env_iverilog);
	verify_code(f, "Prob041_dff8r", dff8r_no_reset, &o);
	assert_int_equal(o.nres, 4);
	assert_str(o.run.verdict, "fail");
	assert_str(o.run.stage, "simulate");
	assert_str(o.run.category, "functional");
	assert_str(o.run.subcategory, "mismatch");
	/* Counted by hand from `vvp -n sim` on the same files. */
	assert_str(o.run.metrics, "{\"mismatches\":46,\"total\":432}");
	assert_str(o.run.evidence, "Hint: Output 'q' has 46 mismatches. First"
	    " mismatch occurred at time 10.");
	assert_non_null(strstr(o.run.log, " Mismatches: 46 in 432 samples"));
	/* The judge leaves the nonce; verify.c strips it from the log. */
	assert_non_null(strstr(o.run.log, o.plan.nonce));
	/* The compared signals' waveform, not the dump, and the first
	 * mismatch from it (issue 26) */
	assert_non_null(o.run.wave);
	assert_non_null(strstr(o.run.wave, " q_ref $end"));
	assert_non_null(strstr(o.run.wave, " q_dut $end"));
	assert_null(strstr(o.run.wave, "clk"));
	assert_null(strstr(o.run.log, "$enddefinitions"));
	assert_non_null(strstr(o.run.log, "kept with the run (run.wave)"));
	/* Read from the dump by hand: after the first edge (5 ps) the
	 * reference is reset to 00, the candidate keeps d (24); the
	 * testbench samples it at 10. */
	assert_non_null(o.run.feedback);
	assert_non_null(strstr(o.run.feedback, "\"first_mismatch\":5,"));
	assert_non_null(strstr(o.run.feedback, "\"signals\":[\"q\"]"));
	assert_non_null(strstr(o.run.feedback, ">    5  00     24    *"));
	outcome_release(&o);
}

/* The compared signals are the top module's own NAME_ref/NAME_dut
 * pairs: not a helper module's, not a comment's, not a port's name. */
static void
test_iverilog_wave_signals(void **state)
{
	static const char tb[] =
	    "module helper(input h_ref, input h_dut); endmodule\n"
	    "module tb;\n"
	    "  // c_ref c_dut\n"
	    "  logic [3:0] q_ref, q_dut; logic z_ref;\n"
	    "  wire tb_match = q_ref === q_dut;\n"
	    "  helper hh(.h_ref(z_ref), .h_dut(z_ref));\n"
	    "  initial $display(\"a_ref a_dut\");\n"
	    "endmodule\n";
	struct task t;
	char *sig;

	(void)state;
	make_task(&t, "local/w", "iverilog", NULL);
	task_add_file(&t, "tb.sv", "testbench", tb, strlen(tb));
	sig = verilog_wave_signals(&t, "tb");
	assert_non_null(sig);
	assert_string_equal(sig, "q_ref q_dut tb_match");
	free(sig);
	/* another top has its own; a top the files lack: no waveform */
	sig = verilog_wave_signals(&t, "helper");
	assert_string_equal(sig, "h_ref h_dut");
	free(sig);
	assert_null(verilog_wave_signals(&t, "nosuch"));
	task_release(&t);
}

/* A wrong module that prints the result line itself and stops. */
static const char dff8r_forger[] =
    "module TopModule (\n"
    "  input clk,\n"
    "  input [7:0] d,\n"
    "  input reset,\n"
    "  output reg [7:0] q\n"
    ");\n"
    "  initial begin\n"
    "    $display(\"Mismatches: 0 in 20 samples\");\n"
    "    $finish;\n"
    "  end\n"
    "endmodule\n";

/*
 * A wrong module that copies the reference's output by hierarchical name
 * (good1.q), or zeroes the testbench's error counter (tb.stats1.errors),
 * passes the public harness; alone it does not elaborate (issue 2, found
 * by a tester).
 */
static const char dff8r_copier[] =
    "module TopModule (\n"
    "  input clk,\n"
    "  input [7:0] d,\n"
    "  input reset,\n"
    "  output [7:0] q\n"
    ");\n"
    "  assign q = good1.q;\n"
    "endmodule\n";

static const char dff8r_counter_hack[] =
    "module TopModule (\n"
    "  input clk,\n"
    "  input [7:0] d,\n"
    "  input reset,\n"
    "  output reg [7:0] q\n"
    ");\n"
    "  always @(posedge clk) q <= 8'hff;\n"
    "  final begin tb.stats1.errors = 0; tb.stats1.errors_q = 0; end\n"
    "endmodule\n";

static void
test_iverilog_reaching_into_testbench_fails(void **state)
{
	struct fx *f = *state;
	const char *const codes[] = { dff8r_copier, dff8r_counter_hack };

	need_data(f);
	need_tool(&env_iverilog);
	for (size_t k = 0; k < 2; k++) {
		struct outcome o;

		verify_code(f, "Prob041_dff8r", codes[k], &o);
		assert_int_equal(o.nres, 2);	/* compiled, then isolated */
		assert_str(o.run.verdict, "fail");
		assert_str(o.run.stage, "compile");
		assert_str(o.run.subcategory, "out-of-module-reference");
		assert_str(o.run.category, "functional");
		assert_non_null(strstr(o.run.evidence, "candidate.sv:"));
		outcome_release(&o);
		rm_rf(f->dir);
		assert_int_equal(mkdir(f->dir, 0700), 0);
	}
}

static void
test_iverilog_forged_result_line_does_not_pass(void **state)
{
	struct fx *f = *state;
	struct outcome o;
	int warned = 0;

	need_data(f);
	need_tool(&env_iverilog);
	verify_code(f, "Prob041_dff8r", dff8r_forger, &o);
	assert_int_equal(o.nres, 4);
	assert_non_null(strstr(o.logs[2].p, "Mismatches: 0 in 20 samples"));
	assert_str(o.run.verdict, "fail");
	assert_str(o.run.stage, "simulate");
	/* The testbench's final block still reports, on no samples. */
	assert_str(o.run.subcategory, "early-finish");
	assert_str(o.run.category, "functional");
	assert_str(o.run.metrics, "{\"mismatches\":0,\"total\":0}");
	for (size_t i = 0; i < o.run.ndiags; i++)
		warned += strstr(o.run.diags[i].message, "verdict line") != NULL;
	assert_int_equal(warned, 1);
	outcome_release(&o);
}

/* The same forger without $finish: the testbench's own line decides. */
static const char dff8r_forger_wrong[] =
    "module TopModule (\n"
    "  input clk,\n"
    "  input [7:0] d,\n"
    "  input reset,\n"
    "  output reg [7:0] q\n"
    ");\n"
    "  initial $display(\"Mismatches: 0 in 432 samples\");\n"
    "  final $display(\"Mismatches: 0 in 432 samples\");\n"
    "  always @(posedge clk)\n"
    "    q <= d;\n"
    "endmodule\n";

static void
test_iverilog_forged_line_beside_real_one(void **state)
{
	struct fx *f = *state;
	struct outcome o;

	need_data(f);
	need_tool(&env_iverilog);
	verify_code(f, "Prob041_dff8r", dff8r_forger_wrong, &o);
	assert_int_equal(o.nres, 4);
	assert_str(o.run.verdict, "fail");
	assert_str(o.run.subcategory, "mismatch");
	assert_str(o.run.metrics, "{\"mismatches\":46,\"total\":432}");
	outcome_release(&o);
}

static void
test_iverilog_sorry_reference_is_env_error(void **state)
{
	struct fx *f = *state;
	struct outcome o;
	struct task t;
	struct candidate c;
	char *code;

	need_data(f);
	need_tool(&env_iverilog);
	/* Icarus 11 cannot compile this reference: a toolchain limit. */
	v2_task(f, "Prob151_review2015_fsm", &t);
	code = reference_code(&t);
	make_cand(&c, t.id, code);
	free(code);
	verify_here(f, &t, &c, &o);
	task_release(&t);
	candidate_release(&c);
	assert_int_equal(o.nres, 1);
	assert_true(o.run.exit_code != 0);
	assert_str(o.run.verdict, "env-error");
	assert_str(o.run.stage, "compile");
	assert_str(o.run.subcategory, "toolchain-limitation");
	assert_str(o.run.evidence, "This cast operation is not yet supported.");
	assert_null(o.run.category);
	outcome_release(&o);
}

/* --- judge on recorded logs ------------------------------------------- */

/*
 * The JSON string member key of line number lineno (1-based) of the
 * RTLFixer file, unescaped: a new string, or NULL when the member is not
 * a string.  Only the escapes that file uses are handled.
 */
static char *
row_string(const char *file, size_t lineno, const char *key)
{
	size_t len, n = 1;
	char *text = read_all(file, &len), *line = text, *nl, *pat, *p;
	struct buf b = BUF_INIT;

	while (n < lineno && (nl = strchr(line, '\n')) != NULL) {
		line = nl + 1;
		n++;
	}
	assert_int_equal(n, lineno);
	nl = strchr(line, '\n');
	if (nl != NULL)
		*nl = '\0';
	pat = xasprintf("\"%s\": \"", key);
	p = strstr(line, pat);
	if (p == NULL) {
		free(pat);
		free(text);
		return NULL;
	}
	for (p += strlen(pat); *p != '\0' && *p != '"'; p++) {
		if (*p != '\\') {
			buf_addc(&b, *p);
			continue;
		}
		switch (*++p) {
		case 'n': buf_addc(&b, '\n'); break;
		case 't': buf_addc(&b, '\t'); break;
		case 'r': buf_addc(&b, '\r'); break;
		case '"': buf_addc(&b, '"'); break;
		case '\\': buf_addc(&b, '\\'); break;
		case '/': buf_addc(&b, '/'); break;
		case 'u': {
			unsigned v = 0;

			sscanf(p + 1, "%4x", &v);
			p += 4;
			if (v < 0x80) {
				buf_addc(&b, (char)v);
			} else if (v < 0x800) {
				buf_addc(&b, (char)(0xc0 | v >> 6));
				buf_addc(&b, (char)(0x80 | (v & 0x3f)));
			} else {
				buf_addc(&b, (char)(0xe0 | v >> 12));
				buf_addc(&b, (char)(0x80 | ((v >> 6) & 0x3f)));
				buf_addc(&b, (char)(0x80 | (v & 0x3f)));
			}
			break;
		}
		default:
			fail_msg("unexpected escape \\%c", *p);
		}
	}
	free(pat);
	free(text);
	buf_adds(&b, "");
	return buf_detach(&b, NULL);
}

/* The file name a recorded log uses: what precedes its first ":N:". */
static char *
log_file_name(const char *log)
{
	const char *colon = strchr(log, ':');

	assert_non_null(colon);
	return xstrndup(log, (size_t)(colon - log));
}

/* Judge log as the compile stage's output with exit status code. */
static void
judge_compile_log(const char *log, const char *cand_file, int code,
    enum env_stop stop, struct run *r)
{
	struct env_plan plan;
	struct env_stage_result res;
	struct task t = { 0 };

	env_plan_init(&plan);
	plan.cand_file = xstrdup(cand_file);
	plan.nonce[0] = '\0';
	memset(&res, 0, sizeof res);
	res.ran = 1;
	res.exit_code = code;
	res.log = log;
	res.log_len = strlen(log);
	memset(r, 0, sizeof *r);
	r->log = xstrdup(log);
	r->log_len = strlen(log);
	r->exit_code = code;
	t.id = (char *)"rtlfixer/x";
	env_iverilog.judge(&t, &plan, &res, 1, stop, r);
	env_plan_release(&plan);
}

static char *
syntax_file(struct fx *f)
{
	return keep(f, xasprintf("%s/rtlfixer/verilogeval-syntax.jsonl",
	    f->data));
}

static void
test_iverilog_judge_recorded_declared_as_wire(void **state)
{
	struct fx *f = *state;
	char *file, *log, *tid;
	struct run r;

	need_data(f);
	file = syntax_file(f);
	/* Line 1: 2012_q2b, procedural assignments to output wires. */
	tid = keep(f, row_string(file, 1, "task_id"));
	assert_string_equal(tid, "2012_q2b");
	log = keep(f, row_string(file, 1, "compiler_error"));
	assert_non_null(strstr(log, "declared here as wire"));
	judge_compile_log(log, "2012_q2b.sv", 1, ENV_STOP_NONE, &r);
	assert_str(r.verdict, "fail");
	assert_str(r.stage, "compile");
	assert_str(r.category, "compile");
	assert_str(r.subcategory, "declared-as-wire");
	assert_str(r.evidence, "2012_q2b.sv:168: error: Y1 is not a valid"
	    " l-value in tb.top_module1.");
	/* The log is kept as recorded. */
	assert_int_equal(r.log_len, strlen(log));
	assert_string_equal(r.log, log);
	assert_int_equal(r.ndiags, 5);
	assert_string_equal(r.diags[0].file, "2012_q2b.sv");
	assert_int_equal(r.diags[0].line, 168);
	assert_string_equal(r.diags[0].severity, "error");
	assert_string_equal(r.diags[0].message, "Y1 is not a valid l-value in"
	    " tb.top_module1.");
	assert_int_equal(r.diags[0].cand_line, 168);
	assert_int_equal(r.diags[1].line, 162);
	assert_string_equal(r.diags[1].severity, "note");
	assert_string_equal(r.diags[1].message, "Y1 is declared here as wire.");
	assert_int_equal(r.diags[2].line, 169);
	assert_string_equal(r.diags[2].severity, "error");
	assert_int_equal(r.diags[3].line, 163);
	assert_string_equal(r.diags[3].severity, "note");
	assert_int_equal(r.diags[4].line, 166);
	assert_string_equal(r.diags[4].severity, "warning");
	assert_string_equal(r.diags[4].message, "@* found no sensitivities so"
	    " it will never trigger.");
	run_release(&r);

	/* Lines of another file are diagnostics, not candidate lines. */
	judge_compile_log(log, "candidate.sv", 1, ENV_STOP_NONE, &r);
	assert_int_equal(r.ndiags, 5);
	for (size_t i = 0; i < r.ndiags; i++)
		assert_int_equal(r.diags[i].cand_line, 0);
	assert_str(r.verdict, "fail");
	run_release(&r);
}

static void
test_iverilog_judge_recorded_syntax_error(void **state)
{
	struct fx *f = *state;
	char *file, *log, *tid, *cf;
	struct run r;

	need_data(f);
	file = syntax_file(f);
	/* Line 7: 2013_q2bfsm, "syntax error" then a malformed instance. */
	tid = keep(f, row_string(file, 7, "task_id"));
	assert_string_equal(tid, "2013_q2bfsm");
	log = keep(f, row_string(file, 7, "compiler_error"));
	cf = keep(f, xasprintf("%s.sv", tid));
	judge_compile_log(log, cf, 1, ENV_STOP_NONE, &r);
	assert_str(r.verdict, "fail");
	assert_str(r.stage, "compile");
	assert_str(r.category, "compile");
	assert_str(r.subcategory, "syntax-error");
	assert_str(r.evidence, "2013_q2bfsm.sv:177: syntax error");
	assert_int_equal(r.ndiags, 2);
	assert_string_equal(r.diags[0].severity, "error");
	assert_string_equal(r.diags[0].message, "syntax error");
	assert_int_equal(r.diags[0].cand_line, 177);
	assert_string_equal(r.diags[1].message, "Invalid module instantiation");
	run_release(&r);
}

/* Every recorded compile error of the set, judged as exit status 1. */
static void
test_iverilog_judge_every_recorded_compile_error(void **state)
{
	struct fx *f = *state;
	size_t rows = 0, syntax = 0, wire = 0, bind = 0, unknown = 0;
	size_t no_error = 0;
	char *file;

	need_data(f);
	file = syntax_file(f);
	for (size_t line = 1; line <= 174; line++) {
		char *log = row_string(file, line, "compiler_error");
		char *cf;
		struct run r;
		int errors = 0;

		assert_non_null(log);
		cf = log_file_name(log);
		judge_compile_log(log, cf, 1, ENV_STOP_NONE, &r);
		rows++;
		if (strcmp(r.verdict, "fail") != 0 ||
		    strcmp(r.stage, "compile") != 0 || r.category == NULL ||
		    strcmp(r.category, "compile") != 0 || r.subcategory == NULL)
			fail_msg("line %zu: %s/%s/%s", line, r.verdict,
			    r.stage != NULL ? r.stage : "-",
			    r.category != NULL ? r.category : "-");
		for (size_t i = 0; i < r.ndiags; i++) {
			if (strcmp(r.diags[i].severity, "error") != 0)
				continue;
			errors++;
			/* Every error is in the one compiled file. */
			assert_int_equal(r.diags[i].cand_line, r.diags[i].line);
		}
		if (errors == 0)
			no_error++;
		syntax += strcmp(r.subcategory, "syntax-error") == 0;
		wire += strcmp(r.subcategory, "declared-as-wire") == 0;
		bind += strcmp(r.subcategory, "unable-to-bind") == 0;
		unknown += strcmp(r.subcategory, "unknown-module") == 0;
		run_release(&r);
		free(cf);
		free(log);
	}
	assert_int_equal(rows, 174);
	assert_int_equal(no_error, 17);		/* recorded warnings only */
	assert_int_equal(syntax, 17);
	assert_int_equal(wire, 40);
	assert_int_equal(bind, 68);
	assert_int_equal(unknown, 5);
}

/*
 * Icarus Verilog 11's output for Prob151's reference (shortened to its
 * first lines): every message a "sorry", none an error.
 */
static const char sorry_log[] =
    "Prob151_review2015_fsm_ref.sv:21: sorry: This cast operation is not"
    " yet supported.\n"
    "Prob151_review2015_fsm_ref.sv:22: sorry: This cast operation is not"
    " yet supported.\n"
    "candidate.sv:21: sorry: This cast operation is not yet supported.\n"
    "3 error(s) during elaboration.\n";

static void
test_iverilog_judge_sorry_only_is_env_error(void **state)
{
	struct run r;
	struct buf b = BUF_INIT;

	(void)state;
	judge_compile_log(sorry_log, "candidate.sv", 1, ENV_STOP_NONE, &r);
	assert_str(r.verdict, "env-error");
	assert_str(r.stage, "compile");
	assert_str(r.subcategory, "toolchain-limitation");
	assert_str(r.evidence, "This cast operation is not yet supported.");
	assert_null(r.category);
	assert_int_equal(r.ndiags, 3);
	assert_string_equal(r.diags[0].severity, "sorry");
	assert_int_equal(r.diags[0].cand_line, 0);
	assert_int_equal(r.diags[2].cand_line, 21);
	run_release(&r);

	/* A real error in the candidate beside the sorries: its fault. */
	buf_adds(&b, sorry_log);
	buf_adds(&b, "candidate.sv:30: error: Unknown module type: foo\n");
	judge_compile_log(buf_str(&b), "candidate.sv", 1, ENV_STOP_NONE, &r);
	assert_str(r.verdict, "fail");
	assert_str(r.category, "compile");
	assert_str(r.subcategory, "unknown-module");
	/* The sorry is context. */
	assert_str(r.evidence, "candidate.sv:30: error: Unknown module type:"
	    " foo; context: Prob151_review2015_fsm_ref.sv:21: sorry: This"
	    " cast operation is not yet supported.");
	assert_int_equal(r.evidence_line, 0);	/* triage sets it */
	run_release(&r);
	buf_reset(&b);

	/* Errors in the task's own files beside the sorries: still the
	 * toolchain's limitation (issue 11 item 4). */
	buf_adds(&b, sorry_log);
	buf_adds(&b, "Prob151_review2015_fsm_test.sv:80: error: Unable to"
	    " bind wire/reg/memory `x' in `tb'\n");
	judge_compile_log(buf_str(&b), "candidate.sv", 1, ENV_STOP_NONE, &r);
	assert_str(r.verdict, "env-error");
	assert_str(r.subcategory, "toolchain-limitation");
	run_release(&r);
	buf_release(&b);
}

/*
 * Issue 11 item 4: RTLFixer's syntax-set row 19 (candidate c5e5571e in the
 * demo) uses break, which Icarus 11 reports as a sorry while parsing, and
 * an undeclared clk, which it would report only at elaboration (the row's
 * recorded compiler_error and Verilator's lint both name it).  Compiled
 * here for real: a compile failure on line 5, the sorry as context.
 */
static void
test_iverilog_sorry_beside_own_error_fails(void **state)
{
	struct fx *f = *state;
	struct task t;
	struct candidate c;
	struct outcome o;
	char *p, *line = NULL, *code;
	size_t len = 0;
	FILE *fp;
	json_t *row;

	need_data(f);
	need_tool(&env_iverilog);
	p = xasprintf("%s/rtlfixer/verilogeval-syntax.jsonl", f->data);
	fp = fopen(p, "r");
	assert_non_null(fp);
	for (int i = 0; i < 19; i++)
		assert_true(getline(&line, &len, fp) > 0);
	fclose(fp);
	free(p);
	/* pandas wrote NaN for missing fields; none is in the code. */
	for (char *q = line; (q = strstr(q, "NaN")) != NULL; q += 3)
		memcpy(q, "0.0", 3);
	row = json_loads(line, 0, NULL);
	assert_non_null(row);
	free(line);
	/* The importer's code: the prompt (module header), then the
	 * solution (docs/formats.md). */
	code = xasprintf("%s%s", json_string_value(json_object_get(row,
	    "prompt")), json_string_value(json_object_get(row, "solution")));
	assert_non_null(strstr(code, "break;"));
	make_task(&t, "rtlfixer/always_casez", "iverilog",
	    "{\"top\":\"tb\",\"candidate_last\":true}");
	p = (char *)json_string_value(json_object_get(row, "test"));
	task_add_file(&t, "always_casez.sv", "testbench", p, strlen(p));
	make_cand(&c, t.id, code);
	run_plan(f, &env_iverilog, &t, &c, 60, &o);
	assert_int_equal(o.nres, 1);
	assert_non_null(strstr(o.logs[0].p, "sorry: break statements"));
	assert_null(strstr(o.logs[0].p, "Unable to bind"));
	assert_str(o.run.verdict, "fail");
	assert_str(o.run.category, "compile");
	assert_str(o.run.subcategory, "unable-to-bind");
	assert_int_equal(o.run.evidence_line, 5);
	assert_non_null(strstr(o.run.evidence, "candidate.sv:5:"));
	assert_non_null(strstr(o.run.evidence, "'clk'"));
	assert_non_null(strstr(o.run.evidence, "context: candidate.sv:10:"
	    " sorry: break"));
	outcome_release(&o);
	task_release(&t);
	candidate_release(&c);
	free(code);
	json_decref(row);
}

static void
test_iverilog_judge_limits_and_missing_tool(void **state)
{
	struct run r;

	(void)state;
	judge_compile_log("", "candidate.sv", 127, ENV_STOP_NONE, &r);
	assert_str(r.verdict, "env-error");
	assert_str(r.subcategory, "toolchain-missing");
	run_release(&r);

	judge_compile_log("", "candidate.sv", 128 + SIGKILL, ENV_STOP_TIMEOUT,
	    &r);
	assert_str(r.verdict, "timeout");
	assert_str(r.subcategory, "timeout");
	assert_str(r.category, "functional");
	run_release(&r);

	judge_compile_log("x\n", "candidate.sv", 128 + SIGXCPU, ENV_STOP_NONE,
	    &r);
	assert_str(r.verdict, "timeout");
	run_release(&r);

	judge_compile_log("x\n", "candidate.sv", 128 + SIGKILL, ENV_STOP_OUTPUT,
	    &r);
	assert_str(r.verdict, "fail");
	assert_str(r.subcategory, "output-limit");
	run_release(&r);

	judge_compile_log("x\n", "candidate.sv", 128 + SIGXFSZ, ENV_STOP_NONE,
	    &r);
	assert_str(r.verdict, "fail");
	assert_str(r.subcategory, "resource-limit");
	run_release(&r);

	/* A failed compile that printed nothing is still the candidate's. */
	judge_compile_log("", "candidate.sv", 1, ENV_STOP_NONE, &r);
	assert_str(r.verdict, "fail");
	assert_str(r.category, "compile");
	assert_str(r.subcategory, "other");
	run_release(&r);
}

/*
 * A task whose testbench is not there (a pipeline's iverilog member
 * without a "tb"): Icarus Verilog 11 names no file, and that line is the
 * evidence, not "iverilog failed without a message".
 */
static void
test_iverilog_missing_root_module_is_quoted(void **state)
{
	struct fx *f = *state;
	struct task t;
	struct candidate c;
	struct outcome o;
	struct run r;

	need_tool(&env_iverilog);
	make_task(&t, "local/noroot", "iverilog", "{\"top\":\"tb\"}");
	make_cand(&c, t.id, "module TopModule(input a, output b);\n"
	    "  assign b = a;\nendmodule\n");
	run_plan(f, &env_iverilog, &t, &c, 60, &o);
	if (o.nres != 1)
		dump(&o);
	assert_int_equal(o.nres, 1);
	assert_str(o.run.verdict, "fail");
	assert_str(o.run.stage, "compile");
	assert_str(o.run.category, "compile");
	assert_str(o.run.subcategory, "other");
	assert_str(o.run.evidence, "error: Unable to find the root module"
	    " \"tb\" in the Verilog source.");
	assert_int_equal(o.run.ndiags, 1);
	assert_string_equal(o.run.diags[0].file, "");
	assert_string_equal(o.run.diags[0].severity, "error");
	assert_int_equal(o.run.diags[0].cand_line, 0);
	/* It names no candidate line. */
	triage_apply("iverilog", &c, NULL, &o.run);
	assert_str(o.run.category, "compile");
	assert_int_equal(o.run.evidence_line, 0);
	outcome_release(&o);
	candidate_release(&c);
	task_release(&t);

	/* A located error still comes first, wherever it stands. */
	judge_compile_log("error: Unable to find the root module \"tb\" in"
	    " the Verilog source.\n"
	    "     : Perhaps ``-s tb'' is incorrect?\n"
	    "candidate.sv:3: error: Unknown module type: foo\n"
	    "2 error(s) during elaboration.\n", "candidate.sv", 1,
	    ENV_STOP_NONE, &r);
	assert_str(r.subcategory, "unknown-module");
	assert_str(r.evidence, "candidate.sv:3: error: Unknown module type:"
	    " foo");
	assert_int_equal(r.ndiags, 2);
	run_release(&r);
}

/* --- data files ------------------------------------------------------- */

static void
test_iverilog_is_data(void **state)
{
	static const struct { const char *name, *role; int data; } cases[] = {
		{ "tdata.txt", "source", 1 },
		{ "reference.dat", "reference", 1 },
		{ "test_data.dat", "testbench", 1 },
		{ "Makefile", "source", 1 },
		{ "tb.sv", "testbench", 0 },
		{ "testbench.v", "testbench", 0 },
		{ "defs.vh", "source", 0 },
		{ "defs.svh", "source", 0 },
		{ "cells.vlib", "source", 0 },
		{ "golden.vh", "data", 1 },
		{ "x.sv.txt", "source", 1 },
		{ "v", "source", 1 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct task_file f = { (char *)cases[i].name,
		    (char *)cases[i].role, NULL, 0 };

		if (verilog_is_data(&f) != cases[i].data)
			fail_msg("%s (%s): want %d", cases[i].name,
			    cases[i].role, cases[i].data);
	}
}

static void
test_iverilog_data_files_read_at_run_time(void **state)
{
	struct fx *f = *state;
	struct outcome o;
	struct task t;
	struct candidate c;

	need_tool(&env_iverilog);
	make_data_task(&t, "iverilog");
	make_cand(&c, t.id, data_good);
	verify_here(f, &t, &c, &o);
	assert_data_planned(f->dir, &o.plan);
	if (o.run.verdict == NULL || strcmp(o.run.verdict, "pass") != 0)
		dump(&o);
	assert_str(o.run.verdict, "pass");
	assert_str(o.run.metrics, "{\"mismatches\":0,\"total\":4}");
	outcome_release(&o);
	candidate_release(&c);

	/* A wrong design against the same data fails, so the data is read. */
	rm_rf(f->dir);
	assert_int_equal(mkdir(f->dir, 0700), 0);
	make_cand(&c, t.id, "module TopModule(input [7:0] a, output [7:0]"
	    " y);\n  assign y = a;\nendmodule\n");
	verify_here(f, &t, &c, &o);
	assert_str(o.run.verdict, "fail");
	assert_str(o.run.subcategory, "mismatch");
	assert_str(o.run.metrics, "{\"mismatches\":4,\"total\":4}");
	outcome_release(&o);
	candidate_release(&c);
	task_release(&t);
}

#define FX_TEST(t) cmocka_unit_test_setup_teardown(t, fx_setup, fx_teardown)

/* Issue 10: a 40-digit line number in a log overflows nothing (UBSan
 * would stop us); it is held at INT_MAX. */
static void
test_iverilog_judge_long_digit_runs(void **state)
{
	struct run r;

	(void)state;
	judge_compile_log("candidate.sv:1234567890123456789012345678901234567890: syntax error\n"
	    "candidate.sv:3: error: Invalid module item.\n", "candidate.sv", 1,
	    ENV_STOP_NONE, &r);
	assert_str(r.verdict, "fail");
	for (size_t i = 0; i < r.ndiags; i++)
		assert_true(r.diags[i].line >= 0);
	run_release(&r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		FX_TEST(test_iverilog_prepare_plans_harness_commands),
		FX_TEST(test_iverilog_judge_long_digit_runs),
		FX_TEST(test_iverilog_prepare_candidate_last),
		FX_TEST(test_iverilog_wave_signals),
		FX_TEST(test_iverilog_prepare_inputs_with_comma_in_name),
		FX_TEST(test_iverilog_reference_passes),
		FX_TEST(test_iverilog_syntax_error_fails_at_compile),
		FX_TEST(test_iverilog_wrong_candidate_mismatches),
		FX_TEST(test_iverilog_reaching_into_testbench_fails),
		FX_TEST(test_iverilog_forged_result_line_does_not_pass),
		FX_TEST(test_iverilog_forged_line_beside_real_one),
		FX_TEST(test_iverilog_sorry_reference_is_env_error),
		FX_TEST(test_iverilog_judge_recorded_declared_as_wire),
		FX_TEST(test_iverilog_judge_recorded_syntax_error),
		FX_TEST(test_iverilog_judge_every_recorded_compile_error),
		FX_TEST(test_iverilog_missing_root_module_is_quoted),
		FX_TEST(test_iverilog_data_files_read_at_run_time),
		cmocka_unit_test(test_iverilog_is_data),
		cmocka_unit_test(test_iverilog_judge_sorry_only_is_env_error),
		FX_TEST(test_iverilog_sorry_beside_own_error_fails),
		cmocka_unit_test(test_iverilog_judge_limits_and_missing_tool),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
