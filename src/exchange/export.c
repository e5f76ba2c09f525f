/*
 * export.c - raw and SFT JSONL out of the store; see export.h and
 * docs/formats.md.  Rows come from store_query_each in import order, and
 * each candidate, its task, runs and decisions are read one at a time,
 * so memory holds one sample plus the set of task ids already written.
 * A task, candidate and recorded result are written by the codec
 * (model/codec.h, CODEC_RAW); lines go through the caller's callback.
 */
#include "exchange/export.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "base/atomic.h"
#include "base/buf.h"
#include "base/textsafe.h"
#include "base/hash.h"
#include "exchange/import.h"
#include "model/codec.h"
#include "model/feedback.h"
#include "model/sample.h"
#include "base/strset.h"
#include "model/vocab.h"

/* How much of a failed run's log a repair sample quotes. */
#define EXPORT_LOG_LINES	40
#define EXPORT_LOG_BYTES	3000
#define EXPORT_DIAGS		20
/* A parent chain longer than this is a cycle, not a repair history. */
#define EXPORT_DEPTH_MAX	1000

/* --- the export state ------------------------------------------------ */

/* One export in progress; the strsets are its only growing state. */
struct export_ctx {
	struct store		*st;
	const struct export_opts *opts;
	char			*filter;	/* or NULL */
	export_write_fn		 write;
	void			*arg;
	struct export_report	*rep;
	struct err		*err;
	struct strset		 tasks;		/* raw: written */
	struct strset		 parents;	/* raw: off-filter */
	struct export_line	 line;		/* what the next line is */
	int			 failed;
};

int
export_format_parse(const char *name, enum export_format *out,
    struct err *err)
{
	if (strcmp(name, "sft") == 0)
		*out = EXPORT_SFT;
	else if (strcmp(name, "raw") == 0)
		*out = EXPORT_RAW;
	else
		return err_set(err, "unknown export format '%s' (known: sft"
		    " raw)", name);
	return 0;
}

/* Does the filter text hold a predicate on key of its own? */
static int
has_key(const char *where, const char *key)
{
	const char *p = where;
	size_t n = strlen(key);

	while (p != NULL && *p != '\0') {
		p += strspn(p, " \t");
		if (strncmp(p, key, n) == 0 && (p[n] == '=' ||
		    p[n] == '~' || (p[n] == '!' && p[n + 1] == '=')))
			return 1;
		p += strcspn(p, " \t");
	}
	return 0;
}

static int
has_status(const char *where)
{
	return has_key(where, "status");
}

char *
export_filter(enum export_format format, const char *where)
{
	int empty = where == NULL || where[strspn(where, " \t")] == '\0';

	if (format == EXPORT_SFT && !has_status(where))
		return empty ? xstrdup("status=accepted") :
		    xasprintf("status=accepted %s", where);
	return empty ? NULL : xstrdup(where);
}

/* --- JSON helpers ---------------------------------------------------- */

/* The JSON text txt as a value; NULL when txt is NULL or not JSON. */
static json_t *
jparse(const char *txt)
{
	return txt != NULL ? json_loads(txt, 0, NULL) : NULL;
}

/* Write o as one line and count it; consumes o. */
static int
emit(struct export_ctx *x, json_t *o)
{
	char *s = json_dumps(o, JSON_COMPACT);
	size_t len;
	int rc;

	if (s == NULL) {
		json_decref(o);
		return err_set(x->err, "cannot encode a line as JSON");
	}
	len = strlen(s);
	s[len] = '\n';		/* json_dumps's NUL becomes the newline */
	x->line.row = o;
	rc = x->write(s, len + 1, &x->line, x->arg, x->err);
	x->line.row = NULL;
	json_decref(o);
	free(s);
	if (rc < 0)
		return -1;
	x->rep->lines++;
	return 0;
}

/* Labels up to the current one (the history that made it current),
 * oldest first, as JSON objects.  NULL and err on failure. */
