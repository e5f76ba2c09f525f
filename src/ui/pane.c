/*
 * pane.c - what every pane shares: its life (pane_init, pane_open,
 * pane_free, through its operations table only, so that the workbench
 * never names a pane's functions), and the drawing helpers: clipped
 * UTF-8 output, word wrapping, scrolling and the short forms of queue
 * columns.
 */
#include "ui/wb.h"
#include "model/vocab.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

void
pane_init(struct pane *p, const struct pane_ops *ops, struct wb *wb)
{
	p->ops = ops;
	p->wb = wb;
	p->priv = ops->priv_size > 0 ? xcalloc(1, ops->priv_size) : NULL;
}

int
pane_open(struct pane *p, const struct pane_place *at)
{
	if (p->ops->open != NULL && p->ops->open(p, at) < 0)
		return -1;
	p->shown = 1;
	return 0;
}

void
pane_free(struct pane *p)
{
	if (p->ops == NULL)
		return;
	if (p->ops->close != NULL)
		p->ops->close(p);
	free(p->priv);
	p->priv = NULL;
	if (p->win != NULL)
		delwin(p->win);
	p->win = NULL;
	p->shown = 0;
}

struct pane *
pane_sheet(struct wb *wb)
{
	for (int i = 0; i < WB_NSHEETS; i++)
		if (wb->lay.sheets[i].shown)
			return &wb->lay.sheets[i];
	return NULL;
}

/* Decode one UTF-8 character at s (n bytes left); invalid bytes give
 * U+FFFD and consume one byte. */
static size_t
utf8_next(const char *s, size_t n, wchar_t *out)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t need;
	unsigned cp;

	if (u[0] < 0x80) {
		*out = u[0];
		return 1;
	}
	if ((u[0] & 0xE0) == 0xC0) {
		cp = u[0] & 0x1F;
		need = 2;
	} else if ((u[0] & 0xF0) == 0xE0) {
		cp = u[0] & 0x0F;
		need = 3;
	} else if ((u[0] & 0xF8) == 0xF0) {
		cp = u[0] & 0x07;
		need = 4;
	} else {
		*out = 0xFFFD;
		return 1;
	}
	if (need > n) {
		*out = 0xFFFD;
		return 1;
	}
	for (size_t i = 1; i < need; i++) {
		if ((u[i] & 0xC0) != 0x80) {
			*out = 0xFFFD;
			return 1;
		}
		cp = cp << 6 | (u[i] & 0x3F);
	}
	*out = (wchar_t)cp;
	return need;
}

int pane_ascii;

/* The ASCII stand-in of a character we use, for non-UTF-8 locales. */
static wchar_t
ascii_of(wchar_t c)
{
	switch (c) {
	case 0x00B7:	return '.';	/* middle dot */
	case 0x25B6:	return '>';
	case 0x25C0:	return '<';
	case 0x2192:	return '>';
	case 0x2514:	return '`';
	case 0x2713:	return '+';
	case 0x2014:	return '-';
	case 0x2500:	return '-';
	case 0x00BB:	return '>';
	default:	return '?';
	}
}

static int
char_width(wchar_t c)
{
	int w;

	if (c < 32 || c == 127)
		return 1;
	w = wcwidth(c);
	return w < 0 ? 1 : w;
}

/* A mark that combines with the character before it (width 0). */
static int
is_combining(wchar_t c)
{
	return c >= 0x300 && wcwidth(c) == 0;
}

size_t
pane_char(const char *s, size_t n, int *width)
{
	wchar_t c;
	size_t k = utf8_next(s, n, &c);

	*width = char_width(c);
	while (k < n) {
		wchar_t m;
		size_t mk = utf8_next(s + k, n - k, &m);

		if (!is_combining(m))
			break;
		k += mk;
	}
	return k;
}

int
pane_width(const char *s, size_t len)
{
	size_t i = 0;
	int w = 0;

	while (i < len) {
		wchar_t c;

		i += utf8_next(s + i, len - i, &c);
		if (c == '\t')
			w += 4 - w % 4;
		else
			w += char_width(c);
	}
	return w;
}

