/*
 * import_assay.c - assay's own JSONL (docs/formats.md "The assay JSONL
 * format"), the one assay export writes: a row is a task (an object,
 * or the id of one already stored) and optionally a candidate with its
 * recorded results and the decisions made on it (labels, review,
 * notes), replayed with their "by" and "at" so that an export read back
 * gives the same export.  Unknown fields are kept in the task's and the
 * candidate's extra.  --format auto: an empty file, or a first row with
 * "task" or "candidate".
 */
#include "exchange/import.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "model/sample.h"
#include "model/vocab.h"

static const char *const task_known[] = { "id", "domain", "benchmark", "env",
	"env_params", "spec", "interface", "files", "reference", "source",
	NULL };
static const char *const cand_known[] = { "id", "origin", "origin_raw",
	"kind", "lang", "code", "parent", "source", NULL };
static const char *const row_known[] = { "task", "candidate", "recorded",
	"labels", "review", "notes", NULL };

/*
 * A decision's "at" (seconds since the epoch) as export wrote it into
 * *at; 0 (now) when absent or null.  Anything else but an integer from
 * 1 to IMPORT_AT_MAX (9999-12-31) is refused: a time that cannot be
 * shown as a date must not reach the statistics.
 */
static int
jat(json_t *o, int64_t *at, const char *path, size_t line, const char *what,
    struct err *err)
{
	json_t *v = json_object_get(o, "at");

	*at = 0;
	if (v == NULL || json_is_null(v))
		return 0;
	if (!json_is_integer(v) || json_integer_value(v) < 1 ||
	    json_integer_value(v) > IMPORT_AT_MAX)
		return err_set(err, "%s:%zu: %s: \"at\" must be seconds since"
		    " 1970 as an integer from 1 to %lld (9999-12-31)", path,
		    line, what, (long long)IMPORT_AT_MAX);
	*at = (int64_t)json_integer_value(v);
	return 0;
}

/* Prefix err with the row's place and what failed; returns -1. */
static int
decision_error(struct err *err, const char *path, size_t line,
    const char *what)
{
	struct err e2;

	err_set(&e2, "%s:%zu: %s: %s", path, line, what, err->msg);
	*err = e2;
	return -1;
}

/*
 * The decisions of an imported row, replayed as they were made: labels
 * in order (the last one current), the review, the free notes, each with
 * its by (else the importer's) and its at (else now), so that an export
 * read back gives the same export.
 */
static int
assay_decisions(struct store *st, json_t *row, const char *cand_id,
    const char *by, const char *path, size_t line, struct err *err)
{
	json_t *review = json_object_get(row, "review"), *v;
	int64_t at;
	size_t i;

	json_array_foreach(json_object_get(row, "labels"), i, v) {
		if (import_jstr(v, "category") == NULL)
			continue;
		if (jat(v, &at, path, line, "label", err) < 0)
			return -1;
		if (store_label_set_at(st, cand_id, import_jstr(v, "category"),
		    import_jstr(v, "subcategory"), import_jstr(v, "note"),
		    import_jstr(v, "by") != NULL ? import_jstr(v, "by") : by,
		    json_is_true(json_object_get(v, "final")),
		    import_jstr(v, "evidence"), at, err) < 0)
			return decision_error(err, path, line, "label");
	}
	if (jat(review, &at, path, line, "review", err) < 0)
		return -1;
	if (import_jstr(review, "status") != NULL &&
	    strcmp(import_jstr(review, "status"), "unreviewed") != 0 &&
	    store_review_set_at(st, cand_id, import_jstr(review, "status"),
	    import_jstr(review, "note"), import_jstr(review, "by") != NULL ?
	    import_jstr(review, "by") : by, at, err) < 0)
		return decision_error(err, path, line, "review");
	v = json_object_get(row, "notes");
	if (v != NULL && !json_is_array(v))
		return import_row_error(err, path, line,
		    "\"notes\" must be an array"
		    " of {\"text\", \"by\", \"at\"}");
	json_array_foreach(json_object_get(row, "notes"), i, v) {
		if (import_jstr(v, "text") == NULL)
			return import_row_error(err, path, line,
			    "a note needs a"
			    " \"text\" string");
		if (jat(v, &at, path, line, "note", err) < 0)
			return -1;
		if (store_note_add_at(st, cand_id, import_jstr(v, "text"),
		    import_jstr(v, "by") != NULL ? import_jstr(v, "by") : by,
		    at, err) < 0)
			return decision_error(err, path, line, "note");
	}
	return 0;
}

