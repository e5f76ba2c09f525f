/*
 * dedup.c - exact and near-duplicate samples; see dedup.h.
 *
 * Memory: per compared candidate its id, a few flags, an exact hash and
 * a DEDUP_PERM * 4 byte signature (about 300 bytes), so a million fit in
 * a few hundred MB; code is read and dropped one candidate at a time.
 * Only one candidate of each exact group enters the LSH pass.
 */
#include "curate/dedup.h"

#include <stdio.h>
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

/* --- shingles, MinHash and LSH -------------------------------------- */

static uint64_t seeds[DEDUP_PERM];

static void
seeds_init(void)
{
	if (seeds[0] != 0)
		return;
	for (size_t i = 0; i < DEDUP_PERM; i++)
		seeds[i] = hash_mix64(0x5eed0000ull + i) | 1;
}

/* Is the token t (n bytes) an identifier the normaliser numbered ($N)? */
static int
numbered(const char *t, size_t n)
{
	if (n < 2 || t[0] != '$')
		return 0;
	for (size_t i = 1; i < n; i++)
		if (t[i] < '0' || t[i] > '9')
			return 0;
	return 1;
}

/*
 * The hash of one shingle: tokens [start[i], end[i]) of norm, i < n,
 * joined by spaces, each identifier numbered again by its first use in
 * the shingle, so that a shingle reads the same wherever the file's
 * numbering put its names.
 */
static uint32_t
shingle_hash(const char *norm, const size_t *start, const size_t *end,
    size_t n)
{
	const char *name[DEDUP_SHINGLE];
	size_t nlen[DEDUP_SHINGLE], nnames = 0;
	uint64_t h = HASH_FNV64_INIT;

	for (size_t i = 0; i < n; i++) {
		const char *t = norm + start[i];
		size_t len = end[i] - start[i], k;
		char local[8];

		if (i > 0)
			h = hash_fnv64(" ", 1, h);
		if (!numbered(t, len)) {
			h = hash_fnv64(t, len, h);
			continue;
		}
		for (k = 0; k < nnames && (nlen[k] != len ||
		    memcmp(name[k], t, len) != 0); k++)
			;
		if (k == nnames) {
			name[nnames] = t;
			nlen[nnames++] = len;
		}
		snprintf(local, sizeof local, "$%zu", k);
		h = hash_fnv64(local, strlen(local), h);
	}
	h = hash_mix64(h);
	return (uint32_t)(h >> 32);
}

static int
by_u32(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;

	return a < b ? -1 : a > b;
}

void
dedup_shingles(const char *norm, size_t len, uint32_t **set, size_t *n)
{
	size_t ends[DEDUP_SHINGLE], starts[DEDUP_SHINGLE], ntok = 0, p = 0;
	size_t cap = 0, k = 0;
	uint32_t *v = NULL;

	*set = NULL;
	*n = 0;
	/* a ring of the last DEDUP_SHINGLE tokens slides over the text */
	while (p < len) {
		size_t e = p;

		while (e < len && norm[e] != ' ')
			e++;
		starts[ntok % DEDUP_SHINGLE] = p;
		ends[ntok % DEDUP_SHINGLE] = e;
		ntok++;
		if (ntok >= DEDUP_SHINGLE) {
			size_t s[DEDUP_SHINGLE], f[DEDUP_SHINGLE];

			for (size_t i = 0; i < DEDUP_SHINGLE; i++) {
				s[i] = starts[(ntok + i) % DEDUP_SHINGLE];
				f[i] = ends[(ntok + i) % DEDUP_SHINGLE];
			}
			if (k == cap) {
				cap = cap > 0 ? cap * 2 : 64;
				v = xreallocarray(v, cap, sizeof *v);
			}
			v[k++] = shingle_hash(norm, s, f, DEDUP_SHINGLE);
		}
		p = e + 1;
	}
	/* fewer tokens than a shingle: the whole text is one */
	if (ntok > 0 && ntok < DEDUP_SHINGLE) {
		v = xreallocarray(v, 1, sizeof *v);
		v[k++] = shingle_hash(norm, starts, ends, ntok);
	}
	if (k == 0) {
		free(v);
		return;
	}
	qsort(v, k, sizeof *v, by_u32);
	*n = 1;
	for (size_t i = 1; i < k; i++)
		if (v[i] != v[*n - 1])
			v[(*n)++] = v[i];
	*set = v;
}

