/*
 * wb.c - the workbench model: the queue page read from the store, the
 * candidate on screen with its task, runs, recorded results, notes and
 * votes, and the status message.  Reads through store.h only; draws
 * nothing.  Called by ui.c and the panes.
 */
#include "ui/wb.h"

#include "base/duration.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* fmt into line (n bytes) as one line: the status bar has no room for
 * more. */
static void
status_line(char *line, size_t n, const char *fmt, va_list ap)
{
	vsnprintf(line, n, fmt, ap);
	for (char *p = line; *p != '\0'; p++)
		if (*p == '\n' || *p == '\r' || *p == '\t')
			*p = ' ';
}

/* Keep text for :messages, whole, with its time. */
static void
msglog_add(struct wb *wb, const char *text, int is_err)
{
	size_t k;

	if (text[0] == '\0')
		return;
	k = wb->nmsglog++ % WB_MSGLOG;
	wb->msglog[k].at = time(NULL);
	wb->msglog[k].err = is_err;
	snprintf(wb->msglog[k].text, sizeof wb->msglog[k].text, "%s", text);
}

void
wb_msg(struct wb *wb, int is_err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	status_line(wb->msg, sizeof wb->msg, fmt, ap);
	va_end(ap);
	wb->msg_err = is_err;
	wb->dirty = 1;
	msglog_add(wb, wb->msg, is_err);
}

void
wb_ask(struct wb *wb, enum wb_ask kind, const char *fmt, ...)
{
	va_list ap;

	wb->ask = kind;
	wb->dirty = 1;
	va_start(ap, fmt);
	status_line(wb->question, sizeof wb->question, fmt, ap);
	va_end(ap);
	/* a question cut on the bar can be read whole there too */
	msglog_add(wb, wb->question, 0);
}

size_t
wb_shown(const struct wb *wb)
{
	return wb->count + (wb->gone ? 1 : 0);
}

static void
rows_free(struct wb *wb)
{
	for (size_t i = 0; i < wb->nrows; i++)
		store_row_release(&wb->rows[i]);
	free(wb->rows);
	wb->rows = NULL;
	wb->nrows = 0;
}

static void
cur_release(struct wb_cur *c)
{
	free(c->id);
	candidate_release(&c->cand);
	task_release(&c->task);
	store_row_release(&c->row);
	if (c->has_run)
		run_release(&c->run);
	for (size_t i = 0; i < c->nrec; i++)
		recorded_release(&c->rec[i]);
	free(c->rec);
	for (size_t i = 0; i < c->nnotes; i++)
		store_note_release(&c->notes[i]);
	free(c->notes);
	for (size_t i = 0; i < c->nvotes; i++)
		store_vote_release(&c->votes[i]);
	free(c->votes);
	memset(c, 0, sizeof *c);
}

/*
 * id may point into wb->cur (wb_sync passes wb->cur.id), which
 * cur_release() frees: everything below uses the copy, c->id.
 */
void
wb_load(struct wb *wb, const char *id)
{
	struct wb_cur *c = &wb->cur;
	struct store_row *row = NULL;
	struct err err;
	size_t n = 0;
	char *f, *keep = xstrdup(id);

	cur_release(c);
	id = NULL;	/* may be freed now */
	wb->cur_gen++;
	wb->dirty = 1;
	wb->lay.panes[WB_SPEC].scroll = 0;
	wb->lay.panes[WB_CODE].scroll = 0;
	wb->lay.panes[WB_CODE].hscroll = 0;
	wb->lay.panes[WB_TRACE].scroll = 0;
	if (keep == NULL)
		return;
	c->id = keep;
	if (store_candidate_get(wb->st, c->id, &c->cand, &err) != 0) {
		wb_msg(wb, 1, "load %s: %s", c->id, err.msg);
		return;
	}
	if (store_task_get(wb->st, c->cand.task_id, &c->task, &err) != 0)
		wb_msg(wb, 1, "load task %s: %s", c->cand.task_id, err.msg);
	c->has_run = store_run_latest(wb->st, c->id, &c->run, &err) == 0;
	if (store_recorded_list(wb->st, c->id, &c->rec, &c->nrec, &err) < 0) {
		c->rec = NULL;
		c->nrec = 0;
	}
	if (store_note_list(wb->st, c->id, &c->notes, &c->nnotes, &err) < 0) {
		c->notes = NULL;
		c->nnotes = 0;
	}
	if (store_votes(wb->st, c->id, &c->votes, &c->nvotes, &err) < 0) {
		c->votes = NULL;
		c->nvotes = 0;
	}
	f = xasprintf("id=%s", c->id);
	if (store_query_page(wb->st, f, 0, 1, &row, &n, &err) == 0 && n == 1)
		c->row = row[0];
	free(row);
	free(f);
}

