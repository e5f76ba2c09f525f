/*
 * verify.c - candidate runs: a job per candidate that prepares its env's
 * plan in a work directory (exec/workdir.h), runs each stage in the
 * sandbox (exec/sandbox.h) on a pipe or a pty, captures and caps its
 * output, enforces the wall clock and the disk cap, and hands the
 * stages' results to the env's judge and the triage; see verify.h.
 *
 * The child of each stage is started in its own session; the wall clock
 * and the output cap kill the whole process group.  The exact command
 * line of each stage (sandbox_argv()) is recorded in the run.
 */
#define _GNU_SOURCE
#include "verify/verify.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "envs/env.h"
#include "base/duration.h"
#include "base/buf.h"
#include "base/hash.h"
#include "base/secret.h"
#include "verify/pipeline.h"
#include "exec/proc.h"
#include "store/store.h"
#include "exec/sandbox.h"
#include "exec/workdir.h"
#include "verify/triage.h"
#include "model/vocab.h"

/*
 * One env of the job: the only one, or a member of a pipeline
 * (pipeline.h), which runs in a subdirectory of the work directory named
 * after it, on a copy of the task with its own env_params.
 */
struct verify_member {
	const struct env_ops	*env;
	struct task		 task;		/* env and env_params its own */
	struct env_plan		 plan;
	char			*dir;		/* its work directory */
	char			 sub[PIPELINE_NAME];	/* "" or its name */
	struct env_stage_result	 res[ENV_MAX_STAGES];
	size_t			 stage_start[ENV_MAX_STAGES];
	size_t			 stage_end[ENV_MAX_STAGES];
	size_t			 nran;		/* stages started */
	int			 killed;	/* its last stage died of a SIGKILL
						   none of ours sent */
	/* The files sealed for its stages (env_stage.seal, env_plan.seal),
	 * by name, with the SHA-256 each had when it was sealed. */
	struct {
		char	 name[64];
		char	 hex[HASH_HEX_LEN + 1];
	}			 sealed[ENV_MAX_SEAL * (ENV_MAX_STAGES + 1)];
	size_t			 nsealed;
};


struct verify_job {
	struct verify_opts	 o;
	const char		*env_name;	/* task.env: one env or "a+b" */
	struct task		 task;
	struct candidate	 cand;
	struct verify_member	 m[PIPELINE_MAX];
	size_t			 nm;
	char			*workdir;
	char			 toolchain[ERR_MSG_MAX];
	int			 use_pty, rows, cols;	/* a pty of rows x cols */

	size_t			 mi;		/* current member */
	size_t			 stage;		/* its current stage */
	struct proc		 proc;		/* the stage's process */
	int			 running;
	struct buf		 log;		/* merged, capped */
	size_t			 live_off;	/* log bytes shown live so far */
	int			 quiet_said;	/* the quiet stage told of (its
						   member * 64 + stage + 1) */
	struct buf		 command;	/* every stage's command line */
	enum env_stop		 stop;
	int			 done;
	int64_t			 t0, deadline;	/* monotonic ms */
	int64_t			 started;	/* unix seconds */
	int			 kept;		/* the work directory stays */
	int64_t			 disk_check;	/* next size check, monotonic ms */
	uid_t			 uid;		/* the job's own uid, as root */
	int			 retried;	/* a stage the sandbox failed to start */
	int64_t			 stage_cpu_ms;	/* CPU time of the stage just reaped */
	char			*sandbox_error;	/* its message, when it failed twice */
	/* Set when an env's toolchain is not installed: the run is skipped
	 * with this reason and nothing starts. */
	char			*missing;
	int			 missing_shown;	/* told to the live output */
	/* The env's smoke test failed (smoke.h): the evidence, the stage
	 * and log of the failing sample (borrowed from smoke's cache). */
	char			*broken;
	const struct smoke_result *broken_smoke;
	char			*cache_dir;	/* lasting compiler cache or NULL */
	char			*seal_dir;	/* the seal store, once made */
	char			*stage_dir;	/* where the current stage runs */
	char			 stage_label[PIPELINE_NAME + 20];
};

/* The stop member m's judge sees: the job's, or that it was killed. */
static enum env_stop
member_stop(const struct verify_job *j, const struct verify_member *m)
{
	if (m == &j->m[j->mi] && j->stop != ENV_STOP_NONE)
		return j->stop;
	return m->killed ? ENV_STOP_KILLED : ENV_STOP_NONE;
}

/* The member and stage now running. */
#define CUR(j)		(&(j)->m[(j)->mi])
#define CUR_STAGE(j)	(&CUR(j)->plan.stages[(j)->stage])

/* --- the sandbox command line ---------------------------------------- */

/* The limits of member m's stages. */
static struct sandbox_limits
limits(const struct verify_job *j, const struct verify_member *m)
{
	struct sandbox_limits l = {
		.timeout_s = m->plan.timeout_s, .cpu_s = j->o.cpu_s,
		.mem_mb = j->o.mem_mb, .fsize_mb = j->o.fsize_mb,
		.nproc = j->o.nproc, .disk_mb = j->o.disk_mb,
	};

	return l;
}

/*
 * The command line of stage s of member m, run in dir with the files ro
 * (names under dir) bound read-only.  A stage that may use the lasting
 * compiler cache (env_stage.cache) gets it; a stage of the project venv
 * (env_stage.venv) sees it at ENV_VENV_MOUNT.
 */
static void
build_argv(const struct verify_job *j, const struct verify_member *m,
    const struct env_stage *s, const char *dir, const char *const *ro,
    struct sandbox_argv *a)
{
	struct sandbox_cmd c = {
		.argv = s->argv, .ro = ro, .dir = dir,
		.workdir = j->workdir,
		.cache = s->cache ? j->cache_dir : NULL,
		.venv = s->venv ? env_venv_dir() : NULL,
		.venv_mount = ENV_VENV_MOUNT,
		.no_proc = s->no_proc, .gpu = s->gpu,
		.unconfined = j->o.no_sandbox, .uid = j->uid,
		.lim = limits(j, m),
	};

	sandbox_argv(&c, a);
}

/* RLIMIT_CPU of the current member's stages, in seconds. */
static long
cpu_limit_s(const struct verify_job *j)
{
	struct sandbox_limits l = limits(j, CUR(j));

	return sandbox_cpu_s(&l);
}

/* --- toolchain identity and input keys ------------------------------ */

static struct {
	char	env[32];
	char	id[ERR_MSG_MAX];
	int	rc;	/* toolchain()'s: 0, -1 missing, ENV_TOOL_BROKEN */
} tool_cache[8];

