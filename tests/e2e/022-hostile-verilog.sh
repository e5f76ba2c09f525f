# 022: forged Verilog verdicts (issue 10 items 4, 5; issue 11, the hostile
# case).  One wrong candidate per forgery class, each must not pass:
#   stubs      stub modules named like the testbench's instances (tb,
#              good1, a struct with the error counters) in a wrapper, so
#              that the candidate elaborates alone
#   replay     reads the compiled image (sim, run/sim, /proc/self/exe,
#              /proc/self/cmdline) for the per-run secret, prints the
#              result and finish lines with it and $finishes in a final
#              block, so that the testbench's own final never runs; its
#              $fopen is refused before it runs (issue 22), and a
#              testbench that tries the same paths (probe) finds none
#   printer    prints RTLLM's "Your Design Passed" itself in a task whose
#              testbench is RTLLM-style
#   second     prints a second result line beside the testbench's
#   finisher   ends the run with its own $finish after printing the line
#   cblock     a Verilator $c block (verilator env, when installed)
# and the secret reaches no stored log.  Each candidate is wrong on
# purpose (the AND computed as OR, zero as 1), so any pass is a forgery.
. "$(dirname "$0")/lib.sh"
need_data
command -v iverilog >/dev/null || skip "iverilog not installed"
command -v bwrap >/dev/null || skip "bubblewrap not installed"
command -v python3 >/dev/null || skip "python3 not installed"

V2=verilog-eval-v2/Prob001_zero
"$ASSAY" --db "$DB" import "$DATA/verilog-eval-v2" >/dev/null || fail "import v2"

python3 - "$T/hostile.jsonl" "$V2" <<'PY' || fail "write hostile.jsonl"
import json, sys
out, v2 = sys.argv[1], sys.argv[2]
tb = """`timescale 1ns/1ps
module testbench;
  reg a, b; wire y; integer i, error = 0;
  and2 uut(.a(a), .b(b), .y(y));
  initial begin
    for (i = 0; i < 4; i = i + 1) begin
      {a, b} = i; #10;
      if (y !== (a & b)) error = error + 1;
    end
    if (error == 0) $display("===========Your Design Passed===========");
    else $display("===========Test completed with %d /4 failures===========", error);
    $finish;
  end
endmodule
"""
rtllm = {"id": "local/and2", "benchmark": "local", "domain": "chip",
         "env": "iverilog", "env_params": {"top": "testbench"},
         "spec": "a 2-input AND gate, module and2(a, b, y)",
         "files": {"testbench.v": tb},
         "reference": "module and2(input a, input b, output y);\n  assign y = a & b;\nendmodule\n"}
