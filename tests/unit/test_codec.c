/*
 * test_codec.c - unit tests (cmocka) for model/codec.c, the one JSON
 * codec of tasks, candidates and runs.
 *
 * Where the goldens come from: the raw task and candidate lines are the
 * lines `assay export --format raw` wrote at commit 804692a (before the
 * codec) for the rows of tests/e2e/060-export.sh's extra.jsonl, imported
 * from db/extra.jsonl; the run result line has the key order and value
 * forms `verify --results` wrote at 804692a for candidate e-2 of that
 * file, with a short command and log; the sha256 of "module tb;
 * endmodule\n" is the one that run's inputs record for tb.sv; the row
 * read back is that raw line without its decisions.  Where
 * the writers disagreed before (show --json wrote evidence_line and
 * cand_line as null when 0 and origin_raw as null when absent; the
 * result line dropped a string key that was not UTF-8), the tests pin
 * the behaviour kept.
 */
#include <limits.h>
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
#include "exchange/import.h"
#include "model/codec.h"
#include "model/sample.h"
#include "testlib.h"

/* o as compact text, key order kept; consumes o. */
static char *
text_of(json_t *o, size_t flags)
{
	char *s;

	assert_non_null(o);
	s = json_dumps(o, flags != 0 ? flags : JSON_COMPACT);
	json_decref(o);
	assert_non_null(s);
	return s;
}

static void
task_roles(struct task *t)
{
	static const char tb[] = "module tb; top_module t(.a(1'b0), .b());"
	    " initial begin $display(\"Mismatches: 0 in 1 samples\"); $finish;"
	    " end endmodule\n";

	memset(t, 0, sizeof *t);
	t->id = xstrdup("local/roles");
	t->benchmark = xstrdup("local");
	t->domain = xstrdup("chip");
	t->env = xstrdup("iverilog");
	t->env_params = xstrdup("{}");
	t->spec = xstrdup("roles");
	t->interface = xstrdup("module top_module(input a, output b);");
	t->source = xstrdup("db/extra.jsonl:2");
	task_add_file(t, "check.sv", "testbench", tb, strlen(tb));
	task_add_file(t, "expected.v", "data", "02\n11\n", 6);
}

static void
task_e1(struct task *t)
{
	memset(t, 0, sizeof *t);
	t->id = xstrdup("local/e1");
	t->benchmark = xstrdup("local");
	t->domain = xstrdup("chip");
	t->env = xstrdup("iverilog");
	t->env_params = xstrdup("{}");
	t->spec = xstrdup("a wire");
	t->source = xstrdup("db/extra.jsonl:1");
	t->extra = xstrdup("{\"colour\":\"blue\"}");
	t->license = xstrdup("MIT");
	t->license_source = xstrdup("--license");
	task_add_file(t, "tb.sv", "testbench", "module tb; endmodule\n", 21);
}

static void
cand_e1(struct candidate *c)
{
	memset(c, 0, sizeof *c);
	c->id = xstrdup("e-1");
	c->task_id = xstrdup("local/e1");
	c->origin = xstrdup("gpt-x");
	c->kind = xstrdup("direct");
	c->lang = xstrdup("verilog");
	c->source = xstrdup("db/extra.jsonl:1");
	c->code = xstrdup("module top_module(); endmodule\n");
	c->code_len = strlen(c->code);
	snprintf(c->code_hash, sizeof c->code_hash, "%s",
	    "68349c32bb5e977bdec986f2c0ee28be8755905c217390558b01454ea6777dce");
	c->extra = xstrdup("{\"mood\":\"bold\",\"$row\":{\"batch\":7}}");
}

/* The raw task objects are the export's, byte for byte: the object form
 * of files where names give the roles, the array where they do not, the
 * task's unknown fields merged after its own. */
