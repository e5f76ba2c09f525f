/*
 * model.h - the generator: any model endpoint that answers a chat.
 *
 * A generator is either an OpenAI-compatible chat-completions endpoint
 * (POST {"model", "messages", "temperature", "max_tokens"} to
 * .../chat/completions; the answer is choices[0].message.content and
 * usage.prompt_tokens / completion_tokens, as the OpenAI API reference
 * and llama.cpp's and vLLM's servers define them) or a command run with
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
 * Requests are retried with exponential backoff (1 s, 2 s, 4 s ... or
 * the server's Retry-After) on HTTP 429 and 5xx and on transport
 * errors, up to cfg->retries times; the rate limit spaces the starts of
 * requests at least 1/rate seconds apart across every thread.
 */
#ifndef ASSAY_MODEL_H
#define ASSAY_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "base/err.h"

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
};

/* Defaults: no generator, temperature unset, 120 s, 4 retries. */
void	model_cfg_init(struct model_cfg *cfg);
void	model_cfg_release(struct model_cfg *cfg);	/* NULL-safe */

/*
 * One line of the config file that starts with "generator" (config.h):
 *	generator endpoint http://127.0.0.1:8080/v1
 *	generator model qwen2.5-coder-7b
 *	generator api-key-env OPENAI_API_KEY
 *	generator command llama-cli -m model.gguf --json
 *	generator temperature 0.2 | max-tokens N | timeout S | retries N | rate R
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

/* One answer. */
struct model_reply {
	char	*text;		/* the answer, exactly as given (owned) */
	char	*finish;	/* finish_reason, or NULL */
	int64_t	 prompt_tokens, completion_tokens;	/* -1: not reported */
	int64_t	 latency_ms;	/* of the try that answered */
	int	 attempts;	/* tries made, >= 1 */
	size_t	 redacted;	/* secrets replaced in text and finish:
				 * the answer must not be kept */
};

void	model_reply_release(struct model_reply *r);	/* NULL-safe */

/*
 * The request body for messages (a JSON array of {"role","content"},
 * borrowed): {"model", "messages", "temperature"?, "max_tokens"?}.
 * New reference.
 */
json_t	*model_request(const struct model_cfg *cfg, json_t *messages);

/*
 * Ask the generator once (with retries).  0 with *out, or -1 with err:
 * "HTTP 400: <message>", "timed out after 120 s", "malformed answer:
 * no choices[0].message.content", "command exited 3: <stderr tail>".
 * Secrets are redacted in out's text and finish reason and in err.
 * Thread-safe after http_init().  Sets SIGPIPE to be ignored (a
 * command that exits without reading its request is an error, not a
 * signal).
 */
int	model_chat(const struct model_cfg *cfg, json_t *messages,
	    struct model_reply *out, struct err *err);

/*
 * Ask n conversations, at most jobs (>= 1) at a time on worker threads.
 * rc[i] is 0 with out[i] set, or -1 with errs[i].  progress, when not
 * NULL, is called on the calling thread after each answer with the
 * number done so far.  Returns the number that failed.
 */
size_t	model_chat_many(const struct model_cfg *cfg, json_t **messages,
	    size_t n, int jobs, struct model_reply *out, int *rc,
	    struct err *errs, void (*progress)(size_t done, size_t n, void *),
	    void *arg);

#endif
