/* secret.c - configured secrets, redacted wherever text is kept; see
 * secret.h. */
#define _GNU_SOURCE		/* memmem */
#include "base/secret.h"

#include <pthread.h>
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

char *
secret_redact(const char *s, size_t len, size_t *outlen, size_t *count)
{
	struct buf b = BUF_INIT;
	size_t n = 0, from = 0;

	if (count != NULL)
		*count = 0;
	pthread_mutex_lock(&lock);
	/* Most text holds none: one memmem per secret says so. */
	for (size_t i = 0; s != NULL && i < nsecrets; i++)
		if (memmem(s, len, secrets[i], strlen(secrets[i])) != NULL)
			n = 1;
	if (n == 0) {
		pthread_mutex_unlock(&lock);
		return NULL;
	}
	n = 0;
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
	pthread_mutex_unlock(&lock);
	if (n == 0) {
		buf_release(&b);
		return NULL;
	}
	buf_add(&b, s + from, len - from);
	if (count != NULL)
		*count = n;
	return buf_detach(&b, outlen);
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
