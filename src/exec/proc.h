/*
 * proc.h - a stage's process, on a pseudo-terminal (the workbench's live
 * run: the toolchain sees a terminal and its colours) or on a pipe
 * (headless), behind one interface: start it from a sandbox's command
 * (sandbox.h), read its output without blocking, reap it with its CPU
 * time, kill its process group, resize its terminal.  The two kinds
 * differ in where the bytes come from and in how a child is reaped;
 * verify.c used to spell out both at each step.
 *
 * Calls: pty.h, sandbox.h.  Called by: src/verify/verify.c.
 */
#ifndef ASSAY_PROC_H
#define ASSAY_PROC_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/err.h"
#include "exec/pty.h"
#include "exec/sandbox.h"

struct proc {
	int		 use_pty;
	struct pty	 pty;		/* use_pty: the child on its pty */
	pid_t		 pid;		/* pipe: the child (its process
					 * group too), -1 once reaped */
	int		 fd;		/* pipe: its output, non-blocking,
					 * -1 once closed */
	int64_t		 cpu_ms;	/* once reaped: CPU time (user +
					 * system, with its reaped
					 * descendants'), ms */
};

/* An empty process of the kind (use_pty 1: a pty of rows x cols). */
void	proc_init(struct proc *p, int use_pty);

/*
 * Start io's command (sandbox_io_make) in dir, in a session and process
 * group of its own, with sandbox_env() as its whole environment and io's
 * fds as 3, 4 and 5 (and 6, an input: sandbox_io_input()): on a pty of
 * rows x cols (raw output) or with stdout and stderr on a pipe and stdin
 * /dev/null.  0 or -1 with err.
 */
int	proc_start(struct proc *p, const char *dir, const struct sandbox_io *io,
	    int rows, int cols, struct err *err);

/* The fd to poll for output, -1 when it is closed. */
int	proc_fd(const struct proc *p);

/*
 * Read what the process wrote, up to n bytes, without blocking: the
 * count (> 0), 0 when nothing is there now, -1 at the end of its output
 * (the pipe is closed then).
 */
ssize_t	proc_read(struct proc *p, char *buf, size_t n);

/*
 * Reap it without blocking: 1 when it has ended, with *code its exit
 * status, 128 + the signal that killed it, or -1, and p->cpu_ms set; 0
 * while it runs.  1 at once when it was reaped before (*code untouched).
 */
int	proc_reap(struct proc *p, int *code);

/* SIGKILL to its whole process group (and itself). */
void	proc_kill(struct proc *p);

/* Close its output (pty or pipe); after it ended. */
void	proc_close(struct proc *p);

/* Tell a pty child its new size; nothing for a pipe. */
void	proc_resize(struct proc *p, int rows, int cols);

#endif
