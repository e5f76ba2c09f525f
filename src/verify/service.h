/*
 * service.h - the verify service: a batch of candidates verified through
 * verify jobs (verify.h), the one orchestration behind `assay verify
 * --jobs N` and the workbench's `v` (ADR 0023).
 *
 * What it does, in order, for the ids it is given:
 *   - reference first: each task's reference goes to the front (added
 *     when not selected) and runs to the end before any other candidate
 *     of the batch starts, so that a candidate is judged in its light
 *     (verify_judge_reference());
 *   - claims: with opts.claim, each candidate is claimed in the store
 *     before it starts (store_claim()), so that two verifies on one
 *     database never run the same one; claims are renewed while jobs run
 *     and released when each ends;
 *   - the input-key skip: a candidate whose latest run has the input key
 *     it would have now is not run again (with opts.force: unless that
 *     run was stored by another verify since this batch began); a
 *     latest run that is env-error of the machine's state
 *     (toolchain-broken, toolchain-error, sandbox-failure) runs again;
 *   - a broken toolchain: an env whose smoke test fails (smoke.h) is
 *     told once, as a VSVC_NOTE, before its first candidate starts;
 *     its runs are env-error/toolchain-broken (verify_job_start());
 *   - start, step: at most opts.jobs jobs at once, advanced without ever
 *     blocking: the caller polls the fds of vsvc_pollfds() and calls
 *     vsvc_step();
 *   - store: each finished run is stored (store_run_add()); a busy
 *     database is waited for as long as the store's lock timeout says
 *     (store_lock_timeout(), `--lock-timeout`); a run that still cannot
 *     be stored is handed to the caller with stored 0 (the CLI keeps it
 *     in a results file) and counted in not_stored, never in done, so
 *     the summary says what the database holds (issue 13); with
 *     opts.lock_wait_ms the service waits for the lock itself, trying
 *     again at later steps, so that a caller's screen never stops;
 *   - summary: counts by verdict, runs stored, unchanged, not stored.
 *
 * The service never prints: the caller hears through hooks (struct
 * vsvc_hooks) and shows what it likes, a line on stderr or bytes in a
 * terminal pane.  It owns its jobs; the store is borrowed.
 */
#ifndef ASSAY_VERIFY_SERVICE_H
#define ASSAY_VERIFY_SERVICE_H

#include <poll.h>
#include <stddef.h>

#include "base/err.h"
#include "model/sample.h"
#include "verify/verify.h"

struct store;
struct vsvc;

/* Runs by verdict. */
struct vsvc_tally {
	size_t	 pass, fail, timeout, skipped, env_error, task_defect, other;
};

/* Count one run of verdict ("pass", "fail" ...) into t. */
void	vsvc_tally_add(struct vsvc_tally *t, const char *verdict);

/* Which references go first. */
enum vsvc_refs {
	/* Every task's reference, run or not; with the input-key skip an
	 * unchanged one costs a lookup (the verify command). */
	VSVC_REFS_ALL,
	/* Only a reference that has never run (the workbench's `v`, which
	 * forces the candidate but not its reference). */
	VSVC_REFS_UNRUN
};

struct vsvc_opts {
	struct verify_opts vo;	/* sandbox and limits of each job */
	int	 jobs;		/* jobs at once, >= 1 (0: 1) */
	int	 force;		/* run even when the input key is unchanged */
	int	 claim;		/* claim each candidate in the store */
	enum vsvc_refs refs;
	int	 use_pty;	/* jobs on a pty (the pane) or a pipe */
	int	 rows, cols;	/* the pty's size; hooks.starting may change */
	/*
	 * 0: a busy store is waited for inside store_run_add(), as long as
	 * its lock timeout says (the verify command).  > 0: the caller must
	 * never wait (the workbench sets a short lock timeout): a run the
	 * store refuses because another connection holds the write lock
	 * (store_locked_out()) is kept and tried again at each step, every
	 * 200 ms at most, for up to this many ms after it finished; then
	 * it is not stored.  A reference waiting so still holds back the
	 * candidates after it.
	 */
	int	 lock_wait_ms;
};

/* What vsvc_hooks.problem reports. */
enum vsvc_problem {
	VSVC_LOAD,	/* the candidate or its task cannot be read */
	VSVC_START,	/* verify_job_start() failed: no run made */
	VSVC_NOTE	/* about the batch (claims unavailable); id NULL */
};

/* A finished job, as vsvc_hooks.finished sees it. */
struct vsvc_result {
	struct run	*run;		/* judged, stored or not; borrowed */
	struct verify_job *job;		/* the finished job; borrowed */
	int		 stored;	/* 1: in the store (run->id set) */
	int		 cancelled;	/* vsvc_cancel(): not stored */
	const char	*error;		/* why not stored, or NULL */
	size_t		 k, n;		/* k-th of n candidates handled */
};

/* "[k/N] ID VERDICT[ STAGE][ SUBCATEGORY][ (not stored)]", the line the
 * commands print for a finished run, into buf (n bytes); returns buf. */
const char *vsvc_result_line(const struct vsvc_result *res, char *buf,
	    size_t n);

/*
 * What the caller hears, each optional (NULL).  Called from inside
 * vsvc_start() and vsvc_step(); a hook must not free the service.
 */
