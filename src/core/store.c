/*
 * store.c - the sample database; see store.h for the contract.
 *
 * The only file that calls sqlite3_*.  Statements are prepared per call
 * (the hot paths are a page of the queue and one candidate at a time, so
 * preparation is not the cost); every public function either finishes
 * its statement or fails with the SQLite message copied into err.
 */
#include "store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>
#include <sqlite3.h>

#include "buf.h"
#include "hash.h"

struct store {
	sqlite3	*db;
	int	 in_tx;		/* an explicit store_begin() is open */
	int	 readonly;	/* the file cannot be written: reads only */
	int64_t	 batch;		/* journal batch of new events; 0: none */
};

/*
 * Migrations: entry i moves the schema from version i to i + 1.  Append
 * only; never edit an entry that has shipped.
 */
static const char *const migrations[] = {
	/* 0 -> 1 */
	"CREATE TABLE task ("
	"  id         TEXT PRIMARY KEY,"
	"  benchmark  TEXT NOT NULL,"
	"  domain     TEXT NOT NULL,"
	"  env        TEXT NOT NULL,"
	"  env_params TEXT NOT NULL DEFAULT '{}',"
	"  spec       TEXT,"
	"  interface  TEXT,"
	"  source     TEXT,"
	"  extra      TEXT,"
	"  created    INTEGER NOT NULL DEFAULT (unixepoch())"
	");"
	"CREATE TABLE task_file ("
	"  task_id TEXT NOT NULL REFERENCES task(id) ON DELETE CASCADE,"
	"  name    TEXT NOT NULL,"
	"  role    TEXT NOT NULL,"
	"  data    BLOB NOT NULL,"
	"  PRIMARY KEY (task_id, name)"
	");"
	"CREATE TABLE candidate ("
	"  seq        INTEGER PRIMARY KEY,"
	"  id         TEXT NOT NULL UNIQUE,"
	"  task_id    TEXT NOT NULL REFERENCES task(id),"
	"  origin     TEXT NOT NULL,"
	"  origin_raw TEXT,"
	"  kind       TEXT NOT NULL DEFAULT 'direct'"
	"             CHECK (kind IN ('direct','repair','optimization')),"
	"  lang       TEXT NOT NULL,"
	"  parent     TEXT REFERENCES candidate(id),"
	"  source     TEXT,"
	"  code       BLOB NOT NULL,"
	"  code_hash  TEXT NOT NULL,"
	"  extra      TEXT,"
	"  created    INTEGER NOT NULL DEFAULT (unixepoch()),"
	"  run_id     INTEGER REFERENCES run(id),"
	"  label_id   INTEGER REFERENCES label(id),"
	"  review_id  INTEGER REFERENCES review(id),"
	"  UNIQUE (task_id, origin, code_hash)"
	");"
	"CREATE TABLE recorded ("
	"  id      INTEGER PRIMARY KEY,"
	"  cand_id TEXT NOT NULL REFERENCES candidate(id),"
	"  verdict TEXT,"
	"  stage   TEXT,"
	"  log     TEXT,"
	"  extra   TEXT"
	");"
	"CREATE INDEX recorded_cand ON recorded(cand_id);"
	"CREATE TABLE run ("
	"  id          INTEGER PRIMARY KEY,"
	"  cand_id     TEXT NOT NULL REFERENCES candidate(id),"
	"  env         TEXT NOT NULL,"
	"  verdict     TEXT NOT NULL CHECK (verdict IN ('pass','fail',"
	"              'timeout','skipped','env-error','task-defect')),"
	"  stage       TEXT,"
	"  subcategory TEXT,"
	"  category    TEXT,"
	"  evidence    TEXT,"
	"  command     TEXT,"
	"  toolchain   TEXT,"
	"  inputs      TEXT,"
	"  input_key   TEXT,"
	"  metrics     TEXT,"
	"  exit_code   INTEGER,"
	"  wall_ms     INTEGER,"
	"  started     INTEGER,"
	"  log         BLOB,"
	"  diagnostics TEXT"
	");"
	"CREATE INDEX run_cand ON run(cand_id, id);"
	"CREATE TABLE label ("
	"  id          INTEGER PRIMARY KEY,"
	"  cand_id     TEXT NOT NULL REFERENCES candidate(id),"
	"  category    TEXT NOT NULL CHECK (category IN ('compile','api',"
	"              'functional','format','performance')),"
	"  subcategory TEXT,"
	"  note        TEXT,"
	"  by          TEXT NOT NULL,"
	"  run_id      INTEGER REFERENCES run(id),"
	"  evidence    TEXT,"
	"  at          INTEGER NOT NULL"
	");"
	"CREATE TABLE review ("
	"  id      INTEGER PRIMARY KEY,"
	"  cand_id TEXT NOT NULL REFERENCES candidate(id),"
	"  status  TEXT NOT NULL CHECK (status IN ('unreviewed','accepted',"
	"          'rejected','flagged')),"
	"  note    TEXT,"
	"  by      TEXT NOT NULL,"
	"  at      INTEGER NOT NULL"
	");"
	/* The journal: append-only.  Decisions carry the candidate's label or
	 * review pointer before and after; undo and redo name their target. */
	"CREATE TABLE event ("
	"  id      INTEGER PRIMARY KEY,"
	"  at      INTEGER NOT NULL,"
	"  who     TEXT NOT NULL,"
	"  action  TEXT NOT NULL,"
	"  cand_id TEXT,"
	"  field   TEXT,"
	"  before  INTEGER,"
	"  after   INTEGER,"
	"  target  INTEGER,"
	"  detail  TEXT"
	");"
	"CREATE INDEX event_cand ON event(cand_id);"
	"CREATE INDEX candidate_task ON candidate(task_id);",
	/* 1 -> 2: the candidate line a run's evidence points to (triage) */
	"ALTER TABLE run ADD COLUMN evidence_line INTEGER;",
	/*
	 * 2 -> 3: full-text search (grep=) over task specs, candidate code
	 * and logs (runs and recorded).  A row belongs to a candidate (seq)
	 * or to a task (task, for its spec and interface, so that a spec is
	 * indexed once).  '_' is a token character: __syncthreads and
	 * count_0 stay whole.  Triggers keep it in step with inserts; rows
	 * are never updated or deleted in those tables.
	 */
	"CREATE VIRTUAL TABLE search USING fts5(body, seq UNINDEXED,"
	"  task UNINDEXED, tokenize = \"unicode61 tokenchars '_'\");"
	"CREATE TRIGGER search_task AFTER INSERT ON task BEGIN"
	"  INSERT INTO search(body, task) VALUES (coalesce(new.spec, '')"
	"  || char(10) || coalesce(new.interface, ''), new.id);"
	"END;"
	"CREATE TRIGGER search_candidate AFTER INSERT ON candidate BEGIN"
	"  INSERT INTO search(body, seq) VALUES (CAST(new.code AS TEXT),"
	"  new.seq);"
	"END;"
	"CREATE TRIGGER search_run AFTER INSERT ON run BEGIN"
	"  INSERT INTO search(body, seq) SELECT CAST(new.log AS TEXT), seq"
	"  FROM candidate WHERE id = new.cand_id;"
	"END;"
	"CREATE TRIGGER search_recorded AFTER INSERT ON recorded BEGIN"
	"  INSERT INTO search(body, seq) SELECT new.log, seq"
	"  FROM candidate WHERE id = new.cand_id AND new.log IS NOT NULL;"
	"END;"
	"INSERT INTO search(body, task) SELECT coalesce(spec, '') || char(10)"
	"  || coalesce(interface, ''), id FROM task;"
	"INSERT INTO search(body, seq) SELECT CAST(code AS TEXT), seq"
	"  FROM candidate;"
	"INSERT INTO search(body, seq) SELECT CAST(r.log AS TEXT), c.seq"
	"  FROM run r JOIN candidate c ON c.id = r.cand_id;"
	"INSERT INTO search(body, seq) SELECT r.log, c.seq FROM recorded r"
	"  JOIN candidate c ON c.id = r.cand_id WHERE r.log IS NOT NULL;",
	/*
	 * 3 -> 4: bulk decisions share a journal batch, so that one undo
	 * takes them all back; free notes on a candidate (journalled, they
	 * leave label and review alone); saved views (a named filter).
	 */
	"ALTER TABLE event ADD COLUMN batch INTEGER;"
	"CREATE INDEX event_batch ON event(batch);"
	"CREATE TABLE note ("
	"  id      INTEGER PRIMARY KEY,"
	"  cand_id TEXT NOT NULL REFERENCES candidate(id),"
	"  text    TEXT NOT NULL,"
	"  by      TEXT NOT NULL,"
	"  at      INTEGER NOT NULL"
	");"
	"CREATE INDEX note_cand ON note(cand_id);"
	"CREATE TABLE view ("
	"  name    TEXT PRIMARY KEY,"
	"  filter  TEXT NOT NULL,"
	"  by      TEXT NOT NULL,"
	"  at      INTEGER NOT NULL"
	");",
	/* 4 -> 5: notes are searchable like code and logs (grep=) */
	"CREATE TRIGGER search_note AFTER INSERT ON note BEGIN"
	"  INSERT INTO search(body, seq) SELECT new.text, seq"
	"  FROM candidate WHERE id = new.cand_id;"
	"END;"
	"INSERT INTO search(body, seq) SELECT n.text, c.seq FROM note n"
	"  JOIN candidate c ON c.id = n.cand_id;",
};
#define NMIGRATIONS ((int)(sizeof migrations / sizeof migrations[0]))

