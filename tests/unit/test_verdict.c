/*
 * test_verdict.c - the Verilog verdict contract (src/envs/verilog.c,
 * docs/envs.md "Verdict contract"; issues 10 and 11): each convention on
 * real output.  Tiny designs with self-checking testbenches are prepared
 * with the iverilog env into a mkdtemp work directory and its planned
 * stages are run here (envtest.h: no sandbox), then judged.  Also the
 * static checks on candidates (verilog_check_candidate()): forbidden
 * constructs and references out of a candidate's own modules, with the
 * stub-module attack of issue 10 item 4.  Skipped when iverilog is not
 * installed.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <unistd.h>
#include <cmocka.h>

#include "base/buf.h"
#include "envs/env.h"
#include "envs/verilog.h"
#include "base/err.h"
#include "base/hash.h"
#include "model/sample.h"
#include "testlib.h"
#include "verify/triage.h"
#include "envtest.h"

extern const struct env_ops env_iverilog;

static int
fx_setup(void **state)
{
	return fx_init(state, "verdict");
}

/* An RTLLM-style self-checking testbench of a 2-input AND, module
 * and2; body is what it prints at the end (errors counted in "error"). */
static char *
rtllm_tb(const char *body)
{
	return xasprintf(
	    "`timescale 1ns/1ps\n"
	    "module testbench;\n"
	    "  reg a, b; wire y; integer i, error = 0;\n"
	    "  and2 uut(.a(a), .b(b), .y(y));\n"
	    "  initial begin\n"
	    "    for (i = 0; i < 4; i = i + 1) begin\n"
	    "      {a, b} = i; #1;\n"
	    "      if (y !== (a & b)) error = error + 1;\n"
	    "    end\n"
	    "%s"
	    "  end\n"
	    "endmodule\n", body);
}

static const char rtllm_verdict[] =
    "    if (error == 0) $display(\"===========Your Design Passed"
    "===========\");\n"
    "    else $display(\"===========Test completed with %d /4 failures"
    "===========\", error);\n"
    "    $finish;\n";

static const char good_and[] =
    "module and2(input a, input b, output y);\n"
    "  assign y = a & b;\n"
    "endmodule\n";

static const char bad_and[] =
    "module and2(input a, input b, output y);\n"
    "  assign y = a | b;\n"
    "endmodule\n";

/* Verify code against a task of one testbench tb with env_params. */
static void
verify_tb(struct fx *f, const char *tb, const char *params,
    const char *code, struct outcome *o)
{
	struct task t;
	struct candidate c;

	need_tool(&env_iverilog);
	make_task(&t, "local/and2", "iverilog", params);
	task_add_file(&t, "testbench.v", "testbench", tb, strlen(tb));
	make_cand(&c, t.id, code);
	run_plan(f, &env_iverilog, &t, &c, 30, o);
	task_release(&t);
	candidate_release(&c);
}

/* Release o and empty the work directory for the next run. */
static void
next_run(struct fx *f, struct outcome *o)
{
	outcome_release(o);
	rm_rf(f->dir);
	assert_int_equal(mkdir(f->dir, 0700), 0);
}

static void
expect(struct outcome *o, const char *verdict, const char *sub)
{
	if (strcmp(o->run.verdict, verdict) != 0 || (sub != NULL &&
	    (o->run.subcategory == NULL || strcmp(o->run.subcategory, sub))))
		dump(o);
	assert_str(o->run.verdict, verdict);
	if (sub != NULL)
		assert_str(o->run.subcategory, sub);
}

static void
test_verdict_rtllm_pass_and_fail(void **state)
{
	struct fx *f = *state;
	char *tb = rtllm_tb(rtllm_verdict);
	struct outcome o;

	verify_tb(f, tb, "{\"top\":\"testbench\"}", good_and, &o);
	expect(&o, "pass", NULL);
	next_run(f, &o);

	/* Exit status 0 and a $finish: the failure line decides. */
	verify_tb(f, tb, "{\"top\":\"testbench\"}", bad_and, &o);
	expect(&o, "fail", "mismatch");
	assert_str(o.run.category, "functional");
	assert_int_equal(o.run.exit_code, 0);
	assert_non_null(strstr(o.run.evidence, "Test completed with"));
	/* The count the testbench reports is a metric. */
	assert_str(o.run.metrics, "{\"failures\":2}");
	outcome_release(&o);
	free(tb);
}

static void
test_verdict_no_verdict_line_is_never_a_pass(void **state)
{
	struct fx *f = *state;
	char *tb = rtllm_tb("    $finish;\n");
	struct outcome o;

	verify_tb(f, tb, "{\"top\":\"testbench\"}", good_and, &o);
	expect(&o, "fail", "no-verdict");
	assert_int_equal(o.run.exit_code, 0);
	outcome_release(&o);
	free(tb);
}

