/*
 * dedup_recall.c - the reference of bench/dedup-recall.sh (issue 25,
 * item 6): every pair of samples compared by brute force.
 *
 *   dedup_recall SHINGLES PAIRS THRESHOLD
 *
 * SHINGLES and PAIRS are what `assay dedup --shingles --pairs` wrote:
 * a line per sample (id, the size of its shingle set, the set's 32-bit
 * hashes in hex), and a line per pair dedup joined on (two ids, their
 * similarity, exact or near).  This program computes the Jaccard
 * similarity of every pair of samples from their sets, as plainly as it
 * can be done (a merge of the two sorted sets), and counts:
 *
 *   true pairs  the pairs whose similarity reaches THRESHOLD;
 *   recall      the share of true pairs that dedup put in one cluster
 *               (the clusters are the connected pieces of its pairs, as
 *               dedup's union-find makes them): pairs of which dedup
 *               keeps at most one;
 *   precision   the share of dedup's pairs that are true pairs;
 *   and, as information, the share of true pairs dedup compared and
 *   joined directly, and the share of the pairs inside its clusters
 *   that are true pairs (lower: a cluster joins A and C through B).
 *
 * The one shortcut: a pair whose smaller set is under THRESHOLD times
 * the larger is not merged, because its similarity cannot reach the
 * threshold (|A and B| / |A or B| <= |A| / |B| for |A| <= |B|).
 * Missed true pairs are counted by similarity in steps of 0.05.
 *
 * Built by bench/dedup-recall.sh with cc; not part of assay.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct sample {
	char		*id;
	uint32_t	*set;
	size_t		 n;
};

static struct sample *v;
static size_t nv;

static void *
xrealloc(void *p, size_t n)
{
	p = realloc(p, n == 0 ? 1 : n);
	if (p == NULL) {
		fprintf(stderr, "dedup_recall: out of memory\n");
		exit(2);
	}
	return p;
}

static double
jaccard(const struct sample *a, const struct sample *b)
{
	size_t i = 0, j = 0, same = 0;

	if (a->n == 0 || b->n == 0)
		return a->n == b->n ? 1 : 0;
	while (i < a->n && j < b->n) {
		if (a->set[i] == b->set[j]) {
			same++;
			i++;
			j++;
		} else if (a->set[i] < b->set[j]) {
			i++;
		} else {
			j++;
		}
	}
	return (double)same / (double)(a->n + b->n - same);
}

static int
by_id(const void *x, const void *y)
{
	return strcmp(((const struct sample *)x)->id,
	    ((const struct sample *)y)->id);
}

static long
find(const char *id)
{
	struct sample key = { (char *)id, NULL, 0 };
	struct sample *s = bsearch(&key, v, nv, sizeof *v, by_id);

	return s == NULL ? -1 : s - v;
}

static size_t *parent;

static size_t
root(size_t x)
{
	while (parent[x] != x) {
		parent[x] = parent[parent[x]];
		x = parent[x];
	}
	return x;
}

/* pairs as (i << 32 | j), i < j, sorted: a membership test by bsearch */
static int
by_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return a < b ? -1 : a > b;
}

static size_t *order;

static int
by_size(const void *x, const void *y)
{
	size_t a = v[*(const size_t *)x].n, b = v[*(const size_t *)y].n;

	return a < b ? -1 : a > b;
}

