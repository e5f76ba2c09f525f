/*
 * cmd_merge.c - `assay merge`: fold run results files into the database.
 * Moved from cli.c.
 */
#include "cli/cli_shared.h"

#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/merge_svc.h"
#include "app/svc_args.h"
#include "base/buf.h"
#include "base/err.h"
#include "store/store.h"

/* The shards' report after merge's summary line (without --json). */
static void
shards_print(const char *dir, const struct msvc_result *sh)
{
	json_t *st = sh->stats, *envs = json_object_get(st, "envs"), *e;
	const char *name;
	size_t i, nmiss = json_array_size(sh->missing);
	char *vis = cli_vis(dir, NULL);

	printf("slices: %zu of %zu merged", sh->merged, sh->nslices);
	if (nmiss > 0) {
		json_t *x;

		printf("; missing %zu:", nmiss);
		json_array_foreach(sh->missing, i, x)
			printf("%s %lld", i > 0 ? "," : "",
			    (long long)json_integer_value(x));
		printf(" (no completion marker naming them in %s/results:"
		    " assay slurm %s runs them again)", vis, vis);
	}
	printf("\n");
	free(vis);
	if (sh->merged == sh->nostats)
		return;
	printf("slice stats: %lld candidates, %lld runs, %.1f s of tasks"
	    " (%.1f s CPU) on %zu host%s\n",
	    (long long)json_integer_value(json_object_get(st, "candidates")),
	    (long long)json_integer_value(json_object_get(st, "runs")),
	    json_number_value(json_object_get(st, "wall_s")),
	    json_number_value(json_object_get(st, "cpu_s")),
	    json_array_size(json_object_get(st, "hosts")),
	    json_array_size(json_object_get(st, "hosts")) == 1 ? "" : "s");
	json_object_foreach(envs, name, e) {
		json_t *tc = json_object_get(e, "toolchains"), *n;
		const char *id;
		char *ve = cli_vis(name, NULL);

		printf("  %s: %lld runs, %.1f s", ve, (long long)
		    json_integer_value(json_object_get(e, "runs")),
		    (double)json_integer_value(json_object_get(e, "wall_ms")) /
		    1000.0);
		json_object_foreach(tc, id, n) {
			char *vt = cli_vis(id, NULL);

			printf("; %s (%lld)", vt, (long long)
			    json_integer_value(n));
			free(vt);
		}
		printf("\n");
		free(ve);
	}
	if (sh->nostats > 0)
		printf("  (%zu merged slice%s had no stats file)\n",
		    sh->nostats, sh->nostats == 1 ? "" : "s");
}

/* An env verified with more than one toolchain across the slices: the
 * nodes differ, and so may their verdicts.  Said on stderr. */
static void
shards_warn(const struct msvc_result *sh)
{
	json_t *e;
	const char *name;

	json_object_foreach(json_object_get(sh->stats, "envs"), name, e) {
		size_t k = json_object_size(json_object_get(e, "toolchains"));
		char *ve;

		if (k <= 1)
			continue;
		ve = cli_vis(name, NULL);
		fprintf(stderr, "assay merge: env %s ran with %zu toolchains"
		    " across the slices (the nodes differ; see the stats)\n",
		    ve, k);
		free(ve);
	}
}

/*
 * Drive the merge service (app/merge_svc.h) over st: a plain poll loop
 * that prints its messages on stderr as they come and, when progress is
 * set, a progress line once a thousand lines are read.  *out is the
 * service, over.  0, or -1 when it could not start (said).
 */
