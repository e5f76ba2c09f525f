/*
 * bench.c - the scale bench (`assay bench --fill N`): copies of the
 * candidates already there, each with a comment line that makes its code
 * new, its run and its recorded rows, until the queue holds N.  A copy's
 * id follows the candidate id rule of store.c (cand_id_hex), so that it
 * is the id store_candidate_add() would give it.
 */
#include "store/store_int.h"

#include <stdlib.h>
#include <string.h>

/* One candidate copied by store_bench_fill(): as store_candidate_get()
 * reads it, with its seq and its latest run (0: none). */
struct fill_src {
	int64_t			 seq, run_id;
	struct candidate	 c;
};

/* A line comment in lang, so that a copy still compiles as its source. */
static const char *
fill_comment(const char *lang)
{
	if (lang != NULL && (strcmp(lang, "python") == 0 ||
	    strcmp(lang, "triton") == 0))
		return "#";
	if (lang != NULL && strcmp(lang, "asm") == 0)
		return ";";
	return "//";
}

static void
fill_src_fill(sqlite3_stmt *s, void *item)
{
	struct fill_src *f = item;

	candidate_fill(s, &f->c);
	f->seq = sqlite3_column_int64(s, CAND_NCOLS);
	f->run_id = sqlite3_column_int64(s, CAND_NCOLS + 1);
}

static void
fill_src_release(void *item)
{
	struct fill_src *f = item;

	candidate_release(&f->c);
}

static int
fill_sources(struct store *st, struct fill_src **out, size_t *n,
    struct err *err)
{
	sqlite3_stmt *s;

	*out = NULL;
	*n = 0;
	if (prepare(st, &s, "SELECT " CAND_COLS ", seq, coalesce(run_id, 0)"
	    " FROM candidate ORDER BY seq", err) < 0)
		return -1;
	return rows_read(st, s, sizeof **out, SIZE_MAX, fill_src_fill,
	    fill_src_release, out, n, "read candidates", err);
}

/* The statements of one copy, prepared once. */
enum { FILL_TAKEN, FILL_CAND, FILL_RUN, FILL_POINT, FILL_REC, FILL_N };

static int
fill_one(struct store *st, sqlite3_stmt **s, const struct fill_src *f,
    size_t copy, struct err *err)
{
	struct buf code = BUF_INIT;
	char hash[HASH_HEX_LEN + 1], hex[HASH_HEX_LEN + 1];
	unsigned char key[CAND_IDENT];
	char *id = NULL;
	int64_t seq;
	int rc = -1, taken = 1;

	buf_add(&code, f->c.code, f->c.code_len);
	if (f->c.code_len > 0 && f->c.code[f->c.code_len - 1] != '\n')
		buf_addc(&code, '\n');
	buf_printf(&code, "%s assay bench copy %zu of %s\n",
	    fill_comment(f->c.lang), copy, f->c.id);
	hash_sha256(code.p, code.len, hash);
	/* the id and identity key store_candidate_add() would give it */
	cand_id_hex(f->c.task_id, f->c.origin, hash, hex);
	cand_ident(hex, key);
	for (int k = CAND_ID_MIN; k <= HASH_HEX_LEN && taken; k++) {
		free(id);
		id = cand_id_at(hex, k);
		sqlite3_reset(s[FILL_TAKEN]);
		bind_text(s[FILL_TAKEN], 1, id);
		taken = sqlite3_step(s[FILL_TAKEN]) == SQLITE_ROW;
	}
	sqlite3_reset(s[FILL_CAND]);
	bind_text(s[FILL_CAND], 1, id);
	sqlite3_bind_blob(s[FILL_CAND], 2, code.p, (int)code.len,
	    SQLITE_STATIC);
	bind_text(s[FILL_CAND], 3, hash);
	sqlite3_bind_int64(s[FILL_CAND], 4, f->seq);
	sqlite3_bind_blob(s[FILL_CAND], 5, key, CAND_IDENT, SQLITE_STATIC);
	if (sqlite3_step(s[FILL_CAND]) != SQLITE_DONE) {
		err_sqlite(err, st->db, "copy candidate");
		goto out;
	}
	seq = sqlite3_last_insert_rowid(st->db);
	if (f->run_id > 0) {
		sqlite3_reset(s[FILL_RUN]);
		bind_text(s[FILL_RUN], 1, id);
		sqlite3_bind_int64(s[FILL_RUN], 2, f->run_id);
		if (sqlite3_step(s[FILL_RUN]) != SQLITE_DONE) {
			err_sqlite(err, st->db, "copy run");
			goto out;
		}
		sqlite3_reset(s[FILL_POINT]);
		sqlite3_bind_int64(s[FILL_POINT], 1,
		    sqlite3_last_insert_rowid(st->db));
		bind_text(s[FILL_POINT], 2, id);
		if (sqlite3_step(s[FILL_POINT]) != SQLITE_DONE) {
			err_sqlite(err, st->db, "copy run pointer");
			goto out;
		}
	}
	sqlite3_reset(s[FILL_REC]);
	sqlite3_bind_int64(s[FILL_REC], 1, seq);
	sqlite3_bind_int64(s[FILL_REC], 2, f->seq);
	if (sqlite3_step(s[FILL_REC]) != SQLITE_DONE) {
		err_sqlite(err, st->db, "copy recorded");
		goto out;
	}
	rc = 0;
out:
	free(id);
	buf_release(&code);
	return rc;
}