static void
test_verdict_fatal_and_error(void **state)
{
	struct fx *f = *state;
	char *tb = rtllm_tb(
	    "    if (error != 0) $fatal(1, \"%0d failures\", error);\n"
	    "    $display(\"Your Design Passed\");\n"
	    "    $finish;\n");
	char *tb2 = rtllm_tb(
	    "    if (error != 0) $error(\"%0d failures\", error);\n"
	    "    $display(\"Your Design Passed\");\n"
	    "    $finish;\n");
	struct outcome o;

	verify_tb(f, tb, "{\"top\":\"testbench\"}", good_and, &o);
	expect(&o, "pass", NULL);
	next_run(f, &o);
	verify_tb(f, tb, "{\"top\":\"testbench\"}", bad_and, &o);
	expect(&o, "fail", "assertion");
	assert_non_null(strstr(o.run.evidence, "FATAL"));
	assert_non_null(strstr(o.run.evidence, "2 failures"));
	next_run(f, &o);
	/* $error does not end the run: the pass line after it is not
	 * enough. */
	verify_tb(f, tb2, "{\"top\":\"testbench\"}", bad_and, &o);
	expect(&o, "fail", "assertion");
	assert_non_null(strstr(o.run.evidence, "ERROR"));
	outcome_release(&o);
	free(tb);
	free(tb2);
}

static void
test_verdict_archxbench_lines(void **state)
{
	struct fx *f = *state;
	char *tb = rtllm_tb(
	    "    $display(\"Passed: %0d, Failed: %0d\", 4 - error, error);\n"
	    "    $display(\"{\\\"passed\\\": %0d, \\\"failed\\\": %0d}\","
	    " 4 - error, error);\n"
	    "    $finish;\n");
	struct outcome o;

	verify_tb(f, tb, "{\"top\":\"testbench\"}", good_and, &o);
	expect(&o, "pass", NULL);
	assert_str(o.run.metrics, "{\"failures\":0,\"passed\":4}");
	next_run(f, &o);
	verify_tb(f, tb, "{\"top\":\"testbench\"}", bad_and, &o);
	expect(&o, "fail", "mismatch");
	assert_str(o.run.metrics, "{\"failures\":2,\"passed\":2}");
	outcome_release(&o);
	free(tb);
}

static void
test_verdict_task_patterns_and_exit(void **state)
{
	struct fx *f = *state;
	char *tb = rtllm_tb(
	    "    if (error == 0) $display(\"ALL GOOD\");\n"
	    "    else $display(\"BAD %0d\", error);\n"
	    "    $finish;\n");
	char *tb_exit = rtllm_tb(
	    "    $display(\"ALL GOOD\");\n"
	    "    $finish;\n");
	struct outcome o;

	/* Without a contract the line means nothing. */
	verify_tb(f, tb, "{\"top\":\"testbench\"}", good_and, &o);
	expect(&o, "fail", "no-verdict");
	next_run(f, &o);
	verify_tb(f, tb, "{\"top\":\"testbench\",\"pass_pattern\":"
	    "\"^ALL GOOD$\",\"fail_pattern\":\"^BAD [0-9]+\"}", good_and, &o);
	expect(&o, "pass", NULL);
	next_run(f, &o);
	verify_tb(f, tb, "{\"top\":\"testbench\",\"pass_pattern\":"
	    "\"^ALL GOOD$\",\"fail_pattern\":\"^BAD [0-9]+\"}", bad_and, &o);
	expect(&o, "fail", "mismatch");
	assert_str(o.run.evidence, "BAD 2");
	next_run(f, &o);
	/* expect_exit: vvp exits 0 here, the task says 3. */
	verify_tb(f, tb_exit, "{\"top\":\"testbench\",\"pass_pattern\":"
	    "\"ALL GOOD\",\"expect_exit\":3}", good_and, &o);
	expect(&o, "fail", "runtime-error");
	next_run(f, &o);
	/* A pattern that does not compile is the task's defect. */
	verify_tb(f, tb_exit, "{\"top\":\"testbench\",\"pass_pattern\":"
	    "\"ALL (GOOD\"}", good_and, &o);
	expect(&o, "task-defect", "bad-contract");
	assert_non_null(strstr(o.run.evidence, "pass_pattern"));
	outcome_release(&o);
	free(tb);
	free(tb_exit);
}

/* Forgeries: a wrong design that prints the testbench's pass line, ends
 * the run in a final block, or leaves a second result line. */
static void
test_verdict_candidate_lines_are_not_the_testbench(void **state)
{
	struct fx *f = *state;
	char *tb = rtllm_tb(rtllm_verdict);
	char *twice = rtllm_tb(
	    "    if (error == 0) $display(\"Your Design Passed\");\n"
	    "    if (error == 0) $display(\"Your Design Passed\");\n"
	    "    $finish;\n");
	static const char printer[] =
	    "module and2(input a, input b, output y);\n"
	    "  assign y = a | b;\n"
	    "  initial #100 $display(\"===========Your Design Passed"
	    "===========\");\n"
	    "  final $display(\"===========Your Design Passed"
	    "===========\");\n"
	    "endmodule\n";
	static const char finisher[] =
	    "`timescale 1ns/1ps\n"
	    "module and2(input a, input b, output y);\n"
	    "  assign y = a | b;\n"
	    "  initial #2 begin\n"
	    "    $display(\"===========Your Design Passed===========\");\n"
	    "    $finish;\n"
	    "  end\n"
	    "endmodule\n";
	struct outcome o;
	int warned = 0;

	verify_tb(f, tb, "{\"top\":\"testbench\"}", printer, &o);
	expect(&o, "fail", "mismatch");
	for (size_t i = 0; i < o.run.ndiags; i++)
		warned += strstr(o.run.diags[i].message, "verdict line") !=
		    NULL;
	assert_int_equal(warned, 1);
	next_run(f, &o);
	verify_tb(f, tb, "{\"top\":\"testbench\"}", finisher, &o);
	expect(&o, "fail", "no-verdict");
	next_run(f, &o);
	verify_tb(f, twice, "{\"top\":\"testbench\"}", good_and, &o);
	expect(&o, "fail", "second-result-line");
	outcome_release(&o);
	free(tb);
	free(twice);
}

