/*
 * split.h - train/valid/test splits by a stable hash of the task id
 * (issue 14 item 4, docs/formats.md "Splits").  Every sample of a task
 * lands in the task's split; the same id gives the same split in every
 * database and run, whatever the import order.  A split set by hand on
 * a task (store_task_split_set) is kept by every assignment.
 *
 * Called by the split and export commands.
 */
#ifndef ASSAY_SPLIT_H
#define ASSAY_SPLIT_H

#include <stddef.h>

#include "base/err.h"
#include "store/store.h"

#define SPLIT_MAX 8

/* Named shares that add up to 1, in the order given. */
struct split_spec {
	size_t	 n;
	char	 name[SPLIT_MAX][32];
	double	 share[SPLIT_MAX];
};

/*
 * Parse "train=0.9,valid=0.05,test=0.05": up to SPLIT_MAX names of
 * letters, digits, '-' and '_' (at most 31 bytes, each once), shares
 * above 0 and at most 1 that add up to 1 (within 1e-6).  0, or -1 with
 * err naming the bad part.
 */
int	split_parse(const char *text, struct split_spec *out, struct err *err);

/*
 * Where task_id falls: the first 64 bits of the sha256 of the id, as a
 * fraction of 2^64, against the running sum of the shares.  Borrowed
 * from spec.
 */
const char *split_of(const struct split_spec *spec, const char *task_id);

/*
 * Give every task of st that has no hand-set split the split its id
 * falls in (one transaction).  counts (SPLIT_MAX entries, may be NULL)
 * receives the tasks per split, hand-set ones included where their name
 * is one of spec's.  0 or -1 with err.
 */
int	split_assign(struct store *st, const struct split_spec *spec,
	    size_t *counts, struct err *err);

#endif
