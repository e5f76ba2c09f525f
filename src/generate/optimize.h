/*
 * optimize.h - what `assay optimize` measures (ADR 0045): for each env
 * that judges a cost, the metric of its runs that is the cost (lower is
 * better), and the gain of an `optimization` candidate over its parent
 * from the two candidates' latest runs.
 *
 *   env        metric (first present)   what it is
 *   x86-asm    ir_cand                  instructions of one call, counted
 *                                       by callgrind (env_params.time_n)
 *   yosys      area, cells              area from yosys `stat` with the
 *                                       liberty file, else the cell count
 *   nvcc       registers                registers per thread (ptxas -v):
 *                                       fewer is more occupancy
 * A pipeline ("iverilog+yosys") is measured by its member that measures,
 * the metric read as "yosys.area".  Other envs measure nothing (the
 * iverilog and verilator envs simulate, cad's IoU is no cost): their
 * optimisations never count.
 */
#ifndef ASSAY_GENERATE_OPTIMIZE_H
#define ASSAY_GENERATE_OPTIMIZE_H

#include <jansson.h>

#include "base/err.h"
#include "store/store.h"

#define OPT_MIN_GAIN_DEFAULT	1.10	/* before / after, at least */

struct opt_measure {
	const char	*env;		/* the env whose runs hold it */
	const char	*keys[3];	/* metric keys, the first present */
	const char	*what;		/* what is measured, for the record */
	const char	*goal;		/* the prompt's "a faster version" */
	const char	*ask;		/* the prompt's words for the measure */
	const char	*also;		/* a second metric recorded beside it
					 * (x86: the timed ns a call), or
					 * NULL; it decides nothing */
};

/* The measure of env (a name or a pipeline); prefix (64 bytes, may be
 * NULL) gets "" or "MEMBER." for a pipeline's member.  Static, or NULL
 * when env measures no cost. */
const struct opt_measure *opt_measure_of(const char *env, char *prefix);

/*
 * The gain of the optimization candidate cand_id over its parent, as a
 * new JSON object (*out): "measured" (words), "goal" ("faster",
 * "smaller", "leaner": the word the SFT export asks with), "metric",
 * "before" and
 * "after" (the parent's and the candidate's value), "ratio" (before /
 * after: 1.3 is 30 % less), "also" (the second metric's before and
 * after, where the env has one and both runs hold it), "threshold" and
 * "threshold_from"
 * ("env_params.min_gain" of the task, else from, the caller's source of
 * min_gain: "--min-gain", "config", "default"), "counts" (passes, the
 * parent passes, both runs of one toolchain, and ratio >= threshold),
 * "why" when it does not count, "run" and "parent_run" (ids), and
 * "toolchain".  0, or -1 with err (the store; not an optimization
 * candidate with a parent).
 */
int	opt_gain(struct store *st, const char *cand_id, double min_gain,
	    const char *from, json_t **out, struct err *err);

/*
 * opt_gain(), stored as the candidate's extra.optimization and journalled
 * as "gain" by who (store_candidate_extra_set()).  *out (may be NULL)
 * gets the record (new reference).  0 or -1 with err.
 */
int	opt_record(struct store *st, const char *cand_id, double min_gain,
	    const char *from, const char *who, json_t **out,
	    struct err *err);

#endif
