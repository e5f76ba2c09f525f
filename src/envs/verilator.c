/*
 * verilator.c - the Verilator env (toolchains.md section 1): lint the
 * candidate, then build and run the task's testbench.
 *
 *   verilator --lint-only --timing -Wall -Wno-fatal -Wno-DECLFILENAME
 *     --top-module DUT candidate.sv
 *   verilator --binary --timing -Wno-fatal -Wno-DECLFILENAME
 *     --top-module TOP -j 2 -Mdir obj -o ../run/VTOP
 *     [-MAKEFLAGS OBJCACHE=ccache] FILES
 *   ./VTOP                                 (in run/, which is all it sees)
 *
 * Every %Warning and %Error line becomes a diagnostic, "CODE: message",
 * on the candidate's line when it names candidate.sv.  -Wno-fatal keeps
 * lint warnings from stopping the run (errors still do); --timing is
 * needed for lint too, or any #delay is an error (NEEDTIMINGOPT).  As in
 * iverilog.c, every line of our copy of the testbench starts with a
 * per-run secret and its $finish is marked, so that a candidate can
 * neither print a verdict line nor end the simulation early and pass; the
 * binary lies in run/RANDOM/ and runs without /proc (verilog.h).  A
 * candidate with $c, DPI or another finding of verilog_check_candidate()
 * is linted, never built.  DUT is env_params.dut_top, else the module the
 * testbench instantiates when the candidate declares it, else TopModule
 * or top_module (verilog_pick_top()).  With env_params.lint_only only the
 * lint stage runs.
 *
 * RealBench testbenches (import_realbench.c) print "Hint: Total mismatched
 * samples is N out of M samples", and some of them no "Mismatches:" line
 * at all; that line is read as the result then.
 * Their per-output lines may lack the "Hint: Output" prefix ("wo_0 has 176
 * mismatches."), which RealBench's own harness greps for: that is how one
 * of its recorded passes is false.  env_params.cand_file names the
 * candidate's file as the benchmark does (aes_sbox_top.sv), so that
 * messages read as in its logs, and env_params.lint_sources lints the
 * candidate with the task's source files (the submodules it instantiates).
 *
 * Task data files (verilog_is_data()) are not compiled; they go
 * read-only into run/, beside the binary, as for iverilog.
 *
 * ccache is used when installed.  The build stage asks verify.c for the
 * lasting cache (env_stage.cache): a warm cache turns a 5 s build into
 * well under one; the simulation, which runs candidate code, never sees it.
 */
#define _GNU_SOURCE
#include "envs/env.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "envs/verilog.h"
#include "envs/verilog_wave.h"

#define CAND_FILE "candidate.sv"
#define CCACHE_PATH "/usr/bin/ccache"
#define RUN_DIR "run"

static int
verilator_toolchain(char *buf, size_t n, struct err *err)
{
	static const char *const argv[] = { "verilator", "--version", NULL };
	static const char *const gxx[] = { "g++", "--version", NULL };
	static const char *const make[] = { "make", "--version", NULL };
	char v[128], g[128], m[128];

	if (env_tool_version(argv, v, sizeof v) < 0)
		return err_set(err, "verilator is not installed (Debian package"
		    " verilator)");
	/* The build compiles C++: the compiler is part of the identity. */
	if (env_tool_version(gxx, g, sizeof g) < 0 ||
	    env_tool_version(make, m, sizeof m) < 0)
		return err_set(err, "verilator needs g++ and make (Debian"
		    " packages g++ make)");
	snprintf(buf, n, "%s; %s", v, g);
	return 0;
}

static int
plain_name(const char *s)
{
	if (*s == '\0' || *s == '-')
		return 0;
	for (; *s != '\0'; s++)
		if (!verilog_is_ident((unsigned char)*s) || *s == '$')
			return 0;
	return 1;
}

