/*
 * fuzz_filter.c - libFuzzer target for the filter language (issue 10):
 * the input is a FILTER string (list --where, the workbench's search),
 * compiled by store.c and run against a small in-memory store with a
 * task, two candidates, a label and a review.  Bad filters are errors
 * with a message; an accepted filter's count is at most 2 and equals
 * its page's rows (assert(); the fuzz build keeps asserts, no NDEBUG).
 * Crashes, leaks, undefined
 * behaviour and those broken invariants are the findings.
 */
#include <assert.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/hash.h"
#include "model/sample.h"
#include "store/store.h"

static struct store *st;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
fill(void)
{
	struct task t = { 0 };
	struct candidate c = { 0 };
	struct err err;
	int ins;

	if (store_open(&st, ":memory:", &err) < 0)
		abort();
	t.id = "local/t";
	t.benchmark = "local";
	t.domain = "chip";
	t.env = "iverilog";
	t.spec = "a dff with reset";
	if (store_task_put(st, &t, &ins, &err) < 0)
		abort();
	for (int i = 0; i < 2; i++) {
		memset(&c, 0, sizeof c);
		c.task_id = strdup("local/t");
		c.origin = strdup(i == 0 ? "gpt-4" : "reference");
		c.kind = strdup("direct");
		c.lang = strdup("verilog");
		c.code = strdup(i == 0 ? "module TopModule; endmodule\n" :
		    "module TopModule(input clk); endmodule\n");
		c.code_len = strlen(c.code);
		hash_sha256(c.code, c.code_len, c.code_hash);
		if (store_candidate_add(st, &c, &ins, &err) < 0)
			abort();
		if (i == 0 && (store_label_set(st, c.id, "functional", "reset",
		    NULL, "alice", 0, NULL, &err) < 0 ||
		    store_review_set(st, c.id, "flagged", "n", "bob",
		    &err) < 0))
			abort();
		candidate_release(&c);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *where = malloc(size + 1);
	struct store_row *rows = NULL;
	size_t n = 0;
	struct err err;

	if (st == NULL)
		fill();
	memcpy(where, data, size);
	where[size] = '\0';
	size_t count = 0;
	int crc, prc;

	err.msg[0] = '\0';
	crc = store_query_count(st, where, &count, &err);
	/* A refused filter says why; an accepted one matches at most the
	 * two candidates there are. */
	assert(crc == 0 || err.msg[0] != '\0');
	assert(crc < 0 || count <= 2);
	/* KEY~ with no text ("id~") is refused, never "every row" */
	if (size >= 2 && data[size - 1] == '~' &&
	    strspn(where, "abcdefghijklmnopqrstuvwxyz") == size - 1)
		assert(crc < 0);
	if (crc == 0) {
		prc = store_query_page(st, where, 0, 10, &rows, &n, &err);
		/* count and page read the same filter: they agree */
		assert(prc == 0 && n == count);
		for (size_t i = 0; i < n; i++)
			store_row_release(&rows[i]);
		free(rows);
	}
	free(where);
	return 0;
}
