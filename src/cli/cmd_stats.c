/*
 * cmd_stats.c - `assay stats`: pass rates, failure categories,
 * agreement, reviewers, models.  Moved from cli.c.
 */
#include "cli/cli_shared.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "base/buf.h"
#include "base/duration.h"
#include "base/err.h"
#include "envs/verilog.h"
#include "generate/generate.h"
#include "model/agreement.h"
#include "store/store.h"
#include "model/vocab.h"

/* One counted cell of a stats table. */
struct stats_cell {
	char	*group, *a, *b;	/* group, then two keys */
	size_t	 count;
};

struct stats_ctx {
	struct stats_cell *v;
	size_t		 n;
	const char	*by;
	int		 recorded;	/* recorded vs re-derived */
	struct store	*st;
};

static void
stats_add(struct stats_ctx *s, const char *group, const char *a,
    const char *b, size_t count)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (strcmp(s->v[i].group, group) == 0 &&
		    strcmp(s->v[i].a, a) == 0 && strcmp(s->v[i].b, b) == 0)
			break;
	if (i == s->n) {
		s->v = xreallocarray(s->v, s->n + 1, sizeof *s->v);
		s->v[i].group = xstrdup(group);
		s->v[i].a = xstrdup(a);
		s->v[i].b = xstrdup(b);
		s->v[i].count = 0;
		s->n++;
	}
	s->v[i].count += count;
}

/* "fail/compile", "pass", "unverified": a verdict with its stage. */
static char *
verdict_stage(const char *verdict, const char *stage)
{
	if (verdict == NULL)
		return xstrdup("unverified");
	if (verdict_is(verdict, VERDICT_PASS) || stage == NULL)
		return xstrdup(verdict);
	return xasprintf("%s/%s", verdict, stage);
}

/*
 * --recorded: the failure count a recorded log reports (mismatches,
 * failures; verilog_failure_count()) against the one of assay's latest
 * run (its "mismatches" or "failures" metric), as a cell of the group
 * "GROUP (failure count)": "failure count" / "same", "different" or "none
 * re-derived".  Rows whose log reports no count take no part.
 */
static void
stats_failures(struct stats_ctx *s, const char *group,
    const struct recorded *rec, const char *metrics)
{
	long then = rec->log != NULL ? verilog_failure_count(rec->log,
	    strlen(rec->log)) : -1, now = -1;
	json_t *m;
	char *g;

	if (then < 0)
		return;
	m = metrics != NULL ? json_loads(metrics, 0, NULL) : NULL;
	if (json_is_integer(json_object_get(m, "mismatches")))
		now = (long)json_integer_value(json_object_get(m,
		    "mismatches"));
	else if (json_is_integer(json_object_get(m, "failures")))
		now = (long)json_integer_value(json_object_get(m, "failures"));
	json_decref(m);
	/* A group of its own: the verdict rows' shares stay as they were. */
	g = xasprintf("%s (failure count)", group);
	stats_add(s, g, "failure count", now < 0 ? "none re-derived" :
	    now == then ? "same" : "different", 1);
	free(g);
}

/* --recorded: a row's first recorded result against assay's own. */
static int
stats_one(const struct store_row *r, void *arg)
{
	struct stats_ctx *s = arg;
	const char *group = strcmp(s->by, "model") == 0 ? r->origin :
	    strcmp(s->by, "domain") == 0 ? r->domain :
	    strcmp(s->by, "env") == 0 ? r->env : r->benchmark;
	char *now = verdict_stage(r->verdict, r->stage);

	if (s->recorded) {
		struct recorded *recs;
		size_t n;
		struct err err;

		/* Only rows that carry a recorded result take part. */
		if (store_recorded_list(s->st, r->id, &recs, &n, &err) == 0) {
			for (size_t i = 0; i < n && i < 1; i++) {
				char *then = verdict_stage(recs[i].verdict,
				    recs[i].stage);

				stats_add(s, group, then, now, 1);
				free(then);
				stats_failures(s, group, &recs[i], r->metrics);
			}
			for (size_t i = 0; i < n; i++)
				recorded_release(&recs[i]);
			free(recs);
		}
	}
	free(now);
	return 0;
}

