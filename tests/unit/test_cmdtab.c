/*
 * test_cmdtab.c - unit tests for the one command table (issue 24, item
 * 1; docs/adr/0047-one-command-table.md), cmocka: every key action and
 * every default key binding resolves to a command that runs from a key;
 * each entry's where flags (CMD_CLI, CMD_WORKBENCH, CMD_KEY, CMD_CONFIG)
 * are honoured by cmd_lookup(), the config file and `bind`, with a
 * message that says where the command does run; a name that stands
 * twice for two places finds the one that runs there; a key action's
 * entry runs through the front end's hook and refuses without one.
 *
 * The table is built as main.c builds it, from app/'s lists (the
 * commands both front ends run, the config file's, every key action),
 * plus two stand-ins for the front ends' own entries, which live on
 * floors a unit test does not link: a command-line-only `export` and a
 * workbench-only `verify` beside a command-line `verify`.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include "app/command.h"
#include "app/commands.h"
#include "app/config.h"
#include "app/keymap.h"

static int ran;

static int
nop(struct cmd_ctx *ctx, struct cmd_args *a, struct err *err)
{
	(void)ctx;
	(void)a;
	(void)err;
	ran++;
	return 0;
}

static const struct cmd_entry cli_export = { "export", NULL, NULL, 0, 0,
    "export", "Stand-in of a command-line-only command.", CMD_CLI, nop };
static const struct cmd_entry cli_verify = { "verify", NULL, NULL, 0, 0,
    "verify", "Stand-in of assay verify.", CMD_CLI, nop };
static const struct cmd_entry wb_verify = { "verify", NULL, NULL, 0, 0,
    "verify", "Stand-in of :verify.", CMD_WORKBENCH | CMD_KEY, nop };

#define ENTRY_APP(name)	&app_cmd_##name,
static const struct cmd_entry *const list[] = {
	&cli_export, &cli_verify, &wb_verify,
	APP_COMMANDS(ENTRY_APP)
	APP_SETTINGS(ENTRY_APP)
	ACTION_INFO(APP_ACTION_ENTRY)
};
static const struct cmd_table table = { list, sizeof list / sizeof list[0] };

/* Every action of action.h is a command a key may run, with its help. */
static void
test_cmdtab_every_action_is_a_command(void **state)
{
	struct err err;

	(void)state;
	for (int a = ACTION_NONE + 1; a < ACTION_COUNT; a++) {
		const char *name = keymap_action_name((enum action)a);
		const struct cmd_entry *e = cmd_lookup(&table, name, CMD_KEY,
		    &err);

		assert_non_null(e);
		assert_string_equal(e->name, name);
		assert_true(e->flags & CMD_KEY);
		/* its own entry, whatever else shares the name (undo) */
		assert_ptr_equal(app_action_cmd(a), &app_action_cmds[a - 1]);
		assert_int_equal(app_action_of(app_action_cmd(a)), a);
		assert_string_equal(app_action_cmd(a)->help,
		    keymap_action_help((enum action)a));
	}
	assert_null(app_action_cmd(ACTION_NONE));
	assert_null(app_action_cmd(ACTION_COUNT));
	assert_int_equal(app_action_of(&app_cmd_label), ACTION_NONE);
}

/* Every key of the default key tables runs a command; the global
 * table's run on the `:` line too, the sheets' and the prompt's not. */
static void
test_cmdtab_default_keys_resolve(void **state)
{
	struct keymap km;
	struct err err;
	size_t n = 0;

	(void)state;
	keymap_init(&km);
	keymap_defaults(&km);
	for (int t = 0; t < KEYMAP_NTABLES; t++) {
		for (size_t i = 0; i < km.n[t]; i++) {
			enum action a = km.binds[t][i].action;
			const struct cmd_entry *e = app_action_cmd(a);

			assert_non_null(e);
			assert_non_null(cmd_lookup(&table, e->name, CMD_KEY,
			    &err));
			if (t == KEYMAP_GLOBAL || t == KEYMAP_TERM)
				assert_true(e->flags & CMD_WORKBENCH);
			n++;
		}
	}
	assert_true(n > 60);	/* the defaults of design.md section 6 */
	assert_false(app_action_cmd(ACTION_CELL_LEFT)->flags & CMD_WORKBENCH);
	assert_false(app_action_cmd(ACTION_PROMPT_RUN)->flags & CMD_WORKBENCH);
	keymap_release(&km);
}

