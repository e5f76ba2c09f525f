/*
 * syntax.c - tree-sitter parsing and highlighting; with cuda_launch.c the
 * only files that call ts_*.
 *
 * The grammars of grammars/manifest are linked in statically.  At
 * syntax_init() each language's ABI is checked against the runtime and its
 * highlight query (our own grammars/<lang>/highlights.scm) is compiled
 * once and cached, together with the text predicates that the 0.20.7
 * runtime parses but never applies (#eq?, #match?, #any-of? and their
 * #not- forms; other predicates such as #set! are ignored).
 * syntax_parse() parses a whole text, runs the query, paints one highlight
 * group per byte (inner nodes win over outer ones, later patterns over
 * earlier ones for the same node), paints what is left uncaptured inside
 * ERROR nodes as SYN_ERROR, and cuts the result into per-line spans.
 * It does not draw, keep the tree, or reparse incrementally.
 *
 * Called by the candidate pane (src/ui) and by tests/unit/test_syntax.c.
 */
#include "lang/syntax.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tree_sitter/api.h>

#include "base/buf.h"
#include "base/err.h"
#include "base/file.h"
#include "lang/parse.h"

const TSLanguage *tree_sitter_c(void);
const TSLanguage *tree_sitter_cuda(void);
const TSLanguage *tree_sitter_verilog(void);

/* A text predicate of one query pattern. */
enum pred_op {
	PRED_EQ,
	PRED_MATCH,
	PRED_ANY_OF
};

/*
 * For PRED_EQ with a string and PRED_ANY_OF, words[] points into the
 * query's string table (borrowed); the words and lens arrays are owned.
 */
struct pred {
	enum pred_op	  op;
	int		  negate;	/* #not-... form */
	uint32_t	  capture;	/* capture tested */
	int		  other;	/* #eq? @a @b: 2nd capture, or -1 */
	regex_t		  re;		/* PRED_MATCH */
	const char	**words;
	uint32_t	 *lens;
	uint32_t	  nwords;
};

/* The predicates of one pattern; owns v. */
struct pattern_preds {
	struct pred	*v;
	uint32_t	 n;
};

enum query_state {
	QUERY_NONE = 0,		/* no syntax_init(): plain text */
	QUERY_OK,
	QUERY_FAILED		/* missing or broken query; msg says why */
};

/* A linked language and its cached query. */
struct syn_lang {
	const char		 *name;
	const TSLanguage	*(*fn)(void);
	enum query_state	  state;
	TSQuery			 *query;	/* owned */
	struct pattern_preds	 *preds;	/* owned, one per pattern */
	uint32_t		  npatterns;
	enum syn_group		 *groups;	/* owned, one per capture */
	char			  msg[ERR_MSG_MAX];
};

static struct syn_lang syn_langs[] = {
	{ .name = "c", .fn = tree_sitter_c },
	{ .name = "cuda", .fn = tree_sitter_cuda },
	{ .name = "verilog", .fn = tree_sitter_verilog },
};
#define SYN_NLANGS (sizeof syn_langs / sizeof syn_langs[0])

struct syntax {
	size_t		 nlines;
	size_t		*line_first;	/* nlines + 1 starts in spans */
	struct syn_span	*spans;
	int		 has_error;
};

/* Capture-name prefixes, most specific first. */
static const struct {
	const char	*prefix;
	enum syn_group	 group;
} syn_prefixes[] = {
	{ "keyword.directive", SYN_PREPROC },
	{ "preproc", SYN_PREPROC },
	{ "include", SYN_PREPROC },
	{ "define", SYN_PREPROC },
	{ "keyword", SYN_KEYWORD },
	{ "conditional", SYN_KEYWORD },
	{ "repeat", SYN_KEYWORD },
	{ "exception", SYN_KEYWORD },
	{ "storageclass", SYN_KEYWORD },
	{ "type", SYN_TYPE },
	{ "module", SYN_TYPE },
	{ "namespace", SYN_TYPE },
	{ "function", SYN_FUNCTION },
	{ "method", SYN_FUNCTION },
	{ "constructor", SYN_FUNCTION },
	{ "string", SYN_STRING },
	{ "character", SYN_STRING },
	{ "number", SYN_NUMBER },
	{ "float", SYN_NUMBER },
	{ "constant", SYN_CONSTANT },
	{ "boolean", SYN_CONSTANT },
	{ "comment", SYN_COMMENT },
	{ "operator", SYN_OPERATOR },
	{ "variable", SYN_VARIABLE },
	{ "parameter", SYN_VARIABLE },
	{ "property", SYN_PROPERTY },
	{ "field", SYN_PROPERTY },
	{ "label", SYN_PROPERTY },
};

static const char *const syn_group_names[SYN_NGROUPS] = {
	[SYN_NONE] = "none",
	[SYN_COMMENT] = "comment",
	[SYN_KEYWORD] = "keyword",
	[SYN_TYPE] = "type",
	[SYN_FUNCTION] = "function",
	[SYN_STRING] = "string",
	[SYN_NUMBER] = "number",
	[SYN_CONSTANT] = "constant",
	[SYN_OPERATOR] = "operator",
	[SYN_VARIABLE] = "variable",
	[SYN_PROPERTY] = "property",
	[SYN_PREPROC] = "preproc",
	[SYN_ERROR] = "error",
};

