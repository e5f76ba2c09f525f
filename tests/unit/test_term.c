/* test_term.c - unit tests for term.c (cmocka): cells, damage, keys. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "exec/term.h"

/* Bytes the terminal sent back, collected by the output callback. */
struct sink {
	char	 buf[256];
	size_t	 len;
};

static void
sink_out(const char *bytes, size_t len, void *arg)
{
	struct sink *s = arg;

	assert_true(s->len + len < sizeof s->buf);
	memcpy(s->buf + s->len, bytes, len);
	s->len += len;
	s->buf[s->len] = '\0';
}

static void
feeds(struct term *t, const char *s)
{
	term_feed(t, s, strlen(s));
}

static void
test_term_text_colour_and_wide_chars(void **state)
{
	struct term *t = term_new(5, 30, NULL, NULL);
	struct term_cell c;
	char text[128];
	int row, col, vis;

	(void)state;
	feeds(t, "\033[31mred\033[0m caf\xc3\xa9 \xe4\xbd\xa0\xe5\xa5\xbd\r\n");
	term_row_text(t, 0, text, sizeof text);
	assert_string_equal(text, "red caf\xc3\xa9 \xe4\xbd\xa0\xe5\xa5\xbd");
	term_row_text(t, 1, text, sizeof text);
	assert_string_equal(text, "");

	term_cell(t, 0, 0, &c);
	assert_int_equal(c.chars[0], 'r');
	assert_int_equal(c.chars[1], 0);
	assert_int_equal(c.width, 1);
	assert_int_equal(c.fg.kind, TERM_COLOR_INDEXED);
	assert_int_equal(c.fg.idx, 1);
	assert_int_equal(c.bg.kind, TERM_COLOR_DEFAULT);

	term_cell(t, 0, 4, &c);		/* 'c', after the reset */
	assert_int_equal(c.chars[0], 'c');
	assert_int_equal(c.fg.kind, TERM_COLOR_DEFAULT);

	term_cell(t, 0, 7, &c);
	assert_int_equal(c.chars[0], 0xE9);

	term_cell(t, 0, 9, &c);		/* 你 */
	assert_int_equal(c.chars[0], 0x4F60);
	assert_int_equal(c.width, 2);
	term_cell(t, 0, 10, &c);	/* its right half */
	assert_int_equal(c.chars[0], 0);
	assert_int_equal(c.width, 0);
	term_cell(t, 0, 11, &c);	/* 好 */
	assert_int_equal(c.chars[0], 0x597D);
	assert_int_equal(c.width, 2);

	term_cursor(t, &row, &col, &vis);
	assert_int_equal(row, 1);
	assert_int_equal(col, 0);
	assert_true(vis);
	term_free(t);
}

static void
test_term_cursor_after_text(void **state)
{
	struct term *t = term_new(4, 20, NULL, NULL);
	int row, col;

	(void)state;
	feeds(t, "abc");
	term_cursor(t, &row, &col, NULL);
	assert_int_equal(row, 0);
	assert_int_equal(col, 3);
	feeds(t, "\033[3;7H");
	term_cursor(t, &row, &col, NULL);
	assert_int_equal(row, 2);
	assert_int_equal(col, 6);
	term_free(t);
}

static void
test_term_cursor_visibility(void **state)
{
	struct term *t = term_new(4, 20, NULL, NULL);
	int vis;

	(void)state;
	feeds(t, "\033[?25l");
	term_cursor(t, NULL, NULL, &vis);
	assert_false(vis);
	feeds(t, "\033[?25h");
	term_cursor(t, NULL, NULL, &vis);
	assert_true(vis);
	term_free(t);
}

