/*
 * textsafe.c - untrusted text made safe for a terminal or for JSON; see
 * textsafe.h.  It knows nothing about where the text came from or goes:
 * callers (cli.c show and list, ident.c) choose the flags.
 */
#include "base/textsafe.h"

size_t
safe_utf8_len(const char *s, size_t len, unsigned *cp)
{
	const unsigned char *u = (const unsigned char *)s;
	unsigned c, min;
	size_t n;

	if (len == 0)
		return 0;
	c = u[0];
	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xc2 && c <= 0xdf) {
		n = 2;
		c &= 0x1f;
		min = 0x80;
	} else if (c >= 0xe0 && c <= 0xef) {
		n = 3;
		c &= 0x0f;
		min = 0x800;
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4;
		c &= 0x07;
		min = 0x10000;
	} else {
		return 0;
	}
	if (len < n)
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((u[i] & 0xc0) != 0x80)
			return 0;
		c = (c << 6) | (u[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return n;
}

int
safe_cp_unsafe(unsigned cp)
{
	return (cp >= 0x80 && cp <= 0x9f) || cp == 0x2028 || cp == 0x2029 ||
	    cp == 0x200e || cp == 0x200f || (cp >= 0x202a && cp <= 0x202e) ||
	    (cp >= 0x2066 && cp <= 0x2069);
}

size_t
safe_text(struct buf *b, const char *s, size_t len, unsigned flags)
{
	size_t i = 0, changed = 0, run = 0;

	while (i < len) {
		unsigned char ch = (unsigned char)s[i];
		unsigned cp = 0;
		size_t n;

		if (ch >= 0x20 && ch < 0x7f && !((flags & SAFE_QUOTE) &&
		    (ch == '\\' || ch == '\''))) {
			i++;
			run++;
			continue;
		}
		buf_add(b, s + i - run, run);
		run = 0;
		if ((flags & SAFE_KEEP_LINES) && (ch == '\n' || ch == '\t')) {
			buf_addc(b, (char)ch);
			i++;
			continue;
		}
		if ((flags & SAFE_KEEP_LINES) && ch == '\r' && i + 1 < len &&
		    s[i + 1] == '\n') {
			i++;		/* CR LF reads as LF */
			continue;
		}
		if (ch == '\\' || ch == '\'') {
			buf_printf(b, "\\%c", ch);
			changed++;
			i++;
			continue;
		}
		if (ch < 0x80) {
			if (ch == '\n')
				buf_adds(b, "\\n");
			else if (ch == '\t')
				buf_adds(b, "\\t");
			else if (ch == '\r')
				buf_adds(b, "\\r");
			else
				buf_printf(b, "\\x%02x", ch);
			changed++;
			i++;
			continue;
		}
		n = safe_utf8_len(s + i, len - i, &cp);
		if (n == 0) {
			buf_printf(b, "\\x%02x", ch);
			changed++;
			i++;
		} else if (safe_cp_unsafe(cp)) {
			buf_printf(b, "\\u%04x", cp);
			changed++;
			i += n;
		} else {
			buf_add(b, s + i, n);
			i += n;
		}
	}
	buf_add(b, s + i - run, run);
	return changed;
}

size_t
safe_utf8(struct buf *b, const char *s, size_t len)
{
	size_t i = 0, changed = 0;

	while (i < len) {
		unsigned cp;
		size_t n = s[i] == '\0' ? 0 : safe_utf8_len(s + i, len - i, &cp);

		if (n == 0) {
			buf_adds(b, "\xef\xbf\xbd");
			changed++;
			i++;
		} else {
			buf_add(b, s + i, n);
			i += n;
		}
	}
	return changed;
}
