/*
 * agreement.h - the people side of the error analysis: how far two
 * reviewers agree on the failure categories (Cohen's kappa over a 5x5
 * confusion matrix) and how fast each one decides (decisions per hour
 * from the journal's timestamps).  Plain arithmetic over counts and
 * times; store.c gathers them (store_agreement, store_throughput).
 *
 * Cohen's kappa follows Cohen (1960), "A coefficient of agreement for
 * nominal scales": with n items both reviewers labelled, the observed
 * agreement po = sum(m[i][i]) / n, the agreement expected by chance
 * pe = sum(row_i * col_i) / n^2, and kappa = (po - pe) / (1 - pe).
 *
 * Throughput counts each decision's time as the pause since the same
 * reviewer's previous decision.  A pause longer than AGREEMENT_IDLE_S is
 * a break: the decision after it counts as a decision but not in the
 * rate, nor does the first one.  So decisions per hour is the timed
 * decisions over the sum of their pauses.
 *
 * Called by store.c, the CLI (stats --agreement, --reviewers), the stats
 * sheet and tests.
 */
#ifndef ASSAY_AGREEMENT_H
#define ASSAY_AGREEMENT_H

#include <stddef.h>
#include <stdint.h>

#include "model/vocab.h"

#define AGREEMENT_NCAT		CATEGORY_N	/* vocab.h, key order */
#define AGREEMENT_IDLE_S	300	/* a longer pause is a break */

/* Two reviewers' labels on the candidates both labelled. */
struct agreement_pair {
	char	*a, *b;		/* owned reviewer names, a < b */
	size_t	 m[AGREEMENT_NCAT][AGREEMENT_NCAT];	/* a said i, b j */
	/* filled by agreement_kappa(): */
	size_t	 n;		/* candidates both labelled */
	size_t	 agree;		/* of which the same category */
	double	 po, pe;	/* observed and chance agreement, 0..1 */
	double	 kappa;		/* NAN when pe is 1 (one category only) */
};
void	agreement_pair_release(struct agreement_pair *p);	/* NULL-safe */

/* Compute n, agree, po, pe and kappa from p->m (all 0 when n is 0,
 * kappa then NAN). */
void	agreement_kappa(struct agreement_pair *p);

/* One reviewer's decisions in time. */
struct agreement_rate {
	char	*who;		/* owned */
	size_t	 decisions;	/* every one */
	size_t	 timed;		/* made within the idle limit of the last */
	int64_t	 active_s;	/* the sum of those pauses, seconds */
	int64_t	 first, last;	/* times of the first and last, Unix s */
};
void	agreement_rate_release(struct agreement_rate *r);	/* NULL-safe */

/* Count a decision made at time at (Unix seconds); times come in
 * ascending order. */
void	agreement_rate_add(struct agreement_rate *r, int64_t at);

/* Timed decisions per hour of active time; -1 when nothing was timed
 * (a single decision, or all in one second). */
double	agreement_rate_per_hour(const struct agreement_rate *r);

#endif
