/*
 * cad.c - the cad env: volumetric IoU of a candidate's solid against the
 * task's reference solid (design.md section 7, toolchains.md section 5).
 *
 * The geometry is OpenCASCADE's, through assay's own helper assay-iou
 * (tools/iou/iou_occt.cpp, built next to the assay binary in libexec/
 * when the OCCT headers are installed).  It reads two STEP files,
 * intersects the solids with an exact B-rep boolean and prints
 *   vA=... vB=... vInter=... vUnion=... IoU=...
 * The sandbox binds only /usr, /etc and the work directory, so prepare()
 * copies the helper into the work directory and records its hash among
 * the inputs.  It is found in $ASSAY_LIBEXEC, else in libexec/ beside the
 * running executable (/proc/self/exe): build/assay uses
 * build/libexec/assay-iou.
 *
 * A candidate is STEP text (lang "step", or any code that starts with
 * "ISO-10303-21"), compared at once:
 *   ./assay-iou candidate.step reference.step                 (iou)
 * or a CadQuery script (lang "python"), run first in cq/, a directory of
 * its own that cannot reach the helper or the reference:
 *   /usr/bin/python3 -I -c PROBE                              (probe, cq/)
 *   /usr/bin/python3 -I -u cq_run.py candidate.py candidate.step
 *                                                             (cadquery, cq/)
 *   ./assay-iou candidate.step reference.step                 (iou)
 * The iou stage runs in a sealed area (ADR 0034): the helper, the
 * candidate's solid and the reference's, sealed where each was made, and
 * nothing else; a script's output that is a link is never sealed.
 * The probe exits 77 when cadquery does not import, and the run is then
 * skipped: the candidate's code never ran, so it cannot fake that.
 * Nothing runs here but the version queries; verify.c runs the stages.
 */
#define _GNU_SOURCE
#include "envs/env.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "base/buf.h"
#include "base/hash.h"
#include "model/feedback.h"

#define HELPER "assay-iou"
#define STEP_FILE "candidate.step"
#define SCRIPT_FILE "candidate.py"
#define RUNNER_FILE "cq_run.py"
#define CQ_DIR "cq"
#define REF_DEFAULT "reference.step"
#define REF_SCRIPT "reference.py"
#define REF_DIR "ref"
#define PYTHON "/usr/bin/python3"
#define SKIP_STATUS 77
#define IOU_MIN_DEFAULT 0.9
#define CAD_PACKAGES "libocct-data-exchange-dev" \
	" libocct-modeling-algorithms-dev libocct-modeling-data-dev" \
	" libocct-foundation-dev"

/* assay-iou's exit status (tools/iou/iou_occt.cpp). */
enum {
	IOU_UNREADABLE = 2,
	IOU_INVALID = 3,
	IOU_EMPTY = 4,
	IOU_BOOLEAN = 5,
	IOU_MEMORY = 6
};

/* cq_run.py's exit status. */
enum {
	CQ_RAISED = 1,
	CQ_SYNTAX = 2,
	CQ_NO_RESULT = 3,
	CQ_EXPORT = 4
};

/* prepare()'s precheck lines (plan->precheck), read by the judge. */
#define PRE_FENCE "fence "		/* fence LINE */


/*
 * Finds cadquery or exits 77 (the probe stage); also the version query:
 * "CadQuery 2.8.0 + cadquery-ocp 7.9.3.1.1".  It looks the package up
 * without importing it (an import takes seconds); cq_run.py exits 77 in
 * turn when the import itself fails, before the script runs.  -I keeps
 * the work directory off sys.path: no file there can pose as cadquery.
 */
static const char probe_py[] =
    "import sys, importlib.util, importlib.metadata as m\n"
    "try:\n"
    "    if importlib.util.find_spec('cadquery') is None:\n"
    "        raise ImportError('No module named cadquery')\n"
    "    v = m.version('cadquery')\n"
    "except Exception as e:\n"
    "    print('skipped: cadquery not installed (%s)' % e)\n"
    "    sys.exit(77)\n"
    "try:\n"
    "    ocp = ' + cadquery-ocp ' + m.version('cadquery-ocp')\n"
    "except Exception:\n"
    "    ocp = ''\n"
    "print('CadQuery ' + v + ocp)\n";

/* The helper's path: $ASSAY_LIBEXEC/assay-iou, else libexec/ beside the
 * running executable.  -1 when neither can be made. */
static int
helper_path(char *buf, size_t n)
{
	const char *dir = getenv("ASSAY_LIBEXEC");
	char exe[PATH_MAX], *slash;
	ssize_t len;

	if (dir != NULL && *dir != '\0')
		return snprintf(buf, n, "%s/%s", dir, HELPER) < (int)n ? 0 : -1;
	len = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (len <= 0)
		return -1;
	exe[len] = '\0';
	slash = strrchr(exe, '/');
	if (slash == NULL)
		return -1;
	*slash = '\0';
	return snprintf(buf, n, "%s/libexec/%s", exe, HELPER) < (int)n ? 0 : -1;
}

/* The whole helper binary, new (caller frees), or NULL with err. */
static char *
helper_read(const char *path, size_t *len, struct err *err)
{
	struct buf b = BUF_INIT;
	char chunk[65536];
	ssize_t k;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		err_set(err, "the OCCT helper %s is missing (%s): it is built"
		    " with assay when the OCCT headers are installed (apt-get"
		    " install %s, then make), or set ASSAY_LIBEXEC", path,
		    strerror(errno), CAD_PACKAGES);
		return NULL;
	}
	while ((k = read(fd, chunk, sizeof chunk)) != 0) {
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0) {
			err_set(err, "read %s: %s", path, strerror(errno));
			close(fd);
			buf_release(&b);
			return NULL;
		}
		buf_add(&b, chunk, (size_t)k);
	}
	close(fd);
	return buf_detach(&b, len);
}

