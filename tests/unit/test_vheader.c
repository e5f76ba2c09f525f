/*
 * test_vheader.c - unit tests for src/lang/vheader.c and cfunc.c (the
 * functions of a C file: name, prototype, static, comment): module interfaces
 * (ports with direction, type, range and width; parameters; the comment
 * above) in ANSI and non-ANSI styles, widths from parameters, what does
 * not evaluate, and the top of a file with submodules.  The expected
 * values are read off the Verilog texts below by hand.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/err.h"
#include "lang/cfunc.h"
#include "lang/vheader.h"

static const char ansi[] =
    "`timescale 1ns/1ps\n"
    "// A counter.\n"
    "/* It counts up,\n"
    " * by one. */\n"
    "`timescale 1ns/1ps\n"
    "module m #(parameter WIDTH = 8, parameter [3:0] D = 4'd2,\n"
    "    parameter W2 = WIDTH / 2 + 1) (\n"
    "  input wire [WIDTH-1:0] a, b,\n"
    "  input logic signed [7:0] c,\n"
    "  output reg [WIDTH:0] y,\n"
    "  output [1:0][3:0] z,\n"
    "  input q [2],\n"
    "  output [W2-1:0] w,\n"
    "  input [N-1:0] unknown\n"
    ");\n"
    "  localparam L = WIDTH * 2;\n"
    "endmodule\n";

static void
test_vheader_ansi(void **state)
{
	struct vh_file f;
	const struct vh_module *m;
	struct err err;
	long v;

	(void)state;
	assert_int_equal(vh_scan(ansi, strlen(ansi), &f, &err), 0);
	assert_int_equal(f.nmodules, 1);
	m = vh_find(&f, "m");
	assert_non_null(m);
	assert_int_equal(m->line, 6);
	assert_string_equal(m->comment, "A counter.\nIt counts up,\nby one.\n");
	assert_int_equal(m->nparams, 4);
	assert_string_equal(m->params[0].name, "WIDTH");
	assert_string_equal(m->params[0].value, "8");
	assert_int_equal(m->params[0].local, 0);
	assert_string_equal(m->params[1].name, "D");
	assert_string_equal(m->params[1].value, "4'd2");
	assert_string_equal(m->params[3].name, "L");
	assert_int_equal(m->params[3].local, 1);
	assert_int_equal(m->nports, 8);
	/* b has no header of its own: a's */
	assert_string_equal(m->ports[0].name, "a");
	assert_string_equal(m->ports[1].name, "b");
	for (int i = 0; i < 2; i++) {
		assert_string_equal(m->ports[i].dir, "input");
		assert_string_equal(m->ports[i].type, "wire");
		assert_string_equal(m->ports[i].range, "[WIDTH-1:0]");
		assert_int_equal(m->ports[i].width, 8);
	}
	assert_string_equal(m->ports[2].name, "c");
	assert_string_equal(m->ports[2].type, "logic");
	assert_int_equal(m->ports[2].is_signed, 1);
	assert_int_equal(m->ports[2].width, 8);
	assert_int_equal(m->ports[0].is_signed, 0);
	assert_string_equal(m->ports[3].dir, "output");
	assert_string_equal(m->ports[3].type, "reg");
	assert_int_equal(m->ports[3].width, 9);
	assert_string_equal(m->ports[4].range, "[1:0][3:0]");
	assert_int_equal(m->ports[4].width, 8);
	assert_null(m->ports[5].range);
	assert_int_equal(m->ports[5].width, 1);
	assert_string_equal(m->ports[5].unpacked, "[2]");
	/* 8 / 2 + 1 = 5 */
	assert_int_equal(m->ports[6].width, 5);
	/* N is no parameter: the range is all there is */
	assert_string_equal(m->ports[7].range, "[N-1:0]");
	assert_int_equal(m->ports[7].width, 0);
	assert_int_equal(vh_eval(m, "L + (3 << 2) - 4'hA", &v), 1);
	assert_int_equal(v, 16 + 12 - 10);
	assert_int_equal(vh_eval(m, "$clog2(WIDTH) + $clog2(9)", &v), 1);
	assert_int_equal(v, 3 + 4);
	assert_int_equal(vh_eval(m, "WIDTH / 0", &v), 0);
	assert_int_equal(vh_eval(m, "WIDTH +", &v), 0);
	assert_int_equal(f.has_error, 0);
	vh_release(&f);
}

static const char nonansi[] =
    "module sub(input x, output y); assign y = x; endmodule\n"
    "module top(y, a, b);\n"
    "  parameter N = $clog2(16);\n"
    "  input [N-1:0] a;\n"
    "  input b;\n"
    "  output reg [1:0] y;\n"
    "  sub u(.x(b), .y());\n"
    "endmodule\n";

static void
test_vheader_nonansi_and_top(void **state)
{
	struct vh_file f;
	const struct vh_module *m;
	struct err err;

	(void)state;
	assert_int_equal(vh_scan(nonansi, strlen(nonansi), &f, &err), 0);
	assert_int_equal(f.nmodules, 2);
	m = vh_top(&f, nonansi);
	assert_non_null(m);
	assert_string_equal(m->name, "top");
	assert_null(m->comment);
	assert_int_equal(m->nports, 3);
	/* in the header's order, not the declarations' */
	assert_string_equal(m->ports[0].name, "y");
	assert_string_equal(m->ports[0].dir, "output");
	assert_int_equal(m->ports[0].width, 2);
	assert_string_equal(m->ports[1].name, "a");
	assert_string_equal(m->ports[1].dir, "input");
	assert_int_equal(m->ports[1].width, 4);
	assert_int_equal(m->ports[2].width, 1);
	/* the grammar misreads $clog2 there; the value is the text's */
	assert_int_equal(m->nparams, 1);
	assert_string_equal(m->params[0].value, "$clog2(16)");
	assert_null(vh_find(&f, "nosuch"));
	vh_release(&f);
}

