/*
 * prompt.c - the `:` and `/` lines in the status bar: editing, history
 * and completion.  ui.c runs what Enter hands back; this file only edits
 * the line.
 *
 * History: every line run is kept (history.h) in
 * $XDG_STATE_HOME/assay/history with its prompt character first, so Up
 * and Down (C-p, C-n) walk the lines of this prompt that start with what
 * was typed, across restarts.
 *
 * Completion: Tab completes the word before the cursor from what the
 * words before it allow: a command name first, then a filter key (with
 * its "="), the value of a key with a closed set (verdict=, status=,
 * category=, kind=, disagree=), a saved view, a category, a review, a
 * setting and its values, a key table or an action for bind, a
 * candidate id.  One match is taken whole; several give their longest
 * common prefix and a menu above the status bar, which the next Tab
 * (BTab backwards) walks.
 */
#include "ui/wb.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "app/command.h"
#include "app/config.h"
#include "model/vocab.h"

#define PROMPT_HISTORY_MAX	500

/* The commands of the `:` line (ui.c's table), then every action name. */
static const struct cmd_table *commands;

void
prompt_commands(const struct cmd_table *t)
{
	commands = t;
}

static const char *const filter_keys[] = { "id", "task", "benchmark",
    "domain", "origin", "model", "kind", "lang", "env", "verdict", "stage",
    "category", "subcategory", "status", "source", "parent", "split",
    "license", "grep", "disagree", "dup", "contaminated" };

const char *const *
prompt_filter_keys(size_t *n)
{
	*n = sizeof filter_keys / sizeof filter_keys[0];
	return filter_keys;
}

/* Keys with a closed set of values (store.c filter_value_bad). */
static const struct {
	const char	*key;
	const char	*values[9];
} closed_sets[] = {
	{ "verdict", { VOCAB_VERDICTS(VOCAB_NAME_) "none" } },
	{ "status", { VOCAB_STATUSES(VOCAB_NAME_) } },
	{ "category", { VOCAB_CATEGORIES(VOCAB_NAME_) "none" } },
	{ "kind", { VOCAB_KINDS(VOCAB_NAME_) } },
	{ "disagree", { "yes", "no" } },
	{ "dup", { "yes", "no" } },
	{ "contaminated", { "yes", "no" } },
};

static const char *const categories[] = { VOCAB_CATEGORIES(VOCAB_NAME_) };
static const char *const reviews[] = { VOCAB_STATUSES(VOCAB_VERB_) };

void
prompt_init(struct wb *wb)
{
	struct wb_prompt *p = &wb->pr;
	struct err err;
	char *path;

	/* a replay of keys (--bench-keys) leaves the user's history alone */
	path = wb->o->bench_keys == NULL ? config_state_path("history") : NULL;
	memset(p, 0, sizeof *p);
	history_init(&p->hist, path, PROMPT_HISTORY_MAX);
	free(path);
	p->pos = -1;
	if (history_load(&p->hist, &err) < 0)
		wb_msg(wb, 1, "history: %s", err.msg);
}

static void
comps_clear(struct wb_prompt *p)
{
	for (size_t i = 0; i < p->ncomps; i++)
		free(p->comps[i]);
	free(p->comps);
	p->comps = NULL;
	p->ncomps = 0;
	p->comp = 0;
	p->cycling = 0;
}

void
prompt_release(struct wb *wb)
{
	comps_clear(&wb->pr);
	history_release(&wb->pr.hist);
	free(wb->pr.typed);
	wb->pr.typed = NULL;
}

void
prompt_open(struct wb *wb, char kind, const char *text)
{
	size_t n = text != NULL ? strlen(text) : 0;

	if (n >= sizeof wb->pr.text)
		n = sizeof wb->pr.text - 1;
	wb->pr.open = 1;
	wb->pr.kind = kind;
	memcpy(wb->pr.text, text != NULL ? text : "", n);
	wb->pr.len = n;
	wb->pr.pos = -1;
	free(wb->pr.typed);
	wb->pr.typed = NULL;
	comps_clear(&wb->pr);
}

