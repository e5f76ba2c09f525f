/*
 * test_pipeline.c - unit tests for pipelines (pipeline.c and the member
 * runs of verify.c): env names with '+', each member's env_params, the
 * combined verdict by design.md section 3's precedence, its read-back for
 * display, and real runs of "iverilog+yosys" through verify (sandboxed
 * where bubblewrap can start) on the shared VerilogEval v2 Prob071.
 * The real runs skip when iverilog, yosys or the shared data is missing.
 */
#include <limits.h>
#include <poll.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "base/buf.h"
#include "envs/env.h"
#include "base/err.h"
#include "base/hash.h"
#include "verify/pipeline.h"
#include "model/sample.h"
#include "exec/sandbox.h"
#include "verify/verify.h"
#include "testlib.h"
#include "envtest.h"

extern const struct env_ops env_iverilog;
extern const struct env_ops env_yosys;

static int
fx_setup(void **state)
{
	return fx_init(state, "pipeline");
}

/* --- names and params ------------------------------------------------ */

static void
test_pipeline_split(void **state)
{
	char names[PIPELINE_MAX][PIPELINE_NAME];
	struct err err;

	(void)state;
	assert_int_equal(pipeline_split("iverilog+yosys", names, &err), 2);
	assert_string_equal(names[0], "iverilog");
	assert_string_equal(names[1], "yosys");
	assert_true(pipeline_is("iverilog+yosys"));
	assert_int_equal(pipeline_split("verilator", names, &err), 1);
	assert_false(pipeline_is("verilator"));
	assert_int_equal(pipeline_split("iverilog+", names, &err), -1);
	assert_non_null(strstr(err.msg, "empty"));
	assert_int_equal(pipeline_split("iverilog+yosys+iverilog", names,
	    &err), -1);
	assert_non_null(strstr(err.msg, "iverilog runs twice"));
	assert_int_equal(pipeline_split("iverilog+ghdl", names, &err), -1);
	assert_string_equal(err.msg, "unknown env 'ghdl' in pipeline"
	    " 'iverilog+ghdl'");
	assert_int_equal(pipeline_split("ghdl", names, &err), -1);
	assert_string_equal(err.msg, "unknown env 'ghdl'");
	assert_int_equal(pipeline_split("iverilog+yosys+verilator+nvcc+cad",
	    names, &err), -1);
	assert_non_null(strstr(err.msg, "more than 4"));
}

static void
test_pipeline_params(void **state)
{
	char names[PIPELINE_MAX][PIPELINE_NAME] = { "iverilog", "yosys" };
	const char *p = "{\"top\":\"tb\",\"timeout_s\":30,"
	    "\"yosys\":{\"latches\":false}}";
	char *r;

	(void)state;
	/* A member with no object of its own gets the shared keys. */
	r = pipeline_params(p, "iverilog", names, 2);
	assert_string_equal(r, "{\"top\":\"tb\",\"timeout_s\":30}");
	free(r);
	/* Its own object replaces them: yosys must not read top=tb. */
	r = pipeline_params(p, "yosys", names, 2);
	assert_string_equal(r, "{\"latches\":false}");
	free(r);
	assert_null(pipeline_params(NULL, "yosys", names, 2));
	assert_null(pipeline_params("{\"iverilog\":{}}", "yosys", names, 2));
	r = pipeline_params("{\"iverilog\":{}}", "iverilog", names, 2);
	assert_string_equal(r, "{}");
	free(r);
}

/* --- combining -------------------------------------------------------- */

static void
sub(struct run *r, const char *verdict, const char *stage,
    const char *category, const char *subcategory, const char *evidence,
    int line, const char *metrics)
{
	memset(r, 0, sizeof *r);
	r->verdict = xstrdup(verdict);
	r->stage = xstrdup(stage);
	r->category = xstrdup(category);
	r->subcategory = xstrdup(subcategory);
	r->evidence = xstrdup(evidence);
	r->evidence_line = line;
	r->metrics = xstrdup(metrics);
}

static const char *const iv_stages[] = { "compile", "isolate",
	"simulate" };
static const char *const ys_stages[] = { "synth", "stat", "area",
	"area-stat" };

