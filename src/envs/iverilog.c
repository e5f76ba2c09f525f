/*
 * iverilog.c - the Icarus Verilog env (toolchains.md section 1).
 *
 * Compiles and simulates as the VerilogEval harness does:
 *   iverilog -Wall -Winfloop -Wno-timescale -g2012 -s tb -o sim FILES
 *   vvp -n sim
 * FILES is the candidate then the task files (v2), or the task files then
 * the candidate when env_params.candidate_last is true (v1 / RTLFixer,
 * whose harness compiles test + completion).  The verdict comes from the
 * testbench's own "Mismatches: N in M samples" line.  That line's format
 * string is rewritten in our copy of the testbench to start with a
 * per-run secret, so a candidate that prints the line itself cannot pass;
 * the secret is removed from the stored log afterwards.
 */
#define _GNU_SOURCE
#include "env.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "buf.h"

#define CAND_FILE "candidate.sv"
#define RESULT_TAG "Mismatches: "

static int
iverilog_toolchain(char *buf, size_t n, struct err *err)
{
	static const char *const argv[] = { "iverilog", "-V", NULL };
	static const char *const vvp[] = { "vvp", "-V", NULL };
	char tmp[256];

	if (env_tool_version(argv, buf, n) < 0)
		return err_set(err, "iverilog is not installed (Debian package"
		    " iverilog)");
	if (env_tool_version(vvp, tmp, sizeof tmp) < 0)
		return err_set(err, "vvp is not installed (Debian package"
		    " iverilog)");
	return 0;
}

static void
make_nonce(char *out, size_t n)
{
	unsigned char raw[8];
	size_t i;

	if (getrandom(raw, sizeof raw, 0) != (ssize_t)sizeof raw)
		for (i = 0; i < sizeof raw; i++)
			raw[i] = (unsigned char)(rand() ^ getpid());
	for (i = 0; i < sizeof raw && 2 * i + 2 < n; i++)
		snprintf(out + 2 * i, 3, "%02x", raw[i]);
	/* A name a candidate cannot guess, and no Verilog escape in it. */
	out[0] = 'T';
}

/*
 * Our copy of a testbench.  Every "Mismatches: format string gets the
 * nonce, and every $finish of the testbench is preceded by a line
 * "NONCE finish", so that a candidate that ends the simulation early
 * (its own $finish, before the stimulus is done) is told apart from a
 * testbench that ran to its end.
 */
static char *
tag_testbench(const char *src, size_t len, const char *nonce, int *tagged,
    int *finishes, size_t *outlen)
{
	struct buf b = BUF_INIT;
	const char *p = src, *end = src + len;
	char pat[32];

	snprintf(pat, sizeof pat, "\"%s", RESULT_TAG);
	while (p < end) {
		const char *q = memmem(p, (size_t)(end - p), pat, strlen(pat));
		const char *f = memmem(p, (size_t)(end - p), "$finish", 7);
		const char *semi;

		if (q == NULL && f == NULL)
			break;
		if (q != NULL && (f == NULL || q < f)) {
			buf_add(&b, p, (size_t)(q - p) + 1);
			buf_printf(&b, "%s ", nonce);
			p = q + 1;
			(*tagged)++;
			continue;
		}
		semi = memchr(f, ';', (size_t)(end - f));
		if (semi == NULL) {
			buf_add(&b, p, (size_t)(f - p) + 7);
			p = f + 7;
			continue;
		}
		buf_add(&b, p, (size_t)(f - p));
		buf_printf(&b, "begin $display(\"%s finish\"); ", nonce);
		buf_add(&b, f, (size_t)(semi - f) + 1);
		buf_adds(&b, " end");
		p = semi + 1;
		(*finishes)++;
	}
	buf_add(&b, p, (size_t)(end - p));
	return buf_detach(&b, outlen);
}

