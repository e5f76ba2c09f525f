/*
 * sandbox.c - a stage's sandbox: command line, fds, start, check; see
 * sandbox.h.
 */
#define _GNU_SOURCE
#include "exec/sandbox.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "exec/sysfilter.h"

/*
 * The whole environment of the wrappers (prlimit, setpriv, bwrap), so
 * that none of the caller's reaches the sandbox: bwrap is its PID 1.
 */
static char clean_path[] = "PATH=/usr/sbin:/usr/bin:/sbin:/bin";
static char clean_lang[] = "LANG=C.UTF-8";
static char *clean_env[] = { clean_path, clean_lang, NULL };

char *const *
sandbox_env(void)
{
	return clean_env;
}

static void
av_add(struct sandbox_argv *a, const char *s)
{
	a->v = xreallocarray(a->v, a->n + 2, sizeof *a->v);
	a->v[a->n++] = xstrdup(s);
	a->v[a->n] = NULL;
}

static void
av_addf(struct sandbox_argv *a, const char *fmt, long v)
{
	char tmp[64];

	snprintf(tmp, sizeof tmp, fmt, v);
	av_add(a, tmp);
}

/*
 * A wrapper (prlimit, setpriv, bwrap) by the caller's PATH, as execvp
 * would find it: the wrappers themselves run with clean_env's PATH.
 */
static void
av_add_tool(struct sandbox_argv *a, const char *name)
{
	const char *path = getenv("PATH");
	char *copy, *dir, *save = NULL;

	if (path == NULL || *path == '\0')
		path = "/usr/bin:/bin";
	copy = xstrdup(path);
	for (dir = strtok_r(copy, ":", &save); dir != NULL;
	    dir = strtok_r(NULL, ":", &save)) {
		char *full = xasprintf("%s/%s", *dir != '\0' ? dir : ".", name);

		if (access(full, X_OK) == 0) {
			av_add(a, full);
			free(full);
			free(copy);
			return;
		}
		free(full);
	}
	free(copy);
	av_add(a, name);
}

void
sandbox_argv_free(struct sandbox_argv *a)
{
	for (size_t i = 0; i < a->n; i++)
		free(a->v[i]);
	free(a->v);
	a->v = NULL;
	a->n = 0;
	a->opt_start = a->opt_end = 0;
}

/* Top-level system directories: bound read-only, or linked like the host. */
static void
add_system(struct sandbox_argv *a)
{
	static const char *const dirs[] = { "bin", "sbin", "lib", "lib32",
	    "lib64", "libx32" };
	char target[256];

	av_add(a, "--ro-bind");
	av_add(a, "/usr");
	av_add(a, "/usr");
	av_add(a, "--ro-bind");
	av_add(a, "/etc");
	av_add(a, "/etc");
	for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
		char path[64];
		ssize_t n;
		struct stat sb;

		snprintf(path, sizeof path, "/%s", dirs[i]);
		n = readlink(path, target, sizeof target - 1);
		if (n > 0) {
			target[n] = '\0';
			av_add(a, "--symlink");
			av_add(a, target);
			av_add(a, path);
		} else if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)) {
			av_add(a, "--ro-bind");
			av_add(a, path);
			av_add(a, path);
		}
	}
}

/*
 * The NVIDIA device nodes (/dev/nvidiactl, /dev/nvidia-uvm, /dev/nvidia0
 * ...) and /sys, read-only, which the CUDA driver library reads to find
 * the GPUs.  The driver's user-space libraries are under /usr already.
 */
static void
add_gpu(struct sandbox_argv *a)
{
	DIR *d = opendir("/dev");
	struct dirent *de;

	while (d != NULL && (de = readdir(d)) != NULL) {
		if (strncmp(de->d_name, "nvidia", 6) != 0)
			continue;
		char *path = xasprintf("/dev/%s", de->d_name);

		av_add(a, "--dev-bind");
		av_add(a, path);
		av_add(a, path);
		free(path);
	}
	if (d != NULL)
		closedir(d);
	av_add(a, "--ro-bind");
	av_add(a, "/sys");
	av_add(a, "/sys");
}

long
sandbox_cpu_s(const struct sandbox_limits *l)
{
	return l->cpu_s > 0 ? l->cpu_s : l->timeout_s + 5;
}

long long
sandbox_disk_bytes(const struct sandbox_limits *l)
{
	return (long long)(l->disk_mb > 0 ? l->disk_mb : 256) << 20;
}

/*
 * A stage that may use the lasting compiler cache (c->cache) gets it
 * bound at /ccache, and as root runs with the cache's group
 * (SANDBOX_CACHE_GID); no other stage sees it.
 */
