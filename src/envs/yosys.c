/*
 * yosys.c - the Yosys synthesis env (toolchains.md section 1).
 *
 * Synthesises the candidate alone, checks the netlist, then maps it onto
 * a small liberty file for an area estimate:
 *   yosys -q -W 'Latch inferred for signal' -p 'read_verilog -sv
 *     -noblackbox candidate.sv; hierarchy -check -top TOP;
 *     select -assert-none =A:blackbox =A:whitebox; proc; rename -src;
 *     check -assert; synth -top TOP; tee -q -o stat.txt stat;
 *     check -assert; write_rtlil synth.il'
 *     -e 'Encountered .translate_off. comment'
 *   cat stat.txt
 *   yosys -q -p 'read_rtlil synth.il; dfflibmap -liberty LIB; abc -liberty
 *     LIB; opt_clean; tee -q -o area.txt stat -liberty LIB'
 *   cat area.txt
 * The first check runs before synth because synth's abc can hide two
 * drivers of one net (two assigns of gates pass a check after synth);
 * rename -src names the cells after their source lines so that the check's
 * messages point into the candidate.  -q hides everything but warnings and
 * errors, so stat goes to a file through tee and a cat stage prints it
 * (the sandbox's uid cannot open /dev/stdout, a pipe owned by assay); the
 * log message about inferred latches is raised to a warning with -W.  The
 * verdict comes from the first stage; the others add cells and area, and
 * an area that cannot be mapped (a flop the liberty file has no cell for)
 * leaves the verdict alone.  LIB is
 * env_params.liberty (a task file) or assay's own cmos_cells.lib, embedded
 * here (a copy is share/cmos_cells.lib).  yosys reads the files of
 * $readmemh while it elaborates: a candidate with a system call that
 * verilog_check_calls() refuses is never synthesised, its only stage
 * ("check") runs yosys -V.  Nothing runs here but the version query;
 * verify.c runs the stages.
 */
#define _GNU_SOURCE
#include "envs/env.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "envs/verilog.h"
#include "envs/yosys_equiv.h"
#include "model/feedback.h"

#define CAND_FILE "candidate.sv"
#define LIB_FILE "cmos_cells.lib"
#define NETLIST_FILE "synth.il"
#define STAT_FILE "stat.txt"
#define AREA_FILE "area.txt"
#define LATCH_MSG "Latch inferred for signal"
#define DRIVERS_MSG "multiple conflicting drivers"

/* The same text as share/cmos_cells.lib (yosys examples/cmos areas). */
static const char cmos_cells_lib[] =
    "/* assay's liberty file: relative areas only, no timing (yosys"
    " examples/cmos). */\n"
    "library(assay_cmos) {\n"
    "  cell(BUF) { area: 6; pin(A) { direction: input; } pin(Y) {"
    " direction: output; function: \"A\"; } }\n"
    "  cell(NOT) { area: 3; pin(A) { direction: input; } pin(Y) {"
    " direction: output; function: \"A'\"; } }\n"
    "  cell(NAND) { area: 4; pin(A) { direction: input; } pin(B) {"
    " direction: input; } pin(Y) { direction: output; function:"
    " \"(A*B)'\"; } }\n"
    "  cell(NOR) { area: 4; pin(A) { direction: input; } pin(B) {"
    " direction: input; } pin(Y) { direction: output; function:"
    " \"(A+B)'\"; } }\n"
    "  cell(DFF) { area: 18; ff(IQ, IQN) { clocked_on: C; next_state: D;"
    " } pin(C) { direction: input; clock: true; } pin(D) { direction:"
    " input; } pin(Q) { direction: output; function: \"IQ\"; } }\n"
    "  cell(DFFSR) { area: 18; ff(IQ, IQN) { clocked_on: C; next_state:"
    " D; preset: S; clear: R; } pin(C) { direction: input; clock: true; }"
    " pin(D) { direction: input; } pin(Q) { direction: output; function:"
    " \"IQ\"; } pin(S) { direction: input; } pin(R) { direction: input;"
    " } }\n"
    "}\n";

static int
yosys_toolchain(char *buf, size_t n, struct err *err)
{
	static const char *const argv[] = { "yosys", "-V", NULL };

	if (env_tool_version(argv, buf, n) < 0)
		return err_set(err, "yosys is not installed (Debian package"
		    " yosys)");
	return 0;
}

/* The module a candidate must define: env_params.top when the task names
 * it, else the one its files or interface name (verilog_expected_tops()). */
