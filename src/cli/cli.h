/*
 * cli.h - the headless commands of design.md section 5.  Each prints to
 * stdout/stderr and returns the process exit status: 0 done, 1 verify
 * --check found candidates that did not pass, 2 bad usage or bad input.
 */
#ifndef ASSAY_CLI_H
#define ASSAY_CLI_H

/* Options that come before the command name. */
struct cli_global {
	const char	*db;		/* --db, default ./assay.db */
	const char	*reviewer;	/* --reviewer */
	const char	*argv0;
};

/*
 * The headless commands, one line each, in the order of the usage: the
 * entry cli_cmd_NAME that src/cli/cmd_NAME.c defines (app/command.h).
 * The one table (main.c) lists them with the commands both front ends
 * run (app/commands.h), `help`, and the workbench's (ui/ui.h).
 */
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
	X(envs) \
	X(task)

struct cmd_entry;
struct cmd_table;
#define CLI_DECLARE(name)	extern const struct cmd_entry cli_cmd_##name;
CLI_COMMANDS(CLI_DECLARE)
CLI_DECLARE(help)
#undef CLI_DECLARE

/*
 * Run command argv[0] of the one table t (borrowed for the process)
 * with its arguments; argc >= 1.  A command that does not run on the
 * command line is refused with where it runs.  Returns the exit status.
 */
int	cli_run(const struct cli_global *g, const struct cmd_table *t,
	    int argc, char **argv);

/* Print the top-level usage, from t's CMD_CLI entries, to stdout. */
void	cli_usage(const struct cmd_table *t);

#endif
