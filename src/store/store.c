/*
 * store.c - the sample database; see store.h for the contract.
 *
 * The only file that calls sqlite3_*.  Statements are prepared per call
 * (the hot paths are a page of the queue and one candidate at a time, so
 * preparation is not the cost); every public function either finishes
 * its statement or fails with the SQLite message copied into err.
 */
#include "store/store.h"

#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>
#include <sqlite3.h>

#include "model/agreement.h"
#include "model/vocab.h"
#include "base/buf.h"
#include "base/hash.h"
#include "base/ident.h"

/*
 * A grep= result kept as the temporary table grep_<slot> of candidate
 * seqs, so that paging through a search that matches half a million
 * candidates does not search again for every page.  It stays valid
 * while the search index gains no row (search_gen is the same).
 */
#define STORE_GREPS	4
struct store_grep {
	char	*query;		/* the FTS5 string; NULL: free */
	int64_t	 version;	/* search_gen.n when it was filled */
	uint64_t used;		/* for least recently used */
	size_t	 count;		/* its rows */
};

struct store {
	sqlite3	*db;
	int	 in_tx;		/* an explicit store_begin() is open */
	int	 readonly;	/* the file cannot be written: reads only */
	int64_t	 batch;		/* journal batch of new events; 0: none */
	struct store_grep greps[STORE_GREPS];
	uint64_t grep_clock;
	/* Statements of the import's hot path, prepared once (hot()). */
	sqlite3_stmt *hot[12];
	/* store_import_begin(): where the import's rows start. */
	int	 bulk;
	int64_t	 bulk_task, bulk_seq, bulk_rec, bulk_note;
};

/* The slots of st->hot. */
enum hot_stmt {
	HOT_CAND_FIND, HOT_ID_TAKEN, HOT_CAND_INSERT, HOT_RECORDED_INSERT,
	HOT_TASK_INSERT, HOT_TASK_FILE_INSERT, HOT_SAVEPOINT, HOT_RELEASE,
	HOT_TASK_ENV
};

/*
 * Parts of migration 5 -> 6, so never edit them either.  MIG6_QUEUE_ROW
 * is a queue row from the candidate c, as QUEUE_COLS computes its
 * columns.  MIG6_DOC(S) is the rowid of the next search row of the
 * candidate whose seq is S: a candidate's rows are S << 16 (its code)
 * and the ones after it, so that a match's candidate is its rowid >> 16
 * and no stored column is read; the rows of task specs are negative.
 * MIG6_GEN counts the rows ever added to search (grep_table()).
 * MIG6_FACTS are the columns of a queue row that decisions change.
 */
#define MIG6_DOC(S) \
	"(SELECT coalesce(max(rowid) + 1, (" S ") << 16) FROM search" \
	" WHERE rowid BETWEEN (" S ") << 16 AND ((" S ") << 16) + 65535)"
#define MIG6_GEN	" UPDATE search_gen SET n = n + 1;"
#define MIG6_QUEUE_ROW \
	"SELECT c.seq, c.id, c.task_id, c.origin, c.kind, c.lang," MIG6_FACTS
#define MIG6_FACTS \
	" r.verdict, r.stage, coalesce(l.category, r.category)," \
	" coalesce(l.subcategory," \
	" CASE WHEN l.id IS NULL THEN r.subcategory END)," \
	" coalesce(v.status, 'unreviewed') FROM candidate c" \
	" LEFT JOIN run r ON r.id = c.run_id" \
	" LEFT JOIN label l ON l.id = c.label_id" \
	" LEFT JOIN review v ON v.id = c.review_id"
/* queue_sum's key from the queue row r (new or old); '' for NULL */
#define MIG6_SUM_KEY(r) \
	r ".task_id, " r ".origin, coalesce(" r ".verdict, ''), coalesce(" \
	r ".category, ''), coalesce(" r ".subcategory, '')"

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
	/*
	 * 5 -> 6: a million candidates (issue 5).  queue holds the filter
	 * and statistics columns of every candidate in one narrow row, kept
	 * by triggers as the candidate's run, label and review pointers
	 * move (those rows are append-only, so the pointers are all that
	 * changes), with an index per column people filter on: counts,
	 * filters and statistics then read narrow rows and indexes, never
	 * the wide candidate and run rows.  The repairs of a candidate are
	 * found by index (the trace).
	 */
	"CREATE TABLE queue ("
	"  seq         INTEGER PRIMARY KEY,"
	"  id          TEXT NOT NULL,"
	"  task_id     TEXT NOT NULL,"
	"  origin      TEXT NOT NULL,"
	"  kind        TEXT NOT NULL,"
	"  lang        TEXT NOT NULL,"
	"  verdict     TEXT,"
	"  stage       TEXT,"
	"  category    TEXT,"
	"  subcategory TEXT,"
	"  status      TEXT NOT NULL"
	");"
	"INSERT INTO queue " MIG6_QUEUE_ROW ";"
	/*
	 * The statistics of the whole queue, kept as counts per task,
	 * model, verdict, category and subcategory ('' for none), so that
	 * the sheet reads a few thousand rows, not a million.  Candidates
	 * are never deleted, so queue rows are only inserted and updated.
	 */
	"CREATE TABLE queue_sum ("
	"  task_id     TEXT NOT NULL,"
	"  origin      TEXT NOT NULL,"
	"  verdict     TEXT NOT NULL,"
	"  category    TEXT NOT NULL,"
	"  subcategory TEXT NOT NULL,"
	"  n           INTEGER NOT NULL,"
	"  PRIMARY KEY (task_id, origin, verdict, category, subcategory)"
	") WITHOUT ROWID;"
	"INSERT INTO queue_sum SELECT " MIG6_SUM_KEY("q") ", count(*)"
	"  FROM queue q GROUP BY 1, 2, 3, 4, 5;"
	"CREATE TRIGGER queue_insert AFTER INSERT ON candidate BEGIN"
	"  INSERT INTO queue " MIG6_QUEUE_ROW " WHERE c.seq = new.seq;"
	"END;"
	"CREATE TRIGGER queue_update AFTER UPDATE OF run_id, label_id,"
	"  review_id ON candidate BEGIN"
	"  UPDATE queue SET (verdict, stage, category, subcategory, status) ="
	"  (SELECT" MIG6_FACTS " WHERE c.seq = new.seq) WHERE seq = new.seq;"
	"END;"
	"CREATE TRIGGER queue_sum_insert AFTER INSERT ON queue BEGIN"
	"  INSERT INTO queue_sum VALUES (" MIG6_SUM_KEY("new") ", 1)"
	"  ON CONFLICT DO UPDATE SET n = n + 1;"
	"END;"
	"CREATE TRIGGER queue_sum_update AFTER UPDATE OF verdict, category,"
	"  subcategory ON queue WHEN old.verdict IS NOT new.verdict OR"
	"  old.category IS NOT new.category OR"
	"  old.subcategory IS NOT new.subcategory BEGIN"
	"  UPDATE queue_sum SET n = n - 1 WHERE (task_id, origin, verdict,"
	"  category, subcategory) = (" MIG6_SUM_KEY("old") ");"
	"  INSERT INTO queue_sum VALUES (" MIG6_SUM_KEY("new") ", 1)"
	"  ON CONFLICT DO UPDATE SET n = n + 1;"
	"END;"
	/*
	 * One column each, so that the rows of one value come in seq order
	 * and a page is a range of the index (keyset paging); the _stats
	 * ones cover the GROUP BY of a filtered queue's statistics, and
	 * (category, verdict) counts the pair the sheet's cells filter by.
	 */
	"CREATE INDEX queue_verdict ON queue(verdict);"
	"CREATE INDEX queue_category ON queue(category);"
	"CREATE INDEX queue_status ON queue(status);"
	"CREATE INDEX queue_task ON queue(task_id);"
	"CREATE INDEX queue_origin ON queue(origin);"
	"CREATE INDEX queue_task_stats ON queue(task_id, verdict, category,"
	"  subcategory);"
	"CREATE INDEX queue_origin_stats ON queue(origin, verdict, category,"
	"  subcategory);"
	"CREATE INDEX queue_category_verdict ON queue(category, verdict);"
	"CREATE INDEX queue_stage ON queue(stage);"
	"CREATE INDEX queue_kind ON queue(kind);"
	"CREATE INDEX candidate_parent ON candidate(parent);"
	/*
	 * The search index again, with rowids that name the candidate
	 * (MIG6_DOC): reading a stored seq for each of half a million
	 * matches cost seconds.
	 */
	"DROP TRIGGER search_task;"
	"DROP TRIGGER search_candidate;"
	"DROP TRIGGER search_run;"
	"DROP TRIGGER search_recorded;"
	"DROP TRIGGER search_note;"
	"DROP TABLE search;"
	"CREATE VIRTUAL TABLE search USING fts5(body, task UNINDEXED,"
	"  tokenize = \"unicode61 tokenchars '_'\");"
	"CREATE TABLE search_gen(n INTEGER NOT NULL);"
	"INSERT INTO search_gen VALUES (0);"
	"CREATE TRIGGER search_task AFTER INSERT ON task BEGIN"
	"  INSERT INTO search(rowid, body, task) VALUES ((SELECT"
	"  coalesce(min(rowid), 0) - 1 FROM search WHERE rowid < 0),"
	"  coalesce(new.spec, '') || char(10) || coalesce(new.interface, ''),"
	"  new.id);" MIG6_GEN
	"END;"
	"CREATE TRIGGER search_candidate AFTER INSERT ON candidate BEGIN"
	"  INSERT INTO search(rowid, body) VALUES (new.seq << 16,"
	"  CAST(new.code AS TEXT));" MIG6_GEN
	"END;"
	"CREATE TRIGGER search_run AFTER INSERT ON run BEGIN"
	"  INSERT INTO search(rowid, body) SELECT " MIG6_DOC("c.seq") ","
	"  CAST(new.log AS TEXT) FROM candidate c WHERE c.id = new.cand_id;"
	MIG6_GEN
	"END;"
	"CREATE TRIGGER search_recorded AFTER INSERT ON recorded BEGIN"
	"  INSERT INTO search(rowid, body) SELECT " MIG6_DOC("c.seq") ","
	"  new.log FROM candidate c WHERE c.id = new.cand_id"
	"  AND new.log IS NOT NULL;" MIG6_GEN
	"END;"
	"CREATE TRIGGER search_note AFTER INSERT ON note BEGIN"
	"  INSERT INTO search(rowid, body) SELECT " MIG6_DOC("c.seq") ","
	"  new.text FROM candidate c WHERE c.id = new.cand_id;" MIG6_GEN
	"END;"
	/* what is there: specs, code, then runs, recorded logs, notes */
	"INSERT INTO search(rowid, body, task) SELECT -row_number() OVER"
	"  (ORDER BY id), coalesce(spec, '') || char(10) ||"
	"  coalesce(interface, ''), id FROM task;"
	"INSERT INTO search(rowid, body) SELECT seq << 16,"
	"  CAST(code AS TEXT) FROM candidate ORDER BY seq;"
	"INSERT INTO search(rowid, body) SELECT (c.seq << 16) + (SELECT"
	"  count(*) FROM run x WHERE x.cand_id = r.cand_id AND x.id <= r.id),"
	"  CAST(r.log AS TEXT) FROM run r JOIN candidate c ON c.id = r.cand_id"
	"  ORDER BY r.id;"
	"INSERT INTO search(rowid, body) SELECT (c.seq << 16) + (SELECT"
	"  count(*) FROM run x WHERE x.cand_id = d.cand_id) + (SELECT"
	"  count(*) FROM recorded x WHERE x.cand_id = d.cand_id AND"
	"  x.id <= d.id AND x.log IS NOT NULL), d.log FROM recorded d"
	"  JOIN candidate c ON c.id = d.cand_id WHERE d.log IS NOT NULL"
	"  ORDER BY d.id;"
	"INSERT INTO search(rowid, body) SELECT (c.seq << 16) + (SELECT"
	"  count(*) FROM run x WHERE x.cand_id = n.cand_id) + (SELECT"
	"  count(*) FROM recorded x WHERE x.cand_id = n.cand_id AND"
	"  x.log IS NOT NULL) + (SELECT count(*) FROM note x WHERE"
	"  x.cand_id = n.cand_id AND x.id <= n.id), n.text FROM note n"
	"  JOIN candidate c ON c.id = n.cand_id ORDER BY n.id;"
	"UPDATE search_gen SET n = (SELECT count(*) FROM search);",
	/*
	 * 6 -> 7: the curated set as training data (issue 14).  A task's
	 * split (set by hand, or assigned by a stable hash of its id) and
	 * licence; near-duplicate clusters (one row per candidate in a
	 * cluster of two or more; keep marks the one an export keeps) and
	 * benchmark contamination (one row per candidate and benchmark it
	 * shares long n-grams with), both replaced whole by their command.
	 */
	"ALTER TABLE task ADD COLUMN split TEXT;"
	"ALTER TABLE task ADD COLUMN split_hand INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE task ADD COLUMN license TEXT;"
	"ALTER TABLE task ADD COLUMN license_source TEXT;"
	"CREATE INDEX task_split ON task(split);"
	"CREATE TABLE dup ("
	"  cand_id    TEXT PRIMARY KEY REFERENCES candidate(id),"
	"  cluster    TEXT NOT NULL,"
	"  exact      INTEGER NOT NULL,"
	"  similarity REAL,"
	"  keep       INTEGER NOT NULL"
	") WITHOUT ROWID;"
	"CREATE INDEX dup_cluster ON dup(cluster);"
	"CREATE TABLE contamination ("
	"  cand_id    TEXT NOT NULL REFERENCES candidate(id),"
	"  benchmark  TEXT NOT NULL,"
	"  task_id    TEXT,"
	"  ngrams     INTEGER NOT NULL,"
	"  PRIMARY KEY (cand_id, benchmark)"
	") WITHOUT ROWID;",
	/*
	 * 7 -> 8: an import that keeps up (issue 13).  While an import
	 * holds a row in bulk (inside its own transaction, so no other
	 * connection ever sees it), the per-row triggers that keep the
	 * search index and the queue stand aside; store_import_publish()
	 * then adds the import's rows to both in a few statements.  Each
	 * FTS5 insert from a trigger ran under a statement savepoint, and
	 * FTS5 writes its pending terms out at every savepoint: a segment
	 * per row.
	 */
	"CREATE TABLE bulk(n INTEGER NOT NULL);"
	"DROP TRIGGER search_task;"
	"DROP TRIGGER search_candidate;"
	"DROP TRIGGER search_recorded;"
	"DROP TRIGGER search_note;"
	"DROP TRIGGER queue_insert;"
	"DROP TRIGGER queue_sum_insert;"
	"CREATE TRIGGER search_task AFTER INSERT ON task"
	"  WHEN NOT EXISTS (SELECT 1 FROM bulk) BEGIN"
	"  INSERT INTO search(rowid, body, task) VALUES ((SELECT"
	"  coalesce(min(rowid), 0) - 1 FROM search WHERE rowid < 0),"
	"  coalesce(new.spec, '') || char(10) || coalesce(new.interface, ''),"
	"  new.id);" MIG6_GEN
	"END;"
	"CREATE TRIGGER search_candidate AFTER INSERT ON candidate"
	"  WHEN NOT EXISTS (SELECT 1 FROM bulk) BEGIN"
	"  INSERT INTO search(rowid, body) VALUES (new.seq << 16,"
	"  CAST(new.code AS TEXT));" MIG6_GEN
	"END;"
	"CREATE TRIGGER search_recorded AFTER INSERT ON recorded"
	"  WHEN NOT EXISTS (SELECT 1 FROM bulk) BEGIN"
	"  INSERT INTO search(rowid, body) SELECT " MIG6_DOC("c.seq") ","
	"  new.log FROM candidate c WHERE c.id = new.cand_id"
	"  AND new.log IS NOT NULL;" MIG6_GEN
	"END;"
	"CREATE TRIGGER search_note AFTER INSERT ON note"
	"  WHEN NOT EXISTS (SELECT 1 FROM bulk) BEGIN"
	"  INSERT INTO search(rowid, body) SELECT " MIG6_DOC("c.seq") ","
	"  new.text FROM candidate c WHERE c.id = new.cand_id;" MIG6_GEN
	"END;"
	"CREATE TRIGGER queue_insert AFTER INSERT ON candidate"
	"  WHEN NOT EXISTS (SELECT 1 FROM bulk) BEGIN"
	"  INSERT INTO queue " MIG6_QUEUE_ROW " WHERE c.seq = new.seq;"
	"END;"
	"CREATE TRIGGER queue_sum_insert AFTER INSERT ON queue"
	"  WHEN NOT EXISTS (SELECT 1 FROM bulk) BEGIN"
	"  INSERT INTO queue_sum VALUES (" MIG6_SUM_KEY("new") ", 1)"
	"  ON CONFLICT DO UPDATE SET n = n + 1;"
	"END;",
	/*
	 * 8 -> 9: a label that settles a disagreement says so in a column
	 * of its own; until v8 it was known by matching the prose of its
	 * journal event ("label compile (final)").
	 */
	"ALTER TABLE label ADD COLUMN final INTEGER NOT NULL DEFAULT 0"
	"  CHECK (final IN (0, 1));"
	"UPDATE label SET final = 1 WHERE EXISTS (SELECT 1 FROM event e"
	"  WHERE e.cand_id = label.cand_id AND e.action = 'label'"
	"  AND e.after = label.id"
	"  AND e.detail = 'label ' || label.category || ' (final)');",
	/*
	 * 9 -> 10: a run's category is one of the five (model/vocab.h), as
	 * a label's always was.  SQLite cannot add a CHECK to a column
	 * without copying the table (every log of every run), so two
	 * triggers hold the same check (docs/adr/0021-vocabulary.md).  Rows
	 * stored before stay as they are.
	 */
	"CREATE TRIGGER run_category_insert BEFORE INSERT ON run"
	"  WHEN NOT " VOCAB_SQL_CHECK("new.category", VOCAB_CATEGORIES)
	"  BEGIN SELECT RAISE(ABORT, 'run.category: not a category'); END;"
	"CREATE TRIGGER run_category_update BEFORE UPDATE OF category ON run"
	"  WHEN NOT " VOCAB_SQL_CHECK("new.category", VOCAB_CATEGORIES)
	"  BEGIN SELECT RAISE(ABORT, 'run.category: not a category'); END;",
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

