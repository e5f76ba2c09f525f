/*
 * commands.h - the commands both front ends run: `assay label ID ...`
 * on the command line is `:label ...` in the workbench (on the marked
 * candidates, else the one under the cursor) and a key bound to
 * "label compile".  Each is one entry (app/command.h) in its own file,
 * src/app/cmd_NAME.c, defining app_cmd_NAME; the one table (src/main.c)
 * takes every entry of APP_COMMANDS.  Adding a command to both front
 * ends is one file and one line here.
 *
 * They print only through their ctx and take the database, the
 * reviewer and the default targets from it; asking first is the front
 * end's (ctx->ask), warning is theirs when it cannot ask.
 */
#ifndef ASSAY_COMMANDS_H
#define ASSAY_COMMANDS_H

#include "app/action.h"
#include "app/command.h"
#include "decide/decide.h"

#define APP_COMMANDS(X) \
	X(label) \
	X(review) \
	X(note) \
	X(undo) \
	X(redo)

/* The config file's commands, which the `:` line runs too (cmd_set.c;
 * generator in the config file only). */
#define APP_SETTINGS(X) \
	X(set) \
	X(theme) \
	X(mouse) \
	X(advance) \
	X(bind) \
	X(unbind) \
	X(generator)

#define APP_DECLARE(name)	extern const struct cmd_entry app_cmd_##name;
APP_COMMANDS(APP_DECLARE)
APP_SETTINGS(APP_DECLARE)
#undef APP_DECLARE

/*
 * Every key action of action.h as a command (cmd_action.c): entry
 * ACTION_X - 1 is action ACTION_X, named as the action, with its help;
 * flagged CMD_KEY, and CMD_WORKBENCH but for the sheets' and the
 * prompt's own actions.  Its exec calls ctx->action.  The one table
 * lists them as &app_action_cmds[ACTION_X - 1] (APP_ACTION_ENTRY).
 */
extern const struct cmd_entry app_action_cmds[];
#define APP_ACTION_ENTRY(id, name, help)	&app_action_cmds[ACTION_##id - 1],

/* The action whose entry e is, or ACTION_NONE (0) for any other entry;
 * the entry of action (NULL for ACTION_NONE or a bad value). */
int	app_action_of(const struct cmd_entry *e);
const struct cmd_entry *app_action_cmd(int action);

/*
 * Make act (its strings borrowed; what the person typed as arg, for the
 * messages) on the command's targets (cmd_targets: --where, else the
 * front end's), the way both front ends do it: where the front end can
 * ask (ctx->ask) and has not yet, it asks first, stating the count and
 * decide_warning()'s words (one candidate without a warning is decided
 * at once);
 * where it cannot, a warning goes to diag and the decision is made.
 * One candidate is one decision, several one journal batch (one undo
 * takes a batch of labels or reviews back; notes are never undone).  Prints "ID labelled compile by ann" or "label 3
 * candidates: compile by ann (one undo takes all back)".  Sets
 * ctx->changed (and clear_marks unless a note).  What would change
 * nothing on any target (decide_unchanged()) is not asked about: it
 * prints "... already: nothing changed" and sets clear_marks only.  Returns the exit
 * status: 0 done or asked, 2 with err set (nothing changed).
 */
int	cmd_decide(struct cmd_ctx *ctx, struct cmd_args *a,
	    const struct decide_act *act, const char *arg, struct err *err);

#endif
