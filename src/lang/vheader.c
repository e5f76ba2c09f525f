/*
 * vheader.c - module interfaces of Verilog read with tree-sitter
 * (vheader.h).
 */
#include "lang/vheader.h"

#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <tree_sitter/api.h>

#include "base/buf.h"
#include "base/err.h"
#include "lang/parse.h"

#define VH_EVAL_DEPTH 32	/* nesting of parentheses and parameters */

static char *
text_of(const char *text, TSNode n)
{
	uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);

	return xstrndup(text + a, b - a);
}

static int
line_of(TSNode n)
{
	return (int)ts_node_start_point(n).row + 1;
}

/* The first node of that type under n (n itself included), pre-order;
 * a null node when none. */
static TSNode
find(TSNode n, const char *type)
{
	TSTreeCursor cur;
	TSNode hit = { 0 };

	if (ts_node_is_null(n))
		return n;
	cur = ts_tree_cursor_new(n);
	do {
		TSNode c = ts_tree_cursor_current_node(&cur);

		if (syntax_is(c, type)) {
			hit = c;
			break;
		}
	} while (syntax_walk_next(&cur, 1));
	ts_tree_cursor_delete(&cur);
	return hit;
}

/* The texts of every node of that type under n, joined with no space
 * ("[3:0][7:0]"); NULL when there is none. */
static char *
joined(const char *text, TSNode n, const char *type)
{
	struct buf b = BUF_INIT;
	TSTreeCursor cur;

	if (ts_node_is_null(n))
		return NULL;
	cur = ts_tree_cursor_new(n);
	do {
		TSNode c = ts_tree_cursor_current_node(&cur);

		if (syntax_is(c, type)) {
			uint32_t a = ts_node_start_byte(c);

			buf_add(&b, text + a, ts_node_end_byte(c) - a);
		}
	} while (syntax_walk_next(&cur,
	    !syntax_is(ts_tree_cursor_current_node(&cur), type)));
	ts_tree_cursor_delete(&cur);
	return b.len > 0 ? buf_detach(&b, NULL) : (buf_release(&b), NULL);
}

/* Does the text of n hold the keyword word? */
static int
has_word(const char *text, TSNode n, const char *word)
{
	uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
	size_t l = strlen(word);

	for (uint32_t i = a; i + l <= b; i++)
		if (memcmp(text + i, word, l) == 0 && (i == a ||
		    !(isalnum((unsigned char)text[i - 1]) || text[i - 1] == '_'))
		    && (i + l == b || !(isalnum((unsigned char)text[i + l]) ||
		    text[i + l] == '_')))
			return 1;
	return 0;
}

/* --- the evaluator ----------------------------------------------------- */

struct ev {
	const char *p;
	const struct vh_module *m;
	size_t	 nparams;	/* parameters it may name */
	int	 depth, ok;
};

static void
ev_space(struct ev *e)
{
	while (isspace((unsigned char)*e->p))
		e->p++;
}

static long ev_expr(struct ev *e);

static long
ev_number(struct ev *e)
{
	char *end;
	long v = 0;
	int base = 10;
	const char *q = e->p;

	while (isdigit((unsigned char)*q) || *q == '_')
		q++;
	if (*q == '\'') {	/* 4'd11, 'h10 */
		q++;
		if (*q == 's' || *q == 'S')
			q++;
		switch (tolower((unsigned char)*q)) {
		case 'b': base = 2; break;
		case 'o': base = 8; break;
		case 'd': base = 10; break;
		case 'h': base = 16; break;
		default: e->ok = 0; return 0;
		}
		e->p = q + 1;
	}
	ev_space(e);
	{
		char digits[64];
		size_t n = 0;

		while ((isxdigit((unsigned char)*e->p) || *e->p == '_') &&
		    n + 1 < sizeof digits) {
			if (*e->p != '_')
				digits[n++] = *e->p;
			e->p++;
		}
		digits[n] = '\0';
		if (n == 0 || n >= 18) {
			e->ok = 0;
			return 0;
		}
		v = strtol(digits, &end, base);
		if (*end != '\0')
			e->ok = 0;
	}
	return v;
}