static void
prompt_set(struct wb *wb, const char *text)
{
	size_t n = strlen(text);

	if (n >= sizeof wb->pr.text)
		n = sizeof wb->pr.text - 1;
	memcpy(wb->pr.text, text, n);
	wb->pr.len = n;
}

/* Up (dir -1) and Down (dir 1) through the lines of this prompt that
 * start with what was typed before the first Up. */
static void
prompt_history(struct wb *wb, int dir)
{
	struct wb_prompt *p = &wb->pr;
	char *prefix;
	long i;

	if (p->pos < 0) {
		if (dir > 0)
			return;
		free(p->typed);
		p->typed = xstrndup(wb->pr.text, wb->pr.len);
	}
	prefix = xasprintf("%c%s", wb->pr.kind, p->typed);
	i = history_find(&p->hist, p->pos < 0 ? (long)p->hist.n : p->pos,
	    dir, prefix);
	free(prefix);
	if (i >= 0) {
		p->pos = i;
		prompt_set(wb, p->hist.lines[i] + 1);
	} else if (dir > 0) {
		/* past the newest: back to what was typed */
		p->pos = -1;
		prompt_set(wb, p->typed);
	}
	/* else nothing older: the line stays, as in a shell */
}

/* --- completion ------------------------------------------------------- */

struct comp_list {
	char	**v;
	size_t	  n;
};

/* Add prefix+word when it starts with want (after prefix), once. */
static void
comp_add(struct comp_list *l, const char *prefix, const char *word,
    const char *want)
{
	char *s;

	if (strncmp(word, want, strlen(want)) != 0)
		return;
	s = xasprintf("%s%s", prefix, word);
	for (size_t i = 0; i < l->n; i++) {
		if (strcmp(l->v[i], s) == 0) {
			free(s);
			return;
		}
	}
	l->v = xreallocarray(l->v, l->n + 1, sizeof *l->v);
	l->v[l->n++] = s;
}

static void
comp_words(struct comp_list *l, const char *const *w, size_t n,
    const char *want)
{
	for (size_t i = 0; i < n; i++)
		if (w[i] != NULL)
			comp_add(l, "", w[i], want);
}

static int
comp_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A filter predicate: the key with "=" or, after the operator, the
 * values of a closed set. */
static void
comp_filter(struct comp_list *l, const char *word)
{
	const char *op = strpbrk(word, "=~!");
	char prefix[64];
	size_t klen;

	if (op == NULL) {
		for (size_t i = 0; i < sizeof filter_keys /
		    sizeof filter_keys[0]; i++) {
			snprintf(prefix, sizeof prefix, "%s=", filter_keys[i]);
			comp_add(l, "", prefix, word);
		}
		return;
	}
	klen = (size_t)(op - word);
	if (*op == '!' && op[1] == '=')
		op++;
	if (*op != '=' || klen >= sizeof prefix)
		return;
	snprintf(prefix, sizeof prefix, "%.*s", (int)(op + 1 - word), word);
	for (size_t i = 0; i < sizeof closed_sets / sizeof closed_sets[0];
	    i++) {
		if (strlen(closed_sets[i].key) != klen ||
		    strncmp(closed_sets[i].key, word, klen) != 0)
			continue;
		for (size_t v = 0; closed_sets[i].values[v] != NULL; v++)
			comp_add(l, prefix, closed_sets[i].values[v], op + 1);
	}
}

static void
comp_views(struct wb *wb, struct comp_list *l, const char *word)
{
	struct store_view *v;
	struct err err;
	size_t n;

	if (store_view_list(wb->st, &v, &n, &err) < 0)
		return;
	for (size_t i = 0; i < n; i++) {
		comp_add(l, "", v[i].name, word);
		store_view_release(&v[i]);
	}
	free(v);
}

