/*
 * mouse.c - clicks and the wheel, when the config's `mouse` is on (ui.c
 * asks curses for them and hands each event here in screen cells).
 *
 * A click on a queue row selects it; a click elsewhere in a pane
 * focuses that pane.  The wheel scrolls what is under the pointer, three
 * rows a notch: the queue's selection, a pane's lines, or the sheet on
 * top (help, stats, diff).  While a question or the `:` line waits, or a
 * program in the toolchain pane has the keyboard, the mouse does nothing.
 */
#include "ui/panes/term.h"
#include "ui/wb.h"

#define MOUSE_WHEEL_ROWS	3

/* The pane whose area (title rule included) holds (y, x); -1: none. */
static int
mouse_pane(const struct wb *wb, int y, int x)
{
	for (int i = 0; i < WB_NPANES; i++) {
		const struct pane *p = &wb->lay.panes[i];

		if (p->win == NULL)
			continue;
		if (y >= p->y - 1 && y < p->y + p->rows && x >= p->x &&
		    x < p->x + p->cols)
			return i;
	}
	return -1;
}

static void
mouse_wheel(struct wb *wb, struct pane *p, int dir)
{
	enum action a = dir < 0 ? ACTION_MOVE_UP : ACTION_MOVE_DOWN;
	struct pane *q = &wb->lay.panes[WB_QUEUE];

	for (int i = 0; i < MOUSE_WHEEL_ROWS; i++) {
		if (p != q && p->ops->key != NULL && p->ops->key(p, 0, a))
			continue;
		q->ops->key(q, 0, a);
	}
}

void
mouse_event(struct wb *wb, int y, int x, int button, int dir)
{
	struct pane *p, *sheet;
	int i;

	if (wb->pr.open || wb->ask != WB_ASK_NONE ||
	    term_pane_kbd(wb))
		return;
	wb->dirty = 1;
	sheet = pane_sheet(wb);
	if (sheet != NULL) {
		if (dir == 0)
			return;
		for (int k = 0; k < MOUSE_WHEEL_ROWS; k++)
			(void)sheet->ops->key(sheet, 0, dir < 0 ?
			    ACTION_MOVE_UP : ACTION_MOVE_DOWN);
		return;
	}
	i = mouse_pane(wb, y, x);
	if (i < 0)
		return;
	p = &wb->lay.panes[i];
	if (dir != 0) {
		mouse_wheel(wb, p, dir);
		return;
	}
	(void)button;
	wb->lay.focus = i;
	if (i == WB_QUEUE && y - p->y >= 1) {
		size_t row = wb->top + (size_t)(y - p->y - 1);

		if (row < wb->count)
			wb_select(wb, row);
	}
}