static int
cad_toolchain(char *buf, size_t n, struct err *err)
{
	char path[PATH_MAX], occt[256], cq[256], hex[HASH_HEX_LEN + 1];
	const char *version[] = { path, "--version", NULL };
	const char *venv = env_venv_dir();
	char *py = venv != NULL ? xasprintf("%s/bin/python3", venv) :
	    xstrdup(PYTHON);
	const char *probe[] = { py, "-I", "-c", probe_py, NULL };
	size_t len;
	char *bin;
	int rc;

	rc = -1;
	if (helper_path(path, sizeof path) < 0) {
		err_set(err, "cannot find the OCCT helper %s", HELPER);
		goto out;
	}
	bin = helper_read(path, &len, err);
	if (bin == NULL)
		goto out;
	hash_sha256(bin, len, hex);
	free(bin);
	if (env_tool_version(version, occt, sizeof occt) < 0 ||
	    strncmp(occt, "Open CASCADE", 12) != 0) {
		err_set(err, "the OCCT helper %s does not run (are the OCCT"
		    " libraries installed? apt-get install %s)", path,
		    CAD_PACKAGES);
		goto out;
	}
	/* CadQuery decides skip or run: a change must run candidates
	 * again, so it is part of the identity, and so is where it is
	 * (the project venv or the system's Python). */
	if (env_tool_version(probe, cq, sizeof cq) < 0 ||
	    strncmp(cq, "CadQuery ", 9) != 0)
		snprintf(cq, sizeof cq, "no CadQuery");
	snprintf(buf, n, "%s, %s %.12s, %s%s", occt, HELPER, hex, cq,
	    strncmp(cq, "CadQuery ", 9) != 0 ? "" : venv != NULL ?
	    " (venv)" : " (system)");
	rc = 0;
out:
	free(py);
	return rc;
}

/* STEP candidates need OCCT only; CadQuery scripts are skipped
 * without CadQuery. */
static int
cad_partial(const char *identity, char *buf, size_t n)
{
	if (strstr(identity, ", no CadQuery") == NULL)
		return 0;
	snprintf(buf, n, "CadQuery (for lang python scripts)");
	return 1;
}

/* env_params.iou_min, or -1 when it is not a number in (0, 1]. */
static double
iou_min(const struct task *t)
{
	json_t *root = t->env_params != NULL ? json_loads(t->env_params, 0,
	    NULL) : NULL;
	json_t *v = root != NULL ? json_object_get(root, "iou_min") : NULL;
	double m = IOU_MIN_DEFAULT;

	if (v != NULL)
		m = json_is_number(v) ? json_number_value(v) : -1;
	json_decref(root);
	return m > 0 && m <= 1 ? m : -1;
}

/* The reference's file name: env_params.reference or reference.step.
 * New string. */
static char *
ref_name(const struct task *t)
{
	char *name = env_param_str(t, "reference");

	if (name != NULL)
		return name;
	for (size_t i = 0; i < t->nfiles; i++)
		if (strcmp(t->files[i].name, REF_DEFAULT) == 0)
			return xstrdup(REF_DEFAULT);
	for (size_t i = 0; i < t->nfiles; i++)
		if (strcmp(t->files[i].name, REF_SCRIPT) == 0)
			return xstrdup(REF_SCRIPT);
	return xstrdup(REF_DEFAULT);
}

static int line_starts(const char *p, size_t n, const char *word);

/* Is the line at p (n bytes) a sentence ("Here is the script:"), not
 * Python?  An upper-case word, then words, no = ( [ # or quote. */
static int
sentence(const char *p, size_t n)
{
	size_t spaces = 0;

	while (n > 0 && (p[n - 1] == '\r' || p[n - 1] == ' '))
		n--;
	if (n == 0 || *p < 'A' || *p > 'Z')
		return 0;
	for (size_t i = 0; i < n; i++) {
		if (strchr("=([#'\"", p[i]) != NULL)
			return 0;
		spaces += p[i] == ' ';
	}
	return spaces >= 2;
}

/*
 * An unfenced script answer with prose before its code ("Here is the
 * script:" then "import cadquery as cq"): the code with the prose lines
 * blanked, line numbers kept, into *code, and the 1-based line of the
 * first prose line; 0 and the code as it is when the answer starts with
 * code.  Only sentences before the first import line count (comments
 * and blank lines may be among them).
 */
static int
unprose(const char *src, size_t len, struct buf *code)
{
	const char *p = src, *end = src + len, *body = NULL;
	int n = 0, first = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl != NULL ? (size_t)(nl - p) : (size_t)(end - p);

		n++;
		if (line_starts(p, l, "import ") || line_starts(p, l, "from ")) {
			body = p;
			break;
		}
		if (sentence(p, l) && first == 0)
			first = n;
		else if (!sentence(p, l) && strspn(p, " \t\r") < l &&
		    !line_starts(p, l, "#")) {
			/* Code (or anything else) before the imports. */
			buf_add(code, src, len);
			return 0;
		}
		p += l + (nl != NULL);
	}
	if (body == NULL || first == 0) {
		buf_add(code, src, len);
		return 0;
	}
	for (int i = 1; i < n; i++)
		buf_addc(code, '\n');
	buf_add(code, body, (size_t)(end - body));
	return first;
}

/* Is the task file name a CadQuery script (".py")? */
static int
is_py_name(const char *name)
{
	size_t l = strlen(name);

	return l > 3 && strcmp(name + l - 3, ".py") == 0;
}

/*
 * The reference's solid as the iou stage names it (borrowed): the
 * reference file itself, or for a script (name of a .py) the solid its
 * reference stage made, REF_DEFAULT.
 */
