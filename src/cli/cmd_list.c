/*
 * cmd_list.c - `assay list`: list candidates.  Moved from cli.c.
 */
#include "cli/cli_shared.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/err.h"
#include "base/textsafe.h"
#include "store/store.h"

struct list_ctx {
	int		 json;
	int		 tty;		/* stdout is a terminal: cut to fit */
	size_t		 n;
	size_t		 escaped;	/* characters shown as escapes */
	struct buf	 out;		/* one safe line */
};

/*
 * s (valid UTF-8: cli_vis made it so) into b as a column of w
 * characters: padded with blanks, or cut where it is longer (mark: its
 * last character an ellipsis, else cut bare) and, with whole, left
 * whole.  Counted in characters, not bytes: an origin of accented
 * letters was cut in the middle of one and padded short.
 */
static void
list_field(struct buf *b, const char *s, size_t w, int mark, int whole)
{
	size_t len = strlen(s), at = 0, n = 0, keep = len;
	unsigned cp;

	while (at < len) {
		size_t k = safe_utf8_len(s + at, len - at, &cp);

		if (k == 0)
			k = 1;
		if (n == (mark ? w - 1 : w))
			keep = at;
		at += k;
		n++;
	}
	if (n > w && !whole) {
		buf_add(b, s, keep);
		if (mark)
			buf_adds(b, "\xe2\x80\xa6");
		n = w;
	} else {
		buf_adds(b, s);
	}
	for (; n < w; n++)
		buf_addc(b, ' ');
	buf_addc(b, ' ');
}

static int
list_one(const struct store_row *r, void *arg)
{
	struct list_ctx *c = arg;
	char cat[24];

	c->n++;
	/* A pass with a subcategory (triton's cpu-interpreter, its
	 * suspicious-speedup) shows it: a pass that is not a full one. */
	snprintf(cat, sizeof cat, "%s%s", r->category != NULL ? r->category :
	    r->verdict != NULL && strcmp(r->verdict, "pass") == 0 &&
	    r->subcategory != NULL && *r->subcategory != '\0' ?
	    r->subcategory : "-", r->category != NULL &&
	    r->category_source != NULL &&
	    strcmp(r->category_source, "auto") == 0 ? "?" : "");
	if (c->json) {
		cli_print_json(cli_row_json(r));
		return 0;
	}
	/* A suggestion of the run, not yet a person's label, ends in '?'
	 * (as in the workbench's queue). */
	{
		struct buf line = BUF_INIT;

		char *id = cli_vis(r->id, &c->escaped), *task = cli_vis(r->task,
		    &c->escaped), *origin = cli_vis(r->origin, &c->escaped);

		/* Field by field, so that a newline in a field cannot
		 * start a row of its own.  On a terminal a long task or
		 * origin is cut to its column with an ellipsis, so that the
		 * columns stay; into a pipe the task stays whole, for scripts
		 * (--json has every field whole), and the origin is cut bare
		 * at 26 characters, as it always was. */
		list_field(&line, id, 10, 0, 1);
		list_field(&line, task, 40, c->tty, !c->tty);
		list_field(&line, origin, 26, c->tty, 0);
		buf_printf(&line, "%-11s %-9s %-12s %s\n", r->verdict != NULL ?
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

static const struct cmd_opt list_opts[] = {
	{ "where", 0, CMD_VALUE, 'w' },
	{ "json", 0, CMD_FLAG, 'j' },
	{ "view", 0, CMD_VALUE, 'v' },
	{ NULL, 0, CMD_FLAG, 0 }
};

static int
cmd_list(struct cmd_ctx *ctx, struct cmd_args *a, struct err *err)
{
	const struct cli_global *g = ctx->front;
	const char *val = NULL;
	struct list_ctx c = { 0 };
	const char *view = NULL;
	struct buf where = BUF_INIT;
	struct store *st;
	int ch, rc;

	while ((ch = cmd_next(a, &val)) != -1) {
		if (ch == 'w')
			cli_where_add(&where, val);
		else if (ch == 'j')
			c.json = 1;
		else if (ch == 'v')
			view = val;
	}
	if (cli_open_store(g, &st) < 0)
		return 2;
	if (view != NULL) {
		/* the saved filter first; --where narrows it */
		char *vf = NULL;
		struct buf w = BUF_INIT;

		rc = store_view_get(st, view, &vf, err);
		if (rc != 0) {
			if (rc == 1)
				fprintf(stderr, "assay list: no view %s\n",
				    view);
			else
				fprintf(stderr, "assay list: %s\n", err->msg);
			buf_release(&where);
			store_close(st);
			return 2;
		}
		if (*vf != '\0')
			cli_where_add(&w, vf);
		if (where.len > 0)
			cli_where_add(&w, buf_str(&where));
		buf_release(&where);
		where = w;
		free(vf);
	}
	if (store_query_count(st, WHERE(where), &c.n, err) < 0) {
		fprintf(stderr, "assay list: %s\n", err->msg);
		buf_release(&where);
		store_close(st);
		return 2;
	}
	c.n = 0;
	c.tty = isatty(STDOUT_FILENO);
	if (!c.json)
		printf("%-10s %-40s %-26s %-11s %-9s %-12s %s\n", "ID", "TASK",
		    "ORIGIN", "VERDICT", "STAGE", "CATEGORY", "STATUS");
	rc = store_query_each(st, WHERE(where), list_one, &c, err);
	buf_release(&where);
	buf_release(&c.out);
	store_close(st);
	if (c.escaped > 0)
		fprintf(stderr, "assay list: %zu control character%s or invalid"
		    " byte%s shown escaped (\\x1b, \\u009b, \\xff)\n",
		    c.escaped, c.escaped == 1 ? "" : "s", c.escaped == 1 ? "" :
		    "s");
	if (rc < 0) {
		fprintf(stderr, "assay list: %s\n", err->msg);
		return 2;
	}
	return 0;
}

const struct cmd_entry cli_cmd_list = {
	"list", NULL, list_opts, 0, 0,
	"list [--where FILTER] [--view NAME] [--json]",
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
	  "On a terminal a task or origin longer than its column is cut with\n"
	  "an ellipsis; into a pipe the task is whole.  --json prints one\n"
	  "JSON object per line, every field whole.",
	CMD_CLI, cmd_list
};
