/*
 * pipeline.h - tasks that name several envs: "iverilog+yosys" simulates
 * the candidate with Icarus Verilog, then synthesises it with Yosys
 * (docs/envs.md, "Pipelines"; docs/formats.md).
 *
 * verify.c runs the members in turn, each in a subdirectory of the work
 * directory named after it, with its own env_params; this module parses
 * the task's env and env_params, combines the members' judged runs into
 * the one run that is stored, and reads that run back for display (the
 * trace pane, `assay show`).  Pure: no I/O, nothing runs here.
 *
 * The combined run: the first member that did not pass decides the
 * verdict and the stage ("yosys:synth"); the failure category is the
 * earliest by design.md section 3's precedence (format, compile, api,
 * functional, performance) among the members that failed, ties to the
 * earlier member, with its subcategory, evidence and evidence line.
 * Metrics are merged under "<env>." prefixes ("iverilog.mismatches",
 * "yosys.cells"), with each member's "<env>.verdict", "<env>.stage",
 * "<env>.subcategory" and "<env>.stages" (the stages that ran).
 */
#ifndef ASSAY_PIPELINE_H
#define ASSAY_PIPELINE_H

#include <stddef.h>

#include "base/err.h"
#include "model/sample.h"

#define PIPELINE_MAX 4		/* members of one pipeline */
#define PIPELINE_NAME 32	/* bytes of a member's name, NUL included */

/* Does env name a pipeline (two or more members joined by '+')? */
int	pipeline_is(const char *env);

/*
 * Split env ("iverilog+yosys") into the names of its members, in order,
 * into names.  Returns how many (1 for a plain env), or -1 with err when
 * a member is empty, not a known env, named twice, or there are more
 * than PIPELINE_MAX.
 */
int	pipeline_split(const char *env, char names[][PIPELINE_NAME],
	    struct err *err);

/*
 * The env_params member sees, from the task's params (JSON object text,
 * NULL for none): the object under the member's own name when there is
 * one, else the task's params without the members' objects (shared
 * keys such as "timeout_s").  names are all the members (n of them).
 * New string (JSON object text), or NULL when there is nothing.
 */
char	*pipeline_params(const char *params, const char *member,
	    char names[][PIPELINE_NAME], size_t n);

/* One member as verify.c hands it over to pipeline_combine(). */
struct pipeline_member {
	const char	*env;		/* its name */
	struct run	*run;		/* judged and triaged; NULL: not run */
	const char	*const *stages;	/* names of the stages that ran */
	size_t		 nstages;
};

/*
 * Combine the members' runs into out, as the header comment says:
 * verdict, stage, subcategory, category, evidence, evidence_line,
 * metrics and diagnostics (each message prefixed with "ENV: ").  Fields
 * of out it sets are replaced; the members' runs are left as they are.
 * A member that did not run (run NULL: the wall clock or a cancel
 * stopped the pipeline before it) has "<env>.verdict": "not-run".
 */
void	pipeline_combine(const struct pipeline_member *m, size_t n,
	    struct run *out);

/* What a combined run says of one member, for display. */
struct pipeline_step {
	char	*env;
	char	*verdict;	/* "pass", "fail", ..., "not-run" */
	char	*stage;		/* where it stopped, or NULL */
	char	*subcategory;	/* or NULL */
	char	**stages;	/* the stages that ran */
	size_t	 nstages;
	char	*metrics;	/* its own metrics, "k=v k=v", or NULL */
};

/*
 * The members of a run of env whose metrics were written by
 * pipeline_combine(): *out new array of *n, release with
 * pipeline_steps_free().  Returns 0, or -1 when env is no pipeline or
 * metrics hold no member (a run from before pipelines, or unparsable).
 */
int	pipeline_steps(const char *env, const char *metrics,
	    struct pipeline_step **out, size_t *n);
void	pipeline_steps_free(struct pipeline_step *s, size_t n);

/*
 * Did member s fail at its stage k (0 <= k < s->nstages)?  The stage it
 * names as where it stopped, else the last that ran; never for a pass.
 */
int	pipeline_step_failed(const struct pipeline_step *s, size_t k);

#endif