static long
ev_name(struct ev *e)
{
	const char *a = e->p;
	size_t l;

	while (isalnum((unsigned char)*e->p) || *e->p == '_' || *e->p == '$')
		e->p++;
	l = (size_t)(e->p - a);
	if (l == 6 && memcmp(a, "$clog2", 6) == 0) {
		long v, r = 0;

		ev_space(e);
		if (*e->p != '(') {
			e->ok = 0;
			return 0;
		}
		e->p++;
		v = ev_expr(e);
		ev_space(e);
		if (*e->p++ != ')')
			e->ok = 0;
		while (r < 63 && (1L << r) < v)
			r++;
		return r;
	}
	for (size_t i = e->nparams; i-- > 0; ) {
		const struct vh_param *pa = &e->m->params[i];
		struct ev sub;
		long v;

		if (strlen(pa->name) != l || memcmp(pa->name, a, l) != 0)
			continue;
		if (pa->value == NULL || e->depth >= VH_EVAL_DEPTH)
			break;
		sub = (struct ev){ pa->value, e->m, i, e->depth + 1, 1 };
		v = ev_expr(&sub);
		ev_space(&sub);
		if (!sub.ok || *sub.p != '\0')
			break;
		return v;
	}
	e->ok = 0;
	return 0;
}

static long
ev_unary(struct ev *e)
{
	long v;

	ev_space(e);
	if (!e->ok || ++e->depth > VH_EVAL_DEPTH) {
		e->ok = 0;
		return 0;
	}
	if (*e->p == '-') {
		e->p++;
		v = -ev_unary(e);
	} else if (*e->p == '+') {
		e->p++;
		v = ev_unary(e);
	} else if (*e->p == '(') {
		e->p++;
		v = ev_expr(e);
		ev_space(e);
		if (*e->p++ != ')')
			e->ok = 0;
	} else if (isdigit((unsigned char)*e->p) || *e->p == '\'') {
		v = ev_number(e);
	} else if (isalpha((unsigned char)*e->p) || *e->p == '_' ||
	    *e->p == '$') {
		v = ev_name(e);
	} else {
		e->ok = 0;
		v = 0;
	}
	e->depth--;
	return v;
}

static int
ev_small(long v)
{
	return v > -(1L << 40) && v < (1L << 40);
}

/*
 * The binary operators by precedence, loosest first; the operands of a
 * level's operators are expressions of the next level, the last level's
 * unary ones.
 */
static const char *const ev_ops[][4] = {
	{ "<<", ">>", NULL },
	{ "+", "-", NULL },
	{ "*", "/", "%", NULL }
};
#define EV_LEVELS	(int)(sizeof ev_ops / sizeof ev_ops[0])

/* The operator of level at e->p (borrowed), or NULL. */
static const char *
ev_op(const struct ev *e, int level)
{
	for (int i = 0; ev_ops[level][i] != NULL; i++)
		if (strncmp(e->p, ev_ops[level][i],
		    strlen(ev_ops[level][i])) == 0)
			return ev_ops[level][i];
	return NULL;
}

/* v op w; 0 with e->ok cleared when an operand is out of range (beyond
 * 2^40, a shift by more than 40 or less than 0) or w divides by 0. */
static long
ev_apply(struct ev *e, char op, long v, long w)
{
	int shift = op == '<' || op == '>';

	if (!e->ok || !ev_small(v) || (shift ? w < 0 || w > 40 :
	    !ev_small(w)) || ((op == '/' || op == '%') && w == 0)) {
		e->ok = 0;
		return 0;
	}
	switch (op) {
	case '<':
		return v << w;
	case '>':
		return v >> w;
	case '+':
		return v + w;
	case '-':
		return v - w;
	case '*':
		return v * w;
	case '/':
		return v / w;
	default:
		return v % w;
	}
}

/* An expression of operators of level or tighter. */
static long
ev_binary(struct ev *e, int level)
{
	long v = level + 1 < EV_LEVELS ? ev_binary(e, level + 1) :
	    ev_unary(e);

	for (;;) {
		const char *op;
		long w;

		ev_space(e);
		if ((op = ev_op(e, level)) == NULL)
			return v;
		e->p += strlen(op);
		w = level + 1 < EV_LEVELS ? ev_binary(e, level + 1) :
		    ev_unary(e);
		v = ev_apply(e, *op, v, w);
		if (!e->ok)
			return 0;
	}
}

static long
ev_expr(struct ev *e)
{
	return ev_binary(e, 0);
}