const struct store_row *
wb_row(const struct wb *wb, size_t i)
{
	if (i < wb->rows_off || i >= wb->rows_off + wb->nrows)
		return NULL;
	return &wb->rows[i - wb->rows_off];
}

/* Why: the seq of a row, counted from one whose seq is known (from, dir
 * and skip as store_query_nth()).  0, 1: none (the queue shrank), -1. */
static int
wb_seq_at(struct wb *wb, int64_t from, int dir, size_t skip, int64_t *seq,
    struct err *err)
{
	return store_query_nth(wb->st, wb->filter, from, dir, skip, seq, err);
}

/*
 * Read the rows [top, top + want) of the filter.  Why keyset: an OFFSET
 * reads every row before it, seconds deep into a million; a seek from a
 * row whose seq is known reads only the rows in between.  The rows known
 * are the page held (after a decision its positions may be off by the
 * row that left the filter, which a seek from that row's seq absorbs),
 * the first row and the last.
 */
static int
wb_read_page(struct wb *wb, size_t top, size_t want,
    struct store_row **rows, size_t *n, struct err *err)
{
	size_t r0 = wb->rows_off, hn = wb->nrows, held = SIZE_MAX;
	size_t to_end = wb->count > top ? wb->count - 1 - top : 0;
	int64_t seq;
	int rc;

	*rows = NULL;
	*n = 0;
	if (hn > 0)
		held = top >= r0 ? top - (top < r0 + hn ? top : r0 + hn - 1) :
		    r0 - top;
	if (held <= top && held <= to_end && top >= r0) {
		size_t a = top < r0 + hn ? top : r0 + hn - 1;

		return store_query_seek(wb->st, wb->filter,
		    wb->rows[a - r0].seq - 1, 1, top - a, want, rows, n, err);
	}
	if (held <= top && held <= to_end)
		rc = wb_seq_at(wb, wb->rows[0].seq, -1, r0 - 1 - top, &seq,
		    err);
	else if (top == 0)
		return store_query_seek(wb->st, wb->filter, 0, 1, 0, want,
		    rows, n, err);
	else if (top <= to_end)
		rc = wb_seq_at(wb, 0, 1, top, &seq, err);
	else
		rc = wb_seq_at(wb, INT64_MAX, -1, to_end, &seq, err);
	if (rc != 0)
		return rc < 0 ? -1 : 0;
	return store_query_seek(wb->st, wb->filter, seq - 1, 1, 0, want, rows,
	    n, err);
}

/*
 * Move the page held to [top, top + want) when the two overlap, reading
 * only the rows that come into view (j at the bottom of the page reads
 * one row, not a page).  0 when done, 1 when they do not overlap, -1 on
 * an error (the page is left as it was).
 */
