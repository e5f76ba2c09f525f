/*
 * workdir.c - work directories, their /tmp, size and removal, and the
 * compiler cache; see workdir.h.
 */
#define _GNU_SOURCE
#include "exec/workdir.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "exec/sandbox.h"

static int
rm_entry(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	(void)sb;
	(void)type;
	(void)ftw;
	remove(path);
	return 0;
}

void
workdir_remove(const char *path)
{
	nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/*
 * Removal in the background: one thread, started on first use, takes the
 * paths queued by workdir_remove_later() in order.  Removing a tree is
 * file system work whose time depends on the disk, not on this process
 * (tens of ms for a dozen files while another process writes a lot), so
 * a caller that must not wait, the frame loop, hands it over.
 */
struct rm_item {
	struct rm_item	*next;
	char		*path;
};
static pthread_mutex_t rm_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t rm_more = PTHREAD_COND_INITIALIZER;	/* queued */
static pthread_cond_t rm_idle = PTHREAD_COND_INITIALIZER;	/* all done */
static struct rm_item *rm_head, **rm_tail = &rm_head;
static int rm_started, rm_busy;

static void *
rm_thread(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&rm_lock);
	for (;;) {
		struct rm_item *it;

		while (rm_head == NULL) {
			rm_busy = 0;
			pthread_cond_broadcast(&rm_idle);
			pthread_cond_wait(&rm_more, &rm_lock);
		}
		it = rm_head;
		rm_head = it->next;
		if (rm_head == NULL)
			rm_tail = &rm_head;
		rm_busy = 1;
		pthread_mutex_unlock(&rm_lock);
		workdir_remove(it->path);
		free(it->path);
		free(it);
		pthread_mutex_lock(&rm_lock);
	}
	return NULL;
}

void
workdir_remove_later(char *path)
{
	struct rm_item *it;
	pthread_t t;
	sigset_t all, old;

	if (path == NULL)
		return;
	pthread_mutex_lock(&rm_lock);
	if (!rm_started) {
		/* the thread takes no signal: they are the main loop's */
		sigfillset(&all);
		pthread_sigmask(SIG_SETMASK, &all, &old);
		if (pthread_create(&t, NULL, rm_thread, NULL) == 0) {
			pthread_detach(t);
			rm_started = 1;
		}
		pthread_sigmask(SIG_SETMASK, &old, NULL);
	}
	if (!rm_started) {	/* no thread: remove it here */
		pthread_mutex_unlock(&rm_lock);
		workdir_remove(path);
		free(path);
		return;
	}
	it = xcalloc(1, sizeof *it);
	it->path = path;
	*rm_tail = it;
	rm_tail = &it->next;
	rm_busy = 1;
	pthread_cond_signal(&rm_more);
	pthread_mutex_unlock(&rm_lock);
}

void
workdir_remove_wait(void)
{
	pthread_mutex_lock(&rm_lock);
	while (rm_started && (rm_head != NULL || rm_busy))
		pthread_cond_wait(&rm_idle, &rm_lock);
	pthread_mutex_unlock(&rm_lock);
}

static _Thread_local int64_t disk_total;	/* nftw has no user argument */

static int
disk_add(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	(void)path;
	(void)type;
	(void)ftw;
	disk_total += (int64_t)sb->st_blocks * 512;
	return 0;
}

int64_t
workdir_usage(const char *dir)
{
	disk_total = 0;
	nftw(dir, disk_add, 16, FTW_PHYS);
	return disk_total;
}

/*
 * As root the stages run as the job's own uid, which must be able to
 * reach the work directory: every directory above it needs o+x.
 */
static int
root_reachable(const char *dir, unsigned uid, struct err *err)
{
	char *path = xstrdup(dir), *slash;
	struct stat sb;

	while ((slash = strrchr(path, '/')) != NULL) {
		*slash = '\0';
		if (*path == '\0')
			break;
		if (stat(path, &sb) == 0 && !(sb.st_mode & S_IXOTH)) {
			err_set(err, "the sandbox user (uid %u) cannot reach %s:"
			    " %s is not searchable by others (chmod o+x it, or"
			    " set TMPDIR elsewhere)", uid, dir, path);
			free(path);
			return -1;
		}
	}
	free(path);
	return 0;
}

