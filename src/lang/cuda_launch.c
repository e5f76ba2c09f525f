/*
 * cuda_launch.c - the CUDA launch-limit analysis (cuda_launch.h): what
 * each launch asks for and each kernel declares, evaluated on the
 * tree-sitter CUDA tree where it can be known, against the target's
 * limits.  One walk in source order over the whole tree, after a pass
 * that finds the functions and macros; see cuda_launch.h for what is
 * known and what is checked.
 */
#include "lang/cuda_launch.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tree_sitter/api.h>

#include "base/err.h"
#include "lang/parse.h"

const TSLanguage *tree_sitter_cuda(void);

#define LC_DEPTH	48	/* how deep an expression is followed */
#define LC_LDEPTH	32	/* how deep an lvalue is followed */
#define LC_MAX_ISSUES	64
#define LC_TEXT		48	/* bytes of source quoted in a message */
#define LC_MAX_LIST	4096	/* names written, macros' names, functions:
				   past this the check gives up on them */

/* Where a line of code certainly is, for the preprocessor. */
enum lc_pp {
	LC_LIVE,		/* compiled */
	LC_MAYBE,		/* under #ifdef X, #if N > 2: perhaps */
	LC_DEAD			/* under #if 0: never */
};

/*
 * A value the check may know.  wide: its C type is 64 bits (a long or
 * large literal, sizeof, a 64-bit cast or variable); otherwise it is an
 * int or unsigned int, and arithmetic that leaves 32 bits has overflowed,
 * which the check does not pretend to know.
 */
struct lc_val {
	int		 known;
	long long	 v;
	int		 wide;
};

/*
 * A name with an integer value (const, constexpr, an enumerator, a
 * #define, a local never written again), or one with no known value
 * that hides an outer one of that name (a parameter, any variable).
 */
struct lc_name {
	char		*name;
	int		 scope;		/* 0 file scope, else the function's number */
	uint32_t	 pos;		/* start byte of the declaration */
	uint32_t	 end;		/* end byte of the block it lives in */
	int		 define;	/* from #define */
	struct lc_val	 val;
};

/*
 * One dimension of a dim3: its value, the line and text it came from, and
 * where it was written: wpos the write's first byte, [bs, be) the
 * innermost branch (if/else arm, loop body, case, lambda ...) around it.
 */
struct lc_dim {
	struct lc_val	 val;
	int		 line;
	char		 text[LC_TEXT];
	uint32_t	 wpos, bs, be;
};

struct lc_dim3 {
	char		*name;
	int		 scope;
	uint32_t	 pos, end;
	int		 escaped;	/* aliased, passed by reference, global,
					   conditional: never known */
	struct lc_dim	 d[3];
};

/* A __global__ function and the static __shared__ bytes it surely has. */
struct lc_kernel {
	char		*name;
	long long	 smem;
};

/* cudaFuncSetAttribute(K, cudaFuncAttributeMaxDynamicSharedMemorySize, N);
 * kernel NULL: it may be any kernel. */
struct lc_optin {
	char		*kernel;
	struct lc_val	 bytes;
};

/* A launch's dynamic shared memory, checked once every kernel is known;
 * kernel NULL when the launch does not name one. */
struct lc_launch {
	char		*kernel;
	struct lc_val	 bytes;
	int		 line, launch_line;
	char		 text[LC_TEXT];
};

/* A function declared in the text: which arguments it may write. */
struct lc_fn {
	char		*name;
	uint64_t	 ref;		/* bit i: parameter i is a non-const
					   reference (i >= 64: all are) */
	uint32_t	 nparams;
	int		 pack;		/* index of a parameter pack, or -1 */
	int		 pack_ref;	/* the pack is of references */
	int		 cvariadic;	/* ends in "...": by value */
};

/* A name the function being walked writes (escaped: its address is
 * taken, it is bound to a reference or passed to one). */
struct lc_mark {
	char		*name;
	int		 escaped;
};

/* Where the function writes a name. */
struct lc_write {
	char		*name;
	uint32_t	 pos;
};

/* One node on the path from the root to the node being walked. */
struct lc_frame {
	TSNode		 node;
	uint32_t	 bs, be;	/* the innermost branch it is in */
	int		 scope_i;	/* frame of the innermost block, -1 */
	int		 loop_i;	/* frame of the innermost loop, -1 */
	int		 loop_prev;	/* a loop: the loop around it, -1 */
	uint32_t	 rs;		/* a loop: where its repeated part
					   starts */
	int		 err;		/* inside an ERROR node */
	enum lc_pp	 pp;		/* what the preprocessor does with it */
	enum lc_pp	 pp_body;	/* #if/#elif/#else: with its body */
	int		 pp_prev;	/* #if chain: 0 every condition so far
					   false, 1 perhaps one true, 2 one
					   true */
};

struct lc {
	const char		*src;
	const struct cuda_launch_limits *lim;
	struct lc_name		*names;
	size_t			 nnames;
	struct lc_dim3		*dims;
	size_t			 ndims;
	struct lc_kernel	*kernels;
	size_t			 nkernels;
	struct lc_optin		*optins;
	size_t			 noptins;
	struct lc_launch	*launches;
	size_t			 nlaunches;
	struct cuda_launch_issue	*issues;
	size_t			 nissues;

	/* From the pass before the walk. */
	struct lc_fn		*fns;
	size_t			 nfns;
	int			 fns_full;	/* too many to trust */
	char			**macro_ids;	/* names in macro bodies */
	size_t			 nmacro_ids;
	int			 macros_full;

	/* The path to the node being walked. */
	struct lc_frame		*frames;
	size_t			 nframes, aframes;

	/* The function being walked (the outermost one). */
	int			 nfn;		/* functions so far: scope ids */
	int			 scope;		/* 0 at file scope */
	TSNode			 fn;
	int			 kernel;	/* it is __global__ */
	char			*kname;
	long long		 ksmem;		/* its static __shared__ bytes */
	int			 kline;		/* where they went over */
	int			 fn_broken;	/* a parse error in it, or too
						   much to follow */
	int			 has_goto;
	struct lc_mark		*marks;		/* names it writes */
	size_t			 nmarks;
	struct lc_write		*writes;
	size_t			 nwrites;
};

static int
lc_is(TSNode n, const char *type)
{
	return !ts_node_is_null(n) && strcmp(ts_node_type(n), type) == 0;
}

static int
lc_line(TSNode n)
{
	return (int)ts_node_start_point(n).row + 1;
}

/* Null-safe, unlike the 0.20.7 runtime's. */
static TSNode
lc_field(TSNode n, const char *name)
{
	if (ts_node_is_null(n))
		return n;
	return ts_node_child_by_field_name(n, name, (uint32_t)strlen(name));
}

static int
lc_eq(TSNode a, TSNode b)
{
	return !ts_node_is_null(a) && !ts_node_is_null(b) && ts_node_eq(a, b);
}

/* The node's text, blanks squeezed to one space, cut to n - 1 bytes. */
static void
lc_text(const struct lc *c, TSNode n, char *buf, size_t size)
{
	uint32_t s = 0, e = 0;
	size_t k = 0;
	int blank = 0;

	/* The runtime's getters fail on a null node. */
	if (!ts_node_is_null(n)) {
		s = ts_node_start_byte(n);
		e = ts_node_end_byte(n);
	}
	for (; s < e && k + 1 < size; s++) {
		char ch = c->src[s];

		if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r') {
			blank = 1;
			continue;
		}
		if (blank && k > 0 && k + 2 < size)
			buf[k++] = ' ';
		blank = 0;
		buf[k++] = ch;
	}
	buf[k] = '\0';
}

static int
lc_text_is(const struct lc *c, TSNode n, const char *s)
{
	uint32_t b, e;

	if (ts_node_is_null(n))
		return 0;
	b = ts_node_start_byte(n);
	e = ts_node_end_byte(n);
	return strlen(s) == e - b && memcmp(c->src + b, s, e - b) == 0;
}

/* Does the node's text hold the byte ch? */
static int
lc_has_char(const struct lc *c, TSNode n, char ch)
{
	uint32_t b, e;

	if (ts_node_is_null(n))
		return 0;
	b = ts_node_start_byte(n);
	e = ts_node_end_byte(n);
	return memchr(c->src + b, ch, e - b) != NULL;
}

/* The i-th named child that is not a comment, or a null node. */
static TSNode
lc_arg(TSNode list, uint32_t i)
{
	TSNode null = { 0 };
	uint32_t n = ts_node_is_null(list) ? 0 :
	    ts_node_named_child_count(list), k;

	for (k = 0; k < n; k++) {
		TSNode ch = ts_node_named_child(list, k);

		if (lc_is(ch, "comment"))
			continue;
		if (i-- == 0)
			return ch;
	}
	return null;
}

static uint32_t
lc_nargs(TSNode list)
{
	uint32_t n = ts_node_is_null(list) ? 0 :
	    ts_node_named_child_count(list), k, r = 0;

	for (k = 0; k < n; k++)
		r += !lc_is(ts_node_named_child(list, k), "comment");
	return r;
}

/*
 * An integer literal: 42, 0x2a, 052, 0b101, 1'000, with u/l/z suffixes.
 * Its type, as C++ gives it: int, unsigned int, or 64 bits (a long
 * suffix, or a value that fits neither).
 */
static struct lc_val
lc_number(const char *s, size_t n)
{
	struct lc_val r = { 0, 0, 0 };
	char buf[64], *end;
	unsigned long long v = 0;
	size_t k = 0, i;
	int base = 10, uns = 0, lng = 0;

	if (n > 1 && s[0] == '-' && s[1] != '-') {
		/* The grammar reads "-1" as one literal: -(1). */
		r = lc_number(s + 1, n - 1);
		if (r.known)
			r.v = -r.v;
		if (!r.wide && r.v < INT_MIN)
			r.known = 0;
		return r;
	}
	for (i = 0; i < n && k + 1 < sizeof buf; i++)
		if (s[i] != '\'')
			buf[k++] = s[i];
	if (i < n || k == 0)
		return r;
	while (k > 1 && strchr("uUlLzZ", buf[k - 1]) != NULL) {
		if (buf[k - 1] == 'u' || buf[k - 1] == 'U')
			uns = 1;
		else
			lng = 1;
		k--;
	}
	buf[k] = '\0';
	if (buf[0] == '0' && (buf[1] == 'x' || buf[1] == 'X'))
		base = 16;
	else if (buf[0] == '0' && (buf[1] == 'b' || buf[1] == 'B'))
		base = 2;
	else if (buf[0] == '0')
		base = 8;
	if (base != 16 && strpbrk(buf, ".eEpPfF") != NULL)
		return r;	/* a floating literal */
	if (base == 2) {
		if (buf[2] == '\0')
			return r;
		for (i = 2; buf[i] != '\0'; i++) {
			if ((buf[i] != '0' && buf[i] != '1') || v > LLONG_MAX / 2)
				return r;
			v = v * 2 + (unsigned)(buf[i] - '0');
		}
	} else {
		if (strpbrk(buf, ".pP") != NULL || buf[0] == '-')
			return r;
		errno = 0;
		v = strtoull(buf, &end, base);
		if (errno != 0 || *end != '\0')
			return r;
	}
	if (v > LLONG_MAX)
		return r;
	r.known = 1;
	r.v = (long long)v;
	/* A decimal literal without u is int, then long; the others are
	 * int, then unsigned int, then long. */
	r.wide = lng || v > UINT_MAX || (base == 10 && !uns && v > INT_MAX);
	return r;
}

