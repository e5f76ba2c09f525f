/*
 * test_benchimport.c - unit tests for the importers of issue 27 item 4
 * (TritonBench, ArchXBench, VeriScope, Text-to-CadQuery, SuperCoder;
 * ADR 0046) and the two verdict conventions they brought: the triton
 * env's stdout mode (its plan and its judge on the harness's marker
 * lines) and the x86-asm env's program mode (its plan and its judge on a
 * run stage's log), cmocka.
 *
 * Each test writes the layout it imports into its own mkdtemp directory
 * and imports it into a fresh database there; the expected tasks and
 * verdicts are what the formats in docs/formats.md and the tables of
 * docs/envs/triton.md and docs/envs/x86-asm.md say.
 */
#include <limits.h>
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
#include "base/err.h"
#include "base/hash.h"
#include "envs/env.h"
#include "exchange/import.h"
#include "model/sample.h"
#include "store/store.h"
#include "testlib.h"
#include "envtest.h"

extern const struct env_ops env_triton;
extern const struct env_ops env_x86asm;

static int
setup(void **state)
{
	return fx_init(state, "bench");
}

/* Write text to DIR/rel, making its folders. */
static void
put(struct fx *f, const char *rel, const char *text)
{
	char *p = xasprintf("%s/%s", f->dir, rel);
	FILE *fp;

	for (char *s = strchr(p + strlen(f->dir) + 1, '/'); s != NULL;
	    s = strchr(s + 1, '/')) {
		*s = '\0';
		mkdir(p, 0755);
		*s = '/';
	}
	fp = fopen(p, "w");
	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
	free(p);
}

/* Import DIR/rel in format fmt into a database of its own; the report's
 * counts in *rep (released by the caller), the store in *st (closed by
 * the caller).  Returns import_path()'s result, err filled. */
static int
import(struct fx *f, const char *rel, enum import_format fmt,
    struct store **st, struct import_report *rep, struct err *err)
{
	char *db = xasprintf("%s/assay.db", f->dir);
	char *p = xasprintf("%s/%s", f->dir, rel);
	struct import_opts o = { .format = fmt, .by = "test" };
	int rc;

	assert_int_equal(store_open(st, db, err), 0);
	import_report_init(rep);
	rc = import_path(*st, p, &o, rep, err);
	free(p);
	free(db);
	return rc;
}

#define SEP "#####################################################################" \
	"#############################################################################"

static void
test_tritonbench_layout(void **state)
{
	struct fx *f = *state;
	struct store *st;
	struct import_report rep;
	struct err err;
	struct task t;

	assert_int_equal(strlen(SEP), 146);
	put(f, "data/TritonBench_G_v1/k.py", "import triton\n\ndef k(x):\n"
	    "    return x\n" SEP "\n\ndef test_k():\n    return {}\n\n"
	    "r = test_k()\n");
	put(f, "data/TritonBench_G_v1.json", "[{\"file\": \"k.py\", \"repo\":"
	    " \"a/b\", \"comp_instru\": \"\\n            Write k.\\n   \","
	    " \"difficulty\": \"2\"}]");
	put(f, "data/TritonBench_T_v1/t.py", "import torch\n\ndef t(x):\n"
	    "    return x\n" SEP "\ndef test_t():\n    return 1\n");
	assert_int_equal(import(f, "data", IMPORT_AUTO, &st, &rep, &err), 0);
	assert_int_equal(rep.tasks_added, 2);
	/* G's reference is a candidate, T's (PyTorch) is not */
	assert_int_equal(rep.cands_added, 1);
	/* T without its statistics: imported, with a warning */
	assert_non_null(strstr(buf_str(&rep.warnings), "TritonBench_T_v1.jsonl"));
	assert_int_equal(store_task_get(st, "tritonbench-g/k", &t, &err), 0);
	assert_str(t.env, "triton");
	assert_str(t.env_params, "{\"eval\":\"stdout\"}");
	assert_str(t.benchmark, "tritonbench-g");
	assert_non_null(strstr(t.spec, "TritonBench-G: k\n\nWrite k.\n"));
	assert_int_equal(t.nfiles, 2);
	assert_str(t.files[0].name, "k.py");
	assert_str(t.files[0].role, "reference");
	assert_int_equal(t.files[0].len, strlen("import triton\n\ndef k(x):\n"
	    "    return x\n"));
	assert_str(t.files[1].name, "test_k.py");
	assert_str(t.files[1].role, "testbench");
	assert_true(strncmp(t.files[1].data, "\ndef test_k", 11) == 0);
	assert_non_null(strstr(t.extra, "\"repo\":\"a/b\""));
	task_release(&t);
	import_report_release(&rep);
	store_close(st);
}

