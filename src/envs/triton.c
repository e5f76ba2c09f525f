/*
 * triton.c - the triton env (design.md section 7).  Not yet written: every
 * run is env-error until it is.
 */
#include "env.h"

static int
triton_toolchain(char *buf, size_t n, struct err *err)
{
	(void)buf;
	(void)n;
	return err_set(err, "the triton env is not built yet");
}

static int
triton_prepare(const struct task *t, const struct candidate *c,
    const char *workdir, struct env_plan *plan, struct err *err)
{
	(void)t;
	(void)c;
	(void)workdir;
	(void)plan;
	return err_set(err, "the triton env is not built yet");
}

static void
triton_judge(const struct task *t, const struct env_plan *plan,
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

const struct env_ops env_triton = {
	.name = "triton",
	.domain = "gpu",
	.lang = "python",
	.packages = "python3, torch, triton (not in Debian)",
	.toolchain = triton_toolchain,
	.prepare = triton_prepare,
	.judge = triton_judge,
};
