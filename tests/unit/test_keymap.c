/* test_keymap.c - unit tests for keymap.c (cmocka): key names, tables,
 * defaults, key files. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "app/keymap.h"

static int
parse(const char *name)
{
	struct err err;
	int key = -1;

	assert_int_equal(keymap_key_parse(name, &key, &err), 0);
	return key;
}

static void
assert_name(int key, const char *want)
{
	char buf[32];

	keymap_key_name(key, buf, sizeof buf);
	assert_string_equal(buf, want);
}

static void
test_keymap_key_names_round_trip(void **state)
{
	static const char *const names[] = { "j", "?", "G", "1", ":", "Enter",
		"Tab", "BTab", "Esc", "Backspace", "Space", "Up", "Down",
		"Left", "Right", "Home", "End", "PgUp", "PgDn", "Ins", "Del",
		"F1", "F12", "C-a", "C-r", "C-l", "C-]", "C-\\", "C-_",
		"\xc3\xa9" };
	char buf[32];

	(void)state;
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		keymap_key_name(parse(names[i]), buf, sizeof buf);
		assert_string_equal(buf, names[i]);
	}
}

static void
test_keymap_key_codes(void **state)
{
	(void)state;
	assert_int_equal(parse("j"), 'j');
	assert_int_equal(parse("C-r"), 18);
	assert_int_equal(parse("C-R"), 18);
	assert_int_equal(parse("^R"), 18);
	assert_int_equal(parse("C-]"), 29);
	assert_int_equal(parse("Enter"), 13);
	assert_int_equal(parse("C-m"), 13);
	assert_int_equal(parse("Return"), 13);
	assert_int_equal(parse("Tab"), 9);
	assert_int_equal(parse("C-i"), 9);
	assert_int_equal(parse("Space"), ' ');
	assert_int_equal(parse("PageDown"), KEYMAP_KEY_PGDN);
	assert_int_equal(parse("F5"), KEYMAP_KEY_F(5));
	assert_int_equal(parse("\xc3\xa9"), 0xe9);
	assert_name(13, "Enter");
	assert_name(29, "C-]");
	assert_name(0, "C-Space");
}

static void
test_keymap_key_parse_errors(void **state)
{
	struct err err;
	int key;

	(void)state;
	assert_int_equal(keymap_key_parse("", &key, &err), -1);
	assert_int_equal(keymap_key_parse("jk", &key, &err), -1);
	assert_non_null(strstr(err.msg, "jk"));
	assert_int_equal(keymap_key_parse("C-1", &key, &err), -1);
	assert_int_equal(keymap_key_parse("F99", &key, &err), -1);
	assert_int_equal(keymap_key_parse("Nope", &key, &err), -1);
	assert_int_equal(keymap_key_parse("\xff", &key, NULL), -1);
}

static void
test_keymap_defaults(void **state)
{
	struct keymap km;
	int keys[8];

	(void)state;
	keymap_init(&km);
	keymap_defaults(&km);
	assert_int_equal(keymap_lookup(&km, KEYMAP_GLOBAL, 'j'),
	    ACTION_MOVE_DOWN);
	assert_int_equal(keymap_lookup(&km, KEYMAP_GLOBAL, KEYMAP_KEY_DOWN),
	    ACTION_MOVE_DOWN);
	assert_int_equal(keymap_lookup(&km, KEYMAP_GLOBAL, 'v'), ACTION_VERIFY);
	assert_int_equal(keymap_lookup(&km, KEYMAP_GLOBAL, '1'),
	    ACTION_LABEL_COMPILE);
	assert_int_equal(keymap_lookup(&km, KEYMAP_GLOBAL, '5'),
	    ACTION_LABEL_PERFORMANCE);
	assert_int_equal(keymap_lookup(&km, KEYMAP_GLOBAL, KEYMAP_CTRL('r')),
	    ACTION_REDO);
	assert_int_equal(keymap_lookup(&km, KEYMAP_GLOBAL, '?'), ACTION_HELP);
	assert_int_equal(keymap_lookup(&km, KEYMAP_GLOBAL, 'Z'), ACTION_NONE);
	assert_int_equal(keymap_lookup(&km, KEYMAP_TERM, KEYMAP_CTRL(']')),
	    ACTION_KEYBOARD);
	assert_int_equal(keymap_lookup(&km, KEYMAP_TERM, 'q'), ACTION_NONE);
	assert_int_equal(keymap_keys(&km, KEYMAP_GLOBAL, ACTION_MOVE_DOWN,
	    keys, 8), 2);
	assert_int_equal(keys[0], 'j');
	assert_int_equal(keys[1], KEYMAP_KEY_DOWN);
	/* every action has a key in some table and a help text */
	for (int a = 1; a < ACTION_COUNT; a++) {
		size_t n = 0;

		for (int t = 0; t < KEYMAP_NTABLES; t++)
			n += keymap_keys(&km, (enum keymap_table)t,
			    (enum action)a, keys, 8);
		assert_true(n > 0);
		assert_true(strlen(keymap_action_help((enum action)a)) > 0);
	}
	/* the sheets and the prompt have their own tables */
	assert_int_equal(keymap_lookup(&km, KEYMAP_STATS, 'h'),
	    ACTION_CELL_LEFT);
	assert_int_equal(keymap_lookup(&km, KEYMAP_STATS, KEYMAP_KEY_ESC),
	    ACTION_CLOSE);
	assert_int_equal(keymap_lookup(&km, KEYMAP_DIFF, 's'),
	    ACTION_DIFF_LAYOUT);
	assert_int_equal(keymap_lookup(&km, KEYMAP_PROMPT, KEYMAP_CTRL('w')),
	    ACTION_PROMPT_DELETE_WORD);
	assert_int_equal(keymap_lookup(&km, KEYMAP_PROMPT, 'q'), ACTION_NONE);
	assert_int_equal(keymap_lookup(&km, KEYMAP_GLOBAL, KEYMAP_KEY_ESC),
	    ACTION_BACK);
	keymap_release(&km);
}

