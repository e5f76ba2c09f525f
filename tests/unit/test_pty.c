/* test_pty.c - unit tests for pty.c (cmocka): real children on real ptys. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "exec/pty.h"

#define TIMEOUT_MS	10000

static long
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * Read into buf (NUL-terminated) until the child's side closes, the text
 * contains want (when not NULL) or TIMEOUT_MS passes.  Returns the length.
 */
static size_t
read_until(struct pty *p, char *buf, size_t n, const char *want)
{
	long start = now_ms();
	size_t len = 0;

	buf[0] = '\0';
	while (now_ms() - start < TIMEOUT_MS && len + 1 < n) {
		struct pollfd pfd = { .fd = p->fd, .events = POLLIN };
		ssize_t got;

		if (p->fd < 0)
			break;
		(void)poll(&pfd, 1, 50);
		got = pty_read(p, buf + len, n - 1 - len);
		if (got < 0)
			break;
		len += (size_t)got;
		buf[len] = '\0';
		if (want != NULL && strstr(buf, want) != NULL)
			break;
	}
	return len;
}

/* Wait for pty_reap to report the exit; the wait status. */
static int
wait_exit(struct pty *p)
{
	long start = now_ms();

	while (!pty_reap(p)) {
		assert_true(now_ms() - start < TIMEOUT_MS);
		(void)poll(NULL, 0, 10);
	}
	assert_int_equal(p->pid, -1);
	return p->status;
}

static void
spawn_sh(struct pty *p, const char *script, int rows, int cols, int raw)
{
	char *argv[] = { "sh", "-c", (char *)script, NULL };
	struct err err = { "" };

	assert_int_equal(pty_spawn(p, argv, NULL, NULL, rows, cols, raw, &err),
	    0);
	assert_true(p->fd > 2);
	assert_true(p->pid > 0);
}

static void
test_pty_stty_size_and_output(void **state)
{
	struct pty p;
	char buf[512];
	int st;

	(void)state;
	spawn_sh(&p, "stty size; echo hi", 10, 50, 0);
	read_until(&p, buf, sizeof buf, NULL);
	assert_non_null(strstr(buf, "10 50\r\n"));
	assert_non_null(strstr(buf, "hi\r\n"));
	assert_int_equal(p.fd, -1);	/* EIO closed the master */
	assert_int_equal(pty_read(&p, buf, sizeof buf), -1);
	st = wait_exit(&p);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	pty_release(&p);
}

static void
test_pty_master_nonblocking_cloexec(void **state)
{
	struct pty p;
	char buf[16];
	int fl;

	(void)state;
	spawn_sh(&p, "sleep 100", 5, 20, 0);
	fl = fcntl(p.fd, F_GETFL);
	assert_true(fl >= 0 && (fl & O_NONBLOCK));
	fl = fcntl(p.fd, F_GETFD);
	assert_true(fl >= 0 && (fl & FD_CLOEXEC));
	assert_int_equal(pty_read(&p, buf, sizeof buf), 0);	/* nothing */
	pty_release(&p);
	assert_int_equal(p.fd, -1);
	assert_int_equal(p.pid, -1);
	assert_true(WIFSIGNALED(p.status));
}

static void
test_pty_raw_output_keeps_newlines(void **state)
{
	struct pty p;
	char buf[64];

	(void)state;
	spawn_sh(&p, "printf 'a\\nb\\n'", 5, 20, 1);
	read_until(&p, buf, sizeof buf, NULL);
	assert_string_equal(buf, "a\nb\n");
	wait_exit(&p);
	pty_release(&p);

	spawn_sh(&p, "printf 'a\\nb\\n'", 5, 20, 0);
	read_until(&p, buf, sizeof buf, NULL);
	assert_string_equal(buf, "a\r\nb\r\n");
	wait_exit(&p);
	pty_release(&p);
}

static void
test_pty_reap_collects_exit_status(void **state)
{
	struct pty p;
	char buf[64];
	int st;

	(void)state;
	spawn_sh(&p, "exit 3", 5, 20, 0);
	read_until(&p, buf, sizeof buf, NULL);
	st = wait_exit(&p);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 3);
	assert_int_equal(pty_reap(&p), 1);	/* stays reaped */
	pty_release(&p);
}

static void
test_pty_reap_does_not_block(void **state)
{
	struct pty p;
	long start;

	(void)state;
	spawn_sh(&p, "sleep 100", 5, 20, 0);
	start = now_ms();
	assert_int_equal(pty_reap(&p), 0);
	assert_true(now_ms() - start < 1000);
	assert_true(p.pid > 0);
	pty_release(&p);
}

