/*
 * cmd_label.c - `assay label`: label a candidate with a failure
 * category.  Moved from cli.c.
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
cmd_label(const struct cli_global *g, int argc, char **argv)
{
	static const struct option lo[] = {
		{ "sub", required_argument, NULL, 's' },
		{ "note", required_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 }
	};
	const char *sub = NULL, *note = NULL, *cat;
	struct store *st;
	struct err err;
	char *id, *by, names[80], why[160];
	int ch, rc;

	if (cli_wants_help("label", argc, argv))
		return 0;
	optind = 1;
	while ((ch = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		if (ch == 's')
			sub = optarg;
		else if (ch == 'n')
			note = optarg;
		else
			return cli_usage_error("label", "bad option%s", "");
	}
	if (optind + 2 != argc)
		return cli_usage_error("label", "want ID and CATEGORY%s", "");
	if (sub != NULL && *sub == '\0')
		sub = NULL;
	if (note != NULL && *note == '\0')
		note = NULL;
	cat = argv[optind + 1];
	if (category_from_name(cat) == CATEGORY_NONE) {
		snprintf(why, sizeof why, "unknown category '%.64s' (%s)", cat,
		    category_list(names, sizeof names, " "));
		return cli_usage_error("label", "%s", why);
	}
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
	rc = decide_label(st, id, cat, sub, note, by, NULL, &err);
	if (rc < 0)
		fprintf(stderr, "assay label: %s\n", err.msg);
	else
		printf("%s labelled %s%s%s by %s\n", id, cat, sub != NULL ? "/" :
		    "", sub != NULL ? sub : "", by);
	free(by);
	free(id);
	store_close(st);
	return rc < 0 ? 2 : 0;
}

const struct cli_cmd cli_cmd_label = {
	"label", "label ID CATEGORY [--sub TEXT] [--note TEXT]",
	  "Label a candidate with one of the five failure categories:\n"
	  "compile api functional format performance.",
	cmd_label
};
