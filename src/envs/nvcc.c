/*
 * nvcc.c - the CUDA env (design.md section 7, toolchains.md section 2).
 *
 * Compiles the candidate for env_params.arch with ptxas' resource report,
 * checks its launch configurations statically, then builds and runs the
 * task's harness (a host program) without and with it:
 *   NVCC -arch=ARCH -O2 -Xptxas -v,-warn-spills -c candidate.cu -o candidate.o
 *   NVCC -arch=ARCH -O2 -DASSAY_SM=NN -c HARNESS -o harness.o;
 *     a stub of the symbols only the candidate gives (as stub.s);
 *     NVCC ... -o run/harness-want harness.o stub.o;
 *     objcopy --keep-global-symbol=... candidate.o;
 *     NVCC ... -o run/harness harness.o candidate.o;
 *     cc -O2 -o run/check assay_check.c -lseccomp        (isolate)
 *   ./check want   (want: check and harness-want alone in its area, the
 *                  secret on fd 5; writes want.rec, sealed after it)
 *   ./check run    (run: check and harness alone in its area, the
 *                  secret on fd 5, want.rec on fd 6 and by no path)
 * NVCC is the absolute path of nvcc (/usr/local/cuda/bin first, then PATH): the
 * CUDA toolkit is no Debian package, and the sandbox's PATH is
 * /usr/bin:/bin.  The harness includes assay_harness.h
 * (share/envs/nvcc), whose helpers send records (expected or produced
 * values, metrics, no GPU) to run/check on a pipe.  check (ADR 0020), no
 * candidate code in it, holds the per-run secret, runs harness-want in
 * the want stage (the expected values, computed with no candidate code
 * in the process or the stage) and then, in the run stage, harness,
 * compares, and prints the lines the judge believes (ADR 0056):
 * the result, its metrics (avg_kernel_ms ...), or that there is no GPU
 * (exit 77: the run is skipped, not failed).  No secret is compiled in.
 *
 * The static checks (cuda_launch_check(): grid and block
 * dimensions, threads per block, static and dynamic shared memory
 * against the target's limits) run in prepare(), which has the
 * candidate; their findings travel to judge() as the analyser's own
 * structs (plan->launch, each with its line, message and the quoted
 * source line).  A finding fails
 * a candidate that compiles (functional/launch-limit) unless its harness
 * passed on a real GPU.  Nothing runs here but the version query.
 */
#define _GNU_SOURCE
#include "envs/env.h"
#include "envs/nvcc.h"

#include <errno.h>
#include <pthread.h>
#include <limits.h>
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "base/buf.h"
#include "envs/element.h"
#include "lang/cuda_launch.h"
#include "model/feedback.h"

#define CAND_FILE	"candidate.cu"
#define CAND_OBJ	"candidate.o"
#define HELPER_FILE	"assay_harness.h"
#define RUN_DIR		"run"
#define CHECK_SRC	"assay_check.c"
#define STUB_SRC	"stub.s"
#define STUB_OBJ	"stub.o"
/* The harness compiled for the want run: -DASSAY_WANT_RUN=1 fixes
 * assay_want_mode() at compile time, so the candidate's run cannot turn
 * itself into a want run (issue 22: it flipped an environment variable
 * the harness read at every call). */
#define WANT_OBJ	"harness-want.o"
/* The want stage's expected values, which the run stage's checker reads
 * on ENV_INPUT_FD alone (ADR 0056); the name share/envs/nvcc/assay_check.c
 * writes. */
#define WANT_FILE	"want.rec"

/*
 * The build stage ("$1" nvcc, "$2" -arch, "$3" -DASSAY_SM, "$4" the
 * harness, "$5" the host compiler for -ccbin, empty for nvcc's own:
 * nvcc_ccbin()): the harness is compiled alone, linked once without the
 * candidate (into nothing kept) to learn which symbols only the
 * candidate can give it.  Those become a stub (each a function that
 * returns at once), and the harness linked with the stub is
 * run/harness-want, which computes the expected values with no
 * candidate code in its process.  The candidate's object keeps those
 * symbols global and no other (objcopy: a candidate that defined fwrite
 * or malloc would otherwise run inside the harness's own calls), and the
 * harness linked with it is run/harness.  run/check, assay's checker
 * (share/envs/nvcc/assay_check.c, plain C), holds the run's secret, runs
 * both and compares (ADR 0020).  No secret is compiled into anything.
 */
static const char isolate[] =
    "c=$1 a=$2 m=$3 h=$4 b=$5\n"
    "\"$c\" ${b:+-ccbin} ${b:+\"$b\"} \"$a\" -O2 \"$m\" -c \"$h\" -o harness.o"
    " || exit\n"
    "\"$c\" ${b:+-ccbin} ${b:+\"$b\"} \"$a\" -O2 \"$m\" -DASSAY_WANT_RUN=1 -c \"$h\""
    " -o " WANT_OBJ " || exit\n"
    "k=$(\"$c\" ${b:+-ccbin} ${b:+\"$b\"} \"$a\" -o harness.probe harness.o"
    " -Xlinker --no-demangle 2>&1 | sed -n \"s/.*undefined reference to \\`\\([^']*\\)'.*/\\1/p\""
    " | sort -u)\n"
    "rm -f harness.probe\n"
    "{ printf '\\t.text\\n'\n"
    "  for x in $k; do printf '\\t.globl \"%s\"\\n\\t.type \"%s\", @function\\n"
    "\"%s\":\\n\\txorl %%eax, %%eax\\n\\tret\\n' \"$x\" \"$x\" \"$x\"; done\n"
    "  printf '\\t.section .note.GNU-stack,\"\",@progbits\\n'; } > " STUB_SRC "\n"
    "as -o " STUB_OBJ " " STUB_SRC " || exit\n"
    "\"$c\" ${b:+-ccbin} ${b:+\"$b\"} \"$a\" -O2 -o " RUN_DIR "/harness-want"
    " " WANT_OBJ " " STUB_OBJ
    " || exit\n"
    "set -- --keep-global-symbol=assay_no_symbol\n"
    "for x in $k; do set -- \"$@\" \"--keep-global-symbol=$x\"; done\n"
    "objcopy \"$@\" " CAND_OBJ " || exit\n"
    "\"$c\" ${b:+-ccbin} ${b:+\"$b\"} \"$a\" -O2 -o " RUN_DIR "/harness"
    " harness.o " CAND_OBJ " || exit\n"
    "exec cc -O2 -o " RUN_DIR "/check " CHECK_SRC " -lseccomp\n";
#define SKIP_EXIT	77	/* the harness's "no GPU here" */
#define NO_GPU_EVIDENCE	"skipped: no GPU"

/* --- the toolchain ---------------------------------------------------- */

/*
 * nvcc's absolute path: /usr/local/cuda/bin/nvcc when NVIDIA's toolkit is
 * installed there (newer than Debian's), else the first on PATH (Debian
 * 12's nvidia-cuda-toolkit, CUDA 11.8, is /usr/bin/nvcc; make deps
 * installs it where there is no nvcc).  Looked up once per process.
 * NULL when there is none.
 */
static pthread_mutex_t nvcc_once = PTHREAD_MUTEX_INITIALIZER;

