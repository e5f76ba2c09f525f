/*
 * panes/diff.c - `d`: a zoomed sheet with a diff around the current
 * candidate: reference -> candidate (its task's reference), parent ->
 * candidate (for a repair), and candidate -> repair (its newest
 * repair); Tab goes through those that exist.  `s` switches between the
 * unified diff and side by side, where removed lines stand on the left
 * next to the lines that replaced them on the right.
 *
 * The diff itself comes from vcs_diff_text() (libgit2, git's unified
 * format with 3 lines of context); this file only picks the texts,
 * splits the result into lines, pairs them for side by side and colours
 * them.
 */
#include "ui/wb.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decide/decide.h"
#include "exchange/vcs.h"
#include "model/vocab.h"

/*
 * The sheet's own state: the diff in force, split into lines, and for
 * side by side into rows that pair removed with added lines.  Owns its
 * strings.
 */
enum diff_mode { DIFF_REF, DIFF_PARENT, DIFF_REPAIR, DIFF_NMODES };

/* One row of the side-by-side view. */
struct diff_row {
	int	 hunk;		/* 1: a hunk header (line l), across */
	long	 l, r;		/* lines of the old and new side, -1: none */
	int	 lno, rno;	/* their line numbers in the texts */
};

struct diff_sheet {
	int	 mode;		/* enum diff_mode */
	int	 sbs;		/* side by side; kept while the program runs */
	char	*ids[DIFF_NMODES];	/* the other candidate of each
					 * mode, NULL: none */
	char	*text;		/* the unified diff, len bytes */
	size_t	 len;
	size_t	*lines;		/* nlines offsets of line starts */
	size_t	 nlines;
	struct diff_row *rows;	/* nrows, for side by side */
	size_t	 nrows;
	char	 title[160];
};

static const char *const mode_names[DIFF_NMODES] = { "reference",
    "parent", "repair" };

static void
diff_release(struct diff_sheet *d)
{
	int sbs;

	if (d == NULL)
		return;
	sbs = d->sbs;
	for (int i = 0; i < DIFF_NMODES; i++)
		free(d->ids[i]);
	free(d->text);
	free(d->lines);
	free(d->rows);
	memset(d, 0, sizeof *d);
	d->sbs = sbs;
}

/* Why: the sheet draws by line, so index the line starts once. */
static void
diff_index(struct diff_sheet *d)
{
	size_t cap = 16;

	free(d->lines);
	d->lines = xmalloc(cap * sizeof *d->lines);
	d->nlines = 0;
	for (size_t i = 0; i < d->len; ) {
		if (d->nlines == cap) {
			cap *= 2;
			d->lines = xrealloc(d->lines, cap * sizeof *d->lines);
		}
		d->lines[d->nlines++] = i;
		while (i < d->len && d->text[i] != '\n')
			i++;
		i++;
	}
}

/* Line i of the diff: its start and length without the newline. */
static const char *
diff_line(const struct diff_sheet *d, size_t i, size_t *len)
{
	size_t s = d->lines[i];
	size_t e = i + 1 < d->nlines ? d->lines[i + 1] - 1 : d->len;

	if (e > s && d->text[e - 1] == '\n')
		e--;
	*len = e - s;
	return d->text + s;
}

static void
row_add(struct diff_sheet *d, size_t *cap, int hunk, long l, long r, int lno,
    int rno)
{
	struct diff_row *row;

	if (d->nrows == *cap) {
		*cap = *cap > 0 ? *cap * 2 : 64;
		d->rows = xreallocarray(d->rows, *cap, sizeof *d->rows);
	}
	row = &d->rows[d->nrows++];
	row->hunk = hunk;
	row->l = l;
	row->r = r;
	row->lno = lno;
	row->rno = rno;
}

/*
 * Pair the lines for side by side: context on both sides, a run of
 * removed lines next to the run of added lines that follows it, hunk
 * headers across.  The file headers are left out: the title names both.
 */
