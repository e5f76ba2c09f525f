/*
 * term.c - a virtual terminal screen on libvterm 0.1.4 (Debian 12); see
 * term.h.  This is the only file that calls vterm_*.  It turns bytes into
 * a screen of cells, records which rows changed and where the cursor is,
 * and turns keys into the bytes a program expects.  It knows nothing of
 * ptys (pty.c) or curses (src/ui): src/ui/pane_term.c feeds it a pty's
 * output, draws its damaged rows and sends its output back to the pty.
 * libvterm callbacks only record damage and cursor state and keep the
 * scrollback ring (sb_pushline/sb_popline); they never draw, fail or
 * block.  The ring holds copies of libvterm's cells, trailing blanks cut,
 * so that a line pulled back by a resize comes back as it was.
 *
 * 0.1.4 API drift to keep in mind: no VTermStringFragment, no cell.schar,
 * no sb_clear, and VTERM_PROP_TITLE arrives as a plain char *.
 */
#include "exec/term.h"

#include <stdlib.h>
#include <string.h>

#include <vterm.h>

#include "base/err.h"

/* One scrollback line: its cells, trailing blanks cut. */
struct term_sbline {
	int		 cols;
	VTermScreenCell	 cells[];
};

struct term {
	VTerm		*vt;		/* owned */
	VTermScreen	*vts;		/* borrowed from vt */
	int		 rows, cols;
	int		 dmg_lo, dmg_hi;	/* damage [lo, hi) */
	int		 crow, ccol;	/* cursor */
	int		 cvisible;
	int		 alt;		/* the alternate screen is on */
	term_output_fn	 out;		/* NULL: output is dropped */
	void		*arg;

	/*
	 * The scrollback: a ring of TERM_SB_MAX slots that owns its lines.
	 * sb_head is the slot of the oldest line, sb_n how many are held;
	 * sb_total counts pushes less pops since the last reset.
	 */
	struct term_sbline **sb;
	int		 sb_head, sb_n;
	long		 sb_total;

	/* The start of a UTF-8 sequence that the last feed cut (libvterm
	 * 0.1.4 shows such a sequence as two bad characters). */
	char		 held[4];
	int		 nheld;
};

/* ---- damage and callbacks ---------------------------------------------- */

static void
term_mark(struct term *t, int lo, int hi)
{
	if (lo < 0)
		lo = 0;
	if (hi > t->rows)
		hi = t->rows;
	if (lo >= hi)
		return;
	if (t->dmg_lo >= t->dmg_hi) {
		t->dmg_lo = lo;
		t->dmg_hi = hi;
		return;
	}
	if (lo < t->dmg_lo)
		t->dmg_lo = lo;
	if (hi > t->dmg_hi)
		t->dmg_hi = hi;
}

static int
term_cb_damage(VTermRect r, void *user)
{
	term_mark(user, r.start_row, r.end_row);
	return 1;
}

/* Why: returning 1 means we handle the move, so both areas must redraw. */
static int
term_cb_moverect(VTermRect dst, VTermRect src, void *user)
{
	int lo = dst.start_row < src.start_row ? dst.start_row : src.start_row;
	int hi = dst.end_row > src.end_row ? dst.end_row : src.end_row;

	term_mark(user, lo, hi);
	return 1;
}

static int
term_cb_movecursor(VTermPos pos, VTermPos old, int visible, void *user)
{
	struct term *t = user;

	(void)old;
	t->crow = pos.row;
	t->ccol = pos.col;
	t->cvisible = visible;
	return 1;
}

static int
term_cb_settermprop(VTermProp prop, VTermValue *val, void *user)
{
	struct term *t = user;

	if (prop == VTERM_PROP_CURSORVISIBLE)
		t->cvisible = val->boolean;
	if (prop == VTERM_PROP_ALTSCREEN)
		t->alt = val->boolean;
	/* VTERM_PROP_TITLE (a plain char * in 0.1.4) is not kept yet. */
	return 1;
}

/* Why blank: default colours, so a padded cell looks like the screen's. */
static int
cell_blank(const VTermScreenCell *c)
{
	return (c->chars[0] == 0 || c->chars[0] == ' ') &&
	    VTERM_COLOR_IS_DEFAULT_BG(&c->bg) && !c->attrs.reverse &&
	    !c->attrs.underline;
}

