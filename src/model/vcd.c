/*
 * vcd.c - the VCD reader and writer of vcd.h: a tokeniser over the text
 * with its line numbers, the header's variables with a sorted id index,
 * and each variable's changes as fixed-width value strings.  It keeps no
 * file handle and runs nothing; the envs' judges and the waveform sheet
 * call it.
 */
#include "model/vcd.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CUT_MARK "assay: cut"

/* The tokeniser: blank-separated words, with the line of each. */
struct lex {
	const char	*p, *end;
	int		 line;
	const char	*file;
};

/* Why: the only word boundary VCD has is a blank. */
static int
is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
	    c == '\v';
}

/* The next word into *w (*n bytes); 0 at the end of the text. */
static int
lex_next(struct lex *x, const char **w, size_t *n)
{
	while (x->p < x->end && is_blank(*x->p)) {
		if (*x->p == '\n')
			x->line++;
		x->p++;
	}
	if (x->p >= x->end)
		return 0;
	*w = x->p;
	while (x->p < x->end && !is_blank(*x->p))
		x->p++;
	*n = (size_t)(x->p - *w);
	return 1;
}

static int
word_is(const char *w, size_t n, const char *s)
{
	return strlen(s) == n && memcmp(w, s, n) == 0;
}

/* An id index entry: variables sharing an id code are aliases. */
struct idx {
	const char	*id;
	size_t		 n;
	size_t		 sig;
};

struct parser {
	struct lex	 x;
	struct vcd	*v;
	struct err	*err;
	char		**ids;		/* id code of each variable (owned) */
	struct idx	*index;		/* sorted by id */
	size_t		 nindex;
	int		 sorted;
	struct buf	 scope;		/* dotted scope path */
	int64_t		 now;
	int		 timed;		/* a #TIME was seen */
};

static int
fail(struct parser *ps, const char *what, const char *w, size_t n)
{
	return err_set(ps->err, "%s:%d: %s%s%.*s%s", ps->x.file, ps->x.line,
	    what, w != NULL ? " '" : "", (int)(w != NULL ? (n > 40 ? 40 : n) :
	    0), w != NULL ? w : "", w != NULL ? "'" : "");
}

static int
idx_cmp(const void *a, const void *b)
{
	const struct idx *x = a, *y = b;
	size_t n = x->n < y->n ? x->n : y->n;
	int c = memcmp(x->id, y->id, n);

	if (c != 0)
		return c;
	if (x->n != y->n)
		return x->n < y->n ? -1 : 1;
	return x->sig < y->sig ? -1 : x->sig > y->sig;
}

/* The words up to "$end" (not included), joined by single blanks. */
static int
until_end(struct parser *ps, const char *what, struct buf *into)
{
	const char *w;
	size_t n;
	int line = ps->x.line;

	while (lex_next(&ps->x, &w, &n)) {
		if (word_is(w, n, "$end"))
			return 0;
		if (into != NULL) {
			if (into->len > 0)
				buf_addc(into, ' ');
			buf_add(into, w, n);
		}
	}
	ps->x.line = line;
	return err_set(ps->err, "%s:%d: %s without $end (the dump is"
	    " truncated)", ps->x.file, line, what);
}

/* A decimal number of at most max; -1 when w is not one. */
static int
number(const char *w, size_t n, int64_t max, int64_t *out)
{
	int64_t v = 0;

	if (n == 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (w[i] < '0' || w[i] > '9')
			return -1;
		if (v > (max - (w[i] - '0')) / 10)
			return -1;
		v = v * 10 + (w[i] - '0');
	}
	*out = v;
	return 0;
}

