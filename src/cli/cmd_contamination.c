/*
 * cmd_contamination.c - `assay contamination`: flag candidates that copy
 * a benchmark.  Moved from cli.c.
 */
#include "cli/cli_shared.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/err.h"
#include "exchange/contam.h"
#include "store/store.h"

static const struct cmd_opt contamination_opts[] = {
	{ "against", 0, CMD_VALUE, 'a' },
	{ "where", 0, CMD_VALUE, 'w' },
	{ "ngram", 0, CMD_VALUE, 'n' },
	{ "min", 0, CMD_VALUE, 'm' },
	{ "quiet", 'q', CMD_FLAG, 'q' },
	{ NULL, 0, CMD_FLAG, 0 }
};

static int
cmd_contamination(struct cmd_ctx *ctx, struct cmd_args *a, struct err *err)
{
	const struct cli_global *g = ctx->front;
	const char *val = NULL;
	struct contam_opts o = { NULL, 0, NULL, 13, 1 };
	struct contam_report rep;
	struct buf where = BUF_INIT;
	const char **against = NULL;
	size_t nagainst = 0;
	struct store *st;
	char *end;
	long v;
	int ch, quiet = 0, rc;

	while ((ch = cmd_next(a, &val)) != -1) {
		if (ch == 'a') {
			against = xreallocarray(against, nagainst + 1,
			    sizeof *against);
			against[nagainst++] = val;
		} else if (ch == 'w') {
			cli_where_add(&where, val);
		} else if (ch == 'n' || ch == 'm') {
			v = strtol(val, &end, 10);
			if (*end != '\0' || v < 1 || v > 100) {
				free(against);
				buf_release(&where);
				return cli_usage_error("contamination", "bad number"
				    " '%s' (1 to 100)", val);
			}
			if (ch == 'n')
				o.ngram = (int)v;
			else
				o.min_shared = (size_t)v;
		} else if (ch == 'q') {
			quiet = 1;
		}
	}
	/* --against A B C: the words after it are benchmarks too */
	for (int i = 0; i < a->npos; i++) {
		against = xreallocarray(against, nagainst + 1,
		    sizeof *against);
		against[nagainst++] = a->pos[i];
	}
	if (nagainst == 0) {
		buf_release(&where);
		return cli_usage_error("contamination", "want --against"
		    " BENCHMARK...%s", "");
	}
	if (cli_open_store(g, &st) < 0) {
		free(against);
		buf_release(&where);
		return 2;
	}
	o.against = against;
	o.nagainst = nagainst;
	o.where = WHERE(where);
	rc = contam_run(st, &o, &rep, err);
	buf_release(&where);
	store_close(st);
	if (rc < 0) {
		fprintf(stderr, "assay contamination: %s\n", err->msg);
		free(against);
		return 2;
	}
	for (size_t i = 0; !quiet && i < rep.nhits; i++)
		printf("%s shares %zu %d-gram%s with %s (%s)\n",
		    rep.hits[i].cand_id, rep.hits[i].ngrams, o.ngram,
		    rep.hits[i].ngrams == 1 ? "" : "s", rep.hits[i].benchmark,
		    rep.hits[i].task);
	printf("checked %zu samples against %zu benchmark%s (%zu tasks or"
	    " files, %zu distinct %d-grams): %zu flagged\n", rep.samples,
	    nagainst, nagainst == 1 ? "" : "s", rep.docs, rep.grams, o.ngram,
	    rep.flagged);
	contam_report_release(&rep);
	free(against);
	return 0;
}

const struct cmd_entry cli_cmd_contamination = {
	"contamination", NULL, contamination_opts, 0, CMD_MANY,
	"contamination --against BENCHMARK... [--where"
	  " FILTER] [--ngram N]\n              [--min K] [--quiet]",
	  "Flag the samples whose code or task spec shares word N-grams\n"
	  "(default 13) with a benchmark's tasks: an imported benchmark by name\n"
	  "(its specs, interfaces, files and references) or a directory or\n"
	  "file (a .jsonl line by line).  Words are letters, digits and _,\n"
	  "case folded.  A sample sharing K (default 1) or more is flagged\n"
	  "(the contaminated= filter); sft export leaves flagged samples out\n"
	  "unless --keep-contaminated.  A benchmark's own candidates are not\n"
	  "checked against it; the marks against the benchmarks named are\n"
	  "replaced.",
	CMD_CLI, cmd_contamination
};
