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
	long		 retry_after_s;
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

/* Retry-After: delay-seconds only; an HTTP-date is left alone (-1). */
static size_t
on_header(char *p, size_t size, size_t n, void *arg)
{
	struct sink *s = arg;
	size_t len = size * n;
	static const char name[] = "retry-after:";
	char digits[16];
	size_t i = sizeof name - 1, k = 0;

	if (len > i && strncasecmp(p, name, i) == 0) {
		while (i < len && (p[i] == ' ' || p[i] == '\t'))
			i++;
		while (i < len && p[i] >= '0' && p[i] <= '9' &&
		    k < sizeof digits - 1)
			digits[k++] = p[i++];
		digits[k] = '\0';
		if (k > 0 && k < 7)
			s->retry_after_s = strtol(digits, NULL, 10);
	}
	return len;
}

int
http_post_json(const char *url, const char *bearer, const char *body,
    size_t len, long timeout_s, long connect_s, struct http_response *out,
    struct err *err)
{
	struct sink s = { BUF_INIT, 0, -1 };
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
	out->retry_after_s = s.retry_after_s;
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
