/*
 * cmd_verify.c - `assay verify`: pick the candidates (IDs, --where,
 * --shard, a slice of --input), run them through the verify service
 * (verify/service.h: references first, claims, the input-key skip, the
 * pool, storing), keep each run in the results file, print progress and
 * the summary.
 */
#include "cli/cli_shared.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "base/atomic.h"
#include "base/buf.h"
#include "base/duration.h"
#include "base/err.h"
#include "base/secret.h"
#include "exchange/import.h"
#include "exchange/results.h"
#include "exec/sandbox.h"
#include "store/store.h"
#include "verify/pipeline.h"
#include "verify/service.h"
#include "verify/verify.h"

struct idlist {
	char	**v;
	size_t	  n;
	const char *env;
};

static int
collect_id(const struct store_row *row, void *arg)
{
	struct idlist *l = arg;

	if (l->env != NULL && (row->env == NULL || strcmp(row->env, l->env) != 0))
		return 0;
	l->v = xreallocarray(l->v, l->n + 1, sizeof *l->v);
	l->v[l->n++] = xstrdup(row->id);
	return 0;
}

/* A stable number for a candidate id (FNV-1a), for --shard. */
static unsigned long
shard_of(const char *id)
{
	unsigned long h = 2166136261u;

	for (; *id != '\0'; id++)
		h = (h ^ (unsigned char)*id) * 16777619u;
	return h & 0xffffffffu;
}

/*
 * The completion marker of verify --input: "<OUT>.done", written last,
 * saying which slice (and its sha256) the results file answers.  0 or
 * -1 (printed).
 */
static int
write_marker(const char *slice, const char *results, size_t runs,
    size_t candidates)
{
	char hex[SAMPLE_HASH_HEX], *path, *txt;
	struct err err;
	json_t *o;
	int rc;

	if (results_file_sha256(slice, hex, &err) < 0) {
		fprintf(stderr, "assay: %s\n", err.msg);
		return -1;
	}
	o = json_pack("{s:i, s:s, s:s, s:s, s:I, s:I, s:I}", "assay_run",
	    RESULTS_VERSION, "slice", slice, "slice_sha256", hex, "results",
	    results, "runs", (json_int_t)runs, "candidates",
	    (json_int_t)candidates, "finished", (json_int_t)time(NULL));
	txt = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(o);
	path = results_marker_path(results);
	rc = atomic_write(path, txt, &err);
	if (rc < 0)
		fprintf(stderr, "assay: %s\n", err.msg);
	free(txt);
	free(path);
	return rc;
}

/*
 * The slice's statistics (results.h) beside its results file, written
 * before its marker: the wall time since t0, the CPU time of this
 * process and of the toolchains it ran.  Consumes stats.  0 or -1
 * (printed).
 */
