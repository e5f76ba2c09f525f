# 220: contamination (issue 14 item 6).  A sample that embeds a
# VerilogEval problem's reference (renamed, between comments of its
# own) is flagged against verilog-eval-v2, imported or given as its
# directory; an unrelated module is not; contaminated= filters; the sft
# export leaves the flagged sample out unless asked.
. "$(dirname "$0")/lib.sh"
need_data
ref=$(ls "$DATA/verilog-eval-v2/"Prob041_*_ref.sv) || fail "no Prob041 reference"
"$ASSAY" --db "$DB" import "$DATA/verilog-eval-v2" >/dev/null 2>&1 || fail import
code=$(sed 's/RefModule/my_dff/' "$ref" | awk '{printf "%s\\n", $0}' | sed 's/"/\\"/g')
cat >"$T/rows.jsonl" <<EOF2
{"task":{"id":"local/leak","env":"iverilog","spec":"an 8-bit register"},"candidate":{"id":"x-leak","origin":"m","code":"// my own design\n$code// end\n"},"review":{"status":"accepted","by":"ann"}}
{"task":{"id":"local/clean","env":"iverilog","spec":"a mux"},"candidate":{"id":"x-clean","origin":"m","code":"module mux2(input a, input b, input sel, output y);\n  assign y = sel ? b : a;\nendmodule\n"},"review":{"status":"accepted","by":"ann"}}
EOF2
"$ASSAY" --db "$DB" import "$T/rows.jsonl" >/dev/null || fail "import rows"
"$ASSAY" --db "$DB" contamination --against verilog-eval-v2 >"$T/out" ||
    fail contamination
cat "$T/out"
grep -q "^x-leak shares [0-9]* 13-grams with verilog-eval-v2 (verilog-eval-v2/Prob041_" \
    "$T/out" || fail "x-leak not flagged"
grep -q "x-clean" "$T/out" && fail "x-clean flagged"
# the benchmark's own candidates are not its samples
grep -q "^checked 2 samples against 1 benchmark" "$T/out" ||
    fail "the benchmark's own candidates were checked"
expect_eq "contaminated=yes" "$("$ASSAY" --db "$DB" list --where contaminated=yes |
    awk 'NR > 1 {print $1}')" x-leak
expect_eq "contaminated=no, local" "$(count "contaminated=no benchmark=local")" 1
echo "ok: against the imported benchmark"

"$ASSAY" --db "$T/d.db" import "$T/rows.jsonl" >/dev/null || fail "import d"
"$ASSAY" --db "$T/d.db" contamination --against "$DATA/verilog-eval-v2" >"$T/out2" ||
    fail "contamination against the directory"
grep -q "^x-leak shares .*Prob041_.*_ref.sv)$" "$T/out2" || fail "dir: $(cat "$T/out2")"
grep -q "x-clean" "$T/out2" && fail "x-clean flagged against the directory"
echo "ok: against the directory"

export_all "$DB" >"$T/sft" 2>"$T/err" || fail export
grep -q '"candidate":"x-leak"' "$T/sft" && fail "the contaminated sample is exported"
grep -q '"candidate":"x-clean"' "$T/sft" || fail "the clean sample is not exported"
grep -q "left out 1 contaminated sample" "$T/err" || fail "no word: $(cat "$T/err")"
export_all "$DB" --keep-contaminated 2>/dev/null |
    grep -q '"candidate":"x-leak"' || fail "--keep-contaminated"
echo "ok: export leaves it out"

"$ASSAY" --db "$DB" contamination --against no-such-bench >/dev/null 2>"$T/err"
expect_eq "unknown benchmark" $? 2
grep -q "no-such-bench: no imported benchmark" "$T/err" || fail "$(cat "$T/err")"
