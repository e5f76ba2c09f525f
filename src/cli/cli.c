/*
 * cli.c - headless commands: import, verify, list, show, label, review,
 * repair, dedup, contamination, split, undo, redo, commit, export, stats, envs.  They call the same core
 * functions as the workbench; this file only parses arguments and prints.
 */
#include "cli/cli.h"
#include "cli/cli_shared.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "model/agreement.h"
#include "base/atomic.h"
#include "base/buf.h"
#include "app/config.h"
#include "exchange/contam.h"
#include "exchange/dataset.h"
#include "curate/dedup.h"
#include "envs/env.h"
#include "envs/verilog.h"
#include "base/err.h"
#include "exchange/export.h"
#include "base/hash.h"
#include "base/ident.h"
#include "exchange/import.h"
#include "verify/pipeline.h"
#include "exchange/results.h"
#include "curate/split.h"
#include "store/store.h"
#include "base/textsafe.h"
#include "verify/verify.h"

#define VERSION "0.1.0"

struct cmd {
	const char	*name;
	const char	*usage;
	const char	*help;
	int		(*run)(const struct cli_global *, int, char **);
};

static const struct cmd *find_cmd(const char *name);
static void print_json(json_t *o);

/* Open the database; only import may create it (a typo'd --db must not
 * quietly answer from an empty one). */
static int
open_store_mode(const struct cli_global *g, struct store **st, int create)
{
	struct err err;

	if (!create && access(g->db, F_OK) != 0) {
		fprintf(stderr, "assay: no database at %s (assay import creates"
		    " one; --db names another)\n", g->db);
		return -1;
	}

	if (store_open(st, g->db, &err) < 0) {
		fprintf(stderr, "assay: %s\n", err.msg);
		return -1;
	}
	return 0;
}

static int
open_store(const struct cli_global *g, struct store **st)
{
	return open_store_mode(g, st, 0);
}

static int
usage_error(const char *cmd, const char *fmt, const char *arg)
{
	const struct cmd *c = find_cmd(cmd);

	fprintf(stderr, "assay %s: ", cmd);
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nusage: assay %s\n", c != NULL ? c->usage : "");
	return 2;
}

/* Wants --help?  Prints the command's help and returns 1. */
static int
wants_help(const char *name, int argc, char **argv)
{
	const struct cmd *c = find_cmd(name);

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0)
			break;
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			printf("usage: assay %s\n\n%s\n", c->usage, c->help);
			return 1;
		}
	}
	return 0;
}

/* Resolve an id or unique prefix; prints the error.  New string or NULL. */
static char *
resolve(struct store *st, const char *id)
{
	struct err err;
	char *out = NULL, show[96];
	int rc;

	if (ident_check_id(id, &err) < 0) {
		fprintf(stderr, "assay: '%s' is not a candidate id: %s\n",
		    ident_show(id, show, sizeof show), err.msg);
		return NULL;
	}
	rc = store_candidate_resolve(st, id, &out, &err);
	if (rc == 0)
		return out;
	if (rc == 1)
		fprintf(stderr, "assay: no candidate '%s'\n", id);
	else if (rc == 2)
		fprintf(stderr, "assay: '%s' matches several candidates; give"
		    " more of the id\n", id);
	else
		fprintf(stderr, "assay: %s\n", err.msg);
	return NULL;
}

/*
 * The reviewer's name (--reviewer, ASSAY_REVIEWER, git, the login),
 * checked by ident.h's rule because it goes into the journal and the
 * dataset's Reviewed-by: trailers.  New string, or NULL after printing
 * why.
 */
static char *
reviewer(const struct cli_global *g)
{
	char *by = config_reviewer(g->reviewer), show[128];
	struct err err;

	if (ident_check_reviewer(by, &err) == 0)
		return by;
	fprintf(stderr, "assay: reviewer name '%s' (from %s): %s\n",
	    ident_show(by, show, sizeof show), g->reviewer != NULL &&
	    *g->reviewer != '\0' ? "--reviewer" : getenv("ASSAY_REVIEWER") !=
	    NULL && *getenv("ASSAY_REVIEWER") != '\0' ? "ASSAY_REVIEWER" :
	    "git user.name or the login", err.msg);
	free(by);
	return NULL;
}

/* --- import ---------------------------------------------------------- */

/* The import's progress line on a terminal: rows, rate, time left. */
struct import_meter {
	const char	*path;
	struct timespec	 t0;
	int		 shown;
};

static void
import_progress(size_t rows, size_t done, size_t total, void *arg)
{
	struct import_meter *m = arg;
	struct timespec now;
	double s, rate, left;

	clock_gettime(CLOCK_MONOTONIC, &now);
	s = (double)(now.tv_sec - m->t0.tv_sec) +
	    (double)(now.tv_nsec - m->t0.tv_nsec) / 1e9;
	if (s < 1 && !m->shown)
		return;		/* a small file: no line at all */
	rate = s > 0 ? (double)rows / s : 0;
	left = done > 0 ? s * (double)(total - done) / (double)done : 0;
	fprintf(stderr, "\r%s: %zu rows, %.0f rows/s, %.0f%%, %d:%02d left ",
	    m->path, rows, rate, total > 0 ? 100.0 * (double)done /
	    (double)total : 100.0, (int)(left / 60), (int)left % 60);
	m->shown = 1;
}

static int
cmd_import(const struct cli_global *g, int argc, char **argv)
{
	static const struct option lo[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "keep-going", no_argument, NULL, 'k' },
		{ "json", no_argument, NULL, 'J' },
		{ "license", required_argument, NULL, 'L' },
		{ "repository", required_argument, NULL, 'R' },
		{ "id-prefix", required_argument, NULL, 'p' },
		{ NULL, 0, NULL, 0 }
	};
	struct import_opts o = { .format = IMPORT_AUTO };
	struct import_meter meter = { 0 };
	size_t tasks = 0, cands = 0, existing = 0, skipped = 0, files = 0;
	int failed = -1;
	struct store *st;
	struct err err;
	char *by;
	int ch, status = 0, json = 0;

	if (wants_help("import", argc, argv))
		return 0;
	optind = 1;
	while ((ch = getopt_long(argc, argv, "f:k", lo, NULL)) != -1) {
		if (ch == 'f') {
			if (import_format_parse(optarg, &o.format, &err) < 0)
				return usage_error("import", "%s", err.msg);
		} else if (ch == 'k') {
			o.keep_going = 1;
		} else if (ch == 'J') {
			json = 1;
		} else if (ch == 'L') {
			if (*optarg == '\0' || strpbrk(optarg, " \t\n") != NULL)
				return usage_error("import", "bad licence '%s':"
				    " want an SPDX id such as MIT", optarg);
			o.license = optarg;
		} else if (ch == 'R') {
			if (*optarg == '\0' || strpbrk(optarg, " \t\n") != NULL)
				return usage_error("import", "bad repository"
				    " '%s': want URL@COMMIT", optarg);
			o.repository = optarg;
		} else if (ch == 'p') {
			if (ident_check_id(optarg, &err) < 0)
				return usage_error("import", "--id-prefix: %s",
				    err.msg);
			o.id_prefix = optarg;
		} else {
			return usage_error("import", "bad option", "");
		}
	}
	if (optind >= argc)
		return usage_error("import", "no PATH given%s", "");
	if (open_store_mode(g, &st, 1) < 0)
		return 2;
	by = reviewer(g);
	if (by == NULL) {
		store_close(st);
		return 2;
	}
	o.by = by;
	/* Progress only for a person watching: quiet when piped. */
	if (isatty(STDERR_FILENO)) {
		o.progress = import_progress;
		o.progress_arg = &meter;
	}
	for (int i = optind; i < argc; i++) {
		struct import_report rep;
		int rc;

		import_report_init(&rep);
		meter.path = argv[i];
		meter.shown = 0;
		clock_gettime(CLOCK_MONOTONIC, &meter.t0);
		rc = import_path(st, argv[i], &o, &rep, &err);
		if (meter.shown)
			fputc('\n', stderr);
		if (rc < 0) {
			fprintf(stderr, "assay: %s\n", err.msg);
			fprintf(stderr, "assay: %s: nothing imported\n", argv[i]);
			status = 2;
			failed = i;
		} else if (json) {
			fputs(buf_str(&rep.warnings), stderr);
			files++;
			tasks += rep.tasks_added;
			cands += rep.cands_added;
			existing += rep.cands_existing;
			skipped += rep.skipped;
		} else {
			fputs(buf_str(&rep.warnings), stderr);
			printf("%s: %zu new task%s, %zu new candidate%s (%zu"
			    " already there)", argv[i], rep.tasks_added,
			    rep.tasks_added == 1 ? "" : "s", rep.cands_added,
			    rep.cands_added == 1 ? "" : "s", rep.cands_existing);
			if (rep.skipped > 0)
				printf(", %zu bad lines skipped", rep.skipped);
			printf("\n");
		}
		import_report_release(&rep);
		if (status != 0)
			break;
	}
	if (json)
		print_json(json_pack("{s:s, s:I, s:I, s:I, s:I, s:I, s:o}",
		    "command", "import", "files", (json_int_t)files,
		    "tasks_added", (json_int_t)tasks, "candidates_added",
		    (json_int_t)cands, "candidates_existing",
		    (json_int_t)existing, "skipped", (json_int_t)skipped,
		    "failed", failed >= 0 ? json_string(argv[failed]) :
		    json_null()));
	if (failed >= 0 && argc - optind > 1) {
		/* Which files are in, which is not, which were not read. */
		fprintf(stderr, "assay: imported:");
		for (int i = optind; i < failed; i++)
			fprintf(stderr, " %s", argv[i]);
		fprintf(stderr, "%s\nassay: failed: %s\nassay: not tried:",
		    failed == optind ? " none" : "", argv[failed]);
		for (int i = failed + 1; i < argc; i++)
			fprintf(stderr, " %s", argv[i]);
		fprintf(stderr, "%s\n", failed + 1 == argc ? " none" : "");
	}
	free(by);
	store_close(st);
	return status;
}

/* --- verify ---------------------------------------------------------- */

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

/* Repeated --where options add up: "a" then "b" is "a b". */
static void
where_add(struct buf *w, const char *v)
{
	if (w->len > 0)
		buf_addc(w, ' ');
	buf_adds(w, v);
}

#define WHERE(w) ((w).len > 0 ? buf_str(&(w)) : NULL)

struct tally {
	size_t	 pass, fail, timeout, skipped, env_error, task_defect, other;
};

static void
tally_add(struct tally *t, const char *verdict)
{
	if (strcmp(verdict, "pass") == 0)
		t->pass++;
	else if (strcmp(verdict, "fail") == 0)
		t->fail++;
	else if (strcmp(verdict, "timeout") == 0)
		t->timeout++;
	else if (strcmp(verdict, "skipped") == 0)
		t->skipped++;
	else if (strcmp(verdict, "env-error") == 0)
		t->env_error++;
	else if (strcmp(verdict, "task-defect") == 0)
		t->task_defect++;
	else
		t->other++;
}

/*
 * Put the references of the batch's tasks at the front of ids, adding
 * those not selected, and return how many there are.  A candidate's
 * failure is only the model's fault when the reference passes.
 */
