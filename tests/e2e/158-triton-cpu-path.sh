# 158: on the CPU path a failure the path causes is a skip with its
# reason, never the candidate's failure nor a task defect (issue 23,
# items 1-5).  examples/gpu/triton-cpu/cpu-path/ holds problems in
# KernelBench's format and right Triton kernels for them and for
# KernelBench problems 19 and 88; verified where no GPU is, each must
# come out as below.
#
# Golden outcomes, obtained by running kb_harness.py eval by hand with
# build/venv/bin/python3 before and after the change (outside assay):
#   conv2d-relu-bias  (batch_size = out_channels = height = width = 128)
#       before: task-defect (128 -> 2 everywhere, a 2x2 image under a 3x3
#       kernel); now: pass, cut to 8 (in_channels 64 -> 2).
#   alexnet-conv1 (11x11 stride 4, 3x3 pooling, 224 x 224)
#       before: task-defect; now: the cuts 8 and 16 fail, 32 runs: pass.
#   fixed-classifier (nn.Linear(out_channels * 222 * 222, ...))
#       before: task-defect; now: skipped, sizes (4 cuts tried).
#   relu-gpu-inputs (get_inputs() on "cuda")
#       before: task-defect; now: skipped, gpu-only.
#   autotune-mask  before: fail, runtime-error ("0 active drivers");
#       now: pass (the first config, the mask made bool).
#   bf16-dot  before: fail, mismatch (bf16 as raw storage); now: pass.
#   libdevice  before: fail, runtime-error (InterpreterError: TypeError:
#       cannot convert None); now: pass.
#   device-assert  before: fail, assertion; now: skipped, cuda-only.
#   device-fallback  before: fail, no-triton-kernel; now: skipped,
#       cuda-only.
#   sleep  before: timeout at stage reference; now: timeout at stage
#       correctness.
. "$(dirname "$0")/lib.sh"
need_data
KB=$DATA/kernelbench
[ -d "$KB/level1" ] || skip "no KernelBench data at $KB"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
need_triton no-gpu

# The task set: our problems with their candidates, and candidates for
# KernelBench's problems 19 and 88 (imported from the shared data).
python3 - "$ROOT/examples/gpu/triton-cpu/cpu-path" "$KB/level1/19_ReLU.py" \
    >"$T/cpu-path.jsonl" <<'PY'
import json, sys
d, relu = sys.argv[1], sys.argv[2]
def text(f):
    return open(f if f.startswith("/") else d + "/" + f).read()
def task(name, problem, params=None):
    t = {"id": "assay-examples/triton-cpu/" + name,
         "benchmark": "assay-examples", "domain": "gpu", "env": "triton",
         "spec": "KernelBench's task: write ModelNew, with custom Triton"
                 " kernels in its forward, to replace Model.",
         "files": [{"name": problem.rsplit("/", 1)[-1], "role": "reference",
                    "text": text(problem)}]}
    if params:
        t["env_params"] = params
    return t
def cand(origin, f):
    return {"origin": "cpu-path-" + origin, "kind": "direct",
            "lang": "python", "code": text(f)}
rows = [
    (task("conv2d-relu-bias", "conv2d_relu_bias.py"), "conv2d-relu-bias",
     "conv2d_relu_bias_new.py"),
    (task("alexnet-conv1", "alexnet_conv1.py"), "alexnet-conv1",
     "alexnet_conv1_new.py"),
    (task("fixed-classifier", "fixed_classifier.py"), "fixed-classifier",
     "fixed_classifier_new.py"),
    (task("relu-gpu-inputs", "relu_gpu_inputs.py"), "relu-gpu-inputs",
     "relu_new.py"),
    (task("relu-timeout", relu, {"timeout_s": 90}), "sleep", "relu_sleep.py"),
    ("kernelbench/level1/19_ReLU", "autotune-mask", "relu_autotune_mask.py"),
    ("kernelbench/level1/19_ReLU", "bf16-dot", "relu_bf16_dot.py"),
    ("kernelbench/level1/19_ReLU", "device-assert", "relu_device_assert.py"),
    ("kernelbench/level1/19_ReLU", "device-fallback",
     "relu_device_fallback.py"),
    ("kernelbench/level1/88_MinGPTNewGelu", "libdevice", "gelu_libdevice.py"),
]
for t, origin, f in rows:
    print(json.dumps({"task": t, "candidate": cand(origin, f)}))
