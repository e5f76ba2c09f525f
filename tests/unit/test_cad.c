/*
 * test_cad.c - unit tests for the cad env (cmocka): what prepare() writes
 * and plans, and what judge() makes of the real OCCT helper's output.
 *
 * Solids are made by the helper itself (assay-iou --box), the plans are
 * run here without a sandbox (envtest.h) and, for the CadQuery skip,
 * through verify.c with its sandbox.  The helper is found as cad.c finds
 * it: $ASSAY_LIBEXEC, which setup points at BUILD/libexec (this program
 * is BUILD/san/tests/test_cad) unless it is set.  Every test that needs
 * the helper is skipped, with the reason, when OCCT is not installed.
 */
#include <limits.h>
#include <poll.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
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
#include "model/feedback.h"
#include "model/sample.h"
#include "exec/sandbox.h"
#include "verify/verify.h"
#include "testlib.h"
#include "envtest.h"

extern const struct env_ops env_cad;

/* A box that the helper writes: x y z dx dy dz. */
struct box {
	const char *x, *y, *z, *dx, *dy, *dz;
};

static const struct box cube0 = { "0", "0", "0", "10", "10", "10" };
static const struct box cube5 = { "5", "0", "0", "10", "10", "10" };
static const struct box cube50 = { "50", "0", "0", "10", "10", "10" };

/* A CadQuery script of cube0. */
static const char cube_script[] =
    "import cadquery as cq\n"
    "result = cq.Workplane(\"XY\").box(10, 10, 10, centered=False)\n";

static int
fx_setup(void **state)
{
	char exe[PATH_MAX];
	ssize_t n;

	/* BUILD/san/tests/test_cad -> BUILD/libexec */
	n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (getenv("ASSAY_LIBEXEC") == NULL && n > 0) {
		exe[n] = '\0';
		for (int i = 0; i < 3; i++)
			if (strrchr(exe, '/') != NULL)
				*strrchr(exe, '/') = '\0';
		strncat(exe, "/libexec", sizeof exe - strlen(exe) - 1);
		setenv("ASSAY_LIBEXEC", exe, 1);
	}
	return fx_init(state, "cad");
}

/* The helper's path, for making solids. */
static char *
helper(struct fx *f)
{
	return keep(f, xasprintf("%s/assay-iou", getenv("ASSAY_LIBEXEC")));
}

/* A box as STEP text, made by the real helper; new string. */
static char *
box_step(struct fx *f, const struct box *b)
{
	char *dir = xasprintf("%s/solids", f->dir), *path, *text;
	char *const argv[] = { helper(f), "--box", (char *)b->x, (char *)b->y,
	    (char *)b->z, (char *)b->dx, (char *)b->dy, (char *)b->dz,
	    "box.step", NULL };
	struct buf log = BUF_INIT;

	mkdir(dir, 0755);
	if (run_stage(dir, argv, &log, 60) != 0)
		fail_msg("assay-iou --box: %s", buf_str(&log));
	assert_int_equal(log.len, 0);	/* OCCT's writer is silenced */
	path = xasprintf("%s/box.step", dir);
	text = read_text(path);
	unlink(path);
	free(path);
	rmdir(dir);
	free(dir);
	buf_release(&log);
	return text;
}

/* Run cand_code (lang) against ref as the task's reference.step. */
static void
verify_here(struct fx *f, const char *params, const char *ref,
    const char *cand_code, const char *lang, struct outcome *o)
{
	struct task t;
	struct candidate c;

	make_task(&t, "local/solid", "cad", params);
	task_add_file(&t, "reference.step", "reference", ref, strlen(ref));
	make_cand(&c, t.id, cand_code);
	free(c.lang);
	c.lang = xstrdup(lang);
	run_plan(f, &env_cad, &t, &c, 60, o);
	task_release(&t);
	candidate_release(&c);
}

/* metrics.iou of a run, -1 when it has none. */
static double
metric_iou(const struct run *r)
{
	const char *p = r->metrics != NULL ? strstr(r->metrics, "\"iou\":") :
	    NULL;

	return p != NULL ? strtod(p + 6, NULL) : -1;
}

/* --- toolchain and prepare -------------------------------------------- */

static void
test_cad_toolchain_names_occt_and_helper(void **state)
{
	struct fx *f = *state;
	char ver[512];
	struct err err;

	(void)f;
	need_tool(&env_cad);
	assert_int_equal(env_cad.toolchain(ver, sizeof ver, &err), 0);
	assert_non_null(strstr(ver, "Open CASCADE Technology 7."));
	assert_non_null(strstr(ver, ", assay-iou "));
	assert_true(strstr(ver, "CadQuery") != NULL);
	assert_non_null(env_cad.missing_hint);
	assert_non_null(strstr(env_cad.missing_hint, "PyPI"));
	assert_non_null(strstr(env_cad.packages, "libocct-data-exchange-dev"));
}