static const char *
nvcc_path_find(void)
{
	static char path[PATH_MAX];
	static int done;
	const char *env = getenv("PATH");
	char *dirs, *dir, *save = NULL;

	if (done)
		return path[0] != '\0' ? path : NULL;
	done = 1;
	if (access("/usr/local/cuda/bin/nvcc", X_OK) == 0) {
		snprintf(path, sizeof path, "/usr/local/cuda/bin/nvcc");
		return path;
	}
	dirs = xstrdup(env != NULL ? env : "");
	for (dir = strtok_r(dirs, ":", &save); dir != NULL;
	    dir = strtok_r(NULL, ":", &save)) {
		snprintf(path, sizeof path, "%s/nvcc", dir);
		if (dir[0] == '/' && access(path, X_OK) == 0)
			break;
		path[0] = '\0';
	}
	free(dirs);
	return path[0] != '\0' ? path : NULL;
}

/* "NVIDIA driver 550.54.15" from the kernel module, or "no NVIDIA driver":
 * part of the identity, so that a GPU that appears later reruns what was
 * skipped. */
static void
nvcc_driver(char *buf, size_t n)
{
	FILE *f = fopen("/proc/driver/nvidia/version", "r");
	char line[256], ver[64];
	const char *m;

	snprintf(buf, n, "no NVIDIA driver");
	if (f == NULL)
		return;
	if (fgets(line, sizeof line, f) != NULL &&
	    (m = strstr(line, "Kernel Module")) != NULL &&
	    sscanf(m + 13, " %63s", ver) == 1)
		snprintf(buf, n, "NVIDIA driver %s", ver);
	fclose(f);
}

/*
 * The host compiler nvcc is proven to accept, for -ccbin: "" when nvcc's
 * own choice works, else the absolute path (under /usr, which the
 * sandbox sees) of the first of hosts (C++ drivers) that does; NULL when
 * none does.
 * CUDA's crt/host_config.h refuses a GNU C++ newer than the toolkit
 * supports (Debian 12's CUDA 11.8: gcc 11 at most), and Debian's nvcc
 * looks for g++-11 ... g++-6 only, stopping with "No supported gcc/g++
 * host compiler found" where clang-14 alone is there (issue 21).  The
 * proof is nvcc preprocessing an empty CUDA file with it (-E -x cu:
 * cuda_runtime.h and its host_config.h check, well under a second), once
 * per process.
 */
static const char *
nvcc_ccbin_find(const char *nvcc)
{
	/* C++ drivers: the harness is linked by the host compiler, and
	 * clang-N (the C driver) does not link libstdc++ ("undefined
	 * reference to operator new"). */
	static const char *const hosts[] = { "g++-13", "g++-12", "g++-11",
	    "g++-10", "g++-9", "clang++-16", "clang++-15", "clang++-14",
	    "clang++-13", NULL };
	static char path[PATH_MAX];
	static int done, found;
	const char *argv[] = { "/bin/sh", "-c", NULL, NULL };
	char out[16];

	if (done)
		return found ? path : NULL;
	done = 1;
	path[0] = '\0';
	for (int i = -1; hosts[i < 0 ? 0 : i] != NULL; i++) {
		char real[PATH_MAX], *cmd;
		int rc;

		if (i >= 0) {
			snprintf(path, sizeof path, "/usr/bin/%s", hosts[i]);
			if (access(path, X_OK) != 0 ||
			    realpath(path, real) == NULL ||
			    strncmp(real, "/usr/", 5) != 0)
				continue;
		}
		cmd = xasprintf("'%s' %s%s%s -E -x cu -o /dev/null /dev/null"
		    " >/dev/null 2>&1 && echo ok", nvcc, i >= 0 ? "-ccbin '" :
		    "", i >= 0 ? path : "", i >= 0 ? "'" : "");
		argv[2] = cmd;
		rc = env_tool_version(argv, out, sizeof out);
		free(cmd);
		if (rc == 0 && strcmp(out, "ok") == 0) {
			if (i < 0)
				path[0] = '\0';
			found = 1;
			return path;
		}
	}
	path[0] = '\0';
	return NULL;
}

/* The two look-ups above, once per process whichever thread asks first
 * (the workbench's :verify judges on a thread of its own). */
static const char *
nvcc_path(void)
{
	const char *p;

	pthread_mutex_lock(&nvcc_once);
	p = nvcc_path_find();
	pthread_mutex_unlock(&nvcc_once);
	return p;
}

static const char *
nvcc_ccbin(const char *nvcc)
{
	const char *p;

	pthread_mutex_lock(&nvcc_once);
	p = nvcc_ccbin_find(nvcc);
	pthread_mutex_unlock(&nvcc_once);
	return p;
}

static int
nvcc_toolchain(char *buf, size_t n, struct err *err)
{
	const char *nvcc = nvcc_path(), *host;
	char ver[256], drv[96], *cmd;
	const char *argv[] = { "/bin/sh", "-c", NULL, NULL };
	int rc;

	if (nvcc == NULL)
		return err_set(err, "nvcc is not installed (not on PATH, no"
		    " /usr/local/cuda/bin/nvcc)");
	/* One outside /usr, which is all of the system the sandbox sees,
	 * is present but cannot run sandboxed: its smoke test says so
	 * (nvcc_smoke_hint()). */
	if (strchr(nvcc, '\'') != NULL)
		return err_set(err, "nvcc path %s has a quote", nvcc);
	/* Shell built-ins only: PATH may be anything. */
	/* The release line; anything else it said, when it has none, is
	 * the error to show. */
	cmd = xasprintf("o=$('%s' --version 2>&1); r=0; printf '%%s\\n' \"$o\" |"
	    " { while read -r l; do case $l in 'Cuda compilation tools'*)"
	    " echo \"$l\"; r=1;; esac; done; [ $r = 1 ] && exit 0;"
	    " printf '%%s\\n' \"$o\"; exit 127; }", nvcc);
	argv[2] = cmd;
	rc = env_tool_version(argv, ver, sizeof ver);
	free(cmd);
	if (rc < 0) {
		/* It is there, and does not run: broken, not missing. */
		err_set(err, "%s does not run: %s (or its --version has no"
		    " \"Cuda compilation tools, release\" line)", nvcc, ver);
		return ENV_TOOL_BROKEN;
	}
	nvcc_driver(drv, sizeof drv);
	/* The host compiler is part of the toolchain: a run made with
	 * another one (or with none that works) is another run. */
	host = nvcc_ccbin(nvcc);
	snprintf(buf, n, "%s; host compiler %s; %s", ver, host == NULL ?
	    "none accepted" : host[0] == '\0' ? "nvcc's default" : host, drv);
	return 0;
}

/* What to do when the smoke test fails, from the identity's host
 * compiler and where nvcc lives (env_ops.broken_hint). */
static void
nvcc_broken_hint(const char *identity, int sandboxed, char *buf, size_t n)
{
	const char *nvcc = nvcc_path();
	char real[PATH_MAX];

	buf[0] = '\0';
	if (sandboxed && nvcc != NULL && (realpath(nvcc, real) == NULL ||
	    strncmp(real, "/usr/", 5) != 0))
		snprintf(buf, n, "nvcc at %s is outside /usr, which is all of"
		    " the system the sandbox sees: install a CUDA toolkit under"
		    " /usr (make deps installs Debian's), or verify with"
		    " --no-sandbox", nvcc);
	else if (strstr(identity, "host compiler none accepted") != NULL)
		snprintf(buf, n, "nvcc accepts none of the host compilers here:"
		    " install one this CUDA supports (Debian's CUDA 11.8:"
		    " apt-get install g++-11; make deps does), then look again"
		    " with assay envs");
	else
		snprintf(buf, n, "try nvcc by hand on a small .cu file; make"
		    " deps installs Debian's CUDA 11.8 and g++-11, NVIDIA's"
		    " toolkit in /usr/local/cuda is used first");
}

