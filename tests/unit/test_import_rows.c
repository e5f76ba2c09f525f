/*
 * test_import_rows.c - unit tests for import_rows.c (cmocka): the rows
 * of a JSONL buffer parsed ahead on a thread of their own come to the
 * caller in file order, one by one, with their line numbers and byte
 * offsets, blank lines passed over and bad lines as errors of their own;
 * the prep function runs on the parsing thread (on the caller's for an
 * input too small for a thread) and every prep is freed once, also when
 * the caller stops early.  The inputs are made here; the expected values
 * follow from how they are made.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <setjmp.h>
#include <cmocka.h>

#include <jansson.h>

#include "base/buf.h"
#include "base/err.h"
#include "exchange/import_rows.h"

/* What the prep function made of a row, and on which thread. */
struct prep {
	long		 n;
	pthread_t	 thread;
};

static int preps_made, preps_freed;	/* atomically, from both threads */

static void *
prep_row(json_t *row)
{
	struct prep *p = xcalloc(1, sizeof *p);

	p->n = (long)json_integer_value(json_object_get(row, "n"));
	p->thread = pthread_self();
	__atomic_add_fetch(&preps_made, 1, __ATOMIC_SEQ_CST);
	return p;
}

static void
prep_free(void *p)
{
	__atomic_add_fetch(&preps_freed, 1, __ATOMIC_SEQ_CST);
	free(p);
}

/*
 * nrows lines: line k (from 1) is {"n": k, "pad": "..."}, but every 97th
 * line is blank, every 500th is "not json", every 700th is [k] (JSON but
 * not an object), and every 11th ends in "\r".  pad makes the input big
 * enough for a thread when pad_len is.
 */
static char *
make_input(long nrows, size_t pad_len, size_t *len)
{
	struct buf b = BUF_INIT;
	char *pad = xcalloc(1, pad_len + 1);

	memset(pad, 'x', pad_len);
	for (long k = 1; k <= nrows; k++) {
		if (k % 97 == 0)
			buf_adds(&b, "");
		else if (k % 500 == 0)
			buf_adds(&b, "not json");
		else if (k % 700 == 0)
			buf_printf(&b, "[%ld]", k);
		else
			buf_printf(&b, "{\"n\": %ld, \"pad\": \"%s\"}", k, pad);
		buf_adds(&b, k % 11 == 0 ? "\r\n" : "\n");
	}
	free(pad);
	return buf_detach(&b, len);
}

/* Read all of input, checking each row against make_input()'s rule;
 * *threaded is 1 when every prep ran on another thread than this. */
static void
read_all(const char *input, size_t len, long nrows, int *threaded)
{
	struct import_rows *r = import_rows_open("in.jsonl", input, len, 0,
	    prep_row, prep_free);
	struct import_row row;
	size_t last_done = 0;
	long want = 0, got = 0, other = 0, same = 0;

	while (import_rows_next(r, &row)) {
		char msg[128];

		/* the next line that is not blank */
		do
			want++;
		while (want % 97 == 0);
		assert_int_equal(row.line, want);
		assert_true(row.done > last_done && row.done <= len);
		last_done = row.done;
		got++;
		if (want % 500 == 0) {
			assert_null(row.row);
			snprintf(msg, sizeof msg, "in.jsonl:%ld: invalid JSON",
			    want);
			assert_non_null(row.error);
			assert_memory_equal(row.error, msg, strlen(msg));
			continue;
		}
		if (want % 700 == 0) {
			snprintf(msg, sizeof msg, "in.jsonl:%ld: a row must be"
			    " a JSON object", want);
			assert_null(row.row);
			assert_string_equal(row.error, msg);
			continue;
		}
		assert_null(row.error);
		assert_non_null(row.row);
		assert_int_equal(json_integer_value(json_object_get(row.row,
		    "n")), want);
		assert_non_null(row.prep);
		assert_int_equal(((struct prep *)row.prep)->n, want);
		if (pthread_equal(((struct prep *)row.prep)->thread,
		    pthread_self()))
			same++;
		else
			other++;
	}
	/* the end stays the end */
	assert_int_equal(import_rows_next(r, &row), 0);
	import_rows_close(r);
	while (want < nrows && (want + 1) % 97 == 0)
		want++;
	assert_int_equal(want, nrows);
	assert_int_equal(last_done, len);
	assert_int_equal(got, nrows - nrows / 97);
	*threaded = same == 0 && other > 0;
	assert_true(same == 0 || other == 0);
}

/* 20,000 rows (about 1 MB): parsed on the thread, all in order. */
static void
test_import_rows_threaded_in_order(void **state)
{
	size_t len;
	char *in = make_input(20000, 32, &len);
	int threaded;

	(void)state;
	preps_made = preps_freed = 0;
	read_all(in, len, 20000, &threaded);
	assert_true(threaded);
	assert_int_equal(preps_made, preps_freed);
	assert_true(preps_made > 19000);
	free(in);
}

