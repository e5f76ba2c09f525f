/*
 * iverilog.c - the Icarus Verilog env (toolchains.md section 1).
 *
 * Compiles and simulates as the VerilogEval harness does:
 *   iverilog -Wall -Winfloop -Wno-timescale -g2012 -s tb -o sim FILES
 *   vvp -n sim -none
 * FILES is the candidate then the task files (v2), or the task files then
 * the candidate when env_params.candidate_last is true (v1 / RTLFixer,
 * whose harness compiles test + completion).  The image goes to
 * run/RANDOM/sim and the simulation runs in run/ without /proc.  The
 * verdict comes from the testbench's own lines under the task's verdict
 * contract (verilog_judge_sim(): VerilogEval's "Mismatches: N in M
 * samples", RTLLM's "Your Design Passed" ...); every line of our copy of
 * the testbench starts with a per-run secret, so a candidate that prints
 * a verdict line itself cannot pass; the secret is removed from the
 * stored log afterwards (verilog.h).  A candidate with a finding of
 * verilog_check_candidate() is compiled but never simulated; that
 * includes any system call that reaches a file (verilog.h), and the
 * simulation writes no waveform (vvp's -none).
 * Task data files (any name not ending in .v, .sv, .vh, .svh, .vlib, or
 * role "data") are not compiled: they go read-only into run/, where the
 * simulation opens them by their bare names.
 */
#define _GNU_SOURCE
#include "envs/env.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "envs/verilog.h"
#include "envs/verilog_wave.h"

#define CAND_FILE "candidate.sv"

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

static int
iverilog_prepare(const struct task *t, const struct candidate *c,
    const char *workdir, struct env_plan *plan, struct err *err)
{
	const char *argv[ENV_MAX_ARGS];
	char *top = env_param_str(t, "top");
	int last = env_param_bool(t, "candidate_last", 0);
	char img[24], mod[24], *image, *rundir, *found, *wave;
	size_t n = 0;
	int rc = 0;

	env_nonce(plan->nonce, sizeof plan->nonce, 16, 'T');
	plan->cand_file = xstrdup(CAND_FILE);
	plan->timeout_s = (int)env_param_int(t, "timeout_s", 30);
	if (env_write_input(plan, workdir, CAND_FILE, c->code, c->code_len,
	    err) < 0) {
		free(top);
		return -1;
	}
	/* A bad env_params.design_reads is the task's error. */
	if (verilog_design_reads(t, &found, err) < 0) {
		free(top);
		return -1;
	}
	free(found);
	found = verilog_check_task(t, c->code, c->code_len);
	if (found != NULL)
		buf_printf(&plan->precheck, "%s\n", found);
	free(found);
	/* What Icarus cannot say when a sorry stops it before elaboration
	 * (judge(); docs/adr/0004-sorry-is-env-error.md). */
	found = verilog_undeclared(c->code, c->code_len);
	if (found != NULL)
		buf_printf(&plan->precheck, "?undeclared\t%s\n", found);
	free(found);
	for (size_t i = 0; i < t->nfiles; i++) {
		const struct task_file *f = &t->files[i];
		int tagged = 0;

		if (strcmp(f->name, CAND_FILE) == 0) {
			free(top);
			return err_set(err, "task file name %s is reserved for"
			    " the candidate", CAND_FILE);
		}
		if (verilog_is_data(f))
			continue;	/* into run/, after the stages */
		if (strcmp(f->role, "testbench") != 0) {
			rc = env_write_input(plan, workdir, f->name, f->data,
			    f->len, err);
		} else {
			rc = verilog_write_testbench(plan, workdir, f, &tagged,
			    err);
		}
		if (rc < 0) {
			free(top);
			return -1;
		}
	}
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
	/* The image holds the nonce: it goes where code in the simulation
	 * cannot name it (a random directory, and no /proc there). */
	env_nonce(img, sizeof img, 16, 'T');
	/* The compared signals' waveform, dumped by a harness module into
	 * that directory (verilog_wave.h). */
	wave = verilog_has_finding(plan) ? NULL : verilog_wave_signals(t,
	    top != NULL ? top : "tb");
	if (wave != NULL && verilog_wave_write(plan, workdir, t, top != NULL ?
	    top : "tb", wave, img, 0, mod, sizeof mod, err) < 0) {
		free(wave);
		free(top);
		return -1;
	}
	if (wave != NULL) {
		argv[n++] = "-s";
		argv[n++] = mod;
	}
	argv[n++] = "-o";
	image = xasprintf("run/%s/sim", img);
	rundir = xasprintf("run/%s", img);
	argv[n++] = image;
	verilog_add_sources(argv, n, t, CAND_FILE, last);
	if (wave != NULL)
		verilog_wave_add_source(argv);
	env_plan_stage(plan, "compile", argv);
	{
		/*
		 * The candidate alone must elaborate: a module that reaches
		 * into the testbench by hierarchical name (tb.stats1.errors,
		 * good1.zero) compiles with it but not without it.
		 */
		static const char *const iso[] = { "iverilog", "-g2012",
		    "-Wno-timescale", "-t", "null", CAND_FILE, NULL };
		/* The simulation sees only run/, not the tagged
		 * testbench.  -none: the testbench's $dumpfile writes no
		 * waveform, which would hold the reference's outputs for
		 * anything in the simulation to read back (docs/security.md,
		 * "Files of the harness"). */
		const char *const sim[] = { "vvp", "-n", image + 4, wave !=
		    NULL ? NULL : "-none", NULL };

		env_plan_stage(plan, "isolate", iso);
		/* A candidate with a finding of the static checks never
		 * runs: it could run code outside the design. */
		if (!verilog_has_finding(plan)) {
			env_plan_stage_in(plan, "simulate", sim, "run");
			plan->stages[plan->nstages - 1].no_proc = 1;
			/* The design runs here: a stage after it would get
			 * a sealed area (ADR 0034). */
			plan->stages[plan->nstages - 1].candidate = 1;
			if (wave != NULL)
				verilog_wave_plan(plan, img);
		}
	}
	free(wave);
	rc = env_mkdir(workdir, "run", err) < 0 ||
	    env_mkdir(workdir, rundir, err) < 0 ? -1 : 0;
	/* Data files the testbench opens by bare name, read-only in run/. */
	if (rc == 0 && plan->precheck.len == 0 &&
	    verilog_write_data(plan, workdir, t, img, err) < 0)
		rc = -1;
	free(image);
	free(rundir);
	free(top);
	return rc;
}

