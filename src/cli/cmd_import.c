/*
 * cmd_import.c - `assay import`: import samples.  Moved from cli.c.
 */
#include "cli/cli_shared.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <poll.h>

#include <jansson.h>

#include "app/svc_args.h"
#include "base/buf.h"
#include "base/err.h"
#include "base/textsafe.h"
#include "exchange/import.h"
#include "exchange/import_svc.h"
#include "store/store.h"

/*
 * The progress line (cli_progress(): in place on a terminal, plain
 * lines elsewhere): rows, rate, share read and time left (a pipe, whose
 * size is not known, has neither: it said "100%, 0:00 left"), or how
 * long it has waited for another process's lock; after the first
 * second (a small file shows none).
 */
static void
import_meter(struct store *st, const struct isvc *s,
    const struct timespec *t0, struct cli_progress *line)
{
	struct isvc_progress p;
	struct timespec now;
	double t, rate, left;
	long lock_ms = store_lock_waiting_ms(st);
	char *vp;

	clock_gettime(CLOCK_MONOTONIC, &now);
	t = (double)(now.tv_sec - t0->tv_sec) +
	    (double)(now.tv_nsec - t0->tv_nsec) / 1e9;
	if (t < 1 && !line->shown)
		return;
	isvc_progress(s, &p);
	vp = cli_vis(isvc_path(s), NULL);
	rate = t > 0 ? (double)p.rows / t : 0;
	if (lock_ms >= 300)	/* another process holds the write lock */
		cli_progress(line, "%s: %zu rows, waits for the database's"
		    " lock (%ld s) ", vp, p.rows, (lock_ms + 500) / 1000);
	else if (p.total == 0 || p.done == 0)	/* a pipe: no size known */
		cli_progress(line, "%s: %zu rows, %.0f rows/s ", vp, p.rows,
		    rate);
	else {
		left = p.total >= p.done ? t * (double)(p.total - p.done) /
		    (double)p.done : 0;
		cli_progress(line, "%s: %zu rows, %.0f rows/s, %.0f%%, "
		    "%d:%02d left ", vp, p.rows, rate, 100.0 *
		    (double)p.done / (double)p.total, (int)(left / 60),
		    (int)left % 60);
	}
	free(vp);
}

/*
 * Import path through the import service (exchange/import_svc.h): a
 * plain poll loop, its progress line on stderr when progress is set.
 * *out is the service, over (isvc_result; isvc_free).  0, or -1 with err
 * when it could not start.
 */
static int
import_drive(struct store *st, const char *path, const struct import_opts *o,
    int progress, struct isvc **out, struct err *err)
{
	struct timespec t0;
	struct cli_progress line = { .tty = isatty(STDERR_FILENO) };

	if (isvc_new(out, st, path, o, err) < 0)
		return -1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (!isvc_step(*out)) {
		struct pollfd p = { .fd = isvc_fd(*out), .events = POLLIN };

		(void)poll(&p, 1, progress ? 200 : -1);
		if (progress)
			import_meter(st, *out, &t0, &line);
	}
	if (line.shown) {
		line.last = 0;		/* the last figures, even off a tty */
		import_meter(st, *out, &t0, &line);
		cli_progress_end(&line);
	}
	return 0;
}

/* The report's warnings ("path[:line]: why" lines) on stderr, their
 * paths and quoted values terminal-safe (base/textsafe.h). */
static void
import_warnings_print(const struct import_report *r)
{
	struct buf b = BUF_INIT;

	safe_text(&b, r->warnings.p != NULL ? r->warnings.p : "",
	    r->warnings.len, SAFE_KEEP_LINES);
	fwrite(b.p != NULL ? b.p : "", 1, b.len, stderr);
	buf_release(&b);
}

/* path as a JSON string: invalid UTF-8 as U+FFFD (json_string() gave
 * NULL for it, and the summary crashed). */
static json_t *
json_path(const char *path)
{
	struct buf b = BUF_INIT;
	json_t *s;

	safe_utf8(&b, path, strlen(path));
	s = json_stringn(b.p != NULL ? b.p : "", b.len);
	buf_release(&b);
	return s;
}

/* sep then path, terminal-safe, on stderr. */
static void
import_path_print(const char *sep, const char *path)
{
	char *vp = cli_vis(path, NULL);

	fprintf(stderr, "%s%s", sep, vp);
	free(vp);
}

