# 060: export (issue 5, item 6).  A raw export imported into a fresh
# database gives the same `list --json`, and exporting that database
# again gives the same lines; an sft export holds the repair trajectory;
# an interrupted export leaves the previous complete file and no
# temporary one.
. "$(dirname "$0")/lib.sh"
need_data

"$ASSAY" --db "$DB" import "$DATA/verilog-eval-v2" \
    "$DATA/rtlfixer/verilogeval-syntax.jsonl" >/dev/null 2>&1 || fail import
parent=$("$ASSAY" --db "$DB" list --where "source~verilogeval-syntax" |
    awk 'NR == 2 {print $1}')
task=$("$ASSAY" --db "$DB" list --json --where "id=$parent" |
    sed 's/.*"task":"\([^"]*\)".*/\1/')
# A repair of that row, unknown fields at every level, labels (a final
# one, evidence), a review and free notes, dated in 2023 (an importer that
# dated them now would change them).
cat >"$T/extra.jsonl" <<EOF
{"task":{"id":"local/e1","env":"iverilog","spec":"a wire","files":{"tb.sv":"module tb; endmodule\n"},"colour":"blue"},"candidate":{"id":"e-1","origin":"gpt-x","code":"module top_module(); endmodule\n","mood":"bold"},"recorded":[{"verdict":"fail","log":"boom","tool":"iv 10"}],"labels":[{"category":"format","by":"ann","at":1700000000,"evidence":"fenced"},{"category":"functional","subcategory":"x","by":"bob","at":1700000060},{"category":"api","final":true,"by":"cyd","at":1700000120}],"review":{"status":"flagged","note":"see log","by":"ann","at":1700000180},"notes":[{"text":"ask bob","by":"ann","at":1700000240},{"text":"undated"}],"batch":7}
{"task":"$task","candidate":{"id":"r-1","origin":"human","kind":"repair","code":"module top_module(input [5:0] y, input w, output Y1, output Y3);\nassign Y1 = y[0] & w;\nassign Y3 = (y[1] | y[2] | y[4] | y[5]) & ~w;\nendmodule\n","parent":"$parent"},"review":{"status":"accepted","by":"ann"}}
{"task":{"id":"local/empty","env":"iverilog","spec":"no candidate yet"}}
EOF
"$ASSAY" --db "$DB" import "$T/extra.jsonl" >/dev/null || fail "import extra"
"$ASSAY" --db "$DB" label "$parent" compile --note "wire" >/dev/null || fail label
"$ASSAY" --db "$DB" review "$parent" reject >/dev/null || fail review
"$ASSAY" --db "$DB" review "$parent" flag >/dev/null || fail review
"$ASSAY" --db "$DB" undo >/dev/null || fail undo

# raw round trip
"$ASSAY" --db "$DB" export --format raw -o "$T/raw.jsonl" || fail "export raw"
"$ASSAY" --db "$DB" list --json >"$T/a.list"
"$ASSAY" --db "$T/b.db" import "$T/raw.jsonl" >/dev/null || fail "import raw"
"$ASSAY" --db "$T/b.db" list --json >"$T/b.list"
cmp "$T/a.list" "$T/b.list" || fail "list --json differs after the round trip"
expect_eq "round-trip rows" "$(wc -l <"$T/b.list" | tr -d ' ')" \
    "$(wc -l <"$T/a.list" | tr -d ' ')"
# A second later, so that a decision dated at its import would show.
sleep 1
"$ASSAY" --db "$T/b.db" export --format raw >"$T/raw2.jsonl" || fail "export 2"
cmp "$T/raw.jsonl" "$T/raw2.jsonl" || fail "second raw export differs"
e1='"labels":\[{"category":"format","evidence":"fenced","by":"ann","at":1700000000},{"category":"functional","subcategory":"x","by":"bob","at":1700000060},{"category":"api","final":true,"by":"cyd","at":1700000120}\],"review":{"status":"flagged","note":"see log","by":"ann","at":1700000180},"notes":\[{"text":"ask bob","by":"ann","at":1700000240},{"text":"undated","by":"tester","at":[0-9]*}\]'
grep -q "$e1" "$T/raw2.jsonl" || fail "decisions of e-1 not kept: $(grep e-1 "$T/raw2.jsonl")"
grep -q "\"id\":\"$parent\".*\"labels\":\[{\"category\":\"compile\",\"note\":\"wire\",\"by\":\"tester\",\"at\":[0-9]*}\],\"review\":{\"status\":\"rejected\"" \
    "$T/raw2.jsonl" || fail "label and review of $parent not kept"
