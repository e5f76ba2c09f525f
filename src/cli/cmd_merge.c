/*
 * cmd_merge.c - `assay merge`: fold run results files into the database.
 * Moved from cli.c.
 */
#include "cli/cli_shared.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/err.h"
#include "exchange/results.h"
#include "store/store.h"
#include "verify/verify.h"

#define MERGE_BATCH 500

struct merge_ctx {
	struct store	*st;
	struct cli_summary	 sum;
	struct vsvc_tally	 pending;	/* runs of the open batch */
	size_t		 npending, lines;
	int		 tty, status;
	struct results_key	 key;		/* the last key found, or "" */
};

/*
 * "FILE:LINE: why" on stderr, the whole message made terminal-safe: a
 * file name, an id or a value quoted from a line cannot drive the
 * terminal (docs/security.md).
 */
static void
merge_say(const char *file, size_t lineno, const char *why)
{
	char *f = cli_vis(file, NULL), *w = cli_vis(why, NULL);

	fprintf(stderr, "%s:%zu: %s\n", f, lineno, w);
	free(f);
	free(w);
}

static void
merge_refuse(struct merge_ctx *m, const char *file, size_t lineno,
    const char *why)
{
	merge_say(file, lineno, why);
	m->sum.refused++;
	m->status = 2;
}

/*
 * Is the line authenticated under a key of this database?  0, or 1 with
 * why; -1 on a store error (err).
 */
static int
merge_mac(struct merge_ctx *m, const char *line, size_t len, char *why,
    size_t n, struct err *err)
{
	char id[STORE_KEY_ID + 1];
	struct err e;
	int rc;

	if (results_line_key(line, len, id, &e) < 0) {
		snprintf(why, n, "%s", e.msg);
		return 1;
	}
	if (strcmp(id, m->key.id) != 0) {
		rc = store_results_key_get(m->st, id, m->key.key, err);
		if (rc < 0)
			return -1;
		if (rc > 0) {
			m->key.id[0] = '\0';
			snprintf(why, n, "unknown results key %s: the line was"
			    " not made by a verify of this database or of"
			    " shards it exported (merge it into that one)",
			    id);
			return 1;
		}
		memcpy(m->key.id, id, sizeof id);
	}
	if (results_line_check(line, len, &m->key, &e) < 0) {
		snprintf(why, n, "%s", e.msg);
		return 1;
	}
	return 0;
}

/* Commit the open batch; its runs count once it is in. */
static int
merge_flush(struct merge_ctx *m)
{
	struct err err;

	if (m->npending == 0)
		return 0;
	if (store_commit(m->st, &err) < 0) {
		fprintf(stderr, "assay merge: %s; %zu run%s not stored\n",
		    err.msg, m->npending, m->npending == 1 ? "" : "s");
		store_rollback(m->st);
		m->sum.not_stored += m->npending;
	} else {
		struct vsvc_tally *t = &m->sum.tally, *p = &m->pending;

		m->sum.done += m->npending;
		t->pass += p->pass;
		t->fail += p->fail;
		t->timeout += p->timeout;
		t->skipped += p->skipped;
		t->env_error += p->env_error;
		t->task_defect += p->task_defect;
		t->other += p->other;
	}
	memset(&m->pending, 0, sizeof m->pending);
	m->npending = 0;
	return 0;
}

/*
 * Why the run r (of task task_id, timeout override tmo) does not belong
 * to this database, into why; 0 when it does.  -1 on a store error.
 */
static int
merge_check(struct store *st, const struct run *r, const char *task_id,
    int tmo, char *why, size_t n, struct err *err)
{
	struct candidate c;
	struct task t;
	char key[SAMPLE_HASH_HEX];
	int rc = store_candidate_get(st, r->cand_id, &c, err);

	if (rc < 0)
		return -1;
	if (rc > 0) {
		snprintf(why, n, "foreign: no candidate %s in this database",
		    r->cand_id);
		return 1;
	}
	if (strcmp(c.task_id, task_id) != 0) {
		/* The message is made safe as a whole (merge_say). */
		snprintf(why, n, "foreign: candidate %s is of task %s here,"
		    " the run says %s", r->cand_id, c.task_id, task_id);
		candidate_release(&c);
		return 1;
	}
	rc = store_task_get(st, c.task_id, &t, err);
	if (rc != 0) {
		candidate_release(&c);
		return rc < 0 ? -1 : err_set(err, "no task %s", c.task_id);
	}
	rc = 0;
	if (r->input_key[0] != '\0') {
		verify_input_key_tool(&t, &c, tmo, r->toolchain != NULL ?
		    r->toolchain : "", key);
		if (strcmp(key, r->input_key) != 0) {
			snprintf(why, n, "stale: the inputs of %s (code, task"
			    " files, env, toolchain or timeout) are not those"
			    " the run was made with", r->cand_id);
			rc = 1;
		}
	}
	task_release(&t);
	candidate_release(&c);
	return rc;
}

