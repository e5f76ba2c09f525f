/*
 * worker.c - a function on a thread of its own, heard through a pipe;
 * see worker.h.
 */
#define _GNU_SOURCE		/* pipe2 */
#include "base/worker.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "base/hash.h"

static void *
worker_run(void *arg)
{
	struct worker *w = arg;
	char b = 1;

	w->rc = w->fn(w->arg);
	hash_thread_end();	/* the digest a thread keeps (hash.h) */
	while (write(w->wfd, &b, 1) < 0 && errno == EINTR)
		;
	return NULL;
}

int
worker_start(struct worker *w, int (*fn)(void *arg), void *arg,
    struct err *err)
{
	sigset_t all, old;
	int fds[2], rc;

	memset(w, 0, sizeof *w);
	w->rfd = w->wfd = -1;
	w->fn = fn;
	w->arg = arg;
	if (pipe2(fds, O_CLOEXEC) < 0)
		return err_set(err, "pipe: %s", strerror(errno));
	w->rfd = fds[0];
	w->wfd = fds[1];
	w->piped = 1;
	/* The thread takes no signal (it inherits this mask): SIGWINCH,
	 * SIGTERM and SIGHUP reach the caller's thread as before. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(&w->thread, NULL, worker_run, w);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc != 0) {
		worker_join(w);
		return err_set(err, "cannot start a thread");
	}
	w->started = 1;
	return 0;
}

int
worker_fd(const struct worker *w)
{
	return w->over || !w->piped ? -1 : w->rfd;
}

int
worker_over(struct worker *w)
{
	struct pollfd p = { .fd = w->rfd, .events = POLLIN };
	char b;

	if (w->over || !w->started)
		return 1;
	if (poll(&p, 1, 0) <= 0)
		return 0;
	while (read(w->rfd, &b, 1) < 0 && errno == EINTR)
		;
	pthread_join(w->thread, NULL);
	w->started = 0;
	w->over = 1;
	return 1;
}

void
worker_join(struct worker *w)
{
	if (w->started) {
		pthread_join(w->thread, NULL);
		w->started = 0;
		w->over = 1;
	}
	if (w->piped) {
		close(w->rfd);
		close(w->wfd);
		w->piped = 0;
	}
	w->rfd = w->wfd = -1;
}