static json_t *
labels_json(struct export_ctx *x, const char *cand_id, int stable)
{
	struct store_label *l;
	size_t n, upto = 0;
	json_t *a;

	if (store_label_list(x->st, cand_id, &l, &n, x->err) < 0)
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (l[i].current)
			upto = i + 1;
	a = json_array();
	for (size_t i = 0; i < upto; i++) {
		json_t *o = json_pack("{s:s}", "category", l[i].category);
		int final;

		if (store_label_is_final(x->st, cand_id, l[i].id, &final,
		    x->err) < 0) {
			json_decref(o);
			json_decref(a);
			a = NULL;
			break;
		}
		/* raw: the keys that have a value (the round trip gives
		 * the same bytes); sft: every key, null when absent */
		if (l[i].subcategory != NULL || stable)
			json_object_set_new(o, "subcategory",
			    codec_str(l[i].subcategory));
		if (l[i].note != NULL || stable)
			json_object_set_new(o, "note", l[i].note != NULL ?
			    codec_text(l[i].note, strlen(l[i].note)) :
			    json_null());
		if (l[i].evidence != NULL || stable)
			json_object_set_new(o, "evidence", l[i].evidence !=
			    NULL ? codec_text(l[i].evidence,
			    strlen(l[i].evidence)) : json_null());
		/* a label that settled a disagreement, not a vote */
		if (final || stable)
			json_object_set_new(o, "final", json_boolean(final));
		json_object_set_new(o, "by", codec_str(l[i].by));
		json_object_set_new(o, "at", json_integer(l[i].at));
		json_array_append_new(a, o);
	}
	for (size_t i = 0; i < n; i++)
		store_label_release(&l[i]);
	free(l);
	return a;
}

/* The free notes of a candidate, oldest first; NULL and err on failure. */
static json_t *
notes_json(struct export_ctx *x, const char *cand_id)
{
	struct store_note *nt;
	size_t n;
	json_t *a;

	if (store_note_list(x->st, cand_id, &nt, &n, x->err) < 0)
		return NULL;
	a = json_array();
	for (size_t i = 0; i < n; i++) {
		json_array_append_new(a, json_pack("{s:o, s:o, s:I}", "text",
		    codec_text(nt[i].text, strlen(nt[i].text)), "by",
		    codec_str(nt[i].by), "at", (json_int_t)nt[i].at));
		store_note_release(&nt[i]);
	}
	free(nt);
	return a;
}

/* --- raw ------------------------------------------------------------- */

/* The codec of the raw format: files by text, roles by their names. */
static const struct codec_ctx raw_codec = { .profile = CODEC_RAW,
	.file_role = import_file_role };

static int raw_one(struct export_ctx *, const char *, int);

/*
 * Make sure the parent of a row is in the file before it: a parent that
 * matches the filter was written earlier (import order puts it first);
 * one that does not is written now, once.
 */
static int
raw_parent(struct export_ctx *x, const char *parent, int depth)
{
	char *f;
	size_t n;
	int rc;

	if (x->filter == NULL || strset_has(&x->parents, parent))
		return 0;
	f = xasprintf("%s id=%s", x->filter, parent);
	rc = store_query_count(x->st, f, &n, x->err);
	free(f);
	if (rc < 0)
		return -1;
	if (n > 0)
		return 0;
	strset_add(&x->parents, parent);
	x->rep->parents++;
	return raw_one(x, parent, depth + 1);
}

static int
raw_one(struct export_ctx *x, const char *id, int depth)
{
	struct candidate c;
	struct task t;
	struct recorded *recs = NULL;
	struct store_decision d;
	size_t nrec = 0;
	json_t *row = NULL, *co, *a;
	int rc = -1, found, have_d = 0;

	if (depth > EXPORT_DEPTH_MAX)
		return err_set(x->err, "candidate %s: parent chain deeper than"
		    " %d (a cycle?)", id, EXPORT_DEPTH_MAX);
	found = store_candidate_get(x->st, id, &c, x->err);
	if (found != 0)
		return found < 0 ? -1 : err_set(x->err, "no candidate %s", id);
	if (c.parent != NULL && raw_parent(x, c.parent, depth) < 0)
		goto out;
	row = json_object();
	if (strset_has(&x->tasks, c.task_id)) {
		json_object_set_new(row, "task", json_string(c.task_id));
	} else {
		json_t *to;

		found = store_task_get(x->st, c.task_id, &t, x->err);
		if (found != 0) {
			if (found > 0)
				err_set(x->err, "candidate %s: no task %s",
				    c.id, c.task_id);
			goto out;
		}
		to = codec_task(&t, &raw_codec, x->err);
		task_release(&t);
		if (to == NULL)
			goto out;
		json_object_set_new(row, "task", to);
		strset_add(&x->tasks, c.task_id);
		x->rep->tasks++;
	}
	co = json_object();
	if (codec_candidate_put(co, &c, &raw_codec, x->err) < 0) {
		json_decref(co);
		goto out;
	}
	json_object_set_new(row, "candidate", co);

	if (store_recorded_list(x->st, c.id, &recs, &nrec, x->err) < 0)
		goto out;
	if (nrec > 0) {
		a = json_array();
		for (size_t i = 0; i < nrec; i++)
			json_array_append_new(a, codec_recorded(&recs[i],
			    &raw_codec));
		json_object_set_new(row, "recorded", a);
	}
	a = labels_json(x, c.id, 0);
	if (a == NULL)
		goto out;
	if (json_array_size(a) > 0)
		json_object_set_new(row, "labels", a);
	else
		json_decref(a);
	if (store_decision_get(x->st, c.id, &d, x->err) < 0)
		goto out;
	have_d = 1;
	if (d.review_by != NULL) {
		json_t *rv = json_pack("{s:s}", "status", d.status);

		if (d.review_note != NULL)
			json_object_set_new(rv, "note", codec_text(d.review_note,
			    strlen(d.review_note)));
		json_object_set_new(rv, "by", json_string(d.review_by));
		json_object_set_new(rv, "at", json_integer(d.review_at));
		json_object_set_new(row, "review", rv);
	}
	a = notes_json(x, c.id);
	if (a == NULL)
		goto out;
	if (json_array_size(a) > 0)
		json_object_set_new(row, "notes", a);
	else
		json_decref(a);
	codec_row_unknown(row, &c);
	rc = emit(x, row);
	row = NULL;
out:
	json_decref(row);
	for (size_t i = 0; i < nrec; i++)
		recorded_release(&recs[i]);
	free(recs);
	if (have_d)
		store_decision_release(&d);
	candidate_release(&c);
	return rc;
}

