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

#include "base/ident.h"
#include "model/codec.h"
#include "model/sample.h"
#include "model/vocab.h"

/* The assay JSONL is the codec's raw format; a file's role by its name. */
static const struct codec_ctx raw_codec = { .profile = CODEC_RAW,
	.file_role = import_file_role };

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
assay_task(struct store *st, json_t *to, const char *path, size_t line,
    struct import_report *rep, char **task_id, char **env, struct err *err)
{
	struct task t;
	struct err e;
	int rc = -1;

	if (codec_task_parse(to, &raw_codec, &t, &e) < 0) {
		task_release(&t);
		return import_row_error(err, path, line, e.msg);
	}
	if (t.source == NULL)
		t.source = xasprintf("%s:%zu", path, line);
	if (import_put_task(st, &t, rep, err) < 0)
		goto out;
	*task_id = xstrdup(t.id);
	*env = xstrdup(t.env);
	/* A reference solution answers the task: it is a candidate too. */
	if (import_jstr(to, "reference") != NULL &&
	    import_put_reference(st, t.id, import_lang_of_env(t.env),
	    xasprintf("%s:%zu", path, line), import_jstr(to, "reference"), rep,
	    err) < 0)
		goto out;
	rc = 0;
out:
	task_release(&t);
	return rc;
}

/*
 * What a row's candidate is, decoded on the parsing thread (import.h,
 * import_each_jsonl_prep()): its fields, code hash and unknown members
 * (or the codec's refusal), and its recorded results.  assay_row() adds
 * what needs the store; assay_prep_free() frees it all.
 */
struct assay_prep {
	struct candidate	 c;
	int			 rc;	/* codec_candidate_parse()'s */
	struct err		 err;	/* its refusal, when rc < 0 */
	struct recorded		*recs;
	size_t			 nrec;
};

static void *
assay_prep(json_t *row)
{
	struct assay_prep *p;
	json_t *v;
	size_t i;

	if (json_object_get(row, "candidate") == NULL)
		return NULL;
	p = xcalloc(1, sizeof *p);
	p->rc = codec_candidate_parse(row, &raw_codec, &p->c, &p->err);
	if (p->rc < 0)
		return p;
	json_array_foreach(json_object_get(row, "recorded"), i, v) {
		p->recs = xreallocarray(p->recs, p->nrec + 1, sizeof *p->recs);
		codec_recorded_parse(v, &p->recs[p->nrec++]);
	}
	return p;
}

static void
assay_prep_free(void *arg)
{
	struct assay_prep *p = arg;

	for (size_t i = 0; i < p->nrec; i++)
		recorded_release(&p->recs[i]);
	free(p->recs);
	candidate_release(&p->c);
	free(p);
}

static int
assay_row(struct store *st, json_t *row, void *arg, const char *path,
    size_t line, const struct import_opts *opts, struct import_report *rep,
    struct err *err)
{
	struct assay_prep *p = arg;
	json_t *to = json_object_get(row, "task");
	json_t *co = json_object_get(row, "candidate");
	char *task_id = NULL, *env = NULL;
	struct candidate *c;
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

		task_id = ident_fit_task_id(json_string_value(to));
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
	if (p->rc < 0) {
		import_row_error(err, path, line, p->err.msg);
		goto out;
	}
	/* The prepared candidate, completed in place: assay_prep_free()
	 * frees it, on the thread that made most of it. */
	c = &p->c;
	c->task_id = xstrdup(task_id);
	if (c->id != NULL && opts->id_prefix != NULL) {
		char *pfx = xasprintf("%s%s", opts->id_prefix, c->id);

		free(c->id);
		c->id = pfx;
	}
	if (c->lang == NULL)
		c->lang = xstrdup(import_lang_of_env(env));
	/* A row written by assay export keeps where it first came from. */
	if (c->source == NULL)
		c->source = xasprintf("%s:%zu", path, line);
	if (c->parent != NULL) {
		char *pid = NULL;
		int prc = 1;

		/* With --id-prefix the parent is first looked for among
		 * this file's own (prefixed) ids. */
		if (opts->id_prefix != NULL) {
			char *pp = xasprintf("%s%s", opts->id_prefix, c->parent);

			prc = store_candidate_resolve(st, pp, &pid, err);
			free(pp);
			if (prc != 0) {
				free(pid);
				pid = NULL;
			}
		}
		if (prc != 0 &&
		    store_candidate_resolve(st, c->parent, &pid, err) != 0) {
			free(pid);
			import_row_error(err, path, line,
			    "unknown parent candidate");
			goto out;
		}
		free(c->parent);
		c->parent = pid;
	}
	if (import_put_candidate(st, c, p->recs, p->nrec, rep, &inserted,
	    err) < 0)
		goto out;
	if (inserted && assay_decisions(st, row, c->id, opts->by != NULL ?
	    opts->by : "import", path, line, err) < 0)
		goto out;
	rc = 0;
out:
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
	return import_each_jsonl_prep(st, path, assay_prep, assay_prep_free,
	    opts, assay_row, rep, err);
}

const struct importer importer_assay = {
	"assay", NULL, assay_detect_row, assay_run
};
