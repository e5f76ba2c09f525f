# 279: `assay task new` on a CUDA file (issue 27, item 1): the vector
# addition of examples/gpu/vadd.jsonl becomes an nvcc task whose
# interface names its host entry, its kernel, the launch as written and
# the launch limits of the target; its reference compiles for sm_90 and
# passes the launch check, and the task is stored.  The same code asking
# 2048 threads a block is refused at the launch check (1024 on sm_90)
# and nothing is stored.  With the example's harness the reference runs
# where a GPU is; without one it is skipped, which is no pass: nothing
# is stored and the reason says so.
. "$(dirname "$0")/lib.sh"
"$ASSAY" envs | grep -q '^nvcc .* yes ' || skip "nvcc not usable here"

EX=$(cd "$(dirname "$0")/../../examples/gpu" && pwd)
{
	echo '// c[i] = a[i] + b[i] for 0 <= i < n, on device pointers.'
	head -n 1 "$EX/vadd.jsonl" | jq -r .task.reference
} > "$T/vadd.cu"
head -n 1 "$EX/vadd.jsonl" | jq -r '.task.files["harness.cu"]' > "$T/harness.cu"

"$ASSAY" --db "$DB" task new "$T/vadd.cu" --json > "$T/vadd.json" || fail "task new: $(cat "$T/vadd.json")"
expect_eq "entry" "$(jq -r .entry "$T/vadd.json")" vadd
expect_eq "env" "$(jq -r '.row.task | "\(.env) \(.env_params.arch) \(.domain)"' "$T/vadd.json")" "nvcc sm_90 gpu"
jq -r .row.task.interface "$T/vadd.json" > "$T/iface"
grep -qx '__global__ void vadd_kernel(const float \*a, const float \*b, float \*c, int n);' "$T/iface" ||
    fail "kernel: $(cat "$T/iface")"
grep -qx 'vadd_kernel<<<(n + threads - 1) / threads, threads>>> in vadd (line 14)' "$T/iface" ||
    fail "launch: $(cat "$T/iface")"
grep -q '^Launch limits of sm_90: .*1024 threads a block; static __shared__ memory <= 49152 bytes a block' "$T/iface" ||
    fail "limits: $(cat "$T/iface")"
expect_eq "verdict" "$(jq -r '"\(.verdict) \(.stage)"' "$T/vadd.json")" "pass compile"
expect_eq "stored" "$(count 'task=local/vadd origin=reference verdict=pass lang=cuda')" 1

sed 's/const int threads = 256;/const int threads = 2048;/' "$T/vadd.cu" > "$T/wide.cu"
"$ASSAY" --db "$DB" task new "$T/wide.cu" --id local/wide 2> "$T/wide.err" > /dev/null
expect_eq "over the limit: exit" "$?" 1
grep -q 'does not pass its own verification: fail at limits (functional/launch-limit): .*wide.cu:14: .*blockDim.x = threads = 2048 is over the limit of 1024' "$T/wide.err" ||
    fail "wide: $(cat "$T/wide.err")"
expect_eq "over the limit: stored" "$(count 'task=local/wide')" 0
# nvcc's own place (candidate.cu(7): ...) is not said after the user's
sed 's/c\[i\] = a\[i\] + b\[i\];/c[i] = a[i] + undefined_b[i];/' "$T/vadd.cu" > "$T/undef.cu"
"$ASSAY" --db "$DB" task new "$T/undef.cu" --id local/undef 2> "$T/undef.err" > /dev/null
expect_eq "undefined: exit" "$?" 1
grep -q 'undef.cu:7: error: identifier "undefined_b" is undefined; nothing stored' "$T/undef.err" ||
    fail "undefined: $(cat "$T/undef.err")"

"$ASSAY" --db "$DB" task new "$T/vadd.cu" --testbench "$T/harness.cu" --id local/vadd_run --json > "$T/run.json"
case $(jq -r .verdict "$T/run.json") in
pass)
	expect_eq "harness" "$(jq -r .row.task.env_params.harness "$T/run.json")" harness.cu
	expect_eq "run stored" "$(count 'task=local/vadd_run verdict=pass')" 1 ;;
skipped)
	jq -r .why "$T/run.json" | grep -q 'skipped at want (no-gpu)' || fail "no GPU: $(jq -r .why "$T/run.json")"
	expect_eq "no GPU: stored" "$(count 'task=local/vadd_run')" 0 ;;
*) fail "with the harness: $(jq -c 'del(.row)' "$T/run.json")" ;;
esac
echo "ok: task new on CUDA"
