/*
 * dataset.c - accepted candidates as files and one git commit; see
 * dataset.h and docs/formats.md "The dataset in git".  task.json is
 * written with jansson (sorted keys, indented) so that it diffs well; a
 * sample's JSON is one line (sorted keys) so that line-oriented readers
 * take the samples as JSON Lines.  Nothing changes when nothing changed.
 */
#include "dataset.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "buf.h"
#include "hash.h"
#include "ident.h"
#include "strset.h"
#include "vcs.h"

/* A repair chain longer than this is a cycle. */
#define DATASET_DEPTH_MAX	1000

static const char *const managed[] = { "chip", "gpu", "embedded",
	"compiler", "3d" };

const char *
dataset_ext(const char *lang)
{
	static const struct { const char *lang, *ext; } map[] = {
		{ "verilog", "sv" }, { "systemverilog", "sv" }, { "cuda", "cu" },
		{ "c", "c" }, { "asm", "s" }, { "python", "py" },
	};

	for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
		if (lang != NULL && strcmp(lang, map[i].lang) == 0)
			return map[i].ext;
	return "txt";
}

char *
dataset_rel_source(const char *source, const char *benchmark)
{
	const char *p, *best = NULL, *slash;
	size_t bl;

	if (source == NULL)
		return NULL;
	if (source[0] != '/')
		return xstrdup(source);
	/* from the benchmark's own folder on, where the path names it */
	bl = benchmark != NULL ? strlen(benchmark) : 0;
	for (p = source; bl > 0 && (p = strchr(p, '/')) != NULL; p++)
		if (strncmp(p + 1, benchmark, bl) == 0 && (p[1 + bl] == '/' ||
		    p[1 + bl] == '\0' || p[1 + bl] == '.'))
			best = p + 1;
	if (best != NULL)
		return xstrdup(best);
	slash = strrchr(source, '/');
	return xstrdup(slash + 1);
}

/* One candidate written into the dataset: a sample or context. */
struct sample_files {
	char	*id, *dir, *verdict, *category, *reviewer, *toolchain;
	char	*parent;	/* or NULL */
	int	 context;	/* an ancestor that is not accepted */
};

struct collect {
	struct store		*st;
	struct sample_files	*v;
	size_t			 n;
	struct vcs_file		*files;
	size_t			 nfiles;
	struct strset		 ids, tasks;
	struct err		*err;
	int			 failed;
};

static void
file_add(struct collect *c, char *path, char *data, size_t len)
{
	c->files = xreallocarray(c->files, c->nfiles + 1, sizeof *c->files);
	c->files[c->nfiles].path = path;
	c->files[c->nfiles].data = data;
	c->files[c->nfiles].len = len;
	c->nfiles++;
}

/* o as text and a newline; consumes o. */
static char *
json_text(json_t *o, size_t flags)
{
	char *s = json_dumps(o, flags);
	char *r = xasprintf("%s\n", s);

	free(s);
	json_decref(o);
	return r;
}

static json_t *
jstr_or_null(const char *s)
{
	return s != NULL ? json_string(s) : json_null();
}

static json_t *
json_or_null(const char *txt)
{
	json_t *v = txt != NULL ? json_loads(txt, 0, NULL) : NULL;

	return v != NULL ? v : json_null();
}

/* The folder of a task: <domain>/<task-id>. */
static char *
task_dir(const struct task *t)
{
	return xasprintf("%s/%s", t->domain, t->id);
}

/* task.json and every verification file, once per task. */
static void
add_task(struct collect *c, const struct task *t)
{
	char *dir, *src, hex[HASH_HEX_LEN + 1];
	json_t *files = json_array(), *o, *extra;

	if (!strset_add(&c->tasks, t->id))
		return;
	dir = task_dir(t);
	for (size_t i = 0; i < t->nfiles; i++) {
		const struct task_file *f = &t->files[i];
		char *data = xmalloc(f->len + 1);

		memcpy(data, f->data, f->len);
		data[f->len] = '\0';
		hash_sha256(f->data, f->len, hex);
		json_array_append_new(files, json_pack("{s:s, s:s, s:o, s:s}",
		    "name", f->name, "role", f->role, "path",
		    json_sprintf("files/%s", f->name), "sha256", hex));
		file_add(c, xasprintf("%s/files/%s", dir, f->name), data, f->len);
	}
	src = dataset_rel_source(t->source, t->benchmark);
	o = json_pack("{s:s, s:s, s:s, s:s, s:o, s:o, s:o, s:o, s:o}",
	    "id", t->id, "benchmark", t->benchmark, "domain", t->domain,
	    "env", t->env, "env_params", json_or_null(t->env_params),
	    "spec", jstr_or_null(t->spec), "interface",
	    jstr_or_null(t->interface), "files", files, "source",
	    jstr_or_null(src));
	json_object_set_new(o, "license", jstr_or_null(t->license));
	if (t->license_source != NULL)
		json_object_set_new(o, "license_source",
		    json_string(t->license_source));
	if (t->split != NULL) {
		json_object_set_new(o, "split", json_string(t->split));
		json_object_set_new(o, "split_by", json_string(t->split_hand ?
		    "hand" : "hash"));
	}
	extra = json_or_null(t->extra);
	if (json_is_object(extra) && json_object_size(extra) > 0)
		json_object_set(o, "extra", extra);
	json_decref(extra);
	free(src);
	{
		/* keys in the order built, env_params in its own order: the
		 * text verify hashes is the same after import */
		char *text = json_text(o, JSON_INDENT(2) |
		    JSON_PRESERVE_ORDER);

		file_add(c, xasprintf("%s/task.json", dir), text,
		    strlen(text));
	}
	free(dir);
}