static struct syn_lang *
syn_lang_find(const char *name)
{
	size_t i;

	if (name == NULL)
		return NULL;
	for (i = 0; i < SYN_NLANGS; i++)
		if (strcmp(syn_langs[i].name, name) == 0)
			return &syn_langs[i];
	return NULL;
}

/* Map a capture name to a group; names starting with '_' are private. */
static enum syn_group
syn_group_for(const char *name, uint32_t len)
{
	size_t i, n;

	for (i = 0; i < sizeof syn_prefixes / sizeof syn_prefixes[0]; i++) {
		n = strlen(syn_prefixes[i].prefix);
		if (len < n || memcmp(name, syn_prefixes[i].prefix, n) != 0)
			continue;
		if (len == n || name[n] == '.')
			return syn_prefixes[i].group;
	}
	return SYN_NONE;
}

/*
 * Why: queries are written in Rust regex syntax and POSIX ERE has no
 * \d \w \s; rewrite those (inside or outside brackets) before regcomp().
 * New string, caller frees.
 */
static char *
syn_regex_to_ere(const char *src)
{
	size_t n = strlen(src);
	char *out = xmalloc(n * 12 + 1), *o = out;
	const char *s, *rep;
	int in_bracket = 0;

	for (s = src; *s != '\0'; s++) {
		if (s[0] == '\\' && s[1] != '\0') {
			rep = NULL;
			switch (s[1]) {
			case 'd':
				rep = in_bracket ? "0-9" : "[0-9]";
				break;
			case 'w':
				rep = in_bracket ? "A-Za-z0-9_" :
				    "[A-Za-z0-9_]";
				break;
			case 's':
				rep = in_bracket ? " \t\n\r\f\v" :
				    "[ \t\n\r\f\v]";
				break;
			}
			if (rep != NULL) {
				memcpy(o, rep, strlen(rep));
				o += strlen(rep);
			} else {
				*o++ = s[0];
				*o++ = s[1];
			}
			s++;
			continue;
		}
		if (*s == '[')
			in_bracket = 1;
		else if (*s == ']')
			in_bracket = 0;
		*o++ = *s;
	}
	*o = '\0';
	return out;
}

static void
syn_preds_free(struct pattern_preds *pp, uint32_t npatterns)
{
	uint32_t i, k;

	if (pp == NULL)
		return;
	for (i = 0; i < npatterns; i++) {
		for (k = 0; k < pp[i].n; k++) {
			if (pp[i].v[k].op == PRED_MATCH)
				regfree(&pp[i].v[k].re);
			free(pp[i].v[k].words);
			free(pp[i].v[k].lens);
		}
		free(pp[i].v);
	}
	free(pp);
}

/*
 * Parse one predicate (steps a[0..argc-1], a[0] its name) into p.
 * Returns 1 when p is a text predicate we evaluate, 0 when it is one we
 * ignore, -1 on a bad regex.
 */
static int
syn_pred_parse(const TSQuery *q, const TSQueryPredicateStep *a,
    uint32_t argc, struct pred *p, struct err *err)
{
	const char *name, *rx;
	char *ere;
	uint32_t len, w;
	int rc;

	memset(p, 0, sizeof *p);
	p->other = -1;
	if (argc < 2 || a[0].type != TSQueryPredicateStepTypeString ||
	    a[1].type != TSQueryPredicateStepTypeCapture)
		return 0;
	name = ts_query_string_value_for_id(q, a[0].value_id, &len);
	if (strncmp(name, "not-", 4) == 0) {
		p->negate = 1;
		name += 4;
	}
	if (strcmp(name, "eq?") == 0)
		p->op = PRED_EQ;
	else if (strcmp(name, "match?") == 0 ||
	    strcmp(name, "lua-match?") == 0)
		p->op = PRED_MATCH;
	else if (strcmp(name, "any-of?") == 0)
		p->op = PRED_ANY_OF;
	else
		return 0;
	p->capture = a[1].value_id;

	if (p->op == PRED_EQ && argc == 3 &&
	    a[2].type == TSQueryPredicateStepTypeCapture) {
		p->other = (int)a[2].value_id;
		return 1;
	}
	if (p->op == PRED_MATCH) {
		if (argc != 3 || a[2].type != TSQueryPredicateStepTypeString)
			return 0;
		rx = ts_query_string_value_for_id(q, a[2].value_id, &len);
		ere = syn_regex_to_ere(rx);
		rc = regcomp(&p->re, ere, REG_EXTENDED | REG_NOSUB);
		free(ere);
		if (rc != 0)
			return err_set(err, "bad regex \"%s\"", rx);
		return 1;
	}
	if (p->op == PRED_EQ && argc != 3)
		return 0;
	p->nwords = argc - 2;
	p->words = xcalloc(p->nwords, sizeof *p->words);
	p->lens = xcalloc(p->nwords, sizeof *p->lens);
	for (w = 0; w < p->nwords; w++) {
		if (a[2 + w].type != TSQueryPredicateStepTypeString) {
			free(p->words);
			free(p->lens);
			return 0;
		}
		p->words[w] = ts_query_string_value_for_id(q,
		    a[2 + w].value_id, &p->lens[w]);
	}
	return 1;
}

/* Build the predicate table of q: *out is new, one entry per pattern. */
static int
syn_preds_compile(const TSQuery *q, struct pattern_preds **out,
    struct err *err)
{
	uint32_t npat = ts_query_pattern_count(q), i, k, nsteps, start;
	struct pattern_preds *pp = xcalloc(npat, sizeof *pp);
	const TSQueryPredicateStep *st;
	struct pred p;
	struct err perr;
	int rc;

