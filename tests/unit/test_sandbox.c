/*
 * test_sandbox.c - unit tests for exec/sandbox.c and exec/workdir.c
 * (cmocka): the command line a stage runs under (limits and their
 * defaults, bwrap's options and binds, the venv, unconfined), the fds a
 * stage reads its options and secret from, a start on a pipe with the
 * clean environment (a real prlimit and sh), work directories (made,
 * sized, swept when stale, removed), and the seal store and stage areas
 * (files sealed, refused, checked by hash).  The sandbox starting for real is
 * e2e 050 and 026.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/err.h"
#include "base/hash.h"
#include "exec/proc.h"
#include "exec/sandbox.h"
#include "exec/workdir.h"
#include "testlib.h"

/* Index of the first s in a from i on, or -1. */
static long
find(const struct sandbox_argv *a, size_t i, const char *s)
{
	for (; i < a->n; i++)
		if (strcmp(a->v[i], s) == 0)
			return (long)i;
	return -1;
}

/* a has x, y, z in a row from somewhere in [lo, hi). */
static int
has3(const struct sandbox_argv *a, size_t lo, size_t hi, const char *x,
    const char *y, const char *z)
{
	for (size_t i = lo; i + 2 < hi; i++)
		if (strcmp(a->v[i], x) == 0 && strcmp(a->v[i + 1], y) == 0 &&
		    strcmp(a->v[i + 2], z) == 0)
			return 1;
	return 0;
}

static char *tool[] = { "iverilog", "-o", "sim", "a b.sv", NULL };

static void
test_limits_defaults_unconfined(void **state)
{
	struct sandbox_cmd c = { .argv = tool, .dir = "/w", .workdir = "/w",
	    .unconfined = 1, .lim = { .timeout_s = 10 } };
	struct sandbox_argv a;
	long dd;

	(void)state;
	sandbox_argv(&c, &a);
	assert_non_null(strstr(a.v[0], "prlimit"));
	assert_string_equal(a.v[1], "--cpu=15");
	assert_string_equal(a.v[2], "--as=4294967296");
	assert_string_equal(a.v[3], "--fsize=67108864");
	assert_string_equal(a.v[4], "--nproc=256");
	assert_string_equal(a.v[5], "--");
	/* No sandbox: the tool itself follows, nothing between. */
	assert_string_equal(a.v[6], "iverilog");
	assert_string_equal(a.v[9], "a b.sv");
	assert_int_equal(a.n, 10);
	assert_null(a.v[10]);
	assert_int_equal(a.opt_start, 0);
	assert_int_equal(a.opt_end, 0);
	dd = find(&a, 0, "bwrap");
	assert_int_equal(dd, -1);
	sandbox_argv_free(&a);
	assert_int_equal(sandbox_cpu_s(&c.lim), 15);
	assert_true(sandbox_disk_bytes(&c.lim) == 256LL << 20);
	c.lim.cpu_s = 7;
	c.lim.mem_mb = 100;
	c.lim.fsize_mb = 1;
	c.lim.nproc = 9;
	c.lim.disk_mb = 3;
	sandbox_argv(&c, &a);
	assert_string_equal(a.v[1], "--cpu=7");
	assert_string_equal(a.v[2], "--as=104857600");
	assert_string_equal(a.v[3], "--fsize=1048576");
	assert_string_equal(a.v[4], "--nproc=9");
	assert_true(sandbox_disk_bytes(&c.lim) == 3LL << 20);
	sandbox_argv_free(&a);
}

