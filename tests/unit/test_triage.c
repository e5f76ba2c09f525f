/*
 * test_triage.c - failure categories from code and diagnostics (issue 3).
 * The warning lines are Icarus Verilog 11's, as printed for the RTLFixer
 * rows and for `iverilog -g2012 -Wall` on the literals below.  The
 * evidence-line tests use the diagnostics and hint lines of real runs:
 * Verilator 5.006 on RealBench samples (assay verify of
 * ../shared/data/realbench, `assay show ID --json`), Yosys 0.23 on the
 * candidates quoted, Icarus Verilog 11 without the testbench it was told
 * to elaborate.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "envs/env.h"
#include "envs/verilog.h"
#include "base/err.h"
#include "model/sample.h"
#include "verify/triage.h"

extern const struct env_ops env_yosys;

static void
cand(struct candidate *c, const char *code)
{
	memset(c, 0, sizeof *c);
	c->id = xstrdup("c1");
	c->lang = xstrdup("verilog");
	c->code = xstrdup(code);
	c->code_len = strlen(code);
}

static void
failed_run(struct run *r, const char *stage, const char *category,
    const char *sub, const char *evidence)
{
	memset(r, 0, sizeof *r);
	r->verdict = xstrdup("fail");
	r->stage = xstrdup(stage);
	r->category = xstrdup(category);
	r->subcategory = xstrdup(sub);
	r->evidence = xstrdup(evidence);
}

static void
test_triage_fence_is_format_before_compile(void **state)
{
	struct candidate c;
	struct run r;

	(void)state;
	cand(&c, "```verilog\nmodule TopModule(output zero);\n"
	    "  assign zero = 0;\nendmodule\n```\n");
	failed_run(&r, "compile", "compile", "syntax-error",
	    "candidate.sv:1: syntax error");
	triage_apply("iverilog", &c, NULL, &r);
	assert_string_equal(r.category, "format");
	assert_string_equal(r.subcategory, "markdown-fence");
	assert_int_equal(r.evidence_line, 1);
	assert_non_null(strstr(r.evidence, "symptom: candidate.sv:1: syntax"));
	run_release(&r);
	candidate_release(&c);
}

static void
test_triage_prose_before_and_after_code(void **state)
{
	const char *code[] = {
		"Here is the module you asked for:\nmodule TopModule(output z);\n"
		"  assign z = 0;\nendmodule\n",
		"module TopModule(output z);\n  assign z = 0;\nendmodule\n"
		"This module drives a constant zero on its output.\n",
	};
	int lines[] = { 1, 4 };

	(void)state;
	for (int i = 0; i < 2; i++) {
		int line;

		assert_string_equal(triage_format(code[i], strlen(code[i]),
		    "verilog", 0, &line), "prose");
		assert_int_equal(line, lines[i]);
	}
}

static void
test_triage_clean_code_is_no_format_violation(void **state)
{
	const char *code = "// a comment\nmodule top_module(input a,"
	    " output b);\n  // Inverts a.\n  assign b = ~a;\nendmodule\n";
	int line;

	(void)state;
	assert_null(triage_format(code, strlen(code), "verilog", 0, &line));
	assert_int_equal(line, 0);
}

static void
test_triage_missing_top_only_when_compile_failed(void **state)
{
	const char *code = "module Other(input a, output b);\n"
	    "  assign b = a;\nendmodule\n";
	int line;

	(void)state;
	assert_string_equal(triage_format(code, strlen(code), "verilog", 0,
	    &line), "missing-top");
	assert_null(triage_format(code, strlen(code), "verilog", 1, &line));
}

/*
 * The top a task names is looked for as verilog_pick_top() looks for it
 * (verilog_next_module()): '$' belongs to a Verilog identifier, so
 * "top$x" does not declare "top" (triage once stopped the name at '$'
 * and found "top"), and a module in a comment declares nothing.
 */