/*
 * The error analysis from the store's GROUP BY, each cell where
 * store_stat_bucket() puts it (the `s` sheet's rule): a category with
 * its subcategory, else the verdict ("unverified" before any run).
 */
static int
stats_cells(struct stats_ctx *s, const char *where, struct err *err)
{
	struct store_stat *v;
	size_t n;

	if (store_stats(s->st, where, s->by, &v, &n, err) < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		const char *b = store_stat_bucket(&v[i]);
		int cat = v[i].category != NULL && b == v[i].category;

		/* a task without the column (no licence): "-", not "" */
		stats_add(s, v[i].group != NULL && *v[i].group != '\0' ?
		    v[i].group : "-", b, cat && v[i].subcategory != NULL ?
		    v[i].subcategory : "-", v[i].count);
		store_stat_release(&v[i]);
	}
	free(v);
	return 0;
}

static int
stats_cmp(const void *x, const void *y)
{
	const struct stats_cell *a = x, *b = y;
	int c = strcmp(a->group, b->group);

	if (c != 0)
		return c;
	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	c = strcmp(a->a, b->a);
	return c != 0 ? c : strcmp(a->b, b->b);
}

/* A CSV field, quoted when it needs to be (RFC 4180). */
static void
csv_field(const char *v)
{
	char *safe = cli_vis(v, NULL);	/* CSV is read on terminals too */

	v = safe;
	if (strpbrk(v, ",\"\n") == NULL) {
		fputs(v, stdout);
		free(safe);
		return;
	}
	putchar('"');
	for (; *v != '\0'; v++) {
		if (*v == '"')
			putchar('"');
		putchar(*v);
	}
	putchar('"');
	free(safe);
}

/*
 * stats --agreement: Cohen's kappa per pair of reviewers, each with its
 * 5x5 confusion matrix (rows the first cli_reviewer, columns the second),
 * and how many candidates wait in the disagreement queue.
 */