/* --- prepare ---------------------------------------------------------- */

/* The launch limits of arch (nvcc.h): the same for every compute
 * capability nvcc 13 targets, except shared memory per block with the
 * opt-in; 0 there for a target not in the table. */
void
nvcc_limits(const char *arch, struct cuda_launch_limits *lim)
{
	static const struct {
		int		 cc;
		long long	 optin;
	} optin[] = {
		{ 70, 96 << 10 }, { 72, 96 << 10 }, { 75, 64 << 10 },
		{ 80, 163 << 10 }, { 86, 99 << 10 }, { 87, 163 << 10 },
		{ 89, 99 << 10 }, { 90, 227 << 10 }, { 100, 227 << 10 },
		{ 101, 227 << 10 }, { 103, 227 << 10 }, { 110, 227 << 10 },
		{ 120, 99 << 10 }, { 121, 99 << 10 },
	};
	int cc = env_atoi(arch + 3);

	lim->grid_x = 2147483647LL;
	lim->grid_yz = 65535;
	lim->block_xy = 1024;
	lim->block_z = 64;
	lim->threads = 1024;
	lim->smem_static = 48 << 10;
	lim->smem_optin = 0;
	for (size_t i = 0; i < sizeof optin / sizeof optin[0]; i++)
		if (optin[i].cc == cc)
			lim->smem_optin = optin[i].optin;
}

int
nvcc_arch_ok(const char *arch)
{
	regex_t re;
	int ok;

	if (regcomp(&re, "^sm_[0-9]{2,3}[af]?$", REG_EXTENDED | REG_NOSUB)
	    != 0)
		return 0;
	ok = regexec(&re, arch, 0, NULL, 0) == 0;
	regfree(&re);
	return ok;
}

/* The launch-limit findings of the candidate into plan->launch. */
static int
precheck(const char *arch, const struct candidate *c, struct env_plan *plan,
    struct err *err)
{
	struct cuda_launch_limits lim;

	nvcc_limits(arch, &lim);
	free(plan->launch);
	plan->launch = NULL;
	plan->nlaunch = 0;
	return cuda_launch_check(c->code, c->code_len, &lim, &plan->launch,
	    &plan->nlaunch, err);
}

static int
nvcc_prepare(const struct task *t, const struct candidate *c,
    const char *workdir, struct env_plan *plan, struct err *err)
{
	const char *nvcc = nvcc_path(), *host;
	char *arch = env_param_str(t, "arch");
	char *harness = env_param_str(t, "harness");
	char *archopt = NULL, *smopt = NULL;
	static const char *const reserved[] = { CAND_FILE, CAND_OBJ,
	    HELPER_FILE, "harness.o", WANT_OBJ, "harness.probe", CHECK_SRC,
	    STUB_SRC,
	    STUB_OBJ, RUN_DIR, NULL };
	int rc = -1;

	if (nvcc == NULL) {
		err_set(err, "nvcc is not installed");
		goto out;
	}
	if (arch == NULL)
		arch = xstrdup("sm_90");
	if (!nvcc_arch_ok(arch)) {
		err_set(err, "env_params.arch '%s' is not a target like sm_90",
		    arch);
		goto out;
	}
	if (harness != NULL && task_file_by_name(t, harness) == NULL) {
		err_set(err, "env_params.harness '%s' is not a task file",
		    harness);
		goto out;
	}
	plan->cand_file = xstrdup(CAND_FILE);
	plan->timeout_s = (int)env_param_int(t, "timeout_s", 120);
	if (env_write_input(plan, workdir, CAND_FILE, c->code, c->code_len,
	    err) < 0)
		goto out;
	if (env_write_task_files(plan, workdir, t, reserved, "nvcc", err) < 0)
		goto out;
	if (t->env_params != NULL)
		env_note_input(plan, "env_params", t->env_params,
		    strlen(t->env_params));
	if (precheck(arch, c, plan, err) < 0)
		goto out;

	archopt = xasprintf("-arch=%s", arch);
	/* The host compiler nvcc_toolchain() proved; none proven leaves
	 * nvcc to its own, whose error the run then shows. */
	host = nvcc_ccbin(nvcc);
	if (host == NULL)
		host = "";
	{
		const char *const compile[] = { nvcc, archopt, "-O2", "-Xptxas",
		    "-v,-warn-spills", "-c", CAND_FILE, "-o", CAND_OBJ, NULL };
		const char *const compile_cc[] = { nvcc, "-ccbin", host,
		    archopt, "-O2", "-Xptxas", "-v,-warn-spills", "-c",
		    CAND_FILE, "-o", CAND_OBJ, NULL };

		env_plan_stage(plan, "compile", host[0] != '\0' ? compile_cc :
		    compile);
	}
	if (harness != NULL) {
		size_t len, clen;
		const char *helper = env_share("nvcc/" HELPER_FILE, &len);
		const char *check = env_share("nvcc/" CHECK_SRC, &clen);

		if (helper == NULL || check == NULL) {
			err_set(err, "share/envs/nvcc/%s is not built in",
			    helper == NULL ? HELPER_FILE : CHECK_SRC);
			goto out;
		}
		if (env_write_input(plan, workdir, HELPER_FILE, helper, len,
		    err) < 0 || env_write_input(plan, workdir, CHECK_SRC,
		    check, clen, err) < 0 || env_mkdir(workdir, RUN_DIR,
		    err) < 0)
			goto out;
		/* The secret reaches run/check alone, on fd 5: it is in no
		 * binary and no process the candidate's code runs in. */
		env_nonce(plan->nonce, sizeof plan->nonce, 16, 'T');
		smopt = xasprintf("-DASSAY_SM=%d", env_atoi(arch + 3));
		{
			const char *const build[] = { "sh", "-c", isolate,
			    "build", nvcc, archopt, smopt, harness, host,
			    NULL };
			const char *const want[] = { "./check", "want", NULL };
			const char *const run[] = { "./check", "run", NULL };

			/* The three programs are sealed once built and run
			 * from hash-checked, read-only copies in areas of
			 * the later stages' own (issue 22).  The want stage
			 * holds no candidate code; its values reach the run
			 * stage's checker on a descriptor alone, never by a
			 * path or a program the candidate could open or run
			 * (ADR 0056). */
			static const char *const made[] = { RUN_DIR "/check",
			    RUN_DIR "/harness-want", RUN_DIR "/harness", NULL };
			static const char *const want_progs[] = { "check",
			    "harness-want", NULL };
			static const char *const want_made[] = { WANT_FILE,
			    NULL };
			static const char *const run_progs[] = { "check",
			    "harness", NULL };

			env_plan_stage(plan, "build", build);
			env_plan_seal(plan, made);
			env_plan_stage(plan, "want", want);
			env_plan_use(plan, want_progs);
			env_plan_seal(plan, want_made);
			plan->stages[plan->nstages - 1].gpu = 1;
			plan->stages[plan->nstages - 1].nonce_fd = 1;
			env_plan_stage(plan, "run", run);
			env_plan_use(plan, run_progs);
			env_plan_input(plan, WANT_FILE);
			plan->stages[plan->nstages - 1].gpu = 1;
			plan->stages[plan->nstages - 1].nonce_fd = 1;
			plan->stages[plan->nstages - 1].candidate = 1;
		}
	}
	rc = 0;
out:
	free(arch);
	free(harness);
	free(archopt);
	free(smopt);
	return rc;
}

