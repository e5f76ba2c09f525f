/*
 * keymap.c - key tables, key names and the key file; see keymap.h.
 * No curses here: the UI translates its key codes into keymap keys
 * before it looks anything up.
 */
#include "app/keymap.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "app/command.h"
#include "base/buf.h"
#include "base/err.h"

#define ACTION_NAME(id, name, help) name,
static const char *const action_names[] = {
	"none",
	ACTION_INFO(ACTION_NAME)
};
#undef ACTION_NAME

#define ACTION_HELP(id, name, help) help,
static const char *const action_helps[] = {
	"",
	ACTION_INFO(ACTION_HELP)
};
#undef ACTION_HELP

static const char *const table_names[KEYMAP_NTABLES] = { "global", "term",
    "stats", "diff", "wave", "prompt" };

/* Names of keys, canonical first for each code. */
static const struct {
	const char	*name;
	int		 key;
} key_names[] = {
	{ "Enter",	KEYMAP_KEY_ENTER },
	{ "Return",	KEYMAP_KEY_ENTER },
	{ "Tab",	KEYMAP_KEY_TAB },
	{ "BTab",	KEYMAP_KEY_BTAB },
	{ "S-Tab",	KEYMAP_KEY_BTAB },
	{ "Esc",	KEYMAP_KEY_ESC },
	{ "Escape",	KEYMAP_KEY_ESC },
	{ "Backspace",	KEYMAP_KEY_BACKSPACE },
	{ "BSpace",	KEYMAP_KEY_BACKSPACE },
	{ "Space",	' ' },
	{ "Up",		KEYMAP_KEY_UP },
	{ "Down",	KEYMAP_KEY_DOWN },
	{ "Left",	KEYMAP_KEY_LEFT },
	{ "Right",	KEYMAP_KEY_RIGHT },
	{ "Home",	KEYMAP_KEY_HOME },
	{ "End",	KEYMAP_KEY_END },
	{ "PgUp",	KEYMAP_KEY_PGUP },
	{ "PageUp",	KEYMAP_KEY_PGUP },
	{ "PPage",	KEYMAP_KEY_PGUP },
	{ "PgDn",	KEYMAP_KEY_PGDN },
	{ "PageDown",	KEYMAP_KEY_PGDN },
	{ "NPage",	KEYMAP_KEY_PGDN },
	{ "Ins",	KEYMAP_KEY_INS },
	{ "Insert",	KEYMAP_KEY_INS },
	{ "Del",	KEYMAP_KEY_DEL },
	{ "Delete",	KEYMAP_KEY_DEL },
};

/*
 * The default bindings of design.md section 6, in the order `?` lists
 * them, written as the lines a config file would hold (tmux's
 * key-bindings.c): every one names a command of the one table, a key
 * action (cmd_action.c).
 */
