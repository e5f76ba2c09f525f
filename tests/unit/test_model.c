/*
 * test_model.c - the generator's settings, the stored endpoint and
 * pass@k (model.c, generate.c), and err_set()'s escaping of the
 * untrusted names its messages quote (err.c).  The requests themselves are tested
 * end to end against a real server and a command (tests/e2e/195).
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include "generate/generate.h"
#include "generate/model.h"

static void
test_cfg_lines(void **state)
{
	struct model_cfg c;
	struct err err;

	(void)state;
	model_cfg_init(&c);
	assert_int_equal(model_cfg_line(&c, "theme light", &err), 0);
	assert_null(c.endpoint);
	assert_int_equal(model_cfg_line(&c,
	    "generator endpoint http://127.0.0.1:8080/v1\n", &err), 0);
	assert_string_equal(c.endpoint, "http://127.0.0.1:8080/v1");
	assert_int_equal(model_cfg_line(&c,
	    "generator command llama-cli -m m.gguf --json", &err), 0);
	assert_string_equal(c.command, "llama-cli -m m.gguf --json");
	assert_int_equal(model_cfg_line(&c, "generator temperature 0.7",
	    &err), 0);
	assert_true(fabs(c.temperature - 0.7) < 1e-9);
	assert_int_equal(model_cfg_line(&c, "generator temperature 3",
	    &err), -1);
	assert_non_null(strstr(err.msg, "0 to 2"));
	assert_int_equal(model_cfg_line(&c, "generator retries 1.5", &err),
	    -1);
	assert_int_equal(model_cfg_line(&c, "generator colour red", &err),
	    -1);
	assert_non_null(strstr(err.msg, "unknown generator setting"));
	assert_int_equal(model_cfg_line(&c, "generator model", &err), -1);
	/* Both kinds set: refused until one goes. */
	assert_int_equal(model_cfg_check(&c, &err), -1);
	free(c.command);
	c.command = NULL;
	c.model = NULL;
	assert_int_equal(model_cfg_check(&c, &err), -1);
	assert_non_null(strstr(err.msg, "model name"));
	model_cfg_release(&c);
}

static void
test_model_name(void **state)
{
	struct model_cfg c;
	char buf[64];

	(void)state;
	model_cfg_init(&c);
	c.command = strdup("  /opt/bin/fixer.py --x");
	assert_string_equal(model_name(&c, buf, sizeof buf), "fixer.py");
	c.model = strdup("m-1");
	assert_string_equal(model_name(&c, buf, sizeof buf), "m-1");
	model_cfg_release(&c);
}

/* Golden values: the estimator by hand, 1 - C(n-c,k)/C(n,k). */
static void
test_pass_at_k(void **state)
{
	(void)state;
	assert_true(fabs(gen_pass_at_k(10, 3, 1) - 0.3) < 1e-12);
	/* 1 - C(7,5)/C(10,5) = 1 - 21/252 */
	assert_true(fabs(gen_pass_at_k(10, 3, 5) - (1 - 21.0 / 252)) < 1e-12);
	assert_true(gen_pass_at_k(5, 0, 3) == 0);
	assert_true(gen_pass_at_k(5, 3, 3) == 1.0);	/* n - c < k */
	assert_true(gen_pass_at_k(2, 1, 3) == 0);	/* k > n */
}

/* err_set() quotes untrusted names: no control byte survives it. */
static void
test_err_set_is_terminal_safe(void **state)
{
	struct err err;

	(void)state;
	err_set(&err, "unknown env '%s'", "iverilog\033]0;PWN\007\033[2J");
	assert_null(strchr(err.msg, '\033'));
	assert_null(strchr(err.msg, '\007'));
	assert_string_equal(err.msg, "unknown env 'iverilog?]0;PWN??[2J'");
	/* a C1 CSI in UTF-8, U+009B, and DEL */
	err_set(&err, "x\xc2\x9b" "1m\x7f" "y\n\tz");
	assert_string_equal(err.msg, "x??1m?y\n\tz");
	/* ordinary UTF-8 stays */
	err_set(&err, "caf\xc3\xa9");
	assert_string_equal(err.msg, "caf\xc3\xa9");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cfg_lines),
		cmocka_unit_test(test_model_name),
		cmocka_unit_test(test_pass_at_k),
		cmocka_unit_test(test_err_set_is_terminal_safe),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