/* --- judge: the compiler's messages ------------------------------------ */

/* What the compile and build logs say. */
struct nv_scan {
	int	 errors;	/* error lines in the candidate's build */
	int	 api;		/* of them, an unknown or misused CUDA API */
	char	*first;		/* the first error line (new) */
	const char *sub;	/* its subcategory */
	int	 harness;	/* errors in the harness's own source */
	char	*first_harness;
	int	 link;		/* undefined or doubly defined symbols */
	int	 link_api;	/* undefined CUDA library symbols */
	char	*first_link;
	int	 unsupported;	/* "Unsupported gpu architecture" */
	int	 oom;
	/* ptxas -v */
	int	 ptxas;		/* resource lines seen */
	long	 kernels, regs, smem, stack, spill_st, spill_ld;
	char	 kernel[128];	/* the entry function being reported */
	char	 regs_kernel[128];	/* the one using regs */
	char	 spill_kernel[128];	/* the first that spills */
};

static regex_t re_edg, re_gcc, re_tool, re_regs, re_smem, re_stack;
static pthread_once_t re_once = PTHREAD_ONCE_INIT;

static void
compile_res_once(void)
{
	/* cudafe/EDG: "candidate.cu(5): error: ..." and "... warning
	 * #177-D: ...". */
	if (regcomp(&re_edg, "^([^ (][^(]*)\\(([0-9]+)\\): (catastrophic"
	    " error|error|warning|remark|note)( #[0-9]+(-D)?)?: (.*)$",
	    REG_EXTENDED) != 0 ||
	    /* The host compiler: "candidate.cu:1:10: fatal error: ...". */
	    regcomp(&re_gcc, "^([^ :][^:]*):([0-9]+):([0-9]+): (fatal error|"
	    "error|warning|note): (.*)$", REG_EXTENDED) != 0 ||
	    /* "ptxas error   : ...", "nvlink warning : ...", "nvcc fatal". */
	    regcomp(&re_tool, "^(ptxas|nvlink|nvcc|fatbinary) +(error|warning|"
	    "fatal) *: (.*)$", REG_EXTENDED) != 0 ||
	    regcomp(&re_regs, "Used ([0-9]+) registers", REG_EXTENDED) != 0 ||
	    regcomp(&re_smem, "([0-9]+) bytes smem", REG_EXTENDED) != 0 ||
	    regcomp(&re_stack, "([0-9]+) bytes stack frame, ([0-9]+) bytes"
	    " spill stores, ([0-9]+) bytes spill loads", REG_EXTENDED) != 0)
		ASSAY_BUG("nvcc: bad regex");
}

/* The patterns, compiled once whichever thread judges first. */
static void
compile_res(void)
{
	pthread_once(&re_once, compile_res_once);
}

static long
match_long(const char *s, const regmatch_t *m)
{
	return strtol(s + m->rm_so, NULL, 10);
}

static char *
match_dup(const char *s, const regmatch_t *m)
{
	return xstrndup(s + m->rm_so, (size_t)(m->rm_eo - m->rm_so));
}

/* Does the quoted name in msg ("identifier "cudaFoo" is undefined") look
 * like CUDA's API: runtime, libraries, intrinsics, vector types? */
static int
cuda_name(const char *msg)
{
	static const char *const prefixes[] = { "cuda", "cublas", "cufft",
	    "curand", "cusparse", "cusolver", "cudnn", "cub::", "thrust::",
	    "nccl", "nvrtc", "nvcuda", "wmma", "cooperative_groups", "__",
	    "atomic", "make_", "tex1D", "tex2D", "tex3D", "surf", "warpSize" };
	const char *q = strchr(msg, '"');

	if (q == NULL)
		return 0;
	q++;
	if (q[0] == 'c' && q[1] == 'u' && q[2] >= 'A' && q[2] <= 'Z')
		return 1;	/* cuInit, cuLaunchKernel */
	for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
		if (strncmp(q, prefixes[i], strlen(prefixes[i])) == 0)
			return 1;
	return 0;
}

/* Is the header a missing-header message names one of CUDA's: "cannot
 * open source file "cuda_fp9.h"", "cuda_fp9.h: No such file ..."? */
static int
cuda_header(const char *msg)
{
	static const char *const prefixes[] = { "cu", "thrust/", "cub/",
	    "cooperative_groups", "mma.h", "nv", "sm_", "crt/", "device_",
	    "math_constants.h", "vector_types.h" };
	const char *q = strchr(msg, '"');

	q = q != NULL ? q + 1 : msg;
	while (*q == ' ' || *q == '<')
		q++;
	for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
		if (strncmp(q, prefixes[i], strlen(prefixes[i])) == 0)
			return 1;
	return 0;
}

/*
 * Triage rules (docs/triage.md), first match wins: a compile or build
 * error's subcategory.  An api rule's error is an API knowledge gap only
 * when the message names CUDA's API (cuda_name(), cuda_header()); else
 * it is compile.
 */
static const struct env_rule nvcc_rules[] = {
	{ "compile build", "is undefined", CATEGORY_API,
	  "undefined-identifier" },
	{ "compile build", "no instance of overloaded function", CATEGORY_API,
	  "argument-mismatch" },
	{ "compile build", "no instance of function template", CATEGORY_API,
	  "argument-mismatch" },
	{ "compile build", "has no member", CATEGORY_API, "no-member" },
	{ "compile build", "cannot open source file", CATEGORY_API,
	  "missing-header" },
	{ "compile build", "No such file or directory", CATEGORY_API,
	  "missing-header" },
	{ "compile build", "too many arguments", CATEGORY_COMPILE,
	  "argument-mismatch" },
	{ "compile build", "too few arguments", CATEGORY_COMPILE,
	  "argument-mismatch" },
	{ "compile build", "calling a __host__ function", CATEGORY_COMPILE,
	  "host-device" },
	{ "compile build", "calling a __device__ function", CATEGORY_COMPILE,
	  "host-device" },
	{ "compile build", "calling a __global__ function", CATEGORY_COMPILE,
	  "host-device" },
	{ "compile build", "cannot be used to initialize", CATEGORY_COMPILE,
	  "type-mismatch" },
	{ "compile build", "argument of type", CATEGORY_COMPILE,
	  "type-mismatch" },
	{ "compile build", "a value of type", CATEGORY_COMPILE,
	  "type-mismatch" },
	{ "compile build", "expected a", CATEGORY_COMPILE, "syntax-error" },
	{ "compile build", "expected an", CATEGORY_COMPILE, "syntax-error" },
	{ "compile build", "unrecognized token", CATEGORY_COMPILE,
	  "syntax-error" },
	{ "compile build", "too much shared data", CATEGORY_COMPILE,
	  "shared-memory-limit" },
	{ "compile build", "too many resources", CATEGORY_COMPILE,
	  "register-limit" },
};
#define NVCC_NRULES (sizeof nvcc_rules / sizeof nvcc_rules[0])

/* A subcategory for an error message; *api says when it is CUDA's API
 * that the candidate does not know. */
static const char *
error_sub(const char *msg, int *api)
{
	const struct env_rule *rule = env_rule_find(nvcc_rules, NVCC_NRULES,
	    "compile", msg);

	*api = 0;
	if (rule == NULL)
		return "other";
	if (strcmp(rule->subcategory, "missing-header") == 0)
		*api = cuda_header(msg);
	else
		*api = rule->category == CATEGORY_API && cuda_name(msg);
	return rule->subcategory;
}

