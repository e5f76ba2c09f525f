/*
 * panes/help.c - `?`: every action with the keys the live keymap binds to
 * it and its help text (tig's REQ_INFO listing), table by table: the
 * workbench, the program in the pane, the stats and diff sheets and the
 * prompt; then the `:` commands from their table and the filter keys.
 */
#include "ui/wb.h"

#include <stdio.h>
#include <string.h>

#include "app/command.h"
#include "app/commands.h"

/* Where the action's name and its help text start when there is room
 * (100 columns): the longest name, prompt-complete-back, is 20. */
#define HELP_NAME_X	17
#define HELP_TEXT_X	39

/* A heading at row y (less scroll) of rows; win NULL only counts. */
static void
help_heading_at(WINDOW *win, size_t y, int scroll, int rows, int cols,
    const char *text)
{
	int r = (int)y - scroll;
	char cut[512];

	/* cut with an ellipsis where the pane is narrower */
	pane_cut(text, cols, cut, sizeof cut);
	if (win != NULL && r >= 0 && r < rows)
		pane_puts(win, r, 0, cols, cut, theme_attr(THEME_HEADER));
}

/*
 * The help text of an action from row r, in the column after the keys
 * (and the action's name where there is room), wrapped at blanks so that
 * nothing is cut; returns the rows it takes.
 */
static size_t
help_text(WINDOW *win, int r, int rows, int cols, const char *text)
{
	struct pane_line lines[8];
	int hx = cols >= 100 ? HELP_TEXT_X : 17;
	size_t n = pane_wrap(text, cols - hx > 20 ? cols - hx : 20, lines, 8);

	for (size_t i = 0; i < n && i < 8; i++, r++)
		if (win != NULL && r >= 0 && r < rows)
			pane_put(win, r, hx, cols - hx, lines[i].s,
			    lines[i].len, theme_attr(THEME_NORMAL));
	return n > 0 ? n : 1;
}

/* The heading of each table of the keymap (every table has one: the
 * waveform sheet's keys once stood under the prompt's heading). */
static const char *const help_heading[KEYMAP_NTABLES] = {
	[KEYMAP_GLOBAL] = "Workbench keys (table global)",
	[KEYMAP_TERM] = "While a program in the toolchain pane has the keyboard"
	    " (table term)",
	[KEYMAP_STATS] = "The statistics sheet, s (table stats; the"
	    " workbench's j k PgDn PgUp g G move, ? shows this)",
	[KEYMAP_DIFF] = "The diff sheet, d (table diff; the workbench's j k"
	    " PgDn PgUp g G scroll, ? shows this)",
	[KEYMAP_WAVE] = "The waveform sheet, W (table wave; the workbench's"
	    " j k PgDn PgUp g G move)",
	[KEYMAP_PROMPT] = "The : and / prompt (table prompt; other keys type)",
};

/*
 * The first sentence of a help text into buf (n bytes), its lines joined:
 * up to a full stop followed by a blank and a capital, or the end.  The
 * help is wrapped at 70 columns in the table, so its first line stopped
 * mid-sentence ("...failure categories: compile api").
 */
static void
first_sentence(const char *help, char *buf, size_t n)
{
	size_t len = 0;

	for (const char *p = help; *p != '\0' && len + 1 < n; p++) {
		buf[len++] = *p == '\n' ? ' ' : *p;
		if (*p == '.' && (p[1] == '\0' || ((p[1] == ' ' ||
		    p[1] == '\n') && (p[2] == '\0' || p[2] == ' ' ||
		    (p[2] >= 'A' && p[2] <= 'Z')))))
			break;
	}
	buf[len] = '\0';
}

/*
 * The `:` commands, from the table the prompt runs (their usage, then
 * the first line of their help), and the filter language's keys; from
 * row *y on, which it advances.  win NULL only counts.
 */
static void
help_commands(const struct wb *wb, WINDOW *win, size_t *yp, int scroll,
    int rows, int cols)
{
	size_t y = *yp;

	if (wb->km.commands != NULL) {
		const struct cmd_table *t = wb->km.commands;

		help_heading_at(win, y++, scroll, rows, cols, "The : commands"
		    " (Tab completes them; :CMD --help says more)");
		for (size_t i = 0; i < t->n && t->v[i] != NULL; i++) {
			const struct cmd_entry *e = t->v[i];
			char line[768], what[512];
			int r = (int)y - scroll;

			/* the key actions are listed with their keys */
			if (!(e->flags & CMD_WORKBENCH) ||
			    app_action_of(e) != ACTION_NONE)
				continue;
			first_sentence(e->help, what, sizeof what);
			if (e->alias != NULL)
				snprintf(line, sizeof line, ":%s (or :%s) "
				    "\xe2\x80\x94 %s", e->usage, e->alias, what);
			else
				snprintf(line, sizeof line, ":%s \xe2\x80\x94 "
				    "%s", e->usage, what);
			if (win != NULL && r >= 0 && r < rows)
				pane_puts(win, r, 1, 15, e->name,
				    theme_attr(THEME_HELP_KEY));
			y += help_text(win, (int)y - scroll, rows, cols, line);
		}
		y++;
	}
	{
		size_t n;
		const char *const *keys = prompt_filter_keys(&n);
		char line[512];
		size_t len = 0;

		help_heading_at(win, y++, scroll, rows, cols, "Filter keys"
		    " (:filter KEY=VALUE ..., also != ~ and grep=TEXT)");
		for (size_t i = 0; i < n && len < sizeof line; i++)
			len += (size_t)snprintf(line + len, sizeof line - len,
			    "%s%s", i > 0 ? " " : "", keys[i]);
		y += help_text(win, (int)y - scroll, rows, cols, line);
		y++;
	}
	*yp = y;
}