/* mkdir -p path with mode for what it makes; 0 or -1. */
static int
mkdirs(const char *path, mode_t mode)
{
	char *p = xstrdup(path);
	struct stat sb;

	for (char *q = p + 1; *q != '\0'; q++) {
		if (*q != '/')
			continue;
		*q = '\0';
		if (mkdir(p, 0755) < 0 && errno != EEXIST) {
			free(p);
			return -1;
		}
		*q = '/';
	}
	free(p);
	if (mkdir(path, mode) < 0 && errno != EEXIST)
		return -1;
	return stat(path, &sb) == 0 && S_ISDIR(sb.st_mode) ? 0 : -1;
}

char *
workdir_cache(void)
{
	const char *env = getenv("ASSAY_CCACHE_DIR");
	const char *xdg = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");
	char *dir;
	struct err err;

	if (env != NULL && *env == '/')
		dir = xstrdup(env);
	else if (xdg != NULL && *xdg == '/')
		dir = xasprintf("%s/assay/ccache", xdg);
	else if (home != NULL && *home == '/')
		dir = xasprintf("%s/.cache/assay/ccache", home);
	else
		dir = xstrdup("/var/cache/assay/ccache");
	if (geteuid() == 0 && root_reachable(dir, SANDBOX_CACHE_GID, &err) < 0) {
		free(dir);
		dir = xstrdup("/var/cache/assay/ccache");
	}
	if (mkdirs(dir, 0700) < 0) {
		free(dir);
		return NULL;
	}
	if (geteuid() == 0 && (chown(dir, 0, SANDBOX_CACHE_GID) < 0 ||
	    chmod(dir, 02770) < 0)) {
		free(dir);
		return NULL;
	}
	return dir;
}

/*
 * Remove work directories that an assay killed mid-run left behind
 * (kill -9 skips the cleanup): "assay-run-PID-*" whose PID is gone.
 * A kept directory (--keep-workdir, with its reproduce.sh) stays.
 * Once per process and work root.
 */
static void
sweep_stale(const char *root)
{
	static _Thread_local char swept[PATH_MAX];	/* per thread: harmless twice */
	DIR *d;
	struct dirent *e;

	if (strcmp(swept, root) == 0)
		return;
	snprintf(swept, sizeof swept, "%s", root);
	d = opendir(root);
	if (d == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		char *end, *path, *keep;
		long pid;
		struct stat sb;

		if (strncmp(e->d_name, "assay-run-", 10) != 0)
			continue;
		pid = strtol(e->d_name + 10, &end, 10);
		if (end == e->d_name + 10 || *end != '-' || pid <= 0 ||
		    (kill((pid_t)pid, 0) == 0 || errno == EPERM))
			continue;
		path = xasprintf("%s/%s", root, e->d_name);
		keep = xasprintf("%s/reproduce.sh", path);
		if (lstat(path, &sb) == 0 && S_ISDIR(sb.st_mode) &&
		    (sb.st_uid == geteuid() || geteuid() == 0) &&
		    stat(keep, &sb) != 0)
			workdir_remove(path);
		free(keep);
		free(path);
	}
	closedir(d);
}

int
workdir_make(const char *root, uid_t reach_uid, char **path,
    struct err *err)
{
	char *tmpl;

	*path = NULL;
	if (root == NULL || *root == '\0')
		root = getenv("TMPDIR");
	if (root == NULL || *root == '\0')
		root = "/tmp";
	sweep_stale(root);
	/* The pid in the name tells a later assay whose directory it was. */
	tmpl = xasprintf("%s/assay-run-%ld-XXXXXX", root, (long)getpid());
	if (mkdtemp(tmpl) == NULL) {
		err_set(err, "work directory in %s: %s", root, strerror(errno));
		free(tmpl);
		return -1;
	}
	*path = tmpl;
	if (reach_uid != 0 && root_reachable(tmpl, reach_uid, err) < 0)
		return -1;
	return 0;
}

static _Thread_local uid_t chown_uid;	/* nftw has no user argument */

static int
chown_dir(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	(void)sb;
	(void)ftw;
	if (type == FTW_D && chown(path, chown_uid, chown_uid) == 0)
		chmod(path, 0755);
	return 0;
}

