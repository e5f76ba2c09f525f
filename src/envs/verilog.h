/*
 * verilog.h - the Verilog harness shared by the Verilog envs (iverilog.c,
 * verilator.c, yosys.c): the per-run nonce, our tagged copy of a
 * testbench, the judge of the verdict contract (docs/envs.md), the static
 * checks on a candidate, and the modules a task expects.
 *
 * The testbench judges the design and prints its verdict; a candidate
 * that prints a verdict line itself, or ends the simulation before the
 * testbench does, must not pass.  So every line our copy of the
 * testbench prints starts with a per-run secret (the nonce), its $finish
 * prints "NONCE !finish" first and its $error/$fatal carry "NONCE !error"
 * or "!fatal"; the judge believes only those lines.  The simulation
 * cannot read the secret (no /proc, the image under a random name: ADR
 * 0005), and verify.c removes it from the stored log and the live output
 * (env.h).
 *
 * Nothing here runs a tool; the envs call these from prepare() and judge().
 */
#ifndef ASSAY_VERILOG_H
#define ASSAY_VERILOG_H

#include <stddef.h>

#include "envs/env.h"
#include "base/err.h"
#include "model/sample.h"

/* The prefix of the testbench's result line: "Mismatches: N in M samples". */
#define VERILOG_RESULT_TAG "Mismatches: "

/*
 * Our copy of a testbench's len bytes at src (docs/adr/0005): every line
 * an output task ($display, $write, $strobe, $monitor and their b/h/o
 * forms) begins gets "NONCE " (in its format string after leading "\n"s
 * and after each inner "\n", or as a first argument "NONCE " when the
 * first is not a string literal); every "$finish...;" and "$stop...;"
 * becomes "begin $display("NONCE !finish"); $finish...; end"; $error and
 * $fatal get a first format argument "NONCE !error " / "NONCE !fatal "
 * (after $fatal's finish number); every "$dump...(...);" becomes
 * "if (0) $dump...(...);": the waveform is the harness's own
 * (verilog_wave.h).  Calls are found on the text with
 * comments and strings blanked.  Adds the number of tagged output calls
 * to *tagged and of $finish, $stop and $fatal calls to *finishes.
 * Returns a new buffer of *outlen bytes (NUL-terminated); caller frees
 * with free().  Never fails.
 */
char	*verilog_tag_testbench(const char *src, size_t len, const char *nonce,
	    int *tagged, int *finishes, size_t *outlen);

/*
 * Write f, a task file of role "testbench", into workdir as our tagged
 * copy (verilog_tag_testbench() with plan->nonce), but record the hash of
 * the task's own file in plan->inputs, not of our copy.  Sets
 * plan->finish_tagged when a $finish was tagged; *tagged receives the
 * number of tagged result lines (0: the testbench prints none).
 * 0, or -1 with err when the file cannot be written.
 */
int	verilog_write_testbench(struct env_plan *plan, const char *workdir,
	    const struct task_file *f, int *tagged, struct err *err);

/*
 * Is this task file data the simulation reads at run time rather than a
 * Verilog source: role "data", or a name that does not end in .v, .sv,
 * .vh, .svh or .vlib (RTLLM's tdata.txt, reference.dat)?  1 or 0.  Data
 * files are never compiled; verilog_write_data() puts them where the
 * simulation runs.
 */
int	verilog_is_data(const struct task_file *f);

/*
 * Write t's data files (verilog_is_data()) for the last stage planned,
 * the simulation, into its directory, read-only (env_plan_data()), so
 * that $readmemh("tdata.txt", ...) and $fopen("reference.dat", "r")
 * find them by their bare names.  reserved (may be NULL) is a name the
 * env writes there itself (the image's directory): a data file of that
 * name is an error.  0, or -1 with err.
 */
int	verilog_write_data(struct env_plan *plan, const char *workdir,
	    const struct task *t, const char *reserved, struct err *err);

/*
 * Append the files to compile to argv, which holds n arguments: cand (the
 * candidate's file name), then the task's files of role testbench,
 * reference or source that are not data (verilog_is_data()) in task
 * order, or those files then cand when last
 * (env_params.candidate_last: v1 / RTLFixer harnesses compile test +
 * completion); then NULL.  Task files that do not fit in ENV_MAX_ARGS
 * (with the candidate and NULL) are left out.  The strings are borrowed
 * from t.
 */
void	verilog_add_sources(const char **argv, size_t n, const struct task *t,
	    const char *cand, int last);

