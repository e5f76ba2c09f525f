/*
 * contam.c - benchmark contamination by shared word n-grams; see
 * contam.h.  The n-grams of a benchmark go into one open-addressing
 * table of 64-bit hashes, each with the task (or file) it came from;
 * samples are then read one at a time and their n-grams looked up.
 */
#include "exchange/contam.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/buf.h"
#include "base/hash.h"
#include "exchange/import.h"
#include "model/sample.h"

#define CONTAM_DEPTH_MAX	32
#define CONTAM_FILE_MAX		(64u << 20)	/* bytes read of one file */


static int
word_char(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '_' || c >= 0x80;
}

/* The hashes of text's words, lower-cased, appended to *w. */
static void
words(const char *s, size_t n, uint64_t **w, size_t *nw, size_t *cap)
{
	size_t i = 0;

	while (i < n) {
		uint64_t h = HASH_FNV64_INIT;

		while (i < n && !word_char((unsigned char)s[i]))
			i++;
		if (i == n)
			break;
		while (i < n && word_char((unsigned char)s[i])) {
			unsigned char c = (unsigned char)s[i++];

			if (c >= 'A' && c <= 'Z')
				c = (unsigned char)(c - 'A' + 'a');
			h = (h ^ c) * 1099511628211ull;
		}
		if (*nw == *cap) {
			*cap = *cap != 0 ? *cap * 2 : 1024;
			*w = xreallocarray(*w, *cap, sizeof **w);
		}
		(*w)[(*nw)++] = h;
	}
}

/* The hash of the n words from w. */
static uint64_t
gram(const uint64_t *w, int n)
{
	uint64_t h = 0x13579bdf2468ace0ull;

	for (int i = 0; i < n; i++)
		h = hash_mix64(h ^ w[i]);
	return h | 1;		/* 0 marks an empty slot */
}

/* --- the table of a benchmark's n-grams ------------------------------ */

struct table {
	uint64_t	*key;
	uint32_t	*doc;
	size_t		 cap, n;
	char		**docs;		/* task ids or file names */
	size_t		 ndocs;
};

static void
table_put(struct table *t, uint64_t k, uint32_t doc)
{
	size_t i;

	if ((t->n + 1) * 2 > t->cap) {
		struct table b = *t;

		b.cap = t->cap != 0 ? t->cap * 2 : 1 << 16;
		b.key = xcalloc(b.cap, sizeof *b.key);
		b.doc = xcalloc(b.cap, sizeof *b.doc);
		b.n = 0;
		for (size_t j = 0; j < t->cap; j++) {
			if (t->key[j] == 0)
				continue;
			for (i = t->key[j] & (b.cap - 1); b.key[i] != 0;
			    i = (i + 1) & (b.cap - 1))
				;
			b.key[i] = t->key[j];
			b.doc[i] = t->doc[j];
			b.n++;
		}
		free(t->key);
		free(t->doc);
		*t = b;
	}
	for (i = k & (t->cap - 1); t->key[i] != 0; i = (i + 1) & (t->cap - 1))
		if (t->key[i] == k)
			return;		/* the first document keeps it */
	t->key[i] = k;
	t->doc[i] = doc;
	t->n++;
}

/* The document of n-gram k, or -1. */
static long
table_get(const struct table *t, uint64_t k)
{
	if (t->cap == 0)
		return -1;
	for (size_t i = k & (t->cap - 1); t->key[i] != 0;
	    i = (i + 1) & (t->cap - 1))
		if (t->key[i] == k)
			return (long)t->doc[i];
	return -1;
}

static void
table_release(struct table *t)
{
	for (size_t i = 0; i < t->ndocs; i++)
		free(t->docs[i]);
	free(t->docs);
	free(t->key);
	free(t->doc);
	memset(t, 0, sizeof *t);
}

/* Add the n-grams of text as document name. */
static void
table_add_text(struct table *t, const char *name, const char *s, size_t len,
    int n)
{
	uint64_t *w = NULL;
	size_t nw = 0, cap = 0;

	t->docs = xreallocarray(t->docs, t->ndocs + 1, sizeof *t->docs);
	t->docs[t->ndocs++] = xstrdup(name);
	words(s, len, &w, &nw, &cap);
	for (size_t i = 0; i + (size_t)n <= nw; i++)
		table_put(t, gram(w + i, n), (uint32_t)(t->ndocs - 1));
	free(w);
}

/* --- reading a benchmark ------------------------------------------- */

struct bench_read {
	struct store	*st;
	struct table	*t;
	int		 n;
	char		*last_task;
	struct err	*err;
	size_t		 rows;
};

/* A row of the benchmark into the table (store_query_each): 0, or -1
 * with err set, which the walk hands back. */
