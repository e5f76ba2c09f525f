/*
 * codec.c - the JSON codec of tasks, candidates, recorded results and
 * runs; see codec.h.  Each field has one encoder below; a profile is a
 * list of field names in the order its format writes them, so two
 * formats cannot write the same field two ways.
 */
#include "model/codec.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/hash.h"
#include "base/textsafe.h"
#include "model/vocab.h"

/* --- text ------------------------------------------------------------ */

json_t *
codec_text(const char *s, size_t n)
{
	struct buf b = BUF_INIT;
	json_t *v = json_stringn(s, n);

	if (v != NULL)
		return v;
	safe_utf8(&b, s, n);
	v = json_stringn(b.p != NULL ? b.p : "", b.len);
	buf_release(&b);
	return v;
}

json_t *
codec_str(const char *s)
{
	return s != NULL ? codec_text(s, strlen(s)) : json_null();
}

void
codec_put_shown(json_t *o, const char *key, const char *s, size_t n)
{
	struct buf b = BUF_INIT;
	size_t bad;

	if (s == NULL) {
		json_object_set_new(o, key, json_null());
		return;
	}
	bad = safe_utf8(&b, s, n);
	json_object_set_new(o, key, json_stringn(b.p != NULL ? b.p : "",
	    b.len));
	if (bad > 0) {
		char *k = xasprintf("%s_replaced", key);

		json_object_set_new(o, k, json_integer((json_int_t)bad));
		free(k);
	}
	buf_release(&b);
}

json_t *
codec_json_text(const char *txt)
{
	json_t *v;

	if (txt == NULL)
		return json_null();
	v = json_loads(txt, JSON_DECODE_ANY, NULL);
	return v != NULL ? v : codec_str(txt);
}

/* Add src's members that dst does not have yet (known fields win). */
static void
merge_unknown(json_t *dst, const char *extra, const char *skip)
{
	json_t *src = extra != NULL ? json_loads(extra, 0, NULL) : NULL;
	const char *k;
	json_t *v;

	if (json_is_object(src))
		json_object_foreach(src, k, v)
			if ((skip == NULL || strcmp(k, skip) != 0) &&
			    json_object_get(dst, k) == NULL)
				json_object_set(dst, k, v);
	json_decref(src);
}

/* Set o[key] = v when v is not NULL (consumes v). */
static void
put(json_t *o, const char *key, json_t *v)
{
	if (v != NULL)
		json_object_set_new(o, key, v);
}

/* --- tasks ----------------------------------------------------------- */

/* The task's files as the raw format carries them. */
static json_t *
files_text(const struct task *t, const struct codec_ctx *x,
    struct err *err)
{
	json_t *files;
	int explicit = 0;

	/* Name -> text when every role is the one its name gives, else
	 * the explicit [{"name", "role", "text"}] (docs/formats.md). */
	for (size_t i = 0; i < t->nfiles && !explicit; i++)
		explicit = x->file_role == NULL || strcmp(t->files[i].role,
		    x->file_role(t->files[i].name, t->env)) != 0;
	files = explicit ? json_array() : json_object();
	for (size_t i = 0; i < t->nfiles; i++) {
		json_t *v = json_stringn(t->files[i].data, t->files[i].len);

		if (v == NULL) {
			json_decref(files);
			err_set(err, "task %s: file %s is not UTF-8 text; the"
			    " raw format cannot carry it", t->id,
			    t->files[i].name);
			return NULL;
		}
		if (explicit)
			json_array_append_new(files, json_pack("{s:s, s:s,"
			    " s:o}", "name", t->files[i].name, "role",
			    t->files[i].role, "text", v));
		else
			json_object_set_new(files, t->files[i].name, v);
	}
	return files;
}

/* The task's files by name and hash, as the dataset lists them. */
static json_t *
files_ref(const struct task *t)
{
	json_t *files = json_array();
	char hex[SAMPLE_HASH_HEX];

	for (size_t i = 0; i < t->nfiles; i++) {
		hash_sha256(t->files[i].data, t->files[i].len, hex);
		json_array_append_new(files, json_pack("{s:s, s:s, s:o, s:s}",
		    "name", t->files[i].name, "role", t->files[i].role,
		    "path", json_sprintf("files/%s", t->files[i].name),
		    "sha256", hex));
	}
	return files;
}