static void
test_keymap_bind_replace_unbind(void **state)
{
	struct keymap km;
	int keys[4];

	(void)state;
	keymap_init(&km);
	keymap_bind(&km, KEYMAP_GLOBAL, 'j', ACTION_MOVE_DOWN);
	keymap_bind(&km, KEYMAP_GLOBAL, 'n', ACTION_MOVE_DOWN);
	keymap_bind(&km, KEYMAP_GLOBAL, 'j', ACTION_MOVE_UP);
	assert_int_equal(keymap_lookup(&km, KEYMAP_GLOBAL, 'j'),
	    ACTION_MOVE_UP);
	assert_int_equal(keymap_keys(&km, KEYMAP_GLOBAL, ACTION_MOVE_DOWN,
	    keys, 4), 1);
	assert_int_equal(keys[0], 'n');
	keymap_bind(&km, KEYMAP_GLOBAL, 'n', ACTION_NONE);
	assert_int_equal(keymap_lookup(&km, KEYMAP_GLOBAL, 'n'), ACTION_NONE);
	assert_int_equal(km.n[KEYMAP_GLOBAL], 1);
	/* many bindings grow the table */
	for (int c = 0x100; c < 0x200; c++)
		keymap_bind(&km, KEYMAP_TERM, c, ACTION_REDRAW);
	assert_int_equal(keymap_keys(&km, KEYMAP_TERM, ACTION_REDRAW, keys,
	    4), 0x100);
	keymap_release(&km);
	keymap_release(NULL);
}

static void
test_keymap_actions(void **state)
{
	struct err err;
	enum action a;

	(void)state;
	assert_string_equal(keymap_action_name(ACTION_VERIFY), "verify");
	assert_string_equal(keymap_action_name(ACTION_NONE), "none");
	assert_string_equal(keymap_action_name((enum action)9999), "");
	assert_int_equal(keymap_action_parse("label-functional", &a, &err), 0);
	assert_int_equal(a, ACTION_LABEL_FUNCTIONAL);
	assert_int_equal(keymap_action_parse("frobnicate", &a, &err), -1);
	assert_non_null(strstr(err.msg, "frobnicate"));
}