static void
test_term_colours_and_attributes(void **state)
{
	struct term *t = term_new(3, 20, NULL, NULL);
	struct term_cell c;

	(void)state;
	feeds(t, "\033[38;5;208mA\033[38;2;10;120;250;44mB\033[0;1;4;3;7mC");
	term_cell(t, 0, 0, &c);
	assert_int_equal(c.fg.kind, TERM_COLOR_INDEXED);
	assert_int_equal(c.fg.idx, 208);
	assert_int_equal(c.bold, 0);

	term_cell(t, 0, 1, &c);
	assert_int_equal(c.fg.kind, TERM_COLOR_RGB);
	assert_int_equal(c.fg.r, 10);
	assert_int_equal(c.fg.g, 120);
	assert_int_equal(c.fg.b, 250);
	assert_int_equal(c.bg.kind, TERM_COLOR_INDEXED);
	assert_int_equal(c.bg.idx, 4);

	term_cell(t, 0, 2, &c);
	assert_int_equal(c.fg.kind, TERM_COLOR_DEFAULT);
	assert_int_equal(c.bg.kind, TERM_COLOR_DEFAULT);
	assert_true(c.bold);
	assert_true(c.underline);
	assert_true(c.italic);
	assert_true(c.reverse);
	term_free(t);
}

static void
test_term_cell_outside_is_blank(void **state)
{
	struct term *t = term_new(3, 5, NULL, NULL);
	struct term_cell c;

	(void)state;
	feeds(t, "xxxxx");
	term_cell(t, 0, 5, &c);
	assert_int_equal(c.chars[0], 0);
	assert_int_equal(c.width, 1);
	term_cell(t, -1, 0, &c);
	assert_int_equal(c.chars[0], 0);
	term_cell(t, 3, 0, &c);
	assert_int_equal(c.chars[0], 0);
	assert_int_equal(c.fg.kind, TERM_COLOR_DEFAULT);
	term_free(t);
}

static void
test_term_damage_reported_then_cleared(void **state)
{
	struct term *t = term_new(6, 20, NULL, NULL);
	int lo = -1, hi = -1;

	(void)state;
	assert_int_equal(term_damage(t, &lo, &hi), 1);	/* first paint */
	assert_int_equal(lo, 0);
	assert_int_equal(hi, 6);
	assert_int_equal(term_damage(t, &lo, &hi), 0);

	feeds(t, "\033[3;1Hx");
	assert_int_equal(term_damage(t, &lo, &hi), 1);
	assert_int_equal(lo, 2);
	assert_int_equal(hi, 3);
	assert_int_equal(term_damage(t, &lo, &hi), 0);

	feeds(t, "\033[2;1Hy\033[5;1Hz");
	assert_int_equal(term_damage(t, &lo, &hi), 1);
	assert_int_equal(lo, 1);
	assert_int_equal(hi, 5);
	assert_int_equal(term_damage(t, NULL, NULL), 0);
	term_free(t);
}

static void
test_term_damage_on_scroll(void **state)
{
	struct term *t = term_new(3, 10, NULL, NULL);
	char text[32];
	int lo, hi;

	(void)state;
	feeds(t, "one\r\ntwo\r\nthree");
	term_damage(t, NULL, NULL);
	feeds(t, "\r\nfour");
	assert_int_equal(term_damage(t, &lo, &hi), 1);
	assert_int_equal(lo, 0);
	assert_int_equal(hi, 3);
	term_row_text(t, 0, text, sizeof text);
	assert_string_equal(text, "two");
	term_row_text(t, 2, text, sizeof text);
	assert_string_equal(text, "four");
	term_free(t);
}

static void
test_term_resize_changes_size(void **state)
{
	struct term *t = term_new(24, 80, NULL, NULL);
	char text[64];
	int rows, cols, lo, hi;

	(void)state;
	feeds(t, "hello world");
	term_damage(t, NULL, NULL);
	term_resize(t, 5, 8);
	term_size(t, &rows, &cols);
	assert_int_equal(rows, 5);
	assert_int_equal(cols, 8);
	assert_int_equal(term_damage(t, &lo, &hi), 1);
	assert_int_equal(lo, 0);
	assert_int_equal(hi, 5);
	term_row_text(t, 0, text, sizeof text);
	assert_string_equal(text, "hello wo");	/* cut, not reflowed */
	term_resize(t, 30, 100);
	term_size(t, &rows, &cols);
	assert_int_equal(rows, 30);
	assert_int_equal(cols, 100);
	term_free(t);
}

