/*
 * cli.c - the dispatch of the headless commands (design.md section 5):
 * cli_run finds the command in the one table (main.c) among the entries
 * that run on the command line, cli_exec parses its arguments by the
 * entry's spec and runs it.  `assay help`, `assay help CMD` and the
 * top-level usage are written from the table's CMD_CLI entries.
 *
 * Adding a command is one file, src/cli/cmd_NAME.c ending in its entry
 * cli_cmd_NAME, and one line X(NAME) in CLI_COMMANDS (cli.h); a command
 * the workbench runs too is one file in src/app and one line in
 * APP_COMMANDS (app/commands.h).
 */
#include "cli/cli.h"
#include "cli/cli_shared.h"

#include <stdio.h>
#include <string.h>

#include "app/command.h"
#include "base/buf.h"

#define VERSION "0.1.0"

static int cmd_help(struct cmd_ctx *, struct cmd_args *, struct err *);

const struct cmd_entry cli_cmd_help = {
	"help", NULL, NULL, 0, 1,
	"help [COMMAND]",
	"Show help: the usage of every command, or COMMAND's usage and help.",
	CMD_CLI, cmd_help
};

/* The one table (main.c), handed in by cli_run() and cli_usage(). */
static const struct cmd_table *table;

void
cli_usage(const struct cmd_table *t)
{
	struct buf b = BUF_INIT;

	table = t;
	printf("assay %s - a workbench for execution-verified code samples\n\n"
	    "usage: assay [--db FILE] [--reviewer NAME] [--where FILTER]"
	    " [--repo DIR]\n"
	    "             [--no-sandbox] [--dump-screen FILE]   open the"
	    " workbench\n", VERSION);
	cmd_usage_all(table, CMD_CLI, "       assay [--db FILE] ", &b);
	fwrite(b.p != NULL ? b.p : "", 1, b.len, stdout);
	buf_release(&b);
	printf("       assay --version\n\nEvery command takes --help."
	    "  The database defaults to ./assay.db.\n");
}

static int
cmd_help(struct cmd_ctx *ctx, struct cmd_args *a, struct err *err)
{
	const struct cmd_entry *c;
	struct buf b = BUF_INIT;

	(void)ctx;
	if (a->npos == 0) {
		cli_usage(table);
		return 0;
	}
	c = cmd_lookup(table, a->pos[0], CMD_CLI, err);
	if (c == NULL) {
		fprintf(stderr, "assay: %s\n", err->msg);
		return 2;
	}
	cmd_help_text(c, CMD_CLI, "assay", &b);
	fwrite(b.p != NULL ? b.p : "", 1, b.len, stdout);
	buf_release(&b);
	return 0;
}

int
cli_run(const struct cli_global *g, const struct cmd_table *t, int argc,
    char **argv)
{
	const struct cmd_entry *c;
	struct err err;

	table = t;
	if (cmd_find(t, argv[0]) == NULL) {
		fprintf(stderr, "assay: no command '%s'; see assay --help\n",
		    argv[0]);
		return 2;
	}
	/* one of the workbench's (`assay zoom`): where it runs */
	if ((c = cmd_lookup(t, argv[0], CMD_CLI, &err)) == NULL) {
		fprintf(stderr, "assay: %s\n", err.msg);
		return 2;
	}
	cli_set_commands(t);
	return cli_exec(g, c, argc, argv);
}

const char *cli_version(void);

const char *
cli_version(void)
{
	return VERSION;
}
