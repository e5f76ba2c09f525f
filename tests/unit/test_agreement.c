/*
 * test_agreement.c - unit tests for agreement.c and the store's
 * reviewer queries (cmocka): Cohen's kappa on cases worked by hand,
 * decisions per hour with breaks, and on a real database the votes of
 * two reviewers, what undo and redo do to them, the disagreement filter
 * and the final label that settles a disagreement (issue 5, item 5).
 */
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include "model/agreement.h"
#include "base/buf.h"
#include "base/err.h"
#include "base/hash.h"
#include "model/sample.h"
#include "store/store.h"
#include "testlib.h"

enum { C, A, F, O, P };	/* compile api functional format performance */

/*
 * Six candidates, two reviewers:
 *   alice: compile compile functional functional api compile
 *   bob:   compile functional functional functional api api
 * The matrix (alice rows, bob columns) has m[C][C] = 1, m[C][F] = 1,
 * m[C][A] = 1, m[F][F] = 2, m[A][A] = 1: 4 agreements of 6, po = 4/6.
 * Marginals: alice C 3, F 2, A 1; bob C 1, F 3, A 2, so
 * pe = (3*1 + 2*3 + 1*2) / 36 = 11/36 and
 * kappa = (24/36 - 11/36) / (25/36) = 13/25 = 0.52.
 */
static void
test_agreement_kappa_by_hand(void **state)
{
	struct agreement_pair p;

	(void)state;
	memset(&p, 0, sizeof p);
	p.m[C][C] = 1;
	p.m[C][F] = 1;
	p.m[C][A] = 1;
	p.m[F][F] = 2;
	p.m[A][A] = 1;
	agreement_kappa(&p);
	assert_int_equal(p.n, 6);
	assert_int_equal(p.agree, 4);
	assert_true(fabs(p.po - 4.0 / 6) < 1e-12);
	assert_true(fabs(p.pe - 11.0 / 36) < 1e-12);
	assert_true(fabs(p.kappa - 0.52) < 1e-12);
}

/* Perfect agreement is 1; agreement no better than chance is 0; worse
 * than chance is negative; one category for everything has no kappa. */
static void
test_agreement_kappa_edges(void **state)
{
	struct agreement_pair p;

	(void)state;
	memset(&p, 0, sizeof p);
	p.m[C][C] = 3;
	p.m[P][P] = 2;
	agreement_kappa(&p);
	assert_true(fabs(p.kappa - 1) < 1e-12);

	/* every combination once: po = 2/4 = pe, kappa 0 */
	memset(&p, 0, sizeof p);
	p.m[C][C] = p.m[C][F] = p.m[F][C] = p.m[F][F] = 1;
	agreement_kappa(&p);
	assert_true(fabs(p.po - 0.5) < 1e-12);
	assert_true(fabs(p.kappa) < 1e-12);

	/* always crossed: po 0, pe 1/2, kappa (0 - 1/2) / (1/2) = -1 */
	memset(&p, 0, sizeof p);
	p.m[C][F] = 2;
	p.m[F][C] = 2;
	agreement_kappa(&p);
	assert_true(fabs(p.kappa + 1) < 1e-12);

	memset(&p, 0, sizeof p);
	p.m[O][O] = 4;
	agreement_kappa(&p);
	assert_int_equal(p.agree, 4);
	assert_true(isnan(p.kappa));

	memset(&p, 0, sizeof p);
	agreement_kappa(&p);
	assert_int_equal(p.n, 0);
	assert_true(isnan(p.kappa));
}

static void
test_agreement_categories(void **state)
{
	(void)state;
	/* the matrix's rows and columns are vocab.h's categories */
	assert_int_equal(AGREEMENT_NCAT, 5);
	assert_int_equal(category_from_name("compile"), 0);
	assert_int_equal(category_from_name("performance"), 4);
	assert_int_equal(category_from_name("Compile"), -1);
	assert_int_equal(category_from_name(NULL), -1);
	assert_string_equal(category_name(2), "functional");
	assert_null(category_name(5));
}

/*
 * Decisions at 0, 10, 20, 400 (a pause of 380 s: a break) and 430 s:
 * the timed ones are at 10, 20 and 430, with pauses 10 + 10 + 30 = 50 s,
 * so 3 decisions in 50 s = 3 * 3600 / 50 = 216 per hour.
 */