/* The task's files for reading. */
static json_t *
files_shown(const struct task *t)
{
	json_t *files = json_array();

	for (size_t i = 0; i < t->nfiles; i++) {
		json_t *f = json_pack("{s:s, s:s}", "name", t->files[i].name,
		    "role", t->files[i].role);

		codec_put_shown(f, "content", t->files[i].data,
		    t->files[i].len);
		json_array_append_new(files, f);
	}
	return files;
}

/* A text field of a task: shown for SHOW, else codec_str. */
static void
put_task_text(json_t *o, const char *key, const char *s,
    const struct codec_ctx *x)
{
	if (x->profile == CODEC_SHOW)
		codec_put_shown(o, key, s, s != NULL ? strlen(s) : 0);
	else
		json_object_set_new(o, key, codec_str(s));
}

json_t *
codec_task(const struct task *t, const struct codec_ctx *x, struct err *err)
{
	json_t *o = json_object(), *files;
	enum codec_profile p = x->profile;

	json_object_set_new(o, "id", codec_str(t->id));
	json_object_set_new(o, "benchmark", codec_str(t->benchmark));
	json_object_set_new(o, "domain", codec_str(t->domain));
	json_object_set_new(o, "env", codec_str(t->env));
	json_object_set_new(o, "env_params", t->env_params != NULL ?
	    codec_json_text(t->env_params) : json_object());
	/* the raw format writes what a task has; the others a fixed shape */
	if (p != CODEC_RAW || t->spec != NULL)
		put_task_text(o, "spec", t->spec, x);
	if (p != CODEC_RAW || t->interface != NULL)
		put_task_text(o, "interface", t->interface, x);
	switch (p) {
	case CODEC_RAW:
		if (t->source != NULL)
			put_task_text(o, "source", t->source, x);
		files = files_text(t, x, err);
		if (files == NULL) {
			json_decref(o);
			return NULL;
		}
		json_object_set_new(o, "files", files);
		merge_unknown(o, t->extra, NULL);
		break;
	case CODEC_DATASET:
		json_object_set_new(o, "files", files_ref(t));
		json_object_set_new(o, "source", codec_str(x->source));
		json_object_set_new(o, "license", codec_str(t->license));
		if (t->license_source != NULL)
			json_object_set_new(o, "license_source",
			    codec_str(t->license_source));
		if (t->split != NULL) {
			json_object_set_new(o, "split", codec_str(t->split));
			json_object_set_new(o, "split_by", json_string(
			    t->split_hand ? "hand" : "hash"));
		}
		{
			json_t *extra = t->extra != NULL ?
			    json_loads(t->extra, 0, NULL) : NULL;

			if (json_is_object(extra) &&
			    json_object_size(extra) > 0)
				json_object_set(o, "extra", extra);
			json_decref(extra);
		}
		break;
	case CODEC_SHOW:
	case CODEC_RESULT:
		put_task_text(o, "source", t->source, x);
		json_object_set_new(o, "files", files_shown(t));
		break;
	}
	return o;
}

/* --- candidates ------------------------------------------------------ */

