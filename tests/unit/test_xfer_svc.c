/*
 * test_xfer_svc.c - unit tests for the import and merge services
 * (exchange/import_svc.c, app/merge_svc.c, ADR 0055), cmocka, on a real
 * SQLite store and the real benchmark data in ../shared/data, driven by
 * a plain poll loop as `assay import` and `assay merge` drive them:
 *
 * - the VerilogEval v2 folder and the RTLFixer syntax set import with
 *   the counts import_path() gives (the goldens of test_import.c: 40
 *   tasks and 40 references; 88 new tasks and 174 candidates, counted
 *   from the data with Python), the progress counting every row read
 *   and every task and candidate stored;
 * - an import cancelled before its first row (its input a FIFO written
 *   only after the cancel) ends "cancelled" and leaves nothing, and the
 *   same rows imported again afterwards all come in;
 * - a merge of lines without a MAC of this database refuses each with
 *   "FILE:LINE: why", made safe for a terminal (an ESC in the file name
 *   shows as \x1b), stores nothing and says status 2; a file that is
 *   not there is named; a merge cancelled before its lines come (a FIFO
 *   again) reads at most the one it waited for.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app/merge_svc.h"
#include "base/buf.h"
#include "base/err.h"
#include "exchange/import_svc.h"
#include "store/store.h"
#include "testlib.h"
#include "datafx.h"

static size_t
count(struct store *st, const char *filter)
{
	struct err err;
	size_t n = 12345;

	if (store_query_count(st, filter, &n, &err) < 0)
		fail_msg("store_query_count: %s", err.msg);
	return n;
}

/* Step s in a poll loop until it is over; how many turns it took. */
static size_t
drive_import(struct isvc *s)
{
	size_t turns = 0;

	while (!isvc_step(s)) {
		struct pollfd p = { .fd = isvc_fd(s), .events = POLLIN };

		assert_true(p.fd >= 0);
		(void)poll(&p, 1, 1000);
		turns++;
	}
	assert_int_equal(isvc_fd(s), -1);
	return turns;
}

static size_t
drive_merge(struct msvc *s)
{
	size_t turns = 0;

	while (!msvc_step(s)) {
		struct pollfd p = { .fd = msvc_fd(s), .events = POLLIN };

		assert_true(p.fd >= 0);
		(void)poll(&p, 1, 1000);
		turns++;
	}
	assert_int_equal(msvc_fd(s), -1);
	return turns;
}

static void
test_import_svc_folder(void **state)
{
	struct datafx *f = *state;
	struct import_opts o = { IMPORT_AUTO, 0, "tester" };
	const struct import_report *r;
	struct isvc_progress p;
	struct isvc *s;
	struct err err;
	char *dir;
	int cancelled = -1;

	datafx_need_data(f);
	dir = xasprintf("%s/verilog-eval-v2", f->data);
	assert_int_equal(isvc_new(&s, f->st, dir, &o, &err), 0);
	assert_string_equal(isvc_path(s), dir);
	free(dir);		/* the service keeps its own copy */
	drive_import(s);
	assert_int_equal(isvc_result(s, &r, &cancelled, &err), 0);
	assert_int_equal(cancelled, 0);
	assert_int_equal(r->tasks_added, 40);
	assert_int_equal(r->cands_added, 40);
	assert_int_equal(r->cands_existing, 0);
	isvc_progress(s, &p);
	assert_int_equal(p.stored, 40);		/* the 40 references */
	assert_int_equal(p.rows, 0);		/* a folder has no rows */
	isvc_free(s);
	/* stored through the service's connection, seen on another one */
	assert_int_equal(count(f->st, "origin=reference"), 40);
}

