/*
 * history.h - the workbench's command-line history: the lines run at
 * the `:` and `/` prompts, oldest first, kept in memory and in a file so
 * that they survive a restart (the file is $XDG_STATE_HOME/assay/history,
 * config_state_path()).
 *
 * The file holds one line per entry, appended as entries are added; a
 * line run again moves to the end, and loading keeps the newest max
 * distinct lines (rewriting the file when it has grown past twice that).
 * The caller puts the prompt's character first (":filter verdict=fail",
 * "/c0ce"), so that one file serves both prompts and a prefix search
 * finds the lines of one prompt.
 *
 * Called by src/ui (the prompt) and tests.  Knows no curses.
 */
#ifndef ASSAY_HISTORY_H
#define ASSAY_HISTORY_H

#include <stddef.h>

#include "base/err.h"

struct history {
	char	**lines;	/* owned, n of them, oldest first */
	size_t	  n;
	size_t	  max;		/* entries kept */
	char	 *path;		/* owned; NULL: memory only */
};

/*
 * Empty history of at most max entries kept in the file at path (copied;
 * NULL keeps it in memory only).  Reads nothing: see history_load.
 */
void	history_init(struct history *h, const char *path, size_t max);
/* Free the entries; h is left empty (no path).  NULL-safe. */
void	history_release(struct history *h);

/*
 * Read the file.  Returns 0, 1 when there is none yet, or -1 with err
 * (h keeps what it had).
 */
int	history_load(struct history *h, struct err *err);

/*
 * Add line (a newline ends it; an empty line is ignored) as the newest
 * entry, dropping an equal older one and the oldest past max, and append
 * it to the file, creating its directory.  The entry is in memory even
 * when the file cannot be written: -1 with err then, else 0.
 */
int	history_add(struct history *h, const char *line, struct err *err);

/*
 * Search for an entry that starts with prefix: the newest one older
 * than index from (dir < 0, from = h->n for the newest of all), or the
 * oldest one newer than from (dir > 0).  Returns its index, or -1 when
 * there is none.
 */
long	history_find(const struct history *h, long from, int dir,
	    const char *prefix);

#endif