int
main(int argc, char **argv)
{
	FILE *f;
	char *line = NULL, *p;
	size_t cap = 0, nedges = 0, nedge_true = 0, ntrue = 0;
	size_t co_true = 0, direct = 0, missed[21] = { 0 };
	uint64_t *edges = NULL;
	double t;
	double inside = 0;

	if (argc != 4) {
		fprintf(stderr, "usage: dedup_recall SHINGLES PAIRS"
		    " THRESHOLD\n");
		return 2;
	}
	t = atof(argv[3]);
	if ((f = fopen(argv[1], "r")) == NULL) {
		perror(argv[1]);
		return 2;
	}
	while (getline(&line, &cap, f) > 0) {
		struct sample *s;

		v = xrealloc(v, (nv + 1) * sizeof *v);
		s = &v[nv++];
		s->id = strdup(strtok(line, " \n"));
		s->n = strtoul(strtok(NULL, " \n"), NULL, 10);
		s->set = xrealloc(NULL, s->n * sizeof *s->set);
		for (size_t k = 0; k < s->n; k++)
			s->set[k] = (uint32_t)strtoul(strtok(NULL, " \n"),
			    NULL, 16);
	}
	fclose(f);
	qsort(v, nv, sizeof *v, by_id);
	/* dedup's pairs and the clusters they make */
	parent = xrealloc(NULL, nv * sizeof *parent);
	for (size_t i = 0; i < nv; i++)
		parent[i] = i;
	if ((f = fopen(argv[2], "r")) == NULL) {
		perror(argv[2]);
		return 2;
	}
	while (getline(&line, &cap, f) > 0) {
		long a = find(strtok(line, " \n")), b;
		size_t lo, hi;

		p = strtok(NULL, " \n");
		b = p != NULL ? find(p) : -1;
		if (a < 0 || b < 0) {
			fprintf(stderr, "dedup_recall: a pair names a sample"
			    " with no shingles\n");
			return 2;
		}
		lo = (size_t)(a < b ? a : b);
		hi = (size_t)(a < b ? b : a);
		edges = xrealloc(edges, (nedges + 1) * sizeof *edges);
		edges[nedges++] = (uint64_t)lo << 32 | hi;
		parent[root(lo)] = root(hi);
	}
	fclose(f);
	free(line);
	/* a pair joined in several bands counts once */
	qsort(edges, nedges, sizeof *edges, by_u64);
	{
		size_t k = 0;

		for (size_t i = 0; i < nedges; i++)
			if (k == 0 || edges[i] != edges[k - 1])
				edges[k++] = edges[i];
		nedges = k;
	}
	for (size_t i = 0; i < nedges; i++)
		if (jaccard(&v[edges[i] >> 32], &v[edges[i] & 0xffffffffu]) >=
		    t)
			nedge_true++;
	/* brute force, smallest sets first */
	order = xrealloc(NULL, nv * sizeof *order);
	for (size_t i = 0; i < nv; i++)
		order[i] = i;
	qsort(order, nv, sizeof *order, by_size);
	for (size_t x = 0; x < nv; x++) {
		const struct sample *a = &v[order[x]];

		for (size_t y = x + 1; y < nv; y++) {
			const struct sample *b = &v[order[y]];
			double j;
			size_t lo, hi;
			uint64_t key;

			if ((double)a->n < t * (double)b->n)
				break;
			j = jaccard(a, b);
			if (j < t)
				continue;
			lo = order[x] < order[y] ? order[x] : order[y];
			hi = order[x] < order[y] ? order[y] : order[x];
			key = (uint64_t)lo << 32 | hi;
			ntrue++;
			if (root(lo) == root(hi))
				co_true++;
			else
				missed[(int)(j * 20)]++;
			if (bsearch(&key, edges, nedges, sizeof *edges,
			    by_u64) != NULL)
				direct++;
		}
	}
	/* the pairs inside dedup's clusters */
	{
		size_t *size = calloc(nv, sizeof *size);

		for (size_t i = 0; i < nv; i++)
			size[root(i)]++;
		for (size_t i = 0; i < nv; i++)
			inside += (double)size[i] * (double)(size[i] - 1) / 2;
		free(size);
	}
	printf("samples %zu, threshold %.2f\n", nv, t);
	printf("true pairs (brute force) %zu\n", ntrue);
	printf("dedup pairs %zu, of them true %zu: precision %.4f\n", nedges,
	    nedge_true, nedges > 0 ? (double)nedge_true / nedges : 1.0);
	printf("true pairs in one dedup cluster %zu: recall %.4f\n", co_true,
	    ntrue > 0 ? (double)co_true / ntrue : 1.0);
	printf("true pairs dedup joined directly %zu (%.4f)\n", direct,
	    ntrue > 0 ? (double)direct / ntrue : 1.0);
	printf("pairs inside dedup clusters %.0f, true %zu (%.4f)\n", inside,
	    co_true, inside > 0 ? co_true / inside : 1.0);
	printf("missed true pairs by similarity:");
	for (int i = 0; i <= 20; i++)
		if (missed[i] > 0)
			printf(" %.2f-%.2f %zu", i / 20.0, (i + 1) / 20.0,
			    missed[i]);
	printf("\n");
	return 0;
}
