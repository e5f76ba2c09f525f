/*
 * queue.c - reading the queue through a filter: counts, pages by seq
 * (keyset), positions, matches, finds, every row; and the saved views
 * (a name for a filter text).  The filter itself is compiled by
 * filter.c; see store.h for the contracts.
 */
#include "store/store_int.h"

#include <regex.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void
store_row_release(struct store_row *r)
{
	if (r == NULL)
		return;
	free(r->id);
	free(r->task);
	free(r->benchmark);
	free(r->domain);
	free(r->origin);
	free(r->kind);
	free(r->lang);
	free(r->parent);
	free(r->source);
	free(r->env);
	free(r->verdict);
	free(r->stage);
	free(r->metrics);
	free(r->category);
	free(r->subcategory);
	free(r->category_source);
	free(r->status);
	free(r->reviewed_by);
	memset(r, 0, sizeof *r);
}

static void
row_from_stmt(sqlite3_stmt *s, struct store_row *r)
{
	r->seq = sqlite3_column_int64(s, 0);
	r->id = col_text(s, 1);
	r->task = col_text(s, 2);
	r->benchmark = col_text(s, 3);
	r->domain = col_text(s, 4);
	r->origin = col_text(s, 5);
	r->kind = col_text(s, 6);
	r->lang = col_text(s, 7);
	r->parent = col_text(s, 8);
	r->source = col_text(s, 9);
	r->env = col_text(s, 10);
	r->verdict = col_text(s, 11);
	r->stage = col_text(s, 12);
	r->metrics = col_text(s, 13);
	r->category = col_text(s, 14);
	r->subcategory = col_text(s, 15);
	r->category_source = col_text(s, 16);
	r->status = col_text(s, 17);
	r->reviewed_by = col_text(s, 18);
}

int
store_query_count(struct store *st, const char *filter, size_t *n,
    struct err *err)
{
	struct fquery q;
	int rc;

	*n = 0;
	if (fquery_open(st, filter, "count(*)", &q, err) < 0)
		return -1;
	if (q.f.only) {
		*n = q.f.count;
		fquery_release(&q);
		return 0;
	}
	if (fquery_prepare(st, &q, err) < 0)
		return -1;
	rc = sqlite3_step(q.s);
	if (rc == SQLITE_ROW)
		*n = (size_t)sqlite3_column_int64(q.s, 0);
	fquery_release(&q);
	if (rc != SQLITE_ROW)
		return err_sqlite(err, st->db, "count");
	return 0;
}

static void
row_fill(sqlite3_stmt *s, void *item)
{
	row_from_stmt(s, item);
}

static void
row_free(void *item)
{
	store_row_release(item);
}

int
store_query_page(struct store *st, const char *filter, size_t offset,
    size_t limit, struct store_row **out, size_t *n, struct err *err)
{
	return store_query_seek(st, filter, 0, 1, offset, limit, out, n, err);
}

int
store_query_seek(struct store *st, const char *filter, int64_t from,
    int dir, size_t skip, size_t limit, struct store_row **out, size_t *n,
    struct err *err)
{
	struct fquery q;
	int rc;

