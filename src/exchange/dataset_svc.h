/*
 * dataset_svc.h - `assay commit` and the workbench's `c` as a service
 * in the shape of the verify service (ADR 0039, ADR 0047): start, the fd
 * to poll, step, progress, cancel, a result.
 *
 * dsvc_new() reads the store on the caller's thread (dataset_job_build:
 * the accepted candidates, their ancestors and tasks, the card), then
 * mirrors the files into the repository and commits on a thread of the
 * service's own, which touches no store and says through a pipe (the fd
 * to poll) when it is done; dsvc_step() on the caller's thread then
 * journals the commit.  The command line drives it with a plain poll
 * loop, the workbench from its frame loop, so that a large commit never
 * stops the screen.  The service never prints.
 */
#ifndef ASSAY_DATASET_SVC_H
#define ASSAY_DATASET_SVC_H

#include "base/err.h"
#include "exchange/dataset.h"
#include "store/store.h"

struct dsvc;

/*
 * Build the commit of st's accepted candidates into repo_dir (message:
 * the subject, NULL a summary; reviewer signs it) and start writing it.
 * st is borrowed until dsvc_step() returned 1.  *out is new (dsvc_free).
 * 0, or -1 with err (nothing started).
 */
int	dsvc_new(struct dsvc **out, struct store *st, const char *repo_dir,
	    const char *message, const char *reviewer, struct err *err);

/* The fd to poll for reading while it writes; -1 once it is done. */
int	dsvc_fd(const struct dsvc *s);

/*
 * After the fd was readable (or at any time): 1 when the commit is over
 * (dsvc_result()), 0 while it writes.  The journal's event is made here,
 * on the caller's thread.
 */
int	dsvc_step(struct dsvc *s);

/* Progress: how many files the commit mirrors (known from dsvc_new). */
size_t	dsvc_files(const struct dsvc *s);

/*
 * Ask it to stop: before the commit is written nothing is (the result
 * says "cancelled: nothing committed"); once git writes, it ends by
 * itself.  Step on until dsvc_step() returns 1.
 */
void	dsvc_cancel(struct dsvc *s);

/* The result once dsvc_step() returned 1: 0 with *res, or -1 with err. */
int	dsvc_result(const struct dsvc *s, struct dataset_result *res,
	    struct err *err);

/* Free s; while it still writes, wait for the writing to end (git's
 * files are never left half written).  NULL-safe. */
void	dsvc_free(struct dsvc *s);

#endif