int
codec_candidate_put(json_t *o, const struct candidate *c,
    const struct codec_ctx *x, struct err *err)
{
	char hex[SAMPLE_HASH_HEX];
	json_t *code, *extra, *gen;

	switch (x->profile) {
	case CODEC_RAW:
	case CODEC_DATASET:
		code = x->profile == CODEC_DATASET ? codec_str(x->code_file) :
		    json_stringn(c->code, c->code_len);
		if (code == NULL)
			return err_set(err, "candidate %s: code is not UTF-8"
			    " text; the raw format cannot carry it", c->id);
		json_object_set_new(o, "id", codec_str(c->id));
		if (x->profile == CODEC_DATASET)
			json_object_set_new(o, "task", codec_str(c->task_id));
		json_object_set_new(o, "origin", codec_str(c->origin));
		if (c->origin_raw != NULL)
			json_object_set_new(o, "origin_raw",
			    codec_str(c->origin_raw));
		json_object_set_new(o, "kind", codec_str(c->kind));
		json_object_set_new(o, "lang", codec_str(c->lang));
		json_object_set_new(o, "code", code);
		json_object_set_new(o, "parent", codec_str(c->parent));
		if (x->profile == CODEC_RAW) {
			json_object_set_new(o, "source", codec_str(c->source));
			merge_unknown(o, c->extra, "$row");
			break;
		}
		json_object_set_new(o, "source", codec_str(x->source));
		hash_sha256(c->code, c->code_len, hex);
		json_object_set_new(o, "code_sha256", json_string(hex));
		break;
	case CODEC_SHOW:
	case CODEC_RESULT:
		/* What produced a model's candidate (generate.h). */
		extra = c->extra != NULL ? json_loads(c->extra, 0, NULL) : NULL;
		gen = json_object_get(extra, "generation");
		if (gen != NULL)
			json_object_set(o, "generation", gen);
		/* an optimisation's measured gain (generate/optimize.h) */
		gen = json_object_get(extra, "optimization");
		if (gen != NULL)
			json_object_set(o, "optimization", gen);
		json_decref(extra);
		codec_put_shown(o, "code", c->code, c->code_len);
		json_object_set_new(o, "code_hash", json_string(c->code_hash));
		if (c->origin_raw != NULL)
			json_object_set_new(o, "origin_raw",
			    codec_str(c->origin_raw));
		break;
	}
	return 0;
}

void
codec_row_unknown(json_t *row, const struct candidate *c)
{
	json_t *extra = c->extra != NULL ? json_loads(c->extra, 0, NULL) : NULL;
	json_t *r = json_object_get(extra, "$row");
	const char *k;
	json_t *v;

	if (json_is_object(r))
		json_object_foreach(r, k, v)
			if (json_object_get(row, k) == NULL)
				json_object_set(row, k, v);
	json_decref(extra);
}

/* --- recorded results ------------------------------------------------ */

json_t *
codec_recorded(const struct recorded *r, const struct codec_ctx *x)
{
	json_t *o;

	if (x->profile == CODEC_RAW) {
		o = r->extra != NULL ? json_loads(r->extra, 0, NULL) : NULL;
		if (!json_is_object(o)) {
			json_decref(o);
			o = json_object();
		}
		if (r->verdict != NULL)
			json_object_set_new(o, "verdict", codec_str(r->verdict));
		if (r->stage != NULL)
			json_object_set_new(o, "stage", codec_str(r->stage));
		if (r->log != NULL)
			json_object_set_new(o, "log", codec_str(r->log));
		return o;
	}
	o = json_object();
	json_object_set_new(o, "verdict", codec_str(r->verdict));
	json_object_set_new(o, "stage", codec_str(r->stage));
	codec_put_shown(o, "log", r->log, r->log != NULL ? strlen(r->log) : 0);
	{
		json_t *raw = r->extra != NULL ? json_loads(r->extra, 0, NULL) :
		    NULL;

		json_object_set_new(o, "raw", raw != NULL ? raw : json_null());
	}
	return o;
}

/* --- runs ------------------------------------------------------------ */

static json_t *
diags_json(const struct run *r)
{
	json_t *a = json_array();

	for (size_t i = 0; i < r->ndiags; i++) {
		const struct diag *g = &r->diags[i];

		json_array_append_new(a, json_pack("{s:o, s:i, s:i, s:o, s:o,"
		    " s:i}", "file", codec_str(g->file), "line", g->line,
		    "col", g->col, "severity", codec_str(g->severity),
		    "message", codec_str(g->message), "cand_line",
		    g->cand_line));
	}
	return a;
}

static const char hexdig[] = "0123456789abcdef";