	for (i = 0; i < npat; i++) {
		st = ts_query_predicates_for_pattern(q, i, &nsteps);
		start = 0;
		for (k = 0; k < nsteps; k++) {
			if (st[k].type != TSQueryPredicateStepTypeDone)
				continue;
			rc = syn_pred_parse(q, &st[start], k - start, &p,
			    &perr);
			start = k + 1;
			if (rc < 0) {
				syn_preds_free(pp, npat);
				return err_set(err, "pattern %u: %s", i,
				    perr.msg);
			}
			if (rc == 0)
				continue;
			pp[i].v = xreallocarray(pp[i].v, pp[i].n + 1,
			    sizeof *pp[i].v);
			pp[i].v[pp[i].n++] = p;
		}
	}
	*out = pp;
	return 0;
}

static const char *
syn_query_error_name(TSQueryError e)
{
	switch (e) {
	case TSQueryErrorSyntax:
		return "syntax error";
	case TSQueryErrorNodeType:
		return "invalid node type";
	case TSQueryErrorField:
		return "invalid field";
	case TSQueryErrorCapture:
		return "invalid capture";
	case TSQueryErrorStructure:
		return "impossible pattern";
	case TSQueryErrorLanguage:
		return "language mismatch";
	default:
		return "error";
	}
}

static void
syn_lang_release(struct syn_lang *l)
{
	syn_preds_free(l->preds, l->npatterns);
	if (l->query != NULL)
		ts_query_delete(l->query);
	free(l->groups);
	l->preds = NULL;
	l->query = NULL;
	l->groups = NULL;
	l->npatterns = 0;
	l->state = QUERY_NONE;
	l->msg[0] = '\0';
}

/* Check the ABI, then compile and cache dir/<lang>/highlights.scm. */
static int
syn_lang_load(struct syn_lang *l, const char *dir, struct err *err)
{
	const TSLanguage *lang = l->fn();
	uint32_t abi = ts_language_version(lang), off = 0, ncap, i, len;
	uint32_t row = 1, col = 1;
	TSQueryError qerr = TSQueryErrorNone;
	struct err perr;
	char *path, *src = NULL;
	const char *name, *near;
	size_t n = 0;
	int rc = -1, nl;

	path = xasprintf("%s/%s/highlights.scm", dir, l->name);
	if (abi < TREE_SITTER_MIN_COMPATIBLE_LANGUAGE_VERSION ||
	    abi > TREE_SITTER_LANGUAGE_VERSION) {
		err_set(err, "grammar '%s' has ABI %u; runtime loads %d..%d",
		    l->name, abi, TREE_SITTER_MIN_COMPATIBLE_LANGUAGE_VERSION,
		    TREE_SITTER_LANGUAGE_VERSION);
		goto out;
	}
	if (file_read(path, &src, &n, err) != 0)
		goto out;
	if (n > UINT32_MAX) {
		err_set(err, "%s: too large", path);
		goto out;
	}
	l->query = ts_query_new(lang, src, (uint32_t)n, &off, &qerr);
	if (l->query == NULL) {
		for (i = 0; i < off && i < n; i++) {
			if (src[i] == '\n') {
				row++;
				col = 1;
			} else
				col++;
		}
		near = src + (off < n ? off : n);
		for (nl = 0; nl < 24 && near[nl] != '\0' && near[nl] != '\n';
		    nl++)
			;
		err_set(err, "%s:%u:%u: %s near \"%.*s\"", path, row, col,
		    syn_query_error_name(qerr), nl, near);
		goto out;
	}
	l->npatterns = ts_query_pattern_count(l->query);
	if (syn_preds_compile(l->query, &l->preds, &perr) != 0) {
		err_set(err, "%s: %s", path, perr.msg);
		goto out;
	}
	ncap = ts_query_capture_count(l->query);
	l->groups = xcalloc(ncap, sizeof *l->groups);
	for (i = 0; i < ncap; i++) {
		name = ts_query_capture_name_for_id(l->query, i, &len);
		l->groups[i] = syn_group_for(name, len);
	}
	l->state = QUERY_OK;
	rc = 0;
out:
	if (rc != 0) {
		syn_preds_free(l->preds, l->npatterns);
		l->preds = NULL;
		if (l->query != NULL)
			ts_query_delete(l->query);
		l->query = NULL;
		l->state = QUERY_FAILED;
		snprintf(l->msg, sizeof l->msg, "%s",
		    err != NULL ? err->msg : "highlight query failed");
	}
	free(src);
	free(path);
	return rc;
}

int
syntax_init(const char *dir, struct err *err)
{
	struct err e, first;
	size_t i;
	int rc = 0;

	err_clear(&first);
	ts_set_allocator(xmalloc, xcalloc, xrealloc, free);
	for (i = 0; i < SYN_NLANGS; i++) {
		syn_lang_release(&syn_langs[i]);
		err_clear(&e);
		if (syn_lang_load(&syn_langs[i], dir, &e) != 0 && rc == 0) {
			first = e;
			rc = -1;
		}
	}
	if (rc != 0)
		return err_set(err, "%s", first.msg);
	return 0;
}

void
syntax_shutdown(void)
{
	size_t i;

	for (i = 0; i < SYN_NLANGS; i++)
		syn_lang_release(&syn_langs[i]);
}