static int
wb_slide(struct wb *wb, size_t top, size_t want)
{
	size_t r0 = wb->rows_off, hn = wb->nrows, keep, from, n = 0;
	struct store_row *add = NULL, *rows;
	struct err err;
	int front;

	if (hn == 0 || want == 0 || top + want <= r0 || top >= r0 + hn)
		return 1;
	front = top >= r0;	/* the held rows come first */
	if (front) {
		from = top - r0;
		keep = hn - from < want ? hn - from : want;
		if (keep < want && store_query_seek(wb->st, wb->filter,
		    wb->rows[hn - 1].seq, 1, 0, want - keep, &add, &n,
		    &err) < 0)
			return -1;
	} else {
		from = 0;
		keep = hn < want - (r0 - top) ? hn : want - (r0 - top);
		if (store_query_seek(wb->st, wb->filter, wb->rows[0].seq, -1,
		    0, r0 - top, &add, &n, &err) < 0)
			return -1;
		if (n < r0 - top) {	/* the queue changed meanwhile */
			for (size_t i = 0; i < n; i++)
				store_row_release(&add[i]);
			free(add);
			return 1;
		}
	}
	rows = xcalloc(keep + n + 1, sizeof *rows);
	if (front) {
		memcpy(rows, wb->rows + from, keep * sizeof *rows);
		memcpy(rows + keep, add, n * sizeof *rows);
	} else {
		memcpy(rows, add, n * sizeof *rows);
		memcpy(rows + n, wb->rows, keep * sizeof *rows);
	}
	/* the rows that left the page */
	for (size_t i = 0; i < hn; i++)
		if (i < from || i >= from + keep)
			store_row_release(&wb->rows[i]);
	free(wb->rows);
	free(add);
	wb->rows = rows;
	wb->nrows = keep + n;
	wb->rows_off = top;
	return 0;
}

/* Clamp the selection, keep it on screen and read the visible page. */
static void
wb_sync_page(struct wb *wb, size_t h)
{
	struct store_row *rows;
	struct err err;
	size_t want, n;

	size_t shown = wb_shown(wb);

	/* a row that left the view under the cursor sits before row sel,
	 * or after the last one (sel == count) */
	if (shown == 0)
		wb->sel = 0;
	else if (wb->sel >= shown)
		wb->sel = shown - 1;
	/* keep the selection on screen */
	if (wb->sel < wb->top)
		wb->top = wb->sel;
	if (wb->sel >= wb->top + h)
		wb->top = wb->sel - h + 1;
	if (wb->top + h > shown)
		wb->top = shown > h ? shown - h : 0;
	want = wb->count > wb->top ? wb->count - wb->top : 0;
	if (want > h)
		want = h;
	if (!wb->stale && wb->rows_off == wb->top && wb->nrows >= want)
		return;
	if (!wb->stale && wb_slide(wb, wb->top, want) == 0)
		return;
	/* no more than the count: a scan stops at the filter's last row */
	if (want > 0 && wb_read_page(wb, wb->top, want, &rows, &n, &err) < 0) {
		wb_msg(wb, 1, "%s", err.msg);
		rows = NULL;
		n = want = 0;
	} else if (want == 0) {
		rows = NULL;
		n = 0;
	}
	rows_free(wb);
	wb->rows = rows;
	wb->nrows = n;
	wb->rows_off = wb->top;
	/* fewer rows than counted: the queue shrank meanwhile; never
	 * count a row that is not drawn */
	if (n < want) {
		wb->count = wb->top + n;
		if (wb->sel >= wb_shown(wb))
			wb->sel = wb_shown(wb) > 0 ? wb_shown(wb) - 1 : 0;
	}
}

int64_t
wb_now_ms(void)
{
	return mono_ms();
}

/*
 * The view was counted afresh: put the selection on the candidate it
 * was on.  When that left the view it stays under the cursor, shown in
 * its place (wb->gone): before the nearest following row by import
 * order (its seq), or after the last.
 */
