/*
 * dedup.h - exact and near-duplicate samples (issue 14 item 5, issue 25
 * item 6, docs/formats.md "Deduplication", docs/adr/0015 and 0043).
 *
 * Each candidate's code is normalised to its tokens without comments
 * or whitespace (its language's tree-sitter grammar where one is linked
 * in, syntax_tokens(); else a small lexer that drops //, / * * /, # and
 * ; comments as the language has them).  Equal normalised code is an
 * exact duplicate (a sha256 of the tokens).  Near duplicates are
 * compared by the Jaccard similarity of their sets of shingles
 * (DEDUP_SHINGLE consecutive tokens, each identifier numbered by its
 * first use within the shingle, so that a consistent renaming does not
 * count and an edit changes only the shingles it falls in).  Candidate
 * pairs come from MinHash (DEDUP_PERM 32-bit permutations) and
 * locality-sensitive hashing in bands chosen so that a pair at the
 * threshold shares a band with chance DEDUP_LSH_RECALL; each candidate
 * pair is then decided by the exact Jaccard similarity of the two sets,
 * not by the estimate.  Pairs join into clusters (union-find), within a
 * task and across tasks.
 *
 * In each cluster one candidate is kept: the passing one (latest
 * verdict pass), then the accepted, then the longest repair trajectory,
 * then the earliest imported.  The marks replace the earlier ones in the
 * store (the dup= filter and the sft export's default read them).
 *
 * Called by the dedup command and the bench.
 */
#ifndef ASSAY_DEDUP_H
#define ASSAY_DEDUP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/err.h"
#include "store/store.h"

#define DEDUP_PERM	64
#define DEDUP_SHINGLE	5
/* The chance that LSH makes a pair at the threshold a candidate. */
#define DEDUP_LSH_RECALL	0.995
/* The most earlier members of other clusters an item of an LSH bucket
 * is compared with, in each band. */
#define DEDUP_BUCKET_CMP	128

struct dedup_opts {
	const char	*where;		/* the candidates compared; NULL: all */
	double		 threshold;	/* Jaccard, (0, 1]; 0 means 0.8 */
	int		 exact_only;	/* the exact pass alone (the bench floor) */
	int		 dry_run;	/* report, store nothing */
	/*
	 * For checking dedup against brute force (bench/dedup-recall.sh);
	 * NULL: not written.  shingles gets a line per candidate compared:
	 * its id, the size of its shingle set and the set's hashes (8 hex
	 * digits each, ascending); pairs a line per pair dedup joined on:
	 * the two ids, their Jaccard similarity and "exact" or "near".
	 */
	FILE		*shingles;
	FILE		*pairs;
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
	size_t	 compared;	/* pairs whose shingle sets were compared */
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
 * (what the near pass shingles, each shingle numbering them again from
 * its own first use), else the same tokens.  Never fails on bad code (a parse error
 * still gives tokens); -1 with err only for code too large to parse.
 */
int	dedup_normalise(const char *lang, const char *code, size_t len,
	    char **out, size_t *outlen, char **ids, size_t *idslen,
	    struct err *err);

/*
 * The shingles of normalised text (dedup_normalise()'s ids form): a
 * 32-bit hash of each DEDUP_SHINGLE consecutive tokens (the whole text
 * when it has fewer), identifiers ($N) numbered again by their first use
 * within the shingle.  *set is a new array of the *n distinct hashes in
 * ascending order (NULL and 0 for empty text).
 */
void	dedup_shingles(const char *norm, size_t len, uint32_t **set,
	    size_t *n);

/* The MinHash signature (DEDUP_PERM values) of a shingle set. */
void	dedup_minhash(const uint32_t *set, size_t n, uint32_t *sig);

/* The Jaccard similarity of two ascending sets (two empty ones: 1). */
double	dedup_jaccard(const uint32_t *a, size_t na, const uint32_t *b,
	    size_t nb);

/* The bands and rows LSH uses for threshold t with DEDUP_PERM values:
 * the most rows a band can have while a pair at t still shares a band
 * with chance DEDUP_LSH_RECALL. */
void	dedup_lsh_params(double t, size_t *bands, size_t *rows);

#endif