int
vh_eval(const struct vh_module *m, const char *expr, long *v)
{
	struct ev e = { expr, m, m->nparams, 0, 1 };

	*v = ev_expr(&e);
	ev_space(&e);
	return e.ok && *e.p == '\0';
}

/* The bits of the packed dimensions range ("[W-1:0][3:0]"), 0 when one
 * does not evaluate. */
static long
range_width(const struct vh_module *m, const char *range)
{
	long width = 1;
	const char *p = range;

	while (*p == '[') {
		const char *close = strchr(p, ']'), *colon;
		char *a, *b;
		long va, vb;
		int ok;

		if (close == NULL)
			return 0;
		colon = memchr(p, ':', (size_t)(close - p));
		if (colon == NULL)	/* [N]: N bits */
			colon = p;
		a = colon == p ? xstrdup("0") :
		    xstrndup(p + 1, (size_t)(colon - p - 1));
		b = colon == p ? xasprintf("(%.*s) - 1", (int)(close - p - 1),
		    p + 1) : xstrndup(colon + 1, (size_t)(close - colon - 1));
		ok = vh_eval(m, a, &va) && vh_eval(m, b, &vb);
		free(a);
		free(b);
		if (!ok)
			return 0;
		va = va > vb ? va - vb + 1 : vb - va + 1;
		if (va > (1L << 20) || width > (1L << 20))
			return 0;
		width *= va;
		for (p = close + 1; isspace((unsigned char)*p); p++)
			;
	}
	return *p == '\0' ? width : 0;
}

/* --- the walk --------------------------------------------------------- */

static struct vh_port *
add_port(struct vh_module *m)
{
	struct vh_port *p;

	m->ports = xreallocarray(m->ports, m->nports + 1, sizeof *m->ports);
	p = &m->ports[m->nports++];
	memset(p, 0, sizeof *p);
	return p;
}

/* An ANSI port declaration n; a port without a header of its own has the
 * previous port's (IEEE 1800 23.2.2.3). */
static void
ansi_port(struct vh_module *m, const char *text, TSNode n)
{
	TSNode h = syntax_child(n, "net_port_header1"), id;
	struct vh_port *p, *prev;

	if (ts_node_is_null(h))
		h = syntax_child(n, "variable_port_header");
	id = syntax_child(n, "port_identifier");
	if (ts_node_is_null(id))
		return;
	p = add_port(m);
	prev = m->nports > 1 ? &m->ports[m->nports - 2] : NULL;
	p->name = text_of(text, id);
	p->line = line_of(n);
	p->unpacked = joined(text, n, "unpacked_dimension");
	if (ts_node_is_null(h) && prev != NULL) {
		p->dir = xstrdup(prev->dir);
		p->type = prev->type != NULL ? xstrdup(prev->type) : NULL;
		p->range = prev->range != NULL ? xstrdup(prev->range) : NULL;
		p->is_signed = prev->is_signed;
		return;
	}
	{
		TSNode d = find(h, "port_direction"), t;

		p->dir = ts_node_is_null(d) ? xstrdup(prev != NULL ?
		    prev->dir : "inout") : text_of(text, d);
		t = find(h, "net_type");
		if (ts_node_is_null(t))
			t = find(h, "integer_vector_type");
		if (ts_node_is_null(t))
			t = find(h, "integer_atom_type");
		p->type = ts_node_is_null(t) ? NULL : text_of(text, t);
		p->range = joined(text, h, "packed_dimension");
		p->is_signed = !ts_node_is_null(h) &&
		    has_word(text, h, "signed");
	}
}

/* A non-ANSI port declaration (input_declaration ...): its names. */
static void
nonansi_ports(struct vh_module *m, const char *text, TSNode n)
{
	const char *t = ts_node_type(n);
	char *dir = xstrndup(t, (size_t)(strchr(t, '_') - t));
	char *range = joined(text, n, "packed_dimension");
	TSNode ty = find(n, "integer_vector_type");
	TSTreeCursor cur = ts_tree_cursor_new(n);

	if (ts_node_is_null(ty))
		ty = find(n, "net_type");
	do {
		TSNode c = ts_tree_cursor_current_node(&cur);
		struct vh_port *p;

		if (!syntax_is(c, "port_identifier"))
			continue;
		p = add_port(m);
		p->name = text_of(text, c);
		p->dir = xstrdup(dir);
		p->type = ts_node_is_null(ty) ? NULL : text_of(text, ty);
		p->range = range != NULL ? xstrdup(range) : NULL;
		p->is_signed = has_word(text, n, "signed");
		p->line = line_of(c);
	} while (syntax_walk_next(&cur, 1));
	ts_tree_cursor_delete(&cur);
	free(range);
	free(dir);
}

