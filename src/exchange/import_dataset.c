/*
 * import_dataset.c - read back a checkout of the dataset `assay commit`
 * writes (docs/formats.md "The dataset in git"): tasks with their
 * verification files, samples and their context ancestors, with the ids
 * they had, so that `import` then `verify` gives the verdicts the
 * dataset records.  Called by import_path() inside its transaction;
 * writes through store.h only, never runs a tool.
 */
#include "exchange/import.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "base/file.h"
#include "base/hash.h"
#include "model/codec.h"
#include "model/sample.h"

/* Folders deeper than this are not a dataset's (a link loop?). */
#define DS_DEPTH_MAX	32

static const char *const domains[] = { "chip", "gpu", "embedded",
	"compiler", "3d" };

/* A sample JSON waiting for its parent. */
struct pending {
	char	*dir, *path;	/* the task folder, the JSON file */
	json_t	*o;
};

/* What a pending sample owns (array_free()). */
static void
pending_release(void *p)
{
	struct pending *pd = p;

	free(pd->dir);
	free(pd->path);
	json_decref(pd->o);
}

struct ds {
	struct store		*st;
	const struct import_opts *opts;
	struct import_report	*rep;
	struct err		*err;
	struct pending		*v;
	size_t			 n;
};

/* A dataset's JSON is the codec's dataset format. */
static const struct codec_ctx ds_codec = { .profile = CODEC_DATASET };

/* err as "where: what it said". */
static void
err_prefix(struct err *err, const char *where)
{
	struct err e2;

	err_set(&e2, "%s: %s", where, err->msg);
	*err = e2;
}

