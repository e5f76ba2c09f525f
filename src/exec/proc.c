/*
 * proc.c - a stage's process on a pty or a pipe (proc.h).
 */
#include "exec/proc.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

void
proc_init(struct proc *p, int use_pty)
{
	memset(p, 0, sizeof *p);
	p->use_pty = use_pty;
	p->pid = -1;
	p->fd = -1;
	p->pty.fd = -1;
	p->pty.pid = -1;
}

int
proc_start(struct proc *p, const char *dir, const struct sandbox_io *io,
    int rows, int cols, struct err *err)
{
	if (p->use_pty)
		return pty_spawn_clean(&p->pty, io->exec.v, dir, sandbox_env(),
		    io->fds, io->nfds, rows, cols, 1, err);
	return sandbox_spawn_pipe(dir, io, &p->pid, &p->fd, err);
}

int
proc_fd(const struct proc *p)
{
	return p->use_pty ? p->pty.fd : p->fd;
}

ssize_t
proc_read(struct proc *p, char *buf, size_t n)
{
	ssize_t k;

	if (p->use_pty) {
		if (p->pty.fd < 0)
			return -1;
		k = pty_read(&p->pty, buf, n);
		return k < 0 ? -1 : k;
	}
	if (p->fd < 0)
		return -1;
	do
		k = read(p->fd, buf, n);
	while (k < 0 && errno == EINTR);
	if (k < 0 && errno == EAGAIN)
		return 0;
	if (k <= 0) {
		close(p->fd);
		p->fd = -1;
		return -1;
	}
	return k;
}

int
proc_reap(struct proc *p, int *code)
{
	int status;

	if (p->use_pty) {
		if (p->pty.pid < 0)
			return 1;
		if (!pty_reap(&p->pty))
			return 0;
		status = p->pty.status;
		p->cpu_ms = p->pty.cpu_ms;
	} else {
		struct rusage ru;
		pid_t r;

		if (p->pid < 0)
			return 1;
		memset(&ru, 0, sizeof ru);
		r = wait4(p->pid, &status, WNOHANG, &ru);
		if (r == 0)
			return 0;
		if (r < 0)
			status = 0;
		p->pid = -1;
		p->cpu_ms = (int64_t)(ru.ru_utime.tv_sec +
		    ru.ru_stime.tv_sec) * 1000 + (ru.ru_utime.tv_usec +
		    ru.ru_stime.tv_usec) / 1000;
	}
	if (WIFEXITED(status))
		*code = WEXITSTATUS(status);
	else if (WIFSIGNALED(status))
		*code = 128 + WTERMSIG(status);
	else
		*code = -1;
	return 1;
}

void
proc_kill(struct proc *p)
{
	if (p->use_pty) {
		if (p->pty.pid > 0)
			pty_kill(&p->pty, SIGKILL);
	} else if (p->pid > 0) {
		kill(-p->pid, SIGKILL);
		kill(p->pid, SIGKILL);
	}
}

void
proc_close(struct proc *p)
{
	if (p->use_pty)
		pty_release(&p->pty);
	else if (p->fd >= 0) {
		close(p->fd);
		p->fd = -1;
	}
}

void
proc_resize(struct proc *p, int rows, int cols)
{
	if (p->use_pty && p->pty.fd >= 0)
		pty_resize(&p->pty, rows, cols);
}