static char *
yosys_tops(const struct task *t)
{
	char *top = env_param_str(t, "top");

	return top != NULL ? top : verilog_expected_tops(t);
}

/*
 * The files the miter stage reads, sealed from prepare()'s (ADR 0034):
 * the candidate, the reference and the data files the candidate may
 * $readmemh (reads, space-separated, may be NULL).  Into names (max
 * entries, NULL-terminated); the strings point into reads or are static.
 */
static void
equiv_files(const char *ref, char *reads, const char **names, size_t max)
{
	size_t k = 0;

	names[k++] = CAND_FILE;
	names[k++] = ref;
	for (char *save = NULL, *w = reads != NULL ? strtok_r(reads, " ",
	    &save) : NULL; w != NULL && k + 1 < max; w = strtok_r(NULL, " ",
	    &save))
		names[k++] = w;
	names[k] = NULL;
}

/* Seal the miter stage's files (before any stage is planned). */
static void
plan_equiv_seal(struct env_plan *plan, const char *ref, const char *reads)
{
	char *copy = reads != NULL ? xstrdup(reads) : NULL;
	const char *names[ENV_MAX_SEAL + 1];

	equiv_files(ref, copy, names, ENV_MAX_SEAL + 1);
	env_plan_seal(plan, names);
	free(copy);
}

/*
 * The miter stage, in a work area holding only the sealed candidate,
 * reference and data files, seals the miter; the equiv stage proves it
 * in an area holding that alone, so no file the candidate's design was
 * read beside reaches the proof.
 */
static void
plan_equiv(struct env_plan *plan, const char *ref, const char *reads,
    const char *miter, const char *prove)
{
	char *copy = reads != NULL ? xstrdup(reads) : NULL;
	const char *names[ENV_MAX_SEAL + 1];
	const char *const s1[] = { "yosys", "-q", "-p", miter, NULL };
	const char *const s2[] = { "yosys", "-p", prove, NULL };
	const char *const out[] = { YOSYS_EQUIV_MITER, NULL };

	equiv_files(ref, copy, names, ENV_MAX_SEAL + 1);
	env_plan_stage(plan, "miter", s1);
	env_plan_use(plan, names);
	env_plan_seal(plan, out);
	env_plan_stage(plan, "equiv", s2);
	env_plan_use(plan, out);
	free(copy);
}

