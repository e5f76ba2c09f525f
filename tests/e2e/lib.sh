# lib.sh - helpers for end-to-end tests; sourced with $1 = assay binary.
set -u
ASSAY=$1
SHARED=${ASSAY_SHARED:-$(cd "$(dirname "$0")/../../.." && pwd)/shared}
DATA=$SHARED/data
T=$(mktemp -d "${TMPDIR:-/tmp}/assay-e2e.XXXXXX")
[ -n "${KEEP_T:-}" ] || trap 'rm -rf "$T"' EXIT
DB=$T/assay.db
export ASSAY_REVIEWER=tester

fail() { echo "FAIL: $*"; exit 1; }
skip() { echo "$*"; exit 77; }
# expect_eq WHAT GOT WANT
expect_eq() { [ "$2" = "$3" ] || fail "$1: got '$2', want '$3'"; echo "ok: $1 = $3"; }
# The candidates of a hostile suite, each named by its origin: PREFIX
# NAME, with ORIGIN_PREFIX set by the suite ("ct-", "native-", ...).
# get NAME KEY: a string or number field of its list --json line ("null"
# when null).
get() {
	"$ASSAY" --db "$DB" list --json --where "origin=${ORIGIN_PREFIX-}$1" |
	    sed -n "s/.*\"$2\":\(\"[^\"]*\"\|null\|[0-9.]*\).*/\1/p" | tr -d '"'
}
# want NAME VERDICT/CATEGORY/SUBCATEGORY
want() {
	expect_eq "${ORIGIN_PREFIX-}$1" "$(get "$1" verdict)/$(get "$1" \
	    category)/$(get "$1" subcategory)" "$2"
}
# shown NAME: its show into $T/NAME.show
shown() {
	"$ASSAY" --db "$DB" show "$(get "$1" id)" > "$T/$1.show" ||
	    fail "show ${ORIGIN_PREFIX-}$1"
}
# evidence NAME: the evidence line of its show
evidence() {
	"$ASSAY" --db "$DB" show "$(get "$1" id)" | sed -n 's/^evidence: //p'
}
# count candidates of a list --where FILTER
count() { "$ASSAY" --db "$DB" list --json --where "$1" | wc -l | tr -d ' '; }
need_data() { [ -d "$DATA" ] || skip "no shared data at $DATA"; }
# export_all DB ARG... - an sft export of DB with --include-failing: the
# rows to learn, then the failing ones, on stdout (the export writes
# them to two files, never one stream; issue 25 item 3).  Its notices
# stay on stderr; the exit status is the export's.
export_all() {
	_db=$1
	shift
	_o=$T/export-all.jsonl
	rm -f "$_o" "$T/export-all.failing.jsonl"
	"$ASSAY" --db "$_db" export --include-failing -o "$_o" "$@" >/dev/null ||
	    return $?
	cat "$_o"
	[ ! -e "$T/export-all.failing.jsonl" ] || cat "$T/export-all.failing.jsonl"
}
# need_triton [no-gpu]: skip unless the project venv has torch and triton
# (assay envs), and with no-gpu unless no GPU is here (the CPU path runs).
need_triton() {
	tri=$("$ASSAY" envs | grep '^triton ')
	printf '%s\n' "$tri" | grep -Eq '; torch [0-9][^;]*; triton [0-9]' ||
		skip "no torch and triton in the project venv (make deps): $tri"
	[ "${1:-}" != no-gpu ] || printf '%s\n' "$tri" | grep -q '; no GPU' ||
		skip "a GPU is here: the GPU path runs instead (150-kernelbench.sh)"
}
# downgrade_v15 DB - a database of schema v16 put back as schema v15 made
# it: no index of the repair events' details.
downgrade_v15() {
	sqlite3 "$1" "BEGIN;
DROP INDEX event_repair;
PRAGMA user_version = 15;
COMMIT;"
}

# downgrade_v14 DB - a database of schema v16 put back as schema v14 made
# it: a run without its feedback and waveform columns.
downgrade_v14() {
	downgrade_v15 "$1"
	sqlite3 "$1" "BEGIN;
ALTER TABLE run DROP COLUMN feedback;
ALTER TABLE run DROP COLUMN wave;
PRAGMA user_version = 14;
COMMIT;"
}

