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

static int ax_problem(const char *, void *, struct err *);

static const struct import_layout ax_layout = {
	ax_level_name, ax_problem_dir, ax_problem,
	"no " AX_TB " and " AX_DESC ": not a problem", 1,
	"not ArchXBench data (want the checkout with level-*/ folders, one"
	" level-*/ folder, or one problem folder with " AX_TB " and " AX_DESC
	")"
};

static int
import_archxbench_detect(const char *path)
{
	char *p = file_trim(path), *up = file_dir(p);
	int yes = file_is_dir(p) && (import_layout_holds(&ax_layout, p, 2) ||
	    (ax_level_name(file_base(p)) &&
	    import_layout_holds(&ax_layout, p, 1)) ||
	    (ax_problem_dir(p) && ax_level_name(file_base(up))));

	free(up);
	free(p);
	return yes;
}

static const struct import_tb_files ax_files = {
	"archxbench", AX_DESC, AX_TB, AX_SPEC, 0,
	"\nThe testbench tb.v checks the design and prints how many checks"
	" passed and failed; it passes when none failed.\n", "level"
};

/* One problem folder dir, of level w->group, into a task. */
static int
ax_problem(const char *dir, void *arg, struct err *err)
{
	const struct import_walk *w = arg;
	char *id = xasprintf("archxbench/%s/%s", w->group, file_base(dir));
	struct task t = { 0 };
	int rc = import_tb_problem(w, dir, &ax_files, id, &t, err);

	task_release(&t);
	free(id);
	return rc;
}

static int
import_archxbench(struct store *st, const char *path,
    const struct import_opts *opts, struct import_report *rep,
    struct err *err)
{
	(void)opts;
	return import_layout_run(&ax_layout, st, path, rep, err);
}

const struct importer importer_archxbench = {
	"archxbench", import_archxbench_detect, NULL, import_archxbench
};
