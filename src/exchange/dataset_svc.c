/*
 * dataset_svc.c - the commit as a service; see dataset_svc.h.
 */
#include "exchange/dataset_svc.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "base/worker.h"

struct dsvc {
	struct store		*st;		/* borrowed */
	struct dataset_job	*job;
	struct worker		 w;		/* the writing thread */
	atomic_int		 cancel;
	struct err		 werr;		/* the thread's message */
	int			 done;
	int			 rc;
	struct err		 err;
	struct dataset_result	 res;
};

/* The writing thread (base/worker.h): touches no store. */
static int
writing_run(void *arg)
{
	struct dsvc *s = arg;

	return dataset_job_write(s->job, &s->cancel, &s->werr);
}

int
dsvc_new(struct dsvc **out, struct store *st, const char *repo_dir,
    const char *message, const char *reviewer, struct err *err)
{
	struct dsvc *s;

	*out = NULL;
	s = xcalloc(1, sizeof *s);
	s->st = st;
	atomic_init(&s->cancel, 0);
	if (dataset_job_build(st, repo_dir, message, reviewer, &s->job,
	    err) < 0) {
		free(s);
		return -1;
	}
	if (worker_start(&s->w, writing_run, s, err) < 0) {
		dsvc_free(s);
		return -1;
	}
	*out = s;
	return 0;
}

int
dsvc_fd(const struct dsvc *s)
{
	return s->done ? -1 : worker_fd(&s->w);
}

size_t
dsvc_files(const struct dsvc *s)
{
	return dataset_job_files(s->job);
}

void
dsvc_cancel(struct dsvc *s)
{
	atomic_store(&s->cancel, 1);
}

int
dsvc_step(struct dsvc *s)
{
	if (s->done)
		return 1;
	if (!worker_over(&s->w))
		return 0;
	s->done = 1;
	err_clear(&s->err);
	if (s->w.rc < 0) {
		s->err = s->werr;
		s->rc = -1;
	} else {
		s->rc = dataset_job_finish(s->st, s->job, &s->res, &s->err);
	}
	return 1;
}

int
dsvc_result(const struct dsvc *s, struct dataset_result *res,
    struct err *err)
{
	*res = s->res;
	if (s->rc < 0 && err != NULL)
		*err = s->err;
	return s->rc;
}

void
dsvc_free(struct dsvc *s)
{
	if (s == NULL)
		return;
	worker_join(&s->w);	/* never leave git's files half written */
	dataset_job_free(s->job);
	free(s);
}
