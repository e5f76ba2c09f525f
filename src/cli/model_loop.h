/*
 * model_loop.h - what `assay generate` and `assay repair` share
 * (model_loop.c).  Each prints its own errors to stderr, as the
 * commands do.
 */
#ifndef ASSAY_CLI_MODEL_LOOP_H
#define ASSAY_CLI_MODEL_LOOP_H

#include <stddef.h>

#include <jansson.h>

#include "app/command.h"
#include "base/buf.h"
#include "cli/cli.h"
#include "generate/generate.h"
#include "generate/loop.h"
#include "generate/model.h"
#include "store/store.h"

/* The options of generate and repair. */
struct loop_opts {
	struct model_cfg cfg;
	struct buf	 where;
	int		 samples, jobs, rounds, verify, json, verify_hand, show;
	const char	*file;
	int		 have_where, have_samples, have_rounds;
	/* generate's strategy (ADR 0045) */
	const char	*strategy, *template, *from, *to;
	unsigned long	 seed;
	int		 have_seed;
	int		 have_min_gain;	/* --min-gain given (optimize) */
	int		 remeasure;	/* optimize --remeasure */
};

/* Is an option of generate's strategies or optimize's threshold given?
 * Its name ("--strategy" ...) for a command that has none, else NULL. */
const char *loop_strategy_opt(const struct loop_opts *o);

/* The options of both commands, for their entries' spec. */
extern const struct cmd_opt loop_spec[];

/* Parse the options of command cmd (a) into o, the config file first.
 * 0, or the exit status after printing why.  Release o with
 * loop_release either way. */
int	loop_parse(const char *cmd, struct cmd_args *a, struct loop_opts *o);
void	loop_release(struct loop_opts *o);

/* gen_progress callback: "what: done/n answered" on a terminal's
 * stderr; arg is the const char *what. */
void	loop_progress(size_t done, size_t n, void *arg);

/* A set of candidate ids, each once (owned strings). */
struct idset {
	char	**v;
	size_t	  n;
};

void	loop_idset_add(struct idset *s, const char *id);
void	loop_idset_release(struct idset *s);

/* A round's figures as JSON (new reference); passed, when >= 0, is how
 * many of its answers pass; round > 0 is set as "round". */
json_t	*loop_summary_json(const struct gen_report *rep, int round,
	    long passed);

/* One JSON object as a line on stdout; consumes o. */
void	loop_print_object(json_t *o);

/*
 * Drive the round loop (generate/loop.h) over ids (tasks, or the failed
 * candidates to repair) to its end with a plain poll loop, printing what
 * the command prints: --show's requests and answers, each round's errors
 * and summary line, verify's lines and summary.  rounds (may be NULL)
 * gets one object a round for --json.  Returns the exit status: 0, 1
 * when a request failed, 2 when the store failed or a candidate could
 * not be verified.  total (may be NULL) gets the sums over the rounds
 * (no ids or errors: nothing to release).
 */
int	loop_run(struct store *st, const struct gen_ctx *g,
	    enum gloop_kind kind, const char *verb, const struct loop_opts *o,
	    char **ids, size_t n, json_t *rounds, struct gen_report *total);

/* cb over the queue row of each id (or unique prefix) named.  0, or -1
 * after printing why (an unknown id is bad input). */
int	loop_each_id(struct store *st, int n, char **ids,
	    int (*cb)(const struct store_row *, void *), void *arg);

#endif
