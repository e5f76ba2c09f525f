/*
 * test_results.c - unit tests for results.c (cmocka), issue 13 item 1:
 * a run written as a results line and read back has every field (a
 * log that is not UTF-8 included), the file appears only when closed,
 * an aborted one leaves nothing, and bad lines are refused with the
 * reason.  Issue 22 item 5: each line carries a MAC that any edit, a
 * wrong key, a cut line or a version 1 line fails; ids and envs with
 * control characters are refused; HMAC-SHA256 meets RFC 4231.
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
#include "base/hash.h"
#include "exchange/results.h"
#include "model/sample.h"
#include "testlib.h"

static const struct results_key key1 = { "0123456789abcdef",
    "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff" };
static const struct results_key key2 = { "fedcba9876543210",
    "ffeeddccbbaa99887766554433221100ffeeddccbbaa99887766554433221100" };

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
	r->feedback = xstrdup("{\"counterexample\":{\"input\":\"a=1\"}}");
	r->wave = xstrdup("$timescale 1ps $end\n#0\n1!\n");
	r->wave_len = strlen(r->wave);
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
	assert_int_equal(results_open(&w, path, &key1, &err), 0);
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
	assert_string_equal(back.feedback, r.feedback);
	assert_int_equal(back.wave_len, r.wave_len);
	assert_memory_equal(back.wave, r.wave, r.wave_len);
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
	assert_int_equal(results_open(&w, tmp, &key1, &err), 0);
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
		{ "{\"assay_run\":1}", "version 1" },
		{ "{\"assay_run\":2,\"task\":\"t\",\"env\":\"e\","
		  "\"verdict\":\"pass\"}", "\"candidate\" is missing" },
		{ "{\"assay_run\":2,\"candidate\":\"c1\",\"task\":\"t\","
		  "\"env\":\"e\",\"verdict\":\"great\"}", "unknown verdict" },
		{ "{\"assay_run\":2,\"candidate\":\"c1\",\"task\":\"t\","
		  "\"env\":\"e\",\"verdict\":\"pass\",\"started\":\"x\"}",
		  "\"started\" must be an integer" },
		/* ids and names with control characters (issue 22.5) */
		{ "{\"assay_run\":2,\"candidate\":\"c1\\u001b[2J\",\"task\":"
		  "\"t\",\"env\":\"e\",\"verdict\":\"pass\"}", "\"candidate\"" },
		{ "{\"assay_run\":2,\"candidate\":\"c1\",\"task\":\"t\\nx\","
		  "\"env\":\"e\",\"verdict\":\"pass\"}", "\"task\"" },
		{ "{\"assay_run\":2,\"candidate\":\"c1\",\"task\":\"t\","
		  "\"env\":\"iverilog\\u001b]0;x\\u0007\",\"verdict\":\"pass\"}",
		  "\"env\"" },
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

/* The first line of the results file a run r makes under key k. */
static char *
line_of(const struct results_key *k, const struct run *r)
{
	char dir[] = "/tmp/assay-results-XXXXXX", *path, line[65536];
	struct results *w;
	struct err err;
	FILE *f;

	assert_non_null(mkdtemp(dir));
	path = xasprintf("%s/out.jsonl", dir);
	assert_int_equal(results_open(&w, path, k, &err), 0);
	assert_int_equal(results_add(w, r, "rtlfixer/t1", 0, 1, &err), 0);
	assert_int_equal(results_close(w, &err), 0);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_non_null(fgets(line, sizeof line, f));
	fclose(f);
	free(path);
	rm_rf(dir);
	return xstrdup(line);
}

/* Issue 22 item 5: an edited verdict, any edited byte, another key, a
 * line cut or without its MAC, all refused; the line as written passes. */
