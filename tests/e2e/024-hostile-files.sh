# 024: the harness's files out of the candidate's reach (issue 22 item 1).
# The VerilogEval, RTLFixer and RealBench testbenches $dumpfile("wave.vcd")
# the reference's outputs into run/, where the simulation runs; RTLLM's
# read their expected values from data files there; a testbench's open
# descriptors are numbered alike in every run.  Each candidate below has
# no logic of its own and passed before (checked against the code before
# this test, commit 8ecade3):
#   wave         VerilogEval v2 Prob041_dff8r: $dumpflush, then $fopen,
#                $fseek, $fgets and $sscanf on wave.vcd, drives q with
#                the q_ref it reads back (pass, 0 mismatches in 432)
#   wave-glued   the same with every call glued to a macro ($`F is $fopen
#                to the tools)
#   wave-escaped the same with escaped identifiers (\$fopen is $fopen to
#                Icarus Verilog)
#   alu-data     RTLLM alu: $readmemh("reference.dat") and r from it
#   peek         a testbench that $fscanf's its expected values: the
#                candidate reads them ahead through the testbench's own
#                descriptor (0x80000003) and $fseek's back, no $fopen
#   lint/yosys   the same refusal in verilator (a data file replayed) and
#                yosys ($readmemh of a file of the harness's)
# Now each is fail/forbidden-call (or forbidden-construct for the glued
# macro) on the line of the call, before anything of it runs.  A task
# that names a data file in env_params.design_reads lets its design
# $readmemh that file, and only it.
. "$(dirname "$0")/lib.sh"
need_data
command -v iverilog >/dev/null || skip "iverilog not installed"
command -v bwrap >/dev/null || skip "bubblewrap not installed"
command -v python3 >/dev/null || skip "python3 not installed"

"$ASSAY" --db "$DB" import "$DATA/verilog-eval-v2" >/dev/null 2>&1 || fail "import v2"
"$ASSAY" --db "$DB" import --format rtllm "$DATA/rtllm" >/dev/null 2>&1 || fail "import rtllm"

python3 - "$T/hostile.jsonl" "$T/v.jsonl" "$T/y.jsonl" <<'PY' || fail "write hostile.jsonl"
import json, sys
# The waveform replay: every time step, flush the dump, read the lines
# added since the last look, keep the $var code of q_ref and drive q with
# each value the dump gives it.  {X} is each call's spelling.
wave = r'''`timescale 1 ps/1 ps
{DEFS}module TopModule(input clk, input [7:0] d, input reset, output [7:0] q);
  reg [7:0] qr;
  assign q = qr;
  integer fd, pos, n, w;
  reg [8*256-1:0] line;
  reg [8*16-1:0] kind, code, name, mine, c2;
  reg [7:0] v;
  initial begin
    fd = 0; pos = 0; mine = 0;
    forever begin
      #1;
      {FLUSH};
      if (fd == 0) fd = {OPEN}("wave.vcd", "r");
      if (fd != 0) begin
        n = {SEEK}(fd, pos, 0);
        n = {GETS}(line, fd);
        while (n > 0) begin
          if (line[8*n-1 -: 8] == "$") begin
            if ($sscanf(line, "$var %s %d %s %s", kind, w, code, name) == 4 && name == "q_ref")
              mine = code;
          end else if (line[8*n-1 -: 8] == "b") begin
            if ($sscanf(line, "b%b %s", v, c2) == 2 && c2 == mine)
              qr = v;
          end
          pos = {TELL}(fd);
          n = {GETS}(line, fd);
        end
      end
    end
  end
endmodule
'''
def spell(defs, **calls):
    return wave.replace("{DEFS}", defs).replace("{FLUSH}", calls["f"]) \
        .replace("{OPEN}", calls["o"]).replace("{SEEK}", calls["s"]) \
        .replace("{GETS}", calls["g"]).replace("{TELL}", calls["t"])
plain = spell("", f="$dumpflush", o="$fopen", s="$fseek", g="$fgets", t="$ftell")
glued = spell("`define F dumpflush\n`define O fopen\n`define S fseek\n"
              "`define G fgets\n`define T ftell\n",
              f="$`F", o="$`O", s="$`S", g="$`G", t="$`T")
escaped = spell("", f="\\$dumpflush ", o="\\$fopen ", s="\\$fseek ",
                g="\\$fgets ", t="\\$ftell ")
