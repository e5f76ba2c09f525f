/*
 * test_termfilter.c - unit tests for termfilter.c (cmocka): what a run's
 * output may still do to the toolchain pane's terminal.  Expected bytes
 * are written out by hand from the rules in termfilter.h.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "base/buf.h"
#include "exec/term.h"
#include "exec/termfilter.h"

#define FFFD "\xef\xbf\xbd"

/* Filter s (n bytes) whole with a new filter; the result is static. */
static const char *
filt_n(const char *s, size_t n)
{
	static struct buf out = BUF_INIT;
	struct term_filter f;

	buf_reset(&out);
	term_filter_init(&f);
	term_filter_run(&f, s, n, &out);
	return buf_str(&out);
}

static const char *
filt(const char *s)
{
	return filt_n(s, strlen(s));
}

static void
test_filter_line_ends(void **state)
{
	(void)state;
	assert_string_equal(filt("a\nb\r\nc"), "a\r\nb\r\nc");
	/* a lone CR ends the line: "50%" is not overwritten */
	assert_string_equal(filt("50%\r60%\r\n"), "50%\r\n60%\r\n");
	assert_string_equal(filt("x\r\r\ny"), "x\r\ny");
	assert_string_equal(filt("\n\n"), "\r\n\r\n");
	assert_string_equal(filt("a\tb"), "a\tb");
}

static void
test_filter_sgr(void **state)
{
	(void)state;
	/* colour passes, and is reset at the line's end */
	assert_string_equal(filt("\033[1;31mred\nplain"),
	    "\033[1;31mred\033[m\r\nplain");
	assert_string_equal(filt("\033[mx"), "\033[0mx");
	assert_string_equal(filt("\033[92;4mx\033[0m"), "\033[92;4mx\033[0m");
	/* conceal, black on black, reverse, blink: nothing passes */
	assert_string_equal(filt("\033[8mhidden"), "hidden");
	assert_string_equal(filt("\033[30;40mM\n"), "M\r\n");
	assert_string_equal(filt("\033[7;5;97;107;37;90;47;100;49mx"), "x");
	/* 256-colour and RGB colours go with their operands */
	assert_string_equal(filt("\033[38;5;16;1mx"), "\033[1mx");
	assert_string_equal(filt("\033[38;2;0;0;0;4;48;2;1;2;3;33mx"),
	    "\033[4;33mx");
	assert_string_equal(filt("\033[38:2::0:0:0mx"), "x");
	/* a private SGR or one with an intermediate is no SGR */
	assert_string_equal(filt("\033[>4;2mx\033[1 mx"), "xx");
	/* 48 bytes of parameters pass whole */
	assert_string_equal(filt("\033[" "1;1;1;1;1;1;1;1;1;1;1;1;1;1;1;1;1;1;1;1;1;1;1;1;"
	    "m."), "\033[1;1;1;1;1;1;1;1;1;1;1;1;1;1;1;1;1;1;1;1;1;1;1;1;0m.");
	/* empty parameters are 0s: the kept copy is longer than the input */
	{
		char in[64] = "\033[", want[256] = "\033[0";

		memset(in + 2, ';', 47);
		strcpy(in + 49, "mx");
		for (int i = 0; i < 47; i++)
			strcat(want, ";0");
		strcat(want, "mx");
		assert_string_equal(filt(in), want);
	}
}

static void
test_filter_drops_moves_and_erases(void **state)
{
	(void)state;
	assert_string_equal(filt("a\033[2Jb\033[Hc\033[5Ad\033[K"), "abcd");
	assert_string_equal(filt("\033[?1049h\033[?25lx\033[3;1r\033[1;1f"),
	    "x");
	assert_string_equal(filt("\0337a\0338\033cb\033Mc\033(0d\033#8e"),
	    "abcde");
	/* BS, BEL, SO, SI, VT, FF, NUL, DEL */
	assert_string_equal(filt_n("a\bb\007c\016d\017e\013f\014g\0h\177i", 17),
	    "abcdefghi");
}

static void
test_filter_strings(void **state)
{
	char in[600];

	(void)state;
	assert_string_equal(filt("\033]0;title\007a\033]52;c;aGk=\033\\b"),
	    "ab");
	assert_string_equal(filt("\033P1$qm\033\\a\033_x\033\\b\033^y\033\\c"
	    "\033Xz\033\\d"), "abcd");
	/* an ESC in a string ends it and starts an escape */
	assert_string_equal(filt("\033]0;t\033[31mx"), "\033[31mx");
	/* a string left open ends at the line's end, which stays */
	assert_string_equal(filt("\033]0;never closed\nMismatches: 20"),
	    "\r\nMismatches: 20");
	/* and after TERM_FILTER_STR_MAX bytes */
	memcpy(in, "\033]", 2);
	memset(in + 2, 'x', TERM_FILTER_STR_MAX);
	strcpy(in + 2 + TERM_FILTER_STR_MAX, "shown");
	assert_string_equal(filt(in), "shown");
}