static void
test_pty_kill_ends_sleep(void **state)
{
	char *argv[] = { "sleep", "100", NULL };
	struct err err = { "" };
	struct pty p;
	int st;

	(void)state;
	assert_int_equal(pty_spawn(&p, argv, NULL, NULL, 5, 20, 0, &err), 0);
	pty_kill(&p, SIGTERM);
	st = wait_exit(&p);
	assert_true(WIFSIGNALED(st));
	assert_int_equal(WTERMSIG(st), SIGTERM);
	pty_release(&p);
}

static void
test_pty_kill_reaches_whole_group(void **state)
{
	struct pty p;
	char buf[256];
	int st;

	(void)state;
	/*
	 * The shell waits on a grandchild that ignores the hangup the
	 * kernel sends when the session leader dies; both must die.
	 */
	spawn_sh(&p, "trap '' HUP; sleep 100 & echo started; wait", 5, 20, 0);
	read_until(&p, buf, sizeof buf, "started");
	assert_non_null(strstr(buf, "started"));
	pty_kill(&p, SIGTERM);
	st = wait_exit(&p);
	assert_true(WIFSIGNALED(st));
	/* The grandchild held the slave open; its death gives EIO. */
	read_until(&p, buf, sizeof buf, NULL);
	assert_int_equal(p.fd, -1);
	pty_release(&p);
}

static void
test_pty_child_signals_reset(void **state)
{
	struct sigaction ign, old_int;
	sigset_t block, old_mask;
	char *argv[] = { "sleep", "100", NULL };
	struct err err = { "" };
	struct pty p;
	int st;

	(void)state;
	memset(&ign, 0, sizeof ign);
	ign.sa_handler = SIG_IGN;
	sigemptyset(&ign.sa_mask);
	sigaction(SIGINT, &ign, &old_int);
	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, &old_mask);

	assert_int_equal(pty_spawn(&p, argv, NULL, NULL, 5, 20, 0, &err), 0);
	sigaction(SIGINT, &old_int, NULL);
	sigprocmask(SIG_SETMASK, &old_mask, NULL);

	pty_kill(&p, SIGINT);		/* ignored here, default there */
	st = wait_exit(&p);
	assert_true(WIFSIGNALED(st));
	assert_int_equal(WTERMSIG(st), SIGINT);
	pty_release(&p);
}

static void
test_pty_write_reaches_cat(void **state)
{
	char *argv[] = { "cat", NULL };
	struct err err = { "" };
	struct pty p;
	char buf[256];
	const char *hit;
	int st;

	(void)state;
	assert_int_equal(pty_spawn(&p, argv, NULL, NULL, 5, 40, 0, &err), 0);
	assert_int_equal(pty_write(&p, "ping-42\n", 8), 0);
	/* Once echoed by the line discipline, once written by cat. */
	read_until(&p, buf, sizeof buf, "ping-42\r\nping-42\r\n");
	hit = strstr(buf, "ping-42");
	assert_non_null(hit);
	assert_non_null(strstr(hit + 1, "ping-42"));
	assert_int_equal(pty_write(&p, "\004", 1), 0);	/* EOF */
	st = wait_exit(&p);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	pty_release(&p);
}

static void
test_pty_write_large_input(void **state)
{
	struct pty p;
	char big[20000], buf[256];
	int st;

	(void)state;
	/* More than the pty buffer holds; the child reads after a while. */
	spawn_sh(&p, "stty -icanon -echo; echo ready; sleep 0.3; "
	    "head -c 20000 >/dev/null; echo done", 5, 40, 0);
	read_until(&p, buf, sizeof buf, "ready");
	assert_non_null(strstr(buf, "ready"));
	memset(big, 'x', sizeof big);
	assert_int_equal(pty_write(&p, big, sizeof big), 0);
	read_until(&p, buf, sizeof buf, "done");
	assert_non_null(strstr(buf, "done"));
	st = wait_exit(&p);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	pty_release(&p);
}

static void
test_pty_missing_program_exits_127(void **state)
{
	char *argv[] = { "assay-no-such-program", NULL };
	struct err err = { "" };
	struct pty p;
	char buf[512];
	int st;

	(void)state;
	assert_int_equal(pty_spawn(&p, argv, NULL, NULL, 5, 80, 0, &err), 0);
	read_until(&p, buf, sizeof buf, NULL);
	assert_non_null(strstr(buf, "assay: cannot run assay-no-such-program: "
	    "No such file or directory"));
	st = wait_exit(&p);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 127);
	pty_release(&p);
}

