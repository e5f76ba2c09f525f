/*
 * store.c - the sample database; see store.h for the contract.
 *
 * The only file that calls sqlite3_*.  Statements are prepared per call
 * (the hot paths are a page of the queue and one candidate at a time, so
 * preparation is not the cost); every public function either finishes
 * its statement or fails with the SQLite message copied into err.
 */
#include "store/store.h"
#include "store/store_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>
#include <sqlite3.h>

#include "model/vocab.h"
#include "base/duration.h"
#include "base/buf.h"
#include "base/hash.h"
#include "base/ident.h"

static void bulk_end(struct store *);
static void bulk_env_forget(struct store *);
static void ident_sql(sqlite3_context *, int, sqlite3_value **);
struct ident_set;
static void ident_free(struct ident_set *);

/* The slots of st->hot. */
enum hot_stmt {
	HOT_CAND_FIND, HOT_ID_TAKEN, HOT_CAND_INSERT, HOT_RECORDED_INSERT,
	HOT_TASK_INSERT, HOT_TASK_FILE_INSERT, HOT_SAVEPOINT, HOT_RELEASE,
	HOT_TASK_ENV, HOT_SEARCH_DOC, HOT_SEARCH_NEXT, HOT_CAND_TASK,
	HOT_CAND_SEQ, HOT_CAND_FIND_SEQ, HOT_N
};
_Static_assert(HOT_N <= STORE_HOT, "struct store holds STORE_HOT statements");

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
/*
 * Part of migration 13 -> 14: the identity key of a candidate from its
 * columns, by the SQL function assay_ident() that store_open() defines
 * on its connection (ident_sql(): the first 16 bytes of the SHA-256 of
 * task NUL origin NUL code hash, the digest whose hex a derived id
 * starts with).
 */
#define MIG14_IDENT(cols)	"assay_ident(" cols ")"
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
 * Parts of migrations 1, 6 and 8 that migration 13 -> 14 makes again
 * when it copies the candidate table: its columns after origin_raw's
 * kind, and its triggers.  Never edit them either.
 */
#define MIG1_CAND_REST \
	"  lang       TEXT NOT NULL," \
	"  parent     TEXT REFERENCES candidate(id)," \
	"  source     TEXT," \
	"  code       BLOB NOT NULL," \
	"  code_hash  TEXT NOT NULL," \
	"  extra      TEXT," \
	"  created    INTEGER NOT NULL DEFAULT (unixepoch())," \
	"  run_id     INTEGER REFERENCES run(id)," \
	"  label_id   INTEGER REFERENCES label(id)," \
	"  review_id  INTEGER REFERENCES review(id)"
#define MIG6_QUEUE_UPDATE \
	"CREATE TRIGGER queue_update AFTER UPDATE OF run_id, label_id," \
	"  review_id ON candidate BEGIN" \
	"  UPDATE queue SET (verdict, stage, category, subcategory, status) =" \
	"  (SELECT" MIG6_FACTS " WHERE c.seq = new.seq) WHERE seq = new.seq;" \
	"END;"
#define MIG8_SEARCH_CANDIDATE \
	"CREATE TRIGGER search_candidate AFTER INSERT ON candidate" \
	"  WHEN NOT EXISTS (SELECT 1 FROM bulk) BEGIN" \
	"  INSERT INTO search(rowid, body) VALUES (new.seq << 16," \
	"  CAST(new.code AS TEXT));" MIG6_GEN \
	"END;"
#define MIG8_QUEUE_INSERT \
	"CREATE TRIGGER queue_insert AFTER INSERT ON candidate" \
	"  WHEN NOT EXISTS (SELECT 1 FROM bulk) BEGIN" \
	"  INSERT INTO queue " MIG6_QUEUE_ROW " WHERE c.seq = new.seq;" \
	"END;"

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
	MIG1_CAND_REST ","
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
	MIG6_QUEUE_UPDATE
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
	MIG8_SEARCH_CANDIDATE
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
	MIG8_QUEUE_INSERT
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
	 * triggers hold the same check (docs/adr/0026-vocabulary.md).  Rows
	 * stored before stay as they are.
	 */
	"CREATE TRIGGER run_category_insert BEFORE INSERT ON run"
	"  WHEN NOT " VOCAB_SQL_CHECK("new.category", VOCAB_CATEGORIES)
	"  BEGIN SELECT RAISE(ABORT, 'run.category: not a category'); END;"
	"CREATE TRIGGER run_category_update BEFORE UPDATE OF category ON run"
	"  WHEN NOT " VOCAB_SQL_CHECK("new.category", VOCAB_CATEGORIES)
	"  BEGIN SELECT RAISE(ABORT, 'run.category: not a category'); END;",
	/*
	 * 10 -> 11: the search index keeps no copy of the text it indexes
	 * (a contentless FTS5 table, issue 13): the code, logs, notes and
	 * specs are in their own tables, and a search reads only rowids.
	 * The copy was a fifth of an imported database.  The task a spec's
	 * row (a negative rowid) belongs to moves to search_spec; the
	 * trigger that adds a task's row adds it there too.
	 */
	"CREATE TABLE search_spec (doc INTEGER PRIMARY KEY,"
	"  task_id TEXT NOT NULL);"
	"INSERT INTO search_spec SELECT rowid, task FROM search"
	"  WHERE rowid < 0 AND task IS NOT NULL;"
	"CREATE TABLE search_move (doc INTEGER PRIMARY KEY, body TEXT);"
	"INSERT INTO search_move SELECT rowid, body FROM search;"
	"DROP TRIGGER search_task;"
	"DROP TABLE search;"
	"CREATE VIRTUAL TABLE search USING fts5(body, content = '',"
	"  tokenize = \"unicode61 tokenchars '_'\");"
	"INSERT INTO search(rowid, body) SELECT doc, body FROM search_move"
	"  ORDER BY doc;"
	"DROP TABLE search_move;"
	"CREATE TRIGGER search_task AFTER INSERT ON task"
	"  WHEN NOT EXISTS (SELECT 1 FROM bulk) BEGIN"
	"  INSERT INTO search_spec(doc, task_id) VALUES ((SELECT"
	"  coalesce(min(doc), 0) - 1 FROM search_spec), new.id);"
	"  INSERT INTO search(rowid, body) VALUES ((SELECT min(doc) FROM"
	"  search_spec), coalesce(new.spec, '') || char(10) ||"
	"  coalesce(new.interface, ''));" MIG6_GEN
	"END;",
	/*
	 * 11 -> 12: the keys that authenticate run results (verify
	 * --results, merge; docs/adr/0033-authenticated-run-results.md):
	 * the database's own key ("database", made by migrate() right
	 * after this step) and one per shard campaign ("campaign", made by
	 * export --shards).  The key is 64 hex digits; id is a random name
	 * that a results line carries, never derived from the key.
	 */
	"CREATE TABLE results_key (id TEXT PRIMARY KEY,"
	"  key TEXT NOT NULL CHECK (length(key) = 64),"
	"  kind TEXT NOT NULL CHECK (kind IN ('database', 'campaign')),"
	"  note TEXT, created INTEGER NOT NULL);"
	"CREATE UNIQUE INDEX results_key_database ON results_key(kind)"
	"  WHERE kind = 'database';",
	/*
	 * 12 -> 13: every answer a model gave is an attempt (issue 25 item
	 * 5), also when its code was a candidate already: pass@k counts the
	 * samples drawn, duplicates included, and the requests sent.
	 * cand_id is the candidate the answer's code is (for a repair that
	 * handed back its parent's code, the parent); NULL for a request
	 * that got no answer (error says why).  kind and round are the
	 * request's, which may differ from the candidate's (a repair that
	 * answered an earlier direct candidate's code).  Candidates made
	 * before this schema have their generation record and no attempt:
	 * the statistics count each of them once (store_attempt_each).
	 */
	"CREATE TABLE attempt (id INTEGER PRIMARY KEY,"
	"  task_id TEXT NOT NULL,"
	"  cand_id TEXT REFERENCES candidate(id),"
	"  parent TEXT,"
	"  model TEXT NOT NULL,"
	"  kind TEXT NOT NULL CHECK (kind IN ('direct', 'repair')),"
	"  round INTEGER NOT NULL,"
	"  prompt_tokens INTEGER, completion_tokens INTEGER,"
	"  latency_ms INTEGER NOT NULL DEFAULT 0,"
	"  error TEXT,"
	"  at INTEGER NOT NULL);"
	"CREATE INDEX attempt_cand ON attempt(cand_id);",
	/*
	 * 13 -> 14: an import that keeps up on a machine with no spare
	 * core (issue 25 item 9, docs/adr/0043).  A candidate's identity
	 * (task, origin, code hash) is one 16-byte key, ident (the first
	 * half of the SHA-256 its derived id is the start of: MIG14_IDENT),
	 * in place of a unique index of three text columns (about 130 bytes
	 * a row, compared byte by byte at every level); recorded results
	 * name their candidate by seq, so that their index takes each new
	 * row at its end and their foreign key is a rowid lookup, where the
	 * random id took each at a random place.  SQLite cannot drop a
	 * table's UNIQUE or change a column, so both tables are copied
	 * (migrate() turns foreign keys off around this step, and renames
	 * with legacy_alter_table so that the other tables' references and
	 * triggers keep naming "candidate"), and their triggers are made
	 * again as they were.
	 */
	"PRAGMA legacy_alter_table = ON;"
	"CREATE TABLE candidate_new ("
	"  seq        INTEGER PRIMARY KEY,"
	"  id         TEXT NOT NULL UNIQUE,"
	"  ident      BLOB NOT NULL CHECK (length(ident) = 16),"
	"  task_id    TEXT NOT NULL REFERENCES task(id),"
	"  origin     TEXT NOT NULL,"
	"  origin_raw TEXT,"
	/* the same check as v1's kind IN (...), which SQLite checks by
	 * building a temporary table of the three names at every insert
	 * (a tenth of an imported row's SQLite time); comparisons do not */
	"  kind       TEXT NOT NULL DEFAULT 'direct'"
	"             CHECK (kind = 'direct' OR kind = 'repair' OR"
	"             kind = 'optimization'),"
	MIG1_CAND_REST
	");"
	"INSERT INTO candidate_new SELECT seq, id, " MIG14_IDENT("task_id,"
	"  origin, code_hash") ", task_id, origin, origin_raw, kind, lang,"
	"  parent, source, code, code_hash, extra, created, run_id, label_id,"
	"  review_id FROM candidate ORDER BY seq;"
	"CREATE TABLE recorded_new ("
	"  id       INTEGER PRIMARY KEY,"
	"  cand_seq INTEGER NOT NULL REFERENCES candidate(seq),"
	"  verdict  TEXT,"
	"  stage    TEXT,"
	"  log      TEXT,"
	"  extra    TEXT"
	");"
	"INSERT INTO recorded_new SELECT r.id, c.seq, r.verdict, r.stage,"
	"  r.log, r.extra FROM recorded r JOIN candidate c ON c.id = r.cand_id"
	"  ORDER BY r.id;"
	"DROP TABLE recorded;"
	"DROP TABLE candidate;"
	"ALTER TABLE candidate_new RENAME TO candidate;"
	"ALTER TABLE recorded_new RENAME TO recorded;"
	"PRAGMA legacy_alter_table = OFF;"
	/* an index of its own, not the column's UNIQUE: a large import
	 * sets it aside and checks identities in memory (bulk_switch()) */
	"CREATE UNIQUE INDEX candidate_ident ON candidate(ident);"
	"CREATE INDEX candidate_task ON candidate(task_id);"
	"CREATE INDEX candidate_parent ON candidate(parent);"
	"CREATE INDEX recorded_cand ON recorded(cand_seq);"
	/* the triggers of the two tables, as migrations 6 and 8 made them
	 * (a recorded row's candidate is its cand_seq now) */
	MIG6_QUEUE_UPDATE
	MIG8_SEARCH_CANDIDATE
	MIG8_QUEUE_INSERT
	"CREATE TRIGGER search_recorded AFTER INSERT ON recorded"
	"  WHEN NOT EXISTS (SELECT 1 FROM bulk) BEGIN"
	"  INSERT INTO search(rowid, body) SELECT " MIG6_DOC("new.cand_seq")
	"  , new.log WHERE new.log IS NOT NULL;" MIG6_GEN
	"END;",
	/*
	 * 14 -> 15: the feedback a repair is asked with (docs/formats.md
	 * "Feedback"): the checker's counterexample, bottleneck and hot
	 * lines as a JSON object, and the compared signals' waveform as VCD
	 * text (issue 26).  Both NULL for a run that kept none.
	 */
	"ALTER TABLE run ADD COLUMN feedback TEXT;"
	"ALTER TABLE run ADD COLUMN wave BLOB;",
	/*
	 * 15 -> 16: the journal's links of a repair reproduced from
	 * existing code ("also a repair of PARENT: ..."), which the trace
	 * reads at every cursor move (decide_also_repairs()): an index of
	 * the repair events' details, so that a prefix is a range, never
	 * a read of the whole journal or of a task's candidates.
	 */
	"CREATE INDEX event_repair ON event(detail) WHERE action = 'repair';",
};
#define NMIGRATIONS ((int)(sizeof migrations / sizeof migrations[0]))