static void
test_cad_toolchain_missing_helper(void **state)
{
	struct fx *f = *state;
	const char *env = getenv("ASSAY_LIBEXEC");
	char *old = env != NULL ? xstrdup(env) : NULL, ver[256];
	struct err err;

	(void)f;
	setenv("ASSAY_LIBEXEC", "/nonexistent", 1);
	assert_int_equal(env_cad.toolchain(ver, sizeof ver, &err), -1);
	assert_non_null(strstr(err.msg, "/nonexistent/assay-iou"));
	assert_non_null(strstr(err.msg, "libocct"));
	if (old != NULL)
		setenv("ASSAY_LIBEXEC", old, 1);
	else
		unsetenv("ASSAY_LIBEXEC");
	free(old);
}

static void
test_cad_prepare_step_plan(void **state)
{
	struct fx *f = *state;
	struct env_plan plan;
	struct task t;
	struct candidate c;
	struct err err;
	struct stat sb;
	char *path, *bin, hex[HASH_HEX_LEN + 1], *want;

	need_tool(&env_cad);
	make_task(&t, "local/solid", "cad", "{\"iou_min\":0.95}");
	task_add_file(&t, "reference.step", "reference", "REF", 3);
	make_cand(&c, t.id, "ISO-10303-21;\nHEADER;\n");
	env_plan_init(&plan);
	assert_int_equal(env_cad.prepare(&t, &c, f->dir, &plan, &err), 0);
	assert_int_equal(plan.nstages, 1);
	assert_int_equal(plan.timeout_s, 60);
	assert_string_equal(plan.cand_file, "candidate.step");
	assert_string_equal(plan.stages[0].name, "iou");
	assert_string_equal(plan.stages[0].subdir, "");
	assert_string_equal(plan.stages[0].argv[0], "./assay-iou");
	assert_string_equal(plan.stages[0].argv[1], "candidate.step");
	assert_string_equal(plan.stages[0].argv[2], "reference.step");
	/* Each is sealed from prepare()'s files and used in the iou
	 * stage's own area (ADR 0034). */
	assert_string_equal(plan.seal[0], "assay-iou");
	assert_string_equal(plan.seal[1], "reference.step");
	assert_string_equal(plan.seal[2], "candidate.step");
	assert_string_equal(plan.stages[0].use[0], "assay-iou");
	assert_string_equal(plan.stages[0].use[1], "candidate.step");
	assert_string_equal(plan.stages[0].use[2], "reference.step");
	/* Below iou_min (0.95 here) the helper tries right-angle turns. */
	assert_string_equal(plan.stages[0].argv[3], "--orient");
	assert_string_equal(plan.stages[0].argv[4], "0.950000");
	/* and prints the solids' triangles for the 3D sheet */
	assert_string_equal(plan.stages[0].argv[5], "--mesh");
	assert_null(plan.stages[0].argv[6]);

	/* The helper is copied in, executable, and its hash recorded. */
	path = xasprintf("%s/assay-iou", f->dir);
	assert_int_equal(stat(path, &sb), 0);
	assert_true(sb.st_mode & S_IXOTH);
	free(path);
	path = xasprintf("%s/assay-iou", getenv("ASSAY_LIBEXEC"));
	bin = read_text(path);
	hash_sha256(bin, (size_t)sb.st_size, hex);
	free(bin);
	free(path);
	want = xasprintf("\"assay-iou\":\"%s\"", hex);
	assert_non_null(strstr(buf_str(&plan.inputs), want));
	free(want);
	assert_non_null(strstr(buf_str(&plan.inputs), "\"candidate.step\":"));
	assert_non_null(strstr(buf_str(&plan.inputs), "\"reference.step\":"));
	assert_non_null(strstr(buf_str(&plan.inputs), "\"env_params\":"));
	env_plan_release(&plan);
	task_release(&t);
	candidate_release(&c);
}

static void
test_cad_prepare_script_plan(void **state)
{
	struct fx *f = *state;
	struct env_plan plan;
	struct task t;
	struct candidate c;
	struct err err;
	char *path, *text;
	const char *runner;
	size_t rlen;

	need_tool(&env_cad);
	make_task(&t, "local/solid", "cad", NULL);
	task_add_file(&t, "reference.step", "reference", "REF", 3);
	make_cand(&c, t.id, cube_script);
	free(c.lang);
	c.lang = xstrdup("python");
	env_plan_init(&plan);
	assert_int_equal(env_cad.prepare(&t, &c, f->dir, &plan, &err), 0);
	assert_int_equal(plan.nstages, 3);
	assert_string_equal(plan.cand_file, "candidate.py");
	assert_string_equal(plan.stages[0].name, "probe");
	assert_string_equal(plan.stages[0].subdir, "cq");
	{
		/* The project venv's Python where there is one. */
		int venv;

		assert_string_equal(plan.stages[0].argv[0], env_python(&venv));
		assert_int_equal(plan.stages[0].venv, venv);
		assert_int_equal(plan.stages[1].venv, venv);
		assert_int_equal(plan.stages[2].venv, 0);
	}
	assert_string_equal(plan.stages[0].argv[1], "-I");
	assert_string_equal(plan.stages[1].name, "cadquery");
	assert_string_equal(plan.stages[1].subdir, "cq");
	assert_string_equal(plan.stages[1].argv[2], "-u");
	assert_string_equal(plan.stages[1].argv[3], "cq_run.py");
	assert_string_equal(plan.stages[1].argv[4], "candidate.py");
	assert_string_equal(plan.stages[1].argv[5], "candidate.step");
	/* The script runs candidate code; its solid is sealed when it ends
	 * and the iou stage reads that copy in an area of its own. */
	assert_true(plan.stages[1].candidate);
	assert_string_equal(plan.stages[1].seal[0], "candidate.step");
	assert_string_equal(plan.stages[2].name, "iou");
	assert_string_equal(plan.stages[2].argv[1], "candidate.step");
	assert_string_equal(plan.stages[2].use[1], "candidate.step");
	/* The script and the runner sit in cq/, the helper outside it. */
	path = xasprintf("%s/cq/candidate.py", f->dir);
	text = read_text(path);
	assert_string_equal(text, cube_script);
	free(text);
	free(path);
	path = xasprintf("%s/cq/cq_run.py", f->dir);
	text = read_text(path);
	runner = env_share("cad/cq_run.py", &rlen);
	assert_non_null(runner);
	assert_string_equal(text, runner);
	free(text);
	free(path);
	path = xasprintf("%s/cq/assay-iou", f->dir);
	assert_int_equal(access(path, F_OK), -1);
	free(path);
	env_plan_release(&plan);
	task_release(&t);
	candidate_release(&c);
}

