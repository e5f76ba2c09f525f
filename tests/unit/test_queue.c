/*
 * test_queue.c - unit tests (cmocka) for the queue at scale (issue 5,
 * item 7): keyset paging (store_query_seek, store_query_nth) against
 * offset paging, the one-lookup match (store_query_match), `/`
 * (store_query_find and store_query_position), the narrow queue table
 * following runs, labels, reviews and undo and the kept statistics
 * (schema v6), a kept grep= result seeing new text, and
 * store_bench_fill's copies.  Each test works on its own database in a
 * mkdtemp directory; SQLite is reached only through store.h.
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
#include "base/hash.h"
#include "model/sample.h"
#include "store/store.h"
#include "testlib.h"

#define NCANDS	40

struct fx {
	char		 dir[64];
	char		 db[PATH_MAX];
	struct store	*st;
	char		*ids[NCANDS];	/* in import order */
};

static void
put_task(struct store *st, const char *id, const char *spec)
{
	struct task t;
	struct err err;
	int ins;

	memset(&t, 0, sizeof t);
	t.id = xstrdup(id);
	t.benchmark = xstrdup(strcmp(id, "t/a") == 0 ? "bench-a" : "bench-b");
	t.domain = xstrdup("chip");
	t.env = xstrdup("iverilog");
	t.spec = xstrdup(spec);
	if (store_task_put(st, &t, &ins, &err) < 0)
		fail_msg("store_task_put: %s", err.msg);
	task_release(&t);
}

static char *
add_cand(struct store *st, const char *task, const char *origin,
    const char *code)
{
	struct candidate c;
	struct err err;
	int ins;
	char *id;

	memset(&c, 0, sizeof c);
	c.task_id = xstrdup(task);
	c.origin = xstrdup(origin);
	c.lang = xstrdup("verilog");
	c.code = xstrdup(code);
	c.code_len = strlen(code);
	hash_sha256(c.code, c.code_len, c.code_hash);
	if (store_candidate_add(st, &c, &ins, &err) < 0)
		fail_msg("store_candidate_add: %s", err.msg);
	id = xstrdup(c.id);
	candidate_release(&c);
	return id;
}

static void
add_run(struct store *st, const char *id, const char *verdict,
    const char *category, const char *log)
{
	struct run r;
	struct err err;

	memset(&r, 0, sizeof r);
	r.cand_id = xstrdup(id);
	r.env = xstrdup("iverilog");
	r.verdict = xstrdup(verdict);
	r.category = category != NULL ? xstrdup(category) : NULL;
	r.log = xstrdup(log);
	r.log_len = strlen(log);
	if (store_run_add(st, &r, &err) < 0)
		fail_msg("store_run_add: %s", err.msg);
	run_release(&r);
}

/*
 * 40 candidates over two tasks and two models; every third fails to
 * compile, the others pass; every fifth has "needle_1" in its log.
 */
static int
fx_setup(void **state)
{
	struct fx *f = xcalloc(1, sizeof *f);
	struct err err;

	snprintf(f->dir, sizeof f->dir, "/tmp/assay-test-queue-XXXXXX");
	if (mkdtemp(f->dir) == NULL) {
		free(f);
		return -1;
	}
	snprintf(f->db, sizeof f->db, "%s/assay.db", f->dir);
	if (store_open(&f->st, f->db, &err) < 0) {
		print_error("store_open: %s\n", err.msg);
		return -1;
	}
	put_task(f->st, "t/a", "Build a counter.");
	put_task(f->st, "t/b", "Build a shifter with a haystack.");
	for (int i = 0; i < NCANDS; i++) {
		char code[64], log[64];

		snprintf(code, sizeof code, "module m%d; endmodule\n", i);
		f->ids[i] = add_cand(f->st, i % 2 ? "t/b" : "t/a",
		    i % 4 < 2 ? "model-x" : "model-y", code);
		snprintf(log, sizeof log, "run %d%s", i, i % 5 == 0 ?
		    " needle_1" : "");
		add_run(f->st, f->ids[i], i % 3 == 0 ? "fail" : "pass",
		    i % 3 == 0 ? "compile" : NULL, log);
	}
	*state = f;
	return 0;
}