_Static_assert(NMIGRATIONS == STORE_SCHEMA_VERSION,
    "STORE_SCHEMA_VERSION must match the migrations");

/* Copy SQLite's message now: it is overwritten by the next call. */
int
err_sqlite(struct err *err, sqlite3 *db, const char *what)
{
	return err_set(err, "%s: %s", what, db != NULL ? sqlite3_errmsg(db) :
	    "out of memory");
}

/*
 * A statement's failure as a person reads it: a lock held by another
 * process is SQLite's words alone ("cannot claim candidates (CREATE
 * TABLE IF NOT EXISTS lease ( cand_id TEXT PRIMARY K..." reached the
 * status bar); any other failure names the statement's start.
 */
static int
err_statement(struct err *err, sqlite3 *db, const char *sql)
{
	int code = sqlite3_errcode(db) & 0xff;

	if (code == SQLITE_BUSY || code == SQLITE_LOCKED)
		return err_set(err, "%s", sqlite3_errmsg(db));
	return err_set(err, "%s (in %.40s%s)", sqlite3_errmsg(db), sql,
	    strlen(sql) > 40 ? "..." : "");
}

int
prepare(struct store *st, sqlite3_stmt **out, const char *sql,
    struct err *err)
{
	if (sqlite3_prepare_v2(st->db, sql, -1, out, NULL) != SQLITE_OK)
		return err_statement(err, st->db, sql);
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
		return err_statement(err, st->db, sql);
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

void
bind_text(sqlite3_stmt *s, int i, const char *v)
{
	if (v == NULL)
		sqlite3_bind_null(s, i);
	else
		sqlite3_bind_text(s, i, v, -1, SQLITE_TRANSIENT);
}

/* For a hot statement, stepped and reset before v goes away. */
static void
bind_static(sqlite3_stmt *s, int i, const char *v)
{
	if (v == NULL)
		sqlite3_bind_null(s, i);
	else
		sqlite3_bind_text(s, i, v, -1, SQLITE_STATIC);
}

char *
col_text(sqlite3_stmt *s, int i)
{
	const unsigned char *t = sqlite3_column_text(s, i);

	return t != NULL ? xstrdup((const char *)t) : NULL;
}

char *
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
int
exec(struct store *st, const char *sql, struct err *err)
{
	if (sqlite3_exec(st->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return err_statement(err, st->db, sql);
	return 0;
}

/* The one value of sql's first row into *out (untouched when there is no
 * row).  0, or -1 with err (err_statement()). */
static int
query_int64(struct store *st, const char *sql, int64_t *out,
    struct err *err)
{
	sqlite3_stmt *s;
	int rc;

	if (prepare(st, &s, sql, err) < 0)
		return -1;
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		*out = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return err_statement(err, st->db, sql);
	return 0;
}

static int
query_int(struct store *st, const char *sql, int *out, struct err *err)
{
	int64_t v = *out;

	if (query_int64(st, sql, &v, err) < 0)
		return -1;
	*out = (int)v;
	return 0;
}

/* n random bytes as 2n hex digits and a NUL into out.  0 or -1. */
static int
random_hex(char *out, size_t n, struct err *err)
{
	unsigned char raw[32];

	if (n > sizeof raw || hash_random(raw, n) < 0)
		return err_set(err, "no random bytes for a key");
	hash_hex(raw, n, out);
	return 0;
}

static int
key_insert(struct store *st, const char *id, const char *key,
    const char *kind, const char *note, struct err *err)
{
	sqlite3_stmt *s;

	if (prepare(st, &s, "INSERT INTO results_key(id, key, kind, note,"
	    " created) VALUES (?1, ?2, ?3, ?4, ?5)", err) < 0)
		return -1;
	bind_text(s, 1, id);
	bind_text(s, 2, key);
	bind_text(s, 3, kind);
	bind_text(s, 4, note);
	sqlite3_bind_int64(s, 5, (sqlite3_int64)time(NULL));
	return step_done(st, s, "store a results key", err);
}

/* The database's own results key, made once (migration 11 -> 12). */
static int
key_own_make(struct store *st, struct err *err)
{
	char id[STORE_KEY_ID + 1], key[STORE_KEY_HEX + 1];

	if (random_hex(id, STORE_KEY_ID / 2, err) < 0 ||
	    random_hex(key, STORE_KEY_HEX / 2, err) < 0)
		return -1;
	return key_insert(st, id, key, "database", NULL, err);
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
	/* Migration 13 -> 14 copies the candidate and recorded tables and
	 * drops the old ones, which other tables reference: foreign keys
	 * are off for it (a pragma that does nothing inside a
	 * transaction).  The rows are copied as they are, so no reference
	 * breaks. */
	if (version < 14 && exec(st, "PRAGMA foreign_keys = OFF", err) < 0)
		return -1;
	if (exec(st, "BEGIN IMMEDIATE", err) < 0)
		goto fail;
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
	/* The database's own results key, in the migration's transaction,
	 * so that no reader ever sees the table without it. */
	if (version < 12 && key_own_make(st, err) < 0)
		goto fail;
	snprintf(sql, sizeof sql, "PRAGMA user_version = %d", NMIGRATIONS);
	if (exec(st, sql, err) < 0 || exec(st, "COMMIT", err) < 0)
		goto fail;
	return exec(st, "PRAGMA foreign_keys = ON", err);
fail:
	sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
	sqlite3_exec(st->db, "PRAGMA legacy_alter_table = OFF;"
	    " PRAGMA foreign_keys = ON", NULL, NULL, NULL);
	return -1;
}

/* SQLite's commit hook: one more commit of this connection.  0: the
 * commit goes on. */
static int
commit_count(void *arg)
{
	struct store *st = arg;

	atomic_fetch_add_explicit(&st->commits, 1, memory_order_relaxed);
	return 0;
}

/*
 * SQLite's profile hook, with ASSAY_SQL_SLOW_MS set: a statement that
 * ran at least that long is told on stderr ("assay: sql N ms: SQL"), as
 * a database server logs its slow statements.  For finding where time
 * goes (bench/scale.sh); the statement's text, never its values.
 */
static int
sql_slow(unsigned type, void *arg, void *p, void *x)
{
	long long ns = *(const sqlite3_int64 *)x;
	const char *sql = sqlite3_sql(p);

	(void)type;
	if (ns / 1000000 >= (long long)(intptr_t)arg)
		fprintf(stderr, "assay: sql %lld ms: %.300s\n", ns / 1000000,
		    sql != NULL ? sql : "?");
	return 0;
}

unsigned long long
store_commits(const struct store *st)
{
	return atomic_load_explicit(&st->commits,
	    memory_order_relaxed);
}

int
store_open_again(const struct store *st, struct store **out, struct err *err)
{
	const char *path = sqlite3_db_filename(st->db, "main");

	*out = NULL;
	if (path == NULL || *path == '\0')
		return err_set(err, "the store has no file to open again");
	return store_open(out, path, err);
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
	/*
	 * One thread uses a connection at a time (the import's parsing
	 * thread never touches the store), so neither SQLite's per-call
	 * connection mutex nor its memory statistics, which take a global
	 * mutex at every allocation, are needed: together 3 % of an
	 * import's CPU.  The statistics can be turned off only before
	 * SQLite's first use; later calls are refused and change nothing.
	 */
	sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
	if (sqlite3_open_v2(path, &st->db, SQLITE_OPEN_NOMUTEX |
	    (st->readonly ? SQLITE_OPEN_READONLY :
	    SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE), NULL) != SQLITE_OK) {
		err_set(err, "open %s: %s", path, st->db != NULL ?
		    sqlite3_errmsg(st->db) : "out of memory");
		goto fail;
	}
	store_lock_timeout(st, 5000);
	sqlite3_commit_hook(st->db, commit_count, st);
	if (getenv("ASSAY_SQL_SLOW_MS") != NULL)
		sqlite3_trace_v2(st->db, SQLITE_TRACE_PROFILE, sql_slow,
		    (void *)(intptr_t)atoi(getenv("ASSAY_SQL_SLOW_MS")));
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
	/* Per connection, not stored in the file; so is the function
	 * migration 13 -> 14 computes identity keys with. */
	if (exec(st, "PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL;",
	    err) < 0)
		goto fail;
	if (sqlite3_create_function(st->db, "assay_ident", 3, SQLITE_UTF8 |
	    SQLITE_DETERMINISTIC, NULL, ident_sql, NULL, NULL) != SQLITE_OK) {
		err_sqlite(err, st->db, "define assay_ident()");
		goto fail;
	}
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
	bulk_end(st);
	sqlite3_close(st->db);
	free(st);
}

/*
 * SQLite's busy handler (sqlite3_busy_handler()): count is the number
 * of times it was called for this wait.  Sleeps 10 ms and asks again,
 * until busy_ms have gone by or the wait is cancelled (0: give up, the
 * statement fails with SQLITE_BUSY).  Notes when the wait began and
 * when it last looked, for store_lock_waiting_ms().
 */
static int
busy_wait(void *arg, int count)
{
	struct store *st = arg;
	int64_t now = mono_ms();
	struct timespec ten = { 0, 10 * 1000000L };

	/* a new wait within a second of the last look goes on with it
	 * (a service that retries after a timeout waits one long wait) */
	if (count == 0 && (atomic_load(&st->busy_last) == 0 ||
	    now - atomic_load(&st->busy_last) > 1000))
		atomic_store(&st->busy_since, now);
	if (count == 0)
		st->busy_began = now;
	if (atomic_load(&st->busy_cancel) || now - st->busy_began >=
	    st->busy_ms)
		return 0;
	atomic_store(&st->busy_last, now);
	nanosleep(&ten, NULL);
	return 1;
}

void
store_lock_timeout(struct store *st, int ms)
{
	st->busy_ms = ms;
	sqlite3_busy_handler(st->db, busy_wait, st);
}

void
store_lock_cancel(struct store *st)
{
	atomic_store(&st->busy_cancel, 1);
}

long
store_lock_waiting_ms(const struct store *st)
{
	int64_t last = atomic_load(&((struct store *)st)->busy_last);
	int64_t since = atomic_load(&((struct store *)st)->busy_since);
	int64_t now = mono_ms();

	/* the handler looks every 10 ms while it waits, and a service
	 * retries a short wait every 200 ms (verify/service.c): a look
	 * older than 300 ms means the wait is over */
	if (last == 0 || now - last > 300)
		return 0;
	return (long)(now - since);
}

int
store_schema_version(struct store *st)
{
	int v = -1;

	query_int(st, "PRAGMA user_version", &v, NULL);
	return v;
}

int
store_data_version(struct store *st, int64_t *v, struct err *err)
{
	*v = 0;
	/* the WAL index's change counter: no page of the file is read */
	return query_int64(st, "PRAGMA data_version", v, err);
}

int
store_locked_out(const struct store *st)
{
	return st->locked_out;
}

int
store_begin(struct store *st, struct err *err)
{
	st->locked_out = 0;
	if (sqlite3_exec(st->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) !=
	    SQLITE_OK) {
		if ((sqlite3_errcode(st->db) & 0xff) == SQLITE_BUSY) {
			st->locked_out = 1;
			return err_set(err, "database is locked: another writer"
			    " (an import, a verify, a sqlite3 shell) holds it;"
			    " nothing was changed, try again when it is done");
		}
		return err_sqlite(err, st->db, "BEGIN IMMEDIATE");
	}
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
store_snapshot_begin(struct store *st, int64_t *max_run, struct err *err)
{
	*max_run = 0;
	if (exec(st, "BEGIN DEFERRED", err) < 0)
		return -1;
	/* the first read fixes the snapshot every later read sees */
	if (query_int64(st, "SELECT coalesce(max(id), 0) FROM run", max_run,
	    err) < 0) {
		sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
		return -1;
	}
	return 0;
}

void
store_snapshot_end(struct store *st)
{
	sqlite3_exec(st->db, "COMMIT", NULL, NULL, NULL);
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
	bulk_end(st);
}

/*
 * The per-row triggers an import sets aside (schema v8 names them; their
 * WHEN on the bulk table stays for older binaries).  Dropped inside the
 * import's transaction and created again, from their own text, before
 * it commits: no other connection ever sees them gone, and a rollback
 * brings them back with everything else.  A trigger that is there at
 * all, even one whose WHEN says no, makes each insert of its table a
 * statement with a savepoint of its own, and every savepoint makes FTS5
 * write out what it holds.
 */
static const char bulk_trigger_names[] = "'search_task', 'search_candidate',"
    " 'search_recorded', 'search_note', 'queue_insert', 'queue_sum_insert'";

/* The task env store_task_env() keeps for an import's next row. */
static void
bulk_env_forget(struct store *st)
{
	free(st->bulk_env_id);
	free(st->bulk_env);
	st->bulk_env_id = st->bulk_env = NULL;
}

static void
bulk_end(struct store *st)
{
	bulk_env_forget(st);
	free(st->bulk_triggers);
	st->bulk_triggers = NULL;
	free(st->bulk_indexes);
	st->bulk_indexes = NULL;
	st->bulk_added = 0;
	st->bulk_cand_aside = 0;
	ident_free(st->bulk_idents);
	st->bulk_idents = NULL;
	free(st->last_id);
	st->last_id = NULL;
	st->bulk = 0;
}

/*
 * An import that adds more rows to a table than it had, and at least
 * BULK_REBUILD_MIN, builds some of the table's indexes again at its end
 * instead of keeping them up row by row: CREATE INDEX sorts the keys
 * once, where each insert put its row at its place in every index.  It
 * pays for the indexes whose leading column is a task or a model (at a
 * million rows each row went to one of several hundred places in them);
 * an index of a column the new rows leave empty or alike (verdict,
 * status, kind, parent) takes each at its end and costs less kept up
 * than built again.  The indexes are dropped inside the import's
 * transaction, outside any row's savepoint, their text kept in
 * st->bulk_indexes, and made again before the commit, so no other
 * connection ever sees them gone and a rollback brings them back.
 */
#define BULK_REBUILD_MIN	4096

/* The search index's pending terms during an import, and FTS5's own
 * default, which the publish puts back (bytes, as SQL text). */
#define BULK_FTS_HASH		"67108864"
#define FTS_HASH_DEFAULT	"1048576"

/* *keep gains text at its end (a new string; *keep may be NULL). */
static void
text_append(char **keep, const char *text)
{
	char *all = xasprintf("%s%s", *keep != NULL ? *keep : "", text);

	free(*keep);
	*keep = all;
}

/*
 * Set aside the schema objects of kind ("TRIGGER", "INDEX") that s (a
 * prepared SELECT of their name and the text that makes them again after
 * prefix) gives: dropped inside the open transaction, the statements
 * that make them again appended to *keep.  s is finalized.  0 or -1.
 */
static int
schema_aside(struct store *st, sqlite3_stmt *s, const char *kind,
    const char *prefix, char **keep, struct err *err)
{
	struct buf create = BUF_INIT, drop = BUF_INIT;
	int rc;

	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		buf_printf(&create, "%s%s;\n", prefix,
		    sqlite3_column_text(s, 1));
		buf_printf(&drop, "DROP %s \"%s\";", kind,
		    sqlite3_column_text(s, 0));
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE) {
		err_sqlite(err, st->db, "read what an import sets aside");
		goto fail;
	}
	if (drop.len > 0 && exec(st, buf_str(&drop), err) < 0)
		goto fail;
	if (create.len > 0)
		text_append(keep, buf_str(&create));
	buf_release(&create);
	buf_release(&drop);
	return 0;
fail:
	buf_release(&create);
	buf_release(&drop);
	return -1;
}

static int
bulk_indexes_aside(struct store *st, const char *table, struct err *err)
{
	sqlite3_stmt *s;

	if (prepare(st, &s, "SELECT name, substr(sql, 14) FROM sqlite_schema s"
	    " WHERE type = 'index' AND tbl_name = ?1 AND sql LIKE"
	    " 'CREATE INDEX %' AND (SELECT name FROM pragma_index_info(s.name)"
	    " WHERE seqno = 0) IN ('task_id', 'origin') ORDER BY rowid",
	    err) < 0)
		return -1;
	bind_text(s, 1, table);
	return schema_aside(st, s, "INDEX", "CREATE INDEX ", &st->bulk_indexes,
	    err);
}

/*
 * The identities of the candidates while a large import has set their
 * unique index aside (bulk_switch()): identity key -> seq, by open
 * addressing (the key is half a SHA-256: its first 8 bytes are its
 * hash).  An entry of a row rolled back later (--keep-going) names a
 * seq that is gone or now another candidate's, so a hit is checked
 * against the row (candidate_find()).
 */
struct ident_set {
	unsigned char	(*key)[CAND_IDENT];
	int64_t		 *seq;		/* 0: an empty slot */
	size_t		  cap, n;
};

static size_t
ident_slot(const struct ident_set *t, const unsigned char *key)
{
	uint64_t h;
	size_t i;

	memcpy(&h, key, sizeof h);
	i = (size_t)h & (t->cap - 1);
	while (t->seq[i] != 0 && memcmp(t->key[i], key, CAND_IDENT) != 0)
		i = (i + 1) & (t->cap - 1);
	return i;
}

static void
ident_put(struct ident_set *t, const unsigned char *key, int64_t seq)
{
	size_t i;

	if (2 * (t->n + 1) > t->cap) {
		struct ident_set old = *t;

		t->cap = t->cap > 0 ? 2 * t->cap : (size_t)1 << 16;
		t->key = xcalloc(t->cap, sizeof *t->key);
		t->seq = xcalloc(t->cap, sizeof *t->seq);
		t->n = 0;
		for (size_t k = 0; k < old.cap; k++)
			if (old.seq[k] != 0)
				ident_put(t, old.key[k], old.seq[k]);
		free(old.key);
		free(old.seq);
	}
	i = ident_slot(t, key);
	if (t->seq[i] == 0)
		t->n++;
	memcpy(t->key[i], key, CAND_IDENT);
	t->seq[i] = seq;
}

/* The seq key was put with, or 0. */
static int64_t
ident_get(const struct ident_set *t, const unsigned char *key)
{
	return t->cap > 0 ? t->seq[ident_slot(t, key)] : 0;
}

static void
ident_free(struct ident_set *t)
{
	if (t == NULL)
		return;
	free(t->key);
	free(t->seq);
	free(t);
}

/*
 * Once an import has added BULK_REBUILD_MIN candidates and more than the
 * table had, the candidate's task index is set aside (bulk_indexes_aside)
 * and so is its unique identity index: every identity the table holds
 * is read into st->bulk_idents, which answers the import's duplicate
 * checks from then on (at a million rows the index took each new row at
 * a random place; CREATE UNIQUE INDEX sorts them once, at the publish).
 * Called before a row, never inside its savepoint, so that no ROLLBACK TO
 * brings an index back behind the import's back.
 */
static int
bulk_switch(struct store *st, struct err *err)
{
	sqlite3_stmt *s;
	int rc;

	if (!st->bulk || st->bulk_cand_aside || st->bulk_added <
	    BULK_REBUILD_MIN || st->bulk_added <= st->bulk_seq)
		return 0;
	st->bulk_cand_aside = 1;
	if (bulk_indexes_aside(st, "candidate", err) < 0)
		return -1;
	st->bulk_idents = xcalloc(1, sizeof *st->bulk_idents);
	if (prepare(st, &s, "SELECT seq, ident FROM candidate", err) < 0)
		return -1;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW)
		if (sqlite3_column_bytes(s, 1) == CAND_IDENT)
			ident_put(st->bulk_idents, sqlite3_column_blob(s, 1),
			    sqlite3_column_int64(s, 0));
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE)
		return err_sqlite(err, st->db, "read the identities");
	if (exec(st, "DROP INDEX candidate_ident", err) < 0)
		return -1;
	text_append(&st->bulk_indexes, "CREATE UNIQUE INDEX candidate_ident"
	    " ON candidate(ident);\n");
	return 0;
}

/* Keep the text of the import's triggers in st->bulk_triggers and drop
 * them (inside the open transaction). */
static int
bulk_set_aside(struct store *st, struct err *err)
{
	sqlite3_stmt *s;
	char sql[256];

	snprintf(sql, sizeof sql, "SELECT name, sql FROM sqlite_schema WHERE"
	    " type = 'trigger' AND sql IS NOT NULL AND name IN (%s)"
	    " ORDER BY rowid", bulk_trigger_names);
	if (prepare(st, &s, sql, err) < 0)
		return -1;
	return schema_aside(st, s, "TRIGGER", "", &st->bulk_triggers, err);
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
	    query_int64(st, "SELECT coalesce(min(rowid), 0) FROM search"
	    " WHERE rowid < 0", &st->bulk_task_doc, err) < 0 ||
	    bulk_set_aside(st, err) < 0 ||
	    /* At most 512 MiB of pages, taken as they are used: a
	     * million rows put each new candidate in the identity, id and
	     * recorded indexes at random places (about 200 MB of pages);
	     * with 128 MiB they were written out to the WAL and read back
	     * (1,000,000 rows: 92 s of CPU, 84 s with 512 MiB). */
	    exec(st, "PRAGMA cache_size = -524288", err) < 0 ||
	    /* FTS5 writes its pending terms out as a segment whenever
	     * they pass hashsize (1 MiB), and merges the segments as they
	     * pile up: with 64 MiB an import writes a sixty-fourth of the
	     * segments and merges them less (on one core, 6 % less CPU at
	     * 200,000 rows, 9 % at a million); the publish sets it back */
	    exec(st, "INSERT INTO search(search, rank) VALUES ('hashsize',"
	    " " BULK_FTS_HASH ")", err) < 0) {
		store_rollback(st);
		return -1;
	}
	st->bulk = 1;
	st->bulk_docs = 0;
	return 0;
}

