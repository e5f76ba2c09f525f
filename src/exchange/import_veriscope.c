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
#include <sys/stat.h>

#include <jansson.h>

#include "base/buf.h"
#include "base/file.h"
#include "base/ident.h"
#include "model/sample.h"

#define VS_BRIEF	"problem.md"
#define VS_CONFIG	"config.yaml"
#define VS_TB		"testbench.v"
#define VS_REF		"reference.v"

/* Is there a regular file name in dir? */
static int
vs_has(const char *dir, const char *name)
{
	char *p = xasprintf("%s/%s", dir, name);
	struct stat sb;
	int yes = stat(p, &sb) == 0 && S_ISREG(sb.st_mode);

	free(p);
	return yes;
}

/* Is dir a problem bundle (a brief and a testbench)? */
static int
vs_bundle(const char *dir)
{
	return vs_has(dir, VS_BRIEF) && vs_has(dir, VS_TB);
}

/* Is name a tier folder's name ("L1_basic")? */
static int
vs_tier_name(const char *name)
{
	return name[0] == 'L' && name[1] >= '0' && name[1] <= '9' &&
	    name[2] == '_';
}

/* Does dir hold a bundle (depth 1) or a tier folder with one (depth 2)? */
static int
vs_holds(const char *dir, int depth)
{
	char **names;
	size_t n;
	int yes = 0;

	if (import_list_dir(dir, &names, &n, NULL) < 0)
		return 0;
	for (size_t i = 0; i < n && !yes; i++) {
		char *p = xasprintf("%s/%s", dir, names[i]);

		yes = depth == 1 ? vs_bundle(p) : vs_tier_name(names[i]) &&
		    vs_holds(p, 1);
		free(p);
	}
	strv_free(names, n);
	return yes;
}

/* path trimmed, or its data/ when path is a checkout's root (new). */
static char *
vs_root(const char *path)
{
	char *p = file_trim(path), *d;

	if (!file_is_dir(p) || vs_holds(p, 2) || vs_holds(p, 1))
		return p;
	d = xasprintf("%s/data", p);
	if (file_is_dir(d) && vs_holds(d, 2)) {
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
	int yes = file_is_dir(p) && (vs_holds(p, 2) ||
	    (vs_tier_name(file_base(p)) && vs_holds(p, 1)));

	free(p);
	return yes;
}

/* The file name of dir whole (NULL when optional and not there). */
static int
vs_read(const char *dir, const char *name, int optional, char **out,
    size_t *len, struct err *err)
{
	char *p = xasprintf("%s/%s", dir, name);
	int rc = 0;

	*out = NULL;
	*len = 0;
	if (!optional || vs_has(dir, name))
		rc = import_read(p, out, len, err);
	free(p);
	return rc;
}

/* One bundle dir of tier into a task, and its reference when it has one. */
static int
vs_problem(struct store *st, const char *dir, const char *tier,
    struct import_report *rep, struct err *err)
{
	char *brief = NULL, *config = NULL, *tb = NULL, *ref = NULL, *id;
	size_t blen, clen, tlen, rlen;
	struct task t = { 0 };
	struct candidate c = { 0 };
	struct buf b = BUF_INIT;
	json_t *extra;
	int rc = -1;

	if (vs_read(dir, VS_BRIEF, 0, &brief, &blen, err) < 0 ||
	    vs_read(dir, VS_TB, 0, &tb, &tlen, err) < 0 ||
	    vs_read(dir, VS_CONFIG, 1, &config, &clen, err) < 0 ||
	    vs_read(dir, VS_REF, 1, &ref, &rlen, err) < 0)
		goto out;
	if (config == NULL)
		buf_printf(&rep->warnings, "%s: no %s\n", dir, VS_CONFIG);
	id = xasprintf("veriscope/%s", file_base(dir));
	rc = import_tb_task(&t, id, "veriscope", dir, VS_TB, tb, tlen, err);
	free(id);
	if (rc < 0)
		goto out;
	rc = -1;
	buf_add(&b, brief, blen);
	if (b.len > 0 && b.p[b.len - 1] != '\n')
		buf_addc(&b, '\n');
	buf_adds(&b, "\nThe testbench testbench.v checks the design; first-pass"
	    " correctness is what counts.\n");
	t.spec = buf_detach(&b, NULL);
	if (config != NULL)
		t.interface = xstrndup(config, clen);
	extra = json_pack("{s:s}", "tier", tier);
	t.extra = json_dumps(extra, JSON_COMPACT);
	json_decref(extra);
	if (import_put_task(st, &t, rep, err) < 0)
		goto out;
	if (ref != NULL) {
		char *path = xasprintf("%s/%s", dir, VS_REF);

		c.task_id = xstrdup(t.id);
		c.origin = xstrdup("reference");
		c.kind = xstrdup("direct");
		c.lang = xstrdup("verilog");
		c.source = path;
		import_set_code(&c, ref);
		if (import_put_candidate(st, &c, NULL, 0, rep, NULL, err) < 0)
			goto out;
	}
	rc = 0;
out:
	candidate_release(&c);
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
	char **names;
	size_t n;
	int rc = 0;

	if (import_list_dir(dir, &names, &n, err) < 0)
		return -1;
	for (size_t i = 0; i < n && rc == 0; i++) {
		char *p = xasprintf("%s/%s", dir, names[i]);

		if (vs_bundle(p))
			rc = vs_problem(st, p, file_base(dir), rep, err);
		else if (file_is_dir(p))
			buf_printf(&rep->warnings, "%s: no %s and %s: not a"
			    " problem bundle\n", p, VS_BRIEF, VS_TB);
		free(p);
	}
	strv_free(names, n);
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
		c.kind = xstrdup("direct");
		c.lang = xstrdup("verilog");
		c.source = xasprintf("%s:[%zu]", path, i);
		import_set_code(&c, code);
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
	char *p = vs_root(path), *up = NULL;
	int rc = -1;

	(void)opts;
	if (!file_is_dir(p)) {
		rc = vs_predictions(st, p, rep, err);
	} else if (vs_holds(p, 2)) {
		char **names;
		size_t n;

		if (import_list_dir(p, &names, &n, err) < 0)
			goto out;
		rc = 0;
		for (size_t i = 0; i < n && rc == 0; i++) {
			char *d = xasprintf("%s/%s", p, names[i]);

			if (vs_tier_name(names[i]) && file_is_dir(d))
				rc = vs_tier(st, d, rep, err);
			free(d);
		}
		strv_free(names, n);
	} else if (vs_holds(p, 1)) {
		rc = vs_tier(st, p, rep, err);
	} else if (vs_bundle(p)) {
		up = file_dir(p);
		rc = vs_problem(st, p, file_base(up), rep, err);
	} else {
		err_set(err, "%s: not VeriScope data (want the checkout, data/ with"
		    " its tier folders L1_basic/ ..., one tier, one bundle with %s and"
		    " %s, or a predictions file)", p, VS_BRIEF, VS_TB);
	}
out:
	free(up);
	free(p);
	return rc;
}

const struct importer importer_veriscope = {
	"veriscope", import_veriscope_detect, NULL, import_veriscope
};
