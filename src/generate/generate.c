/*
 * generate.c - the model in the loop (generate.h): prompts from the
 * export's words, answers through the generator, candidates into the
 * store with what produced them.
 */
#include "generate/generate.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/buf.h"
#include "exchange/export.h"
#include "base/hash.h"
#include "decide/decide.h"
#include "exchange/import.h"
#include "generate/optimize.h"
#include "generate/template.h"
#include "model/codec.h"
#include "model/vocab.h"

/* Chains longer than this are cut (a loop in parents, or a runaway). */
#define GEN_CHAIN_MAX 64

void
gen_report_release(struct gen_report *r)
{
	if (r == NULL)
		return;
	for (size_t i = 0; i < r->nids; i++) {
		free(r->ids[i]);
		if (r->asked_for != NULL)
			free(r->asked_for[i]);
	}
	free(r->ids);
	free(r->asked_for);
	free(r->is_new);
	for (size_t i = 0; r->errors != NULL && i < r->failed; i++)
		free(r->errors[i]);
	free(r->errors);
	memset(r, 0, sizeof *r);
}

static void
add_msg(json_t *msgs, const char *role, const char *text, size_t len)
{
	json_array_append_new(msgs, json_pack("{s:s, s:o}", "role", role,
	    "content", codec_text(text, len)));
}

/* One job of a batch: where its answers go. */
struct job {
	char	*task_id, *lang, *parent;	/* parent NULL: direct */
	const char *kind;	/* "direct", "repair", "optimization" */
	int	 round;
	int	 want;		/* answers to ask for, >= 1 */
	json_t	*messages;
	json_t	*how;		/* what goes into extra.generation besides
				 * the request: strategy, template, the
				 * migration's source; or NULL */
	char	 parent_hash[65];	/* optimization: the parent's code */
};

/* The endpoint as stored: scheme://host[:port]/path, no user, no query. */
static char *
endpoint_public(const char *url)
{
	const char *s = strstr(url, "://"), *host, *at, *end;

	if (s == NULL)
		return xstrdup("?");
	host = s + 3;
	end = host + strcspn(host, "?#");
	at = memchr(host, '@', (size_t)(end - host));
	if (at != NULL && at < host + strcspn(host, "/"))
		host = at + 1;
	return xasprintf("%.*s%.*s", (int)(s + 3 - url), url,
	    (int)(end - host), host);
}

/* extra.generation of answer k of reply r; with_usage: the response's
 * usage and cost go on this record.  New reference. */
static json_t *
generation_json(const struct gen_ctx *g, const struct job *j,
    const struct model_reply *r, size_t k, int with_usage)
{
	json_t *messages = j->messages;
	int round = j->round;
	const struct model_answer *a = &r->answers[k];
	json_t *gen = json_object(), *params = json_object(), *usage;
	char name[128], *ep = NULL;

	json_object_set_new(gen, "model", json_string(model_name(g->cfg,
	    name, sizeof name)));
	if (g->cfg->endpoint != NULL) {
		ep = endpoint_public(g->cfg->endpoint);
		json_object_set_new(gen, "generator", json_string(ep));
		free(ep);
	} else {
		json_object_set_new(gen, "generator", json_string("command"));
	}
	if (g->cfg->temperature >= 0)
		json_object_set_new(params, "temperature",
		    json_real(g->cfg->temperature));
	if (g->cfg->max_tokens > 0)
		json_object_set_new(params, g->cfg->completion_tokens_param ?
		    "max_completion_tokens" : "max_tokens",
		    json_integer(g->cfg->max_tokens));
	if (r->n_asked > 1)
		json_object_set_new(params, "n", json_integer(r->n_asked));
	json_object_set_new(gen, "params", params);
	json_object_set(gen, "request", messages);
	json_object_set_new(gen, "answer", codec_text(a->text,
	    strlen(a->text)));
	if (a->refusal != NULL)
		json_object_set_new(gen, "refusal", codec_text(a->refusal,
		    strlen(a->refusal)));
	json_object_set_new(gen, "finish_reason", a->finish != NULL ?
	    json_string(a->finish) : json_null());
	json_object_set_new(gen, "served_model", r->served != NULL ?
	    codec_str(r->served) : json_null());
	json_object_set_new(gen, "response_id", r->id != NULL ?
	    codec_str(r->id) : json_null());
	json_object_set_new(gen, "choice", json_integer((json_int_t)k));
	usage = json_object();
	if (with_usage) {
		static const char *const names[] = { "prompt_tokens",
		    "completion_tokens", "cached_tokens", "reasoning_tokens" };
		const int64_t v[] = { r->prompt_tokens, r->completion_tokens,
		    r->cached_tokens, r->reasoning_tokens };

		for (size_t i = 0; i < 4; i++)
			if (v[i] >= 0)
				json_object_set_new(usage, names[i],
				    json_integer(v[i]));
		if (r->cost_usd >= 0)
			json_object_set_new(gen, "cost_usd",
			    json_real(r->cost_usd));
	}
	json_object_set_new(gen, "usage", usage);
	json_object_set_new(gen, "latency_ms", json_integer(r->latency_ms));
	json_object_set_new(gen, "attempts", json_integer(r->attempts));
	json_object_set_new(gen, "round", json_integer(round));
	/* What the repair request carried (docs/formats.md "Feedback"). */
	if (round > 0)
		json_object_set_new(gen, "feedback", json_string(
		    g->cfg->feedback_minimal ? "minimal" : "rich"));
	json_object_set_new(gen, "at", json_integer((json_int_t)time(NULL)));
	if (j->how != NULL)
		json_object_update(gen, j->how);
	return gen;
}

