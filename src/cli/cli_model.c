/*
 * cli_model.c - the headless commands of the model loop: `generate`
 * asks a model for candidates of tasks, `repair` makes repairs of
 * failed candidates, by a person (--file) or by a model over rounds.
 * Each verifies what it made at once.  The generator is configured in
 * the config file (`generator ...` lines, model.h) and on the command
 * line, which wins.
 */
#include "cli/cli_shared.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "base/buf.h"
#include "app/config.h"
#include "base/err.h"
#include "generate/generate.h"
#include "base/hash.h"
#include "generate/model.h"
#include "store/store.h"
#include "base/textsafe.h"

const char GENERATE_USAGE[] =
    "generate [--where FILTER | ID...] [--samples K] [--temperature T]\n"
    "             [--endpoint URL --model NAME [--api-key-env VAR] |"
    " --command CMD]\n"
    "             [--jobs N] [--max-tokens N] [--timeout S] [--retries N]"
    " [--rate R]\n"
    "             [--no-verify] [--json]";
const char GENERATE_HELP[] =
    "Ask a model for K candidates (--samples, default 1) of each task\n"
    "(those of the candidates FILTER matches, or of the IDs given; all\n"
    "tasks without either).\n"
    "The prompt is the task's spec and interface as the SFT export\n"
    "writes them; each answer is stored exactly as given as a direct\n"
    "candidate whose origin is the model, with the request, the answer,\n"
    "token usage and latency, then verified.\n"
    "The generator: --endpoint URL of an OpenAI-compatible server (its\n"
    "base URL or .../chat/completions) with --model NAME and the API key\n"
    "in the variable --api-key-env names (never stored), or --command CMD\n"
    "run with sh -c, the request JSON on its stdin and the answer (text,\n"
    "or a chat-completions response) on its stdout.  `generator NAME\n"
    "VALUE` lines in the config file set the same (endpoint, model,\n"
    "api-key-env, command, temperature, max-tokens, timeout, retries,\n"
    "rate); options win.\n"
    "  --jobs N       requests at once, and verify's jobs (default 4)\n"
    "  --rate R       at most R requests started per second\n"
    "  --retries N    tries again on HTTP 429 and 5xx with backoff\n"
    "  --no-verify    store the answers without verifying them\n"
    "  --json         print one summary object\n"
    "Exit status 1 when a request failed (the others are kept).";
const char REPAIR_USAGE[] =
    "repair ID --file FILE|- [--verify]\n"
    "       assay repair [--where FILTER | ID...] [--rounds R] [generator"
    " options]"
    "\n             [--jobs N] [--no-verify] [--json] [--show]";
const char REPAIR_HELP[] =
    "With ID and --file: add the code in FILE (- for stdin) as a repair\n"
    "of candidate ID: kind repair, parent ID, origin the reviewer, the\n"
    "task and language of ID; journalled as the reviewer's.  Prints the\n"
    "new id (the same code again adds nothing); --verify runs it at\n"
    "once (else assay verify ID does).\n"
    "Without: ask the model for a repair of every failed candidate\n"
    "FILTER matches, or of the IDs given (verdict fail or timeout; a\n"
    "candidate whose task's\n"
    "reference does not pass is left alone: its failure is not its\n"
    "own).  The model sees the conversation so far: the task, each\n"
    "code of the chain and the toolchain's feedback on it, as the SFT\n"
    "export writes a trajectory.  Each answer is stored as a repair\n"
    "(parent the failed candidate, origin the model) and verified; one\n"
    "that fails again is sent back, until it passes or R rounds\n"
    "(--rounds, default 1) are spent.  A chain this model already\n"
    "repaired goes on from its newest repair.  Generator options as\n"
    "for generate.  --show prints the feedback each request ends with\n"
    "and each answer (the workbench's R runs this in the toolchain\n"
    "pane).  Exit status 1 when a request failed.";