int
syntax_has_lang(const char *lang)
{
	return syn_lang_find(lang) != NULL;
}

int
syntax_lang_abi(const char *lang)
{
	struct syn_lang *l = syn_lang_find(lang);

	if (l == NULL)
		return -1;
	return (int)ts_language_version(l->fn());
}

/* The node of capture id in m, or 0 when the match lacks it. */
static int
syn_capture_node(const TSQueryMatch *m, uint32_t id, TSNode *out)
{
	uint16_t i;

	for (i = 0; i < m->capture_count; i++) {
		if (m->captures[i].index == id) {
			*out = m->captures[i].node;
			return 1;
		}
	}
	return 0;
}

/* Scratch NUL-terminated copy of src[s, e) for regexec(). */
struct syn_scratch {
	char	*p;
	size_t	 cap;
};

static const char *
syn_scratch_copy(struct syn_scratch *sc, const char *src, uint32_t s,
    uint32_t e)
{
	size_t n = e - s;

	if (n + 1 > sc->cap) {
		sc->cap = n + 1 > 256 ? n + 1 : 256;
		sc->p = xrealloc(sc->p, sc->cap);
	}
	memcpy(sc->p, src + s, n);
	sc->p[n] = '\0';
	return sc->p;
}

/* Do the text predicates of m's pattern hold? */
static int
syn_preds_ok(const struct pattern_preds *pp, const TSQueryMatch *m,
    const char *src, struct syn_scratch *sc)
{
	const struct pred *p;
	TSNode n, n2;
	uint32_t i, w, s, e, s2, e2;
	int ok;

	for (i = 0; i < pp->n; i++) {
		p = &pp->v[i];
		if (!syn_capture_node(m, p->capture, &n))
			continue;
		s = ts_node_start_byte(n);
		e = ts_node_end_byte(n);
		ok = 0;
		if (p->op == PRED_EQ && p->other >= 0) {
			if (!syn_capture_node(m, (uint32_t)p->other, &n2))
				continue;
			s2 = ts_node_start_byte(n2);
			e2 = ts_node_end_byte(n2);
			ok = e - s == e2 - s2 &&
			    memcmp(src + s, src + s2, e - s) == 0;
		} else if (p->op == PRED_MATCH) {
			ok = regexec(&p->re, syn_scratch_copy(sc, src, s, e),
			    0, NULL, 0) == 0;
		} else {
			for (w = 0; w < p->nwords && !ok; w++)
				ok = p->lens[w] == e - s &&
				    memcmp(p->words[w], src + s, e - s) == 0;
		}
		if (ok == p->negate)
			return 0;
	}
	return 1;
}

/* One capture to paint. */
struct syn_paint {
	uint32_t	 start, end, pattern;
	enum syn_group	 group;
};

/* Outer ranges first, then earlier patterns: later paints win. */
static int
syn_paint_cmp(const void *a, const void *b)
{
	const struct syn_paint *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->end != y->end)
		return x->end > y->end ? -1 : 1;
	if (x->pattern != y->pattern)
		return x->pattern < y->pattern ? -1 : 1;
	return 0;
}

/* Run l's query over tree and paint one group per byte of src. */
static void
syn_paint_captures(const struct syn_lang *l, TSTree *tree, const char *src,
    unsigned char *paint)
{
	TSQueryCursor *cur = ts_query_cursor_new();
	struct syn_scratch sc = { NULL, 0 };
	struct syn_paint *v = NULL;
	size_t n = 0, cap = 0, i;
	TSQueryMatch m;
	TSQueryCapture c;
	enum syn_group g;
	uint32_t ci, b;

	ts_query_cursor_exec(cur, l->query, ts_tree_root_node(tree));
	while (ts_query_cursor_next_capture(cur, &m, &ci)) {
		c = m.captures[ci];
		g = l->groups[c.index];
		if (g == SYN_NONE)
			continue;
		if (!syn_preds_ok(&l->preds[m.pattern_index], &m, src, &sc)) {
			ts_query_cursor_remove_match(cur, m.id);
			continue;
		}
		if (n == cap) {
			cap = cap != 0 ? cap * 2 : 1024;
			v = xreallocarray(v, cap, sizeof *v);
		}
		v[n].start = ts_node_start_byte(c.node);
		v[n].end = ts_node_end_byte(c.node);
		v[n].pattern = m.pattern_index;
		v[n].group = g;
		n++;
	}
	ts_query_cursor_delete(cur);
	free(sc.p);

	if (n > 0)
		qsort(v, n, sizeof *v, syn_paint_cmp);
	for (i = 0; i < n; i++)
		for (b = v[i].start; b < v[i].end; b++)
			paint[b] = (unsigned char)v[i].group;
	free(v);
}

/*
 * Why: a region that fails to parse is shown as such, but only where no
 * capture already coloured it, so keywords inside and around the broken
 * region keep their colours.  Whitespace stays plain.
 */
static void
syn_paint_errors(TSNode node, const char *src, unsigned char *paint)
{
	uint32_t i, n, b, e;
	TSNode child;

	if (!ts_node_has_error(node))
		return;
	if (strcmp(ts_node_type(node), "ERROR") == 0) {
		b = ts_node_start_byte(node);
		e = ts_node_end_byte(node);
		for (; b < e; b++)
			if (paint[b] == SYN_NONE &&
			    strchr(" \t\r\n\f\v", src[b]) == NULL)
				paint[b] = SYN_ERROR;
		return;
	}
	n = ts_node_child_count(node);
	for (i = 0; i < n; i++) {
		child = ts_node_child(node, i);
		syn_paint_errors(child, src, paint);
	}
}

