/*
 * test_store.c - unit tests for store.c (cmocka): migrations and the
 * schema version, WAL mode, task and candidate identity, short ids and
 * their prefixes, decisions and undo/redo through the journal, the queue
 * filter and paging, and runs.  Each test works on its own database in a
 * mkdtemp directory and removes it at the end.  SQLite is reached
 * through store.h; what SQLite writes is checked on the filesystem (the
 * database header, the -wal file) and, for the schema a large import
 * must leave as it found it, by a connection of its own (sql_int).
 */
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <time.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>
#include <sqlite3.h>

#include "base/buf.h"
#include "base/err.h"
#include "base/hash.h"
#include "model/sample.h"
#include "store/store.h"
#include "testlib.h"

/* The per-test fixture: a temporary directory and a database path in it. */
struct fx {
	char		 dir[64];
	char		 db[PATH_MAX];
	struct store	*st;
};


static int
fx_setup(void **state)
{
	struct fx *f = xcalloc(1, sizeof *f);
	struct err err;

	snprintf(f->dir, sizeof f->dir, "/tmp/assay-test-store-XXXXXX");
	if (mkdtemp(f->dir) == NULL) {
		free(f);
		return -1;
	}
	snprintf(f->db, sizeof f->db, "%s/assay.db", f->dir);
	if (store_open(&f->st, f->db, &err) < 0) {
		print_error("store_open: %s\n", err.msg);
		rm_rf(f->dir);
		free(f);
		return -1;
	}
	*state = f;
	return 0;
}

static int
fx_teardown(void **state)
{
	struct fx *f = *state;

	store_close(f->st);
	rm_rf(f->dir);
	free(f);
	return 0;
}

/* Close and open the fixture's database again. */
static void
reopen(struct fx *f)
{
	struct err err;

	store_close(f->st);
	f->st = NULL;
	if (store_open(&f->st, f->db, &err) < 0)
		fail_msg("reopen: %s", err.msg);
}

static void
make_task(struct task *t, const char *id)
{
	memset(t, 0, sizeof *t);
	t->id = xstrdup(id);
	t->benchmark = xstrdup("local");
	t->domain = xstrdup("chip");
	t->env = xstrdup("iverilog");
	t->env_params = xstrdup("{\"top\":\"tb\"}");
	t->spec = xstrdup("Build a wire.");
	t->source = xstrdup("test");
}

static void
put_task(struct store *st, const char *id)
{
	struct task t;
	struct err err;
	int ins = -1;

	make_task(&t, id);
	task_add_file(&t, "tb.sv", "testbench", "module tb; endmodule\n", 21);
	if (store_task_put(st, &t, &ins, &err) < 0)
		fail_msg("store_task_put: %s", err.msg);
	task_release(&t);
}

static void
make_cand(struct candidate *c, const char *task, const char *origin,
    const char *code)
{
	memset(c, 0, sizeof *c);
	c->task_id = xstrdup(task);
	c->origin = xstrdup(origin);
	c->kind = xstrdup("direct");
	c->lang = xstrdup("verilog");
	c->source = xstrdup("test:1");
	c->code = xstrdup(code);
	c->code_len = strlen(code);
	hash_sha256(c->code, c->code_len, c->code_hash);
}

/* Add a candidate; its id as a new string.  *inserted may be NULL. */
static char *
add_cand(struct store *st, const char *task, const char *origin,
    const char *code, int *inserted)
{
	struct candidate c;
	struct err err;
	int ins = -1;
	char *id;

	make_cand(&c, task, origin, code);
	if (store_candidate_add(st, &c, &ins, &err) < 0)
		fail_msg("store_candidate_add: %s", err.msg);
	if (inserted != NULL)
		*inserted = ins;
	id = xstrdup(c.id);
	candidate_release(&c);
	return id;
}

/* The id store.h promises: "c" + 7 hex of sha256(task NUL origin NUL
 * code hash). */
static void
expected_id(const char *task, const char *origin, const char *code,
    char *out, size_t n)
{
	char code_hex[HASH_HEX_LEN + 1], hex[HASH_HEX_LEN + 1];
	struct buf b = BUF_INIT;

	hash_sha256(code, strlen(code), code_hex);
	buf_printf(&b, "%s%c%s%c%s", task, 0, origin, 0, code_hex);
	hash_sha256(b.p, b.len, hex);
	buf_release(&b);
	snprintf(out, n, "c%.7s", hex);
}

/* Read 4 big-endian bytes at off of a file. */
static uint32_t
read_be32(const char *path, off_t off)
{
	unsigned char b[4];
	int fd = open(path, O_RDONLY);

	assert_true(fd >= 0);
	assert_int_equal(pread(fd, b, 4, off), 4);
	close(fd);
	return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 |
	    (uint32_t)b[2] << 8 | b[3];
}

static void
write_be32(const char *path, off_t off, uint32_t v)
{
	unsigned char b[4] = { v >> 24, v >> 16, v >> 8, v };
	int fd = open(path, O_WRONLY);

	assert_true(fd >= 0);
	assert_int_equal(pwrite(fd, b, 4, off), 4);
	close(fd);
}

static size_t
count(struct store *st, const char *filter)
{
	struct err err;
	size_t n = 12345;

	if (store_query_count(st, filter, &n, &err) < 0)
		fail_msg("store_query_count(%s): %s", filter != NULL ? filter :
		    "NULL", err.msg);
	return n;
}

static char *
category_of(struct store *st, const char *id)
{
	struct store_decision d;
	struct err err;
	char *cat;

	if (store_decision_get(st, id, &d, &err) < 0)
		fail_msg("store_decision_get: %s", err.msg);
	cat = d.category != NULL ? xstrdup(d.category) : NULL;
	store_decision_release(&d);
	return cat;
}

static void
assert_category(struct store *st, const char *id, const char *want)
{
	char *got = category_of(st, id);

	if (want == NULL && got != NULL)
		fail_msg("category: want none, got %s", got);
	if (want != NULL)
		assert_non_null(got);
	if (want != NULL)
		assert_string_equal(got, want);
	free(got);
}

static void
assert_status(struct store *st, const char *id, const char *want)
{
	struct store_decision d;
	struct err err;

	assert_int_equal(store_decision_get(st, id, &d, &err), 0);
	assert_non_null(d.status);
	assert_string_equal(d.status, want);
	store_decision_release(&d);
}

static void
label(struct store *st, const char *id, const char *cat)
{
	struct err err;

	if (store_label_set(st, id, cat, NULL, NULL, "ann", 0, NULL,
	    &err) < 0)
		fail_msg("store_label_set: %s", err.msg);
}

static void
review(struct store *st, const char *id, const char *status)
{
	struct err err;

	if (store_review_set(st, id, status, NULL, "ann", &err) < 0)
		fail_msg("store_review_set: %s", err.msg);
}

/* --- migrations ------------------------------------------------------ */

static void
test_store_fresh_database_migrates_to_current_version(void **state)
{
	struct fx *f = *state;
	struct task t;
	struct err err;

	assert_int_equal(store_schema_version(f->st), STORE_SCHEMA_VERSION);
	put_task(f->st, "local/keep");
	reopen(f);
	/* A second open migrates nothing and keeps the data. */
	assert_int_equal(store_schema_version(f->st), STORE_SCHEMA_VERSION);
	assert_int_equal(store_task_get(f->st, "local/keep", &t, &err), 0);
	assert_string_equal(t.id, "local/keep");
	task_release(&t);
	store_close(f->st);
	f->st = NULL;
	/* PRAGMA user_version lives at offset 60 of the database header. */
	assert_int_equal(read_be32(f->db, 60), STORE_SCHEMA_VERSION);
	reopen(f);
}

static void
test_store_newer_schema_is_refused(void **state)
{
	struct fx *f = *state;
	struct store *st = (struct store *)0x1;
	struct err err;
	char want[4096 + 128];

	store_close(f->st);
	f->st = NULL;
	write_be32(f->db, 60, STORE_SCHEMA_VERSION + 98);
	err_clear(&err);
	assert_int_equal(store_open(&st, f->db, &err), -1);
	assert_null(st);
	snprintf(want, sizeof want, "%s: database schema v%d is newer than"
	    " this assay (v%d); upgrade assay", f->db, STORE_SCHEMA_VERSION + 98,
	    STORE_SCHEMA_VERSION);
	assert_string_equal(err.msg, want);
	/* Refusing does not touch the version. */
	assert_int_equal(read_be32(f->db, 60), STORE_SCHEMA_VERSION + 98);
	write_be32(f->db, 60, STORE_SCHEMA_VERSION);
	reopen(f);
	assert_int_equal(store_schema_version(f->st), STORE_SCHEMA_VERSION);
}