static int
fx_teardown(void **state)
{
	struct fx *f = *state;

	store_close(f->st);
	rm_rf(f->dir);
	for (int i = 0; i < NCANDS; i++)
		free(f->ids[i]);
	free(f);
	return 0;
}

static void
rows_free(struct store_row *r, size_t n)
{
	for (size_t i = 0; i < n; i++)
		store_row_release(&r[i]);
	free(r);
}

static size_t
count(struct store *st, const char *filter)
{
	struct err err;
	size_t n;

	if (store_query_count(st, filter, &n, &err) < 0)
		fail_msg("count %s: %s", filter ? filter : "", err.msg);
	return n;
}

/* A seek from any row gives the rows an offset gives, both ways. */
static void
test_queue_seek_matches_offset(void **state)
{
	static const char *const filters[] = { NULL, "verdict=pass",
	    "verdict=fail model=model-y", "grep=needle_1", "grep=haystack",
	    "grep=haystack model=model-x" };
	struct fx *f = *state;
	struct err err;

	for (size_t k = 0; k < sizeof filters / sizeof filters[0]; k++) {
		struct store_row *all, *p;
		size_t nall, np;

		assert_int_equal(store_query_page(f->st, filters[k], 0, 100,
		    &all, &nall, &err), 0);
		assert_int_equal(nall, count(f->st, filters[k]));
		assert_true(nall > 1);
		for (size_t i = 0; i < nall; i++) {
			int64_t seq;

			size_t at = SIZE_MAX;

			/* row i's place, by its seq (a grep= counts through
			 * its own table of matches) */
			assert_int_equal(store_query_position(f->st,
			    filters[k], all[i].seq, &at, &err), 0);
			assert_int_equal(at, i);
			/* the seq of row i, from either end */
			assert_int_equal(store_query_nth(f->st, filters[k], 0,
			    1, i, &seq, &err), 0);
			assert_int_equal(seq, all[i].seq);
			assert_int_equal(store_query_nth(f->st, filters[k],
			    INT64_MAX, -1, nall - 1 - i, &seq, &err), 0);
			assert_int_equal(seq, all[i].seq);
			assert_int_equal(store_query_nth(f->st, filters[k],
			    all[i].seq, 1, 0, &seq, &err), i + 1 < nall ? 0 : 1);
			if (i + 1 < nall)
				assert_int_equal(seq, all[i + 1].seq);
			/* forward from row i: rows i+1, i+2 (skip 1: i+2) */
			assert_int_equal(store_query_seek(f->st, filters[k],
			    all[i].seq, 1, 1, 2, &p, &np, &err), 0);
			assert_int_equal(np, i + 2 < nall ? (nall - i - 2 < 2 ?
			    nall - i - 2 : 2) : 0);
			for (size_t j = 0; j < np; j++)
				assert_string_equal(p[j].id, all[i + 2 + j].id);
			rows_free(p, np);
			/* back from row i: rows i-2, i-1, ascending */
			assert_int_equal(store_query_seek(f->st, filters[k],
			    all[i].seq, -1, 0, 2, &p, &np, &err), 0);
			assert_int_equal(np, i < 2 ? i : 2);
			for (size_t j = 0; j < np; j++)
				assert_string_equal(p[j].id,
				    all[i - np + j].id);
			rows_free(p, np);
		}
		/* a row outside the view has no place: between two rows,
		 * and past the last one */
		if (all[1].seq > all[0].seq + 1) {
			size_t at = SIZE_MAX;

			assert_int_equal(store_query_position(f->st,
			    filters[k], all[0].seq + 1, &at, &err), 1);
		}
		{
			size_t at = SIZE_MAX;

			assert_int_equal(store_query_position(f->st,
			    filters[k], all[nall - 1].seq + 1000000, &at,
			    &err), 1);
		}
		/* the end, counted back */
		assert_int_equal(store_query_seek(f->st, filters[k], INT64_MAX,
		    -1, 0, 1, &p, &np, &err), 0);
		assert_int_equal(np, 1);
		assert_string_equal(p[0].id, all[nall - 1].id);
		rows_free(p, np);
		rows_free(all, nall);
	}
}