static void
test_triage_top_read_as_the_env_reads(void **state)
{
	const char *dollar = "module top$x(input a, output b);\n"
	    "  assign b = a;\nendmodule\n";
	const char *commented = "// module top(input a);\n"
	    "/* module top */ module other(input a, output b);\n"
	    "  assign b = a;\nendmodule\n";
	const char *good = "module helper(input a, output b);\n"
	    "  assign b = a;\nendmodule\n"
	    "module top(input a, output b);\n  assign b = a;\nendmodule\n";
	char *name;
	int line;

	(void)state;
	assert_string_equal(triage_format_tops(dollar, strlen(dollar),
	    "verilog", 0, "top", &line), "missing-top");
	name = verilog_pick_top(dollar, strlen(dollar), "top");
	assert_string_equal(name, "top");	/* not found: the first asked */
	free(name);
	assert_string_equal(triage_format_tops(commented, strlen(commented),
	    "verilog", 0, "top", &line), "missing-top");
	assert_null(triage_format_tops(good, strlen(good), "verilog", 0,
	    "other top", &line));
	name = verilog_pick_top(good, strlen(good), "other top");
	assert_string_equal(name, "top");
	free(name);
}

/*
 * Issue 22 item 8: with no module named by the task's files (tops()
 * NULL), the module a task expects is the one the compile log could not
 * find; when the log found them all, a compile failure is the error it
 * is.  An RTLLM alu with an undeclared rst_n was format/missing-top "no
 * TopModule or top_module".
 */
static void
test_triage_missing_top_from_the_log(void **state)
{
	static const char alu[] =
	    "module alu(input [31:0] a, input [31:0] b, output reg [31:0] r);\n"
	    "  always @(posedge a[0] or negedge rst_n)\n"
	    "    if (!rst_n) r <= 0; else r <= a + b;\n"
	    "endmodule\n";
	static const char alu32[] =
	    "module alu32(input [31:0] a, input [31:0] b, output [31:0] r);\n"
	    "  assign r = a + b;\nendmodule\n";
	struct candidate c;
	struct run r;

	(void)state;
	cand(&c, alu);
	failed_run(&r, "compile", "compile", "unable-to-bind",
	    "candidate.sv:2: error: Unable to bind wire/reg/memory `rst_n'"
	    " in `test_alu.uut'");
	run_add_diag(&r, "candidate.sv", 2, 0, "error", "Unable to bind"
	    " wire/reg/memory `rst_n' in `test_alu.uut'", 2);
	triage_apply("iverilog", &c, NULL, &r);
	assert_string_equal(r.category, "compile");
	assert_string_equal(r.subcategory, "unable-to-bind");
	assert_int_equal(r.evidence_line, 2);
	run_release(&r);
	/* The same with the module the task names. */
	failed_run(&r, "compile", "compile", "unable-to-bind",
	    "candidate.sv:2: error: Unable to bind wire/reg/memory `rst_n'"
	    " in `test_alu.uut'");
	triage_apply("iverilog", &c, "alu", &r);
	assert_string_equal(r.category, "compile");
	run_release(&r);
	candidate_release(&c);
	/* Named otherwise: the log says which module is missing. */
	cand(&c, alu32);
	failed_run(&r, "compile", "compile", "unknown-module",
	    "testbench.v:16: error: Unknown module type: alu");
	run_add_diag(&r, "testbench.v", 16, 0, "error",
	    "Unknown module type: alu", 0);
	triage_apply("iverilog", &c, NULL, &r);
	assert_string_equal(r.category, "format");
	assert_string_equal(r.subcategory, "missing-top");
	assert_non_null(strstr(r.evidence, "no module alu;"));
	assert_null(strstr(r.evidence, "TopModule"));
	run_release(&r);
	candidate_release(&c);
}

static void
test_triage_truncation_warning_explains_mismatches(void **state)
{
	struct candidate c;
	struct run r;

	(void)state;
	cand(&c, "module TopModule(input clk, output reg [1:0] q);\n"
	    "  always @(posedge clk) q <= 2'b100;\nendmodule\n");
	failed_run(&r, "simulate", "functional", "mismatch",
	    "Hint: Output 'q' has 86 mismatches. First mismatch occurred at"
	    " time 5.");
	run_add_diag(&r, "candidate.sv", 2, 0, "warning",
	    "extra digits given for sized binary constant.", 2);
	run_add_diag(&r, "candidate.sv", 2, 0, "warning",
	    "Numeric constant truncated to 2 bits.", 2);
	triage_apply("iverilog", &c, NULL, &r);
	assert_string_equal(r.category, "compile");
	assert_string_equal(r.subcategory, "malformed-literal");
	assert_int_equal(r.evidence_line, 2);
	/* The warning is the cause, the mismatches the symptom. */
	assert_non_null(strstr(r.evidence, "candidate.sv:2: warning: extra"));
	assert_non_null(strstr(r.evidence, "symptom: Hint: Output 'q' has 86"));
	run_release(&r);
	candidate_release(&c);
}