static int
yosys_prepare(const struct task *t, const struct candidate *c,
    const char *workdir, struct env_plan *plan, struct err *err)
{
	char *top = env_param_str(t, "top");
	char *lib = env_param_str(t, "liberty");
	char *synth = NULL, *area = NULL, *found = NULL, *reads = NULL;
	char *miter = NULL, *prove = NULL;
	const char *reserved[] = { CAND_FILE, NETLIST_FILE, STAT_FILE,
	    AREA_FILE, YOSYS_EQUIV_MITER, NULL, NULL };
	struct yosys_equiv eq = { 0 };
	int rc = -1, equiv;

	plan->cand_file = xstrdup(CAND_FILE);
	if (top == NULL) {
		/* The module the task expects (its interface's, or the one
		 * its testbench instantiates) that the candidate declares,
		 * else the first of them, which yosys then reports missing;
		 * TopModule or top_module when the task names none. */
		char *tops = yosys_tops(t);

		top = verilog_pick_top(c->code, c->code_len, tops);
		free(tops);
	}
	if (!yosys_script_safe(top)) {
		err_set(err, "top module name '%s' is not a plain identifier",
		    top);
		goto out;
	}
	if ((equiv = yosys_equiv_params(t, top, &eq, err)) < 0)
		goto out;
	/* A proof takes longer than a synthesis (docs/envs.md). */
	plan->timeout_s = (int)env_param_int(t, "timeout_s", equiv ? 120 : 60);
	if (lib != NULL && (!yosys_script_safe(lib) ||
	    task_file_by_name(t, lib) == NULL)) {
		err_set(err, "liberty file '%s' is not a task file", lib);
		goto out;
	}
	if (env_write_input(plan, workdir, CAND_FILE, c->code, c->code_len,
	    err) < 0)
		goto out;
	/* the liberty file is the env's own unless the task names one */
	reserved[5] = lib == NULL ? LIB_FILE : NULL;
	if (env_write_task_files(plan, workdir, t, reserved, "yosys", err) < 0)
		goto out;
	if (lib == NULL) {
		if (env_write_input(plan, workdir, LIB_FILE, cmos_cells_lib,
		    sizeof cmos_cells_lib - 1, err) < 0)
			goto out;
		lib = xstrdup(LIB_FILE);
	}
	if (t->env_params != NULL)
		env_note_input(plan, "env_params", t->env_params,
		    strlen(t->env_params));

	/* yosys reads the files of $readmemh while it elaborates: the
	 * candidate may name only the data files the task allows
	 * (docs/security.md, "Files of the harness"). */
	if (verilog_design_reads(t, &reads, err) < 0)
		goto out;
	found = verilog_check_calls(t, c->code, c->code_len);
	if (found != NULL) {
		/* Nothing reads the candidate; the stage names the tool. */
		static const char *const ver[] = { "yosys", "-V", NULL };

		buf_printf(&plan->precheck, "%s\n", found);
		env_plan_stage(plan, "check", ver);
		rc = 0;
		goto out;
	}
	/* -noblackbox: a module without a body is empty, not a black box
	 * whose outputs nothing checks; one marked a box is refused. */
	synth = xasprintf("read_verilog -sv -noblackbox %s; hierarchy -check"
	    " -top %s; select -assert-none " BOX_SELECTION "; proc;"
	    " rename -src; check -assert; synth -top %s;"
	    " tee -q -o %s stat; check -assert; write_rtlil %s",
	    CAND_FILE, top, top, STAT_FILE, NETLIST_FILE);
	area = xasprintf("read_rtlil %s; dfflibmap -liberty %s; abc -liberty"
	    " %s; opt_clean; tee -q -o %s stat -liberty %s",
	    NETLIST_FILE, lib, lib, AREA_FILE, lib);
	{
		/* translate_off hides code from the synthesis that the
		 * simulation of a pipeline runs: an error. */
		const char *const s1[] = { "yosys", "-q", "-W", LATCH_MSG,
		    "-p", synth, "-e", "Encountered .translate_off. comment",
		    NULL };
		const char *const s2[] = { "cat", STAT_FILE, NULL };
		const char *const s3[] = { "yosys", "-q", "-p", area, NULL };
		const char *const s4[] = { "cat", AREA_FILE, NULL };

		if (equiv)
			plan_equiv_seal(plan, eq.ref_file, reads);
		env_plan_stage(plan, "synth", s1);
		env_plan_stage(plan, "stat", s2);
		if (equiv) {
			/* A proof's share of the run: half, so that a SAT
			 * instance that runs out says how far it came. */
			miter = yosys_equiv_miter_script(&eq, CAND_FILE, top);
			prove = yosys_equiv_sat_script(&eq, plan->timeout_s / 2);
			plan_equiv(plan, eq.ref_file, reads, miter, prove);
		}
		env_plan_stage(plan, "area", s3);
		env_plan_stage(plan, "area-stat", s4);
	}
	rc = 0;
out:
	yosys_equiv_release(&eq);
	free(top);
	free(lib);
	free(synth);
	free(area);
	free(miter);
	free(prove);
	free(reads);
	free(found);
	return rc;
}

/* What the synth stage's log says, for the verdict. */
struct synth_scan {
	long	 cells;		/* last "Number of cells:", -1 when none */
	long	 latches;	/* $_DLATCH* cells in that stat block */
	long	 mapped;	/* the area stage's cells, -1 when none */
	long	 unmapped;	/* its cells with no liberty area ($...) */
	double	 area;		/* last "Chip area for", < 0 when none */
	int	 errors;
	int	 drivers;	/* "multiple conflicting drivers" warnings */
	char	*first_error;	/* the first ERROR line (new) */
	char	*first_problem;	/* the first Warning of a failed check (new) */
	char	*first_latch;	/* the first "Latch inferred" message (new) */
};

/*
 * Every candidate line named in text: "candidate.sv:12" as in
 * "$and$candidate.sv:6$1" or "candidate.sv:7.3-8.16$4".  Returns how many
 * went into lines (at most n, no repeats).
 */
static size_t
cand_lines(const char *text, size_t len, const char *cand, int *lines,
    size_t n)
{
	const char *p = text, *end = text + len;
	size_t clen = strlen(cand), k = 0;

	while (p < end && k < n) {
		const char *q = memmem(p, (size_t)(end - p), cand, clen);
		int num = 0, digits = 0, dup = 0;

		if (q == NULL)
			break;
		p = q + clen;
		if (p >= end || *p != ':')
			continue;
		for (p++; p < end && *p >= '0' && *p <= '9'; p++) {
			num = env_digit(num, *p);
			digits++;
		}
		if (digits == 0 || num == 0)
			continue;
		for (size_t i = 0; i < k; i++)
			dup |= lines[i] == num;
		if (!dup)
			lines[k++] = num;
	}
	return k;
}

