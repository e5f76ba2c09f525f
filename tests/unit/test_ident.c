/*
 * test_ident.c - unit tests for ident.c and textsafe.c (cmocka): what
 * ids, task ids, domains, file names, reviewer names and labels
 * (benchmark, env, origin) may hold, and how untrusted text is made safe
 * to print (issue 10, items 9 and 15).
 * Each hostile value comes from the red-team report in the issue.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include "base/buf.h"
#include "base/err.h"
#include "base/ident.h"
#include "base/hash.h"
#include "base/textsafe.h"

static void
test_ident_ids(void **state)
{
	struct err e;

	(void)state;
	assert_int_equal(ident_check_id("c-000123", &e), 0);
	assert_int_equal(ident_check_id("c3f9a0e1", &e), 0);
	assert_int_equal(ident_check_id("0", &e), 0);
	assert_int_equal(ident_check_id("", &e), -1);
	assert_int_equal(ident_check_id(NULL, &e), -1);
	assert_int_equal(ident_check_id("task", &e), -1);
	assert_int_equal(ident_check_id("Task", &e), -1);
	assert_int_equal(ident_check_id("tasks", &e), 0);
	assert_int_equal(ident_check_id("a.b", &e), -1);
	assert_int_equal(ident_check_id("..", &e), -1);
	assert_int_equal(ident_check_id("a/b", &e), -1);
	assert_int_equal(ident_check_id("-rf", &e), -1);
	assert_int_equal(ident_check_id("_x", &e), -1);
	assert_int_equal(ident_check_id("c-1\nSigned-off-by: x", &e), -1);
	assert_non_null(strstr(e.msg, "0x0a"));
	assert_int_equal(ident_check_id(
	    "0123456789012345678901234567890123456789012345678901234567890123",
	    &e), 0);
	assert_int_equal(ident_check_id(
	    "01234567890123456789012345678901234567890123456789012345678901234",
	    &e), -1);
}

static void
test_ident_task_ids(void **state)
{
	struct err e;

	(void)state;
	assert_int_equal(ident_check_task_id("verilog-eval-v2/Prob041_dff8r",
	    &e), 0);
	assert_int_equal(ident_check_task_id(
	    "kernelbench/level1/1_Square_matrix_multiplication_", &e), 0);
	assert_int_equal(ident_check_task_id("t", &e), 0);
	assert_int_equal(ident_check_task_id("_x/y", &e), 0);
	assert_int_equal(ident_check_task_id("a/../b", &e), -1);
	assert_int_equal(ident_check_task_id("..", &e), -1);
	assert_int_equal(ident_check_task_id("a/./b", &e), -1);
	assert_int_equal(ident_check_task_id("/etc", &e), -1);
	assert_int_equal(ident_check_task_id("a/", &e), -1);
	assert_int_equal(ident_check_task_id("a//b", &e), -1);
	assert_int_equal(ident_check_task_id(".git/hooks", &e), -1);
	assert_int_equal(ident_check_task_id("a/-b", &e), -1);
	assert_int_equal(ident_check_task_id("a b", &e), -1);
	assert_int_equal(ident_check_task_id("a/b/c/d/e/f/g/h", &e), 0);
	assert_int_equal(ident_check_task_id("a/b/c/d/e/f/g/h/i", &e), -1);
	assert_int_equal(ident_check_task_id("", &e), -1);
	assert_int_equal(ident_check_task_id("t/files", &e), -1);
	assert_int_equal(ident_check_task_id("t/files2", &e), 0);
}

static void
test_ident_domains_files(void **state)
{
	struct err e;

	(void)state;
	for (size_t i = 0; i < 5; i++)
		assert_int_equal(ident_check_domain(ident_domains[i], &e), 0);
	assert_int_equal(ident_check_domain("..", &e), -1);
	assert_int_equal(ident_check_domain("Chip", &e), -1);
	assert_int_equal(ident_check_domain("", &e), -1);
	assert_int_equal(ident_check_domain(NULL, &e), -1);
	assert_int_equal(ident_check_file_name("Prob001_zero_test.sv", &e), 0);
	assert_int_equal(ident_check_file_name("c++.h", &e), 0);
	assert_int_equal(ident_check_file_name("tb,v2.sv", &e), 0);
	assert_int_equal(ident_check_file_name("-ofoo_tb.sv", &e), -1);
	assert_int_equal(ident_check_file_name(".hidden", &e), -1);
	assert_int_equal(ident_check_file_name("..", &e), -1);
	assert_int_equal(ident_check_file_name("a/b.sv", &e), -1);
	assert_int_equal(ident_check_file_name("a b.sv", &e), -1);
	assert_int_equal(ident_check_file_name("", &e), -1);
}

static void
test_ident_reviewers(void **state)
{
	struct err e;

	(void)state;
	assert_int_equal(ident_check_reviewer("alice", &e), 0);
	assert_int_equal(ident_check_reviewer("Zo\xc3\xab O'Brien", &e), 0);
	assert_int_equal(ident_check_reviewer("\xe7\x8e\x8b\xe4\xbc\x9f", &e),
	    0);
	assert_int_equal(ident_check_reviewer("eve\nAssay-Verdict: pass", &e),
	    -1);
	assert_int_equal(ident_check_reviewer("a\rb", &e), -1);
	assert_int_equal(ident_check_reviewer("a\x1b]0;t\x07", &e), -1);
	assert_int_equal(ident_check_reviewer("a\xc2\x9b" "b", &e), -1);
	assert_int_equal(ident_check_reviewer("a\xe2\x80\xae" "b", &e), -1);
	assert_int_equal(ident_check_reviewer("a\xe2\x80\xa8" "b", &e), -1);
	assert_int_equal(ident_check_reviewer("\xff", &e), -1);
	assert_int_equal(ident_check_reviewer("x <x@y>", &e), -1);
	assert_int_equal(ident_check_reviewer(" a", &e), -1);
	assert_int_equal(ident_check_reviewer("", &e), -1);
}

/* Benchmark, env and origin names: printable UTF-8, bounded, the
 * message names the field and the offending character. */