/*
 * Paths and trailers are built only from checked values (ident.h): a
 * database imported before the rules existed may hold an id that would
 * write outside the sample's folder, over task.json or a trailer.
 */
static int
check_paths(const struct task *t, const struct candidate *cand,
    const char *by, struct err *err)
{
	char show[96], show2[96];
	struct err e;

	if (ident_check_id(cand->id, &e) < 0 ||
	    ident_check_task_id(t->id, &e) < 0 ||
	    ident_check_domain(t->domain, &e) < 0)
		return err_set(err, "accepted candidate '%s' (task '%s'): %s;"
		    " it cannot be a dataset path: reset or reject it",
		    ident_show(cand->id, show, sizeof show),
		    ident_show(t->id, show2, sizeof show2), e.msg);
	for (size_t i = 0; i < t->nfiles; i++)
		if (ident_check_file_name(t->files[i].name, &e) < 0)
			return err_set(err, "task %s: file name '%s': %s",
			    t->id, ident_show(t->files[i].name, show,
			    sizeof show), e.msg);
	if (by != NULL && ident_check_reviewer(by, &e) < 0)
		return err_set(err, "accepted candidate '%s': reviewed by '%s':"
		    " %s; review it again under a plain name", cand->id,
		    ident_show(by, show, sizeof show), e.msg);
	return 0;
}