/*
 * In bulk, the search rows of a candidate's code and recorded logs are
 * added as the rows come, with the rowids the triggers would give them:
 * a new candidate's code at seq << 16 and its logs right after it.  A
 * plain insert into search, with no trigger on the candidate or recorded
 * table to open a savepoint, lets FTS5 gather its terms for many rows.
 */
static int
bulk_doc(struct store *st, int64_t rowid, const char *body, size_t len,
    struct err *err)
{
	sqlite3_stmt *s;

	if (hot(st, HOT_SEARCH_DOC, &s, "INSERT INTO search(rowid, body)"
	    " VALUES (?1, ?2)", err) < 0)
		return -1;
	sqlite3_bind_int64(s, 1, rowid);
	sqlite3_bind_text(s, 2, body, (int)len, SQLITE_STATIC);
	if (hot_step(st, s, "add to the search index", err) < 0)
		return -1;
	st->bulk_docs++;
	return 0;
}

/* A log or note of cand_id, after the candidate's last search row (the
 * triggers' rule, for a candidate that is not the one added last). */
static int
bulk_doc_next(struct store *st, int64_t seq, const char *body,
    struct err *err)
{
	sqlite3_stmt *s;

	if (hot(st, HOT_SEARCH_NEXT, &s, "INSERT INTO search(rowid, body)"
	    " SELECT " MIG6_DOC("?1") ", ?2", err) < 0)
		return -1;
	sqlite3_bind_int64(s, 1, seq);
	sqlite3_bind_text(s, 2, body, -1, SQLITE_STATIC);
	if (hot_step(st, s, "add to the search index", err) < 0)
		return -1;
	st->bulk_docs += sqlite3_changes(st->db);
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

static const char *const publish_sql[] = {
	"INSERT INTO search_spec(doc, task_id) SELECT ?5 -"
	" row_number() OVER (ORDER BY t.rowid), t.id FROM task t"
	" WHERE t.rowid > ?1",
	"INSERT INTO search(rowid, body) SELECT s.doc, coalesce(t.spec, '')"
	" || char(10) || coalesce(t.interface, '') FROM search_spec s"
	" JOIN task t ON t.id = s.task_id WHERE s.doc < ?5 ORDER BY s.doc",
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
	int64_t added = st->bulk_docs, last;

	if (!st->bulk)
		return 0;
	/* the queue rows all come now: its indexes are built after them
	 * when they are more than the queue had */
	if (query_int64(st, "SELECT coalesce(max(seq), 0) FROM candidate",
	    &last, err) < 0 || (last - st->bulk_seq >= BULK_REBUILD_MIN &&
	    last - st->bulk_seq > st->bulk_seq &&
	    bulk_indexes_aside(st, "queue", err) < 0))
		return -1;
	for (size_t i = 0; i < sizeof publish_sql / sizeof publish_sql[0];
	    i++) {
		sqlite3_stmt *s;

		if (prepare(st, &s, publish_sql[i], err) < 0)
			return -1;
		for (int k = 1; k <= sqlite3_bind_parameter_count(s); k++) {
			const char *name = sqlite3_bind_parameter_name(s, k);
			int64_t v = name == NULL ? 0 : name[1] == '1' ?
			    st->bulk_task : name[1] == '2' ? st->bulk_seq :
			    name[1] == '3' ? st->bulk_rec : name[1] == '4' ?
			    st->bulk_note : st->bulk_task_doc;

			sqlite3_bind_int64(s, k, v);
		}
		if (step_done(st, s, "publish the import", err) < 0)
			return -1;
		if (strncmp(publish_sql[i], "INSERT INTO search(", 19) == 0)
			added += sqlite3_changes(st->db);
	}
	{
		char sql[96];

		snprintf(sql, sizeof sql, "UPDATE search_gen SET n = n + %lld",
		    (long long)added);
		if (exec(st, sql, err) < 0 || exec(st, "INSERT INTO"
		    " search(search, rank) VALUES ('hashsize', "
		    FTS_HASH_DEFAULT ")", err) < 0 ||
		    (st->bulk_indexes != NULL &&
		    exec(st, st->bulk_indexes, err) < 0) ||
		    (st->bulk_triggers != NULL && exec(st, st->bulk_triggers,
		    err) < 0))
			return -1;
	}
	bulk_end(st);
	return 0;
}

int
store_savepoint(struct store *st, struct err *err)
{
	sqlite3_stmt *s;

	/* Once per imported row: prepared once. */
	if (bulk_switch(st, err) < 0 ||
	    hot(st, HOT_SAVEPOINT, &s, "SAVEPOINT row", err) < 0)
		return -1;
	st->bulk_docs_row = st->bulk_docs;
	st->row_changes = sqlite3_total_changes64(st->db);
	if (hot_step(st, s, "SAVEPOINT row", err) < 0)
		return -1;
	st->in_row = 1;
	return 0;
}

void
store_savepoint_end(struct store *st, int keep)
{
	sqlite3_stmt *s;

	/*
	 * A row that wrote nothing (most bad rows fail on a check before
	 * their first write) is released, not rolled back: in a
	 * transaction that changed the schema, as an import's does (its
	 * triggers set aside), every ROLLBACK TO makes SQLite expire each
	 * prepared statement and read the schema again, about 2 ms a row
	 * (4,000 bad rows of 6,000 took 7.6 s, now 0.1 s).  Every write of
	 * a row counts at least one change (the search rows come with a
	 * candidate, recorded or note row).
	 */
	if (!keep && sqlite3_total_changes64(st->db) != st->row_changes) {
		sqlite3_exec(st->db, "ROLLBACK TO row", NULL, NULL, NULL);
		/* The row's search rows are gone: so is their count, and
		 * its candidate is no longer the one added last. */
		st->bulk_docs = st->bulk_docs_row;
		free(st->last_id);
		st->last_id = NULL;
		/* and a task it added may be gone with it */
		bulk_env_forget(st);
	}
	if (hot(st, HOT_RELEASE, &s, "RELEASE row", NULL) == 0)
		hot_step(st, s, "RELEASE row", NULL);
	st->in_row = 0;
}

/* Step a statement that must finish (INSERT/UPDATE); finalizes it. */
int
step_done(struct store *st, sqlite3_stmt *s, const char *what,
    struct err *err)
{
	int rc = sqlite3_step(s);

