/*
 * vcs.h - the curated-dataset git repository: the only module that calls
 * git_* (libgit2 1.5).  It knows the on-disk layout of design.md section 8
 * only as a list of paths and contents given by the caller (export.c /
 * the commit command build those); vcs.c mirrors them into a repository
 * and commits.
 */
#ifndef ASSAY_VCS_H
#define ASSAY_VCS_H

#include <stddef.h>

#include "base/err.h"

/* One file of the mirrored set: path relative to the work tree. */
struct vcs_file {
	const char	*path;		/* e.g. "chip/rtlfixer/2012_q2b/c1a2b3c.sv" */
	const char	*data;
	size_t		 len;
};

struct vcs_commit_opts {
	const char	*repo_dir;	/* created (git init, branch main) if missing */
	const char	*message;	/* full commit message, trailers included */
	const char	*author_name;	/* NULL: git config, else "assay" */
	const char	*author_email;	/* NULL: git config, else "assay@localhost" */
	/*
	 * Paths under these top-level directories (e.g. "chip", "gpu") are
	 * owned by assay: any file there that is not in the given set is
	 * removed from the index and the work tree.  Other files in the
	 * repository (a README) are left alone.
	 */
	const char *const *managed_dirs;
	size_t		 nmanaged;
};

/* What vcs_commit() did. */
struct vcs_result {
	int	 committed;	/* 1 when a commit was made, 0 when nothing changed */
	char	 oid[41];	/* hex id of the new commit (or "" when none) */
	size_t	 added, modified, removed;	/* file counts against HEAD */
};

/*
 * Write files into the work tree of opts->repo_dir, remove managed files
 * not in the set, stage everything and commit on HEAD when the tree
 * differs from HEAD's.  A repository that exists but cannot be opened
 * (e.g. owned by another user, which libgit2 1.5 reports as ENOTFOUND) is
 * an error, never re-initialised.  Returns 0 (res filled) or -1 with err.
 */
int	vcs_commit(const struct vcs_commit_opts *opts, const struct vcs_file *files,
	    size_t nfiles, struct vcs_result *res, struct err *err);

/* One path that would change, against HEAD. */
struct vcs_change {
	char	*path;		/* owned by the array */
	char	 status;	/* 'A' added, 'M' modified, 'D' deleted */
};

/*
 * What committing files now would change against HEAD, without writing
 * anything (so the caller can name the changed samples in the message).
 * *out is a new array of *n entries sorted by path; free with
 * vcs_changes_free().  A missing repository counts every file as added.
 * Returns 0 or -1 with err.
 */
int	vcs_changes(const struct vcs_commit_opts *opts, const struct vcs_file *files,
	    size_t nfiles, struct vcs_change **out, size_t *n, struct err *err);
void	vcs_changes_free(struct vcs_change *c, size_t n);

/*
 * The unified diff (git's format, 3 lines of context) that turns text a
 * into text b, labelled "a/aname" and "b/bname" (NULL: the name is
 * "file").  a and b are borrowed and need not be NUL-terminated; either
 * may be NULL with length 0.  *out is new, NUL-terminated, caller frees
 * with free(); *outlen (may be NULL) is its length.  Equal texts give
 * an empty string.  Returns 0, or -1 with err (*out NULL).
 */
int	vcs_diff_text(const char *a, size_t alen, const char *b, size_t blen,
	    const char *aname, const char *bname, char **out, size_t *outlen,
	    struct err *err);

/*
 * Where path (a file or folder) comes from when it lies in a git work
 * tree: "URL@COMMIT" (the remote origin's URL, else the work tree's
 * folder name, and HEAD's commit, 12 hex digits), and *root the work
 * tree's top folder (without a trailing '/').  New strings; 1 with both
 * set, 0 when path is in no repository (or HEAD is unborn).  Never
 * fails otherwise.
 */
int	vcs_describe(const char *path, char **repo, char **root);

/* git's user.name from the global/system config, new string or NULL. */
char	*vcs_config_user_name(void);

/* "libgit2 1.5.1" into buf. */
void	vcs_version(char *buf, size_t n);

#endif
