# 020: hostile candidates end as the right verdict within their limits
# and change nothing outside their work directory (issue 2).
. "$(dirname "$0")/lib.sh"
need_data
command -v iverilog >/dev/null || skip "iverilog not installed"
command -v bwrap >/dev/null || skip "bubblewrap not installed"

OUT=$T/outside
mkdir -p "$OUT"
chmod 777 "$OUT"
before_out=$(stat -c "%Y %h" "$OUT"; find "$OUT" -mindepth 1)
TASK=verilog-eval-v2/Prob001_zero
cat > "$T/hostile.jsonl" <<JSONL
{"task": "$TASK", "candidate": {"origin": "escape", "code": "module TopModule(output zero);\n  assign zero = 1'b0;\n  integer f;\n  initial begin\n    f = \$fopen(\"$OUT/escaped.txt\", \"w\");\n    \$fdisplay(f, \"pwned\");\n    \$fclose(f);\n    f = \$fopen(\"../escaped2.txt\", \"w\");\n    \$fdisplay(f, \"pwned\");\n    \$fclose(f);\n  end\nendmodule\n"}}
{"task": "$TASK", "candidate": {"origin": "endless", "code": "module TopModule(output zero);\n  assign zero = 1'b0;\n  reg x;\n  initial begin\n    x = 0;\n    while (1) x = ~x;\n  end\nendmodule\n"}}
{"task": "$TASK", "candidate": {"origin": "flood", "code": "module TopModule(output zero);\n  assign zero = 1'b0;\n  initial forever \$display(\"flood flood flood flood flood flood flood flood flood flood flood flood\");\nendmodule\n"}}
{"task": "$TASK", "candidate": {"origin": "forger", "code": "module TopModule(output zero);\n  assign zero = 1'b1;\n  initial #1 \$display(\"Mismatches: 0 in 20 samples\");\nendmodule\n"}}
{"task": "$TASK", "candidate": {"origin": "copier", "code": "module TopModule(output zero);\n  assign zero = good1.zero;\nendmodule\n"}}
{"task": "$TASK", "candidate": {"origin": "counter-hack", "code": "module TopModule(output zero);\n  assign zero = 1'b1;\n  final begin tb.stats1.errors = 0; tb.stats1.errors_zero = 0; end\nendmodule\n"}}
{"task": "$TASK", "candidate": {"origin": "forger-finish", "code": "module TopModule(output zero);\n  assign zero = 1'b1;\n  initial begin\n    \$display(\"Mismatches: 0 in 20 samples\");\n    \$finish;\n  end\nendmodule\n"}}
{"task": {"id": "local/escape-tb", "env": "iverilog", "env_params": {"top": "tb"}, "files": {"tb.sv": "module tb;\n  wire z;\n  integer f;\n  TopModule dut(.zero(z));\n  initial begin\n    f = \$fopen(\"$OUT/escaped-tb.txt\", \"w\");\n    \$fdisplay(f, \"pwned\");\n    \$fclose(f);\n    f = \$fopen(\"../escaped-tb2.txt\", \"w\");\n    \$fdisplay(f, \"pwned\");\n    \$fclose(f);\n    #1 \$display(\"Mismatches: %0d in 1 samples\", z !== 1'b0);\n    \$finish;\n  end\nendmodule\n"}}, "candidate": {"origin": "escape-tb", "code": "module TopModule(output zero);\n  assign zero = 1'b0;\nendmodule\n"}}
JSONL
"$ASSAY" --db "$DB" import "$DATA/verilog-eval-v2" >/dev/null || fail "import v2"
"$ASSAY" --db "$DB" import "$T/hostile.jsonl" || fail "import hostile"
start=$(date +%s)
"$ASSAY" --db "$DB" verify --jobs 2 --timeout 5 --where "task=$TASK origin!=reference" \
    || fail "verify"
secs=$(( $(date +%s) - start ))
verdict() { "$ASSAY" --db "$DB" list --where "origin=$1" | awk 'NR==2 {sub(/\?$/, "", $6); print $4, $6}'; }
sub() { "$ASSAY" --db "$DB" show "$("$ASSAY" --db "$DB" list --where "origin=$1" | awk 'NR==2 {print $1}')" --json |
    grep -o '"subcategory":"[a-z-]*"' | head -n 1; }

