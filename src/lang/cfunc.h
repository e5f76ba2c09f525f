/*
 * cfunc.h - the functions a C or CUDA file defines, read with the
 * tree-sitter C or CUDA grammar: each one's name, its prototype as
 * written (no storage class, no body, blanks collapsed), whether it is
 * static or a __global__ kernel, and the comment above it; in CUDA, the
 * kernel launches (k<<<grid, block, smem>>>) with their configuration as
 * written.  What `assay task new` makes an x86-asm task's signature and
 * an nvcc task's interface of (docs/adr/0044).  Nothing is
 * preprocessed.  With syntax.h, vheader.h
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
	int	 is_kernel;	/* CUDA: __global__ */
	int	 line;		/* of the definition's first token, 1-based */
};

/* A kernel launch (CUDA). */
struct cf_launch {
	char	*kernel;	/* the name launched (owned) */
	char	*config;	/* "<<<(n + 255) / 256, 256>>>", blanks
				   collapsed (owned) */
	char	*caller;	/* the function it is in, or NULL */
	int	 line;
};

struct cf_file {
	struct cf_func *funcs;
	size_t	 nfuncs;
	struct cf_launch *launches;
	size_t	 nlaunches;
	int	 error_line;	/* the first ERROR or MISSING node; 0: none */
};

/*
 * Read the function definitions of text (len bytes), C when cuda is 0,
 * else CUDA (its launches too), into *out, released with cf_release()
 * also after a failure.  0, or -1 with err when the text is too large or
 * the grammar is not usable.
 */
int	cf_scan(const char *text, size_t len, int cuda, struct cf_file *out,
	    struct err *err);
void	cf_release(struct cf_file *f);

#endif
