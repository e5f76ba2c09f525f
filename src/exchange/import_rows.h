/*
 * import_rows.h - the rows of a JSONL input, parsed ahead of the store
 * on a thread of their own (docs/adr/0031).
 *
 * Parsing a row with jansson is most of what a plain importer does, and
 * it needs nothing of the database: one thread splits the lines and
 * parses them, in order, into chunks of a bounded ring, while the
 * caller's thread writes the rows it takes into SQLite.  On two cores
 * an import then takes about the longer of the two, not their sum.
 * The caller sees the rows one by one, in file order, each with its
 * line number, exactly as a loop over the lines would give them: blank
 * lines are passed over, a line that is not JSON or not an object comes
 * as an error of its own, and nothing else of the file is lost or
 * reordered.  If no thread can be started the rows are parsed on the
 * caller's thread as it asks for them.
 *
 * Internal to src/exchange (import_each_jsonl() uses it).
 */
#ifndef ASSAY_IMPORT_ROWS_H
#define ASSAY_IMPORT_ROWS_H

#include <stddef.h>

#include "exchange/import.h"

/* One row as the caller takes it. */
struct import_row {
	size_t		 line;	/* its line number, from 1 */
	size_t		 done;	/* bytes of the input up to its line's end */
	struct json_t	*row;	/* the parsed object, or NULL when error
				 * is set */
	const char	*error;	/* "path:line: why" (invalid JSON, invalid
				 * UTF-8, not an object), or NULL */
	void		*prep;	/* what the prep function made of row,
				 * or NULL */
};

/* import_prep_fn and import_prep_free_fn (import.h) run on the parsing
 * thread: they must use no globals but thread-local ones. */

struct import_rows;

/*
 * Start reading the len bytes at data (the input named path, which
 * must stay mapped until import_rows_close()), NaN read as null when
 * nan_ok (the RTLFixer rows pandas wrote), each row given to prep
 * (may be NULL) once parsed.  Never fails: without a thread the rows
 * are parsed on demand.  path is borrowed.
 */
struct import_rows *import_rows_open(const char *path, const char *data,
	    size_t len, int nan_ok, import_prep_fn prep,
	    import_prep_free_fn prep_free);

/*
 * The next row into *out: 1, or 0 at the end of the input.  Its row,
 * error and prep are borrowed: they stay valid until the next call or
 * import_rows_close(), and are freed by the parsing thread (take a
 * json_incref() to keep a part longer).
 */
int	import_rows_next(struct import_rows *r, struct import_row *out);

/* Stop the parsing thread (at once, even mid-file), free the rows, and
 * r.  NULL is a no-op. */
void	import_rows_close(struct import_rows *r);

#endif
