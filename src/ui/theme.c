/*
 * theme.c - the theme loader; see theme.h.  A theme is applied as one
 * colour pair per element (pairs 1..THEME_NELEMS, below any pair the
 * toolchain pane allocates with alloc_pair()).
 */
#include "ui/theme.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/buf.h"

struct theme_spec {
	short	 fg, bg;	/* -1: terminal default */
	attr_t	 attrs;
};

#define THEME_NAME(id, name) name,
static const char *const elem_names[THEME_NELEMS] = {
	THEME_ELEMS(THEME_NAME)
};
#undef THEME_NAME

static struct theme_spec specs[THEME_NELEMS];
static attr_t attrs[THEME_NELEMS];
static int color_on;

/* The built-in dark theme: themes/dark.theme may refine it. */
static const char builtin[] =
	"normal default default\n"
	"border blue default\n"
	"title cyan default bold\n"
	"title.focus black cyan bold\n"
	"header yellow default bold\n"
	"cursor black cyan\n"
	"cursor.idle default default reverse\n"
	"status black white\n"
	"status.message black white bold\n"
	"status.error white red bold\n"
	"prompt black yellow bold\n"
	"verdict.pass green default bold\n"
	"verdict.fail red default bold\n"
	"verdict.other yellow default\n"
	"dim default default dim\n"
	"label magenta default bold\n"
	"linenr blue default\n"
	"gutter.error white red bold\n"
	"gutter.warning black yellow\n"
	"evidence red default bold\n"
	"help.key green default bold\n"
	"syn.comment blue default\n"
	"syn.keyword magenta default bold\n"
	"syn.type green default\n"
	"syn.function cyan default\n"
	"syn.string yellow default\n"
	"syn.number red default\n"
	"syn.constant red default\n"
	"syn.operator default default\n"
	"syn.variable default default\n"
	"syn.property cyan default\n"
	"syn.preproc magenta default\n"
	"syn.error red default underline\n";

/* The built-in light theme: themes/light.theme may refine it. */
static const char builtin_light[] =
	"normal default default\n"
	"border blue default\n"
	"title blue default bold\n"
	"title.focus white blue bold\n"
	"header magenta default bold\n"
	"cursor white blue\n"
	"cursor.idle default default reverse\n"
	"status white blue\n"
	"status.message white blue bold\n"
	"status.error white red bold\n"
	"prompt black yellow bold\n"
	"verdict.pass green default bold\n"
	"verdict.fail red default bold\n"
	"verdict.other magenta default\n"
	"dim default default dim\n"
	"label blue default bold\n"
	"linenr blue default\n"
	"gutter.error white red bold\n"
	"gutter.warning black yellow\n"
	"evidence red default bold\n"
	"help.key blue default bold\n"
	"syn.comment green default\n"
	"syn.keyword magenta default bold\n"
	"syn.type blue default\n"
	"syn.function blue default bold\n"
	"syn.string red default\n"
	"syn.number red default\n"
	"syn.constant red default\n"
	"syn.property blue default\n"
	"syn.preproc magenta default\n"
	"syn.error red default underline\n";

/* Attributes only: themes/mono.theme may refine it. */
static const char builtin_mono[] =
	"border default default\n"
	"title default default bold\n"
	"title.focus default default reverse bold\n"
	"header default default bold\n"
	"cursor default default reverse\n"
	"cursor.idle default default underline\n"
	"status default default reverse\n"
	"status.message default default reverse bold\n"
	"status.error default default reverse bold underline\n"
	"prompt default default reverse bold\n"
	"verdict.pass default default bold\n"
	"verdict.fail default default bold underline\n"
	"verdict.other default default underline\n"
	"label default default bold\n"
	"linenr default default dim\n"
	"gutter.error default default reverse bold\n"
	"gutter.warning default default reverse\n"
	"evidence default default bold underline\n"
	"help.key default default bold\n"
	"syn.comment default default dim\n"
	"syn.keyword default default bold\n"
	"syn.type default default\n"
	"syn.function default default\n"
	"syn.string default default\n"
	"syn.number default default\n"
	"syn.constant default default\n"
	"syn.property default default\n"
	"syn.preproc default default bold\n"
	"syn.error default default underline\n";

