/*
 * test_curation.c - unit tests for the training-data curation pieces of
 * issue 14: splits (parsing, stability, shares), dedup (normalising,
 * MinHash, the LSH layout), contamination is end to end (e2e 220), and
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

static void
test_dedup_minhash(void **state)
{
	const char *a = "module m ( input a , output b ) ; assign b = ~ a ;"
	    " endmodule";
	const char *c = "module n ( input [ 7 : 0 ] x , output [ 7 : 0 ] y )"
	    " ; always @ ( * ) y = x + 1 ; endmodule";
	uint32_t sa[DEDUP_PERM], sb[DEDUP_PERM], sc[DEDUP_PERM];
	size_t bands, rows;

	(void)state;
	dedup_minhash(a, strlen(a), sa);
	dedup_minhash(a, strlen(a), sb);
	dedup_minhash(c, strlen(c), sc);
	assert_true(dedup_similarity(sa, sb) == 1.0);
	assert_true(dedup_similarity(sa, sc) < 0.3);
	/* fewer tokens than a shingle still give a signature */
	dedup_minhash("a b", 3, sb);
	assert_true(sb[0] != UINT32_MAX);
	/* the band layout (this implementation's choice at 64 values) */
	dedup_lsh_params(0.8, &bands, &rows);
	assert_int_equal(bands, 5);
	assert_int_equal(rows, 11);
	assert_true(bands * rows <= DEDUP_PERM);
	dedup_lsh_params(0.5, &bands, &rows);
	assert_true(bands > 5);	/* a lower threshold: more, shorter bands */
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
		cmocka_unit_test(test_dedup_minhash),
		cmocka_unit_test(test_license_spdx),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
