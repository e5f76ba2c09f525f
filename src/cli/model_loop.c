/*
 * model_loop.c - what the commands of the model loop (cmd_generate.c,
 * cmd_repair.c) share: their options (config file first, the command
 * line wins), the id sets, the summary objects, and the plain poll loop
 * that drives the round loop service (generate/loop.h) with hooks that
 * print what the commands print.
 */
#include "cli/model_loop.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "app/config.h"
#include "base/buf.h"
#include "base/err.h"
#include "cli/cli_shared.h"
#include "generate/generate.h"
#include "generate/loop.h"
#include "generate/model.h"
#include "generate/template.h"
#include "store/store.h"
#include "model/vocab.h"

enum {
	O_WHERE = 1000, O_SAMPLES, O_TEMP, O_ENDPOINT, O_MODEL, O_KEYENV,
	O_COMMAND, O_JOBS, O_MAXTOK, O_TIMEOUT, O_RETRIES, O_RATE,
	O_NOVERIFY, O_JSON, O_ROUNDS, O_FILE, O_VERIFY, O_SHOW, O_TOKPARAM,
	O_N, O_STRATEGY, O_TEMPLATE, O_SEED, O_FROM, O_TO, O_MINGAIN,
	O_REMEASURE, O_FEEDBACK
};

/* The options of generate and repair (each refuses the other's own). */
const struct cmd_opt loop_spec[] = {
	{ "where", 0, CMD_VALUE, O_WHERE },
	{ "samples", 0, CMD_VALUE, O_SAMPLES },
	{ "temperature", 0, CMD_VALUE, O_TEMP },
	{ "endpoint", 0, CMD_VALUE, O_ENDPOINT },
	{ "model", 0, CMD_VALUE, O_MODEL },
	{ "api-key-env", 0, CMD_VALUE, O_KEYENV },
	{ "command", 0, CMD_VALUE, O_COMMAND },
	{ "jobs", 0, CMD_VALUE, O_JOBS },
	{ "max-tokens", 0, CMD_VALUE, O_MAXTOK },
	{ "max-tokens-param", 0, CMD_VALUE, O_TOKPARAM },
	{ "n", 0, CMD_VALUE, O_N },
	{ "feedback", 0, CMD_VALUE, O_FEEDBACK },
	{ "timeout", 0, CMD_VALUE, O_TIMEOUT },
	{ "retries", 0, CMD_VALUE, O_RETRIES },
	{ "rate", 0, CMD_VALUE, O_RATE },
	{ "no-verify", 0, CMD_FLAG, O_NOVERIFY },
	{ "json", 0, CMD_FLAG, O_JSON },
	{ "rounds", 0, CMD_VALUE, O_ROUNDS },
	{ "file", 0, CMD_VALUE, O_FILE },
	{ "verify", 0, CMD_FLAG, O_VERIFY },
	{ "show", 0, CMD_FLAG, O_SHOW },
	{ "strategy", 0, CMD_VALUE, O_STRATEGY },
	{ "template", 0, CMD_VALUE, O_TEMPLATE },
	{ "seed", 0, CMD_VALUE, O_SEED },
	{ "from", 0, CMD_VALUE, O_FROM },
	{ "to", 0, CMD_VALUE, O_TO },
	{ "min-gain", 0, CMD_VALUE, O_MINGAIN },
	{ "remeasure", 0, CMD_FLAG, O_REMEASURE },
	{ NULL, 0, CMD_FLAG, 0 }
};

static int
whole(const char *cmd, const char *opt, const char *v, long lo, long hi,
    long *out)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(v, &end, 10);
	if (*v == '\0' || *end != '\0' || errno != 0 || n < lo || n > hi) {
		char m[96];

		snprintf(m, sizeof m, "%s wants a whole number %ld..%ld, not"
		    " '%%s'", opt, lo, hi);
		return cli_usage_error(cmd, m, v);
	}
	*out = n;
	return 0;
}

