# 290 - the waveform of a Verilog mismatch (issue 26 items 1 and 5): a
# wrong candidate of VerilogEval v2's Prob033_ece241_2014_q1c (signed
# overflow computed as a[7] & b[7]) keeps the VCD of the compared signals
# alone (run.wave), its feedback names the first mismatch with a table of
# the steps around it, and the repair request a command generator gets
# carries that table.  Golden values: read from the Icarus dump by hand
# (tests/unit/vcd/icarus-prob033.vcd, the same simulation): a = b = 0x70
# at 35 ps makes a signed overflow (ref 1), the candidate says 0.
. "$(dirname "$0")/lib.sh"
need_data
command -v iverilog >/dev/null || skip "iverilog not installed"
command -v bwrap >/dev/null || skip "bubblewrap not installed"
command -v python3 >/dev/null || skip "python3 not installed"
M=$(cd "$(dirname "$0")/model" && pwd)
P=verilog-eval-v2/Prob033_ece241_2014_q1c

"$ASSAY" --db "$DB" import "$DATA/verilog-eval-v2" >/dev/null 2>&1 ||
    fail "import v2"
python3 - "$T" "$DATA/verilog-eval-v2/Prob033_ece241_2014_q1c_ref.sv" <<'PY' ||
import json, sys
t, ref = sys.argv[1], sys.argv[2]
wrong = ("module TopModule(input [7:0] a, input [7:0] b, output [7:0] s,"
         " output overflow);\n  assign s = a + b;\n"
         "  assign overflow = a[7] & b[7];\nendmodule\n")
good = open(ref).read().replace("RefModule", "TopModule")
with open(t + "/c.jsonl", "w") as f:
    f.write(json.dumps({"task": "verilog-eval-v2/Prob033_ece241_2014_q1c",
                        "candidate": {"id": "w-1", "origin": "gpt-x",
                                      "code": wrong}}) + "\n")
json.dump({"2's complement numbers": [wrong, good]},
          open(t + "/answers.json", "w"))
PY
    fail "write the candidate"
"$ASSAY" --db "$DB" import "$T/c.jsonl" >/dev/null || fail "import w-1"
"$ASSAY" --db "$DB" verify w-1 >/dev/null || fail "verify"
expect_eq "w-1 fails" "$(count 'id=w-1 verdict=fail')" 1

# the feedback: first mismatch, the differing signal, the window
"$ASSAY" --db "$DB" show w-1 >"$T/show" || fail "show"
grep -q "^first differing values at 35 ps (the testbench compares at its sampling points): overflow$" "$T/show" ||
    fail "no first mismatch: $(cat "$T/show")"
grep -q "^>   35  1             0            \*$" "$T/show" ||
    fail "no mismatch row: $(cat "$T/show")"
# two pairs (s, overflow) and the testbench's tb_match: not "5 compared
# signals"
grep -q "^assay: the waveform of 2 compared signal pairs (NAME_ref, NAME_dut) and tb_match, [0-9]* bytes, is kept with the run (run.wave)$" "$T/show" ||
    fail "no log note: $(grep 'assay: the waveform' "$T/show")"
# the dump itself is not in the log
grep -q 'enddefinitions' "$T/show" && fail "the VCD is in the log"

# run.wave: the compared signals alone, VCD that reads back
"$ASSAY" --db "$DB" show w-1 --json >"$T/json" || fail "show --json"
python3 - "$T/json" <<'PY' || fail "run.wave: $(head -c 600 "$T/json")"
import json, re, sys
d = json.load(open(sys.argv[1]))
run = d["runs"][-1]
w = run["wave"]
names = re.findall(r"\$var wire \d+ \S+ (\S+) \$end", w)
assert names == ["s_ref", "s_dut", "overflow_ref", "overflow_dut",
                 "tb_match"], names
assert "clk" not in w and "wavedrom" not in w, w[:400]
fb = run["feedback"]["waveform"]
assert fb["first_mismatch"] == 35, fb
assert fb["signals"] == ["overflow"], fb
i = fb["window"]["time"].index(35)
assert fb["window"]["overflow_ref"][i] == "1", fb
assert fb["window"]["overflow_dut"][i] == "0", fb
PY

# the repair request carries the window; the repair passes
export FIXER_ANSWERS=$T/answers.json FIXER_LOG=$T/fixer.log
"$ASSAY" --db "$DB" repair --rounds 1 --command "python3 $M/fixer.py" \
    --model fixer-1 >"$T/repair.out" 2>&1 ||
    fail "repair: $(cat "$T/repair.out")"
python3 - "$T/fixer.log" <<'PY' || fail "request: $(cat "$T/fixer.log")"
import json, sys
req = [json.loads(l) for l in open(sys.argv[1])]
assert len(req) == 1, len(req)
last = req[0]["messages"][-1]
assert last["role"] == "user", last
text = last["content"]
assert "Waveform, first mismatch:" in text, text
assert "first differing values at 35 ps (the testbench compares at its sampling points): overflow" in text, text
assert "  time  overflow.ref  overflow.cand" in text, text
assert ">   35  1             0            *" in text, text
PY
expect_eq "the repair passes" "$(count 'origin=fixer-1 verdict=pass')" 1
# A design that prints the wave stage's header line cannot make the
# judge cut the log there: the testbench's lines after it stay.
"$ASSAY" --db "$DB" show w-1 | sed -n "s/.* -- \(sh -c 'IFS=.*'\))\$/\$ \1/p" \
    >"$T/header" || fail "header"
