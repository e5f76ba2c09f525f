/*
 * import_vev1.c - VerilogEval v1 (docs/formats.md): four JSONL files in
 * one directory joined by task_id.  ExampleEval.jsonl holds the problems
 * (task verilog-eval-v1/TASK_ID, env iverilog, the test as testbench; the
 * canonical solution a candidate of origin reference),
 * ExampleDescriptions.jsonl their specs, ExampleSolution.jsonl generated
 * solutions (origin unknown) and ExampleSolution.jsonl_reference.jsonl
 * the result recorded for each.  Given one of the files, the directory it
 * lies in is read.  --format auto: a directory holding ExampleEval.jsonl,
 * a file of one of those names, or a first row with "task_id" that no
 * importer before it in the table claims.
 */
#include "exchange/import.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "model/sample.h"

/* Rows of a JSONL file as a JSON array, with file:line errors. */
static int
load_jsonl(const char *path, json_t **out, struct err *err)
{
	char *data, *p, *end;
	size_t len, line = 0;

	*out = NULL;
	if (import_read(path, &data, &len, err) < 0)
		return -1;
	*out = json_array();
	for (p = data, end = data + len; p < end; ) {
		char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl != NULL ? (size_t)(nl - p) : (size_t)(end - p);
		json_error_t jerr;
		json_t *row;

		line++;
		if (l > 0 && !(l == 1 && *p == '\r')) {
			row = json_loadb(p, l, JSON_REJECT_DUPLICATES, &jerr);
			if (row == NULL || !json_is_object(row)) {
				if (row == NULL)
					err_set(err, "%s:%zu: invalid JSON: %s"
					    " (column %d)", path, line, jerr.text,
					    jerr.column);
				else
					err_set(err, "%s:%zu: a row must be a JSON"
					    " object", path, line);
				json_decref(row);
				json_decref(*out);
				*out = NULL;
				free(data);
				return -1;
			}
			json_object_set_new(row, "$line", json_integer((json_int_t)line));
			json_array_append_new(*out, row);
		}
		p += l + (nl != NULL);
	}
	free(data);
	return 0;
}

static json_t *
find_row(json_t *rows, const char *task_id)
{
	json_t *r;
	size_t i;

	json_array_foreach(rows, i, r)
		if (import_jstr(r, "task_id") != NULL &&
		    strcmp(import_jstr(r, "task_id"), task_id) == 0)
			return r;
	return NULL;
}

static int
vev1_set(struct store *st, const char *dir, struct import_report *rep,
    struct err *err)
{
	char *pe = xasprintf("%s/ExampleEval.jsonl", dir);
	char *pd = xasprintf("%s/ExampleDescriptions.jsonl", dir);
	char *ps = xasprintf("%s/ExampleSolution.jsonl", dir);
	char *pr = xasprintf("%s/ExampleSolution.jsonl_reference.jsonl", dir);
	json_t *eval = NULL, *desc = NULL, *sol = NULL, *ref = NULL, *r;
	struct stat sb;
	size_t i;
	int rc = -1;

