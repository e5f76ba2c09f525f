# 150: KernelBench (issue 4).  Import the shared kernelbench directory
# (10 level-1 problems, 10 Triton kernels, their H200 results), list and
# show a row (milliseconds, the suspicious-speedup flag), re-import adds
# nothing, a malformed results line is FILE:LINE, and one candidate is
# verified through the triton env: without torch or triton it is skipped
# with what is missing, never passed or failed; with them but without a
# GPU its correctness is checked on the CPU.
. "$(dirname "$0")/lib.sh"
need_data
KB=$DATA/kernelbench
[ -d "$KB/level1" ] || skip "no KernelBench data at $KB"

"$ASSAY" --db "$DB" import "$KB" >"$T/out" 2>"$T/err" || fail "import: $(cat "$T/err")"
grep -q "10 new tasks, 10 new candidates" "$T/out" || fail "import said: $(cat "$T/out")"
grep -q "results.level1.full.jsonl: 54 of 64 rows name kernels not in" "$T/err" ||
    fail "no word about the rows without kernels: $(cat "$T/err")"
expect_eq "candidates" "$(count '')" 10
expect_eq "benchmark, domain, env, lang" \
    "$(count 'benchmark=kernelbench domain=gpu env=triton lang=python')" 10

"$ASSAY" --db "$DB" import "$KB" >"$T/out" 2>/dev/null || fail "re-import"
grep -q "0 new tasks, 0 new candidates (10 already there)" "$T/out" ||
    fail "re-import added: $(cat "$T/out")"

# KernelBench's own level 1 problem 79 has an 86-byte file name, over a
# task id part's 64 bytes: the importer refused it.  A long name is
# shortened with its hash, and a row naming the task by the long id meets
# it (ident_fit_task_id; the name here is problem 79's, the problem
# ReLU's).
long=79_conv_transposed_1D_asymmetric_input_square_kernel___padded____strided____dilated__
mkdir -p "$T/kb79/level1"
cp "$KB/level1/19_ReLU.py" "$T/kb79/level1/$long.py"
"$ASSAY" --db "$DB" import "$T/kb79" >"$T/out" 2>"$T/err" ||
	fail "import of a long problem name: $(cat "$T/err")"
grep -q "1 new task" "$T/out" || fail "long name: $(cat "$T/out") $(cat "$T/err")"
printf '{"task": "kernelbench/level1/%s", "candidate": {"origin": "long-name", "lang": "python", "code": "class ModelNew: pass\\n"}}\n' \
    "$long" >"$T/long.jsonl"
"$ASSAY" --db "$DB" import "$T/long.jsonl" >"$T/out" 2>"$T/err" ||
	fail "a row naming the long task: $(cat "$T/err")"
lid=$("$ASSAY" --db "$DB" list --json --where "origin=long-name" |
    grep -o '"task":"[^"]*"' | cut -d'"' -f4)
case $lid in
kernelbench/level1/79_conv_transposed_1D_asymmetric_input_square_kernel___-????????) ;;
*) fail "long task id: '$lid'" ;;
esac
echo "ok: a long problem name imports as $lid"

"$ASSAY" --db "$DB" list >"$T/list" || fail "list"
grep -q "kernelbench/level1/12_Matmul_with_diagonal_matrices_" "$T/list" ||
    fail "problem 12 not listed"
ID=$("$ASSAY" --db "$DB" list --json --where "task=kernelbench/level1/12_Matmul_with_diagonal_matrices_" |
    grep -o '"id":"c[0-9a-f]*"' | head -n 1 | cut -d'"' -f4)
[ -n "$ID" ] || fail "no candidate for problem 12"

# The recorded row: 0.108 ms (the "_us" field holds milliseconds), 25x.
"$ASSAY" --db "$DB" show "$ID" >"$T/show" || fail "show"
grep -q "^--- recorded: pass timing ---" "$T/show" || fail "recorded result not shown"
grep -q "^suspicious-speedup: 25.00x is over 10x" "$T/show" || fail "no suspicious-speedup flag"
grep -q "0.108 ms against 2.700 ms" "$T/show" || fail "runtimes not in ms"
grep -q "class ModelNew" "$T/show" || fail "kernel code not shown"
"$ASSAY" --db "$DB" show "$ID" --json >"$T/show.json" || fail "show --json"
grep -q '"runtime_ms":0.108' "$T/show.json" || fail "no runtime_ms in the recorded extra"
grep -q '"flags":\["suspicious-speedup"\]' "$T/show.json" || fail "no flags in the recorded extra"
grep -q '"role":"reference"' "$T/show.json" || fail "the problem is not the task's reference file"
expect_eq "flagged rows" "$(count 'grep=suspicious-speedup')" 1