/*
 * One line of f into b (its newline kept), at most max bytes: a longer
 * one is read to its end and dropped, with *over set.  0 at the end of
 * the file, else 1.
 */
static int
read_line(FILE *f, struct buf *b, size_t max, int *over)
{
	int c, any = 0;

	buf_reset(b);
	*over = 0;
	while ((c = getc_unlocked(f)) != EOF) {
		any = 1;
		if (b->len < max)
			buf_addc(b, (char)c);
		else
			*over = 1;
		if (c == '\n')
			break;
	}
	return any;
}

static void
merge_line(struct merge_ctx *m, const char *file, size_t lineno,
    const char *line, size_t len)
{
	struct run r;
	struct err err;
	char *task = NULL, why[ERR_MSG_MAX + 32];
	int tmo = 0, stored, rc, exists;

	/* Nothing in the line is believed before its MAC. */
	rc = merge_mac(m, line, len, why, sizeof why, &err);
	if (rc != 0) {
		if (rc > 0) {
			merge_refuse(m, file, lineno, why);
		} else {
			merge_say(file, lineno, err.msg);
			m->sum.not_stored++;
		}
		return;
	}
	if (results_parse(line, len, &r, &task, &tmo, &stored, &err) < 0) {
		merge_refuse(m, file, lineno, err.msg);
		return;
	}
	if (r.log_len > VERIFY_OUTPUT_CAP) {
		snprintf(why, sizeof why, "a log of %zu bytes, over verify's"
		    " cap of %u", r.log_len, VERIFY_OUTPUT_CAP);
		merge_refuse(m, file, lineno, why);
		run_release(&r);
		free(task);
		return;
	}
	rc = merge_check(m->st, &r, task, tmo, why, sizeof why, &err);
	if (rc == 0)
		rc = store_run_exists(m->st, &r, &exists, &err) < 0 ? -1 :
		    exists ? 2 : 0;
	if (rc == 1) {
		merge_refuse(m, file, lineno, why);
	} else if (rc == 2) {
		m->sum.unchanged++;
		vsvc_tally_add(&m->sum.tally, r.verdict);
	} else if (rc < 0) {
		merge_say(file, lineno, err.msg);
		m->sum.not_stored++;
	} else if (m->npending == 0 && store_begin(m->st, &err) < 0) {
		snprintf(why, sizeof why, "not stored: %s", err.msg);
		merge_say(file, lineno, why);
		m->sum.not_stored++;
	} else if (store_run_insert(m->st, &r, 2, &err) < 0) {
		/* Inside the batch: the whole batch goes back. */
		snprintf(why, sizeof why, "not stored: %s", err.msg);
		merge_say(file, lineno, why);
		store_rollback(m->st);
		m->sum.not_stored += m->npending + 1;
		memset(&m->pending, 0, sizeof m->pending);
		m->npending = 0;
	} else {
		m->npending++;
		vsvc_tally_add(&m->pending, r.verdict);
		if (m->npending >= MERGE_BATCH)
			merge_flush(m);
	}
	run_release(&r);
	free(task);
}

/* Merge the results file path.  0, or -1 when it cannot be read
 * (said, and the status set). */
static int
merge_file(struct merge_ctx *m, const char *path)
{
	FILE *f = fopen(path, "r");
	struct buf line = BUF_INIT;
	size_t lineno = 0;
	int over;

	if (f == NULL) {
		char *vis = cli_vis(path, NULL);

		fprintf(stderr, "assay merge: %s: %s\n", vis, strerror(errno));
		free(vis);
		m->status = 2;
		return -1;
	}
	while (read_line(f, &line, RESULTS_LINE_MAX, &over) > 0) {
		lineno++;
		m->lines++;
		if (over) {
			merge_refuse(m, path, lineno, "a line over 128 MiB,"
			    " longer than any verify writes");
			continue;
		}
		if (line.len == 1 && line.p[0] == '\n')
			continue;
		merge_line(m, path, lineno, line.p, line.len);
		if (m->tty && m->lines % 1000 == 0)
			fprintf(stderr, "\rmerge: %zu lines, %zu runs stored,"
			    " %zu already there ", m->lines, m->sum.done +
			    m->npending, m->sum.unchanged);
	}
	buf_release(&line);
	fclose(f);
	return 0;
}