static void
test_queue_match_and_index(void **state)
{
	struct fx *f = *state;
	struct err err;
	size_t idx;
	int in;

	assert_int_equal(store_query_match(f->st, "verdict=fail", f->ids[3],
	    &in, &err), 0);
	assert_int_equal(in, 1);
	assert_int_equal(store_query_match(f->st, "verdict=fail", f->ids[4],
	    &in, &err), 0);
	assert_int_equal(in, 0);
	assert_int_equal(store_query_match(f->st, NULL, "c-none", &in, &err),
	    0);
	assert_int_equal(in, 0);
	/* a key of the task's table (benchmark: t.) joins the task */
	assert_int_equal(store_query_match(f->st, "benchmark=bench-a"
	    " verdict=fail", f->ids[6], &in, &err), 0);
	assert_int_equal(in, 1);
	assert_int_equal(store_query_match(f->st, "benchmark=bench-a",
	    f->ids[3], &in, &err), 0);
	assert_int_equal(in, 0);
	/* fails are 0 3 6 9 ...: ids[9] is the fourth */
	assert_int_equal(store_query_index(f->st, "verdict=fail", f->ids[9],
	    &idx, &err), 0);
	assert_int_equal(idx, 3);
	assert_int_equal(store_query_index(f->st, "verdict=fail", f->ids[4],
	    &idx, &err), -1);
	assert_int_equal(store_query_match(f->st, "verdict=bogus", f->ids[3],
	    &in, &err), -1);
	assert_non_null(strstr(err.msg, "unknown verdict"));
}

/* `/`: the next candidate whose shown columns match, either way. */
static void
test_queue_find(void **state)
{
	struct fx *f = *state;
	struct store_row *all;
	struct err err;
	int64_t seq;
	size_t nall, idx;

	assert_int_equal(store_query_page(f->st, NULL, 0, 100, &all, &nall,
	    &err), 0);
	/* model-y: 2 3 6 7 ...; after row 3 comes 6 */
	assert_int_equal(store_query_find(f->st, NULL, "MODEL-Y$", all[3].seq,
	    1, &seq, &err), 0);
	assert_int_equal(seq, all[6].seq);
	assert_int_equal(store_query_find(f->st, NULL, "model-y", all[6].seq,
	    -1, &seq, &err), 0);
	assert_int_equal(seq, all[3].seq);
	/* by id, and the position of what it found */
	assert_int_equal(store_query_find(f->st, "verdict=fail", f->ids[9],
	    0, 1, &seq, &err), 0);
	assert_int_equal(seq, all[9].seq);
	assert_int_equal(store_query_position(f->st, "verdict=fail", seq,
	    &idx, &err), 0);
	assert_int_equal(idx, 3);
	assert_int_equal(store_query_position(f->st, "verdict=fail",
	    all[4].seq, &idx, &err), 1);
	/* nothing further that way; nothing at all */
	assert_int_equal(store_query_find(f->st, NULL, "model-y",
	    all[nall - 1].seq, 1, &seq, &err), 1);
	assert_int_equal(store_query_find(f->st, NULL, "no such thing", 0, 1,
	    &seq, &err), 1);
	assert_int_equal(store_query_find(f->st, NULL, "a(", 0, 1, &seq, &err),
	    -1);
	assert_non_null(strstr(err.msg, "/a("));
	rows_free(all, nall);
}

/* A string or NULL, equal. */
static int
same(const char *a, const char *b)
{
	return a == NULL ? b == NULL : b != NULL && strcmp(a, b) == 0;
}

/*
 * The statistics of the whole queue (kept in queue_sum) are those of a
 * filter that matches every candidate (counted from the queue rows).
 */
static void
stats_kept_match(struct store *st, const char *key)
{
	struct store_stat *a, *b;
	struct err err;
	size_t na, nb;

	assert_int_equal(store_stats(st, NULL, key, &a, &na, &err), 0);
	assert_int_equal(store_stats(st, "kind=direct", key, &b, &nb, &err),
	    0);
	assert_int_equal(na, nb);
	for (size_t i = 0; i < na; i++) {
		assert_string_equal(a[i].group, b[i].group);
		assert_true(same(a[i].verdict, b[i].verdict));
		assert_true(same(a[i].category, b[i].category));
		assert_true(same(a[i].subcategory, b[i].subcategory));
		assert_int_equal(a[i].count, b[i].count);
		store_stat_release(&a[i]);
		store_stat_release(&b[i]);
	}
	free(a);
	free(b);
}