static const char *
iou_ref_name(const char *name)
{
	return is_py_name(name) ? REF_DEFAULT : name;
}

/*
 * A script answer wrapped in markdown: the code of its first fenced
 * block, with every other line (the fences, prose before and after)
 * blanked, so that line numbers stay the candidate's.  Returns the
 * 1-based line of the opening fence and the code in *code (new), or 0
 * when the answer has no fence.
 */
static int
unfence(const char *src, size_t len, struct buf *code)
{
	const char *p = src, *end = src + len;
	int n = 0, open = 0, closed = 0, fence = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl != NULL ? (size_t)(nl - p) : (size_t)(end - p);
		int is_fence = line_starts(p, l, "```");

		n++;
		if (is_fence && !open && !closed) {
			open = 1;
			fence = n;
		} else if (is_fence && open) {
			open = 0;
			closed = 1;
		} else if (open)
			buf_add(code, p, l);
		buf_addc(code, '\n');
		p += l + (nl != NULL);
	}
	return fence;
}

/* Is code STEP text ("ISO-10303-21;" after blanks)? */
static int
is_step(const char *code, size_t len)
{
	while (len > 0 && (*code == ' ' || *code == '\t' || *code == '\r' ||
	    *code == '\n')) {
		code++;
		len--;
	}
	return len >= 12 && memcmp(code, "ISO-10303-21", 12) == 0;
}

/* Does the task's candidate c run as a CadQuery script? */
static int
is_script(const struct candidate *c)
{
	if (is_step(c->code, c->code_len))
		return 0;
	if (c->lang != NULL && strcmp(c->lang, "python") == 0)
		return 1;
	/* A task's reference is imported with the env's lang, step: a
	 * CadQuery script there is still a script, while text with a STEP
	 * header anywhere is STEP that something is wrong with. */
	return memmem(c->code, c->code_len, "ISO-10303-21", 12) == NULL &&
	    memmem(c->code, c->code_len, "cadquery", 8) != NULL;
}

/* Is the line at p (n bytes) blank, or a STEP comment? */
static int
blank_line(const char *p, size_t n)
{
	while (n > 0 && (*p == ' ' || *p == '\t' || *p == '\r')) {
		p++;
		n--;
	}
	return n == 0 || (n >= 2 && p[0] == '/' && p[1] == '*');
}

/* Does the line at p (n bytes) start, after blanks, with word? */
static int
line_starts(const char *p, size_t n, const char *word)
{
	size_t wl = strlen(word);

	while (n > 0 && (*p == ' ' || *p == '\t')) {
		p++;
		n--;
	}
	return n >= wl && memcmp(p, word, wl) == 0;
}

/* Where "ISO-10303-21;" starts in the line at p (n bytes), not as the
 * end of "END-ISO-10303-21;"; NULL when it does not. */
static const char *
header_at(const char *p, size_t n)
{
	const char *q = p, *end = p + n;

	while ((q = memmem(q, (size_t)(end - q), "ISO-10303-21;", 13)) !=
	    NULL) {
		if (q == p || q[-1] != '-')
			return q;
		q++;
	}
	return NULL;
}

/*
 * Text around STEP text: the 1-based line of the first non-blank text
 * before "ISO-10303-21;" or after "END-ISO-10303-21;" ("Here is the STEP
 * file:"), and in *where which side.  0 when there is none, when code
 * has no ISO-10303-21 header at all (it is not STEP wrapped in
 * anything), or when a markdown fence is among that text: a fenced
 * answer is triage's (triage_format), which calls it markdown-fence.
 */
static int
prose_line(const char *code, size_t len, const char **where)
{
	const char *p = code, *end = code + len;
	int n = 0, found = 0, started = 0, ended = 0, fenced = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl != NULL ? (size_t)(nl - p) : (size_t)(end - p);
		const char *head = started ? NULL : header_at(p, l), *tail;

		n++;
		if (head != NULL) {
			started = 1;
			/* "Here it is: ISO-10303-21;" */
			if (!blank_line(p, (size_t)(head - p)) && found == 0) {
				found = n;
				*where = "before the ISO-10303-21 header";
			}
		} else if (!started || ended) {
			if (line_starts(p, l, "```"))
				fenced = 1;
			else if (!blank_line(p, l) && found == 0) {
				found = n;
				*where = started ? "after END-ISO-10303-21" :
				    "before the ISO-10303-21 header";
			}
		}
		if (started && !ended && (tail = memmem(p, l,
		    "END-ISO-10303-21;", 17)) != NULL) {
			ended = 1;
			tail += 17;
			if (!blank_line(tail, (size_t)(p + l - tail)) &&
			    found == 0) {
				found = n;
				*where = "after END-ISO-10303-21";
			}
		}
		p += l + (nl != NULL);
	}
	return started && !fenced ? found : 0;
}

/* Copy the helper into the work directory, executable; its hash goes
 * into the inputs. */
static int
copy_helper(struct env_plan *plan, const char *workdir, struct err *err)
{
	char path[PATH_MAX], *bin, *dst;
	size_t len, off = 0;
	int fd, rc = -1;

	if (helper_path(path, sizeof path) < 0)
		return err_set(err, "cannot find the OCCT helper %s", HELPER);
	bin = helper_read(path, &len, err);
	if (bin == NULL)
		return -1;
	dst = xasprintf("%s/%s", workdir, HELPER);
	fd = open(dst, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0755);
	if (fd < 0) {
		err_set(err, "write %s: %s", dst, strerror(errno));
		goto out;
	}
	while (off < len) {
		ssize_t k = write(fd, bin + off, len - off);

		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0) {
			err_set(err, "write %s: %s", dst, strerror(errno));
			close(fd);
			goto out;
		}
		off += (size_t)k;
	}
	close(fd);
	env_note_input(plan, HELPER, bin, len);
	rc = 0;