/* Bytes of a built-in or CUDA vector type; 0 when unknown. */
static long long
lc_type_size(const char *t)
{
	static const struct {
		const char	*name;
		long long	 size;
	} sizes[] = {
		{ "char", 1 }, { "signed char", 1 }, { "unsigned char", 1 },
		{ "bool", 1 }, { "int8_t", 1 }, { "uint8_t", 1 },
		{ "char2", 2 }, { "uchar2", 2 }, { "char4", 4 }, { "uchar4", 4 },
		{ "short", 2 }, { "unsigned short", 2 }, { "int16_t", 2 },
		{ "uint16_t", 2 }, { "half", 2 }, { "__half", 2 },
		{ "__nv_bfloat16", 2 }, { "nv_bfloat16", 2 },
		{ "int", 4 }, { "unsigned", 4 }, { "unsigned int", 4 },
		{ "signed", 4 }, { "signed int", 4 }, { "float", 4 },
		{ "int32_t", 4 }, { "uint32_t", 4 }, { "half2", 4 },
		{ "__half2", 4 }, { "__nv_bfloat162", 4 }, { "short2", 4 },
		{ "long", 8 }, { "unsigned long", 8 }, { "long long", 8 },
		{ "unsigned long long", 8 }, { "long int", 8 }, { "double", 8 },
		{ "size_t", 8 }, { "ssize_t", 8 }, { "ptrdiff_t", 8 },
		{ "int64_t", 8 }, { "uint64_t", 8 }, { "intptr_t", 8 },
		{ "uintptr_t", 8 }, { "float2", 8 }, { "int2", 8 },
		{ "uint2", 8 }, { "short4", 8 },
		{ "float3", 12 }, { "int3", 12 }, { "uint3", 12 },
		{ "dim3", 12 },
		{ "float4", 16 }, { "int4", 16 }, { "uint4", 16 },
		{ "double2", 16 }, { "long2", 16 }, { "longlong2", 16 },
		{ "ulonglong2", 16 },
		{ "double4", 32 }, { "longlong4", 32 },
	};
	size_t n;

	while (strncmp(t, "const ", 6) == 0 || strncmp(t, "volatile ", 9) == 0)
		t = strchr(t, ' ') + 1;
	n = strlen(t);
	if (n > 0 && t[n - 1] == '*')
		return 8;
	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
		if (strcmp(sizes[i].name, t) == 0)
			return sizes[i].size;
	return 0;
}

/* Is t ("unsigned int", "const size_t", "std::int64_t") an integer type?
 * Its bytes into *size (1, 2, 4, 8) and whether unsigned into *uns. */
static int
lc_int_type(const char *t, int *size, int *uns)
{
	static const struct {
		const char	*name;
		int		 size, uns;
	} types[] = {
		{ "bool", 1, 1 }, { "char", 1, 0 }, { "signed char", 1, 0 },
		{ "unsigned char", 1, 1 }, { "int8_t", 1, 0 },
		{ "uint8_t", 1, 1 }, { "short", 2, 0 }, { "short int", 2, 0 },
		{ "signed short", 2, 0 }, { "unsigned short", 2, 1 },
		{ "unsigned short int", 2, 1 }, { "int16_t", 2, 0 },
		{ "uint16_t", 2, 1 }, { "int", 4, 0 }, { "signed", 4, 0 },
		{ "signed int", 4, 0 }, { "unsigned", 4, 1 },
		{ "unsigned int", 4, 1 }, { "int32_t", 4, 0 },
		{ "uint32_t", 4, 1 }, { "long", 8, 0 }, { "long int", 8, 0 },
		{ "signed long", 8, 0 }, { "long long", 8, 0 },
		{ "long long int", 8, 0 }, { "signed long long", 8, 0 },
		{ "unsigned long", 8, 1 }, { "unsigned long int", 8, 1 },
		{ "unsigned long long", 8, 1 },
		{ "unsigned long long int", 8, 1 }, { "int64_t", 8, 0 },
		{ "uint64_t", 8, 1 }, { "size_t", 8, 1 }, { "ssize_t", 8, 0 },
		{ "ptrdiff_t", 8, 0 }, { "intptr_t", 8, 0 },
		{ "uintptr_t", 8, 1 },
	};

	while (strncmp(t, "const ", 6) == 0 || strncmp(t, "volatile ", 9) == 0)
		t = strchr(t, ' ') + 1;
	if (strncmp(t, "std::", 5) == 0)
		t += 5;
	for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
		if (strcmp(types[i].name, t) == 0) {
			*size = types[i].size;
			*uns = types[i].uns;
			return 1;
		}
	return 0;
}

/* v converted to the integer type t (a C cast); unknown for any other
 * type, and where the result depends on what the check does not track. */
static struct lc_val
lc_convert(const char *t, struct lc_val v)
{
	struct lc_val u = { 0, 0, 0 };
	int size, uns;

	if (!v.known || !lc_int_type(t, &size, &uns))
		return u;
	if (strcmp(t, "bool") == 0) {
		v.v = v.v != 0;
		v.wide = 0;
		return v;
	}
	switch (size) {
	case 8:
		if (uns && v.v < 0)
			return u;	/* beyond long long */
		v.wide = 1;
		return v;
	case 4:
		/* Modulo 2^32; to int as two's complement, as nvcc does. */
		v.v = (long long)((unsigned long long)v.v & 0xffffffffULL);
		if (!uns && v.v > INT_MAX)
			v.v -= 0x100000000LL;
		v.wide = 0;
		return v;
	default:
		if (v.v < 0 || v.v >= 1LL << (8 * size - 1))
			return u;
		v.wide = 0;
		return v;
	}
}

static struct lc_val
lc_cast(const struct lc *c, TSNode type, struct lc_val v)
{
	char t[64];

	lc_text(c, type, t, sizeof t);
	return lc_convert(t, v);
}

/* --- the path being walked -------------------------------------------- */

static const struct lc_frame *
lc_top(const struct lc *c)
{
	static const struct lc_frame root = { .be = UINT32_MAX, .scope_i = -1,
	    .loop_i = -1, .loop_prev = -1 };

	return c->nframes > 0 ? &c->frames[c->nframes - 1] : &root;
}

/* Is the top frame's code compiled for sure, and parsed cleanly? */
static int
lc_live(const struct lc *c)
{
	const struct lc_frame *f = lc_top(c);

	return f->pp == LC_LIVE && !f->err;
}

/* End byte of the block a name declared now lives in. */
static uint32_t
lc_scope_end(const struct lc *c)
{
	int i = lc_top(c)->scope_i;

	return i < 0 ? UINT32_MAX : ts_node_end_byte(c->frames[i].node);
}

/*
 * Is child ch of p code that may run or not when p runs: an if's arms, a
 * loop's body, condition and step, a switch's cases, the other operands
 * of ?:, && and ||, a lambda, a try block and its handlers?
 */
static int
lc_branch(const struct lc *c, TSNode p, TSNode ch)
{
	const char *pt = ts_node_type(p), *t = ts_node_type(ch);
	char op[4];

	if (strcmp(t, "case_statement") == 0 ||
	    strcmp(t, "lambda_expression") == 0 ||
	    strcmp(t, "catch_clause") == 0)
		return 1;
	if (strcmp(pt, "if_statement") == 0 ||
	    strcmp(pt, "conditional_expression") == 0)
		return lc_eq(ch, lc_field(p, "consequence")) ||
		    lc_eq(ch, lc_field(p, "alternative"));
	if (strcmp(pt, "for_statement") == 0)
		return ts_node_is_named(ch) &&
		    !lc_eq(ch, lc_field(p, "initializer"));
	if (strcmp(pt, "for_range_loop") == 0 ||
	    strcmp(pt, "while_statement") == 0 ||
	    strcmp(pt, "do_statement") == 0 ||
	    strcmp(pt, "switch_statement") == 0 ||
	    strcmp(pt, "try_statement") == 0)
		return lc_eq(ch, lc_field(p, "body"));
	if (strcmp(pt, "binary_expression") == 0) {
		lc_text(c, lc_field(p, "operator"), op, sizeof op);
		return (strcmp(op, "&&") == 0 || strcmp(op, "||") == 0 ||
		    strcmp(op, "and") == 0 || strcmp(op, "or") == 0) &&
		    lc_eq(ch, lc_field(p, "right"));
	}
	return 0;
}

static int
lc_is_pp_cond(TSNode n)
{
	return lc_is(n, "preproc_if") || lc_is(n, "preproc_ifdef") ||
	    lc_is(n, "preproc_elif") || lc_is(n, "preproc_elifdef") ||
	    lc_is(n, "preproc_else");
}

/* A preprocessor condition: 1 ("#if 1", "#if true"), 0 ("#if 0", "#if
 * false"), -1 anything else ("#if N > 1", "#ifdef X"). */
static int
lc_pp_cond(const struct lc *c, TSNode n)
{
	char buf[32], *p = buf;
	size_t len;
	struct lc_val v;

	if (lc_is(n, "preproc_else"))
		return 1;
	if (!lc_is(n, "preproc_if") && !lc_is(n, "preproc_elif"))
		return -1;
	lc_text(c, lc_field(n, "condition"), buf, sizeof buf);
	len = strlen(buf);
	while (len >= 2 && p[0] == '(' && p[len - 1] == ')') {
		p++;
		len -= 2;
	}
	p[len] = '\0';
	if (strcmp(p, "true") == 0 || strcmp(p, "false") == 0)
		return p[0] == 't';
	v = lc_number(p, len);
	return v.known ? v.v != 0 : -1;
}

/* Entering node n: its frame from its parent's. */
static void
lc_push(struct lc *c, TSNode n)
{
	const struct lc_frame *p = lc_top(c);
	struct lc_frame f = *p;
	const char *t = ts_node_type(n);
	int idx = (int)c->nframes;

	f.node = n;
	if (strcmp(t, "ERROR") == 0)
		f.err = 1;
	if (c->nframes > 0 && lc_branch(c, p->node, n)) {
		f.bs = ts_node_start_byte(n);
		f.be = ts_node_end_byte(n);
	}
	if (strcmp(t, "for_statement") == 0 ||
	    strcmp(t, "for_range_loop") == 0 ||
	    strcmp(t, "while_statement") == 0 ||
	    strcmp(t, "do_statement") == 0) {
		TSNode init = lc_field(n, "initializer");

		f.loop_prev = p->loop_i;
		f.loop_i = idx;
		f.rs = strcmp(t, "for_statement") == 0 &&
		    !ts_node_is_null(init) ? ts_node_end_byte(init) :
		    ts_node_start_byte(n);
	}
	if (strcmp(t, "compound_statement") == 0 ||
	    strcmp(t, "for_statement") == 0 ||
	    strcmp(t, "for_range_loop") == 0 ||
	    strcmp(t, "if_statement") == 0 ||
	    strcmp(t, "while_statement") == 0 ||
	    strcmp(t, "switch_statement") == 0 ||
	    strcmp(t, "catch_clause") == 0 ||
	    strcmp(t, "lambda_expression") == 0 ||
	    strcmp(t, "function_definition") == 0 ||
	    strcmp(t, "field_declaration_list") == 0)
		f.scope_i = idx;
	/* The body of an #if, #elif or #else (not its condition, not the
	 * #elif or #else that follows). */
	if (c->nframes > 0 && lc_is_pp_cond(p->node) &&
	    !lc_eq(n, lc_field(p->node, "alternative")) &&
	    !lc_eq(n, lc_field(p->node, "condition")) &&
	    !lc_eq(n, lc_field(p->node, "name")) && p->pp_body > f.pp)
		f.pp = p->pp_body;
	if (lc_is_pp_cond(n)) {
		int head = strcmp(t, "preproc_if") == 0 ||
		    strcmp(t, "preproc_ifdef") == 0;
		int prev = head || c->nframes == 0 ? 0 : p->pp_prev;
		int cond = lc_pp_cond(c, n);

		if (prev == 2)
			f.pp_body = LC_DEAD;
		else if (cond == 0)
			f.pp_body = LC_DEAD;
		else if (prev == 1 || cond < 0)
			f.pp_body = LC_MAYBE;
		else
			f.pp_body = LC_LIVE;
		f.pp_prev = prev == 2 || cond == 1 ? 2 : prev == 1 ||
		    cond < 0 ? 1 : 0;
	}
	if (c->nframes == c->aframes) {
		c->aframes = c->aframes == 0 ? 64 : c->aframes * 2;
		c->frames = xreallocarray(c->frames, c->aframes,
		    sizeof *c->frames);
	}
	c->frames[c->nframes++] = f;
}