static void
test_store_wal_mode_is_on(void **state)
{
	struct fx *f = *state;
	struct stat sb;
	char wal[PATH_MAX + 8];
	unsigned char hdr[20];
	int fd;

	put_task(f->st, "local/wal");
	snprintf(wal, sizeof wal, "%s-wal", f->db);
	assert_int_equal(stat(wal, &sb), 0);
	assert_true(sb.st_size > 0);
	store_close(f->st);
	f->st = NULL;
	/* Header bytes 18 and 19 (write/read format) are 2 in WAL mode. */
	fd = open(f->db, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(read(fd, hdr, sizeof hdr), (ssize_t)sizeof hdr);
	close(fd);
	assert_memory_equal(hdr, "SQLite format 3", 16);
	assert_int_equal(hdr[18], 2);
	assert_int_equal(hdr[19], 2);
	reopen(f);
}

static void
test_store_unwritable_path_is_error(void **state)
{
	struct fx *f = *state;
	struct store *st = NULL;
	struct err err;
	char *p = xasprintf("%s/no/such/dir/assay.db", f->dir);

	err_clear(&err);
	assert_int_equal(store_open(&st, p, &err), -1);
	assert_null(st);
	assert_non_null(strstr(err.msg, p));
	free(p);
}

static void
test_store_not_a_database_is_error_naming_it(void **state)
{
	struct fx *f = *state;
	struct store *st = NULL;
	struct err err;
	char p[PATH_MAX];
	FILE *fp;

	snprintf(p, sizeof p, "%s/notes.txt", f->dir);
	fp = fopen(p, "w");
	assert_non_null(fp);
	fputs("this is not a database, just some text long enough to hold a"
	    " header\n", fp);
	assert_int_equal(fclose(fp), 0);
	err_clear(&err);
	assert_int_equal(store_open(&st, p, &err), -1);
	assert_null(st);
	assert_non_null(strstr(err.msg, "not a database"));
	if (strstr(err.msg, p) == NULL)
		fail_msg("error \"%s\" does not name %s", err.msg, p);
}

/* --- tasks and candidates -------------------------------------------- */

static void
test_store_task_inserted_once(void **state)
{
	struct fx *f = *state;
	struct task t, got;
	struct err err;
	int ins = -1;

	make_task(&t, "local/t1");
	task_add_file(&t, "t1_test.sv", "testbench", "TB", 2);
	task_add_file(&t, "t1_ref.sv", "reference", "R\0F", 3);
	assert_int_equal(store_task_put(f->st, &t, &ins, &err), 0);
	assert_int_equal(ins, 1);
	free(t.spec);
	t.spec = xstrdup("changed");
	assert_int_equal(store_task_put(f->st, &t, &ins, &err), 0);
	assert_int_equal(ins, 0);
	task_release(&t);

	assert_int_equal(store_task_get(f->st, "local/t1", &got, &err), 0);
	assert_string_equal(got.spec, "Build a wire.");	/* left as it was */
	assert_string_equal(got.benchmark, "local");
	assert_string_equal(got.env_params, "{\"top\":\"tb\"}");
	assert_int_equal(got.nfiles, 2);
	assert_string_equal(got.files[0].name, "t1_test.sv");
	assert_string_equal(got.files[0].role, "testbench");
	assert_int_equal(got.files[0].len, 2);
	assert_memory_equal(got.files[0].data, "TB", 2);
	assert_string_equal(got.files[1].name, "t1_ref.sv");
	assert_int_equal(got.files[1].len, 3);
	assert_memory_equal(got.files[1].data, "R\0F", 3);
	task_release(&got);
	assert_int_equal(store_task_get(f->st, "local/none", &got, &err), 1);
}

static void
test_store_candidate_identity_and_short_id(void **state)
{
	struct fx *f = *state;
	char want[16], *a, *b, *c, *d;
	struct candidate got;
	struct err err;
	int ins = -1;

	put_task(f->st, "local/t1");
	put_task(f->st, "local/t2");
	a = add_cand(f->st, "local/t1", "gpt-4", "module m; endmodule\n", &ins);
	assert_int_equal(ins, 1);
	expected_id("local/t1", "gpt-4", "module m; endmodule\n", want,
	    sizeof want);
	assert_string_equal(a, want);
	assert_int_equal(strlen(a), 8);

	/* The same identity again: nothing added, the same id. */
	b = add_cand(f->st, "local/t1", "gpt-4", "module m; endmodule\n", &ins);
	assert_int_equal(ins, 0);
	assert_string_equal(b, a);
	/* The same code from another origin, or under another task, is new. */
	c = add_cand(f->st, "local/t1", "codellama", "module m; endmodule\n",
	    &ins);
	assert_int_equal(ins, 1);
	assert_string_not_equal(c, a);
	d = add_cand(f->st, "local/t2", "gpt-4", "module m; endmodule\n", &ins);
	assert_int_equal(ins, 1);
	assert_string_not_equal(d, a);
	assert_int_equal(count(f->st, NULL), 3);

	assert_int_equal(store_candidate_get(f->st, a, &got, &err), 0);
	assert_string_equal(got.task_id, "local/t1");
	assert_string_equal(got.origin, "gpt-4");
	assert_string_equal(got.kind, "direct");
	assert_int_equal(got.code_len, strlen("module m; endmodule\n"));
	assert_string_equal(got.code, "module m; endmodule\n");
	{
		char hex[HASH_HEX_LEN + 1];

		hash_sha256(got.code, got.code_len, hex);
		assert_string_equal(got.code_hash, hex);
	}
	candidate_release(&got);
	assert_int_equal(store_candidate_get(f->st, "cnothere", &got, &err), 1);

	/* A second database derives the same id for the same identity. */
	{
		char *p = xasprintf("%s/other.db", f->dir);
		struct store *st2;
		char *e;

		assert_int_equal(store_open(&st2, p, &err), 0);
		put_task(st2, "local/t2");
		put_task(st2, "local/t1");
		free(add_cand(st2, "local/t2", "x", "other code", NULL));
		e = add_cand(st2, "local/t1", "gpt-4", "module m; endmodule\n",
		    &ins);
		assert_int_equal(ins, 1);
		assert_string_equal(e, a);
		free(e);
		store_close(st2);
		free(p);
	}
	free(a);
	free(b);
	free(c);
	free(d);
}

/* The one integer sql gives on a connection of its own to path. */
static int
sql_int(const char *path, const char *sql)
{
	sqlite3 *h;
	sqlite3_stmt *s;
	int v = -1;

	assert_int_equal(sqlite3_open_v2(path, &h, SQLITE_OPEN_READONLY, NULL),
	    SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(h, sql, -1, &s, NULL), SQLITE_OK);
	if (sqlite3_step(s) == SQLITE_ROW)
		v = sqlite3_column_int(s, 0);
	sqlite3_finalize(s);
	sqlite3_close(h);
	return v;
}

/*
 * An import that adds more candidates than the table had (and at least
 * 4096) sets the unique identity index and the task indexes aside and
 * builds them again at the publish (docs/adr/0043): a duplicate after
 * that point is still found (in memory), an explicit id already taken
 * is still refused, a row rolled back to its savepoint leaves no
 * identity behind, and once committed the indexes are all there and the
 * database is sound.
 */
static void
test_store_import_large_sets_indexes_aside(void **state)
{
	struct fx *f = *state;
	struct candidate c;
	struct err err;
	char code[64], *first, *again;
	int ins = -1;

	put_task(f->st, "local/big");
	/* 100 candidates before: the import adds far more */
	assert_int_equal(store_begin(f->st, &err), 0);
	for (int i = 0; i < 100; i++) {
		snprintf(code, sizeof code, "module before%d; endmodule\n", i);
		free(add_cand(f->st, "local/big", "m", code, &ins));
	}
	assert_int_equal(store_commit(f->st, &err), 0);
	first = add_cand(f->st, "local/big", "m", "module before0; endmodule\n",
	    &ins);
	assert_int_equal(ins, 0);
	assert_int_equal(store_import_begin(f->st, &err), 0);
	for (int i = 0; i < 5000; i++) {
		snprintf(code, sizeof code, "module big%d; endmodule\n", i);
		free(add_cand(f->st, "local/big", "m", code, &ins));
		assert_int_equal(ins, 1);
	}
	/* past the switch: an old and a new identity are found */
	again = add_cand(f->st, "local/big", "m", "module before0; endmodule\n",
	    &ins);
	assert_int_equal(ins, 0);
	assert_string_equal(again, first);
	free(again);
	free(add_cand(f->st, "local/big", "m", "module big4999; endmodule\n",
	    &ins));
	assert_int_equal(ins, 0);
	/* an explicit id that is taken, for a new identity */
	make_cand(&c, "local/big", "m", "module taken; endmodule\n");
	c.id = xstrdup(first);
	assert_int_equal(store_candidate_add(f->st, &c, &ins, &err), -1);
	assert_non_null(strstr(err.msg, "already taken"));
	candidate_release(&c);
	/* a row rolled back: its identity is new again afterwards */
	assert_int_equal(store_savepoint(f->st, &err), 0);
	free(add_cand(f->st, "local/big", "m", "module gone; endmodule\n",
	    &ins));
	assert_int_equal(ins, 1);
	store_savepoint_end(f->st, 0);
	assert_int_equal(store_savepoint(f->st, &err), 0);
	free(add_cand(f->st, "local/big", "m", "module other; endmodule\n",
	    &ins));
	store_savepoint_end(f->st, 1);
	free(add_cand(f->st, "local/big", "m", "module gone; endmodule\n",
	    &ins));
	assert_int_equal(ins, 1);
	assert_int_equal(store_import_publish(f->st, &err), 0);
	assert_int_equal(store_commit(f->st, &err), 0);
	assert_int_equal(count(f->st, NULL), 5102);
	assert_int_equal(count(f->st, "task=local/big"), 5102);
	assert_int_equal(sql_int(f->db, "SELECT count(*) FROM sqlite_schema"
	    " WHERE name IN ('candidate_ident', 'candidate_task',"
	    " 'candidate_parent', 'queue_task', 'queue_origin',"
	    " 'queue_task_stats', 'queue_origin_stats', 'queue_verdict')"), 8);
	assert_int_equal(sql_int(f->db, "SELECT count(DISTINCT ident) FROM"
	    " candidate"), 5102);
	assert_int_equal(sql_int(f->db, "SELECT count(*) FROM pragma_integrity_check"
	    " WHERE integrity_check = 'ok'"), 1);
	/* the identity index is back: a duplicate is found by it */
	again = add_cand(f->st, "local/big", "m", "module big17; endmodule\n",
	    &ins);
	assert_int_equal(ins, 0);
	free(again);
	free(first);
}

static void
test_store_candidate_needs_existing_task(void **state)
{
	struct fx *f = *state;
	struct candidate c;
	struct err err;
	int ins = -1;

	/* Foreign keys are on: a candidate of no task is refused. */
	make_cand(&c, "local/missing", "gpt-4", "code");
	err_clear(&err);
	assert_int_equal(store_candidate_add(f->st, &c, &ins, &err), -1);
	assert_int_equal(ins, 0);
	assert_non_null(strstr(err.msg, "FOREIGN KEY"));
	candidate_release(&c);
	assert_int_equal(count(f->st, NULL), 0);
}

static void
test_store_candidate_resolve_prefix(void **state)
{
	struct fx *f = *state;
	const char *ids[] = { "cabc", "cabcd", "cabd", "cf00" };
	char *out = NULL;
	struct err err;

	put_task(f->st, "local/t1");
	for (size_t i = 0; i < 4; i++) {
		struct candidate c;
		char code[16];
		int ins;

		snprintf(code, sizeof code, "code %zu", i);
		make_cand(&c, "local/t1", "m", code);
		c.id = xstrdup(ids[i]);	/* explicit ids are kept */
		assert_int_equal(store_candidate_add(f->st, &c, &ins, &err), 0);
		assert_int_equal(ins, 1);
		assert_string_equal(c.id, ids[i]);
		candidate_release(&c);
	}
	assert_int_equal(store_candidate_resolve(f->st, "cf", &out, &err), 0);
	assert_string_equal(out, "cf00");
	free(out);
	assert_int_equal(store_candidate_resolve(f->st, "cabd", &out, &err), 0);
	assert_string_equal(out, "cabd");
	free(out);
	/* An exact id wins over longer ids it is a prefix of. */
	assert_int_equal(store_candidate_resolve(f->st, "cabc", &out, &err), 0);
	assert_string_equal(out, "cabc");
	free(out);
	out = (char *)"untouched";
	assert_int_equal(store_candidate_resolve(f->st, "cab", &out, &err), 2);
	assert_null(out);
	assert_int_equal(store_candidate_resolve(f->st, "c", &out, &err), 2);
	assert_null(out);
	assert_int_equal(store_candidate_resolve(f->st, "cz", &out, &err), 1);
	assert_null(out);
	assert_int_equal(store_candidate_resolve(f->st, "cabcde", &out, &err),
	    1);
	assert_null(out);
}

static void
test_store_recorded_kept_verbatim(void **state)
{
	struct fx *f = *state;
	struct recorded r = { 0 }, *got;
	struct err err;
	size_t n = 9;
	char *id;

	put_task(f->st, "local/t1");
	id = add_cand(f->st, "local/t1", "m", "code", NULL);
	r.verdict = (char *)"fail";
	r.stage = (char *)"compile";
	r.log = (char *)"x.sv:3: syntax error\n  \t\n";
	r.extra = (char *)"{\"compiler_error\":null}";
	assert_int_equal(store_recorded_add(f->st, id, &r, &err), 0);
	assert_int_equal(store_recorded_list(f->st, id, &got, &n, &err), 0);
	assert_int_equal(n, 1);
	assert_string_equal(got[0].verdict, "fail");
	assert_string_equal(got[0].stage, "compile");
	assert_string_equal(got[0].log, "x.sv:3: syntax error\n  \t\n");
	assert_string_equal(got[0].extra, "{\"compiler_error\":null}");
	recorded_release(&got[0]);
	free(got);
	free(id);
}

/* --- decisions and the journal --------------------------------------- */

static void
test_store_label_undo_redo_through_journal(void **state)
{
	struct fx *f = *state;
	struct err err;
	char what[256], want[256], *id;

	put_task(f->st, "local/t1");
	id = add_cand(f->st, "local/t1", "m", "code", NULL);
	assert_int_equal(store_undo(f->st, "ann", what, sizeof what, &err), 1);
	assert_string_equal(what, "nothing to undo by ann");
	assert_int_equal(store_redo(f->st, "ann", what, sizeof what, &err), 1);
	assert_string_equal(what, "nothing to redo by ann");

	label(f->st, id, "functional");			/* A */
	label(f->st, id, "compile");			/* B */
	assert_category(f->st, id, "compile");

	assert_int_equal(store_undo(f->st, "ann", what, sizeof what, &err), 0);
	snprintf(want, sizeof want, "undid label compile of %s", id);
	assert_string_equal(what, want);
	assert_category(f->st, id, "functional");
	assert_int_equal(store_undo(f->st, "ann", what, sizeof what, &err), 0);
	assert_category(f->st, id, NULL);
	assert_int_equal(store_undo(f->st, "ann", what, sizeof what, &err), 1);
	assert_category(f->st, id, NULL);

	assert_int_equal(store_redo(f->st, "ann", what, sizeof what, &err), 0);
	snprintf(want, sizeof want, "redid label functional of %s", id);
	assert_string_equal(what, want);
	assert_category(f->st, id, "functional");

	/* A new decision ends the redo chain. */
	label(f->st, id, "format");
	assert_int_equal(store_redo(f->st, "ann", what, sizeof what, &err), 1);
	assert_category(f->st, id, "format");
	assert_int_equal(store_undo(f->st, "ann", what, sizeof what, &err), 0);
	assert_category(f->st, id, "functional");
	free(id);
}

static void
test_store_redo_replays_in_order(void **state)
{
	struct fx *f = *state;
	struct err err;
	char *id;

	put_task(f->st, "local/t1");
	id = add_cand(f->st, "local/t1", "m", "code", NULL);
	label(f->st, id, "functional");
	label(f->st, id, "compile");
	assert_int_equal(store_undo(f->st, "ann", NULL, 0, &err), 0);
	assert_int_equal(store_undo(f->st, "ann", NULL, 0, &err), 0);
	assert_category(f->st, id, NULL);
	assert_int_equal(store_redo(f->st, "ann", NULL, 0, &err), 0);
	assert_category(f->st, id, "functional");
	assert_int_equal(store_redo(f->st, "ann", NULL, 0, &err), 0);
	assert_category(f->st, id, "compile");
	assert_int_equal(store_redo(f->st, "ann", NULL, 0, &err), 1);
	assert_category(f->st, id, "compile");

	/* Undo after redo steps back again, and redo after that forward. */
	assert_int_equal(store_undo(f->st, "ann", NULL, 0, &err), 0);
	assert_category(f->st, id, "functional");
	assert_int_equal(store_undo(f->st, "ann", NULL, 0, &err), 0);
	assert_category(f->st, id, NULL);
	assert_int_equal(store_undo(f->st, "ann", NULL, 0, &err), 1);
	assert_int_equal(store_redo(f->st, "ann", NULL, 0, &err), 0);
	assert_category(f->st, id, "functional");
	assert_int_equal(store_redo(f->st, "ann", NULL, 0, &err), 0);
	assert_category(f->st, id, "compile");
	assert_int_equal(store_redo(f->st, "ann", NULL, 0, &err), 1);
	free(id);
}

static void
test_store_undo_spans_labels_and_reviews(void **state)
{
	struct fx *f = *state;
	struct err err;
	char *a, *b;

	put_task(f->st, "local/t1");
	a = add_cand(f->st, "local/t1", "m", "code a", NULL);
	b = add_cand(f->st, "local/t1", "m", "code b", NULL);
	assert_status(f->st, a, "unreviewed");
	review(f->st, a, "accepted");
	label(f->st, b, "compile");
	review(f->st, a, "rejected");
	assert_status(f->st, a, "rejected");

	assert_int_equal(store_undo(f->st, "ann", NULL, 0, &err), 0);
	assert_status(f->st, a, "accepted");
	assert_category(f->st, b, "compile");
	assert_int_equal(store_undo(f->st, "ann", NULL, 0, &err), 0);
	assert_category(f->st, b, NULL);
	assert_status(f->st, a, "accepted");
	assert_int_equal(store_undo(f->st, "ann", NULL, 0, &err), 0);
	assert_status(f->st, a, "unreviewed");
	assert_int_equal(store_undo(f->st, "ann", NULL, 0, &err), 1);
	free(a);
	free(b);
}

static void
test_store_bad_decisions_are_refused(void **state)
{
	struct fx *f = *state;
	struct store_event *ev;
	struct err err;
	size_t n;
	char *id;

	put_task(f->st, "local/t1");
	id = add_cand(f->st, "local/t1", "m", "code", NULL);
	assert_int_equal(store_label_set(f->st, id, "vibes", NULL, NULL, "ann",
	    0, NULL, &err), -1);
	assert_int_equal(store_review_set(f->st, id, "maybe", NULL, "ann",
	    &err), -1);
	assert_int_equal(store_label_set(f->st, "cnothere", "compile", NULL,
	    NULL, "ann", 0, NULL, &err), -1);
	assert_category(f->st, id, NULL);
	assert_status(f->st, id, "unreviewed");
	/* Nothing of a refused decision reaches the journal. */
	assert_int_equal(store_event_list(f->st, NULL, &ev, &n, &err), 0);
	assert_int_equal(n, 0);
	free(ev);
	free(id);
}

/* store_claim()'s gone: says holder "a:1" is dead. */
static int
a1_gone(const char *holder)
{
	return strcmp(holder, "a:1") == 0;
}

/* Issue 10, item 14: a claim keeps a candidate to one verify; a claim
 * that expired (ttl 0: already) is anyone's, and so is one whose holder
 * gone says is dead. */
static void
test_store_claims(void **state)
{
	struct fx *f = *state;
	struct err err;
	int got;
	char *id;

	put_task(f->st, "local/t1");
	id = add_cand(f->st, "local/t1", "m", "code", NULL);
	assert_int_equal(store_claim(f->st, id,
	    "a:1", 60, NULL, &got, &err), 0);
	assert_int_equal(got, 1);
	assert_int_equal(store_claim(f->st, id,
	    "a:1", 60, NULL, &got, &err), 0);
	assert_int_equal(got, 1);		/* its own again */
	assert_int_equal(store_claim(f->st, id,
	    "b:2", 60, NULL, &got, &err), 0);
	assert_int_equal(got, 0);		/* a's stands */
	assert_int_equal(store_claim_release(f->st, id, "b:2", &err), 0);
	assert_int_equal(store_claim(f->st, id,
	    "b:2", 60, NULL, &got, &err), 0);
	assert_int_equal(got, 0);		/* b cannot drop a's */
	assert_int_equal(store_claim_release(f->st, NULL, "a:1", &err), 0);
	assert_int_equal(store_claim(f->st, id,
	    "b:2", 0, NULL, &got, &err), 0);
	assert_int_equal(got, 1);
	/* b's claim expired at once (as a killed verify's would): a's */
	assert_int_equal(store_claim(f->st, id,
	    "a:1", 60, NULL, &got, &err), 0);
	assert_int_equal(got, 1);
	assert_int_equal(store_claims_renew(f->st, "a:1", 60, &err), 0);
	assert_int_equal(store_claim(f->st, id,
	    "b:2", 60, NULL, &got, &err), 0);
	assert_int_equal(got, 0);
	/* a is dead: its unexpired claim is b's at once */
	assert_int_equal(store_claim(f->st, id,
	    "b:2", 60, a1_gone, &got, &err), 0);
	assert_int_equal(got, 1);
	/* b is not gone: a cannot take it back with the same test */
	assert_int_equal(store_claim(f->st, id,
	    "a:1", 60, a1_gone, &got, &err), 0);
	assert_int_equal(got, 0);
	free(id);
}

/* Issue 10, item 13: undo and redo are the reviewer's own. */
static void
test_store_undo_is_the_reviewers_own(void **state)
{
	struct fx *f = *state;
	struct err err;
	char what[256], *a, *b;

	put_task(f->st, "local/t1");
	a = add_cand(f->st, "local/t1", "m", "code a", NULL);
	b = add_cand(f->st, "local/t1", "m", "code b", NULL);
	label(f->st, a, "compile");			/* ann */
	assert_int_equal(store_label_set(f->st, b, "api", NULL, NULL, "bob",
	    0, NULL, &err), 0);
	/* ann's undo takes ann's label, not bob's newer one */
	assert_int_equal(store_undo(f->st, "ann", what, sizeof what, &err), 0);
	assert_category(f->st, a, NULL);
	assert_category(f->st, b, "api");
	assert_int_equal(store_undo(f->st, "ann", what, sizeof what, &err), 1);
	assert_category(f->st, b, "api");
	/* bob's redo has nothing of his to redo; ann's redo gives hers */
	assert_int_equal(store_redo(f->st, "bob", what, sizeof what, &err), 1);
	assert_int_equal(store_redo(f->st, "ann", what, sizeof what, &err), 0);
	assert_category(f->st, a, "compile");
	/* bob decides over ann's label: ann's undo is refused */
	assert_int_equal(store_label_set(f->st, a, "format", NULL, NULL, "bob",
	    0, NULL, &err), 0);
	assert_int_equal(store_undo(f->st, "ann", what, sizeof what, &err), -1);
	assert_non_null(strstr(err.msg, "someone else decided it since"));
	assert_category(f->st, a, "format");
	/* --any: the newest of anyone's */
	assert_int_equal(store_undo_any(f->st, "ann", what, sizeof what, &err),
	    0);
	assert_category(f->st, a, "compile");
	free(a);
	free(b);
}

static void
test_store_journal_lists_decisions(void **state)
{
	struct fx *f = *state;
	struct store_event *ev;
	struct err err;
	size_t n;
	char *id;

	put_task(f->st, "local/t1");
	id = add_cand(f->st, "local/t1", "m", "code", NULL);
	assert_int_equal(store_label_set(f->st, id, "functional", "mismatch",
	    "wrong reset", "ann", 0, "Hint: Output 'q'", &err), 0);
	review(f->st, id, "accepted");
	assert_int_equal(store_undo_any(f->st, "bob", NULL, 0, &err), 0);
	assert_int_equal(store_event_add(f->st, "cli", "verify", id, "2 runs",
	    &err), 0);
	assert_int_equal(store_event_list(f->st, id, &ev, &n, &err), 0);
	assert_int_equal(n, 4);
	assert_string_equal(ev[0].action, "label");
	assert_string_equal(ev[0].who, "ann");
	assert_string_equal(ev[0].detail, "label functional/mismatch");
	assert_string_equal(ev[1].action, "review");
	assert_string_equal(ev[1].detail, "review accepted");
	assert_string_equal(ev[2].action, "undo");
	assert_string_equal(ev[2].who, "bob");
	assert_string_equal(ev[3].action, "verify");
	assert_string_equal(ev[3].detail, "2 runs");
	assert_true(ev[0].id < ev[1].id && ev[1].id < ev[2].id &&
	    ev[2].id < ev[3].id);
	assert_true(ev[0].at > 1600000000);
	for (size_t i = 0; i < n; i++)
		store_event_release(&ev[i]);
	free(ev);
	free(id);
}

static void
test_store_decisions_survive_reopen(void **state)
{
	struct fx *f = *state;
	struct store_decision d;
	struct err err;
	char *id;

	put_task(f->st, "local/t1");
	id = add_cand(f->st, "local/t1", "m", "code", NULL);
	assert_int_equal(store_label_set(f->st, id, "api", "port", "n", "ann",
	    0, NULL, &err), 0);
	label(f->st, id, "compile");
	review(f->st, id, "flagged");
	reopen(f);
	assert_int_equal(store_decision_get(f->st, id, &d, &err), 0);
	assert_string_equal(d.category, "compile");
	assert_null(d.subcategory);
	assert_string_equal(d.label_by, "ann");
	assert_string_equal(d.status, "flagged");
	assert_string_equal(d.review_by, "ann");
	store_decision_release(&d);
	/* The journal survives too: undo goes on after the reopen. */
	assert_int_equal(store_undo(f->st, "ann", NULL, 0, &err), 0);
	assert_status(f->st, id, "unreviewed");
	assert_int_equal(store_undo(f->st, "ann", NULL, 0, &err), 0);
	assert_int_equal(store_decision_get(f->st, id, &d, &err), 0);
	assert_string_equal(d.category, "api");
	assert_string_equal(d.subcategory, "port");
	assert_string_equal(d.label_note, "n");
	store_decision_release(&d);
	free(id);
}

static void
test_store_decision_survives_killed_process(void **state)
{
	struct fx *f = *state;
	char *id;
	pid_t pid;
	int status;

	put_task(f->st, "local/t1");
	id = add_cand(f->st, "local/t1", "m", "code", NULL);
	store_close(f->st);
	f->st = NULL;
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct store *st;
		struct err err;

		if (store_open(&st, f->db, &err) < 0 ||
		    store_label_set(st, id, "functional", NULL, NULL, "ann", 0,
		    NULL, &err) < 0 ||
		    store_review_set(st, id, "rejected", NULL, "ann", &err) < 0)
			_exit(3);
		raise(SIGKILL);		/* no close, no checkpoint */
		_exit(4);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGKILL);
	reopen(f);
	assert_category(f->st, id, "functional");
	assert_status(f->st, id, "rejected");
	free(id);
}