/* The identity of one env, cached per process. */
static int
toolchain_one(const char *env, char *buf, size_t n, struct err *err)
{
	const struct env_ops *e = env_find(env);
	size_t i;

	if (e == NULL)
		return err_set(err, "unknown env '%s'", env);
	for (i = 0; i < sizeof tool_cache / sizeof tool_cache[0]; i++) {
		if (tool_cache[i].env[0] == '\0')
			break;
		if (strcmp(tool_cache[i].env, env) == 0) {
			if (tool_cache[i].rc < 0) {
				err_set(err, "%s: %s", env, tool_cache[i].id);
				return tool_cache[i].rc;
			}
			snprintf(buf, n, "%s", tool_cache[i].id);
			return 0;
		}
	}
	if (i == sizeof tool_cache / sizeof tool_cache[0])
		i = 0;
	snprintf(tool_cache[i].env, sizeof tool_cache[i].env, "%s", env);
	{
		struct err e2 = { 0 };
		int rc = e->toolchain(tool_cache[i].id,
		    sizeof tool_cache[i].id, &e2);

		if (rc < 0) {
			snprintf(tool_cache[i].id, sizeof tool_cache[i].id,
			    "%s", e2.msg);
			tool_cache[i].rc = rc == ENV_TOOL_BROKEN ?
			    ENV_TOOL_BROKEN : -1;
			if (err != NULL)
				*err = e2;
			return tool_cache[i].rc;
		}
	}
	tool_cache[i].rc = 0;
	snprintf(buf, n, "%s", tool_cache[i].id);
	return 0;
}

int
verify_toolchain(const char *env, char *buf, size_t n, struct err *err)
{
	char names[PIPELINE_MAX][PIPELINE_NAME], one[ERR_MSG_MAX];
	struct err e;
	int k;

	if (!pipeline_is(env))
		return toolchain_one(env, buf, n, err);
	/* A pipeline: every member's identity, in order. */
	k = pipeline_split(env, names, err != NULL ? err : &e);
	if (k < 0)
		return -1;
	buf[0] = '\0';
	for (int i = 0; i < k; i++) {
		size_t len = strlen(buf);

		int rc = toolchain_one(names[i], one, sizeof one, err);

		if (rc < 0)
			return rc;
		snprintf(buf + len, n - len, "%s%s", i > 0 ? " + " : "", one);
	}
	return 0;
}

int
verify_input_key(const struct task *t, const struct candidate *c,
    int timeout_s, char *hex, struct err *err)
{
	char tool[ERR_MSG_MAX];

	if (verify_toolchain(t->env, tool, sizeof tool, err) < 0)
		return -1;
	verify_input_key_tool(t, c, timeout_s, tool, hex);
	return 0;
}

void
verify_input_key_tool(const struct task *t, const struct candidate *c,
    int timeout_s, const char *tool, char *hex)
{
	struct hash_ctx *h;

	h = hash_new();
	hash_update(h, t->env, strlen(t->env) + 1);
	hash_update(h, tool, strlen(tool) + 1);
	if (t->env_params != NULL)
		hash_update(h, t->env_params, strlen(t->env_params));
	hash_update(h, "", 1);
	hash_update(h, c->code_hash, strlen(c->code_hash) + 1);
	if (timeout_s > 0) {
		char tmo[32];

		snprintf(tmo, sizeof tmo, "timeout_s=%d", timeout_s);
		hash_update(h, tmo, strlen(tmo) + 1);
	}
	for (size_t i = 0; i < t->nfiles; i++) {
		hash_update(h, t->files[i].name, strlen(t->files[i].name) + 1);
		hash_update(h, t->files[i].data, t->files[i].len);
		hash_update(h, "", 1);
	}
	hash_final(h, hex);
}

/* --- processes ------------------------------------------------------- */

/* Append output to the log, up to the cap. */
static void
log_add(struct verify_job *j, const char *p, size_t n)
{
	size_t cap = j->o.output_cap > 0 ? j->o.output_cap : VERIFY_OUTPUT_CAP;

	if (j->log.len >= cap) {
		j->stop = ENV_STOP_OUTPUT;
		return;
	}
	if (j->log.len + n > cap) {
		n = cap - j->log.len;
		j->stop = ENV_STOP_OUTPUT;
	}
	buf_add(&j->log, p, n);
}

/*
 * Remove the env's nonce from text: marker lines ("NONCE !finish", "NONCE
 * !error": the harness's own notes to its judge) go whole, "NONCE "
 * prefixes go.  In place; returns the new length.  This is the one place
 * the secret leaves the capture: the stored log, the live output and
 * every export read what it leaves.
 */
static size_t
strip_nonce(char *text, size_t len, const char *nonce)
{
	size_t nl = strlen(nonce), w = 0;

	if (nl == 0)
		return len;
	for (size_t i = 0; i < len; ) {
		if (i + nl + 1 <= len && memcmp(text + i, nonce, nl) == 0 &&
		    text[i + nl] == ' ') {
			const char *eol;

			if ((i == 0 || text[i - 1] == '\n') && i + nl + 2 <=
			    len && text[i + nl + 1] == '!' && (eol = memchr(
			    text + i, '\n', len - i)) != NULL)
				i = (size_t)(eol - text) + 1;
			else if (i + nl + 8 <= len && (memcmp(text + i + nl +
			    1, "!error ", 7) == 0 || memcmp(text + i + nl + 1,
			    "!fatal ", 7) == 0))
				i += nl + 8;	/* $error's mark */
			else
				i += nl + 1;
			continue;
		}
		/* Anywhere else (a candidate that read and printed it). */
		if (i + nl <= len && memcmp(text + i, nonce, nl) == 0) {
			i += nl;
			continue;
		}
		text[w++] = text[i++];
	}
	return w;
}

/* *s (a NUL-terminated text) with the configured secrets redacted. */
static void
redact_str(char **s)
{
	char *r;

	if (*s != NULL && (r = secret_redact(*s, strlen(*s), NULL,
	    NULL)) != NULL) {
		free(*s);
		*s = r;
	}
}

/*
 * No configured secret (base/secret.h: the generator's API key) in
 * anything of a run that is kept or shown: its log, evidence, command
 * and diagnostics.
 */
static void
redact_run(struct run *r)
{
	size_t n;
	char *t = secret_redact(r->log, r->log_len, &n, NULL);

	if (t != NULL) {
		free(r->log);
		r->log = t;
		r->log_len = n;
	}
	redact_str(&r->evidence);
	redact_str(&r->command);
	for (size_t i = 0; i < r->ndiags; i++)
		redact_str(&r->diags[i].message);
}

/*
 * Show the log's new bytes up to end live, whole lines at a time so that
 * the nonce is never split; a partial line waits unless it is long or
 * final.
 */
static void
live_out(struct verify_job *j, verify_output_fn out, void *arg, size_t end,
    int final)
{
	size_t n;
	char *chunk;

	if (out == NULL || j->live_off >= end)
		return;
	if (!final) {
		const char *p = j->log.p + j->live_off;
		const char *nl = NULL;

		for (size_t i = end - j->live_off; i > 0; i--)
			if (p[i - 1] == '\n') {
				nl = p + i - 1;
				break;
			}
		if (nl != NULL)
			end = (size_t)(nl - j->log.p) + 1;
		else if (end - j->live_off < 4096)
			return;
	}
	chunk = xstrndup(j->log.p + j->live_off, end - j->live_off);
	n = end - j->live_off;
	for (size_t i = 0; i < j->nm; i++)
		n = strip_nonce(chunk, n, j->m[i].plan.nonce);
	{
		size_t rl;
		char *r = secret_redact(chunk, n, &rl, NULL);

		if (r != NULL) {
			free(chunk);
			chunk = r;
			n = rl;
		}
	}
	if (n > 0)
		out(chunk, n, arg);
	free(chunk);
	j->live_off = end;
}