static void
test_term_key_up_output(void **state)
{
	struct sink s = { .len = 0 };
	struct term *t = term_new(5, 20, sink_out, &s);

	(void)state;
	term_key(t, TERM_KEY_UP, 0);
	assert_int_equal(s.len, 3);
	assert_memory_equal(s.buf, "\033[A", 3);

	s.len = 0;
	feeds(t, "\033[?1h");		/* DECCKM: application cursor */
	term_key(t, TERM_KEY_UP, 0);
	assert_int_equal(s.len, 3);
	assert_memory_equal(s.buf, "\033OA", 3);

	s.len = 0;
	term_key(t, TERM_KEY_ENTER, 0);
	term_key(t, TERM_KEY_FN + 1, 0);
	assert_string_equal(s.buf, "\r\033OP");
	term_free(t);
}

static void
test_term_unichar_output(void **state)
{
	struct sink s = { .len = 0 };
	struct term *t = term_new(5, 20, sink_out, &s);

	(void)state;
	term_unichar(t, 'a', 0);
	term_unichar(t, 0xE9, 0);
	term_unichar(t, 'c', TERM_MOD_CTRL);
	assert_int_equal(s.len, 4);
	assert_memory_equal(s.buf, "a\xc3\xa9\003", 4);
	term_free(t);
}

static void
test_term_query_reply_goes_to_output(void **state)
{
	struct sink s = { .len = 0 };
	struct term *t = term_new(5, 20, sink_out, &s);

	(void)state;
	feeds(t, "\033[2;4H\033[6n");	/* cursor position report */
	assert_string_equal(s.buf, "\033[2;4R");
	term_free(t);
}

static void
test_term_reset_clears_screen_and_modes(void **state)
{
	struct sink s = { .len = 0 };
	struct term *t = term_new(5, 20, sink_out, &s);
	char text[64];
	int row, col, vis;

	(void)state;
	feeds(t, "junk\r\nmore\033[?1h\033[31m\033[?25l");
	term_reset(t);
	term_row_text(t, 0, text, sizeof text);
	assert_string_equal(text, "");
	term_row_text(t, 1, text, sizeof text);
	assert_string_equal(text, "");
	term_cursor(t, &row, &col, &vis);
	assert_int_equal(row, 0);
	assert_int_equal(col, 0);
	assert_true(vis);
	term_key(t, TERM_KEY_UP, 0);
	assert_memory_equal(s.buf, "\033[A", 3);
	feeds(t, "x");
	{
		struct term_cell c;

		term_cell(t, 0, 0, &c);
		assert_int_equal(c.fg.kind, TERM_COLOR_DEFAULT);
	}
	term_free(t);
}

static void
test_term_alt_screen(void **state)
{
	struct term *t = term_new(4, 20, NULL, NULL);
	char text[64];

	(void)state;
	feeds(t, "main");
	feeds(t, "\033[?1049h");
	term_row_text(t, 0, text, sizeof text);
	assert_string_equal(text, "");
	feeds(t, "\033[Halt");	/* 1049 keeps the cursor where it was */
	term_row_text(t, 0, text, sizeof text);
	assert_string_equal(text, "alt");
	feeds(t, "\033[?1049l");
	term_row_text(t, 0, text, sizeof text);
	assert_string_equal(text, "main");
	term_free(t);
}

static void
test_term_row_text_truncates_whole_chars(void **state)
{
	struct term *t = term_new(3, 20, NULL, NULL);
	char text[16];

	(void)state;
	feeds(t, "red caf\xc3\xa9   ");
	term_row_text(t, 0, text, 9);	/* 8 bytes: é (2) would not fit */
	assert_string_equal(text, "red caf");
	term_row_text(t, 0, text, 10);
	assert_string_equal(text, "red caf\xc3\xa9");
	term_row_text(t, 0, text, sizeof text);
	assert_string_equal(text, "red caf\xc3\xa9");	/* no blanks */
	term_row_text(t, 0, text, 1);
	assert_string_equal(text, "");
	term_row_text(t, 7, text, sizeof text);
	assert_string_equal(text, "");
	term_free(t);
}