/* A task with no candidate: a line with the task object alone. */
static int
raw_empty_task(const char *task_id, void *arg)
{
	struct export_ctx *x = arg;
	struct task t;
	json_t *to;
	int found;

	if (x->opts->cancel != NULL && *x->opts->cancel) {
		err_set(x->err, "interrupted");
		x->failed = 1;
		return 1;
	}
	if (x->opts->nshards > 1 &&
	    export_shard_of(task_id, x->opts->nshards) != x->opts->shard)
		return 0;
	found = store_task_get(x->st, task_id, &t, x->err);
	if (found != 0) {
		if (found > 0)
			err_set(x->err, "no task %s", task_id);
		x->failed = 1;
		return 1;
	}
	to = codec_task(&t, &raw_codec, x->err);
	task_release(&t);
	if (to == NULL || emit(x, json_pack("{s:o}", "task", to)) < 0) {
		x->failed = 1;
		return 1;
	}
	x->rep->tasks++;
	x->rep->empty++;
	return 0;
}

/* --- sft ------------------------------------------------------------- */

static const char *
domain_words(const char *domain)
{
	static const struct { const char *domain, *words; } map[] = {
		{ "chip", "digital hardware design" },
		{ "gpu", "GPU kernel" },
		{ "embedded", "embedded firmware" },
		{ "compiler", "x86-64 assembly optimisation" },
		{ "3d", "parametric CAD modelling" },
	};

	for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
		if (domain != NULL && strcmp(domain, map[i].domain) == 0)
			return map[i].words;
	return "software";
}

static void
add_msg(json_t *msgs, const char *role, json_t *content)
{
	json_array_append_new(msgs, json_pack("{s:s, s:o}", "role", role,
	    "content", content));
}

/* The requirement: spec, then the interface.  New string. */
static char *
requirement(const struct task *t)
{
	struct buf b = BUF_INIT;

	if (t->spec != NULL && *t->spec != '\0')
		buf_adds(&b, t->spec);
	if (t->interface != NULL && *t->interface != '\0') {
		if (b.len > 0)
			buf_adds(&b, b.p[b.len - 1] == '\n' ? "\n" : "\n\n");
		buf_printf(&b, "Interface:\n%s", t->interface);
	}
	if (b.len == 0)
		buf_printf(&b, "Implement task %s.", t->id);
	return buf_detach(&b, NULL);
}

/* The first lines of a log, cut at EXPORT_LOG_LINES / EXPORT_LOG_BYTES. */
static void
log_excerpt(struct buf *b, const char *log, size_t len)
{
	size_t n = 0, lines = 0;

	while (n < len && n < EXPORT_LOG_BYTES && lines < EXPORT_LOG_LINES)
		if (log[n++] == '\n')
			lines++;
	safe_utf8(b, log, n);
	if (n > 0 && log[n - 1] != '\n')
		buf_addc(b, '\n');
	if (n < len)
		buf_printf(b, "[... %zu more bytes]\n", len - n);
}

/* A run's metrics as "name value" pairs, for the feedback. */
static void
metrics_words(struct buf *b, const char *metrics)
{
	json_t *m = jparse(metrics);
	const char *k;
	json_t *v;
	int n = 0;

	if (!json_is_object(m)) {
		json_decref(m);
		return;
	}
	json_object_foreach(m, k, v) {
		if (json_is_integer(v))
			buf_printf(b, "%s%s %lld", n++ ? ", " : "Measured: ",
			    k, (long long)json_integer_value(v));
		else if (json_is_real(v))
			buf_printf(b, "%s%s %.4g", n++ ? ", " : "Measured: ",
			    k, json_real_value(v));
		else if (json_is_string(v))
			buf_printf(b, "%s%s %s", n++ ? ", " : "Measured: ",
			    k, json_string_value(v));
		else if (json_is_boolean(v))
			buf_printf(b, "%s%s %s", n++ ? ", " : "Measured: ",
			    k, json_is_true(v) ? "true" : "false");
	}
	if (n > 0)
		buf_adds(b, ".\n");
	json_decref(m);
}