# The journal keeps the reviewers' times: the same throughput either side.
TZ=UTC "$ASSAY" --db "$DB" stats --reviewers --where id=e-1 >"$T/ta" || fail stats
TZ=UTC "$ASSAY" --db "$T/b.db" stats --reviewers --where id=e-1 >"$T/tb" || fail stats
cmp "$T/ta" "$T/tb" || fail "stats --reviewers differs after the round trip"
grep -q '^ann .*2023-11-14 22:13  2023-11-14 22:16$' "$T/tb" ||
    fail "ann's times: $(cat "$T/tb")"
# A final label stays final: no disagreement on e-1 either side.
expect_eq "final label kept" "$("$ASSAY" --db "$T/b.db" list \
    --where "disagree=yes id=e-1" --json | wc -l | tr -d ' ')" 0
grep -q '"colour":"blue"' "$T/raw.jsonl" || fail "task unknown field lost"
grep -q '"mood":"bold"' "$T/raw.jsonl" || fail "candidate unknown field lost"
grep -q '"batch":7' "$T/raw.jsonl" || fail "row unknown field lost"
grep -q '"id":"local/empty"' "$T/raw.jsonl" || fail "empty task lost"
"$ASSAY" --db "$T/b.db" show e-1 --json | grep -q '"tool":"iv 10"' ||
    fail "recorded field lost"
# parents first
pl=$(grep -n "\"id\":\"$parent\"" "$T/raw.jsonl" | head -n 1 | cut -d: -f1)
cl=$(grep -n '"id":"r-1"' "$T/raw.jsonl" | cut -d: -f1)
[ "$pl" -lt "$cl" ] || fail "parent on line $pl after its repair on $cl"
echo "ok: raw round trip"

# A filter that leaves the parent out still writes it first.
"$ASSAY" --db "$DB" export --format raw --where kind=repair >"$T/rep.jsonl"
expect_eq "repair with its parent" "$(wc -l <"$T/rep.jsonl" | tr -d ' ')" 2
"$ASSAY" --db "$T/c.db" import "$T/rep.jsonl" >/dev/null ||
    fail "filtered export does not import"

# sft: only the accepted repair, as a trajectory, and only once it is
# verified (issue 14 item 3): an accepted candidate without a passing
# verdict is no positive unless asked for.
"$ASSAY" --db "$DB" export >"$T/sft.jsonl" 2>"$T/sft.err" || fail "export sft"
expect_eq "sft lines, unverified" "$(wc -l <"$T/sft.jsonl" | tr -d ' ')" 0
grep -q "left out 1 candidate without a passing verdict" "$T/sft.err" ||
    fail "no word of the unverified: $(cat "$T/sft.err")"
# --include-failing writes them to a file of their own, never with the
# rows to learn (issue 25 item 3), and never to stdout.
"$ASSAY" --db "$DB" export --include-failing >/dev/null 2>&1
expect_eq "--include-failing to stdout" $? 2
"$ASSAY" --db "$DB" export --include-failing -o "$T/sft.jsonl" >"$T/if.out" ||
    fail "export sft --include-failing"
# Each file's own count (it said "exported 1 line" to the empty file).
expect_eq "--include-failing's words" "$(cat "$T/if.out")" \
    "exported 0 lines (sft) to $T/sft.jsonl
