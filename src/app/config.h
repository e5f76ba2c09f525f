/*
 * config.h - settings that come from the environment and the user's
 * files: the reviewer's name, the paths assay reads its data files from,
 * and the config file with its key bindings, theme and switches.
 *
 * The config file is $XDG_CONFIG_HOME/assay/config (else
 * ~/.config/assay/config), one setting per line, the same words as the
 * workbench's `:` commands; a line starting with '#' is a comment:
 *
 *	# ~/.config/assay/config
 *	theme light
 *	mouse off
 *	set advance off
 *	bind K label-functional
 *	bind 1 label compile
 *	unbind C-b
 *
 * Lines starting with "generator" configure the model loop (model.h):
 *
 *	generator endpoint http://127.0.0.1:8080/v1
 *	generator model qwen2.5-coder-7b
 *	generator api-key-env OPENAI_API_KEY
 *
 * theme is dark (the default), light, mono or a theme file; mouse (the
 * clicks and the wheel) and advance (move on after a decision) are on
 * or off, both on by default; "set NAME VALUE" is "NAME VALUE".
 *
 * Called by main.c (reviewer, data directory) and the UI (the file).
 * Knows no curses: a theme is a name here, loaded by src/ui/theme.c.
 */
#ifndef ASSAY_CONFIG_H
#define ASSAY_CONFIG_H

#include <stddef.h>

#include "base/err.h"
#include "app/keymap.h"

/*
 * The reviewer's name, design.md section 8: flag (--reviewer) if not NULL
 * and not empty, else $ASSAY_REVIEWER, else git's user.name, else the
 * login name, else "unknown".  New string; caller frees.
 */
char	*config_reviewer(const char *flag);

/*
 * Directory holding grammars/ and themes/: $ASSAY_DATA_DIR, else the
 * directory of the executable when it has a grammars/ folder (a build
 * tree), else its parent's (build/assay), else /usr/share/assay.
 * New string; caller frees.  argv0 is the program's argv[0].
 */
char	*config_data_dir(const char *argv0);

/*
 * The path of file name in assay's config directory,
 * $XDG_CONFIG_HOME/assay/NAME, else $HOME/.config/assay/NAME (the XDG
 * base directory specification), or in its state directory,
 * $XDG_STATE_HOME/assay/NAME, else $HOME/.local/state/assay/NAME.
 * New string (caller frees), NULL when neither variable is set.
 */
char	*config_path(const char *name);
char	*config_state_path(const char *name);

/* The settings of the config file. */
struct config {
	char	*theme;		/* owned; NULL: the default, dark */
	int	 mouse;		/* 1: clicks and the wheel act */
	int	 advance;	/* 1: a label or review moves to the next */
};

/* The defaults: no theme named, mouse on, advance on. */
void	config_init(struct config *c);
/* Free what c owns and leave it initialised.  NULL-safe. */
void	config_release(struct config *c);

/*
 * Set one setting by name ("theme", "mouse", "advance") from its value
 * (a theme name or file; on/off, also yes/no, true/false, 1/0).
 * 0, or -1 with err (c unchanged).
 */
int	config_set(struct config *c, const char *name, const char *value,
	    struct err *err);

/*
 * The names of the settings (n of them), and the values a setting takes
 * as a NULL-terminated list (for theme the built-in themes; a theme
 * file's name works too), or NULL for a name that is no setting.
 * Borrowed, static.  For completion and help.
 */
const char *const *config_names(size_t *n);
const char *const *config_values(const char *name);

/*
 * The current value of a setting as text into buf ("on", "light"), ""
 * for an unknown name.
 */
void	config_get(const struct config *c, const char *name, char *buf,
	    size_t n);

/*
 * One line of the config file: a setting ("theme light", "set mouse
 * off"), "bind [TABLE] KEY ACTION", "bind KEY COMMAND LINE" or "unbind
 * [TABLE] KEY" (keymap.h), or a "generator" line (model.h), each a
 * command of the one table that runs in the config file (CMD_CONFIG;
 * km->commands, else app/'s own, commands.h), so that a line with too
 * few or too many words gets that command's usage and a command that
 * runs elsewhere says where; blank lines and '#' comments do nothing.
 * 0, or -1 with err (nothing changed).
 */
int	config_parse_line(struct config *c, struct keymap *km,
	    const char *line, struct err *err);

/*
 * Apply the file at path, line by line, over c and km.  Every good line
 * is applied, so one typo costs one line.  A bad line, and a key bound
 * twice in the file to different actions (a conflict: the later line
 * wins, as for any setting), are problems: the first goes into err as
 * "path:LINE: what", with "(and N more)" when there are others.
 * Returns 0, 1 when the file does not exist, or -1 (err) on problems
 * or when the file cannot be read.
 */
int	config_load(struct config *c, struct keymap *km, const char *path,
	    struct err *err);

#endif
