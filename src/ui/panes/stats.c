/*
 * panes/stats.c - `s`, the statistics sheet: the error analysis of the
 * queue's filter as a table, one row per group (benchmark, model, domain
 * or env; Tab cycles) and a last row for all, one column per failure
 * category and per verdict, each cell a count with its share of the row.
 * The counting is the store's (store_stats, one GROUP BY, as `assay
 * stats`); this file only folds its cells into columns, draws them and
 * turns the cell under the cursor into a queue filter (Enter).
 *
 * Two more pages follow the groupings on Tab: reviewers (decisions per
 * hour from the journal, store_throughput) and agreement (Cohen's kappa
 * per pair of reviewers with the confusion matrix of the pair under the
 * cursor, store_agreement; Enter opens the disagreement queue,
 * disagree=yes).
 *
 * A cell's filter selects exactly the candidates it counts: a pass
 * counts as pass whatever its label; otherwise a category wins over the
 * verdict; env-error, task-defect and never run count as such only
 * without a category.  What is left (a failure without a category,
 * skipped) is "other", which no single filter names.
 */
#include "ui/wb.h"
#include "model/vocab.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/duration.h"
#include "model/agreement.h"

static const char *const stats_by[] = { "benchmark", "model", "domain",
    "env", "reviewers", "agreement" };
#define STATS_NBY	(sizeof stats_by / sizeof stats_by[0])
#define STATS_REVIEWERS	4	/* the pages past the groupings */
#define STATS_AGREEMENT	5

/*
 * The sheet's own state: the counted cells and the people pages, owning
 * their strings.  Its cursor is the pane's place: page the grouping (an
 * index into stats_by), row and col the cell.
 */
#define STATS_NCOLS	10	/* 5 categories, pass .. unverified, other */
struct stats_sheet {
	char	**groups;	/* ngroups names; the last row is all */
	size_t	(*cells)[STATS_NCOLS + 1];	/* counts, then all */
	size_t	  ngroups;
	/* the pages after the groupings: reviewers and agreement */
	struct agreement_rate *rates;	/* nrates, by name */
	size_t	  nrates;
	struct agreement_pair *pairs;	/* npairs, by names */
	size_t	  npairs;
	size_t	  ndisagree;	/* candidates in disagreement */
};

/* A category's column: its short name, its name, its failures. */
#define STATS_CAT_(id, name, key, rank, sh) \
	{ sh, name, "category=" name " verdict!=pass" },

static const struct {
	const char	*head;		/* column heading */
	const char	*name;		/* for the cursor line */
	const char	*filter;	/* what Enter adds, NULL: none */
} stats_cols[STATS_NCOLS] = {
	VOCAB_CATEGORIES(STATS_CAT_)
	{ "pass", "pass", "verdict=pass" },
	{ "enverr", "env-error", "verdict=env-error category=none" },
	{ "defect", "task-defect", "verdict=task-defect category=none" },
	{ "unver", "unverified", "verdict=none category=none" },
	{ "other", "other", NULL },
};

/* The column of a counted cell: where store_stat_bucket() puts it, as
 * `assay stats` counts (see the file comment). */
static int
stats_col(const struct store_stat *c)
{
	const char *b = store_stat_bucket(c);

	for (int i = 0; i < 9; i++)
		if (strcmp(b, stats_cols[i].name) == 0)
			return i;
	return 9;	/* skipped, unlabelled, an unknown category */
}

static void
stats_release(struct stats_sheet *s)
{
	/* the people pages count rows in ngroups without group names */
	for (size_t i = 0; s->groups != NULL && i < s->ngroups; i++)
		free(s->groups[i]);
	free(s->groups);
	free(s->cells);
	s->groups = NULL;
	s->cells = NULL;
	s->ngroups = 0;
	for (size_t i = 0; i < s->nrates; i++)
		agreement_rate_release(&s->rates[i]);
	free(s->rates);
	s->rates = NULL;
	s->nrates = 0;
	for (size_t i = 0; i < s->npairs; i++)
		agreement_pair_release(&s->pairs[i]);
	free(s->pairs);
	s->pairs = NULL;
	s->npairs = 0;
}