	/* a write outside a transaction that found the lock held past the
	 * timeout says so as store_begin() does (in one, begin has said 0) */
	st->locked_out = (rc & 0xff) == SQLITE_BUSY;
	if (rc != SQLITE_DONE) {
		err_sqlite(err, st->db, what);
		sqlite3_finalize(s);
		return -1;
	}
	sqlite3_finalize(s);
	return 0;
}

int
row_by_key(struct store *st, const char *sql, const char *key,
    void (*fill)(sqlite3_stmt *, void *), void *item, const char *what,
    struct err *err)
{
	sqlite3_stmt *s;
	int rc;

	if (prepare(st, &s, sql, err) < 0)
		return -1;
	bind_text(s, 1, key);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		fill(s, item);
	sqlite3_finalize(s);
	if (rc == SQLITE_DONE)
		return 1;
	if (rc != SQLITE_ROW)
		return err_sqlite(err, st->db, what);
	return 0;
}

/* How rows_step() makes and unmakes an item: a fill() and a release(),
 * or a column map. */
struct row_way {
	void		(*fill)(sqlite3_stmt *, void *);
	void		(*release)(void *);
	const struct col *cols;
	size_t		 ncols;
};

static void
row_make(const struct row_way *w, sqlite3_stmt *s, char *item)
{
	if (w->fill != NULL) {
		w->fill(s, item);
		return;
	}
	for (size_t c = 0; c < w->ncols; c++) {
		char *field = item + w->cols[c].off;
		int i = (int)c;

		switch (w->cols[c].kind) {
		case COL_I64:
			*(int64_t *)(void *)field = sqlite3_column_int64(s, i);
			break;
		case COL_INT:
			*(int *)(void *)field = sqlite3_column_int(s, i);
			break;
		case COL_TEXT:
			*(char **)(void *)field = col_text(s, i);
			break;
		}
	}
}

void
cols_release(void *item, size_t size, const struct col *cols, size_t ncols)
{
	if (item == NULL)
		return;
	for (size_t c = 0; c < ncols; c++)
		if (cols[c].kind == COL_TEXT)
			free(*(char **)(void *)((char *)item + cols[c].off));
	memset(item, 0, size);
}

static void
rows_unmake(const struct row_way *w, char *a, size_t n, size_t size)
{
	if (w->fill != NULL) {
		array_free(a, n, size, w->release);
		return;
	}
	for (size_t k = 0; k < n; k++)
		cols_release(a + k * size, size, w->cols, w->ncols);
	free(a);
}

/*
 * The one way a list reader reads its rows (store_int.h): step s until
 * it ends or limit rows are read, each into a new zeroed item of size
 * bytes made the way w says; s is finalized.  On an error the items read
 * so far are unmade, the array is freed, *out is NULL, *n is 0 and err
 * says what failed: no reader returns a half-filled list.
 */
static int
rows_step(struct store *st, sqlite3_stmt *s, size_t size, size_t limit,
    const struct row_way *w, void *out, size_t *n, const char *what,
    struct err *err)
{
	char *a = NULL;
	size_t cap = 0;
	int rc = SQLITE_DONE;