static void
test_term_combining_marks(void **state)
{
	struct term *t = term_new(3, 20, NULL, NULL);
	struct term_cell c;
	char text[32];

	(void)state;
	feeds(t, "e\xcc\x81x");		/* e + COMBINING ACUTE, x */
	term_cell(t, 0, 0, &c);
	assert_int_equal(c.chars[0], 'e');
	assert_int_equal(c.chars[1], 0x301);
	assert_int_equal(c.chars[2], 0);
	term_row_text(t, 0, text, sizeof text);
	assert_string_equal(text, "e\xcc\x81x");
	term_free(t);
}

/* Feed "line 0\r\n" ... "line n-1\r\n". */
static void
feed_lines(struct term *t, int from, int n)
{
	char line[32];

	for (int i = from; i < from + n; i++) {
		snprintf(line, sizeof line, "line %d\r\n", i);
		feeds(t, line);
	}
}

/*
 * Regression (workbench bug: the toolchain pane had no scrollback, so
 * output longer than the pane lost its top, the `$ iverilog` line and
 * the first error): lines scrolled off the top are kept, newest at -1.
 */
static void
test_term_scrollback_keeps_lines(void **state)
{
	struct term *t = term_new(3, 20, NULL, NULL);
	struct term_cell c;
	char text[64];

	(void)state;
	assert_int_equal(term_sb_lines(t), 0);
	assert_int_equal(term_sb_total(t), 0);
	feeds(t, "\033[1;31mline 0\033[0m\r\n");
	feed_lines(t, 1, 9);
	/* 10 lines on 3 rows: 8 scrolled off, the cursor on a blank row */
	assert_int_equal(term_sb_lines(t), 8);
	assert_int_equal(term_sb_total(t), 8);
	term_row_text(t, -1, text, sizeof text);
	assert_string_equal(text, "line 7");
	term_row_text(t, -8, text, sizeof text);
	assert_string_equal(text, "line 0");
	term_row_text(t, -9, text, sizeof text);
	assert_string_equal(text, "");
	term_row_text(t, 0, text, sizeof text);
	assert_string_equal(text, "line 8");
	/* attributes come along; past the line's end the cells are blank */
	term_cell(t, -8, 0, &c);
	assert_int_equal(c.chars[0], 'l');
	assert_true(c.bold);
	assert_int_equal(c.fg.kind, TERM_COLOR_INDEXED);
	assert_int_equal(c.fg.idx, 1);
	term_cell(t, -8, 15, &c);
	assert_int_equal(c.chars[0], 0);
	assert_int_equal(c.width, 1);
	term_cell(t, -100, 0, &c);
	assert_int_equal(c.chars[0], 0);
	term_free(t);
}

/* The ring is bounded: the oldest lines go, the total keeps counting. */
static void
test_term_scrollback_is_bounded(void **state)
{
	struct term *t = term_new(2, 20, NULL, NULL);
	char text[64];

	(void)state;
	feed_lines(t, 0, TERM_SB_MAX + 11);
	assert_int_equal(term_sb_lines(t), TERM_SB_MAX);
	assert_int_equal(term_sb_total(t), TERM_SB_MAX + 10);
	term_row_text(t, -TERM_SB_MAX, text, sizeof text);
	assert_string_equal(text, "line 10");
	term_row_text(t, -1, text, sizeof text);
	snprintf(text + 32, 32, "line %d", TERM_SB_MAX + 9);
	assert_string_equal(text, text + 32);
	term_free(t);
}

