/*
 * file.h - a whole file read into memory.  Never prints.
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

#endif