static void
test_codec_task_raw(void **state)
{
	struct codec_ctx x = { .profile = CODEC_RAW,
	    .file_role = import_file_role };
	struct task t;
	struct err err;
	char *s;

	(void)state;
	task_roles(&t);
	s = text_of(codec_task(&t, &x, &err), 0);
	assert_string_equal(s, "{\"id\":\"local/roles\",\"benchmark\":\"local\","
	    "\"domain\":\"chip\",\"env\":\"iverilog\",\"env_params\":{},\"spec\":"
	    "\"roles\",\"interface\":\"module top_module(input a, output b);\","
	    "\"source\":\"db/extra.jsonl:2\",\"files\":[{\"name\":\"check.sv\","
	    "\"role\":\"testbench\",\"text\":\"module tb; top_module t(.a(1'b0),"
	    " .b()); initial begin $display(\\\"Mismatches: 0 in 1 samples\\\");"
	    " $finish; end endmodule\\n\"},{\"name\":\"expected.v\",\"role\":"
	    "\"data\",\"text\":\"02\\n11\\n\"}]}");
	free(s);
	task_release(&t);

	task_e1(&t);
	s = text_of(codec_task(&t, &x, &err), 0);
	assert_string_equal(s, "{\"id\":\"local/e1\",\"benchmark\":\"local\","
	    "\"domain\":\"chip\",\"env\":\"iverilog\",\"env_params\":{},\"spec\":"
	    "\"a wire\",\"source\":\"db/extra.jsonl:1\",\"files\":{\"tb.sv\":"
	    "\"module tb; endmodule\\n\"},\"colour\":\"blue\"}");
	free(s);

	/* a file JSON cannot carry fails the export, naming it */
	memcpy(t.files[0].data, "\xff", 1);
	assert_null(codec_task(&t, &x, &err));
	assert_string_equal(err.msg, "task local/e1: file tb.sv is not UTF-8"
	    " text; the raw format cannot carry it");
	task_release(&t);
}

static void
test_codec_candidate_raw(void **state)
{
	struct codec_ctx x = { .profile = CODEC_RAW };
	struct candidate c;
	struct err err;
	json_t *row = json_object(), *co = json_object();
	char *s;

	(void)state;
	cand_e1(&c);
	assert_int_equal(codec_candidate_put(co, &c, &x, &err), 0);
	json_object_set_new(row, "candidate", co);
	codec_row_unknown(row, &c);
	s = text_of(row, 0);
	assert_string_equal(s, "{\"candidate\":{\"id\":\"e-1\",\"origin\":"
	    "\"gpt-x\",\"kind\":\"direct\",\"lang\":\"verilog\",\"code\":"
	    "\"module top_module(); endmodule\\n\",\"parent\":null,\"source\":"
	    "\"db/extra.jsonl:1\",\"mood\":\"bold\"},\"batch\":7}");
	free(s);

	c.code[0] = '\xff';
	co = json_object();
	assert_int_equal(codec_candidate_put(co, &c, &x, &err), -1);
	assert_string_equal(err.msg, "candidate e-1: code is not UTF-8 text;"
	    " the raw format cannot carry it");
	json_decref(co);
	candidate_release(&c);
}

/* task.json: files by name and hash, source as the dataset gives it,
 * licence and split; <id>.json's candidate fields. */
static void
test_codec_dataset(void **state)
{
	struct codec_ctx x = { .profile = CODEC_DATASET,
	    .source = "extra.jsonl:1", .code_file = "e-1.sv" };
	struct task t;
	struct candidate c;
	json_t *o;
	char *s;

	(void)state;
	task_e1(&t);
	t.split = xstrdup("test");
	t.split_hand = 1;
	s = text_of(codec_task(&t, &x, NULL), JSON_INDENT(2) |
	    JSON_PRESERVE_ORDER);
	assert_string_equal(s, "{\n"
	    "  \"id\": \"local/e1\",\n"
	    "  \"benchmark\": \"local\",\n"
	    "  \"domain\": \"chip\",\n"
	    "  \"env\": \"iverilog\",\n"
	    "  \"env_params\": {},\n"
	    "  \"spec\": \"a wire\",\n"
	    "  \"interface\": null,\n"
	    "  \"files\": [\n"
	    "    {\n"
	    "      \"name\": \"tb.sv\",\n"
	    "      \"role\": \"testbench\",\n"
	    "      \"path\": \"files/tb.sv\",\n"
	    "      \"sha256\": \"7e5ea0f47ca7329793a0dda9dc04294e35729afc7dfdb3f33ed7c5c79769615b\"\n"
	    "    }\n"
	    "  ],\n"
	    "  \"source\": \"extra.jsonl:1\",\n"
	    "  \"license\": \"MIT\",\n"
	    "  \"license_source\": \"--license\",\n"
	    "  \"split\": \"test\",\n"
	    "  \"split_by\": \"hand\",\n"
	    "  \"extra\": {\n"
	    "    \"colour\": \"blue\"\n"
	    "  }\n"
	    "}");
	free(s);
	task_release(&t);

	cand_e1(&c);
	o = json_object();
	assert_int_equal(codec_candidate_put(o, &c, &x, NULL), 0);
	s = text_of(o, JSON_COMPACT | JSON_SORT_KEYS);
	assert_string_equal(s, "{\"code\":\"e-1.sv\",\"code_sha256\":"
	    "\"68349c32bb5e977bdec986f2c0ee28be8755905c217390558b01454ea6777dce\","
	    "\"id\":\"e-1\",\"kind\":\"direct\",\"lang\":\"verilog\",\"origin\":"
	    "\"gpt-x\",\"parent\":null,\"source\":\"extra.jsonl:1\",\"task\":"
	    "\"local/e1\"}");
	free(s);
	candidate_release(&c);
}

