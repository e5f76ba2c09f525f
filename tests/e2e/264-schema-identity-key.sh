# 264: schema v14 (issue 25 item 9, docs/adr/0043): a candidate's
# identity is one 16-byte key, recorded rows name their candidate by
# seq.  A database of v13 (this test's rows, put back as v13 made them by
# downgrade_v13 in lib.sh) migrates: every command reads the same as
# before, the keys are the ones an import at v14 gives, nothing breaks a
# foreign key, and rows imported after the migration are found again or
# added as in a database made at v14.
. "$(dirname "$0")/lib.sh"
need_data
command -v sqlite3 >/dev/null || skip "no sqlite3 shell"

# The shared rows, and made ones with what hangs off a candidate by id:
# a label, a review, a repair of it (parent), recorded logs, a note.
cat >"$T/made.jsonl" <<'JSONL'
{"task":{"id":"local/v14","env":"iverilog","spec":"an inverter"},"candidate":{"id":"v-1","origin":"m","code":"module top_module(input a, output y); assign y = a; endmodule\n"},"recorded":[{"verdict":"fail","stage":"simulate","log":"v14_log_word mismatch"}],"labels":[{"category":"functional","by":"ann","at":1700000000}],"review":{"status":"rejected","by":"ann"}}
{"task":"local/v14","candidate":{"id":"v-2","origin":"m","kind":"repair","parent":"v-1","code":"module top_module(input a, output y); assign y = ~a; endmodule\n"},"recorded":[{"verdict":"pass","log":"v14_second_log"},{"verdict":"pass","log":"v14_third_log"}],"review":{"status":"accepted","by":"ann"}}
JSONL
"$ASSAY" --db "$DB" import "$DATA/rtlfixer/verilogeval-syntax.jsonl" \
    "$T/made.jsonl" >/dev/null 2>&1 || fail import
"$ASSAY" --db "$DB" note v-2 "v14_note_word" >/dev/null || fail note
cp "$DB" "$T/fresh.db"

# What the commands read, and the rows behind them.
snapshot() {
	"$ASSAY" --db "$1" list --json
	"$ASSAY" --db "$1" export --format raw
	"$ASSAY" --db "$1" show v-2 --json
	"$ASSAY" --db "$1" stats --format json
	"$ASSAY" --db "$1" stats --recorded --format json
	for w in v14_log_word v14_third_log v14_note_word always; do
		echo "$w $("$ASSAY" --db "$1" list --json --where "grep=$w" |
		    wc -l)"
	done
	"$ASSAY" --db "$1" list --json --where "parent=v-1"
}
snapshot "$DB" >"$T/before.txt" || fail "snapshot before"
grep -q '"id":"v-2"' "$T/before.txt" || fail "nothing to compare"

downgrade_v13 "$DB" || fail "downgrade to v13"
expect_eq "v13" "$(sqlite3 "$DB" "PRAGMA user_version")" 13
expect_eq "v13 has no key" "$(sqlite3 "$DB" "SELECT count(*) FROM
    pragma_table_info('candidate') WHERE name = 'ident'")" 0
expect_eq "v13 names by id" "$(sqlite3 "$DB" "SELECT count(*) FROM
    recorded WHERE cand_id = 'v-2'")" 2

snapshot "$DB" >"$T/after.txt" || fail "snapshot after the migration"
cmp -s "$T/before.txt" "$T/after.txt" ||
    fail "the commands read otherwise: $(diff "$T/before.txt" "$T/after.txt" | head -20)"
echo "ok: list, export, show, stats and grep= read the same after the migration"
expect_eq "schema" "$(sqlite3 "$DB" "PRAGMA user_version")" \
    "$(sqlite3 "$T/fresh.db" "PRAGMA user_version")"
