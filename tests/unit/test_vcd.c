/*
 * test_vcd.c - the VCD reader and writer (src/model/vcd.c) on real dumps
 * and on hostile ones (issue 26 item 1).
 *
 * tests/unit/vcd/icarus-prob033.vcd and verilator-prob033.vcd are real:
 * VerilogEval v2's Prob033_ece241_2014_q1c testbench (its own $dumpvars
 * made "if (0)"), its RefModule, the wrong candidate prob033-wrong.sv
 * (overflow = a[7] & b[7]) and the harness module wave-harness.sv, run by
 *   iverilog -g2012 -s tb -s Wabc -o img/sim ...; vvp -n img/sim
 * (Icarus Verilog 11.0) and by Verilator 5.006
 *   verilator --binary --timing --trace --top-module tb ... (with
 *   "bind tb Wabc u_wabc();"), which dumps every signal of the design.
 * The golden values below were read from those files by eye: the first
 * change where overflow_ref is 1 and overflow_dut 0 is at #35 (a = b =
 * 0x70 gives s = 0xe0, a signed overflow), s never differs.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include "base/buf.h"
#include "base/err.h"
#include "model/vcd.h"

static char *
slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *p;
	long n;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	rewind(f);
	p = malloc((size_t)n + 1);
	assert_int_equal(fread(p, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return p;
}

/* The checks both simulators' dumps must pass. */
static void
check_prob033(struct vcd *v, const char *prefix)
{
	struct vcd_pair *pairs;
	size_t np = vcd_pairs(v, &pairs);
	int64_t t;
	char name[64], buf[16];
	size_t which = 0, sp = 0;

	assert_string_equal(v->timescale, "1ps");
	assert_int_equal(np, 2);
	for (size_t i = 0; i < np; i++) {
		if (strcmp(pairs[i].name, "overflow") == 0)
			which = i;
		else
			sp = i;
	}
	assert_string_equal(pairs[sp].name, "s");
	snprintf(name, sizeof name, "%stb.s_ref", prefix);
	assert_string_equal(v->sig[pairs[sp].ref].name, name);
	assert_int_equal(v->sig[pairs[sp].ref].width, 8);
	assert_string_equal(pairs[which].name, "overflow");
	/* s is right all along; overflow first differs at 35 */
	assert_int_equal(vcd_mismatch(v, &pairs[sp], INT64_MIN, 1, &t), -1);
	assert_int_equal(vcd_mismatch(v, &pairs[which], INT64_MIN, 1, &t), 0);
	assert_int_equal(t, 35);
	assert_memory_equal(vcd_value_at(v, pairs[which].ref, 35), "1", 1);
	assert_memory_equal(vcd_value_at(v, pairs[which].cand, 35), "0", 1);
	vcd_format(vcd_value_at(v, pairs[sp].ref, 35), 8, buf, sizeof buf);
	assert_string_equal(buf, "e0");
	/* the next span starts later; the one before 35 is none */
	assert_int_equal(vcd_mismatch(v, &pairs[which], 35, 1, &t), 0);
	assert_true(t > 35);
	assert_int_equal(vcd_mismatch(v, &pairs[which], t, -1, &t), 0);
	assert_int_equal(t, 35);
	assert_int_equal(vcd_mismatch(v, &pairs[which], 35, -1, &t), -1);
	free(pairs);
}

static void
test_vcd_icarus(void **state)
{
	struct vcd v = VCD_INIT;
	struct err err;
	size_t len;
	char *text = slurp("tests/unit/vcd/icarus-prob033.vcd", &len);

	(void)state;
	assert_int_equal(vcd_parse(text, len, "icarus.vcd", &v, &err), 0);
	assert_int_equal(v.nsig, 5);
	assert_int_equal(v.end, 580);
	check_prob033(&v, "");
	vcd_release(&v);
	free(text);
}

static void
test_vcd_verilator_filtered(void **state)
{
	struct vcd v = VCD_INIT, w = VCD_INIT;
	struct buf out = BUF_INIT;
	struct err err;
	size_t len;
	char *text = slurp("tests/unit/vcd/verilator-prob033.vcd", &len);
	int keep[5];

	(void)state;
	assert_int_equal(vcd_parse(text, len, "verilator.vcd", &v, &err), 0);
	assert_true(v.nsig > 20);
	/* aliases share their changes: good1.s is tb.s_ref */
	assert_memory_equal(vcd_value_at(&v, vcd_find(&v, "TOP.tb.good1.s"),
	    35), vcd_value_at(&v, vcd_find(&v, "TOP.tb.s_ref"), 35), 8);
	check_prob033(&v, "TOP.");
	/* keep the compared signals alone, and read them back */
	keep[0] = vcd_find(&v, "TOP.tb.s_ref");
	keep[1] = vcd_find(&v, "TOP.tb.s_dut");
	keep[2] = vcd_find(&v, "TOP.tb.overflow_ref");
	keep[3] = vcd_find(&v, "TOP.tb.overflow_dut");
	keep[4] = vcd_find(&v, "TOP.tb.tb_match");
	assert_int_equal(vcd_write(&v, keep, 5, 1 << 20, &out), 0);
	assert_null(strstr(out.p, "good1"));
	assert_null(strstr(out.p, "wavedrom"));
	assert_int_equal(vcd_parse(out.p, out.len, "kept.vcd", &w, &err), 0);
	assert_int_equal(w.nsig, 5);
	assert_int_equal(w.cut, 0);
	check_prob033(&w, "TOP.");
	vcd_release(&w);
	/* capped: cut at a whole step, and it says so */
	buf_reset(&out);
	assert_int_equal(vcd_write(&v, keep, 5, 600, &out), 1);
	assert_true(out.len < 800);
	assert_non_null(strstr(out.p, "$comment assay: cut at #"));
	assert_int_equal(vcd_parse(out.p, out.len, "cut.vcd", &w, &err), 0);
	assert_int_equal(w.cut, 1);
	vcd_release(&w);
	buf_release(&out);
	vcd_release(&v);
	free(text);
}

