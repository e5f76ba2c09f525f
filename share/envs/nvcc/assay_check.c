/*
 * assay_check.c - the checker of an nvcc task's harness (assay,
 * docs/envs/nvcc.md, ADR 0020, ADR 0056).  Built by the env's build
 * stage with the host compiler, from this file alone (no CUDA, no
 * candidate code):
 *   cc -O2 -o run/check assay_check.c -lseccomp
 * and run twice, each time in a stage of its own, with the run's SECRET
 * and a newline on fd 5 (a pipe):
 *   ./check want 5<SECRET          the want stage: its area holds check
 *                                  and harness-want, no candidate code
 *   ./check run 5<SECRET 6<WANT    the run stage: its area holds check
 *                                  and harness; fd 6 is the want
 *                                  stage's want.rec, which no path of
 *                                  the stage names
 *
 * Each mode runs one build of the task's harness as a child with the
 * records pipe on fd 3 (assay_harness.h writes there); which run a
 * binary is was fixed when it was compiled (ASSAY_WANT_RUN), never read
 * from anything its process can change:
 *   ./harness-want   (want) the harness linked with a stub in place of
 *                    the candidate (no candidate code): its
 *                    assay_expect_close() sends the expected values the
 *                    harness computed, which go to want.rec (the
 *                    records, each array at its tolerances, then pass),
 *                    sealed by assay after the stage;
 *   ./harness        (run) the harness linked with the candidate: it
 *                    sends what the candidate produced.
 * In the run stage the checker reads want.rec whole from fd 6 and closes
 * it before the candidate's run starts: the candidate's process never
 * holds it, and there is no harness-want to run (issue 22, ADR 0056).
 * Then it compares each array the candidate's run sent with the one the
 * want run sent, at the want run's tolerances, and prints the only lines
 * the judge believes, each starting with SECRET:
 *   SECRET no-gpu: WHY            then exit 77 (want)
 *   SECRET harness-error: WHY     then exit 3 (the harness failed with
 *                                 no candidate in it, or its values did
 *                                 not reach the run stage)
 *   SECRET metric NAME VALUE      (run: the candidate's run's own numbers)
 *   SECRET counterexample array=K of=M index=I got=G want=W atol=A
 *          rtol=R bad=B n=N      (run, before a mismatch: the first value
 *                                 out of tolerance, as compared here)
 *   SECRET result pass            then exit 0 (run)
 *   SECRET result fail SUB: WHY   then exit 1 (run)
 * The want stage exits 0 with no tagged line when want.rec is written.
 * The secret is in no binary and in no process that runs candidate code;
 * this process is undumpable, and the candidate's runs under a seccomp
 * filter that lets them signal only themselves.  What the harnesses
 * print comes back marked, after the result.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/sockios.h>
#include <seccomp.h>

#define CHECK_EXPECTS	64		/* arrays a harness may compare */
#define CHECK_BYTES	(1UL << 30)	/* bytes of arrays, in all */
#define CHECK_LINE	1024		/* bytes of a record's line */
#define CHECK_SHOWN	8192		/* bytes of a harness's output shown */
#define WANT_FD		6		/* want.rec, in the run stage */
#define WANT_FILE	"want.rec"	/* written by the want stage */

static char secret[64];

struct expect {
	size_t	 n;
	double	 atol, rtol;
	float	*v;
};

/* What one run of a harness sent, and how it ended. */
struct outcome {
	int		 pass, fail, no_gpu, bad;
	char		 sub[32], why[512];
	struct expect	 ex[CHECK_EXPECTS];
	size_t		 nex, bytes;
	char		 metrics[4096];	/* "NAME VALUE\n" lines */
	int		 status;	/* waitpid's */
};

