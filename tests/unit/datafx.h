/*
 * datafx.h - the temporary-database fixture of the unit tests that read
 * the shared benchmark data (../shared/data, or ASSAY_SHARED): a
 * directory of its own with an empty database in it, the data's path,
 * and strings handed over to be freed at teardown.
 */
#ifndef ASSAY_DATAFX_H
#define ASSAY_DATAFX_H

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/err.h"
#include "store/store.h"
#include "testlib.h"

struct datafx {
	char		 dir[64];	/* /tmp/assay-test-TAG-XXXXXX */
	char		 db[PATH_MAX];	/* dir/assay.db, open as st */
	char		 data[PATH_MAX];	/* the shared data, "" when missing */
	struct store	*st;
	char		*owned[16];	/* freed by datafx_close() */
};

/*
 * A new fixture: the directory (tag names it, a few letters), the
 * database opened in it.  NULL, with the reason printed and nothing
 * left behind, when either cannot be made.  datafx_close() frees it.
 */
static inline struct datafx *
datafx_open(const char *tag)
{
	struct datafx *f = xcalloc(1, sizeof *f);
	struct err err;

	snprintf(f->dir, sizeof f->dir, "/tmp/assay-test-%s-XXXXXX", tag);
	if (mkdtemp(f->dir) == NULL) {
		print_error("mkdtemp %s: failed\n", f->dir);
		free(f);
		return NULL;
	}
	snprintf(f->db, sizeof f->db, "%s/assay.db", f->dir);
	shared_data_dir(f->data, sizeof f->data);
	if (store_open(&f->st, f->db, &err) < 0) {
		print_error("store_open: %s\n", err.msg);
		rm_rf(f->dir);
		free(f);
		return NULL;
	}
	return f;
}

/* Close the database, remove the directory, free the handed-over
 * strings and f. */
static inline void
datafx_close(struct datafx *f)
{
	store_close(f->st);
	rm_rf(f->dir);
	for (size_t i = 0; i < sizeof f->owned / sizeof f->owned[0]; i++)
		free(f->owned[i]);
	free(f);
}

/* Hand p (malloc'd) to the fixture, so that a failing assertion does
 * not leak it; returns p.  Fails the test past 16 strings. */
static inline char *
datafx_keep(struct datafx *f, char *p)
{
	for (size_t i = 0; i < sizeof f->owned / sizeof f->owned[0]; i++) {
		if (f->owned[i] == NULL) {
			f->owned[i] = p;
			return p;
		}
	}
	fail_msg("datafx_keep: too many strings");
	return p;
}

/* Skip the test when the shared data is not there. */
static inline void
datafx_need_data(const struct datafx *f)
{
	if (f->data[0] == '\0') {
		print_message("shared data missing (set ASSAY_SHARED);"
		    " skipped\n");
		skip();
	}
}

/* cmocka's setup and teardown of a test with a datafx as its state. */
static inline int
datafx_setup(void **state)
{
	return (*state = datafx_open("data")) != NULL ? 0 : -1;
}

static inline int
datafx_teardown(void **state)
{
	datafx_close(*state);
	return 0;
}

#endif