static void
test_agreement_rate(void **state)
{
	static const int64_t at[] = { 1000, 1010, 1020, 1400, 1430 };
	struct agreement_rate r;

	(void)state;
	memset(&r, 0, sizeof r);
	assert_true(agreement_rate_per_hour(&r) < 0);
	for (size_t i = 0; i < sizeof at / sizeof at[0]; i++)
		agreement_rate_add(&r, at[i]);
	assert_int_equal(r.decisions, 5);
	assert_int_equal(r.timed, 3);
	assert_int_equal(r.active_s, 50);
	assert_int_equal(r.first, 1000);
	assert_int_equal(r.last, 1430);
	assert_true(fabs(agreement_rate_per_hour(&r) - 216) < 1e-9);

	/* a pause of exactly the idle limit still counts */
	memset(&r, 0, sizeof r);
	agreement_rate_add(&r, 0);
	agreement_rate_add(&r, AGREEMENT_IDLE_S);
	assert_int_equal(r.timed, 1);
	assert_true(fabs(agreement_rate_per_hour(&r) - 3600.0 /
	    AGREEMENT_IDLE_S) < 1e-9);

	/* one decision, or all in one second: no rate */
	memset(&r, 0, sizeof r);
	agreement_rate_add(&r, 5);
	agreement_rate_add(&r, 5);
	assert_int_equal(r.decisions, 2);
	assert_true(agreement_rate_per_hour(&r) < 0);
}

/* --- the store ------------------------------------------------------- */

struct fx {
	char		 dir[64];
	char		 db[PATH_MAX];
	struct store	*st;
	char		*id[6];
};

static const char *const alice[6] = { "compile", "compile", "functional",
    "functional", "api", "compile" };
static const char *const bob[6] = { "compile", "functional", "functional",
    "functional", "api", "api" };

static int
fx_setup(void **state)
{
	struct fx *f = xcalloc(1, sizeof *f);
	struct task t;
	struct err err;
	int ins;

	snprintf(f->dir, sizeof f->dir, "/tmp/assay-test-agree-XXXXXX");
	if (mkdtemp(f->dir) == NULL) {
		free(f);
		return -1;
	}
	snprintf(f->db, sizeof f->db, "%s/assay.db", f->dir);
	if (store_open(&f->st, f->db, &err) < 0) {
		print_error("store_open: %s\n", err.msg);
		rm_rf(f->dir);
		free(f);
		return -1;
	}
	memset(&t, 0, sizeof t);
	t.id = xstrdup("t1");
	t.benchmark = xstrdup("local");
	t.domain = xstrdup("chip");
	t.env = xstrdup("iverilog");
	t.env_params = xstrdup("{}");
	if (store_task_put(f->st, &t, &ins, &err) < 0)
		fail_msg("task: %s", err.msg);
	task_release(&t);
	for (int i = 0; i < 6; i++) {
		struct candidate c;

		memset(&c, 0, sizeof c);
		c.task_id = xstrdup("t1");
		c.origin = xstrdup("model");
		c.kind = xstrdup("direct");
		c.lang = xstrdup("verilog");
		c.code = xasprintf("module m%d; endmodule\n", i);
		c.code_len = strlen(c.code);
		hash_sha256(c.code, c.code_len, c.code_hash);
		if (store_candidate_add(f->st, &c, &ins, &err) < 0)
			fail_msg("candidate: %s", err.msg);
		f->id[i] = xstrdup(c.id);
		candidate_release(&c);
	}
	*state = f;
	return 0;
}

static int
fx_teardown(void **state)
{
	struct fx *f = *state;

	for (int i = 0; i < 6; i++)
		free(f->id[i]);
	store_close(f->st);
	rm_rf(f->dir);
	free(f);
	return 0;
}

static void
label(struct fx *f, int i, const char *cat, const char *by)
{
	struct err err;

	if (store_label_set(f->st, f->id[i], cat, NULL, NULL, by, 0, NULL,
	    &err) < 0)
		fail_msg("label: %s", err.msg);
}

static size_t
count(struct fx *f, const char *filter)
{
	struct err err;
	size_t n = 0;

	if (store_query_count(f->st, filter, &n, &err) < 0)
		fail_msg("count %s: %s", filter, err.msg);
	return n;
}

/* The one pair there is (alice and bob) into *out. */
static void
one_pair(struct fx *f, const char *filter, struct agreement_pair *out)
{
	struct agreement_pair *p;
	struct err err;
	size_t n;

	assert_int_equal(store_agreement(f->st, filter, &p, &n, &err), 0);
	assert_int_equal(n, 1);
	*out = p[0];
	free(p);
}