static void
test_results_mac(void **state)
{
	struct run r;
	struct err err;
	char id[STORE_KEY_ID + 1], *line, *edit, *p;
	size_t len;

	(void)state;
	fill_run(&r);
	line = line_of(&key1, &r);
	len = strlen(line);
	assert_int_equal(results_line_key(line, len, id, &err), 0);
	assert_string_equal(id, key1.id);
	assert_int_equal(results_line_check(line, len, &key1, &err), 0);
	/* Without its newline too. */
	assert_int_equal(results_line_check(line, len - 1, &key1, &err), 0);

	/* The red team's edit: fail -> pass. */
	edit = xstrdup(line);
	p = strstr(edit, "\"verdict\":\"fail\"");
	assert_non_null(p);
	memcpy(p, "\"verdict\":\"pass\"", 16);
	assert_int_equal(results_line_check(edit, len, &key1, &err), -1);
	assert_non_null(strstr(err.msg, "wrong MAC"));
	/* Every single byte before the MAC matters. */
	for (size_t i = 0; i < len - 1; i++) {
		memcpy(edit, line, len);
		edit[i] ^= 0x01;
		if (results_line_check(edit, len, &key1, &err) == 0)
			fail_msg("byte %zu flipped still verifies", i);
	}
	free(edit);
	/* Another key, or the right id with another key's MAC. */
	assert_int_equal(results_line_check(line, len, &key2, &err), -1);
	assert_non_null(strstr(err.msg, "wrong MAC"));
	edit = line_of(&key2, &r);
	memcpy(strstr(edit, key2.id), key1.id, STORE_KEY_ID);
	assert_int_equal(results_line_check(edit, strlen(edit), &key1, &err),
	    -1);
	free(edit);
	/* A line cut before its end, and a version 1 line. */
	assert_int_equal(results_line_check(line, len - 3, &key1, &err), -1);
	assert_non_null(strstr(err.msg, "no MAC"));
	edit = xstrdup("{\"assay_run\":1,\"candidate\":\"c1\",\"task\":\"t\","
	    "\"env\":\"e\",\"verdict\":\"pass\"}\n");
	assert_int_equal(results_line_key(edit, strlen(edit), id, &err), -1);
	assert_non_null(strstr(err.msg, "assay_run 1"));
	free(edit);
	/* A results file needs a well-formed key. */
	{
		struct results_key bad = key1;
		struct results *w;

		bad.key[10] = 'X';
		assert_int_equal(results_open(&w, "/tmp/never", &bad, &err),
		    -1);
		assert_null(strstr(err.msg, key1.key));
	}
	free(line);
	run_release(&r);
}

/* HMAC-SHA256 test cases 1 and 2 of RFC 4231. */
static void
test_results_hmac_rfc4231(void **state)
{
	char hex[HASH_HEX_LEN + 1], key[20];

	(void)state;
	memset(key, 0x0b, sizeof key);
	hash_hmac_sha256(key, sizeof key, "Hi There", 8, hex);
	assert_string_equal(hex, "b0344c61d8db38535ca8afceaf0bf12b"
	    "881dc200c9833da726e9376c2e32cff7");
	hash_hmac_sha256("Jefe", 4, "what do ya want for nothing?", 28, hex);
	assert_string_equal(hex, "5bdcc146bf60754e6a042426089575c7"
	    "5a003f089d2739839dec58b964ec3843");
	assert_int_equal(hash_equal(hex, hex), 1);
	assert_int_equal(hash_equal(hex, "5bdc"), 0);
}

/*
 * A line whose MAC is there but followed by a CR (a CRLF file) or by a
 * blank is told so; it was "no MAC".  Still refused: the line is not as
 * verify wrote it.  A line with no MAC at all stays "no MAC", blank or
 * not.
 */
static void
test_results_mac_trailing_bytes(void **state)
{
	struct run r;
	struct err err;
	char id[STORE_KEY_ID + 1], *line, *crlf, *sp;
	size_t len;

	(void)state;
	fill_run(&r);
	line = line_of(&key1, &r);
	len = strlen(line);			/* ends in "\n" */
	crlf = xasprintf("%.*s\r\n", (int)(len - 1), line);
	assert_int_equal(results_line_check(crlf, len + 1, &key1, &err), -1);
	assert_non_null(strstr(err.msg, "line ends in CR: a CRLF file?"));
	sp = xasprintf("%.*s \t\n", (int)(len - 1), line);
	assert_int_equal(results_line_key(sp, len + 2, id, &err), -1);
	assert_non_null(strstr(err.msg, "line ends in white space after its"
	    " MAC"));
	assert_int_equal(results_line_key("{\"a\":1} \r\n", 10, id, &err),
	    -1);
	assert_non_null(strstr(err.msg, "no MAC"));
	free(crlf);
	free(sp);
	free(line);
	run_release(&r);
}