static void
wb_follow(struct wb *wb)
{
	struct err err;
	int64_t seq = wb->cur.row.seq, next;
	size_t idx;

	if (wb->cur.id == NULL)
		return;
	if (wb->count > 0 && store_query_index(wb->st, wb->filter, wb->cur.id,
	    &idx, &err) == 0) {
		wb->sel = idx;
		wb->detached = wb->gone = 0;
		return;
	}
	if (wb->count == 0)
		idx = 0;
	else if (seq > 0 && store_query_nth(wb->st, wb->filter, seq, 1, 0,
	    &next, &err) == 0 && store_query_position(wb->st, wb->filter,
	    next, &idx, &err) == 0)
		;	/* before the next row */
	else if (seq > 0)
		idx = wb->count;	/* none follows: after the last */
	else
		idx = wb->sel < wb->count ? wb->sel : wb->count;
	wb->sel = idx;
	wb->detached = wb->gone = 1;
}

void
wb_sync(struct wb *wb, int page_rows)
{
	const struct store_row *r;
	struct err err;
	size_t h = page_rows > 0 ? (size_t)page_rows : 1;
	int snap;

	/*
	 * A view read afresh is read in one snapshot: :verify's thread
	 * stores runs meanwhile, and the count, the cursor's place and the
	 * page must agree on which of them they hold (wb->run_mark: the
	 * runs up to it are in; batch.c moves the rows for the later ones).
	 */
	snap = wb->stale && store_snapshot_begin(wb->st, &wb->run_mark,
	    &err) == 0;
	if (wb->stale) {
		size_t n;

		if (store_query_count(wb->st, wb->filter, &n, &err) < 0) {
			wb_msg(wb, 1, "%s", err.msg);
			n = 0;
		}
		wb->count = n;
		/*
		 * The page goes with the count: a row that came into the
		 * filter (an undo) shifts the positions of the held rows,
		 * so a seek from them would miss it.  Read it afresh.
		 */
		rows_free(wb);
		if (wb->follow && (!wb->detached || wb->gone))
			wb_follow(wb);
	}
	wb->follow = 0;
	wb_sync_page(wb, h);
	/*
	 * A candidate shown outside the filter may match it now (a repair
	 * has a verdict once its run is stored): take it back into the
	 * queue.
	 */
	if (wb->stale && wb->detached && wb->cur.id != NULL) {
		size_t idx;

		if (store_query_index(wb->st, wb->filter, wb->cur.id, &idx,
		    &err) == 0) {
			wb->detached = wb->gone = 0;
			wb->sel = idx;
			wb_sync_page(wb, h);
		}
	}
	r = wb_row(wb, wb->sel);
	if (wb->detached) {
		if (wb->stale && wb->cur.id != NULL)
			wb_load(wb, wb->cur.id);
	} else if (r == NULL) {
		if (wb->cur.id != NULL)
			wb_load(wb, NULL);
	} else if (wb->cur.id == NULL || wb->stale ||
	    strcmp(r->id, wb->cur.id) != 0) {
		wb_load(wb, r->id);
	}
	if (snap)
		store_snapshot_end(wb->st);
	wb->stale = 0;
}

void
wb_select(struct wb *wb, size_t i)
{
	if (wb->count == 0) {
		/* an empty view: the candidate shown outside it goes */
		if (wb->detached) {
			wb->detached = wb->gone = 0;
			wb_load(wb, NULL);
		}
		return;
	}
	if (i >= wb->count)
		i = wb->count - 1;
	wb->sel = i;
	wb->detached = 0;	/* moving goes back to the queue */
	wb->gone = 0;
	wb->dirty = 1;
}

void
wb_select_id(struct wb *wb, const char *id)
{
	struct err err;
	char *keep = xstrdup(id);	/* id may point into wb->cur */
	size_t idx;
	int rc;

	wb->stale = 1;
	wb->follow = 0;		/* the selection is id, wherever it is */
	rc = store_query_index(wb->st, wb->filter, keep, &idx, &err);
	wb->detached = rc != 0;
	wb->gone = 0;
	if (rc == 0)
		wb->sel = idx;
	/*
	 * not in the filter: shown on its own until the selection moves,
	 * or until wb_sync finds it matches (its run was stored)
	 */
	wb_load(wb, keep);
	free(keep);
}

