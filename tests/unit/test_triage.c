/*
 * test_triage.c - failure categories from code and diagnostics (issue 3).
 * The warning lines are Icarus Verilog 11's, as printed for the RTLFixer
 * rows and for `iverilog -g2012 -Wall` on the literals below.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "err.h"
#include "sample.h"
#include "triage.h"

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
	triage_apply("iverilog", &c, &r);
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
	triage_apply("iverilog", &c, &r);
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
	triage_apply("iverilog", &c, &r);
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
	size_t n, hit = 0;
	const struct triage_rule *rules = triage_rules(&n);

	(void)state;
	for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
		struct candidate c;
		struct run r;

		cand(&c, "module TopModule(output z);\nendmodule\n");
		failed_run(&r, "simulate", "functional", "mismatch", "Hint");
		run_add_diag(&r, "candidate.sv", 1, 0, "warning", lines[i], 1);
		triage_apply("iverilog", &c, &r);
		hit += strcmp(r.category, "compile") == 0;
		run_release(&r);
		candidate_release(&c);
	}
	assert_int_equal(hit, sizeof lines / sizeof lines[0]);
	assert_true(n >= 11);
	assert_non_null(rules[0].needle);
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
	triage_apply("iverilog", &c, &r);
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

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_triage_fence_is_format_before_compile),
		cmocka_unit_test(test_triage_prose_before_and_after_code),
		cmocka_unit_test(test_triage_clean_code_is_no_format_violation),
		cmocka_unit_test(test_triage_missing_top_only_when_compile_failed),
		cmocka_unit_test(test_triage_truncation_warning_explains_mismatches),
		cmocka_unit_test(test_triage_warning_outside_candidate_explains_nothing),
		cmocka_unit_test(test_triage_every_rule_maps_its_real_line),
		cmocka_unit_test(test_triage_leaves_passes_and_env_errors),
		cmocka_unit_test(test_triage_mismatch_points_to_the_driving_line),
	};

	return cmocka_run_group_tests_name("triage", tests, NULL, NULL);
}
