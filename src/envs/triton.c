/*
 * triton.c - the triton env (design.md section 7, docs/envs/triton.md):
 * KernelBench's evaluation of a candidate ModelNew (Triton kernels in a
 * PyTorch module) against the task's PyTorch Model.
 *
 * Two stages, both assay's harness (share/envs/triton/kb_harness.py) on
 * the project venv's interpreter (else Debian's):
 *
 *   python3 -I -B kb_harness.py check
 *   python3 -I -B kb_harness.py eval REFERENCE candidate.py
 *       --trials 100 --correct-trials 5 --atol 1e-4 --rtol 1e-4
 *       --cpu-atol 0.01 --cpu-rtol 0.01 --seed 42
 *
 * check exits 77 with the reason when torch, triton or a GPU is missing
 * (no candidate code has run then, so it cannot fake that): the run is
 * skipped, its subcategory and evidence say what is missing.  eval
 * prints marker lines that start with a per-run nonce (which it reads
 * from a file and removes before loading the candidate) and hold one
 * JSON object each; the judge believes only those.  The candidate runs
 * in a worker process whose reply is data, never a verdict; the checker
 * replays what forward recorded with every value Triton stored
 * randomized to prove that a Triton kernel computes the output, else
 * api/no-triton-kernel (ADR 0036, 0048).  A Python
 * exception maps to a category by the small rule table triton_rules[]
 * (a NameError, TypeError or AttributeError is an API knowledge gap, as
 * TritonBench counts them); correct kernels pass unless slower than the
 * reference (performance), a speedup over 10x is marked
 * suspicious-speedup, and a pass from Triton's interpreter on the CPU is
 * marked cpu-interpreter.
 *
 * A task whose env_params say "eval": "stdout" (TritonBench, ADR 0046)
 * runs instead
 *
 *   python3 -I -B kb_harness.py tbeval REFERENCE TEST candidate.py
 *
 * TritonBench's execution accuracy: the task's test code (its file of
 * role testbench) appended to the reference and to the candidate, each
 * run in a process of its own, their stdouts compared by the checker;
 * the checker's replay of the candidate's recorded run, with Triton's
 * stores randomized, proves Triton there too (ADR 0057).
 */
#define _GNU_SOURCE
#include "envs/env.h"

#include <errno.h>
#include <fcntl.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "base/hash.h"
#include "envs/element.h"
#include "model/feedback.h"

#define PYTHON		"/usr/bin/python3"
#define HARNESS		"kb_harness.py"
#define CAND_FILE	"candidate.py"
#define NONCE_FILE	"nonce"
#define SKIP_STATUS	77
#define TAG		"assay-triton: "

/* KernelBench's rule: a speedup over this is suspicious. */
#define SUSPICIOUS_SPEEDUP 10.0
/* KernelBench's atol = rtol, used where there is no GPU. */
#define CPU_TOL 1e-2

/*
 * The version query: one line of what the interpreter can import.  It
 * runs outside the sandbox, trusted, with -I as in the sandbox.
 */
static const char probe_py[] =
    "import os, sys, importlib.util, importlib.metadata as m\n"
    "p = ['Python ' + sys.version.split()[0]]\n"
    "g = None\n"
    "def version(name):\n"
    "    try:\n"
    "        if importlib.util.find_spec(name) is None:\n"
    "            return None\n"
    "        return m.version(name)\n"
    "    except Exception:\n"
    "        return None\n"
    "t = version('torch')\n"
    "p.append('torch ' + t if t else 'torch not installed')\n"
    "v = version('triton')\n"
    "p.append('triton ' + v if v else 'triton not installed')\n"
    "drv = os.path.exists('/proc/driver/nvidia/version')\n"
    "if t and drv:\n"
    "    try:\n"
    "        import torch\n"
    "        if torch.cuda.is_available():\n"
    "            g = torch.cuda.get_device_name(0)\n"
    "    except Exception:\n"
    "        pass\n"
    "elif not t and drv:\n"
    "    g = 'device present'\n"
    "p.append('GPU ' + g if g else 'no GPU')\n"
    "print('; '.join(p))\n";

/*
 * Triage rules (docs/triage.md): what a Python exception from the
 * candidate means, first match wins, matched against "TYPE: message".
 * Triton reports errors inside @triton.jit code as CompilationError
 * with the cause in the message.  Anything else is functional/
 * runtime-error.
 */