/* Our copy of a testbench: every output line starts with the nonce. */
static void
test_verdict_tagging(void **state)
{
	static const char tb[] =
	    "module tb;\n"
	    "  integer x = 3;\n"
	    "  initial begin\n"
	    "    $display(\"\\nPassed\\nnext\");\n"
	    "    $display(x);\n"
	    "    $display;\n"
	    "    $write(\"a=%d\\n\", x);\n"
	    "    // $display(\"in a comment\");\n"
	    "    $display(\"has $finish; inside\");\n"
	    "    if (x) $error(\"e %d\", x); else $fatal(2, \"f\");\n"
	    "    #1 $finish;$stop;\n"
	    "  end\n"
	    "endmodule\n";
	static const char want[] =
	    "module tb;\n"
	    "  integer x = 3;\n"
	    "  initial begin\n"
	    "    $display(\"\\nN Passed\\nN next\");\n"
	    "    $display(\"N \", x);\n"
	    "    $display(\"N \");\n"
	    "    $write(\"N a=%d\\n\", x);\n"
	    "    // $display(\"in a comment\");\n"
	    "    $display(\"N has $finish; inside\");\n"
	    "    if (x) $error(\"N !error \", \"e %d\", x); else"
	    " $fatal(2, \"N !fatal \", \"f\");\n"
	    "    #1 begin $display(\"N !finish\"); $finish; end"
	    "begin $display(\"N !finish\"); $stop; end\n"
	    "  end\n"
	    "endmodule\n";
	int tagged = 0, finishes = 0;
	size_t len;
	char *out;

	(void)state;
	out = verilog_tag_testbench(tb, strlen(tb), "N", &tagged, &finishes,
	    &len);
	assert_string_equal(out, want);
	assert_int_equal(tagged, 5);
	assert_int_equal(finishes, 3);
	free(out);
}

