/*
 * smoke.c - each env's smoke test, run through verify jobs and cached
 * (smoke.h, ADR 0032).
 */
#include "verify/smoke.h"

#include <errno.h>
#include <pthread.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "base/atomic.h"
#include "base/buf.h"
#include "base/hash.h"
#include "envs/env.h"
#include "model/codec.h"
#include "model/vocab.h"

#define SMOKE_LOG_MAX	(64u << 10)	/* of a broken sample's log, kept */

static struct smoke_slot {
	char	env[32];
	int	no_sandbox;
	int	reproven;	/* verify_smoke_again() ran it anew */
	int	stale;		/* verify_smoke_forget(): ask anew */
	struct smoke_result r;
} slots[16];
static size_t nslots;
/* The slots, for the workbench's :verify thread and its screen's `v`:
 * held while a smoke test runs, so that one env is proven once. */
static pthread_mutex_t slots_lock = PTHREAD_MUTEX_INITIALIZER;

/* --- the sample ------------------------------------------------------- */

struct sample {
	struct task	 task;
	struct candidate good, bad;
	char		*bad_stage;
	const char	*text;		/* the sample file (static) */
	size_t		 len;
};

static void
cand_fill(struct candidate *c, const struct task *t, const char *id,
    const char *code)
{
	c->id = xstrdup(id);
	c->task_id = xstrdup(t->id);
	c->origin = xstrdup(strcmp(id, "smokegood") == 0 ? "reference" :
	    "human");
	c->kind = xstrdup("direct");
	c->code = xstrdup(code);
	c->code_len = strlen(code);
	hash_sha256(c->code, c->code_len, c->code_hash);
}

/* share/envs/smoke/ENV.json into s: 1 read, 0 none for env, -1 with err
 * (a sample that does not parse is assay's own bug, told as such). */
static int
sample_load(const char *env, struct sample *s, struct err *err)
{
	struct codec_ctx x = { .profile = CODEC_RAW };
	char name[64];
	json_t *o;
	json_error_t je;
	const char *good, *bad, *stage;
	int rc = -1;

	memset(s, 0, sizeof *s);
	snprintf(name, sizeof name, "smoke/%s.json", env);
	s->text = env_share(name, &s->len);
	if (s->text == NULL)
		return 0;
	o = json_loadb(s->text, s->len, 0, &je);
	if (o == NULL)
		return err_set(err, "share/envs/%s:%d: %s", name, je.line,
		    je.text);
	good = json_string_value(json_object_get(o, "good"));
	bad = json_string_value(json_object_get(o, "bad"));
	stage = json_string_value(json_object_get(o, "bad_stage"));
	if (good == NULL || bad == NULL || stage == NULL) {
		err_set(err, "share/envs/%s: needs \"good\", \"bad\" and"
		    " \"bad_stage\"", name);
		goto out;
	}
	if (codec_task_parse(json_object_get(o, "task"), &x, &s->task,
	    err) < 0)
		goto out;
	cand_fill(&s->good, &s->task, "smokegood", good);
	cand_fill(&s->bad, &s->task, "smokebad", bad);
	s->good.lang = xstrdup(env_find(env) != NULL ? env_find(env)->lang :
	    "text");
	s->bad.lang = xstrdup(s->good.lang);
	s->bad_stage = xstrdup(stage);
	rc = 1;
out:
	json_decref(o);
	return rc;
}

static void
sample_release(struct sample *s)
{
	task_release(&s->task);
	candidate_release(&s->good);
	candidate_release(&s->bad);
	free(s->bad_stage);
}

/* --- running one sample ------------------------------------------------ */

/* Run c of s through a verify job to its end (verify_run(), with o's
 * sandbox and work root only); 0 with *r, or -1 with err. */
