/*
 * textsafe.h - untrusted text made safe to print or to put in JSON.
 *
 * Candidate code, toolchain logs, origins and notes come from model
 * output and from imported files.  Printed raw, their escape sequences
 * would drive the user's terminal (window title, OSC 52 clipboard,
 * hidden text, cursor moves); a NUL would cut C strings; invalid UTF-8
 * would make jansson drop the string.  These functions turn such bytes
 * into visible escapes (\x1b, \u009b) or U+FFFD and say how many they
 * changed.  Pure, allocation only through struct buf; called by cli.c
 * (show, list) and ident.c (messages).
 */
#ifndef ASSAY_TEXTSAFE_H
#define ASSAY_TEXTSAFE_H

#include <stddef.h>

#include "base/buf.h"

#define SAFE_KEEP_LINES	0x1	/* keep '\n' and '\t' (and "\r\n" as "\n") */
#define SAFE_QUOTE	0x2	/* also escape '\\' as "\\\\" and '\'' */

/*
 * Append s (len bytes, NULs allowed) to b for a terminal: C0 controls,
 * ESC and DEL as \xNN ("\x1b"), C1 controls, line/paragraph separators
 * and bidirectional controls as \uNNNN ("\u009b", "\u202e"), each byte
 * of invalid UTF-8 as \xNN; everything else as it is.  Returns how many
 * characters were escaped (0: b got s unchanged).
 */
size_t	safe_text(struct buf *b, const char *s, size_t len, unsigned flags);

/*
 * Append s (len bytes) to b as valid UTF-8 for JSON: each invalid byte,
 * and each NUL, becomes U+FFFD.  Returns how many bytes were replaced.
 */
size_t	safe_utf8(struct buf *b, const char *s, size_t len);

/*
 * Length of the valid UTF-8 sequence at s (at most len bytes): 1 to 4,
 * or 0 when the bytes there are not valid UTF-8 (overlong forms,
 * surrogates and code points above U+10FFFF are invalid).  *cp gets the
 * code point.
 */
size_t	safe_utf8_len(const char *s, size_t len, unsigned *cp);

/*
 * 1 when code point cp would change what a terminal shows or how text
 * reads: C1 controls (U+0080..U+009F), line and paragraph separators,
 * bidirectional marks and overrides; else 0.
 */
int	safe_cp_unsafe(unsigned cp);

#endif
