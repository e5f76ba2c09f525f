/*
 * import.c - benchmark readers; see import.h and docs/formats.md.
 *
 * Each reader turns its input into struct task / struct candidate /
 * struct recorded values and hands them to store.c inside one
 * transaction per input file.  JSON is parsed with jansson; the file and
 * line of every problem go into the message.
 */
#include "exchange/import.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "envs/env.h"
#include "envs/verilog.h"
#include "base/hash.h"
#include "curate/license.h"
#include "base/ident.h"
#include "model/sample.h"
#include "exchange/vcs.h"
#include "model/vocab.h"

void
import_report_init(struct import_report *r)
{
	memset(r, 0, sizeof *r);
	buf_init(&r->warnings);
}

void
import_report_release(struct import_report *r)
{
	if (r != NULL)
		buf_release(&r->warnings);
}

static const char *const format_names[] = {
	[IMPORT_AUTO] = "auto",
	[IMPORT_ASSAY] = "assay",
	[IMPORT_VEV2] = "verilog-eval-v2",
	[IMPORT_VEV1] = "verilog-eval-v1",
	[IMPORT_RTLFIXER] = "rtlfixer",
	[IMPORT_REALBENCH] = "realbench",
	[IMPORT_RTLLM] = "rtllm",
	[IMPORT_KERNELBENCH] = "kernelbench",
	[IMPORT_DATASET] = "dataset",
};

int
import_format_parse(const char *name, enum import_format *out,
    struct err *err)
{
	for (size_t i = 0; i < sizeof format_names / sizeof format_names[0];
	    i++) {
		if (strcmp(name, format_names[i]) == 0) {
			*out = (enum import_format)i;
			return 0;
		}
	}
	return err_set(err, "unknown format '%s' (known: auto assay "
	    "verilog-eval-v2 verilog-eval-v1 rtlfixer realbench rtllm kernelbench"
	    " dataset)",
	    name);
}

const char *
import_format_name(enum import_format f)
{
	return format_names[f];
}

/* --- small helpers --------------------------------------------------- */

char *
import_nan_to_null(const char *line, size_t len, size_t *outlen)
{
	struct buf b = BUF_INIT;
	int in_str = 0;

	for (size_t i = 0; i < len; i++) {
		char ch = line[i];

		if (in_str) {
			buf_addc(&b, ch);
			if (ch == '\\' && i + 1 < len)
				buf_addc(&b, line[++i]);
			else if (ch == '"')
				in_str = 0;
			continue;
		}
		if (ch == '"') {
			in_str = 1;
		} else if (ch == 'N' && i + 3 <= len &&
		    memcmp(line + i, "NaN", 3) == 0 &&
		    (i == 0 || strchr(" \t:,[", line[i - 1]) != NULL) &&
		    (i + 3 == len || strchr(" \t\r\n,]}", line[i + 3]) != NULL)) {
			buf_adds(&b, "null");
			i += 2;
			continue;
		}
		buf_addc(&b, ch);
	}
	return buf_detach(&b, outlen);
}

char *
import_model_from_log(const char *log)
{
	static const char *const markers[] = { "_cot_", "_react_",
	    "_openaifunc_" };
	const char *end = strstr(log, "_pass_at_k");
	const char *best = NULL;
	size_t n;

	if (end == NULL)
		end = log + strlen(log);
	for (size_t m = 0; m < sizeof markers / sizeof markers[0]; m++) {
		size_t ml = strlen(markers[m]);

		for (const char *p = log; (p = strstr(p, markers[m])) != NULL &&
		    p < end; p++)
			if (best == NULL || p + ml > best)
				best = p + ml;
	}
	if (best == NULL) {
		/* "..._reflexion-verilog_2_gpt-4": after the last _<digits>_ */
		for (const char *p = log; p < end; p++) {
			const char *q = p + 1;

			if (*p != '_' || q >= end || *q < '0' || *q > '9')
				continue;
			while (q < end && *q >= '0' && *q <= '9')
				q++;
			if (q < end && *q == '_')
				best = q + 1;
		}
	}
	if (best == NULL || best >= end)
		return xstrdup(log);
	n = (size_t)(end - best);
	return xstrndup(best, n);
}

