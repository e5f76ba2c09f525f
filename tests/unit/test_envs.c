/*
 * test_envs.c - unit tests for the envs' shared helpers (envs.c): the
 * checked number parsing every log parser uses (issue 10), held at
 * INT_MAX, the limits' verdicts (a killed harness), env_verdict(), the
 * one located-message parser and the one nonce.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/err.h"
#include "envs/env.h"
#include "model/sample.h"

static void
test_env_digits(void **state)
{
	const char *s, *p;
	int n;

	(void)state;
	s = "1234:rest";
	p = s;
	assert_int_equal(env_digits(&p, NULL, &n), 4);
	assert_int_equal(n, 1234);
	assert_ptr_equal(p, s + 4);
	/* end bounds the run. */
	p = s;
	assert_int_equal(env_digits(&p, s + 2, &n), 2);
	assert_int_equal(n, 12);
	/* No digit. */
	p = ":1";
	assert_int_equal(env_digits(&p, NULL, &n), 0);
	assert_int_equal(n, 0);
	/* INT_MAX fits, one more does not; 40 digits are skipped whole. */
	p = "2147483647";
	assert_int_equal(env_digits(&p, NULL, &n), 10);
	assert_int_equal(n, INT_MAX);
	p = "2147483648";
	assert_int_equal(env_digits(&p, NULL, &n), 10);
	assert_int_equal(n, INT_MAX);
	s = "1234567890123456789012345678901234567890: x";
	p = s;
	assert_int_equal(env_digits(&p, NULL, &n), 40);
	assert_int_equal(n, INT_MAX);
	assert_ptr_equal(p, s + 40);
	/* Leading zeros are digits, not magnitude. */
	p = "0000000000000000000000000000000000000042";
	assert_int_equal(env_digits(&p, NULL, &n), 40);
	assert_int_equal(n, 42);
}

static void
test_env_atoi(void **state)
{
	(void)state;
	assert_int_equal(env_atoi("17 rest"), 17);
	assert_int_equal(env_atoi("x"), 0);
	assert_int_equal(env_atoi(""), 0);
	assert_int_equal(env_atoi("-5"), 0);
	assert_int_equal(env_atoi("1234567890123456789012345678901234567890"),
	    INT_MAX);
}

/* A harness the candidate killed is its failure; the CPU limit's kill
 * (the same SIGKILL, but verify.c saw the limit used) stays a timeout. */
static void
test_env_judge_limits_killed(void **state)
{
	struct run r;

	(void)state;
	memset(&r, 0, sizeof r);
	assert_int_equal(env_judge_limits(ENV_STOP_KILLED, 128 + SIGKILL,
	    "functional", "the run", &r), 1);
	assert_string_equal(r.verdict, "fail");
	assert_string_equal(r.subcategory, "harness-killed");
	assert_string_equal(r.category, "functional");
	assert_non_null(strstr(r.evidence, "the run was killed"));
	run_release(&r);
	memset(&r, 0, sizeof r);
	assert_int_equal(env_judge_limits(ENV_STOP_NONE, 128 + SIGKILL,
	    "functional", "the run", &r), 1);
	assert_string_equal(r.verdict, "timeout");
	run_release(&r);
	memset(&r, 0, sizeof r);
	assert_int_equal(env_judge_limits(ENV_STOP_NONE, 1, "functional",
	    "the run", &r), 0);
	assert_null(r.verdict);
}

/* A finding replaces all four fields; an argument may be r's own. */
static void
test_env_verdict(void **state)
{
	struct run r;

	(void)state;
	memset(&r, 0, sizeof r);
	env_verdict(&r, VERDICT_FAIL, CATEGORY_COMPILE, "syntax-error",
	    "x.sv:3: syntax error");
	env_verdict(&r, VERDICT_FAIL, CATEGORY_FUNCTIONAL, r.subcategory,
	    r.evidence);
	assert_string_equal(r.verdict, "fail");
	assert_string_equal(r.category, "functional");
	assert_string_equal(r.subcategory, "syntax-error");
	assert_string_equal(r.evidence, "x.sv:3: syntax error");
	env_verdict(&r, VERDICT_ENV_ERROR, CATEGORY_NONE, NULL, NULL);
	assert_string_equal(r.verdict, "env-error");
	assert_null(r.category);
	assert_null(r.subcategory);
	assert_null(r.evidence);
	run_release(&r);
}