for q in "SELECT seq, id, hex(ident), task_id, origin, code_hash, run_id,
      label_id, review_id, parent FROM candidate ORDER BY seq" \
    "SELECT id, cand_seq, verdict, stage, log, extra FROM recorded
      ORDER BY id" \
    "SELECT type, name, tbl_name, sql FROM sqlite_schema
      WHERE tbl_name IN ('candidate', 'recorded') ORDER BY type, name"; do
	sqlite3 "$DB" "$q" >"$T/a.txt" || fail "sqlite3: $q"
	sqlite3 "$T/fresh.db" "$q" >"$T/b.txt" || fail "sqlite3 fresh: $q"
	[ -s "$T/a.txt" ] || fail "nothing in: $q"
	cmp -s "$T/a.txt" "$T/b.txt" ||
	    fail "differs from a database made at v14: $q: $(diff "$T/a.txt" "$T/b.txt" | head -5)"
	echo "ok: the same as made at v14: $(echo "$q" | head -n 1) ($(wc -l < "$T/a.txt") lines)"
done
# a derived id is the start of its key
expect_eq "ids start their keys" "$(sqlite3 "$DB" "SELECT count(*) FROM
    candidate WHERE id NOT LIKE 'v-%' AND lower(substr(hex(ident), 1,
    length(id) - 1)) != substr(id, 2)")" 0
expect_eq "foreign keys" "$(sqlite3 "$DB" "PRAGMA foreign_key_check" |
    wc -l | tr -d ' ')" 0
expect_eq "integrity" "$(sqlite3 "$DB" "PRAGMA integrity_check")" ok
expect_eq "the key is unique" "$(sqlite3 "$DB" "SELECT count(*) FROM
    sqlite_schema WHERE name = 'candidate_ident' AND sql LIKE
    'CREATE UNIQUE INDEX%'")" 1

# After the migration: the same rows again add nothing, a new row with a
# log is added and found, in both databases alike.
cat >"$T/more.jsonl" <<'JSONL'
{"task":"local/v14","candidate":{"origin":"m2","code":"module top_module(input a, output y); assign y = !a; endmodule\n"},"recorded":[{"verdict":"pass","log":"v14_later_log"}]}
JSONL
for db in "$DB" "$T/fresh.db"; do
	"$ASSAY" --db "$db" import "$T/made.jsonl" "$T/more.jsonl" \
	    >"$T/again.txt" 2>&1 || fail "import again into $db"
	grep -q "made.jsonl: 0 new tasks, 0 new candidates (2 already there)" \
	    "$T/again.txt" || fail "the same rows again: $(cat "$T/again.txt")"
	grep -q "more.jsonl: 0 new tasks, 1 new candidate (0 already there)" "$T/again.txt" ||
	    fail "a new row: $(cat "$T/again.txt")"
done
expect_eq "grep= the later log" "$(count grep=v14_later_log)" 1
snapshot "$DB" >"$T/a.txt"
snapshot "$T/fresh.db" >"$T/b.txt"
cmp -s "$T/a.txt" "$T/b.txt" ||
    fail "after more rows: $(diff "$T/a.txt" "$T/b.txt" | head -20)"
echo "ok: rows after the migration as in a database made at v14"

# 15 -> 16: the index of the repair events' details, which the trace's
# links of reproduced repairs read (never the whole journal)
cp "$T/fresh.db" "$T/v15.db"
downgrade_v15 "$T/v15.db"
expect_eq "v15" "$(sqlite3 "$T/v15.db" "PRAGMA user_version")" 15
"$ASSAY" --db "$T/v15.db" list >/dev/null || fail "open v15"
expect_eq "v16" "$(sqlite3 "$T/v15.db" "PRAGMA user_version")" 16
expect_eq "event_repair" "$(sqlite3 "$T/v15.db" "SELECT sql FROM sqlite_schema WHERE name = 'event_repair'")" \
    "$(sqlite3 "$T/fresh.db" "SELECT sql FROM sqlite_schema WHERE name = 'event_repair'")"
echo "ok: 15 -> 16 makes the index of the repair events"
echo "264-schema-identity-key: ok"
