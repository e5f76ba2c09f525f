# 020-reference-first.sh - issue 3, "Reference first", in the workbench:
# v on a candidate whose task's reference never ran verifies the
# reference first, so that a defective task shows its candidate as
# task-defect (unjudged), not as the model's failure.  The task is made
# from the shared Prob041_dff8r by renaming one port in the testbench's
# instance of the reference (.reset becomes .rst, a port RefModule lacks),
# as tests/e2e/070-reference-first.sh does.
. "$(dirname "$0")/lib.sh"
command -v iverilog >/dev/null || skip "iverilog not installed"

P=$DATA/verilog-eval-v2/Prob041_dff8r
jstr() { sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/\t/\\t/g' -e 's/\r/\\r/g' "$1" | awk 'BEGIN { ORS = "" } { print $0 "\\n" }'; }
awk '/RefModule good1/ { inref = 1 } inref && /\.reset,/ { sub(/\.reset,/, ".rst(reset),"); inref = 0 } { print }' \
    "${P}_test.sv" > "$T/test.sv"
grep -q '\.rst(reset)' "$T/test.sv" || fail "could not make the defective testbench"
sed 's/RefModule/TopModule/' "${P}_ref.sv" > "$T/top.sv"
{
	printf '{"task": {"id": "local/dff8r-defect", "benchmark": "local", "domain": "chip", "env": "iverilog", "env_params": {"top": "tb"}, "files": {"test.sv": "%s", "ref.sv": "%s"}, "reference": "%s"}}\n' \
	    "$(jstr "$T/test.sv")" "$(jstr "${P}_ref.sv")" "$(jstr "$T/top.sv")"
	printf '{"task": "local/dff8r-defect", "candidate": {"origin": "model-x", "code": "module TopModule(input clk, input [7:0] d, input reset, output reg [7:0] q);\\n  always @(posedge clk) q <= d;\\nendmodule\\n"}}\n'
} > "$T/tasks.jsonl"
"$ASSAY" --db "$DB" import "$T/tasks.jsonl" >/dev/null || fail "import"
ID=$("$ASSAY" --db "$DB" list --json --where origin=model-x | json_field id)
REF=$("$ASSAY" --db "$DB" list --json --where origin=reference | json_field id)
[ -n "$ID" ] && [ -n "$REF" ] || fail "no candidate or no reference"
[ "$(row "$REF" | json_field verdict)" = null ] || fail "the reference ran already"

# Only the model's candidate is in the queue; v on it.
start 100 30 "--where origin=model-x"
wait_for "$ID"
wait_for "1/1"
keys v
wait_for "$ID: task-defect at compile" 30
ok "v judged the candidate as task-defect"

[ "$(row "$REF" | json_field verdict)" = task-defect ] ||
    fail "the reference did not run first: $(row "$REF")"
[ "$(row "$REF" | json_field subcategory)" = reference-fails ] ||
    fail "the reference's run: $(row "$REF")"
ok "the reference ran first and fails its own testbench"
[ "$(row "$ID" | json_field verdict)" = task-defect ] ||
    fail "candidate: $(row "$ID")"
[ "$(row "$ID" | json_field subcategory)" = unjudged-fail ] ||
    fail "candidate: $(row "$ID")"
[ "$(row "$ID" | json_field category)" = null ] ||
    fail "a task-defect candidate carries a category: $(row "$ID")"
ok "the candidate's failure is unjudged, with no category"
# A small screen keeps the toolchain zoomed until a key: C-l redraws.
keys C-l
wait_gone "zoomed until a key"
pane spec | grep -q "task-defect" || fail "the spec pane does not say task-defect"
ok "the spec pane shows task-defect"

# Once the reference has a verdict, v runs the candidate alone.
N=$("$ASSAY" --db "$DB" show --json "$REF" | grep -o '"verdict":"task-defect","stage"' | wc -l)
keys v
# runs #1 and #2 were the reference's and the candidate's
wait_for "$ID: task-defect at compile (run #3," 30
[ "$("$ASSAY" --db "$DB" show --json "$REF" | grep -o '"verdict":"task-defect","stage"' | wc -l)" = "$N" ] ||
    fail "the reference ran again"
ok "a reference with a verdict does not run again"
