/*
 * parse.h - one tree-sitter parse for the files of src/lang that walk a
 * tree (syntax.c, cuda_launch.c, vheader.c): the size limit, the ABI
 * check and the messages are the same for every grammar; and the node
 * tests they share.  Not for use outside src/lang: the types are
 * tree-sitter's.
 */
#ifndef ASSAY_PARSE_H
#define ASSAY_PARSE_H

#include <stddef.h>

#include <tree_sitter/api.h>

#include "base/err.h"

/*
 * Parse text (len bytes) with the grammar lang, called grammar in the
 * ABI message and name in the others: 0 and the tree in *out, new,
 * caller frees with ts_tree_delete().  -1 with err: the text is 4 GiB or
 * more ("NAME: text too large"), the runtime rejects the grammar's ABI,
 * or the parser gives no tree.  Defined in syntax.c.
 */
int	syntax_tree(const TSLanguage *lang, const char *grammar,
	    const char *name, const char *text, size_t len, TSTree **out,
	    struct err *err);
/*
 * Step cur on in a walk in document order (pre-order) of the node it was
 * made at: into the first child when descend is true and there is one,
 * else to the next sibling of the nearest node, itself or above, that has
 * one.  0 when the walk is over (cur is then back at its first node).
 */
int	syntax_walk_next(TSTreeCursor *cur, int descend);
/*
 * The walk every scan of a Verilog file makes (syntax_verilog_scan(),
 * vh_scan()): parse text (len bytes) with the Verilog grammar, set
 * *has_error (1 when the tree holds an ERROR or MISSING node, else 0),
 * then call visit(text, n, type, up, nup, arg) for each node n in
 * document order (pre-order), type being ts_node_type(n) and up[0..nup-1]
 * its ancestors from the root (up[nup - 1] its parent; nup 0 at the root;
 * the array is the walk's, valid during the call), and last once with a
 * null node, type NULL and no ancestors: the end of the walk, where what
 * was kept of the tree may still be read.  Asking a node's parent from up
 * costs nothing; ts_node_parent() costs the node's depth.  The tree is deleted before the walk returns.
 * 0 when every node was visited; -1 with err as syntax_tree(), nothing
 * visited.  Defined in syntax.c.
 */
int	syntax_verilog_walk(const char *text, size_t len, int *has_error,
	    void (*visit)(const char *text, TSNode n, const char *type,
	    const TSNode *up, size_t nup, void *arg), void *arg,
	    struct err *err);

/*
 * The comments right above node n (a declaration): the run of comment
 * siblings that ends on the line before it, or before a preprocessor
 * directive that does ("_compiler_directive" nodes: `timescale), their
 * markers (//, / *, * / and a leading *) and trailing blanks removed, a
 * line each.  New string, or NULL when there is none.  Defined in
 * syntax.c.
 */
char	*syntax_comment_above(const char *text, TSNode n);

/*
 * syntax_is(): is n a node (not null) of that type?  1 or 0.
 * syntax_child(): the first named child of n of that type, or a null
 * node (also when n is null).  Defined in syntax.c.
 */
int	syntax_is(TSNode n, const char *type);
TSNode	syntax_child(TSNode n, const char *type);

#endif