/* Order m's ports as the header lists them (list_of_ports). */
static void
order_ports(struct vh_module *m, const char *text, TSNode list)
{
	size_t k = 0;
	TSTreeCursor cur = ts_tree_cursor_new(list);

	do {
		TSNode c = ts_tree_cursor_current_node(&cur);
		char *name;

		if (!syntax_is(c, "port_identifier"))
			continue;
		name = text_of(text, c);
		for (size_t i = k; i < m->nports; i++)
			if (strcmp(m->ports[i].name, name) == 0) {
				struct vh_port tmp = m->ports[k];

				m->ports[k++] = m->ports[i];
				m->ports[i] = tmp;
				break;
			}
		free(name);
	} while (syntax_walk_next(&cur, 1));
	ts_tree_cursor_delete(&cur);
}

/*
 * The default of a parameter whose name ends at byte at: the text after
 * its '=' up to the ',', ';' or ')' that ends it, trimmed; NULL when
 * there is no '='.  Read from the text, not the tree: tree-sitter-verilog
 * 1.0.0 reads a system function call there ($clog2(DEPTH)) as an error.
 */
static char *
raw_value(const char *text, uint32_t at, uint32_t len)
{
	uint32_t i = at, a;
	int depth = 0;

	while (i < len && isspace((unsigned char)text[i]))
		i++;
	if (i >= len || text[i] != '=')
		return NULL;
	for (i++; i < len && isspace((unsigned char)text[i]); i++)
		;
	for (a = i; i < len; i++) {
		char ch = text[i];

		if (ch == '(' || ch == '[' || ch == '{')
			depth++;
		else if ((ch == ')' || ch == ']' || ch == '}') && depth-- == 0)
			break;
		else if ((ch == ',' || ch == ';') && depth == 0)
			break;
	}
	while (i > a && isspace((unsigned char)text[i - 1]))
		i--;
	return i > a ? xstrndup(text + a, i - a) : NULL;
}

/* A parameter's assignment n, whose grandparent is up (null when it has
 * none): a local one under a local_parameter_declaration. */
static void
param(struct vh_module *m, const char *text, size_t len, TSNode n, TSNode up)
{
	TSNode id = syntax_child(n, "parameter_identifier");
	struct vh_param *pa;

	if (ts_node_is_null(id))
		return;
	m->params = xreallocarray(m->params, m->nparams + 1,
	    sizeof *m->params);
	pa = &m->params[m->nparams++];
	pa->name = text_of(text, id);
	pa->value = raw_value(text, ts_node_end_byte(id), (uint32_t)len);
	pa->local = syntax_is(up, "local_parameter_declaration");
	pa->line = line_of(n);
}

/* The state of vh_scan()'s walk: the module a node is in (NULL outside
 * any), where it ends, and its list_of_ports, once met. */
struct vh_walk {
	struct vh_file		*out;
	size_t			 len;
	struct vh_module	*m;
	uint32_t		 end;
	TSNode			 list;
};