/* The filter of the disagreement queue within the queue's filter: new
 * string. */
static char *
stats_disagree_filter(const struct wb *wb)
{
	return xasprintf("%s%sdisagree=yes", wb->filter ? wb->filter : "",
	    wb->filter ? " " : "");
}

/* The reviewers and agreement pages.  0 or -1. */
static int
stats_load_people(struct pane *p)
{
	struct wb *wb = p->wb;
	struct stats_sheet *s = p->priv;
	struct pane_place *at = &p->place;
	struct err err;
	char *f;

	if (at->page == STATS_REVIEWERS) {
		if (store_throughput(wb->st, wb->filter, &s->rates, &s->nrates,
		    &err) < 0) {
			wb_msg(wb, 1, "stats: %s", err.msg);
			return -1;
		}
		s->ngroups = s->nrates;
	} else {
		if (store_agreement(wb->st, wb->filter, &s->pairs, &s->npairs,
		    &err) < 0) {
			wb_msg(wb, 1, "stats: %s", err.msg);
			return -1;
		}
		f = stats_disagree_filter(wb);
		if (store_query_count(wb->st, f, &s->ndisagree, &err) < 0)
			s->ndisagree = 0;
		free(f);
		s->ngroups = s->npairs;
	}
	if (s->ngroups == 0)
		at->row = 0;
	else if (at->row >= s->ngroups)
		at->row = s->ngroups - 1;
	return 0;
}

/* Read the cells for the current filter and grouping. 0 or -1. */
static int
stats_load(struct pane *p)
{
	struct wb *wb = p->wb;
	struct stats_sheet *s = p->priv;
	struct store_stat *v;
	struct err err;
	size_t n;

	stats_release(s);
	if (p->place.page >= STATS_REVIEWERS)
		return stats_load_people(p);
	if (store_stats(wb->st, wb->filter, stats_by[p->place.page], &v, &n,
	    &err) < 0) {
		wb_msg(wb, 1, "stats: %s", err.msg);
		return -1;
	}
	/* cells come ordered by group: one row per run of equal groups */
	for (size_t i = 0; i < n; i++) {
		size_t r = s->ngroups;
		int c = stats_col(&v[i]);

		if (r == 0 || strcmp(s->groups[r - 1], v[i].group) != 0) {
			s->groups = xreallocarray(s->groups, r + 1,
			    sizeof *s->groups);
			s->cells = xreallocarray(s->cells, r + 1,
			    sizeof *s->cells);
			s->groups[r] = xstrdup(v[i].group);
			memset(s->cells[r], 0, sizeof s->cells[r]);
			s->ngroups++;
			r++;
		}
		s->cells[r - 1][c] += v[i].count;
		s->cells[r - 1][STATS_NCOLS] += v[i].count;
		store_stat_release(&v[i]);
	}
	free(v);
	/* the last row: every group together */
	s->groups = xreallocarray(s->groups, s->ngroups + 1,
	    sizeof *s->groups);
	s->cells = xreallocarray(s->cells, s->ngroups + 1, sizeof *s->cells);
	s->groups[s->ngroups] = xstrdup("all");
	memset(s->cells[s->ngroups], 0, sizeof s->cells[s->ngroups]);
	for (size_t r = 0; r < s->ngroups; r++)
		for (int c = 0; c <= STATS_NCOLS; c++)
			s->cells[s->ngroups][c] += s->cells[r][c];
	s->ngroups++;
	if (p->place.row >= s->ngroups)
		p->place.row = s->ngroups - 1;
	return 0;
}

/*
 * s: count the filter's candidates by the sheet's grouping, the cursor
 * on the first cell; or, from the navigation stack, by at's grouping
 * with the cursor where it was (the way back from a drill-down).
 */