void
wb_rows_moved(struct wb *wb, const int64_t *seqs, const int *delta,
    size_t n)
{
	int64_t first = wb->nrows > 0 ? wb->rows[0].seq : 0;
	int moved = 0;

	for (size_t k = 0; k < n; k++) {
		if (delta[k] == 0)
			continue;
		moved = 1;
		if (delta[k] < 0 && wb->count == 0)
			continue;
		wb->count += delta[k] > 0 ? 1 : -1;
		/* a row before the page or the cursor shifts them */
		if (first > 0 && seqs[k] < first && (delta[k] > 0 ||
		    wb->rows_off > 0)) {
			wb->rows_off += delta[k] > 0 ? 1 : -1;
			wb->top += delta[k] > 0 ? 1 : -(wb->top > 0);
		}
		if (wb->cur.id != NULL && !wb->detached &&
		    seqs[k] < wb->cur.row.seq && (delta[k] > 0 || wb->sel > 0))
			wb->sel += delta[k] > 0 ? 1 : -1;
	}
	if (moved)
		rows_free(wb);	/* wb_sync reads the page at its place */
	wb->dirty = 1;
}

void
wb_rows_changed(struct wb *wb, char *const *ids, size_t n)
{
	/*
	 * The rows keep their places: each changed one on the page is read
	 * again by its id alone (the index on id), never through the view's
	 * filter, which on a million under grep= is a full-text search.
	 */
	for (size_t i = 0; i < wb->nrows; i++)
		for (size_t k = 0; k < n; k++) {
			struct store_row *row = NULL;
			struct err err;
			size_t got = 0;
			char *f;

			if (strcmp(wb->rows[i].id, ids[k]) != 0)
				continue;
			f = xasprintf("id=%s", ids[k]);
			if (store_query_page(wb->st, f, 0, 1, &row, &got,
			    &err) == 0 && got == 1) {
				store_row_release(&wb->rows[i]);
				wb->rows[i] = row[0];
			} else {
				for (size_t r = 0; r < got; r++)
					store_row_release(&row[r]);
				rows_free(wb);	/* wb_sync reads the page */
			}
			free(row);
			free(f);
			break;
		}
	for (size_t k = 0; k < n && wb->cur.id != NULL; k++)
		if (strcmp(wb->cur.id, ids[k]) == 0) {
			char *keep = xstrdup(wb->cur.id);

			wb_load(wb, keep);
			free(keep);
			break;
		}
	wb->dirty = 1;
}

void
wb_refresh(struct wb *wb)
{
	wb->stale = 1;
	wb->dirty = 1;
}

void
wb_view_changed(struct wb *wb)
{
	wb->stale = 1;
	wb->follow = 1;
	wb->dirty = 1;
}

int
wb_live_wait(const struct wb *wb)
{
	int64_t left = wb->live_at - wb_now_ms();

	return left < 0 ? 0 : left > WB_LIVE_MS ? WB_LIVE_MS : (int)left;
}

void
wb_live(struct wb *wb, int foreign)
{
	int64_t v, now = wb_now_ms();

	if (now < wb->live_at)
		return;
	wb->live_at = now + WB_LIVE_MS;
	if (store_data_version(wb->st, &v, NULL) < 0)
		return;
	/*
	 * This connection's own commits leave it as it is; :verify's
	 * thread's move it with every run, which batch.c shows itself, so
	 * while one runs the thread says whether anyone else committed.
	 */
	if (foreign == 1)	/* another's text may be in grep= results */
		store_grep_forget(wb->st);
	if (foreign >= 0 ? foreign == 1 :
	    wb->live_seen && v != wb->data_version)
		wb_view_changed(wb);
	wb->data_version = v;
	wb->live_seen = 1;
}