/* Static checks: what a candidate may not contain. */
static void
test_verdict_candidate_checks(void **state)
{
	static const struct {
		const char *code, *sub;
		int line;
	} cases[] = {
		/* Issue 10 item 4: stubs named like the testbench's
		 * instances, so that the candidate elaborates alone. */
		{ "module TopModule(output zero);\n"
		  "  assign zero = good1.zero;\n"
		  "endmodule\n"
		  "module wrap; stub good1(); endmodule\n"
		  "module stub; wire zero = 0; endmodule\n",
		  "out-of-module-reference", 2 },
		{ "module TopModule(output zero);\n"
		  "  assign zero = 1'b1;\n"
		  "  final begin tb.stats1.errors = 0; end\n"
		  "endmodule\n"
		  "module tb; typedef struct { int errors; } s_t;\n"
		  "  s_t stats1; TopModule t(); endmodule\n",
		  "out-of-module-reference", 3 },
		{ "module TopModule(output zero);\n"
		  "  assign zero = tb . stats1 [0] . errors;\n"
		  "endmodule\n", "out-of-module-reference", 2 },
		/* The grammar reads this module as an ERROR node (a port
		 * named "in"): the lexical scan still sees it. */
		{ "module TopModule(input [3:0] in, output zero);\n"
		  "  assign zero = in[0];\n"
		  "  final tb.stats1.errors = 0;\n"
		  "endmodule\n", "out-of-module-reference", 3 },
		{ "module TopModule(output zero);\n"
		  "  assign zero = $root.tb.x;\n"
		  "endmodule\n", "out-of-module-reference", 2 },
		{ "`define R tb.stats1.errors\n"
		  "module TopModule(output zero);\n"
		  "  final `R = 0;\n"
		  "endmodule\n", "forbidden-construct", 1 },
		{ "module TopModule(output zero);\n"
		  "  initial $c(\"system(\\\"id\\\");\");\n"
		  "endmodule\n", "forbidden-construct", 2 },
		{ "module TopModule(output zero);\n"
		  "  import \"DPI-C\" function int getpid();\n"
		  "endmodule\n", "forbidden-construct", 2 },
		{ "`include \"Prob001_zero_test.sv\"\n"
		  "module TopModule(output zero); endmodule\n",
		  "forbidden-construct", 1 },
		{ "module TopModule(output zero);\n"
		  "`systemc_header\n#include <stdlib.h>\n`verilog\n"
		  "endmodule\n", "forbidden-construct", 2 },
		/* The red team's second round: a macro as the root, odd
		 * blanks, an interface, every $c, reaching in without a
		 * reference, a tool's macro. */
		{ "`define T tb\n"
		  "module TopModule(output zero);\n"
		  "  assign zero = `T.good1.zero;\n"
		  "endmodule\n", "out-of-module-reference", 3 },
		{ "`define P(x) x\n"
		  "module TopModule(output zero);\n"
		  "  assign zero = `P(good1)\n.zero;\n"
		  "endmodule\n", "out-of-module-reference", 3 },
		{ "module TopModule(output zero);\n"
		  "  assign zero = good1.\rzero;\n"
		  "endmodule\n", "out-of-module-reference", 2 },
		{ "module TopModule(output zero);\n"
		  "  assign zero = good1\f.zero;\n"
		  "endmodule\n", "out-of-module-reference", 2 },
		{ "interface i;\n  initial tb.stats1.errors = 0;\n"
		  "endinterface\n", "out-of-module-reference", 2 },
		{ "  assign zero = good1.zero;\nendmodule\n",
		  "out-of-module-reference", 1 },
		{ "module TopModule(output zero);\n"
		  "  initial $c32(\"0\");\n"
		  "endmodule\n", "forbidden-construct", 2 },
		{ "module TopModule(output zero /*verilator public*/);\n"
		  "endmodule\n", "forbidden-construct", 1 },
		{ "module TopModule(output zero);\n"
		  "  initial force zero = 0;\n"
		  "endmodule\n", "forbidden-construct", 2 },
		{ "bit leak;\nmodule TopModule(output zero);\n"
		  "endmodule\n", "forbidden-construct", 1 },
		{ "bind tb spy s();\n", "forbidden-construct", 1 },
		{ "module TopModule(output zero);\n`ifdef YOSYS\n"
		  "`endif\nendmodule\n", "forbidden-construct", 2 },
		{ "`define A 1\n`define A 2\n", "forbidden-construct", 2 },
		/* Issue 22 item 1: the testbench's waveform read back, and
		 * every other way to a file, a descriptor or a control of
		 * the simulation's. */
		{ "module TopModule(output zero);\n  integer fd;\n"
		  "  initial fd = $fopen(\"wave.vcd\", \"r\");\n"
		  "endmodule\n", "forbidden-call", 3 },
		{ "module TopModule(output zero);\n"
		  "  initial $dumpflush;\nendmodule\n", "forbidden-call", 2 },
		{ "module TopModule(output zero);\n  reg [7:0] l;\n"
		  "  initial $fgets(l, 32'h8000_0003);\nendmodule\n",
		  "forbidden-call", 3 },
		{ "module TopModule(output zero);\n  integer r;\n"
		  "  initial r = $fseek(32'h8000_0003, 0, 0);\nendmodule\n",
		  "forbidden-call", 3 },
		{ "module TopModule(output zero);\n  reg [7:0] m[0:3];\n"
		  "  initial $readmemh(\"reference.dat\", m);\nendmodule\n",
		  "forbidden-call", 3 },
		{ "module TopModule(output zero);\n  reg [7:0] m[0:3];\n"
		  "  initial $writememh(\"out.hex\", m);\nendmodule\n",
		  "forbidden-call", 3 },
		{ "module TopModule(output zero);\n"
		  "  initial $fdisplay(32'h8000_0001, \"Mismatches: 0\");\n"
		  "endmodule\n", "forbidden-call", 2 },
		{ "module TopModule(output zero);\n"
		  "  initial $fopenr(\"wave.vcd\");\nendmodule\n",
		  "forbidden-call", 2 },
		{ "module TopModule(output zero);\n  integer fd;\n"
		  "  initial $ivlh_file_open(fd, \"wave.vcd\", 0);\n"
		  "endmodule\n", "forbidden-call", 3 },
		{ "module TopModule(output zero);\n  reg [8*8:1] s;\n"
		  "  initial if ($value$plusargs(\"%s\", s)) ;\n"
		  "endmodule\n", "forbidden-call", 3 },
		{ "module TopModule(output zero);\n"
		  "  initial $assertoff;\nendmodule\n", "forbidden-call", 2 },
		/* Icarus reads the escaped identifier as the task. */
		{ "module TopModule(output zero);\n  integer fd;\n"
		  "  initial fd = \\$fopen (\"wave.vcd\", \"r\");\n"
		  "endmodule\n", "forbidden-call", 3 },
		/* In a macro, used or not. */
		{ "`define OPEN $fopen\nmodule TopModule(output zero);\n"
		  "endmodule\n", "forbidden-call", 1 },
		/* Glued to a macro: the tools read "$fopen" and
		 * "$writememh" (Icarus Verilog 11 and Verilator 5.006). */
		{ "`define F fopen\nmodule TopModule(output zero);\n"
		  "  integer fd;\n  initial fd = $`F(\"wave.vcd\", \"r\");\n"
		  "endmodule\n", "forbidden-construct", 4 },
		{ "`define W memh\nmodule TopModule(output zero);\n"
		  "  reg [7:0] m[0:1];\n  initial $write`W(\"o\", m);\n"
		  "endmodule\n", "forbidden-construct", 4 },
		{ "`define D $\n`define F fopen\n"
		  "module TopModule(output zero);\n  integer fd;\n"
		  "  initial fd = `D`F(\"wave.vcd\");\nendmodule\n",
		  "forbidden-construct", 5 },
		{ "`define D(x) x\nmodule TopModule(output zero);\n"
		  "  integer fd;\n  initial fd = `D($)fopen(\"wave.vcd\");\n"
		  "endmodule\n", "forbidden-construct", 4 },
		/* Issue 22, round 3: a candidate drives its inputs (tran
		 * made them x, which the testbench counts as a match), by
		 * any means that can be told from the code. */
		{ "module TopModule(input [1:0] d, output q);\n"
		  "  wire [1:0] x = 2'bx;\n  tran (d[0], x[0]);\n"
		  "endmodule\n", "drives-input", 3 },
		{ "module TopModule(input d, output q);\n  wire x;\n"
		  "  tranif0 t (d, x, 1'b0);\nendmodule\n",
		  "drives-input", 3 },
		{ "module TopModule(output q);\n  wire a, b;\n"
		  "  rtranif1 (a, b, 1'b1);\nendmodule\n",
		  "drives-input", 3 },
		{ "module TopModule(input d, output q);\n  wire x;\n"
		  "  alias d = x;\nendmodule\n", "drives-input", 3 },
		{ "module TopModule(input [3:0] d, output q);\n"
		  "  assign q = d[0];\n  assign d[1] = 1'bx;\n"
		  "endmodule\n", "drives-input", 3 },
		{ "module TopModule(input a, input b, output q);\n"
		  "  assign q = 0, {a, b} = 2'bx;\nendmodule\n",
		  "drives-input", 2 },
		{ "module TopModule(d, q);\n  input [3:0] d;\n"
		  "  output q;\n  assign d = 4'bx;\nendmodule\n",
		  "drives-input", 4 },
		{ "module TopModule(input d, output q);\n"
		  "  buf (q, 1'b0), (d, 1'bx);\nendmodule\n",
		  "drives-input", 2 },
		{ "module TopModule(input d, output q);\n"
		  "  pullup (d);\nendmodule\n", "drives-input", 2 },
		{ "module TopModule(input d, output q);\n"
		  "  s u (.o(d), .i(q));\nendmodule\n"
		  "module s(output o, input i); assign o = 1'bx; endmodule\n",
		  "drives-input", 2 },
		{ "module TopModule(input d, output q);\n"
		  "  s u (q, d);\nendmodule\n"
		  "module s(input i, output o); assign o = 1'bx; endmodule\n",
		  "drives-input", 2 },
		{ "module TopModule(input d, output q);\n"
		  "  u_p u (d, q);\nendmodule\n"
		  "primitive u_p(output o, input i);\n table 0 : x;\n"
		  " 1 : x;\n endtable\nendprimitive\n", "drives-input", 2 },
		{ "module TopModule(input var logic d, output q);\n"
		  "  initial begin #1 d <= 1'bx; end\nendmodule\n",
		  "drives-input", 2 },
		{ "module TopModule(input integer d, output q);\n"
		  "  always @* d++;\nendmodule\n", "drives-input", 2 },
		{ "module TopModule(input d, output q);\n"
		  "  initial deassign d;\nendmodule\n", "drives-input", 2 },
		{ "module TopModule(input integer d, output q);\n"
		  "  integer j;\n  initial j = $random(d);\nendmodule\n",
		  "drives-input", 3 },
		{ "`define T tran\nmodule TopModule(input d, output q);\n"
		  "  wire x;\n  `T (d, x);\nendmodule\n", "drives-input",
		  4 },
		/* ... or touches the random state the testbench's stimuli
		 * come from (measured with Icarus Verilog 11: $random and
		 * $urandom share no state; $urandom(s) seeds $urandom's). */
		{ "module TopModule(output q);\n  integer j;\n"
		  "  initial j = $random;\nendmodule\n", "forbidden-call", 3 },
		{ "module TopModule(output q);\n  integer j;\n"
		  "  initial j = $random();\nendmodule\n", "forbidden-call",
		  3 },
		{ "module TopModule(output q);\n  integer j;\n"
		  "  initial j = $random(7);\nendmodule\n", "forbidden-call",
		  3 },
		{ "module TopModule(output q);\n  integer j, s;\n"
		  "  initial j = $urandom(s);\nendmodule\n", "forbidden-call",
		  3 },
		{ "module TopModule(output q);\n  integer j;\n"
		  "  initial j = $urandom_range(3);\nendmodule\n",
		  "forbidden-call", 3 },
		{ "module TopModule(output q);\n  integer j;\n"
		  "  initial j = $dist_uniform(0, 0, 9);\nendmodule\n",
		  "forbidden-call", 3 },
		{ "module TopModule(output q);\n"
		  "  initial process::self().srandom(1);\nendmodule\n",
		  "forbidden-call", 2 },
	};
	/* What a candidate may do: its own instances, structs, blocks,
	 * generate loops; words in comments and strings. */
	static const char ok[] =
	    "module TopModule(input clk, input [7:0] in, output [7:0] q);\n"
	    "  typedef struct packed { logic [3:0] a, b; } p_t;\n"
	    "  p_t s;\n"
	    "  sub u1(.x(in[0]), .y());\n"
	    "  genvar i;\n"
	    "  generate for (i = 0; i < 2; i = i + 1) begin : g\n"
	    "    wire w;\n"
	    "  end endgenerate\n"
	    "  // tb.stats1.errors = 0;\n"
	    "  initial $display(\"tb.x %d\", 1.5);\n"
	    "  assign q = {s.a, s.b} ^ {7'b0, u1.y} ^ g[0].w;\n"
	    "  // verilator lint_off UNUSED\n"
	    "`define OWN 1\n"
	    "`ifdef OWN\n  wire [31:0] c = $clog2(8) + $countones(in);\n`endif\n"
	    "  initial $display(\"%0d %0t\", $signed(in), $time);\n"
	    "  wire [7:0] r = 8'h`OWN + $unsigned($bits(in));\n"
	    "endmodule\n"
	    "module sub(input x, output y); assign y = x; endmodule\n";
	/* Inputs read, never driven: as an instance's input, a gate's
	 * input, an index, compared with "<=", on the event list ("or"
	 * is no gate there); a seeded $random of the module's own. */
	static const char ok_inputs[] =
	    "module TopModule(input clk, input reset, input [7:0] d,\n"
	    "    input [2:0] i, output reg [7:0] q, output y);\n"
	    "  wire [7:0] n, m;\n  integer s = 1, j;\n"
	    "  sub u (.x(d[i]), .y(y));\n  sub v (d[1], n[1]);\n"
	    "  buf b[7:0] (m, d);\n  and (n[0], d[0], reset);\n"
	    "  always @(posedge clk or posedge reset)\n"
	    "    if (reset) q <= 0;\n"
	    "    else case (i) 0: q <= d <= 8'h10 ? d : m;\n"
	    "      default: q <= reset ? 8'h0 : d <= 8'h3 ? n : m;\n"
	    "    endcase\n"
	    "  always @(posedge clk) j = $random(s) + $dist_uniform(s, 0, 3);\n"
	    "  integer k;\n  initial for (k = 0; i <= 3'd5; k = k + 1) ;\n"
	    "  function integer f(input integer d); f = d + 1; endfunction\n"
	    "endmodule\n"
	    "module sub(input x, output y); assign y = x; endmodule\n";
	char *r;

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *want = xasprintf("%d\t%s\t", cases[i].line,
		    cases[i].sub);

		r = verilog_check_candidate(cases[i].code,
		    strlen(cases[i].code));
		if (r == NULL)
			fail_msg("case %zu: no finding in:\n%s", i, cases[i].code);
		if (strncmp(r, want, strlen(want)) != 0)
			fail_msg("case %zu: %s", i, r);
		free(want);
		free(r);
	}
	r = verilog_check_candidate(ok, strlen(ok));
	if (r != NULL)
		fail_msg("honest code: %s", r);
	r = verilog_check_candidate(ok_inputs, strlen(ok_inputs));
	if (r != NULL)
		fail_msg("honest inputs: %s", r);
}


