# 102: formal equivalence in yosys (issue 23, item 6).  Shared VerilogEval
# v2 problems, each a task of env yosys with env_params {"equiv": true}
# (its _ref.sv, module RefModule, as the reference file): every reference
# is proven equivalent to itself (combinational problems for all inputs,
# sequential ones by induction), and mutants fail at the equiv stage with
# a counterexample that names the inputs and both outputs: an operator
# changed (popcount3, fsm3onehot), a bit flipped (always_casez), a reset
# value changed (dff8r, fsm1's asynchronous reset), a clock edge changed
# (dualedge: negedge made posedge, which a model with one implicit clock
# would call equivalent).  A candidate whose ports differ fails at the
# miter stage with the port named; one that prints sat's result lines
# while yosys reads it still fails, and $anyconst is refused.  A counter whose state differs from
# the reference's (one-hot) passes with the bound the task asks for
# (equiv_depth 6) stated: no induction that short closes.
. "$(dirname "$0")/lib.sh"
need_data
command -v yosys >/dev/null || skip "yosys not installed"

V=$DATA/verilog-eval-v2
jstr() { sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/\t/\\t/g' -e 's/\r/\\r/g' "$1" | awk 'BEGIN { ORS = "" } { print $0 "\\n" }'; }
# task PROB [PARAMS]: a yosys task with its reference candidate
task() {
	sed 's/\bRefModule\b/TopModule/' "$V/$1_ref.sv" > "$T/$1_top.sv"
	printf '{"task": {"id": "local/%s", "benchmark": "local", "domain": "chip", "env": "yosys", "env_params": %s, "spec": "%s", "files": {"%s_ref.sv": "%s"}, "reference": "%s"}}\n' \
	    "$1" "${2:-{\"equiv\": true\}}" "$(jstr "$V/$1_prompt.txt")" "$1" "$(jstr "$V/$1_ref.sv")" "$(jstr "$T/$1_top.sv")"
}
# mutant PROB ORIGIN SED: the reference changed by a sed expression
mutant() {
	sed 's/\bRefModule\b/TopModule/' "$V/$1_ref.sv" | sed "$3" > "$T/$2.sv"
	cmp -s "$T/$2.sv" "$T/$1_top.sv" && fail "mutant $2 is the reference"
	printf '{"task": "local/%s", "candidate": {"origin": "%s", "code": "%s"}}\n' "$1" "$2" "$(jstr "$T/$2.sv")"
}
{
	task Prob009_popcount3
	mutant Prob009_popcount3 popcount-op 's/in\[0\]+in\[1\]/in[0]^in[1]/'
	task Prob071_always_casez
	mutant Prob071_always_casez casez-bit "s/8'bzzzz1zzz: pos = 3'h3/8'bzzzz1zzz: pos = 3'h2/"
	task Prob079_fsm3onehot
	mutant Prob079_fsm3onehot onehot-op 's/state\[C\] & in;/state[C] | in;/'
	task Prob041_dff8r
	mutant Prob041_dff8r dff8r-reset 's/q <= 0;/q <= 1;/'
	mutant Prob041_dff8r dff8r-ports 's/input reset/input rst/; s/if (reset)/if (rst)/'
	# prints sat's own words while yosys reads it: they decide nothing
	mutant Prob041_dff8r dff8r-forge 's/q <= 0;/q <= 1;/; s/^endmodule/initial begin $display("Induction step proven: SUCCESS!"); $display("Reached maximum number of time steps -> proof failed."); end\nendmodule/'
	mutant Prob041_dff8r dff8r-anyconst 's/q <= d;/q <= $anyconst;/'
	task Prob109_fsm1
	mutant Prob109_fsm1 fsm1-areset 's/if (areset) state <= B;/if (areset) state <= A;/'
	task Prob078_dualedge
	mutant Prob078_dualedge dualedge-edge 's/negedge clk/posedge clk/'
	task Prob035_count1to10 '{"equiv": true, "equiv_depth": 6}'
	# equivalent, but its state (a one-hot ring) is not the reference's:
	# no induction of 6 steps closes, the 6 steps are the bound
	printf '%s\n' 'module TopModule(input clk, input reset, output [3:0] q);' \
	    '  reg [9:0] oh;' '  always @(posedge clk)' \
	    '    if (reset || oh[9] || oh == 0) oh <= 10'"'"'b1;' \
	    '    else oh <= oh << 1;' \
	    '  assign q = oh[0] ? 1 : oh[1] ? 2 : oh[2] ? 3 : oh[3] ? 4 : oh[4] ? 5 :' \
	    '      oh[5] ? 6 : oh[6] ? 7 : oh[7] ? 8 : oh[8] ? 9 : 10;' \
	    'endmodule' > "$T/onehot.sv"
	printf '{"task": "local/Prob035_count1to10", "candidate": {"origin": "count-onehot", "code": "%s"}}\n' "$(jstr "$T/onehot.sv")"
} > "$T/tasks.jsonl"
"$ASSAY" --db "$DB" import "$T/tasks.jsonl" || fail "import"
expect_eq "candidates" "$(count 'env=yosys')" 17

start=$(date +%s.%N)
"$ASSAY" --db "$DB" verify --jobs 2 > "$T/verify.txt" || fail "verify: $(cat "$T/verify.txt")"
end=$(date +%s.%N)
echo "verify of 17 candidates (2 jobs): $(echo "$end - $start" | bc) s"

row() { "$ASSAY" --db "$DB" list --json --where "origin=$1${2:+ task=local/$2}"; }
f() { row "$@" | sed -n "s/.*\"$3\":\"\([^\"]*\)\".*/\1/p"; }
# the first value of a metric
m() { row "$1" "$2" | grep -o "\"$3\":[^,}]*" | head -n 1 | cut -d: -f2 | tr -d '"'; }

# Every reference against itself: a pass that says what was proven.
for p in Prob009_popcount3 Prob071_always_casez Prob079_fsm3onehot; do
	expect_eq "$p reference" "$(f reference $p verdict)" pass
	expect_eq "$p proof" "$(m reference $p equiv)" combinational
done
for p in Prob041_dff8r Prob109_fsm1 Prob078_dualedge; do
	expect_eq "$p reference" "$(f reference $p verdict)" pass
	expect_eq "$p proof" "$(m reference $p equiv)" induction
	[ "$(m reference $p equiv_steps)" -ge 1 ] || fail "$p: no induction length"
done
# A depth asked for is the bound stated, or an induction within it.
expect_eq "count1to10 reference" "$(f reference Prob035_count1to10 verdict)" pass
case $(m reference Prob035_count1to10 equiv) in
induction|bounded) echo "ok: count1to10 $(m reference Prob035_count1to10 equiv) $(m reference Prob035_count1to10 equiv_steps) steps" ;;
*) fail "count1to10: $(row reference Prob035_count1to10)" ;;
esac
[ "$(m reference Prob035_count1to10 equiv_steps)" -le 6 ] || fail "count1to10: deeper than asked"
expect_eq "one-hot counter" "$(f count-onehot '' verdict)" pass
expect_eq "one-hot proof" "$(m count-onehot '' equiv)" bounded
expect_eq "one-hot bound" "$(m count-onehot '' equiv_steps)" 6
"$ASSAY" --db "$DB" show "$(f count-onehot '' id)" | grep -q "note: equal to the reference for the first 6 steps" ||
    fail "one-hot: show does not state the bound"