/* The error line of the candidate's build, counted and remembered. */
static void
note_error(struct nv_scan *s, const char *line, const char *msg)
{
	int api;
	const char *sub = error_sub(msg, &api);

	s->errors++;
	s->api += api;
	if (s->first == NULL) {
		s->first = xstrdup(line);
		s->sub = sub;
	}
}

/* ptxas' resource report: "Used 12 registers, used 0 barriers, 1024
 * bytes smem", "0 bytes stack frame, 0 bytes spill stores, ...". */
static void
scan_ptxas(struct nv_scan *s, const char *line)
{
	regmatch_t m[4];
	const char *q;

	/* Only ptxas' own lines: a #pragma message could say the same. */
	if (strncmp(line, "ptxas info", 10) != 0 &&
	    strncmp(line, "    ", 4) != 0)
		return;
	if (strncmp(line, "ptxas info", 10) == 0 &&
	    (q = strstr(line, "Compiling entry function '")) != NULL) {
		q += 26;
		s->kernels++;
		snprintf(s->kernel, sizeof s->kernel, "%.*s",
		    (int)strcspn(q, "'"), q);
	}
	if (strncmp(line, "ptxas info", 10) == 0 &&
	    regexec(&re_regs, line, 2, m, 0) == 0) {
		s->ptxas = 1;
		if (match_long(line, &m[1]) > s->regs) {
			s->regs = match_long(line, &m[1]);
			memcpy(s->regs_kernel, s->kernel, sizeof s->kernel);
		}
		if (regexec(&re_smem, line, 2, m, 0) == 0 &&
		    match_long(line, &m[1]) > s->smem)
			s->smem = match_long(line, &m[1]);
	}
	if (regexec(&re_stack, line, 4, m, 0) == 0) {
		s->ptxas = 1;
		if (match_long(line, &m[1]) > s->stack)
			s->stack = match_long(line, &m[1]);
		if (s->spill_kernel[0] == '\0' && match_long(line, &m[2]) +
		    match_long(line, &m[3]) > 0)
			memcpy(s->spill_kernel, s->kernel, sizeof s->kernel);
		s->spill_st += match_long(line, &m[2]);
		s->spill_ld += match_long(line, &m[3]);
	}
}

/*
 * One stage's log (compile: build == 0; build: 1) into diagnostics and
 * s.  In the build, messages of the harness's source are the task's, not
 * the candidate's; link errors name what the two do not agree on.
 */
static void
scan_log(const struct env_plan *plan, const char *log, size_t len,
    int build, struct nv_scan *s, struct run *r)
{
	const char *p = log, *end = log + len;
	regmatch_t m[8];

	compile_res();
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl != NULL ? (size_t)(nl - p) : (size_t)(end - p);
		char *line = xstrndup(p, l);
		size_t ll = strlen(line);
		const char *u;

		p += l + (nl != NULL);
		while (ll > 0 && line[ll - 1] == '\r')
			line[--ll] = '\0';
		/* A tool's message, not a source line it quotes (those
		 * are indented). */
		if (line[0] != ' ' && line[0] != '\t' &&
		    (strstr(line, "out of memory") != NULL ||
		    strstr(line, "bad_alloc") != NULL))
			s->oom++;
		if (regexec(&re_edg, line, 7, m, 0) == 0 ||
		    regexec(&re_gcc, line, 6, m, 0) == 0) {
			int edg = line[m[1].rm_eo] == '(';
			char *file = match_dup(line, &m[1]);
			char *sev = match_dup(line, &m[edg ? 3 : 4]);
			const char *msg = line + m[edg ? 6 : 5].rm_so;
			int lineno = (int)match_long(line, &m[2]);
			int in_cand = strcmp(file, plan->cand_file) == 0;
			int err = strstr(sev, "error") != NULL;

			if (in_cand || err)
				run_add_diag(r, file, lineno, 0, err ? "error" :
				    strcmp(sev, "warning") == 0 ? "warning" :
				    "note", msg, in_cand ? lineno : 0);
			if (err && build && !in_cand) {
				s->harness++;
				if (s->first_harness == NULL)
					s->first_harness = xstrdup(line);
			} else if (err) {
				note_error(s, line, msg);
			}
			free(file);
			free(sev);
		} else if (regexec(&re_tool, line, 4, m, 0) == 0) {
			const char *msg = line + m[3].rm_so;
			int err = line[m[2].rm_so] != 'w';

			run_add_diag(r, "", 0, 0, err ? "error" : "warning", msg,
			    0);
			if (strstr(msg, "Unsupported gpu architecture") != NULL ||
			    strstr(msg, "is not defined for option") != NULL)
				s->unsupported++;
			else if (err && strncmp(line, "nvlink", 6) == 0 &&
			    build) {
				s->link++;
				if (s->first_link == NULL)
					s->first_link = xstrdup(line);
			} else if (err) {
				note_error(s, line, msg);
			}
		} else if ((u = strstr(line, "undefined reference to `")) !=
		    NULL || (u = strstr(line, "multiple definition of `")) !=
		    NULL) {
			int undef = u[0] == 'u';
			const char *name = strchr(u, '`') + 1;

			run_add_diag(r, "", 0, 0, "error", u, 0);
			s->link++;
			if (undef && (strncmp(name, "cu", 2) == 0 ||
			    strncmp(name, "nccl", 4) == 0))
				s->link_api++;
			if (s->first_link == NULL)
				s->first_link = xstrdup(u);
		} else if (!build) {
			scan_ptxas(s, line);
		}
		free(line);
	}
}

/* --- judge: the harness's lines ----------------------------------------- */

/* What the run stage's tagged lines say. */
struct nv_run {
	int	 pass;		/* "NONCE result pass" */
	int	 fail;		/* "NONCE result fail SUB: detail" */
	char	 sub[32];
	char	*detail;	/* new */
	int	 no_gpu;	/* "NONCE no-gpu: why" */
	char	*why;		/* new */
	char	*harness_error;	/* "NONCE harness-error: why" (new) */
	char	*last;		/* the last untagged line, for a crash (new) */
	json_t	*cex;		/* "NONCE counterexample ..." (new) */
};

/* A finite number as a JSON real, else its "nan"/"inf"/"-inf" string. */
static json_t *
json_num(double v)
{
	if (isfinite(v))
		return json_real(v);
	return json_string(isnan(v) ? "nan" : v > 0 ? "inf" : "-inf");
}

/*
 * The checker's "counterexample array=K of=M index=I got=G want=W
 * atol=A rtol=R bad=B n=N" (assay_check.c) as element.h's object; NULL
 * when the line is not exactly that.
 */
static json_t *
cex_line(const char *q)
{
	unsigned long k, m, i, b, n;
	double g, w, at, rt;
	int end = -1;
	json_t *o;

	if (sscanf(q, "counterexample array=%lu of=%lu index=%lu got=%lf"
	    " want=%lf atol=%lf rtol=%lf bad=%lu n=%lu%n", &k, &m, &i, &g, &w,
	    &at, &rt, &b, &n, &end) != 9 || end < 0 || q[end] != '\0' ||
	    k < 1 || k > m || i >= n || b > n)
		return NULL;
	o = json_object();
	if (m > 1)
		json_object_set_new(o, "array", json_integer((json_int_t)k));
	json_object_set_new(o, "index", json_integer((json_int_t)i));
	json_object_set_new(o, "reference", json_num(w));
	json_object_set_new(o, "candidate", json_num(g));
	json_object_set_new(o, "abs_diff", json_num(fabs(g - w)));
	json_object_set_new(o, "atol", json_num(at));
	json_object_set_new(o, "rtol", json_num(rt));
	json_object_set_new(o, "tolerance", json_num(at + rt * fabs(w)));
	json_object_set_new(o, "mismatches", json_integer((json_int_t)b));
	json_object_set_new(o, "elements", json_integer((json_int_t)n));
	return o;
}

