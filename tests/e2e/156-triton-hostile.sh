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
need_triton

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

# Round 3 (issue 22.4, ADR 0036): the answer must be Triton, and nothing
# in the candidate's process is evidence.  examples/gpu/triton-cpu/
# hostile-r3.jsonl holds twelve ModelNew for problem 19.  On the harness
# before ADR 0036 (measured): ref-module, plain-torch, counter-bump
# ("5 Triton launches" when there were none), dummy-launch, ref-file,
# second-run and noise (plain PyTorch that behaves otherwise in a later
# process: they also passed a first design that ran the poisoned check
# as a second worker and compared it with the first) passed; pipe-skip
# (a wrong kernel that writes a skip record of its own on the results
# pipe) and fake-cuda (a wrong candidate with no CUDA in
# it that raises torch's missing-driver error) were skipped as
# cuda-only; pipe-format (a wrong kernel that writes a missing-ModelNew
# record) was a format failure.  Now: no Triton kernel on the output
# path is api/no-triton-kernel (three more trials at random places in
# which every value a Triton kernel stores is poisoned, and the output
# still right; since ADR 0048 the checker's replay of the worker's trace
# with Triton's stores randomized); a reply the worker never
# writes is functional/bad-reply; a skip is never the worker's word.
"$ASSAY" --db "$DB" import "$ROOT/examples/gpu/triton-cpu/hostile-r3.jsonl" \
    >/dev/null || fail "import hostile-r3.jsonl"
