/*
 * test_import.c - unit tests for import.c (cmocka): every format on the
 * real benchmark data in ../shared/data (VerilogEval v2 and v1, the
 * RTLFixer sets) and on small assay JSONL files written here; format
 * detection; re-import; malformed lines (the whole file rolls back, or
 * is skipped line by line with keep_going); NaN; invalid UTF-8; an empty
 * file; the model-name rule.  Each test has its own database in a mkdtemp
 * directory.  Shared data is found at $ASSAY_SHARED/data, else
 * ../shared/data; tests that need it are skipped when it is missing.
 *
 * Expected counts were taken from the data with a few lines of Python
 * (json.loads per row, NaN read as null), not from assay.
 */
#include <dirent.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <pthread.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "base/buf.h"
#include "base/err.h"
#include "base/hash.h"
#include "exchange/import.h"
#include "model/sample.h"
#include "store/store.h"
#include "testlib.h"
#include "datafx.h"

/* Hand p to the fixture, so that a failing assertion does not leak it. */

/* Skip the test when ../shared/data is not there. */
/* A new string: path of rel under the shared data. */
static char *
data_path(struct datafx *f, const char *rel)
{
	return xasprintf("%s/%s", f->data, rel);
}

/* Write text of len bytes to dir/name; the path as a new string. */
static char *
write_file(struct datafx *f, const char *name, const char *text, size_t len)
{
	char *p = xasprintf("%s/%s", f->dir, name);
	FILE *fp = fopen(p, "wb");

	assert_non_null(fp);
	assert_int_equal(fwrite(text, 1, len, fp), len);
	assert_int_equal(fclose(fp), 0);
	return p;
}

static char *
write_text(struct datafx *f, const char *name, const char *text)
{
	return write_file(f, name, text, strlen(text));
}


static size_t
count(struct store *st, const char *filter)
{
	struct err err;
	size_t n = 12345;

	if (store_query_count(st, filter, &n, &err) < 0)
		fail_msg("store_query_count(%s): %s", filter != NULL ? filter :
		    "NULL", err.msg);
	return n;
}

/* Import with a format; fails the test on an error. */
static void
import_ok(struct datafx *f, const char *path, enum import_format fmt,
    struct import_report *rep)
{
	struct import_opts o = { fmt, 0, "tester" };
	struct err err;

	import_report_init(rep);
	if (import_path(f->st, path, &o, rep, &err) < 0)
		fail_msg("import %s: %s", path, err.msg);
}

/* The id of the only candidate under filter, as a new string. */
static char *
only_id(struct store *st, const char *filter)
{
	struct store_row *rows;
	struct err err;
	size_t n;
	char *id;

	assert_int_equal(store_query_page(st, filter, 0, 2, &rows, &n, &err), 0);
	if (n != 1)
		fail_msg("%zu candidates under '%s', want 1", n, filter);
	id = xstrdup(rows[0].id);
	store_row_release(&rows[0]);
	free(rows);
	return id;
}

static size_t
lines_of(const char *s)
{
	size_t n = 0;

	for (; *s != '\0'; s++)
		n += *s == '\n';
	return n;
}

/* --- VerilogEval v2 -------------------------------------------------- */

static void
test_import_vev2_directory(void **state)
{
	struct datafx *f = *state;
	struct import_report rep;
	struct candidate c;
	struct task t;
	struct err err;
	char *dir, *want, *ref, *test, *prompt, *id, *p;
	const char *w;

	datafx_need_data(f);
	dir = data_path(f, "verilog-eval-v2");
	import_ok(f, dir, IMPORT_VEV2, &rep);
	assert_int_equal(rep.tasks_added, 40);
	assert_int_equal(rep.tasks_existing, 0);
	assert_int_equal(rep.cands_added, 40);
	assert_int_equal(rep.cands_existing, 0);
	assert_int_equal(rep.skipped, 0);
	/* The stray testbench copy is warned about; LICENSE is not. */
	w = buf_str(&rep.warnings);
	assert_int_equal(lines_of(w), 1);
	assert_non_null(strstr(w, "Prob062_bugs_mux2.sv"));
	assert_null(strstr(w, "LICENSE"));
	import_report_release(&rep);
	assert_int_equal(count(f->st, NULL), 40);
	assert_int_equal(count(f->st, "origin=reference"), 40);
	assert_int_equal(count(f->st, "benchmark=verilog-eval-v2"), 40);
	/* The stray file made no task of its own. */
	assert_int_equal(count(f->st, "task~bugs_mux2"), 1);

	assert_int_equal(store_task_get(f->st, "verilog-eval-v2/Prob041_dff8r",
	    &t, &err), 0);
	assert_string_equal(t.benchmark, "verilog-eval-v2");
	assert_string_equal(t.env, "iverilog");
	assert_string_equal(t.domain, "chip");
	p = xasprintf("%s/Prob041_dff8r_prompt.txt", dir);
	prompt = read_text(p);
	free(p);
	assert_string_equal(t.spec, prompt);
	assert_int_equal(t.nfiles, 2);
	p = xasprintf("%s/Prob041_dff8r_test.sv", dir);
	test = read_text(p);
	free(p);
	p = xasprintf("%s/Prob041_dff8r_ref.sv", dir);
	ref = read_text(p);
	free(p);
	assert_non_null(task_file_by_role(&t, "testbench"));
	assert_string_equal(task_file_by_role(&t, "testbench")->name,
	    "Prob041_dff8r_test.sv");
	assert_int_equal(task_file_by_role(&t, "testbench")->len, strlen(test));
	assert_memory_equal(task_file_by_role(&t, "testbench")->data, test,
	    strlen(test));
	assert_non_null(task_file_by_role(&t, "reference"));
	assert_string_equal(task_file_by_role(&t, "reference")->name,
	    "Prob041_dff8r_ref.sv");
	assert_memory_equal(task_file_by_role(&t, "reference")->data, ref,
	    strlen(ref));
	task_release(&t);

	/* The reference candidate: the ref renamed to TopModule. */
	id = only_id(f->st, "task=verilog-eval-v2/Prob041_dff8r");
	assert_int_equal(store_candidate_get(f->st, id, &c, &err), 0);
	assert_string_equal(c.origin, "reference");
	assert_string_equal(c.lang, "verilog");
	p = strstr(ref, "module RefModule");
	assert_non_null(p);
	want = xasprintf("%.*smodule TopModule%s", (int)(p - ref), ref,
	    p + strlen("module RefModule"));
	assert_string_equal(c.code, want);
	assert_null(strstr(c.code, "RefModule"));
	candidate_release(&c);
	free(want);
	free(id);
	free(ref);
	free(test);
	free(prompt);
	free(dir);
}

static void
test_import_vev2_auto_and_reimport(void **state)
{
	struct datafx *f = *state;
	struct import_report rep;
	char *dir;

	datafx_need_data(f);
	dir = data_path(f, "verilog-eval-v2");
	import_ok(f, dir, IMPORT_AUTO, &rep);
	assert_int_equal(rep.tasks_added, 40);
	assert_int_equal(rep.cands_added, 40);
	import_report_release(&rep);
	/* Again, and by another spelling of the same path: nothing new. */
	{
		char *other = xasprintf("%s/../verilog-eval-v2/", dir);

		import_ok(f, other, IMPORT_AUTO, &rep);
		free(other);
	}
	assert_int_equal(rep.tasks_added, 0);
	assert_int_equal(rep.tasks_existing, 40);
	assert_int_equal(rep.cands_added, 0);
	assert_int_equal(rep.cands_existing, 40);
	import_report_release(&rep);
	assert_int_equal(count(f->st, NULL), 40);
	free(dir);
}

