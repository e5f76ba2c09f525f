/*
 * cmd_review.c - `assay review`: set a candidate's review status.  Moved
 * from cli.c.
 */
#include "cli/cli_shared.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/decide.h"
#include "base/err.h"
#include "store/store.h"
#include "model/vocab.h"

static int
cmd_review(const struct cli_global *g, int argc, char **argv)
{
	static const struct option lo[] = {
		{ "note", required_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 }
	};
	const char *note = NULL, *status = NULL;
	struct store *st;
	struct err err;
	char *id, *by;
	int ch, rc;

	if (cli_wants_help("review", argc, argv))
		return 0;
	optind = 1;
	while ((ch = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		if (ch == 'n')
			note = optarg;
		else
			return cli_usage_error("review", "bad option%s", "");
	}
	if (optind + 2 != argc)
		return cli_usage_error("review", "want ID and"
		    " accept|reject|flag|reset%s", "");
	status = status_name(status_from_verb(argv[optind + 1]));
	if (status == NULL)
		return cli_usage_error("review", "unknown decision '%s' (accept"
		    " reject flag reset)", argv[optind + 1]);
	if (cli_open_store(g, &st) < 0)
		return 2;
	if ((id = cli_resolve(st, argv[optind])) == NULL) {
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
		if (store_run_latest(st, id, &run, &err) == 0) {
			if (!verdict_is(run.verdict, VERDICT_PASS))
				fprintf(stderr, "assay: note: %s's latest verdict is"
				    " %s; accepted anyway\n", id, run.verdict);
			run_release(&run);
		} else {
			fprintf(stderr, "assay: note: %s was never verified;"
			    " accepted anyway\n", id);
		}
	}
	rc = decide_review(st, id, status, note, by, &err);
	if (rc < 0)
		fprintf(stderr, "assay review: %s\n", err.msg);
	else
		printf("%s %s by %s\n", id, status, by);
	free(by);
	free(id);
	store_close(st);
	return rc < 0 ? 2 : 0;
}

const struct cli_cmd cli_cmd_review = {
	"review", "review ID accept|reject|flag|reset [--note TEXT]",
	  "Set a candidate's review status.",
	cmd_review
};