static void
test_confined_binds(void **state)
{
	static const char *const ro[] = { "tdata.txt", NULL };
	struct sandbox_cmd c = { .argv = tool, .ro = ro, .dir = "/w/run",
	    .workdir = "/w", .cache = "/cache", .no_proc = 1, .uid = 2000000123,
	    .lim = { .timeout_s = 10 } };
	struct sandbox_argv a;
	long bw, dash;

	(void)state;
	sandbox_argv(&c, &a);
	bw = find(&a, 0, "--");
	assert_true(bw > 0);
	if (geteuid() == 0) {
		/* Root drops to the job's uid, with the cache's group. */
		assert_non_null(strstr(a.v[bw + 1], "setpriv"));
		assert_string_equal(a.v[bw + 2], "--reuid=2000000123");
		assert_string_equal(a.v[bw + 3], "--regid=1999999999");
	}
	assert_true(a.opt_start > 0 && a.opt_end > a.opt_start);
	assert_non_null(strstr(a.v[a.opt_start - 1], "bwrap"));
	assert_string_equal(a.v[a.opt_start], "--unshare-all");
	assert_int_not_equal(find(&a, a.opt_start, "--disable-userns"), -1);
	assert_int_not_equal(find(&a, a.opt_start, "--clearenv"), -1);
	assert_true(has3(&a, a.opt_start, a.opt_end, "--bind", "/w/run",
	    "/work"));
	assert_true(has3(&a, a.opt_start, a.opt_end, "--bind",
	    "/w/" SANDBOX_TMP, "/tmp"));
	assert_true(has3(&a, a.opt_start, a.opt_end, "--ro-bind",
	    "/w/run/tdata.txt", "/work/tdata.txt"));
	assert_true(has3(&a, a.opt_start, a.opt_end, "--bind", "/cache",
	    "/ccache"));
	assert_true(has3(&a, a.opt_start, a.opt_end, "--setenv", "CCACHE_DIR",
	    "/ccache"));
	assert_true(has3(&a, a.opt_start, a.opt_end, "--remount-ro", "/",
	    "--chdir"));
	/* no_proc: no /proc mounted. */
	assert_int_equal(find(&a, a.opt_start, "--proc"), -1);
	/* The options end, then "--" and the tool. */
	dash = (long)a.opt_end;
	assert_string_equal(a.v[dash], "--");
	assert_string_equal(a.v[dash + 1], "iverilog");
	sandbox_argv_free(&a);
	/* Without a cache it is not bound, and /proc is there. */
	c.cache = NULL;
	c.no_proc = 0;
	sandbox_argv(&c, &a);
	assert_int_equal(find(&a, 0, "/ccache"), -1);
	assert_true(has3(&a, a.opt_start, a.opt_end, "--proc", "/proc",
	    "--dev"));
	sandbox_argv_free(&a);
}

static void
test_venv(void **state)
{
	char *py[] = { "/venv/bin/python3", "/venv", "x.py", NULL };
	struct sandbox_cmd c = { .argv = py, .dir = "/w", .workdir = "/w",
	    .venv = "/opt/v", .venv_mount = "/venv",
	    .lim = { .timeout_s = 1 } };
	struct sandbox_argv a;

	(void)state;
	sandbox_argv(&c, &a);
	assert_true(has3(&a, a.opt_start, a.opt_end, "--ro-bind", "/opt/v",
	    "/venv"));
	assert_string_equal(a.v[a.opt_end + 1], "/venv/bin/python3");
	sandbox_argv_free(&a);
	/* Unconfined, the venv is where it is (only under the mount). */
	c.unconfined = 1;
	sandbox_argv(&c, &a);
	assert_string_equal(a.v[6], "/opt/v/bin/python3");
	assert_string_equal(a.v[7], "/venv");
	sandbox_argv_free(&a);
}

/* All of fd until EOF, as a string. */
static char *
slurp(int fd)
{
	struct buf b = BUF_INIT;
	char chunk[4096];
	ssize_t n;

	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };

		n = read(fd, chunk, sizeof chunk);
		if (n > 0) {
			buf_add(&b, chunk, (size_t)n);
			continue;
		}
		if (n < 0 && errno == EAGAIN) {
			poll(&p, 1, 1000);
			continue;
		}
		break;
	}
	return buf_detach(&b, NULL);
}

