/*
 * sysfilter.c - the sandbox's seccomp filter, built with libseccomp;
 * see sysfilter.h.
 */
#define _GNU_SOURCE
#include "exec/sysfilter.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <seccomp.h>

#include "base/buf.h"

/* Refused with EPERM (those this kernel's headers do not know are
 * skipped: seccomp_syscall_resolve_name() says so). */
static const char *const refused[] = {
	"ptrace", "process_vm_readv", "process_vm_writev", "kcmp",
	"unshare", "setns", "mount", "umount2", "pivot_root", "chroot",
	"open_tree", "move_mount", "fsopen", "fsconfig", "fsmount", "fspick",
	"mount_setattr", "keyctl", "add_key", "request_key", "bpf",
	"perf_event_open", "userfaultfd", "io_uring_setup", "io_uring_enter",
	"io_uring_register", "init_module", "finit_module", "delete_module",
	"kexec_load", "kexec_file_load", "reboot", "swapon", "swapoff", "acct",
	"quotactl", "lookup_dcookie", "open_by_handle_at", "syslog",
	"vhangup", "iopl", "ioperm", "settimeofday", "clock_settime",
	"clock_adjtime", "adjtimex", NULL
};

/* clone's flags that make a namespace. */
static const unsigned long ns_flags[] = { CLONE_NEWUSER, CLONE_NEWNS,
	CLONE_NEWPID, CLONE_NEWNET, CLONE_NEWUTS, CLONE_NEWIPC,
	CLONE_NEWCGROUP };

const char *const *
sysfilter_refused(void)
{
	return refused;
}

/* Build the filter into a new buffer.  0 or -1 with err. */
static int
build(struct buf *out, struct err *err)
{
	scmp_filter_ctx ctx;
	int rc, fd = -1;
	off_t size;

	ctx = seccomp_init(SCMP_ACT_ALLOW);
	if (ctx == NULL)
		return err_set(err, "seccomp: cannot start a filter");
	for (size_t i = 0; refused[i] != NULL; i++) {
		int nr = seccomp_syscall_resolve_name(refused[i]);

		if (nr == __NR_SCMP_ERROR)
			continue;
		rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), nr, 0);
		if (rc < 0) {
			err_set(err, "seccomp: %s: %s", refused[i],
			    strerror(-rc));
			goto fail;
		}
	}
	for (size_t i = 0; i < sizeof ns_flags / sizeof ns_flags[0]; i++) {
		rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM),
		    SCMP_SYS(clone), 1, SCMP_A0(SCMP_CMP_MASKED_EQ,
		    ns_flags[i], ns_flags[i]));
		if (rc < 0) {
			err_set(err, "seccomp: clone: %s", strerror(-rc));
			goto fail;
		}
	}
	/* clone3's flags are in memory a filter cannot read: ENOSYS, and
	 * the C library falls back to clone. */
	rc = seccomp_syscall_resolve_name("clone3");
	if (rc != __NR_SCMP_ERROR &&
	    (rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), rc, 0)) < 0) {
		err_set(err, "seccomp: clone3: %s", strerror(-rc));
		goto fail;
	}
	fd = memfd_create("assay-seccomp", MFD_CLOEXEC);
	if (fd < 0) {
		err_set(err, "seccomp: memfd_create: %s", strerror(errno));
		goto fail;
	}
	rc = seccomp_export_bpf(ctx, fd);
	if (rc < 0) {
		err_set(err, "seccomp: export: %s", strerror(-rc));
		goto fail;
	}
	size = lseek(fd, 0, SEEK_END);
	if (size <= 0 || lseek(fd, 0, SEEK_SET) != 0) {
		err_set(err, "seccomp: empty filter");
		goto fail;
	}
	buf_init(out);
	for (;;) {
		char chunk[4096];
		ssize_t n = read(fd, chunk, sizeof chunk);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err_set(err, "seccomp: read: %s", strerror(errno));
			buf_release(out);
			goto fail;
		}
		if (n == 0)
			break;
		buf_add(out, chunk, (size_t)n);
	}
	close(fd);
	seccomp_release(ctx);
	return 0;
fail:
	if (fd >= 0)
		close(fd);
	seccomp_release(ctx);
	return -1;
}

int
sysfilter_bpf(const void **prog, size_t *len, struct err *err)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	static struct buf filter;
	static int built;
	int rc = 0;

	pthread_mutex_lock(&lock);	/* :verify's thread and the screen's */
	if (!built) {
		if (build(&filter, err) < 0)
			rc = -1;
		else
			built = 1;
	}
	pthread_mutex_unlock(&lock);
	if (rc < 0)
		return -1;
	*prog = filter.p;
	*len = filter.len;
	return 0;
}