void
sandbox_argv(const struct sandbox_cmd *c, struct sandbox_argv *a)
{
	const struct sandbox_limits *l = &c->lim;
	int cache = c->cache != NULL;
	/* A GPU is there when the kernel driver is loaded: its /proc entry
	 * exists.  /dev/nvidiactl alone is not enough: installing CUDA's
	 * user-space libraries can create the node with no driver. */
	int gpu = c->gpu && access("/proc/driver/nvidia/version", F_OK) == 0 &&
	    access("/dev/nvidiactl", F_OK) == 0;
	const char *venv = c->venv, *dir = c->dir;

	memset(a, 0, sizeof *a);
	av_add_tool(a, "prlimit");
	av_addf(a, "--cpu=%ld", sandbox_cpu_s(l));
	if (gpu)
		av_add(a, "--as=unlimited");
	else
		av_addf(a, "--as=%ld", (l->mem_mb > 0 ? l->mem_mb : 4096) << 20);
	av_addf(a, "--fsize=%ld", (l->fsize_mb > 0 ? l->fsize_mb : 64) << 20);
	av_addf(a, "--nproc=%ld", l->nproc > 0 ? l->nproc : 256);
	av_add(a, "--");
	if (!c->unconfined) {
		if (geteuid() == 0) {
			av_add_tool(a, "setpriv");
			av_addf(a, "--reuid=%ld", (long)c->uid);
			av_addf(a, "--regid=%ld", cache ? (long)SANDBOX_CACHE_GID :
			    (long)c->uid);
			av_add(a, "--clear-groups");
			av_add(a, "--");
		}
		av_add_tool(a, "bwrap");
		a->opt_start = a->n;
		av_add(a, "--unshare-all");
		/* No user namespace inside: with --unshare-user (which
		 * --unshare-all only tries) bwrap can forbid more. */
		av_add(a, "--unshare-user");
		av_add(a, "--disable-userns");
		av_add(a, "--die-with-parent");
		/* A session of its own, without a controlling terminal: on
		 * the workbench's pty any process of the stage could open
		 * /dev/tty and write unmarked lines at the start of the log,
		 * or push input with TIOCSTI (issue 22, "Known gaps"). */
		av_add(a, "--new-session");
		add_system(a);
		if (!c->no_proc) {
			av_add(a, "--proc");
			av_add(a, "/proc");
		}
		av_add(a, "--dev");
		av_add(a, "/dev");
		av_add(a, "--bind");
		av_add(a, dir);
		av_add(a, "/work");
		/* Task data files: the code under test reads, never writes
		 * them (sandbox_cmd.ro). */
		for (size_t i = 0; c->ro != NULL && c->ro[i] != NULL; i++) {
			char *src = xasprintf("%s/%s", dir, c->ro[i]);
			char *dst = xasprintf("/work/%s", c->ro[i]);

			av_add(a, "--ro-bind");
			av_add(a, src);
			av_add(a, dst);
			free(src);
			free(dst);
		}
		/* Not a tmpfs: what is written there counts against the
		 * job's disk cap, and hitting it is seen (resource-limit). */
		{
			char *tmp = xasprintf("%s/" SANDBOX_TMP, c->workdir);

			av_add(a, "--bind");
			av_add(a, tmp);
			av_add(a, "/tmp");
			free(tmp);
		}
		if (cache) {
			av_add(a, "--bind");
			av_add(a, c->cache);
			av_add(a, "/ccache");
		}
		if (gpu)
			add_gpu(a);
		if (venv != NULL) {
			av_add(a, "--ro-bind");
			av_add(a, venv);
			av_add(a, c->venv_mount);
		}
		/* bwrap's root and /dev are tmpfs the sandbox's uid owns:
		 * read-only once set up, so that nothing unbounded is
		 * writable (/dev/shm included). */
		av_add(a, "--remount-ro");
		av_add(a, "/dev");
		av_add(a, "--remount-ro");
		av_add(a, "/");
		av_add(a, "--chdir");
		av_add(a, "/work");
		/* Nothing of the caller's environment goes in. */
		av_add(a, "--clearenv");
		av_add(a, "--setenv");
		av_add(a, "PATH");
		av_add(a, "/usr/bin:/bin");
		av_add(a, "--setenv");
		av_add(a, "HOME");
		av_add(a, "/work");
		av_add(a, "--setenv");
		av_add(a, "TMPDIR");
		av_add(a, "/tmp");
		av_add(a, "--setenv");
		av_add(a, "LANG");
		av_add(a, "C.UTF-8");
		av_add(a, "--setenv");
		av_add(a, "TERM");
		av_add(a, "xterm-256color");
		if (cache) {
			av_add(a, "--setenv");
			av_add(a, "CCACHE_DIR");
			av_add(a, "/ccache");
			/* Group-writable: as root each job's uid differs. */
			av_add(a, "--setenv");
			av_add(a, "CCACHE_UMASK");
			av_add(a, "007");
		}
		a->opt_end = a->n;
		av_add(a, "--");
	}
	for (size_t i = 0; c->argv[i] != NULL; i++) {
		const char *arg = c->argv[i];
		size_t ml = venv != NULL ? strlen(c->venv_mount) : 0;

		/* Unconfined, the venv is where it is. */
		if (c->unconfined && venv != NULL &&
		    strncmp(arg, c->venv_mount, ml) == 0 && arg[ml] == '/') {
			char *p = xasprintf("%s%s", venv, arg + ml);

			av_add(a, p);
			free(p);
		} else
			av_add(a, arg);
	}
}