/* A task of the shared data: files (NULL-terminated pairs of path under
 * ../shared/data and role) with their base names. */
static void
data_task(struct fx *f, struct task *t, const char *params, ...)
{
	va_list ap;
	const char *path, *role;

	make_task(t, "local/data", "iverilog", params);
	va_start(ap, params);
	while ((path = va_arg(ap, const char *)) != NULL) {
		char *full = xasprintf("%s/%s", f->data, path), *data;

		role = va_arg(ap, const char *);
		data = read_text(full);
		task_add_file(t, strrchr(path, '/') + 1, role, data,
		    strlen(data));
		free(data);
		free(full);
	}
	va_end(ap);
}

/*
 * Issue 11 item 3: the module a candidate must define is the one the
 * testbench instantiates (RTLLM's adder_8bit; its reference defines
 * verified_adder_8bit and full_adder), else the interface's, else
 * VerilogEval's (NULL: triage's default).
 */
static void
test_verdict_expected_tops(void **state)
{
	struct fx *f = *state;
	struct task t;
	char *tops;

	need_data(f);
	data_task(f, &t, NULL,
	    "rtllm/Arithmetic/Adder/adder_8bit/testbench.v", "testbench",
	    "rtllm/Arithmetic/Adder/adder_8bit/verified_adder_8bit.v",
	    "reference", (char *)NULL);
	tops = verilog_expected_tops(&t);
	assert_str(tops, "adder_8bit");
	free(tops);
	task_release(&t);
	data_task(f, &t, NULL,
	    "verilog-eval-v2/Prob041_dff8r_test.sv", "testbench",
	    "verilog-eval-v2/Prob041_dff8r_ref.sv", "reference",
	    (char *)NULL);
	tops = verilog_expected_tops(&t);
	assert_str(tops, "TopModule");
	free(tops);
	task_release(&t);
	/* Issue 22 item 8: ports connected by position ("alu uut(a, b,
	 * aluc, r, ...)"), which the grammar reads as a primitive's
	 * instance; no interface to fall back on. */
	data_task(f, &t, NULL,
	    "rtllm/Miscellaneous/RISC-V/alu/testbench.v", "testbench",
	    (char *)NULL);
	tops = verilog_expected_tops(&t);
	assert_str(tops, "alu");
	free(tops);
	task_release(&t);
	make_task(&t, "local/x", "iverilog", NULL);
	t.interface = xstrdup("module my_alu(input [3:0] a, output y);");
	tops = verilog_expected_tops(&t);
	assert_str(tops, "my_alu");
	free(tops);
	free(t.interface);
	t.interface = NULL;
	assert_null(verilog_expected_tops(&t));
	task_release(&t);
}

