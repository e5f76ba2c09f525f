/*
 * test_armqemu.c - unit tests for the arm-qemu env (cmocka, issue 4):
 * what prepare() writes and plans, which env_params it refuses, and what
 * judge() makes of real runs of arm-none-eabi-gcc 12 and QEMU 7.2.
 *
 * Real runs go through verify (verify_job_start() ... verify_job_result()):
 * the sandbox when bubblewrap can start here, else --no-sandbox, with the
 * work directories under the fixture's.  Each firmware is a few lines of
 * C against assay's own stm32f4xx.h.  Skipped, with the reason, when the
 * toolchain is not installed.
 */
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "base/buf.h"
#include "envs/env.h"
#include "base/err.h"
#include "base/hash.h"
#include "model/sample.h"
#include "testlib.h"
#include "envtest.h"
#include "exec/sandbox.h"
#include "verify/verify.h"

extern const struct env_ops env_armqemu;

static int
fx_setup(void **state)
{
	struct fx *f;

	if (fx_init(state, "arm") < 0)
		return -1;
	f = *state;
	/* As root the sandbox's uid must reach the work directories. */
	return chmod(f->dir, 0755);
}

/* A UART helper most firmwares below use: USART1 clocked, 115200 baud
 * at 16 MHz, enabled with its transmitter (the judge's model of the
 * silicon counts no byte otherwise, ADR 0060). */
#define UART_PUTS \
	"#include \"stm32f4xx.h\"\n" \
	"static void uart_puts(const char *s)\n" \
	"{\n" \
	"\tRCC->APB2ENR |= RCC_APB2ENR_USART1EN;\n" \
	"\tUSART1->BRR = 0x8B;\n" \
	"\tUSART1->CR1 = USART_CR1_UE | USART_CR1_TE;\n" \
	"\twhile (*s) {\n" \
	"\t\twhile (!(USART1->SR & USART_SR_TXE))\n" \
	"\t\t\t;\n" \
	"\t\tUSART1->DR = (uint8_t)*s++;\n" \
	"\t}\n" \
	"}\n"

static void
arm_task(struct task *t, const char *params)
{
	make_task(t, "local/arm", "arm-qemu", params);
	t->domain = xstrdup("embedded");
	t->benchmark = xstrdup("local");
}

/*
 * A task of params and a plan whose secret is "Aabc", for the judge fed
 * stage logs by hand; res (4 results) zeroed.  Release both.
 */
static void
judge_fixture(struct task *t, const char *params, struct env_plan *plan,
    struct env_stage_result *res)
{
	arm_task(t, params);
	env_plan_init(plan);
	plan->cand_file = xstrdup("main.c");
	snprintf(plan->nonce, sizeof plan->nonce, "Aabc");
	memset(res, 0, 4 * sizeof *res);
}

/* 1: the next runs go through a pty, as the workbench's do. */
static int use_pty;

/*
 * Verify code as a candidate of a task with params through verify, with
 * the task's timeout or timeout_s > 0, into r (release it).
 */
static void
verify_arm(struct fx *f, const char *params, const char *code,
    int timeout_s, struct run *r)
{
	struct verify_opts o;
	struct verify_job *j;
	struct task t;
	struct candidate c;
	struct err err;

	need_tool(&env_armqemu);
	memset(&o, 0, sizeof o);
	o.workroot = f->dir;
	o.timeout_s = timeout_s;
	if (sandbox_check(&err) < 0) {
		print_message("%s: running unsandboxed\n", err.msg);
		o.no_sandbox = 1;
	}
	arm_task(&t, params);
	make_cand(&c, t.id, code);
	if (verify_job_start(&j, &o, &t, &c, use_pty, 24, 80, &err) < 0)
		fail_msg("verify_job_start: %s", err.msg);
	while (!verify_job_step(j, NULL, NULL)) {
		struct pollfd pfd = { .fd = verify_job_fd(j),
		    .events = POLLIN };

		poll(&pfd, 1, verify_job_timeout_ms(j));
	}
	verify_job_result(j, r);
	verify_job_free(j);
	task_release(&t);
	candidate_release(&c);
}

/* Fail with the log when got is not want. */
static void
expect(const struct run *r, const char *verdict, const char *category,
    const char *sub)
{
	if ((verdict == NULL) != (r->verdict == NULL) ||
	    (verdict != NULL && strcmp(verdict, r->verdict) != 0) ||
	    (category == NULL) != (r->category == NULL) ||
	    (category != NULL && strcmp(category, r->category) != 0) ||
	    (sub == NULL) != (r->subcategory == NULL) ||
	    (sub != NULL && strcmp(sub, r->subcategory) != 0))
		print_message("--- log\n%s\n--- evidence %s\n", r->log,
		    r->evidence != NULL ? r->evidence : "(none)");
	assert_str(r->verdict, verdict);
	assert_str(r->category, category);
	assert_str(r->subcategory, sub);
}

/* --- prepare ---------------------------------------------------------- */

static void
test_armqemu_prepare_plans_four_stages(void **state)
{
	struct fx *f = *state;
	struct env_plan plan;
	struct task t;
	struct candidate c;
	struct err err;
	char *path, *hdr;
	struct stat sb;

	arm_task(&t, "{\"timeout_s\":4,\"uart\":\"USART2\"}");
	task_add_file(&t, "util.c", "source", "int two(void){return 2;}\n",
	    25);
	task_add_file(&t, "startup.c", "source", "/* the task's own */\n",
	    21);
	make_cand(&c, t.id, "int main(void) { return 0; }\n");
	env_plan_init(&plan);
	assert_int_equal(env_armqemu.prepare(&t, &c, f->dir, &plan, &err), 0);
	assert_int_equal(plan.nstages, 4);
	assert_string_equal(plan.stages[0].name, "build");
	assert_string_equal(plan.stages[1].name, "run");
	assert_string_equal(plan.stages[2].name, "uart");
	assert_string_equal(plan.stages[3].name, "regtrace");
	/* The build's images are sealed; the run stage gets them read-only
	 * in an area of its own, and its evidence is sealed for the uart
	 * and regtrace stages, each in an area with its file alone. */
	assert_string_equal(plan.stages[0].seal[0], "run/fw.elf");
	assert_string_equal(plan.stages[0].seal[1], "run/image.elf");
	assert_null(plan.stages[0].seal[2]);
	assert_null(plan.stages[0].use[0]);
	assert_string_equal(plan.stages[1].use[0], "fw.elf");
	assert_string_equal(plan.stages[1].use[1], "image.elf");
	assert_true(plan.stages[1].candidate);
	assert_string_equal(plan.stages[1].seal[0], "ev/uart.txt");
	assert_string_equal(plan.stages[1].seal[1], "ev/regtrace.log");
	assert_string_equal(plan.stages[2].use[0], "uart.txt");
	assert_null(plan.stages[2].use[1]);
	assert_string_equal(plan.stages[3].use[0], "regtrace.log");
	assert_false(plan.stages[2].candidate || plan.stages[3].candidate);
	assert_string_equal(plan.cand_file, "main.c");
	/* The firmware's 4 s, and room for the build. */
	assert_int_equal(plan.timeout_s, 4 + 30);
	assert_int_equal(strlen(plan.nonce), 16);
	/* The build: the verified flags, startup first, the task's source;
	 * the task's startup.c replaces assay's and is built once. */
	{
		char *const *a = plan.stages[0].argv;
		int startups = 0, util = 0, hard = 0;

		assert_string_equal(a[0], "sh");
		assert_string_equal(a[3], "arm-none-eabi-gcc");
		for (size_t i = 0; a[i] != NULL; i++) {
			startups += strcmp(a[i], "startup.c") == 0;
			util += strcmp(a[i], "util.c") == 0;
			hard += strcmp(a[i], "-mfloat-abi=hard") == 0;
		}
		assert_int_equal(startups, 1);
		assert_int_equal(util, 1);
		assert_int_equal(hard, 1);
	}
	/* USART2 is QEMU's second serial port. */
	{
		char *const *a = plan.stages[1].argv;
		size_t i;

		for (i = 0; a[i] != NULL && strcmp(a[i], "-serial") != 0; i++)
			;
		assert_non_null(a[i]);
		assert_string_equal(a[i + 1], "null");
		assert_string_equal(a[i + 2], "-serial");
		assert_string_equal(a[i + 3], "chardev:uart");
		/* QEMU runs the image without symbols (in_asm names none). */
		for (i = 0; a[i + 1] != NULL && strcmp(a[i], "-kernel") != 0;
		    i++)
			;
		assert_string_equal(a[i + 1], "image.elf");
	}
	/* assay's header and linker script are there, the task's startup
	 * is the task's, and run/ exists for the image. */
	path = xasprintf("%s/stm32f4xx.h", f->dir);
	hdr = read_text(path);
	assert_non_null(strstr(hdr, "#define RCC_AHB1ENR_GPIOAEN"));
	free(hdr);
	free(path);
	path = xasprintf("%s/startup.c", f->dir);
	hdr = read_text(path);
	assert_string_equal(hdr, "/* the task's own */\n");
	free(hdr);
	free(path);
	path = xasprintf("%s/stm32f405.ld", f->dir);
	assert_int_equal(stat(path, &sb), 0);
	free(path);
	path = xasprintf("%s/run", f->dir);
	assert_int_equal(stat(path, &sb), 0);
	assert_true(S_ISDIR(sb.st_mode));
	free(path);
	assert_non_null(strstr(buf_str(&plan.inputs), "\"main.c\""));
	assert_non_null(strstr(buf_str(&plan.inputs), "\"env_params\""));
	env_plan_release(&plan);
	task_release(&t);
	candidate_release(&c);
}

