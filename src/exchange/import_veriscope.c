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

static int vs_holds(const char *, int);

/* import_any_entry(): is p a bundle (*depth 1) or a tier folder with one
 * (*depth 2)? */
static int
vs_holds_entry(const char *p, const char *name, void *arg)
{
	const int *depth = arg;

	return *depth == 1 ? vs_bundle(p) : vs_tier_name(name) &&
	    vs_holds(p, 1);
}

/* Does dir hold a bundle (depth 1) or a tier folder with one (depth 2)? */
static int
vs_holds(const char *dir, int depth)
{
	return import_any_entry(dir, vs_holds_entry, &depth);
}

static int
import_veriscope_detect(const char *path)
{
	char *p = file_trim(path);
	int yes = file_is_dir(p) && (vs_holds(p, 2) ||
	    (vs_tier_name(file_base(p)) && vs_holds(p, 1)));

	free(p);
	return yes;
}

/* Where a bundle goes: the store, the report and the tier's name. */
struct vs_ctx {
	struct store		*st;
	struct import_report	*rep;
	const char		*tier;
};

/* One bundle dir of x->tier into a task, and its reference when it has
 * one. */
static int
vs_problem(const char *dir, void *arg, struct err *err)
{
	struct vs_ctx *x = arg;
	char *brief = NULL, *config = NULL, *tb = NULL, *ref = NULL, *id;
	size_t blen, clen, tlen, rlen;
	struct task t = { 0 };
	json_t *extra;
	int rc = -1;

	if (import_read_in(dir, VS_BRIEF, 0, &brief, &blen, err) < 0 ||
	    import_read_in(dir, VS_TB, 0, &tb, &tlen, err) < 0 ||
	    import_read_in(dir, VS_CONFIG, 1, &config, &clen, err) < 0 ||
	    import_read_in(dir, VS_REF, 1, &ref, &rlen, err) < 0)
		goto out;
	if (config == NULL)
		buf_printf(&x->rep->warnings, "%s: no %s\n", dir, VS_CONFIG);
	id = xasprintf("veriscope/%s", file_base(dir));
	rc = import_tb_task(&t, id, "veriscope", dir, VS_TB, tb, tlen, err);
	free(id);
	if (rc < 0)
		goto out;
	t.spec = import_spec(brief, blen, "\nThe testbench testbench.v checks"
	    " the design; first-pass correctness is what counts.\n");
	if (config != NULL)
		t.interface = xstrndup(config, clen);
	extra = json_pack("{s:s}", "tier", x->tier);
	t.extra = json_dumps(extra, JSON_COMPACT);
	json_decref(extra);
	rc = import_put_task(x->st, &t, x->rep, err);
	if (rc == 0 && ref != NULL)
		rc = import_put_reference(x->st, t.id, "verilog",
		    xasprintf("%s/%s", dir, VS_REF), ref, x->rep, err);
out:
	task_release(&t);
	free(brief);
	free(config);
	free(tb);
	free(ref);
	return rc;
}

/* Every bundle of a tier folder. */
static int
vs_tier(struct store *st, const char *dir, struct import_report *rep,
    struct err *err)
{
	struct vs_ctx x = { st, rep, file_base(dir) };

	return import_each_problem(dir, vs_bundle, vs_problem, &x,
	    "no " VS_BRIEF " and " VS_TB ": not a problem bundle", rep, err);
}

/* What the walk of the tiers of data/ takes. */
struct vs_walk {
	struct vs_ctx	 x;
	struct err	*err;
};

/* import_each_entry(): the bundles of p when it is a tier folder. */
static int
vs_tier_entry(const char *p, const char *name, void *arg)
{
	struct vs_walk *w = arg;

	if (!vs_tier_name(name) || !file_is_dir(p))
		return 0;
	return vs_tier(w->x.st, p, w->x.rep, w->err);
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
	char *text = NULL, *model = NULL;
	size_t len, i;
	json_t *root = NULL, *row;
	json_error_t je;
	int rc = -1;

	if (import_read(path, &text, &len, err) < 0)
		return -1;
	root = json_loadb(text, len, 0, &je);
	if (!json_is_array(root)) {
		err_set(err, "%s:%d: not VeriScope predictions (a JSON array of"
		    " {\"problem_id\", \"completion\"}): %s", path, je.line,
		    root == NULL ? je.text : "not an array");
		goto out;
	}
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
	free(text);
	return rc;
}

static int
import_veriscope(struct store *st, const char *path,
    const struct import_opts *opts, struct import_report *rep,
    struct err *err)
{
	char *p = file_trim(path), *up = NULL;
	struct vs_walk w = { { st, rep, NULL }, err };
	int rc = -1;

	(void)opts;
	if (!file_is_dir(p)) {
		rc = vs_predictions(st, p, rep, err);
	} else if (vs_holds(p, 2)) {
		rc = import_each_entry(p, vs_tier_entry, &w, err);
	} else if (vs_holds(p, 1)) {
		rc = vs_tier(st, p, rep, err);
	} else if (vs_bundle(p)) {
		up = file_dir(p);
		w.x.tier = file_base(up);
		rc = vs_problem(p, &w.x, err);
	} else {
		err_set(err, "%s: not VeriScope data (want data/ with its tier"
		    " folders L1_basic/ ..., one tier, one bundle with %s and"
		    " %s, or a predictions file)", p, VS_BRIEF, VS_TB);
	}
	free(up);
	free(p);
	return rc;
}

const struct importer importer_veriscope = {
	"veriscope", import_veriscope_detect, NULL, import_veriscope
};
