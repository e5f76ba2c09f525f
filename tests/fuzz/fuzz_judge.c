/*
 * fuzz_judge.c - libFuzzer target for an env's log parsers (issue 10):
 * the input becomes the stage logs and exit codes judge() reads, for the
 * env FUZZ_ENV (env_iverilog, env_verilator, env_yosys, env_x86asm,
 * env_armqemu; set by the Makefile).  Toolchain output is partly the
 * candidate's (what a simulation or a firmware prints), so a parser must
 * survive anything: crashes, leaks and undefined behaviour (a signed
 * overflow on a long digit run) are the findings.
 *
 * Input layout: byte 0 the number of stages that ran (1 + b % 4), byte 1
 * why the run stopped (b % 5, enum env_stop), bytes 2-5 each stage's exit
 * status (0, 1, 2, 127, 134, 137, 152 or 153 by b % 8), then the logs,
 * separated by the byte 0x01.  The plan has the env's stage names and
 * the nonce FUZZ_NONCE, which the seeds use.  For yosys, byte 0's top
 * bit asks for the equivalence's stages (synth, stat, miter, equiv) and
 * a task with env_params.equiv.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "envs/env.h"
#include "model/sample.h"

#ifndef FUZZ_ENV
#define FUZZ_ENV env_iverilog
#endif
extern const struct env_ops FUZZ_ENV;

#define FUZZ_NONCE "f00dfeedf00dfeedf00dfeedf00dfeed"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The env's stage names, in the order its prepare() plans them. */
static const char *const *
stage_names(const char *env, int equiv)
{
	static const char *const iv[] = { "compile", "isolate", "simulate",
		"simulate" };
	static const char *const vl[] = { "lint", "build", "simulate",
		"simulate" };
	static const char *const ys[] = { "synth", "stat", "area",
		"area-stat" };
	static const char *const eq[] = { "synth", "stat", "miter",
		"equiv" };
	static const char *const x86[] = { "assemble", "build", "run",
		"count" };
	static const char *const arm[] = { "build", "run", "uart",
		"regtrace" };

	if (strcmp(env, "iverilog") == 0)
		return iv;
	if (strcmp(env, "verilator") == 0)
		return vl;
	if (strcmp(env, "yosys") == 0)
		return equiv ? eq : ys;
	if (strcmp(env, "x86-asm") == 0)
		return x86;
	return arm;
}

/* A task such as the env's importers make, with the params its judge
 * reads. */
static void
make_task(struct task *t, const char *env, int equiv)
{
	memset(t, 0, sizeof *t);
	t->id = strdup("fuzz/t");
	t->benchmark = strdup("fuzz");
	t->domain = strdup("chip");
	t->env = strdup(env);
	if (strcmp(env, "arm-qemu") == 0)
		t->env_params = strdup("{\"expect_exit\": 0, \"expect_uart\":"
		    " \"hello\\n\", \"expect_writes\": [{\"periph\": \"GPIOA\","
		    " \"offset\": 20, \"value\": 165}], \"timeout_s\": 5}");
	else if (strcmp(env, "x86-asm") == 0)
		t->env_params = strdup("{\"symbol\": \"sum_i32\", \"signature\":"
		    " \"int32_t sum_i32(const int32_t *a, size_t n)\","
		    " \"syntax\": \"att\"}");
	else if (equiv)
		t->env_params = strdup("{\"equiv\": true, \"equiv_depth\": 20}");
	else
		t->env_params = strdup("{\"top\": \"tb\", \"timeout_s\": 30}");
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const int codes[] = { 0, 1, 2, 127, 134, 137, 152, 153 };
	int equiv = size > 0 && (data[0] & 0x80) != 0;
	const char *const *names = stage_names(FUZZ_ENV.name, equiv);
	struct env_stage_result res[4];
	struct env_plan plan;
	struct task t;
	struct run r;
	size_t nres, off, i;
	enum env_stop stop;

	if (size < 6)
		return 0;
	nres = 1 + data[0] % 4;
	stop = (enum env_stop)(data[1] % 5);
	env_plan_init(&plan);
	memcpy(plan.nonce, FUZZ_NONCE, sizeof FUZZ_NONCE);
	plan.finish_tagged = 1;
	plan.cand_file = strdup(strcmp(FUZZ_ENV.name, "arm-qemu") == 0 ?
	    "main.c" : strcmp(FUZZ_ENV.name, "x86-asm") == 0 ?
	    "candidate.s" : "candidate.sv");
	for (i = 0; i < nres; i++) {
		const char *const argv[] = { "true", NULL };

		env_plan_stage(&plan, names[i], argv);
	}
	/* The logs, each a copy so that ASan sees reads past its end. */
	off = 6;
	for (i = 0; i < nres; i++) {
		const uint8_t *sep = off < size ? memchr(data + off, 1,
		    size - off) : NULL;
		size_t len = sep != NULL ? (size_t)(sep - (data + off)) :
		    (off < size ? size - off : 0);
		char *log = malloc(len + 1);

		if (len > 0)
			memcpy(log, data + off, len);
		log[len] = '\0';
		res[i].ran = 1;
		res[i].exit_code = codes[data[2 + i] % 8];
		res[i].log = log;
		res[i].log_len = len;
		off += len + (sep != NULL);
	}
	make_task(&t, FUZZ_ENV.name, equiv);
	memset(&r, 0, sizeof r);
	/* verify.c hands the judge the whole merged log in r too. */
	r.log_len = size - 6;
	r.log = malloc(r.log_len + 1);
	memcpy(r.log, data + 6, r.log_len);
	r.log[r.log_len] = '\0';
	FUZZ_ENV.judge(&t, &plan, res, nres, stop, &r);
	run_release(&r);
	task_release(&t);
	for (i = 0; i < nres; i++)
		free((char *)res[i].log);
	env_plan_release(&plan);
	return 0;
}