static int
write_stats(const char *slice, const char *results, json_t *stats,
    size_t candidates, long long started, struct timespec t0)
{
	char hex[SAMPLE_HASH_HEX];
	struct rusage self, kids;
	struct timespec t1;
	struct err err;
	double cpu;

	if (results_file_sha256(slice, hex, &err) < 0) {
		fprintf(stderr, "assay: %s\n", err.msg);
		json_decref(stats);
		return -1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	getrusage(RUSAGE_SELF, &self);
	getrusage(RUSAGE_CHILDREN, &kids);
	cpu = (double)(self.ru_utime.tv_sec + self.ru_stime.tv_sec +
	    kids.ru_utime.tv_sec + kids.ru_stime.tv_sec) +
	    (double)(self.ru_utime.tv_usec + self.ru_stime.tv_usec +
	    kids.ru_utime.tv_usec + kids.ru_stime.tv_usec) / 1e6;
	if (results_stats_write(results, stats, slice, hex, candidates,
	    started, (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec -
	    t0.tv_nsec) / 1e9, cpu, &err) < 0) {
		fprintf(stderr, "assay: %s\n", err.msg);
		return -1;
	}
	return 0;
}

/*
 * A slice of export --shards has its manifest.json beside it: the slice
 * must have the sha256 the manifest gives it (a slice changed or cut
 * short since the export is refused), and the manifest's results key
 * goes to *key (the runs' MACs, results.h).  0 or -1 (printed).
 */
static int
slice_check(const char *slice, struct results_key *key)
{
	const char *slash = strrchr(slice, '/');
	const char *base = slash != NULL ? slash + 1 : slice;
	char *man = slash != NULL ? xasprintf("%.*s/manifest.json",
	    (int)(slash - slice), slice) : xstrdup("manifest.json");
	char hex[SAMPLE_HASH_HEX];
	json_t *m, *v;
	struct err err;
	size_t i;
	int rc = 0;

	m = json_load_file(man, 0, NULL);
	if (m == NULL) {
		fprintf(stderr, "assay: %s: no manifest of export --shards"
		    " beside the slice (its results key is there)\n", man);
		free(man);
		return -1;
	}
	if (results_key_from_json(json_object_get(m, "results_key"), key,
	    &err) < 0) {
		fprintf(stderr, "assay: %s: no results key (%s); an export"
		    " made before runs were authenticated: run assay slurm"
		    " on it, or export the shards again\n", man, err.msg);
		json_decref(m);
		free(man);
		return -1;
	}
	json_array_foreach(json_object_get(m, "slices"), i, v) {
		const char *file = json_string_value(json_object_get(v, "file"));
		const char *sum = json_string_value(json_object_get(v,
		    "sha256"));

		if (file == NULL || sum == NULL || strcmp(file, base) != 0)
			continue;
		if (results_file_sha256(slice, hex, &err) < 0) {
			fprintf(stderr, "assay: %s\n", err.msg);
			rc = -1;
		} else if (strcmp(hex, sum) != 0) {
			fprintf(stderr, "assay: %s: sha256 %s is not the one in"
			    " %s (%s): the slice changed since the export\n",
			    slice, hex, man, sum);
			rc = -1;
		}
		break;
	}
	json_decref(m);
	free(man);
	return rc;
}

/* What a scratch directory holds; "lock" is flocked while it is used. */
static const char *const scratch_files[] = { "slice.db", "slice.db-wal",
    "slice.db-shm", "lock" };

/* The lock of the scratch directory in use (-1: none). */
static int scratch_lock = -1;

static void
scratch_remove(const char *dir)
{
	if (dir == NULL)
		return;
	for (size_t i = 0; i < sizeof scratch_files / sizeof scratch_files[0];
	    i++) {
		char *p = xasprintf("%s/%s", dir, scratch_files[i]);

		unlink(p);
		free(p);
	}
	rmdir(dir);
	if (scratch_lock >= 0)
		close(scratch_lock);
	scratch_lock = -1;
}

/*
 * Remove the scratch directories in tmp that a killed verify --input
 * left (kill -9, a node's time limit): assay-slice.XXXXXX of this user
 * whose lock no live verify holds (flock; a directory without its lock,
 * from before the lock or just being made, is left).  How many.
 */
static size_t
scratch_sweep(const char *tmp)
{
	static const char prefix[] = "assay-slice.";
	struct dirent *e;
	DIR *d = opendir(tmp);
	size_t n = 0;

	while (d != NULL && (e = readdir(d)) != NULL) {
		struct stat sb;
		char *dir, *lock;
		int fd;

		if (strncmp(e->d_name, prefix, sizeof prefix - 1) != 0 ||
		    strlen(e->d_name) != sizeof prefix - 1 + 6)
			continue;
		dir = xasprintf("%s/%s", tmp, e->d_name);
		lock = xasprintf("%s/lock", dir);
		if (lstat(dir, &sb) == 0 && S_ISDIR(sb.st_mode) &&
		    sb.st_uid == geteuid() && (fd = open(lock, O_RDONLY |
		    O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)) >= 0) {
			if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
				for (size_t i = 0; i < sizeof scratch_files /
				    sizeof scratch_files[0]; i++) {
					char *p = xasprintf("%s/%s", dir,
					    scratch_files[i]);

					unlink(p);
					free(p);
				}
				if (rmdir(dir) == 0)
					n++;
			}
			close(fd);
		}
		free(lock);
		free(dir);
	}
	if (d != NULL)
		closedir(d);
	return n;
}