static void
report_id(struct gen_report *rep, const char *id, int added,
    const char *asked_for)
{
	rep->ids = xreallocarray(rep->ids, rep->nids + 1, sizeof *rep->ids);
	rep->is_new = xreallocarray(rep->is_new, rep->nids + 1,
	    sizeof *rep->is_new);
	rep->asked_for = xreallocarray(rep->asked_for, rep->nids + 1,
	    sizeof *rep->asked_for);
	rep->is_new[rep->nids] = added;
	rep->asked_for[rep->nids] = xstrdup(asked_for);
	rep->ids[rep->nids++] = xstrdup(id);
}


/*
 * A batch: the requests, built from the store; the responses, asked
 * without it (gen_batch_ask(), on any thread); stored from them.
 */
struct gen_batch {
	struct job		*jobs;
	size_t			 n;
	struct model_replies	*out;
	int			*rc;
	struct err		*errs;
};

static void
job_release(struct job *j)
{
	free(j->task_id);
	free(j->lang);
	free(j->parent);
	json_decref(j->messages);
	json_decref(j->how);
}

/*
 * Record an answer of job j (answer k of reply r) as an attempt of the
 * candidate cand_id, or one that made none (cand_id NULL, why in error);
 * r NULL: a request that got no answer.  A response's usage and latency
 * go on the attempt of its first answer (k == 0), so that the
 * statistics count each request once.  0 or -1 (store).
 */
static int
attempt_add(struct gen_ctx *g, const struct job *j, const char *cand_id,
    const struct model_reply *r, size_t k, const char *error,
    struct err *err)
{
	struct store_attempt a = { 0 };
	char name[128];
	int first = r != NULL && k == 0;

	/* attempt.kind is direct or repair (schema 13): an optimisation
	 * is counted from its candidate's generation record instead
	 * (store_attempt_each()), a request that made none not at all */
	if (strcmp(j->kind, "optimization") == 0)
		return 0;

	a.task_id = j->task_id;
	a.cand_id = cand_id;
	a.parent = j->parent;
	a.model = model_name(g->cfg, name, sizeof name);
	a.kind = j->kind;
	a.round = j->round;
	a.prompt_tokens = first ? r->prompt_tokens : -1;
	a.completion_tokens = first ? r->completion_tokens : -1;
	a.latency_ms = first ? r->latency_ms : 0;
	a.error = cand_id == NULL ? error : NULL;
	return store_attempt_add(g->st, &a, err);
}

/* One answer that made no candidate: counted, with why. */
static void
report_failed(struct gen_report *rep, const struct job *j, const char *why)
{
	if (rep->failed == 0)
		snprintf(rep->first_error, sizeof rep->first_error, "%s", why);
	rep->errors = xreallocarray(rep->errors, rep->failed + 1,
	    sizeof *rep->errors);
	rep->errors[rep->failed++] = j->parent != NULL ? xasprintf("%s (%s"
	    " of %s): %s", j->task_id, j->kind, j->parent, why) :
	    xasprintf("%s: %s", j->task_id, why);
}

/* A response's figures into the report, once per response. */
static void
report_reply(struct gen_report *rep, const struct model_reply *r)
{
	rep->requests++;
	rep->responses++;
	if (r->attempts > 1)	/* HTTP 429, 5xx or the transport */
		rep->retried++;
	if (r->prompt_tokens > 0)
		rep->prompt_tokens += r->prompt_tokens;
	if (r->completion_tokens > 0)
		rep->completion_tokens += r->completion_tokens;
	if (r->cached_tokens > 0)
		rep->cached_tokens += r->cached_tokens;
	if (r->reasoning_tokens > 0)
		rep->reasoning_tokens += r->reasoning_tokens;
	if (r->cost_usd >= 0) {
		rep->cost_usd += r->cost_usd;
		rep->priced++;
	}
	rep->latency_ms += r->latency_ms;
}

/*
 * A model's answer c to a repair request, stored by the decision layer's
 * one rule for a repair (decide_repair_make()): the model's name
 * (c->origin) its origin, the person running the loop (g->by) the
 * journal's who; refusal: the model refused (no code, stored all the
 * same).  Sets c->id and *inserted; 0, 1 (the parent's own code: nothing
 * stored), 2 (no code: nothing stored) or -1.
 */
static int
store_repair(struct gen_ctx *g, struct candidate *c, int refusal,
    int *inserted, struct err *err)
{
	struct decide_repair_in in = { c->parent, c->code, c->code_len,
	    c->origin, c->source, c->extra, refusal };
	struct decide_repair r;
	int rc = decide_repair_make(g->st, &in, g->by, &r, err);

	if (rc == 0) {
		free(c->id);
		c->id = xstrdup(r.id);
		*inserted = r.inserted;
		decide_repair_release(&r);
	}
	return rc;
}

