/*
 * x86sig.c - parse the restricted prototypes of the x86-asm env and
 * write the C its harness is built with; see x86sig.h for the grammar.
 * A small hand-written tokenizer: the grammar has nine type names, two
 * qualifiers and five punctuation marks, and every error names the
 * column.  Called by x86asm.c; no I/O.
 */
#include "envs/x86sig.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	const char	*name;
	enum x86sig_type type;
	size_t		 size;
	int		 is_signed;
} types[] = {
	{ "void", X86SIG_VOID, 0, 0 },
	{ "int8_t", X86SIG_I8, 1, 1 },
	{ "int16_t", X86SIG_I16, 2, 1 },
	{ "int32_t", X86SIG_I32, 4, 1 },
	{ "int64_t", X86SIG_I64, 8, 1 },
	{ "uint8_t", X86SIG_U8, 1, 0 },
	{ "uint16_t", X86SIG_U16, 2, 0 },
	{ "uint32_t", X86SIG_U32, 4, 0 },
	{ "uint64_t", X86SIG_U64, 8, 0 },
	{ "size_t", X86SIG_SIZE, 8, 0 },
};
#define NTYPES (sizeof types / sizeof types[0])

/*
 * Functions the harness (or the code gcc makes of it) calls: a candidate
 * defining one would be called in their place.
 */
static const char *const harness_calls[] = { "main", "memcpy", "memmove",
	"memset", "memcmp", "strlen", "strcmp", "strncmp", "printf", "vprintf",
	"fprintf", "snprintf", "vsnprintf", "putchar", "puts", "fputs",
	"fflush", "setvbuf", "malloc", "calloc", "realloc", "free", "exit",
	"_exit", "abort", "mmap", "munmap", "signal", "raise", "sigaction",
	"sigaltstack", "sigemptyset", "setitimer", "clock_gettime",
	"sched_getcpu", "sched_setaffinity", "siglongjmp", "__sigsetjmp",
	"write", "read" };

/* The harness's names for the types (share/envs/x86/harness.c). */
static const char *const harness_types[] = { "ASSAY_T_VOID", "ASSAY_T_I8",
	"ASSAY_T_I16", "ASSAY_T_I32", "ASSAY_T_I64", "ASSAY_T_U8",
	"ASSAY_T_U16", "ASSAY_T_U32", "ASSAY_T_U64", "ASSAY_T_SIZE" };

const char *
x86sig_type_name(enum x86sig_type t)
{
	return types[t].name;
}

size_t
x86sig_type_size(enum x86sig_type t)
{
	return types[t].size;
}

int
x86sig_type_signed(enum x86sig_type t)
{
	return types[t].is_signed;
}

int
x86sig_find(const struct x86sig *sig, const char *name)
{
	for (size_t i = 0; i < sig->nparams; i++)
		if (strcmp(sig->params[i].name, name) == 0)
			return (int)i;
	return -1;
}

/* --- tokens ---------------------------------------------------------- */

enum tok { T_END, T_IDENT, T_LPAREN, T_RPAREN, T_COMMA, T_STAR, T_SEMI,
	T_BAD };

struct lexer {
	const char	*text, *p;
	enum tok	 tok;
	const char	*start;		/* of the current token */
	size_t		 len;
	struct err	*err;
};