/* Theme names: the built-in ones and the files of the theme folders. */
static void
comp_themes(struct wb *wb, struct comp_list *l, const char *word)
{
	char *dirs[3];

	comp_words(l, config_values("theme"), 3, word);
	dirs[0] = config_path("themes");
	dirs[1] = wb->o->data_dir != NULL ? xasprintf("%s/themes",
	    wb->o->data_dir) : NULL;
	dirs[2] = wb->o->data_dir != NULL ? xasprintf("%s/../themes",
	    wb->o->data_dir) : NULL;
	for (int i = 0; i < 3; i++) {
		DIR *d = dirs[i] != NULL ? opendir(dirs[i]) : NULL;
		struct dirent *e;

		while (d != NULL && (e = readdir(d)) != NULL) {
			size_t len = strlen(e->d_name);
			char *name;

			if (len <= 6 || e->d_name[0] == '.' ||
			    strcmp(e->d_name + len - 6, ".theme") != 0)
				continue;
			name = xstrndup(e->d_name, len - 6);
			comp_add(l, "", name, word);
			free(name);
		}
		if (d != NULL)
			closedir(d);
		free(dirs[i]);
	}
}

static void
comp_ids(struct wb *wb, struct comp_list *l, const char *word)
{
	struct store_row *rows;
	struct err err;
	size_t n;
	char *f;

	if (*word == '\0' || strpbrk(word, " \"") != NULL)
		return;
	f = xasprintf("id~%s", word);
	if (store_query_page(wb->st, f, 0, 32, &rows, &n, &err) == 0) {
		for (size_t i = 0; i < n; i++) {
			comp_add(l, "", rows[i].id, word);
			store_row_release(&rows[i]);
		}
		free(rows);
	}
	free(f);
}

/* What may stand at word number k (w[0..k-1] before it). */
static void
comp_collect(struct wb *wb, char **w, size_t k, const char *word,
    struct comp_list *l)
{
	const char *cmd = k > 0 ? w[0] : "";
	const struct cmd_entry *e;
	enum keymap_table t;

	if (k == 0) {
		/* what runs on the `:` line, key actions included */
		for (size_t i = 0; commands != NULL && i < commands->n; i++) {
			if (!(commands->v[i]->flags & CMD_WORKBENCH))
				continue;
			comp_add(l, "", commands->v[i]->name, word);
			if (commands->v[i]->alias != NULL)
				comp_add(l, "", commands->v[i]->alias, word);
		}
	} else if (word[0] == '-' && commands != NULL && (e = cmd_lookup(
	    commands, cmd, CMD_WORKBENCH, NULL)) != NULL &&
	    !(e->flags & CMD_TEXT)) {
		/* an option of the command's entry: --where, --sub */
		for (const struct cmd_opt *o = e->opts; o != NULL &&
		    o->name != NULL; o++)
			comp_add(l, "--", o->name, word + (word[1] == '-' ?
			    2 : 1));
	} else if (strcmp(cmd, "filter") == 0 || strcmp(cmd, "where") == 0 ||
	    (k >= 2 && strcmp(w[k - 1], "--where") == 0)) {
		comp_filter(l, word);
	} else if ((strcmp(cmd, "view") == 0 || strcmp(cmd, "save") == 0) &&
	    k == 1) {
		comp_views(wb, l, word);
	} else if (strcmp(cmd, "label") == 0 && k == 1) {
		comp_words(l, categories, CATEGORY_N, word);
	} else if (strcmp(cmd, "review") == 0 && k == 1) {
		comp_words(l, reviews, STATUS_N, word);
	} else if ((strcmp(cmd, "goto") == 0 || strcmp(cmd, "show") == 0) &&
	    k == 1) {
		comp_ids(wb, l, word);
	} else if (strcmp(cmd, "bind") == 0 || strcmp(cmd, "unbind") == 0) {
		/* bind [TABLE] KEY ACTION: keys cannot be listed */
		int table = k >= 2 && keymap_table_parse(w[1], &t, NULL) == 0;

		if (k == 1)
			for (int i = 0; i < KEYMAP_NTABLES; i++)
				comp_add(l, "", keymap_table_name(
				    (enum keymap_table)i), word);
		if (strcmp(cmd, "bind") == 0 && k == (table ? 3u : 2u))
			for (int a = 1; a < ACTION_COUNT; a++)
				comp_add(l, "", keymap_action_name(
				    (enum action)a), word);
	} else if (strcmp(cmd, "set") == 0 && k == 1) {
		size_t n;
		const char *const *names = config_names(&n);

		comp_words(l, names, n, word);
	} else if ((strcmp(cmd, "set") == 0 && k == 2) || k == 1) {
		const char *name = strcmp(cmd, "set") == 0 ? w[1] : cmd;
		const char *const *v = config_values(name);

		if (strcmp(name, "theme") == 0)
			comp_themes(wb, l, word);
		else
			for (size_t i = 0; v != NULL && v[i] != NULL; i++)
				comp_add(l, "", v[i], word);
	}
}

