/*
 * cmd_commit.c - `assay commit`: write accepted candidates into the
 * dataset repository, through the commit service (dataset_svc.h) driven
 * by a plain poll loop, as the workbench's `c` drives it from its own.
 */
#include "cli/cli_shared.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "exchange/dataset_svc.h"
#include "store/store.h"

static const struct cmd_opt commit_opts[] = {
	{ "repo", 0, CMD_VALUE, 'r' },
	{ "message", 'm', CMD_VALUE, 'm' },
	{ NULL, 0, CMD_FLAG, 0 }
};

/* The commit service, driven to its end by a plain poll loop. */
static int
commit_run(struct store *st, const char *repo, const char *msg,
    const char *by, struct dataset_result *res, struct err *err)
{
	struct dsvc *s;
	int rc;

	memset(res, 0, sizeof *res);
	if (dsvc_new(&s, st, repo, msg, by, err) < 0)
		return -1;
	while (!dsvc_step(s)) {
		struct pollfd p = { .fd = dsvc_fd(s), .events = POLLIN };

		if (poll(&p, 1, -1) < 0 && errno != EINTR)
			break;
	}
	if (dsvc_step(s))
		rc = dsvc_result(s, res, err);
	else
		rc = err_set(err, "poll: %s", strerror(errno));
	dsvc_free(s);
	return rc;
}

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
	rc = commit_run(st, repo, msg, by, &res, err);
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