/*
 * The statement of slot h, prepared on first use and kept for the life
 * of the store: an import of a million rows prepared each insert a
 * million times, compiling its triggers every time.  Give it back with
 * hot_done() (reset, bindings cleared), never finalize it.
 */
static int
hot(struct store *st, enum hot_stmt h, sqlite3_stmt **out, const char *sql,
    struct err *err)
{
	*out = NULL;
	if (st->hot[h] == NULL && sqlite3_prepare_v3(st->db, sql, -1,
	    SQLITE_PREPARE_PERSISTENT, &st->hot[h], NULL) != SQLITE_OK) {
		st->hot[h] = NULL;
		return err_sqlite(err, st->db, "prepare");
	}
	*out = st->hot[h];
	return 0;
}

static void
hot_done(sqlite3_stmt *s)
{
	sqlite3_reset(s);
	sqlite3_clear_bindings(s);
}

/* Step a hot statement that must finish (INSERT/UPDATE); resets it. */
static int
hot_step(struct store *st, sqlite3_stmt *s, const char *what,
    struct err *err)
{
	int rc = sqlite3_step(s);

	if (rc != SQLITE_DONE)
		err_sqlite(err, st->db, what);
	hot_done(s);
	return rc == SQLITE_DONE ? 0 : -1;
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
	for (int i = 0; i < STORE_GREPS; i++)
		free(st->greps[i].query);
	for (size_t i = 0; i < sizeof st->hot / sizeof st->hot[0]; i++)
		sqlite3_finalize(st->hot[i]);
	sqlite3_close(st->db);
	free(st);
}

