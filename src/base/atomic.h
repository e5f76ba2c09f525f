/*
 * atomic.h - files that appear whole or not at all: written to a
 * temporary name beside the target, flushed, fsynced and renamed over
 * it, the directory fsynced after.  Used for exports, run results,
 * completion markers and shard manifests.  Never prints.
 */
#ifndef ASSAY_ATOMIC_H
#define ASSAY_ATOMIC_H

#include <stddef.h>
#include <stdio.h>

#include "base/err.h"

/*
 * A new temporary file "<path>.tmp-XXXXXX" beside path, open for
 * writing, with the mode a plain create would give (0666 less the
 * umask), held under flock(LOCK_EX) until it is closed (so that
 * atomic_clean_stale() can tell it from one a killed writer left).
 * *tmp is its name (new, caller frees).  NULL with err.
 */
FILE	*atomic_create(const char *path, char **tmp, struct err *err);

/*
 * atomic_create() with the permission bits mode (0600: a file only its
 * owner may read, such as a shard manifest holding a key) less the
 * umask.  NULL with err.
 */
FILE	*atomic_create_mode(const char *path, unsigned mode, char **tmp,
	    struct err *err);

/*
 * Flush, fsync and close f (made by atomic_create as tmp), rename tmp
 * over path and fsync the directory.  On failure tmp is removed.  0 or
 * -1 with err.
 */
int	atomic_commit(FILE *f, const char *tmp, const char *path,
	    struct err *err);

/*
 * Remove the temporary files "<path>.tmp-XXXXXX" beside path that a
 * writer killed before its commit left (SIGKILL, a node lost): each one
 * that is a regular file of this user that no one holds under flock()
 * (a writer alive holds its own).  Returns how many were removed.
 */
size_t	atomic_clean_stale(const char *path);

/* fsync the directory that holds path, so that a rename is durable. */
void	atomic_sync_dir(const char *path);

/* Write text to path atomically.  0 or -1 with err. */
int	atomic_write(const char *path, const char *text, struct err *err);

/* atomic_write() with the permission bits mode less the umask. */
int	atomic_write_mode(const char *path, const char *text, unsigned mode,
	    struct err *err);

#endif
