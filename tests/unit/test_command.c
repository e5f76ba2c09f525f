/*
 * test_command.c - unit tests for the command table's parser, lookup and
 * help (app/command.c), cmocka: every option form the spec allows, the
 * usage errors every command shares (unknown option, prefix, missing
 * value, value on a flag, too few or too many arguments), --help, and
 * the help and usage written from the entries, the words of a `:` line
 * and free text (issue 9, item 1).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include "app/command.h"

static const struct cmd_opt opts[] = {
	{ "where", 0, CMD_VALUE, 'w' },
	{ "json", 0, CMD_FLAG, 'J' },
	{ "quiet", 'q', CMD_FLAG, 'q' },
	{ "jobs", 'j', CMD_VALUE, 'j' },
	{ "keep", 0, CMD_OPTIONAL, 'k' },
	{ NULL, 0, CMD_FLAG, 0 }
};

static int
nop(struct cmd_ctx *ctx, struct cmd_args *a, struct err *err)
{
	(void)ctx;
	(void)a;
	(void)err;
	return 0;
}

static const struct cmd_entry demo = {
	"demo", "dm", opts, 1, 2, "demo [--where F] [--json] [-q] ID [ID]",
	"A command for the tests.", CMD_CLI | CMD_WORKBENCH, nop
};
static const struct cmd_entry other = {
	"other", NULL, NULL, 0, 0, "other", "No arguments.", CMD_WORKBENCH, nop
};

/* Parse the words of line (blank-separated, no quoting) by demo. */
static int
parse(const char *line, struct cmd_args *a, struct err *err, char **buf,
    char **argv)
{
	int argc = 0;

	*buf = strdup(line);
	for (char *w = strtok(*buf, " "); w != NULL; w = strtok(NULL, " "))
		argv[argc++] = w;
	argv[argc] = NULL;
	return cmd_parse(&demo, argc, argv, a, err);
}

static void
test_forms(void **state)
{
	char *buf, *argv[16];
	struct cmd_args a;
	struct err err;
	const char *v;
	int ch;

	(void)state;
	assert_int_equal(parse("demo --where a=b c1 --json -qj4 --keep=all"
	    " -- -x", &a, &err, &buf, argv), 0);
	assert_int_equal(a.npos, 2);
	assert_string_equal(a.pos[0], "c1");
	assert_string_equal(a.pos[1], "-x");
	assert_int_equal(cmd_next(&a, &v), 'w');
	assert_string_equal(v, "a=b");
	assert_int_equal(cmd_next(&a, &v), 'J');
	assert_null(v);
	assert_int_equal(cmd_next(&a, &v), 'q');
	assert_int_equal(ch = cmd_next(&a, &v), 'j');
	assert_string_equal(v, "4");
	assert_int_equal(cmd_next(&a, &v), 'k');
	assert_string_equal(v, "all");
	assert_int_equal(cmd_next(&a, &v), -1);
	assert_true(cmd_has(&a, 'w', &v));
	assert_false(cmd_has(&a, 'x', NULL));
	cmd_args_release(&a);
	free(buf);

	/* --name=value, -j VALUE, a bare optional, "-" as an argument */
	assert_int_equal(parse("demo --where=x=1 -j 8 --keep -", &a, &err,
	    &buf, argv), 0);
	assert_int_equal(a.npos, 1);
	assert_string_equal(a.pos[0], "-");
	assert_int_equal(cmd_next(&a, &v), 'w');
	assert_string_equal(v, "x=1");
	assert_int_equal(cmd_next(&a, &v), 'j');
	assert_string_equal(v, "8");
	assert_int_equal(cmd_next(&a, &v), 'k');
	assert_null(v);
	cmd_args_release(&a);
	free(buf);
}

static void
test_errors(void **state)
{
	static const struct {
		const char	*line, *msg;
	} bad[] = {
		{ "demo c1 --dry-run", "unknown option '--dry-run'" },
		{ "demo c1 --jso", "unknown option '--jso'" },
		{ "demo c1 -z", "unknown option '-z'" },
		{ "demo c1 -qz", "unknown option '-z'" },
		{ "demo c1 --where", "--where wants a value" },
		{ "demo c1 -j", "-j wants a value" },
		{ "demo c1 --json=yes", "--json takes no value" },
		{ "demo", "missing argument" },
		{ "demo c1 c2 c3", "unexpected argument 'c3'" },
	};
	char *buf, *argv[16];
	struct cmd_args a;
	struct err err;

	(void)state;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		err.msg[0] = '\0';
		assert_int_equal(parse(bad[i].line, &a, &err, &buf, argv), -1);
		if (strstr(err.msg, bad[i].msg) == NULL)
			fail_msg("%s: '%s', want '%s'", bad[i].line, err.msg,
			    bad[i].msg);
		cmd_args_release(&a);
		free(buf);
	}
}