static int
is_ident_start(int c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static int
is_ident_char(int c)
{
	return is_ident_start(c) || (c >= '0' && c <= '9');
}

static void
next(struct lexer *l)
{
	while (*l->p == ' ' || *l->p == '\t' || *l->p == '\n' ||
	    *l->p == '\r')
		l->p++;
	l->start = l->p;
	l->len = 1;
	switch (*l->p) {
	case '\0':
		l->tok = T_END;
		l->len = 0;
		return;
	case '(':
		l->tok = T_LPAREN;
		break;
	case ')':
		l->tok = T_RPAREN;
		break;
	case ',':
		l->tok = T_COMMA;
		break;
	case '*':
		l->tok = T_STAR;
		break;
	case ';':
		l->tok = T_SEMI;
		break;
	default:
		if (!is_ident_start((unsigned char)*l->p)) {
			l->tok = T_BAD;
			break;
		}
		while (is_ident_char((unsigned char)l->p[l->len]))
			l->len++;
		l->tok = T_IDENT;
		l->p += l->len;
		return;
	}
	l->p++;
}

static int
column(const struct lexer *l)
{
	return (int)(l->start - l->text) + 1;
}

/* What the current token is, for a message: "'float'", "the end". */
static void
describe(const struct lexer *l, char *buf, size_t n)
{
	if (l->tok == T_END)
		snprintf(buf, n, "the end");
	else
		snprintf(buf, n, "'%.*s'", (int)(l->len > 40 ? 40 : l->len),
		    l->start);
}

static int
fail(struct lexer *l, const char *want)
{
	char got[64];

	describe(l, got, sizeof got);
	return err_set(l->err, "signature: column %d: expected %s, got %s",
	    column(l), want, got);
}

static int
is_word(const struct lexer *l, const char *w)
{
	return l->tok == T_IDENT && l->len == strlen(w) &&
	    memcmp(l->start, w, l->len) == 0;
}

/* The type named by the current token, or -1. */
static int
type_of(const struct lexer *l)
{
	if (l->tok != T_IDENT)
		return -1;
	for (size_t i = 0; i < NTYPES; i++)
		if (l->len == strlen(types[i].name) &&
		    memcmp(l->start, types[i].name, l->len) == 0)
			return (int)types[i].type;
	return -1;
}

/* Words that cannot name a function or a parameter. */
static int
reserved(const struct lexer *l)
{
	static const char *const words[] = { "const", "restrict", "volatile",
	    "signed", "unsigned", "int", "long", "short", "char", "float",
	    "double", "struct", "union", "enum", "static", "extern", "inline",
	    "register", "return", "if", "else", "for", "while", "do", "goto",
	    "sizeof", "typedef", "auto", "break", "case", "continue",
	    "default", "switch", "_Bool", "bool", "__restrict" };

	if (type_of(l) >= 0)
		return 1;
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
		if (is_word(l, words[i]))
			return 1;
	/* The harness's own names. */
	return l->len >= 6 && strncmp(l->start, "assay_", 6) == 0;
}

/* An identifier into name (X86SIG_NAME_MAX bytes); what says which. */
static int
take_name(struct lexer *l, char *name, const char *what)
{
	if (l->tok != T_IDENT || reserved(l))
		return fail(l, what);
	if (l->len >= X86SIG_NAME_MAX)
		return err_set(l->err, "signature: column %d: name longer than"
		    " %d characters", column(l), X86SIG_NAME_MAX - 1);
	memcpy(name, l->start, l->len);
	name[l->len] = '\0';
	next(l);
	return 0;
}

#define TYPE_LIST "a type (int8_t, int16_t, int32_t, int64_t, uint8_t," \
	" uint16_t, uint32_t, uint64_t or size_t)"

/* A type the grammar has no room for: say why rather than "expected". */
static int
unsupported(struct lexer *l)
{
	static const char *const words[] = { "int", "long", "short", "char",
	    "unsigned", "signed", "float", "double", "bool", "_Bool" };

	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
		if (is_word(l, words[i]))
			return err_set(l->err, "signature: column %d: '%s' is"
			    " not supported: use a fixed-width type (int32_t,"
			    " uint64_t, ...) or size_t%s", column(l), words[i],
			    strcmp(words[i], "float") == 0 ||
			    strcmp(words[i], "double") == 0 ?
			    " (floating point is not supported)" : "");
	if (is_word(l, "struct") || is_word(l, "union") || is_word(l, "enum"))
		return err_set(l->err, "signature: column %d: aggregates are"
		    " not supported", column(l));
	return fail(l, TYPE_LIST);
}

static int
param(struct lexer *l, struct x86sig_param *p)
{
	int t, cst = 0;

	memset(p, 0, sizeof *p);
	if (is_word(l, "const")) {
		cst = 1;
		next(l);
	}
	t = type_of(l);
	if (t < 0 || t == X86SIG_VOID)
		return unsupported(l);
	p->type = (enum x86sig_type)t;
	next(l);
	if (is_word(l, "const")) {
		cst = 1;
		next(l);
	}
	if (l->tok == T_STAR) {
		p->pointer = 1;
		p->is_const = cst;
		next(l);
		/* Qualifiers of the pointer itself change nothing here. */
		while (is_word(l, "const") || is_word(l, "restrict") ||
		    is_word(l, "__restrict"))
			next(l);
		if (l->tok == T_STAR)
			return err_set(l->err, "signature: column %d: pointers"
			    " to pointers are not supported", column(l));
	}
	if (l->tok == T_LPAREN)
		return err_set(l->err, "signature: column %d: function"
		    " pointers are not supported", column(l));
	if (l->tok == T_COMMA || l->tok == T_RPAREN)
		return err_set(l->err, "signature: column %d: every parameter"
		    " needs a name", column(l));
	if (take_name(l, p->name, "a parameter name") < 0)
		return -1;
	if (l->tok == T_IDENT || l->tok == T_STAR)
		return fail(l, "',' or ')'");
	return 0;
}

/* Which parameter gives the pointers their length. */
static int
pick_length(struct x86sig *sig, const char *length, struct err *err)
{
	size_t pointers = 0, sizes = 0;
	int only = -1;

	sig->len = -1;
	for (size_t i = 0; i < sig->nparams; i++) {
		pointers += sig->params[i].pointer;
		if (!sig->params[i].pointer &&
		    sig->params[i].type == X86SIG_SIZE) {
			sizes++;
			only = (int)i;
		}
	}
	if (length != NULL) {
		int k = x86sig_find(sig, length);

		if (k < 0)
			return err_set(err, "signature: the length parameter"
			    " '%s' (env_params.length) is not a parameter",
			    length);
		if (sig->params[k].pointer ||
		    sig->params[k].type != X86SIG_SIZE)
			return err_set(err, "signature: the length parameter"
			    " '%s' must be a size_t", length);
		sig->len = k;
		return 0;
	}
	if (pointers == 0)
		return 0;
	if (sizes == 0)
		return err_set(err, "signature: a pointer needs a length: add a"
		    " size_t parameter that counts its elements");
	if (sizes > 1)
		return err_set(err, "signature: %zu size_t parameters: name the"
		    " one that counts the elements with env_params.length",
		    sizes);
	sig->len = only;
	return 0;
}

int
x86sig_parse(const char *text, const char *length, struct x86sig *sig,
    struct err *err)
{
	struct lexer l = { .text = text, .p = text, .err = err };
	int t;

	memset(sig, 0, sizeof *sig);
	sig->len = -1;
	next(&l);
	if (l.tok == T_END)
		return err_set(err, "signature: empty");
	if (is_word(&l, "static") || is_word(&l, "extern") ||
	    is_word(&l, "inline"))
		next(&l);
	t = type_of(&l);
	if (t < 0) {
		if (l.tok == T_IDENT && !reserved(&l))
			return fail(&l, "a return type: void or " TYPE_LIST);
		return unsupported(&l);
	}
	sig->ret = (enum x86sig_type)t;
	next(&l);
	if (l.tok == T_STAR)
		return err_set(err, "signature: column %d: pointer return"
		    " values are not supported", column(&l));
	if (take_name(&l, sig->name, "the function name") < 0)
		return -1;
	if (l.tok != T_LPAREN)
		return fail(&l, "'('");
	next(&l);
	if (is_word(&l, "void")) {
		int col = column(&l);

		next(&l);
		if (l.tok != T_RPAREN)
			return err_set(err, "signature: column %d: void"
			    " parameters and void pointers are not supported",
			    col);
	} else if (l.tok != T_RPAREN) {
		for (;;) {
			if (l.tok == T_BAD && *l.start == '.')
				return err_set(err, "signature: column %d:"
				    " variadic functions are not supported",
				    column(&l));
			if (sig->nparams == X86SIG_MAX_PARAMS)
				return err_set(err, "signature: column %d: more"
				    " than %d parameters: the seventh would"
				    " pass on the stack, which the harness"
				    " does not do", column(&l),
				    X86SIG_MAX_PARAMS);
			if (param(&l, &sig->params[sig->nparams]) < 0)
				return -1;
			if (x86sig_find(sig, sig->params[sig->nparams].name)
			    >= 0)
				return err_set(err, "signature: parameter '%s'"
				    " is named twice",
				    sig->params[sig->nparams].name);
			sig->nparams++;
			if (l.tok == T_RPAREN)
				break;
			if (l.tok != T_COMMA)
				return fail(&l, "',' or ')'");
			next(&l);
		}
	}
	if (l.tok != T_RPAREN)
		return fail(&l, "')'");
	next(&l);
	if (l.tok == T_SEMI)
		next(&l);
	if (l.tok != T_END)
		return fail(&l, "the end of the prototype");
	for (size_t i = 0; i < sizeof harness_calls / sizeof harness_calls[0];
	    i++)
		if (strcmp(sig->name, harness_calls[i]) == 0)
			return err_set(err, "signature: the harness calls %s"
			    " itself: name the function otherwise", sig->name);
	return pick_length(sig, length, err);
}

/* --- generated C ------------------------------------------------------ */

void
x86sig_prototype(const struct x86sig *sig, const char *fname, int names,
    struct buf *out)
{
	buf_printf(out, "%s %s(", x86sig_type_name(sig->ret), fname);
	if (sig->nparams == 0)
		buf_adds(out, "void");
	for (size_t i = 0; i < sig->nparams; i++) {
		const struct x86sig_param *p = &sig->params[i];

		buf_printf(out, "%s%s%s%s%s%s", i > 0 ? ", " : "",
		    p->is_const ? "const " : "", x86sig_type_name(p->type),
		    names || p->pointer ? " " : "", p->pointer ? "*" : "",
		    names ? p->name : "");
	}
	buf_adds(out, ")");
}

void
x86sig_table(const struct x86sig *sig, long cases, unsigned long seed,
    long max_n, long time_n, struct buf *out)
{
	buf_adds(out, "/* Generated by assay's x86-asm env for: ");
	x86sig_prototype(sig, sig->name, 1, out);
	buf_adds(out, " */\n");
	buf_printf(out, "#define ASSAY_SYMBOL \"%s\"\n", sig->name);
	buf_printf(out, "#define ASSAY_RET %s\n", harness_types[sig->ret]);
	buf_printf(out, "#define ASSAY_NPARAMS %zu\n", sig->nparams);
	buf_printf(out, "#define ASSAY_LEN %d\n", sig->len);
	buf_printf(out, "#define ASSAY_CASES %ld\n", cases);
	buf_printf(out, "#define ASSAY_SEED %luUL\n", seed);
	buf_printf(out, "#define ASSAY_MAX_N %ld\n", max_n);
	buf_printf(out, "#define ASSAY_TIME_N %ld\n", time_n);
	buf_adds(out, "static const struct assay_param assay_params["
	    "ASSAY_NPARAMS + 1] = {\n");
	for (size_t i = 0; i < sig->nparams; i++) {
		const struct x86sig_param *p = &sig->params[i];

		/* name, type, pointer, const, ranged, lo, hi */
		buf_printf(out, "\t{ \"%s\", %s, %d, %d, %d, (int64_t)%"
		    PRId64 "LL, (int64_t)%" PRId64 "LL },\n", p->name,
		    harness_types[p->type], p->pointer, p->is_const,
		    p->ranged, p->ranged ? p->lo : 0, p->ranged ? p->hi : 0);
	}
	buf_adds(out, "\t{ NULL, ASSAY_T_VOID, 0, 0, 0, 0, 0 }\n};\n");
}

/* The argument list of a thunk: each parameter from v[i]. */
static void
thunk_args(const struct x86sig *sig, struct buf *out)
{
	for (size_t i = 0; i < sig->nparams; i++) {
		const struct x86sig_param *p = &sig->params[i];

		if (p->pointer)
			buf_printf(out, "%s(%s%s *)(uintptr_t)v[%zu]",
			    i > 0 ? ", " : "", p->is_const ? "const " : "",
			    x86sig_type_name(p->type), i);
		else
			buf_printf(out, "%s(%s)v[%zu]", i > 0 ? ", " : "",
			    x86sig_type_name(p->type), i);
	}
}

static void
thunk(const struct x86sig *sig, const char *thunk, const char *fname,
    struct buf *out)
{
	buf_printf(out, "static uint64_t __attribute__((noipa, aligned(64)))"
	    "\n%s(const uint64_t *v)\n{\n", thunk);
	if (sig->nparams == 0)
		buf_adds(out, "\t(void)v;\n");
	if (sig->ret == X86SIG_VOID)
		buf_printf(out, "\t%s(", fname);
	else
		buf_printf(out, "\treturn (uint64_t)(%s)%s(",
		    x86sig_type_signed(sig->ret) ? "int64_t" : "uint64_t",
		    fname);
	thunk_args(sig, out);
	buf_adds(out, ");\n");
	if (sig->ret == X86SIG_VOID)
		buf_adds(out, "\treturn 0;\n");
	buf_adds(out, "}\n\n");
}

void
x86sig_thunks(const struct x86sig *sig, const char *ref_file,
    const char *opt, struct buf *out)
{
	char *ref = xasprintf("assay_ref_%s", sig->name);
	char *cand = xasprintf("assay_cand_%s", sig->name);
	int pragma = opt != NULL && strcmp(opt, "2") != 0;

	buf_adds(out, "/* Generated by assay's x86-asm env: the candidate under"
	    " a C name of its own\n * (its symbol may be a C library"
	    " name), the reference, static so that the\n * candidate cannot"
	    " call it, and the two thunks the harness calls.  Parameters\n"
	    " * have no names: a name may be a macro of a system header. */\n");
	/* The checker (run/check) has no candidate in it. */
	buf_adds(out, "#ifdef ASSAY_WORKER\n");
	x86sig_prototype(sig, cand, 0, out);
	buf_printf(out, " __asm__(\"%s\");\n#endif\nstatic ", sig->name);
	x86sig_prototype(sig, ref, 0, out);
	/* Aligned as pre.s aligns the candidate: for a function of a few
	 * instructions the placement alone moves the timing by 10 %. */
	buf_adds(out, " __attribute__((noipa, aligned(64)));\n");
	if (pragma)
		buf_printf(out, "#pragma GCC push_options\n#pragma GCC optimize"
		    " (\"O%s\")\n", opt);
	buf_printf(out, "#define %s %s\n#include \"%s\"\n#undef %s\n",
	    sig->name, ref, ref_file, sig->name);
	if (pragma)
		buf_adds(out, "#pragma GCC pop_options\n");
	buf_adds(out, "\n");
	thunk(sig, "assay_call_ref", ref, out);
	buf_adds(out, "#ifdef ASSAY_WORKER\n");
	thunk(sig, "assay_call_cand", cand, out);
	buf_printf(out, "static const void *\nassay_cand_addr(void)\n{\n"
	    "\treturn (const void *)(uintptr_t)&%s;\n}\n#endif\n\n", cand);
	buf_printf(out, "static const void *\nassay_ref_addr(void)\n{\n"
	    "\treturn (const void *)(uintptr_t)&%s;\n}\n", ref);
	free(ref);
	free(cand);
}
