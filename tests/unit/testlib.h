/*
 * testlib.h - fixture helpers shared by the unit tests: remove a temp
 * tree, read a whole file.  Header-only (static inline) so that each
 * test program stays one .c file in the Makefile.  Include after
 * <cmocka.h> and err.h / buf.h.
 */
#ifndef ASSAY_TESTLIB_H
#define ASSAY_TESTLIB_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/err.h"

/* Remove path and everything below it; links are removed, not followed. */
static inline void
rm_rf(const char *path)
{
	struct stat sb;
	struct dirent *de;
	DIR *d;
	char *p;

	if (lstat(path, &sb) < 0)
		return;
	if (!S_ISDIR(sb.st_mode)) {
		unlink(path);
		return;
	}
	d = opendir(path);
	if (d != NULL) {
		while ((de = readdir(d)) != NULL) {
			if (strcmp(de->d_name, ".") == 0 ||
			    strcmp(de->d_name, "..") == 0)
				continue;
			p = xasprintf("%s/%s", path, de->d_name);
			rm_rf(p);
			free(p);
		}
		closedir(d);
	}
	rmdir(path);
}

/*
 * The shared benchmark data directory into buf: $ASSAY_SHARED/data, else
 * ../shared/data; "" when it is not there (tests then skip).
 */
static inline void
shared_data_dir(char *buf, size_t n)
{
	const char *shared = getenv("ASSAY_SHARED");
	struct stat sb;

	snprintf(buf, n, "%s/data", shared != NULL && *shared != '\0' ?
	    shared : "../shared");
	if (stat(buf, &sb) < 0 || !S_ISDIR(sb.st_mode))
		buf[0] = '\0';
}

/* The whole file as a new NUL-terminated string; fails the test if it
 * cannot be read. */
static inline char *
read_text(const char *path)
{
	struct buf b = BUF_INIT;
	char chunk[4096];
	size_t n;
	FILE *fp = fopen(path, "rb");

	assert_non_null(fp);
	while ((n = fread(chunk, 1, sizeof chunk, fp)) > 0)
		buf_add(&b, chunk, n);
	fclose(fp);
	buf_adds(&b, "");
	return buf_detach(&b, NULL);
}

#endif
