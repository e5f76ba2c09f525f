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

#include <jansson.h>

#include "base/buf.h"
#include "cli/cli.h"
#include "store/store.h"

/*
 * One headless command: its name, usage line (after "assay "), help text
 * and the function that runs it with argv[0] the name; run returns the
 * exit status.  Each cmd_NAME.c defines cli_cmd_NAME; cli.c lists them.
 */
struct cli_cmd {
	const char	*name;
	const char	*usage;
	const char	*help;
	int		(*run)(const struct cli_global *, int, char **);
};

extern const struct cli_cmd cli_cmd_import, cli_cmd_verify, cli_cmd_merge,
    cli_cmd_slurm, cli_cmd_list, cli_cmd_show, cli_cmd_label, cli_cmd_review,
    cli_cmd_dedup, cli_cmd_contamination, cli_cmd_split, cli_cmd_undo,
    cli_cmd_redo, cli_cmd_commit, cli_cmd_export, cli_cmd_stats,
    cli_cmd_generate, cli_cmd_repair, cli_cmd_envs, cli_cmd_note;

/*
 * Hand the NULL-terminated command table down (cli.c does, before it
 * runs a command), for cli_find, cli_usage_error and cli_wants_help.
 */
void	cli_set_commands(const struct cli_cmd *const *table);

/* The entry named name in the table handed down, or NULL. */
const struct cli_cmd *cli_find(const char *name);

/*
 * Open the database of g; only import may create it (create 1): a
 * typo'd --db must not quietly answer from an empty one.  0, or -1
 * after printing why.
 */
int	cli_open_store_mode(const struct cli_global *g, struct store **st,
	    int create);

/* cli_open_store_mode(g, st, 0). */
int	cli_open_store(const struct cli_global *g, struct store **st);

/* argv asks for --help (before any "--"): print the command's help and
 * return 1; else 0. */
int	cli_wants_help(const char *name, int argc, char **argv);

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

/* Runs counted by verdict. */
struct cli_tally {
	size_t	 pass, fail, timeout, skipped, env_error, task_defect, other;
};

/* Count one run of verdict (a verdict name; others count as other). */
void	cli_tally_add(struct cli_tally *t, const char *verdict);

/* The summary verify and merge print: one line, or one JSON object. */
struct cli_summary {
	const char	*command;	/* "verify" or "merge" */
	size_t		 done;		/* runs stored by this command */
	size_t		 unchanged;	/* verify: skipped; merge: already in */
	size_t		 not_stored;	/* runs kept only in a results file */
	size_t		 refused;	/* merge: stale or foreign lines */
	struct cli_tally tally;
	const char	*results;	/* results file, or NULL */
	int		 input;		/* verify --input */
	int		 complete;	/* --input: the marker was written */
};

/* Print s to stdout: one line, or (json) one JSON object. */
void	cli_summary_print(const struct cli_summary *s, int json);

/* Parse whole seconds in lo..hi into *out; 0 or -1. */
int	cli_parse_seconds(const char *s, long lo, long hi, long *out);

/* s as a new JSON string (invalid UTF-8 as U+FFFD: jansson refuses it,
 * and a refused field would drop the whole row), or null. */
json_t	*cli_jstr_or_null(const char *s);

/* txt parsed as JSON (new reference), or null when NULL or invalid. */
json_t	*cli_jraw(const char *txt);

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
 * Set o[key] to s (len bytes) as a JSON string, whatever its bytes: an
 * invalid UTF-8 byte or a NUL becomes U+FFFD, and o[key "_replaced"]
 * says how many were (jansson refuses such strings, and show --json
 * once dropped the whole log).  s NULL sets null.
 */
void	cli_jtext(json_t *o, const char *key, const char *s, size_t len);

/* A list row as a new JSON object (list --json, show --json). */
json_t	*cli_row_json(const struct store_row *r);

/* Print o compactly, in key order, on one line; takes o's reference. */
void	cli_print_json(json_t *o);

/*
 * `assay verify --jobs jobs [--quiet] ID...` over the n ids, references
 * first, printing its summary as verify does (cmd_verify.c).  Returns
 * verify's exit status (0, or 2 on bad input or a store failure).
 */
int	cli_verify_ids(const struct cli_global *g, char **ids, size_t n,
	    int jobs, int quiet);

#endif
