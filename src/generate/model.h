/*
 * model.h - the generator: any model endpoint that answers a chat.
 *
 * A generator is either an OpenAI-compatible chat-completions endpoint
 * (POST {"model", "messages", "temperature", "max_tokens" or
 * "max_completion_tokens", "n"} to .../chat/completions; each answer is
 * choices[i].message.content, or its refusal, and usage.prompt_tokens /
 * completion_tokens with their details, as the OpenAI API reference and
 * llama.cpp's and vLLM's servers define them) or a command run with
 * `sh -c` that reads the same request JSON on its standard input and
 * writes the answer on its standard output: either such a response
 * object, or the answer's text itself.
 *
 * The API key is read from the environment variable the configuration
 * names, at the moment of each request, and is sent in the
 * Authorization header only: no struct here holds it, so nothing that
 * stores a request or a reply can store it.  Its value is a secret
 * (base/secret.h): an answer or an error message that holds it (an
 * endpoint that echoes its request) comes back with it redacted, and
 * the reply says how often (model_reply.redacted).
 *
 * Every string a response brings (the answers, a refusal, a finish
 * reason, the served model, the id, an error's message, the text of a
 * malformed body, a command's output and its standard error) is read
 * through one function that redacts the secrets first, from the bytes
 * and from the decoded JSON strings; the reply counts them
 * (model_reply.redacted), and an answer of a response that held one is
 * not to be kept.
 *
 * Requests are retried with exponential backoff (1 s, 2 s, 4 s ... or
 * the wait the server asks for: retry-after-ms, else Retry-After, cut to
 * MODEL_RETRY_AFTER_MAX_MS; a zero or a past date asks for none, and the
 * backoff is waited) on HTTP 429 and 5xx and on transport
 * errors, up to cfg->retries times; the rate limit spaces the starts of
 * requests at least 1/rate seconds apart across every thread.  A stop
 * (cfg->stop, struct model_stop) ends those waits at once and sends no
 * try after it.
 *
 * Several samples of one conversation are asked in one request with
 * "n" (cfg->use_n): a server that answers with fewer choices (one that
 * ignores n) is asked again for the rest, and one that refuses n with
 * HTTP 400 (llama.cpp's server: "Only one completion choice is
 * allowed") is asked the same request without it, and for the rest of
 * the process never with it again.
 */
#ifndef ASSAY_MODEL_H
#define ASSAY_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include <pthread.h>

#include <jansson.h>

#include "base/err.h"

/*
 * The longest wait to retry that a server may ask for (retry-after-ms,
 * Retry-After): a longer one is cut to this, and the waiting hook's why
 * says so.  60 s: the most the OpenAI Python client honours
 * (openai-python, src/openai/_base_client.py, _calculate_retry_timeout:
 * a Retry-After of 0 < s <= 60 is waited; ADR 0064).
 */
#define MODEL_RETRY_AFTER_MAX_MS	60000L

/* A server's wait longer than this, ms, is told as "more than a day"
 * (http.c reads a huge one as its own cap, not as asked). */
#define MODEL_RETRY_AFTER_DAY_MS	86400000L

/*
 * A stop for the requests made with a model_cfg (cfg->stop): set from
 * any thread (not from a signal handler: it takes a mutex), it ends at
 * once every wait to retry and every wait of the rate limit, and no try
 * is sent after it; a try already sent runs to its answer or its
 * timeout.  Initialise before use, destroy when no request uses it.
 */
struct model_stop {
	pthread_mutex_t	 lock;
	pthread_cond_t	 cond;		/* on CLOCK_MONOTONIC */
	int		 set;
};

void	model_stop_init(struct model_stop *s);
void	model_stop_set(struct model_stop *s);		/* idempotent */
int	model_stop_isset(struct model_stop *s);		/* 1 once set */
void	model_stop_destroy(struct model_stop *s);

