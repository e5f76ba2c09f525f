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

enum verdict
verdict_from_name(const char *name)
{
	return (enum verdict)find(verdicts, VERDICT_N, name);
}

enum category
category_from_name(const char *name)
{
	return (enum category)find(categories, CATEGORY_N, name);
}

enum status
status_from_name(const char *name)
{
	return (enum status)find(statuses, STATUS_N, name);
}

enum status
status_from_verb(const char *verb)
{
	return (enum status)find(status_verbs, STATUS_N, verb);
}

enum cand_kind
cand_kind_from_name(const char *name)
{
	return (enum cand_kind)find(kinds, KIND_N, name);
}

enum subcategory
subcategory_from_name(const char *name)
{
	return (enum subcategory)find(subcategories, SUB_N, name);
}

const char *
verdict_name(enum verdict v)
{
	return at(verdicts, VERDICT_N, v);
}

const char *
category_name(enum category c)
{
	return at(categories, CATEGORY_N, c);
}

const char *
status_name(enum status s)
{
	return at(statuses, STATUS_N, s);
}

const char *
status_verb(enum status s)
{
	return at(status_verbs, STATUS_N, s);
}

const char *
cand_kind_name(enum cand_kind k)
{
	return at(kinds, KIND_N, k);
}

const char *
subcategory_name(enum subcategory s)
{
	return at(subcategories, SUB_N, s);
}

const char *
subcategory_family(enum subcategory s)
{
	return at(families, SUB_N, s);
}

const char *
verdict_short(enum verdict v)
{
	return at(verdict_shorts, VERDICT_N, v);
}

const char *
category_short(enum category c)
{
	return at(category_shorts, CATEGORY_N, c);
}

const char *
status_short(enum status s)
{
	return at(status_shorts, STATUS_N, s);
}

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
