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
#include <sys/wait.h>
#include <unistd.h>

#include <jansson.h>

#include "base/atomic.h"
#include "base/buf.h"
#include "base/err.h"
#include "base/hash.h"
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
 * The sbatch command line that submits script (in dir) with its
 * argument arg (NULL: none): --parsable, --requeue (a task on a node
 * that fails goes back to the queue) with its log appended to, the
 * --sbatch-arg values (which may override those), then opt (--job-name,
 * --array, --dependency).  The one text both the real run and --dry-run
 * use.
 */
static void
sbatch_cmd(struct buf *b, const struct buf *extra, const char *opt,
    const char *dir, const char *script, const char *arg)
{
	char *path = xasprintf("%s/%s", dir, script);

	buf_reset(b);
	buf_printf(b, "sbatch --parsable --requeue --open-mode=append%s %s ",
	    buf_str(extra), opt);
	buf_add_quoted(b, path);
	if (arg != NULL)
		buf_printf(b, " %s", arg);
	free(path);
}

/* Run cmd (sh -c): 0 when it exits 0. */
static int
shell_ok(const char *cmd)
{
	int st = system(cmd);

	return st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

/*
 * The cluster's MaxArraySize (`scontrol show config`): an array index
 * must be below it.  Slurm's default, 1001, when scontrol does not say.
 */
static long
max_array_size(void)
{
	FILE *p = popen("scontrol show config 2>/dev/null", "r");
	char line[512];
	long v = 1001, n;

	if (p == NULL)
		return v;
	while (fgets(line, sizeof line, p) != NULL)
		if (sscanf(line, "MaxArraySize = %ld", &n) == 1 && n > 0)
			v = n;
	pclose(p);
	return v;
}

/* What squeue says is queued for this campaign. */
struct queued {
	unsigned char	*slice;		/* per slice: a task of it is queued */
	long		*arrays;	/* array job ids with a queued task */
	size_t		 narrays;
	long		 merge;		/* a pending merge job, or -1 */
	long		 merge_running;	/* a merge job running, or -1 */
};

static void
queued_array(struct queued *q, long id)
{
	for (size_t i = 0; i < q->narrays; i++)
		if (q->arrays[i] == id)
			return;
	q->arrays = xreallocarray(q->arrays, q->narrays + 1,
	    sizeof *q->arrays);
	q->arrays[q->narrays++] = id;
}

/*
 * The jobs of this campaign (their names hold tag) that squeue lists as
 * waiting or running: verify tasks ("assay-verify-TAG-BASE", slice BASE
 * plus the task's index) and merge jobs ("assay-merge-TAG").  0, or -1
 * when squeue cannot be asked (printed): submitting blind could run a
 * slice twice.
 */
static int
queue_read(const char *tag, size_t nslices, struct queued *q)
{
	FILE *p = popen("squeue --me --noheader --array --states="
	    "PENDING,RUNNING,CONFIGURING,SUSPENDED,REQUEUED,REQUEUE_HOLD,"
	    "RESIZING --format='%F|%K|%j|%T' 2>&1", "r");
	char line[1024], verify[96], merge[96];
	int rc;

	q->slice = xcalloc(nslices + 1, 1);
	q->merge = q->merge_running = -1;
	if (p == NULL) {
		fprintf(stderr, "assay slurm: cannot run squeue: %s\n",
		    strerror(errno));
		return -1;
	}
	snprintf(verify, sizeof verify, "assay-verify-%s-", tag);
	snprintf(merge, sizeof merge, "assay-merge-%s", tag);
	while (fgets(line, sizeof line, p) != NULL) {
		char *f[4], *save = NULL, *t = line;
		long job, idx, base;
		int k = 0;

		line[strcspn(line, "\n")] = '\0';
		while (k < 4 && (f[k] = strtok_r(t, "|", &save)) != NULL) {
			t = NULL;
			k++;
		}
		if (k < 4)
			continue;
		job = strtol(f[0], NULL, 10);
		if (strcmp(f[2], merge) == 0) {
			if (strcmp(f[3], "RUNNING") == 0)
				q->merge_running = job;
			else
				q->merge = job;
		} else if (strncmp(f[2], verify, strlen(verify)) == 0) {
			base = strtol(f[2] + strlen(verify), NULL, 10);
			idx = strtol(f[1], NULL, 10);
			if (base >= 0 && idx >= 0 && (size_t)(base + idx) <
			    nslices)
				q->slice[base + idx] = 1;
			queued_array(q, job);
		}
	}
	rc = pclose(p);
	if (rc != 0) {
		fprintf(stderr, "assay slurm: squeue failed (exit %d): cannot"
		    " see which slices are queued already; nothing"
		    " submitted\n", WIFEXITED(rc) ? WEXITSTATUS(rc) : -1);
		return -1;
	}
	return 0;
}

static void
queued_release(struct queued *q)
{
	free(q->slice);
	free(q->arrays);
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
	{ "throttle", 0, CMD_VALUE, 'T' },
	{ NULL, 0, CMD_FLAG, 0 }
};

/*
 * The verify and merge scripts, written afresh each time (atomically).
 * 0 or -1 (printed).
 */
static int
write_scripts(const char *dir, const char *self, const char *db, long jobs,
    long timeout_s, struct err *err)
{
	struct buf script = BUF_INIT;
	char *path;
	int rc;

	buf_adds(&script, "#!/bin/sh\n# Written by assay slurm: verifies slice"
	    " $1 + $SLURM_ARRAY_TASK_ID of the\n# shards in this directory, in"
	    " a scratch database on the node.\n#SBATCH"
	    " --job-name=\"assay-verify\"\n");
	sbatch_output(&script, dir, "/logs/verify-%A_%a.out");
	buf_printf(&script, "#SBATCH --cpus-per-task=\"%ld\"\nset -eu\n"
	    "i=$(printf %%04d $((${1:-0} + SLURM_ARRAY_TASK_ID)))\n"
	    "echo \"assay slurm: slice $i on $(hostname)\"\nexec ", jobs);
	buf_add_quoted(&script, self);
	buf_adds(&script, " verify --input ");
	buf_add_quoted(&script, dir);
	buf_adds(&script, "/slice-$i.jsonl --results ");
	buf_add_quoted(&script, dir);
	buf_printf(&script, "/results/slice-$i.jsonl --jobs %ld", jobs);
	if (timeout_s > 0)
		buf_printf(&script, " --timeout %ld", timeout_s);
	buf_adds(&script, " --json\n");
	path = xasprintf("%s/verify.sbatch", dir);
	rc = atomic_write(path, buf_str(&script), err);
	free(path);
	if (rc == 0) {
		buf_reset(&script);
		buf_adds(&script, "#!/bin/sh\n# Written by assay slurm: folds the"
		    " results of every complete slice\n# into the database and"
		    " says which are missing; runs after the\n# arrays ended,"
		    " however they ended (--dependency=afterany).\n#SBATCH"
		    " --job-name=\"assay-merge\"\n");
		sbatch_output(&script, dir, "/logs/merge-%j.out");
		buf_adds(&script, "set -eu\nexec ");
		buf_add_quoted(&script, self);
		buf_adds(&script, " --db ");
		buf_add_quoted(&script, db);
		buf_adds(&script, " merge --json --shards ");
		buf_add_quoted(&script, dir);
		buf_adds(&script, "\n");
		path = xasprintf("%s/merge.sbatch", dir);
		rc = atomic_write(path, buf_str(&script), err);
		free(path);
	}
	if (rc < 0)
		fprintf(stderr, "assay slurm: %s\n", err->msg);
	buf_release(&script);
	return rc;
}

/* mkdir DIR/name unless it is there.  0 or -1 (printed). */
static int
make_subdir(const char *dir, const char *name)
{
	char *path = xasprintf("%s/%s", dir, name);
	int rc = 0;

	if (mkdir(path, 0777) < 0 && errno != EEXIST) {
		fprintf(stderr, "assay slurm: %s: %s\n", path, strerror(errno));
		rc = -1;
	}
	free(path);
	return rc;
}

static int
cmd_slurm(struct cmd_ctx *ctx, struct cmd_args *a, struct err *err)
{
	const struct cli_global *g = ctx->front;
	const char *val = NULL;
	struct buf extra = BUF_INIT, cmd = BUF_INIT, list = BUF_INIT;
	struct buf dep = BUF_INIT, out = BUF_INIT;
	struct queued q = { 0 };
	long jobs = 1, timeout_s = 0, throttle = 0, maxarr, merge_id = -1;
	long first_id = -1;
	char self[4096], *dir = NULL, *db = NULL, *path = NULL, *opt = NULL;
	char tag[HASH_HEX_LEN + 1];
	unsigned *todo = NULL;
	size_t ntodo = 0, nslices, nqueued = 0, i, narrays = 0;
	int ch, dry = 0, rc = 2;
	json_t *man = NULL, *v;
	ssize_t n;

	while ((ch = cmd_next(a, &val)) != -1) {
		if (ch == 'j' && cli_parse_seconds(val, 1, 256, &jobs) == 0)
			continue;
		if (ch == 't' && cli_parse_seconds(val, 1, 86400,
		    &timeout_s) == 0)
			continue;
		if (ch == 'T' && cli_parse_seconds(val, 1, 100000,
		    &throttle) == 0)
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
			    " 1..256%s" : ch == 'T' ? "--throttle wants 1..100000"
			    " tasks at once%s" : "--timeout wants whole seconds,"
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
	/* The campaign's jobs are named by its directory: a second
	 * assay slurm finds them in the queue. */
	hash_sha256(dir, strlen(dir), tag);
	tag[12] = '\0';
	nslices = json_array_size(json_object_get(man, "slices"));
	if (queue_read(tag, nslices, &q) < 0)
		goto out;
	json_array_foreach(json_object_get(man, "slices"), i, v) {
		const char *file = json_string_value(json_object_get(v, "file"));
		char *marker;

		if (file == NULL) {
			fprintf(stderr, "assay slurm: %s: slice %zu has no file\n",
			    path, i);
			goto out;
		}
		marker = xasprintf("%s/results/%s.done", dir, file);
		if (q.slice[i])
			nqueued++;
		else if (!results_marker_ok(marker,
		    json_string_value(json_object_get(v, "sha256")))) {
			todo = xreallocarray(todo, ntodo + 1, sizeof *todo);
			todo[ntodo++] = (unsigned)i;
		}
		free(marker);
	}
	if (ntodo == 0 && nqueued == 0) {
		printf("all %zu slices of %s have their completion marker;"
		    " nothing submitted\n", nslices, dir);
		if (q.merge >= 0 || q.merge_running >= 0)
			printf("(merge job %ld is queued)\n", q.merge >= 0 ?
			    q.merge : q.merge_running);
		else
			printf("(assay --db %s merge --shards %s folds them in,"
			    " again or for the first time)\n", db, dir);
		rc = 0;
		goto out;
	}
	if (ntodo == 0 && q.merge >= 0) {
		printf("nothing submitted: the %zu slice%s not complete %s"
		    " queued or running already (array job%s", nqueued,
		    nqueued == 1 ? "" : "s", nqueued == 1 ? "is" : "are",
		    q.narrays == 1 ? "" : "s");
		for (i = 0; i < q.narrays; i++)
			printf(" %ld", q.arrays[i]);
		printf("), and merge job %ld waits for them\n", q.merge);
		rc = 0;
		goto out;
	}
	if (make_subdir(dir, "results") < 0 || make_subdir(dir, "logs") < 0 ||
	    write_scripts(dir, self, db, jobs, timeout_s, err) < 0)
		goto out;
	/* One array per MaxArraySize slices (an index must be below it):
	 * the script verifies slice BASE + its index. */
	maxarr = max_array_size();
	buf_adds(&dep, "afterany");
	for (i = 0; i < q.narrays; i++)
		buf_printf(&dep, ":%ld", q.arrays[i]);
	for (size_t k = 0; k < ntodo; ) {
		unsigned base = todo[k] - todo[k] % (unsigned)maxarr;
		unsigned idx[1024];
		size_t m = 0, e = k;
		char arg[16];
		long id;

		buf_reset(&list);
		/* The slices of this base, their indexes from 0. */
		while (e < ntodo && todo[e] - base < (unsigned)maxarr) {
			if (m == sizeof idx / sizeof idx[0]) {
				array_ranges(&list, idx, m);
				m = 0;
			}
			idx[m++] = todo[e] - base;
			e++;
		}
		array_ranges(&list, idx, m);
		free(opt);
		opt = throttle > 0 ? xasprintf("--job-name=assay-verify-%s-%u"
		    " --array=%s%%%ld", tag, base, buf_str(&list), throttle) :
		    xasprintf("--job-name=assay-verify-%s-%u --array=%s", tag,
		    base, buf_str(&list));
		snprintf(arg, sizeof arg, "%u", base);
		sbatch_cmd(&cmd, &extra, opt, dir, "verify.sbatch", arg);
		narrays++;
		if (dry) {
			/* Exactly what would run, as a shell reads it: each
			 * array's id comes from its sbatch. */
			buf_printf(&out, "JOB%zu=$(%s) &&\n", narrays,
			    buf_str(&cmd));
			buf_printf(&dep, ":\"${JOB%zu%%%%;*}\"", narrays);
		} else if ((id = sbatch_run(buf_str(&cmd))) < 0) {
			fprintf(stderr, "assay slurm: %s failed%s\n",
			    buf_str(&cmd), narrays > 1 ? " (the arrays before"
			    " it are submitted: assay slurm again submits the"
			    " rest)" : "");
			goto out;
		} else {
			struct buf abs = BUF_INIT;

			array_ranges(&abs, &todo[k], e - k);
			buf_printf(&dep, ":%ld", id);
			buf_printf(&out, "%s%ld (slices %s)", narrays > 1 ?
			    ", " : "", id, buf_str(&abs));
			if (narrays == 1)
				first_id = id;
			buf_release(&abs);
		}
		k = e;
	}
	/* The merge runs after the arrays however they end, so that a
	 * failed task cannot leave it pending forever; it merges the
	 * complete slices and names the others.  A merge already pending
	 * waits for the new arrays too. */
	if (q.merge >= 0) {
		free(opt);
		opt = xasprintf("scontrol update JobId=%ld Dependency=%s",
		    q.merge, buf_str(&dep));
		if (dry)
			buf_printf(&out, "%s\n", opt);
		else if (shell_ok(opt) == 0)
			merge_id = q.merge;
	}
	if (merge_id < 0 && !(dry && q.merge >= 0)) {
		free(opt);
		opt = xasprintf("--job-name=assay-merge-%s"
		    " --kill-on-invalid-dep=yes --dependency=%s", tag,
		    buf_str(&dep));
		sbatch_cmd(&cmd, &extra, opt, dir, "merge.sbatch", NULL);
		if (dry) {
			buf_printf(&out, "%s\n", buf_str(&cmd));
		} else if ((merge_id = sbatch_run(buf_str(&cmd))) < 0) {
			fprintf(stderr, "assay slurm: %s failed (the arrays are"
			    " submitted: merge by hand, assay --db %s merge"
			    " --shards %s)\n", buf_str(&cmd), db, dir);
			goto out;
		}
	}
	if (dry)
		fputs(buf_str(&out), stdout);
	else if (ntodo == 0)
		printf("submitted merge job %ld after the %zu slice%s queued"
		    " already\n", merge_id, nqueued, nqueued == 1 ? "" : "s");
	else {
		buf_reset(&list);
		array_ranges(&list, todo, ntodo);
		if (narrays == 1)
			printf("submitted array job %ld over %zu of %zu slices"
			    " (%s)", first_id, ntodo, nslices, buf_str(&list));
		else
			printf("submitted array jobs %s over %zu of %zu slices",
			    buf_str(&out), ntodo, nslices);
		printf(" and merge job %ld after %s%s\n", merge_id,
		    narrays == 1 ? "it" : "them", nqueued > 0 ? " and the"
		    " slices queued already" : "");
	}
	rc = 0;
out:
	json_decref(man);
	queued_release(&q);
	buf_release(&extra);
	buf_release(&cmd);
	buf_release(&list);
	buf_release(&dep);
	buf_release(&out);
	free(todo);
	free(opt);
	free(path);
	free(dir);
	free(db);
	return rc;
}

const struct cmd_entry cli_cmd_slurm = {
	"slurm", NULL, slurm_opts, 1, 1,
	"slurm [--jobs N] [--timeout S] [--throttle N] [--sbatch-arg ARG]..."
	  " [--dry-run] DIR",
	  "Verify the shards in DIR (export --format raw --shards N -o DIR) on\n"
	  "a Slurm cluster: writes DIR/verify.sbatch, a job array of one task\n"
	  "per slice (verify --input, each in a scratch database, logs in\n"
	  "DIR/logs/verify-JOB_TASK.out, results and stats in DIR/results),\n"
	  "and DIR/merge.sbatch (merge --shards DIR into --db), then submits\n"
	  "the slices neither complete nor queued already, as arrays of at\n"
	  "most the cluster's MaxArraySize tasks (--requeue: a node that fails\n"
	  "sends its tasks back to the queue), and one merge job after them\n"
	  "however they end (--dependency=afterany): it merges the complete\n"
	  "slices and names the missing ones.  The jobs are named by DIR, so\n"
	  "that submitting again submits nothing that squeue shows queued or\n"
	  "running, and nothing when every slice is complete.\n"
	  "  --jobs N          candidates at a time in each task (and its\n"
	  "                    --cpus-per-task), default 1\n"
	  "  --timeout S       verify --timeout for every run\n"
	  "  --throttle N      at most N tasks of each array at once (%N)\n"
	  "  --sbatch-arg ARG  pass ARG to every sbatch call (--partition=gpu)\n"
	  "  --dry-run         write the scripts, print the sbatch commands as\n"
	  "                    shell text that makes exactly those calls\n"
	  "Paths and values with control characters are refused; #SBATCH\n"
	  "values are quoted.  The manifest's results key must be in --db (a\n"
	  "manifest from before keys gets one).  See docs/cluster.md.",
	CMD_CLI, cmd_slurm
};
