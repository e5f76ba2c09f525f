/*
 * cmd_slurm.c - `assay slurm`: verify export shards on a Slurm cluster.
 * Moved from cli.c.
 */
#include "cli/cli_shared.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "base/atomic.h"
#include "base/buf.h"
#include "base/err.h"
#include "base/textsafe.h"
#include "exchange/results.h"
#include "store/store.h"

/* "0-2,5,7-8" from the sorted indexes v[0..n). */
static void
array_ranges(struct buf *b, const unsigned *v, size_t n)
{
	for (size_t i = 0; i < n; ) {
		size_t k = i;

		while (k + 1 < n && v[k + 1] == v[k] + 1)
			k++;
		if (b->len > 0)
			buf_addc(b, ',');
		if (k > i)
			buf_printf(b, "%u-%u", v[i], v[k]);
		else
			buf_printf(b, "%u", v[i]);
		i = k + 1;
	}
}

/*
 * May the path or value s go into a job script or an sbatch command
 * line?  Not with anything the terminal-safe text would escape (control
 * characters, a newline above all: it ends an #SBATCH line and starts a
 * shell command on the node; C1 controls, direction overrides, invalid
 * UTF-8).  what names it in the message.  0, or -1 (printed).
 */
static int
script_safe(const char *what, const char *s)
{
	struct buf b = BUF_INIT;
	int rc = 0;

	if (safe_text(&b, s, strlen(s), 0) > 0) {
		buf_adds(&b, "");
		fprintf(stderr, "assay slurm: %s '%s' holds control characters"
		    " or invalid UTF-8 (shown escaped); it cannot go into a job"
		    " script\n", what, buf_str(&b));
		rc = -1;
	}
	buf_release(&b);
	return rc;
}

/*
 * "--output=VALUE" for an #SBATCH line: VALUE in double quotes, '"' and
 * '\\' escaped with a backslash (sbatch's reading of a quoted #SBATCH
 * value: a backslash escapes the next character, quotes may be single
 * or double, an unquoted '#' starts a comment), '%' doubled (sbatch's
 * filename pattern: "%%" is a '%'); then pattern, which holds the
 * replacement symbols.  The directory may not hold a backslash (in a
 * pattern it turns every replacement symbol off) nor the words sbatch
 * reads as a heterogeneous job's separator: dir_check().
 */
static void
sbatch_output(struct buf *b, const char *dir, const char *pattern)
{
	buf_adds(b, "#SBATCH --output=\"");
	for (const char *p = dir; *p != '\0'; p++) {
		if (*p == '"' || *p == '\\')
			buf_addc(b, '\\');
		if (*p == '%')
			buf_addc(b, '%');
		buf_addc(b, *p);
	}
	buf_printf(b, "%s\"\n", pattern);
}

/* Can dir go into an #SBATCH --output value?  0 or -1 (printed). */
static int
dir_check(const char *dir)
{
	char *lower;
	int found;

	if (script_safe("the shard directory", dir) < 0)
		return -1;
	if (strchr(dir, '\\') != NULL) {
		fprintf(stderr, "assay slurm: %s: a backslash in the shard"
		    " directory's path turns off sbatch's %%A, %%a and %%j in"
		    " the log names; move it\n", dir);
		return -1;
	}
	lower = xstrdup(dir);
	for (size_t i = 0; lower[i] != '\0'; i++)
		if (lower[i] >= 'A' && lower[i] <= 'Z')
			lower[i] = (char)(lower[i] - 'A' + 'a');
	found = strstr(lower, "hetjob") != NULL || strstr(lower,
	    "packjob") != NULL;
	free(lower);
	if (found) {
		fprintf(stderr, "assay slurm: %s: sbatch reads 'hetjob' or"
		    " 'packjob' in an #SBATCH line as the separator of a"
		    " heterogeneous job; move the shard directory\n", dir);
		return -1;
	}
	return 0;
}

/*
 * The sbatch command line that submits script (in dir): --parsable, the
 * --sbatch-arg values, then opt (--array=..., --dependency=...).  The
 * one text both the real run and --dry-run use.
 */
static void
sbatch_cmd(struct buf *b, const struct buf *extra, const char *opt,
    const char *dir, const char *script)
{
	char *path = xasprintf("%s/%s", dir, script);

	buf_reset(b);
	buf_printf(b, "sbatch --parsable%s %s ", buf_str(extra), opt);
	buf_add_quoted(b, path);
	free(path);
}

