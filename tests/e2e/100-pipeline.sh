# 100: pipelines (issue 3).  A task of env "iverilog+yosys" runs each env
# in turn on the candidate; the first that fails decides the verdict, the
# metrics of both are kept under "iverilog." and "yosys.", and show lists
# each env's stages.  Made from the shared VerilogEval v2 problem Prob071
# (a priority encoder, combinational): its reference, a correct answer
# that infers a latch (an if-chain without a final else: Icarus Verilog
# passes it, Yosys reports "Latch inferred for signal" and the task asks
# for no latches), and one that reports the highest set bit instead of
# the lowest (synthesises cleanly, mismatches in simulation).
. "$(dirname "$0")/lib.sh"
need_data
command -v iverilog >/dev/null || skip "iverilog not installed"
command -v yosys >/dev/null || skip "yosys not installed"

P=$DATA/verilog-eval-v2/Prob071_always_casez
jstr() { sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/\t/\\t/g' -e 's/\r/\\r/g' "$1" | awk 'BEGIN { ORS = "" } { print $0 "\\n" }'; }
sed 's/RefModule/TopModule/' "${P}_ref.sv" > "$T/ref_top.sv"
cat > "$T/latch.sv" <<'EOF'
module TopModule(input [7:0] in, output reg [2:0] pos);
  always @(*) begin
    if (in[0]) pos = 3'd0;
    else if (in[1]) pos = 3'd1;
    else if (in[2]) pos = 3'd2;
    else if (in[3]) pos = 3'd3;
    else if (in[4]) pos = 3'd4;
    else if (in[5]) pos = 3'd5;
    else if (in[6]) pos = 3'd6;
    else if (in[7]) pos = 3'd7;
    else if (in == 8'd0) pos = 3'd0;
  end
endmodule
EOF
cat > "$T/highest.sv" <<'EOF'
module TopModule(input [7:0] in, output reg [2:0] pos);
  always @(*) begin
    casez (in)
      8'b1zzzzzzz: pos = 3'd7;
      8'b01zzzzzz: pos = 3'd6;
      8'b001zzzzz: pos = 3'd5;
      8'b0001zzzz: pos = 3'd4;
      8'b00001zzz: pos = 3'd3;
      8'b000001zz: pos = 3'd2;
      8'b0000001z: pos = 3'd1;
      default: pos = 3'd0;
    endcase
  end
endmodule
EOF
{
	printf '{"task": {"id": "local/casez-pipeline", "benchmark": "local", "domain": "chip", "env": "iverilog+yosys", "env_params": {"iverilog": {"top": "tb", "timeout_s": 30}, "yosys": {"latches": false}}, "spec": "%s", "files": {"test.sv": "%s", "ref.sv": "%s"}, "reference": "%s"}}\n' \
	    "$(jstr "${P}_prompt.txt")" "$(jstr "${P}_test.sv")" "$(jstr "${P}_ref.sv")" "$(jstr "$T/ref_top.sv")"
	printf '{"task": "local/casez-pipeline", "candidate": {"origin": "latch", "code": "%s"}}\n' "$(jstr "$T/latch.sv")"
	printf '{"task": "local/casez-pipeline", "candidate": {"origin": "highest", "code": "%s"}}\n' "$(jstr "$T/highest.sv")"
} > "$T/tasks.jsonl"
"$ASSAY" --db "$DB" import "$T/tasks.jsonl" || fail "import"
expect_eq "a pipeline's candidates are Verilog" "$(count 'lang=verilog')" 3

"$ASSAY" --db "$DB" verify --env iverilog+yosys || fail "verify"
f() { "$ASSAY" --db "$DB" list --json --where "origin=$1" | sed -n "s/.*\"$2\":\"\([^\"]*\)\".*/\1/p"; }
m() { "$ASSAY" --db "$DB" list --json --where "origin=$1" | grep -o "\"$2\":[^,}]*" | head -n 1; }

# The reference passes both envs: the last env's stage ends the run.
expect_eq "reference" "$(f reference verdict)" pass
expect_eq "reference stage" "$(f reference stage)" "yosys:area"
expect_eq "reference simulated" "$(m reference iverilog.mismatches)" '"iverilog.mismatches":0'
m reference yosys.cells | grep -q '"yosys.cells":[1-9]' || fail "no yosys cell count"
echo "ok: both envs' metrics are kept"

# The latch: a pass in simulation, a failure in synthesis.
expect_eq "latch verdict" "$(f latch verdict)" fail
expect_eq "latch stage" "$(f latch stage)" "yosys:synth"
expect_eq "latch subcategory" "$(f latch subcategory)" latch
expect_eq "latch category" "$(f latch category)" functional
expect_eq "latch under iverilog" "$(m latch iverilog.verdict)" '"iverilog.verdict":"pass"'
expect_eq "latch under yosys" "$(m latch yosys.verdict)" '"yosys.verdict":"fail"'

# The wrong bit: synthesis is fine, simulation is not.
expect_eq "mismatch verdict" "$(f highest verdict)" fail
expect_eq "mismatch stage" "$(f highest stage)" "iverilog:simulate"
expect_eq "mismatch subcategory" "$(f highest subcategory)" mismatch
expect_eq "mismatch under yosys" "$(m highest yosys.verdict)" '"yosys.verdict":"pass"'
m highest iverilog.mismatches | grep -q '"iverilog.mismatches":[1-9]' ||
    fail "no mismatch count"

# show lists each env's stages, and the runs' logs name each env.
ID=$("$ASSAY" --db "$DB" list --json --where "origin=latch" | sed -n 's/.*"id":"\([^"]*\)".*/\1/p')
"$ASSAY" --db "$DB" show "$ID" > "$T/show.txt"
grep -q "^pipeline iverilog+yosys:" "$T/show.txt" || fail "show has no pipeline block"
grep -q "^  iverilog *pass *compile ✓ isolate ✓ simulate ✓" "$T/show.txt" ||
    fail "show: iverilog's stages: $(grep -A2 '^pipeline' "$T/show.txt")"
grep -q "^  yosys *fail *synth ✗ stat ✓ area ✓ area-stat ✓  latch" "$T/show.txt" ||
    fail "show: yosys's stages: $(grep -A2 '^pipeline' "$T/show.txt")"
grep -q "^== iverilog ==" "$T/show.txt" && grep -q "^== yosys ==" "$T/show.txt" ||
    fail "the log does not say which env runs"
"$ASSAY" --db "$DB" show --json "$ID" | grep -q '"pipeline":\[{"env":"iverilog","verdict":"pass"' ||
    fail "show --json has no pipeline"
echo "ok: show lists each env's stages"
# Unchanged inputs: nothing runs again.
"$ASSAY" --db "$DB" verify | grep -q "verified 0, unchanged 3" ||
    fail "a second verify ran again"
echo "ok: pipeline runs are cached by input hash"