static int
stats_agreement(struct store *st, const char *where, const char *fmt)
{
	struct agreement_pair *p;
	struct buf open = BUF_INIT;
	struct err err;
	size_t n, nopen = 0;

	if (store_agreement(st, where, &p, &n, &err) < 0) {
		fprintf(stderr, "assay stats: %s\n", err.msg);
		return 2;
	}
	buf_printf(&open, "%s%sdisagree=yes", where != NULL ? where : "",
	    where != NULL ? " " : "");
	if (store_query_count(st, buf_str(&open), &nopen, &err) < 0) {
		fprintf(stderr, "assay stats: %s\n", err.msg);
		nopen = 0;
	}
	buf_release(&open);
	if (strcmp(fmt, "csv") == 0)
		printf("a,b,n,agree,po,pe,kappa,a_category,b_category,count\n");
	else if (strcmp(fmt, "md") == 0)
		printf("| a | b | n | agree | po | pe | kappa |\n"
		    "|---|---|---:|---:|---:|---:|---:|\n");
	else if (strcmp(fmt, "table") == 0 && n > 0)
		printf("%-16s %-16s %6s %6s %6s %6s %6s\n", "a", "b", "n",
		    "agree", "po", "pe", "kappa");
	for (size_t i = 0; i < n; i++) {
		char kappa[16];

		if (isnan(p[i].kappa))
			snprintf(kappa, sizeof kappa, "-");
		else
			snprintf(kappa, sizeof kappa, "%.3f", p[i].kappa);
		if (strcmp(fmt, "table") == 0) {
			printf("%-16.16s %-16.16s %6zu %6zu %6.3f %6.3f %6s\n",
			    p[i].a, p[i].b, p[i].n, p[i].agree, p[i].po,
			    p[i].pe, kappa);
		} else if (strcmp(fmt, "md") == 0) {
			printf("| %s | %s | %zu | %zu | %.3f | %.3f | %s |\n",
			    p[i].a, p[i].b, p[i].n, p[i].agree, p[i].po,
			    p[i].pe, kappa);
		} else if (strcmp(fmt, "csv") == 0) {
			for (int r = 0; r < AGREEMENT_NCAT; r++) {
				for (int c = 0; c < AGREEMENT_NCAT; c++) {
					csv_field(p[i].a);
					putchar(',');
					csv_field(p[i].b);
					printf(",%zu,%zu,%.4f,%.4f,%s,%s,%s,"
					    "%zu\n", p[i].n, p[i].agree,
					    p[i].po, p[i].pe, strcmp(kappa,
					    "-") == 0 ? "" : kappa,
					    category_name(r),
					    category_name(c),
					    p[i].m[r][c]);
				}
			}
		} else {
			json_t *m = json_array(), *o;

			for (int r = 0; r < AGREEMENT_NCAT; r++) {
				json_t *row = json_array();

				for (int c = 0; c < AGREEMENT_NCAT; c++)
					json_array_append_new(row,
					    json_integer((json_int_t)
					    p[i].m[r][c]));
				json_array_append_new(m, row);
			}
			o = json_pack("{s:s, s:s, s:I, s:I, s:f, s:f, s:o,"
			    " s:o}", "a", p[i].a, "b", p[i].b, "n",
			    (json_int_t)p[i].n, "agree",
			    (json_int_t)p[i].agree, "po", p[i].po, "pe",
			    p[i].pe, "kappa", isnan(p[i].kappa) ?
			    json_null() : json_real(p[i].kappa), "matrix", m);
			cli_print_json(o);
		}
	}
	/* the matrices, readable: rows are a's labels, columns b's */
	for (size_t i = 0; strcmp(fmt, "table") == 0 && i < n; i++) {
		printf("\n%s (rows) by %s (columns)\n%-12s", p[i].a, p[i].b,
		    "");
		for (int c = 0; c < AGREEMENT_NCAT; c++)
			printf(" %11s", category_name(c));
		putchar('\n');
		for (int r = 0; r < AGREEMENT_NCAT; r++) {
			printf("%-12s", category_name(r));
			for (int c = 0; c < AGREEMENT_NCAT; c++)
				printf(" %11zu", p[i].m[r][c]);
			putchar('\n');
		}
	}
	if (strcmp(fmt, "table") == 0) {
		if (n == 0)
			printf("no two reviewers labelled the same "
			    "candidate\n");
		printf("%s%zu candidate%s in disagreement (disagree=yes)\n",
		    n > 0 ? "\n" : "", nopen, nopen == 1 ? "" : "s");
	}
	for (size_t i = 0; i < n; i++)
		agreement_pair_release(&p[i]);
	free(p);
	return 0;
}

/*
 * A time (seconds since 1970) as local "YYYY-MM-DD HH:MM".  Why: a time
 * localtime_r cannot convert (a journal from an old import with an "at"
 * far beyond year 9999) gives NULL, and strftime must not see that: the
 * raw number is shown instead.
 */
static void
when(int64_t t, char *buf, size_t n)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if ((int64_t)tt != t || localtime_r(&tt, &tm) == NULL ||
	    strftime(buf, n, "%Y-%m-%d %H:%M", &tm) == 0)
		snprintf(buf, n, "@%lld", (long long)t);
}

