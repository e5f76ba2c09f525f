/*
 * vcs.c - mirror a set of files into a git repository and commit them,
 * through libgit2 1.5; see vcs.h.  This is the only file that calls git_*.
 * It knows nothing of samples or the dataset layout: the commit command
 * gives it paths, contents and the managed top-level directories.  It
 * never prints; every failure comes back as -1 with a message in err.
 *
 * Each public function pairs git_libgit2_init() with
 * git_libgit2_shutdown() (libgit2 refcounts them), so the library holds
 * no state between calls: nothing to tear down at exit, nothing for ASan
 * to report, and $HOME is read afresh for the global config each time.
 */
#include "exchange/vcs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <git2.h>

#include "base/err.h"
#include "base/file.h"

/* The given file set, sorted by path for lookups; paths are borrowed. */
struct pathset {
	const char	**paths;
	size_t		  n;
};

/* Why: git_error_last() is thread-local and volatile, so copy it now. */
static int
vcs_err(struct err *err, int rc, const char *what)
{
	const git_error *e = git_error_last();

	if (e != NULL && e->message != NULL)
		return err_set(err, "%s: %s", what, e->message);
	return err_set(err, "%s: libgit2 error %d", what, rc);
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int
cmp_change(const void *a, const void *b)
{
	const struct vcs_change *x = a, *y = b;

	return strcmp(x->path, y->path);
}

/*
 * A path we may write or remove: relative, no empty, "." or ".."
 * component, nothing inside .git, no trailing slash.
 */
static int
path_ok(const char *p)
{
	const char *c = p, *e;
	size_t len;

	if (p == NULL || *p == '\0' || *p == '/')
		return 0;
	for (;;) {
		e = strchr(c, '/');
		len = e != NULL ? (size_t)(e - c) : strlen(c);
		if (len == 0 || (len == 1 && c[0] == '.') ||
		    (len == 2 && c[0] == '.' && c[1] == '.') ||
		    (len == 4 && strncasecmp(c, ".git", 4) == 0))
			return 0;
		if (e == NULL)
			return 1;
		c = e + 1;
	}
}

static void
pathset_release(struct pathset *s)
{
	free(s->paths);
	s->paths = NULL;
	s->n = 0;
}

/* Check opts and files, and build the sorted set of paths. */
static int
pathset_init(struct pathset *s, const struct vcs_commit_opts *o,
    const struct vcs_file *files, size_t nfiles, struct err *err)
{
	size_t i;

	s->paths = NULL;
	s->n = 0;
	if (o == NULL || o->repo_dir == NULL || *o->repo_dir == '\0')
		return err_set(err, "vcs: no repository directory given");
	if (nfiles > 0 && files == NULL)
		return err_set(err, "vcs: no files given");
	if (o->nmanaged > 0 && o->managed_dirs == NULL)
		return err_set(err, "vcs: no managed directories given");
	for (i = 0; i < o->nmanaged; i++) {
		if (!path_ok(o->managed_dirs[i]))
			return err_set(err, "vcs: bad managed directory '%s'",
			    o->managed_dirs[i] != NULL ?
			    o->managed_dirs[i] : "(null)");
	}
	s->paths = xreallocarray(NULL, nfiles, sizeof *s->paths);
	for (i = 0; i < nfiles; i++) {
		if (!path_ok(files[i].path)) {
			err_set(err, "vcs: bad path '%s'",
			    files[i].path != NULL ? files[i].path : "(null)");
			pathset_release(s);
			return -1;
		}
		if (files[i].data == NULL && files[i].len > 0) {
			err_set(err, "vcs: %s: no data", files[i].path);
			pathset_release(s);
			return -1;
		}
		s->paths[i] = files[i].path;
	}
	s->n = nfiles;
	qsort(s->paths, s->n, sizeof *s->paths, cmp_str);
	for (i = 1; i < s->n; i++) {
		if (strcmp(s->paths[i - 1], s->paths[i]) == 0) {
			err_set(err, "vcs: path '%s' given twice", s->paths[i]);
			pathset_release(s);
			return -1;
		}
	}
	return 0;
}

static int
pathset_has(const struct pathset *s, const char *path)
{
	if (s->n == 0)
		return 0;
	return bsearch(&path, s->paths, s->n, sizeof *s->paths,
	    cmp_str) != NULL;
}

/* Is path (a file) inside one of the managed directories? */
static int
is_managed(const struct vcs_commit_opts *o, const char *path)
{
	size_t i, len;

	for (i = 0; i < o->nmanaged; i++) {
		len = strlen(o->managed_dirs[i]);
		if (strncmp(path, o->managed_dirs[i], len) == 0 &&
		    path[len] == '/')
			return 1;
	}
	return 0;
}

/* Could directory dir (relative) hold managed files? Prunes tree walks. */
static int
dir_may_hold_managed(const struct vcs_commit_opts *o, const char *dir)
{
	size_t i, dl = strlen(dir), ml;

	for (i = 0; i < o->nmanaged; i++) {
		ml = strlen(o->managed_dirs[i]);
		if (ml >= dl ? strncmp(o->managed_dirs[i], dir, dl) == 0 &&
		    (ml == dl || o->managed_dirs[i][dl] == '/') :
		    strncmp(dir, o->managed_dirs[i], ml) == 0 && dir[ml] == '/')
			return 1;
	}
	return 0;
}

static int
exists(const char *dir, const char *name)
{
	struct stat st;
	char *p = xasprintf("%s/%s", dir, name);
	int r = lstat(p, &st) == 0;

	free(p);
	return r;
}

/*
 * Open the work-tree repository at dir, NO_SEARCH.  When there is none
 * and create is set, git init it (branch main); when create is not set,
 * *out is NULL.  libgit2 1.5 reports a repository owned by another user
 * as GIT_ENOTFOUND (fixed in 1.6), so "not found" means missing only when
 * dir/.git does not exist; otherwise it is an error, never a re-init.
 */
static int
repo_open(git_repository **out, const char *dir, int create, struct err *err)
{
	git_repository_init_options io;
	const git_error *e;
	char why[256];
	int rc;

	*out = NULL;
	rc = git_repository_open_ext(out, dir, GIT_REPOSITORY_OPEN_NO_SEARCH,
	    NULL);
	if (rc == 0) {
		if (git_repository_is_bare(*out)) {
			git_repository_free(*out);
			*out = NULL;
			return err_set(err, "%s is a bare repository; assay "
			    "needs a work tree", dir);
		}
		return 0;
	}
	e = git_error_last();
	snprintf(why, sizeof why, "%s", e != NULL && e->message != NULL ?
	    e->message : "not a repository");
	if (exists(dir, ".git"))
		return err_set(err, "%s/.git exists but cannot be opened (%s): "
		    "owned by another user? see git config safe.directory",
		    dir, why);
	if (rc != GIT_ENOTFOUND)
		return err_set(err, "open repository %s: %s", dir, why);
	if (exists(dir, "HEAD") && exists(dir, "objects"))
		return err_set(err, "%s looks like a bare repository that "
		    "cannot be opened (%s)", dir, why);
	git_error_clear();
	if (!create)
		return 0;
	/* libgit2 says "failed to make directory ...: directory exists" */
	if (access(dir, F_OK) == 0 && !file_is_dir(dir))
		return err_set(err, "%s is a file, not a directory: the"
		    " dataset repository (--repo) is a directory", dir);

	git_repository_init_options_init(&io,
	    GIT_REPOSITORY_INIT_OPTIONS_VERSION);
	io.flags = GIT_REPOSITORY_INIT_MKPATH | GIT_REPOSITORY_INIT_NO_REINIT;
	io.initial_head = "main";
	rc = git_repository_init_ext(out, dir, &io);
	if (rc < 0) {
		*out = NULL;
		return vcs_err(err, rc, "git init");
	}
	return 0;
}

/* HEAD's commit and tree, both NULL on an unborn branch. */
static int
head_get(git_commit **commit, git_tree **tree, git_repository *repo,
    struct err *err)
{
	git_object *obj = NULL;
	int rc;

	*commit = NULL;
	*tree = NULL;
	rc = git_repository_head_unborn(repo);
	if (rc < 0)
		return vcs_err(err, rc, "read HEAD");
	if (rc == 1)
		return 0;
	rc = git_revparse_single(&obj, repo, "HEAD^{commit}");
	if (rc < 0)
		return vcs_err(err, rc, "resolve HEAD");
	*commit = (git_commit *)obj;
	rc = git_commit_tree(tree, *commit);
	if (rc < 0) {
		vcs_err(err, rc, "HEAD's tree");
		git_commit_free(*commit);
		*commit = NULL;
		return -1;
	}
	return 0;
}

/* mkdir -p the directories above abs, below its first rootlen bytes. */
static int
mkdirs(char *abs, size_t rootlen, struct err *err)
{
	char *p;

	p = strchr(abs + rootlen, '/');
	for (; p != NULL; p = strchr(p + 1, '/')) {
		*p = '\0';
		if (mkdir(abs, 0777) < 0 && errno != EEXIST) {
			err_set(err, "mkdir %s: %s", abs, strerror(errno));
			*p = '/';
			return -1;
		}
		*p = '/';
	}
	return 0;
}

/* Why O_NOFOLLOW: a symlink in the work tree must not redirect a write. */
static int
file_write(const char *workdir, const struct vcs_file *f, struct err *err)
{
	char *abs = xasprintf("%s%s", workdir, f->path);
	struct stat st;
	size_t off = 0;
	ssize_t w;
	int fd = -1, r = -1;

	if (mkdirs(abs, strlen(workdir), err) < 0)
		goto out;
	if (lstat(abs, &st) == 0 && S_ISLNK(st.st_mode) && unlink(abs) < 0) {
		err_set(err, "unlink %s: %s", abs, strerror(errno));
		goto out;
	}
	fd = open(abs, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC,
	    0666);
	if (fd < 0) {
		err_set(err, "open %s: %s", abs, strerror(errno));
		goto out;
	}
	while (off < f->len) {
		w = write(fd, f->data + off, f->len - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0) {
			err_set(err, "write %s: %s", abs, strerror(errno));
			goto out;
		}
		off += (size_t)w;
	}
	r = 0;
out:
	if (fd >= 0 && close(fd) < 0 && r == 0)
		r = err_set(err, "close %s: %s", abs, strerror(errno));
	free(abs);
	return r;
}

/*
 * Remove every file under the directory abs (inside a managed directory)
 * whose work-tree path is not in the set, and the directories left empty.
 * Entries named .git are never touched (a nested repository is not ours).
 */
static int
prune_dir(const char *abs, size_t rootlen, const struct pathset *set,
    struct err *err)
{
	struct dirent *de;
	struct stat st;
	DIR *d;
	char *p;
	int r = 0;

	d = opendir(abs);
	if (d == NULL) {
		if (errno == ENOENT || errno == ENOTDIR)
			return 0;
		return err_set(err, "opendir %s: %s", abs, strerror(errno));
	}
	while (r == 0 && (de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0 ||
		    strcasecmp(de->d_name, ".git") == 0)
			continue;
		p = xasprintf("%s/%s", abs, de->d_name);
		if (lstat(p, &st) < 0) {
			if (errno != ENOENT)
				r = err_set(err, "stat %s: %s", p,
				    strerror(errno));
		} else if (S_ISDIR(st.st_mode)) {
			r = prune_dir(p, rootlen, set, err);
		} else if (!pathset_has(set, p + rootlen) && unlink(p) < 0 &&
		    errno != ENOENT) {
			r = err_set(err, "unlink %s: %s", p, strerror(errno));
		}
		free(p);
	}
	closedir(d);
	if (r == 0)
		(void)rmdir(abs);	/* fails, as it should, unless empty */
	return r;
}

/* Fill name/email from opts, then the repository's config, then assay. */
static int
sig_make(git_signature **out, git_repository *repo,
    const struct vcs_commit_opts *o, struct err *err)
{
	git_config *cfg = NULL;
	const char *name = o->author_name, *email = o->author_email;
	int rc;

	if ((name == NULL || email == NULL) &&
	    git_repository_config_snapshot(&cfg, repo) == 0) {
		if (name == NULL &&
		    git_config_get_string(&name, cfg, "user.name") < 0)
			name = NULL;
		if (email == NULL &&
		    git_config_get_string(&email, cfg, "user.email") < 0)
			email = NULL;
	}
	git_error_clear();
	if (name == NULL || *name == '\0')
		name = "assay";
	if (email == NULL || *email == '\0')
		email = "assay@localhost";
	rc = git_signature_now(out, name, email);
	git_config_free(cfg);	/* name and email may point into it */
	if (rc < 0)
		return vcs_err(err, rc, "signature");
	return 0;
}

/* Stage the set and the removals; *tree_id is the resulting tree. */
static int
index_stage(git_repository *repo, const struct vcs_commit_opts *o,
    const struct vcs_file *files, size_t nfiles, const struct pathset *set,
    git_oid *tree_id, struct err *err)
{
	git_index *index = NULL;
	const git_index_entry *e;
	char **gone = NULL;
	size_t i, n, ngone = 0;
	int rc, r = -1;

	rc = git_repository_index(&index, repo);
	if (rc < 0) {
		vcs_err(err, rc, "open index");
		goto out;
	}
	/* Collect first: removing while iterating shifts the entries. */
	n = git_index_entrycount(index);
	for (i = 0; i < n; i++) {
		e = git_index_get_byindex(index, i);
		if (e != NULL && is_managed(o, e->path) &&
		    !pathset_has(set, e->path)) {
			gone = xreallocarray(gone, ngone + 1, sizeof *gone);
			gone[ngone++] = xstrdup(e->path);
		}
	}
	for (i = 0; i < ngone; i++) {
		rc = git_index_remove_bypath(index, gone[i]);
		if (rc < 0) {
			vcs_err(err, rc, gone[i]);
			goto out;
		}
	}
	for (i = 0; i < nfiles; i++) {
		rc = git_index_add_bypath(index, files[i].path);
		if (rc < 0) {
			vcs_err(err, rc, files[i].path);
			goto out;
		}
	}
	rc = git_index_write(index);
	if (rc < 0) {
		vcs_err(err, rc, "write index");
		goto out;
	}
	rc = git_index_write_tree(tree_id, index);
	if (rc < 0) {
		vcs_err(err, rc, "write tree");
		goto out;
	}
	r = 0;
out:
	for (i = 0; i < ngone; i++)
		free(gone[i]);
	free(gone);
	git_index_free(index);
	return r;
}

/* Count what the new tree changes against HEAD's (NULL: empty). */
static int
count_changes(git_repository *repo, git_tree *old, git_tree *new,
    struct vcs_result *res, struct err *err)
{
	git_diff_options dopts;
	git_diff *diff = NULL;
	int rc;

	git_diff_options_init(&dopts, GIT_DIFF_OPTIONS_VERSION);
	rc = git_diff_tree_to_tree(&diff, repo, old, new, &dopts);
	if (rc < 0)
		return vcs_err(err, rc, "diff against HEAD");
	res->added = git_diff_num_deltas_of_type(diff, GIT_DELTA_ADDED);
	res->modified = git_diff_num_deltas_of_type(diff, GIT_DELTA_MODIFIED) +
	    git_diff_num_deltas_of_type(diff, GIT_DELTA_TYPECHANGE);
	res->removed = git_diff_num_deltas_of_type(diff, GIT_DELTA_DELETED);
	git_diff_free(diff);
	return 0;
}

int
vcs_commit(const struct vcs_commit_opts *opts, const struct vcs_file *files,
    size_t nfiles, struct vcs_result *res, struct err *err)
{
	git_repository *repo = NULL;
	git_commit *parent = NULL;
	git_tree *head = NULL, *tree = NULL;
	git_signature *sig = NULL;
	struct pathset set;
	git_oid tree_id, commit_id;
	const char *workdir;
	size_t i;
	int rc, r = -1;

	if (res == NULL)
		return err_set(err, "vcs: no result given");
	memset(res, 0, sizeof *res);
	if (pathset_init(&set, opts, files, nfiles, err) < 0)
		return -1;
	if (opts->message == NULL) {
		pathset_release(&set);
		return err_set(err, "vcs: no commit message");
	}
	rc = git_libgit2_init();
	if (rc < 0) {
		pathset_release(&set);
		return vcs_err(err, rc, "libgit2 init");
	}

	if (repo_open(&repo, opts->repo_dir, 1, err) < 0)
		goto out;
	workdir = git_repository_workdir(repo);	/* ends in '/' */
	if (workdir == NULL) {
		err_set(err, "%s has no work tree", opts->repo_dir);
		goto out;
	}
	/* Prune first, so a stale file cannot block a directory we need. */
	for (i = 0; i < opts->nmanaged; i++) {
		char *abs = xasprintf("%s%s", workdir, opts->managed_dirs[i]);

		rc = prune_dir(abs, strlen(workdir), &set, err);
		free(abs);
		if (rc < 0)
			goto out;
	}
	for (i = 0; i < nfiles; i++) {
		if (file_write(workdir, &files[i], err) < 0)
			goto out;
	}
	if (index_stage(repo, opts, files, nfiles, &set, &tree_id, err) < 0)
		goto out;
	if (head_get(&parent, &head, repo, err) < 0)
		goto out;
	rc = git_tree_lookup(&tree, repo, &tree_id);
	if (rc < 0) {
		vcs_err(err, rc, "look up new tree");
		goto out;
	}
	if (count_changes(repo, head, tree, res, err) < 0)
		goto out;
	/* Unchanged: HEAD's tree again, or an empty tree on an unborn HEAD. */
	if (head != NULL ? git_oid_equal(git_tree_id(head), &tree_id) :
	    git_tree_entrycount(tree) == 0) {
		r = 0;
		goto out;
	}
	if (sig_make(&sig, repo, opts, err) < 0)
		goto out;
	rc = git_commit_create(&commit_id, repo, "HEAD", sig, sig, NULL,
	    opts->message, tree, parent != NULL ? 1 : 0,
	    (const git_commit **)&parent);
	if (rc < 0) {
		vcs_err(err, rc, "commit");
		goto out;
	}
	git_oid_tostr(res->oid, sizeof res->oid, &commit_id);
	res->committed = 1;
	r = 0;
out:
	if (r < 0)
		memset(res, 0, sizeof *res);
	git_signature_free(sig);	/* every *_free accepts NULL */
	git_tree_free(tree);
	git_tree_free(head);
	git_commit_free(parent);
	git_repository_free(repo);
	git_libgit2_shutdown();
	pathset_release(&set);
	return r;
}

/* The growing result of vcs_changes(). */
struct changes {
	struct vcs_change		*a;
	size_t				 n, cap;
	const struct vcs_commit_opts	*o;
	const struct pathset		*set;
};

static void
changes_add(struct changes *c, const char *path, char status)
{
	if (c->n == c->cap) {
		c->cap = c->cap != 0 ? c->cap * 2 : 16;
		c->a = xreallocarray(c->a, c->cap, sizeof *c->a);
	}
	c->a[c->n].path = xstrdup(path);
	c->a[c->n].status = status;
	c->n++;
}

/* git_tree_walk callback: managed blobs of HEAD not in the set are 'D'. */
static int
changes_walk(const char *root, const git_tree_entry *e, void *payload)
{
	struct changes *c = payload;
	char *path = xasprintf("%s%s", root, git_tree_entry_name(e));
	int r = 0;

	switch (git_tree_entry_type(e)) {
	case GIT_OBJECT_TREE:
		if (!dir_may_hold_managed(c->o, path))
			r = 1;		/* skip this subtree */
		break;
	case GIT_OBJECT_BLOB:
		if (is_managed(c->o, path) && !pathset_has(c->set, path))
			changes_add(c, path, 'D');
		break;
	default:
		break;
	}
	free(path);
	return r;
}

int
vcs_changes(const struct vcs_commit_opts *opts, const struct vcs_file *files,
    size_t nfiles, struct vcs_change **out, size_t *n, struct err *err)
{
	git_repository *repo = NULL;
	git_commit *commit = NULL;
	git_tree *head = NULL;
	git_tree_entry *te;
	struct pathset set;
	struct changes c;
	git_oid id;
	size_t i;
	int rc, r = -1;

	if (out == NULL || n == NULL)
		return err_set(err, "vcs: no output given");
	*out = NULL;
	*n = 0;
	if (pathset_init(&set, opts, files, nfiles, err) < 0)
		return -1;
	memset(&c, 0, sizeof c);
	c.o = opts;
	c.set = &set;
	rc = git_libgit2_init();
	if (rc < 0) {
		pathset_release(&set);
		return vcs_err(err, rc, "libgit2 init");
	}

	if (repo_open(&repo, opts->repo_dir, 0, err) < 0)
		goto out;
	if (repo != NULL && head_get(&commit, &head, repo, err) < 0)
		goto out;
	for (i = 0; i < nfiles; i++) {
		if (head == NULL) {
			changes_add(&c, files[i].path, 'A');
			continue;
		}
		rc = git_tree_entry_bypath(&te, head, files[i].path);
		if (rc == GIT_ENOTFOUND) {
			git_error_clear();
			changes_add(&c, files[i].path, 'A');
			continue;
		}
		if (rc < 0) {
			vcs_err(err, rc, files[i].path);
			goto out;
		}
		if (git_tree_entry_type(te) != GIT_OBJECT_BLOB) {
			changes_add(&c, files[i].path, 'A');
		} else {
			rc = git_odb_hash(&id, files[i].data, files[i].len,
			    GIT_OBJECT_BLOB);
			if (rc < 0) {
				git_tree_entry_free(te);
				vcs_err(err, rc, files[i].path);
				goto out;
			}
			if (!git_oid_equal(&id, git_tree_entry_id(te)))
				changes_add(&c, files[i].path, 'M');
		}
		git_tree_entry_free(te);
	}
	if (head != NULL && opts->nmanaged > 0) {
		rc = git_tree_walk(head, GIT_TREEWALK_PRE, changes_walk, &c);
		if (rc < 0) {
			vcs_err(err, rc, "walk HEAD's tree");
			goto out;
		}
	}
	if (c.n > 0)
		qsort(c.a, c.n, sizeof *c.a, cmp_change);
	*out = c.a;
	*n = c.n;
	c.a = NULL;
	c.n = 0;
	r = 0;
out:
	vcs_changes_free(c.a, c.n);
	git_tree_free(head);
	git_commit_free(commit);
	git_repository_free(repo);
	git_libgit2_shutdown();
	pathset_release(&set);
	return r;
}

void
vcs_changes_free(struct vcs_change *c, size_t n)
{
	size_t i;

	if (c == NULL)
		return;
	for (i = 0; i < n; i++)
		free(c[i].path);
	free(c);
}

int
vcs_describe(const char *path, char **repo, char **root)
{
	git_repository *r = NULL;
	git_remote *remote = NULL;
	git_oid head;
	const char *wd, *url = NULL;
	char hex[GIT_OID_HEXSZ + 1];
	char *top = NULL;
	int found = 0;

	*repo = NULL;
	*root = NULL;
	if (git_libgit2_init() < 0)
		return 0;
	if (git_repository_open_ext(&r, path, 0, NULL) < 0 ||
	    git_repository_is_bare(r) || (wd = git_repository_workdir(r)) ==
	    NULL || git_reference_name_to_id(&head, r, "HEAD") < 0)
		goto out;
	top = xstrdup(wd);
	if (strlen(top) > 1 && top[strlen(top) - 1] == '/')
		top[strlen(top) - 1] = '\0';
	if (git_remote_lookup(&remote, r, "origin") == 0)
		url = git_remote_url(remote);
	git_oid_tostr(hex, sizeof hex, &head);
	hex[12] = '\0';
	if (url != NULL) {
		*repo = xasprintf("%s@%s", url, hex);
	} else {
		const char *base = strrchr(top, '/');

		*repo = xasprintf("%s@%s", base != NULL ? base + 1 : top, hex);
	}
	*root = top;
	top = NULL;
	found = 1;
out:
	git_error_clear();
	free(top);
	git_remote_free(remote);
	git_repository_free(r);
	git_libgit2_shutdown();
	return found;
}

char *
vcs_config_user_name(void)
{
	git_config *cfg = NULL, *snap = NULL;
	const char *name;
	char *r = NULL;

	if (git_libgit2_init() < 0)
		return NULL;
	if (git_config_open_default(&cfg) == 0 &&
	    git_config_snapshot(&snap, cfg) == 0 &&
	    git_config_get_string(&name, snap, "user.name") == 0 &&
	    *name != '\0')
		r = xstrdup(name);
	git_error_clear();
	git_config_free(snap);
	git_config_free(cfg);
	git_libgit2_shutdown();
	return r;
}

void
vcs_version(char *buf, size_t n)
{
	int major = 0, minor = 0, rev = 0;

	if (buf == NULL || n == 0)
		return;
	git_libgit2_version(&major, &minor, &rev);
	snprintf(buf, n, "libgit2 %d.%d.%d", major, minor, rev);
}

int
vcs_diff_text(const char *a, size_t alen, const char *b, size_t blen,
    const char *aname, const char *bname, char **out, size_t *outlen,
    struct err *err)
{
	git_diff_options opts;
	git_patch *patch = NULL;
	git_buf buf = { 0 };
	int rc, ret = -1;

	*out = NULL;
	if (outlen != NULL)
		*outlen = 0;
	git_libgit2_init();
	git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION);
	opts.context_lines = 3;
	rc = git_patch_from_buffers(&patch, a, alen, aname ? aname : "file",
	    b, blen, bname ? bname : "file",
	    &opts);
	if (rc < 0) {
		vcs_err(err, rc, "diff");
		goto out;
	}
	rc = git_patch_to_buf(&buf, patch);
	if (rc < 0) {
		vcs_err(err, rc, "diff");
		goto out;
	}
	*out = xmalloc(buf.size + 1);
	if (buf.size > 0)
		memcpy(*out, buf.ptr, buf.size);
	(*out)[buf.size] = '\0';
	if (outlen != NULL)
		*outlen = buf.size;
	ret = 0;
out:
	git_buf_dispose(&buf);
	git_patch_free(patch);
	git_libgit2_shutdown();
	return ret;
}