static void
test_tritonbench_no_separator(void **state)
{
	struct fx *f = *state;
	struct store *st;
	struct import_report rep;
	struct err err;

	put(f, "TritonBench_G_v1/k.py", "def k():\n    pass\n");
	assert_int_equal(import(f, "TritonBench_G_v1", IMPORT_TRITONBENCH, &st,
	    &rep, &err), -1);
	assert_non_null(strstr(err.msg, "k.py: not a TritonBench problem: no"
	    " line of 146 '#'"));
	import_report_release(&rep);
	store_close(st);
}

/* The triton env's plan for a stdout task: check, then tbeval. */
static void
test_triton_stdout_plan(void **state)
{
	struct fx *f = *state;
	struct task t;
	struct candidate c;
	struct env_plan plan;
	struct err err;

	make_task(&t, "tritonbench-g/k", "triton", "{\"eval\":\"stdout\"}");
	task_add_file(&t, "k.py", "reference", "x = 1\n", 6);
	make_cand(&c, t.id, "y = 1\n");
	env_plan_init(&plan);
	/* without its test file the task cannot be judged */
	assert_int_equal(env_triton.prepare(&t, &c, f->dir, &plan, &err), -1);
	assert_non_null(strstr(err.msg, "no test file (role testbench)"));
	env_plan_release(&plan);
	rm_rf(f->dir);
	assert_int_equal(mkdir(f->dir, 0755), 0);
	task_add_file(&t, "test_k.py", "testbench", "print(x)\n", 9);
	env_plan_init(&plan);
	assert_int_equal(env_triton.prepare(&t, &c, f->dir, &plan, &err), 0);
	assert_int_equal(plan.nstages, 2);
	assert_str(plan.stages[1].argv[4], "tbeval");
	assert_str(plan.stages[1].argv[5], "k.py");
	assert_str(plan.stages[1].argv[6], "test_k.py");
	assert_str(plan.stages[1].argv[7], "candidate.py");
	assert_null(plan.stages[1].argv[8]);
	assert_true(plan.stages[1].candidate);
	env_plan_release(&plan);
	candidate_release(&c);
	task_release(&t);
}

/* The triton judge on tbeval's marker lines. */
static void
judge_tb(const char *eval_log, int rc, struct run *r)
{
	struct env_stage_result res[2] = { { 0 } };
	struct env_plan plan;
	struct task t;

	make_task(&t, "tritonbench-g/k", "triton", "{\"eval\":\"stdout\"}");
	env_plan_init(&plan);
	snprintf(plan.nonce, sizeof plan.nonce, "KTEST");
	plan.cand_file = xstrdup("candidate.py");
	res[0].ran = res[1].ran = 1;
	res[0].log = "assay-triton: ok\n";
	res[0].log_len = strlen(res[0].log);
	res[1].exit_code = rc;
	res[1].log = eval_log;
	res[1].log_len = strlen(eval_log);
	memset(r, 0, sizeof *r);
	env_triton.judge(&t, &plan, res, 2, ENV_STOP_NONE, r);
	env_plan_release(&plan);
	task_release(&t);
}

