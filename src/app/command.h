/*
 * command.h - the command table, as tmux's cmd_entry: every command is
 * one entry (name, alias, argument spec, usage, help, flags, exec),
 * defined in its own file, and a front end holds a list of entries (a
 * struct cmd_table).  One parser reads every command's arguments from
 * its spec, so that an unknown option, a missing value or an extra
 * argument is the same usage error (exit status 2) for every command;
 * `assay help` and `assay help CMD` are written from the entries.
 *
 * There is one table (src/main.c, ADR 0047): the headless commands
 * (src/cli/cmd_*.c), the workbench's own (src/ui/ui.c), the ones both
 * run and the config file's (src/app/cmd_*.c) and every key action
 * (src/app/cmd_action.c), each entry flagged with where it runs.  A
 * command defined in src/app/ prints only through its ctx (cmd_printf),
 * never to stdout, and knows no curses, so that the workbench's `:`
 * line can run the same entry.  Knows no front end: what one needs
 * (the CLI's global options, the workbench) travels in ctx->front.
 */
#ifndef ASSAY_COMMAND_H
#define ASSAY_COMMAND_H

#include <stddef.h>

#include "base/buf.h"
#include "base/err.h"

/* What an option takes. */
enum cmd_value {
	CMD_FLAG,		/* nothing: --json */
	CMD_VALUE,		/* a value: --where F, --where=F, -o F, -oF */
	CMD_OPTIONAL		/* a value only as --name=value: --keep-workdir[=all] */
};

/*
 * One option of a command: its long name (without "--"), its short
 * letter (0: none), what it takes, and the key the command switches on
 * (cmd_next returns it; by custom the short letter, else a number of
 * 1000 and up).  A repeated option is given to the command each time.
 */
struct cmd_opt {
	const char	*name;
	char		 letter;
	enum cmd_value	 value;
	int		 key;
};

/*
 * Entry flags.  The first four say where a command may run (one table
 * serves them all, and cmd_lookup() refuses a command where its entry
 * does not say it runs, naming where it does):
 */
