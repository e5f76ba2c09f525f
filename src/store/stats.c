/*
 * stats.c - the queue's statistics (one GROUP BY over a filter, or the
 * counts the triggers keep in queue_sum) and the reviewers' numbers:
 * agreement between two reviewers, throughput, the votes on one
 * candidate.  See store.h for the contracts.
 */
#include "store/store_int.h"

#include <stdlib.h>
#include <string.h>

#include "model/agreement.h"
#include "model/vocab.h"

/* --- statistics ---------------------------------------------------- */

void
store_stat_release(struct store_stat *c)
{
	if (c == NULL)
		return;
	free(c->group);
	free(c->verdict);
	free(c->category);
	free(c->subcategory);
	memset(c, 0, sizeof *c);
}

const char *
store_stat_bucket(const struct store_stat *c)
{
	const char *vd = c->verdict;

	if (verdict_is(vd, VERDICT_PASS))
		return "pass";
	if (c->category != NULL)
		return c->category;
	if (vd == NULL)
		return "unverified";
	if (verdict_failed(vd))
		return "unlabelled";
	return vd;
}

static void
stat_fill(sqlite3_stmt *s, void *item)
{
	struct store_stat *c = item;

	c->group = col_text(s, 0);
	if (c->group == NULL)
		c->group = xstrdup("");
	c->verdict = col_text(s, 1);
	c->category = col_text(s, 2);
	c->subcategory = col_text(s, 3);
	c->count = (size_t)sqlite3_column_int64(s, 4);
}

static void
stat_free(void *item)
{
	store_stat_release(item);
}

int
store_stats(struct store *st, const char *filter, const char *group_key,
    struct store_stat **out, size_t *n, struct err *err)
{
	struct fquery q;
	struct buf cols = BUF_INIT;
	const char *gexpr = NULL;
	int rc;

	*out = NULL;
	*n = 0;
	gexpr = filter_key_expr(group_key);
	if (gexpr == NULL)
		return err_set(err, "cannot group by '%s'", group_key != NULL ?
		    group_key : "");
	if (fquery_open(st, filter, NULL, &q, err) < 0)
		return -1;
	/*
	 * The category and subcategory of the queue (q, as QUEUE_COLS).
	 * A task's column (benchmark, domain, env) is joined once the
	 * candidates are counted per task: a million rows are counted on
	 * the queue_task_stats index, not joined a million times.
	 */
	if (strcmp(buf_str(&q.f.where), " WHERE 1") == 0 &&
	    (strncmp(gexpr, "t.", 2) == 0 || strcmp(gexpr, "q.origin") == 0 ||
	    strcmp(gexpr, "q.task_id") == 0)) {
		/* the whole queue: its counts are kept (queue_sum) */
		int task = gexpr[0] == 't';

		buf_printf(&q.sql, "SELECT %s%s AS g, nullif(s.verdict, '') AS"
		    " vd, nullif(s.category, '') AS cat, nullif(s.subcategory,"
		    " '') AS sub, sum(s.n) FROM queue_sum s%s WHERE s.n > 0",
		    task ? gexpr : "s.", task ? "" : gexpr + 2, task ?
		    " JOIN task t ON t.id = s.task_id" : "");
	} else if (strncmp(gexpr, "t.", 2) == 0) {
		buf_printf(&q.sql, "SELECT %s AS g, vd, cat, sub, sum(k) FROM"
		    " (SELECT q.task_id AS tid, q.verdict AS vd, q.category AS"
		    " cat, q.subcategory AS sub, count(*) AS k", gexpr);
		queue_from(&q.sql, buf_str(&q.f.where));
		buf_printf(&q.sql, "%s GROUP BY tid, vd, cat, sub) JOIN task t"
		    " ON t.id = tid", buf_str(&q.f.where));
	} else {
		buf_printf(&cols, "%s AS g, q.verdict AS vd, q.category AS cat,"
		    " q.subcategory AS sub, count(*)", gexpr);
		fquery_select(&q, buf_str(&cols));
		buf_release(&cols);
	}
	buf_adds(&q.sql, " GROUP BY g, vd, cat, sub ORDER BY g, vd, cat, sub");
	if (fquery_prepare(st, &q, err) < 0)
		return -1;
	/* rows_read() finalizes the statement */
	rc = rows_read(st, q.s, sizeof **out, SIZE_MAX, stat_fill, stat_free,
	    out, n, "stats", err);
	q.s = NULL;
	fquery_release(&q);
	return rc;
}

/* --- reviewers: agreement, disagreements, throughput ----------------- */

/* " WHERE <col> IN (the filter's candidates)", or "" for no filter;
 * f is compiled (and must be released) either way. */
static int
review_scope(const char *filter, const char *col, struct filter *f,
    struct buf *sql, struct err *err)
{
	if (filter_compile(filter, f, err) < 0)
		return -1;
	if (filter != NULL && *filter != '\0')
		buf_printf(sql, " WHERE %s IN (SELECT c.id" QUEUE_FROM "%s)",
		    col, buf_str(&f->where));
	return 0;
}

