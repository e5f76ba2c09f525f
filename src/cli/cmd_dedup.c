/*
 * cmd_dedup.c - `assay dedup`: find and mark duplicate samples.  Moved
 * from cli.c.
 */
#include "cli/cli_shared.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/err.h"
#include "curate/dedup.h"
#include "store/store.h"

static const struct cmd_opt dedup_opts[] = {
	{ "where", 0, CMD_VALUE, 'w' },
	{ "threshold", 0, CMD_VALUE, 't' },
	{ "exact-only", 0, CMD_FLAG, 'e' },
	{ "dry-run", 0, CMD_FLAG, 'n' },
	{ "quiet", 'q', CMD_FLAG, 'q' },
	{ NULL, 0, CMD_FLAG, 0 }
};

static int
cmd_dedup(struct cmd_ctx *ctx, struct cmd_args *a, struct err *err)
{
	const struct cli_global *g = ctx->front;
	const char *val = NULL;
	struct dedup_opts o = { NULL, 0.8, 0, 0 };
	struct dedup_report rep;
	struct buf where = BUF_INIT;
	struct store *st;
	char *end;
	int ch, quiet = 0, rc;

	while ((ch = cmd_next(a, &val)) != -1) {
		if (ch == 'w') {
			cli_where_add(&where, val);
		} else if (ch == 't') {
			o.threshold = strtod(val, &end);
			if (*end != '\0' || !(o.threshold > 0) ||
			    o.threshold > 1) {
				buf_release(&where);
				return cli_usage_error("dedup", "bad threshold '%s':"
				    " want a Jaccard similarity above 0, at most"
				    " 1", val);
			}
		} else if (ch == 'e') {
			o.exact_only = 1;
		} else if (ch == 'n') {
			o.dry_run = 1;
		} else if (ch == 'q') {
			quiet = 1;
		}
	}
	if (cli_open_store(g, &st) < 0) {
		buf_release(&where);
		return 2;
	}
	o.where = WHERE(where);
	rc = dedup_run(st, &o, &rep, err);
	buf_release(&where);
	store_close(st);
	if (rc < 0) {
		fprintf(stderr, "assay dedup: %s\n", err->msg);
		return 2;
	}
	if (o.exact_only)
		printf("compared %zu samples, exact copies only\n",
		    rep.samples);
	else
		printf("compared %zu samples (MinHash %d, LSH %zu bands x %zu"
		    " rows, Jaccard threshold %.2f)\n", rep.samples,
		    DEDUP_PERM, rep.bands, rep.rows, o.threshold);
	for (size_t i = 0; !quiet && i < rep.clusters; i++) {
		const struct dedup_cluster *c = &rep.v[i];

		printf("cluster %s (%zu): %s kept", c->ids[0], c->n,
		    c->ids[0]);
		for (size_t k = 1; k < c->n; k++)
			if (c->exact[k])
				printf(", %s exact", c->ids[k]);
			else
				printf(", %s %.2f", c->ids[k],
				    c->similarity[k]);
		printf("\n");
	}
	printf("%zu cluster%s; %zu duplicate%s to drop (%zu exact, %zu"
	    " near)%s\n", rep.clusters, rep.clusters == 1 ? "" : "s",
	    rep.exact_dups + rep.near_dups, rep.exact_dups + rep.near_dups ==
	    1 ? "" : "s", rep.exact_dups, rep.near_dups, o.dry_run ?
	    "; nothing stored (--dry-run)" : "");
	dedup_report_release(&rep);
	return 0;
}

const struct cmd_entry cli_cmd_dedup = {
	"dedup", NULL, dedup_opts, 0, 0,
	"dedup [--where FILTER] [--threshold J] [--exact-only]"
	  " [--dry-run] [--quiet]",
	  "Find exact and near-duplicate samples and mark them (the dup=\n"
	  "filter; sft export keeps one of each cluster).  Code is compared\n"
	  "without whitespace and comments (its tree-sitter grammar where one\n"
	  "is linked in): equal is an exact copy; near copies are found by\n"
	  "MinHash with LSH over shingles of 5 tokens, within and across\n"
	  "tasks, at Jaccard similarity J (default 0.8).  Each cluster keeps\n"
	  "the passing, then accepted, then earliest sample.  Prints the\n"
	  "clusters (--quiet: the summary only); the marks of the previous run\n"
	  "are replaced (--dry-run stores nothing).",
	CMD_CLI, cmd_dedup
};
