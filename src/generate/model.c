/*
 * model.c - the generator (model.h): chat-completions over HTTP or a
 * command on a pipe, retries with backoff, a shared rate limit, and a
 * small pool of worker threads for many conversations at once.
 */
#include "generate/model.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/duration.h"
#include "base/buf.h"
#include "base/secret.h"
#include "base/http.h"
#include "base/ident.h"

#define MODEL_OUT_MAX	(16u << 20)	/* bytes a command may answer */

void
model_cfg_init(struct model_cfg *cfg)
{
	memset(cfg, 0, sizeof *cfg);
	cfg->temperature = -1;
	cfg->timeout_s = 120;
	cfg->retries = 4;
	cfg->use_n = 1;
}

void
model_cfg_release(struct model_cfg *cfg)
{
	if (cfg == NULL)
		return;
	free(cfg->endpoint);
	free(cfg->command);
	free(cfg->model);
	free(cfg->key_env);
	for (size_t i = 0; i < cfg->nprices; i++)
		free(cfg->prices[i].model);
	free(cfg->prices);
	model_cfg_init(cfg);
}

void
model_cfg_copy(struct model_cfg *dst, const struct model_cfg *src)
{
	*dst = *src;
	dst->endpoint = xstrdup(src->endpoint);
	dst->command = xstrdup(src->command);
	dst->model = xstrdup(src->model);
	dst->key_env = xstrdup(src->key_env);
	dst->prices = xcalloc(src->nprices + 1, sizeof *dst->prices);
	for (size_t i = 0; i < src->nprices; i++) {
		dst->prices[i] = src->prices[i];
		dst->prices[i].model = xstrdup(src->prices[i].model);
	}
}

static int
parse_num(const char *v, double lo, double hi, double *out)
{
	char *end;
	double d;

	errno = 0;
	d = strtod(v, &end);
	if (errno != 0 || end == v || *end != '\0' || !(d >= lo && d <= hi))
		return -1;
	*out = d;
	return 0;
}

static void
set_str(char **dst, const char *v)
{
	free(*dst);
	*dst = xstrdup(v);
}

/* "MODEL INPUT CACHED OUTPUT" into the price table (a row for MODEL
 * already there is replaced).  0, or -1 with err. */
static int
price_line(struct model_cfg *cfg, const char *v, struct err *err)
{
	char model[256], a[64], b[64], c[64], extra[2];
	double d[3];
	struct model_price *p = NULL;

	if (sscanf(v, "%255s %63s %63s %63s %1s", model, a, b, c,
	    extra) != 4 || parse_num(a, 0, 1e6, &d[0]) < 0 ||
	    parse_num(b, 0, 1e6, &d[1]) < 0 || parse_num(c, 0, 1e6,
	    &d[2]) < 0)
		return err_set(err, "generator price wants MODEL INPUT CACHED"
		    " OUTPUT, three prices in US dollars per million tokens"
		    " (prompt, cached prompt, completion), not '%s'", v);
	for (size_t i = 0; i < cfg->nprices; i++)
		if (strcmp(cfg->prices[i].model, model) == 0)
			p = &cfg->prices[i];
	if (p == NULL) {
		cfg->prices = xreallocarray(cfg->prices, cfg->nprices + 1,
		    sizeof *cfg->prices);
		p = &cfg->prices[cfg->nprices++];
		p->model = xstrdup(model);
	}
	p->input = d[0];
	p->cached = d[1];
	p->output = d[2];
	return 0;
}