/* stats --reviewers: decisions per hour per cli_reviewer, from the journal. */
static int
stats_reviewers(struct store *st, const char *where, const char *fmt)
{
	struct agreement_rate *r;
	struct err err;
	size_t n;

	if (store_throughput(st, where, &r, &n, &err) < 0) {
		fprintf(stderr, "assay stats: %s\n", err.msg);
		return 2;
	}
	if (strcmp(fmt, "table") == 0)
		printf("%-20s %9s %6s %9s %9s  %-16s  %s\n", "reviewer",
		    "decisions", "timed", "active", "per_hour", "first",
		    "last");
	else if (strcmp(fmt, "csv") == 0)
		printf("reviewer,decisions,timed,active_s,per_hour,first,"
		    "last\n");
	else if (strcmp(fmt, "md") == 0)
		printf("| reviewer | decisions | timed | active | per hour |\n"
		    "|---|---:|---:|---:|---:|\n");
	for (size_t i = 0; i < n; i++) {
		double ph = agreement_rate_per_hour(&r[i]);
		char rate[32], act[32], t0[32], t1[32];

		if (ph < 0)
			snprintf(rate, sizeof rate, "-");
		else
			snprintf(rate, sizeof rate, "%.1f", ph);
		duration_hms(r[i].active_s, act, sizeof act);
		when(r[i].first, t0, sizeof t0);
		when(r[i].last, t1, sizeof t1);
		if (strcmp(fmt, "table") == 0) {
			printf("%-20.20s %9zu %6zu %9s %9s  %-16s  %s\n",
			    r[i].who, r[i].decisions, r[i].timed, act, rate,
			    t0, t1);
		} else if (strcmp(fmt, "csv") == 0) {
			csv_field(r[i].who);
			printf(",%zu,%zu,%lld,%s,%lld,%lld\n", r[i].decisions,
			    r[i].timed, (long long)r[i].active_s, ph < 0 ? "" :
			    rate, (long long)r[i].first,
			    (long long)r[i].last);
		} else if (strcmp(fmt, "md") == 0) {
			printf("| %s | %zu | %zu | %s | %s |\n", r[i].who,
			    r[i].decisions, r[i].timed, act, rate);
		} else {
			cli_print_json(json_pack("{s:s, s:I, s:I, s:I, s:o, s:I,"
			    " s:I}", "reviewer", r[i].who, "decisions",
			    (json_int_t)r[i].decisions, "timed",
			    (json_int_t)r[i].timed, "active_s",
			    (json_int_t)r[i].active_s, "per_hour", ph < 0 ?
			    json_null() : json_real(ph), "first",
			    (json_int_t)r[i].first, "last",
			    (json_int_t)r[i].last));
		}
		agreement_rate_release(&r[i]);
	}
	if (n == 0 && strcmp(fmt, "table") == 0)
		printf("no decisions in the journal\n");
	free(r);
	return 0;
}

/* "a/b" of the round r repairs, or "-". */
static void
round_cell(const struct gen_stat *s, int r, char *buf, size_t n)
{
	if (s->tried[r] == 0)
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, "%zu/%zu", s->fixed[r], s->tried[r]);
}

/*
 * stats --generation: per model, candidates, pass rate, pass@k, repairs
 * per round, tokens and time, in fmt (table, csv, json, md).  under:
 * printed under another table (a blank line first, nothing when no model
 * made a candidate).  by_feedback: a row per model and feedback level
 * (gen_stats()), the level in a column after the model.  Returns the exit
 * status.
 */