	memcpy(out, &a, sizeof a);
	*n = 0;
	while (*n < limit && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		if (*n == cap) {
			cap = cap > 0 ? cap * 2 : 8;
			a = xreallocarray(a, cap, size);
		}
		memset(a + *n * size, 0, size);
		row_make(w, s, a + *n * size);
		(*n)++;
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		rows_unmake(w, a, *n, size);
		*n = 0;
		return err_sqlite(err, st->db, what);
	}
	memcpy(out, &a, sizeof a);
	return 0;
}

int
rows_read(struct store *st, sqlite3_stmt *s, size_t size, size_t limit,
    void (*fill)(sqlite3_stmt *, void *), void (*release)(void *),
    void *out, size_t *n, const char *what, struct err *err)
{
	const struct row_way w = { .fill = fill, .release = release };

	return rows_step(st, s, size, limit, &w, out, n, what, err);
}

int
rows_cols(struct store *st, sqlite3_stmt *s, size_t size, size_t limit,
    const struct col *cols, size_t ncols, void *out, size_t *n,
    const char *what, struct err *err)
{
	const struct row_way w = { .cols = cols, .ncols = ncols };

	return rows_step(st, s, size, limit, &w, out, n, what, err);
}

int
rows_by_cand(struct store *st, const char *sql, const char *cand_id,
    size_t size, const struct col *cols, size_t ncols, void *out,
    size_t *n, const char *what, struct err *err)
{
	void *none = NULL;
	sqlite3_stmt *s;

	memcpy(out, &none, sizeof none);
	*n = 0;
	if (prepare(st, &s, sql, err) < 0)
		return -1;
	bind_text(s, 1, cand_id);
	return rows_cols(st, s, size, SIZE_MAX, cols, ncols, out, n, what,
	    err);
}

int64_t
now_s(void)
{
	return (int64_t)time(NULL);
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
	if (ident_check_label(t->benchmark, "a benchmark name", &e) < 0)
		return err_set(err, "task %s: benchmark '%s': %s", t->id,
		    ident_show(t->benchmark, a, sizeof a), e.msg);
	if (ident_check_label(t->env, "an env name", &e) < 0)
		return err_set(err, "task %s: env '%s': %s", t->id,
		    ident_show(t->env, a, sizeof a), e.msg);
	for (size_t i = 0; i < t->nfiles; i++)
		if (ident_check_file_name(t->files[i].name, &e) < 0)
			return err_set(err, "task %s: file name '%s': %s",
			    t->id, ident_show(t->files[i].name, b, sizeof b),
			    e.msg);
	return 0;
}

int
check_by(const char *by, struct err *err)
{
	char a[96];
	struct err e;

	if (ident_check_reviewer(by, &e) < 0)
		return err_set(err, "reviewer name '%s': %s", ident_show(by, a,
		    sizeof a), e.msg);
	return 0;
}

int
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
	/* An import's rows name the same few tasks over and over; within
	 * its transaction a task's env cannot change. */
	if (st->bulk && st->bulk_env_id != NULL &&
	    strcmp(st->bulk_env_id, id) == 0) {
		*env = xstrdup(st->bulk_env);
		return 0;
	}
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
	if (rc == SQLITE_ROW && st->bulk && *env != NULL) {
		bulk_env_forget(st);
		st->bulk_env_id = xstrdup(id);
		st->bulk_env = xstrdup(*env);
	}
	return rc == SQLITE_ROW ? 0 : 1;
}