static void
test_cad_prepare_bad_task(void **state)
{
	struct fx *f = *state;
	struct env_plan plan;
	struct task t;
	struct candidate c;
	struct err err;

	make_task(&t, "local/solid", "cad", NULL);
	make_cand(&c, t.id, "ISO-10303-21;\n");
	env_plan_init(&plan);
	assert_int_equal(env_cad.prepare(&t, &c, f->dir, &plan, &err), -1);
	assert_non_null(strstr(err.msg, "no reference solid reference.step"));
	env_plan_release(&plan);
	task_release(&t);

	make_task(&t, "local/solid", "cad", "{\"iou_min\":1.5}");
	task_add_file(&t, "reference.step", "reference", "REF", 3);
	env_plan_init(&plan);
	assert_int_equal(env_cad.prepare(&t, &c, f->dir, &plan, &err), -1);
	assert_non_null(strstr(err.msg, "iou_min"));
	env_plan_release(&plan);
	task_release(&t);
	candidate_release(&c);
}

/* --- IoU through the real helper -------------------------------------- */

static void
test_cad_iou_offset_boxes_is_one_third(void **state)
{
	struct fx *f = *state;
	struct outcome o;
	char *a, *b;

	need_tool(&env_cad);
	a = keep(f, box_step(f, &cube0));
	b = keep(f, box_step(f, &cube5));
	verify_here(f, NULL, a, b, "step", &o);
	dump(&o);
	assert_str(o.run.verdict, "fail");
	assert_str(o.run.stage, "iou");
	assert_str(o.run.category, "functional");
	assert_str(o.run.subcategory, "geometry-mismatch");
	assert_non_null(strstr(buf_str(&o.logs[0]), "vA=1000.000000"
	    " vB=1000.000000 vInter=500.000000 vUnion=1500.000000"
	    " IoU=0.333333"));
	assert_true(metric_iou(&o.run) > 0.3333 &&
	    metric_iou(&o.run) < 0.3334);
	assert_non_null(strstr(o.run.metrics, "\"common_volume\":500.0"));
	assert_non_null(strstr(o.run.evidence, "IoU 0.333333 below iou_min"
	    " 0.9"));
	/* The counterexample: the IoU, the volumes, and the boxes, which
	 * differ by the shift of 5 along x alone. */
	{
		json_t *root = NULL, *d;
		const char *text = feedback_text(o.run.feedback,
		    "counterexample", &root);

		assert_str(text, "IoU 0.333333, below iou_min 0.9\n"
		    "volume 1000.000, reference 1000.000: difference +0.000"
		    " (+0.0%)\n"
		    "bounding box, largest difference per axis: x 5.000,"
		    " y 0.000, z 0.000\n"
		    "candidate box (5.000, 0.000, 0.000) to (15.000, 10.000,"
		    " 10.000)\n"
		    "reference box (0.000, 0.000, 0.000) to (10.000, 10.000,"
		    " 10.000)");
		d = json_object_get(json_object_get(root, "counterexample"),
		    "bbox_diff");
		assert_true(fabs(json_real_value(json_object_get(d, "x")) -
		    5.0) < 1e-6);
		assert_true(json_real_value(json_object_get(d, "y")) < 1e-6);
		json_decref(root);
	}
	outcome_release(&o);

	/* The same pair passes a task that asks for less. */
	rm_rf(f->dir);
	assert_int_equal(mkdir(f->dir, 0700), 0);
	verify_here(f, "{\"iou_min\":0.3}", a, b, "step", &o);
	assert_str(o.run.verdict, "pass");
	assert_null(o.run.category);
	assert_true(metric_iou(&o.run) > 0.3333 &&
	    metric_iou(&o.run) < 0.3334);
	outcome_release(&o);
}

