/*
 * export.c - raw and SFT JSONL out of the store; see export.h and
 * docs/formats.md.  Rows come from store_query_each in import order, and
 * each candidate, its task, runs and decisions are read one at a time,
 * so memory holds one sample plus the set of task ids already written.
 * JSON is built with jansson and written through the caller's callback.
 */
#include "export.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "buf.h"
#include "import.h"
#include "sample.h"

/* How much of a failed run's log a repair sample quotes. */
#define EXPORT_LOG_LINES	40
#define EXPORT_LOG_BYTES	3000
#define EXPORT_DIAGS		20
/* A parent chain longer than this is a cycle, not a repair history. */
#define EXPORT_DEPTH_MAX	1000

/* --- a set of strings (task ids, parents written) -------------------- */

/* Open addressing; owns its strings. */
struct strset {
	char	**slot;
	size_t	  cap, n;
};

static uint64_t
strset_hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	for (; *s != '\0'; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

static int
strset_has(const struct strset *set, const char *s)
{
	size_t i;

	if (set->cap == 0)
		return 0;
	for (i = strset_hash(s) & (set->cap - 1); set->slot[i] != NULL;
	    i = (i + 1) & (set->cap - 1))
		if (strcmp(set->slot[i], s) == 0)
			return 1;
	return 0;
}

static void
strset_add(struct strset *set, const char *s)
{
	size_t i;

	if (strset_has(set, s))
		return;
	if ((set->n + 1) * 2 > set->cap) {
		struct strset bigger = { NULL, set->cap != 0 ? set->cap * 2 :
		    64, 0 };

		bigger.slot = xcalloc(bigger.cap, sizeof *bigger.slot);
		for (size_t k = 0; k < set->cap; k++) {
			if (set->slot[k] == NULL)
				continue;
			size_t mask = bigger.cap - 1;

			for (i = strset_hash(set->slot[k]) & mask;
			    bigger.slot[i] != NULL; i = (i + 1) & mask)
				;
			bigger.slot[i] = set->slot[k];
			bigger.n++;
		}
		free(set->slot);
		*set = bigger;
	}
	for (i = strset_hash(s) & (set->cap - 1); set->slot[i] != NULL;
	    i = (i + 1) & (set->cap - 1))
		;
	set->slot[i] = xstrdup(s);
	set->n++;
}

static void
strset_release(struct strset *set)
{
	for (size_t i = 0; i < set->cap; i++)
		free(set->slot[i]);
	free(set->slot);
	memset(set, 0, sizeof *set);
}

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

/* Does the filter text hold a status predicate of its own? */
static int
has_status(const char *where)
{
	const char *p = where;

	while (p != NULL && *p != '\0') {
		p += strspn(p, " \t");
		if (strncmp(p, "status", 6) == 0 && (p[6] == '=' ||
		    p[6] == '~' || (p[6] == '!' && p[7] == '=')))
			return 1;
		p += strcspn(p, " \t");
	}
	return 0;
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

static json_t *
jstr_or_null(const char *s)
{
	return s != NULL ? json_string(s) : json_null();
}

/* The JSON text txt as a value; NULL when txt is NULL or not JSON. */
static json_t *
jparse(const char *txt)
{
	return txt != NULL ? json_loads(txt, 0, NULL) : NULL;
}

/* Add src's members that dst does not have yet (known fields win). */
static void
merge_unknown(json_t *dst, json_t *src, const char *skip)
{
	const char *k;
	json_t *v;

	json_object_foreach(src, k, v)
		if ((skip == NULL || strcmp(k, skip) != 0) &&
		    json_object_get(dst, k) == NULL)
			json_object_set(dst, k, v);
}

/*
 * A copy of n bytes of s that is valid UTF-8 (bad bytes become U+FFFD
 * and NUL becomes a space), so that text from a toolchain can go into a
 * JSON string.  New string.
 */
static char *
utf8_clean(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	struct buf b = BUF_INIT;
	size_t i = 0;

	while (i < n) {
		unsigned char c = p[i];
		size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ?
		    3 : (c >> 3) == 30 ? 4 : 0;
		int ok = len > 0 && i + len <= n;

		for (size_t k = 1; ok && k < len; k++)
			ok = (p[i + k] & 0xc0) == 0x80;
		/* Overlong forms, surrogates and code points past U+10FFFF. */
		if (ok && ((len == 2 && c < 0xc2) ||
		    (c == 0xe0 && p[i + 1] < 0xa0) ||
		    (c == 0xed && p[i + 1] >= 0xa0) ||
		    (c == 0xf0 && p[i + 1] < 0x90) ||
		    (c == 0xf4 && p[i + 1] >= 0x90) || c > 0xf4))
			ok = 0;
		if (!ok) {
			buf_adds(&b, "\xef\xbf\xbd");
			i++;
			continue;
		}
		if (c == 0)
			buf_addc(&b, ' ');
		else
			buf_add(&b, p + i, len);
		i += len;
	}
	buf_adds(&b, "");
	return buf_detach(&b, NULL);
}

/* A JSON string of text that may not be UTF-8 (logs, toolchain output). */
static json_t *
jtext(const char *s, size_t n)
{
	json_t *v = json_stringn(s, n);
	char *clean;

	if (v != NULL)
		return v;
	clean = utf8_clean(s, n);
	v = json_string(clean);
	free(clean);
	return v;
}

/* Write o as one line and count it; consumes o. */
static int
emit(struct export_ctx *x, json_t *o)
{
	char *s = json_dumps(o, JSON_COMPACT);
	size_t len;
	int rc;

	json_decref(o);
	if (s == NULL)
		return err_set(x->err, "cannot encode a line as JSON");
	len = strlen(s);
	s[len] = '\n';		/* json_dumps's NUL becomes the newline */
	rc = x->write(s, len + 1, x->arg, x->err);
	free(s);
	if (rc < 0)
		return -1;
	x->rep->lines++;
	return 0;
}

/* Labels up to the current one (the history that made it current),
 * oldest first, as JSON objects.  NULL and err on failure. */
static json_t *
labels_json(struct export_ctx *x, const char *cand_id)
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
		if (l[i].subcategory != NULL)
			json_object_set_new(o, "subcategory",
			    json_string(l[i].subcategory));
		if (l[i].note != NULL)
			json_object_set_new(o, "note", jtext(l[i].note,
			    strlen(l[i].note)));
		if (l[i].evidence != NULL)
			json_object_set_new(o, "evidence", jtext(l[i].evidence,
			    strlen(l[i].evidence)));
		/* a label that settled a disagreement, not a vote */
		if (final)
			json_object_set_new(o, "final", json_true());
		json_object_set_new(o, "by", jstr_or_null(l[i].by));
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
		    jtext(nt[i].text, strlen(nt[i].text)), "by",
		    jstr_or_null(nt[i].by), "at", (json_int_t)nt[i].at));
		store_note_release(&nt[i]);
	}
	free(nt);
	return a;
}

