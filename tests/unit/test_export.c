/*
 * test_export.c - unit tests for export.c (cmocka), issue 5 item 6: the
 * raw JSONL round trip (real shared rows plus an assay JSONL with
 * unknown fields, dated labels, a review, notes and a repair child,
 * exported and imported into a fresh database, compared field by field
 * with the decisions' times, and exported again byte for byte), the SFT
 * repair trajectory and its meta, the default filter, parents written
 * before their children, and the atomic file (an interrupted export
 * leaves the previous file and no temporary one).  Shared data is found
 * at $ASSAY_SHARED/data, else ../shared/data; the round trip is skipped
 * without it.
 */
#include <dirent.h>
#include <limits.h>
#include <signal.h>
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

#include <jansson.h>

#include "base/buf.h"
#include "base/err.h"
#include "exchange/card.h"
#include "exchange/export.h"
#include "exchange/import.h"
#include "model/sample.h"
#include "store/store.h"
#include "testlib.h"
#include "datafx.h"

/* Write text to dir/name; the path is new, caller frees. */
static char *
write_file(struct datafx *f, const char *name, const char *text)
{
	char *path = xasprintf("%s/%s", f->dir, name);
	FILE *fp = fopen(path, "w");

	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
	return path;
}

static void
import_ok(struct store *st, const char *path)
{
	struct import_opts o = { IMPORT_AUTO, 0, "tester" };
	struct import_report rep;
	struct err err;
	int rc;

	import_report_init(&rep);
	rc = import_path(st, path, &o, &rep, &err);
	if (rc < 0)
		print_error("import %s: %s\n", path, err.msg);
	assert_int_equal(rc, 0);
	import_report_release(&rep);
}

/* A row with unknown fields at each level, two dated labels, a review and
 * a note; a repair of it; a task with no candidate. */
static const char assay_rows[] =
    "{\"task\":{\"id\":\"local/t1\",\"env\":\"iverilog\",\"spec\":\"a wire\","
    "\"files\":{\"tb.sv\":\"module tb; endmodule\\n\"},\"colour\":\"blue\"},"
    "\"candidate\":{\"id\":\"e-1\",\"origin\":\"gpt-x\",\"code\":\"module "
    "top_module(); wire; endmodule\\n\",\"mood\":\"bold\"},\"recorded\":"
    "[{\"verdict\":\"fail\",\"stage\":\"compile\",\"log\":\"tb.sv:1: syntax"
    " error\",\"tool\":\"iv 10\"}],\"labels\":[{\"category\":\"format\","
    "\"by\":\"ann\",\"at\":1700000000},{\"category\":\"compile\","
    "\"subcategory\":\"syntax\",\"by\":\"bob\",\"at\":1700000060}],"
    "\"review\":{\"status\":\"flagged\",\"note\":\"fix\",\"by\":\"ann\","
    "\"at\":1700000120},\"notes\":[{\"text\":\"ask bob\",\"by\":\"ann\","
    "\"at\":1700000180}],\"batch\":7}\n"
    "{\"task\":\"local/t1\",\"candidate\":{\"id\":\"e-2\",\"origin\":"
    "\"human\",\"kind\":\"repair\",\"code\":\"module top_module(); "
    "endmodule\\n\",\"parent\":\"e-1\"},\"review\":{\"status\":\"accepted\","
    "\"by\":\"ann\"}}\n"
    "{\"task\":{\"id\":\"local/empty\",\"env\":\"iverilog\"}}\n"
    "{\"task\":{\"id\":\"local/roles\",\"env\":\"iverilog\",\"files\":"
    "[{\"name\":\"check.sv\",\"role\":\"testbench\",\"text\":\"module "
    "check; endmodule\\n\"},{\"name\":\"vec.txt\",\"text\":\"01\\n\"}]},"
    "\"candidate\":{\"id\":\"e-3\",\"origin\":\"gpt-x\",\"code\":"
    "\"module x; endmodule\\n\"}}\n";

struct seen {
	char	**ids;
	size_t	  n;
};

static int
collect(const struct store_row *r, void *arg)
{
	struct seen *s = arg;

	s->ids = xreallocarray(s->ids, s->n + 1, sizeof *s->ids);
	s->ids[s->n++] = xstrdup(r->id);
	return 0;
}

static void
seen_release(struct seen *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->ids[i]);
	free(s->ids);
}

static void
assert_str_eq_null(const char *a, const char *b)
{
	if (a == NULL || b == NULL)
		assert_ptr_equal(a, b);
	else
		assert_string_equal(a, b);
}

