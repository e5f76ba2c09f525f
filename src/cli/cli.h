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

/* Run command argv[0] with its arguments; argc >= 1. */
int	cli_run(const struct cli_global *g, int argc, char **argv);

/* Is name a headless command? */
int	cli_is_command(const char *name);

/* Print the top-level usage to stdout. */
void	cli_usage(void);

#endif