/* A directory with one problem and its stray files, written here. */
static void
test_import_vev2_incomplete_problem_warned(void **state)
{
	struct datafx *f = *state;
	struct import_report rep;
	char *dir = xasprintf("%s/v2", f->dir);

	assert_int_equal(mkdir(dir, 0755), 0);
	free(write_text(f, "v2/Prob001_zero_prompt.txt", "Output zero.\n"));
	free(write_text(f, "v2/Prob001_zero_test.sv", "module tb; endmodule\n"));
	free(write_text(f, "v2/Prob001_zero_ref.sv",
	    "module RefModule(output zero);\n  assign zero = 0;\nendmodule\n"));
	free(write_text(f, "v2/Prob002_half_prompt.txt", "No testbench.\n"));
	free(write_text(f, "v2/notes.txt", "stray\n"));
	import_ok(f, dir, IMPORT_AUTO, &rep);
	assert_int_equal(rep.tasks_added, 1);
	assert_int_equal(rep.cands_added, 1);
	assert_int_equal(lines_of(buf_str(&rep.warnings)), 2);
	assert_non_null(strstr(buf_str(&rep.warnings), "Prob002_half_prompt.txt"));
	assert_non_null(strstr(buf_str(&rep.warnings), "notes.txt"));
	import_report_release(&rep);
	{
		char *id = only_id(f->st, NULL);
		struct candidate c;
		struct err err;

		assert_int_equal(store_candidate_get(f->st, id, &c, &err), 0);
		assert_string_equal(c.code, "module TopModule(output zero);\n"
		    "  assign zero = 0;\nendmodule\n");
		candidate_release(&c);
		free(id);
	}
	free(dir);
}

/*
 * An empty directory is an error naming it, with either format choice.
 * Run in a child: list_dir() used to pass NULL to qsort() for an empty
 * directory, which UBSan stops the whole process for.
 */
static void
test_import_empty_directory_is_error(void **state)
{
	static const enum import_format fmts[] = { IMPORT_VEV2, IMPORT_AUTO };
	struct datafx *f = *state;
	char *dir = datafx_keep(f, xasprintf("%s/empty", f->dir));

	assert_int_equal(mkdir(dir, 0755), 0);
	for (size_t i = 0; i < sizeof fmts / sizeof fmts[0]; i++) {
		pid_t pid;
		int status;

		fflush(NULL);
		pid = fork();
		assert_true(pid >= 0);
		if (pid == 0) {
			struct import_opts o = { fmts[i], 0, "tester" };
			struct import_report rep;
			struct err err;
			int rc;

			import_report_init(&rep);
			err_clear(&err);
			rc = import_path(f->st, dir, &o, &rep, &err);
			import_report_release(&rep);
			_exit(rc == -1 && strstr(err.msg, dir) != NULL ? 0 : 9);
		}
		assert_int_equal(waitpid(pid, &status, 0), pid);
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
			fail_msg("import of an empty directory (format %s): %s %d",
			    import_format_name(fmts[i]), WIFEXITED(status) ?
			    "exit status" : "killed by signal", WIFEXITED(status) ?
			    WEXITSTATUS(status) : WTERMSIG(status));
	}
	assert_int_equal(count(f->st, NULL), 0);
}

/* --- VerilogEval v1 -------------------------------------------------- */

static void
test_import_vev1_file_set(void **state)
{
	struct datafx *f = *state;
	struct import_report rep;
	struct store_row *rows;
	struct err err;
	struct task t;
	size_t n, pass = 0, fail = 0, compile = 0, simulate = 0;
	char *dir;

	datafx_need_data(f);
	dir = data_path(f, "verilog-eval-v1");
	import_ok(f, dir, IMPORT_AUTO, &rep);
	assert_int_equal(rep.tasks_added, 3);
	assert_int_equal(rep.cands_added, 9);
	assert_int_equal(rep.cands_existing, 0);
	import_report_release(&rep);
	assert_int_equal(count(f->st, "benchmark=verilog-eval-v1"), 9);
	assert_int_equal(count(f->st, "origin=reference"), 3);
	/* The last line of ExampleEval.jsonl has no newline: still a task. */
	assert_int_equal(store_task_get(f->st, "verilog-eval-v1/zero", &t,
	    &err), 0);
	assert_non_null(task_file_by_role(&t, "testbench"));
	assert_string_equal(task_file_by_role(&t, "testbench")->name, "test.sv");
	assert_non_null(t.spec);	/* from ExampleDescriptions.jsonl */
	assert_non_null(t.interface);
	assert_non_null(strstr(t.interface, "module top_module"));
	task_release(&t);

	assert_int_equal(store_query_page(f->st, "origin!=reference", 0, 20,
	    &rows, &n, &err), 0);
	assert_int_equal(n, 6);
	for (size_t i = 0; i < n; i++) {
		struct recorded *rec;
		size_t nr;

		assert_int_equal(store_recorded_list(f->st, rows[i].id, &rec,
		    &nr, &err), 0);
		assert_int_equal(nr, 1);
		if (strcmp(rec[0].verdict, "pass") == 0)
			pass++;
		else if (strcmp(rec[0].verdict, "fail") == 0)
			fail++;
		if (rec[0].stage != NULL && strcmp(rec[0].stage, "compile") == 0)
			compile++;
		if (rec[0].stage != NULL && strcmp(rec[0].stage, "simulate") == 0)
			simulate++;
		recorded_release(&rec[0]);
		free(rec);
		store_row_release(&rows[i]);
	}
	free(rows);
	assert_int_equal(pass, 3);
	assert_int_equal(fail, 3);
	assert_int_equal(compile, 1);	/* "failed: syntax error." */
	assert_int_equal(simulate, 2);	/* "failed: N out of M samples." */

	/* Naming one file of the set imports the set: nothing new. */
	{
		char *p = data_path(f, "verilog-eval-v1/ExampleSolution.jsonl");

		import_ok(f, p, IMPORT_AUTO, &rep);
		assert_int_equal(rep.cands_added, 0);
		assert_int_equal(rep.cands_existing, 9);
		import_report_release(&rep);
		free(p);
	}
	free(dir);
}

/* --- RTLFixer -------------------------------------------------------- */