static void
test_cad_iou_identical_and_disjoint(void **state)
{
	struct fx *f = *state;
	struct outcome o;
	char *a, *far;

	need_tool(&env_cad);
	a = keep(f, box_step(f, &cube0));
	far = keep(f, box_step(f, &cube50));
	/* A reference imported as lang python is still STEP text. */
	verify_here(f, NULL, a, a, "python", &o);
	assert_str(o.run.verdict, "pass");
	assert_int_equal(o.plan.nstages, 1);
	assert_true(metric_iou(&o.run) == 1.0);
	outcome_release(&o);

	rm_rf(f->dir);
	assert_int_equal(mkdir(f->dir, 0700), 0);
	verify_here(f, NULL, a, far, "step", &o);
	assert_str(o.run.verdict, "fail");
	assert_str(o.run.subcategory, "geometry-mismatch");
	assert_true(metric_iou(&o.run) == 0.0);
	assert_non_null(strstr(o.run.metrics, "\"common_volume\":0.0"));
	outcome_release(&o);
}

static void
test_cad_unreadable_step_fails(void **state)
{
	struct fx *f = *state;
	struct outcome o;
	char *a;

	need_tool(&env_cad);
	a = keep(f, box_step(f, &cube0));
	verify_here(f, NULL, a,
	    "```step\nISO-10303-21;\nthis is not STEP\n```\n", "step", &o);
	assert_str(o.run.verdict, "fail");
	assert_str(o.run.stage, "iou");
	assert_str(o.run.category, "compile");
	assert_str(o.run.subcategory, "unreadable-step");
	assert_str(o.run.evidence, "assay-iou: candidate.step: cannot read"
	    " STEP (not an ISO 10303-21 file, or a malformed one)");
	assert_null(o.run.metrics);
	assert_int_equal(o.run.exit_code, 2);
	outcome_release(&o);
}

/* Prose around STEP text is a format failure, found before the helper
 * runs, whatever the helper makes of the file. */
static void
test_cad_prose_around_step_is_format(void **state)
{
	struct fx *f = *state;
	struct outcome o;
	char *a, *before, *after, *fenced;

	need_tool(&env_cad);
	a = keep(f, box_step(f, &cube0));
	before = keep(f, xasprintf("Here is the STEP file:\n\n%s", a));
	verify_here(f, NULL, a, before, "step", &o);
	assert_str(o.run.verdict, "fail");
	assert_str(o.run.stage, "iou");
	assert_str(o.run.category, "format");
	assert_str(o.run.subcategory, "prose");
	assert_int_equal(o.run.evidence_line, 1);
	assert_non_null(strstr(o.run.evidence, "candidate line 1: prose"
	    " before the ISO-10303-21 header; symptom: assay-iou:"
	    " candidate.step: cannot read STEP"));
	assert_non_null(diag_at(&o.run, 1, "prose before"));
	outcome_release(&o);

	/* On the header's own line. */
	rm_rf(f->dir);
	assert_int_equal(mkdir(f->dir, 0700), 0);
	verify_here(f, NULL, a, keep(f, xasprintf("Answer: %s", a)), "step",
	    &o);
	assert_str(o.run.subcategory, "prose");
	assert_int_equal(o.run.evidence_line, 1);
	outcome_release(&o);

	/* OCCT reads what comes after END-ISO-10303-21; the answer is still
	 * not a STEP file.  The IoU is kept. */
	rm_rf(f->dir);
	assert_int_equal(mkdir(f->dir, 0700), 0);
	after = keep(f, xasprintf("%s\nThis cube is 10 mm on each side.\n",
	    a));
	verify_here(f, NULL, a, after, "step", &o);
	assert_str(o.run.verdict, "fail");
	assert_str(o.run.category, "format");
	assert_str(o.run.subcategory, "prose");
	assert_true(o.run.evidence_line > 10);
	assert_non_null(strstr(o.run.evidence, ": prose after"
	    " END-ISO-10303-21; the solid itself passes (IoU 1.000000)"));
	assert_true(metric_iou(&o.run) == 1.0);
	outcome_release(&o);

	/* A fence is triage's (markdown-fence); blank lines and a comment
	 * before the header are no prose. */
	rm_rf(f->dir);
	assert_int_equal(mkdir(f->dir, 0700), 0);
	fenced = keep(f, xasprintf("Here it is:\n```step\n%s```\n", a));
	verify_here(f, NULL, a, fenced, "step", &o);
	assert_str(o.run.subcategory, "unreadable-step");
	assert_str(buf_str(&o.plan.precheck), "");
	outcome_release(&o);
	rm_rf(f->dir);
	assert_int_equal(mkdir(f->dir, 0700), 0);
	verify_here(f, NULL, a, keep(f, xasprintf("\n/* a cube */\n%s\n\n",
	    a)), "step", &o);
	assert_str(o.run.verdict, "pass");
	outcome_release(&o);
}