/*
 * The lock of a new scratch directory: made under another name, locked,
 * then named "lock", so that a sweep never finds it unlocked.  0 or -1.
 */
static int
scratch_lock_take(const char *dir)
{
	char *tmp = xasprintf("%s/lock.new", dir), *lock = xasprintf("%s/lock",
	    dir);
	int fd = open(tmp, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);

	if (fd < 0 || flock(fd, LOCK_EX) < 0 || rename(tmp, lock) < 0) {
		fprintf(stderr, "assay: %s: %s\n", tmp, strerror(errno));
		if (fd >= 0)
			close(fd);
		unlink(tmp);
		free(tmp);
		free(lock);
		return -1;
	}
	scratch_lock = fd;
	free(tmp);
	free(lock);
	return 0;
}

/*
 * verify --input SLICE: a scratch database of its own in $TMPDIR, the
 * slice imported into it, its directory locked while in use; the ones
 * killed verifies left are swept first.  *dir is the new directory
 * (remove with scratch_remove()).  0 or -1 (printed).
 */
static int
scratch_open(const char *slice, struct store **st, char **dir,
    struct results_key *key)
{
	const char *tmp = getenv("TMPDIR");
	struct import_opts o = { .format = IMPORT_ASSAY, .by = "assay" };
	struct import_report rep;
	struct err err;
	size_t swept;
	char *db;
	int rc;

	if (slice_check(slice, key) < 0)
		return -1;
	if (tmp == NULL || *tmp == '\0')
		tmp = "/tmp";
	if ((swept = scratch_sweep(tmp)) > 0)
		fprintf(stderr, "assay: removed %zu scratch database%s that a"
		    " killed verify --input left in %s\n", swept, swept == 1 ?
		    "" : "s", tmp);
	*dir = xasprintf("%s/assay-slice.XXXXXX", tmp);
	if (mkdtemp(*dir) == NULL) {
		fprintf(stderr, "assay: %s: %s\n", *dir, strerror(errno));
		free(*dir);
		*dir = NULL;
		return -1;
	}
	if (scratch_lock_take(*dir) < 0)
		return -1;
	db = xasprintf("%s/slice.db", *dir);
	rc = store_open(st, db, &err);
	free(db);
	if (rc < 0) {
		fprintf(stderr, "assay: %s\n", err.msg);
		return -1;
	}
	import_report_init(&rep);
	rc = import_path(*st, slice, &o, &rep, &err);
	import_report_release(&rep);
	if (rc < 0) {
		fprintf(stderr, "assay: %s\nassay: %s: cannot read the slice\n",
		    err.msg, slice);
		store_close(*st);
		*st = NULL;
		return -1;
	}
	return 0;
}

/*
 * Keep a finished run in the results file: the one --results names, else
 * (only when the run could not be stored) a file of its own in the
 * working directory, opened on the first such run.
 */
static void
keep_run(struct results **w, char **fallback, const struct results_key *key,
    const struct run *r, const char *task_id, int timeout_s, int stored,
    int *status)
{
	struct err err;

	if (*w == NULL && !stored) {
		*fallback = xasprintf("assay-unstored-%lld-%ld.jsonl",
		    (long long)time(NULL), (long)getpid());
		if (results_open(w, *fallback, key, &err) < 0) {
			fprintf(stderr, "assay: %s\n", err.msg);
			free(*fallback);
			*fallback = NULL;
			*status = 2;
			return;
		}
	}
	if (*w != NULL && results_add(*w, r, task_id, timeout_s, stored,
	    &err) < 0) {
		fprintf(stderr, "assay: %s\n", err.msg);
		*status = 2;
	}
}

/* SIGTERM (Slurm's scancel and time limit) or SIGINT during verify. */
static volatile sig_atomic_t verify_stop;

static void
verify_on_signal(int sig)
{
	verify_stop = sig;
}

/* What the pool's hooks need of cmd_verify (verify/service.h). */
struct pool {
	struct results	**w;		/* --results, or the fallback */
	char		**fallback;
	const struct results_key *key;	/* of their lines */
	int		 *status;
	int		  quiet, timeout_s;
	json_t		 *stats;	/* verify --input: the slice's stats */
	int		  live;		/* a terminal: the running line */
	int		  shown;	/* it is on the screen now */
	int64_t		  last_ms;	/* the last result (mono_ms) */
};

