# 260: import --json and its quiet progress (issue 13 items 6, 7): one
# summary object for all the paths, nothing but warnings on stderr when
# it is not a terminal (no progress line), re-importing counts the rows
# as existing, and a failing file is named in "failed" with exit 2.
. "$(dirname "$0")/lib.sh"
need_data

"$ASSAY" --db "$DB" import --json "$DATA/rtlfixer/verilogeval-syntax.jsonl" \
    "$DATA/verilog-eval-v1" >"$T/out.json" 2>"$T/err" || fail "import --json"
expect_eq "one summary line" "$(wc -l < "$T/out.json")" 1
expect_eq "summary" "$(jq -c '[.command, .files, .tasks_added, .candidates_added, .candidates_existing, .failed]' "$T/out.json")" \
    '["import",2,91,183,0,null]'
if grep -q "$(printf '\r')" "$T/err"; then fail "a progress line when piped: $(cat "$T/err")"; fi
"$ASSAY" --db "$DB" import --json "$DATA/rtlfixer/verilogeval-syntax.jsonl" >"$T/again.json" || fail "re-import"
expect_eq "re-import" "$(jq -c '[.candidates_added, .candidates_existing]' "$T/again.json")" "[0,174]"
printf '{"task": "nowhere/x", "candidate": {"code": "x"}}\n' > "$T/bad.jsonl"
"$ASSAY" --db "$DB" import --json "$T/bad.jsonl" >"$T/bad.json" 2>/dev/null
expect_eq "exit of a failing file" $? 2
expect_eq "failed names it" "$(jq -r .failed "$T/bad.json")" "$T/bad.jsonl"
# The search index and the queue caught up with the import (bulk).
expect_eq "grep finds imported code" "$(count 'grep=top_module')" \
    "$(count 'source~verilog')"
expect_eq "queue counts" "$(count '')" 183

# --progress from a pipe, whose size is not known until it is read
# whole: while it waits, rows and a rate, no share and no time left (it
# said "0 rows, 100%, 0:00 left").  The writer waits 1.5 s, past the
# meter's first second.
mkfifo "$T/in.fifo"
{ sleep 1.5; cat "$DATA/rtlfixer/verilogeval-simulate.jsonl"; } >"$T/in.fifo" &
"$ASSAY" --db "$DB" import --progress "$T/in.fifo" >/dev/null 2>"$T/prog.err" ||
    fail "import --progress from a pipe: $(cat "$T/prog.err")"
tr '\r' '\n' <"$T/prog.err" | grep -q "in.fifo: [0-9]* rows, [0-9]* rows/s" ||
    fail "no progress line from a pipe: $(cat "$T/prog.err")"
if tr '\r' '\n' <"$T/prog.err" | grep -q " 0 rows, .*%"; then
	fail "a share of a pipe not yet read: $(cat "$T/prog.err")"
fi
echo "ok: import --progress from a pipe shows rows and a rate"