/*
 * The log's new bytes, live.  A quiet stage's (env_stage.quiet: a
 * waveform dump) are data, not text: what came before the stage is
 * shown, then one line saying where its output went, then nothing of it.
 */
static void
flush_live(struct verify_job *j, verify_output_fn out, void *arg, int final)
{
	size_t from;

	if (j->stage >= CUR(j)->plan.nstages || !CUR_STAGE(j)->quiet) {
		live_out(j, out, arg, j->log.len, final);
		return;
	}
	from = CUR(j)->stage_start[j->stage];
	live_out(j, out, arg, from, 1);
	if (j->live_off < from || j->log.len <= from)
		return;
	if (out != NULL && j->quiet_said != (int)(j->mi * 64 + j->stage) + 1) {
		/* on a line of its own, whatever the run left open */
		char *msg = xasprintf("%sassay: the %s stage's output is data"
		    " for assay, kept with the run, not shown here\n",
		    from > 0 && j->log.p[from - 1] != '\n' ? "\n" : "",
		    CUR_STAGE(j)->name);

		out(msg, strlen(msg), arg);
		free(msg);
		j->quiet_said = (int)(j->mi * 64 + j->stage) + 1;
	}
	j->live_off = j->log.len;
}

/* --- sealed files and work areas ------------------------------------ */

/* The owner of what a stage writes: the job's uid as root, sandboxed. */
static uid_t
stage_owner(const struct verify_job *j)
{
	return geteuid() == 0 && !j->o.no_sandbox ? j->uid : (uid_t)-1;
}

/* The last component of a sealed path: its name. */
static const char *
seal_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash != NULL ? slash + 1 : path;
}

/* The index of name among m's sealed files, or -1. */
static int
sealed_find(const struct verify_member *m, const char *name)
{
	for (size_t i = 0; i < m->nsealed; i++)
		if (strcmp(m->sealed[i].name, name) == 0)
			return (int)i;
	return -1;
}

/* Where member k's sealed file name lies in the store (new). */
static char *
sealed_path(const struct verify_job *j, const struct verify_member *m,
    const char *name)
{
	return xasprintf("%s/%zu-%s", j->seal_dir, (size_t)(m - j->m), name);
}

/*
 * Does stage k of m run in a sealed work area: it uses sealed files, or
 * a stage before it ran candidate code (which could write everywhere
 * that stage could)?
 */
static int
needs_area(const struct verify_member *m, size_t k)
{
	if (m->plan.stages[k].use[0] != NULL ||
	    m->plan.stages[k].input[0] != '\0')
		return 1;
	for (size_t i = 0; i < k; i++)
		if (m->plan.stages[i].candidate)
			return 1;
	return 0;
}

/*
 * Seal the files paths (relative to dir) of member m, made by by ("the
 * build stage", "prepare"): each is copied into the seal store with its
 * hash.  One that cannot be sealed (missing, a link, not a regular
 * file, too big) is not: a note in the log says so, and a stage that
 * uses it runs without it.  0, or -1 with err when the store fails.
 */
static int
seal_files(struct verify_job *j, struct verify_member *m, char *const *paths,
    const char *dir, const char *by, struct err *err)
{
	long fsize = j->o.fsize_mb > 0 ? j->o.fsize_mb : 64;

	if (paths[0] == NULL)
		return 0;
	if (j->seal_dir == NULL && workdir_seal_store(j->workdir,
	    &j->seal_dir, err) < 0)
		return -1;
	for (size_t i = 0; paths[i] != NULL; i++) {
		const char *name = seal_name(paths[i]);
		char *dst;
		struct err e;

		/* check_seals() made sure of this. */
		if (sealed_find(m, name) >= 0 || m->nsealed == sizeof
		    m->sealed / sizeof m->sealed[0])
			ASSAY_BUG("a file sealed twice");
		dst = sealed_path(j, m, name);
		if (workdir_seal(dir, paths[i], dst, (int64_t)fsize << 20,
		    m->sealed[m->nsealed].hex, &e) == 0) {
			snprintf(m->sealed[m->nsealed].name,
			    sizeof m->sealed[0].name, "%s", name);
			m->nsealed++;
		} else {
			char *note = xasprintf("assay: %s, made by %s, was not"
			    " sealed: %s\n", paths[i], by, e.msg);

			log_add(j, note, strlen(note));
			free(note);
		}
		free(dst);
	}
	return 0;
}

/*
 * A fresh work area for stage s of member m, in *dir (new), holding the
 * sealed files it uses, each checked against its hash: ro gets their
 * names (borrowed from s), to be bound read-only.  A file that was not
 * sealed is left out (its note is in the log).  The stage's header in
 * the recorded command says what it got.  0, or -1 with err (a sealed
 * file changed, or the area cannot be made): the sandbox's failure.
 */
static int
make_area(struct verify_job *j, struct verify_member *m,
    const struct env_stage *s, char **dir, char **rel, const char **ro,
    struct err *err)
{
	size_t n = 0;

	*rel = xasprintf(".assay-stage-%s%s%s", m->sub, m->sub[0] != '\0' ?
	    "-" : "", s->name);
	*dir = xasprintf("%s/%s", j->workdir, *rel);
	if (workdir_fresh_dir(*dir, stage_owner(j), err) < 0)
		return -1;
	buf_printf(&j->command, "# %s runs in %s, with", s->name, *rel);
	for (size_t i = 0; s->use[i] != NULL; i++) {
		int k = sealed_find(m, s->use[i]);
		char *src, *dst;
		int rc;

		if (k < 0) {
			buf_printf(&j->command, " %s (not sealed)", s->use[i]);
			continue;
		}
		src = sealed_path(j, m, s->use[i]);
		dst = xasprintf("%s/%s", *dir, s->use[i]);
		rc = workdir_unseal(src, m->sealed[k].hex, dst, err);
		free(src);
		free(dst);
		if (rc < 0)
			return -1;
		buf_printf(&j->command, " %s (sha256 %.16s)", s->use[i],
		    m->sealed[k].hex);
		ro[n++] = s->use[i];
	}
	if (n == 0)
		buf_adds(&j->command, " nothing sealed");
	if (s->input[0] != '\0') {
		int k = sealed_find(m, s->input);

		if (k < 0)
			buf_printf(&j->command, "; %s (not sealed) on no fd",
			    s->input);
		else
			buf_printf(&j->command, "; %s (sha256 %.16s) on fd %d"
			    " alone", s->input, m->sealed[k].hex,
			    ENV_INPUT_FD);
	}
	buf_adds(&j->command, "\n");
	ro[n] = NULL;
	return 0;
}

