/*
 * yosys_equiv.c - formal equivalence of a candidate with its task's
 * reference in Yosys 0.23 (yosys_equiv.h; docs/envs.md; ADR 0037).
 *
 * The miter stage:
 *   read_verilog -sv REF; hierarchy -check -top REFTOP; proc; flatten;
 *   chformal -remove; design -stash gold;
 *   read_verilog -sv -noblackbox candidate.sv; hierarchy -simcheck -top TOP;
 *   select -assert-none =A:blackbox =A:whitebox; proc; flatten;
 *   chformal -remove; design -stash gate;
 *   design -import gold -as gold; design -import gate -as gate;
 *   miter -equiv -make_outputs -ignore_gold_x -flatten gold gate miter;
 *   hierarchy -top miter; memory; opt -keepdc; wreduce -keepdc;
 *   clk2fflogic; opt -keepdc; opt_clean; rename -hide; rename -enumerate;
 *   write_rtlil miter.il
 * Each design is read, elaborated and flattened on its own, so that the
 * candidate's modules, macros and names never meet the reference's; only
 * the two flattened tops are imported.  The miter matches ports by name,
 * direction and width (a difference is an error naming the port), and
 * compares the outputs with === except where the reference's are x (its
 * don't-cares, as VerilogEval's testbenches compare).  clk2fflogic makes
 * every clock an input sampled at each solver step, so both edges,
 * several clocks, latches and asynchronous resets keep their meaning;
 * a clock cycle is two steps.  The formal cells the candidate may hold
 * ($assume, $assert ...) are removed, and the netlist's private names are
 * renumbered, so that the proof's log names the miter's ports alone.
 *
 * The equiv stage, in a work area holding only miter.il:
 *   read_rtlil miter.il; stat;
 *   sat -tempinduct -prove trigger 0 -set-def-inputs -set-init-undef
 *     -maxsteps N -timeout S -show-inputs -show-outputs miter
 * Every flip-flop starts undefined (x), the inputs are defined at every
 * step, and the solver looks for the shortest input sequence after which
 * the outputs differ (the base case), while trying to close an induction
 * of the same length.
 */
#define _GNU_SOURCE
#include "envs/yosys_equiv.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "envs/env.h"
#include "envs/verilog.h"
#include "model/feedback.h"

int
yosys_script_safe(const char *s)
{
	if (s == NULL || *s == '\0')
		return 0;
	for (; *s != '\0'; s++)
		if (!verilog_is_ident((unsigned char)*s) && *s != '.' &&
		    *s != '-')
			return 0;
	return 1;
}

/* Does code declare module name (a whole word after "module")? */
static int
declares(const char *code, size_t len, const char *name)
{
	const char *p = code, *m;
	size_t n;

	while ((m = verilog_next_module(code, len, &p, &n)) != NULL)
		if (n == strlen(name) && memcmp(m, name, n) == 0)
			return 1;
	return 0;
}

/* The reference's module: cand_top, else RefModule, else its only one. */
static char *
pick_ref_top(const struct task_file *f, const char *cand_top)
{
	const char *p = f->data, *m, *only = NULL;
	size_t n, only_n = 0, count = 0;

	if (cand_top != NULL && declares(f->data, f->len, cand_top))
		return xstrdup(cand_top);
	if (declares(f->data, f->len, "RefModule"))
		return xstrdup("RefModule");
	while ((m = verilog_next_module(f->data, f->len, &p, &n)) != NULL) {
		only = m;
		only_n = n;
		count++;
	}
	return count == 1 ? xstrndup(only, only_n) : NULL;
}

int
yosys_equiv_params(const struct task *t, const char *cand_top,
    struct yosys_equiv *eq, struct err *err)
{
	char *name = env_param_str(t, "equiv");
	const struct task_file *f;
	long depth;

