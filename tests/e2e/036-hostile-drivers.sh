# 036: a candidate drives its own inputs, or steers the testbench's random
# stimuli (issue 22, third round of attacks on main at 7215837; ADR 0058).
#   tran-all    every VerilogEval v2 task: a TopModule with the
#               reference's ports whose only logic joins each input bit
#               (clk aside) to an x net by a tran switch.  RefModule's
#               inputs become x, so are its outputs, and the testbench's
#               "ref === (ref ^ dut ^ ref)" counts x as a match: 33 of
#               the 37 tasks with an input passed with no logic at all
#               (this script against main's build at 7215837).
#   drv-*       Prob041_dff8r answering 0 (wrong), its inputs driven:
#               tran/tranif1/tranif0 on bit-selects and through a macro
#               passed; rtran, assign (whole, bit, concatenation,
#               non-ANSI), buf, bufif1 with strengths, pullup, an
#               instance's output port (named and positional), a UDP's
#               output failed by mismatch only.  Each is now refused
#               before anything runs: fail/drives-input on its line.
#               alias, deassign, inout ports and a procedural "<=" to an
#               input fail Icarus's compile first; force stays
#               forbidden-construct.
#   rnd-steer   Prob018_mux256to1 answering in[0]: the candidate calls
#               $random (the testbench's global seed), recovers the seed
#               and throws draws away until the next sel is 0: passed
#               (0 mismatches in 2000).  Now $random without a seed
#               variable of the candidate's own, $urandom (any form),
#               $urandom_range and $dist_* on a constant seed are
#               fail/forbidden-call.
#   ok-*        correct dff8r designs that read their inputs through an
#               instance, a gate, a comparison "d <= 8'h10", a case
#               item's ternary, a seeded $random(s): they still pass.
#   verilator   the same tran made Verilator stop at "Unsupported" and a
#               wrong design was env-error: now fail/drives-input.
#   yosys       tran is refused there too; an empty TopModule is
#               fail/undriven at synth (was env-error: the miter held a
#               black box the solver could not import).
. "$(dirname "$0")/lib.sh"
need_data
command -v iverilog >/dev/null || skip "iverilog not installed"
command -v bwrap >/dev/null || skip "bubblewrap not installed"
command -v python3 >/dev/null || skip "python3 not installed"

V=$DATA/verilog-eval-v2
"$ASSAY" --db "$DB" import "$V" >/dev/null 2>&1 || fail "import v2"

python3 - "$V" "$T/rows.jsonl" "$T/vl.jsonl" "$T/ys.jsonl" <<'PY' || fail "write rows"
import glob, json, os, re, sys
V, rows_path, vl_path, ys_path = sys.argv[1:5]
rows = []
def add(task, origin, code):
    rows.append({"task": task, "candidate": {"origin": origin, "code": code}})
# tran-all: every task, its reference's ports, each input bit but clk tran'd.
for ref in sorted(glob.glob(V + "/*_ref.sv")):
    prob = os.path.basename(ref)[:-7]
    src = re.sub(r"//.*", "", open(ref).read())
    m = re.search(r"module\s+RefModule\s*(#\s*\(.*?\)\s*)?\((.*?)\);", src, re.S)
    if not m:
        continue
    direction, ports = None, []
    for item in m.group(2).split(","):
        mm = re.match(r"(input|output|inout)?\s*(wire|reg|logic)?\s*(signed)?\s*(\[[^\]]*\])?\s*(\w+)$", item.strip(), re.S)
        if not mm:
            ports = None
            break
        if mm.group(1):
            direction, rng = mm.group(1), mm.group(4) or ""
        ports.append((direction, rng, mm.group(5)))
    if ports is None:
        continue
    body = ["  wire [1023:0] xx = {1024{1'bx}};"]
    for d, r, n in ports:
        if d != "input" or n in ("clk", "clock"):
            continue
        if r:
            a, b = map(int, re.match(r"\[\s*(\d+)\s*:\s*(\d+)\s*\]", r).groups())
            body += ["  tran (%s[%d], xx[%d]);" % (n, i, i % 1024) for i in range(min(a, b), max(a, b) + 1)]
        else:
            body.append("  tran (%s, xx[0]);" % n)
    if len(body) == 1:
        continue    # no input to drive
    hdr = src[m.start():m.end()].replace("RefModule", "TopModule")
    add("verilog-eval-v2/" + prob, "tran-all", hdr + "\n" + "\n".join(body) + "\nendmodule\n")

