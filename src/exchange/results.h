/*
 * results.h - run results as files (docs/formats.md "Run results"): each
 * run verify stores, one JSON object per line, so that runs made on
 * other machines (a Slurm array task, docs/cluster.md) travel back to
 * the main database, where `assay merge` folds them in.
 *
 * A results file is written to "<path>.tmp-XXXXXX" beside path and
 * renamed over path only when complete, so a reader never sees half a
 * file.  Completion markers ("<path>.done") say that every candidate of
 * a slice has a run in it.  The module never prints.
 *
 * Called by the verify and merge commands and tests.
 */
#ifndef ASSAY_RESULTS_H
#define ASSAY_RESULTS_H

#include <stddef.h>

#include "base/err.h"
#include "model/codec.h"
#include "model/sample.h"

/* The version every line carries as "assay_run" (the codec's). */
#define RESULTS_VERSION CODEC_RESULT_VERSION

struct results;

/*
 * Start writing the results file path: a new temporary file beside it.
 * *out is new; end with results_close() or results_abort().  0 or -1
 * with err.
 */
int	results_open(struct results **out, const char *path, struct err *err);

/*
 * Append run r of a candidate of task task_id, verified with the timeout
 * override timeout_s (0: the task's own), as one line; stored says
 * whether the run is in the database that verify wrote (0: it could not
 * be stored, and this line is where it is kept).  The line is the
 * codec's (codec_run, CODEC_RESULT).  0 or -1 with err.
 */
int	results_add(struct results *w, const struct run *r, const char *task_id,
	    int timeout_s, int stored, struct err *err);

/* Lines written so far. */
size_t	results_count(const struct results *w);

/*
 * Flush, fsync and rename the temporary file over the path given to
 * results_open(), then fsync the directory; frees w.  0 or -1 with err
 * (the temporary file is then removed).
 */
int	results_close(struct results *w, struct err *err);

/* Remove the temporary file and free w.  NULL-safe. */
void	results_abort(struct results *w);

/*
 * Parse one line of a results file (len bytes, no newline needed) into
 * *out (a run with no id; release it), the task id into *task_id (new,
 * caller frees), the timeout override into *timeout_s and the "stored"
 * flag into *stored (codec_run_parse).  0, or -1 with err saying what
 * is wrong (the caller adds file:line).
 */
int	results_parse(const char *line, size_t len, struct run *out,
	    char **task_id, int *timeout_s, int *stored, struct err *err);

/* "<results>.done": the completion marker of a results file.  New
 * string, caller frees. */
char	*results_marker_path(const char *results);

/* sha256 of the file at path, read in chunks, into hex (65 bytes).  0 or
 * -1 with err. */
int	results_file_sha256(const char *path, char *hex, struct err *err);

#endif