/*
 * Store answer k of reply r of job j as a candidate.  *usage_left: the
 * response's usage is still to be recorded (it goes on the first new
 * candidate).  0, or -1 when the store fails (err).
 */
static int
store_answer(struct gen_ctx *g, const struct job *j,
    const struct model_reply *r, size_t k, int *usage_left,
    struct gen_report *rep, struct err *err)
{
	const struct model_answer *a = &r->answers[k];
	struct candidate c = { 0 };
	struct err serr;
	char name[128];
	const char *origin = model_name(g->cfg, name, sizeof name);
	json_t *extra;
	int inserted = 0, stored, ret = 0;
	int repair = strcmp(j->kind, "repair") == 0;

	if (r->redacted > 0) {
		/* An endpoint that echoed its request: the answer is not
		 * code of the model's, and it held the key. */
		char *why = xasprintf("the answer holds the API key of %s (%zu"
		    " time%s, redacted); not stored: does the endpoint echo"
		    " its request?", g->cfg->key_env != NULL ?
		    g->cfg->key_env : "the generator", r->redacted,
		    r->redacted == 1 ? "" : "s");

		report_failed(rep, j, why);
		ret = attempt_add(g, j, NULL, r, k, why, err);
		free(why);
		return ret;
	}
	if (a->refusal == NULL && decide_code_blank(a->text,
	    strlen(a->text))) {
		/* No code and no refusal: a reasoning model that spent its
		 * budget thinking, or a server that answered nothing. */
		char spent[64] = "";
		char *why;

		if (r->reasoning_tokens > 0)
			snprintf(spent, sizeof spent, ", %lld reasoning tokens",
			    (long long)r->reasoning_tokens);
		why = xasprintf("empty answer (finish_reason %s%s): no"
		    " candidate%s", a->finish != NULL ? a->finish : "none",
		    spent, a->finish != NULL && strcmp(a->finish, "length") ==
		    0 ? "; raise max-tokens" : "");
		report_failed(rep, j, why);
		ret = attempt_add(g, j, NULL, r, k, why, err);
		free(why);
		return ret;
	}
	extra = json_pack("{s:o}", "generation", generation_json(g, j, r, k,
	    *usage_left));
	c.task_id = xstrdup(j->task_id);
	c.origin = xstrdup(origin);
	c.kind = xstrdup(j->kind);
	c.lang = xstrdup(j->lang);
	c.parent = xstrdup(j->parent);
	c.source = repair ? xasprintf("repair of %s by %s, round %d",
	    j->parent, origin, j->round) : j->parent != NULL ?
	    xasprintf("optimization of %s by %s", j->parent, origin) :
	    xasprintf("generated by %s", origin);
	/* A refusal is no code: the candidate is empty, and verifying
	 * it is a format failure (the refusal is in the record). */
	c.code = xstrdup(a->refusal != NULL ? "" : a->text);
	c.code_len = strlen(c.code);
	c.extra = json_dumps(extra, JSON_COMPACT);
	json_decref(extra);
	hash_sha256(c.code, c.code_len, c.code_hash);
	if (!repair && j->parent != NULL && strcmp(c.code_hash,
	    j->parent_hash) == 0)
		stored = 1;	/* the optimised code handed back */
	else
		stored = repair ? store_repair(g, &c, a->refusal != NULL,
		    &inserted, &serr) :
		    store_candidate_add(g->st, &c, &inserted, &serr);
	if (stored == 1) {
		/* The failed code handed back: no repair, and the chain
		 * ends here; the sample is the parent's code. */
		rep->duplicates++;
		ret = attempt_add(g, j, j->parent, r, k, NULL, err);
	} else if (stored == 2) {
		/* no code (the rule is the decision layer's) */
		report_failed(rep, j, serr.msg);
		ret = attempt_add(g, j, NULL, r, k, serr.msg, err);
	} else if (stored < 0) {
		*err = serr;
		ret = -1;
	} else {
		char *detail = xasprintf("%s by %s", c.kind, origin);

		/* every sample, also one whose code was stored */
		if (attempt_add(g, j, c.id, r, k, NULL, err) < 0)
			ret = -1;
		report_id(rep, c.id, inserted, j->parent);
		if (inserted) {
			rep->added++;
			*usage_left = 0;
		} else {
			rep->duplicates++;
		}
		rep->refusals += a->refusal != NULL;
		/* a repair is journalled by decide_repair_make() */
		if (inserted && !repair && store_event_add(g->st, g->by,
		    j->parent != NULL ? "optimize" : "generate", c.id,
		    detail, err) < 0)
			ret = -1;
		free(detail);
	}
	candidate_release(&c);
	return ret;
}

void
gen_batch_free(struct gen_batch *b)
{
	if (b == NULL)
		return;
	for (size_t i = 0; i < b->n; i++) {
		job_release(&b->jobs[i]);
		model_replies_release(&b->out[i]);
	}
	free(b->jobs);
	free(b->out);
	free(b->rc);
	free(b->errs);
	free(b);
}