static void
test_triage_warning_outside_candidate_explains_nothing(void **state)
{
	struct candidate c;
	struct run r;

	(void)state;
	cand(&c, "module TopModule(output z);\n  assign z = 1;\nendmodule\n");
	failed_run(&r, "simulate", "functional", "mismatch", "Hint: Output");
	run_add_diag(&r, "test.sv", 40, 0, "warning",
	    "Numeric constant truncated to 2 bits.", 0);
	triage_apply("iverilog", &c, NULL, &r);
	assert_string_equal(r.category, "functional");
	assert_string_equal(r.subcategory, "mismatch");
	run_release(&r);
	candidate_release(&c);
}

static void
test_triage_every_rule_maps_its_real_line(void **state)
{
	/* One real warning line per iverilog rule (RTLFixer logs). */
	static const char *const lines[] = {
		"extra digits given for sized binary constant.",
		"Numeric constant truncated to 2 bits.",
		"Port 1 (q) of full_module expects 3 bits, got 1.",
		"@* found no sensitivities so it will never trigger.",
		"always_comb process has no sensitivities.",
		"Instantiating module top_module with dangling input port 1"
		    " (clk) floating.",
		"Part select [4:1] is selecting after the vector concat[3:0].",
		"Part select [-1:0] is selecting before the vector in[3:0].",
		"Constant bit select [4] is after vector cd[3:0].",
		"implicit definition of wire 'xnor_out'.",
		"output port out is coerced to inout.",
	};
	size_t n = 0, hit = 0;
	const struct env_ops *iv = env_find("iverilog");

	(void)state;
	for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
		struct candidate c;
		struct run r;

		cand(&c, "module TopModule(output z);\nendmodule\n");
		failed_run(&r, "simulate", "functional", "mismatch", "Hint");
		run_add_diag(&r, "candidate.sv", 1, 0, "warning", lines[i], 1);
		triage_apply("iverilog", &c, NULL, &r);
		hit += strcmp(r.category, "compile") == 0;
		run_release(&r);
		candidate_release(&c);
	}
	assert_int_equal(hit, sizeof lines / sizeof lines[0]);
	for (size_t i = 0; i < iv->nrules; i++)
		n += strcmp(iv->rules[i].stage, ENV_RULE_WARNING) == 0;
	assert_int_equal(n, 11);
}

/* The one rule engine: parts in order, '^' at the start, stage lists. */
static void
test_triage_rule_engine(void **state)
{
	static const struct env_rule rules[] = {
		{ "check eval", "^CompilationError:*NameError", CATEGORY_API,
		  "name-error" },
		{ "check eval", "^NameError:", CATEGORY_API, "name-error" },
		{ "synth", "Module `*not found", CATEGORY_FORMAT,
		  "missing-top" },
		{ ENV_RULE_WARNING, "LATCH", CATEGORY_FUNCTIONAL, "latch" },
	};
	size_t n = sizeof rules / sizeof rules[0];

	(void)state;
	assert_true(env_rule_matches("^Name", "NameError: x"));
	assert_false(env_rule_matches("^Name", "A NameError: x"));
	assert_true(env_rule_matches("a*c", "xxabbbcxx"));
	assert_false(env_rule_matches("c*a", "abc"));
	assert_ptr_equal(env_rule_find(rules, n, "eval",
	    "CompilationError: at 3:4: NameError('x')"), &rules[0]);
	assert_null(env_rule_find(rules, n, "eval",
	    "RuntimeError: NameError: x"));
	assert_ptr_equal(env_rule_find(rules, n, "check", "NameError: x"),
	    &rules[1]);
	assert_null(env_rule_find(rules, n, "run", "NameError: x"));
	assert_ptr_equal(env_rule_find(rules, n, "synth",
	    "ERROR: Module `top' not found!"), &rules[2]);
	assert_null(env_rule_find(rules, n, "synth",
	    "ERROR: Module `top' has no port"));
	/* a warning rule is for triage only, and the reverse */
	assert_null(env_rule_find(rules, n, "lint", "%Warning-LATCH: x"));
	assert_ptr_equal(env_rule_find(rules, n, ENV_RULE_WARNING,
	    "%Warning-LATCH: x"), &rules[3]);
	assert_null(env_rule_find(rules, n, ENV_RULE_WARNING, "NameError: x"));
	assert_null(env_rule_find(rules, n, "synth", NULL));
}