/* The same free notes on cand_id in a and b: text, by and at. */
static void
assert_same_notes(struct store *a, struct store *b, const char *cand_id)
{
	struct store_note *na, *nb;
	size_t n, m;
	struct err err;

	assert_int_equal(store_note_list(a, cand_id, &na, &n, &err), 0);
	assert_int_equal(store_note_list(b, cand_id, &nb, &m, &err), 0);
	assert_int_equal(n, m);
	for (size_t k = 0; k < n; k++) {
		assert_string_equal(na[k].text, nb[k].text);
		assert_str_eq_null(na[k].by, nb[k].by);
		assert_int_equal(na[k].at, nb[k].at);
		store_note_release(&na[k]);
		store_note_release(&nb[k]);
	}
	free(na);
	free(nb);
}

/* Every candidate of a in b, with the same task, code, recorded results,
 * current decisions and notes. */
static void
assert_same_content(struct store *a, struct store *b)
{
	struct seen sa = { 0 }, sb = { 0 };
	struct err err;

	assert_int_equal(store_query_each(a, NULL, collect, &sa, &err), 0);
	assert_int_equal(store_query_each(b, NULL, collect, &sb, &err), 0);
	assert_int_equal(sa.n, sb.n);
	for (size_t i = 0; i < sa.n; i++) {
		struct candidate ca, cb;
		struct task ta, tb;
		struct recorded *ra, *rb;
		size_t na, nb;
		struct store_decision da, db;

		assert_string_equal(sa.ids[i], sb.ids[i]);
		assert_int_equal(store_candidate_get(a, sa.ids[i], &ca, &err),
		    0);
		assert_int_equal(store_candidate_get(b, sa.ids[i], &cb, &err),
		    0);
		assert_string_equal(ca.task_id, cb.task_id);
		assert_string_equal(ca.origin, cb.origin);
		assert_str_eq_null(ca.origin_raw, cb.origin_raw);
		assert_string_equal(ca.kind, cb.kind);
		assert_string_equal(ca.lang, cb.lang);
		assert_str_eq_null(ca.parent, cb.parent);
		assert_str_eq_null(ca.source, cb.source);
		assert_int_equal(ca.code_len, cb.code_len);
		assert_memory_equal(ca.code, cb.code, ca.code_len);
		assert_string_equal(ca.code_hash, cb.code_hash);
		assert_str_eq_null(ca.extra, cb.extra);

		assert_int_equal(store_task_get(a, ca.task_id, &ta, &err), 0);
		assert_int_equal(store_task_get(b, ca.task_id, &tb, &err), 0);
		assert_string_equal(ta.benchmark, tb.benchmark);
		assert_string_equal(ta.domain, tb.domain);
		assert_string_equal(ta.env, tb.env);
		assert_str_eq_null(ta.env_params, tb.env_params);
		assert_str_eq_null(ta.spec, tb.spec);
		assert_str_eq_null(ta.interface, tb.interface);
		assert_str_eq_null(ta.source, tb.source);
		assert_str_eq_null(ta.extra, tb.extra);
		assert_int_equal(ta.nfiles, tb.nfiles);
		for (size_t k = 0; k < ta.nfiles; k++) {
			assert_string_equal(ta.files[k].name, tb.files[k].name);
			assert_string_equal(ta.files[k].role, tb.files[k].role);
			assert_int_equal(ta.files[k].len, tb.files[k].len);
			assert_memory_equal(ta.files[k].data, tb.files[k].data,
			    ta.files[k].len);
		}

		assert_int_equal(store_recorded_list(a, sa.ids[i], &ra, &na,
		    &err), 0);
		assert_int_equal(store_recorded_list(b, sa.ids[i], &rb, &nb,
		    &err), 0);
		assert_int_equal(na, nb);
		for (size_t k = 0; k < na; k++) {
			assert_str_eq_null(ra[k].verdict, rb[k].verdict);
			assert_str_eq_null(ra[k].stage, rb[k].stage);
			assert_str_eq_null(ra[k].log, rb[k].log);
			recorded_release(&ra[k]);
			recorded_release(&rb[k]);
		}
		free(ra);
		free(rb);

		assert_int_equal(store_decision_get(a, sa.ids[i], &da, &err),
		    0);
		assert_int_equal(store_decision_get(b, sa.ids[i], &db, &err),
		    0);
		assert_str_eq_null(da.category, db.category);
		assert_str_eq_null(da.subcategory, db.subcategory);
		assert_str_eq_null(da.label_by, db.label_by);
		assert_str_eq_null(da.label_note, db.label_note);
		assert_string_equal(da.status, db.status);
		assert_str_eq_null(da.review_by, db.review_by);
		assert_str_eq_null(da.review_note, db.review_note);
		/* the decisions keep their time, not the import's */
		assert_int_equal(da.label_at, db.label_at);
		assert_int_equal(da.review_at, db.review_at);
		assert_same_notes(a, b, sa.ids[i]);
		store_decision_release(&da);
		store_decision_release(&db);
		candidate_release(&ca);
		candidate_release(&cb);
		task_release(&ta);
		task_release(&tb);
	}
	seen_release(&sa);
	seen_release(&sb);
}

