/*
 * verilog.c - the Verilog harness shared by iverilog.c, verilator.c and
 * yosys.c: nonce, tagged testbench, the simulate stage's judge and the
 * top-module guess (verilog.h).  It runs nothing; the envs call it from
 * prepare() and judge().
 */
#define _GNU_SOURCE
#include "envs/verilog.h"

#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <limits.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/buf.h"
#include "lang/syntax.h"

/*
 * code with comments blanked and string contents blanked (quotes and
 * newlines kept), so that a lexical scan sees only tokens and keeps
 * offsets and lines.  New, NUL-terminated.
 */
static char *
mask_code(const char *code, size_t len)
{
	char *m = xmalloc(len + 1);
	size_t i = 0;

	memcpy(m, code, len);
	m[len] = '\0';
	while (i < len) {
		if (m[i] == '/' && i + 1 < len && m[i + 1] == '/') {
			for (; i < len && m[i] != '\n'; i++)
				m[i] = ' ';
		} else if (m[i] == '/' && i + 1 < len && m[i + 1] == '*') {
			m[i++] = ' ';
			m[i++] = ' ';
			for (; i < len && !(m[i] == '*' && i + 1 < len &&
			    m[i + 1] == '/'); i++)
				if (m[i] != '\n')
					m[i] = ' ';
			if (i < len)
				m[i++] = ' ';
			if (i < len)
				m[i++] = ' ';
		} else if (m[i] == '"') {
			for (i++; i < len && m[i] != '"' && m[i] != '\n'; i++) {
				if (m[i] == '\\' && i + 1 < len &&
				    m[i + 1] != '\n')
					m[i++] = ' ';
				m[i] = ' ';
			}
			i += i < len;
		} else if (m[i] == '\r' || m[i] == '\f' || m[i] == '\v') {
			/* Every blank is a space to the scans below. */
			m[i++] = ' ';
		} else if (m[i] == '\\') {
			/* An escaped identifier runs to the next blank. */
			for (; i < len && m[i] != ' ' && m[i] != '\t' &&
			    m[i] != '\n' && m[i] != '\r' && m[i] != '\f' &&
			    m[i] != '\v'; i++)
				;
		} else {
			i++;
		}
	}
	return m;
}

char *
verilog_mask(const char *code, size_t len)
{
	return mask_code(code, len);
}

static int	in_list(const char *, const char *);

/* Output tasks whose lines our copy of a testbench tags. */
static int
output_task(const char *name)
{
	static const char *const base[] = { "$display", "$write", "$strobe",
	    "$monitor" };

	for (size_t i = 0; i < sizeof base / sizeof base[0]; i++) {
		size_t n = strlen(base[i]);

		if (strncmp(name, base[i], n) == 0 && (name[n] == '\0' ||
		    ((name[n] == 'b' || name[n] == 'h' || name[n] == 'o') &&
		    name[n + 1] == '\0')))
			return 1;
	}
	return 0;
}

/* One insertion into the testbench's text. */
struct edit {
	size_t	 at;
	size_t	 seq;	/* order of making: ties keep it (" end" before
			   the next "begin" at the same place) */
	char	*text;
};

static void
add_edit(struct edit **v, size_t *n, size_t at, char *text)
{
	*v = xreallocarray(*v, *n + 1, sizeof **v);
	(*v)[*n].at = at;
	(*v)[*n].seq = *n;
	(*v)[*n].text = text;
	(*n)++;
}

static int
edit_cmp(const void *a, const void *b)
{
	const struct edit *x = a, *y = b;

	if (x->at != y->at)
		return x->at < y->at ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/*
 * The tag "NONCE " at the start of every line a string literal [s, e)
 * (quotes included) begins: after its opening quote and any "\n" escapes
 * that lead it (first: it starts the output), and after each "\n" escape
 * that more text follows.
 */
static void
tag_string(const char *src, size_t s, size_t e, int first,
    const char *nonce, struct edit **v, size_t *n)
{
	size_t i = s + 1;

	if (first) {
		while (i + 1 < e - 1 && src[i] == '\\' && src[i + 1] == 'n')
			i += 2;
		add_edit(v, n, i, xasprintf("%s ", nonce));
	}
	for (; i + 1 < e - 1; i++) {
		if (src[i] != '\\')
			continue;
		if (src[i + 1] == 'n' && i + 2 < e - 1)
			add_edit(v, n, i + 2, xasprintf("%s ", nonce));
		i++;	/* an escape is two characters at least */
	}
}

/* A system task call found in masked text (mask_code()). */
struct call {
	char	 name[16];
	size_t	 start, end;	/* "$name" to ")" or the name's end */
	size_t	 args;		/* offset of "(", 0 when none */
	size_t	 semi;		/* offset of the ";" after it, 0 when none */
	size_t	 str_start[8], str_end[8];	/* string arguments */
	int	 str_index[8];	/* their argument numbers, from 0 */
	size_t	 nstr;
	size_t	 arg_start[16], arg_end[16];	/* the first arguments */
	int	 nargs;
};

static size_t
skip_blank(const char *m, size_t i, size_t len)
{
	while (i < len && (m[i] == ' ' || m[i] == '\t' || m[i] == '\n' ||
	    m[i] == '\r'))
		i++;
	return i;
}

/*
 * The call of a system task whose name starts at m[i] ("$display"), its
 * arguments split at the commas outside brackets; 0 when the arguments
 * do not close.  m is masked: parentheses and commas inside strings and
 * comments are blanks there.
 */
static int
scan_call(const char *m, size_t len, size_t i, struct call *c)
{
	size_t k = i + 1, a0, depth = 0;

	memset(c, 0, sizeof *c);
	while (k < len && verilog_is_ident((unsigned char)m[k]))
		k++;
	snprintf(c->name, sizeof c->name, "%.*s", (int)(k - i), m + i);
	c->start = i;
	c->end = k;
	k = skip_blank(m, k, len);
	if (k < len && m[k] == '(') {
		c->args = k;
		a0 = k + 1;
		for (k++; k < len; k++) {
			char ch = m[k];

			if (ch == '(' || ch == '[' || ch == '{') {
				depth++;
			} else if ((ch == ')' || ch == ']' || ch == '}') &&
			    depth > 0) {
				depth--;
			} else if ((ch == ',' || ch == ')') && depth == 0) {
				size_t s = skip_blank(m, a0, k), e = k;

				while (e > s && (m[e - 1] == ' ' ||
				    m[e - 1] == '\t' || m[e - 1] == '\n' ||
				    m[e - 1] == '\r'))
					e--;
				if (e > s && m[s] == '"' && m[e - 1] == '"' &&
				    e - s >= 2 && memchr(m + s + 1, '"',
				    e - s - 2) == NULL && c->nstr < 8) {
					c->str_start[c->nstr] = s;
					c->str_end[c->nstr] = e;
					c->str_index[c->nstr] = c->nargs;
					c->nstr++;
				}
				if (c->nargs < 16) {
					c->arg_start[c->nargs] = s;
					c->arg_end[c->nargs] = e;
				}
				if (e > s || ch == ',')
					c->nargs++;
				a0 = k + 1;
				if (ch == ')')
					break;
			}
		}
		if (k >= len)
			return 0;
		c->end = k + 1;
	}
	k = skip_blank(m, c->end, len);
	if (k < len && m[k] == ';')
		c->semi = k;
	return 1;
}

/*
 * Our copy of a testbench.  The calls are found lexically, on the text
 * with comments and strings blanked: the Verilog grammar reads some
 * testbenches as one ERROR node (VerilogEval's Prob004_vector2_test.sv,
 * whose signal is named "in"), and a call it misses would be a line
 * the judge cannot believe.
 */
char *
verilog_tag_testbench(const char *src, size_t len, const char *nonce,
    int *tagged, int *finishes, size_t *outlen)
{
	struct edit *v = NULL;
	struct buf b = BUF_INIT;
	char *m = mask_code(src, len);
	size_t n = 0, at = 0;

	for (size_t i = 0; i < len; i++) {
		struct call c;
		int sev;

		if (m[i] != '$' || (i > 0 && (verilog_is_ident(
		    (unsigned char)m[i - 1]) || m[i - 1] == '\\')))
			continue;
		if (!scan_call(m, len, i, &c))
			continue;
		sev = strcmp(c.name, "$error") == 0 ||
		    strcmp(c.name, "$fatal") == 0;
		if (output_task(c.name)) {
			int first = c.nstr > 0 && c.str_index[0] == 0;

			if (c.args == 0)	/* "$display;" */
				add_edit(&v, &n, c.end, xasprintf("(\"%s \")",
				    nonce));
			else if (!first)
				add_edit(&v, &n, c.args + 1, xasprintf(
				    "\"%s \"%s", nonce, c.nargs > 0 ? ", " :
				    ""));
			for (size_t k = 0; k < c.nstr; k++)
				tag_string(src, c.str_start[k], c.str_end[k],
				    k == 0 && first, nonce, &v, &n);
			(*tagged)++;
		} else if (sev) {
			/* A format string of its own in front of the message
			 * (after $fatal's finish number): the simulator's
			 * "ERROR: file:line: " comes first, so the mark is
			 * found anywhere in the line. */
			const char *mark = c.name[1] == 'e' ? "!error" :
			    "!fatal";

			if (c.args == 0)
				add_edit(&v, &n, c.end, xasprintf("(%s\"%s %s"
				    " \")", c.name[1] == 'f' ? "1, " : "",
				    nonce, mark));
			else if (c.name[1] == 'e' || (c.nstr > 0 &&
			    c.str_index[0] == 0) || c.nargs == 0)
				add_edit(&v, &n, c.args + 1, xasprintf(
				    "%s\"%s %s \"%s", c.name[1] == 'f' &&
				    c.nargs == 0 ? "1, " : "", nonce, mark,
				    c.nargs > 0 ? ", " : ""));
			else {
				/* $fatal(N, ...): after N. */
				size_t k = c.args + 1;
				int depth = 0;

				/* Up to the first comma at depth 0, else
				 * before the closing parenthesis (c.end - 1):
				 * "$fatal(1)" is "$fatal(1, ...)". */
				for (; k + 1 < c.end; k++) {
					depth += (m[k] == '(') - (m[k] == ')');
					if (depth == 0 && m[k] == ',')
						break;
				}
				add_edit(&v, &n, k, xasprintf(", \"%s %s \"",
				    nonce, mark));
			}
			if (c.name[1] == 'f')
				(*finishes)++;
		} else if ((strcmp(c.name, "$finish") == 0 ||
		    strcmp(c.name, "$stop") == 0) && c.semi > 0) {
			/* A line of its own tells the testbench's end from the
			 * candidate's. */
			add_edit(&v, &n, c.start, xasprintf("begin $display("
			    "\"%s !finish\"); ", nonce));
			add_edit(&v, &n, c.semi + 1, xstrdup(" end"));
			(*finishes)++;
		} else if (strncmp(c.name, "$dump", 5) == 0 && c.semi > 0) {
			/* The testbench's own dump would race ours for the
			 * one VCD file a simulation writes. */
			add_edit(&v, &n, c.start, xstrdup("if (0) "));
		}
		i = c.end - 1;
	}
	if (n > 0)
		qsort(v, n, sizeof *v, edit_cmp);
	for (size_t i = 0; i < n; i++) {
		buf_add(&b, src + at, v[i].at - at);
		buf_adds(&b, v[i].text);
		at = v[i].at;
		free(v[i].text);
	}
	buf_add(&b, src + at, len - at);
	free(v);
	free(m);
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
			    " the simulation image's directory", f->name);
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

/*
 * A line of the simulation's output: tagged when our copy of the
 * testbench printed it (it starts with the nonce), text without any tag.
 */
struct vline {
	int	 tagged;
	int	 mark;		/* 'e' or 'f': the testbench's $error, $fatal */
	char	*text;
};

static void
add_line(struct vline **v, size_t *n, struct buf *b, int tagged, int mark)
{
	*v = xreallocarray(*v, *n + 1, sizeof **v);
	(*v)[*n].mark = mark;
	(*v)[*n].tagged = tagged;
	(*v)[*n].text = buf_detach(b, NULL);
	(*n)++;
}

/*
 * The lines of log; *n receives the count.  New; free with free_lines().
 *
 * The nonce starts a tagged line wherever it stands, not only at the
 * start of an output line: a design that writes text without a newline
 * ($write(" ")) just before the testbench prints a fail line would
 * otherwise make that line the design's, untagged and ignored, and pass
 * (issue 22, docs/security.md "Known gaps").  Only the testbench holds
 * the nonce, so the text after it is the testbench's; the text before
 * it on that line is a line of its own, untagged.  A nonce inside a
 * tagged line is the testbench's own continuation ($write then
 * $display) and is only removed; one followed by "!error " or
 * "!fatal " is the mark the simulator's own "ERROR: file:line: "
 * prefix carries for $error and $fatal, and marks the line.
 */
static struct vline *
split_lines(const char *log, size_t len, const char *nonce, size_t *n)
{
	const char *p = log, *end = log + len;
	size_t nl = strlen(nonce);
	struct vline *v = NULL;

	*n = 0;
	while (p < end) {
		const char *e = memchr(p, '\n', (size_t)(end - p));
		size_t l = e != NULL ? (size_t)(e - p) : (size_t)(end - p);
		struct buf b = BUF_INIT;
		int mark = 0, tagged = nl > 0 && l >= nl &&
		    memcmp(p, nonce, nl) == 0;

		for (size_t i = 0; i < l; ) {
			if (nl > 0 && i + nl <= l && memcmp(p + i, nonce, nl) ==
			    0) {
				size_t at = i;

				i += nl + (i + nl < l && p[i + nl] == ' ');
				/* $error's and $fatal's mark, inside the
				 * simulator's "ERROR: file:line: " line. */
				if (at > 0 && i + 7 <= l && (memcmp(p + i,
				    "!error ", 7) == 0 || memcmp(p + i,
				    "!fatal ", 7) == 0)) {
					mark = p[i + 1];
					i += 7;
					continue;
				}
				if (!tagged) {
					/* The design's text before it. */
					if (b.len > 0)
						add_line(&v, n, &b, 0, mark);
					buf_init(&b);
					mark = 0;
					tagged = 1;
				}
				continue;
			}
			buf_addc(&b, p[i++]);
		}
		add_line(&v, n, &b, tagged, mark);
		p += l + (e != NULL);
	}
	return v;
}

static void
free_lines(struct vline *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].text);
	free(v);
}