/* --- names ------------------------------------------------------------ */

/*
 * LC_LOOKUP(fn, type, arr, n) defines fn(c, s, len, scope, pos): the
 * latest entry of c->arr (a struct type with name, scope, pos and end)
 * named s..len whose block holds pos, in scope, else the latest at file
 * scope; NULL: none.  Plain names and dim3s are looked up by one rule.
 */
#define LC_LOOKUP(fn, type, arr, n)					\
static const struct type *						\
fn(const struct lc *c, const char *s, size_t len, int scope,		\
    uint32_t pos)							\
{									\
	const struct type *file = NULL;					\
									\
	for (size_t i = c->n; i-- > 0; ) {				\
		const struct type *e = &c->arr[i];			\
									\
		if (e->pos >= pos || pos >= e->end ||			\
		    strlen(e->name) != len ||				\
		    memcmp(e->name, s, len) != 0)			\
			continue;					\
		if (scope != 0 && e->scope == scope)			\
			return e;					\
		if (e->scope == 0 && file == NULL)			\
			file = e;					\
	}								\
	return file;							\
}

LC_LOOKUP(lc_lookup, lc_name, names, nnames)
LC_LOOKUP(lc_lookup_dim3, lc_dim3, dims, ndims)
#undef LC_LOOKUP

/* The dim3 named by identifier n, unless a plain name hides it. */
static const struct lc_dim3 *
lc_dim3_at(const struct lc *c, TSNode n, int scope)
{
	uint32_t s = ts_node_start_byte(n), e = ts_node_end_byte(n);
	const struct lc_dim3 *d = lc_lookup_dim3(c, c->src + s, e - s, scope,
	    s);
	const struct lc_name *v = lc_lookup(c, c->src + s, e - s, scope, s);

	if (d != NULL && v != NULL && (v->scope > d->scope ||
	    (v->scope == d->scope && v->pos > d->pos)))
		return NULL;
	return d;
}

/*
 * Dimension k of dim3 d as read at node r: known only when the write it
 * last had is sure to have happened, and to be the last, whenever r runs.
 * Not when the write sits in a branch r is not in (if (...) g.y = 1;), nor
 * when r is in a loop that began after the write and that writes the
 * name again (the next turn sees that write), nor in a function with a
 * goto.
 */
static struct lc_val
lc_dim_read(const struct lc *c, const struct lc_dim3 *d, int k, TSNode r)
{
	struct lc_val u = { 0, 0, 0 };
	const struct lc_dim *m = &d->d[k];
	const struct lc_frame *q = NULL;
	uint32_t rs = ts_node_start_byte(r), re = ts_node_end_byte(r), e;

	if (d->escaped || !m->val.known || c->has_goto || c->fn_broken)
		return u;
	if (rs < m->bs || re > m->be)
		return u;
	for (int i = lc_top(c)->loop_i; i >= 0; i = c->frames[i].loop_prev)
		if (m->wpos < c->frames[i].rs)
			q = &c->frames[i];
	if (q != NULL) {
		e = ts_node_end_byte(q->node);
		for (size_t i = 0; i < c->nwrites; i++)
			if (c->writes[i].pos >= q->rs && c->writes[i].pos < e &&
			    strcmp(c->writes[i].name, d->name) == 0)
				return u;
	}
	return m->val;
}

/* Does the function write the name (*esc: its address escapes)? */
static int
lc_marked(const struct lc *c, const char *s, size_t len, int *esc)
{
	*esc = 0;
	if (c->macros_full) {
		*esc = 1;
		return 1;
	}
	for (size_t i = 0; i < c->nmarks; i++)
		if (strlen(c->marks[i].name) == len &&
		    memcmp(c->marks[i].name, s, len) == 0) {
			*esc = c->marks[i].escaped;
			return 1;
		}
	/* A macro may write any name its body holds. */
	for (size_t i = 0; i < c->nmacro_ids; i++)
		if (strlen(c->macro_ids[i]) == len &&
		    memcmp(c->macro_ids[i], s, len) == 0) {
			*esc = 1;
			return 1;
		}
	return 0;
}

static int
lc_marked_node(const struct lc *c, TSNode id, int *esc)
{
	uint32_t s = ts_node_start_byte(id);

	return lc_marked(c, c->src + s, ts_node_end_byte(id) - s, esc);
}

static struct lc_val lc_eval(struct lc *, TSNode, int, int);

/* The value of the name at node n (an identifier). */
static struct lc_val
lc_name_value(struct lc *c, TSNode n, int scope)
{
	struct lc_val u = { 0, 0, 0 };
	uint32_t s = ts_node_start_byte(n), e = ts_node_end_byte(n);
	const struct lc_name *v = lc_lookup(c, c->src + s, e - s, scope, s);

	/* A dim3 of that name hides an outer constant. */
	if (v == NULL)
		return u;
	{
		const struct lc_dim3 *d = lc_lookup_dim3(c, c->src + s, e - s,
		    scope, s);

		if (d != NULL && (d->scope > v->scope || d->pos > v->pos))
			return u;
	}
	return v->val;
}

/* --- expressions ------------------------------------------------------ */

/*
 * a OP b in C's arithmetic, where the check can be sure of it.  + - * &
 * | ^ << agree with any 32-bit result modulo 2^32; / % >> and the
 * comparisons depend on signedness, so they take only values that mean
 * the same signed or not.
 */
static struct lc_val
lc_binary(const char *op, struct lc_val a, struct lc_val b)
{
	struct lc_val r = { 1, 0, 0 }, u = { 0, 0, 0 };
	long long x = a.v, y = b.v;
	int ring;

	if (!a.known || !b.known)
		return u;
	r.wide = a.wide || b.wide;
	ring = strcmp(op, "+") == 0 || strcmp(op, "-") == 0 ||
	    strcmp(op, "*") == 0 || strcmp(op, "&") == 0 ||
	    strcmp(op, "|") == 0 || strcmp(op, "^") == 0 ||
	    strcmp(op, "<<") == 0;
	if (!ring && strcmp(op, "&&") != 0 && strcmp(op, "||") != 0 &&
	    (x < 0 || y < 0 || (!a.wide && x > INT_MAX) ||
	    (!b.wide && y > INT_MAX)))
		return u;
	if (strcmp(op, "+") == 0) {
		if (__builtin_add_overflow(x, y, &r.v))
			return u;
	} else if (strcmp(op, "-") == 0) {
		if (__builtin_sub_overflow(x, y, &r.v))
			return u;
	} else if (strcmp(op, "*") == 0) {
		if (__builtin_mul_overflow(x, y, &r.v))
			return u;
	} else if (strcmp(op, "/") == 0 || strcmp(op, "%") == 0) {
		if (y == 0)
			return u;
		r.v = op[0] == '/' ? x / y : x % y;
	} else if (strcmp(op, "<<") == 0) {
		r.wide = a.wide;
		if (x < 0 || y < 0 || y > (a.wide ? 62 : 31) ||
		    x > (LLONG_MAX >> y))
			return u;
		r.v = x << y;
	} else if (strcmp(op, ">>") == 0) {
		r.wide = a.wide;
		if (y > (a.wide ? 62 : 31))
			return u;
		r.v = x >> y;
	} else if (strcmp(op, "&") == 0) {
		r.v = x & y;
	} else if (strcmp(op, "|") == 0) {
		r.v = x | y;
	} else if (strcmp(op, "^") == 0) {
		r.v = x ^ y;
	} else {
		r.wide = 0;
		if (strcmp(op, "&&") == 0)
			r.v = x && y;
		else if (strcmp(op, "||") == 0)
			r.v = x || y;
		else if (strcmp(op, "<") == 0)
			r.v = x < y;
		else if (strcmp(op, ">") == 0)
			r.v = x > y;
		else if (strcmp(op, "<=") == 0)
			r.v = x <= y;
		else if (strcmp(op, ">=") == 0)
			r.v = x >= y;
		else if (strcmp(op, "==") == 0)
			r.v = x == y;
		else if (strcmp(op, "!=") == 0)
			r.v = x != y;
		else
			return u;
	}
	/* Out of 32 bits in int arithmetic: overflowed. */
	if (!r.wide && (r.v < INT_MIN || r.v > UINT_MAX))
		return u;
	return r;
}

/* sizeof(T), sizeof(float4) (parsed as an expression): a size_t. */
static struct lc_val
lc_sizeof(struct lc *c, TSNode n)
{
	struct lc_val r = { 0, 0, 1 };
	TSNode t = lc_field(n, "type"), v = lc_field(n, "value");
	char name[64];

	if (ts_node_is_null(t) && lc_is(v, "parenthesized_expression") &&
	    lc_is(ts_node_named_child(v, 0), "identifier"))
		t = ts_node_named_child(v, 0);
	if (ts_node_is_null(t))
		return r;
	lc_text(c, t, name, sizeof name);
	r.v = lc_type_size(name);
	r.known = r.v > 0;
	return r;
}

static int
lc_fn_defined(const struct lc *c, const char *name)
{
	if (c->fns_full)
		return 1;
	for (size_t i = 0; i < c->nfns; i++)
		if (strcmp(c->fns[i].name, name) == 0)
			return 1;
	return 0;
}

/* min/max of two, a functional cast int(x), static_cast<T>(x); not when
 * the text defines a function of that name. */
static struct lc_val
lc_call(struct lc *c, TSNode n, int scope, int depth)
{
	struct lc_val u = { 0, 0, 0 }, a, b;
	TSNode fn = lc_field(n, "function"), args = lc_field(n, "arguments");
	TSNode targs = { 0 };
	char name[32];

	if (ts_node_is_null(fn) || ts_node_is_null(args))
		return u;
	if (lc_is(fn, "template_function")) {
		targs = lc_field(fn, "arguments");
		fn = lc_field(fn, "name");
	}
	lc_text(c, fn, name, sizeof name);
	if (strncmp(name, "std::", 5) == 0)
		memmove(name, name + 5, strlen(name + 5) + 1);
	else if (strncmp(name, "::", 2) == 0)
		memmove(name, name + 2, strlen(name + 2) + 1);
	if (lc_fn_defined(c, name))
		return u;
	if (lc_nargs(args) == 2 && (strcmp(name, "min") == 0 ||
	    strcmp(name, "max") == 0)) {
		a = lc_eval(c, lc_arg(args, 0), scope, depth + 1);
		b = lc_eval(c, lc_arg(args, 1), scope, depth + 1);
		/* Signed or unsigned compare: the same for these. */
		if (!a.known || !b.known || a.v < 0 || b.v < 0 ||
		    (!a.wide && a.v > INT_MAX) || (!b.wide && b.v > INT_MAX))
			return u;
		a.wide = a.wide || b.wide;
		a.v = (name[1] == 'i') == (a.v < b.v) ? a.v : b.v;
		return a;
	}
	if (lc_nargs(args) != 1)
		return u;
	a = lc_eval(c, lc_arg(args, 0), scope, depth + 1);
	if (strcmp(name, "static_cast") == 0)
		return lc_cast(c, lc_arg(targs, 0), a);
	return lc_convert(name, a);
}

