# 302: VeriScope's problem layout and predictions file (issue 27 item 4,
# ADR 0046).  The bundles are written from the published layout (the
# dataset itself was not available), the predictions file is the code
# release's own example (tests/data/veriscope/README.md), its licence
# Apache-2.0 read from the LICENSE beside the data.
#
# Golden verdicts, by hand: testbench.v with each design run with
#   iverilog -g2012 -o sim design.v testbench.v && vvp sim
# (Icarus Verilog 11.0): the NAND reference and the sample prediction
# print "Mismatches: 0 in 4 samples"; 050_byte_select's prediction is a
# comment only, which declares no module: "Unknown module type:
# top_module".
. "$(dirname "$0")/lib.sh"
command -v iverilog >/dev/null || skip "iverilog not installed"
D=$(dirname "$0")/../data/veriscope

"$ASSAY" --db "$DB" import "$D/data" > "$T/imp" 2>&1 || fail "import: $(cat "$T/imp")"
grep -q "2 new tasks, 1 new candidate" "$T/imp" || fail "import: $(cat "$T/imp")"
# the checkout's root is taken for its data/, by auto and by --format
"$ASSAY" --db "$T/root.db" import --format veriscope "$D" > "$T/imp" 2>&1 || fail "root: $(cat "$T/imp")"
grep -q "2 new tasks, 1 new candidate" "$T/imp" || fail "root: $(cat "$T/imp")"
"$ASSAY" --db "$T/root2.db" import "$D" > "$T/imp" 2>&1 || fail "root (auto): $(cat "$T/imp")"
grep -q "2 new tasks, 1 new candidate" "$T/imp" || fail "root (auto): $(cat "$T/imp")"
"$ASSAY" --db "$DB" import --format veriscope "$D/examples/sample_predictions.json" > "$T/imp" 2>&1 ||
    fail "predictions: $(cat "$T/imp")"
grep -q "0 new tasks, 2 new candidates" "$T/imp" || fail "predictions: $(cat "$T/imp")"
echo '[{"problem_id": "999_none", "completion": "module top_module; endmodule"}]' > "$T/p.json"
"$ASSAY" --db "$DB" import --format veriscope "$T/p.json" > "$T/err" 2>&1 && fail "a prediction of no task was taken"
grep -q "999_none" "$T/err" || fail "the error does not name the problem: $(cat "$T/err")"
# a predictions file that is no array, or no JSON, says where and what
# (the parsed case said line -1)
echo '{"problem_id": "015_nand_gate"}' > "$T/obj.json"
"$ASSAY" --db "$DB" import --format veriscope "$T/obj.json" > "$T/err" 2>&1 && fail "an object was taken for predictions"
grep -q "obj.json:1: not VeriScope predictions (a JSON array of {\"problem_id\", \"completion\"}): not an array" "$T/err" ||
    fail "not an array: $(cat "$T/err")"
printf '[\n{"problem_id": "015_nand_gate",\n' > "$T/cut.json"
"$ASSAY" --db "$DB" import --format veriscope "$T/cut.json" > "$T/err" 2>&1 && fail "a cut file was taken"
grep -q "cut.json:3: not VeriScope predictions" "$T/err" || fail "cut: $(cat "$T/err")"
expect_eq "licence" "$(sqlite3 "$DB" "select group_concat(distinct license) from task")" "Apache-2.0"
"$ASSAY" --db "$DB" export --format raw --where "task=veriscope/015_nand_gate origin=reference" > "$T/x.jsonl"
grep -q '"env_params":{"top":"tb"}' "$T/x.jsonl" || fail "top"
grep -q '"interface":"problem_id: 015_nand_gate' "$T/x.jsonl" || fail "config.yaml as the interface"
grep -q '"tier":"L1_basic"' "$T/x.jsonl" || fail "tier"

"$ASSAY" --db "$DB" verify --quiet > /dev/null
v() { "$ASSAY" --db "$DB" list --json --where "$1" | grep -o "\"$2\":\"[a-z-]*\"" | head -n 1; }
expect_eq "reference" "$(v 'origin=reference' verdict)" '"verdict":"pass"'
expect_eq "NAND prediction" "$(v 'task=veriscope/015_nand_gate origin=sample_predictions' verdict)" '"verdict":"pass"'
expect_eq "placeholder prediction" "$(v 'task=veriscope/050_byte_select' subcategory)" '"subcategory":"missing-top"'