void
dedup_minhash(const uint32_t *set, size_t n, uint32_t *sig)
{
	seeds_init();
	for (size_t i = 0; i < DEDUP_PERM; i++)
		sig[i] = UINT32_MAX;
	for (size_t k = 0; k < n; k++)
		for (size_t i = 0; i < DEDUP_PERM; i++) {
			uint32_t v = (uint32_t)(hash_mix64(set[k] ^
			    seeds[i]) >> 32);

			if (v < sig[i])
				sig[i] = v;
		}
}

double
dedup_jaccard(const uint32_t *a, size_t na, const uint32_t *b, size_t nb)
{
	size_t i = 0, j = 0, same = 0;

	if (na == 0 || nb == 0)
		return na == nb ? 1 : 0;
	while (i < na && j < nb) {
		if (a[i] == b[j]) {
			same++;
			i++;
			j++;
		} else if (a[i] < b[j]) {
			i++;
		} else {
			j++;
		}
	}
	return (double)same / (double)(na + nb - same);
}

/* x to the power n */
static double
ipow(double x, size_t n)
{
	double r = 1;

	for (size_t i = 0; i < n; i++)
		r *= x;
	return r;
}

void
dedup_lsh_params(double t, size_t *bands, size_t *rows)
{
	/* the most rows (the fewest false candidates) that still make a
	 * pair at exactly t a candidate with DEDUP_LSH_RECALL */
	for (size_t r = DEDUP_PERM; r >= 1; r--) {
		size_t b = DEDUP_PERM / r;

		if (1 - ipow(1 - ipow(t, r), b) >= DEDUP_LSH_RECALL || r == 1) {
			*bands = b;
			*rows = r;
			return;
		}
	}
}

/* --- the run --------------------------------------------------------- */

struct item {
	char		*id;
	int64_t		 seq;
	int		 pass, accepted;
	int		 repair;	/* a repair with a parent: a trajectory */
	int		 depth;		/* its failed turns; -1: not asked yet */
	uint64_t	 exact;
	size_t		 rep;		/* the first of its exact group */
	uint32_t	*set;		/* the group's first only; else NULL */
	size_t		 nset;
	uint32_t	*sig;		/* likewise */
};

/* The exact groups seen so far: exact hash -> first item (open
 * addressing; the hash is part of a SHA-256, so it is its own hash). */
struct groups {
	uint64_t *key;
	size_t	 *idx;		/* item index + 1; 0: empty */
	size_t	  cap, n;
};

static size_t *
groups_slot(struct groups *g, uint64_t key)
{
	size_t i = (size_t)key & (g->cap - 1);

	while (g->idx[i] != 0 && g->key[i] != key)
		i = (i + 1) & (g->cap - 1);
	g->key[i] = key;
	return &g->idx[i];
}

/* The first item of key's group, or idx when it is the first. */
static size_t
groups_put(struct groups *g, uint64_t key, size_t idx)
{
	size_t *slot;

	if (2 * (g->n + 1) > g->cap) {
		struct groups old = *g;

		g->cap = g->cap > 0 ? g->cap * 2 : 1024;
		g->key = xcalloc(g->cap, sizeof *g->key);
		g->idx = xcalloc(g->cap, sizeof *g->idx);
		g->n = 0;
		for (size_t i = 0; i < old.cap; i++)
			if (old.idx[i] != 0) {
				*groups_slot(g, old.key[i]) = old.idx[i];
				g->n++;
			}
		free(old.key);
		free(old.idx);
	}
	slot = groups_slot(g, key);
	if (*slot == 0) {
		*slot = idx + 1;
		g->n++;
	}
	return *slot - 1;
}

struct collect {
	struct store		*st;
	const struct dedup_opts	*o;
	struct item		*v;
	size_t			 n;
	struct groups		 groups;
	struct err		*err;
	int			 failed;
};

/* What an item owns (array_free()). */
static void
item_release(void *p)
{
	struct item *it = p;

	free(it->id);
	free(it->set);
	free(it->sig);
}

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
	it = &c->v[c->n];
	memset(it, 0, sizeof *it);
	it->id = xstrdup(row->id);
	it->seq = row->seq;
	it->pass = verdict_is(row->verdict, VERDICT_PASS);
	it->accepted = row->status != NULL && strcmp(row->status,
	    "accepted") == 0;
	it->repair = row->parent != NULL && row->kind != NULL &&
	    strcmp(row->kind, "repair") == 0;
	it->depth = -1;
	hash_sha256(norm, len, hex);
	for (int i = 0; i < 16; i++)
		it->exact = it->exact << 4 | (uint64_t)(hex[i] <= '9' ?
		    hex[i] - '0' : hex[i] - 'a' + 10);
	/* an exact copy of an earlier sample shares that one's shingles:
	 * only the first of a group keeps them */
	it->rep = groups_put(&c->groups, it->exact, c->n);
	if (!c->o->exact_only && it->rep == c->n) {
		dedup_shingles(ids, idslen, &it->set, &it->nset);
		it->sig = xreallocarray(NULL, DEDUP_PERM, sizeof *it->sig);
		dedup_minhash(it->set, it->nset, it->sig);
	}
	c->n++;
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