/* Run cmd (sh -c) and read the job id sbatch --parsable prints. */
static long
sbatch_run(const char *cmd)
{
	char line[256];
	FILE *p = popen(cmd, "r");
	long id = -1;

	if (p == NULL)
		return -1;
	if (fgets(line, sizeof line, p) != NULL)
		id = strtol(line, NULL, 10);
	if (pclose(p) != 0)
		return -1;
	return id > 0 ? id : -1;
}

/* Is slice i done: a marker whose slice checksum is the manifest's? */
static int
slice_done(const char *marker, const char *sha)
{
	json_t *m = json_load_file(marker, 0, NULL);
	const char *have = json_string_value(json_object_get(m,
	    "slice_sha256"));
	int done = have != NULL && sha != NULL && strcmp(have, sha) == 0;

	json_decref(m);
	return done;
}

/*
 * The campaign's results key (exchange/results.h): the manifest man (at
 * path) must name one the database (g->db, whose real path is db) holds, or merge would refuse every
 * run.  A manifest of an export made before keys gets a new one, kept
 * in the database and written into the manifest (mode 0600).  0 or -1
 * (printed).
 */
static int
campaign_key(const struct cli_global *g, const char *db, json_t *man,
    const char *path, struct err *err)
{
	json_t *k = json_object_get(man, "results_key");
	struct results_key key = { "", "" };
	struct store *st;
	char *txt;
	int rc;

	if (cli_open_store(g, &st) < 0)
		return -1;
	if (k != NULL) {
		if (results_key_from_json(k, &key, err) < 0) {
			fprintf(stderr, "assay slurm: %s: %s\n", path, err->msg);
			rc = -1;
		} else if ((rc = store_results_key_get(st, key.id, key.key,
		    err)) != 0) {
			if (rc < 0)
				fprintf(stderr, "assay slurm: %s\n", err->msg);
			else
				fprintf(stderr, "assay slurm: %s: results key %s"
				    " is not in %s: these shards were exported"
				    " from another database, whose merge alone"
				    " accepts their runs\n", path, key.id, db);
			rc = -1;
		}
		store_close(st);
		return rc;
	}
	rc = store_results_key_new(st, path, key.id, key.key, err);
	store_close(st);
	if (rc < 0) {
		fprintf(stderr, "assay slurm: %s\n", err->msg);
		return -1;
	}
	json_object_set_new(man, "results_key", json_pack("{s:s, s:s}", "id",
	    key.id, "key", key.key));
	txt = json_dumps(man, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
	rc = atomic_write_mode(path, txt, 0600, err);
	free(txt);
	if (rc < 0)
		fprintf(stderr, "assay slurm: %s\n", err->msg);
	return rc;
}

static const struct cmd_opt slurm_opts[] = {
	{ "jobs", 'j', CMD_VALUE, 'j' },
	{ "timeout", 0, CMD_VALUE, 't' },
	{ "sbatch-arg", 0, CMD_VALUE, 'a' },
	{ "dry-run", 0, CMD_FLAG, 'n' },
	{ NULL, 0, CMD_FLAG, 0 }
};

static int
cmd_slurm(struct cmd_ctx *ctx, struct cmd_args *a, struct err *err)
{
	const struct cli_global *g = ctx->front;
	const char *val = NULL;
	struct buf extra = BUF_INIT, script = BUF_INIT, cmd = BUF_INIT;
	struct buf list = BUF_INIT, verify = BUF_INIT;
	long jobs = 1, timeout_s = 0, vid, mid;
	char self[4096], *dir = NULL, *db = NULL, *path = NULL, *opt = NULL;
	unsigned *todo = NULL;
	size_t ntodo = 0, nslices, i;
	int ch, dry = 0, rc = 2;
	json_t *man = NULL, *v;
	ssize_t n;

	while ((ch = cmd_next(a, &val)) != -1) {
		if (ch == 'j' && cli_parse_seconds(val, 1, 256, &jobs) == 0)
			continue;
		if (ch == 't' && cli_parse_seconds(val, 1, 86400,
		    &timeout_s) == 0)
			continue;
		if (ch == 'a') {
			if (script_safe("--sbatch-arg", val) < 0) {
				buf_release(&extra);
				return 2;
			}
			buf_addc(&extra, ' ');
			buf_add_quoted(&extra, val);
		} else if (ch == 'n') {
			dry = 1;
		} else {
			buf_release(&extra);
			return cli_usage_error("slurm", ch == 'j' ? "--jobs wants"
			    " 1..256%s" : "--timeout wants whole seconds,"
			    " 1..86400%s", "");
		}
	}
	/* Every path that goes into a script is checked before any is
	 * used, and shown escaped when refused. */
	dir = realpath(a->pos[0], NULL);
	if (dir == NULL) {
		char *vis = cli_vis(a->pos[0], NULL);

		fprintf(stderr, "assay slurm: %s: %s\n", vis, strerror(errno));
		free(vis);
		goto out;
	}
	if (dir_check(dir) < 0)
		goto out;
	path = xasprintf("%s/manifest.json", dir);
	man = json_load_file(path, 0, NULL);
	if (!json_is_array(json_object_get(man, "slices"))) {
		fprintf(stderr, "assay slurm: %s: no manifest of export"
		    " --shards\n", path);
		goto out;
	}
	if (access(g->db, F_OK) != 0 || (db = realpath(g->db, NULL)) == NULL) {
		char *vis = cli_vis(g->db, NULL);

		fprintf(stderr, "assay slurm: no database at %s (the merge job"
		    " writes into it; --db names it)\n", vis);
		free(vis);
		goto out;
	}
	n = readlink("/proc/self/exe", self, sizeof self - 1);
	if (n <= 0) {
		fprintf(stderr, "assay slurm: cannot find this program's path\n");
		goto out;
	}
	self[n] = '\0';
	if (script_safe("the database", db) < 0 ||
	    script_safe("this program's path", self) < 0)
		goto out;
	if (campaign_key(g, db, man, path, err) < 0)
		goto out;
	nslices = json_array_size(json_object_get(man, "slices"));
	json_array_foreach(json_object_get(man, "slices"), i, v) {
		const char *file = json_string_value(json_object_get(v, "file"));
		char *marker;

		if (file == NULL) {
			fprintf(stderr, "assay slurm: %s: slice %zu has no file\n",
			    path, i);
			goto out;
		}
		marker = xasprintf("%s/results/%s.done", dir, file);
		if (!slice_done(marker, json_string_value(json_object_get(v,
		    "sha256")))) {
			todo = xreallocarray(todo, ntodo + 1, sizeof *todo);
			todo[ntodo++] = (unsigned)i;
		}
		free(marker);
	}
	if (ntodo == 0) {
		printf("all %zu slices of %s have their completion marker;"
		    " nothing submitted\n(assay --db %s merge %s/results/*.jsonl"
		    " folds them in, again or for the first time)\n", nslices,
		    dir, db, dir);
		rc = 0;
		goto out;
	}
	/* The scripts, written afresh each time (atomically). */
	free(path);
	path = xasprintf("%s/results", dir);
	if (mkdir(path, 0777) < 0 && errno != EEXIST) {
		fprintf(stderr, "assay slurm: %s: %s\n", path, strerror(errno));
		goto out;
	}
	free(path);
	path = xasprintf("%s/logs", dir);
	if (mkdir(path, 0777) < 0 && errno != EEXIST) {
		fprintf(stderr, "assay slurm: %s: %s\n", path, strerror(errno));
		goto out;
	}
	buf_adds(&script, "#!/bin/sh\n# Written by assay slurm: verifies slice"
	    " $SLURM_ARRAY_TASK_ID of the\n# shards in this directory, in a"
	    " scratch database on the node.\n#SBATCH"
	    " --job-name=\"assay-verify\"\n");
	sbatch_output(&script, dir, "/logs/verify-%A_%a.out");
	buf_printf(&script, "#SBATCH --cpus-per-task=\"%ld\"\nset -eu\n"
	    "i=$(printf %%04d \"$SLURM_ARRAY_TASK_ID\")\nexec ", jobs);
	buf_add_quoted(&script, self);
	buf_adds(&script, " verify --input ");
	buf_add_quoted(&script, dir);
	buf_adds(&script, "/slice-$i.jsonl --results ");
	buf_add_quoted(&script, dir);
	buf_printf(&script, "/results/slice-$i.jsonl --jobs %ld", jobs);
	if (timeout_s > 0)
		buf_printf(&script, " --timeout %ld", timeout_s);
	buf_adds(&script, " --json\n");
	free(path);
	path = xasprintf("%s/verify.sbatch", dir);
	if (atomic_write(path, buf_str(&script), err) < 0) {
		fprintf(stderr, "assay slurm: %s\n", err->msg);
		goto out;
	}
	buf_reset(&script);
	buf_adds(&script, "#!/bin/sh\n# Written by assay slurm: folds the"
	    " results of every slice into the\n# database; runs after the"
	    " array succeeded (--dependency=afterok).\n#SBATCH"
	    " --job-name=\"assay-merge\"\n");
	sbatch_output(&script, dir, "/logs/merge-%j.out");
	buf_adds(&script, "set -eu\nexec ");
	buf_add_quoted(&script, self);
	buf_adds(&script, " --db ");
	buf_add_quoted(&script, db);
	buf_adds(&script, " merge --json ");
	buf_add_quoted(&script, dir);
	buf_adds(&script, "/results/slice-*.jsonl\n");
	free(path);
	path = xasprintf("%s/merge.sbatch", dir);
	if (atomic_write(path, buf_str(&script), err) < 0) {
		fprintf(stderr, "assay slurm: %s\n", err->msg);
		goto out;
	}
	array_ranges(&list, todo, ntodo);
	opt = xasprintf("--array=%s", buf_str(&list));
	sbatch_cmd(&verify, &extra, opt, dir, "verify.sbatch");
	if (dry) {
		/* Exactly what would run, as a shell reads it: the array's
		 * id comes from the first command. */
		sbatch_cmd(&cmd, &extra, "--dependency=afterok:\"${JOBID%%;*}\"",
		    dir, "merge.sbatch");
		printf("JOBID=$(%s) &&\n%s\n", buf_str(&verify),
		    buf_str(&cmd));
		rc = 0;
		goto out;
	}
	vid = sbatch_run(buf_str(&verify));
	if (vid < 0) {
		fprintf(stderr, "assay slurm: %s failed\n", buf_str(&verify));
		goto out;
	}
	free(opt);
	opt = xasprintf("--dependency=afterok:%ld", vid);
	sbatch_cmd(&cmd, &extra, opt, dir, "merge.sbatch");
	mid = sbatch_run(buf_str(&cmd));
	if (mid < 0) {
		fprintf(stderr, "assay slurm: %s failed (the array %ld is"
		    " submitted; scancel %ld, or merge by hand)\n",
		    buf_str(&cmd), vid, vid);
		goto out;
	}
	printf("submitted array job %ld over %zu of %zu slices (%s) and merge"
	    " job %ld after it\n", vid, ntodo, nslices, buf_str(&list), mid);
	rc = 0;
out:
	json_decref(man);
	buf_release(&extra);
	buf_release(&script);
	buf_release(&cmd);
	buf_release(&list);
	buf_release(&verify);
	free(todo);
	free(opt);
	free(path);
	free(dir);
	free(db);
	return rc;
}

const struct cmd_entry cli_cmd_slurm = {
	"slurm", NULL, slurm_opts, 1, 1,
	"slurm [--jobs N] [--timeout S] [--sbatch-arg ARG]..."
	  " [--dry-run] DIR",
	  "Verify the shards in DIR (export --format raw --shards N -o DIR) on\n"
	  "a Slurm cluster: writes DIR/verify.sbatch, a job array of one task\n"
	  "per slice (verify --input, each in a scratch database, logs in\n"
	  "DIR/logs/verify-JOB_TASK.out, results in DIR/results), and\n"
	  "DIR/merge.sbatch, which merges every results file into --db, then\n"
	  "submits the array over the slices without a completion marker and\n"
	  "the merge with --dependency=afterok on it.  Submitting again runs\n"
	  "only the slices not yet complete; nothing when all are.\n"
	  "  --jobs N          candidates at a time in each task (and its\n"
	  "                    --cpus-per-task), default 1\n"
	  "  --timeout S       verify --timeout for every run\n"
	  "  --sbatch-arg ARG  pass ARG to both sbatch calls (--partition=gpu)\n"
	  "  --dry-run         write the scripts, print the sbatch commands as\n"
	  "                    shell text that makes exactly those calls\n"
	  "Paths and values with control characters are refused; #SBATCH\n"
	  "values are quoted.  The manifest's results key must be in --db (a\n"
	  "manifest from before keys gets one).  See docs/cluster.md.",
	CMD_CLI, cmd_slurm
};
