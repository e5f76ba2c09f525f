/*
 * hash.h - SHA-256 (FIPS 180-4) of byte strings, as lowercase hex.
 * The only module that calls OpenSSL's libcrypto.  Used for code hashes,
 * input hashes of runs and candidate ids.
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
