/*
 * test_config.c - unit tests for the config file (config.c) and the
 * command-line history (history.c), cmocka: settings and their errors,
 * bindings, conflicts reported with their line, XDG paths, and a history
 * that dedups, trims and survives being read back (issue 5, item 3).
 */
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include "app/config.h"
#include "app/history.h"
#include "app/keymap.h"
#include "testlib.h"

static char tmpdir[64];

static int
dir_setup(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof tmpdir, "/tmp/assay-test-config-XXXXXX");
	return mkdtemp(tmpdir) == NULL ? -1 : 0;
}

static int
dir_teardown(void **state)
{
	(void)state;
	rm_rf(tmpdir);
	return 0;
}

static char *
write_file(const char *name, const char *text)
{
	char *path = xasprintf("%s/%s", tmpdir, name);
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	return path;
}

static void
test_config_settings(void **state)
{
	struct config c;
	struct keymap km;
	struct err err;
	char buf[32];

	(void)state;
	config_init(&c);
	keymap_init(&km);
	assert_null(c.theme);
	assert_int_equal(c.mouse, 1);
	assert_int_equal(c.advance, 1);
	assert_int_equal(config_parse_line(&c, &km, "theme light\n", &err), 0);
	assert_string_equal(c.theme, "light");
	assert_int_equal(config_parse_line(&c, &km, "  mouse off", &err), 0);
	assert_int_equal(c.mouse, 0);
	assert_int_equal(config_parse_line(&c, &km, "set mouse yes", &err), 0);
	assert_int_equal(c.mouse, 1);
	assert_int_equal(config_parse_line(&c, &km, "advance false", &err), 0);
	assert_int_equal(c.advance, 0);
	assert_int_equal(config_parse_line(&c, &km, "# theme mono", &err), 0);
	assert_int_equal(config_parse_line(&c, &km, "", &err), 0);
	assert_string_equal(c.theme, "light");
	config_get(&c, "mouse", buf, sizeof buf);
	assert_string_equal(buf, "on");
	config_get(&c, "advance", buf, sizeof buf);
	assert_string_equal(buf, "off");
	config_get(&c, "theme", buf, sizeof buf);
	assert_string_equal(buf, "light");

	/* errors leave the settings alone */
	assert_int_equal(config_parse_line(&c, &km, "mouse maybe", &err), -1);
	assert_non_null(strstr(err.msg, "on or off"));
	assert_int_equal(c.mouse, 1);
	assert_int_equal(config_parse_line(&c, &km, "colour red", &err), -1);
	assert_non_null(strstr(err.msg, "unknown setting 'colour'"));
	assert_int_equal(config_parse_line(&c, &km, "theme", &err), -1);
	assert_non_null(strstr(err.msg, "usage: theme"));
	assert_int_equal(config_parse_line(&c, &km, "set mouse", &err), -1);
	assert_int_equal(config_parse_line(&c, &km, "set nothing 1", &err),
	    -1);
	/* every line is a command of the config file's table: its usage
	 * for a wrong number of words, the table's names for an unknown one */
	assert_int_equal(config_parse_line(&c, &km, "theme light extra",
	    &err), -1);
	assert_non_null(strstr(err.msg, "usage: theme"));
	assert_int_equal(config_parse_line(&c, &km, "set mouse on off", &err),
	    -1);
	assert_non_null(strstr(err.msg, "usage: set"));
	assert_int_equal(config_parse_line(&c, &km, "colour red", &err), -1);
	assert_non_null(strstr(err.msg, "advance, bind, unbind, generator"));
	assert_int_equal(config_parse_line(&c, &km,
	    "generator endpoint http://127.0.0.1:8080/v1\r\n", &err), 0);
	assert_int_equal(config_parse_line(&c, &km, "generator temperature 3",
	    &err), -1);
	assert_string_equal(c.theme, "light");

	/* bindings go to the keymap */
	assert_int_equal(config_parse_line(&c, &km, "bind K label-api", &err),
	    0);
	assert_int_equal(keymap_lookup(&km, KEYMAP_GLOBAL, 'K'),
	    ACTION_LABEL_API);
	assert_int_equal(config_parse_line(&c, &km, "bind K nothing", &err),
	    -1);
	config_release(&c);
	assert_null(c.theme);
	keymap_release(&km);
}

static void
test_config_names_values(void **state)
{
	const char *const *v;
	size_t n;

	(void)state;
	v = config_names(&n);
	assert_int_equal(n, 3);
	assert_string_equal(v[0], "theme");
	v = config_values("theme");
	assert_string_equal(v[0], "dark");
	assert_string_equal(v[1], "light");
	assert_string_equal(v[2], "mono");
	assert_null(v[3]);
	v = config_values("mouse");
	assert_string_equal(v[0], "on");
	assert_null(config_values("bind"));
}

/*
 * A file: line 2 binds K, line 4 is bad, line 5 binds K to another
 * action (a conflict, reported with both lines; the later wins), line 6
 * binds K again to the same action (no conflict), line 7 is good.
 */
