/*
 * cmd_task.c - `assay task new FILE...`: a structured task from real
 * code, its reference verified before it is stored
 * (docs/adr/0044-task-from-real-code.md).
 */
#include "cli/cli_shared.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "app/task_new.h"
#include "base/err.h"
#include "envs/yosys_equiv.h"
#include "exec/sandbox.h"
#include "model/codec.h"
#include "store/store.h"

static const struct cmd_opt task_opts[] = {
	{ "testbench", 0, CMD_VALUE, 'b' },
	{ "spec", 0, CMD_VALUE, 's' },
	{ "id", 0, CMD_VALUE, 'i' },
	{ "top", 0, CMD_VALUE, 'T' },
	{ "reference", 0, CMD_VALUE, 'r' },
	{ "arch", 0, CMD_VALUE, 'a' },
	{ "env", 0, CMD_VALUE, 'e' },
	{ "timeout", 0, CMD_VALUE, 't' },
	{ "equiv-depth", 0, CMD_VALUE, 'D' },
	{ "edit", 0, CMD_FLAG, 'E' },
	{ "dry-run", 'n', CMD_FLAG, 'd' },
	{ "no-sandbox", 0, CMD_FLAG, 'N' },
	{ "json", 0, CMD_FLAG, 'J' },
	{ "allow-vacuous", 0, CMD_FLAG, 'V' },
	{ NULL, 0, CMD_FLAG, 0 }
};

/* The outcome as one JSON object: {"task": ID, "stored": B, "verdict",
 * "stage", "why", "module", "ports": [...], "warnings": [...],
 * "row": the JSONL row}. */
static void
print_json(const struct task_new *tn, const struct run *r, int stored,
    const char *why, const char *row)
{
	json_t *o = json_object(), *w = json_array(), *x;
	const char *p = buf_str(&tn->warnings), *nl;
	char *s;

	json_object_set_new(o, "task", json_string(tn->task.id));
	json_object_set_new(o, "stored", json_boolean(stored));
	json_object_set_new(o, "verdict", r != NULL && r->verdict != NULL ?
	    json_string(r->verdict) : json_null());
	json_object_set_new(o, "stage", r != NULL && r->stage != NULL ?
	    json_string(r->stage) : json_null());
	json_object_set_new(o, "metrics", r != NULL && r->metrics != NULL ?
	    codec_json_text(r->metrics) : json_null());
	json_object_set_new(o, "why", why != NULL ? codec_str(why) :
	    json_null());
	json_object_set_new(o, "reference", stored ? json_string(tn->ref.id) :
	    json_null());
	x = tn->task.extra != NULL ? json_loads(tn->task.extra, 0, NULL) :
	    NULL;
	json_object_set_new(o, tn->what, json_string(tn->module));
	json_object_set(o, "ports", x != NULL ? json_object_get(x, "ports") :
	    json_null());
	json_object_set(o, "parameters", x != NULL ?
	    json_object_get(x, "parameters") : json_null());
	json_decref(x);
	for (; p != NULL && *p != '\0'; p = nl + 1) {
		nl = strchr(p, '\n');
		if (nl == NULL)
			nl = p + strlen(p) - 1;
		json_array_append_new(w, codec_text(p, (size_t)(nl - p)));
	}
	json_object_set_new(o, "warnings", w);
	json_object_set_new(o, "row", row != NULL ? json_loads(row, 0, NULL) :
	    json_null());
	s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
	puts(s);
	free(s);
	json_decref(o);
}

