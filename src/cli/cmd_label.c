/*
 * cmd_label.c - `assay label`: label a candidate with a failure
 * category.  Moved from cli.c.
 */
#include "cli/cli_shared.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/decide.h"
#include "base/err.h"
#include "store/store.h"
#include "model/vocab.h"

static const struct cmd_opt label_opts[] = {
	{ "sub", 0, CMD_VALUE, 's' },
	{ "note", 0, CMD_VALUE, 'n' },
	{ NULL, 0, CMD_FLAG, 0 }
};

static int
cmd_label(struct cmd_ctx *ctx, struct cmd_args *a, struct err *err)
{
	const struct cli_global *g = ctx->front;
	const char *val = NULL;
	const char *sub = NULL, *note = NULL, *cat;
	struct store *st;
	char *id, *by, names[80], why[160];
	int ch, rc;

	while ((ch = cmd_next(a, &val)) != -1) {
		if (ch == 's')
			sub = val;
		else if (ch == 'n')
			note = val;
	}
	if (sub != NULL && *sub == '\0')
		sub = NULL;
	if (note != NULL && *note == '\0')
		note = NULL;
	cat = a->pos[1];
	if (category_from_name(cat) == CATEGORY_NONE) {
		snprintf(why, sizeof why, "unknown category '%.64s' (%s)", cat,
		    category_list(names, sizeof names, " "));
		return cli_usage_error("label", "%s", why);
	}
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
	rc = decide_label(st, id, cat, sub, note, by, NULL, err);
	if (rc < 0)
		fprintf(stderr, "assay label: %s\n", err->msg);
	else
		printf("%s labelled %s%s%s by %s\n", id, cat, sub != NULL ? "/" :
		    "", sub != NULL ? sub : "", by);
	free(by);
	free(id);
	store_close(st);
	return rc < 0 ? 2 : 0;
}

const struct cmd_entry cli_cmd_label = {
	"label", NULL, label_opts, 2, 2,
	"label ID CATEGORY [--sub TEXT] [--note TEXT]",
	  "Label a candidate with one of the five failure categories:\n"
	  "compile api functional format performance.",
	CMD_CLI | CMD_TARGETS, cmd_label
};
