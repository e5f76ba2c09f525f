/*
 * cmd_generate.c - `assay generate`: ask a model for candidates of
 * tasks.  Moved from cli.c.
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
#include "store/store.h"

static int
task_of_row(const struct store_row *row, void *arg)
{
	loop_idset_add(arg, row->task);
	return 0;
}

static int
task_empty(const char *task_id, void *arg)
{
	loop_idset_add(arg, task_id);
	return 0;
}

/* migrate: keep the tasks that have code in how->from to start from;
 * say which are left out, and why. */
static void
migrate_sources(struct store *st, const struct gen_strategy *how,
    struct idset *tasks)
{
	size_t k = 0;

	for (size_t i = 0; i < tasks->n; i++) {
		struct err err;
		char *code = NULL;
		json_t *what = NULL;
		int rc = gen_migrate_source(st, tasks->v[i], how->from, &code,
		    &what, &err);

		if (rc != 0) {
			fprintf(stderr, "assay generate: %s: %s; left out\n",
			    tasks->v[i], rc < 0 ? err.msg : "no candidate in"
			    " that language passes, and no reference file is"
			    " in it, to migrate from");
			free(tasks->v[i]);
		} else {
			tasks->v[k++] = tasks->v[i];
		}
		free(code);
		json_decref(what);
	}
	tasks->n = k;
}

static int
cmd_generate(struct cmd_ctx *ctx, struct cmd_args *a, struct err *err)
{
	const struct cli_global *g = ctx->front;
	struct loop_opts o;
	struct store *st = NULL;
	struct idset tasks = { 0 };
	struct gen_ctx gc;
	struct gen_strategy how = { GEN_DIRECT, NULL, 1, NULL, NULL };
	json_t *rounds = NULL;
	char *by = NULL;
	size_t matched;
	int rc;

	if ((rc = loop_parse("generate", a, &o)) != 0)
		goto out;
	rc = 2;
	if (o.file != NULL || o.have_rounds || o.verify_hand) {
		cli_usage_error("generate", "%s is an option of repair",
		    o.file != NULL ? "--file" : o.have_rounds ? "--rounds" :
		    "--verify");
		goto out;
	}
	if (a->npos > 0 && o.have_where) {
		cli_usage_error("generate", "give IDs or --where, not both%s",
		    "");
		goto out;
	}
	if (o.have_min_gain || o.remeasure) {
		cli_usage_error("generate", "%s is an option of optimize",
		    o.remeasure ? "--remeasure" : "--min-gain");
		goto out;
	}
	if (o.strategy != NULL && gen_strategy_parse(o.strategy, &how.kind,
	    err) < 0) {
		cli_usage_error("generate", "%s", err->msg);
		goto out;
	}
	if ((how.kind == GEN_MIGRATE) != (o.from != NULL) || (o.to != NULL &&
	    how.kind != GEN_MIGRATE)) {
		cli_usage_error("generate", "%s", how.kind == GEN_MIGRATE ?
		    "--strategy migrate wants --from LANG" : "--from and --to"
		    " are options of --strategy migrate");
		goto out;
	}
	if (o.from != NULL && !gen_migrate_lang_known(o.from)) {
		cli_usage_error("generate", "--from %s: not a language to"
		    " migrate from (c, cuda, verilog, systemverilog, python,"
		    " asm)", o.from);
		goto out;
	}
	how.template = o.template;
	how.seed = o.have_seed ? o.seed : 1;
	how.from = o.from;
	how.to = o.to;
	if (model_cfg_check(&o.cfg, err) < 0) {
		fprintf(stderr, "assay generate: %s\n", err->msg);
		goto out;
	}
	if (cli_open_store(g, &st) < 0)
		goto out;
	if (a->npos > 0) {
		/* The tasks of the candidates named. */
		if (loop_each_id(st, a->npos, a->pos, task_of_row,
		    &tasks) < 0)
			goto out;
	} else if (store_query_each(st, o.have_where ? buf_str(&o.where) :
	    NULL, task_of_row, &tasks, err) < 0 || (!o.have_where &&
	    store_task_each_empty(st, task_empty, &tasks, err) < 0)) {
		fprintf(stderr, "assay generate: %s\n", err->msg);
		goto out;
	}
	matched = tasks.n;
	if (how.kind == GEN_MIGRATE)
		migrate_sources(st, &how, &tasks);
	if (tasks.n == 0) {
		if (o.json)
			loop_print_object(json_pack("{s:s, s:i, s:i}", "command",
			    "generate", "tasks", 0, "asked", 0));
		else if (matched > 0)
			printf("generate: no task left to ask (%zu matched,"
			    " all left out)\n", matched);
		else
			printf("generate: no task matches\n");
		rc = 0;
		goto out;
	}
	by = config_reviewer(g->reviewer);
	gc = (struct gen_ctx){ st, &o.cfg, by, &how };
	rounds = json_array();
	rc = loop_run(st, &gc, GLOOP_GENERATE, "generate", &o, tasks.v,
	    tasks.n, rounds, NULL);
	if (o.json) {
		/* the one round's object, with the command and its tasks */
		json_t *obj = json_array_get(rounds, 0);

		obj = obj != NULL ? json_incref(obj) : json_object();
		json_object_set_new(obj, "command", json_string("generate"));
		json_object_set_new(obj, "tasks", json_integer((json_int_t)
		    tasks.n));
		loop_print_object(obj);
	}
out:
	if (st != NULL)
		store_close(st);
	json_decref(rounds);
	loop_idset_release(&tasks);
	free(by);
	loop_release(&o);
	return rc;
}

