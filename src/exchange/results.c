/*
 * results.c - run results as JSON lines; see results.h and
 * docs/formats.md.  A line is written and read by the codec
 * (model/codec.h, CODEC_RESULT); files are written beside their target
 * and renamed when complete, as export.c does for -o FILE.
 */
#include "exchange/results.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "base/atomic.h"
#include "base/hash.h"
#include "model/codec.h"

struct results {
	char	*path, *tmp;
	FILE	*f;
	size_t	 n;
};

int
results_open(struct results **out, const char *path, struct err *err)
{
	struct results *w = xcalloc(1, sizeof *w);

	*out = NULL;
	w->f = atomic_create(path, &w->tmp, err);
	if (w->f == NULL) {
		free(w);
		return -1;
	}
	w->path = xstrdup(path);
	*out = w;
	return 0;
}

int
results_add(struct results *w, const struct run *r, const char *task_id,
    int timeout_s, int stored, struct err *err)
{
	struct codec_ctx x = { .profile = CODEC_RESULT, .task_id = task_id,
	    .timeout_s = timeout_s, .stored = stored };
	json_t *o = codec_run(r, &x);
	char *txt = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
	int rc = 0;

	json_decref(o);
	if (txt == NULL)
		return err_set(err, "%s: cannot encode the run of %s", w->tmp,
		    r->cand_id);
	if (fputs(txt, w->f) == EOF || fputc('\n', w->f) == EOF)
		rc = err_set(err, "write %s: %s", w->tmp, strerror(errno));
	else
		w->n++;
	free(txt);
	return rc;
}

size_t
results_count(const struct results *w)
{
	return w->n;
}

int
results_close(struct results *w, struct err *err)
{
	int rc = atomic_commit(w->f, w->tmp, w->path, err);

	free(w->tmp);
	free(w->path);
	free(w);
	return rc;
}

void
results_abort(struct results *w)
{
	if (w == NULL)
		return;
	fclose(w->f);
	unlink(w->tmp);
	free(w->tmp);
	free(w->path);
	free(w);
}

int
results_parse(const char *line, size_t len, struct run *out, char **task_id,
    int *timeout_s, int *stored, struct err *err)
{
	return codec_run_parse(line, len, out, task_id, timeout_s, stored,
	    err);
}

char *
results_marker_path(const char *results)
{
	return xasprintf("%s.done", results);
}

int
results_file_sha256(const char *path, char *hex, struct err *err)
{
	struct hash_ctx *h;
	char chunk[65536];
	FILE *f = fopen(path, "rb");
	size_t n;

	if (f == NULL)
		return err_set(err, "%s: %s", path, strerror(errno));
	h = hash_new();
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		hash_update(h, chunk, n);
	hash_final(h, hex);
	if (ferror(f)) {
		fclose(f);
		return err_set(err, "read %s: %s", path, strerror(errno));
	}
	fclose(f);
	return 0;
}
