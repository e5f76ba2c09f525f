/*
 * results.c - run results as JSON lines; see results.h and
 * docs/formats.md.  JSON is built and read with jansson; files are
 * written beside their target and renamed when complete, as export.c
 * does for -o FILE.
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

static json_t *
jstr(const char *s)
{
	return s != NULL ? json_string(s) : json_null();
}

/* A JSON object stored as text (metrics, inputs): the object, else the
 * text as a string, else null. */
static json_t *
jobj(const char *txt)
{
	json_t *v;

	if (txt == NULL)
		return json_null();
	v = json_loads(txt, JSON_DECODE_ANY, NULL);
	return v != NULL ? v : json_string(txt);
}

static const char hexdig[] = "0123456789abcdef";

int
results_add(struct results *w, const struct run *r, const char *task_id,
    int timeout_s, int stored, struct err *err)
{
	json_t *o = json_object(), *d = json_array(), *log;
	char *txt;
	int rc = 0;

	for (size_t i = 0; i < r->ndiags; i++) {
		const struct diag *g = &r->diags[i];

		json_array_append_new(d, json_pack("{s:o, s:i, s:i, s:o, s:o,"
		    " s:i}", "file", jstr(g->file), "line", g->line, "col",
		    g->col, "severity", jstr(g->severity), "message",
		    jstr(g->message), "cand_line", g->cand_line));
	}
	json_object_set_new(o, "assay_run", json_integer(RESULTS_VERSION));
	json_object_set_new(o, "candidate", jstr(r->cand_id));
	json_object_set_new(o, "task", jstr(task_id));
	json_object_set_new(o, "env", jstr(r->env));
	json_object_set_new(o, "verdict", jstr(r->verdict));
	json_object_set_new(o, "stage", jstr(r->stage));
	json_object_set_new(o, "category", jstr(r->category));
	json_object_set_new(o, "subcategory", jstr(r->subcategory));
	json_object_set_new(o, "evidence", jstr(r->evidence));
	json_object_set_new(o, "evidence_line",
	    json_integer(r->evidence_line));
	json_object_set_new(o, "diagnostics", d);
	json_object_set_new(o, "metrics", jobj(r->metrics));
	json_object_set_new(o, "command", jstr(r->command));
	json_object_set_new(o, "toolchain", jstr(r->toolchain));
	json_object_set_new(o, "input_key", json_string(r->input_key));
	json_object_set_new(o, "inputs", jobj(r->inputs));
	json_object_set_new(o, "timeout_s", json_integer(timeout_s));
	json_object_set_new(o, "exit_code", json_integer(r->exit_code));
	json_object_set_new(o, "started", json_integer(r->started));
	json_object_set_new(o, "wall_ms", json_integer(r->wall_ms));
	log = json_stringn(r->log != NULL ? r->log : "", r->log_len);
	if (log != NULL) {
		json_object_set_new(o, "log", log);
	} else {
		/* Not UTF-8: JSON text cannot carry it, hex can. */
		char *hex = xmalloc(r->log_len * 2 + 1);

		for (size_t i = 0; i < r->log_len; i++) {
			hex[2 * i] = hexdig[(unsigned char)r->log[i] >> 4];
			hex[2 * i + 1] = hexdig[(unsigned char)r->log[i] & 15];
		}
		hex[r->log_len * 2] = '\0';
		json_object_set_new(o, "log_hex", json_string(hex));
		free(hex);
	}
	json_object_set_new(o, "stored", json_boolean(stored));
	txt = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
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

static const char *const verdicts[] = {
	"pass", "fail", "timeout", "skipped", "env-error", "task-defect"
};

int
results_parse(const char *line, size_t len, struct run *out, char **task_id,
    int *timeout_s, int *stored, struct err *err)
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
	if (json_integer_value(v) != RESULTS_VERSION) {
		err_set(err, "run result version %lld; this assay reads %d",
		    (long long)json_integer_value(v), RESULTS_VERSION);
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
	    get_obj(o, "inputs", &out->inputs, err) < 0)
		goto out;
	for (i = 0; i < sizeof verdicts / sizeof verdicts[0]; i++)
		if (strcmp(out->verdict, verdicts[i]) == 0)
			break;
	if (i == sizeof verdicts / sizeof verdicts[0]) {
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
