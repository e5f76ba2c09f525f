/*
 * test_verilator.c - unit tests for the verilator env (cmocka): what
 * prepare() writes and plans, and what judge() makes of real Verilator
 * 5.006 output.
 *
 * Real runs: each candidate is prepared into a mkdtemp work directory, the
 * planned stages are run here without a sandbox (fork, chdir to the
 * stage's subdirectory, exec, merged stdout+stderr) and their logs go to
 * judge().  Lint runs take 0.1 s; the build-and-run tests (Prob041_dff8r,
 * RealBench's aes_key_expand_128) take about 10 s each, under a second
 * with a warm ccache (the env uses it when installed; here it is the
 * user's own cache).  One test runs a build through verify, where only
 * the build stage may see assay's lasting cache; it starts empty there.
 * Skipped when verilator (or g++, make) is not installed; the dff8r and
 * RealBench tests also need ../shared/data.
 */
#include <dirent.h>
#include <limits.h>
#include <poll.h>
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
#include "base/err.h"
#include "base/hash.h"
#include "model/sample.h"
#include "verify/triage.h"
#include "exec/sandbox.h"
#include "verify/verify.h"
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
	    "tb", "-j", "2", "-Mdir", "obj", "-o", "", NULL };
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
		if (build[i][0] != '\0')
			assert_string_equal(argv[i], build[i]);
	/* The binary, which holds the nonce, in a directory of run/ with a
	 * random name (not the nonce): ../run/RANDOM/Vtb. */
	assert_int_equal(strncmp(argv[12], "../run/", 7), 0);
	assert_int_equal(strlen(argv[12]), 7 + 16 + 4);
	assert_string_equal(argv[12] + 23, "/Vtb");
	assert_null(strstr(argv[12], plan.nonce));
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
	p = xasprintf(".%s", argv[12] + 6);
	assert_string_equal(plan.stages[2].argv[0], p);
	free(p);
	assert_null(plan.stages[2].argv[1]);
	/* No /proc for the simulation: it cannot read its own image. */
	assert_int_equal(plan.stages[2].no_proc, 1);
	assert_int_equal(plan.stages[1].no_proc, 0);

	/* Our copy of the testbench carries the nonce; inputs name the
	 * task's own file. */
	p = xasprintf("%s/p_test.sv", f->dir);
	written = read_text(p);
	free(p);
	want = xasprintf("$display(\"%s Mismatches: %%1d in %%1d samples\"",
	    plan.nonce);
	assert_non_null(strstr(written, want));
	free(want);
	want = xasprintf("begin $display(\"%s !finish\"); $finish; end",
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
	assert_int_equal(o.nres, 4);	/* lint, build, simulate, wave */
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

/*
 * A testbench whose compared "signals" are unpacked arrays: the
 * waveform's harness module prints them as their bits, and the build
 * and the verdict are the candidate's as without it (ADR 0049).
 */
static void
test_verilator_wave_unpacked_signals(void **state)
{
	static const char tb[] =
	    "module tb;\n"
	    "  logic q_ref [0:1];\n"
	    "  logic q_dut [0:1];\n"
	    "  wire y;\n"
	    "  TopModule top_module1(.y(y));\n"
	    "  initial begin #1 $display(\"Mismatches: 0 in 1 samples\");"
	    " $finish; end\n"
	    "endmodule\n";
	struct fx *f = *state;
	struct outcome o;
	struct task t;

	need_tool(&env_verilator);
	make_task(&t, "local/wave", "verilator", NULL);
	task_add_file(&t, "w_test.sv", "testbench", tb, strlen(tb));
	verify_task(f, &t, "module TopModule(output y); assign y = 1;"
	    " endmodule\n", &o);
	task_release(&t);
	if (!verdict_is(o.run.verdict, VERDICT_PASS))
		dump(&o);
	assert_str(o.run.verdict, "pass");
	assert_int_equal(o.nres, 4);
	assert_non_null(o.run.wave);
	assert_non_null(strstr(o.run.wave, "$var wire 2 ! q_ref $end"));
	/* our module adds no warning: the task sets no `timescale */
	assert_null(strstr(o.run.log, "TIMESCALEMOD"));
	outcome_release(&o);
}

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
	if (o.nres != 4)
		dump(&o);
	assert_int_equal(o.nres, 4);
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
	/* The harness module's own VCD of the compared signals (issue
	 * 26): Verilator's first mismatch is where Icarus sees it, 5 ps
	 * (test_iverilog.c), the candidate holding d (24) past reset. */
	assert_non_null(o.run.wave);
	assert_non_null(strstr(o.run.wave, " q_ref $end"));
	assert_null(strstr(o.run.wave, "clk"));
	assert_non_null(o.run.feedback);
	assert_non_null(strstr(o.run.feedback, "\"first_mismatch\":5,"));
	assert_non_null(strstr(o.run.feedback, "\"signals\":[\"q\"]"));
	outcome_release(&o);
}

