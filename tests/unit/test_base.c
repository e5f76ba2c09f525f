/*
 * test_base.c - unit tests (cmocka) for the small helpers of src/base/
 * that several floors share: file_read (a whole file), duration_hms
 * and array_free (the JSON helpers became model/codec.h, test_codec.c).  Each was
 * written two or three times before (export, dataset, the CLI, the
 * workbench); where the copies disagreed the tests pin the behaviour
 * kept.
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
#include "base/duration.h"
#include "base/err.h"
#include "base/file.h"
#include "testlib.h"

/* A file with a NUL inside comes back whole, NUL-terminated; a missing
 * one is an error that names it. */
static void
test_file_read(void **state)
{
	char dir[] = "/tmp/assay-test-base-XXXXXX", path[PATH_MAX], *out;
	struct err err;
	size_t len;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/f", dir);
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite("ab\0cd", 1, 5, f), 5);
	fclose(f);
	assert_int_equal(file_read(path, &out, &len, &err), 0);
	assert_int_equal(len, 5);
	assert_memory_equal(out, "ab\0cd", 6);
	free(out);
	snprintf(path, sizeof path, "%s/missing", dir);
	assert_int_equal(file_read(path, &out, &len, &err), -1);
	assert_null(out);
	assert_non_null(strstr(err.msg, "/missing: No such file"));
	rm_rf(dir);
}

static void
test_duration_hms(void **state)
{
	char b[32];

	(void)state;
	assert_string_equal(duration_hms(0, b, sizeof b), "-");
	assert_string_equal(duration_hms(-5, b, sizeof b), "-");
	assert_string_equal(duration_hms(59, b, sizeof b), "0:00:59");
	assert_string_equal(duration_hms(3723, b, sizeof b), "1:02:03");
	assert_string_equal(duration_hms(100 * 3600, b, sizeof b),
	    "100:00:00");
}

/* The items array_free() released, by their idx, in the order it did. */
struct item {
	char	*name;
	int	 idx;
};

static int order[8], norder;

static void
item_release(void *p)
{
	struct item *it = p;

	order[norder++] = it->idx;
	free(it->name);
}

/* array_free() releases every item, at its own address (the stride is
 * the item's size), in order, then the array; NULL with no items is
 * harmless.  The sanitizers' leak check would report a name or the
 * array left behind. */
static void
test_array_free(void **state)
{
	struct item *v = xcalloc(3, sizeof *v);

	(void)state;
	for (int i = 0; i < 3; i++) {
		v[i].name = xasprintf("item %d", i);
		v[i].idx = 10 + i;
	}
	norder = 0;
	array_free(v, 3, sizeof *v, item_release);
	assert_int_equal(norder, 3);
	for (int i = 0; i < 3; i++)
		assert_int_equal(order[i], 10 + i);
	array_free(NULL, 0, sizeof *v, item_release);
	assert_int_equal(norder, 3);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_file_read),
		cmocka_unit_test(test_duration_hms),
		cmocka_unit_test(test_array_free),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
