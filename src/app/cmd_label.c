/*
 * cmd_label.c - label: one of the five failure categories on the
 * targets, `assay label ID CATEGORY` and `:label CATEGORY` (commands.h).
 */
#include "app/commands.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/vocab.h"

static const struct cmd_opt label_opts[] = {
	{ "sub", 0, CMD_VALUE, 's' },
	{ "note", 0, CMD_VALUE, 'n' },
	{ "where", 0, CMD_VALUE, CMD_KEY_WHERE },
	{ "final", 0, CMD_FLAG, 'f' },
	{ NULL, 0, CMD_FLAG, 0 }
};

static int
exec_label(struct cmd_ctx *ctx, struct cmd_args *a, struct err *err)
{
	struct decide_act act = { .kind = DECIDE_LABEL };
	const char *val = NULL;
	char names[80], *sub, *arg;
	int ch, rc;

	if (cmd_once(a, err) < 0)
		return 2;
	act.category = a->pos[0];
	if (category_from_name(act.category) == CATEGORY_NONE)
		return err_set(err, "unknown category '%.64s' (%s)%s",
		    act.category, category_list(names, sizeof names, " "),
		    cmd_has(a, CMD_KEY_WHERE, NULL) && ctx->line == NULL ?
		    "; with --where no ID comes first" : ""), 2;
	/* a filter's term among the SUB words is --where's, typed without
	 * its quotes: ":label compile --where task~fsm benchmark=rtlfixer"
	 * labelled 48 candidates compile/benchmark=rtlfixer */
	for (int i = 1; i < a->npos; i++)
		if (store_filter_is_term(a->pos[i]))
			return err_set(err, "'%.64s' is a filter's term, not a"
			    " subcategory: quote a filter of several terms"
			    " (--where \"A B\"), or give the subcategory with"
			    " --sub", a->pos[i]), 2;
	sub = cmd_join(a, 1);
	act.sub = *sub != '\0' ? sub : NULL;
	while ((ch = cmd_next(a, &val)) != -1) {
		if (ch == 's' && act.sub != sub)
			act.sub = val != NULL && *val != '\0' ? val : NULL;
		else if (ch == 's') {
			free(sub);
			return err_set(err, "a subcategory twice: SUB words and"
			    " --sub"), 2;
		} else if (ch == 'n')
			act.note = val != NULL && *val != '\0' ? val : NULL;
	}
	act.final = cmd_has(a, 'f', NULL);
	if (act.final && (act.sub != NULL || act.note != NULL)) {
		free(sub);
		return err_set(err, "a final label is no vote: it takes no"
		    " subcategory and no note"), 2;
	}
	arg = xasprintf("%s%s%s", act.category, act.sub != NULL ? "/" : "",
	    act.sub != NULL ? act.sub : "");
	rc = cmd_decide(ctx, a, &act, arg, err);
	free(arg);
	free(sub);
	return rc;
}

const struct cmd_entry app_cmd_label = {
	"label", NULL, label_opts, 1, CMD_MANY,
	"label CATEGORY [SUB...] [--sub TEXT] [--note TEXT] [--where FILTER]",
	  "Label with one of the five failure categories: compile api\n"
	  "functional format performance, and a subcategory (SUB or --sub).\n"
	  "The targets: ID (or a unique prefix), in the workbench the marked\n"
	  "candidates or the one under the cursor; --where FILTER instead:\n"
	  "every candidate FILTER matches, as one batch that one undo takes\n"
	  "back.  A failure label on a candidate that passes is asked about\n"
	  "in the workbench and noted on stderr on the command line.\n"
	  "With --final (and no SUB, --sub or --note): the final word on a\n"
	  "disagreement, no vote; the keys 1-5 give it in a disagree=yes queue.",
	CMD_CLI | CMD_WORKBENCH | CMD_KEY | CMD_TARGETS | CMD_CONFIRM |
	    CMD_STORE,
	exec_label
};