/*
 * Parse one line of iverilog's output (env_located()): "FILE:LINE:
 * [error:|warning:|sorry:] MESSAGE", "FILE:LINE: syntax error" (an
 * error), or "FILE:LINE:      : note".  Returns 1 and fills the parts
 * when it is such a line.
 */
static int
parse_diag_line(const char *line, size_t len, char *file, size_t fn,
    int *lineno, char *sev, size_t sn, const char **msg, size_t *msglen)
{
	struct env_located loc;

	if (!env_located(line, len, &loc) || loc.flen >= fn)
		return 0;
	memcpy(file, loc.file, loc.flen);
	file[loc.flen] = '\0';
	*lineno = loc.line;
	*msg = loc.msg;
	*msglen = loc.msglen;
	if (loc.severity == NULL && loc.msglen > 0 && *loc.msg == ':') {
		snprintf(sev, sn, "note");
		for ((*msg)++, (*msglen)--; *msglen > 0 && **msg == ' ';
		    (*msg)++, (*msglen)--)
			;
	} else {
		/* "Unknown module type", "Malformed statement", ... */
		snprintf(sev, sn, "%s", loc.severity != NULL ? loc.severity :
		    "error");
	}
	return 1;
}

/*
 * Triage rules (docs/triage.md), first match wins.  A compile error's
 * subcategory, from VerilogEval's result codes; then the warnings that
 * explain a functional failure when they point into the candidate
 * (Icarus Verilog 11's messages, from the RTLFixer logs and our runs).
 */
