/*
 * cad.c - the cad env (design.md section 7).  Not yet written: every
 * run is env-error until it is.
 */
#include "env.h"

static int
cad_toolchain(char *buf, size_t n, struct err *err)
{
	(void)buf;
	(void)n;
	return err_set(err, "the cad env is not built yet");
}

static int
cad_prepare(const struct task *t, const struct candidate *c,
    const char *workdir, struct env_plan *plan, struct err *err)
{
	(void)t;
	(void)c;
	(void)workdir;
	(void)plan;
	return err_set(err, "the cad env is not built yet");
}

static void
cad_judge(const struct task *t, const struct env_plan *plan,
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

const struct env_ops env_cad = {
	.name = "cad",
	.domain = "3d",
	.lang = "step",
	.packages = "libocct-data-exchange-dev",
	.toolchain = cad_toolchain,
	.prepare = cad_prepare,
	.judge = cad_judge,
};
