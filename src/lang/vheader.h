/*
 * vheader.h - the interface of Verilog/SystemVerilog modules read with
 * the tree-sitter Verilog grammar: each module's name, its ports
 * (direction, data type, packed range and width in bits) and its
 * parameters (default values), and the comment above it.  What
 * `assay task new` makes a task's interface of (docs/adr/0044).
 *
 * Nothing is elaborated: no preprocessor, no generate blocks.  A width
 * is evaluated from the range's text when every name in it is a
 * parameter or localparam of the module with a value that evaluates
 * (integers, sized literals, + - * / % << >>, parentheses, $clog2);
 * otherwise it is 0 and the range's text is what there is.  The walk is
 * iterative.  With syntax.h and cuda_launch.h the only ts_* callers.
 */
#ifndef ASSAY_VHEADER_H
#define ASSAY_VHEADER_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"

/* One port of a module. */
struct vh_port {
	char	*name;		/* owned */
	char	*dir;		/* "input", "output", "inout" (owned) */
	char	*type;		/* "wire", "reg", "logic", ... or NULL */
	char	*range;		/* the packed dimensions as written,
				   "[WIDTH-1:0]", or NULL: one bit */
	char	*unpacked;	/* unpacked dimensions as written, or NULL */
	long	 width;		/* bits of the packed part; 0: not known */
	int	 is_signed;
	int	 line;		/* 1-based */
};

/* One parameter (or localparam) of a module. */
struct vh_param {
	char	*name;		/* owned */
	char	*value;		/* the default as written, or NULL */
	int	 local;		/* 1: localparam (not part of the interface) */
	int	 line;
};

struct vh_module {
	char	*name;		/* owned */
	int	 line;		/* of the keyword "module", 1-based */
	char	*comment;	/* the comments right above the module, their
				   markers (//, / *, * /) removed; or NULL */
	struct vh_port *ports;
	size_t	 nports;
	struct vh_param *params;
	size_t	 nparams;
};

struct vh_file {
	struct vh_module *modules;
	size_t	 nmodules;
	int	 has_error;	/* the grammar met an ERROR or MISSING node */
	int	 error_line;	/* the first one's line, 1-based; 0: none */
};

/*
 * Read the modules of text (len bytes, need not end in NUL) into *out,
 * released with vh_release() also after a failure.  0, or -1 with err
 * when the text is too large or the grammar is not usable.  A text the
 * grammar reads only in part is not an error: has_error says so and
 * what was read is there.
 */
int	vh_scan(const char *text, size_t len, struct vh_file *out,
	    struct err *err);
void	vh_release(struct vh_file *f);

/* The module named name in f, or NULL.  Borrowed. */
const struct vh_module *vh_find(const struct vh_file *f, const char *name);

/*
 * The module that no other module of f instantiates by name in text (the
 * top of a file that also holds its submodules), the first such; NULL
 * when f has none.  Borrowed.
 */
const struct vh_module *vh_top(const struct vh_file *f, const char *text);

/*
 * Evaluate expr, a constant expression, with the parameters of m
 * (their defaults, evaluated in turn; a name is looked up among those
 * declared before it only).  1 with *v, 0 when it does not evaluate.
 */
int	vh_eval(const struct vh_module *m, const char *expr, long *v);

#endif