static void
test_triton_stdout_judge(void **state)
{
	struct run r;

	(void)state;
	judge_tb("KTEST {\"event\": \"phase\", \"phase\": \"correctness\"}\n"
	    "KTEST {\"bytes\": 80, \"device\": \"cpu\", \"event\": \"result\","
	    " \"lines\": 1, \"mode\": \"stdout\", \"printed\": \"r\","
	    " \"triton_checked\": true, \"values\": 2048}\n", 0, &r);
	assert_str(r.verdict, "pass");
	assert_str(r.stage, "correctness");
	assert_str(r.subcategory, "cpu-interpreter");
	assert_non_null(strstr(r.evidence, "stdout identical to the"
	    " reference's with the test code appended (1 lines, 80 bytes);"
	    " the test printed nothing: the value of r is the reference's in"
	    " full, as the checker prints it (2048 elements); Triton on the"
	    " output path: its run replayed by the checker with every value"
	    " its Triton kernels store randomized comes out wrong"));
	assert_non_null(strstr(r.metrics, "\"mode\":\"stdout, cpu-interpreter\""));
	assert_non_null(strstr(r.metrics, "\"values_compared\":2048"));
	run_release(&r);

	/* a test that prints: no value named, none in the evidence */
	judge_tb("KTEST {\"event\": \"phase\", \"phase\": \"correctness\"}\n"
	    "KTEST {\"bytes\": 80, \"device\": \"cpu\", \"event\": \"result\","
	    " \"lines\": 1, \"mode\": \"stdout\", \"printed\": null,"
	    " \"triton_checked\": true, \"values\": 0}\n", 0, &r);
	assert_str(r.verdict, "pass");
	assert_non_null(strstr(r.evidence, "(1 lines, 80 bytes); Triton on"));
	assert_null(strstr(r.evidence, "the value of"));
	run_release(&r);

	judge_tb("KTEST {\"event\": \"phase\", \"phase\": \"correctness\"}\n"
	    "KTEST {\"event\": \"fail\", \"sub\": \"stdout-mismatch\","
	    " \"message\": \"stdout differs\"}\n", 1, &r);
	assert_str(r.verdict, "fail");
	assert_str(r.category, "functional");
	assert_str(r.subcategory, "stdout-mismatch");
	run_release(&r);

	/* a candidate's line with the nonce it does not know counts for
	 * nothing; the checker's defect names its own subcategory */
	judge_tb("FORGED {\"event\": \"result\", \"mode\": \"stdout\"}\n"
	    "KTEST {\"event\": \"defect\", \"sub\": \"reference-silent\","
	    " \"message\": \"prints nothing\"}\n", 1, &r);
	assert_str(r.verdict, "task-defect");
	assert_str(r.subcategory, "reference-silent");
	run_release(&r);
}

static void
test_archxbench_and_veriscope(void **state)
{
	struct fx *f = *state;
	struct store *st;
	struct import_report rep;
	struct err err;
	struct task t;
	static const char tb[] = "module tb_x;\n  x dut();\n"
	    "  initial begin $display(\"Passed: 1, Failed: 0\"); $finish;"
	    " end\nendmodule\n";

	put(f, "ax/level-0/x/problem-description.txt", "Title: X\n");
	put(f, "ax/level-0/x/design-specs.txt", "Module Name:\n- x\n");
	put(f, "ax/level-0/x/tb.v", tb);
	assert_int_equal(import(f, "ax", IMPORT_AUTO, &st, &rep, &err), 0);
	assert_int_equal(rep.tasks_added, 1);
	assert_int_equal(store_task_get(st, "archxbench/level-0/x", &t, &err),
	    0);
	assert_str(t.env, "iverilog");
	assert_str(t.env_params, "{\"top\":\"tb_x\"}");
	assert_str(t.interface, "Module Name:\n- x\n");
	assert_true(strncmp(t.spec, "Title: X\n", 9) == 0);
	assert_str(t.files[0].name, "tb.v");
	assert_str(t.files[0].role, "testbench");
	task_release(&t);
	import_report_release(&rep);
	store_close(st);

	rm_rf(f->dir);
	assert_int_equal(mkdir(f->dir, 0755), 0);
	put(f, "data/L1_basic/001_x/problem.md", "# X\n");
	put(f, "data/L1_basic/001_x/config.yaml", "top_module: x\n");
	put(f, "data/L1_basic/001_x/testbench.v", tb);
	put(f, "data/L1_basic/001_x/reference.v", "module x; endmodule\n");
	put(f, "p.json", "[{\"problem_id\": \"001_x\", \"completion\":"
	    " \"module x; endmodule // m\"}]");
	assert_int_equal(import(f, "data", IMPORT_AUTO, &st, &rep, &err), 0);
	assert_int_equal(rep.tasks_added, 1);
	assert_int_equal(rep.cands_added, 1);
	import_report_release(&rep);
	import_report_init(&rep);
	{
		char *p = xasprintf("%s/p.json", f->dir);
		struct import_opts o = { .format = IMPORT_VERISCOPE,
		    .by = "test" };

		assert_int_equal(import_path(st, p, &o, &rep, &err), 0);
		free(p);
	}
	assert_int_equal(rep.cands_added, 1);
	assert_int_equal(store_task_get(st, "veriscope/001_x", &t, &err), 0);
	assert_str(t.interface, "top_module: x\n");
	assert_non_null(strstr(t.extra, "\"tier\":\"L1_basic\""));
	task_release(&t);
	import_report_release(&rep);
	store_close(st);
}

