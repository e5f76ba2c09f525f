/*
 * contam.h - benchmark contamination (issue 14 item 6, docs/formats.md
 * "Contamination"): which samples share long word n-grams (13 by
 * default, as the large-scale contamination studies count them) with
 * the tasks of a benchmark a model will be evaluated on.
 *
 * Text is cut into words (runs of letters, digits and '_', lower-cased;
 * everything else separates), so layout, punctuation and case do not
 * hide a copy.  A benchmark is either one imported into the store (its
 * tasks' spec, interface and files, and its reference candidates' code)
 * or a directory or file (every file's text; a .jsonl file's lines one
 * by one).  A sample is a candidate's code plus its task's spec and
 * interface; the candidates of the benchmark's own tasks are not
 * samples of it.  The marks replace the earlier ones against the same
 * benchmarks in the store (the contaminated= filter, and the sft
 * export's default, which leaves flagged samples out).
 *
 * Called by the contamination command.
 */
#ifndef ASSAY_CONTAM_H
#define ASSAY_CONTAM_H

#include <stddef.h>

#include "base/err.h"
#include "store/store.h"

struct contam_opts {
	const char *const *against;	/* benchmark names or paths */
	size_t		 nagainst;
	const char	*where;		/* the samples checked; NULL: all */
	int		 ngram;		/* words per n-gram; 0 means 13 */
	size_t		 min_shared;	/* n-grams to flag; 0 means 1 */
};

/* One flagged sample, for the report.  Strings owned. */
struct contam_hit {
	char	*cand_id, *benchmark, *task;	/* task: the one most shared */
	size_t	 ngrams;
};

struct contam_report {
	size_t	 samples;	/* candidates checked (the most against one) */
	size_t	 flagged;	/* of them, flagged against any */
	size_t	 grams;		/* distinct n-grams of the benchmarks */
	size_t	 docs;		/* benchmark tasks or files read */
	struct contam_hit *hits;
	size_t	 nhits;
};

void	contam_report_release(struct contam_report *r);

/*
 * Check the candidates of opts->where against every benchmark of
 * opts->against and store the marks.  A name that is neither an
 * imported benchmark nor an existing path is an error.  0 (rep filled)
 * or -1 with err.
 */
int	contam_run(struct store *st, const struct contam_opts *opts,
	    struct contam_report *rep, struct err *err);

#endif
