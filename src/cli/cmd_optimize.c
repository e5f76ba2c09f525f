/*
 * cmd_optimize.c - `assay optimize`: ask the generator for a faster or
 * smaller version of candidates that pass; each answer is an
 * `optimization` candidate whose parent is the one asked about, and it
 * counts only when it passes and its measured gain clears the threshold
 * (generate/optimize.h, ADR 0045).
 */
#include "cli/cli_shared.h"
#include "cli/model_loop.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "app/config.h"
#include "base/buf.h"
#include "base/err.h"
#include "generate/generate.h"
#include "generate/model.h"
#include "generate/optimize.h"
#include "model/vocab.h"
#include "store/store.h"

/* What a pick over the queue keeps: passing candidates whose env
 * measures a cost; the others are counted. */
struct pick {
	struct idset	 ids;
	size_t		 not_passing, unmeasured, not_optimization;
	int		 remeasure;	/* pick optimisations instead */
};

static int
pick_one(const struct store_row *row, void *arg)
{
	struct pick *p = arg;
	const struct opt_measure *m = opt_measure_of(row->env, NULL);
	/* nvcc without a GPU: compiled and measured (registers), its
	 * result unknown; its answers are measured, and count once
	 * both are verified on a GPU (--remeasure) */
	int no_gpu = m != NULL && strcmp(m->env, "nvcc") == 0 &&
	    verdict_is(row->verdict, VERDICT_SKIPPED) &&
	    row->subcategory != NULL && strcmp(row->subcategory,
	    "no-gpu") == 0;

	if (p->remeasure) {
		if (cand_kind_from_name(row->kind) == KIND_OPTIMIZATION &&
		    row->parent != NULL)
			loop_idset_add(&p->ids, row->id);
		else
			p->not_optimization++;
		return 0;
	}
	if (!verdict_is(row->verdict, VERDICT_PASS) && !no_gpu) {
		p->not_passing++;
		return 0;
	}
	if (m == NULL) {
		p->unmeasured++;
		return 0;
	}
	loop_idset_add(&p->ids, row->id);
	return 0;
}

/* --remeasure: the gain of each optimisation again, from its runs and
 * its parent's as they are now.  The exit status. */
static int
remeasure(struct store *st, const struct loop_opts *o, const char *by,
    char **ids, size_t n)
{
	double min_gain = o->cfg.min_gain > 0 ? o->cfg.min_gain :
	    OPT_MIN_GAIN_DEFAULT;
	const char *from = o->have_min_gain ? "--min-gain" :
	    o->cfg.min_gain > 0 ? "config" : "default";
	json_t *all = json_array();
	struct err err;
	size_t counted = 0;

	for (size_t i = 0; i < n; i++) {
		json_t *g;

		if (opt_record(st, ids[i], min_gain, from, by, &g, &err) < 0) {
			fprintf(stderr, "assay optimize: %s\n", err.msg);
			json_decref(all);
			return 2;
		}
		counted += json_is_true(json_object_get(g, "counts"));
		if (!o->json) {
			const char *why = json_string_value(json_object_get(g,
			    "why"));
			json_t *r = json_object_get(g, "ratio");

			printf("optimize: %s: ", ids[i]);
			if (json_is_number(r))
				printf("%.3fx %s; ", json_number_value(r),
				    json_string_value(json_object_get(g,
				    "metric")));
			printf("%s%s\n", why == NULL ? "counts" :
			    "does not count: ", why != NULL ? why : "");
		}
		json_object_set_new(g, "candidate", json_string(ids[i]));
		json_array_append_new(all, g);
	}
	if (o->json)
		loop_print_object(json_pack("{s:s, s:I, s:I, s:o}", "command",
		    "optimize", "measured", (json_int_t)n, "counted",
		    (json_int_t)counted, "gains", all));
	else {
		printf("optimize: measured %zu, %zu count\n", n, counted);
		json_decref(all);
	}
	return 0;
}