static const char *const color_names[] = { "black", "red", "green",
	"yellow", "blue", "magenta", "cyan", "white" };

/* Colour word into *c (-1 default); bright colours past 8 set *bold on
 * terminals that cannot show them.  0 or -1. */
static int
parse_color(const char *w, short *c)
{
	const char *name = w;
	int bright = 0;
	char *end;
	long n;

	if (strcasecmp(w, "default") == 0 || strcmp(w, "-1") == 0) {
		*c = -1;
		return 0;
	}
	if (strncasecmp(w, "bright-", 7) == 0) {
		name = w + 7;
		bright = 8;
	}
	for (int i = 0; i < 8; i++) {
		if (strcasecmp(name, color_names[i]) == 0) {
			*c = (short)(i + bright);
			return 0;
		}
	}
	errno = 0;
	n = strtol(w, &end, 10);
	if (*w == '\0' || *end != '\0' || errno != 0 || n < 0 || n > 255)
		return -1;
	*c = (short)n;
	return 0;
}

static int
parse_attr(const char *w, attr_t *a)
{
	static const struct { const char *name; attr_t attr; } map[] = {
		{ "bold", A_BOLD }, { "dim", A_DIM },
		{ "underline", A_UNDERLINE }, { "reverse", A_REVERSE },
		{ "italic", A_ITALIC }, { "standout", A_STANDOUT },
		{ "normal", A_NORMAL }, { "none", A_NORMAL },
	};

	for (size_t i = 0; i < sizeof map / sizeof map[0]; i++) {
		if (strcasecmp(w, map[i].name) == 0) {
			*a |= map[i].attr;
			return 0;
		}
	}
	return -1;
}

/* Why: index arithmetic, not RGB, is how the xterm palette reduces. */
static short
reduce_color(short c, attr_t *extra)
{
	int r, g, b;

	if (c < 0 || c < COLORS)
		return c;
	if (c < 16) {
		*extra |= A_BOLD;
		return (short)(c - 8);
	}
	if (c >= 232) {
		int v = c - 232;

		if (v > 17)
			*extra |= A_BOLD;
		return v > 8 ? COLOR_WHITE : COLOR_BLACK;
	}
	c -= 16;
	r = c / 36;
	g = c / 6 % 6;
	b = c % 6;
	if (r + g + b >= 12)
		*extra |= A_BOLD;
	return (short)((r >= 3 ? 1 : 0) | (g >= 3 ? 2 : 0) | (b >= 3 ? 4 : 0));
}

static void
theme_apply(void)
{
	for (int i = 0; i < THEME_NELEMS; i++) {
		attr_t a = specs[i].attrs;

		if (color_on) {
			short fg = reduce_color(specs[i].fg, &a);
			attr_t ignored = 0;
			short bg = reduce_color(specs[i].bg, &ignored);

			init_pair((short)(i + 1), fg, bg);
			a |= COLOR_PAIR(i + 1);
		} else if (specs[i].fg >= 0 && specs[i].bg >= 0 &&
		    specs[i].attrs == A_NORMAL) {
			/* a coloured bar without colours: keep it visible */
			a |= A_REVERSE;
		}
		attrs[i] = a;
	}
}

