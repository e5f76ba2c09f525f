/*
 * cfunc.c - the functions a C file defines, by tree-sitter (cfunc.h).
 */
#include "lang/cfunc.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include <tree_sitter/api.h>

#include "base/buf.h"
#include "lang/parse.h"

const TSLanguage *tree_sitter_c(void);
const TSLanguage *tree_sitter_cuda(void);

/* text[a, b) with every run of blanks one space, trimmed; new. */
static char *
collapsed(const char *text, uint32_t a, uint32_t b)
{
	struct buf o = BUF_INIT;
	int space = 0;

	for (uint32_t i = a; i < b; i++) {
		if (isspace((unsigned char)text[i])) {
			space = o.len > 0;
			continue;
		}
		if (space)
			buf_addc(&o, ' ');
		space = 0;
		buf_addc(&o, text[i]);
	}
	if (o.len == 0)
		buf_adds(&o, "");
	return buf_detach(&o, NULL);
}

/* The function_declarator under declarator d (through pointers), or a
 * null node. */
static TSNode
func_declarator(TSNode d)
{
	while (!ts_node_is_null(d) && strcmp(ts_node_type(d),
	    "function_declarator") != 0)
		d = ts_node_child_by_field_name(d, "declarator", 10);
	return d;
}

static void
add_func(struct cf_file *out, const char *text, TSNode n)
{
	TSNode type = ts_node_child_by_field_name(n, "type", 4);
	TSNode decl = ts_node_child_by_field_name(n, "declarator", 10);
	TSNode fd = func_declarator(decl), id;
	struct cf_func *f;
	uint32_t k = ts_node_child_count(n);
	int is_static = 0;

	if (ts_node_is_null(type) || ts_node_is_null(fd))
		return;
	id = ts_node_child_by_field_name(fd, "declarator", 10);
	if (ts_node_is_null(id) || strcmp(ts_node_type(id), "identifier") != 0)
		return;
	for (uint32_t i = 0; i < k; i++) {
		TSNode c = ts_node_child(n, i);

		if (strcmp(ts_node_type(c), "storage_class_specifier") == 0 &&
		    ts_node_end_byte(c) - ts_node_start_byte(c) == 6 &&
		    memcmp(text + ts_node_start_byte(c), "static", 6) == 0)
			is_static = 1;
	}
	out->funcs = xreallocarray(out->funcs, out->nfuncs + 1,
	    sizeof *out->funcs);
	f = &out->funcs[out->nfuncs++];
	memset(f, 0, sizeof *f);
	f->name = xstrndup(text + ts_node_start_byte(id),
	    ts_node_end_byte(id) - ts_node_start_byte(id));
	/* from the type (after static, inline ...) to the parameters' ")",
	 * qualifiers of the type before it included ("const int32_t") */
	{
		uint32_t a = ts_node_start_byte(type);

		for (uint32_t i = 0; i < k; i++) {
			TSNode c = ts_node_child(n, i);

			if (strcmp(ts_node_type(c), "type_qualifier") == 0 &&
			    ts_node_start_byte(c) < a)
				a = ts_node_start_byte(c);
		}
		f->prototype = collapsed(text, a, ts_node_end_byte(decl));
	}
	f->comment = syntax_comment_above(text, n);
	f->is_static = is_static;
	{
		/* __global__ is no node of the CUDA grammar's: a word
		 * before the declarator */
		uint32_t a = ts_node_start_byte(n), b = ts_node_start_byte(decl);

		for (uint32_t i = a; i + 10 <= b && !f->is_kernel; i++)
			f->is_kernel = memcmp(text + i, "__global__", 10) == 0;
	}
	f->line = (int)ts_node_start_point(n).row + 1;
}

/* Every launch under n (a function named caller, or NULL). */
static void
add_launches(struct cf_file *out, const char *text, TSNode n,
    const char *caller)
{
	TSTreeCursor cur = ts_tree_cursor_new(n);

	do {
		TSNode c = ts_tree_cursor_current_node(&cur), k, fn;
		struct cf_launch *l;

		if (strcmp(ts_node_type(c), "kernel_call_syntax") != 0)
			continue;
		fn = ts_node_child_by_field_name(ts_node_parent(c), "function",
		    8);
		k = c;
		out->launches = xreallocarray(out->launches,
		    out->nlaunches + 1, sizeof *out->launches);
		l = &out->launches[out->nlaunches++];
		l->kernel = ts_node_is_null(fn) ? xstrdup("?") :
		    collapsed(text, ts_node_start_byte(fn),
		    ts_node_end_byte(fn));
		l->config = collapsed(text, ts_node_start_byte(k),
		    ts_node_end_byte(k));
		l->caller = caller != NULL ? xstrdup(caller) : NULL;
		l->line = (int)ts_node_start_point(c).row + 1;
	} while (syntax_walk_next(&cur, 1));
	ts_tree_cursor_delete(&cur);
}

int
cf_scan(const char *text, size_t len, int cuda, struct cf_file *out,
    struct err *err)
{
	TSTree *tree;
	TSNode root;
	uint32_t k;

	memset(out, 0, sizeof *out);
	if (syntax_tree(cuda ? tree_sitter_cuda() : tree_sitter_c(),
	    cuda ? "cuda" : "c", cuda ? "cuda" : "c", text, len, &tree,
	    err) < 0)
		return -1;
	root = ts_tree_root_node(tree);
	if (ts_node_has_error(root)) {
		TSTreeCursor cur = ts_tree_cursor_new(root);

		do {
			TSNode c = ts_tree_cursor_current_node(&cur);

			if (ts_node_is_missing(c) ||
			    strcmp(ts_node_type(c), "ERROR") == 0) {
				out->error_line =
				    (int)ts_node_start_point(c).row + 1;
				break;
			}
		} while (syntax_walk_next(&cur, 1));
		ts_tree_cursor_delete(&cur);
	}
	/* definitions at file scope only: a nested one is no C */
	k = ts_node_named_child_count(root);
	for (uint32_t i = 0; i < k; i++) {
		TSNode c = ts_node_named_child(root, i);

		if (strcmp(ts_node_type(c), "function_definition") == 0) {
			size_t had = out->nfuncs;

			add_func(out, text, c);
			if (cuda)
				add_launches(out, text, c, out->nfuncs > had ?
				    out->funcs[had].name : NULL);
		}
	}
	ts_tree_delete(tree);
	return 0;
}

void
cf_release(struct cf_file *f)
{
	for (size_t i = 0; i < f->nfuncs; i++) {
		free(f->funcs[i].name);
		free(f->funcs[i].prototype);
		free(f->funcs[i].comment);
	}
	for (size_t i = 0; i < f->nlaunches; i++) {
		free(f->launches[i].kernel);
		free(f->launches[i].config);
		free(f->launches[i].caller);
	}
	free(f->funcs);
	free(f->launches);
	memset(f, 0, sizeof *f);
}