/*
 * A pipe holding data, its write end closed: the read end, moved to fd 10
 * or above (close-on-exec), or -1 with err.  data must fit the pipe.
 */
static int
data_pipe(const void *data, size_t len, struct err *err)
{
	int fds[2], fd;

	if (pipe2(fds, O_CLOEXEC) < 0)
		return err_set(err, "pipe: %s", strerror(errno));
	if (len > 65536 && fcntl(fds[1], F_SETPIPE_SZ, (int)len) < 0) {
		close(fds[0]);
		close(fds[1]);
		return err_set(err, "pipe: %zu bytes of sandbox options", len);
	}
	if (len > 0 && write(fds[1], data, len) != (ssize_t)len) {
		err_set(err, "pipe: %s", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	close(fds[1]);
	fd = fcntl(fds[0], F_DUPFD_CLOEXEC, 10);
	close(fds[0]);
	if (fd < 0)
		return err_set(err, "fcntl: %s", strerror(errno));
	return fd;
}

void
sandbox_io_release(struct sandbox_io *io)
{
	for (int i = 0; i < 4; i++)
		if (io->fds[i] >= 0)
			close(io->fds[i]);
	io->fds[0] = io->fds[1] = io->fds[2] = io->fds[3] = -1;
	io->nfds = 3;
	sandbox_argv_free(&io->exec);
}

int
sandbox_io_input(struct sandbox_io *io, int fd, struct err *err)
{
	int dup = fcntl(fd, F_DUPFD_CLOEXEC, 10);

	if (dup < 0)
		return err_set(err, "fcntl: %s", strerror(errno));
	if (io->fds[3] >= 0)
		close(io->fds[3]);
	io->fds[3] = dup;
	io->nfds = 4;
	return 0;
}

int
sandbox_io_make(const struct sandbox_argv *a, const char *secret,
    struct sandbox_io *io, struct err *err)
{
	struct buf opts = BUF_INIT;
	int rc = -1;

	memset(io, 0, sizeof *io);
	io->fds[0] = io->fds[1] = io->fds[2] = io->fds[3] = -1;
	io->nfds = 3;
	for (size_t i = a->opt_start; i < a->opt_end; i++)
		buf_add(&opts, a->v[i], strlen(a->v[i]) + 1);
	io->fds[0] = data_pipe(opts.p, opts.len, err);
	if (io->fds[0] < 0)
		goto out;
	if (a->opt_end != 0) {
		const void *prog;
		size_t len;

		if (sysfilter_bpf(&prog, &len, err) < 0)
			goto out;
		io->fds[1] = data_pipe(prog, len, err);
	} else
		io->fds[1] = data_pipe("", 0, err);
	if (io->fds[1] < 0)
		goto out;
	if (secret != NULL) {
		char *line = xasprintf("%s\n", secret);

		io->fds[2] = data_pipe(line, strlen(line), err);
		free(line);
	} else
		io->fds[2] = data_pipe("", 0, err);
	if (io->fds[2] < 0)
		goto out;
	if (a->opt_end == 0) {
		for (size_t i = 0; i < a->n; i++)
			av_add(&io->exec, a->v[i]);
	} else {
		for (size_t i = 0; i < a->opt_start; i++)
			av_add(&io->exec, a->v[i]);
		av_add(&io->exec, "--args");
		av_add(&io->exec, "3");
		av_add(&io->exec, "--seccomp");
		av_add(&io->exec, "4");
		for (size_t i = a->opt_end; i < a->n; i++)
			av_add(&io->exec, a->v[i]);
	}
	rc = 0;
out:
	buf_release(&opts);
	if (rc < 0)
		sandbox_io_release(io);
	return rc;
}

/* Shell-quote s onto b when it needs it. */
void
sandbox_quote(struct buf *b, const char *s)
{
	if (*s != '\0' && strspn(s, "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+=/.,:@%") == strlen(s)) {
		buf_adds(b, s);
		return;
	}
	buf_add_quoted(b, s);
}

/*
 * Run "bwrap ... true" as the stages would (as root, under setpriv); with
 * strict, also --unshare-user --disable-userns and the seccomp filter on
 * fd 3.  The wait status, or -1 with err.
 */
static int
sandbox_try(int strict, struct err *err)
{
	char *const argv_root[] = { "setpriv", "--reuid=65534", "--regid=65534",
	    "--clear-groups", "--", "bwrap", "--unshare-all", "--ro-bind",
	    "/usr", "/usr", "--symlink", "usr/bin", "/bin", "--symlink",
	    "usr/lib", "/lib", "--symlink", "usr/lib64", "/lib64", "--",
	    "true", NULL };
	char *const argv_strict[] = { "setpriv", "--reuid=65534",
	    "--regid=65534", "--clear-groups", "--", "bwrap", "--unshare-all",
	    "--unshare-user", "--disable-userns", "--seccomp", "3",
	    "--ro-bind", "/usr", "/usr", "--symlink", "usr/bin", "/bin",
	    "--symlink", "usr/lib", "/lib", "--symlink", "usr/lib64", "/lib64",
	    "--", "true", NULL };
	char *const *argv = strict ? argv_strict : argv_root;
	int status, null, fd = -1;
	pid_t pid;

	if (geteuid() != 0)
		argv += 5;
	if (strict) {
		const void *prog;
		size_t len;

		if (sysfilter_bpf(&prog, &len, err) < 0)
			return -1;
		fd = data_pipe(prog, len, err);
		if (fd < 0)
			return -1;
	}
	pid = fork();
	if (pid < 0) {
		if (fd >= 0)
			close(fd);
		return err_set(err, "fork: %s", strerror(errno));
	}
	if (pid == 0) {
		sigset_t none;

		sigemptyset(&none);	/* not the starting thread's mask */
		sigprocmask(SIG_SETMASK, &none, NULL);
		null = open("/dev/null", O_RDWR);
		dup2(null, 0);
		dup2(null, 1);
		dup2(null, 2);
		if (fd >= 0)
			dup2(fd, 3);
		execvp(argv[0], argv);
		_exit(127);
	}
	if (fd >= 0)
		close(fd);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return status;
}

int
sandbox_check(struct err *err)
{
	int status = sandbox_try(1, err);

	if (status == -1)
		return -1;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		return err_set(err, "the sandbox cannot start: bwrap is not"
		    " installed (Debian package bubblewrap); --no-sandbox runs"
		    " candidates unconfined");
	/* Without the filter and --disable-userns it starts: this bwrap
	 * or kernel lacks them. */
	status = sandbox_try(0, err);
	if (status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return err_set(err, "the sandbox cannot start: bwrap refused"
		    " --disable-userns or the seccomp filter (bubblewrap 0.8 or"
		    " later and a kernel with seccomp are needed);"
		    " --no-sandbox runs candidates unconfined");
	return err_set(err, "the sandbox cannot start: bwrap failed (are"
	    " unprivileged user namespaces disabled? see"
	    " /proc/sys/kernel/unprivileged_userns_clone); --no-sandbox runs"
	    " candidates unconfined");
}

int
sandbox_spawn_pipe(const char *dir, const struct sandbox_io *io, pid_t *pid_out,
    int *fd, struct err *err)
{
	char *const *argv = io->exec.v;
	int fds[2];
	sigset_t all, old;
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC) < 0)
		return err_set(err, "pipe: %s", strerror(errno));
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	pid = fork();
	if (pid < 0) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		close(fds[0]);
		close(fds[1]);
		return err_set(err, "fork: %s", strerror(errno));
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY);

		setsid();
		for (int s = 1; s < NSIG; s++)
			signal(s, SIG_DFL);
		/* none blocked, whichever thread started it (the workbench's
		 * :verify thread blocks them all for itself) */
		sigemptyset(&all);
		sigprocmask(SIG_SETMASK, &all, NULL);
		dup2(null, 0);
		dup2(fds[1], 1);
		dup2(fds[1], 2);
		for (int i = 0; i < io->nfds; i++)
			dup2(io->fds[i], 3 + i);
		closefrom(3 + io->nfds);
		if (chdir(dir) < 0)
			_exit(126);
		environ = clean_env;
		execvp(argv[0], argv);
		dprintf(2, "assay: cannot run %s: %s\n", argv[0],
		    strerror(errno));
		_exit(127);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	close(fds[1]);
	fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK);
	*pid_out = pid;
	*fd = fds[0];
	return 0;
}
