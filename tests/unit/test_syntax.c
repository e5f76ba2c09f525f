/*
 * test_syntax.c - unit tests for src/lang/syntax.c: grammar ABIs, our
 * highlight queries on real Verilog, C and CUDA, predicate evaluation,
 * error recovery and query error reporting.  Run from the repository
 * root (queries are read from ./grammars); shared data comes from
 * $ASSAY_SHARED or ../shared.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/buf.h"
#include "base/err.h"
#include "lang/syntax.h"

#define QUERY_DIR "grammars"

/* The text a test parsed, kept to find columns by substring. */
struct doc {
	struct syntax	*s;
	const char	*text;
	size_t		 len;
};

static void
doc_parse(struct doc *d, const char *lang, const char *text, size_t len)
{
	struct err err;
	int rc;

	err_clear(&err);
	d->text = text;
	d->len = len;
	d->s = NULL;
	rc = syntax_parse(&d->s, lang, text, len, &err);
	if (rc != 0)
		fail_msg("syntax_parse(%s): %s", lang, err.msg);
	assert_non_null(d->s);
}

static void
doc_release(struct doc *d)
{
	syntax_free(d->s);
	d->s = NULL;
}

/* The text of line (0-based) and its length, without the newline. */
static const char *
doc_line(const struct doc *d, size_t line, size_t *len)
{
	const char *p = d->text, *end = d->text + d->len, *nl;
	size_t i;

	for (i = 0; i < line; i++) {
		nl = memchr(p, '\n', (size_t)(end - p));
		assert_non_null(nl);
		p = nl + 1;
	}
	nl = memchr(p, '\n', (size_t)(end - p));
	*len = nl != NULL ? (size_t)(nl - p) : (size_t)(end - p);
	return p;
}

/* The group painted at byte col of line. */
static enum syn_group
group_at(const struct doc *d, size_t line, size_t col)
{
	const struct syn_span *sp;
	size_t n, i;

	sp = syntax_line_spans(d->s, line, &n);
	for (i = 0; i < n; i++)
		if (sp[i].start <= col && col < sp[i].end)
			return sp[i].group;
	return SYN_NONE;
}

static int
is_ident(char c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9');
}

/*
 * Column of the first occurrence of word in line, as a whole word when it
 * starts or ends with an identifier character; fails when absent.
 */
static size_t
col_of(const struct doc *d, size_t line, const char *word)
{
	size_t len, wl = strlen(word), c;
	const char *p = doc_line(d, line, &len);

	for (c = 0; c + wl <= len; c++) {
		if (memcmp(p + c, word, wl) != 0)
			continue;
		if (c > 0 && is_ident(word[0]) && is_ident(p[c - 1]))
			continue;
		if (c + wl < len && is_ident(word[wl - 1]) &&
		    is_ident(p[c + wl]))
			continue;
		return c;
	}
	fail_msg("line %zu has no \"%s\"", line, word);
	return 0;
}

/*
 * Assert that word (first occurrence on line) is exactly one span of
 * group g: the spans end at its edges, not just overlap it.
 */
static void
assert_word(const struct doc *d, size_t line, const char *word,
    enum syn_group g)
{
	const struct syn_span *sp;
	size_t c = col_of(d, line, word), n, i;

	sp = syntax_line_spans(d->s, line, &n);
	for (i = 0; i < n; i++) {
		if (sp[i].start == c && sp[i].end == c + strlen(word)) {
			if (sp[i].group != g)
				fail_msg("line %zu \"%s\": %s, want %s", line,
				    word, syntax_group_name(sp[i].group),
				    syntax_group_name(g));
			return;
		}
	}
	fail_msg("line %zu \"%s\" (col %zu) is not one span; want %s "
	    "(group at col: %s)", line, word, c, syntax_group_name(g),
	    syntax_group_name(group_at(d, line, c)));
}