/* A box whose -x face plane is turned to face +y: its edges are off it. */
static char *
invalid_box(struct fx *f)
{
	char *a = box_step(f, &cube0), *p;
	const char *face = "#35 = DIRECTION('',(1.,0.,-0.));";

	p = strstr(a, face);
	if (p == NULL)
		fail_msg("the box STEP has no '%s' to break", face);
	memcpy(p, "#35 = DIRECTION('',(0.,1.,0.0));", strlen(face));
	return keep(f, a);
}

static void
test_cad_invalid_solid_fails(void **state)
{
	struct fx *f = *state;
	struct outcome o;
	char *a, *bad;

	need_tool(&env_cad);
	a = keep(f, box_step(f, &cube0));
	bad = invalid_box(f);
	verify_here(f, NULL, a, bad, "step", &o);
	dump(&o);
	assert_str(o.run.verdict, "fail");
	assert_str(o.run.category, "functional");
	assert_str(o.run.subcategory, "invalid-solid");
	assert_non_null(strstr(o.run.evidence, "assay-iou: candidate.step:"
	    " invalid"));
	assert_int_equal(o.run.exit_code, 3);
	outcome_release(&o);

	/* The task's own solid at fault: not the candidate's failure. */
	rm_rf(f->dir);
	assert_int_equal(mkdir(f->dir, 0700), 0);
	verify_here(f, NULL, bad, a, "step", &o);
	assert_str(o.run.verdict, "task-defect");
	assert_str(o.run.subcategory, "bad-reference");
	assert_null(o.run.category);
	assert_non_null(strstr(o.run.evidence, "reference.step: invalid"));
	outcome_release(&o);
}

/* A script's output that links to the reference is no solid of its own. */
static void
test_cad_script_output_link_refused(void **state)
{
	struct fx *f = *state;
	struct env_plan plan;
	struct env_stage_result res[3];
	struct task t;
	struct candidate c;
	struct run r;
	struct buf log = BUF_INIT;
	struct err err;
	char *a, *link;

	need_tool(&env_cad);
	a = keep(f, box_step(f, &cube0));
	make_task(&t, "local/solid", "cad", NULL);
	task_add_file(&t, "reference.step", "reference", a, strlen(a));
	make_cand(&c, t.id, cube_script);
	free(c.lang);
	c.lang = xstrdup("python");
	env_plan_init(&plan);
	assert_int_equal(env_cad.prepare(&t, &c, f->dir, &plan, &err), 0);
	link = xasprintf("%s/cq/candidate.step", f->dir);
	assert_int_equal(symlink("../reference.step", link), 0);
	free(link);
	/* As verify.c does: the script's solid is not sealed (a link), so
	 * the iou stage's area has none, and the helper says so. */
	{
		struct test_seals ts = { .n = 0 };
		char *cq = xasprintf("%s/cq", f->dir), *dir;

		ts.store = xasprintf("%s/.seal-test", f->dir);
		assert_int_equal(mkdir(ts.store, 0700), 0);
		test_seal(&ts, f->dir, plan.seal);
		test_seal(&ts, cq, plan.stages[1].seal);
		assert_int_equal(ts.n, 2);	/* the helper, the reference */
		dir = test_stage_dir(f, &plan, 2, &ts);
		memset(res, 0, sizeof res);
		res[0].ran = res[1].ran = res[2].ran = 1;
		res[0].log = res[1].log = "";
		res[2].exit_code = run_stage(dir, plan.stages[2].argv, &log,
		    60);
		free(dir);
		free(cq);
		free(ts.store);
	}
	res[2].log = buf_str(&log);
	res[2].log_len = log.len;
	memset(&r, 0, sizeof r);
	env_cad.judge(&t, &plan, res, 3, ENV_STOP_NONE, &r);
	assert_str(r.verdict, "fail");
	assert_str(r.subcategory, "unreadable-step");
	assert_non_null(strstr(r.evidence, "assay-iou: candidate.step: cannot"
	    " open"));
	run_release(&r);
	buf_release(&log);
	env_plan_release(&plan);
	task_release(&t);
	candidate_release(&c);
}

/* --- CadQuery scripts --------------------------------------------------- */

/* Is CadQuery here (the project venv's, or the system Python's)? */
static int
have_cadquery(void)
{
	char id[512];
	struct err err;

	return env_cad.toolchain(id, sizeof id, &err) == 0 &&
	    strstr(id, "no CadQuery") == NULL;
}

/* The skip (or, where CadQuery is installed, the pass) through verify.c
 * and its sandbox. */
