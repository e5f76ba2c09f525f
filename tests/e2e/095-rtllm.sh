# 095: RTLLM in its own layout (issue 11, item 7).  The 36 shared design
# folders import as tasks with their testbench and data files and the
# verified_*.v renamed as the reference; sample folders laid out as
# upstream's _chatgpt35/t1/DESIGN.v, made here in $T (never copies kept in
# the repository), import as candidates of gpt-3.5 / gpt-4 / MODEL.
#
# Golden counts, measured by hand: for each design, the reference (its
# top module renamed to the module testbench.v instantiates) and
# testbench.v were copied with the design's data files into an empty
# directory and run with the Icarus command of ../shared/data/README.md,
#   iverilog -g2012 -o sim design.v testbench.v && vvp sim
# (Icarus Verilog 11.0), the verdict read from the output:
#   33 print "Your Design Passed" (alu only with reference.dat beside it:
#      without it, "===========Error===========");
#   clkgenerator prints "Test completed with 20 failures";
#   ring_counter's testbench does not compile ("Cannot assign to array
#      data", the unpacked-array initialiser);
#   asyn_fifo's testbench stops at "sorry: break statements not supported".
# So: 33 references pass, clkgenerator's and ring_counter's fail (their
# tasks are defective: task-defect/reference-fails), asyn_fifo's is
# env-error/toolchain-limitation.
. "$(dirname "$0")/lib.sh"
need_data
command -v iverilog >/dev/null || skip "iverilog not installed"
R=$DATA/rtllm
[ -d "$R" ] || skip "no RTLLM data at $R"

"$ASSAY" --db "$DB" import "$R" > "$T/imp" 2>&1 || fail "import: $(cat "$T/imp")"
expect_eq "auto-detected RTLLM tasks" "$("$ASSAY" --db "$DB" list --json --where 'benchmark=rtllm' | wc -l | tr -d ' ')" 36
expect_eq "references" "$(count 'origin=reference')" 36
"$ASSAY" --db "$DB" import --format rtllm "$R" | grep -q "0 new tasks, 0 new candidates" ||
    fail "a second import added something"

# The task: testbench top from its own module, data files as data.
show_ref() { "$ASSAY" --db "$DB" show "$("$ASSAY" --db "$DB" list --where "task=rtllm/$1 origin=reference" | awk 'NR==2 {print $1}')" --json; }
"$ASSAY" --db "$DB" export --format raw --where "task=rtllm/alu" > "$T/alu.jsonl"
grep -q '"env_params":{"top":"test_alu"' "$T/alu.jsonl" || fail "alu's top is not test_alu"
# Export writes name -> text when every role is the one the name gives
# (docs/formats.md): testbench.v a testbench, reference.dat data.
grep -q '"files":{"testbench.v":"' "$T/alu.jsonl" || fail "alu's files: testbench.v first, roles by name"
grep -q '"reference.dat":"0000003d' "$T/alu.jsonl" || fail "reference.dat is not a task file"
grep -q '"verified_alu.v":' "$T/alu.jsonl" && fail "the reference must not be a task file"
"$ASSAY" --db "$DB" export --format raw --where "task=rtllm/asyn_fifo" | grep -o '"[a-z]*\.txt":"' | sort | tr -d '\n' > "$T/n"
expect_eq "asyn_fifo's data files" "$(cat "$T/n")" '"rempty.txt":""tdata.txt":""wfull.txt":"'
# verified_* renamed to the module the testbench instantiates.
show_ref adder_8bit | grep -q 'module adder_8bit' || fail "adder_8bit's reference not renamed"
show_ref adder_pipe_64bit | grep -q 'module adder_pipe_64bit' || fail "verified_adder_64bit not renamed to adder_pipe_64bit"
show_ref asyn_fifo | grep -q 'module dual_port_RAM' || fail "asyn_fifo's submodule renamed"
show_ref pe | grep -q 'module pe' || fail "pe (ports by position) not renamed"