/*
 * Issue 22 item 1: env_params.design_reads names the data files a design
 * may $readmemh, by a literal; nothing else of the run is readable, and a
 * name that is not a data file of the task is the task's error.
 * verilog_check_calls() (yosys) checks the calls alone.
 */
static void
test_verdict_design_reads(void **state)
{
	static const char rom[] =
	    "module TopModule(input [1:0] a, output [7:0] q);\n"
	    "  reg [7:0] m[0:3];\n"
	    "  initial $readmemh(\"rom.hex\", m);\n"
	    "  assign q = m[a];\n"
	    "endmodule\n";
	static const char *const refused[] = {
		/* another file: the testbench's expected values */
		"module TopModule(output [7:0] q);\n  reg [7:0] m[0:3];\n"
		"  initial $readmemh(\"reference.dat\", m);\nendmodule\n",
		/* a name the check cannot read */
		"module TopModule(output [7:0] q);\n  reg [7:0] m[0:3];\n"
		"  reg [8*8:1] n = \"rom.hex\";\n"
		"  initial $readmemh(n, m);\nendmodule\n",
		/* a macro that makes the call */
		"`define R(f) $readmemh(f, m)\n"
		"module TopModule(output [7:0] q);\n  reg [7:0] m[0:3];\n"
		"  initial `R(\"reference.dat\");\nendmodule\n",
		"`define R $readmemh(\"rom.hex\", m)\n"
		"module TopModule(output [7:0] q);\n  reg [7:0] m[0:3];\n"
		"  initial `R;\nendmodule\n",
		/* the allowed file, opened as a file */
		"module TopModule(output [7:0] q);\n  integer fd;\n"
		"  initial fd = $fopen(\"rom.hex\", \"r\");\nendmodule\n",
	};
	static const char forced[] =
	    "module m(output z);\n  initial force z = 0;\nendmodule\n";
	struct task t;
	struct err err;
	char *r, *reads;

	(void)state;
	make_task(&t, "local/rom", "iverilog",
	    "{\"top\":\"tb\",\"design_reads\":[\"rom.hex\"]}");
	task_add_file(&t, "rom.hex", "data", "00\n01\n", 6);
	task_add_file(&t, "reference.dat", "data", "00\n", 3);
	assert_int_equal(verilog_design_reads(&t, &reads, &err), 0);
	assert_str(reads, "rom.hex");
	free(reads);
	r = verilog_check_task(&t, rom, strlen(rom));
	if (r != NULL)
		fail_msg("allowed read: %s", r);
	r = verilog_check_calls(&t, rom, strlen(rom));
	if (r != NULL)
		fail_msg("allowed read (yosys): %s", r);
	for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
		r = verilog_check_task(&t, refused[i], strlen(refused[i]));
		if (r == NULL || strstr(r, "\tforbidden-call\t") == NULL)
			fail_msg("case %zu: %s", i, r != NULL ? r : "none");
		free(r);
		r = verilog_check_calls(&t, refused[i], strlen(refused[i]));
		if (r == NULL || strstr(r, "\tforbidden-call\t") == NULL)
			fail_msg("case %zu (yosys): %s", i, r != NULL ? r :
			    "none");
		free(r);
	}
	/* yosys checks the calls alone: force is the simulation's. */
	r = verilog_check_calls(&t, forced, strlen(forced));
	assert_null(r);
	task_release(&t);
	/* Without design_reads no file at all. */
	make_task(&t, "local/rom", "iverilog", "{\"top\":\"tb\"}");
	task_add_file(&t, "rom.hex", "data", "00\n01\n", 6);
	r = verilog_check_task(&t, rom, strlen(rom));
	assert_non_null(r);
	assert_non_null(strstr(r, "3\tforbidden-call\t$readmemh"));
	free(r);
	task_release(&t);
	/* A name that is not a data file, or not a string. */
	make_task(&t, "local/rom", "iverilog", "{\"design_reads\":"
	    "\"test.sv\"}");
	task_add_file(&t, "test.sv", "testbench", "module tb; endmodule\n",
	    21);
	assert_int_equal(verilog_design_reads(&t, &reads, &err), -1);
	assert_non_null(strstr(err.msg, "'test.sv' is not a data file"));
	task_release(&t);
	make_task(&t, "local/rom", "iverilog", "{\"design_reads\":[1]}");
	assert_int_equal(verilog_design_reads(&t, &reads, &err), -1);
	assert_non_null(strstr(err.msg, "a string or an array of strings"));
	task_release(&t);
}