static int
stats_generation(struct store *st, const char *where, const char *fmt,
    int under, enum gen_stats_by by)
{
	struct gen_stat *v = NULL;
	struct err err;
	size_t n = 0;
	int rounds = 0;
	const char *col = by == GEN_BY_STRATEGY ? "strategy" : "model";
	int by_feedback = by == GEN_BY_FEEDBACK;

	if (gen_stats(st, where, by, &v, &n, &err) < 0) {
		fprintf(stderr, "assay stats: %s\n", err.msg);
		return 2;
	}
	if (under && n == 0)
		return 0;
	for (size_t i = 0; i < n; i++)
		for (int r = 0; r < GEN_ROUNDS_MAX; r++)
			if (v[i].tried[r] > 0 && r + 1 > rounds)
				rounds = r + 1;
	if (strcmp(fmt, "json") == 0) {
		for (size_t i = 0; i < n; i++) {
			json_t *rr = json_array(), *o;
			char *line;

			for (int r = 0; r < rounds; r++)
				json_array_append_new(rr, json_pack("{s:i,"
				    " s:I, s:I}", "round", r + 1, "tried",
				    (json_int_t)v[i].tried[r], "passed",
				    (json_int_t)v[i].fixed[r]));
			o = json_pack("{s:s, s:I, s:I, s:I, s:o, s:o, s:o,"
			    " s:I, s:I, s:I, s:I}", col, v[i].model,
			    "generated", (json_int_t)v[i].generated, "passed",
			    (json_int_t)v[i].passed, "tasks",
			    (json_int_t)v[i].tasks, "pass@1", v[i].tasks > 0 ?
			    json_real(v[i].pass1) : json_null(),
			    "pass@k", v[i].k > 0 ? json_pack("{s:i, s:f}", "k",
			    v[i].k, "value", v[i].passk) : json_null(),
			    "repairs", rr, "prompt_tokens",
			    (json_int_t)v[i].prompt_tokens,
			    "completion_tokens",
			    (json_int_t)v[i].completion_tokens, "requests",
			    (json_int_t)v[i].requests, "latency_ms",
			    (json_int_t)v[i].latency_ms);
			json_object_set_new(o, "failed_requests",
			    json_integer((json_int_t)v[i].failed));
			json_object_set_new(o, "pass_rate", v[i].generated > 0 ?
			    json_real((double)v[i].passed /
			    (double)v[i].generated) : json_null());
			if (v[i].optimized > 0)
				json_object_set_new(o, "optimizations",
				    json_pack("{s:I, s:I}", "tried",
				    (json_int_t)v[i].optimized, "passed",
				    (json_int_t)v[i].opt_passed));
			if (by == GEN_BY_FEEDBACK)
				json_object_set_new(o, "feedback",
				    json_string(v[i].feedback));
			line = json_dumps(o, JSON_COMPACT);
			printf("%s\n", line);
			free(line);
			json_decref(o);
		}
		gen_stats_release(v, n);
		return 0;
	}
	if (under)
		printf("\n");
	if (n == 0 && strcmp(fmt, "table") == 0) {
		printf("no candidate was made by a model (assay generate,"
		    " assay repair)\n");
		gen_stats_release(v, n);
		return 0;
	}
	/* table, csv or md: the same columns, one row per model */
	if (strcmp(fmt, "csv") == 0) {
		printf("%s,%sgenerated,passed,pass@1,pass@k,k", col,
		    by_feedback ? "feedback," : "");
		for (int r = 0; r < rounds; r++)
			printf(",repair_r%d_passed,repair_r%d_tried", r + 1,
			    r + 1);
		printf(",prompt_tokens,completion_tokens,s_per_request\n");
	} else if (strcmp(fmt, "md") == 0) {
		printf("| %s |%s generated | pass | pass@1 | pass@k |", col,
		    by_feedback ? " feedback |" : "");
		for (int r = 0; r < rounds; r++)
			printf(" repair r%d |", r + 1);
		printf(" tokens in | tokens out | s/request |\n|---|%s---:|"
		    "---:|---:|---:|", by_feedback ? "---|" : "");
		for (int r = 0; r < rounds; r++)
			printf("---:|");
		printf("---:|---:|---:|\n");
	} else {
		printf("%-20s", col);
		if (by_feedback)
			printf(" %-8s", "feedback");
		printf(" %9s %6s %7s %12s", "generated", "pass", "pass@1",
		    "pass@k");
		for (int r = 0; r < rounds; r++)
			printf(" %8s%d", "repair r", r + 1);
		printf(" %10s %10s %9s\n", "tokens in", "tokens out",
		    "s/request");
	}
	for (size_t i = 0; i < n; i++) {
		char pk[32], p1[16], cell[32];
		double spr = v[i].requests > v[i].failed ?
		    (double)v[i].latency_ms / 1000.0 /
		    (double)(v[i].requests - v[i].failed) : 0;

		if (v[i].k > 0)
			snprintf(pk, sizeof pk, "%.3f (k=%d)", v[i].passk,
			    v[i].k);
		else
			snprintf(pk, sizeof pk, "-");
		if (v[i].tasks > 0)
			snprintf(p1, sizeof p1, "%.3f", v[i].pass1);
		else
			snprintf(p1, sizeof p1, "-");	/* repairs only */
		if (strcmp(fmt, "csv") == 0) {
			csv_field(v[i].model);
			if (by_feedback)
				printf(",%s", v[i].feedback);
			printf(",%zu,%zu,", v[i].generated, v[i].passed);
			if (v[i].tasks > 0)
				printf("%.4f", v[i].pass1);
			if (v[i].k > 0)
				printf(",%.4f,%d", v[i].passk, v[i].k);
			else
				printf(",,");
			for (int r = 0; r < rounds; r++)
				printf(",%zu,%zu", v[i].fixed[r],
				    v[i].tried[r]);
			printf(",%lld,%lld,%.2f\n",
			    (long long)v[i].prompt_tokens,
			    (long long)v[i].completion_tokens, spr);
			continue;
		}
		if (strcmp(fmt, "md") == 0) {
			char *model = cli_vis(v[i].model, NULL);

			printf("| %s |", model);
			if (by_feedback)
				printf(" %s |", v[i].feedback);
			printf(" %zu | %zu | %s | %s |", v[i].generated,
			    v[i].passed, p1, pk);
			free(model);
			for (int r = 0; r < rounds; r++) {
				round_cell(&v[i], r, cell, sizeof cell);
				printf(" %s |", cell);
			}
			printf(" %lld | %lld | %.2f |\n",
			    (long long)v[i].prompt_tokens,
			    (long long)v[i].completion_tokens, spr);
			continue;
		}
		printf("%-20.20s", v[i].model);
		if (by_feedback)
			printf(" %-8s", v[i].feedback);
		printf(" %9zu %6zu %7s %12s", v[i].generated, v[i].passed, p1,
		    pk);
		for (int r = 0; r < rounds; r++) {
			round_cell(&v[i], r, cell, sizeof cell);
			printf(" %9s", cell);
		}
		printf(" %10lld %10lld %9.2f\n", (long long)v[i].prompt_tokens,
		    (long long)v[i].completion_tokens, spr);
	}
	gen_stats_release(v, n);
	return 0;
}

