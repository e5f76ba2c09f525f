/*
 * cmd_decide.c - how the shared decision commands (label, review, note)
 * act on their targets: ask or warn, decide, say what was done
 * (commands.h).
 */
#include "app/commands.h"

#include <stdlib.h>
#include <string.h>

#include "base/buf.h"

/* "labelled compile/sub", "accepted", "noted": what one decision did. */
static void
did(const struct decide_act *act, struct buf *b)
{
	switch (act->kind) {
	case DECIDE_LABEL:
		buf_printf(b, "labelled %s%s%s%s", act->category,
		    act->sub != NULL ? "/" : "", act->sub != NULL ?
		    act->sub : "", act->final ? " (final)" : "");
		break;
	case DECIDE_REVIEW:
		buf_adds(b, act->status);
		break;
	case DECIDE_NOTE:
		buf_adds(b, "noted");
		break;
	}
}

int
cmd_decide(struct cmd_ctx *ctx, struct cmd_args *a,
    const struct decide_act *act, const char *arg, struct err *err)
{
	const char *verb = ctx->entry->name;
	char **ids, warn[96];
	struct buf b = BUF_INIT;
	size_t n, failed, made = 0, same;
	int rc = 0;

	if (cmd_targets(ctx, a, &ids, &n, err) < 0)
		return 2;
	/* what would change nothing is neither asked about nor warned of
	 * ("accept although it does not pass? y/n" for an accept that
	 * stood already; "label 2 candidates" for two already so) */
	same = decide_unchanged(ctx->st, act, ids, n, ctx->by);
	if (same == n && n > 0) {
		if (n == 1)
			buf_printf(&b, "%s ", ids[0]);
		else
			buf_printf(&b, "%s %zu candidates: ", verb, n);
		did(act, &b);
		buf_printf(&b, " by %s already: nothing changed", ctx->by);
		cmd_printf(ctx, "%s\n", buf_str(&b));
		ctx->clear_marks = 1;
		if (n == 1) {	/* a key advances past it, as after any */
			free(ctx->focus);
			ctx->focus = xstrdup(ids[0]);
		}
		goto out;
	}
	decide_warning(ctx->st, act, ids, n, warn, sizeof warn);
	/* one candidate is asked about only with a reason (keys 1-5 do
	 * the same); several always, with their count */
	if (ctx->ask != NULL && !ctx->confirmed && (n > 1 ||
	    warn[0] != '\0')) {
		if (n == 1)
			buf_printf(&b, "%s %s %s%s", verb, ids[0], arg, warn);
		else		/* the workbench's own targets are its marks */
			buf_printf(&b, "%s %zu %scandidates %s%s%s", verb, n,
			    cmd_has(a, CMD_KEY_WHERE, NULL) ? "" : "marked ",
			    arg, warn, same > 0 ? " (some already so)" : "");
		(void)ctx->ask(ctx, buf_str(&b));
		goto out;
	}
	if (warn[0] != '\0')
		cmd_diagf(ctx, "note: %s %s %s%s: done anyway", verb,
		    n == 1 ? ids[0] : "the candidates", arg, warn);
	if (n == 1) {
		struct decide_out o = { 0 };
		int r = ctx->decide != NULL ? ctx->decide(ctx, act, ids[0],
		    &o, err) : decide_one(ctx->st, act, ids[0], ctx->by, &o,
		    err);

		if (r < 0) {
			rc = 2;
			goto out;
		}
		if (r == 1) {	/* waits for the lock; said so */
			free(ctx->focus);
			ctx->focus = xstrdup(ids[0]);
			goto out;
		}
		buf_printf(&b, "%s ", ids[0]);
		did(act, &b);
		buf_printf(&b, " by %s%s", ctx->by, o.unchanged ?
		    " already: nothing changed" : act->kind == DECIDE_LABEL &&
		    o.run_id == 0 ? " (no run yet)" : "");
	} else {
		if (decide_bulk(ctx->st, act, ids, n, ctx->by, &failed,
		    &made, err) < 0) {
			if (failed < n) {
				char *why = xstrdup(err->msg);

				err_set(err, "%s: %s (nothing changed)",
				    ids[failed], why);
				free(why);
			}
			rc = 2;
			goto out;
		}
		if (made < n)
			buf_printf(&b, "%s %zu of %zu candidates: %s by %s, %zu"
			    " already so%s", verb, made, n, arg, ctx->by, n -
			    made, act->kind != DECIDE_NOTE && made > 0 ?
			    " (one undo takes them back)" : "");
		else
			buf_printf(&b, "%s %zu candidates: %s by %s%s", verb, n,
			    arg, ctx->by, act->kind != DECIDE_NOTE ? " (one undo"
			    " takes all back)" : "");
	}
	cmd_printf(ctx, "%s\n", buf_str(&b));
	ctx->changed = 1;
	ctx->clear_marks = act->kind != DECIDE_NOTE;
	if (n == 1) {
		free(ctx->focus);
		ctx->focus = xstrdup(ids[0]);
	}
out:
	buf_release(&b);
	strv_free(ids, n);
	return rc;
}