_Static_assert(NMIGRATIONS == STORE_SCHEMA_VERSION,
    "STORE_SCHEMA_VERSION must match the migrations");

/* Copy SQLite's message now: it is overwritten by the next call. */
static int
err_sqlite(struct err *err, sqlite3 *db, const char *what)
{
	return err_set(err, "%s: %s", what, db != NULL ? sqlite3_errmsg(db) :
	    "out of memory");
}

static int
prepare(struct store *st, sqlite3_stmt **out, const char *sql,
    struct err *err)
{
	if (sqlite3_prepare_v2(st->db, sql, -1, out, NULL) != SQLITE_OK)
		return err_sqlite(err, st->db, "prepare");
	return 0;
}

static void
bind_text(sqlite3_stmt *s, int i, const char *v)
{
	if (v == NULL)
		sqlite3_bind_null(s, i);
	else
		sqlite3_bind_text(s, i, v, -1, SQLITE_TRANSIENT);
}

static char *
col_text(sqlite3_stmt *s, int i)
{
	const unsigned char *t = sqlite3_column_text(s, i);

	return t != NULL ? xstrdup((const char *)t) : NULL;
}

static char *
col_blob(sqlite3_stmt *s, int i, size_t *len)
{
	const void *p = sqlite3_column_blob(s, i);
	size_t n = (size_t)sqlite3_column_bytes(s, i);

	if (len != NULL)
		*len = n;
	if (sqlite3_column_type(s, i) == SQLITE_NULL)
		return NULL;
	return xstrndup(p != NULL ? p : "", n);
}