static int to_buf(const char *, size_t, const struct export_line *, void *,
    struct err *);

static void
test_export_raw_round_trip(void **state)
{
	struct datafx *f = *state;
	struct export_opts o = { EXPORT_RAW, NULL, NULL };
	struct export_report rep;
	struct store *b;
	struct task t;
	struct err err;
	char *rows, *out, *bdb, *text, *p, *q;
	size_t n;

	if (f->data[0] == '\0') {
		print_message("shared data missing (set ASSAY_SHARED);"
		    " skipped\n");
		skip();
	}
	p = xasprintf("%s/verilog-eval-v2", f->data);
	import_ok(f->st, p);
	free(p);
	p = xasprintf("%s/rtlfixer/verilogeval-simulate.jsonl", f->data);
	import_ok(f->st, p);
	free(p);
	p = xasprintf("%s/verilog-eval-v1", f->data);
	import_ok(f->st, p);
	free(p);
	rows = write_file(f, "rows.jsonl", assay_rows);
	import_ok(f->st, rows);
	/* Decisions made here, an undone one among them. */
	assert_int_equal(store_label_set(f->st, "e-2", "functional", "x",
	    "note", "carl", 0, NULL, &err), 0);
	assert_int_equal(store_label_set(f->st, "e-2", "api", NULL, NULL,
	    "dan", 0, NULL, &err), 0);
	assert_int_equal(store_undo(f->st, "dan", NULL, 0, &err), 0);
	assert_int_equal(store_note_add(f->st, "e-2", "checked by hand", "carl",
	    &err), 0);
	assert_int_equal(store_label_final(f->st, "e-1", "format", "erin", 0,
	    NULL, &err), 0);

	out = xasprintf("%s/raw.jsonl", f->dir);
	assert_int_equal(export_file(f->st, &o, out, &rep, &err), 0);
	assert_int_equal(store_query_count(f->st, NULL, &n, &err), 0);
	assert_int_equal(rep.lines, n + 1);	/* + the empty task */
	text = read_text(out);
	/* unknown fields at each level, merged back where they came from */
	assert_non_null(strstr(text, "\"colour\":\"blue\""));
	assert_non_null(strstr(text, "\"mood\":\"bold\""));
	assert_non_null(strstr(text, "\"batch\":7"));
	assert_null(strstr(text, "$row"));
	/* decisions with their own times, notes, the final label */
	assert_non_null(strstr(text, "{\"category\":\"format\",\"by\":\"ann\","
	    "\"at\":1700000000}"));
	assert_non_null(strstr(text, "\"review\":{\"status\":\"flagged\","
	    "\"note\":\"fix\",\"by\":\"ann\",\"at\":1700000120},\"notes\":"
	    "[{\"text\":\"ask bob\",\"by\":\"ann\",\"at\":1700000180}]"));
	assert_non_null(strstr(text, "\"notes\":[{\"text\":\"checked by hand\","
	    "\"by\":\"carl\",\"at\":"));
	assert_non_null(strstr(text, "{\"category\":\"format\",\"final\":true,"
	    "\"by\":\"erin\",\"at\":"));
	/* roles by name as name -> text, others explicit */
	assert_non_null(strstr(text, "\"files\":{\"tb.sv\":"));
	assert_non_null(strstr(text, "\"files\":[{\"name\":\"check.sv\","
	    "\"role\":\"testbench\",\"text\":\"module check; endmodule\\n\"},"
	    "{\"name\":\"vec.txt\",\"role\":\"data\",\"text\":\"01\\n\"}]"));
	/* the parent before its repair */
	p = strstr(text, "\"id\":\"e-1\"");
	q = strstr(text, "\"id\":\"e-2\"");
	assert_non_null(p);
	assert_non_null(q);
	assert_true(p < q);
	free(text);

	bdb = xasprintf("%s/b.db", f->dir);
	assert_int_equal(store_open(&b, bdb, &err), 0);
	import_ok(b, out);
	assert_same_content(f->st, b);
	assert_int_equal(store_task_get(b, "local/empty", &t, &err), 0);
	task_release(&t);
	/* A second later, export -> import -> export gives the same bytes. */
	sleep(1);
	{
		struct buf again = BUF_INIT;

		text = read_text(out);
		assert_int_equal(export_run(b, &o, to_buf, &again, NULL, &err),
		    0);
		buf_adds(&again, "");
		assert_string_equal(buf_str(&again), text);
		buf_release(&again);
		free(text);
	}
	store_close(b);
	free(bdb);
	free(out);
	free(rows);
}

