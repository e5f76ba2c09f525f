/*
 * theme.h - colour themes: small text files in themes/ that give each
 * element of the screen a foreground, a background and attributes.
 *
 *	# element	fg	bg	attributes
 *	title		cyan	default	bold
 *	syn.keyword	magenta	default	bold
 *
 * Colours are default, black red green yellow blue magenta cyan white,
 * bright-<name> or 0-255; attributes are bold dim underline reverse
 * italic standout.  On 8-colour terminals colours past 7 are reduced
 * (bright ones become bold) and with NO_COLOR or no colour at all only
 * the attributes are used, so every theme stays readable.  dark, light
 * and mono are built in as well, so an installed binary needs no file.
 *
 * Called by ui.c once after initscr(); panes read theme_attr().
 */
#ifndef ASSAY_UI_THEME_H
#define ASSAY_UI_THEME_H

#include <stddef.h>

#include <curses.h>

#include "base/err.h"
#include "lang/syntax.h"

#define THEME_ELEMS(E) \
	E(NORMAL,	"normal") \
	E(BORDER,	"border") \
	E(TITLE,	"title") \
	E(TITLE_FOCUS,	"title.focus") \
	E(HEADER,	"header") \
	E(CURSOR,	"cursor") \
	E(CURSOR_IDLE,	"cursor.idle") \
	E(STATUS,	"status") \
	E(STATUS_MSG,	"status.message") \
	E(STATUS_ERR,	"status.error") \
	E(PROMPT,	"prompt") \
	E(PASS,		"verdict.pass") \
	E(FAIL,		"verdict.fail") \
	E(OTHER,	"verdict.other") \
	E(DIM,		"dim") \
	E(LABEL,	"label") \
	E(LINENR,	"linenr") \
	E(GUTTER_ERR,	"gutter.error") \
	E(GUTTER_WARN,	"gutter.warning") \
	E(EVIDENCE,	"evidence") \
	E(HELP_KEY,	"help.key") \
	E(SYN_COMMENT,	"syn.comment") \
	E(SYN_KEYWORD,	"syn.keyword") \
	E(SYN_TYPE,	"syn.type") \
	E(SYN_FUNCTION,	"syn.function") \
	E(SYN_STRING,	"syn.string") \
	E(SYN_NUMBER,	"syn.number") \
	E(SYN_CONSTANT,	"syn.constant") \
	E(SYN_OPERATOR,	"syn.operator") \
	E(SYN_VARIABLE,	"syn.variable") \
	E(SYN_PROPERTY,	"syn.property") \
	E(SYN_PREPROC,	"syn.preproc") \
	E(SYN_ERROR,	"syn.error")

#define THEME_ENUM(id, name) THEME_##id,
enum theme_elem {
	THEME_ELEMS(THEME_ENUM)
	THEME_NELEMS
};
#undef THEME_ENUM

/*
 * Load a theme: the built-in one named base ("dark", "light", "mono";
 * NULL or another name: dark), then the theme file at path over it when
 * path is not NULL.  use_color 0 (or a terminal without colours) keeps
 * only the attributes, over the mono theme's.  Must run after
 * start_color() when colours are used, and may run again to switch.
 * Returns 0, or -1 with err (the built-in base stays in force).
 */
int	theme_load(const char *base, const char *path, int use_color,
	    struct err *err);

/* The text of a built-in theme ("dark", "light", "mono"; NULL: dark),
 * in the file format; NULL for another name.  Static. */
const char *theme_builtin(const char *name);

/* Parse theme text (the file format) over the current theme.  0 or -1. */
int	theme_parse(const char *text, const char *where, struct err *err);

/* The curses attribute (colour pair included) of an element. */
attr_t	theme_attr(enum theme_elem e);

/* The element of a syntax group. */
enum theme_elem theme_syntax(enum syn_group g);

/* Does the terminal show colours under this theme?  1 or 0. */
int	theme_has_color(void);

#endif
