/*
 * history.c - the command-line history in memory and in its file; see
 * history.h.
 */
#include "app/history.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void
history_init(struct history *h, const char *path, size_t max)
{
	memset(h, 0, sizeof *h);
	h->max = max > 0 ? max : 1;
	h->path = xstrdup(path);
}

void
history_release(struct history *h)
{
	if (h == NULL)
		return;
	for (size_t i = 0; i < h->n; i++)
		free(h->lines[i]);
	free(h->lines);
	free(h->path);
	memset(h, 0, sizeof *h);
}

/* Add line in memory only: an equal older entry goes, then the oldest
 * past max.  line is taken over. */
static void
push(struct history *h, char *line)
{
	for (size_t i = 0; i < h->n; i++) {
		if (strcmp(h->lines[i], line) != 0)
			continue;
		free(h->lines[i]);
		memmove(&h->lines[i], &h->lines[i + 1], (h->n - i - 1) *
		    sizeof *h->lines);
		h->n--;
		break;
	}
	if (h->n == h->max) {
		free(h->lines[0]);
		memmove(&h->lines[0], &h->lines[1], (h->n - 1) *
		    sizeof *h->lines);
		h->n--;
	}
	h->lines = xreallocarray(h->lines, h->n + 1, sizeof *h->lines);
	h->lines[h->n++] = line;
}

/* mkdir -p of the directory part of path. */
static int
make_dirs(const char *path, struct err *err)
{
	char *dir = xstrdup(path), *p;
	int rc = 0;

	p = strrchr(dir, '/');
	if (p == NULL || p == dir) {
		free(dir);
		return 0;
	}
	*p = '\0';
	for (p = dir + 1; ; p++) {
		char c = *p;

		if (c != '/' && c != '\0')
			continue;
		*p = '\0';
		if (mkdir(dir, 0700) < 0 && errno != EEXIST) {
			rc = err_set(err, "%s: %s", dir, strerror(errno));
			break;
		}
		*p = c;
		if (c == '\0')
			break;
	}
	free(dir);
	return rc;
}

/* Rewrite the file with the entries in memory, through a temporary
 * file renamed over it, so that a crash leaves the old file whole. */
static int
rewrite(struct history *h, struct err *err)
{
	char *tmp = xasprintf("%s.tmp%ld", h->path, (long)getpid());
	FILE *f = fopen(tmp, "w");
	int rc = 0;

	if (f == NULL) {
		rc = err_set(err, "%s: %s", tmp, strerror(errno));
		free(tmp);
		return rc;
	}
	for (size_t i = 0; i < h->n; i++)
		fprintf(f, "%s\n", h->lines[i]);
	if (fclose(f) != 0 || rename(tmp, h->path) < 0) {
		rc = err_set(err, "%s: %s", h->path, strerror(errno));
		unlink(tmp);
	}
	free(tmp);
	return rc;
}

int
history_load(struct history *h, struct err *err)
{
	struct history in;
	char *line = NULL;
	size_t cap = 0, nlines = 0;
	ssize_t len;
	FILE *f;

	if (h->path == NULL)
		return 1;
	f = fopen(h->path, "r");
	if (f == NULL) {
		if (errno == ENOENT)
			return 1;
		return err_set(err, "%s: %s", h->path, strerror(errno));
	}
	history_init(&in, NULL, h->max);
	while ((len = getline(&line, &cap, f)) >= 0) {
		while (len > 0 && (line[len - 1] == '\n' ||
		    line[len - 1] == '\r'))
			line[--len] = '\0';
		nlines++;
		if (len > 0)
			push(&in, xstrdup(line));
	}
	free(line);
	fclose(f);
	for (size_t i = 0; i < h->n; i++)
		free(h->lines[i]);
	free(h->lines);
	h->lines = in.lines;
	h->n = in.n;
	/* appends only grow the file: trim it now and then */
	if (nlines > 2 * h->max)
		return rewrite(h, err);
	return 0;
}

int
history_add(struct history *h, const char *line, struct err *err)
{
	size_t len = strcspn(line, "\r\n");
	FILE *f;
	int rc = 0;

	if (len == 0)
		return 0;
	push(h, xstrndup(line, len));
	if (h->path == NULL)
		return 0;
	if (make_dirs(h->path, err) < 0)
		return -1;
	f = fopen(h->path, "a");
	if (f == NULL)
		return err_set(err, "%s: %s", h->path, strerror(errno));
	fprintf(f, "%.*s\n", (int)len, line);
	if (fclose(f) != 0)
		rc = err_set(err, "%s: %s", h->path, strerror(errno));
	return rc;
}

long
history_find(const struct history *h, long from, int dir, const char *prefix)
{
	size_t plen = strlen(prefix);

	if (dir < 0) {
		for (long i = (from > (long)h->n ? (long)h->n : from) - 1;
		    i >= 0; i--)
			if (strncmp(h->lines[i], prefix, plen) == 0)
				return i;
	} else {
		for (long i = from < 0 ? 0 : from + 1; i < (long)h->n; i++)
			if (strncmp(h->lines[i], prefix, plen) == 0)
				return i;
	}
	return -1;
}