v2 = "verilog-eval-v2/Prob041_dff8r"
# RTLLM alu: the testbench compares r with reference.dat, in run/.
alu = '''module alu(input [31:0] a, input [31:0] b, input [5:0] aluc,
    output [31:0] r, output zero, output carry, output negative,
    output overflow, output flag);
  reg [31:0] want[0:31];
  reg [4:0] i;
  initial $readmemh("reference.dat", want);
  always @* case (aluc)
    6'b100000: i = 0;  6'b100001: i = 1;  6'b100010: i = 2;
    6'b100011: i = 3;  6'b100100: i = 4;  6'b100101: i = 5;
    6'b100110: i = 6;  6'b100111: i = 7;  6'b101010: i = 8;
    6'b101011: i = 9;  6'b000000: i = 10; 6'b000010: i = 11;
    6'b000011: i = 12; 6'b000100: i = 13; 6'b000110: i = 14;
    6'b000111: i = 15; default: i = 16;
  endcase
  assign r = want[i];
  assign {zero, carry, negative, overflow, flag} = 5'b0;
endmodule
'''
# A testbench that reads its expected values as it goes.
peek_tb = '''`timescale 1ns/1ps
module tb;
  reg [7:0] x; wire [7:0] y; integer fd, n, want, err = 0, i;
  sq dut(.x(x), .y(y));
  initial begin
    fd = $fopen("expected.txt", "r");
    for (i = 0; i < 8; i = i + 1) begin
      x = i; #5;
      n = $fscanf(fd, "%d\\n", want);
      #5;
      if (y !== want[7:0]) err = err + 1;
    end
    if (err == 0) $display("===========Your Design Passed===========");
    else $display("===========Test completed with %0d /8 failures===========", err);
    $finish;
  end
endmodule
'''
peek_task = {"id": "local/peek", "benchmark": "local", "domain": "chip",
             "env": "iverilog", "env_params": {"top": "tb"},
             "spec": "y = x * x (8 bits)",
             "files": {"tb.sv": peek_tb,
                       "expected.txt": "".join("%d\n" % (k * k) for k in range(8))},
             "reference": "module sq(input [7:0] x, output [7:0] y);\n  assign y = x * x;\nendmodule\n"}
peek = '''`timescale 1ns/1ps
module sq(input [7:0] x, output reg [7:0] y);
  integer pos, n, r, v;
  always @(x) begin
    #1;
    pos = $ftell(32'h8000_0003);
    n = $fscanf(32'h8000_0003, "%d\\n", v);
    r = $fseek(32'h8000_0003, pos, 0);
    y = v;
  end
endmodule
'''
# A ROM whose contents are a data file the task names for the design.
rom_tb = '''module tb;
  reg [1:0] a; wire [7:0] q; integer i, err = 0;
  reg [7:0] want [0:3];
  rom dut(.a(a), .q(q));
  initial begin
    want[0] = 8'h11; want[1] = 8'h22; want[2] = 8'h44; want[3] = 8'h88;
    for (i = 0; i < 4; i = i + 1) begin
      a = i; #1;
      if (q !== want[i]) err = err + 1;
    end
    $display("Mismatches: %0d in 4 samples", err);
    $finish;
  end
endmodule
'''
rom = '''module rom(input [1:0] a, output [7:0] q);
  reg [7:0] m[0:3];
  initial $readmemh("rom.hex", m);
  assign q = m[a];
endmodule
'''
rom_task = {"id": "local/rom", "benchmark": "local", "domain": "chip",
            "env": "iverilog",
            "env_params": {"top": "tb", "design_reads": ["rom.hex"]},
            "spec": "a ROM of rom.hex", "files": {"tb.sv": rom_tb,
            "rom.hex": "11\n22\n44\n88\n", "notes.txt": "11\n22\n44\n88\n"},
            "reference": rom}
rows = [
  {"task": v2, "candidate": {"origin": "wave", "code": plain}},
  {"task": v2, "candidate": {"origin": "wave-glued", "code": glued}},
  {"task": v2, "candidate": {"origin": "wave-escaped", "code": escaped}},
  {"task": "rtllm/alu", "candidate": {"origin": "alu-data", "code": alu}},
  {"task": peek_task, "candidate": {"origin": "peek", "code": peek}},
  {"task": rom_task, "candidate": {"origin": "rom-other", "code":
    rom.replace('"rom.hex"', '"notes.txt"')}},
  {"task": "local/rom", "candidate": {"origin": "rom-fopen", "code":
    rom.replace('  initial $readmemh("rom.hex", m);\n',
                '  integer fd;\n  initial fd = $fopen("rom.hex", "r");\n')}},
]
with open(sys.argv[1], "w") as f:
    for r in rows:
        f.write(json.dumps(r) + "\n")