static void
test_io_fds(void **state)
{
	struct sandbox_cmd c = { .argv = tool, .dir = "/w", .workdir = "/w",
	    .lim = { .timeout_s = 1 } };
	struct sandbox_argv a;
	struct sandbox_io io;
	struct err err;
	char *opts;
	size_t i;

	(void)state;
	sandbox_argv(&c, &a);
	assert_int_equal(sandbox_io_make(&a, "s3cret", &io, &err), 0);
	/* bwrap's options are on fd 3's pipe, not on its command line. */
	i = (size_t)find(&io.exec, 0, "--args");
	assert_string_equal(io.exec.v[i + 1], "3");
	assert_string_equal(io.exec.v[i + 2], "--seccomp");
	assert_string_equal(io.exec.v[i + 3], "4");
	assert_int_equal(find(&io.exec, 0, "--unshare-all"), -1);
	assert_int_equal(find(&io.exec, 0, "/work"), -1);
	opts = slurp(io.fds[0]);
	assert_string_equal(opts, "--unshare-all");	/* NUL-separated */
	free(opts);
	opts = slurp(io.fds[2]);
	assert_string_equal(opts, "s3cret\n");
	free(opts);
	sandbox_io_release(&io);
	sandbox_argv_free(&a);
}

static void
test_spawn_pipe_clean_env(void **state)
{
	char *sh[] = { "/bin/sh", "-c",
	    "echo \"[$HOME][$PATH]\"; cat <&5; echo err >&2; exit 3", NULL };
	struct sandbox_cmd c = { .argv = sh, .dir = "/", .workdir = "/",
	    .unconfined = 1, .lim = { .timeout_s = 5 } };
	struct sandbox_argv a;
	struct sandbox_io io;
	struct err err;
	pid_t pid;
	int fd, status;
	char *out;

	(void)state;
	setenv("HOME", "/root-of-the-caller", 1);
	sandbox_argv(&c, &a);
	assert_int_equal(sandbox_io_make(&a, "nonce", &io, &err), 0);
	assert_int_equal(sandbox_spawn_pipe("/", &io, &pid, &fd, &err), 0);
	sandbox_io_release(&io);
	sandbox_argv_free(&a);
	out = slurp(fd);
	close(fd);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 3);
	/* Nothing of the caller's environment; stderr merged. */
	assert_string_equal(out, "[][/usr/sbin:/usr/bin:/sbin:/bin]\nnonce\n"
	    "err\n");
	free(out);
}

/*
 * On the workbench's pty no process of a stage has a controlling
 * terminal (bwrap --new-session): /dev/tty cannot be opened, so nothing
 * writes unmarked lines into the log or pushes input (issue 22).  Run
 * for real, sandboxed, on a pty.
 */
static void
test_pty_stage_has_no_terminal(void **state)
{
	char *sh[] = { "/bin/sh", "-c", "if (echo x >/dev/tty) 2>/dev/null;"
	    " then echo tty-open; else echo tty-refused; fi; [ -t 1 ] && echo"
	    " stdout-is-a-tty", NULL };
	char dir[] = "/tmp/assay-test-pty-XXXXXX", *tmp;
	struct sandbox_cmd c = { .argv = sh, .lim = { .timeout_s = 10 } };
	struct sandbox_argv a;
	struct sandbox_io io;
	struct proc p;
	struct buf out = BUF_INIT;
	struct err err;
	int code = -1;

	(void)state;
	if (sandbox_check(&err) < 0)
		skip();
	assert_non_null(mkdtemp(dir));
	tmp = xasprintf("%s/%s", dir, SANDBOX_TMP);
	assert_int_equal(mkdir(tmp, 0777), 0);
	c.dir = dir;
	c.workdir = dir;
	c.uid = geteuid() == 0 ? (uid_t)SANDBOX_UID_BASE : 0;
	if (geteuid() == 0) {
		assert_int_equal(chown(dir, c.uid, c.uid), 0);
		assert_int_equal(chown(tmp, c.uid, c.uid), 0);
	}
	sandbox_argv(&c, &a);
	assert_true(find(&a, a.opt_start, "--new-session") >= 0);
	assert_int_equal(sandbox_io_make(&a, "", &io, &err), 0);
	proc_init(&p, 1);
	if (proc_start(&p, dir, &io, 24, 80, &err) < 0)
		fail_msg("%s", err.msg);
	sandbox_io_release(&io);
	sandbox_argv_free(&a);
	for (int i = 0; i < 1000 && !proc_reap(&p, &code); i++) {
		char chunk[256];
		ssize_t n;

		while ((n = proc_read(&p, chunk, sizeof chunk)) > 0)
			buf_add(&out, chunk, (size_t)n);
		usleep(10000);
	}
	{
		char chunk[256];
		ssize_t n;

		while ((n = proc_read(&p, chunk, sizeof chunk)) > 0)
			buf_add(&out, chunk, (size_t)n);
	}
	proc_close(&p);
	if (code != 0 || strstr(buf_str(&out), "tty-refused") == NULL)
		fail_msg("exit %d, output: %s", code, buf_str(&out));
	assert_null(strstr(buf_str(&out), "tty-open"));
	/* Still a terminal on its output: the pane shows it live. */
	assert_non_null(strstr(buf_str(&out), "stdout-is-a-tty"));
	buf_release(&out);
	rmdir(tmp);
	rmdir(dir);
	free(tmp);
}