# downgrade_v13 DB - a database of schema v14 put back as schema v13
# made it (docs/adr/0043): the candidate's unique (task, origin, code
# hash) instead of its identity key, recorded rows naming their
# candidate by id, and the triggers of both tables as v13 had them.  The
# tests of migrations start here and go further back themselves.
downgrade_v13() {
	downgrade_v14 "$1"
	sqlite3 "$1" "BEGIN;
CREATE TEMP TABLE c_save AS SELECT seq, id, task_id, origin, origin_raw,
  kind, lang, parent, source, code, code_hash, extra, created, run_id,
  label_id, review_id FROM candidate;
CREATE TEMP TABLE r_save AS SELECT r.id, c.id AS cand_id, r.verdict,
  r.stage, r.log, r.extra FROM recorded r JOIN candidate c
  ON c.seq = r.cand_seq;
DROP TABLE recorded;
DROP TABLE candidate;
CREATE TABLE candidate (  seq        INTEGER PRIMARY KEY,  id         TEXT NOT NULL UNIQUE,  task_id    TEXT NOT NULL REFERENCES task(id),  origin     TEXT NOT NULL,  origin_raw TEXT,  kind       TEXT NOT NULL DEFAULT 'direct'             CHECK (kind IN ('direct','repair','optimization')),  lang       TEXT NOT NULL,  parent     TEXT REFERENCES candidate(id),  source     TEXT,  code       BLOB NOT NULL,  code_hash  TEXT NOT NULL,  extra      TEXT,  created    INTEGER NOT NULL DEFAULT (unixepoch()),  run_id     INTEGER REFERENCES run(id),  label_id   INTEGER REFERENCES label(id),  review_id  INTEGER REFERENCES review(id),  UNIQUE (task_id, origin, code_hash));
CREATE TABLE recorded (  id      INTEGER PRIMARY KEY,  cand_id TEXT NOT NULL REFERENCES candidate(id),  verdict TEXT,  stage   TEXT,  log     TEXT,  extra   TEXT);
INSERT INTO candidate SELECT * FROM c_save ORDER BY seq;
INSERT INTO recorded SELECT * FROM r_save ORDER BY id;
CREATE INDEX recorded_cand ON recorded(cand_id);
CREATE INDEX candidate_task ON candidate(task_id);
CREATE TRIGGER queue_update AFTER UPDATE OF run_id, label_id,  review_id ON candidate BEGIN  UPDATE queue SET (verdict, stage, category, subcategory, status) =  (SELECT r.verdict, r.stage, coalesce(l.category, r.category), coalesce(l.subcategory, CASE WHEN l.id IS NULL THEN r.subcategory END), coalesce(v.status, 'unreviewed') FROM candidate c LEFT JOIN run r ON r.id = c.run_id LEFT JOIN label l ON l.id = c.label_id LEFT JOIN review v ON v.id = c.review_id WHERE c.seq = new.seq) WHERE seq = new.seq;END;
CREATE INDEX candidate_parent ON candidate(parent);
CREATE TRIGGER search_candidate AFTER INSERT ON candidate  WHEN NOT EXISTS (SELECT 1 FROM bulk) BEGIN  INSERT INTO search(rowid, body) VALUES (new.seq << 16,  CAST(new.code AS TEXT)); UPDATE search_gen SET n = n + 1;END;
CREATE TRIGGER search_recorded AFTER INSERT ON recorded  WHEN NOT EXISTS (SELECT 1 FROM bulk) BEGIN  INSERT INTO search(rowid, body) SELECT (SELECT coalesce(max(rowid) + 1, (c.seq) << 16) FROM search WHERE rowid BETWEEN (c.seq) << 16 AND ((c.seq) << 16) + 65535),  new.log FROM candidate c WHERE c.id = new.cand_id  AND new.log IS NOT NULL; UPDATE search_gen SET n = n + 1;END;
CREATE TRIGGER queue_insert AFTER INSERT ON candidate  WHEN NOT EXISTS (SELECT 1 FROM bulk) BEGIN  INSERT INTO queue SELECT c.seq, c.id, c.task_id, c.origin, c.kind, c.lang, r.verdict, r.stage, coalesce(l.category, r.category), coalesce(l.subcategory, CASE WHEN l.id IS NULL THEN r.subcategory END), coalesce(v.status, 'unreviewed') FROM candidate c LEFT JOIN run r ON r.id = c.run_id LEFT JOIN label l ON l.id = c.label_id LEFT JOIN review v ON v.id = c.review_id WHERE c.seq = new.seq;END;
PRAGMA user_version = 13;
COMMIT;"
}