# Samples beside the designs, as upstream lays them out.
S=$T/samples
code_of() { show_ref "$1" | python3 -c 'import json, sys; sys.stdout.write(json.load(sys.stdin)["code"])'; }
mkdir -p "$S/_chatgpt35/t1" "$S/_chatgpt35/t2" "$S/_chatgpt4/t1" "$S/_my-model/t3"
for d in alu adder_8bit multi_booth_8bit; do code_of $d > "$S/_chatgpt35/t1/$d.v"; done
code_of adder_8bit | sed 's/endmodule/endmodule(/' > "$S/_chatgpt35/t2/adder_8bit.v"   # syntax error
code_of adder_8bit | sed 's/\.sum(sum\[0\])/.sum()/' > "$S/_chatgpt4/t1/adder_8bit.v"
cmp -s "$S/_chatgpt4/t1/adder_8bit.v" "$S/_chatgpt35/t1/adder_8bit.v" && fail "could not make the wrong adder"
# Prints RTLLM's pass line itself: the testbench's verdict must win.
cat > "$S/_my-model/t3/adder_8bit.v" <<'SV'
module adder_8bit(input [7:0] a, b, input cin, output [7:0] sum, output cout);
  assign {cout, sum} = 9'd0;
  initial #1 $display("===========Your Design Passed===========");
endmodule
SV
echo 'module nothing; endmodule' > "$S/_chatgpt35/t1/no_such_design.v"
"$ASSAY" --db "$DB" import "$S" > "$T/imp" 2>&1 || fail "import samples: $(cat "$T/imp")"
grep -q "1 sample(s) of designs without a folder" "$T/imp" || fail "orphan sample not warned: $(cat "$T/imp")"
expect_eq "gpt-3.5 samples" "$(count 'origin=gpt-3.5')" 4
expect_eq "gpt-4 samples" "$(count 'origin=gpt-4')" 1
expect_eq "my-model samples" "$(count 'origin=my-model')" 1
"$ASSAY" --db "$DB" show "$("$ASSAY" --db "$DB" list --where origin=gpt-4 | awk 'NR==2 {print $1}')" --json | grep -q '"origin_raw":"_chatgpt4/t1"' || fail "origin_raw"

"$ASSAY" --db "$DB" verify --quiet > /dev/null || fail "verify"
expect_eq "references that pass (33 by hand)" "$(count 'origin=reference verdict=pass')" 33
v() { "$ASSAY" --db "$DB" list --json --where "$1" | grep -o "\"$2\":\"[a-z-]*\"" | head -n 1; }
expect_eq "clkgenerator (20 failures by hand)" "$(v 'task=rtllm/clkgenerator origin=reference' verdict)" '"verdict":"task-defect"'
show_ref clkgenerator | grep -q '"failures":20' || fail "clkgenerator's failure count"
expect_eq "ring_counter (testbench compile error by hand)" "$(v 'task=rtllm/ring_counter origin=reference' verdict)" '"verdict":"task-defect"'
expect_eq "its subcategory" "$(v 'task=rtllm/ring_counter origin=reference' subcategory)" '"subcategory":"reference-fails"'
expect_eq "asyn_fifo (sorry by hand)" "$(v 'task=rtllm/asyn_fifo origin=reference' verdict)" '"verdict":"env-error"'
expect_eq "alu, which needs reference.dat" "$(v 'task=rtllm/alu origin=reference' verdict)" '"verdict":"pass"'
expect_eq "gpt-3.5 copies of the references pass" "$(count 'origin=gpt-3.5 verdict=pass')" 3
expect_eq "the syntax error" "$(v 'origin=gpt-3.5 task=rtllm/adder_8bit verdict=fail' category)" '"category":"compile"'
expect_eq "the wrong adder" "$(v 'origin=gpt-4' verdict)" '"verdict":"fail"'
expect_eq "its category" "$(v 'origin=gpt-4' category)" '"category":"functional"'
# By hand (sum[0] left open): "Test completed with 100 /100 failures".
"$ASSAY" --db "$DB" list --json --where 'origin=gpt-4' | grep -q '"failures":100' || fail "the wrong adder's 100 failures"
# pe's testbench connects ports by position ("pe dut(clk,...)"): the
# task's interface still names the module, so a syntax error is one.
mkdir -p "$T/pe/_x/t1"
printf 'module pe(input clk, rst, input [31:0] a, b, output [31:0] c);\n  assign c = a +;\nendmodule\n' > "$T/pe/_x/t1/pe.v"
"$ASSAY" --db "$DB" import "$T/pe" > /dev/null || fail "import pe sample"
"$ASSAY" --db "$DB" verify --quiet --where origin=x > /dev/null || fail "verify pe sample"
expect_eq "pe's syntax error" "$(v 'origin=x' subcategory)" '"subcategory":"syntax-error"'
expect_eq "a sample printing the pass line itself" "$(v 'origin=my-model' verdict)" '"verdict":"fail"'
# alu's testbench connects ports by position too ("alu uut(a,b,aluc,...)"),
# which the grammar reads as a primitive's instance.  A task row without
# the interface (written by another pipeline) must still expect alu:
# three gpt-3.5 alu samples use an rst_n they never declare, and were
# format/missing-top "no TopModule or top_module" (issue 22 item 8).
"$ASSAY" --db "$DB" export --format raw --where "task=rtllm/alu origin=reference" > "$T/alu-ref.jsonl"
python3 - "$T/alu-ref.jsonl" "$T/alu-noif.jsonl" <<'PY' || fail "write alu-noif.jsonl"
import json, sys
row = json.loads(open(sys.argv[1]).readline())
row["task"].pop("interface", None)
head = "module alu(input [31:0] a, input [31:0] b, input [5:0] aluc,\n" \
       "    output reg [31:0] r, output zero, output carry, output negative,\n" \
       "    output overflow, output flag);\n"