static const char *
jstr(json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

static char *
jdup(json_t *o, const char *key)
{
	return xstrdup(jstr(o, key));
}

/* A JSON object of o's members not named in known (NULL-terminated);
 * new string, or NULL when there are none. */
static char *
unknown_fields(json_t *o, const char *const *known)
{
	json_t *extra = json_object(), *v;
	const char *key;
	char *txt = NULL;

	json_object_foreach(o, key, v) {
		int k = 0;

		for (size_t i = 0; known[i] != NULL && !k; i++)
			k = strcmp(known[i], key) == 0;
		if (!k)
			json_object_set(extra, key, v);
	}
	if (json_object_size(extra) > 0)
		txt = json_dumps(extra, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(extra);
	return txt;
}

static void
set_code(struct candidate *c, const char *code)
{
	free(c->code);
	c->code = xstrdup(code);
	c->code_len = strlen(code);
	hash_sha256(c->code, c->code_len, c->code_hash);
}

/* Line-by-line JSONL with file:line errors; cb gets each parsed object. */
typedef int (*row_fn)(struct store *st, json_t *row, const char *path,
    size_t line, void *arg, struct import_report *rep, struct err *err);

static int
each_jsonl(struct store *st, const char *path, int nan_ok, int keep_going,
    row_fn cb, void *arg, struct import_report *rep, struct err *err)
{
	/* Every caller passes its import_opts as the rows' arg. */
	const struct import_opts *opts = arg;
	struct import_text in;
	const char *data, *p, *end;
	size_t len, line = 0, rows = 0;

	/* Mapped, not read: a million rows are more than a gigabyte. */
	if (import_map(path, &in, err) < 0)
		return -1;
	data = p = in.data;
	len = in.len;
	end = data + len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl != NULL ? (size_t)(nl - p) : (size_t)(end - p);
		const char *txt = p;
		char *fixed = NULL;
		size_t tl = l;
		json_error_t jerr;
		json_t *row;
		struct err rowerr;
		int rc;

		line++;
		p += l + (nl != NULL);
		if (opts->progress != NULL && line % IMPORT_PROGRESS_ROWS == 0)
			opts->progress(line, (size_t)(p - data), len,
			    opts->progress_arg);
		while (tl > 0 && (txt[tl - 1] == '\r' || txt[tl - 1] == ' '))
			tl--;
		if (tl == 0)
			continue;
		if (nan_ok)
			txt = fixed = import_nan_to_null(txt, tl, &tl);
		row = json_loadb(txt, tl, JSON_REJECT_DUPLICATES, &jerr);
		free(fixed);
		rows++;
		if (row == NULL || !json_is_object(row)) {
			if (row == NULL && json_error_code(&jerr) ==
			    json_error_invalid_utf8)
				err_set(&rowerr, "%s:%zu: invalid UTF-8 (%s, column"
				    " %d)", path, line, jerr.text, jerr.column);
			else if (row == NULL)
				err_set(&rowerr, "%s:%zu: invalid JSON: %s (column"
				    " %d)", path, line, jerr.text, jerr.column);
			else
				err_set(&rowerr, "%s:%zu: a row must be a JSON"
				    " object", path, line);
			json_decref(row);
			rc = -1;
		} else {
			/* A savepoint per row: a skipped row leaves nothing,
			 * not even in the counts. */
			struct import_report before = *rep;

			err_clear(&rowerr);
			/* Without keep_going a bad row fails the whole
			 * file, so a row needs no savepoint of its own
			 * (each one journals every page the row changes). */
			rc = keep_going ? store_savepoint(st, &rowerr) : 0;
			if (rc == 0) {
				rc = cb(st, row, path, line, arg, rep, &rowerr);
				if (keep_going)
					store_savepoint_end(st, rc == 0);
			}
			if (rc < 0) {
				rep->tasks_added = before.tasks_added;
				rep->tasks_existing = before.tasks_existing;
				rep->cands_added = before.cands_added;
				rep->cands_existing = before.cands_existing;
			}
			json_decref(row);
			if (rc < 0 && strncmp(rowerr.msg, path, strlen(path)) != 0) {
				struct err e2;

				/* A store failure: say where it happened. */
				err_set(&e2, "%s:%zu: %s", path, line, rowerr.msg);
				rowerr = e2;
			}
		}
		if (rc < 0) {
			if (!keep_going) {
				err_set(err, "%s", rowerr.msg);
				import_unmap(&in);
				return -1;
			}
			rep->skipped++;
			buf_printf(&rep->warnings, "%s (skipped)\n", rowerr.msg);
		}
	}
	if (opts->progress != NULL)
		opts->progress(line, len, len, opts->progress_arg);
	if (rows == 0)
		buf_printf(&rep->warnings, "%s: empty file, nothing imported\n",
		    path);
	import_unmap(&in);
	return 0;
}

/* Did a row-level failure come from the data (keep-going may skip it) or
 * from the store (never skipped)?  Rows report data errors as
 * "path:line: ..." themselves. */
static int
row_error(struct err *err, const char *path, size_t line, const char *what)
{
	return err_set(err, "%s:%zu: %s", path, line, what);
}

/* --- RTLFixer -------------------------------------------------------- */

/* The v1 / RTLFixer rule: the solution as it is when it holds the whole
 * module, else prompt + solution. */
static char *
v1_code(const char *prompt, const char *solution)
{
	if (strstr(solution, "module top_module") != NULL)
		return xstrdup(solution);
	return xasprintf("%s%s", prompt != NULL ? prompt : "", solution);
}

static const char *const rtlfixer_known[] = { "index", "task_id", "solution",
	"log", "compiler_error", "simulate_error", "prompt",
	"canonical_solution", "test", "detail_description", NULL };

static int
rtlfixer_row(struct store *st, json_t *row, const char *path, size_t line,
    void *arg, struct import_report *rep, struct err *err)
{
	const char *tid = jstr(row, "task_id"), *sol = jstr(row, "solution");
	const char *test = jstr(row, "test"), *prompt = jstr(row, "prompt");
	const char *log = jstr(row, "log");
	const char *cerr = jstr(row, "compiler_error");
	const char *serr = jstr(row, "simulate_error");
	struct task t = { 0 };
	struct candidate c = { 0 };
	struct recorded r = { 0 };
	json_t *rec;
	char *code;
	int rc = -1;

	(void)arg;
	if (tid == NULL || *tid == '\0')
		return row_error(err, path, line, "missing \"task_id\" string");
	if (sol == NULL)
		return row_error(err, path, line, "missing \"solution\" string");
	if (test == NULL)
		return row_error(err, path, line, "missing \"test\" string");
	t.id = xasprintf("rtlfixer/%s", tid);
	t.benchmark = xstrdup("rtlfixer");
	t.domain = xstrdup("chip");
	t.env = xstrdup("iverilog");
	t.env_params = xstrdup("{\"top\":\"tb\",\"timeout_s\":30,"
	    "\"candidate_last\":true}");
	t.spec = jdup(row, "detail_description");
	t.interface = xstrdup(prompt);
	t.source = xstrdup(path);
	task_add_file(&t, "test.sv", "testbench", test, strlen(test));
	if (jstr(row, "canonical_solution") != NULL) {
		json_t *x = json_pack("{s:s}", "canonical_solution",
		    jstr(row, "canonical_solution"));

		t.extra = json_dumps(x, JSON_COMPACT);
		json_decref(x);
	}
	if (import_put_task(st, &t, rep, err) < 0)
		goto out;

	code = v1_code(prompt, sol);
	c.task_id = xstrdup(t.id);
	c.origin = log != NULL ? import_model_from_log(log) : xstrdup("unknown");
	c.origin_raw = xstrdup(log);
	c.kind = xstrdup("direct");
	c.lang = xstrdup("verilog");
	c.source = xasprintf("%s:%zu", path, line);
	set_code(&c, code);
	free(code);
	c.extra = unknown_fields(row, rtlfixer_known);

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

/* --- the assay JSONL format ----------------------------------------- */

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
		if (jstr(v, "category") == NULL)
			continue;
		if (jat(v, &at, path, line, "label", err) < 0)
			return -1;
		if (store_label_set_at(st, cand_id, jstr(v, "category"),
		    jstr(v, "subcategory"), jstr(v, "note"),
		    jstr(v, "by") != NULL ? jstr(v, "by") : by,
		    json_is_true(json_object_get(v, "final")),
		    jstr(v, "evidence"), at, err) < 0)
			return decision_error(err, path, line, "label");
	}
	if (jat(review, &at, path, line, "review", err) < 0)
		return -1;
	if (jstr(review, "status") != NULL &&
	    strcmp(jstr(review, "status"), "unreviewed") != 0 &&
	    store_review_set_at(st, cand_id, jstr(review, "status"),
	    jstr(review, "note"), jstr(review, "by") != NULL ?
	    jstr(review, "by") : by, at, err) < 0)
		return decision_error(err, path, line, "review");
	v = json_object_get(row, "notes");
	if (v != NULL && !json_is_array(v))
		return row_error(err, path, line, "\"notes\" must be an array"
		    " of {\"text\", \"by\", \"at\"}");
	json_array_foreach(json_object_get(row, "notes"), i, v) {
		if (jstr(v, "text") == NULL)
			return row_error(err, path, line, "a note needs a"
			    " \"text\" string");
		if (jat(v, &at, path, line, "note", err) < 0)
			return -1;
		if (store_note_add_at(st, cand_id, jstr(v, "text"),
		    jstr(v, "by") != NULL ? jstr(v, "by") : by, at,
		    err) < 0)
			return decision_error(err, path, line, "note");
	}
	return 0;
}

