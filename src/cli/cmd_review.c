/*
 * cmd_review.c - `assay review`: set a candidate's review status.  Moved
 * from cli.c.
 */
#include "cli/cli_shared.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/decide.h"
#include "base/err.h"
#include "store/store.h"
#include "model/vocab.h"

static const struct cmd_opt review_opts[] = {
	{ "note", 0, CMD_VALUE, 'n' },
	{ NULL, 0, CMD_FLAG, 0 }
};

static int
cmd_review(struct cmd_ctx *ctx, struct cmd_args *a, struct err *err)
{
	const struct cli_global *g = ctx->front;
	const char *val = NULL;
	const char *note = NULL, *status = NULL;
	struct store *st;
	char *id, *by;
	int ch, rc;

	while ((ch = cmd_next(a, &val)) != -1) {
		if (ch == 'n')
			note = val;
	}
	status = status_name(status_from_verb(a->pos[1]));
	if (status == NULL)
		return cli_usage_error("review", "unknown decision '%s' (accept"
		    " reject flag reset)", a->pos[1]);
	if (cli_open_store(g, &st) < 0)
		return 2;
	if ((id = cli_resolve(st, a->pos[0])) == NULL) {
		store_close(st);
		return 2;
	}
	by = cli_reviewer(g);
	if (by == NULL) {
		free(id);
		store_close(st);
		return 2;
	}
	if (status_from_name(status) == STATUS_ACCEPTED) {
		struct run run;

		/* The workbench asks; headless, say it. */
		if (store_run_latest(st, id, &run, err) == 0) {
			if (!verdict_is(run.verdict, VERDICT_PASS))
				fprintf(stderr, "assay: note: %s's latest verdict is"
				    " %s; accepted anyway\n", id, run.verdict);
			run_release(&run);
		} else {
			fprintf(stderr, "assay: note: %s was never verified;"
			    " accepted anyway\n", id);
		}
	}
	rc = decide_review(st, id, status, note, by, err);
	if (rc < 0)
		fprintf(stderr, "assay review: %s\n", err->msg);
	else
		printf("%s %s by %s\n", id, status, by);
	free(by);
	free(id);
	store_close(st);
	return rc < 0 ? 2 : 0;
}

const struct cmd_entry cli_cmd_review = {
	"review", NULL, review_opts, 2, 2,
	"review ID accept|reject|flag|reset [--note TEXT]",
	  "Set a candidate's review status.",
	CMD_CLI | CMD_TARGETS, cmd_review
};