static void
test_vheader_broken_text(void **state)
{
	static const char bad[] = "module b(input a,\n  output [3:0 q);\n"
	    "endmodule\n";
	struct vh_file f;
	struct err err;

	(void)state;
	assert_int_equal(vh_scan(bad, strlen(bad), &f, &err), 0);
	assert_int_equal(f.has_error, 1);
	assert_true(f.error_line >= 1 && f.error_line <= 2);
	vh_release(&f);
}

/* RTLLM's fixed_point_adder: a comment in the parameter list makes the
 * grammar read the whole module as an ERROR node holding its header. */
static void
test_vheader_module_in_error(void **state)
{
	static const char fx[] = "module fixed_point_adder #(\n"
	    "\t//Parameterized values\n\tparameter Q = 15,\n"
	    "\tparameter N = 32\n\t)\n\t(\n    input [N-1:0] a,\n"
	    "    input [N-1:0] b,\n    output [N-1:0] c\n    );\n"
	    "reg [N-1:0] res;\nassign c = res;\nalways @(a,b) begin\n"
	    "  if(a[N-1] == b[N-1]) begin res[N-2:0] = a[N-2:0] + "
	    "b[N-2:0]; res[N-1] = a[N-1]; end\nend\nendmodule\n";
	struct vh_file f;
	const struct vh_module *m;
	struct err err;

	(void)state;
	assert_int_equal(vh_scan(fx, strlen(fx), &f, &err), 0);
	assert_int_equal(f.has_error, 1);
	m = vh_find(&f, "fixed_point_adder");
	assert_non_null(m);
	assert_int_equal(m->nparams, 2);
	assert_int_equal(m->nports, 3);
	assert_string_equal(m->ports[2].name, "c");
	assert_string_equal(m->ports[2].dir, "output");
	assert_int_equal(m->ports[2].width, 32);
	vh_release(&f);
}

static void
test_cfunc_prototypes(void **state)
{
	static const char c[] = "#include <stdint.h>\n"
	    "// Scales src into dst.\n"
	    "static inline void\n"
	    "helper(void) { }\n"
	    "/* The sum,\n * wrapping. */\n"
	    "int64_t\n"
	    "sum(const int32_t *a,\n    size_t   n)\n{ return a[0] + n; }\n"
	    "const uint8_t *\npick(const uint8_t *p) { return p; }\n";
	struct cf_file f;
	struct err err;

	(void)state;
	assert_int_equal(cf_scan(c, strlen(c), 0, &f, &err), 0);
	assert_int_equal(f.error_line, 0);
	assert_int_equal(f.nfuncs, 3);
	assert_string_equal(f.funcs[0].name, "helper");
	assert_int_equal(f.funcs[0].is_static, 1);
	assert_string_equal(f.funcs[0].prototype, "void helper(void)");
	assert_string_equal(f.funcs[0].comment, "Scales src into dst.\n");
	assert_string_equal(f.funcs[1].name, "sum");
	assert_int_equal(f.funcs[1].is_static, 0);
	assert_int_equal(f.funcs[1].line, 7);
	/* blanks collapsed, the body left out */
	assert_string_equal(f.funcs[1].prototype,
	    "int64_t sum(const int32_t *a, size_t n)");
	assert_string_equal(f.funcs[1].comment, "The sum,\nwrapping.\n");
	/* a pointer result: the declarator through the pointer */
	assert_string_equal(f.funcs[2].name, "pick");
	assert_string_equal(f.funcs[2].prototype,
	    "const uint8_t * pick(const uint8_t *p)");
	assert_null(f.funcs[2].comment);
	cf_release(&f);
}

static void
test_cfunc_cuda_launches(void **state)
{
	static const char cu[] = "// Scales x.\n"
	    "__global__ void\nscale(float *x, int n)\n"
	    "{ int i = threadIdx.x; if (i < n) x[i] *= 2; }\n"
	    "void run(float *x, int n)\n{\n"
	    "\tscale<<<(n + 255) / 256,\n\t    256, 0>>>(x, n);\n}\n";
	struct cf_file f;
	struct err err;

	(void)state;
	assert_int_equal(cf_scan(cu, strlen(cu), 1, &f, &err), 0);
	assert_int_equal(f.nfuncs, 2);
	assert_string_equal(f.funcs[0].name, "scale");
	assert_int_equal(f.funcs[0].is_kernel, 1);
	assert_string_equal(f.funcs[0].prototype, "void scale(float *x, int n)");
	assert_string_equal(f.funcs[0].comment, "Scales x.\n");
	assert_int_equal(f.funcs[1].is_kernel, 0);
	assert_int_equal(f.nlaunches, 1);
	assert_string_equal(f.launches[0].kernel, "scale");
	assert_string_equal(f.launches[0].config, "<<<(n + 255) / 256, 256, 0>>>");
	assert_string_equal(f.launches[0].caller, "run");
	assert_int_equal(f.launches[0].line, 7);
	cf_release(&f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vheader_ansi),
		cmocka_unit_test(test_vheader_nonansi_and_top),
		cmocka_unit_test(test_vheader_broken_text),
		cmocka_unit_test(test_vheader_module_in_error),
		cmocka_unit_test(test_cfunc_prototypes),
		cmocka_unit_test(test_cfunc_cuda_launches),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