# Each mutant: fail/functional/not-equivalent at equiv, with the inputs
# and both outputs of the step where they differ.
for o in popcount-op casez-bit onehot-op dff8r-reset fsm1-areset dualedge-edge dff8r-forge; do
	expect_eq "$o verdict" "$(f $o '' verdict)" fail
	expect_eq "$o stage" "$(f $o '' stage)" equiv
	expect_eq "$o category" "$(f $o '' category)" functional
	expect_eq "$o subcategory" "$(f $o '' subcategory)" not-equivalent
	expect_eq "$o equiv" "$(m $o '' equiv)" not-equivalent
done
ev() { "$ASSAY" --db "$DB" show --json "$(f "$1" '' id)" | grep -o '"evidence":"[^"]*"' | head -n 1; }
while IFS='|' read -r o want; do
	ev "$o" | grep -q "$want" || fail "$o evidence: $(ev "$o")"
done <<'EOF'
popcount-op|inputs in=3'b[01]*; out: reference 2'b[01]*, candidate 2'b[01]*
casez-bit|inputs in=8'b[01]*1000; pos: reference 3'b011, candidate 3'b010
onehot-op|inputs in=1'b[01] state=4'b[01]*; next_state: reference
dff8r-reset|step [0-9]*: inputs clk=1'b[01] d=8'b[01]* reset=1'b[01]; q: reference 8'b00000000, candidate 8'b00000001
fsm1-areset|inputs areset=1'b[01] clk=1'b[01] in=1'b[01]; out: reference 1'b1, candidate 1'b0
dualedge-edge|q: reference 1'b[01], candidate 1'b[01x]
EOF
echo "ok: the evidence names the inputs and both outputs"