/*
 * The toolchain feedback on a failed candidate: its latest run (verdict,
 * evidence and the candidate line it points to, what the env measured
 * (mismatches of how many samples, speedup ...), diagnostics with lines,
 * a log excerpt), else what its importer recorded.  *source says which:
 * "run", "recorded" or "none".  New string, or NULL with err.
 */
static char *
feedback(struct export_ctx *x, const char *parent, const char **source)
{
	struct buf b = BUF_INIT;
	struct run r;
	struct recorded *recs;
	size_t nrec;
	int have = store_run_latest(x->st, parent, &r, x->err);

	if (have < 0)
		return NULL;
	if (have == 0) {
		*source = "run";
		buf_printf(&b, "The toolchain%s%s%s says: %s", r.toolchain !=
		    NULL ? " (" : "", r.toolchain != NULL ? r.toolchain : "",
		    r.toolchain != NULL ? ")" : "", r.verdict);
		if (r.stage != NULL)
			buf_printf(&b, " at stage %s", r.stage);
		if (r.subcategory != NULL)
			buf_printf(&b, " (%s)", r.subcategory);
		buf_adds(&b, ".\n");
		if (r.evidence != NULL) {
			buf_printf(&b, "Evidence: %s\n", r.evidence);
			if (r.evidence_line > 0)
				buf_printf(&b, "It points at line %d of the"
				    " code.\n", r.evidence_line);
		}
		metrics_words(&b, r.metrics);
		feedback_words(&b, r.feedback);
		if (r.ndiags > 0)
			buf_adds(&b, "Diagnostics:\n");
		for (size_t i = 0; i < r.ndiags && i < EXPORT_DIAGS; i++) {
			const struct diag *dg = &r.diags[i];

			if (dg->cand_line > 0)
				buf_printf(&b, "- line %d", dg->cand_line);
			else
				buf_printf(&b, "- %s:%d", dg->file != NULL ?
				    dg->file : "?", dg->line);
			if (dg->col > 0)
				buf_printf(&b, ", column %d", dg->col);
			buf_printf(&b, ": %s: %s\n", dg->severity != NULL ?
			    dg->severity : "error", dg->message != NULL ?
			    dg->message : "");
		}
		if (r.ndiags > EXPORT_DIAGS)
			buf_printf(&b, "- ... %zu more\n",
			    r.ndiags - EXPORT_DIAGS);
		if (r.log != NULL && r.log_len > 0) {
			buf_adds(&b, "Log excerpt:\n");
			log_excerpt(&b, r.log, r.log_len);
		}
		run_release(&r);
	} else {
		if (store_recorded_list(x->st, parent, &recs, &nrec,
		    x->err) < 0)
			return NULL;
		if (nrec > 0 && (recs[0].verdict != NULL ||
		    recs[0].log != NULL)) {
			*source = "recorded";
			buf_printf(&b, "The toolchain says: %s",
			    recs[0].verdict != NULL ? recs[0].verdict : "fail");
			if (recs[0].stage != NULL)
				buf_printf(&b, " at stage %s", recs[0].stage);
			buf_adds(&b, ".\n");
			if (recs[0].log != NULL && *recs[0].log != '\0') {
				buf_adds(&b, "Log excerpt:\n");
				log_excerpt(&b, recs[0].log,
				    strlen(recs[0].log));
			}
		} else {
			*source = "none";
			buf_adds(&b, "The code above does not meet the"
			    " requirement.\n");
		}
		for (size_t i = 0; i < nrec; i++)
			recorded_release(&recs[i]);
		free(recs);
	}
	buf_adds(&b, "Fix the code and answer with the complete corrected"
	    " code only.");
	return buf_detach(&b, NULL);
}

/*
 * Where a task comes from: its licence and the file it was read from,
 * its source (URL@COMMIT:path where known, else the file), and the
 * sha256 of every verification file.
 */
static json_t *
provenance_json(const struct task *t)
{
	json_t *files = json_array();
	char hex[SAMPLE_HASH_HEX];

	/* a list of {name, sha256}: file names as keys would make every
	 * task's files a column type of its own */
	for (size_t i = 0; i < t->nfiles; i++) {
		hash_sha256(t->files[i].data, t->files[i].len, hex);
		json_array_append_new(files, json_pack("{s:o, s:s}", "name",
		    codec_str(t->files[i].name), "sha256", hex));
	}
	return json_pack("{s:o, s:o, s:o, s:o}", "license",
	    codec_str(t->license), "license_source",
	    codec_str(t->license_source), "source",
	    codec_str(t->source), "files", files);
}