/* Each where flag is honoured, and the refusal says where it runs. */
static void
test_cmdtab_where_is_honoured(void **state)
{
	struct err err;

	(void)state;
	assert_ptr_equal(cmd_lookup(&table, "export", CMD_CLI, &err),
	    &cli_export);
	assert_null(cmd_lookup(&table, "export", CMD_WORKBENCH, &err));
	assert_string_equal(err.msg, "export runs only on the command line "
	    "(assay export)");
	assert_null(cmd_lookup(&table, "export", CMD_KEY, &err));
	assert_null(cmd_lookup(&table, "export", CMD_CONFIG, &err));

	assert_ptr_equal(cmd_lookup(&table, "generator", CMD_CONFIG, &err),
	    &app_cmd_generator);
	assert_null(cmd_lookup(&table, "generator", CMD_WORKBENCH, &err));
	assert_string_equal(err.msg, "generator runs only in the config "
	    "file");

	assert_null(cmd_lookup(&table, "zoom", CMD_CLI, &err));
	assert_string_equal(err.msg, "zoom runs only on the : line (:zoom) "
	    "and from a key");
	assert_null(cmd_lookup(&table, "cell-left", CMD_WORKBENCH, &err));
	assert_string_equal(err.msg, "cell-left runs only from a key");

	assert_ptr_equal(cmd_lookup(&table, "set", CMD_WORKBENCH, &err),
	    &app_cmd_set);
	assert_ptr_equal(cmd_lookup(&table, "set", CMD_CONFIG, &err),
	    &app_cmd_set);
	assert_null(cmd_lookup(&table, "set", CMD_CLI, &err));
	assert_ptr_equal(cmd_lookup(&table, "label", CMD_CLI, &err),
	    &app_cmd_label);
	assert_ptr_equal(cmd_lookup(&table, "label", CMD_KEY, &err),
	    &app_cmd_label);

	assert_null(cmd_lookup(&table, "frobnicate", CMD_CLI, &err));
	assert_string_equal(err.msg, "unknown command 'frobnicate'");
}

/* A name standing twice, for two places, finds the one that runs there. */
static void
test_cmdtab_same_name_two_places(void **state)
{
	struct err err;

	(void)state;
	assert_ptr_equal(cmd_lookup(&table, "verify", CMD_CLI, &err),
	    &cli_verify);
	assert_ptr_equal(cmd_lookup(&table, "verify", CMD_WORKBENCH, &err),
	    &wb_verify);
	/* `u` is the undo action; `:undo`, `assay undo` the shared entry */
	assert_ptr_equal(cmd_lookup(&table, "undo", CMD_CLI, &err),
	    &app_cmd_undo);
	assert_ptr_equal(cmd_lookup(&table, "undo", CMD_WORKBENCH, &err),
	    &app_cmd_undo);
}

