/*
 * test_curation.c - unit tests for the training-data curation pieces of
 * issue 14: splits (parsing, stability, shares), dedup (normalising,
 * shingles, MinHash, the LSH layout; issue 25 item 6), contamination is
 * end to end (e2e 220), and
 * the SPDX ids of licence texts.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "curate/dedup.h"
#include "base/err.h"
#include "curate/license.h"
#include "curate/split.h"

static void
test_split_parse(void **state)
{
	struct split_spec s;
	struct err err;

	(void)state;
	assert_int_equal(split_parse("train=0.9,valid=0.05,test=0.05", &s,
	    &err), 0);
	assert_int_equal(s.n, 3);
	assert_string_equal(s.name[2], "test");
	assert_int_equal(split_parse("train=0.9,test=0.2", &s, &err), -1);
	assert_non_null(strstr(err.msg, "add up to"));
	assert_int_equal(split_parse("train=0.5,train=0.5", &s, &err), -1);
	assert_int_equal(split_parse("tr ain=1", &s, &err), -1);
	assert_int_equal(split_parse("train=x", &s, &err), -1);
	assert_int_equal(split_parse("", &s, &err), -1);
	assert_int_equal(split_parse("all=1", &s, &err), 0);
}

/* The split of an id depends on the id alone, and the shares hold. */
static void
test_split_of(void **state)
{
	struct split_spec s, t;
	struct err err;
	size_t n[3] = { 0 };
	char id[32];

	(void)state;
	assert_int_equal(split_parse("train=0.8,valid=0.1,test=0.1", &s, &err),
	    0);
	for (int i = 0; i < 20000; i++) {
		const char *a;

		snprintf(id, sizeof id, "bench/task%d", i);
		a = split_of(&s, id);
		assert_string_equal(a, split_of(&s, id));
		n[a[0] == 't' && a[1] == 'r' ? 0 : a[0] == 'v' ? 1 : 2]++;
	}
	/* 20000 draws: within 2 % of the shares */
	assert_true(n[0] > 15600 && n[0] < 16400);
	assert_true(n[1] > 1600 && n[1] < 2400);
	assert_true(n[2] > 1600 && n[2] < 2400);
	/* a task stays in its split when a later share is cut: only the
	 * last split's tasks can move */
	assert_int_equal(split_parse("train=0.8,valid=0.1,extra=0.05,"
	    "test=0.05", &t, &err), 0);
	for (int i = 0; i < 2000; i++) {
		snprintf(id, sizeof id, "bench/task%d", i);
		if (strcmp(split_of(&s, id), "test") != 0)
			assert_string_equal(split_of(&s, id), split_of(&t, id));
	}
}

static void
test_dedup_normalise(void **state)
{
	const char *a = "def f(x):  # square\n    return x*x\n";
	const char *b = "def f(x):\n  return x * x  # again\n";
	char *na, *nb, *ia, *ib;
	size_t la, lb, lia, lib;
	struct err err;

	(void)state;
	/* no grammar for python: the lexer drops # comments */
	assert_int_equal(dedup_normalise("python", a, strlen(a), &na, &la,
	    &ia, &lia, &err), 0);
	assert_int_equal(dedup_normalise("python", b, strlen(b), &nb, &lb,
	    &ib, &lib, &err), 0);
	assert_string_equal(na, nb);
	assert_null(strstr(na, "square"));
	free(na);
	free(nb);
	free(ia);
	free(ib);
	/* C comments of both kinds for a language without a grammar */
	assert_int_equal(dedup_normalise("text", "a /* b */ c // d\ne", 18,
	    &na, &la, NULL, NULL, &err), 0);
	assert_string_equal(na, "a c e");
	free(na);
}

/* The shingle set of code in lang (dedup_normalise's ids form). */
static void
shingles_of(const char *lang, const char *code, uint32_t **set, size_t *n)
{
	char *norm, *ids;
	size_t len, idslen;
	struct err err;

	assert_int_equal(dedup_normalise(lang, code, strlen(code), &norm, &len,
	    &ids, &idslen, &err), 0);
	dedup_shingles(ids, idslen, set, n);
	free(norm);
	free(ids);
}

/*
 * Issue 25 item 6: with the identifiers numbered by first use over the
 * whole file, one new signal near the top renumbered every name after
 * it, and a one-line edit took the similarity from 0.83 to 0.55.  Each
 * shingle numbers its own names now: the edit changes the few shingles
 * it falls in, and a consistent renaming still changes none.
 */
#define SH_HEAD \
	"module top_module(input clk, input reset, input [3:0] d,\n" \
	"    output reg [3:0] q, output reg [3:0] r);\n"
#define SH_BODY \
	"  always @(posedge clk) begin\n" \
	"    if (reset) begin q <= 4'd0; r <= 4'd0; end\n" \
	"    else begin q <= d; r <= q + d; end\n" \
	"  end\n" \
	"  assign_sum: assert property (@(posedge clk) r == r);\n" \
	"endmodule\n"