/* A compile failure of a correctly named module is its compile error, on
 * its line; a candidate that defines none of the expected modules is
 * format/missing-top. */
static void
test_verdict_names_in_triage(void **state)
{
	struct fx *f = *state;
	static const char broken[] =
	    "module adder_8bit(input [7:0] a, b, input cin,\n"
	    "    output [7:0] sum, output cout);\n"
	    "  assign {cout, sum} = a + b + cin\n"
	    "endmodule\n";
	static const char renamed[] =
	    "module adder8(input [7:0] a, b, input cin,\n"
	    "    output [7:0] sum, output cout);\n"
	    "  assign {cout, sum} = a + b + cin;\n"
	    "endmodule\n";
	struct task t;
	struct candidate c;
	struct outcome o;
	char *tops;

	need_data(f);
	need_tool(&env_iverilog);
	data_task(f, &t, "{\"top\":\"testbench\"}",
	    "rtllm/Arithmetic/Adder/adder_8bit/testbench.v", "testbench",
	    (char *)NULL);
	tops = verilog_expected_tops(&t);
	make_cand(&c, t.id, broken);
	run_plan(f, &env_iverilog, &t, &c, 30, &o);
	triage_apply("iverilog", &c, tops, &o.run);
	assert_str(o.run.verdict, "fail");
	assert_str(o.run.category, "compile");
	assert_str(o.run.subcategory, "syntax-error");
	assert_int_equal(o.run.evidence_line, 4);
	candidate_release(&c);
	next_run(f, &o);
	make_cand(&c, t.id, renamed);
	run_plan(f, &env_iverilog, &t, &c, 30, &o);
	triage_apply("iverilog", &c, tops, &o.run);
	assert_str(o.run.category, "format");
	assert_str(o.run.subcategory, "missing-top");
	assert_non_null(strstr(o.run.evidence, "no module adder_8bit"));
	outcome_release(&o);
	candidate_release(&c);
	task_release(&t);
	free(tops);
}

