/*
 * import_svc.h - `assay import` and the workbench's `:import` as a
 * service in the shape of the verify service (ADR 0039, ADR 0055):
 * start, the fd to poll, step, progress, cancel, a result.
 *
 * isvc_new() starts import_path() over one input on a thread of the
 * service's own, on a store connection the caller lends it and does not
 * use until the service is over (the workbench opens a second one for
 * it).  The thread says through a pipe (the fd to poll) when it ends;
 * while it runs, the rows read, the bytes read of the file and the tasks
 * and candidates stored can be read at any time (relaxed atomics).  The
 * command line drives it with a plain poll loop, the workbench from its
 * frame loop.  The service never prints.
 *
 * Cancel stops the import before its next row, and the input's one
 * transaction is rolled back: nothing of a cancelled input is stored
 * (an earlier input of the same command, imported by an earlier service,
 * stays), and importing it again later adds what it would have.
 */
#ifndef ASSAY_IMPORT_SVC_H
#define ASSAY_IMPORT_SVC_H

#include <stddef.h>

#include "base/err.h"
#include "exchange/import.h"
#include "store/store.h"

struct isvc;

/*
 * Start importing path into st under o (its strings are copied; its
 * progress callback is not used: read isvc_progress()).  st is borrowed
 * and used on the service's thread until isvc_step() returned 1 (or
 * isvc_free()).  *out is new (isvc_free).  0, or -1 with err (nothing
 * started).
 */
int	isvc_new(struct isvc **out, struct store *st, const char *path,
	    const struct import_opts *o, struct err *err);

/* The fd to poll for reading while it imports; -1 once it is over. */
int	isvc_fd(const struct isvc *s);

/* After the fd was readable (or at any time): 1 when the import is over
 * (isvc_result()), 0 while it runs. */
int	isvc_step(struct isvc *s);

/*
 * Progress so far: rows, the rows read of a JSONL input (0 for a
 * directory layout); done of total, its bytes read (total 0: not known);
 * stored, the candidates stored, new or already there (they stay only
 * if the import ends well).
 */
struct isvc_progress {
	size_t	rows, done, total, stored;
};
void	isvc_progress(const struct isvc *s, struct isvc_progress *p);

/* The input being imported (as given). */
const char *isvc_path(const struct isvc *s);

/* Ask it to stop before its next row; step on until isvc_step()
 * returns 1.  The result is then -1 "PATH: cancelled; nothing of it
 * stored" unless the import had ended first. */
void	isvc_cancel(struct isvc *s);

/*
 * The result once isvc_step() returned 1: 0 with *rep pointing at the
 * report (borrowed from s: the counts and warnings import_path() gives),
 * or -1 with err (nothing of the input stored).  *cancelled (may be
 * NULL) says whether it ended because of isvc_cancel().
 */
int	isvc_result(const struct isvc *s, const struct import_report **rep,
	    int *cancelled, struct err *err);

/* Free s; while it still imports, cancel it and wait for its thread (the
 * input is rolled back).  NULL-safe. */
void	isvc_free(struct isvc *s);

#endif