static int
metric_name(const char *s, size_t n)
{
	if (n == 0 || n > 48)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' &&
		    s[i] <= '9') || s[i] == '_'))
			return 0;
	return 1;
}

/* The harness's result and metrics from the run stage's log. */
static void
scan_run(const struct env_plan *plan, const char *log, size_t len,
    struct nv_run *o, json_t *metrics)
{
	const char *p = log, *end = log + len;
	size_t nl_len = strlen(plan->nonce);

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl != NULL ? (size_t)(nl - p) : (size_t)(end - p);
		char *line = xstrndup(p, l);
		size_t ll = strlen(line);
		const char *q;

		p += l + (nl != NULL);
		while (ll > 0 && (line[ll - 1] == '\r' || line[ll - 1] == ' '))
			line[--ll] = '\0';
		if (nl_len == 0 || strncmp(line, plan->nonce, nl_len) != 0 ||
		    line[nl_len] != ' ') {
			if (ll > 0) {
				free(o->last);
				o->last = xstrdup(line);
			}
			free(line);
			continue;
		}
		q = line + nl_len + 1;
		if (strcmp(q, "result pass") == 0) {
			o->pass = 1;
		} else if (strncmp(q, "result fail", 11) == 0) {
			const char *s = q + 11, *colon;
			size_t sl;

			o->fail = 1;
			while (*s == ' ')
				s++;
			colon = strchr(s, ':');
			sl = colon != NULL ? (size_t)(colon - s) : strlen(s);
			snprintf(o->sub, sizeof o->sub, "%.*s", (int)sl, s);
			free(o->detail);
			o->detail = xstrdup(colon != NULL ? colon + 1 +
			    (colon[1] == ' ') : s);
		} else if (strncmp(q, "counterexample ", 15) == 0) {
			if (o->cex == NULL)
				o->cex = cex_line(q);
		} else if (strncmp(q, "harness-error:", 14) == 0) {
			free(o->harness_error);
			o->harness_error = xstrdup(q + 14 + (q[14] == ' '));
		} else if (strncmp(q, "no-gpu:", 7) == 0) {
			o->no_gpu = 1;
			free(o->why);
			o->why = xstrdup(q + 7 + (q[7] == ' '));
		} else if (strncmp(q, "metric ", 7) == 0) {
			const char *name = q + 7, *sp = strchr(name, ' ');
			char *endp, *key;
			double v;

			if (sp != NULL && metric_name(name, (size_t)(sp - name))) {
				v = strtod(sp + 1, &endp);
				if (endp != sp + 1 && *endp == '\0' && isfinite(v)) {
					key = xstrndup(name, (size_t)(sp - name));
					json_object_set_new(metrics, key,
					    json_real(v));
					free(key);
				}
			}
		}
		free(line);
	}
	/* Only these, so that the harness cannot invent categories. */
	if (o->fail && strcmp(o->sub, "mismatch") != 0 &&
	    strcmp(o->sub, "launch-error") != 0 &&
	    strcmp(o->sub, "runtime-error") != 0)
		snprintf(o->sub, sizeof o->sub, "mismatch");
}

/* --- judge ------------------------------------------------------------- */

/*
 * Resident warps per multiprocessor of compute capability cc (CUDA C++
 * Programming Guide, "Compute Capabilities", technical specifications):
 * 64, but 32 on 7.5 and 48 on 8.6, 8.7, 8.9 and 12.x.  Every target nvcc
 * 13 builds for has 64 K 32-bit registers per multiprocessor, at most
 * 255 a thread, allocated 256 a warp.
 */
#define NV_REGS_PER_SM	65536
#define NV_REGS_MAX	255
#define NV_REG_UNIT	256
static int
nv_max_warps(int cc)
{
	if (cc == 75)
		return 32;
	if (cc == 86 || cc == 87 || cc == 89 || (cc >= 120 && cc < 130))
		return 48;
	return 64;
}

/*
 * ptxas' report against the target's limits as the feedback member
 * "bottleneck" (information: no GPU times the kernel here): the
 * kernel using most registers and the warps a multiprocessor can hold
 * with that many (occupancy by registers alone: the block size and
 * shared memory can only lower it), spills to local memory, static
 * shared memory against the 48 KiB a block gets without the opt-in.
 * Its first line names what limits first: spills, then occupancy under
 * a half, else that neither does.  gpu: a GPU ran the harness (its
 * times are the run's metrics), else nothing was timed.
 */
static void
set_bottleneck(const struct task *t, const struct nv_scan *s, int gpu,
    struct run *r)
{
	char *arch = env_param_str(t, "arch");
	const char *a = arch != NULL ? arch : "sm_90";
	int cc = env_atoi(a + 3), maxw = nv_max_warps(cc), warps;
	long per_warp = (s->regs * 32 + NV_REG_UNIT - 1) / NV_REG_UNIT *
	    NV_REG_UNIT;
	double occ;
	struct buf b = BUF_INIT;
	json_t *o;

	warps = per_warp > 0 ? (int)(NV_REGS_PER_SM / per_warp) : maxw;
	if (warps > maxw)
		warps = maxw;
	occ = (double)warps / maxw;
	if (s->spill_st + s->spill_ld > 0)
		buf_printf(&b, "register spills: %ld bytes stored and %ld"
		    " loaded to local memory (%s first; %ld registers a"
		    " thread)", s->spill_st, s->spill_ld, s->spill_kernel,
		    s->regs);
	else if (occ < 0.5)
		buf_printf(&b, "registers: %s uses %ld a thread: %d of %d"
		    " warps fit an SM (%.0f %% occupancy, %s)",
		    s->regs_kernel, s->regs, warps, maxw, 100 * occ, a);
	else
		buf_printf(&b, "no resource limit: at most %ld registers a"
		    " thread (%d of %d warps an SM, %.0f %% occupancy), no"
		    " spills, %s", s->regs, warps, maxw, 100 * occ, a);
	buf_printf(&b, "\nptxas, %s: %ld kernel%s; most registers: %ld of %d"
	    " a thread (%s)\nspills: %ld bytes stored, %ld loaded; static"
	    " shared memory: %ld of %d bytes a block; stack: %ld bytes\n%s",
	    a, s->kernels,
	    s->kernels == 1 ? "" : "s", s->regs, NV_REGS_MAX,
	    s->regs_kernel[0] != '\0' ? s->regs_kernel : "-", s->spill_st,
	    s->spill_ld, s->smem, 48 << 10, s->stack, gpu ? "(the"
	    " harness's times on the GPU are the run's metrics)" : "(no GPU"
	    " ran it: nothing was timed)");
	o = json_pack("{s:s, s:s, s:i, s:i, s:i, s:i, s:f, s:i, s:i, s:i,"
	    " s:i, s:b}", "by", "ptxas", "arch", a, "registers",
	    (int)s->regs, "max_registers", NV_REGS_MAX, "warps", warps,
	    "max_warps", maxw, "occupancy", (double)(long)(occ * 1000 + 0.5) /
	    1000, "spill_stores", (int)s->spill_st, "spill_loads",
	    (int)s->spill_ld, "smem_bytes", (int)s->smem, "smem_limit",
	    48 << 10, "timed", gpu);
	if (s->regs_kernel[0] != '\0')
		json_object_set_new(o, "kernel", json_string(s->regs_kernel));
	feedback_set(r, "bottleneck", o, buf_str(&b));
	buf_release(&b);
	free(arch);
}

