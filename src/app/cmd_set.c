/*
 * cmd_set.c - the commands of the config file, which the workbench's `:`
 * line runs too (one entry each, app/command.h): set, theme, mouse and
 * advance change a setting (struct config), bind and unbind a key
 * (keymap.h), and generator, in the file only, configures the model
 * loop (model.h).  They change ctx->cfg and ctx->km and print through
 * the ctx; applying a setting to the screen (a theme loaded, the mouse
 * switched) is the workbench's, told by ctx->setting.
 */
#include "app/commands.h"

#include <stdlib.h>
#include <string.h>

#include "app/config.h"
#include "app/keymap.h"
#include "base/buf.h"
#include "generate/model.h"

/*
 * set NAME VALUE, or NAME VALUE for theme, mouse and advance.  On the
 * `:` line, without a value it says the value, without a name all of
 * them; a config file line must give both.
 */
static int
exec_set(struct cmd_ctx *ctx, struct cmd_args *a, struct err *err)
{
	int set = strcmp(ctx->entry->name, "set") == 0;
	const char *name = set ? (a->npos > 0 ? a->pos[0] : NULL) :
	    ctx->entry->name;
	const char *value = a->npos > set ? a->pos[set] : NULL;
	char now[256];

	if (ctx->cfg == NULL)
		return err_set(err, "no settings here"), 2;
	if (value == NULL && ctx->where == CMD_CONFIG)
		return err_set(err, "usage: %s", ctx->entry->usage), 2;
	if (name == NULL) {
		char t[128], m[8], v[8];

		config_get(ctx->cfg, "theme", t, sizeof t);
		config_get(ctx->cfg, "mouse", m, sizeof m);
		config_get(ctx->cfg, "advance", v, sizeof v);
		cmd_printf(ctx, "theme %s \xc2\xb7 mouse %s \xc2\xb7 advance "
		    "%s\n", t, m, v);
		return 0;
	}
	if (value == NULL) {
		config_get(ctx->cfg, name, now, sizeof now);
		if (*now == '\0')
			return err_set(err, "unknown setting '%.64s' (theme, "
			    "mouse, advance)", name), 2;
		cmd_printf(ctx, "%s %s\n", name, now);
		return 0;
	}
	if (config_set(ctx->cfg, name, value, err) < 0)
		return 2;
	ctx->setting = strcmp(name, "theme") == 0 ? "theme" :
	    strcmp(name, "mouse") == 0 ? "mouse" : "advance";
	config_get(ctx->cfg, name, now, sizeof now);
	cmd_printf(ctx, "%s %s\n", name, now);
	return 0;
}

/* bind and unbind: keymap_parse_line() of the line as typed. */
static int
exec_bind(struct cmd_ctx *ctx, struct cmd_args *a, struct err *err)
{
	struct buf l = BUF_INIT;
	int rc;

	if (ctx->km == NULL)
		return err_set(err, "no keys here"), 2;
	buf_adds(&l, ctx->entry->name);
	if (ctx->line != NULL && *ctx->line != '\0')
		buf_printf(&l, " %s", ctx->line);
	else
		for (int i = 0; i < a->npos; i++)
			buf_printf(&l, " %s", a->pos[i]);
	rc = keymap_parse_line(ctx->km, buf_str(&l), err);
	if (rc == 0)
		cmd_printf(ctx, "%s\n", buf_str(&l));
	buf_release(&l);
	return rc < 0 ? 2 : 0;
}

/* The model loop's lines (model.h): checked here, read there. */
static int
exec_generator(struct cmd_ctx *ctx, struct cmd_args *a, struct err *err)
{
	struct model_cfg scratch;
	char *l = xasprintf("generator %s", ctx->line != NULL ? ctx->line :
	    "");
	int rc;

	(void)a;
	model_cfg_init(&scratch);
	rc = model_cfg_line(&scratch, l, err);
	model_cfg_release(&scratch);
	free(l);
	return rc < 0 ? 2 : 0;
}

#define SETTING	(CMD_WORKBENCH | CMD_KEY | CMD_CONFIG | CMD_TEXT)

const struct cmd_entry app_cmd_set = { "set", NULL, NULL, 0, 2,
    "set [NAME [VALUE]]", "Show or change a setting (theme, mouse,"
    " advance).", SETTING, exec_set };
const struct cmd_entry app_cmd_theme = { "theme", NULL, NULL, 0, 1,
    "theme [NAME]", "set theme: dark, light, mono or a .theme file.",
    SETTING, exec_set };
const struct cmd_entry app_cmd_mouse = { "mouse", NULL, NULL, 0, 1,
    "mouse [on|off]", "set mouse: clicks and the wheel.", SETTING,
    exec_set };
const struct cmd_entry app_cmd_advance = { "advance", NULL, NULL, 0, 1,
    "advance [on|off]", "set advance: move on after a decision.", SETTING,
    exec_set };
const struct cmd_entry app_cmd_bind = { "bind", NULL, NULL, 0, CMD_MANY,
    "bind [TABLE] KEY ACTION", "Bind KEY to ACTION, or to a : command line"
    " (bind 1 label compile).", SETTING, exec_bind };
const struct cmd_entry app_cmd_unbind = { "unbind", NULL, NULL, 0,
    CMD_MANY, "unbind [TABLE] KEY", "Unbind KEY.", SETTING, exec_bind };
const struct cmd_entry app_cmd_generator = { "generator", NULL, NULL, 0,
    CMD_MANY, "generator NAME VALUE", "Configure the model loop: endpoint,"
    " model, api-key-env, ... (model.h).", CMD_CONFIG | CMD_TEXT,
    exec_generator };
