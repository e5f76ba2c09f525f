/*
 * agreement.c - Cohen's kappa and decisions per hour; see agreement.h.
 */
#include "model/agreement.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void
agreement_pair_release(struct agreement_pair *p)
{
	if (p == NULL)
		return;
	free(p->a);
	free(p->b);
	memset(p, 0, sizeof *p);
}

void
agreement_kappa(struct agreement_pair *p)
{
	size_t row[AGREEMENT_NCAT] = { 0 }, col[AGREEMENT_NCAT] = { 0 };
	double chance = 0, n;

	p->n = 0;
	p->agree = 0;
	for (int i = 0; i < AGREEMENT_NCAT; i++) {
		for (int j = 0; j < AGREEMENT_NCAT; j++) {
			row[i] += p->m[i][j];
			col[j] += p->m[i][j];
			p->n += p->m[i][j];
		}
		p->agree += p->m[i][i];
	}
	p->po = p->pe = 0;
	p->kappa = NAN;
	if (p->n == 0)
		return;
	n = (double)p->n;
	for (int i = 0; i < AGREEMENT_NCAT; i++)
		chance += (double)row[i] * (double)col[i];
	p->po = (double)p->agree / n;
	p->pe = chance / (n * n);
	/* Why the integer test: pe is 1 exactly when both used one and the
	 * same category for every item, and doubles may miss that by ulps. */
	if (chance == n * n)
		return;
	p->kappa = (p->po - p->pe) / (1 - p->pe);
}

void
agreement_rate_release(struct agreement_rate *r)
{
	if (r == NULL)
		return;
	free(r->who);
	memset(r, 0, sizeof *r);
}

void
agreement_rate_add(struct agreement_rate *r, int64_t at)
{
	if (r->decisions > 0) {
		int64_t pause = at - r->last;

		if (pause < 0)
			pause = 0;
		if (pause <= AGREEMENT_IDLE_S) {
			r->timed++;
			r->active_s += pause;
		}
	} else {
		r->first = at;
	}
	r->last = at;
	r->decisions++;
}

double
agreement_rate_per_hour(const struct agreement_rate *r)
{
	if (r->timed == 0 || r->active_s <= 0)
		return -1;
	return 3600.0 * (double)r->timed / (double)r->active_s;
}
