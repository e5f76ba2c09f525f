/*
 * storefx.h - a store fixture the unit tests share: a temporary
 * directory with a database, a task local/t1 (chip, iverilog) and
 * candidates of it added by code.  Failures end the test (fail_msg).
 */
#ifndef ASSAY_STOREFX_H
#define ASSAY_STOREFX_H

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/hash.h"
#include "model/sample.h"
#include "store/store.h"
#include "testlib.h"

struct storefx {
	char		 dir[64];	/* the temporary directory */
	char		 db[PATH_MAX];
	struct store	*st;
};

/* Make dir (tag names it), the database and the task local/t1; 0, or -1
 * when the directory cannot be made. */
static inline int
storefx_init(struct storefx *f, const char *tag)
{
	struct task t;
	struct err err;
	int ins;

	snprintf(f->dir, sizeof f->dir, "/tmp/assay-test-%s-XXXXXX", tag);
	if (mkdtemp(f->dir) == NULL)
		return -1;
	snprintf(f->db, sizeof f->db, "%s/assay.db", f->dir);
	if (store_open(&f->st, f->db, &err) < 0)
		fail_msg("store_open: %s", err.msg);
	memset(&t, 0, sizeof t);
	t.id = xstrdup("local/t1");
	t.benchmark = xstrdup("local");
	t.domain = xstrdup("chip");
	t.env = xstrdup("iverilog");
	t.spec = xstrdup("Build a wire.");
	t.source = xstrdup("test");
	if (store_task_put(f->st, &t, &ins, &err) < 0)
		fail_msg("store_task_put: %s", err.msg);
	task_release(&t);
	return 0;
}

/* A candidate of local/t1 with code, by gpt-x; its id, new string. */
static inline char *
storefx_cand(struct storefx *f, const char *code)
{
	struct candidate c;
	struct err err;
	int ins = -1;
	char *id;

	memset(&c, 0, sizeof c);
	c.task_id = xstrdup("local/t1");
	c.origin = xstrdup("gpt-x");
	c.kind = xstrdup("direct");
	c.lang = xstrdup("verilog");
	c.source = xstrdup("test:1");
	c.code = xstrdup(code);
	c.code_len = strlen(code);
	hash_sha256(c.code, c.code_len, c.code_hash);
	if (store_candidate_add(f->st, &c, &ins, &err) < 0)
		fail_msg("store_candidate_add: %s", err.msg);
	id = xstrdup(c.id);
	candidate_release(&c);
	return id;
}

/* Close the database and remove the directory. */
static inline void
storefx_release(struct storefx *f)
{
	store_close(f->st);
	rm_rf(f->dir);
}

#endif
