/*
 * cfunc.h - the functions a C file defines, read with the tree-sitter C
 * grammar: each one's name, its prototype as written (no storage class,
 * no body, blanks collapsed), whether it is static, and the comment
 * above it.  What `assay task new` makes an x86-asm task's signature of
 * (docs/adr/0044).  Nothing is preprocessed.  With syntax.h, vheader.h
 * and cuda_launch.h the only ts_* callers.
 */
#ifndef ASSAY_CFUNC_H
#define ASSAY_CFUNC_H

#include <stddef.h>

#include "base/err.h"

struct cf_func {
	char	*name;		/* owned */
	char	*prototype;	/* "int64_t dot(const int32_t *a, size_t n)" */
	char	*comment;	/* the comments right above, or NULL */
	int	 is_static;
	int	 line;		/* of the definition's first token, 1-based */
};

struct cf_file {
	struct cf_func *funcs;
	size_t	 nfuncs;
	int	 error_line;	/* the first ERROR or MISSING node; 0: none */
};

/*
 * Read the function definitions of text (len bytes) into *out, released
 * with cf_release() also after a failure.  0, or -1 with err when the
 * text is too large or the grammar is not usable.
 */
int	cf_scan(const char *text, size_t len, struct cf_file *out,
	    struct err *err);
void	cf_release(struct cf_file *f);

#endif
