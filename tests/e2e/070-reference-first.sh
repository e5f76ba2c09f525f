# 070: reference first (issue 3).  A task whose testbench names a port
# its reference lacks is defective: its reference and its candidates'
# failures are task-defect (unjudged), never the model's fault.  Made
# from the shared Prob041_dff8r by renaming one port in the testbench's
# instance of RefModule.
. "$(dirname "$0")/lib.sh"
need_data
command -v iverilog >/dev/null || skip "iverilog not installed"

P=$DATA/verilog-eval-v2/Prob041_dff8r
# JSON string of a file (backslash, quote, tab, newline escaped).
jstr() { sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/\t/\\t/g' -e 's/\r/\\r/g' "$1" | awk 'BEGIN { ORS = "" } { print $0 "\\n" }'; }
# In "RefModule good1 (.clk, .d, .reset, .q(q_ref))" the .reset
# becomes .rst(reset): a port RefModule does not have.
awk '/RefModule good1/ { inref = 1 } inref && /\.reset,/ { sub(/\.reset,/, ".rst(reset),"); inref = 0 } { print }' \
    "${P}_test.sv" > "$T/test.sv"
grep -q '\.rst(reset)' "$T/test.sv" || fail "could not make the defective testbench"
sed 's/RefModule/TopModule/' "${P}_ref.sv" > "$T/top.sv"
{
	printf '{"task": {"id": "local/dff8r-defect", "benchmark": "local", "domain": "chip", "env": "iverilog", "env_params": {"top": "tb"}, "spec": "8 D flip-flops, synchronous reset", "files": {"test.sv": "%s", "ref.sv": "%s"}, "reference": "%s"}}\n' \
	    "$(jstr "$T/test.sv")" "$(jstr "${P}_ref.sv")" "$(jstr "$T/top.sv")"
	printf '{"task": "local/dff8r-defect", "candidate": {"origin": "model-x", "code": "%s"}}\n' "$(jstr "$T/top.sv" | sed 's/q <= d;/q <= d; \/\/ same design, another origin/')"
	printf '{"task": {"id": "local/dff8r-good", "benchmark": "local", "domain": "chip", "env": "iverilog", "env_params": {"top": "tb"}, "files": {"test.sv": "%s", "ref.sv": "%s"}, "reference": "%s"}}\n' \
	    "$(jstr "${P}_test.sv")" "$(jstr "${P}_ref.sv")" "$(jstr "$T/top.sv")"
	printf '{"task": "local/dff8r-good", "candidate": {"origin": "model-y", "code": "module TopModule(input clk, input [7:0] d, input reset, output reg [7:0] q);\\n  always @(posedge clk) q <= d;\\nendmodule\\n"}}\n'
} > "$T/tasks.jsonl"
"$ASSAY" --db "$DB" import "$T/tasks.jsonl" || fail "import"

# Verify only the model's candidates: their tasks' references run first.
"$ASSAY" --db "$DB" verify --where "origin~model" || fail "verify"
v() { "$ASSAY" --db "$DB" list --json --where "$1" | grep -o '"verdict":"[a-z-]*"' | head -n 1; }
s() { "$ASSAY" --db "$DB" list --json --where "$1" | grep -o '"subcategory":"[a-z-]*"' | head -n 1; }
expect_eq "defective task's reference" "$(v 'task=local/dff8r-defect origin=reference')" '"verdict":"task-defect"'
expect_eq "its subcategory" "$(s 'task=local/dff8r-defect origin=reference')" '"subcategory":"reference-fails"'
expect_eq "its candidate" "$(v 'task=local/dff8r-defect origin=model-x')" '"verdict":"task-defect"'
expect_eq "unjudged" "$(s 'task=local/dff8r-defect origin=model-x')" '"subcategory":"unjudged-fail"'
"$ASSAY" --db "$DB" list --json --where "task=local/dff8r-defect origin=model-x" | grep -q '"category":null' ||
    fail "a task-defect candidate must carry no failure category"
# A sound task judges its candidate: the missing reset is the model's fault.
expect_eq "sound task's reference" "$(v 'task=local/dff8r-good origin=reference')" '"verdict":"pass"'
expect_eq "sound task's candidate" "$(v 'task=local/dff8r-good origin=model-y')" '"verdict":"fail"'
expect_eq "its category" "$("$ASSAY" --db "$DB" list --json --where 'task=local/dff8r-good origin=model-y' | grep -o '"category":"[a-z]*"')" '"category":"functional"'