/* --- the queue -------------------------------------------------------- */

/* Five candidates: c[0..4] in import order, with a run, labels and a
 * review on some. */
static void
queue_fixture(struct fx *f, char *ids[5])
{
	struct run r;
	struct err err;

	put_task(f->st, "local/alu");
	put_task(f->st, "local/mux");
	ids[0] = add_cand(f->st, "local/alu", "gpt-4", "a0", NULL);
	ids[1] = add_cand(f->st, "local/mux", "gpt-4", "m1", NULL);
	ids[2] = add_cand(f->st, "local/alu", "codellama", "a2", NULL);
	ids[3] = add_cand(f->st, "local/mux", "reference", "m3", NULL);
	ids[4] = add_cand(f->st, "local/alu", "gpt-4", "a4", NULL);
	/* A run with a suggested category on 1, a run that passed on 3. */
	memset(&r, 0, sizeof r);
	r.cand_id = xstrdup(ids[1]);
	r.env = xstrdup("iverilog");
	r.verdict = xstrdup("fail");
	r.stage = xstrdup("compile");
	r.category = xstrdup("compile");
	r.subcategory = xstrdup("syntax-error");
	assert_int_equal(store_run_add(f->st, &r, &err), 0);
	run_release(&r);
	memset(&r, 0, sizeof r);
	r.cand_id = xstrdup(ids[3]);
	r.env = xstrdup("iverilog");
	r.verdict = xstrdup("pass");
	r.stage = xstrdup("simulate");
	r.metrics = xstrdup("{\"mismatches\":0,\"total\":20}");
	assert_int_equal(store_run_add(f->st, &r, &err), 0);
	run_release(&r);
	label(f->st, ids[2], "functional");
	review(f->st, ids[3], "accepted");
	review(f->st, ids[4], "rejected");
}