/* The integer value of expression n in scope, if the check can know it. */
static struct lc_val
lc_eval(struct lc *c, TSNode n, int scope, int depth)
{
	struct lc_val u = { 0, 0, 0 }, a;
	const char *type;
	char op[4];

	if (ts_node_is_null(n) || depth > LC_DEPTH)
		return u;
	type = ts_node_type(n);
	if (strcmp(type, "number_literal") == 0)
		return lc_number(c->src + ts_node_start_byte(n),
		    ts_node_end_byte(n) - ts_node_start_byte(n));
	if (strcmp(type, "true") == 0 || strcmp(type, "false") == 0) {
		a.known = 1;
		a.v = type[0] == 't';
		a.wide = 0;
		return a;
	}
	if (strcmp(type, "identifier") == 0)
		return lc_name_value(c, n, scope);
	if (strcmp(type, "parenthesized_expression") == 0 ||
	    ((strcmp(type, "argument_list") == 0 ||
	    strcmp(type, "initializer_list") == 0) && lc_nargs(n) == 1))
		return lc_eval(c, lc_arg(n, 0), scope, depth + 1);
	if (strcmp(type, "cast_expression") == 0)
		return lc_cast(c, lc_field(n, "type"), lc_eval(c,
		    lc_field(n, "value"), scope, depth + 1));
	if (strcmp(type, "sizeof_expression") == 0)
		return lc_sizeof(c, n);
	if (strcmp(type, "field_expression") == 0) {
		/* block.x of a dim3 whose value is known. */
		TSNode arg = lc_field(n, "argument"), f = lc_field(n, "field");
		const struct lc_dim3 *d;
		int k;

		if (!lc_is(arg, "identifier") || lc_text_is(c,
		    lc_field(n, "operator"), "->"))
			return u;
		d = lc_dim3_at(c, arg, scope);
		k = lc_text_is(c, f, "x") ? 0 : lc_text_is(c, f, "y") ? 1 :
		    lc_text_is(c, f, "z") ? 2 : -1;
		return d != NULL && k >= 0 ? lc_dim_read(c, d, k, n) : u;
	}
	if (strcmp(type, "call_expression") == 0)
		return lc_call(c, n, scope, depth);
	if (strcmp(type, "conditional_expression") == 0) {
		a = lc_eval(c, lc_field(n, "condition"), scope, depth + 1);
		if (!a.known)
			return u;
		return lc_eval(c, lc_field(n, a.v ? "consequence" :
		    "alternative"), scope, depth + 1);
	}
	if (strcmp(type, "unary_expression") == 0) {
		lc_text(c, lc_field(n, "operator"), op, sizeof op);
		a = lc_eval(c, lc_field(n, "argument"), scope, depth + 1);
		if (!a.known || (op[0] == '-' && a.v == LLONG_MIN))
			return u;
		if (strcmp(op, "-") == 0) {
			a.v = -a.v;
		} else if (strcmp(op, "~") == 0) {
			a.v = ~a.v;
		} else if (strcmp(op, "!") == 0) {
			a.v = !a.v;
			a.wide = 0;
		} else if (strcmp(op, "+") != 0) {
			return u;
		}
		if (!a.wide && (a.v < INT_MIN || a.v > UINT_MAX))
			return u;
		return a;
	}
	if (strcmp(type, "binary_expression") == 0) {
		lc_text(c, lc_field(n, "operator"), op, sizeof op);
		return lc_binary(op, lc_eval(c, lc_field(n, "left"), scope,
		    depth + 1), lc_eval(c, lc_field(n, "right"), scope,
		    depth + 1));
	}
	return u;
}

/* --- dim3 values ------------------------------------------------------ */

/* A dim3 field: unsigned int, so the value is taken modulo 2^32. */
static void
lc_dim_set(struct lc *c, struct lc_dim *d, TSNode n, int scope)
{
	d->val = lc_eval(c, n, scope, 0);
	d->val = lc_convert("unsigned int", d->val);
	d->line = lc_line(n);
	lc_text(c, n, d->text, sizeof d->text);
}

static void
lc_dim_one(struct lc_dim *d, int line)
{
	d->val.known = 1;
	d->val.v = 1;
	d->val.wide = 0;
	d->line = line;
	snprintf(d->text, sizeof d->text, "1");
}

/* The dims were written by node w, now: where, and in which branch. */
static void
lc_stamp(const struct lc *c, struct lc_dim *d, int n, TSNode w)
{
	const struct lc_frame *f = lc_top(c);
	int live = lc_live(c);

	for (int i = 0; i < n; i++) {
		d[i].wpos = ts_node_start_byte(w);
		d[i].bs = f->bs;
		d[i].be = f->be;
		if (!live)
			d[i].val.known = 0;
	}
}

/* dim3 from an argument or initializer list: missing ones are 1. */
static void
lc_dim3_list(struct lc *c, TSNode list, int scope, struct lc_dim d[3])
{
	uint32_t n = lc_nargs(list);

	for (uint32_t i = 0; i < 3; i++) {
		if (i < n)
			lc_dim_set(c, &d[i], lc_arg(list, i), scope);
		else
			lc_dim_one(&d[i], lc_line(list));
	}
	if (n > 3)
		for (uint32_t i = 0; i < 3; i++)
			d[i].val.known = 0;
}

/* The dim3 value of expression n: a dim3 variable, dim3(...), {...}, or
 * an integer (x). */
static void
lc_eval_dim3(struct lc *c, TSNode n, int scope, struct lc_dim d[3])
{
	memset(d, 0, 3 * sizeof *d);
	while (lc_is(n, "parenthesized_expression"))
		n = lc_arg(n, 0);
	if (lc_is(n, "identifier")) {
		const struct lc_dim3 *v = lc_dim3_at(c, n, scope);

		if (v != NULL) {
			for (int k = 0; k < 3; k++) {
				d[k] = v->d[k];
				d[k].val = lc_dim_read(c, v, k, n);
			}
			return;
		}
	}
	if (lc_is(n, "call_expression") &&
	    lc_text_is(c, lc_field(n, "function"), "dim3") &&
	    !ts_node_is_null(lc_field(n, "arguments"))) {
		lc_dim3_list(c, lc_field(n, "arguments"), scope, d);
		return;
	}
	if (lc_is(n, "initializer_list") || lc_is(n, "argument_list")) {
		lc_dim3_list(c, n, scope, d);
		return;
	}
	lc_dim_set(c, &d[0], n, scope);
	lc_dim_one(&d[1], d[0].line);
	lc_dim_one(&d[2], d[0].line);
}

/* The identifier a declarator declares (through pointers, arrays,
 * references, initialisers); a null node when none. */
static TSNode
lc_decl_name(TSNode n)
{
	for (int i = 0; i < 16 && !ts_node_is_null(n); i++) {
		TSNode d;

		if (lc_is(n, "identifier") || lc_is(n, "field_identifier"))
			return n;
		d = lc_field(n, "declarator");
		n = !ts_node_is_null(d) ? d : ts_node_named_child(n, 0);
	}
	return (TSNode){ 0 };
}

/* The name a kernel is launched or passed by: k, k<T>, ns::k, (void *)k,
 * &k, reinterpret_cast<const void *>(k).  New string or NULL. */
static char *
lc_callee(const struct lc *c, TSNode n)
{
	for (int i = 0; i < 16 && !ts_node_is_null(n); i++) {
		if (lc_is(n, "identifier")) {
			uint32_t s = ts_node_start_byte(n);

			return xstrndup(c->src + s, ts_node_end_byte(n) - s);
		}
		if (lc_is(n, "template_function") ||
		    lc_is(n, "qualified_identifier"))
			n = lc_field(n, "name");
		else if (lc_is(n, "cast_expression"))
			n = lc_field(n, "value");
		else if (lc_is(n, "pointer_expression"))
			n = lc_field(n, "argument");
		else if (lc_is(n, "parenthesized_expression"))
			n = lc_arg(n, 0);
		else if (lc_is(n, "call_expression"))
			n = lc_arg(lc_field(n, "arguments"), 0);
		else
			break;
	}
	return NULL;
}

static struct lc_name *
lc_add_name(struct lc *c, TSNode id, int define, struct lc_val v)
{
	struct lc_name *e;
	uint32_t s;

	if (ts_node_is_null(id))
		return NULL;	/* a broken parse */
	s = ts_node_start_byte(id);
	c->names = xreallocarray(c->names, c->nnames + 1, sizeof *c->names);
	e = &c->names[c->nnames++];
	e->name = xstrndup(c->src + s, ts_node_end_byte(id) - s);
	/* A macro holds from its line to the end of the text. */
	e->scope = define ? 0 : c->scope;
	e->pos = s;
	e->end = define ? UINT32_MAX : lc_scope_end(c);
	e->define = define;
	e->val = v;
	return e;
}

static struct lc_dim3 *
lc_add_dim3(struct lc *c, TSNode id, int line)
{
	struct lc_dim3 *e;
	uint32_t s = ts_node_start_byte(id);

	c->dims = xreallocarray(c->dims, c->ndims + 1, sizeof *c->dims);
	e = &c->dims[c->ndims++];
	e->name = xstrndup(c->src + s, ts_node_end_byte(id) - s);
	e->scope = c->scope;
	e->pos = s;
	e->end = lc_scope_end(c);
	e->escaped = 0;
	for (int i = 0; i < 3; i++)
		lc_dim_one(&e->d[i], line);
	lc_stamp(c, e->d, 3, id);
	return e;
}

/* --- what a function writes ------------------------------------------- */

static void
lc_mark(struct lc *c, TSNode id, int esc, uint32_t pos)
{
	uint32_t s = ts_node_start_byte(id), len = ts_node_end_byte(id) - s;
	size_t i;

	for (i = 0; i < c->nmarks; i++)
		if (strlen(c->marks[i].name) == len &&
		    memcmp(c->marks[i].name, c->src + s, len) == 0)
			break;
	if (i == c->nmarks) {
		if (c->nmarks == LC_MAX_LIST) {
			c->fn_broken = 1;	/* too many to follow */
			return;
		}
		c->marks = xreallocarray(c->marks, c->nmarks + 1,
		    sizeof *c->marks);
		c->marks[i].name = xstrndup(c->src + s, len);
		c->marks[i].escaped = 0;
		c->nmarks++;
	}
	c->marks[i].escaped |= esc;
	if (c->nwrites == 4 * LC_MAX_LIST) {
		c->fn_broken = 1;
		return;
	}
	c->writes = xreallocarray(c->writes, c->nwrites + 1,
	    sizeof *c->writes);
	c->writes[c->nwrites].name = xstrdup(c->marks[i].name);
	c->writes[c->nwrites++].pos = pos;
}

/*
 * The names an lvalue n may write: g in g, g.y, g[i], (g), c ? g : h,
 * (a, g), (g = h), ++g, (int &)g.  Not through a pointer (p->y, *p): the
 * address was taken elsewhere.
 */
static void
lc_lvalues(struct lc *c, TSNode n, int esc, uint32_t pos, int depth)
{
	for (; depth < LC_LDEPTH && !ts_node_is_null(n); depth++) {
		const char *t = ts_node_type(n);

		if (strcmp(t, "identifier") == 0) {
			lc_mark(c, n, esc, pos);
			return;
		}
		if (strcmp(t, "parenthesized_expression") == 0) {
			n = lc_arg(n, 0);
		} else if (strcmp(t, "field_expression") == 0) {
			if (lc_text_is(c, lc_field(n, "operator"), "->"))
				return;
			n = lc_field(n, "argument");
		} else if (strcmp(t, "subscript_expression") == 0 ||
		    strcmp(t, "update_expression") == 0) {
			n = lc_field(n, "argument");
		} else if (strcmp(t, "conditional_expression") == 0) {
			lc_lvalues(c, lc_field(n, "consequence"), esc, pos,
			    depth + 1);
			n = lc_field(n, "alternative");
		} else if (strcmp(t, "comma_expression") == 0) {
			n = lc_field(n, "right");
		} else if (strcmp(t, "assignment_expression") == 0) {
			n = lc_field(n, "left");
		} else if (strcmp(t, "cast_expression") == 0) {
			n = lc_field(n, "value");
		} else {
			return;
		}
	}
}