/* What merge --shards found: the complete slices merged, the others. */
struct shards {
	size_t	 nslices, merged, nostats;
	json_t	*missing;	/* indexes of slices without their marker */
	json_t	*stats;		/* the merged slices' stats, summed */
};

/*
 * merge --shards DIR: the results of every slice of DIR's manifest whose
 * completion marker is there (and says the manifest's slice), their
 * stats files summed; the others listed as missing.  0, or -1 when the
 * manifest cannot be read (said).
 */
static int
merge_shards(struct merge_ctx *m, const char *dir, struct shards *sh)
{
	char *path = xasprintf("%s/manifest.json", dir);
	json_t *man = json_load_file(path, 0, NULL), *v;
	struct err err;
	size_t i;

	sh->missing = json_array();
	sh->stats = json_object();
	if (!json_is_array(json_object_get(man, "slices"))) {
		char *vis = cli_vis(path, NULL);

		fprintf(stderr, "assay merge: %s: no manifest of export"
		    " --shards\n", vis);
		free(vis);
		free(path);
		json_decref(man);
		m->status = 2;
		return -1;
	}
	json_array_foreach(json_object_get(man, "slices"), i, v) {
		const char *file = json_string_value(json_object_get(v, "file"));
		const char *sha = json_string_value(json_object_get(v,
		    "sha256"));
		char *res, *marker, *stats;

		sh->nslices++;
		if (file == NULL || strchr(file, '/') != NULL) {
			json_array_append_new(sh->missing, json_integer(
			    (json_int_t)i));
			continue;
		}
		res = xasprintf("%s/results/%s", dir, file);
		marker = results_marker_path(res);
		stats = results_stats_path(res);
		if (!results_marker_ok(marker, sha)) {
			json_array_append_new(sh->missing, json_integer(
			    (json_int_t)i));
		} else if (merge_file(m, res) == 0) {
			sh->merged++;
			if (access(stats, F_OK) != 0)
				sh->nostats++;
			else if (results_stats_sum(sh->stats, stats,
			    &err) < 0) {
				char *vis = cli_vis(err.msg, NULL);

				fprintf(stderr, "assay merge: %s\n", vis);
				free(vis);
				sh->nostats++;
			}
		}
		free(res);
		free(marker);
		free(stats);
	}
	free(path);
	json_decref(man);
	return 0;
}

/* The shards' report after merge's summary line (without --json). */
static void
shards_print(const char *dir, const struct shards *sh)
{
	json_t *st = sh->stats, *envs = json_object_get(st, "envs"), *e;
	const char *name;
	size_t i, nmiss = json_array_size(sh->missing);
	char *vis = cli_vis(dir, NULL);

	printf("slices: %zu of %zu merged", sh->merged, sh->nslices);
	if (nmiss > 0) {
		json_t *x;

		printf("; missing %zu:", nmiss);
		json_array_foreach(sh->missing, i, x)
			printf("%s %lld", i > 0 ? "," : "",
			    (long long)json_integer_value(x));
		printf(" (no completion marker: assay slurm %s runs them"
		    " again)", vis);
	}
	printf("\n");
	free(vis);
	if (sh->merged == sh->nostats)
		return;
	printf("slice stats: %lld candidates, %lld runs, %.1f s of tasks"
	    " (%.1f s CPU) on %zu host%s\n",
	    (long long)json_integer_value(json_object_get(st, "candidates")),
	    (long long)json_integer_value(json_object_get(st, "runs")),
	    json_number_value(json_object_get(st, "wall_s")),
	    json_number_value(json_object_get(st, "cpu_s")),
	    json_array_size(json_object_get(st, "hosts")),
	    json_array_size(json_object_get(st, "hosts")) == 1 ? "" : "s");
	json_object_foreach(envs, name, e) {
		json_t *tc = json_object_get(e, "toolchains"), *n;
		const char *id;
		char *ve = cli_vis(name, NULL);

		printf("  %s: %lld runs, %.1f s", ve, (long long)
		    json_integer_value(json_object_get(e, "runs")),
		    (double)json_integer_value(json_object_get(e, "wall_ms")) /
		    1000.0);
		json_object_foreach(tc, id, n) {
			char *vt = cli_vis(id, NULL);

			printf("; %s (%lld)", vt, (long long)
			    json_integer_value(n));
			free(vt);
		}
		printf("\n");
		free(ve);
	}
	if (sh->nostats > 0)
		printf("  (%zu merged slice%s had no stats file)\n",
		    sh->nostats, sh->nostats == 1 ? "" : "s");
}