static const char *
jstr(json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

static char *
jdup(json_t *o, const char *key)
{
	const char *s = jstr(o, key);

	return s != NULL ? xstrdup(s) : NULL;
}

/* Parse the JSON file path: a new object, or NULL with err. */
static json_t *
load_json(const char *path, struct err *err)
{
	json_error_t jerr;
	json_t *o = json_load_file(path, 0, &jerr);

	if (o == NULL) {
		err_set(err, "%s:%d: invalid JSON: %s", path, jerr.line,
		    jerr.text);
		return NULL;
	}
	if (!json_is_object(o)) {
		json_decref(o);
		err_set(err, "%s:1: want a JSON object", path);
		return NULL;
	}
	return o;
}

/*
 * A name the dataset may name a file by: no slash at the start, no ".."
 * component, no NUL.  The file is read from under the task folder only.
 */
static int
safe_name(const char *name)
{
	const char *p = name;

	if (name == NULL || *name == '\0' || *name == '/')
		return 0;
	while (*p != '\0') {
		size_t n = strcspn(p, "/");

		if ((n == 2 && p[0] == '.' && p[1] == '.') || (n == 1 &&
		    p[0] == '.') || n == 0)
			return 0;
		p += n + (p[n] == '/');
	}
	return 1;
}

/* Read dir/name and check its sha256 against want (may be NULL). */
static int
read_checked(const char *dir, const char *name, const char *want,
    const char *where, char **data, size_t *len, struct err *err)
{
	char *p, hex[HASH_HEX_LEN + 1];

	if (!safe_name(name))
		return err_set(err, "%s: bad file name '%s'", where,
		    name != NULL ? name : "(none)");
	p = xasprintf("%s/%s", dir, name);
	if (import_read_file(p, data, len, err) < 0) {
		free(p);
		return -1;
	}
	hash_sha256(*data, *len, hex);
	if (want != NULL && strcmp(hex, want) != 0) {
		err_set(err, "%s: sha256 %s differs from the %s that %s"
		    " records", p, hex, want, where);
		free(p);
		free(*data);
		*data = NULL;
		return -1;
	}
	free(p);
	return 0;
}

static int
ds_task(struct ds *d, const char *dir)
{
	char *path = xasprintf("%s/task.json", dir);
	struct task t = { 0 };
	json_t *o = load_json(path, d->err), *f;
	size_t i;
	int rc = -1, inserted;

	if (o == NULL)
		goto out;
	if (codec_task_parse(o, &ds_codec, &t, d->err) < 0) {
		err_prefix(d->err, path);
		goto out;
	}
	json_array_foreach(json_object_get(o, "files"), i, f) {
		char *data;
		size_t len;

		if (jstr(f, "name") == NULL || jstr(f, "role") == NULL) {
			err_set(d->err, "%s: a file needs \"name\" and"
			    " \"role\"", path);
			goto out;
		}
		if (read_checked(dir, jstr(f, "path") != NULL ? jstr(f,
		    "path") : jstr(f, "name"), jstr(f, "sha256"), path, &data,
		    &len, d->err) < 0)
			goto out;
		task_add_file(&t, jstr(f, "name"), jstr(f, "role"), data, len);
		free(data);
	}
	if (store_task_put(d->st, &t, &inserted, d->err) < 0)
		goto out;
	if (inserted)
		d->rep->tasks_added++;
	else
		d->rep->tasks_existing++;
	rc = 0;
out:
	json_decref(o);
	task_release(&t);
	free(path);
	return rc;
}

/* The task folder dir: its task, then its sample JSONs, pending. */
static int
ds_folder(struct ds *d, const char *dir, int depth)
{
	char **names, *p;
	size_t n;
	int rc = 0, is_task;

	if (depth > DS_DEPTH_MAX)
		return err_set(d->err, "%s: folders nested deeper than %d",
		    dir, DS_DEPTH_MAX);
	p = xasprintf("%s/task.json", dir);
	is_task = access(p, F_OK) == 0;
	free(p);
	if (is_task && ds_task(d, dir) < 0)
		return -1;
	if (import_list_dir(dir, &names, &n, d->err) < 0)
		return -1;
	for (size_t i = 0; i < n && rc == 0; i++) {
		p = xasprintf("%s/%s", dir, names[i]);
		if (file_is_dir(p)) {
			/* a task's verification files are not tasks */
			if (!(is_task && strcmp(names[i], "files") == 0))
				rc = ds_folder(d, p, depth + 1);
		} else if (is_task && strcmp(names[i], "task.json") != 0 &&
		    import_has_suffix(names[i], ".json")) {
			json_t *o = load_json(p, d->err);

			if (o == NULL) {
				rc = -1;
			} else {
				d->v = xreallocarray(d->v, d->n + 1,
				    sizeof *d->v);
				d->v[d->n].dir = xstrdup(dir);
				d->v[d->n].path = p;
				d->v[d->n].o = o;
				d->n++;
				p = NULL;
			}
		}
		free(p);
	}
	strv_free(names, n);
	return rc;
}

/* Store one sample JSON (its parent is in the store already). */
static int
ds_candidate(struct ds *d, const struct pending *pd)
{
	json_t *o = pd->o, *run = json_object_get(o, "run");
	json_t *label = json_object_get(o, "label");
	json_t *review = json_object_get(o, "review");
	const char *by = d->opts->by != NULL ? d->opts->by : "import";
	struct candidate c = { 0 };
	size_t len;
	int rc = -1, inserted;

	if (codec_candidate_parse(o, &ds_codec, &c, d->err) < 0)
		goto out;
	if (read_checked(pd->dir, jstr(o, "code"), jstr(o, "code_sha256"),
	    pd->path, &c.code, &len, d->err) < 0)
		goto out;
	c.code_len = len;
	hash_sha256(c.code, c.code_len, c.code_hash);
	if (store_candidate_add(d->st, &c, &inserted, d->err) < 0)
		goto out;
	if (!inserted) {
		d->rep->cands_existing++;
		rc = 0;
		goto out;
	}
	d->rep->cands_added++;
	if (json_is_object(run) && jstr(run, "verdict") != NULL) {
		struct recorded r = { 0 };
		json_t *x = json_deep_copy(run);

		json_object_set_new(x, "from", json_string("dataset"));
		r.verdict = jdup(run, "verdict");
		r.stage = jdup(run, "stage");
		r.extra = json_dumps(x, JSON_COMPACT | JSON_SORT_KEYS);
		json_decref(x);
		rc = store_recorded_add(d->st, c.id, &r, d->err);
		recorded_release(&r);
		if (rc < 0)
			goto out;
		rc = -1;
	}
	if (jstr(label, "category") != NULL && store_label_set_at(d->st,
	    c.id, jstr(label, "category"), jstr(label, "subcategory"), NULL,
	    jstr(label, "by") != NULL ? jstr(label, "by") : by, 0, NULL, 0,
	    d->err) < 0)
		goto out;
	if (jstr(review, "status") != NULL &&
	    strcmp(jstr(review, "status"), "unreviewed") != 0 &&
	    store_review_set_at(d->st, c.id, jstr(review, "status"),
	    jstr(review, "note"), jstr(review, "by") != NULL ?
	    jstr(review, "by") : by, 0, d->err) < 0)
		goto out;
	rc = 0;
out:
	if (rc < 0 && strstr(d->err->msg, pd->path) == NULL)
		err_prefix(d->err, pd->path);
	candidate_release(&c);
	return rc;
}

/* Is the parent of pd in the store (or is there none)?  1, 0, -1. */
static int
parent_ready(struct ds *d, const struct pending *pd)
{
	const char *parent = jstr(pd->o, "parent");
	struct candidate c;
	int found;

	if (parent == NULL)
		return 1;
	found = store_candidate_get(d->st, parent, &c, d->err);
	if (found == 0)
		candidate_release(&c);
	return found < 0 ? -1 : found == 0;
}

static int
import_dataset(struct store *st, const char *path,
    const struct import_opts *opts, struct import_report *rep,
    struct err *err)
{
	struct ds d = { st, opts, rep, err, NULL, 0 };
	char *done = NULL;
	size_t left;
	int rc = -1, found = 0;

	if (!file_is_dir(path))
		return err_set(err, "%s: a dataset is a directory (a checkout"
		    " of the repository assay commit writes)", path);
	for (size_t i = 0; i < sizeof domains / sizeof domains[0]; i++) {
		char *p = xasprintf("%s/%s", path, domains[i]);

		if (file_is_dir(p)) {
			found = 1;
			if (ds_folder(&d, p, 0) < 0) {
				free(p);
				goto out;
			}
		}
		free(p);
	}
	if (!found) {
		err_set(err, "%s: no chip/, gpu/, embedded/, compiler/ or 3d/"
		    " folder: not a dataset", path);
		goto out;
	}
	/* Parents first: a pass stores what it can until none is left. */
	done = xcalloc(d.n + 1, 1);
	left = d.n;
	while (left > 0) {
		size_t before = left;

		for (size_t i = 0; i < d.n; i++) {
			int ready;

			if (done[i])
				continue;
			ready = parent_ready(&d, &d.v[i]);
			if (ready < 0)
				goto out;
			if (!ready)
				continue;
			if (ds_candidate(&d, &d.v[i]) < 0)
				goto out;
			done[i] = 1;
			left--;
		}
		if (left == before) {
			for (size_t i = 0; i < d.n; i++)
				if (!done[i]) {
					err_set(err, "%s: parent %s is not in"
					    " the dataset", d.v[i].path,
					    jstr(d.v[i].o, "parent"));
					goto out;
				}
		}
	}
	rc = 0;
out:
	free(done);
	array_free(d.v, d.n, sizeof *d.v, pending_release);
	return rc;
}

static int
import_dataset_detect(const char *path)
{
	for (size_t i = 0; i < sizeof domains / sizeof domains[0]; i++) {
		char *p = xasprintf("%s/%s", path, domains[i]);
		int yes = file_is_dir(p);

		free(p);
		if (yes)
			return 1;
	}
	return 0;
}

const struct importer importer_dataset = {
	"dataset", import_dataset_detect, NULL, import_dataset
};