/* A small input is parsed on the caller's thread, with the same rows. */
static void
test_import_rows_small_input_inline(void **state)
{
	size_t len;
	char *in = make_input(1500, 0, &len);
	int threaded;

	(void)state;
	assert_true(len < 64 * 1024);
	preps_made = preps_freed = 0;
	read_all(in, len, 1500, &threaded);
	assert_false(threaded);
	assert_int_equal(preps_made, preps_freed);
	free(in);
}

/*
 * The caller stops after one row while the parser is ahead (the ring is
 * full): close stops it and frees every row and prep it made (ASan
 * would report a leak, the counts would differ).
 */
static void
test_import_rows_close_early(void **state)
{
	size_t len;
	char *in = make_input(50000, 64, &len);
	struct import_rows *r;
	struct import_row row;

	(void)state;
	for (int taken = 0; taken <= 2; taken++) {
		preps_made = preps_freed = 0;
		r = import_rows_open("in.jsonl", in, len, 0, prep_row,
		    prep_free);
		for (int i = 0; i < taken; i++)
			assert_int_equal(import_rows_next(r, &row), 1);
		import_rows_close(r);
		assert_int_equal(preps_made, preps_freed);
		/* the parser never got far past what the ring holds */
		assert_true(preps_made < 50000);
	}
	free(in);
}

/*
 * Rows of 100 KB (a model's long log): the parser stops a chunk after
 * a megabyte of input, so it is never more than about 8 MB of input
 * ahead, not 512 rows (51 MB).  Every row still comes, in order.
 */
static void
test_import_rows_big_rows_bounded(void **state)
{
	size_t len;
	char *in = make_input(300, 100 * 1000, &len);
	struct import_rows *r;
	struct import_row row;
	int threaded;

	(void)state;
	preps_made = preps_freed = 0;
	r = import_rows_open("in.jsonl", in, len, 0, prep_row, prep_free);
	assert_int_equal(import_rows_next(r, &row), 1);
	assert_int_equal(row.line, 1);
	/* wait until the parser has filled the ring (or reached the
	 * end: it must not) */
	for (int i = 0; i < 200 && __atomic_load_n(&preps_made,
	    __ATOMIC_SEQ_CST) < 88; i++)
		usleep(10000);
	import_rows_close(r);
	/* 8 chunks of 11 rows (the 11th ends past the megabyte) */
	assert_true(preps_made <= 88);
	assert_int_equal(preps_made, preps_freed);
	preps_made = preps_freed = 0;
	read_all(in, len, 300, &threaded);
	assert_true(threaded);
	free(in);
}

/* An empty input, and one of blank lines only, have no rows. */
static void
test_import_rows_empty(void **state)
{
	static const char blanks[] = "\n \n\r\n\n";
	struct import_rows *r;
	struct import_row row;

	(void)state;
	r = import_rows_open("e.jsonl", "", 0, 0, NULL, NULL);
	assert_int_equal(import_rows_next(r, &row), 0);
	import_rows_close(r);
	r = import_rows_open("e.jsonl", blanks, sizeof blanks - 1, 0, NULL,
	    NULL);
	assert_int_equal(import_rows_next(r, &row), 0);
	import_rows_close(r);
	import_rows_close(NULL);
}

/* nan_ok reads a bare NaN as null, on the thread as inline. */
static void
test_import_rows_nan(void **state)
{
	struct buf b = BUF_INIT;
	struct import_rows *r;
	struct import_row row;
	size_t len, n = 0;
	char *in;

	(void)state;
	for (int k = 0; k < 4000; k++)
		buf_printf(&b, "{\"k\": %d, \"score\": NaN}\n", k);
	in = buf_detach(&b, &len);
	assert_true(len > 64 * 1024);
	r = import_rows_open("n.jsonl", in, len, 1, NULL, NULL);
	while (import_rows_next(r, &row)) {
		assert_non_null(row.row);
		assert_true(json_is_null(json_object_get(row.row, "score")));
		assert_int_equal(json_integer_value(json_object_get(row.row,
		    "k")), n);
		n++;
	}
	import_rows_close(r);
	assert_int_equal(n, 4000);
	free(in);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_import_rows_threaded_in_order),
		cmocka_unit_test(test_import_rows_small_input_inline),
		cmocka_unit_test(test_import_rows_close_early),
		cmocka_unit_test(test_import_rows_big_rows_bounded),
		cmocka_unit_test(test_import_rows_empty),
		cmocka_unit_test(test_import_rows_nan),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