/* Slot of scrollback row (-1 newest ... -sb_n oldest). */
static struct term_sbline *
term_sb_at(const struct term *t, int row)
{
	if (row >= 0 || -row > t->sb_n)
		return NULL;
	return t->sb[(t->sb_head + t->sb_n + row) % TERM_SB_MAX];
}

/* Why copy: libvterm reuses cells after the callback returns. */
static int
term_cb_sb_pushline(int cols, const VTermScreenCell *cells, void *user)
{
	struct term *t = user;
	struct term_sbline *l;
	int n = cols, slot;

	while (n > 0 && cell_blank(&cells[n - 1]))
		n--;
	l = xmalloc(sizeof *l + (size_t)n * sizeof l->cells[0]);
	l->cols = n;
	if (n > 0)
		memcpy(l->cells, cells, (size_t)n * sizeof l->cells[0]);
	if (t->sb == NULL)
		t->sb = xcalloc(TERM_SB_MAX, sizeof *t->sb);
	if (t->sb_n == TERM_SB_MAX) {
		/* full: the oldest line goes */
		free(t->sb[t->sb_head]);
		t->sb[t->sb_head] = NULL;
		t->sb_head = (t->sb_head + 1) % TERM_SB_MAX;
		t->sb_n--;
	}
	slot = (t->sb_head + t->sb_n) % TERM_SB_MAX;
	t->sb[slot] = l;
	t->sb_n++;
	t->sb_total++;
	return 1;
}

static int
term_cb_sb_popline(int cols, VTermScreenCell *cells, void *user)
{
	struct term *t = user;
	struct term_sbline *l = term_sb_at(t, -1);
	VTermScreenCell blank;
	int c;

	if (l == NULL)
		return 0;
	memset(&blank, 0, sizeof blank);
	blank.width = 1;
	vterm_state_get_default_colors(vterm_obtain_state(t->vt), &blank.fg,
	    &blank.bg);
	for (c = 0; c < cols; c++)
		cells[c] = c < l->cols ? l->cells[c] : blank;
	t->sb[(t->sb_head + t->sb_n - 1) % TERM_SB_MAX] = NULL;
	free(l);
	t->sb_n--;
	t->sb_total--;
	return 1;
}

static const VTermScreenCallbacks term_callbacks = {
	.damage = term_cb_damage,
	.moverect = term_cb_moverect,
	.movecursor = term_cb_movecursor,
	.settermprop = term_cb_settermprop,
	.sb_pushline = term_cb_sb_pushline,
	.sb_popline = term_cb_sb_popline,
};

static void
term_cb_output(const char *s, size_t len, void *user)
{
	struct term *t = user;

	if (t->out != NULL && len > 0)
		t->out(s, len, t->arg);
}

/*
 * Why: with VTERM_DAMAGE_SCROLL merging, libvterm holds damage back until
 * it is flushed; without a flush the last output is never reported.
 */
static void
term_flush(struct term *t)
{
	vterm_screen_flush_damage(t->vts);
}

/*
 * Why: a reset or a resize moves libvterm's cursor without calling
 * movecursor, so read it back from the state.
 */
static void
term_sync_cursor(struct term *t)
{
	VTermPos pos;

	vterm_state_get_cursorpos(vterm_obtain_state(t->vt), &pos);
	t->crow = pos.row;
	t->ccol = pos.col;
}

/* ---- public API -------------------------------------------------------- */

struct term *
term_new(int rows, int cols, term_output_fn out, void *arg)
{
	struct term *t;

	if (rows < 1)
		rows = 1;
	if (cols < 1)
		cols = 1;
	t = xcalloc(1, sizeof *t);
	t->rows = rows;
	t->cols = cols;
	t->out = out;
	t->arg = arg;
	t->cvisible = 1;
	t->vt = vterm_new(rows, cols);
	if (t->vt == NULL)
		fatal("vterm_new %dx%d: out of memory", rows, cols);
	vterm_set_utf8(t->vt, 1);
	vterm_output_set_callback(t->vt, term_cb_output, t);
	t->vts = vterm_obtain_screen(t->vt);
	vterm_screen_enable_altscreen(t->vts, 1);
	vterm_screen_set_callbacks(t->vts, &term_callbacks, t);
	vterm_screen_set_damage_merge(t->vts, VTERM_DAMAGE_SCROLL);
	vterm_screen_reset(t->vts, 1);
	term_flush(t);
	term_sync_cursor(t);
	term_mark(t, 0, rows);
	return t;
}