/* The export callback: lines into a buffer. */
static int
to_buf(const char *data, size_t len, const struct export_line *line,
    void *arg, struct err *err)
{
	(void)err;
	(void)line;
	buf_add(arg, data, len);
	return 0;
}

static const char *
msg(json_t *line, size_t i, const char *field)
{
	return json_string_value(json_object_get(json_array_get(
	    json_object_get(line, "messages"), i), field));
}

/* A run of cand_id with that verdict (and stage, metrics) in st. */
static void
add_run(struct store *st, const char *cand_id, const char *verdict,
    const char *stage, const char *evidence, const char *metrics)
{
	struct run r = { 0 };
	struct err err;

	r.cand_id = xstrdup(cand_id);
	r.env = xstrdup("iverilog");
	r.verdict = xstrdup(verdict);
	r.stage = stage != NULL ? xstrdup(stage) : NULL;
	r.evidence = evidence != NULL ? xstrdup(evidence) : NULL;
	r.metrics = metrics != NULL ? xstrdup(metrics) : NULL;
	r.toolchain = xstrdup("Icarus Verilog version 11.0");
	r.log = xasprintf("$ iverilog test.sv candidate.sv\n%s\n",
	    evidence != NULL ? evidence : "ok");
	r.log_len = strlen(r.log);
	if (stage != NULL && strcmp(stage, "compile") == 0)
		run_add_diag(&r, "candidate.sv", 1, 22, "error",
		    "syntax error", 1);
	assert_int_equal(store_run_add(st, &r, &err), 0);
	run_release(&r);
}

static json_t *
meta_get(json_t *line, const char *key)
{
	return json_object_get(json_object_get(line, "meta"), key);
}

