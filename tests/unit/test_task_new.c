/*
 * test_task_new.c - the trivial stubs of a task made from real code
 * (task_new_stub(), exchange/task_new.h), which its verification must
 * reject before the task is stored (ADR 0044).  e2e 282 runs them
 * through yosys, iverilog and the x86-asm env; here their text.
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

#include "base/err.h"
#include "exchange/task_new.h"

static char *
write_tmp(const char *name, const char *text)
{
	char dir[] = "/tmp/test_task_new.XXXXXX";
	char *path;
	FILE *f;

	assert_non_null(mkdtemp(dir));
	path = malloc(strlen(dir) + strlen(name) + 2);
	assert_non_null(path);
	sprintf(path, "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	return path;
}

static void
test_task_new_verilog_stubs(void **state)
{
	char *path = write_tmp("acc.v", "// sums\nmodule acc #(parameter W"
	    " = 6) (input clk, input [W-1:0] d, output reg [W+1:0] q,"
	    " output signed [3:0] s, output z);\n  always @(posedge clk)"
	    " q <= q + d;\n  assign s = 0;\n  assign z = 1'bx;\nendmodule\n");
	char *files[] = { path };
	struct task_new_opts o = { 0 };
	struct task_new tn;
	struct err err = { 0 };
	char *zero, *ones;

	(void)state;
	assert_int_equal(task_new_build(files, 1, &o, &tn, &err), 0);
	zero = task_new_stub(&tn, 0);
	ones = task_new_stub(&tn, 1);
	assert_non_null(zero);
	assert_non_null(ones);
	/* same name, parameter and ports; the register's type dropped so
	 * that a continuous assignment drives it */
	assert_non_null(strstr(zero, "module acc #(parameter W = 6) (input"
	    " clk, input [W-1:0] d, output [W+1:0] q, output signed [3:0] s,"
	    " output z);\n"));
	assert_non_null(strstr(zero, "  assign q = 0;\n  assign s = 0;\n"
	    "  assign z = 0;\nendmodule\n"));
	assert_null(strstr(zero, "assign d"));
	assert_non_null(strstr(ones, "  assign q = ~0;\n"));
	assert_non_null(strstr(ones, "  assign z = ~0;\n"));
	free(zero);
	free(ones);
	task_new_release(&tn);
	unlink(path);
	*strrchr(path, '/') = '\0';
	rmdir(path);
	free(path);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_task_new_verilog_stubs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