void
term_free(struct term *t)
{
	if (t == NULL)
		return;
	term_sb_clear(t);
	free(t->sb);
	vterm_free(t->vt);
	free(t);
}

/*
 * Why pieces: libvterm 0.1.4's text handler (state.c on_text) decodes a
 * run of printable bytes into a variable-length array on the stack, four
 * bytes a byte, so one line of 4 MB with no control byte in it asks for
 * 16 MB of stack and the process dies of SIGSEGV.  Every write to
 * libvterm goes through here in pieces of at most TERM_WRITE_MAX bytes
 * (64 KiB of stack at most); a piece never ends inside a UTF-8 sequence
 * the caller gave whole.  libvterm's parser keeps its state between
 * writes, so an escape sequence cut between pieces works as it would
 * whole.
 */
static void
vt_write(struct term *t, const char *s, size_t n)
{
	while (n > 0) {
		size_t k = n;

		if (k > TERM_WRITE_MAX) {
			k = TERM_WRITE_MAX;
			/* back off to the start of a UTF-8 sequence */
			for (int i = 0; i < 3 && k > 1 &&
			    ((unsigned char)s[k] & 0xC0) == 0x80; i++)
				k--;
		}
		vterm_input_write(t->vt, s, k);
		s += k;
		n -= k;
	}
}

/*
 * The number of whole plain lines at the start of s (n bytes): printable
 * ASCII only, each ended by "\n" or "\r\n"; *end receives the offset
 * after each line in ends (up to max).
 */
static size_t
plain_lines(const char *s, size_t n, size_t *ends, size_t max)
{
	size_t k = 0, i = 0;

	while (i < n && k < max) {
		size_t j = i;

		while (j < n && s[j] >= 0x20 && s[j] < 0x7f)
			j++;
		if (j < n && s[j] == '\r' && j + 1 < n && s[j + 1] == '\n')
			j++;
		if (j >= n || s[j] != '\n')
			break;
		ends[k++] = j + 1;
		i = j + 1;
	}
	return k;
}

/* Push one plain line (no line end) into the scrollback, wrapped at the
 * terminal's width as the terminal would wrap it. */
static void
push_plain(struct term *t, const char *s, size_t n, VTermScreenCell *row,
    const VTermScreenCell *blank)
{
	size_t i = 0;

	if (n > 0 && s[n - 1] == '\r')
		n--;
	do {
		int c = 0;

		for (; c < t->cols && i < n; c++, i++) {
			row[c] = *blank;
			row[c].chars[0] = (uint32_t)(unsigned char)s[i];
		}
		for (int k = c; k < t->cols; k++)
			row[k] = *blank;
		term_cb_sb_pushline(t->cols, row, t);
	} while (i < n);
}

/*
 * Why: libvterm scrolls its whole screen buffer (a memmove of rows x
 * cols cells) for every line that leaves the bottom, so a program that
 * prints 300000 lines into a 120x40 pane moves gigabytes; that and
 * nothing else made the pane several times slower than tmux.  When a
 * chunk starts (the cursor at the start of a row, the main screen) with
 * more plain lines than twice the screen's height, the screen's rows so
 * far and all but the last screenful of those lines go straight into the
 * scrollback, as the terminal would have pushed them, the screen is
 * cleared, and only the last screenful goes through libvterm.  Returns
 * the bytes taken.  Lines are never dropped: the scrollback gets every
 * one (up to its size, as before).
 */