static int
merge_drive(struct store *st, char *const *files, size_t n, const char *dir,
    int progress, struct msvc **out)
{
	struct buf msgs = BUF_INIT;
	struct msvc_progress p;
	struct err err;
	struct cli_progress line = { .tty = isatty(STDERR_FILENO) };
	int over;

	if (msvc_new(out, st, files, n, dir, &err) < 0) {
		fprintf(stderr, "assay merge: %s\n", err.msg);
		return -1;
	}
	do {
		struct pollfd pfd = { .fd = msvc_fd(*out), .events = POLLIN };

		(void)poll(&pfd, 1, 100);
		over = msvc_step(*out);
		if (msvc_messages(*out, &msgs) > 0) {
			fputs(buf_str(&msgs), stderr);
			buf_reset(&msgs);
		}
		msvc_progress(*out, &p);
		if (progress && p.lines >= 1000) {
			cli_progress(&line, "merge: %zu lines, %zu runs"
			    " stored, %zu already there ", p.lines, p.stored,
			    p.unchanged);
		}
	} while (!over);
	cli_progress_end(&line);
	buf_release(&msgs);
	return 0;
}

static int
cmd_merge(struct cmd_ctx *ctx, struct cmd_args *a, struct err *err)
{
	const struct cli_global *g = ctx->front;
	const char *dir = NULL;
	struct cli_summary sum = { .command = "merge" };
	const struct msvc_result *r;
	struct msvc *m;
	struct store *st;
	long lock_s = 60;
	int json = 0, rc, progress = isatty(STDERR_FILENO);

	if (svc_merge_args(a, &dir, &lock_s, &json, &progress, err) < 0)
		return cli_usage_error("merge", "%s", err->msg);
	if (cli_open_store(g, &st) < 0)
		return 2;
	store_lock_timeout(st, (int)lock_s * 1000);
	if (merge_drive(st, a->pos, (size_t)a->npos, dir, progress,
	    &m) < 0) {
		store_close(st);
		return 2;
	}
	r = msvc_result(m);
	sum.done = r->done;
	sum.unchanged = r->unchanged;
	sum.not_stored = r->not_stored;
	sum.refused = r->refused;
	sum.tally = r->tally;
	if (dir != NULL) {
		sum.more = json_pack("{s:I, s:I, s:O, s:O}", "slices",
		    (json_int_t)r->nslices, "merged_slices",
		    (json_int_t)r->merged, "missing", r->missing, "stats",
		    r->stats);
		shards_warn(r);
	}
	cli_summary_print(&sum, json);
	if (dir != NULL && !json)
		shards_print(dir, r);
	store_close(st);
	rc = r->not_stored > 0 ? 3 : r->status != 0 ? r->status :
	    json_array_size(r->missing) > 0 ? 1 : 0;
	json_decref(sum.more);
	msvc_free(m);
	return rc;
}

const struct cmd_entry cli_cmd_merge = {
	"merge", NULL, svc_merge_opts, 0, CMD_MANY,
	"merge [--json] [--progress] [--lock-timeout S]\n"
	  "              RESULTS... | --shards DIR",
	  "Fold run results files (verify --results; docs/formats.md) into the\n"
	  "database.  A line without a MAC under a key of this database (its\n"
	  "own, or that of shards it exported), or with a wrong one, is\n"
	  "refused before anything in it is read.  A run whose candidate is\n"
	  "not here, belongs to another\n"
	  "task, or was made on other inputs (its input key differs) is\n"
	  "refused with FILE:LINE and the reason; the rest merge.  A run that\n"
	  "is already here is not added again, so merging twice adds nothing.\n"
	  "Runs are stored in batches of 500, with progress on a terminal\n"
	  "(or with --progress);\n"
	  "the summary is verify's (\"merged N\"), \"unchanged\" counting the\n"
	  "runs already here.  A merged run becomes its candidate's latest unless a run\n"
	  "that started later is here.\n"
	  "  --shards DIR  merge the results of every slice of export --shards\n"
	  "                DIR that has its completion marker in DIR/results\n"
	  "                (OUT.done beside the results file OUT of verify\n"
	  "                --input, OUT named as you like), sum their stats\n"
	  "                files (runs, verdicts, time, toolchains per env) and\n"
	  "                list the slices still missing (what assay slurm's\n"
	  "                merge job runs)\n"
	  "Exit status: 0; 1 when --shards found slices without their marker\n"
	  "(the rest are merged); 2 when lines were refused or a file could\n"
	  "not be read; 3 when runs could not be stored.",
	CMD_CLI, cmd_merge
};
