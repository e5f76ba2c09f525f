/*
 * file.c - a whole file read into memory, paths; see file.h.
 */
#include "base/file.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/buf.h"

int
file_read(const char *path, char **out, size_t *len, struct err *err)
{
	struct buf b = BUF_INIT;
	char chunk[8192];
	ssize_t n;
	int fd;

	*out = NULL;
	*len = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return err_set(err, "%s: %s", path, strerror(errno));
	while ((n = read(fd, chunk, sizeof chunk)) > 0 ||
	    (n < 0 && errno == EINTR))
		if (n > 0)
			buf_add(&b, chunk, (size_t)n);
	if (n < 0) {
		err_set(err, "%s: %s", path, strerror(errno));
		close(fd);
		buf_release(&b);
		return -1;
	}
	close(fd);
	*out = buf_detach(&b, len);
	return 0;
}

int
file_is_dir(const char *path)
{
	struct stat sb;

	return stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
}

int
file_is_reg(const char *path)
{
	struct stat sb;

	return stat(path, &sb) == 0 && S_ISREG(sb.st_mode);
}

char *
file_trim(const char *path)
{
	size_t n = strlen(path);

	while (n > 1 && path[n - 1] == '/')
		n--;
	return xstrndup(path, n);
}

const char *
file_base(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash != NULL ? slash + 1 : path;
}

char *
file_dir(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (slash == NULL)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	return xstrndup(path, (size_t)(slash - path));
}

int
file_cancel_pipe(int fds[2])
{
	if (pipe(fds) < 0)
		return -1;
	if (fcntl(fds[0], F_SETFD, FD_CLOEXEC) < 0 ||
	    fcntl(fds[1], F_SETFD, FD_CLOEXEC) < 0) {
		int e = errno;

		close(fds[0]);
		close(fds[1]);
		errno = e;
		return -1;
	}
	return 0;
}

int
file_wait_readable(int fd, int cancel_fd)
{
	struct pollfd p[2] = { { .fd = fd, .events = POLLIN },
	    { .fd = cancel_fd, .events = POLLIN } };

	for (;;) {
		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (p[1].revents != 0)
			return 0;
		if (p[0].revents != 0)
			return 1;
	}
}