/* show --json: text made readable with a count of what was replaced;
 * origin_raw only when there is one, as the other formats write it. */
static void
test_codec_show(void **state)
{
	struct codec_ctx x = { .profile = CODEC_SHOW };
	struct candidate c;
	struct task t;
	json_t *o;
	char *s;

	(void)state;
	cand_e1(&c);
	free(c.code);
	c.code = xstrndup("a\xff" "b\0c", 5);
	c.code_len = 5;
	o = json_object();
	assert_int_equal(codec_candidate_put(o, &c, &x, NULL), 0);
	s = text_of(o, 0);
	assert_string_equal(s, "{\"code\":\"a\xef\xbf\xbd" "b\xef\xbf\xbd"
	    "c\",\"code_replaced\":2,\"code_hash\":"
	    "\"68349c32bb5e977bdec986f2c0ee28be8755905c217390558b01454ea6777dce\"}");
	free(s);
	c.origin_raw = xstrdup("_chatgpt4/t1");
	free(c.extra);
	c.extra = xstrdup("{\"generation\":{\"model\":\"m\"}}");
	o = json_object();
	assert_int_equal(codec_candidate_put(o, &c, &x, NULL), 0);
	assert_string_equal(json_string_value(json_object_get(o,
	    "origin_raw")), "_chatgpt4/t1");
	assert_string_equal(json_string_value(json_object_get(json_object_get(
	    o, "generation"), "model")), "m");
	json_decref(o);
	candidate_release(&c);

	task_e1(&t);
	s = text_of(codec_task(&t, &x, NULL), 0);
	assert_string_equal(s, "{\"id\":\"local/e1\",\"benchmark\":\"local\","
	    "\"domain\":\"chip\",\"env\":\"iverilog\",\"env_params\":{},\"spec\":"
	    "\"a wire\",\"interface\":null,\"source\":\"db/extra.jsonl:1\","
	    "\"files\":[{\"name\":\"tb.sv\",\"role\":\"testbench\",\"content\":"
	    "\"module tb; endmodule\\n\"}]}");
	free(s);
	task_release(&t);
}

static void
run_e2(struct run *r)
{
	memset(r, 0, sizeof *r);
	r->id = 9;
	r->cand_id = xstrdup("e-2");
	r->env = xstrdup("iverilog");
	r->verdict = xstrdup("pass");
	r->stage = xstrdup("simulate");
	r->metrics = xstrdup("{\"mismatches\":0,\"total\":1}");
	r->command = xstrdup("vvp -n sim");
	r->toolchain = xstrdup("Icarus Verilog version 11.0 (stable)");
	r->inputs = xstrdup("{\"tb.sv\":\"7e5e\"}");
	snprintf(r->input_key, sizeof r->input_key, "%064d", 7);
	r->started = 1700000000;
	r->wall_ms = 12;
	r->log = xstrdup("Mismatches: 0 in 1 samples\n");
	r->log_len = strlen(r->log);
}