static const struct env_rule triton_rules[] = {
	{ "check eval", "^NameError:", CATEGORY_API, "name-error" },
	{ "check eval", "^TypeError:", CATEGORY_API, "type-error" },
	{ "check eval", "^AttributeError:", CATEGORY_API, "attribute-error" },
	{ "check eval", "^ModuleNotFoundError:", CATEGORY_API,
	  "unknown-module" },
	{ "check eval", "^ImportError:", CATEGORY_API, "import-error" },
	{ "check eval", "^CompilationError:*NameError", CATEGORY_API,
	  "name-error" },
	{ "check eval", "^CompilationError:*AttributeError", CATEGORY_API,
	  "attribute-error" },
	{ "check eval", "^CompilationError:*TypeError", CATEGORY_API,
	  "type-error" },
	{ "check eval", "^CompilationError:", CATEGORY_COMPILE,
	  "triton-compile-error" },
	{ "check eval", "^SyntaxError:", CATEGORY_COMPILE, "syntax-error" },
	{ "check eval", "^IndentationError:", CATEGORY_COMPILE,
	  "syntax-error" },
	{ "check eval", "^TabError:", CATEGORY_COMPILE, "syntax-error" },
	{ "check eval", "^OutOfResources:", CATEGORY_COMPILE,
	  "out-of-resources" },
	{ "check eval", "^OutOfMemoryError:", CATEGORY_FUNCTIONAL,
	  "resource-limit" },
	{ "check eval", "^RuntimeError:*out of memory", CATEGORY_FUNCTIONAL,
	  "resource-limit" },
	{ "check eval", "^RuntimeError:*illegal memory access",
	  CATEGORY_FUNCTIONAL, "illegal-memory-access" },
	{ "check eval", "^AssertionError:", CATEGORY_FUNCTIONAL, "assertion" },
};
#define TRITON_NRULES (sizeof triton_rules / sizeof triton_rules[0])

/* The rule for an exception of class type, or NULL (runtime-error). */
static const struct env_rule *
py_rule(const char *type, const char *message)
{
	char *text = xasprintf("%s: %s", type, message != NULL ? message :
	    "");
	const struct env_rule *rule = env_rule_find(triton_rules,
	    TRITON_NRULES, "eval", text);

	free(text);
	return rule;
}

/* The harness as compiled into the binary. */
static const char *
harness(size_t *len)
{
	return env_share("triton/" HARNESS, len);
}

static int
triton_toolchain(char *buf, size_t n, struct err *err)
{
	const char *venv = env_venv_dir();
	char *py = venv != NULL ? xasprintf("%s/bin/python3", venv) :
	    xstrdup(PYTHON);
	/* -W ignore: torch's warning about the driver is no version. */
	const char *const argv[] = { py, "-I", "-W", "ignore", "-c",
	    probe_py, NULL };
	char id[400], hex[HASH_HEX_LEN + 1];
	const char *h;
	size_t hlen;
	int rc = env_tool_version(argv, id, sizeof id);

	free(py);
	if (rc < 0)
		return err_set(err, "%s is not installed (Debian package"
		    " python3)", PYTHON);
	h = harness(&hlen);
	if (h == NULL)
		return err_set(err, "share/envs/triton/%s is not compiled in",
		    HARNESS);
	/* The harness decides verdicts too: a new one runs them again. */
	hash_sha256(h, hlen, hex);
	/* Where torch is: the project venv's or the system Python's. */
	snprintf(buf, n, "%s; harness %.12s%s", id, hex, venv != NULL ?
	    "; venv" : "");
	return 0;
}

/*
 * What the probe found missing, from the identity: "torch not installed",
 * "triton not installed", "no GPU".  When any of them is missing, the
 * check stage skips every candidate.
 */
static int
triton_partial(const char *identity, char *buf, size_t n)
{
	static const struct {
		const char *says, *part;
	} parts[] = {
		{ "; torch not installed", "torch" },
		{ "; triton not installed", "triton" },
		{ "; no GPU", "a GPU" },
	};
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
		if (strstr(identity, parts[i].says) != NULL && len < n)
			len += (size_t)snprintf(buf + len, n - len, "%s%s",
			    len > 0 ? ", " : "", parts[i].part);
	return len > 0;
}

/* Write the nonce where the harness reads it; not an input of the run. */
static int
write_nonce(const char *workdir, const char *nonce, struct err *err)
{
	char *path = xasprintf("%s/%s", workdir, NONCE_FILE);
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	size_t len = strlen(nonce);
	int rc = 0;

	if (fd < 0 || write(fd, nonce, len) != (ssize_t)len)
		rc = err_set(err, "write %s: %s", path, strerror(errno));
	if (fd >= 0)
		close(fd);
	free(path);
	return rc;
}

/* A number of the task's env_params, def when absent. */
static double
param_num(const struct task *t, const char *key, double def)
{
	json_t *root = t->env_params != NULL ? json_loads(t->env_params, 0,
	    NULL) : NULL;
	json_t *v = json_object_get(root, key);
	double r = json_is_number(v) ? json_number_value(v) : def;

	json_decref(root);
	return r;
}

/* Does the task ask for TritonBench's evaluation (identical stdout with
 * its test code appended) instead of KernelBench's? */
static int
stdout_eval(const struct task *t)
{
	char *e = env_param_str(t, "eval");
	int yes = e != NULL && strcmp(e, "stdout") == 0;

	free(e);
	return yes;
}

/* The stages of TritonBench's evaluation: check, then tbeval. */
static void
stdout_stages(struct env_plan *plan, const char *ref, const char *test)
{
	int venv;
	const char *py = env_python(&venv);
	const char *check[] = { py, "-I", "-B", HARNESS, "check", NULL };
	const char *eval[] = { py, "-I", "-B", HARNESS, "tbeval", ref, test,
	    CAND_FILE, NULL };

	env_plan_stage(plan, "check", check);
	env_plan_stage(plan, "eval", eval);
	for (size_t i = plan->nstages - 2; i < plan->nstages; i++) {
		plan->stages[i].gpu = 1;
		plan->stages[i].venv = venv;
	}
	plan->stages[plan->nstages - 1].candidate = 1;
}