[ -s "$T/header" ] || fail "no wave stage in the command: $(cat "$T/show")"
python3 - "$T" <<'PY' || fail "write the hider"
import json, sys
t = sys.argv[1]
head = open(t + "/header").read().rstrip("\n")
lit = head.replace("\\", "\\\\").replace('"', '\\"')
code = ("module TopModule(input [7:0] a, input [7:0] b, output [7:0] s,"
        " output overflow);\n  assign s = a + b;\n"
        "  assign overflow = a[7] | b[7];\n"
        "  initial $display(\"%s\");\nendmodule\n" % lit)
with open(t + "/h.jsonl", "w") as f:
    f.write(json.dumps({"task": "verilog-eval-v2/Prob033_ece241_2014_q1c",
                        "candidate": {"id": "w-2", "origin": "hider",
                                      "code": code}}) + "\n")
PY
"$ASSAY" --db "$DB" import "$T/h.jsonl" >/dev/null || fail "import w-2"
"$ASSAY" --db "$DB" verify w-2 >/dev/null || fail "verify w-2"
"$ASSAY" --db "$DB" show w-2 | sed -n '/^log:$/,$p' >"$T/hider.txt"
grep -q "sh -c 'IFS=" "$T/hider.txt" || fail "the design's line is gone"
grep -q "Mismatches: " "$T/hider.txt" ||
    fail "the log was cut at the design's line: $(cat "$T/hider.txt")"
grep -q "kept with the run (run.wave)" "$T/hider.txt" || fail "no wave note"
echo "ok: a printed header cuts nothing"

# vvp's own "VCD info: dumpfile DIR/wave.vcd opened for output." is
# dropped, and only it: a design that prints such a line with another
# path keeps its line, and the real one (naming the image's random
# directory) goes all the same.  The first such line was dropped before,
# the design's, and vvp's kept.
python3 - "$T" <<'PY' || fail "write w-3"
import json, sys
code = ("module TopModule(input [7:0] a, input [7:0] b, output [7:0] s,"
        " output overflow);\n"
        "  initial $display(\"VCD info: dumpfile x/wave.vcd opened for"
        " output.\");\n  assign s = a + b;\n"
        "  assign overflow = a[7] & b[7];\nendmodule\n")
with open(sys.argv[1] + "/v.jsonl", "w") as f:
    f.write(json.dumps({"task": "verilog-eval-v2/Prob033_ece241_2014_q1c",
                        "candidate": {"id": "w-3", "origin": "vcdline",
                                      "code": code}}) + "\n")
PY
"$ASSAY" --db "$DB" import "$T/v.jsonl" >/dev/null || fail "import w-3"
"$ASSAY" --db "$DB" verify w-3 >/dev/null || fail "verify w-3"
"$ASSAY" --db "$DB" show w-3 | sed -n '/^log:$/,$p' >"$T/vcdline.txt"
expect_eq "w-3: VCD info lines in the log" \
    "$(grep -c '^VCD info: dumpfile ' "$T/vcdline.txt")" 1
grep -q '^VCD info: dumpfile x/wave.vcd opened for output.$' \
    "$T/vcdline.txt" || fail "w-3: the design's line is gone:" \
    "$(grep 'VCD info' "$T/vcdline.txt")"
grep -q "kept with the run (run.wave)" "$T/vcdline.txt" ||
    fail "w-3: no wave note"
echo "ok: only vvp's own dumpfile line is dropped"

# A testbench whose NAME_ref is no signal of its top (a named block's)
# breaks the harness module: env-error/harness-error, never the
# candidate's failure.
cat >"$T/h4.jsonl" <<'JSONL'
{"task":{"id":"local/wave4","env":"iverilog","spec":"x","files":{"w_test.sv":"module tb;\n  wire y;\n  TopModule top_module1(.y(y));\n  initial begin : blk\n    logic q_ref, q_dut;\n    #1 $display(\"Mismatches: 0 in 1 samples\"); $finish;\n  end\nendmodule\n"}},"candidate":{"id":"h-4","origin":"x","code":"module TopModule(output y); assign y = 1; endmodule\n"}}
JSONL
"$ASSAY" --db "$DB" import "$T/h4.jsonl" >/dev/null || fail "import h-4"
"$ASSAY" --db "$DB" verify h-4 >/dev/null
expect_eq "harness error" "$(count 'id=h-4 verdict=env-error')" 1
"$ASSAY" --db "$DB" show h-4 | grep -q "env-error at compile, harness-error" ||
    fail "h-4: $("$ASSAY" --db "$DB" show h-4 | head -20)"
echo "290-wave-feedback: ok"