/* An env verified with more than one toolchain across the slices: the
 * nodes differ, and so may their verdicts.  Said on stderr. */
static void
shards_warn(const struct shards *sh)
{
	json_t *e;
	const char *name;

	json_object_foreach(json_object_get(sh->stats, "envs"), name, e) {
		size_t k = json_object_size(json_object_get(e, "toolchains"));
		char *ve;

		if (k <= 1)
			continue;
		ve = cli_vis(name, NULL);
		fprintf(stderr, "assay merge: env %s ran with %zu toolchains"
		    " across the slices (the nodes differ; see the stats)\n",
		    ve, k);
		free(ve);
	}
}

static const struct cmd_opt merge_opts[] = {
	{ "json", 0, CMD_FLAG, 'J' },
	{ "lock-timeout", 0, CMD_VALUE, 'L' },
	{ "shards", 0, CMD_VALUE, 'S' },
	{ NULL, 0, CMD_FLAG, 0 }
};

static int
cmd_merge(struct cmd_ctx *ctx, struct cmd_args *a, struct err *err)
{
	const struct cli_global *g = ctx->front;
	const char *val = NULL, *dir = NULL;
	struct merge_ctx m = { .sum = { .command = "merge" } };
	struct shards sh = { 0 };
	long lock_s = 60;
	int ch, json = 0, rc;

	(void)err;
	while ((ch = cmd_next(a, &val)) != -1) {
		if (ch == 'J')
			json = 1;
		else if (ch == 'S')
			dir = val;
		else if (ch == 'L' && cli_parse_seconds(val, 0, 86400,
		    &lock_s) == 0)
			continue;
		else
			return cli_usage_error("merge", "--lock-timeout wants"
			    " whole seconds, 0..86400%s", "");
	}
	if ((dir != NULL) == (a->npos > 0))
		return cli_usage_error("merge", "give RESULTS files or --shards"
		    " DIR%s", dir != NULL ? ", not both" : "");
	if (cli_open_store(g, &m.st) < 0)
		return 2;
	store_lock_timeout(m.st, (int)lock_s * 1000);
	m.tty = isatty(STDERR_FILENO);
	if (dir != NULL)
		merge_shards(&m, dir, &sh);
	for (int i = 0; i < a->npos; i++)
		merge_file(&m, a->pos[i]);
	merge_flush(&m);
	if (m.tty && m.lines >= 1000)
		fprintf(stderr, "\n");
	if (dir != NULL) {
		m.sum.more = json_pack("{s:I, s:I, s:O, s:O}", "slices",
		    (json_int_t)sh.nslices, "merged_slices",
		    (json_int_t)sh.merged, "missing", sh.missing, "stats",
		    sh.stats);
		shards_warn(&sh);
	}
	cli_summary_print(&m.sum, json);
	if (dir != NULL && !json)
		shards_print(dir, &sh);
	store_close(m.st);
	rc = m.sum.not_stored > 0 ? 3 : m.status != 0 ? m.status :
	    json_array_size(sh.missing) > 0 ? 1 : 0;
	json_decref(m.sum.more);
	json_decref(sh.missing);
	json_decref(sh.stats);
	return rc;
}

const struct cmd_entry cli_cmd_merge = {
	"merge", NULL, merge_opts, 0, CMD_MANY,
	"merge [--json] [--lock-timeout S] RESULTS... | --shards DIR",
	  "Fold run results files (verify --results; docs/formats.md) into the\n"
	  "database.  A line without a MAC under a key of this database (its\n"
	  "own, or that of shards it exported), or with a wrong one, is\n"
	  "refused before anything in it is read.  A run whose candidate is\n"
	  "not here, belongs to another\n"
	  "task, or was made on other inputs (its input key differs) is\n"
	  "refused with FILE:LINE and the reason; the rest merge.  A run that\n"
	  "is already here is not added again, so merging twice adds nothing.\n"
	  "Runs are stored in batches of 500, with progress on a terminal;\n"
	  "the summary is verify's, \"unchanged\" counting the runs already\n"
	  "here.  A merged run becomes its candidate's latest unless a run\n"
	  "that started later is here.\n"
	  "  --shards DIR  merge the results of every slice of export --shards\n"
	  "                DIR that has its completion marker, sum their stats\n"
	  "                files (runs, verdicts, time, toolchains per env) and\n"
	  "                list the slices still missing (what assay slurm's\n"
	  "                merge job runs)\n"
	  "Exit status: 0; 1 when --shards found slices without their marker\n"
	  "(the rest are merged); 2 when lines were refused or a file could\n"
	  "not be read; 3 when runs could not be stored.",
	CMD_CLI, cmd_merge
};
