/*
 * cmd_review.c - review: accept, reject, flag or reset the targets'
 * review status, `assay review ID accept` and `:review accept`
 * (commands.h).
 */
#include "app/commands.h"

#include <stdlib.h>

#include "model/vocab.h"

static const struct cmd_opt review_opts[] = {
	{ "note", 0, CMD_VALUE, 'n' },
	{ "where", 0, CMD_VALUE, CMD_KEY_WHERE },
	{ NULL, 0, CMD_FLAG, 0 }
};

static int
exec_review(struct cmd_ctx *ctx, struct cmd_args *a, struct err *err)
{
	struct decide_act act = { .kind = DECIDE_REVIEW };
	const char *val = NULL;
	int ch;

	if (cmd_once(a, err) < 0)
		return 2;
	act.status = status_name(status_from_verb(a->pos[0]));
	if (act.status == NULL)
		return err_set(err, "unknown decision '%.64s' (accept reject"
		    " flag reset)%s", a->pos[0], cmd_has(a, CMD_KEY_WHERE,
		    NULL) && ctx->line == NULL ? "; with --where no ID comes"
		    " first" : ""), 2;
	while ((ch = cmd_next(a, &val)) != -1)
		if (ch == 'n')
			act.note = val != NULL && *val != '\0' ? val : NULL;
	return cmd_decide(ctx, a, &act, a->pos[0], err);
}

const struct cmd_entry app_cmd_review = {
	"review", NULL, review_opts, 1, 1,
	"review accept|reject|flag|reset [--note TEXT] [--where FILTER]",
	  "Set the review status of the targets: ID (or a unique prefix), in\n"
	  "the workbench the marked candidates or the one under the cursor;\n"
	  "--where FILTER instead: every candidate FILTER matches, as one\n"
	  "batch.  An accept of a candidate that does not pass is asked about\n"
	  "in the workbench and noted on stderr on the command line.",
	CMD_CLI | CMD_WORKBENCH | CMD_KEY | CMD_TARGETS | CMD_CONFIRM |
	    CMD_STORE,
	exec_review
};
