/*
 * generate.h - the model in the loop: ask a generator (model.h) for
 * candidates of tasks and for repairs of failed candidates, and store
 * each answer as a candidate with the request that produced it.
 *
 * The prompts are the SFT export's (export.h): a direct candidate is
 * asked with the system turn and the task's requirement; a repair with
 * the whole conversation of its chain so far, as the export writes a
 * trajectory: requirement, the first code, its feedback, each repair
 * and its feedback, up to the failed candidate being repaired.
 *
 * An answer becomes a candidate exactly as given (an answer wrapped in
 * prose or markdown fences is then a `format` failure when verified):
 * origin the model's name, kind `direct` or `repair` (parent the
 * failed candidate), and under extra.generation the model, the
 * generator (endpoint URL without credentials or query, or "command"),
 * the parameters, the request's messages, the raw answer, finish
 * reason, the model that served it, the response's id and the choice,
 * token usage (cached and reasoning tokens where reported) and its cost
 * from the price table, latency, tries, the repair round and the time.
 * A response of n choices is one request: its usage and cost go on the
 * record of its first answer stored as a new candidate, so that a sum
 * over records counts each request once.  The API key is in none of
 * it.  A request that fails makes no candidate, and neither does an
 * empty answer (a reasoning model that spent its tokens before
 * answering: finish_reason "length"), which is counted as failed.  A
 * refusal (content null, message.refusal set) is a candidate with no
 * code and the refusal under extra.generation.refusal: verified, it
 * fails as a `format` failure, subcategory `refusal` (triage.h).  A direct answer is stored here and journalled as
 * "generate" by the person who ran the command.  A repair answer is
 * stored by the decision layer's one rule for every repair
 * (decide/decide.h, decide_repair_make(), a floor below this one):
 * journalled as "repair" by that person, and an answer that hands back
 * the failed candidate's own code is no repair (counted as the same
 * code; its chain ends).
 * Verification is the caller's: the report lists the candidates to
 * verify.
 */
#ifndef ASSAY_GENERATE_H
#define ASSAY_GENERATE_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "base/err.h"
#include "generate/model.h"
#include "model/sample.h"
#include "store/store.h"

/*
 * How a direct candidate is asked (ADR 0045): the strategy, and the
 * prompt template it renders (template.h; NULL: the strategy's name,
 * looked up as templates/<domain>/NAME, else templates/common/NAME).
 *   GEN_DIRECT  the SFT export's prompt (template "direct");
 *   GEN_PERTURB the template's @choose blocks drawn from seed, the task
 *               and the sample, so that each sample is asked in its
 *               own words (one request a sample);
 *   GEN_MIGRATE code in language `from` that passes the task (its
 *               candidate, or its reference file) shown, and the task
 *               asked in language `to` (NULL: the task's own language,
 *               or for verilog the migration pair: systemverilog).
 * Every answer records the strategy, the template (name, where read,
 * SHA-256 prefix, the choices drawn, the seed) and, for migrate, the
 * source under extra.generation.
 */
enum gen_strategy_kind {
	GEN_DIRECT,
	GEN_PERTURB,
	GEN_MIGRATE
};

struct gen_strategy {
	enum gen_strategy_kind	 kind;
	const char		*template;	/* or NULL */
	uint64_t		 seed;
	const char		*from, *to;	/* migrate */
};

/* "direct", "perturb", "migrate"; 0 or -1 with err for another name. */
const char *gen_strategy_name(enum gen_strategy_kind k);
int	gen_strategy_parse(const char *name, enum gen_strategy_kind *out,
	    struct err *err);

/*
 * The code a migration of task_id starts from: the first candidate of
 * the task in language from whose latest run passes, else the task's
 * file of role reference or source (task new's) written in from (by its
 * suffix: .c, .cu, .v, .sv, .py, .s).  *code (new string) and *what (new reference:
 * {"lang", "candidate" | "file"}); 0 found, 1 none, -1 with err.
 */
int	gen_migrate_source(struct store *st, const char *task_id,
	    const char *from, char **code, json_t **what, struct err *err);

/* 1 when lang is one a migration can start from (c, cuda, verilog,
 * systemverilog, python, asm), else 0. */
int	gen_migrate_lang_known(const char *lang);