/*
 * Triage rules (docs/triage.md), first match wins: a failed synthesis's
 * first problem or error; then the warnings that explain a functional
 * failure when they point into the candidate.
 */
static const struct env_rule yosys_rules[] = {
	{ "synth", "syntax error", CATEGORY_COMPILE, "syntax-error" },
	{ "synth", DRIVERS_MSG, CATEGORY_COMPILE, "multiple-drivers" },
	{ "synth", "is used but has no driver", CATEGORY_COMPILE,
	  "undriven" },
	{ "synth", "found logic loop", CATEGORY_COMPILE,
	  "combinational-loop" },
	{ "synth", "While loops are only allowed", CATEGORY_COMPILE,
	  "unsynthesizable" },
	{ "synth", "only allowed in constant functions", CATEGORY_COMPILE,
	  "unsynthesizable" },
	{ "synth", "is not constant", CATEGORY_COMPILE, "unsynthesizable" },
	{ "synth", "does not have a port named", CATEGORY_COMPILE,
	  "port-mismatch" },
	/* "Module `X' not found!"; another "Module `" message is not */
	{ "synth", "Module `*not found", CATEGORY_FORMAT, "missing-top" },
	{ "synth", "is not part of the design", CATEGORY_COMPILE,
	  "unknown-module" },
	{ "synth", "is implicitly declared", CATEGORY_COMPILE,
	  "unable-to-bind" },
	{ "synth", "not declared", CATEGORY_COMPILE, "unable-to-bind" },
	{ "synth", "unsupported", CATEGORY_COMPILE, "unsynthesizable" },
	{ "synth", "Unsupported", CATEGORY_COMPILE, "unsynthesizable" },
	{ ENV_RULE_WARNING, "Latch inferred", CATEGORY_FUNCTIONAL, "latch" },
	/* the equivalence's miter (yosys_equiv.c) */
	{ "miter", "has no port", CATEGORY_COMPILE, "port-mismatch" },
	{ "miter", "is not a port of the reference", CATEGORY_COMPILE,
	  "port-mismatch" },
	{ "miter", "is a blackbox", CATEGORY_COMPILE, "unknown-module" },
	{ "synth", "selection is not empty: " BOX_SELECTION, CATEGORY_COMPILE,
	  "unknown-module" },
	{ "miter", "syntax error", CATEGORY_COMPILE, "syntax-error" },
};
#define YOSYS_NRULES (sizeof yosys_rules / sizeof yosys_rules[0])

/* Is this warning one that makes check -assert fail? */
static int
check_problem(const char *line)
{
	return strstr(line, DRIVERS_MSG) != NULL ||
	    strstr(line, "is used but has no driver") != NULL ||
	    strstr(line, "found logic loop") != NULL;
}

/* Parse "FILE:LINE: ERROR: msg" / "FILE:LINE: Warning: msg". */
static int
located(const char *line, const char *kind, char *file, size_t fn,
    int *lineno, const char **msg)
{
	const char *colon = strchr(line, ':'), *p;
	size_t flen, klen = strlen(kind);
	int num = 0, digits = 0;

	if (colon == NULL || colon == line)
		return 0;
	flen = (size_t)(colon - line);
	if (flen >= fn || memchr(line, ' ', flen) != NULL)
		return 0;
	for (p = colon + 1; *p >= '0' && *p <= '9'; p++) {
		num = env_digit(num, *p);
		digits++;
	}
	if (digits == 0 || p[0] != ':' || p[1] != ' ' ||
	    strncmp(p + 2, kind, klen) != 0)
		return 0;
	memcpy(file, line, flen);
	file[flen] = '\0';
	*lineno = num;
	*msg = p + 2 + klen;
	while (**msg == ' ')
		(*msg)++;
	return 1;
}

/* One diagnostic per candidate line named in where, or one without. */
static void
add_diag_at(const struct env_plan *plan, struct run *r, const char *sev,
    const char *msg, const char *where, size_t wlen)
{
	int lines[16];
	size_t k = cand_lines(where, wlen, plan->cand_file, lines, 16);

	if (k == 0)
		run_add_diag(r, "", 0, 0, sev, msg, 0);
	for (size_t i = 0; i < k; i++)
		run_add_diag(r, plan->cand_file, lines[i], 0, sev, msg,
		    lines[i]);
}