	memset(eq, 0, sizeof *eq);
	if (name == NULL && !env_param_bool(t, "equiv", 0))
		return 0;
	f = name != NULL ? task_file_by_name(t, name) :
	    task_file_by_role(t, "reference");
	if (f == NULL || verilog_is_data(f)) {
		err_set(err, "env_params.equiv: %s%s%s", name != NULL ?
		    "'" : "the task has no Verilog file of role reference",
		    name != NULL ? name : "", name != NULL ? "' is not a"
		    " Verilog file of the task" : "");
		free(name);
		return -1;
	}
	free(name);
	if (!yosys_script_safe(f->name))
		return err_set(err, "env_params.equiv: reference file name '%s'"
		    " is not a plain file name", f->name);
	eq->ref_file = xstrdup(f->name);
	eq->ref_top = env_param_str(t, "equiv_top");
	if (eq->ref_top == NULL)
		eq->ref_top = pick_ref_top(f, cand_top);
	if (eq->ref_top == NULL) {
		err_set(err, "env_params.equiv_top is needed: %s declares"
		    " several modules, none named %s or RefModule", f->name,
		    cand_top != NULL ? cand_top : "like the candidate's");
		yosys_equiv_release(eq);
		return -1;
	}
	if (!yosys_script_safe(eq->ref_top)) {
		err_set(err, "env_params.equiv_top: '%s' is not a plain"
		    " identifier", eq->ref_top);
		yosys_equiv_release(eq);
		return -1;
	}
	depth = env_param_int(t, "equiv_depth", YOSYS_EQUIV_DEPTH);
	if (depth < 1 || depth > YOSYS_EQUIV_MAX_DEPTH) {
		err_set(err, "env_params.equiv_depth: %ld is not between 1 and"
		    " %d steps", depth, YOSYS_EQUIV_MAX_DEPTH);
		yosys_equiv_release(eq);
		return -1;
	}
	eq->depth = (int)depth;
	return 1;
}

void
yosys_equiv_release(struct yosys_equiv *eq)
{
	free(eq->ref_file);
	free(eq->ref_top);
	memset(eq, 0, sizeof *eq);
}

char *
yosys_equiv_miter_script(const struct yosys_equiv *eq, const char *cand_file,
    const char *cand_top)
{
	return xasprintf("read_verilog -sv %s; hierarchy -check -top %s;"
	    " proc; flatten; chformal -remove; design -stash gold;"
	    " read_verilog -sv -noblackbox %s; hierarchy -simcheck -top %s;"
	    " select -assert-none " BOX_SELECTION "; proc;"
	    " flatten; chformal -remove; design -stash gate;"
	    " design -import gold -as gold; design -import gate -as gate;"
	    " miter -equiv -make_outputs -ignore_gold_x -flatten gold gate"
	    " miter; hierarchy -top miter; memory; opt -keepdc;"
	    " wreduce -keepdc; clk2fflogic; opt -keepdc; opt_clean;"
	    " rename -hide; rename -enumerate; write_rtlil %s",
	    eq->ref_file, eq->ref_top, cand_file, cand_top,
	    YOSYS_EQUIV_MITER);
}

char *
yosys_equiv_sat_script(const struct yosys_equiv *eq, int sat_timeout_s)
{
	return xasprintf("read_rtlil %s; stat; sat -tempinduct -prove trigger"
	    " 0 -set-def-inputs -set-init-undef -maxsteps %d -timeout %d"
	    " -show-inputs -show-outputs miter", YOSYS_EQUIV_MITER,
	    eq->depth, sat_timeout_s < 1 ? 1 : sat_timeout_s);
}

/* line without its leading and trailing blanks equal to want? */
static int
is_line(const char *line, size_t len, const char *want)
{
	size_t n = strlen(want);

	while (len > 0 && (*line == ' ' || *line == '\t')) {
		line++;
		len--;
	}
	while (len > 0 && (line[len - 1] == ' ' || line[len - 1] == '\r'))
		len--;
	return len == n && memcmp(line, want, n) == 0;
}

/* The number after prefix at the start of line (blanks skipped), with
 * the text after it equal to rest's start; -1 when it is not such a
 * line. */
static int
number_after(const char *line, size_t len, const char *prefix,
    const char *rest)
{
	const char *p = line, *end = line + len;
	size_t n = strlen(prefix);
	int num;

	while (p < end && *p == ' ')
		p++;
	if ((size_t)(end - p) < n || memcmp(p, prefix, n) != 0)
		return -1;
	p += n;
	if (env_digits(&p, end, &num) == 0)
		return -1;
	n = strlen(rest);
	if ((size_t)(end - p) < n || memcmp(p, rest, n) != 0)
		return -1;
	return num;
}

