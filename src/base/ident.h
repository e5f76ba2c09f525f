/*
 * ident.h - what an id, a task id, a domain, a task file name, a
 * reviewer name and a label (benchmark, env, origin) may contain.  These
 * values become paths in the dataset repository and the work directory,
 * arguments on toolchain command lines, commit trailers and text on the
 * user's terminal, so each is checked where it enters assay
 * (import, every command that takes one) and again where a path or a
 * trailer is built from it (dataset.c, envs.c).  docs/security.md and
 * docs/formats.md state the rules for users.
 *
 * Pure functions, no allocation; called by import.c, store.c, dataset.c,
 * envs.c, cli.c and main.c.
 */
#ifndef ASSAY_IDENT_H
#define ASSAY_IDENT_H

#include <stddef.h>

#include "base/err.h"

#define IDENT_MAX	64	/* bytes in a candidate id or a task id part */
#define IDENT_TASK_MAX	200	/* bytes in a whole task id */
#define IDENT_TASK_PARTS 8	/* '/'-separated parts of a task id */
#define IDENT_FILE_MAX	128	/* bytes in a task file name */
#define IDENT_NAME_MAX	100	/* bytes in a reviewer name */
#define IDENT_LABEL_MAX	200	/* bytes in a benchmark, env or origin name */

/* The five domains of design.md, in its order (borrowed, static). */
extern const char *const ident_domains[5];

/*
 * A candidate id: 1 to IDENT_MAX bytes of ASCII letters, digits, '_' and
 * '-', beginning with a letter or a digit, and not "task" in any case
 * (the dataset keeps <task-id>/task.json beside <id>.json).  No '.', so
 * that "<id>.<ext>" names one candidate.  Returns 0, or -1 with err
 * saying what is wrong (the value itself is not quoted: the caller adds
 * where it was found).
 */
int	ident_check_id(const char *s, struct err *err);

/*
 * A task id: 1 to IDENT_TASK_PARTS parts joined by '/', each a candidate
 * id's characters (1 to IDENT_MAX bytes, beginning with a letter, digit
 * or '_'), IDENT_TASK_MAX bytes in all, no part named "files" (the
 * dataset's folder of a task's files).  So no empty part, no "." or
 * "..", no leading '/', nothing hidden.  0 or -1 with err.
 */
int	ident_check_task_id(const char *s, struct err *err);

/*
 * s with every '/' part longer than IDENT_MAX bytes shortened to its
 * first IDENT_MAX - 9 bytes, '-' and the first 8 hex digits of the
 * part's SHA-256: the same long name always gives the same id, so an
 * importer that names a task after a long file (KernelBench's level 1
 * problem 79 is 86 bytes) and a row that refers to it by that name meet.
 * Nothing else is changed or checked.  A new string the caller frees;
 * NULL for NULL.
 */
char	*ident_fit_task_id(const char *s);

/* A domain: one of ident_domains exactly.  0 or -1 with err. */
int	ident_check_domain(const char *s, struct err *err);

/*
 * A task file name (written into the work directory, put on toolchain
 * command lines): 1 to IDENT_FILE_MAX bytes of ASCII letters, digits,
 * '_', '-', '+', ',' and '.', beginning with a letter, a digit or '_' (never
 * '-', so never an option; never '.', so never hidden, "." or "..").
 * 0 or -1 with err.
 */
int	ident_check_file_name(const char *s, struct err *err);

/*
 * A reviewer name (--reviewer, ASSAY_REVIEWER, git's user.name, the
 * login, "by" in imported decisions; it becomes a Reviewed-by: trailer):
 * 1 to IDENT_NAME_MAX bytes of valid UTF-8 without control characters
 * (C0, DEL, C1), line or paragraph separators, bidirectional controls,
 * '<' or '>', and without leading or trailing space.  0 or -1 with err.
 */
int	ident_check_reviewer(const char *s, struct err *err);

/*
 * A label: a benchmark, env or origin name (shown in lists, panes,
 * exports and stats, grouped by, filtered on).  The reviewer's rule
 * without the '<' '>' clause: 1 to IDENT_LABEL_MAX bytes of valid UTF-8
 * without control characters (C0, DEL, C1), line or paragraph
 * separators (U+2028, U+2029), bidirectional controls (U+061C, U+200E,
 * U+200F, U+202A-U+202E, U+2066-U+2069), and without leading or trailing
 * space.  what names the field in the message ("a benchmark name").
 * 0, or -1 with err (the value is not quoted: the caller adds where it
 * was found).
 */
int	ident_check_label(const char *s, const char *what, struct err *err);

/*
 * s (NULL allowed) made printable for a message: control bytes, '\\',
 * '\'' and invalid UTF-8 as \n, \t, \xNN; cut to about n - 1 bytes
 * with "..." when longer.  Writes into out (n bytes) and returns it.
 */
const char *ident_show(const char *s, char *out, size_t n);

#endif