static const struct cmd_opt stats_opts[] = {
	{ "by", 0, CMD_VALUE, 'b' },
	{ "where", 0, CMD_VALUE, 'w' },
	{ "format", 0, CMD_VALUE, 'f' },
	{ "recorded", 0, CMD_FLAG, 'r' },
	{ "agreement", 0, CMD_FLAG, 'a' },
	{ "reviewers", 0, CMD_FLAG, 'R' },
	{ "generation", 0, CMD_FLAG, 'G' },
	{ NULL, 0, CMD_FLAG, 0 }
};

static int
cmd_stats(struct cmd_ctx *ctx, struct cmd_args *a, struct err *err)
{
	const struct cli_global *g = ctx->front;
	const char *val = NULL;
	struct stats_ctx s = { .by = "benchmark" };
	int people = 0;	/* 'a' agreement, 'R' reviewers */
	int by_given = 0;
	const char *fmt = "table", *ka, *kb;
	struct buf where = BUF_INIT;
	struct store *st;
	int ch;

	while ((ch = cmd_next(a, &val)) != -1) {
		if (ch == 'b') {
			s.by = val;
			by_given = 1;
		}
		else if (ch == 'w')
			cli_where_add(&where, val);
		else if (ch == 'f')
			fmt = val;
		else if (ch == 'r')
			s.recorded = 1;
		else if (ch == 'a' || ch == 'R' || ch == 'G')
			people = ch;
	}
	if (people == 'G' && by_given && strcmp(s.by, "model") != 0 &&
	    strcmp(s.by, "strategy") != 0 && strcmp(s.by, "feedback") != 0)
		return cli_usage_error("stats", "--generation goes --by model,"
		    " --by strategy or --by feedback, not '%s'", s.by);
	if (people != 'G' && (strcmp(s.by, "feedback") == 0 ||
	    strcmp(s.by, "strategy") == 0))
		return cli_usage_error("stats", "--by %s goes with"
		    " --generation", s.by);
	if (people != 'G' && strcmp(s.by, "benchmark") != 0 &&
	    strcmp(s.by, "model") != 0 &&
	    strcmp(s.by, "domain") != 0 && strcmp(s.by, "env") != 0 &&
	    strcmp(s.by, "license") != 0 && strcmp(s.by, "split") != 0)
		return cli_usage_error("stats", "--by wants benchmark, model, domain,"
		    " env, license or split, not '%s'", s.by);
	if (strcmp(fmt, "table") != 0 && strcmp(fmt, "csv") != 0 &&
	    strcmp(fmt, "json") != 0 && strcmp(fmt, "md") != 0)
		return cli_usage_error("stats", "--format wants table, csv, json or"
		    " md, not '%s'", fmt);
	if (cli_open_store(g, &st) < 0)
		return 2;
	if (people != 0) {
		int rc = people == 'a' ? stats_agreement(st, WHERE(where),
		    fmt) : people == 'G' ? stats_generation(st,
		    WHERE(where), fmt, 0, strcmp(s.by, "strategy") == 0 ?
		    GEN_BY_STRATEGY : strcmp(s.by, "feedback") == 0 ?
		    GEN_BY_FEEDBACK : GEN_BY_MODEL) : stats_reviewers(st,
		    WHERE(where), fmt);

		store_close(st);
		buf_release(&where);
		return rc;
	}
	s.st = st;
	if ((s.recorded ? store_query_each(st, WHERE(where), stats_one, &s,
	    err) : stats_cells(&s, WHERE(where), err)) < 0) {
		buf_release(&where);
		fprintf(stderr, "assay stats: %s\n", err->msg);
		store_close(st);
		return 2;
	}
	store_close(st);
	qsort(s.v, s.n, sizeof *s.v, stats_cmp);
	ka = s.recorded ? "recorded" : "category";
	kb = s.recorded ? "re-derived" : "subcategory";
	if (strcmp(fmt, "table") == 0)
		printf("%-28s %-20s %-26s %7s %7s\n", s.by, ka, kb, "count",
		    "share");
	else if (strcmp(fmt, "csv") == 0)
		printf("%s,%s,%s,count,share\n", s.by, ka, kb);
	else if (strcmp(fmt, "md") == 0)
		printf("| %s | %s | %s | count | share |\n|---|---|---|---:|---:|\n",
		    s.by, ka, kb);
	for (size_t i = 0; i < s.n; i++) {
		size_t total = 0;
		double share;

		/* The share is within the group: a row of the published
		 * error analysis. */
		for (size_t k = 0; k < s.n; k++)
			if (strcmp(s.v[k].group, s.v[i].group) == 0)
				total += s.v[k].count;
		share = total > 0 ? 100.0 * (double)s.v[i].count /
		    (double)total : 0;
		if (strcmp(fmt, "table") == 0) {
			char *group = cli_vis(s.v[i].group, NULL);

			printf("%-28.28s %-20.20s %-26.26s %7zu %6.1f%%\n",
			    group, s.v[i].a, s.v[i].b, s.v[i].count, share);
			free(group);
		} else if (strcmp(fmt, "csv") == 0) {
			csv_field(s.v[i].group);
			putchar(',');
			csv_field(s.v[i].a);
			putchar(',');
			csv_field(s.v[i].b);
			printf(",%zu,%.4f\n", s.v[i].count, share / 100);
		} else if (strcmp(fmt, "md") == 0) {
			char *group = cli_vis(s.v[i].group, NULL);

			printf("| %s | %s | %s | %zu | %.1f%% |\n", group,
			    s.v[i].a, s.v[i].b, s.v[i].count, share);
			free(group);
		} else {
			cli_print_json(json_pack("{s:s, s:s, s:s, s:I, s:f}", s.by,
			    s.v[i].group, ka, s.v[i].a, kb, s.v[i].b, "count",
			    (json_int_t)s.v[i].count, "share", share / 100));
		}
	}
	for (size_t i = 0; i < s.n; i++) {
		free(s.v[i].group);
		free(s.v[i].a);
		free(s.v[i].b);
	}
	free(s.v);
	/* By model, the table goes on with what the models' runs cost. */
	if (strcmp(s.by, "model") == 0 && !s.recorded &&
	    strcmp(fmt, "table") == 0 && cli_open_store(g, &st) == 0) {
		stats_generation(st, WHERE(where), fmt, 1, GEN_BY_MODEL);
		store_close(st);
	}
	buf_release(&where);
	return 0;
}