static int
assay_files(struct task *t, json_t *files, const char *path, size_t line,
    struct err *err)
{
	const char *key;
	json_t *v;
	size_t i;

	if (files == NULL)
		return 0;
	if (json_is_object(files)) {
		json_object_foreach(files, key, v) {
			if (!json_is_string(v))
				return import_row_error(err, path, line,
				    "a task file"
				    " must be a string");
			task_add_file(t, key, import_file_role(key, t->env),
			    json_string_value(v), json_string_length(v));
		}
		return 0;
	}
	if (!json_is_array(files))
		return import_row_error(err, path, line,
		    "\"files\" must be an object"
		    " of name -> text, or an array of {\"name\", \"text\","
		    " \"role\"}");
	json_array_foreach(files, i, v) {
		const char *name = import_jstr(v, "name"),
		    *role = import_jstr(v, "role");
		json_t *text = json_object_get(v, "text");

		if (name == NULL || !json_is_string(text))
			return import_row_error(err, path, line,
			    "a task file needs"
			    " a \"name\" and a \"text\" string");
		if (json_object_get(v, "role") != NULL &&
		    !import_role_valid(role))
			return import_row_error(err, path, line, "a task file's"
			    " \"role\" must be testbench, reference, source or"
			    " data");
		for (size_t k = 0; k < t->nfiles; k++)
			if (strcmp(t->files[k].name, name) == 0)
				return import_row_error(err, path, line,
				    "two task"
				    " files of one name");
		task_add_file(t, name, role != NULL ? role :
		    import_file_role(name, t->env), json_string_value(text),
		    json_string_length(text));
	}
	return 0;
}

static int
assay_task(struct store *st, json_t *to, const char *path, size_t line,
    struct import_report *rep, char **task_id, char **env, struct err *err)
{
	struct task t = { 0 };
	json_t *files, *params;
	int rc = -1;

	if (import_jstr(to, "id") == NULL)
		return import_row_error(err, path, line,
		    "task without an \"id\"");
	if (import_jstr(to, "env") == NULL)
		return import_row_error(err, path, line,
		    "task without an \"env\"");
	t.id = import_jdup(to, "id");
	t.benchmark = xstrdup(import_jstr(to, "benchmark") != NULL ?
	    import_jstr(to, "benchmark") : "local");
	t.domain = xstrdup(import_jstr(to, "domain") != NULL ?
	    import_jstr(to, "domain") : "chip");
	t.env = import_jdup(to, "env");
	params = json_object_get(to, "env_params");
	if (params != NULL && !json_is_object(params)) {
		task_release(&t);
		return import_row_error(err, path, line,
		    "\"env_params\" must be an"
		    " object");
	}
	if (params != NULL)
		t.env_params = json_dumps(params, JSON_COMPACT |
		    JSON_PRESERVE_ORDER);
	t.spec = import_jdup(to, "spec");
	t.interface = import_jdup(to, "interface");
	t.source = import_jstr(to, "source") != NULL ?
	    import_jdup(to, "source") : xasprintf("%s:%zu", path, line);
	files = json_object_get(to, "files");
	if (assay_files(&t, files, path, line, err) < 0) {
		task_release(&t);
		return -1;
	}
	t.extra = import_unknown_fields(to, task_known);
	if (import_put_task(st, &t, rep, err) < 0)
		goto out;
	*task_id = xstrdup(t.id);
	*env = xstrdup(t.env);
	/* A reference solution answers the task: it is a candidate too. */
	if (import_jstr(to, "reference") != NULL) {
		struct candidate c = { 0 };

		c.task_id = xstrdup(t.id);
		c.origin = xstrdup("reference");
		c.kind = xstrdup("direct");
		c.lang = xstrdup(import_lang_of_env(t.env));
		c.source = xasprintf("%s:%zu", path, line);
		import_set_code(&c, import_jstr(to, "reference"));
		rc = import_put_candidate(st, &c, NULL, 0, rep, NULL, err);
		candidate_release(&c);
		if (rc < 0)
			goto out;
	}
	rc = 0;
out:
	task_release(&t);
	return rc;
}