static int
sample_run(const struct sample *s, const struct candidate *c,
    const struct verify_opts *o, struct run *r, struct err *err)
{
	struct verify_opts so = { 0 };

	so.no_sandbox = o->no_sandbox;
	so.workroot = o->workroot;
	return verify_run(&so, &s->task, c, r, err);
}

/* sample_run() of s's "good" or "bad" sample (which); -1 with out
 * made broken when it could not start. */
static int
sample_start(const struct sample *s, const char *which,
    const struct verify_opts *o, struct run *r, struct smoke_result *out)
{
	struct err err = { 0 };

	if (sample_run(s, which[0] == 'g' ? &s->good : &s->bad, o, r,
	    &err) == 0)
		return 0;
	out->state = SMOKE_BROKEN;
	out->detail = xasprintf("the known-%s sample could not start: %s",
	    which, err.msg);
	return -1;
}

/* The good sample ran here: its verdict proves the toolchain, or its
 * skip says the machine lacks a part after the stages that ran. */
static int
good_ok(const struct run *r)
{
	if (verdict_is(r->verdict, VERDICT_PASS))
		return 1;
	return verdict_is(r->verdict, VERDICT_SKIPPED) &&
	    (r->subcategory == NULL ||
	    strcmp(r->subcategory, "no-toolchain") != 0);
}

static void
broken(struct smoke_result *out, const char *which, const struct run *r,
    const char *why)
{
	char *line = r->log != NULL ? env_first_error(r->log, r->log_len) :
	    NULL;

	out->state = SMOKE_BROKEN;
	out->detail = xasprintf("the known-%s sample: %s%s%s%s%s%s", which,
	    r->verdict != NULL ? r->verdict : "no verdict",
	    r->stage != NULL ? " at " : "", r->stage != NULL ? r->stage : "",
	    why != NULL ? " (" : "", why != NULL ? why : "",
	    why != NULL ? ")" : "");
	if (line != NULL || (r->evidence != NULL && r->evidence[0] != '\0')) {
		char *d = xasprintf("%s: %s", out->detail, line != NULL ? line :
		    r->evidence);

		free(out->detail);
		out->detail = d;
	}
	free(line);
	out->stage = r->stage != NULL ? xstrdup(r->stage) : NULL;
	if (r->log != NULL)
		out->log = xstrndup(r->log, r->log_len > SMOKE_LOG_MAX ?
		    SMOKE_LOG_MAX : r->log_len);
}

/* What to do about a broken env: its own hint, else reinstalling it. */
static char *
hint_of(const char *env, int sandboxed)
{
	const struct env_ops *e = env_find(env);
	char id[ERR_MSG_MAX], buf[512];

	buf[0] = '\0';
	if (e != NULL && e->broken_hint != NULL &&
	    verify_toolchain(env, id, sizeof id, NULL) == 0)
		e->broken_hint(id, sandboxed, buf, sizeof buf);
	if (buf[0] != '\0')
		return xstrdup(buf);
	if (e != NULL && e->packages != NULL)
		return xasprintf("reinstall it (make deps, or apt-get install"
		    " --reinstall %s), then look again with assay envs; assay"
		    " verify --keep-workdir keeps a run to reproduce",
		    e->packages);
	return xstrdup("repair its installation (make deps), then look"
	    " again with assay envs");
}

/* --- the disk cache ------------------------------------------------------ */

static void
stat_into(struct hash_ctx *h, const char *path)
{
	struct stat sb;
	char b[128];

	if (path == NULL || stat(path, &sb) < 0)
		snprintf(b, sizeof b, "-");
	else
		snprintf(b, sizeof b, "%lld.%09ld %lld %llu",
		    (long long)sb.st_mtim.tv_sec, sb.st_mtim.tv_nsec,
		    (long long)sb.st_size, (unsigned long long)sb.st_ino);
	hash_update(h, path != NULL ? path : "", path != NULL ?
	    strlen(path) + 1 : 1);
	hash_update(h, b, strlen(b) + 1);
}