# Verilator: the testbench reads its expected values from a data file,
# which the candidate reads too.
vtask = {"id": "local/rom-verilator", "benchmark": "local", "domain": "chip",
         "env": "verilator", "env_params": {"top": "tb", "timeout_s": 300},
         "files": {"tb.sv": rom_tb.replace(
             "    want[0] = 8'h11; want[1] = 8'h22; want[2] = 8'h44; want[3] = 8'h88;\n",
             '    $readmemh("expected.hex", want);\n'),
                   "expected.hex": "11\n22\n44\n88\n"},
         "reference": "module rom(input [1:0] a, output [7:0] q);\n"
                      "  assign q = 8'h11 << a;\nendmodule\n"}
assert vtask["files"]["tb.sv"] != rom_tb
open(sys.argv[2], "w").write(json.dumps({"task": vtask, "candidate": {
    "origin": "lint-data", "code": rom.replace("rom.hex", "expected.hex")}}) + "\n")
# Yosys: the ROM of its named file synthesises; the env's own liberty
# file is not the candidate's to read.
ytask = {"id": "local/rom-yosys", "benchmark": "local", "domain": "chip",
         "env": "yosys", "env_params": {"top": "rom", "design_reads": ["rom.hex"]},
         "files": {"rom.hex": "11\n22\n44\n88\n"}}
open(sys.argv[3], "w").write(
    json.dumps({"task": ytask, "candidate": {"origin": "yosys-rom", "code": rom}}) + "\n" +
    json.dumps({"task": "local/rom-yosys", "candidate": {"origin": "yosys-lib",
                "code": rom.replace("rom.hex", "cmos_cells.lib")}}) + "\n")
PY
"$ASSAY" --db "$DB" import "$T/hostile.jsonl" >/dev/null || fail "import hostile"
"$ASSAY" --db "$DB" verify --quiet --jobs 2 --timeout 60 \
    --where "task=verilog-eval-v2/Prob041_dff8r" >/dev/null || fail "verify v2"
"$ASSAY" --db "$DB" verify --quiet --jobs 2 --timeout 60 \
    --where "task=rtllm/alu" >/dev/null || fail "verify alu"
"$ASSAY" --db "$DB" verify --quiet --jobs 2 --timeout 60 \
    --where "benchmark=local" >/dev/null || fail "verify local"

id() { "$ASSAY" --db "$DB" list --where "$1" | awk 'NR==2 {print $1}'; }
field() { "$ASSAY" --db "$DB" show "$(id "$1")" --json |
    python3 -c "import json,sys; r=json.load(sys.stdin)['runs'][-1]; print(r.get('$2'))"; }
# verdict, subcategory and the line of the evidence
got() { echo "$(field "$1" verdict) $(field "$1" subcategory) $(field "$1" evidence_line)"; }

# The honest references pass: the rule costs them nothing.
expect_eq "dff8r reference" "$(field "task=verilog-eval-v2/Prob041_dff8r origin=reference" verdict)" pass
expect_eq "alu reference" "$(field "task=rtllm/alu origin=reference" verdict)" pass
expect_eq "peek reference (reads its descriptor itself)" "$(field "task=local/peek origin=reference" verdict)" pass
expect_eq "the ROM, reading the file its task names" "$(field "task=local/rom origin=reference" verdict)" pass