static void
test_export_sft_repair(void **state)
{
	struct datafx *f = *state;
	struct export_opts o = { EXPORT_SFT, NULL, NULL, EXPORT_TRAJ_WHOLE, 0 };
	struct export_report rep;
	struct buf b = BUF_INIT;
	struct err err;
	json_t *line, *meta;
	char *rows = write_file(f, "rows.jsonl", assay_rows);
	const char *fb;

	import_ok(f->st, rows);
	add_run(f->st, "e-1", "fail", "compile",
	    "candidate.sv:1: syntax error", NULL);

	/* The accepted repair was never verified: not a positive. */
	assert_int_equal(export_run(f->st, &o, to_buf, &b, &rep, &err), 0);
	assert_int_equal(rep.lines, 0);
	assert_int_equal(rep.unverified, 1);
	/* ... unless asked, and meta says so */
	o.include_failing = 1;
	assert_int_equal(export_run(f->st, &o, to_buf, &b, &rep, &err), 0);
	assert_int_equal(rep.lines, 1);
	line = json_loads(buf_str(&b), 0, NULL);
	assert_non_null(line);
	assert_true(json_is_false(meta_get(line, "verified")));
	/* issue 25 item 1: every key in every row, absent values null */
	assert_non_null(json_object_get(json_object_get(line, "meta"),
	    "speedup"));
	assert_true(json_is_null(meta_get(line, "speedup")));
	json_decref(line);
	buf_reset(&b);
	o.include_failing = 0;

	add_run(f->st, "e-2", "pass", "simulate", NULL,
	    "{\"mismatches\":0,\"total\":20}");
	assert_int_equal(export_run(f->st, &o, to_buf, &b, &rep, &err), 0);
	/* accepted only: the repair, not its flagged parent */
	assert_int_equal(rep.lines, 1);
	assert_int_equal(rep.unverified, 0);
	line = json_loads(buf_str(&b), 0, NULL);
	assert_non_null(line);
	assert_int_equal(json_array_size(json_object_get(line, "messages")), 5);
	assert_string_equal(msg(line, 0, "role"), "system");
	assert_string_equal(msg(line, 1, "role"), "user");
	assert_non_null(strstr(msg(line, 1, "content"), "a wire"));
	assert_string_equal(msg(line, 2, "role"), "assistant");
	assert_string_equal(msg(line, 2, "content"),
	    "module top_module(); wire; endmodule\n");
	assert_string_equal(msg(line, 3, "role"), "user");
	fb = msg(line, 3, "content");
	assert_non_null(strstr(fb, "fail at stage compile"));
	assert_non_null(strstr(fb, "Evidence: candidate.sv:1: syntax error"));
	assert_non_null(strstr(fb, "- line 1, column 22: error: syntax error"));
	assert_non_null(strstr(fb, "Log excerpt:\n$ iverilog test.sv"));
	assert_string_equal(msg(line, 4, "role"), "assistant");
	assert_string_equal(msg(line, 4, "content"),
	    "module top_module(); endmodule\n");
	/* the failed turn is not learnt, the repair is */
	assert_int_equal(json_integer_value(json_object_get(json_array_get(
	    json_object_get(line, "messages"), 2), "weight")), 0);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(
	    json_object_get(line, "messages"), 4), "weight")), 1);
	assert_true(json_is_true(json_object_get(line,
	    "only_last_turn_loss")));
	meta = json_object_get(line, "meta");
	assert_int_equal(json_array_size(json_object_get(meta, "turns")), 2);
	assert_true(json_is_true(json_object_get(json_array_get(
	    json_object_get(meta, "turns"), 1), "target")));
	assert_int_equal(json_integer_value(json_object_get(json_array_get(
	    json_object_get(meta, "turns"), 1), "message")), 4);
	assert_string_equal(json_string_value(json_object_get(meta, "task")),
	    "local/t1");
	assert_string_equal(json_string_value(json_object_get(meta,
	    "benchmark")), "local");
	assert_string_equal(json_string_value(json_object_get(meta,
	    "domain")), "chip");
	assert_string_equal(json_string_value(json_object_get(meta, "env")),
	    "iverilog");
	assert_string_equal(json_string_value(json_object_get(meta,
	    "candidate")), "e-2");
	assert_string_equal(json_string_value(json_object_get(meta,
	    "parent")), "e-1");
	assert_string_equal(json_string_value(json_object_get(meta,
	    "reviewer")), "ann");
	assert_string_equal(json_string_value(json_object_get(meta,
	    "feedback")), "run");
	assert_string_equal(json_string_value(json_object_get(meta,
	    "verdict")), "pass");
	assert_true(json_is_true(json_object_get(meta, "verified")));
	assert_true(json_is_array(json_object_get(meta, "labels")));
	json_decref(line);

	/* A status predicate of one's own replaces the default. */
	buf_reset(&b);
	o.where = "status=flagged";
	o.include_failing = 1;
	assert_int_equal(export_run(f->st, &o, to_buf, &b, &rep, &err), 0);
	assert_int_equal(rep.lines, 1);
	line = json_loads(buf_str(&b), 0, NULL);
	assert_int_equal(json_array_size(json_object_get(line, "messages")), 3);
	assert_string_equal(json_string_value(json_object_get(json_object_get(
	    line, "meta"), "candidate")), "e-1");
	/* a direct row has the repair row's keys: the flag, a weight on
	 * every message (null but on the assistant's), one turn */
	assert_true(json_is_true(json_object_get(line,
	    "only_last_turn_loss")));
	assert_true(json_is_null(json_object_get(json_array_get(
	    json_object_get(line, "messages"), 1), "weight")));
	assert_int_equal(json_integer_value(json_object_get(json_array_get(
	    json_object_get(line, "messages"), 2), "weight")), 1);
	assert_int_equal(json_array_size(meta_get(line, "turns")), 1);
	assert_true(json_is_null(meta_get(line, "parent")));
	assert_true(json_is_null(meta_get(line, "feedback")));
	json_decref(line);
	buf_release(&b);
	free(rows);
}