/*
 * Is lvalue n a name or a name's field (g, g.y, (g).y), which the walk
 * follows?  Any other form ((c ? g : h).y = 1) writes what it names
 * unseen.
 */
static int
lc_plain_lvalue(const struct lc *c, TSNode n)
{
	for (int i = 0; i < LC_LDEPTH && lc_is(n, "parenthesized_expression");
	    i++)
		n = lc_arg(n, 0);
	if (lc_is(n, "field_expression") && !lc_text_is(c, lc_field(n,
	    "operator"), "->")) {
		n = lc_field(n, "argument");
		for (int i = 0; i < LC_LDEPTH &&
		    lc_is(n, "parenthesized_expression"); i++)
			n = lc_arg(n, 0);
	}
	return lc_is(n, "identifier");
}

/* Every identifier under n escapes. */
static void
lc_ids_escape(struct lc *c, TSNode n)
{
	TSTreeCursor cur;

	if (ts_node_is_null(n))
		return;
	cur = ts_tree_cursor_new(n);
	for (;;) {
		TSNode m = ts_tree_cursor_current_node(&cur);

		if (lc_is(m, "identifier"))
			lc_mark(c, m, 1, ts_node_start_byte(m));
		if (ts_tree_cursor_goto_first_child(&cur))
			continue;
		while (!ts_tree_cursor_goto_next_sibling(&cur))
			if (!ts_tree_cursor_goto_parent(&cur) ||
			    ts_node_eq(ts_tree_cursor_current_node(&cur), n))
				goto out;
	}
out:
	ts_tree_cursor_delete(&cur);
}

/* Each argument in list escapes (a constructor that may keep a
 * reference). */
static void
lc_args_escape(struct lc *c, TSNode list, uint32_t pos)
{
	uint32_t n = lc_nargs(list);

	for (uint32_t i = 0; i < n; i++)
		lc_lvalues(c, lc_arg(list, i), 1, pos, 0);
}

/* Functions not in the text that take their arguments by value or by
 * const reference: C's library, CUDA's runtime and intrinsics. */
static int
lc_well_known(const char *name)
{
	static const char *const names[] = { "min", "max", "fmin", "fmax",
	    "printf", "fprintf", "sprintf", "snprintf", "puts", "fputs",
	    "exit", "abort", "assert", "malloc", "calloc", "realloc", "free",
	    "memset", "memcpy", "memmove", "ceil", "ceilf", "floor",
	    "floorf", "sqrt", "sqrtf", "abs", "fabs", "fabsf", "log2",
	    "pow", "powf", "dim3", "static_cast", "reinterpret_cast" };
	static const char *const prefixes[] = { "cuda", "cublas", "cudnn",
	    "curand", "cufft", "cusparse", "cusolver", "make_", "__" };

	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strcmp(name, names[i]) == 0)
			return 1;
	for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
		if (strncmp(name, prefixes[i], strlen(prefixes[i])) == 0)
			return 1;
	return 0;
}

/* Does f take argument i by non-const reference, or not take it? */
static int
lc_fn_ref(const struct lc_fn *f, uint32_t i)
{
	if (f->pack >= 0 && i >= (uint32_t)f->pack)
		return f->pack_ref;
	if (i < f->nparams)
		return i >= 64 || (f->ref >> i & 1) != 0;
	return !f->cvariadic;	/* another overload's */
}

/*
 * May a call through fn write its argument i?  Yes when a function of
 * that name in the text takes it by non-const reference (or cannot take
 * it), when the callee is not a plain name, or not in the text and not a
 * well-known one.
 */
static int
lc_call_may_write(const struct lc *c, TSNode fn, uint32_t i)
{
	char name[64];
	int plain = 1, found = 0;

	for (int k = 0; k < 8; k++) {
		if (lc_is(fn, "qualified_identifier")) {
			if (!lc_text_is(c, lc_field(fn, "scope"), "std"))
				plain = 0;
			fn = lc_field(fn, "name");
		} else if (lc_is(fn, "template_function")) {
			/* f<int &>(x) */
			if (lc_has_char(c, lc_field(fn, "arguments"), '&'))
				return 1;
			fn = lc_field(fn, "name");
		} else if (lc_is(fn, "field_expression")) {
			plain = 0;	/* a method */
			fn = lc_field(fn, "field");
		} else {
			break;
		}
	}
	if (!lc_is(fn, "identifier") && !lc_is(fn, "field_identifier"))
		return 1;
	lc_text(c, fn, name, sizeof name);
	if (c->fns_full)
		return 1;
	for (size_t k = 0; k < c->nfns; k++) {
		if (strcmp(c->fns[k].name, name) != 0)
			continue;
		found = 1;
		if (lc_fn_ref(&c->fns[k], i))
			return 1;
	}
	if (found)
		return 0;
	return !plain || !lc_well_known(name);
}

/* The arguments a call may write escape; a kernel's are by value. */
static void
lc_call_escapes(struct lc *c, TSNode call)
{
	TSNode fn = lc_field(call, "function");
	TSNode args = lc_field(call, "arguments");
	uint32_t n = ts_node_named_child_count(call);

	for (uint32_t k = 0; k < n; k++)
		if (lc_is(ts_node_named_child(call, k), "kernel_call_syntax"))
			return;
	n = lc_nargs(args);
	for (uint32_t i = 0; i < n; i++)
		if (lc_call_may_write(c, fn, i))
			lc_lvalues(c, lc_arg(args, i), 1,
			    ts_node_start_byte(call), 0);
}

/* int &r = x; Foo f(x); Foo f{x}: x escapes. */
static void
lc_decl_escapes(struct lc *c, TSNode decl)
{
	TSNode type = lc_field(decl, "type");
	int plain = lc_is(type, "primitive_type") ||
	    lc_is(type, "sized_type_specifier") || lc_text_is(c, type, "dim3");
	TSTreeCursor cur = ts_tree_cursor_new(decl);

	for (int more = ts_tree_cursor_goto_first_child(&cur); more;
	    more = ts_tree_cursor_goto_next_sibling(&cur)) {
		const char *f = ts_tree_cursor_current_field_name(&cur);
		TSNode d = ts_tree_cursor_current_node(&cur), v, dd;

		if (f == NULL || strcmp(f, "declarator") != 0)
			continue;
		if (!plain && lc_is(d, "function_declarator")) {
			/* Foo f(x) parses as a prototype whose parameter
			 * types are the arguments. */
			TSNode ps = lc_field(d, "parameters");
			uint32_t np = lc_nargs(ps);

			for (uint32_t i = 0; i < np; i++) {
				TSNode p = lc_arg(ps, i);
				TSNode t = lc_field(p, "type");

				if (lc_is(t, "type_identifier") &&
				    ts_node_is_null(lc_field(p, "declarator")))
					lc_mark(c, t, 1, ts_node_start_byte(d));
			}
			continue;
		}
		if (!lc_is(d, "init_declarator"))
			continue;
		v = lc_field(d, "value");
		dd = lc_field(d, "declarator");
		if (lc_is(dd, "reference_declarator") ||
		    lc_is(dd, "structured_binding_declarator"))
			lc_ids_escape(c, v);
		else if (!plain && (lc_is(v, "argument_list") ||
		    lc_is(v, "initializer_list")))
			lc_args_escape(c, v, ts_node_start_byte(d));
	}
	ts_tree_cursor_delete(&cur);
}

/*
 * What the function body writes: names assigned or incremented (their
 * first values are not theirs for good), and names that escape (address
 * taken, bound to a reference, passed to a call that may write them,
 * captured by reference, read by ">>"), which no write in the body
 * shows.  Also whether it has a goto.
 */
static void
lc_scan_written(struct lc *c, TSNode body)
{
	TSTreeCursor cur;

	if (ts_node_is_null(body))
		return;
	cur = ts_tree_cursor_new(body);
	for (;;) {
		TSNode n = ts_tree_cursor_current_node(&cur);
		const char *t = ts_node_type(n);
		uint32_t pos = ts_node_start_byte(n);
		char op[4];

		if (strcmp(t, "assignment_expression") == 0) {
			TSNode l = lc_field(n, "left");

			lc_lvalues(c, l, !lc_plain_lvalue(c, l), pos, 0);
		} else if (strcmp(t, "update_expression") == 0) {
			TSNode a = lc_field(n, "argument");

			lc_lvalues(c, a, !lc_plain_lvalue(c, a), pos, 0);
		} else if (strcmp(t, "pointer_expression") == 0) {
			lc_text(c, lc_field(n, "operator"), op, sizeof op);
			if (strcmp(op, "&") == 0)
				lc_lvalues(c, lc_field(n, "argument"), 1, pos,
				    0);
		} else if (strcmp(t, "binary_expression") == 0) {
			lc_text(c, lc_field(n, "operator"), op, sizeof op);
			if (strcmp(op, ">>") == 0)	/* std::cin >> n */
				lc_lvalues(c, lc_field(n, "right"), 1, pos, 0);
		} else if (strcmp(t, "call_expression") == 0) {
			lc_call_escapes(c, n);
		} else if (strcmp(t, "new_expression") == 0) {
			lc_args_escape(c, lc_field(n, "arguments"), pos);
		} else if (strcmp(t, "declaration") == 0) {
			lc_decl_escapes(c, n);
		} else if (strcmp(t, "lambda_expression") == 0) {
			if (lc_has_char(c, lc_field(n, "captures"), '&'))
				lc_ids_escape(c, n);
		} else if (strcmp(t, "goto_statement") == 0) {
			c->has_goto = 1;
		}
		if (!syntax_walk_next(&cur, 1))
			break;
	}
	ts_tree_cursor_delete(&cur);
}

/* --- the pass before the walk: functions and macros ------------------- */

/* Is parameter p a non-const reference (int &t, T &&t, dim3 &)? */
static int
lc_param_ref(const struct lc *c, TSNode p)
{
	uint32_t n = ts_node_child_count(p);

	if (!lc_has_char(c, p, '&'))
		return 0;
	for (uint32_t i = 0; i < n; i++)
		if (lc_text_is(c, ts_node_child(p, i), "const"))
			return 0;
	return 1;
}

/* A function declarator: its name and which parameters are references. */
static void
lc_fn_add(struct lc *c, TSNode fd)
{
	TSNode name = lc_field(fd, "declarator");
	TSNode params = lc_field(fd, "parameters");
	uint32_t np = lc_nargs(params), k = 0, s;
	struct lc_fn *f;

	for (int i = 0; i < 8 && (lc_is(name, "qualified_identifier") ||
	    lc_is(name, "template_function")); i++)
		name = lc_field(name, "name");
	if (!lc_is(name, "identifier") && !lc_is(name, "field_identifier"))
		return;
	if (c->nfns == LC_MAX_LIST) {
		c->fns_full = 1;
		return;
	}
	c->fns = xreallocarray(c->fns, c->nfns + 1, sizeof *c->fns);
	f = &c->fns[c->nfns++];
	s = ts_node_start_byte(name);
	f->name = xstrndup(c->src + s, ts_node_end_byte(name) - s);
	f->ref = 0;
	f->pack = -1;
	f->pack_ref = 0;
	f->cvariadic = 0;
	for (uint32_t i = 0; i < np; i++) {
		TSNode p = lc_arg(params, i);

		if (lc_is(p, "variadic_parameter")) {
			f->cvariadic = 1;
			continue;
		}
		if (lc_is(p, "variadic_parameter_declaration")) {
			if (f->pack < 0) {
				f->pack = (int)k;
				f->pack_ref = lc_param_ref(c, p);
			}
			continue;
		}
		if (k < 64 && (lc_param_ref(c, p) ||
		    (!lc_is(p, "parameter_declaration") &&
		    !lc_is(p, "optional_parameter_declaration"))))
			f->ref |= 1ULL << k;
		k++;
	}
	f->nparams = k;
}