/* Cut paint into per-line spans; s->nlines must be set. */
static void
syn_split_lines(struct syntax *s, const char *text, size_t len,
    const unsigned char *paint)
{
	size_t cap = 0, nspans = 0, line = 0, ls = 0, le, i, j;

	s->line_first = xcalloc(s->nlines + 1, sizeof *s->line_first);
	while (ls < len) {
		le = ls;
		while (le < len && text[le] != '\n')
			le++;
		s->line_first[line] = nspans;
		for (i = ls; paint != NULL && i < le; i = j) {
			for (j = i + 1; j < le && paint[j] == paint[i]; j++)
				;
			if (paint[i] == SYN_NONE)
				continue;
			if (nspans == cap) {
				cap = cap != 0 ? cap * 2 : 256;
				s->spans = xreallocarray(s->spans, cap,
				    sizeof *s->spans);
			}
			s->spans[nspans].start = (uint32_t)(i - ls);
			s->spans[nspans].end = (uint32_t)(j - ls);
			s->spans[nspans].group = (enum syn_group)paint[i];
			nspans++;
		}
		line++;
		ls = le + 1;
	}
	s->line_first[s->nlines] = nspans;
}

int
syntax_tree(const TSLanguage *lang, const char *grammar, const char *name,
    const char *text, size_t len, TSTree **out, struct err *err)
{
	TSParser *parser;

	*out = NULL;
	if (len >= UINT32_MAX)
		return err_set(err, "%s: text too large (%zu bytes)", name, len);
	parser = ts_parser_new();
	if (!ts_parser_set_language(parser, lang)) {
		ts_parser_delete(parser);
		return err_set(err, "grammar '%s': ABI %u rejected by the"
		    " runtime", grammar, ts_language_version(lang));
	}
	*out = ts_parser_parse_string(parser, NULL, text, (uint32_t)len);
	ts_parser_delete(parser);
	if (*out == NULL)
		return err_set(err, "%s: the parser gave no tree", name);
	return 0;
}

/* Is n a comment node (of any grammar)? */
static int
syn_is_comment(TSNode n)
{
	return !ts_node_is_null(n) && strcmp(ts_node_type(n), "comment") == 0;
}

char *
syntax_comment_above(const char *text, TSNode n)
{
	TSNode c = ts_node_prev_named_sibling(n), first = { 0 };
	int next_line = (int)ts_node_start_point(n).row + 1;
	struct buf b = BUF_INIT;

	/* `timescale and the like between the comment and the module */
	while (!ts_node_is_null(c) && strstr(ts_node_type(c),
	    "_compiler_directive") != NULL) {
		next_line = (int)ts_node_start_point(c).row + 1;
		c = ts_node_prev_named_sibling(c);
	}
	while (syn_is_comment(c) &&
	    (int)ts_node_end_point(c).row + 2 >= next_line) {
		first = c;
		next_line = (int)ts_node_start_point(c).row + 1;
		c = ts_node_prev_named_sibling(c);
	}
	for (c = first; syn_is_comment(c) && ts_node_start_byte(c) <
	    ts_node_start_byte(n); c = ts_node_next_named_sibling(c)) {
		char *t = xstrndup(text + ts_node_start_byte(c),
		    ts_node_end_byte(c) - ts_node_start_byte(c)), *s = t, *line;

		if (strncmp(s, "/*", 2) == 0) {
			s += 2;
			if (strlen(s) >= 2 && strcmp(s + strlen(s) - 2, "*/")
			    == 0)
				s[strlen(s) - 2] = '\0';
		}
		for (line = strtok(s, "\n"); line != NULL;
		    line = strtok(NULL, "\n")) {
			size_t l;

			while (*line == ' ' || *line == '\t')
				line++;
			if (strncmp(line, "//", 2) == 0)
				line += 2;
			else if (*line == '*' && line[1] != '/')
				line++;
			if (*line == ' ')
				line++;
			l = strlen(line);
			while (l > 0 && isspace((unsigned char)line[l - 1]))
				l--;
			buf_add(&b, line, l);
			buf_addc(&b, '\n');
		}
		free(t);
	}
	while (b.len > 0 && b.p[0] == '\n') {
		memmove(b.p, b.p + 1, b.len);
		b.len--;
	}
	return b.len > 0 ? buf_detach(&b, NULL) : (buf_release(&b), NULL);
}

int
syntax_walk_next(TSTreeCursor *cur, int descend)
{
	if (descend && ts_tree_cursor_goto_first_child(cur))
		return 1;
	while (!ts_tree_cursor_goto_next_sibling(cur))
		if (!ts_tree_cursor_goto_parent(cur))
			return 0;
	return 1;
}

