/*
 * pipeline.c - env names with '+', member params, the combined verdict
 * and its read-back; see pipeline.h.  verify.c runs the members; the
 * trace pane and `assay show` read the combined run.
 */
#include "verify/pipeline.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "envs/env.h"
#include "base/buf.h"
#include "model/vocab.h"

int
pipeline_is(const char *env)
{
	return env != NULL && strchr(env, '+') != NULL;
}

int
pipeline_split(const char *env, char names[][PIPELINE_NAME],
    struct err *err)
{
	const char *p = env;
	int n = 0;

	if (env == NULL || *env == '\0')
		return err_set(err, "no env");
	for (;;) {
		size_t l = strcspn(p, "+");

		if (l == 0 || l >= PIPELINE_NAME)
			return err_set(err, "env '%s': a member is empty or too"
			    " long", env);
		if (n == PIPELINE_MAX)
			return err_set(err, "env '%s': more than %d members",
			    env, PIPELINE_MAX);
		memcpy(names[n], p, l);
		names[n][l] = '\0';
		if (env_find(names[n]) == NULL)
			return err_set(err, "unknown env '%s'%s%s%s", names[n],
			    pipeline_is(env) ? " in pipeline '" : "",
			    pipeline_is(env) ? env : "",
			    pipeline_is(env) ? "'" : "");
		for (int i = 0; i < n; i++)
			if (strcmp(names[i], names[n]) == 0)
				return err_set(err, "env '%s': %s runs twice",
				    env, names[n]);
		n++;
		if (p[l] == '\0')
			return n;
		p += l + 1;
	}
}

