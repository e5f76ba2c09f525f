/*
 * sysfilter.h - the seccomp filter every sandboxed stage runs under
 * (docs/security.md, ADR 0006).  The one module that calls libseccomp
 * (Debian libseccomp-dev).
 *
 * The filter allows everything a toolchain does and refuses what none
 * needs and a hostile candidate would use against the sandbox or the
 * host kernel: ptrace and reading another process's memory, new
 * namespaces (unshare, setns, clone with a CLONE_NEW* flag; clone3,
 * whose flags a filter cannot read, says ENOSYS so that the C library
 * falls back to clone), mounts, keyrings, bpf, perf_event_open,
 * userfaultfd, io_uring, kernel modules, kexec, swap, reboot, the clock
 * and raw I/O ports.  A refused call fails with EPERM; the process goes
 * on.  A system call of another ABI (32-bit int 0x80, x32) kills the
 * process: nothing of a toolchain uses one.
 */
#ifndef ASSAY_SYSFILTER_H
#define ASSAY_SYSFILTER_H

#include <stddef.h>

#include "base/err.h"

/*
 * The filter as the BPF program bwrap's --seccomp FD reads: *prog
 * points at *len bytes, built on the first call and kept for the
 * process (static, not to be freed).  0, or -1 with err (libseccomp
 * failed, or does not know this machine's architecture).
 */
int	sysfilter_bpf(const void **prog, size_t *len, struct err *err);

/*
 * The names of the refused calls, for the docs and the tests: a
 * NULL-terminated static list.
 */
const char *const *sysfilter_refused(void);

#endif