int
wb_set_filter(struct wb *wb, const char *filter)
{
	struct err err;
	char *keep;
	size_t n;

	if (filter != NULL && *filter == '\0')
		filter = NULL;
	if (store_query_count(wb->st, filter, &n, &err) < 0) {
		wb_msg(wb, 1, "%s", err.msg);
		return -1;
	}
	keep = xstrdup(filter);	/* filter may be wb->filter */
	free(wb->filter);
	wb->filter = keep;
	wb->count = n;
	wb->sel = 0;
	wb->top = 0;
	wb->detached = wb->gone = 0;
	wb->follow = 0;
	/*
	 * The page held belongs to the old filter; the count is fresh, so
	 * not stale (which would count again): wb_sync reads the page and
	 * loads its first candidate.
	 */
	rows_free(wb);
	wb->dirty = 1;
	return 0;
}

/*
 * Look for the search from the selection in direction dir, around once
 * (the selection itself comes last).  The store walks the narrow queue
 * rows with the regex in one statement (store_query_find), so a search
 * costs the rows it passes, not a page of wide rows each; the position
 * of what it finds is one count.
 */
static void
wb_search_walk(struct wb *wb, int dir)
{
	const struct store_row *r;
	struct err err;
	int64_t from, seq;
	size_t idx;
	int rc, wrapped = 0;

	if (wb->count == 0) {
		wb_msg(wb, 1, "the queue is empty");
		return;
	}
	r = wb->detached ? NULL : wb_row(wb, wb->sel);
	from = r != NULL ? r->seq : dir > 0 ? 0 : INT64_MAX;
	rc = store_query_find(wb->st, wb->filter, wb->find.pattern, from, dir, &seq,
	    &err);
	if (rc == 1 && r != NULL) {
		wrapped = 1;
		rc = store_query_find(wb->st, wb->filter, wb->find.pattern, dir > 0 ?
		    0 : INT64_MAX, dir, &seq, &err);
		/* around once: what is left is the selection itself */
		if (rc == 0 && (dir > 0 ? seq > r->seq : seq < r->seq))
			rc = 1;
	}
	if (rc < 0) {
		wb_msg(wb, 1, "search: %s", err.msg);
		return;
	}
	if (rc == 1) {
		wb_msg(wb, 1, "pattern not found: %s", wb->find.pattern);
		return;
	}
	if (store_query_position(wb->st, wb->filter, seq, &idx, &err) != 0) {
		wb_msg(wb, 1, "search: the queue changed; try again");
		return;
	}
	wb_select(wb, idx);
	if (wrapped)
		wb_msg(wb, 0, "/%s: search hit %s, continued at %s", wb->find.pattern,
		    dir > 0 ? "BOTTOM" : "TOP", dir > 0 ? "TOP" : "BOTTOM");
	else
		wb_msg(wb, 0, "/%s", wb->find.pattern);
}

int
wb_search_set(struct wb *wb, const char *pattern)
{
	char ebuf[128];
	int rc;

	if (*pattern == '\0') {
		if (wb->find.pattern == NULL) {
			wb_msg(wb, 1, "no search pattern");
			return -1;
		}
		wb_search_walk(wb, 1);	/* `/` Enter: search again */
		return 0;
	}
	if (wb->find.ok)
		regfree(&wb->find.re);
	wb->find.ok = 0;
	free(wb->find.pattern);
	wb->find.pattern = xstrdup(pattern);
	rc = regcomp(&wb->find.re, pattern, REG_EXTENDED | REG_ICASE |
	    REG_NOSUB);
	if (rc != 0) {
		regerror(rc, &wb->find.re, ebuf, sizeof ebuf);
		wb_msg(wb, 1, "/%s: %s", pattern, ebuf);
		return -1;
	}
	wb->find.ok = 1;
	wb_search_walk(wb, 1);
	return 0;
}

void
wb_search_next(struct wb *wb, int dir)
{
	if (!wb->find.ok) {
		wb_msg(wb, 1, "no search pattern (/ searches)");
		return;
	}
	wb_search_walk(wb, dir);
}

