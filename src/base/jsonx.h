/*
 * jsonx.h - the small jansson helpers every writer of JSON needs, once:
 * a C string or NULL as a JSON string or null, and stored JSON text as a
 * value or null.  Used by export, the dataset and the CLI's --json.
 */
#ifndef ASSAY_JSONX_H
#define ASSAY_JSONX_H

#include <jansson.h>

/*
 * s as a JSON string, or null when s is NULL.  Text that is not valid
 * UTF-8 (a log, a note, an origin from a file) gets U+FFFD for each bad
 * byte (textsafe.h, safe_utf8): jansson refuses such a string, and a
 * refused value would drop its whole object.  New reference.
 */
json_t	*jsonx_str_or_null(const char *s);

/* The JSON text txt as a value; null when txt is NULL or not JSON.  New
 * reference. */
json_t	*jsonx_parse_or_null(const char *txt);

#endif