static void
diff_pair(struct diff_sheet *d)
{
	size_t cap = 0, nm = 0, np = 0, i;
	long *minus = xcalloc(d->nlines + 1, sizeof *minus);
	long *plus = xcalloc(d->nlines + 1, sizeof *plus);
	int lno = 0, rno = 0, in_hunk = 0;

	free(d->rows);
	d->rows = NULL;
	d->nrows = 0;
	for (i = 0; i <= d->nlines; i++) {
		size_t len = 0;
		const char *s = i < d->nlines ? diff_line(d, i, &len) : "";
		char c = len > 0 ? s[0] : '\0';

		if (i < d->nlines && in_hunk && c == '-') {
			minus[nm++] = (long)i;
			continue;
		}
		if (i < d->nlines && in_hunk && c == '+') {
			plus[np++] = (long)i;
			continue;
		}
		/* "\ No newline at end of file" splits no run */
		if (i < d->nlines && in_hunk && c == '\\')
			continue;
		for (size_t k = 0; k < nm || k < np; k++) {
			row_add(d, &cap, 0, k < nm ? minus[k] : -1, k < np ?
			    plus[k] : -1, k < nm ? lno + 1 : 0, k < np ?
			    rno + 1 : 0);
			if (k < nm)
				lno++;
			if (k < np)
				rno++;
		}
		nm = np = 0;
		if (i == d->nlines)
			break;
		if (len >= 2 && strncmp(s, "@@", 2) == 0) {
			int a = 0, b = 0;

			/* "@@ -a[,n] +b[,n] @@": the next lines' numbers */
			if (sscanf(s, "@@ -%d%*[^+]+%d", &a, &b) == 2) {
				lno = a > 0 ? a - 1 : 0;
				rno = b > 0 ? b - 1 : 0;
			}
			in_hunk = 1;
			row_add(d, &cap, 1, (long)i, -1, 0, 0);
		} else if (in_hunk && c == ' ') {
			lno++;
			rno++;
			row_add(d, &cap, 0, (long)i, (long)i, lno, rno);
		} else if (len > 0 && c != '\\') {
			in_hunk = 0;	/* diff --git, ---, +++ */
		}
	}
	free(minus);
	free(plus);
}

/* The newest repair of candidate id (new string), or NULL. */
static char *
diff_repair_of(const struct wb *wb, const char *id)
{
	struct store_row *rows = NULL;
	struct err err;
	size_t n = 0;
	char *f = xasprintf("parent=%s kind=repair", id), *out = NULL;

	if (store_query_page(wb->st, f, 0, 256, &rows, &n, &err) == 0) {
		if (n > 0)
			out = xstrdup(rows[n - 1].id);
		for (size_t i = 0; i < n; i++)
			store_row_release(&rows[i]);
		free(rows);
	}
	free(f);
	if (out == NULL) {	/* else code a repair of id reproduced */
		char **also = NULL;

		if (decide_also_repairs(wb->st, id, &also, &n, &err) == 0 &&
		    n > 0)
			out = xstrdup(also[n - 1]);
		strv_free(also, n);
	}
	return out;
}

/* text (len bytes, may be NULL) with each CR before a LF, or ending
 * the text (its last line's), taken out: new, NUL-terminated, *outlen
 * its length. */
static char *
lf_text(const char *text, size_t len, size_t *outlen)
{
	char *out = xmalloc(len + 1);
	size_t k = 0;

	for (size_t i = 0; i < len; i++)
		if (!(text[i] == '\r' && (i + 1 == len || text[i + 1] == '\n')))
			out[k++] = text[i];
	out[k] = '\0';
	*outlen = k;
	return out;
}

/* Compute the diff of mode into d.  0 or -1 (a message says why). */
static int
diff_compute(struct pane *p, int mode)
{
	struct wb *wb = p->wb;
	struct diff_sheet *d = p->priv;
	const char *other = d->ids[mode];
	const struct candidate *c = &wb->cur.cand;
	const struct candidate *from, *to;
	struct candidate o;
	struct err err = { "" };
	char *text = NULL;
	size_t len = 0;
	int rc, crlf;

	memset(&o, 0, sizeof o);
	rc = store_candidate_get(wb->st, other, &o, &err);
	if (rc != 0) {
		if (rc > 0)
			wb_msg(wb, 1, "diff: candidate %s not found", other);
		else
			wb_msg(wb, 1, "diff: %s", err.msg);
		candidate_release(&o);
		return -1;
	}
	/* the repair is the newer text; the others are the older */
	from = mode == DIFF_REPAIR ? c : &o;
	to = mode == DIFF_REPAIR ? &o : c;
	{
		/* line ends compared as LF: a reference with CRLF ends
		 * (RealBench's aes_cipher_top.v) differed on every line,
		 * each CR drawn as '?' */
		size_t fl, tl;
		char *f = lf_text(from->code, from->code_len, &fl);
		char *t = lf_text(to->code, to->code_len, &tl);

		crlf = fl != from->code_len || tl != to->code_len;
		rc = vcs_diff_text(f, fl, t, tl, from->id, to->id, &text,
		    &len, &err);
		free(f);
		free(t);
	}
	if (rc == 0) {
		if (mode == DIFF_REPAIR)
			snprintf(d->title, sizeof d->title, "candidate %s "
			    "\xe2\x86\x92 repair %s", c->id, o.id);
		else
			snprintf(d->title, sizeof d->title, "%s %s "
			    "\xe2\x86\x92 candidate %s", mode_names[mode], o.id,
			    c->id);
	}
	candidate_release(&o);
	if (rc < 0) {
		wb_msg(wb, 1, "diff: %s", err.msg);
		return -1;
	}
	free(d->text);
	d->text = text;
	d->len = len;
	d->mode = mode;
	diff_index(d);
	diff_pair(d);
	p->scroll = 0;
	if (crlf)
		wb_msg(wb, 0, "diff: CRLF line ends compared as LF");
	return 0;
}