/* The fields of a run that are one member of the struct, by kind. */
enum run_kind { RK_STR, RK_INT, RK_INT64, RK_JSON };
static const struct run_member {
	const char	*name;
	enum run_kind	 kind;
	size_t		 off;
} run_members[] = {
	{ "id", RK_INT64, offsetof(struct run, id) },
	{ "candidate", RK_STR, offsetof(struct run, cand_id) },
	{ "env", RK_STR, offsetof(struct run, env) },
	{ "verdict", RK_STR, offsetof(struct run, verdict) },
	{ "stage", RK_STR, offsetof(struct run, stage) },
	{ "category", RK_STR, offsetof(struct run, category) },
	{ "subcategory", RK_STR, offsetof(struct run, subcategory) },
	{ "evidence", RK_STR, offsetof(struct run, evidence) },
	{ "evidence_line", RK_INT, offsetof(struct run, evidence_line) },
	{ "command", RK_STR, offsetof(struct run, command) },
	{ "toolchain", RK_STR, offsetof(struct run, toolchain) },
	{ "metrics", RK_JSON, offsetof(struct run, metrics) },
	{ "feedback", RK_JSON, offsetof(struct run, feedback) },
	{ "inputs", RK_JSON, offsetof(struct run, inputs) },
	{ "exit_code", RK_INT, offsetof(struct run, exit_code) },
	{ "started", RK_INT64, offsetof(struct run, started) },
	{ "wall_ms", RK_INT64, offsetof(struct run, wall_ms) },
};

/* One field of a run; NULL for a name that is not one. */
static json_t *
run_field(const struct run *r, const struct codec_ctx *x, const char *k)
{
	for (size_t i = 0; i < sizeof run_members / sizeof run_members[0];
	    i++) {
		const struct run_member *m = &run_members[i];
		const void *p = (const char *)r + m->off;

		if (strcmp(k, m->name) != 0)
			continue;
		switch (m->kind) {
		case RK_STR:
			return codec_str(*(char *const *)p);
		case RK_INT:
			return json_integer(*(const int *)p);
		case RK_INT64:
			return json_integer(*(const int64_t *)p);
		case RK_JSON:
			return codec_json_text(*(char *const *)p);
		}
	}
	/* what the line adds to the run */
	if (strcmp(k, "assay_run") == 0)
		return json_integer(CODEC_RESULT_VERSION);
	if (strcmp(k, "task") == 0)
		return codec_str(x->task_id);
	if (strcmp(k, "diagnostics") == 0)
		return diags_json(r);
	if (strcmp(k, "input_key") == 0)
		return json_string(r->input_key);
	if (strcmp(k, "timeout_s") == 0)
		return json_integer(x->timeout_s);
	if (strcmp(k, "stored") == 0)
		return json_boolean(x->stored);
	if (strcmp(k, "wave") == 0)	/* VCD is ASCII; NULL when none */
		return r->wave != NULL ? json_stringn(r->wave, r->wave_len) :
		    NULL;
	return NULL;
}

json_t *
codec_run(const struct run *r, const struct codec_ctx *x)
{
	static const char *const result[] = { "assay_run", "candidate",
		"task", "env", "verdict", "stage", "category", "subcategory",
		"evidence", "evidence_line", "diagnostics", "metrics",
		"feedback", "command", "toolchain", "input_key", "inputs",
		"timeout_s", "exit_code", "started", "wall_ms", "log", "wave",
		"stored", NULL };
	static const char *const show[] = { "id", "env", "verdict", "stage",
		"subcategory", "category", "evidence", "evidence_line",
		"metrics", "feedback", "toolchain", "inputs", "exit_code",
		"wall_ms", "started", "command", "diagnostics", "wave", NULL };
	static const char *const dataset[] = { "verdict", "stage",
		"subcategory", "metrics", "toolchain", "inputs", "env", NULL };
	const char *const *keys = x->profile == CODEC_RESULT ? result :
	    x->profile == CODEC_DATASET ? dataset : show;
	json_t *o = json_object();

	for (size_t i = 0; keys[i] != NULL; i++) {
		json_t *v;
		char *hex;

		if (strcmp(keys[i], "log") != 0) {
			put(o, keys[i], run_field(r, x, keys[i]));
			continue;
		}
		/* The result line carries the log's bytes: as text when
		 * they are UTF-8, else their hex. */
		v = json_stringn(r->log != NULL ? r->log : "", r->log_len);
		if (v != NULL) {
			json_object_set_new(o, "log", v);
			continue;
		}
		hex = xmalloc(r->log_len * 2 + 1);
		for (size_t k = 0; k < r->log_len; k++) {
			hex[2 * k] = hexdig[(unsigned char)r->log[k] >> 4];
			hex[2 * k + 1] = hexdig[(unsigned char)r->log[k] & 15];
		}
		hex[r->log_len * 2] = '\0';
		json_object_set_new(o, "log_hex", json_string(hex));
		free(hex);
	}
	return o;
}