/* Does env (a name or a pipeline "a+b") judge speed? */
static int
env_judges_speed(const char *env)
{
	static const char *const speed[] = { "triton", "x86-asm" };
	const char *p = env;

	while (p != NULL && *p != '\0') {
		size_t n = strcspn(p, "+");

		for (size_t i = 0; i < sizeof speed / sizeof speed[0]; i++)
			if (strlen(speed[i]) == n &&
			    strncmp(p, speed[i], n) == 0)
				return 1;
		p += n + (p[n] == '+');
	}
	return 0;
}

int
export_verified(const char *kind, const char *env, const char *verdict,
    const char *metrics, double *speedup)
{
	static const char *const keys[] = { "speedup", "time_ratio",
	    "ir_ratio" };
	json_t *m;
	int ok = 0;

	if (speedup != NULL)
		*speedup = 0;
	if (!verdict_is(verdict, VERDICT_PASS))
		return 0;
	if (cand_kind_from_name(kind) != KIND_OPTIMIZATION &&
	    !env_judges_speed(env))
		return 1;
	m = jparse(metrics);
	for (size_t i = 0; i < sizeof keys / sizeof keys[0] && !ok; i++) {
		json_t *v = json_object_get(m, keys[i]);

		if (json_is_number(v) && json_number_value(v) > 0) {
			ok = 1;
			if (speedup != NULL)
				*speedup = json_number_value(v);
		}
	}
	json_decref(m);
	return ok;
}

int
export_gain(const char *kind, const char *extra, double *ratio, json_t **gain)
{
	json_t *x, *g, *r;
	int counts = -1;

	*ratio = 0;
	if (gain != NULL)
		*gain = NULL;
	if (cand_kind_from_name(kind) != KIND_OPTIMIZATION)
		return -1;
	x = jparse(extra);
	g = json_object_get(x, "optimization");
	if (json_is_object(g)) {
		counts = json_is_true(json_object_get(g, "counts"));
		r = json_object_get(g, "ratio");
		*ratio = json_is_number(r) ? json_number_value(r) : 0;
		if (gain != NULL)
			*gain = json_incref(g);
	}
	json_decref(x);
	return counts;
}

int
export_trajectory_parse(const char *name, enum export_trajectory *out,
    struct err *err)
{
	if (strcmp(name, "whole") == 0)
		*out = EXPORT_TRAJ_WHOLE;
	else if (strcmp(name, "last") == 0)
		*out = EXPORT_TRAJ_LAST;
	else
		return err_set(err, "unknown trajectory '%s' (known: whole"
		    " last)", name);
	return 0;
}

/* An assistant turn with its weight (1: the turn to learn). */
static void
add_turn(json_t *msgs, const struct candidate *c, int weight)
{
	json_array_append_new(msgs, json_pack("{s:s, s:o, s:i}", "role",
	    "assistant", "content", codec_text(c->code, c->code_len),
	    "weight", weight));
}

/* The entry of meta.turns for an assistant turn at index message. */
static json_t *
turn_json(size_t message, const struct candidate *c, const char *verdict,
    int target)
{
	return json_pack("{s:I, s:s, s:s, s:o, s:b}", "message",
	    (json_int_t)message, "candidate", c->id, "origin", c->origin,
	    "verdict", codec_str(verdict), "target", target);
}

/* The verdict of a candidate's latest run, a new string or NULL. */
static int
latest_verdict(struct export_ctx *x, const char *id, char **verdict)
{
	struct run r;
	int have = store_run_latest(x->st, id, &r, x->err);

	*verdict = NULL;
	if (have < 0)
		return -1;
	if (have == 0) {
		*verdict = xstrdup(r.verdict);
		run_release(&r);
	}
	return 0;
}

/*
 * The failed turns before a repair c, oldest first: its parent and, for
 * a whole trajectory, the parent's own parents while they are repairs.
 * *chain is a new array of *n candidates (release each, free it).
 * 0 or -1 with err.
 */
static int
repair_chain(struct export_ctx *x, const struct candidate *c,
    struct candidate **chain, size_t *n)
{
	struct candidate *v = NULL;
	size_t k = 0;
	const char *next = c->parent;
	int found;