/* Stat lines: "Number of cells: N", "  $_DLATCH_P_  2", "Chip area ...". */
static void
scan_stat(const char *line, long *cells, long *dollar, long *latches,
    double *area)
{
	char type[128];
	long n;
	const char *a;

	if (sscanf(line, " Number of cells: %ld", &n) == 1) {
		*cells = n;
		*dollar = 0;
		*latches = 0;
	} else if (sscanf(line, " %127s %ld", type, &n) == 2 &&
	    line[0] == ' ' && type[0] == '$') {
		*dollar = env_add(*dollar, n);
		if (strncmp(type, "$_DLATCH", 8) == 0)
			*latches = env_add(*latches, n);
	} else if (strstr(line, "Chip area for ") != NULL &&
	    (a = strstr(line, "': ")) != NULL) {
		*area = strtod(a + 3, NULL);
	}
}

/* Diagnostics and stat numbers of one stage's log. */
static void
scan_log(const struct env_plan *plan, const char *log, size_t len,
    int area_stage, struct synth_scan *s, struct run *r)
{
	const char *p = log, *end = log + len;
	long dollar = 0, latches = 0, cells = -1;
	int raised = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl != NULL ? (size_t)(nl - p) : (size_t)(end - p);
		const char *next = p + l + (nl != NULL), *cont = next;
		char *line = xstrndup(p, l), file[256];
		const char *msg;
		int lineno;

		/* The indented lines after a warning name its drivers. */
		while (cont < end && strncmp(cont, "    ", 4) == 0) {
			const char *e = memchr(cont, '\n',
			    (size_t)(end - cont));

			cont = e != NULL ? e + 1 : end;
		}
		if (raised) {
			/* The message that -W raised to a warning. */
			add_diag_at(plan, r, "warning", line, line, l);
			if (s->first_latch == NULL &&
			    strstr(line, LATCH_MSG) != NULL)
				s->first_latch = xstrdup(line);
			raised = 0;
		} else if (strcmp(line, "Warning: Found log message matching -W"
		    " regex:") == 0) {
			raised = 1;
		} else if (located(line, "ERROR:", file, sizeof file, &lineno,
		    &msg) || located(line, "Warning:", file, sizeof file,
		    &lineno, &msg)) {
			int err = strstr(line, ": ERROR:") != NULL;
			int in_cand = strcmp(file, plan->cand_file) == 0;

			/* yosys 0.23 gives while loops line 0. */
			run_add_diag(r, lineno > 0 ? file : "", lineno, 0,
			    err ? "error" : "warning", msg, in_cand ? lineno :
			    0);
			if (err && s->first_error == NULL)
				s->first_error = xstrdup(line);
			s->errors += err;
		} else if (strncmp(line, "ERROR: ", 7) == 0) {
			int check = strstr(line, "problems in 'check") != NULL;

			if (!check)
				run_add_diag(r, "", 0, 0, "error", line + 7, 0);
			if (s->first_error == NULL)
				s->first_error = xstrdup(line);
			s->errors++;
		} else if (strncmp(line, "Warning: ", 9) == 0) {
			int drv = strstr(line, DRIVERS_MSG) != NULL;

			/* Two drivers always fail the run: an error. */
			add_diag_at(plan, r, drv ? "error" : "warning",
			    line + 9, p, (size_t)(cont - p));
			s->drivers += drv;
			if (s->first_problem == NULL && !area_stage &&
			    check_problem(line))
				s->first_problem = xstrdup(line);
			if (cont > next) {
				/* Skip the driver lines: no messages. */
				free(line);
				p = cont;
				continue;
			}
		} else {
			scan_stat(line, &cells, &dollar, &latches, &s->area);
		}
		free(line);
		p = next;
	}
	if (cells >= 0 && area_stage) {
		s->mapped = cells;
		s->unmapped = dollar;
	} else if (cells >= 0) {
		s->cells = cells;
		s->latches = latches;
	}
}

/* The index of the stage named name among the first n of plan, or -1. */
static int
stage_index(const struct env_plan *plan, size_t n, const char *name)
{
	for (size_t i = 0; i < n && i < plan->nstages; i++)
		if (strcmp(plan->stages[i].name, name) == 0)
			return (int)i;
	return -1;
}

