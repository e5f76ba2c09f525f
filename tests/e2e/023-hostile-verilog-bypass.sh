# 023: forged Verilog verdicts past the static checks (issue 10 items 4,
# 5: the red team's second round).  Each candidate is wrong on purpose
# (AND computed as OR), so any pass is a forgery; each must fail before
# it runs, with the subcategory of the class:
#   macro roots   `define T testbench then `T.error; a function-like
#                 macro that builds the root: the check reads the
#                 candidate with its macros expanded
#   blanks        testbench.\rerror, testbench\f.error, \v: every blank
#   scope         a function argument named testbench does not make
#                 testbench.error the module's own
#   containers    references in an interface or a program
#   $root, force, defparam, a variable at compilation-unit scope
#   moddup        a candidate that also defines RefModule (both envs),
#                 also by its escaped name \RefModule (second red team)
#   Verilator     $c32, $c8, bind + a $unit variable, a public metacomment
#   pipeline      `ifdef YOSYS, `ifndef SYNTHESIS, translate_off: the
#                 simulation and the synthesis would see different designs
# The stub wrapper (stubm testbench()) makes each elaborate alone, as
# in the attacks.  Without it none of the honest checks would differ.
. "$(dirname "$0")/lib.sh"
command -v iverilog >/dev/null || skip "iverilog not installed"
command -v bwrap >/dev/null || skip "bubblewrap not installed"
command -v python3 >/dev/null || skip "python3 not installed"

python3 - "$T/h.jsonl" <<'PY' || fail "write h.jsonl"
import json, sys
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
ve_tb = """`timescale 1ns/1ps
module tb; reg a, b; wire y1, y2; integer i, m = 0, n = 0;
  TopModule dut(.a(a), .b(b), .y(y1)); RefModule good1(.a(a), .b(b), .y(y2));
  initial begin
    for (i = 0; i < 4; i = i + 1) begin {a, b} = i; #10; n = n + 1; if (y1 !== y2) m = m + 1; end
    $display("Mismatches: %0d in %0d samples", m, n); $finish;
  end
endmodule
"""
ref = "module RefModule(input a, input b, output y);\n  assign y = a & b;\nendmodule\n"
def task(tid, env, top, files, dut):
    return {"id": tid, "benchmark": "local", "domain": "chip", "env": env,
            "env_params": {"top": top, "timeout_s": 300},
            "spec": "a 2-input AND gate", "files": files,
            "reference": "module %s(input a, input b, output y);\n"
                         "  assign y = a & b;\nendmodule\n" % dut}
tasks = [task("local/h-and2", "iverilog", "testbench", {"testbench.v": tb}, "and2"),
         task("local/h-ve", "iverilog", "tb", {"test.sv": ve_tb, "ref.sv": ref}, "TopModule"),
         task("local/h-and2-vl", "verilator", "testbench", {"testbench.v": tb}, "and2"),
         task("local/h-ve-vl", "verilator", "tb", {"test.sv": ve_tb, "ref.sv": ref}, "TopModule")]
stub = ("module w; stubm testbench(); and2 u(.a(1'b0), .b(1'b0), .y()); endmodule\n"
        "module stubm; integer error; endmodule\n")
def and2(body, pre="", post=stub):
    return (pre + "`timescale 1ns/1ps\nmodule and2(input a, input b, output y);\n"
            "  assign y = a | b;\n" + body + "endmodule\n" + post)
rows = []
def add(t, origin, code):
    rows.append({"task": t, "candidate": {"origin": origin, "code": code}})
A, VE, AV, VEV = "local/h-and2", "local/h-ve", "local/h-and2-vl", "local/h-ve-vl"
for t, sfx in ((A, ""), (AV, "-vl")):
    add(t, "macroroot" + sfx, and2("  initial #39 `T.error = 0;\n", "`define T testbench\n"))
add(A, "fnmacro", and2("  initial #39 `R(testbench).error = 0;\n", "`define R(x) x\n"))
add(A, "cr", and2("  initial #39 testbench.\rerror = 0;\n"))
add(A, "ff", and2("  initial #39 testbench\f.error = 0;\n"))
add(A, "vt", and2("  initial #39 testbench\v.error = 0;\n"))
add(A, "fnarg", and2("  function integer f(input integer testbench); f = 0; endfunction\n"
                     "  initial #39 testbench.error = 0;\n"))
add(A, "iface", "interface evil; initial #39 testbench.error = 0; endinterface\n" +
    and2("  evil e();\n"))
add(A, "program", "program evil; initial #39 testbench.error <= 0; endprogram\n" +
    and2("  evil e();\n"))
add(A, "root", and2("  initial #39 $root.testbench.error = 0;\n"))
add(A, "force", and2("  initial force `T.error = 0;\n", "`define T testbench\n"))
add(A, "defparam", and2("  defparam u.W = 2;\n", "", "module m #(parameter W = 1); endmodule\n"))
add(A, "unitvar", and2("", "integer leak;\n", ""))
add(VE, "moddup", "module TopModule(input a, input b, output y);\n  assign y = a | b;\nendmodule\n" + ref)
add(VE, "cr-ve", "module TopModule(input a, input b, output y);\n  assign y = good1.\ry;\nendmodule\n"
    "module w; stubm good1(); TopModule u(.a(1'b0), .b(1'b0), .y()); endmodule\n"
    "module stubm; wire y = 1'b0; endmodule\n")