	*chain = NULL;
	*n = 0;
	while (next != NULL) {
		if (k >= EXPORT_DEPTH_MAX) {
			err_set(x->err, "candidate %s: repair chain longer"
			    " than %d (a cycle?)", c->id, EXPORT_DEPTH_MAX);
			goto fail;
		}
		v = xreallocarray(v, k + 1, sizeof *v);
		found = store_candidate_get(x->st, next, &v[k], x->err);
		if (found < 0)
			goto fail;
		if (found > 0)
			break;		/* a parent not in the store: stop */
		k++;
		if (x->opts->trajectory == EXPORT_TRAJ_LAST ||
		    cand_kind_from_name(v[k - 1].kind) != KIND_REPAIR)
			break;
		next = v[k - 1].parent;
	}
	/* oldest first */
	for (size_t i = 0; i < k / 2; i++) {
		struct candidate t = v[i];

		v[i] = v[k - 1 - i];
		v[k - 1 - i] = t;
	}
	*chain = v;
	*n = k;
	return 0;
fail:
	for (size_t i = 0; i < k; i++)
		candidate_release(&v[i]);
	free(v);
	return -1;
}

int
export_messages_check(const json_t *msgs, char *why, size_t n)
{
	size_t i = 0, len = json_array_size(msgs);
	const char *want = "user";

	if (len > 0 && strcmp(json_string_value(json_object_get(
	    json_array_get(msgs, 0), "role")), "system") == 0)
		i = 1;
	for (; i < len; i++) {
		const char *role = json_string_value(json_object_get(
		    json_array_get(msgs, i), "role"));

		if (role == NULL || strcmp(role, want) != 0) {
			snprintf(why, n, "message %zu is %s, want %s", i,
			    role != NULL ? role : "(none)", want);
			return -1;
		}
		want = strcmp(want, "user") == 0 ? "assistant" : "user";
	}
	if (strcmp(want, "user") != 0 || len == 0) {
		snprintf(why, n, "the messages do not end with an assistant"
		    " turn");
		return -1;
	}
	return 0;
}

/* meta.gain: an optimisation's gain record (extra.optimization) in the
 * one shape every row has (card.c), or null.  New reference. */
static json_t *
gain_json(const json_t *g)
{
	static const char *const num[] = { "before", "after", "ratio",
	    "threshold" };
	json_t *o;

	if (!json_is_object(g))
		return json_null();
	o = json_object();
	json_object_set_new(o, "metric", codec_str(json_string_value(
	    json_object_get(g, "metric"))));
	json_object_set_new(o, "measured", codec_str(json_string_value(
	    json_object_get(g, "measured"))));
	for (size_t i = 0; i < sizeof num / sizeof num[0]; i++) {
		json_t *v = json_object_get(g, num[i]);

		json_object_set_new(o, num[i], json_is_number(v) ?
		    json_real(json_number_value(v)) : json_null());
	}
	json_object_set_new(o, "counts", json_boolean(json_is_true(
	    json_object_get(g, "counts"))));
	return o;
}