/* Run one statement with no result rows. */
static int
exec(struct store *st, const char *sql, struct err *err)
{
	if (sqlite3_exec(st->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return err_sqlite(err, st->db, sql);
	return 0;
}

static int
query_int(struct store *st, const char *sql, int *out, struct err *err)
{
	sqlite3_stmt *s;
	int rc;

	if (prepare(st, &s, sql, err) < 0)
		return -1;
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		*out = sqlite3_column_int(s, 0);
	sqlite3_finalize(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return err_sqlite(err, st->db, sql);
	return 0;
}

static int
migrate(struct store *st, struct err *err)
{
	char sql[64];
	int version = 0;

	/* Current already: no write lock, so that opening never writes. */
	if (query_int(st, "PRAGMA user_version", &version, err) < 0)
		return -1;
	if (version == NMIGRATIONS)
		return 0;
	if (st->readonly)
		return err_set(err, "the database is read-only and needs"
		    " migrating from schema v%d to v%d", version, NMIGRATIONS);
	if (exec(st, "BEGIN IMMEDIATE", err) < 0)
		return -1;
	if (query_int(st, "PRAGMA user_version", &version, err) < 0)
		goto fail;
	if (version > NMIGRATIONS) {
		err_set(err, "database schema v%d is newer than this assay "
		    "(v%d); upgrade assay", version, NMIGRATIONS);
		goto fail;
	}
	for (int v = version; v < NMIGRATIONS; v++) {
		if (sqlite3_exec(st->db, migrations[v], NULL, NULL, NULL) !=
		    SQLITE_OK) {
			char what[64];

			snprintf(what, sizeof what, "migration %d -> %d", v,
			    v + 1);
			err_sqlite(err, st->db, what);
			goto fail;
		}
	}
	snprintf(sql, sizeof sql, "PRAGMA user_version = %d", NMIGRATIONS);
	if (exec(st, sql, err) < 0 || exec(st, "COMMIT", err) < 0)
		goto fail;
	return 0;
fail:
	sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

int
store_open(struct store **out, const char *path, struct err *err)
{
	struct store *st = xcalloc(1, sizeof *st);
	sqlite3_stmt *s = NULL;
	const char *mode;

	*out = NULL;
	/* A file we may not write is opened for reading: list, show and
	 * stats work; a decision fails with SQLite's "readonly" message. */
	st->readonly = access(path, F_OK) == 0 && access(path, W_OK) != 0;
	if (sqlite3_open_v2(path, &st->db, st->readonly ? SQLITE_OPEN_READONLY :
	    SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) {
		err_set(err, "open %s: %s", path, st->db != NULL ?
		    sqlite3_errmsg(st->db) : "out of memory");
		goto fail;
	}
	sqlite3_busy_timeout(st->db, 5000);
	if (sqlite3_prepare_v2(st->db, st->readonly ? "PRAGMA journal_mode" :
	    "PRAGMA journal_mode = WAL", -1, &s, NULL) != SQLITE_OK ||
	    sqlite3_step(s) != SQLITE_ROW) {
		err_set(err, "%s: %s", path, sqlite3_errmsg(st->db));
		goto fail;
	}
	mode = (const char *)sqlite3_column_text(s, 0);
	/* Read-only, the file keeps whatever mode it has. */
	if (!st->readonly && (mode == NULL || (strcmp(mode, "wal") != 0 &&
	    strcmp(mode, "memory") != 0))) {
		err_set(err, "%s: cannot switch to WAL mode (got %s)", path,
		    mode != NULL ? mode : "nothing");
		goto fail;
	}
	sqlite3_finalize(s);
	s = NULL;
	/* Per connection, not stored in the file. */
	if (exec(st, "PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL;",
	    err) < 0)
		goto fail;
	if (migrate(st, err) < 0) {
		struct err e2;

		err_set(&e2, "%s: %s", path, err != NULL ? err->msg : "");
		if (err != NULL)
			*err = e2;
		goto fail;
	}
	*out = st;
	return 0;
fail:
	sqlite3_finalize(s);
	sqlite3_close(st->db);
	free(st);
	return -1;
}

void
store_close(struct store *st)
{
	if (st == NULL)
		return;
	sqlite3_close(st->db);
	free(st);
}

int
store_schema_version(struct store *st)
{
	int v = -1;

	query_int(st, "PRAGMA user_version", &v, NULL);
	return v;
}

int
store_begin(struct store *st, struct err *err)
{
	if (exec(st, "BEGIN IMMEDIATE", err) < 0)
		return -1;
	st->in_tx = 1;
	return 0;
}

int
store_commit(struct store *st, struct err *err)
{
	if (exec(st, "COMMIT", err) < 0)
		return -1;
	st->in_tx = 0;
	return 0;
}

void
store_rollback(struct store *st)
{
	sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
	st->in_tx = 0;
}

int
store_savepoint(struct store *st, struct err *err)
{
	return exec(st, "SAVEPOINT row", err);
}

void
store_savepoint_end(struct store *st, int keep)
{
	if (!keep)
		sqlite3_exec(st->db, "ROLLBACK TO row", NULL, NULL, NULL);
	sqlite3_exec(st->db, "RELEASE row", NULL, NULL, NULL);
}

/* Step a statement that must finish (INSERT/UPDATE); finalizes it. */
static int
step_done(struct store *st, sqlite3_stmt *s, const char *what,
    struct err *err)
{
	int rc = sqlite3_step(s);

	if (rc != SQLITE_DONE) {
		err_sqlite(err, st->db, what);
		sqlite3_finalize(s);
		return -1;
	}
	sqlite3_finalize(s);
	return 0;
}

/* --- tasks ----------------------------------------------------------- */

int
store_task_put(struct store *st, const struct task *t, int *inserted,
    struct err *err)
{
	sqlite3_stmt *s;

	*inserted = 0;
	if (prepare(st, &s, "INSERT OR IGNORE INTO task(id, benchmark, domain,"
	    " env, env_params, spec, interface, source, extra)"
	    " VALUES (?1, ?2, ?3, ?4, coalesce(?5, '{}'), ?6, ?7, ?8, ?9)",
	    err) < 0)
		return -1;
	bind_text(s, 1, t->id);
	bind_text(s, 2, t->benchmark);
	bind_text(s, 3, t->domain);
	bind_text(s, 4, t->env);
	bind_text(s, 5, t->env_params);
	bind_text(s, 6, t->spec);
	bind_text(s, 7, t->interface);
	bind_text(s, 8, t->source);
	bind_text(s, 9, t->extra);
	if (step_done(st, s, "insert task", err) < 0)
		return -1;
	if (sqlite3_changes(st->db) == 0)
		return 0;
	*inserted = 1;
	for (size_t i = 0; i < t->nfiles; i++) {
		const struct task_file *f = &t->files[i];

		if (prepare(st, &s, "INSERT INTO task_file(task_id, name, role,"
		    " data) VALUES (?1, ?2, ?3, ?4)", err) < 0)
			return -1;
		bind_text(s, 1, t->id);
		bind_text(s, 2, f->name);
		bind_text(s, 3, f->role);
		sqlite3_bind_blob(s, 4, f->data, (int)f->len, SQLITE_TRANSIENT);
		if (step_done(st, s, "insert task file", err) < 0)
			return -1;
	}
	return 0;
}

int
store_task_get(struct store *st, const char *id, struct task *out,
    struct err *err)
{
	sqlite3_stmt *s;
	int rc;

	memset(out, 0, sizeof *out);
	if (prepare(st, &s, "SELECT id, benchmark, domain, env, env_params,"
	    " spec, interface, source, extra FROM task WHERE id = ?1", err) < 0)
		return -1;
	bind_text(s, 1, id);
	rc = sqlite3_step(s);
	if (rc != SQLITE_ROW) {
		sqlite3_finalize(s);
		if (rc == SQLITE_DONE)
			return 1;
		return err_sqlite(err, st->db, "read task");
	}
	out->id = col_text(s, 0);
	out->benchmark = col_text(s, 1);
	out->domain = col_text(s, 2);
	out->env = col_text(s, 3);
	out->env_params = col_text(s, 4);
	out->spec = col_text(s, 5);
	out->interface = col_text(s, 6);
	out->source = col_text(s, 7);
	out->extra = col_text(s, 8);
	sqlite3_finalize(s);
	if (prepare(st, &s, "SELECT name, role, data FROM task_file"
	    " WHERE task_id = ?1 ORDER BY rowid", err) < 0)
		goto fail;
	bind_text(s, 1, id);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(s, 0);
		const char *role = (const char *)sqlite3_column_text(s, 1);
		const void *data = sqlite3_column_blob(s, 2);
		size_t len = (size_t)sqlite3_column_bytes(s, 2);

		task_add_file(out, name, role, data != NULL ? data : "", len);
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE) {
		err_sqlite(err, st->db, "read task files");
		goto fail;
	}
	return 0;
fail:
	task_release(out);
	return -1;
}

/* --- candidates ------------------------------------------------------ */

static int
candidate_find(struct store *st, const struct candidate *c, char **id,
    struct err *err)
{
	sqlite3_stmt *s;
	int rc;

	*id = NULL;
	if (prepare(st, &s, "SELECT id FROM candidate WHERE task_id = ?1 AND"
	    " origin = ?2 AND code_hash = ?3", err) < 0)
		return -1;
	bind_text(s, 1, c->task_id);
	bind_text(s, 2, c->origin);
	bind_text(s, 3, c->code_hash);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		*id = col_text(s, 0);
	sqlite3_finalize(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return err_sqlite(err, st->db, "find candidate");
	return 0;
}

static int
id_taken(struct store *st, const char *id, int *taken, struct err *err)
{
	sqlite3_stmt *s;
	int rc;

	if (prepare(st, &s, "SELECT 1 FROM candidate WHERE id = ?1", err) < 0)
		return -1;
	bind_text(s, 1, id);
	rc = sqlite3_step(s);
	sqlite3_finalize(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return err_sqlite(err, st->db, "check id");
	*taken = rc == SQLITE_ROW;
	return 0;
}

int
store_candidate_add(struct store *st, struct candidate *c, int *inserted,
    struct err *err)
{
	sqlite3_stmt *s;
	char *existing;

	*inserted = 0;
	if (candidate_find(st, c, &existing, err) < 0)
		return -1;
	if (existing != NULL) {
		free(c->id);
		c->id = existing;
		return 0;
	}
	if (c->id == NULL) {
		/* A git-like short id of the identity, longer on a clash. */
		char hex[HASH_HEX_LEN + 1];
		struct buf b = BUF_INIT;
		int taken = 1;

		buf_printf(&b, "%s%c%s%c%s", c->task_id, 0, c->origin, 0,
		    c->code_hash);
		hash_sha256(b.p, b.len, hex);
		buf_release(&b);
		for (int n = 7; n <= HASH_HEX_LEN && taken; n++) {
			free(c->id);
			c->id = xasprintf("c%.*s", n, hex);
			if (id_taken(st, c->id, &taken, err) < 0)
				return -1;
		}
	}
	if (prepare(st, &s, "INSERT INTO candidate(id, task_id, origin,"
	    " origin_raw, kind, lang, parent, source, code, code_hash, extra)"
	    " VALUES (?1, ?2, ?3, ?4, coalesce(?5, 'direct'), ?6, ?7, ?8, ?9,"
	    " ?10, ?11)", err) < 0)
		return -1;
	bind_text(s, 1, c->id);
	bind_text(s, 2, c->task_id);
	bind_text(s, 3, c->origin);
	bind_text(s, 4, c->origin_raw);
	bind_text(s, 5, c->kind);
	bind_text(s, 6, c->lang);
	bind_text(s, 7, c->parent);
	bind_text(s, 8, c->source);
	sqlite3_bind_blob(s, 9, c->code != NULL ? c->code : "",
	    (int)c->code_len, SQLITE_TRANSIENT);
	bind_text(s, 10, c->code_hash);
	bind_text(s, 11, c->extra);
	if (step_done(st, s, "insert candidate", err) < 0)
		return -1;
	*inserted = 1;
	return 0;
}

int
store_candidate_get(struct store *st, const char *id, struct candidate *out,
    struct err *err)
{
	sqlite3_stmt *s;
	int rc;

	memset(out, 0, sizeof *out);
	if (prepare(st, &s, "SELECT id, task_id, origin, origin_raw, kind,"
	    " lang, parent, source, code, code_hash, extra FROM candidate"
	    " WHERE id = ?1", err) < 0)
		return -1;
	bind_text(s, 1, id);
	rc = sqlite3_step(s);
	if (rc != SQLITE_ROW) {
		sqlite3_finalize(s);
		if (rc == SQLITE_DONE)
			return 1;
		return err_sqlite(err, st->db, "read candidate");
	}
	out->id = col_text(s, 0);
	out->task_id = col_text(s, 1);
	out->origin = col_text(s, 2);
	out->origin_raw = col_text(s, 3);
	out->kind = col_text(s, 4);
	out->lang = col_text(s, 5);
	out->parent = col_text(s, 6);
	out->source = col_text(s, 7);
	out->code = col_blob(s, 8, &out->code_len);
	snprintf(out->code_hash, sizeof out->code_hash, "%s",
	    (const char *)sqlite3_column_text(s, 9));
	out->extra = col_text(s, 10);
	sqlite3_finalize(s);
	if (out->code == NULL)
		out->code = xstrdup("");
	return 0;
}

int
store_candidate_resolve(struct store *st, const char *prefix, char **out,
    struct err *err)
{
	sqlite3_stmt *s;
	int rc, n = 0;

	*out = NULL;
	if (prepare(st, &s, "SELECT id FROM candidate WHERE id = ?1 UNION ALL"
	    " SELECT id FROM candidate WHERE id > ?1 AND id < ?1 || x'ff'"
	    " LIMIT 3", err) < 0)
		return -1;
	bind_text(s, 1, prefix);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		if (n == 0)
			*out = col_text(s, 0);
		else if (strcmp(*out, prefix) == 0)
			break;		/* an exact match wins */
		n++;
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		free(*out);
		*out = NULL;
		return err_sqlite(err, st->db, "resolve id");
	}
	if (n == 0)
		return 1;
	if (n > 1 && strcmp(*out, prefix) != 0) {
		free(*out);
		*out = NULL;
		return 2;
	}
	return 0;
}

int
store_recorded_add(struct store *st, const char *cand_id,
    const struct recorded *r, struct err *err)
{
	sqlite3_stmt *s;

	if (prepare(st, &s, "INSERT INTO recorded(cand_id, verdict, stage, log,"
	    " extra) VALUES (?1, ?2, ?3, ?4, ?5)", err) < 0)
		return -1;
	bind_text(s, 1, cand_id);
	bind_text(s, 2, r->verdict);
	bind_text(s, 3, r->stage);
	bind_text(s, 4, r->log);
	bind_text(s, 5, r->extra);
	return step_done(st, s, "insert recorded", err);
}

int
store_recorded_list(struct store *st, const char *cand_id,
    struct recorded **out, size_t *n, struct err *err)
{
	sqlite3_stmt *s;
	int rc;

	*out = NULL;
	*n = 0;
	if (prepare(st, &s, "SELECT verdict, stage, log, extra FROM recorded"
	    " WHERE cand_id = ?1 ORDER BY id", err) < 0)
		return -1;
	bind_text(s, 1, cand_id);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct recorded *r;

		*out = xreallocarray(*out, *n + 1, sizeof **out);
		r = &(*out)[(*n)++];
		r->verdict = col_text(s, 0);
		r->stage = col_text(s, 1);
		r->log = col_text(s, 2);
		r->extra = col_text(s, 3);
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE)
		return err_sqlite(err, st->db, "read recorded");
	return 0;
}

int
store_task_reference(struct store *st, const char *task_id, char **cand_id,
    char **verdict, struct err *err)
{
	sqlite3_stmt *s;
	int rc;

	*cand_id = *verdict = NULL;
	if (prepare(st, &s, "SELECT c.id, r.verdict FROM candidate c"
	    " LEFT JOIN run r ON r.id = c.run_id WHERE c.task_id = ?1 AND"
	    " c.origin = 'reference' ORDER BY c.seq LIMIT 1", err) < 0)
		return -1;
	bind_text(s, 1, task_id);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		*cand_id = col_text(s, 0);
		*verdict = col_text(s, 1);
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return err_sqlite(err, st->db, "read reference");
	return 0;
}

/* --- runs ------------------------------------------------------------ */

static char *
diags_to_json(const struct run *r)
{
	json_t *a = json_array();
	char *txt;

	for (size_t i = 0; i < r->ndiags; i++) {
		const struct diag *d = &r->diags[i];

		json_array_append_new(a, json_pack("{s:s?, s:i, s:i, s:s?, s:s?,"
		    " s:i}", "file", d->file, "line", d->line, "col", d->col,
		    "severity", d->severity, "message", d->message,
		    "cand_line", d->cand_line));
	}
	txt = json_dumps(a, JSON_COMPACT);
	json_decref(a);
	return txt;
}

static void
diags_from_json(struct run *r, const char *txt)
{
	json_t *a, *d;
	size_t i;

	if (txt == NULL || (a = json_loads(txt, 0, NULL)) == NULL)
		return;
	json_array_foreach(a, i, d) {
		const char *file = json_string_value(json_object_get(d, "file"));
		const char *sev = json_string_value(json_object_get(d, "severity"));
		const char *msg = json_string_value(json_object_get(d, "message"));

		run_add_diag(r, file != NULL ? file : "",
		    (int)json_integer_value(json_object_get(d, "line")),
		    (int)json_integer_value(json_object_get(d, "col")),
		    sev != NULL ? sev : "", msg != NULL ? msg : "",
		    (int)json_integer_value(json_object_get(d, "cand_line")));
	}
	json_decref(a);
}

int
store_run_add(struct store *st, struct run *r, struct err *err)
{
	sqlite3_stmt *s;
	char *diags = diags_to_json(r);
	int own_tx = !st->in_tx;

	if (own_tx && store_begin(st, err) < 0) {
		free(diags);
		return -1;
	}
	if (prepare(st, &s, "INSERT INTO run(cand_id, env, verdict, stage,"
	    " subcategory, category, evidence, command, toolchain, inputs,"
	    " input_key, metrics, exit_code, wall_ms, started, log, diagnostics,"
	    " evidence_line) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10,"
	    " ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18)", err) < 0)
		goto fail;
	bind_text(s, 1, r->cand_id);
	bind_text(s, 2, r->env);
	bind_text(s, 3, r->verdict);
	bind_text(s, 4, r->stage);
	bind_text(s, 5, r->subcategory);
	bind_text(s, 6, r->category);
	bind_text(s, 7, r->evidence);
	bind_text(s, 8, r->command);
	bind_text(s, 9, r->toolchain);
	bind_text(s, 10, r->inputs);
	bind_text(s, 11, r->input_key[0] != '\0' ? r->input_key : NULL);
	bind_text(s, 12, r->metrics);
	sqlite3_bind_int(s, 13, r->exit_code);
	sqlite3_bind_int64(s, 14, r->wall_ms);
	sqlite3_bind_int64(s, 15, r->started);
	sqlite3_bind_blob(s, 16, r->log != NULL ? r->log : "", (int)r->log_len,
	    SQLITE_TRANSIENT);
	bind_text(s, 17, diags);
	if (r->evidence_line > 0)
		sqlite3_bind_int(s, 18, r->evidence_line);
	if (step_done(st, s, "insert run", err) < 0)
		goto fail;
	r->id = sqlite3_last_insert_rowid(st->db);
	if (prepare(st, &s, "UPDATE candidate SET run_id = ?1 WHERE id = ?2",
	    err) < 0)
		goto fail;
	sqlite3_bind_int64(s, 1, r->id);
	bind_text(s, 2, r->cand_id);
	if (step_done(st, s, "update candidate run", err) < 0)
		goto fail;
	if (own_tx && store_commit(st, err) < 0)
		goto fail;
	free(diags);
	return 0;
fail:
	if (own_tx)
		store_rollback(st);
	free(diags);
	return -1;
}

#define RUN_COLS "id, cand_id, env, verdict, stage, subcategory, category," \
	" evidence, command, toolchain, inputs, input_key, metrics, exit_code," \
	" wall_ms, started, log, diagnostics, coalesce(evidence_line, 0)"

static void
run_from_row(sqlite3_stmt *s, struct run *r)
{
	const unsigned char *key;
	char *diags;

	memset(r, 0, sizeof *r);
	r->id = sqlite3_column_int64(s, 0);
	r->cand_id = col_text(s, 1);
	r->env = col_text(s, 2);
	r->verdict = col_text(s, 3);
	r->stage = col_text(s, 4);
	r->subcategory = col_text(s, 5);
	r->category = col_text(s, 6);
	r->evidence = col_text(s, 7);
	r->command = col_text(s, 8);
	r->toolchain = col_text(s, 9);
	r->inputs = col_text(s, 10);
	key = sqlite3_column_text(s, 11);
	snprintf(r->input_key, sizeof r->input_key, "%s",
	    key != NULL ? (const char *)key : "");
	r->metrics = col_text(s, 12);
	r->exit_code = sqlite3_column_int(s, 13);
	r->wall_ms = sqlite3_column_int64(s, 14);
	r->started = sqlite3_column_int64(s, 15);
	r->log = col_blob(s, 16, &r->log_len);
	if (r->log == NULL)
		r->log = xstrdup("");
	diags = col_text(s, 17);
	diags_from_json(r, diags);
	free(diags);
	r->evidence_line = sqlite3_column_int(s, 18);
}

int
store_run_latest(struct store *st, const char *cand_id, struct run *out,
    struct err *err)
{
	sqlite3_stmt *s;
	int rc;

	memset(out, 0, sizeof *out);
	if (prepare(st, &s, "SELECT " RUN_COLS " FROM run WHERE id ="
	    " (SELECT run_id FROM candidate WHERE id = ?1)", err) < 0)
		return -1;
	bind_text(s, 1, cand_id);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		run_from_row(s, out);
	sqlite3_finalize(s);
	if (rc == SQLITE_DONE)
		return 1;
	if (rc != SQLITE_ROW)
		return err_sqlite(err, st->db, "read run");
	return 0;
}

int
store_run_list(struct store *st, const char *cand_id, struct run **out,
    size_t *n, struct err *err)
{
	sqlite3_stmt *s;
	int rc;

	*out = NULL;
	*n = 0;
	if (prepare(st, &s, "SELECT " RUN_COLS " FROM run WHERE cand_id = ?1"
	    " ORDER BY id", err) < 0)
		return -1;
	bind_text(s, 1, cand_id);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		*out = xreallocarray(*out, *n + 1, sizeof **out);
		run_from_row(s, &(*out)[(*n)++]);
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE)
		return err_sqlite(err, st->db, "read runs");
	return 0;
}

/* --- decisions and the journal -------------------------------------- */

static int64_t
now_s(void)
{
	return (int64_t)time(NULL);
}

/* Current pointer (label_id or review_id) of a candidate; 0 when NULL. */
static int
cand_pointer(struct store *st, const char *cand_id, const char *field,
    int64_t *val, struct err *err)
{
	sqlite3_stmt *s;
	char sql[96];
	int rc;

	snprintf(sql, sizeof sql, "SELECT %s_id FROM candidate WHERE id = ?1",
	    field);
	if (prepare(st, &s, sql, err) < 0)
		return -1;
	bind_text(s, 1, cand_id);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		*val = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	if (rc == SQLITE_DONE)
		return err_set(err, "no candidate %s", cand_id);
	if (rc != SQLITE_ROW)
		return err_sqlite(err, st->db, "read candidate");
	return 0;
}

static int
set_pointer(struct store *st, const char *cand_id, const char *field,
    int64_t val, struct err *err)
{
	sqlite3_stmt *s;
	char sql[96];

	snprintf(sql, sizeof sql, "UPDATE candidate SET %s_id = ?1 WHERE"
	    " id = ?2", field);
	if (prepare(st, &s, sql, err) < 0)
		return -1;
	if (val != 0)
		sqlite3_bind_int64(s, 1, val);
	else
		sqlite3_bind_null(s, 1);
	bind_text(s, 2, cand_id);
	return step_done(st, s, "update candidate", err);
}

static int
event_insert(struct store *st, const char *who, const char *action,
    const char *cand_id, const char *field, int64_t before, int64_t after,
    int64_t target, const char *detail, struct err *err)
{
	sqlite3_stmt *s;

	if (prepare(st, &s, "INSERT INTO event(at, who, action, cand_id, field,"
	    " before, after, target, detail, batch) VALUES (?1, ?2, ?3, ?4, ?5,"
	    " ?6, ?7, ?8, ?9, ?10)", err) < 0)
		return -1;
	if (st->batch != 0)
		sqlite3_bind_int64(s, 10, st->batch);
	sqlite3_bind_int64(s, 1, now_s());
	bind_text(s, 2, who);
	bind_text(s, 3, action);
	bind_text(s, 4, cand_id);
	bind_text(s, 5, field);
	if (before != 0)
		sqlite3_bind_int64(s, 6, before);
	if (after != 0)
		sqlite3_bind_int64(s, 7, after);
	if (target != 0)
		sqlite3_bind_int64(s, 8, target);
	bind_text(s, 9, detail);
	return step_done(st, s, "journal", err);
}

/*
 * Record a decision: insert the history row with sql/binds done by the
 * caller's statement s, point the candidate at it and journal the move,
 * all in one transaction.
 */
static int
decide(struct store *st, sqlite3_stmt *s, const char *cand_id,
    const char *field, const char *by, const char *detail, struct err *err)
{
	int64_t before = 0, after;
	int own_tx = !st->in_tx;	/* inside an import: its transaction */

	if (own_tx && store_begin(st, err) < 0) {
		sqlite3_finalize(s);
		return -1;
	}
	if (cand_pointer(st, cand_id, field, &before, err) < 0) {
		sqlite3_finalize(s);
		goto fail;
	}
	if (step_done(st, s, field, err) < 0)
		goto fail;
	after = sqlite3_last_insert_rowid(st->db);
	if (set_pointer(st, cand_id, field, after, err) < 0 ||
	    event_insert(st, by, field, cand_id, field, before, after, 0,
	    detail, err) < 0 ||
	    (own_tx && store_commit(st, err) < 0))
		goto fail;
	return 0;
fail:
	if (own_tx)
		store_rollback(st);
	return -1;
}

int
store_label_set(struct store *st, const char *cand_id, const char *category,
    const char *sub, const char *note, const char *by, int64_t run_id,
    const char *evidence, struct err *err)
{
	sqlite3_stmt *s;
	char detail[128];

	if (prepare(st, &s, "INSERT INTO label(cand_id, category, subcategory,"
	    " note, by, run_id, evidence, at) VALUES (?1, ?2, ?3, ?4, ?5, ?6,"
	    " ?7, ?8)", err) < 0)
		return -1;
	bind_text(s, 1, cand_id);
	bind_text(s, 2, category);
	bind_text(s, 3, sub);
	bind_text(s, 4, note);
	bind_text(s, 5, by);
	if (run_id != 0)
		sqlite3_bind_int64(s, 6, run_id);
	bind_text(s, 7, evidence);
	sqlite3_bind_int64(s, 8, now_s());
	snprintf(detail, sizeof detail, "label %s%s%s", category,
	    sub != NULL ? "/" : "", sub != NULL ? sub : "");
	return decide(st, s, cand_id, "label", by, detail, err);
}

int
store_review_set(struct store *st, const char *cand_id, const char *status,
    const char *note, const char *by, struct err *err)
{
	sqlite3_stmt *s;
	char detail[64];

	if (prepare(st, &s, "INSERT INTO review(cand_id, status, note, by, at)"
	    " VALUES (?1, ?2, ?3, ?4, ?5)", err) < 0)
		return -1;
	bind_text(s, 1, cand_id);
	bind_text(s, 2, status);
	bind_text(s, 3, note);
	bind_text(s, 4, by);
	sqlite3_bind_int64(s, 5, now_s());
	snprintf(detail, sizeof detail, "review %s", status);
	return decide(st, s, cand_id, "review", by, detail, err);
}

/* A journal row as undo/redo see it. */
struct jrow {
	int64_t	 id, before, after, target, batch;
	char	 action[16], field[16], cand_id[128], detail[128];
};

static int
jrow_get(struct store *st, int64_t id, struct jrow *j, struct err *err)
{
	sqlite3_stmt *s;
	int rc;

	memset(j, 0, sizeof *j);
	if (prepare(st, &s, "SELECT id, action, coalesce(field, ''),"
	    " coalesce(cand_id, ''), coalesce(before, 0), coalesce(after, 0),"
	    " coalesce(target, 0), coalesce(detail, ''), coalesce(batch, 0)"
	    " FROM event WHERE id = ?1",
	    err) < 0)
		return -1;
	sqlite3_bind_int64(s, 1, id);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		j->id = sqlite3_column_int64(s, 0);
		snprintf(j->action, sizeof j->action, "%s",
		    sqlite3_column_text(s, 1));
		snprintf(j->field, sizeof j->field, "%s",
		    sqlite3_column_text(s, 2));
		snprintf(j->cand_id, sizeof j->cand_id, "%s",
		    sqlite3_column_text(s, 3));
		j->before = sqlite3_column_int64(s, 4);
		j->after = sqlite3_column_int64(s, 5);
		j->target = sqlite3_column_int64(s, 6);
		snprintf(j->detail, sizeof j->detail, "%s",
		    sqlite3_column_text(s, 7));
		j->batch = sqlite3_column_int64(s, 8);
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_ROW)
		return err_sqlite(err, st->db, "read journal");
	return 0;
}

/*
 * Find the event to undo (redo == 0) or the undo event to redo (redo ==
 * 1) by walking the journal backwards.  The journal is append-only, so
 * "already undone" is a later undo naming the event as its target.
 * *found is 0 when there is nothing to do.
 */
static int
journal_target(struct store *st, int redo, int64_t *found, struct err *err)
{
	sqlite3_stmt *s;
	int64_t *seen = NULL;
	size_t nseen = 0;
	int rc;

	*found = 0;
	if (prepare(st, &s, "SELECT id, action, coalesce(target, 0) FROM event"
	    " WHERE action IN ('label', 'review', 'undo', 'redo')"
	    " ORDER BY id DESC", err) < 0)
		return -1;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(s, 0);
		const char *action = (const char *)sqlite3_column_text(s, 1);
		int64_t target = sqlite3_column_int64(s, 2);
		int is_undo = strcmp(action, "undo") == 0;
		int is_redo = strcmp(action, "redo") == 0;
		int skip = 0;

		for (size_t i = 0; i < nseen; i++)
			if (seen[i] == id)
				skip = 1;
		if (!redo) {
			if (is_undo) {
				seen = xreallocarray(seen, nseen + 1, sizeof *seen);
				seen[nseen++] = target;
			} else if (!skip) {
				*found = id;
				break;
			}
		} else {
			if (is_redo) {
				seen = xreallocarray(seen, nseen + 1, sizeof *seen);
				seen[nseen++] = target;
			} else if (is_undo) {
				if (!skip) {
					*found = id;
					break;
				}
			} else {
				break;	/* a new decision ends the redo chain */
			}
		}
	}
	free(seen);
	sqlite3_finalize(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return err_sqlite(err, st->db, "read journal");
	return 0;
}

/*
 * Undo or redo one journal step: the event id found by journal_target.
 * Caller holds the transaction; the new event joins st->batch.
 */
static int
undo_redo_one(struct store *st, int redo, int64_t id, const char *by,
    struct jrow *d, struct err *err)
{
	struct jrow t;
	int64_t val;

	if (jrow_get(st, id, &t, err) < 0)
		return -1;
	if (redo) {
		/* t is an undo; d is the decision it undid. */
		if (jrow_get(st, t.target, d, err) < 0)
			return -1;
		val = d->after;
	} else {
		*d = t;
		val = d->before;
	}
	d->batch = t.batch;
	if (set_pointer(st, d->cand_id, d->field, val, err) < 0 ||
	    event_insert(st, by, redo ? "redo" : "undo", d->cand_id, d->field,
	    redo ? d->before : d->after, val, id, d->detail, err) < 0)
		return -1;
	return 0;
}

/*
 * Undo or redo the newest step; when it belongs to a batch (a bulk
 * decision), every step of that batch goes with it, in one transaction.
 */
static int
undo_redo(struct store *st, int redo, const char *by, char *what, size_t n,
    struct err *err)
{
	struct jrow d, first;
	int64_t id, batch;
	size_t count = 0;

	if (store_begin(st, err) < 0)
		return -1;
	if (journal_target(st, redo, &id, err) < 0)
		goto fail;
	if (id == 0) {
		store_rollback(st);
		if (what != NULL && n > 0)
			snprintf(what, n, "nothing to %s", redo ? "redo" :
			    "undo");
		return 1;
	}
	if (jrow_get(st, id, &first, err) < 0)
		goto fail;
	batch = first.batch;
	st->batch = batch;
	for (;;) {
		if (undo_redo_one(st, redo, id, by, &d, err) < 0)
			goto fail;
		if (count++ == 0)
			first = d;
		if (batch == 0)
			break;
		if (journal_target(st, redo, &id, err) < 0 ||
		    (id != 0 && jrow_get(st, id, &d, err) < 0))
			goto fail;
		if (id == 0 || d.batch != batch)
			break;
	}
	st->batch = 0;
	if (store_commit(st, err) < 0)
		goto fail;
	if (what != NULL && n > 0 && count == 1)
		snprintf(what, n, "%s %s of %s", redo ? "redid" : "undid",
		    first.detail, first.cand_id);
	else if (what != NULL && n > 0)
		snprintf(what, n, "%s %s of %zu candidates, first of %s",
		    redo ? "redid" : "undid", first.detail, count,
		    first.cand_id);
	return 0;
fail:
	st->batch = 0;
	store_rollback(st);
	return -1;
}

int
store_undo(struct store *st, const char *by, char *what, size_t n,
    struct err *err)
{
	return undo_redo(st, 0, by, what, n, err);
}

int
store_redo(struct store *st, const char *by, char *what, size_t n,
    struct err *err)
{
	return undo_redo(st, 1, by, what, n, err);
}

int
store_batch_begin(struct store *st, struct err *err)
{
	sqlite3_stmt *s;
	int rc;

	if (store_begin(st, err) < 0)
		return -1;
	if (prepare(st, &s, "SELECT coalesce(max(batch), 0) + 1 FROM event",
	    err) < 0)
		goto fail;
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		st->batch = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	if (rc != SQLITE_ROW) {
		err_sqlite(err, st->db, "journal batch");
		goto fail;
	}
	return 0;
fail:
	store_rollback(st);
	return -1;
}

int
store_batch_commit(struct store *st, struct err *err)
{
	st->batch = 0;
	return store_commit(st, err);
}

void
store_batch_rollback(struct store *st)
{
	st->batch = 0;
	store_rollback(st);
}

int
store_note_add(struct store *st, const char *cand_id, const char *text,
    const char *by, struct err *err)
{
	sqlite3_stmt *s;
	int64_t ptr;
	int own_tx = !st->in_tx;
	char detail[128];

	if (text == NULL || *text == '\0')
		return err_set(err, "a note wants a text");
	if (own_tx && store_begin(st, err) < 0)
		return -1;
	if (cand_pointer(st, cand_id, "label", &ptr, err) < 0)
		goto fail;
	if (prepare(st, &s, "INSERT INTO note(cand_id, text, by, at) VALUES"
	    " (?1, ?2, ?3, ?4)", err) < 0)
		goto fail;
	bind_text(s, 1, cand_id);
	bind_text(s, 2, text);
	bind_text(s, 3, by);
	sqlite3_bind_int64(s, 4, now_s());
	if (step_done(st, s, "note", err) < 0)
		goto fail;
	snprintf(detail, sizeof detail, "note %.100s", text);
	if (event_insert(st, by, "note", cand_id, NULL, 0, 0, 0, detail,
	    err) < 0 || (own_tx && store_commit(st, err) < 0))
		goto fail;
	return 0;
fail:
	if (own_tx)
		store_rollback(st);
	return -1;
}

void
store_note_release(struct store_note *nt)
{
	if (nt == NULL)
		return;
	free(nt->text);
	free(nt->by);
	memset(nt, 0, sizeof *nt);
}

int
store_note_list(struct store *st, const char *cand_id,
    struct store_note **out, size_t *n, struct err *err)
{
	sqlite3_stmt *s;
	int rc;

	*out = NULL;
	*n = 0;
	if (prepare(st, &s, "SELECT id, at, text, by FROM note WHERE"
	    " cand_id = ?1 ORDER BY id", err) < 0)
		return -1;
	bind_text(s, 1, cand_id);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct store_note *nt;

		*out = xreallocarray(*out, *n + 1, sizeof **out);
		nt = &(*out)[(*n)++];
		nt->id = sqlite3_column_int64(s, 0);
		nt->at = sqlite3_column_int64(s, 1);
		nt->text = col_text(s, 2);
		nt->by = col_text(s, 3);
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE)
		return err_sqlite(err, st->db, "read notes");
	return 0;
}

int
store_view_save(struct store *st, const char *name, const char *filter,
    const char *by, struct err *err)
{
	sqlite3_stmt *s;

	if (name == NULL || *name == '\0' || strpbrk(name, " \t") != NULL)
		return err_set(err, "a view wants a name without blanks");
	/* a bad filter is refused now, not when the view is applied */
	if (filter != NULL && *filter != '\0') {
		size_t cnt;

		if (store_query_count(st, filter, &cnt, err) < 0)
			return -1;
	}
	if (prepare(st, &s, "INSERT OR REPLACE INTO view(name, filter, by, at)"
	    " VALUES (?1, ?2, ?3, ?4)", err) < 0)
		return -1;
	bind_text(s, 1, name);
	bind_text(s, 2, filter != NULL ? filter : "");
	bind_text(s, 3, by);
	sqlite3_bind_int64(s, 4, now_s());
	return step_done(st, s, "save view", err);
}

int
store_view_get(struct store *st, const char *name, char **filter,
    struct err *err)
{
	sqlite3_stmt *s;
	int rc;

	*filter = NULL;
	if (prepare(st, &s, "SELECT filter FROM view WHERE name = ?1",
	    err) < 0)
		return -1;
	bind_text(s, 1, name);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		*filter = col_text(s, 0);
	sqlite3_finalize(s);
	if (rc == SQLITE_DONE)
		return 1;
	if (rc != SQLITE_ROW)
		return err_sqlite(err, st->db, "read view");
	return 0;
}

void
store_view_release(struct store_view *v)
{
	if (v == NULL)
		return;
	free(v->name);
	free(v->filter);
	memset(v, 0, sizeof *v);
}

int
store_view_list(struct store *st, struct store_view **out, size_t *n,
    struct err *err)
{
	sqlite3_stmt *s;
	int rc;

	*out = NULL;
	*n = 0;
	if (prepare(st, &s, "SELECT name, filter FROM view ORDER BY name",
	    err) < 0)
		return -1;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		*out = xreallocarray(*out, *n + 1, sizeof **out);
		(*out)[*n].name = col_text(s, 0);
		(*out)[*n].filter = col_text(s, 1);
		(*n)++;
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE)
		return err_sqlite(err, st->db, "read views");
	return 0;
}