void
wb_release(struct wb *wb)
{
	if (wb->find.ok)
		regfree(&wb->find.re);
	wb->find.ok = 0;
	free(wb->find.pattern);
	wb->find.pattern = NULL;
	wb_nav_release(wb);
	rows_free(wb);
	cur_release(&wb->cur);
	free(wb->filter);
	free(wb->reviewer);
	wb_marks_clear(wb);
	free(wb->bulk);
	wb->bulk = NULL;
	free(wb->made);
	wb->made = NULL;
	keymap_release(&wb->km);
	wb->filter = NULL;
	wb->reviewer = NULL;
}

int
wb_mark_toggle(struct wb *wb, const char *id)
{
	for (size_t i = 0; i < wb->nmarks; i++) {
		if (strcmp(wb->marks[i], id) == 0) {
			free(wb->marks[i]);
			wb->marks[i] = wb->marks[--wb->nmarks];
			return 0;
		}
	}
	wb->marks = xreallocarray(wb->marks, wb->nmarks + 1,
	    sizeof *wb->marks);
	wb->marks[wb->nmarks++] = xstrdup(id);
	return 1;
}

int
wb_marked(const struct wb *wb, const char *id)
{
	for (size_t i = 0; i < wb->nmarks; i++)
		if (strcmp(wb->marks[i], id) == 0)
			return 1;
	return 0;
}

void
wb_marks_clear(struct wb *wb)
{
	for (size_t i = 0; i < wb->nmarks; i++)
		free(wb->marks[i]);
	free(wb->marks);
	wb->marks = NULL;
	wb->nmarks = 0;
}

/* Read the page held again from its first row: its rows changed.  0 or
 * -1 (then everything is stale). */
static int
wb_reread(struct wb *wb)
{
	struct store_row *rows = NULL;
	struct err err;
	size_t n = 0, want;

	want = wb->count > wb->rows_off ? wb->count - wb->rows_off : 0;
	if (want > wb->nrows)
		want = wb->nrows;
	if (want > 0 && wb_read_page(wb, wb->rows_off, want, &rows, &n,
	    &err) < 0) {
		wb_refresh(wb);
		return -1;
	}
	rows_free(wb);
	wb->rows = rows;
	wb->nrows = n;
	return 0;
}

void
wb_advance(struct wb *wb, const char *id, int advance)
{
	const struct store_row *r = wb_row(wb, wb->sel);
	struct err err;
	size_t n;
	int in;

	if (wb->gone && !advance) {
		/* it stays under the cursor, as it is now */
		wb_refresh(wb);
		return;
	}
	if (wb->detached) {
		/* on to the row after it (a row that left the view sits
		 * before row sel) */
		wb->detached = wb->gone = 0;
		wb_refresh(wb);
		return;
	}
	if (wb->stale || r == NULL || strcmp(r->id, id) != 0 ||
	    store_query_match(wb->st, wb->filter, id, &in, &err) < 0) {
		size_t idx;

		/* not the row under the selection: count and place it */
		if (store_query_count(wb->st, wb->filter, &n, &err) == 0)
			wb->count = n;
		if (store_query_index(wb->st, wb->filter, id, &idx, &err) == 0)
			wb->sel = idx + 1 < wb->count && advance ? idx + 1 :
			    idx;
		wb_refresh(wb);
		wb->follow = 0;	/* the selection was placed here */
		return;
	}
	if (!in)
		wb->count--;	/* the next row took its place */
	else if (advance && wb->sel + 1 < wb->count)
		wb->sel++;
	if (wb_reread(wb) == 0)
		wb_load(wb, NULL);	/* wb_sync loads the one selected */
}

void
wb_changed(struct wb *wb, const char *id)
{
	/*
	 * An undo or redo may bring several candidates (a bulk action)
	 * back into the filter or take them out, anywhere in the queue:
	 * count and read the page again together and select id, or show it
	 * on its own when it is not in the filter.
	 */
	wb_select_id(wb, id);
	wb->dirty = 1;
}

/* --- the navigation stack ------------------------------------------------ */

