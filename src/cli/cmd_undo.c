/*
 * cmd_undo.c - `assay undo` and `assay redo` of labels and reviews.
 * Moved from cli.c.
 */
#include "cli/cli_shared.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/decide.h"
#include "base/err.h"
#include "store/store.h"

static int
undo_redo(const struct cli_global *g, int argc, char **argv, int redo)
{
	static const struct option lo[] = {
		{ "any", no_argument, NULL, 'a' },
		{ NULL, 0, NULL, 0 }
	};
	const char *name = redo ? "redo" : "undo";
	struct store *st;
	struct store_step step;
	struct err err;
	char what[512], *by;
	int rc, any = 0, ch;

	if (cli_wants_help(name, argc, argv))
		return 0;
	optind = 1;
	while ((ch = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		if (ch == 'a')
			any = 1;
		else
			return cli_usage_error(name, "bad option%s", "");
	}
	if (optind < argc)
		return cli_usage_error(name, "unexpected argument '%s'",
		    argv[optind]);
	if (cli_open_store(g, &st) < 0)
		return 2;
	by = cli_reviewer(g);
	if (by == NULL) {
		store_close(st);
		return 2;
	}
	rc = decide_undo(st, redo, by, any, &step, &err);
	if (rc < 0)
		fprintf(stderr, "assay: %s\n", err.msg);
	else
		printf("%s\n", decide_undo_text(rc, redo, by, any, &step, what,
		    sizeof what));
	free(by);
	store_close(st);
	return rc < 0 ? 2 : 0;
}

static int
cmd_undo(const struct cli_global *g, int argc, char **argv)
{
	return undo_redo(g, argc, argv, 0);
}

static int
cmd_redo(const struct cli_global *g, int argc, char **argv)
{
	return undo_redo(g, argc, argv, 1);
}

const struct cli_cmd cli_cmd_undo = {
	"undo", "undo [--any]", "Undo your latest label or review (the\n"
	  "reviewer's: --reviewer, ASSAY_REVIEWER, git, the login).  Another\n"
	  "reviewer's decisions are never undone; when someone decided the\n"
	  "same candidate since, it is refused.  --any: the latest of anyone's.",
	cmd_undo
};

const struct cli_cmd cli_cmd_redo = {
	"redo", "redo [--any]", "Redo your latest undone label or review\n"
	  "(none once you decided anew).  --any: the latest of anyone's.",
	cmd_redo
};
