/*
 * pty.c - run a child on a pseudo-terminal; see pty.h.  Spawns the child
 * in its own session and process group with a clean signal state, and
 * gives the caller a non-blocking master to read, write, resize and reap.
 * It knows nothing about screens (term.c) or curses, never prints and
 * never exits; only the child, between fork and exec, writes to the pty
 * (to say why an exec failed).  Called by verify.c and src/ui.
 */
/*
 * posix_openpt, grantpt, unlockpt, ptsname: X/Open, not plain POSIX.
 * The Makefile may already pass -D_XOPEN_SOURCE=600 (from ncursesw).
 */
#ifndef _XOPEN_SOURCE
#define _XOPEN_SOURCE 600
#endif
#include "exec/pty.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "base/err.h"

extern char **environ;

/* How long pty_write waits for a child that reads nothing at all. */
#define PTY_WRITE_STALL_MS	5000
/* How long pty_release lets the group act on SIGHUP before SIGKILL. */
#define PTY_HUP_GRACE_MS	100

/* Length of the "K" in "K=V", or of the whole string without '='. */
static size_t
pty_env_keylen(const char *kv)
{
	const char *eq = strchr(kv, '=');

	return eq != NULL ? (size_t)(eq - kv) : strlen(kv);
}

/* Does env (NULL-terminated, may be NULL) set the key of kv? */
static int
pty_env_has(char *const env[], const char *kv)
{
	size_t kl = pty_env_keylen(kv);
	size_t i;

	if (env == NULL)
		return 0;
	for (i = 0; env[i] != NULL; i++) {
		if (pty_env_keylen(env[i]) == kl &&
		    strncmp(env[i], kv, kl) == 0)
			return 1;
	}
	return 0;
}

/*
 * Why: the child's environment is built before fork, because allocating
 * between fork and exec is unsafe when other threads hold malloc's lock.
 * An entry of env without '=' ("K") removes K.  New array, caller frees
 * the array (the strings are borrowed).
 */
static char **
pty_env_build(char *const env[], int clean)
{
	static char term[] = "TERM=xterm-256color";
	static char *const drop[] = { "TERM=", "COLUMNS=", "LINES=", NULL };
	size_t n = 0, i, k = 0;
	char **out;

	char *const *base = clean ? NULL : environ;

	for (i = 0; base != NULL && base[i] != NULL; i++)
		n++;
	for (i = 0; env != NULL && env[i] != NULL; i++)
		n++;
	out = xcalloc(n + 2, sizeof *out);
	for (i = 0; base != NULL && base[i] != NULL; i++) {
		if (pty_env_has(drop, base[i]) ||
		    pty_env_has(env, base[i]))
			continue;
		out[k++] = base[i];
	}
	if (!pty_env_has(env, term))
		out[k++] = term;
	for (i = 0; env != NULL && env[i] != NULL; i++) {
		if (strchr(env[i], '=') != NULL && !pty_env_has(env + i + 1,
		    env[i]))
			out[k++] = env[i];	/* the last duplicate wins */
	}
	out[k] = NULL;
	return out;
}

