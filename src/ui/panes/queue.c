/*
 * panes/queue.c - the queue: one row per candidate of the filter, read a
 * page at a time (wb_sync), with the selection and its columns (id,
 * domain, verdict, category, status, origin as width allows).  A
 * category suggested by the toolchain (source "auto") ends in "?" and is
 * dim; a label by a person is plain and in the label colour.
 */
#include "ui/wb.h"

#include <stdio.h>
#include <string.h>

/* Columns that fit in cols: domain from 34, origin past 44. */
static void
queue_cols(int cols, int *dom, int *origin)
{
	*dom = cols >= 34;
	*origin = cols >= 44;
}

/*
 * One row; gone: the candidate under the cursor that left the view,
 * dimmed, marked with a cross, its origin column saying so; waiting: a
 * decision on it waits for the database's lock ("wait" in the status
 * column, which shows the decision once it is made).
 */
static void
queue_row(WINDOW *win, int y, int cols, const struct store_row *r, int sel,
    int focused, int marked, int gone, int waiting)
{
	attr_t base = sel ? theme_attr(focused ? THEME_CURSOR :
	    THEME_CURSOR_IDLE) : theme_attr(THEME_NORMAL);
	int dom, origin, x = 0;
	int is_auto = r->category_source == NULL ||
	    strcmp(r->category_source, "auto") == 0;
	char buf[64];

	queue_cols(cols, &dom, &origin);
	if (gone)
		base |= A_DIM;
	wmove(win, y, 0);
	for (int i = 0; i < cols; i++)
		waddch(win, ' ' | base);
	/* the cursor, else the mark, in the first column; both: "▶*" */
	x += pane_puts(win, y, x, 2, gone ? "\xe2\x96\xb6\xc3\x97" : sel ?
	    (marked ? "\xe2\x96\xb6*" : "\xe2\x96\xb6 ") : marked ? "* " :
	    "  ", base);
	snprintf(buf, sizeof buf, "%-8.8s", r->id);
	x += pane_puts(win, y, x, 9, buf, base);
	x++;
	if (dom) {
		snprintf(buf, sizeof buf, "%-4.4s", r->domain ? r->domain :
		    "-");
		x += pane_puts(win, y, x, 4, buf, base) + 1;
	}
	snprintf(buf, sizeof buf, "%-7s", pane_short_verdict(r->verdict));
	x += pane_puts(win, y, x, 7, buf, sel ? base :
	    theme_attr(pane_verdict_elem(r->verdict))) + 1;
	snprintf(buf, sizeof buf, "%.4s%s     ", pane_short_category(
	    r->category), r->category != NULL && is_auto ? "?" : "");
	x += pane_puts(win, y, x, 5, buf, sel ? base : is_auto ?
	    theme_attr(THEME_DIM) : theme_attr(THEME_LABEL)) + 1;
	snprintf(buf, sizeof buf, "%-4s", waiting ? "wait" :
	    pane_short_status(r->status));
	x += pane_puts(win, y, x, 4, buf, waiting && !sel ?
	    theme_attr(THEME_DIM) : base) + 1;
	if (gone && x < cols) {
		pane_puts(win, y, x, cols - x, "left view", base);
	} else if (origin && x < cols && r->origin != NULL) {
		pane_cut(r->origin, cols - x, buf, sizeof buf);
		pane_puts(win, y, x, cols - x, buf, sel ? base :
		    theme_attr(THEME_DIM));
	}
}

static void
queue_draw(struct pane *p, WINDOW *win)
{
	struct wb *wb = p->wb;
	int dom, origin, focused = wb->lay.focus == WB_QUEUE;
	char head[128];

	queue_cols(p->cols, &dom, &origin);
	snprintf(head, sizeof head, "  %-8s %s%-7s %-5s %-4s %s", "id",
	    dom ? "dom  " : "", "verdict", "cat", "st", origin ? "origin" : "");
	pane_puts(win, 0, 0, p->cols, head, theme_attr(THEME_HEADER));
	if (wb_shown(wb) == 0) {
		pane_text(win, 2, 2, p->cols - 2, wb->filter ?
		    "no candidate matches the filter" : "no candidates: "
		    "assay import PATH", theme_attr(THEME_DIM));
		return;
	}
	for (int y = 1; y < p->rows; y++) {
		size_t i = wb->top + (size_t)(y - 1);
		const struct store_row *r;
		struct store_row ghost;
		int gone = wb->gone && i == wb->sel;

		if (gone) {
			/* its row as it is now (wb_load), else its id */
			ghost = wb->cur.row;
			if (ghost.id == NULL)
				ghost.id = wb->cur.id;
			r = &ghost;
		} else {
			r = wb_row(wb, wb->gone && i > wb->sel ? i - 1 : i);
		}
		if (r == NULL || r->id == NULL)
			break;
		queue_row(win, y, p->cols, r, i == wb->sel && (!wb->detached ||
		    gone), focused, wb->nmarks > 0 && wb_marked(wb, r->id),
		    gone, wb->npending > 0 && pending_has(wb, r->id));
	}
}

static int
queue_key(struct pane *p, int key, enum action a)
{
	struct wb *wb = p->wb;
	size_t page = p->rows > 2 ? (size_t)p->rows - 2 : 1;

	(void)key;	/* the workbench's actions only */
	switch (a) {
	case ACTION_MOVE_DOWN:
		/* from a row that left the view: the row after it (the
		 * last, when none follows; none in an empty view) */
		if (wb->sel + 1 < wb->count || wb->detached)
			wb_select(wb, wb->detached ? wb->sel : wb->sel + 1);
		return 1;
	case ACTION_MOVE_UP:
		if (wb->sel > 0 || wb->detached)
			wb_select(wb, (wb->detached && !wb->gone) ||
			    wb->sel == 0 ? wb->sel : wb->sel - 1);
		return 1;
	case ACTION_PAGE_DOWN:
		wb_select(wb, wb->sel + page);
		return 1;
	case ACTION_PAGE_UP:
		wb_select(wb, wb->sel > page ? wb->sel - page : 0);
		return 1;
	case ACTION_MOVE_FIRST:
		wb_select(wb, 0);
		return 1;
	case ACTION_MOVE_LAST:
		wb_select(wb, wb->count > 0 ? wb->count - 1 : 0);
		return 1;
	default:
		return 0;
	}
}

static void
queue_title(struct pane *p, char *buf, size_t n)
{
	struct wb *wb = p->wb;

	if (wb->detached)	/* the cursor is on no row of the view */
		snprintf(buf, n, "-/%zu", wb->count);
	else if (wb->count == 0)
		snprintf(buf, n, "0/0");	/* as the status bar says */
	else
		snprintf(buf, n, "%zu/%zu", wb->sel + 1, wb->count);
}

const struct pane_ops pane_queue_ops = {
	.name = "queue",
	.draw = queue_draw,
	.key = queue_key,
	.title = queue_title,
};