static int
sft_one(struct export_ctx *x, const struct store_row *row)
{
	struct candidate c, p, *chain = NULL;
	struct task t;
	struct run r;
	struct store_decision d;
	json_t *msgs = json_array(), *meta, *labels, *turns = NULL, *o;
	char *req = NULL, *sys = NULL, *fb = NULL, why[128];
	const char *fb_source = NULL;
	size_t nchain = 0;
	double speedup = 0, ratio;
	int rc = -1, found, have_p = 0, have_t = 0, have_d = 0, have_r = 1;
	int verified, counts;
	json_t *gain = NULL;

	found = store_candidate_get(x->st, row->id, &c, x->err);
	if (found != 0) {
		json_decref(msgs);
		return found < 0 ? -1 : err_set(x->err, "no candidate %s",
		    row->id);
	}
	found = store_task_get(x->st, c.task_id, &t, x->err);
	if (found != 0) {
		if (found > 0)
			err_set(x->err, "candidate %s: no task %s", c.id,
			    c.task_id);
		goto out;
	}
	have_t = 1;
	have_r = store_run_latest(x->st, c.id, &r, x->err);
	if (have_r < 0)
		goto out;
	verified = have_r == 0 && export_verified(c.kind, t.env, r.verdict,
	    r.metrics, &speedup);
	/* an optimisation of a parent: its measured gain decides */
	counts = export_gain(c.kind, c.extra, &ratio, &gain);
	if (counts >= 0) {
		verified = have_r == 0 && verdict_is(r.verdict, VERDICT_PASS) &&
		    counts;
		speedup = ratio;
	}
	if (!verified && !x->opts->include_failing) {
		x->rep->unverified++;
		rc = 0;
		goto out;
	}
	if (c.parent != NULL && cand_kind_from_name(c.kind) == KIND_REPAIR) {
		if (repair_chain(x, &c, &chain, &nchain) < 0)
			goto out;
	} else if (c.parent != NULL &&
	    cand_kind_from_name(c.kind) != KIND_DIRECT) {
		found = store_candidate_get(x->st, c.parent, &p, x->err);
		if (found < 0)
			goto out;
		have_p = found == 0;
	}
	sys = export_system_prompt(&t, c.lang);
	req = requirement(&t);
	add_msg(msgs, "system", json_string(sys));
	turns = json_array();
	if (nchain > 0) {
		/* failed -> feedback -> ... -> the repair: the target */
		add_msg(msgs, "user", codec_text(req, strlen(req)));
		for (size_t i = 0; i < nchain; i++) {
			char *v;

			if (latest_verdict(x, chain[i].id, &v) < 0)
				goto out;
			json_array_append_new(turns, turn_json(
			    json_array_size(msgs), &chain[i], v, 0));
			free(v);
			add_turn(msgs, &chain[i], 0);
			free(fb);
			fb = feedback(x, chain[i].id, &fb_source);
			if (fb == NULL)
				goto out;
			add_msg(msgs, "user", codec_text(fb, strlen(fb)));
		}
	} else if (have_p) {
		struct buf b = BUF_INIT;
		/* what optimize measured: a smaller design, fewer
		 * registers; "faster" where nothing says */
		const char *goal = json_string_value(json_object_get(gain,
		    "goal"));

		buf_printf(&b, "%s\n\nA correct implementation:\n%s%s\n"
		    "Write a %s implementation with the same behaviour."
		    " Answer with the complete code only.", req, p.code,
		    p.code_len > 0 && p.code[p.code_len - 1] == '\n' ? "" :
		    "\n", goal != NULL ? goal : "faster");
		add_msg(msgs, "user", codec_text(b.p, b.len));
		buf_release(&b);
	} else {
		add_msg(msgs, "user", codec_text(req, strlen(req)));
	}
	json_array_append_new(turns, turn_json(json_array_size(msgs), &c,
	    have_r == 0 ? r.verdict : NULL, 1));
	add_turn(msgs, &c, 1);
	if (export_messages_check(msgs, why, sizeof why) < 0) {
		err_set(x->err, "candidate %s: %s", c.id, why);
		goto out;
	}

	if (store_decision_get(x->st, c.id, &d, x->err) < 0)
		goto out;
	have_d = 1;
	labels = labels_json(x, c.id, 1);
	if (labels == NULL)
		goto out;
	meta = json_object();
	json_object_set_new(meta, "task", json_string(t.id));
	json_object_set_new(meta, "benchmark", json_string(t.benchmark));
	json_object_set_new(meta, "domain", json_string(t.domain));
	json_object_set_new(meta, "env", json_string(t.env));
	json_object_set_new(meta, "toolchain", codec_str(have_r == 0 ?
	    r.toolchain : NULL));
	json_object_set_new(meta, "verdict", codec_str(have_r == 0 ?
	    r.verdict : NULL));
	json_object_set_new(meta, "verified", json_boolean(verified));
	json_object_set_new(meta, "speedup", speedup > 0 ?
	    json_real(speedup) : json_null());

	json_object_set_new(meta, "split", codec_str(t.split));
	json_object_set_new(meta, "license", codec_str(t.license));
	json_object_set_new(meta, "provenance", provenance_json(&t));
	json_object_set_new(meta, "labels", labels);
	json_object_set_new(meta, "reviewer", codec_str(d.review_by));
	json_object_set_new(meta, "status", json_string(d.status));
	json_object_set_new(meta, "candidate", json_string(c.id));
	json_object_set_new(meta, "parent", codec_str(c.parent != NULL &&
	    (nchain > 0 || have_p) ? c.parent : NULL));
	json_object_set_new(meta, "kind", json_string(c.kind));
	json_object_set_new(meta, "origin", json_string(c.origin));
	json_object_set_new(meta, "lang", json_string(c.lang));
	json_object_set_new(meta, "feedback", codec_str(fb_source));
	json_object_set_new(meta, "turns", turns);
	turns = NULL;
	json_object_set_new(meta, "gain", gain_json(gain));
	o = export_shape(x->opts->target, msgs, meta);
	msgs = NULL;
	x->line.split = t.split;
	x->line.license = t.license;
	x->line.failing = !verified;
	rc = emit(x, o);
	memset(&x->line, 0, sizeof x->line);
out:
	json_decref(msgs);
	json_decref(turns);
	json_decref(gain);
	free(req);
	free(sys);
	free(fb);
	if (have_r == 0)
		run_release(&r);
	if (have_d)
		store_decision_release(&d);
	if (have_p)
		candidate_release(&p);
	for (size_t i = 0; i < nchain; i++)
		candidate_release(&chain[i]);
	free(chain);
	if (have_t)
		task_release(&t);
	candidate_release(&c);
	return rc;
}