void
pane_title_fit(char *buf, int room, int keep)
{
	static const char dot[] = " \xc2\xb7 ";
	int fields = 1;

	for (const char *q = buf; (q = strstr(q, dot)) != NULL; q += 4)
		fields++;
	while (fields > keep && pane_width(buf, strlen(buf)) > room) {
		char *q = strstr(buf, dot);

		if (q == NULL)
			break;
		memmove(buf, q + 4, strlen(q + 4) + 1);
		fields--;
	}
}

void
pane_cut(const char *s, int maxw, char *buf, size_t n)
{
	const char *ell = pane_ascii ? "~" : "\xe2\x80\xa6";
	size_t len = strlen(s), i = 0, keep = 0;
	int w = 0;

	if (n == 0)
		return;
	buf[0] = '\0';
	if (maxw < 1)
		return;
	if (pane_width(s, len) <= maxw) {
		snprintf(buf, n, "%s", s);
		return;
	}
	/* keep whole characters within maxw - 1 columns, then the ellipsis */
	while (i < len) {
		wchar_t c;
		size_t k = utf8_next(s + i, len - i, &c);
		int cw = c == '\t' ? 4 - w % 4 : char_width(c);

		if (w + cw > maxw - 1 || i + k + strlen(ell) + 1 > n)
			break;
		w += cw;
		i += k;
		keep = i;
	}
	memcpy(buf, s, keep);
	snprintf(buf + keep, n - keep, "%s", ell);
}

int
pane_put(WINDOW *win, int y, int x, int maxw, const char *s, size_t len,
    attr_t attr)
{
	int winw = getmaxx(win), used = 0;
	attr_t a = attr & ~A_COLOR;
	short pair = (short)PAIR_NUMBER(attr);
	size_t i = 0;

	if (s == NULL || y < 0 || y >= getmaxy(win) || x < 0 || x >= winw)
		return 0;
	if (maxw > winw - x)
		maxw = winw - x;
	wmove(win, y, x);
	while (i < len && used < maxw) {
		wchar_t c, wc[CCHARW_MAX + 1] = { 0 };
		cchar_t cc;
		int w, nc = 1;

		i += utf8_next(s + i, len - i, &c);
		if (c == '\t') {
			int n = 4 - used % 4;

			while (n-- > 0 && used < maxw) {
				waddch(win, ' ' | attr);
				used++;
			}
			continue;
		}
		if (c < 32 || c == 127)
			c = '?';
		else if (c > 127 && pane_ascii)
			c = ascii_of(c);
		w = char_width(c);
		if (w == 0)
			continue;	/* a mark with nothing to combine with */
		if (used + w > maxw)
			break;
		wc[0] = c;
		/* the marks that combine with it go in the same cell */
		while (i < len) {
			wchar_t m;
			size_t k = utf8_next(s + i, len - i, &m);

			if (!is_combining(m))
				break;
			i += k;
			if (nc < CCHARW_MAX && !pane_ascii)
				wc[nc++] = m;
		}
		if (c < 128 && nc == 1) {
			waddch(win, (chtype)c | attr);
		} else {
			wc[nc] = L'\0';
			setcchar(&cc, wc, a, pair, NULL);
			wadd_wch(win, &cc);
		}
		used += w;
	}
	return used;
}

int
pane_puts(WINDOW *win, int y, int x, int maxw, const char *s, attr_t attr)
{
	if (s == NULL)
		return 0;
	return pane_put(win, y, x, maxw, s, strlen(s), attr);
}

void
pane_title_lines(char *buf, size_t n, long top, int rows, long total)
{
	size_t len = strlen(buf);
	long last = top + rows;

	if (rows <= 0 || total <= rows || len >= n)
		return;
	snprintf(buf + len, n - len, "%slines %ld-%ld/%ld", len > 0 ?
	    " \xc2\xb7 " : "", top + 1, last < total ? last : total, total);
}

void
pane_cut_mid(const char *s, int maxw, char *buf, size_t n)
{
	const char *ell = pane_ascii ? "~" : "\xe2\x80\xa6";
	const char *p, *end = s + strlen(s);
	int total = pane_width(s, strlen(s)), head, w = 0;
	char first[512];

	if (total <= maxw || maxw < 5) {
		pane_cut(s, maxw, buf, n);
		return;
	}
	head = (maxw - 1) / 2;
	pane_cut(s, head + 1, first, sizeof first);	/* head, ellipsis */
	first[strlen(first) - strlen(ell)] = '\0';
	/* the tail: the last maxw - 1 - head columns, whole characters */
	for (p = s; p < end && total - w > maxw - 1 - head;) {
		int cw;

		p += pane_char(p, (size_t)(end - p), &cw);
		w += cw;
	}
	snprintf(buf, n, "%s%s%s", first, ell, p);
}

