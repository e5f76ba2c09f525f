/*
 * cmd_note.c - note: a free note on the targets by the reviewer,
 * `assay note ID TEXT...` and `:note TEXT` (commands.h).  Journalled,
 * shown by show and the spec pane, found by grep=, never undone.
 */
#include "app/commands.h"

#include <stdlib.h>

static const struct cmd_opt note_opts[] = {
	{ "where", 0, CMD_VALUE, CMD_KEY_WHERE },
	{ NULL, 0, CMD_FLAG, 0 }
};

static int
exec_note(struct cmd_ctx *ctx, struct cmd_args *a, struct err *err)
{
	struct decide_act act = { .kind = DECIDE_NOTE };
	char *text;
	int rc;

	if (cmd_once(a, err) < 0)
		return 2;
	text = cmd_join(a, 0);
	act.note = text;
	rc = cmd_decide(ctx, a, &act, text, err);
	free(text);
	return rc;
}

const struct cmd_entry app_cmd_note = {
	"note", NULL, note_opts, 1, CMD_MANY,
	"note TEXT... [--where FILTER]",
	  "Add a free note (the words, joined by spaces) to the targets, as\n"
	  "the reviewer: ID (or a unique prefix), in the workbench the marked\n"
	  "candidates or the one under the cursor; --where FILTER instead.\n"
	  "Journalled, shown by show and the workbench's spec pane, found by\n"
	  "grep=, never undone.  Words that start with - follow a --.",
	CMD_CLI | CMD_WORKBENCH | CMD_KEY | CMD_TARGETS | CMD_STORE,
	exec_note
};