static void
test_armqemu_prepare_refuses_bad_params(void **state)
{
	static const struct {
		const char *params, *msg;
	} bad[] = {
		{ "{\"expect_exit\":300}", "env_params.expect_exit must be an"
		  " exit status, 0..255" },
		{ "{\"expect_exit\":1.5}", "env_params.expect_exit must be" },
		{ "{\"expect_uart\":5}", "expect_uart" },
		{ "{\"expect_writes\":{}}", "expect_writes" },
		{ "{\"expect_writes\":[{\"offset\":0,\"value\":1}]}",
		  "expect_writes[0]: \"periph\"" },
		{ "{\"expect_writes\":[{\"periph\":\"GPIOA\",\"offset\":\"x\","
		  "\"value\":1}]}", "\"offset\"" },
		{ "{\"expect_writes\":[{\"periph\":\"GPIOA\",\"offset\":0,"
		  "\"value\":1,\"size\":3}]}", "\"size\"" },
		{ "{\"uart\":\"USART9\"}", "env_params.uart" },
		{ "{\"simulator\":\"gem5\"}", "simulator" },
		{ "{\"timeout_s\":0}", "env_params.timeout_s must be 1..3600"
		  " seconds" },
		{ "{\"timeout_s\":\"3\"}", "env_params.timeout_s must be" },
		{ "[1]", "not a JSON object" },
		/* A misspelt key would check nothing: named, with the known
		 * ones. */
		{ "{\"expect_exitt\":0}", "unknown key \"expect_exitt\" for"
		  " arm-qemu (known: expect_exit, expect_uart, expect_writes,"
		  " uart, timeout_s, simulator)" },
		{ "{\"expect_writes\":[{\"periph\":\"GPIOA\",\"offset\":0,"
		  "\"value\":1,\"maks\":1}]}", "expect_writes[0]: unknown key"
		  " \"maks\" (known: periph, offset, value, mask, size)" },
		/* No such peripheral, and one whose writes QEMU models and so
		 * never traces. */
		{ "{\"expect_writes\":[{\"periph\":\"GPIOZ\",\"offset\":0,"
		  "\"value\":1}]}", "expect_writes[0]: \"periph\" GPIOZ is no"
		  " peripheral QEMU's netduinoplus2 traces; known: RCC," },
		{ "{\"expect_writes\":[{\"periph\":\"RCC\",\"offset\":48,"
		  "\"value\":1},{\"periph\":\"USART1\",\"offset\":8,"
		  "\"value\":139}]}", "expect_writes[1]: \"periph\" USART1 is"
		  " modelled by QEMU, so its writes never appear in the -d unimp"
		  " trace" },
	};
	struct fx *f = *state;

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct env_plan plan;
		struct task t;
		struct candidate c;
		struct err err;
		char *dir = xasprintf("%s/%zu", f->dir, i);

		assert_int_equal(mkdir(dir, 0755), 0);
		arm_task(&t, bad[i].params);
		make_cand(&c, t.id, "int main(void) { return 0; }\n");
		env_plan_init(&plan);
		assert_int_equal(env_armqemu.prepare(&t, &c, dir, &plan, &err),
		    -1);
		if (strstr(err.msg, bad[i].msg) == NULL)
			fail_msg("%s: got \"%s\"", bad[i].params, err.msg);
		/* The task's fault: its id comes first. */
		assert_non_null(strstr(err.msg, "task local/arm: env_params"));
		env_plan_release(&plan);
		task_release(&t);
		candidate_release(&c);
		free(dir);
	}
	/* QEMU's names and the CMSIS ones, in any case. */
	{
		struct env_plan plan;
		struct task t;
		struct candidate c;
		struct err err;
		char *dir = xasprintf("%s/names", f->dir);

		assert_int_equal(mkdir(dir, 0755), 0);
		arm_task(&t, "{\"expect_writes\":[{\"periph\":\"rcc\","
		    "\"offset\":0,\"value\":1},{\"periph\":\"FLASH\","
		    "\"offset\":0,\"value\":1},{\"periph\":\"TIM1\","
		    "\"offset\":0,\"value\":1},{\"periph\":\"timer[8]\","
		    "\"offset\":0,\"value\":1},{\"periph\":\"IWDG\","
		    "\"offset\":0,\"value\":1}]}");
		make_cand(&c, t.id, "int main(void) { return 0; }\n");
		env_plan_init(&plan);
		if (env_armqemu.prepare(&t, &c, dir, &plan, &err) < 0)
			fail_msg("%s", err.msg);
		env_plan_release(&plan);
		task_release(&t);
		candidate_release(&c);
		free(dir);
	}
	/* The candidate is main.c: a task file cannot take the name. */
	{
		struct env_plan plan;
		struct task t;
		struct candidate c;
		struct err err;

		arm_task(&t, NULL);
		task_add_file(&t, "main.c", "source", "x", 1);
		make_cand(&c, t.id, "int main(void) { return 0; }\n");
		env_plan_init(&plan);
		assert_int_equal(env_armqemu.prepare(&t, &c, f->dir, &plan,
		    &err), -1);
		assert_non_null(strstr(err.msg, "main.c is reserved"));
		env_plan_release(&plan);
		task_release(&t);
		candidate_release(&c);
	}
}

