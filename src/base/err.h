/*
 * err.h - recoverable errors, the fatal path and the allocation wrappers.
 *
 * Recoverable failures (I/O, child processes, SQLite, libgit2, parse
 * errors) are returned as -1 with a message in a caller-provided
 * struct err; core code never prints and never exits.  Out of memory is
 * not recoverable: the x*alloc wrappers call fatal(), which runs the
 * hook registered by the UI (endwin) before exiting.
 */
#ifndef ASSAY_ERR_H
#define ASSAY_ERR_H

#include <stddef.h>

#define ERR_MSG_MAX 512

struct err {
	char	msg[ERR_MSG_MAX];
};

/*
 * Format a message into err (which may be NULL) and return -1, so that a
 * failing function can say "return err_set(err, "open %s: %s", ...)".
 * A message longer than ERR_MSG_MAX - 1 bytes is truncated.  Control
 * characters other than newline and tab (C0, DEL and the C1 range in
 * UTF-8) become '?', so a message quoting untrusted text is safe to
 * print on a terminal.
 */
int	err_set(struct err *err, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));

/* Empty err's message; NULL is allowed. */
void	err_clear(struct err *err);

/* Register the hook fatal() runs before it exits (e.g. endwin). */
void	fatal_set_hook(void (*hook)(void));

/* Print "assay: fatal: MSG" to stderr after running the hook; exit 70. */
void	fatal(const char *fmt, ...)
	    __attribute__((format(printf, 1, 2), noreturn));

/* An invariant broke: report file and line and abort. */
#define ASSAY_BUG(msg) fatal("BUG %s:%d: %s", __FILE__, __LINE__, (msg))

/* Allocation wrappers: never return NULL; fatal() on exhaustion. */
void	*xmalloc(size_t n);
void	*xcalloc(size_t nmemb, size_t size);
void	*xrealloc(void *p, size_t n);
void	*xreallocarray(void *p, size_t nmemb, size_t size);
char	*xstrdup(const char *s);		/* NULL gives NULL */
/* Free the n strings of v and v itself (a vector of new strings, as
 * xstrdup makes them); NULL-safe. */
void	strv_free(char **v, size_t n);
/*
 * Release each of the n items of the array v, size bytes each (for an
 * array of struct T: sizeof *v), with release(), which frees what the
 * item owns, not the item; then free v.  NULL-safe.
 */
void	array_free(void *v, size_t n, size_t size, void (*release)(void *));
char	*xstrndup(const char *s, size_t n);
/* New string, caller frees. */
char	*xasprintf(const char *fmt, ...)
	    __attribute__((format(printf, 1, 2)));

#endif