static int
iverilog_prepare(const struct task *t, const struct candidate *c,
    const char *workdir, struct env_plan *plan, struct err *err)
{
	const char *argv[ENV_MAX_ARGS];
	char *top = env_param_str(t, "top");
	int last = env_param_bool(t, "candidate_last", 0);
	size_t n = 0, tagged_files = 0;

	make_nonce(plan->nonce, sizeof plan->nonce);
	plan->cand_file = xstrdup(CAND_FILE);
	plan->timeout_s = (int)env_param_int(t, "timeout_s", 30);
	if (env_write_input(plan, workdir, CAND_FILE, c->code, c->code_len,
	    err) < 0) {
		free(top);
		return -1;
	}
	for (size_t i = 0; i < t->nfiles; i++) {
		const struct task_file *f = &t->files[i];
		int tagged = 0, finishes = 0;
		size_t len;
		char *data;
		int rc;

		if (strcmp(f->name, CAND_FILE) == 0) {
			free(top);
			return err_set(err, "task file name %s is reserved for"
			    " the candidate", CAND_FILE);
		}
		if (strcmp(f->role, "testbench") != 0) {
			rc = env_write_input(plan, workdir, f->name, f->data,
			    f->len, err);
		} else {
			size_t mark = plan->inputs.len;

			data = tag_testbench(f->data, f->len, plan->nonce,
			    &tagged, &finishes, &len);
			rc = env_write_input(plan, workdir, f->name, data, len,
			    err);
			free(data);
			/* Record the hash of the task's file, not of our copy. */
			plan->inputs.len = mark;
			plan->inputs.p[mark] = '\0';
			env_note_input(plan, f->name, f->data, f->len);
			if (tagged > 0)
				tagged_files++;
			if (finishes > 0)
				plan->finish_tagged = 1;
		}
		if (rc < 0) {
			free(top);
			return -1;
		}
	}
	if (tagged_files == 0)
		plan->nonce[0] = '\0';	/* no result line: exit status decides */
	if (t->env_params != NULL)
		env_note_input(plan, "env_params", t->env_params,
		    strlen(t->env_params));

	argv[n++] = "iverilog";
	argv[n++] = "-Wall";
	argv[n++] = "-Winfloop";
	argv[n++] = "-Wno-timescale";
	argv[n++] = "-g2012";
	argv[n++] = "-s";
	argv[n++] = top != NULL ? top : "tb";
	argv[n++] = "-o";
	argv[n++] = "run/sim";
	if (!last)
		argv[n++] = CAND_FILE;
	for (size_t i = 0; i < t->nfiles && n + 2 < ENV_MAX_ARGS; i++)
		if (strcmp(t->files[i].role, "testbench") == 0 ||
		    strcmp(t->files[i].role, "reference") == 0 ||
		    strcmp(t->files[i].role, "source") == 0)
			argv[n++] = t->files[i].name;
	if (last)
		argv[n++] = CAND_FILE;
	argv[n] = NULL;
	env_plan_stage(plan, "compile", argv);
	{
		/*
		 * The candidate alone must elaborate: a module that reaches
		 * into the testbench by hierarchical name (tb.stats1.errors,
		 * good1.zero) compiles with it but not without it.
		 */
		static const char *const iso[] = { "iverilog", "-g2012",
		    "-Wno-timescale", "-t", "null", CAND_FILE, NULL };
		/* The simulation sees only the compiled image, not the
		 * tagged testbench. */
		static const char *const sim[] = { "vvp", "-n", "sim", NULL };

		env_plan_stage(plan, "isolate", iso);
		env_plan_stage_in(plan, "simulate", sim, "run");
	}
	if (env_mkdir(workdir, "run", err) < 0) {
		free(top);
		return -1;
	}
	free(top);
	return 0;
}

/*
 * Parse one line of iverilog's output: "FILE:LINE: [error:|warning:|
 * sorry:] MESSAGE", "FILE:LINE: syntax error", or "FILE:LINE:      :
 * note".  Returns 1 and fills the parts when it is such a line.
 */
static int
parse_diag_line(const char *line, size_t len, char *file, size_t fn,
    int *lineno, char *sev, size_t sn, const char **msg, size_t *msglen)
{
	const char *p = line, *end = line + len, *colon;
	size_t flen;
	int num = 0, digits = 0;

	colon = memchr(p, ':', len);
	if (colon == NULL || colon == p)
		return 0;
	flen = (size_t)(colon - p);
	if (memchr(p, ' ', flen) != NULL || flen >= fn)
		return 0;
	p = colon + 1;
	while (p < end && *p >= '0' && *p <= '9') {
		num = num * 10 + (*p - '0');
		p++;
		digits++;
	}
	if (digits == 0 || p >= end || *p != ':')
		return 0;
	memcpy(file, line, flen);
	file[flen] = '\0';
	*lineno = num;
	p++;
	while (p < end && *p == ' ')
		p++;
	if ((size_t)(end - p) >= 6 && memcmp(p, "error:", 6) == 0) {
		snprintf(sev, sn, "error");
		p += 6;
	} else if ((size_t)(end - p) >= 8 && memcmp(p, "warning:", 8) == 0) {
		snprintf(sev, sn, "warning");
		p += 8;
	} else if ((size_t)(end - p) >= 6 && memcmp(p, "sorry:", 6) == 0) {
		snprintf(sev, sn, "sorry");
		p += 6;
	} else if (p < end && *p == ':') {
		snprintf(sev, sn, "note");
		p++;
	} else if ((size_t)(end - p) >= 12 && memcmp(p, "syntax error", 12) == 0) {
		snprintf(sev, sn, "error");
	} else {
		/* "Unknown module type", "Malformed statement", ... */
		snprintf(sev, sn, "error");
	}
	while (p < end && *p == ' ')
		p++;
	*msg = p;
	*msglen = (size_t)(end - p);
	return 1;
}