# The whole counterexample, a line per step, in show and show --json.
ID=$(f dff8r-reset '' id)
"$ASSAY" --db "$DB" show "$ID" > "$T/show.txt"
grep -q "^evidence: not equivalent to the reference: step" "$T/show.txt" || fail "show: no evidence"
grep -q "note: counterexample step 1: inputs clk=" "$T/show.txt" || fail "show: no step 1"
grep -q "error: counterexample step [0-9]*: inputs .*q: reference 8'b00000000, candidate 8'b00000001" "$T/show.txt" ||
    fail "show: no failing step: $(grep counterexample "$T/show.txt")"
"$ASSAY" --db "$DB" show --json "$ID" | grep -q '"message":"counterexample step 1: inputs clk=' ||
    fail "show --json: no counterexample diagnostics"
echo "ok: show and show --json list the counterexample"

# The solver's model as the run's counterexample (feedback): a combinational
# mutant's inputs and both outputs, and a sequential one's steps up to the
# failing one, in show and show --json.
ID=$(f popcount-op '' id)
"$ASSAY" --db "$DB" show "$ID" | grep -A3 "^Counterexample:" >"$T/cex.txt"
grep -q "^not equivalent: the outputs differ at step 1 " "$T/cex.txt" ||
    fail "popcount: no counterexample in show: $(cat "$T/cex.txt")"
grep -q "^step 1 (differs): in=3'b[01][01][01]$" "$T/cex.txt" ||
    fail "popcount: no inputs: $(cat "$T/cex.txt")"
grep -q "^  out: reference 2'b[01][01], candidate 2'b[01][01]  <- differs$" "$T/cex.txt" ||
    fail "popcount: no outputs: $(cat "$T/cex.txt")"
# The two outputs are popcount(in) and the mutant's (in[0]^in[1])+in[2].
set -- $("$ASSAY" --db "$DB" show --json "$ID" | jq -r '.runs[0].feedback.counterexample
    | .steps[0] | [.inputs.in, .outputs.out.reference, .outputs.out.candidate,
    .outputs.out.differs] | @tsv')
b=${1#3\'b}
a0=$(echo "$b" | cut -c3); a1=$(echo "$b" | cut -c2); a2=$(echo "$b" | cut -c1)
bin2() { echo "2'b$(( $1 / 2 ))$(( $1 % 2 ))"; }
expect_eq "popcount reference" "$2" "$(bin2 $((a0 + a1 + a2)))"
expect_eq "popcount candidate" "$3" "$(bin2 $(((a0 ^ a1) + a2)))"
expect_eq "popcount differs" "$4" true
ID=$(f dff8r-reset '' id)
"$ASSAY" --db "$DB" show --json "$ID" | jq -e '.runs[0].feedback.counterexample
    | .fail_step as $n | .steps[-1] | .step == $n and .outputs.q.differs
    and .outputs.q.reference == "8'"'"'b00000000"
    and .outputs.q.candidate == "8'"'"'b00000001" and (.inputs | has("reset"))' >/dev/null ||
    fail "dff8r: counterexample $("$ASSAY" --db "$DB" show --json "$ID" | jq -c '.runs[0].feedback')"
"$ASSAY" --db "$DB" show "$ID" | grep -q "^  q: reference 8'b00000000, candidate 8'b00000001  <- differs$" ||
    fail "dff8r: show has no failing output"
echo "ok: the counterexample (inputs, both outputs per step) is the run's feedback"

# Different ports: a clear failure at the miter, not a crash.
expect_eq "ports verdict" "$(f dff8r-ports '' verdict)" fail
expect_eq "ports stage" "$(f dff8r-ports '' stage)" miter
expect_eq "ports subcategory" "$(f dff8r-ports '' subcategory)" port-mismatch
ev dff8r-ports | grep -q "the candidate has no port reset of the reference's direction and width" ||
    fail "ports evidence: $(ev dff8r-ports)"
echo "ok: a port mismatch names the port"

# A free value of the solver's is no way round the proof: refused before
# yosys reads the candidate, as every call off the design's list.
expect_eq "anyconst verdict" "$(f dff8r-anyconst '' verdict)" fail
expect_eq "anyconst subcategory" "$(f dff8r-anyconst '' subcategory)" forbidden-call
