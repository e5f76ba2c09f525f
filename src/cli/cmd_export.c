/*
 * cmd_export.c - `assay export`: export candidates (sft, raw, shards).
 * Moved from cli.c.
 */
#include "cli/cli_shared.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/err.h"
#include "base/file.h"
#include "curate/split.h"
#include "exchange/export.h"
#include "store/store.h"

/* The signal that stopped an export, 0 while none did. */
static volatile sig_atomic_t export_stop;

static void
export_on_signal(int sig)
{
	export_stop = sig;
}

static const struct cmd_opt export_opts[] = {
	{ "where", 0, CMD_VALUE, 'w' },
	{ "format", 0, CMD_VALUE, 'f' },
	{ "output", 'o', CMD_VALUE, 'o' },
	{ "trajectory", 0, CMD_VALUE, 't' },
	{ "include-failing", 0, CMD_FLAG, 'F' },
	{ "shards", 0, CMD_VALUE, 'N' },
	{ "split", 0, CMD_VALUE, 'S' },
	{ "keep-dups", 0, CMD_FLAG, 'D' },
	{ "keep-contaminated", 0, CMD_FLAG, 'C' },
	{ "for", 0, CMD_VALUE, 'T' },
	{ NULL, 0, CMD_FLAG, 0 }
};

