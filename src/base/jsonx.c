/*
 * jsonx.c - JSON helpers shared by every writer of JSON; see jsonx.h.
 */
#include "base/jsonx.h"

#include <string.h>

#include "base/buf.h"
#include "base/textsafe.h"

json_t *
jsonx_str_or_null(const char *s)
{
	struct buf b = BUF_INIT;
	json_t *v;

	if (s == NULL)
		return json_null();
	v = json_string(s);
	if (v != NULL)
		return v;
	safe_utf8(&b, s, strlen(s));
	v = json_stringn(b.p != NULL ? b.p : "", b.len);
	buf_release(&b);
	return v;
}

json_t *
jsonx_parse_or_null(const char *txt)
{
	json_t *v = txt != NULL ? json_loads(txt, 0, NULL) : NULL;

	return v != NULL ? v : json_null();
}