static int
cmd_task(struct cmd_ctx *ctx, struct cmd_args *a, struct err *err)
{
	const struct cli_global *g = ctx->front;
	struct task_new_opts o = { 0 };
	struct verify_opts vo = { 0 };
	struct task_new tn;
	struct run r = { 0 };
	const char *val = NULL;
	struct store *st = NULL;
	char *row = NULL, *why = NULL, *bound = NULL, *env = NULL;
	int ch, edit = 0, dry = 0, json = 0, rc = 2, stored = 0, vacuous = 0;
	int allow_vacuous = 0;

	while ((ch = cmd_next(a, &val)) != -1) {
		long v;

		switch (ch) {
		case 'b': o.testbench = val; break;
		case 's': o.spec_file = val; break;
		case 'i': o.id = val; break;
		case 'T': o.top = val; break;
		case 'r': o.reference = val; break;
		case 'a': o.arch = val; break;
		case 'e': o.env = val; break;
		case 'E': edit = 1; break;
		case 'd': dry = 1; break;
		case 'N': vo.no_sandbox = 1; break;
		case 'J': json = 1; break;
		case 'V': allow_vacuous = 1; break;
		case 't':
			if (cli_parse_seconds(val, 1, 86400, &v) < 0)
				return cli_usage_error("task", "--timeout wants"
				    " whole seconds, 1..86400, not '%s'", val);
			o.timeout_s = (int)v;
			break;
		case 'D':
			/* a whole number in range, as seconds are */
			if (cli_parse_seconds(val, 1, YOSYS_EQUIV_MAX_DEPTH,
			    &v) < 0)
				return cli_usage_error("task", "--equiv-depth"
				    " wants solver steps, 1..1000, not '%s'",
				    val);
			o.equiv_depth = (int)v;
			break;
		}
	}
	if (a->npos < 2 || strcmp(a->pos[0], "new") != 0)
		return cli_usage_error("task", "the one subcommand is new FILE"
		    "...%s", "");
	if (task_new_build(a->pos + 1, (size_t)a->npos - 1, &o, &tn,
	    err) < 0) {
		fprintf(stderr, "assay task new: %s\n", err->msg);
		task_new_release(&tn);
		return 2;
	}
	if (!json && tn.warnings.len > 0)
		fputs(buf_str(&tn.warnings), stderr);
	if (edit || (tn.skeleton && !dry && isatty(0) && isatty(1))) {
		int e = task_new_edit(&tn, NULL, err);

		if (e < 0) {
			fprintf(stderr, "assay task new: %s\n", err->msg);
			goto out;
		}
	}
	if (tn.skeleton && !dry) {
		fprintf(stderr, "assay task new: %s:%d: no requirement: no"
		    " comment above %s; give --spec FILE, or write it"
		    " over \"%s\" with --edit\n", a->pos[1], 1, tn.module,
		    TASK_NEW_SKELETON);
		goto out;
	}
	row = task_new_jsonl(&tn, err);
	if (row == NULL) {
		fprintf(stderr, "assay task new: %s\n", err->msg);
		goto out;
	}
	if (dry) {
		if (json)
			print_json(&tn, NULL, 0, NULL, row);
		else
			puts(row);
		rc = 0;
		goto out;
	}
	if (cli_open_store_mode(g, &st, 1) < 0)
		goto out;
	/* a task that exists is said before minutes of verification */
	switch (store_task_env(st, tn.task.id, &env, err)) {
	case 0:
		fprintf(stderr, "assay task new: a task %s exists already (--id"
		    " names another); nothing verified or stored\n",
		    tn.task.id);
		goto out;
	case -1:
		fprintf(stderr, "assay task new: %s\n", err->msg);
		goto out;
	}
	if (vo.no_sandbox)
		fprintf(stderr, "assay: WARNING: --no-sandbox: the reference"
		    " runs unconfined, with only resource limits\n");
	else if (sandbox_check(err) < 0) {
		fprintf(stderr, "assay: refusing to run the reference: %s\n",
		    err->msg);
		goto out;
	}
	if (!json)
		fprintf(stderr, "verifying the reference of %s (env %s) ...\n",
		    tn.task.id, tn.task.env);
	if (task_new_verify(&tn, &vo, json ? NULL : stderr, &r, err) < 0) {
		fprintf(stderr, "assay task new: %s\n", err->msg);
		goto out;
	}
	bound = task_new_bound_warning(&r);
	if (bound != NULL)
		buf_printf(&tn.warnings, "%s\n", bound);
	if (r.verdict == NULL || strcmp(r.verdict, "pass") != 0) {
		why = task_new_why(&tn, &r);
		rc = 1;
	} else if (!allow_vacuous && (vacuous = task_new_vacuous(&tn, &vo,
	    &why, err)) != 0) {
		if (vacuous < 0)
			why = xstrdup(err->msg);
		rc = 1;
	} else if (task_new_store(st, &tn, &r, err) < 0) {
		why = xstrdup(err->msg);
	} else {
		stored = 1;
		rc = 0;
	}
	if (json) {
		print_json(&tn, &r, stored, why, row);
	} else if (stored) {
		printf("%s: stored, env %s, %s %s", tn.task.id, tn.task.env,
		    tn.what, tn.module);
		if (tn.counted != NULL)
			printf(" (%zu %s)", tn.nports, tn.counted);
		printf("; reference %s passes%s%s\n", tn.ref.id,
		    r.metrics != NULL ? " " : "", r.metrics != NULL ?
		    r.metrics : "");
		if (bound != NULL)
			printf("warning: %s\n", bound);
	} else {
		fprintf(stderr, "assay task new: %s: %s; nothing stored\n",
		    a->pos[1], why);
	}
out:
	free(env);
	free(bound);
	free(why);
	free(row);
	run_release(&r);
	task_new_release(&tn);
	store_close(st);
	return rc;
}