int
model_cfg_line(struct model_cfg *cfg, const char *line, struct err *err)
{
	const char *p = line, *name, *v;
	size_t nlen;
	double d;
	char *val;
	int rc = 0;

	while (*p == ' ' || *p == '\t')
		p++;
	if (strncmp(p, "generator", 9) != 0 || (p[9] != ' ' && p[9] != '\t'))
		return 0;
	p += 9;
	while (*p == ' ' || *p == '\t')
		p++;
	name = p;
	while (*p != '\0' && *p != ' ' && *p != '\t')
		p++;
	nlen = (size_t)(p - name);
	while (*p == ' ' || *p == '\t')
		p++;
	val = xstrdup(p);
	for (size_t k = strlen(val); k > 0 && (val[k - 1] == '\n' ||
	    val[k - 1] == '\r' || val[k - 1] == ' '); k--)
		val[k - 1] = '\0';
	v = val;
#define IS(w) (nlen == sizeof(w) - 1 && strncmp(name, w, nlen) == 0)
	if (*v == '\0')
		rc = err_set(err, "generator %.*s wants a value", (int)nlen,
		    name);
	else if (IS("endpoint"))
		set_str(&cfg->endpoint, v);
	else if (IS("command"))
		set_str(&cfg->command, v);
	else if (IS("model"))
		set_str(&cfg->model, v);
	else if (IS("api-key-env"))
		set_str(&cfg->key_env, v);
	else if (IS("temperature")) {
		if (parse_num(v, 0, 2, &d) < 0)
			rc = err_set(err, "generator temperature: '%s' is not"
			    " a number from 0 to 2", v);
		else
			cfg->temperature = d;
	} else if (IS("max-tokens") || IS("timeout") || IS("retries")) {
		if (parse_num(v, IS("retries") ? 0 : 1, 1e7, &d) < 0 ||
		    d != (long)d)
			rc = err_set(err, "generator %.*s: '%s' is not a"
			    " whole number in range", (int)nlen, name, v);
		else if (IS("max-tokens"))
			cfg->max_tokens = (long)d;
		else if (IS("timeout"))
			cfg->timeout_s = (long)d;
		else
			cfg->retries = (int)d;
	} else if (IS("rate")) {
		if (parse_num(v, 0, 1e6, &d) < 0)
			rc = err_set(err, "generator rate: '%s' is not a"
			    " number of requests per second", v);
		else
			cfg->rate = d;
	} else if (IS("max-tokens-param")) {
		if (strcmp(v, "max_completion_tokens") == 0)
			cfg->completion_tokens_param = 1;
		else if (strcmp(v, "max_tokens") == 0)
			cfg->completion_tokens_param = 0;
		else
			rc = err_set(err, "generator max-tokens-param: '%s' is"
			    " neither max_completion_tokens nor max_tokens", v);
	} else if (IS("n")) {
		if (strcmp(v, "on") == 0)
			cfg->use_n = 1;
		else if (strcmp(v, "off") == 0)
			cfg->use_n = 0;
		else
			rc = err_set(err, "generator n: '%s' is neither on nor"
			    " off", v);
	} else if (IS("feedback")) {
		if (strcmp(v, "rich") == 0)
			cfg->feedback_minimal = 0;
		else if (strcmp(v, "minimal") == 0)
			cfg->feedback_minimal = 1;
		else
			rc = err_set(err, "generator feedback: '%s' is neither"
			    " rich nor minimal", v);
	} else if (IS("price")) {
		rc = price_line(cfg, v, err);
	} else if (IS("min-gain")) {
		if (parse_num(v, 1, 1e6, &d) < 0)
			rc = err_set(err, "generator min-gain: '%s' is not a"
			    " ratio of 1 or more (before / after)", v);
		else
			cfg->min_gain = d;
	} else
		rc = err_set(err, "unknown generator setting '%.*s' (endpoint,"
		    " command, model, api-key-env, temperature, max-tokens,"
		    " max-tokens-param, n, price, timeout, retries, rate,"
		    " min-gain)",
		    (int)nlen, name);
#undef IS
	free(val);
	return rc;
}

int
model_cfg_load(struct model_cfg *cfg, const char *path, struct err *err)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	unsigned no = 0;
	struct err e;
	int rc = 0;

	if (f == NULL)
		return errno == ENOENT ? 0 : err_set(err, "%s: %s", path,
		    strerror(errno));
	while (getline(&line, &cap, f) >= 0) {
		no++;
		if (model_cfg_line(cfg, line, &e) < 0) {
			rc = err_set(err, "%s:%u: %s", path, no, e.msg);
			break;
		}
	}
	free(line);
	fclose(f);
	return rc;
}

int
model_cfg_check(const struct model_cfg *cfg, struct err *err)
{
	struct err e;

	if (cfg->endpoint == NULL && cfg->command == NULL)
		return err_set(err, "no generator: give --endpoint URL --model"
		    " NAME or --command CMD (or `generator endpoint`/"
		    "`generator command` in the config file)");
	if (cfg->endpoint != NULL && cfg->command != NULL)
		return err_set(err, "give either an endpoint or a command,"
		    " not both");
	if (cfg->endpoint != NULL) {
		if (strncmp(cfg->endpoint, "http://", 7) != 0 &&
		    strncmp(cfg->endpoint, "https://", 8) != 0)
			return err_set(err, "endpoint '%s' is not an http or"
			    " https URL", cfg->endpoint);
		if (cfg->model == NULL)
			return err_set(err, "an endpoint needs a model name"
			    " (--model NAME)");
	}
	if (cfg->key_env != NULL && getenv(cfg->key_env) == NULL)
		return err_set(err, "the API key variable %s is not set",
		    cfg->key_env);
	if (cfg->key_env != NULL)
		secret_add(getenv(cfg->key_env));
	if (cfg->model != NULL && ident_check_label(cfg->model,
	    "a model name (its candidates' origin)", &e) < 0) {
		char show[96];

		return err_set(err, "model '%s': %s", ident_show(cfg->model,
		    show, sizeof show), e.msg);
	}
	return 0;
}