/* A trailer value on one line: control characters become spaces. */
static char *
one_line(const char *s)
{
	char *r = xstrdup(s);

	for (char *p = r; *p != '\0'; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = ' ';
	return r;
}

/*
 * Write candidate id into the set: its code and its one-line JSON, its
 * task once.  0 or -1 with err.
 */
static int
add_candidate(struct collect *c, const char *id, int context)
{
	struct sample_files *s;
	struct candidate cand;
	struct task t;
	struct run run;
	struct store_decision d;
	json_t *o;
	char *src, hex[HASH_HEX_LEN + 1];
	int have_run, found;

	found = store_candidate_get(c->st, id, &cand, c->err);
	if (found != 0)
		return found < 0 ? -1 : err_set(c->err, "no candidate %s", id);
	if (store_task_get(c->st, cand.task_id, &t, c->err) != 0) {
		candidate_release(&cand);
		return -1;
	}
	have_run = store_run_latest(c->st, id, &run, c->err);
	if (have_run < 0 || store_decision_get(c->st, id, &d, c->err) < 0) {
		if (have_run == 0)
			run_release(&run);
		candidate_release(&cand);
		task_release(&t);
		return -1;
	}
	if (check_paths(&t, &cand, d.review_by, c->err) < 0) {
		if (have_run == 0)
			run_release(&run);
		store_decision_release(&d);
		candidate_release(&cand);
		task_release(&t);
		return -1;
	}
	strset_add(&c->ids, cand.id);
	add_task(c, &t);
	c->v = xreallocarray(c->v, c->n + 1, sizeof *c->v);
	s = &c->v[c->n++];
	memset(s, 0, sizeof *s);
	s->id = xstrdup(cand.id);
	s->dir = task_dir(&t);
	s->context = context;
	s->verdict = xstrdup(have_run == 0 ? run.verdict : "unverified");
	s->category = xstrdup(d.category != NULL ? d.category : "-");
	s->reviewer = xstrdup(d.review_by != NULL ? d.review_by : "unknown");
	s->toolchain = one_line(have_run == 0 && run.toolchain != NULL ?
	    run.toolchain : "-");

	file_add(c, xasprintf("%s/%s.%s", s->dir, cand.id,
	    dataset_ext(cand.lang)), xstrndup(cand.code, cand.code_len),
	    cand.code_len);
	hash_sha256(cand.code, cand.code_len, hex);
	src = dataset_rel_source(cand.source, t.benchmark);
	o = json_pack("{s:s, s:s, s:s, s:s, s:s, s:o, s:o, s:o, s:s, s:s,"
	    " s:o, s:o}",
	    "id", cand.id, "task", cand.task_id, "origin", cand.origin,
	    "kind", cand.kind, "lang", cand.lang,
	    "parent", jstr_or_null(cand.parent),
	    "source", jstr_or_null(src),
	    "code", json_sprintf("%s.%s", cand.id, dataset_ext(cand.lang)),
	    "code_sha256", hex,
	    "role", context ? "context" : "sample",
	    "label", d.category != NULL ? json_pack("{s:s, s:o, s:o}",
	    "category", d.category, "subcategory", jstr_or_null(d.subcategory),
	    "by", jstr_or_null(d.label_by)) : json_null(),
	    "review", json_pack("{s:s, s:o, s:o}", "status", d.status,
	    "note", jstr_or_null(d.review_note), "by",
	    jstr_or_null(d.review_by)));
	if (cand.origin_raw != NULL)
		json_object_set_new(o, "origin_raw",
		    json_string(cand.origin_raw));
	/* a sample inherits its task's licence */
	json_object_set_new(o, "license", jstr_or_null(t.license));
	free(src);
	if (have_run == 0)
		json_object_set_new(o, "run", json_pack("{s:s, s:o, s:o, s:o,"
		    " s:o, s:o, s:o}", "verdict", run.verdict,
		    "stage", jstr_or_null(run.stage),
		    "subcategory", jstr_or_null(run.subcategory),
		    "metrics", json_or_null(run.metrics),
		    "toolchain", jstr_or_null(run.toolchain),
		    "inputs", json_or_null(run.inputs),
		    "env", jstr_or_null(run.env)));
	else
		json_object_set_new(o, "run", json_null());
	{
		char *text = json_text(o, JSON_COMPACT | JSON_SORT_KEYS);

		file_add(c, xasprintf("%s/%s.json", s->dir, cand.id), text,
		    strlen(text));
	}
	s->parent = cand.parent != NULL ? xstrdup(cand.parent) : NULL;
	candidate_release(&cand);
	task_release(&t);
	if (have_run == 0)
		run_release(&run);
	store_decision_release(&d);
	return 0;
}

static int
collect_one(const struct store_row *row, void *arg)
{
	struct collect *c = arg;

	if (add_candidate(c, row->id, 0) < 0) {
		c->failed = 1;
		return 1;
	}
	return 0;
}

/*
 * The ancestors of the first nsamples entries that are not samples
 * themselves, as context: a repair's failed parents, so that its
 * trajectory can be rebuilt from the dataset alone.
 */
static int
collect_context(struct collect *c, size_t nsamples)
{
	for (size_t i = 0; i < nsamples; i++) {
		char *next = c->v[i].parent != NULL ? xstrdup(c->v[i].parent) :
		    NULL;
		int depth = 0;

		while (next != NULL && !strset_has(&c->ids, next)) {
			if (++depth > DATASET_DEPTH_MAX) {
				free(next);
				return err_set(c->err, "candidate %s: parent"
				    " chain deeper than %d (a cycle?)",
				    c->v[i].id, DATASET_DEPTH_MAX);
			}
			if (add_candidate(c, next, 1) < 0) {
				free(next);
				return -1;
			}
			free(next);
			next = c->v[c->n - 1].parent != NULL ?
			    xstrdup(c->v[c->n - 1].parent) : NULL;
		}
		free(next);
	}
	return 0;
}

static void
samples_free(struct sample_files *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].id);
		free(v[i].dir);
		free(v[i].verdict);
		free(v[i].category);
		free(v[i].reviewer);
		free(v[i].toolchain);
		free(v[i].parent);
	}
	free(v);
}

static void
files_free(struct vcs_file *f, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free((char *)f[i].path);
		free((char *)f[i].data);
	}
	free(f);
}

/* The candidate id a dataset path belongs to, or NULL (task.json, a
 * task's verification file, a file outside the managed folders). */
static char *
path_sample(const char *path)
{
	const char *base = strrchr(path, '/');
	const char *dot;

	if (base == NULL || strstr(path, "/files/") != NULL)
		return NULL;
	base++;
	if (strcmp(base, "task.json") == 0)
		return NULL;
	dot = strrchr(base, '.');	/* "<id>.<ext>": the id is before it */
	return xstrndup(base, dot != NULL ? (size_t)(dot - base) :
	    strlen(base));
}

