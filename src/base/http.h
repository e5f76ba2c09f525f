/*
 * http.h - one HTTP POST of a JSON body, for the model generator
 * (model.c).  The only caller of libcurl (curl_*): an upgrade or a
 * change of transport touches this file alone.
 *
 * A request either gets an answer (any status: the caller decides
 * what a 429 or a 500 means) or fails in transport (no connection, a
 * timeout, a TLS error), and then returns -1 with err.  Nothing here
 * retries, sleeps or logs; secrets given as bearer are sent in the
 * Authorization header only and never copied into a result or an
 * error message.
 */
#ifndef ASSAY_HTTP_H
#define ASSAY_HTTP_H

#include <stddef.h>

#include "base/err.h"

/* Limits on what one response may hold. */
#define HTTP_BODY_MAX	(64u << 20)	/* bytes of body kept: 64 MiB */
#define HTTP_AFTER_MAX_S 1000000000L	/* a longer Retry-After reads as
					 * this (about 31 years) */

struct http_response {
	long	 status;	/* HTTP status, e.g. 200, 429 */
	char	*body;		/* owned, NUL-terminated (len bytes before it) */
	size_t	 len;
	long	 retry_after_ms;	/* how long the server asks to wait, in
				 * milliseconds, -1 when it does not say:
				 * retry-after-ms (OpenAI's header, what its
				 * SDKs read first) when present, else
				 * Retry-After (RFC 9110 10.2.3) as
				 * delay-seconds or an HTTP-date from now;
				 * as asked, however long (a value over
				 * HTTP_AFTER_MAX_S seconds reads as that):
				 * the caller bounds what it waits */
};

/*
 * Set up the library once per process, before any thread makes a
 * request (libcurl's curl_global_init is not thread-safe).  Idempotent.
 * 0, or -1 with err.
 */
int	http_init(struct err *err);

/*
 * POST body (len bytes, Content-Type application/json) to url, with
 * "Authorization: Bearer <bearer>" when bearer is not NULL.  The whole
 * exchange is limited to timeout_s seconds (> 0) and connecting to
 * connect_s.  Only http and https URLs are followed; redirects are not.
 * On an answer, *out holds it (release with http_response_release)
 * and 0 is returned whatever the status.  A body over HTTP_BODY_MAX is
 * an error.  On a transport failure -1 with err ("timed out after N s",
 * "cannot connect to HOST: ...").  Safe to call from several threads
 * at once after http_init().
 */
int	http_post_json(const char *url, const char *bearer, const char *body,
	    size_t len, long timeout_s, long connect_s,
	    struct http_response *out, struct err *err);

/* Free what r owns; NULL-safe.  Leaves r zeroed. */
void	http_response_release(struct http_response *r);

#endif