/* Write the task files; testbenches get the nonce (verilog.h). */
static int
write_task_files(const struct task *t, const char *workdir,
    struct env_plan *plan, struct err *err)
{
	for (size_t i = 0; i < t->nfiles; i++) {
		const struct task_file *f = &t->files[i];
		int tagged = 0;

		if (strcmp(f->name, plan->cand_file) == 0 ||
		    strcmp(f->name, "obj") == 0 ||
		    strcmp(f->name, RUN_DIR) == 0)
			return err_set(err, "task file name %s is reserved by"
			    " the verilator env", f->name);
		if (verilog_is_data(f))
			continue;	/* into run/, after the stages */
		if (strcmp(f->role, "testbench") != 0) {
			if (env_write_input(plan, workdir, f->name, f->data,
			    f->len, err) < 0)
				return -1;
			continue;
		}
		if (verilog_write_testbench(plan, workdir, f, &tagged, err) <
		    0)
			return -1;
	}
	return 0;
}

/* A file name of our own choosing, as the benchmark names the DUT file. */
static int
plain_file(const char *s)
{
	size_t n = strlen(s);

	if (n < 3 || n > 64 || s[0] == '.' || s[0] == '-' ||
	    (strcmp(s + n - 2, ".v") != 0 && (n < 4 ||
	    strcmp(s + n - 3, ".sv") != 0)))
		return 0;
	for (; *s != '\0'; s++)
		if ((!verilog_is_ident((unsigned char)*s) && *s != '.') ||
		    *s == '$')
			return 0;
	return 1;
}

static int
verilator_prepare(const struct task *t, const struct candidate *c,
    const char *workdir, struct env_plan *plan, struct err *err)
{
	const char *argv[ENV_MAX_ARGS];
	char *top = env_param_str(t, "top");
	char *dut = env_param_str(t, "dut_top");
	char *cand = env_param_str(t, "cand_file");
	char *exe = NULL, *run = NULL, *sub = NULL, *found = NULL, img[24];
	char *wave = NULL, mod[24];
	int lint_only = env_param_bool(t, "lint_only", 0);
	int last = env_param_bool(t, "candidate_last", 0);
	int lint_sources = env_param_bool(t, "lint_sources", 0);
	size_t n = 0;
	int rc = -1;

	env_nonce(plan->nonce, sizeof plan->nonce, 16, 'T');
	if (cand != NULL && !plain_file(cand)) {
		err_set(err, "cand_file '%s' must be a plain .v or .sv file"
		    " name", cand);
		goto out;
	}
	plan->cand_file = cand != NULL ? cand : xstrdup(CAND_FILE);
	cand = NULL;
	plan->timeout_s = (int)env_param_int(t, "timeout_s", 300);
	if (top == NULL)
		top = xstrdup("tb");
	if (dut == NULL) {
		/* The module the testbench instantiates (RTLLM's own
		 * names), else VerilogEval's. */
		char *tops = verilog_expected_tops(t);

		dut = verilog_pick_top(c->code, c->code_len, tops);
		free(tops);
	}
	if (!plain_name(top) || !plain_name(dut)) {
		err_set(err, "top module names must be plain identifiers");
		goto out;
	}
	if (env_write_input(plan, workdir, plan->cand_file, c->code,
	    c->code_len, err) < 0)
		goto out;
	/* $c, DPI, `systemc_*: C++ of the candidate's in the model; with a
	 * finding only lint runs. */
	/* A bad env_params.design_reads is the task's error. */
	if (verilog_design_reads(t, &found, err) < 0)
		goto out;
	free(found);
	found = verilog_check_task(t, c->code, c->code_len);
	if (found != NULL)
		buf_adds(&plan->precheck, found);
	if (lint_only)
		plan->nonce[0] = '\0';
	else if (write_task_files(t, workdir, plan, err) < 0)
		goto out;
	if (t->env_params != NULL)
		env_note_input(plan, "env_params", t->env_params,
		    strlen(t->env_params));

	argv[n++] = "verilator";
	argv[n++] = "--lint-only";
	argv[n++] = "--timing";
	argv[n++] = "-Wall";
	argv[n++] = "-Wno-fatal";
	argv[n++] = "-Wno-DECLFILENAME";
	argv[n++] = "--top-module";
	argv[n++] = dut;
	argv[n++] = plan->cand_file;
	/* The submodules the candidate instantiates (RealBench's aes_sbox.v
	 * beside aes_key_expand_128): lint cannot elaborate without them. */
	for (size_t i = 0; lint_sources && !lint_only && i < t->nfiles &&
	    n + 1 < ENV_MAX_ARGS; i++)
		if (strcmp(t->files[i].role, "source") == 0 &&
		    !verilog_is_data(&t->files[i]))
			argv[n++] = t->files[i].name;
	argv[n] = NULL;
	env_plan_stage(plan, "lint", argv);
	if (lint_only || verilog_has_finding(plan)) {
		rc = 0;
		goto out;
	}

	/* The simulation sees only run/, not the tagged testbench; the
	 * image, which holds the nonce, lies in a directory with a random
	 * name, and the simulation has no /proc to learn it from. */
	env_nonce(img, sizeof img, 16, 'T');
	sub = xasprintf("%s/%s", RUN_DIR, img);
	if (env_mkdir(workdir, RUN_DIR, err) < 0 ||
	    env_mkdir(workdir, sub, err) < 0)
		goto out;
	exe = xasprintf("../%s/V%s", sub, top);	/* from obj/ */
	run = xasprintf("./%s/V%s", img, top);
	n = 0;
	argv[n++] = "verilator";
	argv[n++] = "--binary";
	argv[n++] = "--timing";
	argv[n++] = "-Wno-fatal";
	argv[n++] = "-Wno-DECLFILENAME";
	argv[n++] = "--top-module";
	argv[n++] = top;
	argv[n++] = "-j";
	argv[n++] = "2";
	argv[n++] = "-Mdir";
	argv[n++] = "obj";
	argv[n++] = "-o";
	argv[n++] = exe;
	if (access(CCACHE_PATH, X_OK) == 0) {
		argv[n++] = "-MAKEFLAGS";
		argv[n++] = "OBJCACHE=ccache";
	}
	verilog_add_sources(argv, n, t, plan->cand_file, last);
	/* The compared signals' waveform, written by a harness module
	 * bound into the testbench (verilog_wave.h). */
	wave = verilog_wave_signals(t, top);
	if (wave != NULL && verilog_wave_write(plan, workdir, t, top, wave,
	    img, 1, mod, sizeof mod, err) < 0)
		goto out;
	if (wave != NULL)
		verilog_wave_add_source(argv);
	env_plan_stage(plan, "build", argv);
	/* Only the build writes the lasting compiler cache: it compiles
	 * Verilator's output, it runs nothing of the candidate's. */
	plan->stages[plan->nstages - 1].cache = access(CCACHE_PATH, X_OK) ==
	    0;
	{
		const char *const sim[] = { run, NULL };

		env_plan_stage_in(plan, "simulate", sim, RUN_DIR);
		plan->stages[plan->nstages - 1].no_proc = 1;
		/* The design's model runs here: a stage after it would get
		 * a sealed area (ADR 0034). */
		plan->stages[plan->nstages - 1].candidate = 1;
		if (wave != NULL)
			verilog_wave_plan(plan, img);
	}
	/* Data files the testbench opens by bare name, read-only. */
	if (verilog_write_data(plan, workdir, t, img, err) < 0)
		goto out;
	rc = 0;
out:
	free(top);
	free(dut);
	free(cand);
	free(exe);
	free(run);
	free(sub);
	free(found);
	free(wave);
	return rc;
}

