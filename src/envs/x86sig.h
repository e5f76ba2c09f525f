/*
 * x86sig.h - the restricted C prototypes of the x86-asm env: parse one
 * into a description of its parameters, and write the C that the
 * env's harness (share/envs/x86/harness.c) is built with.
 *
 * The grammar (docs/envs/x86-asm.md has it with examples):
 *
 *   signature := rtype IDENT '(' params ')' [';']
 *   rtype     := 'void' | type
 *   params    := 'void' | param (',' param){0,5}
 *   param     := ['const'] type ['const'] IDENT
 *              | ['const'] type ['const'] '*' {'const' | 'restrict'} IDENT
 *   type      := int8_t | int16_t | int32_t | int64_t | uint8_t | uint16_t
 *              | uint32_t | uint64_t | size_t
 *
 * At most six parameters (all passed in registers, System V AMD64),
 * every one named, names unique.  The function may not be main nor a C
 * library function the harness calls itself (memcpy, printf, ...).  A
 * pointer points at an array whose length in elements is one size_t
 * parameter: the only one, or the one the task names
 * (env_params.length).  "const T *" is an input; "T *"
 * is written (and may be read) by the function, and both are compared
 * after each call.  Anything else (float, structs, int, long, varargs,
 * pointers to pointers, function pointers) is rejected with the column
 * where it goes wrong.  Called by x86asm.c; no I/O here.
 */
#ifndef ASSAY_X86SIG_H
#define ASSAY_X86SIG_H

#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "base/err.h"

#define X86SIG_MAX_PARAMS 6	/* rdi rsi rdx rcx r8 r9 */
#define X86SIG_NAME_MAX 64

enum x86sig_type {
	X86SIG_VOID,
	X86SIG_I8, X86SIG_I16, X86SIG_I32, X86SIG_I64,
	X86SIG_U8, X86SIG_U16, X86SIG_U32, X86SIG_U64,
	X86SIG_SIZE
};

struct x86sig_param {
	char		 name[X86SIG_NAME_MAX];
	enum x86sig_type type;		/* the element type for a pointer */
	int		 pointer;	/* T *name */
	int		 is_const;	/* const T *name: read only */
	int		 ranged;	/* lo, hi hold a range (values or
					   elements) */
	int64_t		 lo, hi;	/* inclusive; bit patterns of the
					   type for unsigned ones */
};

struct x86sig {
	char		 name[X86SIG_NAME_MAX];
	enum x86sig_type ret;
	struct x86sig_param params[X86SIG_MAX_PARAMS];
	size_t		 nparams;
	int		 len;		/* index of the length parameter, -1
					   when there is none */
};

/*
 * Parse text (NUL-terminated) into sig.  length names the length
 * parameter, or NULL to take the only size_t one.  0, or -1 with err
 * ("signature: column 9: ...") when text is not in the grammar.
 */
int	x86sig_parse(const char *text, const char *length, struct x86sig *sig,
	    struct err *err);

/* "int32_t", "size_t", "void": static. */
const char *x86sig_type_name(enum x86sig_type t);

/* Size in bytes of a type (0 for void). */
size_t	x86sig_type_size(enum x86sig_type t);

/* Is it a signed type? */
int	x86sig_type_signed(enum x86sig_type t);

/*
 * Index of the parameter called name, or -1.
 */
int	x86sig_find(const struct x86sig *sig, const char *name);

/*
 * The C prototype of sig under the function name fname ("int64_t
 * assay_ref_dot(const int32_t *a, const int32_t *b, size_t n)"), with the
 * parameters' names or without ("const int32_t *"), appended to out.
 */
void	x86sig_prototype(const struct x86sig *sig, const char *fname,
	    int names, struct buf *out);

/*
 * The parameter table the harness reads (sig.h), appended to out: one
 * ASSAY_PARAM line per parameter and the ASSAY_* settings.  cases,
 * seed, max_n and time_n are the harness settings of docs/envs/x86-asm.md.
 */
void	x86sig_table(const struct x86sig *sig, long cases, unsigned long seed,
	    long max_n, long time_n, struct buf *out);

/*
 * The calls the harness makes (thunks.h), appended to out: the candidate
 * declared as assay_cand_SYMBOL with the assembler name SYMBOL (which may
 * be a C library name the harness's headers declare otherwise), the
 * reference declared static, noipa and 64-byte aligned under the name
 * assay_ref_SYMBOL, ref_file
 * included with SYMBOL defined to that name (optimised at -O<opt> when
 * opt is not "2"), and the two thunks that call the reference and the
 * candidate with the arguments in an array of uint64_t.  Everything of
 * the candidate's is inside "#ifdef ASSAY_WORKER": the checker
 * (run/check, built without it) has no candidate code and no reference
 * to the candidate's symbol.
 */
void	x86sig_thunks(const struct x86sig *sig, const char *ref_file,
	    const char *opt, struct buf *out);

#endif