static void
test_config_load_conflicts(void **state)
{
	char *path = write_file("config", "# assay\n"
	    "bind K label-api\n"
	    "theme mono\n"
	    "mouse sometimes\n"
	    "bind K label-format\n"
	    "bind K label-format\n"
	    "advance off\n");
	struct config c;
	struct keymap km;
	struct err err;
	char *want;

	(void)state;
	config_init(&c);
	keymap_init(&km);
	keymap_defaults(&km);
	assert_int_equal(config_load(&c, &km, path, &err), -1);
	want = xasprintf("%s:4: mouse wants on or off, not 'sometimes' "
	    "(and 1 more)", path);
	assert_string_equal(err.msg, want);
	free(want);
	/* every good line is applied */
	assert_string_equal(c.theme, "mono");
	assert_int_equal(c.advance, 0);
	assert_int_equal(c.mouse, 1);
	assert_int_equal(keymap_lookup(&km, KEYMAP_GLOBAL, 'K'),
	    ACTION_LABEL_FORMAT);
	config_release(&c);
	keymap_release(&km);
	free(path);

	/* the conflict alone: its line and the earlier one */
	path = write_file("config2", "bind C-r undo\nbind term C-r redo\n"
	    "\nbind C-r redo\n");
	config_init(&c);
	keymap_init(&km);
	assert_int_equal(config_load(&c, &km, path, &err), -1);
	want = xasprintf("%s:4: C-r is bound to redo and at line 1 to undo; "
	    "line 4 wins", path);
	assert_string_equal(err.msg, want);
	free(want);
	assert_int_equal(keymap_lookup(&km, KEYMAP_GLOBAL, KEYMAP_CTRL('r')),
	    ACTION_REDO);
	assert_int_equal(keymap_lookup(&km, KEYMAP_TERM, KEYMAP_CTRL('r')),
	    ACTION_REDO);
	config_release(&c);
	keymap_release(&km);
	free(path);

	/* a clean file, and none at all */
	path = write_file("config3", "theme dark\nbind J page-down\n");
	config_init(&c);
	keymap_init(&km);
	assert_int_equal(config_load(&c, &km, path, &err), 0);
	free(path);
	path = xasprintf("%s/none", tmpdir);
	assert_int_equal(config_load(&c, &km, path, &err), 1);
	free(path);
	config_release(&c);
	keymap_release(&km);
}

static void
test_config_paths(void **state)
{
	char *p;

	(void)state;
	setenv("HOME", "/home/r", 1);
	setenv("XDG_CONFIG_HOME", "/x/cfg", 1);
	setenv("XDG_STATE_HOME", "/x/state", 1);
	p = config_path("config");
	assert_string_equal(p, "/x/cfg/assay/config");
	free(p);
	p = config_state_path("history");
	assert_string_equal(p, "/x/state/assay/history");
	free(p);
	/* unset or relative: ignored, as the XDG spec says */
	unsetenv("XDG_CONFIG_HOME");
	setenv("XDG_STATE_HOME", "rel", 1);
	p = config_path("config");
	assert_string_equal(p, "/home/r/.config/assay/config");
	free(p);
	p = config_state_path("history");
	assert_string_equal(p, "/home/r/.local/state/assay/history");
	free(p);
	unsetenv("XDG_STATE_HOME");
	unsetenv("HOME");
	assert_null(config_path("config"));
}

static void
test_history_add_find_load(void **state)
{
	char *path = xasprintf("%s/state/assay/history", tmpdir);
	struct history h, h2;
	struct err err;
	char *text;

	(void)state;
	history_init(&h, path, 3);
	assert_int_equal(history_load(&h, &err), 1);
	assert_int_equal(history_add(&h, ":filter verdict=fail", &err), 0);
	assert_int_equal(history_add(&h, "/c0ce", &err), 0);
	assert_int_equal(history_add(&h, ":view mine\n", &err), 0);
	assert_int_equal(history_add(&h, "", &err), 0);
	assert_int_equal(h.n, 3);
	/* a line run again moves to the end */
	assert_int_equal(history_add(&h, ":filter verdict=fail", &err), 0);
	assert_int_equal(h.n, 3);
	assert_string_equal(h.lines[2], ":filter verdict=fail");
	assert_string_equal(h.lines[0], "/c0ce");

	/* prefix search, newest first, then back */
	assert_int_equal(history_find(&h, (long)h.n, -1, ":"), 2);
	assert_int_equal(history_find(&h, 2, -1, ":"), 1);
	assert_int_equal(history_find(&h, 1, -1, ":"), -1);
	assert_int_equal(history_find(&h, 1, 1, ":"), 2);
	assert_int_equal(history_find(&h, (long)h.n, -1, ":v"), 1);
	assert_int_equal(history_find(&h, (long)h.n, -1, "/"), 0);

	/* max 3: the oldest goes */
	assert_int_equal(history_add(&h, ":grep x", &err), 0);
	assert_int_equal(h.n, 3);
	assert_string_equal(h.lines[0], ":view mine");

	/* read back: the same entries, in order, from the appended file */
	history_init(&h2, path, 3);
	assert_int_equal(history_load(&h2, &err), 0);
	assert_int_equal(h2.n, 3);
	for (size_t i = 0; i < 3; i++)
		assert_string_equal(h2.lines[i], h.lines[i]);
	history_release(&h2);

	/* the file grows past twice max: loading trims it */
	for (int i = 0; i < 10; i++) {
		char line[32];

		snprintf(line, sizeof line, ":goto c%d", i);
		assert_int_equal(history_add(&h, line, &err), 0);
	}
	history_init(&h2, path, 3);
	assert_int_equal(history_load(&h2, &err), 0);
	assert_int_equal(h2.n, 3);
	assert_string_equal(h2.lines[2], ":goto c9");
	history_release(&h2);
	text = read_text(path);
	assert_string_equal(text, ":goto c7\n:goto c8\n:goto c9\n");
	free(text);
	history_release(&h);
	free(path);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_config_settings),
		cmocka_unit_test(test_config_names_values),
		cmocka_unit_test(test_config_load_conflicts),
		cmocka_unit_test(test_config_paths),
		cmocka_unit_test(test_history_add_find_load),
	};

	return cmocka_run_group_tests(tests, dir_setup, dir_teardown);
}