static void
set_metrics(struct run *r, json_t *m)
{
	free(r->metrics);
	r->metrics = json_object_size(m) > 0 ? json_dumps(m, JSON_COMPACT |
	    JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(6)) : NULL;
}

static void
fail(struct run *r, const char *stage, const char *category,
    const char *sub, const char *evidence)
{
	env_set(&r->stage, stage);
	env_verdict(r, VERDICT_FAIL, category_from_name(category), sub,
	    evidence);
}

/* A stage that ran out of memory or disk, or died of a signal. */
static int
judge_resources(const struct env_stage_result *res, const struct nv_scan *s,
    enum env_stop stop, const char *stage, const char *category,
    struct run *r)
{
	if (stop == ENV_STOP_DISK || res->exit_code == 128 + 25 || s->oom) {
		fail(r, stage, category, "resource-limit", stop == ENV_STOP_DISK
		    ? "the work directory passed its size cap" :
		    res->exit_code == 128 + 25 ? "a file passed the file-size"
		    " limit" : "the compiler ran out of memory");
		return 1;
	}
	return 0;
}

/*
 * A stage of nvcc's that failed on a log naming no file of the run's
 * (the candidate's, or the harness's in the build): the toolchain's
 * fault, never the candidate's or the task's (issue 21).  Debian's nvcc
 * with no host compiler it accepts, or crt/host_config.h refusing the
 * one it found, fail so on every input.  env-error/toolchain-error with
 * the tool's first error line as the evidence; 1 when judged so.
 */
static int
judge_toolchain(const char *stage, const struct env_stage_result *res,
    const char *const *names, struct run *r)
{
	size_t len;
	const char *out = env_stage_output(res->log, res->log_len, &len);
	char *ev;

	for (size_t i = 0; names[i] != NULL; i++)
		if (memmem(out, len, names[i], strlen(names[i])) != NULL)
			return 0;
	ev = env_first_error(res->log, res->log_len);
	env_set(&r->stage, stage);
	env_verdict(r, VERDICT_ENV_ERROR, CATEGORY_NONE, "toolchain-error",
	    ev != NULL ? ev : "nvcc failed without an error message");
	free(ev);
	return 1;
}

static void
judge_compile(const struct env_plan *plan, const struct nv_scan *s,
    const struct env_stage_result *res, struct run *r)
{
	const char *const names[] = { plan->cand_file, NULL };
	char *ev;

	if (res->exit_code == 127) {
		env_set(&r->stage, "compile");
		env_verdict(r, VERDICT_ENV_ERROR, CATEGORY_NONE,
		    "toolchain-missing", NULL);
		return;
	}
	if (s->unsupported > 0) {
		/* The task asks for a target this nvcc does not have. */
		env_set(&r->stage, "compile");
		env_verdict(r, VERDICT_ENV_ERROR, CATEGORY_NONE,
		    "unsupported-arch",
		    r->ndiags > 0 ? r->diags[0].message : NULL);
		return;
	}
	if (res->exit_code < 128 && judge_toolchain("compile", res, names, r))
		return;
	if (res->exit_code > 128 && s->errors == 0) {
		/* 128 + N is a signal's or an exit status of that value
		 * (nvcc exits 255 when a stage of its own dies): quote what
		 * it said when it said anything. */
		ev = env_first_error(res->log, res->log_len);
		if (ev == NULL)
			ev = xasprintf("nvcc ended with status %d (signal %d?)",
			    res->exit_code, res->exit_code - 128);
		env_set(&r->stage, "compile");
		env_verdict(r, VERDICT_ENV_ERROR, CATEGORY_NONE,
		    "toolchain-crash", ev);
		free(ev);
		return;
	}
	/* compile before api (design.md section 3): api only when every
	 * error is about CUDA's API. */
	ev = s->first != NULL ? NULL : env_first_error(res->log, res->log_len);
	fail(r, "compile", s->errors > 0 && s->api == s->errors ? "api" :
	    "compile", s->errors > 0 && s->api == s->errors ? "undefined-api" :
	    s->sub != NULL ? s->sub : "other", s->first != NULL ? s->first :
	    ev != NULL ? ev : "nvcc failed without an error message");
	free(ev);
	if (s->errors > 0 && s->api == s->errors && s->sub != NULL &&
	    strcmp(s->sub, "undefined-identifier") != 0)
		env_set(&r->subcategory, strcmp(s->sub, "missing-header") == 0 ?
		    "missing-header" : "misused-api");
}

static void
judge_build(const struct task *t, const struct env_plan *plan,
    const struct nv_scan *s, const struct env_stage_result *res,
    struct run *r)
{
	char *harness = env_param_str(t, "harness");
	const char *const names[] = { plan->cand_file, CAND_OBJ,
	    harness != NULL ? harness : plan->cand_file, NULL };
	int tool = res->exit_code < 128 &&
	    judge_toolchain("build", res, names, r);

	free(harness);
	if (tool)
		return;
	if (s->harness > 0) {
		/* The harness does not compile: every candidate would fail
		 * alike.  The task is at fault. */
		env_set(&r->stage, "build");
		env_verdict(r, VERDICT_TASK_DEFECT, CATEGORY_NONE,
		    "harness-error", s->first_harness);
		return;
	}
	if (s->link > 0) {
		fail(r, "build", s->link == s->link_api ? "api" : "compile",
		    s->link == s->link_api ? "undefined-api" :
		    "interface-mismatch", s->first_link);
		return;
	}
	if (s->errors > 0) {
		fail(r, "build", "compile", s->sub, s->first);
		return;
	}
	env_set(&r->stage, "build");
	env_verdict(r, VERDICT_ENV_ERROR, CATEGORY_NONE,
	    res->exit_code > 128 ? "toolchain-crash" : "build-failed", NULL);
}

/* The static findings as diagnostics, errors when they decide. */
static void
add_findings(const struct env_plan *plan, const struct cuda_launch_issue *f, size_t n,
    const char *sev, struct run *r)
{
	for (size_t i = 0; i < n; i++)
		run_add_diag(r, plan->cand_file, f[i].line, 0, sev, f[i].msg,
		    f[i].line);
}

static void
judge_findings(const struct env_plan *plan, const struct cuda_launch_issue *f,
    const char *symptom, struct run *r)
{
	char *ev = xasprintf("%s:%d: %s: \"%s\"%s%s", plan->cand_file,
	    f[0].line, f[0].msg, f[0].quote, symptom != NULL ? "; symptom: " :
	    "", symptom != NULL ? symptom : "");

	fail(r, "limits", "functional", "launch-limit", ev);
	r->evidence_line = f[0].line;
	free(ev);
}

/*
 * The checker's stage (stage: "want", no candidate code in it, or
 * "run") from its tagged lines o and its exit.  Only the run stage can
 * pass or fail the candidate; the want stage ends in no-gpu or in the
 * harness's own error (ADR 0056).
 */