/*
 * A stage's sealed input (env_stage.input, ADR 0056) reaches the
 * sandboxed command as fd 6 alone: it reads the file there, and once it
 * closes the descriptor no process of the sandbox holds the file (bwrap,
 * pid 1 in there, kept none; /proc/PID/fd of each names no such file).
 * Run for real, sandboxed, on a pipe.
 */
static void
test_input_fd_reaches_only_the_command(void **state)
{
	char *sh[] = { "/bin/sh", "-c",
	    "cat <&6; echo; readlink /proc/self/fd/6;"
	    " exec 6<&-; echo closed;"
	    " for f in /proc/[0-9]*/fd/*; do readlink \"$f\"; done;"
	    " cat input-MARK.rec 2>/dev/null || echo no-path", NULL };
	char dir[] = "/tmp/assay-test-input-XXXXXX", *tmp, *file, *out;
	struct sandbox_cmd c = { .argv = sh, .lim = { .timeout_s = 10 } };
	struct sandbox_argv a;
	struct sandbox_io io;
	struct err err;
	pid_t pid;
	int fd, in, status;
	const char *after;

	(void)state;
	if (sandbox_check(&err) < 0)
		skip();
	assert_non_null(mkdtemp(dir));
	tmp = xasprintf("%s/%s", dir, SANDBOX_TMP);
	assert_int_equal(mkdir(tmp, 0777), 0);
	/* Outside the directory the sandbox binds, as the seal store is. */
	file = xasprintf("%s-input-MARK.rec", dir);
	{
		FILE *f = fopen(file, "w");

		assert_non_null(f);
		fputs("want-values", f);
		fclose(f);
	}
	c.dir = dir;
	c.workdir = dir;
	c.uid = geteuid() == 0 ? (uid_t)SANDBOX_UID_BASE : 0;
	if (geteuid() == 0) {
		assert_int_equal(chown(dir, c.uid, c.uid), 0);
		assert_int_equal(chown(tmp, c.uid, c.uid), 0);
	}
	sandbox_argv(&c, &a);
	assert_int_equal(sandbox_io_make(&a, "", &io, &err), 0);
	in = open(file, O_RDONLY | O_CLOEXEC);
	assert_true(in >= 0);
	assert_int_equal(sandbox_io_input(&io, in, &err), 0);
	close(in);
	assert_int_equal(io.nfds, 4);
	if (sandbox_spawn_pipe(dir, &io, &pid, &fd, &err) < 0)
		fail_msg("%s", err.msg);
	sandbox_io_release(&io);
	sandbox_argv_free(&a);
	out = slurp(fd);
	close(fd);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	/* It read the file on fd 6, which names it ... */
	if (strncmp(out, "want-values\n", 12) != 0 ||
	    (after = strstr(out, "closed\n")) == NULL)
		fail_msg("output: %s", out);
	assert_non_null(strstr(out, "input-MARK.rec"));
	assert_true(strstr(out, "input-MARK.rec") < after);
	/* ... and once it closed it, nothing in the sandbox holds it, nor
	 * reaches it by a path. */
	if (strstr(after, "input-MARK") != NULL)
		fail_msg("still held after the close: %s", out);
	assert_non_null(strstr(after, "no-path"));
	free(out);
	unlink(file);
	free(file);
	rmdir(tmp);
	rmdir(dir);
	free(tmp);
}

