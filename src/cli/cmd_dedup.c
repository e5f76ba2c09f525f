/*
 * cmd_dedup.c - `assay dedup`: find and mark duplicate samples.  Moved
 * from cli.c.
 */
#include "cli/cli_shared.h"

#include <errno.h>
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
	{ "shingles", 0, CMD_VALUE, 's' },
	{ "pairs", 0, CMD_VALUE, 'p' },
	{ "quiet", 'q', CMD_FLAG, 'q' },
	{ NULL, 0, CMD_FLAG, 0 }
};

static int
cmd_dedup(struct cmd_ctx *ctx, struct cmd_args *a, struct err *err)
{
	const struct cli_global *g = ctx->front;
	const char *val = NULL;
	struct dedup_opts o = { NULL, 0.8, 0, 0, NULL, NULL };
	struct dedup_report rep;
	struct buf where = BUF_INIT;
	struct store *st;
	const char *shingles = NULL, *pairs = NULL;
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
		} else if (ch == 's') {
			shingles = val;
		} else if (ch == 'p') {
			pairs = val;
		}
	}
	if ((shingles != NULL && (o.shingles = fopen(shingles, "w")) ==
	    NULL) || (pairs != NULL && (o.pairs = fopen(pairs, "w")) ==
	    NULL)) {
		fprintf(stderr, "assay dedup: %s: %s\n", o.shingles == NULL &&
		    shingles != NULL ? shingles : pairs, strerror(errno));
		if (o.shingles != NULL)
			fclose(o.shingles);
		buf_release(&where);
		return 2;
	}
	if (cli_open_store(g, &st) < 0) {
		rc = -1;
		goto out;
	}
	o.where = WHERE(where);
	rc = dedup_run(st, &o, &rep, err);
	store_close(st);
	if (rc < 0)
		fprintf(stderr, "assay dedup: %s\n", err->msg);
out:
	buf_release(&where);
	if ((o.shingles != NULL && fclose(o.shingles) != 0) ||
	    (o.pairs != NULL && fclose(o.pairs) != 0)) {
		fprintf(stderr, "assay dedup: cannot write %s\n", shingles !=
		    NULL ? shingles : pairs);
		if (rc == 0)
			dedup_report_release(&rep);
		return 2;
	}
	if (rc < 0)
		return 2;
	if (o.exact_only)
		printf("compared %zu samples, exact copies only\n",
		    rep.samples);
	else
		printf("compared %zu samples (MinHash %d, LSH %zu bands x %zu"
		    " rows, %zu pairs compared, Jaccard threshold %.2f)\n",
		    rep.samples, DEDUP_PERM, rep.bands, rep.rows,
		    rep.compared, o.threshold);
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
	  " [--dry-run] [--quiet] [--shingles FILE] [--pairs FILE]",
	  "Find exact and near-duplicate samples and mark them (the dup=\n"
	  "filter; sft export keeps one of each cluster).  Code is compared\n"
	  "without whitespace and comments (its tree-sitter grammar where one\n"
	  "is linked in): equal is an exact copy; near copies share shingles\n"
	  "of 5 tokens (names numbered within each shingle) with a Jaccard\n"
	  "similarity of at least J (default 0.8), within and across tasks:\n"
	  "MinHash with LSH finds the pairs to compare, their shingle sets\n"
	  "decide.  Each cluster keeps the passing, then accepted, then\n"
	  "longest repair trajectory, then earliest sample.  Prints the\n"
	  "clusters (--quiet: the summary only); the marks of the previous run\n"
	  "are replaced (--dry-run stores nothing).  --shingles and --pairs\n"
	  "write each sample's shingle set and the pairs joined, to check\n"
	  "against brute force (bench/dedup-recall.sh).",
	CMD_CLI, cmd_dedup
};