static void
test_cad_cadquery_through_verify(void **state)
{
	struct fx *f = *state;
	struct verify_opts vo;
	struct verify_job *j;
	struct task t;
	struct candidate c;
	struct run r;
	struct err err;
	char *a;

	need_tool(&env_cad);
	a = keep(f, box_step(f, &cube0));
	memset(&vo, 0, sizeof vo);
	/* As root the run's own uid must reach its work directory. */
	assert_int_equal(chmod(f->dir, 0711), 0);
	vo.workroot = f->dir;
	if (sandbox_check(&err) < 0) {
		print_message("%s; running unconfined\n", err.msg);
		vo.no_sandbox = 1;
	}
	make_task(&t, "local/solid", "cad", NULL);
	task_add_file(&t, "reference.step", "reference", a, strlen(a));
	make_cand(&c, t.id, cube_script);
	free(c.lang);
	c.lang = xstrdup("python");
	if (verify_job_start(&j, &vo, &t, &c, 0, 0, 0, &err) < 0)
		fail_msg("verify_job_start: %s", err.msg);
	while (!verify_job_step(j, NULL, NULL)) {
		struct pollfd pfd = { .fd = verify_job_fd(j),
		    .events = POLLIN };

		poll(&pfd, 1, verify_job_timeout_ms(j));
	}
	verify_job_result(j, &r);
	print_message("%s\n", r.log);
	if (have_cadquery()) {
		assert_str(r.verdict, "pass");
		assert_true(metric_iou(&r) > 0.999999);
	} else {
		assert_str(r.verdict, "skipped");
		assert_str(r.stage, "probe");
		assert_str(r.evidence, "skipped: cadquery not installed");
		assert_null(r.category);
		assert_non_null(strstr(r.toolchain, "no CadQuery"));
		/* The script never ran. */
		assert_null(strstr(r.log, "cq_run.py"));
	}
	run_release(&r);
	verify_job_free(j);
	task_release(&t);
	candidate_release(&c);
}

/*
 * A script's failure is read from its traceback: real Python tracebacks
 * (python3 runs the script itself here, since cq_run.py needs cadquery)
 * as the cadquery stage's log.
 */
static void
test_cad_script_errors_from_tracebacks(void **state)
{
	static const struct {
		const char *code, *category, *sub, *evidence;
		int line;
	} cases[] = {
		{ "print('making it')\nx = 1\nresult = box(10)\n", "api",
		  "name-error",
		  "NameError: name 'box' is not defined", 3 },
		{ "x = 1\nresult = x.extrude(4)\n", "api", "attribute-error",
		  "AttributeError: 'int' object has no attribute 'extrude'",
		  2 },
		{ "x = (1,\n\ny = 2\n", "compile", "syntax-error",
		  "SyntaxError: '(' was never closed", 1 },
		{ "def f():\n    raise ValueError('fillet failed')\nf()\n",
		  "functional", "script-error", "ValueError: fillet failed",
		  2 },
	};
	struct fx *f = *state;

	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		struct env_plan plan;
		struct env_stage_result res[2];
		struct task t;
		struct candidate c;
		struct run r;
		struct buf log = BUF_INIT;
		struct err err;
		char *cq = xasprintf("%s/cq", f->dir);
		/* As cq_run.py runs it. */
		char *const py[] = { "/usr/bin/python3", "-I", "-u", "-c",
		    "exec(compile(open('candidate.py').read(), 'candidate.py',"
		    " 'exec'), {'__name__': '__main__'})", NULL };

		rm_rf(f->dir);
		assert_int_equal(mkdir(f->dir, 0700), 0);
		make_task(&t, "local/solid", "cad", NULL);
		task_add_file(&t, "reference.step", "reference", "REF", 3);
		make_cand(&c, t.id, cases[k].code);
		free(c.lang);
		c.lang = xstrdup("python");
		env_plan_init(&plan);
		if (env_cad.prepare(&t, &c, f->dir, &plan, &err) < 0) {
			/* No helper: the plan cannot be made. */
			need_tool(&env_cad);
			fail_msg("prepare: %s", err.msg);
		}
		memset(res, 0, sizeof res);
		res[0].ran = res[1].ran = 1;
		res[0].log = "CadQuery 2.4.0\n";
		res[0].log_len = strlen(res[0].log);
		res[1].exit_code = run_stage(cq, py, &log, 30);
		res[1].log = buf_str(&log);
		res[1].log_len = log.len;
		assert_int_equal(res[1].exit_code, 1);
		memset(&r, 0, sizeof r);
		env_cad.judge(&t, &plan, res, 2, ENV_STOP_NONE, &r);
		print_message("%s", buf_str(&log));
		assert_str(r.verdict, "fail");
		assert_str(r.stage, "cadquery");
		assert_str(r.category, cases[k].category);
		assert_str(r.subcategory, cases[k].sub);
		assert_str(r.evidence, cases[k].evidence);
		assert_int_equal(r.evidence_line, cases[k].line);
		assert_int_equal(r.ndiags, 1);
		assert_string_equal(r.diags[0].file, "candidate.py");
		run_release(&r);
		buf_release(&log);
		env_plan_release(&plan);
		task_release(&t);
		candidate_release(&c);
		free(cq);
	}
}

