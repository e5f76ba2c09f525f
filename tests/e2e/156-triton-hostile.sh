# 156: candidates that attack the triton env's harness (issue 10, ADR
# 0020) never pass.  examples/gpu/triton-cpu/hostile.jsonl holds two
# ModelNew for KernelBench problem 19 that return wrong values (-1
# everywhere): hostile-forge looks for the run's secret in the frames,
# gc.get_objects(), sys.modules and the parent's /proc/PID/mem, and
# writes a forged result line to every descriptor before os._exit(0);
# hostile-patch replaces torch.allclose, Tensor.__sub__ and Tensor.max so
# that any comparison in its process says equal.  Both ran against the
# harness that loaded the candidate into its own interpreter: the forge
# passed.  With the candidate in a worker process that holds no secret,
# both fail as mismatches (obtained by running them through assay).
. "$(dirname "$0")/lib.sh"
need_data
KB=$DATA/kernelbench
[ -d "$KB/level1" ] || skip "no KernelBench data at $KB"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
tri=$("$ASSAY" envs | grep '^triton ')
printf '%s\n' "$tri" | grep -Eq '; torch [0-9][^;]*; triton [0-9]' ||
	skip "no torch and triton in the project venv (make deps): $tri"

"$ASSAY" --db "$DB" import "$KB" >/dev/null 2>&1 || fail "import"
"$ASSAY" --db "$DB" import "$ROOT/examples/gpu/triton-cpu/hostile.jsonl" \
    >/dev/null || fail "import hostile.jsonl"
val() { printf '%s\n' "$1" | grep -o "\"$2\":\(\"[^\"]*\"\|[^,}]*\)" | head -n 1 | cut -d: -f2- | tr -d '"'; }
for o in hostile-forge hostile-patch; do
	w="task=kernelbench/level1/19_ReLU origin=$o"
	"$ASSAY" --db "$DB" verify --where "$w" >"$T/verify" 2>&1
	r=$("$ASSAY" --db "$DB" list --json --where "$w" | head -n 1)
	expect_eq "$o verdict" "$(val "$r" verdict)" fail
	expect_eq "$o subcategory" "$(val "$r" subcategory)" mismatch
	printf '%s\n' "$r" | grep -q '"correct_trials":0' ||
		fail "$o metrics: $r"
done