const char *
model_name(const struct model_cfg *cfg, char *buf, size_t n)
{
	const char *s, *e, *slash;

	if (cfg->model != NULL)
		return cfg->model;
	if (cfg->command == NULL)
		return "model";
	s = cfg->command;
	while (*s == ' ')
		s++;
	e = s;
	while (*e != '\0' && *e != ' ' && *e != '\t')
		e++;
	for (slash = s; slash < e; slash++)
		if (*slash == '/')
			s = slash + 1;
	snprintf(buf, n, "%.*s", (int)(e - s), s);
	return *buf != '\0' ? buf : "command";
}

void
model_reply_release(struct model_reply *r)
{
	if (r == NULL)
		return;
	for (size_t i = 0; i < r->nanswers; i++) {
		free(r->answers[i].text);
		free(r->answers[i].refusal);
		free(r->answers[i].finish);
	}
	free(r->answers);
	free(r->id);
	free(r->served);
	memset(r, 0, sizeof *r);
}

void
model_replies_release(struct model_replies *r)
{
	if (r == NULL)
		return;
	for (size_t i = 0; i < r->nv; i++)
		model_reply_release(&r->v[i]);
	free(r->v);
	memset(r, 0, sizeof *r);
}

static const struct model_price *
price_of(const struct model_cfg *cfg, const char *name)
{
	for (size_t i = 0; name != NULL && i < cfg->nprices; i++)
		if (strcmp(cfg->prices[i].model, name) == 0)
			return &cfg->prices[i];
	return NULL;
}

double
model_cost(const struct model_cfg *cfg, const char *served, int64_t prompt,
    int64_t cached, int64_t completion)
{
	const struct model_price *p = price_of(cfg, served);

	if (p == NULL)
		p = price_of(cfg, cfg->model);
	if (p == NULL || prompt < 0 || completion < 0)
		return -1;
	if (cached < 0)
		cached = 0;
	if (cached > prompt)
		cached = prompt;
	return ((double)(prompt - cached) * p->input + (double)cached *
	    p->cached + (double)completion * p->output) / 1e6;
}

/* Has a server refused "n" (HTTP 400 to a request that sent it)?  Then
 * it is not sent again by this process. */
static int n_refused;
static pthread_mutex_t n_lock = PTHREAD_MUTEX_INITIALIZER;

static int
n_allowed(const struct model_cfg *cfg)
{
	int r;

	pthread_mutex_lock(&n_lock);
	r = cfg->use_n && !n_refused;
	pthread_mutex_unlock(&n_lock);
	return r;
}

json_t *
model_request(const struct model_cfg *cfg, json_t *messages, int n)
{
	json_t *o = json_object();

	json_object_set_new(o, "model", json_string(cfg->model != NULL ?
	    cfg->model : "default"));
	json_object_set(o, "messages", messages);
	if (cfg->temperature >= 0)
		json_object_set_new(o, "temperature",
		    json_real(cfg->temperature));
	if (cfg->max_tokens > 0)
		json_object_set_new(o, cfg->completion_tokens_param ?
		    "max_completion_tokens" : "max_tokens",
		    json_integer(cfg->max_tokens));
	if (n > 1)
		json_object_set_new(o, "n", json_integer(n));
	return o;
}

void
model_stop_init(struct model_stop *s)
{
	pthread_condattr_t a;

	pthread_mutex_init(&s->lock, NULL);
	pthread_condattr_init(&a);
	pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
	pthread_cond_init(&s->cond, &a);
	pthread_condattr_destroy(&a);
	s->set = 0;
}

void
model_stop_set(struct model_stop *s)
{
	pthread_mutex_lock(&s->lock);
	s->set = 1;
	pthread_cond_broadcast(&s->cond);
	pthread_mutex_unlock(&s->lock);
}

int
model_stop_isset(struct model_stop *s)
{
	int set;

	pthread_mutex_lock(&s->lock);
	set = s->set;
	pthread_mutex_unlock(&s->lock);
	return set;
}

void
model_stop_destroy(struct model_stop *s)
{
	pthread_cond_destroy(&s->cond);
	pthread_mutex_destroy(&s->lock);
}

static int
stopped(const struct model_cfg *cfg)
{
	return cfg->stop != NULL && model_stop_isset(cfg->stop);
}