static size_t
term_fast(struct term *t, const char *s, size_t n)
{
	enum { MAXL = 65536 };
	static size_t ends[MAXL];
	VTermScreenCell *row, blank;
	VTermPos pos;
	size_t nl, from = 0, keep;

	if (t->alt || n < 512)
		return 0;
	vterm_state_get_cursorpos(vterm_obtain_state(t->vt), &pos);
	if (pos.col != 0)
		return 0;
	nl = plain_lines(s, n, ends, MAXL);
	/* rows per line: a line wider than the screen takes more than one */
	if (nl <= (size_t)t->rows * 2)
		return 0;
	keep = nl - (size_t)t->rows;	/* lines that go straight */
	for (size_t k = 0; k < keep; k++)
		if (ends[k] - (k > 0 ? ends[k - 1] : 0) > (size_t)t->cols + 2)
			return 0;	/* wraps: leave it to libvterm */
	row = xcalloc((size_t)t->cols, sizeof *row);
	memset(&blank, 0, sizeof blank);
	blank.width = 1;
	vterm_state_get_default_colors(vterm_obtain_state(t->vt), &blank.fg,
	    &blank.bg);
	/* the rows above the cursor scroll out first, as they would */
	for (int r = 0; r < pos.row; r++) {
		for (int c = 0; c < t->cols; c++) {
			VTermPos p = { r, c };

			vterm_screen_get_cell(t->vts, p, &row[c]);
		}
		term_cb_sb_pushline(t->cols, row, t);
	}
	for (size_t k = 0; k < keep; k++) {
		push_plain(t, s + from, ends[k] - from - 1, row, &blank);
		from = ends[k];
	}
	free(row);
	/* an empty screen, the cursor home, the pen kept */
	vt_write(t, "\033[H\033[2J", 7);
	term_mark(t, 0, t->rows);
	return from;
}

/* Bytes a UTF-8 sequence that starts with lead b takes: 1 to 4. */
static int
utf8_need(unsigned char b)
{
	return b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 1;
}

/*
 * How many bytes at the end of s (n bytes) are the start of a UTF-8
 * sequence cut short: 0 to 3.
 */
static int
utf8_cut(const char *s, size_t n)
{
	for (int k = 1; k <= 3 && (size_t)k <= n; k++) {
		unsigned char b = (unsigned char)s[n - (size_t)k];

		if ((b & 0xC0) == 0x80)
			continue;	/* a continuation: look further back */
		return b >= 0xC0 && b < 0xF8 && utf8_need(b) > k ? k : 0;
	}
	return 0;
}

/*
 * Complete the sequence held from the last feed with the continuation
 * bytes at the start of bytes; returns how many it took.  The held bytes
 * go to libvterm once complete, or as they are when what follows is not
 * their continuation (libvterm shows them as bad).
 */
static size_t
term_feed_held(struct term *t, const char *bytes, size_t len)
{
	size_t took = 0;
	int need = utf8_need((unsigned char)t->held[0]);

	while (t->nheld < need && took < len &&
	    ((unsigned char)bytes[took] & 0xC0) == 0x80)
		t->held[t->nheld++] = bytes[took++];
	if (t->nheld < need && took == len)
		return took;	/* still cut: wait for more */
	vt_write(t, t->held, (size_t)t->nheld);
	t->nheld = 0;
	return took;
}

void
term_feed(struct term *t, const char *bytes, size_t len)
{
	size_t done = 0;
	int cut;

	if (t->nheld > 0) {
		size_t took = term_feed_held(t, bytes, len);

		bytes += took;
		len -= took;
	}
	/* a sequence cut at the end waits for the next feed */
	cut = utf8_cut(bytes, len);
	len -= (size_t)cut;

	if (len >= 512 && !t->alt) {
		/* a read ends anywhere: the line it cut ends first */
		const char *nl = memchr(bytes, '\n', len < 512 ? len : 512);

		if (nl != NULL) {
			done = (size_t)(nl - bytes) + 1;
			vt_write(t, bytes, done);
		}
		done += term_fast(t, bytes + done, len - done);
	}
	if (len > done)
		vt_write(t, bytes + done, len - done);
	if (cut > 0) {
		memcpy(t->held, bytes + len, (size_t)cut);
		t->nheld = cut;
	}
	term_flush(t);
}

void
term_reset(struct term *t)
{
	t->nheld = 0;
	vterm_screen_reset(t->vts, 1);
	term_flush(t);
	term_sync_cursor(t);
	t->cvisible = 1;
	term_mark(t, 0, t->rows);
	term_sb_clear(t);
}

int
term_sb_lines(const struct term *t)
{
	return t->sb_n;
}

long
term_sb_total(const struct term *t)
{
	return t->sb_total;
}