/* The queue table follows runs, labels, reviews, undo and redo. */
static void
test_queue_follows_decisions(void **state)
{
	struct fx *f = *state;
	struct err err;
	char what[256];
	size_t fails = count(f->st, "verdict=fail");

	assert_int_equal(fails, (NCANDS + 2) / 3);
	assert_int_equal(count(f->st, "category=compile"), fails);
	assert_int_equal(count(f->st, "status=unreviewed"), NCANDS);
	/* a new run of a passing candidate that fails */
	add_run(f->st, f->ids[1], "fail", "functional", "later");
	assert_int_equal(count(f->st, "verdict=fail"), fails + 1);
	assert_int_equal(count(f->st, "category=functional"), 1);
	/* a label wins over the run's category; undo gives it back */
	assert_int_equal(store_label_set(f->st, f->ids[0], "format", NULL,
	    NULL, "ann", 0, NULL, &err), 0);
	assert_int_equal(count(f->st, "category=compile"), fails - 1);
	assert_int_equal(count(f->st, "category=format"), 1);
	assert_int_equal(store_review_set(f->st, f->ids[2], "accepted", NULL,
	    "ann", &err), 0);
	assert_int_equal(count(f->st, "status=accepted"), 1);
	assert_int_equal(count(f->st, "status=unreviewed"), NCANDS - 1);
	assert_int_equal(store_undo(f->st, "ann", what, sizeof what, &err),
	    0);
	assert_int_equal(count(f->st, "status=accepted"), 0);
	assert_int_equal(store_undo(f->st, "ann", what, sizeof what, &err),
	    0);
	assert_int_equal(count(f->st, "category=compile"), fails);
	assert_int_equal(count(f->st, "category=format"), 0);
	assert_int_equal(store_redo(f->st, "ann", what, sizeof what, &err),
	    0);
	assert_int_equal(count(f->st, "category=format"), 1);
	/* a label with a subcategory, on a candidate never run */
	free(add_cand(f->st, "t/a", "model-z", "module late; endmodule\n"));
	assert_int_equal(store_label_set(f->st, f->ids[5], "api", "unknown-mod",
	    NULL, "ann", 0, NULL, &err), 0);
	stats_kept_match(f->st, "benchmark");
	stats_kept_match(f->st, "model");
	stats_kept_match(f->st, "task");
	stats_kept_match(f->st, "env");
}

/* Statistics count what the filters count. */
static void
test_queue_stats_by_task_and_model(void **state)
{
	struct fx *f = *state;
	struct store_stat *c;
	struct err err;
	size_t n, sum = 0, a_fail = 0, x_all = 0;

	assert_int_equal(store_stats(f->st, NULL, "benchmark", &c, &n, &err),
	    0);
	for (size_t i = 0; i < n; i++) {
		sum += c[i].count;
		if (strcmp(c[i].group, "bench-a") == 0 &&
		    c[i].verdict != NULL && strcmp(c[i].verdict, "fail") == 0)
			a_fail += c[i].count;
		store_stat_release(&c[i]);
	}
	free(c);
	assert_int_equal(sum, NCANDS);
	assert_int_equal(a_fail, count(f->st,
	    "benchmark=bench-a verdict=fail"));
	assert_int_equal(store_stats(f->st, "grep=haystack", "model", &c, &n,
	    &err), 0);
	for (size_t i = 0; i < n; i++) {
		if (strcmp(c[i].group, "model-x") == 0)
			x_all += c[i].count;
		store_stat_release(&c[i]);
	}
	free(c);
	assert_int_equal(x_all, count(f->st, "grep=haystack model=model-x"));
	assert_int_equal(x_all, NCANDS / 4);
}