static int
stats_open(struct pane *p, const struct pane_place *at)
{
	struct stats_sheet *s = p->priv;

	if (at != NULL)
		p->place.page = at->page;
	p->place.row = 0;
	p->place.col = 0;
	if (stats_load(p) < 0)
		return -1;
	if (at != NULL) {
		p->place.row = at->row < s->ngroups ? at->row :
		    s->ngroups > 0 ? s->ngroups - 1 : 0;
		p->place.col = at->col < STATS_NCOLS ? at->col : 0;
	}
	p->scroll = 0;
	return 0;
}

static void
stats_close(struct pane *p)
{
	stats_release(p->priv);
}

/* The filter Enter sets for the cell under the cursor: new string, or
 * NULL when the cell has none. */
static char *
stats_cell_filter(const struct pane *p)
{
	const struct wb *wb = p->wb;
	const struct stats_sheet *s = p->priv;
	const struct pane_place *at = &p->place;
	const char *cell = stats_cols[at->col].filter;
	char *val, *f;

	if (cell == NULL)
		return NULL;
	if (at->row + 1 == s->ngroups)	/* all */
		return xasprintf("%s%s%s", wb->filter ? wb->filter : "",
		    wb->filter ? " " : "", cell);
	val = store_filter_quote(s->groups[at->row]);
	f = xasprintf("%s%s%s=%s %s", wb->filter ? wb->filter : "",
	    wb->filter ? " " : "", stats_by[at->page], val, cell);
	free(val);
	return f;
}

static void
stats_drill(struct pane *p)
{
	struct wb *wb = p->wb;
	char *f;

	if (p->place.page == STATS_REVIEWERS) {
		wb_msg(wb, 0, "no filter names a reviewer's decisions");
		return;
	}
	if (p->place.page == STATS_AGREEMENT) {
		f = stats_disagree_filter(wb);
		if (wb_nav_filter(wb, f, p, "disagreement queue") == 0) {
			p->shown = 0;
			wb_msg(wb, 0, "the disagreement queue: 1-5 give the "
			    "final label");
		}
		free(f);
		return;
	}
	f = stats_cell_filter(p);

	if (f == NULL) {
		wb_msg(wb, 1, "no filter names the other column (failures "
		    "without a category, skipped)");
		return;
	}
	if (wb_nav_filter(wb, f, p, "stats drill-down") == 0) {
		p->shown = 0;
		/* the status bar shows the new filter, no older message */
		wb->msg[0] = '\0';
	}
	free(f);
}

static int
stats_key(struct pane *p, int key, enum action a)
{
	struct wb *wb = p->wb;
	struct stats_sheet *s = p->priv;
	struct pane_place *at = &p->place;
	size_t page = p->rows > 4 ? (size_t)p->rows - 4 : 1;

	enum action sa = keymap_lookup(&wb->km, KEYMAP_STATS, key);

	/* the sheet's table first (stats), then the workbench's moves */
	if (sa == ACTION_CLOSE) {
		p->shown = 0;
		return 1;
	}
	if (sa == ACTION_NONE && a == ACTION_HELP) {
		/* over the sheet; it comes back */
		(void)pane_open(&wb->lay.sheets[WB_HELP], NULL);
		return 1;
	}
	if (at->page >= STATS_REVIEWERS && (sa == ACTION_CELL_LEFT ||
	    sa == ACTION_CELL_RIGHT))
		return 1;
	if (sa == ACTION_CELL_LEFT) {
		if (at->col > 0)
			at->col--;
		return 1;
	}
	if (sa == ACTION_CELL_RIGHT) {
		if (at->col + 1 < STATS_NCOLS)
			at->col++;
		return 1;
	}
	if (sa == ACTION_NEXT_GROUPING || sa == ACTION_PREV_GROUPING) {
		at->page = (int)(((size_t)at->page + (sa ==
		    ACTION_NEXT_GROUPING ? 1 : STATS_NBY - 1)) % STATS_NBY);
		at->row = 0;
		if (stats_load(p) < 0)
			p->shown = 0;
		return 1;
	}
	if (sa == ACTION_DRILL) {
		stats_drill(p);
		return 1;
	}
	switch (a) {
	case ACTION_MOVE_DOWN:
		if (at->row + 1 < s->ngroups)
			at->row++;
		break;
	case ACTION_MOVE_UP:
		if (at->row > 0)
			at->row--;
		break;
	case ACTION_PAGE_DOWN:
		at->row = at->row + page < s->ngroups ? at->row + page :
		    s->ngroups - 1;
		break;
	case ACTION_PAGE_UP:
		at->row = at->row > page ? at->row - page : 0;
		break;
	case ACTION_MOVE_FIRST:
		at->row = 0;
		break;
	case ACTION_MOVE_LAST:
		at->row = s->ngroups > 0 ? s->ngroups - 1 : 0;
		break;
	case ACTION_REDRAW:
		if (stats_load(p) < 0)
			p->shown = 0;
		break;
	default:
		return 0;
	}
	return 1;
}

