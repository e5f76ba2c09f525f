/*
 * command.c - the command table's parser, lookup and help (command.h).
 */
#include "app/command.h"

#include "store/store.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct cmd_entry *
cmd_find(const struct cmd_table *t, const char *name)
{
	for (size_t i = 0; i < t->n && t->v[i] != NULL; i++) {
		const struct cmd_entry *e = t->v[i];

		if (strcmp(e->name, name) == 0 ||
		    (e->alias != NULL && strcmp(e->alias, name) == 0))
			return e;
	}
	return NULL;
}

void
cmd_where_text(const struct cmd_entry *e, struct buf *b)
{
	const char *part[4];
	int n = 0;

	if (e->flags & CMD_CLI)
		part[n++] = "on the command line (assay %s)";
	if (e->flags & CMD_WORKBENCH)
		part[n++] = "on the : line (:%s)";
	if (e->flags & CMD_KEY)
		part[n++] = "from a key%.0s";
	if (e->flags & CMD_CONFIG)
		part[n++] = "in the config file%.0s";
	if (n == 0)
		buf_adds(b, "nowhere");
	for (int i = 0; i < n; i++) {
		buf_adds(b, i == 0 ? "" : i == n - 1 ? " and " : ", ");
		buf_printf(b, part[i], e->name);
	}
}

const struct cmd_entry *
cmd_lookup(const struct cmd_table *t, const char *name, unsigned where,
    struct err *err)
{
	const struct cmd_entry *first = NULL;
	struct buf b = BUF_INIT;

	/* a name may stand twice where the two run in different places
	 * (`assay verify` and the workbench's `:verify`) */
	for (size_t i = 0; i < t->n && t->v[i] != NULL; i++) {
		const struct cmd_entry *e = t->v[i];

		if (strcmp(e->name, name) != 0 &&
		    (e->alias == NULL || strcmp(e->alias, name) != 0))
			continue;
		if (e->flags & where)
			return e;
		if (first == NULL)
			first = e;
	}
	if (first == NULL) {
		err_set(err, "unknown command '%.64s'", name);
		return NULL;
	}
	cmd_where_text(first, &b);
	err_set(err, "%s runs only %s", first->name, buf_str(&b));
	buf_release(&b);
	return NULL;
}

static const struct cmd_opt *
long_opt(const struct cmd_entry *e, const char *name, size_t len)
{
	for (const struct cmd_opt *o = e->opts; o != NULL && o->name != NULL;
	    o++)
		if (strlen(o->name) == len && strncmp(o->name, name, len) == 0)
			return o;
	return NULL;
}

static const struct cmd_opt *
short_opt(const struct cmd_entry *e, char c)
{
	for (const struct cmd_opt *o = e->opts; o != NULL && o->name != NULL;
	    o++)
		if (o->letter != 0 && o->letter == c)
			return o;
	return NULL;
}

static void
give(struct cmd_args *a, const struct cmd_opt *o, const char *value)
{
	a->given[a->ngiven].opt = o;
	a->given[a->ngiven].value = value;
	a->ngiven++;
}

/* A long option at argv[*i] ("--" already seen).  0 or -1. */
static int
parse_long(struct cmd_args *a, int *i, struct err *err)
{
	const char *s = a->argv[*i] + 2, *eq = strchr(s, '=');
	size_t len = eq != NULL ? (size_t)(eq - s) : strlen(s);
	const struct cmd_opt *o = long_opt(a->entry, s, len);

	if (o == NULL)
		return err_set(err, "unknown option '--%.*s'", (int)len, s);
	switch (o->value) {
	case CMD_FLAG:
		if (eq != NULL)
			return err_set(err, "--%s takes no value", o->name);
		give(a, o, NULL);
		break;
	case CMD_VALUE:
		if (eq == NULL) {
			if (*i + 1 >= a->argc)
				return err_set(err, "--%s wants a value",
				    o->name);
			give(a, o, a->argv[++*i]);
		} else
			give(a, o, eq + 1);
		break;
	case CMD_OPTIONAL:
		give(a, o, eq != NULL ? eq + 1 : NULL);
		break;
	}
	return 0;
}

/* One or more short options at argv[*i].  0 or -1. */
static int
parse_short(struct cmd_args *a, int *i, struct err *err)
{
	for (const char *p = a->argv[*i] + 1; *p != '\0'; p++) {
		const struct cmd_opt *o = short_opt(a->entry, *p);

		if (o == NULL)
			return err_set(err, "unknown option '-%c'", *p);
		if (o->value != CMD_VALUE) {
			give(a, o, NULL);
			continue;
		}
		if (p[1] != '\0')
			give(a, o, p + 1);
		else if (*i + 1 < a->argc)
			give(a, o, a->argv[++*i]);
		else
			return err_set(err, "-%c wants a value", *p);
		break;
	}
	return 0;
}