add(AV, "c32", and2('  initial #39 $c32("(vlSymsp->TOP.testbench__DOT__error = 0)");\n', "", ""))
add(AV, "c8", and2('  initial $c8("system(\\"id\\");");\n', "", ""))
add(AV, "public", and2("  wire p /*verilator public_flat_rw*/;\n", "", ""))
add(VEV, "moddup-vl", "module TopModule(input a, input b, output y);\n  assign y = a | b;\nendmodule\n" + ref)
# the same with the harness's module name escaped (IEEE 1800 5.6.1)
add(VEV, "moddup-esc", "module TopModule(input a, input b, output y);\n  assign y = a | b;\nendmodule\n" + ref.replace("module RefModule", "module \\RefModule "))
add(VEV, "bind-unit", "bit leak;\nmodule spy(input v); always @* leak = v; endmodule\n"
    "bind tb spy s(.v(y2));\nmodule TopModule(input a, input b, output y);\n  assign y = leak;\nendmodule\n")
add(VEV, "unit-only", "bit leak;\nmodule TopModule(input a, input b, output y);\n  assign y = leak;\nendmodule\n")
# The iverilog+yosys pipeline: no latches allowed; the latch hidden from
# the synthesis.
pipe = {"id": "local/h-pipe", "benchmark": "local", "domain": "chip",
        "env": "iverilog+yosys",
        "env_params": {"iverilog": {"top": "tb", "timeout_s": 30}, "yosys": {"latches": False}},
        "spec": "a 2-input AND gate", "files": {"test.sv": ve_tb, "ref.sv": ref},
        "reference": "module TopModule(input a, input b, output y);\n  assign y = a & b;\nendmodule\n"}
latch = ("module TopModule(input a, input b, output reg y);\n"
         "%s  always @(*) if (a) y = b;\n%s"
         "endmodule\n")
add(pipe, "ifdef-yosys", latch % ("`ifdef YOSYS\n  always @(*) y = a & b;\n`else\n", "`endif\n"))
add("local/h-pipe", "ifndef-synthesis", latch % ("`ifndef SYNTHESIS\n", "`else\n  always @(*) y = a & b;\n`endif\n"))
add("local/h-pipe", "translate-off",
    "module TopModule(input a, input b, output reg y);\n  reg t;\n"
    "  // synopsys translate_off\n  always @(*) if (a) t = b;\n  // synopsys translate_on\n"
    "  always @(*) y = a & b;\nendmodule\n")
with open(sys.argv[1], "w") as f:
    for t in tasks:
        f.write(json.dumps({"task": t}) + "\n")
    for r in rows:
        f.write(json.dumps(r) + "\n")
PY
"$ASSAY" --db "$DB" import "$T/h.jsonl" >/dev/null || fail "import h"
"$ASSAY" --db "$DB" verify --quiet --jobs 2 --timeout 60 \
    --where "env=iverilog" >/dev/null || fail "verify iverilog"
if command -v yosys >/dev/null; then
	"$ASSAY" --db "$DB" verify --quiet --jobs 2 --timeout 60 \
	    --where "task=local/h-pipe" >/dev/null || fail "verify pipeline"
fi

id() { "$ASSAY" --db "$DB" list --where "origin=$1" | awk 'NR==2 {print $1}'; }
field() { "$ASSAY" --db "$DB" show "$(id "$1")" --json |
    python3 -c "import json,sys; r=json.load(sys.stdin)['runs'][-1]; print(r.get('$2'))"; }
expect_fail() {	# ORIGIN SUBCATEGORY
	expect_eq "$1" "$(field "$1" verdict) $(field "$1" subcategory)" "fail $2"
}

r=$("$ASSAY" --db "$DB" list --where "origin=reference task=local/h-and2" | awk 'NR==2 {print $1}')
expect_eq "and2 reference" "$("$ASSAY" --db "$DB" show "$r" --json | python3 -c "import json,sys; print(json.load(sys.stdin)['runs'][-1]['verdict'])")" pass
for o in macroroot fnmacro cr ff fnarg iface program cr-ve; do
	expect_fail $o out-of-module-reference
done
for o in force defparam unitvar; do
	expect_fail $o forbidden-construct
done
# Icarus reads \v as no blank: a syntax error, also no pass.
expect_eq "vt" "$(field vt verdict)" fail
# Icarus refuses a second RefModule itself, before the finding shows.
expect_eq "moddup" "$(field moddup verdict)" fail
# Icarus 11 has no $root: a syntax error.
expect_eq "root" "$(field root verdict)" fail
expect_eq "macroroot line" "$(field macroroot evidence_line)" 5
expect_eq "cr line" "$(field cr evidence_line)" 4
if command -v yosys >/dev/null; then
	for o in ifdef-yosys ifndef-synthesis; do
		expect_fail $o forbidden-construct
	done
	# Yosys stops on it: an error of the synthesis stage.
	expect_eq "translate-off" "$(field translate-off verdict) $(field translate-off stage)" "fail yosys:synth"
fi
if command -v verilator >/dev/null; then
	"$ASSAY" --db "$DB" verify --quiet --jobs 2 --timeout 300 \
	    --where "env=verilator origin!=reference" >/dev/null || fail "verify verilator"
	for o in c32 c8 public moddup-vl moddup-esc bind-unit unit-only; do
		expect_fail $o forbidden-construct
	done
	expect_eq "macroroot-vl" "$(field macroroot-vl verdict)" fail
fi
echo "ok: every forgery fails before it runs"