/* "143 82%", or the count alone where the column is narrow. */
static void
stats_cell_text(size_t count, size_t total, int w, char *buf, size_t n)
{
	int pct = total > 0 ? (int)((200 * count + total) / (2 * total)) : 0;

	if (count == 0)
		snprintf(buf, n, "%*s", w, "-");
	else if (w >= 9 && 100 * count < total)	/* under 1 %: not "0%",
						 * nor 0.6 % as "1%" */
		snprintf(buf, n, "%*zu <1%%", w - 5, count);
	else if (w >= 9)
		snprintf(buf, n, "%*zu %3d%%", w - 5, count, pct);
	else
		snprintf(buf, n, "%*zu", w, count);
}

/* Keep the cursor row on screen in a body of rows. */
static void
stats_follow(struct pane *p, size_t row, int body)
{
	if ((int)row < p->scroll)
		p->scroll = (int)row;
	if ((int)row >= p->scroll + body)
		p->scroll = (int)row - body + 1;
}

/* The reviewers page: one row per reviewer. */
static void
stats_draw_reviewers(struct pane *p, WINDOW *win)
{
	const struct stats_sheet *s = p->priv;
	const struct pane_place *at = &p->place;
	int body = p->rows - 3;
	char buf[160], act[32], rate[32];

	snprintf(buf, sizeof buf, "%-20s %9s %6s %9s %9s", "reviewer",
	    "decisions", "timed", "active", "per hour");
	pane_puts(win, 0, 0, p->cols, buf, theme_attr(THEME_HEADER));
	if (s->nrates == 0) {
		pane_puts(win, 2, 0, p->cols, "no decisions in the journal "
		    "(for this filter)", theme_attr(THEME_DIM));
		return;
	}
	if (body < 1)
		body = 1;
	stats_follow(p, at->row, body);
	for (int y = 0; y < body && (size_t)(p->scroll + y) < s->nrates;
	    y++) {
		size_t r = (size_t)(p->scroll + y);
		const struct agreement_rate *a = &s->rates[r];
		double ph = agreement_rate_per_hour(a);
		char who[64];

		duration_hms(a->active_s, act, sizeof act);
		if (ph < 0)
			snprintf(rate, sizeof rate, "-");
		else
			snprintf(rate, sizeof rate, "%.1f", ph);
		pane_cut(a->who, 20, who, sizeof who);
		snprintf(buf, sizeof buf, "%-20s %9zu %6zu %9s %9s", who,
		    a->decisions, a->timed, act, rate);
		pane_puts(win, y + 1, 0, p->cols, buf, theme_attr(r == at->row ?
		    THEME_CURSOR : THEME_NORMAL));
	}
	pane_puts(win, p->rows - 1, 0, p->cols, "per hour: timed decisions "
	    "over active time; a pause over 5 min is a break",
	    theme_attr(THEME_DIM));
}

/* The agreement page: the pairs, then the matrix of the pair under the
 * cursor, then the disagreement queue. */
