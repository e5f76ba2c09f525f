# 130: the x86-asm env (issue 4).  Imports the compiler examples
# (examples/compiler: dot product, sum, byte maximum), verifies them in
# the sandbox and checks each candidate's verdict and category: the
# references (gcc -O2 output) and the faster candidates pass, a dropped
# tail and a read of a[0] when n = 0 mismatch, a clobbered rbx is an ABI
# violation, AT&T code in an Intel task does not assemble, the input
# copied back is performance/copied-input and a correct but slower one
# is performance/slower-than-reference.
. "$(dirname "$0")/lib.sh"
[ "$(uname -m)" = x86_64 ] || skip "x86-asm needs an x86-64 host"
command -v gcc >/dev/null || skip "gcc not installed"
command -v as >/dev/null || skip "as not installed (binutils)"

EX=$(cd "$(dirname "$0")/../../examples/compiler" && pwd)
"$ASSAY" --db "$DB" import "$EX"/*.jsonl >"$T/import" 2>&1 ||
	fail "import: $(cat "$T/import")"
expect_eq "compiler candidates" "$(count "domain=compiler")" 13
expect_eq "their env" "$(count "env=x86-asm")" 13

"$ASSAY" --db "$DB" verify --jobs 2 --check >"$T/verify" 2>&1
expect_eq "verify --check with failures" $? 1

# row TASK ORIGIN: the candidate's line of list --json.
row() {
	"$ASSAY" --db "$DB" list --json --where \
	    "task=assay-examples/$1 origin=$2"
}
# get TASK ORIGIN KEY: a string field of that line ("null" when null).
get() {
	row "$1" "$2" |
	    sed -n "s/.*\"$3\":\(\"[^\"]*\"\|null\).*/\1/p" | tr -d '"'
}
# want TASK ORIGIN VERDICT CATEGORY SUBCATEGORY
want() {
	expect_eq "$1 $2" "$(get "$1" "$2" verdict)/$(get "$1" "$2" \
	    category)/$(get "$1" "$2" subcategory)" "$3/$4/$5"
}

want dot_i32 reference pass null null
if grep -q sse4_1 /proc/cpuinfo; then
	want dot_i32 model-a pass null null
fi
want dot_i32 model-b fail functional mismatch
want dot_i32 model-c fail functional abi-violation
want dot_i32 model-d fail performance copied-input
want sum_i32 reference pass null null
want sum_i32 model-a pass null null
want sum_i32 model-b fail compile syntax-error
want sum_i32 model-d fail performance copied-input
want max_u8 reference pass null null
want max_u8 model-a pass null null
want max_u8 model-b fail functional mismatch
want max_u8 model-c fail performance slower-than-reference

# The evidence a reviewer reads.
id=$(get dot_i32 model-b id)
"$ASSAY" --db "$DB" show "$id" >"$T/show" || fail "show $id"
# The failing inputs are the counterexample member's alone (a request
# without the members must not carry them): the evidence is the
# equivalence summary, and the checker's MISMATCH/COUNTEREXAMPLE lines
# leave the log for one line that says where they went.
grep -q "^evidence: equivalence: FAIL ([0-9]* mismatches / 2001 cases)$" "$T/show" ||
	fail "the evidence is not the equivalence summary: $(cat "$T/show")"
grep -q "^equivalence: FAIL ([0-9]* mismatches / 2001 cases)" "$T/show" ||
	fail "no equivalence summary"
grep -q "MISMATCH n=\|COUNTEREXAMPLE" "$T/show" &&
	fail "the log keeps the checker's failing inputs: $(cat "$T/show")"
grep -q "^([0-9]* checker lines taken out of the log: the failing inputs and callgrind's hot lines are the run's feedback members counterexample and hot_lines; show prints them)$" "$T/show" ||
	fail "no line says where the checker's lines went"