static void
test_dedup_shingles(void **state)
{
	const char *a = SH_HEAD SH_BODY;
	/* one new signal declared near the top, used nowhere else */
	const char *b = SH_HEAD "  wire unused_tmp;\n" SH_BODY;
	/* every name changed consistently */
	const char *c =
	    "module top_module(input ck, input rst, input [3:0] data,\n"
	    "    output reg [3:0] qq, output reg [3:0] acc);\n"
	    "  always @(posedge ck) begin\n"
	    "    if (rst) begin qq <= 4'd0; acc <= 4'd0; end\n"
	    "    else begin qq <= data; acc <= qq + data; end\n"
	    "  end\n"
	    "  assign_sum: assert property (@(posedge ck) acc == acc);\n"
	    "endmodule\n";
	uint32_t *sa, *sb, *sc, *e;
	size_t na, nb, nc, ne;
	double j;

	(void)state;
	shingles_of("verilog", a, &sa, &na);
	shingles_of("verilog", b, &sb, &nb);
	shingles_of("verilog", c, &sc, &nc);
	assert_true(na > 40);
	for (size_t i = 1; i < na; i++)
		assert_true(sa[i - 1] < sa[i]);	/* ascending, distinct */
	/* the inserted line touches at most the shingles around it */
	j = dedup_jaccard(sa, na, sb, nb);
	if (j < 0.85)
		fail_msg("one declared signal: J %.3f, want >= 0.85", j);
	assert_true(dedup_jaccard(sa, na, sc, nc) == 1.0);
	/* fewer tokens than a shingle make one; none make none */
	dedup_shingles("a b", 3, &e, &ne);
	assert_int_equal(ne, 1);
	free(e);
	dedup_shingles("", 0, &e, &ne);
	assert_int_equal(ne, 0);
	assert_null(e);
	assert_true(dedup_jaccard(NULL, 0, NULL, 0) == 1.0);
	assert_true(dedup_jaccard(sa, na, NULL, 0) == 0.0);
	free(sa);
	free(sb);
	free(sc);
}

static void
test_dedup_minhash(void **state)
{
	const char *a = "module m ( input a , output b ) ; assign b = ~ a ;"
	    " endmodule";
	const char *c = "module n ( input [ 7 : 0 ] x , output [ 7 : 0 ] y )"
	    " ; always @ ( * ) y = x + 1 ; endmodule";
	uint32_t sa[DEDUP_PERM], sb[DEDUP_PERM], sc[DEDUP_PERM], *xa, *xc;
	size_t na, nc, same = 0;

	(void)state;
	dedup_shingles(a, strlen(a), &xa, &na);
	dedup_shingles(c, strlen(c), &xc, &nc);
	dedup_minhash(xa, na, sa);
	dedup_minhash(xa, na, sb);
	dedup_minhash(xc, nc, sc);
	assert_memory_equal(sa, sb, sizeof sa);
	for (size_t i = 0; i < DEDUP_PERM; i++)
		same += sa[i] == sc[i];
	/* unrelated: few equal values (the estimate of J, here 0) */
	assert_true(same < DEDUP_PERM / 4);
	assert_true(dedup_jaccard(xa, na, xc, nc) < 0.1);
	free(xa);
	free(xc);
}

/* 1 - (1 - t^r)^b: the chance that a pair at J = t shares a band */
static double
p_band(double t, size_t b, size_t r)
{
	double tr = 1, miss = 1;

	for (size_t i = 0; i < r; i++)
		tr *= t;
	for (size_t i = 0; i < b; i++)
		miss *= 1 - tr;
	return 1 - miss;
}

/* The layout: the most rows a band can have while a pair at the
 * threshold is still a candidate with chance DEDUP_LSH_RECALL. */
static void
test_dedup_lsh_params(void **state)
{
	static const double ts[] = { 0.5, 0.7, 0.8, 0.85, 0.9, 0.95 };
	size_t bands, rows;

	(void)state;
	dedup_lsh_params(0.8, &bands, &rows);
	assert_int_equal(bands, 16);
	assert_int_equal(rows, 4);
	for (size_t i = 0; i < sizeof ts / sizeof ts[0]; i++) {
		dedup_lsh_params(ts[i], &bands, &rows);
		assert_true(bands * rows <= DEDUP_PERM);
		assert_true(p_band(ts[i], bands, rows) >= DEDUP_LSH_RECALL);
		assert_true(p_band(ts[i], DEDUP_PERM / (rows + 1), rows + 1) <
		    DEDUP_LSH_RECALL);
	}
}

static void
test_license_spdx(void **state)
{
	static const struct { const char *text, *want; } cases[] = {
		{ "MIT License\n\nCopyright (c) 2023 X\n\nPermission is hereby"
		    "\ngranted, free of charge, to any person", "MIT" },
		{ "                                 Apache License\n"
		    "                           Version 2.0, January 2004",
		    "Apache-2.0" },
		{ "Redistribution and use in source and binary forms, with or"
		    " without modification ... 3. Neither the name of",
		    "BSD-3-Clause" },
		{ "Redistribution and use in source and binary forms ...",
		    "BSD-2-Clause" },
		{ "GNU GENERAL PUBLIC LICENSE\n Version 3, 29 June 2007",
		    "GPL-3.0-only" },
		{ "All rights reserved. Do not copy.", "NOASSERTION" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		assert_string_equal(license_spdx(cases[i].text,
		    strlen(cases[i].text)), cases[i].want);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_split_parse),
		cmocka_unit_test(test_split_of),
		cmocka_unit_test(test_dedup_normalise),
		cmocka_unit_test(test_dedup_shingles),
		cmocka_unit_test(test_dedup_minhash),
		cmocka_unit_test(test_dedup_lsh_params),
		cmocka_unit_test(test_license_spdx),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