/*
 * Issue 25 item 8: a slice's stats file, and two summed as merge
 * --shards sums them.  Worked by hand: slice A ran two iverilog runs
 * (fail 1234 ms, pass 766 ms), slice B one on another toolchain (pass
 * 500 ms); the sum has 3 runs, 2500 ms, pass 2, fail 1, and iverilog
 * with two toolchains.
 */
static void
test_results_stats(void **state)
{
	char dir[] = "/tmp/assay-stats.XXXXXX", *ra, *rb, *pa, *pb, *marker;
	json_t *a, *b, *total, *ivl;
	struct run r;
	struct err err;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	ra = xasprintf("%s/slice-0000.jsonl", dir);
	rb = xasprintf("%s/slice-0001.jsonl", dir);
	a = results_stats_new();
	fill_run(&r);
	results_stats_run(a, &r);
	free(r.verdict);
	r.verdict = xstrdup("pass");
	r.wall_ms = 766;
	results_stats_run(a, &r);
	run_release(&r);
	assert_int_equal(results_stats_write(ra, a, "s0", "aa", 2, 1700000000,
	    3.5, 2.25, &err), 0);
	b = results_stats_new();
	fill_run(&r);
	free(r.verdict);
	r.verdict = xstrdup("pass");
	free(r.toolchain);
	r.toolchain = xstrdup("Icarus Verilog version 12.0 (stable)");
	r.wall_ms = 500;
	results_stats_run(b, &r);
	run_release(&r);
	assert_int_equal(results_stats_write(rb, b, "s1", "bb", 1, 1700000001,
	    1.5, 0.75, &err), 0);
	pa = results_stats_path(ra);
	pb = results_stats_path(rb);
	assert_true(strstr(pa, "slice-0000.jsonl.stats.json") != NULL);
	total = json_object();
	assert_int_equal(results_stats_sum(total, pa, &err), 0);
	assert_int_equal(results_stats_sum(total, pb, &err), 0);
	assert_int_equal(json_integer_value(json_object_get(total, "slices")),
	    2);
	assert_int_equal(json_integer_value(json_object_get(total, "runs")), 3);
	assert_int_equal(json_integer_value(json_object_get(total,
	    "candidates")), 3);
	assert_int_equal(json_integer_value(json_object_get(total,
	    "run_wall_ms")), 2500);
	assert_true(json_number_value(json_object_get(total, "wall_s")) ==
	    5.0);
	assert_true(json_number_value(json_object_get(total, "cpu_s")) == 3.0);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(
	    total, "verdicts"), "pass")), 2);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(
	    total, "verdicts"), "fail")), 1);
	ivl = json_object_get(json_object_get(total, "envs"), "iverilog");
	assert_int_equal(json_integer_value(json_object_get(ivl, "runs")), 3);
	assert_int_equal(json_object_size(json_object_get(ivl, "toolchains")),
	    2);
	assert_int_equal(json_array_size(json_object_get(total, "hosts")), 1);
	/* Not a stats file. */
	f = fopen(ra, "w");
	fputs("{\"runs\": 1}", f);
	fclose(f);
	assert_int_equal(results_stats_sum(total, ra, &err), -1);
	assert_non_null(strstr(err.msg, "not a slice's stats file"));
	/* A marker counts only for its slice. */
	marker = results_marker_path(ra);
	f = fopen(marker, "w");
	fputs("{\"slice_sha256\": \"aa\"}", f);
	fclose(f);
	assert_int_equal(results_marker_ok(marker, "aa"), 1);
	assert_int_equal(results_marker_ok(marker, "bb"), 0);
	assert_int_equal(results_marker_ok("/nonexistent.done", "aa"), 0);
	unlink(marker);
	unlink(pa);
	unlink(pb);
	unlink(ra);
	rmdir(dir);
	free(marker);
	free(pa);
	free(pb);
	free(ra);
	free(rb);
	json_decref(total);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_results_round_trip),
		cmocka_unit_test(test_results_bad_lines),
		cmocka_unit_test(test_results_mac),
		cmocka_unit_test(test_results_mac_trailing_bytes),
		cmocka_unit_test(test_results_hmac_rfc4231),
		cmocka_unit_test(test_results_stats),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
