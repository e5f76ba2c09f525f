/*
 * http.c - JSON POST over libcurl for the model generator (http.h).
 * An easy handle per request: requests run on the generator's worker
 * threads, and libcurl handles are not shared between threads.
 */
#include "base/http.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <curl/curl.h>

#include "base/buf.h"

static pthread_mutex_t init_lock = PTHREAD_MUTEX_INITIALIZER;
static int inited;

int
http_init(struct err *err)
{
	CURLcode rc = CURLE_OK;

	pthread_mutex_lock(&init_lock);
	if (!inited) {
		rc = curl_global_init(CURL_GLOBAL_DEFAULT);
		inited = rc == CURLE_OK;
	}
	pthread_mutex_unlock(&init_lock);
	if (rc != CURLE_OK)
		return err_set(err, "http: %s", curl_easy_strerror(rc));
	return 0;
}

struct sink {
	struct buf	 body;
	int		 too_big;
	long		 after_ms;	/* retry-after-ms, or -1 */
	long		 after_s;	/* Retry-After in seconds, or -1 */
};

static size_t
on_body(char *p, size_t size, size_t n, void *arg)
{
	struct sink *s = arg;
	size_t len = size * n;

	if (s->body.len + len > HTTP_BODY_MAX) {
		s->too_big = 1;
		return 0;	/* makes libcurl stop with CURLE_WRITE_ERROR */
	}
	buf_add(&s->body, p, len);
	return len;
}

/*
 * The value of header name (lowercase, with its colon) in the line p
 * (len bytes), trimmed, into v (n bytes); 0 when the line is another.
 */
static int
header_value(const char *p, size_t len, const char *name, char *v, size_t n)
{
	size_t i = strlen(name), k = 0;

	if (len <= i || strncasecmp(p, name, i) != 0)
		return 0;
	while (i < len && (p[i] == ' ' || p[i] == '\t'))
		i++;
	while (i < len && p[i] != '\r' && p[i] != '\n' && k + 1 < n)
		v[k++] = p[i++];
	while (k > 0 && (v[k - 1] == ' ' || v[k - 1] == '\t'))
		k--;
	v[k] = '\0';
	return 1;
}

/*
 * retry-after-ms: milliseconds, a decimal number (the OpenAI SDKs read
 * it as a float); Retry-After: delay-seconds, else an HTTP-date.  A
 * value that is neither or negative is ignored; one over
 * HTTP_AFTER_MAX_S seconds reads as that, so that a huge one stays huge
 * (the caller says it waits less) rather than overflowing or falling
 * back to a short backoff.  0 (or a date past) reads as 0, which the
 * caller takes as no wait asked; a positive retry-after-ms under 1 ms
 * reads as 1, not 0.
 */
static size_t
on_header(char *p, size_t size, size_t n, void *arg)
{
	struct sink *s = arg;
	size_t len = size * n;
	char v[64], *end;
	double d;

	if (header_value(p, len, "retry-after-ms:", v, sizeof v)) {
		d = strtod(v, &end);
		if (end != v && *end == '\0' && d >= 0)
			s->after_ms = d > HTTP_AFTER_MAX_S * 1000.0 ?
			    HTTP_AFTER_MAX_S * 1000 : d > 0 && d < 1 ? 1 :
			    (long)(d + 0.5);
	} else if (header_value(p, len, "retry-after:", v, sizeof v)) {
		d = strtod(v, &end);
		if (end != v && *end == '\0' && strspn(v, "0123456789") ==
		    strlen(v)) {
			s->after_s = d > HTTP_AFTER_MAX_S ? HTTP_AFTER_MAX_S :
			    (long)d;
		} else {
			time_t at = curl_getdate(v, NULL), now = time(NULL);

			if (at != (time_t)-1)
				s->after_s = at <= now ? 0 : at - now >
				    HTTP_AFTER_MAX_S ? HTTP_AFTER_MAX_S :
				    (long)(at - now);
		}
	}
	return len;
}

int
http_post_json(const char *url, const char *bearer, const char *body,
    size_t len, long timeout_s, long connect_s, struct http_response *out,
    struct err *err)
{
	struct sink s = { BUF_INIT, 0, -1, -1 };
	struct curl_slist *hdr = NULL;
	char *auth = NULL;
	CURL *h;
	CURLcode rc;
	long status = 0;

	memset(out, 0, sizeof *out);
	if (http_init(err) < 0)
		return -1;
	h = curl_easy_init();
	if (h == NULL)
		return err_set(err, "http: cannot make a request handle");
	hdr = curl_slist_append(hdr, "Content-Type: application/json");
	hdr = curl_slist_append(hdr, "Accept: application/json");
	if (bearer != NULL) {
		auth = xasprintf("Authorization: Bearer %s", bearer);
		hdr = curl_slist_append(hdr, auth);
	}
	curl_easy_setopt(h, CURLOPT_URL, url);
	curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L);
	curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(h, CURLOPT_HTTPHEADER, hdr);
	curl_easy_setopt(h, CURLOPT_POST, 1L);
	curl_easy_setopt(h, CURLOPT_POSTFIELDS, body);
	curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)len);
	curl_easy_setopt(h, CURLOPT_TIMEOUT, timeout_s);
	curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT, connect_s);
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_body);
	curl_easy_setopt(h, CURLOPT_WRITEDATA, &s);
	curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, on_header);
	curl_easy_setopt(h, CURLOPT_HEADERDATA, &s);
	curl_easy_setopt(h, CURLOPT_USERAGENT, "assay");
	rc = curl_easy_perform(h);
	if (rc == CURLE_OK)
		curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
	curl_easy_cleanup(h);
	curl_slist_free_all(hdr);
	if (auth != NULL) {
		/* The key: wipe it before it goes back to the allocator. */
		memset(auth, 0, strlen(auth));
		free(auth);
	}
	if (rc != CURLE_OK) {
		buf_release(&s.body);
		if (s.too_big)
			return err_set(err, "answer over %u bytes",
			    HTTP_BODY_MAX);
		if (rc == CURLE_OPERATION_TIMEDOUT)
			return err_set(err, "timed out after %ld s",
			    timeout_s);
		return err_set(err, "%s", curl_easy_strerror(rc));
	}
	out->status = status;
	out->retry_after_ms = s.after_ms >= 0 ? s.after_ms : s.after_s >= 0 ?
	    s.after_s * 1000 : -1;
	out->len = s.body.len;
	out->body = buf_detach(&s.body, NULL);
	if (out->body == NULL)
		out->body = xstrdup("");
	return 0;
}

void
http_response_release(struct http_response *r)
{
	if (r == NULL)
		return;
	free(r->body);
	memset(r, 0, sizeof *r);
}