void
store_lock_timeout(struct store *st, int ms)
{
	sqlite3_busy_timeout(st->db, ms);
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

int
store_in_tx(const struct store *st)
{
	return st->in_tx;
}

void
store_rollback(struct store *st)
{
	sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
	st->in_tx = 0;
	st->bulk = 0;
}

/* One int64 of a statement without parameters. */
static int
query_int64(struct store *st, const char *sql, int64_t *out,
    struct err *err)
{
	sqlite3_stmt *s;
	int rc;

	*out = 0;
	if (prepare(st, &s, sql, err) < 0)
		return -1;
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		*out = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return err_sqlite(err, st->db, sql);
	return 0;
}

int
store_import_begin(struct store *st, struct err *err)
{
	if (store_begin(st, err) < 0)
		return -1;
	if (query_int64(st, "SELECT coalesce(max(rowid), 0) FROM task",
	    &st->bulk_task, err) < 0 ||
	    query_int64(st, "SELECT coalesce(max(seq), 0) FROM candidate",
	    &st->bulk_seq, err) < 0 ||
	    query_int64(st, "SELECT coalesce(max(id), 0) FROM recorded",
	    &st->bulk_rec, err) < 0 ||
	    query_int64(st, "SELECT coalesce(max(id), 0) FROM note",
	    &st->bulk_note, err) < 0 ||
	    exec(st, "INSERT INTO bulk VALUES (1)", err) < 0 ||
	    exec(st, "PRAGMA cache_size = -131072", err) < 0) {
		store_rollback(st);
		return -1;
	}
	st->bulk = 1;
	return 0;
}

/*
 * The search rows and queue rows of what the import added, as the
 * triggers of migration 6 would have made them one by one: task specs
 * below the lowest negative rowid, a candidate's code at seq << 16, its
 * recorded logs and notes after the highest rowid of its range (the
 * SELECT reads search, so SQLite fills a temporary table first and
 * each subquery sees search as it was).
 */
static int step_done(struct store *, sqlite3_stmt *, const char *,
    struct err *);

static const char *const publish_sql[] = {
	"INSERT INTO search(rowid, body, task) SELECT (SELECT"
	" coalesce(min(rowid), 0) FROM search WHERE rowid < 0) -"
	" row_number() OVER (ORDER BY t.rowid), coalesce(t.spec, '') ||"
	" char(10) || coalesce(t.interface, ''), t.id FROM task t"
	" WHERE t.rowid > ?1",
	"INSERT INTO search(rowid, body) SELECT seq << 16, CAST(code AS TEXT)"
	" FROM candidate WHERE seq > ?2 ORDER BY seq",
	/* A new candidate's logs follow its code: no need to read search
	 * (and so to copy every log into a temporary table first). */
	"INSERT INTO search(rowid, body) SELECT (c.seq << 16) + row_number()"
	" OVER (PARTITION BY c.seq ORDER BY r.id), r.log FROM recorded r"
	" JOIN candidate c ON c.id = r.cand_id WHERE r.id > ?3 AND"
	" c.seq > ?2 AND r.log IS NOT NULL",
	"INSERT INTO search(rowid, body) SELECT coalesce((SELECT max(x.rowid)"
	" FROM search x WHERE x.rowid BETWEEN c.seq << 16 AND"
	" (c.seq << 16) + 65535), (c.seq << 16) - 1) + row_number() OVER"
	" (PARTITION BY c.seq ORDER BY r.id), r.log FROM recorded r"
	" JOIN candidate c ON c.id = r.cand_id WHERE r.id > ?3 AND"
	" c.seq <= ?2 AND r.log IS NOT NULL",
	"INSERT INTO search(rowid, body) SELECT coalesce((SELECT max(x.rowid)"
	" FROM search x WHERE x.rowid BETWEEN c.seq << 16 AND"
	" (c.seq << 16) + 65535), (c.seq << 16) - 1) + row_number() OVER"
	" (PARTITION BY c.seq ORDER BY n.id), n.text FROM note n"
	" JOIN candidate c ON c.id = n.cand_id WHERE n.id > ?4",
	"INSERT INTO queue " MIG6_QUEUE_ROW " WHERE c.seq > ?2 ORDER BY c.seq",
	"INSERT INTO queue_sum SELECT " MIG6_SUM_KEY("q") ", count(*) FROM"
	" queue q WHERE q.seq > ?2 GROUP BY 1, 2, 3, 4, 5"
	" ON CONFLICT DO UPDATE SET n = n + excluded.n",
};

int
store_import_publish(struct store *st, struct err *err)
{
	int64_t added = 0;

	if (!st->bulk)
		return 0;
	for (size_t i = 0; i < sizeof publish_sql / sizeof publish_sql[0];
	    i++) {
		sqlite3_stmt *s;

		if (prepare(st, &s, publish_sql[i], err) < 0)
			return -1;
		for (int k = 1; k <= sqlite3_bind_parameter_count(s); k++) {
			const char *name = sqlite3_bind_parameter_name(s, k);
			int64_t v = name == NULL ? 0 : name[1] == '1' ?
			    st->bulk_task : name[1] == '2' ? st->bulk_seq :
			    name[1] == '3' ? st->bulk_rec : st->bulk_note;

			sqlite3_bind_int64(s, k, v);
		}
		if (step_done(st, s, "publish the import", err) < 0)
			return -1;
		if (strncmp(publish_sql[i], "INSERT INTO search", 18) == 0)
			added += sqlite3_changes(st->db);
	}
	{
		char sql[96];

		snprintf(sql, sizeof sql, "UPDATE search_gen SET n = n + %lld;"
		    " DELETE FROM bulk;", (long long)added);
		if (exec(st, sql, err) < 0)
			return -1;
	}
	st->bulk = 0;
	return 0;
}

int
store_savepoint(struct store *st, struct err *err)
{
	sqlite3_stmt *s;

	/* Once per imported row: prepared once. */
	if (hot(st, HOT_SAVEPOINT, &s, "SAVEPOINT row", err) < 0)
		return -1;
	return hot_step(st, s, "SAVEPOINT row", err);
}

void
store_savepoint_end(struct store *st, int keep)
{
	sqlite3_stmt *s;

	if (!keep)
		sqlite3_exec(st->db, "ROLLBACK TO row", NULL, NULL, NULL);
	if (hot(st, HOT_RELEASE, &s, "RELEASE row", NULL) == 0)
		hot_step(st, s, "RELEASE row", NULL);
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

/*
 * Why here: ids and names become dataset paths, file names on toolchain
 * command lines and commit trailers (ident.h).  The store is the one way
 * in, so nothing unchecked reaches a table, and the caller gets words,
 * not a constraint failure.
 */
static int
check_task(const struct task *t, struct err *err)
{
	char a[96], b[96];
	struct err e;

	if (ident_check_task_id(t->id, &e) < 0)
		return err_set(err, "task id '%s': %s", ident_show(t->id, a,
		    sizeof a), e.msg);
	if (ident_check_domain(t->domain, &e) < 0)
		return err_set(err, "task %s: domain '%s': %s", t->id,
		    ident_show(t->domain, a, sizeof a), e.msg);
	for (size_t i = 0; i < t->nfiles; i++)
		if (ident_check_file_name(t->files[i].name, &e) < 0)
			return err_set(err, "task %s: file name '%s': %s",
			    t->id, ident_show(t->files[i].name, b, sizeof b),
			    e.msg);
	return 0;
}

static int
check_by(const char *by, struct err *err)
{
	char a[96];
	struct err e;

	if (ident_check_reviewer(by, &e) < 0)
		return err_set(err, "reviewer name '%s': %s", ident_show(by, a,
		    sizeof a), e.msg);
	return 0;
}

static int
check_category(const char *category, struct err *err)
{
	char a[96], names[80];

	if (category_from_name(category) != CATEGORY_NONE)
		return 0;
	return err_set(err, "unknown category '%s' (%s)", ident_show(category,
	    a, sizeof a), category_list(names, sizeof names, " "));
}

int
store_task_put(struct store *st, const struct task *t, int *inserted,
    struct err *err)
{
	sqlite3_stmt *s;

	*inserted = 0;
	if (check_task(t, err) < 0)
		return -1;
	if (hot(st, HOT_TASK_INSERT, &s, "INSERT OR IGNORE INTO task(id,"
	    " benchmark, domain, env, env_params, spec, interface, source,"
	    " extra, license,"
	    " license_source, split, split_hand)"
	    " VALUES (?1, ?2, ?3, ?4, coalesce(?5, '{}'), ?6, ?7, ?8, ?9,"
	    " ?10, ?11, ?12, ?13)", err) < 0)
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
	bind_text(s, 10, t->license);
	bind_text(s, 11, t->license_source);
	bind_text(s, 12, t->split);
	sqlite3_bind_int(s, 13, t->split != NULL && t->split_hand);
	if (hot_step(st, s, "insert task", err) < 0)
		return -1;
	if (sqlite3_changes(st->db) == 0)
		return 0;
	*inserted = 1;
	for (size_t i = 0; i < t->nfiles; i++) {
		const struct task_file *f = &t->files[i];

		if (hot(st, HOT_TASK_FILE_INSERT, &s, "INSERT INTO task_file("
		    "task_id, name, role, data) VALUES (?1, ?2, ?3, ?4)",
		    err) < 0)
			return -1;
		bind_text(s, 1, t->id);
		bind_text(s, 2, f->name);
		bind_text(s, 3, f->role);
		sqlite3_bind_blob(s, 4, f->data, (int)f->len, SQLITE_TRANSIENT);
		if (hot_step(st, s, "insert task file", err) < 0)
			return -1;
	}
	return 0;
}

int
store_task_env(struct store *st, const char *id, char **env,
    struct err *err)
{
	sqlite3_stmt *s;
	int rc;

	*env = NULL;
	if (hot(st, HOT_TASK_ENV, &s, "SELECT env FROM task WHERE id = ?1",
	    err) < 0)
		return -1;
	bind_text(s, 1, id);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		*env = col_text(s, 0);
	hot_done(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return err_sqlite(err, st->db, "read task");
	return rc == SQLITE_ROW ? 0 : 1;
}

int
store_task_get(struct store *st, const char *id, struct task *out,
    struct err *err)
{
	sqlite3_stmt *s;
	int rc;

	memset(out, 0, sizeof *out);
	if (prepare(st, &s, "SELECT id, benchmark, domain, env, env_params,"
	    " spec, interface, source, extra, license, license_source, split,"
	    " split_hand FROM task WHERE id = ?1", err) < 0)
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
	out->license = col_text(s, 9);
	out->license_source = col_text(s, 10);
	out->split = col_text(s, 11);
	out->split_hand = sqlite3_column_int(s, 12);
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
	if (hot(st, HOT_CAND_FIND, &s, "SELECT id FROM candidate WHERE"
	    " task_id = ?1 AND origin = ?2 AND code_hash = ?3", err) < 0)
		return -1;
	bind_text(s, 1, c->task_id);
	bind_text(s, 2, c->origin);
	bind_text(s, 3, c->code_hash);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		*id = col_text(s, 0);
	hot_done(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return err_sqlite(err, st->db, "find candidate");
	return 0;
}

static int
id_taken(struct store *st, const char *id, int *taken, struct err *err)
{
	sqlite3_stmt *s;
	int rc;

	if (hot(st, HOT_ID_TAKEN, &s, "SELECT 1 FROM candidate WHERE id = ?1",
	    err) < 0)
		return -1;
	bind_text(s, 1, id);
	rc = sqlite3_step(s);
	hot_done(s);
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
	char *existing, show[96];
	struct err e;

	*inserted = 0;
	if (c->id != NULL && ident_check_id(c->id, &e) < 0)
		return err_set(err, "candidate id '%s': %s", ident_show(c->id,
		    show, sizeof show), e.msg);
	if (c->parent != NULL && ident_check_id(c->parent, &e) < 0)
		return err_set(err, "parent id '%s': %s", ident_show(c->parent,
		    show, sizeof show), e.msg);
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
	} else {
		char *other = NULL;
		int rc;

		/* An explicit id names one candidate: say whose it is
		 * (docs/adr/0011), not "UNIQUE constraint failed". */
		if (prepare(st, &s, "SELECT task_id FROM candidate WHERE"
		    " id = ?1", err) < 0)
			return -1;
		bind_text(s, 1, c->id);
		rc = sqlite3_step(s);
		if (rc == SQLITE_ROW)
			other = col_text(s, 0);
		sqlite3_finalize(s);
		if (rc != SQLITE_ROW && rc != SQLITE_DONE)
			return err_sqlite(err, st->db, "check id");
		if (other != NULL) {
			err_set(err, "candidate id '%s' is already taken by"
			    " another candidate (of task %s%s); give the"
			    " candidate another id, or import with --id-prefix",
			    c->id, other, strcmp(other, c->task_id) == 0 ?
			    ", this row's task" : "");
			free(other);
			return -1;
		}
	}
	if (hot(st, HOT_CAND_INSERT, &s, "INSERT INTO candidate(id, task_id,"
	    " origin, origin_raw, kind, lang, parent, source, code, code_hash,"
	    " extra)"
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
	if (hot_step(st, s, "insert candidate", err) < 0)
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

	if (hot(st, HOT_RECORDED_INSERT, &s, "INSERT INTO recorded(cand_id,"
	    " verdict, stage, log, extra) VALUES (?1, ?2, ?3, ?4, ?5)",
	    err) < 0)
		return -1;
	bind_text(s, 1, cand_id);
	bind_text(s, 2, r->verdict);
	bind_text(s, 3, r->stage);
	bind_text(s, 4, r->log);
	bind_text(s, 5, r->extra);
	return hot_step(st, s, "insert recorded", err);
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
	return store_run_insert(st, r, 1, err);
}

int
store_run_insert(struct store *st, struct run *r, int latest,
    struct err *err)
{
	sqlite3_stmt *s;
	char *diags;
	int own_tx = !st->in_tx;

	if (verdict_from_name(r->verdict) == VERDICT_NONE)
		return err_set(err, "run of %s: unknown verdict '%s'",
		    r->cand_id != NULL ? r->cand_id : "?",
		    r->verdict != NULL ? r->verdict : "(none)");
	if (r->category != NULL && check_category(r->category, err) < 0)
		return -1;
	diags = diags_to_json(r);
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
	/* latest 2: only when no run of the candidate started later. */
	if (latest && prepare(st, &s, latest == 1 ?
	    "UPDATE candidate SET run_id = ?1 WHERE id = ?2" :
	    "UPDATE candidate SET run_id = ?1 WHERE id = ?2 AND"
	    " coalesce((SELECT started FROM run WHERE id = candidate.run_id),"
	    " 0) <= ?3", err) < 0)
		goto fail;
	if (latest) {
		sqlite3_bind_int64(s, 1, r->id);
		bind_text(s, 2, r->cand_id);
		if (latest == 2)
			sqlite3_bind_int64(s, 3, r->started);
		if (step_done(st, s, "update candidate run", err) < 0)
			goto fail;
	}
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

int
store_run_exists(struct store *st, const struct run *r, int *exists,
    struct err *err)
{
	sqlite3_stmt *s;
	int rc;

	*exists = 0;
	if (prepare(st, &s, "SELECT 1 FROM run WHERE cand_id = ?1 AND"
	    " coalesce(input_key, '') = ?2 AND started = ?3 AND wall_ms = ?4"
	    " AND verdict = ?5 LIMIT 1", err) < 0)
		return -1;
	bind_text(s, 1, r->cand_id);
	bind_text(s, 2, r->input_key);
	sqlite3_bind_int64(s, 3, r->started);
	sqlite3_bind_int64(s, 4, r->wall_ms);
	bind_text(s, 5, r->verdict);
	rc = sqlite3_step(s);
	sqlite3_finalize(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return err_sqlite(err, st->db, "find run");
	*exists = rc == SQLITE_ROW;
	return 0;
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

	/* The journal's who is a reviewer name or a command's ("import"):
	 * the same rule, for every journalled act. */
	if (check_by(who, err) < 0)
		return -1;
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

	if (check_category(category, err) < 0 || check_by(by, err) < 0)
		return -1;
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
	static const char *const statuses[] = { "unreviewed", "accepted",
		"rejected", "flagged" };
	sqlite3_stmt *s;
	char detail[64], show[96];
	int known = 0;

	for (size_t i = 0; status != NULL && i < 4; i++)
		known = known || strcmp(status, statuses[i]) == 0;
	if (!known)
		return err_set(err, "unknown review status '%s' (unreviewed"
		    " accepted rejected flagged)", ident_show(status, show,
		    sizeof show));
	if (check_by(by, err) < 0)
		return -1;
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
journal_target(struct store *st, int redo, const char *who, int64_t *found,
    struct err *err)
{
	sqlite3_stmt *s;
	int64_t *seen = NULL;
	size_t nseen = 0;
	int rc;

	*found = 0;
	/* who: only that reviewer's steps (their decisions, their undos and
	 * redos), so that one reviewer's undo never takes back another's. */
	if (prepare(st, &s, "SELECT id, action, coalesce(target, 0) FROM event"
	    " WHERE action IN ('label', 'review', 'undo', 'redo')"
	    " AND (?1 IS NULL OR who = ?1) ORDER BY id DESC", err) < 0)
		return -1;
	bind_text(s, 1, who);
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
    int mine, struct jrow *d, struct err *err)
{
	struct jrow t;
	int64_t val, now;

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
	/* A reviewer's own step whose candidate someone else decided since:
	 * moving the pointer back would take that later decision away. */
	if (mine) {
		if (cand_pointer(st, d->cand_id, d->field, &now, err) < 0)
			return -1;
		if (now != (redo ? d->before : d->after))
			return err_set(err, "cannot %s %s of %s: someone else"
			    " decided it since (undo --any takes the newest"
			    " step of anyone)", redo ? "redo" : "undo",
			    d->detail, d->cand_id);
	}
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
int
store_undo_step(struct store *st, int redo, const char *by, int any,
    struct store_step *out, struct err *err)
{
	int mine = !any;
	const char *who = mine ? by : NULL;
	struct jrow d, first;
	int64_t id, batch;
	size_t count = 0;

	memset(out, 0, sizeof *out);
	if (store_begin(st, err) < 0)
		return -1;
	if (journal_target(st, redo, who, &id, err) < 0)
		goto fail;
	if (id == 0) {
		store_rollback(st);
		return 1;
	}
	if (jrow_get(st, id, &first, err) < 0)
		goto fail;
	batch = first.batch;
	st->batch = batch;
	for (;;) {
		if (undo_redo_one(st, redo, id, by, mine, &d, err) < 0)
			goto fail;
		/* Undo walks the batch newest first, redo oldest first:
		 * both name the step decided first. */
		if (count++ == 0 || !redo)
			first = d;
		if (batch == 0)
			break;
		if (journal_target(st, redo, who, &id, err) < 0 ||
		    (id != 0 && jrow_get(st, id, &d, err) < 0))
			goto fail;
		if (id == 0 || d.batch != batch)
			break;
	}
	st->batch = 0;
	if (store_commit(st, err) < 0)
		goto fail;
	out->count = count;
	snprintf(out->cand_id, sizeof out->cand_id, "%s", first.cand_id);
	snprintf(out->field, sizeof out->field, "%s", first.field);
	snprintf(out->detail, sizeof out->detail, "%s", first.detail);
	return 0;
fail:
	st->batch = 0;
	store_rollback(st);
	return -1;
}

const char *
store_step_text(int rc, int redo, const char *by, int any,
    const struct store_step *s, char *buf, size_t n)
{
	const char *verb = redo ? "redid" : "undid";

	if (buf == NULL || n == 0)
		return buf;
	buf[0] = '\0';
	if (rc == 1)
		snprintf(buf, n, "nothing to %s%s%s", redo ? "redo" : "undo",
		    any ? "" : " by ", any ? "" : by);
	else if (rc == 0 && s->count == 1)
		snprintf(buf, n, "%s %s of %s", verb, s->detail, s->cand_id);
	else if (rc == 0)
		snprintf(buf, n, "%s %s of %zu candidates, first of %s", verb,
		    s->detail, s->count, s->cand_id);
	return buf;
}

static int
undo_redo(struct store *st, int redo, const char *by, int mine, char *what,
    size_t n, struct err *err)
{
	struct store_step s;
	int rc = store_undo_step(st, redo, by, !mine, &s, err);

	if (rc >= 0)
		store_step_text(rc, redo, by, !mine, &s, what, n);
	return rc;
}

int
store_undo(struct store *st, const char *by, char *what, size_t n,
    struct err *err)
{
	return undo_redo(st, 0, by, 1, what, n, err);
}

int
store_redo(struct store *st, const char *by, char *what, size_t n,
    struct err *err)
{
	return undo_redo(st, 1, by, 1, what, n, err);
}

int
store_undo_any(struct store *st, const char *by, char *what, size_t n,
    struct err *err)
{
	return undo_redo(st, 0, by, 0, what, n, err);
}

int
store_redo_any(struct store *st, const char *by, char *what, size_t n,
    struct err *err)
{
	return undo_redo(st, 1, by, 0, what, n, err);
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
	if (check_by(by, err) < 0)
		return -1;
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

/*
 * Every table of the queue.  q (queue, schema v6) has one narrow row per
 * candidate with the columns filters and statistics read most; counts
 * and statistics join the others only when they need them (queue_from).
 */
#define QUEUE_FROM " FROM queue q" QUEUE_JOINS
#define QUEUE_JOINS \
	" JOIN candidate c ON c.seq = q.seq" \
	" JOIN task t ON t.id = q.task_id" \
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
	{ "task", "q.task_id" },
	{ "benchmark", "t.benchmark" },
	{ "domain", "t.domain" },
	{ "origin", "q.origin" },
	{ "model", "q.origin" },
	{ "kind", "q.kind" },
	{ "lang", "q.lang" },
	{ "env", "t.env" },
	{ "verdict", "q.verdict" },
	{ "stage", "q.stage" },
	/* as QUEUE_COLS: the current label's, else the latest run's */
	{ "category", "q.category" },
	{ "subcategory", "q.subcategory" },
	{ "status", "q.status" },
	{ "source", "c.source" },
	{ "parent", "c.parent" },
	{ "split", "t.split" },
	{ "license", "t.license" },
};

/* Where a grep= predicate sits in a compiled filter (filter_fast). */
struct filter_grep {
	size_t	 at, len;	/* its text in where */
	size_t	 val;		/* its FTS5 string in vals */
	int	 neg;
};

/* A compiled filter: WHERE text and its bound values in order. */
struct filter {
	struct buf	 where;
	char		**vals;
	size_t		 nvals;
	struct filter_grep *greps;
	size_t		 ngreps;
	int		 drive;		/* grep_table() slot to page by; -1 */
	int		 only;		/* drive is all the filter: */
	size_t		 count;		/* its count, known */
};

static void
filter_release(struct filter *f)
{
	buf_release(&f->where);
	for (size_t i = 0; i < f->nvals; i++)
		free(f->vals[i]);
	free(f->vals);
	free(f->greps);
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
filter_word_end(const char *p, const char **open)
{
	int quoted = 0;

	*open = NULL;	/* the quote left open, if any */
	for (; *p != '\0'; p++) {
		if (*p == '"') {
			if (quoted && p[1] == '"') {
				p++;
			} else {
				quoted = !quoted;
				*open = quoted ? p : NULL;
			}
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
	f->greps = xreallocarray(f->greps, f->ngreps + 1, sizeof *f->greps);
	f->greps[f->ngreps].at = f->where.len;
	f->greps[f->ngreps].val = f->nvals;
	f->greps[f->ngreps].neg = neg;
	/*
	 * A candidate's search rows are its seq << 16 and on, a task's are
	 * negative (schema v6).  The IS NOT NULL keeps NOT IN from meeting
	 * a NULL (unknown).
	 */
	buf_printf(&f->where, " AND %s(q.seq IN (SELECT rowid >> 16 FROM"
	    " search WHERE search MATCH ?%zu AND rowid >= 0) OR q.task_id IN"
	    " (SELECT task FROM search WHERE search MATCH ?%zu AND rowid < 0"
	    " AND task IS NOT NULL))", neg ? "NOT " : "", k, k);
	f->greps[f->ngreps].len = f->where.len - f->greps[f->ngreps].at;
	f->ngreps++;
	f->vals = xreallocarray(f->vals, f->nvals + 1, sizeof *f->vals);
	f->vals[f->nvals++] = xstrdup(buf_str(&q));
	buf_release(&q);
}

static int filter_disagree(struct filter *, const char *, int, int,
    struct err *);

/*
 * dup=yes|no: a near-duplicate that an export drops (in a cluster of
 * `assay dedup`, not the one kept), or not.  contaminated=yes|no: shares
 * long n-grams with a benchmark (`assay contamination`), or not.
 */
static int
filter_flag(struct filter *f, const char *word, size_t klen,
    const char *val, int neg, int like, struct err *err)
{
	int yes, dup = klen == 3;

	if (like || (strcmp(val, "yes") != 0 && strcmp(val, "no") != 0))
		return err_set(err, "%.*s wants yes or no, as %.*s=yes",
		    (int)klen, word, (int)klen, word);
	yes = (strcmp(val, "yes") == 0) != neg;
	buf_printf(&f->where, " AND c.id %sIN (%s)", yes ? "" : "NOT ", dup ?
	    "SELECT cand_id FROM dup WHERE NOT keep" :
	    "SELECT cand_id FROM contamination");
	return 0;
}

/* KEY~TEXT as a LIKE pattern: %TEXT%, with % _ and \ in TEXT plain. */
static char *
filter_like(const char *text)
{
	struct buf b = BUF_INIT;

	buf_addc(&b, '%');
	for (; *text != '\0'; text++) {
		if (*text == '%' || *text == '_' || *text == '\\')
			buf_addc(&b, '\\');
		buf_addc(&b, *text);
	}
	buf_addc(&b, '%');
	return buf_detach(&b, NULL);
}

static int
filter_compile(const char *text, struct filter *f, struct err *err)
{
	const char *p = text != NULL ? text : "";

	memset(f, 0, sizeof *f);
	buf_adds(&f->where, " WHERE 1");
	while (*p != '\0') {
		const char *end, *op, *open;
		size_t klen, i;
		char *word, *val;
		int neg = 0, like = 0;

		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '\0')
			break;
		end = filter_word_end(p, &open);
		if (open != NULL) {
			err_set(err, "filter: unterminated quote at column %zu:"
			    " %s", (size_t)(open - text) + 1, open);
			filter_release(f);
			return -1;
		}
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
		if ((klen == 3 && strncmp(word, "dup", 3) == 0) ||
		    (klen == 12 && strncmp(word, "contaminated", 12) == 0)) {
			int bad = filter_flag(f, word, klen, val, neg, like,
			    err) < 0;

			free(word);
			if (bad) {
				filter_release(f);
				return -1;
			}
			continue;
		}
		if (klen == 8 && strncmp(word, "disagree", 8) == 0) {
			int bad = filter_disagree(f, val, neg, like, err) < 0;

			free(word);
			if (bad) {
				filter_release(f);
				return -1;
			}
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
			    " split license grep disagree dup contaminated)",
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
				/* LIKE folds ASCII case as lower() did,
				 * without a new string per row */
				buf_printf(&f->where, " AND coalesce(%s, '')"
				    " LIKE ?%zu ESCAPE '\\'",
				    filter_keys[i].expr, f->nvals + 1);
			else if (!neg && *val != '\0')
				/* plain, so that an index can serve it */
				buf_printf(&f->where, " AND %s = ?%zu",
				    filter_keys[i].expr, f->nvals + 1);
			else
				buf_printf(&f->where, " AND coalesce(%s, '') %s ?%zu",
				    filter_keys[i].expr, neg ? "!=" : "=",
				    f->nvals + 1);
			f->vals = xreallocarray(f->vals, f->nvals + 1,
			    sizeof *f->vals);
			f->vals[f->nvals++] = like ? filter_like(val) :
			    xstrdup(val);
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

/* 1 when text names the table alias a ("c" in "c.id"), outside words. */
static int
names_alias(const char *text, char a)
{
	for (const char *p = text; (p = strchr(p, a)) != NULL; p++) {
		if (p[1] != '.')
			continue;
		if (p == text || !(p[-1] == '_' || p[-1] == '.' ||
		    (p[-1] >= 'a' && p[-1] <= 'z') ||
		    (p[-1] >= 'A' && p[-1] <= 'Z') ||
		    (p[-1] >= '0' && p[-1] <= '9')))
			return 1;
	}
	return 0;
}

/*
 * The FROM of a count or a GROUP BY over the queue: queue q, and the
 * wide tables only when text (the columns and the WHERE) names them.
 * Why: at a million candidates, a count that touches each candidate or
 * run row reads gigabytes; one that stays on q reads an index.
 */
static void
queue_joins(struct buf *sql, const char *text)
{
	int r = names_alias(text, 'r'), l = names_alias(text, 'l');
	int v = names_alias(text, 'v');
	int c = r || l || v || names_alias(text, 'c');

	if (c)
		buf_adds(sql, " JOIN candidate c ON c.seq = q.seq");
	if (names_alias(text, 't'))
		buf_adds(sql, " JOIN task t ON t.id = q.task_id");
	if (r)
		buf_adds(sql, " LEFT JOIN run r ON r.id = c.run_id");
	if (l)
		buf_adds(sql, " LEFT JOIN label l ON l.id = c.label_id");
	if (v)
		buf_adds(sql, " LEFT JOIN review v ON v.id = c.review_id");
}

static void
queue_from(struct buf *sql, const char *text)
{
	buf_adds(sql, " FROM queue q");
	queue_joins(sql, text);
}

/* How many rows search ever had: it grows with every new text. */
static int
search_version(struct store *st, int64_t *out, struct err *err)
{
	sqlite3_stmt *s;
	int rc;

	*out = 0;
	if (prepare(st, &s, "SELECT n FROM search_gen", err) < 0)
		return -1;
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		*out = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return err_sqlite(err, st->db, "search version");
	return 0;
}

/*
 * The slot of the temporary table temp.grep_<slot> holding the seqs of
 * the candidates that match the FTS5 string query, filled now unless a
 * fill of the same query is still valid.  0 or -1.
 */
static int
grep_table(struct store *st, const char *query, int *slot,
    struct err *err)
{
	struct store_grep *g = NULL;
	sqlite3_stmt *s;
	char sql[512];
	int64_t version;
	int k = 0;

	if (search_version(st, &version, err) < 0)
		return -1;
	for (int i = 0; i < STORE_GREPS; i++) {
		if (st->greps[i].query != NULL &&
		    strcmp(st->greps[i].query, query) == 0) {
			k = i;
			g = &st->greps[i];
			break;
		}
		if (st->greps[i].used < st->greps[k].used)
			k = i;
	}
	*slot = k;
	if (g != NULL && g->version == version) {
		g->used = ++st->grep_clock;
		return 0;
	}
	g = &st->greps[k];
	free(g->query);
	g->query = NULL;
	snprintf(sql, sizeof sql, "DROP TABLE IF EXISTS temp.grep_%d;"
	    " CREATE TEMP TABLE grep_%d(seq INTEGER PRIMARY KEY);", k, k);
	if (exec(st, sql, err) < 0)
		return -1;
	/* a spec's words match every candidate of its task */
	snprintf(sql, sizeof sql, "INSERT OR IGNORE INTO temp.grep_%d"
	    " SELECT rowid >> 16 FROM search WHERE search MATCH ?1 AND"
	    " rowid >= 0 UNION ALL SELECT q.seq FROM queue q WHERE q.task_id"
	    " IN (SELECT task FROM search WHERE search MATCH ?1 AND rowid < 0"
	    " AND task IS NOT NULL)", k);
	if (prepare(st, &s, sql, err) < 0)
		return -1;
	bind_text(s, 1, query);
	if (step_done(st, s, "search", err) < 0)
		return -1;
	g->count = (size_t)sqlite3_changes(st->db);
	g->query = xstrdup(query);
	g->version = version;
	g->used = ++st->grep_clock;
	return 0;
}

/*
 * Turn f's grep= predicates into lookups in their grep_table(), so that
 * a page or a count does not search again.  The full-text form that
 * filter_compile() wrote stays correct for every other caller.
 */
static int
filter_fast(struct store *st, struct filter *f, struct err *err)
{
	struct buf w = BUF_INIT;
	size_t from = 0, rest = f->where.len - strlen(" WHERE 1");

	f->drive = -1;
	f->only = 0;
	if (f->ngreps == 0)
		return 0;
	for (size_t i = 0; i < f->ngreps; i++) {
		const struct filter_grep *g = &f->greps[i];
		int slot;

		if (grep_table(st, f->vals[g->val], &slot, err) < 0) {
			buf_release(&w);
			return -1;
		}
		buf_add(&w, f->where.p + from, g->at - from);
		buf_printf(&w, " AND q.seq %sIN temp.grep_%d", g->neg ?
		    "NOT " : "", slot);
		if (!g->neg)
			f->drive = slot;
		/* one grep= and nothing else: its table is the queue */
		if (f->ngreps == 1 && !g->neg && g->len == rest) {
			f->only = 1;
			f->count = st->greps[slot].count;
		}
		from = g->at + g->len;
	}
	buf_add(&w, f->where.p + from, f->where.len - from);
	buf_release(&f->where);
	f->where = w;
	f->ngreps = 0;
	return 0;
}

/* filter_compile() then filter_fast(); f is released on failure. */
static int
filter_open(struct store *st, const char *text, struct filter *f,
    struct err *err)
{
	if (filter_compile(text, f, err) < 0)
		return -1;
	if (filter_fast(st, f, err) < 0) {
		filter_release(f);
		return -1;
	}
	return 0;
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
	if (filter_open(st, filter, &f, err) < 0)
		return -1;
	if (f.only) {
		*n = f.count;
		filter_release(&f);
		return 0;
	}
	buf_adds(&sql, "SELECT count(*)");
	queue_from(&sql, buf_str(&f.where));
	buf_adds(&sql, buf_str(&f.where));
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

/* Read the rows of a prepared page statement into *out (up to limit). */
static int
page_read(struct store *st, sqlite3_stmt *s, size_t limit,
    struct store_row **out, size_t *n, struct err *err)
{
	int rc = SQLITE_DONE;

	*out = NULL;
	*n = 0;
	if (limit > 0)
		*out = xcalloc(limit, sizeof **out);
	while (*n < limit && (rc = sqlite3_step(s)) == SQLITE_ROW)
		row_from_stmt(s, &(*out)[(*n)++]);
	if (*n < limit && rc != SQLITE_DONE) {
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
store_query_page(struct store *st, const char *filter, size_t offset,
    size_t limit, struct store_row **out, size_t *n, struct err *err)
{
	return store_query_seek(st, filter, 0, 1, offset, limit, out, n, err);
}

int
store_query_seek(struct store *st, const char *filter, int64_t from,
    int dir, size_t skip, size_t limit, struct store_row **out, size_t *n,
    struct err *err)
{
	struct filter f;
	struct buf sql = BUF_INIT;
	sqlite3_stmt *s;
	int rc;

	*out = NULL;
	*n = 0;
	if (filter_open(st, filter, &f, err) < 0)
		return -1;
	/*
	 * A search pages through its own table of matches (CROSS JOIN keeps
	 * it outermost): from the seek on, not from its first match.
	 */
	if (f.drive >= 0)
		buf_printf(&sql, "SELECT " QUEUE_COLS " FROM temp.grep_%d gk"
		    " CROSS JOIN queue q ON q.seq = gk.seq" QUEUE_JOINS "%s"
		    " AND gk.seq %s ?%zu ORDER BY gk.seq %s LIMIT %zu"
		    " OFFSET %zu", f.drive, buf_str(&f.where), dir < 0 ? "<" : ">",
		    f.nvals + 1, dir < 0 ? "DESC" : "ASC", limit, skip);
	else
		buf_printf(&sql, "SELECT " QUEUE_COLS QUEUE_FROM "%s AND q.seq"
		    " %s ?%zu ORDER BY q.seq %s LIMIT %zu OFFSET %zu",
		    buf_str(&f.where), dir < 0 ? "<" : ">", f.nvals + 1,
		    dir < 0 ? "DESC" : "ASC", limit, skip);
	rc = prepare(st, &s, buf_str(&sql), err);
	buf_release(&sql);
	if (rc < 0) {
		filter_release(&f);
		return -1;
	}
	filter_bind(&f, s);
	sqlite3_bind_int64(s, (int)f.nvals + 1, from);
	rc = page_read(st, s, limit, out, n, err);
	sqlite3_finalize(s);
	filter_release(&f);
	if (rc < 0)
		return -1;
	/* ascending either way */
	for (size_t i = 0; dir < 0 && i < *n / 2; i++) {
		struct store_row t = (*out)[i];

		(*out)[i] = (*out)[*n - 1 - i];
		(*out)[*n - 1 - i] = t;
	}
	return 0;
}

int
store_query_nth(struct store *st, const char *filter, int64_t from, int dir,
    size_t skip, int64_t *seq, struct err *err)
{
	struct filter f;
	struct buf sql = BUF_INIT;
	sqlite3_stmt *s;
	int rc;

	*seq = 0;
	if (filter_open(st, filter, &f, err) < 0)
		return -1;
	/* only the seq: the rows skipped are narrow queue (or match) rows */
	if (f.drive >= 0) {
		buf_printf(&sql, "SELECT gk.seq FROM temp.grep_%d gk CROSS JOIN"
		    " queue q ON q.seq = gk.seq", f.drive);
		queue_joins(&sql, buf_str(&f.where));
		buf_printf(&sql, "%s AND gk.seq %s ?%zu ORDER BY gk.seq %s"
		    " LIMIT 1 OFFSET %zu", buf_str(&f.where), dir < 0 ? "<" :
		    ">", f.nvals + 1, dir < 0 ? "DESC" : "ASC", skip);
	} else {
		buf_adds(&sql, "SELECT q.seq");
		queue_from(&sql, buf_str(&f.where));
		buf_printf(&sql, "%s AND q.seq %s ?%zu ORDER BY q.seq %s"
		    " LIMIT 1 OFFSET %zu", buf_str(&f.where), dir < 0 ? "<" :
		    ">", f.nvals + 1, dir < 0 ? "DESC" : "ASC", skip);
	}
	rc = prepare(st, &s, buf_str(&sql), err);
	buf_release(&sql);
	if (rc < 0) {
		filter_release(&f);
		return -1;
	}
	filter_bind(&f, s);
	sqlite3_bind_int64(s, (int)f.nvals + 1, from);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		*seq = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	filter_release(&f);
	if (rc == SQLITE_DONE)
		return 1;
	if (rc != SQLITE_ROW)
		return err_sqlite(err, st->db, "seek");
	return 0;
}

int
store_query_position(struct store *st, const char *filter, int64_t seq,
    size_t *index, struct err *err)
{
	struct filter f;
	struct buf sql = BUF_INIT;
	sqlite3_stmt *s;
	int rc, found = 1;

	if (filter_open(st, filter, &f, err) < 0)
		return -1;
	buf_adds(&sql, "SELECT count(*), max(q.seq)");
	queue_from(&sql, buf_str(&f.where));
	buf_printf(&sql, "%s AND q.seq <= ?%zu", buf_str(&f.where),
	    f.nvals + 1);
	rc = prepare(st, &s, buf_str(&sql), err);
	buf_release(&sql);
	if (rc < 0) {
		filter_release(&f);
		return -1;
	}
	filter_bind(&f, s);
	sqlite3_bind_int64(s, (int)f.nvals + 1, seq);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW && sqlite3_column_int64(s, 1) == seq) {
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
store_query_index(struct store *st, const char *filter, const char *cand_id,
    size_t *index, struct err *err)
{
	sqlite3_stmt *s;
	int64_t seq;
	int rc;

	if (prepare(st, &s, "SELECT seq FROM candidate WHERE id = ?1",
	    err) < 0)
		return -1;
	bind_text(s, 1, cand_id);
	rc = sqlite3_step(s);
	seq = rc == SQLITE_ROW ? sqlite3_column_int64(s, 0) : 0;
	sqlite3_finalize(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return err_sqlite(err, st->db, "locate");
	if (rc == SQLITE_DONE)
		return -1;
	rc = store_query_position(st, filter, seq, index, err);
	return rc == 0 ? 0 : -1;
}

int
store_query_match(struct store *st, const char *filter, const char *cand_id,
    int *match, struct err *err)
{
	struct filter f;
	struct buf sql = BUF_INIT;
	sqlite3_stmt *s;
	int rc;

	*match = 0;
	if (filter_open(st, filter, &f, err) < 0)
		return -1;
	buf_adds(&sql, "SELECT 1");
	queue_from(&sql, "c.");
	buf_printf(&sql, "%s AND c.id = ?%zu", buf_str(&f.where),
	    f.nvals + 1);
	rc = prepare(st, &s, buf_str(&sql), err);
	buf_release(&sql);
	if (rc < 0) {
		filter_release(&f);
		return -1;
	}
	filter_bind(&f, s);
	bind_text(s, (int)f.nvals + 1, cand_id);
	rc = sqlite3_step(s);
	*match = rc == SQLITE_ROW;
	sqlite3_finalize(s);
	filter_release(&f);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return err_sqlite(err, st->db, "match");
	return 0;
}

/* assay_find(a, ...): 1 when the find's regex matches an argument. */
static void
find_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	const regex_t *re = sqlite3_user_data(ctx);

	for (int i = 0; i < argc; i++) {
		const unsigned char *t = sqlite3_value_text(argv[i]);

		if (t != NULL &&
		    regexec(re, (const char *)t, 0, NULL, 0) == 0) {
			sqlite3_result_int(ctx, 1);
			return;
		}
	}
	sqlite3_result_int(ctx, 0);
}

int
store_query_find(struct store *st, const char *filter, const char *pattern,
    int64_t from, int dir, int64_t *seq, struct err *err)
{
	struct filter f;
	struct buf sql = BUF_INIT;
	sqlite3_stmt *s = NULL;
	regex_t re;
	char ebuf[128];
	int rc;

	*seq = 0;
	rc = regcomp(&re, pattern, REG_EXTENDED | REG_ICASE | REG_NOSUB);
	if (rc != 0) {
		regerror(rc, &re, ebuf, sizeof ebuf);
		return err_set(err, "/%s: %s", pattern, ebuf);
	}
	if (filter_open(st, filter, &f, err) < 0) {
		regfree(&re);
		return -1;
	}
	/* the columns the queue shows, all on the narrow queue row */
	buf_adds(&sql, "SELECT q.seq");
	queue_from(&sql, buf_str(&f.where));
	buf_printf(&sql, "%s AND q.seq %s ?%zu AND assay_find(q.id, q.task_id,"
	    " q.origin, q.verdict, q.category) ORDER BY q.seq %s LIMIT 1",
	    buf_str(&f.where), dir < 0 ? "<" : ">", f.nvals + 1,
	    dir < 0 ? "DESC" : "ASC");
	if (sqlite3_create_function(st->db, "assay_find", -1, SQLITE_UTF8,
	    &re, find_fn, NULL, NULL) != SQLITE_OK) {
		err_sqlite(err, st->db, "find");
		rc = -1;
		goto out;
	}
	rc = prepare(st, &s, buf_str(&sql), err);
	if (rc < 0)
		goto out;
	filter_bind(&f, s);
	sqlite3_bind_int64(s, (int)f.nvals + 1, from);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		*seq = sqlite3_column_int64(s, 0);
		rc = 0;
	} else if (rc == SQLITE_DONE) {
		rc = 1;
	} else {
		rc = err_sqlite(err, st->db, "find");
	}
out:
	sqlite3_finalize(s);
	/* the function points at re: it goes before re does */
	sqlite3_create_function(st->db, "assay_find", -1, SQLITE_UTF8, NULL,
	    NULL, NULL, NULL);
	buf_release(&sql);
	filter_release(&f);
	regfree(&re);
	return rc;
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

	if (filter_open(st, filter, &f, err) < 0)
		return -1;
	buf_printf(&sql, "SELECT " QUEUE_COLS QUEUE_FROM "%s ORDER BY q.seq",
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

const char *
store_stat_bucket(const struct store_stat *c)
{
	const char *vd = c->verdict;

	if (vd != NULL && strcmp(vd, "pass") == 0)
		return "pass";
	if (c->category != NULL)
		return c->category;
	if (vd == NULL)
		return "unverified";
	if (strcmp(vd, "fail") == 0 || strcmp(vd, "timeout") == 0)
		return "unlabelled";
	return vd;
}

int
store_stats(struct store *st, const char *filter, const char *group_key,
    struct store_stat **out, size_t *n, struct err *err)
{
	struct filter f;
	struct buf sql = BUF_INIT, names = BUF_INIT;
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
	if (filter_open(st, filter, &f, err) < 0)
		return -1;
	/*
	 * The category and subcategory of the queue (q, as QUEUE_COLS).
	 * A task's column (benchmark, domain, env) is joined once the
	 * candidates are counted per task: a million rows are counted on
	 * the queue_task_stats index, not joined a million times.
	 */
	if (strcmp(buf_str(&f.where), " WHERE 1") == 0 &&
	    (strncmp(gexpr, "t.", 2) == 0 || strcmp(gexpr, "q.origin") == 0 ||
	    strcmp(gexpr, "q.task_id") == 0)) {
		/* the whole queue: its counts are kept (queue_sum) */
		int task = gexpr[0] == 't';

		buf_printf(&sql, "SELECT %s%s AS g, nullif(s.verdict, '') AS vd,"
		    " nullif(s.category, '') AS cat, nullif(s.subcategory, '')"
		    " AS sub, sum(s.n) FROM queue_sum s%s WHERE s.n > 0",
		    task ? gexpr : "s.", task ? "" : gexpr + 2, task ?
		    " JOIN task t ON t.id = s.task_id" : "");
	} else if (strncmp(gexpr, "t.", 2) == 0) {
		buf_printf(&sql, "SELECT %s AS g, vd, cat, sub, sum(k) FROM"
		    " (SELECT q.task_id AS tid, q.verdict AS vd, q.category AS"
		    " cat, q.subcategory AS sub, count(*) AS k", gexpr);
		queue_from(&sql, buf_str(&f.where));
		buf_printf(&sql, "%s GROUP BY tid, vd, cat, sub) JOIN task t"
		    " ON t.id = tid", buf_str(&f.where));
	} else {
		buf_printf(&names, "%s %s", gexpr, buf_str(&f.where));
		buf_printf(&sql, "SELECT %s AS g, q.verdict AS vd,"
		    " q.category AS cat, q.subcategory AS sub, count(*)",
		    gexpr);
		queue_from(&sql, buf_str(&names));
		buf_adds(&sql, buf_str(&f.where));
		buf_release(&names);
	}
	buf_adds(&sql, " GROUP BY g, vd, cat, sub ORDER BY g, vd, cat, sub");
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

/* --- reviewers: agreement, disagreements, throughput ----------------- */

/*
 * The labels that stand, as the CTEs live and votes.  An undo of the
 * decision that gave a label (or of its redo) takes the label back and
 * a redo gives it again, so a label stands when the newest journal event
 * that gave it or took it back is not an undo.  A label given to settle
 * a disagreement (store_label_final) is final; votes are each reviewer's
 * newest standing label that is not final, one per (candidate, reviewer).
 */
#define LIVE_CTE(scope) \
	" live AS (SELECT l.id, l.cand_id, l.by, l.category," \
	"  l.final" \
	"  FROM label l WHERE " scope " l.by != 'auto' AND coalesce((SELECT" \
	"   e.action FROM event e WHERE e.cand_id = l.cand_id" \
	"   AND e.field = 'label'" \
	"   AND ((e.action IN ('label', 'redo') AND e.after = l.id)" \
	"   OR (e.action = 'undo' AND e.before = l.id))" \
	"   ORDER BY e.id DESC LIMIT 1), 'label') != 'undo'),"
#define VOTES_CTE \
	" votes AS (SELECT cand_id, by, category, id FROM live" \
	"  WHERE NOT final AND id IN (SELECT max(id) FROM live" \
	"  WHERE NOT final GROUP BY cand_id, by))"
#define REVIEW_CTES LIVE_CTE("") VOTES_CTE

/*
 * The candidates in disagreement: two reviewers' votes differ, and no
 * final label came after the newest vote.
 */
#define DISAGREE_IDS \
	"WITH" REVIEW_CTES \
	" SELECT v.cand_id FROM votes v GROUP BY v.cand_id" \
	" HAVING count(DISTINCT v.category) > 1 AND max(v.id) > coalesce(" \
	" (SELECT max(f.id) FROM live f WHERE f.final" \
	" AND f.cand_id = v.cand_id), 0)"

/* disagree=yes|no (or !=): a candidate in disagreement, or not. */
static int
filter_disagree(struct filter *f, const char *val, int neg, int like,
    struct err *err)
{
	int yes;

	if (like || (strcmp(val, "yes") != 0 && strcmp(val, "no") != 0))
		return err_set(err, "disagree wants yes or no, as "
		    "disagree=yes");
	yes = (strcmp(val, "yes") == 0) != neg;
	buf_printf(&f->where, " AND c.id %sIN (" DISAGREE_IDS ")",
	    yes ? "" : "NOT ");
	return 0;
}

int
store_label_final(struct store *st, const char *cand_id,
    const char *category, const char *by, int64_t run_id,
    const char *evidence, struct err *err)
{
	sqlite3_stmt *s;
	char detail[128];

	if (check_category(category, err) < 0 || check_by(by, err) < 0)
		return -1;
	if (prepare(st, &s, "INSERT INTO label(cand_id, category, by, run_id,"
	    " evidence, at, final) VALUES (?1, ?2, ?3, ?4, ?5, ?6, 1)",
	    err) < 0)
		return -1;
	bind_text(s, 1, cand_id);
	bind_text(s, 2, category);
	bind_text(s, 3, by);
	if (run_id != 0)
		sqlite3_bind_int64(s, 4, run_id);
	bind_text(s, 5, evidence);
	sqlite3_bind_int64(s, 6, now_s());
	/* for the journal's reader; label.final is what counts (v9) */
	snprintf(detail, sizeof detail, "label %s (final)", category);
	return decide(st, s, cand_id, "label", by, detail, err);
}

/* " WHERE <col> IN (the filter's candidates)", or "" for no filter;
 * f is compiled (and must be released) either way. */
static int
review_scope(const char *filter, const char *col, struct filter *f,
    struct buf *sql, struct err *err)
{
	if (filter_compile(filter, f, err) < 0)
		return -1;
	if (filter != NULL && *filter != '\0')
		buf_printf(sql, " WHERE %s IN (SELECT c.id" QUEUE_FROM "%s)",
		    col, buf_str(&f->where));
	return 0;
}

int
store_agreement(struct store *st, const char *filter,
    struct agreement_pair **out, size_t *n, struct err *err)
{
	struct buf sql = BUF_INIT;
	struct filter f;
	sqlite3_stmt *s;
	int rc;

	*out = NULL;
	*n = 0;
	buf_adds(&sql, "WITH" REVIEW_CTES " SELECT a.by, b.by, a.category,"
	    " b.category, count(*) FROM votes a JOIN votes b"
	    " ON b.cand_id = a.cand_id AND a.by < b.by");
	if (review_scope(filter, "a.cand_id", &f, &sql, err) < 0) {
		buf_release(&sql);
		return -1;
	}
	buf_adds(&sql, " GROUP BY a.by, b.by, a.category, b.category"
	    " ORDER BY a.by, b.by");
	rc = prepare(st, &s, buf_str(&sql), err);
	buf_release(&sql);
	if (rc < 0) {
		filter_release(&f);
		return -1;
	}
	filter_bind(&f, s);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		const char *a = (const char *)sqlite3_column_text(s, 0);
		const char *b = (const char *)sqlite3_column_text(s, 1);
		int i = category_from_name(
		    (const char *)sqlite3_column_text(s, 2));
		int j = category_from_name(
		    (const char *)sqlite3_column_text(s, 3));
		struct agreement_pair *p = *n > 0 ? &(*out)[*n - 1] : NULL;

		if (p == NULL || strcmp(p->a, a) != 0 || strcmp(p->b, b) != 0) {
			*out = xreallocarray(*out, *n + 1, sizeof **out);
			p = &(*out)[(*n)++];
			memset(p, 0, sizeof *p);
			p->a = xstrdup(a);
			p->b = xstrdup(b);
		}
		if (i >= 0 && j >= 0)	/* the schema allows no other */
			p->m[i][j] += (size_t)sqlite3_column_int64(s, 4);
	}
	sqlite3_finalize(s);
	filter_release(&f);
	if (rc != SQLITE_DONE) {
		for (size_t i = 0; i < *n; i++)
			agreement_pair_release(&(*out)[i]);
		free(*out);
		*out = NULL;
		*n = 0;
		return err_sqlite(err, st->db, "agreement");
	}
	for (size_t i = 0; i < *n; i++)
		agreement_kappa(&(*out)[i]);
	return 0;
}

int
store_throughput(struct store *st, const char *filter,
    struct agreement_rate **out, size_t *n, struct err *err)
{
	struct buf sql = BUF_INIT;
	struct filter f;
	sqlite3_stmt *s;
	int rc;

	*out = NULL;
	*n = 0;
	buf_adds(&sql, "SELECT who, at FROM (SELECT id, who, at, cand_id"
	    " FROM event WHERE action IN ('label', 'review'))");
	if (review_scope(filter, "cand_id", &f, &sql, err) < 0) {
		buf_release(&sql);
		return -1;
	}
	buf_adds(&sql, " ORDER BY who, at, id");
	rc = prepare(st, &s, buf_str(&sql), err);
	buf_release(&sql);
	if (rc < 0) {
		filter_release(&f);
		return -1;
	}
	filter_bind(&f, s);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		const char *who = (const char *)sqlite3_column_text(s, 0);
		struct agreement_rate *r = *n > 0 ? &(*out)[*n - 1] : NULL;

		if (r == NULL || strcmp(r->who, who) != 0) {
			*out = xreallocarray(*out, *n + 1, sizeof **out);
			r = &(*out)[(*n)++];
			memset(r, 0, sizeof *r);
			r->who = xstrdup(who);
		}
		agreement_rate_add(r, sqlite3_column_int64(s, 1));
	}
	sqlite3_finalize(s);
	filter_release(&f);
	if (rc != SQLITE_DONE) {
		for (size_t i = 0; i < *n; i++)
			agreement_rate_release(&(*out)[i]);
		free(*out);
		*out = NULL;
		*n = 0;
		return err_sqlite(err, st->db, "throughput");
	}
	return 0;
}

void
store_vote_release(struct store_vote *v)
{
	if (v == NULL)
		return;
	free(v->by);
	free(v->category);
	memset(v, 0, sizeof *v);
}

int
store_votes(struct store *st, const char *cand_id, struct store_vote **out,
    size_t *n, struct err *err)
{
	sqlite3_stmt *s;
	int rc;

	*out = NULL;
	*n = 0;
	/* one candidate's labels, found through the journal's index */
	if (prepare(st, &s, "WITH" LIVE_CTE("l.id IN (SELECT e0.after FROM"
	    " event e0 WHERE e0.cand_id = ?1 AND e0.action = 'label') AND")
	    VOTES_CTE " SELECT by, category, 0, id"
	    " FROM votes WHERE cand_id = ?1 UNION ALL SELECT by, category, 1,"
	    " id FROM live WHERE cand_id = ?1 AND final AND id = (SELECT"
	    " max(id) FROM live WHERE cand_id = ?1 AND final)"
	    " ORDER BY 3, 1", err) < 0)
		return -1;
	bind_text(s, 1, cand_id);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct store_vote *v;

		*out = xreallocarray(*out, *n + 1, sizeof **out);
		v = &(*out)[(*n)++];
		v->by = col_text(s, 0);
		v->category = col_text(s, 1);
		v->final = sqlite3_column_int(s, 2);
		v->label_id = sqlite3_column_int64(s, 3);
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE) {
		for (size_t i = 0; i < *n; i++)
			store_vote_release(&(*out)[i]);
		free(*out);
		*out = NULL;
		*n = 0;
		return err_sqlite(err, st->db, "votes");
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
store_task_split_set(struct store *st, const char *task_id,
    const char *split, int hand, const char *by, struct err *err)
{
	sqlite3_stmt *s;

	if (prepare(st, &s, hand ? "UPDATE task SET split = ?2, split_hand ="
	    " (?2 IS NOT NULL) WHERE id = ?1" : "UPDATE task SET split = ?2"
	    " WHERE id = ?1 AND split_hand = 0", err) < 0)
		return -1;
	bind_text(s, 1, task_id);
	bind_text(s, 2, split);
	if (step_done(st, s, "set split", err) < 0)
		return -1;
	if (hand && sqlite3_changes(st->db) == 0)
		return err_set(err, "no task %s", task_id);
	if (hand) {
		char *detail = xasprintf("split of %s: %s", task_id,
		    split != NULL ? split : "(by hash)");
		int rc = store_event_add(st, by, "split", NULL, detail, err);

		free(detail);
		return rc;
	}
	return 0;
}

int
store_task_split_each(struct store *st,
    int (*cb)(const char *task_id, const char *split, int hand, void *arg),
    void *arg, struct err *err)
{
	sqlite3_stmt *s;
	int rc = SQLITE_DONE, stop = 0;

	if (prepare(st, &s, "SELECT id, split, split_hand FROM task ORDER BY"
	    " id", err) < 0)
		return -1;
	while (!stop && (rc = sqlite3_step(s)) == SQLITE_ROW)
		stop = cb((const char *)sqlite3_column_text(s, 0),
		    (const char *)sqlite3_column_text(s, 1),
		    sqlite3_column_int(s, 2), arg);
	sqlite3_finalize(s);
	if (stop)
		return stop;
	if (rc != SQLITE_DONE)
		return err_sqlite(err, st->db, "read tasks");
	return 0;
}

int
store_task_rowid_max(struct store *st, int64_t *max, struct err *err)
{
	sqlite3_stmt *s;
	int rc;

	*max = 0;
	if (prepare(st, &s, "SELECT coalesce(max(rowid), 0) FROM task",
	    err) < 0)
		return -1;
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		*max = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	if (rc != SQLITE_ROW)
		return err_sqlite(err, st->db, "task rowid");
	return 0;
}

int
store_task_provenance(struct store *st, int64_t since, const char *license,
    const char *license_source, const char *from, const char *to,
    struct err *err)
{
	sqlite3_stmt *s;

	if (license != NULL) {
		if (prepare(st, &s, "UPDATE task SET license = ?2,"
		    " license_source = ?3 WHERE rowid > ?1 AND license IS"
		    " NULL", err) < 0)
			return -1;
		sqlite3_bind_int64(s, 1, since);
		bind_text(s, 2, license);
		bind_text(s, 3, license_source);
		if (step_done(st, s, "set licence", err) < 0)
			return -1;
	}
	if (from != NULL && to != NULL) {
		if (prepare(st, &s, "UPDATE task SET source = ?2 ||"
		    " substr(source, ?3 + 1) WHERE rowid > ?1 AND"
		    " substr(source, 1, ?3) = ?4", err) < 0)
			return -1;
		sqlite3_bind_int64(s, 1, since);
		bind_text(s, 2, to);
		sqlite3_bind_int64(s, 3, (sqlite3_int64)strlen(from));
		bind_text(s, 4, from);
		if (step_done(st, s, "set source", err) < 0)
			return -1;
	}
	return 0;
}

int
store_dup_replace(struct store *st, const struct store_dup *rows, size_t n,
    struct err *err)
{
	sqlite3_stmt *s;

	if (store_begin(st, err) < 0)
		return -1;
	if (exec(st, "DELETE FROM dup", err) < 0)
		goto fail;
	for (size_t i = 0; i < n; i++) {
		if (prepare(st, &s, "INSERT INTO dup(cand_id, cluster, exact,"
		    " similarity, keep) VALUES (?1, ?2, ?3, ?4, ?5)", err) < 0)
			goto fail;
		bind_text(s, 1, rows[i].cand_id);
		bind_text(s, 2, rows[i].cluster);
		sqlite3_bind_int(s, 3, rows[i].exact);
		sqlite3_bind_double(s, 4, rows[i].similarity);
		sqlite3_bind_int(s, 5, rows[i].keep);
		if (step_done(st, s, "mark a duplicate", err) < 0)
			goto fail;
	}
	if (store_commit(st, err) < 0)
		goto fail;
	return 0;
fail:
	store_rollback(st);
	return -1;
}

int
store_contam_replace(struct store *st, const char *const *benchmarks,
    size_t nbench, const struct store_contam *rows, size_t n,
    struct err *err)
{
	sqlite3_stmt *s;

	if (store_begin(st, err) < 0)
		return -1;
	for (size_t i = 0; i < nbench; i++) {
		if (prepare(st, &s, "DELETE FROM contamination WHERE"
		    " benchmark = ?1", err) < 0)
			goto fail;
		bind_text(s, 1, benchmarks[i]);
		if (step_done(st, s, "clear contamination", err) < 0)
			goto fail;
	}
	for (size_t i = 0; i < n; i++) {
		if (prepare(st, &s, "INSERT OR REPLACE INTO contamination("
		    "cand_id, benchmark, task_id, ngrams) VALUES (?1, ?2, ?3,"
		    " ?4)", err) < 0)
			goto fail;
		bind_text(s, 1, rows[i].cand_id);
		bind_text(s, 2, rows[i].benchmark);
		bind_text(s, 3, rows[i].task_id);
		sqlite3_bind_int64(s, 4, (sqlite3_int64)rows[i].ngrams);
		if (step_done(st, s, "mark contamination", err) < 0)
			goto fail;
	}
	if (store_commit(st, err) < 0)
		goto fail;
	return 0;
fail:
	store_rollback(st);
	return -1;
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

/* --- decisions replayed by an import (dated) ------------------------- */

/*
 * Date the history row id of table (label, review or note) and the
 * candidate's newest journal event, the one that recorded it, at at.
 */
static int
restamp(struct store *st, const char *table, int64_t id,
    const char *cand_id, int64_t at, struct err *err)
{
	sqlite3_stmt *s;
	char sql[64];

	snprintf(sql, sizeof sql, "UPDATE %s SET at = ?1 WHERE id = ?2",
	    table);
	if (prepare(st, &s, sql, err) < 0)
		return -1;
	sqlite3_bind_int64(s, 1, at);
	sqlite3_bind_int64(s, 2, id);
	if (step_done(st, s, table, err) < 0)
		return -1;
	if (prepare(st, &s, "UPDATE event SET at = ?1 WHERE id = (SELECT"
	    " max(id) FROM event WHERE cand_id = ?2)", err) < 0)
		return -1;
	sqlite3_bind_int64(s, 1, at);
	bind_text(s, 2, cand_id);
	return step_done(st, s, "journal", err);
}

/* End what a dated decision began: commit or roll back its own
 * transaction (none inside an import's).  Returns rc. */
static int
dated_end(struct store *st, int own_tx, int rc, struct err *err)
{
	if (!own_tx)
		return rc;
	if (rc == 0 && store_commit(st, err) == 0)
		return 0;
	store_rollback(st);
	return -1;
}

int
store_label_set_at(struct store *st, const char *cand_id,
    const char *category, const char *sub, const char *note, const char *by,
    int final, const char *evidence, int64_t at, struct err *err)
{
	int own_tx = !st->in_tx, rc;
	int64_t id;

	if (own_tx && store_begin(st, err) < 0)
		return -1;
	if (final)
		rc = store_label_final(st, cand_id, category, by, 0, evidence,
		    err);
	else
		rc = store_label_set(st, cand_id, category, sub, note, by, 0,
		    evidence, err);
	if (rc == 0 && at > 0)
		rc = cand_pointer(st, cand_id, "label", &id, err) < 0 ? -1 :
		    restamp(st, "label", id, cand_id, at, err);
	return dated_end(st, own_tx, rc, err);
}

int
store_review_set_at(struct store *st, const char *cand_id,
    const char *status, const char *note, const char *by, int64_t at,
    struct err *err)
{
	int own_tx = !st->in_tx, rc;
	int64_t id;

	if (own_tx && store_begin(st, err) < 0)
		return -1;
	rc = store_review_set(st, cand_id, status, note, by, err);
	if (rc == 0 && at > 0)
		rc = cand_pointer(st, cand_id, "review", &id, err) < 0 ? -1 :
		    restamp(st, "review", id, cand_id, at, err);
	return dated_end(st, own_tx, rc, err);
}

int
store_note_add_at(struct store *st, const char *cand_id, const char *text,
    const char *by, int64_t at, struct err *err)
{
	sqlite3_stmt *s;
	int own_tx = !st->in_tx, rc;
	int64_t id = 0;

	if (own_tx && store_begin(st, err) < 0)
		return -1;
	rc = store_note_add(st, cand_id, text, by, err);
	if (rc == 0 && at > 0) {
		rc = prepare(st, &s, "SELECT max(id) FROM note WHERE"
		    " cand_id = ?1", err);
		if (rc == 0) {
			bind_text(s, 1, cand_id);
			if (sqlite3_step(s) == SQLITE_ROW)
				id = sqlite3_column_int64(s, 0);
			sqlite3_finalize(s);
			rc = restamp(st, "note", id, cand_id, at, err);
		}
	}
	return dated_end(st, own_tx, rc, err);
}

int
store_label_is_final(struct store *st, const char *cand_id,
    int64_t label_id, int *final, struct err *err)
{
	sqlite3_stmt *s;
	int rc;

	*final = 0;
	if (prepare(st, &s, "SELECT EXISTS (SELECT 1 FROM label WHERE"
	    " cand_id = ?1 AND id = ?2 AND final)", err) < 0)
		return -1;
	bind_text(s, 1, cand_id);
	sqlite3_bind_int64(s, 2, label_id);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		*final = sqlite3_column_int(s, 0);
	sqlite3_finalize(s);
	if (rc != SQLITE_ROW)
		return err_sqlite(err, st->db, "read label");
	return 0;
}

/* --- benchmarks ------------------------------------------------------ */

/* One candidate copied by store_bench_fill(). */
struct fill_src {
	int64_t	 seq, run_id;
	char	*id, *task_id, *origin, *lang;
	char	*code;
	size_t	 code_len;
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

static int
fill_sources(struct store *st, struct fill_src **out, size_t *n,
    struct err *err)
{
	sqlite3_stmt *s;
	int rc;

	*out = NULL;
	*n = 0;
	if (prepare(st, &s, "SELECT seq, coalesce(run_id, 0), id, task_id,"
	    " origin, lang, code FROM candidate ORDER BY seq", err) < 0)
		return -1;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct fill_src *f;

		*out = xreallocarray(*out, *n + 1, sizeof **out);
		f = &(*out)[(*n)++];
		f->seq = sqlite3_column_int64(s, 0);
		f->run_id = sqlite3_column_int64(s, 1);
		f->id = col_text(s, 2);
		f->task_id = col_text(s, 3);
		f->origin = col_text(s, 4);
		f->lang = col_text(s, 5);
		f->code = col_blob(s, 6, &f->code_len);
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE)
		return err_sqlite(err, st->db, "read candidates");
	return 0;
}

/* The statements of one copy, prepared once. */
enum { FILL_TAKEN, FILL_CAND, FILL_RUN, FILL_POINT, FILL_REC, FILL_N };

static int
fill_one(struct store *st, sqlite3_stmt **s, const struct fill_src *f,
    size_t copy, struct err *err)
{
	struct buf code = BUF_INIT, ident = BUF_INIT;
	char hash[HASH_HEX_LEN + 1], hex[HASH_HEX_LEN + 1];
	char *id = NULL;
	int rc = -1, taken = 1;

	buf_add(&code, f->code, f->code_len);
	if (f->code_len > 0 && f->code[f->code_len - 1] != '\n')
		buf_addc(&code, '\n');
	buf_printf(&code, "%s assay bench copy %zu of %s\n",
	    fill_comment(f->lang), copy, f->id);
	hash_sha256(code.p, code.len, hash);
	/* the id store_candidate_add() would give it */
	buf_printf(&ident, "%s%c%s%c%s", f->task_id, 0, f->origin, 0, hash);
	hash_sha256(ident.p, ident.len, hex);
	for (int k = 7; k <= HASH_HEX_LEN && taken; k++) {
		free(id);
		id = xasprintf("c%.*s", k, hex);
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
	if (sqlite3_step(s[FILL_CAND]) != SQLITE_DONE) {
		err_sqlite(err, st->db, "copy candidate");
		goto out;
	}
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
	bind_text(s[FILL_REC], 1, id);
	bind_text(s[FILL_REC], 2, f->id);
	if (sqlite3_step(s[FILL_REC]) != SQLITE_DONE) {
		err_sqlite(err, st->db, "copy recorded");
		goto out;
	}
	rc = 0;
out:
	free(id);
	buf_release(&code);
	buf_release(&ident);
	return rc;
}

int
store_bench_fill(struct store *st, size_t total, size_t *added,
    struct err *err)
{
	static const char *const sql[FILL_N] = {
		"SELECT 1 FROM candidate WHERE id = ?1",
		"INSERT INTO candidate(id, task_id, origin, origin_raw, kind,"
		" lang, parent, source, code, code_hash, extra) SELECT ?1,"
		" task_id, origin, origin_raw, kind, lang, parent, source, ?2,"
		" ?3, extra FROM candidate WHERE seq = ?4",
		"INSERT INTO run(cand_id, env, verdict, stage, subcategory,"
		" category, evidence, command, toolchain, inputs, input_key,"
		" metrics, exit_code, wall_ms, started, log, diagnostics,"
		" evidence_line) SELECT ?1, env, verdict, stage, subcategory,"
		" category, evidence, command, toolchain, inputs, input_key,"
		" metrics, exit_code, wall_ms, started, log, diagnostics,"
		" evidence_line FROM run WHERE id = ?2",
		"UPDATE candidate SET run_id = ?1 WHERE id = ?2",
		"INSERT INTO recorded(cand_id, verdict, stage, log, extra)"
		" SELECT ?1, verdict, stage, log, extra FROM recorded"
		" WHERE cand_id = ?2 ORDER BY id",
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
	for (size_t i = 0; i < nsrc; i++) {
		free(src[i].id);
		free(src[i].task_id);
		free(src[i].origin);
		free(src[i].lang);
		free(src[i].code);
	}
	free(src);
	return rc;
}

/* --- the model loop -------------------------------------------------- */

int
store_generation_each(struct store *st,
    int (*cb)(const struct store_gen_row *row, void *arg), void *arg,
    struct err *err)
{
	sqlite3_stmt *s;
	int rc = SQLITE_DONE, stop = 0;

	if (prepare(st, &s, "SELECT c.id, c.task_id, c.kind,"
	    " json_extract(c.extra, '$.generation.model'),"
	    " (SELECT r.verdict FROM run r WHERE r.id = c.run_id),"
	    " json_extract(c.extra, '$.generation.round'),"
	    " json_extract(c.extra, '$.generation.usage.prompt_tokens'),"
	    " json_extract(c.extra, '$.generation.usage.completion_tokens'),"
	    " json_extract(c.extra, '$.generation.latency_ms')"
	    " FROM candidate c WHERE c.extra IS NOT NULL"
	    " AND json_valid(c.extra)"
	    " AND json_type(c.extra, '$.generation') = 'object'"
	    " ORDER BY c.seq", err) < 0)
		return -1;
	while (!stop && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct store_gen_row r;

		r.id = (const char *)sqlite3_column_text(s, 0);
		r.task = (const char *)sqlite3_column_text(s, 1);
		r.kind = (const char *)sqlite3_column_text(s, 2);
		r.model = (const char *)sqlite3_column_text(s, 3);
		r.verdict = (const char *)sqlite3_column_text(s, 4);
		r.round = sqlite3_column_int(s, 5);
		r.prompt_tokens = sqlite3_column_type(s, 6) == SQLITE_NULL ?
		    -1 : sqlite3_column_int64(s, 6);
		r.completion_tokens = sqlite3_column_type(s, 7) ==
		    SQLITE_NULL ? -1 : sqlite3_column_int64(s, 7);
		r.latency_ms = sqlite3_column_int64(s, 8);
		if (r.model == NULL)
			r.model = "?";
		stop = cb(&r, arg);
	}
	sqlite3_finalize(s);
	if (stop)
		return stop;
	if (rc != SQLITE_DONE)
		return err_sqlite(err, st->db, "read generated candidates");
	return 0;
}

/* --- claims: one verify at a time per candidate ---------------------- */

/*
 * Why a table made on first use and not a migration: a claim is state of
 * running processes, not data; the table is harmless in any schema
 * version, and a database that never saw two verifies never gets it.
 */
static int
lease_table(struct store *st, struct err *err)
{
	return exec(st, "CREATE TABLE IF NOT EXISTS lease ("
	    " cand_id TEXT PRIMARY KEY, holder TEXT NOT NULL,"
	    " expires INTEGER NOT NULL)", err);
}

int
store_claim(struct store *st, const char *cand_id, const char *holder,
    int ttl_s, int *got, struct err *err)
{
	sqlite3_stmt *s;
	int64_t now = now_s();
	int rc;

	*got = 0;
	if (lease_table(st, err) < 0 || store_begin(st, err) < 0)
		return -1;
	/* A lapsed claim (its process died or hung) is nobody's. */
	if (prepare(st, &s, "DELETE FROM lease WHERE cand_id = ?1 AND"
	    " expires <= ?2", err) < 0)
		goto fail;
	bind_text(s, 1, cand_id);
	sqlite3_bind_int64(s, 2, now);
	if (step_done(st, s, "drop a lapsed claim", err) < 0)
		goto fail;
	if (prepare(st, &s, "INSERT OR IGNORE INTO lease(cand_id, holder,"
	    " expires) VALUES (?1, ?2, ?3)", err) < 0)
		goto fail;
	bind_text(s, 1, cand_id);
	bind_text(s, 2, holder);
	sqlite3_bind_int64(s, 3, now + ttl_s);
	if (step_done(st, s, "claim", err) < 0)
		goto fail;
	if (prepare(st, &s, "SELECT holder = ?2 FROM lease WHERE"
	    " cand_id = ?1", err) < 0)
		goto fail;
	bind_text(s, 1, cand_id);
	bind_text(s, 2, holder);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		*got = sqlite3_column_int(s, 0);
	sqlite3_finalize(s);
	if (rc != SQLITE_ROW) {
		err_sqlite(err, st->db, "read claim");
		goto fail;
	}
	if (store_commit(st, err) == 0)
		return 0;
fail:
	store_rollback(st);
	return -1;
}

int
store_claims_renew(struct store *st, const char *holder, int ttl_s,
    struct err *err)
{
	sqlite3_stmt *s;

	if (lease_table(st, err) < 0 || prepare(st, &s, "UPDATE lease SET"
	    " expires = ?2 WHERE holder = ?1", err) < 0)
		return -1;
	bind_text(s, 1, holder);
	sqlite3_bind_int64(s, 2, now_s() + ttl_s);
	return step_done(st, s, "renew claims", err);
}

int
store_claim_release(struct store *st, const char *cand_id,
    const char *holder, struct err *err)
{
	sqlite3_stmt *s;

	if (lease_table(st, err) < 0 || prepare(st, &s, "DELETE FROM lease"
	    " WHERE holder = ?1 AND (?2 IS NULL OR cand_id = ?2)", err) < 0)
		return -1;
	bind_text(s, 1, holder);
	bind_text(s, 2, cand_id);
	return step_done(st, s, "release claim", err);
}

char *
store_filter_quote(const char *v)
{
	struct buf b = BUF_INIT;

	if (*v != '\0' && strpbrk(v, " \t\"") == NULL)
		return xstrdup(v);
	buf_addc(&b, '"');
	for (; *v != '\0'; v++) {
		if (*v == '"')
			buf_addc(&b, '"');
		buf_addc(&b, *v);
	}
	buf_addc(&b, '"');
	return buf_detach(&b, NULL);
}
