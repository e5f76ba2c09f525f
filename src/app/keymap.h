/*
 * keymap.h - key tables that bind keys to actions (action.h), tmux-style.
 *
 * A key is an int: a Unicode code point, where the control characters
 * are the Ctrl-letters ("C-r" is 18, "Enter" is 13, "Tab" 9, "Esc" 27,
 * "Backspace" 127), or KEYMAP_KEY_BASE + n for keys that have no code
 * point (arrows, pages, function keys).  The UI turns its terminal
 * library's key codes into these; this module knows no curses.
 *
 * There is one table per input mode: "global" for the workbench, "term"
 * for keys that the workbench keeps while a program in the toolchain pane
 * has the keyboard (Ctrl-] by default), "stats" and "diff" for the
 * sheets (looked up before "global", whose movement keys they share),
 * and "prompt" for the editing keys of the : and / line.  Tables are plain arrays in
 * binding order, so `?` lists the keys the way they were bound.
 *
 * Called by src/ui (dispatch, help, status bar hints) and tests.
 */
#ifndef ASSAY_KEYMAP_H
#define ASSAY_KEYMAP_H

#include <stddef.h>

#include "app/action.h"
#include "app/command.h"
#include "base/err.h"

#define KEYMAP_KEY_BASE	0x110000	/* first code past Unicode */

enum keymap_named_key {
	KEYMAP_KEY_UP = KEYMAP_KEY_BASE,
	KEYMAP_KEY_DOWN,
	KEYMAP_KEY_LEFT,
	KEYMAP_KEY_RIGHT,
	KEYMAP_KEY_HOME,
	KEYMAP_KEY_END,
	KEYMAP_KEY_PGUP,
	KEYMAP_KEY_PGDN,
	KEYMAP_KEY_INS,
	KEYMAP_KEY_DEL,
	KEYMAP_KEY_BTAB,		/* Shift-Tab */
	KEYMAP_KEY_F0 = KEYMAP_KEY_BASE + 64	/* F(n) is F0 + n, n < 64 */
};
#define KEYMAP_KEY_F(n)	(KEYMAP_KEY_F0 + (n))
#define KEYMAP_KEY_MAX	(KEYMAP_KEY_F0 + 63)

/* Keys with a code point that read better by name. */
#define KEYMAP_KEY_ENTER	13
#define KEYMAP_KEY_TAB		9
#define KEYMAP_KEY_ESC		27
#define KEYMAP_KEY_BACKSPACE	127
/* KEYMAP_CTRL('r') == 18 */
#define KEYMAP_CTRL(c)		((c) & 0x1f)

enum keymap_table {
	KEYMAP_GLOBAL,		/* the workbench */
	KEYMAP_TERM,		/* the toolchain pane's program has keys */
	KEYMAP_STATS,		/* the statistics sheet, before global */
	KEYMAP_DIFF,		/* the diff sheet, before global */
	KEYMAP_WAVE,		/* the waveform sheet, before global */
	KEYMAP_PROMPT,		/* the : and / line (other keys type) */
	KEYMAP_NTABLES
};

struct keymap_binding {
	int		 key;
	enum action	 action;
};

/* A key of the global table bound to a `:` command line (owned). */
struct keymap_command {
	int		 key;
	char		*line;
};

/* The tables; each owns its array of bindings. */
struct keymap {
	struct keymap_binding	*binds[KEYMAP_NTABLES];
	size_t			 n[KEYMAP_NTABLES];
	size_t			 cap[KEYMAP_NTABLES];
	struct keymap_command	*cmds;		/* global table only */
	size_t			 ncmds;
	/* The one command table (NULL: not known): a command line bound
	 * to a key must start with one of its commands that runs from a
	 * key (CMD_KEY; every action is one), and the config file reads
	 * its lines by it. */
	const struct cmd_table	*commands;
};

/* Empty tables (keymap_init) or the defaults of design.md section 6. */
void	keymap_init(struct keymap *km);
void	keymap_defaults(struct keymap *km);
/* Free the tables; km is left empty.  NULL-safe. */
void	keymap_release(struct keymap *km);

/*
 * Bind key to action in table, replacing what key did there; ACTION_NONE
 * removes the binding.  A new key goes to the end of the table.
 */
void	keymap_bind(struct keymap *km, enum keymap_table t, int key,
	    enum action a);

/*
 * Bind key of the global table to the `:` command line line (copied),
 * replacing what key did there (its action too); NULL removes it.  The
 * workbench runs the line as if typed after `:`.
 */
void	keymap_bind_command(struct keymap *km, int key, const char *line);

/* The command line key runs in the global table, or NULL. */
const char *keymap_command(const struct keymap *km, int key);

/* The action of key in table, ACTION_NONE when unbound. */
enum action keymap_lookup(const struct keymap *km, enum keymap_table t,
	    int key);

/*
 * The keys bound to a in table, in binding order: up to max of them go
 * into keys; returns how many there are in all.
 */
size_t	keymap_keys(const struct keymap *km, enum keymap_table t,
	    enum action a, int *keys, size_t max);

/*
 * Key names: a single character ("j", "?", "é"), "C-x" for a Ctrl-letter
 * (also "C-]", "C-\", "C-^", "C-_", "C-@"), "Enter", "Tab", "BTab",
 * "Esc", "Backspace", "Space", "Up", "Down", "Left", "Right", "Home",
 * "End", "PgUp", "PgDn", "Ins", "Del", "F1".."F63".  Parsing also takes
 * a few aliases ("Return", "PageUp", "^R").  Returns 0, or -1 with err.
 */
int	keymap_key_parse(const char *name, int *key, struct err *err);

/* The canonical name of key into buf (always NUL-terminated). */
void	keymap_key_name(int key, char *buf, size_t n);

/* An action's name ("move-down") and help text; "" for a bad value. */
const char *keymap_action_name(enum action a);
const char *keymap_action_help(enum action a);
/* The action of a name; 0, or -1 with err. */
int	keymap_action_parse(const char *name, enum action *out,
	    struct err *err);

/* A table's name ("global", "term") and back; 0, or -1 with err. */
const char *keymap_table_name(enum keymap_table t);
int	keymap_table_parse(const char *name, enum keymap_table *out,
	    struct err *err);

/*
 * One line of a key file: "bind [TABLE] KEY ACTION", "bind KEY COMMAND
 * LINE" (two words or more, or one after ':': a `:` command line, in the
 * global table: `bind 1 label compile`, `bind 9 :views`) or
 * "unbind [TABLE] KEY" (TABLE defaults to global); blank lines and
 * lines starting with '#' do nothing.  0, or -1 with err (km unchanged).
 */
int	keymap_parse_line(struct keymap *km, const char *line,
	    struct err *err);

/*
 * Apply every line of the file at path.  Returns 0, 1 when the file does
 * not exist, or -1 with err as "path:line: what is wrong" (the lines
 * before the bad one stay applied).
 */
int	keymap_load(struct keymap *km, const char *path, struct err *err);

#endif