static const char *const default_lines[] = {
	"bind j move-down",
	"bind Down move-down",
	"bind k move-up",
	"bind Up move-up",
	"bind PgDn page-down",
	"bind C-f page-down",
	"bind PgUp page-up",
	"bind C-b page-up",
	"bind h scroll-left",
	"bind Left scroll-left",
	"bind l scroll-right",
	"bind Right scroll-right",
	"bind w wrap",
	"bind g move-first",
	"bind Home move-first",
	"bind G move-last",
	"bind End move-last",
	"bind Enter enter",
	"bind Tab next-pane",
	"bind BTab prev-pane",
	"bind z zoom",
	"bind Esc back",
	"bind v verify",
	"bind x cancel",
	"bind C-c cancel",
	"bind e edit",
	"bind C-] keyboard",
	"bind 1 label-compile",
	"bind 2 label-api",
	"bind 3 label-functional",
	"bind 4 label-format",
	"bind 5 label-performance",
	"bind a accept",
	"bind r reject",
	"bind R model-repair",
	"bind o goto-new",
	"bind f flag",
	"bind Space mark",
	"bind m note",
	"bind u undo",
	"bind C-r redo",
	"bind c commit",
	"bind / search",
	"bind n search-next",
	"bind N search-prev",
	"bind s stats",
	"bind d diff",
	"bind W wave",
	"bind S solid",
	"bind : prompt",
	"bind ? help",
	"bind C-l redraw",
	"bind q quit",
	"bind term C-] keyboard",
	"bind stats h cell-left",
	"bind stats Left cell-left",
	"bind stats l cell-right",
	"bind stats Right cell-right",
	"bind stats Tab next-grouping",
	"bind stats BTab prev-grouping",
	"bind stats Enter drill",
	"bind stats q close",
	"bind stats Esc close",
	"bind stats s close",
	"bind stats C-c close",
	"bind diff s diff-layout",
	"bind diff S diff-layout",
	"bind diff Tab diff-next",
	"bind diff BTab diff-prev",
	"bind diff q close",
	"bind diff Esc close",
	"bind diff d close",
	"bind diff C-c close",
	"bind wave n wave-next",
	"bind wave Tab wave-next",
	"bind wave N wave-prev",
	"bind wave BTab wave-prev",
	"bind wave + wave-zoom-in",
	"bind wave = wave-zoom-in",
	"bind wave - wave-zoom-out",
	"bind wave q close",
	"bind wave Esc close",
	"bind wave W close",
	"bind wave C-c close",
	"bind prompt Enter prompt-run",
	"bind prompt C-j prompt-run",
	"bind prompt Esc prompt-leave",
	"bind prompt C-c prompt-leave",
	"bind prompt C-g prompt-leave",
	"bind prompt Tab prompt-complete",
	"bind prompt BTab prompt-complete-back",
	"bind prompt Up prompt-history-prev",
	"bind prompt C-p prompt-history-prev",
	"bind prompt Down prompt-history-next",
	"bind prompt C-n prompt-history-next",
	"bind prompt Backspace prompt-delete-char",
	"bind prompt C-h prompt-delete-char",
	"bind prompt C-w prompt-delete-word",
	"bind prompt C-u prompt-clear",
};

void
keymap_init(struct keymap *km)
{
	memset(km, 0, sizeof *km);
}

void
keymap_release(struct keymap *km)
{
	if (km == NULL)
		return;
	for (int t = 0; t < KEYMAP_NTABLES; t++)
		free(km->binds[t]);
	for (size_t i = 0; i < km->ncmds; i++)
		free(km->cmds[i].line);
	free(km->cmds);
	memset(km, 0, sizeof *km);
}

void
keymap_defaults(struct keymap *km)
{
	struct err err;

	for (size_t i = 0; i < sizeof default_lines /
	    sizeof default_lines[0]; i++)
		if (keymap_parse_line(km, default_lines[i], &err) < 0)
			ASSAY_BUG("bad default binding");
}

void
keymap_bind_command(struct keymap *km, int key, const char *line)
{
	for (size_t i = 0; i < km->ncmds; i++) {
		if (km->cmds[i].key != key)
			continue;
		free(km->cmds[i].line);
		memmove(&km->cmds[i], &km->cmds[i + 1], (km->ncmds - i - 1) *
		    sizeof *km->cmds);
		km->ncmds--;
		break;
	}
	if (line == NULL)
		return;
	keymap_bind(km, KEYMAP_GLOBAL, key, ACTION_NONE);
	km->cmds = xreallocarray(km->cmds, km->ncmds + 1, sizeof *km->cmds);
	km->cmds[km->ncmds].key = key;
	km->cmds[km->ncmds].line = xstrdup(line);
	km->ncmds++;
}

const char *
keymap_command(const struct keymap *km, int key)
{
	for (size_t i = 0; i < km->ncmds; i++)
		if (km->cmds[i].key == key)
			return km->cmds[i].line;
	return NULL;
}

