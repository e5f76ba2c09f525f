/*
 * file.h - a whole file read into memory, and the few path tests and
 * cuts the importers share.  Never prints.
 */
#ifndef ASSAY_FILE_H
#define ASSAY_FILE_H

#include <stddef.h>

#include "base/err.h"

/*
 * Read the file at path into *out, a new string with a NUL after its
 * *len bytes (the file may hold NULs itself); caller frees.  0, or -1
 * with err ("path: reason") and *out NULL.
 */
int	file_read(const char *path, char **out, size_t *len,
	    struct err *err);

/* Is path (links followed) a directory / a regular file?  1 or 0. */
int	file_is_dir(const char *path);
int	file_is_reg(const char *path);
/* path without its trailing slashes ("/" stays "/"): new, caller frees. */
char	*file_trim(const char *path);
/* The last component of a trimmed path: borrowed from path. */
const char *file_base(const char *path);
/*
 * The directory of a trimmed path: new string, caller frees; "." for a
 * bare name, "/" for a name at the root.
 */
char	*file_dir(const char *path);

/*
 * Cancellable waits on an input that may block (a FIFO, a pipe, a
 * terminal), for the services' threads (import, merge): the service
 * makes a cancel pipe with file_cancel_pipe() (both ends close-on-exec;
 * 0, or -1 with errno), writes a byte to fds[1] when it cancels, and
 * its reader calls file_wait_readable(fd, fds[0]) before each read():
 * it sleeps in poll() until fd can be read (data, its end, an error: 1)
 * or cancel_fd can (0); -1 with errno when poll() fails.  cancel_fd -1:
 * no cancel.  A FIFO opened O_NONBLOCK before its writer came is not
 * readable until the writer writes or goes (Linux holds back POLLHUP
 * until it has seen one), so this is also the wait for the writer.
 */
int	file_cancel_pipe(int fds[2]);
int	file_wait_readable(int fd, int cancel_fd);

#endif