/* --- the run result line, read back ---------------------------------- */

/* A string member or NULL; -1 when present and not a string or null. */
static int
get_str(json_t *o, const char *key, int need, char **out, struct err *err)
{
	json_t *v = json_object_get(o, key);

	*out = NULL;
	if (v == NULL || json_is_null(v)) {
		if (need)
			return err_set(err, "\"%s\" is missing", key);
		return 0;
	}
	if (!json_is_string(v))
		return err_set(err, "\"%s\" must be a string", key);
	*out = xstrndup(json_string_value(v), json_string_length(v));
	return 0;
}

static int
get_int(json_t *o, const char *key, int64_t *out, struct err *err)
{
	json_t *v = json_object_get(o, key);

	*out = 0;
	if (v == NULL || json_is_null(v))
		return 0;
	if (!json_is_integer(v))
		return err_set(err, "\"%s\" must be an integer", key);
	*out = json_integer_value(v);
	return 0;
}

/* metrics, inputs: an object back to its text; a string as it is. */
static int
get_obj(json_t *o, const char *key, char **out, struct err *err)
{
	json_t *v = json_object_get(o, key);

	*out = NULL;
	if (v == NULL || json_is_null(v))
		return 0;
	if (json_is_string(v)) {
		*out = xstrdup(json_string_value(v));
		return 0;
	}
	if (!json_is_object(v))
		return err_set(err, "\"%s\" must be an object", key);
	*out = json_dumps(v, JSON_COMPACT | JSON_PRESERVE_ORDER);
	return 0;
}

static int
hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