int
syntax_verilog_walk(const char *text, size_t len, int *has_error,
    void (*visit)(const char *text, TSNode n, const char *type,
    const TSNode *up, size_t nup, void *arg),
    void *arg, struct err *err)
{
	TSTree *tree;
	TSTreeCursor cur;
	TSNode n, *up = NULL;
	size_t nup = 0, cap = 0;

	*has_error = 0;
	if (syntax_tree(tree_sitter_verilog(), "verilog", "verilog", text, len,
	    &tree, err) < 0)
		return -1;
	*has_error = ts_node_has_error(ts_tree_root_node(tree));
	cur = ts_tree_cursor_new(ts_tree_root_node(tree));
	/*
	 * The ancestors are kept on a stack as the cursor moves, so that a
	 * visit asks its parent in constant time: ts_node_parent() walks
	 * down from the root, and a deeply nested candidate (200,000
	 * nested ?: in 1.6 MB) made one ask per identifier cost its depth.
	 */
	for (;;) {
		n = ts_tree_cursor_current_node(&cur);
		visit(text, n, ts_node_type(n), up, nup, arg);
		if (ts_tree_cursor_goto_first_child(&cur)) {
			if (nup == cap) {
				cap = cap > 0 ? cap * 2 : 64;
				up = xreallocarray(up, cap, sizeof *up);
			}
			up[nup++] = n;
			continue;
		}
		while (!ts_tree_cursor_goto_next_sibling(&cur)) {
			if (!ts_tree_cursor_goto_parent(&cur))
				goto done;
			nup--;
		}
	}
done:
	visit(text, (TSNode){ 0 }, NULL, NULL, 0, arg);
	free(up);
	ts_tree_cursor_delete(&cur);
	ts_tree_delete(tree);
	return 0;
}

int
syntax_parse(struct syntax **out, const char *lang, const char *text,
    size_t len, struct err *err)
{
	struct syn_lang *l = syn_lang_find(lang);
	struct syntax *s;
	unsigned char *paint = NULL;
	TSParser *parser;
	TSTree *tree;
	size_t i;

	if (len >= UINT32_MAX)
		return err_set(err, "%s: text too large (%zu bytes)",
		    lang != NULL ? lang : "syntax", len);
	if (l != NULL && l->state == QUERY_FAILED)
		return err_set(err, "%s", l->msg);

	s = xcalloc(1, sizeof *s);
	for (i = 0; i < len; i++)
		if (text[i] == '\n')
			s->nlines++;
	if (len > 0 && text[len - 1] != '\n')
		s->nlines++;

	if (l != NULL) {
		parser = ts_parser_new();
		if (!ts_parser_set_language(parser, l->fn())) {
			ts_parser_delete(parser);
			free(s);
			return err_set(err, "grammar '%s': ABI %u rejected by "
			    "the runtime", l->name,
			    ts_language_version(l->fn()));
		}
		tree = ts_parser_parse_string(parser, NULL, text,
		    (uint32_t)len);
		ts_parser_delete(parser);
		if (tree != NULL) {
			s->has_error = ts_node_has_error(
			    ts_tree_root_node(tree));
			if (l->state == QUERY_OK) {
				paint = xcalloc(len + 1, 1);
				syn_paint_captures(l, tree, text, paint);
				syn_paint_errors(ts_tree_root_node(tree),
				    text, paint);
			}
			ts_tree_delete(tree);
		}
	}
	syn_split_lines(s, text, len, paint);
	free(paint);
	*out = s;
	return 0;
}

int
syntax_tokens(const char *lang, const char *text, size_t len, char **out,
    size_t *outlen, char **ids, size_t *idslen, struct err *err)
{
	struct syn_lang *l = syn_lang_find(lang);
	struct buf b = BUF_INIT, c = BUF_INIT;
	char **names = NULL;
	size_t nnames = 0;
	TSTree *tree;
	TSTreeCursor cur;

	*out = NULL;
	if (outlen != NULL)
		*outlen = 0;
	if (ids != NULL)
		*ids = NULL;
	if (l == NULL)
		return 0;
	if (syntax_tree(l->fn(), l->name, lang, text, len, &tree, err) < 0)
		return -1;
	cur = ts_tree_cursor_new(ts_tree_root_node(tree));
	for (;;) {
		TSNode node = ts_tree_cursor_current_node(&cur);
		const char *type = ts_node_type(node);
		int comment = type != NULL && strstr(type, "comment") != NULL;

		if (!comment && ts_node_child_count(node) == 0) {
			uint32_t a = ts_node_start_byte(node);
			uint32_t e = ts_node_end_byte(node);

			/* a leaf may hold blanks (a string): keep them */
			if (e > a && e <= len && b.len > 0) {
				buf_addc(&b, ' ');
				buf_addc(&c, ' ');
			}
			if (e > a && e <= len)
				buf_add(&b, text + a, e - a);
			if (e > a && e <= len && ids != NULL &&
			    strstr(type, "identifier") != NULL) {
				size_t k;

				for (k = 0; k < nnames && (strlen(names[k]) !=
				    e - a || memcmp(names[k], text + a, e - a) !=
				    0); k++)
					;
				if (k == nnames) {
					names = xreallocarray(names, nnames + 1,
					    sizeof *names);
					names[nnames++] = xstrndup(text + a,
					    e - a);
				}
				buf_printf(&c, "$%zu", k);
			} else if (e > a && e <= len && ids != NULL) {
				buf_add(&c, text + a, e - a);
			}
		}
		if (!syntax_walk_next(&cur, !comment))
			break;
	}
	ts_tree_cursor_delete(&cur);
	ts_tree_delete(tree);
	for (size_t k = 0; k < nnames; k++)
		free(names[k]);
	free(names);
	buf_adds(&b, "");
	*out = buf_detach(&b, outlen);
	buf_adds(&c, "");
	if (ids != NULL)
		*ids = buf_detach(&c, idslen);
	else
		buf_release(&c);
	return 1;
}