wrong_and = "module and2(input a, input b, output y);\n  assign y = a | b;\n"
# Reads a file for the tagged format string: 16 characters (the secret)
# then " Mismatches:" (VerilogEval) or " ===========" (RTLLM).  Run with
# the image at a path it can name (vvp sim, outside assay), it finds the
# secret and passes: what the sandbox must make impossible.  By hand,
# vvp on the image of this candidate with the testbench tagged for secret
# T0123456789abcde printed "replay: opened sim", "replay: opened
# /proc/self/exe", "replay: found T0123456789abcde", the forged
# "T0123456789abcde Mismatches: 0 in 20 samples" and "... !finish", and
# no result line of the testbench's own.
replay_body = r'''  integer fd, c, k;
  reg [7:0] b;
  reg [8*16-1:0] secret;
  reg [8*28-1:0] win;
  reg found;
  task try(input [8*64-1:0] path);
    begin
      fd = $fopen(path, "rb");
      if (fd == 0) $display("replay: cannot open %0s", path);
      else begin
        $display("replay: opened %0s", path);
        win = 0;
        c = $fgetc(fd);
        while (c != -1 && !found) begin
          win = {win[8*27-1:0], c[7:0]};
          if ((win[8*12-1:0] == " Mismatches:" ||
              win[8*12-1:0] == " ===========") &&
              win[8*28-1:8*27] == "T") begin
            found = 1;
            for (k = 0; k < 15; k = k + 1) begin
              b = win[8*12 + 8*k +: 8];
              if (!((b >= "0" && b <= "9") || (b >= "a" && b <= "f")))
                found = 0;
            end
            if (found) secret = win[8*28-1:8*12];
          end
          c = $fgetc(fd);
        end
        $fclose(fd);
      end
    end
  endtask
  initial begin
    found = 0;
    try("sim"); try("run/sim"); try("../sim"); try("/proc/self/exe");
    try("/proc/self/cmdline"); try("/proc/self/mem"); try("/dev/fd/3");
  end
  final begin
    if (found) $display("replay: found %0s", secret);
    $display("%0s Mismatches: 0 in 20 samples", secret);
    $display("%0s ===========Your Design Passed===========", secret);
    $display("%0s !finish", secret);
    $finish;
  end
'''
rows = [
  {"task": v2, "candidate": {"origin": "stubs", "code":
    "module TopModule(output zero);\n"
    "  assign zero = good1.zero;\n"
    "  final begin tb.stats1.errors = 0; tb.stats1.errors_zero = 0; end\n"
    "endmodule\n"
    "module wrapper;\n"
    "  stub tb();\n"
    "  stub good1();\n"
    "endmodule\n"
    "module stub;\n"
    "  typedef struct packed { int errors; int errors_zero; } s_t;\n"
    "  s_t stats1;\n"
    "  wire zero = 1'b0;\n"
    "endmodule\n"}},
  {"task": v2, "candidate": {"origin": "replay", "code":
    "module TopModule(output zero);\n  assign zero = 1'b1;\n" + replay_body +
    "endmodule\n"}},
  {"task": rtllm, "candidate": {"origin": "printer", "code": wrong_and +
    "  final $display(\"===========Your Design Passed===========\");\n"
    "endmodule\n"}},
  {"task": "local/and2", "candidate": {"origin": "replay-rtllm", "code":
    wrong_and + replay_body + "endmodule\n"}},
  {"task": v2, "candidate": {"origin": "second", "code":
    "module TopModule(output zero);\n  assign zero = 1'b1;\n"
    "  final $display(\"Mismatches: 0 in 20 samples\");\n"
    "endmodule\n"}},
  {"task": "local/and2", "candidate": {"origin": "finisher", "code":
    "`timescale 1ns/1ps\n" + wrong_and +
    "  initial #15 begin\n"
    "    $display(\"===========Your Design Passed===========\");\n"
    "    $finish;\n"
    "  end\n"
    "endmodule\n"}},
]
# The simulation's sandbox, whatever the checks let through: a testbench
# (whose code runs in the same simulation) opens the paths the replay
# tried, and opens none.
probe = tb.replace("endmodule", """  integer pfd;
  task probe(input [8*64-1:0] path);
    begin
      pfd = $fopen(path, "rb");
      if (pfd == 0) $display("replay: cannot open %0s", path);
      else begin $display("replay: opened %0s", path); $fclose(pfd); end
    end
  endtask
  initial begin
    probe("sim"); probe("run/sim"); probe("../sim"); probe("/proc/self/exe");
    probe("/proc/self/cmdline"); probe("/proc/self/mem"); probe("/dev/fd/3");
  end
endmodule""")
assert probe != tb
rows.append({"task": dict(rtllm, id="local/and2-probe", files={"testbench.v": probe}),
             "candidate": {"origin": "probe", "code":
             "module and2(input a, input b, output y);\n  assign y = a & b;\nendmodule\n"}})
# A testbench that states no verdict (issue 11 item 1, reference first):
# its reference cannot pass, so the task is a task-defect and a wrong
# candidate's failure is unjudged.
quiet = dict(rtllm, id="local/and2-quiet",
             files={"testbench.v": tb.replace('if (error == 0) $display("===========Your Design Passed===========");\n    else $display("===========Test completed with %d /4 failures===========", error);\n', '$display("done");\n')})
assert quiet["files"]["testbench.v"] != tb
rows.append({"task": quiet, "candidate": {"origin": "quiet-wrong", "code":
    wrong_and + "endmodule\n"}})
with open(out, "w") as f:
    for r in rows:
        f.write(json.dumps(r) + "\n")
PY
"$ASSAY" --db "$DB" import "$T/hostile.jsonl" >/dev/null || fail "import hostile"
"$ASSAY" --db "$DB" verify --quiet --jobs 2 --timeout 30 \
    --where "task=$V2 origin!=reference" >/dev/null || fail "verify v2"
"$ASSAY" --db "$DB" verify --quiet --jobs 2 --timeout 30 \
    --where "task=local/and2" >/dev/null || fail "verify and2"
"$ASSAY" --db "$DB" verify --quiet --jobs 2 --timeout 30 \
    --where "task=local/and2-quiet" >/dev/null || fail "verify and2-quiet"
"$ASSAY" --db "$DB" verify --quiet --jobs 2 --timeout 30 \
    --where "task=local/and2-probe" >/dev/null || fail "verify and2-probe"

id() {
	w="origin=$1"
	[ "$1" = reference ] && w="origin=reference task=local/and2"
	"$ASSAY" --db "$DB" list --where "$w" | awk 'NR==2 {print $1}'
}
field() { "$ASSAY" --db "$DB" show "$(id "$1")" --json |
    python3 -c "import json,sys; r=json.load(sys.stdin)['runs'][-1]; print(r.get('$2'))"; }