out:
	free(dst);
	free(bin);
	return rc;
}

/* Write the runner cq_run.py into workdir/dir. */
static int
write_runner(struct env_plan *plan, const char *workdir, const char *dir,
    struct err *err)
{
	const char *runner;
	size_t rlen;
	char *d;
	int rc;

	runner = env_share("cad/" RUNNER_FILE, &rlen);
	if (runner == NULL)
		return err_set(err, "share/envs/cad/%s is not built in",
		    RUNNER_FILE);
	d = xasprintf("%s/%s", workdir, dir);
	rc = env_write_input(plan, d, RUNNER_FILE, runner, rlen, err);
	free(d);
	return rc;
}

/* Append a stage that runs the project venv's (or the system's) Python
 * with args in subdir. */
static void
python_stage(struct env_plan *plan, const char *name, const char *subdir,
    const char *const *args)
{
	const char *argv[8];
	size_t k = 0;
	int venv;

	argv[k++] = env_python(&venv);
	for (size_t i = 0; args[i] != NULL && k < 7; i++)
		argv[k++] = args[i];
	argv[k] = NULL;
	env_plan_stage_in(plan, name, argv, subdir);
	plan->stages[plan->nstages - 1].venv = venv;
}

static int
cad_prepare(const struct task *t, const struct candidate *c,
    const char *workdir, struct env_plan *plan, struct err *err)
{
	const struct task_file *ref = NULL;
	char *name = ref_name(t), *cq = NULL;
	char *ref_dir = NULL, min_arg[32];
	struct buf code = BUF_INIT;
	int script = is_script(c), ref_script, rc = -1, fence = 0;
	double min = iou_min(t);

	plan->timeout_s = (int)env_param_int(t, "timeout_s", 60);
	if (min < 0) {
		err_set(err, "task %s: env_params.iou_min must be a number in"
		    " (0, 1]", t->id);
		goto out;
	}
	snprintf(min_arg, sizeof min_arg, "%.6f", min);
	for (size_t i = 0; i < t->nfiles; i++)
		if (strcmp(t->files[i].name, name) == 0)
			ref = &t->files[i];
	if (ref == NULL) {
		err_set(err, "task %s has no reference solid %s (a task file"
		    " of STEP text, or a CadQuery script %s)", t->id, name,
		    REF_SCRIPT);
		goto out;
	}
	if (strcmp(name, HELPER) == 0 || strcmp(name, STEP_FILE) == 0 ||
	    strcmp(name, CQ_DIR) == 0 || strcmp(name, REF_DIR) == 0) {
		err_set(err, "task file name %s is reserved by the cad env",
		    name);
		goto out;
	}
	ref_script = is_py_name(name);
	if (ref_script) {
		/* The reference script runs in ref/, where the candidate
		 * never looks; its solid is ref/reference.step. */
		if (env_mkdir(workdir, REF_DIR, err) < 0)
			goto out;
		ref_dir = xasprintf("%s/%s", workdir, REF_DIR);
		if (env_write_input(plan, ref_dir, name, ref->data, ref->len,
		    err) < 0 || write_runner(plan, workdir, REF_DIR, err) < 0)
			goto out;
	} else {
		if (env_write_input(plan, workdir, name, ref->data, ref->len,
		    err) < 0)
			goto out;
	}
	if (copy_helper(plan, workdir, err) < 0)
		goto out;
	if (t->env_params != NULL)
		env_note_input(plan, "env_params", t->env_params,
		    strlen(t->env_params));
	if (!script) {
		const char *where = NULL;
		int prose = prose_line(c->code, c->code_len, &where);

		plan->cand_file = xstrdup(STEP_FILE);
		if (env_write_input(plan, workdir, STEP_FILE, c->code,
		    c->code_len, err) < 0)
			goto out;
		/* The helper still runs: its verdict is the symptom. */
		if (prose > 0)
			buf_printf(&plan->precheck, "prose %d %s\n", prose,
			    where);
	} else {
		/* A fenced answer: the code inside the fence runs, so that
		 * the judge can tell what the script does as well as the
		 * format failure; lines keep their numbers. */
		fence = unfence(c->code, c->code_len, &code);
		if (fence > 0)
			buf_printf(&plan->precheck, PRE_FENCE "%d\n", fence);
		else {
			int prose;

			buf_reset(&code);
			prose = unprose(c->code, c->code_len, &code);
			if (prose > 0)
				buf_printf(&plan->precheck, "prose %d before"
				    " the script\n", prose);
		}
		plan->cand_file = xstrdup(SCRIPT_FILE);
		cq = xasprintf("%s/%s", workdir, CQ_DIR);
		if (env_mkdir(workdir, CQ_DIR, err) < 0 ||
		    env_write_input(plan, cq, SCRIPT_FILE, buf_str(&code),
		    code.len, err) < 0 ||
		    write_runner(plan, workdir, CQ_DIR, err) < 0)
			goto out;
	}
	{
		const char *const probe[] = { "-I", "-c", probe_py, NULL };
		/* -u: the script's prints stay before its traceback. */
		const char *const ref_run[] = { "-I", "-u", RUNNER_FILE, name,
		    REF_DEFAULT, NULL };
		const char *const run[] = { "-I", "-u", RUNNER_FILE,
		    SCRIPT_FILE, STEP_FILE, NULL };
		/*
		 * The iou stage runs in a sealed area (ADR 0034) with the
		 * helper, the candidate's solid and the reference's, each
		 * sealed where it was made: by prepare(), or when the
		 * reference's or the candidate's script ended.  So it reads
		 * the script's answer as a regular file it wrote, never a
		 * link, and nothing else of cq/.
		 */
		const char *iou_ref = iou_ref_name(name);
		/* --mesh: the solids' triangles for the workbench's 3D
		 * sheet, written by the helper from the files it judged. */
		const char *const iou[] = { "./" HELPER, STEP_FILE, iou_ref,
		    "--orient", min_arg, "--mesh", NULL };
		const char *const use[] = { HELPER, STEP_FILE, iou_ref, NULL };
		const char *const ref_made[] = { REF_DEFAULT, NULL };
		const char *const cand_made[] = { STEP_FILE, NULL };
		const char *prepared[4];
		size_t np = 0;

		prepared[np++] = HELPER;
		if (!ref_script)
			prepared[np++] = name;
		if (!script)
			prepared[np++] = STEP_FILE;
		prepared[np] = NULL;
		env_plan_seal(plan, prepared);
		if (script || ref_script)
			python_stage(plan, "probe", script ? CQ_DIR : REF_DIR,
			    probe);
		if (ref_script) {
			python_stage(plan, "reference", REF_DIR, ref_run);
			env_plan_seal(plan, ref_made);
		}
		if (script) {
			python_stage(plan, "cadquery", CQ_DIR, run);
			env_plan_seal(plan, cand_made);
			plan->stages[plan->nstages - 1].candidate = 1;
		}
		env_plan_stage(plan, "iou", iou);
		env_plan_use(plan, use);
	}
	rc = 0;
out:
	free(name);
	free(cq);
	free(ref_dir);
	buf_release(&code);
	return rc;
}