/* The toolchain's fingerprint (smoke.h) into hex; -1 when env has no
 * identity here. */
static int
fingerprint(const char *env, const struct sample *s,
    const struct verify_opts *o, char *hex)
{
	char id[ERR_MSG_MAX];
	const char *path = getenv("PATH"), *venv = env_venv_dir();
	struct hash_ctx *h;
	char *p;

	if (verify_toolchain(env, id, sizeof id, NULL) < 0)
		return -1;
	h = hash_new();
	hash_update(h, env, strlen(env) + 1);
	hash_update(h, id, strlen(id) + 1);
	hash_update(h, s->text, s->len);
	hash_update(h, o->no_sandbox ? "unsandboxed" : "sandboxed",
	    o->no_sandbox ? 12 : 10);
	hash_update(h, path != NULL ? path : "", path != NULL ?
	    strlen(path) + 1 : 1);
	stat_into(h, "/var/lib/dpkg/status");
	if (venv != NULL) {
		stat_into(h, venv);
		p = xasprintf("%s/lib", venv);
		stat_into(h, p);
		free(p);
	}
	hash_final(h, hex);
	return 0;
}

/* The cache directory, made when missing (0700); NULL when none. */
static char *
cache_dir(void)
{
	const char *d = getenv("ASSAY_SMOKE_DIR");
	const char *xdg = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");
	char *dir, *p;

	if (d != NULL && d[0] == '/')
		dir = xstrdup(d);
	else if (xdg != NULL && xdg[0] == '/')
		dir = xasprintf("%s/assay/smoke", xdg);
	else if (home != NULL && home[0] == '/')
		dir = xasprintf("%s/.cache/assay/smoke", home);
	else
		return NULL;
	/* mkdir -p */
	for (p = dir + 1; *p != '\0'; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		(void)mkdir(dir, 0700);
		*p = '/';
	}
	if (mkdir(dir, 0700) < 0 && errno != EEXIST) {
		free(dir);
		return NULL;
	}
	return dir;
}

static int
cache_has(const char *hex)
{
	char *dir = cache_dir(), *path;
	int ok;

	if (dir == NULL)
		return 0;
	path = xasprintf("%s/%s", dir, hex);
	{
		/* Only a file cache_put() wrote: "ok\tENV\t...". */
		char head[4] = { 0 };
		FILE *f = fopen(path, "r");

		ok = f != NULL && fread(head, 1, 3, f) == 3 &&
		    memcmp(head, "ok\t", 3) == 0;
		if (f != NULL)
			fclose(f);
	}
	free(path);
	free(dir);
	return ok;
}

static void
cache_put(const char *env, const char *hex)
{
	char *dir = cache_dir(), *path, *text;
	char id[ERR_MSG_MAX];

	if (dir == NULL)
		return;
	if (verify_toolchain(env, id, sizeof id, NULL) < 0)
		id[0] = '\0';
	path = xasprintf("%s/%s", dir, hex);
	text = xasprintf("ok\t%s\t%s\n", env, id);
	(void)atomic_write(path, text, NULL);
	free(text);
	free(path);
	free(dir);
}

/* --- the test ------------------------------------------------------------- */

static void
smoke_run(const char *env, const struct verify_opts *o, int use_cache,
    struct smoke_result *out)
{
	struct sample s;
	struct err err = { 0 };
	struct run g = { 0 }, b = { 0 };
	char hex[SAMPLE_HASH_HEX];
	int have_fp, rc;

