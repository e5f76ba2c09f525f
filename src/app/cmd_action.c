/*
 * cmd_action.c - every key action (action.h) as a command of the one
 * table: its name, its help, runs from a key (CMD_KEY) and, for the
 * workbench's own actions, from the `:` line (`:zoom`, `:stats`).  The
 * sheets' and the prompt's actions (cell-left, prompt-run) run from a
 * key of their table only.  Running one is the front end's
 * (ctx->action): a key is the workbench's, and the command line has
 * none, so there the entry refuses.
 */
#include "app/commands.h"

static int
exec_action(struct cmd_ctx *ctx, struct cmd_args *a, struct err *err)
{
	int act = app_action_of(ctx->entry);

	(void)a;
	if (ctx->action == NULL || act == ACTION_NONE)
		return err_set(err, "%s is a key of the workbench",
		    ctx->entry->name), 2;
	ctx->action(ctx, act);
	return 0;
}

/* The sheets' and the prompt's actions act in their own key table. */
#define ACTION_FLAGS(id) \
	(ACTION_##id >= ACTION_CLOSE && ACTION_##id <= ACTION_PROMPT_CLEAR ? \
	    CMD_KEY : CMD_KEY | CMD_WORKBENCH)
#define ACTION_ENTRY(id, name, help) \
	{ name, NULL, NULL, 0, 0, name, help, ACTION_FLAGS(id), exec_action },
const struct cmd_entry app_action_cmds[ACTION_COUNT - 1] = {
	ACTION_INFO(ACTION_ENTRY)
};
#undef ACTION_ENTRY

int
app_action_of(const struct cmd_entry *e)
{
	for (int a = ACTION_NONE + 1; a < ACTION_COUNT; a++)
		if (e == &app_action_cmds[a - 1])
			return a;
	return ACTION_NONE;
}

const struct cmd_entry *
app_action_cmd(int action)
{
	if (action <= ACTION_NONE || action >= ACTION_COUNT)
		return NULL;
	return &app_action_cmds[action - 1];
}
