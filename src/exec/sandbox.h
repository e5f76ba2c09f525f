/*
 * sandbox.h - the sandbox a stage of a candidate's run executes in: its
 * command line (resource limits, an unprivileged uid as root, bubblewrap),
 * the fds it reads its options, seccomp filter and secret from, a start on
 * a pipe in its own session, and the check that the sandbox can start
 * here.  design.md section 7, docs/security.md, ADR 0007.
 *
 * Every stage is one command line built here:
 *
 *   prlimit --cpu=S --as=B --fsize=B --nproc=N -- \
 *     [setpriv --reuid=UID --regid=UID --clear-groups --] \
 *     bwrap --unshare-all --die-with-parent --ro-bind /usr /usr ... \
 *       --bind DIR /work --bind WORKDIR/.assay-tmp /tmp \
 *       --remount-ro /dev --remount-ro / --chdir /work -- TOOL ARGS
 *
 * so that the limits hold for everything the tool starts, root drops to
 * an unprivileged uid before the sandbox (RLIMIT_NPROC is not enforced
 * for root), and the same text reproduces the run by hand.
 *
 * What runs is not quite that text (ADR 0006): the wrappers start with an
 * environment of PATH alone, never the caller's (bubblewrap is PID 1 of
 * the sandbox, and /proc/1/environ there is its environment), and bwrap's
 * own options, which name host paths, go through a pipe (--args 3), so
 * that /proc/1/cmdline shows only "bwrap --args 3 ... -- TOOL ARGS".  A
 * stage's secret goes through another pipe (fd 5), never a command line.
 * bwrap loads the seccomp filter of sysfilter.h from fd 4 (--seccomp 4)
 * and forbids new user namespaces (--disable-userns).  The only writable
 * places are /work and /tmp, both in the work directory (workdir.h); /
 * and /dev are read-only (no /dev/shm).
 *
 * Nothing here knows of envs or candidates: the caller (verify.c) says
 * what to run, where, and what to bind.
 */
#ifndef ASSAY_EXEC_SANDBOX_H
#define ASSAY_EXEC_SANDBOX_H

#include <stddef.h>
#include <sys/types.h>

#include "base/buf.h"
#include "base/err.h"

/*
 * As root, each job runs as a uid of its own drawn from
 * [SANDBOX_UID_BASE, SANDBOX_UID_BASE + SANDBOX_UID_SPAN): RLIMIT_NPROC
 * counts every process of a uid, so a shared uid ("nobody") let
 * concurrent jobs, or a fork bomb in one of them, starve the others.
 */
#define SANDBOX_UID_BASE 2000000000u
#define SANDBOX_UID_SPAN 1000000u
/*
 * As root, the group of the stages that use the lasting compiler cache
 * (workdir_cache()): their uids differ from job to job, the cache is
 * shared.
 */
#define SANDBOX_CACHE_GID ((gid_t)(SANDBOX_UID_BASE - 1))
/* The per-stage /tmp: a directory of the work directory. */
#define SANDBOX_TMP ".assay-tmp"
/* The fd a stage reads its secret from (envs' ENV_NONCE_FD). */
#define SANDBOX_SECRET_FD 5

/* Resource limits of a stage; 0 takes the default. */
struct sandbox_limits {
	int	 timeout_s;	/* the stage's wall clock, for the CPU default */
	long	 cpu_s;		/* RLIMIT_CPU; 0: timeout_s + 5 */
	long	 mem_mb;	/* RLIMIT_AS in MiB; 0: 4096 (a GPU: none) */
	long	 fsize_mb;	/* RLIMIT_FSIZE in MiB; 0: 64 */
	long	 nproc;		/* RLIMIT_NPROC; 0: 256 */
	long	 disk_mb;	/* the work directory's size; 0: 256 */
};

/* RLIMIT_CPU of l in seconds, the default applied. */
long	sandbox_cpu_s(const struct sandbox_limits *l);