int
store_event_add(struct store *st, const char *who, const char *action,
    const char *cand_id, const char *detail, struct err *err)
{
	return event_insert(st, who, action, cand_id, NULL, 0, 0, 0, detail,
	    err);
}

void
store_event_release(struct store_event *e)
{
	if (e == NULL)
		return;
	free(e->who);
	free(e->action);
	free(e->cand_id);
	free(e->detail);
	memset(e, 0, sizeof *e);
}

int
store_event_list(struct store *st, const char *cand_id,
    struct store_event **out, size_t *n, struct err *err)
{
	sqlite3_stmt *s;
	int rc;

	*out = NULL;
	*n = 0;
	if (prepare(st, &s, "SELECT id, at, who, action, cand_id, detail FROM"
	    " event WHERE ?1 IS NULL OR cand_id = ?1 ORDER BY id", err) < 0)
		return -1;
	bind_text(s, 1, cand_id);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct store_event *e;

		*out = xreallocarray(*out, *n + 1, sizeof **out);
		e = &(*out)[(*n)++];
		e->id = sqlite3_column_int64(s, 0);
		e->at = sqlite3_column_int64(s, 1);
		e->who = col_text(s, 2);
		e->action = col_text(s, 3);
		e->cand_id = col_text(s, 4);
		e->detail = col_text(s, 5);
		e->undone = 0;
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE)
		return err_sqlite(err, st->db, "read events");
	return 0;
}