int
store_agreement(struct store *st, const char *filter,
    struct agreement_pair **out, size_t *n, struct err *err)
{
	struct buf sql = BUF_INIT;
	struct filter f;
	sqlite3_stmt *s;
	int rc;

	*out = NULL;
	*n = 0;
	buf_adds(&sql, "WITH" REVIEW_CTES " SELECT a.by, b.by, a.category,"
	    " b.category, count(*) FROM votes a JOIN votes b"
	    " ON b.cand_id = a.cand_id AND a.by < b.by");
	if (review_scope(filter, "a.cand_id", &f, &sql, err) < 0) {
		buf_release(&sql);
		return -1;
	}
	buf_adds(&sql, " GROUP BY a.by, b.by, a.category, b.category"
	    " ORDER BY a.by, b.by");
	if (filter_prepare(st, &f, &sql, &s, err) < 0)
		return -1;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		const char *a = (const char *)sqlite3_column_text(s, 0);
		const char *b = (const char *)sqlite3_column_text(s, 1);
		int i = category_from_name(
		    (const char *)sqlite3_column_text(s, 2));
		int j = category_from_name(
		    (const char *)sqlite3_column_text(s, 3));
		struct agreement_pair *p = *n > 0 ? &(*out)[*n - 1] : NULL;

		if (p == NULL || strcmp(p->a, a) != 0 || strcmp(p->b, b) != 0) {
			*out = xreallocarray(*out, *n + 1, sizeof **out);
			p = &(*out)[(*n)++];
			memset(p, 0, sizeof *p);
			p->a = xstrdup(a);
			p->b = xstrdup(b);
		}
		if (i >= 0 && j >= 0)	/* the schema allows no other */
			p->m[i][j] += (size_t)sqlite3_column_int64(s, 4);
	}
	sqlite3_finalize(s);
	filter_release(&f);
	if (rc != SQLITE_DONE) {
		for (size_t i = 0; i < *n; i++)
			agreement_pair_release(&(*out)[i]);
		free(*out);
		*out = NULL;
		*n = 0;
		return err_sqlite(err, st->db, "agreement");
	}
	for (size_t i = 0; i < *n; i++)
		agreement_kappa(&(*out)[i]);
	return 0;
}

int
store_throughput(struct store *st, const char *filter,
    struct agreement_rate **out, size_t *n, struct err *err)
{
	struct buf sql = BUF_INIT;
	struct filter f;
	sqlite3_stmt *s;
	int rc;

	*out = NULL;
	*n = 0;
	buf_adds(&sql, "SELECT who, at FROM (SELECT id, who, at, cand_id"
	    " FROM event WHERE action IN ('label', 'review'))");
	if (review_scope(filter, "cand_id", &f, &sql, err) < 0) {
		buf_release(&sql);
		return -1;
	}
	buf_adds(&sql, " ORDER BY who, at, id");
	if (filter_prepare(st, &f, &sql, &s, err) < 0)
		return -1;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		const char *who = (const char *)sqlite3_column_text(s, 0);
		struct agreement_rate *r = *n > 0 ? &(*out)[*n - 1] : NULL;

		if (r == NULL || strcmp(r->who, who) != 0) {
			*out = xreallocarray(*out, *n + 1, sizeof **out);
			r = &(*out)[(*n)++];
			memset(r, 0, sizeof *r);
			r->who = xstrdup(who);
		}
		agreement_rate_add(r, sqlite3_column_int64(s, 1));
	}
	sqlite3_finalize(s);
	filter_release(&f);
	if (rc != SQLITE_DONE) {
		for (size_t i = 0; i < *n; i++)
			agreement_rate_release(&(*out)[i]);
		free(*out);
		*out = NULL;
		*n = 0;
		return err_sqlite(err, st->db, "throughput");
	}
	return 0;
}

static const struct col vote_cols[] = {
	COL(struct store_vote, by, COL_TEXT),
	COL(struct store_vote, category, COL_TEXT),
	COL(struct store_vote, final, COL_INT),
	COL(struct store_vote, label_id, COL_I64),
};

void
store_vote_release(struct store_vote *v)
{
	cols_release(v, sizeof *v, vote_cols, NCOLS(vote_cols));
}

int
store_votes(struct store *st, const char *cand_id, struct store_vote **out,
    size_t *n, struct err *err)
{
	/* one candidate's labels, found through the journal's index */
	return rows_by_cand(st, "WITH" LIVE_CTE("l.id IN (SELECT e0.after FROM"
	    " event e0 WHERE e0.cand_id = ?1 AND e0.action = 'label') AND")
	    VOTES_CTE " SELECT by, category, 0, id"
	    " FROM votes WHERE cand_id = ?1 UNION ALL SELECT by, category, 1,"
	    " id FROM live WHERE cand_id = ?1 AND final AND id = (SELECT"
	    " max(id) FROM live WHERE cand_id = ?1 AND final)"
	    " ORDER BY 3, 1", cand_id, sizeof **out, vote_cols,
	    NCOLS(vote_cols), out, n, "votes", err);
}
