/*
 * template.c - prompt templates (template.h): found on disk or in the
 * table scripts/embed.sh compiled in, checked whole, then rendered.
 */
#include "generate/template.h"

#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/file.h"
#include "base/hash.h"

#define TMPL_DEPTH_MAX	16	/* blocks open at once */
#define TMPL_ALTS_MAX	64	/* alternatives of one @choose */

/* The table scripts/embed.sh generates from templates/. */
struct env_share_file {
	const char		*name;
	const unsigned char	*data;
	size_t			 len;
};
extern const struct env_share_file template_files[];

void
tmpl_out_release(struct tmpl_out *o)
{
	if (o == NULL)
		return;
	free(o->system);
	free(o->user);
	free(o->name);
	free(o->where);
	json_decref(o->choices);
	memset(o, 0, sizeof *o);
}

int
tmpl_name_ok(const char *name)
{
	size_t n = name != NULL ? strlen(name) : 0;

	if (n == 0 || n > 64)
		return 0;
	for (const char *p = name; *p != '\0'; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
		    *p == '_' || *p == '-'))
			return 0;
	return 1;
}

/* The text of DOM/NAME: from $ASSAY_TEMPLATES, else compiled in.  New
 * string in *text, where it came from in *where; 0, 1 none, -1 err. */
static int
find_one(const char *dom, const char *name, char **text, char **where,
    struct err *err)
{
	const char *dir = getenv("ASSAY_TEMPLATES");
	char *key = xasprintf("%s/%s", dom, name);
	size_t len;

	if (dir != NULL && *dir != '\0') {
		char *path = xasprintf("%s/%s", dir, key);

		if (file_is_reg(path)) {
			free(key);
			*where = path;
			return file_read(path, text, &len, err) < 0 ? -1 : 0;
		}
		free(path);
	}
	for (const struct env_share_file *f = template_files; f->name != NULL;
	    f++)
		if (strcmp(f->name, key) == 0) {
			*text = xstrndup((const char *)f->data, f->len);
			*where = xasprintf("templates/%s", key);
			free(key);
			return 0;
		}
	free(key);
	return 1;
}

/* A directive line: its word ("choose") and argument, or 0. */
static int
directive(const char *line, size_t len, char *word, size_t wn,
    const char **arg, size_t *alen)
{
	size_t w;

	if (len == 0 || line[0] != '@')
		return 0;
	w = strcspn(line + 1, " \t");
	if (w > len - 1)
		w = len - 1;
	if (w >= wn)
		w = wn - 1;
	memcpy(word, line + 1, w);
	word[w] = '\0';
	*arg = line + 1 + w;
	while (*arg < line + len && (**arg == ' ' || **arg == '\t'))
		(*arg)++;
	*alen = (size_t)(line + len - *arg);
	while (*alen > 0 && ((*arg)[*alen - 1] == ' ' ||
	    (*arg)[*alen - 1] == '\t' || (*arg)[*alen - 1] == '\r'))
		(*alen)--;
	return 1;
}

static const struct tmpl_var *
var_find(const struct tmpl_var *v, size_t n, const char *name, size_t len)
{
	for (size_t i = 0; i < n; i++)
		if (strlen(v[i].name) == len && memcmp(v[i].name, name,
		    len) == 0)
			return &v[i];
	return NULL;
}

/* line with its variables replaced, into b.  0, or -1 with err. */
static int
substitute(struct buf *b, const char *line, size_t len,
    const struct tmpl_var *v, size_t n, const char *where, size_t lineno,
    struct err *err)
{
	const char *p = line, *end = line + len;

	while (p < end) {
		const char *o = NULL, *c;
		const struct tmpl_var *var;

		for (const char *q = p; q + 1 < end; q++)
			if (q[0] == '{' && q[1] == '{') {
				o = q;
				break;
			}
		if (o == NULL) {
			buf_add(b, p, (size_t)(end - p));
			break;
		}
		buf_add(b, p, (size_t)(o - p));
		c = NULL;
		for (const char *q = o + 2; q + 1 < end; q++)
			if (q[0] == '}' && q[1] == '}') {
				c = q;
				break;
			}
		if (c == NULL)
			return err_set(err, "%s:%zu: '{{' without '}}'", where,
			    lineno);
		var = var_find(v, n, o + 2, (size_t)(c - o - 2));
		if (var == NULL)
			return err_set(err, "%s:%zu: unknown variable"
			    " {{%.*s}}", where, lineno, (int)(c - o - 2), o + 2);
		if (var->value != NULL)
			buf_adds(b, var->value);
		p = c + 2;
	}
	return 0;
}