static int
triton_prepare(const struct task *t, const struct candidate *c,
    const char *workdir, struct env_plan *plan, struct err *err)
{
	const struct task_file *ref = task_file_by_role(t, "reference");
	const char *h;
	char trials[24], correct[24], atol[32], rtol[32], seed[24];
	char catol[32], crtol[32];
	static const char *const reserved[] = { CAND_FILE, HARNESS,
	    NONCE_FILE, NULL };
	size_t hlen;

	if (ref == NULL)
		return err_set(err, "task %s has no reference file (role"
		    " reference): the triton env compares ModelNew with its"
		    " Model", t->id);
	h = harness(&hlen);
	if (h == NULL)
		return err_set(err, "share/envs/triton/%s is not compiled in",
		    HARNESS);
	env_nonce(plan->nonce, sizeof plan->nonce, 16, 'K');
	plan->cand_file = xstrdup(CAND_FILE);
	plan->timeout_s = (int)env_param_int(t, "timeout_s", 300);
	if (env_write_input(plan, workdir, CAND_FILE, c->code, c->code_len,
	    err) < 0)
		return -1;
	if (env_write_task_files(plan, workdir, t, reserved, "the triton env",
	    err) < 0)
		return -1;
	if (env_write_input(plan, workdir, HARNESS, h, hlen, err) < 0 ||
	    write_nonce(workdir, plan->nonce, err) < 0)
		return -1;
	if (t->env_params != NULL)
		env_note_input(plan, "env_params", t->env_params,
		    strlen(t->env_params));
	if (env_param_int(t, "trials", 100) < 1 ||
	    env_param_int(t, "correct_trials", 5) < 1)
		return err_set(err, "task %s: env_params trials and"
		    " correct_trials must be at least 1", t->id);
	snprintf(trials, sizeof trials, "%ld", env_param_int(t, "trials", 100));
	snprintf(correct, sizeof correct, "%ld", env_param_int(t,
	    "correct_trials", 5));
	snprintf(atol, sizeof atol, "%g", param_num(t, "atol", 1e-4));
	snprintf(rtol, sizeof rtol, "%g", param_num(t, "rtol", 1e-4));
	/* The CPU path's tolerances are named too: the logged command says
	 * what the judge uses where there is no GPU. */
	snprintf(catol, sizeof catol, "%g", param_num(t, "cpu_atol",
	    CPU_TOL));
	snprintf(crtol, sizeof crtol, "%g", param_num(t, "cpu_rtol",
	    CPU_TOL));
	snprintf(seed, sizeof seed, "%ld", env_param_int(t, "seed", 42));
	if (stdout_eval(t)) {
		const struct task_file *test = task_file_by_role(t,
		    "testbench");

		if (test == NULL)
			return err_set(err, "task %s has no test file (role"
			    " testbench): \"eval\": \"stdout\" appends it to"
			    " the reference and the candidate", t->id);
		stdout_stages(plan, ref->name, test->name);
		return 0;
	}
	{
		int venv;
		const char *py = env_python(&venv);
		const char *check[] = { py, "-I", "-B", HARNESS, "check",
		    NULL };
		const char *eval[] = { py, "-I", "-B", HARNESS, "eval",
		    ref->name, CAND_FILE, "--trials", trials,
		    "--correct-trials", correct, "--atol", atol, "--rtol", rtol,
		    "--cpu-atol", catol, "--cpu-rtol", crtol, "--seed", seed,
		    NULL };

		env_plan_stage(plan, "check", check);
		env_plan_stage(plan, "eval", eval);
		/* Both look for the GPU: the check asks torch whether CUDA
		 * is there, the eval runs on it (or, without one, on the
		 * CPU in Triton's interpreter). */
		plan->stages[plan->nstages - 2].gpu = 1;
		plan->stages[plan->nstages - 1].gpu = 1;
		plan->stages[plan->nstages - 2].venv = venv;
		plan->stages[plan->nstages - 1].venv = venv;
		/* The candidate runs in eval's worker: a stage after it
		 * would get a sealed area (ADR 0034). */
		plan->stages[plan->nstages - 1].candidate = 1;
	}
	return 0;
}

/* --- judge ------------------------------------------------------------ */

/* What the eval stage's marker lines said (owned references). */
struct marks {
	char	 phase[16];
	json_t	*skip, *error, *fail, *defect, *result;
};

static void
marks_release(struct marks *m)
{
	json_decref(m->skip);
	json_decref(m->error);
	json_decref(m->fail);
	json_decref(m->defect);
	json_decref(m->result);
}

/* Read the lines "NONCE {json}" of log into m; the first of each kind
 * counts. */