/*
 * The miter's first error, in words for a port that does not match:
 * yosys says "No matching port in gate module was found for \d!" (the
 * reference's d has no port of its name, direction and width in the
 * candidate) or "... in gold module ... \z!" (the candidate's z is
 * none of the reference's).  New string, or NULL when the log has no
 * ERROR line.
 */
static char *
miter_error(const char *log, size_t len)
{
	static const struct {
		const char *yosys, *lead, *tail;
	} ports[] = {
		{ "ERROR: No matching port in gate module was found for ",
		  "the candidate has no port ", " of the reference's direction"
		  " and width (its ports must be the reference's)" },
		{ "ERROR: No matching port in gold module was found for ",
		  "the candidate's port ", " is not a port of the reference"
		  " (name, direction and width must match)" },
	};
	const char *p = log, *end = log + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl != NULL ? (size_t)(nl - p) : (size_t)(end - p);

		for (size_t i = 0; i < sizeof ports / sizeof ports[0]; i++) {
			size_t k = strlen(ports[i].yosys);
			const char *n = p + k, *e = p + l;

			if (l <= k || memcmp(p, ports[i].yosys, k) != 0)
				continue;
			n += *n == '\\';
			e -= e > n && e[-1] == '!';
			return xasprintf("%s%.*s%s", ports[i].lead,
			    (int)(e - n), n, ports[i].tail);
		}
		if ((l > 7 && memcmp(p, "ERROR: ", 7) == 0) ||
		    memmem(p, l, ": ERROR: ", 9) != NULL)
			return xstrndup(p, l);
		p = nl != NULL ? nl + 1 : end;
	}
	return NULL;
}

/* The equivalence's metrics, after the others in m (an open object). */
static void
equiv_metrics(struct buf *m, const struct yosys_equiv_scan *q)
{
	const char *what = NULL;
	int steps = q->base;

	switch (q->result) {
	case YOSYS_EQUIV_PROVEN:
		what = q->state == 0 ? "combinational" : "induction";
		steps = q->state == 0 ? 0 : q->induction;
		break;
	case YOSYS_EQUIV_BOUNDED:
		what = "bounded";
		break;
	case YOSYS_EQUIV_DIFFERENT:
		what = "not-equivalent";
		steps = q->fail_step;
		break;
	case YOSYS_EQUIV_UNFINISHED:
		what = "unfinished";
		break;
	case YOSYS_EQUIV_NONE:
		return;
	}
	buf_printf(m, ",\"equiv\":\"%s\"", what);
	if (steps > 0)
		buf_printf(m, ",\"equiv_steps\":%d", steps);
}

/*
 * The verdict of the equivalence stages (miter at im, equiv at ie; -1
 * when they did not run; depth the bound asked for) of a candidate whose
 * synthesis passed: 1 when it decided r (not a pass), 0 for a pass, with
 * a note that says what was proven (docs/envs.md).
 */