/* --- the walk -------------------------------------------------------- */

static int
export_row(const struct store_row *row, void *arg)
{
	struct export_ctx *x = arg;
	int rc;

	if (x->opts->cancel != NULL && *x->opts->cancel) {
		err_set(x->err, "interrupted");
		x->failed = 1;
		return 1;
	}
	/* A slice of --shards: its tasks, whole (export_shard_of). */
	if (x->opts->nshards > 1 &&
	    export_shard_of(row->task, x->opts->nshards) != x->opts->shard)
		return 0;
	if (x->opts->format == EXPORT_RAW) {
		/* Written already as the parent of an earlier row. */
		if (strset_has(&x->parents, row->id))
			return 0;
		rc = raw_one(x, row->id, 0);
	} else {
		rc = sft_one(x, row);
	}
	if (rc < 0) {
		x->failed = 1;
		return 1;
	}
	return 0;
}

unsigned
export_shard_of(const char *task_id, unsigned nshards)
{
	uint32_t h = 2166136261u;

	for (; *task_id != '\0'; task_id++)
		h = (h ^ (unsigned char)*task_id) * 16777619u;
	return nshards > 0 ? h % nshards : 0;
}

int
export_run(struct store *st, const struct export_opts *opts,
    export_write_fn write, void *arg, struct export_report *rep,
    struct err *err)
{
	struct export_report dummy;
	struct export_ctx x;
	int rc, dup, con;

	memset(&x, 0, sizeof x);
	if (rep == NULL)
		rep = &dummy;
	memset(rep, 0, sizeof *rep);
	x.st = st;
	x.opts = opts;
	x.filter = export_filter(opts->format, opts->where);
	x.write = write;
	x.arg = arg;
	x.rep = rep;
	x.err = err;
	if (opts->split != NULL && split_assign(st, opts->split, rep->split,
	    err) < 0) {
		free(x.filter);
		return -1;
	}
	/* sft: one of each near-duplicate cluster, no benchmark leakage,
	 * unless the filter or the options say otherwise */
	dup = opts->format == EXPORT_SFT && !has_key(opts->where, "dup") &&
	    !opts->keep_dups;
	con = opts->format == EXPORT_SFT &&
	    !has_key(opts->where, "contaminated") && !opts->keep_contaminated;
	if (dup || con) {
		char *f;

		if (dup) {
			f = xasprintf("%s dup=yes", x.filter);
			rc = store_query_count(st, f, &rep->dups, err);
			free(f);
			if (rc < 0) {
				free(x.filter);
				return -1;
			}
		}
		if (con) {
			f = xasprintf("%s contaminated=yes%s", x.filter, dup ?
			    " dup=no" : "");
			rc = store_query_count(st, f, &rep->contaminated, err);
			free(f);
			if (rc < 0) {
				free(x.filter);
				return -1;
			}
		}
		f = xasprintf("%s%s%s", x.filter, dup ? " dup=no" : "", con ?
		    " contaminated=no" : "");
		free(x.filter);
		x.filter = f;
	}
	rc = store_query_each(st, x.filter, export_row, &x, err);
	if (rc == 0 && opts->format == EXPORT_RAW && x.filter == NULL)
		rc = store_task_each_empty(st, raw_empty_task, &x, err);
	strset_release(&x.tasks);
	strset_release(&x.parents);
	free(x.filter);
	return rc != 0 || x.failed ? -1 : 0;
}

/* --- writers --------------------------------------------------------- */

static int
write_stream(const char *data, size_t len, const struct export_line *line,
    void *arg, struct err *err)
{
	(void)line;
	if (fwrite(data, 1, len, arg) != len)
		return err_set(err, "write: %s", strerror(errno));
	return 0;
}

int
export_stream(struct store *st, const struct export_opts *opts, FILE *out,
    struct export_report *rep, struct err *err)
{
	if (export_run(st, opts, write_stream, out, rep, err) < 0)
		return -1;
	if (fflush(out) != 0)
		return err_set(err, "write: %s", strerror(errno));
	return 0;
}

/* --- the prompts, for the model loop -------------------------------- */

char *
export_system_prompt(const struct task *t, const char *lang)
{
	return xasprintf("You are an expert in %s. Answer with the complete"
	    " %s code only, without explanations or markdown fences.",
	    domain_words(t->domain), lang != NULL ? lang : "");
}

char *
export_requirement(const struct task *t)
{
	return requirement(t);
}

char *
export_feedback(struct store *st, const char *cand_id, const char **source,
    struct err *err)
{
	struct export_ctx x = { 0 };

	x.st = st;
	x.err = err;
	return feedback(&x, cand_id, source);
}