/* Options shared by generate and repair. */
enum {
	O_WHERE = 1000, O_SAMPLES, O_TEMP, O_ENDPOINT, O_MODEL, O_KEYENV,
	O_COMMAND, O_JOBS, O_MAXTOK, O_TIMEOUT, O_RETRIES, O_RATE,
	O_NOVERIFY, O_JSON, O_ROUNDS, O_FILE, O_VERIFY, O_SHOW
};

static const struct option gen_opts[] = {
	{ "where", required_argument, NULL, O_WHERE },
	{ "samples", required_argument, NULL, O_SAMPLES },
	{ "temperature", required_argument, NULL, O_TEMP },
	{ "endpoint", required_argument, NULL, O_ENDPOINT },
	{ "model", required_argument, NULL, O_MODEL },
	{ "api-key-env", required_argument, NULL, O_KEYENV },
	{ "command", required_argument, NULL, O_COMMAND },
	{ "jobs", required_argument, NULL, O_JOBS },
	{ "max-tokens", required_argument, NULL, O_MAXTOK },
	{ "timeout", required_argument, NULL, O_TIMEOUT },
	{ "retries", required_argument, NULL, O_RETRIES },
	{ "rate", required_argument, NULL, O_RATE },
	{ "no-verify", no_argument, NULL, O_NOVERIFY },
	{ "json", no_argument, NULL, O_JSON },
	{ "rounds", required_argument, NULL, O_ROUNDS },
	{ "file", required_argument, NULL, O_FILE },
	{ "verify", no_argument, NULL, O_VERIFY },
	{ "show", no_argument, NULL, O_SHOW },
	{ NULL, 0, NULL, 0 }
};

struct loop_opts {
	struct model_cfg cfg;
	struct buf	 where;
	int		 samples, jobs, rounds, verify, json, verify_hand, show;
	const char	*file;
	int		 have_where, have_samples, have_rounds;
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

/* Parse argv into o (config file first).  0, or the exit status. */
static int
parse_loop(const char *cmd, int argc, char **argv, struct loop_opts *o)
{
	char *path = config_path("config");
	struct err err;
	char line[4096];
	long n;
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
	optind = 1;
	while ((ch = getopt_long(argc, argv, "", gen_opts, NULL)) != -1) {
		const char *name = NULL;

		switch (ch) {
		case O_WHERE:
			if (o->where.len > 0)
				buf_addc(&o->where, ' ');
			buf_adds(&o->where, optarg);
			o->have_where = 1;
			break;
		case O_SAMPLES:
			if ((rc = whole(cmd, "--samples", optarg, 1, 1000,
			    &n)) != 0)
				return rc;
			o->samples = (int)n;
			o->have_samples = 1;
			break;
		case O_ROUNDS:
			if ((rc = whole(cmd, "--rounds", optarg, 1, 100,
			    &n)) != 0)
				return rc;
			o->rounds = (int)n;
			o->have_rounds = 1;
			break;
		case O_JOBS:
			if ((rc = whole(cmd, "--jobs", optarg, 1, 256, &n)) != 0)
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
			o->file = optarg;
			break;
		case O_TEMP: name = "temperature"; break;
		case O_ENDPOINT: name = "endpoint"; break;
		case O_MODEL: name = "model"; break;
		case O_KEYENV: name = "api-key-env"; break;
		case O_COMMAND: name = "command"; break;
		case O_MAXTOK: name = "max-tokens"; break;
		case O_TIMEOUT: name = "timeout"; break;
		case O_RETRIES: name = "retries"; break;
		case O_RATE: name = "rate"; break;
		default:
			return cli_usage_error(cmd, "bad option%s", "");
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
		snprintf(line, sizeof line, "generator %s %s", name, optarg);
		if (model_cfg_line(&o->cfg, line, &err) < 0)
			return cli_usage_error(cmd, "%s", err.msg);
	}
	return 0;
}

static void
loop_release(struct loop_opts *o)
{
	model_cfg_release(&o->cfg);
	buf_release(&o->where);
}

static void
progress(size_t done, size_t n, void *arg)
{
	const char *what = arg;

	if (isatty(2))
		fprintf(stderr, "\r%s: %zu/%zu answered%s", what, done, n,
		    done == n ? "\n" : "");
}

struct idset {
	char	**v;
	size_t	  n;
};

static void
idset_add(struct idset *s, const char *id)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->v[i], id) == 0)
			return;
	s->v = xreallocarray(s->v, s->n + 1, sizeof *s->v);
	s->v[s->n++] = xstrdup(id);
}

