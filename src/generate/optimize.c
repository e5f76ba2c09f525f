/*
 * optimize.c - the cost an env measures, and an optimisation's gain over
 * its parent from their runs (optimize.h).
 */
#include "generate/optimize.h"
#include "envs/x86prog.h"

#include <stdlib.h>
#include <string.h>

#include "model/sample.h"
#include "model/vocab.h"

static const struct opt_measure measures[] = {
	{ "x86-asm", { "ir_cand", NULL, NULL },
	  "instructions of one call, counted by callgrind", "faster",
	  "fewer instructions and cycles; callgrind counts them",
	  "cand_ns" },
	{ "yosys", { "area", "cells", NULL },
	  "area from yosys stat (cells when no area)", "smaller",
	  "less area after synthesis: yosys stat counts it", NULL },
	{ "nvcc", { "registers", NULL, NULL },
	  "registers per thread, from ptxas -v", "leaner",
	  "fewer registers per thread, for more occupancy; ptxas counts"
	  " them", NULL },
};

const struct opt_measure *
opt_measure_of(const char *env, char *prefix)
{
	if (prefix != NULL)
		prefix[0] = '\0';
	if (env == NULL)
		return NULL;
	for (size_t i = 0; i < sizeof measures / sizeof measures[0]; i++) {
		size_t n = strlen(measures[i].env);

		if (strcmp(env, measures[i].env) == 0)
			return &measures[i];
		/* a member of a pipeline "a+b" */
		for (const char *p = env; *p != '\0'; ) {
			size_t m = strcspn(p, "+");

			if (m == n && strncmp(p, measures[i].env, n) == 0 &&
			    strchr(env, '+') != NULL) {
				if (prefix != NULL)
					snprintf(prefix, 64, "%s.",
					    measures[i].env);
				return &measures[i];
			}
			p += m + (p[m] == '+');
		}
	}
	return NULL;
}

/* The number under key of a run's metrics (> 0), else 0. */
static double
metric(const char *metrics, const char *key)
{
	json_t *m = metrics != NULL ? json_loads(metrics, 0, NULL) : NULL;
	json_t *v = json_object_get(m, key);
	double d = json_is_number(v) ? json_number_value(v) : 0;

	json_decref(m);
	return d > 0 ? d : 0;
}

/* Does a run's metrics say its count is not believed ("ir_believed":
 * false: x86-asm's count said faster while the clock said slower)? */
static int
unbelieved(const char *metrics)
{
	json_t *m = metrics != NULL ? json_loads(metrics, 0, NULL) : NULL;
	int no = json_is_false(json_object_get(m, "ir_believed"));

	json_decref(m);
	return no;
}

/* The task's env_params.min_gain (> 0), else 0. */
static double
task_min_gain(const struct task *t)
{
	json_t *p = t->env_params != NULL ? json_loads(t->env_params, 0,
	    NULL) : NULL;
	json_t *v = json_object_get(p, "min_gain");
	double d = json_is_number(v) ? json_number_value(v) : 0;

	json_decref(p);
	return d > 0 ? d : 0;
}