static int
lc_idch(char ch, int first)
{
	return ch == '_' || (ch >= 'a' && ch <= 'z') || (ch >= 'A' &&
	    ch <= 'Z') || (!first && ch >= '0' && ch <= '9');
}

/* The names in a macro's body: a macro used as a statement may write
 * them. */
static void
lc_macro_ids(struct lc *c, TSNode val)
{
	const char *src = c->src;
	uint32_t s, e;

	if (ts_node_is_null(val))
		return;
	s = ts_node_start_byte(val);
	e = ts_node_end_byte(val);
	while (s < e) {
		uint32_t b = s;
		size_t i;

		if (!lc_idch(src[s], 1)) {
			/* A number with its letters (0x1f, 10u) is no name. */
			if (src[s] >= '0' && src[s] <= '9')
				while (s < e && lc_idch(src[s], 0))
					s++;
			else
				s++;
			continue;
		}
		while (s < e && lc_idch(src[s], 0))
			s++;
		for (i = 0; i < c->nmacro_ids; i++)
			if (strlen(c->macro_ids[i]) == s - b &&
			    memcmp(c->macro_ids[i], src + b, s - b) == 0)
				break;
		if (i < c->nmacro_ids)
			continue;
		if (c->nmacro_ids == LC_MAX_LIST) {
			c->macros_full = 1;
			return;
		}
		c->macro_ids = xreallocarray(c->macro_ids, c->nmacro_ids + 1,
		    sizeof *c->macro_ids);
		c->macro_ids[c->nmacro_ids++] = xstrndup(src + b, s - b);
	}
}

/* Every function declarator (calls may come before the definition) and
 * every macro body in the text. */
static void
lc_prepass(struct lc *c, TSNode root)
{
	TSTreeCursor cur = ts_tree_cursor_new(root);

	for (;;) {
		TSNode n = ts_tree_cursor_current_node(&cur);

		if (lc_is(n, "function_declarator"))
			lc_fn_add(c, n);
		else if (lc_is(n, "preproc_def") ||
		    lc_is(n, "preproc_function_def"))
			lc_macro_ids(c, lc_field(n, "value"));
		if (!syntax_walk_next(&cur, 1))
			break;
	}
	ts_tree_cursor_delete(&cur);
}

/* --- issues ----------------------------------------------------------- */

static void lc_issue(struct lc *, enum cuda_launch_kind, int, int, long long,
    long long, const char *, ...) __attribute__((format(printf, 7, 8)));

static void
lc_issue(struct lc *c, enum cuda_launch_kind kind, int line, int launch_line,
    long long value, long long limit, const char *fmt, ...)
{
	struct cuda_launch_issue *is;
	va_list ap;

	for (size_t i = 0; i < c->nissues; i++)
		if (c->issues[i].kind == kind && c->issues[i].line == line &&
		    c->issues[i].value == value)
			return;
	if (c->nissues == LC_MAX_ISSUES)
		return;
	c->issues = xreallocarray(c->issues, c->nissues + 1,
	    sizeof *c->issues);
	is = &c->issues[c->nissues++];
	is->kind = kind;
	is->line = line;
	is->launch_line = launch_line;
	is->value = value;
	is->limit = limit;
	va_start(ap, fmt);
	vsnprintf(is->msg, sizeof is->msg, fmt, ap);
	va_end(ap);
}

/* "spatial_size = 262144", or "262144" when the text is the number. */
static void
lc_dim_desc(const struct lc_dim *d, char *buf, size_t n)
{
	char num[24];

	snprintf(num, sizeof num, "%lld", d->val.v);
	if (strcmp(num, d->text) == 0 || d->text[0] == '\0')
		snprintf(buf, n, "%s", num);
	else
		snprintf(buf, n, "%s = %s", d->text, num);
}

/* --- the walk --------------------------------------------------------- */

static void
lc_launch(struct lc *c, TSNode n)
{
	static const char xyz[] = "xyz";
	TSNode call = ts_node_parent(n);
	struct lc_dim g[3], b[3];
	char *kid, desc[LC_TEXT + 32];
	const char *kname;
	int line = lc_line(n), over = 0;
	const struct cuda_launch_limits *lim = c->lim;

	/* Under #if 0 or #ifdef X, or where the parse broke: perhaps never
	 * compiled, or not what it seems. */
	if (lc_nargs(n) < 2 || !lc_live(c))
		return;
	kid = lc_callee(c, lc_field(call, "function"));
	kname = kid != NULL ? kid : "a kernel";
	lc_eval_dim3(c, lc_arg(n, 0), c->scope, g);
	lc_eval_dim3(c, lc_arg(n, 1), c->scope, b);
	for (int i = 0; i < 3; i++) {
		long long max = i == 0 ? lim->grid_x : lim->grid_yz;

		if (!g[i].val.known || g[i].val.v <= max)
			continue;
		lc_dim_desc(&g[i], desc, sizeof desc);
		lc_issue(c, CUDA_LAUNCH_GRID, g[i].line, line, g[i].val.v, max,
		    "gridDim.%c = %s is over the limit of %lld in the launch"
		    " of %s at line %d", xyz[i], desc, max, kname, line);
	}
	for (int i = 0; i < 3; i++) {
		long long max = i == 2 ? lim->block_z : lim->block_xy;

		if (!b[i].val.known || b[i].val.v <= max)
			continue;
		over = 1;
		lc_dim_desc(&b[i], desc, sizeof desc);
		lc_issue(c, CUDA_LAUNCH_BLOCK, b[i].line, line, b[i].val.v, max,
		    "blockDim.%c = %s is over the limit of %lld in the launch"
		    " of %s at line %d", xyz[i], desc, max, kname, line);
	}
	if (!over && b[0].val.known && b[1].val.known && b[2].val.known) {
		long long t;
		int at = b[0].line;

		if (b[1].line > at)
			at = b[1].line;
		if (b[2].line > at)
			at = b[2].line;
		if (!__builtin_mul_overflow(b[0].val.v, b[1].val.v, &t) &&
		    !__builtin_mul_overflow(t, b[2].val.v, &t) &&
		    t > lim->threads)
			lc_issue(c, CUDA_LAUNCH_THREADS, at, line, t,
			    lim->threads, "blockDim %lld x %lld x %lld = %lld"
			    " threads per block is over the limit of %lld in"
			    " the launch of %s at line %d", b[0].val.v,
			    b[1].val.v, b[2].val.v, t, lim->threads, kname,
			    line);
	}
	if (lc_nargs(n) >= 3) {
		struct lc_launch *l;
		TSNode e = lc_arg(n, 2);

		c->launches = xreallocarray(c->launches, c->nlaunches + 1,
		    sizeof *c->launches);
		l = &c->launches[c->nlaunches++];
		l->kernel = kid;
		l->bytes = lc_eval(c, e, c->scope, 0);
		l->line = lc_line(e);
		l->launch_line = line;
		lc_text(c, e, l->text, sizeof l->text);
		return;
	}
	free(kid);
}

/*
 * An opt-in to more dynamic shared memory.  One that does not plainly
 * name its kernel and the attribute (a function pointer, a variable, the
 * driver's cuFuncSetAttribute) may be any kernel's, of any size.
 */
static void
lc_optin(struct lc *c, TSNode call)
{
	TSNode fn = lc_field(call, "function"), args = lc_field(call,
	    "arguments");
	struct lc_optin *o;
	char what[96], *k = NULL;
	struct lc_val bytes = { 0, 0, 0 };

	if (lc_is(fn, "qualified_identifier") && ts_node_is_null(lc_field(fn,
	    "scope")))
		fn = lc_field(fn, "name");	/* ::cudaFuncSetAttribute */
	if (lc_text_is(c, fn, "cudaFuncSetAttribute")) {
		if (lc_nargs(args) < 3)
			return;
		lc_text(c, lc_arg(args, 1), what, sizeof what);
		if (strstr(what, "MaxDynamicSharedMemorySize") != NULL) {
			k = lc_callee(c, lc_arg(args, 0));
			bytes = lc_eval(c, lc_arg(args, 2), c->scope, 0);
		} else if (strstr(what, "cudaFuncAttribute") != NULL) {
			return;		/* another attribute */
		}
	} else if (!lc_text_is(c, fn, "cuFuncSetAttribute") &&
	    !lc_text_is(c, fn, "cudaKernelSetAttribute") &&
	    !lc_text_is(c, fn, "cuKernelSetAttribute")) {
		return;
	}
	if (!lc_live(c))
		bytes.known = 0;
	c->optins = xreallocarray(c->optins, c->noptins + 1,
	    sizeof *c->optins);
	o = &c->optins[c->noptins++];
	o->kernel = k;
	o->bytes = bytes;
}

/* A __shared__ declarator of the kernel being walked: add its bytes. */
static void
lc_shared(struct lc *c, TSNode type, TSNode decl)
{
	char tname[64];
	long long bytes, n;
	struct lc_val v;

	lc_text(c, type, tname, sizeof tname);
	bytes = lc_type_size(tname);
	if (bytes == 0)
		return;
	while (lc_is(decl, "array_declarator")) {
		v = lc_eval(c, lc_field(decl, "size"), c->scope, 0);
		if (!v.known || v.v < 0 ||
		    __builtin_mul_overflow(bytes, v.v, &n))
			return;		/* unsized (extern) or unknown */
		bytes = n;
		decl = lc_field(decl, "declarator");
	}
	if (!lc_is(decl, "identifier") ||
	    __builtin_add_overflow(c->ksmem, bytes, &n))
		return;
	c->ksmem = n;
	if (c->kline == 0 && c->ksmem > c->lim->smem_static)
		c->kline = lc_line(decl);
}

/*
 * dim3 NAME ...: (1,1,1), (x, y, z), {x, y}, = dim3(...), = other.  Never
 * known when it may change unseen: a global (any function may write it),
 * a reference, one whose address escapes, one declared where the
 * preprocessor may skip it.
 */
static void
lc_dim3_decl(struct lc *c, TSNode decl, int is_const)
{
	TSNode id = lc_decl_name(decl), v;
	struct lc_dim3 *d;
	struct lc_dim tmp[3];
	int esc = 0, aliased;

	if (ts_node_is_null(id))
		return;
	if (!lc_is(decl, "identifier") && !lc_is(decl, "init_declarator") &&
	    !lc_is(decl, "function_declarator")) {
		/* dim3 *p, dim3 a[2]: no dim3 value, but the name is taken. */
		lc_add_name(c, id, 0, (struct lc_val){ 0, 0, 0 });
		return;
	}
	if (lc_is(decl, "init_declarator") &&
	    !lc_is(lc_field(decl, "declarator"), "identifier"))
		esc = 1;	/* dim3 &r = g */
	if ((c->scope == 0 && !is_const) || c->fn_broken ||
	    (lc_marked_node(c, id, &aliased) && aliased))
		esc = 1;
	memset(tmp, 0, sizeof tmp);
	if (lc_is(decl, "function_declarator")) {
		/* "dim3 g(a, b)" with names only parses as a declaration of a
		 * function g(a, b): the parameters' types are the names. */
		TSNode params = lc_field(decl, "parameters");
		uint32_t np = lc_nargs(params);

		if (np > 3)
			return;
		for (uint32_t i = 0; i < 3; i++) {
			TSNode p = lc_arg(params, i), t = lc_field(p, "type");

			if (i >= np) {
				lc_dim_one(&tmp[i], lc_line(decl));
				continue;
			}
			if (!lc_is(p, "parameter_declaration") ||
			    !ts_node_is_null(lc_field(p, "declarator")) ||
			    !lc_is(t, "type_identifier")) {
				/* A real prototype: no dim3. */
				return;
			}
			/* The type_identifier is the name of a value. */
			{
				uint32_t s = ts_node_start_byte(t);
				const struct lc_name *e = lc_lookup(c,
				    c->src + s, ts_node_end_byte(t) - s,
				    c->scope, s);

				tmp[i].val = lc_convert("unsigned int",
				    e != NULL ? e->val : (struct lc_val){ 0 });
				tmp[i].line = lc_line(t);
				lc_text(c, t, tmp[i].text, sizeof tmp[i].text);
			}
		}
		if (np == 1) {
			TSNode t = lc_field(lc_arg(params, 0), "type");
			uint32_t s = ts_node_start_byte(t);
			const struct lc_dim3 *o = lc_lookup_dim3(c, c->src + s,
			    ts_node_end_byte(t) - s, c->scope, s);

			if (o != NULL)
				for (int k = 0; k < 3; k++) {
					tmp[k] = o->d[k];
					tmp[k].val = lc_dim_read(c, o, k, t);
				}
		}
	} else {
		v = lc_field(decl, "value");
		if (ts_node_is_null(v)) {
			for (int k = 0; k < 3; k++)
				lc_dim_one(&tmp[k], lc_line(decl));
		} else {
			lc_eval_dim3(c, v, c->scope, tmp);
		}
	}
	d = lc_add_dim3(c, id, lc_line(decl));
	memcpy(d->d, tmp, sizeof tmp);
	lc_stamp(c, d->d, 3, decl);
	d->escaped = esc;
	if (esc)
		for (int k = 0; k < 3; k++)
			d->d[k].val.known = 0;
}