	/* a file read as v1 by its first row's "task_id" alone: say what
	 * was looked for (it said only "ExampleEval.jsonl: No such file") */
	if (stat(pe, &sb) < 0) {
		err_set(err, "%s: not found: read as VerilogEval v1 (rows with"
		    " \"task_id\"), whose problems are ExampleEval.jsonl beside"
		    " it; give --format for another layout", pe);
		goto out;
	}
	if (load_jsonl(pe, &eval, err) < 0)
		goto out;
	if (stat(pd, &sb) == 0 && load_jsonl(pd, &desc, err) < 0)
		goto out;
	if (stat(ps, &sb) == 0 && load_jsonl(ps, &sol, err) < 0)
		goto out;
	if (stat(pr, &sb) == 0 && load_jsonl(pr, &ref, err) < 0)
		goto out;
	json_array_foreach(eval, i, r) {
		const char *tid = import_jstr(r, "task_id"),
		    *test = import_jstr(r, "test");
		const char *prompt = import_jstr(r, "prompt");
		const char *canon = import_jstr(r, "canonical_solution");
		json_t *d = desc != NULL && tid != NULL ? find_row(desc, tid) : NULL;
		size_t line = (size_t)json_integer_value(json_object_get(r, "$line"));
		struct task t = { 0 };
		char *code;

		if (tid == NULL || test == NULL || prompt == NULL) {
			err_set(err, "%s:%zu: a problem needs \"task_id\","
			    " \"prompt\" and \"test\"", pe, line);
			goto out;
		}
		import_v1_task(&t, "verilog-eval-v1", tid);
		t.spec = d != NULL ? import_jdup(d, "detail_description") :
		    NULL;
		t.interface = xstrdup(prompt);
		t.source = xasprintf("%s:%zu", pe, line);
		task_add_file(&t, "test.sv", "testbench", test, strlen(test));
		if (import_put_task(st, &t, rep, err) < 0) {
			task_release(&t);
			goto out;
		}
		if (canon != NULL) {
			int put;

			code = xasprintf("%s%s", prompt, canon);
			put = import_put_reference(st, t.id, "verilog",
			    xasprintf("%s:%zu", pe, line), code, rep, err);
			free(code);
			if (put < 0) {
				task_release(&t);
				goto out;
			}
		}
		task_release(&t);
	}
	json_array_foreach(sol, i, r) {
		const char *tid = import_jstr(r, "task_id"),
		    *comp = import_jstr(r, "completion");
		size_t line = (size_t)json_integer_value(json_object_get(r, "$line"));
		json_t *prob = tid != NULL ? find_row(eval, tid) : NULL;
		struct candidate c = { 0 };
		struct recorded rec = { 0 };
		json_t *rr = NULL, *x;
		size_t k;
		char *code;

		if (tid == NULL || comp == NULL) {
			err_set(err, "%s:%zu: a solution needs \"task_id\" and"
			    " \"completion\"", ps, line);
			goto out;
		}
		if (prob == NULL) {
			err_set(err, "%s:%zu: task_id '%s' is not in %s", ps, line,
			    tid, pe);
			goto out;
		}
		/* The reference file repeats the solutions, in order, with the
		 * recorded result. */
		json_array_foreach(ref, k, x)
			if (json_object_get(x, "$line") != NULL &&
			    json_integer_value(json_object_get(x, "$line")) ==
			    (json_int_t)line &&
			    import_jstr(x, "completion") != NULL &&
			    strcmp(import_jstr(x, "completion"), comp) == 0)
				rr = x;
		code = import_v1_code(import_jstr(prob, "prompt"), comp);
		c.task_id = xasprintf("verilog-eval-v1/%s", tid);
		c.origin = xstrdup("unknown");
		import_direct_code(&c, "verilog", xasprintf("%s:%zu", ps, line),
		    code, strlen(code));
		if (rr != NULL && import_jstr(rr, "result") != NULL) {
			const char *res = import_jstr(rr, "result");
			json_t *keep = json_pack("{s:s, s:O}", "result", res,
			    "passed", json_object_get(rr, "passed") != NULL ?
			    json_object_get(rr, "passed") : json_null());

			rec.verdict = xstrdup(strcmp(res, "passed") == 0 ? "pass" :
			    "fail");
			if (strstr(res, "syntax") != NULL)
				rec.stage = xstrdup("compile");
			else if (strstr(res, "samples") != NULL)
				rec.stage = xstrdup("simulate");
			rec.log = xstrdup(res);
			rec.extra = json_dumps(keep, JSON_COMPACT |
			    JSON_PRESERVE_ORDER);
			json_decref(keep);
		}
		rc = import_put_candidate(st, &c, &rec, rec.verdict != NULL ? 1 : 0,
		    rep, NULL, err);
		candidate_release(&c);
		recorded_release(&rec);
		if (rc < 0)
			goto out;
		rc = -1;
	}
	rc = 0;
out:
	json_decref(eval);
	json_decref(desc);
	json_decref(sol);
	json_decref(ref);
	free(pe);
	free(pd);
	free(ps);
	free(pr);
	return rc;
}

static int
vev1_detect(const char *path)
{
	struct stat sb;
	char *p;
	int yes;

	if (stat(path, &sb) < 0)
		return 0;
	if (!S_ISDIR(sb.st_mode))
		return import_has_suffix(path, "ExampleEval.jsonl") ||
		    import_has_suffix(path, "ExampleSolution.jsonl") ||
		    import_has_suffix(path, "ExampleDescriptions.jsonl") ||
		    import_has_suffix(path, "_reference.jsonl");
	p = xasprintf("%s/ExampleEval.jsonl", path);
	yes = stat(p, &sb) == 0;
	free(p);
	return yes;
}

static int
vev1_detect_row(const json_t *row)
{
	return row != NULL && json_object_get(row, "task_id") != NULL;
}

/* The directory of the set: path itself, or the one a file lies in. */
static int
vev1_run(struct store *st, const char *path,
    const struct import_opts *opts, struct import_report *rep,
    struct err *err)
{
	struct stat sb;
	char *dir = NULL;
	int rc;

	(void)opts;
	if (stat(path, &sb) == 0 && !S_ISDIR(sb.st_mode)) {
		const char *slash = strrchr(path, '/');

		dir = slash != NULL ? xstrndup(path, (size_t)(slash - path)) :
		    xstrdup(".");
	}
	rc = vev1_set(st, dir != NULL ? dir : path, rep, err);
	free(dir);
	return rc;
}

const struct importer importer_vev1 = {
	"verilog-eval-v1", vev1_detect, vev1_detect_row, vev1_run
};