static void
idset_release(struct idset *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	memset(s, 0, sizeof *s);
}

/* The latest verdict of id (NULL when none; new string). */
static char *
verdict_of(struct store *st, const char *id)
{
	struct run r;
	struct err err;
	char *v = NULL;

	if (store_run_latest(st, id, &r, &err) == 0) {
		v = xstrdup(r.verdict);
		run_release(&r);
	}
	return v;
}

/* How many of ids now pass. */
static long
count_pass(const struct cli_global *g, char **ids, size_t n)
{
	struct store *st;
	long pass = 0;

	if (cli_open_store(g, &st) < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		char *v = verdict_of(st, ids[i]);

		pass += v != NULL && strcmp(v, "pass") == 0;
		free(v);
	}
	store_close(st);
	return pass;
}

static int
task_of_row(const struct store_row *row, void *arg)
{
	idset_add(arg, row->task);
	return 0;
}

static int
task_empty(const char *task_id, void *arg)
{
	idset_add(arg, task_id);
	return 0;
}

/* A round's figures as JSON (new reference); passed, when >= 0, is how
 * many of its answers pass. */
static json_t *
summary_json(const struct gen_report *rep, int round, long passed)
{
	json_t *o = json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I}",
	    "asked", (json_int_t)rep->asked, "added", (json_int_t)rep->added,
	    "same_code", (json_int_t)rep->duplicates, "failed",
	    (json_int_t)rep->failed, "prompt_tokens",
	    (json_int_t)rep->prompt_tokens, "completion_tokens",
	    (json_int_t)rep->completion_tokens, "latency_ms",
	    (json_int_t)rep->latency_ms);

	if (round > 0)
		json_object_set_new(o, "round", json_integer(round));
	if (passed >= 0)
		json_object_set_new(o, "passed", json_integer(passed));
	if (rep->failed > 0)
		json_object_set_new(o, "first_error",
		    json_string(rep->first_error));
	return o;
}

/* The errors on stderr and, without --json, the summary line. */
static void
print_summary(const char *cmd, const struct gen_report *rep, int json,
    int round)
{
	for (size_t i = 0; i < rep->failed; i++)
		fprintf(stderr, "assay %s: %s\n", cmd, rep->errors[i]);
	if (json)
		return;
	if (round > 0)
		printf("%s round %d: ", cmd, round);
	else
		printf("%s: ", cmd);
	printf("asked %zu, stored %zu new", rep->asked, rep->added);
	if (rep->duplicates > 0)
		printf(", %zu the same code as before", rep->duplicates);
	if (rep->failed > 0)
		printf(", %zu failed", rep->failed);
	if (rep->prompt_tokens + rep->completion_tokens > 0)
		printf("; %lld+%lld tokens", (long long)rep->prompt_tokens,
		    (long long)rep->completion_tokens);
	printf("\n");
}

/* One JSON object as a line on stdout; consumes o. */
static void
print_object(json_t *o)
{
	char *s = json_dumps(o, JSON_COMPACT);

	printf("%s\n", s);
	free(s);
	json_decref(o);
}

/*
 * verify the ids; with --json its summary goes to stderr, so that
 * stdout holds the command's one object.  Returns verify's status.
 */
