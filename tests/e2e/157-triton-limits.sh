# 157: the known limits of Triton's interpreter (issue 23, item 3;
# docs/envs/triton.md, "Interpreter limits").  tests/e2e/triton/limits.py
# runs a tiny kernel per limit in the project venv, first in the
# interpreter as it is, where the answer must still be wrong (when it is
# right, a Triton upgrade fixed the limit, and the test says which fix
# to drop), then after the harness's interp_fixes(), where it must be
# right; then the checker's rules for the limits it skips (only when the
# candidate's code calls what hits them), the size cut, and the
# checker's replay of a worker's trace (ADR 0048) on traces written by
# hand: Triton then PyTorch, laundered and overwritten outputs, traces it
# refuses, and its verdict on replays.
#
# Measured with Triton 3.9.0's interpreter (by hand, as the script
# prints it): a 16x16 bf16 tl.dot 2.3e10 off; bf16 +, *, max, >, sum
# and bool casts on the raw storage; fp32 -> bf16 truncated, one in
# several values an ulp off torch's rounding; a mask block & scalar
# refused ("mask has unsupported dtype"); @triton.autotune "0 active
# drivers"; libdevice a stub (None) and its CUDA module without a
# _semantic.
. "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
VENV=${ASSAY_VENV:-$(dirname "$ASSAY")/venv}
need_triton
[ -x "$VENV/bin/python3" ] || skip "no venv at $VENV"
"$VENV/bin/python3" -I -B -W ignore "$ROOT/tests/e2e/triton/limits.py" \
    "$ROOT/share/envs/triton/kb_harness.py" >"$T/out" 2>&1
rc=$?
cat "$T/out"
[ $rc -eq 0 ] || fail "an interpreter limit (above)"
echo "ok: every known limit is still there, and worked around or skipped"
