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

#include <jansson.h>

#include "base/file.h"
#include "model/sample.h"

#define AX_DESC	"problem-description.txt"
#define AX_SPEC	"design-specs.txt"
#define AX_TB	"tb.v"

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
	return import_has_file(dir, AX_TB) && import_has_file(dir, AX_DESC);
}

/* import_any_entry(): is p a problem folder? */
static int
ax_is_problem(const char *p, const char *name, void *arg)
{
	(void)name;
	(void)arg;
	return ax_problem_dir(p);
}

/* Does level folder dir hold a problem folder? */
static int
ax_level_dir(const char *dir)
{
	return import_any_entry(dir, ax_is_problem, NULL);
}

/* import_any_entry(): is p a level folder with a problem in it? */
static int
ax_is_level(const char *p, const char *name, void *arg)
{
	(void)arg;
	return ax_level_name(name) && ax_level_dir(p);
}

/* Does dir hold a level folder with a problem in it? */
static int
ax_root_dir(const char *dir)
{
	return import_any_entry(dir, ax_is_level, NULL);
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

/* Where a problem goes: the store, the report and the level's name. */
struct ax_ctx {
	struct store		*st;
	struct import_report	*rep;
	const char		*level;
};

/* One problem folder dir, of x->level, into a task. */
static int
ax_problem(const char *dir, void *arg, struct err *err)
{
	struct ax_ctx *x = arg;
	char *desc = NULL, *spec = NULL, *tb = NULL, *id;
	size_t dlen, slen, tlen;
	struct task t = { 0 };
	json_t *extra;
	int rc = -1;

	if (import_read_in(dir, AX_DESC, 0, &desc, &dlen, err) < 0 ||
	    import_read_in(dir, AX_TB, 0, &tb, &tlen, err) < 0 ||
	    import_read_in(dir, AX_SPEC, 1, &spec, &slen, err) < 0)
		goto out;
	id = xasprintf("archxbench/%s/%s", x->level, file_base(dir));
	rc = import_tb_task(&t, id, "archxbench", dir, AX_TB, tb, tlen, err);
	free(id);
	if (rc < 0)
		goto out;
	t.spec = import_spec(desc, dlen, "\nThe testbench tb.v checks the"
	    " design and prints how many checks passed and failed; it passes"
	    " when none failed.\n");
	if (spec != NULL)
		t.interface = xstrndup(spec, slen);
	extra = json_pack("{s:s}", "level", x->level);
	t.extra = json_dumps(extra, JSON_COMPACT);
	json_decref(extra);
	rc = import_put_task(x->st, &t, x->rep, err);
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
	struct ax_ctx x = { st, rep, file_base(dir) };

	return import_each_problem(dir, ax_problem_dir, ax_problem, &x,
	    "no " AX_TB " and " AX_DESC ": not a problem", rep, err);
}

/* What the walk of the levels of a checkout takes. */
struct ax_walk {
	struct ax_ctx	 x;
	struct err	*err;
};

/* import_each_entry(): the problems of p when it is a level folder. */
static int
ax_level_entry(const char *p, const char *name, void *arg)
{
	struct ax_walk *w = arg;

	if (!ax_level_name(name) || !file_is_dir(p))
		return 0;
	return ax_level(w->x.st, p, w->x.rep, w->err);
}

static int
import_archxbench(struct store *st, const char *path,
    const struct import_opts *opts, struct import_report *rep,
    struct err *err)
{
	char *p = file_trim(path), *up = NULL;
	struct ax_walk w = { { st, rep, NULL }, err };
	int rc = -1;

	(void)opts;
	if (ax_root_dir(p)) {
		rc = import_each_entry(p, ax_level_entry, &w, err);
	} else if (ax_level_name(file_base(p)) && ax_level_dir(p)) {
		rc = ax_level(st, p, rep, err);
	} else if (ax_problem_dir(p)) {
		up = file_dir(p);
		w.x.level = file_base(up);
		rc = ax_problem(p, &w.x, err);
	} else {
		err_set(err, "%s: not ArchXBench data (want the checkout with"
		    " level-*/ folders, one level-*/ folder, or one problem"
		    " folder with %s and %s)", p, AX_TB, AX_DESC);
	}
	free(up);
	free(p);
	return rc;
}

const struct importer importer_archxbench = {
	"archxbench", import_archxbench_detect, NULL, import_archxbench
};