#define VERIFY_LIVE_MS	2000	/* quiet this long: say what runs */

/*
 * On a terminal, after VERIFY_LIVE_MS without a result: what runs and
 * for how long nothing ended ("[1/31] ..." lines come only when a run
 * ends, and a 30 s simulation printed nothing for 30 s).  The next
 * result line writes over it.
 */
static void
pool_live(struct pool *p, struct vsvc *pool)
{
	struct verify_job *j;
	int64_t quiet_ms = mono_ms() - p->last_ms;

	if (!p->live || vsvc_running(pool) == 0 || quiet_ms < VERIFY_LIVE_MS)
		return;
	j = vsvc_job(pool, 0);
	fprintf(stderr, "\r\033[K  %zu running (%.8s at %s), %lld s since the"
	    " last result ", vsvc_running(pool), j != NULL ?
	    verify_job_cand(j) : "?", j != NULL && verify_job_stage(j) !=
	    NULL ? verify_job_stage(j) : "start", (long long)(quiet_ms /
	    1000));
	p->shown = 1;
}

/* A run finished: keep it in the results file, say so. */
static void
pool_finished(void *arg, const struct vsvc_result *res)
{
	struct pool *p = arg;
	const struct run *r = res->run;
	const char *kept = verify_job_workdir(res->job);

	p->last_ms = mono_ms();
	if (p->shown) {		/* over the running line */
		fputs("\r\033[K", stderr);
		p->shown = 0;
	}
	/* A busy database was waited for (--lock-timeout); a run that
	 * still could not be stored is kept in the results file and
	 * counted apart, so that the summary says what the database
	 * holds. */
	if (!res->stored)
		fprintf(stderr, "assay: %s: not stored: %s\n", r->cand_id,
		    res->error);
	keep_run(p->w, p->fallback, p->key, r, verify_job_task(res->job),
	    p->timeout_s, res->stored, p->status);
	if (p->stats != NULL)
		results_stats_run(p->stats, r);
	if (!p->quiet) {
		char line[512];

		fprintf(stderr, "%s\n", vsvc_result_line(res, line,
		    sizeof line));
	}
	if (kept != NULL && !p->quiet)
		fprintf(stderr, "  work directory kept: %s"
		    " (reproduce.sh runs it again)\n", kept);
}

/* A candidate whose latest run is current: into --results too (a verify
 * run again after an interruption wrote none of the runs the first
 * stored), and into the slice's stats. */
static void
pool_current(void *arg, const struct run *r, const char *task_id)
{
	struct pool *p = arg;
	struct err err;

	if (*p->w != NULL && results_add(*p->w, r, task_id, p->timeout_s, 1,
	    &err) < 0) {
		fprintf(stderr, "assay: %s\n", err.msg);
		*p->status = 2;
	}
	if (p->stats != NULL)
		results_stats_run(p->stats, r);
}

static void
pool_problem(void *arg, enum vsvc_problem what, const char *id,
    const char *msg)
{
	(void)arg;
	if (what == VSVC_LOAD)
		fprintf(stderr, "assay: %s: cannot load\n", id);
	else if (id != NULL)
		fprintf(stderr, "assay: %s: %s\n", id, msg);
	else
		fprintf(stderr, "assay: %s\n", msg);
}


static const struct cmd_opt verify_opts[] = {
	{ "jobs", 'j', CMD_VALUE, 'j' },
	{ "shard", 0, CMD_VALUE, 's' },
	{ "env", 0, CMD_VALUE, 'e' },
	{ "where", 0, CMD_VALUE, 'w' },
	{ "force", 0, CMD_FLAG, 'f' },
	{ "check", 0, CMD_FLAG, 'c' },
	{ "keep-workdir", 0, CMD_OPTIONAL, 'k' },
	{ "no-sandbox", 0, CMD_FLAG, 'n' },
	{ "timeout", 0, CMD_VALUE, 't' },
	{ "quiet", 'q', CMD_FLAG, 'q' },
	{ "results", 0, CMD_VALUE, 'r' },
	{ "input", 0, CMD_VALUE, 'i' },
	{ "lock-timeout", 0, CMD_VALUE, 'L' },
	{ "json", 0, CMD_FLAG, 'J' },
	{ NULL, 0, CMD_FLAG, 0 }
};