/* Parse a into o (config file first).  0, or the exit status. */
int
loop_parse(const char *cmd, struct cmd_args *a, struct loop_opts *o)
{
	char *path = config_path("config");
	struct err err;
	char line[4096];
	long n;
	const char *val;
	int ch, rc;

	memset(o, 0, sizeof *o);
	model_cfg_init(&o->cfg);
	buf_init(&o->where);
	o->samples = 1;
	o->jobs = 4;
	o->rounds = 1;
	o->verify = 1;
	if (path != NULL && model_cfg_load(&o->cfg, path, &err) < 0) {
		fprintf(stderr, "assay %s: %s\n", cmd, err.msg);
		free(path);
		return 2;
	}
	free(path);
	while ((ch = cmd_next(a, &val)) != -1) {
		const char *name = NULL;

		switch (ch) {
		case O_WHERE:
			if (o->where.len > 0)
				buf_addc(&o->where, ' ');
			buf_adds(&o->where, val);
			o->have_where = 1;
			break;
		case O_SAMPLES:
			if ((rc = whole(cmd, "--samples", val, 1, 1000,
			    &n)) != 0)
				return rc;
			o->samples = (int)n;
			o->have_samples = 1;
			break;
		case O_ROUNDS:
			if ((rc = whole(cmd, "--rounds", val, 1, 100,
			    &n)) != 0)
				return rc;
			o->rounds = (int)n;
			o->have_rounds = 1;
			break;
		case O_JOBS:
			if ((rc = whole(cmd, "--jobs", val, 1, 256, &n)) != 0)
				return rc;
			o->jobs = (int)n;
			break;
		case O_NOVERIFY:
			o->verify = 0;
			break;
		case O_VERIFY:
			o->verify_hand = 1;
			break;
		case O_SHOW:
			o->show = 1;
			break;
		case O_JSON:
			o->json = 1;
			break;
		case O_FILE:
			o->file = val;
			break;
		case O_STRATEGY:
			o->strategy = val;
			break;
		case O_TEMPLATE:
			if (!tmpl_name_ok(val))
				return cli_usage_error(cmd, "--template wants a"
				    " name of a-z, 0-9, '_' and '-', not '%s'",
				    val);
			o->template = val;
			break;
		case O_FROM:
			o->from = val;
			break;
		case O_TO:
			o->to = val;
			break;
		case O_SEED:
			if ((rc = whole(cmd, "--seed", val, 0, 2147483647L,
			    &n)) != 0)
				return rc;
			o->seed = (unsigned long)n;
			o->have_seed = 1;
			break;
		case O_MINGAIN:
			o->have_min_gain = 1;
			name = "min-gain";
			break;
		case O_REMEASURE:
			o->remeasure = 1;
			break;
		case O_TEMP: name = "temperature"; break;
		case O_ENDPOINT: name = "endpoint"; break;
		case O_MODEL: name = "model"; break;
		case O_KEYENV: name = "api-key-env"; break;
		case O_COMMAND: name = "command"; break;
		case O_MAXTOK: name = "max-tokens"; break;
		case O_TOKPARAM: name = "max-tokens-param"; break;
		case O_N: name = "n"; break;
		case O_FEEDBACK: name = "feedback"; break;
		case O_TIMEOUT: name = "timeout"; break;
		case O_RETRIES: name = "retries"; break;
		case O_RATE: name = "rate"; break;
		}
		if (name == NULL)
			continue;
		/* An option replaces the other kind of generator. */
		if (ch == O_ENDPOINT) {
			free(o->cfg.command);
			o->cfg.command = NULL;
		} else if (ch == O_COMMAND) {
			free(o->cfg.endpoint);
			o->cfg.endpoint = NULL;
		}
		snprintf(line, sizeof line, "generator %s %s", name, val);
		if (model_cfg_line(&o->cfg, line, &err) < 0)
			return cli_usage_error(cmd, "%s", err.msg);
	}
	return 0;
}

const char *
loop_strategy_opt(const struct loop_opts *o)
{
	return o->strategy != NULL ? "--strategy" : o->template != NULL ?
	    "--template" : o->from != NULL ? "--from" : o->to != NULL ?
	    "--to" : o->have_seed ? "--seed" : o->have_min_gain ?
	    "--min-gain" : o->remeasure ? "--remeasure" : NULL;
}