static int
cmd_export(struct cmd_ctx *ctx, struct cmd_args *a, struct err *err)
{
	const struct cli_global *g = ctx->front;
	const char *val = NULL;
	struct split_spec spec;
	struct export_opts opts = { EXPORT_SFT, NULL, &export_stop,
	    EXPORT_TRAJ_WHOLE, 0 };
	long shards = 0;
	struct export_report rep;
	struct sigaction sa, old_int, old_term;
	struct buf where = BUF_INIT;
	const char *out = NULL;
	struct store *st;
	int ch, rc, have_for = 0, to_dir = 0;

	while ((ch = cmd_next(a, &val)) != -1) {
		if (ch == 'w') {
			cli_where_add(&where, val);
		} else if (ch == 'f') {
			if (export_format_parse(val, &opts.format, err) < 0) {
				buf_release(&where);
				return cli_usage_error("export", "%s", err->msg);
			}
		} else if (ch == 'o') {
			out = strcmp(val, "-") == 0 ? NULL : val;
		} else if (ch == 't') {
			if (export_trajectory_parse(val, &opts.trajectory,
			    err) < 0) {
				buf_release(&where);
				return cli_usage_error("export", "%s", err->msg);
			}
		} else if (ch == 'T') {
			if (export_target_parse(val, &opts.target, err) < 0) {
				buf_release(&where);
				return cli_usage_error("export", "%s", err->msg);
			}
			have_for = 1;
		} else if (ch == 'F') {
			opts.include_failing = 1;
		} else if (ch == 'N') {
			if (cli_parse_seconds(val, 1, 100000, &shards) < 0) {
				buf_release(&where);
				return cli_usage_error("export", "--shards wants"
				    " 1..100000, not '%s'", val);
			}
		} else if (ch == 'D') {
			opts.keep_dups = 1;
		} else if (ch == 'C') {
			opts.keep_contaminated = 1;
		} else if (ch == 'S') {
			if (split_parse(val, &spec, err) < 0) {
				buf_release(&where);
				return cli_usage_error("export", "%s", err->msg);
			}
			opts.split = &spec;
		}
	}
	if (shards > 0 && (opts.format != EXPORT_RAW || out == NULL)) {
		buf_release(&where);
		return cli_usage_error("export", "--shards wants --format raw and"
		    " -o DIR%s", "");
	}
	/* -o DIR/ (or an existing folder): a dataset folder with its card */
	if (out != NULL && shards == 0 && (file_is_dir(out) ||
	    out[strlen(out) - 1] == '/'))
		to_dir = 1;
	if (have_for && opts.format != EXPORT_SFT) {
		buf_release(&where);
		return cli_usage_error("export", "--for shapes sft rows, not"
		    " --format raw%s", "");
	}
	if (to_dir && opts.format != EXPORT_SFT) {
		buf_release(&where);
		return cli_usage_error("export", "-o DIR writes a dataset"
		    " folder of sft rows; --format raw takes -o FILE (or"
		    " --shards N -o DIR)%s", "");
	}
	/* Failing rows never share a stream with the ones to learn. */
	if (opts.include_failing && opts.format == EXPORT_SFT && out == NULL) {
		buf_release(&where);
		return cli_usage_error("export", "--include-failing writes the"
		    " failing rows to a file of their own: give -o FILE (they"
		    " go to FILE's .failing.jsonl) or -o DIR/ (config"
		    " failing)%s", "");
	}
	if (opts.target == EXPORT_FOR_LLAMAFACTORY && !to_dir) {
		buf_release(&where);
		return cli_usage_error("export", "--for llamafactory writes a"
		    " folder with its dataset_info.json: give -o DIR/%s", "");
	}
	if (cli_open_store(g, &st) < 0) {
		buf_release(&where);
		return 2;
	}
	opts.where = WHERE(where);
	if (shards > 0) {
		struct export_slice *v;

		rc = export_shards(st, &opts, out, (unsigned)shards, &v, err);
		buf_release(&where);
		store_close(st);
		if (rc < 0) {
			fprintf(stderr, "assay export: %s\n", err->msg);
			return 2;
		}
		for (long i = 0; i < shards; i++)
			printf("%s/%s: %zu task%s, %zu candidate%s\n", out,
			    v[i].file, v[i].tasks, v[i].tasks == 1 ? "" : "s",
			    v[i].candidates, v[i].candidates == 1 ? "" : "s");
		printf("%s/manifest.json: %ld slices\n", out, shards);
		free(v);
		return 0;
	}
	/* Stop between two lines on ^C or kill, so that the temporary file
	 * is removed and no truncated output is left under FILE's name. */
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = export_on_signal;
	sigemptyset(&sa.sa_mask);
	export_stop = 0;
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	if (to_dir)
		rc = export_dir(st, &opts, out, &rep, err);
	else if (out != NULL)
		rc = export_file(st, &opts, out, &rep, err);
	else
		rc = export_stream(st, &opts, stdout, &rep, err);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	buf_release(&where);
	store_close(st);
	if (rc < 0) {
		fprintf(stderr, "assay export: %s%s\n", err->msg, out != NULL ?
		    "; nothing written" : "");
		if (export_stop != 0) {
			/* Die of the signal, as the caller asked. */
			signal((int)export_stop, SIG_DFL);
			raise((int)export_stop);
		}
		return 2;
	}
	/* rep.lines counts the failing rows too: each file its own. */
	if (out != NULL)
		printf("exported %zu line%s (%s%s%s) to %s%s\n", rep.lines -
		    rep.failing, rep.lines - rep.failing == 1 ? "" : "s",
		    opts.format == EXPORT_RAW ?
		    "raw" : "sft", have_for ? " for " : "", have_for ?
		    export_target_name(opts.target) : "", out, !to_dir ? "" :
		    opts.target == EXPORT_FOR_LLAMAFACTORY ? " (a dataset"
		    " folder: README.md, data/, dataset_info.json,"
		    " llamafactory_args.yaml)" :
		    " (a dataset folder: README.md, data/)");
	if (rep.failing > 0) {
		size_t n = strlen(out);
		char *fp;

		while (n > 1 && out[n - 1] == '/')
			n--;
		fp = to_dir ? xasprintf("%.*s/failing/", (int)n, out) :
		    export_failing_path(out);

		printf("and %zu failing line%s to %s (never with the rows"
		    " to learn)\n", rep.failing, rep.failing == 1 ? "" : "s",
		    fp);
		free(fp);
	}
	for (size_t i = 0; opts.split != NULL && i < opts.split->n; i++)
		fprintf(stderr, "%s%s %zu", i == 0 ? "assay export: tasks by"
		    " split: " : ", ", opts.split->name[i], rep.split[i]);
	if (opts.split != NULL)
		fprintf(stderr, "\n");
	if (rep.dups > 0)
		fprintf(stderr, "assay export: dropped %zu near-duplicate%s"
		    " (one of each cluster of assay dedup is kept;"
		    " --keep-dups writes them)\n", rep.dups, rep.dups == 1 ?
		    "" : "s");
	if (rep.contaminated > 0)
		fprintf(stderr, "assay export: left out %zu contaminated"
		    " sample%s (assay contamination; --keep-contaminated"
		    " writes them)\n", rep.contaminated, rep.contaminated == 1 ?
		    "" : "s");
	if (rep.unverified > 0)
		fprintf(stderr, "assay export: left out %zu candidate%s without"
		    " a passing verdict (--include-failing writes them)\n",
		    rep.unverified, rep.unverified == 1 ? "" : "s");
	return 0;
}

