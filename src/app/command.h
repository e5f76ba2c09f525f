/*
 * command.h - the command table, as tmux's cmd_entry: every command is
 * one entry (name, alias, argument spec, usage, help, flags, exec),
 * defined in its own file, and a front end holds a list of entries (a
 * struct cmd_table).  One parser reads every command's arguments from
 * its spec, so that an unknown option, a missing value or an extra
 * argument is the same usage error (exit status 2) for every command;
 * `assay help` and `assay help CMD` are written from the entries.
 *
 * The CLI's table is src/cli/cli.c (entries in src/cli/cmd_*.c).  A
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

/* Entry flags. */
#define CMD_CLI		0x1	/* runs as `assay NAME` */
#define CMD_WORKBENCH	0x2	/* runs from the workbench's `:` line */
#define CMD_TARGETS	0x4	/* acts on target candidates (ids, marks) */
#define CMD_CONFIRM	0x8	/* asks before it acts in the workbench */
#define CMD_TEXT	0x10	/* takes free text: no options, every word
				 * is an argument, ctx->line the text */

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
struct cmd_ctx {
	const struct cmd_entry	*entry;
	void			*front;
	const char		*line;
	void			(*out)(void *arg, const char *s, size_t n);
	void			(*diag)(void *arg, const char *s);
	void			*arg;
};

/* The entry named name (or whose alias is name) in t, or NULL. */
const struct cmd_entry *cmd_find(const struct cmd_table *t, const char *name);

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
 * text, each ending in a newline, appended to b.  prefix is "assay" for
 * the CLI.  With an alias, a line "alias: ALIAS" follows the usage.
 */
void	cmd_help_text(const struct cmd_entry *e, const char *prefix,
	    struct buf *b);

/* The usage lines of every entry of t with flag, one "PREFIX USAGE" a
 * line, in the table's order, appended to b. */
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