static void
task_fill(sqlite3_stmt *s, void *item)
{
	struct task *out = item;

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
}

int
store_task_get(struct store *st, const char *id, struct task *out,
    struct err *err)
{
	sqlite3_stmt *s;
	int rc;

	memset(out, 0, sizeof *out);
	rc = row_by_key(st, "SELECT id, benchmark, domain, env, env_params,"
	    " spec, interface, source, extra, license, license_source, split,"
	    " split_hand FROM task WHERE id = ?1", id, task_fill, out,
	    "read task", err);
	if (rc != 0)
		return rc;
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

void
cand_id_hex(const char *task_id, const char *origin, const char *code_hash,
    char hex[HASH_HEX_LEN + 1])
{
	size_t nt = strlen(task_id) + 1, no = strlen(origin) + 1;
	size_t nh = strlen(code_hash);
	char *p = xmalloc(nt + no + nh);

	/* task NUL origin NUL code hash, once per imported row */
	memcpy(p, task_id, nt);
	memcpy(p + nt, origin, no);
	memcpy(p + nt + no, code_hash, nh);
	hash_sha256(p, nt + no + nh, hex);
	free(p);
}

char *
cand_id_at(const char *hex, int n)
{
	return xasprintf("c%.*s", n, hex);
}

static int
hex_digit(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ?
	    c - 'a' + 10 : 0;
}

void
cand_ident(const char *hex, unsigned char ident[CAND_IDENT])
{
	for (int i = 0; i < CAND_IDENT; i++)
		ident[i] = (unsigned char)(hex_digit(hex[2 * i]) << 4 |
		    hex_digit(hex[2 * i + 1]));
}

/* assay_ident(task_id, origin, code_hash): the identity key of
 * migration 13 -> 14 (MIG14_IDENT). */
static void
ident_sql(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	const char *v[3];
	char hex[HASH_HEX_LEN + 1];
	unsigned char key[CAND_IDENT];

	for (int i = 0; i < 3 && i < argc; i++) {
		v[i] = (const char *)sqlite3_value_text(argv[i]);
		if (v[i] == NULL) {
			sqlite3_result_null(ctx);
			return;
		}
	}
	cand_id_hex(v[0], v[1], v[2], hex);
	cand_ident(hex, key);
	sqlite3_result_blob(ctx, key, CAND_IDENT, SQLITE_TRANSIENT);
}

/*
 * The candidate whose identity key is c's: its id in *id, NULL when
 * there is none.  The key is 128 bits of a SHA-256, so two identities
 * that share it would be a collision made on purpose: the row found
 * must have c's task, origin and code hash, or c is refused.
 */
static int
candidate_find(struct store *st, const struct candidate *c,
    const unsigned char *key, int64_t seq, char **id, struct err *err)
{
	sqlite3_stmt *s;
	int rc, same = 0;

	*id = NULL;
	/* seq: the row st->bulk_idents names, if it is still that one */
	if (seq > 0 ? hot(st, HOT_CAND_FIND_SEQ, &s, "SELECT id, task_id = ?2"
	    " AND origin = ?3 AND code_hash = ?4 FROM candidate WHERE"
	    " seq = ?5 AND ident = ?1", err) < 0 : hot(st, HOT_CAND_FIND, &s,
	    "SELECT id, task_id = ?2 AND origin = ?3 AND code_hash = ?4"
	    " FROM candidate WHERE ident = ?1", err) < 0)
		return -1;
	sqlite3_bind_blob(s, 1, key, CAND_IDENT, SQLITE_STATIC);
	if (seq > 0)
		sqlite3_bind_int64(s, 5, seq);
	bind_static(s, 2, c->task_id);
	bind_static(s, 3, c->origin);
	bind_static(s, 4, c->code_hash);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		*id = col_text(s, 0);
		same = sqlite3_column_int(s, 1);
	}
	hot_done(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return err_sqlite(err, st->db, "find candidate");
	if (*id != NULL && !same) {
		err_set(err, "candidate of task %s, origin %s: its identity key"
		    " is candidate %s's, whose task, origin or code differ (a"
		    " SHA-256 collision made on purpose?); not imported",
		    c->task_id, c->origin, *id);
		free(*id);
		*id = NULL;
		return -1;
	}
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

/* Insert c as it is; *inserted 0 when its id or its identity is taken
 * (ON CONFLICT: the insert's own unique lookups are the checks). */
static int
candidate_insert(struct store *st, const struct candidate *c,
    const unsigned char *key, int *inserted, struct err *err)
{
	sqlite3_stmt *s;

	if (hot(st, HOT_CAND_INSERT, &s, "INSERT INTO candidate(id, task_id,"
	    " origin, origin_raw, kind, lang, parent, source, code, code_hash,"
	    " extra, ident)"
	    " VALUES (?1, ?2, ?3, ?4, coalesce(?5, 'direct'), ?6, ?7, ?8, ?9,"
	    " ?10, ?11, ?12) ON CONFLICT DO NOTHING", err) < 0)
		return -1;
	sqlite3_bind_blob(s, 12, key, CAND_IDENT, SQLITE_STATIC);
	bind_static(s, 1, c->id);
	bind_static(s, 2, c->task_id);
	bind_static(s, 3, c->origin);
	bind_static(s, 4, c->origin_raw);
	bind_static(s, 5, c->kind);
	bind_static(s, 6, c->lang);
	bind_static(s, 7, c->parent);
	bind_static(s, 8, c->source);
	sqlite3_bind_blob(s, 9, c->code != NULL ? c->code : "",
	    (int)c->code_len, SQLITE_STATIC);
	bind_static(s, 10, c->code_hash);
	bind_static(s, 11, c->extra);
	if (hot_step(st, s, "insert candidate", err) < 0)
		return -1;
	*inserted = sqlite3_changes(st->db) > 0;
	return 0;
}

int
store_candidate_add(struct store *st, struct candidate *c, int *inserted,
    struct err *err)
{
	sqlite3_stmt *s;
	char *existing, show[96], hex[HASH_HEX_LEN + 1];
	unsigned char key[CAND_IDENT];
	struct err e;
	int64_t seq;
	int ins = 0, derived;

	*inserted = 0;
	if (c->id != NULL && ident_check_id(c->id, &e) < 0)
		return err_set(err, "candidate id '%s': %s", ident_show(c->id,
		    show, sizeof show), e.msg);
	if (c->parent != NULL && ident_check_id(c->parent, &e) < 0)
		return err_set(err, "parent id '%s': %s", ident_show(c->parent,
		    show, sizeof show), e.msg);
	if (ident_check_label(c->origin, "an origin", &e) < 0)
		return err_set(err, "origin '%s': %s", ident_show(c->origin,
		    show, sizeof show), e.msg);
	/* The identity key, and a git-like short id of it when the row
	 * names none, longer on a clash. */
	cand_id_hex(c->task_id, c->origin, c->code_hash, hex);
	cand_ident(hex, key);
	derived = c->id == NULL;
	if (!st->in_row && bulk_switch(st, err) < 0)
		return -1;
	/* Set aside, the identity index is the set in memory. */
	if (st->bulk_idents != NULL && (seq = ident_get(st->bulk_idents,
	    key)) > 0) {
		if (candidate_find(st, c, key, seq, &existing, err) < 0)
			return -1;
		if (existing != NULL) {
			free(c->id);
			c->id = existing;
			return 0;
		}
	}
	if (derived)
		c->id = cand_id_at(hex, CAND_ID_MIN);
	/* Most rows are new: try the insert first, look why when it
	 * adds nothing. */
	if (candidate_insert(st, c, key, &ins, err) < 0)
		return -1;
	if (!ins) {
		/* (with the set, the identity is known to be new: only
		 * the id can have been taken) */
		existing = NULL;
		if (st->bulk_idents == NULL && candidate_find(st, c, key, 0,
		    &existing, err) < 0)
			return -1;
		if (existing != NULL) {
			free(c->id);
			c->id = existing;
			return 0;
		}
		if (derived) {
			int taken = 1;

			for (int n = CAND_ID_MIN + 1; n <= HASH_HEX_LEN &&
			    taken; n++) {
				free(c->id);
				c->id = cand_id_at(hex, n);
				if (id_taken(st, c->id, &taken, err) < 0)
					return -1;
			}
			if (candidate_insert(st, c, key, &ins, err) < 0)
				return -1;
		}
	}
	if (!ins) {
		char *other = NULL;
		int rc;

		/* An explicit id names one candidate: say whose it is
		 * (docs/adr/0011), not "UNIQUE constraint failed". */
		if (hot(st, HOT_CAND_TASK, &s, "SELECT task_id FROM candidate"
		    " WHERE id = ?1", err) < 0)
			return -1;
		bind_static(s, 1, c->id);
		rc = sqlite3_step(s);
		if (rc == SQLITE_ROW)
			other = col_text(s, 0);
		hot_done(s);
		if (rc != SQLITE_ROW && rc != SQLITE_DONE)
			return err_sqlite(err, st->db, "check id");
		err_set(err, "candidate id '%s' is already taken by another"
		    " candidate (of task %s%s); give the candidate another id,"
		    " or import with --id-prefix", c->id, other != NULL ?
		    other : "?", other != NULL && strcmp(other,
		    c->task_id) == 0 ? ", this row's task" : "");
		free(other);
		return -1;
	}
	*inserted = 1;
	/* its recorded rows come next: they name it by seq */
	free(st->last_id);
	st->last_id = xstrdup(c->id);
	st->last_seq = sqlite3_last_insert_rowid(st->db);
	if (st->bulk_idents != NULL)
		ident_put(st->bulk_idents, key, st->last_seq);
	if (st->bulk) {
		st->bulk_added++;
		st->bulk_last_doc = st->last_seq << 16;
		if (bulk_doc(st, st->bulk_last_doc, c->code != NULL ? c->code :
		    "", c->code_len, err) < 0)
			return -1;
	}
	return 0;
}

void
candidate_fill(sqlite3_stmt *s, void *item)
{
	struct candidate *out = item;

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
}

int
store_candidate_get(struct store *st, const char *id, struct candidate *out,
    struct err *err)
{
	int rc;

	memset(out, 0, sizeof *out);
	rc = row_by_key(st, "SELECT " CAND_COLS " FROM candidate WHERE id ="
	    " ?1", id, candidate_fill, out, "read candidate", err);
	if (rc != 0)
		return rc;
	if (out->code == NULL)
		out->code = xstrdup("");
	return 0;
}

int
store_repair_depth(struct store *st, const char *id, int *depth,
    struct err *err)
{
	sqlite3_stmt *s;
	int rc;

	*depth = 0;
	if (prepare(st, &s, "WITH RECURSIVE chain(id, parent, kind, n) AS"
	    " (SELECT id, parent, kind, 0 FROM candidate WHERE id = ?1"
	    " UNION ALL SELECT c.id, c.parent, c.kind, chain.n + 1"
	    " FROM chain JOIN candidate c ON c.id = chain.parent"
	    " WHERE chain.kind = 'repair' AND chain.n < 1000)"
	    " SELECT max(n), count(*) FROM chain", err) < 0)
		return -1;
	bind_text(s, 1, id);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW && sqlite3_column_int(s, 1) == 0)
		rc = SQLITE_DONE;
	else if (rc == SQLITE_ROW)
		*depth = sqlite3_column_int(s, 0);
	sqlite3_finalize(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return err_sqlite(err, st->db, "read repair chain");
	return rc == SQLITE_ROW ? 0 : 1;
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

/* The seq of candidate id: 0, 1 when there is none, or -1. */
static int
cand_seq(struct store *st, const char *id, int64_t *seq, struct err *err)
{
	sqlite3_stmt *s;
	int rc;

	*seq = 0;
	if (st->last_id != NULL && strcmp(id, st->last_id) == 0) {
		*seq = st->last_seq;
		return 0;
	}
	if (hot(st, HOT_CAND_SEQ, &s, "SELECT seq FROM candidate WHERE"
	    " id = ?1", err) < 0)
		return -1;
	bind_static(s, 1, id);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		*seq = sqlite3_column_int64(s, 0);
	hot_done(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return err_sqlite(err, st->db, "find candidate");
	return rc == SQLITE_ROW ? 0 : 1;
}

int
store_recorded_add(struct store *st, const char *cand_id,
    const struct recorded *r, struct err *err)
{
	sqlite3_stmt *s;
	int64_t seq;
	int rc;

	/* The candidate added last, most of the time: no lookup. */
	rc = cand_seq(st, cand_id, &seq, err);
	if (rc != 0)
		return rc < 0 ? -1 : err_set(err, "recorded result of"
		    " candidate %s: no such candidate", cand_id);
	if (hot(st, HOT_RECORDED_INSERT, &s, "INSERT INTO recorded(cand_seq,"
	    " verdict, stage, log, extra) VALUES (?1, ?2, ?3, ?4, ?5)",
	    err) < 0)
		return -1;
	sqlite3_bind_int64(s, 1, seq);
	bind_static(s, 2, r->verdict);
	bind_static(s, 3, r->stage);
	bind_static(s, 4, r->log);
	bind_static(s, 5, r->extra);
	if (hot_step(st, s, "insert recorded", err) < 0)
		return -1;
	if (!st->bulk || r->log == NULL)
		return 0;
	/* The search row the trigger would have added. */
	if (st->last_id != NULL && strcmp(cand_id, st->last_id) == 0)
		return bulk_doc(st, ++st->bulk_last_doc, r->log, strlen(r->log),
		    err);
	return bulk_doc_next(st, seq, r->log, err);
}

static const struct col recorded_cols[] = {
	COL(struct recorded, verdict, COL_TEXT),
	COL(struct recorded, stage, COL_TEXT),
	COL(struct recorded, log, COL_TEXT),
	COL(struct recorded, extra, COL_TEXT),
};

int
store_recorded_list(struct store *st, const char *cand_id,
    struct recorded **out, size_t *n, struct err *err)
{
	return rows_by_cand(st, "SELECT verdict, stage, log, extra FROM recorded"
	    " WHERE cand_seq = (SELECT seq FROM candidate WHERE id = ?1)"
	    " ORDER BY id", cand_id,
	    sizeof **out, recorded_cols, NCOLS(recorded_cols), out, n,
	    "read recorded", err);
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
	    " evidence_line, feedback, wave) VALUES (?1, ?2, ?3, ?4, ?5, ?6,"
	    " ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19,"
	    " ?20)", err) < 0)
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
	bind_text(s, 19, r->feedback);
	if (r->wave != NULL)
		sqlite3_bind_blob(s, 20, r->wave, (int)r->wave_len,
		    SQLITE_TRANSIENT);
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
	" wall_ms, started, log, diagnostics, coalesce(evidence_line, 0)," \
	" feedback, wave"

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
	r->feedback = col_text(s, 19);
	r->wave = col_blob(s, 20, &r->wave_len);
}

static void
run_fill(sqlite3_stmt *s, void *item)
{
	run_from_row(s, item);
}

int
store_run_latest(struct store *st, const char *cand_id, struct run *out,
    struct err *err)
{
	memset(out, 0, sizeof *out);
	return row_by_key(st, "SELECT " RUN_COLS " FROM run WHERE id ="
	    " (SELECT run_id FROM candidate WHERE id = ?1)", cand_id,
	    run_fill, out, "read run", err);
}

static void
run_free(void *item)
{
	run_release(item);
}

int
store_run_list(struct store *st, const char *cand_id, struct run **out,
    size_t *n, struct err *err)
{
	sqlite3_stmt *s;

	*out = NULL;
	*n = 0;
	if (prepare(st, &s, "SELECT " RUN_COLS " FROM run WHERE cand_id = ?1"
	    " ORDER BY id", err) < 0)
		return -1;
	bind_text(s, 1, cand_id);
	return rows_read(st, s, sizeof **out, SIZE_MAX, run_fill, run_free,
	    out, n, "read runs", err);
}

/* --- export helpers -------------------------------------------------- */

static const struct col label_cols[] = {
	COL(struct store_label, id, COL_I64),
	COL(struct store_label, at, COL_I64),
	COL(struct store_label, category, COL_TEXT),
	COL(struct store_label, subcategory, COL_TEXT),
	COL(struct store_label, note, COL_TEXT),
	COL(struct store_label, by, COL_TEXT),
	COL(struct store_label, evidence, COL_TEXT),
	COL(struct store_label, current, COL_INT),
};

void
store_label_release(struct store_label *l)
{
	cols_release(l, sizeof *l, label_cols, NCOLS(label_cols));
}

int
store_label_list(struct store *st, const char *cand_id,
    struct store_label **out, size_t *n, struct err *err)
{
	return rows_by_cand(st, "SELECT l.id, l.at, l.category, l.subcategory,"
	    " l.note, l.by, l.evidence, l.id IS c.label_id FROM label l"
	    " JOIN candidate c ON c.id = l.cand_id WHERE l.cand_id = ?1"
	    " ORDER BY l.id", cand_id,
	    sizeof **out, label_cols, NCOLS(label_cols), out, n,
	    "read labels", err);
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

/* --- the model loop -------------------------------------------------- */

int
store_attempt_add(struct store *st, const struct store_attempt *a,
    struct err *err)
{
	sqlite3_stmt *s;

	if (a->task_id == NULL || a->model == NULL || a->kind == NULL)
		return err_set(err, "attempt: no task, model or kind");
	if (prepare(st, &s, "INSERT INTO attempt(task_id, cand_id, parent,"
	    " model, kind, round, prompt_tokens, completion_tokens,"
	    " latency_ms, error, at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8,"
	    " ?9, ?10, ?11)", err) < 0)
		return -1;
	bind_text(s, 1, a->task_id);
	bind_text(s, 2, a->cand_id);
	bind_text(s, 3, a->parent);
	bind_text(s, 4, a->model);
	bind_text(s, 5, a->kind);
	sqlite3_bind_int(s, 6, a->round);
	if (a->prompt_tokens >= 0)
		sqlite3_bind_int64(s, 7, a->prompt_tokens);
	if (a->completion_tokens >= 0)
		sqlite3_bind_int64(s, 8, a->completion_tokens);
	sqlite3_bind_int64(s, 9, a->latency_ms);
	bind_text(s, 10, a->error);
	sqlite3_bind_int64(s, 11, now_s());
	return step_done(st, s, "record an attempt", err);
}

int
store_attempt_each(struct store *st,
    int (*cb)(const struct store_gen_row *row, void *arg), void *arg,
    struct err *err)
{
	sqlite3_stmt *s;
	int rc = SQLITE_DONE, stop = 0;

	/* The attempts, then the generated candidates that have none (made
	 * before schema 13, or imported): one each, from their record. */
	if (prepare(st, &s, "SELECT a.cand_id, a.task_id, a.kind, a.model,"
	    " (SELECT r.verdict FROM candidate c JOIN run r ON"
	    " r.id = c.run_id WHERE c.id = a.cand_id), a.round,"
	    " a.prompt_tokens, a.completion_tokens, a.latency_ms, a.error,"
	    " (SELECT json_extract(c.extra, '$.generation.strategy') FROM"
	    " candidate c WHERE c.id = a.cand_id AND json_valid(c.extra)),"
	    " 0 AS part, a.id AS ord, (SELECT json_extract(c.extra,"
	    " '$.generation.feedback') FROM candidate c WHERE c.id ="
	    " a.cand_id AND json_valid(c.extra)) FROM attempt a"
	    " UNION ALL"
	    " SELECT c.id, c.task_id, c.kind,"
	    " json_extract(c.extra, '$.generation.model'),"
	    " (SELECT r.verdict FROM run r WHERE r.id = c.run_id),"
	    " json_extract(c.extra, '$.generation.round'),"
	    " json_extract(c.extra, '$.generation.usage.prompt_tokens'),"
	    " json_extract(c.extra, '$.generation.usage.completion_tokens'),"
	    " json_extract(c.extra, '$.generation.latency_ms'), NULL,"
	    " json_extract(c.extra, '$.generation.strategy'), 1, c.seq,"
	    " json_extract(c.extra, '$.generation.feedback')"
	    " FROM candidate c WHERE c.extra IS NOT NULL"
	    " AND json_valid(c.extra)"
	    " AND json_type(c.extra, '$.generation') = 'object'"
	    " AND NOT EXISTS (SELECT 1 FROM attempt a WHERE a.cand_id = c.id)"
	    " ORDER BY part, ord", err) < 0)
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
		r.error = (const char *)sqlite3_column_text(s, 9);
		r.strategy = (const char *)sqlite3_column_text(s, 10);
		r.feedback = (const char *)sqlite3_column_text(s, 13);
		if (r.model == NULL)
			r.model = "?";
		stop = cb(&r, arg);
	}
	sqlite3_finalize(s);
	if (stop)
		return stop;
	if (rc != SQLITE_DONE)
		return err_sqlite(err, st->db, "read the models' attempts");
	return 0;
}

/* --- results keys ---------------------------------------------------- */

/* One key by a WHERE on kind or id; 0, 1 none, -1. */
static int
key_read(struct store *st, const char *sql, const char *arg, char *id,
    char *key, struct err *err)
{
	sqlite3_stmt *s;
	int rc;

	if (prepare(st, &s, sql, err) < 0)
		return -1;
	bind_text(s, 1, arg);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		const char *i = (const char *)sqlite3_column_text(s, 0);
		const char *k = (const char *)sqlite3_column_text(s, 1);

		if (i == NULL || k == NULL || strlen(i) > STORE_KEY_ID ||
		    strlen(k) != STORE_KEY_HEX) {
			sqlite3_finalize(s);
			return err_set(err, "results_key: a malformed key");
		}
		if (id != NULL)
			memcpy(id, i, strlen(i) + 1);
		memcpy(key, k, STORE_KEY_HEX + 1);
		sqlite3_finalize(s);
		return 0;
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE)
		return err_sqlite(err, st->db, "read a results key");
	return 1;
}

int
store_results_key_own(struct store *st, char *id, char *key,
    struct err *err)
{
	int rc = key_read(st, "SELECT id, key FROM results_key WHERE"
	    " kind = ?1", "database", id, key, err);