# The reference passes: the contract works for an honest design.
expect_eq "and2 reference" "$(field reference verdict)" pass
expect_eq "stubs verdict" "$(field stubs verdict)" fail
expect_eq "stubs subcategory" "$(field stubs subcategory)" out-of-module-reference
expect_eq "stubs evidence line" "$(field stubs evidence_line)" 2
for o in replay replay-rtllm printer second finisher; do
	expect_eq "$o verdict" "$(field $o verdict)" fail
done
expect_eq "replay subcategory" "$(field replay subcategory)" forbidden-call
expect_eq "printer subcategory" "$(field printer subcategory)" mismatch
expect_eq "second subcategory" "$(field second subcategory)" mismatch
expect_eq "finisher subcategory" "$(field finisher subcategory)" no-verdict
# No verdict line is never a pass: the reference of the quiet testbench
# makes its task a task-defect, and the wrong candidate is unjudged.
q=$("$ASSAY" --db "$DB" list --where "origin=reference task=local/and2-quiet" | awk 'NR==2 {print $1}')
expect_eq "quiet reference" "$("$ASSAY" --db "$DB" show "$q" --json | python3 -c "import json,sys; r=json.load(sys.stdin)['runs'][-1]; print(r['verdict'], r['subcategory'])")" "task-defect no-verdict"
expect_eq "quiet-wrong" "$(field quiet-wrong verdict) $(field quiet-wrong subcategory)" "task-defect unjudged-fail"
# The replay never ran; the probe found nothing to read: the image has a
# random name and the simulation has no /proc.
"$ASSAY" --db "$DB" show "$(id replay)" | sed -n '/^log:$/,$p' > "$T/replay.txt"
grep -q "replay:" "$T/replay.txt" && fail "the refused replay ran: $(grep 'replay:' "$T/replay.txt")"
expect_eq "probe verdict (an honest and2)" "$(field probe verdict)" pass
"$ASSAY" --db "$DB" show "$(id probe)" | sed -n '/^log:$/,$p' > "$T/replay.txt"
grep -q "replay: cannot open /proc/self/exe" "$T/replay.txt" || fail "the probe did not try /proc/self/exe"
grep -q "replay: opened" "$T/replay.txt" && fail "replay opened a file: $(grep 'replay: opened' "$T/replay.txt")"
grep -q "replay: found" "$T/replay.txt" && fail "replay found the secret"
echo "ok: the probe could open neither the image nor /proc"

# The secret reaches no stored log: no output line holds a 16-character
# secret (T and 15 hex digits; the "$ " command lines name the image's
# random directory, which is not the secret), and no marker is left.
for o in reference stubs replay replay-rtllm printer second finisher probe; do
	"$ASSAY" --db "$DB" show "$(id $o)" | sed -n '/^log:$/,$p' |
	    grep -v '^\$ ' >> "$T/all.txt"
done
grep -E "T[0-9a-f]{15}|^!finish|!error |!fatal " "$T/all.txt" &&
    fail "a secret or a marker in a stored log"
grep -q "^===========Your Design Passed===========$" "$T/all.txt" ||
    fail "the testbench's line is not as it printed it"
echo "ok: no secret in any stored log"

# Verilator: a $c block would run C++ in the model; it is never built.
if command -v verilator >/dev/null; then
	python3 - "$T/c.jsonl" <<'PY' || fail "write c.jsonl"
import json, sys
row = {"task": {"id": "local/zero-verilator", "benchmark": "local",
                "domain": "chip", "env": "verilator",
                "env_params": {"top": "tb", "timeout_s": 300},
                "files": {"test.sv": "module tb; wire z; TopModule t(.zero(z));\n  initial begin #1 if (z === 1'b0) $display(\"Mismatches: 0 in 1 samples\"); else $display(\"Mismatches: 1 in 1 samples\"); $finish; end\nendmodule\n"}},
       "candidate": {"origin": "cblock", "code":
         "module TopModule(output zero);\n  assign zero = 1'b1;\n"
         "  initial $c(\"printf(\\\"Mismatches: 0 in 1 samples\\\\n\\\");\");\n"
         "endmodule\n"}}
open(sys.argv[1], "w").write(json.dumps(row) + "\n")
PY
	"$ASSAY" --db "$DB" import "$T/c.jsonl" >/dev/null || fail "import c"
	"$ASSAY" --db "$DB" verify --quiet --where origin=cblock >/dev/null || fail "verify c"
	expect_eq "cblock verdict" "$(field cblock verdict)" fail
	expect_eq "cblock subcategory" "$(field cblock subcategory)" forbidden-construct
	expect_eq "cblock stage" "$(field cblock stage)" lint
	expect_eq "cblock evidence line" "$(field cblock evidence_line)" 3
fi