static const char *
lang_of_env(const char *env)
{
	const struct env_ops *e = env_find(env);

	/* A pipeline "iverilog+yosys" is in the language of its first env. */
	if (e == NULL && env != NULL && strchr(env, '+') != NULL) {
		char *first = xstrndup(env, strcspn(env, "+"));

		e = env_find(first);
		free(first);
	}
	return e != NULL ? e->lang : "text";
}

/* Is one of name's words (split at '_', '-', '.') in words, ignoring
 * case? */
static int
has_word(const char *name, const char *const *words)
{
	const char *p = name;

	while (*p != '\0') {
		size_t n = strcspn(p, "_-.");

		for (size_t i = 0; n > 0 && words[i] != NULL; i++)
			if (strlen(words[i]) == n &&
			    strncasecmp(p, words[i], n) == 0)
				return 1;
		p += n;
		if (*p != '\0')
			p++;
	}
	return 0;
}

const char *
import_file_role(const char *name, const char *env)
{
	static const char *const tb[] = { "tb", "test", "testbench", NULL };
	static const char *const ref[] = { "ref", "reference", "golden",
	    NULL };

	if (strcmp(lang_of_env(env), "verilog") == 0) {
		struct task_file f = { (char *)name, (char *)"source", NULL, 0 };

		if (verilog_is_data(&f))
			return "data";
	}
	if (has_word(name, tb))
		return "testbench";
	if (has_word(name, ref))
		return "reference";
	return "source";
}

