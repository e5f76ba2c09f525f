#!/bin/sh
# triton-heldout.sh - the triton env against an independent run of
# KernelBench's correctness rule on held-out public model kernels.
#
# HELDOUT is a folder with manifest.jsonl, problems/levelN/*.py and the
# kernels its rows name (docs/benchmarks.md, "Triton on held-out model
# kernels": where the set came from and how it is laid out; the project
# does not ship it).  The kernels are imported into a scratch database,
# verified with `assay verify --jobs 2` (Triton's interpreter where no
# GPU is), and each is run again by bench/triton-heldout/kb_rule.py, an
# independent implementation of KernelBench's rule (seed 42, 5 trials,
# shape check, torch.allclose at 1e-2) in the interpreter, at the sizes
# assay used for it.  Prints the agreement table and writes
# OUT/heldout.tsv.
#
#   sh bench/triton-heldout.sh HELDOUT [--out DIR] [--only REGEX]
#      [--jobs N] [--timeout S] [--skip-verify --db DB]
#
# ASSAY (default build/assay) and ASSAY_VENV (default build/venv) name
# the binary and the Python venv (torch, triton).
set -eu
[ $# -ge 1 ] || { echo "usage: $0 HELDOUT [driver options]" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
assay=${ASSAY:-$here/../build/assay}
venv=${ASSAY_VENV:-$here/../build/venv}
[ -x "$assay" ] || { echo "$0: no assay binary at $assay (make build)" >&2; exit 2; }
[ -x "$venv/bin/python3" ] || { echo "$0: no venv python at $venv/bin/python3 (make deps)" >&2; exit 2; }
heldout=$1; shift
exec python3 "$here/triton-heldout/driver.py" "$heldout" \
    --assay "$(cd "$(dirname "$assay")" && pwd)/$(basename "$assay")" \
    --python "$venv/bin/python3" "$@"