static const struct env_rule iverilog_rules[] = {
	{ "compile", "syntax error", CATEGORY_COMPILE, "syntax-error" },
	{ "compile", "cast", CATEGORY_COMPILE, "explicit-cast" },
	{ "compile", "zero width", CATEGORY_COMPILE, "zero-width-constant" },
	{ "compile", "Zero width", CATEGORY_COMPILE, "zero-width-constant" },
	{ "compile", "not a valid l-value", CATEGORY_COMPILE,
	  "declared-as-wire" },
	{ "compile", "declared here as wire", CATEGORY_COMPILE,
	  "declared-as-wire" },
	{ "compile", "Unknown module type", CATEGORY_COMPILE,
	  "unknown-module" },
	{ "compile", "Unable to bind", CATEGORY_COMPILE, "unable-to-bind" },
	{ "compile", "is not a port of", CATEGORY_COMPILE, "port-mismatch" },
	{ "compile", "port", CATEGORY_COMPILE, "port-mismatch" },
	{ "compile", "Malformed", CATEGORY_COMPILE, "syntax-error" },
	{ ENV_RULE_WARNING, "xtra digits given for sized", CATEGORY_COMPILE,
	  "malformed-literal" },
	{ ENV_RULE_WARNING, "Numeric constant truncated", CATEGORY_COMPILE,
	  "malformed-literal" },
	{ ENV_RULE_WARNING, " expects ", CATEGORY_COMPILE, "port-width" },
	{ ENV_RULE_WARNING, "found no sensitivities", CATEGORY_COMPILE,
	  "always-no-sensitivity" },
	{ ENV_RULE_WARNING, "always_comb process has no sensitivities",
	  CATEGORY_COMPILE, "always-no-sensitivity" },
	{ ENV_RULE_WARNING, "dangling input port", CATEGORY_COMPILE,
	  "port-mismatch" },
	{ ENV_RULE_WARNING, "is selecting after the vector", CATEGORY_COMPILE,
	  "width-mismatch" },
	{ ENV_RULE_WARNING, "is selecting before the vector",
	  CATEGORY_COMPILE, "width-mismatch" },
	{ ENV_RULE_WARNING, "bit select", CATEGORY_COMPILE, "width-mismatch" },
	{ ENV_RULE_WARNING, "implicit definition of wire", CATEGORY_COMPILE,
	  "undeclared-net" },
	{ ENV_RULE_WARNING, "coerced to inout", CATEGORY_COMPILE,
	  "port-mismatch" },
};
#define IVERILOG_NRULES (sizeof iverilog_rules / sizeof iverilog_rules[0])

/* A subcategory for a compile error; "other" when no rule knows it. */
static const char *
compile_subcategory(const char *msg)
{
	const struct env_rule *rule = env_rule_find(iverilog_rules,
	    IVERILOG_NRULES, "compile", msg);

	return rule != NULL ? rule->subcategory : "other";
}

/*
 * Diagnostics of a stage's log into r; counts errors and sorries.  The
 * first error is the first located one ("FILE:LINE: error: ..."), else
 * the first without a place: elaboration's "error: Unable to find the
 * root module "tb" in the Verilog source." names no file.
 */
static void
scan_diags(const struct env_plan *plan, const char *log, size_t len,
    struct run *r, int *errors, int *sorries, char **first_error)
{
	const char *p = log, *end = log + len;
	char *unplaced = NULL;

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
		} else if (l > 7 && memcmp(p, "error: ", 7) == 0) {
			char *m = xstrndup(p + 7, l - 7);

			run_add_diag(r, "", 0, 0, "error", m, 0);
			(*errors)++;
			if (unplaced == NULL)
				unplaced = xstrndup(p, l);
			free(m);
		}
		p += l + (nl != NULL);
	}
	if (*first_error == NULL)
		*first_error = unplaced;
	else
		free(unplaced);
}

static void
iverilog_judge(const struct task *t, const struct env_plan *plan,
    const struct env_stage_result *res, size_t nres, enum env_stop stop,
    struct run *r)
{
	const struct env_stage_result *last, *wave = NULL;
	int errors = 0, sorries = 0;
	char *first_error = NULL;

	/* The wave stage follows a simulation that ended: a stop in it is
	 * none of the simulation's (verilog_wave.h). */
	if (nres > 3) {
		wave = &res[3];
		nres = 3;
		stop = ENV_STOP_NONE;
	}
	last = nres > 0 ? &res[nres - 1] : NULL;