/* The first line of log that starts with prefix, new, or NULL. */
static char *
line_with(const char *log, size_t len, const char *prefix)
{
	const char *p = log, *end = log + len;
	size_t pl = strlen(prefix);

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl != NULL ? (size_t)(nl - p) : (size_t)(end - p);

		if (l >= pl && memcmp(p, prefix, pl) == 0)
			return xstrndup(p, l);
		p += l + 1;
	}
	return NULL;
}

/*
 * Triage rules (docs/triage.md): a failed script's exception by its
 * name, matched against "NAME: message" (a bare NAME gets its colon).
 */
static const struct env_rule cad_rules[] = {
	{ "cadquery", "^SyntaxError:", CATEGORY_COMPILE, "syntax-error" },
	{ "cadquery", "^IndentationError:", CATEGORY_COMPILE, "syntax-error" },
	{ "cadquery", "^TabError:", CATEGORY_COMPILE, "syntax-error" },
	{ "cadquery", "^NameError:", CATEGORY_API, "name-error" },
	{ "cadquery", "^AttributeError:", CATEGORY_API, "attribute-error" },
	{ "cadquery", "^TypeError:", CATEGORY_API, "type-error" },
	{ "cadquery", "^ImportError:", CATEGORY_API, "import-error" },
	{ "cadquery", "^ModuleNotFoundError:", CATEGORY_API, "import-error" },
};
#define CAD_NRULES (sizeof cad_rules / sizeof cad_rules[0])

/*
 * A traceback in the cadquery stage's log: its last unindented line (the
 * exception, "NameError: name 'box' is not defined") into *exc, new, and
 * the last candidate line it names ("File \"candidate.py\", line 7").
 */
static int
traceback_of(const char *log, size_t len, char **exc)
{
	const char *p = log, *end = log + len;
	const char *needle = SCRIPT_FILE "\", line ";
	int line = 0;

	*exc = NULL;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl != NULL ? (size_t)(nl - p) : (size_t)(end - p);
		char *s = xstrndup(p, l);
		const char *f = strstr(s, needle);

		/* File "candidate.py", line 7 (or ".../candidate.py"). */
		if (f != NULL && strncmp(s, "  File \"", 8) == 0 &&
		    (f[-1] == '"' || f[-1] == '/'))
			line = env_atoi(f + strlen(needle));
		else if (l > 0 && *s != ' ' && *s != '$' &&
		    strncmp(s, "Traceback", 9) != 0 &&
		    strncmp(s, "cq_run:", 7) != 0) {
			free(*exc);
			*exc = xstrdup(s);
		}
		free(s);
		p += l + 1;
	}
	return line;
}

/* Does the stage's log have a line that starts with prefix? */
static int
line_with_free(const struct env_stage_result *s, const char *prefix)
{
	char *l = line_with(s->log, s->log_len, prefix);

	free(l);
	return l != NULL;
}

static void
judge_script(const struct env_plan *plan, const struct env_stage_result *s,
    struct run *r)
{
	const struct env_rule *rule = NULL;
	char *exc = NULL, *own;
	int line = 0;

	env_set(&r->stage, "cadquery");
	env_verdict(r, VERDICT_FAIL, CATEGORY_NONE, NULL, NULL);
	own = line_with(s->log, s->log_len, "cq_run: ");
	if (s->exit_code == SKIP_STATUS && line_with_free(s, "skipped: ") &&
	    !line_with_free(s, "cq_run: running ")) {
		/* cadquery did not import: the script never ran. */
		env_verdict(r, VERDICT_SKIPPED, CATEGORY_NONE,
		    "toolchain-missing", "skipped: cadquery does not import");
		goto out;
	}
	switch (s->exit_code) {
	case CQ_NO_RESULT:
		env_verdict(r, VERDICT_FAIL, CATEGORY_FORMAT, "no-result",
		    own != NULL ? own + 8 : "the script made no result");
		goto out;
	case CQ_RAISED:
	case CQ_SYNTAX:
	case CQ_EXPORT:
		line = traceback_of(s->log, s->log_len, &exc);
		break;
	default:
		break;
	}
	if (exc != NULL) {
		/* "OCP.StdFail.StdFail_NotDone: ..." and "NameError: ...":
		 * the name is what comes before the colon. */
		char *text = exc[strcspn(exc, ":")] == ':' ? xstrdup(exc) :
		    xasprintf("%s:", exc);

		rule = env_rule_find(cad_rules, CAD_NRULES, "cadquery", text);
		free(text);
	}
	env_verdict_rule(r, VERDICT_FAIL, rule, CATEGORY_FUNCTIONAL,
	    s->exit_code == CQ_EXPORT ? "export-failed" : "script-error",
	    NULL);
	if (exc != NULL) {
		run_add_diag(r, line > 0 ? plan->cand_file : "", line, 0,
		    "error", exc, line);
		r->evidence_line = line;
		env_set(&r->evidence, exc);
	} else {
		char *ev = xasprintf("the CadQuery script exited with status"
		    " %d%s%s", s->exit_code, own != NULL ? ": " : "",
		    own != NULL ? own + 8 : "");

		env_set(&r->evidence, ev);
		free(ev);
	}
out:
	free(exc);
	free(own);
}

