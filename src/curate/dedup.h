/*
 * dedup.h - exact and near-duplicate samples (issue 14 item 5,
 * docs/formats.md "Deduplication").
 *
 * Each candidate's code is normalised to its tokens without comments
 * or whitespace (its language's tree-sitter grammar where one is linked
 * in, syntax_tokens(); else a small lexer that drops //, / * * /, # and
 * ; comments as the language has them).  Equal normalised code is an
 * exact duplicate (a sha256 of the tokens).  Near duplicates are found
 * by MinHash (DEDUP_PERM 32-bit permutations) over shingles of
 * DEDUP_SHINGLE consecutive tokens, identifiers numbered by first use
 * (a renamed signal is still a near copy), and locality-sensitive hashing in
 * bands chosen for the Jaccard threshold, as datasketch's MinHashLSH
 * chooses them (the least false positives plus false negatives, each
 * weighted 0.5); a pair that shares a band is a duplicate when its
 * estimated Jaccard similarity reaches the threshold.  Pairs join into
 * clusters (union-find), within a task and across tasks.
 *
 * In each cluster one candidate is kept: the passing one (latest
 * verdict pass), then the accepted, then the earliest imported.  The
 * marks replace the earlier ones in the store (the dup= filter and the
 * sft export's default read them).
 *
 * Called by the dedup command and the bench.
 */
#ifndef ASSAY_DEDUP_H
#define ASSAY_DEDUP_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "store/store.h"

#define DEDUP_PERM	64
#define DEDUP_SHINGLE	5

struct dedup_opts {
	const char	*where;		/* the candidates compared; NULL: all */
	double		 threshold;	/* Jaccard, (0, 1]; 0 means 0.8 */
	int		 exact_only;	/* the exact pass alone (the bench floor) */
	int		 dry_run;	/* report, store nothing */
};

/* One cluster, for the report: the kept id first. */
struct dedup_cluster {
	char	**ids;
	double	 *similarity;	/* with ids[0]; 1 for an exact copy */
	int	 *exact;
	size_t	  n;
};

struct dedup_report {
	size_t	 samples;	/* candidates compared */
	size_t	 clusters;	/* of two or more */
	size_t	 exact_dups;	/* dropped as exact copies of the kept */
	size_t	 near_dups;	/* dropped as near copies */
	size_t	 bands, rows;	/* the LSH layout used */
	struct dedup_cluster *v;	/* the clusters, largest first */
};

void	dedup_report_release(struct dedup_report *r);

/*
 * Find the duplicates among the candidates of opts->where and store the
 * marks (unless dry_run).  0 (rep filled) or -1 with err.
 */
int	dedup_run(struct store *st, const struct dedup_opts *opts,
	    struct dedup_report *rep, struct err *err);

/*
 * The normalised tokens of code in lang, joined by single spaces: new
 * string, *outlen its length; ids (may be NULL) the same with the
 * identifiers numbered in order of first use where a grammar tells them
 * (what the near pass shingles, so that a consistent renaming does not
 * count), else the same tokens.  Never fails on bad code (a parse error
 * still gives tokens); -1 with err only for code too large to parse.
 */
int	dedup_normalise(const char *lang, const char *code, size_t len,
	    char **out, size_t *outlen, char **ids, size_t *idslen,
	    struct err *err);

/*
 * The MinHash signature (DEDUP_PERM values) of normalised text, and the
 * estimated Jaccard similarity of two signatures (the share of equal
 * values).
 */
void	dedup_minhash(const char *norm, size_t len, uint32_t *sig);
double	dedup_similarity(const uint32_t *a, const uint32_t *b);

/* The bands and rows LSH uses for threshold t with DEDUP_PERM values. */
void	dedup_lsh_params(double t, size_t *bands, size_t *rows);

#endif