static void
vh_node(const char *text, TSNode n, const char *type, const TSNode *up,
    size_t nup, void *arg)
{
	struct vh_walk *w = arg;
	struct vh_file *out = w->out;

	/* a module's ports are put in order once its last node is seen */
	if (w->m != NULL && (type == NULL || ts_node_start_byte(n) >=
	    w->end)) {
		if (!ts_node_is_null(w->list))
			order_ports(w->m, text, w->list);
		w->m = NULL;
		w->list = (TSNode){ 0 };
	}
	if (type == NULL)
		return;
	if (out->has_error && out->error_line == 0 &&
	    (ts_node_is_missing(n) || strcmp(type, "ERROR") == 0))
		out->error_line = line_of(n);
	if (strcmp(type, "module_declaration") == 0 ||
	    (strcmp(type, "module_header") == 0 && w->m == NULL &&
	    nup > 0 && syntax_is(up[nup - 1], "ERROR"))) {
		/* a module the grammar could not read whole is an
		 * ERROR node that holds its header: its ports are
		 * what follows the header in that node */
		TSNode h = syntax_is(n, "module_header") ? n :
		    syntax_child(n, "module_header");
		TSNode id = syntax_child(h, "simple_identifier");

		if (ts_node_is_null(id))
			id = syntax_child(h, "escaped_identifier");
		out->modules = xreallocarray(out->modules,
		    out->nmodules + 1, sizeof *out->modules);
		w->m = &out->modules[out->nmodules++];
		memset(w->m, 0, sizeof *w->m);
		w->m->name = ts_node_is_null(id) ? xstrdup("") :
		    text_of(text, id);
		w->m->line = line_of(n);
		if (syntax_is(n, "module_header")) {
			w->m->comment = syntax_comment_above(text,
			    up[nup - 1]);
			w->end = ts_node_end_byte(up[nup - 1]);
		} else {
			w->m->comment = syntax_comment_above(text, n);
			w->end = ts_node_end_byte(n);
		}
	} else if (w->m != NULL && strcmp(type, "ansi_port_declaration")
	    == 0) {
		ansi_port(w->m, text, n);
	} else if (w->m != NULL && (strcmp(type, "input_declaration") == 0
	    || strcmp(type, "output_declaration") == 0 ||
	    strcmp(type, "inout_declaration") == 0)) {
		nonansi_ports(w->m, text, n);
	} else if (w->m != NULL && strcmp(type, "list_of_ports") == 0 &&
	    ts_node_is_null(w->list)) {
		w->list = n;
	} else if (w->m != NULL && strcmp(type, "param_assignment") == 0) {
		param(w->m, text, w->len, n, nup >= 2 ? up[nup - 2] :
		    (TSNode){ 0 });
	}
}

int
vh_scan(const char *text, size_t len, struct vh_file *out, struct err *err)
{
	struct vh_walk w = { .out = out, .len = len };

	memset(out, 0, sizeof *out);
	if (syntax_verilog_walk(text, len, &out->has_error, vh_node, &w,
	    err) < 0)
		return -1;
	for (size_t i = 0; i < out->nmodules; i++) {
		struct vh_module *mm = &out->modules[i];

		for (size_t k = 0; k < mm->nports; k++)
			mm->ports[k].width = mm->ports[k].range == NULL ? 1 :
			    range_width(mm, mm->ports[k].range);
	}
	return 0;
}

void
vh_release(struct vh_file *f)
{
	for (size_t i = 0; i < f->nmodules; i++) {
		struct vh_module *m = &f->modules[i];

		for (size_t k = 0; k < m->nports; k++) {
			free(m->ports[k].name);
			free(m->ports[k].dir);
			free(m->ports[k].type);
			free(m->ports[k].range);
			free(m->ports[k].unpacked);
		}
		for (size_t k = 0; k < m->nparams; k++) {
			free(m->params[k].name);
			free(m->params[k].value);
		}
		free(m->ports);
		free(m->params);
		free(m->name);
		free(m->comment);
	}
	free(f->modules);
	memset(f, 0, sizeof *f);
}

const struct vh_module *
vh_find(const struct vh_file *f, const char *name)
{
	for (size_t i = 0; i < f->nmodules; i++)
		if (strcmp(f->modules[i].name, name) == 0)
			return &f->modules[i];
	return NULL;
}

/* How often name occurs in text as a whole word. */
static size_t
word_count(const char *text, const char *name)
{
	size_t n = 0, l = strlen(name);

	if (l == 0)
		return 0;
	for (const char *p = text; (p = strstr(p, name)) != NULL; p += l)
		if ((p == text || !(isalnum((unsigned char)p[-1]) ||
		    p[-1] == '_' || p[-1] == '$')) &&
		    !(isalnum((unsigned char)p[l]) || p[l] == '_' ||
		    p[l] == '$'))
			n++;
	return n;
}

const struct vh_module *
vh_top(const struct vh_file *f, const char *text)
{
	for (size_t i = 0; i < f->nmodules; i++)
		if (word_count(text, f->modules[i].name) == 1)
			return &f->modules[i];
	return f->nmodules > 0 ? &f->modules[0] : NULL;
}
