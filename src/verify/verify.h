/*
 * verify.h - run a candidate through its env: a fresh work directory
 * (exec/workdir.h), the sandbox and its resource limits
 * (exec/sandbox.h), a wall-clock timeout over the whole process group, a
 * cap on captured output, then the env's verdict.  design.md section 7.
 * A batch of candidates goes through the verify service (service.h).
 *
 * A run is a job that advances without blocking: the caller polls
 * verify_job_fd() and calls verify_job_step(), so the headless verify
 * command runs N jobs in one poll loop and the workbench runs one in its
 * frame loop.  Headless jobs read a pipe; pane jobs read a pty (pty.h) so
 * that the toolchain sees a terminal.  Both keep the same merged log.
 *
 * The exact command of each stage (limits, sandbox and tool) is recorded
 * in the run, so `show` can print what reproduces it.
 *
 * A task may name several envs, "iverilog+yosys" (pipeline.h): each runs
 * in turn in a subdirectory of the work directory named after it, a
 * failing one does not stop the next, and their verdicts combine into
 * the one run.  Stages that compile without running candidate code
 * (env_stage.cache) share a lasting compiler cache, bound for them only.
 */
#ifndef ASSAY_VERIFY_H
#define ASSAY_VERIFY_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "model/sample.h"

#define VERIFY_OUTPUT_CAP (16u << 20)	/* bytes of captured output */

struct verify_opts {
	int	 no_sandbox;	/* 1: run without bubblewrap (loudly) */
	int	 keep_workdir;	/* 1: keep failed runs' work directories, 2: all */
	const char *workroot;	/* parent of work dirs; NULL: $TMPDIR or /tmp */
	size_t	 output_cap;	/* 0: VERIFY_OUTPUT_CAP */
	int	 timeout_s;	/* 0: the task's timeout_s, else 30 */
	long	 cpu_s;		/* RLIMIT_CPU; 0: timeout + 5 */
	long	 mem_mb;	/* RLIMIT_AS in MiB; 0: 4096 */
	long	 fsize_mb;	/* RLIMIT_FSIZE in MiB; 0: 64 */
	long	 nproc;		/* RLIMIT_NPROC; 0: 256 */
	long	 disk_mb;	/* cap on the work directory's size; 0: 256 */
	/*
	 * The proof of an env's toolchain, asked of each env of a job
	 * before it runs (verify_smoke() of smoke.h, which the verify
	 * service sets): one that says SMOKE_BROKEN makes the run
	 * env-error/toolchain-broken without running anything.  NULL: not
	 * asked (the smoke test's own jobs, unit tests of one env).  The
	 * result is borrowed and must outlive the job.
	 */
	const struct smoke_result *(*smoke)(const char *env,
	    const struct verify_opts *o);
};

/* An env's smoke test's outcome (smoke.h). */
enum smoke_state {
	/* the env has no smoke test, or its good sample met a sandbox
	 * failure (env-error/sandbox-failure: the machine's namespaces,
	 * not the toolchain): nothing proven, the candidates run and say
	 * so themselves */
	SMOKE_NONE,
	SMOKE_OK,	/* proven here */
	SMOKE_BROKEN	/* the toolchain is here but does not work */
};

struct smoke_result {
	enum smoke_state state;
	int	 cached;	/* 1: from the disk cache, nothing ran now */
	/* SMOKE_BROKEN: what failed, "the known-good sample: env-error at
	 * compile: ERROR: No supported gcc/g++ host compiler found ..." */
	char	*detail;
	char	*hint;		/* SMOKE_BROKEN: what to do */
	char	*stage;		/* SMOKE_BROKEN: the stage that failed, or NULL */
	char	*log;		/* SMOKE_BROKEN: that sample's log, or NULL */
};

/*
 * What verify stores for a candidate of an env whose smoke test failed:
 * the evidence line ("the toolchain is broken: its smoke test ...; what
 * to do").  New string.
 */
char	*verify_smoke_evidence(const char *env, const struct smoke_result *s);



/*
 * The toolchain identity of env (cached per process) into buf.  0, or -1
 * with err when the toolchain is missing, or ENV_TOOL_BROKEN (envs/env.h)
 * with err when it is installed but does not run.
 */
int	verify_toolchain(const char *env, char *buf, size_t n, struct err *err);

/*
 * The key that decides whether a candidate must run again: sha256 of the
 * env, its toolchain identity, every input (candidate code, task files,
 * env_params) and a timeout that overrides the task's (timeout_s > 0).
 * hex has 65 bytes.  0 or -1 with err.
 */
