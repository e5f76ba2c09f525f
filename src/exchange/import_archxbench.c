/*
 * import_archxbench.c - the ArchXBench reader (sureshpurini/ArchXBench);
 * see import.h, docs/formats.md and ADR 0046.
 *
 * ArchXBench lays out each problem as a folder under a level:
 * level-0/mux2to1/ holds problem-description.txt (the requirement),
 * design-specs.txt (module name, ports, the design signature) and tb.v,
 * a self-checking testbench that prints "Passed: N, Failed: M" and a
 * JSON line {"module": ..., "passed": N, "failed": M} and ends in $fatal
 * or $finish(1) when anything failed.  Each folder becomes a task of env
 * iverilog: the testbench as tb.v (role testbench, its own module the
 * top), the description as the requirement, the design specification as
 * the interface.  The verdict is the iverilog env's ArchXBench
 * convention (docs/envs.md, "Verdict contract"); ArchXBench publishes no
 * reference designs, so the tasks have none.
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
#include "model/sample.h"

#define AX_DESC	"problem-description.txt"
#define AX_SPEC	"design-specs.txt"
#define AX_TB	"tb.v"

/* Is there a regular file at p? */
static int
ax_exists(const char *p)
{
	struct stat sb;

	return stat(p, &sb) == 0 && S_ISREG(sb.st_mode);
}

/* Is name a level folder's name ("level-0", "level-1a")? */
static int
ax_level_name(const char *name)
{
	return strncmp(name, "level-", 6) == 0 && name[6] >= '0' &&
	    name[6] <= '9';
}

/* Is dir a problem folder (a testbench beside the description)? */
static int
ax_problem_dir(const char *dir)
{
	char *a = xasprintf("%s/%s", dir, AX_TB);
	char *b = xasprintf("%s/%s", dir, AX_DESC);
	int yes = ax_exists(a) && ax_exists(b);

	free(a);
	free(b);
	return yes;
}

/* Does level folder dir hold a problem folder? */
static int
ax_level_dir(const char *dir)
{
	char **names;
	size_t n;
	int yes = 0;

	if (import_list_dir(dir, &names, &n, NULL) < 0)
		return 0;
	for (size_t i = 0; i < n && !yes; i++) {
		char *p = xasprintf("%s/%s", dir, names[i]);

		yes = ax_problem_dir(p);
		free(p);
	}
	strv_free(names, n);
	return yes;
}

/* Does dir hold a level folder with a problem in it? */
static int
ax_root_dir(const char *dir)
{
	char **names;
	size_t n;
	int yes = 0;

	if (import_list_dir(dir, &names, &n, NULL) < 0)
		return 0;
	for (size_t i = 0; i < n && !yes; i++) {
		char *p = xasprintf("%s/%s", dir, names[i]);

		yes = ax_level_name(names[i]) && ax_level_dir(p);
		free(p);
	}
	strv_free(names, n);
	return yes;
}

static int
import_archxbench_detect(const char *path)
{
	char *p = file_trim(path), *up = file_dir(p);
	int yes = file_is_dir(p) && (ax_root_dir(p) ||
	    (ax_level_name(file_base(p)) && ax_level_dir(p)) ||
	    (ax_problem_dir(p) && ax_level_name(file_base(up))));

	free(up);
	free(p);
	return yes;
}

/* The file name in dir, whole: new string in *out (NULL and 0 when the
 * file is not there and optional). */
static int
ax_read(const char *dir, const char *name, int optional, char **out,
    size_t *len, struct err *err)
{
	char *p = xasprintf("%s/%s", dir, name);
	int rc = 0;

	*out = NULL;
	*len = 0;
	if (!optional || ax_exists(p))
		rc = import_read(p, out, len, err);
	free(p);
	return rc;
}

/* One problem folder dir, of level, into a task. */
static int
ax_problem(struct store *st, const char *dir, const char *level,
    struct import_report *rep, struct err *err)
{
	char *desc = NULL, *spec = NULL, *tb = NULL, *id;
	size_t dlen, slen, tlen;
	struct task t = { 0 };
	struct buf b = BUF_INIT;
	json_t *extra;
	int rc = -1;

	if (ax_read(dir, AX_DESC, 0, &desc, &dlen, err) < 0 ||
	    ax_read(dir, AX_TB, 0, &tb, &tlen, err) < 0 ||
	    ax_read(dir, AX_SPEC, 1, &spec, &slen, err) < 0)
		goto out;
	id = xasprintf("archxbench/%s/%s", level, file_base(dir));
	rc = import_tb_task(&t, id, "archxbench", dir, AX_TB, tb, tlen, err);
	free(id);
	if (rc < 0)
		goto out;
	rc = -1;
	buf_add(&b, desc, dlen);
	if (b.len > 0 && b.p[b.len - 1] != '\n')
		buf_addc(&b, '\n');
	buf_adds(&b, "\nThe testbench tb.v checks the design and prints how"
	    " many checks passed and failed; it passes when none failed.\n");
	t.spec = buf_detach(&b, NULL);
	if (spec != NULL)
		t.interface = xstrndup(spec, slen);
	extra = json_pack("{s:s}", "level", level);
	t.extra = json_dumps(extra, JSON_COMPACT);
	json_decref(extra);
	rc = import_put_task(st, &t, rep, err);
out:
	task_release(&t);
	free(desc);
	free(spec);
	free(tb);
	return rc;
}

/* Every problem folder of level folder dir. */
static int
ax_level(struct store *st, const char *dir, struct import_report *rep,
    struct err *err)
{
	char **names;
	size_t n;
	int rc = 0;

	if (import_list_dir(dir, &names, &n, err) < 0)
		return -1;
	for (size_t i = 0; i < n && rc == 0; i++) {
		char *p = xasprintf("%s/%s", dir, names[i]);

		if (ax_problem_dir(p))
			rc = ax_problem(st, p, file_base(dir), rep, err);
		else if (file_is_dir(p))
			buf_printf(&rep->warnings, "%s: no %s and %s: not a"
			    " problem\n", p, AX_TB, AX_DESC);
		free(p);
	}
	strv_free(names, n);
	return rc;
}

static int
import_archxbench(struct store *st, const char *path,
    const struct import_opts *opts, struct import_report *rep,
    struct err *err)
{
	char *p = file_trim(path), *up = NULL;
	int rc = -1;

	(void)opts;
	if (ax_root_dir(p)) {
		char **names;
		size_t n;

		if (import_list_dir(p, &names, &n, err) < 0)
			goto out;
		rc = 0;
		for (size_t i = 0; i < n && rc == 0; i++) {
			char *d = xasprintf("%s/%s", p, names[i]);

			if (ax_level_name(names[i]) && file_is_dir(d))
				rc = ax_level(st, d, rep, err);
			free(d);
		}
		strv_free(names, n);
	} else if (ax_level_name(file_base(p)) && ax_level_dir(p)) {
		rc = ax_level(st, p, rep, err);
	} else if (ax_problem_dir(p)) {
		up = file_dir(p);
		rc = ax_problem(st, p, file_base(up), rep, err);
	} else {
		err_set(err, "%s: not ArchXBench data (want the checkout with"
		    " level-*/ folders, one level-*/ folder, or one problem"
		    " folder with %s and %s)", p, AX_TB, AX_DESC);
	}
out:
	free(up);
	free(p);
	return rc;
}

const struct importer importer_archxbench = {
	"archxbench", import_archxbench_detect, NULL, import_archxbench
};