static void
judge_run(const struct env_plan *plan, const struct env_stage_result *res,
    const char *stage, const struct nv_run *o,
    const struct cuda_launch_issue *f, size_t nf, struct run *r)
{
	int want = strcmp(stage, "want") == 0;
	char *ev;

	if (!want && o->pass && res->exit_code == 0) {
		/* A real GPU ran it and the harness checked it: that beats
		 * what the static check thought. */
		env_set(&r->stage, stage);
		env_verdict(r, VERDICT_PASS, CATEGORY_NONE, NULL, NULL);
		add_findings(plan, f, nf, "warning", r);
		return;
	}
	if (o->harness_error != NULL) {
		/* The harness failed with no candidate in its process: no
		 * expected values, nothing to judge the candidate by. */
		env_set(&r->stage, stage);
		env_verdict(r, VERDICT_ENV_ERROR, CATEGORY_NONE, "harness-error",
		    o->harness_error);
		return;
	}
	if (o->no_gpu && res->exit_code == SKIP_EXIT) {
		run_add_diag(r, "", 0, 0, "note", o->why != NULL ? o->why :
		    "no GPU", 0);
		if (nf > 0) {
			add_findings(plan, f, nf, "error", r);
			judge_findings(plan, f, NULL, r);
			return;
		}
		env_set(&r->stage, stage);
		env_verdict(r, VERDICT_SKIPPED, CATEGORY_NONE, "no-gpu",
		    NO_GPU_EVIDENCE);
		return;
	}
	if (want) {
		/* No candidate code ran: whatever ended it is the task's. */
		ev = xasprintf("the checker of the harness without the"
		    " candidate %s without its values (exit %d)%s%s",
		    res->exit_code > 128 ? "died" : "ended", res->exit_code,
		    o->last != NULL ? ": " : "", o->last != NULL ? o->last :
		    "");
		env_set(&r->stage, stage);
		env_verdict(r, VERDICT_ENV_ERROR, CATEGORY_NONE, "harness-error",
		    ev);
		free(ev);
		return;
	}
	if (o->fail)
		ev = xstrdup(o->detail != NULL ? o->detail : "the harness"
		    " found the result wrong");
	else if (res->exit_code == 0)
		ev = xstrdup("the harness exited without its result line (did"
		    " the candidate exit?)");
	else if (res->exit_code > 128)
		ev = xasprintf("the harness died of signal %d%s%s",
		    res->exit_code - 128, o->last != NULL ? ": " : "",
		    o->last != NULL ? o->last : "");
	else
		ev = xasprintf("the harness exited %d without its result"
		    " line%s%s", res->exit_code, o->last != NULL ? ": " : "",
		    o->last != NULL ? o->last : "");
	if (nf > 0) {
		add_findings(plan, f, nf, "error", r);
		judge_findings(plan, f, ev, r);
	} else {
		fail(r, stage, "functional", o->fail ? o->sub :
		    res->exit_code == 0 ? "no-result-line" : "runtime-error",
		    ev);
	}
	free(ev);
	/* The checker's first value out of tolerance. */
	if (o->fail && strcmp(o->sub, "mismatch") == 0 && o->cex != NULL)
		element_counterexample(r, json_incref(o->cex), "reference");
}

static void
nvcc_judge(const struct task *t, const struct env_plan *plan,
    const struct env_stage_result *res, size_t nres, enum env_stop stop,
    struct run *r)
{
	struct nv_scan s = { 0 };
	struct nv_run o = { 0 };
	const struct cuda_launch_issue *f = plan->launch;
	size_t nf = plan->nlaunch;
	json_t *m = json_object();
	const char *stage;

	if (nres == 0) {
		env_verdict(r, VERDICT_ENV_ERROR, CATEGORY_NONE, NULL, NULL);
		goto out;
	}
	scan_log(plan, res[0].log, res[0].log_len, 0, &s, r);
	if (s.ptxas) {
		json_object_set_new(m, "kernels", json_integer(s.kernels));
		json_object_set_new(m, "registers", json_integer(s.regs));
		json_object_set_new(m, "smem_bytes", json_integer(s.smem));
		json_object_set_new(m, "stack_bytes", json_integer(s.stack));
		json_object_set_new(m, "spill_stores", json_integer(s.spill_st));
		json_object_set_new(m, "spill_loads", json_integer(s.spill_ld));
	}
	if (nres >= 2)
		scan_log(plan, res[1].log, res[1].log_len, 1, &s, r);
	/* The checker's stage that ended the run: want (no candidate
	 * code) or run (ADR 0056). */
	if (nres >= 3)
		scan_run(plan, res[nres - 1].log, res[nres - 1].log_len, &o, m);
	if (s.ptxas && res[0].exit_code == 0)
		set_bottleneck(t, &s, nres >= 3 && !o.no_gpu, r);
	stage = nres == 1 ? "compile" : nres == 2 ? "build" : nres == 3 ?
	    "want" : "run";
	if (env_judge_limits(stop, res[nres - 1].exit_code, nres >= 3 ?
	    "functional" : "compile", nres == 3 ? "the harness without the"
	    " candidate" : nres >= 4 ? "the harness" : "the compiler", r)) {
		env_set(&r->stage, stage);
		/* No candidate code ran in the want stage: its limit is the
		 * task's, never the candidate's fail or timeout. */
		if (nres == 3)
			env_verdict(r, VERDICT_ENV_ERROR, CATEGORY_NONE,
			    "harness-error", r->evidence);
		goto out;
	}
	if (nres <= 2 && res[nres - 1].exit_code != 0 &&
	    judge_resources(&res[nres - 1], &s, stop, stage, "compile", r))
		goto out;
	if (res[0].exit_code != 0) {
		add_findings(plan, f, nf, "error", r);
		judge_compile(plan, &s, &res[0], r);
		goto out;
	}
	if (nres >= 2 && res[1].exit_code != 0) {
		add_findings(plan, f, nf, "error", r);
		judge_build(t, plan, &s, &res[1], r);
		goto out;
	}
	if (stop == ENV_STOP_DISK) {
		fail(r, stage, "functional", "resource-limit", "the work"
		    " directory passed its size cap");
		goto out;
	}
	if (nres >= 3) {
		judge_run(plan, &res[nres - 1], stage, &o, f, nf, r);
		goto out;
	}
	if (nf > 0) {
		add_findings(plan, f, nf, "error", r);
		judge_findings(plan, f, NULL, r);
		goto out;
	}
	/* No harness: compiling for the target is the whole check. */
	env_set(&r->stage, "compile");
	env_verdict(r, VERDICT_PASS, CATEGORY_NONE, NULL, NULL);
out:
	/* the linker names an undefined symbol at every call site, nvcc
	 * repeats an error for each pass */
	env_diags_dedup(r);
	set_metrics(r, m);
	json_decref(m);
	free(s.first);
	free(s.first_harness);
	free(s.first_link);
	free(o.detail);
	free(o.why);
	free(o.harness_error);
	free(o.last);
	json_decref(o.cex);
}

const struct env_ops env_nvcc = {
	.name = "nvcc",
	.domain = "gpu",
	.lang = "cuda",
	.packages = NULL,
	.without_gpu = "compiles for the target, ptxas' registers and shared"
	    " memory, the static launch-limit checks; the run is skipped: no"
	    " GPU",
	.missing_hint = "nvcc comes with NVIDIA's CUDA toolkit, which Debian"
	    " main does not package: install it under /usr (e.g."
	    " /usr/local/cuda, looked for when nvcc is not on PATH); running"
	    " the harness also needs an NVIDIA GPU and driver, else runs are"
	    " skipped",
	.toolchain = nvcc_toolchain,
	.broken_hint = nvcc_broken_hint,
	.prepare = nvcc_prepare,
	.rules = nvcc_rules,
	.nrules = NVCC_NRULES,
	.judge = nvcc_judge,
};
