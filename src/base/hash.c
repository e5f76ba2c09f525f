/* hash.c - SHA-256 and HMAC-SHA256 through OpenSSL; see hash.h. */
#include "base/hash.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#include "base/err.h"

struct hash_ctx {
	EVP_MD_CTX	*md;
};


struct hash_ctx *
hash_new(void)
{
	struct hash_ctx *h = xmalloc(sizeof *h);

	h->md = EVP_MD_CTX_new();
	if (h->md == NULL || EVP_DigestInit_ex(h->md, EVP_sha256(), NULL) != 1)
		fatal("sha256: cannot initialise libcrypto digest");
	return h;
}

void
hash_update(struct hash_ctx *h, const void *data, size_t len)
{
	if (len > 0 && EVP_DigestUpdate(h->md, data, len) != 1)
		fatal("sha256: digest update failed");
}

void
hash_final(struct hash_ctx *h, char *hex)
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int n = 0;

	if (EVP_DigestFinal_ex(h->md, md, &n) != 1)
		fatal("sha256: digest final failed");
	hash_hex(md, n, hex);
	EVP_MD_CTX_free(h->md);
	free(h);
}

/* Twice per imported row: one context and one fetched digest per
 * thread, kept, instead of a new context and a digest looked up by name
 * each time (a third of the hashing). */
static _Thread_local EVP_MD_CTX *md;
static _Thread_local EVP_MD *sha;

void
hash_thread_end(void)
{
	EVP_MD_CTX_free(md);
	EVP_MD_free(sha);
	md = NULL;
	sha = NULL;
}

void
hash_sha256(const void *data, size_t len, char *hex)
{
	unsigned char out[EVP_MAX_MD_SIZE];
	unsigned int n = 0;

	if (md == NULL && (md = EVP_MD_CTX_new()) == NULL)
		fatal("sha256: cannot initialise libcrypto digest");
	if (sha == NULL && (sha = EVP_MD_fetch(NULL, "SHA256", NULL)) == NULL)
		fatal("sha256: cannot fetch libcrypto digest");
	if (EVP_DigestInit_ex(md, sha, NULL) != 1 ||
	    (len > 0 && EVP_DigestUpdate(md, data, len) != 1) ||
	    EVP_DigestFinal_ex(md, out, &n) != 1)
		fatal("sha256: digest failed");
	hash_hex(out, n, hex);
}

void
hash_hmac_sha256(const void *key, size_t keylen, const void *data,
    size_t len, char *hex)
{
	unsigned char out[EVP_MAX_MD_SIZE];
	unsigned int n = 0;

	if (keylen > INT_MAX || HMAC(EVP_sha256(), key, (int)keylen,
	    len > 0 ? data : (const void *)"", len, out, &n) == NULL)
		fatal("hmac-sha256: libcrypto failed");
	hash_hex(out, n, hex);
}

/* By hand: snprintf per byte was a tenth of an import's time. */
void
hash_hex(const void *data, size_t n, char *hex)
{
	const unsigned char *p = data;

	for (size_t i = 0; i < n; i++) {
		hex[2 * i] = "0123456789abcdef"[p[i] >> 4];
		hex[2 * i + 1] = "0123456789abcdef"[p[i] & 15];
	}
	hex[2 * n] = '\0';
}

int
hash_random(void *buf, size_t n)
{
	if (n > INT_MAX || RAND_bytes(buf, (int)n) != 1)
		return -1;
	return 0;
}

int
hash_equal(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);

	return la == lb && CRYPTO_memcmp(a, b, la) == 0;
}

uint64_t
hash_mix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

uint64_t
hash_fnv64(const void *s, size_t n, uint64_t h)
{
	const unsigned char *p = s;

	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 1099511628211ull;
	return h;
}