	*out = NULL;
	*n = 0;
	if (fquery_open(st, filter, NULL, &q, err) < 0)
		return -1;
	/*
	 * A search pages through its own table of matches (CROSS JOIN keeps
	 * it outermost): from the seek on, not from its first match.
	 */
	if (q.f.drive >= 0)
		buf_printf(&q.sql, "SELECT " QUEUE_COLS " FROM temp.grep_%d gk"
		    " CROSS JOIN queue q ON q.seq = gk.seq" QUEUE_JOINS "%s"
		    " AND gk.seq %s ?%zu ORDER BY gk.seq %s LIMIT %zu"
		    " OFFSET %zu", q.f.drive, buf_str(&q.f.where), dir < 0 ?
		    "<" : ">", q.f.nvals + 1, dir < 0 ? "DESC" : "ASC", limit,
		    skip);
	else
		buf_printf(&q.sql, "SELECT " QUEUE_COLS QUEUE_FROM "%s AND q.seq"
		    " %s ?%zu ORDER BY q.seq %s LIMIT %zu OFFSET %zu",
		    buf_str(&q.f.where), dir < 0 ? "<" : ">", q.f.nvals + 1,
		    dir < 0 ? "DESC" : "ASC", limit, skip);
	if (fquery_prepare(st, &q, err) < 0)
		return -1;
	sqlite3_bind_int64(q.s, (int)q.f.nvals + 1, from);
	/* rows_read() finalizes the statement */
	rc = rows_read(st, q.s, sizeof **out, limit, row_fill, row_free, out,
	    n, "page", err);
	q.s = NULL;
	fquery_release(&q);
	if (rc < 0)
		return -1;
	/* ascending either way */
	for (size_t i = 0; dir < 0 && i < *n / 2; i++) {
		struct store_row t = (*out)[i];

		(*out)[i] = (*out)[*n - 1 - i];
		(*out)[*n - 1 - i] = t;
	}
	return 0;
}

int
store_query_nth(struct store *st, const char *filter, int64_t from, int dir,
    size_t skip, int64_t *seq, struct err *err)
{
	struct fquery q;
	const char *gk;
	int rc;

	*seq = 0;
	if (fquery_open(st, filter, NULL, &q, err) < 0)
		return -1;
	/* only the seq: the rows skipped are narrow queue (or match) rows */
	if (q.f.drive >= 0) {
		buf_printf(&q.sql, "SELECT gk.seq FROM temp.grep_%d gk CROSS"
		    " JOIN queue q ON q.seq = gk.seq", q.f.drive);
		queue_joins(&q.sql, buf_str(&q.f.where));
		gk = "gk";
	} else {
		buf_adds(&q.sql, "SELECT q.seq");
		queue_from(&q.sql, buf_str(&q.f.where));
		gk = "q";
	}
	buf_printf(&q.sql, "%s AND %s.seq %s ?%zu ORDER BY %s.seq %s LIMIT 1"
	    " OFFSET %zu", buf_str(&q.f.where), gk, dir < 0 ? "<" : ">",
	    q.f.nvals + 1, gk, dir < 0 ? "DESC" : "ASC", skip);
	if (fquery_prepare(st, &q, err) < 0)
		return -1;
	sqlite3_bind_int64(q.s, (int)q.f.nvals + 1, from);
	rc = sqlite3_step(q.s);
	if (rc == SQLITE_ROW)
		*seq = sqlite3_column_int64(q.s, 0);
	fquery_release(&q);
	if (rc == SQLITE_DONE)
		return 1;
	if (rc != SQLITE_ROW)
		return err_sqlite(err, st->db, "seek");
	return 0;
}

int
store_query_position(struct store *st, const char *filter, int64_t seq,
    size_t *index, struct err *err)
{
	struct fquery q;
	int rc, found = 1;

	if (fquery_open(st, filter, NULL, &q, err) < 0)
		return -1;
	/*
	 * A search counts through its own table of matches, as a page does
	 * (CROSS JOIN keeps it outermost): SQLite's own plan walked the
	 * queue (671 ms for a cursor's place on a million candidates).
	 * A grep= that is the whole filter needs no queue row at all.
	 */
	if (q.f.only) {
		/* a grep= alone: its table of matches is the view */
		buf_printf(&q.sql, "SELECT count(*), max(seq) FROM"
		    " temp.grep_%d WHERE seq <= ?%zu", q.f.drive,
		    q.f.nvals + 1);
	} else if (q.f.drive >= 0) {
		buf_printf(&q.sql, "SELECT count(*), max(gk.seq) FROM"
		    " temp.grep_%d gk CROSS JOIN queue q ON q.seq = gk.seq",
		    q.f.drive);
		queue_joins(&q.sql, buf_str(&q.f.where));
		buf_printf(&q.sql, "%s AND gk.seq <= ?%zu",
		    buf_str(&q.f.where), q.f.nvals + 1);
	} else {
		fquery_select(&q, "count(*), max(q.seq)");
		buf_printf(&q.sql, " AND q.seq <= ?%zu", q.f.nvals + 1);
	}
	if (fquery_prepare(st, &q, err) < 0)
		return -1;
	sqlite3_bind_int64(q.s, (int)q.f.nvals + 1, seq);
	rc = sqlite3_step(q.s);
	if (rc == SQLITE_ROW && sqlite3_column_int64(q.s, 1) == seq) {
		*index = (size_t)sqlite3_column_int64(q.s, 0) - 1;
		found = 0;
	}
	fquery_release(&q);
	if (rc != SQLITE_ROW)
		return err_sqlite(err, st->db, "locate");
	return found;
}