/*
 * Parse a Verilator message line: "%Warning-CODE: FILE:LINE:COL: msg",
 * "%Error: FILE:LINE:COL: msg", "%Error-CODE: msg", "%Error: FILE:LINE:
 * msg" (run time).  Fills sev, code ("" when none), file ("" when none),
 * line, col and msg; returns 1 when it is such a line.
 */
static int
parse_msg(const char *line, char *sev, size_t sn, char *code, size_t cn,
    char *file, size_t fn, int *lineno, int *col, const char **msg)
{
	const char *p = line, *colon, *q;
	size_t k;

	if (strncmp(p, "%Error", 6) == 0) {
		snprintf(sev, sn, "error");
		p += 6;
	} else if (strncmp(p, "%Warning", 8) == 0) {
		snprintf(sev, sn, "warning");
		p += 8;
	} else {
		return 0;
	}
	code[0] = '\0';
	if (*p == '-') {
		k = strcspn(p + 1, ": ");
		snprintf(code, cn, "%.*s", (int)k, p + 1);
		p += 1 + k;
	}
	if (p[0] != ':' || p[1] != ' ')
		return 0;
	p += 2;
	file[0] = '\0';
	*lineno = 0;
	*col = 0;
	*msg = p;
	colon = strchr(p, ':');
	if (colon == NULL || colon == p || (size_t)(colon - p) >= fn ||
	    memchr(p, ' ', (size_t)(colon - p)) != NULL ||
	    colon[1] < '0' || colon[1] > '9')
		return 1;
	q = colon + 1;
	env_digits(&q, NULL, lineno);
	if (*q == ':' && q[1] >= '0' && q[1] <= '9') {
		q++;
		env_digits(&q, NULL, col);
	}
	if (*q != ':') {
		*lineno = 0;
		*col = 0;
		return 1;
	}
	snprintf(file, fn, "%.*s", (int)(colon - p), p);
	q++;
	while (*q == ' ')
		q++;
	*msg = q;
	return 1;
}

