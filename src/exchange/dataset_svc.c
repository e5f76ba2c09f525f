/*
 * dataset_svc.c - the commit as a service; see dataset_svc.h.
 */
#define _GNU_SOURCE		/* pipe2 */
#include "exchange/dataset_svc.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct dsvc {
	struct store		*st;		/* borrowed */
	struct dataset_job	*job;
	pthread_t		 thread;
	int			 threaded;	/* a thread to join */
	int			 rfd, wfd;	/* the pipe: the thread writes a
						 * byte to wfd when it ends */
	atomic_int		 cancel;
	int			 wrote;		/* the thread's return */
	struct err		 werr;		/* the thread's message */
	int			 done;
	int			 rc;
	struct err		 err;
	struct dataset_result	 res;
};

/* The writing thread: touches no store; tells the pipe when it ends. */
static void *
writing_run(void *arg)
{
	struct dsvc *s = arg;
	char b = 1;

	s->wrote = dataset_job_write(s->job, &s->cancel, &s->werr);
	while (write(s->wfd, &b, 1) < 0 && errno == EINTR)
		;
	return NULL;
}

int
dsvc_new(struct dsvc **out, struct store *st, const char *repo_dir,
    const char *message, const char *reviewer, struct err *err)
{
	struct dsvc *s;
	int fds[2];

	*out = NULL;
	s = xcalloc(1, sizeof *s);
	s->st = st;
	s->rfd = s->wfd = -1;
	atomic_init(&s->cancel, 0);
	if (dataset_job_build(st, repo_dir, message, reviewer, &s->job,
	    err) < 0) {
		free(s);
		return -1;
	}
	if (pipe2(fds, O_CLOEXEC) < 0) {
		err_set(err, "pipe: %s", strerror(errno));
		dsvc_free(s);
		return -1;
	}
	s->rfd = fds[0];
	s->wfd = fds[1];
	if (pthread_create(&s->thread, NULL, writing_run, s) != 0) {
		err_set(err, "cannot start the commit's thread");
		dsvc_free(s);
		return -1;
	}
	s->threaded = 1;
	*out = s;
	return 0;
}

int
dsvc_fd(const struct dsvc *s)
{
	return s->done ? -1 : s->rfd;
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

/* Join the thread (it ended or is about to: it wrote to the pipe). */
static void
join(struct dsvc *s)
{
	if (!s->threaded)
		return;
	pthread_join(s->thread, NULL);
	s->threaded = 0;
}

int
dsvc_step(struct dsvc *s)
{
	struct pollfd p = { .fd = s->rfd, .events = POLLIN };
	char b;

	if (s->done)
		return 1;
	if (poll(&p, 1, 0) <= 0)
		return 0;
	while (read(s->rfd, &b, 1) < 0 && errno == EINTR)
		;
	join(s);
	s->done = 1;
	err_clear(&s->err);
	if (s->wrote < 0) {
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
	join(s);	/* never leave git's files half written */
	if (s->rfd >= 0)
		close(s->rfd);
	if (s->wfd >= 0)
		close(s->wfd);
	dataset_job_free(s->job);
	free(s);
}
