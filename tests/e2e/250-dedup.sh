# 250: deduplication (issue 14 item 5, issue 25 item 6).  A made case: a
# module, the same module with other whitespace and comments (an exact
# copy once both are normalised), a near copy with a renamed signal its
# comment gone too, and an unrelated module.  dedup puts the first three
# in one cluster (identifiers are numbered by first use within each
# shingle, so a consistent renaming costs nothing) and leaves the fourth
# alone; dup= filters; the sft export keeps one per cluster and says how
# many it dropped.  A repair trajectory whose final code an earlier
# direct sample already has is the one kept, so that the export keeps
# its failed turn and feedback.  Then the figure on the shared RTLFixer
# sets (golden: this implementation's count, which bench/dedup-recall.sh
# finds to be every pair at or over 0.8 by brute force and no other:
# recall and precision 1.0; shingles of 5, threshold 0.8).
. "$(dirname "$0")/lib.sh"
need_data
cat >"$T/made.jsonl" <<'ROWS'
{"task":{"id":"made/count","env":"iverilog","spec":"a decade counter"},"candidate":{"id":"d-base","origin":"m1","code":"module counter(input clk, input reset, output reg [3:0] q);\n  // count up, wrap at 9\n  always @(posedge clk) begin\n    if (reset) q <= 4'd0;\n    else if (q == 4'd9) q <= 4'd0;\n    else q <= q + 4'd1;\n  end\nendmodule\n"}}
{"task":"made/count","candidate":{"id":"d-ws","origin":"m2","code":"module counter( input clk,input reset,\n    output reg [3:0] q );\n/* a decade counter */\nalways @( posedge clk )\nbegin\n  if (reset)   q <= 4'd0;   // reset\n  else if (q == 4'd9)  q <= 4'd0;\n  else   q <= q + 4'd1;\nend\nendmodule"},"review":{"status":"accepted","by":"ann"}}
{"task":{"id":"made/count2","env":"iverilog","spec":"another counter"},"candidate":{"id":"d-ren","origin":"m3","code":"module counter(input clk, input rst, output reg [3:0] q);\n  always @(posedge clk) begin\n    if (rst) q <= 4'd0;\n    else if (q == 4'd9) q <= 4'd0;\n    else q <= q + 4'd1;\n  end\nendmodule\n"},"review":{"status":"accepted","by":"ann"}}
{"task":{"id":"made/mux","env":"iverilog","spec":"a mux"},"candidate":{"id":"d-other","origin":"m1","code":"module mux2(input a, input b, input sel, output y);\n  assign y = sel ? b : a;\nendmodule\n"},"review":{"status":"accepted","by":"ann"}}
ROWS
"$ASSAY" --db "$DB" import "$T/made.jsonl" >/dev/null || fail import
"$ASSAY" --db "$DB" dedup >"$T/out" || fail dedup
cat "$T/out"
# d-ws is accepted and none passes: the accepted one is kept
grep -q "^cluster d-ws (3): d-ws kept, d-base exact, d-ren 0\.[89][0-9]$" "$T/out" ||
    grep -q "^cluster d-ws (3): d-ws kept, d-base exact, d-ren 1\.00$" "$T/out" ||
    fail "the cluster: $(cat "$T/out")"
grep -q "d-other" "$T/out" && fail "the unrelated module is in a cluster"
expect_eq "dup=yes" "$("$ASSAY" --db "$DB" list --where dup=yes |
    awk 'NR > 1 {print $1}' | sort | tr '\n' ' ')" "d-base d-ren "
expect_eq "dup=no" "$(count dup=no)" 2
# A higher threshold than the near copy's similarity leaves it out.
sim=$(sed -n 's/.*d-ren \(0\.[0-9]*\)$/\1/p' "$T/out")
if [ -n "$sim" ]; then
	"$ASSAY" --db "$DB" dedup --threshold 0.99 | grep -q d-ren &&
	    fail "d-ren still a near copy at 0.99"
	"$ASSAY" --db "$DB" dedup >/dev/null
fi
echo "ok: the made case"

# export: the accepted d-ws, d-ren, d-other; d-ren is a dropped copy
export_all "$DB" >"$T/sft" 2>"$T/err" || fail export
expect_eq "sft rows" "$(wc -l <"$T/sft" | tr -d ' ')" 2
grep -q "dropped 1 near-duplicate " "$T/err" || fail "no word of the drop: $(cat "$T/err")"
grep -q '"candidate":"d-ren"' "$T/sft" && fail "the dropped copy is exported"
expect_eq "--keep-dups rows" "$(export_all "$DB" \
    --keep-dups 2>/dev/null | wc -l | tr -d ' ')" 3
echo "ok: export keeps one per cluster"

"$ASSAY" --db "$DB" dedup --threshold 1.5 >/dev/null 2>&1
expect_eq "bad threshold" $? 2

# A repair trajectory over an earlier duplicate: t-d (direct, imported
# first) and t-r (a repair of the failed t-p) end in the same code; both
# accepted, neither verified.  The trajectory is kept, not the earliest.
cat >"$T/traj.jsonl" <<'ROWS'
{"task":{"id":"made/inv","env":"iverilog","spec":"an inverter"},"candidate":{"id":"t-d","origin":"m1","code":"module top_module(input in, output out);\n  assign out = ~in;\nendmodule\n"},"review":{"status":"accepted","by":"ann"}}
{"task":"made/inv","candidate":{"id":"t-p","origin":"m2","code":"module top_module(input in, output out);\n  assign out = in;\nendmodule\n"}}
{"task":"made/inv","candidate":{"id":"t-r","origin":"m2","kind":"repair","parent":"t-p","code":"module top_module(input in, output out);\n  // fixed: invert\n  assign out = ~in;\nendmodule\n"},"review":{"status":"accepted","by":"ann"}}
ROWS
"$ASSAY" --db "$T/t.db" import "$T/traj.jsonl" >/dev/null || fail "import trajectory"
"$ASSAY" --db "$T/t.db" dedup >"$T/t.out" || fail "dedup trajectory"
expect_eq "the trajectory kept" "$(grep '^cluster' "$T/t.out")" \
    "cluster t-r (2): t-r kept, t-d exact"
export_all "$T/t.db" >"$T/t.sft" 2>/dev/null || fail "export trajectory"
grep -q '"candidate":"t-d"' "$T/t.sft" && fail "the direct copy is exported"
grep '"candidate":"t-r"' "$T/t.sft" | grep -q '"turns":\[{[^]]*"candidate":"t-p"' ||
    fail "no whole trajectory of t-r: $(cat "$T/t.sft")"
echo "ok: the repair trajectory is kept over an earlier duplicate"

# The shared RTLFixer sets.
"$ASSAY" --db "$T/r.db" import "$DATA/rtlfixer/verilogeval-syntax.jsonl" \
    "$DATA/rtlfixer/verilogeval-simulate.jsonl" >/dev/null 2>&1 || fail "import rtlfixer"
"$ASSAY" --db "$T/r.db" dedup --quiet >"$T/r.out" || fail "dedup rtlfixer"
cat "$T/r.out"
expect_eq "RTLFixer figure" "$(tail -n 1 "$T/r.out")" \
    "43 clusters; 56 duplicates to drop (10 exact, 46 near)"
"$ASSAY" --db "$T/r.db" dedup --quiet --exact-only --dry-run | tail -n 1 |
    grep -q "^11 clusters; 12 duplicates to drop (12 exact, 0 near)" ||
    fail "RTLFixer exact figure"
