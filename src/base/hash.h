/*
 * hash.h - SHA-256 (FIPS 180-4) of byte strings, as lowercase hex, and
 * HMAC-SHA256 (RFC 2104) with random keys.  The only module that calls
 * OpenSSL's libcrypto.  Used for code hashes, input hashes of runs,
 * candidate ids and the MACs of run results (exchange/results.h).
 */
#ifndef ASSAY_HASH_H
#define ASSAY_HASH_H

#include <stddef.h>
#include <stdint.h>

#define HASH_HEX_LEN 64

struct hash_ctx;

/* hex receives 64 hex digits and a NUL (HASH_HEX_LEN + 1 bytes).  Keeps
 * a digest context per thread: a thread that called it gives that back
 * with hash_thread_end() before it ends. */
void	hash_sha256(const void *data, size_t len, char *hex);
/* Free the calling thread's digest context (none: a no-op). */
void	hash_thread_end(void);

/* Incremental form: new context, feed, then final (which frees it). */
struct hash_ctx *hash_new(void);
void	hash_update(struct hash_ctx *h, const void *data, size_t len);
void	hash_final(struct hash_ctx *h, char *hex);

/*
 * HMAC-SHA256 of data (len bytes) under key (keylen bytes), as 64 hex
 * digits and a NUL into hex (HASH_HEX_LEN + 1 bytes).  Thread-safe.
 */
void	hash_hmac_sha256(const void *key, size_t keylen, const void *data,
	    size_t len, char *hex);

/*
 * n bytes from libcrypto's CSPRNG (seeded by the kernel) into buf.
 * 0, or -1 when the generator failed (nothing usable in buf).
 */
int	hash_random(void *buf, size_t n);

/* The n bytes at data as 2n lowercase hex digits and a NUL into hex. */
void	hash_hex(const void *data, size_t n, char *hex);

/*
 * Do the NUL-terminated strings a and b hold the same bytes?  The time
 * depends on their lengths only, not on where they differ (for MACs).
 * 1 or 0.
 */
int	hash_equal(const char *a, const char *b);

/*
 * Fast non-cryptographic hashes for in-memory tables (dedup, contam):
 * hash_mix64() is splitmix64's finaliser (a well-mixed 64 bits of x),
 * hash_fnv64() FNV-1a over n bytes of s, started from h (use
 * HASH_FNV64_INIT).  Never for identity or anything an attacker chooses
 * to collide with a purpose.
 */
#define HASH_FNV64_INIT	1469598103934665603ull
uint64_t hash_mix64(uint64_t x);
uint64_t hash_fnv64(const void *s, size_t n, uint64_t h);

#endif
