/*
 * dataset.c - accepted candidates as files and one git commit; see
 * dataset.h and docs/formats.md "The dataset in git".  Tasks, candidates
 * and runs are written by the codec (model/codec.h, CODEC_DATASET).
 * task.json is indented, in the codec's key order, so that it diffs well; a
 * sample's JSON is one line (sorted keys) so that line-oriented readers
 * take the samples as JSON Lines.  Nothing changes when nothing changed.
 */
#include "exchange/dataset.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/buf.h"
#include "base/hash.h"
#include "base/ident.h"
#include "base/strset.h"
#include "exchange/card.h"
#include "exchange/export.h"
#include "exchange/vcs.h"
#include "model/codec.h"
#include "model/vocab.h"

/* A repair chain longer than this is a cycle. */
#define DATASET_DEPTH_MAX	1000

/* The folders a commit owns: the domains, and the split files the card
 * configures (data/: verified samples, failing/: the others). */
static const char *const managed[] = { "chip", "gpu", "embedded",
	"compiler", "3d", "data", "failing" };

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
	char	*labeller;	/* who gave its label, or NULL */
	char	*parent;	/* or NULL */
	int	 context;	/* an ancestor that is not accepted */
	/* for the card and the split files (samples only) */
	char	*domain, *benchmark, *kind, *license, *split;
	char	*line;		/* its data/ line, newline included */
	json_t	*row;		/* that line as JSON (card_head_feed) */
	int	 verified;	/* a verified positive (export_verified) */
};

/* The split files and what the card says of them. */
struct splits {
	struct card_file	 files[2 * 64];
	char			 names[2 * 64][40];
	char			*paths[2 * 64];		/* owned */
	size_t			 n;
	size_t			 other;		/* samples past 64 splits */
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
	struct codec_ctx x = { .profile = CODEC_DATASET };
	char *dir, *src, *text;

