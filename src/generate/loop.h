/*
 * loop.h - the model in the loop as a service: rounds of ask, store,
 * verify and feed back, with the shape of the verify service
 * (verify/service.h): start, the fds to poll, step, progress through
 * hooks, cancel, the result.  `assay generate` and `assay repair` drive
 * it with a plain poll loop; the workbench's R, :repair and :generate
 * drive it from their frame loop (ADR 0039).
 *
 * One round:
 *   - ask: the batch of requests is built from the store
 *     (gen_batch_direct(), gen_batch_repair()) and asked on a thread of
 *     the service's own, which touches no store and tells the caller's
 *     loop through a pipe (the fd to poll) as answers come;
 *   - store: the answers become candidates (gen_batch_store(); a repair
 *     by the decision layer's rule, decide_repair_make(), a floor
 *     below);
 *   - verify: with opts.verify, the answered candidates are verified by
 *     a verify service (opts.vo) that the round drives in the same poll
 *     loop;
 *   - feed back (repair): an answer that is new and failed again is
 *     asked about in the next round, up to opts.rounds; an answer that
 *     repeats code already there ends its chain.
 * A store failure ends the loop (gloop_error()).  The service never
 * prints: the caller hears through hooks and shows what it likes.
 */
#ifndef ASSAY_GENERATE_LOOP_H
#define ASSAY_GENERATE_LOOP_H

#include <poll.h>
#include <stddef.h>

#include <jansson.h>

#include "base/err.h"
#include "generate/generate.h"
#include "store/store.h"
#include "verify/service.h"

struct gloop;

enum gloop_kind {
	GLOOP_GENERATE,	/* ids are tasks: direct candidates */
	GLOOP_REPAIR,	/* ids are failed candidates to repair */
	GLOOP_OPTIMIZE	/* ids are passing candidates to optimise: one
			 * round; each verified answer's gain over its
			 * parent is measured and stored (optimize.h) */
};

struct gloop_opts {
	enum gloop_kind	 kind;
	int		 samples;	/* generate: answers per task, >= 1 */
	int		 rounds;	/* repair: rounds at most, >= 1 */
	int		 jobs;		/* requests at once, >= 1 */
	int		 verify;	/* verify each round's answers */
	struct vsvc_opts vo;		/* how (its hooks: gloop_hooks) */
	double		 min_gain;	/* optimize: the threshold, unless
					 * the task's env_params says */
	const char	*min_gain_from;	/* where it was set ("--min-gain",
					 * "config", "default") */
};

/* What the caller hears, each optional; called from gloop_start() and
 * gloop_step() on the caller's thread. */
struct gloop_hooks {
	/* repair: the request for a repair of cand_id (round round of its
	 * chain) goes now; its conversation ends with feedback */
	void	(*asking)(void *arg, const char *cand_id, int round,
		    const char *feedback);
	/* a request waits wait_ms to try again (try next_try) after why
	 * ("HTTP 429: ..."): the server is slow to answer, not stuck */
	void	(*waiting)(void *arg, const char *why, long wait_ms,
		    int next_try);
	/* done of the round's n requests have an answer */
	void	(*answered)(void *arg, size_t done, size_t n);
	/* the round's answers are stored: rep says which and what failed */
	void	(*stored)(void *arg, int round, const struct gen_report *rep);
	/* the round's answers are verified: passed of rep->ids pass now;
	 * vs the verify service's summary */
	void	(*verified)(void *arg, int round, const struct gen_report *rep,
		    size_t passed, const struct vsvc_summary *vs);
	/* optimize: the gain of answer cand_id over its parent, measured
	 * and stored (opt_record()'s record), before verified */
	void	(*measured)(void *arg, const char *cand_id,
		    const json_t *gain);
	/* the verify service's own hooks (its arg is this arg) */
	struct vsvc_hooks verify;
	void	*arg;
};

