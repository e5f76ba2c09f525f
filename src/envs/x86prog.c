/*
 * x86prog.c - the x86-asm env's program mode: SuperCoder's evaluation of
 * an assembly program (Anjiang-Wei/SuperCoder, src/test_benchmark.py:
 * the program assembled and linked with gcc -no-pie, run on each test
 * case's input on stdin, its stdout compared with the case's expected
 * output; an answer identical to the input assembly is no speedup).
 *
 * Two stages:
 *
 *   gcc -no-pie -o prog cand.s -lm                          build
 *   sh -c RUN sh N                                           run
 *
 * The run stage reads the run's secret from ENV_NONCE_FD, closes it, and
 * runs ./prog on case1.in ... caseN.in in turn, printing after each a
 * line "SECRET case K status S".  The judge cuts the log at those lines
 * and compares each case's output with caseK.out, which is an input of
 * the run (its hash recorded) but is never written where the candidate
 * runs: the program cannot read what it is compared with, and what it
 * prints is only ever data.  Called by x86asm.c.
 */
#define _GNU_SOURCE
#include "envs/x86prog.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"

#define CAND_FILE	"cand.s"
#define INPUT_FILE	"input.s"
#define MAX_CASES	64
#define PROG_NAME	"prog"

/* The run stage's script: $1 cases; the secret on fd 5. */
static const char run_script[] =
    "read -r k <&5; exec 5<&-; i=1; "
    "while [ \"$i\" -le \"$1\" ]; do "
    "./" PROG_NAME " < case$i.in 2>/dev/null; s=$?; "
    "printf '\\n%s case %d status %d\\n' \"$k\" \"$i\" \"$s\"; "
    "i=$((i + 1)); done";

int
x86prog_mode(const struct task *t)
{
	char *m = env_param_str(t, "mode");
	int yes = m != NULL && strcmp(m, "program") == 0;

	free(m);
	return yes;
}

/* The number of cases: case1.in ... caseN.in, each with its .out. */
static int
case_count(const struct task *t)
{
	int n = 0;

	for (;;) {
		char in[32], out[32];

		snprintf(in, sizeof in, "case%d.in", n + 1);
		snprintf(out, sizeof out, "case%d.out", n + 1);
		if (task_file_by_name(t, in) == NULL ||
		    task_file_by_name(t, out) == NULL || n >= MAX_CASES)
			return n;
		n++;
	}
}

int
x86prog_prepare(const struct task *t, const struct candidate *c,
    const char *workdir, struct env_plan *plan, struct err *err)
{
	int n = case_count(t);
	char count[16];

	env_nonce(plan->nonce, sizeof plan->nonce, 24, 'P');
	plan->cand_file = xstrdup(CAND_FILE);
	plan->timeout_s = (int)env_param_int(t, "timeout_s", 60);
	if (t->env_params != NULL)
		env_note_input(plan, "env_params", t->env_params,
		    strlen(t->env_params));
	if (n == 0)
		return err_set(err, "task %s: program mode needs test cases"
		    " (task files case1.in and case1.out ...)", t->id);
	if (env_write_input(plan, workdir, CAND_FILE, c->code, c->code_len,
	    err) < 0)
		return -1;
	for (size_t i = 0; i < t->nfiles; i++) {
		const struct task_file *f = &t->files[i];
		size_t l = strlen(f->name);

		if (strcmp(f->name, CAND_FILE) == 0 ||
		    strcmp(f->name, PROG_NAME) == 0)
			return err_set(err, "task file name %s is reserved by"
			    " the x86-asm env", f->name);
		/* What the program is compared with stays out of its
		 * reach; the rest (inputs, input.s, the C source) is
		 * noted, and only the inputs are written. */
		if (l > 3 && strcmp(f->name + l - 3, ".in") == 0) {
			if (env_write_input(plan, workdir, f->name, f->data,
			    f->len, err) < 0)
				return -1;
		} else {
			env_note_input(plan, f->name, f->data, f->len);
		}
	}
	snprintf(count, sizeof count, "%d", n);
	{
		const char *build[] = { "gcc", "-no-pie", "-o", PROG_NAME,
		    CAND_FILE, "-lm", NULL };
		const char *run[] = { "sh", "-c", run_script, "sh", count,
		    NULL };

		env_plan_stage(plan, "build", build);
		env_plan_stage(plan, "run", run);
		plan->stages[1].nonce_fd = 1;
		plan->stages[1].candidate = 1;
	}
	return 0;
}