/* The result line: every key, in the documented order, and back. */
static void
test_codec_run_result(void **state)
{
	struct codec_ctx x = { .profile = CODEC_RESULT, .task_id =
	    "local/roles", .timeout_s = 0, .stored = 1 };
	struct run r, back;
	struct err err;
	char *s, *task;
	int tmo, stored;

	(void)state;
	run_e2(&r);
	s = text_of(codec_run(&r, &x), 0);
	assert_string_equal(s, "{\"assay_run\":2,\"candidate\":\"e-2\","
	    "\"task\":\"local/roles\",\"env\":\"iverilog\",\"verdict\":\"pass\","
	    "\"stage\":\"simulate\",\"category\":null,\"subcategory\":null,"
	    "\"evidence\":null,\"evidence_line\":0,\"diagnostics\":[],"
	    "\"metrics\":{\"mismatches\":0,\"total\":1},\"feedback\":null,"
	    "\"command\":\"vvp -n sim\",\"toolchain\":\"Icarus Verilog version 11.0"
	    " (stable)\",\"input_key\":"
	    "\"0000000000000000000000000000000000000000000000000000000000000007\","
	    "\"inputs\":{\"tb.sv\":\"7e5e\"},\"timeout_s\":0,\"exit_code\":0,"
	    "\"started\":1700000000,\"wall_ms\":12,\"log\":\"Mismatches: 0 in 1"
	    " samples\\n\",\"stored\":true}");
	assert_int_equal(codec_run_parse(s, strlen(s), &back, &task, &tmo,
	    &stored, &err), 0);
	assert_string_equal(task, "local/roles");
	assert_string_equal(back.metrics, r.metrics);
	assert_string_equal(back.input_key, r.input_key);
	assert_int_equal(back.started, 1700000000);
	assert_int_equal(stored, 1);
	free(task);
	run_release(&back);
	free(s);

	/* Evidence that is not UTF-8 (a toolchain's line) is kept with
	 * U+FFFD: the line used to lose the key, and merge the evidence. */
	free(r.evidence);
	r.evidence = xstrdup("bad \xff line");
	r.log[0] = '\xfe';
	s = text_of(codec_run(&r, &x), 0);
	assert_non_null(strstr(s, "\"evidence\":\"bad \xef\xbf\xbd line\""));
	assert_null(strstr(s, "\"log\":"));
	assert_non_null(strstr(s, "\"log_hex\":\"fe69736d"));
	assert_int_equal(codec_run_parse(s, strlen(s), &back, &task, &tmo,
	    &stored, &err), 0);
	assert_int_equal((unsigned char)back.log[0], 0xfe);
	assert_int_equal(back.log_len, r.log_len);
	free(task);
	run_release(&back);
	free(s);

	s = xstrdup("{\"assay_run\":2,\"candidate\":\"c\",\"task\":\"t\","
	    "\"env\":\"e\",\"verdict\":\"great\"}");
	assert_int_equal(codec_run_parse(s, strlen(s), &back, &task, &tmo,
	    &stored, &err), -1);
	assert_string_equal(err.msg, "unknown verdict \"great\"");
	free(s);
	run_release(&r);
}

/* show and the result line write the same run's fields the same way:
 * evidence_line and cand_line are 0 when they point nowhere (show wrote
 * null), metrics and inputs the same values. */
static void
test_codec_run_profiles_agree(void **state)
{
	struct codec_ctx xs = { .profile = CODEC_SHOW };
	struct codec_ctx xr = { .profile = CODEC_RESULT, .task_id = "t" };
	struct codec_ctx xd = { .profile = CODEC_DATASET };
	static const char *const shared[] = { "env", "verdict", "stage",
		"subcategory", "category", "evidence", "evidence_line",
		"metrics", "feedback", "toolchain", "inputs", "exit_code",
		"wall_ms", "started", "command", "diagnostics" };
	struct run r;
	json_t *a, *b, *d;
	const char *k;
	json_t *v;
	char *s;

	(void)state;
	run_e2(&r);
	run_add_diag(&r, "a.sv", 3, 0, "warning", "two", 0);
	a = codec_run(&r, &xs);
	b = codec_run(&r, &xr);
	d = codec_run(&r, &xd);
	for (size_t i = 0; i < sizeof shared / sizeof shared[0]; i++)
		assert_true(json_equal(json_object_get(a, shared[i]),
		    json_object_get(b, shared[i])));
	json_object_foreach(d, k, v)
		assert_true(json_equal(v, json_object_get(a, k)));
	assert_int_equal(json_integer_value(json_object_get(a,
	    "evidence_line")), 0);
	s = text_of(json_incref(json_object_get(a, "diagnostics")), 0);
	assert_string_equal(s, "[{\"file\":\"a.sv\",\"line\":3,\"col\":0,"
	    "\"severity\":\"warning\",\"message\":\"two\",\"cand_line\":0}]");
	free(s);
	assert_int_equal(json_integer_value(json_object_get(a, "id")), 9);
	json_decref(a);
	json_decref(b);
	json_decref(d);
	run_release(&r);
}