/* A declaration: a constant, a variable, a dim3 or __shared__ memory. */
static void
lc_declaration(struct lc *c, TSNode n)
{
	TSNode type = lc_field(n, "type");
	uint32_t cnt = ts_node_child_count(n), i;
	int is_const = 0, vol = 0, shared = 0, ext = 0, dim3;
	int live = lc_live(c);
	TSTreeCursor cur;

	for (i = 0; i < cnt; i++) {
		TSNode ch = ts_node_child(n, i);

		if (!lc_is(ch, "type_qualifier") &&
		    !lc_is(ch, "storage_class_specifier"))
			continue;
		is_const |= lc_text_is(c, ch, "const") ||
		    lc_text_is(c, ch, "constexpr");
		vol |= lc_text_is(c, ch, "volatile");
		shared |= lc_text_is(c, ch, "__shared__");
		ext |= lc_text_is(c, ch, "extern");
	}
	dim3 = lc_text_is(c, type, "dim3");
	/* The cursor, not ts_node_field_name_for_child(), which names the
	 * wrong children in the 0.20.7 runtime. */
	cur = ts_tree_cursor_new(n);
	for (int more = ts_tree_cursor_goto_first_child(&cur); more;
	    more = ts_tree_cursor_goto_next_sibling(&cur)) {
		const char *f = ts_tree_cursor_current_field_name(&cur);
		TSNode d = ts_tree_cursor_current_node(&cur), id, v;
		struct lc_val val = { 0, 0, 0 };
		int esc;

		if (f == NULL || strcmp(f, "declarator") != 0)
			continue;
		if (shared) {
			if (c->kernel && !ext && live)
				lc_shared(c, type, d);
			continue;
		}
		if (dim3) {
			lc_dim3_decl(c, d, is_const);
			continue;
		}
		id = lc_decl_name(d);
		if (ts_node_is_null(id))
			continue;
		v = lc_field(d, "value");
		/* A constant, or a local no statement writes again, as its
		 * type holds it (auto: as the value's). */
		if (live && !vol && lc_is(d, "init_declarator") &&
		    lc_is(lc_field(d, "declarator"), "identifier") &&
		    (is_const || (c->scope != 0 && !c->fn_broken &&
		    !lc_marked_node(c, id, &esc)))) {
			val = lc_eval(c, v, c->scope, 0);
			if (!lc_is(type, "placeholder_type_specifier"))
				val = lc_cast(c, type, val);
		}
		lc_add_name(c, id, 0, val);
	}
	ts_tree_cursor_delete(&cur);
}

/* The dim3 an lvalue (g, g.y) names, and which field (-1: all); NULL when
 * it is none, or one that is never known anyway. */
static struct lc_dim3 *
lc_dim3_lvalue(struct lc *c, TSNode left, int *k)
{
	const struct lc_dim3 *cd;
	TSNode id = left;

	*k = -1;
	for (int i = 0; i < LC_LDEPTH && lc_is(id, "parenthesized_expression");
	    i++)
		id = lc_arg(id, 0);
	if (lc_is(id, "field_expression")) {
		TSNode f = lc_field(id, "field");

		if (lc_text_is(c, lc_field(id, "operator"), "->"))
			return NULL;
		*k = lc_text_is(c, f, "x") ? 0 : lc_text_is(c, f, "y") ? 1 :
		    lc_text_is(c, f, "z") ? 2 : -1;
		if (*k < 0)
			return NULL;
		id = lc_field(id, "argument");
		for (int i = 0; i < LC_LDEPTH &&
		    lc_is(id, "parenthesized_expression"); i++)
			id = lc_arg(id, 0);
	}
	if (!lc_is(id, "identifier"))
		return NULL;
	cd = lc_dim3_at(c, id, c->scope);
	if (cd == NULL || cd->escaped)
		return NULL;
	return &c->dims[cd - c->dims];
}

/* A dim3 written: "g.y = e;", "g = dim3(...);", "g.y /= 2;". */
static void
lc_assignment(struct lc *c, TSNode n)
{
	char op[4];
	struct lc_dim3 *d;
	int k;

	d = lc_dim3_lvalue(c, lc_field(n, "left"), &k);
	if (d == NULL)
		return;
	lc_text(c, lc_field(n, "operator"), op, sizeof op);
	if (k >= 0 && strcmp(op, "=") == 0) {
		lc_dim_set(c, &d->d[k], lc_field(n, "right"), c->scope);
		lc_stamp(c, &d->d[k], 1, n);
	} else if (k >= 0) {
		d->d[k].val.known = 0;
		d->d[k].line = lc_line(n);
	} else if (strcmp(op, "=") == 0) {
		struct lc_dim tmp[3];

		lc_eval_dim3(c, lc_field(n, "right"), c->scope, tmp);
		memcpy(d->d, tmp, sizeof tmp);
		lc_stamp(c, d->d, 3, n);
	} else {
		for (k = 0; k < 3; k++)
			d->d[k].val.known = 0;
	}
}

/* g.y++, --g.x: that field is no longer known. */
static void
lc_update(struct lc *c, TSNode n)
{
	struct lc_dim3 *d;
	int k;

	d = lc_dim3_lvalue(c, lc_field(n, "argument"), &k);
	if (d == NULL)
		return;
	for (int i = 0; i < 3; i++)
		if (k < 0 || k == i)
			d->d[i].val.known = 0;
}

/* Forget every #define of the name at node id (a second #define, one
 * the preprocessor may skip, an #undef); add an unknown one when add. */
static void
lc_define_unknown(struct lc *c, const char *s, size_t len, TSNode id,
    int add)
{
	int found = 0;

	for (size_t i = 0; i < c->nnames; i++)
		if (c->names[i].define && strlen(c->names[i].name) == len &&
		    memcmp(c->names[i].name, s, len) == 0) {
			c->names[i].val.known = 0;
			found = 1;
		}
	if (add && !found)
		lc_add_name(c, id, 1, (struct lc_val){ 0, 0, 0 });
}

static void
lc_define(struct lc *c, TSNode n)
{
	TSNode name = lc_field(n, "name"), val = lc_field(n, "value");
	char text[64];
	size_t len;
	char *p = text;
	uint32_t s, e;
	struct lc_val v = { 0, 0, 0 };

	/* Under #if 0 it is not there at all. */
	if (ts_node_is_null(name) || lc_top(c)->pp == LC_DEAD)
		return;
	s = ts_node_start_byte(name);
	e = ts_node_end_byte(name);
	for (size_t i = 0; i < c->nnames; i++)
		if (c->names[i].define && strlen(c->names[i].name) == e - s &&
		    memcmp(c->names[i].name, c->src + s, e - s) == 0) {
			/* Defined twice (#if, #undef): not one value. */
			lc_define_unknown(c, c->src + s, e - s, name, 0);
			return;
		}
	if (!ts_node_is_null(val) && lc_live(c)) {
		lc_text(c, val, text, sizeof text);
		len = strlen(text);
		while (len >= 2 && p[0] == '(' && p[len - 1] == ')') {
			p++;
			len -= 2;
		}
		v = lc_number(p, len);
	}
	lc_add_name(c, name, 1, v);
}

/* #undef NAME: its value is gone. */
static void
lc_undef(struct lc *c, TSNode n)
{
	TSNode arg = lc_field(n, "argument");
	char name[64];

	if (!lc_text_is(c, lc_field(n, "directive"), "#undef") ||
	    ts_node_is_null(arg) || lc_top(c)->pp == LC_DEAD)
		return;
	lc_text(c, arg, name, sizeof name);
	lc_define_unknown(c, name, strlen(name), arg, 0);
}

static void
lc_enumerators(struct lc *c, TSNode list)
{
	struct lc_val next = { 1, 0, 0 };
	uint32_t n = ts_node_named_child_count(list);
	int live = lc_live(c);

	for (uint32_t i = 0; i < n; i++) {
		TSNode e = ts_node_named_child(list, i), v;

		if (!lc_is(e, "enumerator"))
			continue;
		v = lc_field(e, "value");
		if (!ts_node_is_null(v))
			next = lc_eval(c, v, c->scope, 0);
		if (!live)
			next.known = 0;
		lc_add_name(c, lc_field(e, "name"), 0, next);
		if (next.known && next.v < LLONG_MAX)
			next.v++;
		else
			next.known = 0;
	}
}

/* Parameters hide outer names and have no value; a dim3 one no dims. */
static void
lc_params(struct lc *c, TSNode params)
{
	uint32_t np = lc_nargs(params);

	for (uint32_t i = 0; i < np; i++) {
		TSNode p = lc_arg(params, i);
		TSNode id = lc_decl_name(lc_field(p, "declarator"));

		if (ts_node_is_null(id))
			continue;
		if (lc_text_is(c, lc_field(p, "type"), "dim3")) {
			struct lc_dim3 *g = lc_add_dim3(c, id, lc_line(p));

			g->escaped = 1;
			for (int k = 0; k < 3; k++)
				g->d[k].val.known = 0;
		} else {
			lc_add_name(c, id, 0, (struct lc_val){ 0, 0, 0 });
		}
	}
}

/*
 * A class body: its members hide outer names in the whole body (methods
 * see members declared after them), with no value.
 */
static void
lc_members(struct lc *c, TSNode list)
{
	uint32_t n = ts_node_named_child_count(list);

	for (uint32_t i = 0; i < n; i++) {
		TSNode fd = ts_node_named_child(list, i);
		TSTreeCursor cur;

		if (!lc_is(fd, "field_declaration"))
			continue;
		cur = ts_tree_cursor_new(fd);
		for (int more = ts_tree_cursor_goto_first_child(&cur); more;
		    more = ts_tree_cursor_goto_next_sibling(&cur)) {
			const char *f = ts_tree_cursor_current_field_name(&cur);
			struct lc_name *e;

			if (f == NULL || strcmp(f, "declarator") != 0)
				continue;
			e = lc_add_name(c, lc_decl_name(
			    ts_tree_cursor_current_node(&cur)), 0,
			    (struct lc_val){ 0, 0, 0 });
			if (e != NULL)
				e->pos = ts_node_start_byte(list);
		}
		ts_tree_cursor_delete(&cur);
	}
}

/* The parameters of a function definition n. */
static TSNode
lc_fn_params(TSNode n)
{
	TSNode d = lc_field(n, "declarator");

	for (int i = 0; i < 16 && !ts_node_is_null(d) &&
	    !lc_is(d, "function_declarator"); i++)
		d = lc_field(d, "declarator");
	return lc_field(d, "parameters");
}