static void
test_keymap_parse_line(void **state)
{
	struct keymap km;
	struct err err;

	(void)state;
	keymap_init(&km);
	keymap_defaults(&km);
	assert_int_equal(keymap_parse_line(&km, "bind J move-down", &err), 0);
	assert_int_equal(keymap_lookup(&km, KEYMAP_GLOBAL, 'J'),
	    ACTION_MOVE_DOWN);
	assert_int_equal(keymap_parse_line(&km, "bind term C-t keyboard\n",
	    &err), 0);
	assert_int_equal(keymap_lookup(&km, KEYMAP_TERM, KEYMAP_CTRL('t')),
	    ACTION_KEYBOARD);
	assert_int_equal(keymap_parse_line(&km, "unbind q", &err), 0);
	assert_int_equal(keymap_lookup(&km, KEYMAP_GLOBAL, 'q'), ACTION_NONE);
	assert_int_equal(keymap_parse_line(&km, "  # comment", &err), 0);
	assert_int_equal(keymap_parse_line(&km, "", &err), 0);
	assert_int_equal(keymap_parse_line(&km, "bind x", &err), -1);
	assert_int_equal(keymap_parse_line(&km, "bind x nothing", &err), -1);
	assert_int_equal(keymap_parse_line(&km, "bind nope x quit", &err), -1);
	assert_non_null(strstr(err.msg, "nope"));
	assert_int_equal(keymap_parse_line(&km, "frob x quit", &err), -1);
	assert_int_equal(keymap_lookup(&km, KEYMAP_GLOBAL, 'x'), ACTION_CANCEL);
	keymap_release(&km);
}

/* bind KEY COMMAND LINE: a key of the global table runs a `:` line. */
static void
test_keymap_bind_command(void **state)
{
	struct keymap km;
	struct err err;

	(void)state;
	keymap_init(&km);
	keymap_defaults(&km);
	assert_int_equal(keymap_parse_line(&km, "bind 1 label compile\n",
	    &err), 0);
	assert_string_equal(keymap_command(&km, '1'), "label compile");
	/* a key that had an action loses it, and the other way round */
	assert_int_equal(keymap_parse_line(&km, "bind a review  accept",
	    &err), 0);
	assert_string_equal(keymap_command(&km, 'a'), "review accept");
	assert_int_equal(keymap_lookup(&km, KEYMAP_GLOBAL, 'a'), ACTION_NONE);
	assert_int_equal(keymap_parse_line(&km, "bind a move-down", &err), 0);
	assert_null(keymap_command(&km, 'a'));
	assert_int_equal(keymap_lookup(&km, KEYMAP_GLOBAL, 'a'),
	    ACTION_MOVE_DOWN);
	/* one word after ':'; filters keep their quotes */
	assert_int_equal(keymap_parse_line(&km, "bind 9 :views", &err), 0);
	assert_string_equal(keymap_command(&km, '9'), "views");
	assert_int_equal(keymap_parse_line(&km,
	    "bind 8 filter grep=\"a  b\"", &err), 0);
	assert_string_equal(keymap_command(&km, '8'), "filter grep=\"a  b\"");
	assert_int_equal(keymap_parse_line(&km, "unbind 1", &err), 0);
	assert_null(keymap_command(&km, '1'));
	/* only in the global table; a bad key is still an error */
	assert_int_equal(keymap_parse_line(&km, "bind stats x label compile",
	    &err), -1);
	assert_non_null(strstr(err.msg, "global table"));
	assert_int_equal(keymap_parse_line(&km, "bind nope label compile",
	    &err), -1);
	assert_int_equal(keymap_parse_line(&km, "bind 7 :", &err), -1);
	keymap_release(&km);
}

static void
test_keymap_load_file(void **state)
{
	char path[] = "/tmp/assay-keymap-XXXXXX";
	struct keymap km;
	struct err err;
	FILE *f;
	int fd;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	fputs("# my keys\nbind C-n move-down\n\nbind Q nosuch\n", f);
	fclose(f);
	keymap_init(&km);
	assert_int_equal(keymap_load(&km, path, &err), -1);
	assert_non_null(strstr(err.msg, ":4: unknown action 'nosuch'"));
	assert_int_equal(keymap_lookup(&km, KEYMAP_GLOBAL, KEYMAP_CTRL('n')),
	    ACTION_MOVE_DOWN);
	unlink(path);
	assert_int_equal(keymap_load(&km, path, &err), 1);
	keymap_release(&km);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_keymap_key_names_round_trip),
		cmocka_unit_test(test_keymap_key_codes),
		cmocka_unit_test(test_keymap_key_parse_errors),
		cmocka_unit_test(test_keymap_defaults),
		cmocka_unit_test(test_keymap_bind_replace_unbind),
		cmocka_unit_test(test_keymap_actions),
		cmocka_unit_test(test_keymap_parse_line),
		cmocka_unit_test(test_keymap_bind_command),
		cmocka_unit_test(test_keymap_load_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