/*
 * Judge the simulate stage s (its log still holding the nonce) into r
 * under the verdict contract of task t (docs/envs.md, "Verdict
 * contract").  Only lines our copy of the testbench printed (they start
 * with plan->nonce) count.  env_params.pass_pattern and fail_pattern
 * (POSIX EREs, per line) replace the default conventions: VerilogEval's
 * "Mismatches: N in M samples", RealBench's "Hint: Total mismatched
 * samples is N out of M samples", RTLLM's "Your Design Passed", "Test
 * completed with N failures" and its failure lines, ArchXBench's
 * "Passed: N, Failed: M" and JSON line, and the testbench's own $error or
 * $fatal.  A pass needs a pass line, no fail line, exit status
 * env_params.expect_exit (default 0), a single result line, and the
 * testbench's own $finish when it has one; without any verdict line the
 * run fails with subcategory no-verdict.  Metrics: mismatches and total,
 * failures, passed, and warnings when warnings >= 0.  first_error
 * (borrowed, may be NULL) is the evidence of a runtime error.  A pattern
 * that does not compile makes the run task-defect/bad-contract.  Fields
 * of r it sets are replaced (env_set()); never fails.
 */
void	verilog_judge_sim(const struct task *t, const struct env_plan *plan,
	    const struct env_stage_result *s, int warnings,
	    const char *first_error, struct run *r);

/*
 * Static checks of a candidate's code (len bytes) before anything of it
 * runs, for both Verilog envs (docs/security.md, "Forged verdicts").
 * Comments and strings are skipped, every blank is a space, and the
 * candidate's own macros are expanded first (object-like and with
 * arguments), so the checks see what the tools see.  Finds the first of:
 * `include, `systemc_*, `verilog, `verilator_config or `pragma
 * directives; `undef, a macro defined twice, `ifdef/`ifndef/`elsif of a
 * macro the candidate does not define (the tool's: YOSYS, SYNTHESIS);
 * a $c (any digits after it), $cpure or $system call, a DPI
 * import/export or a Verilator metacomment other than lint, coverage
 * and tracing switches (code outside the design); force, release,
 * defparam, bind; a declaration at compilation-unit scope other than a
 * type, parameter or import; $root, $unit; and a hierarchical reference
 * (NAME.member, NAME[i].member) in any container (module, interface,
 * program, package, class ...) whose root NAME that container's module
 * neither instantiates nor declares (nor is its own name): a reference
 * into the testbench however the candidate's other modules are named.
 * Modules and instances come from the Verilog grammar
 * (syntax_verilog_scan()).  Also a call of a system task or function a
 * design may not make (forbidden-call; docs/security.md, "Files of the
 * harness"): anything but output, simulation end, time, conversions,
 * queries, mathematics, bit vectors, severity, sampled values, random
 * numbers and string formatting, so no $fopen, $fgets, $fseek,
 * $readmem*, $writemem*, $dump*, $fwrite ..., $assertoff or
 * $value$plusargs, spelt plainly, as an escaped identifier ("\$fopen ")
 * or made by a macro; and a macro use glued to the system name or macro
 * use before it ("$`F"), or whose arguments' ")" the next name follows
 * at once ("`D(x)fopen"), which the tools read as one name
 * (forbidden-construct).  Also a driver of an input port (drives-input;
 * ADR 0058): a bidirectional switch or alias anywhere, an assignment to
 * a name declared input, a gate's, UDP's or instance's output on one,
 * deassign; and the shared random state ($random or $dist_* without a
 * seed variable, $urandom, $urandom_range: forbidden-call).  Returns
 * NULL, or a new string "LINE\tSUBCATEGORY\tMESSAGE" (subcategory
 * forbidden-construct, forbidden-call, drives-input or
 * out-of-module-reference) for plan->precheck; caller frees.
 */
char	*verilog_check_candidate(const char *code, size_t len);

/*
 * The data files of task t its design may read (env_params.design_reads:
 * a name or an array of names of t's data files, verilog_is_data()), as
 * a new space-separated string into *reads (caller frees; NULL when the
 * task names none).  Only $readmemh/$readmemb with one of them as a
 * string literal may read a file; every other file of the run is the
 * harness's.  0, or -1 with err when a name is not a data file of t or
 * the value is not a string or an array of strings.
 */
int	verilog_design_reads(const struct task *t, char **reads,
	    struct err *err);

/*
 * For yosys, which synthesises the candidate alone: only the system
 * calls of verilog_check_candidate() (the files env_params.design_reads
 * names allowed to $readmemh/$readmemb), `include, macros glued to
 * names, the drivers of inputs and the shared random state, with the
 * candidate's macros expanded (inout refused unless t has one).  yosys
 * reads $readmemh files while it elaborates.  NULL or a new finding as
 * verilog_check_candidate() returns; caller frees.
 */
char	*verilog_check_calls(const struct task *t, const char *code,
	    size_t len);

