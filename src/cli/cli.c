/*
 * cli.c - the table of headless commands (design.md section 5), one
 * file each (cmd_NAME.c defines the entry cli_cmd_NAME, app/command.h),
 * and their dispatch: cli_run finds the command, cli_exec parses its
 * arguments by the entry's spec and runs it.  `assay help`, `assay help
 * CMD` and the top-level usage are written from the table.
 *
 * Adding a command is one file, src/cli/cmd_NAME.c ending in its entry
 * cli_cmd_NAME, and one line X(NAME) in CLI_COMMANDS below; a command
 * the workbench runs too is one file in src/app and one line in
 * APP_COMMANDS (app/commands.h), which this table takes whole.
 */
#include "cli/cli.h"
#include "cli/cli_shared.h"

#include <stdio.h>
#include <string.h>

#include "app/command.h"
#include "app/commands.h"
#include "base/buf.h"

#define VERSION "0.1.0"

static int cmd_help(struct cmd_ctx *, struct cmd_args *, struct err *);

static const struct cmd_entry cli_cmd_help = {
	"help", NULL, NULL, 0, 1,
	"help [COMMAND]",
	"Show help: the usage of every command, or COMMAND's usage and help.",
	CMD_CLI, cmd_help
};

/* The commands, one line each, in the order of the usage. */
#define CLI_COMMANDS(X) \
	X(import) \
	X(verify) \
	X(merge) \
	X(slurm) \
	X(list) \
	X(show) \
	X(dedup) \
	X(contamination) \
	X(split) \
	X(commit) \
	X(export) \
	X(stats) \
	X(generate) \
	X(repair) \
	X(optimize) \
	X(envs)

#define CLI_DECLARE(name)	extern const struct cmd_entry cli_cmd_##name;
#define CLI_ENTRY(name)		&cli_cmd_##name,
#define APP_ENTRY(name)		&app_cmd_##name,
CLI_COMMANDS(CLI_DECLARE)

static const struct cmd_entry *const cmds[] = {
	CLI_COMMANDS(CLI_ENTRY)
	APP_COMMANDS(APP_ENTRY)
	&cli_cmd_help,
};

static const struct cmd_table table = { cmds, sizeof cmds / sizeof cmds[0] };

int
cli_is_command(const char *name)
{
	return cmd_find(&table, name) != NULL;
}

void
cli_usage(void)
{
	struct buf b = BUF_INIT;

	printf("assay %s - a workbench for execution-verified code samples\n\n"
	    "usage: assay [--db FILE] [--reviewer NAME] [--where FILTER]"
	    " [--repo DIR]\n"
	    "             [--no-sandbox] [--dump-screen FILE]   open the"
	    " workbench\n", VERSION);
	cmd_usage_all(&table, CMD_CLI, "       assay [--db FILE] ", &b);
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
	(void)err;
	if (a->npos == 0) {
		cli_usage();
		return 0;
	}
	c = cmd_find(&table, a->pos[0]);
	if (c == NULL) {
		fprintf(stderr, "assay: no command '%s'\n", a->pos[0]);
		return 2;
	}
	cmd_help_text(c, CMD_CLI, "assay", &b);
	fwrite(b.p != NULL ? b.p : "", 1, b.len, stdout);
	buf_release(&b);
	return 0;
}

int
cli_run(const struct cli_global *g, int argc, char **argv)
{
	const struct cmd_entry *c = cmd_find(&table, argv[0]);

	if (c == NULL) {
		fprintf(stderr, "assay: no command '%s'; see assay --help\n",
		    argv[0]);
		return 2;
	}
	cli_set_commands(&table);
	return cli_exec(g, c, argc, argv);
}

const char *cli_version(void);

const char *
cli_version(void)
{
	return VERSION;
}