/* --- RealBench (import_realbench.c) -------------------------------- */

/*
 * The RealBench task of module, as the importer makes it: the files of
 * aes/MODULE/verification (its Makefile and MODULE_top.sv aside) with
 * the importer's roles and env_params.
 */
static void
realbench_task(struct fx *f, const char *module, struct task *t)
{
	char *dir = xasprintf("%s/realbench/aes/%s/verification", f->data,
	    module), *params, *top = xasprintf("%s_top.sv", module);
	struct dirent *de;
	DIR *d = opendir(dir);

	assert_non_null(d);
	params = xasprintf("{\"top\":\"tb\",\"dut_top\":\"%s\",\"cand_file\":"
	    "\"%s\",\"lint_sources\":true,\"timeout_s\":300}", module, top);
	make_task(t, "realbench/x", "verilator", params);
	free(params);
	while ((de = readdir(d)) != NULL) {
		const char *n = de->d_name, *role;
		char *path, *data;

		if (n[0] == '.' || strcmp(n, "Makefile") == 0 ||
		    strcmp(n, top) == 0)
			continue;
		role = strstr(n, "_testbench.") != NULL ||
		    strstr(n, "_stimulus_gen.") != NULL ? "testbench" :
		    strstr(n, "_ref.") != NULL ? "reference" : "source";
		path = xasprintf("%s/%s", dir, n);
		data = read_text(path);
		task_add_file(t, n, role, data, strlen(data));
		free(data);
		free(path);
	}
	closedir(d);
	free(dir);
	free(top);
}

/* The code of a RealBench sample row of model for module, codeid id. */
static char *
realbench_sample(struct fx *f, const char *model, const char *module,
    int id)
{
	char *path = xasprintf("%s/realbench/samples_subset/%s.aes.subset"
	    ".jsonl", f->data, model), *text = read_text(path), *code = NULL;
	char *line = text;

	while (line != NULL && *line != '\0' && code == NULL) {
		char *nl = strchr(line, '\n');
		size_t len = nl != NULL ? (size_t)(nl - line) : strlen(line);
		json_t *row = json_loadb(line, len, 0, NULL);

		if (json_is_object(row) && strcmp(json_string_value(
		    json_object_get(row, "task")), module) == 0 &&
		    json_integer_value(json_object_get(row, "codeid")) == id)
			code = xstrdup(json_string_value(json_object_get(row,
			    "code")));
		json_decref(row);
		line = nl != NULL ? nl + 1 : NULL;
	}
	free(text);
	free(path);
	assert_non_null(code);
	return code;
}