expect_eq "wave (replays wave.vcd)" "$(got origin=wave)" "fail forbidden-call 13"
expect_eq "wave-glued" "$(got origin=wave-glued)" "fail forbidden-construct 18"
expect_eq "wave-escaped" "$(got origin=wave-escaped)" "fail forbidden-call 13"
expect_eq "alu-data (replays reference.dat)" "$(got origin=alu-data)" "fail forbidden-call 6"
expect_eq "peek (the testbench's descriptor)" "$(got origin=peek)" "fail forbidden-call 6"
expect_eq "rom-other (a data file not named)" "$(got origin=rom-other)" "fail forbidden-call 3"
expect_eq "rom-fopen (the named file, opened)" "$(got origin=rom-fopen)" "fail forbidden-call 4"
ev=$(field origin=wave evidence)
case $ev in
"candidate.sv:13: \$dumpflush is not allowed in a candidate:"*) echo "ok: wave's evidence: $ev" ;;
*) fail "wave's evidence: $ev" ;;
esac
expect_eq "wave's category" "$(field origin=wave category)" functional
# Refused before it runs: no simulation in the log.
"$ASSAY" --db "$DB" show "$(id origin=wave)" | sed -n '/^log:$/,$p' > "$T/wave.txt"
grep -q '^\$ vvp' "$T/wave.txt" && fail "the refused candidate was simulated"
# The testbench writes no waveform of its own (its $dumpfile is made
# "if (0)"): the only dump is the harness module's, into the image's
# random directory, sealed and kept as run.wave (ADR 0049).
"$ASSAY" --db "$DB" show "$(id "task=verilog-eval-v2/Prob041_dff8r origin=reference")" |
    sed -n '/^log:$/,$p' > "$T/ref.txt"
grep -q '^\$ vvp -n [^ ]*/sim$' "$T/ref.txt" || fail "vvp: $(grep '^\$ vvp' "$T/ref.txt")"
grep -q 'kept with the run (run.wave)' "$T/ref.txt" || fail "no waveform: $(cat "$T/ref.txt")"
grep -q 'VCD info' "$T/ref.txt" && fail "vvp's dump line names the image's directory"
"$ASSAY" --db "$DB" show "$(id "task=verilog-eval-v2/Prob041_dff8r origin=reference")" --json |
    python3 -c 'import json,sys; sys.stdout.write(json.load(sys.stdin)["runs"][-1]["wave"])' \
    > "$T/ref.vcd" || fail "no run.wave"
grep -q ' q_ref \$end' "$T/ref.vcd" || fail "run.wave lacks q_ref: $(head -c 400 "$T/ref.vcd")"
grep -q 'clk' "$T/ref.vcd" && fail "the testbench's own dump (with clk) was kept"
echo "ok: the harness's waveform alone"

# A design_reads name that is not a data file is the task's error.
python3 - "$T/bad.jsonl" <<'PY' || fail "write bad.jsonl"
import json, sys
t = {"id": "local/badreads", "benchmark": "local", "domain": "chip",
     "env": "iverilog", "env_params": {"top": "tb", "design_reads": "tb.sv"},
     "files": {"tb.sv": "module tb; initial $display(\"Mismatches: 0 in 1 samples\"); endmodule\n"}}
open(sys.argv[1], "w").write(json.dumps({"task": t, "candidate": {"origin": "any",
    "code": "module m; endmodule\n"}}) + "\n")
PY
"$ASSAY" --db "$DB" import "$T/bad.jsonl" >/dev/null || fail "import bad"
"$ASSAY" --db "$DB" verify --where "task=local/badreads" > "$T/bad.out" 2>&1
grep -q "env_params.design_reads: 'tb.sv' is not a data file of task local/badreads" "$T/bad.out" ||
    fail "bad design_reads: $(cat "$T/bad.out")"
echo "ok: a bad design_reads is refused"

# Verilator: a data file read back, refused at lint (Verilator runs
# $readmemh; it writes no waveform, assay never passes --trace).
if command -v verilator >/dev/null; then
	"$ASSAY" --db "$DB" import "$T/v.jsonl" >/dev/null || fail "import v"
	"$ASSAY" --db "$DB" verify --quiet --where "task=local/rom-verilator" >/dev/null || fail "verify v"
	expect_eq "verilator reference" "$(field "task=local/rom-verilator origin=reference" verdict)" pass
	expect_eq "lint-data" "$(got origin=lint-data)" "fail forbidden-call 3"
	expect_eq "lint-data stage" "$(field origin=lint-data stage)" lint
fi

# Yosys reads a $readmemh file while it elaborates: the same rule.
if command -v yosys >/dev/null; then
	"$ASSAY" --db "$DB" import "$T/y.jsonl" >/dev/null || fail "import y"
	"$ASSAY" --db "$DB" verify --quiet --where "task=local/rom-yosys" >/dev/null || fail "verify y"
	expect_eq "yosys-rom (the named file)" "$(field origin=yosys-rom verdict)" pass
	expect_eq "yosys-lib" "$(got origin=yosys-lib)" "fail forbidden-call 3"
	expect_eq "yosys-lib stage" "$(field origin=yosys-lib stage)" check
fi
echo "ok: 024"