int
pane_text(WINDOW *win, int y, int x, int maxw, const char *s, attr_t attr)
{
	char cut[1024];

	if (s == NULL || maxw < 1)
		return 0;
	if (pane_width(s, strlen(s)) <= maxw)
		return pane_puts(win, y, x, maxw, s, attr);
	pane_cut(s, maxw, cut, sizeof cut);
	return pane_puts(win, y, x, maxw, cut, attr);
}

size_t
pane_wrap(const char *text, int width, struct pane_line *lines, size_t max)
{
	const char *p = text;
	size_t n = 0;

	if (width < 1)
		width = 1;
	while (*p != '\0') {
		const char *eol = strchr(p, '\n');
		size_t len = eol != NULL ? (size_t)(eol - p) : strlen(p);
		const char *end = p + len;

		if (len > 0 && p[len - 1] == '\r')
			len--;
		do {
			/* take as much as fits; break at the last blank */
			const char *q = p, *brk = NULL;
			int w = 0;

			while (q < p + len) {
				wchar_t c;
				size_t k = utf8_next(q, (size_t)(p + len - q),
				    &c);
				int cw = c == '\t' ? 4 - w % 4 : char_width(c);

				if (w + cw > width)
					break;
				if (c == ' ' || c == '\t')
					brk = q;
				w += cw;
				q += k;
			}
			if (q < p + len && brk != NULL && brk > p)
				q = brk;
			if (q == p && len > 0) {
				wchar_t c;

				/* a character wider than the line */
				q += utf8_next(q, len, &c);
			}
			if (n < max) {
				lines[n].s = p;
				lines[n].len = (size_t)(q - p);
			}
			n++;
			len -= (size_t)(q - p);
			p = q;
			while (len > 0 && *p == ' ') {
				p++;
				len--;
			}
		} while (len > 0);
		p = end;
		if (*p == '\n')
			p++;
	}
	return n;
}

int
pane_scroll(struct pane *p, enum action a, size_t n)
{
	int page = p->rows > 1 ? p->rows - 1 : 1;
	int max = (int)n - p->rows;

	if (max < 0)
		max = 0;
	switch (a) {
	case ACTION_MOVE_DOWN:	p->scroll++; break;
	case ACTION_MOVE_UP:	p->scroll--; break;
	case ACTION_PAGE_DOWN:	p->scroll += page; break;
	case ACTION_PAGE_UP:	p->scroll -= page; break;
	case ACTION_MOVE_FIRST:	p->scroll = 0; break;
	case ACTION_MOVE_LAST:	p->scroll = max; break;
	default:
		return 0;
	}
	if (p->scroll > max)
		p->scroll = max;
	if (p->scroll < 0)
		p->scroll = 0;
	return 1;
}

void
pane_duration(int64_t ms, char *buf, size_t n)
{
	if (ms < 1000)
		snprintf(buf, n, "%lld ms", (long long)(ms < 0 ? 0 : ms));
	else
		snprintf(buf, n, "%.1f s", ms / 1000.0);
}

enum theme_elem
pane_verdict_elem(const char *verdict)
{
	if (verdict == NULL)
		return THEME_DIM;
	if (verdict_is(verdict, VERDICT_PASS))
		return THEME_PASS;
	if (verdict_is(verdict, VERDICT_FAIL))
		return THEME_FAIL;
	return THEME_OTHER;
}

const char *
pane_short_verdict(const char *verdict)
{
	const char *s = verdict_short(verdict_from_name(verdict));

	if (verdict == NULL)
		return "-";
	return s != NULL ? s : verdict;
}

const char *
pane_short_category(const char *category)
{
	const char *s = category_short(category_from_name(category));

	if (category == NULL)
		return "-";
	return s != NULL ? s : category;
}

const char *
pane_short_status(const char *status)
{
	const char *s = status_short(status_from_name(status));

	if (status == NULL)
		return "-";
	return s != NULL ? s : status;
}
