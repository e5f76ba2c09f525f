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
# Three forgeries a review found, each passing before the fix (verdict
# pass, by the same command on the harness before it):
#   "reads-switch", plain PyTorch that walks sys._getframe() to the
#     tbrun frame's local `poison` and prints zeros only in the poisoned
#     run: the switch is named in no live frame and no global now, so
#     both runs print the right values: no-triton-kernel.  "unpoisons"
#     sets the harness's global POISON false: no-triton-kernel too.
#   "edges-only", a Triton kernel that computes the three first and three
#     last elements (the six torch's summary of a 1024-element tensor
#     shows) and 0 elsewhere: the checker compares every element,
#     stdout-mismatch "1017 of 1024 elements differ, the first at (3,)".
#   "replays-log", zeros and a print() of its own writing the reference's
#     stdout as the log used to show it: the value is the checker's to
#     print, stdout-mismatch; and no log holds the reference's output
#     (its first value, 2.5112, in that log: `show` of the other
#     candidates, whose logs held it before).
. "$(dirname "$0")/lib.sh"
need_triton no-gpu
D=$(dirname "$0")/../data/tritonbench/data
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
VENV=${ASSAY_VENV:-$(dirname "$ASSAY")/venv}

# The checker's rules one by one (tests/e2e/triton/tbcheck.py): every
# element compared, the reference's side never shown, and no frame or
# global of a poisoned run that differs from a plain one's.
"$VENV/bin/python3" -I -B -W ignore "$ROOT/tests/e2e/triton/tbcheck.py" \
    "$ROOT/share/envs/triton/kb_harness.py" >"$T/tbcheck" 2>&1 ||
    fail "tbcheck.py: $(tail -n 3 "$T/tbcheck")"

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
expect_eq "reading the poison switch" "$(v 'origin=reads-switch' subcategory)" '"subcategory":"no-triton-kernel"'
expect_eq "switching the poison off" "$(v 'origin=unpoisons' subcategory)" '"subcategory":"no-triton-kernel"'
expect_eq "six elements right" "$(v 'origin=edges-only' subcategory)" '"subcategory":"stdout-mismatch"'
expect_eq "replaying the log" "$(v 'origin=replays-log' subcategory)" '"subcategory":"stdout-mismatch"'
# (replays-log's own code holds that text, so its show is not searched)
for o in edges-only swapped Qwen2.5-72B-Instruct; do
    id=$("$ASSAY" --db "$DB" list --where "origin=$o" | awk 'NR==2 {print $1}')
    "$ASSAY" --db "$DB" show "$id" > "$T/show-$o" || fail "show $o"
    grep -q "stdout 0 bytes (not shown)" "$T/show-$o" || fail "$o: no stdout size in its log"
    ! grep -q "2\.5112" "$T/show-$o" || fail "$o: the reference's output in its log"
done
grep -q "1017 of 1024 elements differ, the first at (3,): got 0.0" "$T/show-edges-only" ||
    fail "edges-only: where it differs: $(grep -i differ "$T/show-edges-only")"
expect_eq "T sqrt" "$(v 'task=tritonbench-t/sqrt' verdict)" '"verdict":"pass"'
expect_eq "T relu_sqrt" "$(v 'task=tritonbench-t/relu_sqrt' verdict)" '"verdict":"pass"'
id=$("$ASSAY" --db "$DB" list --where 'origin=Qwen2.5-72B-Instruct' | awk 'NR==2 {print $1}')
"$ASSAY" --db "$DB" show "$id" --json | grep -q 'the value of result_gold is the reference.s in full, as the checker prints it (15360 elements)' || fail "evidence"