static void
say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void
say(const char *fmt, ...)
{
	va_list ap;

	printf("%s ", secret);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

/* The candidate's process and its children may signal only themselves
 * (a filter added to the sandbox's own).  Exits 126 when it cannot. */
static void
child_filter(void)
{
	scmp_filter_ctx f = seccomp_init(SCMP_ACT_ALLOW);
	scmp_datum_t me = (scmp_datum_t)getpid();
	const int self[] = { SCMP_SYS(kill), SCMP_SYS(tgkill),
	    SCMP_SYS(rt_sigqueueinfo), SCMP_SYS(rt_tgsigqueueinfo) };
	const char *const never[] = { "tkill", "pidfd_open",
	    "pidfd_send_signal", "pidfd_getfd" };
	const unsigned long fcntls[] = { F_SETOWN, F_SETOWN_EX, F_SETSIG };
	const unsigned long ioctls[] = { FIOSETOWN, SIOCSPGRP };
	int rc = f == NULL ? -1 : 0;

	for (size_t i = 0; rc == 0 && i < sizeof self / sizeof self[0]; i++)
		rc = seccomp_rule_add(f, SCMP_ACT_ERRNO(EPERM), self[i], 1,
		    SCMP_A0(SCMP_CMP_NE, me));
	for (size_t i = 0; rc == 0 && i < sizeof never / sizeof never[0];
	    i++) {
		int nr = seccomp_syscall_resolve_name(never[i]);

		if (nr != __NR_SCMP_ERROR)
			rc = seccomp_rule_add(f, SCMP_ACT_ERRNO(EPERM), nr, 0);
	}
	for (size_t i = 0; rc == 0 && i < 3; i++)
		rc = seccomp_rule_add(f, SCMP_ACT_ERRNO(EPERM),
		    SCMP_SYS(fcntl), 1, SCMP_A1(SCMP_CMP_EQ, fcntls[i]));
	for (size_t i = 0; rc == 0 && i < 2; i++)
		rc = seccomp_rule_add(f, SCMP_ACT_ERRNO(EPERM),
		    SCMP_SYS(ioctl), 1, SCMP_A1(SCMP_CMP_EQ, ioctls[i]));
	if (rc != 0 || seccomp_load(f) != 0)
		_exit(126);
	seccomp_release(f);
}

/* A line of the records pipe into buf (n bytes, no newline); 0, or -1 at
 * the end or past n. */
static int
read_line(int fd, char *buf, size_t n)
{
	size_t len = 0;

	for (;;) {
		char c;
		ssize_t k = read(fd, &c, 1);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		if (c == '\n')
			break;
		if (len + 1 >= n)
			return -1;
		buf[len++] = c;
	}
	buf[len] = '\0';
	return 0;
}

static int
read_full(int fd, void *p, size_t n)
{
	size_t got = 0;

	while (got < n) {
		ssize_t k = read(fd, (char *)p + got, n - got);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		got += (size_t)k;
	}
	return 0;
}

/* The records of one run (until the pipe ends) into o. */
static void
read_records(int fd, struct outcome *o)
{
	char line[CHECK_LINE];

	while (!o->bad && read_line(fd, line, sizeof line) == 0) {
		if (strncmp(line, "no-gpu ", 7) == 0) {
			o->no_gpu = 1;
			snprintf(o->why, sizeof o->why, "%s", line + 7);
		} else if (strcmp(line, "pass") == 0) {
			o->pass = 1;
		} else if (strncmp(line, "fail ", 5) == 0) {
			const char *s = line + 5;
			size_t sl = strcspn(s, " ");

			o->fail = 1;
			snprintf(o->sub, sizeof o->sub, "%.*s", (int)sl, s);
			snprintf(o->why, sizeof o->why, "%s", s + sl +
			    (s[sl] == ' '));
		} else if (strncmp(line, "metric ", 7) == 0) {
			size_t l = strlen(o->metrics);

			snprintf(o->metrics + l, sizeof o->metrics - l,
			    "%s\n", line + 7);
		} else if (strncmp(line, "expect ", 7) == 0) {
			struct expect *e = &o->ex[o->nex];
			unsigned long long n;

			if (o->nex >= CHECK_EXPECTS || sscanf(line + 7,
			    "%llu %lf %lf", &n, &e->atol, &e->rtol) != 3 ||
			    n > (CHECK_BYTES - o->bytes) / sizeof(float)) {
				o->bad = 1;
				break;
			}
			e->n = (size_t)n;
			e->v = malloc(e->n * sizeof(float) + 1);
			if (e->v == NULL || read_full(fd, e->v, e->n *
			    sizeof(float)) < 0) {
				o->bad = 1;
				break;
			}
			o->bytes += e->n * sizeof(float);
			o->nex++;
		} else {
			o->bad = 1;
		}
	}
	/* Read to the end, so that the harness never blocks on us. */
	while (read(fd, line, sizeof line) > 0)
		;
}

/* Run prog in mode ("want" or "got") with its records on a pipe and its
 * output in log; candidate: under child_filter(). */
static void
run_harness(const char *prog, const char *mode, const char *log,
    int candidate, struct outcome *o)
{
	int rp[2];
	pid_t pid;

	memset(o, 0, sizeof *o);
	if (pipe2(rp, O_CLOEXEC) != 0) {
		o->bad = 1;
		return;
	}
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		int nul = open("/dev/null", O_RDONLY);
		int out = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		int w = fcntl(rp[1], F_DUPFD, 64);

		if (out < 0)
			out = open("/dev/null", O_WRONLY);
		nul = fcntl(nul, F_DUPFD, 64);
		out = fcntl(out, F_DUPFD, 64);
		if (nul < 0 || out < 0 || w < 0 || dup2(nul, 0) < 0 ||
		    dup2(out, 1) < 0 || dup2(out, 2) < 0 || dup2(w, 3) < 0)
			_exit(126);
		if (syscall(SYS_close_range, 4, ~0U, 0) != 0)
			for (int fd = 4; fd < 1024; fd++)
				close(fd);
		if (candidate)
			child_filter();
		(void)mode;
		execl(prog, prog, (char *)NULL);
		_exit(127);
	}
	close(rp[1]);
	if (pid < 0) {
		close(rp[0]);
		o->bad = 1;
		return;
	}
	read_records(rp[0], o);
	close(rp[0]);
	while (waitpid(pid, &o->status, 0) < 0 && errno == EINTR)
		;
}