/* The helper's error line ("assay-iou: FILE: why") and whose file. */
static void
judge_iou_error(const struct task *t, const struct env_stage_result *s,
    struct run *r)
{
	char *line = line_with(s->log, s->log_len, HELPER ": ");
	char *name = ref_name(t);
	char *refp = xasprintf(HELPER ": %s: ", iou_ref_name(name));
	const char *sub, *category = "functional";

	switch (s->exit_code) {
	case IOU_UNREADABLE:
		sub = "unreadable-step";
		category = "compile";
		break;
	case IOU_INVALID:
		sub = "invalid-solid";
		break;
	case IOU_EMPTY:
		sub = "empty-solid";
		break;
	case IOU_BOOLEAN:
		sub = "boolean-failed";
		break;
	case IOU_MEMORY:
		sub = "resource-limit";
		break;
	default:
		/* 127: not found; 126: cannot run; a signal: a crash; 1:
		 * bad usage, assay's own fault. */
		env_verdict(r, VERDICT_ENV_ERROR, CATEGORY_NONE, s->exit_code ==
		    127 || s->exit_code == 126 ? "toolchain-missing" :
		    s->exit_code > 128 ? "toolchain-crash" : "toolchain-error",
		    NULL);
		if (line != NULL)
			env_set(&r->evidence, line);
		else {
			char *ev = xasprintf(HELPER " ended with status %d",
			    s->exit_code);

			env_set(&r->evidence, ev);
			free(ev);
		}
		goto out;
	}
	if (line != NULL && strncmp(line, refp, strlen(refp)) == 0) {
		/* The task's own solid is at fault, not the candidate. */
		env_verdict(r, VERDICT_TASK_DEFECT, CATEGORY_NONE,
		    "bad-reference", line);
		goto out;
	}
	{
		char *ev = env_evidence(line, s->log, s->log_len, HELPER);

		env_verdict(r, VERDICT_FAIL, category_from_name(category),
		    sub, ev);
		free(ev);
	}
out:
	free(line);
	free(name);
	free(refp);
}

/*
 * The run's counterexample of a failed IoU (docs/envs/cad.md): the IoU,
 * the volumes and their difference, and from the helper's "bbox: A=...
 * B=..." line both bounding boxes and the largest difference of their
 * sides per axis.  rot: the best right-angle turn, or NULL.
 */
static void
cad_counterexample(const struct env_stage_result *s, double iou, double min,
    double va, double vb, double vi, const char *rot, double rot_iou,
    struct run *r)
{
	static const char axes[] = "xyz";
	char *line = line_with(s->log, s->log_len, "bbox: ");
	double a[6], b[6];
	json_t *o = json_object();
	struct buf t = BUF_INIT;

	json_object_set_new(o, "iou", json_real(iou));
	json_object_set_new(o, "iou_min", json_real(min));
	json_object_set_new(o, "volume", json_real(va));
	json_object_set_new(o, "reference_volume", json_real(vb));
	json_object_set_new(o, "common_volume", json_real(vi));
	json_object_set_new(o, "volume_diff", json_real(va - vb));
	buf_printf(&t, "IoU %.6f, below iou_min %g\nvolume %.3f, reference"
	    " %.3f: difference %+.3f", iou, min, va, vb, va - vb);
	if (vb > 0)
		buf_printf(&t, " (%+.1f%%)", 100.0 * (va - vb) / vb);
	if (line != NULL && sscanf(line, "bbox: A=%lf,%lf,%lf,%lf,%lf,%lf"
	    " B=%lf,%lf,%lf,%lf,%lf,%lf", &a[0], &a[1], &a[2], &a[3], &a[4],
	    &a[5], &b[0], &b[1], &b[2], &b[3], &b[4], &b[5]) == 12) {
		json_t *ca = json_array(), *cb = json_array(),
		    *d = json_object();

		buf_adds(&t, "\nbounding box, largest difference per axis:");
		for (int k = 0; k < 3; k++) {
			double lo = fabs(a[k] - b[k]), hi = fabs(a[k + 3] -
			    b[k + 3]), m = lo > hi ? lo : hi;
			char key[2] = { axes[k], '\0' };

			json_object_set_new(d, key, json_real(m));
			buf_printf(&t, "%s %s %.3f", k > 0 ? "," : "", key, m);
		}
		for (int k = 0; k < 6; k++) {
			json_array_append_new(ca, json_real(a[k]));
			json_array_append_new(cb, json_real(b[k]));
		}
		json_object_set_new(o, "bbox", ca);
		json_object_set_new(o, "reference_bbox", cb);
		json_object_set_new(o, "bbox_diff", d);
		buf_printf(&t, "\ncandidate box (%.3f, %.3f, %.3f) to (%.3f,"
		    " %.3f, %.3f)\nreference box (%.3f, %.3f, %.3f) to (%.3f,"
		    " %.3f, %.3f)", a[0], a[1], a[2], a[3], a[4], a[5], b[0],
		    b[1], b[2], b[3], b[4], b[5]);
	}
	if (rot != NULL) {
		json_object_set_new(o, "rotation", json_string(rot));
		json_object_set_new(o, "rotated_iou", json_real(rot_iou));
		buf_printf(&t, "\nturned %s: IoU %.6f", rot, rot_iou);
	}
	feedback_set(r, "counterexample", o, buf_str(&t));
	buf_release(&t);
	free(line);
}

