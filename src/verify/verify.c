/*
 * verify.c - candidate runs: work directory, sandbox, limits, processes,
 * output capture and the hand-over to the env's judge; see verify.h.
 *
 * Every stage is one command line built here:
 *
 *   prlimit --cpu=S --as=B --fsize=B --nproc=N -- \
 *     [setpriv --reuid=UID --regid=UID --clear-groups --] \
 *     bwrap --unshare-all --die-with-parent --ro-bind /usr /usr ... \
 *       --bind WORKDIR /work --bind WORKDIR/.assay-tmp /tmp \
 *       --remount-ro /dev --remount-ro / --chdir /work -- TOOL ARGS
 *
 * so that the limits hold for everything the tool starts, root drops to
 * an unprivileged uid before the sandbox (RLIMIT_NPROC is not enforced
 * for root), and the same text reproduces the run by hand.  The child is
 * started in its own session; the wall clock and the output cap kill the
 * whole process group.
 *
 * What runs is not quite that text (docs/security.md, ADR 0006): the
 * wrappers start with an environment of PATH alone, never the caller's
 * (bubblewrap is PID 1 of the sandbox, and /proc/1/environ there is its
 * environment), and bwrap's own options, which name host paths, go
 * through a pipe (--args 3), so that /proc/1/cmdline shows only
 * "bwrap --args 3 ... -- TOOL ARGS".  A stage's secret goes through
 * another pipe (ENV_NONCE_FD), never a command line.  bwrap loads a
 * seccomp filter from fd 4 (--seccomp 4, sysfilter.h) and forbids new
 * user namespaces (--disable-userns).  The only writable
 * places are /work and /tmp, both in the work directory, whose size is
 * the job's disk cap; / and /dev are read-only (no /dev/shm).
 */
#define _GNU_SOURCE
#include "verify/verify.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <ftw.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "envs/env.h"
#include "base/buf.h"
#include "base/hash.h"
#include "verify/pipeline.h"
#include "exec/pty.h"
#include "store/store.h"
#include "exec/sysfilter.h"
#include "verify/triage.h"

/*
 * One env of the job: the only one, or a member of a pipeline
 * (pipeline.h), which runs in a subdirectory of the work directory named
 * after it, on a copy of the task with its own env_params.
 */
struct verify_member {
	const struct env_ops	*env;
	struct task		 task;		/* env and env_params its own */
	struct env_plan		 plan;
	char			*dir;		/* its work directory */
	char			 sub[PIPELINE_NAME];	/* "" or its name */
	struct env_stage_result	 res[ENV_MAX_STAGES];
	size_t			 stage_start[ENV_MAX_STAGES];
	size_t			 stage_end[ENV_MAX_STAGES];
	size_t			 nran;		/* stages started */
	int			 killed;	/* its last stage died of a SIGKILL
						   none of ours sent */
};


struct verify_job {
	struct verify_opts	 o;
	const char		*env_name;	/* task.env: one env or "a+b" */
	struct task		 task;
	struct candidate	 cand;
	struct verify_member	 m[PIPELINE_MAX];
	size_t			 nm;
	char			*workdir;
	char			 toolchain[ERR_MSG_MAX];
	int			 use_pty, rows, cols;

	size_t			 mi;		/* current member */
	size_t			 stage;		/* its current stage */
	pid_t			 pid;		/* pipe child, -1 when none */
	int			 fd;		/* pipe read end, -1 when none */
	struct pty		 pty;
	int			 running;
	struct buf		 log;		/* merged, capped */
	size_t			 live_off;	/* log bytes shown live so far */
	struct buf		 command;	/* every stage's command line */
	enum env_stop		 stop;
	int			 done;
	int64_t			 t0, deadline;	/* monotonic ms */
	int64_t			 started;	/* unix seconds */
	int			 kept;		/* the work directory stays */
	int64_t			 disk_check;	/* next size check, monotonic ms */
	uid_t			 uid;		/* the job's own uid, as root */
	int			 retried;	/* a stage the sandbox failed to start */
	int64_t			 stage_cpu_ms;	/* CPU time of the stage just reaped */
	char			*sandbox_error;	/* its message, when it failed twice */
	/* Set when an env's toolchain is not installed: the run is skipped
	 * with this reason and nothing starts. */
	char			*missing;
	int			 missing_shown;	/* told to the live output */
	char			*cache_dir;	/* lasting compiler cache or NULL */
	char			 stage_label[PIPELINE_NAME + 20];
};

/*
 * As root, the group of the stages that use the lasting compiler cache
 * (cache_dir()): their uids differ from job to job, the cache is shared.
 */
#define CACHE_GID ((gid_t)(VERIFY_UID_BASE - 1))

/* The stop member m's judge sees: the job's, or that it was killed. */
static enum env_stop
member_stop(const struct verify_job *j, const struct verify_member *m)
{
	if (m == &j->m[j->mi] && j->stop != ENV_STOP_NONE)
		return j->stop;
	return m->killed ? ENV_STOP_KILLED : ENV_STOP_NONE;
}

/* The member and stage now running. */
#define CUR(j)		(&(j)->m[(j)->mi])
#define CUR_STAGE(j)	(&CUR(j)->plan.stages[(j)->stage])

static int64_t
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* --- the sandbox command line ---------------------------------------- */

struct argv_buf {
	char	**v;
	size_t	  n;
	/* bwrap's options are v[opt_start, opt_end): they go through a
	 * pipe (--args), the rest is the command line.  0, 0: no bwrap. */
	size_t	  opt_start, opt_end;
};

/* The per-stage /tmp, a directory of the work directory. */
#define TMP_DIR ".assay-tmp"

/*
 * The whole environment of the wrappers (prlimit, setpriv, bwrap), so
 * that none of the caller's reaches the sandbox: bwrap is its PID 1.
 */
static char clean_path[] = "PATH=/usr/sbin:/usr/bin:/sbin:/bin";
static char clean_lang[] = "LANG=C.UTF-8";
static char *clean_env[] = { clean_path, clean_lang, NULL };

static void
av_add(struct argv_buf *a, const char *s)
{
	a->v = xreallocarray(a->v, a->n + 2, sizeof *a->v);
	a->v[a->n++] = xstrdup(s);
	a->v[a->n] = NULL;
}

static void
av_addf(struct argv_buf *a, const char *fmt, long v)
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
av_add_tool(struct argv_buf *a, const char *name)
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

static void
av_free(struct argv_buf *a)
{
	for (size_t i = 0; i < a->n; i++)
		free(a->v[i]);
	free(a->v);
	a->v = NULL;
	a->n = 0;
}

/* Top-level system directories: bound read-only, or linked like the host. */
static void
add_system(struct argv_buf *a)
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
 * The command line of stage s of member m, run in dir.  A stage that
 * may use the lasting compiler cache (env_stage.cache) gets it bound at
 * /ccache, and as root runs with the cache's group (CACHE_GID); no other
 * stage sees it.
 */
