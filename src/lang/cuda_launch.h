/*
 * cuda_launch.h - CUDA launch limits: the nvcc env's static checks.
 *
 * A module of its own beside the highlighter (syntax.c): both parse with
 * tree-sitter, the only two files that call ts_* (src/lang/).  Its one
 * client is src/envs/nvcc.c, which hands the issues to its judge in the
 * plan (struct env_plan's launch).
 */
#ifndef ASSAY_CUDA_LAUNCH_H
#define ASSAY_CUDA_LAUNCH_H

#include <stddef.h>

#include "base/err.h"

/*
 * CUDA launch limits (the nvcc env's static checks).
 *
 * cuda_launch_check() parses text as CUDA and evaluates, where it
 * can, what each launch "k<<<grid, block, smem>>>" asks for and what each
 * __global__ function declares as static __shared__ memory, against the
 * limits in lim (CUDA C++ Programming Guide, "Compute Capabilities",
 * table of technical specifications).
 *
 * It reports only what is broken on every run that reaches the launch:
 * a value it cannot be sure of is unknown and never reported.  Known: an
 * integer literal, or a constant expression over names declared const
 * or constexpr of an integer type (file or function scope), enumerators,
 * "#define NAME integer" defined once, and local variables of an integer
 * type (or auto) that their function never writes; operators + - * / %
 * << >> & | ^ ~ !, comparisons, ?:, integer casts, sizeof of built-in
 * and CUDA vector types, and min/max of two.  Arithmetic is C's: int
 * arithmetic that leaves 32 bits is unknown, and / % >> and comparisons
 * take only non-negative values that mean the same signed or not.  A dim3
 * follows its declaration ("dim3 g(x, y, z)", "dim3 g = {x, y}", "dim3 g =
 * dim3(...)") and later assignments in source order ("g.y = e;", "g =
 * dim3(...);"): the write last above the launch counts, unless it is in a
 * branch (if/else arm, loop, case, ?: && || operand, lambda, try) the
 * launch is not in, or the launch is in a loop that began after it and
 * writes the dim3 again, or the function has a goto.  dim3 fields and
 * integer launch arguments are unsigned int: modulo 2^32.
 *
 * Unknown everywhere in its function: a local (integer or dim3) whose
 * address is taken, that is bound to a reference or captured by one, or
 * passed by name to a call that may write it (a function of the text
 * whose parameter there is a non-const reference, a method, a
 * constructor, a function not in the text other than C's library,
 * min/max and CUDA's API), read by ">>", or named in a macro's body; a
 * non-const dim3 at file scope; the locals of a function with a parse
 * error.  Under #if/#ifdef whose condition is not a literal, launches,
 * __shared__ declarations and opt-ins are not checked and names have no
 * value; what #if 0 holds is ignored.  A parameter, a call or a float
 * is unknown.
 *
 * Checked: gridDim.x over grid_x, gridDim.y or .z over grid_yz;
 * blockDim.x or .y over block_xy, .z over block_z, else x*y*z over
 * threads; a kernel's static __shared__ bytes over smem_static (ptxas
 * refuses those too: the opt-in covers only dynamic shared memory); a
 * launch's dynamic shared memory plus its kernel's static part over
 * smem_optin (when non-zero), else over smem_static when the kernel is
 * defined in text and no cudaFuncSetAttribute(K,
 * cudaFuncAttributeMaxDynamicSharedMemorySize, N) anywhere in text may
 * name it (one that names no kernel of the text may name any), else over
 * a known N when only plain opt-ins name it.
 */
#define CUDA_LAUNCH_QUOTE	160

struct cuda_launch_limits {
	long long	 grid_x;	/* 2147483647 */
	long long	 grid_yz;	/* 65535 */
	long long	 block_xy;	/* 1024 */
	long long	 block_z;	/* 64 */
	long long	 threads;	/* per block: 1024 */
	long long	 smem_static;	/* bytes without the opt-in: 49152 */
	long long	 smem_optin;	/* bytes per block with it (232448 on
					   sm_90); 0: not checked */
};

enum cuda_launch_kind {
	CUDA_LAUNCH_GRID,	/* a grid dimension */
	CUDA_LAUNCH_BLOCK,	/* a block dimension */
	CUDA_LAUNCH_THREADS,	/* threads per block */
	CUDA_LAUNCH_STATIC_SMEM,	/* a kernel's static __shared__ memory */
	CUDA_LAUNCH_DYN_SMEM	/* a launch's dynamic shared memory */
};

/* One broken limit. */
struct cuda_launch_issue {
	enum cuda_launch_kind kind;
	int		 line;		/* 1-based line the value comes from:
					   "g.y = n;", the __shared__ line */
	int		 launch_line;	/* 1-based line of the <<<...>>>, 0
					   for static shared memory */
	long long	 value;		/* what the code asks for */
	long long	 limit;		/* what it may be */
	char		 msg[256];	/* one line: "gridDim.y = spatial_size
					   = 262144 is over the limit of 65535
					   in the launch of k at line 12" */
	char		 quote[CUDA_LAUNCH_QUOTE + 1];	/* the source of line,
					   blanks trimmed, controls as spaces,
					   at most CUDA_LAUNCH_QUOTE bytes */
};

/*
 * Check text (len bytes, need not be NUL-terminated) against lim.
 * *out is a new array of *n issues (NULL when none), in the order found
 * (source order of launches and kernels, dynamic shared memory last);
 * caller frees it with free().  Repeats of one issue (same kind, line and
 * value) are reported once, and at most 64 in all.  Returns 0, or -1
 * with err when text is too large to parse (4 GiB).  Parse errors are
 * not errors: the parts that parse are checked.
 */
int	cuda_launch_check(const char *text, size_t len,
	    const struct cuda_launch_limits *lim,
	    struct cuda_launch_issue **out, size_t *n, struct err *err);

#endif