/* What case k printed: the log between the end of the marker of case
 * k - 1 (or the start) and the newline the script puts before the marker
 * of case k.  Points into log; *len its length; NULL when the marker of
 * case k is not there. */
static const char *
case_output(const char *nonce, const char *log, size_t len, int k,
    size_t *olen, int *status)
{
	const char *start = log, *p = log, *end = log + len;
	size_t nl = strlen(nonce);
	int seen = 0;

	while (p < end) {
		const char *e = memchr(p, '\n', (size_t)(end - p));
		size_t l = e != NULL ? (size_t)(e - p) : (size_t)(end - p);
		int kk = 0, st = 0;
		const char *q = p + nl, *le = p + l;

		/* "SECRET case K status S", numbers held (env_digits) */
		if (l > nl + 6 && memcmp(p, nonce, nl) == 0 &&
		    memcmp(q, " case ", 6) == 0 &&
		    (q += 6, env_digits(&q, le, &kk)) &&
		    le - q > 8 && memcmp(q, " status ", 8) == 0 &&
		    (q += 8, env_digits(&q, le, &st)) && q == le) {
			if (kk == seen + 1) {
				seen = kk;
				if (kk == k) {
					const char *o = p > start ? p - 1 : p;

					*olen = (size_t)(o - start);
					*status = st;
					return start;
				}
				start = p + l + (e != NULL);
			}
		}
		p += l + (e != NULL);
	}
	return NULL;
}

/* a (alen) without the blank space at its end. */
static size_t
trimmed(const char *a, size_t alen)
{
	while (alen > 0 && (a[alen - 1] == '\n' || a[alen - 1] == ' ' ||
	    a[alen - 1] == '\r' || a[alen - 1] == '\t'))
		alen--;
	return alen;
}

/* The first line where got differs from want: its number and both
 * lines in why (n bytes). */
static void
first_diff(const char *got, size_t glen, const char *want, size_t wlen,
    char *why, size_t n)
{
	const char *g = got, *w = want, *ge = got + glen, *we = want + wlen;
	int line = 1;

	for (;;) {
		const char *gn = g < ge ? memchr(g, '\n', (size_t)(ge - g)) :
		    NULL;
		const char *wn = w < we ? memchr(w, '\n', (size_t)(we - w)) :
		    NULL;
		size_t gl = g < ge ? (gn != NULL ? (size_t)(gn - g) :
		    (size_t)(ge - g)) : 0;
		size_t wl = w < we ? (wn != NULL ? (size_t)(wn - w) :
		    (size_t)(we - w)) : 0;

		if (g >= ge || w >= we || gl != wl || memcmp(g, w, gl) != 0) {
			snprintf(why, n, "line %d: got \"%.*s\", want"
			    " \"%.*s\"", line, (int)(gl < 80 ? gl : 80),
			    g < ge ? g : "", (int)(wl < 80 ? wl : 80),
			    w < we ? w : "");
			return;
		}
		g += gl + 1;
		w += wl + 1;
		line++;
	}
}

/* The build's failure: the assembler's first "cand.s:LINE: Error:" on
 * its line, an undefined symbol at link time, else the first error. */
static void
judge_build(const struct env_stage_result *s, struct run *r)
{
	const char *log = s->log != NULL ? s->log : "";
	const char *p = strstr(log, CAND_FILE ":");
	char *ev;

	env_set(&r->stage, "build");
	if (s->exit_code == 127) {
		env_verdict(r, VERDICT_ENV_ERROR, CATEGORY_NONE,
		    "toolchain-missing", "gcc could not be started");
		return;
	}
	while (p != NULL) {
		int line = env_atoi(p + strlen(CAND_FILE ":"));
		const char *e = strchr(p, '\n');

		if (line > 0 && strstr(p, ": Error:") != NULL &&
		    (e == NULL || strstr(p, ": Error:") < e)) {
			ev = xstrndup(p, e != NULL ? (size_t)(e - p) :
			    strlen(p));
			env_verdict(r, VERDICT_FAIL, CATEGORY_COMPILE,
			    "assembler-error", ev);
			r->evidence_line = line;
			run_add_diag(r, CAND_FILE, line, 0, "error", ev, line);
			free(ev);
			return;
		}
		p = strstr(p + 1, CAND_FILE ":");
	}
	p = strstr(log, "undefined reference to");
	if (p != NULL) {
		ev = xstrndup(p, strcspn(p, "\n"));
		env_verdict(r, VERDICT_FAIL, CATEGORY_API, "undefined-symbol",
		    ev);
		free(ev);
		return;
	}
	ev = env_evidence(NULL, log, s->log_len, "gcc");
	env_verdict(r, VERDICT_FAIL, CATEGORY_COMPILE, "link-error", ev);
	free(ev);
}

