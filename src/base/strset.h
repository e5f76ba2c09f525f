/*
 * strset.h - a set of strings (open addressing, FNV-1a), for the ids an
 * export or a commit has already written.  Owns copies of its strings.
 * Zero-initialise (STRSET_INIT) and free with strset_release().
 */
#ifndef ASSAY_STRSET_H
#define ASSAY_STRSET_H

#include <stddef.h>

struct strset {
	char	**slot;
	size_t	  cap, n;
};

#define STRSET_INIT { NULL, 0, 0 }

/* 1 when s is in set, else 0. */
int	strset_has(const struct strset *set, const char *s);
/* Add a copy of s (nothing when it is there); 1 when added, 0 if not. */
int	strset_add(struct strset *set, const char *s);
/* Free every string; the set is empty and reusable after. */
void	strset_release(struct strset *set);

#endif
