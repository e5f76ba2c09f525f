/*
 * test_envs.c - unit tests for the envs' shared helpers (envs.c): the
 * checked number parsing every log parser uses (issue 10), held at
 * INT_MAX, and the limits' verdicts (a killed harness).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <limits.h>
#include <signal.h>
#include <string.h>

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

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_env_digits),
		cmocka_unit_test(test_env_atoi),
		cmocka_unit_test(test_env_judge_limits_killed),
	};

	return cmocka_run_group_tests_name("envs", tests, NULL, NULL);
}