/* A batch with room for n jobs. */
static struct gen_batch *
batch_new(size_t n)
{
	struct gen_batch *b = xcalloc(1, sizeof *b);

	b->jobs = xcalloc(n + 1, sizeof *b->jobs);
	b->out = xcalloc(n + 1, sizeof *b->out);
	b->rc = xcalloc(n + 1, sizeof *b->rc);
	b->errs = xcalloc(n + 1, sizeof *b->errs);
	return b;
}

/* Hand a built batch out, or free it when building failed (rc < 0). */
static int
batch_done(struct gen_batch *b, int rc, struct gen_batch **out)
{
	if (rc < 0) {
		gen_batch_free(b);
		*out = NULL;
		return -1;
	}
	*out = b;
	return 0;
}

size_t
gen_batch_size(const struct gen_batch *b)
{
	return b->n;
}

void
gen_batch_request(const struct gen_batch *b, size_t i, const char **parent,
    int *round, const char **feedback)
{
	json_t *m = b->jobs[i].messages;

	*parent = b->jobs[i].parent;
	*round = b->jobs[i].round;
	*feedback = json_string_value(json_object_get(json_array_get(m,
	    json_array_size(m) - 1), "content"));
}

size_t
gen_batch_ask(const struct model_cfg *cfg, int jobs, struct gen_batch *b,
    void (*progress)(size_t done, size_t n, void *arg), void *arg)
{
	json_t **msgs = xcalloc(b->n + 1, sizeof *msgs);
	int *want = xcalloc(b->n + 1, sizeof *want);
	size_t failed;

	for (size_t i = 0; i < b->n; i++) {
		msgs[i] = b->jobs[i].messages;
		want[i] = b->jobs[i].want;
	}
	failed = model_chat_many(cfg, msgs, want, b->n, jobs, b->out, b->rc,
	    b->errs, progress, arg);
	free(msgs);
	free(want);
	return failed;
}

int
gen_batch_store(struct gen_ctx *g, struct gen_batch *b,
    struct gen_report *rep, struct err *err)
{
	int ret = 0;

	for (size_t i = 0; i < b->n; i++)
		rep->asked += (size_t)b->jobs[i].want;
	for (size_t i = 0; i < b->n && ret == 0; i++) {
		struct job *j = &b->jobs[i];

		for (size_t v = 0; v < b->out[i].nv && ret == 0; v++) {
			const struct model_reply *r = &b->out[i].v[v];
			int usage_left = 1;

			report_reply(rep, r);
			for (size_t k = 0; k < r->nanswers && ret == 0; k++)
				ret = store_answer(g, j, r, k, &usage_left,
				    rep, err);
		}
		if (b->rc[i] == 0)
			continue;
		if (b->out[i].failed_tries == 0 && b->out[i].stopped) {
			/* cancelled before its request was sent: nothing
			 * was asked, nothing failed */
			rep->cancelled += (size_t)j->want - b->out[i].answers;
			continue;
		}
		/* The answers a failed request left unasked; the request
		 * was sent (a request that got a 400 is a request), and
		 * is an attempt that got none. */
		rep->requests += b->out[i].failed_tries > 0;
		for (size_t k = b->out[i].answers; k < (size_t)j->want; k++)
			report_failed(rep, j, b->errs[i].msg);
		if (ret == 0 && attempt_add(g, j, NULL, NULL, 0,
		    b->errs[i].msg, err) < 0)
			ret = -1;
	}
	return ret;
}

/* The language of a task's candidates: its reference's, else its env's. */
static char *
task_lang(struct store *st, const struct task *t, struct err *err)
{
	char *ref = NULL, *verdict = NULL, *lang = NULL;
	struct candidate c;

	if (store_task_reference(st, t->id, &ref, &verdict, err) < 0)
		return NULL;
	if (ref != NULL && store_candidate_get(st, ref, &c, err) == 0) {
		lang = xstrdup(c.lang);
		candidate_release(&c);
	}
	free(ref);
	free(verdict);
	return lang != NULL ? lang : xstrdup(import_lang_of_env(t->env));
}

const char *
gen_strategy_name(enum gen_strategy_kind k)
{
	return k == GEN_PERTURB ? "perturb" : k == GEN_MIGRATE ? "migrate" :
	    "direct";
}

int
gen_strategy_parse(const char *name, enum gen_strategy_kind *out,
    struct err *err)
{
	for (int k = GEN_DIRECT; k <= GEN_MIGRATE; k++)
		if (strcmp(name, gen_strategy_name(k)) == 0) {
			*out = k;
			return 0;
		}
	return err_set(err, "unknown strategy '%s' (known: direct perturb"
	    " migrate)", name);
}

/* The migration pairs of the seed: the language each is written in
 * again when the task's own is the same. */
static const char *const migrate_pairs[][2] = {
	{ "verilog", "systemverilog" },
	{ "cuda", "python" },		/* Triton */
	{ "c", "asm" },
};

const char *
gen_migrate_target(const char *from, const char *task_lang, const char *to)
{
	const char *t = to != NULL ? to : task_lang;

	if (to == NULL && t != NULL && strcmp(t, from) == 0)
		for (size_t i = 0; i < sizeof migrate_pairs /
		    sizeof migrate_pairs[0]; i++)
			if (strcmp(migrate_pairs[i][0], from) == 0)
				t = migrate_pairs[i][1];
	return t == NULL || strcmp(t, from) == 0 ? NULL : t;
}