static struct wb_nav *
nav_push(struct wb *wb, int kind, const char *what)
{
	struct wb_nav *n;

	wb->nav.v = xreallocarray(wb->nav.v, wb->nav.n + 1, sizeof *wb->nav.v);
	n = &wb->nav.v[wb->nav.n++];
	memset(n, 0, sizeof *n);
	n->kind = kind;
	snprintf(n->what, sizeof n->what, "%s", what);
	return n;
}

static void
nav_release(struct wb_nav *n)
{
	free(n->filter);
	free(n->id);
	memset(n, 0, sizeof *n);
}

int
wb_nav_filter(struct wb *wb, const char *filter, struct pane *from,
    const char *what)
{
	char *was = xstrdup(wb->filter);
	char *id = wb->detached ? NULL : xstrdup(wb->cur.id);
	struct wb_nav *n;

	if (filter != NULL && *filter == '\0')
		filter = NULL;
	if ((filter == NULL && wb->filter == NULL) || (filter != NULL &&
	    wb->filter != NULL && strcmp(filter, wb->filter) == 0)) {
		free(was);	/* the same view: nothing to go back to */
		free(id);
		return wb_set_filter(wb, filter);
	}
	if (wb_set_filter(wb, filter) < 0) {
		free(was);
		free(id);
		return -1;
	}
	n = nav_push(wb, WB_NAV_FILTER, what);
	n->filter = was;
	n->id = id;
	n->sheet = from;
	if (from != NULL)
		n->place = from->place;
	return 0;
}

void
wb_nav_zoom(struct wb *wb)
{
	nav_push(wb, WB_NAV_ZOOM, "zoom");
}

void
wb_nav_unzoom(struct wb *wb)
{
	for (size_t i = wb->nav.n; i-- > 0;) {
		if (wb->nav.v[i].kind != WB_NAV_ZOOM)
			continue;
		nav_release(&wb->nav.v[i]);
		memmove(&wb->nav.v[i], &wb->nav.v[i + 1], (wb->nav.n - i - 1) *
		    sizeof *wb->nav.v);
		wb->nav.n--;
		return;
	}
}

int
wb_nav_pop(struct wb *wb)
{
	struct wb_nav n;

	if (wb->nav.n == 0)
		return 1;
	n = wb->nav.v[--wb->nav.n];
	wb->dirty = 1;
	if (n.kind == WB_NAV_ZOOM) {
		if (wb->lay.zoom >= 0) {
			wb->lay.zoom = -1;
			wb->lay.auto_zoom = WB_AZ_NONE;
			wb->lay.relayout = 1;
		}
		wb_msg(wb, 0, "zoom closed");
		nav_release(&n);
		return 0;
	}
	if (wb_set_filter(wb, n.filter) == 0) {
		if (n.id != NULL) {
			struct err err;
			size_t idx;

			if (store_query_index(wb->st, wb->filter, n.id, &idx,
			    &err) == 0)
				wb_select(wb, idx);
		}
		wb_msg(wb, 0, "back from the %s to %s", n.what, n.filter ?
		    n.filter : "all");
		if (n.sheet != NULL)
			(void)pane_open(n.sheet, &n.place);
	}
	nav_release(&n);
	return 0;
}

void
wb_nav_release(struct wb *wb)
{
	for (size_t i = 0; i < wb->nav.n; i++)
		nav_release(&wb->nav.v[i]);
	free(wb->nav.v);
	wb->nav.v = NULL;
	wb->nav.n = 0;
}

/* --- the frame loop's poll set ------------------------------------------- */

void
wb_pollset_add(struct wb_pollset *ps, int fd, short events)
{
	if (fd < 0)
		return;
	if (ps->n == ps->cap) {
		ps->cap = ps->cap ? ps->cap * 2 : 8;
		ps->v = xreallocarray(ps->v, ps->cap, sizeof *ps->v);
	}
	ps->v[ps->n].fd = fd;
	ps->v[ps->n].events = events;
	ps->v[ps->n].revents = 0;
	ps->n++;
}

void
wb_pollset_release(struct wb_pollset *ps)
{
	free(ps->v);
	memset(ps, 0, sizeof *ps);
}