int
store_bench_fill(struct store *st, size_t total, size_t *added,
    struct err *err)
{
	static const char *const sql[FILL_N] = {
		"SELECT 1 FROM candidate WHERE id = ?1",
		"INSERT INTO candidate(id, task_id, origin, origin_raw, kind,"
		" lang, parent, source, code, code_hash, extra, ident) SELECT"
		" ?1, task_id, origin, origin_raw, kind, lang, parent, source,"
		" ?2, ?3, extra, ?5 FROM candidate WHERE seq = ?4",
		"INSERT INTO run(cand_id, env, verdict, stage, subcategory,"
		" category, evidence, command, toolchain, inputs, input_key,"
		" metrics, exit_code, wall_ms, started, log, diagnostics,"
		" evidence_line) SELECT ?1, env, verdict, stage, subcategory,"
		" category, evidence, command, toolchain, inputs, input_key,"
		" metrics, exit_code, wall_ms, started, log, diagnostics,"
		" evidence_line FROM run WHERE id = ?2",
		"UPDATE candidate SET run_id = ?1 WHERE id = ?2",
		"INSERT INTO recorded(cand_seq, verdict, stage, log, extra)"
		" SELECT ?1, verdict, stage, log, extra FROM recorded"
		" WHERE cand_seq = ?2 ORDER BY id",
	};
	sqlite3_stmt *s[FILL_N] = { NULL };
	struct fill_src *src = NULL;
	size_t nsrc = 0, have = 0, batch = 0;
	int rc = -1;

	*added = 0;
	if (store_query_count(st, NULL, &have, err) < 0 ||
	    fill_sources(st, &src, &nsrc, err) < 0)
		goto out;
	if (nsrc == 0 && total > 0) {
		err_set(err, "no candidates to copy: import some first");
		goto out;
	}
	for (int i = 0; i < FILL_N; i++)
		if (prepare(st, &s[i], sql[i], err) < 0)
			goto out;
	for (size_t copy = 1; have < total; copy++) {
		for (size_t i = 0; i < nsrc && have < total; i++) {
			if (batch == 0 && store_begin(st, err) < 0)
				goto out;
			if (fill_one(st, s, &src[i], copy, err) < 0) {
				store_rollback(st);
				goto out;
			}
			have++;
			(*added)++;
			/* commit in slices: the WAL stays small */
			if (++batch == 20000) {
				if (store_commit(st, err) < 0)
					goto out;
				batch = 0;
			}
		}
	}
	if (batch > 0 && store_commit(st, err) < 0)
		goto out;
	rc = 0;
out:
	for (int i = 0; i < FILL_N; i++)
		sqlite3_finalize(s[i]);
	array_free(src, nsrc, sizeof *src, fill_src_release);
	return rc;
}