/* The language a migration from `from` writes in, for a task in
 * task_lang (to: asked for, or NULL).  Borrowed, or NULL when from and
 * the target are the same language. */
const char *gen_migrate_target(const char *from, const char *task_lang,
	    const char *to);

struct gen_ctx {
	struct store		*st;
	const struct model_cfg	*cfg;
	const char		*by;	/* who runs it, for the journal */
	/* direct candidates: how they are asked; NULL: GEN_DIRECT */
	const struct gen_strategy *strategy;
};

struct gen_report {
	char	**ids;		/* answered candidates (new or existing) */
	int	 *is_new;	/* per id: 1 new, 0 the same code as before */
	char	**asked_for;	/* per id: the candidate whose repair was
				 * asked (NULL: a direct one); an answer
				 * that repeats code already there is a
				 * candidate with a parent of its own */
	size_t	  nids;
	size_t	  asked, added, duplicates, failed;
	char	  first_error[ERR_MSG_MAX];	/* of the first failed request */
	char	**errors;	/* each failed request: "TASK[ (repair of ID)]: why" */
	int64_t	  prompt_tokens, completion_tokens;	/* reported sums */
	int64_t	  cached_tokens, reasoning_tokens;	/* reported sums */
	double	  cost_usd;	/* sum over priced responses */
	size_t	  priced;	/* responses with a cost */
	size_t	  responses;	/* responses received */
	size_t	  requests;	/* requests sent: the responses, and each
				 * request that failed after its tries
				 * (an HTTP 400, a timeout, ...) */
	size_t	  cancelled;	/* answers not asked: the run was cancelled
				 * before their request was sent (neither
				 * failed nor an attempt) */
	size_t	  refusals;	/* answers that were refusals */
	size_t	  retried;	/* responses that took more than one try */
	size_t	  retries;	/* waits to try again, over every request
				 * (those that failed in the end too) */
	int64_t	  latency_ms;	/* sum over answered requests */
};

void	gen_report_release(struct gen_report *r);	/* NULL-safe */

/*
 * A batch of requests to the generator, in three steps, so that a
 * caller can wait for the answers without waiting on them (the round
 * loop, loop.h, asks on a thread of its own and polls):
 *   - built from the store: gen_batch_direct() asks for samples (>= 1)
 *     direct candidates of each of the n tasks, gen_batch_repair() for a
 *     repair of each of the n failed candidates (their conversations so
 *     far, gen_repair_messages());
 *   - asked: gen_batch_ask() sends every request, at most jobs at once,
 *     and touches no store (any thread; progress as model_chat_many());
 *     returns how many failed;
 *   - stored: gen_batch_store() makes each answer a candidate (a direct
 *     one stored and journalled as "generate" by g->by, a repair by
 *     decide_repair_make()) and counts into rep, each sample recorded as
 *     an attempt (store_attempt_add()); a failed request, an answer
 *     that holds the API key and an empty answer make none and are
 *     counted as failed, with their reasons.  With g->cfg->use_n a
 *     direct batch asks each task's samples in one request.
 * Building and storing return 0, or -1 with err when the store fails;
 * *out is new (gen_batch_free(), NULL-safe).
 */
struct gen_batch;
int	gen_batch_direct(struct gen_ctx *g, char *const *task_ids, size_t n,
	    int samples, struct gen_batch **out, struct err *err);
int	gen_batch_repair(struct gen_ctx *g, char *const *cand_ids, size_t n,
	    struct gen_batch **out, struct err *err);
/*
 * gen_batch_optimize(): a faster or smaller version of each of the n
 * candidates (which should pass; the caller picks them), asked with the
 * template "optimize" (g->strategy->template when set) and what the
 * task's env measures (optimize.h).  An answer is stored as a candidate
 * of kind `optimization` whose parent is the candidate asked about,
 * journalled as "optimize" by g->by; an answer that is the parent's own
 * code is no optimisation (counted as the same code, nothing stored).
 */
int	gen_batch_optimize(struct gen_ctx *g, char *const *cand_ids,
	    size_t n, struct gen_batch **out, struct err *err);
size_t	gen_batch_ask(const struct model_cfg *cfg, int jobs,
	    struct gen_batch *b, void (*progress)(size_t done, size_t n,
	    void *arg), void *arg);