int
store_query_index(struct store *st, const char *filter, const char *cand_id,
    size_t *index, struct err *err)
{
	sqlite3_stmt *s;
	int64_t seq;
	int rc;

	if (prepare(st, &s, "SELECT seq FROM candidate WHERE id = ?1",
	    err) < 0)
		return -1;
	bind_text(s, 1, cand_id);
	rc = sqlite3_step(s);
	seq = rc == SQLITE_ROW ? sqlite3_column_int64(s, 0) : 0;
	sqlite3_finalize(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return err_sqlite(err, st->db, "locate");
	if (rc == SQLITE_DONE)
		return -1;
	rc = store_query_position(st, filter, seq, index, err);
	return rc == 0 ? 0 : -1;
}

int
store_query_match(struct store *st, const char *filter, const char *cand_id,
    int *match, struct err *err)
{
	struct fquery q;
	int rc;

	*match = 0;
	/* c.id: the candidate's own table */
	if (fquery_open(st, filter, "c.id", &q, err) < 0)
		return -1;
	buf_printf(&q.sql, " AND c.id = ?%zu", q.f.nvals + 1);
	if (fquery_prepare(st, &q, err) < 0)
		return -1;
	bind_text(q.s, (int)q.f.nvals + 1, cand_id);
	rc = sqlite3_step(q.s);
	*match = rc == SQLITE_ROW;
	fquery_release(&q);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return err_sqlite(err, st->db, "match");
	return 0;
}

/* assay_find(a, ...): 1 when the find's regex matches an argument. */
static void
find_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	const regex_t *re = sqlite3_user_data(ctx);

	for (int i = 0; i < argc; i++) {
		const unsigned char *t = sqlite3_value_text(argv[i]);

		if (t != NULL &&
		    regexec(re, (const char *)t, 0, NULL, 0) == 0) {
			sqlite3_result_int(ctx, 1);
			return;
		}
	}
	sqlite3_result_int(ctx, 0);
}

int
store_query_find(struct store *st, const char *filter, const char *pattern,
    int64_t from, int dir, int64_t *seq, struct err *err)
{
	struct fquery q;
	regex_t re;
	char ebuf[128];
	int rc;

	*seq = 0;
	rc = regcomp(&re, pattern, REG_EXTENDED | REG_ICASE | REG_NOSUB);
	if (rc != 0) {
		regerror(rc, &re, ebuf, sizeof ebuf);
		return err_set(err, "/%s: %s", pattern, ebuf);
	}
	/* the columns the queue shows, all on the narrow queue row */
	if (fquery_open(st, filter, "q.seq", &q, err) < 0) {
		regfree(&re);
		return -1;
	}
	buf_printf(&q.sql, " AND q.seq %s ?%zu AND assay_find(q.id,"
	    " q.task_id, q.origin, q.verdict, q.category) ORDER BY q.seq %s"
	    " LIMIT 1", dir < 0 ? "<" : ">", q.f.nvals + 1,
	    dir < 0 ? "DESC" : "ASC");
	if (sqlite3_create_function(st->db, "assay_find", -1, SQLITE_UTF8,
	    &re, find_fn, NULL, NULL) != SQLITE_OK) {
		err_sqlite(err, st->db, "find");
		rc = -1;
		goto out;
	}
	rc = fquery_prepare(st, &q, err);
	if (rc < 0)
		goto out;
	sqlite3_bind_int64(q.s, (int)q.f.nvals + 1, from);
	rc = sqlite3_step(q.s);
	if (rc == SQLITE_ROW) {
		*seq = sqlite3_column_int64(q.s, 0);
		rc = 0;
	} else if (rc == SQLITE_DONE) {
		rc = 1;
	} else {
		rc = err_sqlite(err, st->db, "find");
	}
out:
	/* the statement goes first, then the function, which points at
	 * re, then re */
	sqlite3_finalize(q.s);
	q.s = NULL;
	sqlite3_create_function(st->db, "assay_find", -1, SQLITE_UTF8, NULL,
	    NULL, NULL, NULL);
	fquery_release(&q);
	regfree(&re);
	return rc;
}