static void
located(const char *line, int ok, const char *file, int lineno, int col,
    const char *sev, const char *msg)
{
	struct env_located loc;

	assert_int_equal(env_located(line, strlen(line), &loc), ok);
	if (!ok)
		return;
	assert_int_equal((int)loc.flen, (int)strlen(file));
	assert_memory_equal(loc.file, file, loc.flen);
	assert_int_equal(loc.line, lineno);
	assert_int_equal(loc.col, col);
	if (sev == NULL)
		assert_null(loc.severity);
	else
		assert_string_equal(loc.severity, sev);
	assert_int_equal((int)loc.msglen, (int)strlen(msg));
	assert_memory_equal(loc.msg, msg, loc.msglen);
}

/* gcc, GNU as (capitalised), ld with -g, Icarus Verilog. */
static void
test_env_located(void **state)
{
	(void)state;
	located("main.c:7:12: error: 'x' undeclared", 1, "main.c", 7, 12,
	    "error", "'x' undeclared");
	located("main.c:7:12: fatal error: a.h: No such file", 1, "main.c", 7,
	    12, "error", "a.h: No such file");
	located("k.s:3: Error: no such instruction: `movx'", 1, "k.s", 3, 0,
	    "error", "no such instruction: `movx'");
	located("k.s:4: Warning: end of file", 1, "k.s", 4, 0, "warning",
	    "end of file");
	located("main.c:9: undefined reference to `f'", 1, "main.c", 9, 0,
	    NULL, "undefined reference to `f'");
	located("candidate.sv:2: sorry: constant selects", 1, "candidate.sv",
	    2, 0, "sorry", "constant selects");
	located("candidate.sv:5: syntax error", 1, "candidate.sv", 5, 0, NULL,
	    "syntax error");
	located("tb.sv:9:      : The instance is here", 1, "tb.sv", 9, 0, NULL,
	    ": The instance is here");
	located("a b.c:1: error: x", 0, NULL, 0, 0, NULL, NULL);
	located(":1: error: x", 0, NULL, 0, 0, NULL, NULL);
	located("main.c:x: error", 0, NULL, 0, 0, NULL, NULL);
	located("main.c:12", 0, NULL, 0, 0, NULL, NULL);
	located("f.c:99999999999999999999: m", 1, "f.c", INT_MAX, 0, NULL,
	    "m");
}

/* Same in every field: dropped, the first kept, the order kept. */
static void
test_env_diags_dedup(void **state)
{
	struct run r;

	(void)state;
	memset(&r, 0, sizeof r);
	run_add_diag(&r, "main.c", 7, 0, "error", "undefined reference", 7);
	run_add_diag(&r, "main.c", 9, 0, "error", "undefined reference", 9);
	run_add_diag(&r, "main.c", 7, 0, "error", "undefined reference", 7);
	run_add_diag(&r, "main.c", 7, 0, "warning", "undefined reference", 7);
	run_add_diag(&r, "main.c", 7, 2, "error", "undefined reference", 7);
	for (int i = 0; i < 100; i++)
		run_add_diag(&r, "k.cu", 1, 0, "error", "expected a \";\"", 1);
	run_add_diag(&r, "main.c", 9, 0, "error", "undefined reference", 9);
	env_diags_dedup(&r);
	assert_int_equal(r.ndiags, 5);
	assert_int_equal(r.diags[1].line, 9);
	assert_string_equal(r.diags[2].severity, "warning");
	assert_int_equal(r.diags[3].col, 2);
	assert_string_equal(r.diags[4].file, "k.cu");
	run_release(&r);
}

static void
test_env_nonce(void **state)
{
	char a[33], b[33], small[5];

	(void)state;
	env_nonce(a, sizeof a, 16, 'T');
	env_nonce(b, sizeof b, 24, 'X');
	assert_int_equal(strlen(a), 16);
	assert_int_equal(strlen(b), 24);
	assert_int_equal(a[0], 'T');
	assert_int_equal(b[0], 'X');
	assert_int_equal(strspn(a + 1, "0123456789abcdef"), 15);
	env_nonce(small, sizeof small, 16, 'A');
	assert_int_equal(strlen(small), 4);
	env_nonce(a, sizeof a, 16, 'T');
	env_nonce(b, sizeof b, 16, 'T');
	assert_string_not_equal(a, b);
}

/*
 * env_write_task_files(): every task file is written and noted as an
 * input until one has a name the env keeps for itself, which is refused
 * by name (the message nvcc, yosys and triton gave before it was one).
 */