static void
test_import_svc_jsonl(void **state)
{
	struct datafx *f = *state;
	struct import_opts o = { IMPORT_AUTO, 0, "tester" };
	const struct import_report *r;
	struct isvc_progress p;
	struct isvc *s;
	struct err err;
	char *path;

	datafx_need_data(f);
	path = xasprintf("%s/rtlfixer/verilogeval-syntax.jsonl", f->data);
	assert_int_equal(isvc_new(&s, f->st, path, &o, &err), 0);
	drive_import(s);
	assert_int_equal(isvc_result(s, &r, NULL, &err), 0);
	assert_int_equal(r->tasks_added, 88);
	assert_int_equal(r->cands_added, 174);
	isvc_progress(s, &p);
	assert_int_equal(p.rows, 174);		/* one row a line */
	assert_true(p.total > 0);
	assert_int_equal(p.done, p.total);
	/* candidates only (a row's task counted too showed twice the
	 * rows on the status line) */
	assert_int_equal(p.stored, 174);
	isvc_free(s);

	/* again: nothing new, as import_path() says */
	assert_int_equal(isvc_new(&s, f->st, path, &o, &err), 0);
	drive_import(s);
	assert_int_equal(isvc_result(s, &r, NULL, &err), 0);
	assert_int_equal(r->cands_added, 0);
	assert_int_equal(r->cands_existing, 174);
	isvc_free(s);
	free(path);
	assert_int_equal(count(f->st, NULL), 174);
}

/* Copy the file at from into the FIFO at to (opened here: this waits
 * for the import's thread to open its end). */