/* Replace the text from the completed word's start by s (and a blank
 * after a whole word, when asked). */
static void
comp_put(struct wb *wb, const char *s, int blank)
{
	char line[sizeof wb->pr.text];

	snprintf(line, sizeof line, "%.*s%s%s", (int)wb->pr.word, wb->pr.text,
	    s, blank ? " " : "");
	prompt_set(wb, line);
}

static void
prompt_complete(struct wb *wb, int dir)
{
	struct wb_prompt *p = &wb->pr;
	struct comp_list l = { NULL, 0 };
	char *line, *w[16], *word;
	size_t k = 0, lcp;
	int quoted = 0;

	if (wb->pr.kind != ':')
		return;
	if (p->cycling && p->ncomps > 1) {
		if (p->comp == p->ncomps)	/* none chosen yet */
			p->comp = dir > 0 ? 0 : p->ncomps - 1;
		else
			p->comp = (p->comp + p->ncomps + (dir > 0 ? 1 : 0) -
			    (dir > 0 ? 0 : 1)) % p->ncomps;
		comp_put(wb, p->comps[p->comp], 0);
		return;
	}
	comps_clear(p);
	/* the word being completed starts after the last unquoted blank */
	p->word = 0;
	for (size_t i = 0; i < wb->pr.len; i++) {
		if (wb->pr.text[i] == '"')
			quoted = !quoted;
		else if (wb->pr.text[i] == ' ' && !quoted)
			p->word = i + 1;
	}
	if (quoted)
		return;
	line = xstrndup(wb->pr.text, p->word);
	for (char *s = strtok(line, " "); s != NULL && k < 16;
	    s = strtok(NULL, " "))
		w[k++] = s;
	word = xstrndup(wb->pr.text + p->word, wb->pr.len - p->word);
	comp_collect(wb, w, k, word, &l);
	free(line);
	if (l.n == 0) {		/* nothing fits: the line stays */
		free(word);
		return;
	}
	qsort(l.v, l.n, sizeof *l.v, comp_cmp);
	if (l.n == 1) {
		size_t len = strlen(l.v[0]);

		comp_put(wb, l.v[0], len > 0 && l.v[0][len - 1] != '=');
		free(l.v[0]);
		free(l.v);
		free(word);
		return;
	}
	/* several: their common prefix now, the menu for the next Tab */
	lcp = strlen(l.v[0]);
	for (size_t i = 1; i < l.n; i++) {
		size_t j = 0;

		while (j < lcp && l.v[i][j] == l.v[0][j])
			j++;
		lcp = j;
	}
	if (lcp > strlen(word)) {
		char *s = xstrndup(l.v[0], lcp);

		comp_put(wb, s, 0);
		free(s);
	}
	free(word);
	p->comps = l.v;
	p->ncomps = l.n;
	p->comp = l.n;		/* none chosen yet */
	p->cycling = 1;
}

/* --- keys ------------------------------------------------------------- */