static void
test_import_model_from_log(void **state)
{
	static const struct { const char *log, *model; } cases[] = {
		{ "verilogeval-machine..gz_simple_iter_1_num_sample_8_cot_"
		  "codellama2-13b_pass_at_k_1_verilog.jsonl", "codellama2-13b" },
		{ "verilogeval-machine..gz_reflexion-verilog_2_gpt-4_pass_at_k_"
		  "1_verilog.jsonl", "gpt-4" },
		{ "verilogeval-manual..gz_explo2_iter_15_num_sample_11_"
		  "openaifunc_gpt-3.5-turbo-16k-0613_pass_at_k_1_verilog.jsonl",
		  "gpt-3.5-turbo-16k-0613" },
		{ "x_react_starchat_pass_at_k_1.jsonl", "starchat" },
		{ "a_cot_b_react_c_pass_at_k", "c" },
		{ "no-rule-here", "no-rule-here" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *m = import_model_from_log(cases[i].log);

		assert_string_equal(m, cases[i].model);
		free(m);
	}
}

static void
test_import_nan_to_null(void **state)
{
	static const char in[] = "{\"a\": NaN, \"b\": \"NaN\", \"c\": [NaN,1,"
	    "NaN], \"d\": \"x \\\" NaN\", \"e\":NaN}";
	static const char want[] = "{\"a\": null, \"b\": \"NaN\", \"c\": [null,"
	    "1,null], \"d\": \"x \\\" NaN\", \"e\":null}";
	size_t len = 0;
	char *out;

	(void)state;
	out = import_nan_to_null(in, strlen(in), &len);
	assert_int_equal(len, strlen(want));
	assert_string_equal(out, want);
	free(out);
	/* NaN as part of a longer token is not NaN. */
	out = import_nan_to_null("[NaNx, xNaN]", 12, &len);
	assert_string_equal(out, "[NaNx, xNaN]");
	free(out);
	out = import_nan_to_null("NaN", 3, &len);
	assert_string_equal(out, "null");
	assert_int_equal(len, 4);
	free(out);
}

static void
test_import_rtlfixer_syntax_set(void **state)
{
	struct datafx *f = *state;
	struct import_report rep;
	struct candidate c;
	struct recorded *rec;
	struct task t;
	struct err err;
	size_t nr;
	char *path, *id, *src;

	datafx_need_data(f);
	path = data_path(f, "rtlfixer/verilogeval-syntax.jsonl");
	import_ok(f, path, IMPORT_AUTO, &rep);
	assert_int_equal(rep.tasks_added, 88);
	assert_int_equal(rep.tasks_existing, 174 - 88);
	assert_int_equal(rep.cands_added, 174);
	assert_int_equal(rep.skipped, 0);
	assert_int_equal(rep.warnings.len, 0);
	import_report_release(&rep);
	assert_int_equal(count(f->st, "benchmark=rtlfixer"), 174);
	assert_int_equal(count(f->st, "origin=codellama2-13b"), 55);
	assert_int_equal(count(f->st, "origin=gpt-4-0613"), 4);

	/* Row 1: 2012_q2b, a body without its header: prompt + solution. */
	src = xasprintf("source=%s:1", path);
	id = only_id(f->st, src);
	free(src);
	assert_int_equal(store_candidate_get(f->st, id, &c, &err), 0);
	assert_string_equal(c.task_id, "rtlfixer/2012_q2b");
	assert_string_equal(c.origin, "codellama2-13b");
	assert_string_equal(c.origin_raw, "verilogeval-machine..gz_simple_iter_"
	    "1_num_sample_8_cot_codellama2-13b_pass_at_k_1_verilog.jsonl");
	assert_string_equal(c.code, "module top_module (\n\tinput [5:0] y,\n"
	    "\tinput w,\n\toutput Y1,\n\toutput Y3\n);\n"
	    "always @*\nbegin\n\tY1 = y[0] & w;\n"
	    "\tY3 = (y[1] | y[2] | y[4] | y[5]) & ~w;\nend\n\nendmodule");
	candidate_release(&c);
	assert_int_equal(store_recorded_list(f->st, id, &rec, &nr, &err), 0);
	assert_int_equal(nr, 1);
	assert_string_equal(rec[0].verdict, "fail");
	assert_string_equal(rec[0].stage, "compile");
	assert_string_equal(rec[0].log, "2012_q2b.sv:168: error: Y1 is not a"
	    " valid l-value in tb.top_module1.\n2012_q2b.sv:162:      : Y1 is"
	    " declared here as wire.\n2012_q2b.sv:169: error: Y3 is not a valid"
	    " l-value in tb.top_module1.\n2012_q2b.sv:163:      : Y3 is"
	    " declared here as wire.\n2012_q2b.sv:166: warning: @* found no"
	    " sensitivities so it will never trigger.\n2 error(s) during"
	    " elaboration.");
	recorded_release(&rec[0]);
	free(rec);
	free(id);

	/* The task: namespaced id, the testbench as a task file. */
	assert_int_equal(store_task_get(f->st, "rtlfixer/2012_q2b", &t, &err),
	    0);
	assert_string_equal(t.benchmark, "rtlfixer");
	assert_int_equal(t.nfiles, 1);
	assert_string_equal(t.files[0].role, "testbench");
	assert_non_null(strstr(t.files[0].data, "module reference_module"));
	task_release(&t);

	/* Row 5: 2013_q2bfsm, a whole module: the solution as it is. */
	src = xasprintf("source=%s:5", path);
	id = only_id(f->st, src);
	free(src);
	assert_int_equal(store_candidate_get(f->st, id, &c, &err), 0);
	assert_string_equal(c.task_id, "rtlfixer/2013_q2bfsm");
	assert_true(strncmp(c.code, "module top_module", 17) == 0 ||
	    strstr(c.code, "module top_module") != NULL);
	assert_int_equal(c.code_len, strlen(c.code));
	{
		/* Exactly once: no header glued in front. */
		const char *first = strstr(c.code, "module top_module");

		assert_null(strstr(first + 1, "module top_module"));
	}
	candidate_release(&c);
	free(id);
	free(path);
}

static void
test_import_rtlfixer_reimport_adds_nothing(void **state)
{
	struct datafx *f = *state;
	struct import_report rep;
	char *path, *copy, *text;

	datafx_need_data(f);
	path = data_path(f, "rtlfixer/verilogeval-syntax.jsonl");
	import_ok(f, path, IMPORT_RTLFIXER, &rep);
	assert_int_equal(rep.cands_added, 174);
	import_report_release(&rep);
	import_ok(f, path, IMPORT_RTLFIXER, &rep);
	assert_int_equal(rep.tasks_added, 0);
	assert_int_equal(rep.cands_added, 0);
	assert_int_equal(rep.cands_existing, 174);
	import_report_release(&rep);
	/* Identity is not the path: a copy elsewhere adds nothing either. */
	text = read_text(path);
	copy = write_text(f, "renamed.jsonl", text);
	import_ok(f, copy, IMPORT_AUTO, &rep);
	assert_int_equal(rep.cands_added, 0);
	assert_int_equal(rep.cands_existing, 174);
	import_report_release(&rep);
	assert_int_equal(count(f->st, NULL), 174);
	free(text);
	free(copy);
	free(path);
}

static void
test_import_rtlfixer_simulate_set_nan(void **state)
{
	struct datafx *f = *state;
	struct import_report rep;
	struct recorded *rec;
	struct err err;
	size_t nr;
	char *path, *src, *id;

	datafx_need_data(f);
	/* Every row of this file has "compiler_error": NaN. */
	path = data_path(f, "rtlfixer/verilogeval-simulate.jsonl");
	import_ok(f, path, IMPORT_AUTO, &rep);
	assert_int_equal(rep.tasks_added, 123);
	assert_int_equal(rep.cands_added, 347);
	import_report_release(&rep);
	src = xasprintf("source=%s:1", path);
	id = only_id(f->st, src);
	free(src);
	assert_int_equal(store_recorded_list(f->st, id, &rec, &nr, &err), 0);
	assert_int_equal(nr, 1);
	assert_string_equal(rec[0].verdict, "fail");
	assert_string_equal(rec[0].stage, "simulate");
	assert_non_null(strstr(rec[0].extra, "\"compiler_error\":null"));
	assert_non_null(strstr(rec[0].extra, "\"index\":9707"));
	assert_true(strncmp(rec[0].log, "VCD info: dumpfile wave.vcd", 27) == 0);
	recorded_release(&rec[0]);
	free(rec);
	free(id);
	free(path);
}

/* A small RTLFixer row: NaN outside strings, "NaN" inside one. */
static void
test_import_rtlfixer_bare_nan_is_null(void **state)
{
	struct datafx *f = *state;
	struct import_report rep;
	struct recorded *rec;
	struct candidate c;
	struct err err;
	size_t nr;
	char *path, *id;

	path = write_text(f, "nan.jsonl",
	    "{\"index\": 1, \"task_id\": \"t\", \"solution\": \"assign z = 0;"
	    " // NaN\\nendmodule\\n\", \"log\": \"g_cot_m1_pass_at_k_1\","
	    " \"compiler_error\": NaN, \"simulate_error\": \"NaN mismatches\","
	    " \"prompt\": \"module top_module(output z);\\n\", \"test\":"
	    " \"module tb; endmodule\\n\", \"score\": NaN}\n");
	import_ok(f, path, IMPORT_AUTO, &rep);
	assert_int_equal(rep.cands_added, 1);
	import_report_release(&rep);
	id = only_id(f->st, "task=rtlfixer/t");
	assert_int_equal(store_candidate_get(f->st, id, &c, &err), 0);
	assert_string_equal(c.origin, "m1");
	assert_string_equal(c.code, "module top_module(output z);\n"
	    "assign z = 0; // NaN\nendmodule\n");
	assert_string_equal(c.extra, "{\"score\":null}");
	candidate_release(&c);
	assert_int_equal(store_recorded_list(f->st, id, &rec, &nr, &err), 0);
	assert_int_equal(nr, 1);
	assert_string_equal(rec[0].stage, "simulate");
	assert_string_equal(rec[0].log, "NaN mismatches");
	assert_string_equal(rec[0].extra, "{\"compiler_error\":null,"
	    "\"simulate_error\":\"NaN mismatches\",\"index\":1}");
	recorded_release(&rec[0]);
	free(rec);
	free(id);
	free(path);
}

/* --- the assay format ------------------------------------------------ */

static const char assay_rows[] =
    "{\"task\": {\"id\": \"local/and2\", \"env\": \"iverilog\","
    " \"spec\": \"An AND gate.\", \"env_params\": {\"top\": \"tb\"},"
    " \"files\": {\"and2_test.sv\": \"module tb; endmodule\\n\"},"
    " \"reference\": \"module TopModule(input a, b, output y);"
    " assign y = a & b; endmodule\\n\", \"colour\": \"blue\"}}\n"
    "{\"task\": \"local/and2\", \"candidate\": {\"origin\": \"gpt-4\","
    " \"code\": \"module TopModule(input a, b, output y);"
    " assign y = a | b; endmodule\\n\", \"mood\": \"bold\"},"
    " \"labels\": [{\"category\": \"functional\", \"subcategory\":"
    " \"mismatch\", \"by\": \"ann\", \"note\": \"OR not AND\"}],"
    " \"review\": {\"status\": \"rejected\", \"by\": \"ann\"},"
    " \"batch\": 7}\n";

static void
test_import_assay_format(void **state)
{
	struct datafx *f = *state;
	struct import_report rep;
	struct store_decision d;
	struct candidate c;
	struct task t;
	struct err err;
	char *path, *id;

	path = write_text(f, "rows.jsonl", assay_rows);
	import_ok(f, path, IMPORT_AUTO, &rep);
	assert_int_equal(rep.tasks_added, 1);
	assert_int_equal(rep.cands_added, 2);	/* reference + gpt-4 */
	assert_int_equal(rep.warnings.len, 0);
	import_report_release(&rep);

	assert_int_equal(store_task_get(f->st, "local/and2", &t, &err), 0);
	assert_string_equal(t.benchmark, "local");
	assert_string_equal(t.spec, "An AND gate.");
	assert_string_equal(t.env_params, "{\"top\":\"tb\"}");
	assert_string_equal(t.extra, "{\"colour\":\"blue\"}");
	assert_int_equal(t.nfiles, 1);
	assert_string_equal(t.files[0].name, "and2_test.sv");
	assert_string_equal(t.files[0].role, "testbench");
	task_release(&t);

	id = only_id(f->st, "origin=reference");
	assert_int_equal(store_candidate_get(f->st, id, &c, &err), 0);
	assert_string_equal(c.lang, "verilog");
	assert_non_null(strstr(c.code, "a & b"));
	candidate_release(&c);
	free(id);

	id = only_id(f->st, "origin=gpt-4");
	assert_int_equal(store_candidate_get(f->st, id, &c, &err), 0);
	assert_string_equal(c.task_id, "local/and2");
	assert_string_equal(c.kind, "direct");
	assert_string_equal(c.lang, "verilog");
	assert_string_equal(c.extra, "{\"mood\":\"bold\",\"$row\":{\"batch\":7}}");
	{
		char *src = xasprintf("%s:2", path);

		assert_string_equal(c.source, src);
		free(src);
	}
	candidate_release(&c);
	assert_int_equal(store_decision_get(f->st, id, &d, &err), 0);
	assert_string_equal(d.category, "functional");
	assert_string_equal(d.subcategory, "mismatch");
	assert_string_equal(d.label_by, "ann");
	assert_string_equal(d.label_note, "OR not AND");
	assert_string_equal(d.status, "rejected");
	assert_string_equal(d.review_by, "ann");
	store_decision_release(&d);
	free(id);

	/* Again: nothing new, and the decisions are not doubled. */
	import_ok(f, path, IMPORT_ASSAY, &rep);
	assert_int_equal(rep.tasks_added, 0);
	assert_int_equal(rep.cands_added, 0);
	assert_int_equal(rep.cands_existing, 2);
	import_report_release(&rep);
	{
		struct store_event *ev;
		size_t n, labels = 0;

		assert_int_equal(store_event_list(f->st, NULL, &ev, &n, &err), 0);
		for (size_t i = 0; i < n; i++) {
			labels += strcmp(ev[i].action, "label") == 0;
			store_event_release(&ev[i]);
		}
		free(ev);
		assert_int_equal(labels, 1);
	}
	free(path);
}

static void
test_import_assay_parent_and_recorded(void **state)
{
	struct datafx *f = *state;
	struct import_report rep;
	struct recorded *rec;
	struct candidate c;
	struct err err;
	size_t nr;
	char *path;

	path = datafx_keep(f, write_text(f, "repair.jsonl",
	    "{\"task\": {\"id\": \"local/r\", \"env\": \"iverilog\"},"
	    " \"candidate\": {\"id\": \"cfeed01\", \"origin\": \"m\","
	    " \"code\": \"broken\"}, \"recorded\": [{\"verdict\": \"fail\","
	    " \"stage\": \"compile\", \"log\": \"x.sv:1: syntax error\","
	    " \"tool\": \"iverilog 10\"}]}\n"
	    "{\"task\": \"local/r\", \"candidate\": {\"origin\": \"human\","
	    " \"kind\": \"repair\", \"parent\": \"cfeed\", \"code\":"
	    " \"fixed\"}}\n"));
	import_ok(f, path, IMPORT_AUTO, &rep);
	assert_int_equal(rep.cands_added, 2);
	import_report_release(&rep);
	assert_int_equal(store_recorded_list(f->st, "cfeed01", &rec, &nr, &err),
	    0);
	assert_int_equal(nr, 1);
	assert_string_equal(rec[0].verdict, "fail");
	assert_string_equal(rec[0].stage, "compile");
	assert_string_equal(rec[0].log, "x.sv:1: syntax error");
	assert_non_null(strstr(rec[0].extra, "\"tool\":\"iverilog 10\""));
	recorded_release(&rec[0]);
	free(rec);
	{
		char *id = only_id(f->st, "kind=repair");

		assert_int_equal(store_candidate_get(f->st, id, &c, &err), 0);
		free(id);
	}
	assert_string_equal(c.parent, "cfeed01");
	assert_string_equal(c.origin, "human");
	candidate_release(&c);
	assert_int_equal(count(f->st, "parent=cfeed01"), 1);
}

/* Errors that the store finds in a row still name the file and line. */
static void
test_import_assay_duplicate_id_names_line(void **state)
{
	struct datafx *f = *state;
	struct import_opts o = { IMPORT_ASSAY, 0, "tester" };
	struct import_report rep;
	struct err err;
	char *path, *want;

	path = datafx_keep(f, write_text(f, "dup.jsonl",
	    "{\"task\": {\"id\": \"local/d\", \"env\": \"iverilog\"},"
	    " \"candidate\": {\"id\": \"cdup\", \"code\": \"one\"}}\n"
	    "{\"task\": \"local/d\", \"candidate\": {\"id\": \"cdup\","
	    " \"code\": \"two\"}}\n"));
	import_report_init(&rep);
	err_clear(&err);
	assert_int_equal(import_path(f->st, path, &o, &rep, &err), -1);
	import_report_release(&rep);
	assert_int_equal(count(f->st, NULL), 0);
	want = datafx_keep(f, xasprintf("%s:2: ", path));
	if (strncmp(err.msg, want, strlen(want)) != 0)
		fail_msg("error \"%s\" does not start with \"%s\"", err.msg, want);
}

static void
test_import_assay_unknown_task_is_error(void **state)
{
	struct datafx *f = *state;
	struct import_opts o = { IMPORT_ASSAY, 0, "tester" };
	struct import_report rep;
	struct err err;
	char *path, *want;

	path = write_text(f, "orphan.jsonl", "{\"task\": \"local/none\","
	    " \"candidate\": {\"code\": \"x\"}}\n");
	import_report_init(&rep);
	err_clear(&err);
	assert_int_equal(import_path(f->st, path, &o, &rep, &err), -1);
	want = xasprintf("%s:1: unknown task", path);
	assert_string_equal(err.msg, want);
	import_report_release(&rep);
	assert_int_equal(count(f->st, NULL), 0);
	free(want);
	free(path);
}

/* --- malformed input --------------------------------------------------- */

/* Four rows, the third not JSON. */
static const char bad_rows[] =
    "{\"task\": {\"id\": \"local/t\", \"env\": \"iverilog\"},"
    " \"candidate\": {\"origin\": \"m\", \"code\": \"one\"}}\n"
    "{\"task\": \"local/t\", \"candidate\": {\"origin\": \"m\","
    " \"code\": \"two\"}}\n"
    "{\"task\": \"local/t\", \"candidate\": {\"origin\": \"m\", \"code\":\n"
    "{\"task\": \"local/t\", \"candidate\": {\"origin\": \"m\","
    " \"code\": \"four\"}}\n";

static void
test_import_malformed_line_rolls_back_file(void **state)
{
	struct datafx *f = *state;
	struct import_opts o = { IMPORT_AUTO, 0, "tester" };
	struct import_report rep;
	struct task t;
	struct err err;
	char *path, *want;

	path = write_text(f, "bad.jsonl", bad_rows);
	assert_int_equal(count(f->st, NULL), 0);
	import_report_init(&rep);
	err_clear(&err);
	assert_int_equal(import_path(f->st, path, &o, &rep, &err), -1);
	want = xasprintf("%s:3: invalid JSON", path);
	if (strncmp(err.msg, want, strlen(want)) != 0)
		fail_msg("error \"%s\" does not start with \"%s\"", err.msg, want);
	import_report_release(&rep);
	/* Nothing of the file stays: no candidate, no task. */
	assert_int_equal(count(f->st, NULL), 0);
	assert_int_equal(store_task_get(f->st, "local/t", &t, &err), 1);
	free(want);
	free(path);
}

static void
test_import_keep_going_skips_bad_line(void **state)
{
	struct datafx *f = *state;
	struct import_opts o = { IMPORT_ASSAY, 1, "tester" };
	struct import_report rep;
	struct err err;
	char *path, *want;

	path = write_text(f, "bad.jsonl", bad_rows);
	import_report_init(&rep);
	assert_int_equal(import_path(f->st, path, &o, &rep, &err), 0);
	assert_int_equal(rep.skipped, 1);
	assert_int_equal(rep.tasks_added, 1);
	assert_int_equal(rep.cands_added, 3);
	want = xasprintf("%s:3: invalid JSON", path);
	assert_non_null(strstr(buf_str(&rep.warnings), want));
	assert_non_null(strstr(buf_str(&rep.warnings), "(skipped)"));
	assert_int_equal(lines_of(buf_str(&rep.warnings)), 1);
	import_report_release(&rep);
	assert_int_equal(count(f->st, NULL), 3);
	free(want);
	free(path);
}

/*
 * A file big enough to be parsed ahead on a thread of its own (ADR
 * 0031): 3,000 rows of one task, row 1,777 cut short.  Without
 * keep_going the error names line 1,777 and nothing stays; with it just
 * that row is skipped, and the candidates of the other rows are there,
 * each with its own line as its source (the rows came in file order).
 */
static char *
big_rows(struct datafx *f)
{
	struct buf b = BUF_INIT;
	char *path;

	buf_adds(&b, "{\"task\": {\"id\": \"local/big\", \"env\": \"iverilog\"}}\n");
	for (int k = 2; k <= 3000; k++) {
		if (k == 1777)
			buf_adds(&b, "{\"task\": \"local/big\", \"candidate\":"
			    " {\"code\":\n");
		else
			buf_printf(&b, "{\"task\": \"local/big\", \"candidate\":"
			    " {\"origin\": \"m\", \"code\": \"module m%d; endmodule"
			    " // padding the row past a few dozen bytes\"}}\n", k);
	}
	assert_true(b.len > 64 * 1024);
	path = write_file(f, "big.jsonl", buf_str(&b), b.len);
	buf_release(&b);
	return path;
}

static void
test_import_big_file_bad_row(void **state)
{
	struct datafx *f = *state;
	struct import_opts o = { IMPORT_AUTO, 0, "tester" };
	struct import_report rep;
	struct candidate c;
	struct err err;
	char *path = datafx_keep(f, big_rows(f)), *want;

	import_report_init(&rep);
	assert_int_equal(import_path(f->st, path, &o, &rep, &err), -1);
	want = datafx_keep(f, xasprintf("%s:1777: invalid JSON", path));
	if (strncmp(err.msg, want, strlen(want)) != 0)
		fail_msg("error \"%s\" does not start with \"%s\"", err.msg,
		    want);
	import_report_release(&rep);
	assert_int_equal(count(f->st, NULL), 0);

	o.keep_going = 1;
	import_report_init(&rep);
	assert_int_equal(import_path(f->st, path, &o, &rep, &err), 0);
	assert_int_equal(rep.skipped, 1);
	assert_int_equal(rep.cands_added, 2998);
	assert_non_null(strstr(buf_str(&rep.warnings), want));
	import_report_release(&rep);
	assert_int_equal(count(f->st, NULL), 2998);
	/* the candidate of row 2,500 has that row's line as its source:
	 * adding its identity again gives its id */
	{
		struct candidate q = { 0 };
		char *src = xasprintf("%s:2500", path);
		int ins = 1;

		q.task_id = xstrdup("local/big");
		q.origin = xstrdup("m");
		q.kind = xstrdup("direct");
		q.lang = xstrdup("verilog");
		import_set_code(&q, "module m2500; endmodule // padding the"
		    " row past a few dozen bytes");
		if (store_candidate_add(f->st, &q, &ins, &err) < 0)
			fail_msg("add: %s", err.msg);
		assert_int_equal(ins, 0);
		assert_int_equal(store_candidate_get(f->st, q.id, &c, &err), 0);
		assert_string_equal(c.source, src);
		free(src);
		candidate_release(&c);
		candidate_release(&q);
	}
	assert_int_equal(count(f->st, NULL), 2998);
}

/*
 * keep_going over rows that fail before they write anything (an unknown
 * task, an unknown parent) and rows that fail after (a task written,
 * then a bad kind), mixed with good rows: each bad row is skipped whole,
 * the good rows are all there, and the search index holds the good
 * rows' code only.  (A row that wrote nothing is released rather than
 * rolled back; one that wrote is rolled back.)
 */
static void
test_import_keep_going_mixed_failures(void **state)
{
	struct datafx *f = *state;
	struct import_opts o = { IMPORT_ASSAY, 1, "tester" };
	struct import_report rep;
	struct buf b = BUF_INIT;
	struct task t;
	struct err err;
	char *path;

	buf_adds(&b, "{\"task\": {\"id\": \"local/mix\", \"env\": \"iverilog\"}}\n");
	for (int k = 2; k <= 600; k++) {
		if (k % 3 == 0)
			buf_printf(&b, "{\"task\": \"local/none\", \"candidate\":"
			    " {\"code\": \"lost_word_%d\"}}\n", k);
		else if (k % 5 == 0)
			buf_printf(&b, "{\"task\": \"local/mix\", \"candidate\":"
			    " {\"code\": \"orphan_word_%d\", \"parent\":"
			    " \"cnosuch\"}}\n", k);
		else if (k % 7 == 0)
			buf_printf(&b, "{\"task\": {\"id\": \"local/half%d\","
			    " \"env\": \"iverilog\"}, \"candidate\": {\"code\":"
			    " \"half_word_%d\", \"kind\": \"sideways\"}}\n", k, k);
		else
			buf_printf(&b, "{\"task\": \"local/mix\", \"candidate\":"
			    " {\"code\": \"module good_word_%d; endmodule\"}}\n",
			    k);
	}
	path = datafx_keep(f, write_file(f, "mix.jsonl", buf_str(&b), b.len));
	buf_release(&b);
	import_report_init(&rep);
	assert_int_equal(import_path(f->st, path, &o, &rep, &err), 0);
	/* 2..600: 200 multiples of 3; of the rest, 80 of 5, then 45 of 7
	 * (counted in Python over the same rule) */
	assert_int_equal(rep.skipped, 200 + 80 + 45);
	assert_int_equal(rep.cands_added, 599 - 200 - 80 - 45);
	assert_int_equal(rep.tasks_added, 1);
	import_report_release(&rep);
	assert_int_equal(count(f->st, NULL), 274);
	assert_int_equal(count(f->st, "grep=lost_word_3"), 0);
	assert_int_equal(count(f->st, "grep=orphan_word_5"), 0);
	assert_int_equal(count(f->st, "grep=half_word_7"), 0);
	assert_int_equal(count(f->st, "grep=good_word_599"), 1);
	assert_int_equal(store_task_get(f->st, "local/half7", &t, &err), 1);
}

/*
 * A line that fails after its task was written (the candidate's "kind" is
 * bad) is skipped whole under keep_going: its task does not stay.
 */
static void
test_import_keep_going_skips_whole_line(void **state)
{
	struct datafx *f = *state;
	struct import_opts o = { IMPORT_ASSAY, 1, "tester" };
	struct import_report rep;
	struct task t;
	struct err err;
	char *path;

	path = datafx_keep(f, write_text(f, "half.jsonl",
	    "{\"task\": {\"id\": \"local/ok\", \"env\": \"iverilog\"},"
	    " \"candidate\": {\"code\": \"a\"}}\n"
	    "{\"task\": {\"id\": \"local/half\", \"env\": \"iverilog\"},"
	    " \"candidate\": {\"code\": \"b\", \"kind\": \"sideways\"}}\n"));
	import_report_init(&rep);
	assert_int_equal(import_path(f->st, path, &o, &rep, &err), 0);
	assert_int_equal(rep.skipped, 1);
	assert_non_null(strstr(buf_str(&rep.warnings), ":2: "));
	assert_int_equal(rep.cands_added, 1);
	assert_int_equal(count(f->st, NULL), 1);
	assert_int_equal(store_task_get(f->st, "local/ok", &t, &err), 0);
	task_release(&t);
	if (store_task_get(f->st, "local/half", &t, &err) == 0) {
		task_release(&t);
		import_report_release(&rep);
		fail_msg("the skipped line 2 left its task local/half behind");
	}
	assert_int_equal(rep.tasks_added, 1);
	import_report_release(&rep);
}

static void
test_import_bad_row_rolls_back_earlier_rows(void **state)
{
	struct datafx *f = *state;
	struct import_opts o = { IMPORT_RTLFIXER, 0, "tester" };
	struct import_report rep;
	struct err err;
	char *path, *want;

	/* Valid JSON, but row 2 has no task_id. */
	path = write_text(f, "rtl.jsonl",
	    "{\"task_id\": \"a\", \"solution\": \"s\", \"test\": \"t\","
	    " \"prompt\": \"p\", \"log\": \"x_cot_m_pass_at_k\"}\n"
	    "{\"solution\": \"s\", \"test\": \"t\"}\n");
	import_report_init(&rep);
	err_clear(&err);
	assert_int_equal(import_path(f->st, path, &o, &rep, &err), -1);
	want = xasprintf("%s:2: missing \"task_id\" string", path);
	assert_string_equal(err.msg, want);
	import_report_release(&rep);
	assert_int_equal(count(f->st, NULL), 0);
	free(want);
	free(path);
}

static void
test_import_invalid_utf8_is_error(void **state)
{
	struct datafx *f = *state;
	struct import_opts o = { IMPORT_AUTO, 0, "tester" };
	static const char rows[] =
	    "{\"task\": {\"id\": \"local/u\", \"env\": \"iverilog\"},"
	    " \"candidate\": {\"origin\": \"m\", \"code\": \"ok\"}}\n"
	    "{\"task\": \"local/u\", \"candidate\": {\"origin\": \"m\","
	    " \"code\": \"bad \xff\xfe bytes\"}}\n";
	struct import_report rep;
	struct err err;
	char first[ERR_MSG_MAX];
	char *path, *want;

	path = write_text(f, "utf8.jsonl", rows);
	import_report_init(&rep);
	err_clear(&err);
	assert_int_equal(import_path(f->st, path, &o, &rep, &err), -1);
	want = xasprintf("%s:2: ", path);
	if (strncmp(err.msg, want, strlen(want)) != 0)
		fail_msg("error \"%s\" does not start with \"%s\"", err.msg, want);
	import_report_release(&rep);
	assert_int_equal(count(f->st, NULL), 0);
	snprintf(first, sizeof first, "%s", err.msg);
	free(want);
	free(path);

	/* The same in an RTLFixer row. */
	o.format = IMPORT_RTLFIXER;
	path = write_text(f, "utf8r.jsonl", "{\"task_id\": \"a\", \"solution\":"
	    " \"s \xc3\x28\", \"test\": \"t\", \"prompt\": \"p\"}\n");
	import_report_init(&rep);
	err_clear(&err);
	assert_int_equal(import_path(f->st, path, &o, &rep, &err), -1);
	want = xasprintf("%s:1: ", path);
	if (strncmp(err.msg, want, strlen(want)) != 0)
		fail_msg("error \"%s\" does not start with \"%s\"", err.msg, want);
	import_report_release(&rep);
	assert_int_equal(count(f->st, NULL), 0);
	free(want);
	free(path);
	/* What is wrong is said: the bytes are not UTF-8 (the JSON syntax
	 * is fine), in both formats. */
	if (strstr(first, "UTF-8") == NULL)
		fail_msg("error \"%s\" does not name UTF-8", first);
	if (strstr(err.msg, "UTF-8") == NULL)
		fail_msg("error \"%s\" does not name UTF-8", err.msg);
}

static void
test_import_empty_file_warns(void **state)
{
	struct datafx *f = *state;
	static const enum import_format fmts[] = { IMPORT_AUTO, IMPORT_ASSAY,
	    IMPORT_RTLFIXER };
	struct import_report rep;
	char *path;

	path = write_file(f, "empty.jsonl", "", 0);
	for (size_t i = 0; i < sizeof fmts / sizeof fmts[0]; i++) {
		import_ok(f, path, fmts[i], &rep);
		assert_int_equal(rep.tasks_added, 0);
		assert_int_equal(rep.cands_added, 0);
		assert_int_equal(rep.skipped, 0);
		assert_non_null(strstr(buf_str(&rep.warnings), path));
		assert_non_null(strstr(buf_str(&rep.warnings), "empty"));
		import_report_release(&rep);
	}
	assert_int_equal(count(f->st, NULL), 0);
	free(path);
}

static void
test_import_blank_lines_only_is_empty(void **state)
{
	struct datafx *f = *state;
	struct import_report rep;
	char *path;

	path = datafx_keep(f, write_text(f, "blank.jsonl", "\n\n"));
	import_ok(f, path, IMPORT_AUTO, &rep);
	assert_int_equal(rep.cands_added, 0);
	assert_non_null(strstr(buf_str(&rep.warnings), "empty"));
	import_report_release(&rep);
}

static void
test_import_missing_path_and_unknown_format(void **state)
{
	struct datafx *f = *state;
	struct import_opts o = { IMPORT_AUTO, 0, "tester" };
	struct import_report rep;
	enum import_format fmt = IMPORT_ASSAY;
	struct err err;
	char *path = xasprintf("%s/nothing.jsonl", f->dir), *want;

	import_report_init(&rep);
	assert_int_equal(import_path(f->st, path, &o, &rep, &err), -1);
	want = xasprintf("%s: No such file or directory", path);
	assert_string_equal(err.msg, want);
	import_report_release(&rep);
	free(want);
	free(path);

	assert_int_equal(import_format_parse("rtlfixer", &fmt, &err), 0);
	assert_int_equal(fmt, IMPORT_RTLFIXER);
	assert_int_equal(import_format_parse("verilog-eval-v2", &fmt, &err), 0);
	assert_int_equal(fmt, IMPORT_VEV2);
	assert_string_equal(import_format_name(IMPORT_VEV1), "verilog-eval-v1");
	assert_int_equal(import_format_parse("csv", &fmt, &err), -1);
	assert_non_null(strstr(err.msg, "'csv'"));

	/* A first row that is no known format. */
	path = write_text(f, "what.jsonl", "{\"hello\": 1}\n");
	import_report_init(&rep);
	assert_int_equal(import_path(f->st, path, &o, &rep, &err), -1);
	want = xasprintf("%s:1: ", path);
	assert_true(strncmp(err.msg, want, strlen(want)) == 0);
	import_report_release(&rep);
	free(want);
	free(path);
}

/* --- file roles ------------------------------------------------------- */

static void
test_import_file_role_by_word(void **state)
{
	static const struct { const char *name, *env, *role; } cases[] = {
		/* Substrings are not words: "countbcd" holds "tb". */
		{ "Prob068_countbcd_ref.sv", "iverilog", "reference" },
		{ "Prob068_countbcd_test.sv", "iverilog", "testbench" },
		{ "testbench.v", "iverilog", "testbench" },
		{ "tb_RAM.v", "iverilog", "testbench" },
		{ "TB-top.sv", "verilator", "testbench" },
		{ "and2_test.sv", "iverilog", "testbench" },
		{ "golden.v", "iverilog", "reference" },
		{ "aes_ref.sv", "verilator", "reference" },
		{ "attest.sv", "iverilog", "source" },
		{ "refine.v", "iverilog", "source" },
		{ "stb_gen.v", "iverilog", "source" },
		{ "aes_sbox.v", "iverilog+yosys", "source" },
		/* Data by extension first, for Verilog envs only. */
		{ "tdata.txt", "iverilog", "data" },
		{ "reference.dat", "iverilog", "data" },
		{ "test_data.dat", "verilator", "data" },
		{ "defs.vh", "iverilog", "source" },
		{ "ref.c", "x86-asm", "reference" },
		{ "reference.step", "cad", "reference" },
		{ "harness.cu", "nvcc", "source" },
		{ "input.s", "x86-asm", "source" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const char *got = import_file_role(cases[i].name,
		    cases[i].env);

		if (strcmp(got, cases[i].role) != 0)
			fail_msg("%s (%s): %s, want %s", cases[i].name,
			    cases[i].env, got, cases[i].role);
	}
}

static void
test_import_assay_explicit_roles(void **state)
{
	struct datafx *f = *state;
	struct import_report rep;
	struct import_opts o = { IMPORT_ASSAY, 0, "tester" };
	struct task t;
	struct err err;
	char *path;

	path = write_text(f, "roles.jsonl",
	    "{\"task\": {\"id\": \"local/roles\", \"env\": \"iverilog\","
	    " \"files\": [{\"name\": \"check.sv\", \"role\": \"testbench\","
	    " \"text\": \"module check; endmodule\\n\"},"
	    " {\"name\": \"tb_vectors.sv\", \"role\": \"data\", \"text\":"
	    " \"01\\n\"}, {\"name\": \"Prob068_countbcd_ref.sv\", \"text\":"
	    " \"module RefModule; endmodule\\n\"}, {\"name\": \"tdata.txt\","
	    " \"text\": \"02\\n\"}]}}\n");
	import_ok(f, path, IMPORT_AUTO, &rep);
	assert_int_equal(rep.tasks_added, 1);
	import_report_release(&rep);
	free(path);
	assert_int_equal(store_task_get(f->st, "local/roles", &t, &err), 0);
	assert_int_equal(t.nfiles, 4);
	assert_string_equal(t.files[0].name, "check.sv");
	assert_string_equal(t.files[0].role, "testbench");
	assert_string_equal(t.files[1].role, "data");
	assert_string_equal(t.files[2].role, "reference");	/* by name */
	assert_string_equal(t.files[3].role, "data");
	assert_string_equal(t.files[0].data, "module check; endmodule\n");
	task_release(&t);

	/* A role that is none of the four, a file without text, a name
	 * twice: each is the line's error. */
	static const char *const bad[] = {
	    "[{\"name\": \"a.sv\", \"role\": \"golden\", \"text\": \"\"}]",
	    "[{\"name\": \"a.sv\"}]",
	    "[{\"name\": \"a.sv\", \"text\": \"\"}, {\"name\": \"a.sv\","
	    " \"text\": \"\"}]",
	    "\"a.sv\"",
	};
	static const char *const why[] = { "must be testbench, reference,"
	    " source or data", "needs a \"name\" and a \"text\"",
	    "two task files of one name", "\"files\" must be an object" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char *row = xasprintf("{\"task\": {\"id\": \"local/bad%zu\","
		    " \"env\": \"iverilog\", \"files\": %s}}\n", i, bad[i]);
		char *want;

		path = write_text(f, "bad.jsonl", row);
		import_report_init(&rep);
		assert_int_equal(import_path(f->st, path, &o, &rep, &err), -1);
		want = xasprintf("%s:1: ", path);
		if (strncmp(err.msg, want, strlen(want)) != 0 ||
		    strstr(err.msg, why[i]) == NULL)
			fail_msg("case %zu: %s", i, err.msg);
		free(want);
		import_report_release(&rep);
		free(path);
		free(row);
	}
}

/* --- RTLLM ------------------------------------------------------------ */

/* The code of the only candidate under filter; new string. */
static char *
only_code(struct store *st, const char *filter)
{
	struct candidate c;
	struct err err;
	char *id = only_id(st, filter), *code;

	assert_int_equal(store_candidate_get(st, id, &c, &err), 0);
	code = xstrdup(c.code);
	candidate_release(&c);
	free(id);
	return code;
}

static void
test_import_rtllm_shared_designs(void **state)
{
	struct datafx *f = *state;
	struct import_report rep;
	struct task t;
	struct err err;
	char *dir, *code;

	datafx_need_data(f);
	dir = data_path(f, "rtllm");
	assert_true(import_rtllm_detect(dir));
	import_ok(f, dir, IMPORT_AUTO, &rep);
	/* 36 design folders (counted with find -name testbench.v). */
	assert_int_equal(rep.tasks_added, 36);
	assert_int_equal(rep.cands_added, 36);
	assert_int_equal(rep.warnings.len, 0);
	import_report_release(&rep);
	assert_int_equal(count(f->st, "benchmark=rtllm origin=reference"), 36);

	/* alu: the testbench's own top, reference.dat as data, the
	 * description as spec, the reference not a task file. */
	assert_int_equal(store_task_get(f->st, "rtllm/alu", &t, &err), 0);
	assert_string_equal(t.env, "iverilog");
	assert_string_equal(t.env_params, "{\"top\":\"test_alu\","
	    "\"timeout_s\":60}");
	assert_string_equal(t.extra, "{\"category\":\"Miscellaneous/RISC-V\"}");
	assert_non_null(strstr(t.spec, "ALU for a 32-bit MIPS-ISA CPU"));
	/* The renamed reference's header: the module to define. */
	assert_non_null(t.interface);
	assert_true(strncmp(t.interface, "module alu(", 11) == 0);
	assert_non_null(strstr(t.interface, "output flag\n    );\n"));
	assert_int_equal(t.nfiles, 2);
	assert_string_equal(t.files[0].name, "testbench.v");
	assert_string_equal(t.files[0].role, "testbench");
	assert_string_equal(t.files[1].name, "reference.dat");
	assert_string_equal(t.files[1].role, "data");
	task_release(&t);
	assert_int_equal(store_task_get(f->st, "rtllm/RAM", &t, &err), 0);
	assert_string_equal(t.env_params, "{\"top\":\"tb_RAM\","
	    "\"timeout_s\":60}");
	task_release(&t);

	/* Renamed to the module the testbench instantiates; by position
	 * (pe), by name (adder_pipe_64bit), a submodule kept (asyn_fifo). */
	code = only_code(f->st, "task=rtllm/pe");
	assert_non_null(strstr(code, "module pe("));
	assert_null(strstr(code, "verified_pe"));
	free(code);
	code = only_code(f->st, "task=rtllm/adder_pipe_64bit");
	assert_non_null(strstr(code, "module adder_pipe_64bit"));
	free(code);
	code = only_code(f->st, "task=rtllm/asyn_fifo");
	assert_non_null(strstr(code, "module asyn_fifo"));
	assert_non_null(strstr(code, "module dual_port_RAM"));
	assert_null(strstr(code, "verified_asyn_fifo"));
	free(code);
	/* Already the testbench's name: byte for byte. */
	code = only_code(f->st, "task=rtllm/adder_bcd");
	{
		char *p = xasprintf("%s/Arithmetic/Adder/adder_bcd/"
		    "verified_adder_bcd.v", dir);
		char *want = read_text(p);

		assert_string_equal(code, want);
		free(want);
		free(p);
	}
	free(code);
	free(dir);
}

static void
test_import_rtllm_samples(void **state)
{
	struct datafx *f = *state;
	struct import_report rep;
	struct candidate c;
	struct err err;
	char *dir, *id, *p;

	datafx_need_data(f);
	dir = data_path(f, "rtllm");
	import_ok(f, dir, IMPORT_RTLLM, &rep);
	import_report_release(&rep);
	free(dir);
	/* Samples alone, in upstream's folders, answer those designs. */
	p = xasprintf("%s/s", f->dir);
	assert_int_equal(mkdir(p, 0755), 0);
	free(p);
	static const char *const dirs[] = { "s/_chatgpt35", "s/_chatgpt35/t1",
	    "s/_chatgpt35/t2", "s/_chatgpt4", "s/_chatgpt4/t5", "s/_qwen",
	    "s/_qwen/t1", "s/_notes" };
	for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
		p = xasprintf("%s/%s", f->dir, dirs[i]);
		assert_int_equal(mkdir(p, 0755), 0);
		free(p);
	}
	free(write_text(f, "s/_chatgpt35/t1/adder_8bit.v", "module a; endmodule\n"));
	free(write_text(f, "s/_chatgpt35/t2/adder_8bit.v", "module b; endmodule\n"));
	free(write_text(f, "s/_chatgpt4/t5/alu.v", "module c; endmodule\n"));
	free(write_text(f, "s/_qwen/t1/alu.v", "module d; endmodule\n"));
	free(write_text(f, "s/_qwen/t1/nonesuch.v", "module e; endmodule\n"));
	free(write_text(f, "s/_notes/readme.v", "module f; endmodule\n"));
	p = xasprintf("%s/s", f->dir);
	assert_true(import_rtllm_detect(p));
	import_ok(f, p, IMPORT_AUTO, &rep);
	free(p);
	assert_int_equal(rep.tasks_added, 0);
	assert_int_equal(rep.cands_added, 4);
	assert_non_null(strstr(buf_str(&rep.warnings), "1 sample(s) of designs"
	    " without a folder"));
	import_report_release(&rep);
	assert_int_equal(count(f->st, "origin=gpt-3.5 task=rtllm/adder_8bit"),
	    2);
	assert_int_equal(count(f->st, "origin=gpt-4 task=rtllm/alu"), 1);
	id = only_id(f->st, "origin=qwen");
	assert_int_equal(store_candidate_get(f->st, id, &c, &err), 0);
	assert_string_equal(c.task_id, "rtllm/alu");
	assert_string_equal(c.origin_raw, "_qwen/t1");
	assert_string_equal(c.extra, "{\"sample\":\"t1\"}");
	assert_string_equal(c.code, "module d; endmodule\n");
	candidate_release(&c);
	free(id);
}

/* A file that starts with a UTF-8 BOM imports as without it (it gave
 * "the first line is not a JSON object"); a bad row keeps its line. */
static void
test_import_bom_read_past(void **state)
{
	struct datafx *f = *state;
	struct import_report rep;
	struct import_opts o = { IMPORT_AUTO, 0, "tester" };
	struct err err;
	char *text = xasprintf("\xef\xbb\xbf%s", assay_rows), *path;

	path = write_text(f, "bom.jsonl", text);
	import_ok(f, path, IMPORT_AUTO, &rep);
	assert_int_equal(rep.tasks_added, 1);
	assert_int_equal(rep.cands_added, 2);
	import_report_release(&rep);
	free(path);
	free(text);
	path = write_text(f, "bom-bad.jsonl", "\xef\xbb\xbf\nnot json\n");
	import_report_init(&rep);
	assert_int_equal(import_path(f->st, path, &o, &rep, &err), -1);
	assert_non_null(strstr(err.msg, "bom-bad.jsonl:2: "));
	import_report_release(&rep);
	free(path);
}

/* The import service's side of a cancel: the flag, then the byte. */
struct canceller {
	struct import_watch	*w;
	int			 wfd;
};

static void *
cancel_later(void *arg)
{
	struct canceller *c = arg;
	struct timespec ts = { 0, 300 * 1000 * 1000 };

	nanosleep(&ts, NULL);
	atomic_store(&c->w->cancel, 1);
	assert_int_equal(write(c->wfd, "x", 1), 1);
	return NULL;
}

/*
 * A FIFO that nobody writes: the import neither hangs in open() nor in
 * poll(), and a cancel from another thread 0.3 s later ends it with
 * "cancelled" (it waited for a writer for ever).
 */
static void
test_import_fifo_cancel_wakes(void **state)
{
	struct datafx *f = *state;
	struct import_watch w = { 0 };
	struct import_report rep;
	struct import_opts o = { IMPORT_AUTO, 0, "tester" };
	struct canceller c;
	struct timespec t0, t1;
	struct err err;
	pthread_t th;
	char *path = xasprintf("%s/ff", f->dir);
	int p[2];
	double s;

	assert_int_equal(mkfifo(path, 0600), 0);
	assert_int_equal(pipe(p), 0);
	w.cancel_fd = p[0];
	c.w = &w;
	c.wfd = p[1];
	import_report_init(&rep);
	rep.watch = &w;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	assert_int_equal(pthread_create(&th, NULL, cancel_later, &c), 0);
	assert_int_equal(import_path(f->st, path, &o, &rep, &err), -1);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	pthread_join(th, NULL);
	s = (double)(t1.tv_sec - t0.tv_sec) +
	    (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	assert_non_null(strstr(err.msg, "cancelled"));
	assert_true(s >= 0.25 && s < 2.0);
	import_report_release(&rep);
	close(p[0]);
	close(p[1]);
	free(path);
}

#define FX_TEST(t) cmocka_unit_test_setup_teardown(t, datafx_setup, datafx_teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		FX_TEST(test_import_vev2_directory),
		FX_TEST(test_import_vev2_auto_and_reimport),
		FX_TEST(test_import_vev2_incomplete_problem_warned),
		FX_TEST(test_import_empty_directory_is_error),
		FX_TEST(test_import_vev1_file_set),
		cmocka_unit_test(test_import_model_from_log),
		cmocka_unit_test(test_import_nan_to_null),
		FX_TEST(test_import_rtlfixer_syntax_set),
		FX_TEST(test_import_rtlfixer_reimport_adds_nothing),
		FX_TEST(test_import_rtlfixer_simulate_set_nan),
		FX_TEST(test_import_rtlfixer_bare_nan_is_null),
		FX_TEST(test_import_assay_format),
		FX_TEST(test_import_bom_read_past),
		FX_TEST(test_import_fifo_cancel_wakes),
		FX_TEST(test_import_rtllm_shared_designs),
		FX_TEST(test_import_rtllm_samples),
		FX_TEST(test_import_assay_explicit_roles),
		cmocka_unit_test(test_import_file_role_by_word),
		FX_TEST(test_import_assay_parent_and_recorded),
		FX_TEST(test_import_assay_duplicate_id_names_line),
		FX_TEST(test_import_assay_unknown_task_is_error),
		FX_TEST(test_import_malformed_line_rolls_back_file),
		FX_TEST(test_import_keep_going_skips_bad_line),
		FX_TEST(test_import_keep_going_skips_whole_line),
		FX_TEST(test_import_big_file_bad_row),
		FX_TEST(test_import_keep_going_mixed_failures),
		FX_TEST(test_import_bad_row_rolls_back_earlier_rows),
		FX_TEST(test_import_invalid_utf8_is_error),
		FX_TEST(test_import_empty_file_warns),
		FX_TEST(test_import_blank_lines_only_is_empty),
		FX_TEST(test_import_missing_path_and_unknown_format),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