/* How many views there are: modes with another candidate. */
static int
diff_nviews(const struct diff_sheet *d)
{
	int n = 0;

	for (int i = 0; i < DIFF_NMODES; i++)
		n += d->ids[i] != NULL;
	return n;
}

/* d: the diff of the current candidate, or -1 when there is nothing. */
static int
diff_open(struct pane *p, const struct pane_place *at)
{
	struct wb *wb = p->wb;
	struct diff_sheet *d = p->priv;
	const struct candidate *c = &wb->cur.cand;
	struct err err = { "" };
	char *ref = NULL, *verdict = NULL;
	int first = -1;

	(void)at;	/* always from the start */
	if (wb->cur.id == NULL || c->id == NULL) {
		wb_msg(wb, 1, "diff: no candidate selected");
		return -1;
	}
	diff_release(d);
	if (cand_kind_from_name(c->kind) == KIND_REPAIR &&
	    c->parent != NULL)
		d->ids[DIFF_PARENT] = xstrdup(c->parent);
	if (c->task_id != NULL &&
	    store_task_reference(wb->st, c->task_id, &ref, &verdict,
	    &err) < 0) {
		wb_msg(wb, 1, "diff: %s", err.msg);
		diff_release(d);
		return -1;
	}
	free(verdict);
	if (ref != NULL && strcmp(ref, c->id) != 0)
		d->ids[DIFF_REF] = ref;
	else
		free(ref);
	d->ids[DIFF_REPAIR] = diff_repair_of(wb, c->id);
	/* what the candidate came from first, then where it went */
	if (d->ids[DIFF_PARENT] != NULL)
		first = DIFF_PARENT;
	else if (d->ids[DIFF_REF] != NULL)
		first = DIFF_REF;
	else if (d->ids[DIFF_REPAIR] != NULL)
		first = DIFF_REPAIR;
	if (first < 0) {
		wb_msg(wb, 0, "diff: nothing to compare (no parent, no repair "
		    "and no other reference for this task)");
		diff_release(d);
		return -1;
	}
	if (diff_compute(p, first) < 0) {
		diff_release(d);
		return -1;
	}
	if (d->len == 0)
		wb_msg(wb, 0, "diff: the texts are identical");
	return 0;
}

static int
diff_key(struct pane *p, int key, enum action a)
{
	struct wb *wb = p->wb;
	struct diff_sheet *d = p->priv;
	enum action da = keymap_lookup(&wb->km, KEYMAP_DIFF, key);

	/* the sheet's table first (diff), then the workbench's moves */
	if (da == ACTION_CLOSE) {
		p->shown = 0;
		return 1;
	}
	if (da == ACTION_NONE && a == ACTION_HELP) {
		/* over the sheet; it comes back */
		(void)pane_open(&wb->lay.sheets[WB_HELP], NULL);
		return 1;
	}
	if (da == ACTION_DIFF_LAYOUT) {
		d->sbs = !d->sbs;
		p->scroll = 0;
		wb_msg(wb, 0, "diff: %s (s switches)", d->sbs ?
		    "side by side" : "unified");
		return 1;
	}
	if (da == ACTION_DIFF_NEXT || da == ACTION_DIFF_PREV) {
		int dir = da == ACTION_DIFF_NEXT ? 1 : DIFF_NMODES - 1;
		int m = d->mode;

		if (diff_nviews(d) < 2) {
			wb_msg(wb, 0, "diff: only the %s to compare with",
			    mode_names[d->mode]);
			return 1;
		}
		do
			m = (m + dir) % DIFF_NMODES;
		while (d->ids[m] == NULL);
		diff_compute(p, m);
		return 1;
	}
	return pane_scroll(p, a, d->sbs ? d->nrows : d->nlines);
}

