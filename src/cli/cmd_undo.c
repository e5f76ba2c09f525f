/*
 * cmd_undo.c - `assay undo` and `assay redo` of labels and reviews.
 * Moved from cli.c.
 */
#include "cli/cli_shared.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/decide.h"
#include "base/err.h"
#include "store/store.h"

static const struct cmd_opt undo_redo_opts[] = {
	{ "any", 0, CMD_FLAG, 'a' },
	{ NULL, 0, CMD_FLAG, 0 }
};

static int
undo_redo(struct cmd_ctx *ctx, struct cmd_args *a, struct err *err, int redo)
{
	const struct cli_global *g = ctx->front;
	const char *val = NULL;
	struct store *st;
	struct store_step step;
	char what[512], *by;
	int rc, any = 0, ch;

	while ((ch = cmd_next(a, &val)) != -1) {
		if (ch == 'a')
			any = 1;
	}
	if (cli_open_store(g, &st) < 0)
		return 2;
	by = cli_reviewer(g);
	if (by == NULL) {
		store_close(st);
		return 2;
	}
	rc = decide_undo(st, redo, by, any, &step, err);
	if (rc < 0)
		fprintf(stderr, "assay: %s\n", err->msg);
	else
		printf("%s\n", decide_undo_text(rc, redo, by, any, &step, what,
		    sizeof what));
	free(by);
	store_close(st);
	return rc < 0 ? 2 : 0;
}

static int
cmd_undo(struct cmd_ctx *ctx, struct cmd_args *a, struct err *err)
{
	return undo_redo(ctx, a, err, 0);
}

static int
cmd_redo(struct cmd_ctx *ctx, struct cmd_args *a, struct err *err)
{
	return undo_redo(ctx, a, err, 1);
}

const struct cmd_entry cli_cmd_undo = {
	"undo", NULL, undo_redo_opts, 0, 0,
	"undo [--any]", "Undo your latest label or review (the\n"
	  "reviewer's: --reviewer, ASSAY_REVIEWER, git, the login).  Another\n"
	  "reviewer's decisions are never undone; when someone decided the\n"
	  "same candidate since, it is refused.  --any: the latest of anyone's.",
	CMD_CLI, cmd_undo
};

const struct cmd_entry cli_cmd_redo = {
	"redo", NULL, undo_redo_opts, 0, 0,
	"redo [--any]", "Redo your latest undone label or review\n"
	  "(none once you decided anew).  --any: the latest of anyone's.",
	CMD_CLI, cmd_redo
};
