/*
 * cli_shared.c - what the command files (cmd_*.c) share: opening the
 * store, usage errors and --help, id and reviewer resolution, the verify
 * and merge summary, and the JSON and terminal-safe printing of rows.
 */
#include "cli/cli_shared.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdarg.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "app/config.h"
#include "base/buf.h"
#include "base/err.h"
#include "base/ident.h"
#include "base/textsafe.h"
#include "model/codec.h"
#include "store/store.h"

/* The command table, handed down by cli.c (which owns it) so that the
 * usage errors below can print a command's usage without calling up. */
static const struct cmd_table *commands;

void
cli_set_commands(const struct cmd_table *table)
{
	commands = table;
}

/* A shared command's messages: "assay NAME: TEXT" on stderr. */
static void
diag_line(void *arg, const char *s)
{
	const struct cmd_entry *e = arg;

	fprintf(stderr, "assay %s: %s\n", e->name, s);
}

/*
 * Run a CMD_STORE entry (a command the workbench shares, app/commands.h)
 * on the database of g, as the reviewer, on its ID (a->target) when it
 * was given.  The exit status; err's message printed on failure.
 */
static int
exec_on_store(const struct cli_global *g, struct cmd_ctx *ctx,
    struct cmd_args *a)
{
	struct store *st;
	struct err err;
	char *id = NULL, *by = NULL;
	int rc = 2;

	if (cli_open_store(g, &st) < 0)
		return 2;
	if (a->target != NULL && (id = cli_resolve(st, a->target)) == NULL)
		goto out;
	if ((by = cli_reviewer(g)) == NULL)
		goto out;
	ctx->st = st;
	ctx->by = by;
	ctx->ids = id != NULL ? &id : NULL;
	ctx->nids = id != NULL ? 1 : 0;
	ctx->diag = diag_line;
	ctx->arg = (void *)ctx->entry;
	err_clear(&err);
	rc = ctx->entry->exec(ctx, a, &err);
	if (rc != 0 && err.msg[0] != '\0')
		fprintf(stderr, "assay %s: %s\n", ctx->entry->name, err.msg);
	free(ctx->focus);
out:
	free(by);
	free(id);
	store_close(st);
	return rc;
}

int
cli_exec(const struct cli_global *g, const struct cmd_entry *e, int argc,
    char **argv)
{
	struct cmd_ctx ctx = { .entry = e, .front = (void *)g };
	struct cmd_args a;
	struct err err;
	int rc;

	err_clear(&err);
	if (cmd_parse_front(e, CMD_CLI, argc, argv, &a, &err) < 0)
		rc = cli_usage_error(e->name, "%s", err.msg);
	else if (a.help) {
		struct buf b = BUF_INIT;

		cmd_help_text(e, CMD_CLI, "assay", &b);
		fwrite(b.p != NULL ? b.p : "", 1, b.len, stdout);
		buf_release(&b);
		rc = 0;
	} else if (e->flags & CMD_STORE)
		rc = exec_on_store(g, &ctx, &a);
	else
		rc = e->exec(&ctx, &a, &err);
	cmd_args_release(&a);
	return rc;
}

/* Open the database; only import may create it (a typo'd --db must not
 * quietly answer from an empty one). */
int
cli_open_store_mode(const struct cli_global *g, struct store **st, int create)
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

int
cli_open_store(const struct cli_global *g, struct store **st)
{
	return cli_open_store_mode(g, st, 0);
}

int
cli_usage_error(const char *cmd, const char *fmt, const char *arg)
{
	const struct cmd_entry *c = commands != NULL ?
	    cmd_find(commands, cmd) : NULL;

	struct buf u = BUF_INIT;

	if (c != NULL)		/* with ID after a shared command's name */
		cmd_usage_line(c, CMD_CLI, &u);
	fprintf(stderr, "assay %s: ", cmd);
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nusage: assay %s\n", buf_str(&u));
	buf_release(&u);
	return 2;
}

