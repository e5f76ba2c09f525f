/*
 * syntax.h - tree-sitter highlighting: the only module that calls ts_*.
 *
 * Languages are linked in statically (grammars/manifest, built by
 * mk/grammars.mk).  Each language's highlight query is our own file
 * grammars/<lang>/highlights.scm, read at run time from the directory
 * given to syntax_init().  The 0.20.7 runtime parses query predicates but
 * applies none, so this module evaluates #eq?, #match?, #any-of? and their
 * #not- forms itself.  Precedence: inner nodes win over outer ones, and a
 * later pattern wins over an earlier one for the same node (the c 0.23
 * query convention).  ERROR nodes do not stop highlighting elsewhere.
 *
 * Called by the candidate pane (src/ui) and by tests.
 */
#ifndef ASSAY_SYNTAX_H
#define ASSAY_SYNTAX_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"

/* Highlight groups a theme can colour; SYN_NONE is plain text. */
enum syn_group {
	SYN_NONE = 0,
	SYN_COMMENT,
	SYN_KEYWORD,
	SYN_TYPE,
	SYN_FUNCTION,
	SYN_STRING,
	SYN_NUMBER,
	SYN_CONSTANT,
	SYN_OPERATOR,
	SYN_VARIABLE,
	SYN_PROPERTY,
	SYN_PREPROC,
	SYN_ERROR,		/* inside an ERROR node: shown, not fatal */
	SYN_NGROUPS
};

/* One highlighted byte range of a line (0-based columns in bytes). */
struct syn_span {
	uint32_t	 start, end;	/* [start, end) byte offsets in the line */
	enum syn_group	 group;
};

struct syntax;	/* opaque: a parsed document plus its highlight spans */

/*
 * Load the highlight queries from dir (e.g. "grammars" next to the
 * binary).  Call once; a missing or bad query file makes that language
 * plain text and is reported in err (returns -1) without affecting the
 * others.  Returns 0 when every linked language has a working query.
 */
int	syntax_init(const char *dir, struct err *err);
void	syntax_shutdown(void);

/* Is lang ("verilog", "c", "cuda") linked in?  1 or 0. */
int	syntax_has_lang(const char *lang);

/* The grammar ABI version of lang, or -1 when it is not linked in. */
int	syntax_lang_abi(const char *lang);

/*
 * Parse text (len bytes, need not be NUL-terminated) as lang and compute
 * highlight spans for every line.  *out is new; caller frees with
 * syntax_free().  An unknown lang gives a document with no spans (plain
 * text), not an error.  Returns -1 only on a broken query.
 */
int	syntax_parse(struct syntax **out, const char *lang, const char *text,
	    size_t len, struct err *err);
void	syntax_free(struct syntax *s);

/* Number of lines in the parsed text (a trailing newline ends a line). */
size_t	syntax_nlines(const struct syntax *s);

/*
 * The spans of line (0-based), sorted by start and not overlapping.
 * Borrowed: valid until syntax_free(s).  *n receives the count.
 */
const struct syn_span *syntax_line_spans(const struct syntax *s,
	    size_t line, size_t *n);

/* Does the parse tree contain an ERROR or MISSING node?  1 or 0. */
int	syntax_has_error(const struct syntax *s);

/*
 * The tokens of text as lang's grammar reads them, comments left out:
 * the text of every leaf of the parse tree whose type is not a comment,
 * in order, joined by single spaces (so whitespace and comments do not
 * matter: the normalised form dedup hashes and shingles).  With
 * canon_ids, every identifier leaf (a node type naming "identifier") is
 * written as "$N", N counting the distinct names in order of first use,
 * so that code whose names were consistently changed reads the same.
 * *out is new
 * (caller frees), *outlen its length (may be NULL).  Returns 1 with the
 * tokens, 0 when lang has no grammar linked in (*out NULL: the caller
 * tokenises by other means), -1 with err when the text is too large or
 * the grammar is refused.  The walk is iterative: untrusted code cannot
 * exhaust the stack by nesting.
 */
