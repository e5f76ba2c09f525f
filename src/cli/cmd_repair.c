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
#include "decide/decide.h"
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
	if (o->verify_hand) {
		char *ids[1] = { rep.id };

		rc = cli_verify_ids(st, ids, 1, 1, 0);
	}
out:
	store_close(st);
	decide_repair_release(&rep);
	free(code);
	free(by);
	free(id);
	return rc;
}

/* What to repair: the leaves of the failed candidates' chains. */
struct pick {
	struct store	*st;
	const char	*origin;
	struct idset	*leaves;
	struct err	*err;
	int		 failed;
};

static int
pick_one(const struct store_row *row, void *arg)
{
	struct pick *p = arg;
	char *leaf;

	if (gen_repair_leaf(p->st, p->origin, row, &leaf, p->err) < 0) {
		p->failed = 1;
		return 1;
	}
	if (leaf != NULL)
		loop_idset_add(p->leaves, leaf);
	free(leaf);
	return 0;
}

static int
cmd_repair(struct cmd_ctx *ctx, struct cmd_args *a, struct err *err)
{
	const struct cli_global *g = ctx->front;
	struct loop_opts o;
	struct store *st = NULL;
	struct idset leaves = { 0 };
	char name[128], *by = NULL;
	json_t *rounds = NULL;
	size_t ncand = 0;
	struct gen_report total = { 0 };
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
	if (o.have_samples || loop_strategy_opt(&o) != NULL) {
		cli_usage_error("repair", "%s is an option of generate or"
		    " optimize", o.have_samples ? "--samples" :
		    loop_strategy_opt(&o));
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
	{
		struct gen_ctx gc = { st, &o.cfg, by };

		rc = loop_run(st, &gc, GLOOP_REPAIR, "repair", &o, leaves.v,
		    leaves.n, rounds, &total);
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
