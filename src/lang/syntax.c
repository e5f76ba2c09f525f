/*
 * syntax.c - tree-sitter parsing and highlighting, the only file that
 * calls ts_*.
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

#include <errno.h>
#include <limits.h>
#include <regex.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tree_sitter/api.h>

#include "base/buf.h"
#include "base/err.h"

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

/* Read a whole file into a new NUL-terminated string. */
static int
syn_read_file(const char *path, char **out, size_t *len, struct err *err)
{
	FILE *f;
	char *p = NULL;
	size_t n = 0, cap = 0, got;

	f = fopen(path, "rb");
	if (f == NULL)
		return err_set(err, "%s: %s", path, strerror(errno));
	for (;;) {
		if (cap - n < 4096) {
			cap = cap != 0 ? cap * 2 : 8192;
			p = xrealloc(p, cap);
		}
		got = fread(p + n, 1, cap - n - 1, f);
		n += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		free(p);
		fclose(f);
		return err_set(err, "%s: read error", path);
	}
	fclose(f);
	p[n] = '\0';
	*out = p;
	*len = n;
	return 0;
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
	if (syn_read_file(path, &src, &n, err) != 0)
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
	TSParser *parser;
	TSTree *tree;
	TSTreeCursor cur;

	*out = NULL;
	if (outlen != NULL)
		*outlen = 0;
	if (ids != NULL)
		*ids = NULL;
	if (l == NULL)
		return 0;
	if (len >= UINT32_MAX)
		return err_set(err, "%s: text too large (%zu bytes)", lang, len);
	parser = ts_parser_new();
	if (!ts_parser_set_language(parser, l->fn())) {
		ts_parser_delete(parser);
		return err_set(err, "grammar '%s': ABI %u rejected by the"
		    " runtime", l->name, ts_language_version(l->fn()));
	}
	tree = ts_parser_parse_string(parser, NULL, text, (uint32_t)len);
	ts_parser_delete(parser);
	if (tree == NULL)
		return err_set(err, "%s: the parser gave no tree", lang);
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
		if (!comment && ts_tree_cursor_goto_first_child(&cur))
			continue;
		while (!ts_tree_cursor_goto_next_sibling(&cur))
			if (!ts_tree_cursor_goto_parent(&cur))
				goto done;
	}
done:
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

/* --- CUDA launch limits (syntax.h) ----------------------------------- */

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
	const struct syn_launch_limits *lim;
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
	struct syn_launch_issue	*issues;
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

/* The latest name before pos in scope, else at file scope; NULL: none. */
static const struct lc_name *
lc_lookup(const struct lc *c, const char *s, size_t len, int scope,
    uint32_t pos)
{
	const struct lc_name *file = NULL;

	for (size_t i = c->nnames; i-- > 0; ) {
		const struct lc_name *e = &c->names[i];

		if (e->pos >= pos || pos >= e->end || strlen(e->name) != len ||
		    memcmp(e->name, s, len) != 0)
			continue;
		if (scope != 0 && e->scope == scope)
			return e;
		if (e->scope == 0 && file == NULL)
			file = e;
	}
	return file;
}

static const struct lc_dim3 *
lc_lookup_dim3(const struct lc *c, const char *s, size_t len, int scope,
    uint32_t pos)
{
	const struct lc_dim3 *file = NULL;

	for (size_t i = c->ndims; i-- > 0; ) {
		const struct lc_dim3 *e = &c->dims[i];

		if (e->pos >= pos || pos >= e->end || strlen(e->name) != len ||
		    memcmp(e->name, s, len) != 0)
			continue;
		if (scope != 0 && e->scope == scope)
			return e;
		if (e->scope == 0 && file == NULL)
			file = e;
	}
	return file;
}

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
		if (ts_tree_cursor_goto_first_child(&cur))
			continue;
		while (!ts_tree_cursor_goto_next_sibling(&cur))
			if (!ts_tree_cursor_goto_parent(&cur))
				goto out;
	}
out:
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
		if (ts_tree_cursor_goto_first_child(&cur))
			continue;
		while (!ts_tree_cursor_goto_next_sibling(&cur))
			if (!ts_tree_cursor_goto_parent(&cur))
				goto out;
	}
out:
	ts_tree_cursor_delete(&cur);
}

/* --- issues ----------------------------------------------------------- */

static void lc_issue(struct lc *, enum syn_launch_kind, int, int, long long,
    long long, const char *, ...) __attribute__((format(printf, 7, 8)));