static size_t
references_first(struct store *st, struct idlist *ids)
{
	struct idlist refs = { 0 }, rest = { 0 };
	struct err err;

	for (size_t i = 0; i < ids->n; i++) {
		struct candidate c;
		char *ref = NULL, *verdict = NULL;
		int seen = 0;

		if (store_candidate_get(st, ids->v[i], &c, &err) != 0)
			continue;
		if (store_task_reference(st, c.task_id, &ref, &verdict,
		    &err) == 0 && ref != NULL) {
			for (size_t k = 0; k < refs.n && !seen; k++)
				seen = strcmp(refs.v[k], ref) == 0;
			if (!seen) {
				refs.v = xreallocarray(refs.v, refs.n + 1,
				    sizeof *refs.v);
				refs.v[refs.n++] = ref;
				ref = NULL;
			}
		}
		free(ref);
		free(verdict);
		candidate_release(&c);
	}
	for (size_t i = 0; i < ids->n; i++) {
		int is = 0;

		for (size_t k = 0; k < refs.n && !is; k++)
			is = strcmp(refs.v[k], ids->v[i]) == 0;
		if (is) {
			free(ids->v[i]);
			continue;
		}
		rest.v = xreallocarray(rest.v, rest.n + 1, sizeof *rest.v);
		rest.v[rest.n++] = ids->v[i];
	}
	free(ids->v);
	ids->v = xreallocarray(refs.v, refs.n + rest.n + 1, sizeof *ids->v);
	for (size_t i = 0; i < rest.n; i++)
		ids->v[refs.n + i] = rest.v[i];
	ids->n = refs.n + rest.n;
	free(rest.v);
	return refs.n;
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

/* The summary verify and merge print: one line, or one JSON object. */
struct summary {
	const char	*command;	/* "verify" or "merge" */
	size_t		 done;		/* runs stored by this command */
	size_t		 unchanged;	/* verify: skipped; merge: already in */
	size_t		 not_stored;	/* runs kept only in a results file */
	size_t		 refused;	/* merge: stale or foreign lines */
	struct tally	 tally;
	const char	*results;	/* results file, or NULL */
	int		 input;		/* verify --input */
	int		 complete;	/* --input: the marker was written */
};

static void
summary_print(const struct summary *s, int json)
{
	const struct tally *t = &s->tally;

	if (json) {
		json_t *o = json_pack("{s:s, s:I, s:I, s:I, s:I, s:I, s:I, s:I,"
		    " s:I, s:I}", "command", s->command, "verified",
		    (json_int_t)s->done, "unchanged", (json_int_t)s->unchanged,
		    "not_stored", (json_int_t)s->not_stored, "pass",
		    (json_int_t)t->pass, "fail", (json_int_t)t->fail, "timeout",
		    (json_int_t)t->timeout, "env_error",
		    (json_int_t)t->env_error, "task_defect",
		    (json_int_t)t->task_defect, "skipped",
		    (json_int_t)t->skipped);

		if (strcmp(s->command, "merge") == 0)
			json_object_set_new(o, "refused",
			    json_integer((json_int_t)s->refused));
		json_object_set_new(o, "results", s->results != NULL ?
		    json_string(s->results) : json_null());
		if (s->input)
			json_object_set_new(o, "complete",
			    json_boolean(s->complete));
		print_json(o);
		return;
	}
	printf("verified %zu, unchanged %zu: pass %zu, fail %zu, timeout %zu,"
	    " env-error %zu, task-defect %zu, skipped %zu", s->done,
	    s->unchanged, t->pass, t->fail, t->timeout, t->env_error,
	    t->task_defect, t->skipped);
	if (s->not_stored > 0)
		printf("; not stored %zu", s->not_stored);
	if (s->refused > 0)
		printf("; refused %zu", s->refused);
	printf("\n");
}

/* Parse whole seconds in lo..hi into *out; 0 or -1. */
static int
parse_seconds(const char *s, long lo, long hi, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (*s == '\0' || *end != '\0' || errno != 0 || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

/*
 * A slice with a manifest.json beside it (export --shards) must have the
 * sha256 the manifest gives it: a slice changed or cut short since the
 * export is refused.  0 or -1 (printed).
 */
static int
slice_check(const char *slice)
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

/*
 * verify --input SLICE: a scratch database of its own in $TMPDIR, the
 * slice imported into it.  *dir is the new directory (remove with
 * scratch_remove()).  0 or -1 (printed).
 */
static int
scratch_open(const char *slice, struct store **st, char **dir)
{
	const char *tmp = getenv("TMPDIR");
	struct import_opts o = { .format = IMPORT_ASSAY, .by = "assay" };
	struct import_report rep;
	struct err err;
	char *db;
	int rc;

	if (slice_check(slice) < 0)
		return -1;
	*dir = xasprintf("%s/assay-slice.XXXXXX", tmp != NULL && *tmp != '\0' ?
	    tmp : "/tmp");
	if (mkdtemp(*dir) == NULL) {
		fprintf(stderr, "assay: %s: %s\n", *dir, strerror(errno));
		free(*dir);
		*dir = NULL;
		return -1;
	}
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

static void
scratch_remove(const char *dir)
{
	static const char *const files[] = { "slice.db", "slice.db-wal",
	    "slice.db-shm" };

	if (dir == NULL)
		return;
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
		char *p = xasprintf("%s/%s", dir, files[i]);

		unlink(p);
		free(p);
	}
	rmdir(dir);
}

/*
 * Keep a finished run in the results file: the one --results names, else
 * (only when the run could not be stored) a file of its own in the
 * working directory, opened on the first such run.
 */
static void
keep_run(struct results **w, char **fallback, const struct run *r,
    const char *task_id, int timeout_s, int stored, int *status)
{
	struct err err;

	if (*w == NULL && !stored) {
		*fallback = xasprintf("assay-unstored-%lld-%ld.jsonl",
		    (long long)time(NULL), (long)getpid());
		if (results_open(w, *fallback, &err) < 0) {
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

/* How long a verify's claim on a candidate lasts unless renewed: a
 * killed verify's claims lapse after this (issue 10, item 14).
 * ASSAY_CLAIM_TTL_S overrides it, for tests of the lapse. */
#define CLAIM_TTL_S claim_ttl()

static int
claim_ttl(void)
{
	const char *v = getenv("ASSAY_CLAIM_TTL_S");
	long n = v != NULL ? strtol(v, NULL, 10) : 0;

	return n >= 1 && n <= 86400 ? (int)n : 60;
}

/* Who claims: this host, this process and a random word, new string. */
static char *
claim_holder(void)
{
	char host[256] = "";
	unsigned r = 0;
	FILE *f = fopen("/dev/urandom", "rb");

	if (f != NULL) {
		if (fread(&r, sizeof r, 1, f) != 1)
			r = 0;
		fclose(f);
	}
	gethostname(host, sizeof host - 1);
	return xasprintf("%s:%ld:%08x", host, (long)getpid(),
	    r ^ (unsigned)time(NULL));
}

/* SIGTERM (Slurm's scancel and time limit) or SIGINT during verify. */
static volatile sig_atomic_t verify_stop;

static void
verify_on_signal(int sig)
{
	verify_stop = sig;
}

static int
cmd_verify(const struct cli_global *g, int argc, char **argv)
{
	static const struct option lo[] = {
		{ "jobs", required_argument, NULL, 'j' },
		{ "shard", required_argument, NULL, 's' },
		{ "env", required_argument, NULL, 'e' },
		{ "where", required_argument, NULL, 'w' },
		{ "force", no_argument, NULL, 'f' },
		{ "check", no_argument, NULL, 'c' },
		{ "keep-workdir", optional_argument, NULL, 'k' },
		{ "no-sandbox", no_argument, NULL, 'n' },
		{ "timeout", required_argument, NULL, 't' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "results", required_argument, NULL, 'r' },
		{ "input", required_argument, NULL, 'i' },
		{ "lock-timeout", required_argument, NULL, 'L' },
		{ "json", no_argument, NULL, 'J' },
		{ NULL, 0, NULL, 0 }
	};
	struct verify_opts vo = { 0 };
	struct idlist ids = { 0 };
	struct buf where = BUF_INIT;
	long jobs = 1, shard_i = 0, shard_n = 1, lock_s = 60;
	int force = 0, check = 0, quiet = 0, json = 0, ch, status = 0;
	struct verify_job **running = NULL;
	int is_ref[256] = { 0 };
	size_t next = 0, nrun = 0, finished = 0, todo;
	size_t nrefs, refs_running = 0;
	size_t failed_check = 0;
	struct summary sum = { .command = "verify" };
	const char *results_path = NULL, *input = NULL;
	char *scratch = NULL, *fallback = NULL;
	struct results *w = NULL;
	struct store *st = NULL;
	struct sigaction sa, old_int, old_term;
	struct err err;
	char *holder = NULL;
	time_t t_start = time(NULL), renewed = t_start;
	size_t busy = 0, unclaimed = 0;

	if (wants_help("verify", argc, argv))
		return 0;
	optind = 1;
	while ((ch = getopt_long(argc, argv, "j:q", lo, NULL)) != -1) {
		switch (ch) {
		case 'j': {
			char *end;

			jobs = strtol(optarg, &end, 10);
			if (*end != '\0')
				jobs = 0;
		}
			if (jobs < 1 || jobs > 256)
				return usage_error("verify", "--jobs wants 1..256,"
				    " not '%s'", optarg);
			break;
		case 's': {
			char *end, *mid;

			shard_i = strtol(optarg, &mid, 10);
			shard_n = *mid == '/' && mid != optarg ?
			    strtol(mid + 1, &end, 10) : 0;
			if (*mid != '/' || mid[1] < '0' || mid[1] > '9' ||
			    *end != '\0' || optarg[0] < '0' || optarg[0] > '9' ||
			    shard_n < 1 || shard_n > 1000000 || shard_i < 0 ||
			    shard_i >= shard_n)
				return usage_error("verify", "--shard wants I/N"
				    " with 0 <= I < N, not '%s'", optarg);
			break;
		}
		case 'e': {
			char names[PIPELINE_MAX][PIPELINE_NAME];

			/* An env, or a pipeline of them ("iverilog+yosys"). */
			if (pipeline_split(optarg, names, &err) < 0)
				return usage_error("verify", "%s", err.msg);
		}
			ids.env = optarg;
			break;
		case 'w':
			where_add(&where, optarg);
			break;
		case 'f':
			force = 1;
			break;
		case 'c':
			check = 1;
			break;
		case 'k':
			if (optarg != NULL && strcmp(optarg, "all") != 0)
				return usage_error("verify", "--keep-workdir takes"
				    " no value or =all, not '%s'", optarg);
			vo.keep_workdir = optarg != NULL ? 2 : 1;
			break;
		case 'n':
			vo.no_sandbox = 1;
			break;
		case 't': {
			long v;

			if (parse_seconds(optarg, 1, 86400, &v) < 0)
				return usage_error("verify", "--timeout wants whole"
				    " seconds, 1..86400, not '%s'", optarg);
			vo.timeout_s = (int)v;
			break;
		}
		case 'q':
			quiet = 1;
			break;
		case 'r':
			results_path = optarg;
			break;
		case 'i':
			input = optarg;
			break;
		case 'L':
			if (parse_seconds(optarg, 0, 86400, &lock_s) < 0)
				return usage_error("verify", "--lock-timeout wants"
				    " whole seconds, 0..86400, not '%s'", optarg);
			break;
		case 'J':
			json = 1;
			break;
		default:
			return usage_error("verify", "bad option%s", "");
		}
	}
	if (input != NULL && results_path == NULL)
		return usage_error("verify", "--input wants --results OUT, where"
		    " the runs go%s", "");
	if (input != NULL && (optind < argc || shard_n > 1))
		return usage_error("verify", "--input verifies the whole slice:"
		    " no IDs or --shard%s", "");
	if (vo.no_sandbox)
		fprintf(stderr, "assay: WARNING: --no-sandbox: candidates run"
		    " unconfined, with only resource limits\n");
	else if (verify_sandbox_check(&err) < 0) {
		fprintf(stderr, "assay: refusing to run candidates: %s\n",
		    err.msg);
		return 2;
	}
	sum.input = input != NULL;
	if (input != NULL) {
		if (scratch_open(input, &st, &scratch) < 0) {
			scratch_remove(scratch);
			free(scratch);
			return 2;
		}
	} else if (open_store(g, &st) < 0) {
		return 2;
	}
	store_lock_timeout(st, (int)lock_s * 1000);
	holder = claim_holder();
	if (results_path != NULL && results_open(&w, results_path, &err) < 0) {
		fprintf(stderr, "assay: %s\n", err.msg);
		status = 2;
		goto out;
	}
	if (optind < argc) {
		for (int i = optind; i < argc; i++) {
			char *id = resolve(st, argv[i]);

			if (id == NULL) {
				status = 2;
				goto out;
			}
			ids.v = xreallocarray(ids.v, ids.n + 1, sizeof *ids.v);
			ids.v[ids.n++] = id;
		}
	} else if (store_query_each(st, WHERE(where), collect_id, &ids, &err) < 0) {
		fprintf(stderr, "assay verify: %s\n", err.msg);
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
	/* Reference first: each task's reference runs, to the end, before
	 * any other candidate of the batch is judged. */
	nrefs = references_first(st, &ids);
	todo = ids.n;
	running = xcalloc((size_t)jobs, sizeof *running);
	/* Stopped, verify kills its runs, keeps what it stored, and leaves
	 * no results file, temporary file, marker or scratch database
	 * behind, so a relaunch redoes the slice cleanly. */
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = verify_on_signal;
	sigemptyset(&sa.sa_mask);
	verify_stop = 0;
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	while ((next < ids.n || nrun > 0) && !verify_stop) {
		struct pollfd pfd[256];
		int timeout = 1000;

		/* Fill the pool; the references' phase ends before the rest. */
		while (nrun < (size_t)jobs && next < ids.n &&
		    !(next >= nrefs && refs_running > 0)) {
			const char *id = ids.v[next++];
			struct candidate c;
			struct task t;
			struct run last;
			char key[SAMPLE_HASH_HEX];
			struct verify_job *j;
			int have;

			int got;

			/* Claimed first: another verify on this database
			 * may be running it now (issue 10, item 14). */
			if (store_claim(st, id, holder, CLAIM_TTL_S, &got,
			    &err) < 0) {
				/* A database busy past --lock-timeout: run it
				 * unclaimed; the run still reaches the
				 * results file (no run is lost to a lock). */
				if (unclaimed++ == 0)
					fprintf(stderr, "assay: cannot claim"
					    " candidates (%s); running them"
					    " unclaimed\n", err.msg);
				got = 1;
			}
			if (!got) {
				busy++;
				continue;
			}
			if (store_candidate_get(st, id, &c, &err) != 0 ||
			    store_task_get(st, c.task_id, &t, &err) != 0) {
				fprintf(stderr, "assay: %s: cannot load\n", id);
				store_claim_release(st, id, holder, &err);
				status = 2;
				continue;
			}
			have = store_run_latest(st, id, &last, &err);
			/* Unchanged since its last run, or (with --force)
			 * run by another verify since this one began: after
			 * its first second, since times are whole seconds and
			 * a run an earlier verify stored in the second this
			 * one began is not newer (e2e 050 ran into it). */
			if (have == 0 && ((!force &&
			    verify_input_key(&t, &c, vo.timeout_s, key, NULL) == 0 &&
			    strcmp(key, last.input_key) == 0) ||
			    (force && last.started > (int64_t)t_start))) {
				store_claim_release(st, id, holder, &err);
				sum.unchanged++;
				tally_add(&sum.tally, last.verdict);
				if (strcmp(last.verdict, "pass") != 0)
					failed_check++;
				run_release(&last);
				candidate_release(&c);
				task_release(&t);
				continue;
			}
			if (have == 0)
				run_release(&last);
			if (verify_job_start(&j, &vo, &t, &c, 0, 0, 0, &err) < 0) {
				fprintf(stderr, "assay: %s: %s\n", id, err.msg);
				store_claim_release(st, id, holder, NULL);
				failed_check++;
				status = status == 0 ? 2 : status;
			} else {
				is_ref[nrun] = next - 1 < nrefs;
				refs_running += is_ref[nrun];
				running[nrun++] = j;
			}
			candidate_release(&c);
			task_release(&t);
		}
		if (nrun == 0)
			continue;
		for (size_t i = 0; i < nrun; i++) {
			int t = verify_job_timeout_ms(running[i]);

			pfd[i].fd = verify_job_fd(running[i]);
			pfd[i].events = POLLIN;
			pfd[i].revents = 0;
			if (t < timeout)
				timeout = t;
		}
		if (poll(pfd, nrun, timeout) < 0 && errno != EINTR)
			break;
		if (time(NULL) - renewed >= CLAIM_TTL_S / 3) {
			/* Still alive: a long run keeps its claims. */
			renewed = time(NULL);
			if (store_claims_renew(st, holder, CLAIM_TTL_S,
			    &err) < 0)
				fprintf(stderr, "assay: %s\n", err.msg);
		}
		for (size_t i = 0; i < nrun; ) {
			struct run r;
			int stored;

			if (!verify_job_step(running[i], NULL, NULL)) {
				i++;
				continue;
			}
			verify_job_result(running[i], &r);
			verify_judge_reference(st, running[i], &r);
			/* A busy database is waited for (--lock-timeout);
			 * a run that still cannot be stored is kept in the
			 * results file and counted apart, so that the
			 * summary says what the database holds. */
			stored = store_run_add(st, &r, &err) == 0;
			if (!stored) {
				fprintf(stderr, "assay: %s: not stored: %s\n",
				    r.cand_id, err.msg);
				sum.not_stored++;
			} else {
				sum.done++;
				tally_add(&sum.tally, r.verdict);
			}
			keep_run(&w, &fallback, &r,
			    verify_job_task(running[i]), vo.timeout_s, stored,
			    &status);
			store_claim_release(st, r.cand_id, holder, NULL);
			finished++;
			if (strcmp(r.verdict, "pass") != 0)
				failed_check++;
			if (!quiet)
				fprintf(stderr, "[%zu/%zu] %s %s%s%s%s%s%s\n",
				    finished + sum.unchanged, todo, r.cand_id,
				    r.verdict,
				    r.stage != NULL ? " " : "",
				    r.stage != NULL ? r.stage : "",
				    r.subcategory != NULL ? " " : "",
				    r.subcategory != NULL ? r.subcategory : "",
				    stored ? "" : " (not stored)");
			if (verify_job_workdir(running[i]) != NULL && !quiet)
				fprintf(stderr, "  work directory kept: %s"
				    " (reproduce.sh runs it again)\n",
				    verify_job_workdir(running[i]));
			run_release(&r);
			verify_job_free(running[i]);
			refs_running -= is_ref[i];
			running[i] = running[--nrun];
			is_ref[i] = is_ref[nrun];
		}
	}
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	if (verify_stop) {
		for (size_t i = 0; i < nrun; i++)
			verify_job_free(running[i]);
		nrun = 0;
		fprintf(stderr, "assay verify: stopped by signal %d after %zu"
		    " run%s; %s\n", (int)verify_stop, finished,
		    finished == 1 ? "" : "s", w != NULL ? "no results file"
		    " written" : "the stored runs stay");
		status = 128 + (int)verify_stop;
		goto out;
	}
	if (w != NULL) {
		const char *path = results_path != NULL ? results_path :
		    fallback;

		if (results_close(w, &err) < 0) {
			fprintf(stderr, "assay: %s\n", err.msg);
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

		if (store_query_count(st, "verdict=none", &left, &err) < 0)
			fprintf(stderr, "assay: %s\n", err.msg);
		else if (left > 0)
			fprintf(stderr, "assay: %s: %zu candidate%s without a"
			    " run; no completion marker\n", input, left,
			    left == 1 ? "" : "s");
		else
			sum.complete = write_marker(input, results_path,
			    finished, ids.n) == 0;
		if (!sum.complete)
			status = 2;
	}
	if (busy > 0)
		fprintf(stderr, "assay: %zu candidate%s left to another verify"
		    " running on this database\n", busy, busy == 1 ? "" : "s");
	summary_print(&sum, json);
out:
	if (st != NULL && holder != NULL)
		store_claim_release(st, NULL, holder, NULL);
	free(holder);
	for (size_t i = 0; i < ids.n; i++)
		free(ids.v[i]);
	free(ids.v);
	free(running);
	buf_release(&where);
	results_abort(w);
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
	return check && failed_check > 0 ? 1 : 0;
}

/* --- merge ----------------------------------------------------------- */

#define MERGE_BATCH 500

struct merge_ctx {
	struct store	*st;
	struct summary	 sum;
	struct tally	 pending;	/* runs of the open batch */
	size_t		 npending, lines;
	int		 tty, status;
};

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
		struct tally *t = &m->sum.tally, *p = &m->pending;

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

static void
merge_line(struct merge_ctx *m, const char *file, size_t lineno,
    const char *line, size_t len)
{
	struct run r;
	struct err err;
	char *task = NULL, why[ERR_MSG_MAX];
	int tmo = 0, stored, rc, exists;

	if (results_parse(line, len, &r, &task, &tmo, &stored, &err) < 0) {
		fprintf(stderr, "%s:%zu: %s\n", file, lineno, err.msg);
		m->sum.refused++;
		m->status = 2;
		return;
	}
	rc = merge_check(m->st, &r, task, tmo, why, sizeof why, &err);
	if (rc == 0)
		rc = store_run_exists(m->st, &r, &exists, &err) < 0 ? -1 :
		    exists ? 2 : 0;
	if (rc == 1) {
		fprintf(stderr, "%s:%zu: %s\n", file, lineno, why);
		m->sum.refused++;
		m->status = 2;
	} else if (rc == 2) {
		m->sum.unchanged++;
		tally_add(&m->sum.tally, r.verdict);
	} else if (rc < 0) {
		fprintf(stderr, "%s:%zu: %s\n", file, lineno, err.msg);
		m->sum.not_stored++;
	} else if (m->npending == 0 && store_begin(m->st, &err) < 0) {
		fprintf(stderr, "%s:%zu: not stored: %s\n", file, lineno,
		    err.msg);
		m->sum.not_stored++;
	} else if (store_run_insert(m->st, &r, 2, &err) < 0) {
		/* Inside the batch: the whole batch goes back. */
		fprintf(stderr, "%s:%zu: not stored: %s\n", file, lineno,
		    err.msg);
		store_rollback(m->st);
		m->sum.not_stored += m->npending + 1;
		memset(&m->pending, 0, sizeof m->pending);
		m->npending = 0;
	} else {
		m->npending++;
		tally_add(&m->pending, r.verdict);
		if (m->npending >= MERGE_BATCH)
			merge_flush(m);
	}
	run_release(&r);
	free(task);
}

static int
cmd_merge(const struct cli_global *g, int argc, char **argv)
{
	static const struct option lo[] = {
		{ "json", no_argument, NULL, 'J' },
		{ "lock-timeout", required_argument, NULL, 'L' },
		{ NULL, 0, NULL, 0 }
	};
	struct merge_ctx m = { .sum = { .command = "merge" } };
	long lock_s = 60;
	int ch, json = 0;

	if (wants_help("merge", argc, argv))
		return 0;
	optind = 1;
	while ((ch = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		if (ch == 'J')
			json = 1;
		else if (ch == 'L' && parse_seconds(optarg, 0, 86400,
		    &lock_s) == 0)
			continue;
		else
			return usage_error("merge", ch == 'L' ?
			    "--lock-timeout wants whole seconds, 0..86400%s" :
			    "bad option%s", "");
	}
	if (optind >= argc)
		return usage_error("merge", "no RESULTS file given%s", "");
	if (open_store(g, &m.st) < 0)
		return 2;
	store_lock_timeout(m.st, (int)lock_s * 1000);
	m.tty = isatty(STDERR_FILENO);
	for (int i = optind; i < argc; i++) {
		FILE *f = fopen(argv[i], "r");
		char *line = NULL;
		size_t cap = 0, lineno = 0;
		ssize_t n;

		if (f == NULL) {
			fprintf(stderr, "assay merge: %s: %s\n", argv[i],
			    strerror(errno));
			m.status = 2;
			continue;
		}
		while ((n = getline(&line, &cap, f)) > 0) {
			lineno++;
			m.lines++;
			if (n == 1 && line[0] == '\n')
				continue;
			merge_line(&m, argv[i], lineno, line, (size_t)n);
			if (m.tty && m.lines % 1000 == 0)
				fprintf(stderr, "\rmerge: %zu lines, %zu runs"
				    " stored, %zu already there ", m.lines,
				    m.sum.done + m.npending, m.sum.unchanged);
		}
		free(line);
		fclose(f);
	}
	merge_flush(&m);
	if (m.tty && m.lines >= 1000)
		fprintf(stderr, "\n");
	summary_print(&m.sum, json);
	store_close(m.st);
	if (m.sum.not_stored > 0)
		return 3;
	return m.status;
}

/* --- slurm ------------------------------------------------------------ */

/* s quoted for sh: 'it'\''s'. */
static void
sh_quote(struct buf *b, const char *s)
{
	buf_addc(b, '\'');
	for (; *s != '\0'; s++) {
		if (*s == '\'')
			buf_adds(b, "'\\''");
		else
			buf_addc(b, *s);
	}
	buf_addc(b, '\'');
}

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

static int
cmd_slurm(const struct cli_global *g, int argc, char **argv)
{
	static const struct option lo[] = {
		{ "jobs", required_argument, NULL, 'j' },
		{ "timeout", required_argument, NULL, 't' },
		{ "sbatch-arg", required_argument, NULL, 'a' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 }
	};
	struct buf extra = BUF_INIT, script = BUF_INIT, cmd = BUF_INIT;
	struct buf list = BUF_INIT, verify = BUF_INIT;
	long jobs = 1, timeout_s = 0, vid, mid;
	char self[4096], *dir = NULL, *db = NULL, *path = NULL;
	unsigned *todo = NULL;
	size_t ntodo = 0, nslices, i;
	int ch, dry = 0, rc = 2;
	struct err err;
	json_t *man = NULL, *v;
	ssize_t n;

	if (wants_help("slurm", argc, argv))
		return 0;
	optind = 1;
	while ((ch = getopt_long(argc, argv, "j:", lo, NULL)) != -1) {
		if (ch == 'j' && parse_seconds(optarg, 1, 256, &jobs) == 0)
			continue;
		if (ch == 't' && parse_seconds(optarg, 1, 86400,
		    &timeout_s) == 0)
			continue;
		if (ch == 'a') {
			buf_addc(&extra, ' ');
			sh_quote(&extra, optarg);
		} else if (ch == 'n') {
			dry = 1;
		} else {
			buf_release(&extra);
			return usage_error("slurm", ch == 'j' ? "--jobs wants"
			    " 1..256%s" : ch == 't' ? "--timeout wants whole"
			    " seconds, 1..86400%s" : "bad option%s", "");
		}
	}
	if (optind + 1 != argc) {
		buf_release(&extra);
		return usage_error("slurm", "wants one DIR (export --shards -o"
		    " DIR)%s", "");
	}
	dir = realpath(argv[optind], NULL);
	path = xasprintf("%s/manifest.json", argv[optind]);
	man = json_load_file(path, 0, NULL);
	if (dir == NULL || !json_is_array(json_object_get(man, "slices"))) {
		fprintf(stderr, "assay slurm: %s: no manifest of export"
		    " --shards\n", path);
		goto out;
	}
	if (access(g->db, F_OK) != 0 || (db = realpath(g->db, NULL)) == NULL) {
		fprintf(stderr, "assay slurm: no database at %s (the merge job"
		    " writes into it; --db names it)\n", g->db);
		goto out;
	}
	n = readlink("/proc/self/exe", self, sizeof self - 1);
	if (n <= 0) {
		fprintf(stderr, "assay slurm: cannot find this program's path\n");
		goto out;
	}
	self[n] = '\0';
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
	    " scratch database on the node.\n#SBATCH --job-name=assay-verify\n"
	    "#SBATCH --output=");
	buf_printf(&script, "%s/logs/verify-%%A_%%a.out\n#SBATCH"
	    " --cpus-per-task=%ld\nset -eu\ni=$(printf %%04d"
	    " \"$SLURM_ARRAY_TASK_ID\")\nexec ", dir, jobs);
	sh_quote(&script, self);
	buf_adds(&script, " verify --input ");
	sh_quote(&script, dir);
	buf_adds(&script, "/slice-$i.jsonl --results ");
	sh_quote(&script, dir);
	buf_printf(&script, "/results/slice-$i.jsonl --jobs %ld", jobs);
	if (timeout_s > 0)
		buf_printf(&script, " --timeout %ld", timeout_s);
	buf_adds(&script, " --json\n");
	free(path);
	path = xasprintf("%s/verify.sbatch", dir);
	if (atomic_write(path, buf_str(&script), &err) < 0) {
		fprintf(stderr, "assay slurm: %s\n", err.msg);
		goto out;
	}
	buf_reset(&script);
	buf_printf(&script, "#!/bin/sh\n# Written by assay slurm: folds the"
	    " results of every slice into the\n# database; runs after the"
	    " array succeeded (--dependency=afterok).\n#SBATCH"
	    " --job-name=assay-merge\n#SBATCH --output=%s/logs/merge-%%j.out\n"
	    "set -eu\nexec ", dir);
	sh_quote(&script, self);
	buf_adds(&script, " --db ");
	sh_quote(&script, db);
	buf_adds(&script, " merge --json ");
	sh_quote(&script, dir);
	buf_adds(&script, "/results/slice-*.jsonl\n");
	free(path);
	path = xasprintf("%s/merge.sbatch", dir);
	if (atomic_write(path, buf_str(&script), &err) < 0) {
		fprintf(stderr, "assay slurm: %s\n", err.msg);
		goto out;
	}
	array_ranges(&list, todo, ntodo);
	buf_printf(&verify, "sbatch --parsable%s --array=%s ",
	    buf_str(&extra), buf_str(&list));
	sh_quote(&verify, dir);
	buf_adds(&verify, "/verify.sbatch");
	if (dry) {
		printf("%s\nsbatch --parsable%s --dependency=afterok:JOBID '%s/"
		    "merge.sbatch'\n", buf_str(&verify), buf_str(&extra), dir);
		rc = 0;
		goto out;
	}
	vid = sbatch_run(buf_str(&verify));
	if (vid < 0) {
		fprintf(stderr, "assay slurm: %s failed\n", buf_str(&verify));
		goto out;
	}
	buf_printf(&cmd, "sbatch --parsable%s --dependency=afterok:%ld ",
	    buf_str(&extra), vid);
	sh_quote(&cmd, dir);
	buf_adds(&cmd, "/merge.sbatch");
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
	free(path);
	free(dir);
	free(db);
	return rc;
}

/* --- list and show --------------------------------------------------- */

/* s as a JSON string (invalid UTF-8 as U+FFFD: jansson refuses it, and a
 * refused field would drop the whole row), or null. */
static json_t *
jstr_or_null(const char *s)
{
	struct buf b = BUF_INIT;
	json_t *v;

	if (s == NULL)
		return json_null();
	v = json_string(s);
	if (v != NULL)
		return v;
	safe_utf8(&b, s, strlen(s));
	v = json_stringn(b.p != NULL ? b.p : "", b.len);
	buf_release(&b);
	return v;
}

static json_t *
jraw(const char *txt)
{
	json_t *v = txt != NULL ? json_loads(txt, 0, NULL) : NULL;

	return v != NULL ? v : json_null();
}

/*
 * Untrusted text (candidate code, logs, origins, notes) to stdout: its
 * control characters, escape sequences and invalid UTF-8 as visible
 * escapes, so that it cannot set the window title, write the clipboard
 * (OSC 52) or hide text; a NUL no longer ends it.  Says so on stderr
 * when anything was escaped.
 */
/*
 * One field of a table row (an origin, a benchmark, an env name) as a
 * new string that is safe on a terminal and stays on its line: every
 * control character, newline included, shown escaped.  *escaped (may be
 * NULL) counts what was changed.
 */
static char *
vis(const char *s, size_t *escaped)
{
	struct buf b = BUF_INIT;
	size_t n;

	if (s == NULL)
		return xstrdup("-");
	n = safe_text(&b, s, strlen(s), 0);
	if (escaped != NULL)
		*escaped += n;
	buf_adds(&b, "");
	return buf_detach(&b, NULL);
}

static void
safe_print(const char *cmd, const char *s, size_t len)
{
	struct buf b = BUF_INIT;
	size_t n = safe_text(&b, s, len, SAFE_KEEP_LINES);

	fwrite(b.p != NULL ? b.p : "", 1, b.len, stdout);
	fflush(stdout);
	if (n > 0)
		fprintf(stderr, "assay %s: %zu control character%s or invalid"
		    " byte%s shown escaped (\\x1b, \\u009b, \\xff)\n", cmd, n,
		    n == 1 ? "" : "s", n == 1 ? "" : "s");
	buf_release(&b);
}

/*
 * Set o[key] to s (len bytes) as a JSON string, whatever its bytes: an
 * invalid UTF-8 byte or a NUL becomes U+FFFD, and o[key "_replaced"]
 * says how many were (jansson refuses such strings, and show --json
 * once dropped the whole log).  s NULL sets null.
 */
static void
jtext(json_t *o, const char *key, const char *s, size_t len)
{
	struct buf b = BUF_INIT;
	size_t n;

	if (s == NULL) {
		json_object_set_new(o, key, json_null());
		return;
	}
	n = safe_utf8(&b, s, len);
	json_object_set_new(o, key, json_stringn(b.p != NULL ? b.p : "",
	    b.len));
	if (n > 0) {
		char *k = xasprintf("%s_replaced", key);

		json_object_set_new(o, k, json_integer((json_int_t)n));
		free(k);
	}
	buf_release(&b);
}

static json_t *
row_json(const struct store_row *r)
{
	return json_pack("{s:s, s:s, s:s, s:s, s:o, s:s, s:s, s:o, s:o, s:o,"
	    " s:o, s:o, s:o, s:o, s:o, s:s, s:o}",
	    "id", r->id, "task", r->task, "benchmark", r->benchmark,
	    "domain", r->domain, "origin", jstr_or_null(r->origin), "kind",
	    r->kind,
	    "lang", r->lang, "parent", jstr_or_null(r->parent),
	    "source", jstr_or_null(r->source), "verdict",
	    jstr_or_null(r->verdict), "stage", jstr_or_null(r->stage),
	    "metrics", jraw(r->metrics), "category", jstr_or_null(r->category),
	    "subcategory", jstr_or_null(r->subcategory),
	    "category_source", jstr_or_null(r->category_source),
	    "status", r->status, "env", jstr_or_null(r->env));
}

static void
print_json(json_t *o)
{
	char *s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);

	puts(s);
	free(s);
	json_decref(o);
}

struct list_ctx {
	int		 json;
	size_t		 n;
	size_t		 escaped;	/* characters shown as escapes */
	struct buf	 out;		/* one safe line */
};

static int
list_one(const struct store_row *r, void *arg)
{
	struct list_ctx *c = arg;
	char cat[24];

	c->n++;
	snprintf(cat, sizeof cat, "%s%s", r->category != NULL ? r->category :
	    "-", r->category != NULL && r->category_source != NULL &&
	    strcmp(r->category_source, "auto") == 0 ? "?" : "");
	if (c->json) {
		print_json(row_json(r));
		return 0;
	}
	/* A suggestion of the run, not yet a person's label, ends in '?'
	 * (as in the workbench's queue). */
	{
		struct buf line = BUF_INIT;

		char *id = vis(r->id, &c->escaped), *task = vis(r->task,
		    &c->escaped), *origin = vis(r->origin, &c->escaped);

		/* Field by field, so that a newline in a field cannot
		 * start a row of its own. */
		buf_printf(&line, "%-10s %-40s %-26.26s %-9s %-8s %-11s %s\n",
		    id, task, origin, r->verdict != NULL ?
		    r->verdict : "-", r->stage != NULL ? r->stage : "-", cat,
		    r->status);
		free(id);
		free(task);
		free(origin);
		buf_add(&c->out, line.p, line.len);
		buf_release(&line);
		fwrite(c->out.p != NULL ? c->out.p : "", 1, c->out.len, stdout);
		buf_reset(&c->out);
	}
	return 0;
}

static int
cmd_list(const struct cli_global *g, int argc, char **argv)
{
	static const struct option lo[] = {
		{ "where", required_argument, NULL, 'w' },
		{ "json", no_argument, NULL, 'j' },
		{ "view", required_argument, NULL, 'v' },
		{ NULL, 0, NULL, 0 }
	};
	struct list_ctx c = { 0 };
	const char *view = NULL;
	struct buf where = BUF_INIT;
	struct store *st;
	struct err err;
	int ch, rc;

	if (wants_help("list", argc, argv))
		return 0;
	optind = 1;
	while ((ch = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		if (ch == 'w')
			where_add(&where, optarg);
		else if (ch == 'j')
			c.json = 1;
		else if (ch == 'v')
			view = optarg;
		else
			return usage_error("list", "bad option%s", "");
	}
	if (optind < argc)
		return usage_error("list", "unexpected argument '%s'",
		    argv[optind]);
	if (open_store(g, &st) < 0)
		return 2;
	if (view != NULL) {
		/* the saved filter first; --where narrows it */
		char *vf = NULL;
		struct buf w = BUF_INIT;

		rc = store_view_get(st, view, &vf, &err);
		if (rc != 0) {
			if (rc == 1)
				fprintf(stderr, "assay list: no view %s\n",
				    view);
			else
				fprintf(stderr, "assay list: %s\n", err.msg);
			buf_release(&where);
			store_close(st);
			return 2;
		}
		if (*vf != '\0')
			where_add(&w, vf);
		if (where.len > 0)
			where_add(&w, buf_str(&where));
		buf_release(&where);
		where = w;
		free(vf);
	}
	if (store_query_count(st, WHERE(where), &c.n, &err) < 0) {
		fprintf(stderr, "assay list: %s\n", err.msg);
		buf_release(&where);
		store_close(st);
		return 2;
	}
	c.n = 0;
	if (!c.json)
		printf("%-10s %-40s %-26s %-9s %-8s %-11s %s\n", "ID", "TASK",
		    "ORIGIN", "VERDICT", "STAGE", "CATEGORY", "STATUS");
	rc = store_query_each(st, WHERE(where), list_one, &c, &err);
	buf_release(&where);
	buf_release(&c.out);
	store_close(st);
	if (c.escaped > 0)
		fprintf(stderr, "assay list: %zu control character%s or invalid"
		    " byte%s shown escaped (\\x1b, \\u009b, \\xff)\n",
		    c.escaped, c.escaped == 1 ? "" : "s", c.escaped == 1 ? "" :
		    "s");
	if (rc < 0) {
		fprintf(stderr, "assay list: %s\n", err.msg);
		return 2;
	}
	return 0;
}

static json_t *
run_json(const struct run *r, int with_log)
{
	json_t *diags = json_array();
	json_t *o;

	for (size_t i = 0; i < r->ndiags; i++)
		json_array_append_new(diags, json_pack("{s:s, s:i, s:i, s:s, s:s,"
		    " s:o}", "file", r->diags[i].file, "line", r->diags[i].line,
		    "col", r->diags[i].col, "severity", r->diags[i].severity,
		    "message", r->diags[i].message, "cand_line",
		    r->diags[i].cand_line > 0 ? json_integer(r->diags[i].cand_line) :
		    json_null()));
	o = json_pack("{s:I, s:s, s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:o,"
	    " s:o, s:i, s:I, s:I, s:o}",
	    "id", (json_int_t)r->id, "env", r->env, "verdict", r->verdict,
	    "stage", jstr_or_null(r->stage),
	    "subcategory", jstr_or_null(r->subcategory),
	    "category", jstr_or_null(r->category),
	    "evidence", jstr_or_null(r->evidence),
	    "evidence_line", r->evidence_line > 0 ?
	    json_integer(r->evidence_line) : json_null(),
	    "metrics", jraw(r->metrics),
	    "toolchain", jstr_or_null(r->toolchain),
	    "inputs", jraw(r->inputs),
	    "exit_code", r->exit_code, "wall_ms", (json_int_t)r->wall_ms,
	    "started", (json_int_t)r->started,
	    "command", jstr_or_null(r->command));
	json_object_set_new(o, "diagnostics", diags);
	{
		/* A pipeline's members, as the trace pane shows them. */
		struct pipeline_step *st;
		size_t n;

		if (pipeline_steps(r->env, r->metrics, &st, &n) == 0) {
			json_t *a = json_array();

			for (size_t i = 0; i < n; i++) {
				json_t *stages = json_array();

				for (size_t k = 0; k < st[i].nstages; k++)
					json_array_append_new(stages,
					    json_string(st[i].stages[k]));
				json_array_append_new(a, json_pack("{s:s, s:s,"
				    " s:o, s:o, s:o}", "env", st[i].env,
				    "verdict", st[i].verdict, "stage",
				    jstr_or_null(st[i].stage), "subcategory",
				    jstr_or_null(st[i].subcategory), "stages",
				    stages));
			}
			json_object_set_new(o, "pipeline", a);
			pipeline_steps_free(st, n);
		}
	}
	if (with_log)
		jtext(o, "log", r->log, r->log_len);
	return o;
}

/* A pipeline run's members, one line each: its stages, verdict, metrics. */
static void
print_pipeline(FILE *o, const struct run *r)
{
	struct pipeline_step *st;
	size_t n;

	if (pipeline_steps(r->env, r->metrics, &st, &n) < 0)
		return;
	fprintf(o, "pipeline %s:\n", r->env);
	for (size_t i = 0; i < n; i++) {
		fprintf(o, "  %-10s %-9s", st[i].env, st[i].verdict);
		for (size_t k = 0; k < st[i].nstages; k++)
			fprintf(o, " %s %s", st[i].stages[k],
			    pipeline_step_failed(&st[i], k) ? "\xe2\x9c\x97" :
			    "\xe2\x9c\x93");
		if (st[i].subcategory != NULL)
			fprintf(o, "  %s", st[i].subcategory);
		if (st[i].metrics != NULL && *st[i].metrics != '\0')
			fprintf(o, "  (%s)", st[i].metrics);
		fprintf(o, "\n");
	}
	pipeline_steps_free(st, n);
}

/*
 * A diagnostic as a compiler prints it: "file:line: severity: message",
 * "file: severity: message" without a line, "severity: message" without
 * a file (a note of the env's own, a linker error).
 */
static void
print_diag(FILE *o, const struct diag *d)
{
	fprintf(o, "  ");
	if (d->file != NULL && d->file[0] != '\0') {
		fprintf(o, "%s:", d->file);
		if (d->line > 0)
			fprintf(o, "%d:", d->line);
		fprintf(o, " ");
	}
	fprintf(o, "%s: %s%s\n", d->severity, d->message, d->cand_line > 0 ?
	    "  <- candidate" : "");
}

static int
cmd_show(const struct cli_global *g, int argc, char **argv)
{
	static const struct option lo[] = {
		{ "json", no_argument, NULL, 'j' },
		{ NULL, 0, NULL, 0 }
	};
	struct candidate c;
	struct task t;
	struct run *runs = NULL;
	struct recorded *recs = NULL;
	struct store_event *evs = NULL;
	struct store_note *notes = NULL;
	struct store_decision d;
	size_t nruns = 0, nrecs = 0, nevs = 0, nnotes = 0, idx;
	struct store_row *row = NULL;
	size_t nrow = 0;
	struct store *st;
	struct err err;
	char *id, *filter;
	int json = 0, ch;

	if (wants_help("show", argc, argv))
		return 0;
	optind = 1;
	while ((ch = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		if (ch == 'j')
			json = 1;
		else
			return usage_error("show", "bad option%s", "");
	}
	if (optind + 1 != argc)
		return usage_error("show", "want one ID%s", "");
	if (open_store(g, &st) < 0)
		return 2;
	if ((id = resolve(st, argv[optind])) == NULL) {
		store_close(st);
		return 2;
	}
	if (store_candidate_get(st, id, &c, &err) != 0 ||
	    store_task_get(st, c.task_id, &t, &err) != 0 ||
	    store_run_list(st, id, &runs, &nruns, &err) < 0 ||
	    store_recorded_list(st, id, &recs, &nrecs, &err) < 0 ||
	    store_event_list(st, id, &evs, &nevs, &err) < 0 ||
	    store_note_list(st, id, &notes, &nnotes, &err) < 0 ||
	    store_decision_get(st, id, &d, &err) < 0) {
		fprintf(stderr, "assay show: %s\n", err.msg);
		store_close(st);
		free(id);
		return 2;
	}
	filter = xasprintf("id=%s", id);
	if (store_query_index(st, filter, id, &idx, &err) == 0)
		store_query_page(st, filter, 0, 1, &row, &nrow, &err);
	free(filter);
	if (json) {
		json_t *o = nrow == 1 ? row_json(&row[0]) : json_object();
		json_t *files = json_array(), *a;

		json_t *to;

		for (size_t i = 0; i < t.nfiles; i++) {
			json_t *f = json_pack("{s:s, s:s}", "name",
			    t.files[i].name, "role", t.files[i].role);

			jtext(f, "content", t.files[i].data, t.files[i].len);
			json_array_append_new(files, f);
		}
		to = json_pack("{s:s, s:s, s:s, s:s, s:o}", "id", t.id,
		    "benchmark", t.benchmark, "domain", t.domain, "env", t.env,
		    "env_params", jraw(t.env_params));
		jtext(to, "spec", t.spec, t.spec != NULL ? strlen(t.spec) : 0);
		jtext(to, "interface", t.interface, t.interface != NULL ?
		    strlen(t.interface) : 0);
		jtext(to, "source", t.source, t.source != NULL ?
		    strlen(t.source) : 0);
		json_object_set_new(to, "files", files);
		json_object_set_new(o, "task", to);
		if (c.extra != NULL) {
			json_t *ex = jraw(c.extra), *gen;

			/* What produced a model's candidate (generate.h). */
			gen = json_object_get(ex, "generation");
			if (gen != NULL)
				json_object_set(o, "generation", gen);
			json_decref(ex);
		}
		jtext(o, "code", c.code, c.code_len);
		json_object_set_new(o, "code_hash", json_string(c.code_hash));
		json_object_set_new(o, "origin_raw", jstr_or_null(c.origin_raw));
		a = json_array();
		for (size_t i = 0; i < nruns; i++)
			json_array_append_new(a, run_json(&runs[i], 1));
		json_object_set_new(o, "runs", a);
		a = json_array();
		for (size_t i = 0; i < nrecs; i++) {
			json_t *rec = json_pack("{s:o, s:o}", "verdict",
			    jstr_or_null(recs[i].verdict), "stage",
			    jstr_or_null(recs[i].stage));

			jtext(rec, "log", recs[i].log, recs[i].log != NULL ?
			    strlen(recs[i].log) : 0);
			json_object_set_new(rec, "raw", jraw(recs[i].extra));
			json_array_append_new(a, rec);
		}
		json_object_set_new(o, "recorded", a);
		json_object_set_new(o, "label", d.category != NULL ?
		    json_pack("{s:s, s:o, s:o, s:o}", "category", d.category,
		    "subcategory", jstr_or_null(d.subcategory), "by",
		    jstr_or_null(d.label_by), "note", jstr_or_null(d.label_note)) :
		    json_null());
		json_object_set_new(o, "review", json_pack("{s:s, s:o, s:o}",
		    "status", d.status, "note", jstr_or_null(d.review_note),
		    "by", jstr_or_null(d.review_by)));
		a = json_array();
		for (size_t i = 0; i < nevs; i++)
			json_array_append_new(a, json_pack("{s:I, s:I, s:s, s:s,"
			    " s:o}", "id", (json_int_t)evs[i].id, "at",
			    (json_int_t)evs[i].at, "who", evs[i].who, "action",
			    evs[i].action, "detail", jstr_or_null(evs[i].detail)));
		json_object_set_new(o, "events", a);
		a = json_array();
		for (size_t i = 0; i < nnotes; i++)
			json_array_append_new(a, json_pack("{s:s, s:s, s:I}",
			    "text", notes[i].text, "by", notes[i].by, "at",
			    (json_int_t)notes[i].at));
		json_object_set_new(o, "notes", a);
		print_json(o);
	} else {
		char *mem = NULL;
		size_t memlen = 0;
		FILE *o = open_memstream(&mem, &memlen);

		if (o == NULL)
			fatal("open_memstream: %s", strerror(errno));
		fprintf(o, "candidate %s  task %s  (%s, %s)\n", c.id, t.id,
		    t.benchmark, t.domain);
		fprintf(o, "origin    %s  kind %s  lang %s%s%s\n", c.origin, c.kind,
		    c.lang, c.parent != NULL ? "  parent " : "",
		    c.parent != NULL ? c.parent : "");
		fprintf(o, "source    %s\n", c.source != NULL ? c.source : "-");
		fprintf(o, "status    %s%s%s", d.status, d.review_by != NULL ?
		    " by " : "", d.review_by != NULL ? d.review_by : "");
		if (d.category != NULL)
			fprintf(o, "  label %s%s%s by %s", d.category,
			    d.subcategory != NULL ? "/" : "",
			    d.subcategory != NULL ? d.subcategory : "",
			    d.label_by);
		fprintf(o, "\n");
		for (size_t i = 0; i < nnotes; i++)
			fprintf(o, "note      %s (%s)\n", notes[i].text,
			    notes[i].by);
		fprintf(o, "\n--- code ---\n");
		fwrite(c.code, 1, c.code_len, o);
		fprintf(o, "%s", c.code_len > 0 &&
		    c.code[c.code_len - 1] != '\n' ? "\n" : "");
		for (size_t i = 0; i < nrecs; i++)
			fprintf(o, "\n--- recorded: %s %s ---\n%s\n",
			    recs[i].verdict != NULL ? recs[i].verdict : "-",
			    recs[i].stage != NULL ? recs[i].stage : "",
			    recs[i].log != NULL ? recs[i].log : "");
		for (size_t i = 0; i < nruns; i++) {
			const struct run *r = &runs[i];

			fprintf(o, "\n--- run %lld: %s%s%s%s%s (%s, %lld ms) ---\n",
			    (long long)r->id, r->verdict, r->stage != NULL ?
			    " at " : "", r->stage != NULL ? r->stage : "",
			    r->subcategory != NULL ? ", " : "",
			    r->subcategory != NULL ? r->subcategory : "",
			    r->toolchain != NULL ? r->toolchain : "?",
			    (long long)r->wall_ms);
			if (r->category != NULL)
				fprintf(o, "suggested category: %s%s%s\n",
				    r->category, r->subcategory != NULL ? "/" : "",
				    r->subcategory != NULL ? r->subcategory : "");
			/* A pass, a skip or an env-error has evidence too
			 * ("skipped: no GPU"), as show --json says. */
			if (r->category != NULL || r->evidence != NULL)
				fprintf(o, "evidence: %s\n", r->evidence != NULL ?
				    r->evidence : "-");
			if (r->evidence_line > 0)
				fprintf(o, "evidence points to candidate line %d\n",
				    r->evidence_line);
			if (r->metrics != NULL)
				fprintf(o, "metrics: %s\n", r->metrics);
			print_pipeline(o, r);
			for (size_t k = 0; k < r->ndiags; k++)
				print_diag(o, &r->diags[k]);
			fprintf(o, "reproduce (with the run's files in the work"
			    " directory; verify --keep-workdir keeps them):\n%s",
			    r->command != NULL ? r->command : "");
			fprintf(o, "log:\n");
			fwrite(r->log, 1, r->log_len, o);
			fprintf(o, "\n");
		}
		fclose(o);
		safe_print("show", mem, memlen);
		free(mem);
	}
	for (size_t i = 0; i < nruns; i++)
		run_release(&runs[i]);
	free(runs);
	for (size_t i = 0; i < nrecs; i++)
		recorded_release(&recs[i]);
	free(recs);
	for (size_t i = 0; i < nevs; i++)
		store_event_release(&evs[i]);
	free(evs);
	for (size_t i = 0; i < nnotes; i++)
		store_note_release(&notes[i]);
	free(notes);
	for (size_t i = 0; i < nrow; i++)
		store_row_release(&row[i]);
	free(row);
	store_decision_release(&d);
	candidate_release(&c);
	task_release(&t);
	free(id);
	store_close(st);
	return 0;
}

/* --- decisions ------------------------------------------------------- */

static const char *const categories[] = { "compile", "api", "functional",
	"format", "performance" };

static int
cmd_label(const struct cli_global *g, int argc, char **argv)
{
	static const struct option lo[] = {
		{ "sub", required_argument, NULL, 's' },
		{ "note", required_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 }
	};
	const char *sub = NULL, *note = NULL, *cat;
	struct store *st;
	struct run run;
	struct err err;
	char *id, *by;
	int ch, ok = 0, rc, have;

	if (wants_help("label", argc, argv))
		return 0;
	optind = 1;
	while ((ch = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		if (ch == 's')
			sub = optarg;
		else if (ch == 'n')
			note = optarg;
		else
			return usage_error("label", "bad option%s", "");
	}
	if (optind + 2 != argc)
		return usage_error("label", "want ID and CATEGORY%s", "");
	if (sub != NULL && *sub == '\0')
		sub = NULL;
	if (note != NULL && *note == '\0')
		note = NULL;
	cat = argv[optind + 1];
	for (size_t i = 0; i < 5; i++)
		ok = ok || strcmp(cat, categories[i]) == 0;
	if (!ok)
		return usage_error("label", "unknown category '%s' (compile api"
		    " functional format performance)", cat);
	if (open_store(g, &st) < 0)
		return 2;
	if ((id = resolve(st, argv[optind])) == NULL) {
		store_close(st);
		return 2;
	}
	by = reviewer(g);
	if (by == NULL) {
		free(id);
		store_close(st);
		return 2;
	}
	have = store_run_latest(st, id, &run, &err);
	rc = store_label_set(st, id, cat, sub, note, by, have == 0 ? run.id : 0,
	    have == 0 ? run.evidence : NULL, &err);
	if (have == 0)
		run_release(&run);
	if (rc < 0)
		fprintf(stderr, "assay label: %s\n", err.msg);
	else
		printf("%s labelled %s%s%s by %s\n", id, cat, sub != NULL ? "/" :
		    "", sub != NULL ? sub : "", by);
	free(by);
	free(id);
	store_close(st);
	return rc < 0 ? 2 : 0;
}

static int
cmd_review(const struct cli_global *g, int argc, char **argv)
{
	static const struct option lo[] = {
		{ "note", required_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 }
	};
	static const struct { const char *verb, *status; } verbs[] = {
		{ "accept", "accepted" }, { "reject", "rejected" },
		{ "flag", "flagged" }, { "reset", "unreviewed" },
	};
	const char *note = NULL, *status = NULL;
	struct store *st;
	struct err err;
	char *id, *by;
	int ch, rc;

	if (wants_help("review", argc, argv))
		return 0;
	optind = 1;
	while ((ch = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		if (ch == 'n')
			note = optarg;
		else
			return usage_error("review", "bad option%s", "");
	}
	if (optind + 2 != argc)
		return usage_error("review", "want ID and accept|reject|flag%s",
		    "");
	for (size_t i = 0; i < sizeof verbs / sizeof verbs[0]; i++)
		if (strcmp(argv[optind + 1], verbs[i].verb) == 0)
			status = verbs[i].status;
	if (status == NULL)
		return usage_error("review", "unknown decision '%s' (accept"
		    " reject flag)", argv[optind + 1]);
	if (open_store(g, &st) < 0)
		return 2;
	if ((id = resolve(st, argv[optind])) == NULL) {
		store_close(st);
		return 2;
	}
	by = reviewer(g);
	if (by == NULL) {
		free(id);
		store_close(st);
		return 2;
	}
	if (strcmp(status, "accepted") == 0) {
		struct run run;

		/* The workbench asks; headless, say it. */
		if (store_run_latest(st, id, &run, &err) == 0) {
			if (strcmp(run.verdict, "pass") != 0)
				fprintf(stderr, "assay: note: %s's latest verdict is"
				    " %s; accepted anyway\n", id, run.verdict);
			run_release(&run);
		} else {
			fprintf(stderr, "assay: note: %s was never verified;"
			    " accepted anyway\n", id);
		}
	}
	rc = store_review_set(st, id, status, note, by, &err);
	if (rc < 0)
		fprintf(stderr, "assay review: %s\n", err.msg);
	else
		printf("%s %s by %s\n", id, status, by);
	free(by);
	free(id);
	store_close(st);
	return rc < 0 ? 2 : 0;
}

static int
undo_redo(const struct cli_global *g, int argc, char **argv, int redo)
{
	static const struct option lo[] = {
		{ "any", no_argument, NULL, 'a' },
		{ NULL, 0, NULL, 0 }
	};
	const char *name = redo ? "redo" : "undo";
	struct store *st;
	struct err err;
	char what[256], *by;
	int rc, any = 0, ch;

	if (wants_help(name, argc, argv))
		return 0;
	optind = 1;
	while ((ch = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		if (ch == 'a')
			any = 1;
		else
			return usage_error(name, "bad option%s", "");
	}
	if (optind < argc)
		return usage_error(name, "unexpected argument '%s'",
		    argv[optind]);
	if (open_store(g, &st) < 0)
		return 2;
	by = reviewer(g);
	if (by == NULL) {
		store_close(st);
		return 2;
	}
	if (any)
		rc = redo ? store_redo_any(st, by, what, sizeof what, &err) :
		    store_undo_any(st, by, what, sizeof what, &err);
	else
		rc = redo ? store_redo(st, by, what, sizeof what, &err) :
		    store_undo(st, by, what, sizeof what, &err);
	if (rc < 0)
		fprintf(stderr, "assay: %s\n", err.msg);
	else
		printf("%s\n", what);
	free(by);
	store_close(st);
	return rc < 0 ? 2 : 0;
}

static int
cmd_undo(const struct cli_global *g, int argc, char **argv)
{
	return undo_redo(g, argc, argv, 0);
}

static int
cmd_redo(const struct cli_global *g, int argc, char **argv)
{
	return undo_redo(g, argc, argv, 1);
}

/* --- dedup ----------------------------------------------------------- */

static int
cmd_dedup(const struct cli_global *g, int argc, char **argv)
{
	static const struct option lo[] = {
		{ "where", required_argument, NULL, 'w' },
		{ "threshold", required_argument, NULL, 't' },
		{ "exact-only", no_argument, NULL, 'e' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "quiet", no_argument, NULL, 'q' },
		{ NULL, 0, NULL, 0 }
	};
	struct dedup_opts o = { NULL, 0.8, 0, 0 };
	struct dedup_report rep;
	struct buf where = BUF_INIT;
	struct store *st;
	struct err err;
	char *end;
	int ch, quiet = 0, rc;

	if (wants_help("dedup", argc, argv))
		return 0;
	optind = 1;
	while ((ch = getopt_long(argc, argv, "q", lo, NULL)) != -1) {
		if (ch == 'w') {
			where_add(&where, optarg);
		} else if (ch == 't') {
			o.threshold = strtod(optarg, &end);
			if (*end != '\0' || !(o.threshold > 0) ||
			    o.threshold > 1) {
				buf_release(&where);
				return usage_error("dedup", "bad threshold '%s':"
				    " want a Jaccard similarity above 0, at most"
				    " 1", optarg);
			}
		} else if (ch == 'e') {
			o.exact_only = 1;
		} else if (ch == 'n') {
			o.dry_run = 1;
		} else if (ch == 'q') {
			quiet = 1;
		} else {
			buf_release(&where);
			return usage_error("dedup", "bad option%s", "");
		}
	}
	if (optind < argc) {
		buf_release(&where);
		return usage_error("dedup", "unexpected argument '%s'",
		    argv[optind]);
	}
	if (open_store(g, &st) < 0) {
		buf_release(&where);
		return 2;
	}
	o.where = WHERE(where);
	rc = dedup_run(st, &o, &rep, &err);
	buf_release(&where);
	store_close(st);
	if (rc < 0) {
		fprintf(stderr, "assay dedup: %s\n", err.msg);
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

/* --- contamination --------------------------------------------------- */

static int
cmd_contamination(const struct cli_global *g, int argc, char **argv)
{
	static const struct option lo[] = {
		{ "against", required_argument, NULL, 'a' },
		{ "where", required_argument, NULL, 'w' },
		{ "ngram", required_argument, NULL, 'n' },
		{ "min", required_argument, NULL, 'm' },
		{ "quiet", no_argument, NULL, 'q' },
		{ NULL, 0, NULL, 0 }
	};
	struct contam_opts o = { NULL, 0, NULL, 13, 1 };
	struct contam_report rep;
	struct buf where = BUF_INIT;
	const char **against = NULL;
	size_t nagainst = 0;
	struct store *st;
	struct err err;
	char *end;
	long v;
	int ch, quiet = 0, rc;

	if (wants_help("contamination", argc, argv))
		return 0;
	optind = 1;
	while ((ch = getopt_long(argc, argv, "q", lo, NULL)) != -1) {
		if (ch == 'a') {
			against = xreallocarray(against, nagainst + 1,
			    sizeof *against);
			against[nagainst++] = optarg;
		} else if (ch == 'w') {
			where_add(&where, optarg);
		} else if (ch == 'n' || ch == 'm') {
			v = strtol(optarg, &end, 10);
			if (*end != '\0' || v < 1 || v > 100) {
				free(against);
				buf_release(&where);
				return usage_error("contamination", "bad number"
				    " '%s' (1 to 100)", optarg);
			}
			if (ch == 'n')
				o.ngram = (int)v;
			else
				o.min_shared = (size_t)v;
		} else if (ch == 'q') {
			quiet = 1;
		} else {
			free(against);
			buf_release(&where);
			return usage_error("contamination", "bad option%s", "");
		}
	}
	/* --against A B C: the words after it are benchmarks too */
	for (; optind < argc; optind++) {
		against = xreallocarray(against, nagainst + 1,
		    sizeof *against);
		against[nagainst++] = argv[optind];
	}
	if (nagainst == 0) {
		buf_release(&where);
		return usage_error("contamination", "want --against"
		    " BENCHMARK...%s", "");
	}
	if (open_store(g, &st) < 0) {
		free(against);
		buf_release(&where);
		return 2;
	}
	o.against = against;
	o.nagainst = nagainst;
	o.where = WHERE(where);
	rc = contam_run(st, &o, &rep, &err);
	buf_release(&where);
	store_close(st);
	if (rc < 0) {
		fprintf(stderr, "assay contamination: %s\n", err.msg);
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

/* --- split ----------------------------------------------------------- */

struct split_count {
	char	*name[64];
	size_t	 n[64], hand[64], nnames, none;
};

static int
split_count_one(const char *task_id, const char *split, int hand, void *arg)
{
	struct split_count *c = arg;
	size_t i;

	(void)task_id;
	if (split == NULL) {
		c->none++;
		return 0;
	}
	for (i = 0; i < c->nnames && strcmp(c->name[i], split) != 0; i++)
		;
	if (i == c->nnames) {
		if (c->nnames == 64)
			return 0;
		c->name[c->nnames++] = xstrdup(split);
	}
	c->n[i]++;
	c->hand[i] += hand != 0;
	return 0;
}

static int
cmd_split(const struct cli_global *g, int argc, char **argv)
{
	static const struct option lo[] = {
		{ "ratios", required_argument, NULL, 'r' },
		{ "set", required_argument, NULL, 's' },
		{ "clear", no_argument, NULL, 'c' },
		{ NULL, 0, NULL, 0 }
	};
	struct split_spec spec;
	struct split_count cnt;
	const char *ratios = NULL, *set = NULL;
	struct store *st;
	struct err err;
	char *by;
	int ch, clear = 0, rc = 0;

	if (wants_help("split", argc, argv))
		return 0;
	optind = 1;
	while ((ch = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		if (ch == 'r')
			ratios = optarg;
		else if (ch == 's')
			set = optarg;
		else if (ch == 'c')
			clear = 1;
		else
			return usage_error("split", "bad option%s", "");
	}
	if ((set != NULL || clear) != (optind < argc))
		return usage_error("split", "--set NAME and --clear take TASK"
		    " ids, and only they%s", "");
	if (set != NULL && clear)
		return usage_error("split", "--set or --clear, not both%s", "");
	if (ratios != NULL && split_parse(ratios, &spec, &err) < 0)
		return usage_error("split", "%s", err.msg);
	if (set != NULL) {
		struct split_spec one;
		char *txt = xasprintf("%s=1", set);

		rc = split_parse(txt, &one, &err);
		free(txt);
		if (rc < 0)
			return usage_error("split", "%s", err.msg);
	}
	if (open_store(g, &st) < 0)
		return 2;
	by = config_reviewer(g->reviewer);
	for (int i = optind; i < argc && rc == 0; i++) {
		if (store_task_split_set(st, argv[i], clear ? NULL : set, 1, by,
		    &err) < 0) {
			fprintf(stderr, "assay split: %s\n", err.msg);
			rc = 2;
		} else {
			printf("%s: %s\n", argv[i], clear ? "split by hash" :
			    set);
		}
	}
	if (rc == 0 && ratios != NULL && split_assign(st, &spec, NULL,
	    &err) < 0) {
		fprintf(stderr, "assay split: %s\n", err.msg);
		rc = 2;
	}
	if (rc == 0 && optind == argc) {
		memset(&cnt, 0, sizeof cnt);
		if (store_task_split_each(st, split_count_one, &cnt,
		    &err) != 0) {
			fprintf(stderr, "assay split: %s\n", err.msg);
			rc = 2;
		}
		for (size_t i = 0; i < cnt.nnames; i++) {
			printf("%-12s %8zu tasks", cnt.name[i], cnt.n[i]);
			if (cnt.hand[i] > 0)
				printf(" (%zu by hand)", cnt.hand[i]);
			printf("\n");
			free(cnt.name[i]);
		}
		if (cnt.none > 0)
			printf("%-12s %8zu tasks\n", "(none)", cnt.none);
	}
	free(by);
	store_close(st);
	return rc;
}

/* --- commit, stats, envs --------------------------------------------- */

static int
cmd_commit(const struct cli_global *g, int argc, char **argv)
{
	static const struct option lo[] = {
		{ "repo", required_argument, NULL, 'r' },
		{ "message", required_argument, NULL, 'm' },
		{ NULL, 0, NULL, 0 }
	};
	const char *repo = "dataset", *msg = NULL;
	struct dataset_result res;
	struct store *st;
	struct err err;
	char *by;
	int ch, rc;

	if (wants_help("commit", argc, argv))
		return 0;
	optind = 1;
	while ((ch = getopt_long(argc, argv, "m:", lo, NULL)) != -1) {
		if (ch == 'r')
			repo = optarg;
		else if (ch == 'm')
			msg = optarg;
		else
			return usage_error("commit", "bad option%s", "");
	}
	if (open_store(g, &st) < 0)
		return 2;
	by = reviewer(g);
	if (by == NULL) {
		store_close(st);
		return 2;
	}
	rc = dataset_commit(st, repo, msg, by, &res, &err);
	if (rc < 0)
		fprintf(stderr, "assay commit: %s\n", err.msg);
	else if (!res.committed)
		printf("nothing new to commit (%zu accepted samples in %s)\n",
		    res.samples, repo);
	else
		printf("committed %.7s to %s: %zu added, %zu updated, %zu"
		    " removed (%zu sample%s, %zu context)\n", res.oid, repo,
		    res.added, res.modified, res.removed, res.samples,
		    res.samples == 1 ? "" : "s", res.context);
	free(by);
	store_close(st);
	return rc < 0 ? 2 : 0;
}

/* --- export ---------------------------------------------------------- */

/* The signal that stopped an export, 0 while none did. */
static volatile sig_atomic_t export_stop;

static void
export_on_signal(int sig)
{
	export_stop = sig;
}

static int
cmd_export(const struct cli_global *g, int argc, char **argv)
{
	static const struct option lo[] = {
		{ "where", required_argument, NULL, 'w' },
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "trajectory", required_argument, NULL, 't' },
		{ "include-failing", no_argument, NULL, 'F' },
		{ "shards", required_argument, NULL, 'N' },
		{ "split", required_argument, NULL, 'S' },
		{ "keep-dups", no_argument, NULL, 'D' },
		{ "keep-contaminated", no_argument, NULL, 'C' },
		{ NULL, 0, NULL, 0 }
	};
	struct split_spec spec;
	struct export_opts opts = { EXPORT_SFT, NULL, &export_stop,
	    EXPORT_TRAJ_WHOLE, 0 };
	long shards = 0;
	struct export_report rep;
	struct sigaction sa, old_int, old_term;
	struct buf where = BUF_INIT;
	const char *out = NULL;
	struct store *st;
	struct err err;
	int ch, rc;

	if (wants_help("export", argc, argv))
		return 0;
	optind = 1;
	while ((ch = getopt_long(argc, argv, "o:", lo, NULL)) != -1) {
		if (ch == 'w') {
			where_add(&where, optarg);
		} else if (ch == 'f') {
			if (export_format_parse(optarg, &opts.format, &err) < 0) {
				buf_release(&where);
				return usage_error("export", "%s", err.msg);
			}
		} else if (ch == 'o') {
			out = strcmp(optarg, "-") == 0 ? NULL : optarg;
		} else if (ch == 't') {
			if (export_trajectory_parse(optarg, &opts.trajectory,
			    &err) < 0) {
				buf_release(&where);
				return usage_error("export", "%s", err.msg);
			}
		} else if (ch == 'F') {
			opts.include_failing = 1;
		} else if (ch == 'N') {
			if (parse_seconds(optarg, 1, 100000, &shards) < 0) {
				buf_release(&where);
				return usage_error("export", "--shards wants"
				    " 1..100000, not '%s'", optarg);
			}
		} else if (ch == 'D') {
			opts.keep_dups = 1;
		} else if (ch == 'C') {
			opts.keep_contaminated = 1;
		} else if (ch == 'S') {
			if (split_parse(optarg, &spec, &err) < 0) {
				buf_release(&where);
				return usage_error("export", "%s", err.msg);
			}
			opts.split = &spec;
		} else {
			buf_release(&where);
			return usage_error("export", "bad option%s", "");
		}
	}
	if (optind < argc) {
		buf_release(&where);
		return usage_error("export", "unexpected argument '%s'",
		    argv[optind]);
	}
	if (shards > 0 && (opts.format != EXPORT_RAW || out == NULL)) {
		buf_release(&where);
		return usage_error("export", "--shards wants --format raw and"
		    " -o DIR%s", "");
	}
	if (open_store(g, &st) < 0) {
		buf_release(&where);
		return 2;
	}
	opts.where = WHERE(where);
	if (shards > 0) {
		struct export_slice *v;

		rc = export_shards(st, &opts, out, (unsigned)shards, &v, &err);
		buf_release(&where);
		store_close(st);
		if (rc < 0) {
			fprintf(stderr, "assay export: %s\n", err.msg);
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
	if (out != NULL)
		rc = export_file(st, &opts, out, &rep, &err);
	else
		rc = export_stream(st, &opts, stdout, &rep, &err);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	buf_release(&where);
	store_close(st);
	if (rc < 0) {
		fprintf(stderr, "assay export: %s%s\n", err.msg, out != NULL ?
		    "; nothing written" : "");
		if (export_stop != 0) {
			/* Die of the signal, as the caller asked. */
			signal((int)export_stop, SIG_DFL);
			raise((int)export_stop);
		}
		return 2;
	}
	if (out != NULL)
		printf("exported %zu line%s (%s) to %s\n", rep.lines,
		    rep.lines == 1 ? "" : "s", opts.format == EXPORT_RAW ?
		    "raw" : "sft", out);
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

/* One counted cell of a stats table. */
struct stats_cell {
	char	*group, *a, *b;	/* group, then two keys */
	size_t	 count;
};

struct stats_ctx {
	struct stats_cell *v;
	size_t		 n;
	const char	*by;
	int		 recorded;	/* recorded vs re-derived */
	struct store	*st;
};

static void
stats_add(struct stats_ctx *s, const char *group, const char *a,
    const char *b, size_t count)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (strcmp(s->v[i].group, group) == 0 &&
		    strcmp(s->v[i].a, a) == 0 && strcmp(s->v[i].b, b) == 0)
			break;
	if (i == s->n) {
		s->v = xreallocarray(s->v, s->n + 1, sizeof *s->v);
		s->v[i].group = xstrdup(group);
		s->v[i].a = xstrdup(a);
		s->v[i].b = xstrdup(b);
		s->v[i].count = 0;
		s->n++;
	}
	s->v[i].count += count;
}

/* "fail/compile", "pass", "unverified": a verdict with its stage. */
static char *
verdict_stage(const char *verdict, const char *stage)
{
	if (verdict == NULL)
		return xstrdup("unverified");
	if (strcmp(verdict, "pass") == 0 || stage == NULL)
		return xstrdup(verdict);
	return xasprintf("%s/%s", verdict, stage);
}

/*
 * --recorded: the failure count a recorded log reports (mismatches,
 * failures; verilog_failure_count()) against the one of assay's latest
 * run (its "mismatches" or "failures" metric), as a cell of the group
 * "GROUP (failure count)": "failure count" / "same", "different" or "none
 * re-derived".  Rows whose log reports no count take no part.
 */
static void
stats_failures(struct stats_ctx *s, const char *group,
    const struct recorded *rec, const char *metrics)
{
	long then = rec->log != NULL ? verilog_failure_count(rec->log,
	    strlen(rec->log)) : -1, now = -1;
	json_t *m;
	char *g;

	if (then < 0)
		return;
	m = metrics != NULL ? json_loads(metrics, 0, NULL) : NULL;
	if (json_is_integer(json_object_get(m, "mismatches")))
		now = (long)json_integer_value(json_object_get(m,
		    "mismatches"));
	else if (json_is_integer(json_object_get(m, "failures")))
		now = (long)json_integer_value(json_object_get(m, "failures"));
	json_decref(m);
	/* A group of its own: the verdict rows' shares stay as they were. */
	g = xasprintf("%s (failure count)", group);
	stats_add(s, g, "failure count", now < 0 ? "none re-derived" :
	    now == then ? "same" : "different", 1);
	free(g);
}

/* --recorded: a row's first recorded result against assay's own. */
static int
stats_one(const struct store_row *r, void *arg)
{
	struct stats_ctx *s = arg;
	const char *group = strcmp(s->by, "model") == 0 ? r->origin :
	    strcmp(s->by, "domain") == 0 ? r->domain :
	    strcmp(s->by, "env") == 0 ? r->env : r->benchmark;
	char *now = verdict_stage(r->verdict, r->stage);

	if (s->recorded) {
		struct recorded *recs;
		size_t n;
		struct err err;

		/* Only rows that carry a recorded result take part. */
		if (store_recorded_list(s->st, r->id, &recs, &n, &err) == 0) {
			for (size_t i = 0; i < n && i < 1; i++) {
				char *then = verdict_stage(recs[i].verdict,
				    recs[i].stage);

				stats_add(s, group, then, now, 1);
				free(then);
				stats_failures(s, group, &recs[i], r->metrics);
			}
			for (size_t i = 0; i < n; i++)
				recorded_release(&recs[i]);
			free(recs);
		}
	}
	free(now);
	return 0;
}

/*
 * The error analysis from the store's GROUP BY, each cell where
 * store_stat_bucket() puts it (the `s` sheet's rule): a category with
 * its subcategory, else the verdict ("unverified" before any run).
 */
static int
stats_cells(struct stats_ctx *s, const char *where, struct err *err)
{
	struct store_stat *v;
	size_t n;

	if (store_stats(s->st, where, s->by, &v, &n, err) < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		const char *b = store_stat_bucket(&v[i]);
		int cat = v[i].category != NULL && b == v[i].category;

		stats_add(s, v[i].group, b, cat && v[i].subcategory != NULL ?
		    v[i].subcategory : "-", v[i].count);
		store_stat_release(&v[i]);
	}
	free(v);
	return 0;
}

static int
stats_cmp(const void *x, const void *y)
{
	const struct stats_cell *a = x, *b = y;
	int c = strcmp(a->group, b->group);

	if (c != 0)
		return c;
	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	c = strcmp(a->a, b->a);
	return c != 0 ? c : strcmp(a->b, b->b);
}

/* A CSV field, quoted when it needs to be (RFC 4180). */
static void
csv_field(const char *v)
{
	char *safe = vis(v, NULL);	/* CSV is read on terminals too */

	v = safe;
	if (strpbrk(v, ",\"\n") == NULL) {
		fputs(v, stdout);
		free(safe);
		return;
	}
	putchar('"');
	for (; *v != '\0'; v++) {
		if (*v == '"')
			putchar('"');
		putchar(*v);
	}
	putchar('"');
	free(safe);
}

/*
 * stats --agreement: Cohen's kappa per pair of reviewers, each with its
 * 5x5 confusion matrix (rows the first reviewer, columns the second),
 * and how many candidates wait in the disagreement queue.
 */
static int
stats_agreement(struct store *st, const char *where, const char *fmt)
{
	struct agreement_pair *p;
	struct buf open = BUF_INIT;
	struct err err;
	size_t n, nopen = 0;

	if (store_agreement(st, where, &p, &n, &err) < 0) {
		fprintf(stderr, "assay stats: %s\n", err.msg);
		return 2;
	}
	buf_printf(&open, "%s%sdisagree=yes", where != NULL ? where : "",
	    where != NULL ? " " : "");
	if (store_query_count(st, buf_str(&open), &nopen, &err) < 0) {
		fprintf(stderr, "assay stats: %s\n", err.msg);
		nopen = 0;
	}
	buf_release(&open);
	if (strcmp(fmt, "csv") == 0)
		printf("a,b,n,agree,po,pe,kappa,a_category,b_category,count\n");
	else if (strcmp(fmt, "md") == 0)
		printf("| a | b | n | agree | po | pe | kappa |\n"
		    "|---|---|---:|---:|---:|---:|---:|\n");
	else if (strcmp(fmt, "table") == 0 && n > 0)
		printf("%-16s %-16s %6s %6s %6s %6s %6s\n", "a", "b", "n",
		    "agree", "po", "pe", "kappa");
	for (size_t i = 0; i < n; i++) {
		char kappa[16];

		if (isnan(p[i].kappa))
			snprintf(kappa, sizeof kappa, "-");
		else
			snprintf(kappa, sizeof kappa, "%.3f", p[i].kappa);
		if (strcmp(fmt, "table") == 0) {
			printf("%-16.16s %-16.16s %6zu %6zu %6.3f %6.3f %6s\n",
			    p[i].a, p[i].b, p[i].n, p[i].agree, p[i].po,
			    p[i].pe, kappa);
		} else if (strcmp(fmt, "md") == 0) {
			printf("| %s | %s | %zu | %zu | %.3f | %.3f | %s |\n",
			    p[i].a, p[i].b, p[i].n, p[i].agree, p[i].po,
			    p[i].pe, kappa);
		} else if (strcmp(fmt, "csv") == 0) {
			for (int r = 0; r < AGREEMENT_NCAT; r++) {
				for (int c = 0; c < AGREEMENT_NCAT; c++) {
					csv_field(p[i].a);
					putchar(',');
					csv_field(p[i].b);
					printf(",%zu,%zu,%.4f,%.4f,%s,%s,%s,"
					    "%zu\n", p[i].n, p[i].agree,
					    p[i].po, p[i].pe, strcmp(kappa,
					    "-") == 0 ? "" : kappa,
					    agreement_category_name(r),
					    agreement_category_name(c),
					    p[i].m[r][c]);
				}
			}
		} else {
			json_t *m = json_array(), *o;

			for (int r = 0; r < AGREEMENT_NCAT; r++) {
				json_t *row = json_array();

				for (int c = 0; c < AGREEMENT_NCAT; c++)
					json_array_append_new(row,
					    json_integer((json_int_t)
					    p[i].m[r][c]));
				json_array_append_new(m, row);
			}
			o = json_pack("{s:s, s:s, s:I, s:I, s:f, s:f, s:o,"
			    " s:o}", "a", p[i].a, "b", p[i].b, "n",
			    (json_int_t)p[i].n, "agree",
			    (json_int_t)p[i].agree, "po", p[i].po, "pe",
			    p[i].pe, "kappa", isnan(p[i].kappa) ?
			    json_null() : json_real(p[i].kappa), "matrix", m);
			print_json(o);
		}
	}
	/* the matrices, readable: rows are a's labels, columns b's */
	for (size_t i = 0; strcmp(fmt, "table") == 0 && i < n; i++) {
		printf("\n%s (rows) by %s (columns)\n%-12s", p[i].a, p[i].b,
		    "");
		for (int c = 0; c < AGREEMENT_NCAT; c++)
			printf(" %11s", agreement_category_name(c));
		putchar('\n');
		for (int r = 0; r < AGREEMENT_NCAT; r++) {
			printf("%-12s", agreement_category_name(r));
			for (int c = 0; c < AGREEMENT_NCAT; c++)
				printf(" %11zu", p[i].m[r][c]);
			putchar('\n');
		}
	}
	if (strcmp(fmt, "table") == 0) {
		if (n == 0)
			printf("no two reviewers labelled the same "
			    "candidate\n");
		printf("%s%zu candidate%s in disagreement (disagree=yes)\n",
		    n > 0 ? "\n" : "", nopen, nopen == 1 ? "" : "s");
	}
	for (size_t i = 0; i < n; i++)
		agreement_pair_release(&p[i]);
	free(p);
	return 0;
}

/* "1:02:03" for people; "-" for nothing. */
static void
hms(int64_t s, char *buf, size_t n)
{
	if (s <= 0)
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, "%lld:%02lld:%02lld", (long long)(s / 3600),
		    (long long)(s / 60 % 60), (long long)(s % 60));
}

/*
 * A time (seconds since 1970) as local "YYYY-MM-DD HH:MM".  Why: a time
 * localtime_r cannot convert (a journal from an old import with an "at"
 * far beyond year 9999) gives NULL, and strftime must not see that: the
 * raw number is shown instead.
 */
static void
when(int64_t t, char *buf, size_t n)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if ((int64_t)tt != t || localtime_r(&tt, &tm) == NULL ||
	    strftime(buf, n, "%Y-%m-%d %H:%M", &tm) == 0)
		snprintf(buf, n, "@%lld", (long long)t);
}

/* stats --reviewers: decisions per hour per reviewer, from the journal. */
static int
stats_reviewers(struct store *st, const char *where, const char *fmt)
{
	struct agreement_rate *r;
	struct err err;
	size_t n;

	if (store_throughput(st, where, &r, &n, &err) < 0) {
		fprintf(stderr, "assay stats: %s\n", err.msg);
		return 2;
	}
	if (strcmp(fmt, "table") == 0)
		printf("%-20s %9s %6s %9s %9s  %-16s  %s\n", "reviewer",
		    "decisions", "timed", "active", "per_hour", "first",
		    "last");
	else if (strcmp(fmt, "csv") == 0)
		printf("reviewer,decisions,timed,active_s,per_hour,first,"
		    "last\n");
	else if (strcmp(fmt, "md") == 0)
		printf("| reviewer | decisions | timed | active | per hour |\n"
		    "|---|---:|---:|---:|---:|\n");
	for (size_t i = 0; i < n; i++) {
		double ph = agreement_rate_per_hour(&r[i]);
		char rate[32], act[32], t0[32], t1[32];

		if (ph < 0)
			snprintf(rate, sizeof rate, "-");
		else
			snprintf(rate, sizeof rate, "%.1f", ph);
		hms(r[i].active_s, act, sizeof act);
		when(r[i].first, t0, sizeof t0);
		when(r[i].last, t1, sizeof t1);
		if (strcmp(fmt, "table") == 0) {
			printf("%-20.20s %9zu %6zu %9s %9s  %-16s  %s\n",
			    r[i].who, r[i].decisions, r[i].timed, act, rate,
			    t0, t1);
		} else if (strcmp(fmt, "csv") == 0) {
			csv_field(r[i].who);
			printf(",%zu,%zu,%lld,%s,%lld,%lld\n", r[i].decisions,
			    r[i].timed, (long long)r[i].active_s, ph < 0 ? "" :
			    rate, (long long)r[i].first,
			    (long long)r[i].last);
		} else if (strcmp(fmt, "md") == 0) {
			printf("| %s | %zu | %zu | %s | %s |\n", r[i].who,
			    r[i].decisions, r[i].timed, act, rate);
		} else {
			print_json(json_pack("{s:s, s:I, s:I, s:I, s:o, s:I,"
			    " s:I}", "reviewer", r[i].who, "decisions",
			    (json_int_t)r[i].decisions, "timed",
			    (json_int_t)r[i].timed, "active_s",
			    (json_int_t)r[i].active_s, "per_hour", ph < 0 ?
			    json_null() : json_real(ph), "first",
			    (json_int_t)r[i].first, "last",
			    (json_int_t)r[i].last));
		}
		agreement_rate_release(&r[i]);
	}
	if (n == 0 && strcmp(fmt, "table") == 0)
		printf("no decisions in the journal\n");
	free(r);
	return 0;
}

static int
cmd_stats(const struct cli_global *g, int argc, char **argv)
{
	static const struct option lo[] = {
		{ "by", required_argument, NULL, 'b' },
		{ "where", required_argument, NULL, 'w' },
		{ "format", required_argument, NULL, 'f' },
		{ "recorded", no_argument, NULL, 'r' },
		{ "agreement", no_argument, NULL, 'a' },
		{ "reviewers", no_argument, NULL, 'R' },
		{ "generation", no_argument, NULL, 'G' },
		{ NULL, 0, NULL, 0 }
	};
	struct stats_ctx s = { .by = "benchmark" };
	int people = 0;	/* 'a' agreement, 'R' reviewers */
	const char *fmt = "table", *ka, *kb;
	struct buf where = BUF_INIT;
	struct store *st;
	struct err err;
	int ch;

	if (wants_help("stats", argc, argv))
		return 0;
	optind = 1;
	while ((ch = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		if (ch == 'b')
			s.by = optarg;
		else if (ch == 'w')
			where_add(&where, optarg);
		else if (ch == 'f')
			fmt = optarg;
		else if (ch == 'r')
			s.recorded = 1;
		else if (ch == 'a' || ch == 'R' || ch == 'G')
			people = ch;
		else
			return usage_error("stats", "bad option%s", "");
	}
	if (strcmp(s.by, "benchmark") != 0 && strcmp(s.by, "model") != 0 &&
	    strcmp(s.by, "domain") != 0 && strcmp(s.by, "env") != 0 &&
	    strcmp(s.by, "license") != 0 && strcmp(s.by, "split") != 0)
		return usage_error("stats", "--by wants benchmark, model, domain,"
		    " env, license or split, not '%s'", s.by);
	if (strcmp(fmt, "table") != 0 && strcmp(fmt, "csv") != 0 &&
	    strcmp(fmt, "json") != 0 && strcmp(fmt, "md") != 0)
		return usage_error("stats", "--format wants table, csv, json or"
		    " md, not '%s'", fmt);
	if (open_store(g, &st) < 0)
		return 2;
	if (people != 0) {
		int rc = people == 'a' ? stats_agreement(st, WHERE(where),
		    fmt) : people == 'G' ? cli_stats_generation(st,
		    WHERE(where), fmt, 0) : stats_reviewers(st, WHERE(where),
		    fmt);

		store_close(st);
		buf_release(&where);
		return rc;
	}
	s.st = st;
	if ((s.recorded ? store_query_each(st, WHERE(where), stats_one, &s,
	    &err) : stats_cells(&s, WHERE(where), &err)) < 0) {
		buf_release(&where);
		fprintf(stderr, "assay stats: %s\n", err.msg);
		store_close(st);
		return 2;
	}
	store_close(st);
	qsort(s.v, s.n, sizeof *s.v, stats_cmp);
	ka = s.recorded ? "recorded" : "category";
	kb = s.recorded ? "re-derived" : "subcategory";
	if (strcmp(fmt, "table") == 0)
		printf("%-28s %-20s %-26s %7s %7s\n", s.by, ka, kb, "count",
		    "share");
	else if (strcmp(fmt, "csv") == 0)
		printf("%s,%s,%s,count,share\n", s.by, ka, kb);
	else if (strcmp(fmt, "md") == 0)
		printf("| %s | %s | %s | count | share |\n|---|---|---|---:|---:|\n",
		    s.by, ka, kb);
	for (size_t i = 0; i < s.n; i++) {
		size_t total = 0;
		double share;

		/* The share is within the group: a row of the published
		 * error analysis. */
		for (size_t k = 0; k < s.n; k++)
			if (strcmp(s.v[k].group, s.v[i].group) == 0)
				total += s.v[k].count;
		share = total > 0 ? 100.0 * (double)s.v[i].count /
		    (double)total : 0;
		if (strcmp(fmt, "table") == 0) {
			char *group = vis(s.v[i].group, NULL);

			printf("%-28.28s %-20.20s %-26.26s %7zu %6.1f%%\n",
			    group, s.v[i].a, s.v[i].b, s.v[i].count, share);
			free(group);
		} else if (strcmp(fmt, "csv") == 0) {
			csv_field(s.v[i].group);
			putchar(',');
			csv_field(s.v[i].a);
			putchar(',');
			csv_field(s.v[i].b);
			printf(",%zu,%.4f\n", s.v[i].count, share / 100);
		} else if (strcmp(fmt, "md") == 0) {
			char *group = vis(s.v[i].group, NULL);

			printf("| %s | %s | %s | %zu | %.1f%% |\n", group,
			    s.v[i].a, s.v[i].b, s.v[i].count, share);
			free(group);
		} else {
			print_json(json_pack("{s:s, s:s, s:s, s:I, s:f}", s.by,
			    s.v[i].group, ka, s.v[i].a, kb, s.v[i].b, "count",
			    (json_int_t)s.v[i].count, "share", share / 100));
		}
	}
	for (size_t i = 0; i < s.n; i++) {
		free(s.v[i].group);
		free(s.v[i].a);
		free(s.v[i].b);
	}
	free(s.v);
	/* By model, the table goes on with what the models' runs cost. */
	if (strcmp(s.by, "model") == 0 && !s.recorded &&
	    strcmp(fmt, "table") == 0 && open_store(g, &st) == 0) {
		cli_stats_generation(st, WHERE(where), fmt, 1);
		store_close(st);
	}
	buf_release(&where);
	return 0;
}

static int
cmd_envs(const struct cli_global *g, int argc, char **argv)
{
	const struct env_ops *const *list;
	struct err err;
	size_t n, missing = 0, partly = 0;

	(void)g;
	if (wants_help("envs", argc, argv))
		return 0;
	list = env_list(&n);
	printf("%-10s %-9s %-8s %s\n", "ENV", "DOMAIN", "PRESENT", "TOOLCHAIN");
	for (size_t i = 0; i < n; i++) {
		const struct env_ops *e = list[i];
		char id[ERR_MSG_MAX], lacks[256];

		if (verify_toolchain(e->name, id, sizeof id, &err) == 0) {
			/* Present, but maybe without a part some candidates
			 * need (torch, a GPU, CadQuery): say what and how to
			 * get it, as for a missing one. */
			int part = e->partial != NULL &&
			    e->partial(id, lacks, sizeof lacks);

			printf("%-10s %-9s %-8s %s\n", e->name, e->domain,
			    part ? "partly" : "yes", id);
			if (!part)
				continue;
			partly++;
			printf("%-29s missing: %s\n", "", lacks);
			if (e->missing_hint != NULL)
				printf("%-29s %s\n", "", e->missing_hint);
			continue;
		}
		missing++;
		printf("%-10s %-9s %-8s %s\n", e->name, e->domain, "no",
		    err.msg);
		if (e->packages != NULL)
			printf("%-29s install: apt-get install %s\n", "",
			    e->packages);
		if (e->missing_hint != NULL)
			printf("%-29s %s\n", "", e->missing_hint);
	}
	if (verify_sandbox_check(&err) == 0)
		printf("%-10s %-9s %-8s %s\n", "sandbox", "-", "yes",
		    "bubblewrap");
	else
		printf("%-10s %-9s %-8s %s\n", "sandbox", "-", "no", err.msg);
	/* The project venv: each package, its version and where from. */
	{
		static const char *const pkgs[] = { "cadquery", "cadquery-ocp",
		    "torch", "triton", "numpy", NULL };
		char vers[ERR_MSG_MAX];
		const char *dir = env_venv_dir();

		if (dir == NULL)
			printf("%-10s %-9s %-8s %s\n", "venv", "-", "no",
			    "no project venv (make deps makes build/venv;"
			    " ASSAY_VENV names another)");
		else if (env_venv_versions(pkgs, vers, sizeof vers) == 0)
			printf("%-10s %-9s %-8s %s: %s (from PyPI, pinned by"
			    " hash in scripts/venv-requirements.txt)\n", "venv",
			    "-", "yes", dir, vers);
		else
			printf("%-10s %-9s %-8s %s: its python3 does not run\n",
			    "venv", "-", "no", dir);
	}
	/* One table: what each domain does where no GPU is. */
	printf("\n%-10s %-9s %s\n", "ENV", "DOMAIN", "WITHOUT A GPU");
	for (size_t i = 0; i < n; i++)
		printf("%-10s %-9s %s\n", list[i]->name, list[i]->domain,
		    list[i]->without_gpu != NULL ? list[i]->without_gpu :
		    "everything (needs no GPU)");
	if (missing > 0)
		printf("\n%zu of %zu envs cannot run here.  `make deps` installs"
		    " every toolchain Debian has;\ncandidates of the others are"
		    " verified as skipped or env-error, with the reason.\n",
		    missing, n);
	if (partly > 0)
		printf("\n%zu of %zu envs run here in part (the missing: lines):"
		    " what needs the missing\npart is left out or verified as"
		    " skipped, with the reason.\n", partly, n);
	return 0;
}

static int cmd_help(const struct cli_global *, int, char **);

static const struct cmd cmds[] = {
	{ "import", "import [--format F] [--keep-going] [--id-prefix P] [--json]\n"
	  "              [--license SPDX] [--repository URL@COMMIT] PATH...",
	  "Import samples.  F: auto (default), assay, verilog-eval-v2,\n"
	  "verilog-eval-v1, rtlfixer, kernelbench, realbench, rtllm, dataset (a\n"
	  "checkout of the repository assay commit writes: tasks, their files,\n"
	  "samples and context with their ids and recorded verdicts).\n"
	  "Re-importing adds nothing.  PATH may be a pipe (/dev/stdin, <(...)).\n"
	  "A malformed line is reported as FILE:LINE and nothing of that file\n"
	  "is kept; --keep-going skips bad lines and lists them.  Files are\n"
	  "imported in order; the first that fails stops the import, and the\n"
	  "files imported, failed and not tried are listed.\n"
	  "--id-prefix P puts P before each explicit candidate id (and parent)\n"
	  "of the assay JSONL rows, for two sources that number alike.\n"
	  "Ids, names, categories, statuses and times are checked as\n"
	  "docs/formats.md says.\n"
	  "The tasks added get a licence: --license SPDX, else the SPDX id of\n"
	  "the LICENSE (COPYING, ...) in PATH, beside it or above it\n"
	  "(NOASSERTION when it names none assay knows); their sources\n"
	  "become URL@COMMIT:path with --repository, or when PATH is in a git\n"
	  "work tree.\n"
	  "On a terminal a progress line shows rows, rate and time left.\n"
	  "--json prints one summary object (files, tasks_added,\n"
	  "candidates_added, candidates_existing, skipped, failed).", cmd_import },
	{ "verify", "verify [--jobs N] [--shard I/N] [--env NAME] [--where"
	  " FILTER]\n              [--force] [--check] [--keep-workdir[=all]]"
	  " [--no-sandbox]\n              [--timeout S] [--quiet] [--json]"
	  " [--results FILE]\n              [--lock-timeout S] [--input SLICE]"
	  " [ID...]",
	  "Run candidates (all, those matching --where, or the IDs given)\n"
	  "through their env in the sandbox, N at a time (--jobs, default 1).\n"
	  "Candidates whose inputs and toolchain are unchanged since their last\n"
	  "run are skipped unless --force.  Each candidate is claimed before it\n"
	  "runs, so verifies running at once on one database share the work\n"
	  "(a killed verify's claims lapse after 60 s).\n"
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
	  "                     (docs/formats.md), renamed into place when done\n"
	  "  --lock-timeout S   wait up to S seconds (default 60) for another\n"
	  "                     writer's lock; a run still not stored is kept\n"
	  "                     in the results file (else assay-unstored-*.jsonl)\n"
	  "                     and counted as not stored\n"
	  "  --input SLICE      verify a slice of `export --shards` in a scratch\n"
	  "                     database of its own (--db is not used); with\n"
	  "                     --results OUT, writes OUT.done when every\n"
	  "                     candidate of the slice has a run\n"
	  "Exit status: 0; 1 with --check when a candidate did not pass (a gate\n"
	  "for scripts, not for job dependencies); 2 on errors or an incomplete\n"
	  "slice; 3 when runs could not be stored.", cmd_verify },
	{ "merge", "merge [--json] [--lock-timeout S] RESULTS...",
	  "Fold run results files (verify --results; docs/formats.md) into the\n"
	  "database.  A run whose candidate is not here, belongs to another\n"
	  "task, or was made on other inputs (its input key differs) is\n"
	  "refused with FILE:LINE and the reason; the rest merge.  A run that\n"
	  "is already here is not added again, so merging twice adds nothing.\n"
	  "Runs are stored in batches of 500, with progress on a terminal;\n"
	  "the summary is verify's, \"unchanged\" counting the runs already\n"
	  "here.  A merged run becomes its candidate's latest unless a run\n"
	  "that started later is here.  Exit status: 0; 2 when lines were refused or a file could\n"
	  "not be read; 3 when runs could not be stored.", cmd_merge },
	{ "slurm", "slurm [--jobs N] [--timeout S] [--sbatch-arg ARG]..."
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
	  "  --dry-run         write the scripts, print the sbatch commands\n"
	  "See docs/cluster.md.", cmd_slurm },
	{ "list", "list [--where FILTER] [--view NAME] [--json]",
	  "List candidates.  FILTER: space-separated key=value, key!=value or\n"
	  "key~text over id task benchmark domain origin model kind lang env\n"
	  "verdict stage category subcategory status source parent split\n"
	  "license; verdict=none matches candidates never verified.  dup=yes\n"
	  "the near-duplicates assay dedup marked to drop, contaminated=yes\n"
	  "those assay contamination flagged.  grep=TEXT is\n"
	  "full-text search: candidates whose code, run or recorded logs or\n"
	  "task spec hold TEXT as a phrase (grep=__syncthreads,\n"
	  "grep=\"a <= b\": quote a value with blanks, double inner quotes).\n"
	  "--view NAME starts from the filter saved as NAME (:save NAME in\n"
	  "the workbench); --where narrows it.\n"
	  "--json prints one JSON object per line.", cmd_list },
	{ "show", "show ID [--json]",
	  "Show a candidate: task, code, recorded results, every run with its\n"
	  "diagnostics, log and the command that reproduces it, labels, review\n"
	  "notes and events.", cmd_show },
	{ "label", "label ID CATEGORY [--sub TEXT] [--note TEXT]",
	  "Label a candidate with one of the five failure categories:\n"
	  "compile api functional format performance.", cmd_label },
	{ "review", "review ID accept|reject|flag [--note TEXT]",
	  "Set a candidate's review status.", cmd_review },
	{ "dedup", "dedup [--where FILTER] [--threshold J] [--exact-only]"
	  " [--dry-run] [--quiet]",
	  "Find exact and near-duplicate samples and mark them (the dup=\n"
	  "filter; sft export keeps one of each cluster).  Code is compared\n"
	  "without whitespace and comments (its tree-sitter grammar where one\n"
	  "is linked in): equal is an exact copy; near copies are found by\n"
	  "MinHash with LSH over shingles of 5 tokens, within and across\n"
	  "tasks, at Jaccard similarity J (default 0.8).  Each cluster keeps\n"
	  "the passing, then accepted, then earliest sample.  Prints the\n"
	  "clusters (--quiet: the summary only); the marks of the previous run\n"
	  "are replaced (--dry-run stores nothing).", cmd_dedup },
	{ "contamination", "contamination --against BENCHMARK... [--where"
	  " FILTER] [--ngram N]\n              [--min K] [--quiet]",
	  "Flag the samples whose code or task spec shares word N-grams\n"
	  "(default 13) with a benchmark's tasks: an imported benchmark by name\n"
	  "(its specs, interfaces, files and references) or a directory or\n"
	  "file (a .jsonl line by line).  Words are letters, digits and _,\n"
	  "case folded.  A sample sharing K (default 1) or more is flagged\n"
	  "(the contaminated= filter); sft export leaves flagged samples out\n"
	  "unless --keep-contaminated.  A benchmark's own candidates are not\n"
	  "checked against it; the marks against the benchmarks named are\n"
	  "replaced.", cmd_contamination },
	{ "split", "split [--ratios NAME=SHARE,...] | --set NAME TASK... |"
	  " --clear TASK...",
	  "Train/valid/test splits of the tasks (every sample of a task is in\n"
	  "its task's split; the split= filter).  --ratios\n"
	  "train=0.9,valid=0.05,test=0.05 gives every task without a hand-set\n"
	  "split the one a stable hash of its id falls in: the same in every\n"
	  "database, whatever the import order.  --set NAME sets the split of\n"
	  "the TASKs by hand (kept by every assignment, journalled); --clear\n"
	  "gives them back to the hash.  Then, or alone, prints the tasks per\n"
	  "split.", cmd_split },
	{ "undo", "undo [--any]", "Undo your latest label or review (the\n"
	  "reviewer's: --reviewer, ASSAY_REVIEWER, git, the login).  Another\n"
	  "reviewer's decisions are never undone; when someone decided the\n"
	  "same candidate since, it is refused.  --any: the latest of anyone's.",
	  cmd_undo },
	{ "redo", "redo [--any]", "Redo your latest undone label or review\n"
	  "(none once you decided anew).  --any: the latest of anyone's.",
	  cmd_redo },
	{ "commit", "commit [--repo DIR] [-m TEXT]",
	  "Write the accepted candidates into the dataset repository\n"
	  "(default ./dataset) and commit, one trailer block per sample.  Each\n"
	  "task's verification files go under its folder once, and the\n"
	  "ancestors of a repair that are not accepted go in as context, so\n"
	  "that import --format dataset and verify rebuild everything.",
	  cmd_commit },
	{ "export", "export [--where FILTER] [--format sft|raw] [-o FILE]\n"
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
	  "        --trajectory last keeps only the direct parent\n"
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
	  cmd_export },
	{ "stats", "stats [--by benchmark|model|domain|env|license|split]"
	  " [--where FILTER]\n"
	  "             [--format table|csv|json|md]\n"
	  "             [--recorded | --agreement | --reviewers |"
	  " --generation]",
	  "The error analysis: per group, candidates by category and\n"
	  "subcategory (the current label, else the run's suggestion), the\n"
	  "others by verdict, with counts and shares of the group.  A pass\n"
	  "counts as pass whatever its label; otherwise a category wins over\n"
	  "the verdict (an env-error labelled compile is compile), as the\n"
	  "workbench's s sheet counts.\n"
	  "--recorded instead crosses each imported row's recorded result with\n"
	  "assay's re-derived verdict and stage, and, in a group \"GROUP\n"
	  "(failure count)\", the failure count its recorded log reports\n"
	  "(mismatches, failures) with the re-derived one: same, different.\n"
	  "--agreement: for every two reviewers who labelled the same\n"
	  "candidates, Cohen's kappa and the 5x5 confusion matrix of their\n"
	  "categories (each reviewer's newest label that stands; final labels\n"
	  "that settle a disagreement are not votes), and how many candidates\n"
	  "are in disagreement (the filter disagree=yes).\n"
	  "--reviewers: decisions (labels and reviews in the journal) per\n"
	  "reviewer and per hour: each decision takes the time since the\n"
	  "reviewer's previous one; a pause over 5 minutes is a break, and\n"
	  "the decision after it is not timed.\n"
	  "--generation: per model that made candidates (generate, repair):\n"
	  "candidates, pass rate, pass@1 and pass@k (k the fewest samples of\n"
	  "a task; Chen et al. 2021), repairs tried and passing per round,\n"
	  "tokens and time; --by model shows it under its table.", cmd_stats },
	{ "generate", GENERATE_USAGE, GENERATE_HELP, cmd_generate },
	{ "repair", REPAIR_USAGE, REPAIR_HELP, cmd_repair },
	{ "envs", "envs", "List the toolchain envs and whether they are"
	  " installed.", cmd_envs },
	{ "help", "help [COMMAND]", "Show help.", cmd_help },
};

static const struct cmd *
find_cmd(const char *name)
{
	for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
		if (strcmp(cmds[i].name, name) == 0)
			return &cmds[i];
	return NULL;
}

int
cli_is_command(const char *name)
{
	return find_cmd(name) != NULL;
}

void
cli_usage(void)
{
	printf("assay %s - a workbench for execution-verified code samples\n\n"
	    "usage: assay [--db FILE] [--reviewer NAME] [--where FILTER]"
	    " [--repo DIR]\n"
	    "             [--no-sandbox] [--dump-screen FILE]   open the"
	    " workbench\n", VERSION);
	for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
		printf("       assay [--db FILE] %s\n", cmds[i].usage);
	printf("       assay --version\n\nEvery command takes --help."
	    "  The database defaults to ./assay.db.\n");
}

static int
cmd_help(const struct cli_global *g, int argc, char **argv)
{
	const struct cmd *c;

	(void)g;
	if (argc < 2 || strcmp(argv[1], "--help") == 0 ||
	    strcmp(argv[1], "-h") == 0) {
		cli_usage();
		return 0;
	}
	c = find_cmd(argv[1]);
	if (c == NULL) {
		fprintf(stderr, "assay: no command '%s'\n", argv[1]);
		return 2;
	}
	printf("usage: assay %s\n\n%s\n", c->usage, c->help);
	return 0;
}

int
cli_run(const struct cli_global *g, int argc, char **argv)
{
	const struct cmd *c = find_cmd(argv[0]);

	if (c == NULL) {
		fprintf(stderr, "assay: no command '%s'; see assay --help\n",
		    argv[0]);
		return 2;
	}
	return c->run(g, argc, argv);
}

const char *cli_version(void);

const char *
cli_version(void)
{
	return VERSION;
}

/* --- shared with the other command files (cli_shared.h) ------------- */

int
cli_open_store(const struct cli_global *g, struct store **st)
{
	return open_store(g, st);
}

int
cli_wants_help(const char *name, int argc, char **argv)
{
	return wants_help(name, argc, argv);
}

int
cli_usage_error(const char *cmd, const char *fmt, const char *arg)
{
	return usage_error(cmd, fmt, arg);
}

char *
cli_resolve(struct store *st, const char *id)
{
	return resolve(st, id);
}

int
cli_verify_ids(const struct cli_global *g, char **ids, size_t n, int jobs,
    int quiet)
{
	char **argv = xcalloc(n + 6, sizeof *argv);
	char jb[16];
	int argc = 0, rc;

	snprintf(jb, sizeof jb, "%d", jobs < 1 ? 1 : jobs > 256 ? 256 : jobs);
	argv[argc++] = "verify";
	argv[argc++] = "--jobs";
	argv[argc++] = jb;
	if (quiet)
		argv[argc++] = "--quiet";
	argv[argc++] = "--";
	for (size_t i = 0; i < n; i++)
		argv[argc++] = ids[i];
	rc = cmd_verify(g, argc, argv);
	free(argv);
	return rc;
}