static void
test_env_write_task_files(void **state)
{
	char dir[] = "/tmp/assay-envs-XXXXXX", path[64];
	struct task_file files[] = {
		{ "a.v", "source", "a", 1 },
		{ "out.txt", "data", "b", 1 },
		{ "c.v", "source", "c", 1 },
	};
	struct task t = { .id = "t/1", .files = files, .nfiles = 3 };
	static const char *const reserved[] = { "cand.v", "out.txt", NULL };
	static const char *const none[] = { NULL };
	struct env_plan plan;
	struct err err = { "" };

	(void)state;
	assert_non_null(mkdtemp(dir));
	env_plan_init(&plan);
	assert_int_equal(env_write_task_files(&plan, dir, &t, reserved,
	    "the test env", &err), -1);
	assert_string_equal(err.msg, "task file name out.txt is reserved by"
	    " the test env");
	snprintf(path, sizeof path, "%s/a.v", dir);
	assert_int_equal(access(path, F_OK), 0);	/* written before */
	snprintf(path, sizeof path, "%s/c.v", dir);
	assert_int_equal(access(path, F_OK), -1);	/* never reached */
	snprintf(path, sizeof path, "%s/a.v", dir);
	unlink(path);
	snprintf(path, sizeof path, "%s/c.v", dir);
	assert_int_equal(env_write_task_files(&plan, dir, &t, none, "x",
	    &err), 0);
	assert_int_equal(access(path, F_OK), 0);
	for (size_t i = 0; i < 3; i++) {
		snprintf(path, sizeof path, "%s/%s", dir, files[i].name);
		unlink(path);
	}
	rmdir(dir);
	env_plan_release(&plan);
}

/*
 * The evidence of a tool's failure is its first error line; "failed
 * without a message" only for a log with nothing in it (issue 21).
 * verify.c puts the stage's "$ COMMAND" line first, which is not the
 * tool's and names the candidate's file.
 */
static void
test_env_first_error(void **state)
{
	const char debian[] = "$ /usr/bin/nvcc -c candidate.cu\n"
	    "ERROR: No supported gcc/g++ host compiler found, but clang-14 is"
	    " available.\n       Use 'nvcc -ccbin clang-14' to use that"
	    " instead.\n";
	const char located[] = "In file included from x.h:1,\n"
	    "/usr/include/crt/host_config.h:132:2: error: #error --"
	    " unsupported GNU version!\r\n";
	const char plain[] = "\n   \n  Segmentation fault  \n";
	const char esc[] = "boom \033]52;c;AAAA\007 Error\n";
	char *l;
	size_t n;

	(void)state;
	l = env_first_error(debian, strlen(debian));
	assert_string_equal(l, "ERROR: No supported gcc/g++ host compiler"
	    " found, but clang-14 is available.");
	free(l);
	l = env_first_error(located, strlen(located));
	assert_string_equal(l, "/usr/include/crt/host_config.h:132:2: error:"
	    " #error -- unsupported GNU version!");
	free(l);
	/* No line says error: the first that is not blank, trimmed. */
	l = env_first_error(plain, strlen(plain));
	assert_string_equal(l, "Segmentation fault");
	free(l);
	/* The candidate's bytes never drive the terminal. */
	l = env_first_error(esc, strlen(esc));
	assert_null(strchr(l, '\033'));
	assert_non_null(strstr(l, "\\x1b"));
	free(l);
	assert_null(env_first_error("$ nvcc x.cu\n \n", 14));
	assert_null(env_first_error("", 0));
	/* The header alone is skipped. */
	assert_string_equal(env_stage_output(debian, strlen(debian), &n),
	    debian + strlen("$ /usr/bin/nvcc -c candidate.cu\n"));
	l = env_evidence(NULL, plain, strlen(plain), "yosys");
	assert_string_equal(l, "Segmentation fault");
	free(l);
	l = env_evidence(NULL, "", 0, "yosys");
	assert_string_equal(l, "yosys failed without a message");
	free(l);
	l = env_evidence("mine", plain, strlen(plain), "yosys");
	assert_string_equal(l, "mine");
	free(l);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_env_digits),
		cmocka_unit_test(test_env_atoi),
		cmocka_unit_test(test_env_judge_limits_killed),
		cmocka_unit_test(test_env_verdict),
		cmocka_unit_test(test_env_located),
		cmocka_unit_test(test_env_diags_dedup),
		cmocka_unit_test(test_env_nonce),
		cmocka_unit_test(test_env_write_task_files),
		cmocka_unit_test(test_env_first_error),
	};

	return cmocka_run_group_tests_name("envs", tests, NULL, NULL);
}