static void
test_ident_labels(void **state)
{
	static const char *const good[] = { "verilog-eval-v2", "iverilog+yosys",
	    "gpt-4o-2024-08-06", "org/model:tag@t=0.2", "Zo\xc3\xab's run",
	    "\xe7\x8e\x8b\xe4\xbc\x9f", "a <b>", "x", NULL };
	static const char *const bad[] = { "", " lead", "trail ", "a\nb",
	    "a\rb", "a\tb", "a\x1b]0;title\x07", "a\x1b[2J", "a\x7f",
	    "a\xc2\x9b" "b",		/* C1 CSI */
	    "a\xe2\x80\xa8" "b",	/* line separator */
	    "a\xe2\x80\xa9" "b",	/* paragraph separator */
	    "a\xe2\x80\xae" "b",	/* right-to-left override */
	    "a\xe2\x81\xa6" "b",	/* left-to-right isolate */
	    "a\xe2\x80\x8f" "b",	/* right-to-left mark */
	    "a\xd8\x9c" "b",		/* Arabic letter mark */
	    "\xff", "a\xc3", "\xc0\xaf", NULL };
	char longest[IDENT_LABEL_MAX + 2];
	struct err e;

	(void)state;
	for (size_t i = 0; good[i] != NULL; i++)
		assert_int_equal(ident_check_label(good[i], "a benchmark name",
		    &e), 0);
	for (size_t i = 0; bad[i] != NULL; i++)
		assert_int_equal(ident_check_label(bad[i], "an origin", &e),
		    -1);
	assert_int_equal(ident_check_label(NULL, "an env name", &e), -1);
	assert_string_equal(e.msg, "an env name must not be empty");
	assert_int_equal(ident_check_label("m\x1b]0;x\x07", "an origin", &e),
	    -1);
	assert_string_equal(e.msg, "an origin holds no control characters"
	    " (U+001B at byte 1)");
	assert_int_equal(ident_check_label("a\xe2\x80\xae" "b",
	    "a benchmark name", &e), -1);
	assert_string_equal(e.msg, "a benchmark name holds no line separators"
	    " or direction controls (U+202E at byte 1)");
	memset(longest, 'a', sizeof longest);
	longest[IDENT_LABEL_MAX] = '\0';
	assert_int_equal(ident_check_label(longest, "an origin", &e), 0);
	longest[IDENT_LABEL_MAX] = 'a';
	longest[IDENT_LABEL_MAX + 1] = '\0';
	assert_int_equal(ident_check_label(longest, "an origin", &e), -1);
	assert_string_equal(e.msg, "an origin is at most 200 bytes (this one"
	    " has 201)");
	/* The reviewer's rule is the label's and '<' '>'. */
	assert_int_equal(ident_check_reviewer("a <b>", &e), -1);
}