static void
lc_issue(struct lc *c, enum syn_launch_kind kind, int line, int launch_line,
    long long value, long long limit, const char *fmt, ...)
{
	struct syn_launch_issue *is;
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
	const struct syn_launch_limits *lim = c->lim;

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
		lc_issue(c, SYN_LAUNCH_GRID, g[i].line, line, g[i].val.v, max,
		    "gridDim.%c = %s is over the limit of %lld in the launch"
		    " of %s at line %d", xyz[i], desc, max, kname, line);
	}
	for (int i = 0; i < 3; i++) {
		long long max = i == 2 ? lim->block_z : lim->block_xy;

		if (!b[i].val.known || b[i].val.v <= max)
			continue;
		over = 1;
		lc_dim_desc(&b[i], desc, sizeof desc);
		lc_issue(c, SYN_LAUNCH_BLOCK, b[i].line, line, b[i].val.v, max,
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
			lc_issue(c, SYN_LAUNCH_THREADS, at, line, t,
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
			lc_issue(c, SYN_LAUNCH_STATIC_SMEM, c->kline, 0,
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
	const struct syn_launch_limits *lim = c->lim;

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
			lc_issue(c, SYN_LAUNCH_DYN_SMEM, l->line,
			    l->launch_line, total, lim->smem_optin, "dynamic"
			    " shared memory %s%s in the launch of %s at line %d"
			    " is over the target's limit of %lld bytes per"
			    " block", what, part, kname, l->launch_line,
			    lim->smem_optin);
		else if (mine && !optin && total > lim->smem_static)
			lc_issue(c, SYN_LAUNCH_DYN_SMEM, l->line,
			    l->launch_line, total, lim->smem_static, "dynamic"
			    " shared memory %s%s in the launch of %s at line %d"
			    " is over %lld bytes without cudaFuncSetAttribute(%s,"
			    " cudaFuncAttributeMaxDynamicSharedMemorySize, ...)",
			    what, part, kname, l->launch_line,
			    lim->smem_static, kname);
		else if (mine && optin_known && !optin_any &&
		    l->bytes.v > optin_bytes)
			lc_issue(c, SYN_LAUNCH_DYN_SMEM, l->line,
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

int
syntax_cuda_launch_check(const char *text, size_t len,
    const struct syn_launch_limits *lim, struct syn_launch_issue **out,
    size_t *n, struct err *err)
{
	struct lc c;
	TSParser *parser;
	TSTree *tree;
	TSTreeCursor cur;

	*out = NULL;
	*n = 0;
	if (len >= UINT32_MAX)
		return err_set(err, "cuda: text too large (%zu bytes)", len);
	parser = ts_parser_new();
	if (!ts_parser_set_language(parser, tree_sitter_cuda())) {
		ts_parser_delete(parser);
		return err_set(err, "grammar 'cuda': ABI %u rejected by the"
		    " runtime", ts_language_version(tree_sitter_cuda()));
	}
	tree = ts_parser_parse_string(parser, NULL, text, (uint32_t)len);
	ts_parser_delete(parser);
	if (tree == NULL)
		return err_set(err, "cuda: the parser gave no tree");
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
	*out = c.issues;
	*n = c.nissues;
	c.issues = NULL;
	lc_release(&c);
	return 0;
}

/* --- Verilog structure (syntax_verilog_scan) ------------------------- */

static int
vs_is(TSNode n, const char *type)
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
static TSNode
vs_child(TSNode n, const char *type)
{
	uint32_t k = ts_node_named_child_count(n);

	for (uint32_t i = 0; i < k; i++) {
		TSNode ch = ts_node_named_child(n, i);

		if (vs_is(ch, type))
			return ch;
	}
	return (TSNode){ 0 };
}

/* The first identifier at or below n (depth-first, bounded). */
static TSNode
vs_ident(TSNode n, int depth)
{
	if (ts_node_is_null(n) || depth > 8)
		return (TSNode){ 0 };
	if (vs_is(n, "simple_identifier") || vs_is(n, "escaped_identifier"))
		return n;
	for (uint32_t i = 0; i < ts_node_named_child_count(n); i++) {
		TSNode r = vs_ident(ts_node_named_child(n, i), depth + 1);

		if (!ts_node_is_null(r))
			return r;
	}
	return (TSNode){ 0 };
}

/*
 * Is the identifier id the name a declaration introduces, as opposed to a
 * use?  Generous: a name counted as declared only makes the out-of-module
 * check (verilog.c) accept a reference rooted at it in the same module.
 */
static int
vs_declares(TSNode id)
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
	TSNode p = ts_node_parent(id), g;
	const char *pt;

	if (ts_node_is_null(p))
		return 0;
	pt = ts_node_type(p);
	g = ts_node_parent(p);
	if (strcmp(pt, "port_identifier") == 0)
		return !vs_is(g, "named_port_connection");
	if (strcmp(pt, "parameter_identifier") == 0)
		return !vs_is(g, "constant_primary") && !vs_is(g, "primary");
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
vs_used(TSNode id)
{
	TSNode p = ts_node_parent(id);

	if (!vs_is(p, "primary") && !vs_is(p, "variable_lvalue") &&
	    !vs_is(p, "net_lvalue"))
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
 * the grammar reads "stub good1();") node n. */
static void
vs_instances(struct syn_verilog *v, int module, const char *src, TSNode n)
{
	TSNode type = ts_node_named_child(n, 0);

	if (vs_is(type, "checker_identifier"))
		type = vs_ident(type, 0);
	if (!vs_is(type, "simple_identifier") &&
	    !vs_is(type, "escaped_identifier"))
		return;
	for (uint32_t i = 0; i < ts_node_named_child_count(n); i++) {
		TSNode ch = ts_node_named_child(n, i), ni;

		if (vs_is(ch, "hierarchical_instance"))
			ni = vs_child(ch, "name_of_instance");
		else if (vs_is(ch, "name_of_instance"))
			ni = ch;
		else
			continue;
		ni = vs_ident(ni, 0);
		vs_add_name(v, module, vs_text(src, type), ts_node_is_null(ni) ?
		    xstrdup("") : vs_text(src, ni), (int)ts_node_start_point(
		    n).row + 1);
	}
}

int
syntax_verilog_scan(const char *text, size_t len, struct syn_verilog *out,
    struct err *err)
{
	TSParser *parser;
	TSTree *tree;
	TSTreeCursor cur;
	int module = -1;

	memset(out, 0, sizeof *out);
	if (len >= UINT32_MAX)
		return err_set(err, "verilog: text too large (%zu bytes)", len);
	parser = ts_parser_new();
	if (!ts_parser_set_language(parser, tree_sitter_verilog())) {
		ts_parser_delete(parser);
		return err_set(err, "grammar 'verilog': ABI %u rejected by the"
		    " runtime", ts_language_version(tree_sitter_verilog()));
	}
	tree = ts_parser_parse_string(parser, NULL, text, (uint32_t)len);
	ts_parser_delete(parser);
	if (tree == NULL)
		return err_set(err, "verilog: the parser gave no tree");
	out->has_error = ts_node_has_error(ts_tree_root_node(tree));
	cur = ts_tree_cursor_new(ts_tree_root_node(tree));
	for (;;) {
		TSNode n = ts_tree_cursor_current_node(&cur);
		const char *type = ts_node_type(n);

		if (module >= 0 && ts_node_start_byte(n) >=
		    out->modules[module].end)
			module = -1;
		if (strcmp(type, "module_declaration") == 0) {
			TSNode h = vs_child(n, "module_header"), id;
			struct syn_vmodule *m;

			id = ts_node_is_null(h) ? h : vs_ident(
			    vs_child(h, "simple_identifier"), 0);
			if (ts_node_is_null(id) && !ts_node_is_null(h))
				id = vs_child(h, "escaped_identifier");
			out->modules = xrealloc(out->modules,
			    (out->nmodules + 1) * sizeof *out->modules);
			m = &out->modules[out->nmodules];
			m->name = ts_node_is_null(id) ? xstrdup("") :
			    vs_text(text, id);
			m->start = ts_node_start_byte(n);
			m->end = ts_node_end_byte(n);
			m->line = (int)ts_node_start_point(n).row + 1;
			module = (int)out->nmodules++;
		} else if (strcmp(type, "module_instantiation") == 0 ||
		    strcmp(type, "checker_instantiation") == 0) {
			vs_instances(out, module, text, n);
		} else if ((strcmp(type, "simple_identifier") == 0 ||
		    strcmp(type, "escaped_identifier") == 0) &&
		    vs_declares(n)) {
			vs_add_name(out, module, NULL, vs_text(text, n),
			    (int)ts_node_start_point(n).row + 1);
		} else if (strcmp(type, "simple_identifier") == 0 &&
		    module >= 0 && vs_used(n)) {
			out->uses = xreallocarray(out->uses, out->nuses + 1,
			    sizeof *out->uses);
			out->uses[out->nuses].module = module;
			out->uses[out->nuses].type = NULL;
			out->uses[out->nuses].name = vs_text(text, n);
			out->uses[out->nuses].line =
			    (int)ts_node_start_point(n).row + 1;
			out->nuses++;
		}
		if (ts_tree_cursor_goto_first_child(&cur))
			continue;
		while (!ts_tree_cursor_goto_next_sibling(&cur))
			if (!ts_tree_cursor_goto_parent(&cur))
				goto done;
	}
done:
	ts_tree_cursor_delete(&cur);
	ts_tree_delete(tree);
	return 0;
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
