/*
 * vocab.c - the name tables of vocab.h's lists; see vocab.h.
 */
#include "model/vocab.h"

#include <stdio.h>
#include <string.h>

#define NAME2_(id, name, ...)		[id] = name,
#define SHORT_V_(id, name, sh)		[id] = sh,
#define SHORT_C_(id, name, key, rank, sh) [id] = sh,
#define KEY_C_(id, name, key, rank, sh)	[id] = key,
#define RANK_C_(id, name, key, rank, sh) [id] = rank,
#define VERB_S_(id, name, verb, sh)	[id] = verb,
#define SHORT_S_(id, name, verb, sh)	[id] = sh,
#define FAMILY_(id, name, family)	[id] = family,

static const char *const verdicts[VERDICT_N] = { VOCAB_VERDICTS(NAME2_) };
static const char *const verdict_shorts[VERDICT_N] =
    { VOCAB_VERDICTS(SHORT_V_) };
static const char *const categories[CATEGORY_N] =
    { VOCAB_CATEGORIES(NAME2_) };
static const char *const category_shorts[CATEGORY_N] =
    { VOCAB_CATEGORIES(SHORT_C_) };
static const int category_keys[CATEGORY_N] = { VOCAB_CATEGORIES(KEY_C_) };
static const int category_ranks[CATEGORY_N] = { VOCAB_CATEGORIES(RANK_C_) };
static const char *const statuses[STATUS_N] = { VOCAB_STATUSES(NAME2_) };
static const char *const status_verbs[STATUS_N] = { VOCAB_STATUSES(VERB_S_) };
static const char *const status_shorts[STATUS_N] =
    { VOCAB_STATUSES(SHORT_S_) };
static const char *const kinds[KIND_N] = { VOCAB_KINDS(NAME2_) };
static const char *const subcategories[SUB_N] =
    { VOCAB_SUBCATEGORIES(NAME2_) };
static const char *const families[SUB_N] = { VOCAB_SUBCATEGORIES(FAMILY_) };

static int
find(const char *const *names, int n, const char *name)
{
	for (int i = 0; name != NULL && i < n; i++)
		if (names[i] != NULL && strcmp(name, names[i]) == 0)
			return i;
	return -1;
}

static const char *
at(const char *const *names, int n, int i)
{
	return i >= 0 && i < n ? names[i] : NULL;
}


/*
 * Each list's look-ups, both ways (vocab.h): FROM_NAME(fn, type, names,
 * n) is enum type fn(const char *name), -1 for an unknown or NULL name;
 * NAME_OF(fn, type, names, n) is const char *fn(enum type v), NULL out
 * of range.
 */
#define FROM_NAME(fn, type, names, n)					\
	enum type fn(const char *name)					\
	{ return (enum type)find(names, n, name); }
#define NAME_OF(fn, type, names, n)					\
	const char *fn(enum type v) { return at(names, n, v); }

FROM_NAME(verdict_from_name, verdict, verdicts, VERDICT_N)
FROM_NAME(category_from_name, category, categories, CATEGORY_N)
FROM_NAME(status_from_name, status, statuses, STATUS_N)
FROM_NAME(status_from_verb, status, status_verbs, STATUS_N)
FROM_NAME(cand_kind_from_name, cand_kind, kinds, KIND_N)
FROM_NAME(subcategory_from_name, subcategory, subcategories, SUB_N)

NAME_OF(verdict_name, verdict, verdicts, VERDICT_N)
NAME_OF(category_name, category, categories, CATEGORY_N)
NAME_OF(status_name, status, statuses, STATUS_N)
NAME_OF(status_verb, status, status_verbs, STATUS_N)
NAME_OF(cand_kind_name, cand_kind, kinds, KIND_N)
NAME_OF(subcategory_name, subcategory, subcategories, SUB_N)
NAME_OF(subcategory_family, subcategory, families, SUB_N)
NAME_OF(verdict_short, verdict, verdict_shorts, VERDICT_N)
NAME_OF(category_short, category, category_shorts, CATEGORY_N)
NAME_OF(status_short, status, status_shorts, STATUS_N)

int
category_key(enum category c)
{
	return c >= 0 && c < CATEGORY_N ? category_keys[c] : 0;
}

enum category
category_from_key(int key)
{
	for (int i = 0; i < CATEGORY_N; i++)
		if (category_keys[i] == key)
			return (enum category)i;
	return CATEGORY_NONE;
}

int
category_rank(enum category c)
{
	return c >= 0 && c < CATEGORY_N ? category_ranks[c] : CATEGORY_N;
}

int
verdict_is(const char *name, enum verdict v)
{
	return name != NULL && verdict_from_name(name) == v;
}

int
verdict_failed(const char *name)
{
	enum verdict v = verdict_from_name(name);

	return v == VERDICT_FAIL || v == VERDICT_TIMEOUT;
}

char *
category_list(char *buf, size_t n, const char *sep)
{
	size_t len = 0;

	if (n == 0)
		return buf;
	buf[0] = '\0';
	for (int i = 0; i < CATEGORY_N && len < n; i++) {
		int w = snprintf(buf + len, n - len, "%s%s", i ? sep : "",
		    categories[i]);

		if (w < 0)
			break;
		len += (size_t)w;
	}
	return buf;
}