/* The work directory's size cap of l in bytes, the default applied. */
long long sandbox_disk_bytes(const struct sandbox_limits *l);

/* What a stage runs and what it sees.  Everything borrowed. */
struct sandbox_cmd {
	char *const	*argv;		/* the tool and its arguments */
	const char *const *ro;		/* names under dir bound read-only at
					   /work/NAME, NULL-terminated */
	const char	*dir;		/* where it runs: bound at /work */
	const char	*workdir;	/* the job's: its SANDBOX_TMP is /tmp */
	const char	*cache;		/* bound at /ccache (CCACHE_DIR), or NULL */
	const char	*venv;		/* host directory bound read-only at
					   venv_mount, or NULL */
	const char	*venv_mount;	/* "/venv" */
	int		 no_proc;	/* no /proc */
	int		 gpu;		/* the NVIDIA device nodes and /sys,
					   when a driver is loaded */
	int		 unconfined;	/* no bwrap (--no-sandbox): limits only */
	uid_t		 uid;		/* as root: the uid it runs as */
	struct sandbox_limits lim;
};

/* A command line; bwrap's options are v[opt_start, opt_end) (0, 0: none). */
struct sandbox_argv {
	char	**v;		/* NULL-terminated, owned */
	size_t	  n;
	size_t	  opt_start, opt_end;
};

/*
 * The whole command line of c into *a (zeroed first; release with
 * sandbox_argv_free()): what a run records to reproduce it.  Unconfined,
 * an argument under venv_mount names the venv where it is.
 */
void	sandbox_argv(const struct sandbox_cmd *c, struct sandbox_argv *a);
void	sandbox_argv_free(struct sandbox_argv *a);

/* Shell-quote s onto b when it needs it (for the recorded command). */
void	sandbox_quote(struct buf *b, const char *s);

/*
 * What a stage executes from its command line a: fds[0] carries bwrap's
 * options (NUL-separated, for --args 3), fds[1] the seccomp filter,
 * fds[2] secret (a line; NULL: nothing), each a pipe read end that the
 * child gets as fd 3, 4 and 5; fds[3], when nfds is 4, a file the child
 * gets as fd SANDBOX_INPUT_FD (sandbox_io_input()); exec is the argv
 * that names them.
 */
struct sandbox_io {
	int			 fds[4];
	int			 nfds;		/* 3, or 4 with an input */
	struct sandbox_argv	 exec;
};

#define SANDBOX_INPUT_FD 6

/* 0 or -1 with err; io is empty on failure. */
int	sandbox_io_make(const struct sandbox_argv *a, const char *secret,
	    struct sandbox_io *io, struct err *err);
/*
 * Hand the command fd, an open file, as fd SANDBOX_INPUT_FD: io keeps a
 * duplicate (close-on-exec here, released with io), the caller keeps
 * fd.  Nothing names the file in the sandbox: the command holds it only
 * as that descriptor, as inherited, and no process it starts holds it
 * once it closes it.  0 or -1 with err.
 */
int	sandbox_io_input(struct sandbox_io *io, int fd, struct err *err);
void	sandbox_io_release(struct sandbox_io *io);

/* The whole environment the wrappers start with (PATH and LANG only). */
char *const *sandbox_env(void);

/*
 * Start io.exec in dir, in a session (process group) of its own, stdin
 * /dev/null, stdout and stderr on a pipe whose non-blocking read end is
 * *fd; io's fds as 3, 4, 5 (and 6, an input).  *pid is the child.  0 or
 * -1 with err.
 */
int	sandbox_spawn_pipe(const char *dir, const struct sandbox_io *io,
	    pid_t *pid, int *fd, struct err *err);

/*
 * Can the sandbox start here?  Runs "bwrap ... true" once as a stage
 * would (with the filter and --disable-userns, as root under setpriv).
 * 0, or -1 with err saying why (bubblewrap missing, user namespaces
 * disabled, a bwrap or kernel without the filter).
 */
int	sandbox_check(struct err *err);

#endif