body = "  assign {zero, carry, negative, overflow, flag} = 5'b0;\n" \
       "  always @(posedge aluc[0] or negedge rst_n)\n" \
       "    if (!rst_n) r <= 0; else r <= a + b;\nendmodule\n"
rows = [row,
        {"task": "rtllm/alu", "candidate": {"origin": "rstn", "code": head + body}},
        {"task": "rtllm/alu", "candidate": {"origin": "renamed",
         "code": head.replace("module alu(", "module alu32(") + body.replace("rst_n", "aluc[1]")}}]
open(sys.argv[2], "w").write("".join(json.dumps(r) + "\n" for r in rows))
PY
"$ASSAY" --db "$T/noif.db" import "$T/alu-noif.jsonl" > /dev/null || fail "import alu without interface"
"$ASSAY" --db "$T/noif.db" verify --quiet > /dev/null || fail "verify alu without interface"
nf() { "$ASSAY" --db "$T/noif.db" list --json --where "origin=$1" | python3 -c "import json,sys; r=json.loads(sys.stdin.readline()); print(r['verdict'], r['category'], r['subcategory'])"; }
expect_eq "alu without interface: its reference" "$(nf reference)" "pass None None"
expect_eq "alu without interface: undeclared rst_n" "$(nf rstn)" "fail compile unable-to-bind"
expect_eq "alu without interface: named alu32" "$(nf renamed)" "fail format missing-top"
"$ASSAY" --db "$T/noif.db" show "$("$ASSAY" --db "$T/noif.db" list --where origin=renamed | awk 'NR==2 {print $1}')" |
    grep -q "^evidence: candidate line 1: no module alu;" || fail "the missing top is not alu"

# Upstream's own layout in one tree: design folders and _chatgpt35/ inside PATH.
U=$T/upstream
mkdir -p "$U/Miscellaneous/RISC-V" "$U/_chatgpt35/t1"
cp -r "$R/Miscellaneous/RISC-V/alu" "$U/Miscellaneous/RISC-V/"
cp "$S/_chatgpt35/t1/alu.v" "$U/_chatgpt35/t1/"
"$ASSAY" --db "$T/u.db" import "$U" | grep -q "1 new task, 2 new candidates" || fail "upstream layout"
"$ASSAY" --db "$T/u.db" verify --quiet > /dev/null || fail "verify upstream layout"
expect_eq "upstream layout: both pass" "$("$ASSAY" --db "$T/u.db" list --json --where verdict=pass | wc -l | tr -d ' ')" 2
echo "ok: rtllm"
