/*
 * cmd_repair.c - `assay repair`: repairs of failed candidates, by a
 * person (--file) or a model.  Moved from cli.c.
 */
#include "cli/cli_shared.h"
#include "cli/model_loop.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "app/config.h"
#include "app/decide.h"
#include "base/buf.h"
#include "base/err.h"
#include "base/hash.h"
#include "base/textsafe.h"
#include "generate/generate.h"
#include "generate/model.h"
#include "store/store.h"
#include "model/vocab.h"

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

/*
 * A model's answer c to a repair request, stored by the decision layer's
 * one rule for a repair (decide_repair_make()): the model's name its
 * origin, the person running the loop (g->by) the journal's who.
 */
static int
store_model_repair(struct gen_ctx *g, struct candidate *c, int *inserted,
    struct err *err)
{
	struct decide_repair_in in = { c->parent, c->code, c->code_len,
	    c->origin, c->source, c->extra };
	struct decide_repair r;
	int rc;

	rc = decide_repair_make(g->st, &in, g->by, &r, err);
	if (rc == 0) {
		free(c->id);
		c->id = xstrdup(r.id);
		*inserted = r.inserted;
		decide_repair_release(&r);
	}
	return rc;
}

/* A person's repair of id from a file: stored, journalled, verified. */
static int
repair_by_hand(const struct cli_global *g, struct loop_opts *o,
    const char *arg)
{
	struct decide_repair rep = { 0 };
	struct store *st;
	struct err err;
	char *id, *by = NULL, *code = NULL, *source;
	size_t len = 0;
	int rc = 2;

	if (cli_open_store(g, &st) < 0)
		return 2;
	id = cli_resolve(st, arg);
	if (id == NULL) {
		store_close(st);
		return 2;
	}
	code = read_all(o->file, &len, &err);
	if (code == NULL) {
		fprintf(stderr, "assay repair: %s\n", err.msg);
		goto out;
	}
	if ((by = cli_reviewer(g)) == NULL)
		goto out;
	source = xasprintf("repair of %s from %s", id, strcmp(o->file, "-") ==
	    0 ? "stdin" : o->file);
	rc = decide_repair(st, id, code, len, by, source, &rep, &err);
	free(source);
	if (rc < 0) {
		fprintf(stderr, "assay repair: %s: %s\n", strcmp(o->file, "-") ==
		    0 ? "stdin" : o->file, err.msg);
		rc = 2;
		goto out;
	}
	printf("%s %s repair of %s by %s\n", rep.id, rep.inserted ? "new" :
	    "already there:", id, by);
	rc = 0;
out:
	store_close(st);
	if (rc == 0 && o->verify_hand) {
		char *ids[1] = { rep.id };

		rc = cli_verify_ids(g, ids, 1, 1, 0) == 2 ? 2 : 0;
	}
	decide_repair_release(&rep);
	free(code);
	free(by);
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
	return verdict_failed(verdict);
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
	    !verdict_is(rv, VERDICT_PASS))
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
		char *v = loop_verdict_of(p->st, leaf);

		own = repairable(v);
		free(v);
	}
	if (own)
		loop_idset_add(p->leaves, leaf);
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