static void
test_sandbox_quote(void **state)
{
	struct buf b = BUF_INIT;

	(void)state;
	sandbox_quote(&b, "plain-1.0/x.sv");
	buf_addc(&b, ' ');
	sandbox_quote(&b, "a b");
	buf_addc(&b, ' ');
	sandbox_quote(&b, "it's");
	buf_addc(&b, ' ');
	sandbox_quote(&b, "");
	assert_string_equal(buf_str(&b), "plain-1.0/x.sv 'a b' 'it'\\''s' ''");
	buf_release(&b);
}

static void
test_workdir(void **state)
{
	char root[] = "/tmp/assay-test-workdir-XXXXXX";
	char *stale, *kept, *keep, *dir = NULL, *big, *tmp;
	struct err err;
	struct stat sb;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(root));
	/* Left by a killed assay (no such pid), and a kept one. */
	stale = xasprintf("%s/assay-run-999999999-abcdef", root);
	kept = xasprintf("%s/assay-run-999999998-abcdef", root);
	keep = xasprintf("%s/reproduce.sh", kept);
	assert_int_equal(mkdir(stale, 0700), 0);
	assert_int_equal(mkdir(kept, 0700), 0);
	f = fopen(keep, "w");
	assert_non_null(f);
	fclose(f);
	assert_int_equal(workdir_make(root, 0, &dir, &err), 0);
	assert_int_not_equal(stat(stale, &sb), 0);
	assert_int_equal(stat(keep, &sb), 0);
	tmp = xasprintf("assay-run-%ld-", (long)getpid());
	assert_non_null(strstr(dir, tmp));
	free(tmp);
	assert_int_equal(workdir_fresh_tmp(dir, (uid_t)-1, &err), 0);
	big = xasprintf("%s/" SANDBOX_TMP "/big", dir);
	f = fopen(big, "w");
	assert_non_null(f);
	for (int i = 0; i < 64; i++) {
		char block[4096];

		memset(block, 'x', sizeof block);
		assert_int_equal(fwrite(block, 1, sizeof block, f),
		    sizeof block);
	}
	fclose(f);
	/* 256 KiB written: at least that on disk. */
	assert_true(workdir_usage(dir) >= 256 << 10);
	/* A fresh /tmp is empty again. */
	assert_int_equal(workdir_fresh_tmp(dir, (uid_t)-1, &err), 0);
	assert_int_not_equal(stat(big, &sb), 0);
	workdir_remove(dir);
	assert_int_not_equal(stat(dir, &sb), 0);
	free(big);
	free(dir);
	free(stale);
	free(kept);
	free(keep);
	rm_rf(root);
}

/* Write text to path with mode; 0 or -1. */
static int
put(const char *path, const char *text, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);
	ssize_t n = fd < 0 ? -1 : write(fd, text, strlen(text));

	if (fd >= 0)
		close(fd);
	return n == (ssize_t)strlen(text) ? 0 : -1;
}

/*
 * Sealed files (issue 22): what a stage made is copied out of its reach
 * with its hash, never through a symbolic link or from a FIFO, and put
 * into a later stage's fresh area only while its hash holds.
 */