int
store_query_each(struct store *st, const char *filter,
    int (*cb)(const struct store_row *row, void *arg), void *arg,
    struct err *err)
{
	struct fquery q;
	int rc, stop = 0;

	if (fquery_open(st, filter, NULL, &q, err) < 0)
		return -1;
	buf_printf(&q.sql, "SELECT " QUEUE_COLS QUEUE_FROM "%s ORDER BY q.seq",
	    buf_str(&q.f.where));
	if (fquery_prepare(st, &q, err) < 0)
		return -1;
	while (!stop && (rc = sqlite3_step(q.s)) == SQLITE_ROW) {
		struct store_row r;

		memset(&r, 0, sizeof r);
		row_from_stmt(q.s, &r);
		stop = cb(&r, arg);
		store_row_release(&r);
	}
	fquery_release(&q);
	if (stop)
		return stop;
	if (rc != SQLITE_DONE)
		return err_sqlite(err, st->db, "query");
	return 0;
}

/* --- saved views ---------------------------------------------------- */

int
store_view_save(struct store *st, const char *name, const char *filter,
    const char *by, struct err *err)
{
	sqlite3_stmt *s;

	if (name == NULL || *name == '\0' || strpbrk(name, " \t") != NULL)
		return err_set(err, "a view wants a name without blanks");
	/* a bad filter is refused now, not when the view is applied */
	if (filter != NULL && *filter != '\0') {
		size_t cnt;

		if (store_query_count(st, filter, &cnt, err) < 0)
			return -1;
	}
	if (prepare(st, &s, "INSERT OR REPLACE INTO view(name, filter, by, at)"
	    " VALUES (?1, ?2, ?3, ?4)", err) < 0)
		return -1;
	bind_text(s, 1, name);
	bind_text(s, 2, filter != NULL ? filter : "");
	bind_text(s, 3, by);
	sqlite3_bind_int64(s, 4, now_s());
	return step_done(st, s, "save view", err);
}

static void
view_filter_fill(sqlite3_stmt *s, void *item)
{
	*(char **)item = col_text(s, 0);
}

int
store_view_get(struct store *st, const char *name, char **filter,
    struct err *err)
{
	*filter = NULL;
	return row_by_key(st, "SELECT filter FROM view WHERE name = ?1", name,
	    view_filter_fill, filter, "read view", err);
}

static const struct col view_cols[] = {
	COL(struct store_view, name, COL_TEXT),
	COL(struct store_view, filter, COL_TEXT),
};

void
store_view_release(struct store_view *v)
{
	cols_release(v, sizeof *v, view_cols, NCOLS(view_cols));
}

int
store_view_list(struct store *st, struct store_view **out, size_t *n,
    struct err *err)
{
	sqlite3_stmt *s;

	*out = NULL;
	*n = 0;
	if (prepare(st, &s, "SELECT name, filter FROM view ORDER BY name",
	    err) < 0)
		return -1;
	return rows_cols(st, s, sizeof **out, SIZE_MAX, view_cols,
	    NCOLS(view_cols), out, n, "read views", err);
}