/* "a b" -> a b, "say ""hi""" -> say "hi", in place; other words as
 * they are. */
static void
unquote(char *w)
{
	size_t len = strlen(w), o = 0;

	if (len < 2 || w[0] != '"' || w[len - 1] != '"')
		return;
	for (size_t i = 1; i + 1 < len; i++) {
		w[o++] = w[i];
		if (w[i] == '"' && w[i + 1] == '"' && i + 2 < len)
			i++;
	}
	w[o] = '\0';
}

int
cmd_parse(const struct cmd_entry *e, int argc, char **argv,
    struct cmd_args *a, struct err *err)
{
	return cmd_parse_front(e, 0, argc, argv, a, err);
}

int
cmd_parse_front(const struct cmd_entry *e, unsigned front, int argc,
    char **argv, struct cmd_args *a, struct err *err)
{
	int rest = 0;

	memset(a, 0, sizeof *a);
	a->entry = e;
	a->argc = argc;
	a->argv = argv;
	a->given = xcalloc((size_t)argc + 1, sizeof *a->given);
	a->pos = xcalloc((size_t)argc + 1, sizeof *a->pos);

	/* --help anywhere before "--" wins over everything else. */
	for (int i = 1; i < argc && strcmp(argv[i], "--") != 0 &&
	    !(e->flags & CMD_TEXT); i++)
		if (strcmp(argv[i], "--help") == 0 ||
		    strcmp(argv[i], "-h") == 0) {
			a->help = 1;
			return 0;
		}

	/* Words of a `:` line: a word wholly in double quotes is one
	 * argument without them (a filter of several predicates, a note
	 * with blanks), "" inside it one quote; free text keeps them. */
	if (front == CMD_WORKBENCH && !(e->flags & CMD_TEXT))
		for (int i = 1; i < argc; i++)
			unquote(argv[i]);
	for (int i = 1; i < argc; i++) {
		const char *s = argv[i];

		if (!rest && strcmp(s, "--") == 0) {
			rest = 1;
			continue;
		}
		if (rest || s[0] != '-' || s[1] == '\0' ||
		    (e->flags & CMD_TEXT)) {
			a->pos[a->npos++] = argv[i];
			continue;
		}
		if ((s[1] == '-' ? parse_long(a, &i, err) :
		    parse_short(a, &i, err)) < 0)
			return -1;
	}
	if (front == CMD_CLI && CMD_SHARED_TARGETS(e) &&
	    !cmd_has(a, CMD_KEY_WHERE, NULL)) {
		if (a->npos == 0)
			return err_set(err, "missing argument%s (an ID, or"
			    " --where FILTER)", e->min > 0 ? "s" : "");
		a->target = a->pos[0];
		a->pos++;
		a->npos--;
	}
	if (a->npos < e->min)
		return err_set(err, "missing argument%s", e->min - a->npos > 1 ?
		    "s" : "");
	if (e->max != CMD_MANY && a->npos > e->max)
		return err_set(err, "unexpected argument '%s'%s",
		    a->pos[e->max], front == CMD_CLI && CMD_SHARED_TARGETS(e) &&
		    cmd_has(a, CMD_KEY_WHERE, NULL) ?
		    "; with --where no ID comes first" : "");
	return 0;
}

void
cmd_args_release(struct cmd_args *a)
{
	free(a->given);
	if (a->target != NULL)		/* cmd_parse_front moved pos on */
		a->pos--;
	free(a->pos);
	memset(a, 0, sizeof *a);
}

int
cmd_next(struct cmd_args *a, const char **value)
{
	const struct cmd_given *g;

	if (a->next >= a->ngiven)
		return -1;
	g = &a->given[a->next++];
	*value = g->value;
	return g->opt->key;
}

int
cmd_has(const struct cmd_args *a, int key, const char **value)
{
	int found = 0;

	for (size_t i = 0; i < a->ngiven; i++)
		if (a->given[i].opt->key == key) {
			found = 1;
			if (value != NULL)
				*value = a->given[i].value;
		}
	return found;
}

void
cmd_usage_line(const struct cmd_entry *e, unsigned front, struct buf *b)
{
	size_t n = strlen(e->name);

	if (front == CMD_CLI && CMD_SHARED_TARGETS(e) &&
	    strncmp(e->usage, e->name, n) == 0)
		buf_printf(b, "%s ID%s", e->name, e->usage + n);
	else
		buf_adds(b, e->usage);
}