/* --- real runs -------------------------------------------------------- */

static void
test_armqemu_uart_and_writes_pass(void **state)
{
	struct fx *f = *state;
	struct run r;

	verify_arm(f, "{\"expect_uart\":\"hello\\r\\n\","
	    "\"expect_writes\":[{\"periph\":\"GPIOA\",\"offset\":20,"
	    "\"value\":165},{\"periph\":\"RCC\",\"offset\":\"0x30\","
	    "\"value\":1,\"mask\":1}]}",
	    UART_PUTS
	    "int main(void)\n"
	    "{\n"
	    "\tRCC->AHB1ENR |= RCC_AHB1ENR_GPIOAEN;\n"
	    "\tGPIOA->MODER = 0x4411;\n"	/* PA0, 2, 5, 7 outputs */
	    "\tGPIOA->ODR = 0xa5;\n"
	    "\tuart_puts(\"hello\\r\\n\");\n"
	    "\tvolatile float x = 1.5f;\n"	/* the FPU is on */
	    "\treturn (int)(x * 2.0f) - 3;\n"
	    "}\n", 0, &r);
	expect(&r, "pass", NULL, NULL);
	assert_str(r.stage, "run");
	assert_non_null(strstr(r.metrics, "\"exit\":0"));
	assert_non_null(strstr(r.metrics, "\"uart_bytes\":7"));
	assert_non_null(strstr(r.metrics, "\"reg_writes\":4"));
	assert_non_null(strstr(r.metrics, "\"flash\":"));
	/* The judge's secret is gone from the stored log. */
	assert_non_null(strstr(r.log, "\nqemu-exit 0\n"));
	assert_non_null(strstr(r.log, "GPIOA: unimplemented device write"
	    " (size 4, offset 0x014, value 0x000000a5)"));
	run_release(&r);
}

/* The workbench's runs (a pty) are judged as the headless ones. */
static void
test_armqemu_pty_run(void **state)
{
	struct fx *f = *state;
	struct run r;

	use_pty = 1;
	verify_arm(f, "{\"expect_uart\":\"hi\\r\\n\",\"expect_exit\":4}",
	    UART_PUTS
	    "#include <stdio.h>\n"
	    "int main(void)\n"
	    "{\n"
	    "\tprintf(\"to the log\\n\");\n"
	    "\tuart_puts(\"hi\\r\\n\");\n"
	    "\treturn 4;\n"
	    "}\n", 0, &r);
	use_pty = 0;
	expect(&r, "pass", NULL, NULL);
	assert_non_null(strstr(r.log, "to the log\n"));
	run_release(&r);
}

static void
test_armqemu_uart_mismatch(void **state)
{
	struct fx *f = *state;
	struct run r;

	verify_arm(f, "{\"expect_uart\":\"hello\\r\\n\"}",
	    UART_PUTS
	    "int main(void) { uart_puts(\"helo\\n\"); return 0; }\n", 0, &r);
	expect(&r, "fail", "functional", "uart-mismatch");
	assert_non_null(strstr(r.evidence, "UART printed 5 bytes, expected 7;"
	    " first difference at byte 3: got \"helo\\n\", expected"
	    " \"hello\\r\\n\""));
	run_release(&r);
}

/*
 * Semihosting writes the UART's file under every name it could have
 * (its old name, its new one, QEMU's fd set, /proc/self/fd, /dev/stdout),
 * and a register trace line; the USART is never touched.  None of it
 * reaches the evidence: a UART pass needs the data register.
 */
#define SEMIHOST_WRITE \
	"#include \"stm32f4xx.h\"\n" \
	"#include \"assay.h\"\n" \
	"#include <string.h>\n" \
	"static void wr(const char *p, const char *s) {\n" \
	"\tuint32_t o[3] = { (uint32_t)p, 8, strlen(p) };\n" \
	"\tint fd = assay_semihost(1, o);\n" \
	"\tif (fd < 0) return;\n" \
	"\tuint32_t w[3] = { (uint32_t)fd, (uint32_t)s, strlen(s) };\n" \
	"\tassay_semihost(5, w);\n" \
	"\tuint32_t c[1] = { (uint32_t)fd };\n" \
	"\tassay_semihost(2, c);\n" \
	"}\n"

static void
test_armqemu_semihosting_cannot_forge_evidence(void **state)
{
	static const char *const names[] = { "uart.txt", "ev/uart.txt",
	    "/dev/fdset/1", "/proc/self/fd/3", "/dev/stdout",
	    "regtrace.log", "ev/regtrace.log", "/proc/self/fd/2" };
	struct fx *f = *state;
	struct run r;
	struct buf code = BUF_INIT;

	buf_adds(&code, SEMIHOST_WRITE "int main(void) {\n");
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		buf_printf(&code, "\twr(\"%s\", %s);\n", names[i],
		    strstr(names[i], "regtrace") != NULL ||
		    strstr(names[i], "fd/2") != NULL ? "\"GPIOA: unimplemented"
		    " device write (size 4, offset 0x014, value 0x000000a5)\\n\"" :
		    "\"hello\\r\\n\"");
	buf_adds(&code, "\treturn 0;\n}\n");
	verify_arm(f, "{\"expect_uart\":\"hello\\r\\n\",\"expect_writes\":["
	    "{\"periph\":\"GPIOA\",\"offset\":20,\"value\":165}]}",
	    buf_str(&code), 0, &r);
	expect(&r, "fail", "functional", "uart-mismatch");
	assert_non_null(strstr(r.evidence, "UART printed 0 bytes"));
	assert_non_null(strstr(r.metrics, "\"reg_writes\":0"));
	run_release(&r);
	buf_release(&code);
}

/*
 * newlib's stderr is semihosting's ":tt" opened for append, which QEMU
 * 7.2 maps to its own stderr: when that was the trace, firmware that
 * touched no register passed expect_writes by printing the lines QEMU
 * would have (red-team finding).  The trace is QEMU's -D log now.
 */
static void
test_armqemu_semihosting_stderr_is_not_the_trace(void **state)
{
	struct fx *f = *state;
	struct run r;

	verify_arm(f, "{\"expect_writes\":[{\"periph\":\"GPIOA\","
	    "\"offset\":24,\"value\":32}]}",
	    "#include <stdio.h>\n"
	    "#include \"stm32f4xx.h\"\n"
	    "int main(void) {\n"
	    "\tfprintf(stderr, \"\\nGPIOA: unimplemented device write"
	    " (size 4, offset 0x018, value 0x00000020)\\n\");\n"
	    "\tfputs(\"GPIOA: unimplemented device write (size 4, offset"
	    " 0x018, value 0x00000020)\\n\", stdout);\n"
	    "\treturn 0;\n"
	    "}\n", 0, &r);
	expect(&r, "fail", "functional", "register-write");
	assert_non_null(strstr(r.metrics, "\"reg_writes\":0"));
	run_release(&r);
}