/* More rows pull lines back from the scrollback; a reset drops it. */
static void
test_term_scrollback_resize_and_reset(void **state)
{
	struct term *t = term_new(3, 20, NULL, NULL);
	char text[64];

	(void)state;
	feed_lines(t, 0, 5);		/* 3 scrolled off */
	feeds(t, "tail");
	assert_int_equal(term_sb_lines(t), 3);
	term_resize(t, 5, 20);
	assert_int_equal(term_sb_lines(t), 1);
	assert_int_equal(term_sb_total(t), 1);
	term_row_text(t, 0, text, sizeof text);
	assert_string_equal(text, "line 1");
	term_row_text(t, -1, text, sizeof text);
	assert_string_equal(text, "line 0");
	/* fewer rows push the top back into the scrollback */
	term_resize(t, 2, 20);
	assert_int_equal(term_sb_lines(t), 4);
	term_row_text(t, 1, text, sizeof text);
	assert_string_equal(text, "tail");
	term_reset(t);
	assert_int_equal(term_sb_lines(t), 0);
	assert_int_equal(term_sb_total(t), 0);
	term_row_text(t, -1, text, sizeof text);
	assert_string_equal(text, "");
	feed_lines(t, 0, 3);
	assert_int_equal(term_sb_total(t), 2);
	term_sb_clear(t);
	assert_int_equal(term_sb_lines(t), 0);
	term_free(t);
}

/*
 * Regression (workbench bug: shrinking the terminal after a zoomed run
 * cut long lines for good): libvterm 0.1.4 does not reflow, so the pane
 * must not shrink an idle terminal; a terminal made wider keeps the
 * whole line and a scrolled-off line keeps its full width.
 */
static void
test_term_long_lines_survive_growth(void **state)
{
	struct term *t = term_new(2, 60, NULL, NULL);
	const char *msg = "candidate.sv:8: error: part select y[1:3] is out "
	    "of range";
	char text[128];

	(void)state;
	feeds(t, msg);
	feeds(t, "\r\n");
	term_resize(t, 2, 70);
	term_row_text(t, 0, text, sizeof text);
	assert_string_equal(text, msg);
	feeds(t, "a\r\nb\r\n");
	term_row_text(t, -2, text, sizeof text);
	assert_string_equal(text, msg);
	term_free(t);
}

static void
test_term_free_null(void **state)
{
	(void)state;
	term_free(NULL);
}

/*
 * A flood of plain lines in one chunk (the fast path into the
 * scrollback) keeps every line, in order, behind what the screen held,
 * exactly as line-by-line feeding does; so does a chunk that starts in
 * the middle of a line, and a line wider than the screen.
 */
static void
flood_check(const char *prefix, int split)
{
	struct term *t = term_new(6, 20, NULL, NULL), *u;
	char *big = malloc(200000), text[64], want[64];
	size_t n = 0;
	int total;

	assert_non_null(big);
	n += (size_t)snprintf(big + n, 200000 - n, "%s", prefix);
	for (int i = 1; i <= 3000; i++)
		n += (size_t)snprintf(big + n, 200000 - n, "line %d\r\n", i);
	n += (size_t)snprintf(big + n, 200000 - n, "tail");
	feeds(t, "before 1\r\nbefore 2\r\npart");
	if (split > 0) {
		term_feed(t, big, (size_t)split);
		term_feed(t, big + split, n - (size_t)split);
	} else {
		term_feed(t, big, n);
	}
	/* the same bytes fed a few at a time: the reference */
	u = term_new(6, 20, NULL, NULL);
	feeds(u, "before 1\r\nbefore 2\r\npart");
	for (size_t i = 0; i < n; i += 100)
		term_feed(u, big + i, n - i < 100 ? n - i : 100);
	assert_int_equal(term_sb_lines(t), term_sb_lines(u));
	assert_int_equal(term_sb_total(t), term_sb_total(u));
	total = term_sb_lines(t);
	for (int row = -total; row < 6; row++) {
		term_row_text(t, row, text, sizeof text);
		term_row_text(u, row, want, sizeof want);
		assert_string_equal(text, want);
	}
	term_row_text(t, 5, text, sizeof text);
	assert_string_equal(text, "tail");
	term_row_text(t, -total, text, sizeof text);
	assert_string_equal(text, "before 1");
	free(big);
	term_free(t);
	term_free(u);
}

static void
test_term_flood_keeps_every_line(void **state)
{
	(void)state;
	flood_check("", 0);
	flood_check("", 4093);		/* a read that cuts a line */
	flood_check(" and more\r\n", 0);	/* the cursor mid-line */
	flood_check("a line wider than the twenty columns\r\n", 0);
}