void
keymap_bind(struct keymap *km, enum keymap_table t, int key, enum action a)
{
	struct keymap_binding *b;
	size_t n;

	if ((int)t < 0 || t >= KEYMAP_NTABLES)
		return;
	b = km->binds[t];
	n = km->n[t];
	for (size_t i = 0; i < n; i++) {
		if (b[i].key != key)
			continue;
		if (a != ACTION_NONE) {
			b[i].action = a;
			return;
		}
		memmove(&b[i], &b[i + 1], (n - i - 1) * sizeof *b);
		km->n[t]--;
		return;
	}
	if (a == ACTION_NONE)
		return;
	if (n == km->cap[t]) {
		km->cap[t] = km->cap[t] ? 2 * km->cap[t] : 32;
		km->binds[t] = xreallocarray(km->binds[t], km->cap[t],
		    sizeof *b);
	}
	km->binds[t][n].key = key;
	km->binds[t][n].action = a;
	km->n[t]++;
}

enum action
keymap_lookup(const struct keymap *km, enum keymap_table t, int key)
{
	if ((int)t < 0 || t >= KEYMAP_NTABLES)
		return ACTION_NONE;
	for (size_t i = 0; i < km->n[t]; i++)
		if (km->binds[t][i].key == key)
			return km->binds[t][i].action;
	return ACTION_NONE;
}

size_t
keymap_keys(const struct keymap *km, enum keymap_table t, enum action a,
    int *keys, size_t max)
{
	size_t found = 0;

	if ((int)t < 0 || t >= KEYMAP_NTABLES)
		return 0;
	for (size_t i = 0; i < km->n[t]; i++) {
		if (km->binds[t][i].action != a)
			continue;
		if (found < max)
			keys[found] = km->binds[t][i].key;
		found++;
	}
	return found;
}

/* Decode one UTF-8 character that must make up all of s; -1 if not. */
static int
utf8_single(const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	int cp, more;

	if (u[0] < 0x80) {
		cp = u[0];
		more = 0;
	} else if ((u[0] & 0xE0) == 0xC0) {
		cp = u[0] & 0x1F;
		more = 1;
	} else if ((u[0] & 0xF0) == 0xE0) {
		cp = u[0] & 0x0F;
		more = 2;
	} else if ((u[0] & 0xF8) == 0xF0) {
		cp = u[0] & 0x07;
		more = 3;
	} else
		return -1;
	for (int i = 1; i <= more; i++) {
		if ((u[i] & 0xC0) != 0x80)
			return -1;
		cp = cp << 6 | (u[i] & 0x3F);
	}
	if (u[more + 1] != '\0' || cp > 0x10FFFF || cp == 0)
		return -1;
	return cp;
}

/* Ctrl-c for c in a letter or @ [ \ ] ^ _ (and Space); -1 otherwise. */
static int
ctrl_of(const char *s)
{
	if (strcasecmp(s, "Space") == 0 || strcmp(s, "@") == 0)
		return 0;
	if (s[0] == '\0' || s[1] != '\0')
		return -1;
	if (isalpha((unsigned char)s[0]))
		return KEYMAP_CTRL(tolower((unsigned char)s[0]));
	if (strchr("[\\]^_", s[0]) != NULL)
		return KEYMAP_CTRL(s[0]);
	if (s[0] == '?')
		return KEYMAP_KEY_BACKSPACE;
	return -1;
}

