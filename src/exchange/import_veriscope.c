/*
 * import_veriscope.c - the VeriScope reader (zwpride/VeriScope: its
 * problem bundles and its prediction files); see import.h,
 * docs/formats.md and ADR 0046.
 *
 * VeriScope's dataset (docs/DATASET_LAYOUT.md of the code release) is a
 * folder per tier, L1_basic/ ... L5_ultimate/, of problem bundles named
 * by problem id (015_nand_gate/), each with problem.md (the brief),
 * config.yaml (interface metadata), testbench.v and, in the maintainers'
 * package only, reference.v.  Each bundle becomes a task of env iverilog:
 * the testbench (role testbench, its own module the top), problem.md as
 * the requirement, config.yaml kept whole as the interface; reference.v,
 * when there is one, is the task's reference candidate.  A predictions
 * file (scripts/run_public_eval.py --predictions: a JSON array of
 * {"problem_id", "completion"}) gives candidates of the tasks of those
 * ids, their origin the file's "model" field, else its name.
 *
 * It reads files and writes through store.h, inside the transaction that
 * import_path() holds; nothing here prints.
 */
#include "exchange/import.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/buf.h"
#include "base/file.h"
#include "base/ident.h"
#include "model/sample.h"

#define VS_BRIEF	"problem.md"
#define VS_CONFIG	"config.yaml"
#define VS_TB		"testbench.v"
#define VS_REF		"reference.v"

/* Is dir a problem bundle (a brief and a testbench)? */
static int
vs_bundle(const char *dir)
{
	return import_has_file(dir, VS_BRIEF) && import_has_file(dir, VS_TB);
}

/* Is name a tier folder's name ("L1_basic")? */
static int
vs_tier_name(const char *name)
{
	return name[0] == 'L' && name[1] >= '0' && name[1] <= '9' &&
	    name[2] == '_';
}

static int vs_problem(const char *, void *, struct err *);

static const struct import_tb_files vs_files = {
	"veriscope", VS_BRIEF, VS_TB, VS_CONFIG, 1,
	"\nThe testbench testbench.v checks the design; first-pass correctness"
	" is what counts.\n", "tier"
};

static const struct import_layout vs_layout = {
	vs_tier_name, vs_bundle, vs_problem,
	"no " VS_BRIEF " and " VS_TB ": not a problem bundle", 0,
	"not VeriScope data (want the checkout, data/ with its tier folders"
	" L1_basic/ ..., one tier, one bundle with " VS_BRIEF " and " VS_TB
	", or a predictions file)"
};

/* path trimmed, or its data/ when path is a checkout's root (new). */
static char *
vs_root(const char *path)
{
	char *p = file_trim(path), *d;

	if (!file_is_dir(p) || import_layout_holds(&vs_layout, p, 2) ||
	    import_layout_holds(&vs_layout, p, 1))
		return p;
	d = xasprintf("%s/data", p);
	if (file_is_dir(d) && import_layout_holds(&vs_layout, d, 2)) {
		free(p);
		return d;
	}
	free(d);
	return p;
}

static int
import_veriscope_detect(const char *path)
{
	char *p = vs_root(path);
	int yes = file_is_dir(p) && (import_layout_holds(&vs_layout, p, 2) ||
	    (vs_tier_name(file_base(p)) &&
	    import_layout_holds(&vs_layout, p, 1)));

	free(p);
	return yes;
}

/* One bundle dir of tier w->group into a task, and its reference when it
 * has one. */
static int
vs_problem(const char *dir, void *arg, struct err *err)
{
	const struct import_walk *w = arg;
	char *id = xasprintf("veriscope/%s", file_base(dir)), *ref = NULL;
	size_t rlen;
	struct task t = { 0 };
	int rc;

	rc = import_tb_problem(w, dir, &vs_files, id, &t, err);
	if (rc == 0)
		rc = import_read_in(dir, VS_REF, 1, &ref, &rlen, err);
	if (rc == 0 && ref != NULL)
		rc = import_put_reference(w->st, t.id, "verilog",
		    xasprintf("%s/%s", dir, VS_REF), ref, w->rep, err);
	task_release(&t);
	free(ref);
	free(id);
	return rc;
}

/*
 * A predictions file: each {"problem_id", "completion"} a candidate of
 * task veriscope/PROBLEM_ID, which must be there.  Errors name the
 * file and the element ("path: [3]: ...").
 */
static int
vs_predictions(struct store *st, const char *path, struct import_report *rep,
    struct err *err)
{
	char *model = NULL;
	size_t i;
	json_t *root, *row;
	int rc = -1;

	if (import_read_array(path, "VeriScope predictions (a JSON array of"
	    " {\"problem_id\", \"completion\"})", &root, err) < 0)
		return -1;
	{
		const char *base = file_base(path);
		const char *dot = strrchr(base, '.');

		model = dot != NULL ? xstrndup(base, (size_t)(dot - base)) :
		    xstrdup(base);
	}
	json_array_foreach(root, i, row) {
		const char *pid = import_jstr(row, "problem_id");
		const char *code = import_jstr(row, "completion");
		const char *who = import_jstr(row, "model");
		struct candidate c = { 0 };
		char *id;
		int r;

		if (pid == NULL || code == NULL) {
			err_set(err, "%s: [%zu]: no \"problem_id\" or"
			    " \"completion\" string", path, i);
			goto out;
		}
		id = xasprintf("veriscope/%s", pid);
		c.task_id = ident_fit_task_id(id);
		free(id);
		c.origin = xstrdup(who != NULL ? who : model);
		c.origin_raw = xstrdup(file_base(path));
		import_direct_code(&c, "verilog", xasprintf("%s:[%zu]", path, i),
		    xstrdup(code), strlen(code));
		r = import_put_candidate(st, &c, NULL, 0, rep, NULL, err);
		candidate_release(&c);
		if (r < 0) {
			struct err e2;

			err_set(&e2, "%s: [%zu] (problem %s): %s", path, i, pid,
			    err->msg);
			*err = e2;
			goto out;
		}
	}
	rc = 0;
out:
	json_decref(root);
	free(model);
	return rc;
}

static int
import_veriscope(struct store *st, const char *path,
    const struct import_opts *opts, struct import_report *rep,
    struct err *err)
{
	char *p = vs_root(path);
	int rc;

	(void)opts;
	if (!file_is_dir(p))
		rc = vs_predictions(st, p, rep, err);
	else
		rc = import_layout_run(&vs_layout, st, p, rep, err);
	free(p);
	return rc;
}

const struct importer importer_veriscope = {
	"veriscope", import_veriscope_detect, NULL, import_veriscope
};