static void
test_pty_env_and_cwd(void **state)
{
	char *argv[] = { "sh", "-c",
	    "echo \"foo=$ASSAY_T_FOO term=$TERM cols=${COLUMNS-unset} "
	    "lines=${LINES-unset} gone=${ASSAY_T_GONE-unset}\"; pwd", NULL };
	char *env[] = { "ASSAY_T_FOO=bar", "ASSAY_T_GONE", NULL };
	struct err err = { "" };
	struct pty p;
	char buf[512];

	(void)state;
	setenv("COLUMNS", "99", 1);
	setenv("LINES", "33", 1);
	setenv("TERM", "dumb", 1);
	setenv("ASSAY_T_GONE", "here", 1);
	assert_int_equal(pty_spawn(&p, argv, "/", env, 5, 80, 1, &err), 0);
	unsetenv("ASSAY_T_GONE");
	unsetenv("COLUMNS");
	unsetenv("LINES");
	read_until(&p, buf, sizeof buf, NULL);
	assert_string_equal(buf, "foo=bar term=xterm-256color cols=unset "
	    "lines=unset gone=unset\n/\n");
	wait_exit(&p);
	pty_release(&p);
}

static void
test_pty_bad_cwd_exits_127(void **state)
{
	char *argv[] = { "true", NULL };
	struct err err = { "" };
	struct pty p;
	char buf[512];
	int st;

	(void)state;
	assert_int_equal(pty_spawn(&p, argv, "/no/such/dir", NULL, 5, 80, 0,
	    &err), 0);
	read_until(&p, buf, sizeof buf, NULL);
	assert_non_null(strstr(buf, "/no/such/dir"));
	st = wait_exit(&p);
	assert_int_equal(WEXITSTATUS(st), 127);
	pty_release(&p);
}

static void
test_pty_child_fds_closed(void **state)
{
	struct pty p;
	char script[128], buf[256];
	int fds[2];

	(void)state;
	assert_int_equal(pipe(fds), 0);	/* not close-on-exec */
	snprintf(script, sizeof script,
	    "if [ -e /proc/self/fd/%d ]; then echo open; else echo closed; fi",
	    fds[1]);
	spawn_sh(&p, script, 5, 40, 1);
	read_until(&p, buf, sizeof buf, NULL);
	assert_string_equal(buf, "closed\n");
	wait_exit(&p);
	pty_release(&p);
	close(fds[0]);
	close(fds[1]);
}

static void
test_pty_utf8_flag_and_session(void **state)
{
	struct pty p;
	char buf[256];

	(void)state;
	/* Own session: the shell is its session and group leader. */
	spawn_sh(&p, "stty -a | grep -o -- '-\\?iutf8' | head -1; "
	    "ps -o sid= -o pgid= -p $$", 5, 80, 1);
	read_until(&p, buf, sizeof buf, NULL);
	assert_int_equal(strncmp(buf, "iutf8\n", 6), 0);
	{
		int sid = 0, pgid = 0;

		assert_int_equal(sscanf(buf + 6, "%d %d", &sid, &pgid), 2);
		assert_int_equal(sid, p.pid);
		assert_int_equal(pgid, p.pid);
	}
	wait_exit(&p);
	pty_release(&p);
}

static void
test_pty_resize_reaches_child(void **state)
{
	struct pty p;
	char buf[512];

	(void)state;
	spawn_sh(&p, "read x; stty size", 10, 50, 0);
	pty_resize(&p, 20, 70);
	assert_int_equal(pty_write(&p, "\n", 1), 0);
	read_until(&p, buf, sizeof buf, NULL);
	assert_non_null(strstr(buf, "20 70"));
	wait_exit(&p);
	pty_release(&p);
}

static void
test_pty_release_kills_and_reaps(void **state)
{
	struct pty p, zero;
	long start;
	int in_before;

	(void)state;
	/* A child that ignores SIGHUP still goes, by SIGKILL. */
	spawn_sh(&p, "trap '' HUP; sleep 100", 5, 20, 0);
	start = now_ms();
	pty_release(&p);
	assert_true(now_ms() - start < 5000);
	assert_int_equal(p.fd, -1);
	assert_int_equal(p.pid, -1);
	assert_true(WIFSIGNALED(p.status));
	pty_release(&p);		/* twice is harmless */
	pty_release(NULL);
	memset(&zero, 0, sizeof zero);
	in_before = fcntl(STDIN_FILENO, F_GETFD) >= 0;
	pty_release(&zero);		/* zeroed: fd 0 is not ours */
	assert_int_equal(fcntl(STDIN_FILENO, F_GETFD) >= 0, in_before);
}