static void
test_pipeline_combine_precedence(void **state)
{
	struct run iv, ys, out;
	struct pipeline_member m[2] = {
		{ "iverilog", &iv, iv_stages, 3 },
		{ "yosys", &ys, ys_stages, 1 },
	};

	(void)state;
	/* Both fail: iverilog first decides the verdict and the stage;
	 * yosys's compile error is the earlier cause (format, compile,
	 * api, functional, performance). */
	sub(&iv, "fail", "simulate", "functional", "mismatch",
	    "Hint: Output 'pos' has 12 mismatches.", 9,
	    "{\"mismatches\":12,\"total\":346}");
	sub(&ys, "fail", "synth", "compile", "multiple-drivers",
	    "Warning: multiple conflicting drivers for TopModule.\\pos", 4,
	    NULL);
	run_add_diag(&ys, "candidate.sv", 4, 0, "error", "multiple"
	    " conflicting drivers", 4);
	memset(&out, 0, sizeof out);
	pipeline_combine(m, 2, &out);
	assert_str(out.verdict, "fail");
	assert_str(out.stage, "iverilog:simulate");
	assert_str(out.category, "compile");
	assert_str(out.subcategory, "multiple-drivers");
	assert_int_equal(out.evidence_line, 4);
	assert_str(out.evidence, "yosys: Warning: multiple conflicting"
	    " drivers for TopModule.\\pos; symptom: iverilog: Hint: Output"
	    " 'pos' has 12 mismatches.");
	assert_str(out.metrics, "{\"iverilog.verdict\":\"fail\","
	    "\"iverilog.stage\":\"simulate\",\"iverilog.subcategory\":"
	    "\"mismatch\",\"iverilog.stages\":[\"compile\",\"isolate\","
	    "\"simulate\"],\"iverilog.mismatches\":12,\"iverilog.total\":346,"
	    "\"yosys.verdict\":\"fail\",\"yosys.stage\":\"synth\","
	    "\"yosys.subcategory\":\"multiple-drivers\",\"yosys.stages\":"
	    "[\"synth\"]}");
	assert_int_equal(out.ndiags, 1);
	assert_string_equal(out.diags[0].message, "yosys: multiple"
	    " conflicting drivers");
	assert_int_equal(out.diags[0].cand_line, 4);
	run_release(&out);
	run_release(&ys);

	/* A tie (both functional) goes to the earlier member. */
	sub(&ys, "fail", "synth", "functional", "latch", "Latch inferred", 3,
	    "{\"cells\":5}");
	memset(&out, 0, sizeof out);
	pipeline_combine(m, 2, &out);
	assert_str(out.subcategory, "mismatch");
	assert_str(out.evidence, "iverilog: Hint: Output 'pos' has 12"
	    " mismatches.");
	assert_int_equal(out.evidence_line, 9);
	run_release(&out);
	run_release(&iv);

	/* Simulation passes, synthesis does not: yosys decides. */
	sub(&iv, "pass", "simulate", NULL, NULL, NULL, 0,
	    "{\"mismatches\":0,\"total\":346}");
	memset(&out, 0, sizeof out);
	pipeline_combine(m, 2, &out);
	assert_str(out.verdict, "fail");
	assert_str(out.stage, "yosys:synth");
	assert_str(out.category, "functional");
	assert_str(out.subcategory, "latch");
	assert_str(out.evidence, "yosys: Latch inferred");
	run_release(&out);
	run_release(&ys);

	/* All pass: the last member's stage ends the run. */
	sub(&ys, "pass", "area", NULL, NULL, NULL, 0, "{\"cells\":5}");
	memset(&out, 0, sizeof out);
	pipeline_combine(m, 2, &out);
	assert_str(out.verdict, "pass");
	assert_str(out.stage, "yosys:area");
	assert_null(out.category);
	assert_null(out.evidence);
	run_release(&out);
	run_release(&iv);

	/* The toolchain's fault first: env-error, no failure category,
	 * although yosys passed. */
	sub(&iv, "env-error", "compile", NULL, "toolchain-limitation",
	    "sorry: This cast operation is not yet supported.", 0, NULL);
	memset(&out, 0, sizeof out);
	pipeline_combine(m, 2, &out);
	assert_str(out.verdict, "env-error");
	assert_str(out.stage, "iverilog:compile");
	assert_str(out.subcategory, "toolchain-limitation");
	assert_null(out.category);
	run_release(&out);
	run_release(&iv);
	run_release(&ys);

	/* The wall clock stopped the pipeline in its first member. */
	sub(&iv, "timeout", "simulate", "functional", "timeout",
	    "the run hit its wall-clock timeout", 0, NULL);
	m[1].run = NULL;
	memset(&out, 0, sizeof out);
	pipeline_combine(m, 2, &out);
	assert_str(out.verdict, "timeout");
	assert_str(out.stage, "iverilog:simulate");
	assert_str(out.category, "functional");
	assert_non_null(strstr(out.metrics, "\"yosys.verdict\":\"not-run\""));
	run_release(&out);
	run_release(&iv);
}

