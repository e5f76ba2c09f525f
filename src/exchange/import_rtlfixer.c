/*
 * import_rtlfixer.c - RTLFixer's JSONL (docs/formats.md): one row a
 * generated VerilogEval solution with its task (task_id, prompt, test,
 * detail_description, canonical_solution) and what was recorded when it
 * was made (compiler_error, simulate_error), read as it is ("NaN" as
 * null, pandas writes it).  A row becomes the task rtlfixer/TASK_ID (env
 * iverilog, the test as its testbench) and a candidate of the model its
 * "log" names (import_model_from_log()) with the recorded result; the
 * fields assay has no place for are kept in the candidate's extra.
 * --format auto: a first row with "task_id" and "solution".
 */
#include "exchange/import.h"

#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "model/sample.h"

static const char *const rtlfixer_known[] = { "index", "task_id", "solution",
	"log", "compiler_error", "simulate_error", "prompt",
	"canonical_solution", "test", "detail_description", NULL };

static int
rtlfixer_row(struct store *st, json_t *row, const char *path, size_t line,
    const struct import_opts *opts, struct import_report *rep,
    struct err *err)
{
	const char *tid = import_jstr(row, "task_id");
	const char *sol = import_jstr(row, "solution");
	const char *test = import_jstr(row, "test");
	const char *prompt = import_jstr(row, "prompt");
	const char *log = import_jstr(row, "log");
	const char *cerr = import_jstr(row, "compiler_error");
	const char *serr = import_jstr(row, "simulate_error");
	struct task t = { 0 };
	struct candidate c = { 0 };
	struct recorded r = { 0 };
	json_t *rec;
	char *code;
	int rc = -1;

	(void)opts;
	if (tid == NULL || *tid == '\0')
		return import_row_error(err, path, line,
		    "missing \"task_id\" string");
	if (sol == NULL)
		return import_row_error(err, path, line,
		    "missing \"solution\" string");
	if (test == NULL)
		return import_row_error(err, path, line,
		    "missing \"test\" string");
	import_v1_task(&t, "rtlfixer", tid);
	t.spec = import_jdup(row, "detail_description");
	t.interface = xstrdup(prompt);
	t.source = xstrdup(path);
	task_add_file(&t, "test.sv", "testbench", test, strlen(test));
	if (import_jstr(row, "canonical_solution") != NULL) {
		json_t *x = json_pack("{s:s}", "canonical_solution",
		    import_jstr(row, "canonical_solution"));

		t.extra = json_dumps(x, JSON_COMPACT);
		json_decref(x);
	}
	if (import_put_task(st, &t, rep, err) < 0)
		goto out;

	code = import_v1_code(prompt, sol);
	c.task_id = xstrdup(t.id);
	c.origin = log != NULL ? import_model_from_log(log) :
	    xstrdup("unknown");
	c.origin_raw = xstrdup(log);
	import_direct_code(&c, "verilog", xasprintf("%s:%zu", path, line),
	    code, strlen(code));
	c.extra = import_unknown_fields(row, rtlfixer_known);

	/* What was recorded when the row was made, kept as recorded. */
	rec = json_object();
	json_object_set(rec, "compiler_error", json_object_get(row,
	    "compiler_error") != NULL ? json_object_get(row, "compiler_error") :
	    json_null());
	if (json_object_get(row, "simulate_error") != NULL)
		json_object_set(rec, "simulate_error", json_object_get(row,
		    "simulate_error"));
	json_object_set(rec, "index", json_object_get(row, "index") != NULL ?
	    json_object_get(row, "index") : json_null());
	r.extra = json_dumps(rec, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(rec);
	if (cerr != NULL && *cerr != '\0') {
		r.verdict = xstrdup("fail");
		r.stage = xstrdup("compile");
		r.log = xstrdup(cerr);
	} else if (serr != NULL) {
		r.verdict = xstrdup("fail");
		r.stage = xstrdup("simulate");
		r.log = xstrdup(serr);
	}
	if (import_put_candidate(st, &c, &r, r.extra != NULL ? 1 : 0, rep, NULL,
	    err) < 0)
		goto out;
	rc = 0;
out:
	task_release(&t);
	candidate_release(&c);
	recorded_release(&r);
	return rc;
}

static int
rtlfixer_detect_row(const json_t *row)
{
	return row != NULL && json_object_get(row, "task_id") != NULL &&
	    json_object_get(row, "solution") != NULL;
}

static int
rtlfixer_run(struct store *st, const char *path,
    const struct import_opts *opts, struct import_report *rep,
    struct err *err)
{
	return import_each_jsonl(st, path, 1, opts, rtlfixer_row, rep, err);
}

const struct importer importer_rtlfixer = {
	"rtlfixer", NULL, rtlfixer_detect_row, rtlfixer_run
};