int
import_role_valid(const char *role)
{
	return role != NULL && (strcmp(role, "testbench") == 0 ||
	    strcmp(role, "reference") == 0 || strcmp(role, "source") == 0 ||
	    strcmp(role, "data") == 0);
}

/*
 * A task's "files": an object of name -> text, each file's role by its
 * name (import_file_role()), or an array of {"name", "text", "role"}
 * objects, "role" optional, for a role the name does not say.
 */
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
				return row_error(err, path, line, "a task file"
				    " must be a string");
			task_add_file(t, key, import_file_role(key, t->env),
			    json_string_value(v), json_string_length(v));
		}
		return 0;
	}
	if (!json_is_array(files))
		return row_error(err, path, line, "\"files\" must be an object"
		    " of name -> text, or an array of {\"name\", \"text\","
		    " \"role\"}");
	json_array_foreach(files, i, v) {
		const char *name = jstr(v, "name"), *role = jstr(v, "role");
		json_t *text = json_object_get(v, "text");

		if (name == NULL || !json_is_string(text))
			return row_error(err, path, line, "a task file needs"
			    " a \"name\" and a \"text\" string");
		if (json_object_get(v, "role") != NULL &&
		    !import_role_valid(role))
			return row_error(err, path, line, "a task file's"
			    " \"role\" must be testbench, reference, source or"
			    " data");
		for (size_t k = 0; k < t->nfiles; k++)
			if (strcmp(t->files[k].name, name) == 0)
				return row_error(err, path, line, "two task"
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

	if (jstr(to, "id") == NULL)
		return row_error(err, path, line, "task without an \"id\"");
	if (jstr(to, "env") == NULL)
		return row_error(err, path, line, "task without an \"env\"");
	t.id = jdup(to, "id");
	t.benchmark = xstrdup(jstr(to, "benchmark") != NULL ?
	    jstr(to, "benchmark") : "local");
	t.domain = xstrdup(jstr(to, "domain") != NULL ? jstr(to, "domain") :
	    "chip");
	t.env = jdup(to, "env");
	params = json_object_get(to, "env_params");
	if (params != NULL && !json_is_object(params)) {
		task_release(&t);
		return row_error(err, path, line, "\"env_params\" must be an"
		    " object");
	}
	if (params != NULL)
		t.env_params = json_dumps(params, JSON_COMPACT |
		    JSON_PRESERVE_ORDER);
	t.spec = jdup(to, "spec");
	t.interface = jdup(to, "interface");
	t.source = jstr(to, "source") != NULL ? jdup(to, "source") :
	    xasprintf("%s:%zu", path, line);
	files = json_object_get(to, "files");
	if (assay_files(&t, files, path, line, err) < 0) {
		task_release(&t);
		return -1;
	}
	t.extra = unknown_fields(to, task_known);
	if (import_put_task(st, &t, rep, err) < 0)
		goto out;
	*task_id = xstrdup(t.id);
	*env = xstrdup(t.env);
	/* A reference solution answers the task: it is a candidate too. */
	if (jstr(to, "reference") != NULL) {
		struct candidate c = { 0 };

		c.task_id = xstrdup(t.id);
		c.origin = xstrdup("reference");
		c.kind = xstrdup("direct");
		c.lang = xstrdup(lang_of_env(t.env));
		c.source = xasprintf("%s:%zu", path, line);
		set_code(&c, jstr(to, "reference"));
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
 * byte for byte.  Only string members at the end of the object, in that
 * order, are left out (deleted from v).  New string.
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
    void *arg, struct import_report *rep, struct err *err)
{
	const struct import_opts *opts = arg;
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
		return row_error(err, path, line, "a row needs \"task\" or"
		    " \"candidate\"");
	if (json_is_object(to)) {
		if (assay_task(st, to, path, line, rep, &task_id, &env, err) < 0)
			return -1;
	} else if (json_is_string(to)) {
		int found;

		task_id = xstrdup(json_string_value(to));
		found = store_task_env(st, task_id, &env, err);
		if (found < 0)
			goto out;
		if (found == 1) {
			row_error(err, path, line, "unknown task");
			goto out;
		}
	} else {
		row_error(err, path, line, "\"task\" must be an object or an id");
		goto out;
	}
	if (co == NULL) {
		rc = 0;
		goto out;
	}
	if (!json_is_object(co) || jstr(co, "code") == NULL) {
		row_error(err, path, line, "\"candidate\" needs a \"code\" string");
		goto out;
	}
	c.task_id = xstrdup(task_id);
	if (jstr(co, "id") != NULL && opts->id_prefix != NULL)
		c.id = xasprintf("%s%s", opts->id_prefix, jstr(co, "id"));
	else
		c.id = jdup(co, "id");
	c.origin = xstrdup(jstr(co, "origin") != NULL ? jstr(co, "origin") :
	    "unknown");
	c.kind = xstrdup(jstr(co, "kind") != NULL ? jstr(co, "kind") :
	    "direct");
	if (cand_kind_from_name(c.kind) == KIND_NONE) {
		row_error(err, path, line, "\"kind\" must be direct, repair or"
		    " optimization");
		goto out;
	}
	c.lang = xstrdup(jstr(co, "lang") != NULL ? jstr(co, "lang") :
	    lang_of_env(env));
	c.origin_raw = jdup(co, "origin_raw");
	c.parent = jdup(co, "parent");
	/* A row written by assay export keeps where it first came from. */
	c.source = jstr(co, "source") != NULL ? jdup(co, "source") :
	    xasprintf("%s:%zu", path, line);
	set_code(&c, jstr(co, "code"));
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
			row_error(err, path, line, "unknown parent candidate");
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
		r->verdict = jdup(v, "verdict");
		r->stage = jdup(v, "stage");
		r->log = jdup(v, "log");
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

/* --- VerilogEval v2: the problem directory -------------------------- */

/* Replace whole-word "RefModule" with "TopModule". */
static char *
rename_module(const char *code)
{
	struct buf b = BUF_INIT;
	const char *p = code, *q;

	while ((q = strstr(p, "RefModule")) != NULL) {
		int word = (q == code || !(q[-1] == '_' ||
		    (q[-1] >= '0' && q[-1] <= '9') ||
		    ((q[-1] | 32) >= 'a' && (q[-1] | 32) <= 'z'))) &&
		    !(q[9] == '_' || (q[9] >= '0' && q[9] <= '9') ||
		    ((q[9] | 32) >= 'a' && (q[9] | 32) <= 'z'));

		buf_add(&b, p, (size_t)(q - p));
		buf_adds(&b, word ? "TopModule" : "RefModule");
		p = q + 9;
	}
	buf_adds(&b, p);
	return buf_detach(&b, NULL);
}

/* The last component of a path: borrowed from path. */
static const char *
base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash != NULL ? slash + 1 : path;
}

static int
vev2_problem(struct store *st, const char *dir, const char *prob,
    struct import_report *rep, struct err *err)
{
	char *ppath = xasprintf("%s/%s_prompt.txt", dir, prob);
	char *tpath = xasprintf("%s/%s_test.sv", dir, prob);
	char *rpath = xasprintf("%s/%s_ref.sv", dir, prob);
	char *prompt = NULL, *test = NULL, *ref = NULL, *code = NULL;
	size_t plen, tlen, rlen;
	struct task t = { 0 };
	struct candidate c = { 0 };
	int rc = -1;

	if (import_read(ppath, &prompt, &plen, err) < 0 ||
	    import_read(tpath, &test, &tlen, err) < 0 ||
	    import_read(rpath, &ref, &rlen, err) < 0)
		goto out;
	if (strstr(ref, "RefModule") == NULL) {
		err_set(err, "%s: no module RefModule in the reference", rpath);
		goto out;
	}
	t.id = xasprintf("verilog-eval-v2/%s", prob);
	t.benchmark = xstrdup("verilog-eval-v2");
	t.domain = xstrdup("chip");
	t.env = xstrdup("iverilog");
	t.env_params = xstrdup("{\"top\":\"tb\",\"timeout_s\":30}");
	t.spec = xstrndup(prompt, plen);
	t.source = xasprintf("%s/%s", dir, prob);
	task_add_file(&t, base_name(tpath), "testbench", test, tlen);
	task_add_file(&t, base_name(rpath), "reference", ref, rlen);
	if (import_put_task(st, &t, rep, err) < 0)
		goto out;
	code = rename_module(ref);
	c.task_id = xstrdup(t.id);
	c.origin = xstrdup("reference");
	c.kind = xstrdup("direct");
	c.lang = xstrdup("verilog");
	c.source = xstrdup(rpath);
	set_code(&c, code);
	if (import_put_candidate(st, &c, NULL, 0, rep, NULL, err) < 0)
		goto out;
	rc = 0;
out:
	task_release(&t);
	candidate_release(&c);
	free(code);
	free(prompt);
	free(test);
	free(ref);
	free(ppath);
	free(tpath);
	free(rpath);
	return rc;
}

static int
vev2_dir(struct store *st, const char *dir, struct import_report *rep,
    struct err *err)
{
	char **names;
	size_t n, probs = 0;

	if (import_list_dir(dir, &names, &n, err) < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		const char *name = names[i];
		char *prob, *other;
		struct stat sb;
		int complete;

		if (import_has_suffix(name, "_prompt.txt")) {
			prob = xstrndup(name, strlen(name) - strlen("_prompt.txt"));
			other = xasprintf("%s/%s_test.sv", dir, prob);
			complete = stat(other, &sb) == 0;
			free(other);
			other = xasprintf("%s/%s_ref.sv", dir, prob);
			complete = complete && stat(other, &sb) == 0;
			free(other);
			if (!complete) {
				buf_printf(&rep->warnings, "%s/%s: problem without"
				    " its _test.sv and _ref.sv, ignored\n", dir,
				    name);
			} else if (vev2_problem(st, dir, prob, rep, err) < 0) {
				free(prob);
				import_free_names(names, n);
				return -1;
			} else {
				probs++;
			}
			free(prob);
			continue;
		}
		if (import_has_suffix(name, "_test.sv") || import_has_suffix(name, "_ref.sv")) {
			size_t cut = strlen(name) - (import_has_suffix(name, "_test.sv") ?
			    strlen("_test.sv") : strlen("_ref.sv"));

			prob = xasprintf("%s/%.*s_prompt.txt", dir, (int)cut, name);
			complete = stat(prob, &sb) == 0;
			free(prob);
			if (complete)
				continue;
		}
		if (strcmp(name, "LICENSE") == 0 || import_has_suffix(name, ".md"))
			continue;
		buf_printf(&rep->warnings, "%s/%s: not part of a problem "
		    "(_prompt.txt, _test.sv, _ref.sv), ignored\n", dir, name);
	}
	import_free_names(names, n);
	if (probs == 0)
		return err_set(err, "%s: no VerilogEval v2 problems"
		    " (*_prompt.txt with _test.sv and _ref.sv)", dir);
	return 0;
}

/* --- VerilogEval v1: four JSONL files joined by task_id ------------- */

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
		if (jstr(r, "task_id") != NULL &&
		    strcmp(jstr(r, "task_id"), task_id) == 0)
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

	if (load_jsonl(pe, &eval, err) < 0)
		goto out;
	if (stat(pd, &sb) == 0 && load_jsonl(pd, &desc, err) < 0)
		goto out;
	if (stat(ps, &sb) == 0 && load_jsonl(ps, &sol, err) < 0)
		goto out;
	if (stat(pr, &sb) == 0 && load_jsonl(pr, &ref, err) < 0)
		goto out;
	json_array_foreach(eval, i, r) {
		const char *tid = jstr(r, "task_id"), *test = jstr(r, "test");
		const char *prompt = jstr(r, "prompt");
		const char *canon = jstr(r, "canonical_solution");
		json_t *d = desc != NULL && tid != NULL ? find_row(desc, tid) : NULL;
		size_t line = (size_t)json_integer_value(json_object_get(r, "$line"));
		struct task t = { 0 };
		struct candidate c = { 0 };
		char *code;

		if (tid == NULL || test == NULL || prompt == NULL) {
			err_set(err, "%s:%zu: a problem needs \"task_id\","
			    " \"prompt\" and \"test\"", pe, line);
			goto out;
		}
		t.id = xasprintf("verilog-eval-v1/%s", tid);
		t.benchmark = xstrdup("verilog-eval-v1");
		t.domain = xstrdup("chip");
		t.env = xstrdup("iverilog");
		t.env_params = xstrdup("{\"top\":\"tb\",\"timeout_s\":30,"
		    "\"candidate_last\":true}");
		t.spec = d != NULL ? jdup(d, "detail_description") : NULL;
		t.interface = xstrdup(prompt);
		t.source = xasprintf("%s:%zu", pe, line);
		task_add_file(&t, "test.sv", "testbench", test, strlen(test));
		if (import_put_task(st, &t, rep, err) < 0) {
			task_release(&t);
			goto out;
		}
		if (canon != NULL) {
			code = xasprintf("%s%s", prompt, canon);
			c.task_id = xstrdup(t.id);
			c.origin = xstrdup("reference");
			c.kind = xstrdup("direct");
			c.lang = xstrdup("verilog");
			c.source = xasprintf("%s:%zu", pe, line);
			set_code(&c, code);
			free(code);
			if (import_put_candidate(st, &c, NULL, 0, rep, NULL, err) < 0) {
				candidate_release(&c);
				task_release(&t);
				goto out;
			}
			candidate_release(&c);
		}
		task_release(&t);
	}
	json_array_foreach(sol, i, r) {
		const char *tid = jstr(r, "task_id"), *comp = jstr(r, "completion");
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
			    (json_int_t)line && jstr(x, "completion") != NULL &&
			    strcmp(jstr(x, "completion"), comp) == 0)
				rr = x;
		code = v1_code(jstr(prob, "prompt"), comp);
		c.task_id = xasprintf("verilog-eval-v1/%s", tid);
		c.origin = xstrdup("unknown");
		c.kind = xstrdup("direct");
		c.lang = xstrdup("verilog");
		c.source = xasprintf("%s:%zu", ps, line);
		set_code(&c, code);
		free(code);
		if (rr != NULL && jstr(rr, "result") != NULL) {
			const char *res = jstr(rr, "result");
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

/* --- telling formats apart ------------------------------------------ */

/*
 * The first non-blank line of data as JSON into *row (NULL when it is
 * not JSON: jerr says why).  Returns 0 when every line is blank, else
 * the line's number.
 */
static size_t
first_row(const char *data, size_t len, json_t **row, json_error_t *jerr,
    char *lead)
{
	const char *p = data, *end = data + len;
	size_t line = 0;

	*row = NULL;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl != NULL ? (size_t)(nl - p) : (size_t)(end - p);
		char *fixed;
		size_t flen, k;

		line++;
		for (k = 0; k < l && strchr(" \t\r", p[k]) != NULL; k++)
			;
		if (k == l) {
			p += l + (nl != NULL);
			continue;
		}
		*lead = p[k];
		fixed = import_nan_to_null(p, l, &flen);
		*row = json_loadb(fixed, flen, JSON_REJECT_DUPLICATES, jerr);
		free(fixed);
		return line;
	}
	return 0;
}

static int
detect(const char *path, enum import_format *out, struct err *err)
{
	struct stat sb;
	struct import_text in;
	json_error_t jerr;
	json_t *row;
	char *p, lead = 0;
	size_t line;

	if (stat(path, &sb) < 0)
		return err_set(err, "%s: %s", path, strerror(errno));
	/* the importers of the table that know their layout first */
	for (size_t i = 0; i < nimporters; i++)
		if (!importers[i].late && importers[i].detect(path)) {
			*out = importers[i].format;
			return 0;
		}
	if (S_ISDIR(sb.st_mode)) {
		char **names;
		size_t n;

		p = xasprintf("%s/ExampleEval.jsonl", path);
		if (stat(p, &sb) == 0) {
			free(p);
			*out = IMPORT_VEV1;
			return 0;
		}
		free(p);
		if (import_list_dir(path, &names, &n, err) < 0)
			return -1;
		for (size_t i = 0; i < n; i++) {
			if (import_has_suffix(names[i], "_prompt.txt")) {
				import_free_names(names, n);
				*out = IMPORT_VEV2;
				return 0;
			}
		}
		import_free_names(names, n);
		for (size_t i = 0; i < nimporters; i++)
			if (importers[i].late && importers[i].detect(path)) {
				*out = importers[i].format;
				return 0;
			}
		return err_set(err, "%s: cannot tell the format of this"
		    " directory (want a VerilogEval v2 problem directory or"
		    " the v1 ExampleEval.jsonl set); give --format", path);
	}
	if (import_has_suffix(path, "ExampleEval.jsonl") ||
	    import_has_suffix(path, "ExampleSolution.jsonl") ||
	    import_has_suffix(path, "ExampleDescriptions.jsonl") ||
	    import_has_suffix(path, "_reference.jsonl")) {
		*out = IMPORT_VEV1;
		return 0;
	}
	if (import_map(path, &in, err) < 0)
		return -1;
	line = first_row(in.data, in.len, &row, &jerr, &lead);
	import_unmap(&in);
	if (line == 0) {
		*out = IMPORT_ASSAY;	/* empty: nothing to read */
		return 0;
	}
	if (row == NULL && (lead == '{' || lead == '[')) {
		/* JSON that jansson refused (a number out of range, too
		 * deep, a duplicate key): that is the error, not the
		 * format. */
		return err_set(err, "%s:%zu: invalid JSON: %s (column %d)",
		    path, line, jerr.text, jerr.column);
	}
	if (!json_is_object(row)) {
		json_decref(row);
		return err_set(err, "%s:%zu: cannot tell the format: the first"
		    " line is not a JSON object; give --format", path, line);
	}
	if (json_object_get(row, "task") != NULL ||
	    json_object_get(row, "candidate") != NULL)
		*out = IMPORT_ASSAY;
	else if (json_object_get(row, "task_id") != NULL &&
	    json_object_get(row, "solution") != NULL)
		*out = IMPORT_RTLFIXER;
	else if (json_object_get(row, "task_id") != NULL)
		*out = IMPORT_VEV1;
	else if (json_object_get(row, "problem_id") != NULL &&
	    json_object_get(row, "kernel_path") != NULL)
		*out = IMPORT_KERNELBENCH;	/* a dump's results file */
	else {
		json_decref(row);
		return err_set(err, "%s:%zu: cannot tell the format from the"
		    " first row; give --format", path, line);
	}
	json_decref(row);
	return 0;
}

/*
 * The licence and repository of the tasks an import added (rowid above
 * since): --license, else the SPDX id of the LICENSE the data ships with
 * (its source the file's last two path components, "rtlfixer/LICENSE");
 * --repository, else the git work tree the path lies in.
 */
static int
provenance(struct store *st, const char *path, const struct import_opts *o,
    int64_t since, struct err *err)
{
	char *lic = NULL, *lsrc = NULL, *repo = NULL, *root = NULL;
	char *from = NULL, *to = NULL, *dir, *real;
	const char *spdx = o->license;
	struct stat sb;
	int rc;

	if (spdx != NULL) {
		lsrc = xstrdup("--license");
	} else if ((lic = license_file(path)) != NULL) {
		char *text;
		size_t len;
		const char *p = lic + strlen(lic);
		int slashes = 0;

		if (import_read_file(lic, &text, &len, err) < 0) {
			free(lic);
			return -1;
		}
		spdx = license_spdx(text, len);
		free(text);
		while (p > lic && slashes < 2)
			if (*--p == '/')
				slashes++;
		lsrc = xstrdup(slashes == 2 ? p + 1 : p);
	}
	/* the folder of the import, as the sources were written */
	dir = xstrdup(path);
	while (strlen(dir) > 1 && dir[strlen(dir) - 1] == '/')
		dir[strlen(dir) - 1] = '\0';
	if (stat(path, &sb) == 0 && !S_ISDIR(sb.st_mode)) {
		char *slash = strrchr(dir, '/');

		if (slash != NULL)
			*slash = '\0';
		else {
			free(dir);
			dir = xstrdup(".");
		}
	}
	if (o->repository != NULL) {
		from = xasprintf("%s/", dir);
		to = xasprintf("%s:", o->repository);
	} else if (vcs_describe(dir, &repo, &root) &&
	    (real = realpath(dir, NULL)) != NULL) {
		size_t n = strlen(root);
		const char *sub = strncmp(real, root, n) == 0 ? real + n : "";

		from = xasprintf("%s/", dir);
		to = xasprintf("%s:%s%s", repo, *sub == '/' ? sub + 1 : sub,
		    *sub != '\0' ? "/" : "");
		free(real);
	}
	rc = store_task_provenance(st, since, spdx, lsrc, from, to, err);
	free(dir);
	free(from);
	free(to);
	free(lic);
	free(lsrc);
	free(repo);
	free(root);
	return rc;
}
static int import_in(struct store *st, const char *path,
    enum import_format f, const struct import_opts *opts,
    struct import_report *rep, struct err *err);

int
import_path(struct store *st, const char *path,
    const struct import_opts *opts, struct import_report *rep,
    struct err *err)
{
	enum import_format f = opts->format;
	int rc;

	if (import_guard_begin(path, err) < 0)
		return -1;
	rc = import_in(st, path, f, opts, rep, err);
	import_guard_end();
	return rc;
}

/* import_path() once the input is known to be readable. */
static int
import_in(struct store *st, const char *path, enum import_format f,
    const struct import_opts *opts, struct import_report *rep,
    struct err *err)
{
	char *dir = NULL;
	int64_t since;
	int rc;

	if (f == IMPORT_AUTO && detect(path, &f, err) < 0)
		return -1;
	if (store_import_begin(st, err) < 0)
		return -1;
	if (store_task_rowid_max(st, &since, err) < 0) {
		store_rollback(st);
		return -1;
	}
	switch (f) {
	case IMPORT_ASSAY:
		rc = each_jsonl(st, path, 0, opts->keep_going, assay_row,
		    (void *)opts, rep, err);
		break;
	case IMPORT_RTLFIXER:
		rc = each_jsonl(st, path, 1, opts->keep_going, rtlfixer_row,
		    (void *)opts, rep, err);
		break;
	case IMPORT_VEV2:
		rc = vev2_dir(st, path, rep, err);
		break;
	case IMPORT_VEV1: {
		struct stat sb;

		if (stat(path, &sb) == 0 && !S_ISDIR(sb.st_mode)) {
			const char *slash = strrchr(path, '/');

			dir = slash != NULL ? xstrndup(path,
			    (size_t)(slash - path)) : xstrdup(".");
		}
		rc = vev1_set(st, dir != NULL ? dir : path, rep, err);
		break;
	}
	default:
		rc = -2;
		for (size_t i = 0; i < nimporters && rc == -2; i++)
			if (importers[i].format == f)
				rc = importers[i].run(st, path, opts, rep, err);
		if (rc == -2)
			rc = err_set(err, "%s: no reader for format %s", path,
			    import_format_name(f));
	}
	free(dir);
	if (rc == 0)
		rc = provenance(st, path, opts, since, err);
	if (rc < 0) {
		store_rollback(st);
		if (strncmp(err->msg, path, strlen(path)) != 0) {
			struct err e2;

			/* Say where: a store refusal names no file. */
			err_set(&e2, "%s: %s", path, err->msg);
			*err = e2;
		}
		return -1;
	}
	if (store_event_add(st, opts->by != NULL ? opts->by : "import",
	    "import", NULL, path, err) < 0 ||
	    store_import_publish(st, err) < 0 || store_commit(st, err) < 0) {
		store_rollback(st);
		return -1;
	}
	return 0;
}

const char *
import_lang_of_env(const char *env)
{
	return lang_of_env(env);
}