/*
 * The NVIDIA device nodes (/dev/nvidiactl, /dev/nvidia-uvm, /dev/nvidia0
 * ...) and /sys, read-only, which the CUDA driver library reads to find
 * the GPUs.  The driver's user-space libraries are under /usr already.
 */
static void
add_gpu(struct argv_buf *a)
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

/* RLIMIT_CPU of the current member's stages, in seconds. */
static long
cpu_limit_s(const struct verify_job *j)
{
	return j->o.cpu_s > 0 ? j->o.cpu_s : CUR(j)->plan.timeout_s + 5;
}

static void
build_argv(const struct verify_job *j, const struct verify_member *m,
    const struct env_stage *s, const char *dir, struct argv_buf *a)
{
	long timeout = m->plan.timeout_s;
	int cache = s->cache && j->cache_dir != NULL;
	/* A GPU is there when the kernel driver is loaded: its /proc entry
	 * exists.  /dev/nvidiactl alone is not enough: installing CUDA's
	 * user-space libraries can create the node with no driver. */
	int gpu = s->gpu && access("/proc/driver/nvidia/version", F_OK) == 0 &&
	    access("/dev/nvidiactl", F_OK) == 0;
	const char *venv = s->venv ? env_venv_dir() : NULL;

	av_add_tool(a, "prlimit");
	av_addf(a, "--cpu=%ld", j->o.cpu_s > 0 ? j->o.cpu_s : timeout + 5);
	if (gpu)
		av_add(a, "--as=unlimited");
	else
		av_addf(a, "--as=%ld", (j->o.mem_mb > 0 ? j->o.mem_mb : 4096) <<
		    20);
	av_addf(a, "--fsize=%ld", (j->o.fsize_mb > 0 ? j->o.fsize_mb : 64) <<
	    20);
	av_addf(a, "--nproc=%ld", j->o.nproc > 0 ? j->o.nproc : 256);
	av_add(a, "--");
	if (!j->o.no_sandbox) {
		if (geteuid() == 0) {
			av_add_tool(a, "setpriv");
			av_addf(a, "--reuid=%ld", (long)j->uid);
			av_addf(a, "--regid=%ld", cache ? (long)CACHE_GID :
			    (long)j->uid);
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
		add_system(a);
		if (!s->no_proc) {
			av_add(a, "--proc");
			av_add(a, "/proc");
		}
		av_add(a, "--dev");
		av_add(a, "/dev");
		av_add(a, "--bind");
		av_add(a, dir);
		av_add(a, "/work");
		/* Task data files: the code under test reads, never writes
		 * them (env_stage.ro). */
		for (size_t i = 0; s->ro[i] != NULL; i++) {
			char *src = xasprintf("%s/%s", dir, s->ro[i]);
			char *dst = xasprintf("/work/%s", s->ro[i]);

			av_add(a, "--ro-bind");
			av_add(a, src);
			av_add(a, dst);
			free(src);
			free(dst);
		}
		/* Not a tmpfs: what is written there counts against the
		 * job's disk cap, and hitting it is seen (resource-limit). */
		{
			char *tmp = xasprintf("%s/" TMP_DIR, j->workdir);

			av_add(a, "--bind");
			av_add(a, tmp);
			av_add(a, "/tmp");
			free(tmp);
		}
		if (cache) {
			av_add(a, "--bind");
			av_add(a, j->cache_dir);
			av_add(a, "/ccache");
		}
		if (gpu)
			add_gpu(a);
		if (s->venv && venv != NULL) {
			av_add(a, "--ro-bind");
			av_add(a, venv);
			av_add(a, ENV_VENV_MOUNT);
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
	for (size_t i = 0; s->argv[i] != NULL; i++) {
		const char *arg = s->argv[i];
		size_t ml = strlen(ENV_VENV_MOUNT);

		/* Unconfined, the venv is where it is. */
		if (j->o.no_sandbox && s->venv && venv != NULL &&
		    strncmp(arg, ENV_VENV_MOUNT, ml) == 0 && arg[ml] == '/') {
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

/* The stage's fds 3, 4, 5 and the argv it executes; see stage_io_make(). */
struct stage_io {
	int		 fds[3];
	struct argv_buf	 exec;
};

static void
stage_io_release(struct stage_io *io)
{
	for (int i = 0; i < 3; i++)
		if (io->fds[i] >= 0)
			close(io->fds[i]);
	av_free(&io->exec);
}

/*
 * From the stage's full command line a: fd 3 carries bwrap's options
 * (NUL-separated, for --args 3), fd 4 the seccomp filter when there is
 * one, fd 5 (ENV_NONCE_FD) the secret for a stage that reads it; the
 * others are /dev/null.  0 or -1 with err.
 */
static int
stage_io_make(const struct verify_job *j, const struct env_stage *s,
    const struct argv_buf *a, struct stage_io *io, struct err *err)
{
	struct buf opts = BUF_INIT;
	int rc = -1;

	memset(io, 0, sizeof *io);
	io->fds[0] = io->fds[1] = io->fds[2] = -1;
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
	if (s->nonce_fd) {
		char *line = xasprintf("%s\n", CUR(j)->plan.nonce);

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
		stage_io_release(io);
	return rc;
}

/* Shell-quote s onto b when it needs it. */
static void
shell_quote(struct buf *b, const char *s)
{
	if (*s != '\0' && strspn(s, "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+=/.,:@%") == strlen(s)) {
		buf_adds(b, s);
		return;
	}
	buf_addc(b, '\'');
	for (; *s != '\0'; s++) {
		if (*s == '\'')
			buf_adds(b, "'\\''");
		else
			buf_addc(b, *s);
	}
	buf_addc(b, '\'');
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
verify_sandbox_check(struct err *err)
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

/* --- toolchain identity and input keys ------------------------------ */

static struct {
	char	env[32];
	char	id[ERR_MSG_MAX];
	int	ok;
} tool_cache[8];

/* The identity of one env, cached per process. */
static int
toolchain_one(const char *env, char *buf, size_t n, struct err *err)
{
	const struct env_ops *e = env_find(env);
	size_t i;

	if (e == NULL)
		return err_set(err, "unknown env '%s'", env);
	for (i = 0; i < sizeof tool_cache / sizeof tool_cache[0]; i++) {
		if (tool_cache[i].env[0] == '\0')
			break;
		if (strcmp(tool_cache[i].env, env) == 0) {
			if (!tool_cache[i].ok)
				return err_set(err, "%s: %s", env,
				    tool_cache[i].id);
			snprintf(buf, n, "%s", tool_cache[i].id);
			return 0;
		}
	}
	if (i == sizeof tool_cache / sizeof tool_cache[0])
		i = 0;
	snprintf(tool_cache[i].env, sizeof tool_cache[i].env, "%s", env);
	if (e->toolchain(tool_cache[i].id, sizeof tool_cache[i].id, err) < 0) {
		snprintf(tool_cache[i].id, sizeof tool_cache[i].id, "%s",
		    err != NULL ? err->msg : "toolchain missing");
		tool_cache[i].ok = 0;
		return -1;
	}
	tool_cache[i].ok = 1;
	snprintf(buf, n, "%s", tool_cache[i].id);
	return 0;
}

int
verify_toolchain(const char *env, char *buf, size_t n, struct err *err)
{
	char names[PIPELINE_MAX][PIPELINE_NAME], one[ERR_MSG_MAX];
	struct err e;
	int k;

	if (!pipeline_is(env))
		return toolchain_one(env, buf, n, err);
	/* A pipeline: every member's identity, in order. */
	k = pipeline_split(env, names, err != NULL ? err : &e);
	if (k < 0)
		return -1;
	buf[0] = '\0';
	for (int i = 0; i < k; i++) {
		size_t len = strlen(buf);

		if (toolchain_one(names[i], one, sizeof one, err) < 0)
			return -1;
		snprintf(buf + len, n - len, "%s%s", i > 0 ? " + " : "", one);
	}
	return 0;
}

int
verify_input_key(const struct task *t, const struct candidate *c,
    int timeout_s, char *hex, struct err *err)
{
	char tool[ERR_MSG_MAX];

	if (verify_toolchain(t->env, tool, sizeof tool, err) < 0)
		return -1;
	verify_input_key_tool(t, c, timeout_s, tool, hex);
	return 0;
}

void
verify_input_key_tool(const struct task *t, const struct candidate *c,
    int timeout_s, const char *tool, char *hex)
{
	struct hash_ctx *h;

	h = hash_new();
	hash_update(h, t->env, strlen(t->env) + 1);
	hash_update(h, tool, strlen(tool) + 1);
	if (t->env_params != NULL)
		hash_update(h, t->env_params, strlen(t->env_params));
	hash_update(h, "", 1);
	hash_update(h, c->code_hash, strlen(c->code_hash) + 1);
	if (timeout_s > 0) {
		char tmo[32];

		snprintf(tmo, sizeof tmo, "timeout_s=%d", timeout_s);
		hash_update(h, tmo, strlen(tmo) + 1);
	}
	for (size_t i = 0; i < t->nfiles; i++) {
		hash_update(h, t->files[i].name, strlen(t->files[i].name) + 1);
		hash_update(h, t->files[i].data, t->files[i].len);
		hash_update(h, "", 1);
	}
	hash_final(h, hex);
}

/* --- work directories ------------------------------------------------ */

static int
rm_entry(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	(void)sb;
	(void)type;
	(void)ftw;
	remove(path);
	return 0;
}

/* Remove a directory tree we made; symlinks are removed, not followed. */
static void
rm_tree(const char *path)
{
	nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static int64_t disk_total;	/* nftw has no user argument */

static int
disk_add(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	(void)path;
	(void)type;
	(void)ftw;
	disk_total += (int64_t)sb->st_blocks * 512;
	return 0;
}

/* Bytes the work directory takes on disk. */
static int64_t
disk_usage(const char *dir)
{
	disk_total = 0;
	nftw(dir, disk_add, 16, FTW_PHYS);
	return disk_total;
}

/*
 * As root the stages run as the job's own uid, which must be able to
 * reach the work directory: every directory above it needs o+x.
 */
static int
root_reachable(const char *dir, unsigned uid, struct err *err)
{
	char *path = xstrdup(dir), *slash;
	struct stat sb;

	while ((slash = strrchr(path, '/')) != NULL) {
		*slash = '\0';
		if (*path == '\0')
			break;
		if (stat(path, &sb) == 0 && !(sb.st_mode & S_IXOTH)) {
			err_set(err, "the sandbox user (uid %u) cannot reach %s:"
			    " %s is not searchable by others (chmod o+x it, or"
			    " set TMPDIR elsewhere)", uid, dir, path);
			free(path);
			return -1;
		}
	}
	free(path);
	return 0;
}

/* mkdir -p path with mode for what it makes; 0 or -1. */
static int
mkdirs(const char *path, mode_t mode)
{
	char *p = xstrdup(path);
	struct stat sb;

	for (char *q = p + 1; *q != '\0'; q++) {
		if (*q != '/')
			continue;
		*q = '\0';
		if (mkdir(p, 0755) < 0 && errno != EEXIST) {
			free(p);
			return -1;
		}
		*q = '/';
	}
	free(p);
	if (mkdir(path, mode) < 0 && errno != EEXIST)
		return -1;
	return stat(path, &sb) == 0 && S_ISDIR(sb.st_mode) ? 0 : -1;
}

/*
 * The lasting compiler cache that build stages share (env_stage.cache):
 * $ASSAY_CCACHE_DIR, else $XDG_CACHE_HOME/assay/ccache, else
 * $HOME/.cache/assay/ccache, made when missing.  As root every job runs
 * as a uid of its own, which must reach the directory (/root is 0700):
 * then, when the home is closed, /var/cache/assay/ccache; the cache
 * belongs to group CACHE_GID, mode 2770, the group a cached stage runs
 * with, so no other user can plant objects in it.  New string, or NULL
 * when it cannot be had: builds then run without it, slower, not wrong.
 */
static char *
cache_dir(void)
{
	const char *env = getenv("ASSAY_CCACHE_DIR");
	const char *xdg = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");
	char *dir;
	struct err err;

	if (env != NULL && *env == '/')
		dir = xstrdup(env);
	else if (xdg != NULL && *xdg == '/')
		dir = xasprintf("%s/assay/ccache", xdg);
	else if (home != NULL && *home == '/')
		dir = xasprintf("%s/.cache/assay/ccache", home);
	else
		dir = xstrdup("/var/cache/assay/ccache");
	if (geteuid() == 0 && root_reachable(dir, CACHE_GID, &err) < 0) {
		free(dir);
		dir = xstrdup("/var/cache/assay/ccache");
	}
	if (mkdirs(dir, 0700) < 0) {
		free(dir);
		return NULL;
	}
	if (geteuid() == 0 && (chown(dir, 0, CACHE_GID) < 0 ||
	    chmod(dir, 02770) < 0)) {
		free(dir);
		return NULL;
	}
	return dir;
}

/*
 * Remove work directories that an assay killed mid-run left behind
 * (kill -9 skips the cleanup): "assay-run-PID-*" whose PID is gone.
 * A kept directory (--keep-workdir, with its reproduce.sh) stays.
 * Once per process and work root.
 */
static void
sweep_stale(const char *root)
{
	static char swept[PATH_MAX];
	DIR *d;
	struct dirent *e;

	if (strcmp(swept, root) == 0)
		return;
	snprintf(swept, sizeof swept, "%s", root);
	d = opendir(root);
	if (d == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		char *end, *path, *keep;
		long pid;
		struct stat sb;

		if (strncmp(e->d_name, "assay-run-", 10) != 0)
			continue;
		pid = strtol(e->d_name + 10, &end, 10);
		if (end == e->d_name + 10 || *end != '-' || pid <= 0 ||
		    (kill((pid_t)pid, 0) == 0 || errno == EPERM))
			continue;
		path = xasprintf("%s/%s", root, e->d_name);
		keep = xasprintf("%s/reproduce.sh", path);
		if (lstat(path, &sb) == 0 && S_ISDIR(sb.st_mode) &&
		    (sb.st_uid == geteuid() || geteuid() == 0) &&
		    stat(keep, &sb) != 0)
			rm_tree(path);
		free(keep);
		free(path);
	}
	closedir(d);
}

static int
make_workdir(struct verify_job *j, struct err *err)
{
	const char *root = j->o.workroot;
	char *tmpl;

	if (root == NULL)
		root = getenv("TMPDIR");
	if (root == NULL || *root == '\0')
		root = "/tmp";
	sweep_stale(root);
	/* The pid in the name tells a later assay whose directory it was. */
	tmpl = xasprintf("%s/assay-run-%ld-XXXXXX", root, (long)getpid());
	if (mkdtemp(tmpl) == NULL) {
		err_set(err, "work directory in %s: %s", root, strerror(errno));
		free(tmpl);
		return -1;
	}
	j->workdir = tmpl;
	if (geteuid() == 0 && !j->o.no_sandbox &&
	    root_reachable(tmpl, j->uid, err) < 0)
		return -1;
	return 0;
}

static uid_t chown_uid;	/* nftw has no user argument */

static int
chown_dir(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	(void)sb;
	(void)ftw;
	if (type == FTW_D && chown(path, chown_uid, chown_uid) == 0)
		chmod(path, 0755);
	return 0;
}

/* The sandbox uid must own the directories it writes into. */
static void
chown_workdir(const char *dir, uid_t uid)
{
	if (geteuid() != 0)
		return;
	chown_uid = uid;
	nftw(dir, chown_dir, 16, FTW_PHYS);
}

/* --- processes ------------------------------------------------------- */

/* Append output to the log, up to the cap. */
static void
log_add(struct verify_job *j, const char *p, size_t n)
{
	size_t cap = j->o.output_cap > 0 ? j->o.output_cap : VERIFY_OUTPUT_CAP;

	if (j->log.len >= cap) {
		j->stop = ENV_STOP_OUTPUT;
		return;
	}
	if (j->log.len + n > cap) {
		n = cap - j->log.len;
		j->stop = ENV_STOP_OUTPUT;
	}
	buf_add(&j->log, p, n);
}

/*
 * Remove the env's nonce from text: marker lines ("NONCE !finish", "NONCE
 * !error": the harness's own notes to its judge) go whole, "NONCE "
 * prefixes go.  In place; returns the new length.  This is the one place
 * the secret leaves the capture: the stored log, the live output and
 * every export read what it leaves.
 */
static size_t
strip_nonce(char *text, size_t len, const char *nonce)
{
	size_t nl = strlen(nonce), w = 0;

	if (nl == 0)
		return len;
	for (size_t i = 0; i < len; ) {
		if (i + nl + 1 <= len && memcmp(text + i, nonce, nl) == 0 &&
		    text[i + nl] == ' ') {
			const char *eol;

			if ((i == 0 || text[i - 1] == '\n') && i + nl + 2 <=
			    len && text[i + nl + 1] == '!' && (eol = memchr(
			    text + i, '\n', len - i)) != NULL)
				i = (size_t)(eol - text) + 1;
			else if (i + nl + 8 <= len && (memcmp(text + i + nl +
			    1, "!error ", 7) == 0 || memcmp(text + i + nl + 1,
			    "!fatal ", 7) == 0))
				i += nl + 8;	/* $error's mark */
			else
				i += nl + 1;
			continue;
		}
		/* Anywhere else (a candidate that read and printed it). */
		if (i + nl <= len && memcmp(text + i, nonce, nl) == 0) {
			i += nl;
			continue;
		}
		text[w++] = text[i++];
	}
	return w;
}

/*
 * Show the log's new bytes live, whole lines at a time so that the nonce
 * is never split; a partial line waits unless it is long or final.
 */
static void
flush_live(struct verify_job *j, verify_output_fn out, void *arg, int final)
{
	size_t end = j->log.len, n;
	char *chunk;

	if (out == NULL || j->live_off >= end)
		return;
	if (!final) {
		const char *p = j->log.p + j->live_off;
		const char *nl = NULL;

		for (size_t i = end - j->live_off; i > 0; i--)
			if (p[i - 1] == '\n') {
				nl = p + i - 1;
				break;
			}
		if (nl != NULL)
			end = (size_t)(nl - j->log.p) + 1;
		else if (end - j->live_off < 4096)
			return;
	}
	chunk = xstrndup(j->log.p + j->live_off, end - j->live_off);
	n = end - j->live_off;
	for (size_t i = 0; i < j->nm; i++)
		n = strip_nonce(chunk, n, j->m[i].plan.nonce);
	if (n > 0)
		out(chunk, n, arg);
	free(chunk);
	j->live_off = end;
}

static int
spawn_pipe(struct verify_job *j, const char *dir, const struct stage_io *io,
    struct err *err)
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
		sigprocmask(SIG_SETMASK, &old, NULL);
		dup2(null, 0);
		dup2(fds[1], 1);
		dup2(fds[1], 2);
		for (int i = 0; i < 3; i++)
			dup2(io->fds[i], 3 + i);
		closefrom(6);
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
	j->pid = pid;
	j->fd = fds[0];
	return 0;
}

static int
start_stage(struct verify_job *j, struct err *err)
{
	struct verify_member *m = CUR(j);
	struct env_stage *s = CUR_STAGE(j);
	struct argv_buf a = { 0 };
	struct stage_io io;
	struct buf line = BUF_INIT;
	char *dir, *rel, *tmp;
	int rc;

	dir = s->subdir[0] != '\0' ? xasprintf("%s/%s", m->dir, s->subdir) :
	    xstrdup(m->dir);
	/* Where the stage runs, relative to the work directory. */
	rel = m->sub[0] != '\0' && s->subdir[0] != '\0' ? xasprintf("%s/%s",
	    m->sub, s->subdir) : xstrdup(m->sub[0] != '\0' ? m->sub :
	    s->subdir);
	/* A fresh /tmp for each stage, in the work directory. */
	tmp = xasprintf("%s/" TMP_DIR, j->workdir);
	rm_tree(tmp);
	if (mkdir(tmp, 0700) < 0) {
		err_set(err, "%s: %s", tmp, strerror(errno));
		free(tmp);
		free(dir);
		free(rel);
		return -1;
	}
	if (geteuid() == 0 && !j->o.no_sandbox && chown(tmp, j->uid,
	    j->uid) < 0) {
		err_set(err, "chown %s: %s", tmp, strerror(errno));
		free(tmp);
		free(dir);
		free(rel);
		return -1;
	}
	free(tmp);
	build_argv(j, m, s, dir, &a);
	/* The stage header shows the tool command; the full sandboxed line
	 * goes into the run's command for show. */
	buf_adds(&line, "$");
	for (size_t i = 0; s->argv[i] != NULL; i++) {
		buf_addc(&line, ' ');
		shell_quote(&line, s->argv[i]);
	}
	buf_addc(&line, '\n');
	if (rel[0] != '\0')
		buf_printf(&j->command, "(cd %s && ", rel);
	for (size_t i = 0; i < a.n; i++) {
		if (i > 0)
			buf_addc(&j->command, ' ');
		shell_quote(&j->command, a.v[i]);
	}
	buf_adds(&j->command, rel[0] != '\0' ? ")\n" : "\n");
	if (j->nm > 1 && j->stage == 0 && m->nran == 0) {
		/* A pipeline says which env runs, once; the banner belongs
		 * to no stage's log. */
		char *banner = xasprintf("== %s ==\n", m->env->name);

		log_add(j, banner, strlen(banner));
		free(banner);
	}
	m->stage_start[j->stage] = j->log.len;
	log_add(j, line.p, line.len);
	buf_release(&line);
	if (j->nm > 1)
		snprintf(j->stage_label, sizeof j->stage_label, "%s:%s",
		    m->env->name, s->name);
	else
		snprintf(j->stage_label, sizeof j->stage_label, "%s", s->name);
	rc = stage_io_make(j, s, &a, &io, err);
	if (rc == 0 && j->use_pty)
		rc = pty_spawn_clean(&j->pty, io.exec.v, dir, clean_env, io.fds,
		    3, j->rows, j->cols, 1, err);
	else if (rc == 0)
		rc = spawn_pipe(j, dir, &io, err);
	if (io.exec.v != NULL)
		stage_io_release(&io);
	av_free(&a);
	free(dir);
	free(rel);
	if (rc < 0)
		return -1;
	j->running = 1;
	m->res[j->stage].ran = 1;
	if (m->nran < j->stage + 1)
		m->nran = j->stage + 1;
	return 0;
}

/*
 * Member k of the job: env, its copy of the task (its own env_params in
 * a pipeline), its part of the work directory, and prepare().  0 or -1.
 */
static int
member_prepare(struct verify_job *j, size_t k, const char *name,
    char names[][PIPELINE_NAME], const struct task *t, struct err *err)
{
	struct verify_member *m = &j->m[k];
	const struct verify_opts *o = &j->o;

	m->env = env_find(name);
	m->task.id = xstrdup(t->id);
	m->task.env = xstrdup(name);
	m->task.env_params = j->nm > 1 ? pipeline_params(t->env_params, name,
	    names, j->nm) : xstrdup(t->env_params);
	m->task.domain = xstrdup(t->domain);
	m->task.benchmark = xstrdup(t->benchmark);
	m->task.interface = xstrdup(t->interface);
	for (size_t i = 0; i < t->nfiles; i++)
		task_add_file(&m->task, t->files[i].name, t->files[i].role,
		    t->files[i].data, t->files[i].len);
	if (j->nm > 1) {
		snprintf(m->sub, sizeof m->sub, "%s", name);
		if (env_mkdir(j->workdir, name, err) < 0)
			return -1;
		m->dir = xasprintf("%s/%s", j->workdir, name);
	} else {
		m->dir = xstrdup(j->workdir);
	}
	if (m->env->prepare(&m->task, &j->cand, m->dir, &m->plan, err) < 0)
		return -1;
	if (o->timeout_s > 0) {
		char tmo[32];

		/* An override is an input too: the verdict depends on it. */
		m->plan.timeout_s = o->timeout_s;
		snprintf(tmo, sizeof tmo, "%d", o->timeout_s);
		env_note_input(&m->plan, "timeout_s", tmo, strlen(tmo));
	}
	if (m->plan.timeout_s <= 0)
		m->plan.timeout_s = 30;
	buf_adds(&m->plan.inputs, "}");
	if (m->plan.nstages == 0)
		return err_set(err, "env %s planned no stages", name);
	for (size_t s = 0; s < m->plan.nstages; s++)
		if (m->plan.stages[s].cache && j->cache_dir == NULL &&
		    !o->no_sandbox)
			j->cache_dir = cache_dir();
	return 0;
}

/*
 * Why a run cannot start here: the toolchain's own message, then for
 * each env of the task the Debian packages to install and the env's
 * hint.  New string.
 */
static char *
missing_reason(char names[][PIPELINE_NAME], size_t n, const char *why)
{
	struct buf b = BUF_INIT;

	buf_printf(&b, "toolchain missing: %s", why);
	for (size_t k = 0; k < n; k++) {
		const struct env_ops *e = env_find(names[k]);

		if (e == NULL)
			continue;
		if (e->packages != NULL)
			buf_printf(&b, "; %s: apt-get install %s", e->name,
			    e->packages);
		if (e->missing_hint != NULL)
			buf_printf(&b, "; %s", e->missing_hint);
	}
	return buf_detach(&b, NULL);
}

int
verify_job_start(struct verify_job **out, const struct verify_opts *o,
    const struct task *t, const struct candidate *c, int use_pty, int rows,
    int cols, struct err *err)
{
	char names[PIPELINE_MAX][PIPELINE_NAME];
	struct verify_job *j;
	struct err e;
	int64_t total = 0;
	int n;

	*out = NULL;
	n = pipeline_split(t->env, names, &e);
	if (n < 0)
		return err_set(err, "task %s: %s", t->id, e.msg);
	j = xcalloc(1, sizeof *j);
	j->o = *o;
	{
		uint32_t r;

		if (getrandom(&r, sizeof r, 0) != (ssize_t)sizeof r)
			r = (uint32_t)getpid() ^ (uint32_t)now_ms();
		j->uid = (uid_t)(VERIFY_UID_BASE + r % VERIFY_UID_SPAN);
	}
	j->nm = (size_t)n;
	j->use_pty = use_pty;
	j->rows = rows > 0 ? rows : 24;
	j->cols = cols > 0 ? cols : 80;
	j->pid = -1;
	j->fd = -1;
	j->pty.fd = -1;
	j->pty.pid = -1;
	buf_init(&j->log);
	buf_init(&j->command);
	for (size_t k = 0; k < j->nm; k++)
		env_plan_init(&j->m[k].plan);
	if (verify_toolchain(t->env, j->toolchain, sizeof j->toolchain,
	    err) < 0) {
		/* Not installed here: a skipped run that says what to
		 * install, not an error that stops a batch (design.md 2). */
		j->missing = missing_reason(names, (size_t)n, err != NULL ?
		    err->msg : "toolchain missing");
		snprintf(j->toolchain, sizeof j->toolchain, "missing");
	}
	/* Keep our own copies: the caller's may go away mid-run. */
	j->task.id = xstrdup(t->id);
	j->task.env = xstrdup(t->env);
	j->task.env_params = xstrdup(t->env_params);
	j->task.domain = xstrdup(t->domain);
	j->task.benchmark = xstrdup(t->benchmark);
	j->task.interface = xstrdup(t->interface);
	for (size_t i = 0; i < t->nfiles; i++)
		task_add_file(&j->task, t->files[i].name, t->files[i].role,
		    t->files[i].data, t->files[i].len);
	j->env_name = j->task.env;
	j->cand.id = xstrdup(c->id);
	j->cand.task_id = xstrdup(c->task_id);
	j->cand.lang = xstrdup(c->lang);
	j->cand.origin = xstrdup(c->origin);
	j->cand.code = xstrndup(c->code, c->code_len);
	j->cand.code_len = c->code_len;
	memcpy(j->cand.code_hash, c->code_hash, sizeof j->cand.code_hash);
	if (j->missing != NULL) {
		j->t0 = now_ms();
		j->started = (int64_t)time(NULL);
		j->done = 1;
		*out = j;
		return 0;
	}
	if (make_workdir(j, err) < 0)
		goto fail;
	for (size_t k = 0; k < j->nm; k++) {
		if (member_prepare(j, k, names[k], names, t, err) < 0)
			goto fail;
		total += j->m[k].plan.timeout_s;
	}
	chown_workdir(j->workdir, j->uid);
	j->t0 = now_ms();
	/* The wall clock covers the whole run: every member's share. */
	j->deadline = j->t0 + total * 1000;
	j->disk_check = j->t0 + 250;
	j->started = (int64_t)time(NULL);
	if (start_stage(j, err) < 0)
		goto fail;
	*out = j;
	return 0;
fail:
	verify_job_free(j);
	return -1;
}

int
verify_job_fd(const struct verify_job *j)
{
	if (!j->running)
		return -1;
	return j->use_pty ? j->pty.fd : j->fd;
}

int
verify_job_timeout_ms(const struct verify_job *j)
{
	int64_t left = j->deadline - now_ms();

	/* Output closed but the process not reaped yet: look again soon,
	 * there is no fd left to wake us. */
	if (j->running && verify_job_fd(j) < 0)
		return 1;

	return left < 0 ? 0 : left > 1000000 ? 1000000 : (int)left;
}

const char *
verify_job_cand(const struct verify_job *j)
{
	return j->cand.id;
}

const char *
verify_job_task(const struct verify_job *j)
{
	return j->task.id;
}

void
verify_apply_reference(struct run *r, const char *ref_verdict,
    int is_reference)
{
	char *sub;

	if (ref_verdict == NULL || (strcmp(ref_verdict, "fail") != 0 &&
	    strcmp(ref_verdict, "timeout") != 0 &&
	    strcmp(ref_verdict, "task-defect") != 0))
		return;
	if (strcmp(r->verdict, "fail") != 0 &&
	    strcmp(r->verdict, "timeout") != 0)
		return;
	/* A reference whose testbench states no verdict shows a task
	 * without a contract, not a broken reference. */
	sub = is_reference ? xstrdup(r->subcategory != NULL &&
	    strcmp(r->subcategory, "no-verdict") == 0 ? "no-verdict" :
	    "reference-fails") : xasprintf("unjudged-%s", r->verdict);
	free(r->verdict);
	r->verdict = xstrdup("task-defect");
	free(r->subcategory);
	r->subcategory = sub;
	free(r->category);
	r->category = NULL;
}

void
verify_judge_reference(struct store *st, const struct verify_job *j,
    struct run *r)
{
	char *ref = NULL, *verdict = NULL;

	if (store_task_reference(st, j->task.id, &ref, &verdict, NULL) < 0 ||
	    ref == NULL)
		return;
	if (strcmp(ref, r->cand_id) == 0)
		verify_apply_reference(r, r->verdict, 1);
	else
		verify_apply_reference(r, verdict, 0);
	free(ref);
	free(verdict);
}

int
verify_reference_pending(struct store *st, const char *cand_id,
    char **ref_id, struct err *err)
{
	struct candidate c;
	char *ref = NULL, *verdict = NULL;
	int rc;

	*ref_id = NULL;
	rc = store_candidate_get(st, cand_id, &c, err);
	if (rc != 0)
		return rc < 0 ? -1 : err_set(err, "no candidate %s", cand_id);
	rc = store_task_reference(st, c.task_id, &ref, &verdict, err);
	candidate_release(&c);
	if (rc < 0)
		return -1;
	if (ref != NULL && verdict == NULL && strcmp(ref, cand_id) != 0) {
		*ref_id = ref;
		ref = NULL;
	}
	free(ref);
	free(verdict);
	return 0;
}

const char *
verify_job_workdir(const struct verify_job *j)
{
	return j->kept ? j->workdir : NULL;
}

static void
kill_group(struct verify_job *j)
{
	if (j->use_pty) {
		if (j->pty.pid > 0)
			pty_kill(&j->pty, SIGKILL);
	} else if (j->pid > 0) {
		kill(-j->pid, SIGKILL);
		kill(j->pid, SIGKILL);
	}
}

/* Non-blocking reap; 1 when the stage's process has ended. */
static int
reap(struct verify_job *j, int *code)
{
	int status;

	if (j->use_pty) {
		if (j->pty.pid < 0)
			return 1;
		if (!pty_reap(&j->pty))
			return 0;
		status = j->pty.status;
		j->stage_cpu_ms = j->pty.cpu_ms;
	} else {
		struct rusage ru;
		pid_t r;

		memset(&ru, 0, sizeof ru);
		r = wait4(j->pid, &status, WNOHANG, &ru);
		if (r == 0)
			return 0;
		if (r < 0)
			status = 0;
		j->pid = -1;
		j->stage_cpu_ms = (int64_t)(ru.ru_utime.tv_sec +
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

/*
 * Read the stage's output, at most 256 KiB a call so that a flood cannot
 * hold up the caller's frame (or its x); 1 at end of output.
 */
static int
drain(struct verify_job *j)
{
	char chunk[16384];
	size_t total = 0;

	while (total < (256u << 10)) {
		ssize_t n;

		if (j->use_pty) {
			if (j->pty.fd < 0)
				return 1;
			n = pty_read(&j->pty, chunk, sizeof chunk);
			if (n < 0)
				return 1;
			if (n == 0)
				return 0;
		} else {
			if (j->fd < 0)
				return 1;
			n = read(j->fd, chunk, sizeof chunk);
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0 && errno == EAGAIN)
				return 0;
			if (n <= 0) {
				close(j->fd);
				j->fd = -1;
				return 1;
			}
		}
		log_add(j, chunk, (size_t)n);
		total += (size_t)n;
		if (j->stop == ENV_STOP_OUTPUT)
			return 0;
	}
	return 0;
}

/*
 * Did the stage fail before its tool started?  Then its only output is
 * one line of a wrapper (bwrap, setpriv, prlimit) saying why, e.g.
 * "bwrap: Creating new namespace failed: Resource temporarily
 * unavailable".  A candidate cannot fake this: its output would come
 * with the testbench's.  Returns the line's length, 0 when not so.
 */
static size_t
wrapper_failure(const struct verify_job *j, const char **line)
{
	static const char *const tools[] = { "bwrap: ", "setpriv: ",
	    "prlimit: " };
	const char *p = buf_str(&j->log) + CUR(j)->stage_start[j->stage];
	size_t len = j->log.len - CUR(j)->stage_start[j->stage];
	const char *nl = memchr(p, '\n', len);

	if (nl == NULL)
		return 0;
	len -= (size_t)(nl + 1 - p);
	p = nl + 1;
	nl = memchr(p, '\n', len);
	if (nl == NULL || nl + 1 != p + len)
		return 0;
	for (size_t i = 0; i < sizeof tools / sizeof tools[0]; i++) {
		if (strncmp(p, tools[i], strlen(tools[i])) == 0) {
			*line = p;
			return (size_t)(nl - p);
		}
	}
	return 0;
}

static void
finish_stage(struct verify_job *j, int code)
{
	struct env_stage_result *r = &CUR(j)->res[j->stage];

	r->exit_code = code;
	CUR(j)->stage_end[j->stage] = j->log.len;
	j->running = 0;
	if (j->use_pty)
		pty_release(&j->pty);
	else if (j->fd >= 0) {
		close(j->fd);
		j->fd = -1;
	}
}

int
verify_job_step(struct verify_job *j, verify_output_fn out, void *arg)
{
	int eof, code;

	if (j->done) {
		if (j->missing != NULL && !j->missing_shown && out != NULL) {
			char *msg = xasprintf("assay: skipped: %s\r\n",
			    j->missing);

			out(msg, strlen(msg), arg);
			free(msg);
		}
		j->missing_shown = 1;
		return 1;
	}
	eof = drain(j);
	flush_live(j, out, arg, 0);
	if (j->stop == ENV_STOP_NONE && now_ms() >= j->deadline)
		j->stop = ENV_STOP_TIMEOUT;
	/* The file-size limit is per file: cap the whole directory too,
	 * looking four times a second. */
	if (j->stop == ENV_STOP_NONE && now_ms() >= j->disk_check) {
		long cap = j->o.disk_mb > 0 ? j->o.disk_mb : 256;

		j->disk_check = now_ms() + 250;
		if (disk_usage(j->workdir) > (int64_t)cap << 20)
			j->stop = ENV_STOP_DISK;
	}
	if (j->stop != ENV_STOP_NONE) {
		const char *why = j->stop == ENV_STOP_TIMEOUT ?
		    "wall-clock timeout" : j->stop == ENV_STOP_OUTPUT ?
		    "output cap reached" : j->stop == ENV_STOP_DISK ?
		    "work directory size cap reached" : "cancelled";
		char msg[128];
		int n;

		kill_group(j);
		/* Reap what we killed; SIGKILL cannot be ignored. */
		while (!reap(j, &code))
			usleep(1000);
		finish_stage(j, code);
		flush_live(j, out, arg, 1);
		n = snprintf(msg, sizeof msg, "\nassay: %s after %.1f s; "
		    "process group killed\n", why, (now_ms() - j->t0) / 1000.0);
		if (out != NULL)
			out(msg, (size_t)n, arg);
		j->done = 1;
		return 1;
	}
	if (!eof && !j->use_pty)
		return 0;
	/* A pty child may exit before its output is read, or a grandchild
	 * may hold the pipe: wait for both. */
	if (!reap(j, &code))
		return 0;
	if (j->use_pty) {
		/* What the child wrote before it exited is still in the pty;
		 * bounded, in case a grandchild keeps the slave open. */
		for (int i = 0; i < 64 && j->pty.fd >= 0 &&
		    j->stop == ENV_STOP_NONE; i++)
			if (drain(j) == 1)
				break;
	}
	finish_stage(j, code);
	/*
	 * SIGKILL that none of ours sent: the CPU limit sends it only to a
	 * process that used the whole limit, and the stage's tree (the
	 * wrappers, bwrap and everything they reaped) used less.  Something
	 * in the sandbox killed the harness (kill -9 $PPID): the
	 * candidate's failure, not a timeout.
	 */
	if (code == 128 + SIGKILL && j->stop == ENV_STOP_NONE &&
	    j->stage_cpu_ms < cpu_limit_s(j) * 1000)
		CUR(j)->killed = 1;
	if (code != 0) {
		const char *line;
		size_t n = wrapper_failure(j, &line);

		/* The sandbox could not start (a transient EAGAIN): once
		 * more, then it is the environment's failure, not the
		 * candidate's. */
		if (n > 0 && !j->retried) {
			j->retried = 1;
			j->log.len = CUR(j)->stage_start[j->stage];
			j->log.p[j->log.len] = '\0';
			if (j->live_off > j->log.len)
				j->live_off = j->log.len;
			usleep(100000);
			if (start_stage(j, NULL) == 0)
				return 0;
		}
		if (n > 0) {
			j->sandbox_error = xstrndup(line, n);
			flush_live(j, out, arg, 1);
			j->done = 1;
			return 1;
		}
	}
	flush_live(j, out, arg, 1);
	/* A stage that failed ends its env; a pipeline goes on with the
	 * next one, which judges the candidate in its own right. */
	if (code == 0 && j->stage + 1 < CUR(j)->plan.nstages) {
		j->stage++;
	} else if (j->mi + 1 < j->nm) {
		j->mi++;
		j->stage = 0;
	} else {
		j->done = 1;
		return 1;
	}
	if (start_stage(j, NULL) < 0) {
		CUR(j)->res[j->stage].ran = 1;
		CUR(j)->res[j->stage].exit_code = 127;
		CUR(j)->stage_end[j->stage] = j->log.len;
		if (CUR(j)->nran < j->stage + 1)
			CUR(j)->nran = j->stage + 1;
		j->done = 1;
		return 1;
	}
	flush_live(j, out, arg, 0);
	return 0;
}

void
verify_job_cancel(struct verify_job *j)
{
	if (!j->done && j->stop == ENV_STOP_NONE)
		j->stop = ENV_STOP_CANCEL;
}

void
verify_job_resize(struct verify_job *j, int rows, int cols)
{
	j->rows = rows;
	j->cols = cols;
	if (j->use_pty && j->pty.fd >= 0)
		pty_resize(&j->pty, rows, cols);
}

/* Each stage's share of the log, for the judges. */
static void
member_logs(struct verify_job *j, struct verify_member *m)
{
	for (size_t s = 0; s < m->nran; s++) {
		size_t end = m->stage_end[s] >= m->stage_start[s] ?
		    m->stage_end[s] : j->log.len;

		m->res[s].log = buf_str(&j->log) + m->stage_start[s];
		m->res[s].log_len = end - m->stage_start[s];
	}
}

/* The inputs of a pipeline: every member's, under "ENV/NAME". */
static char *
pipeline_inputs(const struct verify_job *j)
{
	json_t *all = json_object();
	char *txt;

	for (size_t k = 0; k < j->nm; k++) {
		json_t *o = json_loads(buf_str(&j->m[k].plan.inputs), 0, NULL);
		const char *name;
		json_t *v;

		json_object_foreach(o, name, v) {
			char *key = xasprintf("%s/%s", j->m[k].env->name,
			    name);

			json_object_set(all, key, v);
			free(key);
		}
		json_decref(o);
	}
	txt = json_dumps(all, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(all);
	return txt;
}

/*
 * The verdict of a pipeline: each member that ran judged and triaged on
 * its own, then pipeline_combine().  The stop (wall clock, output cap)
 * belongs to the member that was running.
 */
static void
judge_pipeline(struct verify_job *j, struct run *r)
{
	struct pipeline_member pm[PIPELINE_MAX];
	struct run subs[PIPELINE_MAX];
	const char *stages[PIPELINE_MAX][ENV_MAX_STAGES];

	memset(subs, 0, sizeof subs);
	for (size_t k = 0; k < j->nm; k++) {
		struct verify_member *m = &j->m[k];

		pm[k].env = m->env->name;
		pm[k].run = NULL;
		pm[k].stages = stages[k];
		pm[k].nstages = m->nran;
		for (size_t s = 0; s < m->nran; s++)
			stages[k][s] = m->plan.stages[s].name;
		if (m->nran == 0)
			continue;
		subs[k].cand_id = xstrdup(j->cand.id);
		subs[k].env = xstrdup(m->env->name);
		subs[k].exit_code = m->res[m->nran - 1].exit_code;
		m->env->judge(&m->task, &m->plan, m->res, m->nran,
		    member_stop(j, m), &subs[k]);
		if (subs[k].verdict == NULL)
			subs[k].verdict = xstrdup("fail");
		{
			char *tops = m->env->tops != NULL ?
			    m->env->tops(&m->task) : NULL;

			triage_apply(m->env->name, &j->cand, tops, &subs[k]);
			free(tops);
		}
		pm[k].run = &subs[k];
	}
	pipeline_combine(pm, j->nm, r);
	for (size_t k = 0; k < j->nm; k++)
		run_release(&subs[k]);
}

void
verify_job_result(struct verify_job *j, struct run *r)
{
	struct verify_member *m0 = &j->m[0];

	memset(r, 0, sizeof *r);
	r->cand_id = xstrdup(j->cand.id);
	r->env = xstrdup(j->env_name);
	r->toolchain = xstrdup(j->toolchain);
	if (j->missing != NULL) {
		r->inputs = xstrdup("{}");
		r->command = xstrdup("");
		r->started = j->started;
		r->exit_code = -1;
		r->verdict = xstrdup("skipped");
		r->subcategory = xstrdup("no-toolchain");
		r->evidence = xasprintf("skipped: %s", j->missing);
		r->log = xasprintf("assay: skipped: %s\n", j->missing);
		r->log_len = strlen(r->log);
		return;
	}
	r->inputs = j->nm > 1 ? pipeline_inputs(j) :
	    xstrdup(buf_str(&m0->plan.inputs));
	r->command = xasprintf("cd %s\n%s", j->workdir, buf_str(&j->command));
	r->started = j->started;
	r->wall_ms = now_ms() - j->t0;
	for (size_t k = 0; k < j->nm; k++) {
		member_logs(j, &j->m[k]);
		if (j->m[k].nran > 0)
			r->exit_code = j->m[k].res[j->m[k].nran - 1].exit_code;
	}
	r->log = xstrndup(buf_str(&j->log), j->log.len);
	r->log_len = j->log.len;
	if (j->sandbox_error != NULL) {
		r->verdict = xstrdup("env-error");
		r->subcategory = xstrdup("sandbox-failure");
		r->stage = xstrdup(j->stage_label);
		r->evidence = xstrdup(j->sandbox_error);
	} else if (j->stop == ENV_STOP_CANCEL) {
		r->verdict = xstrdup("skipped");
		r->subcategory = xstrdup("cancelled");
		r->stage = xstrdup(j->stage_label);
	} else if (j->nm > 1) {
		judge_pipeline(j, r);
	} else {
		m0->env->judge(&m0->task, &m0->plan, m0->res, m0->nran,
		    member_stop(j, m0), r);
	}
	if (r->verdict == NULL)
		r->verdict = xstrdup("fail");
	/* A pipeline's members were triaged each under its own env. */
	if (j->nm == 1) {
		char *tops = m0->env->tops != NULL ? m0->env->tops(&m0->task) :
		    NULL;

		triage_apply(m0->env->name, &j->cand, tops, r);
		free(tops);
	}
	for (size_t k = 0; k < j->nm; k++)
		r->log_len = strip_nonce(r->log, r->log_len,
		    j->m[k].plan.nonce);
	r->log[r->log_len] = '\0';
	{
		/* input_key: the same hash verify_input_key() computes. */
		struct task t = j->task;

		if (verify_input_key(&t, &j->cand, j->o.timeout_s, r->input_key,
		    NULL) < 0)
			r->input_key[0] = '\0';
	}
	j->kept = j->o.keep_workdir == 2 || (j->o.keep_workdir == 1 &&
	    strcmp(r->verdict, "pass") != 0);
	if (j->kept) {
		/* The exact commands, to run again by hand in this directory. */
		char *path = xasprintf("%s/reproduce.sh", j->workdir);
		FILE *f = fopen(path, "w");

		if (f != NULL) {
			fprintf(f, "#!/bin/sh\n# assay run of %s (%s)\nset -e\n%s",
			    j->cand.id, j->env_name, r->command);
			fclose(f);
			chmod(path, 0755);
		}
		free(path);
	}
}

const char *
verify_job_stage(const struct verify_job *j)
{
	return j->stage_label;
}

void
verify_job_free(struct verify_job *j)
{
	int code;

	if (j == NULL)
		return;
	if (j->running) {
		kill_group(j);
		while (!reap(j, &code))
			usleep(1000);
		finish_stage(j, code);
	}
	if (j->workdir != NULL && !j->kept)
		rm_tree(j->workdir);
	free(j->workdir);
	task_release(&j->task);
	candidate_release(&j->cand);
	for (size_t k = 0; k < j->nm; k++) {
		task_release(&j->m[k].task);
		env_plan_release(&j->m[k].plan);
		free(j->m[k].dir);
	}
	free(j->cache_dir);
	buf_release(&j->log);
	buf_release(&j->command);
	free(j->sandbox_error);
	free(j->missing);
	free(j);
}
