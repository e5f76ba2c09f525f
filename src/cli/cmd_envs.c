/*
 * cmd_envs.c - `assay envs`: list the toolchain envs.  Moved from cli.c.
 */
#include "cli/cli_shared.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "base/err.h"
#include "envs/env.h"
#include "exec/sandbox.h"
#include "verify/smoke.h"
#include "verify/verify.h"

/*
 * The smoke test of env (verify/smoke.h), with a line on stderr while
 * one runs where someone watches (the first call on a machine takes
 * seconds: a Verilator build, a PyTorch import).
 */
static int recheck;	/* --recheck: not from the disk cache */

static const struct smoke_result *
prove(const char *env, const struct verify_opts *vo)
{
	int tty = isatty(2);
	const struct smoke_result *sm;

	if (tty)
		fprintf(stderr, "assay: proving %s (its smoke test) ...\r",
		    env);
	sm = recheck ? verify_smoke_again(env, vo) : verify_smoke(env, vo);
	if (tty)
		fprintf(stderr, "\033[K");
	return sm;
}

/*
 * envs --json: one object, {"envs": [{name, domain, present ("yes",
 * "partly", "broken", "no"), toolchain (its identity, or why it cannot
 * run), smoke ("passed", "failed", "none", "not run"), error and fix
 * (a broken one's first error and what to do), missing, install, hint,
 * without_gpu}], "sandbox": {present, detail},
 * "venv": {present, dir, versions}}; the same facts as the table.
 */
static int
envs_json(const struct verify_opts *vo)
{
	static const char *const pkgs[] = { "cadquery", "cadquery-ocp",
	    "torch", "triton", "numpy", NULL };
	const struct env_ops *const *list;
	json_t *root = json_object(), *arr = json_array(), *o;
	struct err err = { 0 };
	char id[ERR_MSG_MAX], lacks[256], vers[ERR_MSG_MAX];
	const char *dir;
	size_t n;
	char *text;

	list = env_list(&n);
	for (size_t i = 0; i < n; i++) {
		const struct env_ops *e = list[i];
		int tc = verify_toolchain(e->name, id, sizeof id, &err);
		int ok = tc == 0, dead = tc == ENV_TOOL_BROKEN;
		int part = ok && e->partial != NULL &&
		    e->partial(id, lacks, sizeof lacks);
		const struct smoke_result *sm = ok ? prove(e->name, vo) : NULL;
		int broken = dead || (sm != NULL && sm->state == SMOKE_BROKEN);

		o = json_pack("{s:s, s:s, s:s, s:s}", "name", e->name,
		    "domain", e->domain, "present",
		    broken ? "broken" : !ok ? "no" : part ? "partly" : "yes",
		    "toolchain", ok ? id : err.msg);
		json_object_set_new(o, "smoke", json_string(sm == NULL ?
		    "not run" : sm->state == SMOKE_OK ? "passed" :
		    broken ? "failed" : "none"));
		json_object_set_new(o, "error", dead ? json_string(err.msg) :
		    broken ? json_string(sm->detail) : json_null());
		json_object_set_new(o, "fix", dead ? json_string("repair its"
		    " installation (make deps), then look again with assay"
		    " envs") : broken && sm->hint != NULL ?
		    json_string(sm->hint) : json_null());
		json_object_set_new(o, "missing", part ? json_string(lacks) :
		    json_null());
		json_object_set_new(o, "install", !ok && e->packages != NULL ?
		    json_string(e->packages) : json_null());
		json_object_set_new(o, "hint", (!ok || part) &&
		    e->missing_hint != NULL ? json_string(e->missing_hint) :
		    json_null());
		json_object_set_new(o, "without_gpu", json_string(
		    e->without_gpu != NULL ? e->without_gpu :
		    "everything (needs no GPU)"));
		json_array_append_new(arr, o);
	}
	json_object_set_new(root, "envs", arr);
	{
		int ok = sandbox_check(&err) == 0;

		json_object_set_new(root, "sandbox", json_pack("{s:b, s:s}",
		    "present", ok, "detail", ok ? "bubblewrap" : err.msg));
	}
	dir = env_venv_dir();
	o = json_object();
	json_object_set_new(o, "dir", dir != NULL ? json_string(dir) :
	    json_null());
	if (dir != NULL && env_venv_versions(pkgs, vers, sizeof vers) == 0) {
		json_object_set_new(o, "present", json_true());
		json_object_set_new(o, "versions", json_string(vers));
	} else {
		json_object_set_new(o, "present", json_false());
		json_object_set_new(o, "versions", json_null());
	}
	json_object_set_new(root, "venv", o);
	text = json_dumps(root, JSON_COMPACT | JSON_ENSURE_ASCII);
	json_decref(root);
	if (text == NULL)
		return 1;
	printf("%s\n", text);
	free(text);
	return 0;
}