static void
stats_draw_agreement(struct pane *p, WINDOW *win)
{
	const struct stats_sheet *s = p->priv;
	const struct pane_place *at = &p->place;
	const struct agreement_pair *a;
	const char *kappa = pane_ascii ? "kappa" : "\xce\xba";
	int list = p->rows - 11, y;
	char buf[200], k[16], x[64], b[64];

	snprintf(buf, sizeof buf, "%-33s %6s %6s %6s %6s %6s", "reviewers",
	    "n", "agree", "po", "pe", kappa);
	pane_puts(win, 0, 0, p->cols, buf, theme_attr(THEME_HEADER));
	if (s->npairs == 0) {
		pane_puts(win, 2, 0, p->cols, "no two reviewers labelled the "
		    "same candidate (for this filter)", theme_attr(THEME_DIM));
		return;
	}
	if (list > (int)s->npairs)
		list = (int)s->npairs;
	if (list < 1)
		list = 1;
	stats_follow(p, at->row, list);
	for (y = 0; y < list && (size_t)(p->scroll + y) < s->npairs; y++) {
		size_t r = (size_t)(p->scroll + y);

		a = &s->pairs[r];
		if (isnan(a->kappa))
			snprintf(k, sizeof k, "-");
		else
			snprintf(k, sizeof k, "%.2f", a->kappa);
		pane_cut(a->a, 15, x, sizeof x);
		pane_cut(a->b, 15, b, sizeof b);
		snprintf(buf, sizeof buf, "%-15s & %-15s %6zu %6zu %6.2f %6.2f "
		    "%6s", x, b, a->n, a->agree, a->po, a->pe, k);
		pane_puts(win, y + 1, 0, p->cols, buf, theme_attr(r == at->row ?
		    THEME_CURSOR : THEME_NORMAL));
	}
	/* the 5x5 matrix: rows the first reviewer, columns the second */
	a = &s->pairs[at->row];
	y = list + 2;
	pane_cut(a->a, 20, x, sizeof x);
	pane_cut(a->b, 20, b, sizeof b);
	snprintf(buf, sizeof buf, "%s (rows) by %s (columns)", x, b);
	pane_puts(win, y++, 0, p->cols, buf, theme_attr(THEME_HEADER));
	snprintf(buf, sizeof buf, "%-12s", "");
	for (int c = 0; c < AGREEMENT_NCAT; c++)
		snprintf(buf + strlen(buf), sizeof buf - strlen(buf), " %11s",
		    category_name(c));
	pane_puts(win, y++, 0, p->cols, buf, theme_attr(THEME_DIM));
	for (int r = 0; r < AGREEMENT_NCAT; r++, y++) {
		int cx = 12;

		pane_puts(win, y, 0, 12, category_name(r),
		    theme_attr(THEME_DIM));
		for (int c = 0; c < AGREEMENT_NCAT; c++, cx += 12) {
			snprintf(buf, sizeof buf, " %11zu", a->m[r][c]);
			pane_puts(win, y, cx, 12, buf, theme_attr(a->m[r][c] ==
			    0 ? THEME_DIM : r == c ? THEME_PASS : THEME_FAIL));
		}
	}
	snprintf(buf, sizeof buf, "%zu candidate%s in disagreement "
	    "\xc2\xb7 Enter: the disagreement queue%s", s->ndisagree,
	    s->ndisagree == 1 ? "" : "s", p->cols >= 110 ? " (disagree=yes), "
	    "where 1-5 give the final label" : "");
	pane_puts(win, p->rows - 1, 0, p->cols, buf, theme_attr(THEME_DIM));
}