/* A kept search sees text added after it. */
static void
test_queue_grep_sees_new_text(void **state)
{
	struct fx *f = *state;
	struct err err;
	struct store_row *p;
	size_t np;

	assert_int_equal(count(f->st, "grep=needle_1"), NCANDS / 5);
	assert_int_equal(count(f->st, "grep=gadzooks"), 0);
	assert_int_equal(store_note_add(f->st, f->ids[7], "gadzooks here",
	    "ann", &err), 0);
	assert_int_equal(count(f->st, "grep=gadzooks"), 1);
	add_run(f->st, f->ids[7], "pass", NULL, "needle_1 again");
	assert_int_equal(count(f->st, "grep=needle_1"), NCANDS / 5 + 1);
	assert_int_equal(count(f->st, "grep!=needle_1"),
	    NCANDS - NCANDS / 5 - 1);
	assert_int_equal(store_query_seek(f->st, "grep=gadzooks", 0, 1, 0, 5,
	    &p, &np, &err), 0);
	assert_int_equal(np, 1);
	assert_string_equal(p[0].id, f->ids[7]);
	rows_free(p, np);
	/* a spec's word: every candidate of its task */
	assert_int_equal(count(f->st, "grep=haystack"), NCANDS / 2);
	put_task(f->st, "t/c", "Another haystack.");
	free(add_cand(f->st, "t/c", "model-z", "module z; endmodule\n"));
	assert_int_equal(count(f->st, "grep=haystack"), NCANDS / 2 + 1);
}

/*
 * store_grep_patch: runs another connection stored (the workbench's
 * :verify thread) are brought into a kept search for their candidates
 * alone; the patched result is held, so text it was not told of stays
 * out until store_grep_forget(), which searches again.
 */
static void
test_queue_grep_patch_and_hold(void **state)
{
	struct fx *f = *state;
	struct store *two;
	struct store_row *p;
	struct err err;
	int64_t seq[2];
	size_t np;

	assert_int_equal(count(f->st, "grep=zyzzyva"), 0);
	assert_int_equal(store_open_again(f->st, &two, &err), 0);
	add_run(two, f->ids[3], "fail", NULL, "zyzzyva in the log");
	add_run(two, f->ids[9], "fail", NULL, "zyzzyva too");
	for (int k = 0; k < 2; k++) {
		char *flt = xasprintf("id=%s", f->ids[k == 0 ? 3 : 9]);

		assert_int_equal(store_query_page(f->st, flt, 0, 1, &p, &np,
		    &err), 0);
		assert_int_equal(np, 1);
		seq[k] = p[0].seq;
		rows_free(p, np);
		free(flt);
	}
	/* told of one: the kept result has that one, and is held */
	assert_int_equal(store_grep_patch(f->st, seq, 1, &err), 0);
	assert_int_equal(count(f->st, "grep=zyzzyva"), 1);
	assert_int_equal(store_query_seek(f->st, "grep=zyzzyva", 0, 1, 0, 5,
	    &p, &np, &err), 0);
	assert_int_equal(np, 1);
	assert_string_equal(p[0].id, f->ids[3]);
	rows_free(p, np);
	/* told of the other: both */
	assert_int_equal(store_grep_patch(f->st, seq + 1, 1, &err), 0);
	assert_int_equal(count(f->st, "grep=zyzzyva"), 2);
	/* forgotten: searched again, every text */
	add_run(two, f->ids[5], "fail", NULL, "zyzzyva once more");
	assert_int_equal(count(f->st, "grep=zyzzyva"), 2);	/* held */
	store_grep_forget(f->st);
	assert_int_equal(count(f->st, "grep=zyzzyva"), 3);
	store_close(two);
}

/*
 * The same rows written one by one (the per-row triggers keep search
 * and queue) and as an import (store_import_begin: the triggers stand
 * aside, store_import_publish adds the rows in bulk, issue 13) give the
 * same answers: searches by code, recorded log, note and spec word find
 * the same candidates, queue pages and statistics agree.  A second
 * import on top adds a recorded log to an existing candidate, which must
 * be found under that candidate; a rolled back import leaves nothing.
 */
