/*
 * dedup.c - exact and near-duplicate samples; see dedup.h.
 *
 * Memory: per compared candidate its id, a few flags, an exact hash and
 * a DEDUP_PERM * 4 byte signature (about 300 bytes), so a million fit in
 * a few hundred MB; code is read and dropped one candidate at a time.
 * Only one candidate of each exact group enters the LSH pass.
 */
#include "curate/dedup.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/hash.h"
#include "lang/syntax.h"
#include "model/vocab.h"



/* --- normalising ----------------------------------------------------- */

static int
word_char(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '_' || c == '$' || c >= 0x80;
}

/* Tokens for a language without a grammar: words and single marks,
 * comments dropped (# for python and asm, // and / * * / otherwise). */
static char *
lex_tokens(const char *lang, const char *s, size_t n, size_t *outlen)
{
	int hash = lang != NULL && (strcmp(lang, "python") == 0 ||
	    strcmp(lang, "asm") == 0);
	int slash = lang == NULL || strcmp(lang, "python") != 0;
	struct buf b = BUF_INIT;
	size_t i = 0;

	while (i < n) {
		unsigned char c = (unsigned char)s[i];

		if (c == ' ' || c == '\t' || c == '\n' || c == '\r' ||
		    c == '\f' || c == '\v') {
			i++;
		} else if ((hash && c == '#') || (slash && c == '/' &&
		    i + 1 < n && s[i + 1] == '/')) {
			while (i < n && s[i] != '\n')
				i++;
		} else if (slash && c == '/' && i + 1 < n && s[i + 1] == '*') {
			i += 2;
			while (i + 1 < n && !(s[i] == '*' && s[i + 1] == '/'))
				i++;
			i += 2;
		} else {
			size_t j = i + 1;

			if (word_char(c))
				while (j < n && word_char((unsigned char)s[j]))
					j++;
			if (b.len > 0)
				buf_addc(&b, ' ');
			buf_add(&b, s + i, j - i);
			i = j;
		}
	}
	buf_adds(&b, "");
	return buf_detach(&b, outlen);
}

int
dedup_normalise(const char *lang, const char *code, size_t len, char **out,
    size_t *outlen, char **ids, size_t *idslen, struct err *err)
{
	/* "systemverilog" reads with the verilog grammar */
	const char *g = lang != NULL && strcmp(lang, "systemverilog") == 0 ?
	    "verilog" : lang;
	int rc = syntax_tokens(g, code, len, out, outlen, ids, idslen, err);

	if (rc < 0)
		return -1;
	if (rc == 0) {
		*out = lex_tokens(lang, code, len, outlen);
		if (ids != NULL) {
			*ids = xstrndup(*out, *outlen);
			*idslen = *outlen;
		}
	}
	return 0;
}

/* --- MinHash and LSH ------------------------------------------------- */

static uint64_t seeds[DEDUP_PERM];

static void
seeds_init(void)
{
	if (seeds[0] != 0)
		return;
	for (size_t i = 0; i < DEDUP_PERM; i++)
		seeds[i] = hash_mix64(0x5eed0000ull + i) | 1;
}

/* Fold shingle hash h into sig. */
static void
sig_add(uint32_t *sig, uint64_t h)
{
	for (size_t i = 0; i < DEDUP_PERM; i++) {
		uint32_t v = (uint32_t)(hash_mix64(h ^ seeds[i]) >> 32);

		if (v < sig[i])
			sig[i] = v;
	}
}

void
dedup_minhash(const char *norm, size_t len, uint32_t *sig)
{
	size_t ends[DEDUP_SHINGLE], starts[DEDUP_SHINGLE], ntok = 0, p = 0;

	seeds_init();
	for (size_t i = 0; i < DEDUP_PERM; i++)
		sig[i] = UINT32_MAX;
	/* a ring of the last DEDUP_SHINGLE tokens slides over the text */
	while (p < len) {
		size_t e = p;

		while (e < len && norm[e] != ' ')
			e++;
		starts[ntok % DEDUP_SHINGLE] = p;
		ends[ntok % DEDUP_SHINGLE] = e;
		ntok++;
		if (ntok >= DEDUP_SHINGLE) {
			size_t first = starts[ntok % DEDUP_SHINGLE];

			sig_add(sig, hash_fnv64(norm + first, e - first,
			    HASH_FNV64_INIT));
		}
		p = e + 1;
	}
	/* fewer tokens than a shingle: the whole text is one */
	if (ntok > 0 && ntok < DEDUP_SHINGLE)
		sig_add(sig, hash_fnv64(norm, ends[(ntok - 1) % DEDUP_SHINGLE],
		    HASH_FNV64_INIT));
}