/* The sandbox uid must own the directories it writes into. */
void
workdir_chown(const char *dir, uid_t uid)
{
	if (geteuid() != 0)
		return;
	chown_uid = uid;
	nftw(dir, chown_dir, 16, FTW_PHYS);
}

int
workdir_fresh_dir(const char *path, uid_t owner, struct err *err)
{
	workdir_remove(path);
	if (mkdir(path, 0755) < 0)
		return err_set(err, "%s: %s", path, strerror(errno));
	/* mkdir applies the umask. */
	if (chmod(path, 0755) < 0 || (owner != (uid_t)-1 &&
	    chown(path, owner, owner) < 0))
		return err_set(err, "%s: %s", path, strerror(errno));
	return 0;
}

int
workdir_seal_store(const char *workdir, char **path, struct err *err)
{
	*path = xasprintf("%s.seal", workdir);
	if (mkdir(*path, 0700) < 0) {
		err_set(err, "%s: %s", *path, strerror(errno));
		free(*path);
		*path = NULL;
		return -1;
	}
	return 0;
}

/*
 * Open path under dir for reading without following a symbolic link in
 * any component (the stage that made it may have planted one); a FIFO
 * does not block.  The fd, or -1 with err.
 */
static int
open_beneath(const char *dir, const char *path, struct err *err)
{
	char *copy = xstrdup(path), *save = NULL, *part, *next;
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0) {
		err_set(err, "%s: %s", dir, strerror(errno));
		goto out;
	}
	if (*path == '\0' || *path == '/') {
		err_set(err, "%s: not a relative path", path);
		close(fd);
		fd = -1;
		goto out;
	}
	for (part = strtok_r(copy, "/", &save); part != NULL; part = next) {
		int last, nfd;

		next = strtok_r(NULL, "/", &save);
		last = next == NULL;
		if (strcmp(part, ".") == 0 || strcmp(part, "..") == 0) {
			err_set(err, "%s: names . or ..", path);
			close(fd);
			fd = -1;
			goto out;
		}
		nfd = openat(fd, part, O_RDONLY | O_NOFOLLOW | O_CLOEXEC |
		    (last ? O_NONBLOCK : O_DIRECTORY));
		if (nfd < 0) {
			err_set(err, "%s: %s", path, errno == ENOENT ?
			    "missing" : errno == ELOOP || errno == ENOTDIR ?
			    "a symbolic link or not a directory on the way" :
			    strerror(errno));
			close(fd);
			fd = -1;
			goto out;
		}
		close(fd);
		fd = nfd;
	}
out:
	free(copy);
	return fd;
}

/*
 * Copy from fd to a new file dst (mode), hashing what is copied into
 * hex; at most max bytes (-1: no limit).  0 or -1 with err (dst is
 * removed then).
 */
static int
copy_hashed(int fd, const char *dst, mode_t mode, int64_t max, char *hex,
    struct err *err)
{
	char chunk[65536];
	struct hash_ctx *h = hash_new();
	int out = open(dst, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
	    O_CLOEXEC, 0600);
	int64_t total = 0;
	int rc = -1;

	if (out < 0) {
		err_set(err, "%s: %s", dst, strerror(errno));
		hash_final(h, hex);
		return -1;
	}
	for (;;) {
		ssize_t k = read(fd, chunk, sizeof chunk);

		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0) {
			err_set(err, "read: %s", strerror(errno));
			goto out;
		}
		if (k == 0)
			break;
		total += k;
		if (max >= 0 && total > max) {
			err_set(err, "more than %lld bytes", (long long)max);
			goto out;
		}
		hash_update(h, chunk, (size_t)k);
		for (ssize_t off = 0; off < k; ) {
			ssize_t w = write(out, chunk + off, (size_t)(k - off));

			if (w < 0 && errno == EINTR)
				continue;
			if (w < 0) {
				err_set(err, "%s: %s", dst, strerror(errno));
				goto out;
			}
			off += w;
		}
	}
	if (fchmod(out, mode) < 0) {
		err_set(err, "%s: %s", dst, strerror(errno));
		goto out;
	}
	rc = 0;
