/*
 * cli_shared.h - what the headless commands, one file each (cmd_*.c),
 * share: the command entry, opening the store, usage errors, id and
 * reviewer resolution, the verify/merge summary and the JSON and
 * terminal-safe printing of rows (cli_shared.c).  Each prints its own
 * errors to stderr, as the commands do.
 */
#ifndef ASSAY_CLI_SHARED_H
#define ASSAY_CLI_SHARED_H

#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "app/command.h"
#include "base/buf.h"
#include "cli/cli.h"
#include "store/store.h"
#include "verify/service.h"

/*
 * The headless commands: each cmd_NAME.c defines its entry cli_cmd_NAME
 * (app/command.h: name, argument spec, usage, help, flags, exec) and
 * cli.c lists them.  exec gets the struct cli_global as ctx->front and
 * prints its own messages to stdout and stderr (err is its scratch).
 */

/*
 * Hand the command table down (cli.c does, before it runs a command),
 * for cli_usage_error.
 */
void	cli_set_commands(const struct cmd_table *table);

/*
 * Run e on argv (argv[0] its name) with g's global options: the
 * arguments are parsed by e's spec (a usage error prints why and the
 * usage, exit status 2; --help prints the help), then e->exec runs.
 * Returns the exit status.
 */
int	cli_exec(const struct cli_global *g, const struct cmd_entry *e,
	    int argc, char **argv);

/*
 * Open the database of g; only import may create it (create 1): a
 * typo'd --db must not quietly answer from an empty one.  0, or -1
 * after printing why.
 */
int	cli_open_store_mode(const struct cli_global *g, struct store **st,
	    int create);

/* cli_open_store_mode(g, st, 0). */
int	cli_open_store(const struct cli_global *g, struct store **st);

/* Print "assay CMD: <fmt with arg>" and the usage to stderr; returns 2. */
int	cli_usage_error(const char *cmd, const char *fmt, const char *arg);

/* An id or a unique prefix of one: new string, or NULL after printing. */
char	*cli_resolve(struct store *st, const char *id);

/*
 * The reviewer's name (--reviewer, ASSAY_REVIEWER, git, the login),
 * checked by ident.h's rule because it goes into the journal and the
 * dataset's Reviewed-by: trailers.  New string, or NULL after printing
 * why.
 */
char	*cli_reviewer(const struct cli_global *g);

/* Repeated --where options add up: "a" then "b" is "a b". */
void	cli_where_add(struct buf *w, const char *v);

/* The filter of a where buffer: its text, or NULL when empty. */
#define WHERE(w) ((w).len > 0 ? buf_str(&(w)) : NULL)

/* The summary verify and merge print: one line, or one JSON object. */
struct cli_summary {
	const char	*command;	/* "verify" or "merge" */
	size_t		 done;		/* runs stored by this command */
	size_t		 unchanged;	/* verify: skipped; merge: already in */
	size_t		 not_stored;	/* runs kept only in a results file */
	size_t		 refused;	/* merge: stale or foreign lines */
	struct vsvc_tally tally;	/* by verdict (vsvc_tally_add()) */
	const char	*results;	/* results file, or NULL */
	int		 input;		/* verify --input */
	int		 complete;	/* --input: the marker was written */
	size_t		 left;		/* verify: candidates left to another
					 * verify holding their claims */
	json_t		*more;		/* more fields for the JSON object
					 * (borrowed), or NULL */
};

/* Print s to stdout: one line, or (json) one JSON object. */
void	cli_summary_print(const struct cli_summary *s, int json);
/* Its one line ("verified N, unchanged M: pass ...") to f. */
void	cli_summary_line(FILE *f, const struct cli_summary *s);

/* Parse whole seconds in lo..hi into *out; 0 or -1. */
int	cli_parse_seconds(const char *s, long lo, long hi, long *out);

/*
 * One field of a table row (an origin, a benchmark, an env name) as a
 * new string that is safe on a terminal and stays on its line: every
 * control character, newline included, shown escaped.  *escaped (may be
 * NULL) counts what was changed.  NULL gives "-".
 */
char	*cli_vis(const char *s, size_t *escaped);

/*
 * Untrusted text (candidate code, logs, origins, notes; len bytes) to
 * stdout: its control characters, escape sequences and invalid UTF-8 as
 * visible escapes, so that it cannot set the window title, write the
 * clipboard (OSC 52) or hide text; a NUL no longer ends it.  Says so on
 * stderr, as "assay cmd: ...", when anything was escaped.
 */
void	cli_safe_print(const char *cmd, const char *s, size_t len);

/*
 * A progress line on stderr (import and merge --progress): on a
 * terminal, each cli_progress() redraws one line in place ("\r\e[K"
 * then the text); anywhere else (a log, a pipe) it writes plain lines,
 * at most one a second, never a control sequence.  cli_progress_end()
 * ends the line on a terminal.  Zero-initialise, then set tty
 * (isatty(STDERR_FILENO)).  The text must be terminal-safe already.
 */
struct cli_progress {
	int	tty;
	int	shown;		/* a line was written */
	double	last;		/* when the last plain line was, s */
};
void	cli_progress(struct cli_progress *p, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
void	cli_progress_end(struct cli_progress *p);

/* A list row as a new JSON object (list --json, show --json). */
json_t	*cli_row_json(const struct store_row *r);

/* Print o compactly, in key order, on one line; takes o's reference. */
void	cli_print_json(json_t *o);

/*
 * Verify the n ids in st through the verify service (verify/service.h)
 * as `assay verify --jobs jobs ID...` would: references first, claimed,
 * an unchanged input skipped; a "[k/N] ID VERDICT" line on stderr per
 * run unless quiet, then verify's summary line on stdout.  0, or 2 when
 * a candidate could not be loaded or started or the store failed.
 */
int	cli_verify_ids(struct store *st, char **ids, size_t n, int jobs,
	    int quiet);

#endif