static char *
read_shared(const char *rel, size_t *len)
{
	const char *root = getenv("ASSAY_SHARED");
	char *path, *p;
	FILE *f;
	long n;

	if (root == NULL || *root == '\0')
		root = "../shared";
	path = xasprintf("%s/%s", root, rel);
	f = fopen(path, "rb");
	if (f == NULL)
		fail_msg("cannot open %s", path);
	free(path);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n > 0);
	rewind(f);
	p = xmalloc((size_t)n + 1);
	assert_int_equal(fread(p, 1, (size_t)n, f), (size_t)n);
	p[n] = '\0';
	fclose(f);
	*len = (size_t)n;
	return p;
}

static int
setup(void **state)
{
	struct err err;

	(void)state;
	err_clear(&err);
	if (syntax_init(QUERY_DIR, &err) != 0) {
		fprintf(stderr, "syntax_init: %s\n", err.msg);
		return -1;
	}
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	syntax_shutdown();
	return 0;
}

static void
test_syntax_grammars_are_abi_14(void **state)
{
	(void)state;
	assert_int_equal(syntax_lang_abi("c"), 14);
	assert_int_equal(syntax_lang_abi("cuda"), 14);
	assert_int_equal(syntax_lang_abi("verilog"), 14);
	assert_int_equal(syntax_lang_abi("python"), -1);
	assert_int_equal(syntax_has_lang("verilog"), 1);
	assert_int_equal(syntax_has_lang("cuda"), 1);
	assert_int_equal(syntax_has_lang("python"), 0);
	assert_int_equal(syntax_has_lang(NULL), 0);
}

/* Prob041_dff8r_ref.sv starts with an empty line, then the module. */
static void
test_syntax_verilog_module_keywords(void **state)
{
	struct doc d;
	size_t len;
	char *text = read_shared("data/verilog-eval-v2/Prob041_dff8r_ref.sv",
	    &len);

	(void)state;
	doc_parse(&d, "verilog", text, len);
	assert_int_equal(syntax_has_error(d.s), 0);
	assert_int_equal(syntax_nlines(d.s), 16);

	assert_word(&d, 1, "module", SYN_KEYWORD);
	assert_int_equal(col_of(&d, 1, "module"), 0);
	assert_word(&d, 1, "RefModule", SYN_TYPE);
	assert_int_equal(group_at(&d, 1, 6), SYN_NONE);	/* the blank */
	assert_word(&d, 2, "input", SYN_KEYWORD);
	assert_word(&d, 2, "clk", SYN_PROPERTY);
	assert_word(&d, 3, "7", SYN_NUMBER);
	assert_word(&d, 5, "output", SYN_KEYWORD);
	assert_word(&d, 5, "reg", SYN_TYPE);
	assert_word(&d, 8, "always", SYN_KEYWORD);
	assert_word(&d, 8, "posedge", SYN_KEYWORD);
	assert_word(&d, 8, "@", SYN_OPERATOR);
	assert_word(&d, 9, "if", SYN_KEYWORD);
	assert_word(&d, 10, "<=", SYN_OPERATOR);
	assert_word(&d, 11, "else", SYN_KEYWORD);
	assert_word(&d, 12, "d", SYN_VARIABLE);
	assert_word(&d, 14, "endmodule", SYN_KEYWORD);
	doc_release(&d);
	free(text);
}

static void
test_syntax_verilog_literals_comments_tasks(void **state)
{
	static const char text[] =
	    "`timescale 1ns/1ps\n"
	    "// counter with a limit\n"
	    "module top(input clk, output reg [7:0] q);\n"
	    "  wire [3:0] w = 4'b1010; /* nibble */\n"
	    "  localparam LIMIT = 8'hFF;\n"
	    "  initial $display(\"q=%d\", q);\n"
	    "  sub u0 (.a(w), .b(q));\n"
	    "endmodule\n";
	struct doc d;

	(void)state;
	doc_parse(&d, "verilog", text, sizeof text - 1);
	assert_int_equal(syntax_has_error(d.s), 0);
	assert_word(&d, 0, "`timescale", SYN_PREPROC);
	assert_word(&d, 1, "// counter with a limit", SYN_COMMENT);
	assert_word(&d, 3, "wire", SYN_TYPE);
	assert_word(&d, 3, "4'b1010", SYN_NUMBER);
	assert_word(&d, 3, "/* nibble */", SYN_COMMENT);
	assert_word(&d, 4, "localparam", SYN_KEYWORD);
	assert_word(&d, 4, "LIMIT", SYN_CONSTANT);
	assert_word(&d, 4, "8'hFF", SYN_NUMBER);
	assert_word(&d, 5, "initial", SYN_KEYWORD);
	assert_word(&d, 5, "$display", SYN_FUNCTION);
	assert_word(&d, 5, "\"q=%d\"", SYN_STRING);
	assert_word(&d, 6, "sub", SYN_TYPE);
	assert_word(&d, 6, "a", SYN_PROPERTY);
	assert_word(&d, 6, "w", SYN_VARIABLE);
	assert_word(&d, 7, "endmodule", SYN_KEYWORD);
	doc_release(&d);
}