/* The languages a migration starts from, with their files' suffixes. */
static const char *const lang_suffix[][2] = {
	{ "c", ".c" }, { "cuda", ".cu" }, { "verilog", ".v" },
	{ "verilog", ".sv" }, { "systemverilog", ".sv" },
	{ "python", ".py" }, { "asm", ".s" },
};

int
gen_migrate_lang_known(const char *lang)
{
	for (size_t i = 0; i < sizeof lang_suffix / sizeof lang_suffix[0];
	    i++)
		if (strcmp(lang_suffix[i][0], lang) == 0)
			return 1;
	return 0;
}

/* Is a file named name written in lang (by its suffix)? */
static int
file_in_lang(const char *name, const char *lang)
{
	size_t n = strlen(name);

	for (size_t i = 0; i < sizeof lang_suffix / sizeof lang_suffix[0];
	    i++) {
		size_t m = strlen(lang_suffix[i][1]);

		if (strcmp(lang_suffix[i][0], lang) == 0 && n > m &&
		    strcmp(name + n - m, lang_suffix[i][1]) == 0)
			return 1;
	}
	return 0;
}

static int
first_id(const struct store_row *row, void *arg)
{
	*(char **)arg = xstrdup(row->id);
	return 1;
}

int
gen_migrate_source(struct store *st, const char *task_id, const char *from,
    char **code, json_t **what, struct err *err)
{
	char *filter, *id = NULL;
	struct task t;
	int rc, found;

	*code = NULL;
	*what = NULL;
	filter = xasprintf("task=%s lang=%s verdict=pass", task_id, from);
	rc = store_query_each(st, filter, first_id, &id, err);
	free(filter);
	if (rc < 0)
		return -1;
	if (id != NULL) {
		struct candidate c;

		found = store_candidate_get(st, id, &c, err);
		if (found == 0) {
			*code = xstrndup(c.code, c.code_len);
			*what = json_pack("{s:s, s:s}", "lang", from,
			    "candidate", c.id);
			candidate_release(&c);
		}
		free(id);
		return found < 0 ? -1 : found;
	}
	found = store_task_get(st, task_id, &t, err);
	if (found != 0)
		return found;
	rc = 1;
	for (size_t i = 0; i < t.nfiles && rc == 1; i++) {
		const struct task_file *f = &t.files[i];

		/* task new keeps the source-language file as "source",
		 * importers as "reference": either is the code to migrate. */
		if (f->role != NULL && (strcmp(f->role, "reference") == 0 ||
		    strcmp(f->role, "source") == 0) &&
		    file_in_lang(f->name, from)) {
			*code = xstrndup(f->data, f->len);
			*what = json_pack("{s:s, s:s}", "lang", from, "file",
			    f->name);
			rc = 0;
		}
	}
	task_release(&t);
	return rc;
}

/* The variables a template of task t sees. */
struct tvars {
	struct tmpl_var	 v[12];
	size_t		 n;
};

static void
tvar(struct tvars *tv, const char *name, const char *value)
{
	tv->v[tv->n++] = (struct tmpl_var){ name, value };
}

static void
tvars_task(struct tvars *tv, const struct task *t, const char *lang,
    const char *sys, const char *req)
{
	tv->n = 0;
	tvar(tv, "system", sys);
	tvar(tv, "requirement", req);
	tvar(tv, "spec", t->spec);
	tvar(tv, "interface", t->interface);
	tvar(tv, "lang", lang);
	tvar(tv, "domain", t->domain);
	tvar(tv, "task", t->id);
	tvar(tv, "env", t->env);
}

/* A job's messages and its extra.generation additions from a rendering;
 * consumes nothing.  strategy: the name recorded. */
static void
job_prompt(struct job *j, const struct tmpl_out *o, const char *strategy,
    int perturb, uint64_t seed)
{
	json_t *tm = json_pack("{s:s, s:s, s:s}", "name", o->name, "sha256",
	    o->sha, "where", o->where);

	if (perturb) {
		json_object_set_new(tm, "seed", json_integer((json_int_t)seed));
		json_object_set(tm, "choices", o->choices);
	}
	j->messages = json_array();
	if (o->system[0] != '\0')
		add_msg(j->messages, "system", o->system, strlen(o->system));
	add_msg(j->messages, "user", o->user, strlen(o->user));
	j->how = json_pack("{s:s, s:o}", "strategy", strategy, "template",
	    tm);
}