/*
 * Triage rules (docs/triage.md), first match wins: a failed lint or
 * build's first error; then the warnings that explain a functional
 * failure when they point into the candidate (Verilator 5.006).
 */
static const struct env_rule verilator_rules[] = {
	{ "lint build", "syntax error", CATEGORY_COMPILE, "syntax-error" },
	{ "lint build", "Too many digits", CATEGORY_COMPILE,
	  "malformed-literal" },
	{ "lint build", "was not found in design", CATEGORY_FORMAT,
	  "missing-top" },
	{ "lint build", "Cannot find file containing module",
	  CATEGORY_COMPILE, "unknown-module" },
	{ "lint build", "PINNOTFOUND", CATEGORY_COMPILE, "port-mismatch" },
	{ "lint build", "Pin not found", CATEGORY_COMPILE, "port-mismatch" },
	{ "lint build", "PROCASSWIRE", CATEGORY_COMPILE, "declared-as-wire" },
	/* tb.stats1.errors: the candidate leans on the testbench. */
	{ "lint build", "Can't find definition of scope", CATEGORY_FUNCTIONAL,
	  "out-of-module-reference" },
	{ "lint build", "Can't find definition", CATEGORY_COMPILE,
	  "unable-to-bind" },
	{ "lint build", "cast", CATEGORY_COMPILE, "explicit-cast" },
	{ "lint build", "ero width", CATEGORY_COMPILE,
	  "zero-width-constant" },
	{ "lint build", "NEEDTIMINGOPT", CATEGORY_COMPILE, "timing" },
	{ ENV_RULE_WARNING, "WIDTH", CATEGORY_COMPILE, "width-mismatch" },
	{ ENV_RULE_WARNING, "Too many digits", CATEGORY_COMPILE,
	  "malformed-literal" },
	{ ENV_RULE_WARNING, "PINMISSING", CATEGORY_COMPILE, "port-mismatch" },
	{ ENV_RULE_WARNING, "LATCH", CATEGORY_FUNCTIONAL, "latch" },
	{ ENV_RULE_WARNING, "MULTIDRIVEN", CATEGORY_FUNCTIONAL,
	  "multiple-drivers" },
};
#define VERILATOR_NRULES (sizeof verilator_rules / sizeof verilator_rules[0])

/* What one stage's messages come to. */
struct scan {
	int	 errors;	/* %Error lines, "Exiting due to" aside */
	int	 unsupported;	/* of those, Verilator's own limitations */
	int	 own;		/* of the others, those not in a task file */
	int	 warnings;
	char	*first_error;	/* the first error line (new) */
};

/*
 * Is a build warning worth a diagnostic?  The build repeats lint's
 * warnings on the candidate and adds dozens on the task's own testbench;
 * only those on how the testbench connects the candidate's ports say
 * something about the candidate.
 */
static int
build_warning_kept(const char *code, const char *msg)
{
	return strncmp(code, "PIN", 3) == 0 ||
	    strstr(msg, "port connection") != NULL;
}