void
syntax_free(struct syntax *s)
{
	if (s == NULL)
		return;
	free(s->line_first);
	free(s->spans);
	free(s);
}

size_t
syntax_nlines(const struct syntax *s)
{
	return s != NULL ? s->nlines : 0;
}

const struct syn_span *
syntax_line_spans(const struct syntax *s, size_t line, size_t *n)
{
	*n = 0;
	if (s == NULL || line >= s->nlines)
		return NULL;
	*n = s->line_first[line + 1] - s->line_first[line];
	return *n > 0 ? &s->spans[s->line_first[line]] : NULL;
}

int
syntax_has_error(const struct syntax *s)
{
	return s != NULL && s->has_error;
}

const char *
syntax_group_name(enum syn_group g)
{
	if ((int)g < 0 || g >= SYN_NGROUPS)
		return "none";
	return syn_group_names[g];
}

/* --- Verilog structure (syntax_verilog_scan) ------------------------- */

int
syntax_is(TSNode n, const char *type)
{
	return !ts_node_is_null(n) && strcmp(ts_node_type(n), type) == 0;
}

static char *
vs_text(const char *src, TSNode n)
{
	uint32_t s = ts_node_start_byte(n), e = ts_node_end_byte(n);
	size_t k = 0;
	char *out;

	if (e - s > 255)
		e = s + 255;
	out = xmalloc((size_t)(e - s) + 1);
	/* An escaped identifier is its characters without the backslash
	 * and the blank that ends it. */
	for (uint32_t i = s; i < e; i++)
		if (!(i == s && src[i] == '\\') && src[i] != ' ' &&
		    src[i] != '\t' && src[i] != '\n' && src[i] != '\r')
			out[k++] = src[i];
	out[k] = '\0';
	return out;
}

/* The first named child of n of the given type, or a null node. */
TSNode
syntax_child(TSNode n, const char *type)
{
	uint32_t k = ts_node_is_null(n) ? 0 : ts_node_named_child_count(n);

	for (uint32_t i = 0; i < k; i++) {
		TSNode c = ts_node_named_child(n, i);

		if (syntax_is(c, type))
			return c;
	}
	return (TSNode){ 0 };
}

/* The first identifier at or below n (depth-first, bounded). */
static TSNode
vs_ident(TSNode n, int depth)
{
	if (ts_node_is_null(n) || depth > 8)
		return (TSNode){ 0 };
	if (syntax_is(n, "simple_identifier") || syntax_is(n, "escaped_identifier"))
		return n;
	for (uint32_t i = 0; i < ts_node_named_child_count(n); i++) {
		TSNode r = vs_ident(ts_node_named_child(n, i), depth + 1);

		if (!ts_node_is_null(r))
			return r;
	}
	return (TSNode){ 0 };
}

/*
 * Is the identifier whose ancestors are up[0..nup-1] the name a
 * declaration introduces, as opposed to a use?  Generous: a name counted as declared only makes the out-of-module
 * check (verilog.c) accept a reference rooted at it in the same module.
 */
static int
vs_declares(const TSNode *up, size_t nup)
{
	static const char *const parents[] = {
		"variable_decl_assignment", "net_decl_assignment",
		"seq_block", "par_block", "type_declaration",
		"list_of_port_identifiers", "list_of_variable_identifiers",
		"list_of_variable_port_identifiers", "param_assignment",
		"specparam_assignment", "function_body_declaration",
		"task_body_declaration", "interface_port_declaration",
		"list_of_interface_identifiers", "tf_port_item",
		"class_declaration", "function_body_declaration",
		"genvar_identifier", "generate_block_identifier",
		"instance_identifier", "interface_instance_identifier",
		"function_identifier", "task_identifier", "block_identifier",
		"enum_name_declaration", "port", "port_reference",
		"ansi_port_declaration", "local_parameter_declaration",
		"parameter_declaration", "modport_item",
		"tf_port_declaration", "list_of_tf_variable_identifiers",
		"for_variable_declaration", "list_of_genvar_identifiers",
		"udp_declaration", "net_port_type1", "type_identifier",
		"specparam_declaration", "event_declaration",
		"list_of_net_identifiers",
	};
	static const char *const uses[] = {
		"member_identifier", "method_identifier",
		"checker_identifier", "package_identifier",
		"text_macro_identifier", "system_tf_identifier",
		"tf_identifier", "class_identifier", "module_identifier",
		"interface_identifier", "program_identifier",
	};
	TSNode p, g = { 0 };
	const char *pt;

	if (nup == 0)
		return 0;
	p = up[nup - 1];
	if (nup >= 2)
		g = up[nup - 2];
	pt = ts_node_type(p);
	if (strcmp(pt, "port_identifier") == 0)
		return !syntax_is(g, "named_port_connection");
	if (strcmp(pt, "parameter_identifier") == 0)
		return !syntax_is(g, "constant_primary") && !syntax_is(g, "primary");
	for (size_t i = 0; i < sizeof parents / sizeof parents[0]; i++)
		if (strcmp(pt, parents[i]) == 0)
			return 1;
	/* enum_identifier, specparam_identifier ...: the grammar names a
	 * declared name NAME_identifier; these few are uses. */
	for (size_t i = 0; i < sizeof uses / sizeof uses[0]; i++)
		if (strcmp(pt, uses[i]) == 0)
			return 0;
	return strlen(pt) > 11 && strcmp(pt + strlen(pt) - 11,
	    "_identifier") == 0;
}