void
loop_release(struct loop_opts *o)
{
	model_cfg_release(&o->cfg);
	buf_release(&o->where);
}

void
loop_progress(size_t done, size_t n, void *arg)
{
	const char *what = arg;

	if (isatty(2))
		fprintf(stderr, "\r%s: %zu/%zu answered%s", what, done, n,
		    done == n ? "\n" : "");
}

void
loop_idset_add(struct idset *s, const char *id)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->v[i], id) == 0)
			return;
	s->v = xreallocarray(s->v, s->n + 1, sizeof *s->v);
	s->v[s->n++] = xstrdup(id);
}

void
loop_idset_release(struct idset *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	memset(s, 0, sizeof *s);
}

/* A round's figures as JSON (new reference); passed, when >= 0, is how
 * many of its answers pass. */
json_t *
loop_summary_json(const struct gen_report *rep, int round, long passed)
{
	json_t *o = json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I}",
	    "asked", (json_int_t)rep->asked, "added", (json_int_t)rep->added,
	    "same_code", (json_int_t)rep->duplicates, "failed",
	    (json_int_t)rep->failed, "prompt_tokens",
	    (json_int_t)rep->prompt_tokens, "completion_tokens",
	    (json_int_t)rep->completion_tokens, "latency_ms",
	    (json_int_t)rep->latency_ms);

	json_object_set_new(o, "requests", json_integer((json_int_t)
	    rep->requests));
	json_object_set_new(o, "cached_tokens", json_integer(
	    rep->cached_tokens));
	json_object_set_new(o, "reasoning_tokens", json_integer(
	    rep->reasoning_tokens));
	json_object_set_new(o, "refusals", json_integer((json_int_t)
	    rep->refusals));
	json_object_set_new(o, "retried", json_integer((json_int_t)
	    rep->retried));
	json_object_set_new(o, "retries", json_integer((json_int_t)
	    rep->retries));
	/* A cost only where the price table priced every response. */
	json_object_set_new(o, "cost_usd", rep->priced > 0 && rep->priced ==
	    rep->responses ? json_real(rep->cost_usd) : json_null());
	if (rep->cancelled > 0)
		json_object_set_new(o, "cancelled", json_integer((json_int_t)
		    rep->cancelled));
	if (round > 0)
		json_object_set_new(o, "round", json_integer(round));
	if (passed >= 0)
		json_object_set_new(o, "passed", json_integer(passed));
	if (rep->failed > 0)
		json_object_set_new(o, "first_error",
		    json_string(rep->first_error));
	return o;
}

/* One JSON object as a line on stdout; consumes o. */
void
loop_print_object(json_t *o)
{
	char *s = json_dumps(o, JSON_COMPACT);

	printf("%s\n", s);
	free(s);
	json_decref(o);
}

/* --- driving the round loop (generate/loop.h) ---------------------------- */

/* What the hooks print with: the command's options and its store. */
struct show {
	const char		*verb;
	int			 rounds_shown;	/* repair: "round N" */
	const struct loop_opts	*o;
	struct store		*st;
	char			 model[128];
	int			 tty;		/* stderr is a terminal */
	json_t			*rounds;	/* --json: one object a round */
	json_t			*gains;		/* optimize: this round's */
};

static void
say(const char *text)
{
	if (text != NULL)
		fputs(text, stdout);
	fflush(stdout);
}

static void
on_asking(void *arg, const char *cand_id, int round, const char *feedback)
{
	struct show *w = arg;
	char *t;

	if (!w->o->show)
		return;
	t = gloop_request_text(w->model, cand_id, round, feedback);
	say(t);
	free(t);
}

static void
on_answered(void *arg, size_t done, size_t n)
{
	struct show *w = arg;

	if (!w->o->json)
		loop_progress(done, n, (void *)w->verb);
}

/* A request waits to try again: said on stderr as it happens (the
 * round's summary counts the retries). */
static void
on_waiting(void *arg, const char *why, long wait_ms, int next_try)
{
	struct show *w = arg;

	if (!w->o->json && isatty(2))
		fputs("\r\033[K", stderr);	/* over the progress line */
	fprintf(stderr, "assay %s: %s; try %d in %.1f s\n", w->verb, why,
	    next_try, (double)wait_ms / 1000.0);
}