/* Split line into at most max blank-separated tokens; their count. */
static size_t
tokens(const char *line, size_t len, const char **tok, size_t *tlen,
    size_t max)
{
	const char *p = line, *end = line + len;
	size_t k = 0;

	while (p < end) {
		const char *s;

		while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
			p++;
		if (p == end)
			break;
		if (k == max)
			return max + 1;
		s = p;
		while (p < end && *p != ' ' && *p != '\t' && *p != '\r')
			p++;
		tok[k] = s;
		tlen[k++] = (size_t)(p - s);
	}
	return k;
}

/* A row of sat's table: "STEP NAME DEC HEX BIN" with a numeric step. */
static void
table_row(struct yosys_equiv_scan *s, const char *line, size_t len)
{
	const char *tok[5], *p;
	size_t tl[5], k = tokens(line, len, tok, tl, 5);
	const char *name;
	size_t nlen;
	char side;
	int step;
	struct yosys_equiv_value *v;

	if (k != 5)
		return;
	p = tok[0];
	if (env_digits(&p, tok[0] + tl[0], &step) != (int)tl[0] || step < 1)
		return;		/* "init" rows: the initial state */
	for (size_t i = 0; i < tl[4]; i++)
		if (strchr("01xz", tok[4][i]) == NULL)
			return;
	name = tok[1];
	nlen = tl[1];
	if (nlen > 0 && *name == '\\') {
		name++;
		nlen--;
	}
	if (nlen == 7 && memcmp(name, "trigger", 7) == 0) {
		if (tl[4] == 1 && tok[4][0] == '1' && (s->fail_step == 0 ||
		    step < s->fail_step))
			s->fail_step = step;
		if (step > s->steps)
			s->steps = step;
		return;
	}
	if (nlen > 3 && memcmp(name, "in_", 3) == 0) {
		side = 'i';
		name += 3;
		nlen -= 3;
	} else if (nlen > 5 && memcmp(name, "gold_", 5) == 0) {
		side = 'r';
		name += 5;
		nlen -= 5;
	} else if (nlen > 5 && memcmp(name, "gate_", 5) == 0) {
		side = 'c';
		name += 5;
		nlen -= 5;
	} else {
		return;
	}
	if (step > s->steps)
		s->steps = step;
	/* Doubling at each power of two: a long table costs its length. */
	if (s->nv >= 8 && (s->nv & (s->nv - 1)) == 0)
		s->v = xreallocarray(s->v, s->nv * 2, sizeof *s->v);
	else if (s->nv == 0)
		s->v = xreallocarray(NULL, 8, sizeof *s->v);
	v = &s->v[s->nv++];
	v->step = step;
	v->side = side;
	v->name = xstrndup(name, nlen);
	v->bits = xstrndup(tok[4], tl[4]);
	v->hex = xstrndup(tok[3], tl[3]);
}

void
yosys_equiv_scan(const char *log, size_t len, struct yosys_equiv_scan *s)
{
	const char *p = log, *end = log + len;
	int in_stat = 0, table = 0;

	memset(s, 0, sizeof *s);
	s->state = -1;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl != NULL ? (size_t)(nl - p) : (size_t)(end - p);
		const char *tok[3];
		size_t tl[3];
		int n;

		if (table) {
			table_row(s, p, l);
		} else if (is_line(p, l, "=== miter ===")) {
			in_stat = 1;
			s->state = 0;
		} else if (in_stat && tokens(p, l, tok, tl, 2) == 2 &&
		    tl[0] == 3 && memcmp(tok[0], "$ff", 3) == 0) {
			const char *q = tok[1];
			int num;

			if (env_digits(&q, tok[1] + tl[1], &num) ==
			    (int)tl[1])
				s->state = num;
		} else if (is_line(p, l, "Induction step proven: SUCCESS!")) {
			s->result = YOSYS_EQUIV_PROVEN;
		} else if (is_line(p, l, "SAT temporal induction proof"
		    " finished - model found for base case: FAIL!")) {
			s->result = YOSYS_EQUIV_DIFFERENT;
			table = 1;
		} else if (is_line(p, l, "Reached maximum number of time steps"
		    " -> proof failed.")) {
			s->result = YOSYS_EQUIV_BOUNDED;
		} else if (is_line(p, l, "Interrupted SAT solver: TIMEOUT!")) {
			s->result = YOSYS_EQUIV_UNFINISHED;
		} else if ((n = number_after(p, l, "Base case for induction"
		    " length ", " proven.")) >= 0) {
			if (n > s->base)
				s->base = n;
		} else if ((n = number_after(p, l, "[induction step ",
		    "] ")) >= 0) {
			s->induction = n;
		} else if (memmem(p, l, "Executing SAT", 13) != NULL) {
			in_stat = 0;
		}
		p = nl != NULL ? nl + 1 : end;
	}
	if (s->result != YOSYS_EQUIV_PROVEN)
		s->induction = 0;
}