PY
[ -s "$T/cpu-path.jsonl" ] || fail "cannot build the task set"
"$ASSAY" --db "$DB" import "$KB" >/dev/null 2>&1 || fail "import"
"$ASSAY" --db "$DB" import "$T/cpu-path.jsonl" >/dev/null ||
	fail "import cpu-path.jsonl"
expect_eq "candidates" "$(count 'origin~cpu-path-')" 10
"$ASSAY" --db "$DB" verify --jobs 2 --where "origin~cpu-path-" >"$T/verify" 2>&1
tail -n 1 "$T/verify"

val() { printf '%s\n' "$1" | grep -o "\"$2\":\(\"[^\"]*\"\|[^,}]*\)" | head -n 1 | cut -d: -f2- | tr -d '"'; }
# check ORIGIN VERDICT STAGE SUBCATEGORY [EVIDENCE-TEXT]
check() {
	r=$("$ASSAY" --db "$DB" list --json --where "origin=cpu-path-$1" | head -n 1)
	expect_eq "$1 verdict" "$(val "$r" verdict)" "$2"
	expect_eq "$1 stage" "$(val "$r" stage)" "$3"
	expect_eq "$1 subcategory" "$(val "$r" subcategory)" "$4"
	"$ASSAY" --db "$DB" show --json "$(val "$r" id)" >"$T/show.json"
	[ -z "${5:-}" ] || grep -qF -- "$5" "$T/show.json" ||
		fail "$1 evidence: $(grep -o '"evidence":"[^"]*' "$T/show.json")"
	printf '%-18s %-8s %-12s %s\n' "$1" "$2" "$3" "$4" >>"$T/table"
}
: >"$T/table"
# 1. Sizes cut by value, the larger cap for a value of several roles; the
# next larger cut when the reference fails; skipped when none runs.
check conv2d-relu-bias pass correctness cpu-interpreter \
    'sizes cut: batch_size 128->8, bias_shape (128, 1, 1)->(8, 1, 1), height 128->8, in_channels 64->2, out_channels 128->8, width 128->8) in 5 of 5 trials'
check alexnet-conv1 pass correctness cpu-interpreter \
    'sizes cut: batch_size 10->8, height 224->32, out_channels 96->8, width 224->32)'
check fixed-classifier skipped reference sizes \
    "\"evidence\":\"skipped: the task's reference fails at every cut of its sizes on the CPU (4 cuts, the largest: height 224->64, width 224->64): RuntimeError: addmm: mat1 and mat2 shapes cannot be multiplied"
grep -q '"sizes_tried":\[{"batch_size":\[4,2\]' "$T/show.json" ||
	fail "fixed-classifier: the cuts tried in the metrics"
# 4. A reference that needs a GPU is skipped, gpu-only.
check relu-gpu-inputs skipped reference gpu-only \
    "\"evidence\":\"skipped: the task's reference cannot run without a GPU: RuntimeError: "
# 2, 3. What the interpreter cannot do is worked around.
check autotune-mask pass correctness cpu-interpreter 'in 5 of 5 trials'
check bf16-dot pass correctness cpu-interpreter 'in 5 of 5 trials'
check libdevice pass correctness cpu-interpreter 'in 5 of 5 trials'
# 4. A candidate that needs a CUDA device is skipped, cuda-only.
check device-assert skipped correctness cuda-only \
    '"evidence":"skipped: the candidate cannot run without a GPU: it requires a CUDA device (line 23: assert x.device.type == \"cuda\"'
check device-fallback skipped correctness cuda-only \
    '"evidence":"skipped: the candidate cannot run without a GPU: it tests the device (line 23: if x.device.type != \"cuda\":) and, on the CPU, replayed by the checker with every value its Triton kernels store randomized, 2 of 2 outputs are still right'
# 5. A timeout names the phase that ran out.
check sleep timeout correctness timeout \
    "\"evidence\":\"the correctness phase (ModelNew's forward, in Triton's interpreter on the CPU) hit its wall-clock timeout"
cat "$T/table"