/* Resolve an id or unique prefix; prints the error.  New string or NULL. */
char *
cli_resolve(struct store *st, const char *id)
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
char *
cli_reviewer(const struct cli_global *g)
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

/* Repeated --where options add up: "a" then "b" is "a b". */
void
cli_where_add(struct buf *w, const char *v)
{
	if (w->len > 0)
		buf_addc(w, ' ');
	buf_adds(w, v);
}

void
cli_summary_print(const struct cli_summary *s, int json)
{
	const struct vsvc_tally *t = &s->tally;

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

		if (strcmp(s->command, "merge") == 0) {
			json_object_set_new(o, "refused",
			    json_integer((json_int_t)s->refused));
			json_object_set_new(o, "merged",
			    json_integer((json_int_t)s->done));
		} else {
			json_object_set_new(o, "left_to_another",
			    json_integer((json_int_t)s->left));
		}
		json_object_set_new(o, "results", s->results != NULL ?
		    json_string(s->results) : json_null());
		if (s->input)
			json_object_set_new(o, "complete",
			    json_boolean(s->complete));
		if (s->more != NULL)
			json_object_update(o, s->more);
		cli_print_json(o);
		return;
	}
	cli_summary_line(stdout, s);
}

void
cli_summary_line(FILE *f, const struct cli_summary *s)
{
	const struct vsvc_tally *t = &s->tally;

	fprintf(f, "%s %zu, unchanged %zu: pass %zu, fail %zu, timeout"
	    " %zu, env-error %zu, task-defect %zu, skipped %zu",
	    strcmp(s->command, "merge") == 0 ? "merged" : "verified", s->done,
	    s->unchanged, t->pass, t->fail, t->timeout, t->env_error,
	    t->task_defect, t->skipped);
	if (s->not_stored > 0)
		fprintf(f, "; not stored %zu", s->not_stored);
	if (s->refused > 0)
		fprintf(f, "; refused %zu", s->refused);
	if (s->left > 0)
		fprintf(f, "; left to another verify %zu", s->left);
	fprintf(f, "\n");
}

/* Parse whole seconds in lo..hi into *out; 0 or -1. */
int
cli_parse_seconds(const char *s, long lo, long hi, long *out)
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
char *
cli_vis(const char *s, size_t *escaped)
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

void
cli_safe_print(const char *cmd, const char *s, size_t len)
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

void
cli_progress(struct cli_progress *p, const char *fmt, ...)
{
	struct timespec now;
	double t;
	va_list ap;

	clock_gettime(CLOCK_MONOTONIC, &now);
	t = (double)now.tv_sec + (double)now.tv_nsec / 1e9;
	if (!p->tty && p->shown && t - p->last < 1)
		return;
	if (p->tty)
		fputs("\r\033[K", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (!p->tty)
		fputc('\n', stderr);
	p->shown = 1;
	p->last = t;
}

void
cli_progress_end(struct cli_progress *p)
{
	if (p->tty && p->shown)
		fputc('\n', stderr);
	p->shown = 0;
}

json_t *
cli_row_json(const struct store_row *r)
{
	return json_pack("{s:s, s:s, s:s, s:s, s:o, s:s, s:s, s:o, s:o, s:o,"
	    " s:o, s:o, s:o, s:o, s:o, s:s, s:o}",
	    "id", r->id, "task", r->task, "benchmark", r->benchmark,
	    "domain", r->domain, "origin", codec_str(r->origin), "kind",
	    r->kind,
	    "lang", r->lang, "parent", codec_str(r->parent),
	    "source", codec_str(r->source), "verdict",
	    codec_str(r->verdict), "stage", codec_str(r->stage),
	    "metrics", codec_json_text(r->metrics), "category", codec_str(r->category),
	    "subcategory", codec_str(r->subcategory),
	    "category_source", codec_str(r->category_source),
	    "status", r->status, "env", codec_str(r->env));
}

void
cli_print_json(json_t *o)
{
	char *s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);

	puts(s);
	free(s);
	json_decref(o);
}