static void
stats_draw(struct pane *p, WINDOW *win)
{
	const struct stats_sheet *s = p->priv;
	const struct pane_place *at = &p->place;
	int gw = p->cols >= 140 ? 24 : p->cols >= 110 ? 16 : 10;
	int cw = (p->cols - gw - 1) / (STATS_NCOLS + 1);
	int body = p->rows - 3;	/* header, table, blank, cursor line */
	char buf[128], *f;
	int x, y;
	size_t row_total;

	if (at->page == STATS_REVIEWERS) {
		stats_draw_reviewers(p, win);
		return;
	}
	if (at->page == STATS_AGREEMENT) {
		stats_draw_agreement(p, win);
		return;
	}
	if (cw > 12)
		cw = 12;
	if (cw < 5)
		cw = 5;
	snprintf(buf, sizeof buf, "%-*.*s", gw, gw, stats_by[at->page]);
	x = pane_puts(win, 0, 0, gw, buf, theme_attr(THEME_HEADER)) + 1;
	for (int c = 0; c <= STATS_NCOLS; c++) {
		char cut[32];

		/* cut to leave a blank between narrow columns, saying so
		 * ("enver defec" read as whole words) */
		pane_cut(c < STATS_NCOLS ? stats_cols[c].head : "all", cw - 1,
		    cut, sizeof cut);
		snprintf(buf, sizeof buf, "%*s%s", cw - pane_width(cut,
		    strlen(cut)), "", cut);
		x += pane_puts(win, 0, x, cw, buf, theme_attr(THEME_HEADER));
	}
	if (body < 1)
		body = 1;
	/* keep the cursor row on screen */
	if ((int)at->row < p->scroll)
		p->scroll = (int)at->row;
	if ((int)at->row >= p->scroll + body)
		p->scroll = (int)at->row - body + 1;
	for (y = 0; y < body && (size_t)(p->scroll + y) < s->ngroups; y++) {
		size_t r = (size_t)(p->scroll + y);
		int last = r + 1 == s->ngroups;
		attr_t base = theme_attr(last ? THEME_HEADER : THEME_NORMAL);

		/* in the middle: models and tasks differ at their end */
		pane_cut_mid(s->groups[r], gw, buf, sizeof buf);
		x = pane_puts(win, y + 1, 0, gw, buf, base);
		x = gw + 1;
		for (int c = 0; c <= STATS_NCOLS; c++) {
			int cur = r == at->row && c == (int)at->col;

			stats_cell_text(s->cells[r][c],
			    s->cells[r][STATS_NCOLS], cw, buf, sizeof buf);
			pane_puts(win, y + 1, x, cw, buf, cur ?
			    theme_attr(THEME_CURSOR) : c == STATS_NCOLS ?
			    theme_attr(THEME_DIM) : base);
			x += cw;
		}
	}
	if (s->ngroups == 0)
		return;
	/* the cursor cell in words, and what Enter does */
	row_total = s->cells[at->row][STATS_NCOLS];
	f = stats_cell_filter(p);
	snprintf(buf, sizeof buf, "%s \xc2\xb7 %s: %zu of %zu (%.1f%%)",
	    s->groups[at->row], stats_cols[at->col].name,
	    s->cells[at->row][at->col], row_total, row_total > 0 ? 100.0 *
	    (double)s->cells[at->row][at->col] / (double)row_total : 0.0);
	pane_text(win, p->rows - 2, 0, p->cols, buf, theme_attr(THEME_NORMAL));
	if (f != NULL) {
		char *t = xasprintf("Enter: %s", f);

		pane_text(win, p->rows - 1, 0, p->cols, t, theme_attr(
		    THEME_DIM));
		free(t);
		free(f);
	}
}

static void
stats_title(struct pane *p, char *buf, size_t n)
{
	int by = p->place.page;

	if (by == STATS_REVIEWERS)
		snprintf(buf, n, "reviewers: decisions per hour \xc2\xb7 Tab: "
		    "agreement%s", p->cols >= 90 ? " \xc2\xb7 q or Esc closes" :
		    "");
	else if (by == STATS_AGREEMENT)
		snprintf(buf, n, "agreement: Cohen's kappa \xc2\xb7 Enter: "
		    "disagreements%s", p->cols >= 90 ? " \xc2\xb7 q or Esc "
		    "closes" : "");
	else
		snprintf(buf, n, "hjkl move \xc2\xb7 Tab groups \xc2\xb7 Enter "
		    "filters%s", p->cols >= 90 ? " \xc2\xb7 q or Esc closes" :
		    "");
}

const struct pane_ops pane_stats_ops = {
	.name = "stats",
	.priv_size = sizeof(struct stats_sheet),
	.open = stats_open,
	.draw = stats_draw,
	.key = stats_key,
	.title = stats_title,
	.close = stats_close,
};
