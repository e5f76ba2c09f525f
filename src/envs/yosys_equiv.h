/*
 * yosys_equiv.h - formal equivalence of a yosys candidate with its task's
 * reference (docs/envs.md, "yosys", equivalence; ADR 0037).
 *
 * A task asks for it with env_params.equiv.  Two stages follow the
 * synthesis: "miter" reads the reference and the candidate, each into a
 * design of its own, flattens both, and builds a miter of the two
 * (miter -equiv -ignore_gold_x) with the clocks made explicit
 * (clk2fflogic), written as miter.il; "equiv" reads that netlist alone,
 * in a work area of its own, and runs a temporal induction proof with
 * sat, whose log the judge reads with yosys_equiv_scan().  Nothing here
 * runs a tool.
 */
#ifndef ASSAY_YOSYS_EQUIV_H
#define ASSAY_YOSYS_EQUIV_H

#include <stddef.h>

#include <jansson.h>

#include "base/err.h"
#include "model/sample.h"

#define YOSYS_EQUIV_MITER "miter.il"
/* The candidate's modules marked a box ((* blackbox *), (* whitebox *)):
 * their outputs would be the solver's to choose, or no cell it reads
 * ("select -assert-none" of it refuses them). */
#define BOX_SELECTION "=A:blackbox =A:whitebox"
#define YOSYS_EQUIV_DEPTH 20		/* default bound, in solver steps */
#define YOSYS_EQUIV_MAX_DEPTH 1000

/*
 * Is s a name that can go into a yosys script as it is: letters, digits,
 * '_', '$', '.' and '-', not empty?  A ';' or a blank would split the
 * script.  1 or 0.
 */
int	yosys_script_safe(const char *s);

/* What a task asks for (env_params equiv, equiv_top, equiv_depth). */
struct yosys_equiv {
	char	*ref_file;	/* the reference's task file name (owned) */
	char	*ref_top;	/* its module (owned) */
	int	 depth;		/* steps of the bounded proof, >= 1 */
};

/*
 * Read t's equivalence parameters for a candidate whose module is
 * cand_top: env_params.equiv true (the task file of role "reference") or
 * a task file name; equiv_top, the reference's module (default: the one
 * named cand_top, else RefModule, else the file's only module);
 * equiv_depth, in steps (default YOSYS_EQUIV_DEPTH, at most
 * YOSYS_EQUIV_MAX_DEPTH).  Returns 0 when the task asks for none (eq
 * zeroed), 1 with eq filled (release with yosys_equiv_release()), or -1
 * with err when a value is wrong: no such file, a name that is not a
 * plain identifier, no module to choose, a depth out of range.
 */
int	yosys_equiv_params(const struct task *t, const char *cand_top,
	    struct yosys_equiv *eq, struct err *err);
void	yosys_equiv_release(struct yosys_equiv *eq);

/*
 * The yosys scripts of the two stages (new strings): the miter stage's,
 * which reads eq's reference and cand_file (module cand_top) and writes
 * YOSYS_EQUIV_MITER; and the equiv stage's, which reads that file and
 * proves it with a SAT instance limit of sat_timeout_s seconds.
 */
char	*yosys_equiv_miter_script(const struct yosys_equiv *eq,
	    const char *cand_file, const char *cand_top);
char	*yosys_equiv_sat_script(const struct yosys_equiv *eq,
	    int sat_timeout_s);

/* What the proof found. */
enum yosys_equiv_result {
	YOSYS_EQUIV_NONE,	/* no result line: the log is not a proof's */
	YOSYS_EQUIV_PROVEN,	/* the induction closed */
	YOSYS_EQUIV_BOUNDED,	/* the base case held to the bound */
	YOSYS_EQUIV_DIFFERENT,	/* a counterexample from the initial state */
	YOSYS_EQUIV_UNFINISHED	/* a SAT instance ran out of time */
};

/* One signal of one step of a counterexample. */
struct yosys_equiv_value {
	int	 step;		/* 1-based */
	char	 side;		/* 'i' input, 'r' reference's output,
				   'c' candidate's output */
	char	*name;		/* the port's name, without "in_" etc. */
	char	*bits;		/* the value, MSB first: 0, 1, x (owned) */
	char	*hex;		/* the solver's hex, "--" when undefined */
};

struct yosys_equiv_scan {
	enum yosys_equiv_result result;
	long	 state;		/* flip-flops of the miter; 0: combinational */
	int	 induction;	/* length of the induction that closed */
	int	 base;		/* longest base case proven */
	int	 fail_step;	/* first step whose outputs differ; 0: none */
	int	 steps;		/* steps of the counterexample */
	struct yosys_equiv_value *v;	/* the counterexample (owned) */
	size_t	 nv;
};

/*
 * Read the equiv stage's log (len bytes): the state count from stat, the
 * outcome from sat's whole lines, and after a failed base case the
 * counterexample's table (rows "STEP NAME DEC HEX BIN"; the initial
 * state's rows are left out).  Only ports of the miter are kept: in_X,
 * gold_X, gate_X, and trigger, which sets fail_step.  Numbers are held at
 * INT_MAX.  Never fails; release with yosys_equiv_scan_release().
 */
void	yosys_equiv_scan(const char *log, size_t len,
	    struct yosys_equiv_scan *s);
void	yosys_equiv_scan_release(struct yosys_equiv_scan *s);

/*
 * One step of s's counterexample in words (new string):
 * "step 2: inputs clk=1'b0 d=8'h00 reset=1'b0; q: reference 8'h00,
 * candidate 8'h01".  With only_diff, only the outputs whose defined
 * reference bits the candidate does not match.  Reads the first run of
 * rows of that step (the table keeps a step's rows together).
 */
char	*yosys_equiv_step_text(const struct yosys_equiv_scan *s, int step,
	    int only_diff);

/*
 * The counterexample of s as the run's feedback member (docs/envs.md,
 * "Equivalence"; docs/formats.md "Feedback"): a new JSON object
 * {"fail_step": N, "steps": [{"step": 1, "inputs": {"clk": "1'b0", ...},
 * "outputs": {"q": {"reference": "8'b...", "candidate": "8'b...",
 * "differs": true}}}, ...]}, and in *text (new string) its words: a line
 * per step's inputs and one per output, the failing step always among
 * them (earlier steps are left out, first, when the text would pass
 * FEEDBACK_TEXT_MAX).  NULL, *text NULL, when s holds no counterexample.
 */
json_t	*yosys_equiv_counterexample(const struct yosys_equiv_scan *s,
	    char **text);

#endif