/*
 * Stage s's sealed input (env_stage.input) onto io as fd ENV_INPUT_FD,
 * opened from the seal store once its hash is checked.  One that was not
 * sealed (its note is in the log) is left out: the stage finds fd
 * ENV_INPUT_FD closed.  0, or -1 with err (it changed): the sandbox's
 * failure.
 */
static int
give_input(struct verify_job *j, struct verify_member *m,
    const struct env_stage *s, struct sandbox_io *io, struct err *err)
{
	int k = sealed_find(m, s->input), fd, rc;
	char *src;
	struct err e;

	if (k < 0)
		return 0;
	src = sealed_path(j, m, s->input);
	fd = workdir_open_sealed(src, m->sealed[k].hex, &e);
	free(src);
	if (fd < 0) {
		free(j->sandbox_error);
		j->sandbox_error = xasprintf("the sealed input of %s: %s",
		    s->name, e.msg);
		return err_set(err, "%s", j->sandbox_error);
	}
	rc = sandbox_io_input(io, fd, err);
	close(fd);
	return rc;
}

static int
start_stage(struct verify_job *j, struct err *err)
{
	struct verify_member *m = CUR(j);
	struct env_stage *s = CUR_STAGE(j);
	struct sandbox_argv a;
	struct sandbox_io io;
	struct buf line = BUF_INIT;
	const char *area_ro[ENV_MAX_SEAL + 1];
	const char *const *ro = (const char *const *)s->ro;
	char *dir, *rel;
	int rc;

	/* A fresh /tmp for each stage, in the work directory. */
	if (workdir_fresh_tmp(j->workdir, stage_owner(j), err) < 0)
		return -1;
	if (needs_area(m, j->stage)) {
		struct err e;

		if (make_area(j, m, s, &dir, &rel, area_ro, &e) < 0) {
			free(j->sandbox_error);
			j->sandbox_error = xasprintf("the sealed work area of"
			    " %s: %s", s->name, e.msg);
			free(dir);
			free(rel);
			return err_set(err, "%s", j->sandbox_error);
		}
		ro = area_ro;
	} else {
		dir = s->subdir[0] != '\0' ? xasprintf("%s/%s", m->dir,
		    s->subdir) : xstrdup(m->dir);
		/* Where the stage runs, relative to the work directory. */
		rel = m->sub[0] != '\0' && s->subdir[0] != '\0' ?
		    xasprintf("%s/%s", m->sub, s->subdir) :
		    xstrdup(m->sub[0] != '\0' ? m->sub : s->subdir);
	}
	free(j->stage_dir);
	j->stage_dir = xstrdup(dir);
	build_argv(j, m, s, dir, ro, &a);
	/* The stage header shows the tool command; the full sandboxed line
	 * goes into the run's command for show. */
	buf_adds(&line, "$");
	for (size_t i = 0; s->argv[i] != NULL; i++) {
		buf_addc(&line, ' ');
		sandbox_quote(&line, s->argv[i]);
	}
	buf_addc(&line, '\n');
	if (rel[0] != '\0')
		buf_printf(&j->command, "(cd %s && ", rel);
	for (size_t i = 0; i < a.n; i++) {
		if (i > 0)
			buf_addc(&j->command, ' ');
		sandbox_quote(&j->command, a.v[i]);
	}
	buf_adds(&j->command, rel[0] != '\0' ? ")\n" : "\n");
	if (j->nm > 1 && j->stage == 0 && m->nran == 0) {
		/* A pipeline says which env runs, once; the banner belongs
		 * to no stage's log. */
		char *banner = xasprintf("== %s ==\n", m->env->name);

		log_add(j, banner, strlen(banner));
		free(banner);
	}
	m->stage_start[j->stage] = j->log.len;
	log_add(j, line.p, line.len);
	buf_release(&line);
	if (j->nm > 1)
		snprintf(j->stage_label, sizeof j->stage_label, "%s:%s",
		    m->env->name, s->name);
	else
		snprintf(j->stage_label, sizeof j->stage_label, "%s", s->name);
	rc = sandbox_io_make(&a, s->nonce_fd ? m->plan.nonce : NULL, &io,
	    err);
	if (rc == 0 && s->input[0] != '\0')
		rc = give_input(j, m, s, &io, err);
	if (rc == 0)
		rc = proc_start(&j->proc, dir, &io, j->rows, j->cols, err);
	sandbox_io_release(&io);
	sandbox_argv_free(&a);
	free(dir);
	free(rel);
	if (rc < 0)
		return -1;
	j->running = 1;
	m->res[j->stage].ran = 1;
	if (m->nran < j->stage + 1)
		m->nran = j->stage + 1;
	return 0;
}

/* Is name sealed by prepare() or by a stage before stage k of p? */
static int
sealed_before(const struct env_plan *p, size_t k, const char *name)
{
	for (size_t q = 0; p->seal[q] != NULL; q++)
		if (strcmp(seal_name(p->seal[q]), name) == 0)
			return 1;
	for (size_t e = 0; e < k; e++)
		for (size_t q = 0; p->stages[e].seal[q] != NULL; q++)
			if (strcmp(seal_name(p->stages[e].seal[q]), name) == 0)
				return 1;
	return 0;
}

/*
 * An env's plan must say where each used file comes from: every name a
 * stage uses is sealed by prepare() or an earlier stage, no name is
 * sealed twice, and a stage in a sealed area reads no data files of its
 * subdirectory (they would not be there).  0, or -1 with err naming the
 * env's mistake.
 */
static int
check_seals(const struct verify_member *m, struct err *err)
{
	const struct env_plan *p = &m->plan;
	const char *names[ENV_MAX_SEAL * (ENV_MAX_STAGES + 1)];
	size_t n = 0;

	for (size_t k = 0; k <= p->nstages; k++) {
		char *const *list = k == 0 ? p->seal : p->stages[k - 1].seal;

		for (size_t i = 0; list[i] != NULL; i++) {
			const char *name = seal_name(list[i]);

			for (size_t q = 0; q < n; q++)
				if (strcmp(names[q], name) == 0)
					return err_set(err, "env %s: %s is"
					    " sealed twice", m->env->name,
					    name);
			if (strlen(name) >= sizeof m->sealed[0].name)
				return err_set(err, "env %s: sealed name %s is"
				    " too long", m->env->name, name);
			names[n++] = name;
		}
	}
	for (size_t k = 0; k < p->nstages; k++) {
		const struct env_stage *s = &p->stages[k];

		if (needs_area(m, k) && s->ro[0] != NULL)
			return err_set(err, "env %s: stage %s reads data files"
			    " but runs in a sealed work area", m->env->name,
			    s->name);
		for (size_t i = 0; s->use[i] != NULL; i++) {
			if (!sealed_before(p, k, s->use[i]))
				return err_set(err, "env %s: stage %s uses %s,"
				    " which nothing before it seals",
				    m->env->name, s->name, s->use[i]);
			if (strcmp(s->use[i], s->input) == 0)
				return err_set(err, "env %s: stage %s reads %s"
				    " on a descriptor and by name",
				    m->env->name, s->name, s->input);
		}
		if (s->input[0] != '\0' && !sealed_before(p, k, s->input))
			return err_set(err, "env %s: stage %s reads %s, which"
			    " nothing before it seals", m->env->name, s->name,
			    s->input);
	}
	return 0;
}

