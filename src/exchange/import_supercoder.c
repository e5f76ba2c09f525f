/*
 * import_supercoder.c - SuperCoder's dataset (Anjiang-Wei/SuperCoder,
 * Hugging Face LLM4Code/llm_superoptimizer_ds, as its download_parquet.py
 * saves it and `datasets` writes it as JSONL); see docs/formats.md and
 * ADR 0046.
 *
 * A row's extra_info holds what its evaluation (src/evaluate.py,
 * src/test_benchmark.py) reads: "question" (the prompt: the C program and
 * its gcc -O3 assembly), "unoptimized_assembly" (that assembly, which the
 * model must make faster), "inputs" and "outputs" (the test cases: stdin
 * and the expected stdout), and "answer" (the ground truth its --use_gt
 * run scores).  A row becomes the task supercoder/ID of env x86-asm in
 * program mode (docs/envs/x86-asm.md): input.s the assembly, caseK.in and
 * caseK.out the first 10 test cases (SuperCoder tests at most 10); the
 * input assembly is a candidate of origin "gcc-O3" (kind direct), and the
 * answer, when it differs from it, a candidate of origin "reference" and
 * kind optimization whose parent is the input, as the issue asks.  ID is
 * extra_info's "problem_id" or "id", the row's "index" or "idx", else the
 * line.
 * --format auto: a first row whose extra_info has unoptimized_assembly.
 */
#include "exchange/import.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/ident.h"
#include "model/sample.h"

#define SC_MAX_CASES 10

static const char *const sc_known[] = { "question", "answer",
	"unoptimized_assembly", "inputs", "outputs", NULL };

/* The row's id as text, new string: extra_info's problem_id or id, the
 * row's index or idx (strings or integers), else "lineN". */
static char *
sc_id(json_t *row, json_t *x, size_t line)
{
	static const char *const keys[] = { "problem_id", "id", "index",
	    "idx", NULL };

	for (size_t i = 0; keys[i] != NULL; i++) {
		json_t *v = json_object_get(i < 2 ? x : row, keys[i]);

		if (json_is_string(v) && *json_string_value(v) != '\0')
			return xstrdup(json_string_value(v));
		if (json_is_integer(v))
			return xasprintf("%lld", (long long)json_integer_value(v));
	}
	return xasprintf("line%zu", line);
}

/* Put candidate code of origin into task tid; *id (may be NULL) gets its
 * id (new).  parent NULL: none. */
static int
sc_candidate(struct store *st, const char *tid, const char *origin,
    const char *kind, const char *parent, const char *code,
    const char *source, char **id, struct import_report *rep,
    struct err *err)
{
	struct candidate c = { 0 };
	int rc;

	c.task_id = xstrdup(tid);
	c.origin = xstrdup(origin);
	c.kind = xstrdup(kind);
	c.lang = xstrdup("asm");
	c.parent = parent != NULL ? xstrdup(parent) : NULL;
	c.source = xstrdup(source);
	import_set_code(&c, code);
	rc = import_put_candidate(st, &c, NULL, 0, rep, NULL, err);
	if (rc == 0 && id != NULL)
		*id = xstrdup(c.id);
	candidate_release(&c);
	return rc;
}

static int
sc_row(struct store *st, json_t *row, const char *path, size_t line,
    const struct import_opts *opts, struct import_report *rep,
    struct err *err)
{
	json_t *x = json_object_get(row, "extra_info");
	json_t *ins = json_object_get(x, "inputs");
	json_t *outs = json_object_get(x, "outputs");
	const char *in_asm = import_jstr(x, "unoptimized_assembly");
	const char *question = import_jstr(x, "question");
	const char *answer = import_jstr(x, "answer");
	struct task t = { 0 };
	char *id, *full, *src = NULL, *parent = NULL;
	size_t n;
	int rc = -1;

	(void)opts;
	if (!json_is_object(x))
		return import_row_error(err, path, line,
		    "missing \"extra_info\" object");
	if (in_asm == NULL || *in_asm == '\0')
		return import_row_error(err, path, line, "missing"
		    " extra_info.unoptimized_assembly string");
	if (!json_is_array(ins) || !json_is_array(outs) ||
	    json_array_size(ins) != json_array_size(outs) ||
	    json_array_size(ins) == 0)
		return import_row_error(err, path, line, "extra_info.inputs"
		    " and extra_info.outputs must be arrays of strings of the"
		    " same, non-zero length");
	n = json_array_size(ins);
	if (n > SC_MAX_CASES)
		n = SC_MAX_CASES;
	for (size_t i = 0; i < n; i++)
		if (!json_is_string(json_array_get(ins, i)) ||
		    !json_is_string(json_array_get(outs, i)))
			return import_row_error(err, path, line, "a test case"
			    " of extra_info.inputs or outputs is not a string");
	id = sc_id(row, x, line);
	full = xasprintf("supercoder/%s", id);
	free(id);
	t.id = ident_fit_task_id(full);
	free(full);
	t.benchmark = xstrdup("supercoder");
	t.domain = xstrdup("compiler");
	t.env = xstrdup("x86-asm");
	t.env_params = xstrdup("{\"mode\":\"program\"}");
	t.spec = xstrdup(question != NULL ? question : "Make this x86-64"
	    " assembly program faster; it must print the same output on"
	    " every test case.");
	t.source = xasprintf("%s:%zu", path, line);
	t.extra = import_unknown_fields(x, sc_known);
	task_add_file(&t, "input.s", "source", in_asm, strlen(in_asm));
	for (size_t i = 0; i < n; i++) {
		const char *a = json_string_value(json_array_get(ins, i));
		const char *b = json_string_value(json_array_get(outs, i));
		char name[32];

		snprintf(name, sizeof name, "case%zu.in", i + 1);
		task_add_file(&t, name, "data", a, strlen(a));
		snprintf(name, sizeof name, "case%zu.out", i + 1);
		task_add_file(&t, name, "data", b, strlen(b));
	}
	if (import_put_task(st, &t, rep, err) < 0)
		goto out;
	src = xasprintf("%s:%zu", path, line);
	if (sc_candidate(st, t.id, "gcc-O3", "direct", NULL, in_asm, src,
	    &parent, rep, err) < 0)
		goto out;
	if (answer != NULL && *answer != '\0' && strcmp(answer, in_asm) != 0 &&
	    sc_candidate(st, t.id, "reference", "optimization", parent,
	    answer, src, NULL, rep, err) < 0)
		goto out;
	rc = 0;
out:
	free(parent);
	free(src);
	task_release(&t);
	return rc;
}

static int
import_supercoder_detect_row(const json_t *row)
{
	json_t *x = row != NULL ? json_object_get(row, "extra_info") : NULL;

	return json_is_object(x) &&
	    json_object_get(x, "unoptimized_assembly") != NULL;
}

static int
import_supercoder(struct store *st, const char *path,
    const struct import_opts *opts, struct import_report *rep,
    struct err *err)
{
	return import_each_jsonl(st, path, 0, opts, sc_row, rep, err);
}

const struct importer importer_supercoder = {
	"supercoder", NULL, import_supercoder_detect_row, import_supercoder
};