/* Wait ms, or less when cfg->stop is set meanwhile: 1 then, else 0. */
static int
wait_ms_or_stop(const struct model_cfg *cfg, int64_t ms)
{
	struct timespec at;
	int set;

	if (cfg->stop == NULL) {
		struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

		while (ms > 0 && nanosleep(&ts, &ts) < 0 && errno == EINTR)
			;
		return 0;
	}
	clock_gettime(CLOCK_MONOTONIC, &at);
	at.tv_sec += ms / 1000;
	at.tv_nsec += (ms % 1000) * 1000000;
	if (at.tv_nsec >= 1000000000) {
		at.tv_sec++;
		at.tv_nsec -= 1000000000;
	}
	pthread_mutex_lock(&cfg->stop->lock);
	while (!cfg->stop->set && ms > 0 && pthread_cond_timedwait(
	    &cfg->stop->cond, &cfg->stop->lock, &at) != ETIMEDOUT)
		;
	set = cfg->stop->set;
	pthread_mutex_unlock(&cfg->stop->lock);
	return set;
}

/* The rate limit: the next moment a request may start, for all threads. */
static pthread_mutex_t rate_lock = PTHREAD_MUTEX_INITIALIZER;
static int64_t rate_next_ms;

/* Wait for this request's turn; 1 when cfg->stop ended the wait. */
static int
rate_wait(const struct model_cfg *cfg)
{
	int64_t at, gap;

	if (cfg->rate <= 0)
		return 0;
	gap = (int64_t)(1000.0 / cfg->rate);
	pthread_mutex_lock(&rate_lock);
	at = mono_ms();
	if (rate_next_ms > at)
		at = rate_next_ms;
	rate_next_ms = at + gap;
	pthread_mutex_unlock(&rate_lock);
	return wait_ms_or_stop(cfg, at - mono_ms());
}

/* The integer at key of o, or -1. */
static int64_t
int_or_none(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_integer(v) ? json_integer_value(v) : -1;
}

static char *
str_or_null(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_string(v) ? xstrndup(json_string_value(v),
	    json_string_length(v)) : NULL;
}

/*
 * What a server or a command answered, made safe to keep: the one place
 * where a response is read.  Its bytes with every secret replaced
 * (secret_redact()), then, when they are JSON, every string of the tree
 * redacted again as decoded (an escaped copy, "\u0073k-...", is the key
 * once decoded).  So an answer, a refusal, a finish reason, the served
 * model, the id, an error's message and the text of a malformed body all
 * come from redacted text, and nothing a server sends reaches a record,
 * a message or a hook with the key in it.
 */
struct clean {
	char	*text;		/* the body, redacted; owned */
	size_t	 len;
	json_t	*json;		/* its tree, redacted, or NULL */
	json_error_t je;	/* why it is not JSON */
	size_t	 redacted;	/* secrets replaced, in bytes and tree */
};

/* Every string in v redacted in place, object keys too (an error body
 * is shown re-serialised, keys and all); how many secrets were
 * replaced. */
static size_t
clean_json(json_t *v)
{
	size_t n = 0, i, len, klen, count, keys = 0;
	const char *k;
	json_t *e, *copy;
	char *r;

	if (json_is_string(v)) {
		r = secret_redact(json_string_value(v), json_string_length(v),
		    &len, &count);
		if (r != NULL) {
			json_string_setn(v, r, len);
			free(r);
			n += count;
		}
	} else if (json_is_object(v)) {
		json_object_keylen_foreach(v, k, klen, e) {
			n += clean_json(e);
			r = secret_redact(k, klen, NULL, &count);
			keys += count;
			free(r);
		}
		if (keys == 0)
			return n;
		/* the keys again, into a new object (no key is added to
		 * one being walked) */
		copy = json_object();
		json_object_keylen_foreach(v, k, klen, e) {
			r = secret_redact(k, klen, &len, NULL);
			json_object_setn(copy, r != NULL ? r : k, r != NULL ?
			    len : klen, e);
			free(r);
		}
		json_object_clear(v);
		json_object_update(v, copy);
		json_decref(copy);
		n += keys;
	} else if (json_is_array(v)) {
		json_array_foreach(v, i, e)
			n += clean_json(e);
	}
	return n;
}

static void
clean_read(struct clean *c, const char *body, size_t len)
{
	size_t count;

	memset(c, 0, sizeof *c);
	c->text = secret_redact(body, len, &c->len, &count);
	if (c->text != NULL) {
		c->redacted = count;
	} else {
		c->text = xstrndup(body, len);
		c->len = len;
	}
	c->json = json_loadb(c->text, c->len, 0, &c->je);
	if (c->json != NULL)
		c->redacted += clean_json(c->json);
}

static void
clean_release(struct clean *c)
{
	free(c->text);
	json_decref(c->json);
	memset(c, 0, sizeof *c);
}

/*
 * A chat-completions response (c, read by clean_read()) into *out: every
 * choice, whose message has a content string or, refusing, a null
 * content and a refusal string; the id, the model that served it and
 * the usage; out->redacted the secrets the response held.  0, or -1 with
 * err.
 */