static void
test_jsonl_rows(void **state)
{
	struct fx *f = *state;
	struct store *st;
	struct import_report rep;
	struct err err;
	struct task t;

	/* auto tells both by their first rows */
	put(f, "cq.jsonl", "{\"uid\": \"0000/1\", \"input\": \"A cube.\","
	    " \"output\": \"import cadquery as cq\\nresult ="
	    " cq.Workplane().box(1, 1, 1)\\n\", \"level\": \"beginner\"}\n");
	assert_int_equal(import(f, "cq.jsonl", IMPORT_AUTO, &st, &rep, &err),
	    0);
	assert_int_equal(rep.tasks_added, 1);
	assert_int_equal(rep.cands_added, 1);
	assert_int_equal(store_task_get(st, "text2cadquery/0000/1", &t, &err),
	    0);
	assert_str(t.env, "cad");
	assert_str(t.files[0].name, "reference.py");
	assert_str(t.extra, "{\"level\":\"beginner\"}");
	task_release(&t);
	import_report_release(&rep);
	store_close(st);

	put(f, "sc.jsonl", "{\"extra_info\": {\"problem_id\": \"p1\","
	    " \"unoptimized_assembly\": \"main: ret\\n\", \"answer\":"
	    " \"main: xor %eax, %eax\\nret\\n\", \"inputs\": [\"1\\n\"],"
	    " \"outputs\": [\"2\\n\"]}}\n");
	assert_int_equal(import(f, "sc.jsonl", IMPORT_AUTO, &st, &rep, &err),
	    0);
	assert_int_equal(rep.tasks_added, 1);
	assert_int_equal(rep.cands_added, 2);
	assert_int_equal(store_task_get(st, "supercoder/p1", &t, &err), 0);
	assert_str(t.env_params, "{\"mode\":\"program\"}");
	assert_non_null(task_file_by_name(&t, "input.s"));
	assert_non_null(task_file_by_name(&t, "case1.in"));
	assert_non_null(task_file_by_name(&t, "case1.out"));
	task_release(&t);
	import_report_release(&rep);
	store_close(st);

	put(f, "bad.jsonl", "{\"extra_info\": {\"unoptimized_assembly\": \"x\","
	    " \"inputs\": [\"1\"], \"outputs\": [\"1\", \"2\"]}}\n");
	assert_int_equal(import(f, "bad.jsonl", IMPORT_SUPERCODER, &st, &rep,
	    &err), -1);
	assert_non_null(strstr(err.msg, "bad.jsonl:1: extra_info.inputs and"));
	import_report_release(&rep);
	store_close(st);
}