/*
 * A loop over ids[0..n) (copied): tasks (GLOOP_GENERATE) or the failed
 * candidates to repair (GLOOP_REPAIR; gen_repair_leaf() picks them).
 * g is copied; what it points to (store, cfg, by) is borrowed and must
 * outlive the service.  Nothing is asked yet.  *out is new; free with
 * gloop_free().  0, or -1 with err.
 */
int	gloop_new(struct gloop **out, const struct gen_ctx *g,
	    const struct gloop_opts *o, const struct gloop_hooks *h,
	    char *const *ids, size_t n, struct err *err);

/* Start the first round.  1 when the loop is already over, else 0. */
int	gloop_start(struct gloop *l);

/* The fds to poll for input (the asking thread's pipe, or the verify
 * service's jobs); *fds points into the service, valid until the next
 * call into it.  Returns how many. */
size_t	gloop_pollfds(struct gloop *l, struct pollfd **fds);

/* Milliseconds the caller may wait in poll() at most (0 .. 1000). */
int	gloop_timeout_ms(const struct gloop *l);

/* Advance without blocking (after poll() returned or timed out).
 * Returns 1 when the loop is over, 0 while it runs. */
int	gloop_step(struct gloop *l);

/* Stop after what runs now: a wait to retry (a 429's Retry-After) ends
 * at once and no try is sent after it; answers to tries already sent
 * still come and are stored; nothing more is asked (the conversations
 * not yet sent count as cancelled, not failed); a running verification
 * is cancelled. */
void	gloop_cancel(struct gloop *l);

/* The round running or last run (1 ...), the sums over the rounds
 * (asked, added, duplicates, failed, tokens; no ids), and the reason a
 * store failure ended it (NULL: none).  Borrowed. */
int	gloop_round(const struct gloop *l);
const struct gen_report *gloop_total(const struct gloop *l);
const char *gloop_error(const struct gloop *l);
/* Candidates a verification could not load or start, over the rounds. */
size_t	gloop_verify_errors(const struct gloop *l);

/*
 * Free l.  A request still being asked is left to its thread, which
 * frees what it holds when its answer comes (the caller's model_cfg is
 * copied for it).  NULL is fine.
 */
void	gloop_free(struct gloop *l);

/*
 * What to repair of the failed candidate row (a repair of its own:
 * verdict fail or timeout, and its task's reference, when there is one,
 * passes): following the repairs made by origin (the model's name) to
 * the newest one, which must have failed too.  *leaf is that id (new
 * string), or NULL when there is nothing to repair.  0, or -1 with err.
 */
int	gen_repair_leaf(struct store *st, const char *origin,
	    const struct store_row *row, char **leaf, struct err *err);
/*
 * The same, following only the repairs whose request carried feedback
 * level ("rich" or "minimal"; a generation record without one is rich;
 * NULL: any): `repair --feedback minimal` and `--feedback rich` by one
 * model each start from the failed candidate, so that the two levels
 * compare on the same tasks and rounds (stats --generation --by
 * feedback).
 */
int	gen_repair_leaf_level(struct store *st, const char *origin,
	    const char *level, const struct store_row *row, char **leaf,
	    struct err *err);

/* The words the commands and the workbench show (new strings; model
 * text made safe for a terminal, lines kept):
 *   gloop_request_text: "--- asking MODEL to repair ID (round R) ---"
 *     and the feedback;
 *   gloop_answer_text: "--- answer: ID, repair of PARENT ---" and the
 *     code of rep's i-th answer, PARENT the candidate it was asked for
 *     (NULL when it cannot be read);
 *   gloop_summary_text: "VERB round R: asked 3, stored 2 new, 1 failed;
 *     T+T tokens; 1 retried ..." (round 0: "VERB: ..."). */
char	*gloop_request_text(const char *model, const char *cand_id,
	    int round, const char *feedback);
char	*gloop_answer_text(struct store *st, const struct gen_report *rep,
	    size_t i);
char	*gloop_summary_text(const char *verb, const struct gen_report *rep,
	    int round);

#endif