/* SYS_SYSTEM would be a shell in the sandbox: QEMU's sandbox kills it. */
static void
test_armqemu_semihosting_system_is_refused(void **state)
{
	struct fx *f = *state;
	struct run r;

	verify_arm(f, "{\"expect_uart\":\"hello\\r\\n\"}",
	    "#include \"stm32f4xx.h\"\n"
	    "#include \"assay.h\"\n"
	    "#include <string.h>\n"
	    "int main(void) {\n"
	    "\tconst char *cmd = \"printf 'hello\\\\r\\\\n' > ev/uart.txt\";\n"
	    "\tuint32_t a[2] = { (uint32_t)cmd, strlen(cmd) };\n"
	    "\tassay_semihost(0x12, a);\n"
	    "\treturn 0;\n"
	    "}\n", 0, &r);
	expect(&r, "fail", "functional", "forbidden-call");
	assert_non_null(strstr(r.evidence, "SYS_SYSTEM"));
	run_release(&r);
}

static void
test_armqemu_register_write_mismatch(void **state)
{
	struct fx *f = *state;
	struct run r;

	/* PA6 instead of PA5, and a halfword write through BSRRL. */
	verify_arm(f, "{\"expect_writes\":[{\"periph\":\"GPIOA\","
	    "\"offset\":24,\"value\":32},{\"periph\":\"GPIOA\",\"offset\":24,"
	    "\"value\":64,\"size\":2}]}",
	    "#include \"stm32f4xx.h\"\n"
	    "int main(void)\n"
	    "{\n"
	    "\tRCC->AHB1ENR |= RCC_AHB1ENR_GPIOAEN;\n"
	    "\tGPIOA->MODER = 1u << 12;\n"	/* PA6 an output */
	    "\tGPIOA->BSRR = GPIO_BSRR_BS6;\n"
	    "\tGPIOA->BSRRL = 1u << 6;\n"
	    "\treturn 0;\n"
	    "}\n", 0, &r);
	expect(&r, "fail", "functional", "register-write");
	assert_string_equal(r.evidence, "no write of 0x00000020 to GPIOA"
	    " offset 0x018 (BSRR); 2 writes there, the last 0x00000040");
	/* The halfword write matched; only the first check failed. */
	assert_int_equal(r.ndiags, 1);
	run_release(&r);
}

/*
 * Our header's BSRRL and BSRRH are the halves of BSRR: QEMU logs a
 * 2-byte write at 0x018 or 0x01a, which counts as a write of BSRR with
 * the half at its byte lane.  TIM1 is QEMU's "timer[1]".
 */
static void
test_armqemu_bsrr_halves(void **state)
{
	struct fx *f = *state;
	struct run r;

	verify_arm(f, "{\"expect_writes\":[{\"periph\":\"GPIOA\","
	    "\"offset\":24,\"value\":32},{\"periph\":\"GPIOA\","
	    "\"offset\":24,\"value\":2097152},{\"periph\":\"TIM1\","
	    "\"offset\":\"0x28\",\"value\":7}]}",
	    "#include \"stm32f4xx.h\"\n"
	    "int main(void)\n"
	    "{\n"
	    "\tRCC->AHB1ENR |= RCC_AHB1ENR_GPIOAEN;\n"
	    "\tRCC->APB2ENR |= 1u;\n"	/* TIM1EN */
	    "\tGPIOA->MODER = 1u << 10;\n"
	    "\tGPIOA->BSRRL = (1U << 5);\n"
	    "\tGPIOA->BSRRH = (1U << 5);\n"
	    "\tTIM1->PSC = 7;\n"
	    "\treturn 0;\n"
	    "}\n", 0, &r);
	expect(&r, "pass", NULL, NULL);
	assert_non_null(strstr(r.log, "GPIOA: unimplemented device write"
	    " (size 2, offset 0x01a, value 0x0020)"));
	run_release(&r);
	/* The high half is the reset half: no set of PA5 there. */
	verify_arm(f, "{\"expect_writes\":[{\"periph\":\"GPIOA\","
	    "\"offset\":24,\"value\":32}]}",
	    "#include \"stm32f4xx.h\"\n"
	    "int main(void)\n"
	    "{\n"
	    "\tRCC->AHB1ENR |= RCC_AHB1ENR_GPIOAEN;\n"
	    "\tGPIOA->MODER = 1u << 10;\n"
	    "\tGPIOA->BSRRH = (1U << 5);\n"
	    "\treturn 0;\n"
	    "}\n", 0, &r);
	expect(&r, "fail", "functional", "register-write");
	assert_str(r.evidence, "no write of 0x00000020 to GPIOA offset 0x018"
	    " (BSRR); 1 write there, the last 0x00200000");
	run_release(&r);
}

static void
test_armqemu_exit_code(void **state)
{
	struct fx *f = *state;
	struct run r;

	verify_arm(f, NULL, "int main(void) { return 3; }\n", 0, &r);
	expect(&r, "fail", "functional", "exit-code");
	assert_str(r.evidence, "the firmware exited with 3, expected 0");
	run_release(&r);
	/* assay_exit() ends the run at once, with the status asked for. */
	verify_arm(f, "{\"expect_exit\":7}",
	    "#include \"assay.h\"\n"
	    "int main(void) { assay_exit(7); return 0; }\n", 0, &r);
	expect(&r, "pass", NULL, NULL);
	assert_non_null(strstr(r.metrics, "\"exit\":7"));
	run_release(&r);
	/* Console output without a final newline leaves the status line
	 * in the middle of a line: still the status (issue 22, it was
	 * env-error "the run stage gave no exit status"). */
	verify_arm(f, NULL, "#include \"assay.h\"\n"
	    "int main(void) { assay_puts(\"no newline\"); return 1; }\n", 0,
	    &r);
	expect(&r, "fail", "functional", "exit-code");
	assert_str(r.evidence, "the firmware exited with 1, expected 0");
	run_release(&r);
	verify_arm(f, NULL, "#include \"assay.h\"\n"
	    "int main(void) { assay_puts(\"done\"); return 0; }\n", 0, &r);
	expect(&r, "pass", NULL, NULL);
	run_release(&r);
}

static void
test_armqemu_hardfault(void **state)
{
	struct fx *f = *state;
	struct run r;

	verify_arm(f, NULL,
	    "#include \"stm32f4xx.h\"\n"
	    "int main(void)\n"
	    "{\n"
	    "\tvolatile uint32_t *p = (uint32_t *)0x30000000;\n"
	    "\t*p = 1;\n"
	    "\treturn 0;\n"
	    "}\n", 0, &r);
	expect(&r, "fail", "functional", "hardfault");
	assert_non_null(strstr(r.evidence, "assay: HardFault at pc 0x"));
	assert_non_null(strstr(r.evidence, "bfar 0x30000000"));
	/* addr2line put the fault on the store. */
	assert_int_equal(r.evidence_line, 5);
	assert_non_null(strstr(r.metrics, "\"exit\":250"));
	run_release(&r);
	/* An interrupt with no handler is its own failure. */
	verify_arm(f, NULL,
	    "#include \"stm32f4xx.h\"\n"
	    "int main(void)\n"
	    "{\n"
	    "\tNVIC_EnableIRQ(TIM2_IRQn);\n"
	    "\tNVIC_SetPendingIRQ(TIM2_IRQn);\n"
	    "\tfor (;;)\n"
	    "\t\t;\n"
	    "}\n", 0, &r);
	expect(&r, "fail", "functional", "unhandled-interrupt");
	assert_non_null(strstr(r.evidence, "unhandled exception 44"));
	run_release(&r);
	/*
	 * A call through a NULL pointer: pc is 0, so the line comes from
	 * lr, the return address, one instruction back: the call on line
	 * 9, not the "}" of line 11 after it.
	 */
	verify_arm(f, NULL,
	    "#include \"stm32f4xx.h\"\n"
	    "\n"
	    "typedef void (*fn_t)(void);\n"
	    "static fn_t hook;\n"
	    "int main(void)\n"
	    "{\n"
	    "    RCC->AHB1ENR |= RCC_AHB1ENR_GPIOAEN;\n"
	    "    GPIOA->MODER |= GPIO_MODER_MODER5_0;\n"
	    "    hook();\n"
	    "    return 0;\n"
	    "}\n", 0, &r);
	expect(&r, "fail", "functional", "hardfault");
	assert_non_null(strstr(r.evidence, "HardFault at pc 0x00000000"));
	assert_int_equal(r.evidence_line, 9);
	run_release(&r);
}