/* Three rounds: failed, failed again, passed; whole and last. */
static void
test_export_sft_chain(void **state)
{
	struct datafx *f = *state;
	struct export_opts o = { EXPORT_SFT, NULL, NULL, EXPORT_TRAJ_WHOLE, 0 };
	struct export_report rep;
	struct buf b = BUF_INIT;
	struct err err;
	json_t *line, *msgs, *turns;
	char why[128];
	char *rows = write_file(f, "chain.jsonl",
	    "{\"task\":{\"id\":\"local/c\",\"env\":\"iverilog\",\"spec\":\"an"
	    " inverter\"},\"candidate\":{\"id\":\"k-1\",\"origin\":\"m\","
	    "\"code\":\"module top_module(input a, output b) assign b = a;"
	    " endmodule\\n\"}}\n"
	    "{\"task\":\"local/c\",\"candidate\":{\"id\":\"k-2\",\"origin\":"
	    "\"ann\",\"kind\":\"repair\",\"parent\":\"k-1\",\"code\":\"module"
	    " top_module(input a, output b); assign b = a; endmodule\\n\"}}\n"
	    "{\"task\":\"local/c\",\"candidate\":{\"id\":\"k-3\",\"origin\":"
	    "\"ann\",\"kind\":\"repair\",\"parent\":\"k-2\",\"code\":\"module"
	    " top_module(input a, output b); assign b = ~a; endmodule\\n\"},"
	    "\"review\":{\"status\":\"accepted\",\"by\":\"ann\"}}\n");

	import_ok(f->st, rows);
	add_run(f->st, "k-1", "fail", "compile", "candidate.sv:1: syntax"
	    " error", NULL);
	add_run(f->st, "k-2", "fail", "simulate", "Hint: Output 'b' has 20"
	    " mismatches. First mismatch occurred at time 5.",
	    "{\"mismatches\":20,\"total\":20}");
	add_run(f->st, "k-3", "pass", "simulate", NULL,
	    "{\"mismatches\":0,\"total\":20}");
	assert_int_equal(export_run(f->st, &o, to_buf, &b, &rep, &err), 0);
	assert_int_equal(rep.lines, 1);
	line = json_loads(buf_str(&b), 0, NULL);
	msgs = json_object_get(line, "messages");
	/* system, user, (assistant, user) x 2, assistant */
	assert_int_equal(json_array_size(msgs), 7);
	assert_int_equal(export_messages_check(msgs, why, sizeof why), 0);
	assert_non_null(strstr(msg(line, 3, "content"), "syntax error"));
	assert_non_null(strstr(msg(line, 5, "content"),
	    "First mismatch occurred at time 5"));
	assert_non_null(strstr(msg(line, 5, "content"),
	    "mismatches 20, total 20"));
	assert_non_null(strstr(msg(line, 4, "content"), "assign b = a;"));
	assert_int_equal(json_integer_value(json_object_get(json_array_get(
	    msgs, 2), "weight")), 0);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(
	    msgs, 4), "weight")), 0);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(
	    msgs, 6), "weight")), 1);
	turns = meta_get(line, "turns");
	assert_int_equal(json_array_size(turns), 3);
	assert_string_equal(json_string_value(json_object_get(json_array_get(
	    turns, 0), "candidate")), "k-1");
	assert_string_equal(json_string_value(json_object_get(json_array_get(
	    turns, 1), "verdict")), "fail");
	assert_int_equal(json_integer_value(json_object_get(json_array_get(
	    turns, 2), "message")), 6);
	json_decref(line);

	/* --trajectory last: today's single step */
	buf_reset(&b);
	o.trajectory = EXPORT_TRAJ_LAST;
	assert_int_equal(export_run(f->st, &o, to_buf, &b, &rep, &err), 0);
	line = json_loads(buf_str(&b), 0, NULL);
	assert_int_equal(json_array_size(json_object_get(line, "messages")), 5);
	assert_non_null(strstr(msg(line, 2, "content"), "assign b = a;"));
	json_decref(line);

	/* the check itself */
	msgs = json_pack("[{s:s},{s:s},{s:s}]", "role", "system", "role",
	    "assistant", "role", "user");
	assert_int_equal(export_messages_check(msgs, why, sizeof why), -1);
	assert_non_null(strstr(why, "message 1 is assistant"));
	json_decref(msgs);
	buf_release(&b);
	free(rows);
}

static void
test_export_verified(void **state)
{
	double sp;

	(void)state;
	assert_int_equal(export_verified("direct", "iverilog", "pass", NULL,
	    &sp), 1);
	assert_int_equal(export_verified("direct", "iverilog", "fail", NULL,
	    &sp), 0);
	assert_int_equal(export_verified("direct", "iverilog", NULL, NULL,
	    &sp), 0);
	/* speed judged: a pass needs its speedup */
	assert_int_equal(export_verified("direct", "triton", "pass", "{}",
	    &sp), 0);
	assert_int_equal(export_verified("direct", "triton", "pass",
	    "{\"speedup\":1.5}", &sp), 1);
	assert_true(sp > 1.49 && sp < 1.51);
	assert_int_equal(export_verified("optimization", "x86-asm+yosys",
	    "pass", "{\"time_ratio\":2.0}", &sp), 1);
	assert_int_equal(export_verified("optimization", "iverilog", "pass",
	    NULL, &sp), 0);
}