static void
marks_read(const char *nonce, const char *log, size_t len, struct marks *m)
{
	const char *p = log, *end = log + len;
	size_t nl = strlen(nonce);

	memset(m, 0, sizeof *m);
	snprintf(m->phase, sizeof m->phase, "load");
	while (p < end && nl > 0) {
		const char *e = memchr(p, '\n', (size_t)(end - p));
		size_t l = e != NULL ? (size_t)(e - p) : (size_t)(end - p);
		json_t *o, **slot = NULL;
		const char *ev;

		o = NULL;
		if (l > nl + 1 && memcmp(p, nonce, nl) == 0 && p[nl] == ' ')
			o = json_loadb(p + nl + 1, l - nl - 1, 0, NULL);
		if (json_is_object(o)) {
			ev = json_string_value(json_object_get(o, "event"));
			if (ev == NULL)
				ev = "";
			if (strcmp(ev, "phase") == 0 && json_string_value(
			    json_object_get(o, "phase")) != NULL)
				snprintf(m->phase, sizeof m->phase, "%s",
				    json_string_value(json_object_get(o,
				    "phase")));
			else if (strcmp(ev, "skip") == 0)
				slot = &m->skip;
			else if (strcmp(ev, "error") == 0)
				slot = &m->error;
			else if (strcmp(ev, "fail") == 0)
				slot = &m->fail;
			else if (strcmp(ev, "defect") == 0)
				slot = &m->defect;
			else if (strcmp(ev, "result") == 0)
				slot = &m->result;
			if (slot != NULL && *slot == NULL)
				*slot = json_incref(o);
		}
		json_decref(o);
		p += l + (e != NULL);
	}
}