int	gen_batch_store(struct gen_ctx *g, struct gen_batch *b,
	    struct gen_report *rep, struct err *err);
void	gen_batch_free(struct gen_batch *b);
/* Its requests: how many, and of the i-th (< size) the candidate to
 * repair (NULL: a direct one), the round and the feedback its
 * conversation ends with (strings borrowed from the batch). */
size_t	gen_batch_size(const struct gen_batch *b);
void	gen_batch_request(const struct gen_batch *b, size_t i,
	    const char **parent, int *round, const char **feedback);

/*
 * The conversation that asks for a repair of cand_id: system,
 * requirement, then for each candidate of its chain from the first
 * (following parents of `repair` candidates) its code as an assistant
 * turn and its feedback as a user turn (minimal: without the runs'
 * feedback members, export_feedback()).  *round is the round this
 * repair would be (1 for a repair of a direct candidate).  New
 * reference, or NULL with err.
 */
json_t	*gen_repair_messages(struct store *st, const char *cand_id,
	    int minimal, int *round, struct err *err);

/* --- what the models did (stats --generation) ------------------------ */

#define GEN_ROUNDS_MAX 8	/* rounds counted apart; later ones in the last */

/* One model's figures (or one strategy's: gen_stats_by). */
struct gen_stat {
	char	*model;			/* owned: the model, or the strategy */
	char	*feedback;		/* by feedback: what the requests
					 * carried, "rich", "minimal", "none"
					 * (direct samples) or "-" (a repair
					 * with no record of it); else NULL.
					 * Owned */
	size_t	 generated, passed;	/* direct samples (every answer,
					 * the same code twice counts
					 * twice), and passing */
	size_t	 tasks;			/* tasks it generated for */
	double	 pass1;			/* mean over tasks of pass@1 */
	int	 k;			/* the k of passk: the fewest samples
					 * of a task, when > 1; else 0 */
	double	 passk;			/* mean over tasks of pass@k */
	size_t	 tried[GEN_ROUNDS_MAX], fixed[GEN_ROUNDS_MAX];
					/* repair answers of round r+1,
					 * passing */
	int64_t	 prompt_tokens, completion_tokens;	/* reported sums */
	int64_t	 latency_ms;		/* sum over its candidates */
	size_t	 requests;		/* requests sent: every answer and
					 * every request that got none */
	size_t	 failed;		/* requests that got no answer */
	size_t	 optimized, opt_passed;	/* optimisation answers, passing */
};

/* What gen_stats() groups by: the model, or the strategy each answer
 * was asked with (extra.generation.strategy of the candidate it is;
 * "direct" for a record without one, "repair" and "optimize" for
 * those requests, "-" for a request that got no answer). */
enum gen_stats_by {
	GEN_BY_MODEL,
	GEN_BY_STRATEGY,
	GEN_BY_FEEDBACK	/* by model and feedback level (gen_stat.feedback) */
};

/*
 * Per model, the figures of its samples (store_attempt_each: every
 * answer it gave, an answer whose code was already a candidate counted
 * again) among the candidates filter matches (NULL: all, and the failed
 * requests too): pass rate, pass@1 and pass@k with the unbiased
 * estimator of Chen et al. 2021 (1 - C(n-c, k) / C(n, k) per task over
 * the n samples drawn, c of them passing, averaged), repairs tried and
 * passing per round, tokens and time.  A sample counts by the latest
 * verdict of the candidate its code is.  GEN_BY_FEEDBACK: one row per model
 * and feedback level (gen_stat.feedback), so that repairs asked with rich
 * and with minimal feedback are counted apart; the direct samples and
 * pass@k are on the "none" row.  *out is a new array of *n sorted by
 * model (then feedback); free with gen_stats_release.  0 or -1.
 */
int	gen_stats(struct store *st, const char *filter, enum gen_stats_by by,
	    struct gen_stat **out, size_t *n, struct err *err);
void	gen_stats_release(struct gen_stat *v, size_t n);

/* pass@k for n samples of which c pass (0 <= c <= n, 1 <= k <= n). */
double	gen_pass_at_k(size_t n, size_t c, size_t k);

#endif