static void
test_export_filter_default(void **state)
{
	struct {
		enum export_format f;
		const char *where, *want;
	} cases[] = {
		{ EXPORT_SFT, NULL, "status=accepted" },
		{ EXPORT_SFT, "  ", "status=accepted" },
		{ EXPORT_SFT, "domain=chip", "status=accepted domain=chip" },
		{ EXPORT_SFT, "domain=chip status!=rejected",
		    "domain=chip status!=rejected" },
		{ EXPORT_SFT, "status~acc", "status~acc" },
		{ EXPORT_SFT, "statusx=1", "status=accepted statusx=1" },
		{ EXPORT_RAW, NULL, NULL },
		{ EXPORT_RAW, "kind=repair", "kind=repair" },
	};
	enum export_format fmt;
	struct err err;

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *got = export_filter(cases[i].f, cases[i].where);

		assert_str_eq_null(got, cases[i].want);
		free(got);
	}
	assert_int_equal(export_format_parse("raw", &fmt, &err), 0);
	assert_int_equal(fmt, EXPORT_RAW);
	assert_int_equal(export_format_parse("csv", &fmt, &err), -1);
	assert_non_null(strstr(err.msg, "csv"));
}

static void
test_export_parent_outside_filter(void **state)
{
	struct datafx *f = *state;
	struct export_opts o = { EXPORT_RAW, "kind=repair", NULL };
	struct export_report rep;
	struct buf b = BUF_INIT;
	struct store *c;
	struct err err;
	char *rows = write_file(f, "rows.jsonl", assay_rows);
	char *out = xasprintf("%s/rep.jsonl", f->dir);
	char *cdb = xasprintf("%s/c.db", f->dir);
	const char *p, *q;
	size_t n;

	import_ok(f->st, rows);
	assert_int_equal(export_run(f->st, &o, to_buf, &b, &rep, &err), 0);
	assert_int_equal(rep.lines, 2);
	assert_int_equal(rep.parents, 1);
	p = strstr(buf_str(&b), "\"id\":\"e-1\"");
	q = strstr(buf_str(&b), "\"id\":\"e-2\"");
	assert_non_null(p);
	assert_non_null(q);
	assert_true(p < q);
	/* ... so the file imports on its own */
	assert_int_equal(export_file(f->st, &o, out, NULL, &err), 0);
	assert_int_equal(store_open(&c, cdb, &err), 0);
	import_ok(c, out);
	assert_int_equal(store_query_count(c, NULL, &n, &err), 0);
	assert_int_equal(n, 2);
	store_close(c);
	buf_release(&b);
	free(cdb);
	free(out);
	free(rows);
}

/* Names in dir, one per line, sorted by readdir order; new string. */
static char *
ls(const char *dir)
{
	struct buf b = BUF_INIT;
	struct dirent *de;
	DIR *d = opendir(dir);

	assert_non_null(d);
	while ((de = readdir(d)) != NULL)
		if (de->d_name[0] != '.')
			buf_printf(&b, "%s\n", de->d_name);
	closedir(d);
	buf_adds(&b, "");
	return buf_detach(&b, NULL);
}

static void
test_export_file_interrupted(void **state)
{
	struct datafx *f = *state;
	volatile sig_atomic_t stop = 1;
	struct export_opts o = { EXPORT_RAW, NULL, &stop };
	struct err err;
	char *rows = write_file(f, "rows.jsonl", assay_rows);
	char *dir = xasprintf("%s/out", f->dir);
	char *out = xasprintf("%s/all.jsonl", dir);
	char *names, *before;

	import_ok(f->st, rows);
	assert_int_equal(mkdir(dir, 0755), 0);
	/* A first export that is stopped leaves nothing at all. */
	assert_int_equal(export_file(f->st, &o, out, NULL, &err), -1);
	assert_string_equal(err.msg, "interrupted");
	names = ls(dir);
	assert_string_equal(names, "");
	free(names);
	/* A complete one, then a stopped one: the complete one stays. */
	stop = 0;
	assert_int_equal(export_file(f->st, &o, out, NULL, &err), 0);
	before = read_text(out);
	assert_non_null(strstr(before, "\"id\":\"e-2\""));
	assert_int_equal(store_review_set(f->st, "e-2", "rejected", NULL, "x",
	    &err), 0);
	stop = 1;
	assert_int_equal(export_file(f->st, &o, out, NULL, &err), -1);
	names = ls(dir);
	assert_string_equal(names, "all.jsonl\n");
	free(names);
	names = read_text(out);
	assert_string_equal(names, before);
	free(names);
	free(before);
	/* A directory that is not there: an error, nothing created. */
	free(out);
	out = xasprintf("%s/none/x.jsonl", f->dir);
	stop = 0;
	assert_int_equal(export_file(f->st, &o, out, NULL, &err), -1);
	assert_non_null(strstr(err.msg, "none/x.jsonl.tmp-"));
	free(out);
	free(dir);
	free(rows);
}