static const struct cmd_opt envs_opts[] = {
	{ "json", 0, CMD_FLAG, 'J' },
	{ "no-sandbox", 0, CMD_FLAG, 'n' },
	{ "recheck", 0, CMD_FLAG, 'r' },
	{ NULL, 0, CMD_FLAG, 0 }
};

static int
cmd_envs(struct cmd_ctx *ctx, struct cmd_args *a, struct err *err)
{
	const struct env_ops *const *list;
	struct verify_opts vo = { 0 };
	size_t n, missing = 0, partly = 0, broken = 0;

	(void)ctx;
	vo.no_sandbox = cmd_has(a, 'n', NULL);
	recheck = cmd_has(a, 'r', NULL);
	if (cmd_has(a, 'J', NULL))
		return envs_json(&vo);
	list = env_list(&n);
	printf("%-10s %-9s %-8s %s\n", "ENV", "DOMAIN", "PRESENT", "TOOLCHAIN");
	for (size_t i = 0; i < n; i++) {
		const struct env_ops *e = list[i];
		char id[ERR_MSG_MAX], lacks[256];
		int tc = verify_toolchain(e->name, id, sizeof id, err);

		if (tc == ENV_TOOL_BROKEN) {
			/* Installed, and it does not run (issue 21). */
			broken++;
			printf("%-10s %-9s %-8s %s\n", e->name, e->domain,
			    "broken", "(it does not run)");
			printf("%-29s error: %s\n", "", err->msg);
			printf("%-29s fix: repair its installation (make deps),"
			    " then look again with assay envs\n", "");
			continue;
		}
		if (tc == 0) {
			/* Present, but maybe without a part some candidates
			 * need (torch, a GPU, CadQuery): say what and how to
			 * get it, as for a missing one. */
			int part = e->partial != NULL &&
			    e->partial(id, lacks, sizeof lacks);
			const struct smoke_result *sm = prove(e->name, &vo);

			/* Here but not working: proven by its smoke test,
			 * never assumed from a version line (issue 21). */
			if (sm->state == SMOKE_BROKEN) {
				broken++;
				printf("%-10s %-9s %-8s %s\n", e->name,
				    e->domain, "broken", id);
				printf("%-29s error: %s\n", "", sm->detail);
				if (sm->hint != NULL)
					printf("%-29s fix: %s\n", "", sm->hint);
				continue;
			}
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
		    err->msg);
		if (e->packages != NULL)
			printf("%-29s install: apt-get install %s\n", "",
			    e->packages);
		if (e->missing_hint != NULL)
			printf("%-29s %s\n", "", e->missing_hint);
	}
	if (sandbox_check(err) == 0)
		printf("%-10s %-9s %-8s %s\n", "sandbox", "-", "yes",
		    "bubblewrap");
	else
		printf("%-10s %-9s %-8s %s\n", "sandbox", "-", "no", err->msg);
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
	if (broken > 0)
		printf("\n%zu of %zu envs are installed but fail their smoke"
		    " test (the error: lines):\ntheir candidates are verified"
		    " as env-error/toolchain-broken until they are repaired.\n",
		    broken, n);
	if (partly > 0)
		printf("\n%zu of %zu envs run here in part (the missing: lines):"
		    " what needs the missing\npart is left out or verified as"
		    " skipped, with the reason.\n", partly, n);
	return 0;
}

const struct cmd_entry cli_cmd_envs = {
	"envs", NULL, envs_opts, 0, 0,
	"envs [--json] [--no-sandbox] [--recheck]", "List the toolchain envs"
	  " and whether"
	  " they work here: each installed one\nis proven by its smoke test (a"
	  " known-good sample must pass, a known-bad one\nfail in its stage),"
	  " cached per toolchain; broken ones say the tool's first\nerror and"
	  " what to do.  --no-sandbox proves them as verify --no-sandbox runs;"
	  "\n--recheck proves them anew, not from the cache."
	  "\n--json prints one object: envs (name, domain, present"
	  " yes|partly|broken|no,\ntoolchain, smoke, error, fix, missing,"
	  " install, hint, without_gpu), sandbox and venv.",
	CMD_CLI, cmd_envs
};