static void
diff_close(struct pane *p)
{
	diff_release(p->priv);
}

/* The theme element of a unified diff line. */
static enum theme_elem
diff_elem(const char *s, size_t len)
{
	if (len >= 3 && (strncmp(s, "---", 3) == 0 ||
	    strncmp(s, "+++", 3) == 0))
		return THEME_HEADER;
	if (len >= 2 && strncmp(s, "@@", 2) == 0)
		return THEME_DIM;
	if (len > 0 && s[0] == '+')
		return THEME_PASS;
	if (len > 0 && s[0] == '-')
		return THEME_FAIL;
	if (len > 0 && s[0] != ' ')
		return THEME_DIM;	/* diff --git, \ No newline */
	return THEME_NORMAL;
}

static void
draw_unified(const struct pane *p, const struct diff_sheet *d, WINDOW *win)
{
	for (int r = 0; r < p->rows; r++) {
		size_t i = (size_t)(p->scroll + r), len;
		const char *s;

		if (i >= d->nlines)
			break;
		s = diff_line(d, i, &len);
		pane_put(win, r, 0, p->cols, s, len, theme_attr(diff_elem(s,
		    len)));
	}
}

/* One side of a row: line number, then the text without its +/-/space. */
static void
draw_half(const struct diff_sheet *d, WINDOW *win, int y, int x, int w,
    long line, int no, enum theme_elem changed)
{
	char num[16];
	const char *s;
	size_t len;

	if (line < 0 || w < 6)
		return;
	s = diff_line(d, (size_t)line, &len);
	snprintf(num, sizeof num, "%4d ", no);
	pane_puts(win, y, x, 5, num, theme_attr(THEME_LINENR));
	if (len > 0) {
		s++;
		len--;
	}
	/* a line longer than its half is cut with an ellipsis, never
	 * silently */
	if (pane_width(s, len) > w - 5) {
		pane_put(win, y, x + 5, w - 6, s, len, theme_attr(changed));
		pane_puts(win, y, x + w - 1, 1, pane_ascii ? "~" :
		    "\xe2\x80\xa6", theme_attr(changed));
	} else
		pane_put(win, y, x + 5, w - 5, s, len, theme_attr(changed));
}

static void
draw_sbs(const struct pane *p, const struct diff_sheet *d, WINDOW *win)
{
	int half = (p->cols - 1) / 2;
	const char *bar = pane_ascii ? "|" : "\xe2\x94\x82";

	for (int r = 0; r < p->rows; r++) {
		size_t i = (size_t)(p->scroll + r), len;
		const struct diff_row *row;

		if (i >= d->nrows)
			break;
		row = &d->rows[i];
		if (row->hunk) {
			const char *s = diff_line(d, (size_t)row->l, &len);

			pane_put(win, r, 0, p->cols, s, len,
			    theme_attr(THEME_DIM));
			continue;
		}
		/* a changed pair: both coloured; context: plain */
		draw_half(d, win, r, 0, half, row->l, row->lno,
		    row->l == row->r ? THEME_NORMAL : THEME_FAIL);
		pane_puts(win, r, half, 1, bar, theme_attr(THEME_BORDER));
		draw_half(d, win, r, half + 1, p->cols - half - 1, row->r,
		    row->rno, row->l == row->r ? THEME_NORMAL : THEME_PASS);
	}
}

static void
diff_draw(struct pane *p, WINDOW *win)
{
	const struct diff_sheet *d = p->priv;

	if (d->nlines == 0) {
		pane_puts(win, 0, 0, p->cols, "(no differences)",
		    theme_attr(THEME_DIM));
		return;
	}
	if (d->sbs)
		draw_sbs(p, d, win);
	else
		draw_unified(p, d, win);
}

static void
diff_title(struct pane *p, char *buf, size_t n)
{
	const struct diff_sheet *d = p->priv;
	int views = diff_nviews(d);

	snprintf(buf, n, "%s%s%s%s", d->title, d->sbs ? " \xc2\xb7 side by "
	    "side" : "", views > 1 && p->cols >= 90 ? " \xc2\xb7 Tab switches" :
	    "", p->cols < 110 ? "" : d->sbs ? " \xc2\xb7 s: unified" :
	    " \xc2\xb7 s: side by side");
}

const struct pane_ops pane_diff_ops = {
	.name = "diff",
	.priv_size = sizeof(struct diff_sheet),
	.open = diff_open,
	.draw = diff_draw,
	.key = diff_key,
	.title = diff_title,
	.close = diff_close,
};