static int
cmd_verify(struct cmd_ctx *ctx, struct cmd_args *a, struct err *err)
{
	const struct cli_global *g = ctx->front;
	const char *val = NULL;
	struct verify_opts vo = { 0 };
	struct idlist ids = { 0 };
	struct buf where = BUF_INIT;
	long jobs = 1, shard_i = 0, shard_n = 1, lock_s = 60;
	int force = 0, check = 0, quiet = 0, json = 0, ch, status = 0;
	size_t failed_check = 0;
	struct cli_summary sum = { .command = "verify" };
	const char *results_path = NULL, *input = NULL;
	char *scratch = NULL, *fallback = NULL;
	struct results *w = NULL;
	struct results_key key;
	struct store *st = NULL;
	struct vsvc *pool = NULL;
	const struct vsvc_summary *ps;
	struct sigaction sa, old_int, old_term;
	int over;
	json_t *stats = NULL;
	long long started = (long long)time(NULL);
	struct timespec t0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	while ((ch = cmd_next(a, &val)) != -1) {
		switch (ch) {
		case 'j': {
			char *end;

			jobs = strtol(val, &end, 10);
			if (*end != '\0')
				jobs = 0;
		}
			if (jobs < 1 || jobs > 256)
				return cli_usage_error("verify", "--jobs wants 1..256,"
				    " not '%s'", val);
			break;
		case 's': {
			char *end, *mid;

			shard_i = strtol(val, &mid, 10);
			shard_n = *mid == '/' && mid != val ?
			    strtol(mid + 1, &end, 10) : 0;
			if (*mid != '/' || mid[1] < '0' || mid[1] > '9' ||
			    *end != '\0' || val[0] < '0' || val[0] > '9' ||
			    shard_n < 1 || shard_n > 1000000 || shard_i < 0 ||
			    shard_i >= shard_n)
				return cli_usage_error("verify", "--shard wants I/N"
				    " with 0 <= I < N, not '%s'", val);
			break;
		}
		case 'e': {
			char names[PIPELINE_MAX][PIPELINE_NAME];

			/* An env, or a pipeline of them ("iverilog+yosys"). */
			if (pipeline_split(val, names, err) < 0)
				return cli_usage_error("verify", "%s", err->msg);
		}
			ids.env = val;
			break;
		case 'w':
			cli_where_add(&where, val);
			break;
		case 'f':
			force = 1;
			break;
		case 'c':
			check = 1;
			break;
		case 'k':
			if (val != NULL && strcmp(val, "all") != 0)
				return cli_usage_error("verify", "--keep-workdir takes"
				    " no value or =all, not '%s'", val);
			vo.keep_workdir = val != NULL ? 2 : 1;
			break;
		case 'n':
			vo.no_sandbox = 1;
			break;
		case 't': {
			long v;

			if (cli_parse_seconds(val, 1, 86400, &v) < 0)
				return cli_usage_error("verify", "--timeout wants whole"
				    " seconds, 1..86400, not '%s'", val);
			vo.timeout_s = (int)v;
			break;
		}
		case 'q':
			quiet = 1;
			break;
		case 'r':
			results_path = val;
			break;
		case 'i':
			input = val;
			break;
		case 'L':
			if (cli_parse_seconds(val, 0, 86400, &lock_s) < 0)
				return cli_usage_error("verify", "--lock-timeout wants"
				    " whole seconds, 0..86400, not '%s'", val);
			break;
		case 'J':
			json = 1;
			break;
		}
	}
	if (input != NULL && results_path == NULL)
		return cli_usage_error("verify", "--input wants --results OUT, where"
		    " the runs go%s", "");
	if (input != NULL && (a->npos > 0 || shard_n > 1))
		return cli_usage_error("verify", "--input verifies the whole slice:"
		    " no IDs or --shard%s", "");
	if (vo.no_sandbox)
		fprintf(stderr, "assay: WARNING: --no-sandbox: candidates run"
		    " unconfined, with only resource limits\n");
	else if (sandbox_check(err) < 0) {
		fprintf(stderr, "assay: refusing to run candidates: %s\n",
		    err->msg);
		return 2;
	}
	sum.input = input != NULL;
	if (input != NULL)
		stats = results_stats_new();
	if (input != NULL) {
		if (scratch_open(input, &st, &scratch, &key) < 0) {
			scratch_remove(scratch);
			free(scratch);
			return 2;
		}
	} else if (cli_open_store(g, &st) < 0) {
		return 2;
	} else if (store_results_key_own(st, key.id, key.key, err) < 0) {
		/* Runs outside a campaign are authenticated with the
		 * database's own key: merge them back into it. */
		fprintf(stderr, "assay: %s\n", err->msg);
		store_close(st);
		return 2;
	}
	/* Unreachable in the sandbox; under --no-sandbox a candidate could
	 * read it, and then its plain bytes at least are kept nowhere. */
	secret_add(key.key);
	store_lock_timeout(st, (int)lock_s * 1000);
	if (results_path != NULL && results_open(&w, results_path, &key,
	    err) < 0) {
		fprintf(stderr, "assay: %s\n", err->msg);
		status = 2;
		goto out;
	}
	if (a->npos > 0) {
		for (int i = 0; i < a->npos; i++) {
			char *id = cli_resolve(st, a->pos[i]);

			if (id == NULL) {
				status = 2;
				goto out;
			}
			ids.v = xreallocarray(ids.v, ids.n + 1, sizeof *ids.v);
			ids.v[ids.n++] = id;
		}
	} else if (store_query_each(st, WHERE(where), collect_id, &ids, err) < 0) {
		fprintf(stderr, "assay verify: %s\n", err->msg);
		status = 2;
		goto out;
	}
	if (shard_n > 1) {
		size_t k = 0;

		/* By the id, not the position: shards stay disjoint and
		 * complete however the list changes between them. */
		for (size_t i = 0; i < ids.n; i++) {
			if ((long)(shard_of(ids.v[i]) % (unsigned long)shard_n) ==
			    shard_i)
				ids.v[k++] = ids.v[i];
			else
				free(ids.v[i]);
		}
		ids.n = k;
	}
	{
		/* The verify service (verify/service.h): references first,
		 * claims, the input-key skip, the pool, storing each run. */
		struct vsvc_opts so = { .vo = vo, .jobs = (int)jobs,
		    .force = force, .claim = 1, .refs = VSVC_REFS_ALL };
		struct pool pc = { .w = &w, .fallback = &fallback, .key = &key,
		    .status = &status, .quiet = quiet,
		    .timeout_s = vo.timeout_s, .stats = stats,
		    .live = !quiet && !json && isatty(2),
		    .last_ms = mono_ms() };
		struct vsvc_hooks h = { .finished = pool_finished,
		    .current = pool_current,
		    .problem = pool_problem, .arg = &pc };

		if (vsvc_new(&pool, st, &so, &h, ids.v, ids.n, err) < 0) {
			fprintf(stderr, "assay verify: %s\n", err->msg);
			status = 2;
			goto out;
		}
		/* Stopped, verify kills its runs, keeps what it stored, and
		 * leaves no results file, temporary file, marker or scratch
		 * database behind, so a relaunch redoes the slice cleanly. */
		memset(&sa, 0, sizeof sa);
		sa.sa_handler = verify_on_signal;
		sigemptyset(&sa.sa_mask);
		verify_stop = 0;
		sigaction(SIGINT, &sa, &old_int);
		sigaction(SIGTERM, &sa, &old_term);
		over = vsvc_start(pool);
		while (!over && !verify_stop) {
			struct pollfd *pfd;
			size_t n = vsvc_pollfds(pool, &pfd);
			int t = vsvc_timeout_ms(pool);

			if (pc.live && (t < 0 || t > 1000))
				t = 1000;	/* the running line's clock */
			if (poll(pfd, n, t) < 0 && errno != EINTR)
				break;
			over = vsvc_step(pool);
			pool_live(&pc, pool);
		}
		sigaction(SIGINT, &old_int, NULL);
		sigaction(SIGTERM, &old_term, NULL);
		if (pc.shown)
			fputs("\r\033[K", stderr);
	}
	ps = vsvc_summary(pool);
	sum.done = ps->done;
	sum.unchanged = ps->unchanged;
	sum.not_stored = ps->not_stored;
	sum.tally = ps->tally;
	sum.left = ps->busy - ps->busy_added;
	failed_check = ps->not_pass + ps->start_errors;
	if ((ps->load_errors > 0 || ps->start_errors > 0) && status == 0)
		status = 2;
	if (verify_stop) {
		fprintf(stderr, "assay verify: stopped by signal %d after %zu"
		    " run%s; %s\n", (int)verify_stop, ps->finished,
		    ps->finished == 1 ? "" : "s", w != NULL ? "no results file"
		    " written (the same verify again writes every run of its"
		    " selection, those stored now included)" : "the stored runs"
		    " stay");
		status = 128 + (int)verify_stop;
		goto out;
	}
	if (w != NULL) {
		const char *path = results_path != NULL ? results_path :
		    fallback;

		if (results_close(w, err) < 0) {
			fprintf(stderr, "assay: %s\n", err->msg);
			status = 2;
		} else if (results_path == NULL) {
			fprintf(stderr, "assay: %zu run%s could not be stored;"
			    " kept in %s (assay merge %s stores them)\n",
			    sum.not_stored, sum.not_stored == 1 ? "" : "s",
			    path, path);
		}
		w = NULL;
		sum.results = path;
	}
	/* A slice is complete when each of its candidates has a run. */
	if (input != NULL && status == 0 && sum.not_stored == 0) {
		size_t left = 1;

		if (store_query_count(st, "verdict=none", &left, err) < 0)
			fprintf(stderr, "assay: %s\n", err->msg);
		else if (left > 0)
			fprintf(stderr, "assay: %s: %zu candidate%s without a"
			    " run; no completion marker\n", input, left,
			    left == 1 ? "" : "s");
		else {
			/* The stats first: a marker means both are there. */
			sum.complete = write_stats(input, results_path, stats,
			    vsvc_count(pool), started, t0) == 0 &&
			    write_marker(input, results_path, ps->finished,
			    vsvc_count(pool)) == 0;
			stats = NULL;	/* consumed */
		}
		if (!sum.complete)
			status = 2;
	}
	if (sum.left > 0)
		fprintf(stderr, "assay: %zu candidate%s left to another verify"
		    " running on this database (exit status 4: %s)\n",
		    sum.left, sum.left == 1 ? "" : "s", sum.results != NULL ?
		    "the results file lacks them" : "not verified by this one");
	if (ps->busy_added > 0)
		fprintf(stderr, "assay: %zu reference%s left to another verify"
		    " running on this database\n", ps->busy_added,
		    ps->busy_added == 1 ? "" : "s");
	cli_summary_print(&sum, json);
out:
	/* Kills what still runs (not stored), releases the claims. */
	vsvc_free(pool);
	for (size_t i = 0; i < ids.n; i++)
		free(ids.v[i]);
	free(ids.v);
	buf_release(&where);
	results_abort(w);
	json_decref(stats);
	free(fallback);
	store_close(st);
	scratch_remove(scratch);
	free(scratch);
	if (verify_stop)
		return status;
	if (sum.not_stored > 0)
		return 3;
	if (status != 0)
		return status;
	/* The results file lacks what another verify holds. */
	if (sum.left > 0)
		return 4;
	return check && failed_check > 0 ? 1 : 0;
}

