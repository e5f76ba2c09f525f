/*
 * pty.h - run a child process on a pseudo-terminal: spawn, read, write,
 * resize and reap.  Knows nothing about terminals' screens (term.h) or
 * curses.  Called by verify.c for pane runs and by src/ui for $EDITOR.
 */
#ifndef ASSAY_PTY_H
#define ASSAY_PTY_H

#include <stddef.h>
#include <sys/types.h>

#include "base/err.h"

struct pty {
	int	 fd;		/* master, non-blocking and close-on-exec; -1 when closed */
	pid_t	 pid;		/* child, also its process group; -1 once reaped */
	int	 status;	/* wait status once reaped */
	long	 cpu_ms;	/* once reaped: its CPU time (user + system,
				   with its reaped descendants'), ms */
};

/*
 * Start argv[0] (searched in PATH) with argv on a new pty of rows x cols,
 * in its own session and process group, with TERM=xterm-256color, the
 * caller's signal mask and dispositions reset, IUTF8 set and every fd
 * above 2 closed.  cwd may be NULL.  env entries ("K=V") are added to the
 * environment; env may be NULL.  raw_output != 0 turns off output
 * processing (no \n -> \r\n), so that the bytes read are those the child
 * wrote.  Returns 0 and fills p, or -1 with err.
 */
int	pty_spawn(struct pty *p, char *const argv[], const char *cwd,
	    char *const env[], int rows, int cols, int raw_output,
	    struct err *err);

/*
 * pty_spawn() for a sandbox: the child's environment is envp alone (and
 * TERM=xterm-256color), none of the caller's, so that nothing of it
 * reaches the sandbox's processes (/proc/1/environ there is the
 * wrapper's environment); fds[i] (nfds of them, each above 2 + nfds, so
 * that moving one cannot overwrite another) becomes fd 3 + i in the
 * child, every other fd above 2 is closed.  The caller keeps and closes
 * its fds.  0 or -1 with err, as pty_spawn().
 */
int	pty_spawn_clean(struct pty *p, char *const argv[], const char *cwd,
	    char *const envp[], const int *fds, int nfds, int rows, int cols,
	    int raw_output, struct err *err);

/*
 * Read what is available into buf (size n) without blocking.  Returns the
 * byte count (> 0), 0 when nothing is ready, or -1 once every slave fd is
 * closed (EIO on Linux); the master is then closed and p->fd set to -1.
 */
ssize_t	pty_read(struct pty *p, char *buf, size_t n);

/* Write all of buf, waiting (poll) while the master is full.  0 or -1. */
int	pty_write(struct pty *p, const char *buf, size_t n);

/* Tell the child the new size (TIOCSWINSZ; the kernel sends SIGWINCH). */
void	pty_resize(struct pty *p, int rows, int cols);

/* Reap without blocking: 1 when the child has exited (status set), else 0. */
int	pty_reap(struct pty *p);

/* Send sig to the child's whole process group. */
void	pty_kill(struct pty *p, int sig);

/* Close the master, kill the group with SIGHUP then SIGKILL, reap. */
void	pty_release(struct pty *p);

#endif