/* #match? "^[A-Z][A-Z\d_]*$" needs \d translated and must filter. */
static void
test_syntax_match_predicate_filters(void **state)
{
	static const char text[] =
	    "module m(input [3:0] low_v, output [3:0] y);\n"
	    "  assign y = MAX_V2 + low_v + Mixed;\n"
	    "endmodule\n";
	struct doc d;

	(void)state;
	doc_parse(&d, "verilog", text, sizeof text - 1);
	assert_word(&d, 1, "MAX_V2", SYN_CONSTANT);
	assert_word(&d, 1, "low_v", SYN_VARIABLE);
	assert_word(&d, 1, "Mixed", SYN_VARIABLE);
	doc_release(&d);
}

static void
test_syntax_error_keeps_later_lines(void **state)
{
	static const char text[] =
	    "module m(input a, output b);\n"
	    "  assign b = a;\n"
	    "  always @(posedge a begin\n"
	    "    b <= = ;\n"
	    "  end\n"
	    "  wire [3:0] c = 4'hF;\n"
	    "  initial $display(\"ok\");\n"
	    "endmodule\n"
	    "module n; reg x; endmodule\n";
	const struct syn_span *sp;
	struct doc d;
	size_t n, i, line, nerr = 0;

	(void)state;
	doc_parse(&d, "verilog", text, sizeof text - 1);
	assert_int_equal(syntax_has_error(d.s), 1);
	assert_word(&d, 1, "assign", SYN_KEYWORD);
	assert_word(&d, 5, "4'hF", SYN_NUMBER);
	assert_word(&d, 6, "initial", SYN_KEYWORD);
	assert_word(&d, 6, "$display", SYN_FUNCTION);
	assert_word(&d, 6, "\"ok\"", SYN_STRING);
	assert_word(&d, 7, "endmodule", SYN_KEYWORD);
	assert_word(&d, 8, "module", SYN_KEYWORD);
	assert_word(&d, 8, "n", SYN_TYPE);
	assert_word(&d, 8, "reg", SYN_TYPE);
	/* The broken region is marked, but never over a capture. */
	for (line = 0; line < syntax_nlines(d.s); line++) {
		sp = syntax_line_spans(d.s, line, &n);
		for (i = 0; i < n; i++)
			nerr += sp[i].group == SYN_ERROR;
	}
	assert_true(nerr > 0);
	assert_word(&d, 2, "posedge", SYN_KEYWORD);
	doc_release(&d);
}

static void
test_syntax_c_highlights(void **state)
{
	static const char text[] =
	    "#include <stdio.h>\n"
	    "#define LEN 16\n"
	    "/* entry */\n"
	    "int\n"
	    "main(void)\n"
	    "{\n"
	    "\tstruct pt p = { 0 };\n"
	    "\tprintf(\"%d\\n\", p.x + LEN);\n"
	    "\treturn 0x1f;\n"
	    "}\n";
	struct doc d;

	(void)state;
	doc_parse(&d, "c", text, sizeof text - 1);
	assert_int_equal(syntax_has_error(d.s), 0);
	assert_word(&d, 0, "#include", SYN_PREPROC);
	assert_word(&d, 0, "<stdio.h>", SYN_STRING);
	assert_word(&d, 1, "#define", SYN_PREPROC);
	assert_word(&d, 1, "LEN", SYN_CONSTANT);
	assert_word(&d, 2, "/* entry */", SYN_COMMENT);
	assert_word(&d, 3, "int", SYN_TYPE);
	assert_word(&d, 4, "main", SYN_FUNCTION);
	assert_word(&d, 6, "struct", SYN_KEYWORD);
	assert_word(&d, 6, "pt", SYN_TYPE);
	assert_word(&d, 7, "printf", SYN_FUNCTION);
	assert_word(&d, 7, "x", SYN_PROPERTY);
	assert_word(&d, 7, "LEN", SYN_CONSTANT);
	assert_word(&d, 7, "+", SYN_OPERATOR);
	assert_word(&d, 8, "return", SYN_KEYWORD);
	assert_word(&d, 8, "0x1f", SYN_NUMBER);
	assert_int_equal(group_at(&d, 7, col_of(&d, 7, "%d")), SYN_STRING);
	doc_release(&d);
}