static void
test_armqemu_timeout(void **state)
{
	struct fx *f = *state;
	struct run r;

	/* The firmware's own clock (timeout_s): the UART still shows. */
	verify_arm(f, "{\"timeout_s\":1}",
	    UART_PUTS
	    "int main(void) { uart_puts(\"up\\n\"); for (;;) ; }\n", 0, &r);
	expect(&r, "timeout", "functional", "timeout");
	assert_non_null(strstr(r.evidence, "did not exit within 1 s"));
	assert_non_null(strstr(r.log, "uart 3 bytes\nup\n"));
	run_release(&r);
	/* Waiting on a flag of an unmodelled peripheral says so. */
	verify_arm(f, "{\"timeout_s\":1}",
	    "#include \"stm32f4xx.h\"\n"
	    "int main(void)\n"
	    "{\n"
	    "\tRCC->CR |= RCC_CR_HSEON;\n"
	    "\twhile (!(RCC->CR & RCC_CR_HSERDY))\n"
	    "\t\t;\n"
	    "\treturn 0;\n"
	    "}\n", 0, &r);
	expect(&r, "timeout", "functional", "timeout");
	assert_non_null(strstr(r.evidence, "reads RCC offset 0x000 (CR),"
	    " which QEMU does not model"));
	/* The loop that polls it, from the instruction that read it. */
	assert_int_equal(r.evidence_line, 5);
	assert_non_null(diag_at(&r, 5, "the firmware did not exit"));
	/* QEMU's disassembly stays out of the printed trace. */
	assert_null(strstr(r.log, "\nIN: "));
	run_release(&r);
	/* verify's wall clock (--timeout) over the whole run. */
	verify_arm(f, NULL, "int main(void) { for (;;) ; }\n", 2, &r);
	expect(&r, "timeout", "functional", "timeout");
	assert_non_null(strstr(r.evidence, "wall-clock timeout"));
	run_release(&r);
}

/*
 * Issue 22: the firmware cannot choose QEMU's verdicts.  Semihosting's
 * SYS_EXIT_EXTENDED gives QEMU any exit status, and ":tt" opened for
 * append is QEMU's own stderr, so a status of 134 or 124, or a
 * "qemu-system-arm: ..." line, is the firmware's word: each of these is
 * a failure of the firmware's exit status, never env-error or timeout.
 */
static void
test_armqemu_firmware_cannot_fake_qemu_ending(void **state)
{
	struct fx *f = *state;
	struct run r;
#define TT_WRITE(text) \
	"static void tt(const char *s) { uint32_t o[3] = {" \
	" (uint32_t)\":tt\", 8, 3 }; int fd = (int)assay_semihost(1, o);" \
	" uint32_t w[3] = { (uint32_t)fd, (uint32_t)s, 0 };" \
	" while (s[w[2]]) w[2]++; assay_semihost(5, w); }\n" \
	"int main(void) { tt(\"" text "\"); "
	static const struct {
		const char *main;
		const char *status;
	} fw[] = {
		/* QEMU aborted (a lock-up): 128 + SIGABRT. */
		{ TT_WRITE("qemu: fatal: Lockup: can't escalate 3 to"
		    " HardFault\\n") "assay_exit(134); }\n", "134" },
		/* QEMU stopped by its clock. */
		{ TT_WRITE("qemu-system-arm: terminating on signal 15 from"
		    " pid 1\\n") "assay_exit(124); }\n", "124" },
		/* QEMU's own error at start. */
		{ TT_WRITE("qemu-system-arm: -kernel image.elf: could not"
		    " load kernel\\n") "assay_exit(1); }\n", "1" },
		/* QEMU killed by SIGSEGV, and by SIGSYS. */
		{ "int main(void) { assay_exit(139); }\n", "139" },
		{ "int main(void) { assay_exit(159); }\n", "159" },
	};
#undef TT_WRITE

	for (size_t i = 0; i < sizeof fw / sizeof fw[0]; i++) {
		char *src = xasprintf("#include \"assay.h\"\n%s",
		    fw[i].main);
		char *want = xasprintf("the firmware exited with %s, expected"
		    " 0", fw[i].status);

		verify_arm(f, NULL, src, 0, &r);
		expect(&r, "fail", "functional", "exit-code");
		assert_non_null(strstr(r.evidence, want));
		run_release(&r);
		free(want);
		free(src);
	}
}

static void
test_armqemu_link_error_is_api(void **state)
{
	struct fx *f = *state;
	struct run r;

	verify_arm(f, NULL,
	    "#include \"stm32f4xx.h\"\n"
	    "int main(void)\n"
	    "{\n"
	    "\tRCC->AHB1ENR |= RCC_AHB1ENR_GPIOAEN;\n"
	    "\tHAL_GPIO_WritePin(GPIOA, 1u << 5, 1);\n"
	    "\treturn 0;\n"
	    "}\n", 0, &r);
	expect(&r, "fail", "api", "undefined-api-function");
	assert_str(r.stage, "build");
	assert_non_null(strstr(r.evidence, "main.c:5: undefined reference to"
	    " `HAL_GPIO_WritePin'"));
	assert_int_equal(r.evidence_line, 5);
	assert_non_null(diag_at(&r, 5, "implicit declaration of function"));
	run_release(&r);
	/* A function of the candidate's own that it forgot: compile. */
	verify_arm(f, NULL,
	    "void delay_ms(int);\n"
	    "int main(void) { delay_ms(5); return 0; }\n", 0, &r);
	expect(&r, "fail", "compile", "undefined-reference");
	run_release(&r);
	/* The HAL's header: not there. */
	verify_arm(f, NULL, "#include \"stm32f4xx_hal.h\"\n"
	    "int main(void) { return 0; }\n", 0, &r);
	expect(&r, "fail", "api", "missing-header");
	assert_int_equal(r.evidence_line, 1);
	run_release(&r);
}