/* A subcategory for a compile error, from VerilogEval's result codes. */
static const char *
compile_subcategory(const char *msg)
{
	static const struct { const char *needle, *sub; } rules[] = {
		{ "syntax error", "syntax-error" },
		{ "cast", "explicit-cast" },
		{ "zero width", "zero-width-constant" },
		{ "Zero width", "zero-width-constant" },
		{ "not a valid l-value", "declared-as-wire" },
		{ "declared here as wire", "declared-as-wire" },
		{ "Unknown module type", "unknown-module" },
		{ "Unable to bind", "unable-to-bind" },
		{ "is not a port of", "port-mismatch" },
		{ "port", "port-mismatch" },
		{ "Malformed", "syntax-error" },
	};

	for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++)
		if (strstr(msg, rules[i].needle) != NULL)
			return rules[i].sub;
	return "other";
}

/* Diagnostics of a stage's log into r; counts errors and sorries. */
static void
scan_diags(const struct env_plan *plan, const char *log, size_t len,
    struct run *r, int *errors, int *sorries, char **first_error)
{
	const char *p = log, *end = log + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl != NULL ? (size_t)(nl - p) : (size_t)(end - p);
		char file[256], sev[16];
		const char *msg;
		size_t mlen;
		int lineno;

		if (parse_diag_line(p, l, file, sizeof file, &lineno, sev,
		    sizeof sev, &msg, &mlen)) {
			char *m = xstrndup(msg, mlen);
			int in_cand = strcmp(file, plan->cand_file) == 0;

			run_add_diag(r, file, lineno, 0, sev, m, in_cand ? lineno :
			    0);
			if (strcmp(sev, "error") == 0) {
				(*errors)++;
				if (*first_error == NULL)
					*first_error = xstrndup(p, l);
			} else if (strcmp(sev, "sorry") == 0) {
				(*sorries)++;
			}
			free(m);
		}
		p += l + (nl != NULL);
	}
}

static void
set(char **field, const char *v)
{
	free(*field);
	*field = xstrdup(v);
}

/* Judge the simulation stage's output. */
static void
judge_simulate(const struct env_plan *plan, const struct env_stage_result *s,
    struct run *r)
{
	const char *p = s->log, *end = s->log + s->log_len;
	long mismatches = -1, total = -1;
	int forged = 0, finished = 0;
	char *hint = NULL, *result = NULL;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl != NULL ? (size_t)(nl - p) : (size_t)(end - p);
		char *line = xstrndup(p, l);
		size_t nlen = strlen(plan->nonce);
		const char *tag = strstr(line, RESULT_TAG);

		if (nlen > 0 && strncmp(line, plan->nonce, nlen) == 0 &&
		    strcmp(line + nlen, " finish") == 0)
			finished = 1;

		if (tag != NULL) {
			long a, b;

			if (nlen > 0 && tag >= line + nlen + 1 &&
			    memcmp(tag - nlen - 1, plan->nonce, nlen) == 0 &&
			    sscanf(tag, RESULT_TAG "%ld in %ld samples", &a,
			    &b) == 2) {
				mismatches = a;
				total = b;
				free(result);
				result = xasprintf("%s", tag);
			} else {
				forged++;
			}
		}
		/* The first output that really mismatched is the evidence. */
		if (hint == NULL && strncmp(line, "Hint: Output", 12) == 0 &&
		    strstr(line, "has no mismatches") == NULL)
			hint = xstrdup(line);
		free(line);
		p += l + (nl != NULL);
	}
	if (forged > 0)
		run_add_diag(r, "", 0, 0, "warning", "a result line was printed"
		    " by something other than the testbench, and ignored", 0);
	set(&r->stage, "simulate");
	if (mismatches >= 0) {
		free(r->metrics);
		r->metrics = xasprintf("{\"mismatches\":%ld,\"total\":%ld}",
		    mismatches, total);
	}
	if (mismatches == 0 && s->exit_code == 0 && total > 0 &&
	    (finished || !plan->finish_tagged)) {
		set(&r->verdict, "pass");
	} else if (mismatches == 0 && s->exit_code != 0) {
		set(&r->verdict, "fail");
		set(&r->subcategory, "runtime-error");
		set(&r->category, "functional");
		set(&r->evidence, "the simulation exited with an error"
		    " ($fatal, or a crash)");
	} else if (mismatches == 0 && (!finished || total <= 0)) {
		/* The result line came, but the testbench never reached its
		 * own $finish: something else ended the simulation early. */
		set(&r->verdict, "fail");
		set(&r->subcategory, "early-finish");
		set(&r->category, "functional");
		set(&r->evidence, "the simulation ended before the testbench"
		    " finished (a $finish outside the testbench?)");
	} else if (mismatches > 0) {
		set(&r->verdict, "fail");
		set(&r->subcategory, "mismatch");
		set(&r->category, "functional");
		set(&r->evidence, hint != NULL ? hint : result);
	} else if (plan->nonce[0] == '\0' && s->exit_code == 0) {
		set(&r->verdict, "pass");	/* no result line by design */
	} else {
		set(&r->verdict, "fail");
		set(&r->subcategory, s->exit_code != 0 ? "runtime-error" :
		    "no-result-line");
		set(&r->category, "functional");
		set(&r->evidence, s->exit_code != 0 ?
		    "the simulation exited with an error" :
		    "the testbench printed no result line");
	}
	free(hint);
	free(result);
}