int
codec_run_parse(const char *line, size_t len, struct run *out,
    char **task_id, int *timeout_s, int *stored, struct err *err)
{
	json_error_t je;
	json_t *o, *v, *d;
	char *key = NULL;
	int64_t n;
	size_t i;
	int ok = 0;

	memset(out, 0, sizeof *out);
	*task_id = NULL;
	o = json_loadb(line, len, 0, &je);
	if (o == NULL)
		return err_set(err, "invalid JSON: %s", je.text);
	if (!json_is_object(o)) {
		json_decref(o);
		return err_set(err, "not a JSON object");
	}
	v = json_object_get(o, "assay_run");
	if (!json_is_integer(v)) {
		err_set(err, "not a run result (no \"assay_run\" version)");
		goto out;
	}
	if (json_integer_value(v) != CODEC_RESULT_VERSION) {
		err_set(err, "run result version %lld; this assay reads %d",
		    (long long)json_integer_value(v), CODEC_RESULT_VERSION);
		goto out;
	}
	if (get_str(o, "candidate", 1, &out->cand_id, err) < 0 ||
	    get_str(o, "task", 1, task_id, err) < 0 ||
	    get_str(o, "env", 1, &out->env, err) < 0 ||
	    get_str(o, "verdict", 1, &out->verdict, err) < 0 ||
	    get_str(o, "stage", 0, &out->stage, err) < 0 ||
	    get_str(o, "category", 0, &out->category, err) < 0 ||
	    get_str(o, "subcategory", 0, &out->subcategory, err) < 0 ||
	    get_str(o, "evidence", 0, &out->evidence, err) < 0 ||
	    get_str(o, "command", 0, &out->command, err) < 0 ||
	    get_str(o, "toolchain", 0, &out->toolchain, err) < 0 ||
	    get_str(o, "input_key", 0, &key, err) < 0 ||
	    get_obj(o, "metrics", &out->metrics, err) < 0 ||
	    get_obj(o, "feedback", &out->feedback, err) < 0 ||
	    get_obj(o, "inputs", &out->inputs, err) < 0)
		goto out;
	v = json_object_get(o, "wave");
	if (v != NULL && !json_is_null(v)) {
		if (!json_is_string(v)) {
			err_set(err, "\"wave\" is not a string");
			goto out;
		}
		out->wave_len = json_string_length(v);
		out->wave = xstrndup(json_string_value(v), out->wave_len);
	}
	if (verdict_from_name(out->verdict) == VERDICT_NONE) {
		err_set(err, "unknown verdict \"%s\"", out->verdict);
		goto out;
	}
	if (key != NULL && strlen(key) >= sizeof out->input_key) {
		err_set(err, "\"input_key\" is not a sha256");
		goto out;
	}
	snprintf(out->input_key, sizeof out->input_key, "%s",
	    key != NULL ? key : "");
	if (get_int(o, "evidence_line", &n, err) < 0)
		goto out;
	out->evidence_line = (int)n;
	if (get_int(o, "timeout_s", &n, err) < 0)
		goto out;
	*timeout_s = (int)n;
	if (get_int(o, "exit_code", &n, err) < 0)
		goto out;
	out->exit_code = (int)n;
	if (get_int(o, "started", &out->started, err) < 0 ||
	    get_int(o, "wall_ms", &out->wall_ms, err) < 0)
		goto out;
	v = json_object_get(o, "stored");
	*stored = v == NULL || json_is_true(v);
	v = json_object_get(o, "log");
	if (json_is_string(v)) {
		out->log_len = json_string_length(v);
		out->log = xstrndup(json_string_value(v), out->log_len);
	} else if (json_is_string(v = json_object_get(o, "log_hex"))) {
		const char *h = json_string_value(v);
		size_t hl = json_string_length(v);

		out->log = xmalloc(hl / 2 + 1);
		for (i = 0; i + 1 < hl; i += 2) {
			int a = hexval(h[i]), b = hexval(h[i + 1]);

			if (a < 0 || b < 0) {
				err_set(err, "\"log_hex\" is not hex");
				goto out;
			}
			out->log[i / 2] = (char)(a << 4 | b);
		}
		out->log_len = hl / 2;
		out->log[out->log_len] = '\0';
	} else {
		out->log = xstrdup("");
	}
	d = json_object_get(o, "diagnostics");
	if (d != NULL && !json_is_array(d) && !json_is_null(d)) {
		err_set(err, "\"diagnostics\" must be an array");
		goto out;
	}
	json_array_foreach(d, i, v) {
		const char *file = json_string_value(json_object_get(v, "file"));
		const char *sev = json_string_value(json_object_get(v,
		    "severity"));
		const char *msg = json_string_value(json_object_get(v,
		    "message"));

		run_add_diag(out, file != NULL ? file : "",
		    (int)json_integer_value(json_object_get(v, "line")),
		    (int)json_integer_value(json_object_get(v, "col")),
		    sev != NULL ? sev : "", msg != NULL ? msg : "",
		    (int)json_integer_value(json_object_get(v, "cand_line")));
	}
	ok = 1;
out:
	free(key);
	json_decref(o);
	if (!ok) {
		run_release(out);
		free(*task_id);
		*task_id = NULL;
		return -1;
	}
	return 0;
}

/* --- the assay JSONL read back ---------------------------------------- */

/* The fields the raw writers write, which the readers take as fields. */
static const char *const task_fields[] = { "id", "domain", "benchmark",
	"env", "env_params", "spec", "interface", "files", "reference",
	"source", NULL };
static const char *const cand_fields[] = { "id", "origin", "origin_raw",
	"kind", "lang", "code", "parent", "source", NULL };
static const char *const row_fields[] = { "task", "candidate", "recorded",
	"labels", "review", "notes", NULL };
static const char *const file_roles[] = { "testbench", "reference",
	"source", "data", NULL };

static int
listed(const char *const *list, const char *k)
{
	for (size_t i = 0; k != NULL && list[i] != NULL; i++)
		if (strcmp(list[i], k) == 0)
			return 1;
	return 0;
}