/*
 * The helper's mesh lines (--mesh) out of the run's log into r->wave,
 * where the workbench's 3D sheet reads them (src/model/solid.c): they
 * are thousands of numbers no reader of the log, and no repair prompt,
 * wants.  Read from the iou stage's own output, which no candidate code
 * wrote (the stage runs the helper alone), and cut from r->log only
 * where the log ends with that output (the iou stage is the last).
 */
static void
keep_meshes(const struct env_stage_result *s, struct run *r)
{
	struct buf w = BUF_INIT, kept = BUF_INIT;
	const char *p = s->log, *end = s->log + s->log_len;
	size_t nmesh = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl != NULL ? (size_t)(nl + 1 - p) : (size_t)(end - p);

		if (l > 8 && memcmp(p, "mesh: ", 6) == 0) {
			buf_add(&w, p, l);
			if (nl == NULL)
				buf_addc(&w, '\n');
			nmesh++;
		} else {
			buf_add(&kept, p, l);
		}
		p += l;
	}
	if (nmesh > 0) {
		free(r->wave);
		r->wave_len = w.len;
		r->wave = buf_detach(&w, NULL);
		if (r->log != NULL && r->log_len >= s->log_len &&
		    memcmp(r->log + r->log_len - s->log_len, s->log,
		    s->log_len) == 0) {
			size_t at = r->log_len - s->log_len;

			buf_printf(&kept, "assay: the meshes of %zu solids"
			    " are kept with the run for the 3D sheet (not in"
			    " this log)\n", nmesh);
			r->log = xrealloc(r->log, at + kept.len + 1);
			memcpy(r->log + at, kept.p != NULL ? kept.p : "",
			    kept.len);
			r->log_len = at + kept.len;
			r->log[r->log_len] = '\0';
		}
	}
	buf_release(&w);
	buf_release(&kept);
}

static void
judge_iou(const struct task *t, const struct env_stage_result *s,
    struct run *r)
{
	char *line = line_with(s->log, s->log_len, "vA=");
	double va, vb, vi, vu, iou, min = iou_min(t), rot_iou = 0;
	char *m, *orient = NULL, *rot = NULL, *about = NULL;

	env_set(&r->stage, "iou");
	keep_meshes(s, r);
	if (s->exit_code != 0) {
		judge_iou_error(t, s, r);
		goto out;
	}
	if (line == NULL || sscanf(line, "vA=%lf vB=%lf vInter=%lf vUnion=%lf"
	    " IoU=%lf", &va, &vb, &vi, &vu, &iou) != 5) {
		env_verdict(r, VERDICT_ENV_ERROR, CATEGORY_NONE,
		    "no-result-line", HELPER " printed no IoU line");
		goto out;
	}
	if (min < 0)
		min = IOU_MIN_DEFAULT;
	/* "orient: rotation="90 about X" about=origin IoU=0.99" */
	orient = line_with(s->log, s->log_len, "orient: ");
	if (orient != NULL) {
		const char *q = strstr(orient, "rotation=\""), *a, *v;

		a = strstr(orient, "\" about=");
		v = strstr(orient, " IoU=");
		if (q != NULL && a != NULL && v != NULL && a > q) {
			rot = xstrndup(q + 10, (size_t)(a - q - 10));
			about = xstrndup(a + 8, strcspn(a + 8, " "));
			rot_iou = strtod(v + 5, NULL);
		}
	}
	{
		struct buf mb = BUF_INIT;

		buf_printf(&mb, "{\"iou\":%.6f,\"volume\":%.6f,"
		    "\"reference_volume\":%.6f,\"common_volume\":%.6f,"
		    "\"volume_diff\":%.6f", iou, va, vb, vi, va - vb);
		if (rot != NULL)
			buf_printf(&mb, ",\"rotated_iou\":%.6f,\"rotation\":"
			    "\"%s\"", rot_iou, rot);
		buf_adds(&mb, "}");
		m = xstrdup(buf_str(&mb));
		buf_release(&mb);
	}
	free(r->metrics);
	r->metrics = m;
	if (iou >= min) {
		env_verdict(r, VERDICT_PASS, CATEGORY_NONE, NULL, NULL);
	} else {
		char *ev, *hint = NULL;

		if (rot != NULL && rot_iou >= min)
			hint = xasprintf("; turned %s (around %s) it"
			    " matches (IoU %.6f): a wrong orientation", rot,
			    strcmp(about, "origin") == 0 ? "the origin" :
			    "its centre of mass", rot_iou);
		ev = xasprintf("IoU %.6f below iou_min %g (volume %.3f,"
		    " reference %.3f, common %.3f, volume %+.1f%%)%s", iou, min,
		    va, vb, vi, vb > 0 ? 100.0 * (va - vb) / vb : 0.0,
		    hint != NULL ? hint : "");
		env_verdict(r, VERDICT_FAIL, CATEGORY_FUNCTIONAL,
		    hint != NULL ? "wrong-orientation" : "geometry-mismatch",
		    ev);
		free(ev);
		free(hint);
		cad_counterexample(s, iou, min, va, vb, vi, rot, rot_iou, r);
	}
out:
	free(line);
	free(orient);
	free(rot);
	free(about);
}