static int
judge_equiv(const struct env_stage_result *res, int im, int ie, long depth,
    const struct yosys_equiv_scan *q, struct run *r)
{
	char *ev, *note;

	if (im < 0) {
		env_verdict(r, VERDICT_ENV_ERROR, CATEGORY_NONE,
		    "toolchain-error", "the equivalence proof did not run");
		return 1;
	}
	if (res[im].exit_code != 0) {
		char *why = miter_error(res[im].log, res[im].log_len);

		env_set(&r->stage, "miter");
		ev = env_evidence(why, res[im].log, res[im].log_len, "yosys");
		env_verdict_rule(r, VERDICT_FAIL, env_rule_find(yosys_rules,
		    YOSYS_NRULES, "miter", ev), CATEGORY_COMPILE, "other", ev);
		free(why);
		free(ev);
		return 1;
	}
	env_set(&r->stage, "equiv");
	if (ie < 0 || res[ie].exit_code != 0 ||
	    q->result == YOSYS_EQUIV_NONE) {
		/* The solver cannot read the netlist, or said nothing: not
		 * a verdict on the candidate (docs/adr/0004). */
		ev = ie < 0 ? xstrdup("the equivalence proof did not run") :
		    env_evidence(NULL, res[ie].log, res[ie].log_len, "yosys");
		env_verdict(r, VERDICT_ENV_ERROR, CATEGORY_NONE,
		    "toolchain-limitation", ev);
		free(ev);
		return 1;
	}
	switch (q->result) {
	case YOSYS_EQUIV_DIFFERENT:
		if (q->fail_step > 0) {
			char *step = yosys_equiv_step_text(q, q->fail_step, 1);

			ev = xasprintf("not equivalent to the reference: %s",
			    q->state == 0 && q->fail_step == 1 ?
			    step + strlen("step 1: ") : step);
			free(step);
		} else {
			ev = xstrdup("not equivalent to the reference (the"
			    " solver's counterexample could not be read)");
		}
		env_verdict(r, VERDICT_FAIL, CATEGORY_FUNCTIONAL,
		    "not-equivalent", ev);
		free(ev);
		/* The solver's model as the run's counterexample. */
		{
			char *text;
			json_t *cex = yosys_equiv_counterexample(q, &text);

			if (cex != NULL)
				feedback_set(r, "counterexample", cex, text);
			free(text);
		}
		/* A diagnostic per step of the table, in its order, as many
		 * as a proof can have steps. */
		for (size_t i = 0, k = 0; i < q->nv &&
		    k <= YOSYS_EQUIV_MAX_DEPTH; k++) {
			int n = q->v[i].step;
			char *step = yosys_equiv_step_text(q, n, 0);

			note = xasprintf("counterexample %s", step);
			run_add_diag(r, "", 0, 0, n == q->fail_step ? "error" :
			    "note", note, 0);
			free(note);
			free(step);
			while (i < q->nv && q->v[i].step == n)
				i++;
		}
		return 1;
	case YOSYS_EQUIV_UNFINISHED:
		ev = xasprintf("the equivalence proof ran out of time: a SAT"
		    " instance passed its limit after the first %d of the %ld"
		    " steps asked for were proven equal", q->base, depth);
		env_verdict(r, VERDICT_TIMEOUT, CATEGORY_FUNCTIONAL, "timeout",
		    ev);
		free(ev);
		return 1;
	case YOSYS_EQUIV_PROVEN:
		note = q->state == 0 ? xstrdup("equivalent to the reference for"
		    " all inputs (combinational)") : xasprintf("equivalent to"
		    " the reference: proven by induction (length %d) from an"
		    " unknown initial state, for every input sequence",
		    q->induction);
		break;
	default:
		note = xasprintf("equal to the reference for the first %d steps"
		    " (a clock cycle is two) from an unknown initial state, for"
		    " every input sequence; not proven beyond", q->base);
		break;
	}
	run_add_diag(r, "", 0, 0, "note", note, 0);
	free(note);
	return 0;
}

static void
yosys_judge(const struct task *t, const struct env_plan *plan,
    const struct env_stage_result *res, size_t nres, enum env_stop stop,
    struct run *r)
{
	struct synth_scan s = { .cells = -1, .mapped = -1, .area = -1 };
	struct yosys_equiv_scan q = { .state = -1 };
	const struct env_stage_result *last = nres > 0 ? &res[nres - 1] : NULL;
	struct buf m = BUF_INIT;
	int area_ok, ia, ias, im, ie, equiv, proof;