void
x86prog_judge(const struct task *t, const struct env_plan *plan,
    const struct env_stage_result *res, size_t nres, enum env_stop stop,
    struct run *r)
{
	const char *pre = buf_str(&plan->precheck);
	int n = case_count(t), passed = 0, first = 0;
	char why[512] = "", *ev;
	const char *log;
	size_t len;

	if (nres == 0) {
		env_verdict(r, VERDICT_ENV_ERROR, CATEGORY_NONE, NULL, NULL);
		return;
	}
	env_set(&r->stage, nres == 1 ? "build" : "run");
	if (env_judge_limits(stop, res[nres - 1].exit_code, nres == 1 ?
	    "compile" : "functional", nres == 1 ? "the build" : "the run",
	    r))
		return;
	if (res[0].exit_code != 0) {
		judge_build(&res[0], r);
		return;
	}
	if (nres < 2) {
		env_verdict(r, VERDICT_ENV_ERROR, CATEGORY_NONE, NULL,
		    "the run ended before its stages did");
		return;
	}
	log = res[1].log != NULL ? res[1].log : "";
	len = res[1].log_len;
	/* The stored log starts with the stage's command line, "$ sh -c
	 * ...": case 1's output starts after it. */
	if (len > 2 && log[0] == '$' && log[1] == ' ') {
		const char *e = memchr(log, '\n', len);

		len -= e != NULL ? (size_t)(e + 1 - log) : len;
		log = e != NULL ? e + 1 : log + res[1].log_len;
	}
	for (int k = 1; k <= n; k++) {
		char name[32];
		const struct task_file *want;
		size_t olen = 0;
		int status = 0;
		const char *out = case_output(plan->nonce, log, len, k, &olen,
		    &status);

		snprintf(name, sizeof name, "case%d.out", k);
		want = task_file_by_name(t, name);
		if (out == NULL) {
			if (first == 0) {
				first = k;
				snprintf(why, sizeof why, "case %d: the run"
				    " ended before it", k);
				env_verdict(r, VERDICT_FAIL,
				    CATEGORY_FUNCTIONAL, "no-result", NULL);
			}
			break;
		}
		if (status != 0) {
			if (first == 0) {
				first = k;
				snprintf(why, sizeof why, "case %d: exit"
				    " status %d%s", k, status, status > 128 ?
				    " (killed by a signal)" : "");
				env_verdict(r, VERDICT_FAIL,
				    CATEGORY_FUNCTIONAL, status > 128 ?
				    "crash" : "runtime-error", NULL);
			}
			continue;
		}
		olen = trimmed(out, olen);
		if (olen != trimmed(want->data, want->len) ||
		    memcmp(out, want->data, olen) != 0) {
			if (first == 0) {
				char d[400];

				first = k;
				first_diff(out, olen, want->data,
				    trimmed(want->data, want->len), d,
				    sizeof d);
				snprintf(why, sizeof why, "case %d: stdout"
				    " differs at %s", k, d);
				env_verdict(r, VERDICT_FAIL,
				    CATEGORY_FUNCTIONAL, "mismatch", NULL);
			}
			continue;
		}
		passed++;
	}
	free(r->metrics);
	r->metrics = xasprintf("{\"cases\":%d,\"passed\":%d}", n, passed);
	if (first != 0) {
		env_set(&r->evidence, why);
		return;
	}
	if (strstr(pre, "copied-input\n") != NULL) {
		env_verdict(r, VERDICT_FAIL, CATEGORY_PERFORMANCE,
		    "copied-input", NULL);
		ev = xasprintf("correct on %d of %d cases, but the candidate is"
		    " input.s unchanged, modulo whitespace and comments: no"
		    " speedup (SuperCoder counts it 1x)", passed, n);
	} else {
		env_verdict(r, VERDICT_PASS, CATEGORY_NONE, NULL, NULL);
		ev = xasprintf("correct on %d of %d cases (stdout as expected);"
		    " speed is not measured in program mode", passed, n);
	}
	env_set(&r->evidence, ev);
	free(ev);
}