and 1 failing line to $T/sft.failing.jsonl (never with the rows to learn)"
expect_eq "sft lines to learn" "$(wc -l <"$T/sft.jsonl" | tr -d ' ')" 0
expect_eq "sft lines failing" "$(wc -l <"$T/sft.failing.jsonl" | tr -d ' ')" 1
grep -q '"role":"system".*"role":"user".*"role":"assistant","content":"module top_module (.*","weight":0}.*"role":"user","content":"The toolchain says: fail at stage compile.*Y1 is not a valid l-value.*"role":"assistant","content":"module top_module(input.*","weight":1}],"only_last_turn_loss":true' \
    "$T/sft.failing.jsonl" || fail "sft repair trajectory"
grep -q "\"meta\":{\"task\":\"$task\".*\"verified\":false,\"speedup\":null.*\"reviewer\":\"ann\".*\"candidate\":\"r-1\",\"parent\":\"$parent\"" \
    "$T/sft.failing.jsonl" || fail "sft meta"
"$ASSAY" --db "$DB" export --include-failing --where "status!=rejected" \
    -o "$T/all.jsonl" >/dev/null || fail "export status!=rejected"
n=$(cat "$T/all.jsonl" "$T/all.failing.jsonl" | wc -l | tr -d ' ')
expect_eq "sft with a status filter" "$n" "$(count "status!=rejected")"
if command -v iverilog >/dev/null; then
	"$ASSAY" --db "$DB" verify --quiet r-1 >/dev/null
	"$ASSAY" --db "$DB" export >"$T/sft.jsonl" || fail "export verified"
	expect_eq "sft lines, verified" "$(wc -l <"$T/sft.jsonl" | tr -d ' ')" 1
	grep -q '"verdict":"pass","verified":true' "$T/sft.jsonl" ||
	    fail "verified repair: $(cat "$T/sft.jsonl")"
fi
echo "ok: sft"

# bad usage
"$ASSAY" --db "$DB" export --format csv >/dev/null 2>&1
expect_eq "bad format exit" $? 2
"$ASSAY" --db "$DB" export -o "$T/no/such/dir/x.jsonl" 2>/dev/null
expect_eq "bad path exit" $? 2

# Interrupted: a set big enough to take a while, a complete file first,
# then ^C at several moments.  FILE is the old one, byte for byte, and no
# temporary file is left, whenever the signal lands.
awk 'BEGIN {
	print "{\"task\":{\"id\":\"big/t\",\"env\":\"iverilog\",\"spec\":\"s\"}}"
	for (i = 0; i < 15000; i++)
		printf "{\"task\":\"big/t\",\"candidate\":{\"origin\":\"m\"," \
		    "\"code\":\"module top_module; // %d\\nendmodule\\n\"}}\n", i
}' >"$T/big.jsonl"
"$ASSAY" --db "$DB" import "$T/big.jsonl" >/dev/null || fail "import big"
mkdir "$T/out"
"$ASSAY" --db "$DB" export --format raw -o "$T/out/all.jsonl" >/dev/null ||
    fail "export big"
cp "$T/out/all.jsonl" "$T/complete.jsonl"
interrupted=0
for d in 0.05 0.1 0.2 0.4 0.8; do
	timeout -s INT "$d" "$ASSAY" --db "$DB" export --format raw \
	    -o "$T/out/all.jsonl" >/dev/null 2>&1
	[ $? -eq 124 ] && interrupted=$((interrupted + 1))
	cmp -s "$T/out/all.jsonl" "$T/complete.jsonl" ||
	    fail "after ^C at ${d}s the file is not the previous complete one"
	expect_eq "files after ^C at ${d}s" "$(ls "$T/out")" all.jsonl
done
[ $interrupted -gt 0 ] || fail "no export was slow enough to interrupt"
# The same on a first export: no file at all.
timeout -s TERM 0.1 "$ASSAY" --db "$DB" export --format raw \
    -o "$T/out/new.jsonl" >/dev/null 2>&1
if [ $? -eq 124 ]; then
	expect_eq "files after TERM" "$(ls "$T/out")" all.jsonl
fi
echo "ok: interrupted exports ($interrupted of 5) left no partial file"
