/*
 * test_template.c - unit tests for generate/template.c (cmocka): the
 * directives, variables and blocks of a prompt template, the draw of a
 * perturbation from its seed, the compiled-in templates (the direct one
 * must give the export's prompt unchanged) and the errors of a malformed
 * template with its FILE:LINE.  Templates of the tests' own are written
 * under a temporary ASSAY_TEMPLATES.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include "base/buf.h"
#include "base/err.h"
#include "generate/template.h"
#include "testlib.h"

static char dir[64];

static int
setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof dir, "/tmp/assay-tmpl.XXXXXX");
	if (mkdtemp(dir) == NULL)
		return -1;
	setenv("ASSAY_TEMPLATES", dir, 1);
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	unsetenv("ASSAY_TEMPLATES");
	rm_rf(dir);
	return 0;
}

/* Write DIR/dom/name with text. */
static void
put(const char *dom, const char *name, const char *text)
{
	char *d = xasprintf("%s/%s", dir, dom), *p;
	FILE *f;

	mkdir(d, 0700);
	p = xasprintf("%s/%s", d, name);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	free(p);
	free(d);
}

static const struct tmpl_var vars[] = {
	{ "system", "SYS" }, { "requirement", "Spec.\n\nInterface:\nmodule m;\n" },
	{ "spec", "Spec." }, { "interface", "module m;" }, { "lang", "verilog" },
	{ "empty", NULL },
};
#define NV (sizeof vars / sizeof vars[0])

static void
test_template_direct_is_the_export_prompt(void **state)
{
	struct tmpl_out o;
	struct err e;

	(void)state;
	/* compiled in: templates/common/direct; the requirement's own
	 * trailing newline is kept, as the export writes it */
	assert_int_equal(tmpl_render("chip", "direct", vars, NV, 0, 0, "",
	    &o, &e), 0);
	assert_string_equal(o.system, "SYS");
	assert_string_equal(o.user, "Spec.\n\nInterface:\nmodule m;\n");
	assert_string_equal(o.name, "common/direct");
	assert_string_equal(o.where, "templates/common/direct");
	assert_int_equal(strlen(o.sha), 12);
	tmpl_out_release(&o);
	/* the chip domain has a perturb of its own */
	assert_int_equal(tmpl_render("chip", "perturb", vars, NV, 1, 7, "t#0",
	    &o, &e), 0);
	assert_string_equal(o.name, "chip/perturb");
	assert_int_equal(json_object_size(o.choices), 3);
	tmpl_out_release(&o);
	assert_int_equal(tmpl_render("3d", "perturb", vars, NV, 1, 7, "t#0",
	    &o, &e), 0);
	assert_string_equal(o.name, "common/perturb");
	tmpl_out_release(&o);
}

static void
test_template_blocks(void **state)
{
	struct tmpl_out o;
	struct err e;

	(void)state;
	put("chip", "t1", "@# a comment\n@system\nbe {{lang}}\n@user\n\n"
	    "@if interface\nI: {{interface}}\n@end\n@if empty\nnever\n@end\n"
	    "@choose c\nfirst {{spec}}\n@or\nsecond\n@end\n\n");
	assert_int_equal(tmpl_render("chip", "t1", vars, NV, 0, 0, "", &o,
	    &e), 0);
	assert_string_equal(o.system, "be verilog");
	/* leading blank lines go, inner ones stay, the unperturbed
	 * @choose is its first alternative */
	assert_string_equal(o.user, "I: module m;\nfirst Spec.");
	assert_int_equal(json_integer_value(json_object_get(o.choices, "c")),
	    0);
	assert_string_equal(o.where + strlen(dir), "/chip/t1");
	tmpl_out_release(&o);
}

static void
test_template_perturb_draws_from_the_seed(void **state)
{
	struct tmpl_out o;
	struct err e;
	int seen[4] = { 0 }, first = -1, again;

	(void)state;
	put("common", "p", "@user\n@choose x\na\n@or\nb\n@or\nc\n@or\nd\n"
	    "@end\n");
	/* salts (task and sample) draw different alternatives ... */
	for (int k = 0; k < 40; k++) {
		char salt[16];

		snprintf(salt, sizeof salt, "t#%d", k);
		assert_int_equal(tmpl_render("gpu", "p", vars, NV, 1, 3, salt,
		    &o, &e), 0);
		seen[o.user[0] - 'a']++;
		if (k == 0)
			first = o.user[0];
		tmpl_out_release(&o);
	}
	for (int i = 0; i < 4; i++)
		assert_true(seen[i] > 0);
	/* ... and the same seed and salt the same one again */
	assert_int_equal(tmpl_render("gpu", "p", vars, NV, 1, 3, "t#0", &o,
	    &e), 0);
	again = o.user[0];
	tmpl_out_release(&o);
	assert_int_equal(again, first);
}

static void
test_template_errors(void **state)
{
	static const struct {
		const char *text, *msg;
	} bad[] = {
		{ "@user\n{{nope}}\n", "/chip/bad:2: unknown variable {{nope}}" },
		{ "@user\nx {{lang\n", "/chip/bad:2: '{{' without '}}'" },
		{ "@user\n@or\n", "/chip/bad:2: @or outside @choose" },
		{ "@user\n@end\n", "/chip/bad:2: @end without a block" },
		{ "@user\n@choose a\nx\n", "/chip/bad:2: block not closed by @end" },
		{ "@user\n@choose\nx\n@end\n", "/chip/bad:2: @choose without a name" },
		{ "@user\n@if a\n@system\n@end\n", "/chip/bad:3: @system inside a block" },
		{ "@user\n@frob\n", "/chip/bad:2: unknown directive @frob" },
		{ "@user\n@if nope\nx\n@end\n", "/chip/bad:2: unknown variable nope" },
		{ "@system\nonly\n", "/chip/bad: renders no user turn" },
	};
	struct tmpl_out o;
	struct err e;

	(void)state;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		put("chip", "bad", bad[i].text);
		assert_int_equal(tmpl_render("chip", "bad", vars, NV, 0, 0, "",
		    &o, &e), -1);
		assert_string_equal(e.msg + strlen(dir), bad[i].msg);
	}
	assert_int_equal(tmpl_render("chip", "../x", vars, NV, 0, 0, "", &o,
	    &e), -1);
	assert_int_equal(tmpl_render("chip", "none-here", vars, NV, 0, 0, "",
	    &o, &e), -1);
	assert_non_null(strstr(e.msg, "no template chip/none-here nor"
	    " common/none-here"));
	assert_int_equal(tmpl_name_ok("perturb"), 1);
	assert_int_equal(tmpl_name_ok("a/b"), 0);
	assert_int_equal(tmpl_name_ok(""), 0);
	assert_int_equal(tmpl_name_ok("Direct"), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_template_direct_is_the_export_prompt),
		cmocka_unit_test(test_template_blocks),
		cmocka_unit_test(test_template_perturb_draws_from_the_seed),
		cmocka_unit_test(test_template_errors),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