int
prompt_key(struct wb *wb, int key, char *out, size_t n)
{
	struct wb_prompt *p = &wb->pr;
	int was_cycling = p->cycling;
	/* the editing keys come from the prompt table; others type */
	enum action a = keymap_lookup(&wb->km, KEYMAP_PROMPT, key);

	if (a != ACTION_PROMPT_COMPLETE && a != ACTION_PROMPT_COMPLETE_BACK)
		comps_clear(p);
	if (a == ACTION_PROMPT_RUN) {
		struct err err;
		char *h;

		/* a completed word leaves a blank: not worth keeping */
		while (wb->pr.len > 0 && wb->pr.kind == ':' &&
		    wb->pr.text[wb->pr.len - 1] == ' ')
			wb->pr.len--;
		snprintf(out, n, "%.*s", (int)wb->pr.len, wb->pr.text);
		wb->pr.open = 0;
		wb->msg[0] = '\0';
		if (wb->pr.len > 0) {
			h = xasprintf("%c%s", wb->pr.kind, out);
			if (history_add(&p->hist, h, &err) < 0)
				wb_msg(wb, 1, "history: %s", err.msg);
			free(h);
		}
		p->pos = -1;
		return 1;
	}
	if (a == ACTION_PROMPT_LEAVE) {
		if (was_cycling)	/* Esc first closes the menu */
			return 0;
		wb->pr.open = 0;
		return 0;
	}
	if (a == ACTION_PROMPT_COMPLETE || a == ACTION_PROMPT_COMPLETE_BACK) {
		prompt_complete(wb, a == ACTION_PROMPT_COMPLETE ? 1 : -1);
		return 0;
	}
	if (a == ACTION_PROMPT_HISTORY_PREV) {
		prompt_history(wb, -1);
		return 0;
	}
	if (a == ACTION_PROMPT_HISTORY_NEXT) {
		prompt_history(wb, 1);
		return 0;
	}
	p->pos = -1;	/* editing ends the walk through the history */
	if (a == ACTION_PROMPT_DELETE_CHAR) {
		if (wb->pr.len == 0) {
			wb->pr.open = 0;
			return 0;
		}
		do
			wb->pr.len--;
		while (wb->pr.len > 0 &&
		    (wb->pr.text[wb->pr.len] & 0xC0) == 0x80);
		return 0;
	}
	if (a == ACTION_PROMPT_CLEAR) {
		wb->pr.len = 0;
		return 0;
	}
	if (a == ACTION_PROMPT_DELETE_WORD) {
		while (wb->pr.len > 0 && wb->pr.text[wb->pr.len - 1] ==
		    ' ')
			wb->pr.len--;
		while (wb->pr.len > 0 && wb->pr.text[wb->pr.len - 1] !=
		    ' ')
			wb->pr.len--;
		return 0;
	}
	if (key >= 32 && key < KEYMAP_KEY_BASE && key != 127) {
		char mb[8];
		mbstate_t st;
		size_t k;

		memset(&st, 0, sizeof st);
		k = wcrtomb(mb, (wchar_t)key, &st);
		if (k != (size_t)-1 && wb->pr.len + k < sizeof wb->pr.text) {
			memcpy(wb->pr.text + wb->pr.len, mb, k);
			wb->pr.len += k;
		}
	}
	return 0;
}

void
prompt_draw_menu(struct wb *wb)
{
	const struct wb_prompt *p = &wb->pr;
	attr_t base = theme_attr(THEME_STATUS), sel = theme_attr(THEME_CURSOR);
	int y = LINES - 2, x = 1, start = 0;
	WINDOW *win;

	if (!wb->pr.open || p->ncomps < 2 || y < 0)
		return;
	win = newwin(1, COLS, y, 0);
	if (win == NULL)
		return;
	wmove(win, 0, 0);
	for (int i = 0; i < COLS; i++)
		waddch(win, ' ' | base);
	/* scroll the menu so that the chosen one shows */
	if (p->comp < p->ncomps) {
		int w = 1;

		for (size_t i = 0; i <= p->comp; i++)
			w += pane_width(p->comps[i], strlen(p->comps[i])) + 2;
		for (size_t i = 0; w > COLS - 4 && i < p->comp; i++) {
			w -= pane_width(p->comps[i], strlen(p->comps[i])) + 2;
			start++;
		}
	}
	if (start > 0)
		x += pane_puts(win, 0, x, 2, "< ", base);
	size_t i;

	for (i = (size_t)start; i < p->ncomps && x < COLS - 2; i++) {
		int w = pane_width(p->comps[i], strlen(p->comps[i]));

		if (x + w > COLS - 2)
			break;
		x += pane_puts(win, 0, x, w, p->comps[i], i == p->comp ? sel :
		    base);
		x += pane_puts(win, 0, x, 2, "  ", base);
	}
	/* more to the right, also when the last shown one filled the line
	 * (two values went without a mark at 80 columns) */
	if (i < p->ncomps)
		pane_puts(win, 0, COLS - 2, 2, ">", base);
	wnoutrefresh(win);
	delwin(win);
}
