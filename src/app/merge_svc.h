/*
 * merge_svc.h - `assay merge` and the workbench's `:merge` as a service
 * in the shape of the verify service (ADR 0039, ADR 0055): start, the fd
 * to poll, step, progress, cancel, a result.
 *
 * msvc_new() merges run results files (verify --results; the slices of
 * export --shards) into the database on a thread of the service's own,
 * on a store connection the caller lends it and does not use until the
 * service is over.  Every line is refused until its MAC holds under a
 * key of this database; a run whose candidate is not here, of another
 * task, or made on other inputs is refused with "FILE:LINE: why"; a run
 * already here is counted unchanged; the rest are stored in batches of
 * MSVC_BATCH.  The thread says through a pipe (the fd to poll) when it
 * ends; its counts can be read at any time and its messages taken as
 * they come (msvc_messages).  The service never prints.
 *
 * Cancel stops it before its next line: the open batch is committed, so
 * what it stored is whole runs, each standing alone, and merging the
 * same files again adds only what is still missing.
 */
#ifndef ASSAY_MERGE_SVC_H
#define ASSAY_MERGE_SVC_H

#include <stddef.h>

#include <jansson.h>

#include "base/buf.h"
#include "base/err.h"
#include "store/store.h"
#include "verify/service.h"

#define MSVC_BATCH	500	/* runs a transaction */

struct msvc;

/* What a merge did (msvc_result), complete once msvc_step() returned 1. */
struct msvc_result {
	size_t		 done;		/* runs stored */
	size_t		 unchanged;	/* runs already here */
	size_t		 not_stored;	/* runs a store error kept out */
	size_t		 refused;	/* lines refused (MAC, foreign, stale,
					 * malformed, too long) */
	struct vsvc_tally tally;	/* stored and unchanged, by verdict */
	size_t		 lines;		/* lines read */
	int		 status;	/* 2: a line refused or a file (or the
					 * manifest) not read; else 0 */
	int		 cancelled;	/* msvc_cancel() stopped it */
	/* --shards: slices in the manifest, merged, merged without a
	 * stats file; missing, the indexes of the slices without their
	 * completion marker (a JSON array); stats, the merged slices'
	 * stats summed (a JSON object).  Owned by the service; NULL
	 * without a shards directory. */
	size_t		 nslices, merged, nostats;
	json_t		*missing, *stats;
};

/*
 * Start merging the results files files[0..nfiles) (copied), or, when
 * shards_dir is not NULL, every slice of that export --shards directory
 * whose completion marker is there (and says the manifest's slice).  st
 * is borrowed, used on the service's thread until msvc_step() returned
 * 1 (or msvc_free()); its lock timeout is the caller's to set.  *out is
 * new (msvc_free).  0, or -1 with err (nothing started).
 */
int	msvc_new(struct msvc **out, struct store *st, char *const *files,
	    size_t nfiles, const char *shards_dir, struct err *err);

/* The fd to poll for reading while it merges; -1 once it is over. */
int	msvc_fd(const struct msvc *s);

/* After the fd was readable (or at any time): 1 when the merge is over
 * (msvc_result()), 0 while it runs. */
int	msvc_step(struct msvc *s);

/* Progress so far: lines read, runs stored (batches open included),
 * runs already here, lines refused. */
struct msvc_progress {
	size_t	lines, stored, unchanged, refused;
};
void	msvc_progress(const struct msvc *s, struct msvc_progress *p);

/*
 * Move the messages said since the last call to the end of out: lines
 * "FILE:LINE: why\n" and "assay merge: ...\n", each safe on a terminal
 * (a file name, an id or a value quoted from a line cannot drive it;
 * docs/security.md).  Returns how many lines were moved.
 */
size_t	msvc_messages(struct msvc *s, struct buf *out);

/* Ask it to stop before its next line; step on until msvc_step()
 * returns 1. */
void	msvc_cancel(struct msvc *s);

/* The result once msvc_step() returned 1 (borrowed from s). */
const struct msvc_result *msvc_result(const struct msvc *s);

/* Free s; while it still merges, cancel it and wait for its thread (the
 * open batch is committed).  NULL-safe. */
void	msvc_free(struct msvc *s);

#endif
