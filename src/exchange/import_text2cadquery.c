/*
 * import_text2cadquery.c - a text-to-CAD set whose answers are CadQuery
 * scripts, in the row format of Text-to-CadQuery (Xie and Ju,
 * arXiv:2505.06507; its training and inference scripts read JSONL rows
 * {"input": the natural-language prompt, "output": the CadQuery script},
 * annotated from Text2CAD's prompts); see docs/formats.md and ADR 0046.
 *
 * A row becomes the task text2cadquery/ID of env cad with the script as
 * its reference (task file reference.py, which the env runs apart from
 * the candidate to make the reference solid) and the prompt as its
 * requirement; the script is also the task's reference candidate.  ID is
 * the row's "uid" (Text2CAD's "0000/00000007"), "id" or "deepcad_id",
 * else its line.  The other names the same sets use are read too: the
 * prompt from "prompt", "text" or "description", the script from
 * "cadquery" or "ground_truth".  The fields assay has no place for are
 * kept in the task's extra.
 * --format auto: a first row with a prompt and a script that imports
 * cadquery.
 */
#include "exchange/import.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/buf.h"
#include "base/ident.h"
#include "model/sample.h"

static const char *const tc_prompts[] = { "input", "prompt", "text",
	"description", NULL };
static const char *const tc_scripts[] = { "output", "cadquery",
	"ground_truth", NULL };
static const char *const tc_ids[] = { "uid", "id", "deepcad_id", NULL };
static const char *const tc_known[] = { "input", "prompt", "text",
	"description", "output", "cadquery", "ground_truth", "uid", "id",
	"deepcad_id", NULL };

/* The first of keys that row holds as a string (borrowed), or NULL. */
static const char *
tc_first(const json_t *row, const char *const *keys)
{
	for (size_t i = 0; keys[i] != NULL; i++) {
		const char *s = import_jstr((json_t *)row, keys[i]);

		if (s != NULL)
			return s;
	}
	return NULL;
}

/* The row's id as text: a string, or an integer written out.  New
 * string, or NULL. */
static char *
tc_id(json_t *row)
{
	for (size_t i = 0; tc_ids[i] != NULL; i++) {
		json_t *v = json_object_get(row, tc_ids[i]);

		if (json_is_string(v) && *json_string_value(v) != '\0')
			return xstrdup(json_string_value(v));
		if (json_is_integer(v))
			return xasprintf("%lld", (long long)json_integer_value(v));
	}
	return NULL;
}

static int
tc_row(struct store *st, json_t *row, const char *path, size_t line,
    const struct import_opts *opts, struct import_report *rep,
    struct err *err)
{
	const char *prompt = tc_first(row, tc_prompts);
	const char *script = tc_first(row, tc_scripts);
	struct task t = { 0 };
	char *id, *full;
	int rc = -1;

	(void)opts;
	if (prompt == NULL || *prompt == '\0')
		return import_row_error(err, path, line, "missing the prompt"
		    " (\"input\", \"prompt\", \"text\" or \"description\")");
	if (script == NULL || *script == '\0')
		return import_row_error(err, path, line, "missing the CadQuery"
		    " script (\"output\", \"cadquery\" or \"ground_truth\")");
	id = tc_id(row);
	full = id != NULL ? xasprintf("text2cadquery/%s", id) :
	    xasprintf("text2cadquery/line%zu", line);
	free(id);
	t.id = ident_fit_task_id(full);
	free(full);
	t.benchmark = xstrdup("text2cadquery");
	t.domain = xstrdup("3d");
	t.env = xstrdup("cad");
	t.spec = import_spec(prompt, strlen(prompt), "\nWrite a CadQuery script"
	    " that builds this part (millimetres); it passes when the"
	    " volumetric IoU of its solid with the reference solid is at least"
	    " 0.9.\n");
	t.source = xasprintf("%s:%zu", path, line);
	t.extra = import_unknown_fields(row, tc_known);
	task_add_file(&t, "reference.py", "reference", script, strlen(script));
	if (import_put_task(st, &t, rep, err) < 0)
		goto out;
	rc = import_put_reference(st, t.id, "python", xasprintf("%s:%zu", path,
	    line), script, rep, err);
out:
	task_release(&t);
	return rc;
}

static int
import_text2cadquery_detect_row(const json_t *row)
{
	const char *s = row != NULL ? tc_first(row, tc_scripts) : NULL;

	return s != NULL && tc_first(row, tc_prompts) != NULL &&
	    strstr(s, "cadquery") != NULL;
}

static int
import_text2cadquery(struct store *st, const char *path,
    const struct import_opts *opts, struct import_report *rep,
    struct err *err)
{
	return import_each_jsonl(st, path, 0, opts, tc_row, rep, err);
}

const struct importer importer_text2cadquery = {
	"text2cadquery", NULL, import_text2cadquery_detect_row,
	import_text2cadquery
};
