/*
 * verify.c - candidate runs: work directory, sandbox, limits, processes,
 * output capture and the hand-over to the env's judge; see verify.h.
 *
 * Every stage is one command line built here:
 *
 *   prlimit --cpu=S --as=B --fsize=B --nproc=N -- \
 *     [setpriv --reuid=65534 --regid=65534 --clear-groups --] \
 *     bwrap --unshare-all --die-with-parent --ro-bind /usr /usr ... \
 *       --bind WORKDIR /work --chdir /work -- TOOL ARGS
 *
 * so that the limits hold for everything the tool starts, root drops to
 * an unprivileged uid before the sandbox (RLIMIT_NPROC is not enforced
 * for root), and the same text reproduces the run by hand.  The child is
 * started in its own session; the wall clock and the output cap kill the
 * whole process group.
 */
#define _GNU_SOURCE
#include "verify.h"

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
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../envs/env.h"
#include "buf.h"
#include "hash.h"
#include "pty.h"
#include "store.h"
#include "triage.h"

struct verify_job {
	struct verify_opts	 o;
	const struct env_ops	*env;
	struct task		 task;
	struct candidate	 cand;
	struct env_plan		 plan;
	char			*workdir;
	char			 toolchain[ERR_MSG_MAX];
	int			 use_pty, rows, cols;

	size_t			 stage;		/* current stage index */
	pid_t			 pid;		/* pipe child, -1 when none */
	int			 fd;		/* pipe read end, -1 when none */
	struct pty		 pty;
	int			 running;
	struct env_stage_result	 res[ENV_MAX_STAGES];
	size_t			 stage_start[ENV_MAX_STAGES];
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
	char			*sandbox_error;	/* its message, when it failed twice */
};

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
};

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

static void
build_argv(const struct verify_job *j, const char *dir, char *const *tool,
    struct argv_buf *a)
{
	long timeout = j->plan.timeout_s;