int
theme_parse(const char *text, const char *where, struct err *err)
{
	struct theme_spec next[THEME_NELEMS];
	const char *p = text;
	unsigned lineno = 0;

	memcpy(next, specs, sizeof next);
	while (*p != '\0') {
		const char *eol = strchr(p, '\n');
		size_t len = eol != NULL ? (size_t)(eol - p) : strlen(p);
		char line[256], *w[8], *s;
		size_t n = 0;
		int e = -1;

		lineno++;
		snprintf(line, sizeof line, "%.*s", (int)(len < 255 ? len :
		    255), p);
		p += len + (eol != NULL);
		for (s = strtok(line, " \t\r"); s != NULL && n < 8;
		    s = strtok(NULL, " \t\r"))
			w[n++] = s;
		if (n == 0 || w[0][0] == '#')
			continue;
		for (int i = 0; i < THEME_NELEMS; i++)
			if (strcmp(w[0], elem_names[i]) == 0)
				e = i;
		if (e < 0)
			return err_set(err, "%s:%u: unknown element '%s'",
			    where, lineno, w[0]);
		if (n < 3)
			return err_set(err, "%s:%u: want: element fg bg "
			    "[attributes]", where, lineno);
		if (parse_color(w[1], &next[e].fg) < 0 ||
		    parse_color(w[2], &next[e].bg) < 0)
			return err_set(err, "%s:%u: bad colour", where, lineno);
		next[e].attrs = A_NORMAL;
		for (size_t i = 3; i < n; i++)
			if (parse_attr(w[i], &next[e].attrs) < 0)
				return err_set(err, "%s:%u: bad attribute '%s'",
				    where, lineno, w[i]);
	}
	memcpy(specs, next, sizeof specs);
	theme_apply();
	return 0;
}

const char *
theme_builtin(const char *name)
{
	if (name == NULL || strcmp(name, "dark") == 0)
		return builtin;
	if (strcmp(name, "light") == 0)
		return builtin_light;
	if (strcmp(name, "mono") == 0)
		return builtin_mono;
	return NULL;
}

int
theme_load(const char *base, const char *path, int use_color,
    struct err *err)
{
	const char *text = theme_builtin(base);
	struct buf file = BUF_INIT;
	char chunk[4096];
	FILE *f;
	size_t n;
	int rc = 0;

	color_on = use_color && has_colors();
	/* dark first, as it names every element; then the base over it */
	if (theme_parse(builtin, "built-in dark", err) < 0 ||
	    (text != NULL && text != builtin &&
	    theme_parse(text, "built-in", err) < 0) ||
	    (!color_on && theme_parse(builtin_mono, "built-in mono", err) < 0))
		ASSAY_BUG("bad built-in theme");
	if (path == NULL)
		return 0;
	f = fopen(path, "r");
	if (f == NULL)
		return err_set(err, "theme %s: %s", path, strerror(errno));
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		buf_add(&file, chunk, n);
	fclose(f);
	rc = theme_parse(buf_str(&file), path, err);
	buf_release(&file);
	return rc;
}

attr_t
theme_attr(enum theme_elem e)
{
	if ((int)e < 0 || e >= THEME_NELEMS)
		return A_NORMAL;
	return attrs[e];
}

enum theme_elem
theme_syntax(enum syn_group g)
{
	switch (g) {
	case SYN_COMMENT:	return THEME_SYN_COMMENT;
	case SYN_KEYWORD:	return THEME_SYN_KEYWORD;
	case SYN_TYPE:		return THEME_SYN_TYPE;
	case SYN_FUNCTION:	return THEME_SYN_FUNCTION;
	case SYN_STRING:	return THEME_SYN_STRING;
	case SYN_NUMBER:	return THEME_SYN_NUMBER;
	case SYN_CONSTANT:	return THEME_SYN_CONSTANT;
	case SYN_OPERATOR:	return THEME_SYN_OPERATOR;
	case SYN_VARIABLE:	return THEME_SYN_VARIABLE;
	case SYN_PROPERTY:	return THEME_SYN_PROPERTY;
	case SYN_PREPROC:	return THEME_SYN_PREPROC;
	case SYN_ERROR:		return THEME_SYN_ERROR;
	default:		return THEME_NORMAL;
	}
}

int
theme_has_color(void)
{
	return color_on;
}