int	verify_input_key(const struct task *t, const struct candidate *c,
	    int timeout_s, char *hex, struct err *err);

/*
 * verify_input_key() with the toolchain identity given (tool, as a run
 * records it in run.toolchain) instead of asked of the toolchain here:
 * `assay merge` checks a run made on another machine against the
 * candidate and task of this database, where the toolchain may be
 * missing.  hex has 65 bytes.
 */
void	verify_input_key_tool(const struct task *t, const struct candidate *c,
	    int timeout_s, const char *tool, char *hex);

struct verify_job;

/* Output callback: bytes of the run as they come, stage headers included. */
typedef void (*verify_output_fn)(const char *bytes, size_t len, void *arg);

/*
 * Start verifying c (a candidate of task t).  use_pty != 0 runs the stages
 * on a pty of rows x cols.  t and c are copied.  *out is new; free with
 * verify_job_free().  Returns 0, or -1 with err (no env, toolchain
 * missing, work directory not writable).
 */
int	verify_job_start(struct verify_job **out, const struct verify_opts *o,
	    const struct task *t, const struct candidate *c, int use_pty,
	    int rows, int cols, struct err *err);

/* The fd to poll for input, -1 between stages. */
int	verify_job_fd(const struct verify_job *j);

/* Milliseconds until the job's deadline (>= 0), for poll timeouts. */
int	verify_job_timeout_ms(const struct verify_job *j);

/*
 * Read what is ready, enforce the deadline and the output cap, start the
 * next stage when one ends.  out (may be NULL) receives the output.
 * Returns 1 when the job has finished, 0 while it runs.
 */
int	verify_job_step(struct verify_job *j, verify_output_fn out, void *arg);

/* Stop the job (the user pressed x): its verdict will say so. */
void	verify_job_cancel(struct verify_job *j);

/* Tell a pty job the pane's new size. */
void	verify_job_resize(struct verify_job *j, int rows, int cols);

/*
 * The stage running now, or the last one that ran: "build", or in a
 * pipeline "ENV:STAGE" ("yosys:synth").  Borrowed from j, for progress
 * in the workbench ("build 12 s").
 */
const char *verify_job_stage(const struct verify_job *j);

/* The candidate id and the task id of the job.  Borrowed. */
const char *verify_job_cand(const struct verify_job *j);
const char *verify_job_task(const struct verify_job *j);

/*
 * After verify_job_step() returned 1: the run (verdict, log, diagnostics,
 * metrics, command, toolchain, inputs), new in *out; caller releases.
 * A cancelled job gives verdict "skipped", subcategory "cancelled".
 */
void	verify_job_result(struct verify_job *j, struct run *out);

/*
 * Reference first (issue 3): judge a finished run in the light of its
 * task's reference solution, whose latest verdict is ref_verdict (NULL
 * when the task has none or it never ran).  is_reference says r is the
 * reference's own run.  When the reference fails its own testbench
 * (fail or timeout), the task is defective: the reference's run and
 * every candidate's failure become "task-defect" (unjudged, no
 * category: not the model's fault), with the original verdict kept in
 * the subcategory ("reference-fails", "unjudged-fail"; "no-verdict" for a
 * reference whose testbench printed no verdict line, so that a task
 * without a verdict contract shows in stats).  A candidate that passes
 * keeps its pass.
 */
void	verify_apply_reference(struct run *r, const char *ref_verdict,
	    int is_reference);

struct store;

/*
 * verify_apply_reference() with the reference and its latest verdict
 * looked up in st for the task of job j: what the workbench and the
 * verify command do with each finished run before storing it.
 */
void	verify_judge_reference(struct store *st, const struct verify_job *j,
	    struct run *r);

/* Path of the kept work directory or NULL.  Borrowed. */
const char *verify_job_workdir(const struct verify_job *j);

/*
 * Run c (a candidate of task t) through a headless verify job to its end,
 * waiting for it: verify_job_start(), verify_job_step() in a poll loop,
 * verify_job_result() into *r (zeroed first; the caller releases it).
 * For one run that nothing else waits on (an env's smoke test, the
 * reference of `assay task new`).  0, or -1 with err when the job could
 * not start.
 */
int	verify_run(const struct verify_opts *o, const struct task *t,
	    const struct candidate *c, struct run *r, struct err *err);

/*
 * Kill anything still running, free j, and remove the work directory
 * unless kept: on a thread of exec/workdir.c, so that a caller stepping
 * jobs from its frame loop does not wait for the disk; verify_job_wait()
 * waits until every directory handed over so is gone.
 */
void	verify_job_free(struct verify_job *j);
void	verify_job_wait(void);

#endif