const struct cmd_entry cli_cmd_task = {
	"task", NULL, task_opts, 2, CMD_MANY,
	"task new FILE... [--testbench TB] [--spec FILE] [--id ID]"
	  " [--top NAME] [--reference FILE.s] [--arch SM] [--env ENV] [--timeout S] [--equiv-depth N] [--edit] [--dry-run] [--allow-vacuous]"
	  " [--json] [--no-sandbox]",
	  "A structured task from real code.  FILE is a Verilog or\n"
	  "SystemVerilog design, a C function, a CUDA file, a CadQuery script\n"
	  "or a STEP file (below); for a design the FILEs after it are data\n"
	  "files its testbench reads (each it names in $readmemh, $readmemb\n"
	  "or $fopen must be given).  Its module's ports (direction, width) and\n"
	  "parameters, read with tree-sitter, are the task's interface; the\n"
	  "requirement is --spec FILE, else the comment above the module,\n"
	  "else a skeleton to fill in $EDITOR (--edit opens the task there in\n"
	  "any case); the file is the reference.  With --testbench the task\n"
	  "runs it (env iverilog, or --env), the reference's module renamed\n"
	  "to the one it instantiates; without, env yosys proves a candidate\n"
	  "equivalent to the reference (ADR 0037), by induction or, where\n"
	  "that does not close, for --equiv-depth N solver steps (two a\n"
	  "clock cycle; default 60 for a design with a clocked always, 20\n"
	  "else; a bounded proof is warned of).  The reference is verified\n"
	  "in the sandbox first: the task is stored with it and its run only\n"
	  "when it passes, else the command says why and stores nothing (exit\n"
	  "1).  --dry-run prints the task as an assay JSONL row and stores\n"
	  "nothing; --json prints the outcome as one object.\n"
	  "A C file's function (--top NAME when several are not static)\n"
	  "becomes an x86-asm task: its prototype in the env's signature\n"
	  "grammar, the ABI's registers, the file as ref.c the candidates are\n"
	  "compared with on seeded random inputs; --reference FILE.s is its\n"
	  "reference (gcc -O2 -S FILE.c makes one).  A CUDA file becomes an\n"
	  "nvcc task for --arch (sm_90): its host entry and kernels, each\n"
	  "launch's configuration and the target's launch limits are the\n"
	  "interface, the file the reference, --testbench its harness.\n"
	  "A CadQuery script (.py, it imports cadquery and leaves the solid in\n"
	  "result) or a STEP file (.step, .stp) becomes a cad task: candidates\n"
	  "are judged by their IoU with that reference solid (at least 0.9);\n"
	  "its requirement is --spec, else the script's opening comment or\n"
	  "docstring.",
	CMD_CLI, cmd_task
};
