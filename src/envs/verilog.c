/*
 * verilog.c - the Verilog harness shared by iverilog.c, verilator.c and
 * yosys.c: nonce, tagged testbench, the simulate stage's judge and the
 * top-module guess (verilog.h).  It runs nothing; the envs call it from
 * prepare() and judge().
 */
#define _GNU_SOURCE
#include "verilog.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "buf.h"

void
verilog_nonce(char *out, size_t n)
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
 * The "NONCE finish" line before each $finish tells a candidate that ends
 * the simulation early (its own $finish, before the stimulus is done)
 * apart from a testbench that ran to its end.
 */
char *
verilog_tag_testbench(const char *src, size_t len, const char *nonce,
    int *tagged, int *finishes, size_t *outlen)
{
	struct buf b = BUF_INIT;
	const char *p = src, *end = src + len;
	char pat[32];

	snprintf(pat, sizeof pat, "\"%s", VERILOG_RESULT_TAG);
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

int
verilog_write_testbench(struct env_plan *plan, const char *workdir,
    const struct task_file *f, int *tagged, struct err *err)
{
	int finishes = 0, rc;
	size_t len, mark = plan->inputs.len;
	char *data;

	*tagged = 0;
	data = verilog_tag_testbench(f->data, f->len, plan->nonce, tagged,
	    &finishes, &len);
	rc = env_write_input(plan, workdir, f->name, data, len, err);
	free(data);
	if (rc < 0)
		return -1;
	/* Record the hash of the task's file, not of our copy. */
	plan->inputs.len = mark;
	plan->inputs.p[mark] = '\0';
	env_note_input(plan, f->name, f->data, f->len);
	if (finishes > 0)
		plan->finish_tagged = 1;
	return 0;
}

int
verilog_is_data(const struct task_file *f)
{
	static const char *const exts[] = { ".v", ".sv", ".vh", ".svh",
	    ".vlib" };
	size_t n = strlen(f->name);

	if (strcmp(f->role, "data") == 0)
		return 1;
	for (size_t i = 0; i < sizeof exts / sizeof exts[0]; i++) {
		size_t m = strlen(exts[i]);

		if (n > m && strcmp(f->name + n - m, exts[i]) == 0)
			return 0;
	}
	return 1;
}

int
verilog_write_data(struct env_plan *plan, const char *workdir,
    const struct task *t, const char *reserved, struct err *err)
{
	for (size_t i = 0; i < t->nfiles; i++) {
		const struct task_file *f = &t->files[i];

		if (!verilog_is_data(f))
			continue;
		if (reserved != NULL && strcmp(f->name, reserved) == 0)
			return err_set(err, "data file name %s is reserved for"
			    " the simulation image", f->name);
		if (env_plan_data(plan, workdir, f->name, f->data, f->len,
		    err) < 0)
			return -1;
	}
	return 0;
}

void
verilog_add_sources(const char **argv, size_t n, const struct task *t,
    const char *cand, int last)
{
	if (!last)
		argv[n++] = cand;
	for (size_t i = 0; i < t->nfiles && n + 2 < ENV_MAX_ARGS; i++)
		if ((strcmp(t->files[i].role, "testbench") == 0 ||
		    strcmp(t->files[i].role, "reference") == 0 ||
		    strcmp(t->files[i].role, "source") == 0) &&
		    !verilog_is_data(&t->files[i]))
			argv[n++] = t->files[i].name;
	if (last)
		argv[n++] = cand;
	argv[n] = NULL;
}

void
verilog_judge_mismatches(const struct env_plan *plan,
    const struct env_stage_result *s, int warnings, const char *first_error,
    struct run *r)
{
	const char *p = s->log, *end = s->log + s->log_len;
	long mismatches = -1, total = -1;
	int forged = 0, finished = 0;
	size_t nlen = strlen(plan->nonce);
	char *hint = NULL, *result = NULL, *fatal = NULL;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl != NULL ? (size_t)(nl - p) : (size_t)(end - p);
		char *line = xstrndup(p, l);
		const char *tag = strstr(line, VERILOG_RESULT_TAG);
		long a, b;

		if (nlen > 0 && strncmp(line, plan->nonce, nlen) == 0 &&
		    strcmp(line + nlen, " finish") == 0)
			finished = 1;
		if (tag != NULL && nlen > 0 && tag >= line + nlen + 1 &&
		    memcmp(tag - nlen - 1, plan->nonce, nlen) == 0 &&
		    sscanf(tag, VERILOG_RESULT_TAG "%ld in %ld samples", &a,
		    &b) == 2) {
			mismatches = a;
			total = b;
			free(result);
			result = xstrdup(tag);
		} else if (tag != NULL) {
			forged++;
		}
		/* The first output that really mismatched is the evidence. */
		if (hint == NULL && strncmp(line, "Hint: Output", 12) == 0 &&
		    strstr(line, "has no mismatches") == NULL)
			hint = xstrdup(line);
		/* vvp's "FATAL: tb.sv:18: ..." or "ERROR: ..." of $fatal. */
		if (fatal == NULL && (strncmp(line, "FATAL", 5) == 0 ||
		    strncmp(line, "ERROR:", 6) == 0))
			fatal = xstrdup(line);
		free(line);
		p += l + (nl != NULL);
	}
	if (forged > 0)
		run_add_diag(r, "", 0, 0, "warning", "a result line was printed"
		    " by something other than the testbench, and ignored", 0);
	env_set(&r->stage, "simulate");
	if (mismatches >= 0) {
		free(r->metrics);
		if (warnings >= 0)
			r->metrics = xasprintf("{\"mismatches\":%ld,"
			    "\"total\":%ld,\"warnings\":%d}", mismatches, total,
			    warnings);
		else
			r->metrics = xasprintf("{\"mismatches\":%ld,"
			    "\"total\":%ld}", mismatches, total);
	}
	if (mismatches == 0 && s->exit_code == 0 && total > 0 &&
	    (finished || !plan->finish_tagged)) {
		env_set(&r->verdict, "pass");
	} else if (mismatches == 0 && s->exit_code != 0) {
		env_set(&r->verdict, "fail");
		env_set(&r->subcategory, "runtime-error");
		env_set(&r->category, "functional");
		env_set(&r->evidence, first_error != NULL ? first_error :
		    fatal != NULL ? fatal :
		    "the simulation exited with an error ($fatal, or a crash)");
	} else if (mismatches == 0 && (!finished || total <= 0)) {
		/* The result line came, but the testbench never reached its
		 * own $finish: something else ended the simulation early. */
		env_set(&r->verdict, "fail");
		env_set(&r->subcategory, "early-finish");
		env_set(&r->category, "functional");
		env_set(&r->evidence, "the simulation ended before the"
		    " testbench finished (a $finish outside the testbench?)");
	} else if (mismatches > 0) {
		env_set(&r->verdict, "fail");
		env_set(&r->subcategory, "mismatch");
		env_set(&r->category, "functional");
		env_set(&r->evidence, hint != NULL ? hint : result);
	} else if (nlen == 0 && s->exit_code == 0) {
		env_set(&r->verdict, "pass");	/* no result line by design */
	} else {
		env_set(&r->verdict, "fail");
		env_set(&r->subcategory, s->exit_code != 0 ? "runtime-error" :
		    "no-result-line");
		env_set(&r->category, "functional");
		env_set(&r->evidence, s->exit_code == 0 ?
		    "the testbench printed no result line" :
		    first_error != NULL ? first_error : fatal != NULL ? fatal :
		    "the simulation exited with an error");
	}
	free(fatal);
	free(hint);
	free(result);
}