struct model_cfg {
	char	*endpoint;	/* base URL or .../chat/completions, or NULL */
	char	*command;	/* shell command, or NULL (one of the two) */
	char	*model;		/* model name sent and stored as the origin */
	char	*key_env;	/* name of the variable holding the API key */
	double	 temperature;	/* >= 0; < 0: not sent (the server's default) */
	long	 max_tokens;	/* > 0, or 0: not sent */
	long	 timeout_s;	/* per request, default 120 */
	int	 retries;	/* extra tries on 429/5xx/transport, default 4 */
	double	 rate;		/* requests started per second; 0: no limit */
	int	 completion_tokens_param;	/* 1: send the limit as
				 * max_completion_tokens (the OpenAI API's
				 * name; max_tokens is deprecated there and
				 * refused by its reasoning models), 0:
				 * max_tokens (the default: llama.cpp, vLLM
				 * and older servers read it) */
	int	 use_n;		/* ask K samples in one request ("n"),
				 * default 1 */
	int	 feedback_minimal;	/* repair requests carry the old
				 * feedback text without the feedback
				 * members (counterexample, waveform,
				 * bottleneck, hot lines): "generator
				 * feedback minimal"; 0: rich, the
				 * default */
	struct model_price *prices;	/* the price table, nprices rows */
	size_t	 nprices;
	/* Called on the asking thread before each wait to retry (HTTP 429,
	 * 5xx, the network): why (the failure, "HTTP 429: ..."), the wait
	 * in ms and the try that follows (2 ...); NULL: nobody hears.
	 * waiting_arg is its argument, borrowed. */
	void	(*waiting)(void *arg, const char *why, long wait_ms,
		    int next_try);
	void	*waiting_arg;
	struct model_stop *stop;	/* borrowed; NULL: never stopped */
	double	 min_gain;	/* `assay optimize`: the gain an optimisation
				 * must clear (before / after), unless the
				 * task's env_params.min_gain says; 0: the
				 * default (optimize.h) */
};

/* One row of the price table: US dollars per million tokens. */
struct model_price {
	char	*model;		/* a served or requested model name, exact */
	double	 input;		/* prompt tokens not read from a cache */
	double	 cached;	/* prompt tokens read from the cache */
	double	 output;	/* completion tokens (reasoning included) */
};

/* Defaults: no generator, temperature unset, 120 s, 4 retries, n used,
 * max_tokens, no prices. */
void	model_cfg_init(struct model_cfg *cfg);
void	model_cfg_release(struct model_cfg *cfg);	/* NULL-safe */
/* dst becomes a copy of src with strings of its own (release it). */
void	model_cfg_copy(struct model_cfg *dst, const struct model_cfg *src);

/*
 * One line of the config file that starts with "generator" (config.h):
 *	generator endpoint http://127.0.0.1:8080/v1
 *	generator model qwen2.5-coder-7b
 *	generator api-key-env OPENAI_API_KEY
 *	generator command llama-cli -m model.gguf --json
 *	generator temperature 0.2 | max-tokens N | timeout S | retries N | rate R
 *	generator max-tokens-param max_completion_tokens | max_tokens
 *	generator n on | off
 *	generator feedback rich | minimal   (what a repair request carries)
 *	generator price MODEL INPUT CACHED OUTPUT   (USD per 1M tokens;
 *	                                            one line per model)
 * The value is the rest of the line.  Lines that do not start with
 * "generator" are ignored (0).  0, or -1 with err.
 */
int	model_cfg_line(struct model_cfg *cfg, const char *line,
	    struct err *err);

/*
 * Read the generator lines of the config file at path (missing: fine).
 * A bad line is "path:LINE: what".  0 or -1.
 */
int	model_cfg_load(struct model_cfg *cfg, const char *path,
	    struct err *err);

/*
 * Is cfg usable: exactly one of endpoint and command; a model name with
 * an endpoint, which becomes its candidates' origin and must pass
 * ident_check_label(); the key variable set in the environment when
 * named, whose value then becomes a secret (secret_add()), so that the
 * runs this process makes are redacted too.
 * 0, or -1 with err saying what to add.
 */
int	model_cfg_check(const struct model_cfg *cfg, struct err *err);

/* The name stored as a generated candidate's origin: cfg->model, else
 * the command's first word without its directory.  Borrowed or static. */
const char *model_name(const struct model_cfg *cfg, char *buf, size_t n);

/* One answer of a reply (one choice of a chat-completions response). */
struct model_answer {
	char	*text;		/* the content, exactly as given; "" for a
				 * refusal (owned) */
	char	*refusal;	/* message.refusal when the model refused
				 * (content null), else NULL (owned) */
	char	*finish;	/* finish_reason, or NULL (owned) */
};