/*
 * The compiled form of ERE re with flags, from a small cache: a judge
 * matches every line of a log (16 MiB at the output cap) against the same
 * few patterns.  NULL with *rc the regcomp() error when re does not
 * compile.  Borrowed, valid until ERE_CACHE other patterns were asked for:
 * the caller holds ere_lock from the look-up to its last regexec() (the
 * workbench's :verify judges on a thread of its own, `v` on the screen's).
 */
#define ERE_CACHE 8
static pthread_mutex_t ere_lock = PTHREAD_MUTEX_INITIALIZER;
static const regex_t *
ere_get(const char *re, int flags, int *rc, char *msg, size_t msgsz)
{
	static struct {
		char	*re;
		int	 flags;
		regex_t	 rx;
	} cache[ERE_CACHE];
	static size_t next;
	size_t k;

	for (k = 0; k < ERE_CACHE; k++)
		if (cache[k].re != NULL && cache[k].flags == flags &&
		    strcmp(cache[k].re, re) == 0)
			return &cache[k].rx;
	k = next++ % ERE_CACHE;
	if (cache[k].re != NULL) {
		regfree(&cache[k].rx);
		free(cache[k].re);
		cache[k].re = NULL;
	}
	*rc = regcomp(&cache[k].rx, re, flags);
	if (*rc != 0) {
		regerror(*rc, &cache[k].rx, msg, msgsz);
		return NULL;
	}
	cache[k].re = xstrdup(re);
	cache[k].flags = flags;
	return &cache[k].rx;
}

/* Does the ERE re match text?  -1 when re does not compile (err set). */
static int
ere_match(const char *re, const char *text, const char *key,
    struct err *err)
{
	char msg[128];
	int rc = 0;
	const regex_t *rx;
	int hit;

	pthread_mutex_lock(&ere_lock);
	rx = ere_get(re, REG_EXTENDED | REG_NOSUB, &rc, msg, sizeof msg);
	hit = rx != NULL && regexec(rx, text, 0, NULL, 0) == 0;
	pthread_mutex_unlock(&ere_lock);
	if (rx == NULL)
		return err_set(err, "env_params.%s: %s", key, msg);
	return hit;
}

/*
 * Does the ERE re (case ignored) match text?  Then v[0..n-1] receive its
 * groups 1..n as numbers, -1 for a group that did not take part or does
 * not fit a long.
 */
static int
ere_groups(const char *re, const char *text, long *v, int n)
{
	regmatch_t m[4];
	char msg[128];
	int hit, rc = 0;
	const regex_t *rx;

	if (n > 3)
		return 0;
	pthread_mutex_lock(&ere_lock);
	rx = ere_get(re, REG_EXTENDED | REG_ICASE, &rc, msg, sizeof msg);
	hit = rx != NULL && regexec(rx, text, 4, m, 0) == 0;
	pthread_mutex_unlock(&ere_lock);
	if (rx == NULL)
		return 0;
	for (int i = 0; hit && i < n; i++) {
		char *end;
		long long x;

		v[i] = -1;
		if (m[i + 1].rm_so < 0)
			continue;
		errno = 0;
		x = strtoll(text + m[i + 1].rm_so, &end, 10);
		if (errno == 0 && x >= 0 && x <= LONG_MAX)
			v[i] = (long)x;
	}
	return hit;
}

/*
 * The default verdict lines (docs/envs.md, "Verdict contract"): the
 * conventions of the benchmarks assay imports.  Each is matched on the
 * testbench's own lines only.
 */
#define RTLLM_PASS	"Your Design Passed"
#define RTLLM_COUNT	"Test completed with +([0-9]+) *(/ *[0-9]+ *)?failures"
#define RTLLM_FAIL	"(={3,} *(Error|Failed) *={3,})|(Tests? failed)|" \
			"(^ *Failed at)"
#define ARCHX_COUNT	"Passed: *([0-9]+), *Failed: *([0-9]+)"
#define TOTAL_TAG	"Hint: Total mismatched samples is "

/* What the testbench's lines come to. */
struct verdict_lines {
	long	 mismatches, total;	/* VerilogEval's, -1 */
	int	 results;		/* such lines */
	long	 total_mismatches, total_samples;	/* RealBench's */
	int	 totals;		/* such lines */
	char	*total_line;
	long	 failures, passed;	/* RTLLM / ArchXBench counts, -1 */
	int	 passes;		/* pass lines */
	int	 fails;			/* fail lines */
	int	 finished;		/* the testbench's own $finish ran */
	int	 asserted;		/* its $error or $fatal ran */
	int	 untagged_verdicts;	/* verdict lines of anyone else */
	char	*result, *hint, *fail, *fatal;	/* evidence (new) */
};

static void
set_once(char **field, const char *v)
{
	if (*field == NULL)
		*field = xstrdup(v);
}

/* The ArchXBench JSON line: {"passed": N, "failed": M, ...}. */
static int
json_counts(const char *text, long *passed, long *failed)
{
	const char *p = text;

	while (*p == ' ' || *p == '\t')
		p++;
	return *p == '{' && ere_groups("\"passed\" *: *([0-9]+)", p, passed,
	    1) && ere_groups("\"failed\" *: *([0-9]+)", p, failed, 1);
}

/*
 * One line of a run under the default conventions, or under the task's
 * patterns when it gives them (pass_re, fail_re: NULL when not given).
 */
static int
read_line(const struct vline *l, const char *pass_re, const char *fail_re,
    struct verdict_lines *vl, struct err *err)
{
	const char *t = l->text, *tag = strstr(t, VERILOG_RESULT_TAG);
	long a, b, g[2];
	int rc;

	if (l->mark != 0) {
		vl->asserted = 1;
		vl->finished |= l->mark == 'f';
		set_once(&vl->fatal, t);
		return 0;
	}
	if (!l->tagged) {
		/* Someone else's verdict line: ignored, and said so. */
		if ((tag != NULL && sscanf(tag, VERILOG_RESULT_TAG "%ld in %ld",
		    &a, &b) == 2) || strstr(t, RTLLM_PASS) != NULL)
			vl->untagged_verdicts++;
		return 0;
	}
	if (strcmp(t, "!finish") == 0) {
		vl->finished = 1;
		return 0;
	}
	if (fail_re != NULL) {
		rc = ere_match(fail_re, t, "fail_pattern", err);
		if (rc < 0)
			return -1;
		if (rc) {
			vl->fails++;
			set_once(&vl->fail, t);
		}
	}
	if (pass_re != NULL) {
		rc = ere_match(pass_re, t, "pass_pattern", err);
		if (rc < 0)
			return -1;
		vl->passes += rc;
		return 0;
	}
	if (tag != NULL && sscanf(tag, VERILOG_RESULT_TAG "%ld in %ld samples",
	    &a, &b) == 2) {
		vl->mismatches = a;
		vl->total = b;
		vl->results++;
		free(vl->result);
		vl->result = xstrdup(tag);
		return 0;
	}
	/* RealBench's line, the result when there is no "Mismatches:" one
	 * (VerilogEval's testbenches print both). */
	if ((tag = strstr(t, TOTAL_TAG)) != NULL && sscanf(tag + strlen(
	    TOTAL_TAG), "%ld out of %ld samples", &a, &b) == 2) {
		vl->total_mismatches = a;
		vl->total_samples = b;
		vl->totals++;
		free(vl->total_line);
		vl->total_line = xstrdup(tag);
		return 0;
	}
	if (strncmp(t, "Hint: Output", 12) == 0 && strstr(t,
	    "has no mismatches") == NULL)
		set_once(&vl->hint, t);
	if (strstr(t, RTLLM_PASS) != NULL) {
		vl->passes++;
		return 0;
	}
	if (ere_groups(RTLLM_COUNT, t, &a, 1) && a >= 0) {
		vl->failures = (vl->failures > 0 ? vl->failures : 0) + a;
		if (a > 0) {
			vl->fails++;
			set_once(&vl->fail, t);
		} else {
			vl->passes++;
		}
		return 0;
	}
	if (ere_groups(ARCHX_COUNT, t, g, 2) || json_counts(t, &g[0], &g[1])) {
		a = g[0];
		b = g[1];
		vl->passed = a;
		vl->failures = b;
		if (b > 0) {
			vl->fails++;
			set_once(&vl->fail, t);
		} else if (a > 0) {
			vl->passes++;
		}
		return 0;
	}
	if (ere_groups(RTLLM_FAIL, t, NULL, 0)) {
		vl->fails++;
		set_once(&vl->fail, t);
	}
	return 0;
}

static void
judge_fail(struct run *r, const char *sub, const char *evidence)
{
	env_verdict(r, VERDICT_FAIL, CATEGORY_FUNCTIONAL, sub, evidence);
}

void
verilog_judge_sim(const struct task *t, const struct env_plan *plan,
    const struct env_stage_result *s, int warnings, const char *first_error,
    struct run *r)
{
	struct verdict_lines vl = { .mismatches = -1, .total = -1,
	    .total_mismatches = -1, .total_samples = -1, .failures = -1,
	    .passed = -1 };
	char *pass_re = env_param_str(t, "pass_pattern");
	char *fail_re = env_param_str(t, "fail_pattern");
	long expect = env_param_int(t, "expect_exit", 0);
	struct buf m = BUF_INIT;
	struct vline *lines;
	struct err err;
	size_t n;
	int bad = 0, dup;

	lines = split_lines(s->log, s->log_len, plan->nonce, &n);
	for (size_t i = 0; i < n && !bad; i++)
		bad = read_line(&lines[i], pass_re, fail_re, &vl, &err) < 0;
	free_lines(lines, n);
	if (vl.results == 0 && vl.totals > 0) {
		vl.mismatches = vl.total_mismatches;
		vl.total = vl.total_samples;
		vl.results = vl.totals;
		vl.result = vl.total_line;
		vl.total_line = NULL;
	}
	env_set(&r->stage, "simulate");
	if (bad) {
		/* The task's contract is broken, not the candidate. */
		env_verdict(r, VERDICT_TASK_DEFECT, CATEGORY_NONE,
		    "bad-contract", err.msg);
		goto out;
	}
	if (vl.untagged_verdicts > 0)
		run_add_diag(r, "", 0, 0, "warning", "a verdict line was"
		    " printed by something other than the testbench, and"
		    " ignored", 0);
	if (vl.mismatches >= 0)
		buf_printf(&m, ",\"mismatches\":%ld,\"total\":%ld",
		    vl.mismatches, vl.total);
	if (vl.failures >= 0)
		buf_printf(&m, ",\"failures\":%ld", vl.failures);
	if (vl.passed >= 0)
		buf_printf(&m, ",\"passed\":%ld", vl.passed);
	if (warnings >= 0)
		buf_printf(&m, ",\"warnings\":%d", warnings);
	if (m.len > 0) {
		free(r->metrics);
		r->metrics = xasprintf("{%s}", buf_str(&m) + 1);
	}
	dup = vl.results > 1 || (pass_re == NULL && vl.passes > 1 &&
	    vl.failures < 0);
	if (vl.mismatches > 0) {
		judge_fail(r, "mismatch", vl.hint != NULL ? vl.hint :
		    vl.result);
	} else if (vl.fails > 0) {
		judge_fail(r, "mismatch", vl.hint != NULL ? vl.hint : vl.fail);
	} else if (vl.asserted) {
		judge_fail(r, "assertion", vl.fatal != NULL ? vl.fatal :
		    "the testbench's $error or $fatal ran");
	} else if (s->exit_code != expect) {
		judge_fail(r, "runtime-error", first_error != NULL ?
		    first_error : "the simulation exited with an unexpected"
		    " status (a crash, or $fatal)");
	} else if (dup) {
		judge_fail(r, "second-result-line", "the verdict line came"
		    " more than once: the testbench ran past its end");
	} else if ((vl.results > 0 && vl.mismatches == 0) || vl.passes > 0) {
		if ((vl.results > 0 && vl.total <= 0) ||
		    (plan->finish_tagged && !vl.finished))
			/* The verdict came, but the testbench never reached
			 * its own $finish: something else ended the run. */
			judge_fail(r, "early-finish", "the simulation ended"
			    " before the testbench finished (a $finish"
			    " outside the testbench?)");
		else
			env_verdict(r, VERDICT_PASS, CATEGORY_NONE, NULL, NULL);
	} else {
		judge_fail(r, "no-verdict", "the testbench printed no verdict"
		    " line (docs/envs.md, \"Verdict contract\")");
	}
out:
	buf_release(&m);
	free(vl.result);
	free(vl.total_line);
	free(vl.hint);
	free(vl.fail);
	free(vl.fatal);
	free(pass_re);
	free(fail_re);
}