int
gen_batch_direct(struct gen_ctx *g, char *const *task_ids, size_t n,
    int samples, struct gen_batch **out, struct err *err)
{
	static const struct gen_strategy direct = { GEN_DIRECT, NULL, 0,
	    NULL, NULL };
	const struct gen_strategy *how = g->strategy != NULL ? g->strategy :
	    &direct;
	const char *tname = how->template != NULL ? how->template :
	    gen_strategy_name(how->kind);
	int perturb = how->kind == GEN_PERTURB;
	/* A perturbed sample is a prompt of its own: a request each. */
	int one = g->cfg->use_n && !perturb;
	struct gen_batch *b = batch_new(n * (size_t)samples);
	int rc = 0;

	for (size_t i = 0; i < n && rc == 0; i++) {
		struct task t;
		struct tvars tv;
		char *sys, *req, *lang, *src = NULL;
		const char *ask_lang;
		json_t *from = NULL;
		int found = store_task_get(g->st, task_ids[i], &t, err);

		if (found != 0) {
			rc = found < 0 ? -1 : err_set(err, "no task %s",
			    task_ids[i]);
			break;
		}
		lang = task_lang(g->st, &t, err);
		if (lang == NULL) {
			task_release(&t);
			rc = -1;
			break;
		}
		ask_lang = lang;
		if (how->kind == GEN_MIGRATE) {
			ask_lang = gen_migrate_target(how->from, lang, how->to);
			found = ask_lang == NULL ? (err_set(err, "task %s: its"
			    " language is %s, the same as --from; give --to",
			    t.id, lang), -1) : gen_migrate_source(g->st, t.id,
			    how->from, &src, &from, err);
			if (found > 0)
				err_set(err, "task %s: no %s candidate that"
				    " passes, and no %s reference file, to"
				    " migrate from", t.id, how->from,
				    how->from);
			if (found != 0) {
				free(lang);
				task_release(&t);
				rc = -1;
				break;
			}
		}
		sys = export_system_prompt(&t, ask_lang);
		req = export_requirement(&t);
		tvars_task(&tv, &t, ask_lang, sys, req);
		tvar(&tv, "source_lang", how->from);
		tvar(&tv, "source_code", src);
		/* One request asks every sample with "n" (the generator
		 * asks again for what a server's reply lacks), else one
		 * request a sample. */
		for (int k = 0; k < (one ? 1 : samples) && rc == 0; k++) {
			struct job *j = &b->jobs[b->n++];
			struct tmpl_out o;
			char *salt = xasprintf("%s#%d", t.id, k);

			j->task_id = xstrdup(t.id);
			j->lang = xstrdup(ask_lang);
			j->kind = "direct";
			j->round = 0;
			j->want = one ? samples : 1;
			rc = tmpl_render(t.domain, tname, tv.v, tv.n, perturb,
			    how->seed, salt, &o, err);
			free(salt);
			if (rc == 0) {
				job_prompt(j, &o, gen_strategy_name(how->kind),
				    perturb, how->seed);
				if (from != NULL)
					json_object_set(j->how, "migrated_from",
					    from);
			}
			tmpl_out_release(&o);
		}
		json_decref(from);
		free(src);
		free(sys);
		free(req);
		free(lang);
		task_release(&t);
	}
	return batch_done(b, rc, out);
}

int
gen_batch_optimize(struct gen_ctx *g, char *const *cand_ids, size_t n,
    struct gen_batch **out, struct err *err)
{
	const char *tname = g->strategy != NULL &&
	    g->strategy->template != NULL ? g->strategy->template :
	    "optimize";
	struct gen_batch *b = batch_new(n);
	int rc = 0;

	for (size_t i = 0; i < n && rc == 0; i++) {
		struct candidate c;
		struct task t;
		struct tvars tv;
		struct tmpl_out o;
		const struct opt_measure *m;
		struct job *j;
		char *sys, *req, *src;
		int found = store_candidate_get(g->st, cand_ids[i], &c, err);

		if (found != 0) {
			rc = found < 0 ? -1 : err_set(err, "no candidate %s",
			    cand_ids[i]);
			break;
		}
		found = store_task_get(g->st, c.task_id, &t, err);
		if (found != 0) {
			rc = found < 0 ? -1 : err_set(err, "candidate %s: no"
			    " task %s", c.id, c.task_id);
			candidate_release(&c);
			break;
		}
		m = opt_measure_of(t.env, NULL);
		sys = export_system_prompt(&t, c.lang);
		req = export_requirement(&t);
		src = xstrndup(c.code, c.code_len);
		tvars_task(&tv, &t, c.lang, sys, req);
		tvar(&tv, "source_code", src);
		tvar(&tv, "goal", m != NULL ? m->goal : "faster");
		tvar(&tv, "measure", m != NULL ? m->ask : "it is measured"
		    " against this one");
		j = &b->jobs[b->n++];
		j->task_id = xstrdup(t.id);
		j->lang = xstrdup(c.lang);
		j->parent = xstrdup(c.id);
		j->kind = "optimization";
		j->round = 0;
		j->want = 1;
		memcpy(j->parent_hash, c.code_hash, sizeof j->parent_hash);
		rc = tmpl_render(t.domain, tname, tv.v, tv.n, 0, 0, "", &o,
		    err);
		if (rc == 0)
			job_prompt(j, &o, "optimize", 0, 0);
		tmpl_out_release(&o);
		free(src);
		free(sys);
		free(req);
		task_release(&t);
		candidate_release(&c);
	}
	return batch_done(b, rc, out);
}