/* One response: its answers, what served it, what it cost. */
struct model_reply {
	struct model_answer *answers;	/* nanswers >= 1 on success */
	size_t	 nanswers;
	char	*id;		/* the response's id, or NULL */
	char	*served;	/* the model that served it (its "model"),
				 * or NULL */
	int64_t	 prompt_tokens, completion_tokens;	/* -1: not reported */
	int64_t	 cached_tokens;		/* usage.prompt_tokens_details.
					 * cached_tokens, -1: not reported */
	int64_t	 reasoning_tokens;	/* usage.completion_tokens_details.
					 * reasoning_tokens, -1: not reported */
	double	 cost_usd;	/* from the price table, -1: no price for
				 * the model or no usage */
	int	 n_asked;	/* the n sent (1: none) */
	int64_t	 latency_ms;	/* of the try that answered */
	int	 attempts;	/* tries made, >= 1 */
	size_t	 redacted;	/* secrets replaced anywhere in the
				 * response (answers, refusal, finish, id,
				 * served model, any other string): its
				 * answers must not be kept */
};

void	model_reply_release(struct model_reply *r);	/* NULL-safe */

/*
 * The cost in US dollars of prompt tokens (cached of them from the
 * cache; < 0: none) and completion tokens, at the price-table row of
 * served, else of cfg->model (exact names; either may be NULL); -1
 * when neither has a row or a count is missing (< 0).
 */
double	model_cost(const struct model_cfg *cfg, const char *served,
	    int64_t prompt, int64_t cached, int64_t completion);

/*
 * The request body for messages (a JSON array of {"role","content"},
 * borrowed): {"model", "messages", "temperature"?, "max_tokens" or
 * "max_completion_tokens"?, "n"? (when n > 1)}.  New reference.
 */
json_t	*model_request(const struct model_cfg *cfg, json_t *messages, int n);

/*
 * Ask the generator once (with retries) for n >= 1 answers: n is sent
 * when n > 1, cfg->use_n is set and the server has not refused it; the
 * reply may hold fewer (or, from a server that ignores n, one).  0 with
 * *out, or -1 with err: "HTTP 400: <message>", "timed out after 120 s",
 * "malformed answer: no choices[0].message.content", "command exited 3:
 * <stderr tail>", "cancelled before it was sent" (cfg->stop; then
 * out->attempts is 0), "HTTP 429: ... (cancelled before try 2)".
 * Secrets are redacted in every string of out, in err and in the why
 * handed to cfg->waiting.
 * Thread-safe after http_init().  Sets SIGPIPE to be ignored (a command
 * that exits without reading its request is an error, not a signal).
 */
int	model_chat(const struct model_cfg *cfg, json_t *messages, int n,
	    struct model_reply *out, struct err *err);

/* What one conversation of model_chat_many() got: its responses. */
struct model_replies {
	struct model_reply *v;	/* nv responses, in the order made */
	size_t	 nv;
	size_t	 answers;	/* answers in all of them */
	int	 failed_tries;	/* the tries of the request that failed
				 * (rc -1), >= 1; 0: none failed, or the
				 * conversation was stopped before its next
				 * request was sent */
	int	 stopped;	/* cfg->stop ended it before it had its
				 * answers */
};

void	model_replies_release(struct model_replies *r);	/* NULL-safe */

/*
 * Ask n conversations for want[i] >= 1 answers each, at most jobs (>= 1)
 * conversations at a time on worker threads: a conversation is asked
 * again for the answers its replies lacked until it has want[i] or a
 * request fails.  out[i] holds the responses got (even when a later one
 * failed), rc[i] is 0 when out[i] has want[i] answers, else -1 with
 * errs[i].  progress, when not NULL, is called on the calling thread
 * after each conversation with the number done so far.  Returns the
 * number that failed.
 */
size_t	model_chat_many(const struct model_cfg *cfg, json_t **messages,
	    const int *want, size_t n, int jobs, struct model_replies *out,
	    int *rc, struct err *errs,
	    void (*progress)(size_t done, size_t n, void *), void *arg);

#endif