	rc = sample_load(env, &s, &err);
	if (rc <= 0) {
		if (rc < 0) {
			out->state = SMOKE_BROKEN;
			out->detail = xstrdup(err.msg);
			out->hint = xstrdup("assay's own smoke sample is"
			    " broken: report it");
		}
		return;
	}
	have_fp = fingerprint(env, &s, o, hex) == 0;
	if (use_cache && have_fp && cache_has(hex)) {
		out->state = SMOKE_OK;
		out->cached = 1;
		goto out;
	}
	if (sample_start(&s, "good", o, &g, out) < 0)
		goto done;
	if (verdict_is(g.verdict, VERDICT_ENV_ERROR) && g.subcategory != NULL &&
	    strcmp(g.subcategory, "sandbox-failure") == 0) {
		/* The sandbox failed, not the toolchain: nothing proven
		 * either way, nothing cached; the candidates' runs say
		 * sandbox-failure themselves. */
		goto out;
	}
	if (!good_ok(&g)) {
		broken(out, "good", &g, NULL);
		goto done;
	}
	if (sample_start(&s, "bad", o, &b, out) < 0)
		goto done;
	/* The bad sample fails where it must; a good sample skipped before
	 * that stage (no GPU, no venv) may leave it skipped too. */
	if (!(verdict_is(b.verdict, VERDICT_FAIL) && b.stage != NULL &&
	    strcmp(b.stage, s.bad_stage) == 0) &&
	    !(verdict_is(g.verdict, VERDICT_SKIPPED) &&
	    verdict_is(b.verdict, VERDICT_SKIPPED))) {
		char *why = xasprintf("it must fail at %s", s.bad_stage);

		broken(out, "bad", &b, why);
		free(why);
		goto done;
	}
	out->state = SMOKE_OK;
	if (have_fp)
		cache_put(env, hex);
done:
	if (out->state == SMOKE_BROKEN)
		out->hint = hint_of(env, !o->no_sandbox);
out:
	run_release(&g);
	run_release(&b);
	sample_release(&s);
}

static const struct smoke_result *smoke_locked(const char *env,
    const struct verify_opts *o);

const struct smoke_result *
verify_smoke(const char *env, const struct verify_opts *o)
{
	const struct smoke_result *r;

	pthread_mutex_lock(&slots_lock);
	r = smoke_locked(env, o);
	pthread_mutex_unlock(&slots_lock);
	return r;
}

static const struct smoke_result *
smoke_locked(const char *env, const struct verify_opts *o)
{
	static struct smoke_result none = { .state = SMOKE_NONE };
	struct smoke_slot *slot;

	for (size_t i = 0; i < nslots; i++)
		if (!slots[i].stale && strcmp(slots[i].env, env) == 0 &&
		    slots[i].no_sandbox == (o->no_sandbox != 0))
			return &slots[i].r;
	if (nslots == sizeof slots / sizeof slots[0] ||
	    strlen(env) >= sizeof slots[0].env)
		return &none;
	slot = &slots[nslots++];
	snprintf(slot->env, sizeof slot->env, "%s", env);
	slot->no_sandbox = o->no_sandbox != 0;
	memset(&slot->r, 0, sizeof slot->r);
	smoke_run(env, o, 1, &slot->r);
	return &slot->r;
}

void
verify_smoke_forget(void)
{
	/* Kept, not freed: a job may still hold a broken result. */
	pthread_mutex_lock(&slots_lock);
	for (size_t i = 0; i < nslots; i++)
		if (slots[i].r.state != SMOKE_OK)
			slots[i].stale = 1;
	pthread_mutex_unlock(&slots_lock);
}

const struct smoke_result *
verify_smoke_again(const char *env, const struct verify_opts *o)
{
	const struct smoke_result *sm;
	struct smoke_slot *slot = NULL;

	pthread_mutex_lock(&slots_lock);
	sm = smoke_locked(env, o);
	for (size_t i = 0; i < nslots; i++)
		if (&slots[i].r == sm)
			slot = &slots[i];
	if (slot != NULL && !slot->reproven && sm->state == SMOKE_OK &&
	    sm->cached) {
		slot->reproven = 1;
		memset(&slot->r, 0, sizeof slot->r);
		smoke_run(env, o, 0, &slot->r);
		sm = &slot->r;
	}
	pthread_mutex_unlock(&slots_lock);
	return sm;
}