static void
free_ids(char *ids[5])
{
	for (size_t i = 0; i < 5; i++)
		free(ids[i]);
}

static void
test_store_queue_filter(void **state)
{
	struct fx *f = *state;
	char *ids[5];
	struct store_row *rows;
	struct err err;
	size_t n;

	queue_fixture(f, ids);
	assert_int_equal(count(f->st, NULL), 5);
	assert_int_equal(count(f->st, ""), 5);
	assert_int_equal(count(f->st, "  "), 5);
	assert_int_equal(count(f->st, "status=accepted"), 1);
	assert_int_equal(count(f->st, "status=unreviewed"), 3);
	assert_int_equal(count(f->st, "status!=unreviewed"), 2);
	assert_int_equal(count(f->st, "verdict=none"), 3);
	assert_int_equal(count(f->st, "verdict!=none"), 2);
	assert_int_equal(count(f->st, "verdict=pass"), 1);
	/* The run's suggestion counts until a reviewer labels. */
	assert_int_equal(count(f->st, "category~comp"), 1);
	assert_int_equal(count(f->st, "category~COMP"), 1);
	assert_int_equal(count(f->st, "category=functional"), 1);
	assert_int_equal(count(f->st, "category=none"), 3);
	assert_int_equal(count(f->st, "task=local/alu origin=gpt-4"), 2);
	assert_int_equal(count(f->st, "model=codellama"), 1);
	assert_int_equal(count(f->st, "task~mux status=accepted"), 1);
	assert_int_equal(count(f->st, "benchmark=local env=iverilog"), 5);
	assert_int_equal(count(f->st, "origin=nobody"), 0);

	assert_int_equal(store_query_page(f->st, "category~comp", 0, 10, &rows,
	    &n, &err), 0);
	assert_int_equal(n, 1);
	assert_string_equal(rows[0].id, ids[1]);
	assert_string_equal(rows[0].verdict, "fail");
	assert_string_equal(rows[0].stage, "compile");
	assert_string_equal(rows[0].category, "compile");
	assert_string_equal(rows[0].subcategory, "syntax-error");
	assert_string_equal(rows[0].category_source, "auto");
	assert_string_equal(rows[0].status, "unreviewed");
	store_row_release(&rows[0]);
	free(rows);

	assert_int_equal(store_query_page(f->st, "status=accepted", 0, 10,
	    &rows, &n, &err), 0);
	assert_int_equal(n, 1);
	assert_string_equal(rows[0].id, ids[3]);
	assert_string_equal(rows[0].origin, "reference");
	assert_string_equal(rows[0].task, "local/mux");
	assert_string_equal(rows[0].metrics, "{\"mismatches\":0,\"total\":20}");
	assert_string_equal(rows[0].reviewed_by, "ann");
	assert_null(rows[0].category);
	store_row_release(&rows[0]);
	free(rows);

	assert_int_equal(store_query_page(f->st, "category=functional", 0, 10,
	    &rows, &n, &err), 0);
	assert_int_equal(n, 1);
	assert_string_equal(rows[0].category_source, "ann");
	store_row_release(&rows[0]);
	free(rows);
	free_ids(ids);
}

