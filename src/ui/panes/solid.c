/*
 * panes/solid.c - `S` or `:solid`: the 3D sheet of a cad run.  The
 * candidate's solid (top row) and the reference's (bottom row) in three
 * orthographic views (front, top, side) and an isometric one, and when
 * the helper found a right-angle turn that matches better, the turned
 * candidate in the isometric view as a fifth column; the IoU in the
 * title.  Each solid's material that the other lacks (the symmetric
 * difference, along the line of sight) is coloured, red for the
 * candidate's, blue for the reference's; without colour (NO_COLOR,
 * a terminal without colours, a locale without UTF-8) pixels become
 * characters: 'x' the candidate's own, 'o' the reference's own, and a
 * shade ramp for shared material.
 *
 * The solids are the ones the cad env judged: the helper's mesh lines
 * in the run's iou stage (model/solid.h, ADR 0052).  Pixels are
 * half-blocks: a cell holds two, its upper in the foreground colour of
 * U+2580, its lower in the background.
 */
#include "ui/wb.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/solid.h"

#define NCOLS_MAX 5

struct solid_sheet {
	struct solid_set s;
	float	 box[6];
};

static int
solid_open(struct pane *p, const struct pane_place *at)
{
	struct wb *wb = p->wb;
	struct solid_sheet *d = p->priv;
	struct err err = { "" };

	(void)at;
	solid_release(&d->s);
	if (wb->cur.id == NULL || !wb->cur.has_run) {
		wb_msg(wb, 1, "3D: no run of a candidate selected");
		return -1;
	}
	if (solid_from_run(&wb->cur.run, &d->s, &err) < 0) {
		wb_msg(wb, 1, "3D: %s", err.msg);
		solid_release(&d->s);
		return -1;
	}
	solid_box(&d->s, d->box);
	return 0;
}

/* Colours of a pixel for 256 colours: shared grey, the candidate's own
 * red, the reference's own blue; dark to bright. */
static const short ramp256[3][SOLID_SHADES] = {
	{ 240, 245, 250, 255 },
	{ 88, 124, 160, 196 },
	{ 18, 20, 27, 33 },
};
static const short ramp8[3] = { COLOR_WHITE, COLOR_RED, COLOR_BLUE };

/* The colour of px in a panel of solid who (0: candidate, 1: the
 * reference), -1 for none. */
static short
px_color(struct solid_px px, int who)
{
	int k;

	if (px.kind == SOLID_PX_EMPTY)
		return -1;
	k = px.kind == SOLID_PX_SAME ? 0 : 1 + who;
	return COLORS >= 256 ? ramp256[k][px.shade] : ramp8[k];
}

/* The character of two pixels (upper, lower) without colour. */
static char
px_char(struct solid_px up, struct solid_px lo, int who)
{
	static const char shades[SOLID_SHADES] = { ':', '+', '#', '@' };

	if (up.kind == SOLID_PX_ONLY || lo.kind == SOLID_PX_ONLY)
		return who == 0 ? 'x' : 'o';
	if (up.kind == SOLID_PX_SAME)
		return shades[up.shade];
	if (lo.kind == SOLID_PX_SAME)
		return shades[lo.shade];
	return ' ';
}

/* Draw the picture px (w x 2h pixels) at (y, x) of win, h rows. */
static void
put_picture(WINDOW *win, int y, int x, int w, int h,
    const struct solid_px *px, int who)
{
	int color = theme_has_color() && !pane_ascii;

	for (int r = 0; r < h; r++)
		for (int c = 0; c < w; c++) {
			struct solid_px up = px[(2 * r) * w + c];
			struct solid_px lo = px[(2 * r + 1) * w + c];

			if (!color) {
				char ch[2] = { px_char(up, lo, who), '\0' };

				mvwaddstr(win, y + r, x + c, ch);
				continue;
			}
			{
				short fg = px_color(up, who);
				short bg = px_color(lo, who);
				int pair = 0;

				if (fg == -1 && bg == -1)
					continue;
				pair = alloc_pair(fg, bg);
				if (pair < 0)
					pair = 0;
				wattr_set(win, A_NORMAL, (short)pair, NULL);
				mvwaddstr(win, y + r, x + c,
				    fg == -1 ? " " : "\xe2\x96\x80");
				wattr_set(win, A_NORMAL, 0, NULL);
			}
		}
}

