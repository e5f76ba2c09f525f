/*
 * file.c - a whole file read into memory; see file.h.
 */
#include "base/file.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
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