char *
pipeline_params(const char *params, const char *member,
    char names[][PIPELINE_NAME], size_t n)
{
	json_t *root = params != NULL ? json_loads(params, 0, NULL) : NULL;
	json_t *own, *shared;
	char *r = NULL;

	if (!json_is_object(root)) {
		json_decref(root);
		return NULL;
	}
	own = json_object_get(root, member);
	if (json_is_object(own)) {
		r = json_dumps(own, JSON_COMPACT | JSON_PRESERVE_ORDER);
		json_decref(root);
		return r;
	}
	shared = json_deep_copy(root);
	for (size_t i = 0; i < n; i++)
		json_object_del(shared, names[i]);
	if (json_object_size(shared) > 0)
		r = json_dumps(shared, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(shared);
	json_decref(root);
	return r;
}

/* design.md section 3: the earliest cause wins (vocab.h's rank). */
static int
rank(const char *category)
{
	return category_rank(category_from_name(category));
}

static int
failed(const struct run *r)
{
	return r != NULL && verdict_failed(r->verdict);
}

static void
put(char **field, const char *v)
{
	free(*field);
	*field = v != NULL ? xstrdup(v) : NULL;
}

/* The member's metrics, its verdict and stages under "<env>." in all. */
static void
merge_metrics(json_t *all, const struct pipeline_member *m)
{
	const struct run *r = m->run;
	json_t *own, *v, *stages = json_array();
	const char *k;
	char key[PIPELINE_NAME + 64];

	snprintf(key, sizeof key, "%s.verdict", m->env);
	json_object_set_new(all, key, json_string(r != NULL && r->verdict !=
	    NULL ? r->verdict : "not-run"));
	if (r == NULL) {
		json_decref(stages);
		return;
	}
	if (r->stage != NULL) {
		snprintf(key, sizeof key, "%s.stage", m->env);
		json_object_set_new(all, key, json_string(r->stage));
	}
	if (r->subcategory != NULL) {
		snprintf(key, sizeof key, "%s.subcategory", m->env);
		json_object_set_new(all, key, json_string(r->subcategory));
	}
	for (size_t i = 0; i < m->nstages; i++)
		json_array_append_new(stages, json_string(m->stages[i]));
	snprintf(key, sizeof key, "%s.stages", m->env);
	json_object_set_new(all, key, stages);
	own = r->metrics != NULL ? json_loads(r->metrics, 0, NULL) : NULL;
	json_object_foreach(own, k, v) {
		snprintf(key, sizeof key, "%s.%s", m->env, k);
		json_object_set(all, key, v);
	}
	json_decref(own);
}

void
pipeline_combine(const struct pipeline_member *m, size_t n,
    struct run *out)
{
	const struct pipeline_member *decider = NULL, *cause = NULL;
	json_t *all = json_object();
	char *s;

	for (size_t i = 0; i < n; i++) {
		const struct run *r = m[i].run;

		if (decider == NULL && r != NULL && (r->verdict == NULL ||
		    !verdict_is(r->verdict, VERDICT_PASS)))
			decider = &m[i];
		if (failed(r) && (cause == NULL || rank(r->category) <
		    rank(cause->run->category)))
			cause = &m[i];
		merge_metrics(all, &m[i]);
		for (size_t d = 0; r != NULL && d < r->ndiags; d++) {
			const struct diag *dg = &r->diags[d];
			char *msg = xasprintf("%s: %s", m[i].env, dg->message);

			run_add_diag(out, dg->file, dg->line, dg->col,
			    dg->severity, msg, dg->cand_line);
			free(msg);
		}
	}
	free(out->metrics);
	out->metrics = json_dumps(all, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(all);
	put(&out->category, NULL);
	put(&out->subcategory, NULL);
	put(&out->evidence, NULL);
	out->evidence_line = 0;
	if (decider == NULL) {
		/* Every member passed: the last one's stage ends the run. */
		const struct pipeline_member *last = n > 0 ? &m[n - 1] : NULL;

		put(&out->verdict, last != NULL && last->run != NULL ? "pass" :
		    "env-error");
		s = last != NULL && last->run != NULL && last->run->stage !=
		    NULL ? xasprintf("%s:%s", last->env, last->run->stage) :
		    NULL;
		put(&out->stage, s);
		free(s);
		return;
	}
	put(&out->verdict, decider->run->verdict != NULL ?
	    decider->run->verdict : "fail");
	s = decider->run->stage != NULL ? xasprintf("%s:%s", decider->env,
	    decider->run->stage) : xstrdup(decider->env);
	put(&out->stage, s);
	free(s);
	if (!failed(out)) {
		/* env-error, skipped, task-defect: no candidate failure. */
		put(&out->subcategory, decider->run->subcategory);
		if (decider->run->evidence != NULL) {
			s = xasprintf("%s: %s", decider->env,
			    decider->run->evidence);
			put(&out->evidence, s);
			free(s);
		}
		return;
	}
	if (cause == NULL)
		cause = decider;
	put(&out->category, cause->run->category);
	put(&out->subcategory, cause->run->subcategory);
	out->evidence_line = cause->run->evidence_line;
	if (cause != decider && failed(decider->run))
		s = xasprintf("%s: %s; symptom: %s: %s", cause->env,
		    cause->run->evidence != NULL ? cause->run->evidence : "-",
		    decider->env, decider->run->evidence != NULL ?
		    decider->run->evidence : decider->run->verdict);
	else
		s = cause->run->evidence != NULL ? xasprintf("%s: %s",
		    cause->env, cause->run->evidence) : NULL;
	put(&out->evidence, s);
	free(s);
}

static char *
jdup(json_t *v)
{
	return json_is_string(v) ? xstrdup(json_string_value(v)) : NULL;
}

int
pipeline_steps(const char *env, const char *metrics,
    struct pipeline_step **out, size_t *n)
{
	char names[PIPELINE_MAX][PIPELINE_NAME];
	struct err err;
	json_t *root;
	int k;

	*out = NULL;
	*n = 0;
	if (!pipeline_is(env) || metrics == NULL)
		return -1;
	k = pipeline_split(env, names, &err);
	root = json_loads(metrics, 0, NULL);
	if (k < 2 || !json_is_object(root)) {
		json_decref(root);
		return -1;
	}
	*out = xcalloc((size_t)k, sizeof **out);
	for (int i = 0; i < k; i++) {
		struct pipeline_step *s = &(*out)[(*n)++];
		size_t plen = strlen(names[i]);
		struct buf b = BUF_INIT;
		const char *key;
		json_t *v;

		s->env = xstrdup(names[i]);
		json_object_foreach(root, key, v) {
			const char *f = key + plen + 1;

			if (strncmp(key, names[i], plen) != 0 ||
			    key[plen] != '.')
				continue;
			if (strcmp(f, "verdict") == 0)
				s->verdict = jdup(v);
			else if (strcmp(f, "stage") == 0)
				s->stage = jdup(v);
			else if (strcmp(f, "subcategory") == 0)
				s->subcategory = jdup(v);
			else if (strcmp(f, "stages") == 0 && json_is_array(v)) {
				size_t j;
				json_t *x;

				s->stages = xcalloc(json_array_size(v) + 1,
				    sizeof *s->stages);
				json_array_foreach(v, j, x)
					if (json_is_string(x))
						s->stages[s->nstages++] =
						    jdup(x);
			} else {
				char *val = json_dumps(v, JSON_ENCODE_ANY |
				    JSON_COMPACT);

				buf_printf(&b, "%s%s=%s", b.len > 0 ? " " : "",
				    f, val);
				free(val);
			}
		}
		s->metrics = buf_detach(&b, NULL);
		if (s->verdict == NULL) {
			json_decref(root);
			pipeline_steps_free(*out, *n);
			*out = NULL;
			*n = 0;
			return -1;
		}
	}
	json_decref(root);
	return 0;
}

void
pipeline_steps_free(struct pipeline_step *s, size_t n)
{
	for (size_t i = 0; s != NULL && i < n; i++) {
		free(s[i].env);
		free(s[i].verdict);
		free(s[i].stage);
		free(s[i].subcategory);
		for (size_t j = 0; j < s[i].nstages; j++)
			free(s[i].stages[j]);
		free(s[i].stages);
		free(s[i].metrics);
	}
	free(s);
}

int
pipeline_step_failed(const struct pipeline_step *s, size_t k)
{
	if (verdict_is(s->verdict, VERDICT_PASS) || k >= s->nstages)
		return 0;
	/* yosys judges at synth when area and area-stat ran after it. */
	for (size_t i = 0; s->stage != NULL && i < s->nstages; i++)
		if (strcmp(s->stages[i], s->stage) == 0)
			return i == k;
	return k + 1 == s->nstages;
}