static int
verify_quietly(const struct cli_global *g, char **ids, size_t n, int jobs,
    int json)
{
	int saved = -1, rc;

	fflush(stdout);
	if (json) {
		saved = dup(1);
		dup2(2, 1);
	}
	rc = cli_verify_ids(g, ids, n, jobs, json || !isatty(2));
	fflush(stdout);
	if (saved >= 0) {
		dup2(saved, 1);
		close(saved);
	}
	return rc;
}

/*
 * cb over the queue row of each id (or unique prefix) named.  0, or -1
 * after printing why (an unknown id is bad input).
 */
static int
each_id(struct store *st, int n, char **ids,
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

int
cmd_generate(const struct cli_global *g, int argc, char **argv)
{
	struct loop_opts o;
	struct store *st = NULL;
	struct idset tasks = { 0 };
	struct gen_report rep = { 0 };
	struct gen_ctx ctx;
	char *by = NULL;
	struct err err;
	int rc;

	if (cli_wants_help("generate", argc, argv))
		return 0;
	if ((rc = parse_loop("generate", argc, argv, &o)) != 0)
		goto out;
	rc = 2;
	if (o.file != NULL || o.have_rounds || o.verify_hand) {
		cli_usage_error("generate", "%s is an option of repair",
		    o.file != NULL ? "--file" : o.have_rounds ? "--rounds" :
		    "--verify");
		goto out;
	}
	if (optind < argc && o.have_where) {
		cli_usage_error("generate", "give IDs or --where, not both%s",
		    "");
		goto out;
	}
	if (model_cfg_check(&o.cfg, &err) < 0) {
		fprintf(stderr, "assay generate: %s\n", err.msg);
		goto out;
	}
	if (cli_open_store(g, &st) < 0)
		goto out;
	if (optind < argc) {
		/* The tasks of the candidates named. */
		if (each_id(st, argc - optind, argv + optind, task_of_row,
		    &tasks) < 0)
			goto out;
	} else if (store_query_each(st, o.have_where ? buf_str(&o.where) :
	    NULL, task_of_row, &tasks, &err) < 0 || (!o.have_where &&
	    store_task_each_empty(st, task_empty, &tasks, &err) < 0)) {
		fprintf(stderr, "assay generate: %s\n", err.msg);
		goto out;
	}
	if (tasks.n == 0) {
		if (o.json)
			print_object(json_pack("{s:s, s:i, s:i}", "command",
			    "generate", "tasks", 0, "asked", 0));
		else
			printf("generate: no task matches\n");
		rc = 0;
		goto out;
	}
	by = config_reviewer(g->reviewer);
	ctx = (struct gen_ctx){ st, &o.cfg, by, o.jobs,
	    o.json ? NULL : progress, "generate" };
	if (gen_direct(&ctx, tasks.v, tasks.n, o.samples, &rep, &err) < 0) {
		fprintf(stderr, "assay generate: %s\n", err.msg);
		goto out;
	}
	print_summary("generate", &rep, o.json, 0);
	rc = rep.failed > 0 ? 1 : 0;
	store_close(st);
	st = NULL;
	if (o.verify && rep.nids > 0 && verify_quietly(g, rep.ids, rep.nids,
	    o.jobs, o.json) == 2)
		rc = 2;
	if (o.json) {
		json_t *obj = summary_json(&rep, 0, o.verify ? count_pass(g,
		    rep.ids, rep.nids) : -1);

		json_object_set_new(obj, "command", json_string("generate"));
		json_object_set_new(obj, "tasks", json_integer((json_int_t)
		    tasks.n));
		print_object(obj);
	}
out:
	if (st != NULL)
		store_close(st);
	gen_report_release(&rep);
	idset_release(&tasks);
	free(by);
	loop_release(&o);
	return rc;
}

/* --- repair ------------------------------------------------------------ */

static char *
read_all(const char *path, size_t *len, struct err *err)
{
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
	struct buf b = BUF_INIT;
	char chunk[65536];
	size_t n;

	if (f == NULL) {
		err_set(err, "%s: %s", path, strerror(errno));
		return NULL;
	}
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		buf_add(&b, chunk, n);
	if (ferror(f)) {
		err_set(err, "%s: %s", path, strerror(errno));
		if (f != stdin)
			fclose(f);
		buf_release(&b);
		return NULL;
	}
	if (f != stdin)
		fclose(f);
	*len = b.len;
	buf_adds(&b, "");
	return buf_detach(&b, NULL);
}

/* A person's repair of id from a file: stored, journalled, verified. */
static int
repair_by_hand(const struct cli_global *g, struct loop_opts *o,
    const char *arg)
{
	struct store *st;
	struct candidate old, c = { 0 };
	struct err err;
	char *id, *by, *detail;
	int inserted = 0, rc = 2;

	if (cli_open_store(g, &st) < 0)
		return 2;
	id = cli_resolve(st, arg);
	if (id == NULL) {
		store_close(st);
		return 2;
	}
	if (store_candidate_get(st, id, &old, &err) != 0) {
		fprintf(stderr, "assay repair: %s\n", err.msg);
		free(id);
		store_close(st);
		return 2;
	}
	c.code = read_all(o->file, &c.code_len, &err);
	if (c.code == NULL) {
		fprintf(stderr, "assay repair: %s\n", err.msg);
		goto out;
	}
	hash_sha256(c.code, c.code_len, c.code_hash);
	if (strcmp(c.code_hash, old.code_hash) == 0) {
		fprintf(stderr, "assay repair: %s is the code of %s itself;"
		    " nothing stored\n", o->file, old.id);
		goto out;
	}
	by = config_reviewer(g->reviewer);
	c.task_id = xstrdup(old.task_id);
	c.origin = by;
	c.kind = xstrdup("repair");
	c.lang = xstrdup(old.lang);
	c.parent = xstrdup(old.id);
	c.source = xasprintf("repair of %s from %s", old.id,
	    strcmp(o->file, "-") == 0 ? "stdin" : o->file);
	detail = xasprintf("repair of %s", old.id);
	if (store_begin(st, &err) < 0 ||
	    store_candidate_add(st, &c, &inserted, &err) < 0 ||
	    (inserted && store_event_add(st, by, "repair", c.id, detail,
	    &err) < 0) || store_commit(st, &err) < 0) {
		store_rollback(st);
		fprintf(stderr, "assay repair: %s\n", err.msg);
		free(detail);
		goto out;
	}
	free(detail);
	printf("%s %s repair of %s by %s\n", c.id, inserted ? "new" :
	    "already there:", old.id, by);
	rc = 0;
out:
	store_close(st);
	if (rc == 0 && o->verify_hand) {
		char *ids[1] = { c.id };

		rc = cli_verify_ids(g, ids, 1, 1, 0) == 2 ? 2 : 0;
	}
	candidate_release(&old);
	candidate_release(&c);
	free(id);
	return rc;
}

struct pick {
	struct store	*st;
	const char	*origin;
	struct idset	*leaves;
	struct err	*err;
	int		 failed;
};

/* Is this verdict a failure of the candidate's own, to repair? */
static int
repairable(const char *verdict)
{
	return verdict != NULL && (strcmp(verdict, "fail") == 0 ||
	    strcmp(verdict, "timeout") == 0);
}

static int
newest_child(const struct store_row *row, void *arg)
{
	char **out = arg;

	free(*out);
	*out = xstrdup(row->id);
	return 0;
}

/*
 * A failed candidate of the filter: follow this model's repairs of it
 * to the newest one; keep that leaf when it failed too.
 */
static int
pick_one(const struct store_row *row, void *arg)
{
	struct pick *p = arg;
	char *ref = NULL, *rv = NULL, *leaf = xstrdup(row->id), *child;
	char *qo = store_filter_quote(p->origin);
	int own = repairable(row->verdict), depth = 0;

	if (!own)
		goto out;
	if (store_task_reference(p->st, row->task, &ref, &rv, p->err) < 0)
		goto fail;
	if (ref != NULL && strcmp(ref, row->id) != 0 && rv != NULL &&
	    strcmp(rv, "pass") != 0)
		goto out;	/* the task's fault, not the candidate's */
	for (;;) {
		char *f = xasprintf("parent=%s kind=repair origin=%s", leaf,
		    qo);
		int r;

		child = NULL;
		r = store_query_each(p->st, f, newest_child, &child, p->err);
		free(f);
		if (r < 0)
			goto fail;
		if (child == NULL || ++depth > 100)
			break;
		free(leaf);
		leaf = child;
	}
	free(child);
	if (strcmp(leaf, row->id) != 0) {
		char *v = verdict_of(p->st, leaf);

		own = repairable(v);
		free(v);
	}
	if (own)
		idset_add(p->leaves, leaf);
out:
	free(ref);
	free(rv);
	free(leaf);
	free(qo);
	return 0;
fail:
	p->failed = 1;
	free(ref);
	free(rv);
	free(leaf);
	free(qo);
	return 1;
}

/* Text from a model or a toolchain onto a terminal, its escape
 * sequences shown escaped (textsafe.h), lines kept. */
static void
put_text(const char *s)
{
	struct buf b = BUF_INIT;

	safe_text(&b, s, strlen(s), SAFE_KEEP_LINES);
	fwrite(b.p != NULL ? b.p : "", 1, b.len, stdout);
	buf_release(&b);
}

/* --show: the feedback each request ends with, before it is sent. */
static void
show_requests(struct store *st, const struct idset *leaves,
    const char *model)
{
	for (size_t i = 0; i < leaves->n; i++) {
		struct err err;
		int round = 0;
		json_t *m = gen_repair_messages(st, leaves->v[i], &round, &err);
		json_t *last = json_array_get(m, json_array_size(m) - 1);
		const char *fb = json_string_value(json_object_get(last,
		    "content"));

		printf("\033[1m--- asking %s to repair %s (round %d) ---"
		    "\033[0m\n", model, leaves->v[i], round);
		put_text(fb != NULL ? fb : (m == NULL ? err.msg : ""));
		putchar('\n');
		json_decref(m);
	}
	fflush(stdout);
}

/* --show: each answer as stored. */
static void
show_answers(struct store *st, const struct gen_report *rep)
{
	for (size_t i = 0; i < rep->nids; i++) {
		struct candidate c;
		struct err err;

		if (store_candidate_get(st, rep->ids[i], &c, &err) != 0)
			continue;
		printf("\033[1m--- answer: %s, repair of %s ---\033[0m\n",
		    c.id, c.parent != NULL ? c.parent : "?");
		put_text(c.code);
		if (c.code_len == 0 || c.code[c.code_len - 1] != '\n')
			putchar('\n');
		candidate_release(&c);
	}
	fflush(stdout);
}

int
cmd_repair(const struct cli_global *g, int argc, char **argv)
{
	struct loop_opts o;
	struct store *st = NULL;
	struct idset leaves = { 0 };
	struct gen_report total = { 0 };
	struct err err;
	char name[128], *by = NULL;
	json_t *rounds = NULL;
	size_t ncand = 0;
	int rc;

	if (cli_wants_help("repair", argc, argv))
		return 0;
	if ((rc = parse_loop("repair", argc, argv, &o)) != 0)
		goto done;
	rc = 2;
	if (o.file != NULL) {
		if (optind + 1 != argc || o.have_where || o.have_rounds) {
			cli_usage_error("repair", "--file takes one candidate"
			    " ID%s", "");
			goto done;
		}
		rc = repair_by_hand(g, &o, argv[optind]);
		goto done;
	}
	if (optind < argc && o.have_where) {
		cli_usage_error("repair", "give IDs or --where, not both%s",
		    "");
		goto done;
	}
	if (o.have_samples) {
		cli_usage_error("repair", "--samples is an option of generate%s",
		    "");
		goto done;
	}
	if (model_cfg_check(&o.cfg, &err) < 0) {
		fprintf(stderr, "assay repair: %s\n", err.msg);
		goto done;
	}
	if (cli_open_store(g, &st) < 0)
		goto done;
	{
		struct pick p = { st, model_name(&o.cfg, name, sizeof name),
		    &leaves, &err, 0 };

		if (optind < argc) {
			if (each_id(st, argc - optind, argv + optind, pick_one,
			    &p) < 0) {
				if (p.failed)
					fprintf(stderr, "assay repair: %s\n",
					    err.msg);
				goto done;
			}
		} else if (store_query_each(st, o.have_where ?
		    buf_str(&o.where) : NULL, pick_one, &p, &err) < 0 ||
		    p.failed) {
			fprintf(stderr, "assay repair: %s\n", err.msg);
			goto done;
		}
	}
	if (leaves.n == 0) {
		if (o.json)
			print_object(json_pack("{s:s, s:i, s:[]}", "command",
			    "repair", "candidates", 0, "rounds"));
		else
			printf("repair: no failed candidate to repair\n");
		rc = 0;
		goto done;
	}
	rounds = json_array();
	ncand = leaves.n;
	by = config_reviewer(g->reviewer);
	rc = 0;
	for (int round = 1; round <= o.rounds && leaves.n > 0; round++) {
		struct gen_report rep = { 0 };
		struct gen_ctx ctx = { st, &o.cfg, by, o.jobs,
		    o.json ? NULL : progress, "repair" };
		struct idset next = { 0 };

		if (st == NULL && cli_open_store(g, &st) < 0) {
			rc = 2;
			break;
		}
		ctx.st = st;
		if (o.show)
			show_requests(st, &leaves, model_name(&o.cfg, name,
			    sizeof name));
		if (gen_repair(&ctx, leaves.v, leaves.n, &rep, &err) < 0) {
			fprintf(stderr, "assay repair: %s\n", err.msg);
			gen_report_release(&rep);
			rc = 2;
			break;
		}
		if (o.show)
			show_answers(st, &rep);
		print_summary("repair", &rep, o.json, round);
		if (rep.failed > 0)
			rc = 1;
		total.asked += rep.asked;
		total.added += rep.added;
		store_close(st);
		st = NULL;
		if (o.verify && rep.nids > 0 && verify_quietly(g, rep.ids,
		    rep.nids, o.jobs, o.json) == 2) {
			gen_report_release(&rep);
			rc = 2;
			break;
		}
		json_array_append_new(rounds, summary_json(&rep, round,
		    o.verify ? count_pass(g, rep.ids, rep.nids) : -1));
		if (!o.verify) {
			gen_report_release(&rep);
			break;
		}
		if (cli_open_store(g, &st) < 0) {
			gen_report_release(&rep);
			rc = 2;
			break;
		}
		/* What failed again goes on to the next round; an answer
		 * that repeats code already there ends its chain. */
		for (size_t i = 0; i < rep.nids; i++) {
			char *v = rep.is_new[i] ? verdict_of(st, rep.ids[i]) :
			    NULL;

			if (repairable(v))
				idset_add(&next, rep.ids[i]);
			free(v);
		}
		gen_report_release(&rep);
		idset_release(&leaves);
		leaves = next;
	}
done:
	if (st != NULL)
		store_close(st);
	if (o.json && rounds != NULL)
		print_object(json_pack("{s:s, s:I, s:I, s:I, s:o}", "command",
		    "repair", "candidates", (json_int_t)ncand, "asked",
		    (json_int_t)total.asked, "added", (json_int_t)total.added,
		    "rounds", rounds));
	else
		json_decref(rounds);
	idset_release(&leaves);
	gen_report_release(&total);
	free(by);
	loop_release(&o);
	return rc;
}

/* --- stats --generation ------------------------------------------------ */

/* "a/b" of the round r repairs, or "-". */
static void
round_cell(const struct gen_stat *s, int r, char *buf, size_t n)
{
	if (s->tried[r] == 0)
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, "%zu/%zu", s->fixed[r], s->tried[r]);
}