json_t *
gen_repair_messages(struct store *st, const char *cand_id, int minimal,
    int *round, struct err *err)
{
	struct candidate chain[GEN_CHAIN_MAX];
	size_t n = 0;
	struct task t;
	json_t *msgs = NULL;
	char *sys = NULL, *req = NULL;
	int found;

	/* From the failed candidate up through repair parents. */
	for (const char *id = cand_id; id != NULL && n < GEN_CHAIN_MAX; ) {
		found = store_candidate_get(st, id, &chain[n], err);
		if (found != 0) {
			if (found > 0)
				err_set(err, "no candidate %s", id);
			goto out;
		}
		n++;
		if (cand_kind_from_name(chain[n - 1].kind) != KIND_REPAIR)
			break;
		id = chain[n - 1].parent;
	}
	found = store_task_get(st, chain[0].task_id, &t, err);
	if (found != 0) {
		if (found > 0)
			err_set(err, "candidate %s: no task %s", cand_id,
			    chain[0].task_id);
		goto out;
	}
	sys = export_system_prompt(&t, chain[0].lang);
	req = export_requirement(&t);
	task_release(&t);
	msgs = json_array();
	add_msg(msgs, "system", sys, strlen(sys));
	add_msg(msgs, "user", req, strlen(req));
	for (size_t k = n; k-- > 0; ) {
		const char *source;
		char *fb = export_feedback(st, chain[k].id, minimal, &source,
		    err);

		if (fb == NULL) {
			json_decref(msgs);
			msgs = NULL;
			goto out;
		}
		add_msg(msgs, "assistant", chain[k].code, chain[k].code_len);
		add_msg(msgs, "user", fb, strlen(fb));
		free(fb);
	}
	*round = (int)n;
out:
	free(sys);
	free(req);
	for (size_t k = 0; k < n; k++)
		candidate_release(&chain[k]);
	return msgs;
}

int
gen_batch_repair(struct gen_ctx *g, char *const *cand_ids, size_t n,
    struct gen_batch **out, struct err *err)
{
	struct gen_batch *b;
	int rc = 0;

	*out = NULL;
	b = batch_new(n);
	for (size_t i = 0; i < n; i++) {
		struct candidate c;
		struct job *j;
		int round = 0, found;
		json_t *m = gen_repair_messages(g->st, cand_ids[i],
		    g->cfg->feedback_minimal, &round, err);

		if (m == NULL) {
			rc = -1;
			break;
		}
		found = store_candidate_get(g->st, cand_ids[i], &c, err);
		if (found != 0) {
			json_decref(m);
			rc = found < 0 ? -1 : err_set(err, "no candidate %s",
			    cand_ids[i]);
			break;
		}
		j = &b->jobs[b->n++];
		j->task_id = xstrdup(c.task_id);
		j->lang = xstrdup(c.lang);
		j->parent = xstrdup(c.id);
		j->kind = "repair";
		j->round = round;
		j->want = 1;
		j->messages = m;
		candidate_release(&c);
	}
	return batch_done(b, rc, out);
}

/* --- stats ------------------------------------------------------------- */

double
gen_pass_at_k(size_t n, size_t c, size_t k)
{
	double miss = 1.0;

	if (n == 0 || k == 0 || k > n)
		return 0;
	if (n - c < k)
		return 1.0;
	/* C(n-c, k) / C(n, k) = prod_{i=n-c+1}^{n} (1 - k/i) */
	for (size_t i = n - c + 1; i <= n; i++)
		miss *= 1.0 - (double)k / (double)i;
	return 1.0 - miss;
}

/* Per (model, task): direct samples and passes. */
struct gen_task {
	char	*model, *task;
	size_t	 n, c;
};

struct gen_acc {
	struct gen_stat	*v;
	size_t		 n;
	struct gen_task	*t;
	size_t		 nt;
	char		**keep;	/* sorted ids the filter matches, or NULL */
	size_t		 nkeep;
	enum gen_stats_by by;
};