/* o's members that are not in known, as a new object. */
static json_t *
unknown_of(json_t *o, const char *const *known)
{
	json_t *u = json_object(), *v;
	const char *k;

	json_object_foreach(o, k, v)
		if (!listed(known, k))
			json_object_set(u, k, v);
	return u;
}

/* o[key] as a new string, or NULL when it is not a string. */
static char *
dup_of(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_string(v) ? xstrndup(json_string_value(v),
	    json_string_length(v)) : NULL;
}

static char *
dup_or(json_t *o, const char *key, const char *dflt)
{
	char *s = dup_of(o, key);

	return s != NULL ? s : xstrdup(dflt);
}

/* An object as its text, key order kept. */
static char *
text_of_json(json_t *o)
{
	return json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
}

static int
files_parse(struct task *t, json_t *files, const struct codec_ctx *x,
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
				return err_set(err, "a task file must be a"
				    " string");
			task_add_file(t, key, x->file_role(key, t->env),
			    json_string_value(v), json_string_length(v));
		}
		return 0;
	}
	if (!json_is_array(files))
		return err_set(err, "\"files\" must be an object of name ->"
		    " text, or an array of {\"name\", \"text\", \"role\"}");
	json_array_foreach(files, i, v) {
		const char *name = json_string_value(json_object_get(v,
		    "name"));
		const char *role = json_string_value(json_object_get(v,
		    "role"));
		json_t *text = json_object_get(v, "text");

		if (name == NULL || !json_is_string(text))
			return err_set(err, "a task file needs a \"name\" and"
			    " a \"text\" string");
		if (json_object_get(v, "role") != NULL &&
		    !listed(file_roles, role))
			return err_set(err, "a task file's \"role\" must be"
			    " testbench, reference, source or data");
		if (task_file_by_name(t, name) != NULL)
			return err_set(err, "two task files of one name");
		task_add_file(t, name, role != NULL ? role :
		    x->file_role(name, t->env), json_string_value(text),
		    json_string_length(text));
	}
	return 0;
}

/* task.json (CODEC_DATASET) read back, its files aside. */
static int
task_parse_dataset(json_t *o, struct task *out, struct err *err)
{
	json_t *v;

	out->id = dup_of(o, "id");
	out->benchmark = dup_of(o, "benchmark");
	out->domain = dup_of(o, "domain");
	out->env = dup_of(o, "env");
	if (out->id == NULL || out->env == NULL || out->domain == NULL ||
	    out->benchmark == NULL)
		return err_set(err, "a task needs \"id\", \"benchmark\","
		    " \"domain\" and \"env\"");
	v = json_object_get(o, "env_params");
	if (json_is_object(v))
		out->env_params = text_of_json(v);
	out->spec = dup_of(o, "spec");
	out->interface = dup_of(o, "interface");
	out->source = dup_of(o, "source");
	out->split = dup_of(o, "split");
	out->license = dup_of(o, "license");
	out->license_source = dup_of(o, "license_source");
	v = json_object_get(o, "split_by");
	out->split_hand = out->split != NULL && json_is_string(v) &&
	    strcmp(json_string_value(v), "hand") == 0;
	v = json_object_get(o, "extra");
	if (json_is_object(v))
		out->extra = text_of_json(v);
	return 0;
}

int
codec_task_parse(json_t *to, const struct codec_ctx *x, struct task *out,
    struct err *err)
{
	json_t *params = json_object_get(to, "env_params"), *u;

	memset(out, 0, sizeof *out);
	if (x->profile == CODEC_DATASET)
		return task_parse_dataset(to, out, err);
	out->id = dup_of(to, "id");
	if (out->id == NULL)
		return err_set(err, "task without an \"id\"");
	out->env = dup_of(to, "env");
	if (out->env == NULL)
		return err_set(err, "task without an \"env\"");
	out->benchmark = dup_or(to, "benchmark", "local");
	out->domain = dup_or(to, "domain", "chip");
	if (params != NULL && !json_is_object(params))
		return err_set(err, "\"env_params\" must be an object");
	if (params != NULL)
		out->env_params = text_of_json(params);
	out->spec = dup_of(to, "spec");
	out->interface = dup_of(to, "interface");
	out->source = dup_of(to, "source");
	if (files_parse(out, json_object_get(to, "files"), x, err) < 0)
		return -1;
	u = unknown_of(to, task_fields);
	if (json_object_size(u) > 0)
		out->extra = text_of_json(u);
	json_decref(u);
	return 0;
}