static int
bench_row(const struct store_row *row, void *arg)
{
	struct bench_read *b = arg;
	struct task t;
	struct buf text = BUF_INIT;

	b->rows++;
	/* a task once: its rows come in import order, a task's together
	 * in the shared importers; a repeat only adds nothing */
	if (b->last_task == NULL || strcmp(b->last_task, row->task) != 0) {
		if (store_task_get(b->st, row->task, &t, b->err) != 0)
			return -1;
		if (t.spec != NULL)
			buf_printf(&text, "%s\n", t.spec);
		if (t.interface != NULL)
			buf_printf(&text, "%s\n", t.interface);
		for (size_t i = 0; i < t.nfiles; i++) {
			buf_add(&text, t.files[i].data, t.files[i].len);
			buf_addc(&text, '\n');
		}
		task_release(&t);
		free(b->last_task);
		b->last_task = xstrdup(row->task);
	}
	if (row->origin != NULL && strcmp(row->origin, "reference") == 0) {
		struct candidate c;

		if (store_candidate_get(b->st, row->id, &c, b->err) != 0) {
			buf_release(&text);
			return -1;
		}
		buf_add(&text, c.code, c.code_len);
		candidate_release(&c);
	}
	if (text.len > 0)
		table_add_text(b->t, row->task, text.p, text.len, b->n);
	buf_release(&text);
	return 0;
}

static int
is_dir(const char *p)
{
	struct stat sb;

	return stat(p, &sb) == 0 && S_ISDIR(sb.st_mode);
}

/* Every file under path: its text, a .jsonl line by line. */
static int
bench_path(struct table *t, const char *path, int n, int depth,
    struct err *err)
{
	char **names, *data;
	size_t nn, len;

	if (depth > CONTAM_DEPTH_MAX)
		return err_set(err, "%s: folders nested deeper than %d", path,
		    CONTAM_DEPTH_MAX);
	if (is_dir(path)) {
		if (import_list_dir(path, &names, &nn, err) < 0)
			return -1;
		for (size_t i = 0; i < nn; i++) {
			char *p = xasprintf("%s/%s", path, names[i]);
			int rc = bench_path(t, p, n, depth + 1, err);

			free(p);
			if (rc < 0) {
				strv_free(names, nn);
				return -1;
			}
		}
		strv_free(names, nn);
		return 0;
	}
	if (import_read_file(path, &data, &len, err) < 0)
		return -1;
	if (len > CONTAM_FILE_MAX)
		len = CONTAM_FILE_MAX;
	if (import_has_suffix(path, ".jsonl")) {
		size_t line = 0, at = 0;

		while (at < len) {
			char *nl = memchr(data + at, '\n', len - at);
			size_t l = nl != NULL ? (size_t)(nl - data - at) :
			    len - at;
			char *name = xasprintf("%s:%zu", path, ++line);

			table_add_text(t, name, data + at, l, n);
			free(name);
			at += l + 1;
		}
	} else {
		table_add_text(t, path, data, len, n);
	}
	free(data);
	return 0;
}

/* --- checking the samples ------------------------------------------- */

struct check {
	struct store		*st;
	const struct table	*t;
	const char		*bench;	/* its own candidates are skipped */
	int			 n;
	size_t			 min;
	size_t			*count;	/* per document, zeroed after use */
	struct contam_report	*rep;
	struct err		*err;
	uint64_t		*w;
	size_t			 cap;
	size_t			 checked;
};

/* A sample against the table (store_query_each): 0, or -1 with err set,
 * which the walk hands back. */
static int
check_row(const struct store_row *row, void *arg)
{
	struct check *c = arg;
	struct candidate cand;
	struct task t;
	size_t nw = 0, total = 0, best = 0;
	long bestdoc = -1;

	if (row->benchmark != NULL && strcmp(row->benchmark, c->bench) == 0)
		return 0;
	c->checked++;
	if (store_candidate_get(c->st, row->id, &cand, c->err) != 0 ||
	    store_task_get(c->st, row->task, &t, c->err) != 0)
		return -1;
	words(cand.code, cand.code_len, &c->w, &nw, &c->cap);
	/* the spec apart, so that no n-gram spans spec and code */
	{
		size_t code_words = nw;

		if (t.spec != NULL)
			words(t.spec, strlen(t.spec), &c->w, &nw, &c->cap);
		for (size_t i = 0; i + (size_t)c->n <= nw; i++) {
			long d;

			if (i < code_words && i + (size_t)c->n > code_words)
				continue;
			d = table_get(c->t, gram(c->w + i, c->n));
			if (d < 0)
				continue;
			total++;
			if (++c->count[d] > best) {
				best = c->count[d];
				bestdoc = d;
			}
		}
		/* zero what was counted */
		for (size_t i = 0; i + (size_t)c->n <= nw; i++) {
			long d = table_get(c->t, gram(c->w + i, c->n));

			if (d >= 0)
				c->count[d] = 0;
		}
	}
	if (total >= c->min && total > 0) {
		struct contam_hit *h;

		c->rep->hits = xreallocarray(c->rep->hits, c->rep->nhits + 1,
		    sizeof *c->rep->hits);
		h = &c->rep->hits[c->rep->nhits++];
		h->cand_id = xstrdup(row->id);
		h->benchmark = xstrdup(c->bench);
		h->task = xstrdup(c->t->docs[bestdoc]);
		h->ngrams = total;
	}
	candidate_release(&cand);
	task_release(&t);
	return 0;
}