char *
verilog_rename_word(const char *code, const char *from, const char *to)
{
	struct buf b = BUF_INIT;
	size_t l = strlen(from);
	const char *p = code, *q;

	while ((q = strstr(p, from)) != NULL) {
		int word = (q == code || !verilog_is_ident((unsigned char)q[-1]))
		    && !verilog_is_ident((unsigned char)q[l]);

		buf_add(&b, p, (size_t)(q - p));
		buf_adds(&b, word ? to : from);
		p = q + l;
	}
	buf_adds(&b, p);
	return buf_detach(&b, NULL);
}

int
verilog_is_ident(int ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
	    (ch >= '0' && ch <= '9') || ch == '_' || ch == '$';
}

const char *
verilog_next_module(const char *code, size_t codelen, const char **p,
    size_t *len)
{
	const char *end = code + codelen;

	while (*p < end) {
		const char *s = *p, *q;

		if (s + 1 < end && s[0] == '/' && s[1] == '/') {
			q = memchr(s, '\n', (size_t)(end - s));
			*p = q != NULL ? q : end;
			continue;
		}
		if (s + 1 < end && s[0] == '/' && s[1] == '*') {
			q = memmem(s + 2, (size_t)(end - s - 2), "*/", 2);
			*p = q != NULL ? q + 2 : end;
			continue;
		}
		if ((size_t)(end - s) > 6 && memcmp(s, "module", 6) == 0 &&
		    (s == code || !verilog_is_ident((unsigned char)s[-1])) &&
		    !verilog_is_ident((unsigned char)s[6])) {
			s += 6;
			while (s < end && (*s == ' ' || *s == '\t' ||
			    *s == '\n' || *s == '\r'))
				s++;
			for (q = s; q < end && verilog_is_ident((unsigned char)*q);
			    q++)
				;
			*p = q;
			if (q == s)
				continue;
			*len = (size_t)(q - s);
			return s;
		}
		(*p)++;
	}
	return NULL;
}

char *
verilog_pick_top(const char *code, size_t len, const char *tops)
{
	const char *p = code, *n;
	size_t nl;

	while ((n = verilog_next_module(code, len, &p, &nl)) != NULL) {
		char *name = xstrndup(n, nl);

		if (tops != NULL ? in_list(tops, name) :
		    strcmp(name, "TopModule") == 0 ||
		    strcmp(name, "top_module") == 0)
			return name;
		free(name);
	}
	/* No answer to the task's interface: name what it asked for, so
	 * that the tool reports the missing top (format/missing-top)
	 * instead of judging some other module. */
	if (tops != NULL)
		return xstrndup(tops, strcspn(tops, " "));
	return xstrdup("TopModule");
}

static int
line_at(const char *s, size_t off)
{
	int line = 1;

	for (size_t i = 0; i < off; i++)
		line += s[i] == '\n';
	return line;
}

/* A module of the candidate as the lexical scan sees it. */
struct lexmod {
	char	 name[128];
	size_t	 start, end;
	int	 grammar;	/* the grammar's module at the same place, or
				   -1: it has no declared names (fail closed) */
};

/* The containers of Verilog: each one's code is scanned for references. */
static const char *const containers[][2] = {
	{ "module", "endmodule" }, { "macromodule", "endmodule" },
	{ "interface", "endinterface" }, { "program", "endprogram" },
	{ "package", "endpackage" }, { "class", "endclass" },
	{ "checker", "endchecker" }, { "primitive", "endprimitive" },
	{ "config", "endconfig" },
};

/* Is m[i..] the word w (not part of a longer name, not a macro)? */
static int
word_at(const char *m, size_t len, size_t i, const char *w)
{
	size_t n = strlen(w);

	return i + n <= len && memcmp(m + i, w, n) == 0 && (i == 0 ||
	    !(verilog_is_ident((unsigned char)m[i - 1]) || m[i - 1] == '`' ||
	    m[i - 1] == '\\' || m[i - 1] == '$')) && (i + n == len ||
	    !verilog_is_ident((unsigned char)m[i + n]));
}

/* Is m[i..] the directive `w (m[i] is the backquote)? */
static int
directive_at(const char *m, size_t len, size_t i, const char *w)
{
	size_t n = strlen(w);

	return m[i] == '`' && i + 1 + n <= len && memcmp(m + i + 1, w, n) ==
	    0 && (i + 1 + n == len || !verilog_is_ident(
	    (unsigned char)m[i + 1 + n]));
}

/*
 * The containers of masked code m (module, macromodule, interface,
 * program, package, class, checker, primitive, config): KEYWORD [NAME]
 * up to the matching end keyword.  Lexical, so that a module the grammar
 * cannot read is still checked.  A module's grammar index is the
 * grammar's only module of that name (-1 when none or several: no
 * declared names, fail closed).  New array of *n.
 */
static struct lexmod *
lex_modules(const char *m, size_t len, const struct syn_verilog *v,
    size_t *n)
{
	struct lexmod *out = NULL;
	size_t i = 0, nc = sizeof containers / sizeof containers[0];

	*n = 0;
	/* A completion (VerilogEval v1, RTLFixer) continues the task's
	 * module: its text up to the first endmodule is that module's
	 * body, whose names the grammar cannot tell (fail closed). */
	for (size_t c; i < len; i++) {
		for (c = 0; c < nc && !word_at(m, len, i, containers[c][0]);
		    c++)
			;
		if (c < nc)
			break;
		if (word_at(m, len, i, "endmodule")) {
			out = xcalloc(1, sizeof *out);
			out->start = 0;
			out->end = i + 9;
			out->grammar = -1;
			*n = 1;
			i += 9;
			break;
		}
	}
	if (*n == 0)
		i = 0;
	while (i < len) {
		size_t k, s, c;
		struct lexmod *lm;

		for (c = 0; c < nc && !word_at(m, len, i, containers[c][0]);
		    c++)
			;
		if (c == nc) {
			i++;
			continue;
		}
		s = i;
		k = skip_blank(m, i + strlen(containers[c][0]), len);
		out = xreallocarray(out, *n + 1, sizeof *out);
		lm = &out[(*n)++];
		memset(lm, 0, sizeof *lm);
		if (k < len && m[k] == '\\') {
			/* An escaped identifier (IEEE 1800-2017 5.6.1):
			 * "\\RefModule " names RefModule, as a tool reads
			 * it, up to the next blank. */
			size_t o = 0;

			for (i = k + 1; i < len && !isspace((unsigned char)m[i])
			    && o + 1 < sizeof lm->name; i++)
				lm->name[o++] = m[i];
		} else {
			for (i = k; i < len &&
			    verilog_is_ident((unsigned char)m[i]) &&
			    i - k + 1 < sizeof lm->name; i++)
				lm->name[i - k] = m[i];
		}
		lm->start = s;
		lm->end = len;
		for (; i < len; i++)
			if (word_at(m, len, i, containers[c][1])) {
				lm->end = i + strlen(containers[c][1]);
				break;
			}
		lm->grammar = -1;
		for (size_t g = 0; c < 2 && g < v->nmodules; g++)
			if (strcmp(v->modules[g].name, lm->name) == 0)
				lm->grammar = lm->grammar == -1 ? (int)g : -2;
		if (lm->grammar < 0)
			lm->grammar = -1;
		i = lm->end;
	}
	return out;
}

/*
 * May a reference in module lm start at name?  An instance lm makes, lm's
 * own name, or a name lm declares (a struct, a generate block) that no
 * compiled file of the task uses (words, space-separated, may be NULL):
 * a declared name may live in a narrower scope than the reference (a
 * function's argument "testbench"), which then resolves upwards, into
 * the testbench, and only the task's files name what lies there.
 */
static int
declared(const struct syn_verilog *v, const struct lexmod *lm,
    const char *name, const char *words)
{
	static const char *const builtin[] = { "this", "super", "local" };

	if (lm->name[0] != '\0' && strcmp(lm->name, name) == 0)
		return 1;
	for (size_t i = 0; i < sizeof builtin / sizeof builtin[0]; i++)
		if (strcmp(name, builtin[i]) == 0)
			return 1;
	for (size_t i = 0; i < v->nnames && lm->grammar >= 0; i++)
		if (v->names[i].module == lm->grammar &&
		    strcmp(v->names[i].name, name) == 0 &&
		    (v->names[i].type != NULL || !in_list(words, name)))
			return 1;
	return 0;
}

/* A finding of verilog_check_candidate(); msg is new and freed here. */
static void
finding(struct buf *out, int line, const char *sub, char *msg)
{
	if (out->len == 0)	/* the first one is the evidence */
		buf_printf(out, "%d\t%s\t%s", line, sub, msg);
	free(msg);
}

/* The first hierarchical reference out of a candidate module. */
static void
check_references(const char *m, size_t len, const struct syn_verilog *v,
    const char *words, struct buf *out)
{
	size_t i = 0, nmods;
	struct lexmod *mods = lex_modules(m, len, v, &nmods);

	while (i < len && out->len == 0) {
		size_t s = i, e, q;
		const struct lexmod *mod = NULL;
		char *root;

		if (m[i] >= '0' && m[i] <= '9') {
			/* A number: 8'hff, 1.5, 3e2. */
			while (i < len && (verilog_is_ident((unsigned char)m[i])
			    || m[i] == '.' || m[i] == '\''))
				i++;
			continue;
		}
		if (!(verilog_is_ident((unsigned char)m[i]) || m[i] == '\\')) {
			i++;
			continue;
		}
		if (m[i] == '\\') {
			while (i < len && m[i] != ' ' && m[i] != '\t' &&
			    m[i] != '\n')
				i++;
		} else {
			while (i < len && verilog_is_ident((unsigned char)m[i]))
				i++;
		}
		e = i;
		/* A member (x.NAME), a macro, a base ('h...) or a package
		 * item (p::NAME) is not the root of a reference. */
		q = s;
		while (q > 0 && (m[q - 1] == ' ' || m[q - 1] == '\t' ||
		    m[q - 1] == '\n' || m[q - 1] == '\r'))
			q--;
		if (q > 0 && (m[q - 1] == '.' || m[q - 1] == '`' ||
		    m[q - 1] == '\'' || (m[q - 1] == ':' && q > 1 &&
		    m[q - 2] == ':')))
			continue;
		if (s > 0 && (m[s - 1] == '`' || m[s - 1] == '\''))
			continue;
		/* NAME [index]... . NAME */
		q = e;
		for (;;) {
			while (q < len && (m[q] == ' ' || m[q] == '\t' ||
			    m[q] == '\n' || m[q] == '\r'))
				q++;
			if (q < len && m[q] == '[') {
				int depth = 0;

				for (; q < len; q++) {
					depth += (m[q] == '[') - (m[q] == ']');
					if (depth == 0)
						break;
				}
				q += q < len;
				continue;
			}
			break;
		}
		if (q >= len || m[q] != '.')
			continue;
		q++;
		while (q < len && (m[q] == ' ' || m[q] == '\t' || m[q] == '\n'))
			q++;
		if (q >= len || !(verilog_is_ident((unsigned char)m[q]) ||
		    m[q] == '\\') || (m[q] >= '0' && m[q] <= '9'))
			continue;
		for (size_t k = 0; k < nmods; k++)
			if (s >= mods[k].start && s < mods[k].end)
				mod = &mods[k];
		if (mod == NULL && v->has_error)
			continue;	/* prose around code the tools refuse */
		root = xstrndup(m + s + (m[s] == '\\'), e - s - (m[s] == '\\'));
		if (mod == NULL || strcmp(root, "$root") == 0 ||
		    !declared(v, mod, root, words)) {
			size_t k = q;

			while (k < len && (verilog_is_ident((unsigned char)m[k])
			    || m[k] == '.' || m[k] == '[' || m[k] == ']'))
				k++;
			finding(out, line_at(m, s), "out-of-module-reference",
			    xasprintf("%.*s reaches outside %s%s: a"
			    " hierarchical reference of a candidate must"
			    " start at what its module makes itself",
			    (int)(k - s), m + s, mod != NULL ? "module " :
			    "every module", mod != NULL ? mod->name : ""));
		}
		free(root);
	}
	free(mods);
}

/* A `define of the candidate's, as the macro expansion uses it. */
struct macro {
	char	 name[128];
	char	*params[32];	/* formal arguments (owned) */
	int	 nparams;	/* -1: no parentheses */
	char	*body;		/* masked, continuations as blanks (owned) */
};

struct macros {
	struct macro	*v;
	size_t		 n;
	int		 overflow;	/* too deep or too large */
};

#define MACRO_DEPTH	32
#define MACRO_MAX	((size_t)16 << 20)

static void
macros_release(struct macros *ms)
{
	for (size_t i = 0; i < ms->n; i++) {
		for (int p = 0; p < ms->v[i].nparams; p++)
			free(ms->v[i].params[p]);
		free(ms->v[i].body);
	}
	free(ms->v);
}