/*
 * Member k of the job: env, its copy of the task (its own env_params in
 * a pipeline), its part of the work directory, and prepare().  0 or -1.
 */
static int
member_prepare(struct verify_job *j, size_t k, const char *name,
    char names[][PIPELINE_NAME], const struct task *t, struct err *err)
{
	struct verify_member *m = &j->m[k];
	const struct verify_opts *o = &j->o;

	m->env = env_find(name);
	m->task.id = xstrdup(t->id);
	m->task.env = xstrdup(name);
	m->task.env_params = j->nm > 1 ? pipeline_params(t->env_params, name,
	    names, j->nm) : xstrdup(t->env_params);
	m->task.domain = xstrdup(t->domain);
	m->task.benchmark = xstrdup(t->benchmark);
	m->task.interface = xstrdup(t->interface);
	for (size_t i = 0; i < t->nfiles; i++)
		task_add_file(&m->task, t->files[i].name, t->files[i].role,
		    t->files[i].data, t->files[i].len);
	if (j->nm > 1) {
		snprintf(m->sub, sizeof m->sub, "%s", name);
		if (env_mkdir(j->workdir, name, err) < 0)
			return -1;
		m->dir = xasprintf("%s/%s", j->workdir, name);
	} else {
		m->dir = xstrdup(j->workdir);
	}
	if (m->env->prepare(&m->task, &j->cand, m->dir, &m->plan, err) < 0)
		return -1;
	if (o->timeout_s > 0) {
		char tmo[32];

		/* An override is an input too: the verdict depends on it. */
		m->plan.timeout_s = o->timeout_s;
		snprintf(tmo, sizeof tmo, "%d", o->timeout_s);
		env_note_input(&m->plan, "timeout_s", tmo, strlen(tmo));
	}
	if (m->plan.timeout_s <= 0)
		m->plan.timeout_s = 30;
	buf_adds(&m->plan.inputs, "}");
	if (m->plan.nstages == 0)
		return err_set(err, "env %s planned no stages", name);
	if (check_seals(m, err) < 0)
		return -1;
	/* prepare()'s own files a stage uses: sealed before anything runs. */
	if (seal_files(j, m, m->plan.seal, m->dir, "prepare", err) < 0)
		return -1;
	for (size_t s = 0; s < m->plan.nstages; s++)
		if (m->plan.stages[s].cache && j->cache_dir == NULL &&
		    !o->no_sandbox)
			j->cache_dir = workdir_cache();
	return 0;
}

/*
 * Why a run cannot start here: the toolchain's own message, then for
 * each env of the task the Debian packages to install and the env's
 * hint.  New string.
 */
static char *
missing_reason(char names[][PIPELINE_NAME], size_t n, const char *why)
{
	struct buf b = BUF_INIT;

	buf_printf(&b, "toolchain missing: %s", why);
	for (size_t k = 0; k < n; k++) {
		const struct env_ops *e = env_find(names[k]);

		if (e == NULL)
			continue;
		if (e->packages != NULL)
			buf_printf(&b, "; %s: apt-get install %s", e->name,
			    e->packages);
		if (e->missing_hint != NULL)
			buf_printf(&b, "; %s", e->missing_hint);
	}
	return buf_detach(&b, NULL);
}

int
verify_job_start(struct verify_job **out, const struct verify_opts *o,
    const struct task *t, const struct candidate *c, int use_pty, int rows,
    int cols, struct err *err)
{
	char names[PIPELINE_MAX][PIPELINE_NAME];
	struct verify_job *j;
	struct err e;
	int64_t total = 0;
	int n, tc;

	*out = NULL;
	n = pipeline_split(t->env, names, &e);
	if (n < 0)
		return err_set(err, "task %s: %s", t->id, e.msg);
	j = xcalloc(1, sizeof *j);
	j->o = *o;
	{
		uint32_t r;

		if (getrandom(&r, sizeof r, 0) != (ssize_t)sizeof r)
			r = (uint32_t)getpid() ^ (uint32_t)mono_ms();
		j->uid = (uid_t)(SANDBOX_UID_BASE + r % SANDBOX_UID_SPAN);
	}
	j->nm = (size_t)n;
	j->use_pty = use_pty;
	j->rows = rows > 0 ? rows : 24;
	j->cols = cols > 0 ? cols : 80;
	proc_init(&j->proc, use_pty);
	buf_init(&j->log);
	buf_init(&j->command);
	for (size_t k = 0; k < j->nm; k++)
		env_plan_init(&j->m[k].plan);
	tc = verify_toolchain(t->env, j->toolchain, sizeof j->toolchain, &e);
	if (tc == ENV_TOOL_BROKEN) {
		/* Installed, but it does not even answer its version query:
		 * broken, not missing (issue 21). */
		j->broken = xasprintf("the toolchain is broken here: %s;"
		    " repair it (make deps), then look again with assay envs",
		    e.msg);
		snprintf(j->toolchain, sizeof j->toolchain, "broken");
	} else if (tc < 0) {
		/* Not installed here: a skipped run that says what to
		 * install, not an error that stops a batch (design.md 2). */
		j->missing = missing_reason(names, (size_t)n, e.msg);
		snprintf(j->toolchain, sizeof j->toolchain, "missing");
	} else if (o->smoke != NULL) {
		/* Proven, not assumed (issue 21): a toolchain that fails its
		 * own smoke test decides nothing about this candidate. */
		for (int k = 0; k < n && j->broken == NULL; k++) {
			const struct smoke_result *sm = o->smoke(names[k], o);

			if (sm->state == SMOKE_BROKEN) {
				j->broken = verify_smoke_evidence(names[k], sm);
				j->broken_smoke = sm;
			}
		}
	}
	/* Keep our own copies: the caller's may go away mid-run. */
	j->task.id = xstrdup(t->id);
	j->task.env = xstrdup(t->env);
	j->task.env_params = xstrdup(t->env_params);
	j->task.domain = xstrdup(t->domain);
	j->task.benchmark = xstrdup(t->benchmark);
	j->task.interface = xstrdup(t->interface);
	for (size_t i = 0; i < t->nfiles; i++)
		task_add_file(&j->task, t->files[i].name, t->files[i].role,
		    t->files[i].data, t->files[i].len);
	j->env_name = j->task.env;
	j->cand.id = xstrdup(c->id);
	j->cand.task_id = xstrdup(c->task_id);
	j->cand.lang = xstrdup(c->lang);
	j->cand.origin = xstrdup(c->origin);
	/* x86-asm's program mode judges an optimization that is its input
	 * again as copied-input, the input itself on its own. */
	j->cand.kind = c->kind != NULL ? xstrdup(c->kind) : NULL;
	j->cand.parent = c->parent != NULL ? xstrdup(c->parent) : NULL;
	j->cand.code = xstrndup(c->code, c->code_len);
	j->cand.code_len = c->code_len;
	memcpy(j->cand.code_hash, c->code_hash, sizeof j->cand.code_hash);
	/* Triage reads a generation record's refusal (triage.h). */
	j->cand.extra = c->extra != NULL ? xstrdup(c->extra) : NULL;
	if (j->missing != NULL || j->broken != NULL) {
		j->t0 = mono_ms();
		j->started = (int64_t)time(NULL);
		j->done = 1;
		*out = j;
		return 0;
	}
	if (workdir_make(j->o.workroot, geteuid() == 0 && !j->o.no_sandbox ?
	    j->uid : 0, &j->workdir, err) < 0)
		goto fail;
	for (size_t k = 0; k < j->nm; k++) {
		if (member_prepare(j, k, names[k], names, t, err) < 0)
			goto fail;
		total += j->m[k].plan.timeout_s;
	}
	workdir_chown(j->workdir, j->uid);
	j->t0 = mono_ms();
	/* The wall clock covers the whole run: every member's share. */
	j->deadline = j->t0 + total * 1000;
	j->disk_check = j->t0 + 250;
	j->started = (int64_t)time(NULL);
	if (start_stage(j, err) < 0)
		goto fail;
	*out = j;
	return 0;
fail:
	verify_job_free(j);
	return -1;
}