int
cli_stats_generation(struct store *st, const char *where, const char *fmt,
    int under)
{
	struct gen_stat *v = NULL;
	struct err err;
	size_t n = 0;
	int rounds = 0;

	if (gen_stats(st, where, &v, &n, &err) < 0) {
		fprintf(stderr, "assay stats: %s\n", err.msg);
		return 2;
	}
	if (under && n == 0)
		return 0;
	for (size_t i = 0; i < n; i++)
		for (int r = 0; r < GEN_ROUNDS_MAX; r++)
			if (v[i].tried[r] > 0 && r + 1 > rounds)
				rounds = r + 1;
	if (strcmp(fmt, "json") == 0) {
		for (size_t i = 0; i < n; i++) {
			json_t *rr = json_array(), *o;
			char *line;

			for (int r = 0; r < rounds; r++)
				json_array_append_new(rr, json_pack("{s:i,"
				    " s:I, s:I}", "round", r + 1, "tried",
				    (json_int_t)v[i].tried[r], "passed",
				    (json_int_t)v[i].fixed[r]));
			o = json_pack("{s:s, s:I, s:I, s:I, s:o, s:o, s:o,"
			    " s:I, s:I, s:I, s:I}", "model", v[i].model,
			    "generated", (json_int_t)v[i].generated, "passed",
			    (json_int_t)v[i].passed, "tasks",
			    (json_int_t)v[i].tasks, "pass@1", v[i].tasks > 0 ?
			    json_real(v[i].pass1) : json_null(),
			    "pass@k", v[i].k > 0 ? json_pack("{s:i, s:f}", "k",
			    v[i].k, "value", v[i].passk) : json_null(),
			    "repairs", rr, "prompt_tokens",
			    (json_int_t)v[i].prompt_tokens,
			    "completion_tokens",
			    (json_int_t)v[i].completion_tokens, "requests",
			    (json_int_t)v[i].requests, "latency_ms",
			    (json_int_t)v[i].latency_ms);
			line = json_dumps(o, JSON_COMPACT);
			printf("%s\n", line);
			free(line);
			json_decref(o);
		}
		gen_stats_release(v, n);
		return 0;
	}
	if (under)
		printf("\n");
	if (n == 0) {
		printf("no candidate was made by a model (assay generate,"
		    " assay repair)\n");
		gen_stats_release(v, n);
		return 0;
	}
	printf("%-20s %9s %6s %7s %12s", "model", "generated", "pass",
	    "pass@1", "pass@k");
	for (int r = 0; r < rounds; r++)
		printf(" %8s%d", "repair r", r + 1);
	printf(" %10s %10s %9s\n", "tokens in", "tokens out", "s/request");
	for (size_t i = 0; i < n; i++) {
		char pk[32], cell[32];

		if (v[i].k > 0)
			snprintf(pk, sizeof pk, "%.3f (k=%d)", v[i].passk,
			    v[i].k);
		else
			snprintf(pk, sizeof pk, "-");
		char p1[16];

		if (v[i].tasks > 0)
			snprintf(p1, sizeof p1, "%.3f", v[i].pass1);
		else
			snprintf(p1, sizeof p1, "-");	/* repairs only */
		printf("%-20.20s %9zu %6zu %7s %12s", v[i].model,
		    v[i].generated, v[i].passed, p1, pk);
		for (int r = 0; r < rounds; r++) {
			round_cell(&v[i], r, cell, sizeof cell);
			printf(" %9s", cell);
		}
		printf(" %10lld %10lld %9.2f\n", (long long)v[i].prompt_tokens,
		    (long long)v[i].completion_tokens, v[i].requests > 0 ?
		    (double)v[i].latency_ms / 1000.0 / (double)v[i].requests :
		    0);
	}
	gen_stats_release(v, n);
	return 0;
}