static const struct macro *
macro_find(const struct macros *ms, const char *s, size_t n)
{
	for (size_t i = 0; i < ms->n; i++)
		if (strlen(ms->v[i].name) == n && memcmp(ms->v[i].name, s,
		    n) == 0)
			return &ms->v[i];
	return NULL;
}

/*
 * The `define directives of masked code m into ms; each directive is
 * blanked in m (newlines kept).  A macro defined twice or `undef is a
 * finding: which definition counts would depend on the tool.
 */
static void
collect_macros(char *m, size_t len, struct macros *ms, struct buf *out)
{
	for (size_t i = 0; i < len; i++) {
		size_t k, b, e;
		struct macro mc;

		if (m[i] != '`' || (i > 0 && verilog_is_ident(
		    (unsigned char)m[i - 1])))
			continue;
		if (directive_at(m, len, i, "undef") ||
		    directive_at(m, len, i, "undefineall")) {
			finding(out, line_at(m, i), "forbidden-construct",
			    xstrdup("`undef is not allowed in a candidate:"
			    " each tool could see a different macro"));
			continue;
		}
		if (!directive_at(m, len, i, "define"))
			continue;
		memset(&mc, 0, sizeof mc);
		mc.nparams = -1;
		k = i + 7;
		while (k < len && (m[k] == ' ' || m[k] == '\t'))
			k++;
		for (b = k; k < len && verilog_is_ident((unsigned char)m[k]) &&
		    k - b + 1 < sizeof mc.name; k++)
			mc.name[k - b] = m[k];
		if (k < len && m[k] == '(') {
			mc.nparams = 0;
			for (k++; k < len && m[k] != ')' && m[k] != '\n'; ) {
				while (k < len && !verilog_is_ident(
				    (unsigned char)m[k]) && m[k] != ')' &&
				    m[k] != '\n')
					k++;
				for (b = k; k < len && verilog_is_ident(
				    (unsigned char)m[k]); k++)
					;
				if (k > b && mc.nparams < 32)
					mc.params[mc.nparams++] = xstrndup(
					    m + b, k - b);
				/* A default value ("= 1") up to the comma. */
				while (k < len && m[k] != ',' && m[k] != ')' &&
				    m[k] != '\n')
					k++;
				k += k < len && m[k] == ',';
			}
			k += k < len && m[k] == ')';
		}
		for (e = k; e < len && (m[e] != '\n' || m[e - 1] == '\\'); e++)
			;
		mc.body = xstrndup(m + k, e - k);
		for (char *p = mc.body; *p != '\0'; p++)
			if (*p == '\n' || *p == '\\')
				*p = ' ';
		if (mc.name[0] != '\0' && macro_find(ms, mc.name,
		    strlen(mc.name)) != NULL)
			finding(out, line_at(m, i), "forbidden-construct",
			    xasprintf("`define %s a second time is not allowed"
			    " in a candidate: each tool could see a different"
			    " macro", mc.name));
		ms->v = xreallocarray(ms->v, ms->n + 1, sizeof *ms->v);
		ms->v[ms->n++] = mc;
		for (k = i; k < e; k++)
			if (m[k] != '\n')
				m[k] = ' ';
		i = e;
	}
}

/* Expand the candidate's macros in s into dst (newlines of s kept). */
static void
expand_macros(const struct macros *ms, const char *s, size_t len, int depth,
    struct buf *dst, int *overflow)
{
	size_t i = 0;

	if (depth > MACRO_DEPTH) {
		*overflow = 1;
		return;
	}
	while (i < len && !*overflow) {
		const struct macro *mc;
		char *args[32];
		size_t k, nl = 0;
		int nargs = 0;
		struct buf sub = BUF_INIT;

		if (dst->len > MACRO_MAX) {
			*overflow = 1;
			return;
		}
		if (s[i] != '`' || (i > 0 && verilog_is_ident(
		    (unsigned char)s[i - 1]))) {
			buf_addc(dst, s[i++]);
			continue;
		}
		for (k = i + 1; k < len && verilog_is_ident((unsigned char)s[k]);
		    k++)
			;
		if ((mc = macro_find(ms, s + i + 1, k - i - 1)) == NULL) {
			buf_add(dst, s + i, k - i);
			i = k;
			continue;
		}
		if (mc->nparams >= 0) {
			size_t a = k;
			int d = 0;

			while (a < len && (s[a] == ' ' || s[a] == '\t' ||
			    s[a] == '\n'))
				nl += s[a++] == '\n';
			if (a >= len || s[a] != '(')
				nl = 0;
			if (a < len && s[a] == '(') {
				size_t b = ++a;

				for (; a < len; a++) {
					nl += s[a] == '\n';
					if (d == 0 && (s[a] == ',' ||
					    s[a] == ')')) {
						if (nargs < 32)
							args[nargs++] =
							    xstrndup(s + b,
							    a - b);
						b = a + 1;
						if (s[a] == ')')
							break;
						continue;
					}
					d += (s[a] == '(' || s[a] == '[' ||
					    s[a] == '{') - (s[a] == ')' ||
					    s[a] == ']' || s[a] == '}');
				}
				k = a + (a < len);
			}
		}
		/* The body with the arguments put in, then expanded. */
		for (const char *p = mc->body; *p != '\0'; ) {
			const char *q = p;
			int f;

			if (!verilog_is_ident((unsigned char)*p) ||
			    (p > mc->body && (p[-1] == '`' || p[-1] == '$'))) {
				buf_addc(&sub, *p++);
				continue;
			}
			while (verilog_is_ident((unsigned char)*q))
				q++;
			for (f = 0; f < mc->nparams && f < nargs; f++)
				if (strlen(mc->params[f]) == (size_t)(q - p) &&
				    memcmp(mc->params[f], p, q - p) == 0)
					break;
			if (f < mc->nparams && f < nargs) {
				for (char *c = args[f]; *c != '\0'; c++)
					buf_addc(&sub, *c == '\n' ? ' ' : *c);
			} else {
				buf_add(&sub, p, q - p);
			}
			p = q;
		}
		buf_addc(dst, ' ');
		expand_macros(ms, sub.len > 0 ? buf_str(&sub) : "", sub.len,
		    depth + 1, dst, overflow);
		buf_addc(dst, ' ');
		buf_release(&sub);
		for (int f = 0; f < nargs; f++)
			free(args[f]);
		while (nl-- > 0)
			buf_addc(dst, '\n');
		i = k;
	}
}

/* Is the $name of length k at p one of Verilator's C++ calls or a shell? */
static int
banned_call(const char *p, size_t k)
{
	size_t d = 2;

	/* $c, $c8, $c32, $c64, $c128 ...: any digits */
	if (k >= 2 && p[1] == 'c') {
		while (d < k && p[d] >= '0' && p[d] <= '9')
			d++;
		if (d == k)
			return 1;
	}
	return (k >= 6 && strncmp(p, "$cpure", 6) == 0) ||
	    (k == 7 && strncmp(p, "$system", 7) == 0);
}

/*
 * Comments of the raw code that Verilator reads as directives (public
 * names, C++ inline, all but lint and coverage switches).  The first
 * finding into out.
 */
static void
check_metacomments(const char *code, size_t len, struct buf *out)
{
	static const char *const allowed[] = {
		"lint_off", "lint_on", "lint_save", "lint_restore",
		"coverage_off", "coverage_on", "tracing_off", "tracing_on",
	};
	size_t i = 0;

	while (i < len && out->len == 0) {
		size_t s, e;

		if (code[i] == '"') {
			for (i++; i < len && code[i] != '"' && code[i] != '\n';
			    i++)
				i += code[i] == '\\';
			i++;
			continue;
		}
		if (code[i] != '/' || i + 1 >= len || (code[i + 1] != '/' &&
		    code[i + 1] != '*')) {
			i++;
			continue;
		}
		s = i + 2;
		if (code[i + 1] == '/') {
			for (e = s; e < len && code[e] != '\n'; e++)
				;
		} else {
			for (e = s; e + 1 < len && !(code[e] == '*' &&
			    code[e + 1] == '/'); e++)
				;
		}
		for (size_t k = s; k < e; k++) {
			const char *w = code + k;
			size_t n;

			if (!isalpha((unsigned char)*w) || (k > s &&
			    (verilog_is_ident((unsigned char)w[-1]))))
				continue;
			for (n = 0; k + n < e && verilog_is_ident(
			    (unsigned char)w[n]); n++)
				;
			if (n == 9 && strncmp(w, "verilator", 9) == 0 &&
			    (k == s || isspace((unsigned char)w[-1]) ||
			    w[-1] == '*' || w[-1] == '/')) {
				size_t a = k + n, b;
				int ok = 0;

				while (a < e && isspace((unsigned char)code[a]))
					a++;
				for (b = a; b < e && verilog_is_ident(
				    (unsigned char)code[b]); b++)
					;
				for (size_t x = 0; x < sizeof allowed /
				    sizeof allowed[0]; x++)
					ok |= strlen(allowed[x]) == b - a &&
					    strncmp(code + a, allowed[x],
					    b - a) == 0;
				/* prose: "verilator" not the comment's first
				 * word is no metacomment */
				for (size_t x = s; x < k && !ok; x++)
					ok = !isspace((unsigned char)code[x]) &&
					    code[x] != '*' && code[x] != '/';
				if (!ok) {
					finding(out, line_at(code, i),
					    "forbidden-construct", xasprintf(
					    "the metacomment verilator %.*s is"
					    " not allowed in a candidate: it"
					    " reaches outside the design",
					    (int)(b - a), code + a));
					break;
				}
			}
			k += n;
		}
		i = e + 2;
	}
}

/*
 * The system tasks and functions a candidate may call (docs/security.md,
 * "Files of the harness"): output, simulation end, time, conversions,
 * queries, mathematics, bit vectors, severity, sampled values, random
 * numbers and string formatting.  Nothing here opens, reads, writes,
 * seeks, flushes or dumps a file, reads the command line, or switches
 * off the testbench's checks ($assertoff, $monitoroff, $dumpoff): the
 * testbench's waveform, its data and its open descriptors are the
 * harness's.  Any other name, Icarus Verilog's and Verilator's own
 * included, is refused.
 */
static const char *const design_calls[] = {
	"$display", "$displayb", "$displayh", "$displayo",
	"$write", "$writeb", "$writeh", "$writeo",
	"$strobe", "$strobeb", "$strobeh", "$strobeo",
	"$monitor", "$monitorb", "$monitorh", "$monitoro",
	"$sformat", "$sformatf", "$swrite", "$swriteb", "$swriteh",
	"$swriteo", "$sscanf",
	"$finish", "$stop",
	"$time", "$stime", "$realtime",
	"$signed", "$unsigned", "$cast", "$itor", "$rtoi", "$bitstoreal",
	"$realtobits", "$bitstoshortreal", "$shortrealtobits",
	"$bits", "$typename", "$isunbounded", "$size", "$dimensions",
	"$unpacked_dimensions", "$left", "$right", "$low", "$high",
	"$increment",
	"$clog2", "$ln", "$log10", "$exp", "$sqrt", "$pow", "$floor", "$ceil",
	"$sin", "$cos", "$tan", "$asin", "$acos", "$atan", "$atan2", "$hypot",
	"$sinh", "$cosh", "$tanh", "$asinh", "$acosh", "$atanh", "$abs",
	"$min", "$max",
	"$countbits", "$countones", "$onehot", "$onehot0", "$isunknown",
	"$fatal", "$error", "$warning", "$info",
	"$sampled", "$rose", "$fell", "$stable", "$changed", "$past",
	"$random", "$urandom", "$urandom_range", "$dist_chi_square",
	"$dist_erlang", "$dist_exponential", "$dist_normal", "$dist_poisson",
	"$dist_t", "$dist_uniform",
};

/* May a candidate call the system task or function of length k at p? */
static int
design_call(const char *p, size_t k)
{
	for (size_t i = 0; i < sizeof design_calls / sizeof design_calls[0];
	    i++)
		if (strlen(design_calls[i]) == k && memcmp(design_calls[i], p,
		    k) == 0)
			return 1;
	return 0;
}

/* Is the name of length k at p $readmemh or $readmemb? */
static int
is_readmem(const char *p, size_t k)
{
	return k == 9 && (memcmp(p, "$readmemh", 9) == 0 ||
	    memcmp(p, "$readmemb", 9) == 0);
}

/* The $readmemh/$readmemb calls of masked code m. */
static size_t
count_readmem(const char *m, size_t len)
{
	size_t n = 0;

	for (size_t i = 0; i + 9 <= len; i++)
		if (m[i] == '$' && (i == 0 || !verilog_is_ident(
		    (unsigned char)m[i - 1])) && is_readmem(m + i, 9) &&
		    (i + 9 == len || !verilog_is_ident(
		    (unsigned char)m[i + 9])))
			n++;
	return n;
}

/*
 * Does the $readmem call whose name ends at m[i] read a file of reads
 * (space-separated names, may be NULL), named by a plain string literal
 * in code (m masked from code, same offsets)?  The name must be a
 * literal: a variable or a macro could name any file.
 */