int
verify_job_fd(const struct verify_job *j)
{
	if (!j->running)
		return -1;
	return proc_fd(&j->proc);
}

int
verify_job_timeout_ms(const struct verify_job *j)
{
	int64_t left = j->deadline - mono_ms();

	/* Output closed but the process not reaped yet: look again soon,
	 * there is no fd left to wake us. */
	if (j->running && verify_job_fd(j) < 0)
		return 1;

	return left < 0 ? 0 : left > 1000000 ? 1000000 : (int)left;
}

const char *
verify_job_cand(const struct verify_job *j)
{
	return j->cand.id;
}

const char *
verify_job_task(const struct verify_job *j)
{
	return j->task.id;
}

void
verify_apply_reference(struct run *r, const char *ref_verdict,
    int is_reference)
{
	char *sub;

	if (!verdict_failed(ref_verdict) &&
	    !verdict_is(ref_verdict, VERDICT_TASK_DEFECT))
		return;
	if (!verdict_failed(r->verdict))
		return;
	/* A reference whose testbench states no verdict shows a task
	 * without a contract, not a broken reference. */
	sub = is_reference ? xstrdup(r->subcategory != NULL &&
	    strcmp(r->subcategory, "no-verdict") == 0 ? "no-verdict" :
	    "reference-fails") : xasprintf("unjudged-%s", r->verdict);
	free(r->verdict);
	r->verdict = xstrdup("task-defect");
	free(r->subcategory);
	r->subcategory = sub;
	free(r->category);
	r->category = NULL;
}

void
verify_judge_reference(struct store *st, const struct verify_job *j,
    struct run *r)
{
	char *ref = NULL, *verdict = NULL;

	if (store_task_reference(st, j->task.id, &ref, &verdict, NULL) < 0 ||
	    ref == NULL)
		return;
	if (strcmp(ref, r->cand_id) == 0)
		verify_apply_reference(r, r->verdict, 1);
	else
		verify_apply_reference(r, verdict, 0);
	free(ref);
	free(verdict);
}

const char *
verify_job_workdir(const struct verify_job *j)
{
	return j->kept ? j->workdir : NULL;
}

static void
kill_group(struct verify_job *j)
{
	proc_kill(&j->proc);
}

/* Non-blocking reap; 1 when the stage's process has ended. */
static int
reap(struct verify_job *j, int *code)
{
	if (!proc_reap(&j->proc, code))
		return 0;
	j->stage_cpu_ms = j->proc.cpu_ms;
	return 1;
}

/*
 * Read the stage's output, at most 256 KiB a call so that a flood cannot
 * hold up the caller's frame (or its x); 1 at end of output.
 */
static int
drain(struct verify_job *j)
{
	char chunk[16384];
	size_t total = 0;

	while (total < (256u << 10)) {
		ssize_t n = proc_read(&j->proc, chunk, sizeof chunk);

		if (n < 0)
			return 1;
		if (n == 0)
			return 0;
		log_add(j, chunk, (size_t)n);
		total += (size_t)n;
		if (j->stop == ENV_STOP_OUTPUT)
			return 0;
	}
	return 0;
}

/*
 * Did the stage fail before its tool started?  Then its only output is
 * one line of a wrapper (bwrap, setpriv, prlimit) saying why, e.g.
 * "bwrap: Creating new namespace failed: Resource temporarily
 * unavailable".  A candidate cannot fake this: its output would come
 * with the testbench's.  Returns the line's length, 0 when not so.
 */
static size_t
wrapper_failure(const struct verify_job *j, const char **line)
{
	static const char *const tools[] = { "bwrap: ", "setpriv: ",
	    "prlimit: " };
	const char *p = buf_str(&j->log) + CUR(j)->stage_start[j->stage];
	size_t len = j->log.len - CUR(j)->stage_start[j->stage];
	const char *nl = memchr(p, '\n', len);

	if (nl == NULL)
		return 0;
	len -= (size_t)(nl + 1 - p);
	p = nl + 1;
	nl = memchr(p, '\n', len);
	if (nl == NULL || nl + 1 != p + len)
		return 0;
	/* A tool the sandbox cannot see ("bwrap: execvp /opt/x/nvcc: No
	 * such file or directory") is no transient failure of the sandbox
	 * but the toolchain's: its env judges it, and its smoke test finds
	 * it broken (issue 21). */
	if (memmem(p, (size_t)(nl - p), ": execvp ", 9) != NULL)
		return 0;
	for (size_t i = 0; i < sizeof tools / sizeof tools[0]; i++) {
		if (strncmp(p, tools[i], strlen(tools[i])) == 0) {
			*line = p;
			return (size_t)(nl - p);
		}
	}
	return 0;
}

static void
finish_stage(struct verify_job *j, int code)
{
	struct env_stage_result *r = &CUR(j)->res[j->stage];

	r->exit_code = code;
	CUR(j)->stage_end[j->stage] = j->log.len;
	j->running = 0;
	proc_close(&j->proc);
}

