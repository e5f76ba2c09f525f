/*
 * syntax.h - tree-sitter highlighting and the structure the envs read;
 * with cuda_launch.h (the CUDA launch limits) the only modules that call
 * ts_*.
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