/*
 * Rows of the help: a heading per table, then a row per action (more
 * where its text wraps).  win NULL only counts.
 */
static size_t
help_rows(const struct wb *wb, WINDOW *win, int scroll, int rows, int cols)
{
	size_t y = 0;

	for (int t = 0; t < KEYMAP_NTABLES; t++) {
		int r;

		help_heading_at(win, y++, scroll, rows, cols,
		    help_heading[t]);
		for (int a = 1; a < ACTION_COUNT; a++) {
			int keys[8];
			size_t n = keymap_keys(&wb->km, (enum keymap_table)t,
			    (enum action)a, keys, 8);
			char names[64] = "";
			size_t len = 0;

			if (n == 0)
				continue;
			for (size_t i = 0; i < n && i < 8; i++) {
				char k[16];

				keymap_key_name(keys[i], k, sizeof k);
				len += (size_t)snprintf(names + len,
				    sizeof names - len, "%s%s", i ? " " : "",
				    k);
				if (len >= sizeof names)
					break;
			}
			r = (int)y - scroll;
			if (win != NULL && r >= 0 && r < rows) {
				pane_puts(win, r, 1, 15, names,
				    theme_attr(THEME_HELP_KEY));
				if (cols >= 100)
					pane_puts(win, r, HELP_NAME_X,
					    HELP_TEXT_X - HELP_NAME_X - 1,
					    keymap_action_name((enum action)a),
					    theme_attr(THEME_DIM));
			}
			y += help_text(win, (int)y - scroll, rows, cols,
			    keymap_action_help((enum action)a));
		}
		y++;
		/* what the : line runs, after the keys that open it */
		if (t == KEYMAP_GLOBAL)
			help_commands(wb, win, &y, scroll, rows, cols);
	}
	/* Keys bound to `:` command lines (bind 1 label compile), in the
	 * order they were bound; the global table's keys. */
	if (wb->km.ncmds > 0) {
		int r;

		help_heading_at(win, y++, scroll, rows, cols,
		    "Keys bound to : command lines");
		for (size_t i = 0; i < wb->km.ncmds; i++) {
			char k[16], line[256];

			keymap_key_name(wb->km.cmds[i].key, k, sizeof k);
			snprintf(line, sizeof line, ":%s", wb->km.cmds[i].line);
			r = (int)y - scroll;
			if (win != NULL && r >= 0 && r < rows)
				pane_puts(win, r, 1, 15, k,
				    theme_attr(THEME_HELP_KEY));
			y += help_text(win, (int)y - scroll, rows, cols, line);
		}
		y++;
	}
	return y;
}

static void
help_draw(struct pane *p, WINDOW *win)
{
	help_rows(p->wb, win, p->scroll, p->rows, p->cols);
}

static int
help_open(struct pane *p, const struct pane_place *at)
{
	(void)at;
	p->scroll = 0;
	return 0;
}

/*
 * j, k and the like scroll; ?, q, Esc and any other key close it, as
 * htop's help does.  Another key is said not to have acted (1 closed
 * the help without a word: was it labelled?).
 */
static int
help_key(struct pane *p, int key, enum action a)
{
	char name[32];

	if (a == ACTION_HELP || a == ACTION_QUIT || key == KEYMAP_KEY_ESC) {
		p->shown = 0;
		return 1;
	}
	if (a == ACTION_PROMPT) {	/* closed, and the : line opens */
		p->shown = 0;
		return 0;
	}
	if (a != ACTION_NONE && pane_scroll(p, a, help_rows(p->wb, NULL, 0, 0,
	    p->cols)))
		return 1;
	p->shown = 0;
	if (key != 0) {
		keymap_key_name(key, name, sizeof name);
		wb_msg(p->wb, 0, "help closed; %s did nothing (press it "
		    "again)", name);
	}
	return 1;
}

static void
help_title(struct pane *p, char *buf, size_t n)
{
	/* whole phrases only: the title rule does not wrap */
	snprintf(buf, n, "j/k scroll \xc2\xb7 q, Esc or ? closes%s",
	    p->cols >= 96 ? " \xc2\xb7 :bind KEY ACTION remaps" : "");
}

const struct pane_ops pane_help_ops = {
	.name = "help \xe2\x80\x94 live keymap",
	.open = help_open,
	.draw = help_draw,
	.key = help_key,
	.title = help_title,
};
