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
#include "base/hash.h"

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
/*
 * Remove it later, on a thread of this module (started on first use),
 * so that the caller does not wait for the disk; path (owned) is freed
 * once removed.  Removals run in the order queued.  Without a thread
 * (pthread_create failed) it is removed at once.
 */
void	workdir_remove_later(char *path);
/* Wait until every removal queued by workdir_remove_later() is done. */
void	workdir_remove_wait(void);

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
 * A fresh, empty directory path: whatever is there is removed (links
 * are removed, not followed), then it is made with mode 0755 and given
 * to owner when that is not (uid_t)-1.  0 or -1 with err.
 */
int	workdir_fresh_dir(const char *path, uid_t owner, struct err *err);

/*
 * The seal store of the job whose work directory is workdir: the
 * directory "WORKDIR.seal" beside it, made here with mode 0700 and the
 * caller's owner, which no sandbox ever binds (so no stage can write
 * it).  *path is new.  0, or -1 with err: one that is there already is
 * refused, never reused.  A stale one goes with its work directory
 * (workdir_make()'s sweep).
 */
int	workdir_seal_store(const char *workdir, char **path, struct err *err);

/*
 * Seal a file a stage made: dir/path (relative; no component empty,
 * "." or "..", and each opened without following a symbolic link) must
 * be a regular file of at most max bytes.  It is copied to dst (a path
 * in the seal store), a new file of mode 0555 when its owner could
 * execute it, else 0444, and its SHA-256 put in hex (HASH_HEX_LEN + 1
 * bytes).  0, or -1 with err saying why ("missing", "a symbolic link
 * or not a directory on the way", "not a regular file", "more than N
 * bytes", a read or write error).
 */
int	workdir_seal(const char *dir, const char *path, const char *dst,
	    int64_t max, char *hex, struct err *err);

/*
 * Put the sealed file src (in the seal store) at dst for a stage, once
 * its SHA-256 is found to be hex: a hard link, or a copy (checked the
 * same way as it is made) where the file system refuses one.  0, or -1
 * with err ("... changed after it was sealed").
 */
int	workdir_unseal(const char *src, const char *hex, const char *dst,
	    struct err *err);

/*
 * Open the sealed file src (in the seal store) for reading, once its
 * SHA-256 is found to be hex, at its start (a stage's input on a
 * descriptor, env_stage.input).  The fd (close-on-exec), or -1 with err
 * ("... changed after it was sealed").  Its name in the seal store stays
 * where no sandbox binds it.
 */
int	workdir_open_sealed(const char *src, const char *hex, struct err *err);

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