static void
test_import_svc_cancel(void **state)
{
	struct datafx *f = *state;
	struct import_opts o = { IMPORT_AUTO, 0, "tester" };
	const struct import_report *r;
	struct isvc *s;
	struct err err;
	char *path, *fifo;
	int cancelled = 0;

	datafx_need_data(f);
	path = xasprintf("%s/rtlfixer/verilogeval-syntax.jsonl", f->data);
	fifo = xasprintf("%s/rows.fifo", f->dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(isvc_new(&s, f->st, fifo, &o, &err), 0);
	/* before a single row was read, and with no writer ever: the
	 * cancel ends the wait for one (the open of the FIFO waited, and
	 * this test had to write it for the cancel to be seen) */
	isvc_cancel(s);
	drive_import(s);
	assert_int_equal(isvc_result(s, &r, &cancelled, &err), -1);
	assert_int_equal(cancelled, 1);
	assert_non_null(strstr(err.msg, "cancelled; nothing of it stored"));
	assert_int_equal(strncmp(err.msg, fifo, strlen(fifo)), 0);
	isvc_free(s);
	assert_int_equal(count(f->st, NULL), 0);

	/* the same rows later: all of them come in */
	assert_int_equal(isvc_new(&s, f->st, path, &o, &err), 0);
	drive_import(s);
	assert_int_equal(isvc_result(s, &r, &cancelled, &err), 0);
	assert_int_equal(cancelled, 0);
	assert_int_equal(r->cands_added, 174);
	isvc_free(s);
	assert_int_equal(count(f->st, NULL), 174);
	free(path);
	free(fifo);
}

static void
test_import_svc_bad_path(void **state)
{
	struct datafx *f = *state;
	struct import_opts o = { IMPORT_AUTO, 0, "tester" };
	const struct import_report *r;
	struct isvc *s;
	struct err err;
	char *path = xasprintf("%s/nowhere.jsonl", f->dir);
	int cancelled = -1;

	assert_int_equal(isvc_new(&s, f->st, path, &o, &err), 0);
	drive_import(s);
	assert_int_equal(isvc_result(s, &r, &cancelled, &err), -1);
	assert_int_equal(cancelled, 0);
	assert_non_null(strstr(err.msg, "nowhere.jsonl: No such file"));
	isvc_free(s);
	free(path);
}

static void
test_merge_svc_refuses(void **state)
{
	struct datafx *f = *state;
	const struct msvc_result *r;
	struct msvc_progress p;
	struct buf msgs = BUF_INIT;
	struct msvc *s;
	struct err err;
	char *files[2];
	FILE *fp;

	/* two lines without a MAC, a blank line, in a file whose name
	 * holds an ESC */
	files[0] = xasprintf("%s/r\x1b[2Jx.jsonl", f->dir);
	files[1] = xasprintf("%s/missing.jsonl", f->dir);
	fp = fopen(files[0], "w");
	assert_non_null(fp);
	fputs("{\"candidate\":\"c1\"}\n\n{\"candidate\":\"c2\"}\n", fp);
	assert_int_equal(fclose(fp), 0);

	assert_int_equal(msvc_new(&s, f->st, files, 2, NULL, &err), 0);
	free(files[0]);		/* the service keeps its own copies */
	drive_merge(s);
	r = msvc_result(s);
	assert_int_equal(r->refused, 2);
	assert_int_equal(r->done, 0);
	assert_int_equal(r->unchanged, 0);
	assert_int_equal(r->not_stored, 0);
	assert_int_equal(r->lines, 3);
	assert_int_equal(r->status, 2);
	assert_int_equal(r->cancelled, 0);
	assert_null(r->missing);
	msvc_progress(s, &p);
	assert_int_equal(p.lines, 3);
	assert_int_equal(p.refused, 2);
	assert_int_equal(p.stored, 0);
	assert_int_equal(msvc_messages(s, &msgs), 3);
	buf_adds(&msgs, "");
	assert_null(strchr(buf_str(&msgs), '\x1b'));
	assert_non_null(strstr(buf_str(&msgs), "/r\\x1b[2Jx.jsonl:1: "));
	assert_non_null(strstr(buf_str(&msgs), "/r\\x1b[2Jx.jsonl:3: "));
	assert_non_null(strstr(buf_str(&msgs), "assay merge: "));
	assert_non_null(strstr(buf_str(&msgs),
	    "missing.jsonl: No such file or directory\n"));
	/* taken: a second call finds none */
	buf_reset(&msgs);
	assert_int_equal(msvc_messages(s, &msgs), 0);
	assert_int_equal(msgs.len, 0);
	buf_release(&msgs);
	msvc_free(s);
	free(files[1]);
}

static void
test_merge_svc_cancel(void **state)
{
	struct datafx *f = *state;
	const struct msvc_result *r;
	struct msvc *s;
	struct err err;
	char *files[1];
	int fd;

	/*
	 * The lines come through a FIFO that the test holds open for
	 * reading and writing (so that the service's open never waits,
	 * whenever it comes) and writes only after the cancel: the service
	 * reads at most the one line it may be waiting for then.
	 */
	files[0] = xasprintf("%s/r.fifo", f->dir);
	assert_int_equal(mkfifo(files[0], 0600), 0);
	fd = open(files[0], O_RDWR);
	assert_true(fd >= 0);
	assert_int_equal(msvc_new(&s, f->st, files, 1, NULL, &err), 0);
	msvc_cancel(s);
	for (int i = 0; i < 1000; i++) {
		char line[64];
		int n = snprintf(line, sizeof line, "{\"candidate\":\"c%d\"}\n",
		    i);

		assert_int_equal(write(fd, line, (size_t)n), n);
	}
	drive_merge(s);
	r = msvc_result(s);
	assert_int_equal(r->cancelled, 1);
	assert_true(r->lines <= 1);	/* stopped before its next line */
	assert_int_equal(r->refused, r->lines);
	assert_int_equal(r->done, 0);
	msvc_free(s);
	close(fd);
	free(files[0]);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_import_svc_folder,
		    datafx_setup, datafx_teardown),
		cmocka_unit_test_setup_teardown(test_import_svc_jsonl,
		    datafx_setup, datafx_teardown),
		cmocka_unit_test_setup_teardown(test_import_svc_cancel,
		    datafx_setup, datafx_teardown),
		cmocka_unit_test_setup_teardown(test_import_svc_bad_path,
		    datafx_setup, datafx_teardown),
		cmocka_unit_test_setup_teardown(test_merge_svc_refuses,
		    datafx_setup, datafx_teardown),
		cmocka_unit_test_setup_teardown(test_merge_svc_cancel,
		    datafx_setup, datafx_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