static void
test_ident_show(void **state)
{
	char out[16];

	(void)state;
	assert_string_equal(ident_show("a\nb", out, sizeof out), "a\\nb");
	assert_string_equal(ident_show("it's", out, sizeof out), "it\\'s");
	assert_string_equal(ident_show("0123456789abcdefghij", out,
	    sizeof out), "0123456789ab...");
	assert_string_equal(ident_show(NULL, out, sizeof out), "(null)");
}

static void
test_textsafe_terminal(void **state)
{
	struct buf b = BUF_INIT;
	/* OSC 52 (clipboard), a title, CSI hidden text, C1 CSI, a NUL,
	 * invalid UTF-8, a right-to-left override, then plain UTF-8. */
	static const char in[] = "a\x1b]52;c;ZXZpbA==\x07" "b\x1b[8mc\r\n"
	    "\xc2\x9b" "2J\0d\xff\xe2\x80\xae" "e\xc3\xa9\t";

	(void)state;
	assert_int_equal(safe_text(&b, in, sizeof in - 1, SAFE_KEEP_LINES),
	    7);
	assert_string_equal(buf_str(&b), "a\\x1b]52;c;ZXZpbA==\\x07b\\x1b[8mc\n"
	    "\\u009b2J\\x00d\\xff\\u202ee\xc3\xa9\t");
	buf_reset(&b);
	assert_int_equal(safe_text(&b, "x\r\ny\tz", 6, 0), 3);
	assert_string_equal(buf_str(&b), "x\\r\\ny\\tz");
	buf_reset(&b);
	assert_int_equal(safe_text(&b, "plain \xc3\xa9", 8, SAFE_KEEP_LINES),
	    0);
	assert_string_equal(buf_str(&b), "plain \xc3\xa9");
	buf_release(&b);
}

static void
test_textsafe_utf8(void **state)
{
	struct buf b = BUF_INIT;
	unsigned cp;

	(void)state;
	assert_int_equal(safe_utf8(&b, "a\xff" "b\0c\xc3\xa9", 7), 2);
	assert_string_equal(buf_str(&b), "a\xef\xbf\xbd" "b\xef\xbf\xbd"
	    "c\xc3\xa9");
	/* overlong, surrogate, beyond U+10FFFF, truncated */
	assert_int_equal(safe_utf8_len("\xc0\xaf", 2, &cp), 0);
	assert_int_equal(safe_utf8_len("\xed\xa0\x80", 3, &cp), 0);
	assert_int_equal(safe_utf8_len("\xf4\x90\x80\x80", 4, &cp), 0);
	assert_int_equal(safe_utf8_len("\xe2\x82", 2, &cp), 0);
	assert_int_equal(safe_utf8_len("\xf0\x9f\x98\x80", 4, &cp), 4);
	assert_int_equal(cp, 0x1f600);
	buf_release(&b);
}

/* A part over IDENT_MAX bytes is shortened with its hash, always the same
 * way, and the result is a valid task id; a short id is unchanged.
 * KernelBench's level 1 problem 79 is the real case (86 bytes). */
static void
test_ident_fit_task_id(void **state)
{
	const char *kb = "kernelbench/level1/79_conv_transposed_1D_asymmetric"
	    "_input_square_kernel___padded____strided____dilated__";
	char *a = ident_fit_task_id(kb), *b = ident_fit_task_id(kb);
	char *s = ident_fit_task_id("kernelbench/level1/19_ReLU");
	char hex[65];
	struct err err;
	const char *last;

	(void)state;
	assert_int_equal(ident_check_task_id(kb, &err), -1);
	assert_string_equal(a, b);
	assert_int_equal(ident_check_task_id(a, &err), 0);
	last = strrchr(a, '/') + 1;
	assert_int_equal(strlen(last), IDENT_MAX);
	hash_sha256(strrchr(kb, '/') + 1, strlen(strrchr(kb, '/') + 1), hex);
	assert_memory_equal(last, strrchr(kb, '/') + 1, IDENT_MAX - 9);
	assert_int_equal(last[IDENT_MAX - 9], '-');
	assert_memory_equal(last + IDENT_MAX - 8, hex, 8);
	assert_string_equal(s, "kernelbench/level1/19_ReLU");
	assert_null(ident_fit_task_id(NULL));
	free(a);
	free(b);
	free(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ident_ids),
		cmocka_unit_test(test_ident_task_ids),
		cmocka_unit_test(test_ident_fit_task_id),
		cmocka_unit_test(test_ident_domains_files),
		cmocka_unit_test(test_ident_reviewers),
		cmocka_unit_test(test_ident_labels),
		cmocka_unit_test(test_ident_show),
		cmocka_unit_test(test_textsafe_terminal),
		cmocka_unit_test(test_textsafe_utf8),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