static void
test_syntax_cuda_kernel_launch(void **state)
{
	static const char text[] =
	    "__global__ void k(float *x, int n)\n"
	    "{\n"
	    "\t__shared__ float tile[256];\n"
	    "\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n"
	    "\t__syncthreads();\n"
	    "}\n"
	    "void run(float *x) { k<<<g, b>>>(x, 4); }\n";
	struct doc d;

	(void)state;
	doc_parse(&d, "cuda", text, sizeof text - 1);
	assert_int_equal(syntax_has_error(d.s), 0);
	assert_word(&d, 0, "__global__", SYN_KEYWORD);
	assert_word(&d, 0, "void", SYN_TYPE);
	assert_word(&d, 0, "k", SYN_FUNCTION);
	assert_word(&d, 2, "__shared__", SYN_KEYWORD);
	assert_word(&d, 2, "256", SYN_NUMBER);
	assert_word(&d, 3, "threadIdx", SYN_CONSTANT);	/* #any-of? */
	assert_word(&d, 3, "i", SYN_VARIABLE);
	assert_word(&d, 4, "__syncthreads", SYN_FUNCTION);
	assert_word(&d, 6, "k", SYN_FUNCTION);
	assert_word(&d, 6, "<<<", SYN_OPERATOR);
	assert_word(&d, 6, ">>>", SYN_OPERATOR);
	assert_word(&d, 6, "g", SYN_VARIABLE);
	doc_release(&d);
}

static void
test_syntax_unknown_lang_is_plain(void **state)
{
	static const char text[] = "def f():\n    return 1\n";
	struct doc d;
	size_t n;

	(void)state;
	doc_parse(&d, "python", text, sizeof text - 1);
	assert_int_equal(syntax_nlines(d.s), 2);
	assert_null(syntax_line_spans(d.s, 0, &n));
	assert_int_equal(n, 0);
	syntax_line_spans(d.s, 1, &n);
	assert_int_equal(n, 0);
	syntax_line_spans(d.s, 2, &n);	/* past the end */
	assert_int_equal(n, 0);
	assert_int_equal(syntax_has_error(d.s), 0);
	doc_release(&d);
}

static void
test_syntax_counts_lines(void **state)
{
	struct doc d;

	(void)state;
	doc_parse(&d, "verilog", "", 0);
	assert_int_equal(syntax_nlines(d.s), 0);
	doc_release(&d);
	doc_parse(&d, "c", "int x;\n", 7);
	assert_int_equal(syntax_nlines(d.s), 1);
	doc_release(&d);
	doc_parse(&d, "c", "int x;\n\nint y;", 14);
	assert_int_equal(syntax_nlines(d.s), 3);
	assert_word(&d, 2, "int", SYN_TYPE);
	doc_release(&d);
}

/* len bounds the text: no NUL needed (ASan catches a read past it). */
static void
test_syntax_text_need_not_be_terminated(void **state)
{
	static const char src[] = "module a; endmodule";
	size_t len = sizeof src - 1;
	char *text = xmalloc(len);
	struct doc d;

	(void)state;
	memcpy(text, src, len);
	doc_parse(&d, "verilog", text, len);
	assert_int_equal(syntax_nlines(d.s), 1);
	assert_int_equal(syntax_has_error(d.s), 0);
	assert_word(&d, 0, "endmodule", SYN_KEYWORD);
	doc_release(&d);
	free(text);
}

