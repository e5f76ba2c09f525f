/*
 * cmd_commit.c - `assay commit`: write accepted candidates into the
 * dataset repository.  Moved from cli.c.
 */
#include "cli/cli_shared.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "exchange/dataset.h"
#include "store/store.h"

static const struct cmd_opt commit_opts[] = {
	{ "repo", 0, CMD_VALUE, 'r' },
	{ "message", 'm', CMD_VALUE, 'm' },
	{ NULL, 0, CMD_FLAG, 0 }
};

static int
cmd_commit(struct cmd_ctx *ctx, struct cmd_args *a, struct err *err)
{
	const struct cli_global *g = ctx->front;
	const char *val = NULL;
	const char *repo = "dataset", *msg = NULL;
	struct dataset_result res;
	struct store *st;
	char *by;
	int ch, rc;

	while ((ch = cmd_next(a, &val)) != -1) {
		if (ch == 'r')
			repo = val;
		else if (ch == 'm')
			msg = val;
	}
	if (cli_open_store(g, &st) < 0)
		return 2;
	by = cli_reviewer(g);
	if (by == NULL) {
		store_close(st);
		return 2;
	}
	rc = dataset_commit(st, repo, msg, by, &res, err);
	if (rc < 0)
		fprintf(stderr, "assay commit: %s\n", err->msg);
	else if (!res.committed)
		printf("nothing new to commit (%zu accepted samples in %s)\n",
		    res.samples, repo);
	else
		printf("committed %.7s to %s: %zu added, %zu updated, %zu"
		    " removed (%zu sample%s, %zu context)\n", res.oid, repo,
		    res.added, res.modified, res.removed, res.samples,
		    res.samples == 1 ? "" : "s", res.context);
	free(by);
	store_close(st);
	return rc < 0 ? 2 : 0;
}

const struct cmd_entry cli_cmd_commit = {
	"commit", NULL, commit_opts, 0, 0,
	"commit [--repo DIR] [-m TEXT]",
	  "Write the accepted candidates into the dataset repository\n"
	  "(default ./dataset) and commit, one trailer block per sample.  Each\n"
	  "task's verification files go under its folder once, and the\n"
	  "ancestors of a repair that are not accepted go in as context, so\n"
	  "that import --format dataset and verify rebuild everything.",
	CMD_CLI, cmd_commit
};