/* A repair chain in the stable form, and its meta. */
static json_t *
chain_msgs(void)
{
	return json_loads("[{\"role\":\"system\",\"content\":\"S\"},"
	    "{\"role\":\"user\",\"content\":\"R\"},"
	    "{\"role\":\"assistant\",\"content\":\"bad\",\"weight\":0},"
	    "{\"role\":\"user\",\"content\":\"F\"},"
	    "{\"role\":\"assistant\",\"content\":\"good\",\"weight\":1}]",
	    0, NULL);
}

/* issue 25 item 4: each target's shape learns the last turn only. */
static void
test_export_shape(void **state)
{
	json_t *o, *m;

	(void)state;
	/* assay: every message has a weight, null but on assistants */
	o = export_shape(EXPORT_FOR_ASSAY, chain_msgs(), json_object());
	m = json_object_get(o, "messages");
	assert_true(json_is_null(json_object_get(json_array_get(m, 1),
	    "weight")));
	assert_int_equal(json_integer_value(json_object_get(
	    json_array_get(m, 2), "weight")), 0);
	assert_true(json_is_true(json_object_get(o, "only_last_turn_loss")));
	assert_non_null(json_object_get(o, "meta"));
	json_decref(o);
	/* openai: weight on assistant turns only, no meta */
	o = export_shape(EXPORT_FOR_OPENAI, chain_msgs(), json_object());
	m = json_object_get(o, "messages");
	assert_null(json_object_get(json_array_get(m, 1), "weight"));
	assert_int_equal(json_integer_value(json_object_get(
	    json_array_get(m, 4), "weight")), 1);
	assert_null(json_object_get(o, "meta"));
	assert_int_equal(json_object_size(o), 1);
	json_decref(o);
	/* trl: the failed turn and feedback are prompt, the code alone
	 * the completion */
	o = export_shape(EXPORT_FOR_TRL, chain_msgs(), json_object());
	assert_int_equal(json_array_size(json_object_get(o, "prompt")), 4);
	m = json_object_get(o, "completion");
	assert_int_equal(json_array_size(m), 1);
	assert_string_equal(json_string_value(json_object_get(
	    json_array_get(m, 0), "content")), "good");
	assert_null(json_object_get(json_array_get(m, 0), "weight"));
	assert_null(json_object_get(o, "messages"));
	json_decref(o);
	/* incoder: the flag its binarize_data.py reads */
	o = export_shape(EXPORT_FOR_INCODER, chain_msgs(), json_object());
	assert_true(json_is_true(json_object_get(o, "only_last_turn_loss")));
	assert_null(json_object_get(json_array_get(json_object_get(o,
	    "messages"), 2), "weight"));
	json_decref(o);
}

/* A row that carries a type the head does not show moves to the front;
 * one whose types the head shows does not. */
static void
test_card_head(void **state)
{
	struct card_head h = { STRSET_INIT, 0 };
	json_t *plain = json_loads("{\"a\":\"x\",\"b\":null,"
	    "\"l\":[]}", 0, NULL);
	json_t *rich = json_loads("{\"a\":\"x\",\"b\":1.5,"
	    "\"l\":[{\"k\":null}]}", 0, NULL);
	json_t *richer = json_loads("{\"a\":\"y\",\"b\":2.5,"
	    "\"l\":[{\"k\":\"v\"}]}", 0, NULL);
	size_t n = 0;

	(void)state;
	/* the head: a MiB of rows with b null and l empty */
	while (h.bytes < CARD_HEAD_BYTES) {
		assert_int_equal(card_head_feed(&h, plain, 1000), 0);
		n++;
	}
	assert_true(n > 1000);
	assert_int_equal(card_head_feed(&h, plain, 1000), 0);
	assert_int_equal(card_head_feed(&h, rich, 1000), 1);	/* b, l */
	assert_int_equal(card_head_feed(&h, rich, 1000), 0);	/* seen */
	assert_int_equal(card_head_feed(&h, richer, 1000), 1);	/* l[].k */
	assert_int_equal(card_head_feed(&h, richer, 1000), 0);
	card_head_release(&h);
	json_decref(plain);
	json_decref(rich);
	json_decref(richer);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_export_raw_round_trip,
		    datafx_setup, datafx_teardown),
		cmocka_unit_test_setup_teardown(test_export_sft_repair,
		    datafx_setup, datafx_teardown),
		cmocka_unit_test_setup_teardown(test_export_sft_chain,
		    datafx_setup, datafx_teardown),
		cmocka_unit_test(test_export_verified),
		cmocka_unit_test(test_export_shape),
		cmocka_unit_test(test_card_head),
		cmocka_unit_test(test_export_filter_default),
		cmocka_unit_test_setup_teardown(
		    test_export_parent_outside_filter, datafx_setup, datafx_teardown),
		cmocka_unit_test_setup_teardown(test_export_file_interrupted,
		    datafx_setup, datafx_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