static void
test_codec_text(void **state)
{
	json_t *v, *o;
	char *s;

	(void)state;
	v = codec_str(NULL);
	assert_true(json_is_null(v));
	json_decref(v);
	v = codec_str("bad \xff byte");
	assert_string_equal(json_string_value(v), "bad \xef\xbf\xbd byte");
	json_decref(v);
	/* valid text keeps its NUL; invalid text loses it with the rest */
	v = codec_text("a\0b", 3);
	assert_int_equal(json_string_length(v), 3);
	json_decref(v);
	v = codec_text("a\0\xff", 3);
	assert_string_equal(json_string_value(v), "a\xef\xbf\xbd\xef\xbf\xbd");
	json_decref(v);

	v = codec_json_text(NULL);
	assert_true(json_is_null(v));
	json_decref(v);
	v = codec_json_text("{\"b\":1,\"a\":2}");
	s = text_of(v, 0);
	assert_string_equal(s, "{\"b\":1,\"a\":2}");	/* its own order */
	free(s);
	v = codec_json_text("{\"a\": 1");		/* not JSON: kept */
	assert_string_equal(json_string_value(v), "{\"a\": 1");
	json_decref(v);

	o = json_object();
	codec_put_shown(o, "log", "ok", 2);
	codec_put_shown(o, "none", NULL, 0);
	s = text_of(o, 0);
	assert_string_equal(s, "{\"log\":\"ok\",\"none\":null}");
	free(s);
}

/* A recorded result: raw keeps its fields flat, show nests them. */
static void
test_codec_recorded(void **state)
{
	struct codec_ctx raw = { .profile = CODEC_RAW };
	struct codec_ctx show = { .profile = CODEC_SHOW };
	struct recorded r = { 0 };
	char *s;

	(void)state;
	r.verdict = xstrdup("fail");
	r.log = xstrdup("boom");
	r.extra = xstrdup("{\"verdict\":\"fail\",\"log\":\"boom\",\"tool\":"
	    "\"iv 10\"}");
	s = text_of(codec_recorded(&r, &raw), 0);
	assert_string_equal(s, "{\"verdict\":\"fail\",\"log\":\"boom\","
	    "\"tool\":\"iv 10\"}");
	free(s);
	s = text_of(codec_recorded(&r, &show), 0);
	assert_string_equal(s, "{\"verdict\":\"fail\",\"stage\":null,\"log\":"
	    "\"boom\",\"raw\":{\"verdict\":\"fail\",\"log\":\"boom\",\"tool\":"
	    "\"iv 10\"}}");
	free(s);
	recorded_release(&r);
}

/* The assay JSONL read back: the golden row of e-1 (as the raw export
 * wrote it, decisions left out) parses into the structs that write it
 * again byte for byte; a bad row says what is wrong. */