D = "verilog-eval-v2/Prob041_dff8r"
hdr = "module TopModule (input clk, input [7:0] d, input reset, output reg [7:0] q);\n"
body = "  always @(posedge clk) q <= 8'h00;\nendmodule\n"
xx = "  wire [7:0] xx = 8'bx;\n"
def each(fmt):
    return ("".join("  " + fmt.format(i=i) + "\n" for i in range(8)) +
            "  " + fmt.format(i=0).replace("d[0]", "reset") + "\n")
sub = "module drv (output [7:0] o, output r);\n  assign o = 8'bx;\n  assign r = 1'bx;\nendmodule\n"
drv = {
    "drv-tran": hdr + xx + each("tran (d[{i}], xx[{i}]);") + body,
    "drv-tranif1": hdr + xx + each("tranif1 (d[{i}], xx[{i}], 1'b1);") + body,
    "drv-tranif0": hdr + xx + each("tranif0 (d[{i}], xx[{i}], 1'b0);") + body,
    "drv-rtran": hdr + xx + each("rtran (d[{i}], xx[{i}]);") + body,
    "drv-macro": "`define T(a, b) tran (a, b)\n" + hdr + xx + each("`T(d[{i}], xx[{i}]);") + body,
    "drv-assign": hdr + "  assign d = 8'bx;\n  assign reset = 1'bx;\n" + body,
    "drv-assign-bit": hdr + "  assign d[3] = 1'bx, reset = 1'bx;\n" + body,
    "drv-assign-cat": hdr + "  assign {reset, d} = 9'bx;\n" + body,
    "drv-nonansi": ("module TopModule (clk, d, reset, q);\n  input clk;\n  input [7:0] d;\n"
                    "  input reset;\n  output reg [7:0] q;\n  assign d = 8'bx;\n"
                    "  assign reset = 1'bx;\n" + body),
    "drv-gate": hdr + xx + each("buf (d[{i}], xx[{i}]);") + body,
    "drv-gate-strength": hdr + xx + each("bufif1 (supply0, supply1) (d[{i}], xx[{i}], 1'b1);") + body,
    "drv-pullup": hdr + "  pullup (d[0]);\n" + body,
    "drv-sub": hdr + "  drv u (.o(d), .r(reset));\n" + body + sub,
    "drv-sub-pos": hdr + "  drv u (d, reset);\n" + body + sub,
    "drv-udp": (hdr + "  xs u0 (reset, clk);\n" + body + "primitive xs (output o, input i);\n"
                "  table\n    0 : x;\n    1 : x;\n  endtable\nendprimitive\n"),
    "drv-alias": hdr + "  wire [7:0] xx = 8'bx;\n  alias d = xx;\n" + body,
    "drv-inout": ("module TopModule (input clk, inout [7:0] d, inout reset, output reg [7:0] q);\n"
                  "  assign d = 8'bx;\n  assign reset = 1'bx;\n" + body),
    "drv-force": hdr + "  initial force d = 8'bx;\n" + body,
    "drv-deassign": hdr + "  initial deassign reset;\n" + body,
    "drv-proc": hdr.replace("input [7:0] d", "input var logic [7:0] d") +
                "  always @(posedge clk) d <= 8'bx;\n" + body,
    "rnd-urandom": hdr + "  integer j;\n  always @(posedge clk) j = $urandom;\n" + body,
    "rnd-urandom-seed": hdr + "  integer j, s;\n  initial begin s = 1; j = $urandom(s); end\n" + body,
    "rnd-range": hdr + "  integer j;\n  always @(posedge clk) j = $urandom_range(3, 0);\n" + body,
    "rnd-random": hdr + "  integer j;\n  always @(posedge clk) j = $random;\n" + body,
    "rnd-dist": hdr + "  integer j;\n  always @(posedge clk) j = $dist_uniform(0, 0, 9);\n" + body,
    "ok-seeded": hdr + "  integer s = 5, j;\n  always @(posedge clk) begin q <= reset ? 8'h0 : d; j = $random(s); end\nendmodule\n",
    "ok-sub": (hdr + "  wire [7:0] n;\n  pass u (.i(d), .o(n));\n  always @(posedge clk) q <= reset ? 8'h0 : n;\nendmodule\n"
               "module pass (input [7:0] i, output [7:0] o);\n  assign o = i;\nendmodule\n"),
    "ok-subpos": (hdr + "  wire [7:0] n;\n  pass u (n, d);\n  always @(posedge clk) q <= reset ? 8'h0 : n;\nendmodule\n"
                  "module pass (output [7:0] o, input [7:0] i);\n  assign o = i;\nendmodule\n"),
    "ok-gate": hdr + "  wire [7:0] n;\n  buf b[7:0] (n, d);\n  always @(posedge clk) q <= reset ? 8'h0 : n;\nendmodule\n",
    "ok-cmp": hdr + "  reg sm;\n  always @(posedge clk) begin sm = d <= 8'h10; q <= reset ? 8'h0 : sm ? d : d; end\nendmodule\n",
    "ok-case": (hdr + "  always @(posedge clk) case (reset) 1'b1: q <= 8'h0;"
                " default: q <= reset ? 8'h0 : d <= 8'hff ? d : d; endcase\nendmodule\n"),
}
for o, c in drv.items():
    add(D, o, c)

