/*
 * bench.c - `--bench-keys FILE`: replay keys through the workbench's own
 * key handler and frame function and time them (bench.h says what and
 * how).  The keys do not go through the terminal: what is timed is
 * assay's work for a key, from ui_key() to doupdate(), which is what a
 * person waits for once the terminal has delivered the key.
 *
 * Called by ui.c in place of its poll loop; prints nothing until
 * bench_end(), after endwin().
 */
#include "ui/bench.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <wchar.h>

#include "ui/wb.h"

/* One timed key. */
struct bench_key {
	int	 key;
	int	 query;		/* a query (bench.h), else a key */
	int	 pace;		/* ms of the frame loop before it; 0: none */
	double	 ms;
	char	*name;		/* in the report; NULL: not listed */
};

struct bench {
	struct bench_key *keys;
	size_t		  nkeys;
	double		  first_ms;
	double		  late_ms;	/* highlighting ready */
	size_t		  rows;
	int		  pace;		/* the last @pace read, ms */
	int		  paced;	/* some key had a pace */
	int		  verify;	/* a :verify ran during the replay */
	size_t		  vdone, vtotal, vruns, vfail;
	char		  err[1024];	/* set: the file was bad */
};

static double
bench_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Append a key; name (borrowed) is copied. */
static void
bench_add(struct bench *b, int key, const char *name)
{
	struct bench_key *k;

	b->keys = xreallocarray(b->keys, b->nkeys + 1, sizeof *b->keys);
	k = &b->keys[b->nkeys++];
	memset(k, 0, sizeof *k);
	k->key = key;
	k->pace = b->pace;
	k->name = name != NULL ? xstrdup(name) : NULL;
}

/* A : or / line: its first character, the text, then Enter. */
static int
bench_add_prompt(struct bench *b, const char *line)
{
	const char *p = line + 1;
	mbstate_t st;

	bench_add(b, (unsigned char)line[0], NULL);
	memset(&st, 0, sizeof st);
	while (*p != '\0') {
		wchar_t w;
		size_t n = mbrtowc(&w, p, strlen(p), &st);

		if (n == (size_t)-1 || n == (size_t)-2 || n == 0)
			return -1;
		bench_add(b, (int)w, NULL);
		p += n;
	}
	bench_add(b, KEYMAP_KEY_ENTER, line);
	return 0;
}

static int
bench_load(struct bench *b, const char *path)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int lineno = 0, rc = 0;
	struct err err;

	if (f == NULL) {
		snprintf(b->err, sizeof b->err, "%s: %s", path,
		    strerror(errno));
		return -1;
	}
	while (rc == 0 && (len = getline(&line, &cap, f)) >= 0) {
		char *s = line, *name;
		long n = 1;
		int key;

		lineno++;
		while (len > 0 && (line[len - 1] == '\n' ||
		    line[len - 1] == '\r'))
			line[--len] = '\0';
		while (*s == ' ' || *s == '\t')
			s++;
		if (*s == '\0' || *s == '#')
			continue;
		if (strncmp(s, "@pace", 5) == 0 && (s[5] == ' ' ||
		    s[5] == '\t')) {
			char *end;
			long ms = strtol(s + 6, &end, 10);

			while (*end == ' ' || *end == '\t')
				end++;
			if (end == s + 6 || *end != '\0' || ms < 0 ||
			    ms > 60000) {
				snprintf(b->err, sizeof b->err, "%s:%d: @pace "
				    "MS, MS from 0 to 60000", path, lineno);
				rc = -1;
				continue;
			}
			b->pace = (int)ms;
			if (ms > 0)
				b->paced = 1;
			continue;
		}
		if (*s == ':' || *s == '/') {
			if (bench_add_prompt(b, s) < 0) {
				snprintf(b->err, sizeof b->err, "%s:%d: not"
				    " text in this locale", path, lineno);
				rc = -1;
			}
			continue;
		}
		name = s;
		/* "N KEY": a count, then the key */
		if (strspn(s, "0123456789") > 0 && s[strspn(s,
		    "0123456789")] == ' ') {
			n = strtol(s, &name, 10);
			while (*name == ' ')
				name++;
			if (n < 1 || n > 1000000) {
				snprintf(b->err, sizeof b->err, "%s:%d: a count"
				    " from 1 to 1000000, then a key", path,
				    lineno);
				rc = -1;
				continue;
			}
		}
		if (keymap_key_parse(name, &key, &err) < 0) {
			snprintf(b->err, sizeof b->err, "%.400s:%d: %.500s",
			    path, lineno, err.msg);
			rc = -1;
			continue;
		}
		for (long i = 0; i < n; i++)
			bench_add(b, key, name);
	}
	free(line);
	fclose(f);
	return rc;
}

/* Why: a query waits on the store for a new queue or counts over it. */
static int
bench_is_query(struct wb *wb, int key)
{
	enum action a;

	if (wb->pr.open)
		return key == KEYMAP_KEY_ENTER;
	if (wb->lay.sheets[WB_STATS].shown)
		return key == KEYMAP_KEY_TAB || key == KEYMAP_KEY_ENTER;
	if (pane_sheet(wb) != NULL || wb->ask != WB_ASK_NONE)
		return 0;
	a = keymap_lookup(&wb->km, KEYMAP_GLOBAL, key);
	return a == ACTION_STATS || a == ACTION_SEARCH_NEXT ||
	    a == ACTION_SEARCH_PREV;
}