static int
reads_allowed(const char *m, size_t len, const char *code, size_t i,
    const char *reads)
{
	size_t e;
	char *name;
	int ok;

	i = skip_blank(m, i, len);
	if (i >= len || m[i] != '(')
		return 0;
	i = skip_blank(m, i + 1, len);
	if (i >= len || m[i] != '"')
		return 0;
	for (e = i + 1; e < len && m[e] != '"' && m[e] != '\n'; e++)
		;
	if (e >= len || m[e] != '"')
		return 0;
	name = xstrndup(code + i + 1, e - i - 1);
	ok = name[0] != '\0' && strpbrk(name, " \t\\\"") == NULL &&
	    in_list(reads, name);
	free(name);
	return ok;
}

/*
 * Is the macro use at m[i] (a backquote) glued to the name before it, so
 * that the tools read the two as one ("$`F" with F "fopen" is $fopen,
 * "$write`W" with W "memh" is $writememh, "`D`F" with D "$")?  A system
 * name or another macro use right before the backquote glues; a plain
 * identifier ("8'h`V") cannot make a system name.
 */
static int
glued_before(const char *m, size_t i)
{
	size_t j = i;

	while (j > 0 && verilog_is_ident((unsigned char)m[j - 1]))
		j--;
	return j < i && (m[j] == '$' || (j > 0 && m[j - 1] == '`'));
}

/*
 * Is the macro use at m[i] one with arguments whose ")" is followed at
 * once by a name, "$" or another macro ("`D(x)fopen"): the expansion and
 * that text would be one token to the tools?
 */
static int
glued_after(const char *m, size_t len, size_t i)
{
	size_t k = i + 1;
	int depth = 0;

	while (k < len && verilog_is_ident((unsigned char)m[k]))
		k++;
	k = skip_blank(m, k, len);
	if (k >= len || m[k] != '(')
		return 0;
	for (; k < len; k++) {
		depth += (m[k] == '(' || m[k] == '[' || m[k] == '{') -
		    (m[k] == ')' || m[k] == ']' || m[k] == '}');
		if (depth == 0)
			break;
	}
	return k + 1 < len && (verilog_is_ident((unsigned char)m[k + 1]) ||
	    m[k + 1] == '`');
}

/* Is the `ifdef etc. NAME at m[i] a macro the candidate defines itself? */
static int
own_macro(const struct macros *ms, const char *m, size_t len, size_t i)
{
	size_t b;

	while (i < len && (m[i] == ' ' || m[i] == '\t'))
		i++;
	for (b = i; i < len && verilog_is_ident((unsigned char)m[i]); i++)
		;
	return macro_find(ms, m + b, i - b) != NULL;
}

/*
 * Does the random call of length k at m[i] use or set the simulation's
 * shared random state?  $urandom and $urandom_range always do (Icarus
 * Verilog 11: $urandom(s) seeds the state every $urandom draws from);
 * $random and $dist_* unless their first argument is a variable, the
 * seed they read and write instead (measured: $random(s) leaves the
 * testbench's $random draws as they were).
 */
static int
global_random(const char *m, size_t len, size_t i, size_t k)
{
	struct call c;
	size_t s, e;

	if ((k == 8 && memcmp(m + i, "$urandom", 8) == 0) ||
	    (k == 14 && memcmp(m + i, "$urandom_range", 14) == 0))
		return 1;
	if (!(k == 7 && memcmp(m + i, "$random", 7) == 0) &&
	    !(k > 6 && memcmp(m + i, "$dist_", 6) == 0))
		return 0;
	if (!scan_call(m, len, i, &c) || c.nargs == 0)
		return 1;
	s = c.arg_start[0];
	e = c.arg_end[0];
	if (s >= e || (m[s] >= '0' && m[s] <= '9'))
		return 1;
	for (; s < e; s++)
		if (!verilog_is_ident((unsigned char)m[s]))
			return 1;
	return 0;
}

/*
 * The lexical findings of masked code m (before or after the macros are
 * expanded): directives, calls and keywords a candidate may not use.
 * code is the text m was masked from (same offsets), before the macros
 * are expanded; NULL after, when string literals cannot be read.  reads
 * (may be NULL) names the data files $readmemh/$readmemb may read.
 * calls_only: only what reaches files or code outside the design (system
 * calls, `include, macros glued to names), for yosys.
 */
static void
check_tokens(const char *m, size_t len, const char *code,
    const struct macros *ms, const char *reads, int calls_only,
    struct buf *out)
{
	static const char *const keywords[] = {
		/* They reach into other modules without a hierarchical
		 * reference of the candidate's own, or override them. */
		"force", "release", "defparam", "bind",
	};

	for (size_t i = 0; i < len && out->len == 0; i++) {
		const char *p = m + i;
		size_t k;

		if (*p == '`' && i > 0 && (glued_before(m, i) ||
		    glued_after(m, len, i))) {
			for (k = 1; verilog_is_ident((unsigned char)p[k]); k++)
				;
			finding(out, line_at(m, i), "forbidden-construct",
			    xasprintf("%.*s glued to the name beside it is not"
			    " allowed in a candidate: the tools would read the"
			    " two as one name", (int)k, p));
			continue;
		}
		/* An escaped identifier ("\\" then "$fopen ") is the
		 * system task $fopen to Icarus Verilog. */
		if (i > 0 && (verilog_is_ident((unsigned char)m[i - 1]) ||
		    (m[i - 1] == '\\' && *p != '$')))
			continue;
		if (calls_only && *p != '$' && !(*p == '`' &&
		    directive_at(m, len, i, "include")))
			continue;
		if (*p == '`' && strncmp(p, "`define", 7) == 0 &&
		    !verilog_is_ident((unsigned char)p[7])) {
			/* A macro that holds "." or pastes tokens can build a
			 * hierarchical reference. */
			for (k = 7; p[k] != '\0' && (p[k] != '\n' ||
			    p[k - 1] == '\\'); k++)
				if (p[k] == '.' || (p[k] == '`' &&
				    p[k + 1] == '`'))
					break;
			if (p[k] == '.' || p[k] == '`')
				finding(out, line_at(m, i),
				    "forbidden-construct", xasprintf("a"
				    " `define that holds \"%s\" is not allowed"
				    " in a candidate: it can hide a"
				    " hierarchical reference", p[k] == '.' ?
				    "." : "``"));
		} else if (*p == '`' && (strncmp(p, "`include", 8) == 0 ||
		    strncmp(p, "`systemc_", 9) == 0 ||
		    strncmp(p, "`verilog", 8) == 0 ||
		    strncmp(p, "`verilator", 10) == 0 ||
		    strncmp(p, "`pragma", 7) == 0)) {
			for (k = 1; verilog_is_ident((unsigned char)p[k]); k++)
				;
			finding(out, line_at(m, i), "forbidden-construct",
			    xasprintf("%.*s is not allowed in a candidate: it"
			    " reaches files or code outside the design",
			    (int)k, p));
		} else if (*p == '`' && ms != NULL && ((directive_at(m, len,
		    i, "ifdef") && !own_macro(ms, m, len, i + 6)) ||
		    (directive_at(m, len, i, "ifndef") && !own_macro(ms, m,
		    len, i + 7)) || (directive_at(m, len, i, "elsif") &&
		    !own_macro(ms, m, len, i + 6)))) {
			for (k = 1; verilog_is_ident((unsigned char)p[k]); k++)
				;
			while (p[k] == ' ' || p[k] == '\t')
				k++;
			while (verilog_is_ident((unsigned char)p[k]))
				k++;
			finding(out, line_at(m, i), "forbidden-construct",
			    xasprintf("%.*s is not allowed in a candidate: a"
			    " macro the candidate does not define is the"
			    " tool's (YOSYS, SYNTHESIS, VERILATOR), and each"
			    " tool would see a different design", (int)k, p));
		} else if (*p == '`' && ms != NULL &&
		    verilog_is_ident((unsigned char)p[1])) {
			/* A macro not the candidate's (the task's, or
			 * none) as the root of a hierarchical reference. */
			for (k = 1; verilog_is_ident((unsigned char)p[k]); k++)
				;
			while (p[k] == ' ' || p[k] == '\t' || p[k] == '\n')
				k++;
			if (p[k] == '.' && verilog_is_ident((unsigned char)
			    p[k + 1]))
				finding(out, line_at(m, i),
				    "out-of-module-reference", xasprintf("%.*s"
				    " is a macro the candidate does not define"
				    " as the root of a hierarchical reference",
				    (int)strcspn(p, " \t\n."), p));
		} else if (*p == '$') {
			for (k = 1; verilog_is_ident((unsigned char)p[k]); k++)
				;
			if (banned_call(p, k))
				finding(out, line_at(m, i),
				    "forbidden-construct", xasprintf(
				    "%.*s is not allowed in a candidate:"
				    " it runs code outside the design",
				    (int)k, p));
			else if ((k == 5 && strncmp(p, "$root", 5) == 0) ||
			    (k == 5 && strncmp(p, "$unit", 5) == 0)) {
				if (!calls_only)
					finding(out, line_at(m, i),
					    "out-of-module-reference",
					    xasprintf("%.*s is not allowed in"
					    " a candidate: it reaches outside"
					    " its modules", (int)k, p));
			} else if (is_readmem(p, k) && (code != NULL ?
			    !reads_allowed(m, len, code, i + k, reads) :
			    reads == NULL)) {
				finding(out, line_at(m, i), subcategory_name(
				    SUB_FORBIDDEN_CALL), xasprintf("%.*s is"
				    " not allowed in a candidate but of a data"
				    " file its task names in"
				    " env_params.design_reads, by a string"
				    " literal (%s): the testbench's files are"
				    " the harness's", (int)k, p, reads != NULL ?
				    reads : "the task names none"));
			} else if (global_random(m, len, i, k)) {
				finding(out, line_at(m, i), subcategory_name(
				    SUB_FORBIDDEN_CALL), xasprintf("%.*s"
				    " without a seed variable of the"
				    " candidate's own is not allowed in a"
				    " candidate: it draws from or seeds the"
				    " simulation's random state, which the"
				    " testbench's stimuli come from", (int)k,
				    p));
			} else if (k > 1 && !is_readmem(p, k) &&
			    !design_call(p, k)) {
				finding(out, line_at(m, i), subcategory_name(
				    SUB_FORBIDDEN_CALL), xasprintf("%.*s is"
				    " not allowed in a candidate: a design may"
				    " not reach the simulation's files (the"
				    " testbench's waveform, data and outputs),"
				    " its descriptors or its controls", (int)k,
				    p));
			}
		} else if ((strncmp(p, "import", 6) == 0 ||
		    strncmp(p, "export", 6) == 0) && !verilog_is_ident(
		    (unsigned char)p[6])) {
			for (k = 6; p[k] == ' ' || p[k] == '\t' || p[k] == '\n';
			    k++)
				;
			if (p[k] == '"')
				finding(out, line_at(m, i),
				    "forbidden-construct", xasprintf("a DPI"
				    " %.6s is not allowed in a candidate: it"
				    " runs C code in the simulation", p));
		} else if (verilog_is_ident((unsigned char)*p) && (i == 0 ||
		    (m[i - 1] != '`' && m[i - 1] != '$' && m[i - 1] != '.'))) {
			for (size_t w = 0; w < sizeof keywords /
			    sizeof keywords[0]; w++)
				if (word_at(m, len, i, keywords[w]))
					finding(out, line_at(m, i),
					    "forbidden-construct", xasprintf(
					    "%s is not allowed in a candidate:"
					    " it reaches into modules the"
					    " candidate does not own",
					    keywords[w]));
			while (i + 1 < len && verilog_is_ident(
			    (unsigned char)m[i + 1]))
				i++;
		}
	}
}

/*
 * Declarations at compilation-unit scope ($unit) other than types,
 * parameters and imports: a variable there is shared by every module of
 * the compilation, the testbench's included.
 */
static void
check_unit_scope(const char *m, size_t len, const struct lexmod *mods,
    size_t nmods, struct buf *out)
{
	static const char *const allowed[] = {
		"typedef", "localparam", "parameter", "import", "timeunit",
		"timeprecision", "extern",
		/* a stray one, which Icarus ignores */
		"endmodule",
	};
	size_t i = 0, mi = 0;
	int start = 1;

	while (i < len && out->len == 0) {
		size_t k;
		int ok = 0;

		if (mi < nmods && i >= mods[mi].start) {
			i = mods[mi++].end;
			start = 1;
			continue;
		}
		if (m[i] == ';') {
			start = 1;
			i++;
			continue;
		}
		if (m[i] == '`') {	/* a directive: to the end of its line */
			while (i < len && m[i] != '\n')
				i++;
			continue;
		}
		if (!start || m[i] == ' ' || m[i] == '\t' || m[i] == '\n') {
			i++;
			continue;
		}
		start = 0;
		for (k = i; k < len && verilog_is_ident((unsigned char)m[k]); k++)
			;
		for (size_t a = 0; a < sizeof allowed / sizeof allowed[0]; a++)
			ok |= strlen(allowed[a]) == k - i && strncmp(m + i,
			    allowed[a], k - i) == 0;
		if (!ok && k > i) {
			finding(out, line_at(m, i), "forbidden-construct",
			    xasprintf("%.*s at compilation-unit scope is not"
			    " allowed in a candidate: every module of the"
			    " run, the testbench's, shares it", (int)(k - i),
			    m + i));
		}
		i = k > i ? k : i + 1;
	}
}