/* Entering a function: its parameters hide outer names. */
static void
lc_function(struct lc *c, TSNode n)
{
	TSNode d = lc_field(n, "declarator");
	uint32_t cnt = ts_node_child_count(n);

	c->fn = n;
	c->scope = ++c->nfn;
	c->kernel = 0;
	c->ksmem = 0;
	c->kline = 0;
	c->has_goto = 0;
	/* A parse error may hide a write. */
	c->fn_broken = ts_node_has_error(n);
	for (uint32_t i = 0; i < cnt; i++)
		c->kernel |= lc_is(ts_node_child(n, i), "__global__");
	for (int i = 0; i < 16 && !ts_node_is_null(d) &&
	    !lc_is(d, "function_declarator"); i++)
		d = lc_field(d, "declarator");
	if (ts_node_is_null(d))
		return;
	free(c->kname);
	c->kname = lc_callee(c, lc_field(d, "declarator"));
	lc_params(c, lc_field(d, "parameters"));
	/* template <int BLOCK>: names without a value here. */
	if (lc_is(ts_node_parent(n), "template_declaration"))
		lc_params(c, lc_field(ts_node_parent(n), "parameters"));
	lc_scan_written(c, lc_field(n, "body"));
}

/* Leaving a function: a kernel's static shared memory is complete. */
static void
lc_function_end(struct lc *c)
{
	if (c->kernel && c->kname != NULL) {
		struct lc_kernel *k;

		if (c->ksmem > c->lim->smem_static)
			lc_issue(c, CUDA_LAUNCH_STATIC_SMEM, c->kline, 0,
			    c->ksmem, c->lim->smem_static, "kernel %s declares"
			    " %lld bytes of static __shared__ memory, over the"
			    " limit of %lld; more needs dynamic (extern"
			    " __shared__) memory and the opt-in", c->kname,
			    c->ksmem, c->lim->smem_static);
		c->kernels = xreallocarray(c->kernels, c->nkernels + 1,
		    sizeof *c->kernels);
		k = &c->kernels[c->nkernels++];
		k->name = c->kname;
		k->smem = c->ksmem;
		c->kname = NULL;
	}
	for (size_t i = 0; i < c->nmarks; i++)
		free(c->marks[i].name);
	free(c->marks);
	c->marks = NULL;
	c->nmarks = 0;
	for (size_t i = 0; i < c->nwrites; i++)
		free(c->writes[i].name);
	free(c->writes);
	c->writes = NULL;
	c->nwrites = 0;
	c->has_goto = 0;
	c->fn_broken = 0;
	c->scope = 0;
	c->kernel = 0;
}

static void
lc_enter(struct lc *c, TSNode n)
{
	const char *type = ts_node_type(n);

	if (strcmp(type, "function_definition") == 0 && c->scope == 0)
		lc_function(c, n);
	else if (strcmp(type, "function_definition") == 0)
		lc_params(c, lc_fn_params(n));	/* a local class's method */
	else if (strcmp(type, "lambda_expression") == 0)
		lc_params(c, lc_field(lc_field(n, "declarator"),
		    "parameters"));
	else if (strcmp(type, "catch_clause") == 0)
		lc_params(c, lc_field(n, "parameters"));
	else if (strcmp(type, "field_declaration_list") == 0)
		lc_members(c, n);
	else if (strcmp(type, "for_range_loop") == 0)
		lc_add_name(c, lc_decl_name(lc_field(n, "declarator")), 0,
		    (struct lc_val){ 0, 0, 0 });
	else if (strcmp(type, "declaration") == 0)
		lc_declaration(c, n);
	else if (strcmp(type, "assignment_expression") == 0)
		lc_assignment(c, n);
	else if (strcmp(type, "update_expression") == 0)
		lc_update(c, n);
	else if (strcmp(type, "kernel_call_syntax") == 0)
		lc_launch(c, n);
	else if (strcmp(type, "call_expression") == 0)
		lc_optin(c, n);
	else if (strcmp(type, "preproc_def") == 0)
		lc_define(c, n);
	else if (strcmp(type, "preproc_call") == 0)
		lc_undef(c, n);
	else if (strcmp(type, "enumerator_list") == 0)
		lc_enumerators(c, n);
}

static int
lc_is_kernel(const struct lc *c, const char *name)
{
	for (size_t k = 0; k < c->nkernels; k++)
		if (strcmp(c->kernels[k].name, name) == 0)
			return 1;
	return 0;
}

/*
 * Dynamic shared memory, once every kernel's static part is known.  The
 * opt-in is needed only by a kernel of the text that no opt-in may name;
 * an opt-in's size binds only when it plainly names the kernel and no
 * other opt-in may.
 */
static void
lc_dynamic(struct lc *c)
{
	const struct cuda_launch_limits *lim = c->lim;

	for (size_t i = 0; i < c->nlaunches; i++) {
		const struct lc_launch *l = &c->launches[i];
		long long st = 0, total;
		int optin = 0, optin_known = 0, optin_any = 0, mine;
		long long optin_bytes = 0;
		char part[64] = "", num[24], what[LC_TEXT + 40];
		const char *kname = l->kernel != NULL ? l->kernel : "a kernel";

		if (!l->bytes.known || l->bytes.v < 0)
			continue;
		mine = l->kernel != NULL && lc_is_kernel(c, l->kernel);
		for (size_t k = 0; mine && k < c->nkernels; k++)
			if (strcmp(c->kernels[k].name, l->kernel) == 0 &&
			    c->kernels[k].smem > st)
				st = c->kernels[k].smem;
		for (size_t k = 0; k < c->noptins; k++) {
			const struct lc_optin *o = &c->optins[k];

			if (o->kernel == NULL || !lc_is_kernel(c, o->kernel)) {
				optin = optin_any = 1;	/* any kernel's */
				continue;
			}
			if (l->kernel == NULL ||
			    strcmp(o->kernel, l->kernel) != 0)
				continue;
			optin = 1;
			if (!o->bytes.known) {
				optin_any = 1;
			} else if (!optin_known || o->bytes.v > optin_bytes) {
				optin_bytes = o->bytes.v;
				optin_known = 1;
			}
		}
		if (__builtin_add_overflow(l->bytes.v, st, &total))
			continue;
		if (st > 0)
			snprintf(part, sizeof part, " (+ %lld static)", st);
		snprintf(num, sizeof num, "%lld", l->bytes.v);
		if (strcmp(num, l->text) == 0)
			snprintf(what, sizeof what, "%s bytes", num);
		else
			snprintf(what, sizeof what, "%s = %s bytes", l->text,
			    num);
		if (lim->smem_optin > 0 && total > lim->smem_optin)
			lc_issue(c, CUDA_LAUNCH_DYN_SMEM, l->line,
			    l->launch_line, total, lim->smem_optin, "dynamic"
			    " shared memory %s%s in the launch of %s at line %d"
			    " is over the target's limit of %lld bytes per"
			    " block", what, part, kname, l->launch_line,
			    lim->smem_optin);
		else if (mine && !optin && total > lim->smem_static)
			lc_issue(c, CUDA_LAUNCH_DYN_SMEM, l->line,
			    l->launch_line, total, lim->smem_static, "dynamic"
			    " shared memory %s%s in the launch of %s at line %d"
			    " is over %lld bytes without cudaFuncSetAttribute(%s,"
			    " cudaFuncAttributeMaxDynamicSharedMemorySize, ...)",
			    what, part, kname, l->launch_line,
			    lim->smem_static, kname);
		else if (mine && optin_known && !optin_any &&
		    l->bytes.v > optin_bytes)
			lc_issue(c, CUDA_LAUNCH_DYN_SMEM, l->line,
			    l->launch_line, l->bytes.v, optin_bytes, "dynamic"
			    " shared memory %s in the launch of %s at line %d is"
			    " over the %lld bytes its cudaFuncSetAttribute opts"
			    " in to", what, kname, l->launch_line,
			    optin_bytes);
	}
}

static void
lc_release(struct lc *c)
{
	for (size_t i = 0; i < c->nnames; i++)
		free(c->names[i].name);
	for (size_t i = 0; i < c->ndims; i++)
		free(c->dims[i].name);
	for (size_t i = 0; i < c->nkernels; i++)
		free(c->kernels[i].name);
	for (size_t i = 0; i < c->noptins; i++)
		free(c->optins[i].kernel);
	for (size_t i = 0; i < c->nlaunches; i++)
		free(c->launches[i].kernel);
	for (size_t i = 0; i < c->nfns; i++)
		free(c->fns[i].name);
	for (size_t i = 0; i < c->nmacro_ids; i++)
		free(c->macro_ids[i]);
	for (size_t i = 0; i < c->nmarks; i++)
		free(c->marks[i].name);
	for (size_t i = 0; i < c->nwrites; i++)
		free(c->writes[i].name);
	free(c->names);
	free(c->dims);
	free(c->kernels);
	free(c->optins);
	free(c->launches);
	free(c->fns);
	free(c->macro_ids);
	free(c->marks);
	free(c->writes);
	free(c->frames);
	free(c->kname);
	free(c->issues);
}

/* Line n (1-based) of text, blanks trimmed, tabs and controls as
 * spaces, at most CUDA_LAUNCH_QUOTE bytes, into q. */
static void
lc_quote(const char *text, size_t len, int n, char *q)
{
	const char *p = text, *end = text + len, *e;
	size_t k = 0;

	for (int i = 1; i < n && p < end; i++) {
		p = memchr(p, '\n', (size_t)(end - p));
		p = p != NULL ? p + 1 : end;
	}
	e = memchr(p, '\n', (size_t)(end - p));
	if (e == NULL)
		e = end;
	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	while (e > p && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		e--;
	for (; p < e && k < CUDA_LAUNCH_QUOTE; p++, k++)
		q[k] = *p == '\t' || (unsigned char)*p < ' ' ? ' ' : *p;
	q[k] = '\0';
}

int
cuda_launch_check(const char *text, size_t len,
    const struct cuda_launch_limits *lim, struct cuda_launch_issue **out,
    size_t *n, struct err *err)
{
	struct lc c;
	TSTree *tree;
	TSTreeCursor cur;

	*out = NULL;
	*n = 0;
	if (syntax_tree(tree_sitter_cuda(), "cuda", "cuda", text, len, &tree,
	    err) < 0)
		return -1;
	memset(&c, 0, sizeof c);
	c.src = text;
	c.lim = lim;
	lc_prepass(&c, ts_tree_root_node(tree));
	/*
	 * One walk in source order, iterative: candidate code is untrusted
	 * and deep nesting must not exhaust the stack.  c.frames holds the
	 * path to the node being walked.
	 */
	cur = ts_tree_cursor_new(ts_tree_root_node(tree));
	for (;;) {
		TSNode node = ts_tree_cursor_current_node(&cur);

		lc_push(&c, node);
		lc_enter(&c, node);
		if (ts_tree_cursor_goto_first_child(&cur))
			continue;
		for (;;) {
			TSNode left = ts_tree_cursor_current_node(&cur);

			if (c.scope != 0 && ts_node_eq(left, c.fn))
				lc_function_end(&c);
			c.nframes--;
			if (ts_tree_cursor_goto_next_sibling(&cur))
				break;
			if (!ts_tree_cursor_goto_parent(&cur))
				goto done;
		}
	}
done:
	ts_tree_cursor_delete(&cur);
	lc_dynamic(&c);
	ts_tree_delete(tree);
	for (size_t i = 0; i < c.nissues; i++)
		lc_quote(text, len, c.issues[i].line, c.issues[i].quote);
	*out = c.issues;
	*n = c.nissues;
	c.issues = NULL;
	lc_release(&c);
	return 0;
}