double
dedup_similarity(const uint32_t *a, const uint32_t *b)
{
	size_t same = 0;

	for (size_t i = 0; i < DEDUP_PERM; i++)
		same += a[i] == b[i];
	return (double)same / DEDUP_PERM;
}

/* The integral of f over [a, b] by Simpson's rule on 100 intervals. */
static double
integrate(double (*f)(double, double, double), double a, double b,
    double bands, double rows)
{
	const int n = 100;
	double h = (b - a) / n, sum = f(a, bands, rows) + f(b, bands, rows);

	for (int i = 1; i < n; i++)
		sum += f(a + i * h, bands, rows) * (i % 2 ? 4 : 2);
	return sum * h / 3;
}

/* x to the power n, n a whole number of bands or rows */
static double
ipow(double x, double n)
{
	double r = 1;

	for (int i = 0; i < (int)n; i++)
		r *= x;
	return r;
}

static double
p_candidate(double s, double bands, double rows)
{
	return 1 - ipow(1 - ipow(s, rows), bands);
}

static double
p_missed(double s, double bands, double rows)
{
	return 1 - p_candidate(s, bands, rows);
}

void
dedup_lsh_params(double t, size_t *bands, size_t *rows)
{
	double best = INFINITY;

	*bands = 1;
	*rows = DEDUP_PERM;
	for (size_t b = 1; b <= DEDUP_PERM; b++)
		for (size_t r = 1; r <= DEDUP_PERM / b; r++) {
			double e = 0.5 * integrate(p_candidate, 0, t,
			    (double)b, (double)r) + 0.5 * integrate(p_missed,
			    t, 1, (double)b, (double)r);

			if (e < best) {
				best = e;
				*bands = b;
				*rows = r;
			}
		}
}

/* --- the run --------------------------------------------------------- */

struct item {
	char		*id;
	int64_t		 seq;
	int		 pass, accepted;
	uint64_t	 exact;
	uint32_t	*sig;		/* NULL in the exact pass alone */
};

struct collect {
	struct store		*st;
	const struct dedup_opts	*o;
	struct item		*v;
	size_t			 n;
	struct err		*err;
	int			 failed;
};

static int
collect_one(const struct store_row *row, void *arg)
{
	struct collect *c = arg;
	struct candidate cand;
	struct item *it;
	char *norm, *ids = NULL, hex[HASH_HEX_LEN + 1];
	size_t len, idslen = 0;
	int found;

	found = store_candidate_get(c->st, row->id, &cand, c->err);
	if (found != 0) {
		if (found > 0)
			err_set(c->err, "no candidate %s", row->id);
		c->failed = 1;
		return 1;
	}
	if (dedup_normalise(cand.lang, cand.code, cand.code_len, &norm, &len,
	    c->o->exact_only ? NULL : &ids, &idslen, c->err) < 0) {
		candidate_release(&cand);
		c->failed = 1;
		return 1;
	}
	c->v = xreallocarray(c->v, c->n + 1, sizeof *c->v);
	it = &c->v[c->n++];
	it->id = xstrdup(row->id);
	it->seq = row->seq;
	it->pass = verdict_is(row->verdict, VERDICT_PASS);
	it->accepted = row->status != NULL && strcmp(row->status,
	    "accepted") == 0;
	hash_sha256(norm, len, hex);
	it->exact = 0;
	for (int i = 0; i < 16; i++)
		it->exact = it->exact << 4 | (uint64_t)(hex[i] <= '9' ?
		    hex[i] - '0' : hex[i] - 'a' + 10);
	it->sig = NULL;
	if (!c->o->exact_only) {
		it->sig = xreallocarray(NULL, DEDUP_PERM, sizeof *it->sig);
		dedup_minhash(ids, idslen, it->sig);
	}
	free(norm);
	free(ids);
	candidate_release(&cand);
	return 0;
}