out:
	hash_final(h, hex);
	if (close(out) < 0 && rc == 0)
		rc = err_set(err, "%s: %s", dst, strerror(errno));
	if (rc < 0)
		unlink(dst);
	return rc;
}

int
workdir_seal(const char *dir, const char *path, const char *dst,
    int64_t max, char *hex, struct err *err)
{
	struct stat sb;
	int fd = open_beneath(dir, path, err), rc;

	if (fd < 0)
		return -1;
	if (fstat(fd, &sb) < 0 || !S_ISREG(sb.st_mode)) {
		close(fd);
		return err_set(err, "%s: not a regular file", path);
	}
	if (sb.st_size > max) {
		close(fd);
		return err_set(err, "%s: more than %lld bytes", path,
		    (long long)max);
	}
	/* Back to blocking reads: it is a regular file. */
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	rc = copy_hashed(fd, dst, sb.st_mode & S_IXUSR ? 0555 : 0444, max,
	    hex, err);
	close(fd);
	return rc;
}

/* SHA-256 of what is left to read of fd into hex; 0 or -1 with errno. */
static int
hash_fd(int fd, char *hex)
{
	char chunk[65536];
	struct hash_ctx *h = hash_new();

	for (;;) {
		ssize_t k = read(fd, chunk, sizeof chunk);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			int saved = errno;

			hash_final(h, hex);
			errno = saved;
			return k < 0 ? -1 : 0;
		}
		hash_update(h, chunk, (size_t)k);
	}
}

/* SHA-256 of the file at path into hex; 0 or -1 with err. */
static int
hash_file(const char *path, char *hex, struct err *err)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC), rc;

	if (fd < 0)
		return err_set(err, "%s: %s", path, strerror(errno));
	rc = hash_fd(fd, hex);
	if (rc < 0)
		err_set(err, "%s: %s", path, strerror(errno));
	close(fd);
	return rc;
}

int
workdir_open_sealed(const char *src, const char *hex, struct err *err)
{
	char got[HASH_HEX_LEN + 1];
	const char *name = strrchr(src, '/') != NULL ? strrchr(src, '/') + 1 :
	    src;
	int fd = open(src, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0)
		return err_set(err, "%s: %s", src, strerror(errno));
	if (hash_fd(fd, got) < 0 || lseek(fd, 0, SEEK_SET) != 0) {
		err_set(err, "%s: %s", src, strerror(errno));
		close(fd);
		return -1;
	}
	if (strcmp(got, hex) != 0) {
		close(fd);
		return err_set(err, "%s changed after it was sealed", name);
	}
	return fd;
}

int
workdir_unseal(const char *src, const char *hex, const char *dst,
    struct err *err)
{
	char got[HASH_HEX_LEN + 1];
	const char *name = strrchr(dst, '/') != NULL ? strrchr(dst, '/') + 1 :
	    dst;
	struct stat sb;
	int rc, fd;

	if (hash_file(src, got, err) < 0)
		return -1;
	if (strcmp(got, hex) != 0)
		return err_set(err, "%s changed after it was sealed", name);
	if (link(src, dst) == 0)
		return 0;
	/* Another file system: a copy, checked as it is made. */
	fd = open(src, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &sb) < 0) {
		err_set(err, "%s: %s", src, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	rc = copy_hashed(fd, dst, sb.st_mode & 0777, -1, got, err);
	close(fd);
	if (rc == 0 && strcmp(got, hex) != 0) {
		unlink(dst);
		rc = err_set(err, "%s changed after it was sealed", name);
	}
	return rc;
}

int
workdir_fresh_tmp(const char *workdir, uid_t owner, struct err *err)
{
	char *tmp = xasprintf("%s/" SANDBOX_TMP, workdir);

	workdir_remove(tmp);
	if (mkdir(tmp, 0700) < 0) {
		err_set(err, "%s: %s", tmp, strerror(errno));
		free(tmp);
		return -1;
	}
	if (owner != (uid_t)-1 && chown(tmp, owner, owner) < 0) {
		err_set(err, "chown %s: %s", tmp, strerror(errno));
		free(tmp);
		return -1;
	}
	free(tmp);
	return 0;
}