	if (nres > 0)
		scan_diags(plan, res[0].log, res[0].log_len, r, &errors,
		    &sorries, &first_error);
	env_set(&r->stage, nres >= 3 ? "simulate" : "compile");
	if (last == NULL) {
		env_verdict(r, VERDICT_ENV_ERROR, CATEGORY_NONE, NULL, NULL);
		goto out;
	}
	if (env_judge_limits(stop, last->exit_code, "functional", "the run",
	    r))
		goto out;
	if (stop == ENV_STOP_DISK) {
		env_verdict(r, VERDICT_FAIL, CATEGORY_FUNCTIONAL,
		    "resource-limit", "the work directory passed its size cap");
		goto out;
	}
	if (last->exit_code == 128 + 25 || (last->log != NULL &&
	    (memmem(last->log, last->log_len, "out of memory", 13) != NULL ||
	    memmem(last->log, last->log_len, "bad_alloc", 9) != NULL))) {
		env_verdict(r, VERDICT_FAIL, CATEGORY_FUNCTIONAL,
		    "resource-limit", last->exit_code == 128 + 25 ?
		    "a file passed the file-size limit" :
		    "the run ran out of memory");
		goto out;
	}
	if (nres == 1 && res[0].exit_code == 127) {
		env_verdict(r, VERDICT_ENV_ERROR, CATEGORY_NONE,
		    "toolchain-missing", NULL);
		goto out;
	}
	if (nres == 1 && res[0].exit_code != 0) {
		const struct diag *sorry = NULL, *own = NULL;
		const char *hint = strstr(buf_str(&plan->precheck),
		    "?undeclared\t");

		/* The waveform's harness module is ours: its error is not
		 * the candidate's. */
		if (verilog_wave_harness_error(r))
			goto out;

		for (size_t i = 0; i < r->ndiags; i++) {
			const struct diag *d = &r->diags[i];

			if (sorry == NULL && strcmp(d->severity, "sorry") == 0)
				sorry = d;
			if (own == NULL && strcmp(d->severity, "error") == 0 &&
			    d->cand_line > 0)
				own = d;
		}
		if (sorries > 0 && own == NULL && hint != NULL) {
			/* A sorry stopped Icarus while parsing, before the
			 * elaboration that would report this name. */
			int line = atoi(hint + 12);
			const char *name = strchr(hint + 12, '\t');
			size_t nl = name != NULL ? strcspn(name + 1, "\n") : 0;

			env_verdict(r, VERDICT_FAIL, CATEGORY_COMPILE,
			    "unable-to-bind", NULL);
			free(r->evidence);
			r->evidence = xasprintf("%s:%d: error: '%.*s' is not"
			    " declared (found by assay: Icarus stopped at a"
			    " sorry before elaboration); context: %s:%d:"
			    " sorry: %s", plan->cand_file, line, (int)nl,
			    name != NULL ? name + 1 : "", sorry->file,
			    sorry->line, sorry->message);
			r->evidence_line = line;
			goto out;
		}
		if (sorries > 0 && own == NULL && verilog_has_finding(plan)) {
			/* A sorry does not excuse a forbidden construct. */
			verilog_judge_precheck(plan, r);
			goto out;
		}
		if (sorries > 0 && own == NULL) {
			/* Only toolchain limitations, and errors in the task's
			 * own files: not the candidate's fault. */
			env_verdict(r, VERDICT_ENV_ERROR, CATEGORY_NONE,
			    "toolchain-limitation", sorry->message);
			goto out;
		}
		env_verdict(r, VERDICT_FAIL, CATEGORY_COMPILE, first_error !=
		    NULL ? compile_subcategory(first_error) : "other", NULL);
		if (own != NULL && sorry != NULL) {
			/* The candidate's own error decides; the sorry is
			 * context. */
			free(first_error);
			first_error = xasprintf("%s:%d: error: %s; context: %s:%d:"
			    " sorry: %s", own->file, own->line, own->message,
			    sorry->file, sorry->line, sorry->message);
			env_set(&r->subcategory, compile_subcategory(
			    own->message));
		}
		{
			char *ev = env_evidence(first_error, res[0].log,
			    res[0].log_len, "iverilog");

			env_set(&r->evidence, ev);
			free(ev);
		}
		goto out;
	}
	if (verilog_has_finding(plan)) {
		verilog_judge_precheck(plan, r);
		goto out;
	}
	if (nres == 2 && res[1].exit_code != 0) {
		int e2 = 0, s2 = 0;
		char *first = NULL;

		/* Compiles with the testbench, not alone: it leans on names
		 * outside its own modules. */
		scan_diags(plan, res[1].log, res[1].log_len, r, &e2, &s2, &first);
		env_verdict(r, VERDICT_FAIL, CATEGORY_FUNCTIONAL,
		    "out-of-module-reference", first != NULL ? first :
		    "the candidate does not elaborate on its own");
		free(first);
		goto out;
	}
	if (nres >= 3)
		verilog_judge_sim(t, plan, &res[2], -1, NULL, r);
	verilog_wave_judge(plan, wave, r);
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
	.tops = verilog_expected_tops,
	.rules = iverilog_rules,
	.nrules = IVERILOG_NRULES,
	.judge = iverilog_judge,
};