const struct cmd_entry cli_cmd_generate = {
	"generate", NULL, loop_spec, 0, CMD_MANY,
	"generate [--where FILTER | ID...] [--samples K] [--temperature T]\n"
    "             [--endpoint URL --model NAME [--api-key-env VAR] |"
    " --command CMD]\n"
    "             [--jobs N] [--max-tokens N] [--max-tokens-param P]"
    " [--n on|off]\n"
    "             [--timeout S] [--retries N] [--rate R] [--no-verify]"
    " [--json]\n"
    "             [--strategy direct|perturb|migrate] [--template NAME]"
    " [--seed N]\n"
    "             [--from LANG [--to LANG]]",
"Ask a model for K candidates (--samples, default 1) of each task\n"
    "(those of the candidates FILTER matches, or of the IDs given; all\n"
    "tasks without either).\n"
    "The prompt is the task's spec and interface as the SFT export\n"
    "writes them; each answer is stored exactly as given as a direct\n"
    "candidate whose origin is the model, with the request, the answer,\n"
    "the model that served it, the response id, token usage (cached and\n"
    "reasoning tokens too), its cost and latency, then verified.  A\n"
    "refusal is stored as a candidate without code (a format failure);\n"
    "an empty answer makes no candidate and counts as failed.\n"
    "The generator: --endpoint URL of an OpenAI-compatible server (its\n"
    "base URL or .../chat/completions) with --model NAME and the API key\n"
    "in the variable --api-key-env names (never stored), or --command CMD\n"
    "run with sh -c, the request JSON on its stdin and the answer (text,\n"
    "or a chat-completions response) on its stdout.  `generator NAME\n"
    "VALUE` lines in the config file set the same (endpoint, model,\n"
    "api-key-env, command, temperature, max-tokens, max-tokens-param, n,\n"
    "timeout, retries, rate) and the price table (`generator price MODEL\n"
    "INPUT CACHED OUTPUT`, US dollars per million tokens); options win.\n"
    "  --jobs N       requests at once, and verify's jobs (default 4)\n"
    "  --max-tokens-param max_completion_tokens|max_tokens\n"
    "                 the name the limit is sent under (max_tokens)\n"
    "  --n on|off     ask the K samples of a task in one request with\n"
    "                 \"n\" (on; a server that ignores or refuses it is\n"
    "                 asked again one at a time)\n"
    "  --rate R       at most R requests started per second\n"
    "  --retries N    tries again on HTTP 429 and 5xx with backoff, or\n"
    "                 after the server's retry-after-ms or Retry-After\n"
    "  --no-verify    store the answers without verifying them\n"
    "  --json         print one summary object\n"
    "  --strategy S   how the prompt is made (ADR 0045): direct (the\n"
    "                 template \"direct\": the words above), perturb (its\n"
    "                 phrasing, the order of requirement and interface\n"
    "                 and the constraint stressed drawn from --seed,\n"
    "                 default 1, per task and sample), migrate (--from\n"
    "                 LANG: code in LANG that passes the task, a candidate\n"
    "                 or its reference file, asked again in the task's\n"
    "                 language or --to LANG; verilog becomes\n"
    "                 systemverilog).  Each answer records its strategy\n"
    "                 and template; stats --generation --by strategy\n"
    "                 compares them.\n"
    "  --template NAME  templates/DOMAIN/NAME (else common/NAME) instead\n"
    "                 of the strategy's own; ASSAY_TEMPLATES names a\n"
    "                 directory looked in first\n"
    "Exit status 1 when a request failed or an answer was empty (the\n"
    "others are kept).",
	CMD_CLI, cmd_generate
};