int	syntax_tokens(const char *lang, const char *text, size_t len,
	    char **out, size_t *outlen, char **ids, size_t *idslen,
	    struct err *err);

/* Group name ("keyword", ...) for themes and tests. */
const char *syntax_group_name(enum syn_group g);

/*
 * CUDA launch limits (the nvcc env's static checks).
 *
 * syntax_cuda_launch_check() parses text as CUDA and evaluates, where it
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
struct syn_launch_limits {
	long long	 grid_x;	/* 2147483647 */
	long long	 grid_yz;	/* 65535 */
	long long	 block_xy;	/* 1024 */
	long long	 block_z;	/* 64 */
	long long	 threads;	/* per block: 1024 */
	long long	 smem_static;	/* bytes without the opt-in: 49152 */
	long long	 smem_optin;	/* bytes per block with it (232448 on
					   sm_90); 0: not checked */
};

enum syn_launch_kind {
	SYN_LAUNCH_GRID,	/* a grid dimension */
	SYN_LAUNCH_BLOCK,	/* a block dimension */
	SYN_LAUNCH_THREADS,	/* threads per block */
	SYN_LAUNCH_STATIC_SMEM,	/* a kernel's static __shared__ memory */
	SYN_LAUNCH_DYN_SMEM	/* a launch's dynamic shared memory */
};

/* One broken limit. */
struct syn_launch_issue {
	enum syn_launch_kind kind;
	int		 line;		/* 1-based line the value comes from:
					   "g.y = n;", the __shared__ line */
	int		 launch_line;	/* 1-based line of the <<<...>>>, 0
					   for static shared memory */
	long long	 value;		/* what the code asks for */
	long long	 limit;		/* what it may be */
	char		 msg[256];	/* one line: "gridDim.y = spatial_size
					   = 262144 is over the limit of 65535
					   in the launch of k at line 12" */
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
int	syntax_cuda_launch_check(const char *text, size_t len,
	    const struct syn_launch_limits *lim,
	    struct syn_launch_issue **out, size_t *n, struct err *err);

/*
 * Verilog structure for the Verilog envs' static checks (src/envs/
 * verilog.c): the modules a text declares, the modules they instantiate
 * and the names each declares.  Found with the tree-sitter Verilog
 * grammar; parts that do not parse are left out (tree-sitter-verilog
 * 1.0.0 reads a whole VerilogEval testbench whose signal is named "in"
 * as one ERROR node, so callers must not trust what it leaves out), and
 * nothing is evaluated (no preprocessor, no elaboration).
 */
struct syn_vmodule {
	char		*name;		/* owned */
	uint32_t	 start, end;	/* bytes of the declaration */
	int		 line;		/* 1-based */
};

/* A module instantiation, or a name declared inside a module. */
struct syn_vname {
	int		 module;	/* index in modules[], -1 outside */
	char		*type;		/* instantiated module (owned); NULL
					   for a declared name */
	char		*name;		/* instance or declared name (owned) */
	int		 line;
};

struct syn_verilog {
	struct syn_vmodule *modules;
	size_t		 nmodules;
	struct syn_vname *names;	/* instances and declared names
					   (module -1: outside any module) */
	size_t		 nnames;
	struct syn_vname *uses;		/* names used as the root of a value
					   or an assignment's target */
	size_t		 nuses;
	int		 has_error;	/* an ERROR or MISSING node */
};

/*
 * Scan text (len bytes, need not be NUL-terminated) as Verilog into *out
 * (released with syntax_verilog_release(), also after a failure).  0, or
 * -1 with err when the text is too large (4 GiB) or the grammar is not
 * usable.  The walk is iterative: deep nesting in untrusted code does not
 * exhaust the stack.
 */
int	syntax_verilog_scan(const char *text, size_t len,
	    struct syn_verilog *out, struct err *err);
void	syntax_verilog_release(struct syn_verilog *v);

#endif