static void
test_codec_raw_parse(void **state)
{
	static const char line[] = "{\"task\":{\"id\":\"local/e1\","
	    "\"benchmark\":\"local\",\"domain\":\"chip\",\"env\":"
	    "\"iverilog\",\"env_params\":{},\"spec\":\"a wire\",\"source\":"
	    "\"db/extra.jsonl:1\",\"files\":{\"tb.sv\":\"module tb;"
	    " endmodule\\n\"},\"colour\":\"blue\"},\"candidate\":{\"id\":"
	    "\"e-1\",\"origin\":\"gpt-x\",\"kind\":\"direct\",\"lang\":"
	    "\"verilog\",\"code\":\"module top_module(); endmodule\\n\","
	    "\"parent\":null,\"source\":\"db/extra.jsonl:1\",\"mood\":"
	    "\"bold\"},\"recorded\":[{\"verdict\":\"fail\",\"log\":"
	    "\"boom\",\"tool\":\"iv 10\"}],\"batch\":7}";
	struct codec_ctx x = { .profile = CODEC_RAW,
	    .file_role = import_file_role };
	json_t *row = json_loads(line, 0, NULL), *out, *co, *a;
	struct task t;
	struct candidate c;
	struct recorded r;
	struct err err;
	char *s;

	(void)state;
	assert_non_null(row);
	assert_int_equal(codec_task_parse(json_object_get(row, "task"), &x,
	    &t, &err), 0);
	assert_int_equal(codec_candidate_parse(row, &x, &c, &err), 0);
	assert_string_equal(c.extra, "{\"mood\":\"bold\",\"$row\":"
	    "{\"batch\":7}}");
	assert_string_equal(c.code_hash,
	    "68349c32bb5e977bdec986f2c0ee28be8755905c217390558b01454ea6777dce");
	codec_recorded_parse(json_array_get(json_object_get(row, "recorded"),
	    0), &r);
	out = json_object();
	json_object_set_new(out, "task", codec_task(&t, &x, &err));
	co = json_object();
	assert_int_equal(codec_candidate_put(co, &c, &x, &err), 0);
	json_object_set_new(out, "candidate", co);
	a = json_array();
	json_array_append_new(a, codec_recorded(&r, &x));
	json_object_set_new(out, "recorded", a);
	codec_row_unknown(out, &c);
	s = text_of(out, 0);
	assert_string_equal(s, line);
	free(s);
	task_release(&t);
	candidate_release(&c);
	recorded_release(&r);
	json_decref(row);

	row = json_loads("{\"id\":\"t\",\"env\":\"iverilog\",\"files\":"
	    "[{\"name\":\"a.v\",\"text\":\"\",\"role\":\"golden\"}]}", 0,
	    NULL);
	assert_int_equal(codec_task_parse(row, &x, &t, &err), -1);
	assert_string_equal(err.msg, "a task file's \"role\" must be testbench,"
	    " reference, source or data");
	task_release(&t);
	json_decref(row);
	row = json_loads("{\"candidate\":{\"code\":\"x\",\"kind\":"
	    "\"rewrite\"}}", 0, NULL);
	assert_int_equal(codec_candidate_parse(row, &x, &c, &err), -1);
	assert_string_equal(err.msg, "\"kind\" must be direct, repair or"
	    " optimization");
	candidate_release(&c);
	json_decref(row);
}

/* task.json and <id>.json read back give the fields they were written
 * from (the files and the code are read from the checkout, not here). */
static void
test_codec_dataset_parse(void **state)
{
	struct codec_ctx x = { .profile = CODEC_DATASET,
	    .source = "extra.jsonl:1", .code_file = "e-1.sv" };
	struct task t, back;
	struct candidate c, cb;
	struct err err;
	json_t *o;

	(void)state;
	task_e1(&t);
	t.split = xstrdup("test");
	t.split_hand = 1;
	o = codec_task(&t, &x, NULL);
	assert_int_equal(codec_task_parse(o, &x, &back, &err), 0);
	json_decref(o);
	assert_string_equal(back.id, "local/e1");
	assert_string_equal(back.env_params, "{}");
	assert_string_equal(back.source, "extra.jsonl:1");
	assert_string_equal(back.license_source, "--license");
	assert_string_equal(back.split, "test");
	assert_int_equal(back.split_hand, 1);
	assert_string_equal(back.extra, "{\"colour\":\"blue\"}");
	assert_null(back.interface);
	task_release(&back);
	task_release(&t);

	cand_e1(&c);
	o = json_object();
	assert_int_equal(codec_candidate_put(o, &c, &x, NULL), 0);
	assert_int_equal(codec_candidate_parse(o, &x, &cb, &err), 0);
	assert_string_equal(cb.id, "e-1");
	assert_string_equal(cb.task_id, "local/e1");
	assert_string_equal(cb.kind, "direct");
	assert_null(cb.parent);
	assert_null(cb.code);
	candidate_release(&cb);
	json_object_del(o, "lang");
	assert_int_equal(codec_candidate_parse(o, &x, &cb, &err), -1);
	assert_string_equal(err.msg, "a sample needs \"id\", \"task\","
	    " \"origin\", \"kind\", \"lang\" and \"code\"");
	candidate_release(&cb);
	json_decref(o);
	candidate_release(&c);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_codec_task_raw),
		cmocka_unit_test(test_codec_candidate_raw),
		cmocka_unit_test(test_codec_dataset),
		cmocka_unit_test(test_codec_show),
		cmocka_unit_test(test_codec_run_result),
		cmocka_unit_test(test_codec_run_profiles_agree),
		cmocka_unit_test(test_codec_text),
		cmocka_unit_test(test_codec_recorded),
		cmocka_unit_test(test_codec_raw_parse),
		cmocka_unit_test(test_codec_dataset_parse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
