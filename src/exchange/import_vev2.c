/*
 * import_vev2.c - a VerilogEval v2 problem directory (docs/formats.md):
 * every ProbNNN_name_prompt.txt with its _test.sv and _ref.sv becomes the
 * task verilog-eval-v2/ProbNNN_name (env iverilog, the prompt as spec,
 * the test bench and the reference as task files) and the reference,
 * its RefModule renamed TopModule, a candidate of origin reference.
 * Files that are part of no problem are listed as warnings.
 * --format auto: a directory holding a *_prompt.txt.
 */
#include "exchange/import.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "model/sample.h"

/* Replace whole-word "RefModule" with "TopModule". */
static char *
rename_module(const char *code)
{
	struct buf b = BUF_INIT;
	const char *p = code, *q;

	while ((q = strstr(p, "RefModule")) != NULL) {
		int word = (q == code || !(q[-1] == '_' ||
		    (q[-1] >= '0' && q[-1] <= '9') ||
		    ((q[-1] | 32) >= 'a' && (q[-1] | 32) <= 'z'))) &&
		    !(q[9] == '_' || (q[9] >= '0' && q[9] <= '9') ||
		    ((q[9] | 32) >= 'a' && (q[9] | 32) <= 'z'));

		buf_add(&b, p, (size_t)(q - p));
		buf_adds(&b, word ? "TopModule" : "RefModule");
		p = q + 9;
	}
	buf_adds(&b, p);
	return buf_detach(&b, NULL);
}

/* The last component of a path: borrowed from path. */
static const char *
base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash != NULL ? slash + 1 : path;
}

static int
vev2_problem(struct store *st, const char *dir, const char *prob,
    struct import_report *rep, struct err *err)
{
	char *ppath = xasprintf("%s/%s_prompt.txt", dir, prob);
	char *tpath = xasprintf("%s/%s_test.sv", dir, prob);
	char *rpath = xasprintf("%s/%s_ref.sv", dir, prob);
	char *prompt = NULL, *test = NULL, *ref = NULL, *code = NULL;
	size_t plen, tlen, rlen;
	struct task t = { 0 };
	int rc = -1;

	if (import_read(ppath, &prompt, &plen, err) < 0 ||
	    import_read(tpath, &test, &tlen, err) < 0 ||
	    import_read(rpath, &ref, &rlen, err) < 0)
		goto out;
	if (strstr(ref, "RefModule") == NULL) {
		err_set(err, "%s: no module RefModule in the reference", rpath);
		goto out;
	}
	t.id = xasprintf("verilog-eval-v2/%s", prob);
	t.benchmark = xstrdup("verilog-eval-v2");
	t.domain = xstrdup("chip");
	t.env = xstrdup("iverilog");
	t.env_params = xstrdup("{\"top\":\"tb\",\"timeout_s\":30}");
	t.spec = xstrndup(prompt, plen);
	t.source = xasprintf("%s/%s", dir, prob);
	task_add_file(&t, base_name(tpath), "testbench", test, tlen);
	task_add_file(&t, base_name(rpath), "reference", ref, rlen);
	if (import_put_task(st, &t, rep, err) < 0)
		goto out;
	code = rename_module(ref);
	rc = import_put_reference(st, t.id, "verilog", xstrdup(rpath), code,
	    rep, err);
out:
	task_release(&t);
	free(code);
	free(prompt);
	free(test);
	free(ref);
	free(ppath);
	free(tpath);
	free(rpath);
	return rc;
}

static int
vev2_dir(struct store *st, const char *dir, struct import_report *rep,
    struct err *err)
{
	char **names;
	size_t n, probs = 0;

	if (import_list_dir(dir, &names, &n, err) < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		const char *name = names[i];
		char *prob, *other;
		struct stat sb;
		int complete;

		if (import_has_suffix(name, "_prompt.txt")) {
			prob = xstrndup(name, strlen(name) - strlen("_prompt.txt"));
			other = xasprintf("%s/%s_test.sv", dir, prob);
			complete = stat(other, &sb) == 0;
			free(other);
			other = xasprintf("%s/%s_ref.sv", dir, prob);
			complete = complete && stat(other, &sb) == 0;
			free(other);
			if (!complete) {
				buf_printf(&rep->warnings, "%s/%s: problem without"
				    " its _test.sv and _ref.sv, ignored\n", dir,
				    name);
			} else if (vev2_problem(st, dir, prob, rep, err) < 0) {
				free(prob);
				strv_free(names, n);
				return -1;
			} else {
				probs++;
			}
			free(prob);
			continue;
		}
		if (import_has_suffix(name, "_test.sv") || import_has_suffix(name, "_ref.sv")) {
			size_t cut = strlen(name) - (import_has_suffix(name, "_test.sv") ?
			    strlen("_test.sv") : strlen("_ref.sv"));

			prob = xasprintf("%s/%.*s_prompt.txt", dir, (int)cut, name);
			complete = stat(prob, &sb) == 0;
			free(prob);
			if (complete)
				continue;
		}
		if (strcmp(name, "LICENSE") == 0 || import_has_suffix(name, ".md"))
			continue;
		buf_printf(&rep->warnings, "%s/%s: not part of a problem "
		    "(_prompt.txt, _test.sv, _ref.sv), ignored\n", dir, name);
	}
	strv_free(names, n);
	if (probs == 0)
		return err_set(err, "%s: no VerilogEval v2 problems"
		    " (*_prompt.txt with _test.sv and _ref.sv)", dir);
	return 0;
}

static int
vev2_detect(const char *path)
{
	struct stat sb;
	struct err err;
	char **names;
	size_t n;
	int yes = 0;

	if (stat(path, &sb) < 0 || !S_ISDIR(sb.st_mode))
		return 0;
	if (import_list_dir(path, &names, &n, &err) < 0)
		return 0;
	for (size_t i = 0; i < n && !yes; i++)
		yes = import_has_suffix(names[i], "_prompt.txt");
	strv_free(names, n);
	return yes;
}

static int
vev2_run(struct store *st, const char *path,
    const struct import_opts *opts, struct import_report *rep,
    struct err *err)
{
	(void)opts;
	return vev2_dir(st, path, rep, err);
}

const struct importer importer_vev2 = {
	"verilog-eval-v2", vev2_detect, NULL, vev2_run
};