void
term_sb_clear(struct term *t)
{
	for (int i = 0; i < t->sb_n; i++) {
		int slot = (t->sb_head + i) % TERM_SB_MAX;

		free(t->sb[slot]);
		t->sb[slot] = NULL;
	}
	t->sb_head = t->sb_n = 0;
	t->sb_total = 0;
}

void
term_resize(struct term *t, int rows, int cols)
{
	if (rows < 1)
		rows = 1;
	if (cols < 1)
		cols = 1;
	if (rows == t->rows && cols == t->cols)
		return;
	t->rows = rows;
	t->cols = cols;
	vterm_set_size(t->vt, rows, cols);
	term_flush(t);
	term_sync_cursor(t);
	/* The old damage may lie outside the new size; repaint everything. */
	t->dmg_lo = 0;
	t->dmg_hi = rows;
}

void
term_size(const struct term *t, int *rows, int *cols)
{
	if (rows != NULL)
		*rows = t->rows;
	if (cols != NULL)
		*cols = t->cols;
}

static void
term_color(const VTermColor *vc, int is_fg, struct term_color *tc)
{
	memset(tc, 0, sizeof *tc);
	if (is_fg ? VTERM_COLOR_IS_DEFAULT_FG(vc) :
	    VTERM_COLOR_IS_DEFAULT_BG(vc))
		tc->kind = TERM_COLOR_DEFAULT;
	else if (VTERM_COLOR_IS_INDEXED(vc)) {
		tc->kind = TERM_COLOR_INDEXED;
		tc->idx = vc->indexed.idx;
	} else {
		tc->kind = TERM_COLOR_RGB;
		tc->r = vc->rgb.red;
		tc->g = vc->rgb.green;
		tc->b = vc->rgb.blue;
	}
}

/*
 * The right half of a wide character is stored by libvterm with
 * chars[0] == (uint32_t)-1; it comes out as a cell with no characters and
 * width 0, so that callers advance by the width of the left half and skip
 * such cells.
 */
void
term_cell(const struct term *t, int row, int col, struct term_cell *c)
{
	VTermScreenCell vc;
	VTermPos pos = { .row = row, .col = col };
	int i;

	memset(c, 0, sizeof *c);
	c->width = 1;
	if (row < 0) {
		const struct term_sbline *l = term_sb_at(t, row);

		if (l == NULL || col < 0 || col >= l->cols)
			return;
		vc = l->cells[col];
	} else if (row >= t->rows || col < 0 || col >= t->cols ||
	    !vterm_screen_get_cell(t->vts, pos, &vc)) {
		return;
	}
	if (vc.chars[0] == (uint32_t)-1)
		c->width = 0;
	else {
		for (i = 0; i < VTERM_MAX_CHARS_PER_CELL &&
		    i < TERM_MAX_CHARS && vc.chars[i] != 0; i++)
			c->chars[i] = vc.chars[i];
		c->width = vc.width >= 2 ? 2 : 1;
	}
	c->bold = vc.attrs.bold;
	c->underline = vc.attrs.underline != 0;
	c->italic = vc.attrs.italic;
	c->reverse = vc.attrs.reverse;
	term_color(&vc.fg, 1, &c->fg);
	term_color(&vc.bg, 0, &c->bg);
}

int
term_damage(struct term *t, int *lo, int *hi)
{
	int lo0 = t->dmg_lo, hi0 = t->dmg_hi < t->rows ? t->dmg_hi : t->rows;

	t->dmg_lo = t->dmg_hi = 0;
	if (lo0 >= hi0)
		return 0;
	if (lo != NULL)
		*lo = lo0;
	if (hi != NULL)
		*hi = hi0;
	return 1;
}

void
term_cursor(const struct term *t, int *row, int *col, int *visible)
{
	if (row != NULL)
		*row = t->crow;
	if (col != NULL)
		*col = t->ccol;
	if (visible != NULL)
		*visible = t->cvisible;
}

/* Why: term.h names only TERM_MOD_CTRL; shift (1) and alt (2) pass too. */
static VTermModifier
term_mods(int mods)
{
	int m = VTERM_MOD_NONE;

	if (mods & TERM_MOD_CTRL)
		m |= VTERM_MOD_CTRL;
	if (mods & VTERM_MOD_SHIFT)
		m |= VTERM_MOD_SHIFT;
	if (mods & VTERM_MOD_ALT)
		m |= VTERM_MOD_ALT;
	return (VTermModifier)m;
}