void
contam_report_release(struct contam_report *r)
{
	for (size_t i = 0; i < r->nhits; i++) {
		free(r->hits[i].cand_id);
		free(r->hits[i].benchmark);
		free(r->hits[i].task);
	}
	free(r->hits);
	memset(r, 0, sizeof *r);
}

/* The name a benchmark given as a path goes by: its last component
 * without an extension ("verilog-eval-v2", "ref.jsonl" -> "ref"). */
static char *
path_name(const char *path)
{
	const char *end = path + strlen(path), *slash, *dot;

	while (end > path + 1 && end[-1] == '/')
		end--;
	for (slash = end; slash > path && slash[-1] != '/'; slash--)
		;
	dot = memchr(slash, '.', (size_t)(end - slash));
	if (dot != NULL && dot > slash)
		end = dot;
	return xstrndup(slash, (size_t)(end - slash));
}

int
contam_run(struct store *st, const struct contam_opts *opts,
    struct contam_report *rep, struct err *err)
{
	int n = opts->ngram > 0 ? opts->ngram : 13;
	char **names = xcalloc(opts->nagainst + 1, sizeof *names);
	struct store_contam *rows = NULL;
	size_t nrows = 0;
	struct strs { char **v; size_t n; } flagged = { NULL, 0 };
	int rc = -1;

	memset(rep, 0, sizeof *rep);
	if (opts->nagainst == 0) {
		free(names);
		return err_set(err, "no benchmark to check against");
	}
	if (n < 1 || n > 100) {
		free(names);
		return err_set(err, "n-grams of %d words: want 1 to 100", n);
	}
	for (size_t b = 0; b < opts->nagainst; b++) {
		struct table t = { 0 };
		struct bench_read br = { st, &t, n, NULL, err, 0 };
		struct check ck;
		struct stat sb;
		char *f = xasprintf("benchmark=\"%s\"", opts->against[b]);
		int r = store_query_each(st, f, bench_row, &br, err);

		free(f);
		free(br.last_task);
		if (r != 0) {
			table_release(&t);
			goto out;
		}
		if (br.rows > 0) {
			names[b] = xstrdup(opts->against[b]);
		} else if (stat(opts->against[b], &sb) == 0) {
			names[b] = path_name(opts->against[b]);
			if (bench_path(&t, opts->against[b], n, 0, err) < 0) {
				table_release(&t);
				goto out;
			}
		} else {
			table_release(&t);
			err_set(err, "%s: no imported benchmark of that name and"
			    " no such file or directory", opts->against[b]);
			goto out;
		}
		rep->grams += t.n;
		rep->docs += t.ndocs;
		memset(&ck, 0, sizeof ck);
		ck.st = st;
		ck.t = &t;
		ck.bench = names[b];
		ck.n = n;
		ck.min = opts->min_shared > 0 ? opts->min_shared : 1;
		ck.count = xcalloc(t.ndocs + 1, sizeof *ck.count);
		ck.rep = rep;
		ck.err = err;
		r = store_query_each(st, opts->where, check_row, &ck, err);
		if (ck.checked > rep->samples)
			rep->samples = ck.checked;
		free(ck.count);
		free(ck.w);
		table_release(&t);
		if (r != 0)
			goto out;
	}
	rows = xreallocarray(NULL, rep->nhits + 1, sizeof *rows);
	for (size_t i = 0; i < rep->nhits; i++) {
		int seen = 0;

		rows[nrows].cand_id = rep->hits[i].cand_id;
		rows[nrows].benchmark = rep->hits[i].benchmark;
		rows[nrows].task_id = rep->hits[i].task;
		rows[nrows++].ngrams = rep->hits[i].ngrams;
		for (size_t k = 0; k < flagged.n && !seen; k++)
			seen = strcmp(flagged.v[k], rep->hits[i].cand_id) == 0;
		if (!seen) {
			flagged.v = xreallocarray(flagged.v, flagged.n + 1,
			    sizeof *flagged.v);
			flagged.v[flagged.n++] = rep->hits[i].cand_id;
		}
	}
	rep->flagged = flagged.n;
	if (store_contam_replace(st, (const char *const *)names,
	    opts->nagainst, rows, nrows, err) < 0)
		goto out;
	rc = 0;
out:
	if (rc < 0)
		contam_report_release(rep);
	for (size_t b = 0; b < opts->nagainst; b++)
		free(names[b]);
	free(names);
	free(rows);
	free(flagged.v);
	return rc;
}