echo "ok: the dropped tail: the summary its evidence, its inputs out of the log"
# Its counterexample (the checker's line, never the candidate's): the
# failing input vector and both results, in show and show --json.
grep -A2 "^Counterexample:" "$T/show" >"$T/cex"
grep -q "^case 1 (random): a={-\?[0-9]*} b={-\?[0-9]*} n=1$" "$T/cex" ||
	fail "no failing input vector in show: $(cat "$T/cex")"
grep -q "^return: reference -\?[0-9]*, candidate 0$" "$T/cex" ||
	fail "no results in show: $(cat "$T/cex")"
"$ASSAY" --db "$DB" show --json "$id" | jq -e '.runs[0].feedback.counterexample
    | .case == 1 and .n == 1 and .inputs.n == "1" and .at == "return"
    and .candidate == "0" and (.reference | test("^-?[0-9]+$"))
    and .reference != "0" and (.inputs.a | test("^[{]-?[0-9]+[}]$"))' >/dev/null ||
	fail "show --json: counterexample $("$ASSAY" --db "$DB" show --json "$id" | jq -c '.runs[0].feedback')"
echo "ok: the dropped tail's counterexample: case 1, its inputs, both results"
id=$(get max_u8 model-b id)
"$ASSAY" --db "$DB" show --json "$id" | jq -e '.runs[0].feedback.counterexample
    | .n == 0 and .inputs.n == "0" and .reference == "0"' >/dev/null ||
	fail "the empty array is not the counterexample of max_u8 model-b: $("$ASSAY" --db "$DB" show --json "$id" | jq -c '.runs[0].feedback')"
echo "ok: reading a[0] of an empty array is caught at n=0"

id=$(get dot_i32 model-c id)
"$ASSAY" --db "$DB" show "$id" >"$T/show"
grep -q "^evidence: ABI asm clobbered callee-saved rbx" "$T/show" ||
	fail "the clobbered register is not named: $(cat "$T/show")"
grep -q "^evidence points to candidate line 9$" "$T/show" ||
	fail "the evidence does not point at the first use of rbx"
echo "ok: the ABI violation names rbx and its line"

id=$(get sum_i32 model-b id)
"$ASSAY" --db "$DB" show "$id" | grep -q "^evidence: cand.s:[0-9]*: Error: " ||
	fail "no assembler error line as evidence"
echo "ok: an assembler error is the evidence, on a candidate line"

# The secret of the harness's result lines never reaches the log.
id=$(get dot_i32 reference id)
"$ASSAY" --db "$DB" show "$id" >"$T/show"
grep -q "^equivalence: PASS (0 mismatches / 2001 cases)$" "$T/show" ||
	fail "no clean equivalence line in the log: $(cat "$T/show")"
grep -Eq "^timing: ref [0-9.]+ ns/call, asm [0-9.]+ ns/call, ratio" "$T/show" ||
	fail "no timing line"
echo "ok: the stored log holds the harness's lines without their secret"

# Both speed measures are metrics; a faster candidate beats both.
m=$(row max_u8 model-a)
echo "$m" | grep -q '"time_ratio":' || fail "no time_ratio: $m"
echo "$m" | grep -q '"time_noise":false' || fail "30x is not noise: $m"
if command -v valgrind >/dev/null; then
	for k in ir_ref ir_cand ir_ratio; do
		echo "$m" | grep -q "\"$k\":" || fail "no $k: $m"
	done
	# The reference against itself: callgrind counts are equal.
	r=$(row max_u8 reference)
	echo "$r" | grep -q '"ir_ratio":1[,.}]' ||
		fail "reference ir_ratio is not 1: $r"
	echo "$r" | grep -q '"ir_noise":true' || fail "no noise flag: $r"
	echo "ok: callgrind counts and the timing ratio are metrics"
else
	echo "ok: timing ratio only (valgrind not installed)"
fi

# Nothing changed: nothing runs again.
"$ASSAY" --db "$DB" verify >"$T/again" 2>&1
grep -q "verified 0, unchanged 13" "$T/again" ||
	fail "re-verify: $(cat "$T/again")"
echo "ok: unchanged candidates are not run again"