static void
test_pipeline_steps_read_back(void **state)
{
	struct run iv, ys, out;
	struct pipeline_member m[2] = {
		{ "iverilog", &iv, iv_stages, 3 },
		{ "yosys", &ys, ys_stages, 4 },
	};
	struct pipeline_step *st;
	size_t n;

	(void)state;
	sub(&iv, "pass", "simulate", NULL, NULL, NULL, 0,
	    "{\"mismatches\":0,\"total\":346}");
	sub(&ys, "fail", "synth", "functional", "latch", "Latch inferred", 3,
	    "{\"cells\":75,\"latches\":3}");
	memset(&out, 0, sizeof out);
	pipeline_combine(m, 2, &out);
	assert_int_equal(pipeline_steps("iverilog+yosys", out.metrics, &st,
	    &n), 0);
	assert_int_equal(n, 2);
	assert_string_equal(st[0].env, "iverilog");
	assert_string_equal(st[0].verdict, "pass");
	assert_int_equal(st[0].nstages, 3);
	assert_string_equal(st[0].stages[2], "simulate");
	assert_string_equal(st[0].metrics, "mismatches=0 total=346");
	assert_false(pipeline_step_failed(&st[0], 2));
	assert_string_equal(st[1].verdict, "fail");
	assert_string_equal(st[1].subcategory, "latch");
	assert_int_equal(st[1].nstages, 4);
	/* yosys judged at synth, though area and area-stat ran after it. */
	assert_true(pipeline_step_failed(&st[1], 0));
	assert_false(pipeline_step_failed(&st[1], 3));
	assert_string_equal(st[1].metrics, "cells=75 latches=3");
	pipeline_steps_free(st, n);
	/* Not a pipeline, or metrics from elsewhere: nothing to show. */
	assert_int_equal(pipeline_steps("iverilog", out.metrics, &st, &n), -1);
	assert_int_equal(pipeline_steps("iverilog+yosys",
	    "{\"mismatches\":3}", &st, &n), -1);
	assert_null(st);
	run_release(&out);
	run_release(&iv);
	run_release(&ys);
}

/* --- real runs through verify ----------------------------------------- */

/* Prob071 (priority encoder) as a task of env iverilog+yosys. */
static void
casez_task(struct fx *f, struct task *t)
{
	static const char *const files[][2] = {
		{ "Prob071_always_casez_test.sv", "testbench" },
		{ "Prob071_always_casez_ref.sv", "reference" },
	};

	make_task(t, "local/casez", "iverilog+yosys", "{\"iverilog\":"
	    "{\"top\":\"tb\",\"timeout_s\":30},\"yosys\":{\"latches\":false}}");
	free(t->domain);
	t->domain = xstrdup("chip");
	for (size_t i = 0; i < 2; i++) {
		char *p = xasprintf("%s/verilog-eval-v2/%s", f->data,
		    files[i][0]);
		char *data = read_text(p);

		task_add_file(t, files[i][0], files[i][1], data, strlen(data));
		free(data);
		free(p);
	}
}

/* Verify code for t through verify's jobs, to the end, into r. */
static void
verify_here(struct fx *f, const struct task *t, const char *code,
    struct run *r)
{
	struct verify_opts vo;
	struct verify_job *j;
	struct candidate c;
	struct err err;

	memset(&vo, 0, sizeof vo);
	/* As root the run's own uid must reach its work directory. */
	assert_int_equal(chmod(f->dir, 0711), 0);
	vo.workroot = f->dir;
	if (sandbox_check(&err) < 0) {
		print_message("%s; running unconfined\n", err.msg);
		vo.no_sandbox = 1;
	}
	make_cand(&c, t->id, code);
	if (verify_job_start(&j, &vo, t, &c, 0, 0, 0, &err) < 0)
		fail_msg("verify_job_start: %s", err.msg);
	while (!verify_job_step(j, NULL, NULL)) {
		struct pollfd pfd = { .fd = verify_job_fd(j),
		    .events = POLLIN };

		poll(&pfd, 1, verify_job_timeout_ms(j));
	}
	verify_job_result(j, r);
	verify_job_free(j);
	candidate_release(&c);
}