/* The config file and `bind` read the same table and its flags. */
static void
test_cmdtab_config_and_bind(void **state)
{
	struct config c;
	struct keymap km;
	struct err err;

	(void)state;
	config_init(&c);
	keymap_init(&km);
	km.commands = &table;
	assert_int_equal(config_parse_line(&c, &km, "mouse off", &err), 0);
	assert_int_equal(c.mouse, 0);
	assert_int_equal(config_parse_line(&c, &km, "export", &err), -1);
	assert_string_equal(err.msg, "export runs only on the command line "
	    "(assay export)");
	assert_int_equal(config_parse_line(&c, &km, "zoom", &err), -1);
	assert_non_null(strstr(err.msg, "zoom runs only on the : line"));
	assert_int_equal(config_parse_line(&c, &km, "frob 1", &err), -1);
	assert_non_null(strstr(err.msg, "unknown setting 'frob' (set, theme,"
	    " mouse, advance, bind, unbind, generator)"));
	/* a key may run a command line of a command that runs from a key */
	assert_int_equal(config_parse_line(&c, &km, "bind 6 label compile",
	    &err), 0);
	assert_string_equal(keymap_command(&km, '6'), "label compile");
	assert_int_equal(config_parse_line(&c, &km, "bind 7 export -o x",
	    &err), -1);
	assert_string_equal(err.msg, "bind 7: export runs only on the command"
	    " line (assay export)");
	assert_null(keymap_command(&km, '7'));
	assert_int_equal(config_parse_line(&c, &km, "bind 8 :generator m x",
	    &err), -1);
	assert_non_null(strstr(err.msg, "runs only in the config file"));
	keymap_release(&km);
	config_release(&c);
}

/* What a settings command changed, for the front end to apply. */
static void
test_cmdtab_settings_say_what_changed(void **state)
{
	struct config c;
	struct keymap km;
	struct cmd_args a;
	struct err err;
	char *argv[] = { "theme", "light", NULL };
	struct cmd_ctx ctx = { .entry = &app_cmd_theme, .where = CMD_CONFIG,
	    .cfg = NULL, .line = "light" };

	(void)state;
	config_init(&c);
	keymap_init(&km);
	assert_int_equal(cmd_parse(&app_cmd_theme, 2, argv, &a, &err), 0);
	/* no settings where it runs: refused, not a crash */
	assert_int_equal(app_cmd_theme.exec(&ctx, &a, &err), 2);
	ctx.cfg = &c;
	ctx.km = &km;
	ctx.out = NULL;
	assert_int_equal(app_cmd_theme.exec(&ctx, &a, &err), 0);
	assert_string_equal(ctx.setting, "theme");
	assert_string_equal(c.theme, "light");
	cmd_args_release(&a);
	keymap_release(&km);
	config_release(&c);
}

static int seen_action;

static void
hook(struct cmd_ctx *ctx, int action)
{
	(void)ctx;
	seen_action = action;
}

/* A key action's entry runs the front end's action; none, it refuses. */
static void
test_cmdtab_action_runs_through_hook(void **state)
{
	const struct cmd_entry *e = app_action_cmd(ACTION_ZOOM);
	struct cmd_ctx ctx = { .entry = e, .where = CMD_KEY };
	struct cmd_args a;
	struct err err;
	char *argv[] = { "zoom", NULL };

	(void)state;
	assert_int_equal(cmd_parse(e, 1, argv, &a, &err), 0);
	assert_int_equal(e->exec(&ctx, &a, &err), 2);
	assert_string_equal(err.msg, "zoom is a key of the workbench");
	ctx.action = hook;
	assert_int_equal(e->exec(&ctx, &a, &err), 0);
	assert_int_equal(seen_action, ACTION_ZOOM);
	cmd_args_release(&a);
	/* an action takes no arguments */
	{
		char *more[] = { "zoom", "now", NULL };

		assert_int_equal(cmd_parse(e, 2, more, &a, &err), -1);
		cmd_args_release(&a);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cmdtab_every_action_is_a_command),
		cmocka_unit_test(test_cmdtab_default_keys_resolve),
		cmocka_unit_test(test_cmdtab_where_is_honoured),
		cmocka_unit_test(test_cmdtab_same_name_two_places),
		cmocka_unit_test(test_cmdtab_config_and_bind),
		cmocka_unit_test(test_cmdtab_settings_say_what_changed),
		cmocka_unit_test(test_cmdtab_action_runs_through_hook),
	};

	(void)ran;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