static int
cmd_import(struct cmd_ctx *ctx, struct cmd_args *a, struct err *err)
{
	const struct cli_global *g = ctx->front;
	struct import_opts o;
	size_t tasks = 0, cands = 0, existing = 0, skipped = 0, files = 0;
	int failed = -1;
	struct store *st;
	char *by;
	int status = 0, json = 0, progress = isatty(STDERR_FILENO);

	if (svc_import_args(a, &o, &json, &progress, err) < 0)
		return cli_usage_error("import", "%s", err->msg);
	if (cli_open_store_mode(g, &st, 1) < 0)
		return 2;
	by = cli_reviewer(g);
	if (by == NULL) {
		store_close(st);
		return 2;
	}
	o.by = by;
	for (int i = 0; i < a->npos; i++) {
		const struct import_report *r = NULL;
		struct isvc *s = NULL;
		char *vp = cli_vis(a->pos[i], NULL);
		int rc;

		/* Progress only for a person watching: quiet when piped. */
		rc = import_drive(st, a->pos[i], &o, progress, &s, err);
		if (rc == 0)
			rc = isvc_result(s, &r, NULL, err);
		if (rc < 0) {
			char *ve = cli_vis(err->msg, NULL);

			fprintf(stderr, "assay: %s\n", ve);
			fprintf(stderr, "assay: %s: nothing imported\n", vp);
			free(ve);
			status = 2;
			failed = i;
		} else if (json) {
			import_warnings_print(r);
			files++;
			tasks += r->tasks_added;
			cands += r->cands_added;
			existing += r->cands_existing;
			skipped += r->skipped;
		} else {
			import_warnings_print(r);
			printf("%s: %zu new task%s, %zu new candidate%s (%zu"
			    " already there)", vp, r->tasks_added,
			    r->tasks_added == 1 ? "" : "s", r->cands_added,
			    r->cands_added == 1 ? "" : "s", r->cands_existing);
			if (r->skipped > 0)
				printf(", %zu bad lines skipped", r->skipped);
			printf("\n");
		}
		free(vp);
		isvc_free(s);
		if (status != 0)
			break;
	}
	if (json)
		cli_print_json(json_pack("{s:s, s:I, s:I, s:I, s:I, s:I, s:o}",
		    "command", "import", "files", (json_int_t)files,
		    "tasks_added", (json_int_t)tasks, "candidates_added",
		    (json_int_t)cands, "candidates_existing",
		    (json_int_t)existing, "skipped", (json_int_t)skipped,
		    "failed", failed >= 0 ? json_path(a->pos[failed]) :
		    json_null()));
	if (failed >= 0 && a->npos > 1) {
		/* Which files are in, which is not, which were not read. */
		fprintf(stderr, "assay: imported:");
		for (int i = 0; i < failed; i++)
			import_path_print(" ", a->pos[i]);
		fprintf(stderr, "%s\nassay: failed:", failed == 0 ? " none" :
		    "");
		import_path_print(" ", a->pos[failed]);
		fprintf(stderr, "\nassay: not tried:");
		for (int i = failed + 1; i < a->npos; i++)
			import_path_print(" ", a->pos[i]);
		fprintf(stderr, "%s\n", failed + 1 == a->npos ? " none" : "");
	}
	free(by);
	store_close(st);
	return status;
}

const struct cmd_entry cli_cmd_import = {
	"import", NULL, svc_import_opts, 1, CMD_MANY,
	"import [--format F] [--keep-going] [--id-prefix P] [--json]\n"
	  "              [--progress] [--license SPDX]\n"
	  "              [--repository URL@COMMIT] PATH...",
	  "Import samples.  F: auto (default), assay, verilog-eval-v2,\n"
	  "verilog-eval-v1, rtlfixer, kernelbench, realbench, rtllm,\n"
	  "tritonbench, archxbench, veriscope, text2cadquery, supercoder, dataset\n"
	  "(a checkout of the repository assay commit writes: tasks, their\n"
	  "files, samples and context with their ids and recorded verdicts);\n"
	  "docs/benchmarks.md says what each reads.\n"
	  "Re-importing adds nothing.  PATH may be a pipe (/dev/stdin, <(...)).\n"
	  "A malformed line is reported as FILE:LINE and nothing of that file\n"
	  "is kept; --keep-going skips bad lines and lists them.  Files are\n"
	  "imported in order; the first that fails stops the import, and the\n"
	  "files imported, failed and not tried are listed.\n"
	  "--id-prefix P puts P before each explicit candidate id (and parent)\n"
	  "of the assay JSONL rows, for two sources that number alike.\n"
	  "Ids, names, categories, statuses and times are checked as\n"
	  "docs/formats.md says.\n"
	  "The tasks added get a licence: --license SPDX, else the SPDX id of\n"
	  "the LICENSE (COPYING, ...) in PATH, beside it or above it\n"
	  "(NOASSERTION when it names none assay knows); their sources\n"
	  "become URL@COMMIT:path with --repository, or when PATH is in a git\n"
	  "work tree.\n"
	  "On a terminal (or with --progress) a progress line shows rows,\n"
	  "rate and time left on stderr.\n"
	  "--json prints one summary object (files, tasks_added,\n"
	  "candidates_added, candidates_existing, skipped, failed).",
	CMD_CLI, cmd_import
};