static void
test_help(void **state)
{
	char *buf, *argv[16];
	struct cmd_args a;
	struct err err;

	(void)state;
	/* --help wins over what else is wrong, but not after "--" */
	assert_int_equal(parse("demo --bogus --help", &a, &err, &buf, argv),
	    0);
	assert_true(a.help);
	cmd_args_release(&a);
	free(buf);
	assert_int_equal(parse("demo -- --help", &a, &err, &buf, argv), 0);
	assert_false(a.help);
	assert_string_equal(a.pos[0], "--help");
	cmd_args_release(&a);
	free(buf);
}

static void
test_table(void **state)
{
	const struct cmd_entry *v[] = { &demo, &other };
	struct cmd_table t = { v, 2 };
	struct buf b = BUF_INIT;

	(void)state;
	assert_ptr_equal(cmd_find(&t, "demo"), &demo);
	assert_ptr_equal(cmd_find(&t, "dm"), &demo);
	assert_ptr_equal(cmd_find(&t, "other"), &other);
	assert_null(cmd_find(&t, "dem"));
	cmd_help_text(&demo, CMD_CLI, "assay", &b);
	assert_string_equal(buf_str(&b), "usage: assay demo [--where F]"
	    " [--json] [-q] ID [ID]\nalias: dm\n\nA command for the tests.\n");
	buf_reset(&b);
	cmd_usage_all(&t, CMD_CLI, "  assay ", &b);
	assert_string_equal(buf_str(&b), "  assay demo [--where F] [--json]"
	    " [-q] ID [ID]\n");
	buf_reset(&b);
	cmd_usage_all(&t, CMD_WORKBENCH, ":", &b);
	assert_non_null(strstr(buf_str(&b), ":other\n"));
	buf_release(&b);
}

static void
test_text(void **state)
{
	static const struct cmd_entry note = { "note", NULL, NULL, 0,
	    CMD_MANY, "note TEXT", "Note.", CMD_WORKBENCH | CMD_TEXT, nop };
	struct cmd_args a;
	struct err err;
	char **v;
	int n;

	(void)state;
	v = cmd_words("  note -x  grep=\"a  b\" --help ", &n);
	assert_int_equal(n, 4);
	assert_string_equal(v[0], "note");
	assert_string_equal(v[1], "-x");
	assert_string_equal(v[2], "grep=\"a  b\"");
	assert_string_equal(v[3], "--help");
	assert_null(v[4]);
	/* free text: no options, --help included, every word an argument */
	assert_int_equal(cmd_parse(&note, n, v, &a, &err), 0);
	assert_false(a.help);
	assert_int_equal(a.npos, 3);
	assert_string_equal(a.pos[0], "-x");
	cmd_args_release(&a);
	cmd_words_free(v);
	v = cmd_words("", &n);
	assert_int_equal(n, 0);
	cmd_words_free(v);
}

/*
 * A command both front ends run (CMD_SHARED_TARGETS): on the command line
 * its first positional argument is the target ID unless --where is
 * given, and its usage shows ID after the name there only; min and max
 * count what follows the ID.
 */
static void
test_shared_targets(void **state)
{
	static const struct cmd_opt label_opts[] = {
		{ "sub", 0, CMD_VALUE, 's' },
		{ "where", 0, CMD_VALUE, CMD_KEY_WHERE },
		{ NULL, 0, CMD_FLAG, 0 }
	};
	static const struct cmd_entry label = { "label", NULL, label_opts, 1,
	    CMD_MANY, "label CATEGORY [SUB...] [--where FILTER]", "Label.",
	    CMD_CLI | CMD_WORKBENCH | CMD_TARGETS | CMD_STORE, nop };
	char *v1[] = { "label", "c1a2", "compile", "wide", "bus", NULL };
	char *v2[] = { "label", "--where", "task~mux", "compile", NULL };
	char *v3[] = { "label", "c1a2", NULL };
	char *v4[] = { "label", NULL };
	struct buf b = BUF_INIT;
	struct cmd_args a;
	struct err err;
	char *s;

	(void)state;
	assert_true(CMD_SHARED_TARGETS(&label));
	assert_false(CMD_SHARED_TARGETS(&demo));
	assert_int_equal(cmd_parse_front(&label, CMD_CLI, 5, v1, &a, &err), 0);
	assert_string_equal(a.target, "c1a2");
	assert_int_equal(a.npos, 3);
	assert_string_equal(a.pos[0], "compile");
	s = cmd_join(&a, 1);
	assert_string_equal(s, "wide bus");
	free(s);
	cmd_args_release(&a);		/* frees the vector it moved on */
	/* the workbench: no ID, every word an argument */
	assert_int_equal(cmd_parse_front(&label, CMD_WORKBENCH, 5, v1, &a,
	    &err), 0);
	assert_null(a.target);
	assert_int_equal(a.npos, 4);
	cmd_args_release(&a);
	/* --where in place of the ID */
	assert_int_equal(cmd_parse_front(&label, CMD_CLI, 4, v2, &a, &err), 0);
	assert_null(a.target);
	assert_int_equal(a.npos, 1);
	assert_string_equal(a.pos[0], "compile");
	cmd_args_release(&a);
	/* an ID alone is too few: the category counts after it */
	assert_int_equal(cmd_parse_front(&label, CMD_CLI, 2, v3, &a, &err), -1);
	assert_string_equal(err.msg, "missing argument");
	cmd_args_release(&a);
	assert_int_equal(cmd_parse_front(&label, CMD_CLI, 1, v4, &a, &err), -1);
	assert_non_null(strstr(err.msg, "an ID, or --where FILTER"));
	cmd_args_release(&a);

	cmd_help_text(&label, CMD_CLI, "assay", &b);
	assert_string_equal(buf_str(&b), "usage: assay label ID CATEGORY"
	    " [SUB...] [--where FILTER]\n\nLabel.\n");
	buf_reset(&b);
	cmd_usage_line(&label, CMD_WORKBENCH, &b);
	assert_string_equal(buf_str(&b), "label CATEGORY [SUB...] [--where"
	    " FILTER]");
	buf_release(&b);
}

