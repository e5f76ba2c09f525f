/*
 * strset.c - a set of strings; see strset.h.
 */
#include "base/strset.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/hash.h"

static uint64_t
strset_hash(const char *s)
{
	return hash_fnv64(s, strlen(s), HASH_FNV64_INIT);
}

int
strset_has(const struct strset *set, const char *s)
{
	size_t i;

	if (set->cap == 0)
		return 0;
	for (i = strset_hash(s) & (set->cap - 1); set->slot[i] != NULL;
	    i = (i + 1) & (set->cap - 1))
		if (strcmp(set->slot[i], s) == 0)
			return 1;
	return 0;
}

int
strset_add(struct strset *set, const char *s)
{
	size_t i;

	if (strset_has(set, s))
		return 0;
	if ((set->n + 1) * 2 > set->cap) {
		struct strset bigger = { NULL, set->cap != 0 ? set->cap * 2 :
		    64, 0 };

		bigger.slot = xcalloc(bigger.cap, sizeof *bigger.slot);
		for (size_t k = 0; k < set->cap; k++) {
			if (set->slot[k] == NULL)
				continue;
			size_t mask = bigger.cap - 1;

			for (i = strset_hash(set->slot[k]) & mask;
			    bigger.slot[i] != NULL; i = (i + 1) & mask)
				;
			bigger.slot[i] = set->slot[k];
			bigger.n++;
		}
		free(set->slot);
		*set = bigger;
	}
	for (i = strset_hash(s) & (set->cap - 1); set->slot[i] != NULL;
	    i = (i + 1) & (set->cap - 1))
		;
	set->slot[i] = xstrdup(s);
	set->n++;
	return 1;
}

void
strset_release(struct strset *set)
{
	for (size_t i = 0; i < set->cap; i++)
		free(set->slot[i]);
	free(set->slot);
	memset(set, 0, sizeof *set);
}
