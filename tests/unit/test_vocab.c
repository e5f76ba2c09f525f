/*
 * test_vocab.c - unit tests for model/vocab.h (cmocka): every list's
 * names map to their index and back, the keys and precedence of the
 * categories are design.md section 3's, the SQL lists hold the names,
 * and the store refuses a run whose category is outside the five, in C
 * (store_run_add) and in the schema (the v10 triggers, reached with
 * SQLite directly as another writer of the file would).
 */
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <unistd.h>
#include <cmocka.h>
#include <sqlite3.h>

#include "base/buf.h"
#include "base/err.h"
#include "model/sample.h"
#include "model/vocab.h"
#include "store/store.h"
#include "testlib.h"

static void
test_vocab_round_trip(void **state)
{
	(void)state;
	for (int i = 0; i < VERDICT_N; i++)
		assert_int_equal(verdict_from_name(verdict_name(i)), i);
	for (int i = 0; i < CATEGORY_N; i++)
		assert_int_equal(category_from_name(category_name(i)), i);
	for (int i = 0; i < STATUS_N; i++)
		assert_int_equal(status_from_name(status_name(i)), i);
	for (int i = 0; i < KIND_N; i++)
		assert_int_equal(cand_kind_from_name(cand_kind_name(i)), i);
	for (int i = 0; i < SUB_N; i++)
		assert_int_equal(subcategory_from_name(subcategory_name(i)), i);
	assert_int_equal(verdict_from_name(NULL), VERDICT_NONE);
	assert_int_equal(verdict_from_name("Pass"), VERDICT_NONE);
	assert_int_equal(category_from_name("none"), CATEGORY_NONE);
	assert_null(verdict_name(VERDICT_N));
	assert_null(category_name(CATEGORY_NONE));
	assert_string_equal(verdict_name(VERDICT_ENV_ERROR), "env-error");
	assert_string_equal(cand_kind_name(KIND_OPTIMIZATION), "optimization");
}

/* design.md section 3: keys 1-5 in the table's order; the earliest
 * cause wins: format, compile, api, functional, performance. */
static void
test_vocab_categories(void **state)
{
	static const char *const by_key[] = { "compile", "api", "functional",
	    "format", "performance" };
	static const char *const by_rank[] = { "format", "compile", "api",
	    "functional", "performance" };
	char buf[80];

	(void)state;
	assert_int_equal(CATEGORY_N, 5);
	for (int i = 0; i < 5; i++) {
		enum category c = category_from_name(by_key[i]);

		assert_int_equal(category_key(c), '1' + i);
		assert_int_equal(category_from_key('1' + i), c);
		assert_int_equal(category_rank(category_from_name(by_rank[i])),
		    i);
	}
	assert_int_equal(category_rank(CATEGORY_NONE), CATEGORY_N);
	assert_int_equal(category_from_key('6'), CATEGORY_NONE);
	assert_string_equal(category_list(buf, sizeof buf, " "),
	    "compile api functional format performance");
	assert_string_equal(category_list(buf, 8, ","), "compile");
	assert_string_equal(category_short(CATEGORY_FUNCTIONAL), "func");
}

static void
test_vocab_statuses_and_verdicts(void **state)
{
	(void)state;
	assert_int_equal(status_from_verb("accept"), STATUS_ACCEPTED);
	assert_int_equal(status_from_verb("flag"), STATUS_FLAGGED);
	assert_int_equal(status_from_verb("accepted"), STATUS_NONE);
	assert_int_equal(status_from_verb(NULL), STATUS_NONE);
	assert_string_equal(status_verb(STATUS_UNREVIEWED), "reset");
	assert_int_equal(status_from_verb("reset"), STATUS_UNREVIEWED);
	assert_string_equal(status_short(STATUS_REJECTED), "rej");
	assert_true(verdict_is("pass", VERDICT_PASS));
	assert_false(verdict_is(NULL, VERDICT_PASS));
	assert_false(verdict_is("fail", VERDICT_PASS));
	assert_true(verdict_failed("fail"));
	assert_true(verdict_failed("timeout"));
	assert_false(verdict_failed("env-error"));
	assert_false(verdict_failed(NULL));
	assert_string_equal(verdict_short(VERDICT_TASK_DEFECT), "defect");
	assert_string_equal(subcategory_family(SUB_MISSING_TOP), "format");
}

static void
test_vocab_sql(void **state)
{
	(void)state;
	assert_string_equal(VOCAB_SQL_IN(VOCAB_CATEGORIES),
	    "('compile','api','functional','format','performance','')");
	assert_string_equal(VOCAB_SQL_CHECK("x", VOCAB_KINDS),
	    "(x IN ('direct','repair','optimization','') AND x <> '')");
}

static int
raw_insert(const char *db, const char *category)
{
	sqlite3 *h;
	sqlite3_stmt *s;
	int rc;

	assert_int_equal(sqlite3_open(db, &h), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(h, "INSERT INTO run(cand_id, env,"
	    " verdict, category) VALUES ('c0ffee00', 'iverilog', 'fail', ?1)",
	    -1, &s, NULL), SQLITE_OK);
	if (category != NULL)
		sqlite3_bind_text(s, 1, category, -1, SQLITE_STATIC);
	rc = sqlite3_step(s);
	sqlite3_finalize(s);
	sqlite3_close(h);
	return rc;
}

/* A run's category is one of the five, or none: checked by the store
 * with a message, and by the schema for any other writer. */
static void
test_vocab_run_category_checked(void **state)
{
	char dir[] = "/tmp/assay-test-vocab-XXXXXX", db[PATH_MAX];
	struct store *st;
	struct run r;
	struct err err;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(db, sizeof db, "%s/assay.db", dir);
	assert_int_equal(store_open(&st, db, &err), 0);
	memset(&r, 0, sizeof r);
	r.cand_id = xstrdup("c0ffee00");
	r.env = xstrdup("iverilog");
	r.verdict = xstrdup("fail");
	r.category = xstrdup("syntax");
	assert_int_equal(store_run_add(st, &r, &err), -1);
	assert_string_equal(err.msg, "unknown category 'syntax' (compile api"
	    " functional format performance)");
	free(r.category);
	r.category = NULL;
	free(r.verdict);
	r.verdict = xstrdup("failed");
	assert_int_equal(store_run_add(st, &r, &err), -1);
	assert_string_equal(err.msg, "run of c0ffee00: unknown verdict"
	    " 'failed'");
	run_release(&r);
	store_close(st);

	assert_int_equal(raw_insert(db, "functional"), SQLITE_DONE);
	assert_int_equal(raw_insert(db, NULL), SQLITE_DONE);
	assert_int_equal(raw_insert(db, "syntax"), SQLITE_CONSTRAINT);
	assert_int_equal(raw_insert(db, ""), SQLITE_CONSTRAINT);
	assert_int_equal(raw_insert(db, "Compile"), SQLITE_CONSTRAINT);
	rm_rf(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vocab_round_trip),
		cmocka_unit_test(test_vocab_categories),
		cmocka_unit_test(test_vocab_statuses_and_verdicts),
		cmocka_unit_test(test_vocab_sql),
		cmocka_unit_test(test_vocab_run_category_checked),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