/* What a value owns (array_free()). */
static void
value_release(void *p)
{
	struct yosys_equiv_value *v = p;

	free(v->name);
	free(v->bits);
	free(v->hex);
}

void
yosys_equiv_scan_release(struct yosys_equiv_scan *s)
{
	array_free(s->v, s->nv, sizeof *s->v, value_release);
	memset(s, 0, sizeof *s);
}

/* A value as a Verilog literal: binary up to 16 bits or with x, else
 * the solver's hex. */
static void
literal(struct buf *b, const struct yosys_equiv_value *v)
{
	size_t w = strlen(v->bits);

	if (w <= 16 || strcmp(v->hex, "--") == 0)
		buf_printf(b, "%zu'b%s", w, v->bits);
	else
		buf_printf(b, "%zu'h%s", w, v->hex);
}

/* Does the candidate's value miss a defined bit of the reference's? */
static int
differs(const char *ref, const char *cand)
{
	size_t n = strlen(ref);

	if (strlen(cand) != n)
		return 1;
	for (size_t i = 0; i < n; i++)
		if ((ref[i] == '0' || ref[i] == '1') && cand[i] != ref[i])
			return 1;
	return 0;
}

/* The candidate's value of reference output r among rows lo..hi-1. */
static const struct yosys_equiv_value *
partner(const struct yosys_equiv_scan *s, size_t lo, size_t hi,
    const struct yosys_equiv_value *r)
{
	for (size_t j = lo; j < hi; j++)
		if (s->v[j].side == 'c' && strcmp(s->v[j].name, r->name) == 0)
			return &s->v[j];
	return NULL;
}

char *
yosys_equiv_step_text(const struct yosys_equiv_scan *s, int step,
    int only_diff)
{
	struct buf b = BUF_INIT;
	size_t lo = 0, hi;
	int first = 1;

	/* The table lists a step's rows together: only they are read, so
	 * that a long trace costs its length, not its square. */
	while (lo < s->nv && s->v[lo].step != step)
		lo++;
	for (hi = lo; hi < s->nv && s->v[hi].step == step; hi++)
		;
	buf_printf(&b, "step %d: inputs", step);
	for (size_t i = lo; i < hi; i++)
		if (s->v[i].side == 'i') {
			buf_printf(&b, " %s=", s->v[i].name);
			literal(&b, &s->v[i]);
		}
	buf_adds(&b, ";");
	for (size_t i = lo; i < hi; i++) {
		const struct yosys_equiv_value *r = &s->v[i], *c;

		if (r->side != 'r')
			continue;
		c = partner(s, lo, hi, r);
		if (only_diff && c != NULL && !differs(r->bits, c->bits))
			continue;
		buf_printf(&b, "%s %s: reference ", first ? "" : ";", r->name);
		literal(&b, r);
		buf_adds(&b, ", candidate ");
		if (c != NULL)
			literal(&b, c);
		else
			buf_adds(&b, "(none)");
		first = 0;
	}
	return buf_detach(&b, NULL);
}

/* Add to b the words of step's rows lo..hi-1: a line of its inputs
 * (wrapped before FEEDBACK_LINE_MAX), then a line per output. */
static void
step_words(struct buf *b, const struct yosys_equiv_scan *s, size_t lo,
    size_t hi, int fail)
{
	size_t col;

	col = b->len;
	buf_printf(b, "step %d%s:", s->v[lo].step, fail ? " (differs)" : "");
	for (size_t i = lo; i < hi; i++) {
		struct buf one = BUF_INIT;

		if (s->v[i].side != 'i')
			continue;
		buf_printf(&one, " %s=", s->v[i].name);
		literal(&one, &s->v[i]);
		if (b->len - col + one.len > FEEDBACK_LINE_MAX - 4) {
			buf_adds(b, "\n ");
			col = b->len - 1;
		}
		buf_add(b, one.p, one.len);
		buf_release(&one);
	}
	buf_addc(b, '\n');
	for (size_t i = lo; i < hi; i++) {
		const struct yosys_equiv_value *r = &s->v[i], *c;

		if (r->side != 'r')
			continue;
		c = partner(s, lo, hi, r);
		buf_printf(b, "  %s: reference ", r->name);
		literal(b, r);
		buf_adds(b, ", candidate ");
		if (c != NULL)
			literal(b, c);
		else
			buf_adds(b, "(none)");
		if (c == NULL || differs(r->bits, c->bits))
			buf_adds(b, "  <- differs");
		buf_addc(b, '\n');
	}
}