static void
fill_rows(struct store *st, int round, char **ids)
{
	struct recorded rec = { 0 };
	struct err err;

	put_task(st, round == 0 ? "t/bulk" : "t/bulk2", round == 0 ?
	    "A spec with zebra_word." : "Second spec, okapi_word.");
	for (int i = 0; i < 6; i++) {
		char code[96], log[64];

		snprintf(code, sizeof code, "module m%d_%d; // code_%d\nendmodule\n",
		    round, i, i % 3);
		ids[i] = add_cand(st, round == 0 ? "t/bulk" : "t/bulk2",
		    i % 2 ? "model-a" : "model-b", code);
		snprintf(log, sizeof log, "recorded_log_%d%s", i % 2,
		    i == 4 ? " two_logs" : "");
		rec.verdict = (char *)(i % 3 ? "fail" : "pass");
		rec.log = log;
		assert_int_equal(store_recorded_add(st, ids[i], &rec, &err), 0);
		if (i == 4)
			assert_int_equal(store_recorded_add(st, ids[i], &rec,
			    &err), 0);
		if (i == 5)
			assert_int_equal(store_note_add_at(st, ids[i],
			    "note_word here", "ann", 0, &err), 0);
	}
}

static void
test_queue_import_bulk_equals_triggers(void **state)
{
	static const char *const filters[] = { "grep=zebra_word",
	    "grep=code_0", "grep=code_1", "grep=recorded_log_1",
	    "grep=two_logs", "grep=note_word", "grep=okapi_word",
	    "grep=extra_log", "grep=late_log",
	    "model=model-a", "", "task=t/bulk2" };
	struct fx *f = *state;
	char dir[] = "/tmp/assay-bulk-XXXXXX", *path, *a[6], *b[6], *c[6];
	char *d[6];
	struct store *bulk;
	struct recorded rec = { 0 };
	struct err err;

	assert_non_null(mkdtemp(dir));
	path = xasprintf("%s/bulk.db", dir);
	assert_int_equal(store_open(&bulk, path, &err), 0);
	/* one by one, in f->st (it has rows already: they shift nothing) */
	assert_int_equal(store_begin(f->st, &err), 0);
	fill_rows(f->st, 0, a);
	assert_int_equal(store_commit(f->st, &err), 0);
	assert_int_equal(store_import_begin(bulk, &err), 0);
	fill_rows(bulk, 0, b);
	assert_int_equal(store_import_publish(bulk, &err), 0);
	assert_int_equal(store_commit(bulk, &err), 0);
	/* a second import: new rows, and a log for an existing candidate */
	assert_int_equal(store_import_begin(bulk, &err), 0);
	fill_rows(bulk, 1, c);
	rec.log = (char *)"extra_log";
	assert_int_equal(store_recorded_add(bulk, b[2], &rec, &err), 0);
	/* a log of a new candidate that is not the one added last */
	rec.log = (char *)"late_log";
	assert_int_equal(store_recorded_add(bulk, c[1], &rec, &err), 0);
	assert_int_equal(store_import_publish(bulk, &err), 0);
	assert_int_equal(store_commit(bulk, &err), 0);
	assert_int_equal(store_begin(f->st, &err), 0);
	fill_rows(f->st, 1, d);
	rec.log = (char *)"extra_log";
	assert_int_equal(store_recorded_add(f->st, a[2], &rec, &err), 0);
	rec.log = (char *)"late_log";
	assert_int_equal(store_recorded_add(f->st, d[1], &rec, &err), 0);
	assert_int_equal(store_commit(f->st, &err), 0);
	for (size_t i = 0; i < sizeof filters / sizeof filters[0]; i++) {
		struct store_row *pa, *pb;
		size_t na, nb, skip;

		/* f->st holds NCANDS other rows first */
		skip = strstr(filters[i], "grep=") == filters[i] ||
		    strchr(filters[i], '=') != NULL ? 0 : NCANDS;
		if (strcmp(filters[i], "model=model-a") == 0)
			skip = count(f->st, filters[i]) - count(bulk,
			    filters[i]);
		assert_int_equal(store_query_seek(f->st, filters[i], 0, 1, skip,
		    100, &pa, &na, &err), 0);
		assert_int_equal(store_query_seek(bulk, filters[i], 0, 1, 0,
		    100, &pb, &nb, &err), 0);
		if (na != nb)
			fail_msg("%s: %zu rows one by one, %zu in bulk",
			    filters[i], na, nb);
		for (size_t k = 0; k < na; k++) {
			assert_string_equal(pa[k].id, pb[k].id);
			assert_string_equal(pa[k].status, pb[k].status);
		}
		rows_free(pa, na);
		rows_free(pb, nb);
	}
	assert_int_equal(count(bulk, "grep=extra_log"), 1);
	assert_int_equal(count(bulk, "grep=late_log"), 1);
	assert_int_equal(count(bulk, "grep=two_logs"), 2);	/* each round */
	assert_int_equal(count(bulk, ""), 12);
	/* A rolled back import leaves no row, in search or queue. */
	assert_int_equal(store_import_begin(bulk, &err), 0);
	put_task(bulk, "t/gone", "vanishing_word");
	free(add_cand(bulk, "t/gone", "model-c", "module gone_code; endmodule\n"));
	store_rollback(bulk);
	assert_int_equal(count(bulk, ""), 12);
	assert_int_equal(count(bulk, "grep=gone_code"), 0);
	assert_int_equal(count(bulk, "grep=vanishing_word"), 0);
	/* and the triggers are back for the next writer */
	free(add_cand(bulk, "t/bulk", "model-c", "module back_code; endmodule\n"));
	assert_int_equal(count(bulk, "grep=back_code"), 1);
	assert_int_equal(count(bulk, ""), 13);
	for (int i = 0; i < 6; i++) {
		free(a[i]);
		free(b[i]);
		free(c[i]);
		free(d[i]);
	}
	store_close(bulk);
	rm_rf(dir);
	free(path);
}