static int
parse_response(const struct clean *c, struct model_reply *out,
    struct err *err)
{
	json_t *o = c->json, *ch, *v, *u;
	size_t i;

	if (o == NULL || !json_is_object(o))
		return err_set(err, "malformed answer: %s", o == NULL ?
		    c->je.text : "not a JSON object");
	ch = json_object_get(o, "choices");
	if (json_array_size(ch) == 0)
		return err_set(err, "malformed answer: no choices[0].message"
		    ".content string");
	out->answers = xcalloc(json_array_size(ch), sizeof *out->answers);
	json_array_foreach(ch, i, v) {
		json_t *msg = json_object_get(v, "message");
		json_t *t = json_object_get(msg, "content");
		json_t *r = json_object_get(msg, "refusal");
		struct model_answer *a = &out->answers[out->nanswers];

		if (!json_is_string(t) && !(json_is_null(t) &&
		    json_is_string(r)))
			return err_set(err, "malformed answer: choices[%zu]"
			    ".message has no content string (and no refusal)",
			    i);
		a->text = json_is_string(t) ? xstrndup(json_string_value(t),
		    json_string_length(t)) : xstrdup("");
		a->refusal = json_is_string(t) ? NULL : str_or_null(msg,
		    "refusal");
		a->finish = str_or_null(v, "finish_reason");
		out->nanswers++;
	}
	out->id = str_or_null(o, "id");
	out->served = str_or_null(o, "model");
	u = json_object_get(o, "usage");
	out->prompt_tokens = int_or_none(u, "prompt_tokens");
	out->completion_tokens = int_or_none(u, "completion_tokens");
	out->cached_tokens = int_or_none(json_object_get(u,
	    "prompt_tokens_details"), "cached_tokens");
	out->reasoning_tokens = int_or_none(json_object_get(u,
	    "completion_tokens_details"), "reasoning_tokens");
	out->redacted = c->redacted;
	return 0;
}

/*
 * The error message of an error body (c, read by clean_read()):
 * {"error": {"message": "..."}}; else, for any other JSON, the redacted
 * tree re-serialised, never the bytes it came as (an escape there spells
 * what the tree holds decoded); else the body's redacted text.  The
 * first 200 bytes of either.
 */
static void
http_error(long status, const struct clean *c, struct err *err)
{
	json_t *m = json_object_get(json_object_get(c->json, "error"),
	    "message");
	char *dump;

	if (json_is_string(m)) {
		err_set(err, "HTTP %ld: %.300s", status, json_string_value(m));
	} else if (c->json != NULL) {
		dump = json_dumps(c->json, JSON_COMPACT | JSON_ENCODE_ANY);
		err_set(err, "HTTP %ld: %.200s", status, dump != NULL ? dump :
		    "(an error body that does not print)");
		free(dump);
	} else {
		err_set(err, "HTTP %ld: %.200s", status, c->text);
	}
}

static char *
chat_url(const char *endpoint)
{
	size_t n = strlen(endpoint);
	static const char tail[] = "/chat/completions";

	if (n >= sizeof tail - 1 && strcmp(endpoint + n - (sizeof tail - 1),
	    tail) == 0)
		return xstrdup(endpoint);
	while (n > 0 && endpoint[n - 1] == '/')
		n--;
	return xasprintf("%.*s%s", (int)n, endpoint, tail);
}

/*
 * One try over HTTP.  0 answered (out set), 1 retryable (err, *wait_ms
 * the wait the server asked for or -1), 2 the server refused the "n"
 * the body sent (HTTP 400; err), -1 final (err).
 */
static int
try_http(const struct model_cfg *cfg, const char *body, size_t len, int n,
    struct model_reply *out, long *wait_ms, struct err *err)
{
	struct http_response r;
	struct clean c;
	const char *key = cfg->key_env != NULL ? getenv(cfg->key_env) : NULL;
	char *url = chat_url(cfg->endpoint);
	long status, after_ms;
	int rc;

	*wait_ms = -1;
	rc = http_post_json(url, key, body, len, cfg->timeout_s,
	    cfg->timeout_s < 10 ? cfg->timeout_s : 10, &r, err);
	free(url);
	if (rc < 0)
		return 1;
	status = r.status;
	after_ms = r.retry_after_ms;
	clean_read(&c, r.body, r.len);
	http_response_release(&r);
	if (status == 429 || status >= 500) {
		http_error(status, &c, err);
		*wait_ms = after_ms;
		rc = 1;
	} else if (status != 200) {
		http_error(status, &c, err);
		rc = status == 400 && n > 1 ? 2 : -1;
	} else {
		rc = parse_response(&c, out, err);
	}
	clean_release(&c);
	return rc;
}