static void
test_triage_leaves_passes_and_env_errors(void **state)
{
	struct candidate c;
	struct run r;

	(void)state;
	cand(&c, "```\n");
	memset(&r, 0, sizeof r);
	r.verdict = xstrdup("env-error");
	triage_apply("iverilog", &c, NULL, &r);
	assert_null(r.category);
	run_release(&r);
	candidate_release(&c);
}

static void
test_triage_mismatch_points_to_the_driving_line(void **state)
{
	/* A real RTLFixer shape: the output is declared, then driven. */
	const char *code = "module top_module (\n"
	    "\tinput clk,\n"
	    "\tinput [7:0] d,\n"
	    "\toutput reg [7:0] q\n"
	    ");\n"
	    "\talways @(posedge clk)\n"
	    "\t\tif (q <= 8'd3) q <= d;\n"
	    "endmodule\n";
	const char *wire = "module m(input a, output y, output z);\n"
	    "  assign z = a;\n"
	    "  assign y = ~a;\nendmodule\n";
	const char *ev = "Hint: Output 'q' has 86 mismatches. First mismatch"
	    " occurred at time 5.";

	(void)state;
	assert_int_equal(triage_output_line(code, strlen(code), ev), 7);
	assert_int_equal(triage_output_line(wire, strlen(wire),
	    "Hint: Output 'y' has 3 mismatches."), 3);
	/* Only declared: the declaration. */
	assert_int_equal(triage_output_line(wire, strlen(wire),
	    "Hint: Output 'a' has 1 mismatches."), 1);
	assert_int_equal(triage_output_line(wire, strlen(wire), "no hint"), 0);
}

/* Verilator's lint of RealBench's aes_sbox, RTLCoder-Deepseek-v1.1 codeid
 * 1 (c6726e9b): the file ends without a newline, so EOFNEWLINE on
 * endmodule comes first; the errors are on the case lines. */
static void
procasswire_run(struct run *r, const char *evidence)
{
	static const char msg[] = "PROCASSWIRE: Procedural assignment to"
	    " wire, perhaps intended var (IEEE 1800-2017 6.5): 'b'";

	failed_run(r, "lint", "compile", "declared-as-wire", evidence);
	run_add_diag(r, "aes_sbox_top.sv", 271, 10, "warning", "EOFNEWLINE:"
	    " Missing newline at end of file (POSIX 3.206).", 271);
	for (int l = 11; l <= 15; l++)
		run_add_diag(r, "aes_sbox_top.sv", l, 20, "error", msg, l);
}

static void
test_triage_evidence_line_is_the_quoted_error(void **state)
{
	struct candidate c;
	struct run r;

	(void)state;
	cand(&c, "module aes_sbox(a,b);\ninput [7:0] a;\noutput [7:0] b;\n"
	    "endmodule");
	procasswire_run(&r, "%Error-PROCASSWIRE: aes_sbox_top.sv:11:20:"
	    " Procedural assignment to wire, perhaps intended var (IEEE"
	    " 1800-2017 6.5): 'b'");
	triage_apply("verilator", &c, NULL, &r);
	assert_string_equal(r.category, "compile");
	assert_int_equal(r.evidence_line, 11);
	run_release(&r);

	/* Five errors share the message: the place tells which. */
	procasswire_run(&r, "%Error-PROCASSWIRE: aes_sbox_top.sv:13:20:"
	    " Procedural assignment to wire, perhaps intended var (IEEE"
	    " 1800-2017 6.5): 'b'");
	triage_apply("verilator", &c, NULL, &r);
	assert_int_equal(r.evidence_line, 13);
	run_release(&r);

	/* llama-3.1-8b-instruct codeid 1 (c8469aa3): a syntax error on
	 * line 30, EOFNEWLINE on line 50. */
	failed_run(&r, "lint", "compile", "syntax-error", "%Error:"
	    " aes_sbox_top.sv:30:34: syntax error, unexpected INTEGER NUMBER,"
	    " expecting ',' or ';'");
	run_add_diag(&r, "aes_sbox_top.sv", 50, 10, "warning", "EOFNEWLINE:"
	    " Missing newline at end of file (POSIX 3.206).", 50);
	run_add_diag(&r, "aes_sbox_top.sv", 30, 34, "error", "syntax error,"
	    " unexpected INTEGER NUMBER, expecting ',' or ';'", 30);
	triage_apply("verilator", &c, NULL, &r);
	assert_int_equal(r.evidence_line, 30);
	run_release(&r);
	candidate_release(&c);
}