/* x86-asm program mode: the plan never writes an expected output. */
static void
test_x86prog_plan(void **state)
{
	struct fx *f = *state;
	struct task t;
	struct candidate c;
	struct env_plan plan;
	struct err err;
	char *p;

	make_task(&t, "supercoder/p", "x86-asm", "{\"mode\":\"program\"}");
	task_add_file(&t, "case1.in", "data", "1\n", 2);
	task_add_file(&t, "case1.out", "data", "2\n", 2);
	make_cand(&c, t.id, "main: ret\n");
	env_plan_init(&plan);
	assert_int_equal(env_x86asm.prepare(&t, &c, f->dir, &plan, &err), 0);
	assert_int_equal(plan.nstages, 2);
	assert_str(plan.stages[0].name, "build");
	assert_str(plan.stages[1].name, "run");
	assert_true(plan.stages[1].nonce_fd);
	assert_true(plan.stages[1].candidate);
	p = keep(f, xasprintf("%s/case1.in", f->dir));
	assert_int_equal(access(p, F_OK), 0);
	p = keep(f, xasprintf("%s/case1.out", f->dir));
	assert_int_equal(access(p, F_OK), -1);
	/* but it is an input of the run */
	assert_non_null(strstr(buf_str(&plan.inputs), "case1.out"));
	env_plan_release(&plan);
	candidate_release(&c);
	task_release(&t);
}

static void
judge_prog(const char *run_log, struct run *r)
{
	struct env_stage_result res[2] = { { 0 } };
	struct env_plan plan;
	struct task t;

	make_task(&t, "supercoder/p", "x86-asm", "{\"mode\":\"program\"}");
	task_add_file(&t, "case1.in", "data", "1\n", 2);
	task_add_file(&t, "case1.out", "data", "2\n", 2);
	task_add_file(&t, "case2.in", "data", "2\n", 2);
	task_add_file(&t, "case2.out", "data", "3\n4\n", 4);
	env_plan_init(&plan);
	snprintf(plan.nonce, sizeof plan.nonce, "PTEST");
	res[0].ran = res[1].ran = 1;
	res[0].log = "$ gcc -no-pie -o prog cand.s -lm\n";
	res[0].log_len = strlen(res[0].log);
	res[1].log = run_log;
	res[1].log_len = strlen(run_log);
	memset(r, 0, sizeof *r);
	env_x86asm.judge(&t, &plan, res, 2, ENV_STOP_NONE, r);
	env_plan_release(&plan);
	task_release(&t);
}

static void
test_x86prog_judge(void **state)
{
	struct run r;

	(void)state;
	judge_prog("$ sh -c ...\n2\n\nPTEST case 1 status 0\n3\n4\n"
	    "\nPTEST case 2 status 0\n", &r);
	assert_str(r.verdict, "pass");
	assert_str(r.metrics, "{\"cases\":2,\"passed\":2}");
	run_release(&r);

	/* a line the program prints as a marker, without the secret, is its
	 * output; the second case then differs */
	judge_prog("$ sh -c ...\n2\n\nPTEST case 1 status 0\n3\ncase 2 status"
	    " 0\n\nPTEST case 2 status 0\n", &r);
	assert_str(r.verdict, "fail");
	assert_str(r.subcategory, "mismatch");
	assert_str(r.evidence, "case 2: stdout differs at line 2: got"
	    " \"case 2 status 0\", want \"4\"");
	assert_str(r.metrics, "{\"cases\":2,\"passed\":1}");
	run_release(&r);

	judge_prog("$ sh -c ...\n\nPTEST case 1 status 139\n", &r);
	assert_str(r.verdict, "fail");
	assert_str(r.subcategory, "crash");
	assert_str(r.evidence, "case 1: exit status 139 (killed by a signal)");
	run_release(&r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
#define T(name) cmocka_unit_test_setup_teardown(name, setup, fx_teardown)
		T(test_tritonbench_layout),
		T(test_tritonbench_no_separator),
		T(test_triton_stdout_plan),
		T(test_triton_stdout_judge),
		T(test_archxbench_and_veriscope),
		T(test_jsonl_rows),
		T(test_x86prog_plan),
		T(test_x86prog_judge),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