static void
solid_draw(struct pane *p, WINDOW *win)
{
	struct solid_sheet *d = p->priv;
	const struct solid_set *s = &d->s;
	int rows, cols, ncol, cw, ph, ih, turned, color;
	struct solid_px *px;
	char cap[96];

	getmaxyx(win, rows, cols);
	turned = s->mesh[SOLID_TURNED].ntri > 0 && s->turn != NULL;
	ncol = SOLID_NVIEWS + turned;
	color = theme_has_color() && !pane_ascii;
	/* the legend, then two rows of panels: a caption and a picture */
	snprintf(cap, sizeof cap, "%s", color ?
	    "red: candidate only \xc2\xb7 blue: reference only \xc2\xb7"
	    " grey: both" : "x: candidate only \xc2\xb7 o: reference only"
	    " \xc2\xb7 :+#@ both");
	pane_puts(win, 0, 0, cols, cap, theme_attr(THEME_DIM));
	cw = (cols - (ncol - 1)) / ncol;
	ph = (rows - 1) / 2;
	ih = ph - 1;
	if (cw < 4 || ih < 2) {
		pane_puts(win, 1, 0, cols, "too small for the 3D sheet",
		    theme_attr(THEME_DIM));
		return;
	}
	px = xcalloc((size_t)cw * (size_t)ih * 2, sizeof *px);
	for (int who = 0; who < 2; who++)
		for (int c = 0; c < ncol; c++) {
			int y = 1 + who * ph, x = c * (cw + 1);
			enum solid_view v = c < SOLID_NVIEWS ?
			    (enum solid_view)c : SOLID_ISO;
			const struct solid_mesh *a, *b;

			if (c < SOLID_NVIEWS) {
				a = &s->mesh[who == 0 ? SOLID_CAND : SOLID_REF];
				b = &s->mesh[who == 0 ? SOLID_REF : SOLID_CAND];
				snprintf(cap, sizeof cap, "%s %s", who == 0 ?
				    "candidate" : "reference",
				    solid_view_name(v));
			} else {
				a = &s->mesh[who == 0 ? SOLID_TURNED :
				    SOLID_REF];
				b = &s->mesh[who == 0 ? SOLID_REF :
				    SOLID_TURNED];
				snprintf(cap, sizeof cap, who == 0 ?
				    "turned %s" : "reference iso", s->turn);
			}
			pane_puts(win, y, x, cw, cap,
			    theme_attr(THEME_TITLE));
			solid_render(a, b, v, d->box, cw, ih * 2, px);
			put_picture(win, y + 1, x, cw, ih, px, who);
		}
	free(px);
}

static int
solid_key(struct pane *p, int key, enum action a)
{
	if (a == ACTION_SOLID || a == ACTION_QUIT || a == ACTION_BACK ||
	    a == ACTION_CLOSE || a == ACTION_CANCEL || key == KEYMAP_KEY_ESC)
		p->shown = 0;
	return 1;
}

static void
solid_title(struct pane *p, char *buf, size_t n)
{
	struct solid_sheet *d = p->priv;

	char turn[96] = "";

	if (d->s.turn != NULL)
		snprintf(turn, sizeof turn, " \xc2\xb7 turned %s: %.6f",
		    d->s.turn, d->s.turn_iou);
	if (d->s.iou < 0)
		snprintf(buf, n, "q or Esc closes");
	else
		snprintf(buf, n, "IoU %.6f%s \xc2\xb7 q or Esc closes",
		    d->s.iou, turn);
}

static void
solid_close(struct pane *p)
{
	struct solid_sheet *d = p->priv;

	solid_release(&d->s);
}

const struct pane_ops pane_solid_ops = {
	.name = "3D \xe2\x80\x94 candidate over reference",
	.priv_size = sizeof(struct solid_sheet),
	.open = solid_open,
	.draw = solid_draw,
	.key = solid_key,
	.title = solid_title,
	.close = solid_close,
};