/* "exited 1", "died of signal 11 (Segmentation fault)" */
static const char *
ended(int status, char *buf, size_t n)
{
	if (WIFSIGNALED(status))
		snprintf(buf, n, "died of signal %d (%s)", WTERMSIG(status),
		    strsignal(WTERMSIG(status)));
	else
		snprintf(buf, n, "exited %d", WEXITSTATUS(status));
	return buf;
}

/*
 * Up to CHECK_SHOWN bytes of a harness's output, read from log into out
 * (CHECK_SHOWN + 1 bytes) when it is read: the want run's right after it
 * ends, before any candidate code runs in this directory (which could
 * rewrite the file).
 */
static void
read_log(const char *log, char *out)
{
	int fd = open(log, O_RDONLY);
	ssize_t k = fd < 0 ? 0 : read(fd, out, CHECK_SHOWN);

	if (fd >= 0)
		close(fd);
	out[k > 0 ? k : 0] = '\0';
}

/* A harness's output read by read_log(), each line marked. */
static void
show_log(const char *buf, const char *mark)
{
	for (const char *p = buf; *p != '\0';) {
		size_t l = strcspn(p, "\n");

		printf("%s: %.*s\n", mark, (int)l, p);
		p += l + (p[l] == '\n');
	}
	fflush(stdout);
}

/* The first value out of tolerance: the run's counterexample. */
struct first_bad {
	int	 have;
	size_t	 array, index, bad, n;	/* array and index from 1 and 0 */
	double	 got, want, atol, rtol;
};

/*
 * The candidate's arrays against the want run's, at its tolerances:
 * NULL when they agree, else why (in buf) and, when a value differs,
 * the first such value in *fb.
 */
static const char *
compare(const struct outcome *want, const struct outcome *got, char *buf,
    size_t n, struct first_bad *fb)
{
	if (got->nex != want->nex) {
		snprintf(buf, n, "the harness compared %zu arrays with the"
		    " candidate, %zu without it", got->nex, want->nex);
		return buf;
	}
	for (size_t k = 0; k < want->nex; k++) {
		const struct expect *w = &want->ex[k], *g = &got->ex[k];
		size_t bad = 0, first = 0;
		double worst = 0;

		if (g->n != w->n) {
			snprintf(buf, n, "array %zu: %zu values, want %zu",
			    k + 1, g->n, w->n);
			return buf;
		}
		for (size_t i = 0; i < w->n; i++) {
			double d = fabs((double)g->v[i] - (double)w->v[i]);

			if (!(d <= w->atol + w->rtol * fabs((double)w->v[i]))) {
				if (bad++ == 0)
					first = i;
				if (!(d <= worst))
					worst = d;
			}
		}
		if (bad > 0) {
			char arr[32] = "";

			if (want->nex > 1)
				snprintf(arr, sizeof arr, " in array %zu",
				    k + 1);
			snprintf(buf, n, "%zu of %zu values differ%s; first at"
			    " index %zu: got %g, want %g; largest error %g",
			    bad, w->n, arr, first, (double)g->v[first],
			    (double)w->v[first], worst);
			*fb = (struct first_bad){ 1, k + 1, first, bad, w->n,
			    (double)g->v[first], (double)w->v[first], w->atol,
			    w->rtol };
			return buf;
		}
	}
	return NULL;
}

/*
 * The want run's records into WANT_FILE, as read_records() reads them
 * back: each array at its tolerances (%.17g: the same double), then
 * "pass".  0, or -1 with errno.
 */
static int
write_want(const struct outcome *o)
{
	int fd = open(WANT_FILE, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
	    0600);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "w");
	int rc = 0;

	if (f == NULL) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	for (size_t k = 0; k < o->nex; k++) {
		const struct expect *e = &o->ex[k];

		if (fprintf(f, "expect %zu %.17g %.17g\n", e->n, e->atol,
		    e->rtol) < 0 || fwrite(e->v, sizeof(float), e->n, f) !=
		    e->n)
			rc = -1;
	}
	if (fputs("pass\n", f) == EOF)
		rc = -1;
	if (fclose(f) != 0)
		rc = -1;
	return rc;
}