static void
test_verilator_realbench_prepare(void **state)
{
	struct fx *f = *state;
	struct env_plan plan;
	struct task t;
	struct candidate c;
	struct err err;
	char *p, *written, *want;
	size_t i;
	int rcon = 0, sbox = 0;

	need_data(f);
	realbench_task(f, "aes_key_expand_128", &t);
	make_cand(&c, "realbench/x", "module aes_key_expand_128; endmodule\n");
	env_plan_init(&plan);
	assert_int_equal(env_verilator.prepare(&t, &c, f->dir, &plan, &err),
	    0);
	/* The candidate stands where RealBench puts it. */
	assert_string_equal(plan.cand_file, "aes_key_expand_128_top.sv");
	p = xasprintf("%s/aes_key_expand_128_top.sv", f->dir);
	assert_int_equal(access(p, F_OK), 0);
	free(p);
	/* Lint elaborates it with the submodules it instantiates. */
	assert_string_equal(plan.stages[0].argv[7], "aes_key_expand_128");
	assert_string_equal(plan.stages[0].argv[8],
	    "aes_key_expand_128_top.sv");
	for (i = 9; plan.stages[0].argv[i] != NULL; i++) {
		rcon += strcmp(plan.stages[0].argv[i], "aes_rcon.v") == 0;
		sbox += strcmp(plan.stages[0].argv[i], "aes_sbox.v") == 0;
		assert_null(strstr(plan.stages[0].argv[i], "_testbench"));
	}
	assert_int_equal(rcon + sbox, 2);
	/* Only the build may use the lasting compiler cache. */
	assert_int_equal(plan.stages[0].cache, 0);
	assert_int_equal(plan.stages[1].cache,
	    access("/usr/bin/ccache", X_OK) == 0);
	assert_int_equal(plan.stages[2].cache, 0);
	/* RealBench's result line carries the secret; this testbench
	 * prints no "Mismatches:" line, so without it the nonce would be
	 * dropped and any exit status 0 would pass. */
	assert_true(strlen(plan.nonce) >= 8);
	p = xasprintf("%s/aes_key_expand_128_testbench.sv", f->dir);
	written = read_text(p);
	free(p);
	want = xasprintf("%s Hint: Total mismatched samples is", plan.nonce);
	assert_non_null(strstr(written, want));
	free(want);
	free(written);
	/* The stimulus generator's $finish ends the run: it is tagged. */
	p = xasprintf("%s/aes_key_expand_128_stimulus_gen.sv", f->dir);
	written = read_text(p);
	free(p);
	want = xasprintf("$display(\"%s !finish\"); $finish;", plan.nonce);
	assert_non_null(strstr(written, want));
	free(want);
	free(written);
	env_plan_release(&plan);

	/* cand_file must be a plain file name. */
	rm_rf(f->dir);
	assert_int_equal(mkdir(f->dir, 0700), 0);
	free(t.env_params);
	t.env_params = xstrdup("{\"cand_file\":\"../x.sv\"}");
	env_plan_init(&plan);
	assert_int_equal(env_verilator.prepare(&t, &c, f->dir, &plan, &err),
	    -1);
	assert_non_null(strstr(err.msg, "cand_file"));
	env_plan_release(&plan);
	task_release(&t);
	candidate_release(&c);
}

/*
 * RealBench recorded codev-qwen-7b's aes_key_expand_128 codeid 16 as a
 * pass: its testbench prints "wo_0 has 176 mismatches" without the "Hint:
 * Output" prefix RealBench's harness greps for.  Counted by hand with
 * verilator --binary --timing -Wno-fatal -Wno-DECLFILENAME --top-module
 * tb on the verification files and the sample as aes_key_expand_128_top.sv
 * (Verilator 5.006): "Hint: Total mismatched samples is 176 out of 177
 * samples".
 */
static void
test_verilator_realbench_false_pass(void **state)
{
	struct fx *f = *state;
	struct outcome o;
	struct task t;
	char *code;

	need_data(f);
	need_tool(&env_verilator);
	realbench_task(f, "aes_key_expand_128", &t);
	code = keep(f, realbench_sample(f, "codev-qwen-7b",
	    "aes_key_expand_128", 16));
	verify_task(f, &t, code, &o);
	task_release(&t);
	if (o.nres != 4)
		dump(&o);
	assert_int_equal(o.nres, 4);	/* RealBench compares wo_0_ref ... */
	assert_str(o.run.verdict, "fail");
	assert_str(o.run.stage, "simulate");
	assert_str(o.run.subcategory, "mismatch");
	/* every output differs from the first edge on (5 ps) */
	assert_non_null(strstr(o.run.feedback, "\"signals\":[\"wo_0\","
	    "\"wo_1\",\"wo_2\",\"wo_3\"]"));
	assert_non_null(strstr(o.run.feedback, ">    5  63636363  02000000 * "
	    " 63636363  00000000 *"));
	assert_non_null(strstr(o.run.metrics, "\"mismatches\":176,"
	    "\"total\":177"));
	assert_str(o.run.evidence, "wo_0 has 176 mismatches. First at time"
	    " 10");
	/* The evidence points at the line that drives wo_0, "assign wo_0 =
	 * w_0_t;", not at EOFNEWLINE's endmodule (line 65). */
	{
		struct candidate c;

		make_cand(&c, "realbench/x", code);
		triage_apply("verilator", &c, NULL, &o.run);
		assert_int_equal(o.run.evidence_line, 61);
		candidate_release(&c);
	}
	outcome_release(&o);
}

