/* secret.c - configured secrets, redacted wherever text is kept; see
 * secret.h. */
#define _GNU_SOURCE		/* memmem */
#include "base/secret.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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
	if (cp < 0x80) {
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

/*
 * The escape that starts at p (left bytes there), decoded into o (at
 * most 4 bytes): its decoded length, *used the bytes of p it took; 0
 * when p starts no escape.  Backslash escapes of JSON, C and Python
 * (\uXXXX with surrogate pairs, \UXXXXXXXX, \xHH, \NNN octal, \/ \" \\
 * \' \b \f \n \r \t), percent-encoding (%HH) and HTML character
 * references (&#NNN; &#xHH; &amp; &lt; &gt; &quot; &apos;).
 */
static size_t
unescape_at(const char *p, size_t left, char *o, size_t *used)
{
	static const struct { const char *from; char to; } named[] = {
		{ "&amp;", '&' }, { "&lt;", '<' }, { "&gt;", '>' },
		{ "&quot;", '"' }, { "&apos;", '\'' },
	};
	/* pairs: the letter after the backslash, what it stands for */
	static const char simple[] = "//\"\"\\\\''b\bf\fn\nr\rt\t";
	long v, lo;

	if (left >= 3 && p[0] == '%' && (v = hexn(p + 1, left - 1, 2)) >= 0) {
		*used = 3;
		o[0] = (char)v;
		return 1;
	}
	if (p[0] == '&') {
		size_t i = 2, start;
		int base = 10;

		for (size_t k = 0; k < sizeof named / sizeof named[0]; k++) {
			size_t l = strlen(named[k].from);

			if (left >= l && memcmp(p, named[k].from, l) == 0) {
				*used = l;
				o[0] = named[k].to;
				return 1;
			}
		}
		if (left < 4 || p[1] != '#')
			return 0;
		if (p[2] == 'x' || p[2] == 'X') {
			base = 16;
			i = 3;
		}
		start = i;
		v = 0;
		for (; i < left && i - start < 8 && hexval((unsigned char)
		    p[i]) >= 0 && (base == 16 || (p[i] >= '0' &&
		    p[i] <= '9')); i++)
			v = v * base + hexval((unsigned char)p[i]);
		if (i == start || i >= left || p[i] != ';' || v > 0x10FFFF ||
		    (v >= 0xD800 && v <= 0xDFFF))
			return 0;
		*used = i + 1;
		return utf8(v, o);
	}
	if (p[0] != '\\' || left < 2)
		return 0;
	for (size_t k = 0; simple[k] != '\0'; k += 2)
		if (p[1] == simple[k]) {
			*used = 2;
			o[0] = simple[k + 1];
			return 1;
		}
	if (p[1] == 'x' && (v = hexn(p + 2, left - 2, 2)) >= 0) {
		*used = 4;
		o[0] = (char)v;
		return 1;
	}
	if (p[1] >= '0' && p[1] <= '3' && left >= 4 && p[2] >= '0' &&
	    p[2] <= '7' && p[3] >= '0' && p[3] <= '7') {
		*used = 4;
		o[0] = (char)((p[1] - '0') * 64 + (p[2] - '0') * 8 +
		    (p[3] - '0'));
		return 1;
	}
	if (p[1] == 'U' && (v = hexn(p + 2, left - 2, 8)) >= 0 &&
	    v <= 0x10FFFF && !(v >= 0xD800 && v <= 0xDFFF)) {
		*used = 10;
		return utf8(v, o);
	}
	if (p[1] != 'u' || (v = hexn(p + 2, left - 2, 4)) < 0)
		return 0;
	if (v >= 0xDC00 && v <= 0xDFFF)
		return 0;		/* a lone low surrogate */
	if (v >= 0xD800 && v <= 0xDBFF) {
		if (left < 12 || p[6] != '\\' || p[7] != 'u' ||
		    (lo = hexn(p + 8, left - 8, 4)) < 0xDC00 || lo > 0xDFFF)
			return 0;	/* a lone high surrogate */
		*used = 12;
		return utf8(0x10000 + ((v - 0xD800) << 10) + (lo - 0xDC00),
		    o);
	}
	*used = 6;
	return utf8(v, o);
}

/*
 * s with every escape unescape_at() knows decoded, once: a new string of
 * *outlen bytes (never longer than s), or NULL when s holds none.  When
 * from and to are given (len entries each), they map byte k of s to the
 * bytes from[k] .. to[k] - 1 of an earlier text, and are rewritten in
 * place to map the result's bytes to the same text: output byte j comes
 * from input bytes i >= j, so each entry is read before it is written.
 */
static char *
unescape(const char *s, size_t len, size_t *outlen, uint32_t *from,
    uint32_t *to)
{
	char *o = NULL;
	size_t j = 0, used, n;
	char dec[4];

	for (size_t i = 0; i < len; ) {
		n = unescape_at(s + i, len - i, dec, &used);
		if (n == 0) {
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
 * How many rounds of unescape() it takes for s to show a secret (1 ..
 * UNESCAPE_ROUNDS), or 0 when none does (lock held).
 */
static int
escaped_depth(const char *s, size_t len)
{
	char *cur = NULL, *next;
	size_t curlen = len, nextlen;
	int depth = 0;

	for (int r = 1; r <= UNESCAPE_ROUNDS; r++) {
		next = unescape(cur != NULL ? cur : s, curlen, &nextlen, NULL,
		    NULL);
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
 * show replaced by SECRET_MARK, the whole escape sequence that made it
 * (lock held): a new string, *count the copies.
 */
static char *
redact_escaped(const char *s, size_t len, int depth, size_t *outlen,
    size_t *count)
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
		    to);
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
	int depth, pass;

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
		depth = escaped_depth(cur != NULL ? cur : s, curlen);
		if (depth == 0)
			break;
		next = redact_escaped(cur != NULL ? cur : s, curlen, depth,
		    &curlen, &n);
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