void
store_decision_release(struct store_decision *d)
{
	if (d == NULL)
		return;
	free(d->category);
	free(d->subcategory);
	free(d->label_by);
	free(d->label_note);
	free(d->status);
	free(d->review_note);
	free(d->review_by);
	memset(d, 0, sizeof *d);
}

int
store_decision_get(struct store *st, const char *cand_id,
    struct store_decision *out, struct err *err)
{
	sqlite3_stmt *s;
	int rc;

	memset(out, 0, sizeof *out);
	if (prepare(st, &s, "SELECT l.category, l.subcategory, l.by, l.note,"
	    " l.at, v.status, v.note, v.by, v.at FROM candidate c"
	    " LEFT JOIN label l ON l.id = c.label_id"
	    " LEFT JOIN review v ON v.id = c.review_id WHERE c.id = ?1",
	    err) < 0)
		return -1;
	bind_text(s, 1, cand_id);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		out->category = col_text(s, 0);
		out->subcategory = col_text(s, 1);
		out->label_by = col_text(s, 2);
		out->label_note = col_text(s, 3);
		out->label_at = sqlite3_column_int64(s, 4);
		out->status = col_text(s, 5);
		out->review_note = col_text(s, 6);
		out->review_by = col_text(s, 7);
		out->review_at = sqlite3_column_int64(s, 8);
	}
	sqlite3_finalize(s);
	if (rc == SQLITE_DONE)
		return err_set(err, "no candidate %s", cand_id);
	if (rc != SQLITE_ROW)
		return err_sqlite(err, st->db, "read decision");
	if (out->status == NULL)
		out->status = xstrdup("unreviewed");
	return 0;
}