int
verify_job_step(struct verify_job *j, verify_output_fn out, void *arg)
{
	int eof, code;

	if (j->done) {
		if ((j->missing != NULL || j->broken != NULL) &&
		    !j->missing_shown && out != NULL) {
			char *msg = j->missing != NULL ?
			    xasprintf("assay: skipped: %s\r\n", j->missing) :
			    xasprintf("assay: not run: %s\r\n", j->broken);

			out(msg, strlen(msg), arg);
			free(msg);
		}
		j->missing_shown = 1;
		return 1;
	}
	eof = drain(j);
	flush_live(j, out, arg, 0);
	if (j->stop == ENV_STOP_NONE && mono_ms() >= j->deadline)
		j->stop = ENV_STOP_TIMEOUT;
	/* The file-size limit is per file: cap the whole directory too,
	 * looking four times a second. */
	if (j->stop == ENV_STOP_NONE && mono_ms() >= j->disk_check) {
		struct sandbox_limits l = limits(j, CUR(j));

		j->disk_check = mono_ms() + 250;
		if (workdir_usage(j->workdir) > sandbox_disk_bytes(&l))
			j->stop = ENV_STOP_DISK;
	}
	if (j->stop != ENV_STOP_NONE) {
		const char *why = j->stop == ENV_STOP_TIMEOUT ?
		    "wall-clock timeout" : j->stop == ENV_STOP_OUTPUT ?
		    "output cap reached" : j->stop == ENV_STOP_DISK ?
		    "work directory size cap reached" : "cancelled";
		char msg[128];
		int n;

		kill_group(j);
		/* Reap what we killed; SIGKILL cannot be ignored. */
		while (!reap(j, &code))
			usleep(1000);
		finish_stage(j, code);
		flush_live(j, out, arg, 1);
		n = snprintf(msg, sizeof msg, "\nassay: %s after %.1f s; "
		    "process group killed\n", why, (mono_ms() - j->t0) / 1000.0);
		if (out != NULL)
			out(msg, (size_t)n, arg);
		j->done = 1;
		return 1;
	}
	if (!eof && !j->use_pty)
		return 0;
	/* A pty child may exit before its output is read, or a grandchild
	 * may hold the pipe: wait for both. */
	if (!reap(j, &code))
		return 0;
	if (j->use_pty) {
		/* What the child wrote before it exited is still in the pty;
		 * bounded, in case a grandchild keeps the slave open. */
		for (int i = 0; i < 64 && proc_fd(&j->proc) >= 0 &&
		    j->stop == ENV_STOP_NONE; i++)
			if (drain(j) == 1)
				break;
	}
	finish_stage(j, code);
	/*
	 * SIGKILL that none of ours sent: the CPU limit sends it only to a
	 * process that used the whole limit, and the stage's tree (the
	 * wrappers, bwrap and everything they reaped) used less.  Something
	 * in the sandbox killed the harness (kill -9 $PPID): the
	 * candidate's failure, not a timeout.
	 */
	if (code == 128 + SIGKILL && j->stop == ENV_STOP_NONE &&
	    j->stage_cpu_ms < cpu_limit_s(j) * 1000)
		CUR(j)->killed = 1;
	if (code != 0) {
		const char *line;
		size_t n = wrapper_failure(j, &line);

		/* The sandbox could not start (a transient EAGAIN): once
		 * more, then it is the environment's failure, not the
		 * candidate's. */
		if (n > 0 && !j->retried) {
			j->retried = 1;
			j->log.len = CUR(j)->stage_start[j->stage];
			j->log.p[j->log.len] = '\0';
			if (j->live_off > j->log.len)
				j->live_off = j->log.len;
			usleep(100000);
			if (start_stage(j, NULL) == 0)
				return 0;
		}
		if (n > 0) {
			j->sandbox_error = xstrndup(line, n);
			flush_live(j, out, arg, 1);
			j->done = 1;
			return 1;
		}
	}
	flush_live(j, out, arg, 1);
	/* A stage that failed ends its env; a pipeline goes on with the
	 * next one, which judges the candidate in its own right. */
	if (code == 0 && j->stage + 1 < CUR(j)->plan.nstages) {
		char *by = xasprintf("the %s stage", CUR_STAGE(j)->name);
		struct err e;
		int rc = seal_files(j, CUR(j), CUR_STAGE(j)->seal, j->stage_dir,
		    by, &e);

		free(by);
		if (rc < 0) {
			j->sandbox_error = xasprintf("sealing: %s", e.msg);
			j->done = 1;
			return 1;
		}
		j->stage++;
	} else if (j->mi + 1 < j->nm) {
		j->mi++;
		j->stage = 0;
	} else {
		j->done = 1;
		return 1;
	}
	if (start_stage(j, NULL) < 0) {
		CUR(j)->res[j->stage].ran = 1;
		CUR(j)->res[j->stage].exit_code = 127;
		CUR(j)->stage_end[j->stage] = j->log.len;
		if (CUR(j)->nran < j->stage + 1)
			CUR(j)->nran = j->stage + 1;
		j->done = 1;
		return 1;
	}
	flush_live(j, out, arg, 0);
	return 0;
}

void
verify_job_cancel(struct verify_job *j)
{
	if (!j->done && j->stop == ENV_STOP_NONE)
		j->stop = ENV_STOP_CANCEL;
}

void
verify_job_resize(struct verify_job *j, int rows, int cols)
{
	j->rows = rows;
	j->cols = cols;
	proc_resize(&j->proc, rows, cols);
}

/* Each stage's share of the log, for the judges. */
static void
member_logs(struct verify_job *j, struct verify_member *m)
{
	for (size_t s = 0; s < m->nran; s++) {
		size_t end = m->stage_end[s] >= m->stage_start[s] ?
		    m->stage_end[s] : j->log.len;

		m->res[s].log = buf_str(&j->log) + m->stage_start[s];
		m->res[s].log_len = end - m->stage_start[s];
	}
}