/*
 * One line of 10 MB with no control byte in it (a run that prints
 * without a newline; a model's answer of one long comment): libvterm
 * 0.1.4 put its code points on the stack in one piece and died of
 * SIGSEGV at about 2 MB under an 8 MB stack.  Fed whole and fed cut
 * inside a UTF-8 sequence, the terminal holds the line's end, wrapped
 * at its width, and what follows starts a line of its own.
 */
static void
test_term_one_huge_line(void **state)
{
	size_t n = 10u << 20;
	char *big = malloc(n + 16), text[128];
	struct term *t = term_new(6, 80, NULL, NULL);
	struct term_cell c;
	int row, col, vis;

	(void)state;
	assert_non_null(big);
	memset(big, 'B', n);
	/* a 3-byte character at the very end, where TERM_WRITE_MAX cuts
	 * 10 MB into pieces (10 MB is a multiple of it) */
	memcpy(big + n - 3, "\xe2\x82\xac", 3);
	feeds(t, "\033[32m");
	term_feed(t, big, n);
	feeds(t, "\033[0m\r\nafter\r\n");
	/* 10485760 bytes less 2 (the euro sign is one cell): 131072
	 * rows of 80, the last one 78 cells; then "after" and the
	 * cursor's empty row */
	term_row_text(t, 2, text, sizeof text);
	assert_int_equal(strlen(text), 80);
	assert_int_equal(strspn(text, "B"), 80);
	term_row_text(t, 3, text, sizeof text);
	assert_int_equal(strlen(text), 77 + 3);
	assert_int_equal(strspn(text, "B"), 77);
	assert_string_equal(text + 77, "\xe2\x82\xac");
	term_cell(t, 3, 0, &c);
	assert_int_equal(c.fg.kind, TERM_COLOR_INDEXED);
	assert_int_equal(c.fg.idx, 2);
	term_row_text(t, 4, text, sizeof text);
	assert_string_equal(text, "after");
	term_cursor(t, &row, &col, &vis);
	assert_int_equal(row, 5);
	assert_int_equal(col, 0);
	assert_int_equal(term_sb_lines(t), TERM_SB_MAX);
	/* 131072 + 2 lines less the 6 on the screen */
	assert_int_equal(term_sb_total(t), 131072 + 2 - 6);

	/* cut by the caller one byte into the euro sign: the same screen */
	term_reset(t);
	term_feed(t, big, n - 2);
	term_feed(t, big + n - 2, 2);
	term_row_text(t, 5, text, sizeof text);
	assert_string_equal(text + 77, "\xe2\x82\xac");
	assert_int_equal(strspn(text, "B"), 77);
	free(big);
	term_free(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_term_text_colour_and_wide_chars),
		cmocka_unit_test(test_term_one_huge_line),
		cmocka_unit_test(test_term_cursor_after_text),
		cmocka_unit_test(test_term_cursor_visibility),
		cmocka_unit_test(test_term_colours_and_attributes),
		cmocka_unit_test(test_term_cell_outside_is_blank),
		cmocka_unit_test(test_term_damage_reported_then_cleared),
		cmocka_unit_test(test_term_damage_on_scroll),
		cmocka_unit_test(test_term_resize_changes_size),
		cmocka_unit_test(test_term_key_up_output),
		cmocka_unit_test(test_term_unichar_output),
		cmocka_unit_test(test_term_query_reply_goes_to_output),
		cmocka_unit_test(test_term_reset_clears_screen_and_modes),
		cmocka_unit_test(test_term_alt_screen),
		cmocka_unit_test(test_term_row_text_truncates_whole_chars),
		cmocka_unit_test(test_term_combining_marks),
		cmocka_unit_test(test_term_scrollback_keeps_lines),
		cmocka_unit_test(test_term_scrollback_is_bounded),
		cmocka_unit_test(test_term_scrollback_resize_and_reset),
		cmocka_unit_test(test_term_long_lines_survive_growth),
		cmocka_unit_test(test_term_flood_keeps_every_line),
		cmocka_unit_test(test_term_free_null),
	};

	return cmocka_run_group_tests_name("term", tests, NULL, NULL);
}