/* The group a sample counts in (gen_stats_by). */
static const char *
group_of(const struct gen_acc *a, const struct store_gen_row *r)
{
	enum cand_kind k;

	if (a->by != GEN_BY_STRATEGY)
		return r->model;
	if (r->id == NULL)
		return "-";
	k = cand_kind_from_name(r->kind);
	if (k == KIND_REPAIR)
		return "repair";
	if (k == KIND_OPTIMIZATION)
		return "optimize";
	return r->strategy != NULL ? r->strategy : "direct";
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int
keep_id(const struct store_row *row, void *arg)
{
	struct gen_acc *a = arg;

	a->keep = xreallocarray(a->keep, a->nkeep + 1, sizeof *a->keep);
	a->keep[a->nkeep++] = xstrdup(row->id);
	return 0;
}

/* The row of model (and feedback level fb when by feedback, else
 * NULL). */
static struct gen_stat *
stat_of(struct gen_acc *a, const char *model, const char *fb)
{
	for (size_t i = 0; i < a->n; i++)
		if (strcmp(a->v[i].model, model) == 0 && (fb == NULL ||
		    strcmp(a->v[i].feedback, fb) == 0))
			return &a->v[i];
	a->v = xreallocarray(a->v, a->n + 1, sizeof *a->v);
	memset(&a->v[a->n], 0, sizeof a->v[a->n]);
	a->v[a->n].model = xstrdup(model);
	a->v[a->n].feedback = xstrdup(fb);
	return &a->v[a->n++];
}

static int
gen_row(const struct store_gen_row *r, void *arg)
{
	struct gen_acc *a = arg;
	struct gen_stat *s;
	int pass = verdict_is(r->verdict, VERDICT_PASS);
	const char *id = r->id, *group = group_of(a, r);

	/* A filter keeps the samples of the candidates it matches; a
	 * failed request has none. */
	if (a->keep != NULL && (id == NULL || bsearch(&id, a->keep,
	    a->nkeep, sizeof *a->keep, cmp_str) == NULL))
		return 0;
	/* The level is the candidate's record's: the attempt table keeps
	 * none (a column needs a migration), so an answer that repeats
	 * code stored without a level (the reference, a direct answer)
	 * counts under "unknown". */
	s = stat_of(a, group, a->by != GEN_BY_FEEDBACK ? NULL :
	    cand_kind_from_name(r->kind) != KIND_REPAIR ? "none" :
	    r->feedback != NULL && (strcmp(r->feedback, "rich") == 0 ||
	    strcmp(r->feedback, "minimal") == 0) ? r->feedback : "unknown");
	s->requests++;
	/* Tokens spent count also where the answer made no candidate (an
	 * empty answer of a reasoning model used its budget). */
	if (r->prompt_tokens > 0)
		s->prompt_tokens += r->prompt_tokens;
	if (r->completion_tokens > 0)
		s->completion_tokens += r->completion_tokens;
	if (r->id == NULL) {
		/* a request that got no answer: sent, but no sample */
		s->failed++;
		return 0;
	}
	s->latency_ms += r->latency_ms;
	if (cand_kind_from_name(r->kind) == KIND_OPTIMIZATION) {
		s->optimized++;
		s->opt_passed += pass;
		return 0;
	}
	if (cand_kind_from_name(r->kind) == KIND_REPAIR) {
		int k = r->round < 1 ? 0 : r->round > GEN_ROUNDS_MAX ?
		    GEN_ROUNDS_MAX - 1 : r->round - 1;

		s->tried[k]++;
		s->fixed[k] += pass;
		return 0;
	}
	s->generated++;
	s->passed += pass;
	for (size_t i = 0; i < a->nt; i++)
		if (strcmp(a->t[i].model, group) == 0 &&
		    strcmp(a->t[i].task, r->task) == 0) {
			a->t[i].n++;
			a->t[i].c += pass;
			return 0;
		}
	a->t = xreallocarray(a->t, a->nt + 1, sizeof *a->t);
	a->t[a->nt++] = (struct gen_task){ xstrdup(group),
	    xstrdup(r->task), 1, (size_t)pass };
	return 0;
}

static int
cmp_stat(const void *a, const void *b)
{
	const struct gen_stat *x = a, *y = b;
	int c = strcmp(x->model, y->model);

	if (c != 0 || x->feedback == NULL || y->feedback == NULL)
		return c;
	return strcmp(x->feedback, y->feedback);
}

int
gen_stats(struct store *st, const char *filter, enum gen_stats_by by,
    struct gen_stat **out, size_t *n, struct err *err)
{
	struct gen_acc a = { 0 };
	int rc = 0;

	a.by = by;
	if (filter != NULL && *filter != '\0') {
		if (store_query_each(st, filter, keep_id, &a, err) < 0)
			rc = -1;
		else if (a.keep == NULL)
			a.keep = xcalloc(1, sizeof *a.keep);	/* none */
		else
			qsort(a.keep, a.nkeep, sizeof *a.keep, cmp_str);
	}
	if (rc == 0 && store_attempt_each(st, gen_row, &a, err) < 0)
		rc = -1;
	for (size_t i = 0; rc == 0 && i < a.n; i++) {
		struct gen_stat *s = &a.v[i];
		size_t kmin = 0;

		/* by feedback, the direct samples are the "none" row's */
		if (s->feedback != NULL && strcmp(s->feedback, "none") != 0)
			continue;
		for (size_t t = 0; t < a.nt; t++)
			if (strcmp(a.t[t].model, s->model) == 0 &&
			    (kmin == 0 || a.t[t].n < kmin))
				kmin = a.t[t].n;
		s->k = kmin > 1 ? (int)kmin : 0;
		for (size_t t = 0; t < a.nt; t++) {
			if (strcmp(a.t[t].model, s->model) != 0)
				continue;
			s->tasks++;
			s->pass1 += gen_pass_at_k(a.t[t].n, a.t[t].c, 1);
			if (s->k > 0)
				s->passk += gen_pass_at_k(a.t[t].n, a.t[t].c,
				    (size_t)s->k);
		}
		if (s->tasks > 0) {
			s->pass1 /= (double)s->tasks;
			s->passk /= (double)s->tasks;
		}
	}
	for (size_t t = 0; t < a.nt; t++) {
		free(a.t[t].model);
		free(a.t[t].task);
	}
	free(a.t);
	for (size_t i = 0; i < a.nkeep; i++)
		free(a.keep[i]);
	free(a.keep);
	if (rc < 0) {
		gen_stats_release(a.v, a.n);
		return -1;
	}
	if (a.n > 0)
		qsort(a.v, a.n, sizeof *a.v, cmp_stat);
	*out = a.v;
	*n = a.n;
	return 0;
}

void
gen_stats_release(struct gen_stat *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].model);
		free(v[i].feedback);
	}
	free(v);
}