static void
test_cad_judge_skip_needs_the_probe(void **state)
{
	struct fx *f = *state;
	struct env_plan plan;
	struct env_stage_result res[2];
	struct task t;
	struct candidate c;
	struct run r;
	struct err err;

	need_tool(&env_cad);
	make_task(&t, "local/solid", "cad", NULL);
	task_add_file(&t, "reference.step", "reference", "REF", 3);
	make_cand(&c, t.id, cube_script);
	free(c.lang);
	c.lang = xstrdup("python");
	env_plan_init(&plan);
	assert_int_equal(env_cad.prepare(&t, &c, f->dir, &plan, &err), 0);

	/* cadquery that does not import, before the script ran: skipped. */
	memset(res, 0, sizeof res);
	res[0].ran = res[1].ran = 1;
	res[0].log = "CadQuery 2.4.0\n";
	res[0].log_len = strlen(res[0].log);
	res[1].log = "skipped: cadquery does not import (ImportError: x)\n";
	res[1].log_len = strlen(res[1].log);
	res[1].exit_code = 77;
	memset(&r, 0, sizeof r);
	env_cad.judge(&t, &plan, res, 2, ENV_STOP_NONE, &r);
	assert_str(r.verdict, "skipped");
	assert_str(r.stage, "cadquery");
	run_release(&r);

	/* A script that exits 77 itself is no skip: cq_run.py said it
	 * was running it. */
	res[1].log = "cq_run: running candidate.py\n"
	    "skipped: cadquery not installed\n";
	res[1].log_len = strlen(res[1].log);
	res[1].exit_code = 77;
	memset(&r, 0, sizeof r);
	env_cad.judge(&t, &plan, res, 2, ENV_STOP_NONE, &r);
	assert_str(r.verdict, "fail");
	assert_str(r.stage, "cadquery");
	run_release(&r);

	/* No python at all is the environment's failure. */
	res[0].log = "assay: cannot run /usr/bin/python3\n";
	res[0].log_len = strlen(res[0].log);
	res[0].exit_code = 127;
	memset(&r, 0, sizeof r);
	env_cad.judge(&t, &plan, res, 1, ENV_STOP_NONE, &r);
	assert_str(r.verdict, "env-error");
	run_release(&r);

	/* A script that runs forever. */
	res[1].exit_code = 137;
	memset(&r, 0, sizeof r);
	env_cad.judge(&t, &plan, res, 2, ENV_STOP_TIMEOUT, &r);
	assert_str(r.verdict, "timeout");
	assert_str(r.category, "functional");
	assert_non_null(strstr(r.evidence, "CadQuery script"));
	run_release(&r);
	env_plan_release(&plan);
	task_release(&t);
	candidate_release(&c);
}

/*
 * Prepare the python candidate code of task t in a fresh f->dir; the
 * candidate.py it wrote, new, into *written when written is not NULL.
 */
static void
prepare_script(struct fx *f, const struct task *t, struct candidate *c,
    const char *code, struct env_plan *plan, char **written)
{
	struct err err;

	rm_rf(f->dir);
	assert_int_equal(mkdir(f->dir, 0700), 0);
	make_cand(c, t->id, code);
	free(c->lang);
	c->lang = xstrdup("python");
	env_plan_init(plan);
	assert_int_equal(env_cad.prepare(t, c, f->dir, plan, &err), 0);
	if (written != NULL) {
		char *path = xasprintf("%s/cq/candidate.py", f->dir);

		*written = read_text(path);
		free(path);
	}
}

/*
 * The IoU stage's orientation line (assay-iou --orient) makes a
 * mismatch a wrong orientation, with the turn and its IoU; a fenced
 * script is a format failure whose symptom is what the code inside did.
 * The logs are the helper's and cq_run.py's own lines.
 */