/* The lint or build of a RealBench sample, triaged as verify.c does. */
static void
realbench_triaged(struct fx *f, const char *module, const char *model,
    int id, struct outcome *o)
{
	struct task t;
	struct candidate c;
	char *code = realbench_sample(f, model, module, id);

	realbench_task(f, module, &t);
	make_cand(&c, "realbench/x", code);
	run_plan(f, &env_verilator, &t, &c, 300, o);
	triage_apply("verilator", &c, NULL, &o->run);
	candidate_release(&c);
	task_release(&t);
	free(code);
}

/*
 * The evidence line is the line of the message the evidence quotes.  These
 * samples end without a newline, so Verilator's first message is
 * EOFNEWLINE on endmodule, which used to be the line given.
 */
static void
test_verilator_realbench_evidence_lines(void **state)
{
	struct fx *f = *state;
	struct outcome o;

	need_data(f);
	need_tool(&env_verilator);
	/* PROCASSWIRE on lines 11-15; EOFNEWLINE on line 271. */
	realbench_triaged(f, "aes_sbox", "RTLCoder-Deepseek-v1.1", 1, &o);
	assert_str(o.run.stage, "lint");
	assert_str(o.run.subcategory, "declared-as-wire");
	assert_non_null(strstr(o.run.evidence, "aes_sbox_top.sv:11:20:"));
	assert_non_null(diag_at(&o.run, 271, "EOFNEWLINE"));
	assert_int_equal(o.run.evidence_line, 11);
	outcome_release(&o);
	rm_rf(f->dir);
	assert_int_equal(mkdir(f->dir, 0700), 0);

	/* A syntax error on line 30; EOFNEWLINE on line 50. */
	realbench_triaged(f, "aes_sbox", "llama-3.1-8b-instruct", 1, &o);
	assert_str(o.run.subcategory, "syntax-error");
	assert_non_null(diag_at(&o.run, 50, "EOFNEWLINE"));
	assert_int_equal(o.run.evidence_line, 30);
	outcome_release(&o);
	rm_rf(f->dir);
	assert_int_equal(mkdir(f->dir, 0700), 0);

	/* Other port names: the build fails in the testbench's instance
	 * (PINNOTFOUND), which is no candidate line. */
	realbench_triaged(f, "aes_sbox", "codev-qwen-7b", 1, &o);
	assert_str(o.run.stage, "build");
	assert_str(o.run.subcategory, "port-mismatch");
	assert_str(o.run.evidence, "%Error-PINNOTFOUND:"
	    " aes_sbox_testbench.sv:40:10: Pin not found: 'a'");
	assert_non_null(diag_at(&o.run, 7, "EOFNEWLINE"));
	assert_int_equal(o.run.evidence_line, 0);
	outcome_release(&o);
}

/*
 * The lasting compiler cache (issue 3: builds take 5-110 s): through
 * verify, only the build stage gets it bound, read-write, at /ccache;
 * lint and the simulation, which runs candidate code, never see it, and
 * the build fills it.
 */