json_t *
yosys_equiv_counterexample(const struct yosys_equiv_scan *s, char **text)
{
	json_t *o, *steps;
	size_t *start, nsteps = 0, first;
	struct buf b = BUF_INIT, *words;
	size_t total;

	*text = NULL;
	if (s->result != YOSYS_EQUIV_DIFFERENT || s->nv == 0)
		return NULL;
	/* The rows of a step are together: a step starts where the step
	 * number changes. */
	start = xreallocarray(NULL, s->nv + 1, sizeof *start);
	for (size_t i = 0; i < s->nv; i++)
		if (i == 0 || s->v[i].step != s->v[i - 1].step)
			start[nsteps++] = i;
	start[nsteps] = s->nv;
	steps = json_array();
	words = xreallocarray(NULL, nsteps, sizeof *words);
	for (size_t k = 0; k < nsteps; k++) {
		json_t *st = json_object(), *in = json_object(),
		    *out = json_object();
		int step = s->v[start[k]].step;

		for (size_t i = start[k]; i < start[k + 1]; i++) {
			const struct yosys_equiv_value *v = &s->v[i];
			struct buf lit = BUF_INIT;
			json_t *pair;

			literal(&lit, v);
			if (v->side == 'i') {
				json_object_set_new(in, v->name,
				    json_string(buf_str(&lit)));
			} else {
				pair = json_object_get(out, v->name);
				if (pair == NULL) {
					pair = json_object();
					json_object_set_new(out, v->name, pair);
				}
				json_object_set_new(pair, v->side == 'r' ?
				    "reference" : "candidate",
				    json_string(buf_str(&lit)));
			}
			buf_release(&lit);
		}
		for (size_t i = start[k]; i < start[k + 1]; i++) {
			const struct yosys_equiv_value *r = &s->v[i], *c;

			if (r->side != 'r')
				continue;
			c = partner(s, start[k], start[k + 1], r);
			json_object_set_new(json_object_get(out, r->name),
			    "differs", json_boolean(c == NULL ||
			    differs(r->bits, c->bits)));
		}
		json_object_set_new(st, "step", json_integer(step));
		json_object_set_new(st, "inputs", in);
		json_object_set_new(st, "outputs", out);
		json_array_append_new(steps, st);
		words[k] = (struct buf)BUF_INIT;
		step_words(&words[k], s, start[k], start[k + 1],
		    step == s->fail_step);
	}
	o = json_object();
	json_object_set_new(o, "fail_step", json_integer(s->fail_step));
	json_object_set_new(o, "steps", steps);
	/* The text: the steps up to the failing one, the latest first kept
	 * when all of them do not fit. */
	first = nsteps;
	total = 0;
	for (size_t k = nsteps; k-- > 0;) {
		if (s->fail_step > 0 && s->v[start[k]].step > s->fail_step)
			continue;
		if (first < nsteps && total + words[k].len >
		    FEEDBACK_TEXT_MAX - 200)
			break;
		total += words[k].len;
		first = k;
	}
	buf_printf(&b, "not equivalent: the outputs differ at step %d%s\n",
	    s->fail_step, s->state == 0 ? " (combinational: no state)" :
	    " (every flip-flop starts x; a clock cycle is two steps)");
	if (first > 0 && first < nsteps)
		buf_printf(&b, "(steps 1 to %d not shown)\n",
		    s->v[start[first]].step - 1);
	for (size_t k = first; k < nsteps; k++)
		if (s->fail_step == 0 || s->v[start[k]].step <= s->fail_step)
			buf_add(&b, words[k].p, words[k].len);
	for (size_t k = 0; k < nsteps; k++)
		buf_release(&words[k]);
	free(words);
	free(start);
	*text = buf_detach(&b, NULL);
	return o;
}
