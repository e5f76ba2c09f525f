/*
 * test_sysfilter.c - unit tests for sysfilter.c (cmocka): the filter is
 * loaded, as bwrap loads it, into a forked child, which then tries the
 * refused calls and a few a toolchain needs.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "exec/sysfilter.h"

static void
test_sysfilter_program_is_bpf(void **state)
{
	const void *p1, *p2;
	size_t n1, n2;
	struct err err;

	(void)state;
	assert_int_equal(sysfilter_bpf(&p1, &n1, &err), 0);
	assert_true(n1 > 0);
	assert_int_equal(n1 % sizeof(struct sock_filter), 0);
	/* Built once, kept. */
	assert_int_equal(sysfilter_bpf(&p2, &n2, &err), 0);
	assert_ptr_equal(p1, p2);
	assert_int_equal(n1, n2);
}

/* Exit codes of the child: 0 all as expected, else the failed step. */
static int
child(void)
{
	const void *prog;
	size_t len;
	struct err err;
	struct sock_fprog fprog;
	pid_t pid;
	int status;

	if (sysfilter_bpf(&prog, &len, &err) < 0)
		return 10;
	fprog.len = (unsigned short)(len / sizeof(struct sock_filter));
	fprog.filter = (struct sock_filter *)(uintptr_t)prog;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
	    syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &fprog) < 0)
		return 11;
	/* Refused, with EPERM. */
	errno = 0;
	if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) != -1 || errno != EPERM)
		return 1;
	errno = 0;
	if (unshare(CLONE_NEWUSER) != -1 || errno != EPERM)
		return 2;
	errno = 0;
	if (mount("none", "/tmp", "tmpfs", 0, NULL) != -1 || errno != EPERM)
		return 3;
	errno = 0;
	if (syscall(SYS_clone, (long)(CLONE_NEWUSER | SIGCHLD), 0L, 0L, 0L,
	    0L) != -1 || errno != EPERM)
		return 4;
	errno = 0;
	if (syscall(SYS_keyctl, 0L, 0L, 0L, 0L, 0L) != -1 || errno != EPERM)
		return 5;
	errno = 0;
	if (syscall(SYS_bpf, 0L, 0L, 0L) != -1 || errno != EPERM)
		return 6;
#ifdef SYS_clone3
	errno = 0;
	if (syscall(SYS_clone3, NULL, 0L) != -1 || errno != ENOSYS)
		return 7;
#endif
	/* Allowed: what a toolchain does (fork, through clone or clone3's
	 * fallback, exec, wait). */
	pid = fork();
	if (pid < 0)
		return 20;
	if (pid == 0) {
		execl("/bin/true", "true", (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0)
		return 21;
	return 0;
}

static void
test_sysfilter_refuses_and_allows(void **state)
{
	pid_t pid;
	int status;

	(void)state;
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(child());
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

static void
test_sysfilter_names_its_calls(void **state)
{
	const char *const *names = sysfilter_refused();
	int ptrace_seen = 0, unshare_seen = 0;

	(void)state;
	for (size_t i = 0; names[i] != NULL; i++) {
		ptrace_seen |= strcmp(names[i], "ptrace") == 0;
		unshare_seen |= strcmp(names[i], "unshare") == 0;
	}
	assert_true(ptrace_seen && unshare_seen);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sysfilter_program_is_bpf),
		cmocka_unit_test(test_sysfilter_refuses_and_allows),
		cmocka_unit_test(test_sysfilter_names_its_calls),
	};

	return cmocka_run_group_tests_name("sysfilter", tests, NULL, NULL);
}