/*
 * A recorded object of an assay row as its extra column: without the
 * verdict, stage and log its own columns hold, where an export puts them
 * back in the same place (recorded_json() in export.c sets the ones
 * extra has where they are and adds the others last, in that order), so
 * that the log is not stored twice and a round trip keeps the object
 * byte for byte (docs/adr/0030).  Only string members at the end of the
 * object, in that order, are left out (deleted from v).  New string.
 */
static char *
recorded_extra(json_t *v)
{
	static const char *const tail[] = { "verdict", "stage", "log" };
	const char *keys[64], *k;
	size_t n = 0, last = 3;
	json_t *x;

	json_object_foreach(v, k, x) {
		if (n == sizeof keys / sizeof keys[0])
			break;
		keys[n++] = k;
	}
	if (n < json_object_size(v))
		n = 0;		/* too many members to look at: keep all */
	while (n > 0) {
		size_t c = 0;

		while (c < last && strcmp(tail[c], keys[n - 1]) != 0)
			c++;
		if (c == last || !json_is_string(json_object_get(v,
		    keys[n - 1])))
			break;
		json_object_del(v, keys[--n]);
		last = c;
	}
	return json_dumps(v, JSON_COMPACT | JSON_PRESERVE_ORDER);
}

static int
assay_row(struct store *st, json_t *row, const char *path, size_t line,
    const struct import_opts *opts, struct import_report *rep,
    struct err *err)
{
	json_t *to = json_object_get(row, "task");
	json_t *co = json_object_get(row, "candidate");
	char *task_id = NULL, *env = NULL;
	struct candidate c = { 0 };
	struct recorded *recs = NULL;
	size_t nrec = 0;
	json_t *v;
	size_t i;
	int rc = -1, inserted = 0;