/* The round's answers are stored: --show prints them, then the errors
 * and (without --json) the summary line. */
static void
on_stored(void *arg, int round, const struct gen_report *rep)
{
	struct show *w = arg;
	char *t;

	for (size_t i = 0; w->o->show && i < rep->nids; i++) {
		t = gloop_answer_text(w->st, rep, i);
		say(t);
		free(t);
	}
	for (size_t i = 0; i < rep->failed; i++)
		fprintf(stderr, "assay %s: %s\n", w->verb, rep->errors[i]);
	if (!w->o->json) {
		t = gloop_summary_text(w->verb, rep, w->rounds_shown ? round :
		    0);
		say(t);
		free(t);
	}
	if (w->rounds != NULL && !w->o->verify)
		json_array_append_new(w->rounds, loop_summary_json(rep,
		    w->rounds_shown ? round : 0, -1));
}

/* The round's answers are verified: verify's summary line (on stderr
 * with --json, whose stdout holds the command's one object). */
static void
on_verified(void *arg, int round, const struct gen_report *rep,
    size_t passed, const struct vsvc_summary *vs)
{
	struct show *w = arg;
	struct cli_summary sum = { .command = "verify" };

	if (vs != NULL) {
		sum.done = vs->done;
		sum.unchanged = vs->unchanged;
		sum.not_stored = vs->not_stored;
		sum.tally = vs->tally;
		cli_summary_line(w->o->json ? stderr : stdout, &sum);
	}
	if (w->rounds != NULL) {
		json_t *o = loop_summary_json(rep, w->rounds_shown ? round : 0,
		    (long)passed);

		if (w->gains != NULL) {
			json_object_set_new(o, "gains", w->gains);
			w->gains = NULL;
		}
		json_array_append_new(w->rounds, o);
	}
}

/* optimize: an answer's gain, as it is stored. */
static void
on_measured(void *arg, const char *cand_id, const json_t *gain)
{
	struct show *w = arg;
	json_t *ratio = json_object_get(gain, "ratio");

	if (w->o->json) {
		json_t *g = json_deep_copy(gain);

		json_object_set_new(g, "candidate", json_string(cand_id));
		if (w->gains == NULL)
			w->gains = json_array();
		json_array_append_new(w->gains, g);
		return;
	}
	printf("%s: %s: ", w->verb, cand_id);
	if (json_is_number(ratio))
		printf("%.3fx, %s %.0f -> %.0f (%s); ", json_number_value(ratio),
		    json_string_value(json_object_get(gain, "metric")),
		    json_number_value(json_object_get(gain, "before")),
		    json_number_value(json_object_get(gain, "after")),
		    json_string_value(json_object_get(gain, "measured")));
	if (json_is_true(json_object_get(gain, "counts")))
		printf("counts (threshold %.3f)\n", json_number_value(
		    json_object_get(gain, "threshold")));
	else
		printf("does not count: %s (threshold %.3f)\n",
		    json_string_value(json_object_get(gain, "why")),
		    json_number_value(json_object_get(gain, "threshold")));
	fflush(stdout);
}

/* A verified run's line on a terminal's stderr, as verify prints it. */
static void
on_run(void *arg, const struct vsvc_result *res)
{
	struct show *w = arg;
	char line[512];

	if (w->tty && !w->o->json)
		fprintf(stderr, "%s\n", vsvc_result_line(res, line,
		    sizeof line));
}

static void
on_problem(void *arg, enum vsvc_problem what, const char *id,
    const char *msg)
{
	(void)arg;
	(void)what;
	if (id != NULL)
		fprintf(stderr, "assay: %s: %s\n", id, msg);
	else
		fprintf(stderr, "assay: %s\n", msg);
}

/* SIGINT or SIGTERM during a run: its number (the loop cancels). */
static volatile sig_atomic_t loop_stop;

static void
loop_on_signal(int sig)
{
	loop_stop = sig;
}

