# 300: TritonBench, both channels (issue 27 item 4, ADR 0046), on real
# rows of thunlp/TritonBench (tests/data/tritonbench/README.md): the test
# code appended, execution accuracy by identical stdout, judged by the
# checker, on the CPU path where no GPU is.
#
# Golden verdicts, obtained by running `kb_harness.py tbeval` by hand with
# build/venv/bin/python3 (torch 2.15, triton 3.9, no GPU) on each
# candidate, outside assay:
#   kldiv_compute (G): the reference and Qwen2.5-72B-Instruct's answer
#     (TritonBench's LLM_generated rows, as its 0_call_acc.py writes
#     them) print what the reference prints: pass; x and y swapped:
#     stdout differs at line 1; plain PyTorch: the same stdout even with
#     Triton's stores poisoned, no-triton-kernel; a candidate that runs
#     the task's reference from the work area finds it gone (the checker
#     removed it before any candidate code ran), so kldivergence is
#     undefined: NameError, api/name-error.
#   "poison-aware", plain PyTorch that looks for the poisoned run on its
#     command line to print zeros there, finds nothing to tell them apart
#     (the switch comes on stdin): no-triton-kernel.
#   sqrt, relu_sqrt (T, PyTorch references): our Triton kernels pass.
. "$(dirname "$0")/lib.sh"
need_triton no-gpu
D=$(dirname "$0")/../data/tritonbench/data

"$ASSAY" --db "$DB" import "$D" > "$T/imp" 2>&1 || fail "import: $(cat "$T/imp")"
grep -q "3 new tasks, 1 new candidate" "$T/imp" || fail "import: $(cat "$T/imp")"
"$ASSAY" --db "$DB" import --format tritonbench "$D" | grep -q "0 new tasks, 0 new candidates" ||
    fail "a second import added something"
"$ASSAY" --db "$DB" export --format raw --where "task=tritonbench-g/kldiv_compute origin=reference" > "$T/g.jsonl"
grep -q '"env_params":{"eval":"stdout"}' "$T/g.jsonl" || fail "G task's env_params"
grep -q '"name":"test_kldiv_compute.py","role":"testbench"' "$T/g.jsonl" || fail "G task's test file"
grep -q 'Kullback-Leibler' "$T/g.jsonl" || fail "G task's instruction (comp_instru)"
grep -q 'result_gold = test_kldivergence()' "$T/g.jsonl" || fail "the test code"
"$ASSAY" --db "$DB" export --format raw --where "task=tritonbench-t/sqrt" > "$T/t.jsonl" 2>/dev/null
expect_eq "T references are no candidates" "$(count 'task=tritonbench-t/sqrt')" 0
"$ASSAY" --db "$DB" import "$(dirname "$0")/tritonbench/candidates.jsonl" > /dev/null || fail "candidates"

"$ASSAY" --db "$DB" verify --jobs 2 --quiet > /dev/null
v() { "$ASSAY" --db "$DB" list --json --where "$1" | grep -o "\"$2\":\"[a-z-]*\"" | head -n 1; }
expect_eq "G reference" "$(v 'task=tritonbench-g/kldiv_compute origin=reference' verdict)" '"verdict":"pass"'
expect_eq "Qwen's answer" "$(v 'origin=Qwen2.5-72B-Instruct' verdict)" '"verdict":"pass"'
expect_eq "its subcategory" "$(v 'origin=Qwen2.5-72B-Instruct' subcategory)" '"subcategory":"cpu-interpreter"'
expect_eq "swapped" "$(v 'origin=swapped' subcategory)" '"subcategory":"stdout-mismatch"'
expect_eq "plain PyTorch" "$(v 'origin=torch-only' subcategory)" '"subcategory":"no-triton-kernel"'
expect_eq "its category" "$(v 'origin=torch-only' category)" '"category":"api"'
expect_eq "PyTorch that looks for the poison" "$(v 'origin=poison-aware' subcategory)" '"subcategory":"no-triton-kernel"'
expect_eq "reading the answer" "$(v 'origin=reads-answer' subcategory)" '"subcategory":"name-error"'
expect_eq "T sqrt" "$(v 'task=tritonbench-t/sqrt' verdict)" '"verdict":"pass"'
expect_eq "T relu_sqrt" "$(v 'task=tritonbench-t/relu_sqrt' verdict)" '"verdict":"pass"'
id=$("$ASSAY" --db "$DB" list --where 'origin=Qwen2.5-72B-Instruct' | awk 'NR==2 {print $1}')
"$ASSAY" --db "$DB" show "$id" --json | grep -q 'stdout identical to the reference' || fail "evidence"
