/* secret.c - configured secrets, redacted wherever text is kept; see
 * secret.h. */
#define _GNU_SOURCE		/* memmem */
#include "base/secret.h"

#include <ctype.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/buf.h"
#include "base/err.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static char *secrets[SECRET_MAX];
static size_t nsecrets;

int
secret_add(const char *value)
{
	int rc = -1;

	if (value == NULL || strlen(value) < SECRET_MIN)
		return -1;
	pthread_mutex_lock(&lock);
	for (size_t i = 0; i < nsecrets; i++)
		if (strcmp(secrets[i], value) == 0) {
			rc = 0;
			goto out;
		}
	if (nsecrets < SECRET_MAX) {
		secrets[nsecrets++] = xstrdup(value);
		rc = 0;
	}
out:
	pthread_mutex_unlock(&lock);
	return rc;
}

void
secret_clear(void)
{
	pthread_mutex_lock(&lock);
	for (size_t i = 0; i < nsecrets; i++) {
		/* A secret leaves no copy behind in freed memory. */
		memset(secrets[i], 0, strlen(secrets[i]));
		free(secrets[i]);
	}
	nsecrets = 0;
	pthread_mutex_unlock(&lock);
}

/* The secret that starts at p (n bytes left), longest first; its
 * length, or 0. */
static size_t
match_at(const char *p, size_t n)
{
	size_t best = 0;

	for (size_t i = 0; i < nsecrets; i++) {
		size_t l = strlen(secrets[i]);

		if (l <= n && l > best && memcmp(p, secrets[i], l) == 0)
			best = l;
	}
	return best;
}

/* Every secret in s replaced by SECRET_MARK (lock held): a new string,
 * or NULL when s holds none; *count gets how many. */
static char *
redact_bytes(const char *s, size_t len, size_t *outlen, size_t *count)
{
	struct buf b = BUF_INIT;
	size_t n = 0, from = 0;

	for (size_t i = 0; i < len; ) {
		size_t l = match_at(s + i, len - i);

		if (l == 0) {
			i++;
			continue;
		}
		buf_add(&b, s + from, i - from);
		buf_adds(&b, SECRET_MARK);
		i += l;
		from = i;
		n++;
	}
	*count = n;
	if (n == 0) {
		buf_release(&b);
		return NULL;
	}
	buf_add(&b, s + from, len - from);
	return buf_detach(&b, outlen);
}

/* Does s hold a secret (lock held)? */
static int
holds_secret(const char *s, size_t len)
{
	for (size_t i = 0; s != NULL && i < nsecrets; i++)
		if (memmem(s, len, secrets[i], strlen(secrets[i])) != NULL)
			return 1;
	return 0;
}

static int
hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* The number of n hex digits at p (n bytes there), or -1. */
static long
hexn(const char *p, size_t left, size_t n)
{
	long v = 0;

	if (left < n)
		return -1;
	for (size_t i = 0; i < n; i++) {
		int h = hexval((unsigned char)p[i]);

		if (h < 0)
			return -1;
		v = v * 16 + h;
	}
	return v;
}

