/*
 * cmd_undo.c - undo and redo of the reviewer's labels and reviews,
 * `assay undo` and `:undo` (commands.h); u and C-r in the workbench.
 */
#include "app/commands.h"

#include <stdlib.h>

static const struct cmd_opt undo_redo_opts[] = {
	{ "any", 0, CMD_FLAG, 'a' },
	{ NULL, 0, CMD_FLAG, 0 }
};

static int
undo_redo(struct cmd_ctx *ctx, struct cmd_args *a, struct err *err, int redo)
{
	struct store_step step;
	const char *val = NULL;
	char what[512];
	int rc, any = 0, ch;

	while ((ch = cmd_next(a, &val)) != -1)
		if (ch == 'a')
			any = 1;
	rc = decide_undo(ctx->st, redo, ctx->by, any, &step, err);
	if (rc < 0)
		return 2;
	cmd_printf(ctx, "%s\n", decide_undo_text(rc, redo, ctx->by, any,
	    &step, what, sizeof what));
	if (rc == 0) {
		ctx->changed = 1;
		if (step.count == 1) {
			free(ctx->focus);
			ctx->focus = xstrdup(step.cand_id);
		}
	}
	return 0;
}

static int
exec_undo(struct cmd_ctx *ctx, struct cmd_args *a, struct err *err)
{
	return undo_redo(ctx, a, err, 0);
}

static int
exec_redo(struct cmd_ctx *ctx, struct cmd_args *a, struct err *err)
{
	return undo_redo(ctx, a, err, 1);
}

const struct cmd_entry app_cmd_undo = {
	"undo", NULL, undo_redo_opts, 0, 0,
	"undo [--any]",
	  "Undo your latest label or review, or the whole batch of a bulk\n"
	  "decision (yours: --reviewer, ASSAY_REVIEWER, git, the login).\n"
	  "Another reviewer's decisions are never undone; when someone\n"
	  "decided the same candidate since, it is refused.  A step someone\n"
	  "else undid counts as undone.  --any: the latest of anyone's.\n"
	  "Notes and repairs are never undone.",
	CMD_CLI | CMD_WORKBENCH | CMD_KEY | CMD_STORE, exec_undo
};

const struct cmd_entry app_cmd_redo = {
	"redo", NULL, undo_redo_opts, 0, 0,
	"redo [--any]",
	  "Redo your latest undone label or review, or batch (none once you\n"
	  "decided anew).  --any: the latest of anyone's.",
	CMD_CLI | CMD_WORKBENCH | CMD_KEY | CMD_STORE, exec_redo
};