/* pipe(2) with both ends close-on-exec (the child dups what it needs). */
static int
cloexec_pipe(int fd[2])
{
	if (pipe(fd) < 0)
		return -1;
	fcntl(fd[0], F_SETFD, FD_CLOEXEC);
	fcntl(fd[1], F_SETFD, FD_CLOEXEC);
	return 0;
}

/*
 * One try of the command: body on its stdin, its stdout the answer.
 * 0 answered, -1 with err (a command is not retried: it is local).
 */
static int
try_command(const struct model_cfg *cfg, const char *body, size_t len,
    struct model_reply *out, struct err *err)
{
	int in[2], outp[2], errp[2], st = 0, rc = -1;
	struct buf o = BUF_INIT, e = BUF_INIT;
	size_t off = 0;
	int64_t deadline = mono_ms() + cfg->timeout_s * 1000;
	pid_t pid;
	char chunk[8192];

	if (cloexec_pipe(in) < 0)
		return err_set(err, "pipe: %s", strerror(errno));
	if (cloexec_pipe(outp) < 0) {
		close(in[0]);
		close(in[1]);
		return err_set(err, "pipe: %s", strerror(errno));
	}
	if (cloexec_pipe(errp) < 0) {
		close(in[0]);
		close(in[1]);
		close(outp[0]);
		close(outp[1]);
		return err_set(err, "pipe: %s", strerror(errno));
	}
	pid = fork();
	if (pid < 0) {
		err_set(err, "fork: %s", strerror(errno));
		close(in[0]);
		close(in[1]);
		close(outp[0]);
		close(outp[1]);
		close(errp[0]);
		close(errp[1]);
		return -1;
	}
	if (pid == 0) {
		dup2(in[0], 0);
		dup2(outp[1], 1);
		dup2(errp[1], 2);
		signal(SIGPIPE, SIG_DFL);
		execl("/bin/sh", "sh", "-c", cfg->command, (char *)NULL);
		_exit(127);
	}
	close(in[0]);
	close(outp[1]);
	close(errp[1]);
	fcntl(in[1], F_SETFL, O_NONBLOCK);
	if (len == 0) {
		close(in[1]);
		in[1] = -1;
	}
	for (;;) {
		struct pollfd pf[3];
		int np = 0, left = (int)(deadline - mono_ms());
		ssize_t n;

		if (outp[0] >= 0)
			pf[np++] = (struct pollfd){ outp[0], POLLIN, 0 };
		if (errp[0] >= 0)
			pf[np++] = (struct pollfd){ errp[0], POLLIN, 0 };
		if (in[1] >= 0)
			pf[np++] = (struct pollfd){ in[1], POLLOUT, 0 };
		if (outp[0] < 0 && errp[0] < 0)
			break;
		if (left <= 0) {
			kill(pid, SIGKILL);
			err_set(err, "command timed out after %ld s",
			    cfg->timeout_s);
			goto reap;
		}
		if (poll(pf, (nfds_t)np, left) < 0 && errno != EINTR) {
			kill(pid, SIGKILL);
			err_set(err, "poll: %s", strerror(errno));
			goto reap;
		}
		for (int i = 0; i < np; i++) {
			if (pf[i].revents == 0)
				continue;
			if (pf[i].fd == in[1]) {
				n = write(in[1], body + off, len - off);
				if (n > 0)
					off += (size_t)n;
				if ((n < 0 && errno != EAGAIN) || off == len) {
					close(in[1]);
					in[1] = -1;
				}
				continue;
			}
			n = read(pf[i].fd, chunk, sizeof chunk);
			if (n <= 0) {
				if (pf[i].fd == outp[0]) {
					close(outp[0]);
					outp[0] = -1;
				} else {
					close(errp[0]);
					errp[0] = -1;
				}
				continue;
			}
			if (pf[i].fd == outp[0]) {
				if (o.len + (size_t)n > MODEL_OUT_MAX) {
					kill(pid, SIGKILL);
					err_set(err, "command answered over %u"
					    " bytes", MODEL_OUT_MAX);
					goto reap;
				}
				buf_add(&o, chunk, (size_t)n);
			} else if (e.len < 4096) {
				buf_add(&e, chunk, (size_t)n);
			}
		}
	}
	rc = 0;
reap:
	if (in[1] >= 0)
		close(in[1]);
	if (outp[0] >= 0)
		close(outp[0]);
	if (errp[0] >= 0)
		close(errp[0]);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (rc == 0 && !(WIFEXITED(st) && WEXITSTATUS(st) == 0)) {
		struct clean c;
		const char *t;
		size_t tl;

		/* redacted before the tail is cut: a cut key is no match */
		clean_read(&c, e.p != NULL ? e.p : "", e.len);
		t = c.text;
		tl = c.len;
		while (tl > 0 && (t[tl - 1] == '\n' || t[tl - 1] == ' '))
			tl--;
		if (tl > 300) {
			t += tl - 300;
			tl = 300;
		}
		if (WIFEXITED(st))
			err_set(err, "command exited %d%s%.*s",
			    WEXITSTATUS(st), tl > 0 ? ": " : "", (int)tl, t);
		else
			err_set(err, "command killed by signal %d",
			    WTERMSIG(st));
		clean_release(&c);
		rc = -1;
	}
	if (rc == 0) {
		struct clean c;
		const char *s;

		clean_read(&c, o.p != NULL ? o.p : "", o.len);
		s = c.text;
		while (*s == ' ' || *s == '\n' || *s == '\t' || *s == '\r')
			s++;
		/* A response object is read as one; anything else is the
		 * answer's text, byte for byte (but for a secret). */
		if (*s != '{' || parse_response(&c, out, NULL) != 0) {
			model_reply_release(out);
			out->answers = xcalloc(1, sizeof *out->answers);
			out->answers[0].text = xstrndup(c.text, c.len);
			out->nanswers = 1;
			out->prompt_tokens = out->completion_tokens = -1;
			out->cached_tokens = out->reasoning_tokens = -1;
			/* what a tree read from them decoded counts too:
			 * the text keeps an escaped copy as it was */
			out->redacted = c.redacted;
		}
		clean_release(&c);
	}
	buf_release(&o);
	buf_release(&e);
	return rc;
}