struct vsvc_hooks {
	/* Before the job of c starts: may set the pty's *rows, *cols. */
	void	(*starting)(void *arg, const struct candidate *c,
		    const struct task *t, int *rows, int *cols);
	/* The job of c started. */
	void	(*started)(void *arg, struct verify_job *j,
		    const struct candidate *c, const struct task *t);
	/* Bytes of a job's output as they come (verify_output_fn). */
	verify_output_fn output;
	/* A job finished and its run was stored, or not. */
	void	(*finished)(void *arg, const struct vsvc_result *res);
	/* Candidate r->cand_id of task task_id was skipped: its latest
	 * run r (borrowed) is current (unchanged inputs, or newer than the
	 * batch with force).  A results file takes it, so that a verify
	 * run again after an interruption writes every run of its
	 * selection, not only those it made. */
	void	(*current)(void *arg, const struct run *r,
		    const char *task_id);
	/* A candidate that could not be loaded or started, or a note. */
	void	(*problem)(void *arg, enum vsvc_problem what, const char *id,
		    const char *msg);
	void	*arg;
};

struct vsvc_summary {
	size_t	 total;		/* candidates in the batch, references included */
	size_t	 refs;		/* of which references, at the front */
	size_t	 finished;	/* jobs finished, stored or not */
	size_t	 done;		/* runs stored */
	size_t	 unchanged;	/* skipped: input key unchanged (or newer run) */
	size_t	 not_stored;	/* finished runs the store refused */
	size_t	 cancelled;	/* finished cancelled, not stored */
	size_t	 busy;		/* claimed by another verify, left to it */
	size_t	 busy_added;	/* of which references the batch added
				 * (not among the ids it was given) */
	size_t	 unclaimed;	/* run without a claim: the store was busy */
	size_t	 load_errors;	/* could not be read (VSVC_LOAD) */
	size_t	 start_errors;	/* could not start (VSVC_START) */
	size_t	 not_pass;	/* runs (unchanged included) not "pass" */
	size_t	 waiting;	/* finished runs kept for another
				 * connection's write lock (lock_wait_ms),
				 * not stored yet: vsvc_free() drops them */
	struct vsvc_tally tally;	/* stored and unchanged runs */
};

/*
 * A batch over ids[0..n) (copied; no duplicates expected) in st
 * (borrowed, must outlive the service).  Reorders them reference first:
 * a batch of up to 1024 here, a larger one a few milliseconds of
 * looking at each vsvc_start() and vsvc_step() before any job starts,
 * so that a caller's loop never waits for a million lookups (its
 * vsvc_count() grows by the references when they are all found; a store
 * error then ends the batch with a VSVC_NOTE).  Nothing starts yet.
 * *out is new; free with vsvc_free().  0 or -1 with err (a store error
 * while looking up references).
 */
int	vsvc_new(struct vsvc **out, struct store *st, const struct vsvc_opts *o,
	    const struct vsvc_hooks *h, char *const *ids, size_t n,
	    struct err *err);

/* The batch in the order it runs: n ids, references first.  Borrowed. */
size_t	vsvc_count(const struct vsvc *s);
const char *vsvc_id(const struct vsvc *s, size_t i);

/*
 * Start the first jobs.  Returns 1 when the batch is already over
 * (everything skipped or failed to start), 0 while jobs run.
 */
int	vsvc_start(struct vsvc *s);

/*
 * The fds to poll for input, one per running job (-1 for a job between
 * stages, which poll() ignores), POLLIN requested: *fds points into the
 * service, valid until the next call into it.  Returns how many.
 */
size_t	vsvc_pollfds(struct vsvc *s, struct pollfd **fds);

/* Milliseconds the caller may wait in poll() at most (0 .. 1000). */
int	vsvc_timeout_ms(const struct vsvc *s);

/*
 * Advance every running job without blocking (after poll() returned or
 * timed out): read output, enforce limits, store each finished run and
 * tell hooks.finished, renew claims when due, start the next jobs.
 * Returns 1 when the batch is over, 0 while it runs.
 */
int	vsvc_step(struct vsvc *s);

/*
 * Cancel the batch (the user pressed x): running jobs are cancelled and
 * finish with subcategory "cancelled", which is not stored; nothing new
 * starts.  Step on until vsvc_step() returns 1.
 */
void	vsvc_cancel(struct vsvc *s);

/* Running jobs, and the i-th of them (borrowed; for pty size, stage). */
size_t	vsvc_running(const struct vsvc *s);
struct verify_job *vsvc_job(struct vsvc *s, size_t i);

/* Tell every pty job a new size. */
void	vsvc_resize(struct vsvc *s, int rows, int cols);

/* The counts so far.  Borrowed. */
const struct vsvc_summary *vsvc_summary(const struct vsvc *s);

/*
 * Whether the verify that holds a claim (holder as the service writes
 * it: "host:pid:start:random", start the process's start time in clock
 * ticks from /proc/PID/stat) is known to be gone: 1 when it ran on this
 * host and no process has its pid now, or the process with its pid
 * started at another time (the pid was used again); 0 otherwise: alive,
 * another host's (whose claims only lapse), or a holder it cannot read.
 * Assumes one pid namespace per host name (two containers with one host
 * name and one database must not share it).  For store_claim().
 */
int	vsvc_holder_gone(const char *holder);

/*
 * Kill any job still running (its run is not stored), release the
 * batch's claims and free s, then wait until the work directories of
 * its jobs are removed (verify_job_wait()).  NULL is fine.
 */
void	vsvc_free(struct vsvc *s);

#endif