/*
 * A module (interface, package, program ...) of the candidate's whose
 * name a compiled file of task t also defines (RefModule, tb, the
 * testbench's helpers): the tools keep one of the two (Verilator's
 * MODDUP keeps the first), so the candidate could replace the harness's
 * own.  NULL, or a new "LINE\tforbidden-construct\tMESSAGE" as
 * verilog_check_candidate() returns; caller frees.
 */
char	*verilog_check_moddup(const struct task *t, const char *code,
	    size_t len);

/*
 * verilog_check_candidate() for task t, then verilog_check_moddup(): a
 * reference may start at a name the candidate's module declares (a
 * struct, a generate block) only when no compiled file of t uses that
 * name, since a name declared in a narrower scope (a function's argument
 * "testbench") leaves the reference to resolve upwards, into the
 * testbench.  $readmemh/$readmemb may read the files of
 * env_params.design_reads (verilog_design_reads(); a bad value allows
 * none); inout only when a compiled file of t or its interface declares
 * one.  NULL or a new finding as verilog_check_candidate() returns;
 * caller frees.
 */
char	*verilog_check_task(const struct task *t, const char *code,
	    size_t len);

/*
 * The verdict of a candidate with a finding of verilog_check_candidate()
 * in plan->precheck: fail, category functional, its subcategory, evidence
 * "CAND_FILE:LINE: MESSAGE" on that line.  Leaves r alone when there is
 * none.  Never fails.
 */
void	verilog_judge_precheck(const struct env_plan *plan, struct run *r);

/* Does plan->precheck hold a finding of verilog_check_candidate() (its
 * first line; hints such as "?undeclared" follow it)?  1 or 0. */
int	verilog_has_finding(const struct env_plan *plan);

/*
 * The first name a module of code uses (as the root of a value or of an
 * assignment's target) that neither that module nor the compilation
 * unit declares, and that names no module: "LINE\tNAME", new, or NULL
 * when there is none or the grammar could not read all of code (then it
 * cannot tell).  For a compile that stopped at a toolchain limitation
 * before elaboration (Icarus Verilog 11's "sorry: break statements not
 * supported" is reported while parsing): the candidate's own errors are
 * then not in the log (docs/adr/0004-sorry-is-env-error.md).
 */
char	*verilog_undeclared(const char *code, size_t len);

/*
 * The modules a candidate of t must define (env_ops.tops), space-
 * separated: those the task's testbench files instantiate and no task
 * file defines (the Verilog grammar; RTLLM's "adder_8bit uut(...)" and
 * "alu uut(a, b, ...)", ports by position, VerilogEval's TopModule),
 * else those the task's interface declares.
 * New string, or NULL when neither names one (triage then reads the
 * modules the compile log could not find).
 */
char	*verilog_expected_tops(const struct task *t);

/*
 * The failure count a testbench's output reports, read with the default
 * conventions of verilog_judge_sim() on every line (a recorded log has no
 * secret): the last "Mismatches: N", else RealBench's total, else RTLLM's
 * or ArchXBench's failures.  -1 when it reports none.  For stats
 * --recorded, which compares it with a run's metric.
 */
long	verilog_failure_count(const char *log, size_t len);

/*
 * code with every whole word from (a name, not part of a longer
 * identifier) replaced by to: a module renamed where it is declared and
 * used (RTLLM's verified_adder_8bit -> adder_8bit).  Lexical: a word in a
 * comment or a string is replaced too.  New string.
 */
char	*verilog_rename_word(const char *code, const char *from,
	    const char *to);

/*
 * code (len bytes) with comments and string contents blanked (quotes and
 * newlines kept), so that a lexical scan sees only tokens at their
 * offsets and lines.  New, NUL-terminated; caller frees.
 */
char	*verilog_mask(const char *code, size_t len);

/* Is ch part of a Verilog simple identifier ([A-Za-z0-9_$])? */
int	verilog_is_ident(int ch);
/*
 * The next module that code declares ("module NAME", a whole word, not
 * in a // or block comment) from *p on: the start of NAME in code, its
 * length in *len, and *p moved past it; NULL when there is none.  A
 * lexical scan for naming a top, not a parse: "module" in a string
 * counts.  *p starts at code.
 */
const char *verilog_next_module(const char *code, size_t codelen,
	    const char **p, size_t *len);

/*
 * The candidate's top module for a task that expects the modules in
 * tops (space-separated, verilog_expected_tops(); NULL: VerilogEval's
 * TopModule or top_module): the first module code declares whose name
 * is in tops (comments skipped), else the first name of tops, or
 * "TopModule", so that the tool says the task's top is missing rather
 * than judging some other module.  New string; caller frees.
 */
char	*verilog_pick_top(const char *code, size_t len, const char *tops);

#endif