void
term_key(struct term *t, enum term_key k, int mods)
{
	VTermKey vk;

	switch (k) {
	case TERM_KEY_ENTER:	vk = VTERM_KEY_ENTER; break;
	case TERM_KEY_TAB:	vk = VTERM_KEY_TAB; break;
	case TERM_KEY_BACKSPACE: vk = VTERM_KEY_BACKSPACE; break;
	case TERM_KEY_ESCAPE:	vk = VTERM_KEY_ESCAPE; break;
	case TERM_KEY_UP:	vk = VTERM_KEY_UP; break;
	case TERM_KEY_DOWN:	vk = VTERM_KEY_DOWN; break;
	case TERM_KEY_LEFT:	vk = VTERM_KEY_LEFT; break;
	case TERM_KEY_RIGHT:	vk = VTERM_KEY_RIGHT; break;
	case TERM_KEY_HOME:	vk = VTERM_KEY_HOME; break;
	case TERM_KEY_END:	vk = VTERM_KEY_END; break;
	case TERM_KEY_PAGEUP:	vk = VTERM_KEY_PAGEUP; break;
	case TERM_KEY_PAGEDOWN:	vk = VTERM_KEY_PAGEDOWN; break;
	case TERM_KEY_DEL:	vk = VTERM_KEY_DEL; break;
	case TERM_KEY_INS:	vk = VTERM_KEY_INS; break;
	default:
		/* TERM_KEY_FN + n is F(n); libvterm knows F0 to F255. */
		if ((int)k < (int)TERM_KEY_FN || (int)k - TERM_KEY_FN > 255)
			return;
		vk = (VTermKey)VTERM_KEY_FUNCTION((int)k - TERM_KEY_FN);
		break;
	}
	vterm_keyboard_key(t->vt, vk, term_mods(mods));
}

void
term_unichar(struct term *t, uint32_t ch, int mods)
{
	if (ch == 0 || ch > 0x10FFFF)
		return;
	vterm_keyboard_unichar(t->vt, ch, term_mods(mods));
}

/* Encode one code point as UTF-8 into s (4 bytes); returns the length. */
static size_t
term_utf8(uint32_t cp, char *s)
{
	if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
		cp = 0xFFFD;
	if (cp < 0x80) {
		s[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		s[0] = (char)(0xC0 | cp >> 6);
		s[1] = (char)(0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000) {
		s[0] = (char)(0xE0 | cp >> 12);
		s[1] = (char)(0x80 | (cp >> 6 & 0x3F));
		s[2] = (char)(0x80 | (cp & 0x3F));
		return 3;
	}
	s[0] = (char)(0xF0 | cp >> 18);
	s[1] = (char)(0x80 | (cp >> 12 & 0x3F));
	s[2] = (char)(0x80 | (cp >> 6 & 0x3F));
	s[3] = (char)(0x80 | (cp & 0x3F));
	return 4;
}

/* A cell that does not fit in buf ends the text; UTF-8 is never split. */
void
term_row_text(const struct term *t, int row, char *buf, size_t n)
{
	size_t len = 0, keep = 0;
	int c, i, cols = t->cols;

	if (n == 0)
		return;
	buf[0] = '\0';
	if (row < 0) {
		const struct term_sbline *l = term_sb_at(t, row);

		if (l == NULL)
			return;
		cols = l->cols;
	} else if (row >= t->rows) {
		return;
	}
	for (c = 0; c < cols; c++) {
		struct term_cell cell;
		char tmp[4 * TERM_MAX_CHARS];
		size_t tl = 0;
		int blank;

		term_cell(t, row, c, &cell);
		if (cell.width == 0)
			continue;	/* right half of a wide character */
		blank = cell.chars[0] == 0 || cell.chars[0] == ' ';
		if (cell.chars[0] == 0)
			tmp[tl++] = ' ';
		for (i = 0; i < TERM_MAX_CHARS && cell.chars[i] != 0; i++)
			tl += term_utf8(cell.chars[i], tmp + tl);
		if (len + tl > n - 1)
			break;
		memcpy(buf + len, tmp, tl);
		len += tl;
		if (!blank)
			keep = len;
	}
	buf[keep] = '\0';
}