/*
 * Drivers of input ports (issue 22, round 3; docs/security.md, "Inputs
 * are the testbench's").  A candidate may not drive a net the testbench
 * drives: a bidirectional switch (tran) made a task's inputs x, and the
 * testbench counted x in the reference's outputs as a match.  Lexical,
 * on the masked code with the candidate's macros expanded, so that it
 * runs where the grammar cannot read the code and in every env alike.
 */

/* How far back statement_start() and in_parens() look, in bytes. */
#define SCAN_BACK	1024

/* A port of a candidate module, in the order of its header. */
struct vport {
	char	name[128];
	int	dir;		/* 'i', 'o', 'b' (inout), 'r' (ref), 0 unknown */
};

struct vports {
	struct vport	*v;
	size_t		 n;
};

/* Keywords of a declaration that are not the declared name. */
static int
decl_keyword(const char *p, size_t k)
{
	static const char *const kw[] = {
		"wire", "reg", "logic", "signed", "unsigned", "var", "tri",
		"tri0", "tri1", "triand", "trior", "trireg", "wand", "wor",
		"uwire", "supply0", "supply1", "integer", "int", "shortint",
		"longint", "byte", "bit", "real", "realtime", "shortreal",
		"time", "string", "interconnect", "input", "output", "inout",
		"ref", "const", "scalared", "vectored",
	};

	for (size_t i = 0; i < sizeof kw / sizeof kw[0]; i++)
		if (strlen(kw[i]) == k && memcmp(kw[i], p, k) == 0)
			return 1;
	return 0;
}

/* The end of the bracketed group that opens at m[i] ("(", "[", "{"). */
static size_t
group_end(const char *m, size_t len, size_t i)
{
	int depth = 0;

	for (; i < len; i++) {
		depth += (m[i] == '(' || m[i] == '[' || m[i] == '{') -
		    (m[i] == ')' || m[i] == ']' || m[i] == '}');
		if (depth <= 0)
			return i + 1;
	}
	return len;
}

/* The identifier at m[i] (plain or escaped) into name; its end. */
static size_t
ident_at(const char *m, size_t len, size_t i, char *name, size_t size)
{
	size_t o = 0;

	if (m[i] == '\\') {
		for (i++; i < len && !isspace((unsigned char)m[i]); i++)
			if (o + 1 < size)
				name[o++] = m[i];
	} else {
		for (; i < len && verilog_is_ident((unsigned char)m[i]); i++)
			if (o + 1 < size)
				name[o++] = m[i];
	}
	name[o] = '\0';
	return i;
}

static struct vport *
port_find(struct vports *ps, const char *name)
{
	for (size_t i = 0; i < ps->n; i++)
		if (strcmp(ps->v[i].name, name) == 0)
			return &ps->v[i];
	return NULL;
}

static void
port_set(struct vports *ps, const char *name, int dir)
{
	struct vport *p = port_find(ps, name);

	if (p == NULL) {
		ps->v = xreallocarray(ps->v, ps->n + 1, sizeof *ps->v);
		p = &ps->v[ps->n++];
		snprintf(p->name, sizeof p->name, "%s", name);
		p->dir = 0;
	}
	if (dir != 0)
		p->dir = dir;
}

static int
dir_word(const char *m, size_t len, size_t i)
{
	return word_at(m, len, i, "input") ? 'i' : word_at(m, len, i,
	    "output") ? 'o' : word_at(m, len, i, "inout") ? 'b' :
	    word_at(m, len, i, "ref") ? 'r' : 0;
}

/*
 * The names a declaration m[i..end) declares (after its direction, types
 * and ranges: an identifier that a ",", ";", ")", "=" or "[" follows)
 * into ps with direction dir; dir changes at a direction keyword (an
 * ANSI header).  sticky: the direction stays for names without one.
 */
static void
declared_ports(const char *m, size_t len, size_t i, size_t end, int dir,
    struct vports *ps)
{
	while (i < end) {
		size_t k, e;
		char name[128];
		int d;

		i = skip_blank(m, i, end);
		if (i >= end)
			break;
		if ((d = dir_word(m, len, i)) != 0) {
			dir = d;
			i += d == 'r' ? 3 : d == 'o' ? 6 : 5;
			continue;
		}
		if (m[i] == '[' || m[i] == '(' || m[i] == '{') {
			i = group_end(m, end, i);
			continue;
		}
		if (m[i] == '=') {	/* a default: up to the next "," */
			while (i < end && m[i] != ',' && m[i] != ';') {
				if (m[i] == '(' || m[i] == '[' || m[i] == '{')
					i = group_end(m, end, i);
				else
					i++;
			}
			continue;
		}
		if (m[i] == '#') {	/* #(parameters) */
			i = skip_blank(m, i + 1, end);
			if (i < end && m[i] == '(')
				i = group_end(m, end, i);
			continue;
		}
		if (!(verilog_is_ident((unsigned char)m[i]) || m[i] == '\\') ||
		    (m[i] >= '0' && m[i] <= '9')) {
			i++;
			continue;
		}
		e = ident_at(m, end, i, name, sizeof name);
		k = skip_blank(m, e, end);
		if (!decl_keyword(m + i, e - i) && (k >= end || m[k] == ',' ||
		    m[k] == ';' || m[k] == ')' || m[k] == '=' || m[k] == '['))
			port_set(ps, name, dir);
		i = e;
	}
}

/* Is m[i..] inside a function or task of module [s, e)? */
static void
subroutines(const char *m, size_t len, size_t s, size_t e, size_t *rs,
    size_t *re, size_t *nr, size_t max)
{
	*nr = 0;
	for (size_t i = s; i < e && *nr < max; i++) {
		const char *end = word_at(m, len, i, "function") ?
		    "endfunction" : word_at(m, len, i, "task") ? "endtask" :
		    NULL;

		if (end == NULL)
			continue;
		rs[*nr] = i;
		for (; i < e && !word_at(m, len, i, end); i++)
			;
		re[(*nr)++] = i;
	}
}

/*
 * The ports of the module at [s, e) of masked m: its header's, in order,
 * their directions from the header (ANSI) or from the body's
 * declarations outside functions and tasks.  *body: where the body
 * starts (after the header's ";").
 */
static void
module_ports(const char *m, size_t len, size_t s, size_t e,
    struct vports *ps, size_t *body)
{
	size_t i = s, rs[64], re[64], nr;

	ps->v = NULL;
	ps->n = 0;
	/* module NAME [import ...;] [#(...)] (ports); */
	while (i < e && verilog_is_ident((unsigned char)m[i]))
		i++;
	i = skip_blank(m, i, e);
	if (i < e && m[i] == '\\')
		while (i < e && !isspace((unsigned char)m[i]))
			i++;
	while (i < e && verilog_is_ident((unsigned char)m[i]))
		i++;
	for (; i < e && m[i] != ';' && m[i] != '('; i++)
		if (m[i] == '#') {
			i = skip_blank(m, i + 1, e);
			if (i < e && m[i] == '(')
				i = group_end(m, e, i) - 1;
		}
	if (i < e && m[i] == '(') {
		size_t pe = group_end(m, e, i);

		declared_ports(m, len, i + 1, pe - 1, 0, ps);
		i = pe;
	}
	while (i < e && m[i] != ';')
		i++;
	*body = i < e ? i + 1 : e;
	subroutines(m, len, *body, e, rs, re, &nr, 64);
	for (i = *body; i < e; i++) {
		int d = dir_word(m, len, i), in = 0;
		size_t k;

		for (size_t r = 0; r < nr; r++)
			in |= i >= rs[r] && i < re[r];
		if (d == 0 || in)
			continue;
		for (k = i; k < e && m[k] != ';'; k++)
			if (m[k] == '(' || m[k] == '[' || m[k] == '{')
				k = group_end(m, e, k) - 1;
		declared_ports(m, len, i, k, d, ps);
		i = k;
	}
}

/* The previous non-blank character before m[i], or 0. */
static size_t
prev_blank(const char *m, size_t i)
{
	while (i > 0 && (m[i - 1] == ' ' || m[i - 1] == '\t' ||
	    m[i - 1] == '\n' || m[i - 1] == '\r'))
		i--;
	return i;
}

static int	in_parens(const char *, size_t, size_t);

/*
 * Does a statement start at m[i] (so that "<=" after it is a
 * non-blocking assignment, not a comparison)?  After ";", ")", a
 * statement keyword, a delay or event ("#5", "@clk") or a case item's
 * ":" (not a conditional's).
 */
static int
statement_start(const char *m, size_t len, size_t i)
{
	static const char *const kw[] = {
		"begin", "end", "else", "fork", "join", "join_any",
		"join_none", "do", "initial", "final", "always", "always_ff",
		"always_comb", "always_latch", "forever", "generate",
	};
	size_t p = prev_blank(m, i), w;

	if (p == 0)
		return 1;
	if (m[p - 1] == ';')	/* not a for loop's condition */
		return !in_parens(m, 0, p - 1);
	if (m[p - 1] == ')')
		return 1;
	if (m[p - 1] == ':' && !(p > 1 && m[p - 2] == ':')) {
		/* a case item's, unless it closes a "?" (the nearest "?"
		 * before it that no other ":" closes) */
		int colons = 0, depth = 0;

		/* bounded, so that a long statement costs no square
		 * time; past the bound it counts as a statement */
		for (size_t k = p - 1; k > 0 && p - k < SCAN_BACK; k--) {
			char c = m[k - 1];

			if (c == ']' || c == ')' || c == '}')
				depth++;
			else if (c == '[' || c == '(' || c == '{') {
				if (depth == 0)
					break;
				depth--;
			} else if (depth == 0 && c == ';')
				break;
			else if (depth == 0 && c == '?') {
				if (colons == 0)
					return 0;
				colons--;
			} else if (depth == 0 && c == ':' && !(k > 1 &&
			    m[k - 2] == ':') && m[k] != ':')
				colons++;
		}
		return 1;
	}
	for (w = p; w > 0 && verilog_is_ident((unsigned char)m[w - 1]); w--)
		;
	if (w == p)
		return 0;
	for (size_t k = 0; k < sizeof kw / sizeof kw[0]; k++)
		if (word_at(m, len, w, kw[k]))
			return 1;
	if (p - w > 3 && strncmp(m + w, "end", 3) == 0)
		return 1;	/* endfunction, endgenerate ... */
	w = prev_blank(m, w);
	return w > 0 && (m[w - 1] == '#' || m[w - 1] == '@');
}

/*
 * Is m[i] inside parentheses that open after the statement before it
 * (the "or" of "@(posedge clk or posedge reset)", not a gate)?  The
 * scan stops at a ";" outside parentheses or at s.
 */
static int
in_parens(const char *m, size_t s, size_t i)
{
	int depth = 0;

	for (size_t n = 0; i > s && n < SCAN_BACK; i--, n++) {
		char c = m[i - 1];

		if (c == ')' || c == ']' || c == '}')
			depth++;
		else if (c == '(' || c == '[' || c == '{') {
			if (depth == 0)
				return 1;
			depth--;
		} else if (c == ';' && depth == 0)
			return 0;
	}
	return 0;
}

/*
 * Is what follows m[i] (the end of a name, its selects skipped) an
 * assignment to it: "=", an operator assignment, "++"/"--", or "<="
 * where stmt (a statement starts at the name)?
 */
static int
assigned_after(const char *m, size_t len, size_t i, int stmt)
{
	static const char *const ops[] = {
		"+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=",
		"<<<=", ">>>=", "++", "--",
	};

	for (;;) {
		i = skip_blank(m, i, len);
		if (i < len && m[i] == '[') {
			i = group_end(m, len, i);
			continue;
		}
		if (i + 1 < len && m[i] == '.' && verilog_is_ident(
		    (unsigned char)m[i + 1])) {
			for (i++; i < len && verilog_is_ident(
			    (unsigned char)m[i]); i++)
				;
			continue;
		}
		break;
	}
	if (i >= len)
		return 0;
	if (m[i] == '=')
		return !(i + 1 < len && (m[i + 1] == '=' || m[i + 1] == '>'));
	for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++)
		if (strncmp(m + i, ops[k], strlen(ops[k])) == 0)
			return 1;
	return stmt && m[i] == '<' && i + 1 < len && m[i + 1] == '=';
}

/* The first name of ps with direction 'i' in m[s, e) outside brackets
 * "[...]" (an index is read, not driven); its offset, or e. */
static size_t
input_in(const char *m, size_t len, size_t s, size_t e,
    struct vports *ps, char *name, size_t size)
{
	for (size_t i = s; i < e; ) {
		struct vport *p;

		if (m[i] == '[') {
			i = group_end(m, e, i);
			continue;
		}
		if (!(verilog_is_ident((unsigned char)m[i]) || m[i] == '\\') ||
		    (m[i] >= '0' && m[i] <= '9') || (i > 0 &&
		    (m[i - 1] == '\'' || m[i - 1] == '$' || m[i - 1] == '`' ||
		    m[i - 1] == '.'))) {
			while (i < e && verilog_is_ident((unsigned char)m[i]))
				i++;
			i += i < e && !verilog_is_ident((unsigned char)m[i]);
			continue;
		}
		{
			size_t k = ident_at(m, len, i, name, size);

			if ((p = port_find(ps, name)) != NULL && p->dir == 'i')
				return i;
			i = k;
		}
	}
	return e;
}