/* Spans are sorted, non-empty, inside their line and do not overlap. */
static void
test_syntax_spans_are_ordered(void **state)
{
	const struct syn_span *sp;
	struct doc d;
	size_t len, line, n, i, ll;
	char *text = read_shared("data/verilog-eval-v2/Prob041_dff8r_ref.sv",
	    &len);

	(void)state;
	doc_parse(&d, "verilog", text, len);
	for (line = 0; line < syntax_nlines(d.s); line++) {
		doc_line(&d, line, &ll);
		sp = syntax_line_spans(d.s, line, &n);
		for (i = 0; i < n; i++) {
			assert_true(sp[i].start < sp[i].end);
			assert_true(sp[i].end <= ll);
			assert_true(sp[i].group > SYN_NONE);
			assert_true(sp[i].group < SYN_NGROUPS);
			if (i > 0)
				assert_true(sp[i - 1].end <= sp[i].start);
		}
	}
	doc_release(&d);
	free(text);
}

static void
write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static const char *const query_langs[] = { "c", "cuda", "verilog" };

/* Make a query directory in tmpl (mkdtemp template), one text per lang. */
static void
query_dir_make(char *tmpl, const char *const texts[3])
{
	char *p;
	size_t i;

	assert_non_null(mkdtemp(tmpl));
	for (i = 0; i < 3; i++) {
		p = xasprintf("%s/%s", tmpl, query_langs[i]);
		assert_int_equal(mkdir(p, 0700), 0);
		free(p);
		p = xasprintf("%s/%s/highlights.scm", tmpl, query_langs[i]);
		write_file(p, texts[i]);
		free(p);
	}
}

static void
query_dir_remove(const char *dir)
{
	char *p;
	size_t i;

	for (i = 0; i < 3; i++) {
		p = xasprintf("%s/%s/highlights.scm", dir, query_langs[i]);
		unlink(p);
		free(p);
		p = xasprintf("%s/%s", dir, query_langs[i]);
		rmdir(p);
		free(p);
	}
	rmdir(dir);
}

/* Put the repository's queries back for the tests that follow. */
static void
query_dir_restore(void)
{
	struct err err;

	syntax_shutdown();
	err_clear(&err);
	if (syntax_init(QUERY_DIR, &err) != 0)
		fail_msg("syntax_init: %s", err.msg);
}

/* An inner node wins over an outer one, a later pattern over an earlier. */
static void
test_syntax_precedence(void **state)
{
	static const char *const texts[3] = {
		"(identifier) @function\n"
		"(init_declarator) @type\n"
		"(number_literal) @variable\n"
		"(number_literal) @number\n"
		"(primitive_type) @type\n"
		"(primitive_type) @keyword\n",
		"(comment) @comment\n",
		"(comment) @comment\n",
	};
	char tmpl[] = "/tmp/assay-syntax-XXXXXX";
	struct err err;
	struct doc d;

	(void)state;
	query_dir_make(tmpl, texts);
	syntax_shutdown();
	err_clear(&err);
	if (syntax_init(tmpl, &err) != 0)
		fail_msg("syntax_init: %s", err.msg);
	doc_parse(&d, "c", "int x = 10;\n", 12);
	assert_word(&d, 0, "int", SYN_KEYWORD);		/* later pattern */
	assert_word(&d, 0, "x", SYN_FUNCTION);		/* inner node */
	assert_int_equal(group_at(&d, 0, 6), SYN_TYPE);	/* "=" in outer */
	assert_word(&d, 0, "10", SYN_NUMBER);
	doc_release(&d);
	query_dir_remove(tmpl);
	query_dir_restore();
}