/* Diagnostics of a stage's log into r; build: see build_warning_kept(). */
static void
scan_log(const struct env_plan *plan, const char *log, size_t len,
    int build, struct scan *s, struct run *r)
{
	const char *p = log, *end = log + len;

	memset(s, 0, sizeof *s);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl != NULL ? (size_t)(nl - p) : (size_t)(end - p);
		char *line = xstrndup(p, l), sev[16], code[32], file[256];
		const char *msg;
		int lineno, col;

		if (parse_msg(line, sev, sizeof sev, code, sizeof code, file,
		    sizeof file, &lineno, &col, &msg) &&
		    strncmp(msg, "Exiting due to", 14) != 0) {
			int in_cand = strcmp(file, plan->cand_file) == 0;
			int err = strcmp(sev, "error") == 0;
			char *m = code[0] != '\0' ? xasprintf("%s: %s", code,
			    msg) : xstrdup(msg);

			if (err || !build || build_warning_kept(code, msg))
				run_add_diag(r, file, lineno, col, sev, m,
				    in_cand ? lineno : 0);
			if (err) {
				s->errors++;
				if (strcmp(code, "UNSUPPORTED") == 0 ||
				    strncmp(msg, "Unsupported", 11) == 0)
					s->unsupported++;
				else if (file[0] == '\0' || in_cand)
					s->own++;
				if (s->first_error == NULL)
					s->first_error = xstrdup(line);
			} else {
				s->warnings++;
			}
			free(m);
		}
		free(line);
		p += l + (nl != NULL);
	}
}

/* Verdict for a failed lint or build stage. */
static void
judge_failed(const struct scan *s, const char *stage,
    const struct env_stage_result *res, struct run *r)
{
	char *ev;

	env_set(&r->stage, stage);
	if (s->unsupported > 0 && s->own == 0) {
		/* Only Verilator's limitations, and errors in the task's own
		 * files: not the candidate's fault
		 * (docs/adr/0004-sorry-is-env-error.md). */
		env_verdict(r, VERDICT_ENV_ERROR, CATEGORY_NONE,
		    "toolchain-limitation", s->first_error);
		return;
	}
	if (s->errors == 0 && strcmp(stage, "build") == 0) {
		/* The C++ side failed: Verilator accepted the design. */
		env_verdict(r, VERDICT_ENV_ERROR, CATEGORY_NONE, "build-failed",
		    "the C++ build of the model failed");
		return;
	}
	ev = env_evidence(s->first_error, res->log, res->log_len,
	    "verilator");
	env_verdict_rule(r, VERDICT_FAIL, env_rule_find(verilator_rules,
	    VERILATOR_NRULES, stage, s->first_error), CATEGORY_COMPILE,
	    "other", ev);
	free(ev);
}

static int
has(const struct env_stage_result *s, const char *needle)
{
	return s->log != NULL && memmem(s->log, s->log_len, needle,
	    strlen(needle)) != NULL;
}

/*
 * The line of log that names an output with mismatches, with or without
 * VerilogEval's "Hint: Output" prefix ("wo_0 has 176 mismatches. First at
 * time 10"); RealBench's "total has N mismatches" names none.  New
 * string, or NULL.
 */
static char *
output_mismatch_line(const char *nonce, const char *log, size_t len)
{
	const char *p = log, *end = log + len;
	size_t nl = strlen(nonce);

	while (p < end) {
		const char *e = memchr(p, '\n', (size_t)(end - p));
		size_t l = e != NULL ? (size_t)(e - p) : (size_t)(end - p);
		char *line, *has;
		long k;

		/* The testbench's own lines only. */
		if (l <= nl + 1 || memcmp(p, nonce, nl) != 0 || p[nl] != ' ') {
			p += l + (e != NULL);
			continue;
		}
		line = xstrndup(p + nl + 1, l - nl - 1);
		has = strstr(line, " has ");
		if (has != NULL && has > line && memchr(line, ' ',
		    (size_t)(has - line)) == NULL && strncmp(line, "total ",
		    6) != 0 && sscanf(has, " has %ld mismatches", &k) == 1 &&
		    k > 0)
			return line;
		free(line);
		p += l + (e != NULL);
	}
	return NULL;
}

/*
 * The simulation's verdict (verilog_judge_sim()).  RealBench's
 * per-output lines may lack VerilogEval's "Hint: Output" prefix: a
 * mismatch's evidence is then the first output line with mismatches.
 */
static void
judge_sim(const struct task *t, const struct env_plan *plan,
    const struct env_stage_result *s, int warnings, const char *first_error,
    struct run *r)
{
	verilog_judge_sim(t, plan, s, warnings, first_error, r);
	if (r->subcategory != NULL && strcmp(r->subcategory, "mismatch") ==
	    0 && (r->evidence == NULL || strncmp(r->evidence, "Hint: Output",
	    12) != 0)) {
		char *line = output_mismatch_line(plan->nonce, s->log,
		    s->log_len);

		if (line != NULL)
			env_set(&r->evidence, line);
		free(line);
	}
}