/* The alternative a @choose named name of nalts draws. */
static int
draw(uint64_t seed, const char *salt, const char *name, size_t nlen,
    int nalts)
{
	uint64_t h = hash_mix64(seed ^ 0x9e3779b97f4a7c15ull);

	h = hash_fnv64(salt, strlen(salt), h);
	h = hash_fnv64("\n", 1, h);
	h = hash_fnv64(name, nlen, h);
	return (int)(hash_mix64(h) % (uint64_t)nalts);
}

/* A block being rendered. */
struct frame {
	int	choose;		/* 1 @choose, 0 @if */
	int	parent_on;	/* its parent renders */
	int	on;		/* its current part renders */
	int	chosen, cur;	/* @choose: drawn and current alternative */
	int	nalts;
	size_t	line;		/* where it opened */
};

/* A turn: its text from its first line that rendered something to the
 * end of its last one, without the newline rendering added after it (a
 * variable's own newlines stay).  New string. */
struct section {
	struct buf	b;
	size_t		start, end;	/* end 0: nothing rendered yet */
	int		any;
};

static void
section_add(struct section *s, const struct buf *line)
{
	if (line->len > 0 && !s->any) {
		s->any = 1;
		s->start = s->b.len;
	}
	buf_add(&s->b, line->p, line->len);
	if (line->len > 0)
		s->end = s->b.len;
	buf_addc(&s->b, '\n');
}

static char *
section_text(const struct section *s)
{
	return s->any ? xstrndup(s->b.p + s->start, s->end - s->start) :
	    xstrdup("");
}

/*
 * Count each @choose's alternatives (into alts[k] for the k-th @choose,
 * a new array the caller frees, also on error) and check that blocks
 * open and close.  0, or -1 with err.
 */
static int
shape(const char *text, const char *where, int **alts, size_t *nchoose,
    struct err *err)
{
	int stack[TMPL_DEPTH_MAX];	/* index into *alts, -1 for @if */
	size_t opened[TMPL_DEPTH_MAX];
	size_t depth = 0, lineno = 0, k = 0;
	const char *p = text;

	*alts = NULL;
	while (*p != '\0') {
		size_t len = strcspn(p, "\n");
		char word[16];
		const char *arg;
		size_t alen;

		lineno++;
		if (directive(p, len, word, sizeof word, &arg, &alen)) {
			if (strcmp(word, "choose") == 0 ||
			    strcmp(word, "if") == 0) {
				if (depth == TMPL_DEPTH_MAX)
					return err_set(err, "%s:%zu: blocks"
					    " nested deeper than %d", where,
					    lineno, TMPL_DEPTH_MAX);
				if (alen == 0)
					return err_set(err, "%s:%zu: @%s"
					    " without a name", where, lineno,
					    word);
				opened[depth] = lineno;
				if (word[0] == 'c') {
					*alts = xreallocarray(*alts, k + 1,
					    sizeof **alts);
					(*alts)[k] = 1;
					stack[depth++] = (int)k++;
				} else {
					stack[depth++] = -1;
				}
			} else if (strcmp(word, "or") == 0) {
				if (depth == 0 || stack[depth - 1] < 0)
					return err_set(err, "%s:%zu: @or"
					    " outside @choose", where, lineno);
				if (++(*alts)[stack[depth - 1]] >
				    TMPL_ALTS_MAX)
					return err_set(err, "%s:%zu: more than"
					    " %d alternatives", where, lineno,
					    TMPL_ALTS_MAX);
			} else if (strcmp(word, "end") == 0) {
				if (depth == 0)
					return err_set(err, "%s:%zu: @end"
					    " without a block", where, lineno);
				depth--;
			} else if (strcmp(word, "system") == 0 ||
			    strcmp(word, "user") == 0) {
				if (depth > 0)
					return err_set(err, "%s:%zu: @%s inside"
					    " a block", where, lineno, word);
			} else if (word[0] != '#') {
				return err_set(err, "%s:%zu: unknown directive"
				    " @%s", where, lineno, word);
			}
		}
		p += len + (p[len] == '\n');
	}
	if (depth > 0)
		return err_set(err, "%s:%zu: block not closed by @end", where,
		    opened[depth - 1]);
	*nchoose = k;
	return 0;
}

