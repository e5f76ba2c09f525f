# 263: the search index keeps no copy of the text (schema v11, issue 13
# item 6): a database of v10, whose FTS5 table held every code, log and
# spec again with the task of each spec row, migrates to the contentless
# table and search_spec, and every grep= finds what it found before; the
# rows added after the migration (an import in bulk, a note through its
# trigger) are indexed as in a database made at v11, term for term.
. "$(dirname "$0")/lib.sh"
need_data
command -v sqlite3 >/dev/null || skip "no sqlite3 shell"

"$ASSAY" --db "$DB" import "$DATA/rtlfixer/verilogeval-syntax.jsonl" \
    >/dev/null 2>&1 || fail "import"
cp "$DB" "$T/fresh.db"
# grep= by code, by a recorded log, by a spec word (every candidate of
# the task), and a word nowhere.
words="always_comb elaboration top_module Karnaugh no_such_word_anywhere"
for w in $words; do
	echo "$w $(count "grep=$w")"
done >"$T/before.txt"
grep -q "^Karnaugh [1-9]" "$T/before.txt" ||
    fail "no spec match to compare: $(cat "$T/before.txt")"

# Back to v10: v13's candidate and recorded tables (lib.sh), then the
# table with its copy of the text and a task column, the rows as the
# triggers of v6 numbered them, the v8 trigger of a task.
downgrade_v13 "$DB" || fail "downgrade to v13"
sqlite3 "$DB" "DROP TRIGGER search_task; DROP TABLE search;
    CREATE VIRTUAL TABLE search USING fts5(body, task UNINDEXED,
      tokenize = \"unicode61 tokenchars '_'\");
    INSERT INTO search(rowid, body, task) SELECT s.doc,
      coalesce(t.spec, '') || char(10) || coalesce(t.interface, ''), t.id
      FROM search_spec s JOIN task t ON t.id = s.task_id ORDER BY s.doc;
    INSERT INTO search(rowid, body) SELECT seq << 16, CAST(code AS TEXT)
      FROM candidate ORDER BY seq;
    INSERT INTO search(rowid, body) SELECT (c.seq << 16) + row_number()
      OVER (PARTITION BY c.seq ORDER BY r.id), r.log FROM recorded r
      JOIN candidate c ON c.id = r.cand_id WHERE r.log IS NOT NULL
      ORDER BY 1;
    DROP TABLE search_spec;
    CREATE TRIGGER search_task AFTER INSERT ON task
      WHEN NOT EXISTS (SELECT 1 FROM bulk) BEGIN
      INSERT INTO search(rowid, body, task) VALUES ((SELECT
      coalesce(min(rowid), 0) - 1 FROM search WHERE rowid < 0),
      coalesce(new.spec, '') || char(10) || coalesce(new.interface, ''),
      new.id); UPDATE search_gen SET n = n + 1;
    END;
    DROP TABLE results_key; DROP TABLE attempt;
    PRAGMA user_version = 10;" || fail "downgrade to v10"
expect_eq "v10 keeps the text" "$(sqlite3 "$DB" \
    "SELECT count(*) FROM search WHERE body LIKE '%elaboration%'" |
    grep -c '^[1-9]')" 1

for w in $words; do
	echo "$w $(count "grep=$w")"
done >"$T/after.txt"
cmp -s "$T/before.txt" "$T/after.txt" ||
    fail "grep= differs after the migration: $(diff "$T/before.txt" "$T/after.txt")"
echo "ok: grep= finds the same after the migration: $(tr '\n' ' ' < "$T/after.txt")"
expect_eq "schema" "$(sqlite3 "$DB" "PRAGMA user_version")" \
    "$(sqlite3 "$T/fresh.db" "PRAGMA user_version")"
expect_eq "no text kept" "$(sqlite3 "$DB" "SELECT count(*) FROM search
    WHERE body IS NOT NULL")" 0

# Rows after the migration, in both databases: an import (in bulk: a new
# task and its candidate) and a note (its trigger).
cat >"$T/more.jsonl" <<'JSONL'
{"task":{"id":"local/zeta","env":"iverilog","spec":"zeta_spec_word"},"candidate":{"id":"z-1","origin":"m","code":"module zeta_code; endmodule\n"},"recorded":[{"verdict":"fail","log":"zeta_log_word"}]}
JSONL
for db in "$DB" "$T/fresh.db"; do
	"$ASSAY" --db "$db" import "$T/more.jsonl" >/dev/null 2>&1 ||
	    fail "import more into $db"
	"$ASSAY" --db "$db" note z-1 "zeta_note_word" >/dev/null 2>&1 ||
	    fail "note into $db"
done
for w in zeta_spec_word zeta_code zeta_log_word zeta_note_word; do
	expect_eq "grep=$w after the migration" "$(count "grep=$w")" 1
	expect_eq "grep=$w made at v11" "$(DB=$T/fresh.db count "grep=$w")" 1
done
vocab="CREATE VIRTUAL TABLE temp.v USING fts5vocab(main, search, instance);"
for q in "$vocab SELECT term, doc, col, offset FROM temp.v" \
    "SELECT doc, task_id FROM search_spec ORDER BY doc" \
    "SELECT n FROM search_gen"; do
	sqlite3 "$DB" "$q" >"$T/a.txt" || fail "sqlite3: $q"
	sqlite3 "$T/fresh.db" "$q" >"$T/b.txt" || fail "sqlite3 fresh: $q"
	[ -s "$T/a.txt" ] || fail "nothing in: $q"
	cmp -s "$T/a.txt" "$T/b.txt" || fail "differ: $q"
	echo "ok: the same as made at v11: $q ($(wc -l < "$T/a.txt") lines)"
done
echo "263-search-contentless: ok"