int
codec_candidate_parse(json_t *row, const struct codec_ctx *x,
    struct candidate *out, struct err *err)
{
	json_t *co = json_object_get(row, "candidate"), *u, *ru;

	memset(out, 0, sizeof *out);
	if (x->profile == CODEC_DATASET) {
		/* <id>.json; its code is in the file "code" names */
		out->id = dup_of(row, "id");
		out->task_id = dup_of(row, "task");
		out->origin = dup_of(row, "origin");
		out->kind = dup_of(row, "kind");
		out->lang = dup_of(row, "lang");
		if (out->id == NULL || out->task_id == NULL ||
		    out->origin == NULL || out->kind == NULL ||
		    out->lang == NULL || !json_is_string(json_object_get(row,
		    "code")))
			return err_set(err, "a sample needs \"id\", \"task\","
			    " \"origin\", \"kind\", \"lang\" and \"code\"");
		out->origin_raw = dup_of(row, "origin_raw");
		out->parent = dup_of(row, "parent");
		out->source = dup_of(row, "source");
		return 0;
	}
	if (!json_is_object(co) || !json_is_string(json_object_get(co,
	    "code")))
		return err_set(err, "\"candidate\" needs a \"code\" string");
	out->id = dup_of(co, "id");
	out->origin = dup_or(co, "origin", "unknown");
	out->kind = dup_or(co, "kind", "direct");
	if (cand_kind_from_name(out->kind) == KIND_NONE)
		return err_set(err, "\"kind\" must be direct, repair or"
		    " optimization");
	out->lang = dup_of(co, "lang");
	out->origin_raw = dup_of(co, "origin_raw");
	out->parent = dup_of(co, "parent");
	out->source = dup_of(co, "source");
	out->code = dup_of(co, "code");
	out->code_len = strlen(out->code);
	hash_sha256(out->code, out->code_len, out->code_hash);
	/* Unknown candidate fields, and unknown row fields under "$row",
	 * so that a round trip loses nothing. */
	u = unknown_of(co, cand_fields);
	ru = unknown_of(row, row_fields);
	if (json_object_size(ru) > 0)
		json_object_set(u, "$row", ru);
	if (json_object_size(u) > 0)
		out->extra = text_of_json(u);
	json_decref(u);
	json_decref(ru);
	return 0;
}

void
codec_recorded_parse(json_t *v, struct recorded *out)
{
	static const char *const tail[] = { "verdict", "stage", "log" };
	const char *keys[64], *k;
	size_t n = 0, last = 3;
	json_t *x;

	memset(out, 0, sizeof *out);
	out->verdict = dup_of(v, "verdict");
	out->stage = dup_of(v, "stage");
	out->log = dup_of(v, "log");
	/*
	 * The extra column holds the object without the verdict, stage and
	 * log its own columns hold, where codec_recorded puts them back in
	 * the same place (it sets the ones extra has where they are and
	 * adds the others last, in that order), so that the log is not
	 * stored twice and a round trip keeps the object byte for byte
	 * (docs/adr/0030).  Only string members at the end of the object,
	 * in that order, are left out.
	 */
	json_object_foreach(v, k, x) {
		if (n == sizeof keys / sizeof keys[0])
			break;
		keys[n++] = k;
	}
	if (n < json_object_size(v))
		n = 0;		/* too many members to look at: keep all */
	x = json_copy(v);
	while (n > 0) {
		size_t c = 0;

		while (c < last && strcmp(tail[c], keys[n - 1]) != 0)
			c++;
		if (c == last || !json_is_string(json_object_get(v,
		    keys[n - 1])))
			break;
		json_object_del(x, keys[--n]);
		last = c;
	}
	out->extra = text_of_json(x);
	json_decref(x);
}