#define CMD_CLI		0x1	/* runs as `assay NAME` */
#define CMD_WORKBENCH	0x2	/* runs from the workbench's `:` line */
#define CMD_KEY		0x40	/* runs from a key: bound by `bind KEY
				 * NAME ...`, or a key action (action.h) */
#define CMD_CONFIG	0x80	/* is a line of the config file */
#define CMD_WHERE	(CMD_CLI | CMD_WORKBENCH | CMD_KEY | CMD_CONFIG)
#define CMD_TARGETS	0x4	/* acts on target candidates (ids, marks) */
#define CMD_CONFIRM	0x8	/* asks before it acts in the workbench */
#define CMD_TEXT	0x10	/* takes free text: no options, every word
				 * is an argument, ctx->line the text */
#define CMD_STORE	0x20	/* runs on the front end's open database
				 * and reviewer: ctx->st and ctx->by */

/*
 * A command with CMD_CLI, CMD_WORKBENCH and CMD_TARGETS is shared by both
 * front ends (src/app/commands.h lists them) and takes its targets from
 * the front end: on the command line, an ID before its arguments (a
 * unique prefix; cmd_parse_front() takes it out of the positional
 * arguments), in the workbench the marked candidates, else the one under
 * the cursor; in both, --where FILTER (the option whose key is
 * CMD_KEY_WHERE) in their place: every candidate the filter matches.
 */
#define CMD_SHARED_TARGETS(e) \
	(((e)->flags & (CMD_CLI | CMD_WORKBENCH | CMD_TARGETS)) == \
	    (CMD_CLI | CMD_WORKBENCH | CMD_TARGETS))
#define CMD_KEY_WHERE	2000

/* Positional arguments without an upper bound. */
#define CMD_MANY	(-1)

struct cmd_args;
struct cmd_ctx;

/*
 * One command.  opts ends with an entry whose name is NULL (NULL: no
 * options); min and max bound the positional arguments (max CMD_MANY:
 * no bound).  usage is the synopsis after "assay " (may span lines),
 * help the text under it.  exec runs the command on parsed arguments
 * and returns its exit status (0 done; 1 a check found something; 2 bad
 * usage or input; 3 runs not stored), with err set where the command
 * leaves the message to its caller (it may also print its own).
 */
struct cmd_entry {
	const char		*name;
	const char		*alias;		/* NULL: none */
	const struct cmd_opt	*opts;
	int			 min, max;
	const char		*usage;
	const char		*help;
	unsigned		 flags;		/* CMD_* */
	int			(*exec)(struct cmd_ctx *ctx,
				    struct cmd_args *args,
				    struct err *err);
};

/* A front end's commands: n entries (or until a NULL entry). */
struct cmd_table {
	const struct cmd_entry *const	*v;
	size_t				 n;
};

/*
 * Arguments as parsed from the spec.  argv[0] is the command name as
 * given; the options in the order given; pos the positional arguments
 * (what follows "--" included).  The strings point into the vector
 * given to cmd_parse, which must outlive the args.
 */
struct cmd_given {
	const struct cmd_opt	*opt;
	const char		*value;		/* NULL for a flag or a bare
						 * CMD_OPTIONAL */
};
struct cmd_args {
	const struct cmd_entry	*entry;
	int			 argc;		/* the whole vector */
	char			**argv;
	struct cmd_given	*given;
	size_t			 ngiven;
	char			**pos;
	int			 npos;
	const char		*target;	/* cmd_parse_front(CMD_CLI) of a
						 * shared command: its ID,
						 * or NULL with --where */
	int			 help;		/* --help or -h was given */
	size_t			 next;		/* cmd_next's place */
};

/*
 * Where a command runs: the entry, the front end's own state (the CLI
 * passes its struct cli_global, the workbench its struct wb), the text
 * after the command's name as typed on the workbench's `:` line (free
 * text keeps its blanks and quotes there; NULL from the CLI), and where
 * its output goes: out(arg, text, len) for what the CLI prints on
 * stdout, diag(arg, text) for its messages (stderr, or the workbench's
 * status line).  NULL out or diag print to stdout and stderr.
 */
struct store;
struct config;
struct keymap;
struct decide_act;
struct decide_out;
struct cmd_ctx {
	const struct cmd_entry	*entry;
	unsigned		 where;		/* where it runs from: CMD_CLI,
						 * CMD_WORKBENCH, CMD_KEY or
						 * CMD_CONFIG (0: not said) */
	void			*front;
	const char		*line;
	void			(*out)(void *arg, const char *s, size_t n);
	void			(*diag)(void *arg, const char *s);
	void			*arg;

	/*
	 * For a CMD_STORE entry, set by the front end: the open database
	 * and the reviewer (borrowed); the default targets of a
	 * CMD_TARGETS entry, full candidate ids (borrowed; the CLI's ID,
	 * the workbench's marks or cursor; none: nids 0); whether the
	 * person already said yes to this very line (confirmed 1), and
	 * ask, how the front end asks (NULL: it cannot, as the CLI: the
	 * command warns on diag and goes on).  ask shows question (no
	 * "? y/n") and keeps the line to run again with confirmed 1 on a
	 * yes; it returns 0.
	 */
	struct store		*st;
	const char		*by;
	char *const		*ids;
	size_t			 nids;
	int			 confirmed;
	int			(*ask)(struct cmd_ctx *ctx, const char *question);

	/*
	 * Set by exec for the front end to follow: changed, decisions
	 * moved (the workbench refreshes its view); clear_marks, the
	 * marks were acted on (a decision made, or one that stood already:
	 * the workbench clears them); focus, a new string naming the candidate to
	 * show (the front end frees it).
	 */
	int			 changed, clear_marks;
	char			*focus;

	/*
	 * For a CMD_CONFIG entry (the settings and the bindings): what it
	 * changes, set by the front end (borrowed; NULL: it cannot run
	 * here).  setting is set by exec to the name of the setting it
	 * changed ("theme", "mouse"), for the front end to apply (a
	 * theme is loaded, the mouse switched, by the workbench).
	 */
	struct config		*cfg;
	struct keymap		*km;
	const char		*setting;

	/*
	 * How the front end runs a key action (action.h): a key action's
	 * entry (app_action_cmds) calls it with its action.  NULL where
	 * there are no keys (the command line): the entry refuses.
	 */
	void			(*action)(struct cmd_ctx *ctx, int action);

	/*
	 * How the front end makes one decision of a CMD_STORE entry on
	 * one target (NULL: decide_one() on st as by): the workbench's
	 * keeps it waiting while another process holds the database's
	 * lock.  0 made (out filled), 1 waiting (it said so itself), -1
	 * with err.
	 */
	int			(*decide)(struct cmd_ctx *ctx,
				    const struct decide_act *act,
				    const char *id, struct decide_out *out,
				    struct err *err);
};

/* The entry named name (or whose alias is name) in t, or NULL. */
const struct cmd_entry *cmd_find(const struct cmd_table *t, const char *name);

/*
 * The entry named name (or whose alias is name) in t that may run where
 * (one of CMD_CLI, CMD_WORKBENCH, CMD_KEY, CMD_CONFIG), or NULL with err
 * saying why: no such command ("unknown command 'frob'"), or one that
 * runs elsewhere ("export runs only on the command line (assay
 * export)", "zoom runs only on the : line (:zoom) and from a key").  A
 * name may stand twice in t for two places (`assay verify`, `:verify`):
 * the first that runs there is found.
 */
const struct cmd_entry *cmd_lookup(const struct cmd_table *t,
	    const char *name, unsigned where, struct err *err);

/* Where e's flags say it runs, in words appended to b: "on the command
 * line (assay NAME), on the : line (:NAME), from a key and in the config
 * file"; "nowhere" for none. */
void	cmd_where_text(const struct cmd_entry *e, struct buf *b);

/*
 * Parse argv (argc >= 1, argv[0] the command's name) by e's spec into
 * *a: long options as --name, --name=value or --name value; short ones
 * as -x, -x value, -xvalue, several flags as one -xyz; "--" ends the
 * options, and "-" is a positional argument.  Options and positional
 * arguments may be mixed.  An entry with CMD_TEXT takes every word as
 * an argument.  --help and -h set a->help (and nothing else
 * is checked).  Returns 0, or -1 with err saying why: an unknown option,
 * a value missing or given to a flag, too few or too many positional
 * arguments.  Release a with cmd_args_release either way.
 */
int	cmd_parse(const struct cmd_entry *e, int argc, char **argv,
	    struct cmd_args *a, struct err *err);

/*
 * cmd_parse() as the front end front (CMD_CLI or CMD_WORKBENCH) reads
 * it: on the command line a shared command (CMD_SHARED_TARGETS) takes
 * its ID as the first positional argument, unless --where is given,
 * into a->target, and min and max count the arguments after it.  From
 * the workbench (words of a `:` line, cmd_words), a word wholly in
 * double quotes loses them, "" inside standing for one quote, unless the
 * entry takes free text (CMD_TEXT): argv's strings are changed in place.
 */
int	cmd_parse_front(const struct cmd_entry *e, unsigned front, int argc,
	    char **argv, struct cmd_args *a, struct err *err);

/*
 * The targets of a shared command: with --where FILTER, the ids of every
 * candidate FILTER matches on ctx->st (in import order), else a copy of
 * ctx->ids.  *ids is a new vector of *n new strings (strv_free).  0,
 * or -1 with err (a bad filter, or none to act on: "no candidate
 * selected", "FILTER matches no candidate").
 */
int	cmd_targets(struct cmd_ctx *ctx, struct cmd_args *a, char ***ids,
	    size_t *n, struct err *err);

/*
 * The positional arguments from index from, joined by blanks, as a new
 * string ("" when none).  (Words of a `:` line have lost the double
 * quotes that wrapped them in cmd_parse_front.)
 */
char	*cmd_join(const struct cmd_args *a, int from);

/* Refuse an option given twice ("--sub given twice"), for a command
 * where the last would silently win.  0 or -1 with err. */
int	cmd_once(const struct cmd_args *a, struct err *err);
void	cmd_args_release(struct cmd_args *a);

/*
 * The next option given, in order: returns its key and sets *value
 * (NULL for a flag), or -1 when there are no more.  The getopt loop of
 * a command becomes `while ((ch = cmd_next(a, &v)) != -1)`.
 */
int	cmd_next(struct cmd_args *a, const char **value);

/* Was the option of this key given?  The last value given (NULL when
 * none or a flag) into *value when value is not NULL. */
int	cmd_has(const struct cmd_args *a, int key, const char **value);

/*
 * The help of e: "usage: PREFIX USAGE", a blank line and the help
 * text, each ending in a newline, appended to b, as front end front
 * (CMD_CLI or CMD_WORKBENCH) shows it (cmd_usage_line).  prefix is
 * "assay" for the CLI.  With an alias, a line "alias: ALIAS" follows the
 * usage.
 */
void	cmd_help_text(const struct cmd_entry *e, unsigned front,
	    const char *prefix, struct buf *b);

/* e's usage as front end front shows it, appended to b: on the command
 * line (CMD_CLI) a shared command (CMD_SHARED_TARGETS) has "ID" after
 * its name. */
void	cmd_usage_line(const struct cmd_entry *e, unsigned front,
	    struct buf *b);

/* The usage lines of every entry of t with flag, one "PREFIX USAGE" a
 * line, in the table's order, as front end flag shows them, appended to
 * b. */
void	cmd_usage_all(const struct cmd_table *t, unsigned flag,
	    const char *prefix, struct buf *b);

/*
 * Split line (a `:` command line, the config file's) at blanks into a
 * new NULL-terminated vector of new strings, *argc words; "..." quotes a
 * word with blanks (the quotes are kept, as the filter language wants
 * them).  Free with cmd_words_free.
 */
char	**cmd_words(const char *line, int *argc);
void	cmd_words_free(char **argv);

/* Print through the ctx: text to its out, a message line to its diag. */
void	cmd_printf(struct cmd_ctx *ctx, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
void	cmd_diagf(struct cmd_ctx *ctx, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));

#endif