/* --- the queue and filters ------------------------------------------ */

#define QUEUE_FROM \
	" FROM candidate c JOIN task t ON t.id = c.task_id" \
	" LEFT JOIN run r ON r.id = c.run_id" \
	" LEFT JOIN label l ON l.id = c.label_id" \
	" LEFT JOIN review v ON v.id = c.review_id"

#define QUEUE_COLS \
	"c.seq, c.id, c.task_id, t.benchmark, t.domain, c.origin, c.kind," \
	" c.lang, c.parent, c.source, t.env, r.verdict, r.stage, r.metrics," \
	" coalesce(l.category, r.category), coalesce(l.subcategory," \
	" CASE WHEN l.id IS NULL THEN r.subcategory END)," \
	" CASE WHEN l.id IS NOT NULL THEN l.by" \
	" WHEN r.category IS NOT NULL THEN 'auto' END," \
	" coalesce(v.status, 'unreviewed'), v.by"

static const struct {
	const char	*key;
	const char	*expr;
} filter_keys[] = {
	{ "id", "c.id" },
	{ "task", "c.task_id" },
	{ "benchmark", "t.benchmark" },
	{ "domain", "t.domain" },
	{ "origin", "c.origin" },
	{ "model", "c.origin" },
	{ "kind", "c.kind" },
	{ "lang", "c.lang" },
	{ "env", "t.env" },
	{ "verdict", "r.verdict" },
	{ "stage", "r.stage" },
	{ "category", "coalesce(l.category, r.category)" },
	{ "subcategory", "coalesce(l.subcategory, CASE WHEN l.id IS NULL THEN"
	    " r.subcategory END)" },
	{ "status", "coalesce(v.status, 'unreviewed')" },
	{ "source", "c.source" },
	{ "parent", "c.parent" },
};