static void
test_armqemu_compile_errors(void **state)
{
	struct fx *f = *state;
	struct run r;

	verify_arm(f, NULL,
	    "#include \"stm32f4xx.h\"\n"
	    "int main(void)\n"
	    "{\n"
	    "\tfor (int i = 0; i < 2; i++ {\n"
	    "\t}\n"
	    "\treturn 0;\n"
	    "}\n", 0, &r);
	expect(&r, "fail", "compile", "syntax-error");
	assert_int_equal(r.evidence_line, 4);
	run_release(&r);
	/* A register the F4 does not have (the F1's GPIO BRR). */
	verify_arm(f, NULL,
	    "#include \"stm32f4xx.h\"\n"
	    "int main(void)\n"
	    "{\n"
	    "\tGPIOA->BRR = 1;\n"
	    "\treturn 0;\n"
	    "}\n", 0, &r);
	expect(&r, "fail", "api", "no-such-register");
	assert_int_equal(r.evidence_line, 4);
	run_release(&r);
	/* An error inside assay's header from the candidate's macro use is
	 * the candidate's line. */
	verify_arm(f, NULL,
	    "#include \"stm32f4xx.h\"\n"
	    "int main(void)\n"
	    "{\n"
	    "\tRCC->AHB1ENR |= RCC_AHB1ENR_GPIOAEN\n"
	    "\tGPIOA->ODR = 1;\n"
	    "\treturn 0;\n"
	    "}\n", 0, &r);
	expect(&r, "fail", "compile", "other");
	assert_int_equal(r.evidence_line, 4);
	run_release(&r);
}

static void
test_armqemu_renode_missing_is_skipped(void **state)
{
	struct fx *f = *state;
	struct run r;
	char *path = getenv("PATH") != NULL ? xstrdup(getenv("PATH")) : NULL;

	/* Whatever is installed, a PATH without renode on it. */
	setenv("PATH", "/usr/bin:/bin", 1);
	if (access("/usr/bin/renode", X_OK) == 0) {
		free(path);
		print_message("renode is installed; skipped\n");
		skip();
	}
	verify_arm(f, "{\"simulator\":\"renode\"}",
	    "int main(void) { return 0; }\n", 0, &r);
	if (path != NULL)
		setenv("PATH", path, 1);
	free(path);
	expect(&r, "skipped", NULL, "simulator-missing");
	assert_non_null(strstr(r.evidence, "Renode"));
	run_release(&r);
	/* Still built: a candidate that does not compile fails. */
	verify_arm(f, "{\"simulator\":\"renode\"}", "int main(void) {\n",
	    0, &r);
	expect(&r, "fail", "compile", "syntax-error");
	run_release(&r);
}

/* --- judge alone ------------------------------------------------------ */

/*
 * Issue 22: QEMU's in_asm log prints each block's symbol ("IN: NAME"), and
 * a symbol named "f\nGPIOA: unimplemented device write (...)" wrote that
 * line into the trace: gpio_led passed with no register written.  Such a
 * name is refused at the build, and QEMU runs an image without symbols.
 */
#define NEWLINE_SYMBOL(i, line) \
	"__asm__(\".syntax unified\\n.text\\n.thumb\\n.p2align 2\\n" \
	".globl t" #i "\\n.type t" #i ", %function\\n.thumb_func\\nt" #i \
	":\\n\\tb.n 1f\\n1:\\tnop\\n\\tbx lr\\n.size t" #i ", 2\\n" \
	".globl \\\"f" #i "\\\\n" line "\\\"\\n.set \\\"f" #i "\\\\n" \
	line "\\\", t" #i " + 2\\n\");\n" \
	"extern void t" #i "(void);\n"

static void
test_armqemu_symbol_names_cannot_write_the_trace(void **state)
{
	struct fx *f = *state;
	struct run r;

	verify_arm(f, "{\"expect_writes\":[{\"periph\":\"GPIOA\","
	    "\"offset\":24,\"value\":32}]}",
	    NEWLINE_SYMBOL(0, "GPIOA: unimplemented device write (size 4,"
	    " offset 0x018, value 0x00000020)")
	    "int main(void) { t0(); return 0; }\n", 0, &r);
	expect(&r, "fail", "compile", "forbidden-symbol");
	assert_non_null(strstr(r.evidence, "f0^JGPIOA: unimplemented"));
	run_release(&r);
	/* A name with a tab or a byte past ASCII is refused too. */
	verify_arm(f, "{\"expect_exit\":0}",
	    "__asm__(\".text\\n.globl \\\"a\\\\tb\\\"\\n.set \\\"a\\\\tb\\\", 0\");\n"
	    "int main(void) { return 0; }\n", 0, &r);
	expect(&r, "fail", "compile", "forbidden-symbol");
	run_release(&r);
	/* Printable names are fine, and the trace still has its writes. */
	verify_arm(f, "{\"expect_writes\":[{\"periph\":\"GPIOA\","
	    "\"offset\":24,\"value\":32}]}",
	    "#include \"stm32f4xx.h\"\n"
	    "__attribute__((noinline)) void led_on(void) {"
	    " GPIOA->BSRR = 1u << 5; }\n"
	    "int main(void) { RCC->AHB1ENR = 1u; GPIOA->MODER = 1u << 10;"
	    " led_on(); return 0; }\n", 0, &r);
	expect(&r, "pass", NULL, NULL);
	run_release(&r);
}

/* Only a whole line of QEMU's exact format, from a peripheral QEMU
 * traces, is a write. */
static void
test_armqemu_trace_lines_are_strict(void **state)
{
	struct env_plan plan;
	struct env_stage_result res[4];
	struct task t;
	struct run r;
	const char *run = "Aabc qemu-exit 0\n";
	const char *uart = "Aabc uart 0 bytes\n";
	const char *bad =
	    "Aabc trace 1000 bytes\n"
	    "IN: fGPIOA: unimplemented device write (size 4, offset 0x018, value 0x00000020)\n"
	    "GPIOA: unimplemented device write (size 4, offset 0x018, value 0x00000020) \n"
	    "GPIOA: unimplemented device write (size 4, offset 0x018, value 0x00000020)x\n"
	    "GPIOZ: unimplemented device write (size 4, offset 0x018, value 0x00000020)\n"
	    "GPIOA: unimplemented device write (size -4, offset 0x018, value 0x00000020)\n"
	    "Aabc trace-reads 0\n";
	const char *good =
	    "Aabc trace 100 bytes\n"
	    "RCC: unimplemented device write (size 4, offset 0x030, value 0x00000001)\n"
	    "GPIOA: unimplemented device write (size 4, offset 0x000, value 0x00000400)\n"
	    "GPIOA: unimplemented device write (size 4, offset 0x018, value 0x00000020)\n"
	    "Aabc trace-reads 0\n";

	(void)state;
	judge_fixture(&t, "{\"expect_writes\":[{\"periph\":\"GPIOA\","
	    "\"offset\":24,\"value\":32}]}", &plan, res);
	{
		const char *logs[][4] = { { "", run, uart, bad },
		    { "", run, uart, good } };

		for (int k = 0; k < 2; k++) {
			for (int i = 0; i < 4; i++) {
				res[i].ran = 1;
				res[i].log = logs[k][i];
				res[i].log_len = strlen(logs[k][i]);
			}
			memset(&r, 0, sizeof r);
			env_armqemu.judge(&t, &plan, res, 4, ENV_STOP_NONE,
			    &r);
			assert_str(r.verdict, k == 0 ? "fail" : "pass");
			if (k == 0) {
				assert_str(r.subcategory, "register-write");
				assert_non_null(strstr(r.metrics,
				    "\"reg_writes\":0"));
			}
			run_release(&r);
		}
	}
	env_plan_release(&plan);
	task_release(&t);
}