int
verilog_is_ident(int ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
	    (ch >= '0' && ch <= '9') || ch == '_' || ch == '$';
}

char *
verilog_guess_top(const char *code, size_t len)
{
	const char *p = code, *end = code + len;

	while (p < end) {
		const char *q;

		if (p + 1 < end && p[0] == '/' && p[1] == '/') {
			q = memchr(p, '\n', (size_t)(end - p));
			p = q != NULL ? q : end;
			continue;
		}
		if (p + 1 < end && p[0] == '/' && p[1] == '*') {
			q = memmem(p + 2, (size_t)(end - p - 2), "*/", 2);
			p = q != NULL ? q + 2 : end;
			continue;
		}
		if ((size_t)(end - p) > 6 && memcmp(p, "module", 6) == 0 &&
		    (p == code || !verilog_is_ident((unsigned char)p[-1])) &&
		    !verilog_is_ident((unsigned char)p[6])) {
			char *name;

			q = p + 6;
			while (q < end && (*q == ' ' || *q == '\t' ||
			    *q == '\n' || *q == '\r'))
				q++;
			p = q;
			while (q < end && verilog_is_ident((unsigned char)*q))
				q++;
			if (q == p)
				continue;
			name = xstrndup(p, (size_t)(q - p));
			if (strcmp(name, "TopModule") == 0 ||
			    strcmp(name, "top_module") == 0)
				return name;
			free(name);
			p = q;
			continue;
		}
		p++;
	}
	/* No answer to the task's interface: name what it asked for, so
	 * that the tool reports the missing top (format/missing-top)
	 * instead of judging some other module. */
	return xstrdup("TopModule");
}