/* The failed turns before it of a repair (its parent, and theirs while
 * they are repairs, as the sft export's trajectory has them), asked of
 * the store once. */
static int
depth_of(struct store *st, struct item *it, struct err *err)
{
	if (it->depth < 0) {
		if (!it->repair)
			it->depth = 0;
		else if (store_repair_depth(st, it->id, &it->depth, err) < 0)
			return -1;
	}
	return 0;
}

/*
 * Is a a better one to keep than b?  The passing, then the accepted,
 * then the longer repair trajectory (its failed turns and their
 * feedback are what an sft export of it teaches; a direct copy of its
 * final code has none), then the earliest.
 */
static int
better(struct store *st, struct item *a, struct item *b, int *res,
    struct err *err)
{
	if (a->pass != b->pass) {
		*res = a->pass;
	} else if (a->accepted != b->accepted) {
		*res = a->accepted;
	} else {
		if (depth_of(st, a, err) < 0 || depth_of(st, b, err) < 0)
			return -1;
		*res = a->depth != b->depth ? a->depth > b->depth :
		    a->seq < b->seq;
	}
	return 0;
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

/* What a cluster owns (array_free()). */
static void
cluster_release(void *p)
{
	struct dedup_cluster *cl = p;

	strv_free(cl->ids, cl->n);
	free(cl->similarity);
	free(cl->exact);
}

void
dedup_report_release(struct dedup_report *r)
{
	array_free(r->v, r->clusters, sizeof *r->v, cluster_release);
	memset(r, 0, sizeof *r);
}

/* The exact Jaccard similarity of two items' shingles (their groups'). */
static double
item_jaccard(const struct item *v, size_t a, size_t b)
{
	const struct item *x = &v[v[a].rep], *y = &v[v[b].rep];

	return dedup_jaccard(x->set, x->nset, y->set, y->nset);
}

/*
 * Join the near copies among the first items of the exact groups
 * (reps[0..nreps)): LSH in rep->bands bands of rep->rows values; two
 * items that share a band and are not in one cluster yet are compared
 * by the exact Jaccard similarity of their shingles (a size filter
 * first: J <= the smaller set over the larger) and joined when it
 * reaches t.  In a bucket an item is compared with at most
 * DEDUP_BUCKET_CMP earlier ones of other clusters, so that a bucket of
 * a thousand unrelated samples costs a bounded number of comparisons.
 */
static void
near_pass(struct item *v, const size_t *reps, size_t nreps, double t,
    struct dedup_report *rep, size_t *parent, FILE *pairs)
{
	struct keyed *keys = xreallocarray(NULL, nreps, sizeof *keys);