static void
verilator_judge(const struct task *t, const struct env_plan *plan,
    const struct env_stage_result *res, size_t nres, enum env_stop stop,
    struct run *r)
{
	const struct env_stage_result *last, *wave = NULL;
	const char *stage;
	int sim;
	struct scan lint = { 0 }, build = { 0 }, run = { 0 };

	/* The wave stage follows a simulation that ended: a stop in it is
	 * none of the simulation's (verilog_wave.h). */
	if (nres > 3) {
		wave = &res[3];
		nres = 3;
		stop = ENV_STOP_NONE;
	}
	last = nres > 0 ? &res[nres - 1] : NULL;
	stage = nres > 0 ? plan->stages[nres - 1].name : "lint";
	sim = strcmp(stage, "simulate") == 0;

	env_set(&r->stage, stage);
	if (last == NULL) {
		env_verdict(r, VERDICT_ENV_ERROR, CATEGORY_NONE, NULL, NULL);
		return;
	}
	scan_log(plan, res[0].log, res[0].log_len, 0, &lint, r);
	if (nres >= 2)
		scan_log(plan, res[1].log, res[1].log_len, 1, &build, r);
	if (nres >= 3)
		scan_log(plan, res[2].log, res[2].log_len, 0, &run, r);
	if (env_judge_limits(stop, last->exit_code, sim ? "functional" :
	    "compile", "the run", r))
		goto out;
	if (stop != ENV_STOP_NONE || last->exit_code == 128 + 25 ||
	    has(last, "out of memory") ||
	    has(last, "bad_alloc") || has(last, "virtual memory exhausted") ||
	    has(last, "Cannot allocate memory")) {
		env_verdict(r, VERDICT_FAIL, sim ? CATEGORY_FUNCTIONAL :
		    CATEGORY_COMPILE, "resource-limit", stop != ENV_STOP_NONE ?
		    "the work directory passed its size cap" : last->exit_code
		    == 128 + 25 ? "a file passed the file-size limit" :
		    "the run ran out of memory");
		goto out;
	}
	if (!sim && last->exit_code == 127) {
		env_verdict(r, VERDICT_ENV_ERROR, CATEGORY_NONE,
		    "toolchain-missing", NULL);
		goto out;
	}
	if (res[0].exit_code != 0) {
		judge_failed(&lint, "lint", &res[0], r);
		/* A limitation of Verilator's does not excuse a forbidden
		 * construct. */
		if (verdict_is(r->verdict, VERDICT_ENV_ERROR) &&
		    verilog_has_finding(plan))
			verilog_judge_precheck(plan, r);
		goto out;
	}
	if (verilog_has_finding(plan)) {
		verilog_judge_precheck(plan, r);
		goto out;
	}
	if (nres == 1) {
		env_verdict(r, VERDICT_PASS, CATEGORY_NONE, NULL, NULL);
		free(r->metrics);
		r->metrics = xasprintf("{\"warnings\":%d}", lint.warnings);
		goto out;
	}
	if (res[1].exit_code != 0) {
		/* The waveform's harness module is ours: its error is not
		 * the candidate's. */
		if (verilog_wave_harness_error(r))
			goto out;
		judge_failed(&build, "build", &res[1], r);
		goto out;
	}
	if (nres >= 3)
		judge_sim(t, plan, &res[2], lint.warnings, run.first_error, r);
	verilog_wave_judge(plan, wave, r);
out:
	free(lint.first_error);
	free(build.first_error);
	free(run.first_error);
}

/* The module a candidate must define: env_params.dut_top when the task
 * names it (RealBench), else the one its testbench instantiates. */
static char *
verilator_tops(const struct task *t)
{
	char *dut = env_param_str(t, "dut_top");

	return dut != NULL ? dut : verilog_expected_tops(t);
}

const struct env_ops env_verilator = {
	.name = "verilator",
	.domain = "chip",
	.lang = "verilog",
	.packages = "verilator g++ make",
	.toolchain = verilator_toolchain,
	.prepare = verilator_prepare,
	.tops = verilator_tops,
	.rules = verilator_rules,
	.nrules = VERILATOR_NRULES,
	.judge = verilator_judge,
};
