/*
 * workdir.h - the directories a candidate's run writes into: a fresh
 * work directory per job (bound at /work in the sandbox, sandbox.h), its
 * per-stage /tmp, its size, its removal, and the lasting compiler cache
 * that build stages share.  design.md section 7.
 *
 * A work directory is "ROOT/assay-run-PID-XXXXXX": the pid tells a later
 * assay whose it was, so that one left behind by a killed assay (kill -9
 * skips the cleanup) is removed by the next; a kept one (it holds a
 * reproduce.sh) stays.
 */
#ifndef ASSAY_EXEC_WORKDIR_H
#define ASSAY_EXEC_WORKDIR_H

#include <stdint.h>
#include <sys/types.h>

#include "base/err.h"

/*
 * Make a new work directory under root (NULL or "": $TMPDIR, else /tmp),
 * after removing stale ones there (once per process and root).  With
 * reach_uid != 0 (as root, sandboxed), check that the uid can reach it:
 * every directory above needs o+x.  *path is new (also on failure, when
 * it was made: the caller removes it).  0 or -1 with err.
 */
int	workdir_make(const char *root, uid_t reach_uid, char **path,
	    struct err *err);

/* Remove a directory tree made here; links are removed, not followed. */
void	workdir_remove(const char *path);

/* Bytes dir takes on disk (blocks, not lengths). */
int64_t	workdir_usage(const char *dir);

/* As root: give every directory under dir to uid (mode 0755). */
void	workdir_chown(const char *dir, uid_t uid);

/*
 * A fresh, empty per-stage /tmp (SANDBOX_TMP) in workdir, owned by
 * owner when that is not (uid_t)-1 (as root, sandboxed).  0 or -1.
 */
int	workdir_fresh_tmp(const char *workdir, uid_t owner, struct err *err);

/*
 * The lasting compiler cache that build stages share: $ASSAY_CCACHE_DIR,
 * else $XDG_CACHE_HOME/assay/ccache, else $HOME/.cache/assay/ccache, made
 * when missing.  As root every job runs as a uid of its own, which must
 * reach the directory (/root is 0700): then, when the home is closed,
 * /var/cache/assay/ccache; the cache belongs to group SANDBOX_CACHE_GID,
 * mode 2770, the group a cached stage runs with, so no other user can
 * plant objects in it.  New string, or NULL when it cannot be had:
 * builds then run without it, slower, not wrong.
 */
char	*workdir_cache(void);

#endif