/* err's message (a try's failure) and that the stop came before try. */
static void
cancelled_before(struct err *err, int try)
{
	char m[ERR_MSG_MAX];

	snprintf(m, sizeof m, "%s", err->msg);
	err_set(err, "%s (cancelled before try %d)", m, try);
}

int
model_chat(const struct model_cfg *cfg, json_t *messages, int n,
    struct model_reply *out, struct err *err)
{
	int64_t backoff = 1000, wait;
	long wait_ms = -1;
	int rc = -1, sent_n, attempt;
	char *body = NULL;
	size_t len = 0;

	memset(out, 0, sizeof *out);
	/* The key is a secret wherever an answer or an error shows it. */
	if (cfg->key_env != NULL)
		secret_add(getenv(cfg->key_env));
	/* A command that exits without reading its request, or a server
	 * that closes early, must be an error, not the end of assay. */
	signal(SIGPIPE, SIG_IGN);
	sent_n = n > 1 && n_allowed(cfg) ? n : 1;
	for (attempt = 1; ; attempt++) {
		int64_t t0;

		if (body == NULL) {
			json_t *req = model_request(cfg, messages, sent_n);

			body = json_dumps(req, JSON_COMPACT);
			len = strlen(body);
			json_decref(req);
		}
		/* no try after a stop, not even one the rate held back */
		if (rate_wait(cfg) || stopped(cfg)) {
			if (attempt == 1)
				err_set(err, "cancelled before it was sent");
			else
				cancelled_before(err, attempt);
			rc = -1;
			break;
		}
		t0 = mono_ms();
		model_reply_release(out);
		if (cfg->command != NULL)
			rc = try_command(cfg, body, len, out, err);
		else
			rc = try_http(cfg, body, len, sent_n, out, &wait_ms,
			    err);
		out->attempts = attempt;
		out->latency_ms = mono_ms() - t0;
		/* what a server said is told (the waiting hook) and kept
		 * (an attempt's error): never with a secret in it */
		if (rc != 0)
			secret_redact_in(err->msg, sizeof err->msg);
		if (rc == 2) {
			/* "n" refused: the same request without it, at
			 * once, and never again from this process. */
			pthread_mutex_lock(&n_lock);
			n_refused = 1;
			pthread_mutex_unlock(&n_lock);
			sent_n = 1;
			free(body);
			body = NULL;
			continue;
		}
		if (rc <= 0 || attempt > cfg->retries)
			break;
		/* a wait the server asks for is taken when it is one (a
		 * zero or a past date is none: the backoff, as the OpenAI
		 * client has it), cut to MODEL_RETRY_AFTER_MAX_MS */
		wait = wait_ms > 0 ? wait_ms : backoff;
		if (wait > MODEL_RETRY_AFTER_MAX_MS)
			wait = MODEL_RETRY_AFTER_MAX_MS;
		if (cfg->waiting != NULL && wait_ms > wait) {
			char why[ERR_MSG_MAX + 96], asked[32];

			/* http.c reads a huge one as its own cap, which is
			 * not what the server said */
			if (wait_ms > MODEL_RETRY_AFTER_DAY_MS)
				snprintf(asked, sizeof asked, "more than a day");
			else
				snprintf(asked, sizeof asked, "%.1f s",
				    (double)wait_ms / 1000.0);
			snprintf(why, sizeof why, "%s (the server asked to wait"
			    " %s; assay waits %ld s at most)", err->msg, asked,
			    MODEL_RETRY_AFTER_MAX_MS / 1000);
			cfg->waiting(cfg->waiting_arg, why, (long)wait,
			    attempt + 1);
		} else if (cfg->waiting != NULL) {
			cfg->waiting(cfg->waiting_arg, err->msg, (long)wait,
			    attempt + 1);
		}
		if (wait_ms_or_stop(cfg, wait)) {
			cancelled_before(err, attempt + 1);
			rc = -1;
			break;
		}
		if (backoff < 60000)
			backoff *= 2;
	}
	out->n_asked = sent_n;
	if (rc != 0) {
		int attempts = out->attempts;

		model_reply_release(out);
		out->attempts = attempts;
		if (attempts > 1) {
			char m[ERR_MSG_MAX];

			snprintf(m, sizeof m, "%s", err->msg);
			err_set(err, "%s (after %d tries)", m, attempts);
		}
		rc = -1;
	} else {
		out->cost_usd = model_cost(cfg, out->served,
		    out->prompt_tokens, out->cached_tokens,
		    out->completion_tokens);
	}
	free(body);
	return rc;
}