/* A broken query names file:row:col; the other languages still work. */
static void
test_syntax_bad_query_reports_position(void **state)
{
	static const char *const texts[3] = {
		"(comment) @comment\n",
		"(comment) @comment\n",
		"(comment) @comment\n\n  (no_such_node) @keyword\n",
	};
	char tmpl[] = "/tmp/assay-syntax-XXXXXX";
	struct syntax *s = NULL;
	struct err err;
	struct doc d;

	(void)state;
	query_dir_make(tmpl, texts);
	syntax_shutdown();
	err_clear(&err);
	assert_int_equal(syntax_init(tmpl, &err), -1);
	if (strstr(err.msg, "verilog/highlights.scm:3:4:") == NULL)
		fail_msg("unexpected message: %s", err.msg);
	assert_non_null(strstr(err.msg, "no_such_node"));

	err_clear(&err);
	assert_int_equal(syntax_parse(&s, "verilog", "module m; endmodule",
	    19, &err), -1);
	assert_null(s);
	assert_non_null(strstr(err.msg, "highlights.scm:3:4"));

	doc_parse(&d, "c", "/* hi */ int x;", 15);
	assert_word(&d, 0, "/* hi */", SYN_COMMENT);
	assert_int_equal(group_at(&d, 0, 9), SYN_NONE);	/* not in query */
	doc_release(&d);
	query_dir_remove(tmpl);

	/* A missing directory is reported too. */
	syntax_shutdown();
	err_clear(&err);
	assert_int_equal(syntax_init("/nonexistent/assay", &err), -1);
	assert_non_null(strstr(err.msg, "highlights.scm"));
	query_dir_restore();
}

static void
test_syntax_group_names(void **state)
{
	(void)state;
	assert_string_equal(syntax_group_name(SYN_KEYWORD), "keyword");
	assert_string_equal(syntax_group_name(SYN_PREPROC), "preproc");
	assert_string_equal(syntax_group_name(SYN_ERROR), "error");
	assert_string_equal(syntax_group_name(SYN_NONE), "none");
	assert_string_equal(syntax_group_name(SYN_NGROUPS), "none");
}

/* syntax_tokens(): comments and layout go, names numbered by first use */
static void
test_syntax_tokens(void **state)
{
	const char *a = "module m(input a, output b); // note\n"
	    "  assign b = ~a; /* x */\nendmodule\n";
	const char *b = "module m (input a,output b);\nassign b=~a;\n"
	    "endmodule";
	const char *c = "module n(input x, output y); assign y = ~x;"
	    " endmodule";
	char *ta, *tb, *ia, *ic;
	size_t la, lb, lia, lic;
	struct err err;

	(void)state;
	assert_int_equal(syntax_tokens("verilog", a, strlen(a), &ta, &la, &ia,
	    &lia, &err), 1);
	assert_int_equal(syntax_tokens("verilog", b, strlen(b), &tb, &lb, NULL,
	    NULL, &err), 1);
	assert_string_equal(ta, tb);
	assert_null(strstr(ta, "note"));
	assert_non_null(strstr(ta, "assign b = ~ a ;"));
	free(tb);
	assert_int_equal(syntax_tokens("verilog", c, strlen(c), &tb, &lb, &ic,
	    &lic, &err), 1);
	assert_string_equal(ia, ic);	/* renamed throughout */
	assert_non_null(strstr(ia, "$0"));
	free(tb);
	assert_int_equal(syntax_tokens("python", "x = 1", 5, &tb, &lb, NULL,
	    NULL, &err), 0);
	assert_null(tb);
	free(ta);
	free(ia);
	free(ic);
}

/* The first name (or use) called name in v, or NULL. */
static const struct syn_vname *
vname(const struct syn_vname *v, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(v[i].name, name) == 0)
			return &v[i];
	return NULL;
}

/*
 * syntax_verilog_scan() puts each name in the module it stands in: a
 * wire before the first module and after the last is in none (-1), the
 * second module's instance and uses are its own, not the first's.
 */
