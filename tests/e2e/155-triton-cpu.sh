# 155: KernelBench without a GPU (issue 16).  Imports the shared
# KernelBench dump (10 level-1 problems, the Triton kernels a model wrote
# for them, their recorded H200 results) and two kernels of our own for
# problem 19 (examples/gpu/triton-cpu: one deliberately wrong, one that
# allocates on the "cuda" device by name), verifies them all with the
# project venv's PyTorch and Triton where no GPU is: the reference on the
# CPU, the kernels in Triton's interpreter, problem sizes cut by value to 8
# (batches, channels and features to 2; a value of both kinds to 8),
# atol = rtol = 1e-2; the checker replays two trials from the worker's
# trace with every value the kernels store randomized, to prove that
# Triton computes the output (ADR 0036, 0048).  Prints,
# per kernel, what the CPU path concluded beside what was recorded on
# the H200.
#
# Golden outcomes, obtained by running kb_harness.py eval by hand with
# build/venv/bin/python3 on each problem and kernel (outside assay): 9 of
# the 10 recorded kernels match the reference in 5 of 5 trials (max abs
# diff 0 to 1e-6); problem 100's (HingeLoss) matches in 2 of 5: it takes
# the target of each row where PyTorch broadcasts the targets along the
# columns, which the mean over 32768 x 32768 elements hid on the H200 and
# 8 x 8 does not (batch_size and input_shape share 32768, so the larger
# cap, 8, cuts both since issue 23; trial 1 max abs diff 0.125; at the
# 2 x 2 of before, 0.394); relu-wrong differs in 5 of 5 (max abs diff
# 0.37 to 0.48); relu-cuda stops at torch.empty(device="cuda").
. "$(dirname "$0")/lib.sh"
need_data
KB=$DATA/kernelbench
[ -d "$KB/level1" ] || skip "no KernelBench data at $KB"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
need_triton no-gpu

"$ASSAY" --db "$DB" import "$KB" >/dev/null 2>&1 || fail "import"
"$ASSAY" --db "$DB" import "$ROOT/examples/gpu/triton-cpu/relu.jsonl" \
    >/dev/null || fail "import relu.jsonl"
expect_eq "candidates" "$(count 'env=triton')" 13
"$ASSAY" --db "$DB" verify --jobs 2 --where "env=triton" >"$T/verify" 2>&1
tail -n 1 "$T/verify"

row() {	# TASK ORIGIN: the candidate's list row
	"$ASSAY" --db "$DB" list --json --where "task=kernelbench/level1/$1 origin=$2" |
	    head -n 1
}
val() { printf '%s\n' "$1" | grep -o "\"$2\":\(\"[^\"]*\"\|[^,}]*\)" | head -n 1 | cut -d: -f2- | tr -d '"'; }

