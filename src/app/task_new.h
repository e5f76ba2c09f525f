/*
 * task_new.h - the reference of a task made from real code
 * (exchange/task_new.h) verified through its env in the sandbox, and the
 * task stored only when it passes: what `assay task new` and the
 * workbench's `:task new` share (docs/adr/0044-task-from-real-code.md).
 */
#ifndef ASSAY_APP_TASK_NEW_H
#define ASSAY_APP_TASK_NEW_H

#include <stdio.h>

#include "base/err.h"
#include "exchange/task_new.h"
#include "model/sample.h"
#include "verify/verify.h"

struct store;

/*
 * Run tn's reference through its task's env, on the path every
 * candidate takes (the env's smoke test, then a verify job in the
 * sandbox with vo's limits), into *r (the caller releases it), as the
 * env judged it; a line to progress (NULL: none) when each stage starts
 * ("  yosys:equiv (at 3 s)").  0, or -1 with err when the job could not start (no such
 * env, a toolchain missing, a work directory).
 */
int	task_new_verify(const struct task_new *tn,
	    const struct verify_opts *vo, FILE *progress, struct run *r,
	    struct err *err);

/*
 * Whether tn's verification is vacuous: runs the task's trivial stubs
 * (task_new_stub(): outputs all 0, then all 1s) through its env as
 * task_new_verify() runs the reference.  1 with *why (new: "the
 * verification accepts a design whose outputs are constant 0: ...")
 * when a stub passes, 0 when each fails or the task has no stub, -1
 * with err when a job could not start.
 */
int	task_new_vacuous(const struct task_new *tn,
	    const struct verify_opts *vo, char **why, struct err *err);

/*
 * Why r, the reference's run, is no pass, in one line: "the reference
 * does not pass its own verification: VERDICT at STAGE (CATEGORY/SUB):
 * EVIDENCE", the evidence's candidate line as FILE:LINE of the
 * reference's source (the env's own "candidate.sv:LINE: " dropped from
 * the evidence); a timeout says so, with the limit and what to do
 * (--testbench, a larger --timeout).  New string.
 */
char	*task_new_why(const struct task_new *tn, const struct run *r);

/*
 * When r, the reference's run, proved equivalence only to a bound
 * (metrics "equiv": "bounded"), the warning to give: "... proven for N
 * steps only: a mutant that differs later passes; raise --equiv-depth",
 * a new string; else NULL.
 */
char	*task_new_bound_warning(const struct run *r);

/*
 * Store tn's task, its reference (tn->ref.id set) and r, the reference's
 * run, in one transaction.  -1 with err, and nothing stored, when a task
 * of that id exists already or the store refuses.
 */
int	task_new_store(struct store *st, struct task_new *tn, struct run *r,
	    struct err *err);

/*
 * Open tn as its JSONL line in editor (NULL: $EDITOR, else vi) on this
 * terminal and wait; read the saved text back (task_new_read_back()).
 * 0, 1 when the file was left as it was, or -1 with err (the editor
 * failed, the text does not read: its line and column).
 */
int	task_new_edit(struct task_new *tn, const char *editor,
	    struct err *err);

#endif
