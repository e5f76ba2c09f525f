/*
 * commit.c - `c` in the background: the commit service
 * (exchange/dataset_svc.h) as a service of the frame loop, so that
 * mirroring a large dataset into git never stops the screen.  The store
 * is read when `c` is pressed; git writes on the service's own thread;
 * the status line says when it is done.
 */
#include "ui/wb.h"

#include <stdlib.h>

#include "exchange/dataset_svc.h"

int
commit_running(const struct wb *wb)
{
	return wb->commit != NULL;
}

void
commit_start(struct wb *wb)
{
	const char *repo = wb->o->repo_dir ? wb->o->repo_dir : "dataset";
	struct err err;

	if (wb->commit != NULL) {
		wb_msg(wb, 1, "a commit is running (%zu files to %s)",
		    dsvc_files(wb->commit), repo);
		return;
	}
	if (dsvc_new(&wb->commit, wb->st, repo, NULL, wb->reviewer,
	    &err) < 0) {
		wb_msg(wb, 1, "commit: %s", err.msg);
		return;
	}
	wb->job_last = WB_JOB_COMMIT;
	wb_msg(wb, 0, "committing to %s (%zu files) ...", repo,
	    dsvc_files(wb->commit));
}

void
commit_pollfds(struct wb *wb, struct wb_pollset *ps)
{
	wb_pollset_add(ps, dsvc_fd(wb->commit), POLLIN);
}

int
commit_timeout(const struct wb *wb)
{
	(void)wb;
	return -1;
}

void
commit_step(struct wb *wb)
{
	const char *repo = wb->o->repo_dir ? wb->o->repo_dir : "dataset";
	struct dataset_result res;
	struct err err;
	int rc;

	if (!dsvc_step(wb->commit))
		return;
	rc = dsvc_result(wb->commit, &res, &err);
	dsvc_free(wb->commit);
	wb->commit = NULL;
	if (rc < 0 && res.committed && store_locked_out(wb->st)) {
		/* the journal's entry waits for the lock, as a decision
		 * does (it was lost) */
		pending_commit(wb, res.oid);
		wb_msg(wb, 0, "committed %.7s to %s; its journal entry waits"
		    " for the database's lock (%zu pending)", res.oid, repo,
		    wb->npending);
	} else if (rc < 0 && res.committed)
		wb_msg(wb, 1, "committed %.7s to %s, but not journalled: %s",
		    res.oid, repo, err.msg);
	else if (rc < 0)
		wb_msg(wb, 1, "commit: %s", err.msg);
	else if (!res.committed)
		wb_msg(wb, 0, "nothing new to commit (%zu samples in %s)",
		    res.samples, repo);
	else
		wb_msg(wb, 0, "committed %zu sample%s (%.7s): %zu added, %zu "
		    "changed, %zu removed; %zu in %s", res.added +
		    res.modified + res.removed, res.added + res.modified +
		    res.removed == 1 ? "" : "s", res.oid, res.added,
		    res.modified, res.removed, res.samples, repo);
}

void
commit_cancel(struct wb *wb)
{
	dsvc_cancel(wb->commit);
	wb_msg(wb, 0, "stopping the commit (once git writes, it ends by"
	    " itself)");
}

void
commit_stop(struct wb *wb)
{
	dsvc_free(wb->commit);	/* waits while git writes */
	wb->commit = NULL;
}
