/*
 * import_svc.c - the import as a service; see import_svc.h.
 */
#include "exchange/import_svc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/file.h"
#include "base/worker.h"

struct isvc {
	struct store		*st;		/* borrowed */
	char			*path, *by, *license, *repository, *prefix;
	struct import_opts	 o;
	struct import_watch	 watch;
	int			 wake[2];	/* a byte on wake[1] at cancel;
						 * wake[0] is watch.cancel_fd */
	struct worker		 w;
	int			 done, rc, cancelled;
	struct err		 err;		/* the thread's, read once over */
	struct import_report	 rep;
};

/* The service's thread: the whole import of one input. */
static int
import_run(void *arg)
{
	struct isvc *s = arg;

	return import_path(s->st, s->path, &s->o, &s->rep, &s->err);
}

int
isvc_new(struct isvc **out, struct store *st, const char *path,
    const struct import_opts *o, struct err *err)
{
	struct isvc *s = xcalloc(1, sizeof *s);

	*out = NULL;
	s->wake[0] = s->wake[1] = -1;
	if (file_cancel_pipe(s->wake) < 0) {
		err_set(err, "import: pipe: %s", strerror(errno));
		free(s);
		return -1;
	}
	s->watch.cancel_fd = s->wake[0];
	s->st = st;
	s->path = xstrdup(path);
	s->by = xstrdup(o->by);
	s->license = xstrdup(o->license);
	s->repository = xstrdup(o->repository);
	s->prefix = xstrdup(o->id_prefix);
	s->o = *o;
	s->o.by = s->by;
	s->o.license = s->license;
	s->o.repository = s->repository;
	s->o.id_prefix = s->prefix;
	s->o.progress = NULL;
	s->o.progress_arg = NULL;
	import_report_init(&s->rep);
	s->rep.watch = &s->watch;
	err_clear(&s->err);
	if (worker_start(&s->w, import_run, s, err) < 0) {
		isvc_free(s);
		return -1;
	}
	*out = s;
	return 0;
}

int
isvc_fd(const struct isvc *s)
{
	return s->done ? -1 : worker_fd(&s->w);
}

int
isvc_step(struct isvc *s)
{
	if (s->done)
		return 1;
	if (!worker_over(&s->w))
		return 0;
	s->done = 1;
	s->rc = s->w.rc;
	if (s->rc < 0 && import_watch_cancelled(&s->watch)) {
		s->cancelled = 1;
		err_set(&s->err, "%s: cancelled; nothing of it stored",
		    s->path);
	}
	return 1;
}

void
isvc_progress(const struct isvc *s, struct isvc_progress *p)
{
	const struct import_watch *w = &s->watch;

	p->rows = atomic_load_explicit(&w->rows, memory_order_relaxed);
	p->done = atomic_load_explicit(&w->done, memory_order_relaxed);
	p->total = atomic_load_explicit(&w->total, memory_order_relaxed);
	p->stored = atomic_load_explicit(&w->stored, memory_order_relaxed);
}

const char *
isvc_path(const struct isvc *s)
{
	return s->path;
}

void
isvc_cancel(struct isvc *s)
{
	/* the flag first, then the byte that wakes a reader in poll() */
	if (atomic_exchange(&s->watch.cancel, 1) == 0)
		(void)!write(s->wake[1], "x", 1);
}

int
isvc_result(const struct isvc *s, const struct import_report **rep,
    int *cancelled, struct err *err)
{
	*rep = &s->rep;
	if (cancelled != NULL)
		*cancelled = s->cancelled;
	if (s->rc < 0 && err != NULL)
		*err = s->err;
	return s->rc;
}

void
isvc_free(struct isvc *s)
{
	if (s == NULL)
		return;
	isvc_cancel(s);		/* a no-op once it is over */
	worker_join(&s->w);
	import_report_release(&s->rep);
	close(s->wake[0]);
	close(s->wake[1]);
	free(s->path);
	free(s->by);
	free(s->license);
	free(s->repository);
	free(s->prefix);
	free(s);
}
