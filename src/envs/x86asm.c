/*
 * x86asm.c - the x86-asm env (design.md section 7).  Not yet written: every
 * run is env-error until it is.
 */
#include "env.h"

static int
x86asm_toolchain(char *buf, size_t n, struct err *err)
{
	(void)buf;
	(void)n;
	return err_set(err, "the x86-asm env is not built yet");
}

static int
x86asm_prepare(const struct task *t, const struct candidate *c,
    const char *workdir, struct env_plan *plan, struct err *err)
{
	(void)t;
	(void)c;
	(void)workdir;
	(void)plan;
	return err_set(err, "the x86-asm env is not built yet");
}

static void
x86asm_judge(const struct task *t, const struct env_plan *plan,
    const struct env_stage_result *res, size_t nres, enum env_stop stop,
    struct run *r)
{
	(void)t;
	(void)plan;
	(void)res;
	(void)nres;
	(void)stop;
	env_set(&r->verdict, "env-error");
}

const struct env_ops env_x86asm = {
	.name = "x86-asm",
	.domain = "compiler",
	.lang = "asm",
	.packages = "gcc binutils valgrind",
	.toolchain = x86asm_toolchain,
	.prepare = x86asm_prepare,
	.judge = x86asm_judge,
};