/* Words of a `:` line lose the double quotes that wrap them (""
 * inside is one quote), option values too; the CLI's keep what the
 * shell gave, and free text (CMD_TEXT) keeps them. */
static void
test_join(void **state)
{
	static const struct cmd_opt o[] = {
		{ "where", 0, CMD_VALUE, CMD_KEY_WHERE },
		{ NULL, 0, CMD_FLAG, 0 }
	};
	static const struct cmd_entry note = { "note", NULL, o, 0,
	    CMD_MANY, "note TEXT", "Note.", CMD_WORKBENCH, nop };
	static const struct cmd_entry text = { "filter", NULL, NULL, 0,
	    CMD_MANY, "filter F", "Filter.", CMD_WORKBENCH | CMD_TEXT, nop };
	const char *where = NULL;
	struct cmd_args a;
	struct err err;
	char **v, *s;
	int n;

	(void)state;
	v = cmd_words("note \"a  b\" \"say \"\"hi\"\"\" --where"
	    " \"task~q2 verdict=fail\"", &n);
	assert_int_equal(cmd_parse_front(&note, CMD_WORKBENCH, n, v, &a, &err),
	    0);
	assert_true(cmd_has(&a, CMD_KEY_WHERE, &where));
	assert_string_equal(where, "task~q2 verdict=fail");
	s = cmd_join(&a, 0);
	assert_string_equal(s, "a  b say \"hi\"");
	free(s);
	s = cmd_join(&a, 2);
	assert_string_equal(s, "");
	free(s);
	cmd_args_release(&a);
	cmd_words_free(v);
	/* the CLI: as the shell gave them */
	v = cmd_words("note \"a\"", &n);
	assert_int_equal(cmd_parse_front(&note, CMD_CLI, n, v, &a, &err), 0);
	assert_string_equal(a.pos[0], "\"a\"");
	cmd_args_release(&a);
	cmd_words_free(v);
	/* free text keeps its quotes for the filter language */
	v = cmd_words("filter grep=\"a b\" \"x\"", &n);
	assert_int_equal(cmd_parse_front(&text, CMD_WORKBENCH, n, v, &a, &err),
	    0);
	assert_string_equal(a.pos[0], "grep=\"a b\"");
	assert_string_equal(a.pos[1], "\"x\"");
	cmd_args_release(&a);
	cmd_words_free(v);
}

/* An option a command reads once is refused the second time. */
static void
test_once(void **state)
{
	char *v1[] = { "demo", "--where", "a", "--where", "b", "x", NULL };
	char *v2[] = { "demo", "--where", "a", "-q", "x", NULL };
	struct cmd_args a;
	struct err err;

	(void)state;
	assert_int_equal(cmd_parse(&demo, 6, v1, &a, &err), 0);
	assert_int_equal(cmd_once(&a, &err), -1);
	assert_string_equal(err.msg, "--where given twice");
	cmd_args_release(&a);
	assert_int_equal(cmd_parse(&demo, 5, v2, &a, &err), 0);
	assert_int_equal(cmd_once(&a, &err), 0);
	cmd_args_release(&a);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_forms),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_help),
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_shared_targets),
		cmocka_unit_test(test_join),
		cmocka_unit_test(test_once),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