int
loop_run(struct store *st, const struct gen_ctx *g, enum gloop_kind kind,
    const char *verb, const struct loop_opts *o, char **ids, size_t n,
    json_t *rounds, struct gen_report *total)
{
	struct show w = { verb, kind == GLOOP_REPAIR, o, st, "", isatty(2),
	    rounds, NULL };
	struct gloop_opts lo = { .kind = kind, .samples = o->samples,
	    .rounds = o->rounds, .jobs = o->jobs, .verify = o->verify,
	    .min_gain = g->cfg->min_gain, .min_gain_from = o->have_min_gain ?
	    "--min-gain" : g->cfg->min_gain > 0 ? "config" : "default" };
	struct gloop_hooks h = { .asking = on_asking,
	    .answered = on_answered, .waiting = on_waiting,
	    .stored = on_stored, .verified = on_verified,
	    .measured = on_measured, .arg = &w };
	struct gloop *l;
	struct err err;
	struct sigaction sa, old_int, old_term;
	int over, rc, cancelled = 0;

	{
		char name[128];

		snprintf(w.model, sizeof w.model, "%s", model_name(g->cfg,
		    name, sizeof name));
	}
	/* as `assay verify --jobs N` would verify them */
	lo.vo.jobs = o->jobs;
	lo.vo.claim = 1;
	lo.vo.refs = VSVC_REFS_ALL;
	h.verify.finished = on_run;
	h.verify.problem = on_problem;
	if (gloop_new(&l, g, &lo, &h, ids, n, &err) < 0) {
		fprintf(stderr, "assay %s: %s\n", verb, err.msg);
		return 2;
	}
	/* A signal cancels the run as x does in the workbench: a wait to
	 * retry ends at once, no try is sent after it, what was answered
	 * is stored; a second one ends the process (SA_RESETHAND). */
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = loop_on_signal;
	sa.sa_flags = (int)SA_RESETHAND;
	sigemptyset(&sa.sa_mask);
	loop_stop = 0;
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	over = gloop_start(l);
	while (!over) {
		struct pollfd *pfd;
		size_t np;

		if (loop_stop != 0 && !cancelled) {
			cancelled = 1;
			fprintf(stderr, "assay %s: signal %d: cancelling; what"
			    " is answered is stored, nothing more is asked\n",
			    verb, (int)loop_stop);
			gloop_cancel(l);
		}
		np = gloop_pollfds(l, &pfd);
		if (poll(pfd, np, gloop_timeout_ms(l)) < 0 && errno != EINTR)
			break;
		over = gloop_step(l);
	}
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	rc = gloop_total(l)->failed > 0 ? 1 : 0;
	if (total != NULL) {
		*total = *gloop_total(l);
		total->ids = NULL;	/* the sums only */
		total->is_new = NULL;
		total->asked_for = NULL;
		total->errors = NULL;
		total->nids = 0;
		total->failed = gloop_total(l)->failed;
	}
	if (gloop_error(l) != NULL) {
		fprintf(stderr, "assay %s: %s\n", verb, gloop_error(l));
		rc = 2;
	} else if (gloop_verify_errors(l) > 0) {
		rc = 2;
	}
	if (cancelled) {
		fprintf(stderr, "assay %s: stopped by signal %d\n", verb,
		    (int)loop_stop);
		rc = 128 + (int)loop_stop;
	}
	gloop_free(l);
	json_decref(w.gains);
	return rc;
}

/*
 * cb over the queue row of each id (or unique prefix) named.  0, or -1
 * after printing why (an unknown id is bad input).
 */
int
loop_each_id(struct store *st, int n, char **ids,
    int (*cb)(const struct store_row *, void *), void *arg)
{
	struct err err;

	for (int i = 0; i < n; i++) {
		char *id = cli_resolve(st, ids[i]), *f;
		int rc;

		if (id == NULL)
			return -1;
		f = xasprintf("id=%s", id);
		rc = store_query_each(st, f, cb, arg, &err);
		free(f);
		free(id);
		if (rc < 0) {
			fprintf(stderr, "assay: %s\n", err.msg);
			return -1;
		}
		if (rc > 0)
			return -1;
	}
	return 0;
}