static void
test_filter_open_sequences_are_bounded(void **state)
{
	char in[128];

	(void)state;
	/* a CSI left open by a run swallows at most its own length: the
	 * line end that follows stays */
	assert_string_equal(filt("\033[12\nMismatches"), "\r\nMismatches");
	memcpy(in, "\033[", 2);
	memset(in + 2, '1', TERM_FILTER_SEQ_MAX);
	strcpy(in + 2 + TERM_FILTER_SEQ_MAX, "2;0mshown");
	/* the byte past the limit ends it, the rest is text */
	assert_string_equal(filt(in), ";0mshown");
	memcpy(in, "\033", 1);
	memset(in + 1, ' ', TERM_FILTER_SEQ_MAX + 2);
	strcpy(in + 3 + TERM_FILTER_SEQ_MAX, "shown");
	assert_string_equal(filt(in), "  shown");
}

static void
test_filter_utf8(void **state)
{
	(void)state;
	assert_string_equal(filt("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"),
	    "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
	/* invalid bytes, an overlong '/', a surrogate, a lone continuation,
	 * a sequence cut by ASCII */
	assert_string_equal(filt("\xff\xc0\xaf\xed\xa0\x80\x80\xe2\x82" "A"),
	    FFFD FFFD FFFD FFFD FFFD FFFD "A");
	/* C1 CSI as UTF-8, a bidirectional override: replaced */
	assert_string_equal(filt("\xc2\x9b" "2J\xe2\x80\xae" "x"),
	    FFFD "2J" FFFD "x");
	/* a raw C1 byte is no control in UTF-8 */
	assert_string_equal(filt("\x9b" "2J"), FFFD "2J");
}

/*
 * The same bytes cut at every place (the feeder gets arbitrary chunks)
 * give the same output as fed whole.
 */
static void
test_filter_split_anywhere(void **state)
{
	static const char in[] = "ok \033[1;31mred\033[0m \xe2\x82\xac"
	    "\033]0;t\007\033[2J\r\nnext\033P+q\033\\\xf0\x9f\x98\x80\r"
	    "\033[38;5;1;4mu\033\\v\n";
	const size_t n = sizeof in - 1;
	char *whole = strdup(filt_n(in, n));

	(void)state;
	assert_non_null(whole);
	for (size_t cut = 1; cut < n; cut++) {
		for (size_t cut2 = cut; cut2 < n; cut2++) {
			struct buf out = BUF_INIT;
			struct term_filter f;

			term_filter_init(&f);
			term_filter_run(&f, in, cut, &out);
			term_filter_run(&f, in + cut, cut2 - cut, &out);
			term_filter_run(&f, in + cut2, n - cut2, &out);
			assert_string_equal(buf_str(&out), whole);
			buf_release(&out);
		}
	}
	assert_string_equal(whole, "ok \033[1;31mred\033[0m \xe2\x82\xac"
	    "\033[m\r\nnext\xf0\x9f\x98\x80\r\n\033[4muv\033[m\r\n");
	free(whole);
}

static void
test_filter_end(void **state)
{
	struct buf out = BUF_INIT;
	struct term_filter f;

	(void)state;
	term_filter_init(&f);
	term_filter_run(&f, "\033[31mx\033[", 8, &out);
	assert_int_equal(term_filter_mid_line(&f), 1);
	term_filter_end(&f, &out);
	/* what follows is not eaten by the open CSI and has no pen */
	term_filter_run(&f, "Mismatches\n", 11, &out);
	assert_string_equal(buf_str(&out), "\033[31mx\033[mMismatches\r\n");
	assert_int_equal(term_filter_mid_line(&f), 0);
	buf_reset(&out);
	term_filter_run(&f, "\xe2\x82", 2, &out);
	term_filter_end(&f, &out);
	assert_string_equal(buf_str(&out), FFFD);
	buf_release(&out);
}

/*
 * The attack, through the terminal: a candidate's fake verdict lines,
 * then conceal and black on black and an erase; the testbench's real
 * line after them is on the screen, in the default colours, and the
 * fake one has not been wiped either.
 */
static void
test_filter_attack_on_screen(void **state)
{
	static const char run[] = "Mismatches: 0 in 20 samples\n"
	    "\033[8m \033[30;40m\033[2J\033[H"
	    "Mismatches: 20 in 20 samples\n";
	struct term *t = term_new(6, 40, NULL, NULL);
	struct term_filter f;
	struct buf out = BUF_INIT;
	struct term_cell c;
	char text[64];

	(void)state;
	term_filter_init(&f);
	term_filter_run(&f, run, sizeof run - 1, &out);
	term_filter_end(&f, &out);
	term_feed(t, out.p, out.len);
	term_row_text(t, 0, text, sizeof text);
	assert_string_equal(text, "Mismatches: 0 in 20 samples");
	term_row_text(t, 1, text, sizeof text);
	assert_string_equal(text, " Mismatches: 20 in 20 samples");
	term_cell(t, 1, 1, &c);
	assert_int_equal(c.chars[0], 'M');
	assert_int_equal(c.fg.kind, TERM_COLOR_DEFAULT);
	assert_int_equal(c.bg.kind, TERM_COLOR_DEFAULT);
	assert_int_equal(c.reverse, 0);
	buf_release(&out);
	term_free(t);
}

#define DOTTED "\xe2\x97\x8c"	/* U+25CC */
#define ACUTE "\xcc\x81"	/* U+0301 COMBINING ACUTE ACCENT */

/*
 * A combining or zero-width character with nothing before it on its line
 * gets a dotted circle to sit on; after a character it stays as it is.
 */
static void
test_filter_combining_needs_a_base(void **state)
{
	(void)state;
	assert_string_equal(filt(ACUTE "x\n"), DOTTED ACUTE "x\r\n");
	assert_string_equal(filt("e" ACUTE "\n" ACUTE ACUTE "\n"),
	    "e" ACUTE "\r\n" DOTTED ACUTE ACUTE "\r\n");
	/* after a tab the cursor moved: nothing to attach to */
	assert_string_equal(filt("a\t" ACUTE), "a\t" DOTTED ACUTE);
	/* an SGR or a dropped sequence between keeps the base */
	assert_string_equal(filt("a\033[31m" ACUTE "\033[2J" ACUTE),
	    "a\033[31m" ACUTE ACUTE);
	/* zero-width space, joiner, variation selector at a line's start */
	assert_string_equal(filt("\r\xe2\x80\x8b\n\xe2\x80\x8d\n"
	    "\xef\xb8\x8f"), "\r\n" DOTTED "\xe2\x80\x8b\r\n" DOTTED
	    "\xe2\x80\x8d\r\n" DOTTED "\xef\xb8\x8f");
	/* a wide character and U+FFFD are bases; so is an emoji's joiner */
	assert_string_equal(filt("\xe4\xb8\x80" ACUTE "\xff" ACUTE),
	    "\xe4\xb8\x80" ACUTE FFFD ACUTE);
	/* a mark cut between two reads, at a line's start */
	{
		struct buf out = BUF_INIT;
		struct term_filter f;

		term_filter_init(&f);
		term_filter_run(&f, "ab\n\xcc", 4, &out);
		term_filter_run(&f, "\x81", 1, &out);
		assert_string_equal(buf_str(&out), "ab\r\n" DOTTED ACUTE);
		/* after assay's own text (term_filter_end) no base is
		 * assumed */
		term_filter_end(&f, &out);
		buf_reset(&out);
		term_filter_run(&f, ACUTE, 2, &out);
		assert_string_equal(buf_str(&out), DOTTED ACUTE);
		buf_release(&out);
	}
}

/*
 * The attack: 300,000 combining accents with no base, then a line end,
 * after a line of assay's own.  Through the terminal, that line keeps its
 * text and no cell of it gets a mark; the accents sit on their own row.
 */
static void
test_filter_combining_attack_on_screen(void **state)
{
	const size_t n = 300000;
	char *run = malloc(2 * n + 1);
	struct term *t = term_new(6, 40, NULL, NULL);
	struct term_filter f;
	struct buf out = BUF_INIT;
	struct term_cell c;
	char text[256];

	(void)state;
	assert_non_null(run);
	for (size_t i = 0; i < n; i++)
		memcpy(run + 2 * i, ACUTE, 2);
	run[2 * n] = '\n';
	term_feed(t, "left out\r\n", 10);
	term_filter_init(&f);
	for (size_t at = 0; at < 2 * n + 1; at += 4099) {
		/* pieces as a pty reads them, cut inside marks */
		size_t k = 2 * n + 1 - at < 4099 ? 2 * n + 1 - at : 4099;

		buf_reset(&out);
		term_filter_run(&f, run + at, k, &out);
		term_feed(t, out.p, out.len);
	}
	buf_reset(&out);
	term_filter_end(&f, &out);
	term_feed(t, out.p, out.len);
	term_row_text(t, 0, text, sizeof text);
	assert_string_equal(text, "left out");
	for (int col = 0; col < 40; col++) {
		term_cell(t, 0, col, &c);
		assert_true(c.chars[0] == 0 || c.chars[0] == ' ' ||
		    (col < 8 && c.chars[0] == (uint32_t)"left out"[col]));
		assert_int_equal(c.chars[1], 0);
	}
	term_cell(t, 1, 0, &c);
	assert_int_equal(c.chars[0], 0x25cc);
	assert_int_equal(c.chars[1], 0x301);
	assert_int_equal(c.width, 1);
	buf_release(&out);
	term_free(t);
	free(run);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_filter_line_ends),
		cmocka_unit_test(test_filter_sgr),
		cmocka_unit_test(test_filter_drops_moves_and_erases),
		cmocka_unit_test(test_filter_strings),
		cmocka_unit_test(test_filter_open_sequences_are_bounded),
		cmocka_unit_test(test_filter_utf8),
		cmocka_unit_test(test_filter_split_anywhere),
		cmocka_unit_test(test_filter_end),
		cmocka_unit_test(test_filter_attack_on_screen),
		cmocka_unit_test(test_filter_combining_needs_a_base),
		cmocka_unit_test(test_filter_combining_attack_on_screen),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