int
dataset_commit(struct store *st, const char *repo_dir, const char *message,
    const char *reviewer, struct dataset_result *res, struct err *err)
{
	struct collect c = { .st = st, .err = err, .ids = STRSET_INIT,
	    .tasks = STRSET_INIT };
	struct vcs_commit_opts o = { 0 };
	struct vcs_change *ch = NULL;
	struct vcs_result vr;
	size_t nch = 0, nsamples;
	char **ids = NULL, *statuses = NULL;
	size_t nids = 0;
	struct buf msg = BUF_INIT, body = BUF_INIT, trailers = BUF_INIT;
	int rc = -1;

	memset(res, 0, sizeof *res);
	if (ident_check_reviewer(reviewer, err) < 0)
		return -1;
	if (store_query_each(st, "status=accepted", collect_one, &c, err) < 0 ||
	    c.failed)
		goto out;
	nsamples = c.n;
	res->samples = nsamples;
	if (collect_context(&c, nsamples) < 0)
		goto out;
	res->context = c.n - nsamples;
	o.repo_dir = repo_dir;
	o.managed_dirs = managed;
	o.nmanaged = sizeof managed / sizeof managed[0];
	o.author_name = reviewer;
	if (vcs_changes(&o, c.files, c.nfiles, &ch, &nch, err) < 0)
		goto out;
	if (nch == 0) {
		rc = 0;
		goto out;
	}
	/* Samples touched, with A (new), M (changed) or D (gone). */
	for (size_t i = 0; i < nch; i++) {
		char *id = path_sample(ch[i].path);
		size_t k;

		if (id == NULL)
			continue;
		for (k = 0; k < nids && strcmp(ids[k], id) != 0; k++)
			;
		if (k < nids) {
			if (statuses[k] != ch[i].status)
				statuses[k] = 'M';
			free(id);
			continue;
		}
		ids = xreallocarray(ids, nids + 1, sizeof *ids);
		statuses = xrealloc(statuses, nids + 1);
		ids[nids] = id;
		statuses[nids++] = ch[i].status;
	}
	for (size_t k = 0; k < nids; k++) {
		struct sample_files *s = NULL;

		for (size_t i = 0; i < c.n && s == NULL; i++)
			if (strcmp(c.v[i].id, ids[k]) == 0)
				s = &c.v[i];
		if (s == NULL || !s->context) {
			if (statuses[k] == 'A')
				res->added++;
			else if (statuses[k] == 'D')
				res->removed++;
			else
				res->modified++;
		}
		buf_printf(&body, "%c %s%s%s%s\n", statuses[k], s != NULL ?
		    s->dir : "", s != NULL ? "/" : "", ids[k], s != NULL &&
		    s->context ? " (context)" : "");
		/* one trailer block per sample */
		if (trailers.len > 0)
			buf_adds(&trailers, "\n");
		buf_printf(&trailers, "Assay-Sample: %s\n", ids[k]);
		if (s != NULL) {
			if (s->context)
				buf_adds(&trailers, "Assay-Role: context\n");
			buf_printf(&trailers, "Assay-Verdict: %s\n", s->verdict);
			buf_printf(&trailers, "Assay-Category: %s\n", s->category);
			buf_printf(&trailers, "Reviewed-by: %s\n", s->reviewer);
			buf_printf(&trailers, "Toolchain: %s\n", s->toolchain);
		} else {
			buf_printf(&trailers, "Assay-Verdict: removed\n");
			buf_printf(&trailers, "Assay-Category: -\n");
			buf_printf(&trailers, "Reviewed-by: %s\n", reviewer);
			buf_printf(&trailers, "Toolchain: -\n");
		}
	}
	if (message != NULL && *message != '\0')
		buf_printf(&msg, "%s\n\n", message);
	else
		buf_printf(&msg, "assay: add %zu, update %zu, remove %zu"
		    " samples\n\n", res->added, res->modified, res->removed);
	buf_printf(&msg, "%s\n%s", buf_str(&body), buf_str(&trailers));
	o.message = buf_str(&msg);
	if (vcs_commit(&o, c.files, c.nfiles, &vr, err) < 0)
		goto out;
	res->committed = vr.committed;
	memcpy(res->oid, vr.oid, sizeof res->oid);
	if (res->committed && store_event_add(st, reviewer, "commit", NULL,
	    res->oid, err) < 0)
		goto out;
	rc = 0;
out:
	for (size_t k = 0; k < nids; k++)
		free(ids[k]);
	free(ids);
	free(statuses);
	vcs_changes_free(ch, nch);
	files_free(c.files, c.nfiles);
	samples_free(c.v, c.n);
	strset_release(&c.ids);
	strset_release(&c.tasks);
	buf_release(&msg);
	buf_release(&body);
	buf_release(&trailers);
	return rc;
}