printf '%-40s %-28s %s\n' PROBLEM "RECORDED (H200)" "CPU PATH" >"$T/table"
for task in 1_Square_matrix_multiplication_ 4_Matrix_vector_multiplication_ \
    12_Matmul_with_diagonal_matrices_ 19_ReLU 23_Softmax 36_RMSNorm_ \
    43_Max_Pooling_3D 47_Sum_reduction_over_a_dimension 88_MinGPTNewGelu \
    100_HingeLoss; do
	r=$(row "$task" unknown)
	id=$(val "$r" id)
	"$ASSAY" --db "$DB" show "$id" >"$T/show"
	rec=$(sed -n 's/^--- recorded: \([a-z]*\) .*/\1/p' "$T/show" | head -n 1)
	sp=$(grep -o 'speedup [0-9.]*x' "$T/show" | head -n 1)
	v=$(val "$r" verdict)
	printf '%-40s %-28s %s\n' "$task" "$rec, $sp" "$v at $(val "$r" stage) $(val "$r" subcategory)" >>"$T/table"
	expect_eq "$task stage" "$(val "$r" stage)" correctness
	"$ASSAY" --db "$DB" show --json "$id" >"$T/show.json"
	if [ "$task" = 100_HingeLoss ]; then
		expect_eq "$task verdict" "$v" fail
		expect_eq "$task category" "$(val "$r" category)" functional
		expect_eq "$task subcategory" "$(val "$r" subcategory)" mismatch
		printf '%s\n' "$r" | grep -q '"correct_trials":2' ||
			fail "$task metrics: $r"
		grep -q 'in 3 of 5 trials (trial 1: max abs diff 0.125, atol = rtol = 0.01) on the CPU (Triton.s interpreter; sizes cut: batch_size 32768->8, input_shape (32768,)->(8,))' "$T/show.json" ||
			fail "$task evidence: $(grep -o '"evidence":"[^"]*' "$T/show.json")"
		continue
	fi
	expect_eq "$task verdict" "$v" pass
	# A pass of Triton's interpreter at cut sizes says so (ADR 0036):
	# in its subcategory, its metrics, the evidence, list and show.
	expect_eq "$task subcategory" "$(val "$r" subcategory)" cpu-interpreter
	printf '%s\n' "$r" | grep -q '"mode":"cpu-interpreter, sizes cut"' ||
		fail "$task metrics: $r"
	grep -q '"evidence":"pass (cpu-interpreter, sizes cut): correct on the CPU (Triton.s interpreter; sizes cut: ' "$T/show.json" ||
		fail "$task evidence: $(grep -o '"evidence":"[^"]*' "$T/show.json")"
	grep -q 'in 5 of 5 trials (atol = rtol = 0.01); Triton on the output path: replayed by the checker with its stores randomized, 2 of 2 trials come out wrong; timing skipped: no GPU' "$T/show.json" ||
		fail "$task: trials, Triton or timing: $(grep -o '"evidence":"[^"]*' "$T/show.json")"
	grep -q 'pass (cpu-interpreter, sizes cut)' "$T/show" || fail "$task: show"
	"$ASSAY" --db "$DB" list --where "task=kernelbench/level1/$task origin=unknown" |
	    grep -q ' pass  *correctness cpu-interpreter ' || fail "$task: list"
	# The logged command names the tolerance the judge used.
	grep -q -- '--cpu-atol 0.01 --cpu-rtol 0.01' "$T/show" ||
		fail "$task: the command: $(grep -- '--atol' "$T/show")"
done

# The wrong kernel fails, the one that needs CUDA is skipped: never pass.
r=$(row 19_ReLU relu-wrong)
expect_eq "relu-wrong verdict" "$(val "$r" verdict)" fail
expect_eq "relu-wrong stage" "$(val "$r" stage)" correctness
expect_eq "relu-wrong category" "$(val "$r" category)" functional
expect_eq "relu-wrong subcategory" "$(val "$r" subcategory)" mismatch
printf '%s\n' "$r" | grep -q '"correct_trials":0' || fail "relu-wrong metrics: $r"
echo "ok: relu-wrong fails in 5 of 5 trials"
# Its counterexample, the checker's first mismatching element: max(x, 0.5)
# where ReLU is max(x, 0), so the candidate's value is 0.5 and the
# reference's below it by more than the tolerance, 0.01 + 0.01 x 0.5.
"$ASSAY" --db "$DB" show --json "$(val "$r" id)" >"$T/wrong.json"
jq -e '.runs[0].feedback.counterexample | .trial == 1 and .candidate == 0.5
    and .reference >= 0 and .reference < 0.485 and .tolerance == 0.015
    and .atol == 0.01 and .rtol == 0.01 and (.index | length) == 2
    and .mismatches >= 1 and .mismatches <= .elements' "$T/wrong.json" >/dev/null ||
	fail "relu-wrong counterexample: $(jq -c '.runs[0].feedback' "$T/wrong.json")"
"$ASSAY" --db "$DB" show "$(val "$r" id)" | grep -A3 '^Counterexample:' >"$T/wrong.txt"
grep -q '^first mismatching element: index \[[0-9]*, [0-9]*\] (trial 1)$' "$T/wrong.txt" &&
    grep -q '^candidate 0.5, reference [0-9.e-]*: difference [0-9.e-]*, tolerance 0.015 (atol 0.01 + rtol 0.01 x |candidate|)$' "$T/wrong.txt" ||
	fail "relu-wrong counterexample in show: $(cat "$T/wrong.txt")"
echo "ok: relu-wrong's counterexample: its first wrong element, both values, the tolerance"
r=$(row 19_ReLU relu-half)
expect_eq "relu-half verdict" "$(val "$r" verdict)" fail
expect_eq "relu-half subcategory" "$(val "$r" subcategory)" dtype-mismatch
"$ASSAY" --db "$DB" show --json "$(val "$r" id)" |
    grep -q '"evidence":"output dtype float16, want float32' ||
	fail "relu-half evidence"
r=$(row 19_ReLU relu-cuda)
expect_eq "relu-cuda verdict" "$(val "$r" verdict)" skipped
expect_eq "relu-cuda subcategory" "$(val "$r" subcategory)" cuda-only
expect_eq "relu-cuda category" "$(val "$r" category)" null
"$ASSAY" --db "$DB" show --json "$(val "$r" id)" |
    grep -q '"evidence":"skipped: the candidate cannot run without a GPU: ' ||
	fail "relu-cuda evidence"
printf '%-40s %-28s %s\n' "19_ReLU relu-wrong (ours)" "-" "fail mismatch" >>"$T/table"
printf '%-40s %-28s %s\n' "19_ReLU relu-cuda (ours)" "-" "skipped cuda-only" >>"$T/table"
printf '%-40s %-28s %s\n' "19_ReLU relu-half (ours)" "-" "fail dtype-mismatch" >>"$T/table"
cat "$T/table"
