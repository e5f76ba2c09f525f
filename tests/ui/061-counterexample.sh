# 061-counterexample.sh - issue 26 item 3: the spec pane shows the run's
# counterexample under the evidence, the trace pane under the feedback.
# A yosys equivalence failure (a VerilogEval popcount whose + became ^):
# the inputs and both outputs;
# an x86-asm functional failure (the example dot product that drops its
# tail): the failing input vector and both results.  At 120x30 and 80x24.
. "$(dirname "$0")/lib.sh"
command -v yosys >/dev/null || skip "yosys not installed"

V=$DATA/verilog-eval-v2/Prob009_popcount3
# zoom_pane NAME TABS: focus pane NAME (TABS presses of Tab from the
# queue) and zoom it; once more from the queue if a key came too early.
zoom_pane() {
	wait_for "? help"
	for try in 1 2; do
		i=0
		while [ $i -lt "$2" ]; do keys Tab; i=$((i + 1)); done
		keys z
		n=30
		while [ $n -gt 0 ]; do
			screen | grep -F -q "$1 (zoomed)" && return 0
			sleep 0.1
			n=$((n - 1))
		done
		keys Escape
		sleep 0.3
		keys Escape
		sleep 0.3
	done
	fail "$1 did not zoom"
}
# shows PANE PATTERN WHAT: pane PANE has a line matching PATTERN.
shows() { pane "$1" | grep -q -- "$2" || fail "$1 pane: no $3"; }
jstr() { sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/\t/\\t/g' | awk 'BEGIN { ORS = "" } { print $0 "\\n" }'; }
{
	printf '{"task": {"id": "local/popcount3", "benchmark": "local", "domain": "chip", "env": "yosys", "env_params": {"equiv": true}, "spec": "%s", "files": {"popcount3_ref.sv": "%s"}}}\n' \
	    "$(jstr <"${V}_prompt.txt")" "$(jstr <"${V}_ref.sv")"
	printf '{"task": "local/popcount3", "candidate": {"origin": "popcount-op", "code": "%s"}}\n' \
	    "$(sed 's/\bRefModule\b/TopModule/; s/in\[0\]+in\[1\]/in[0]^in[1]/' "${V}_ref.sv" | jstr)"
} >"$T/tasks.jsonl"
"$ASSAY" --db "$DB" import "$T/tasks.jsonl" >/dev/null || fail "import"
"$ASSAY" --db "$DB" verify --quiet >/dev/null
ID=$("$ASSAY" --db "$DB" list --json --where "origin=popcount-op" | json_field id)
[ "$(row "$ID" | json_field verdict)" = fail ] || fail "the mutant did not fail: $(row "$ID")"

start 120 30 "--where id=$ID"
wait_for "$ID"
# the spec pane, focused and zoomed: the block under the evidence
zoom_pane spec 1
shows spec "^ *counterexample" "no counterexample block"
shows spec "not equivalent: the outputs differ at step 1" "no counterexample's first line"
shows spec "step 1 (differs): in=3'b[01]*" "no inputs"
shows spec "out: reference 2'b[01]*, candidate 2'b[01]*  <- differs" "no outputs"
ok "a yosys equivalence failure shows the solver's counterexample"
quit_all

# The trace pane, zoomed: the counterexample under the feedback a repair
# answers.
start 120 30 "--where id=$ID"
wait_for "$ID"
zoom_pane trace 4
shows trace "└ feedback: not equivalent to the reference" "trace: no feedback"
shows trace "counterexample: not equivalent: the outputs differ at step 1" "trace: no counterexample"
shows trace "out: reference 2'b[01]*, candidate 2'b[01]*  <- differs" "trace: no outputs"
ok "the trace pane shows it under the feedback"
quit_all

if [ "$(uname -m)" = x86_64 ] && command -v gcc >/dev/null; then
	EX=$(cd "$(dirname "$0")/../../examples/compiler" && pwd)
	"$ASSAY" --db "$DB" import "$EX"/dot_i32.jsonl >/dev/null || fail "import dot"
	X=$("$ASSAY" --db "$DB" list --json --where "task=assay-examples/dot_i32 origin=model-b" | json_field id)
	"$ASSAY" --db "$DB" verify --quiet --where "id=$X" >/dev/null
	start 80 24 "--where id=$X"
	wait_for "$X"
	zoom_pane spec 1
	shows spec "^ *counterexample" "x86: no counterexample block"
	shows spec "case 1 (random): a={-\?[0-9]*} b={-\?[0-9]*} n=1" "x86: no failing input vector"
	shows spec "return: reference -\?[0-9]*, candidate 0" "x86: no results"
	ok "an x86 functional failure shows its failing input and both results (80x24)"
	quit_all
fi