static void
test_triage_testbench_error_has_no_line(void **state)
{
	struct candidate c;
	struct run r;

	(void)state;
	/* codev-qwen-7b's aes_sbox codeid 1 (cf807700) names its ports
	 * otherwise: the build fails in the testbench's instance. */
	cand(&c, "module aes_sbox(input [7:0] in, output [7:0] out);\n"
	    "endmodule");
	failed_run(&r, "build", "compile", "port-mismatch", "%Error-PINNOTFOUND:"
	    " aes_sbox_testbench.sv:40:10: Pin not found: 'a'");
	run_add_diag(&r, "aes_sbox_top.sv", 7, 10, "warning", "EOFNEWLINE:"
	    " Missing newline at end of file (POSIX 3.206).", 7);
	run_add_diag(&r, "aes_sbox_testbench.sv", 40, 10, "error",
	    "PINNOTFOUND: Pin not found: 'a'", 0);
	run_add_diag(&r, "aes_sbox_testbench.sv", 41, 10, "error",
	    "PINNOTFOUND: Pin not found: 'b'", 0);
	triage_apply("verilator", &c, NULL, &r);
	assert_string_equal(r.subcategory, "port-mismatch");
	assert_int_equal(r.evidence_line, 0);
	run_release(&r);
	candidate_release(&c);

	/* Icarus Verilog's elaboration error names no file: no line. */
	cand(&c, "module TopModule(output z);\n  assign z = x;\nendmodule\n");
	failed_run(&r, "compile", "compile", "other", "error: Unable to find"
	    " the root module \"tb\" in the Verilog source.");
	run_add_diag(&r, "candidate.sv", 2, 0, "warning", "implicit"
	    " definition of wire 'x'.", 2);
	run_add_diag(&r, "", 0, 0, "error", "Unable to find the root module"
	    " \"tb\" in the Verilog source.", 0);
	triage_apply("iverilog", &c, NULL, &r);
	assert_int_equal(r.evidence_line, 0);
	run_release(&r);
	candidate_release(&c);
}

static void
test_triage_unquoted_evidence_prefers_errors(void **state)
{
	struct candidate c;
	struct run r;

	(void)state;
	cand(&c, "module TopModule(output z);\n  assign z = 1;\nendmodule\n");
	/* No message quoted: the first error on a candidate line. */
	failed_run(&r, "build", "compile", "other", "verilator failed without"
	    " a message");
	run_add_diag(&r, "candidate.sv", 3, 10, "warning", "EOFNEWLINE:"
	    " Missing newline at end of file (POSIX 3.206).", 3);
	run_add_diag(&r, "candidate.sv", 2, 3, "error", "Can't find"
	    " definition of variable: 'zz'", 2);
	triage_apply("verilator", &c, NULL, &r);
	assert_int_equal(r.evidence_line, 2);
	run_release(&r);

	/* Only warnings: none of them is the cause of a timeout. */
	memset(&r, 0, sizeof r);
	r.verdict = xstrdup("timeout");
	r.stage = xstrdup("simulate");
	r.category = xstrdup("functional");
	r.subcategory = xstrdup("timeout");
	r.evidence = xstrdup("the run passed its wall clock (300 s)");
	run_add_diag(&r, "candidate.sv", 3, 10, "warning", "EOFNEWLINE:"
	    " Missing newline at end of file (POSIX 3.206).", 3);
	triage_apply("verilator", &c, NULL, &r);
	assert_int_equal(r.evidence_line, 0);
	run_release(&r);
	candidate_release(&c);
}

/* Judge a recorded yosys synth log (exit status code) as yosys.c does. */
static void
yosys_judge_log(const char *params, const char *log, int code,
    struct run *r)
{
	static const char *const none[] = { "true", NULL };
	struct env_plan plan;
	struct env_stage_result res;
	struct task t = { 0 };

