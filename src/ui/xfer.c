/*
 * xfer.c - :import and :merge in the background: the import service
 * (exchange/import_svc.h) and the merge service (app/merge_svc.h) as
 * services of the frame loop (ADR 0055), with the same options as
 * `assay import` and `assay merge` (app/svc_args.h).
 *
 * Each runs on a store connection of its own, opened here on the
 * database the workbench shows, so that the workbench's connection stays
 * free for the screen; what they commit shows as any other process's
 * commit does (the live store, wb_live), and once more when they end,
 * the cursor staying where the reviewer put it (wb_view_changed).  The
 * status line shows their progress; x or C-c cancels: an import rolls
 * its input back, a merge keeps the runs it stored.  One of each runs at
 * a time.
 */
#include "ui/wb.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "app/merge_svc.h"
#include "app/svc_args.h"
#include "exchange/import_svc.h"

#define XFER_TICK_MS	250	/* the status line's progress, this often */
#define XFER_LOCK_MS	60000	/* as assay merge's --lock-timeout 60 */

/* :import or :merge: its service and the connection lent to it. */
struct xfer {
	struct store	*st;
	struct isvc	*imp;
	struct msvc	*mrg;
	char		*what;		/* the path or "N files" shown */
	char		*last;		/* :merge: its last message, or NULL */
};

/* A connection of the service's own on the workbench's database. */
static struct xfer *
xfer_new(struct wb *wb, const char *verb, const char *what)
{
	struct xfer *x;
	struct err err;
	struct store *st;

	if (store_open_again(wb->st, &st, &err) < 0) {
		wb_msg(wb, 1, "%s: %s", verb, err.msg);
		return NULL;
	}
	store_lock_timeout(st, XFER_LOCK_MS);
	x = xcalloc(1, sizeof *x);
	x->st = st;
	x->what = xstrdup(what);
	return x;
}

static void
xfer_free(struct xfer *x)
{
	if (x == NULL)
		return;
	/* a wait for another's lock ends now, not after XFER_LOCK_MS */
	store_lock_cancel(x->st);
	isvc_free(x->imp);	/* waits for the thread: nothing half done */
	msvc_free(x->mrg);
	store_close(x->st);
	free(x->what);
	free(x->last);
	free(x);
}

/* A path the reviewer typed that cannot be read: said now, nothing
 * started.  1 when it is there. */
static int
xfer_path_ok(struct wb *wb, const char *verb, const char *path)
{
	struct stat sb;

	if (stat(path, &sb) == 0)
		return 1;
	wb_msg(wb, 1, "%s: %s: %s", verb, path, strerror(errno));
	return 0;
}

/* --- :import ------------------------------------------------------------ */

static int
wbc_import(struct cmd_ctx *ctx, struct cmd_args *a, struct err *err)
{
	struct wb *wb = ctx->front;
	struct import_opts o;
	struct xfer *x;
	const char *path;

	if (svc_import_args(a, &o, NULL, NULL, err) < 0 || (a->npos > 1 &&
	    import_format_parse(a->pos[1], &o.format, err) < 0)) {
		wb_msg(wb, 1, "import: %s", err->msg);
		err_clear(err);
		return 0;
	}
	if (wb->import != NULL) {
		wb_msg(wb, 1, "an import of %s is running (x cancels it)",
		    wb->import->what);
		return 0;
	}
	path = a->pos[0];
	if (!xfer_path_ok(wb, "import", path) ||
	    (x = xfer_new(wb, "import", path)) == NULL)
		return 0;
	o.by = wb->reviewer;
	if (isvc_new(&x->imp, x->st, path, &o, err) < 0) {
		wb_msg(wb, 1, "import: %s", err->msg);
		err_clear(err);
		xfer_free(x);
		return 0;
	}
	wb->import = x;
	wb->job_last = WB_JOB_IMPORT;
	wb_msg(wb, 0, "importing %s ... (x cancels)", path);
	return 0;
}

int
import_running(const struct wb *wb)
{
	return wb->import != NULL;
}

int
import_progress(const struct wb *wb, size_t *rows, size_t *stored,
    long *lock_ms)
{
	struct isvc_progress p;

	if (wb->import == NULL)
		return 0;
	isvc_progress(wb->import->imp, &p);
	*rows = p.rows;
	*stored = p.stored;
	*lock_ms = store_lock_waiting_ms(wb->import->st);
	return 1;
}

void
import_pollfds(struct wb *wb, struct wb_pollset *ps)
{
	wb_pollset_add(ps, isvc_fd(wb->import->imp), POLLIN);
}

int
import_timeout(const struct wb *wb)
{
	(void)wb;
	return XFER_TICK_MS;
}

void
import_step(struct wb *wb)
{
	struct xfer *x = wb->import;
	const struct import_report *r;
	struct err err;
	char skipped[64] = "";
	int cancelled;

	wb->dirty = 1;		/* the progress on the status line */
	if (!isvc_step(x->imp))
		return;
	if (isvc_result(x->imp, &r, &cancelled, &err) < 0) {
		wb_msg(wb, !cancelled, "import: %s", err.msg);
	} else {
		if (r->skipped > 0)
			snprintf(skipped, sizeof skipped, ", %zu bad lines"
			    " skipped", r->skipped);
		wb_msg(wb, 0, "%s: %zu new task%s, %zu new candidate%s (%zu"
		    " already there)%s", x->what, r->tasks_added,
		    r->tasks_added == 1 ? "" : "s", r->cands_added,
		    r->cands_added == 1 ? "" : "s", r->cands_existing,
		    skipped);
		wb_view_changed(wb);	/* the cursor stays */
	}
	xfer_free(x);
	wb->import = NULL;
}

