# 262: an import in bulk (issue 13 item 6: the per-row triggers set
# aside, the search index filled as the rows come, the queue and its
# statistics in a few statements at the end) leaves the same search
# index, queue and statistics as the same rows imported a few at a time
# into a database that already holds some of them: `stats --json`, the
# counts of grep= filters, and (with the sqlite3 program) the search
# index term for term, the queue and queue_sum tables row for row.  The exact trigger path is
# compared with the bulk one in tests/unit/test_queue.c.
. "$(dirname "$0")/lib.sh"
need_data

"$ASSAY" --db "$T/seed.db" import "$DATA/verilog-eval-v2" \
    "$DATA/rtlfixer/verilogeval-syntax.jsonl" \
    "$DATA/rtlfixer/verilogeval-simulate.jsonl" >/dev/null 2>&1 ||
    fail "seed import"
"$ASSAY" --db "$T/seed.db" export --format raw -o "$T/rows.jsonl" \
    >/dev/null || fail "export"
n=$(wc -l < "$T/rows.jsonl")
[ "$n" -gt 500 ] || fail "only $n rows exported"

# One file: one bulk import of every row.
"$ASSAY" --db "$T/one.db" import "$T/rows.jsonl" >/dev/null 2>&1 ||
    fail "import in one file"
# The same rows in files of 37 (a task's rows split across files), and
# the first file once more before the second: its rows are there.
split -l 37 "$T/rows.jsonl" "$T/part."
first=$(ls "$T"/part.* | head -1)
for f in "$T"/part.*; do
	"$ASSAY" --db "$T/parts.db" import "$f" >/dev/null 2>&1 ||
	    fail "import $f"
	if [ "$f" = "$first" ]; then
		"$ASSAY" --db "$T/parts.db" import "$first" >"$T/again" 2>&1 ||
		    fail "import $first again"
	fi
done
grep -q "0 new candidates" "$T/again" || fail "re-import added: $(cat "$T/again")"

for key in model benchmark; do
	"$ASSAY" --db "$T/one.db" stats --by "$key" --format json >"$T/a.json" ||
	    fail "stats one"
	"$ASSAY" --db "$T/parts.db" stats --by "$key" --format json >"$T/b.json" ||
	    fail "stats parts"
	cmp -s "$T/a.json" "$T/b.json" || fail "stats by $key differ"
	echo "ok: stats by $key are the same"
done
for q in 'grep=always_comb' 'grep="Unable to bind"' 'grep=TopModule' \
    'grep=error' 'verdict=fail' ''; do
	a=$(DB=$T/one.db count "$q")
	b=$(DB=$T/parts.db count "$q")
	expect_eq "count of '$q'" "$b" "$a"
done
[ "$(DB=$T/one.db count 'grep=always_comb')" -gt 0 ] ||
    fail "grep=always_comb finds nothing"

command -v sqlite3 >/dev/null || skip "no sqlite3 program: tables not compared"
# The search index keeps no text (schema v11): what it holds is the
# terms of each row, listed by fts5vocab, and the task of a spec's row.
vocab="CREATE VIRTUAL TABLE temp.v USING fts5vocab(main, search, instance);"
for q in "$vocab SELECT term, doc, col, offset FROM temp.v" \
    "SELECT doc, task_id FROM search_spec ORDER BY doc" \
    "SELECT * FROM queue ORDER BY seq" \
    "SELECT * FROM queue_sum ORDER BY 1, 2, 3, 4, 5" \
    "SELECT count(*) FROM search" \
    "SELECT name, sql FROM sqlite_schema WHERE type = 'trigger' ORDER BY 1"; do
	sqlite3 "$T/one.db" "$q" >"$T/a.txt" || fail "sqlite3 one: $q"
	sqlite3 "$T/parts.db" "$q" >"$T/b.txt" || fail "sqlite3 parts: $q"
	[ -s "$T/a.txt" ] || fail "nothing in: $q"
	cmp -s "$T/a.txt" "$T/b.txt" || fail "differ: $q"
	echo "ok: the same: $q ($(wc -l < "$T/a.txt") lines)"
done
# Every candidate's code is in the index at its rowid (seq << 16).
expect_eq "codes indexed" "$(sqlite3 "$T/one.db" "SELECT count(*) FROM candidate c JOIN search s ON s.rowid = c.seq << 16")" \
    "$(sqlite3 "$T/one.db" "SELECT count(*) FROM candidate")"
expect_eq "logs indexed" "$(sqlite3 "$T/one.db" "SELECT count(*) FROM search WHERE rowid > 0 AND rowid & 65535 > 0")" \
    "$(sqlite3 "$T/one.db" "SELECT count(*) FROM recorded WHERE log IS NOT NULL")"

# --keep-going: a row that fails after its candidate was added (a label
# with a bad "at") leaves no search row, and the count of rows ever
# added (search_gen, which keeps grep= results current) is exact.
printf '%s\n' \
    '{"task":{"id":"t/kg","env":"iverilog","spec":"kg spec"},"candidate":{"origin":"m","code":"module alpha_word; endmodule\n"},"recorded":[{"verdict":"fail","log":"alpha_log"}]}' \
    '{"task":"t/kg","candidate":{"origin":"m","code":"module beta_word; endmodule\n"},"recorded":[{"verdict":"fail","log":"beta_log"}],"labels":[{"category":"compile","at":-5}]}' \
    '{"task":"t/kg","candidate":{"origin":"m","code":"module gamma_word; endmodule\n"},"recorded":[{"verdict":"fail","log":"gamma_log"},{"verdict":"fail","log":"gamma_second"}]}' \
    >"$T/kg.jsonl"
"$ASSAY" --db "$T/kg.db" import --keep-going "$T/kg.jsonl" >/dev/null 2>&1 ||
    fail "import --keep-going"
for w in alpha_word alpha_log gamma_word gamma_log gamma_second; do
	expect_eq "grep=$w after a skipped row" "$(DB=$T/kg.db count "grep=$w")" 1
done
expect_eq "grep=beta_word (skipped)" "$(DB=$T/kg.db count grep=beta_word)" 0
expect_eq "grep=beta_log (skipped)" "$(DB=$T/kg.db count grep=beta_log)" 0
expect_eq "search_gen counts the rows there" \
    "$(sqlite3 "$T/kg.db" "SELECT n FROM search_gen")" \
    "$(sqlite3 "$T/kg.db" "SELECT count(*) FROM search")"