static int
cmd_optimize(struct cmd_ctx *ctx, struct cmd_args *a, struct err *err)
{
	const struct cli_global *g = ctx->front;
	struct loop_opts o;
	struct store *st = NULL;
	struct pick p = { { 0 }, 0, 0, 0, 0 };
	struct gen_strategy how = { GEN_DIRECT, NULL, 0, NULL, NULL };
	struct gen_report total = { 0 };
	struct gen_ctx gc;
	json_t *rounds = NULL;
	char *by = NULL;
	int rc;

	if ((rc = loop_parse("optimize", a, &o)) != 0)
		goto out;
	rc = 2;
	p.remeasure = o.remeasure;
	if (o.file != NULL || o.have_rounds || o.verify_hand ||
	    o.have_samples || o.strategy != NULL || o.from != NULL ||
	    o.to != NULL || o.have_seed) {
		cli_usage_error("optimize", "%s is not an option of optimize",
		    o.file != NULL ? "--file" : o.have_rounds ? "--rounds" :
		    o.verify_hand ? "--verify" : o.have_samples ? "--samples" :
		    o.strategy != NULL ? "--strategy" : o.have_seed ?
		    "--seed" : "--from/--to");
		goto out;
	}
	if (a->npos > 0 && o.have_where) {
		cli_usage_error("optimize", "give IDs or --where, not both%s",
		    "");
		goto out;
	}
	how.template = o.template;
	if (!o.remeasure && model_cfg_check(&o.cfg, err) < 0) {
		fprintf(stderr, "assay optimize: %s\n", err->msg);
		goto out;
	}
	if (cli_open_store(g, &st) < 0)
		goto out;
	if (a->npos > 0) {
		if (loop_each_id(st, a->npos, a->pos, pick_one, &p) < 0)
			goto out;
	} else if (store_query_each(st, o.have_where ? buf_str(&o.where) :
	    o.remeasure ? "kind=optimization" : NULL, pick_one, &p,
	    err) < 0) {
		fprintf(stderr, "assay optimize: %s\n", err->msg);
		goto out;
	}
	if (o.remeasure) {
		if (p.not_optimization > 0)
			fprintf(stderr, "assay optimize: --remeasure: left out"
			    " %zu that are no optimisation of another\n",
			    p.not_optimization);
		by = config_reviewer(g->reviewer);
		rc = remeasure(st, &o, by, p.ids.v, p.ids.n);
		goto out;
	}
	if (p.not_passing > 0 || p.unmeasured > 0)
		fprintf(stderr, "assay optimize: left out %zu that do not pass"
		    " and %zu whose env measures no cost (x86-asm, yosys and"
		    " nvcc do)\n", p.not_passing, p.unmeasured);
	if (p.ids.n == 0) {
		if (o.json)
			loop_print_object(json_pack("{s:s, s:i, s:i}",
			    "command", "optimize", "candidates", 0, "asked",
			    0));
		else
			printf("optimize: no passing candidate to optimise\n");
		rc = 0;
		goto out;
	}
	if (!o.verify)
		fprintf(stderr, "assay optimize: --no-verify: the answers are"
		    " stored unmeasured; verify them, then `assay optimize"
		    " --remeasure` measures their gain\n");
	by = config_reviewer(g->reviewer);
	gc = (struct gen_ctx){ st, &o.cfg, by, &how };
	rounds = json_array();
	rc = loop_run(st, &gc, GLOOP_OPTIMIZE, "optimize", &o, p.ids.v,
	    p.ids.n, rounds, &total);
	if (o.json) {
		json_t *obj = json_array_get(rounds, 0);

		obj = obj != NULL ? json_incref(obj) : json_object();
		json_object_set_new(obj, "command", json_string("optimize"));
		json_object_set_new(obj, "candidates", json_integer(
		    (json_int_t)p.ids.n));
		loop_print_object(obj);
	}
out:
	if (st != NULL)
		store_close(st);
	json_decref(rounds);
	loop_idset_release(&p.ids);
	free(by);
	loop_release(&o);
	return rc;
}

const struct cmd_entry cli_cmd_optimize = {
	"optimize", NULL, loop_spec, 0, CMD_MANY,
	"optimize [--where FILTER | ID...] [--min-gain R] [--template NAME]\n"
    "             [generator options] [--jobs N] [--no-verify] [--json]"
    " [--show]\n"
    "       assay optimize --remeasure [--where FILTER | ID...] [--min-gain R]"
    " [--json]",
"Ask the generator for a faster or smaller version of each candidate\n"
    "that passes (those FILTER matches, or the IDs given; all that pass\n"
    "without either) whose env measures a cost: x86-asm the\n"
    "instructions of one call (callgrind), yosys the area from its stat\n"
    "(else the cells), nvcc the registers per thread.  The prompt is the\n"
    "template \"optimize\" (--template NAME for another): the\n"
    "requirement, the candidate and what is measured.  Each answer is\n"
    "stored as a candidate of kind optimization whose parent is the one\n"
    "asked about, verified, and its gain over the parent measured from\n"
    "the two runs (before, after, ratio before/after, what was\n"
    "measured) and stored as its extra.optimization.  It counts (export,\n"
    "stats) only when it passes, its parent passes on the same\n"
    "toolchain, and the ratio reaches the threshold: the task's\n"
    "env_params.min_gain, else --min-gain R, else the config file's\n"
    "`generator min-gain R`, else 1.10.  An answer that is the parent's\n"
    "own code is no optimisation.  Generator options as for generate.\n"
    "An nvcc candidate skipped for want of a GPU (compiled, its\n"
    "registers counted, its result unknown) is asked about too: its\n"
    "answers are measured and do not count until both are verified on a\n"
    "GPU.  GPU timings are measured in the candidate's process, so they\n"
    "are no gain.\n"
    "--remeasure asks nothing: it measures the optimisation candidates\n"
    "FILTER matches (all without one) again from their runs and their\n"
    "parents' as they are now (after verify, on another machine, or\n"
    "with another threshold) and stores the new gain.\n"
    "Exit status 1 when a request failed.",
	CMD_CLI, cmd_optimize
};