/* Trace lines for the model's tests (QEMU's formats, and the regtrace
 * stage's "usart-write" line). */
#define W(p, off, val) p ": unimplemented device write (size 4, offset " \
	off ", value " val ")\n"
#define R(p, off) p ": unimplemented device read  (size 4, offset " off \
	")\n"
#define U(addr, val) "usart-write addr " addr " value " val " size 4\n"
#define GPIOA_ON W("RCC", "0x030", "0x00000001")
#define PA5_OUT W("GPIOA", "0x000", "0x00000400")
#define LED W("GPIOA", "0x018", "0x00000020") \
	W("GPIOA", "0x018", "0x00200000")
#define USART1_UP W("RCC", "0x044", "0x00000010") \
	U("0x40011008", "0x8b") U("0x4001100c", "0x2008")
#define HI U("0x40011004", "0x68") U("0x40011004", "0x69")

/*
 * ADR 0060: the trace replayed in order against the STM32F4's rules.
 * Each row: a trace (the regtrace stage's lines), the verdict, and what
 * the evidence must hold.  The firmwares these traces stand for are
 * e2e 027-hostile-silicon's; here each rule is shown alone.
 */
static void
test_armqemu_silicon_model(void **state)
{
	static const char led[] = "{\"expect_writes\":["
	    "{\"periph\":\"RCC\",\"offset\":48,\"value\":1,\"mask\":1},"
	    "{\"periph\":\"GPIOA\",\"offset\":0,\"value\":1024,\"mask\":3072},"
	    "{\"periph\":\"GPIOA\",\"offset\":24,\"value\":32},"
	    "{\"periph\":\"GPIOA\",\"offset\":24,\"value\":2097152}]}";
	static const char af[] = "{\"expect_writes\":["
	    "{\"periph\":\"GPIOA\",\"offset\":0,\"value\":160,\"mask\":240}]}";
	static const char hi[] = "{\"expect_uart\":\"hi\"}";
	static const struct {
		const char *params, *trace, *uart, *verdict, *sub, *evidence;
	} row[] = {
		/* gpio_led done right. */
		{ led, GPIOA_ON PA5_OUT LED, "", "pass", NULL, NULL },
		/* The GPIO writes before the clock: lost on silicon. */
		{ led, PA5_OUT LED GPIOA_ON, "", "fail", "register-write",
		  "GPIOA MODER written at regtrace line 2 before RCC"
		  " AHB1ENR.GPIOAEN was set: ignored on silicon" },
		/* Bit 0 of APB1ENR (TIM2EN) is not GPIOA's clock. */
		{ led, W("RCC", "0x040", "0x00000001") PA5_OUT LED GPIOA_ON,
		  "", "fail", "register-write", "before RCC AHB1ENR.GPIOAEN"
		  " was set" },
		/* The clock on, off again (a plain write), on at the end. */
		{ led, GPIOA_ON PA5_OUT W("RCC", "0x030", "0x00000000") LED
		  GPIOA_ON, "", "fail", "register-write", "GPIOA BSRR written"
		  " at regtrace line 5 while RCC AHB1ENR.GPIOAEN was clear"
		  " again" },
		/* "&= ~GPIOAEN" (a read, then 0) clears it too. */
		{ led, GPIOA_ON PA5_OUT R("RCC", "0x030") W("RCC", "0x030",
		  "0x00000000") LED GPIOA_ON, "", "fail", "register-write",
		  "was clear again" },
		/* "|= GPIOBEN" after GPIOAEN (QEMU reads 0, so the write is
		 * 2): GPIOA's clock stays on, as on silicon. */
		{ led, R("RCC", "0x030") GPIOA_ON R("RCC", "0x030") W("RCC",
		  "0x030", "0x00000002") PA5_OUT LED, "", "pass", NULL, NULL },
		/* The same 2 written plainly (no read) turns GPIOA off. */
		{ led, GPIOA_ON W("RCC", "0x030", "0x00000002") PA5_OUT LED
		  GPIOA_ON, "", "fail", "register-write", "GPIOA MODER written"
		  " at regtrace line 4 while RCC AHB1ENR.GPIOAEN was clear"
		  " again" },
		/* PA5 an input again before the LED writes. */
		{ led, GPIOA_ON PA5_OUT W("GPIOA", "0x000", "0x00000000") LED
		  PA5_OUT, "", "fail", "register-write", "GPIOA BSRR written"
		  " at regtrace line 5 while PA5 was not a general-purpose"
		  " output (MODER5 = 0): the pin does not move on silicon" },
		/* ... or after them: MODER ends wrong. */
		{ led, GPIOA_ON PA5_OUT LED W("GPIOA", "0x000", "0x00000000"),
		  "", "fail", "register-write", "GPIOA offset 0x000 (MODER)"
		  " ends as 0x00000000 after the writes that took effect" },
		/* GPIOA reset through AHB1RSTR: PA5 an input again. */
		{ led, GPIOA_ON PA5_OUT W("RCC", "0x010", "0x00000001")
		  W("RCC", "0x010", "0x00000000") LED, "", "fail",
		  "register-write", "ends as 0x00000000" },
		/* The "clear the field, then set it" idiom, pin by pin
		 * (QEMU reads 0: "&=" writes 0 after a read). */
		{ af, GPIOA_ON R("GPIOA", "0x000") W("GPIOA", "0x000",
		  "0x00000000") R("GPIOA", "0x000") W("GPIOA", "0x000",
		  "0x00000020") R("GPIOA", "0x000") W("GPIOA", "0x000",
		  "0x00000000") R("GPIOA", "0x000") W("GPIOA", "0x000",
		  "0x00000080"), "", "pass", NULL, NULL },
		/* UART bytes from a clocked, enabled USART1. */
		{ hi, USART1_UP HI, "hi", "pass", NULL, NULL },
		/* No clock, no baud rate, no UE/TE: nothing on silicon. */
		{ hi, HI, "hi", "fail", "uart-not-enabled", "USART1 DR written"
		  " at regtrace line 2 before RCC APB2ENR.USART1EN was set" },
		/* The transmitter never enabled. */
		{ hi, W("RCC", "0x044", "0x00000010") U("0x40011008", "0x8b")
		  U("0x4001100c", "0x2000") HI, "hi", "fail",
		  "uart-not-enabled", "CR1.TE (the transmitter's enable) was"
		  " clear" },
		/* No baud rate. */
		{ hi, W("RCC", "0x044", "0x00000010") U("0x4001100c",
		  "0x2008") HI, "hi", "fail", "uart-not-enabled", "BRR (the"
		  " baud rate) was 0" },
		/* BRR and CR1 written before the clock are lost. */
		{ hi, U("0x40011008", "0x8b") U("0x4001100c", "0x2008")
		  W("RCC", "0x044", "0x00000010") HI, "hi", "fail",
		  "uart-not-enabled", "CR1.UE (the USART's enable) was clear" },
		/* Only whole usart-write lines count. */
		{ hi, USART1_UP "usart-write addr 0x40011004 value 0x68 size 4 \n"
		  "xusart-write addr 0x40011004 value 0x68 size 4\n"
		  U("0x40011004", "0x69"), "hi", "fail", "uart-not-enabled",
		  "shows 1 of them" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof row / sizeof row[0]; i++) {
		struct env_plan plan;
		struct env_stage_result res[4];
		struct task t;
		struct run r;
		char *trace = xasprintf("Aabc trace 100 bytes\n%sAabc"
		    " trace-reads 0\n", row[i].trace);
		char *uart = xasprintf("Aabc uart %zu bytes\n%s",
		    strlen(row[i].uart), row[i].uart);
		const char *logs[4] = { "", "Aabc qemu-exit 0\n", uart, trace };

		judge_fixture(&t, row[i].params, &plan, res);
		for (int k = 0; k < 4; k++) {
			res[k].ran = 1;
			res[k].log = logs[k];
			res[k].log_len = strlen(logs[k]);
		}
		memset(&r, 0, sizeof r);
		env_armqemu.judge(&t, &plan, res, 4, ENV_STOP_NONE, &r);
		if (strcmp(r.verdict, row[i].verdict) != 0 ||
		    (row[i].sub != NULL && (r.subcategory == NULL ||
		    strcmp(r.subcategory, row[i].sub) != 0)) ||
		    (row[i].evidence != NULL && (r.evidence == NULL ||
		    strstr(r.evidence, row[i].evidence) == NULL)))
			fail_msg("row %zu: %s %s: %s", i, r.verdict,
			    r.subcategory != NULL ? r.subcategory : "-",
			    r.evidence != NULL ? r.evidence : "-");
		run_release(&r);
		env_plan_release(&plan);
		task_release(&t);
		free(trace);
		free(uart);
	}
}
#undef W
#undef R
#undef U

static void
test_armqemu_judge_without_toolchain(void **state)
{
	struct env_plan plan;
	struct env_stage_result res[4];
	struct task t;
	struct run r;
	const char *build = "$ arm-none-eabi-gcc\n";
	char lock[256], none[64];

	(void)state;
	judge_fixture(&t, NULL, &plan, res);
	res[0].ran = 1;
	res[0].log = build;
	res[0].log_len = strlen(build);
	/* A lock-up (a fault with a broken stack): QEMU aborts. */
	snprintf(lock, sizeof lock, "qemu: fatal: Lockup: can't escalate 3"
	    " to HardFault (current priority -1)\nR00=fffffff0\nAabc"
	    " qemu-signal 6\nAabc qemu-exit 134\n");
	res[1].ran = 1;
	res[1].log = lock;
	res[1].log_len = strlen(lock);
	memset(&r, 0, sizeof r);
	env_armqemu.judge(&t, &plan, res, 2, ENV_STOP_NONE, &r);
	assert_str(r.verdict, "fail");
	assert_str(r.subcategory, "hardfault");
	assert_non_null(strstr(r.evidence, "Lockup"));
	run_release(&r);
	/* A status line without the secret is the firmware's, not ours. */
	snprintf(none, sizeof none, "qemu-exit 0\n");
	res[1].log = none;
	res[1].log_len = strlen(none);
	memset(&r, 0, sizeof r);
	env_armqemu.judge(&t, &plan, res, 2, ENV_STOP_NONE, &r);
	assert_str(r.verdict, "env-error");
	run_release(&r);
	/* The output cap and the wall clock. */
	memset(&r, 0, sizeof r);
	env_armqemu.judge(&t, &plan, res, 2, ENV_STOP_OUTPUT, &r);
	assert_str(r.verdict, "fail");
	assert_str(r.subcategory, "output-limit");
	run_release(&r);
	memset(&r, 0, sizeof r);
	env_armqemu.judge(&t, &plan, res, 1, ENV_STOP_TIMEOUT, &r);
	assert_str(r.verdict, "timeout");
	assert_str(r.category, "compile");
	run_release(&r);
	/* The build's tool missing. */
	res[0].exit_code = 127;
	memset(&r, 0, sizeof r);
	env_armqemu.judge(&t, &plan, res, 1, ENV_STOP_NONE, &r);
	assert_str(r.verdict, "env-error");
	assert_str(r.subcategory, "toolchain-missing");
	run_release(&r);
	env_plan_release(&plan);
	task_release(&t);
}

#define FX_TEST(t) cmocka_unit_test_setup_teardown(t, fx_setup, fx_teardown)

/* Issue 10: 40-digit line numbers in the build log and in a fault's
 * source line overflow nothing. */
static void
test_armqemu_judge_long_digit_runs(void **state)
{
	struct env_plan plan;
	struct env_stage_result res[4];
	struct task t;
	struct run r;
	const char *build = "main.c:1234567890123456789012345678901234567890:5: error: expected ';'\n"
	    "main.c:1234567890123456789012345678901234567890: undefined reference to `foo'\n";
	const char *run = "assay: HardFault at pc 0x08000100 (lr 0x08000101)\n"
	    "Aabc qemu-exit 250\n"
	    "Aabc fault-at main at main.c:1234567890123456789012345678901234567890\n";

	(void)state;
	judge_fixture(&t, NULL, &plan, res);
	res[0].ran = 1;
	res[0].exit_code = 1;
	res[0].log = build;
	res[0].log_len = strlen(build);
	memset(&r, 0, sizeof r);
	env_armqemu.judge(&t, &plan, res, 1, ENV_STOP_NONE, &r);
	assert_str(r.verdict, "fail");
	for (size_t i = 0; i < r.ndiags; i++)
		assert_true(r.diags[i].line >= 0);
	run_release(&r);
	res[0].exit_code = 0;
	res[0].log = "";
	res[0].log_len = 0;
	res[1].ran = 1;
	res[1].log = run;
	res[1].log_len = strlen(run);
	memset(&r, 0, sizeof r);
	env_armqemu.judge(&t, &plan, res, 2, ENV_STOP_NONE, &r);
	assert_str(r.verdict, "fail");
	assert_str(r.subcategory, "hardfault");
	assert_true(r.evidence_line >= 0);
	run_release(&r);
	env_plan_release(&plan);
	task_release(&t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		FX_TEST(test_armqemu_prepare_plans_four_stages),
		FX_TEST(test_armqemu_judge_long_digit_runs),
		FX_TEST(test_armqemu_prepare_refuses_bad_params),
		FX_TEST(test_armqemu_uart_and_writes_pass),
		FX_TEST(test_armqemu_pty_run),
		FX_TEST(test_armqemu_uart_mismatch),
		FX_TEST(test_armqemu_semihosting_cannot_forge_evidence),
		FX_TEST(test_armqemu_semihosting_stderr_is_not_the_trace),
		FX_TEST(test_armqemu_semihosting_system_is_refused),
		FX_TEST(test_armqemu_register_write_mismatch),
		FX_TEST(test_armqemu_bsrr_halves),
		FX_TEST(test_armqemu_exit_code),
		FX_TEST(test_armqemu_hardfault),
		FX_TEST(test_armqemu_timeout),
		FX_TEST(test_armqemu_firmware_cannot_fake_qemu_ending),
		FX_TEST(test_armqemu_link_error_is_api),
		FX_TEST(test_armqemu_compile_errors),
		FX_TEST(test_armqemu_renode_missing_is_skipped),
		FX_TEST(test_armqemu_symbol_names_cannot_write_the_trace),
		cmocka_unit_test(test_armqemu_trace_lines_are_strict),
		cmocka_unit_test(test_armqemu_silicon_model),
		cmocka_unit_test(test_armqemu_judge_without_toolchain),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