int
opt_gain(struct store *st, const char *cand_id, double min_gain,
    const char *from, json_t **out, struct err *err)
{
	struct candidate c;
	struct task t;
	struct run rc, rp;
	const struct opt_measure *m;
	char prefix[64], key[128] = "";
	const char *why = NULL;
	char *notpass = NULL;
	double before = 0, after = 0, tmin;
	int found, have_c = 0, have_p = 0, ret = -1;
	json_t *o;

	*out = NULL;
	found = store_candidate_get(st, cand_id, &c, err);
	if (found != 0)
		return found < 0 ? -1 : err_set(err, "no candidate %s",
		    cand_id);
	if (cand_kind_from_name(c.kind) != KIND_OPTIMIZATION ||
	    c.parent == NULL) {
		err_set(err, "candidate %s is no optimization of another",
		    cand_id);
		candidate_release(&c);
		return -1;
	}
	found = store_task_get(st, c.task_id, &t, err);
	if (found != 0) {
		if (found > 0)
			err_set(err, "candidate %s: no task %s", cand_id,
			    c.task_id);
		candidate_release(&c);
		return -1;
	}
	tmin = task_min_gain(&t);
	if (tmin > 0) {
		min_gain = tmin;
		from = "env_params.min_gain";
	}
	m = opt_measure_of(t.env, prefix);
	if ((found = store_run_latest(st, c.id, &rc, err)) < 0)
		goto out;
	have_c = found == 0;
	if ((found = store_run_latest(st, c.parent, &rp, err)) < 0)
		goto out;
	have_p = found == 0;
	o = json_object();
	json_object_set_new(o, "measured", json_string(m != NULL ? m->what :
	    "nothing"));
	if (m != NULL)
		json_object_set_new(o, "goal", json_string(m->goal));
	if (m == NULL) {
		why = "the task's env measures no cost";
	} else if (strcmp(t.env, "x86-asm") == 0 && x86prog_mode(&t)) {
		why = "speed is not measured in program mode (env_params.mode"
		    " program: each case's stdout alone is checked)";
	} else if (!have_c || !verdict_is(rc.verdict, VERDICT_PASS)) {
		/* skipped/no-gpu: its cost is measured, its correctness not */
		why = !have_c ? "it was not verified" : (notpass = xasprintf(
		    "it does not pass (%s%s%s)", rc.verdict, rc.subcategory !=
		    NULL ? "/" : "", rc.subcategory != NULL ? rc.subcategory :
		    ""));
	} else if (!have_p || !verdict_is(rp.verdict, VERDICT_PASS)) {
		why = "its parent does not pass";
	} else if (rc.toolchain == NULL || rp.toolchain == NULL ||
	    strcmp(rc.toolchain, rp.toolchain) != 0) {
		why = "the two runs are of different toolchains: verify the"
		    " parent again";
	}
	if (m != NULL && have_c && have_p) {
		for (size_t i = 0; i < 3 && m->keys[i] != NULL; i++) {
			snprintf(key, sizeof key, "%s%s", prefix, m->keys[i]);
			before = metric(rp.metrics, key);
			after = metric(rc.metrics, key);
			if (before > 0 && after > 0)
				break;
		}
		if ((before <= 0 || after <= 0) && why == NULL)
			why = "the runs hold no measure (is the measuring"
			    " tool installed?)";
		if (why == NULL && (unbelieved(rc.metrics) ||
		    unbelieved(rp.metrics)))
			why = "a run's instruction count is not believed: the"
			    " clock said slower while the count said faster";
	}
	if (before > 0 && after > 0) {
		json_object_set_new(o, "metric", json_string(key));
		json_object_set_new(o, "before", json_real(before));
		json_object_set_new(o, "after", json_real(after));
		json_object_set_new(o, "ratio", json_real(before / after));
		if (why == NULL && before / after < min_gain)
			why = "the gain is under the threshold";
	}
	if (m != NULL && have_c && have_p && m->also != NULL) {
		char k2[128];
		double b2, a2;

		snprintf(k2, sizeof k2, "%s%s", prefix, m->also);
		b2 = metric(rp.metrics, k2);
		a2 = metric(rc.metrics, k2);
		if (b2 > 0 && a2 > 0)
			json_object_set_new(o, "also", json_pack("{s:s, s:f,"
			    " s:f}", "metric", k2, "before", b2, "after", a2));
	}
	json_object_set_new(o, "threshold", json_real(min_gain));
	json_object_set_new(o, "threshold_from", json_string(from));
	json_object_set_new(o, "counts", json_boolean(why == NULL));
	if (why != NULL)
		json_object_set_new(o, "why", json_string(why));
	free(notpass);
	json_object_set_new(o, "run", have_c ? json_integer(rc.id) :
	    json_null());
	json_object_set_new(o, "parent_run", have_p ? json_integer(rp.id) :
	    json_null());
	json_object_set_new(o, "toolchain", have_c && rc.toolchain != NULL ?
	    json_string(rc.toolchain) : json_null());
	*out = o;
	ret = 0;
out:
	if (have_c)
		run_release(&rc);
	if (have_p)
		run_release(&rp);
	task_release(&t);
	candidate_release(&c);
	return ret;
}

int
opt_record(struct store *st, const char *cand_id, double min_gain,
    const char *from, const char *who, json_t **out, struct err *err)
{
	json_t *g;
	char *text, *detail;
	int rc;

	if (out != NULL)
		*out = NULL;
	if (opt_gain(st, cand_id, min_gain, from, &g, err) < 0)
		return -1;
	text = json_dumps(g, JSON_COMPACT);
	if (json_is_true(json_object_get(g, "counts")))
		detail = xasprintf("%.3fx %s", json_real_value(
		    json_object_get(g, "ratio")), json_string_value(
		    json_object_get(g, "metric")));
	else
		detail = xasprintf("does not count: %s", json_string_value(
		    json_object_get(g, "why")));
	rc = store_candidate_extra_set(st, cand_id, "optimization", text, who,
	    "gain", detail, err);
	if (rc > 0)
		rc = err_set(err, "no candidate %s", cand_id);
	free(text);
	free(detail);
	if (rc == 0 && out != NULL)
		*out = g;
	else
		json_decref(g);
	return rc;
}