/* A sorry (Icarus 11 has no unpacked structs) in a stub does not turn a
 * reference into the testbench into a toolchain limitation. */
static void
test_verdict_sorry_does_not_excuse_a_finding(void **state)
{
	struct fx *f = *state;
	char *tb = rtllm_tb(rtllm_verdict);
	static const char stub[] =
	    "module and2(input a, input b, output y);\n"
	    "  assign y = a | b;\n"
	    "  final testbench.error = 0;\n"
	    "endmodule\n"
	    "module wrapper; stub testbench(); endmodule\n"
	    "module stub;\n"
	    "  typedef struct { int error; } s_t;\n"
	    "  s_t s;\n"
	    "endmodule\n";
	struct outcome o;

	verify_tb(f, tb, "{\"top\":\"testbench\"}", stub, &o);
	assert_non_null(strstr(o.logs[0].p, "sorry"));
	expect(&o, "fail", "out-of-module-reference");
	assert_int_equal(o.run.evidence_line, 3);
	outcome_release(&o);
	free(tb);
}

/* The failure count of a recorded log, for stats --recorded. */
static void
test_verdict_failure_count(void **state)
{
	static const struct {
		const char *log;
		long want;
	} cases[] = {
		{ "Hint: Output 'out' has 119 mismatches.\n"
		  "Hint: Total mismatched samples is 119 out of 120 samples\n"
		  "\nMismatches: 119 in 120 samples\n", 119 },
		{ "Hint: Total mismatched samples is 7 out of 9 samples\n", 7 },
		{ "===========Test completed with          3 /100 failures"
		  "===========\n", 3 },
		{ "Passed: 5, Failed: 2\n", 2 },
		{ "===========Your Design Passed===========\n", -1 },
		{ "", -1 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		assert_int_equal(verilog_failure_count(cases[i].log,
		    strlen(cases[i].log)), cases[i].want);
}

#define FX_TEST(t) cmocka_unit_test_setup_teardown(t, fx_setup, fx_teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_verdict_tagging),
		cmocka_unit_test(test_verdict_candidate_checks),
		cmocka_unit_test(test_verdict_failure_count),
		FX_TEST(test_verdict_rtllm_pass_and_fail),
		FX_TEST(test_verdict_no_verdict_line_is_never_a_pass),
		FX_TEST(test_verdict_fatal_and_error),
		FX_TEST(test_verdict_archxbench_lines),
		FX_TEST(test_verdict_task_patterns_and_exit),
		FX_TEST(test_verdict_candidate_lines_are_not_the_testbench),
		FX_TEST(test_verdict_expected_tops),
		cmocka_unit_test(test_verdict_design_reads),
		FX_TEST(test_verdict_names_in_triage),
		FX_TEST(test_verdict_sorry_does_not_excuse_a_finding),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