/* Gate primitives: how many of their first terminals are outputs (-1:
 * all but the last, -2: all). */
static int
gate_outputs(const char *m, size_t len, size_t i)
{
	static const struct { const char *name; int out; } gates[] = {
		{ "and", 1 }, { "nand", 1 }, { "or", 1 }, { "nor", 1 },
		{ "xor", 1 }, { "xnor", 1 }, { "buf", -1 }, { "not", -1 },
		{ "bufif0", 1 }, { "bufif1", 1 }, { "notif0", 1 },
		{ "notif1", 1 }, { "nmos", 1 }, { "pmos", 1 }, { "rnmos", 1 },
		{ "rpmos", 1 }, { "cmos", 1 }, { "rcmos", 1 },
		{ "pullup", -2 }, { "pulldown", -2 },
	};

	for (size_t k = 0; k < sizeof gates / sizeof gates[0]; k++)
		if (word_at(m, len, i, gates[k].name))
			return gates[k].out;
	return 0;
}

/* A module or primitive of the candidate's, by name. */
struct vmod {
	char		 name[128];
	int		 udp;
	struct vports	 ports;
};

/*
 * The terminals of the instances that start at m[i] (after the gate or
 * module name: strength, "#(...)", then "[name [range]] (terms)", ...
 * up to ";"): for each terminal, is it an output (out: as
 * gate_outputs(); child: the instantiated module's ports)?  The first
 * input name an output terminal holds, its offset into *at.
 */
static int
instance_drives(const char *m, size_t len, size_t i, size_t e, int out,
    const struct vmod *child, struct vports *ps, char *name, size_t size,
    size_t *at)
{
	i = skip_blank(m, i, e);
	if (i < e && m[i] == '(' && child == NULL) {
		/* a strength "(strong0, weak1)" or the terminals */
		size_t k = skip_blank(m, i + 1, e), pe = group_end(m, e, i);
		static const char *const st[] = { "supply", "strong", "pull",
		    "weak", "highz", "small", "medium", "large" };
		int strength = 0;

		for (size_t s = 0; s < sizeof st / sizeof st[0]; s++)
			strength |= strncmp(m + k, st[s], strlen(st[s])) == 0;
		if (strength)
			i = skip_blank(m, pe, e);
	}
	if (i < e && m[i] == '#') {
		i = skip_blank(m, i + 1, e);
		if (i < e && m[i] == '(')
			i = group_end(m, e, i);
		else
			while (i < e && (verilog_is_ident((unsigned char)m[i])
			    || m[i] == '.' || m[i] == '\''))
				i++;
	}
	while (i < e && m[i] != ';') {
		size_t pe, a, n = 0, nterm = 0;

		while (i < e && m[i] != '(' && m[i] != ';') {
			if (m[i] == '[')
				i = group_end(m, e, i);
			else
				i++;
		}
		if (i >= e || m[i] != '(')
			break;
		pe = group_end(m, e, i) - 1;
		for (a = i + 1; a < pe; a++)	/* count terminals */
			if (m[a] == '(' || m[a] == '[' || m[a] == '{')
				a = group_end(m, pe, a) - 1;
			else if (m[a] == ',')
				nterm++;
		nterm++;
		for (a = i + 1; a < pe; n++) {
			size_t b = a, k, r;
			int is_out;

			while (b < pe && m[b] != ',') {
				if (m[b] == '(' || m[b] == '[' || m[b] == '{')
					b = group_end(m, pe, b);
				else
					b++;
			}
			k = skip_blank(m, a, b);
			if (child != NULL && k < b && m[k] == '.') {
				/* .port(expr), .port, .* */
				char pn[128];
				size_t q = ident_at(m, b, k + 1, pn, sizeof pn);
				const struct vport *cp = NULL;

				for (size_t c = 0; c < child->ports.n; c++)
					if (strcmp(child->ports.v[c].name, pn) ==
					    0)
						cp = &child->ports.v[c];
				q = skip_blank(m, q, b);
				if (m[k + 1] == '*') {
					for (size_t c = 0; c < child->ports.n;
					    c++) {
						const struct vport *p =
						    port_find(ps,
						    child->ports.v[c].name);

						if (child->ports.v[c].dir != 'i'
						    && p != NULL && p->dir ==
						    'i') {
							snprintf(name, size,
							    "%s", p->name);
							*at = k;
							return 1;
						}
					}
				} else if (cp == NULL || cp->dir != 'i') {
					if (q < b && m[q] == '(')
						r = input_in(m, len, q, b, ps,
						    name, size);
					else
						r = input_in(m, len, k + 1, b,
						    ps, name, size);
					if (r < b) {
						*at = r;
						return 1;
					}
				}
			} else {
				if (child != NULL && !child->udp)
					is_out = n >= child->ports.n ||
					    child->ports.v[n].dir != 'i';
				else
					is_out = out == -2 || (out == -1 &&
					    n + 1 < nterm) || (out > 0 &&
					    n < (size_t)out);
				if (is_out && (r = input_in(m, len, a, b, ps,
				    name, size)) < b) {
					*at = r;
					return 1;
				}
			}
			a = b + 1;
		}
		i = skip_blank(m, pe + 1, e);
		if (i < e && m[i] == ',')
			i++;
	}
	return 0;
}

/*
 * The first driver of an input port in masked code m (macros expanded)
 * into out: a bidirectional switch or an alias anywhere; an inout port
 * unless the task has one (inout_ok); an assignment of any kind to a
 * name its module declares input; an input as a gate's output terminal,
 * a UDP's, or on an output or inout port of a module of the candidate's;
 * deassign of one; an input as a system call's output argument.
 */
static void
check_drivers(const char *m, size_t len, int inout_ok, struct buf *out)
{
	static const char *const joins[] = {
		"tran", "tranif0", "tranif1", "rtran", "rtranif0", "rtranif1",
		"alias",
	};
	static const char *const outarg[] = {
		"$random", "$sformat", "$swrite", "$swriteb", "$swriteh",
		"$swriteo", "$cast", "$dist_chi_square", "$dist_erlang",
		"$dist_exponential", "$dist_normal", "$dist_poisson",
		"$dist_t", "$dist_uniform",
	};
	static const char *const rnd[] = {
		"randomize", "srandom", "get_randstate", "set_randstate",
	};
	struct syn_verilog none;
	struct lexmod *mods;
	struct vmod *vm;
	size_t nmods, *bodies;

	for (size_t i = 0; i < len && out->len == 0; i++) {
		/* a method too: process::self().srandom(1) */
		for (size_t w = 0; w < sizeof rnd / sizeof rnd[0]; w++)
			if (word_at(m, len, i, rnd[w]))
				finding(out, line_at(m, i), subcategory_name(
				    SUB_FORBIDDEN_CALL), xasprintf("%s is not"
				    " allowed in a candidate: it reaches the"
				    " random state of the simulation's"
				    " processes, which the testbench's stimuli"
				    " come from", rnd[w]));
		if (i > 0 && (m[i - 1] == '.' || m[i - 1] == '`'))
			continue;
		for (size_t w = 0; w < sizeof joins / sizeof joins[0]; w++)
			if (word_at(m, len, i, joins[w]))
				finding(out, line_at(m, i), "drives-input",
				    xasprintf("%s is not allowed in a"
				    " candidate: a bidirectional switch or"
				    " alias joins two nets and can drive the"
				    " module's input ports, which are the"
				    " testbench's", joins[w]));
		if (!inout_ok && word_at(m, len, i, "inout"))
			finding(out, line_at(m, i), "drives-input", xstrdup(
			    "inout is not allowed in a candidate whose task"
			    " has no inout port: a port both ways can drive"
			    " the testbench's nets"));
	}
	if (out->len > 0)
		return;
	memset(&none, 0, sizeof none);
	mods = lex_modules(m, len, &none, &nmods);
	vm = xcalloc(nmods + 1, sizeof *vm);
	bodies = xcalloc(nmods + 1, sizeof *bodies);
	for (size_t k = 0; k < nmods; k++) {
		snprintf(vm[k].name, sizeof vm[k].name, "%s", mods[k].name);
		vm[k].udp = word_at(m, len, mods[k].start, "primitive");
		module_ports(m, len, mods[k].start, mods[k].end, &vm[k].ports,
		    &bodies[k]);
	}
	for (size_t k = 0; k < nmods && out->len == 0; k++) {
		struct vports *ps = &vm[k].ports;
		char name[128];
		size_t e = mods[k].end;

		if (vm[k].udp)
			continue;	/* a UDP's output is its table's */
		for (size_t i = bodies[k]; i < e && out->len == 0; ) {
			const char *what = NULL;
			size_t at = i, ne;
			int g;

			if (m[i] == '{') {
				/* {a, b} = ..., {a, b} <= ... */
				size_t ce = group_end(m, e, i);

				if (assigned_after(m, e, ce, statement_start(m,
				    len, i)) && (at = input_in(m, len, i + 1,
				    ce - 1, ps, name, sizeof name)) < ce - 1)
					what = "assigned";
				i++;
				goto found;
			}
			if (m[i] == '$') {
				size_t k2 = i + 1;
				struct call c;

				while (k2 < e && verilog_is_ident(
				    (unsigned char)m[k2]))
					k2++;
				for (size_t o = 0; o < sizeof outarg /
				    sizeof outarg[0] && what == NULL; o++)
					if (strlen(outarg[o]) == k2 - i &&
					    memcmp(outarg[o], m + i, k2 - i) ==
					    0 && scan_call(m, e, i, &c) &&
					    c.nargs > 0 && (at = input_in(m,
					    len, c.arg_start[0], c.arg_end[0],
					    ps, name, sizeof name)) <
					    c.arg_end[0])
						what = "an output argument of"
						    " a system call";
				if (what == NULL && k2 - i == 7 && memcmp(m + i,
				    "$sscanf", 7) == 0 && scan_call(m, e, i,
				    &c)) {
					for (int a = 2; a < c.nargs && what ==
					    NULL; a++)
						if ((at = input_in(m, len,
						    c.arg_start[a],
						    c.arg_end[a], ps, name,
						    sizeof name)) <
						    c.arg_end[a])
							what = "an output"
							    " argument of"
							    " a system call";
				}
				i = k2;
				goto found;
			}
			if (!(verilog_is_ident((unsigned char)m[i]) ||
			    m[i] == '\\') || (i > 0 && (verilog_is_ident(
			    (unsigned char)m[i - 1]) || m[i - 1] == '\'' ||
			    m[i - 1] == '`' || m[i - 1] == '.' ||
			    m[i - 1] == '$')) || (m[i] >= '0' &&
			    m[i] <= '9')) {
				i++;
				continue;
			}
			ne = ident_at(m, len, i, name, sizeof name);
			if ((g = gate_outputs(m, len, i)) != 0 &&
			    !in_parens(m, bodies[k], i)) {
				if (instance_drives(m, len, ne, e, g, NULL, ps,
				    name, sizeof name, &at))
					what = "a gate's output terminal";
			} else if (word_at(m, len, i, "deassign")) {
				size_t semi = ne + strcspn(m + ne, ";");

				if (semi > e)
					semi = e;
				if ((at = input_in(m, len, ne, semi, ps, name,
				    sizeof name)) < semi)
					what = "deassigned";
			} else {
				const struct vport *p = port_find(ps, name);
				const struct vmod *child = NULL;

				for (size_t c = 0; c < nmods; c++)
					if (strcmp(vm[c].name, name) == 0)
						child = &vm[c];
				if (child != NULL && !in_parens(m, bodies[k], i)
				    && statement_start(m, len, i)) {
					if (instance_drives(m, len, ne, e, 1,
					    child, ps, name, sizeof name, &at))
						what = child->udp ?
						    "a primitive's output" :
						    "an output or inout port"
						    " of an instance";
				} else if (p != NULL && p->dir == 'i' &&
				    (assigned_after(m, e, ne,
				    statement_start(m, len, i)) ||
				    (prev_blank(m, i) > 1 &&
				    ((m[prev_blank(m, i) - 1] == '+' &&
				    m[prev_blank(m, i) - 2] == '+') ||
				    (m[prev_blank(m, i) - 1] == '-' &&
				    m[prev_blank(m, i) - 2] == '-')))))
					what = "assigned";
			}
			i = ne;
found:
			if (what != NULL)
				finding(out, line_at(m, at), "drives-input",
				    xasprintf("%s is an input port of %s and"
				    " is %s here: a candidate may not drive"
				    " its inputs, which are the testbench's",
				    name, vm[k].name, what));
		}
	}
	for (size_t k = 0; k < nmods; k++)
		free(vm[k].ports.v);
	free(vm);
	free(bodies);
	free(mods);
}

/*
 * verilog_check_candidate() with the task's words (declared()) and the
 * data files the design may read (reads, space-separated, may be NULL);
 * calls_only: only the system calls and what could hide them (yosys,
 * verilog_check_calls()), and the drivers of inputs (check_drivers(),
 * inout_ok: the task has an inout port).  The grammar is needed for the references
 * only: the lexical checks run when it cannot read the code.
 */