struct bench *
bench_run(struct wb *wb, void (*frame)(struct wb *),
    void (*key)(struct wb *, int), void (*late)(struct wb *),
    void (*idle)(struct wb *, int))
{
	struct bench *b = xcalloc(1, sizeof *b);
	double t, t1, t2;
	size_t fail;

	wb->quit = 1;	/* the caller's loop does not run */
	if (bench_load(b, wb->o->bench_keys) < 0)
		return b;
	frame(wb);
	b->first_ms = (bench_now() - wb->o->bench_t0) * 1000.0;
	b->rows = wb->count;
	late(wb);
	frame(wb);
	b->late_ms = (bench_now() - wb->o->bench_t0) * 1000.0;
	wb->quit = 0;
	for (size_t i = 0; i < b->nkeys && !wb->quit; i++) {
		struct bench_key *k = &b->keys[i];

		if (k->pace > 0) {
			/*
			 * The key arrives pace ms after the last frame; the
			 * frame loop runs its services until then, and a step
			 * that is still running when it arrives delays it, as
			 * it would delay a key from the terminal.
			 */
			t = bench_now() + k->pace / 1000.0;
			idle(wb, k->pace);
			while (bench_now() < t)	/* idle() counts whole ms */
				idle(wb, 1);
		} else {
			t = bench_now();
		}
		k->query = bench_is_query(wb, k->key);
		t1 = bench_now();
		key(wb, k->key);
		t2 = bench_now();
		frame(wb);
		k->ms = (bench_now() - t) * 1000.0;
		if (k->ms >= 100.0)	/* where a slow key's time went */
			fprintf(stderr, "assay: slow key %zu: %.0f ms late, %.0f"
			    " ms its handler, %.0f ms its frame\n", i,
			    (t1 - t) * 1000.0, (t2 - t1) * 1000.0,
			    (bench_now() - t2) * 1000.0);
		if (!b->verify && batch_progress(wb, &b->vdone, &b->vtotal,
		    &fail))
			b->verify = 1;
	}
	if (b->verify) {
		b->vruns = batch_stored(wb, &b->vfail);
		if (!batch_progress(wb, &b->vdone, &b->vtotal, &fail))
			b->vdone = b->vtotal;	/* it ended in the replay */
	}
	wb->quit = 1;
	return b;
}

static int
bench_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Nearest rank: the smallest value with at least p of them at or under. */
static double
bench_pct(const double *v, size_t n, double p)
{
	size_t r = (size_t)(p * (double)n + 0.999999);

	if (n == 0)
		return 0;
	return v[r > 0 ? r - 1 : 0];
}

int
bench_end(struct bench *b)
{
	struct rusage ru;
	double *kv, qmax = 0;
	size_t nk = 0, nq = 0;
	int status = 0;

	if (b == NULL)
		return 0;
	if (b->err[0] != '\0') {
		fprintf(stderr, "assay: --bench-keys %s\n", b->err);
		status = 2;
		goto out;
	}
	kv = xcalloc(b->nkeys + 1, sizeof *kv);
	fprintf(stderr, "rows %zu\n", b->rows);
	fprintf(stderr, "first_frame_ms %.3f\n", b->first_ms);
	fprintf(stderr, "highlight_ms %.3f\n", b->late_ms);
	for (size_t i = 0; i < b->nkeys; i++) {
		const struct bench_key *k = &b->keys[i];

		if (k->query) {
			nq++;
			if (k->ms > qmax)
				qmax = k->ms;
		} else {
			kv[nk++] = k->ms;
		}
		if (k->name != NULL)
			fprintf(stderr, "step %s %.3f %s\n", k->query ?
			    "query" : "key", k->ms, k->name);
	}
	qsort(kv, nk, sizeof *kv, bench_cmp);
	fprintf(stderr, "keys %zu\n", nk);
	fprintf(stderr, "key_p50_ms %.3f\n", bench_pct(kv, nk, 0.50));
	fprintf(stderr, "key_p99_ms %.3f\n", bench_pct(kv, nk, 0.99));
	fprintf(stderr, "key_max_ms %.3f\n", nk > 0 ? kv[nk - 1] : 0.0);
	fprintf(stderr, "queries %zu\n", nq);
	fprintf(stderr, "query_max_ms %.3f\n", qmax);
	if (b->paced)
		fprintf(stderr, "paced 1\n");
	if (b->verify) {
		fprintf(stderr, "verify_runs %zu\n", b->vruns);
		fprintf(stderr, "verify_runs_fail %zu\n", b->vfail);
		fprintf(stderr, "verify_done %zu\n", b->vdone);
		fprintf(stderr, "verify_total %zu\n", b->vtotal);
	}
	free(kv);
	if (getrusage(RUSAGE_SELF, &ru) == 0)	/* ru_maxrss is in KiB */
		fprintf(stderr, "peak_rss_mb %.1f\n",
		    (double)ru.ru_maxrss / 1024.0);
out:
	for (size_t i = 0; i < b->nkeys; i++)
		free(b->keys[i].name);
	free(b->keys);
	free(b);
	return status;
}