/* Is the identifier id the root of a value or target: the first child
 * of an expression's primary or of an assignment's left side? */
static int
vs_used(TSNode id, const TSNode *up, size_t nup)
{
	TSNode p;

	if (nup == 0)
		return 0;
	p = up[nup - 1];
	if (!syntax_is(p, "primary") && !syntax_is(p, "variable_lvalue") &&
	    !syntax_is(p, "net_lvalue"))
		return 0;
	return ts_node_eq(ts_node_named_child(p, 0), id);
}

static void
vs_add_name(struct syn_verilog *v, int module, char *type, char *name,
    int line)
{
	v->names = xrealloc(v->names, (v->nnames + 1) * sizeof *v->names);
	v->names[v->nnames].module = module;
	v->names[v->nnames].type = type;
	v->names[v->nnames].name = name;
	v->names[v->nnames].line = line;
	v->nnames++;
}

/* The instances of a module_instantiation (or checker_instantiation, as
 * the grammar reads "stub good1();", or udp_instantiation, as it reads
 * an instance whose ports connect by position: "alu uut(a, b, r);")
 * node n.  A primitive's instance and a module's look alike; which one
 * it is, only the declarations tell. */
static void
vs_instances(struct syn_verilog *v, int module, const char *src, TSNode n)
{
	TSNode type = ts_node_named_child(n, 0);

	if (syntax_is(type, "checker_identifier"))
		type = vs_ident(type, 0);
	if (!syntax_is(type, "simple_identifier") &&
	    !syntax_is(type, "escaped_identifier"))
		return;
	for (uint32_t i = 0; i < ts_node_named_child_count(n); i++) {
		TSNode ch = ts_node_named_child(n, i), ni;

		if (syntax_is(ch, "hierarchical_instance") ||
		    syntax_is(ch, "udp_instance"))
			ni = syntax_child(ch, "name_of_instance");
		else if (syntax_is(ch, "name_of_instance"))
			ni = ch;
		else
			continue;
		ni = vs_ident(ni, 0);
		vs_add_name(v, module, vs_text(src, type), ts_node_is_null(ni) ?
		    xstrdup("") : vs_text(src, ni), (int)ts_node_start_point(
		    n).row + 1);
	}
}

/* A node of syntax_verilog_scan()'s walk; arg is its struct syn_verilog. */
static void
vs_node(const char *text, TSNode n, const char *type, const TSNode *up,
    size_t nup, void *arg)
{
	struct syn_verilog *out = arg;
	int module;

	if (type == NULL)
		return;
	/* the module a node is in: the last one met, until a node starts
	 * at its end or after (starts only grow in a pre-order walk) */
	module = out->nmodules > 0 && ts_node_start_byte(n) <
	    out->modules[out->nmodules - 1].end ? (int)out->nmodules - 1 : -1;
	if (strcmp(type, "module_declaration") == 0) {
		TSNode h = syntax_child(n, "module_header"), id;
		struct syn_vmodule *m;

		id = ts_node_is_null(h) ? h : vs_ident(
		    syntax_child(h, "simple_identifier"), 0);
		if (ts_node_is_null(id) && !ts_node_is_null(h))
			id = syntax_child(h, "escaped_identifier");
		out->modules = xrealloc(out->modules,
		    (out->nmodules + 1) * sizeof *out->modules);
		m = &out->modules[out->nmodules];
		m->name = ts_node_is_null(id) ? xstrdup("") :
		    vs_text(text, id);
		m->start = ts_node_start_byte(n);
		m->end = ts_node_end_byte(n);
		m->line = (int)ts_node_start_point(n).row + 1;
		out->nmodules++;
	} else if (strcmp(type, "module_instantiation") == 0 ||
	    strcmp(type, "checker_instantiation") == 0 ||
	    strcmp(type, "udp_instantiation") == 0) {
		vs_instances(out, module, text, n);
	} else if ((strcmp(type, "simple_identifier") == 0 ||
	    strcmp(type, "escaped_identifier") == 0) &&
	    vs_declares(up, nup)) {
		vs_add_name(out, module, NULL, vs_text(text, n),
		    (int)ts_node_start_point(n).row + 1);
	} else if (strcmp(type, "simple_identifier") == 0 &&
	    module >= 0 && vs_used(n, up, nup)) {
		out->uses = xreallocarray(out->uses, out->nuses + 1,
		    sizeof *out->uses);
		out->uses[out->nuses].module = module;
		out->uses[out->nuses].type = NULL;
		out->uses[out->nuses].name = vs_text(text, n);
		out->uses[out->nuses].line =
		    (int)ts_node_start_point(n).row + 1;
		out->nuses++;
	}
}

int
syntax_verilog_scan(const char *text, size_t len, struct syn_verilog *out,
    struct err *err)
{
	memset(out, 0, sizeof *out);
	return syntax_verilog_walk(text, len, &out->has_error, vs_node, out,
	    err);
}

void
syntax_verilog_release(struct syn_verilog *v)
{
	for (size_t i = 0; i < v->nmodules; i++)
		free(v->modules[i].name);
	for (size_t i = 0; i < v->nnames; i++) {
		free(v->names[i].type);
		free(v->names[i].name);
	}
	for (size_t i = 0; i < v->nuses; i++)
		free(v->uses[i].name);
	free(v->modules);
	free(v->names);
	free(v->uses);
	memset(v, 0, sizeof *v);
}