# $random steering: out = in[0] on the 256-to-1 mux.
steer = r'''module TopModule (input [255:0] in, input [7:0] sel, output out);
  assign out = in[0];
  integer y1, y2, shadow, t, p, k, d, v, i, junk, found;
  task steer;
    begin
      y1 = $random;
      y2 = $random;
      found = 0;
      for (d = -1; d <= 1 && !found; d = d + 1)
        for (k = 0; k < 512 && !found; k = k + 1) begin
          t = ((y1 ^ 32'h80000000) & 32'hfffffe00) + d * 512 + k;
          if ($random(t) == y2) begin
            shadow = t;
            found = 1;
          end
        end
      if (found)
        for (k = 0; k < 100000; k = k + 1) begin
          p = shadow;
          for (i = 0; i < 9; i = i + 1)
            v = $random(p);
          if ((v & 255) == 0)
            k = 100000;
          else begin
            junk = $random;
            junk = $random(shadow);
          end
        end
    end
  endtask
  initial steer;
  always @(in) steer;
endmodule
'''
add("verilog-eval-v2/Prob018_mux256to1", "rnd-steer", steer)
with open(rows_path, "w") as f:
    for r in rows:
        f.write(json.dumps(r) + "\n")

# Verilator and yosys: the same tasks in those envs.
files = {n: open(V + "/" + n).read() for n in ("Prob041_dff8r_test.sv", "Prob041_dff8r_ref.sv")}
spec = open(V + "/Prob041_dff8r_prompt.txt").read()
vt = {"id": "local/dff8r-vl", "benchmark": "local", "domain": "chip", "env": "verilator",
      "env_params": {"top": "tb", "timeout_s": 300}, "spec": spec, "files": files}
hide = hdr + "  wire a, b;\n  tran (a, b);\n" + body
with open(vl_path, "w") as f:
    f.write(json.dumps({"task": vt, "candidate": {"origin": "vl-hide", "code": hide}}) + "\n")
    f.write(json.dumps({"task": "local/dff8r-vl", "candidate": {"origin": "vl-tran", "code": drv["drv-tran"]}}) + "\n")
yt = {"id": "local/dff8r-ys", "benchmark": "local", "domain": "chip", "env": "yosys",
      "env_params": {"equiv": True}, "spec": spec, "files": {"Prob041_dff8r_ref.sv": files["Prob041_dff8r_ref.sv"]}}
with open(ys_path, "w") as f:
    f.write(json.dumps({"task": yt, "candidate": {"origin": "ys-tran", "code": drv["drv-tran"]}}) + "\n")
    f.write(json.dumps({"task": "local/dff8r-ys", "candidate": {"origin": "ys-empty",
            "code": hdr.replace("output reg", "output") + "endmodule\n"}}) + "\n")
PY
"$ASSAY" --db "$DB" import "$T/rows.jsonl" >/dev/null || fail "import rows"
"$ASSAY" --db "$DB" verify --quiet --jobs 2 --timeout 60 --where "origin~tran-all" >/dev/null || fail "verify tran-all"
for w in "origin~drv-" "origin~rnd-" "origin~ok-" \
    "task=verilog-eval-v2/Prob041_dff8r origin=reference" \
    "task=verilog-eval-v2/Prob018_mux256to1 origin=reference"; do
	"$ASSAY" --db "$DB" verify --quiet --jobs 2 --timeout 60 --where "$w" >/dev/null || fail "verify $w"
done