static void
test_store_queue_bad_filter_names_predicate(void **state)
{
	struct fx *f = *state;
	struct err err;
	size_t n = 77;
	char *ids[5];

	queue_fixture(f, ids);
	err_clear(&err);
	assert_int_equal(store_query_count(f->st, "status=accepted colour=red",
	    &n, &err), -1);
	assert_non_null(strstr(err.msg, "'colour'"));
	err_clear(&err);
	assert_int_equal(store_query_count(f->st, "status", &n, &err), -1);
	assert_non_null(strstr(err.msg, "'status'"));
	err_clear(&err);
	assert_int_equal(store_query_count(f->st, "=x", &n, &err), -1);
	assert_non_null(strstr(err.msg, "'=x'"));
	err_clear(&err);
	{
		struct store_row *rows = NULL;

		assert_int_equal(store_query_page(f->st, "verdikt=pass", 0, 5,
		    &rows, &n, &err), -1);
		assert_non_null(strstr(err.msg, "'verdikt'"));
		assert_null(rows);
	}
	free_ids(ids);
}

static void
test_store_queue_paging_and_index(void **state)
{
	struct fx *f = *state;
	struct store_row *rows;
	struct err err;
	size_t n, idx;
	char *ids[5];

	queue_fixture(f, ids);
	assert_int_equal(store_query_page(f->st, NULL, 1, 2, &rows, &n, &err),
	    0);
	assert_int_equal(n, 2);
	assert_string_equal(rows[0].id, ids[1]);
	assert_string_equal(rows[1].id, ids[2]);
	assert_true(rows[0].seq < rows[1].seq);
	for (size_t i = 0; i < n; i++)
		store_row_release(&rows[i]);
	free(rows);

	assert_int_equal(store_query_page(f->st, NULL, 4, 10, &rows, &n, &err),
	    0);
	assert_int_equal(n, 1);
	assert_string_equal(rows[0].id, ids[4]);
	store_row_release(&rows[0]);
	free(rows);

	assert_int_equal(store_query_page(f->st, NULL, 5, 10, &rows, &n, &err),
	    0);
	assert_int_equal(n, 0);
	free(rows);

	/* Filtered pages are in import order too. */
	assert_int_equal(store_query_page(f->st, "task=local/alu", 1, 5, &rows,
	    &n, &err), 0);
	assert_int_equal(n, 2);
	assert_string_equal(rows[0].id, ids[2]);
	assert_string_equal(rows[1].id, ids[4]);
	for (size_t i = 0; i < n; i++)
		store_row_release(&rows[i]);
	free(rows);

	assert_int_equal(store_query_index(f->st, NULL, ids[3], &idx, &err), 0);
	assert_int_equal(idx, 3);
	assert_int_equal(store_query_index(f->st, "task=local/alu", ids[4], &idx,
	    &err), 0);
	assert_int_equal(idx, 2);
	assert_int_equal(store_query_index(f->st, "task=local/alu", ids[0], &idx,
	    &err), 0);
	assert_int_equal(idx, 0);
	assert_int_equal(store_query_index(f->st, "task=local/alu", ids[3], &idx,
	    &err), -1);
	assert_int_equal(store_query_index(f->st, NULL, "cnothere", &idx, &err),
	    -1);
	free_ids(ids);
}

static int
collect_cb(const struct store_row *row, void *arg)
{
	struct buf *b = arg;

	buf_printf(b, "%s,", row->origin);
	return strcmp(row->origin, "reference") == 0 ? 7 : 0;
}

static void
test_store_query_each_visits_in_order_and_stops(void **state)
{
	struct fx *f = *state;
	struct buf b = BUF_INIT;
	struct err err;
	char *ids[5];

	queue_fixture(f, ids);
	assert_int_equal(store_query_each(f->st, NULL, collect_cb, &b, &err), 7);
	assert_string_equal(buf_str(&b), "gpt-4,gpt-4,codellama,reference,");
	buf_reset(&b);
	assert_int_equal(store_query_each(f->st, "origin!=reference", collect_cb,
	    &b, &err), 0);
	assert_string_equal(buf_str(&b), "gpt-4,gpt-4,codellama,gpt-4,");
	buf_release(&b);
	free_ids(ids);
}

/* --- runs ------------------------------------------------------------- */