static void
iverilog_judge(const struct task *t, const struct env_plan *plan,
    const struct env_stage_result *res, size_t nres, enum env_stop stop,
    struct run *r)
{
	const struct env_stage_result *last = nres > 0 ? &res[nres - 1] : NULL;
	int errors = 0, sorries = 0;
	char *first_error = NULL;

	(void)t;
	if (nres > 0)
		scan_diags(plan, res[0].log, res[0].log_len, r, &errors,
		    &sorries, &first_error);
	set(&r->stage, nres >= 3 ? "simulate" : "compile");
	if (last == NULL) {
		set(&r->verdict, "env-error");
		goto out;
	}
	if (stop == ENV_STOP_OUTPUT) {
		set(&r->verdict, "fail");
		set(&r->subcategory, "output-limit");
		set(&r->category, "functional");
		set(&r->evidence, "the output passed the capture cap");
		goto out;
	}
	if (stop == ENV_STOP_TIMEOUT || (stop == ENV_STOP_NONE &&
	    (last->exit_code == 128 + 24 || last->exit_code == 128 + 9))) {
		/* Wall clock, or the CPU limit (SIGXCPU, then SIGKILL). */
		set(&r->verdict, "timeout");
		set(&r->subcategory, "timeout");
		set(&r->category, "functional");
		set(&r->evidence, stop == ENV_STOP_TIMEOUT ?
		    "the run hit its wall-clock timeout" :
		    "the run hit its CPU-time limit");
		goto out;
	}
	if (stop == ENV_STOP_DISK) {
		set(&r->verdict, "fail");
		set(&r->subcategory, "resource-limit");
		set(&r->category, "functional");
		set(&r->evidence, "the work directory passed its size cap");
		goto out;
	}
	if (last->exit_code == 128 + 25 || (last->log != NULL &&
	    (memmem(last->log, last->log_len, "out of memory", 13) != NULL ||
	    memmem(last->log, last->log_len, "bad_alloc", 9) != NULL))) {
		set(&r->verdict, "fail");
		set(&r->subcategory, "resource-limit");
		set(&r->category, "functional");
		set(&r->evidence, last->exit_code == 128 + 25 ?
		    "a file passed the file-size limit" :
		    "the run ran out of memory");
		goto out;
	}
	if (nres == 1 && res[0].exit_code == 127) {
		set(&r->verdict, "env-error");
		set(&r->subcategory, "toolchain-missing");
		goto out;
	}
	if (nres == 1 && res[0].exit_code != 0) {
		if (errors == 0 && sorries > 0) {
			/* Only toolchain limitations: not the candidate's fault. */
			set(&r->verdict, "env-error");
			set(&r->subcategory, "toolchain-limitation");
			for (size_t i = 0; i < r->ndiags; i++)
				if (strcmp(r->diags[i].severity, "sorry") == 0) {
					set(&r->evidence, r->diags[i].message);
					break;
				}
			goto out;
		}
		set(&r->verdict, "fail");
		set(&r->category, "compile");
		set(&r->subcategory, first_error != NULL ?
		    compile_subcategory(first_error) : "other");
		set(&r->evidence, first_error != NULL ? first_error :
		    "iverilog failed without a message");
		goto out;
	}
	if (nres == 2 && res[1].exit_code != 0) {
		int e2 = 0, s2 = 0;
		char *first = NULL;

		/* Compiles with the testbench, not alone: it leans on names
		 * outside its own modules. */
		scan_diags(plan, res[1].log, res[1].log_len, r, &e2, &s2, &first);
		set(&r->verdict, "fail");
		set(&r->category, "functional");
		set(&r->subcategory, "out-of-module-reference");
		set(&r->evidence, first != NULL ? first :
		    "the candidate does not elaborate on its own");
		free(first);
		goto out;
	}
	if (nres >= 3)
		judge_simulate(plan, &res[2], r);
out:
	free(first_error);
}

const struct env_ops env_iverilog = {
	.name = "iverilog",
	.domain = "chip",
	.lang = "verilog",
	.packages = "iverilog",
	.toolchain = iverilog_toolchain,
	.prepare = iverilog_prepare,
	.judge = iverilog_judge,
};