static void
test_syntax_verilog_modules(void **state)
{
	static const char code[] =
	    "wire g0;\n"
	    "module a(input x, output y);\n"
	    "  wire w;\n"
	    "  assign y = x;\n"
	    "endmodule\n"
	    "wire g1;\n"
	    "module b(input z, output q);\n"
	    "  sub u1(.i(z), .o(q));\n"
	    "  assign q = z;\n"
	    "endmodule\n"
	    "wire g2;\n";
	struct syn_verilog v;
	struct err err;
	const struct syn_vname *n;

	(void)state;
	assert_int_equal(syntax_verilog_scan(code, strlen(code), &v, &err), 0);
	assert_int_equal(v.has_error, 0);
	assert_int_equal(v.nmodules, 2);
	assert_string_equal(v.modules[0].name, "a");
	assert_int_equal(v.modules[0].line, 2);
	assert_string_equal(v.modules[1].name, "b");
	assert_int_equal(v.modules[1].line, 7);
	n = vname(v.names, v.nnames, "w");
	assert_non_null(n);
	assert_int_equal(n->module, 0);
	n = vname(v.names, v.nnames, "u1");
	assert_non_null(n);
	assert_int_equal(n->module, 1);
	assert_string_equal(n->type, "sub");
	for (int i = 0; i < 3; i++) {
		char g[4];

		snprintf(g, sizeof g, "g%d", i);
		n = vname(v.names, v.nnames, g);
		assert_non_null(n);
		assert_int_equal(n->module, -1);
	}
	n = vname(v.uses, v.nuses, "x");
	assert_non_null(n);
	assert_int_equal(n->module, 0);
	assert_int_equal(n->line, 4);
	n = vname(v.uses, v.nuses, "z");
	assert_non_null(n);
	assert_int_equal(n->module, 1);
	syntax_verilog_release(&v);
}

/*
 * A candidate nested 10,000 deep (right-nested ?:) is scanned whole, each
 * use in its module.  An attack nested 200,000 deep in 1.6 MB kept
 * `verify` busy for over six minutes while the scan asked
 * ts_node_parent() for each identifier (each ask walks down from the
 * root: the node's depth); the walk now hands each visit its ancestors,
 * and the same input verifies in 4 s.  The depth here is kept small
 * enough for the sanitizers' build.
 */
static void
test_syntax_verilog_scan_deep_nesting(void **state)
{
	enum { DEPTH = 10000 };
	static const char head[] = "module TopModule(input a, input [7:0] d,"
	    " output reg [7:0] q);\n  always @* q = ";
	static const char tail[] = "d;\nendmodule\n";
	struct buf b = { 0 };
	struct syn_verilog v;
	struct err err;
	size_t uses_a = 0;

	(void)state;
	buf_add(&b, head, strlen(head));
	for (int i = 0; i < DEPTH; i++)
		buf_add(&b, "a ? d : ", 8);
	buf_add(&b, tail, strlen(tail));
	assert_int_equal(syntax_verilog_scan(b.p, b.len, &v, &err), 0);
	assert_int_equal(v.has_error, 0);
	assert_int_equal(v.nmodules, 1);
	for (size_t i = 0; i < v.nuses; i++)
		if (strcmp(v.uses[i].name, "a") == 0 && v.uses[i].module == 0)
			uses_a++;
	assert_int_equal(uses_a, DEPTH);
	syntax_verilog_release(&v);
	buf_release(&b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_syntax_grammars_are_abi_14),
		cmocka_unit_test(test_syntax_verilog_module_keywords),
		cmocka_unit_test(test_syntax_verilog_literals_comments_tasks),
		cmocka_unit_test(test_syntax_match_predicate_filters),
		cmocka_unit_test(test_syntax_error_keeps_later_lines),
		cmocka_unit_test(test_syntax_c_highlights),
		cmocka_unit_test(test_syntax_cuda_kernel_launch),
		cmocka_unit_test(test_syntax_unknown_lang_is_plain),
		cmocka_unit_test(test_syntax_counts_lines),
		cmocka_unit_test(test_syntax_tokens),
		cmocka_unit_test(test_syntax_text_need_not_be_terminated),
		cmocka_unit_test(test_syntax_spans_are_ordered),
		cmocka_unit_test(test_syntax_precedence),
		cmocka_unit_test(test_syntax_bad_query_reports_position),
		cmocka_unit_test(test_syntax_group_names),
		cmocka_unit_test(test_syntax_verilog_modules),
		cmocka_unit_test(test_syntax_verilog_scan_deep_nesting),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