/* union-find with path halving */
static size_t
uf_find(size_t *parent, size_t x)
{
	while (parent[x] != x) {
		parent[x] = parent[parent[x]];
		x = parent[x];
	}
	return x;
}

static void
uf_union(size_t *parent, size_t a, size_t b)
{
	a = uf_find(parent, a);
	b = uf_find(parent, b);
	if (a != b)
		parent[a > b ? a : b] = a < b ? a : b;
}

static struct item *sort_items;

static int
by_exact(const void *x, const void *y)
{
	const struct item *a = &sort_items[*(const size_t *)x];
	const struct item *b = &sort_items[*(const size_t *)y];

	if (a->exact != b->exact)
		return a->exact < b->exact ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

struct keyed {
	uint64_t key;
	size_t	 idx;
};

static int
by_key(const void *x, const void *y)
{
	const struct keyed *a = x, *b = y;

	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

/* Is a a better one to keep than b?  pass, accepted, earliest. */
static int
better(const struct item *a, const struct item *b)
{
	if (a->pass != b->pass)
		return a->pass;
	if (a->accepted != b->accepted)
		return a->accepted;
	return a->seq < b->seq;
}

struct member {
	size_t	 root, idx;
};

static int
by_root(const void *x, const void *y)
{
	const struct member *a = x, *b = y;

	if (a->root != b->root)
		return a->root < b->root ? -1 : 1;
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

static int
by_size(const void *x, const void *y)
{
	const struct dedup_cluster *a = x, *b = y;

	if (a->n != b->n)
		return a->n > b->n ? -1 : 1;
	return strcmp(a->ids[0], b->ids[0]);
}

void
dedup_report_release(struct dedup_report *r)
{
	for (size_t i = 0; i < r->clusters; i++) {
		for (size_t k = 0; k < r->v[i].n; k++)
			free(r->v[i].ids[k]);
		free(r->v[i].ids);
		free(r->v[i].similarity);
		free(r->v[i].exact);
	}
	free(r->v);
	memset(r, 0, sizeof *r);
}

int
dedup_run(struct store *st, const struct dedup_opts *opts,
    struct dedup_report *rep, struct err *err)
{
	struct collect c = { st, opts, NULL, 0, err, 0 };
	double t = opts->threshold > 0 ? opts->threshold : 0.8;
	size_t *order = NULL, *parent = NULL, *reps = NULL, nreps = 0;
	struct keyed *keys = NULL;
	struct member *m = NULL;
	struct store_dup *rows = NULL;
	size_t nrows = 0;
	int rc = -1;

	memset(rep, 0, sizeof *rep);
	if (t > 1)
		return err_set(err, "threshold %g: want a Jaccard similarity"
		    " above 0, at most 1", t);
	if (store_query_each(st, opts->where, collect_one, &c, err) != 0 ||
	    c.failed)
		goto out;
	rep->samples = c.n;
	parent = xreallocarray(NULL, c.n + 1, sizeof *parent);
	for (size_t i = 0; i < c.n; i++)
		parent[i] = i;
	/* exact: equal normalised code */
	order = xreallocarray(NULL, c.n + 1, sizeof *order);
	for (size_t i = 0; i < c.n; i++)
		order[i] = i;
	sort_items = c.v;
	qsort(order, c.n, sizeof *order, by_exact);
	reps = xreallocarray(NULL, c.n + 1, sizeof *reps);
	for (size_t i = 0; i < c.n; i++) {
		if (i > 0 && c.v[order[i]].exact == c.v[order[i - 1]].exact)
			uf_union(parent, order[i - 1], order[i]);
		else
			reps[nreps++] = order[i];
	}
	/* near: LSH over one of each exact group */
	if (!opts->exact_only && nreps > 1) {
		dedup_lsh_params(t, &rep->bands, &rep->rows);
		keys = xreallocarray(NULL, nreps, sizeof *keys);
		for (size_t b = 0; b < rep->bands; b++) {
			for (size_t i = 0; i < nreps; i++) {
				const uint32_t *sg = c.v[reps[i]].sig +
				    b * rep->rows;

				keys[i].key = hash_fnv64((const char *)sg,
				    rep->rows * sizeof *sg, hash_mix64(b));
				keys[i].idx = reps[i];
			}
			qsort(keys, nreps, sizeof *keys, by_key);
			for (size_t i = 1; i < nreps; i++) {
				size_t head = i, a, bb = keys[i].idx;

				while (head > 0 && keys[head - 1].key ==
				    keys[i].key)
					head--;
				if (head == i)
					continue;
				/* against the bucket's first and the one
				 * before: a bucket of a thousand costs two
				 * thousand comparisons, not half a million */
				a = keys[head].idx;
				if (dedup_similarity(c.v[a].sig,
				    c.v[bb].sig) >= t)
					uf_union(parent, a, bb);
				a = keys[i - 1].idx;
				if (a != keys[head].idx &&
				    dedup_similarity(c.v[a].sig,
				    c.v[bb].sig) >= t)
					uf_union(parent, a, bb);
			}
		}
	}
	/* clusters */
	m = xreallocarray(NULL, c.n + 1, sizeof *m);
	for (size_t i = 0; i < c.n; i++) {
		m[i].root = uf_find(parent, i);
		m[i].idx = i;
	}
	qsort(m, c.n, sizeof *m, by_root);
	for (size_t i = 0; i < c.n;) {
		size_t j = i, keep;
		struct dedup_cluster *cl;

		while (j < c.n && m[j].root == m[i].root)
			j++;
		if (j - i < 2) {
			i = j;
			continue;
		}
		keep = m[i].idx;
		for (size_t k = i + 1; k < j; k++)
			if (better(&c.v[m[k].idx], &c.v[keep]))
				keep = m[k].idx;
		rep->v = xreallocarray(rep->v, rep->clusters + 1,
		    sizeof *rep->v);
		cl = &rep->v[rep->clusters++];
		cl->n = 0;
		cl->ids = xreallocarray(NULL, j - i, sizeof *cl->ids);
		cl->similarity = xreallocarray(NULL, j - i,
		    sizeof *cl->similarity);
		cl->exact = xreallocarray(NULL, j - i, sizeof *cl->exact);
		cl->ids[cl->n] = xstrdup(c.v[keep].id);
		cl->similarity[cl->n] = 1;
		cl->exact[cl->n++] = 1;
		for (size_t k = i; k < j; k++) {
			const struct item *it = &c.v[m[k].idx];
			int ex = it->exact == c.v[keep].exact;

			if (m[k].idx == keep)
				continue;
			cl->ids[cl->n] = xstrdup(it->id);
			cl->exact[cl->n] = ex;
			cl->similarity[cl->n++] = ex || it->sig == NULL ? 1 :
			    dedup_similarity(it->sig, c.v[keep].sig);
			if (ex)
				rep->exact_dups++;
			else
				rep->near_dups++;
		}
		i = j;
	}
	qsort(rep->v, rep->clusters, sizeof *rep->v, by_size);
	if (!opts->dry_run) {
		for (size_t i = 0; i < rep->clusters; i++)
			nrows += rep->v[i].n;
		rows = xreallocarray(NULL, nrows + 1, sizeof *rows);
		nrows = 0;
		for (size_t i = 0; i < rep->clusters; i++)
			for (size_t k = 0; k < rep->v[i].n; k++) {
				rows[nrows].cand_id = rep->v[i].ids[k];
				rows[nrows].cluster = rep->v[i].ids[0];
				rows[nrows].exact = rep->v[i].exact[k];
				rows[nrows].similarity =
				    rep->v[i].similarity[k];
				rows[nrows++].keep = k == 0;
			}
		if (store_dup_replace(st, rows, nrows, err) < 0)
			goto out;
	}
	rc = 0;
out:
	if (rc < 0)
		dedup_report_release(rep);
	for (size_t i = 0; i < c.n; i++) {
		free(c.v[i].id);
		free(c.v[i].sig);
	}
	free(c.v);
	free(order);
	free(parent);
	free(reps);
	free(keys);
	free(m);
	free(rows);
	return rc;
}