static void
judge_stages(const struct task *t, const struct env_plan *plan,
    const struct env_stage_result *res, size_t nres, enum env_stop stop,
    struct run *r)
{
	const struct env_stage_result *last = nres > 0 ? &res[nres - 1] : NULL;
	const char *name;

	if (last == NULL) {
		env_verdict(r, VERDICT_ENV_ERROR, CATEGORY_NONE, NULL, NULL);
		return;
	}
	name = plan->stages[nres - 1].name;
	env_set(&r->stage, name);
	if (env_judge_limits(stop, last->exit_code, "functional",
	    strcmp(name, "iou") == 0 ? "the IoU computation" :
	    "the CadQuery script", r))
		return;
	if (stop != ENV_STOP_NONE || last->exit_code == 128 + 25) {
		/* The work directory's size cap or the file-size limit. */
		env_verdict(r, VERDICT_FAIL, CATEGORY_FUNCTIONAL,
		    "resource-limit",
		    "the run wrote more than the limits allow");
		return;
	}
	if (strcmp(name, "probe") == 0) {
		char *why = line_with(last->log, last->log_len, "skipped: ");

		if (last->exit_code == SKIP_STATUS && why != NULL) {
			env_verdict(r, VERDICT_SKIPPED, CATEGORY_NONE,
			    "toolchain-missing",
			    "skipped: cadquery not installed");
		} else {
			env_verdict(r, VERDICT_ENV_ERROR, CATEGORY_NONE,
			    "toolchain-missing",
			    "cannot run " PYTHON " to look for cadquery");
		}
		free(why);
		return;
	}
	if (strcmp(name, "reference") == 0) {
		/* The task's own script is at fault, not the candidate. */
		char *exc = NULL;

		traceback_of(last->log, last->log_len, &exc);
		if (exc == NULL)
			exc = line_with(last->log, last->log_len, "cq_run: ");
		env_verdict(r, VERDICT_TASK_DEFECT, CATEGORY_NONE,
		    "bad-reference", NULL);
		{
			char *ev = xasprintf("the reference script failed"
			    " (status %d): %s", last->exit_code, exc != NULL ?
			    exc : "no message");

			env_set(&r->evidence, ev);
			free(ev);
		}
		free(exc);
		return;
	}
	if (strcmp(name, "cadquery") == 0) {
		judge_script(plan, last, r);
		return;
	}
	judge_iou(t, last, r);
}

/*
 * A format failure prepare() found (subcategory sub, at candidate line
 * line, message msg) turns a pass or a fail into a fail of category
 * format, the earliest cause: what the run did is its symptom (passed
 * names what passed, "the solid itself").  A run the candidate is not to
 * blame for (skipped, env-error, task-defect) or one out of time keeps
 * its verdict.
 */
static void
judge_format(const struct env_plan *plan, struct run *r, int line,
    const char *msg, const char *sub, const char *passed)
{
	const char *iou;
	char *ev;
	double v = -1;

	if (r->verdict == NULL || (!verdict_is(r->verdict, VERDICT_PASS) &&
	    !verdict_is(r->verdict, VERDICT_FAIL)))
		return;
	iou = r->metrics != NULL ? strstr(r->metrics, "\"iou\":") : NULL;
	if (iou != NULL)
		v = strtod(iou + 6, NULL);
	if (verdict_is(r->verdict, VERDICT_PASS))
		ev = xasprintf("candidate line %d: %s; %s passes (IoU %.6f)",
		    line, msg, passed, v);
	else
		ev = xasprintf("candidate line %d: %s; symptom: %s", line, msg,
		    r->evidence != NULL ? r->evidence : "the run failed");
	env_verdict(r, VERDICT_FAIL, CATEGORY_FORMAT, sub, ev);
	r->evidence_line = line;
	run_add_diag(r, plan->cand_file, line, 0, "error", msg, line);
	free(ev);
}

/*
 * Prose around STEP text (prepare()'s "prose LINE WHERE"): before the
 * header OCCT cannot read the file, and after its end it reads it, but
 * the answer is still not a STEP file.
 */
static void
judge_prose(const struct env_plan *plan, struct run *r)
{
	const char *p = strstr(buf_str(&plan->precheck), "prose ");
	char *where, *msg;
	int line;

	if (p == NULL)
		return;
	line = env_atoi(p + 6);
	p += 6 + strspn(p + 6, "0123456789");
	where = xstrndup(p + 1, strcspn(p + 1, "\n"));
	msg = xasprintf("prose %s", where);
	judge_format(plan, r, line, msg, "prose", "the solid itself");
	free(msg);
	free(where);
}

/*
 * A script answer in a markdown fence (prepare()'s "fence LINE"),
 * whatever the code inside did.
 */
static void
judge_fence(const struct env_plan *plan, struct run *r)
{
	const char *p = strstr(buf_str(&plan->precheck), PRE_FENCE);

	if (p != NULL)
		judge_format(plan, r, atoi(p + strlen(PRE_FENCE)),
		    "a markdown fence around the script", "markdown-fence",
		    "the script inside");
}

static void
cad_judge(const struct task *t, const struct env_plan *plan,
    const struct env_stage_result *res, size_t nres, enum env_stop stop,
    struct run *r)
{
	judge_stages(t, plan, res, nres, stop, r);
	judge_prose(plan, r);
	judge_fence(plan, r);
}

const struct env_ops env_cad = {
	.name = "cad",
	.domain = "3d",
	.lang = "step",
	.packages = CAD_PACKAGES,
	.missing_hint = "CadQuery scripts (lang python) also need CadQuery,"
	    " from PyPI into the project venv (make deps, or ASSAY_VENV);"
	    " without it they are verified as skipped",
	.toolchain = cad_toolchain,
	.partial = cad_partial,
	.prepare = cad_prepare,
	.rules = cad_rules,
	.nrules = CAD_NRULES,
	.judge = cad_judge,
};