/* The inputs of a pipeline: every member's, under "ENV/NAME". */
static char *
pipeline_inputs(const struct verify_job *j)
{
	json_t *all = json_object();
	char *txt;

	for (size_t k = 0; k < j->nm; k++) {
		json_t *o = json_loads(buf_str(&j->m[k].plan.inputs), 0, NULL);
		const char *name;
		json_t *v;

		json_object_foreach(o, name, v) {
			char *key = xasprintf("%s/%s", j->m[k].env->name,
			    name);

			json_object_set(all, key, v);
			free(key);
		}
		json_decref(o);
	}
	txt = json_dumps(all, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(all);
	return txt;
}

/*
 * The verdict of a pipeline: each member that ran judged and triaged on
 * its own, then pipeline_combine().  The stop (wall clock, output cap)
 * belongs to the member that was running.
 */
static void
judge_pipeline(struct verify_job *j, struct run *r)
{
	struct pipeline_member pm[PIPELINE_MAX];
	struct run subs[PIPELINE_MAX];
	const char *stages[PIPELINE_MAX][ENV_MAX_STAGES];

	memset(subs, 0, sizeof subs);
	for (size_t k = 0; k < j->nm; k++) {
		struct verify_member *m = &j->m[k];

		pm[k].env = m->env->name;
		pm[k].run = NULL;
		pm[k].stages = stages[k];
		pm[k].nstages = m->nran;
		for (size_t s = 0; s < m->nran; s++)
			stages[k][s] = m->plan.stages[s].name;
		if (m->nran == 0)
			continue;
		subs[k].cand_id = xstrdup(j->cand.id);
		subs[k].env = xstrdup(m->env->name);
		subs[k].exit_code = m->res[m->nran - 1].exit_code;
		m->env->judge(&m->task, &m->plan, m->res, m->nran,
		    member_stop(j, m), &subs[k]);
		if (subs[k].verdict == NULL)
			subs[k].verdict = xstrdup("fail");
		{
			char *tops = m->env->tops != NULL ?
			    m->env->tops(&m->task) : NULL;

			triage_apply(m->env->name, &j->cand, tops, &subs[k]);
			free(tops);
		}
		pm[k].run = &subs[k];
	}
	pipeline_combine(pm, j->nm, r);
	for (size_t k = 0; k < j->nm; k++)
		run_release(&subs[k]);
}

void
verify_job_result(struct verify_job *j, struct run *r)
{
	struct verify_member *m0 = &j->m[0];

	memset(r, 0, sizeof *r);
	r->cand_id = xstrdup(j->cand.id);
	r->env = xstrdup(j->env_name);
	r->toolchain = xstrdup(j->toolchain);
	if (j->missing != NULL || j->broken != NULL) {
		/* Nothing ran: the toolchain is missing, or broken. */
		const struct smoke_result *sm = j->broken_smoke;

		r->inputs = xstrdup("{}");
		r->command = xstrdup("");
		r->started = j->started;
		r->exit_code = -1;
		if (j->missing != NULL) {
			r->verdict = xstrdup("skipped");
			r->subcategory = xstrdup("no-toolchain");
			r->evidence = xasprintf("skipped: %s", j->missing);
			r->log = xasprintf("assay: skipped: %s\n", j->missing);
		} else {
			r->verdict = xstrdup("env-error");
			r->subcategory = xstrdup("toolchain-broken");
			r->stage = sm != NULL && sm->stage != NULL ?
			    xstrdup(sm->stage) : NULL;
			r->evidence = xstrdup(j->broken);
			r->log = xasprintf("assay: not run: %s\n%s%s",
			    j->broken, sm != NULL && sm->log != NULL ?
			    "assay: the smoke test's log:\n" : "",
			    sm != NULL && sm->log != NULL ? sm->log : "");
		}
		r->log_len = strlen(r->log);
		return;
	}
	r->inputs = j->nm > 1 ? pipeline_inputs(j) :
	    xstrdup(buf_str(&m0->plan.inputs));
	r->command = xasprintf("cd %s\n%s", j->workdir, buf_str(&j->command));
	r->started = j->started;
	r->wall_ms = mono_ms() - j->t0;
	for (size_t k = 0; k < j->nm; k++) {
		member_logs(j, &j->m[k]);
		if (j->m[k].nran > 0)
			r->exit_code = j->m[k].res[j->m[k].nran - 1].exit_code;
	}
	r->log = xstrndup(buf_str(&j->log), j->log.len);
	r->log_len = j->log.len;
	if (j->sandbox_error != NULL) {
		r->verdict = xstrdup("env-error");
		r->subcategory = xstrdup("sandbox-failure");
		r->stage = xstrdup(j->stage_label);
		r->evidence = xstrdup(j->sandbox_error);
	} else if (j->stop == ENV_STOP_CANCEL) {
		r->verdict = xstrdup("skipped");
		r->subcategory = xstrdup("cancelled");
		r->stage = xstrdup(j->stage_label);
	} else if (j->nm > 1) {
		judge_pipeline(j, r);
	} else {
		m0->env->judge(&m0->task, &m0->plan, m0->res, m0->nran,
		    member_stop(j, m0), r);
	}
	if (r->verdict == NULL)
		r->verdict = xstrdup("fail");
	/* A pipeline's members were triaged each under its own env. */
	if (j->nm == 1) {
		char *tops = m0->env->tops != NULL ? m0->env->tops(&m0->task) :
		    NULL;

		triage_apply(m0->env->name, &j->cand, tops, r);
		free(tops);
	}
	for (size_t k = 0; k < j->nm; k++)
		r->log_len = strip_nonce(r->log, r->log_len,
		    j->m[k].plan.nonce);
	r->log[r->log_len] = '\0';
	redact_run(r);
	{
		/* input_key: the same hash verify_input_key() computes. */
		struct task t = j->task;

		if (verify_input_key(&t, &j->cand, j->o.timeout_s, r->input_key,
		    NULL) < 0)
			r->input_key[0] = '\0';
	}
	j->kept = j->o.keep_workdir == 2 || (j->o.keep_workdir == 1 &&
	    !verdict_is(r->verdict, VERDICT_PASS));
	if (j->kept) {
		/* The exact commands, to run again by hand in this directory. */
		char *path = xasprintf("%s/reproduce.sh", j->workdir);
		FILE *f = fopen(path, "w");

		if (f != NULL) {
			fprintf(f, "#!/bin/sh\n# assay run of %s (%s)\nset -e\n%s",
			    j->cand.id, j->env_name, r->command);
			fclose(f);
			chmod(path, 0755);
		}
		free(path);
	}
}

const char *
verify_job_stage(const struct verify_job *j)
{
	return j->stage_label;
}

int
verify_run(const struct verify_opts *o, const struct task *t,
    const struct candidate *c, struct run *r, struct err *err)
{
	struct verify_job *j;

	memset(r, 0, sizeof *r);
	if (verify_job_start(&j, o, t, c, 0, 24, 80, err) < 0)
		return -1;
	while (!verify_job_step(j, NULL, NULL)) {
		struct pollfd p = { .fd = verify_job_fd(j), .events = POLLIN };
		int ms = verify_job_timeout_ms(j);

		if (ms > 200)
			ms = 200;
		if (poll(&p, p.fd >= 0 ? 1 : 0, ms) < 0 && errno != EINTR)
			break;
	}
	verify_job_result(j, r);
	verify_job_free(j);
	verify_job_wait();
	return 0;
}

void
verify_job_wait(void)
{
	workdir_remove_wait();
}

void
verify_job_free(struct verify_job *j)
{
	int code;

	if (j == NULL)
		return;
	if (j->running) {
		kill_group(j);
		while (!reap(j, &code))
			usleep(1000);
		finish_stage(j, code);
	}
	/* the disk's time, not the caller's: removed on another thread
	 * (verify_job_wait() waits for it) */
	if (j->workdir != NULL && !j->kept)
		workdir_remove_later(j->workdir);
	else
		free(j->workdir);
	task_release(&j->task);
	candidate_release(&j->cand);
	for (size_t k = 0; k < j->nm; k++) {
		task_release(&j->m[k].task);
		env_plan_release(&j->m[k].plan);
		free(j->m[k].dir);
	}
	free(j->cache_dir);
	workdir_remove_later(j->seal_dir);
	free(j->stage_dir);
	buf_release(&j->log);
	buf_release(&j->command);
	free(j->sandbox_error);
	free(j->missing);
	free(j->broken);
	free(j);
}

char *
verify_smoke_evidence(const char *env, const struct smoke_result *s)
{
	return xasprintf("%s is broken here: its smoke test failed, %s; %s",
	    env, s->detail != NULL ? s->detail : "for no reason given",
	    s->hint != NULL ? s->hint : "repair it (make deps)");
}
