/*
 * test_results.c - unit tests for results.c (cmocka), issue 13 item 1:
 * a run written as a results line and read back has every field (a
 * log that is not UTF-8 included), the file appears only when closed,
 * an aborted one leaves nothing, and bad lines are refused with the
 * reason.
 */
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "base/buf.h"
#include "base/err.h"
#include "exchange/results.h"
#include "model/sample.h"
#include "testlib.h"

static void
fill_run(struct run *r)
{
	memset(r, 0, sizeof *r);
	r->cand_id = xstrdup("c1234567");
	r->env = xstrdup("iverilog");
	r->verdict = xstrdup("fail");
	r->stage = xstrdup("compile");
	r->subcategory = xstrdup("syntax");
	r->category = xstrdup("compile");
	r->evidence = xstrdup("top.sv:3: syntax error");
	r->evidence_line = 3;
	r->command = xstrdup("iverilog -g2012 top.sv");
	r->toolchain = xstrdup("Icarus Verilog version 11.0 (stable)");
	r->inputs = xstrdup("{\"top.sv\":\"ab\"}");
	snprintf(r->input_key, sizeof r->input_key, "%064d", 7);
	r->metrics = xstrdup("{\"mismatches\":41,\"total\":432}");
	r->exit_code = 2;
	r->wall_ms = 1234;
	r->started = 1700000000;
	r->log = xstrndup("bad \xff byte\n", 11);
	r->log_len = 11;
	run_add_diag(r, "top.sv", 3, 5, "error", "syntax error", 3);
}

static void
test_results_round_trip(void **state)
{
	char dir[] = "/tmp/assay-results-XXXXXX", *path, *tmp, line[65536];
	struct results *w;
	struct run r, back;
	struct err err;
	char *task;
	int tmo, stored;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	path = xasprintf("%s/out.jsonl", dir);
	fill_run(&r);
	assert_int_equal(results_open(&w, path, &err), 0);
	assert_int_equal(results_add(w, &r, "rtlfixer/t1", 60, 0, &err), 0);
	assert_int_equal(results_count(w), 1);
	/* Not there until complete. */
	assert_int_equal(access(path, F_OK), -1);
	assert_int_equal(results_close(w, &err), 0);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_non_null(fgets(line, sizeof line, f));
	fclose(f);
	assert_int_equal(results_parse(line, strlen(line), &back, &task, &tmo,
	    &stored, &err), 0);
	assert_string_equal(task, "rtlfixer/t1");
	assert_int_equal(tmo, 60);
	assert_int_equal(stored, 0);
	assert_string_equal(back.cand_id, r.cand_id);
	assert_string_equal(back.env, r.env);
	assert_string_equal(back.verdict, r.verdict);
	assert_string_equal(back.stage, r.stage);
	assert_string_equal(back.subcategory, r.subcategory);
	assert_string_equal(back.category, r.category);
	assert_string_equal(back.evidence, r.evidence);
	assert_int_equal(back.evidence_line, 3);
	assert_string_equal(back.command, r.command);
	assert_string_equal(back.toolchain, r.toolchain);
	assert_string_equal(back.inputs, r.inputs);
	assert_string_equal(back.input_key, r.input_key);
	assert_string_equal(back.metrics, r.metrics);
	assert_int_equal(back.exit_code, 2);
	assert_int_equal(back.wall_ms, 1234);
	assert_int_equal(back.started, 1700000000);
	assert_int_equal(back.log_len, 11);
	assert_memory_equal(back.log, r.log, 11);
	assert_int_equal(back.ndiags, 1);
	assert_string_equal(back.diags[0].message, "syntax error");
	assert_int_equal(back.diags[0].cand_line, 3);
	assert_int_equal(back.diags[0].col, 5);
	run_release(&back);
	free(task);

	/* An aborted file leaves neither it nor its temporary file. */
	tmp = xasprintf("%s/aborted.jsonl", dir);
	assert_int_equal(results_open(&w, tmp, &err), 0);
	assert_int_equal(results_add(w, &r, "rtlfixer/t1", 0, 1, &err), 0);
	results_abort(w);
	assert_int_equal(access(tmp, F_OK), -1);
	free(tmp);
	run_release(&r);
	unlink(path);
	free(path);
	rm_rf(dir);
}

static void
test_results_bad_lines(void **state)
{
	static const struct { const char *line, *why; } bad[] = {
		{ "{", "invalid JSON" },
		{ "[1]", "not a JSON object" },
		{ "{\"candidate\":\"c1\"}", "no \"assay_run\"" },
		{ "{\"assay_run\":2}", "version 2" },
		{ "{\"assay_run\":1,\"task\":\"t\",\"env\":\"e\","
		  "\"verdict\":\"pass\"}", "\"candidate\" is missing" },
		{ "{\"assay_run\":1,\"candidate\":\"c1\",\"task\":\"t\","
		  "\"env\":\"e\",\"verdict\":\"great\"}", "unknown verdict" },
		{ "{\"assay_run\":1,\"candidate\":\"c1\",\"task\":\"t\","
		  "\"env\":\"e\",\"verdict\":\"pass\",\"started\":\"x\"}",
		  "\"started\" must be an integer" },
	};
	struct run r;
	struct err err;
	char *task;
	int tmo, stored;

	(void)state;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		assert_int_equal(results_parse(bad[i].line, strlen(bad[i].line),
		    &r, &task, &tmo, &stored, &err), -1);
		if (strstr(err.msg, bad[i].why) == NULL)
			fail_msg("%s: got '%s', want '%s'", bad[i].line,
			    err.msg, bad[i].why);
		assert_null(task);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_results_round_trip),
		cmocka_unit_test(test_results_bad_lines),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
