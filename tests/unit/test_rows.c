/*
 * test_rows.c - unit tests (cmocka) for the store's one row reader
 * (rows_read and its column map rows_cols, src/store/store_int.h,
 * issue 9 item 7): a reader that
 * fails after some rows hands back nothing, and what it had read is
 * released.  The list readers of store.h are made to fail the same way:
 * their table is renamed and a view of the same name put in its place
 * that raises an integer overflow from the third row on (abs() of the
 * smallest integer, an error SQLite raises while stepping), so that the
 * reader has items in hand when the error comes.  A reader that kept a
 * half-filled list fails the NULL/0 checks; one that leaked its items
 * fails under the sanitizers' leak check (these tests run under ASan).
 *
 * This test reaches into the store's internal header for the connection
 * and the helper; everything else goes through store.h.
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
#include "store/store_int.h"
#include "testlib.h"

struct fx {
	char		 dir[64];
	char		 db[PATH_MAX];
	struct store	*st;
	char		*id;	/* the one candidate */
};

/* From the third row on, an error while stepping (rowid-dependent, so
 * that SQLite cannot fold it into a constant evaluated once). */
#define BOOM "abs(rowid - rowid - 9223372036854775807 - 1)"

static int
fx_setup(void **state)
{
	struct fx *f = xcalloc(1, sizeof *f);
	struct candidate c;
	struct task t;
	struct err err;
	int ins;

	snprintf(f->dir, sizeof f->dir, "/tmp/assay-test-rows-XXXXXX");
	if (mkdtemp(f->dir) == NULL) {
		free(f);
		return -1;
	}
	snprintf(f->db, sizeof f->db, "%s/assay.db", f->dir);
	if (store_open(&f->st, f->db, &err) < 0) {
		print_error("store_open: %s\n", err.msg);
		return -1;
	}
	memset(&t, 0, sizeof t);
	t.id = xstrdup("t/a");
	t.benchmark = xstrdup("local");
	t.domain = xstrdup("chip");
	t.env = xstrdup("iverilog");
	if (store_task_put(f->st, &t, &ins, &err) < 0)
		fail_msg("store_task_put: %s", err.msg);
	task_release(&t);
	memset(&c, 0, sizeof c);
	c.task_id = xstrdup("t/a");
	c.origin = xstrdup("model-x");
	c.lang = xstrdup("verilog");
	c.code = xstrdup("module m; endmodule\n");
	c.code_len = strlen(c.code);
	hash_sha256(c.code, c.code_len, c.code_hash);
	if (store_candidate_add(f->st, &c, &ins, &err) < 0)
		fail_msg("store_candidate_add: %s", err.msg);
	f->id = xstrdup(c.id);
	candidate_release(&c);
	/* five of each row a reader lists */
	for (int i = 0; i < 5; i++) {
		struct recorded rec = { 0 };
		struct run r;
		char name[32], text[32];

		memset(&r, 0, sizeof r);
		r.cand_id = xstrdup(f->id);
		r.env = xstrdup("iverilog");
		r.verdict = xstrdup("fail");
		r.category = xstrdup("compile");
		r.log = xstrdup("log");
		r.log_len = 3;
		if (store_run_add(f->st, &r, &err) < 0)
			fail_msg("store_run_add: %s", err.msg);
		run_release(&r);
		rec.verdict = (char *)"fail";
		rec.log = (char *)"recorded log";
		if (store_recorded_add(f->st, f->id, &rec, &err) < 0)
			fail_msg("store_recorded_add: %s", err.msg);
		snprintf(text, sizeof text, "note %d", i);
		if (store_note_add(f->st, f->id, text, "ann", &err) < 0)
			fail_msg("store_note_add: %s", err.msg);
		if (store_label_set(f->st, f->id, "functional", NULL, NULL,
		    "ann", 0, NULL, &err) < 0)
			fail_msg("store_label_set: %s", err.msg);
		snprintf(name, sizeof name, "view%d", i);
		if (store_view_save(f->st, name, "verdict=fail", "ann",
		    &err) < 0)
			fail_msg("store_view_save: %s", err.msg);
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
	free(f->id);
	free(f);
	return 0;
}

/* Put a view in table's place that fails from its third row on. */
static void
break_table(struct fx *f, const char *table)
{
	struct err err;
	char sql[512];

	snprintf(sql, sizeof sql, "ALTER TABLE \"%s\" RENAME TO \"%s_real\";"
	    " CREATE VIEW \"%s\" AS SELECT * FROM \"%s_real\" WHERE CASE WHEN"
	    " rowid < 3 THEN 1 ELSE " BOOM " END;", table, table, table,
	    table);
	if (exec(f->st, sql, &err) < 0)
		fail_msg("%s", err.msg);
}

static size_t nfill, nrelease;

static void
fill_text(sqlite3_stmt *s, void *item)
{
	*(char **)item = col_text(s, 0);
	nfill++;
}

static void
release_text(void *item)
{
	free(*(char **)item);
	*(char **)item = NULL;
	nrelease++;
}

/* The helper itself: three rows read, then the error; all three go. */
static void
test_rows_read_fails_midway(void **state)
{
	struct fx *f = *state;
	sqlite3_stmt *s;
	struct err err;
	void *out = (void *)1;
	size_t n = 99;

	assert_int_equal(prepare(f->st, &s, "WITH RECURSIVE k(i) AS (SELECT 1"
	    " UNION ALL SELECT i + 1 FROM k WHERE i < 6) SELECT CASE WHEN"
	    " i < 4 THEN 'row ' || i ELSE abs(i - i - 9223372036854775807 - 1)"
	    " END FROM k", &err), 0);
	nfill = nrelease = 0;
	assert_int_equal(rows_read(f->st, s, sizeof(char *), SIZE_MAX,
	    fill_text, release_text, &out, &n, "count", &err), -1);
	assert_null(out);
	assert_int_equal(n, 0);
	assert_int_equal(nfill, 3);
	assert_int_equal(nrelease, 3);
	assert_non_null(strstr(err.msg, "count: "));
	assert_non_null(strstr(err.msg, "overflow"));
}

/* The same statement without the error: every row, nothing released;
 * a limit stops early. */
static void
test_rows_read_all_and_limit(void **state)
{
	struct fx *f = *state;
	const char *sql = "WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT"
	    " i + 1 FROM k WHERE i < 20) SELECT 'row ' || i FROM k";
	sqlite3_stmt *s;
	struct err err;
	void *out;
	char **rows;
	size_t n;

	assert_int_equal(prepare(f->st, &s, sql, &err), 0);
	nfill = nrelease = 0;
	assert_int_equal(rows_read(f->st, s, sizeof(char *), SIZE_MAX,
	    fill_text, release_text, &out, &n, "count", &err), 0);
	rows = out;
	assert_int_equal(n, 20);
	assert_int_equal(nrelease, 0);
	assert_string_equal(rows[0], "row 1");
	assert_string_equal(rows[19], "row 20");
	for (size_t i = 0; i < n; i++)
		free(rows[i]);
	free(rows);
	assert_int_equal(prepare(f->st, &s, sql, &err), 0);
	assert_int_equal(rows_read(f->st, s, sizeof(char *), 4, fill_text,
	    release_text, &out, &n, "count", &err), 0);
	rows = out;
	assert_int_equal(n, 4);
	assert_string_equal(rows[3], "row 4");
	for (size_t i = 0; i < n; i++)
		free(rows[i]);
	free(rows);
}

/* A column map: each kind lands in its field, SQL NULL text is NULL,
 * and a failure mid-way frees the text it had read (the leak check). */
struct mapped {
	int64_t	 big;
	char	*text;
	int	 small;
};

static const struct col mapped_cols[] = {
	COL(struct mapped, big, COL_I64),
	COL(struct mapped, text, COL_TEXT),
	COL(struct mapped, small, COL_INT),
};

static void
test_rows_cols(void **state)
{
	struct fx *f = *state;
	const char *sql = "WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT"
	    " i + 1 FROM k WHERE i < 6) SELECT i * 4294967296, CASE WHEN i = 2"
	    " THEN NULL ELSE 'row ' || i END, CASE WHEN i < %d THEN -i ELSE"
	    " abs(i - i - 9223372036854775807 - 1) END FROM k";
	struct mapped *m = (void *)1;
	sqlite3_stmt *s;
	struct err err;
	char q[512];
	size_t n;

	snprintf(q, sizeof q, sql, 99);
	assert_int_equal(prepare(f->st, &s, q, &err), 0);
	assert_int_equal(rows_cols(f->st, s, sizeof *m, SIZE_MAX, mapped_cols,
	    NCOLS(mapped_cols), &m, &n, "map", &err), 0);
	assert_int_equal(n, 6);
	assert_true(m[4].big == 5 * (int64_t)4294967296);
	assert_string_equal(m[0].text, "row 1");
	assert_null(m[1].text);
	assert_int_equal(m[5].small, -6);
	for (size_t i = 0; i < n; i++)
		free(m[i].text);
	free(m);

	snprintf(q, sizeof q, sql, 4);
	assert_int_equal(prepare(f->st, &s, q, &err), 0);
	n = 99;
	assert_int_equal(rows_cols(f->st, s, sizeof *m, SIZE_MAX, mapped_cols,
	    NCOLS(mapped_cols), &m, &n, "map", &err), -1);
	assert_null(m);
	assert_int_equal(n, 0);
	assert_non_null(strstr(err.msg, "map: "));
}

/* Each list reader of store.h, with its table failing mid-way. */
static void
test_rows_readers_fail_midway(void **state)
{
	struct fx *f = *state;
	struct recorded *rec = (void *)1;
	struct run *runs = (void *)1;
	struct store_note *notes = (void *)1;
	struct store_event *events = (void *)1;
	struct store_label *labels = (void *)1;
	struct store_view *views = (void *)1;
	struct err err;
	size_t n;

	/* first whole: the fixture's rows are there */
	assert_int_equal(store_note_list(f->st, f->id, &notes, &n, &err), 0);
	assert_int_equal(n, 5);
	for (size_t i = 0; i < n; i++)
		store_note_release(&notes[i]);
	free(notes);

	break_table(f, "recorded");
	n = 99;
	assert_int_equal(store_recorded_list(f->st, f->id, &rec, &n, &err),
	    -1);
	assert_null(rec);
	assert_int_equal(n, 0);
	assert_non_null(strstr(err.msg, "read recorded"));

	break_table(f, "run");
	n = 99;
	assert_int_equal(store_run_list(f->st, f->id, &runs, &n, &err), -1);
	assert_null(runs);
	assert_int_equal(n, 0);

	break_table(f, "note");
	n = 99;
	assert_int_equal(store_note_list(f->st, f->id, &notes, &n, &err), -1);
	assert_null(notes);
	assert_int_equal(n, 0);

	break_table(f, "event");
	n = 99;
	assert_int_equal(store_event_list(f->st, f->id, &events, &n, &err),
	    -1);
	assert_null(events);
	assert_int_equal(n, 0);

	break_table(f, "label");
	n = 99;
	assert_int_equal(store_label_list(f->st, f->id, &labels, &n, &err),
	    -1);
	assert_null(labels);
	assert_int_equal(n, 0);

	break_table(f, "view");
	n = 99;
	assert_int_equal(store_view_list(f->st, &views, &n, &err), -1);
	assert_null(views);
	assert_int_equal(n, 0);

}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_rows_read_fails_midway,
		    fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_rows_read_all_and_limit,
		    fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_rows_cols,
		    fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_rows_readers_fail_midway,
		    fx_setup, fx_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