w="task=kernelbench/level1/19_ReLU origin~hostile-"
"$ASSAY" --db "$DB" verify --jobs 2 --where "$w" >"$T/verify3" 2>&1
for o in ref-module:api:no-triton-kernel plain-torch:api:no-triton-kernel \
    counter-bump:api:no-triton-kernel dummy-launch:api:no-triton-kernel \
    ref-file:api:no-triton-kernel second-run:api:no-triton-kernel \
    noise:api:no-triton-kernel pipe-skip:functional:bad-reply \
    pipe-format:functional:bad-reply pipe-skip-framed:functional:runtime-error \
    pipe-format-framed:functional:bad-reply fake-cuda:functional:runtime-error; do
	name=${o%%:*}; rest=${o#*:}
	r=$("$ASSAY" --db "$DB" list --json --where "task=kernelbench/level1/19_ReLU origin=hostile-$name" | head -n 1)
	expect_eq "$name verdict" "$(val "$r" verdict)" fail
	expect_eq "$name category" "$(val "$r" category)" "${rest%%:*}"
	expect_eq "$name subcategory" "$(val "$r" subcategory)" "${rest#*:}"
	# No count of launches from the candidate's process is evidence.
	"$ASSAY" --db "$DB" show --json "$(val "$r" id)" >"$T/show3"
	! grep -q '"evidence":"[^"]*Triton launches\|"triton_launches"' "$T/show3" ||
		fail "$name: a launch count"
done
r=$("$ASSAY" --db "$DB" list --json --where "task=kernelbench/level1/19_ReLU origin=hostile-plain-torch" | head -n 1)
"$ASSAY" --db "$DB" show --json "$(val "$r" id)" |
    grep -q '"evidence":"no Triton kernel computes the output: replayed by the checker with every value its Triton kernels store randomized, 2 of 2 outputs are still right' ||
	fail "plain-torch evidence"

# Round 4 (issue 22.4, ADR 0036's trace): the poisoned trials told a
# right answer from Triton from one without it only while the candidate
# did not watch a kernel of its own.  examples/gpu/triton-cpu/
# hostile-r4.jsonl: canary copies a probe with a Triton kernel and, when
# the copy is wrong (a poisoned trial), returns NaN, else plain PyTorch;
# canary-input does it with a slice of the input checked against
# PyTorch; reuse frees a Triton-written scratch so that PyTorch's output
# takes its memory; overwrite lets Triton write the output and PyTorch
# overwrite it.  On the harness before the trace (measured): canary and
# canary-input passed; reuse and overwrite failed on the poison.  Now
# every output must be stored by a Triton kernel, or computed by PyTorch
# from what one stored (a dispatch mode carried the taint; since ADR 0048
# the checker replays the worker's trace with Triton's stores
# randomized, and the output must change): all four fail as
# api/no-triton-kernel.  triton-then-torch (Triton's ReLU, then
# a view, a copy and an add of zero in PyTorch) still passes.
"$ASSAY" --db "$DB" import "$ROOT/examples/gpu/triton-cpu/hostile-r4.jsonl" \
    >/dev/null || fail "import hostile-r4.jsonl"
"$ASSAY" --db "$DB" verify --jobs 2 --where "task=kernelbench/level1/19_ReLU" >"$T/verify4" 2>&1
for o in canary canary-input reuse overwrite; do
	r=$("$ASSAY" --db "$DB" list --json --where "task=kernelbench/level1/19_ReLU origin=hostile-$o" | head -n 1)
	expect_eq "$o verdict" "$(val "$r" verdict)" fail
	expect_eq "$o subcategory" "$(val "$r" subcategory)" no-triton-kernel
done
r=$("$ASSAY" --db "$DB" list --json --where "task=kernelbench/level1/19_ReLU origin=hostile-canary" | head -n 1)
"$ASSAY" --db "$DB" show --json "$(val "$r" id)" |
    grep -q '"evidence":"no Triton kernel computes the output: replayed by the checker with every value its Triton kernels store randomized, 2 of 2 outputs are still right' ||
	fail "canary evidence"
r=$("$ASSAY" --db "$DB" list --json --where "task=kernelbench/level1/19_ReLU origin=triton-then-torch" | head -n 1)
expect_eq "triton-then-torch verdict" "$(val "$r" verdict)" pass

# Round 5 (issue 22.4, ADR 0048): the poison switch and the trace lived in
# the worker, the candidate's own process.  examples/gpu/triton-cpu/
# hostile-r5.jsonl: gc-switch finds the harness's globals through gc,
# returns NaN when the poison is on and otherwise plain PyTorch entered
# in the taint record; dispatch-stack reaches them through the dispatch
# mode stack and pops the trace's mode; launder watches a probe for the
# poison and adds seen.sum() * 0 (seen a Triton output) to plain PyTorch;
# launch-record wraps the launch wrapper so that every argument counts as
# written; fake-frame writes a reply frame of its own (outputs of plain
# PyTorch, NaN in the poisoned trials its configuration names, every
# trial "Triton's") and ends its process.  On the harness before ADR 0048
# (measured by running kb_harness.py eval by hand on each): all five
# passed.  numpy-kernel (a kernel whose body calls Python that writes the
# ReLU with numpy, never through a store) failed there on the poison, and
# must still fail.  Now the worker only records what forward did (its
# kernels by their source) and the checker replays two trials it draws
# after the run, the kernels run by a launcher that runs only sources
# Triton's frontend lowers, once as recorded and once with Triton's
# stores randomized: all six fail as api/no-triton-kernel, fake-frame
# because its frame carries no trace, numpy-kernel because the frontend
# refuses its kernel.
"$ASSAY" --db "$DB" import "$ROOT/examples/gpu/triton-cpu/hostile-r5.jsonl" \
    >/dev/null || fail "import hostile-r5.jsonl"
"$ASSAY" --db "$DB" verify --jobs 2 --where "task=kernelbench/level1/19_ReLU origin~hostile-" >"$T/verify5" 2>&1
for o in gc-switch dispatch-stack launder launch-record fake-frame \
    numpy-kernel; do
	r=$("$ASSAY" --db "$DB" list --json --where "task=kernelbench/level1/19_ReLU origin=hostile-$o" | head -n 1)
	expect_eq "$o verdict" "$(val "$r" verdict)" fail
	expect_eq "$o category" "$(val "$r" category)" api
	expect_eq "$o subcategory" "$(val "$r" subcategory)" no-triton-kernel
done
r=$("$ASSAY" --db "$DB" list --json --where "task=kernelbench/level1/19_ReLU origin=hostile-launder" | head -n 1)
"$ASSAY" --db "$DB" show --json "$(val "$r" id)" |
    grep -q '"evidence":"no Triton kernel computes the output: replayed by the checker with every value its Triton kernels store randomized, 2 of 2 outputs are still right' ||
	fail "launder evidence"
r=$("$ASSAY" --db "$DB" list --json --where "task=kernelbench/level1/19_ReLU origin=hostile-fake-frame" | head -n 1)
"$ASSAY" --db "$DB" show --json "$(val "$r" id)" |
    grep -q '"evidence":"no Triton kernel computes the output: the checker cannot replay what forward recorded in trial [0-9]: the worker sent no trace' ||
	fail "fake-frame evidence"
r=$("$ASSAY" --db "$DB" list --json --where "task=kernelbench/level1/19_ReLU origin=hostile-numpy-kernel" | head -n 1)
"$ASSAY" --db "$DB" show --json "$(val "$r" id)" |
    grep -q '"evidence":"no Triton kernel computes the output: the checker cannot replay what forward recorded in trial [0-9]: the checker.s launch of the kernel failed: not Triton: Triton.s frontend refuses relu_kernel' ||
	fail "numpy-kernel evidence"