static void
test_queue_bench_fill(void **state)
{
	struct fx *f = *state;
	struct err err;
	size_t added;

	assert_int_equal(store_bench_fill(f->st, 100, &added, &err), 0);
	assert_int_equal(added, 100 - NCANDS);
	assert_int_equal(count(f->st, NULL), 100);
	/* runs come along: 100 / 40 copies of 14 fails, round by round */
	assert_int_equal(count(f->st, "verdict=fail"), 14 + 14 + 7);
	assert_int_equal(count(f->st, "grep=needle_1"), 8 + 8 + 4);
	assert_int_equal(count(f->st, "grep=\"assay bench copy 2\""), 20);
	/* not fewer: nothing to do */
	assert_int_equal(store_bench_fill(f->st, 50, &added, &err), 0);
	assert_int_equal(added, 0);
	assert_int_equal(count(f->st, NULL), 100);
}

/*
 * A copy's id is the one the candidate id rule gives its identity: the
 * same task, model and code added to another store through
 * store_candidate_add() get the same id.
 */
static void
test_queue_bench_fill_ids(void **state)
{
	struct fx *f = *state;
	struct store_row *rows;
	struct candidate c;
	struct store *other;
	struct err err;
	char path[PATH_MAX], *id;
	size_t added, n;

	assert_int_equal(store_bench_fill(f->st, NCANDS + 3, &added, &err), 0);
	assert_int_equal(store_query_page(f->st, NULL, NCANDS, 3, &rows, &n,
	    &err), 0);
	assert_int_equal(n, 3);
	snprintf(path, sizeof path, "%s/other.db", f->dir);
	assert_int_equal(store_open(&other, path, &err), 0);
	put_task(other, "t/a", "Build a counter.");
	put_task(other, "t/b", "Build a shifter with a haystack.");
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(store_candidate_get(f->st, rows[i].id, &c,
		    &err), 0);
		assert_non_null(strstr(c.code, "assay bench copy 1 of "));
		id = add_cand(other, c.task_id, c.origin, c.code);
		assert_string_equal(id, rows[i].id);
		free(id);
		candidate_release(&c);
		store_row_release(&rows[i]);
	}
	free(rows);
	store_close(other);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_queue_seek_matches_offset,
		    fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_queue_match_and_index,
		    fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_queue_find, fx_setup,
		    fx_teardown),
		cmocka_unit_test_setup_teardown(test_queue_follows_decisions,
		    fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(
		    test_queue_stats_by_task_and_model, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_queue_grep_sees_new_text,
		    fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_queue_grep_patch_and_hold,
		    fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_queue_bench_fill,
		    fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_queue_bench_fill_ids,
		    fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(
		    test_queue_import_bulk_equals_triggers, fx_setup,
		    fx_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
