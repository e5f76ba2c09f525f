/*
 * x86prog.h - the x86-asm env's program mode (env_params "mode":
 * "program", docs/envs/x86-asm.md): a whole assembly program, linked with
 * gcc and run on each test case's input, its stdout compared with the
 * case's expected output by the judge (SuperCoder's convention).  Called
 * by x86asm.c only.
 */
#ifndef ASSAY_X86PROG_H
#define ASSAY_X86PROG_H

#include "envs/env.h"

/* Does task t ask for program mode?  1 or 0. */
int	x86prog_mode(const struct task *t);
/*
 * Plan a program-mode run of c: cand.s, the cases' inputs (task files
 * caseN.in; the caseN.out files are inputs of the run but never written
 * where the candidate runs), a build stage and a run stage.  0, or -1
 * with err.
 */
int	x86prog_prepare(const struct task *t, const struct candidate *c,
	    const char *workdir, struct env_plan *plan, struct err *err);
/* Judge a program-mode run into r (the env's judge, struct env_ops). */
void	x86prog_judge(const struct task *t, const struct env_plan *plan,
	    const struct env_stage_result *res, size_t nres,
	    enum env_stop stop, struct run *r);

#endif
