# 300: TritonBench, both channels (issue 27 item 4, ADR 0046), on real
# rows of thunlp/TritonBench (tests/data/tritonbench/README.md): the test
# code appended, execution accuracy by identical stdout, judged by the
# checker, on the CPU path where no GPU is; Triton on the output path
# proved by the checker's replay of the candidate's recorded run (ADR
# 0057, amending 0046: there is no poisoned second run any more).
#
# Golden verdicts, obtained by running `kb_harness.py tbeval` by hand with
# build/venv/bin/python3 (torch 2.15, triton 3.9, no GPU) on each
# candidate, outside assay, in a directory holding the reference, the
# test, the candidate and a nonce file:
#   kldiv_compute (G): the reference and Qwen2.5-72B-Instruct's answer
#     (TritonBench's LLM_generated rows, as its 0_call_acc.py writes
#     them) print what the reference prints: pass; x and y swapped:
#     stdout-mismatch (the value differs at its first element); plain
#     PyTorch: replayed with Triton's stores randomized the value is
#     still the reference's, no-triton-kernel; a candidate that runs
#     the task's reference from the work area finds it gone (the checker
#     removed it before any candidate code ran), so kldivergence is
#     undefined: NameError, api/name-error.
#   "poison-aware", "reads-switch", "unpoisons": plain PyTorch that looked
#     for the old poisoned run (its command line, the tbrun frame's
#     local, the harness's global): there is none, no-triton-kernel.
#   sqrt, relu_sqrt (T, PyTorch references): our Triton kernels pass.
#   "triton-then-torch": Triton computes log(x / y), PyTorch multiplies
#     by x: pass (the replay's randomized value is wrong).
# Four attacks that passed on the harness before ADR 0057 (verdict pass,
# the same command on main at df3eb4c) and fail now, no-triton-kernel,
# "replayed by the checker with every value its Triton kernels store
# randomized, the value is still the reference's":
#   "probe-kernel": a Triton copy of torch.arange(16) checked, zeros when
#     it is wrong (the poisoned run), plain PyTorch otherwise;
#   "inspects-wrappers": looks in the closure of the interpreter's
#     create_masked_store for the harness's poisoning function;
#   "launder": torch's answer + a Triton copy's sum * 0 (NaN * 0 was NaN
#     under the poison; the replay's random values are finite, * 0 is 0);
#   "fake-record": catches the harness's write on the value pipe, writes
#     a frame of its own whose record holds the value as leaves, exits.
# What the record cannot carry fails closed: "kernel-from-exec", a right
#   kernel compiled from a string (no source for the record to name),
#   no-triton-kernel "the program did what the trace cannot record: a
#   launch of kl_kernel: no source of kl_kernel" (a pass on df3eb4c);
#   "numpy-only", the answer in NumPy: no-triton-kernel, its evidence
#   naming "4 of its 4 tensors enter the record as values" (on df3eb4c
#   no-triton-kernel too, by the poisoned run).
# Three forgeries an earlier review found, each passing before ADR
# 0046's amendment:
#   "reads-switch", "unpoisons" (above);
#   "edges-only", a Triton kernel that computes the three first and three
#     last elements (the six torch's summary of a 1024-element tensor
#     shows) and 0 elsewhere: the checker compares every element,
#     stdout-mismatch "1017 of 1024 elements differ, the first at (3,)".
#   "replays-log", zeros and a print() of its own writing the reference's
#     stdout as the log used to show it: the value is the checker's to
#     print, stdout-mismatch; and no log holds the reference's output
#     (its first value, 2.5112, in that log: `show` of the other
#     candidates, whose logs held it before).
# The stdout mode (a test that prints) and the record itself are pinned
# by tests/e2e/triton/tbcheck.py.
. "$(dirname "$0")/lib.sh"
need_triton no-gpu
D=$(dirname "$0")/../data/tritonbench/data
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
VENV=${ASSAY_VENV:-$(dirname "$ASSAY")/venv}

# The checker's rules one by one (tests/e2e/triton/tbcheck.py): every
# element compared, the reference's side never shown, no poisoned run and
# no switch in the program's process, the record replayed (draws as
# leaves, Triton's value changed by the randomized replay, PyTorch's
# not), print()'s tensors sent as copies taken at the call.
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
for o in probe-kernel inspects-wrappers launder fake-record; do
    expect_eq "$o" "$(v "origin=$o" subcategory)" '"subcategory":"no-triton-kernel"'
done
expect_eq "Triton, then PyTorch" "$(v 'origin=triton-then-torch' verdict)" '"verdict":"pass"'
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
"$ASSAY" --db "$DB" show "$id" --json > "$T/qwen.json"
grep -q 'the value of result_gold is the reference.s in full, as the checker prints it (15360 elements)' "$T/qwen.json" || fail "evidence"
grep -q 'Triton on the output path: its run replayed by the checker with every value its Triton kernels store randomized comes out wrong' "$T/qwen.json" ||
    fail "evidence of the replay: $(cat "$T/qwen.json")"
id=$("$ASSAY" --db "$DB" list --where 'origin=fake-record' | awk 'NR==2 {print $1}')
"$ASSAY" --db "$DB" show "$id" > "$T/show-fake" || fail "show fake-record"
grep -q "value its Triton kernels store randomized, the value is still the reference's" "$T/show-fake" ||
    fail "fake-record's evidence: $(grep -i triton "$T/show-fake")"
expect_eq "a kernel without a source" "$(v 'origin=kernel-from-exec' subcategory)" '"subcategory":"no-triton-kernel"'
id=$("$ASSAY" --db "$DB" list --where 'origin=kernel-from-exec' | awk 'NR==2 {print $1}')
"$ASSAY" --db "$DB" show "$id" | grep -q "the program did what the trace cannot record: a launch of kl_kernel: no source of kl_kernel" ||
    fail "kernel-from-exec's evidence"
id=$("$ASSAY" --db "$DB" list --where 'origin=numpy-only' | awk 'NR==2 {print $1}')
"$ASSAY" --db "$DB" show "$id" > "$T/show-numpy" || fail "show numpy-only"
grep -q "still the reference's; 4 of its 4 tensors enter the record as values" "$T/show-numpy" ||
    fail "numpy-only's evidence: $(grep -i triton "$T/show-numpy")"