	if (to == NULL && co == NULL)
		return import_row_error(err, path, line,
		    "a row needs \"task\" or"
		    " \"candidate\"");
	if (json_is_object(to)) {
		if (assay_task(st, to, path, line, rep, &task_id, &env,
		    err) < 0)
			return -1;
	} else if (json_is_string(to)) {
		int found;

		task_id = xstrdup(json_string_value(to));
		found = store_task_env(st, task_id, &env, err);
		if (found < 0)
			goto out;
		if (found == 1) {
			import_row_error(err, path, line, "unknown task");
			goto out;
		}
	} else {
		import_row_error(err, path, line,
		    "\"task\" must be an object or an id");
		goto out;
	}
	if (co == NULL) {
		rc = 0;
		goto out;
	}
	if (!json_is_object(co) || import_jstr(co, "code") == NULL) {
		import_row_error(err, path, line,
		    "\"candidate\" needs a \"code\" string");
		goto out;
	}
	c.task_id = xstrdup(task_id);
	if (import_jstr(co, "id") != NULL && opts->id_prefix != NULL)
		c.id = xasprintf("%s%s", opts->id_prefix,
		    import_jstr(co, "id"));
	else
		c.id = import_jdup(co, "id");
	c.origin = xstrdup(import_jstr(co, "origin") != NULL ?
	    import_jstr(co, "origin") : "unknown");
	c.kind = xstrdup(import_jstr(co, "kind") != NULL ?
	    import_jstr(co, "kind") : "direct");
	if (cand_kind_from_name(c.kind) == KIND_NONE) {
		import_row_error(err, path, line,
		    "\"kind\" must be direct, repair or"
		    " optimization");
		goto out;
	}
	c.lang = xstrdup(import_jstr(co, "lang") != NULL ?
	    import_jstr(co, "lang") : import_lang_of_env(env));
	c.origin_raw = import_jdup(co, "origin_raw");
	c.parent = import_jdup(co, "parent");
	/* A row written by assay export keeps where it first came from. */
	c.source = import_jstr(co, "source") != NULL ?
	    import_jdup(co, "source") : xasprintf("%s:%zu", path, line);
	import_set_code(&c, import_jstr(co, "code"));
	{
		/* Unknown candidate fields, and unknown row fields under
		 * "$row", so that a round trip loses nothing. */
		json_t *x = json_object(), *rx = json_object();
		const char *k;

		json_object_foreach(co, k, v) {
			int known = 0;

			for (i = 0; cand_known[i] != NULL && !known; i++)
				known = strcmp(cand_known[i], k) == 0;
			if (!known)
				json_object_set(x, k, v);
		}
		json_object_foreach(row, k, v) {
			int known = 0;

			for (i = 0; row_known[i] != NULL && !known; i++)
				known = strcmp(row_known[i], k) == 0;
			if (!known)
				json_object_set(rx, k, v);
		}
		if (json_object_size(rx) > 0)
			json_object_set(x, "$row", rx);
		if (json_object_size(x) > 0)
			c.extra = json_dumps(x, JSON_COMPACT |
			    JSON_PRESERVE_ORDER);
		json_decref(x);
		json_decref(rx);
	}
	if (c.parent != NULL) {
		char *pid = NULL;
		int prc = 1;

		/* With --id-prefix the parent is first looked for among
		 * this file's own (prefixed) ids. */
		if (opts->id_prefix != NULL) {
			char *pp = xasprintf("%s%s", opts->id_prefix, c.parent);

			prc = store_candidate_resolve(st, pp, &pid, err);
			free(pp);
			if (prc != 0) {
				free(pid);
				pid = NULL;
			}
		}
		if (prc != 0 &&
		    store_candidate_resolve(st, c.parent, &pid, err) != 0) {
			free(pid);
			import_row_error(err, path, line,
			    "unknown parent candidate");
			goto out;
		}
		free(c.parent);
		c.parent = pid;
	}
	json_array_foreach(json_object_get(row, "recorded"), i, v) {
		struct recorded *r;

		recs = xreallocarray(recs, nrec + 1, sizeof *recs);
		r = &recs[nrec++];
		memset(r, 0, sizeof *r);
		r->verdict = import_jdup(v, "verdict");
		r->stage = import_jdup(v, "stage");
		r->log = import_jdup(v, "log");
		r->extra = recorded_extra(v);
	}
	if (import_put_candidate(st, &c, recs, nrec, rep, &inserted, err) < 0)
		goto out;
	if (inserted && assay_decisions(st, row, c.id, opts->by != NULL ?
	    opts->by : "import", path, line, err) < 0)
		goto out;
	rc = 0;
out:
	for (i = 0; i < nrec; i++)
		recorded_release(&recs[i]);
	free(recs);
	candidate_release(&c);
	free(task_id);
	free(env);
	return rc;
}

static int
assay_detect_row(const json_t *row)
{
	return row == NULL || json_object_get(row, "task") != NULL ||
	    json_object_get(row, "candidate") != NULL;
}

static int
assay_run(struct store *st, const char *path,
    const struct import_opts *opts, struct import_report *rep,
    struct err *err)
{
	return import_each_jsonl(st, path, 0, opts, assay_row, rep, err);
}

const struct importer importer_assay = {
	"assay", NULL, assay_detect_row, assay_run
};