	if (rc > 0)
		return err_set(err, "the database has no results key of its"
		    " own (results_key emptied by hand?)");
	return rc;
}

int
store_results_key_get(struct store *st, const char *id, char *key,
    struct err *err)
{
	return key_read(st, "SELECT id, key FROM results_key WHERE id = ?1",
	    id, NULL, key, err);
}

int
store_results_key_new(struct store *st, const char *note, char *id,
    char *key, struct err *err)
{
	if (random_hex(id, STORE_KEY_ID / 2, err) < 0 ||
	    random_hex(key, STORE_KEY_HEX / 2, err) < 0)
		return -1;
	return key_insert(st, id, key, "campaign", note, err);
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
    int ttl_s, int (*gone)(const char *holder), int *got, struct err *err)
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
	/* So is one whose holder is known to be gone (a killed verify on
	 * this host), without waiting for it to lapse. */
	if (gone != NULL) {
		char *other = NULL;

		if (prepare(st, &s, "SELECT holder FROM lease WHERE"
		    " cand_id = ?1 AND holder <> ?2", err) < 0)
			goto fail;
		bind_text(s, 1, cand_id);
		bind_text(s, 2, holder);
		rc = sqlite3_step(s);
		if (rc == SQLITE_ROW)
			other = xstrdup((const char *)sqlite3_column_text(s,
			    0));
		sqlite3_finalize(s);
		if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
			err_sqlite(err, st->db, "read claim");
			goto fail;
		}
		rc = other != NULL && gone(other);
		free(other);
		if (rc) {
			if (prepare(st, &s, "DELETE FROM lease WHERE"
			    " cand_id = ?1 AND holder <> ?2", err) < 0)
				goto fail;
			bind_text(s, 1, cand_id);
			bind_text(s, 2, holder);
			if (step_done(st, s, "drop a dead holder's claim",
			    err) < 0)
				goto fail;
		}
	}
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

