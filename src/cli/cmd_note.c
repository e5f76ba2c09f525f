/*
 * cmd_note.c - `assay note ID TEXT...`: a free note on a candidate by
 * the reviewer, the workbench's m and :note made headless.  The note is
 * journalled and never undone (app/decide.h, decide_note).
 */
#include "cli/cli_shared.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "app/decide.h"
#include "base/buf.h"
#include "base/err.h"
#include "store/store.h"

static int
cmd_note(const struct cli_global *g, int argc, char **argv)
{
	static const struct option lo[] = { { NULL, 0, NULL, 0 } };
	struct buf text = BUF_INIT;
	struct store *st;
	struct err err;
	char *id, *by;
	int rc;

	if (cli_wants_help("note", argc, argv))
		return 0;
	optind = 1;
	if (getopt_long(argc, argv, "", lo, NULL) != -1)
		return cli_usage_error("note", "bad option%s", "");
	if (optind + 2 > argc)
		return cli_usage_error("note", "want ID and TEXT%s", "");
	for (int i = optind + 1; i < argc; i++)
		buf_printf(&text, "%s%s", i > optind + 1 ? " " : "", argv[i]);
	if (cli_open_store(g, &st) < 0) {
		buf_release(&text);
		return 2;
	}
	id = cli_resolve(st, argv[optind]);
	by = id != NULL ? cli_reviewer(g) : NULL;
	rc = by == NULL ? -1 : decide_note(st, id, buf_str(&text), by, &err);
	if (rc < 0 && by != NULL)
		fprintf(stderr, "assay note: %s\n", err.msg);
	else if (rc == 0)
		printf("%s noted by %s\n", id, by);
	free(by);
	free(id);
	buf_release(&text);
	store_close(st);
	return rc < 0 ? 2 : 0;
}

const struct cli_cmd cli_cmd_note = {
	"note", "note ID TEXT...", "Add a free note to a candidate (the words\n"
	  "after ID, joined by spaces), as the reviewer; journalled, shown by\n"
	  "show and the workbench's spec pane, found by grep=, never undone.",
	cmd_note
};