	av_add(a, "prlimit");
	av_addf(a, "--cpu=%ld", j->o.cpu_s > 0 ? j->o.cpu_s : timeout + 5);
	av_addf(a, "--as=%ld", (j->o.mem_mb > 0 ? j->o.mem_mb : 4096) << 20);
	av_addf(a, "--fsize=%ld", (j->o.fsize_mb > 0 ? j->o.fsize_mb : 64) <<
	    20);
	av_addf(a, "--nproc=%ld", j->o.nproc > 0 ? j->o.nproc : 256);
	av_add(a, "--");
	if (!j->o.no_sandbox) {
		if (geteuid() == 0) {
			av_add(a, "setpriv");
			av_addf(a, "--reuid=%ld", (long)j->uid);
			av_addf(a, "--regid=%ld", (long)j->uid);
			av_add(a, "--clear-groups");
			av_add(a, "--");
		}
		av_add(a, "bwrap");
		av_add(a, "--unshare-all");
		av_add(a, "--die-with-parent");
		add_system(a);
		av_add(a, "--proc");
		av_add(a, "/proc");
		av_add(a, "--dev");
		av_add(a, "/dev");
		av_add(a, "--tmpfs");
		av_add(a, "/tmp");
		av_add(a, "--bind");
		av_add(a, dir);
		av_add(a, "/work");
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
		av_add(a, "--");
	}
	for (size_t i = 0; tool[i] != NULL; i++)
		av_add(a, tool[i]);
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

int
verify_sandbox_check(struct err *err)
{
	char *const argv_root[] = { "setpriv", "--reuid=65534", "--regid=65534",
	    "--clear-groups", "--", "bwrap", "--unshare-all", "--ro-bind",
	    "/usr", "/usr", "--symlink", "usr/bin", "/bin", "--symlink",
	    "usr/lib", "/lib", "--symlink", "usr/lib64", "/lib64", "--", "true",
	    NULL };
	char *const *argv = geteuid() == 0 ? argv_root : argv_root + 5;
	int status, null;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return err_set(err, "fork: %s", strerror(errno));
	if (pid == 0) {
		null = open("/dev/null", O_RDWR);
		dup2(null, 0);
		dup2(null, 1);
		dup2(null, 2);
		execvp(argv[0], argv);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		return err_set(err, "the sandbox cannot start: bwrap is not"
		    " installed (Debian package bubblewrap); --no-sandbox runs"
		    " candidates unconfined");
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

int
verify_toolchain(const char *env, char *buf, size_t n, struct err *err)
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
verify_input_key(const struct task *t, const struct candidate *c,
    int timeout_s, char *hex, struct err *err)
{
	struct hash_ctx *h;
	char tool[ERR_MSG_MAX];

	if (verify_toolchain(t->env, tool, sizeof tool, err) < 0)
		return -1;
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
	return 0;
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
 * Remove the env's nonce from text: "NONCE finish" lines go, "NONCE "
 * prefixes go.  In place; returns the new length.
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
			if (i + nl + 8 <= len &&
			    memcmp(text + i + nl, " finish\n", 8) == 0)
				i += nl + 8;
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
	n = strip_nonce(chunk, end - j->live_off, j->plan.nonce);
	if (n > 0)
		out(chunk, n, arg);
	free(chunk);
	j->live_off = end;
}

static int
spawn_pipe(struct verify_job *j, const char *dir, char *const *argv,
    struct err *err)
{
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
		closefrom(3);
		if (chdir(dir) < 0)
			_exit(126);
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
	struct env_stage *s = &j->plan.stages[j->stage];
	struct argv_buf a = { 0 };
	struct buf line = BUF_INIT;
	char *dir;
	int rc;

	dir = s->subdir[0] != '\0' ? xasprintf("%s/%s", j->workdir, s->subdir) :
	    xstrdup(j->workdir);
	build_argv(j, dir, s->argv, &a);
	/* The stage header shows the tool command; the full sandboxed line
	 * goes into the run's command for show. */
	buf_adds(&line, "$");
	for (size_t i = 0; s->argv[i] != NULL; i++) {
		buf_addc(&line, ' ');
		shell_quote(&line, s->argv[i]);
	}
	buf_addc(&line, '\n');
	if (s->subdir[0] != '\0')
		buf_printf(&j->command, "(cd %s && ", s->subdir);
	for (size_t i = 0; i < a.n; i++) {
		if (i > 0)
			buf_addc(&j->command, ' ');
		shell_quote(&j->command, a.v[i]);
	}
	buf_adds(&j->command, s->subdir[0] != '\0' ? ")\n" : "\n");
	j->stage_start[j->stage] = j->log.len;
	log_add(j, line.p, line.len);
	buf_release(&line);
	if (j->use_pty)
		rc = pty_spawn(&j->pty, a.v, dir, NULL, j->rows, j->cols, 1, err);
	else
		rc = spawn_pipe(j, dir, a.v, err);
	av_free(&a);
	free(dir);
	if (rc < 0)
		return -1;
	j->running = 1;
	j->res[j->stage].ran = 1;
	return 0;
}

int
verify_job_start(struct verify_job **out, const struct verify_opts *o,
    const struct task *t, const struct candidate *c, int use_pty, int rows,
    int cols, struct err *err)
{
	struct verify_job *j;
	const struct env_ops *env = env_find(t->env);

	*out = NULL;
	if (env == NULL)
		return err_set(err, "task %s: unknown env '%s'", t->id, t->env);
	j = xcalloc(1, sizeof *j);
	j->o = *o;
	{
		uint32_t r;

		if (getrandom(&r, sizeof r, 0) != (ssize_t)sizeof r)
			r = (uint32_t)getpid() ^ (uint32_t)now_ms();
		j->uid = (uid_t)(VERIFY_UID_BASE + r % VERIFY_UID_SPAN);
	}
	j->env = env;
	j->use_pty = use_pty;
	j->rows = rows > 0 ? rows : 24;
	j->cols = cols > 0 ? cols : 80;
	j->pid = -1;
	j->fd = -1;
	j->pty.fd = -1;
	j->pty.pid = -1;
	buf_init(&j->log);
	buf_init(&j->command);
	env_plan_init(&j->plan);
	if (verify_toolchain(t->env, j->toolchain, sizeof j->toolchain,
	    err) < 0)
		goto fail;
	/* Keep our own copies: the caller's may go away mid-run. */
	j->task.id = xstrdup(t->id);
	j->task.env = xstrdup(t->env);
	j->task.env_params = xstrdup(t->env_params);
	j->task.domain = xstrdup(t->domain);
	j->task.benchmark = xstrdup(t->benchmark);
	for (size_t i = 0; i < t->nfiles; i++)
		task_add_file(&j->task, t->files[i].name, t->files[i].role,
		    t->files[i].data, t->files[i].len);
	j->cand.id = xstrdup(c->id);
	j->cand.task_id = xstrdup(c->task_id);
	j->cand.lang = xstrdup(c->lang);
	j->cand.origin = xstrdup(c->origin);
	j->cand.code = xstrndup(c->code, c->code_len);
	j->cand.code_len = c->code_len;
	memcpy(j->cand.code_hash, c->code_hash, sizeof j->cand.code_hash);
	if (make_workdir(j, err) < 0)
		goto fail;
	if (env->prepare(&j->task, &j->cand, j->workdir, &j->plan, err) < 0)
		goto fail;
	if (o->timeout_s > 0) {
		char tmo[32];

		/* An override is an input too: the verdict depends on it. */
		j->plan.timeout_s = o->timeout_s;
		snprintf(tmo, sizeof tmo, "%d", o->timeout_s);
		env_note_input(&j->plan, "timeout_s", tmo, strlen(tmo));
	}
	if (j->plan.timeout_s <= 0)
		j->plan.timeout_s = 30;
	buf_adds(&j->plan.inputs, "}");
	chown_workdir(j->workdir, j->uid);
	j->t0 = now_ms();
	j->deadline = j->t0 + (int64_t)j->plan.timeout_s * 1000;
	j->disk_check = j->t0 + 250;
	j->started = (int64_t)time(NULL);
	if (j->plan.nstages == 0) {
		err_set(err, "env %s planned no stages", env->name);
		goto fail;
	}
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
	sub = is_reference ? xstrdup("reference-fails") :
	    xasprintf("unjudged-%s", r->verdict);
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
	} else {
		pid_t r = waitpid(j->pid, &status, WNOHANG);

		if (r == 0)
			return 0;
		if (r < 0)
			status = 0;
		j->pid = -1;
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
	const char *p = buf_str(&j->log) + j->stage_start[j->stage];
	size_t len = j->log.len - j->stage_start[j->stage];
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
	struct env_stage_result *r = &j->res[j->stage];

	r->exit_code = code;
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

	if (j->done)
		return 1;
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
	if (code != 0) {
		const char *line;
		size_t n = wrapper_failure(j, &line);

		/* The sandbox could not start (a transient EAGAIN): once
		 * more, then it is the environment's failure, not the
		 * candidate's. */
		if (n > 0 && !j->retried) {
			j->retried = 1;
			j->log.len = j->stage_start[j->stage];
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
	if (code != 0 || j->stage + 1 >= j->plan.nstages) {
		j->done = 1;
		return 1;
	}
	j->stage++;
	if (start_stage(j, NULL) < 0) {
		j->res[j->stage].ran = 1;
		j->res[j->stage].exit_code = 127;
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

void
verify_job_result(struct verify_job *j, struct run *r)
{
	size_t nres = 0;

	memset(r, 0, sizeof *r);
	r->cand_id = xstrdup(j->cand.id);
	r->env = xstrdup(j->env->name);
	r->toolchain = xstrdup(j->toolchain);
	r->inputs = xstrdup(buf_str(&j->plan.inputs));
	r->command = xasprintf("cd %s\n%s", j->workdir, buf_str(&j->command));
	r->started = j->started;
	r->wall_ms = now_ms() - j->t0;
	for (size_t s = 0; s < j->plan.nstages; s++) {
		size_t end = s + 1 < j->plan.nstages && j->res[s + 1].ran ?
		    j->stage_start[s + 1] : j->log.len;

		if (!j->res[s].ran)
			break;
		j->res[s].log = buf_str(&j->log) + j->stage_start[s];
		j->res[s].log_len = end - j->stage_start[s];
		r->exit_code = j->res[s].exit_code;
		nres = s + 1;
	}
	r->log = xstrndup(buf_str(&j->log), j->log.len);
	r->log_len = j->log.len;
	if (j->sandbox_error != NULL) {
		r->verdict = xstrdup("env-error");
		r->subcategory = xstrdup("sandbox-failure");
		r->stage = xstrdup(j->plan.stages[j->stage].name);
		r->evidence = xstrdup(j->sandbox_error);
	} else if (j->stop == ENV_STOP_CANCEL) {
		r->verdict = xstrdup("skipped");
		r->subcategory = xstrdup("cancelled");
		r->stage = xstrdup(j->plan.stages[j->stage].name);
	} else {
		j->env->judge(&j->task, &j->plan, j->res, nres, j->stop, r);
	}
	if (r->verdict == NULL)
		r->verdict = xstrdup("fail");
	triage_apply(j->env->name, &j->cand, r);
	r->log_len = strip_nonce(r->log, r->log_len, j->plan.nonce);
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
			    j->cand.id, j->env->name, r->command);
			fclose(f);
			chmod(path, 0755);
		}
		free(path);
	}
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
	env_plan_release(&j->plan);
	buf_release(&j->log);
	buf_release(&j->command);
	free(j->sandbox_error);
	free(j);
}
