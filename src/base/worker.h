/*
 * worker.h - one function run on a thread of its own that says through a
 * pipe when it ends: the part the in-process services share that run
 * their work on a thread (the import, merge and commit services, ADR
 * 0055), so that a poll loop (the command's plain one, the workbench's
 * frame loop) waits on the pipe's fd with its other fds and never on the
 * work.
 */
#ifndef ASSAY_WORKER_H
#define ASSAY_WORKER_H

#include <pthread.h>

#include "base/err.h"

struct worker {
	pthread_t	  thread;
	int		  started;	/* a thread to join */
	int		  rfd, wfd;	/* the pipe: a byte on wfd at the end */
	int		  piped;	/* rfd and wfd are open */
	int		  over;		/* the end was read */
	int		(*fn)(void *arg);
	void		 *arg;
	int		  rc;		/* fn's return, once over */
};

/*
 * Run fn(arg) on a new thread, which blocks every signal (they reach the
 * caller's threads) and frees what hash_sha256() keeps per thread when fn
 * returns.  w is the caller's (zeroed or not) and
 * must stay where it is until worker_join().  0, or -1 with err (no
 * thread started, nothing to join).
 */
int	worker_start(struct worker *w, int (*fn)(void *arg), void *arg,
	    struct err *err);

/* The fd to poll for reading while fn runs; -1 once it is over. */
int	worker_fd(const struct worker *w);

/*
 * Without waiting: 1 when fn has returned (the thread is joined, w->rc
 * its value), 0 while it runs.
 */
int	worker_over(struct worker *w);

/* Wait for fn to return (if it runs) and free the pipe.  Safe to call
 * twice and on a worker never started (zeroed). */
void	worker_join(struct worker *w);

#endif