static int
parse_var(struct parser *ps)
{
	const char *w[4];
	size_t n[4];
	int64_t width;
	struct vcd_signal *s;
	struct buf rest = BUF_INIT;
	int line = ps->x.line;

	for (int i = 0; i < 4; i++) {
		if (!lex_next(&ps->x, &w[i], &n[i]) || word_is(w[i], n[i],
		    "$end")) {
			ps->x.line = line;
			return fail(ps, "$var needs a type, a width, an id"
			    " code and a name", NULL, 0);
		}
	}
	if (number(w[1], n[1], VCD_WIDTH_MAX, &width) < 0 || width == 0)
		return fail(ps, "bad width (1 to " "4096 bits)", w[1], n[1]);
	for (size_t i = 0; i < n[2]; i++)
		if ((unsigned char)w[2][i] < 33 || (unsigned char)w[2][i] > 126)
			return fail(ps, "bad id code", w[2], n[2]);
	for (size_t i = 0; i < n[3]; i++)
		if ((unsigned char)w[3][i] < 33 || (unsigned char)w[3][i] > 126)
			return fail(ps, "bad variable name", w[3], n[3]);
	if (until_end(ps, "$var", &rest) < 0)
		return -1;
	buf_release(&rest);
	if (ps->v->nsig == VCD_SIGNALS_MAX)
		return fail(ps, "more than 4096 variables", NULL, 0);
	ps->v->sig = xreallocarray(ps->v->sig, ps->v->nsig + 1,
	    sizeof *ps->v->sig);
	ps->ids = xreallocarray(ps->ids, ps->v->nsig + 1, sizeof *ps->ids);
	s = &ps->v->sig[ps->v->nsig];
	memset(s, 0, sizeof *s);
	s->width = (int)width;
	s->name = xasprintf("%s%s%.*s", buf_str(&ps->scope),
	    ps->scope.len > 0 ? "." : "", (int)n[3], w[3]);
	s->leaf = s->name + ps->scope.len + (ps->scope.len > 0);
	ps->ids[ps->v->nsig] = xstrndup(w[2], n[2]);
	ps->index = xreallocarray(ps->index, ps->nindex + 1,
	    sizeof *ps->index);
	ps->index[ps->nindex].id = ps->ids[ps->v->nsig];
	ps->index[ps->nindex].n = n[2];
	ps->index[ps->nindex].sig = ps->v->nsig;
	ps->nindex++;
	ps->sorted = 0;
	ps->v->nsig++;
	return 0;
}

/* Record value val (len characters, lower case) of s at time t. */
static void
push(struct vcd_signal *s, int64_t t, const char *val, size_t len)
{
	char *dst, pad;

	if (s->nch == 0 || s->t[s->nch - 1] != t) {
		if (s->nch == s->cap) {
			s->cap = s->cap > 0 ? s->cap * 2 : 16;
			s->t = xreallocarray(s->t, s->cap, sizeof *s->t);
			s->vals = xreallocarray(s->vals, s->cap,
			    (size_t)s->width);
		}
		s->t[s->nch++] = t;
	}
	dst = s->vals + (s->nch - 1) * (size_t)s->width;
	pad = val[0] == 'x' || val[0] == 'z' ? val[0] : '0';
	memset(dst, pad, (size_t)s->width - len);
	memcpy(dst + (size_t)s->width - len, val, len);
}