/* Render text (read from where) into out.  0, or -1 with err. */
static int
render(const char *text, const char *where, const struct tmpl_var *v,
    size_t n, int perturb, uint64_t seed, const char *salt,
    struct tmpl_out *out, struct err *err)
{
	struct frame st[TMPL_DEPTH_MAX];
	struct section sec[2] = { { BUF_INIT, 0, 0, 0 }, { BUF_INIT, 0, 0, 0 } };
	struct buf line = BUF_INIT;
	size_t depth = 0, lineno = 0, nchoose = 0, k = 0;
	int *alts = NULL, cur = 1, rc = 0;	/* cur: 0 system, 1 user */
	const char *p = text;

	if (shape(text, where, &alts, &nchoose, err) < 0) {
		free(alts);	/* what it counted before the error */
		return -1;
	}
	out->choices = json_object();
	while (*p != '\0' && rc == 0) {
		size_t len = strcspn(p, "\n");
		int on = depth == 0 || st[depth - 1].on;
		char word[16];
		const char *arg;
		size_t alen;

		lineno++;
		if (!directive(p, len, word, sizeof word, &arg, &alen)) {
			buf_reset(&line);
			rc = substitute(&line, p, len, v, n, where, lineno,
			    err);
			if (rc == 0 && on)
				section_add(&sec[cur], &line);
		} else if (strcmp(word, "choose") == 0) {
			struct frame *f = &st[depth++];
			char *name = xstrndup(arg, alen);

			f->choose = 1;
			f->parent_on = on;
			f->nalts = alts[k++];
			f->chosen = perturb ? draw(seed, salt, arg, alen,
			    f->nalts) : 0;
			f->cur = 0;
			f->on = on && f->chosen == 0;
			f->line = lineno;
			if (on)
				json_object_set_new(out->choices, name,
				    json_integer(f->chosen));
			free(name);
		} else if (strcmp(word, "if") == 0) {
			struct frame *f = &st[depth++];
			const struct tmpl_var *var = var_find(v, n, arg, alen);

			if (var == NULL)
				rc = err_set(err, "%s:%zu: unknown variable"
				    " %.*s", where, lineno, (int)alen, arg);
			f->choose = 0;
			f->parent_on = on;
			f->on = on && var != NULL && var->value != NULL &&
			    var->value[0] != '\0';
			f->line = lineno;
		} else if (strcmp(word, "or") == 0) {
			struct frame *f = &st[depth - 1];

			f->cur++;
			f->on = f->parent_on && f->cur == f->chosen;
		} else if (strcmp(word, "end") == 0) {
			depth--;
		} else if (strcmp(word, "system") == 0) {
			cur = 0;
		} else if (strcmp(word, "user") == 0) {
			cur = 1;
		}
		p += len + (p[len] == '\n');
	}
	free(alts);
	buf_release(&line);
	if (rc == 0) {
		out->system = section_text(&sec[0]);
		out->user = section_text(&sec[1]);
		if (out->user[0] == '\0')
			rc = err_set(err, "%s: renders no user turn", where);
	}
	buf_release(&sec[0].b);
	buf_release(&sec[1].b);
	(void)nchoose;
	return rc;
}

int
tmpl_render(const char *domain, const char *name, const struct tmpl_var *vars,
    size_t n, int perturb, uint64_t seed, const char *salt,
    struct tmpl_out *out, struct err *err)
{
	const char *doms[2] = { domain, "common" };
	char *text = NULL, *where = NULL, hex[65];
	int found = 1;

	memset(out, 0, sizeof *out);
	if (!tmpl_name_ok(name))
		return err_set(err, "template '%s': a name is 1 to 64 of a-z,"
		    " 0-9, '_' and '-'", name != NULL ? name : "");
	for (size_t i = 0; i < 2 && found == 1; i++) {
		if (doms[i] == NULL || !tmpl_name_ok(doms[i]))
			continue;
		found = find_one(doms[i], name, &text, &where, err);
		if (found == 0)
			out->name = xasprintf("%s/%s", doms[i], name);
	}
	if (found < 0)
		return -1;
	if (found > 0)
		return err_set(err, "no template %s/%s nor common/%s (templates/"
		    "; ASSAY_TEMPLATES)", domain != NULL ? domain : "?", name,
		    name);
	hash_sha256(text, strlen(text), hex);
	memcpy(out->sha, hex, 12);
	out->sha[12] = '\0';
	out->where = where;
	if (render(text, where, vars, n, perturb, seed, salt != NULL ? salt :
	    "", out, err) < 0) {
		free(text);
		tmpl_out_release(out);
		return -1;
	}
	free(text);
	return 0;
}
