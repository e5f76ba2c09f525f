/*
 * dataset.c - accepted candidates as files and one git commit; see
 * dataset.h.  JSON is written with jansson (sorted keys, indented) so
 * that files diff well and do not change when nothing changed.
 */
#include "dataset.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "buf.h"
#include "ident.h"
#include "vcs.h"

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

/* One accepted sample and the files that carry it. */
struct sample_files {
	char	*id, *dir, *verdict, *category, *reviewer, *toolchain;
	char	*paths[3];
	char	*data[3];
	size_t	 len[3];
};

struct collect {
	struct store		*st;
	struct sample_files	*v;
	size_t			 n;
	struct err		*err;
	int			 failed;
};

static char *
json_text(json_t *o)
{
	char *s = json_dumps(o, JSON_INDENT(2) | JSON_SORT_KEYS);
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

static int
collect_one(const struct store_row *row, void *arg)
{
	struct collect *c = arg;
	struct sample_files *s;
	struct candidate cand;
	struct task t;
	struct run run;
	struct store_decision d;
	json_t *files, *o;
	int have_run;

	if (store_candidate_get(c->st, row->id, &cand, c->err) != 0) {
		c->failed = 1;
		return 1;
	}
	if (store_task_get(c->st, cand.task_id, &t, c->err) != 0) {
		candidate_release(&cand);
		c->failed = 1;
		return 1;
	}
	have_run = store_run_latest(c->st, row->id, &run, c->err);
	if (have_run < 0 || store_decision_get(c->st, row->id, &d, c->err) < 0) {
		candidate_release(&cand);
		task_release(&t);
		c->failed = 1;
		return 1;
	}
	if (check_paths(&t, &cand, d.review_by, c->err) < 0) {
		candidate_release(&cand);
		task_release(&t);
		if (have_run == 0)
			run_release(&run);
		store_decision_release(&d);
		c->failed = 1;
		return 1;
	}
	c->v = xreallocarray(c->v, c->n + 1, sizeof *c->v);
	s = &c->v[c->n++];
	memset(s, 0, sizeof *s);
	s->id = xstrdup(cand.id);
	s->dir = xasprintf("%s/%s", t.domain, t.id);
	s->verdict = xstrdup(have_run == 0 ? run.verdict : "unverified");
	s->category = xstrdup(d.category != NULL ? d.category : "-");
	s->reviewer = xstrdup(d.review_by != NULL ? d.review_by : "unknown");
	s->toolchain = one_line(have_run == 0 && run.toolchain != NULL ?
	    run.toolchain : "-");

	files = json_array();
	for (size_t i = 0; i < t.nfiles; i++)
		json_array_append_new(files, json_pack("{s:s, s:s}", "name",
		    t.files[i].name, "role", t.files[i].role));
	o = json_pack("{s:s, s:s, s:s, s:s, s:o, s:o, s:o, s:o, s:o}",
	    "id", t.id, "benchmark", t.benchmark, "domain", t.domain,
	    "env", t.env, "env_params", json_or_null(t.env_params),
	    "spec", jstr_or_null(t.spec), "interface", jstr_or_null(t.interface),
	    "files", files, "source", jstr_or_null(t.source));
	s->paths[0] = xasprintf("%s/task.json", s->dir);
	s->data[0] = json_text(o);
	s->paths[1] = xasprintf("%s/%s.%s", s->dir, cand.id,
	    dataset_ext(cand.lang));
	s->data[1] = xstrndup(cand.code, cand.code_len);
	s->len[1] = cand.code_len;
	o = json_pack("{s:s, s:s, s:s, s:s, s:s, s:o, s:o, s:o, s:o}",
	    "id", cand.id, "task", cand.task_id, "origin", cand.origin,
	    "kind", cand.kind, "lang", cand.lang,
	    "parent", jstr_or_null(cand.parent),
	    "source", jstr_or_null(cand.source),
	    "label", d.category != NULL ? json_pack("{s:s, s:o, s:o}",
	    "category", d.category, "subcategory", jstr_or_null(d.subcategory),
	    "by", jstr_or_null(d.label_by)) : json_null(),
	    "review", json_pack("{s:s, s:o, s:o}", "status", d.status,
	    "note", jstr_or_null(d.review_note), "by", jstr_or_null(d.review_by)));
	if (have_run == 0)
		json_object_set_new(o, "run", json_pack("{s:s, s:o, s:o, s:o,"
		    " s:o, s:o}", "verdict", run.verdict,
		    "stage", jstr_or_null(run.stage),
		    "metrics", json_or_null(run.metrics),
		    "toolchain", jstr_or_null(run.toolchain),
		    "inputs", json_or_null(run.inputs),
		    "env", jstr_or_null(run.env)));
	else
		json_object_set_new(o, "run", json_null());
	s->paths[2] = xasprintf("%s/%s.json", s->dir, cand.id);
	s->data[2] = json_text(o);
	s->len[0] = strlen(s->data[0]);
	s->len[2] = strlen(s->data[2]);
	candidate_release(&cand);
	task_release(&t);
	if (have_run == 0)
		run_release(&run);
	store_decision_release(&d);
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
		for (int k = 0; k < 3; k++) {
			free(v[i].paths[k]);
			free(v[i].data[k]);
		}
	}
	free(v);
}

/* The candidate id a dataset path belongs to, or NULL (task.json). */
static char *
path_sample(const char *path)
{
	const char *base = strrchr(path, '/');
	const char *dot;

	base = base != NULL ? base + 1 : path;
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
	struct collect c = { .st = st, .err = err };
	struct vcs_commit_opts o = { 0 };
	struct vcs_file *files = NULL;
	struct vcs_change *ch = NULL;
	struct vcs_result vr;
	size_t nfiles = 0, nch = 0;
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
	res->samples = c.n;
	for (size_t i = 0; i < c.n; i++) {
		for (int k = 0; k < 3; k++) {
			int dup = 0;

			/* task.json is shared by the samples of a task. */
			for (size_t f = 0; f < nfiles && k == 0; f++)
				dup = dup || strcmp(files[f].path,
				    c.v[i].paths[0]) == 0;
			if (dup)
				continue;
			files = xreallocarray(files, nfiles + 1, sizeof *files);
			files[nfiles].path = c.v[i].paths[k];
			files[nfiles].data = c.v[i].data[k];
			files[nfiles].len = c.v[i].len[k];
			nfiles++;
		}
	}
	o.repo_dir = repo_dir;
	o.managed_dirs = managed;
	o.nmanaged = sizeof managed / sizeof managed[0];
	o.author_name = reviewer;
	if (vcs_changes(&o, files, nfiles, &ch, &nch, err) < 0)
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
		if (statuses[k] == 'A')
			res->added++;
		else if (statuses[k] == 'D')
			res->removed++;
		else
			res->modified++;
		buf_printf(&body, "%c %s%s%s\n", statuses[k], s != NULL ? s->dir :
		    "", s != NULL ? "/" : "", ids[k]);
		buf_printf(&trailers, "Assay-Sample: %s\n", ids[k]);
		if (s != NULL) {
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
	if (vcs_commit(&o, files, nfiles, &vr, err) < 0)
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
	free(files);
	samples_free(c.v, c.n);
	buf_release(&msg);
	buf_release(&body);
	buf_release(&trailers);
	return rc;
}