static void
test_pty_spawn_rejects_empty_argv(void **state)
{
	char *argv[] = { NULL };
	struct err err = { "" };
	struct pty p;

	(void)state;
	assert_int_equal(pty_spawn(&p, argv, NULL, NULL, 5, 20, 0, &err), -1);
	assert_true(err.msg[0] != '\0');
	assert_int_equal(p.fd, -1);
	assert_int_equal(p.pid, -1);
	pty_release(&p);
}

/*
 * pty_spawn_clean(): nothing of the caller's environment, only envp and
 * TERM; the fds asked for are 3 and 4 in the child, nothing else above
 * 2 is open; and the child's CPU time is there once it is reaped.
 */
static void
test_pty_spawn_clean_env_and_fds(void **state)
{
	char *argv[] = { "/bin/sh", "-c",
	    "env | sort | tr '\\n' ' '; echo; cat <&3; cat <&4;"
	    " ls /proc/self/fd | sort -n | tr '\\n' ' '", NULL };
	char *envp[] = { "PATH=/usr/bin:/bin", NULL };
	struct err err = { "" };
	struct pty p;
	char buf[1024];
	int a[2], b[2], fds[2];

	(void)state;
	setenv("ASSAY_T_SECRET", "leak", 1);
	assert_int_equal(pipe(a), 0);
	assert_int_equal(pipe(b), 0);
	assert_int_equal(write(a[1], "three\n", 6), 6);
	assert_int_equal(write(b[1], "four\n", 5), 5);
	close(a[1]);
	close(b[1]);
	fds[0] = fcntl(a[0], F_DUPFD_CLOEXEC, 10);
	fds[1] = fcntl(b[0], F_DUPFD_CLOEXEC, 10);
	close(a[0]);
	close(b[0]);
	/* An fd that moving could overwrite is refused. */
	{
		int low[2] = { fds[0], 3 };

		assert_int_equal(pty_spawn_clean(&p, argv, "/", envp, low, 2,
		    5, 80, 1, &err), -1);
	}
	assert_int_equal(pty_spawn_clean(&p, argv, "/", envp, fds, 2, 5, 200,
	    1, &err), 0);
	unsetenv("ASSAY_T_SECRET");
	close(fds[0]);
	close(fds[1]);
	read_until(&p, buf, sizeof buf, NULL);
	wait_exit(&p);
	assert_null(strstr(buf, "ASSAY_T_SECRET"));
	assert_non_null(strstr(buf, "PATH=/usr/bin:/bin"));
	assert_non_null(strstr(buf, "TERM=xterm-256color"));
	assert_non_null(strstr(buf, "three\nfour\n"));
	/* 0-2, 3 and 4, and the fd ls opens to read the directory. */
	assert_non_null(strstr(buf, "0 1 2 3 4 5 "));
	assert_null(strstr(buf, "0 1 2 3 4 5 6"));
	assert_true(p.cpu_ms >= 0);
	pty_release(&p);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pty_stty_size_and_output),
		cmocka_unit_test(test_pty_spawn_clean_env_and_fds),
		cmocka_unit_test(test_pty_master_nonblocking_cloexec),
		cmocka_unit_test(test_pty_raw_output_keeps_newlines),
		cmocka_unit_test(test_pty_reap_collects_exit_status),
		cmocka_unit_test(test_pty_reap_does_not_block),
		cmocka_unit_test(test_pty_kill_ends_sleep),
		cmocka_unit_test(test_pty_kill_reaches_whole_group),
		cmocka_unit_test(test_pty_child_signals_reset),
		cmocka_unit_test(test_pty_write_reaches_cat),
		cmocka_unit_test(test_pty_write_large_input),
		cmocka_unit_test(test_pty_missing_program_exits_127),
		cmocka_unit_test(test_pty_env_and_cwd),
		cmocka_unit_test(test_pty_bad_cwd_exits_127),
		cmocka_unit_test(test_pty_child_fds_closed),
		cmocka_unit_test(test_pty_utf8_flag_and_session),
		cmocka_unit_test(test_pty_resize_reaches_child),
		cmocka_unit_test(test_pty_release_kills_and_reaps),
		cmocka_unit_test(test_pty_spawn_rejects_empty_argv),
	};

	return cmocka_run_group_tests_name("pty", tests, NULL, NULL);
}