void
cmd_help_text(const struct cmd_entry *e, unsigned front, const char *prefix,
    struct buf *b)
{
	buf_printf(b, "usage: %s ", prefix);
	cmd_usage_line(e, front, b);
	buf_adds(b, "\n");
	if (e->alias != NULL)
		buf_printf(b, "alias: %s\n", e->alias);
	buf_printf(b, "\n%s\n", e->help);
}

void
cmd_usage_all(const struct cmd_table *t, unsigned flag, const char *prefix,
    struct buf *b)
{
	for (size_t i = 0; i < t->n && t->v[i] != NULL; i++)
		if (t->v[i]->flags & flag) {
			buf_adds(b, prefix);
			cmd_usage_line(t->v[i], flag, b);
			buf_adds(b, "\n");
		}
}

/* The ids of the candidates a filter matches (cmd_targets). */
struct ids {
	char	**v;
	size_t	  n, cap;
};

static int
add_row(const struct store_row *row, void *arg)
{
	struct ids *ids = arg;

	if (ids->n == ids->cap) {
		ids->cap = ids->cap ? ids->cap * 2 : 64;
		ids->v = xreallocarray(ids->v, ids->cap, sizeof *ids->v);
	}
	ids->v[ids->n++] = xstrdup(row->id);
	return 0;
}

int
cmd_targets(struct cmd_ctx *ctx, struct cmd_args *a, char ***out, size_t *n,
    struct err *err)
{
	struct ids ids = { NULL, 0, 0 };
	const char *where = NULL;

	*out = NULL;
	*n = 0;
	if (cmd_has(a, CMD_KEY_WHERE, &where)) {
		if (where == NULL || *where == '\0')
			return err_set(err, "--where wants a filter");
		if (store_query_each(ctx->st, where, add_row, &ids, err) < 0) {
			strv_free(ids.v, ids.n);
			return -1;
		}
		if (ids.n == 0)
			return err_set(err, "%s matches no candidate", where);
	} else {
		if (ctx->nids == 0)
			return err_set(err, "no candidate selected");
		ids.v = xcalloc(ctx->nids, sizeof *ids.v);
		for (ids.n = 0; ids.n < ctx->nids; ids.n++)
			ids.v[ids.n] = xstrdup(ctx->ids[ids.n]);
	}
	*out = ids.v;
	*n = ids.n;
	return 0;
}


char *
cmd_join(const struct cmd_args *a, int from)
{
	struct buf b = BUF_INIT;

	for (int i = from; i < a->npos; i++) {
		if (i > from)
			buf_adds(&b, " ");
		buf_adds(&b, a->pos[i]);
	}
	return buf_detach(&b, NULL);
}

int
cmd_once(const struct cmd_args *a, struct err *err)
{
	for (size_t i = 0; i < a->ngiven; i++)
		for (size_t k = i + 1; k < a->ngiven; k++)
			if (a->given[k].opt == a->given[i].opt)
				return err_set(err, "--%s given twice",
				    a->given[i].opt->name);
	return 0;
}
char **
cmd_words(const char *line, int *argc)
{
	char **v = xcalloc(strlen(line) / 2 + 2, sizeof *v);
	int n = 0;

	for (const char *p = line; *p != '\0';) {
		const char *w;
		int quoted = 0;

		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '\0')
			break;
		for (w = p; *p != '\0' && (quoted || (*p != ' ' &&
		    *p != '\t')); p++)
			if (*p == '"')
				quoted = !quoted;
		v[n++] = xstrndup(w, (size_t)(p - w));
	}
	v[n] = NULL;
	*argc = n;
	return v;
}

void
cmd_words_free(char **argv)
{
	for (size_t i = 0; argv != NULL && argv[i] != NULL; i++)
		free(argv[i]);
	free(argv);
}

static void
vsay(struct cmd_ctx *ctx, int diag, const char *fmt, va_list ap)
{
	va_list aq;
	char *s;
	int n;

	va_copy(aq, ap);
	n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	s = xmalloc(n < 0 ? 1 : (size_t)n + 1);
	if (vsnprintf(s, n < 0 ? 1 : (size_t)n + 1, fmt, ap) < 0)
		*s = '\0';
	if (diag) {
		if (ctx->diag != NULL)
			ctx->diag(ctx->arg, s);
		else
			fprintf(stderr, "%s\n", s);
	} else if (ctx->out != NULL)
		ctx->out(ctx->arg, s, strlen(s));
	else
		fputs(s, stdout);
	free(s);
}

void
cmd_printf(struct cmd_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay(ctx, 0, fmt, ap);
	va_end(ap);
}

void
cmd_diagf(struct cmd_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay(ctx, 1, fmt, ap);
	va_end(ap);
}