static void
test_store_run_round_trip(void **state)
{
	struct fx *f = *state;
	static const char log[] = "cand.sv:3: syntax error\n\0binary\n";
	struct run r, got, *list;
	struct err err;
	size_t n;
	char *id;

	put_task(f->st, "local/t1");
	id = add_cand(f->st, "local/t1", "m", "code", NULL);
	assert_int_equal(store_run_latest(f->st, id, &got, &err), 1);

	memset(&r, 0, sizeof r);
	r.cand_id = xstrdup(id);
	r.env = xstrdup("iverilog");
	r.verdict = xstrdup("fail");
	r.stage = xstrdup("simulate");
	r.subcategory = xstrdup("mismatch");
	r.category = xstrdup("functional");
	r.evidence = xstrdup("Hint: Output 'q' has 41 mismatches.");
	r.command = xstrdup("cd /w\niverilog -o sim x.sv\nvvp -n sim");
	r.toolchain = xstrdup("Icarus Verilog version 11.0 (stable)");
	r.inputs = xstrdup("{\"candidate.sv\":\"ab\"}");
	snprintf(r.input_key, sizeof r.input_key, "%064d", 7);
	r.metrics = xstrdup("{\"mismatches\":41,\"total\":432}");
	r.feedback = xstrdup("{\"counterexample\":{\"step\":3}}");
	r.wave = xmalloc(5);
	memcpy(r.wave, "#0\n\0x", 5);	/* a blob: the NUL is kept */
	r.wave_len = 5;
	r.exit_code = 0;
	r.wall_ms = 25;
	r.started = 1700000000;
	r.log = xmalloc(sizeof log);
	memcpy(r.log, log, sizeof log);
	r.log_len = sizeof log - 1;
	run_add_diag(&r, "candidate.sv", 3, 0, "error", "syntax error", 3);
	run_add_diag(&r, "tb.sv", 9, 2, "warning", "w \"quoted\"", 0);
	assert_int_equal(store_run_add(f->st, &r, &err), 0);
	assert_true(r.id > 0);

	assert_int_equal(store_run_latest(f->st, id, &got, &err), 0);
	assert_int_equal(got.id, r.id);
	assert_string_equal(got.cand_id, id);
	assert_string_equal(got.env, "iverilog");
	assert_string_equal(got.verdict, "fail");
	assert_string_equal(got.stage, "simulate");
	assert_string_equal(got.subcategory, "mismatch");
	assert_string_equal(got.category, "functional");
	assert_string_equal(got.evidence, r.evidence);
	assert_string_equal(got.command, r.command);
	assert_string_equal(got.toolchain, r.toolchain);
	assert_string_equal(got.inputs, r.inputs);
	assert_string_equal(got.input_key, r.input_key);
	assert_string_equal(got.metrics, "{\"mismatches\":41,\"total\":432}");
	assert_string_equal(got.feedback, "{\"counterexample\":{\"step\":3}}");
	assert_int_equal(got.wave_len, 5);
	assert_memory_equal(got.wave, "#0\n\0x", 5);
	assert_int_equal(got.exit_code, 0);
	assert_int_equal(got.wall_ms, 25);
	assert_int_equal(got.started, 1700000000);
	assert_int_equal(got.log_len, sizeof log - 1);
	assert_memory_equal(got.log, log, sizeof log - 1);
	assert_int_equal(got.ndiags, 2);
	assert_string_equal(got.diags[0].file, "candidate.sv");
	assert_int_equal(got.diags[0].line, 3);
	assert_int_equal(got.diags[0].col, 0);
	assert_string_equal(got.diags[0].severity, "error");
	assert_string_equal(got.diags[0].message, "syntax error");
	assert_int_equal(got.diags[0].cand_line, 3);
	assert_string_equal(got.diags[1].file, "tb.sv");
	assert_int_equal(got.diags[1].line, 9);
	assert_int_equal(got.diags[1].col, 2);
	assert_string_equal(got.diags[1].severity, "warning");
	assert_string_equal(got.diags[1].message, "w \"quoted\"");
	assert_int_equal(got.diags[1].cand_line, 0);
	run_release(&got);

	/* A second run becomes the latest; the list keeps both in order. */
	free(r.verdict);
	r.verdict = xstrdup("pass");
	free(r.metrics);
	r.metrics = NULL;
	free(r.feedback);
	r.feedback = NULL;
	free(r.wave);
	r.wave = NULL;
	r.wave_len = 0;
	assert_int_equal(store_run_add(f->st, &r, &err), 0);
	assert_int_equal(store_run_latest(f->st, id, &got, &err), 0);
	assert_string_equal(got.verdict, "pass");
	assert_null(got.metrics);
	assert_null(got.feedback);
	assert_null(got.wave);
	run_release(&got);
	assert_int_equal(store_run_list(f->st, id, &list, &n, &err), 0);
	assert_int_equal(n, 2);
	assert_string_equal(list[0].verdict, "fail");
	assert_string_equal(list[1].verdict, "pass");
	assert_true(list[0].id < list[1].id);
	run_release(&list[0]);
	run_release(&list[1]);
	free(list);
	assert_int_equal(count(f->st, "verdict=pass"), 1);

	/* A verdict outside the list, or a run of no candidate, is refused. */
	free(r.verdict);
	r.verdict = xstrdup("great");
	assert_int_equal(store_run_add(f->st, &r, &err), -1);
	free(r.verdict);
	r.verdict = xstrdup("fail");
	free(r.cand_id);
	r.cand_id = xstrdup("cnothere");
	assert_int_equal(store_run_add(f->st, &r, &err), -1);
	run_release(&r);
	assert_int_equal(store_run_list(f->st, id, &list, &n, &err), 0);
	assert_int_equal(n, 2);
	for (size_t i = 0; i < n; i++)
		run_release(&list[i]);
	free(list);
	free(id);
}

static void
test_store_rollback_discards_batch(void **state)
{
	struct fx *f = *state;
	struct err err;
	struct task t;

	assert_int_equal(store_begin(f->st, &err), 0);
	put_task(f->st, "local/t1");
	free(add_cand(f->st, "local/t1", "m", "code", NULL));
	store_rollback(f->st);
	assert_int_equal(count(f->st, NULL), 0);
	assert_int_equal(store_task_get(f->st, "local/t1", &t, &err), 1);

	assert_int_equal(store_begin(f->st, &err), 0);
	put_task(f->st, "local/t1");
	free(add_cand(f->st, "local/t1", "m", "code", NULL));
	assert_int_equal(store_commit(f->st, &err), 0);
	reopen(f);
	assert_int_equal(count(f->st, NULL), 1);
}

/* --- statistics and full-text search --------------------------------- */

/* Check cell i of a store_stats answer. */
static void
assert_stat(const struct store_stat *c, const char *group,
    const char *verdict, const char *category, const char *sub, size_t n)
{
	assert_string_equal(c->group, group);
	if (verdict == NULL)
		assert_null(c->verdict);
	else
		assert_string_equal(c->verdict, verdict);
	if (category == NULL)
		assert_null(c->category);
	else
		assert_string_equal(c->category, category);
	if (sub == NULL)
		assert_null(c->subcategory);
	else
		assert_string_equal(c->subcategory, sub);
	assert_int_equal(c->count, n);
}

static void
free_stats(struct store_stat *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		store_stat_release(&v[i]);
	free(v);
}

static void
test_store_stats_counts_by_group(void **state)
{
	struct fx *f = *state;
	struct store_stat *v;
	struct err err;
	char *ids[5];
	size_t n;

	queue_fixture(f, ids);
	/* by benchmark: never run (2), labelled functional without a run,
	 * the failed run's suggestion, the pass; NULLs sort first */
	assert_int_equal(store_stats(f->st, NULL, "benchmark", &v, &n, &err),
	    0);
	assert_int_equal(n, 4);
	assert_stat(&v[0], "local", NULL, NULL, NULL, 2);
	assert_stat(&v[1], "local", NULL, "functional", NULL, 1);
	assert_stat(&v[2], "local", "fail", "compile", "syntax-error", 1);
	assert_stat(&v[3], "local", "pass", NULL, NULL, 1);
	free_stats(v, n);

	/* by model, under a filter: the rejected gpt-4 candidate is out */
	assert_int_equal(store_stats(f->st, "status!=rejected", "model", &v,
	    &n, &err), 0);
	assert_int_equal(n, 4);
	assert_stat(&v[0], "codellama", NULL, "functional", NULL, 1);
	assert_stat(&v[1], "gpt-4", NULL, NULL, NULL, 1);
	assert_stat(&v[2], "gpt-4", "fail", "compile", "syntax-error", 1);
	assert_stat(&v[3], "reference", "pass", NULL, NULL, 1);
	free_stats(v, n);

	assert_int_equal(store_stats(f->st, "origin=nobody", "domain", &v, &n,
	    &err), 0);
	assert_int_equal(n, 0);
	free(v);

	assert_int_equal(store_stats(f->st, NULL, "colour", &v, &n, &err), -1);
	assert_non_null(strstr(err.msg, "colour"));
	assert_int_equal(store_stats(f->st, "verdict=PASS", "benchmark", &v,
	    &n, &err), -1);
	assert_non_null(strstr(err.msg, "PASS"));
	free_ids(ids);
}

static void
add_run_log(struct store *st, const char *id, const char *log)
{
	struct run r;
	struct err err;

	memset(&r, 0, sizeof r);
	r.cand_id = xstrdup(id);
	r.env = xstrdup("iverilog");
	r.verdict = xstrdup("fail");
	r.stage = xstrdup("simulate");
	r.log = xstrdup(log);
	r.log_len = strlen(log);
	if (store_run_add(st, &r, &err) < 0)
		fail_msg("store_run_add: %s", err.msg);
	run_release(&r);
}