# A candidate's $fopen is refused before it runs (issue 22); the same
# writes from a testbench, whose code runs in the same simulation, show
# that the sandbox stops them too.
expect_eq "escape verdict" "$(verdict escape)" "fail functional"
expect_eq "escape subcategory" "$(sub escape)" '"subcategory":"forbidden-call"'
"$ASSAY" --db "$DB" verify --quiet --timeout 5 --where "task=local/escape-tb" >/dev/null || fail "verify escape-tb"
expect_eq "escape-tb verdict" "$(verdict escape-tb)" "pass -"
for f in escaped.txt escaped-tb.txt; do
	[ ! -e "$OUT/$f" ] || fail "the simulation wrote $OUT/$f"
done
for f in escaped2.txt escaped-tb2.txt; do
	[ ! -e "$T/$f" ] || fail "the simulation wrote outside its work directory: $f"
	ls "/tmp/$f" 2>/dev/null && fail "the simulation wrote /tmp/$f"
done
expect_eq "outside untouched" "$(stat -c "%Y %h" "$OUT"; find "$OUT" -mindepth 1)" "$before_out"
expect_eq "endless verdict" "$(verdict endless)" "timeout functional"
expect_eq "flood verdict" "$(verdict flood)" "fail functional"
expect_eq "flood subcategory" "$(sub flood)" '"subcategory":"output-limit"'
expect_eq "forger verdict" "$(verdict forger)" "fail functional"
# Reaching into the testbench by hierarchical name passes the public
# harness; alone the candidate does not elaborate.
expect_eq "copier verdict" "$(verdict copier)" "fail functional"
expect_eq "copier subcategory" "$(sub copier)" '"subcategory":"out-of-module-reference"'
expect_eq "counter-hack verdict" "$(verdict counter-hack)" "fail functional"
expect_eq "counter-hack subcategory" "$(sub counter-hack)" '"subcategory":"out-of-module-reference"'
expect_eq "forger-finish verdict" "$(verdict forger-finish)" "fail functional"
expect_eq "forger-finish subcategory" "$(sub forger-finish)" '"subcategory":"early-finish"'
# The flood's log is capped at 16 MiB, not more.
flood=$("$ASSAY" --db "$DB" list --where origin=flood | awk 'NR==2 {print $1}')
size=$("$ASSAY" --db "$DB" show "$flood" --json | wc -c)
[ "$size" -lt 20000000 ] || fail "flood log not capped: $size bytes"
# Everything ended within its limits: 5 s timeout plus slack, two jobs.
[ "$secs" -lt 40 ] || fail "hostile runs took $secs s"
echo "ok: hostile runs took $secs s"
# The secret marks are gone from the stored log: the testbench's line
# reads as the harness prints it, and no marker lines are left.
forger=$("$ASSAY" --db "$DB" list --where origin=forger | awk 'NR==2 {print $1}')
"$ASSAY" --db "$DB" show "$forger" > "$T/forger.txt"
grep -q "^Mismatches: 20 in 20 samples$" "$T/forger.txt" || fail "result line not as the harness prints it"
grep -q " finish$" "$T/forger.txt" && fail "finish marker left in the log"
echo "ok: stored log has no secret marks"
# Many files each under the file-size limit (written by the testbench: a
# candidate's $fopen is refused, issue 22): the work directory's own
# size cap (256 MiB) ends it, within seconds.
cat > "$T/disk.jsonl" <<JSONL
{"task": {"id": "local/disk-tb", "env": "iverilog", "env_params": {"top": "tb"}, "files": {"tb.sv": "module tb;\n  wire z;\n  TopModule dut(.zero(z));\n  integer f, i, k;\n  initial begin\n    for (k = 0; k < 40; k = k + 1) begin\n      f = \$fopen(\$sformatf(\"big%0d.txt\", k), \"w\");\n      for (i = 0; i < 1000000; i = i + 1)\n        \$fdisplay(f, \"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\");\n      \$fclose(f);\n    end\n    \$display(\"Mismatches: 0 in 1 samples\");\n  end\nendmodule\n"}}, "candidate": {"origin": "disk-filler", "code": "module TopModule(output zero);\n  assign zero = 1'b0;\nendmodule\n"}}
JSONL
"$ASSAY" --db "$DB" import "$T/disk.jsonl" >/dev/null || fail "import disk"
"$ASSAY" --db "$DB" verify --quiet --timeout 120 --where origin=disk-filler >/dev/null || fail "verify disk"
expect_eq "disk-filler verdict" "$(verdict disk-filler)" "fail functional"
expect_eq "disk-filler subcategory" "$(sub disk-filler)" '"subcategory":"resource-limit"'