int
keymap_key_parse(const char *name, int *key, struct err *err)
{
	int k;

	if (name == NULL || *name == '\0')
		return err_set(err, "empty key name");
	for (size_t i = 0; i < sizeof key_names / sizeof key_names[0]; i++) {
		if (strcasecmp(name, key_names[i].name) == 0) {
			*key = key_names[i].key;
			return 0;
		}
	}
	if ((name[0] == 'C' || name[0] == 'c') && name[1] == '-' &&
	    name[2] != '\0') {
		k = ctrl_of(name + 2);
		if (k < 0)
			return err_set(err, "bad key '%s': C- takes a letter "
			    "or one of @ [ \\ ] ^ _", name);
		*key = k;
		return 0;
	}
	if (name[0] == '^' && name[1] != '\0' && name[2] == '\0') {
		k = ctrl_of(name + 1);
		if (k >= 0) {
			*key = k;
			return 0;
		}
	}
	if ((name[0] == 'F' || name[0] == 'f') &&
	    isdigit((unsigned char)name[1])) {
		char *end;
		long n;

		errno = 0;
		n = strtol(name + 1, &end, 10);
		if (*end == '\0' && errno == 0 && n >= 0 && n < 64) {
			*key = KEYMAP_KEY_F((int)n);
			return 0;
		}
		return err_set(err, "bad key '%s': function keys are F0 to F63",
		    name);
	}
	k = utf8_single(name);
	if (k < 0)
		return err_set(err, "unknown key name '%s'", name);
	*key = k;
	return 0;
}

/* Append cp as UTF-8 to buf of size n. */
static void
put_utf8(int cp, char *buf, size_t n)
{
	char s[5] = { 0 };

	if (cp < 0x80)
		s[0] = (char)cp;
	else if (cp < 0x800) {
		s[0] = (char)(0xC0 | cp >> 6);
		s[1] = (char)(0x80 | (cp & 0x3F));
	} else if (cp < 0x10000) {
		s[0] = (char)(0xE0 | cp >> 12);
		s[1] = (char)(0x80 | (cp >> 6 & 0x3F));
		s[2] = (char)(0x80 | (cp & 0x3F));
	} else {
		s[0] = (char)(0xF0 | cp >> 18);
		s[1] = (char)(0x80 | (cp >> 12 & 0x3F));
		s[2] = (char)(0x80 | (cp >> 6 & 0x3F));
		s[3] = (char)(0x80 | (cp & 0x3F));
	}
	snprintf(buf, n, "%s", s);
}

void
keymap_key_name(int key, char *buf, size_t n)
{
	if (n == 0)
		return;
	for (size_t i = 0; i < sizeof key_names / sizeof key_names[0]; i++) {
		if (key_names[i].key == key) {
			snprintf(buf, n, "%s", key_names[i].name);
			return;
		}
	}
	if (key == 0)
		snprintf(buf, n, "C-Space");
	else if (key > 0 && key < 27)
		snprintf(buf, n, "C-%c", 'a' + key - 1);
	else if (key >= 27 && key < 32)
		snprintf(buf, n, "C-%c", "[\\]^_"[key - 27]);
	else if (key >= KEYMAP_KEY_F0 && key <= KEYMAP_KEY_MAX)
		snprintf(buf, n, "F%d", key - KEYMAP_KEY_F0);
	else if (key > 0 && key <= 0x10FFFF)
		put_utf8(key, buf, n);
	else
		snprintf(buf, n, "<%d>", key);
}

const char *
keymap_action_name(enum action a)
{
	if ((int)a < 0 || a >= ACTION_COUNT)
		return "";
	return action_names[a];
}

const char *
keymap_action_help(enum action a)
{
	if ((int)a < 0 || a >= ACTION_COUNT)
		return "";
	return action_helps[a];
}

int
keymap_action_parse(const char *name, enum action *out, struct err *err)
{
	for (int a = 1; a < ACTION_COUNT; a++) {
		if (strcmp(name, action_names[a]) == 0) {
			*out = (enum action)a;
			return 0;
		}
	}
	return err_set(err, "unknown action '%s'", name);
}

const char *
keymap_table_name(enum keymap_table t)
{
	if ((int)t < 0 || t >= KEYMAP_NTABLES)
		return "";
	return table_names[t];
}