	if (last == NULL) {
		env_verdict(r, VERDICT_ENV_ERROR, CATEGORY_NONE, NULL, NULL);
		return;
	}
	if (verilog_has_finding(plan)) {
		/* A call that reaches files: never synthesised. */
		env_set(&r->stage, "check");
		verilog_judge_precheck(plan, r);
		return;
	}
	/* synth, stat (cat), [miter, equiv,] area, area-stat (cat) */
	ia = stage_index(plan, nres, "area");
	ias = stage_index(plan, nres, "area-stat");
	im = stage_index(plan, nres, "miter");
	ie = stage_index(plan, nres, "equiv");
	equiv = stage_index(plan, plan->nstages, "miter") >= 0;
	proof = (im >= 0 && (size_t)im == nres - 1) ||
	    (ie >= 0 && (size_t)ie == nres - 1);
	for (size_t i = 0; i < nres; i++)
		if ((int)i != im && (int)i != ie)
			scan_log(plan, res[i].log, res[i].log_len, (int)i == ia
			    || (int)i == ias, &s, r);
	if (ie >= 0)
		yosys_equiv_scan(res[ie].log, res[ie].log_len, &q);
	area_ok = ias >= 0 && res[ias].exit_code == 0;
	env_set(&r->stage, "synth");
	if (s.cells >= 0) {
		buf_printf(&m, "{\"cells\":%ld", s.cells);
		if (s.latches > 0)
			buf_printf(&m, ",\"latches\":%ld", s.latches);
		if (area_ok && s.area >= 0)
			buf_printf(&m, ",\"area\":%.1f", s.area);
		if (area_ok && s.mapped >= 0)
			buf_printf(&m, ",\"mapped_cells\":%ld", s.mapped);
		if (area_ok && s.unmapped > 0)
			buf_printf(&m, ",\"unmapped_cells\":%ld", s.unmapped);
		equiv_metrics(&m, &q);
		buf_adds(&m, "}");
		free(r->metrics);
		r->metrics = buf_detach(&m, NULL);
	}
	if (proof) {
		/* The proof ran out of time or space, not the synthesis. */
		env_set(&r->stage, plan->stages[nres - 1].name);
		if (env_judge_limits(stop, last->exit_code, "functional",
		    "the equivalence proof", r))
			goto out;
		if (stop != ENV_STOP_NONE || last->exit_code == 128 + 25 ||
		    memmem(last->log, last->log_len, "bad_alloc", 9) != NULL) {
			env_verdict(r, VERDICT_FAIL, CATEGORY_FUNCTIONAL,
			    "resource-limit", "the equivalence proof ran out"
			    " of memory or disk");
			goto out;
		}
		env_set(&r->stage, "synth");
	} else if (env_judge_limits(stop, last->exit_code, "compile",
	    "synthesis", r)) {
		goto out;
	}
	if (res[0].exit_code == 127) {
		env_verdict(r, VERDICT_ENV_ERROR, CATEGORY_NONE,
		    "toolchain-missing", NULL);
		goto out;
	}
	if (stop != ENV_STOP_NONE || res[0].exit_code == 128 + 25 ||
	    memmem(res[0].log, res[0].log_len, "bad_alloc", 9) != NULL) {
		/* The file-size or memory limit, or the work directory's
		 * size cap. */
		env_verdict(r, VERDICT_FAIL, CATEGORY_COMPILE, "resource-limit",
		    "synthesis ran out of memory or disk");
		goto out;
	}
	if (res[0].exit_code > 128) {
		/* An abort or a crash of yosys itself, not a verdict. */
		env_verdict(r, VERDICT_ENV_ERROR, CATEGORY_NONE,
		    "toolchain-crash", s.first_error);
		goto out;
	}
	/* env_params.latches false: a latch is a defect (a combinational
	 * spec; a pipeline's synthesis check). */
	if (res[0].exit_code == 0 && s.drivers == 0 &&
	    !env_param_bool(t, "latches", 1) && (s.first_latch != NULL ||
	    s.latches > 0)) {
		env_verdict(r, VERDICT_FAIL, CATEGORY_FUNCTIONAL, "latch",
		    s.first_latch != NULL ? s.first_latch :
		    "the netlist holds latches");
		goto out;
	}
	if (res[0].exit_code == 0 && s.drivers == 0) {
		if (equiv && judge_equiv(res, im, ie, env_param_int(t,
		    "equiv_depth", YOSYS_EQUIV_DEPTH), &q, r))
			goto out;
		env_verdict(r, VERDICT_PASS, CATEGORY_NONE, NULL, NULL);
		if (ia >= 0 && res[ia].exit_code != 0)
			run_add_diag(r, "", 0, 0, "note", "no area: the netlist"
			    " could not be mapped onto the liberty file", 0);
		else if (s.unmapped > 0)
			run_add_diag(r, "", 0, 0, "note", "some cells have no"
			    " cell in the liberty file (a latch?): the area is"
			    " missing or leaves them out", 0);
		if (area_ok)
			env_set(&r->stage, "area");
		goto out;
	}
	/* A check problem (a warning) explains a failed check, else the
	 * first error does. */
	{
		const char *why = s.first_problem;
		char *ev;

		if (why == NULL || (s.first_error != NULL &&
		    strstr(s.first_error, "problems in 'check") == NULL))
			why = s.first_error;
		ev = env_evidence(why, res[0].log, res[0].log_len, "yosys");
		env_verdict_rule(r, VERDICT_FAIL, env_rule_find(yosys_rules,
		    YOSYS_NRULES, "synth", why), CATEGORY_COMPILE, "other",
		    ev);
		free(ev);
	}
out:
	yosys_equiv_scan_release(&q);
	buf_release(&m);
	free(s.first_error);
	free(s.first_problem);
	free(s.first_latch);
}

const struct env_ops env_yosys = {
	.name = "yosys",
	.domain = "chip",
	.lang = "verilog",
	.packages = "yosys",
	.toolchain = yosys_toolchain,
	.prepare = yosys_prepare,
	.tops = yosys_tops,
	.rules = yosys_rules,
	.nrules = YOSYS_NRULES,
	.judge = yosys_judge,
};