static void
test_verilator_cache_only_for_the_build(void **state)
{
	struct fx *f = *state;
	struct verify_opts vo;
	struct verify_job *j;
	struct task t;
	struct candidate c;
	struct run r;
	struct err err;
	char *cache, *bind, *line, *save = NULL;
	int builds = 0, others = 0;
	struct stat sb;

	need_tool(&env_verilator);
	if (access("/usr/bin/ccache", X_OK) != 0) {
		print_message("ccache is not installed; skipped\n");
		skip();
	}
	if (sandbox_check(&err) < 0) {
		print_message("%s; the sandbox binds the cache; skipped\n",
		    err.msg);
		skip();
	}
	assert_int_equal(chmod(f->dir, 0711), 0);
	cache = keep(f, xasprintf("%s/cache", f->dir));
	setenv("ASSAY_CCACHE_DIR", cache, 1);
	memset(&vo, 0, sizeof vo);
	vo.workroot = f->dir;
	make_task(&t, "local/tiny", "verilator", NULL);
	task_add_file(&t, "tb.sv", "testbench", tiny_tb, strlen(tiny_tb));
	make_cand(&c, t.id, "module TopModule(input a, output y);\n"
	    "  assign y = a;\nendmodule\n");
	if (verify_job_start(&j, &vo, &t, &c, 0, 0, 0, &err) < 0)
		fail_msg("verify_job_start: %s", err.msg);
	while (!verify_job_step(j, NULL, NULL)) {
		struct pollfd pfd = { .fd = verify_job_fd(j),
		    .events = POLLIN };

		poll(&pfd, 1, verify_job_timeout_ms(j));
	}
	verify_job_result(j, &r);
	verify_job_free(j);
	unsetenv("ASSAY_CCACHE_DIR");
	if (strcmp(r.verdict, "pass") != 0)
		print_message("%s\n", r.log);
	assert_str(r.verdict, "pass");
	bind = xasprintf("--bind %s /ccache ", cache);
	for (line = strtok_r(r.command, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		if (strstr(line, "prlimit") == NULL)
			continue;
		if (strstr(line, "verilator --binary") != NULL) {
			builds++;
			assert_non_null(strstr(line, bind));
			assert_non_null(strstr(line, "--setenv CCACHE_DIR"
			    " /ccache"));
		} else {
			others++;
			assert_null(strstr(line, "/ccache"));
		}
	}
	free(bind);
	assert_int_equal(builds, 1);
	assert_int_equal(others, 2);
	run_release(&r);
	task_release(&t);
	candidate_release(&c);
	/* The build filled it: ccache keeps objects in subdirectories. */
	assert_int_equal(stat(cache, &sb), 0);
	assert_true(S_ISDIR(sb.st_mode));
	{
		DIR *d = opendir(cache);
		struct dirent *de;
		int n = 0;

		assert_non_null(d);
		while ((de = readdir(d)) != NULL)
			n += de->d_name[0] != '.';
		closedir(d);
		assert_true(n > 0);
	}
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

/* --- data files ------------------------------------------------------- */

static void
test_verilator_data_files_read_at_run_time(void **state)
{
	struct fx *f = *state;
	struct outcome o;
	struct task t;

	need_tool(&env_verilator);
	make_data_task(&t, "verilator");
	verify_task(f, &t, data_good, &o);
	assert_data_planned(f->dir, &o.plan);
	if (o.run.verdict == NULL || strcmp(o.run.verdict, "pass") != 0)
		dump(&o);
	assert_str(o.run.verdict, "pass");
	assert_non_null(strstr(o.run.metrics, "\"mismatches\":0,"
	    "\"total\":4"));
	outcome_release(&o);
	task_release(&t);
}

#define FX_TEST(t) cmocka_unit_test_setup_teardown(t, fx_setup, fx_teardown)

/* Issue 10: a 40-digit line or column overflows nothing. */
static void
test_verilator_judge_long_digit_runs(void **state)
{
	struct run r;

	(void)state;
	judge_build_log("%Error: candidate.sv:1234567890123456789012345678901234567890:1234567890123456789012345678901234567890: syntax"
	    " error\n%Error: Exiting due to 1 error(s)\n", 1, ENV_STOP_NONE,
	    &r);
	assert_str(r.verdict, "fail");
	for (size_t i = 0; i < r.ndiags; i++)
		assert_true(r.diags[i].line >= 0 && r.diags[i].col >= 0);
	run_release(&r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		FX_TEST(test_verilator_prepare_plans_lint_build_run),
		FX_TEST(test_verilator_judge_long_digit_runs),
		FX_TEST(test_verilator_dff8r_reference_lints_clean),
		FX_TEST(test_verilator_width_warning_on_its_line),
		FX_TEST(test_verilator_syntax_error_fails_lint),
		FX_TEST(test_verilator_malformed_literal_and_missing_top),
		FX_TEST(test_verilator_delays_lint_with_timing),
		FX_TEST(test_verilator_dff8r_reference_passes),
		FX_TEST(test_verilator_wave_unpacked_signals),
		FX_TEST(test_verilator_dff8r_mismatches),
		FX_TEST(test_verilator_realbench_prepare),
		FX_TEST(test_verilator_realbench_false_pass),
		FX_TEST(test_verilator_realbench_evidence_lines),
		FX_TEST(test_verilator_cache_only_for_the_build),
		FX_TEST(test_verilator_data_files_read_at_run_time),
		cmocka_unit_test(test_verilator_judge_build_failures),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