/* The candidate's metric lines, as the judge reads them. */
static void
say_metrics(const struct outcome *o)
{
	const char *p = o->metrics;

	while (*p != '\0') {
		size_t l = strcspn(p, "\n");

		say("metric %.*s", (int)l, p);
		p += l + (p[l] == '\n');
	}
}

/* want: run harness-want and keep its values in WANT_FILE. */
static int
want_stage(void)
{
	static struct outcome want;
	static char want_log[CHECK_SHOWN + 1];
	char how[96];
	int rc = 0;

	run_harness("./harness-want", "want", "want.log", 0, &want);
	read_log("want.log", want_log);
	if (want.no_gpu) {
		say("no-gpu: %s", want.why);
		rc = 77;
	} else if (want.bad || !want.pass || !WIFEXITED(want.status) ||
	    WEXITSTATUS(want.status) != 0) {
		say("harness-error: the harness without the candidate %s%s%s%s",
		    want.bad ? "sent records it never writes" :
		    want.fail ? "failed: " : ended(want.status, how,
		    sizeof how), want.fail ? want.sub : "", want.fail ? " " :
		    "", want.fail ? want.why : "");
		rc = 3;
	} else if (write_want(&want) < 0) {
		say("harness-error: the expected values could not be kept in"
		    " " WANT_FILE ": %s", strerror(errno));
		rc = 3;
	}
	show_log(want_log, "harness output (without the candidate)");
	return rc;
}

/* run: the want stage's values from WANT_FD, then the candidate's run. */
static int
run_stage(void)
{
	static struct outcome want, got;
	static char got_log[CHECK_SHOWN + 1];
	char why[600], how[96];
	struct first_bad fb = { 0 };
	const char *diff;
	int rc;

	/* Read whole and closed before any candidate code runs: no process
	 * of the candidate's ever holds it (ADR 0056). */
	read_records(WANT_FD, &want);
	close(WANT_FD);
	if (want.bad || !want.pass || want.no_gpu || want.fail) {
		say("harness-error: the expected values of the want stage did"
		    " not reach the checker (fd %d)", WANT_FD);
		return 3;
	}
	run_harness("./harness", "got", "candidate.log", 1, &got);
	say_metrics(&got);
	if (got.fail) {
		/* A candidate can only hurt itself by saying so. */
		say("result fail %s: %s", got.sub, got.why);
		rc = 1;
	} else if (got.bad) {
		say("result fail runtime-error: the candidate's process sent"
		    " records the harness never writes");
		rc = 1;
	} else if (got.no_gpu) {
		say("result fail runtime-error: the candidate's process found"
		    " no GPU where the harness without it did: %s", got.why);
		rc = 1;
	} else if (!got.pass || !WIFEXITED(got.status) ||
	    WEXITSTATUS(got.status) != 0) {
		snprintf(why, sizeof why, "the harness %s without its result",
		    ended(got.status, how, sizeof how));
		say("result fail runtime-error: %s", why);
		rc = 1;
	} else if ((diff = compare(&want, &got, why, sizeof why, &fb)) !=
	    NULL) {
		/* What this process compared, never what a harness said. */
		if (fb.have)
			say("counterexample array=%zu of=%zu index=%zu got=%.9g"
			    " want=%.9g atol=%.9g rtol=%.9g bad=%zu n=%zu",
			    fb.array, want.nex, fb.index, fb.got, fb.want,
			    fb.atol, fb.rtol, fb.bad, fb.n);
		say("result fail mismatch: %s", diff);
		rc = 1;
	} else {
		say("result pass");
		rc = 0;
	}
	read_log("candidate.log", got_log);
	show_log(got_log, "candidate output");
	return rc;
}

int
main(int argc, char **argv)
{
	const char *mode = argc == 2 ? argv[1] : "";
	ssize_t k;

	/* Nothing of this process may be read by the candidate's, which
	 * runs as the same user (/proc/PID/mem, fd, environ). */
	prctl(PR_SET_DUMPABLE, 0);
	k = read(5, secret, sizeof secret - 1);
	close(5);
	if (k <= 1 || (strcmp(mode, "want") != 0 && strcmp(mode, "run") !=
	    0)) {
		fprintf(stderr, "usage: check want|run 5<SECRET [6<WANT]\n");
		return 2;
	}
	secret[k] = '\0';
	secret[strcspn(secret, "\n")] = '\0';
	signal(SIGPIPE, SIG_IGN);
	setvbuf(stdout, NULL, _IOLBF, 0);
	return strcmp(mode, "want") == 0 ? want_stage() : run_stage();
}