static void
test_workdir_seal(void **state)
{
	char root[] = "/tmp/assay-test-seal-XXXXXX";
	char hex[HASH_HEX_LEN + 1], want[HASH_HEX_LEN + 1];
	char *dir = NULL, *store = NULL, *p, *q, *area;
	struct err err;
	struct stat sb, sb2;

	(void)state;
	assert_non_null(mkdtemp(root));
	assert_int_equal(workdir_make(root, 0, &dir, &err), 0);
	assert_int_equal(workdir_seal_store(dir, &store, &err), 0);
	assert_int_equal(stat(store, &sb), 0);
	assert_int_equal(sb.st_mode & 0777, 0700);
	/* Never reused. */
	assert_int_equal(workdir_seal_store(dir, &p, &err), -1);
	p = xasprintf("%s/run", dir);
	assert_int_equal(mkdir(p, 0755), 0);
	free(p);
	p = xasprintf("%s/run/check", dir);
	assert_int_equal(put(p, "#!/bin/sh\necho checked\n", 0755), 0);
	free(p);
	q = xasprintf("%s/check", store);
	assert_int_equal(workdir_seal(dir, "run/check", q, 1 << 20, hex,
	    &err), 0);
	hash_sha256("#!/bin/sh\necho checked\n", 23, want);
	assert_string_equal(hex, want);
	assert_int_equal(stat(q, &sb), 0);
	assert_int_equal(sb.st_mode & 0777, 0555);
	/* What the stage's directory holds now does not matter. */
	p = xasprintf("%s/run/check", dir);
	assert_int_equal(put(p, "#!/bin/sh\necho forged\n", 0755), 0);
	free(p);
	/* Into a fresh area: linked, the same bytes, the hash checked. */
	area = xasprintf("%s/.assay-stage-count", dir);
	assert_int_equal(mkdir(area, 0700), 0);
	p = xasprintf("%s/left-over", area);
	assert_int_equal(put(p, "x", 0644), 0);
	assert_int_equal(workdir_fresh_dir(area, (uid_t)-1, &err), 0);
	assert_int_not_equal(stat(p, &sb), 0);
	assert_int_equal(stat(area, &sb), 0);
	assert_int_equal(sb.st_mode & 0777, 0755);
	free(p);
	p = xasprintf("%s/check", area);
	assert_int_equal(workdir_unseal(q, hex, p, &err), 0);
	assert_int_equal(stat(p, &sb), 0);
	assert_int_equal(stat(q, &sb2), 0);
	assert_true(sb.st_ino == sb2.st_ino);
	unlink(p);
	/* A sealed file that changed is refused, and says so. */
	assert_int_equal(chmod(q, 0644), 0);
	assert_int_equal(put(q, "#!/bin/sh\necho forged\n", 0644), 0);
	assert_int_equal(workdir_unseal(q, hex, p, &err), -1);
	assert_non_null(strstr(err.msg, "check changed after it was sealed"));
	assert_int_not_equal(stat(p, &sb), 0);
	free(p);
	free(q);
	/* Not sealed: a symbolic link, at the end or on the way; a FIFO
	 * (without blocking); "..", an absolute path; too big; missing. */
	p = xasprintf("%s/run/link", dir);
	assert_int_equal(symlink("check", p), 0);
	free(p);
	p = xasprintf("%s/ev", dir);
	assert_int_equal(symlink("run", p), 0);
	free(p);
	p = xasprintf("%s/run/fifo", dir);
	assert_int_equal(mkfifo(p, 0644), 0);
	free(p);
	{
		static const char *const bad[] = { "run/link", "ev/check",
		    "run/fifo", "run/../run/check", "/etc/passwd",
		    "run/check", "run/none", "" };
		static const char *const why[] = { "symbolic link",
		    "symbolic link", "not a regular file", "names . or ..",
		    "not a relative path", "more than 8 bytes", "missing",
		    "not a relative path" };

		for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
			q = xasprintf("%s/bad%zu", store, i);
			assert_int_equal(workdir_seal(dir, bad[i], q,
			    i == 5 ? 8 : 1 << 20, hex, &err), -1);
			if (strstr(err.msg, why[i]) == NULL)
				fail_msg("%s: %s", bad[i], err.msg);
			assert_int_not_equal(stat(q, &sb), 0);
			free(q);
		}
	}
	free(area);
	workdir_remove(store);
	workdir_remove(dir);
	free(store);
	free(dir);
	rm_rf(root);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_limits_defaults_unconfined),
		cmocka_unit_test(test_confined_binds),
		cmocka_unit_test(test_venv),
		cmocka_unit_test(test_io_fds),
		cmocka_unit_test(test_spawn_pipe_clean_env),
		cmocka_unit_test(test_sandbox_quote),
		cmocka_unit_test(test_pty_stage_has_no_terminal),
		cmocka_unit_test(test_input_fd_reaches_only_the_command),
		cmocka_unit_test(test_workdir),
		cmocka_unit_test(test_workdir_seal),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