/* A hostile dump fails with its name and line. */
static void
expect_error(const char *text, const char *msg)
{
	struct vcd v = VCD_INIT;
	struct err err;

	err.msg[0] = '\0';
	assert_int_equal(vcd_parse(text, strlen(text), "bad.vcd", &v, &err),
	    -1);
	if (strstr(err.msg, msg) == NULL)
		fail_msg("'%s' lacks '%s'", err.msg, msg);
	assert_null(v.sig);
}

static void
test_vcd_hostile(void **state)
{
	static const char head[] = "$timescale 1ps $end\n"
	    "$scope module tb $end\n$var wire 4 ! q_ref $end\n"
	    "$upscope $end\n$enddefinitions $end\n";
	char buf[512];

	(void)state;
	/* truncated in the header, and in a vector change */
	expect_error("$scope module tb $end\n$var wire 1 ! a",
	    "bad.vcd:2: $var without $end (the dump is truncated)");
	expect_error("$scope module tb $end\n$var wire 1 !\n\n",
	    "bad.vcd:2: $var needs a type, a width, an id code and a name");
	expect_error("$var wire 1 ! a $end\n$comment never ends\n",
	    "bad.vcd:2: $comment without $end");
	snprintf(buf, sizeof buf, "%s#0\nb1010", head);
	expect_error(buf, "bad.vcd:7: a vector value without its id code");
	/* huge and zero widths */
	expect_error("$var wire 99999999999999999999 ! a $end\n",
	    "bad.vcd:1: bad width (1 to 4096 bits) '99999999999999999999'");
	expect_error("$var wire 4097 ! a $end\n", "bad.vcd:1: bad width");
	expect_error("$var wire 0 ! a $end\n", "bad.vcd:1: bad width");
	/* bad ids: undeclared, and a value wider than its variable */
	snprintf(buf, sizeof buf, "%s#0\n1\"\n", head);
	expect_error(buf, "bad.vcd:7: a change of an undeclared id code '\"'");
	snprintf(buf, sizeof buf, "%s#0\nb10101 !\n", head);
	expect_error(buf, "bad.vcd:7: a value wider than its variable");
	snprintf(buf, sizeof buf, "%s#0\nb10q1 !\n", head);
	expect_error(buf, "bad.vcd:7: a value that is not 0 1 x z");
	/* time back, a bad time, a stray word, reals, scope underflow */
	snprintf(buf, sizeof buf, "%s#5\n#4\n", head);
	expect_error(buf, "bad.vcd:7: time goes back at '#4'");
	snprintf(buf, sizeof buf, "%s#99999999999999999999\n", head);
	expect_error(buf, "bad.vcd:6: a bad time");
	snprintf(buf, sizeof buf, "%s#1\nhello\n", head);
	expect_error(buf, "bad.vcd:7: not a VCD word 'hello'");
	snprintf(buf, sizeof buf, "%s#1\nr1.5 !\n", head);
	expect_error(buf, "bad.vcd:7: real values are not read");
	expect_error("$upscope $end\n", "bad.vcd:1: $upscope outside");
}

static void
test_vcd_values(void **state)
{
	static const char text[] = "$scope module tb $end\n"
	    "$var wire 6 ! v_ref $end\n$var wire 6 \" v_dut $end\n"
	    "$upscope $end\n$enddefinitions $end\n"
	    "#0\nbx !\nb1 \"\n#10\nb101 !\nb101 \"\n#20\nbz1 !\n";
	struct vcd v = VCD_INIT;
	struct err err;
	char buf[16];

	(void)state;
	assert_int_equal(vcd_parse(text, sizeof text - 1, "v.vcd", &v, &err),
	    0);
	/* extension: x pads with x, 1 with 0 */
	assert_memory_equal(vcd_value_at(&v, 0, 0), "xxxxxx", 6);
	assert_memory_equal(vcd_value_at(&v, 1, 0), "000001", 6);
	assert_null(vcd_value_at(&v, 0, -1));
	/* a reference x matches anything; z matches nothing */
	assert_int_equal(vcd_differs("xxxxxx", "000001", 6), 0);
	assert_int_equal(vcd_differs("000101", "000101", 6), 0);
	assert_int_equal(vcd_differs("000101", "00010x", 6), 1);
	assert_int_equal(vcd_differs("zzzzz1", "zzzzz1", 6), 1);
	vcd_format("000101", 6, buf, sizeof buf);
	assert_string_equal(buf, "05");
	vcd_format("zzzzz1", 6, buf, sizeof buf);
	assert_string_equal(buf, "zzzzz1");
	vcd_format("xxxxxx", 6, buf, sizeof buf);
	assert_string_equal(buf, "x");
	vcd_format(NULL, 6, buf, sizeof buf);
	assert_string_equal(buf, "-");
	vcd_release(&v);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vcd_icarus),
		cmocka_unit_test(test_vcd_verilator_filtered),
		cmocka_unit_test(test_vcd_hostile),
		cmocka_unit_test(test_vcd_values),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