static void
test_store_grep_full_text(void **state)
{
	struct fx *f = *state;
	struct recorded rec = { NULL, NULL, NULL, NULL };
	struct store_row *rows;
	struct err err;
	char *a, *b, *c;
	size_t n;

	put_task(f->st, "local/cnt");
	put_task(f->st, "local/gpu");
	a = add_cand(f->st, "local/cnt", "m",
	    "always @(posedge clk) count_0 <= count_0 + 1; // say \"hi\"\n",
	    NULL);
	b = add_cand(f->st, "local/gpu", "m",
	    "__global__ void k(float *x) { __syncthreads(); x[0] = 1; }\n",
	    NULL);
	c = add_cand(f->st, "local/gpu", "n", "int main(void) {}\n", NULL);

	/* a word of a run's log, found once the run is stored */
	assert_int_equal(count(f->st, "grep=Mismatches"), 0);
	add_run_log(f->st, a, "Hint: Output 'q' has 41 Mismatches.\n");
	assert_int_equal(count(f->st, "grep=mismatches"), 1);
	assert_int_equal(store_query_page(f->st, "grep=Mismatches", 0, 10,
	    &rows, &n, &err), 0);
	assert_int_equal(n, 1);
	assert_string_equal(rows[0].id, a);
	store_row_release(&rows[0]);
	free(rows);
	/* and of a recorded log */
	rec.verdict = "fail";
	rec.log = "cand.sv:7: error: Unknown module type: dff_sync";
	assert_int_equal(store_recorded_add(f->st, c, &rec, &err), 0);
	assert_int_equal(count(f->st, "grep=dff_sync"), 1);

	/* identifiers with underscores stay whole */
	assert_int_equal(count(f->st, "grep=__syncthreads"), 1);
	assert_int_equal(count(f->st, "grep=syncthreads"), 0);
	assert_int_equal(count(f->st, "grep=count_0"), 1);
	assert_int_equal(count(f->st, "grep=count"), 0);
	assert_int_equal(count(f->st, "grep=count_0 model=n"), 0);

	/* query syntax in the text is plain text */
	assert_int_equal(count(f->st, "grep=\"count_0 <= count_0\""), 1);
	assert_int_equal(count(f->st, "grep=\"always @(posedge\""), 1);
	assert_int_equal(count(f->st, "grep=(posedge"), 1);
	assert_int_equal(count(f->st, "grep=x[0]"), 1);
	assert_int_equal(count(f->st, "grep=<="), 0);
	assert_int_equal(count(f->st, "grep=-x"), 1);
	assert_int_equal(count(f->st, "grep=\"say \"\"hi\"\"\""), 1);
	assert_int_equal(count(f->st, "grep=NOT"), 0);

	/* the task's spec: every candidate of the task */
	assert_int_equal(count(f->st, "grep=wire"), 3);
	assert_int_equal(count(f->st, "grep=wire task=local/gpu"), 2);
	assert_int_equal(count(f->st, "grep!=__syncthreads"), 2);

	/* kept across a reopen; a bad predicate is an error */
	reopen(f);
	assert_int_equal(count(f->st, "grep=__global__"), 1);
	assert_int_equal(store_query_count(f->st, "grep=", &n, &err), -1);
	assert_non_null(strstr(err.msg, "grep"));
	/* an unterminated quote is an error with its column, not an empty
	 * queue (the quote is the 17th character) */
	assert_int_equal(store_query_count(f->st, "domain=gpu grep=\"a b", &n,
	    &err), -1);
	assert_non_null(strstr(err.msg, "unterminated quote at column 17"));
	assert_int_equal(store_query_count(f->st, "grep=\"say \"\"hi", &n,
	    &err), -1);
	assert_non_null(strstr(err.msg, "column 6"));
	free(a);
	free(b);
	free(c);
}

static void
test_store_batch_undo_redo_all_at_once(void **state)
{
	struct fx *f = *state;
	struct err err;
	char what[256], *a, *b, *c;

	put_task(f->st, "local/t1");
	a = add_cand(f->st, "local/t1", "m", "code a", NULL);
	b = add_cand(f->st, "local/t1", "m", "code b", NULL);
	c = add_cand(f->st, "local/t1", "m", "code c", NULL);
	label(f->st, c, "format");			/* before the batch */
	assert_int_equal(store_batch_begin(f->st, &err), 0);
	label(f->st, a, "compile");
	label(f->st, b, "compile");
	label(f->st, c, "compile");
	assert_int_equal(store_batch_commit(f->st, &err), 0);
	assert_category(f->st, a, "compile");
	assert_category(f->st, c, "compile");

	/* one undo takes the whole batch back, and only it */
	assert_int_equal(store_undo(f->st, "ann", what, sizeof what, &err), 0);
	assert_non_null(strstr(what, "3 candidates"));
	assert_category(f->st, a, NULL);
	assert_category(f->st, b, NULL);
	assert_category(f->st, c, "format");

	/* across a reopen, one redo replays it, one undo takes it back */
	reopen(f);
	assert_int_equal(store_redo(f->st, "ann", NULL, 0, &err), 0);
	assert_category(f->st, a, "compile");
	assert_category(f->st, b, "compile");
	assert_category(f->st, c, "compile");
	assert_int_equal(store_undo(f->st, "ann", NULL, 0, &err), 0);
	assert_category(f->st, b, NULL);
	assert_category(f->st, c, "format");
	assert_int_equal(store_undo(f->st, "ann", NULL, 0, &err), 0);
	assert_category(f->st, c, NULL);
	assert_int_equal(store_undo(f->st, "ann", NULL, 0, &err), 1);
	free(a);
	free(b);
	free(c);
}

/* Whole batches taken back and given again in turn, one of 300 steps
 * (more undone steps than the walk's first table of ids holds): each
 * undo or redo takes exactly one batch, the newest not yet taken. */
static void
test_store_batch_undo_redo_in_turn(void **state)
{
	struct fx *f = *state;
	struct store_step s;
	struct err err;
	char *big[300], *x;
	char code[32];

	put_task(f->st, "local/t1");
	for (size_t i = 0; i < 300; i++) {
		snprintf(code, sizeof code, "code %zu", i);
		big[i] = add_cand(f->st, "local/t1", "m", code, NULL);
	}
	x = add_cand(f->st, "local/t1", "m", "code x", NULL);
	assert_int_equal(store_batch_begin(f->st, &err), 0);
	for (size_t i = 0; i < 300; i++)
		label(f->st, big[i], "functional");
	assert_int_equal(store_batch_commit(f->st, &err), 0);
	assert_int_equal(store_batch_begin(f->st, &err), 0);
	label(f->st, x, "api");
	label(f->st, big[7], "compile");
	assert_int_equal(store_batch_commit(f->st, &err), 0);

	assert_int_equal(store_undo_step(f->st, 0, "ann", 0, &s, &err), 0);
	assert_int_equal(s.count, 2);
	assert_category(f->st, big[7], "functional");
	assert_category(f->st, x, NULL);
	assert_int_equal(store_undo_step(f->st, 0, "ann", 0, &s, &err), 0);
	assert_int_equal(s.count, 300);
	assert_string_equal(s.cand_id, big[0]);
	assert_category(f->st, big[0], NULL);
	assert_category(f->st, big[299], NULL);
	assert_int_equal(store_undo_step(f->st, 0, "ann", 0, &s, &err), 1);

	/* redo gives the older batch back first, oldest step named */
	assert_int_equal(store_undo_step(f->st, 1, "ann", 0, &s, &err), 0);
	assert_int_equal(s.count, 300);
	assert_string_equal(s.cand_id, big[0]);
	assert_category(f->st, big[7], "functional");
	assert_category(f->st, x, NULL);
	assert_int_equal(store_undo_step(f->st, 1, "ann", 0, &s, &err), 0);
	assert_int_equal(s.count, 2);
	assert_category(f->st, big[7], "compile");
	assert_category(f->st, x, "api");
	assert_int_equal(store_undo_step(f->st, 1, "ann", 0, &s, &err), 1);

	/* and undone again past the redos: the newer batch, then the 300 */
	assert_int_equal(store_undo_step(f->st, 0, "ann", 0, &s, &err), 0);
	assert_int_equal(s.count, 2);
	assert_int_equal(store_undo_step(f->st, 0, "ann", 0, &s, &err), 0);
	assert_int_equal(s.count, 300);
	assert_category(f->st, big[299], NULL);
	assert_int_equal(store_undo_step(f->st, 0, "ann", 0, &s, &err), 1);
	for (size_t i = 0; i < 300; i++)
		free(big[i]);
	free(x);
}

static void
test_store_batch_rollback_discards_decisions(void **state)
{
	struct fx *f = *state;
	struct err err;
	char *a;

	put_task(f->st, "local/t1");
	a = add_cand(f->st, "local/t1", "m", "code a", NULL);
	assert_int_equal(store_batch_begin(f->st, &err), 0);
	review(f->st, a, "rejected");
	store_batch_rollback(f->st);
	assert_status(f->st, a, "unreviewed");
	assert_int_equal(store_undo(f->st, "ann", NULL, 0, &err), 1);
	free(a);
}