# A malformed results line: FILE:LINE, nothing kept.
mkdir -p "$T/kb/level1" "$T/kb/dump/kernels"
cp "$KB/level1/19_ReLU.py" "$T/kb/level1/"
cp "$KB/triton_dump_h200/kernels/level1_problem19_triton.py" "$T/kb/dump/kernels/"
grep '"problem_id": 19,' "$KB/triton_dump_h200/results.level1.subset.jsonl" >"$T/kb/dump/results.jsonl"
echo '{"level": 1, "problem_id": 19, "kernel_path": "level1_problem19_triton.py", "runtime_triton_us": "x"}' >>"$T/kb/dump/results.jsonl"
"$ASSAY" --db "$T/bad.db" import "$T/kb" 2>"$T/err"
expect_eq "malformed exit" $? 2
grep -q "kb/dump/results.jsonl:2: \"runtime_triton_us\" must be a number" "$T/err" ||
    fail "no FILE:LINE: $(cat "$T/err")"
expect_eq "nothing of it kept" "$("$ASSAY" --db "$T/bad.db" list --json | wc -l | tr -d ' ')" 0

# Verify one candidate through the sandbox.
"$ASSAY" --db "$DB" verify "$ID" >"$T/verify" 2>&1 || fail "verify: $(cat "$T/verify")"
row=$("$ASSAY" --db "$DB" list --json --where "id=$ID")
"$ASSAY" --db "$DB" show "$ID" --json >"$T/run.json"
tri=$("$ASSAY" envs | grep '^triton ')
case $tri in
*"torch not installed"*) sub=no-torch why="skipped: torch not installed" ;;
*"triton not installed"*) sub=no-triton why="skipped: triton not installed" ;;
*"no GPU"*) sub=cpu ;;	# correctness on the CPU: 155-triton-cpu.sh
*) sub=gpu ;;
esac
if [ "$sub" = cpu ]; then
	# Problem 12's kernel on the CPU path; golden outcome from running
	# the reference and the kernel by hand with Triton's interpreter at
	# M = N = 8: 5 of 5 trials match.
	echo "$row" | grep -q '"verdict":"pass"' || fail "not pass on the CPU: $row"
	echo "$row" | grep -q '"stage":"correctness"' || fail "not at correctness: $row"
	grep -q '"evidence":"pass (cpu-interpreter, sizes cut): correct on the CPU' "$T/run.json" || fail "evidence: $(grep -o '"evidence":"[^"]*' "$T/run.json")"
	echo "$row" | grep -q '"subcategory":"cpu-interpreter"' || fail "not marked cpu-interpreter: $row"
	grep -q 'timing skipped: no GPU' "$T/run.json" || fail "timing not said to be skipped"
	echo "ok: verify -> pass at correctness on the CPU"
	exit 0
fi
if [ "$sub" = gpu ]; then
	echo "$row" | grep -Eq '"verdict":"(pass|fail)"' || fail "GPU run: $row"
	echo "ok: verify on the GPU: $row"
	exit 0
fi
echo "$row" | grep -q '"verdict":"skipped"' || fail "not skipped: $row"
echo "$row" | grep -q "\"subcategory\":\"$sub\"" || fail "want subcategory $sub: $row"
echo "$row" | grep -q '"stage":"check"' || fail "not skipped at check: $row"
echo "$row" | grep -q '"category":null' || fail "a skipped run has no failure category: $row"
grep -q "\"evidence\":\"$why" "$T/run.json" || fail "evidence does not say what is missing"
grep -q "assay-triton: skipped $sub: " "$T/run.json" || fail "the harness's reason is not in the log"
echo "ok: verify -> skipped/$sub ($why)"
