/*
 * cli.c - the table of headless commands (design.md section 5), one
 * file each (cmd_NAME.c defines cli_cmd_NAME), and their dispatch:
 * cli_run finds the command and runs it; help and the top-level usage
 * are read from the table.
 */
#include "cli/cli.h"
#include "cli/cli_shared.h"

#include <stdio.h>
#include <string.h>

#define VERSION "0.1.0"

static int cmd_help(const struct cli_global *, int, char **);

static const struct cli_cmd cli_cmd_help = {
	"help", "help [COMMAND]", "Show help.", cmd_help
};

/* The commands in the order of the usage; NULL ends it. */
static const struct cli_cmd *const cmds[] = {
	&cli_cmd_import,
	&cli_cmd_verify,
	&cli_cmd_merge,
	&cli_cmd_slurm,
	&cli_cmd_list,
	&cli_cmd_show,
	&cli_cmd_label,
	&cli_cmd_review,
	&cli_cmd_note,
	&cli_cmd_dedup,
	&cli_cmd_contamination,
	&cli_cmd_split,
	&cli_cmd_undo,
	&cli_cmd_redo,
	&cli_cmd_commit,
	&cli_cmd_export,
	&cli_cmd_stats,
	&cli_cmd_generate,
	&cli_cmd_repair,
	&cli_cmd_envs,
	&cli_cmd_help,
	NULL
};

static const struct cli_cmd *
find_cmd(const char *name)
{
	for (size_t i = 0; cmds[i] != NULL; i++)
		if (strcmp(cmds[i]->name, name) == 0)
			return cmds[i];
	return NULL;
}

int
cli_is_command(const char *name)
{
	return find_cmd(name) != NULL;
}

void
cli_usage(void)
{
	printf("assay %s - a workbench for execution-verified code samples\n\n"
	    "usage: assay [--db FILE] [--reviewer NAME] [--where FILTER]"
	    " [--repo DIR]\n"
	    "             [--no-sandbox] [--dump-screen FILE]   open the"
	    " workbench\n", VERSION);
	for (size_t i = 0; cmds[i] != NULL; i++)
		printf("       assay [--db FILE] %s\n", cmds[i]->usage);
	printf("       assay --version\n\nEvery command takes --help."
	    "  The database defaults to ./assay.db.\n");
}

static int
cmd_help(const struct cli_global *g, int argc, char **argv)
{
	const struct cli_cmd *c;

	(void)g;
	if (argc < 2 || strcmp(argv[1], "--help") == 0 ||
	    strcmp(argv[1], "-h") == 0) {
		cli_usage();
		return 0;
	}
	c = find_cmd(argv[1]);
	if (c == NULL) {
		fprintf(stderr, "assay: no command '%s'\n", argv[1]);
		return 2;
	}
	printf("usage: assay %s\n\n%s\n", c->usage, c->help);
	return 0;
}

int
cli_run(const struct cli_global *g, int argc, char **argv)
{
	const struct cli_cmd *c = find_cmd(argv[0]);

	if (c == NULL) {
		fprintf(stderr, "assay: no command '%s'; see assay --help\n",
		    argv[0]);
		return 2;
	}
	cli_set_commands(cmds);
	return c->run(g, argc, argv);
}

const char *cli_version(void);

const char *
cli_version(void)
{
	return VERSION;
}
