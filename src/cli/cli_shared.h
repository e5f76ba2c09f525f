/*
 * cli_shared.h - what the headless commands in other files than cli.c
 * (cli_model.c: generate, repair) share with it.  Each prints its own
 * errors to stderr, as the commands do.
 */
#ifndef ASSAY_CLI_SHARED_H
#define ASSAY_CLI_SHARED_H

#include <stddef.h>

#include "cli/cli.h"
#include "store/store.h"

/* Open the existing database of g.  0, or -1 after printing why. */
int	cli_open_store(const struct cli_global *g, struct store **st);

/* argv asks for --help: print the command's help and return 1. */
int	cli_wants_help(const char *name, int argc, char **argv);

/* Print "assay CMD: <fmt with arg>" and the usage; returns 2. */
int	cli_usage_error(const char *cmd, const char *fmt, const char *arg);

/* An id or a unique prefix of one: new string, or NULL after printing. */
char	*cli_resolve(struct store *st, const char *id);

/*
 * `assay verify --jobs jobs [--quiet] ID...` over the n ids, references
 * first, printing its summary as verify does.  Returns verify's exit
 * status (0, or 2 on bad input or a store failure).
 */
int	cli_verify_ids(const struct cli_global *g, char **ids, size_t n,
	    int jobs, int quiet);

/*
 * stats --generation (cli_model.c): per model, candidates, pass rate,
 * pass@k, repairs per round, tokens and time, in fmt (table, csv, json,
 * md).  under: printed under another table (a blank line first,
 * nothing when no model made a candidate).  Returns the exit status.
 */
int	cli_stats_generation(struct store *st, const char *where,
	    const char *fmt, int under);

/* The commands of cli_model.c, for cli.c's table. */
extern const char GENERATE_USAGE[], GENERATE_HELP[];
extern const char REPAIR_USAGE[], REPAIR_HELP[];
int	cmd_generate(const struct cli_global *g, int argc, char **argv);
int	cmd_repair(const struct cli_global *g, int argc, char **argv);

#endif