static int
cmd_repair(struct cmd_ctx *ctx, struct cmd_args *a, struct err *err)
{
	const struct cli_global *g = ctx->front;
	struct loop_opts o;
	struct store *st = NULL;
	struct idset leaves = { 0 };
	struct gen_report total = { 0 };
	char name[128], *by = NULL;
	json_t *rounds = NULL;
	size_t ncand = 0;
	int rc;

	if ((rc = loop_parse("repair", a, &o)) != 0)
		goto done;
	rc = 2;
	if (o.file != NULL) {
		if (a->npos != 1 || o.have_where || o.have_rounds) {
			cli_usage_error("repair", "--file takes one candidate"
			    " ID%s", "");
			goto done;
		}
		rc = repair_by_hand(g, &o, a->pos[0]);
		goto done;
	}
	if (a->npos > 0 && o.have_where) {
		cli_usage_error("repair", "give IDs or --where, not both%s",
		    "");
		goto done;
	}
	if (o.have_samples) {
		cli_usage_error("repair", "--samples is an option of generate%s",
		    "");
		goto done;
	}
	if (model_cfg_check(&o.cfg, err) < 0) {
		fprintf(stderr, "assay repair: %s\n", err->msg);
		goto done;
	}
	if (cli_open_store(g, &st) < 0)
		goto done;
	{
		struct pick p = { st, model_name(&o.cfg, name, sizeof name),
		    &leaves, err, 0 };

		if (a->npos > 0) {
			if (loop_each_id(st, a->npos, a->pos, pick_one,
			    &p) < 0) {
				if (p.failed)
					fprintf(stderr, "assay repair: %s\n",
					    err->msg);
				goto done;
			}
		} else if (store_query_each(st, o.have_where ?
		    buf_str(&o.where) : NULL, pick_one, &p, err) < 0 ||
		    p.failed) {
			fprintf(stderr, "assay repair: %s\n", err->msg);
			goto done;
		}
	}
	if (leaves.n == 0) {
		if (o.json)
			loop_print_object(json_pack("{s:s, s:i, s:[]}", "command",
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
		struct gen_ctx gc = { st, &o.cfg, by, o.jobs,
		    o.json ? NULL : loop_progress, "repair",
		    store_model_repair };
		struct idset next = { 0 };

		if (st == NULL && cli_open_store(g, &st) < 0) {
			rc = 2;
			break;
		}
		gc.st = st;
		if (o.show)
			show_requests(st, &leaves, model_name(&o.cfg, name,
			    sizeof name));
		if (gen_repair(&gc, leaves.v, leaves.n, &rep, err) < 0) {
			fprintf(stderr, "assay repair: %s\n", err->msg);
			gen_report_release(&rep);
			rc = 2;
			break;
		}
		if (o.show)
			show_answers(st, &rep);
		loop_print_summary("repair", &rep, o.json, round);
		if (rep.failed > 0)
			rc = 1;
		total.asked += rep.asked;
		total.added += rep.added;
		store_close(st);
		st = NULL;
		if (o.verify && rep.nids > 0 && loop_verify_quietly(g, rep.ids,
		    rep.nids, o.jobs, o.json) == 2) {
			gen_report_release(&rep);
			rc = 2;
			break;
		}
		json_array_append_new(rounds, loop_summary_json(&rep, round,
		    o.verify ? loop_count_pass(g, rep.ids, rep.nids) : -1));
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
			char *v = rep.is_new[i] ? loop_verdict_of(st, rep.ids[i]) :
			    NULL;

			if (repairable(v))
				loop_idset_add(&next, rep.ids[i]);
			free(v);
		}
		gen_report_release(&rep);
		loop_idset_release(&leaves);
		leaves = next;
	}
done:
	if (st != NULL)
		store_close(st);
	if (o.json && rounds != NULL)
		loop_print_object(json_pack("{s:s, s:I, s:I, s:I, s:o}", "command",
		    "repair", "candidates", (json_int_t)ncand, "asked",
		    (json_int_t)total.asked, "added", (json_int_t)total.added,
		    "rounds", rounds));
	else
		json_decref(rounds);
	loop_idset_release(&leaves);
	gen_report_release(&total);
	free(by);
	loop_release(&o);
	return rc;
}

const struct cmd_entry cli_cmd_repair = {
	"repair", NULL, loop_spec, 0, CMD_MANY,
	"repair ID --file FILE|- [--verify]\n"
    "       assay repair [--where FILTER | ID...] [--rounds R] [generator"
    " options]"
    "\n             [--jobs N] [--no-verify] [--json] [--show]",
"With ID and --file: add the code in FILE (- for stdin) as a repair\n"
    "of candidate ID: kind repair, parent ID, origin the reviewer, the\n"
    "task and language of ID; journalled as the reviewer's.  Prints the\n"
    "new id (the same code again adds nothing); --verify runs it at\n"
    "once (else assay verify ID does).\n"
    "Without: ask the model for a repair of every failed candidate\n"
    "FILTER matches, or of the IDs given (verdict fail or timeout; a\n"
    "candidate whose task's reference does not pass is left alone: its\n"
    "failure is not its own).  The model sees the conversation so far:\n"
    "the task, each code of the chain and the toolchain's feedback on\n"
    "it, as the SFT export writes a trajectory.  Each answer is stored\n"
    "as a repair (parent the failed candidate, origin the model) and\n"
    "verified; one that fails again is sent back, until it passes or R\n"
    "rounds (--rounds, default 1) are spent.  A chain this model\n"
    "already repaired goes on from its newest repair.  Generator\n"
    "options as for generate.  --show prints the feedback each request\n"
    "ends with and each answer (the workbench's R runs this in the\n"
    "toolchain pane).  Exit status 1 when a request failed.",
	CMD_CLI, cmd_repair
};