static void
test_agreement_store_votes(void **state)
{
	struct fx *f = *state;
	struct agreement_pair p;
	struct store_vote *v;
	struct agreement_rate *r;
	struct err err;
	size_t n;
	char what[256];

	/* alice first changes her mind on 0: only her newest label votes */
	label(f, 0, "format", "alice");
	for (int i = 0; i < 6; i++)
		label(f, i, alice[i], "alice");
	for (int i = 0; i < 6; i++)
		label(f, i, bob[i], "bob");
	one_pair(f, NULL, &p);
	assert_string_equal(p.a, "alice");
	assert_string_equal(p.b, "bob");
	assert_int_equal(p.n, 6);
	assert_int_equal(p.m[C][C], 1);
	assert_int_equal(p.m[C][F], 1);
	assert_int_equal(p.m[C][A], 1);
	assert_int_equal(p.m[F][F], 2);
	assert_int_equal(p.m[A][A], 1);
	assert_int_equal(p.m[O][O], 0);
	assert_true(fabs(p.kappa - 0.52) < 1e-12);
	agreement_pair_release(&p);
	assert_int_equal(count(f, "disagree=yes"), 2);
	assert_int_equal(count(f, "disagree=no"), 4);
	assert_int_equal(count(f, "disagree!=yes"), 4);

	/* undo takes bob's last vote back (no pair on 5), redo gives it */
	assert_int_equal(store_undo(f->st, "bob", what, sizeof what, &err),
	    0);
	one_pair(f, NULL, &p);
	assert_int_equal(p.n, 5);
	assert_int_equal(p.m[C][A], 0);
	agreement_pair_release(&p);
	assert_int_equal(count(f, "disagree=yes"), 1);
	assert_int_equal(store_redo(f->st, "bob", what, sizeof what, &err),
	    0);
	assert_int_equal(count(f, "disagree=yes"), 2);

	/* the votes of candidate 1, by name */
	assert_int_equal(store_votes(f->st, f->id[1], &v, &n, &err), 0);
	assert_int_equal(n, 2);
	assert_string_equal(v[0].by, "alice");
	assert_string_equal(v[0].category, "compile");
	assert_string_equal(v[1].by, "bob");
	assert_string_equal(v[1].category, "functional");
	assert_int_equal(v[0].final, 0);
	for (size_t i = 0; i < n; i++)
		store_vote_release(&v[i]);
	free(v);

	/* a final label settles 1; it is no vote, so kappa stays */
	assert_int_equal(store_label_final(f->st, f->id[1], "functional",
	    "carol", 0, NULL, &err), 0);
	assert_int_equal(count(f, "disagree=yes"), 1);
	one_pair(f, NULL, &p);
	assert_true(fabs(p.kappa - 0.52) < 1e-12);
	agreement_pair_release(&p);
	assert_int_equal(store_votes(f->st, f->id[1], &v, &n, &err), 0);
	assert_int_equal(n, 3);
	assert_int_equal(v[2].final, 1);
	assert_string_equal(v[2].by, "carol");
	for (size_t i = 0; i < n; i++)
		store_vote_release(&v[i]);
	free(v);
	/* the final label is the candidate's label: 1, 2, 3 */
	assert_int_equal(count(f, "category=functional"), 3);

	/* undoing the final label opens the disagreement again */
	assert_int_equal(store_undo(f->st, "carol", what, sizeof what, &err),
	    0);
	assert_non_null(strstr(what, "(final)"));
	assert_int_equal(count(f, "disagree=yes"), 2);
	assert_int_equal(store_redo(f->st, "carol", what, sizeof what, &err),
	    0);
	assert_int_equal(count(f, "disagree=yes"), 1);

	/* a vote after the final label reopens it when it still differs */
	label(f, 1, "format", "alice");
	assert_int_equal(count(f, "disagree=yes"), 2);

	/* the filter narrows the pairs: only candidate 2 */
	{
		char *flt = xasprintf("id=%s", f->id[2]);

		one_pair(f, flt, &p);
		assert_int_equal(p.n, 1);
		assert_int_equal(p.m[F][F], 1);
		agreement_pair_release(&p);
		free(flt);
	}

	/* throughput counts each reviewer's label decisions */
	assert_int_equal(store_throughput(f->st, NULL, &r, &n, &err), 0);
	assert_int_equal(n, 3);
	assert_string_equal(r[0].who, "alice");
	assert_int_equal(r[0].decisions, 8);
	assert_string_equal(r[1].who, "bob");
	assert_int_equal(r[1].decisions, 6);
	assert_string_equal(r[2].who, "carol");
	assert_int_equal(r[2].decisions, 1);
	for (size_t i = 0; i < n; i++)
		agreement_rate_release(&r[i]);
	free(r);

	assert_int_equal(store_query_count(f->st, "disagree=maybe", &n, &err),
	    -1);
	assert_non_null(strstr(err.msg, "disagree"));
}

/* One reviewer, or none: no pairs, no disagreement. */
static void
test_agreement_store_single(void **state)
{
	struct fx *f = *state;
	struct agreement_pair *p;
	struct err err;
	size_t n;

	assert_int_equal(store_agreement(f->st, NULL, &p, &n, &err), 0);
	assert_int_equal(n, 0);
	free(p);
	label(f, 0, "compile", "alice");
	label(f, 0, "api", "auto");	/* not a reviewer's vote */
	assert_int_equal(store_agreement(f->st, NULL, &p, &n, &err), 0);
	assert_int_equal(n, 0);
	free(p);
	assert_int_equal(count(f, "disagree=yes"), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_agreement_kappa_by_hand),
		cmocka_unit_test(test_agreement_kappa_edges),
		cmocka_unit_test(test_agreement_categories),
		cmocka_unit_test(test_agreement_rate),
		cmocka_unit_test_setup_teardown(test_agreement_store_votes,
		    fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_agreement_store_single,
		    fx_setup, fx_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