	if (!strset_add(&c->tasks, t->id))
		return;
	dir = task_dir(t);
	for (size_t i = 0; i < t->nfiles; i++) {
		const struct task_file *f = &t->files[i];
		char *data = xmalloc(f->len + 1);

		memcpy(data, f->data, f->len);
		data[f->len] = '\0';
		file_add(c, xasprintf("%s/files/%s", dir, f->name), data, f->len);
	}
	src = dataset_rel_source(t->source, t->benchmark);
	x.source = src;
	/* keys in the order built, env_params in its own order: the text
	 * verify hashes is the same after import */
	text = json_text(codec_task(t, &x, NULL), JSON_INDENT(2) |
	    JSON_PRESERVE_ORDER);
	file_add(c, xasprintf("%s/task.json", dir), text, strlen(text));
	free(src);
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

/* A JSON object of name -> sha256 text as a list of {name, sha256}. */
static json_t *
hash_list(const char *text)
{
	json_t *m = text != NULL ? json_loads(text, 0, NULL) : NULL;
	json_t *a = json_array(), *v;
	const char *k;

	json_object_foreach(m, k, v)
		json_array_append_new(a, json_pack("{s:s, s:o}", "name", k,
		    "sha256", json_is_string(v) ? json_incref(v) :
		    json_null()));
	json_decref(m);
	return a;
}

/*
 * A sample's line in its split file: every key of card_features_sample,
 * in its order, absent values null, so that every line has one type per
 * column whatever its kind (issue 25 item 1).  New reference.
 */
static json_t *
sample_line(const struct sample_files *s, const struct candidate *c,
    const struct task *t, const struct run *r,
    const struct store_decision *d, const char *source)
{
	json_t *o = json_object();
	json_t *code = json_stringn(c->code, c->code_len);

	json_object_set_new(o, "id", json_string(c->id));
	json_object_set_new(o, "task", json_string(t->id));
	json_object_set_new(o, "domain", json_string(t->domain));
	json_object_set_new(o, "benchmark", codec_str(t->benchmark));
	json_object_set_new(o, "split", codec_str(t->split));
	json_object_set_new(o, "path", json_sprintf("%s/%s.%s", s->dir,
	    c->id, dataset_ext(c->lang)));
	json_object_set_new(o, "origin", codec_str(c->origin));
	json_object_set_new(o, "origin_raw", codec_str(c->origin_raw));
	json_object_set_new(o, "kind", codec_str(c->kind));
	json_object_set_new(o, "lang", codec_str(c->lang));
	json_object_set_new(o, "parent", codec_str(c->parent));
	json_object_set_new(o, "source", codec_str(source));
	json_object_set_new(o, "license", codec_str(t->license));
	/* code that is not UTF-8 is in its file only */
	json_object_set_new(o, "code", code != NULL ? code : json_null());
	json_object_set_new(o, "code_sha256", json_string(c->code_hash));
	json_object_set_new(o, "label", json_pack("{s:o, s:o, s:o}",
	    "category", codec_str(d->category), "subcategory",
	    codec_str(d->category != NULL ? d->subcategory : NULL), "by",
	    codec_str(d->category != NULL ? d->label_by : NULL)));
	json_object_set_new(o, "review", json_pack("{s:o, s:o, s:o}",
	    "status", codec_str(d->status), "note", codec_str(d->review_note),
	    "by", codec_str(d->review_by)));
	json_object_set_new(o, "run", json_pack("{s:o, s:o, s:o, s:o, s:o,"
	    " s:o, s:o}", "verdict", codec_str(r != NULL ? r->verdict : NULL),
	    "stage", codec_str(r != NULL ? r->stage : NULL), "subcategory",
	    codec_str(r != NULL ? r->subcategory : NULL), "env",
	    codec_str(r != NULL ? r->env : NULL), "toolchain",
	    codec_str(r != NULL ? r->toolchain : NULL), "metrics",
	    codec_str(r != NULL ? r->metrics : NULL), "inputs",
	    hash_list(r != NULL ? r->inputs : NULL)));
	json_object_set_new(o, "verified", json_boolean(s->verified));
	return o;
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
	struct codec_ctx x = { .profile = CODEC_DATASET };
	json_t *o;
	char *src, *file;
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
	/* who reviewed it; NULL: nobody (a context sample, a failed
	 * parent kept for its repair), said as such, not "unknown" */
	s->reviewer = d.review_by != NULL ? xstrdup(d.review_by) : NULL;
	s->labeller = d.label_by != NULL ? xstrdup(d.label_by) : NULL;
	s->toolchain = one_line(have_run == 0 && run.toolchain != NULL ?
	    run.toolchain : "-");

	file_add(c, xasprintf("%s/%s.%s", s->dir, cand.id,
	    dataset_ext(cand.lang)), xstrndup(cand.code, cand.code_len),
	    cand.code_len);
	src = dataset_rel_source(cand.source, t.benchmark);
	file = xasprintf("%s.%s", cand.id, dataset_ext(cand.lang));
	x.source = src;
	x.code_file = file;
	o = json_object();
	codec_candidate_put(o, &cand, &x, NULL);
	json_object_set_new(o, "role", json_string(context ? "context" :
	    "sample"));
	json_object_set_new(o, "label", d.category != NULL ? json_pack(
	    "{s:s, s:o, s:o}", "category", d.category, "subcategory",
	    codec_str(d.subcategory), "by", codec_str(d.label_by)) :
	    json_null());
	json_object_set_new(o, "review", json_pack("{s:s, s:o, s:o}",
	    "status", d.status, "note", codec_str(d.review_note), "by",
	    codec_str(d.review_by)));
	/* a sample inherits its task's licence */
	json_object_set_new(o, "license", codec_str(t.license));
	free(file);
	s->domain = xstrdup(t.domain);
	s->benchmark = xstrdup(t.benchmark);
	s->kind = xstrdup(cand.kind);
	s->license = xstrdup(t.license != NULL ? t.license : "none");
	s->split = xstrdup(t.split != NULL ? t.split : "none");
	json_object_set_new(o, "run", have_run == 0 ? codec_run(&run, &x) :
	    json_null());
	if (!context) {
		double ratio;
		int counts = export_gain(cand.kind, cand.extra, &ratio, NULL);

		s->verified = have_run == 0 && (counts >= 0 ?
		    verdict_is(run.verdict, VERDICT_PASS) && counts :
		    export_verified(cand.kind, t.env, run.verdict,
		    run.metrics, NULL));
		s->row = sample_line(s, &cand, &t, have_run == 0 ? &run :
		    NULL, &d, src);
		s->line = json_dumps(s->row, JSON_COMPACT |
		    JSON_PRESERVE_ORDER);
		s->line = xrealloc(s->line, strlen(s->line) + 2);
		strcat(s->line, "\n");
	}
	{
		char *text = json_text(o, JSON_COMPACT | JSON_SORT_KEYS);

		file_add(c, xasprintf("%s/%s.json", s->dir, cand.id), text,
		    strlen(text));
	}
	s->parent = cand.parent != NULL ? xstrdup(cand.parent) : NULL;
	free(src);
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
		free(v[i].labeller);
		free(v[i].toolchain);
		free(v[i].parent);
		free(v[i].domain);
		free(v[i].benchmark);
		free(v[i].kind);
		free(v[i].license);
		free(v[i].split);
		free(v[i].line);
		json_decref(v[i].row);
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

/* --- the card -------------------------------------------------------- */

/* Counts of one dimension of the samples, in order of first sight. */
struct tally {
	const char	*name[256];
	size_t		 n[256], len;
	size_t		 other;		/* past the 256th name */
};

static void
tally_add(struct tally *t, const char *name)
{
	size_t i;

	for (i = 0; i < t->len && strcmp(t->name[i], name) != 0; i++)
		;
	if (i == t->len) {
		if (t->len == 256) {
			t->other++;
			return;
		}
		t->name[t->len++] = name;
	}
	t->n[i]++;
}

static int
tally_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* A markdown table of t, names sorted (stable output for git). */
static void
tally_table(struct buf *b, const char *title, const struct tally *t)
{
	const char *sorted[256];

	memcpy(sorted, t->name, t->len * sizeof *sorted);
	qsort(sorted, t->len, sizeof *sorted, tally_cmp);
	buf_printf(b, "| %s | samples |\n|---|---:|\n", title);
	for (size_t k = 0; k < t->len; k++)
		for (size_t i = 0; i < t->len; i++)
			if (t->name[i] == sorted[k])
				buf_printf(b, "| %s | %zu |\n", sorted[k], t->n[i]);
	if (t->other > 0)
		buf_printf(b, "| (others) | %zu |\n", t->other);
	buf_adds(b, "\n");
}

/* The figure of filter among the samples, or -1 on a store error. */
static long
count_of(struct store *st, const char *filter, struct err *err)
{
	size_t n;

	if (store_query_count(st, filter, &n, err) < 0)
		return -1;
	return (long)n;
}

/* README.md at the dataset's root: what is in it, how to load it. */
static char *
card(struct collect *c, size_t nsamples, const struct splits *sp,
    struct err *err)
{
	struct tally dom = { 0 }, bench = { 0 }, kind = { 0 }, verdict = { 0 },
	    cat = { 0 }, lic = { 0 }, tool = { 0 }, split = { 0 };
	struct buf b = BUF_INIT;
	long dups, dups_all, contam, contam_all;

	for (size_t i = 0; i < nsamples; i++) {
		const struct sample_files *s = &c->v[i];

		tally_add(&dom, s->domain);
		tally_add(&bench, s->benchmark);
		tally_add(&kind, s->kind);
		tally_add(&verdict, s->verdict);
		tally_add(&cat, s->category);
		tally_add(&lic, s->license);
		tally_add(&tool, s->toolchain);
		tally_add(&split, s->split);
	}
	dups = count_of(c->st, "status=accepted dup=yes", err);
	dups_all = count_of(c->st, "dup=yes", err);
	contam = count_of(c->st, "status=accepted contaminated=yes", err);
	contam_all = count_of(c->st, "contaminated=yes", err);
	if (dups < 0 || dups_all < 0 || contam < 0 || contam_all < 0)
		return NULL;
	/* the front matter the hub and load_dataset(".") read */
	card_front_matter(&b, lic.name, lic.len, sp->files, sp->n,
	    card_features_sample);
	buf_printf(&b, "# Execution-verified code samples\n\n"
	    "Written by `assay commit`: the accepted samples of an assay"
	    " database, each re-run through a real toolchain, with the"
	    " verification files of their tasks, so that everything can be"
	    " rebuilt and verified again from this repository alone"
	    " (`assay import --format dataset .` then `assay verify`).\n\n"
	    "%zu samples of %zu task%s, and %zu context candidates (the failed"
	    " rounds before a repair, kept so that its trajectory can be"
	    " rebuilt; they are not samples).\n\n", nsamples, c->tasks.n,
	    c->tasks.n == 1 ? "" : "s", c->n - nsamples);
	buf_adds(&b, "## Counts\n\n");
	tally_table(&b, "domain", &dom);
	tally_table(&b, "benchmark", &bench);
	tally_table(&b, "kind", &kind);
	tally_table(&b, "verdict (latest run)", &verdict);
	tally_table(&b, "failure category", &cat);
	buf_adds(&b, "## Licences\n\nEach sample carries its task's licence"
	    " (an SPDX id, read from the benchmark's LICENSE or given at"
	    " import); `task.json` says where it was read and the sha256 of"
	    " every file.\n\n");
	tally_table(&b, "licence", &lic);
	buf_adds(&b, "## Toolchains\n\n");
	tally_table(&b, "toolchain (latest run)", &tool);
	buf_adds(&b, "## Splits\n\nBy a stable hash of the task id (`assay"
	    " split`), or set by hand; every sample of a task is in its"
	    " task's split.\n\n");
	tally_table(&b, "split", &split);
	buf_printf(&b, "## Deduplication and contamination\n\n"
	    "As marked by the last `assay dedup` and `assay contamination`"
	    " runs on the database (0 where they were not run):\n\n"
	    "- near-duplicates: %ld of these samples are copies of another"
	    " sample that is kept (%ld in the whole database)\n"
	    "- contamination: %ld of these samples share 13-grams with an"
	    " evaluation benchmark (%ld in the whole database)\n\n",
	    dups, dups_all, contam, contam_all);
	buf_adds(&b, "## Layout\n\n"
	    "```\n"
	    "data/<split>.jsonl               the verified samples of a"
	    " split, one per line (config default)\n"
	    "failing/<split>.jsonl            accepted samples without a"
	    " passing run (config failing)\n"
	    "<domain>/<task-id>/task.json     the task: spec, interface, env,"
	    " env_params, licence, source, files with sha256\n"
	    "<domain>/<task-id>/files/        its verification files\n"
	    "<domain>/<task-id>/<id>.<ext>    a sample's code\n"
	    "<domain>/<task-id>/<id>.json     the sample, one JSON object on"
	    " one line\n"
	    "```\n\n");
	buf_adds(&b, "| config | split | file | samples |\n"
	    "|---|---|---|---:|\n");
	for (size_t i = 0; i < sp->n; i++)
		buf_printf(&b, "| %s | %s | `%s` | %zu |\n",
		    sp->files[i].config, sp->files[i].split,
		    sp->files[i].path, sp->files[i].rows);
	if (sp->other > 0)
		buf_printf(&b, "\n%zu samples of splits past the 64th are"
		    " in their folders only.\n", sp->other);
	buf_adds(&b, "\nA task without a split is in `train`.  A sample"
	    " whose latest run is not a pass (with its speedup where the"
	    " env judges speed) is in `failing/`, never in `data/`.\n\n"
	    "## Loading\n\n"
	    "```python\n"
	    "from datasets import load_dataset\n"
	    "ds = load_dataset(\"path/to/this/repository\")"
	    "    # config default: the verified samples, by split\n"
	    "failing = load_dataset(\"path/to/this/repository\","
	    " \"failing\")\n"
	    "```\n\n"
	    "Every line of a split file has the same keys"
	    " (`dataset_info` above); an absent value is null, `run.metrics`"
	    " is the env's measures as JSON text, and `run.inputs` lists"
	    " `{name, sha256}`.  For chat rows with repair trajectories and"
	    " loss masks: `assay import --format dataset .` into a"
	    " database, then `assay export --format sft -o DIR/`"
	    " (docs/formats.md of assay).\n");
	return buf_detach(&b, NULL);
}

static int
line_cmp(const void *a, const void *b)
{
	const struct sample_files *x = *(const struct sample_files *const *)a;
	const struct sample_files *y = *(const struct sample_files *const *)b;
	int d = strcmp(x->dir, y->dir);

	return d != 0 ? d : strcmp(x->id, y->id);
}

static void
splits_release(struct splits *sp)
{
	for (size_t i = 0; i < sp->n; i++)
		free(sp->paths[i]);
}

static int
file_cmp(const void *a, const void *b)
{
	const struct card_file *x = a, *y = b;
	int d = strcmp(x->config, y->config);	/* default before failing */

	if (d == 0)
		d = card_split_rank(x->split) - card_split_rank(y->split);
	return d != 0 ? d : strcmp(x->split, y->split);
}

/*
 * data/<split>.jsonl for the verified samples and failing/<split>.jsonl
 * for the others (accepted, but not a verified positive: the card's
 * config "failing", never "default"), each by folder and id with the
 * rows that carry a type its head does not show first (card.h).
 */
static void
split_files(struct collect *c, size_t nsamples, struct splits *sp)
{
	const struct sample_files **v = xreallocarray(NULL, nsamples + 1,
	    sizeof *v);

	for (size_t i = 0; i < nsamples; i++)
		v[i] = &c->v[i];
	qsort(v, nsamples, sizeof *v, line_cmp);
	for (int failing = 0; failing <= 1; failing++) {
		for (size_t i = 0; i < nsamples; i++) {
			char name[40];
			size_t k, first = sp->n;

			/* data/: the verified; failing/: the others */
			if (v[i]->verified == failing || v[i]->line == NULL)
				continue;
			card_split_name(v[i]->split != NULL && strcmp(
			    v[i]->split, "none") != 0 ? v[i]->split : NULL,
			    name, sizeof name);
			for (k = 0; k < sp->n; k++)
				if (strcmp(sp->names[k], name) == 0 &&
				    (strcmp(sp->files[k].config, "failing") ==
				    0) == failing)
					break;
			if (k < sp->n)
				continue;	/* written with its split */
			if (sp->n == sizeof sp->files / sizeof sp->files[0]) {
				sp->other++;
				continue;
			}
			snprintf(sp->names[first], sizeof sp->names[first],
			    "%s", name);
			sp->paths[first] = xasprintf("%s/%s.jsonl", failing ?
			    "failing" : "data", name);
			sp->files[first].config = failing ? "failing" :
			    "default";
			sp->files[first].split = sp->names[first];
			sp->files[first].path = sp->paths[first];
			sp->n++;
			{
				struct card_head h = { STRSET_INIT, 0 };
				struct buf head = BUF_INIT, rest = BUF_INIT;

				for (size_t j = i; j < nsamples; j++) {
					char n2[40];

					if (v[j]->verified == failing ||
					    v[j]->line == NULL)
						continue;
					card_split_name(v[j]->split != NULL &&
					    strcmp(v[j]->split, "none") != 0 ?
					    v[j]->split : NULL, n2, sizeof n2);
					if (strcmp(n2, name) != 0)
						continue;
					sp->files[first].rows++;
					if (card_head_feed(&h, v[j]->row,
					    strlen(v[j]->line)))
						buf_adds(&head, v[j]->line);
					else
						buf_adds(&rest, v[j]->line);
				}
				card_head_release(&h);
				buf_add(&head, rest.p != NULL ? rest.p : "",
				    rest.len);
				buf_release(&rest);
				buf_adds(&head, "");
				{
					size_t len = head.len;

					file_add(c, xstrdup(sp->paths[first]),
					    buf_detach(&head, NULL), len);
				}
			}
		}
	}
	free(v);
	qsort(sp->files, sp->n, sizeof sp->files[0], file_cmp);
}

/* The candidate id a dataset path belongs to, or NULL (task.json, a
 * task's verification file, a file outside the managed folders). */
static char *
path_sample(const char *path)
{
	const char *base = strrchr(path, '/');
	const char *dot;

	if (base == NULL || strstr(path, "/files/") != NULL ||
	    strncmp(path, "data/", 5) == 0 || strncmp(path, "failing/", 8) == 0)
		return NULL;	/* a task's file, or a split file */
	base++;
	if (strcmp(base, "task.json") == 0)
		return NULL;
	dot = strrchr(base, '.');	/* "<id>.<ext>": the id is before it */
	return xstrndup(base, dot != NULL ? (size_t)(dot - base) :
	    strlen(base));
}

/*
 * A commit in three steps, so that the part that touches no store can
 * run on a thread of its own (dataset_svc.c): build (the store is read),
 * write (the repository is mirrored and committed), finish (the commit
 * journalled).  Owns everything it holds.
 */
struct dataset_job {
	struct collect	 c;
	size_t		 nsamples;
	struct splits	 sp;
	char		*repo_dir, *message, *reviewer;
	struct dataset_result res;
};

void
dataset_job_free(struct dataset_job *j)
{
	if (j == NULL)
		return;
	files_free(j->c.files, j->c.nfiles);
	samples_free(j->c.v, j->c.n);
	strset_release(&j->c.ids);
	strset_release(&j->c.tasks);
	splits_release(&j->sp);
	free(j->repo_dir);
	free(j->message);
	free(j->reviewer);
	free(j);
}

int
dataset_job_build(struct store *st, const char *repo_dir,
    const char *message, const char *reviewer, struct dataset_job **out,
    struct err *err)
{
	struct dataset_job *j;
	char *text;

	*out = NULL;
	if (ident_check_reviewer(reviewer, err) < 0)
		return -1;
	j = xcalloc(1, sizeof *j);
	j->c.st = st;
	j->c.err = err;
	/* zeroed: the sets are STRSET_INIT */
	j->repo_dir = xstrdup(repo_dir);
	j->message = message != NULL ? xstrdup(message) : NULL;
	j->reviewer = xstrdup(reviewer);
	if (store_query_each(st, "status=accepted", collect_one, &j->c,
	    err) < 0 || j->c.failed)
		goto fail;
	j->nsamples = j->c.n;
	j->res.samples = j->nsamples;
	if (collect_context(&j->c, j->nsamples) < 0)
		goto fail;
	split_files(&j->c, j->nsamples, &j->sp);
	text = card(&j->c, j->nsamples, &j->sp, err);
	if (text == NULL)
		goto fail;
	file_add(&j->c, xstrdup("README.md"), text, strlen(text));
	j->res.context = j->c.n - j->nsamples;
	/* what follows touches no store */
	j->c.st = NULL;
	j->c.err = NULL;
	*out = j;
	return 0;
fail:
	dataset_job_free(j);
	return -1;
}

size_t
dataset_job_files(const struct dataset_job *j)
{
	return j->c.nfiles;
}

int
dataset_job_write(struct dataset_job *j, const atomic_int *cancel,
    struct err *err)
{
	struct collect *c = &j->c;
	struct dataset_result *res = &j->res;
	struct vcs_commit_opts o = { 0 };
	struct vcs_change *ch = NULL;
	struct vcs_result vr;
	size_t nch = 0;
	char **ids = NULL, *statuses = NULL;
	size_t nids = 0;
	struct buf msg = BUF_INIT, body = BUF_INIT, trailers = BUF_INIT;
	int rc = -1;

	o.repo_dir = j->repo_dir;
	o.managed_dirs = managed;
	o.nmanaged = sizeof managed / sizeof managed[0];
	o.author_name = j->reviewer;
	if (vcs_changes(&o, c->files, c->nfiles, &ch, &nch, err) < 0)
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

		for (size_t i = 0; i < c->n && s == NULL; i++)
			if (strcmp(c->v[i].id, ids[k]) == 0)
				s = &c->v[i];
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
			if (s->labeller != NULL)
				buf_printf(&trailers, "Labelled-by: %s\n",
				    s->labeller);
			if (s->reviewer != NULL)
				buf_printf(&trailers, "Reviewed-by: %s\n",
				    s->reviewer);
			buf_printf(&trailers, "Toolchain: %s\n", s->toolchain);
		} else {
			buf_printf(&trailers, "Assay-Verdict: removed\n");
			buf_printf(&trailers, "Assay-Category: -\n");
			buf_printf(&trailers, "Reviewed-by: %s\n", j->reviewer);
			buf_printf(&trailers, "Toolchain: -\n");
		}
	}
	if (j->message != NULL && *j->message != '\0')
		buf_printf(&msg, "%s\n\n", j->message);
	else
		buf_printf(&msg, "assay: add %zu, update %zu, remove %zu"
		    " samples\n\n", res->added, res->modified, res->removed);
	buf_printf(&msg, "%s\n%s", buf_str(&body), buf_str(&trailers));
	o.message = buf_str(&msg);
	/* the last moment to stop: nothing is written before it */
	if (cancel != NULL && atomic_load(cancel)) {
		err_set(err, "cancelled: nothing committed");
		goto out;
	}
	if (vcs_commit(&o, c->files, c->nfiles, &vr, err) < 0)
		goto out;
	res->committed = vr.committed;
	memcpy(res->oid, vr.oid, sizeof res->oid);
	rc = 0;
out:
	for (size_t k = 0; k < nids; k++)
		free(ids[k]);
	free(ids);
	free(statuses);
	vcs_changes_free(ch, nch);
	buf_release(&msg);
	buf_release(&body);
	buf_release(&trailers);
	return rc;
}

int
dataset_job_finish(struct store *st, struct dataset_job *j,
    struct dataset_result *res, struct err *err)
{
	*res = j->res;
	if (res->committed && store_event_add(st, j->reviewer, "commit", NULL,
	    res->oid, err) < 0)
		return -1;
	return 0;
}

int
dataset_commit(struct store *st, const char *repo_dir, const char *message,
    const char *reviewer, struct dataset_result *res, struct err *err)
{
	struct dataset_job *j;
	int rc = -1;

	memset(res, 0, sizeof *res);
	if (dataset_job_build(st, repo_dir, message, reviewer, &j, err) < 0)
		return -1;
	if (dataset_job_write(j, NULL, err) == 0)
		rc = dataset_job_finish(st, j, res, err);
	else
		*res = j->res;
	dataset_job_free(j);
	return rc;
}