const struct cmd_entry cli_cmd_export = {
	"export", NULL, export_opts, 0, 0,
	"export [--where FILTER] [--format sft|raw] [-o FILE|-o DIR/]\n"
	  "              [--for assay|openai|trl|llamafactory|incoder]\n"
	  "              [--trajectory whole|last] [--include-failing]\n"
	  "              [--split NAME=SHARE,...] [--keep-dups]"
	  " [--keep-contaminated]\n"
	  "              [--format raw --shards N -o DIR]",
	  "Write samples as JSONL, one object per line (default sft, to stdout).\n"
	  "  sft   chat messages for SFT trainers: direct, repair (failed code,\n"
	  "        toolchain feedback, repaired code) and optimization samples,\n"
	  "        each with a meta object; only accepted candidates unless\n"
	  "        FILTER has a status predicate (status!=rejected, ...), and\n"
	  "        only those with a passing verdict (with its speedup where\n"
	  "        the env judges speed) unless --include-failing.  A repair\n"
	  "        holds its whole chain of failed ancestors, each failed turn\n"
	  "        with \"weight\": 0 and the row with only_last_turn_loss;\n"
	  "        --trajectory last keeps only the direct parent.  Every\n"
	  "        row has the same keys, absent values null.\n"
	  "--for TARGET shapes sft rows for a trainer, each learning only\n"
	  "the final code: openai (messages, weight on assistant turns),\n"
	  "trl (prompt/completion: the failed attempts and feedback in the\n"
	  "prompt), llamafactory (-o DIR/ with dataset_info.json and\n"
	  "mask_history), incoder (only_last_turn_loss); assay, the default,\n"
	  "carries every mask.\n"
	  "-o DIR/ (or an existing folder) writes a dataset folder:\n"
	  "data/<split>.jsonl, README.md whose front matter (licence,\n"
	  "configs, features) load_dataset(DIR) reads.  --include-failing\n"
	  "rows go apart: DIR/failing/ (config failing) or FILE's\n"
	  ".failing.jsonl; never to stdout.\n"
	  "sft leaves out the near-duplicates assay dedup marked (one of each\n"
	  "cluster stays; --keep-dups) and the samples assay contamination\n"
	  "flagged (--keep-contaminated), and says how many.\n"
	  "--split train=0.9,valid=0.05,test=0.05 first gives every task\n"
	  "without a hand-set split the split a stable hash of its id falls\n"
	  "in (as assay split --ratios); meta.split says each row's.\n"
	  "  raw   the assay JSONL, every candidate (or FILTER's) with its task,\n"
	  "        recorded results, labels, review and unknown fields, parents\n"
	  "        first: assay import reads it back whole\n"
	  "Several --where add up.  -o FILE is written to a temporary file and\n"
	  "renamed when complete; an interrupted export leaves FILE as it was.\n"
	  "--shards N (raw, -o DIR): N slices DIR/slice-NNNN.jsonl partitioned\n"
	  "by task (a task's reference and candidates together), each one\n"
	  "importable alone, and DIR/manifest.json (files, counts, sha256,\n"
	  "filter), for verify --input on a cluster (docs/cluster.md).",
	CMD_CLI, cmd_export
};