	for (size_t b = 0; b < rep->bands; b++) {
		for (size_t i = 0; i < nreps; i++) {
			const uint32_t *sg = v[reps[i]].sig + b * rep->rows;

			keys[i].key = hash_fnv64((const char *)sg,
			    rep->rows * sizeof *sg, hash_mix64(b));
			keys[i].idx = reps[i];
		}
		qsort(keys, nreps, sizeof *keys, by_key);
		for (size_t head = 0, i = 1; i < nreps; i++) {
			size_t x = keys[i].idx, done = 0;

			if (keys[i].key != keys[head].key) {
				head = i;
				continue;
			}
			for (size_t j = head; j < i && done < DEDUP_BUCKET_CMP;
			    j++) {
				size_t y = keys[j].idx, lo, hi;
				double jac;

				if (uf_find(parent, x) == uf_find(parent, y))
					continue;
				lo = v[x].nset < v[y].nset ? v[x].nset :
				    v[y].nset;
				hi = v[x].nset < v[y].nset ? v[y].nset :
				    v[x].nset;
				if ((double)lo < t * (double)hi)
					continue;
				done++;
				rep->compared++;
				jac = dedup_jaccard(v[x].set, v[x].nset,
				    v[y].set, v[y].nset);
				if (jac < t)
					continue;
				uf_union(parent, x, y);
				if (pairs != NULL)
					fprintf(pairs, "%s %s %.6f near\n",
					    v[y].id, v[x].id, jac);
			}
		}
	}
	free(keys);
}

/* One cluster of the sorted members m[0..n) into rep->v. */
static int
cluster_add(struct store *st, struct item *v, const struct member *m,
    size_t n, int near, struct dedup_report *rep, struct err *err)
{
	struct dedup_cluster *cl;
	size_t keep = m[0].idx;

	for (size_t k = 1; k < n; k++) {
		int b;

		if (better(st, &v[m[k].idx], &v[keep], &b, err) < 0)
			return -1;
		if (b)
			keep = m[k].idx;
	}
	rep->v = xreallocarray(rep->v, rep->clusters + 1, sizeof *rep->v);
	cl = &rep->v[rep->clusters++];
	cl->n = 0;
	cl->ids = xreallocarray(NULL, n, sizeof *cl->ids);
	cl->similarity = xreallocarray(NULL, n, sizeof *cl->similarity);
	cl->exact = xreallocarray(NULL, n, sizeof *cl->exact);
	cl->ids[cl->n] = xstrdup(v[keep].id);
	cl->similarity[cl->n] = 1;
	cl->exact[cl->n++] = 1;
	for (size_t k = 0; k < n; k++) {
		const struct item *it = &v[m[k].idx];
		int ex = it->exact == v[keep].exact;

		if (m[k].idx == keep)
			continue;
		cl->ids[cl->n] = xstrdup(it->id);
		cl->exact[cl->n] = ex;
		cl->similarity[cl->n++] = ex || !near ? 1 :
		    item_jaccard(v, m[k].idx, keep);
		if (ex)
			rep->exact_dups++;
		else
			rep->near_dups++;
	}
	return 0;
}

int
dedup_run(struct store *st, const struct dedup_opts *opts,
    struct dedup_report *rep, struct err *err)
{
	struct collect c;
	double t = opts->threshold > 0 ? opts->threshold : 0.8;
	size_t *parent = NULL, *reps = NULL, nreps = 0;
	struct member *m = NULL;
	struct store_dup *rows = NULL;
	size_t nrows = 0;
	int rc = -1;

	memset(rep, 0, sizeof *rep);
	memset(&c, 0, sizeof c);
	c.st = st;
	c.o = opts;
	c.err = err;
	if (t > 1)
		return err_set(err, "threshold %g: want a Jaccard similarity"
		    " above 0, at most 1", t);
	if (store_query_each(st, opts->where, collect_one, &c, err) != 0 ||
	    c.failed)
		goto out;
	rep->samples = c.n;
	parent = xreallocarray(NULL, c.n + 1, sizeof *parent);
	reps = xreallocarray(NULL, c.n + 1, sizeof *reps);
	for (size_t i = 0; i < c.n; i++) {
		parent[i] = i;
		if (c.v[i].rep == i) {
			reps[nreps++] = i;
			continue;
		}
		/* exact: equal normalised code */
		uf_union(parent, c.v[i].rep, i);
		if (opts->pairs != NULL)
			fprintf(opts->pairs, "%s %s 1 exact\n",
			    c.v[c.v[i].rep].id, c.v[i].id);
	}
	if (opts->shingles != NULL && !opts->exact_only)
		for (size_t i = 0; i < c.n; i++) {
			const struct item *r = &c.v[c.v[i].rep];

			fprintf(opts->shingles, "%s %zu", c.v[i].id, r->nset);
			for (size_t k = 0; k < r->nset; k++)
				fprintf(opts->shingles, " %08x", r->set[k]);
			fputc('\n', opts->shingles);
		}
	/* near: LSH over one of each exact group */
	if (!opts->exact_only && nreps > 1) {
		dedup_lsh_params(t, &rep->bands, &rep->rows);
		near_pass(c.v, reps, nreps, t, rep, parent, opts->pairs);
	}
	/* clusters */
	m = xreallocarray(NULL, c.n + 1, sizeof *m);
	for (size_t i = 0; i < c.n; i++) {
		m[i].root = uf_find(parent, i);
		m[i].idx = i;
	}
	qsort(m, c.n, sizeof *m, by_root);
	for (size_t i = 0; i < c.n;) {
		size_t j = i;

		while (j < c.n && m[j].root == m[i].root)
			j++;
		if (j - i >= 2 && cluster_add(st, c.v, m + i, j - i,
		    !opts->exact_only, rep, err) < 0)
			goto out;
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
	array_free(c.v, c.n, sizeof *c.v, item_release);
	free(c.groups.key);
	free(c.groups.idx);
	free(parent);
	free(reps);
	free(m);
	free(rows);
	return rc;
}