static const char *
jstr(json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

static double
jnum(json_t *o, const char *key, double def)
{
	json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : def;
}

/*
 * The metrics of a verdict on the CPU path: the sizes the problem was
 * cut to (marker "sizes") and, for a skip at the reference, every cut
 * tried ("sizes_tried"), added to met (owned by the caller).
 */
static void
cpu_sizes(json_t *marker, json_t *met)
{
	json_t *v = json_object_get(marker, "sizes");

	if (json_is_object(v) && json_object_size(v) > 0)
		json_object_set(met, "sizes", v);
	v = json_object_get(marker, "sizes_tried");
	if (json_is_array(v))
		json_object_set(met, "sizes_tried", v);
}

/* met as the run's metrics, unless it is empty; takes met.  Reals to
 * six digits, as %g writes them. */
static void
set_metrics(struct run *r, json_t *met)
{
	if (json_object_size(met) > 0) {
		free(r->metrics);
		r->metrics = json_dumps(met, JSON_COMPACT |
		    JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(6));
	}
	json_decref(met);
}

/* The first line of s, at most 300 bytes: new string. */
static char *
first_line(const char *s)
{
	size_t n;

	if (s == NULL)
		return xstrdup("");
	n = strcspn(s, "\n");
	return xstrndup(s, n < 300 ? n : 300);
}

/* The last non-blank line of a stage's log: new string. */
static char *
last_line(const char *log, size_t len)
{
	const char *end = log + len, *s;

	while (end > log && (end[-1] == '\n' || end[-1] == '\r' ||
	    end[-1] == ' '))
		end--;
	for (s = end; s > log && s[-1] != '\n'; s--)
		;
	return xstrndup(s, (size_t)(end - s) < 300 ? (size_t)(end - s) : 300);
}

/* A failure from an exception: the rule table, a diagnostic on the
 * candidate's line. */
static void
judge_exception(const char *type, const char *message, int line,
    struct run *r)
{
	const struct env_rule *rule = py_rule(type, message);
	char *msg = first_line(message);
	char *ev = *msg != '\0' ? xasprintf("%s: %s", type, msg) :
	    xstrdup(type);

	env_verdict_rule(r, VERDICT_FAIL, rule, CATEGORY_FUNCTIONAL,
	    "runtime-error", ev);
	r->evidence_line = line > 0 ? line : 0;
	run_add_diag(r, CAND_FILE, line, 0, "error", ev, line > 0 ? line : 0);
	free(ev);
	free(msg);
}

/*
 * A Python traceback in the log without the harness's marker (it died
 * before it could say): the exception of its last line, the candidate
 * line of its last frame in candidate.py.  1 when there is one.
 * Python's format: "  File "PATH", line N, in NAME" per frame, then
 * "Type: message" (CPython 3.11, traceback.c).
 */
static int
judge_traceback(const char *log, size_t len, struct run *r)
{
	char *text = xstrndup(log, len), *tb = NULL, *p;
	char *type = NULL, *msg = NULL;
	const char *dot;
	regex_t frame, exc;
	regmatch_t m[4];
	int line = 0;

	/* From the last traceback; a SyntaxError of the script run has
	 * none, only its File line. */
	tb = text;
	for (p = text; (p = strstr(p, "Traceback (most recent call last):")) !=
	    NULL; p++)
		tb = p;
	if (regcomp(&frame, "^  File \"([^\"]*/)?" CAND_FILE "\", line"
	    " ([0-9]+)", REG_EXTENDED | REG_NEWLINE) != 0 ||
	    regcomp(&exc, "^([A-Za-z_][A-Za-z0-9_.]*(Error|Exception|Exit|"
	    "Interrupt|Resources))(: (.*))?$", REG_EXTENDED | REG_NEWLINE) != 0)
		ASSAY_BUG("bad regex");
	/* The innermost candidate frame, and the exception the traceback
	 * ends with (after any "During handling" chain). */
	for (p = tb; regexec(&frame, p, 3, m, 0) == 0; p += m[0].rm_eo)
		line = env_atoi(p + m[2].rm_so);
	for (p = tb; *p != '\0' && regexec(&exc, p, 4, m, 0) == 0;
	    p += m[0].rm_eo) {
		free(type);
		free(msg);
		type = xstrndup(p + m[1].rm_so, (size_t)(m[1].rm_eo -
		    m[1].rm_so));
		msg = m[3].rm_so >= 0 ? xstrndup(p + m[3].rm_so + 2,
		    (size_t)(m[3].rm_eo - m[3].rm_so - 2)) : NULL;
	}
	regfree(&frame);
	regfree(&exc);
	free(text);
	if (type == NULL)
		return 0;
	/* "triton.compiler.errors.CompilationError": the class. */
	dot = strrchr(type, '.');
	judge_exception(dot != NULL ? dot + 1 : type, msg, line, r);
	free(type);
	free(msg);
	return 1;
}

/*
 * A kernel found correct on the CPU (no GPU): pass at stage correctness,
 * marked as what it is (subcategory cpu-interpreter, metrics mode
 * "cpu-interpreter, sizes cut"), with the trials, the tolerance, the
 * sizes it ran at and how many of the trials the checker replayed with
 * Triton's stores randomized came out wrong (ADR 0048); no timing.
 */
static void
judge_cpu_result(json_t *res, struct run *r)
{
	json_t *met = json_object();
	json_t *sizes = json_object_get(res, "sizes");
	const char *where = jstr(res, "where");
	int cut = json_is_object(sizes) && json_object_size(sizes) > 0;
	const char *mode = cut ? "cpu-interpreter, sizes cut" :
	    "cpu-interpreter";
	char *ev;

	json_object_set_new(met, "mode", json_string(mode));
	json_object_set(met, "correct_trials", json_object_get(res,
	    "correct_trials") != NULL ? json_object_get(res,
	    "correct_trials") : json_null());
	json_object_set(met, "trials", json_object_get(res, "trials") != NULL ?
	    json_object_get(res, "trials") : json_null());
	json_object_set_new(met, "max_abs_diff", json_real(jnum(res,
	    "max_abs_diff", 0)));
	json_object_set_new(met, "atol", json_real(jnum(res, "atol", 0)));
	json_object_set_new(met, "device", json_string("cpu"));
	json_object_set_new(met, "triton_changed", json_integer(
	    (json_int_t)jnum(res, "triton_changed", 0)));
	json_object_set_new(met, "triton_replayed", json_integer(
	    (json_int_t)jnum(res, "triton_replayed", 0)));
	if (json_is_object(sizes))
		json_object_set(met, "sizes", sizes);
	json_object_set_new(met, "timing", json_string("skipped: no GPU"));
	free(r->metrics);
	r->metrics = json_dumps(met, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(met);
	env_set(&r->stage, "correctness");
	ev = xasprintf("pass (%s): correct %s in %d of %d trials (atol = rtol"
	    " = %g); Triton on the output path: replayed by the checker with"
	    " its stores randomized, %d of %d trials come out wrong; timing"
	    " skipped: no GPU", mode,
	    where != NULL ? where : "on the CPU", (int)jnum(res,
	    "correct_trials", 0), (int)jnum(res, "trials", 0), jnum(res,
	    "atol", 0), (int)jnum(res, "triton_changed", 0), (int)jnum(res,
	    "triton_replayed", 0));
	env_verdict(r, VERDICT_PASS, CATEGORY_NONE, "cpu-interpreter", ev);
	free(ev);
	/* Said, so that a repair is not asked to speed up what nothing
	 * measured. */
	feedback_set(r, "bottleneck", json_pack("{s:b, s:s}", "measured", 0,
	    "by", "triton-interpreter"), "not measured: Triton's interpreter"
	    " (on the CPU, no GPU here) runs a kernel's program instances\n"
	    "one by one in NumPy, so its time says nothing of a GPU's; no"
	    " kernel was timed");
}

/*
 * TritonBench's pass: the candidate's stdout, with the test code
 * appended, is the reference's byte for byte (and, where the Triton
 * check could be made, the checker's replay of its record with Triton's
 * stores randomized comes out wrong, ADR 0057).  Stage
 * correctness; on the CPU path subcategory cpu-interpreter.  Nothing is
 * timed.
 */
static void
judge_stdout_result(json_t *res, struct run *r)
{
	const char *dev = jstr(res, "device");
	int cpu = dev != NULL && strcmp(dev, "cpu") == 0;
	int checked = json_is_true(json_object_get(res, "triton_checked"));
	json_t *met = json_object();
	char *ev;

	json_object_set_new(met, "mode", json_string(cpu ?
	    "stdout, cpu-interpreter" : "stdout"));
	json_object_set_new(met, "stdout_lines", json_integer(
	    (json_int_t)jnum(res, "lines", 0)));
	json_object_set_new(met, "stdout_bytes", json_integer(
	    (json_int_t)jnum(res, "bytes", 0)));
	json_object_set_new(met, "values_compared", json_integer(
	    (json_int_t)jnum(res, "values", 0)));
	json_object_set_new(met, "triton_checked", json_boolean(checked));
	json_object_set_new(met, "device", json_string(cpu ? "cpu" : "cuda"));
	set_metrics(r, met);
	env_set(&r->stage, "correctness");
	{
		const char *name = jstr(res, "printed");
		/* A test that prints nothing: the checker compared the value
		 * of NAME in full (kb_harness.py tb_value_diff()). */
		char *val = name != NULL ? xasprintf("; the test printed"
		    " nothing: the value of %s is the reference's in full, as"
		    " the checker prints it (%.0f elements)", name,
		    jnum(res, "values", 0)) : jnum(res, "values", 0) > 0 ?
		    xasprintf("; the tensors it hands to print() are the"
		    " reference's in full (%.0f elements)", jnum(res, "values",
		    0)) : xstrdup("");

		ev = xasprintf("pass%s: stdout identical to the reference's"
		    " with the test code appended (%d lines, %d bytes)%s",
		    cpu ? " (cpu-interpreter)" : "",
		    (int)jnum(res, "lines", 0), (int)jnum(res, "bytes", 0),
		    val);
		free(val);
	}
	{
		char *full = xasprintf("%s; Triton on the output path: %s", ev,
		    checked ? "its run replayed by the checker with every"
		    " value its Triton kernels store randomized comes out"
		    " wrong" :
		    "not checked (the reference does not run on the CPU"
		    " path)");

		free(ev);
		ev = full;
	}
	env_verdict(r, VERDICT_PASS, CATEGORY_NONE, cpu ? "cpu-interpreter" :
	    NULL, ev);
	free(ev);
}

/* A correct kernel: pass, slower than min_speedup fails (performance),
 * over 10x is suspicious. */
static void
judge_result(const struct task *t, json_t *res, struct run *r)
{
	double ms = jnum(res, "runtime_ms", 0);
	double ref = jnum(res, "ref_runtime_ms", 0);
	double sp = jnum(res, "speedup", ms > 0 ? ref / ms : 0);
	double min = param_num(t, "min_speedup", 1.0);
	json_t *met = json_object();
	char *ev;

	json_object_set_new(met, "runtime_ms", json_real(ms));
	json_object_set_new(met, "ref_runtime_ms", json_real(ref));
	json_object_set_new(met, "speedup", json_real(sp));
	json_object_set(met, "correct_trials", json_object_get(res,
	    "correct_trials") != NULL ? json_object_get(res,
	    "correct_trials") : json_null());
	if (jstr(res, "hardware") != NULL)
		json_object_set(met, "hardware", json_object_get(res,
		    "hardware"));
	free(r->metrics);
	r->metrics = json_dumps(met, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(met);
	env_set(&r->stage, "timing");
	if (sp > SUSPICIOUS_SPEEDUP) {
		env_verdict(r, VERDICT_PASS, CATEGORY_NONE,
		    "suspicious-speedup", NULL);
		ev = xasprintf("speedup %.2fx is over %.0fx, KernelBench's sign"
		    " of reward hacking: %.4f ms against %.4f ms; review it",
		    sp, SUSPICIOUS_SPEEDUP, ms, ref);
	} else if (sp < min) {
		env_verdict(r, VERDICT_FAIL, CATEGORY_PERFORMANCE,
		    "slower-than-reference", NULL);
		ev = xasprintf("speedup %.2fx: %.4f ms against %.4f ms for the"
		    " PyTorch reference", sp, ms, ref);
		/*
		 * The harness times the whole forward, not each kernel, so
		 * the bottleneck is not located.  Per-kernel times on a GPU
		 * (torch.profiler's CUDA events per launched Triton kernel,
		 * in the harness, outside the candidate's reach) would name
		 * it; not built: no GPU here to test it on (docs/envs/
		 * triton.md).
		 */
		feedback_set(r, "bottleneck", json_pack("{s:b, s:s, s:f}",
		    "measured", 0, "by", "timing", "speedup", sp),
		    "not located: the whole forward takes the time (per-kernel"
		    " times are not measured)");
	} else {
		env_verdict(r, VERDICT_PASS, CATEGORY_NONE, NULL, NULL);
		ev = xasprintf("speedup %.2fx: %.4f ms against %.4f ms", sp, ms,
		    ref);
	}
	env_set(&r->evidence, ev);
	free(ev);
}

/* The check stage: skipped with what is missing, or the harness's
 * failure. */
static void
judge_check(const struct env_stage_result *s, struct run *r)
{
	const char *log = s->log != NULL ? s->log : "";
	const char *p = memmem(log, s->log_len, TAG "skipped ",
	    strlen(TAG "skipped "));
	char *ev;

	env_set(&r->stage, "check");
	if (s->exit_code == SKIP_STATUS) {
		char sub[32] = "toolchain-missing";
		const char *why = "torch, triton or a GPU is missing";
		size_t wl = strlen(why);

		if (p != NULL) {
			const char *q = p + strlen(TAG "skipped ");
			size_t sl = strcspn(q, ":\n");

			if (sl > 0 && sl < sizeof sub && q[sl] == ':') {
				memcpy(sub, q, sl);
				sub[sl] = '\0';
				why = q + sl + 1 + (q[sl + 1] == ' ');
				wl = strcspn(why, "\n");
			}
		}
		ev = xasprintf("skipped: %.*s", (int)wl, why);
		env_verdict(r, VERDICT_SKIPPED, CATEGORY_NONE, sub, ev);
		free(ev);
		return;
	}
	env_verdict(r, VERDICT_ENV_ERROR, CATEGORY_NONE,
	    s->exit_code == 127 ? "toolchain-missing" : "harness-failed", NULL);
	ev = last_line(log, s->log_len);
	env_set(&r->evidence, ev);
	free(ev);
}

/*
 * The category of a failure the harness reports as sub: no ModelNew is
 * format, no Triton kernel on the output path is an API gap (the task
 * asks for Triton), the rest (a mismatch, a reply the worker never
 * writes) functional.
 */
static enum category
fail_category(const char *sub)
{
	if (sub != NULL && strcmp(sub, "missing-modelnew") == 0)
		return CATEGORY_FORMAT;
	if (sub != NULL && strcmp(sub, "no-triton-kernel") == 0)
		return CATEGORY_API;
	return CATEGORY_FUNCTIONAL;
}

/*
 * What ran in phase, for a limit's evidence ("the correctness phase
 * (ModelNew's forward, in Triton's interpreter on the CPU)"); cpu: the
 * check stage found no GPU.  New string.
 */
static char *
phase_what(const char *phase, int cpu)
{
	static const struct {
		const char *phase, *what;
	} phases[] = {
		{ "check", "the check stage (no candidate code)" },
		{ "reference", "the task's reference (before any candidate"
		    " code ran)" },
		{ "load", "the load phase (the candidate's module)" },
		{ "init", "the init phase (building ModelNew)" },
		{ "timing", "the timing phase (ModelNew's timed runs)" },
	};

	if (strcmp(phase, "correctness") == 0)
		return xasprintf("the correctness phase (ModelNew's forward%s)",
		    cpu ? ", in Triton's interpreter on the CPU" : "");
	for (size_t i = 0; i < sizeof phases / sizeof phases[0]; i++)
		if (strcmp(phase, phases[i].phase) == 0)
			return xstrdup(phases[i].what);
	return xasprintf("the %s phase", phase);
}

static void
triton_judge(const struct task *t, const struct env_plan *plan,
    const struct env_stage_result *res, size_t nres, enum env_stop stop,
    struct run *r)
{
	const struct env_stage_result *last = nres > 0 ? &res[nres - 1] : NULL;
	struct marks m = { 0 };
	char *ev, *what;
	json_t *met;
	int limit;

	if (last == NULL) {
		env_verdict(r, VERDICT_ENV_ERROR, CATEGORY_NONE, NULL, NULL);
		return;
	}
	if (nres >= 2)
		marks_read(plan->nonce, res[1].log != NULL ? res[1].log : "",
		    res[1].log_len, &m);
	env_set(&r->stage, nres == 1 ? "check" : m.phase);
	/* Slow but running in timing is performance; stuck before it is an
	 * endless loop, functional.  The evidence names the phase that ran
	 * out, which the harness marks as the worker enters it. */
	what = phase_what(nres == 1 ? "check" : m.phase, res[0].log != NULL &&
	    memmem(res[0].log, res[0].log_len, TAG "no GPU",
	    strlen(TAG "no GPU")) != NULL);
	limit = env_judge_limits(stop, last->exit_code, strcmp(m.phase,
	    "timing") == 0 ? "performance" : "functional", what, r);
	free(what);
	if (limit && nres >= 2 && strcmp(m.phase, "reference") == 0 &&
	    r->verdict != NULL && strcmp(r->verdict, "timeout") == 0) {
		/* No candidate code had run: the task's time, not its. */
		ev = xasprintf("skipped: %s", r->evidence != NULL ?
		    r->evidence : "the task's reference ran out of time");
		env_verdict(r, VERDICT_SKIPPED, CATEGORY_NONE,
		    "reference-timeout", ev);
		free(ev);
	}
	if (limit)
		goto out;
	if (stop == ENV_STOP_DISK) {
		env_verdict(r, VERDICT_FAIL, CATEGORY_FUNCTIONAL,
		    "resource-limit", "the work directory passed its size cap");
		goto out;
	}
	if (nres == 1 && last->exit_code != 0) {
		judge_check(last, r);
		goto out;
	}
	if (nres == 1) {
		env_verdict(r, VERDICT_ENV_ERROR, CATEGORY_NONE, NULL,
		    "the eval stage did not run");
		goto out;
	}
	if (m.skip != NULL && last->exit_code == SKIP_STATUS) {
		/* Missing torch or triton, or (on the CPU path) a candidate
		 * that needs a GPU: "cuda-only", on its line. */
		int line = (int)jnum(m.skip, "cand_line", 0);

		if (line > 0) {
			r->evidence_line = line;
			run_add_diag(r, CAND_FILE, line, 0, "note",
			    jstr(m.skip, "reason") != NULL ? jstr(m.skip,
			    "reason") : "needs a GPU", line);
		}
		if (jstr(m.skip, "phase") != NULL)
			env_set(&r->stage, jstr(m.skip, "phase"));
		ev = xasprintf("skipped: %s", jstr(m.skip, "reason") != NULL ?
		    jstr(m.skip, "reason") :
		    "torch, triton or a GPU is missing");
		env_verdict(r, VERDICT_SKIPPED, CATEGORY_NONE, jstr(m.skip,
		    "sub") != NULL ? jstr(m.skip, "sub") : "toolchain-missing",
		    ev);
		free(ev);
		met = json_object();
		cpu_sizes(m.skip, met);
		set_metrics(r, met);
		goto out;
	}
	if (m.defect != NULL) {
		/* The task's own Model fails: not the candidate's fault. */
		env_verdict(r, VERDICT_TASK_DEFECT, CATEGORY_NONE,
		    jstr(m.defect, "sub") != NULL ? jstr(m.defect, "sub") :
		    "reference-fails", jstr(m.defect, "message"));
		goto out;
	}
	if (m.error != NULL) {
		judge_exception(jstr(m.error, "type") != NULL ? jstr(m.error,
		    "type") : "Exception", jstr(m.error, "message"),
		    (int)jnum(m.error, "cand_line", 0), r);
		met = json_object();
		cpu_sizes(m.error, met);
		set_metrics(r, met);
		goto out;
	}
	if (m.fail != NULL) {
		const char *sub = jstr(m.fail, "sub");

		env_verdict(r, VERDICT_FAIL, fail_category(sub),
		    sub != NULL ? sub : "other", jstr(m.fail, "message"));
		met = json_object();
		if (sub != NULL && strcmp(sub, "mismatch") == 0) {
			json_object_set_new(met, "correct_trials",
			    json_integer((json_int_t)jnum(m.fail,
			    "correct_trials", 0)));
			json_object_set_new(met, "trials", json_integer(
			    (json_int_t)jnum(m.fail, "trials", 0)));
			json_object_set_new(met, "max_abs_diff", json_real(
			    jnum(m.fail, "max_abs_diff", 0)));
			/* The checker's first mismatching element. */
			if (json_is_object(json_object_get(m.fail, "element")))
				element_counterexample(r, json_deep_copy(
				    json_object_get(m.fail, "element")),
				    "candidate");
		}
		cpu_sizes(m.fail, met);
		set_metrics(r, met);
		goto out;
	}
	if (m.result != NULL && last->exit_code == 0) {
		if (jstr(m.result, "mode") != NULL &&
		    strcmp(jstr(m.result, "mode"), "stdout") == 0)
			judge_stdout_result(m.result, r);
		else if (jstr(m.result, "device") != NULL &&
		    strcmp(jstr(m.result, "device"), "cpu") == 0)
			judge_cpu_result(m.result, r);
		else
			judge_result(t, m.result, r);
		goto out;
	}
	/* No word from the harness: the process died, or the candidate
	 * ended it (sys.exit, os._exit) before a result. */
	env_verdict(r, VERDICT_FAIL, CATEGORY_NONE, NULL, NULL);
	if (last->exit_code == 128 + 25) {
		env_verdict(r, VERDICT_FAIL, CATEGORY_FUNCTIONAL,
		    "resource-limit", "a file passed the file-size limit");
	} else if (last->log != NULL && judge_traceback(last->log,
	    last->log_len, r)) {
		;
	} else if (last->exit_code > 128) {
		ev = xasprintf("the run died of signal %d", last->exit_code -
		    128);
		env_verdict(r, VERDICT_FAIL, CATEGORY_FUNCTIONAL, "crash", ev);
		free(ev);
	} else {
		ev = xasprintf("the harness reported no result (exit status"
		    " %d): the process ended before it could",
		    last->exit_code);
		env_verdict(r, VERDICT_FAIL, CATEGORY_FUNCTIONAL, "no-result",
		    ev);
		free(ev);
	}
out:
	marks_release(&m);
}

const struct env_ops env_triton = {
	.name = "triton",
	.domain = "gpu",
	.lang = "python",
	.packages = "python3",
	.without_gpu = "correctness on the CPU (Triton's interpreter, sizes"
	    " cut to 8 and batches to 2, larger where the reference needs it,"
	    " atol = rtol = 1e-2); timing skipped: no GPU; a kernel that needs"
	    " CUDA or hits a limit of the interpreter is skipped",
	.missing_hint = "torch and triton come from PyPI into the project"
	    " venv (make deps); without a GPU, correctness is checked on the"
	    " CPU (Triton's interpreter) and timing is skipped; without torch"
	    " or triton runs are verified as skipped, with what is missing",
	.toolchain = triton_toolchain,
	.partial = triton_partial,
	.prepare = triton_prepare,
	.rules = triton_rules,
	.nrules = TRITON_NRULES,
	.judge = triton_judge,
};