/* A compiled filter: WHERE text and its bound values in order. */
struct filter {
	struct buf	 where;
	char		**vals;
	size_t		 nvals;
};

static void
filter_release(struct filter *f)
{
	buf_release(&f->where);
	for (size_t i = 0; i < f->nvals; i++)
		free(f->vals[i]);
	free(f->vals);
}

/*
 * Keys with a closed set of values: an unknown value (a typo, PASS) is an
 * error rather than a silently empty queue.  1 (err set) when bad.
 */
static int
filter_value_bad(const char *key, const char *val, struct err *err)
{
	static const struct { const char *key, *values; } sets[] = {
		{ "verdict", " pass fail timeout skipped env-error task-defect"
		    " none " },
		{ "status", " unreviewed accepted rejected flagged " },
		{ "category", " compile api functional format performance"
		    " none " },
		{ "kind", " direct repair optimization " },
	};

	for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) {
		char *padded;
		int found;

		if (strcmp(sets[i].key, key) != 0)
			continue;
		padded = xasprintf(" %s ", val);
		found = *val != '\0' && strchr(val, ' ') == NULL &&
		    strstr(sets[i].values, padded) != NULL;
		free(padded);
		if (!found) {
			err_set(err, "unknown %s '%s' (known:%.*s)", key, val,
			    (int)strlen(sets[i].values) - 1, sets[i].values);
			return 1;
		}
	}
	return 0;
}

/*
 * The end of the predicate at p: the next blank outside double quotes,
 * so that a quoted value (grep="a b", inner quotes doubled) may hold
 * blanks.
 */
static const char *
filter_word_end(const char *p)
{
	int quoted = 0;

	for (; *p != '\0'; p++) {
		if (*p == '"') {
			if (quoted && p[1] == '"')
				p++;
			else
				quoted = !quoted;
		} else if (!quoted && (*p == ' ' || *p == '\t')) {
			break;
		}
	}
	return p;
}

/* A value in double quotes loses them (in place); "" inside is one ". */
static void
filter_unquote(char *val)
{
	char *w = val;
	size_t len = strlen(val);

	if (len < 2 || val[0] != '"' || val[len - 1] != '"')
		return;
	val[len - 1] = '\0';
	for (const char *r = val + 1; *r != '\0'; r++) {
		if (r[0] == '"' && r[1] == '"')
			r++;
		*w++ = *r;
	}
	*w = '\0';
}

/*
 * grep=TEXT: candidates whose code, logs or task spec hold TEXT as a
 * phrase.  TEXT is bound as an FTS5 string ("..." with inner quotes
 * doubled), so that ( [ <= - are plain text and never query syntax.
 */
static void
filter_grep(struct filter *f, const char *text, int neg)
{
	struct buf q = BUF_INIT;
	size_t k = f->nvals + 1;

	buf_adds(&q, "\"");
	for (const char *r = text; *r != '\0'; r++) {
		if (*r == '"')
			buf_addc(&q, '"');
		buf_addc(&q, *r);
	}
	buf_adds(&q, "\"");
	/* the IS NOT NULLs keep NOT IN from meeting a NULL (unknown) */
	buf_printf(&f->where, " AND %s(c.seq IN (SELECT seq FROM search"
	    " WHERE search MATCH ?%zu AND seq IS NOT NULL) OR c.task_id IN"
	    " (SELECT task FROM search WHERE search MATCH ?%zu AND task IS"
	    " NOT NULL))", neg ? "NOT " : "", k, k);
	f->vals = xreallocarray(f->vals, f->nvals + 1, sizeof *f->vals);
	f->vals[f->nvals++] = xstrdup(buf_str(&q));
	buf_release(&q);
}

static int
filter_compile(const char *text, struct filter *f, struct err *err)
{
	const char *p = text != NULL ? text : "";

	memset(f, 0, sizeof *f);
	buf_adds(&f->where, " WHERE 1");
	while (*p != '\0') {
		const char *end, *op;
		size_t klen, i;
		char *word, *val;
		int neg = 0, like = 0;

		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '\0')
			break;
		end = filter_word_end(p);
		word = xstrndup(p, (size_t)(end - p));
		p = end;
		op = strpbrk(word, "=~!");
		if (op == NULL || op == word) {
			err_set(err, "bad filter predicate '%s': want KEY=VALUE,"
			    " KEY!=VALUE or KEY~TEXT", word);
			free(word);
			filter_release(f);
			return -1;
		}
		klen = (size_t)(op - word);
		if (op[0] == '!' && op[1] == '=') {
			neg = 1;
			val = (char *)op + 2;
		} else if (op[0] == '~') {
			like = 1;
			val = (char *)op + 1;
		} else if (op[0] == '=') {
			val = (char *)op + 1;
		} else {
			err_set(err, "bad filter predicate '%s'", word);
			free(word);
			filter_release(f);
			return -1;
		}
		filter_unquote(val);
		if (klen == 4 && strncmp(word, "grep", 4) == 0 &&
		    *val == '\0') {
			err_set(err, "bad filter predicate '%s': grep wants"
			    " a text", word);
			free(word);
			filter_release(f);
			return -1;
		}
		if (klen == 4 && strncmp(word, "grep", 4) == 0) {
			filter_grep(f, val, neg);
			free(word);
			continue;
		}
		for (i = 0; i < sizeof filter_keys / sizeof filter_keys[0]; i++)
			if (strlen(filter_keys[i].key) == klen &&
			    strncmp(filter_keys[i].key, word, klen) == 0)
				break;
		if (i == sizeof filter_keys / sizeof filter_keys[0]) {
			err_set(err, "unknown filter key '%.*s' (known: id task"
			    " benchmark domain origin model kind lang env verdict"
			    " stage category subcategory status source parent"
			    " grep)",
			    (int)klen,
			    word);
			free(word);
			filter_release(f);
			return -1;
		}
		if (!like && filter_value_bad(filter_keys[i].key, val, err)) {
			free(word);
			filter_release(f);
			return -1;
		}
		if (!like && strcmp(val, "none") == 0) {
			buf_printf(&f->where, " AND %s IS %sNULL",
			    filter_keys[i].expr, neg ? "NOT " : "");
		} else {
			if (like)
				buf_printf(&f->where, " AND instr(lower(coalesce(%s,"
				    " '')), lower(?%zu)) > 0", filter_keys[i].expr,
				    f->nvals + 1);
			else
				buf_printf(&f->where, " AND coalesce(%s, '') %s ?%zu",
				    filter_keys[i].expr, neg ? "!=" : "=",
				    f->nvals + 1);
			f->vals = xreallocarray(f->vals, f->nvals + 1,
			    sizeof *f->vals);
			f->vals[f->nvals++] = xstrdup(val);
		}
		free(word);
	}
	return 0;
}

static void
filter_bind(const struct filter *f, sqlite3_stmt *s)
{
	for (size_t i = 0; i < f->nvals; i++)
		bind_text(s, (int)i + 1, f->vals[i]);
}

void
store_row_release(struct store_row *r)
{
	if (r == NULL)
		return;
	free(r->id);
	free(r->task);
	free(r->benchmark);
	free(r->domain);
	free(r->origin);
	free(r->kind);
	free(r->lang);
	free(r->parent);
	free(r->source);
	free(r->env);
	free(r->verdict);
	free(r->stage);
	free(r->metrics);
	free(r->category);
	free(r->subcategory);
	free(r->category_source);
	free(r->status);
	free(r->reviewed_by);
	memset(r, 0, sizeof *r);
}

static void
row_from_stmt(sqlite3_stmt *s, struct store_row *r)
{
	r->seq = sqlite3_column_int64(s, 0);
	r->id = col_text(s, 1);
	r->task = col_text(s, 2);
	r->benchmark = col_text(s, 3);
	r->domain = col_text(s, 4);
	r->origin = col_text(s, 5);
	r->kind = col_text(s, 6);
	r->lang = col_text(s, 7);
	r->parent = col_text(s, 8);
	r->source = col_text(s, 9);
	r->env = col_text(s, 10);
	r->verdict = col_text(s, 11);
	r->stage = col_text(s, 12);
	r->metrics = col_text(s, 13);
	r->category = col_text(s, 14);
	r->subcategory = col_text(s, 15);
	r->category_source = col_text(s, 16);
	r->status = col_text(s, 17);
	r->reviewed_by = col_text(s, 18);
}

