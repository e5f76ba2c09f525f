/*
 * hash.h - SHA-256 (FIPS 180-4) of byte strings, as lowercase hex.
 * The only module that calls OpenSSL's libcrypto.  Used for code hashes,
 * input hashes of runs and candidate ids.
 */
#ifndef ASSAY_HASH_H
#define ASSAY_HASH_H

#include <stddef.h>

#define HASH_HEX_LEN 64

struct hash_ctx;

/* hex receives 64 hex digits and a NUL (HASH_HEX_LEN + 1 bytes). */
void	hash_sha256(const void *data, size_t len, char *hex);

/* Incremental form: new context, feed, then final (which frees it). */
struct hash_ctx *hash_new(void);
void	hash_update(struct hash_ctx *h, const void *data, size_t len);
void	hash_final(struct hash_ctx *h, char *hex);

#endif