static char *
check_candidate(const char *code, size_t len, const char *words,
    const char *reads, int calls_only, int inout_ok)
{
	struct syn_verilog v;
	struct buf out = BUF_INIT, x = BUF_INIT;
	struct macros ms = { NULL, 0, 0 };
	struct err err;
	char *m = mask_code(code, len);
	int parsed = 0;
	size_t nread = 0;

	memset(&v, 0, sizeof v);
	if (!calls_only)
		parsed = syntax_verilog_scan(code, len, &v, &err) == 0;
	check_tokens(m, len, code, NULL, reads, calls_only, &out);
	if (out.len == 0 && !calls_only)
		check_metacomments(code, len, &out);
	/* What every tool sees: the candidate's macros expanded. */
	if (out.len == 0)
		collect_macros(m, len, &ms, &out);
	if (out.len == 0) {
		/* Each $readmem the expansion holds must be one of the
		 * code's own, whose literal the first pass read. */
		nread = count_readmem(m, len);
		expand_macros(&ms, m, len, 0, &x, &ms.overflow);
		buf_addc(&x, '\0');
		x.len--;
		if (ms.overflow)
			finding(&out, 1, "forbidden-construct", xstrdup("the"
			    " candidate's macros expand too deep or too large"));
	}
	if (out.len == 0)
		check_tokens(buf_str(&x), x.len, NULL, &ms, reads, calls_only,
		    &out);
	if (out.len == 0 && count_readmem(buf_str(&x), x.len) != nread)
		finding(&out, 1, subcategory_name(SUB_FORBIDDEN_CALL),
		    xstrdup("a macro that holds $readmemh or $readmemb is not"
		    " allowed in a candidate: the file it reads must be a"
		    " literal of the call"));
	if (out.len == 0)
		check_drivers(buf_str(&x), x.len, inout_ok, &out);
	if (out.len == 0 && parsed)
		check_references(buf_str(&x), x.len, &v, words, &out);
	if (out.len == 0 && parsed) {
		size_t nmods;
		struct lexmod *mods = lex_modules(buf_str(&x), x.len, &v,
		    &nmods);

		if (!v.has_error)	/* else prose the tools refuse */
			check_unit_scope(buf_str(&x), x.len, mods, nmods,
			    &out);
		free(mods);
	}
	macros_release(&ms);
	buf_release(&x);
	syntax_verilog_release(&v);
	free(m);
	if (out.len == 0) {
		buf_release(&out);
		return NULL;
	}
	return buf_detach(&out, NULL);
}

int
verilog_has_finding(const struct env_plan *plan)
{
	const char *p = buf_str(&plan->precheck);

	return p != NULL && *p >= '0' && *p <= '9';
}

void
verilog_judge_precheck(const struct env_plan *plan, struct run *r)
{
	const char *p = buf_str(&plan->precheck), *sub, *msg;
	char *copy, *tab;
	int line;

	if (!verilog_has_finding(plan))
		return;
	copy = xstrdup(p);
	line = atoi(copy);
	sub = (tab = strchr(copy, '\t')) != NULL ? tab + 1 : "";
	msg = "";
	if (tab != NULL && (tab = strchr(tab + 1, '\t')) != NULL) {
		*tab = '\0';
		msg = tab + 1;
		tab[strcspn(tab + 1, "\n") + 1] = '\0';
	}
	env_verdict(r, VERDICT_FAIL, CATEGORY_FUNCTIONAL, sub, NULL);
	free(r->evidence);
	r->evidence = xasprintf("%s:%d: %s", plan->cand_file, line, msg);
	r->evidence_line = line;
	free(copy);
}

char *
verilog_undeclared(const char *code, size_t len)
{
	struct syn_verilog v;
	struct err err;
	char *r = NULL;

	if (syntax_verilog_scan(code, len, &v, &err) < 0 || v.has_error ||
	    v.nmodules == 0) {
		syntax_verilog_release(&v);
		return NULL;
	}
	for (size_t u = 0; u < v.nuses && r == NULL; u++) {
		const struct syn_vname *use = &v.uses[u];
		int known = 0;

		for (size_t i = 0; i < v.nnames && !known; i++)
			known = v.names[i].type == NULL && (v.names[i].module ==
			    use->module || v.names[i].module < 0) &&
			    strcmp(v.names[i].name, use->name) == 0;
		for (size_t i = 0; i < v.nmodules && !known; i++)
			known = strcmp(v.modules[i].name, use->name) == 0;
		if (!known)
			r = xasprintf("%d\t%s", use->line, use->name);
	}
	syntax_verilog_release(&v);
	return r;
}

/* Is name in the space-separated list (NULL: empty)? */
static int
in_list(const char *list, const char *name)
{
	size_t n = strlen(name);

	while (list != NULL && *list != '\0') {
		size_t l = strcspn(list, " ");

		if (l == n && memcmp(list, name, n) == 0)
			return 1;
		list += l;
		list += *list == ' ';
	}
	return 0;
}

/* Add name to the space-separated list b unless it is there. */
static void
add_name(struct buf *b, const char *name)
{
	if (in_list(buf_str(b), name))
		return;
	if (b->len > 0)
		buf_addc(b, ' ');
	buf_adds(b, name);
}

char *
verilog_expected_tops(const struct task *t)
{
	struct buf defined = BUF_INIT, out = BUF_INIT;
	struct syn_verilog v;
	struct err err;

	for (size_t i = 0; i < t->nfiles; i++) {
		const struct task_file *f = &t->files[i];

		if (strcmp(f->role, "testbench") != 0 &&
		    strcmp(f->role, "reference") != 0 &&
		    strcmp(f->role, "source") != 0)
			continue;
		if (syntax_verilog_scan(f->data, f->len, &v, &err) == 0) {
			for (size_t k = 0; k < v.nmodules; k++)
				add_name(&defined, v.modules[k].name);
			/* Tasks and functions: the grammar reads a call
			 * "reset_test(1);" as an instantiation. */
			for (size_t k = 0; k < v.nnames; k++)
				if (v.names[k].type == NULL)
					add_name(&defined, v.names[k].name);
		}
		syntax_verilog_release(&v);
	}
	/* The modules the testbench instantiates that no task file
	 * defines: the candidate's. */
	for (size_t i = 0; i < t->nfiles; i++) {
		const struct task_file *f = &t->files[i];

		if (strcmp(f->role, "testbench") != 0)
			continue;
		if (syntax_verilog_scan(f->data, f->len, &v, &err) == 0)
			for (size_t k = 0; k < v.nnames; k++)
				if (v.names[k].type != NULL &&
				    v.names[k].module >= 0 &&
				    !in_list(buf_str(&defined),
				    v.names[k].type))
					add_name(&out, v.names[k].type);
		syntax_verilog_release(&v);
	}
	/* Else the interface the task states. */
	if (out.len == 0 && t->interface != NULL) {
		/* A header alone ("module m(...);") is no declaration to
		 * the grammar: read it as text. */
		size_t len = strlen(t->interface), n;
		char *m = mask_code(t->interface, len);
		struct lexmod *mods;

		memset(&v, 0, sizeof v);
		mods = lex_modules(m, len, &v, &n);
		for (size_t k = 0; k < n; k++)
			if (mods[k].name[0] != '\0')
				add_name(&out, mods[k].name);
		free(mods);
		free(m);
	}
	buf_release(&defined);
	if (out.len == 0) {
		buf_release(&out);
		return NULL;
	}
	return buf_detach(&out, NULL);
}

long
verilog_failure_count(const char *log, size_t len)
{
	struct vline *lines;
	struct verdict_lines vl = { .mismatches = -1, .total = -1,
	    .total_mismatches = -1, .total_samples = -1, .failures = -1,
	    .passed = -1 };
	struct err err;
	size_t n;
	long r;

	if (log == NULL)
		return -1;
	/* A recorded log has no secret: every line is believed. */
	lines = split_lines(log, len, "", &n);
	for (size_t i = 0; i < n; i++) {
		lines[i].tagged = 1;
		(void)read_line(&lines[i], NULL, NULL, &vl, &err);
	}
	free_lines(lines, n);
	r = vl.mismatches >= 0 ? vl.mismatches : vl.total_mismatches >= 0 ?
	    vl.total_mismatches : vl.failures;
	free(vl.result);
	free(vl.total_line);
	free(vl.hint);
	free(vl.fail);
	free(vl.fatal);
	return r;
}

char *
verilog_check_candidate(const char *code, size_t len)
{
	return check_candidate(code, len, NULL, NULL, 0, 1);
}

int
verilog_design_reads(const struct task *t, char **reads, struct err *err)
{
	char **v;
	size_t n;
	struct buf b = BUF_INIT;

	*reads = NULL;
	if (env_param_strv(t, "design_reads", &v, &n, err) < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		const struct task_file *f = task_file_by_name(t, v[i]);

		if (f == NULL || !verilog_is_data(f) || strpbrk(v[i],
		    " \t\n\"\\") != NULL) {
			err_set(err, "env_params.design_reads: '%s' is not a"
			    " data file of task %s", v[i], t->id);
			strv_free(v, n);
			buf_release(&b);
			return -1;
		}
		add_name(&b, v[i]);
	}
	strv_free(v, n);
	if (b.len > 0)
		*reads = buf_detach(&b, NULL);
	buf_release(&b);
	return 0;
}

/* Does a compiled file of task t, or its interface, declare an inout? */
static int
task_inout(const struct task *t)
{
	int r = 0;

	for (size_t i = 0; i <= t->nfiles && !r; i++) {
		const char *d = i < t->nfiles ? t->files[i].data :
		    t->interface;
		size_t n = i < t->nfiles ? t->files[i].len : d != NULL ?
		    strlen(d) : 0;
		char *m;

		if (d == NULL || (i < t->nfiles && (verilog_is_data(
		    &t->files[i]) || (strcmp(t->files[i].role, "testbench") !=
		    0 && strcmp(t->files[i].role, "reference") != 0 &&
		    strcmp(t->files[i].role, "source") != 0))))
			continue;
		m = mask_code(d, n);
		for (size_t k = 0; k < n && !r; k++)
			r = word_at(m, n, k, "inout");
		free(m);
	}
	return r;
}

/* verilog_design_reads(), its errors read as no file at all (the env's
 * prepare() reports them). */
static char *
design_reads(const struct task *t)
{
	char *reads;
	struct err err;

	return verilog_design_reads(t, &reads, &err) == 0 ? reads : NULL;
}

char *
verilog_check_calls(const struct task *t, const char *code, size_t len)
{
	char *reads = design_reads(t);
	char *r = check_candidate(code, len, NULL, reads, 1, task_inout(t));

	free(reads);
	return r;
}

/* The words (identifiers) of masked code m into b, space-separated. */
static void
add_words(struct buf *b, const char *m, size_t len)
{
	for (size_t i = 0; i < len; ) {
		size_t k;

		if (!verilog_is_ident((unsigned char)m[i]) || (m[i] >= '0' &&
		    m[i] <= '9')) {
			i++;
			continue;
		}
		for (k = i; k < len && verilog_is_ident((unsigned char)m[k]);
		    k++)
			;
		if (b->len > 0)
			buf_addc(b, ' ');
		buf_add(b, m + i, k - i);
		i = k;
	}
}

char *
verilog_check_task(const struct task *t, const char *code, size_t len)
{
	struct buf words = BUF_INIT;
	char *r, *reads;

	for (size_t i = 0; i < t->nfiles; i++) {
		const struct task_file *f = &t->files[i];
		char *fm;

		if (verilog_is_data(f) || (strcmp(f->role, "testbench") != 0 &&
		    strcmp(f->role, "reference") != 0 &&
		    strcmp(f->role, "source") != 0))
			continue;
		fm = mask_code(f->data, f->len);
		add_words(&words, fm, f->len);
		free(fm);
	}
	reads = design_reads(t);
	r = check_candidate(code, len, buf_str(&words), reads, 0,
	    task_inout(t));
	free(reads);
	buf_release(&words);
	if (r == NULL)
		r = verilog_check_moddup(t, code, len);
	return r;
}

char *
verilog_check_moddup(const struct task *t, const char *code, size_t len)
{
	struct syn_verilog none;
	char *m = mask_code(code, len), *r = NULL;
	size_t nc;
	struct lexmod *cm;

	memset(&none, 0, sizeof none);
	cm = lex_modules(m, len, &none, &nc);
	for (size_t i = 0; i < t->nfiles && r == NULL; i++) {
		const struct task_file *f = &t->files[i];
		char *fm;
		size_t nf;
		struct lexmod *tm;

		if (verilog_is_data(f) || (strcmp(f->role, "testbench") != 0 &&
		    strcmp(f->role, "reference") != 0 &&
		    strcmp(f->role, "source") != 0))
			continue;	/* not compiled (verilog_add_sources()) */
		fm = mask_code(f->data, f->len);
		tm = lex_modules(fm, f->len, &none, &nf);
		for (size_t a = 0; a < nc && r == NULL; a++)
			for (size_t b = 0; b < nf && r == NULL; b++)
				if (cm[a].name[0] != '\0' && strcmp(cm[a].name,
				    tm[b].name) == 0)
					r = xasprintf("%d\tforbidden-construct\t"
					    "%s is also a module of the task's"
					    " %s: a candidate may not define"
					    " the harness's modules",
					    line_at(m, cm[a].start), cm[a].name,
					    f->name);
		free(tm);
		free(fm);
	}
	free(cm);
	free(m);
	return r;
}