static void
test_cad_orientation_hint_and_fence(void **state)
{
	static const char iou_log[] = "vA=2000.000000 vB=2000.000000"
	    " vInter=0.000000 vUnion=4000.000000 IoU=0.000000\n"
	    "orient: rotation=\"270 about X\" about=origin IoU=1.000000\n";
	static const char pass_log[] = "vA=2000.000000 vB=2000.000000"
	    " vInter=2000.000000 vUnion=2000.000000 IoU=1.000000\n";
	static const char fenced[] = "Here it is:\n```python\n"
	    "import cadquery as cq\nresult = cq.Workplane().box(1, 1, 1)\n"
	    "```\n";
	struct fx *f = *state;
	struct env_plan plan;
	struct env_stage_result res[3];
	struct task t;
	struct candidate c;
	struct run r;
	struct err err;
	char *text;

	need_tool(&env_cad);
	make_task(&t, "local/solid", "cad", NULL);
	task_add_file(&t, "reference.step", "reference", "REF", 3);
	make_cand(&c, t.id, cube_script);
	free(c.lang);
	c.lang = xstrdup("python");
	env_plan_init(&plan);
	assert_int_equal(env_cad.prepare(&t, &c, f->dir, &plan, &err), 0);
	assert_string_equal(plan.stages[2].argv[3], "--orient");
	assert_string_equal(plan.stages[2].argv[4], "0.900000");
	memset(res, 0, sizeof res);
	res[0].ran = res[1].ran = res[2].ran = 1;
	res[0].log = res[1].log = "";
	res[2].log = iou_log;
	res[2].log_len = strlen(iou_log);
	memset(&r, 0, sizeof r);
	env_cad.judge(&t, &plan, res, 3, ENV_STOP_NONE, &r);
	assert_str(r.verdict, "fail");
	assert_str(r.category, "functional");
	assert_str(r.subcategory, "wrong-orientation");
	assert_str(r.evidence, "IoU 0.000000 below iou_min 0.9 (volume"
	    " 2000.000, reference 2000.000, common 0.000, volume +0.0%);"
	    " turned 270 about X (around the origin) it matches (IoU"
	    " 1.000000): a wrong orientation");
	assert_non_null(strstr(r.metrics, "\"rotation\":\"270 about X\""));
	run_release(&r);

	/* The helper's mesh lines go from the log to r.wave: the log (and
	 * a repair prompt's excerpt of it) keeps the result lines only. */
	{
		static const char mesh_log[] = "mesh: A 1 0 0 0 1 0 0 0 1 0\n"
		    "vA=1.0 vB=1.0 vInter=1.0 vUnion=1.0 IoU=1.0\n"
		    "mesh: B 1 0 0 0 1 0 0 0 1 0\n";

		res[2].log = mesh_log;
		res[2].log_len = strlen(mesh_log);
		memset(&r, 0, sizeof r);
		r.log = xstrdup("$ ./assay-iou c r\nmesh: A 1 0 0 0 1 0 0 0 1 0\n"
		    "vA=1.0 vB=1.0 vInter=1.0 vUnion=1.0 IoU=1.0\n"
		    "mesh: B 1 0 0 0 1 0 0 0 1 0\n");
		r.log_len = strlen(r.log);
		env_cad.judge(&t, &plan, res, 3, ENV_STOP_NONE, &r);
		assert_str(r.verdict, "pass");
		assert_string_equal(r.wave, "mesh: A 1 0 0 0 1 0 0 0 1 0\n"
		    "mesh: B 1 0 0 0 1 0 0 0 1 0\n");
		assert_null(strstr(r.log, "mesh: "));
		assert_non_null(strstr(r.log, "$ ./assay-iou c r\nvA=1.0"));
		assert_non_null(strstr(r.log, "the meshes of 2 solids"));
		run_release(&r);
	}
	env_plan_release(&plan);
	candidate_release(&c);

	/* The fenced answer: its code runs on its own lines, and passes. */
	prepare_script(f, &t, &c, fenced, &plan, &text);
	assert_string_equal(text, "\n\nimport cadquery as cq\n"
	    "result = cq.Workplane().box(1, 1, 1)\n\n");
	free(text);
	res[2].log = pass_log;
	res[2].log_len = strlen(pass_log);
	memset(&r, 0, sizeof r);
	env_cad.judge(&t, &plan, res, 3, ENV_STOP_NONE, &r);
	assert_str(r.verdict, "fail");
	assert_str(r.category, "format");
	assert_str(r.subcategory, "markdown-fence");
	assert_str(r.evidence, "candidate line 2: a markdown fence around the"
	    " script; the script inside passes (IoU 1.000000)");
	assert_int_equal(r.evidence_line, 2);
	run_release(&r);
	env_plan_release(&plan);
	candidate_release(&c);

	/* Prose before an unfenced script: blanked, and format/prose. */
	prepare_script(f, &t, &c, "Here is the script for the cube.\n\n"
	    "# a cube\nimport cadquery as cq\nresult = 1\n", &plan, &text);
	assert_string_equal(text, "\n\n\nimport cadquery as cq\n"
	    "result = 1\n");
	free(text);
	assert_non_null(strstr(buf_str(&plan.precheck),
	    "prose 1 before the script"));
	memset(&r, 0, sizeof r);
	env_cad.judge(&t, &plan, res, 3, ENV_STOP_NONE, &r);
	assert_str(r.verdict, "fail");
	assert_str(r.category, "format");
	assert_str(r.subcategory, "prose");
	assert_str(r.evidence, "candidate line 1: prose before the script;"
	    " the solid itself passes (IoU 1.000000)");
	run_release(&r);
	env_plan_release(&plan);
	candidate_release(&c);

	/* A script that starts with code is left as it is. */
	prepare_script(f, &t, &c, "Size = 3\nimport cadquery as cq\n", &plan,
	    NULL);
	assert_null(strstr(buf_str(&plan.precheck), "prose"));
	env_plan_release(&plan);
	task_release(&t);
	candidate_release(&c);
}

#define FX_TEST(t) cmocka_unit_test_setup_teardown(t, fx_setup, fx_teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		FX_TEST(test_cad_toolchain_names_occt_and_helper),
		FX_TEST(test_cad_toolchain_missing_helper),
		FX_TEST(test_cad_prepare_step_plan),
		FX_TEST(test_cad_prepare_script_plan),
		FX_TEST(test_cad_prepare_bad_task),
		FX_TEST(test_cad_iou_offset_boxes_is_one_third),
		FX_TEST(test_cad_iou_identical_and_disjoint),
		FX_TEST(test_cad_unreadable_step_fails),
		FX_TEST(test_cad_prose_around_step_is_format),
		FX_TEST(test_cad_invalid_solid_fails),
		FX_TEST(test_cad_script_output_link_refused),
		FX_TEST(test_cad_cadquery_through_verify),
		FX_TEST(test_cad_script_errors_from_tracebacks),
		FX_TEST(test_cad_judge_skip_needs_the_probe),
		FX_TEST(test_cad_orientation_hint_and_fence),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