static int
change(struct parser *ps, const char *val, size_t vlen, const char *id,
    size_t idlen)
{
	struct idx key = { id, idlen, 0 }, *hit;
	char tmp[VCD_WIDTH_MAX];

	if (idlen == 0)
		return fail(ps, "a value without an id code", val, vlen);
	if (vlen == 0)
		return fail(ps, "an empty value for", id, idlen);
	if (vlen > VCD_WIDTH_MAX)
		return fail(ps, "a value wider than 4096 bits for", id, idlen);
	for (size_t i = 0; i < vlen; i++) {
		char c = val[i] == 'X' ? 'x' : val[i] == 'Z' ? 'z' : val[i];

		if (c != '0' && c != '1' && c != 'x' && c != 'z')
			return fail(ps, "a value that is not 0 1 x z", val,
			    vlen);
		tmp[i] = c;
	}
	if (!ps->sorted) {
		qsort(ps->index, ps->nindex, sizeof *ps->index, idx_cmp);
		ps->sorted = 1;
	}
	/* The first entry of the id: the key's sig 0 sorts before it. */
	hit = NULL;
	{
		size_t lo = 0, hi = ps->nindex;

		while (lo < hi) {
			size_t mid = (lo + hi) / 2;

			if (idx_cmp(&ps->index[mid], &key) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < ps->nindex && ps->index[lo].n == idlen &&
		    memcmp(ps->index[lo].id, id, idlen) == 0)
			hit = &ps->index[lo];
	}
	if (hit == NULL)
		return fail(ps, "a change of an undeclared id code", id, idlen);
	for (; hit < ps->index + ps->nindex && hit->n == idlen &&
	    memcmp(hit->id, id, idlen) == 0; hit++) {
		struct vcd_signal *s = &ps->v->sig[hit->sig];

		if (vlen > (size_t)s->width)
			return fail(ps, "a value wider than its variable",
			    s->name, strlen(s->name));
		push(s, ps->now, tmp, vlen);
	}
	return 0;
}

static int
keyword(struct parser *ps, const char *w, size_t n)
{
	struct buf b = BUF_INIT;
	int rc = 0;

	if (word_is(w, n, "$end") || word_is(w, n, "$dumpvars") ||
	    word_is(w, n, "$dumpall") || word_is(w, n, "$dumpon") ||
	    word_is(w, n, "$dumpoff"))
		return 0;	/* containers of changes, and their ends */
	if (word_is(w, n, "$var"))
		return parse_var(ps);
	if (word_is(w, n, "$scope")) {
		const char *t, *name;
		size_t tn, nn;
		int line = ps->x.line;

		if (!lex_next(&ps->x, &t, &tn) || !lex_next(&ps->x, &name,
		    &nn) || word_is(name, nn, "$end")) {
			ps->x.line = line;
			return fail(ps, "$scope needs a type and a name", NULL,
			    0);
		}
		if (until_end(ps, "$scope", NULL) < 0)
			return -1;
		if (ps->scope.len > 0)
			buf_addc(&ps->scope, '.');
		buf_add(&ps->scope, name, nn);
		return 0;
	}
	if (word_is(w, n, "$upscope")) {
		char *dot;

		if (until_end(ps, "$upscope", NULL) < 0)
			return -1;
		if (ps->scope.len == 0)
			return fail(ps, "$upscope outside any scope", NULL, 0);
		dot = strrchr(ps->scope.p, '.');
		ps->scope.len = dot != NULL ? (size_t)(dot - ps->scope.p) : 0;
		ps->scope.p[ps->scope.len] = '\0';
		return 0;
	}
	if (word_is(w, n, "$timescale")) {
		rc = until_end(ps, "$timescale", &b);
		if (rc == 0)
			snprintf(ps->v->timescale, sizeof ps->v->timescale,
			    "%s", buf_str(&b));
		buf_release(&b);
		return rc;
	}
	if (word_is(w, n, "$comment")) {
		rc = until_end(ps, "$comment", &b);
		if (rc == 0 && strncmp(buf_str(&b), CUT_MARK,
		    strlen(CUT_MARK)) == 0)
			ps->v->cut = 1;
		buf_release(&b);
		return rc;
	}
	/* $date, $version, $enddefinitions and what else a tool adds. */
	{
		char what[48];

		snprintf(what, sizeof what, "%.*s", (int)(n > 40 ? 40 : n), w);
		return until_end(ps, what, NULL);
	}
}

int
vcd_parse(const char *text, size_t len, const char *file, struct vcd *v,
    struct err *err)
{
	struct parser ps;
	const char *w;
	size_t n;
	int rc = 0;

	memset(&ps, 0, sizeof ps);
	ps.x.p = text;
	ps.x.end = text + len;
	ps.x.line = 1;
	ps.x.file = file;
	ps.v = v;
	ps.err = err;
	while (rc == 0 && lex_next(&ps.x, &w, &n)) {
		if (w[0] == '$') {
			rc = keyword(&ps, w, n);
		} else if (w[0] == '#') {
			int64_t t;

			if (number(w + 1, n - 1, INT64_MAX, &t) < 0)
				rc = fail(&ps, "a bad time", w, n);
			else if (ps.timed && t < ps.now)
				rc = fail(&ps, "time goes back at", w, n);
			else {
				ps.now = t;
				ps.timed = 1;
				if (t > v->end)
					v->end = t;
			}
		} else if (strchr("01xXzZ", w[0]) != NULL) {
			rc = change(&ps, w, 1, w + 1, n - 1);
		} else if (w[0] == 'b' || w[0] == 'B') {
			const char *id;
			size_t idn;

			if (!lex_next(&ps.x, &id, &idn))
				rc = fail(&ps, "a vector value without its id"
				    " code (the dump is truncated)", w, n);
			else
				rc = change(&ps, w + 1, n - 1, id, idn);
		} else if (w[0] == 'r' || w[0] == 'R') {
			rc = fail(&ps, "real values are not read", w, n);
		} else {
			rc = fail(&ps, "not a VCD word", w, n);
		}
	}
	for (size_t i = 0; i < v->nsig; i++)
		free(ps.ids[i]);
	free(ps.ids);
	free(ps.index);
	buf_release(&ps.scope);
	if (rc < 0)
		vcd_release(v);
	return rc;
}

void
vcd_release(struct vcd *v)
{
	if (v == NULL)
		return;
	for (size_t i = 0; i < v->nsig; i++) {
		free(v->sig[i].name);
		free(v->sig[i].t);
		free(v->sig[i].vals);
	}
	free(v->sig);
	memset(v, 0, sizeof *v);
}

int
vcd_find(const struct vcd *v, const char *name)
{
	for (size_t i = 0; i < v->nsig; i++)
		if (strcmp(v->sig[i].name, name) == 0)
			return (int)i;
	for (size_t i = 0; i < v->nsig; i++)
		if (strcmp(v->sig[i].leaf, name) == 0)
			return (int)i;
	return -1;
}

/* The index of the last change of s at or before t; -1 when none. */
static long
change_at(const struct vcd_signal *s, int64_t t)
{
	size_t lo = 0, hi = s->nch;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (s->t[mid] <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (long)lo - 1;
}

const char *
vcd_value_at(const struct vcd *v, int s, int64_t t)
{
	long k;

	if (s < 0 || (size_t)s >= v->nsig)
		return NULL;
	k = change_at(&v->sig[s], t);
	return k < 0 ? NULL : v->sig[s].vals + (size_t)k *
	    (size_t)v->sig[s].width;
}

size_t
vcd_pairs(const struct vcd *v, struct vcd_pair **pairs)
{
	size_t np = 0;

	*pairs = NULL;
	for (size_t i = 0; i < v->nsig; i++) {
		const struct vcd_signal *r = &v->sig[i];
		size_t ln = strlen(r->leaf), pre = (size_t)(r->leaf - r->name);

		if (ln <= 4 || strcmp(r->leaf + ln - 4, "_ref") != 0 ||
		    ln - 4 >= sizeof (*pairs)->name)
			continue;
		for (size_t j = 0; j < v->nsig; j++) {
			const struct vcd_signal *c = &v->sig[j];

			if ((size_t)(c->leaf - c->name) != pre ||
			    memcmp(c->name, r->name, pre) != 0 ||
			    strlen(c->leaf) != ln ||
			    memcmp(c->leaf, r->leaf, ln - 4) != 0 ||
			    strcmp(c->leaf + ln - 4, "_dut") != 0 ||
			    c->width != r->width)
				continue;
			*pairs = xreallocarray(*pairs, np + 1, sizeof **pairs);
			snprintf((*pairs)[np].name, sizeof (*pairs)[np].name,
			    "%.*s", (int)(ln - 4), r->leaf);
			(*pairs)[np].ref = (int)i;
			(*pairs)[np].cand = (int)j;
			np++;
			break;
		}
	}
	return np;
}

int
vcd_differs(const char *ref, const char *cand, int width)
{
	for (int i = 0; i < width; i++) {
		char r = ref != NULL ? ref[i] : 'x';
		char c = cand != NULL ? cand[i] : 'x';

		if (r == 'x')
			continue;
		if (r == 'z' || r != c)
			return 1;
	}
	return 0;
}

int
vcd_mismatch(const struct vcd *v, const struct vcd_pair *p, int64_t after,
    int dir, int64_t *t)
{
	const struct vcd_signal *r = &v->sig[p->ref], *c = &v->sig[p->cand];
	size_t i = 0, j = 0;
	int was = 0, found = 0;

	while (i < r->nch || j < c->nch) {
		int64_t now;
		int d;

		if (j >= c->nch || (i < r->nch && r->t[i] <= c->t[j]))
			now = r->t[i];
		else
			now = c->t[j];
		while (i < r->nch && r->t[i] == now)
			i++;
		while (j < c->nch && c->t[j] == now)
			j++;
		d = vcd_differs(i > 0 ? r->vals + (i - 1) * (size_t)r->width :
		    NULL, j > 0 ? c->vals + (j - 1) * (size_t)c->width : NULL,
		    r->width);
		if (d && !was) {
			if (dir > 0 && now > after) {
				*t = now;
				return 0;
			}
			if (dir < 0 && now < after) {
				*t = now;
				found = 1;
			}
		}
		was = d;
	}
	return found ? 0 : -1;
}

static int
t_cmp(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

size_t
vcd_times(const struct vcd *v, const int *idx, size_t n, int64_t from,
    int64_t to, int64_t **times)
{
	size_t k = 0, cap = 0, u = 0;
	int64_t *out = NULL;

	for (size_t i = 0; i < n; i++) {
		const struct vcd_signal *s = &v->sig[idx[i]];

		for (size_t c = 0; c < s->nch; c++) {
			if (s->t[c] < from || s->t[c] > to)
				continue;
			if (k == cap) {
				cap = cap > 0 ? cap * 2 : 64;
				out = xreallocarray(out, cap, sizeof *out);
			}
			out[k++] = s->t[c];
		}
	}
	if (k > 0)
		qsort(out, k, sizeof *out, t_cmp);
	for (size_t i = 0; i < k; i++)
		if (u == 0 || out[u - 1] != out[i])
			out[u++] = out[i];
	*times = out;
	return u;
}

void
vcd_format(const char *val, int width, char *buf, size_t n)
{
	int known = 1, allx = 1, allz = 1;
	size_t k = 0;

	if (n == 0)
		return;
	if (val == NULL) {
		snprintf(buf, n, "-");
		return;
	}
	for (int i = 0; i < width; i++) {
		known &= val[i] == '0' || val[i] == '1';
		allx &= val[i] == 'x';
		allz &= val[i] == 'z';
	}
	if (width == 1 || (!known && !allx && !allz)) {
		snprintf(buf, n, "%.*s", width, val);
		return;
	}
	if (allx || allz) {
		snprintf(buf, n, "%c", allx ? 'x' : 'z');
		return;
	}
	/* Hexadecimal digits, the first holding width % 4 bits. */
	for (int i = 0; i < width && k + 1 < n;) {
		int bits = i == 0 && width % 4 != 0 ? width % 4 : 4, d = 0;

		for (int b = 0; b < bits; b++)
			d = d * 2 + (val[i + b] == '1');
		buf[k++] = "0123456789abcdef"[d];
		i += bits;
	}
	buf[k] = '\0';
}

void
vcd_time_text(const struct vcd *v, int64_t t, char *buf, size_t n)
{
	const char *unit = v->timescale;

	if (unit[0] == '1' && unit[1] != '0')
		snprintf(buf, n, "%lld %s", (long long)t, unit + 1 +
		    (unit[1] == ' '));
	else if (unit[0] != '\0')
		snprintf(buf, n, "%lld x %s", (long long)t, unit);
	else
		snprintf(buf, n, "%lld", (long long)t);
}

/* The id code of the i-th variable written: base 94 over '!'..'~'. */
static void
code_of(size_t i, char *out)
{
	size_t k = 0;

	do {
		out[k++] = (char)('!' + i % 94);
		i /= 94;
	} while (i > 0);
	out[k] = '\0';
}

struct event {
	int64_t	 t;
	size_t	 k;	/* the kept variable */
	size_t	 c;	/* its change */
};

static int
event_cmp(const void *a, const void *b)
{
	const struct event *x = a, *y = b;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return x->k < y->k ? -1 : x->k > y->k;
}

/* The scope part of s's name: its length. */
static size_t
scope_len(const struct vcd_signal *s)
{
	return s->leaf > s->name ? (size_t)(s->leaf - s->name - 1) : 0;
}

/* Close and open scopes from path cur (clen bytes) to path to. */
static void
move_scope(struct buf *out, const char *cur, size_t clen, const char *to,
    size_t tlen)
{
	size_t common = 0, i;

	/* The longest common prefix that ends at a component boundary. */
	for (i = 0; i < clen && i < tlen && cur[i] == to[i]; i++)
		if ((i + 1 == clen || cur[i + 1] == '.') &&
		    (i + 1 == tlen || to[i + 1] == '.'))
			common = i + 1;
	for (i = common; i < clen; i++)
		if (i == common || cur[i] == '.')
			buf_adds(out, "$upscope $end\n");
	for (i = common; i < tlen;) {
		size_t s = i + (to[i] == '.'), e = s;

		while (e < tlen && to[e] != '.')
			e++;
		buf_printf(out, "$scope module %.*s $end\n", (int)(e - s),
		    to + s);
		i = e;
	}
}

int
vcd_write(const struct vcd *v, const int *keep, size_t n, size_t max,
    struct buf *out)
{
	struct event *ev = NULL;
	size_t nev = 0, mark, step = 0;
	const char *cur = "";
	size_t clen = 0;
	char code[8];
	int64_t last = 0;
	int cut = 0;

	if (v->timescale[0] != '\0')
		buf_printf(out, "$timescale %s $end\n", v->timescale);
	for (size_t k = 0; k < n; k++) {
		const struct vcd_signal *s = &v->sig[keep[k]];

		move_scope(out, cur, clen, s->name, scope_len(s));
		cur = s->name;
		clen = scope_len(s);
		code_of(k, code);
		buf_printf(out, "$var wire %d %s %s $end\n", s->width, code,
		    s->leaf);
		nev += s->nch;
	}
	move_scope(out, cur, clen, "", 0);
	buf_adds(out, "$enddefinitions $end\n");
	ev = xreallocarray(NULL, nev > 0 ? nev : 1, sizeof *ev);
	nev = 0;
	for (size_t k = 0; k < n; k++) {
		const struct vcd_signal *s = &v->sig[keep[k]];

		for (size_t c = 0; c < s->nch; c++) {
			ev[nev].t = s->t[c];
			ev[nev].k = k;
			ev[nev++].c = c;
		}
	}
	qsort(ev, nev, sizeof *ev, event_cmp);
	mark = out->len;
	for (size_t e = 0; e < nev; e++) {
		const struct vcd_signal *s = &v->sig[keep[ev[e].k]];
		const char *val = s->vals + ev[e].c * (size_t)s->width;

		if (e == 0 || ev[e].t != ev[e - 1].t) {
			if (out->len > max) {
				cut = 1;
				break;
			}
			mark = out->len;
			step = e;
			buf_printf(out, "#%lld\n", (long long)ev[e].t);
		}
		code_of(ev[e].k, code);
		if (s->width == 1)
			buf_printf(out, "%c%s\n", val[0], code);
		else
			buf_printf(out, "b%.*s %s\n", s->width, val, code);
	}
	if (!cut && out->len > max)
		cut = 1;
	if (cut) {
		last = step < nev ? ev[step].t : 0;
		out->len = mark;
		if (out->p != NULL)
			out->p[mark] = '\0';
		buf_printf(out, "$comment " CUT_MARK " at #%lld: the waveform"
		    " passed %zu bytes $end\n", (long long)last, max);
	}
	free(ev);
	return cut;
}