int
store_query_count(struct store *st, const char *filter, size_t *n,
    struct err *err)
{
	struct filter f;
	struct buf sql = BUF_INIT;
	sqlite3_stmt *s;
	int rc;

	*n = 0;
	if (filter_compile(filter, &f, err) < 0)
		return -1;
	buf_printf(&sql, "SELECT count(*)" QUEUE_FROM "%s", buf_str(&f.where));
	rc = prepare(st, &s, buf_str(&sql), err);
	buf_release(&sql);
	if (rc < 0) {
		filter_release(&f);
		return -1;
	}
	filter_bind(&f, s);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		*n = (size_t)sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	filter_release(&f);
	if (rc != SQLITE_ROW)
		return err_sqlite(err, st->db, "count");
	return 0;
}

int
store_query_page(struct store *st, const char *filter, size_t offset,
    size_t limit, struct store_row **out, size_t *n, struct err *err)
{
	struct filter f;
	struct buf sql = BUF_INIT;
	sqlite3_stmt *s;
	int rc;

	*out = NULL;
	*n = 0;
	if (filter_compile(filter, &f, err) < 0)
		return -1;
	buf_printf(&sql, "SELECT " QUEUE_COLS QUEUE_FROM "%s ORDER BY c.seq"
	    " LIMIT %zu OFFSET %zu", buf_str(&f.where), limit, offset);
	rc = prepare(st, &s, buf_str(&sql), err);
	buf_release(&sql);
	if (rc < 0) {
		filter_release(&f);
		return -1;
	}
	filter_bind(&f, s);
	if (limit > 0)
		*out = xcalloc(limit, sizeof **out);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW && *n < limit)
		row_from_stmt(s, &(*out)[(*n)++]);
	sqlite3_finalize(s);
	filter_release(&f);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW) {
		for (size_t i = 0; i < *n; i++)
			store_row_release(&(*out)[i]);
		free(*out);
		*out = NULL;
		*n = 0;
		return err_sqlite(err, st->db, "page");
	}
	return 0;
}

int
store_query_index(struct store *st, const char *filter, const char *cand_id,
    size_t *index, struct err *err)
{
	struct filter f;
	struct buf sql = BUF_INIT;
	sqlite3_stmt *s;
	int rc, found = -1;

	if (filter_compile(filter, &f, err) < 0)
		return -1;
	buf_printf(&sql, "SELECT count(*), max(c.id = ?%zu)" QUEUE_FROM
	    "%s AND c.seq <= (SELECT seq FROM candidate WHERE id = ?%zu)",
	    f.nvals + 1, buf_str(&f.where), f.nvals + 1);
	rc = prepare(st, &s, buf_str(&sql), err);
	buf_release(&sql);
	if (rc < 0) {
		filter_release(&f);
		return -1;
	}
	filter_bind(&f, s);
	bind_text(s, (int)f.nvals + 1, cand_id);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW && sqlite3_column_int(s, 1) == 1) {
		*index = (size_t)sqlite3_column_int64(s, 0) - 1;
		found = 0;
	}
	sqlite3_finalize(s);
	filter_release(&f);
	if (rc != SQLITE_ROW)
		return err_sqlite(err, st->db, "locate");
	return found;
}

int
store_query_each(struct store *st, const char *filter,
    int (*cb)(const struct store_row *row, void *arg), void *arg,
    struct err *err)
{
	struct filter f;
	struct buf sql = BUF_INIT;
	sqlite3_stmt *s;
	int rc, stop = 0;

	if (filter_compile(filter, &f, err) < 0)
		return -1;
	buf_printf(&sql, "SELECT " QUEUE_COLS QUEUE_FROM "%s ORDER BY c.seq",
	    buf_str(&f.where));
	rc = prepare(st, &s, buf_str(&sql), err);
	buf_release(&sql);
	if (rc < 0) {
		filter_release(&f);
		return -1;
	}
	filter_bind(&f, s);
	while (!stop && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct store_row r;

		memset(&r, 0, sizeof r);
		row_from_stmt(s, &r);
		stop = cb(&r, arg);
		store_row_release(&r);
	}
	sqlite3_finalize(s);
	filter_release(&f);
	if (stop)
		return stop;
	if (rc != SQLITE_DONE)
		return err_sqlite(err, st->db, "query");
	return 0;
}

/* --- statistics ---------------------------------------------------- */

void
store_stat_release(struct store_stat *c)
{
	if (c == NULL)
		return;
	free(c->group);
	free(c->verdict);
	free(c->category);
	free(c->subcategory);
	memset(c, 0, sizeof *c);
}

int
store_stats(struct store *st, const char *filter, const char *group_key,
    struct store_stat **out, size_t *n, struct err *err)
{
	struct filter f;
	struct buf sql = BUF_INIT;
	const char *gexpr = NULL;
	sqlite3_stmt *s;
	size_t cap = 0;
	int rc;

	*out = NULL;
	*n = 0;
	for (size_t i = 0; i < sizeof filter_keys / sizeof filter_keys[0]; i++)
		if (group_key != NULL && strcmp(filter_keys[i].key,
		    group_key) == 0)
			gexpr = filter_keys[i].expr;
	if (gexpr == NULL)
		return err_set(err, "cannot group by '%s'", group_key != NULL ?
		    group_key : "");
	if (filter_compile(filter, &f, err) < 0)
		return -1;
	/* The same category and subcategory expressions as the queue. */
	buf_printf(&sql, "SELECT %s AS g, r.verdict AS vd,"
	    " coalesce(l.category, r.category) AS cat,"
	    " coalesce(l.subcategory, CASE WHEN l.id IS NULL THEN"
	    " r.subcategory END) AS sub, count(*)" QUEUE_FROM "%s"
	    " GROUP BY g, vd, cat, sub ORDER BY g, vd, cat, sub", gexpr,
	    buf_str(&f.where));
	rc = prepare(st, &s, buf_str(&sql), err);
	buf_release(&sql);
	if (rc < 0) {
		filter_release(&f);
		return -1;
	}
	filter_bind(&f, s);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct store_stat *c;

		if (*n == cap) {
			cap = cap > 0 ? cap * 2 : 32;
			*out = xreallocarray(*out, cap, sizeof **out);
		}
		c = &(*out)[(*n)++];
		c->group = col_text(s, 0);
		if (c->group == NULL)
			c->group = xstrdup("");
		c->verdict = col_text(s, 1);
		c->category = col_text(s, 2);
		c->subcategory = col_text(s, 3);
		c->count = (size_t)sqlite3_column_int64(s, 4);
	}
	sqlite3_finalize(s);
	filter_release(&f);
	if (rc != SQLITE_DONE) {
		for (size_t i = 0; i < *n; i++)
			store_stat_release(&(*out)[i]);
		free(*out);
		*out = NULL;
		*n = 0;
		return err_sqlite(err, st->db, "stats");
	}
	return 0;
}

/* --- export helpers -------------------------------------------------- */

void
store_label_release(struct store_label *l)
{
	if (l == NULL)
		return;
	free(l->category);
	free(l->subcategory);
	free(l->note);
	free(l->by);
	free(l->evidence);
	memset(l, 0, sizeof *l);
}

int
store_label_list(struct store *st, const char *cand_id,
    struct store_label **out, size_t *n, struct err *err)
{
	sqlite3_stmt *s;
	int rc;

	*out = NULL;
	*n = 0;
	if (prepare(st, &s, "SELECT l.id, l.at, l.category, l.subcategory,"
	    " l.note, l.by, l.evidence, l.id IS c.label_id FROM label l"
	    " JOIN candidate c ON c.id = l.cand_id WHERE l.cand_id = ?1"
	    " ORDER BY l.id", err) < 0)
		return -1;
	bind_text(s, 1, cand_id);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct store_label *l;

		*out = xreallocarray(*out, *n + 1, sizeof **out);
		l = &(*out)[(*n)++];
		l->id = sqlite3_column_int64(s, 0);
		l->at = sqlite3_column_int64(s, 1);
		l->category = col_text(s, 2);
		l->subcategory = col_text(s, 3);
		l->note = col_text(s, 4);
		l->by = col_text(s, 5);
		l->evidence = col_text(s, 6);
		l->current = sqlite3_column_int(s, 7);
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE) {
		for (size_t i = 0; i < *n; i++)
			store_label_release(&(*out)[i]);
		free(*out);
		*out = NULL;
		*n = 0;
		return err_sqlite(err, st->db, "read labels");
	}
	return 0;
}

int
store_task_each_empty(struct store *st,
    int (*cb)(const char *task_id, void *arg), void *arg, struct err *err)
{
	sqlite3_stmt *s;
	int rc = SQLITE_DONE, stop = 0;

	if (prepare(st, &s, "SELECT t.id FROM task t WHERE NOT EXISTS"
	    " (SELECT 1 FROM candidate c WHERE c.task_id = t.id)"
	    " ORDER BY t.id", err) < 0)
		return -1;
	while (!stop && (rc = sqlite3_step(s)) == SQLITE_ROW)
		stop = cb((const char *)sqlite3_column_text(s, 0), arg);
	sqlite3_finalize(s);
	if (stop)
		return stop;
	if (rc != SQLITE_DONE)
		return err_sqlite(err, st->db, "read tasks");
	return 0;
}
