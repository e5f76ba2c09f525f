/*
 * cmd_note.c - `assay note ID TEXT...`: a free note on a candidate by
 * the reviewer, the workbench's m and :note made headless.  The note is
 * journalled and never undone (app/decide.h, decide_note).
 */
#include "cli/cli_shared.h"

#include <stdio.h>
#include <stdlib.h>

#include "app/decide.h"
#include "base/buf.h"
#include "base/err.h"
#include "store/store.h"

static int
cmd_note(struct cmd_ctx *ctx, struct cmd_args *a, struct err *err)
{
	const struct cli_global *g = ctx->front;
	struct buf text = BUF_INIT;
	struct store *st;
	char *id, *by;
	int rc;

	for (int i = 1; i < a->npos; i++)
		buf_printf(&text, "%s%s", i > 1 ? " " : "", a->pos[i]);
	if (cli_open_store(g, &st) < 0) {
		buf_release(&text);
		return 2;
	}
	id = cli_resolve(st, a->pos[0]);
	by = id != NULL ? cli_reviewer(g) : NULL;
	rc = by == NULL ? -1 : decide_note(st, id, buf_str(&text), by, err);
	if (rc < 0 && by != NULL)
		fprintf(stderr, "assay note: %s\n", err->msg);
	else if (rc == 0)
		printf("%s noted by %s\n", id, by);
	free(by);
	free(id);
	buf_release(&text);
	store_close(st);
	return rc < 0 ? 2 : 0;
}

const struct cmd_entry cli_cmd_note = {
	"note", NULL, NULL, 2, CMD_MANY,
	"note ID TEXT...",
	"Add a free note to a candidate (the words\n"
	  "after ID, joined by spaces), as the reviewer; journalled, shown by\n"
	  "show and the workbench's spec pane, found by grep=, never undone.",
	CMD_CLI | CMD_TARGETS, cmd_note
};
