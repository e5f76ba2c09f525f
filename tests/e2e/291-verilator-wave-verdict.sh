# 291 - the waveform's harness never changes a verdict (Verilator): a
# testbench that compares y_ref with y_dut (so the harness module is bound
# in) and drives its stimulus from an initial loop, with a combinational
# tb_match.  The harness wrote each signal from an always block
# sensitive to it, all of them counting bytes in one shared integer:
# Verilator took the blocks for combinational logic, the counter for a
# loop, and the right reference failed with "Settle region did not
# converge".  Here the reference passes (the same task with other names,
# no harness, passes too), a wrong candidate fails with a mismatch, and
# its waveform shows the first mismatch.  Golden values: a = 0, b = 15 at
# time 0: a ^ b = 1111, a & b = 0000.
. "$(dirname "$0")/lib.sh"
command -v verilator >/dev/null || skip "verilator not installed"
command -v bwrap >/dev/null || skip "bubblewrap not installed"
command -v python3 >/dev/null || skip "python3 not installed"

python3 - "$T" <<'PY' || fail "write the rows"
import json, sys
t = sys.argv[1]
tb = ("`timescale 1ps/1ps\nmodule tb;\n  reg [3:0] a, b;\n"
      "  wire [3:0] y_ref, y_dut;\n  wire tb_match;\n"
      "  RefModule r(.a(a), .b(b), .y(y_ref));\n"
      "  TopModule t(.a(a), .b(b), .y(y_dut));\n"
      "  assign tb_match = (y_ref === y_dut);\n  integer i, errs;\n"
      "  initial begin\n    errs = 0;\n"
      "    for (i = 0; i < 16; i = i + 1) begin a = i; b = 15 - i; #5;"
      " if (!tb_match) errs = errs + 1; end\n"
      "    $display(\"Mismatches: %0d in 16 samples\", errs);\n"
      "    $finish;\n  end\nendmodule\n")
ref = ("module RefModule(input [3:0] a, input [3:0] b, output [3:0] y);\n"
       "  assign y = a ^ b;\nendmodule\n")
good = ref.replace("RefModule", "TopModule")
bad = good.replace("a ^ b", "a & b")
rows = []
for tid, bench in (("atk/xor4-verilator", tb),
                   ("atk/xor4-verilator-nowave",
                    tb.replace("y_ref", "yr").replace("y_dut", "yd"))):
    rows.append({"task": {"id": tid, "benchmark": "atk", "domain": "chip",
                          "env": "verilator",
                          "env_params": {"top": "tb", "timeout_s": 120},
                          "spec": "y = a xor b",
                          "files": {"xor4_test.sv": bench,
                                    "xor4_ref.sv": ref},
                          "reference": good}})
rows.append({"task": "atk/xor4-verilator",
             "candidate": {"id": "veri-plain", "origin": "atk-plain",
                           "code": bad}})
with open(t + "/v.jsonl", "w") as f:
    for r in rows:
        f.write(json.dumps(r) + "\n")
PY
"$ASSAY" --db "$DB" import "$T/v.jsonl" >/dev/null || fail "import"
"$ASSAY" --db "$DB" verify >"$T/verify" 2>&1 || fail "verify: $(cat "$T/verify")"
expect_eq "the references pass" \
    "$(count 'origin=reference verdict=pass')" 2
expect_eq "no task-defect" "$(count 'verdict=task-defect')" 0
expect_eq "the wrong candidate fails" \
    "$(count 'id=veri-plain verdict=fail')" 1
"$ASSAY" --db "$DB" show veri-plain >"$T/show" || fail "show"
grep -q "Mismatches: 16 in 16 samples" "$T/show" ||
    fail "no mismatch count: $(cat "$T/show")"
grep -q "^first differing values at 0 ps (the testbench compares at its sampling points): y$" "$T/show" ||
    fail "no first mismatch: $(cat "$T/show")"
echo "ok: 291-verilator-wave-verdict"