id() { "$ASSAY" --db "$DB" list --where "$1" | awk 'NR==2 {print $1}'; }
field() { "$ASSAY" --db "$DB" show "$(id "$1")" --json |
    python3 -c "import json,sys; r=json.load(sys.stdin)['runs'][-1]; print(r.get('$2'))"; }
got() { echo "$(field "$1" verdict) $(field "$1" subcategory) $(field "$1" evidence_line)"; }

n=$(count "origin=tran-all")
[ "$n" -ge 30 ] || fail "only $n tran-all candidates"
expect_eq "tran-all passes (33 on main)" "$(count "origin=tran-all verdict=pass")" 0
expect_eq "tran-all refused as drives-input" "$(count "origin=tran-all subcategory=drives-input")" "$n"
for o in drv-tran drv-tranif1 drv-tranif0 drv-rtran drv-gate drv-gate-strength; do
	expect_eq "$o" "$(got "origin=$o")" "fail drives-input 3"
done
expect_eq drv-macro "$(got origin=drv-macro)" "fail drives-input 4"
for o in drv-pullup drv-assign drv-assign-bit drv-assign-cat drv-sub drv-sub-pos drv-udp; do
	expect_eq "$o" "$(got "origin=$o")" "fail drives-input 2"
done
expect_eq drv-nonansi "$(got origin=drv-nonansi)" "fail drives-input 6"
expect_eq drv-force "$(got origin=drv-force)" "fail forbidden-construct 2"
for o in drv-alias drv-inout drv-deassign drv-proc; do
	v=$(field "origin=$o" verdict)
	expect_eq "$o (Icarus refuses it first)" "$v $(field "origin=$o" stage)" "fail compile"
done
ev=$(field origin=drv-tran evidence)
case $ev in
"candidate.sv:3: tran is not allowed in a candidate:"*) echo "ok: drv-tran's evidence: $ev" ;;
*) fail "drv-tran's evidence: $ev" ;;
esac
expect_eq "drv-tran's category" "$(field origin=drv-tran category)" functional
ev=$(field origin=drv-sub evidence)
case $ev in
"candidate.sv:2: d is an input port of TopModule"*) echo "ok: drv-sub's evidence: $ev" ;;
*) fail "drv-sub's evidence: $ev" ;;
esac
"$ASSAY" --db "$DB" show "$(id origin=drv-tran)" | sed -n '/^log:$/,$p' > "$T/tran.txt"
grep -q '^\$ vvp' "$T/tran.txt" && fail "the refused candidate was simulated"

expect_eq rnd-steer "$(got origin=rnd-steer)" "fail forbidden-call 6"
for o in rnd-urandom rnd-range rnd-random rnd-dist; do
	expect_eq "$o" "$(got "origin=$o")" "fail forbidden-call 3"
done
expect_eq rnd-urandom-seed "$(got origin=rnd-urandom-seed)" "fail forbidden-call 3"

for o in ok-seeded ok-sub ok-subpos ok-gate ok-cmp ok-case; do
	expect_eq "$o (honest)" "$(field "origin=$o" verdict)" pass
done
expect_eq "dff8r reference" "$(field "task=verilog-eval-v2/Prob041_dff8r origin=reference" verdict)" pass
expect_eq "mux256to1 reference" "$(field "task=verilog-eval-v2/Prob018_mux256to1 origin=reference" verdict)" pass

if command -v verilator >/dev/null; then
	"$ASSAY" --db "$DB" import "$T/vl.jsonl" >/dev/null || fail "import vl"
	"$ASSAY" --db "$DB" verify --quiet --where "task=local/dff8r-vl" >/dev/null || fail "verify vl"
	expect_eq "vl-hide (env-error on main)" "$(got origin=vl-hide)" "fail drives-input 3"
	expect_eq "vl-tran" "$(got origin=vl-tran)" "fail drives-input 3"
else
	echo "skip: verilator not installed"
fi
if command -v yosys >/dev/null; then
	"$ASSAY" --db "$DB" import "$T/ys.jsonl" >/dev/null || fail "import ys"
	"$ASSAY" --db "$DB" verify --quiet --where "task=local/dff8r-ys" >/dev/null || fail "verify ys"
	expect_eq "ys-tran" "$(got origin=ys-tran)" "fail drives-input 3"
	expect_eq "ys-empty (env-error on main)" "$(field origin=ys-empty verdict) $(field origin=ys-empty stage) $(field origin=ys-empty subcategory)" "fail synth undriven"
else
	echo "skip: yosys not installed"
fi