static void
test_store_note_kept_and_leaves_decisions(void **state)
{
	struct fx *f = *state;
	struct store_note *nt;
	struct store_event *ev;
	struct err err;
	size_t n, nev;
	char *a;

	put_task(f->st, "local/t1");
	a = add_cand(f->st, "local/t1", "m", "code a", NULL);
	label(f->st, a, "api");
	assert_int_equal(store_note_add(f->st, a, "port width off by one",
	    "ann", &err), 0);
	assert_int_equal(store_note_add(f->st, a, "", "ann", &err), -1);
	assert_int_equal(store_note_add(f->st, "cnothere", "x", "ann", &err),
	    -1);
	reopen(f);
	assert_int_equal(store_note_list(f->st, a, &nt, &n, &err), 0);
	assert_int_equal(n, 1);
	assert_string_equal(nt[0].text, "port width off by one");
	assert_string_equal(nt[0].by, "ann");
	store_note_release(&nt[0]);
	free(nt);
	assert_category(f->st, a, "api");
	assert_status(f->st, a, "unreviewed");
	assert_int_equal(store_event_list(f->st, a, &ev, &nev, &err), 0);
	assert_int_equal(nev, 2);
	assert_string_equal(ev[1].action, "note");
	for (size_t i = 0; i < nev; i++)
		store_event_release(&ev[i]);
	free(ev);
	/* undo takes back the label, not the note */
	assert_int_equal(store_undo(f->st, "ann", NULL, 0, &err), 0);
	assert_category(f->st, a, NULL);
	assert_int_equal(store_note_list(f->st, a, &nt, &n, &err), 0);
	assert_int_equal(n, 1);
	store_note_release(&nt[0]);
	free(nt);
	/* A note is found by a word of it, like code and logs (issue 5). */
	assert_int_equal(count(f->st, "grep=width"), 1);
	assert_int_equal(count(f->st, "grep=elephant"), 0);
	free(a);
}

static void
test_store_view_saved_by_name(void **state)
{
	struct fx *f = *state;
	struct store_view *v;
	struct err err;
	char *filter;
	size_t n;

	assert_int_equal(store_view_get(f->st, "fails", &filter, &err), 1);
	assert_null(filter);
	assert_int_equal(store_view_save(f->st, "fails", "verdict=fail",
	    "ann", &err), 0);
	assert_int_equal(store_view_save(f->st, "all", NULL, "ann", &err), 0);
	assert_int_equal(store_view_save(f->st, "bad", "nokey=1", "ann",
	    &err), -1);
	assert_int_equal(store_view_save(f->st, "a b", "", "ann", &err), -1);
	assert_int_equal(store_view_save(f->st, "fails",
	    "verdict=fail status=unreviewed", "ann", &err), 0);
	reopen(f);
	assert_int_equal(store_view_get(f->st, "fails", &filter, &err), 0);
	assert_string_equal(filter, "verdict=fail status=unreviewed");
	free(filter);
	assert_int_equal(store_view_list(f->st, &v, &n, &err), 0);
	assert_int_equal(n, 2);
	assert_string_equal(v[0].name, "all");
	assert_string_equal(v[0].filter, "");
	assert_string_equal(v[1].name, "fails");
	for (size_t i = 0; i < n; i++)
		store_view_release(&v[i]);
	free(v);
}

/*
 * store_open_again: a second connection to the same file (the workbench's
 * :verify thread).  What one commits the other reads, and the second's
 * commit moves the first's data_version, not its own; an in-memory
 * database has no file to open again.
 */
static void
test_store_open_again_shares_the_file(void **state)
{
	struct fx *f = *state;
	struct store *two = NULL, *mem = NULL, *none = NULL;
	struct task t;
	struct err err;
	int64_t v1, v1b, v2, v2b;
	unsigned long long c1, c2;

	assert_int_equal(store_open_again(f->st, &two, &err), 0);
	assert_non_null(two);
	assert_int_equal(store_data_version(f->st, &v1, &err), 0);
	assert_int_equal(store_data_version(two, &v2, &err), 0);
	c1 = store_commits(f->st);
	c2 = store_commits(two);
	put_task(two, "local/again");
	/* the commit is two's, counted there alone (ui/batch.c tells the
	 * screen's own commits from another's by it) */
	assert_true(store_commits(two) > c2);
	assert_true(store_commits(f->st) == c1);
	assert_int_equal(store_task_get(f->st, "local/again", &t, &err), 0);
	assert_string_equal(t.id, "local/again");
	task_release(&t);
	assert_int_equal(store_data_version(f->st, &v1b, &err), 0);
	assert_int_equal(store_data_version(two, &v2b, &err), 0);
	assert_true(v1b != v1);		/* the other's commit */
	assert_true(v2b == v2);		/* its own: unchanged */
	put_task(f->st, "local/again2");
	assert_true(store_commits(f->st) > c1);
	store_close(two);

	assert_int_equal(store_open(&mem, ":memory:", &err), 0);
	assert_int_equal(store_open_again(mem, &none, &err), -1);
	assert_null(none);
	assert_non_null(strstr(err.msg, "no file"));
	store_close(mem);
}

/* A write that waits for the lock, on a thread of its own. */
struct lock_waiter {
	struct store	*st;
	int		 rc;
	struct err	 err;
	volatile sig_atomic_t done;
};

static void *
lock_waiter_run(void *arg)
{
	struct lock_waiter *w = arg;

	w->rc = store_begin(w->st, &w->err);
	if (w->rc == 0)
		store_rollback(w->st);
	w->done = 1;
	return NULL;
}

/*
 * store_lock_cancel() ends a wait for the lock at once (a workbench that
 * quits while its :import waits must not wait out the lock timeout), and
 * store_lock_waiting_ms() says, from another thread, that it waits.  The
 * lock timeout is 600 s: a cancel that did not work would leave the
 * thread waiting past the join's 30 s.
 */
static void
test_store_lock_wait_cancelled(void **state)
{
	struct fx *f = *state;
	struct store *two = NULL;
	struct lock_waiter w = { .st = f->st, .rc = 99 };
	struct timespec tick = { 0, 20 * 1000000L };
	struct err err;
	pthread_t th;
	long waited = 0;

	assert_int_equal(store_open_again(f->st, &two, &err), 0);
	assert_int_equal(store_begin(two, &err), 0);	/* holds the lock */
	assert_int_equal(store_lock_waiting_ms(f->st), 0);
	store_lock_timeout(f->st, 600000);
	assert_int_equal(pthread_create(&th, NULL, lock_waiter_run, &w), 0);
	for (int i = 0; i < 250 && waited == 0; i++) {
		nanosleep(&tick, NULL);
		waited = store_lock_waiting_ms(f->st);
	}
	assert_true(waited > 0);
	store_lock_cancel(f->st);
	for (int i = 0; i < 1500 && !w.done; i++)
		nanosleep(&tick, NULL);
	assert_true(w.done);	/* else the cancel left it waiting */
	assert_int_equal(pthread_join(th, NULL), 0);
	assert_int_equal(w.rc, -1);
	assert_non_null(strstr(w.err.msg, "database is locked"));
	assert_int_equal(store_locked_out(f->st), 1);
	for (int i = 0; i < 20; i++)	/* 400 ms: past the last look */
		nanosleep(&tick, NULL);
	assert_int_equal(store_lock_waiting_ms(f->st), 0);
	store_rollback(two);
	store_close(two);
}

#define FX_TEST(t) cmocka_unit_test_setup_teardown(t, fx_setup, fx_teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		FX_TEST(test_store_fresh_database_migrates_to_current_version),
		FX_TEST(test_store_newer_schema_is_refused),
		FX_TEST(test_store_wal_mode_is_on),
		FX_TEST(test_store_open_again_shares_the_file),
		FX_TEST(test_store_lock_wait_cancelled),
		FX_TEST(test_store_unwritable_path_is_error),
		FX_TEST(test_store_not_a_database_is_error_naming_it),
		FX_TEST(test_store_task_inserted_once),
		FX_TEST(test_store_candidate_identity_and_short_id),
		FX_TEST(test_store_import_large_sets_indexes_aside),
		FX_TEST(test_store_candidate_needs_existing_task),
		FX_TEST(test_store_candidate_resolve_prefix),
		FX_TEST(test_store_recorded_kept_verbatim),
		FX_TEST(test_store_label_undo_redo_through_journal),
		FX_TEST(test_store_redo_replays_in_order),
		FX_TEST(test_store_undo_spans_labels_and_reviews),
		FX_TEST(test_store_bad_decisions_are_refused),
		FX_TEST(test_store_claims),
		FX_TEST(test_store_undo_is_the_reviewers_own),
		FX_TEST(test_store_journal_lists_decisions),
		FX_TEST(test_store_decisions_survive_reopen),
		FX_TEST(test_store_decision_survives_killed_process),
		FX_TEST(test_store_queue_filter),
		FX_TEST(test_store_queue_bad_filter_names_predicate),
		FX_TEST(test_store_queue_paging_and_index),
		FX_TEST(test_store_query_each_visits_in_order_and_stops),
		FX_TEST(test_store_run_round_trip),
		FX_TEST(test_store_rollback_discards_batch),
		FX_TEST(test_store_stats_counts_by_group),
		FX_TEST(test_store_grep_full_text),
		FX_TEST(test_store_batch_undo_redo_all_at_once),
		FX_TEST(test_store_batch_undo_redo_in_turn),
		FX_TEST(test_store_batch_rollback_discards_decisions),
		FX_TEST(test_store_note_kept_and_leaves_decisions),
		FX_TEST(test_store_view_saved_by_name),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
