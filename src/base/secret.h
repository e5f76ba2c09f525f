/*
 * secret.h - the configured secrets assay must never store or print:
 * today the generator's API key (generate/model.h), read from the
 * variable the configuration names.  An endpoint that echoes the
 * Authorization header would put the key into an answer, an error
 * message, a candidate's code and from there into run logs; every such
 * text goes through secret_redact() before it is kept or shown
 * (docs/security.md, "Secrets").
 *
 * A process-wide list, guarded by a mutex: secret_add() may be called
 * from any thread, before or while others redact.  Values shorter than
 * SECRET_MIN bytes are not taken (they would redact ordinary words).
 * Never prints.
 */
#ifndef ASSAY_SECRET_H
#define ASSAY_SECRET_H

#include <stddef.h>

#define SECRET_MIN	8		/* shortest value taken, bytes */
#define SECRET_MAX	16		/* values kept; later ones are refused */
#define SECRET_MARK	"[redacted]"	/* what a secret becomes */

/*
 * Remember value (copied) as a secret.  0 when it is kept (or was
 * already), -1 when it is NULL, shorter than SECRET_MIN, or the list
 * is full.
 */
int	secret_add(const char *value);

/* Forget every secret (tests). */
void	secret_clear(void);

/*
 * s (len bytes, NULs allowed) with every occurrence of every secret
 * replaced by SECRET_MARK: a new string of *outlen bytes (outlen may be
 * NULL) and a NUL (caller frees), or NULL when s holds none (nothing to
 * do).  *count (may be NULL) gets how many were replaced.
 *
 * A copy hidden by an escape counts too: when s, decoded, holds a
 * secret, the escape sequences that spell it are what is replaced.  The
 * decoder knows backslash escapes as C, Python, JSON, JavaScript, Rust
 * and Perl write them (\uXXXX with surrogate pairs, \u{H..},
 * \UXXXXXXXX, \xHH, \x{H..}, \o{O..}, octal of 1 to 3 digits, \N{NAME}
 * for printable ASCII, the one-letter escapes, any other character for
 * itself) and as CSS does (1 to 6 hex digits and an optional space),
 * each reading tried apart where they disagree; percent-encoding (%HH,
 * %uXXXX) and HTML numeric references (any leading zeros, ';' optional)
 * with &amp; &lt; &gt; &quot; &apos;; mixed, and up to 4 layers deep (an
 * escape of an escape).  A text that still spells one after 8 passes is
 * replaced whole; the work is linear in len (2 readings, 4 layers, 8
 * passes at most).  Other encodings (base64, a key cut in pieces) are not
 * caught: docs/security.md, "Secrets".
 */
char	*secret_redact(const char *s, size_t len, size_t *outlen,
	    size_t *count);

/*
 * secret_redact() in place for a NUL-terminated string in a buffer of
 * size n (an err message): cut to fit.  Returns how many were replaced.
 */
size_t	secret_redact_in(char *s, size_t n);

#endif