	env_plan_init(&plan);
	plan.cand_file = xstrdup("candidate.sv");
	env_plan_stage(&plan, "synth", none);
	memset(&res, 0, sizeof res);
	res.ran = 1;
	res.exit_code = code;
	res.log = log;
	res.log_len = strlen(log);
	t.env_params = (char *)params;
	memset(r, 0, sizeof *r);
	env_yosys.judge(&t, &plan, &res, 1, ENV_STOP_NONE, r);
	env_plan_release(&plan);
}

static void
test_triage_yosys_evidence_line(void **state)
{
	const char *drivers = "module TopModule (\n  input a,\n  input b,\n"
	    "  output y\n);\n  assign t = a;\n  assign y = a & b;\n"
	    "  assign y = t | b;\nendmodule\n";
	const char *latch = "module TopModule (\n  input en,\n  input d,\n"
	    "  output reg q\n);\n  assign t = d;\n  always @(*)\n"
	    "    if (en)\n      q = t;\nendmodule\n";
	const char *unknown = "module TopModule (\n  input a,\n  output y\n"
	    ");\n  assign t = a;\n  foo u (.a(a), .y(y));\nendmodule\n";
	struct candidate c;
	struct run r;

	(void)state;
	/* The implicit wire's warning comes first; the drivers decide. */
	cand(&c, drivers);
	yosys_judge_log(NULL, "candidate.sv:6: Warning: Identifier `\\t' is"
	    " implicitly declared.\n"
	    "Warning: multiple conflicting drivers for"
	    " TopModule.\\candidate.sv:8.14-8.19$0:\n"
	    "    port Y[0] of cell candidate.sv:8.14-8.19$2 ($or)\n"
	    "    port Y[0] of cell candidate.sv:7.14-7.19$3 ($and)\n"
	    "ERROR: Found 1 problems in 'check -assert'.\n", 1, &r);
	triage_apply("yosys", &c, NULL, &r);
	assert_string_equal(r.subcategory, "multiple-drivers");
	assert_int_equal(r.evidence_line, 8);
	run_release(&r);
	candidate_release(&c);

	cand(&c, latch);
	yosys_judge_log("{\"latches\":false}", "candidate.sv:6: Warning:"
	    " Identifier `\\t' is implicitly declared.\n"
	    "Warning: Found log message matching -W regex:\n"
	    "Latch inferred for signal `\\TopModule.\\q' from process"
	    " `\\TopModule.$proc$candidate.sv:7$1':"
	    " $auto$proc_dlatch.cc:427:proc_dlatch$15\n", 0, &r);
	triage_apply("yosys", &c, NULL, &r);
	assert_string_equal(r.subcategory, "latch");
	assert_int_equal(r.evidence_line, 7);
	run_release(&r);
	candidate_release(&c);

	/* The unknown module's error names no line: none, not the
	 * warning's. */
	cand(&c, unknown);
	yosys_judge_log(NULL, "candidate.sv:5: Warning: Identifier `\\t' is"
	    " implicitly declared.\n"
	    "ERROR: Module `\\foo' referenced in module `\\TopModule' in cell"
	    " `\\u' is not part of the design.\n", 1, &r);
	triage_apply("yosys", &c, NULL, &r);
	assert_string_equal(r.subcategory, "unknown-module");
	assert_int_equal(r.evidence_line, 0);
	run_release(&r);
	candidate_release(&c);
}

/* codev-qwen-7b's aes_cipher_top codeid 8 (c948f092), the lines that
 * drive text_out (96 and 108 in the sample). */
static const char cipher_code[] =
    "module aes_cipher_top (\n"
    "   done, text_out,\n"
    "   clk, rst, ld, key, text_in\n"
    "   ) ;\n"
    "   output [127:0]  text_out;\n"
    "   reg    [127:0]  text_out;\n"
    "   always @* begin\n"
    "      done = 1'b0;\n"
    "      text_out = 128'h0;\n"
    "      case (state)\n"
    "        DONE : begin\n"
    "           done = 1'b1;\n"
    "           text_out = {sa[0][0], sa[0][1], sa[0][2], sa[0][3],\n"
    "                       sa[3][0], sa[3][1], sa[3][2], sa[3][3]};\n"
    "        end\n"
    "      endcase // case (state)\n"
    "   end\n"
    "endmodule";

/* codev-qwen-7b's aes_key_expand_128 codeid 16 (c264a1a9): wo_0 is read
 * on line 7 and driven on line 9 (30 and 61 in the sample). */