/* cli_verify_ids()'s hook: the run's line unless quiet (arg). */
static void
ids_finished(void *arg, const struct vsvc_result *res)
{
	char line[512];

	if (!*(int *)arg)
		fprintf(stderr, "%s\n", vsvc_result_line(res, line,
		    sizeof line));
}

int
cli_verify_ids(struct store *st, char **ids, size_t n, int jobs, int quiet)
{
	struct vsvc_opts so = { .jobs = jobs < 1 ? 1 : jobs, .claim = 1,
	    .refs = VSVC_REFS_ALL };
	struct vsvc_hooks h = { .finished = ids_finished,
	    .problem = pool_problem, .arg = &quiet };
	struct cli_summary sum = { .command = "verify" };
	const struct vsvc_summary *ps;
	struct vsvc *pool;
	struct err err;
	int over, rc;

	if (vsvc_new(&pool, st, &so, &h, ids, n, &err) < 0) {
		fprintf(stderr, "assay verify: %s\n", err.msg);
		return 2;
	}
	over = vsvc_start(pool);
	while (!over) {
		struct pollfd *pfd;
		size_t np = vsvc_pollfds(pool, &pfd);

		if (poll(pfd, np, vsvc_timeout_ms(pool)) < 0 && errno != EINTR)
			break;
		over = vsvc_step(pool);
	}
	ps = vsvc_summary(pool);
	sum.done = ps->done;
	sum.unchanged = ps->unchanged;
	sum.not_stored = ps->not_stored;
	sum.tally = ps->tally;
	cli_summary_print(&sum, 0);
	rc = ps->load_errors > 0 || ps->start_errors > 0 ? 2 : 0;
	vsvc_free(pool);
	return rc;
}