void
import_cancel(struct wb *wb)
{
	isvc_cancel(wb->import->imp);
	store_lock_cancel(wb->import->st);	/* a wait ends too */
	wb_msg(wb, 0, "cancelling the import of %s (nothing of it stays)",
	    wb->import->what);
}

void
import_stop(struct wb *wb)
{
	xfer_free(wb->import);	/* rolls the input back */
	wb->import = NULL;
}

/* --- :merge ------------------------------------------------------------- */

static int
wbc_merge(struct cmd_ctx *ctx, struct cmd_args *a, struct err *err)
{
	struct wb *wb = ctx->front;
	const char *dir;
	long lock_s = XFER_LOCK_MS / 1000;
	struct xfer *x;
	char what[64];

	if (svc_merge_args(a, &dir, &lock_s, NULL, NULL, err) < 0) {
		wb_msg(wb, 1, "merge: %s", err->msg);
		err_clear(err);
		return 0;
	}
	if (wb->merge != NULL) {
		wb_msg(wb, 1, "a merge of %s is running (x cancels it)",
		    wb->merge->what);
		return 0;
	}
	if (dir != NULL && !xfer_path_ok(wb, "merge", dir))
		return 0;
	for (int i = 0; i < a->npos; i++)
		if (!xfer_path_ok(wb, "merge", a->pos[i]))
			return 0;
	if (a->npos > 1)
		snprintf(what, sizeof what, "%d files", a->npos);
	if ((x = xfer_new(wb, "merge", dir != NULL ? dir : a->npos > 1 ?
	    what : a->pos[0])) == NULL)
		return 0;
	store_lock_timeout(x->st, (int)lock_s * 1000);
	if (msvc_new(&x->mrg, x->st, a->pos, (size_t)a->npos, dir,
	    err) < 0) {
		wb_msg(wb, 1, "merge: %s", err->msg);
		err_clear(err);
		xfer_free(x);
		return 0;
	}
	wb->merge = x;
	wb->job_last = WB_JOB_MERGE;
	wb_msg(wb, 0, "merging %s ... (x cancels)", x->what);
	return 0;
}

int
merge_running(const struct wb *wb)
{
	return wb->merge != NULL;
}

int
merge_progress(const struct wb *wb, size_t *lines, size_t *stored,
    long *lock_ms)
{
	struct msvc_progress p;

	if (wb->merge == NULL)
		return 0;
	msvc_progress(wb->merge->mrg, &p);
	*lines = p.lines;
	*stored = p.stored;
	*lock_ms = store_lock_waiting_ms(wb->merge->st);
	return 1;
}

void
merge_pollfds(struct wb *wb, struct wb_pollset *ps)
{
	wb_pollset_add(ps, msvc_fd(wb->merge->mrg), POLLIN);
}

int
merge_timeout(const struct wb *wb)
{
	(void)wb;
	return XFER_TICK_MS;
}

/* Take the merge's messages (safe already) and keep the last, so that
 * the queue never grows with a long merge's refusals. */
static void
merge_take(struct xfer *x)
{
	struct buf msgs = BUF_INIT;
	const char *last;
	size_t n = msvc_messages(x->mrg, &msgs);

	if (n > 0) {
		while (msgs.len > 0 && msgs.p[msgs.len - 1] == '\n')
			msgs.len--;
		buf_adds(&msgs, "");
		last = strrchr(buf_str(&msgs), '\n');
		free(x->last);
		x->last = xstrdup(last != NULL ? last + 1 : buf_str(&msgs));
	}
	buf_release(&msgs);
}

void
merge_step(struct wb *wb)
{
	struct xfer *x = wb->merge;
	const struct msvc_result *r;
	int over;

	wb->dirty = 1;		/* the progress on the status line */
	over = msvc_step(x->mrg);
	merge_take(x);
	if (!over)
		return;
	r = msvc_result(x->mrg);
	wb_msg(wb, r->status != 0 || r->not_stored > 0, "merge%s: %zu runs"
	    " stored, %zu already there, %zu refused, %zu not stored%s%s",
	    r->cancelled ? " (cancelled)" : "", r->done, r->unchanged,
	    r->refused, r->not_stored, x->last != NULL ? "; " : "",
	    x->last != NULL ? x->last : "");
	wb_view_changed(wb);	/* the cursor stays */
	xfer_free(x);
	wb->merge = NULL;
}

void
merge_cancel(struct wb *wb)
{
	msvc_cancel(wb->merge->mrg);
	store_lock_cancel(wb->merge->st);	/* a wait ends too */
	wb_msg(wb, 0, "cancelling the merge of %s (the runs stored stay)",
	    wb->merge->what);
}

void
merge_stop(struct wb *wb)
{
	xfer_free(wb->merge);	/* commits the open batch */
	wb->merge = NULL;
}

/* The entries of the one table (main.c, by UI_COMMANDS). */
const struct cmd_entry ui_cmd_import = { "import", NULL, svc_import_opts,
    1, 2, "import [--format F] [--keep-going] [--id-prefix P] [--license"
    " SPDX] [--repository URL@COMMIT] PATH [FORMAT]", "Import PATH (a file"
    " or a benchmark's folder; FORMAT as --format, auto by default) in the"
    " background, as assay import does; x cancels (nothing of it stays).",
    CMD_WORKBENCH | CMD_KEY, wbc_import };
const struct cmd_entry ui_cmd_merge = { "merge", NULL, svc_merge_opts, 0,
    CMD_MANY, "merge [--lock-timeout S] RESULTS... | --shards DIR", "Fold"
    " run results files into the database in the background, as assay"
    " merge does; x cancels (the runs stored stay).",
    CMD_WORKBENCH | CMD_KEY, wbc_merge };
