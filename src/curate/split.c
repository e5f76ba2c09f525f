/*
 * split.c - splits by a stable hash of the task id; see split.h.
 */
#include "curate/split.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/hash.h"

int
split_parse(const char *text, struct split_spec *out, struct err *err)
{
	const char *p = text;
	double sum = 0;

	memset(out, 0, sizeof *out);
	if (text == NULL || *text == '\0')
		return err_set(err, "empty split: want NAME=SHARE,... as"
		    " train=0.9,valid=0.05,test=0.05");
	while (*p != '\0') {
		size_t len = strcspn(p, ","), nl = strcspn(p, "=,");
		char *end, num[64];
		double v;

		if (out->n == SPLIT_MAX)
			return err_set(err, "more than %d splits",
			    SPLIT_MAX);
		if (nl == 0 || nl >= sizeof out->name[0] || p[nl] != '=' ||
		    len - nl - 1 == 0 || len - nl - 1 >= sizeof num)
			return err_set(err, "bad split '%.*s': want"
			    " NAME=SHARE", (int)len, p);
		for (size_t i = 0; i < nl; i++)
			if (!((p[i] >= 'a' && p[i] <= 'z') || (p[i] >= 'A' &&
			    p[i] <= 'Z') || (p[i] >= '0' && p[i] <= '9') ||
			    p[i] == '-' || p[i] == '_'))
				return err_set(err, "bad split name '%.*s':"
				    " letters, digits, - and _ only", (int)nl,
				    p);
		memcpy(num, p + nl + 1, len - nl - 1);
		num[len - nl - 1] = '\0';
		v = strtod(num, &end);
		if (*end != '\0' || !(v > 0) || v > 1)
			return err_set(err, "bad share '%s' of split %.*s: want"
			    " a number above 0, at most 1", num, (int)nl, p);
		memcpy(out->name[out->n], p, nl);
		out->name[out->n][nl] = '\0';
		for (size_t i = 0; i < out->n; i++)
			if (strcmp(out->name[i], out->name[out->n]) == 0)
				return err_set(err, "split %s given twice",
				    out->name[i]);
		out->share[out->n++] = v;
		sum += v;
		p += len + (p[len] == ',');
	}
	if (fabs(sum - 1) > 1e-6)
		return err_set(err, "the shares add up to %g, not 1", sum);
	return 0;
}

const char *
split_of(const struct split_spec *spec, const char *task_id)
{
	char hex[HASH_HEX_LEN + 1];
	uint64_t x = 0;
	double u, run = 0;

	hash_sha256(task_id, strlen(task_id), hex);
	for (int i = 0; i < 16; i++)
		x = x << 4 | (uint64_t)(hex[i] <= '9' ? hex[i] - '0' :
		    hex[i] - 'a' + 10);
	u = (double)x / 18446744073709551616.0;
	for (size_t i = 0; i < spec->n; i++) {
		run += spec->share[i];
		if (u < run)
			return spec->name[i];
	}
	return spec->name[spec->n - 1];	/* rounding at the top end */
}

struct assign {
	char	**ids;
	char	**splits;	/* hand-set split, or NULL */
	size_t	  n;
};

static int
assign_one(const char *task_id, const char *split, int hand, void *arg)
{
	struct assign *a = arg;

	a->ids = xreallocarray(a->ids, a->n + 1, sizeof *a->ids);
	a->splits = xreallocarray(a->splits, a->n + 1, sizeof *a->splits);
	a->ids[a->n] = xstrdup(task_id);
	a->splits[a->n] = hand && split != NULL ? xstrdup(split) : NULL;
	a->n++;
	return 0;
}

int
split_assign(struct store *st, const struct split_spec *spec,
    size_t *counts, struct err *err)
{
	struct assign a = { NULL, NULL, 0 };
	int rc = -1;

	if (counts != NULL)
		memset(counts, 0, SPLIT_MAX * sizeof *counts);
	if (store_task_split_each(st, assign_one, &a, err) != 0)
		goto out;
	if (store_begin(st, err) < 0)
		goto out;
	for (size_t i = 0; i < a.n; i++) {
		const char *name = a.splits[i] != NULL ? a.splits[i] :
		    split_of(spec, a.ids[i]);

		if (a.splits[i] == NULL && store_task_split_set(st, a.ids[i],
		    name, 0, NULL, err) < 0) {
			store_rollback(st);
			goto out;
		}
		for (size_t k = 0; counts != NULL && k < spec->n; k++)
			if (strcmp(spec->name[k], name) == 0)
				counts[k]++;
	}
	if (store_commit(st, err) < 0) {
		store_rollback(st);
		goto out;
	}
	rc = 0;
out:
	for (size_t i = 0; i < a.n; i++) {
		free(a.ids[i]);
		free(a.splits[i]);
	}
	free(a.ids);
	free(a.splits);
	return rc;
}
