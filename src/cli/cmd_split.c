/*
 * cmd_split.c - `assay split`: train/validation/test splits.  Moved from
 * cli.c.
 */
#include "cli/cli_shared.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/config.h"
#include "base/err.h"
#include "curate/split.h"
#include "store/store.h"

struct split_count {
	char	*name[64];
	size_t	 n[64], hand[64], nnames, none;
};

static int
split_count_one(const char *task_id, const char *split, int hand, void *arg)
{
	struct split_count *c = arg;
	size_t i;

	(void)task_id;
	if (split == NULL) {
		c->none++;
		return 0;
	}
	for (i = 0; i < c->nnames && strcmp(c->name[i], split) != 0; i++)
		;
	if (i == c->nnames) {
		if (c->nnames == 64)
			return 0;
		c->name[c->nnames++] = xstrdup(split);
	}
	c->n[i]++;
	c->hand[i] += hand != 0;
	return 0;
}

static const struct cmd_opt split_opts[] = {
	{ "ratios", 0, CMD_VALUE, 'r' },
	{ "set", 0, CMD_VALUE, 's' },
	{ "clear", 0, CMD_FLAG, 'c' },
	{ NULL, 0, CMD_FLAG, 0 }
};

static int
cmd_split(struct cmd_ctx *ctx, struct cmd_args *a, struct err *err)
{
	const struct cli_global *g = ctx->front;
	const char *val = NULL;
	struct split_spec spec;
	struct split_count cnt;
	const char *ratios = NULL, *set = NULL;
	struct store *st;
	char *by;
	int ch, clear = 0, rc = 0;

	while ((ch = cmd_next(a, &val)) != -1) {
		if (ch == 'r')
			ratios = val;
		else if (ch == 's')
			set = val;
		else if (ch == 'c')
			clear = 1;
	}
	if ((set != NULL || clear) != (a->npos > 0))
		return cli_usage_error("split", "--set NAME and --clear take TASK"
		    " ids, and only they%s", "");
	if (set != NULL && clear)
		return cli_usage_error("split", "--set or --clear, not both%s", "");
	if (ratios != NULL && split_parse(ratios, &spec, err) < 0)
		return cli_usage_error("split", "%s", err->msg);
	if (set != NULL) {
		struct split_spec one;
		char *txt = xasprintf("%s=1", set);

		rc = split_parse(txt, &one, err);
		free(txt);
		if (rc < 0)
			return cli_usage_error("split", "%s", err->msg);
	}
	if (cli_open_store(g, &st) < 0)
		return 2;
	by = config_reviewer(g->reviewer);
	for (int i = 0; i < a->npos && rc == 0; i++) {
		if (store_task_split_set(st, a->pos[i], clear ? NULL : set, 1, by,
		    err) < 0) {
			fprintf(stderr, "assay split: %s\n", err->msg);
			rc = 2;
		} else {
			printf("%s: %s\n", a->pos[i], clear ? "split by hash" :
			    set);
		}
	}
	if (rc == 0 && ratios != NULL && split_assign(st, &spec, NULL,
	    err) < 0) {
		fprintf(stderr, "assay split: %s\n", err->msg);
		rc = 2;
	}
	if (rc == 0 && a->npos == 0) {
		memset(&cnt, 0, sizeof cnt);
		if (store_task_split_each(st, split_count_one, &cnt,
		    err) != 0) {
			fprintf(stderr, "assay split: %s\n", err->msg);
			rc = 2;
		}
		for (size_t i = 0; i < cnt.nnames; i++) {
			printf("%-12s %8zu tasks", cnt.name[i], cnt.n[i]);
			if (cnt.hand[i] > 0)
				printf(" (%zu by hand)", cnt.hand[i]);
			printf("\n");
			free(cnt.name[i]);
		}
		if (cnt.none > 0)
			printf("%-12s %8zu tasks\n", "(none)", cnt.none);
	}
	free(by);
	store_close(st);
	return rc;
}

const struct cmd_entry cli_cmd_split = {
	"split", NULL, split_opts, 0, CMD_MANY,
	"split [--ratios NAME=SHARE,...] | --set NAME TASK... |"
	  " --clear TASK...",
	  "Train/valid/test splits of the tasks (every sample of a task is in\n"
	  "its task's split; the split= filter).  --ratios\n"
	  "train=0.9,valid=0.05,test=0.05 gives every task without a hand-set\n"
	  "split the one a stable hash of its id falls in: the same in every\n"
	  "database, whatever the import order.  --set NAME sets the split of\n"
	  "the TASKs by hand (kept by every assignment, journalled); --clear\n"
	  "gives them back to the hash.  Then, or alone, prints the tasks per\n"
	  "split.",
	CMD_CLI, cmd_split
};