/* --- many at once ----------------------------------------------------- */

struct pool {
	const struct model_cfg	*cfg;
	json_t			**messages;
	const int		*want;
	struct model_replies	*out;
	int			*rc;
	struct err		*errs;
	size_t			 n, next, done;
	pthread_mutex_t		 lock;
	pthread_cond_t		 cond;
};

/* Conversation i until it has its answers or a request fails. */
static void
ask(struct pool *p, size_t i)
{
	struct model_replies *r = &p->out[i];

	memset(r, 0, sizeof *r);
	p->rc[i] = 0;
	while (r->answers < (size_t)p->want[i]) {
		struct model_reply one;
		int left = p->want[i] - (int)r->answers;

		if (model_chat(p->cfg, p->messages[i], left, &one,
		    &p->errs[i]) < 0) {
			p->rc[i] = -1;
			r->failed_tries = one.attempts;
			r->stopped = stopped(p->cfg);
			return;
		}
		if (one.nanswers > (size_t)left) {
			/* More than asked: the rest are not ours. */
			for (size_t k = (size_t)left; k < one.nanswers; k++) {
				free(one.answers[k].text);
				free(one.answers[k].refusal);
				free(one.answers[k].finish);
			}
			one.nanswers = (size_t)left;
		}
		r->v = xreallocarray(r->v, r->nv + 1, sizeof *r->v);
		r->v[r->nv++] = one;
		r->answers += one.nanswers;
	}
}

static void *
worker(void *arg)
{
	struct pool *p = arg;
	size_t i;

	for (;;) {
		pthread_mutex_lock(&p->lock);
		i = p->next < p->n ? p->next++ : p->n;
		pthread_mutex_unlock(&p->lock);
		if (i == p->n)
			return NULL;
		ask(p, i);
		pthread_mutex_lock(&p->lock);
		p->done++;
		pthread_cond_signal(&p->cond);
		pthread_mutex_unlock(&p->lock);
	}
}

size_t
model_chat_many(const struct model_cfg *cfg, json_t **messages,
    const int *want, size_t n, int jobs, struct model_replies *out, int *rc,
    struct err *errs, void (*progress)(size_t, size_t, void *), void *arg)
{
	struct pool p = { cfg, messages, want, out, rc, errs, n, 0, 0,
	    PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER };
	pthread_t *th;
	size_t nth = jobs < 1 ? 1 : (size_t)jobs, started = 0, seen = 0,
	    failed = 0;

	if (n == 0)
		return 0;
	if (cfg->endpoint != NULL)
		http_init(NULL);
	if (nth > n)
		nth = n;
	th = xcalloc(nth, sizeof *th);
	for (size_t i = 0; i < nth; i++)
		if (pthread_create(&th[i], NULL, worker, &p) == 0)
			started++;
	if (started == 0)	/* no thread: do them here */
		worker(&p);
	pthread_mutex_lock(&p.lock);
	while (seen < n) {
		while (p.done == seen)
			pthread_cond_wait(&p.cond, &p.lock);
		seen = p.done;
		pthread_mutex_unlock(&p.lock);
		if (progress != NULL)
			progress(seen, n, arg);
		pthread_mutex_lock(&p.lock);
	}
	pthread_mutex_unlock(&p.lock);
	for (size_t i = 0; i < nth; i++)
		if (i < started)
			pthread_join(th[i], NULL);
	free(th);
	for (size_t i = 0; i < n; i++)
		failed += rc[i] != 0;
	return failed;
}