const struct cmd_entry cli_cmd_stats = {
	"stats", NULL, stats_opts, 0, 0,
	"stats [--by benchmark|model|domain|env|license|split|strategy|"
	  "feedback]"
	  " [--where FILTER]\n"
	  "             [--format table|csv|json|md]\n"
	  "             [--recorded | --agreement | --reviewers |"
	  " --generation]",
	  "The error analysis: per group, candidates by category and\n"
	  "subcategory (the current label, else the run's suggestion), the\n"
	  "others by verdict, with counts and shares of the group.  A pass\n"
	  "counts as pass whatever its label; otherwise a category wins over\n"
	  "the verdict (an env-error labelled compile is compile), as the\n"
	  "workbench's s sheet counts.\n"
	  "--recorded instead crosses each imported row's recorded result with\n"
	  "assay's re-derived verdict and stage, and, in a group \"GROUP\n"
	  "(failure count)\", the failure count its recorded log reports\n"
	  "(mismatches, failures) with the re-derived one: same, different.\n"
	  "--agreement: for every two reviewers who labelled the same\n"
	  "candidates, Cohen's kappa and the 5x5 confusion matrix of their\n"
	  "categories (each reviewer's newest label that stands; final labels\n"
	  "that settle a disagreement are not votes), and how many candidates\n"
	  "are in disagreement (the filter disagree=yes).\n"
	  "--reviewers: decisions (labels and reviews in the journal) per\n"
	  "reviewer and per hour: each decision takes the time since the\n"
	  "reviewer's previous one; a pause over 5 minutes is a break, and\n"
	  "the decision after it is not timed.\n"
	  "--generation: per model that made candidates (generate, repair):\n"
	  "its samples (every answer, the same code twice counted twice),\n"
	  "pass rate, pass@1 and pass@k over the samples drawn (k the fewest\n"
	  "samples of a task; Chen et al. 2021), repairs tried and passing\n"
	  "per round, requests sent, tokens and time; --by model shows it\n"
	  "under its table.  --generation --by strategy groups the samples by\n"
	  "the strategy they were asked with (direct, perturb, migrate; repair\n"
	  "and optimize for those requests) instead of the model.\n"
	  "--generation --by feedback: a row per model and feedback level of\n"
	  "the repair requests (rich, minimal: repair --feedback), so that the\n"
	  "repair pass rates compare on the same tasks; the direct samples are\n"
	  "the row \"none\".",
	CMD_CLI, cmd_stats
};
