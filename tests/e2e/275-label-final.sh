# 275: a final label is a column of its own (schema v9, issue 9 item 4):
# a database of v8, where a final label was known only by the prose of its
# journal event ("label api (final)"), migrates to label.final, and the
# final label still settles its disagreement and still exports as final.
. "$(dirname "$0")/lib.sh"
command -v sqlite3 >/dev/null || skip "no sqlite3 shell"

cat >"$T/in.jsonl" <<'JSONL'
{"task":{"id":"local/f1","env":"iverilog","spec":"a wire","files":{"tb.sv":"module tb; endmodule\n"}},"candidate":{"id":"f-1","origin":"gpt-x","code":"module top_module(); endmodule\n"},"labels":[{"category":"format","by":"ann","at":1700000000},{"category":"compile","by":"bob","at":1700000060},{"category":"api","final":true,"by":"cyd","at":1700000120}]}
{"task":"local/f1","candidate":{"id":"f-2","origin":"gpt-x","code":"module top_module(input a); endmodule\n"},"labels":[{"category":"format","by":"ann","at":1700000000},{"category":"compile","by":"bob","at":1700000060}]}
JSONL
"$ASSAY" --db "$DB" import "$T/in.jsonl" >/dev/null || fail import
"$ASSAY" --db "$T/fresh.db" import "$T/in.jsonl" >/dev/null || fail import
expect_eq "final column" "$(sqlite3 "$DB" \
    "SELECT group_concat(by || '=' || final, ' ') FROM (SELECT by, final FROM label ORDER BY id)")" \
    "ann=0 bob=0 cyd=1 ann=0 bob=0"

# Back to v8: the column gone, the journal's prose the only witness, and
# what the migrations after 9 made undone too (a new migration that
# creates an object adds its DROP here; v14's tables are put back as v13
# had them by lib.sh).
downgrade_v13 "$DB" || fail "downgrade to v13"
sqlite3 "$DB" "ALTER TABLE label DROP COLUMN final;
    DROP TRIGGER IF EXISTS run_category_insert;
    DROP TRIGGER IF EXISTS run_category_update;
    DROP TRIGGER search_task; DROP TABLE search;
    CREATE VIRTUAL TABLE search USING fts5(body, task UNINDEXED);
    INSERT INTO search(rowid, body, task) SELECT doc, '', task_id
      FROM search_spec;
    DROP TABLE search_spec;
    CREATE TRIGGER search_task AFTER INSERT ON task BEGIN SELECT 1; END;
    DROP TABLE results_key; DROP TABLE attempt;
    PRAGMA user_version = 8;" || fail "downgrade to v8"
expect_eq "disagreements after migrating" "$("$ASSAY" --db "$DB" list \
    --where disagree=yes --json | sed 's/.*"id":"\([^"]*\)".*/\1/')" f-2
expect_eq "schema" "$(sqlite3 "$DB" "PRAGMA user_version")" \
    "$(sqlite3 "$T/fresh.db" "PRAGMA user_version")"
expect_eq "final again" "$(sqlite3 "$DB" \
    "SELECT group_concat(by, ' ') FROM label WHERE final")" cyd
"$ASSAY" --db "$DB" export --format raw >"$T/raw.jsonl" || fail export
grep -q '{"category":"api","final":true,"by":"cyd"' "$T/raw.jsonl" ||
    fail "final label not exported as final: $(grep f-1 "$T/raw.jsonl")"
# A final label with no journal event behind it is still final: the
# column, not the prose, says so.
sqlite3 "$DB" "UPDATE event SET detail = 'label api' WHERE detail LIKE '%(final)'"
expect_eq "column decides" "$("$ASSAY" --db "$DB" list --where \
    "disagree=yes id=f-1" --json | wc -l | tr -d ' ')" 0
echo "275-label-final: ok"