static const char expand_code[] =
    "module aes_key_expand_128(clk, kld, key, wo_0, wo_1, wo_2, wo_3) ;\n"
    "  output [31:0]  wo_0, wo_1, wo_2, wo_3;\n"
    "  wire   [31:0]  wo_0, wo_1, wo_2, wo_3;\n"
    "  always @(posedge clk)\n"
    "  begin\n"
    "    if (kld) w[0] <= key[127:96];\n"
    "    else w[0] <= wo_0;\n"
    "  end\n"
    "  assign wo_0 = w_0_t;\n"
    "  assign wo_1 = w_1_t;\n"
    "endmodule";

static void
test_triage_realbench_mismatch_hints(void **state)
{
	struct candidate c;
	struct run r;

	(void)state;
	/* RealBench's hint names the output without quotes. */
	assert_int_equal(triage_output_line(cipher_code, strlen(cipher_code),
	    "Hint: Output text_out has 287 mismatches. First at time 15"), 13);
	/* ... or without "Hint: Output" at all. */
	assert_int_equal(triage_output_line(expand_code, strlen(expand_code),
	    "wo_0 has 176 mismatches. First at time 10"), 9);
	assert_int_equal(triage_output_line(expand_code, strlen(expand_code),
	    "wo_1 has 154 mismatches. First at time 10"), 10);
	/* "total" is the testbench's sum, no output. */
	assert_int_equal(triage_output_line(expand_code, strlen(expand_code),
	    "total has 176 mismatches. First at time 10"), 0);
	assert_int_equal(triage_output_line(expand_code, strlen(expand_code),
	    "Hint: Total mismatched samples is 176 out of 177 samples"), 0);

	/* Through triage: the driving line, not EOFNEWLINE's endmodule. */
	cand(&c, expand_code);
	failed_run(&r, "simulate", "functional", "mismatch", "wo_0 has 176"
	    " mismatches. First at time 10");
	run_add_diag(&r, "aes_key_expand_128_top.sv", 11, 10, "warning",
	    "EOFNEWLINE: Missing newline at end of file (POSIX 3.206).", 11);
	run_add_diag(&r, "aes_key_expand_128_top.sv", 2, 18, "warning",
	    "UNUSEDSIGNAL: Signal is not used: 's0_t'", 2);
	triage_apply("verilator", &c, NULL, &r);
	assert_string_equal(r.category, "functional");
	assert_int_equal(r.evidence_line, 9);
	run_release(&r);
	candidate_release(&c);

	cand(&c, cipher_code);
	failed_run(&r, "simulate", "functional", "mismatch", "Hint: Output"
	    " text_out has 287 mismatches. First at time 15");
	run_add_diag(&r, "aes_cipher_top_top.sv", 18, 10, "warning",
	    "EOFNEWLINE: Missing newline at end of file (POSIX 3.206).", 18);
	triage_apply("verilator", &c, NULL, &r);
	assert_int_equal(r.evidence_line, 13);
	run_release(&r);
	candidate_release(&c);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_triage_fence_is_format_before_compile),
		cmocka_unit_test(test_triage_prose_before_and_after_code),
		cmocka_unit_test(test_triage_clean_code_is_no_format_violation),
		cmocka_unit_test(test_triage_missing_top_only_when_compile_failed),
		cmocka_unit_test(test_triage_top_read_as_the_env_reads),
		cmocka_unit_test(test_triage_missing_top_from_the_log),
		cmocka_unit_test(test_triage_truncation_warning_explains_mismatches),
		cmocka_unit_test(test_triage_warning_outside_candidate_explains_nothing),
		cmocka_unit_test(test_triage_every_rule_maps_its_real_line),
		cmocka_unit_test(test_triage_rule_engine),
		cmocka_unit_test(test_triage_leaves_passes_and_env_errors),
		cmocka_unit_test(test_triage_mismatch_points_to_the_driving_line),
		cmocka_unit_test(test_triage_evidence_line_is_the_quoted_error),
		cmocka_unit_test(test_triage_testbench_error_has_no_line),
		cmocka_unit_test(test_triage_unquoted_evidence_prefers_errors),
		cmocka_unit_test(test_triage_yosys_evidence_line),
		cmocka_unit_test(test_triage_realbench_mismatch_hints),
	};

	return cmocka_run_group_tests_name("triage", tests, NULL, NULL);
}