/* Right in simulation; an if-chain without a final else is a latch. */
static const char latch_code[] =
    "module TopModule(input [7:0] in, output reg [2:0] pos);\n"
    "  always @(*) begin\n"
    "    if (in[0]) pos = 3'd0;\n"
    "    else if (in[1]) pos = 3'd1;\n"
    "    else if (in[2]) pos = 3'd2;\n"
    "    else if (in[3]) pos = 3'd3;\n"
    "    else if (in[4]) pos = 3'd4;\n"
    "    else if (in[5]) pos = 3'd5;\n"
    "    else if (in[6]) pos = 3'd6;\n"
    "    else if (in[7]) pos = 3'd7;\n"
    "    else if (in == 8'd0) pos = 3'd0;\n"
    "  end\n"
    "endmodule\n";

/* Synthesises cleanly; the highest set bit, not the lowest. */
static const char highest_code[] =
    "module TopModule(input [7:0] in, output reg [2:0] pos);\n"
    "  always @(*)\n"
    "    casez (in)\n"
    "      8'b1zzzzzzz: pos = 3'd7;\n"
    "      8'b01zzzzzz: pos = 3'd6;\n"
    "      8'b001zzzzz: pos = 3'd5;\n"
    "      8'b0001zzzz: pos = 3'd4;\n"
    "      8'b00001zzz: pos = 3'd3;\n"
    "      8'b000001zz: pos = 3'd2;\n"
    "      8'b0000001z: pos = 3'd1;\n"
    "      default: pos = 3'd0;\n"
    "    endcase\n"
    "endmodule\n";

static void
test_pipeline_verify_latch_and_mismatch(void **state)
{
	struct fx *f = *state;
	struct task t;
	struct run r;

	need_data(f);
	need_tool(&env_iverilog);
	need_tool(&env_yosys);
	casez_task(f, &t);

	verify_here(f, &t, latch_code, &r);
	assert_str(r.env, "iverilog+yosys");
	assert_str(r.verdict, "fail");
	assert_str(r.stage, "yosys:synth");
	assert_str(r.category, "functional");
	assert_str(r.subcategory, "latch");
	assert_non_null(strstr(r.evidence, "yosys: Latch inferred for signal"
	    " `\\TopModule.\\pos'"));
	/* The always block that holds the latch. */
	assert_int_equal(r.evidence_line, 2);
	assert_non_null(strstr(r.metrics, "\"iverilog.verdict\":\"pass\""));
	assert_non_null(strstr(r.metrics, "\"iverilog.mismatches\":0,"
	    "\"iverilog.total\":346"));
	assert_non_null(strstr(r.metrics, "\"yosys.latches\":3"));
	/* Each member ran in its own directory; the toolchain names both. */
	assert_non_null(strstr(r.command, "(cd iverilog && "));
	assert_non_null(strstr(r.command, "(cd iverilog/run && "));
	assert_non_null(strstr(r.command, "(cd yosys && "));
	assert_non_null(strstr(r.toolchain, "Icarus Verilog"));
	assert_non_null(strstr(r.toolchain, " + Yosys"));
	assert_non_null(strstr(r.inputs, "\"iverilog/candidate.sv\":"));
	assert_non_null(strstr(r.inputs, "\"yosys/candidate.sv\":"));
	/* The secret of iverilog's testbench is gone from the log. */
	assert_non_null(strstr(r.log, "== iverilog ==\n$ iverilog "));
	assert_non_null(strstr(r.log, "\nMismatches: 0 in 346 samples\n"));
	assert_non_null(strstr(r.log, "== yosys ==\n$ yosys "));
	run_release(&r);

	/* A failing simulation does not stop synthesis. */
	verify_here(f, &t, highest_code, &r);
	assert_str(r.verdict, "fail");
	assert_str(r.stage, "iverilog:simulate");
	assert_str(r.category, "functional");
	assert_str(r.subcategory, "mismatch");
	assert_non_null(strstr(r.evidence, "iverilog: Hint: Output 'pos' has"));
	assert_non_null(strstr(r.metrics, "\"yosys.verdict\":\"pass\""));
	assert_non_null(strstr(r.metrics, "\"yosys.stages\":[\"synth\","
	    "\"stat\",\"area\",\"area-stat\"]"));
	run_release(&r);
	task_release(&t);
}

#define FX_TEST(t) cmocka_unit_test_setup_teardown(t, fx_setup, fx_teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pipeline_split),
		cmocka_unit_test(test_pipeline_params),
		cmocka_unit_test(test_pipeline_combine_precedence),
		cmocka_unit_test(test_pipeline_steps_read_back),
		FX_TEST(test_pipeline_verify_latch_and_mismatch),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
