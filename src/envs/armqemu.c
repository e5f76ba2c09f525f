/*
 * armqemu.c - the arm-qemu env (design.md section 7).  Not yet written: every
 * run is env-error until it is.
 */
#include "env.h"

static int
armqemu_toolchain(char *buf, size_t n, struct err *err)
{
	(void)buf;
	(void)n;
	return err_set(err, "the arm-qemu env is not built yet");
}

static int
armqemu_prepare(const struct task *t, const struct candidate *c,
    const char *workdir, struct env_plan *plan, struct err *err)
{
	(void)t;
	(void)c;
	(void)workdir;
	(void)plan;
	return err_set(err, "the arm-qemu env is not built yet");
}

static void
armqemu_judge(const struct task *t, const struct env_plan *plan,
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

const struct env_ops env_armqemu = {
	.name = "arm-qemu",
	.domain = "embedded",
	.lang = "c",
	.packages = "gcc-arm-none-eabi libnewlib-arm-none-eabi qemu-system-arm",
	.toolchain = armqemu_toolchain,
	.prepare = armqemu_prepare,
	.judge = armqemu_judge,
};