const struct cmd_entry cli_cmd_verify = {
	"verify", NULL, verify_opts, 0, CMD_MANY,
	"verify [--jobs N] [--shard I/N] [--env NAME] [--where"
	  " FILTER]\n              [--force] [--check] [--keep-workdir[=all]]"
	  " [--no-sandbox]\n              [--timeout S] [--quiet] [--json]"
	  " [--results FILE]\n              [--lock-timeout S] [--input SLICE]"
	  " [ID...]",
	  "Run candidates (all, those matching --where, or the IDs given)\n"
	  "through their env in the sandbox, N at a time (--jobs, default 1).\n"
	  "Candidates whose inputs and toolchain are unchanged since their last\n"
	  "run are skipped unless --force.  Each candidate is claimed before it\n"
	  "runs, so verifies running at once on one database share the work\n"
	  "(a killed verify's claims are taken over at once on its host, and\n"
	  "lapse after 60 s elsewhere).\n"
	  "  --shard I/N        only every N-th candidate from the I-th (0-based)\n"
	  "  --env NAME         only candidates of tasks in that env\n"
	  "  --check            exit 1 when any candidate did not pass\n"
	  "  --timeout S        wall clock per run, overriding the task's\n"
	  "  --keep-workdir     keep failed runs' work directories (=all: every\n"
	  "                     run's), each with a reproduce.sh\n"
	  "  --no-sandbox       run without bubblewrap (limits still apply)\n"
	  "  --quiet, -q        no progress lines\n"
	  "  --json             the summary as one JSON object\n"
	  "  --results FILE     also write each run as a JSON line to FILE\n"
	  "                     (docs/formats.md), renamed into place when done,\n"
	  "                     the current run of each candidate skipped as\n"
	  "                     unchanged too (a rerun after an interruption\n"
	  "                     writes every run of its selection),\n"
	  "                     each line with a MAC under the database's own\n"
	  "                     key (merge accepts it into this database only)\n"
	  "  --lock-timeout S   wait up to S seconds (default 60) for another\n"
	  "                     writer's lock; a run still not stored is kept\n"
	  "                     in the results file (else assay-unstored-*.jsonl)\n"
	  "                     and counted as not stored\n"
	  "  --input SLICE      verify a slice of `export --shards` in a scratch\n"
	  "                     database of its own (--db is not used); with\n"
	  "                     --results OUT, writes OUT.done when every\n"
	  "                     candidate of the slice has a run; the lines'\n"
	  "                     MACs use the campaign key of the manifest\n"
	  "Exit status: 0; 1 with --check when a candidate did not pass (a gate\n"
	  "for scripts, not for job dependencies); 2 on errors or an incomplete\n"
	  "slice; 3 when runs could not be stored; 4 when candidates were left\n"
	  "to another verify holding their claims (its results are not in\n"
	  "this one's results file).",
	CMD_CLI, cmd_verify
};