/* Code point cp as UTF-8 into o; its length (cp <= 0x10FFFF). */
static size_t
utf8(long cp, char *o)
{
	if (cp < 0x80) {	/* NUL too */
		o[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (char)(0xC0 | (cp >> 6));
		o[1] = (char)(0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = (char)(0xE0 | (cp >> 12));
		o[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		o[2] = (char)(0x80 | (cp & 0x3F));
		return 3;
	}
	o[0] = (char)(0xF0 | (cp >> 18));
	o[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
	o[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
	o[3] = (char)(0x80 | (cp & 0x3F));
	return 4;
}

/* The value of at most max digits of base at p (left bytes there), any
 * number of leading zeros first: *n gets the digits taken (0: none), the
 * value is -1 when more than max significant digits follow. */
static long
digits(const char *p, size_t left, int base, size_t max, size_t *n)
{
	size_t i = 0, sig = 0;
	long v = 0;
	int d;

	while (i < left && p[i] == '0')
		i++;
	for (; i < left; i++, sig++) {
		d = hexval((unsigned char)p[i]);
		if (d < 0 || d >= base)
			break;
		if (sig == max) {
			*n = i;
			return -1;
		}
		v = v * base + d;
	}
	*n = i;
	return v;
}

/* Is cp a code point a reference may name (not a surrogate, not NUL,
 * which HTML and CSS read as U+FFFD)? */
static int
codepoint(long cp)
{
	return cp > 0 && cp <= 0x10FFFF && !(cp >= 0xD800 && cp <= 0xDFFF);
}

/* The names of the printable ASCII characters other than letters and
 * digits, from U+0020, as Unicode gives them (what Python's and Perl's
 * \N{...} take). */
static const char *const ascii_names[] = {
	[0x20 - 0x20] = "SPACE",
	[0x21 - 0x20] = "EXCLAMATION MARK",
	[0x22 - 0x20] = "QUOTATION MARK",
	[0x23 - 0x20] = "NUMBER SIGN",
	[0x24 - 0x20] = "DOLLAR SIGN",
	[0x25 - 0x20] = "PERCENT SIGN",
	[0x26 - 0x20] = "AMPERSAND",
	[0x27 - 0x20] = "APOSTROPHE",
	[0x28 - 0x20] = "LEFT PARENTHESIS",
	[0x29 - 0x20] = "RIGHT PARENTHESIS",
	[0x2A - 0x20] = "ASTERISK",
	[0x2B - 0x20] = "PLUS SIGN",
	[0x2C - 0x20] = "COMMA",
	[0x2D - 0x20] = "HYPHEN-MINUS",
	[0x2E - 0x20] = "FULL STOP",
	[0x2F - 0x20] = "SOLIDUS",
	[0x3A - 0x20] = "COLON",
	[0x3B - 0x20] = "SEMICOLON",
	[0x3C - 0x20] = "LESS-THAN SIGN",
	[0x3D - 0x20] = "EQUALS SIGN",
	[0x3E - 0x20] = "GREATER-THAN SIGN",
	[0x3F - 0x20] = "QUESTION MARK",
	[0x40 - 0x20] = "COMMERCIAL AT",
	[0x5B - 0x20] = "LEFT SQUARE BRACKET",
	[0x5C - 0x20] = "REVERSE SOLIDUS",
	[0x5D - 0x20] = "RIGHT SQUARE BRACKET",
	[0x5E - 0x20] = "CIRCUMFLEX ACCENT",
	[0x5F - 0x20] = "LOW LINE",
	[0x60 - 0x20] = "GRAVE ACCENT",
	[0x7B - 0x20] = "LEFT CURLY BRACKET",
	[0x7C - 0x20] = "VERTICAL LINE",
	[0x7D - 0x20] = "RIGHT CURLY BRACKET",
	[0x7E - 0x20] = "TILDE",
};

static const char *const digit_names[] = {
	"ZERO", "ONE", "TWO", "THREE", "FOUR", "FIVE", "SIX", "SEVEN",
	"EIGHT", "NINE",
};

/* Does the name at p (n bytes) equal s, ignoring case? */
static int
name_is(const char *p, size_t n, const char *s)
{
	return strlen(s) == n && strncasecmp(p, s, n) == 0;
}

/* The printable ASCII character named by the n bytes at p (Unicode's
 * name, any case, as Python's \N{...} reads it; or Perl's U+HEX), or
 * -1. */
static long
char_named(const char *p, size_t n)
{
	static const char small[] = "LATIN SMALL LETTER ",
	    capital[] = "LATIN CAPITAL LETTER ", digit[] = "DIGIT ";
	size_t l, k;
	long v;

	if (n > 2 && (p[0] == 'U' || p[0] == 'u') && p[1] == '+') {
		v = digits(p + 2, n - 2, 16, 6, &k);
		return k == n - 2 && codepoint(v) ? v : -1;
	}
	l = sizeof small - 1;
	if (n == l + 1 && strncasecmp(p, small, l) == 0 &&
	    isalpha((unsigned char)p[l]))
		return tolower((unsigned char)p[l]);
	l = sizeof capital - 1;
	if (n == l + 1 && strncasecmp(p, capital, l) == 0 &&
	    isalpha((unsigned char)p[l]))
		return toupper((unsigned char)p[l]);
	l = sizeof digit - 1;
	if (n > l && strncasecmp(p, digit, l) == 0)
		for (k = 0; k < 10; k++)
			if (name_is(p + l, n - l, digit_names[k]))
				return '0' + (long)k;
	for (k = 0; k < sizeof ascii_names / sizeof ascii_names[0]; k++)
		if (ascii_names[k] != NULL && name_is(p, n, ascii_names[k]))
			return 0x20 + (long)k;
	return -1;
}

/* The braced number or name after a backslash and its letter at p
 * (left bytes there; p[0] is '{'): \x{HEX} \o{OCTAL} \u{HEX} (Perl,
 * JavaScript, Rust) or \N{NAME}; the code point and *used the bytes from
 * the '{' to the '}', or -1. */
static long
braced(const char *p, size_t left, int letter, size_t *used)
{
	size_t i = 1, e, k;
	long v;

	/* a name is letters, digits, spaces, '-' and '+': the scan ends at
	 * anything else, so that text of many "\N{" is read once */
	for (e = 1; e < left && e <= 64 && (isalnum((unsigned char)p[e]) ||
	    p[e] == ' ' || p[e] == '\t' || p[e] == '-' || p[e] == '+'); e++)
		;
	if (e >= left || p[e] != '}')
		return -1;
	*used = e + 1;
	if (letter == 'N')
		return char_named(p + 1, e - 1);
	while (i < e && (p[i] == ' ' || p[i] == '\t'))
		i++;		/* Perl allows blanks inside */
	v = digits(p + i, e - i, letter == 'o' ? 8 : 16, letter == 'o' ? 7 :
	    6, &k);
	if (k == 0)
		return -1;
	for (i += k; i < e && (p[i] == ' ' || p[i] == '\t'); i++)
		;
	return i == e && codepoint(v) ? v : -1;
}

/* A line end at p (left bytes there): its length, or 0. */
static size_t
line_end(const char *p, size_t left)
{
	if (left >= 2 && p[0] == '\r' && p[1] == '\n')
		return 2;
	return left >= 1 && (p[0] == '\n' || p[0] == '\r' || p[0] == '\f');
}

/*
 * The escape that starts at p (left bytes there), decoded into o (at
 * most 4 bytes): its decoded length (0 for a line continuation), *used
 * the bytes of p it took, 0 when p starts no escape.  Forms no two
 * languages read differently: percent-encoding (%HH, %uXXXX), HTML
 * numeric references (&#N; &#xH; any number of leading zeros, the ';'
 * optional as HTML5 reads it) and &amp; &lt; &gt; &quot; &apos;, and
 * after a backslash: a line continuation, \xHH, \x{H..} \o{O..} \u{H..}
 * (Perl, JavaScript, Rust), \uXXXX with surrogate pairs, \UXXXXXXXX,
 * \N{NAME} and \N{U+H..}.  Where they disagree, alt picks the reading:
 * 0 reads a backslash and a digit or letter as C, Python and JavaScript
 * do (\NNN octal of 1 to 3 digits, \b \f \n \r \t \v \a, \xHH as Python
 * does), 1 as CSS does (\ then 1 to 6 hex digits and one optional white
 * space) and \xH.. as C does (every hex digit that follows).  After a
 * backslash any other character stands for itself (CSS, JavaScript,
 * Perl).
 */
static size_t
unescape_at(const char *p, size_t left, char *o, size_t *used, int alt)
{
	static const struct { const char *from; char to; } named[] = {
		{ "&amp;", '&' }, { "&lt;", '<' }, { "&gt;", '>' },
		{ "&quot;", '"' }, { "&apos;", '\'' },
	};
	/* pairs: the letter after the backslash, what it stands for in C */
	static const char simple[] = "b\bf\fn\nr\rt\tv\va\a";
	long v, lo;
	size_t k, l;

	*used = 0;
	if (left >= 3 && p[0] == '%' && (v = hexn(p + 1, left - 1, 2)) >= 0) {
		*used = 3;
		o[0] = (char)v;
		return 1;
	}
	if (left >= 6 && p[0] == '%' && (p[1] == 'u' || p[1] == 'U') &&
	    (v = hexn(p + 2, left - 2, 4)) >= 0 && codepoint(v)) {
		*used = 6;
		return utf8(v, o);
	}
	if (p[0] == '&') {
		size_t i = 2;
		int base = 10;

		for (k = 0; k < sizeof named / sizeof named[0]; k++) {
			l = strlen(named[k].from);
			if (left >= l && memcmp(p, named[k].from, l) == 0) {
				*used = l;
				o[0] = named[k].to;
				return 1;
			}
		}
		if (left < 3 || p[1] != '#')
			return 0;
		if (p[2] == 'x' || p[2] == 'X') {
			base = 16;
			i = 3;
		}
		v = digits(p + i, left - i, base, 7, &k);
		if (k == 0 || !codepoint(v))
			return 0;
		i += k;
		*used = i < left && p[i] == ';' ? i + 1 : i;
		return utf8(v, o);
	}
	if (p[0] != '\\' || left < 2)
		return 0;
	if ((l = line_end(p + 1, left - 1)) > 0) {
		*used = 1 + l;
		return 0;
	}
	if (alt && hexval((unsigned char)p[1]) >= 0) {
		v = digits(p + 1, left - 1 < 6 ? left - 1 : 6, 16, 6, &k);
		if (!codepoint(v))
			return 0;
		k++;
		if (k < left && (p[k] == ' ' || p[k] == '\t'))
			k++;
		else
			k += line_end(p + k, left - k);
		*used = k;
		return utf8(v, o);
	}
	if (!alt && p[1] >= '0' && p[1] <= '7') {
		for (v = 0, k = 1; k < 4 && k < left && p[k] >= '0' &&
		    p[k] <= '7'; k++)
			v = v * 8 + (p[k] - '0');
		*used = k;
		return utf8(v, o);
	}
	for (k = 0; !alt && simple[k] != '\0'; k += 2)
		if (p[1] == simple[k]) {
			*used = 2;
			o[0] = simple[k + 1];
			return 1;
		}
	if ((p[1] == 'x' || p[1] == 'o' || p[1] == 'u' || p[1] == 'N') &&
	    left > 2 && p[2] == '{') {
		v = braced(p + 2, left - 2, p[1], &l);
		if (v < 0)
			return 0;
		*used = 2 + l;
		return utf8(v, o);
	}
	if (p[1] == 'x' && alt &&
	    (v = digits(p + 2, left - 2, 16, 2, &k)) >= 0 && k > 0) {
		/* C reads every hex digit that follows */
		*used = 2 + k;
		o[0] = (char)v;
		return 1;
	}
	if (p[1] == 'x' && (v = hexn(p + 2, left - 2, 2)) >= 0) {
		*used = 4;
		o[0] = (char)v;
		return 1;
	}
	if (p[1] == 'U' && (v = hexn(p + 2, left - 2, 8)) >= 0 &&
	    codepoint(v)) {
		*used = 10;
		return utf8(v, o);
	}
	if (p[1] == 'u' && (v = hexn(p + 2, left - 2, 4)) >= 0) {
		if (v >= 0xDC00 && v <= 0xDFFF)
			return 0;		/* a lone low surrogate */
		if (v >= 0xD800 && v <= 0xDBFF) {
			if (left < 12 || p[6] != '\\' || p[7] != 'u' ||
			    (lo = hexn(p + 8, left - 8, 4)) < 0xDC00 ||
			    lo > 0xDFFF)
				return 0;	/* a lone high surrogate */
			*used = 12;
			return utf8(0x10000 + ((v - 0xD800) << 10) +
			    (lo - 0xDC00), o);
		}
		*used = 6;
		return utf8(v, o);
	}
	/* any other character stands for itself (CSS, JavaScript, Perl) */
	*used = 2;
	o[0] = p[1];
	return 1;
}

/*
 * s with every escape unescape_at() knows decoded once, in reading alt: a
 * new string of *outlen bytes (never longer than s), or NULL when s holds
 * none.  When
 * from and to are given (len entries each), they map byte k of s to the
 * bytes from[k] .. to[k] - 1 of an earlier text, and are rewritten in
 * place to map the result's bytes to the same text: output byte j comes
 * from input bytes i >= j, so each entry is read before it is written.
 */
static char *
unescape(const char *s, size_t len, size_t *outlen, uint32_t *from,
    uint32_t *to, int alt)
{
	char *o = NULL;
	size_t j = 0, used, n;
	char dec[4];

	for (size_t i = 0; i < len; ) {
		n = unescape_at(s + i, len - i, dec, &used, alt);
		if (used == 0) {
			n = 1;
			used = 1;
			dec[0] = s[i];
		} else if (o == NULL) {
			/* bytes before the first escape map as they did */
			o = xmalloc(len + 1);
			memcpy(o, s, i);
			j = i;
		}
		if (o != NULL)
			for (size_t k = 0; k < n; k++, j++) {
				o[j] = dec[k];
				if (from != NULL) {
					from[j] = from[i];
					to[j] = to[i + used - 1];
				}
			}
		i += used;
	}
	if (o == NULL)
		return NULL;
	o[j] = '\0';
	*outlen = j;
	return o;
}

#define UNESCAPE_ROUNDS	4	/* an escape of an escape of ... */

/*
 * How many rounds of unescape() in reading alt it takes for s to show a
 * secret (1 .. UNESCAPE_ROUNDS), or 0 when none does (lock held).
 */
static int
escaped_depth(const char *s, size_t len, int alt)
{
	char *cur = NULL, *next;
	size_t curlen = len, nextlen;
	int depth = 0;

	for (int r = 1; r <= UNESCAPE_ROUNDS; r++) {
		next = unescape(cur != NULL ? cur : s, curlen, &nextlen, NULL,
		    NULL, alt);
		if (next == NULL)
			break;
		free(cur);
		cur = next;
		curlen = nextlen;
		if (holds_secret(cur, curlen)) {
			depth = r;
			break;
		}
	}
	free(cur);
	return depth;
}

/*
 * s with every escaped copy of a secret that depth rounds of unescape()
 * in reading alt show replaced by SECRET_MARK, the whole escape sequence
 * that made it (lock held): a new string, *count the copies.
 */
static char *
redact_escaped(const char *s, size_t len, int depth, int alt,
    size_t *outlen, size_t *count)
{
	uint32_t *from, *to;
	size_t curlen = len, nextlen, n = 0, done = 0;
	char *cur = NULL, *next;
	struct buf b = BUF_INIT;

	if (len >= UINT32_MAX) {
		/* no map that large: the whole text goes */
		*count = 1;
		*outlen = strlen(SECRET_MARK);
		return xstrdup(SECRET_MARK);
	}
	from = xcalloc(len + 1, sizeof *from);
	to = xcalloc(len + 1, sizeof *to);
	for (size_t k = 0; k < len; k++) {
		from[k] = (uint32_t)k;
		to[k] = (uint32_t)k + 1;
	}
	for (int r = 0; r < depth; r++) {
		next = unescape(cur != NULL ? cur : s, curlen, &nextlen, from,
		    to, alt);
		if (next == NULL)
			break;
		free(cur);
		cur = next;
		curlen = nextlen;
	}
	for (size_t i = 0; cur != NULL && i < curlen; ) {
		size_t l = match_at(cur + i, curlen - i), a, e;

		if (l == 0) {
			i++;
			continue;
		}
		a = from[i];
		e = to[i + l - 1];
		if (a < done)	/* one escape gave bytes to two copies */
			a = done;
		buf_add(&b, s + done, a - done);
		buf_adds(&b, SECRET_MARK);
		if (e > done)
			done = e;
		i += l;
		n++;
	}
	buf_add(&b, s + done, len - done);
	free(cur);
	free(from);
	free(to);
	*count = n;
	return buf_detach(&b, outlen);
}

#define REDACT_PASSES	8	/* then the whole text is replaced */

char *
secret_redact(const char *s, size_t len, size_t *outlen, size_t *count)
{
	char *cur, *next;
	size_t curlen = len, n, total = 0;
	int depth, pass, alt;

	if (count != NULL)
		*count = 0;
	if (s == NULL)
		return NULL;
	pthread_mutex_lock(&lock);
	if (nsecrets == 0) {
		pthread_mutex_unlock(&lock);
		return NULL;
	}
	/* Most text holds none: one memmem per secret says so. */
	cur = holds_secret(s, len) ? redact_bytes(s, len, &curlen, &total) :
	    NULL;
	for (pass = 0; pass < REDACT_PASSES; pass++) {
		const char *t = cur != NULL ? cur : s;

		/* The readings differ only after a backslash: a text with
		 * none is read once. */
		depth = escaped_depth(t, curlen, alt = 0);
		if (depth == 0 && memchr(t, '\\', curlen) != NULL)
			depth = escaped_depth(t, curlen, alt = 1);
		if (depth == 0)
			break;
		next = redact_escaped(t, curlen, depth, alt, &curlen, &n);
		free(cur);
		cur = next;
		total += n;
	}
	if (pass == REDACT_PASSES) {
		/* a text built to defeat the passes is not kept at all */
		free(cur);
		cur = xstrdup(SECRET_MARK);
		curlen = strlen(cur);
	}
	pthread_mutex_unlock(&lock);
	if (cur == NULL)
		return NULL;
	if (outlen != NULL)
		*outlen = curlen;
	if (count != NULL)
		*count = total;
	return cur;
}

size_t
secret_redact_in(char *s, size_t n)
{
	size_t len, count;
	char *r = secret_redact(s, strlen(s), &len, &count);

	if (r == NULL)
		return 0;
	if (n > 0) {
		if (len >= n)
			len = n - 1;
		memcpy(s, r, len);
		s[len] = '\0';
	}
	free(r);
	return count;
}
