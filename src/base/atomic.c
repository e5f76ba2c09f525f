/*
 * atomic.c - files that appear whole or not at all; see atomic.h.
 */
#include "base/atomic.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/file.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void
atomic_sync_dir(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir = slash == NULL ? xstrdup(".") : slash == path ?
	    xstrdup("/") : xstrndup(path, (size_t)(slash - path));
	int fd = open(dir, O_RDONLY | O_DIRECTORY);

	if (fd >= 0) {
		(void)fsync(fd);
		close(fd);
	}
	free(dir);
}

/* A new temporary file beside path, with a plain create's mode. */
FILE *
atomic_create(const char *path, char **tmp, struct err *err)
{
	return atomic_create_mode(path, 0666, tmp, err);
}

FILE *
atomic_create_mode(const char *path, unsigned mode, char **tmp,
    struct err *err)
{
	mode_t mask;
	FILE *f;
	int fd;

	*tmp = xasprintf("%s.tmp-XXXXXX", path);
	fd = mkstemp(*tmp);
	if (fd < 0) {
		err_set(err, "%s: %s", *tmp, strerror(errno));
		free(*tmp);
		*tmp = NULL;
		return NULL;
	}
	/* held while the file is open: atomic_clean_stale() removes only
	 * a temporary file nobody holds (its writer died) */
	(void)flock(fd, LOCK_EX | LOCK_NB);
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, (mode_t)mode & 0777 & ~mask) < 0 || (f = fdopen(fd, "w")) == NULL) {
		err_set(err, "%s: %s", *tmp, strerror(errno));
		close(fd);
		unlink(*tmp);
		free(*tmp);
		*tmp = NULL;
		return NULL;
	}
	return f;
}

int
atomic_commit(FILE *f, const char *tmp, const char *path, struct err *err)
{
	int rc = 0;

	if (fflush(f) != 0 || fsync(fileno(f)) < 0)
		rc = err_set(err, "write %s: %s", tmp, strerror(errno));
	if (fclose(f) != 0 && rc == 0)
		rc = err_set(err, "write %s: %s", tmp, strerror(errno));
	if (rc == 0 && rename(tmp, path) < 0)
		rc = err_set(err, "rename %s to %s: %s", tmp, path,
		    strerror(errno));
	if (rc < 0) {
		unlink(tmp);
		return -1;
	}
	atomic_sync_dir(path);
	return 0;
}

size_t
atomic_clean_stale(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir = slash == NULL ? xstrdup(".") : slash == path ?
	    xstrdup("/") : xstrndup(path, (size_t)(slash - path));
	char *prefix = xasprintf("%s.tmp-", slash != NULL ? slash + 1 : path);
	size_t plen = strlen(prefix), n = 0;
	struct dirent *e;
	DIR *d = opendir(dir);

	while (d != NULL && (e = readdir(d)) != NULL) {
		char *p;
		int fd;

		if (strncmp(e->d_name, prefix, plen) != 0 ||
		    strlen(e->d_name + plen) != 6)
			continue;
		p = xasprintf("%s/%s", dir, e->d_name);
		fd = open(p, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
		if (fd >= 0) {
			struct stat sb;

			/* a regular file of ours that no writer holds */
			if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) &&
			    sb.st_uid == geteuid() &&
			    flock(fd, LOCK_EX | LOCK_NB) == 0 &&
			    unlink(p) == 0)
				n++;
			close(fd);
		}
		free(p);
	}
	if (d != NULL)
		closedir(d);
	free(dir);
	free(prefix);
	return n;
}

int
atomic_write(const char *path, const char *text, struct err *err)
{
	return atomic_write_mode(path, text, 0666, err);
}

int
atomic_write_mode(const char *path, const char *text, unsigned mode,
    struct err *err)
{
	char *tmp;
	FILE *f = atomic_create_mode(path, mode, &tmp, err);
	int rc;

	if (f == NULL)
		return -1;
	if (fputs(text, f) == EOF) {
		err_set(err, "write %s: %s", tmp, strerror(errno));
		fclose(f);
		unlink(tmp);
		free(tmp);
		return -1;
	}
	rc = atomic_commit(f, tmp, path, err);
	free(tmp);
	return rc;
}
