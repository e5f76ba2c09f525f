# 110: the nvcc env (issue 4).  Imports examples/gpu, verifies every
# candidate through the sandbox with the real nvcc, and checks each one's
# verdict, stage, category and subcategory: without a GPU the candidates
# that compile and keep the launch limits are skipped (no-gpu), never
# failed; the RMS-normalisation kernel that puts spatial_size (262144) on
# gridDim.y and the transpose with 2048 threads per block fail the static
# launch check; a syntax error is compile, a CUDA API that does not exist
# is api.  ptxas' registers and shared memory are metrics either way.
. "$(dirname "$0")/lib.sh"
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
[ -x "$NVCC" ] || skip "nvcc not installed (CUDA toolkit)"
EX=$(cd "$(dirname "$0")/../.." && pwd)/examples/gpu
# A harness that finds a GPU passes where one without skips.
if [ -e /dev/nvidia0 ]; then ok="pass|skipped"; else ok="skipped"; fi

"$ASSAY" --db "$DB" import "$EX"/*.jsonl || fail "import"
expect_eq "candidates" "$(count '')" 9
"$ASSAY" --db "$DB" verify --jobs 2 --check >"$T/verify" 2>&1
expect_eq "verify --check with failures" $? 1

# field TASK WHERE KEY: the value of KEY in that candidate's list row.
field() {
	"$ASSAY" --db "$DB" list --json --where "task=assay-examples/$1 $2" |
	    head -n 1 | sed -n "s/.*\"$3\":\(\"[^\"]*\"\|null\|{[^}]*}\).*/\1/p" |
	    tr -d '"'
}
check() {	# TASK WHERE VERDICT STAGE CATEGORY SUBCATEGORY
	v=$(field "$1" "$2" verdict)
	echo "$v" | grep -Eqx "$3" || fail "$1 $2: verdict $v, want $3"
	[ "$v" = skipped ] || [ "$v" = pass ] || {
		expect_eq "$1 $2 stage" "$(field "$1" "$2" stage)" "$4"
		expect_eq "$1 $2 category" "$(field "$1" "$2" category)" "$5"
		expect_eq "$1 $2 subcategory" "$(field "$1" "$2" subcategory)" "$6"
	}
	[ "$v" != skipped ] || {
		# the want stage, no candidate code in it, finds no GPU
		# and ends the run (ADR 0056)
		expect_eq "$1 $2 stage" "$(field "$1" "$2" stage)" want
		expect_eq "$1 $2 subcategory" "$(field "$1" "$2" subcategory)" no-gpu
		expect_eq "$1 $2 category" "$(field "$1" "$2" category)" null
	}
	echo "ok: $1 $2 $v"
}
# Candidates by their line in the example file (line 1: the reference).
check vadd source~vadd.jsonl:1 "$ok"
check vadd source~vadd.jsonl:2 "$ok"
check vadd source~vadd.jsonl:3 fail compile compile syntax-error
check vadd source~vadd.jsonl:4 fail compile api undefined-api
check rmsnorm source~rmsnorm.jsonl:1 "$ok"
check rmsnorm source~rmsnorm.jsonl:2 fail limits functional launch-limit
check rmsnorm source~rmsnorm.jsonl:3 "$ok"
check transpose source~transpose.jsonl:1 "$ok"
check transpose source~transpose.jsonl:2 fail limits functional launch-limit

# ptxas' report is a metric whatever the run did.
m=$(field vadd source~vadd.jsonl:1 metrics)
echo "$m" | grep -Eq '^\{kernels:1,registers:[1-9][0-9]*,smem_bytes:0,stack_bytes:0,spill_stores:0,spill_loads:0' ||
	fail "vadd metrics: $m"
m=$(field rmsnorm source~rmsnorm.jsonl:2 metrics)
echo "$m" | grep -q 'smem_bytes:256' || fail "rmsnorm metrics: $m"
echo "ok: metrics $m"

# The evidence quotes the line that puts spatial_size on gridDim.y, and
# the diagnostic sits on it.
id=$(field rmsnorm source~rmsnorm.jsonl:2 id)
"$ASSAY" --db "$DB" show "$id" >"$T/show" || fail "show"
grep -q 'evidence: candidate.cu:28: gridDim.y = spatial_size = 262144 is over the limit of 65535 in the launch of rms_norm_kernel at line 31: "grid.y = spatial_size;"' "$T/show" ||
	fail "evidence: $(grep evidence "$T/show")"
grep -q 'candidate.cu:28: error: gridDim.y = spatial_size' "$T/show" || fail "no diagnostic on line 28"
grep -q 'evidence points to candidate line 28' "$T/show" || fail "evidence line"
echo "ok: the launch-limit evidence"
# Its repair keeps the parent link: the trajectory failed -> repaired.
expect_eq "repair's parent" "$(field rmsnorm source~rmsnorm.jsonl:3 parent)" "$id"
expect_eq "repair's kind" "$(field rmsnorm source~rmsnorm.jsonl:3 kind)" repair

# The compile error sits on its candidate line (nvcc names the line after
# the missing semicolon).
"$ASSAY" --db "$DB" show "$(field vadd source~vadd.jsonl:3 id)" | grep -q 'candidate.cu:4: error: expected a ";"' ||
	fail "no syntax-error diagnostic on line 4"
echo "ok: compile diagnostics on candidate lines"

# Without a GPU the run says why (the CUDA runtime's reason: no driver
# library, or, with Debian's libcuda1, no device), and the nonce is gone.
if [ "$ok" = skipped ]; then
	id=$(field vadd source~vadd.jsonl:1 id)
	"$ASSAY" --db "$DB" show --json "$id" | grep -q '"evidence":"skipped: no GPU"' ||
		fail "no-gpu evidence"
	"$ASSAY" --db "$DB" show "$id" >"$T/show"
	grep -q '^no-gpu: ' "$T/show" ||
		fail "the harness's no-gpu line"
	grep -q 'result\|T[0-9a-f]\{15\} ' "$T/show" && fail "a nonce in the log"
	echo "ok: skipped, no GPU"
fi

# A second verify finds every input unchanged.
"$ASSAY" --db "$DB" verify --jobs 2 >"$T/again" 2>&1
grep -q "verified 0, unchanged 9" "$T/again" || fail "second verify: $(cat "$T/again")"
echo "ok: unchanged inputs are not run again"