int
keymap_table_parse(const char *name, enum keymap_table *out,
    struct err *err)
{
	for (int t = 0; t < KEYMAP_NTABLES; t++) {
		if (strcmp(name, table_names[t]) == 0) {
			*out = (enum keymap_table)t;
			return 0;
		}
	}
	return err_set(err, "unknown key table '%s'", name);
}

/* Split line into at most max blank-separated words in place. */
int
keymap_parse_line(struct keymap *km, const char *line, struct err *err)
{
	enum keymap_table t = KEYMAP_GLOBAL;
	enum action a = ACTION_NONE;
	int key, rc = -1, bind, n, i = 1, table;
	char **w = cmd_words(line, &n);

	/* cmd_words splits at blanks; a line ends in its newline */
	if (n > 0 && w[n - 1][strcspn(w[n - 1], "\r\n")] != '\0') {
		w[n - 1][strcspn(w[n - 1], "\r\n")] = '\0';
		if (w[n - 1][0] == '\0')
			n--;
	}
	if (n == 0 || w[0][0] == '#') {
		rc = 0;
		goto out;
	}
	bind = strcmp(w[0], "bind") == 0;
	if (!bind && strcmp(w[0], "unbind") != 0) {
		err_set(err, "unknown command '%s' (bind or unbind)", w[0]);
		goto out;
	}
	table = n > 2 && keymap_table_parse(w[1], &t, NULL) == 0;
	if (table)
		i = 2;
	if (bind ? n < i + 2 : n != i + 1) {
		err_set(err, bind ? "usage: bind [TABLE] KEY ACTION, or bind"
		    " KEY COMMAND LINE" : "usage: unbind [TABLE] KEY");
		goto out;
	}
	if (keymap_key_parse(w[i], &key, err) < 0)
		goto out;
	if (bind && (n > i + 2 || w[i + 1][0] == ':')) {
		/* a `:` command line: the words after the key */
		struct buf l = BUF_INIT;

		if (t != KEYMAP_GLOBAL) {
			err_set(err, "a command line binds in the global table"
			    " only");
			goto out;
		}
		for (int j = i + 1; j < n; j++)
			buf_printf(&l, "%s%s", j > i + 1 ? " " : "",
			    j == i + 1 && w[j][0] == ':' ? w[j] + 1 : w[j]);
		if (l.len == 0) {
			buf_release(&l);
			err_set(err, "bind %s: an empty command line", w[i]);
			goto out;
		}
		if (km->commands != NULL) {
			/* refused now, not when the key is pressed: an
			 * unknown command, or one a key may not run */
			const char *c = w[i + 1] + (w[i + 1][0] == ':');
			struct err e2;

			if (cmd_lookup(km->commands, c, CMD_KEY, &e2) ==
			    NULL) {
				err_set(err, "bind %s: %s", w[i], e2.msg);
				buf_release(&l);
				goto out;
			}
		}
		keymap_bind_command(km, key, buf_str(&l));
		buf_release(&l);
		rc = 0;
		goto out;
	}
	if (bind && keymap_action_parse(w[i + 1], &a, err) < 0)
		goto out;
	if (t == KEYMAP_GLOBAL)
		keymap_bind_command(km, key, NULL);
	keymap_bind(km, t, key, a);
	rc = 0;
out:
	cmd_words_free(w);
	return rc;
}

int
keymap_load(struct keymap *km, const char *path, struct err *err)
{
	FILE *f = fopen(path, "r");
	char line[1024];
	unsigned lineno = 0;
	struct err e;

	if (f == NULL) {
		if (errno == ENOENT)
			return 1;
		return err_set(err, "%s: %s", path, strerror(errno));
	}
	while (fgets(line, sizeof line, f) != NULL) {
		lineno++;
		if (keymap_parse_line(km, line, &e) < 0) {
			fclose(f);
			return err_set(err, "%s:%u: %s", path, lineno, e.msg);
		}
	}
	fclose(f);
	return 0;
}