/* Write a string to fd, ignoring errors: the child's last words. */
static void
pty_child_say(int fd, const char *s)
{
	size_t len = strlen(s);

	while (len > 0) {
		ssize_t n = write(fd, s, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		s += n;
		len -= (size_t)n;
	}
}

/* Print "assay: cannot WHAT ARG: REASON" on the pty and exit 127. */
static void
pty_child_fail(const char *what, const char *arg, int errnum)
{
	pty_child_say(STDERR_FILENO, "assay: cannot ");
	pty_child_say(STDERR_FILENO, what);
	pty_child_say(STDERR_FILENO, " ");
	pty_child_say(STDERR_FILENO, arg);
	pty_child_say(STDERR_FILENO, ": ");
	pty_child_say(STDERR_FILENO, strerror(errnum));
	pty_child_say(STDERR_FILENO, "\n");	/* OPOST adds the \r */
	_exit(127);
}

/* The child side of pty_spawn: never returns. */
static void
pty_child(int slave, char *const argv[], const char *cwd, char **envp,
    const int *fds, int nfds, const sigset_t *mask)
{
	struct sigaction sa;
	int sig;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = SIG_DFL;
	sigemptyset(&sa.sa_mask);
	for (sig = 1; sig < NSIG; sig++)
		(void)sigaction(sig, &sa, NULL);	/* EINVAL: fine */

	if (setsid() < 0)
		_exit(127);
	if (ioctl(slave, TIOCSCTTY, 0) < 0)
		_exit(127);
	if (dup2(slave, STDIN_FILENO) < 0 || dup2(slave, STDOUT_FILENO) < 0 ||
	    dup2(slave, STDERR_FILENO) < 0)
		_exit(127);
	/* The fds asked for become 3, 4 ...; callers made them >= 10 so
	 * that no dup2 overwrites one not yet moved. */
	for (int i = 0; i < nfds; i++)
		if (dup2(fds[i], STDERR_FILENO + 1 + i) < 0)
			_exit(127);
	closefrom(STDERR_FILENO + 1 + nfds);	/* the master and slave too */
	sigprocmask(SIG_SETMASK, mask, NULL);

	if (cwd != NULL && chdir(cwd) < 0)
		pty_child_fail("change to", cwd, errno);
	environ = envp;
	execvp(argv[0], argv);
	pty_child_fail("run", argv[0], errno);
}

/*
 * Open a master and its slave, both close-on-exec.  Why not openpty():
 * <pty.h> is shadowed by our own pty.h on the include path, and
 * TIOCGPTPEER opens the slave without a racy ptsname() lookup.
 */
static int
pty_open(int *master, int *slave, struct err *err)
{
	const char *name;

	*master = posix_openpt(O_RDWR | O_NOCTTY);
	if (*master < 0)
		return err_set(err, "pty: posix_openpt: %s", strerror(errno));
	if (fcntl(*master, F_SETFD, FD_CLOEXEC) < 0 || grantpt(*master) < 0 ||
	    unlockpt(*master) < 0)
		return err_set(err, "pty: master: %s", strerror(errno));
#ifdef TIOCGPTPEER
	*slave = ioctl(*master, TIOCGPTPEER, O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (*slave >= 0)
		return 0;
#endif
	name = ptsname(*master);
	if (name == NULL)
		return err_set(err, "pty: ptsname: %s", strerror(errno));
	*slave = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (*slave < 0)
		return err_set(err, "pty: open %s: %s", name, strerror(errno));
	return 0;
}

static int
pty_spawn_common(struct pty *p, char *const argv[], const char *cwd,
    char *const env[], int clean, const int *fds, int nfds, int rows,
    int cols, int raw_output, struct err *err)
{
	struct winsize ws;
	struct termios tio;
	sigset_t all, old, empty;
	char **envp = NULL;
	int master = -1, slave = -1, rc = -1, fl;
	pid_t pid;

	p->fd = -1;
	p->pid = -1;
	p->status = 0;
	if (argv == NULL || argv[0] == NULL || argv[0][0] == '\0')
		return err_set(err, "pty: no program to run");

	memset(&ws, 0, sizeof ws);
	ws.ws_row = (unsigned short)(rows < 1 ? 1 : rows > USHRT_MAX ?
	    USHRT_MAX : rows);
	ws.ws_col = (unsigned short)(cols < 1 ? 1 : cols > USHRT_MAX ?
	    USHRT_MAX : cols);
	if (pty_open(&master, &slave, err) < 0)
		goto out;
	if (ioctl(slave, TIOCSWINSZ, &ws) < 0) {
		err_set(err, "pty: TIOCSWINSZ: %s", strerror(errno));
		goto out;
	}
	fl = fcntl(master, F_GETFL);
	if (fl < 0 || fcntl(master, F_SETFL, fl | O_NONBLOCK) < 0) {
		err_set(err, "pty: fcntl: %s", strerror(errno));
		goto out;
	}

	/* Set the slave's modes before the child can write anything. */
	if (tcgetattr(slave, &tio) < 0) {
		err_set(err, "pty: tcgetattr: %s", strerror(errno));
		goto out;
	}
	tio.c_iflag |= IUTF8;		/* cooked-mode erase knows UTF-8 */
	if (raw_output)
		tio.c_oflag &= ~OPOST;	/* bytes read == bytes written */
	if (tcsetattr(slave, TCSANOW, &tio) < 0) {
		err_set(err, "pty: tcsetattr: %s", strerror(errno));
		goto out;
	}

	envp = pty_env_build(env, clean);
	sigemptyset(&empty);
	sigfillset(&all);
	/* Why: no handler of ours may run in the child before it resets. */
	sigprocmask(SIG_BLOCK, &all, &old);
	pid = fork();
	if (pid == 0)
		pty_child(slave, argv, cwd, envp, fds, nfds, &empty);
	if (pid < 0) {
		err_set(err, "fork: %s", strerror(errno));
		sigprocmask(SIG_SETMASK, &old, NULL);
		goto out;
	}
	sigprocmask(SIG_SETMASK, &old, NULL);

	p->fd = master;
	p->pid = pid;
	master = -1;
	rc = 0;
out:
	free(envp);
	if (slave >= 0)
		close(slave);
	if (master >= 0)
		close(master);
	return rc;
}

int
pty_spawn(struct pty *p, char *const argv[], const char *cwd,
    char *const env[], int rows, int cols, int raw_output, struct err *err)
{
	return pty_spawn_common(p, argv, cwd, env, 0, NULL, 0, rows, cols,
	    raw_output, err);
}

int
pty_spawn_clean(struct pty *p, char *const argv[], const char *cwd,
    char *const envp[], const int *fds, int nfds, int rows, int cols,
    int raw_output, struct err *err)
{
	for (int i = 0; i < nfds; i++)
		if (fds[i] <= STDERR_FILENO + nfds)
			return err_set(err, "pty: fd %d would be overwritten",
			    fds[i]);
	return pty_spawn_common(p, argv, cwd, envp, 1, fds, nfds, rows, cols,
	    raw_output, err);
}

static void
pty_close(struct pty *p)
{
	if (p->fd >= 0)
		close(p->fd);
	p->fd = -1;
}

ssize_t
pty_read(struct pty *p, char *buf, size_t n)
{
	ssize_t got;

	if (p->fd < 0)
		return -1;
	if (n == 0)
		return 0;
	for (;;) {
		got = read(p->fd, buf, n);
		if (got > 0)
			return got;
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return 0;
		break;
	}
	/* EIO (Linux) or 0: every slave fd is closed. */
	pty_close(p);
	return -1;
}

static long
pty_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * Gives up (-1, errno ETIMEDOUT) when the master stays full for
 * PTY_WRITE_STALL_MS, so that a child that stopped reading cannot hang
 * the UI for ever.
 */
int
pty_write(struct pty *p, const char *buf, size_t n)
{
	long since = -1;

	while (n > 0) {
		struct pollfd pfd;
		ssize_t w;
		long left;

		if (p->fd < 0) {
			errno = EBADF;
			return -1;
		}
		w = write(p->fd, buf, n);
		if (w > 0) {
			buf += w;
			n -= (size_t)w;
			since = -1;
			continue;
		}
		if (w < 0 && errno == EINTR)
			continue;
		if (w == 0 || (errno != EAGAIN && errno != EWOULDBLOCK))
			return -1;
		if (since < 0)
			since = pty_now_ms();
		left = PTY_WRITE_STALL_MS - (pty_now_ms() - since);
		if (left <= 0) {
			errno = ETIMEDOUT;
			return -1;
		}
		pfd.fd = p->fd;
		pfd.events = POLLOUT;
		pfd.revents = 0;
		if (poll(&pfd, 1, (int)left) < 0 && errno != EINTR)
			return -1;
		if (pfd.revents & (POLLERR | POLLNVAL))
			return -1;
	}
	return 0;
}

void
pty_resize(struct pty *p, int rows, int cols)
{
	struct winsize ws;

	if (p->fd < 0)
		return;
	memset(&ws, 0, sizeof ws);
	ws.ws_row = (unsigned short)(rows < 1 ? 1 : rows > USHRT_MAX ?
	    USHRT_MAX : rows);
	ws.ws_col = (unsigned short)(cols < 1 ? 1 : cols > USHRT_MAX ?
	    USHRT_MAX : cols);
	(void)ioctl(p->fd, TIOCSWINSZ, &ws);
}

/* A child reaped elsewhere (ECHILD) counts as exited with status 0. */
int
pty_reap(struct pty *p)
{
	pid_t r;
	int st;
	struct rusage ru;

	if (p->pid <= 0)
		return 1;

	memset(&ru, 0, sizeof ru);
	for (;;) {
		r = wait4(p->pid, &st, WNOHANG, &ru);
		if (r < 0 && errno == EINTR)
			continue;
		break;
	}
	if (r == 0)
		return 0;
	p->status = r == p->pid ? st : 0;
	p->cpu_ms = (long)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000 +
	    (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1000;
	p->pid = -1;
	return 1;
}

void
pty_kill(struct pty *p, int sig)
{
	if (p->pid <= 1)	/* never kill(-1) or kill(0) */
		return;
	if (kill(-p->pid, sig) < 0)
		(void)kill(p->pid, sig);
}

/*
 * Why the leader is only reaped after SIGKILL: while it is unreaped its
 * process group id cannot be reused, so the SIGKILL cannot hit strangers.
 * A zeroed struct pty (pid 0) was never spawned and is left alone.
 */
void
pty_release(struct pty *p)
{
	siginfo_t si;
	long start;
	int st;

	if (p == NULL || p->pid == 0)
		return;
	pty_close(p);
	if (p->pid < 0)
		return;
	pty_kill(p, SIGHUP);
	pty_kill(p, SIGCONT);		/* a stopped group cannot hang up */
	start = pty_now_ms();
	for (;;) {
		memset(&si, 0, sizeof si);
		if (waitid(P_PID, (id_t)p->pid, &si,
		    WEXITED | WNOHANG | WNOWAIT) < 0 && errno != EINTR)
			break;
		if (si.si_pid != 0 || pty_now_ms() - start >= PTY_HUP_GRACE_MS)
			break;
		(void)poll(NULL, 0, 5);
	}
	pty_kill(p, SIGKILL);
	while (waitpid(p->pid, &st, 0) < 0) {
		if (errno != EINTR) {
			st = 0;
			break;
		}
	}
	p->status = st;
	p->pid = -1;
}