/* --- raw ------------------------------------------------------------- */

static json_t *
task_json(const struct task *t, struct err *err)
{
	json_t *o = json_object(), *files = json_object(), *params, *extra;
	int explicit = 0;

	json_object_set_new(o, "id", json_string(t->id));
	json_object_set_new(o, "benchmark", json_string(t->benchmark));
	json_object_set_new(o, "domain", json_string(t->domain));
	json_object_set_new(o, "env", json_string(t->env));
	params = jparse(t->env_params);
	json_object_set_new(o, "env_params", params != NULL ? params :
	    json_object());
	if (t->spec != NULL)
		json_object_set_new(o, "spec", jtext(t->spec,
		    strlen(t->spec)));
	if (t->interface != NULL)
		json_object_set_new(o, "interface", jtext(t->interface,
		    strlen(t->interface)));
	if (t->source != NULL)
		json_object_set_new(o, "source", json_string(t->source));
	/* Name -> text when every role is the one its name gives, else
	 * the explicit [{"name", "role", "text"}] (docs/formats.md). */
	for (size_t i = 0; i < t->nfiles && !explicit; i++)
		explicit = strcmp(t->files[i].role, import_file_role(
		    t->files[i].name, t->env)) != 0;
	if (explicit) {
		json_decref(files);
		files = json_array();
	}
	for (size_t i = 0; i < t->nfiles; i++) {
		json_t *v = json_stringn(t->files[i].data, t->files[i].len);

		if (v == NULL) {
			json_decref(files);
			json_decref(o);
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
	json_object_set_new(o, "files", files);
	extra = jparse(t->extra);
	if (json_is_object(extra))
		merge_unknown(o, extra, NULL);
	json_decref(extra);
	return o;
}

static json_t *
recorded_json(const struct recorded *r)
{
	json_t *o = jparse(r->extra);

	if (!json_is_object(o)) {
		json_decref(o);
		o = json_object();
	}
	if (r->verdict != NULL)
		json_object_set_new(o, "verdict", json_string(r->verdict));
	if (r->stage != NULL)
		json_object_set_new(o, "stage", json_string(r->stage));
	if (r->log != NULL)
		json_object_set_new(o, "log", jtext(r->log, strlen(r->log)));
	return o;
}

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
	json_t *row = NULL, *co, *extra = NULL, *a, *code;
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
		to = task_json(&t, x->err);
		task_release(&t);
		if (to == NULL)
			goto out;
		json_object_set_new(row, "task", to);
		strset_add(&x->tasks, c.task_id);
		x->rep->tasks++;
	}
	code = json_stringn(c.code, c.code_len);
	if (code == NULL) {
		err_set(x->err, "candidate %s: code is not UTF-8 text; the raw"
		    " format cannot carry it", c.id);
		goto out;
	}
	co = json_object();
	json_object_set_new(co, "id", json_string(c.id));
	json_object_set_new(co, "origin", json_string(c.origin));
	if (c.origin_raw != NULL)
		json_object_set_new(co, "origin_raw",
		    json_string(c.origin_raw));
	json_object_set_new(co, "kind", json_string(c.kind));
	json_object_set_new(co, "lang", json_string(c.lang));
	json_object_set_new(co, "code", code);
	json_object_set_new(co, "parent", jstr_or_null(c.parent));
	json_object_set_new(co, "source", jstr_or_null(c.source));
	extra = jparse(c.extra);
	if (json_is_object(extra))
		merge_unknown(co, extra, "$row");
	json_object_set_new(row, "candidate", co);

	if (store_recorded_list(x->st, c.id, &recs, &nrec, x->err) < 0)
		goto out;
	if (nrec > 0) {
		a = json_array();
		for (size_t i = 0; i < nrec; i++)
			json_array_append_new(a, recorded_json(&recs[i]));
		json_object_set_new(row, "recorded", a);
	}
	a = labels_json(x, c.id);
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
			json_object_set_new(rv, "note", jtext(d.review_note,
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
	if (json_is_object(json_object_get(extra, "$row")))
		merge_unknown(row, json_object_get(extra, "$row"), NULL);
	rc = emit(x, row);
	row = NULL;
out:
	json_decref(row);
	json_decref(extra);
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
	found = store_task_get(x->st, task_id, &t, x->err);
	if (found != 0) {
		if (found > 0)
			err_set(x->err, "no task %s", task_id);
		x->failed = 1;
		return 1;
	}
	to = task_json(&t, x->err);
	task_release(&t);
	if (to == NULL || emit(x, json_pack("{s:o}", "task", to)) < 0) {
		x->failed = 1;
		return 1;
	}
	x->rep->tasks++;
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
	char *clean;

	while (n < len && n < EXPORT_LOG_BYTES && lines < EXPORT_LOG_LINES)
		if (log[n++] == '\n')
			lines++;
	clean = utf8_clean(log, n);
	buf_adds(b, clean);
	free(clean);
	if (n > 0 && log[n - 1] != '\n')
		buf_addc(b, '\n');
	if (n < len)
		buf_printf(b, "[... %zu more bytes]\n", len - n);
}

/*
 * The toolchain feedback on a failed parent: its latest run (verdict,
 * evidence, diagnostics with lines, a log excerpt), else what its
 * importer recorded.  *source says which: "run", "recorded" or "none".
 * New string, or NULL with err.
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
		if (r.evidence != NULL)
			buf_printf(&b, "Evidence: %s\n", r.evidence);
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

static int
sft_one(struct export_ctx *x, const struct store_row *row)
{
	struct candidate c, p;
	struct task t;
	struct run r;
	struct store_decision d;
	json_t *msgs = json_array(), *meta, *labels;
	char *req = NULL, *sys = NULL, *fb = NULL;
	const char *fb_source = NULL;
	int rc = -1, found, have_p = 0, have_t = 0, have_d = 0, have_r;

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
	if (c.parent != NULL && strcmp(c.kind, "direct") != 0) {
		found = store_candidate_get(x->st, c.parent, &p, x->err);
		if (found < 0)
			goto out;
		have_p = found == 0;
	}
	sys = xasprintf("You are an expert in %s. Answer with the complete %s"
	    " code only, without explanations or markdown fences.",
	    domain_words(t.domain), c.lang);
	req = requirement(&t);
	add_msg(msgs, "system", json_string(sys));
	if (have_p && strcmp(c.kind, "repair") == 0) {
		fb = feedback(x, p.id, &fb_source);
		if (fb == NULL)
			goto out;
		add_msg(msgs, "user", jtext(req, strlen(req)));
		add_msg(msgs, "assistant", jtext(p.code, p.code_len));
		add_msg(msgs, "user", jtext(fb, strlen(fb)));
	} else if (have_p) {
		struct buf b = BUF_INIT;

		buf_printf(&b, "%s\n\nA correct implementation:\n%s%s\n"
		    "Write a faster implementation with the same behaviour."
		    " Answer with the complete code only.", req, p.code,
		    p.code_len > 0 && p.code[p.code_len - 1] == '\n' ? "" :
		    "\n");
		add_msg(msgs, "user", jtext(b.p, b.len));
		buf_release(&b);
	} else {
		add_msg(msgs, "user", jtext(req, strlen(req)));
	}
	add_msg(msgs, "assistant", jtext(c.code, c.code_len));

	have_r = store_run_latest(x->st, c.id, &r, x->err);
	if (have_r < 0)
		goto out;
	if (store_decision_get(x->st, c.id, &d, x->err) < 0) {
		if (have_r == 0)
			run_release(&r);
		goto out;
	}
	have_d = 1;
	labels = labels_json(x, c.id);
	if (labels == NULL) {
		if (have_r == 0)
			run_release(&r);
		goto out;
	}
	meta = json_object();
	json_object_set_new(meta, "task", json_string(t.id));
	json_object_set_new(meta, "benchmark", json_string(t.benchmark));
	json_object_set_new(meta, "domain", json_string(t.domain));
	json_object_set_new(meta, "env", json_string(t.env));
	json_object_set_new(meta, "toolchain", jstr_or_null(have_r == 0 ?
	    r.toolchain : NULL));
	json_object_set_new(meta, "verdict", jstr_or_null(have_r == 0 ?
	    r.verdict : NULL));
	json_object_set_new(meta, "labels", labels);
	json_object_set_new(meta, "reviewer", jstr_or_null(d.review_by));
	json_object_set_new(meta, "status", json_string(d.status));
	json_object_set_new(meta, "candidate", json_string(c.id));
	json_object_set_new(meta, "parent", jstr_or_null(have_p ? p.id :
	    NULL));
	json_object_set_new(meta, "kind", json_string(c.kind));
	json_object_set_new(meta, "origin", json_string(c.origin));
	json_object_set_new(meta, "lang", json_string(c.lang));
	if (fb_source != NULL)
		json_object_set_new(meta, "feedback", json_string(fb_source));
	if (have_r == 0)
		run_release(&r);
	rc = emit(x, json_pack("{s:o, s:o}", "messages", msgs, "meta", meta));
	msgs = NULL;
out:
	json_decref(msgs);
	free(req);
	free(sys);
	free(fb);
	if (have_d)
		store_decision_release(&d);
	if (have_p)
		candidate_release(&p);
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

int
export_run(struct store *st, const struct export_opts *opts,
    export_write_fn write, void *arg, struct export_report *rep,
    struct err *err)
{
	struct export_report dummy;
	struct export_ctx x;
	int rc;

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
write_stream(const char *data, size_t len, void *arg, struct err *err)
{
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

/* fsync the directory that holds path, so that the rename is durable. */
static void
sync_dir(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir = slash == NULL ? xstrdup(".") : slash == path ?
	    xstrdup("/") : xstrndup(path, (size_t)(slash - path));
	int fd = open(dir, O_RDONLY | O_DIRECTORY);

	if (fd >= 0) {
		(void)fsync(fd);
		close(fd);
	}
	free(dir);
}

int
export_file(struct store *st, const struct export_opts *opts,
    const char *path, struct export_report *rep, struct err *err)
{
	char *tmp = xasprintf("%s.tmp-XXXXXX", path);
	FILE *f = NULL;
	mode_t mask;
	int fd, rc = -1;

	fd = mkstemp(tmp);
	if (fd < 0) {
		err_set(err, "%s: %s", tmp, strerror(errno));
		free(tmp);
		return -1;
	}
	/* mkstemp makes 0600; give what a plain create would. */
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask) < 0) {
		err_set(err, "%s: %s", tmp, strerror(errno));
		close(fd);
		goto out;
	}
	f = fdopen(fd, "w");
	if (f == NULL) {
		err_set(err, "%s: %s", tmp, strerror(errno));
		close(fd);
		goto out;
	}
	if (export_stream(st, opts, f, rep, err) < 0)
		goto out;
	if (fsync(fileno(f)) < 0) {
		err_set(err, "fsync %s: %s", tmp, strerror(errno));
		goto out;
	}
	if (opts->cancel != NULL && *opts->cancel) {
		err_set(err, "interrupted");
		goto out;
	}
	if (fclose(f) != 0) {
		f = NULL;
		err_set(err, "%s: %s", tmp, strerror(errno));
		goto out;
	}
	f = NULL;
	if (rename(tmp, path) < 0) {
		err_set(err, "rename %s to %s: %s", tmp, path, strerror(errno));
		goto out;
	}
	sync_dir(path);
	rc = 0;
out:
	if (f != NULL)
		fclose(f);
	if (rc < 0)
		unlink(tmp);
	free(tmp);
	return rc;
}
