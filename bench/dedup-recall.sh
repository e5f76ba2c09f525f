#!/bin/sh
# dedup-recall.sh - assay dedup against brute force (issue 25, item 6).
#
# On the same shingles, at the same threshold: `assay dedup --dry-run`
# writes each sample's shingle set (--shingles) and the pairs it joined
# (--pairs); bench/dedup_recall.c compares every pair of samples by the
# Jaccard similarity of their sets and counts recall (the share of the
# pairs at or over the threshold that dedup put in one cluster) and
# precision (the share of dedup's pairs that are at or over it).
#
# Two sets:
#   rtlfixer   the shared RTLFixer rows (syntax and simulate, 521)
#   synthetic  N samples (default 20,000) made from those by edits
#              (bench/dedup_synth.py, seed 25): families of near copies
#              whose similarity spreads over the whole range around the
#              threshold
#
#   sh bench/dedup-recall.sh [build/assay [N]]
#
# ASSAY_DEDUP_N=20000        synthetic samples (N, when given, wins)
# ASSAY_DEDUP_THRESHOLD=0.8  the Jaccard threshold
# Target: recall >= 0.95 at precision >= 0.95.
set -eu
assay=$(cd "$(dirname "${1:-build/assay}")" && pwd)/$(basename "${1:-build/assay}")
here=$(cd "$(dirname "$0")" && pwd)
data=${ASSAY_SHARED:-$(pwd)/../shared}/data
n=${2:-${ASSAY_DEDUP_N:-20000}}
t=${ASSAY_DEDUP_THRESHOLD:-0.8}
T=$(mktemp -d "${TMPDIR:-/tmp}/assay-dedup-recall.XXXXXX")
trap 'rm -rf "$T"' EXIT
say() { printf '%s\n' "$*"; }

[ -x "$assay" ] || { say "dedup-recall: no assay at $assay (make build)"; exit 2; }
[ -d "$data" ] || { say "dedup-recall: no shared data at $data"; exit 2; }
cc -O2 -o "$T/recall" "$here/dedup_recall.c" ||
    { say "dedup-recall: cannot build the reference"; exit 2; }

# check NAME WHERE: dedup of WHERE against brute force
check() {
	name=$1
	shift
	/usr/bin/time -f "%U %S" -o "$T/$name.time" "$assay" --db "$T/a.db" \
	    dedup --dry-run --quiet --threshold "$t" --shingles "$T/$name.sh" \
	    --pairs "$T/$name.pairs" "$@" >"$T/$name.out"
	say "dedup-recall: $name: $(head -n 1 "$T/$name.out")"
	say "dedup-recall: $name: $(tail -n 1 "$T/$name.out")"
	say "dedup-recall: $name: dedup took $(awk '{printf "%.1f", $1 + $2}' \
	    "$T/$name.time") s of CPU"
	"$T/recall" "$T/$name.sh" "$T/$name.pairs" "$t" | sed "s/^/dedup-recall: $name: /"
}

"$assay" --db "$T/a.db" import "$data/rtlfixer/verilogeval-syntax.jsonl" \
    "$data/rtlfixer/verilogeval-simulate.jsonl" >/dev/null 2>&1
check rtlfixer
"$assay" --db "$T/a.db" export --format raw -o "$T/raw.jsonl" >/dev/null
python3 "$here/dedup_synth.py" "$T/raw.jsonl" "$n" 25 >"$T/synth.jsonl"
"$assay" --db "$T/a.db" import "$T/synth.jsonl" >/dev/null 2>&1
check synthetic --where origin=synth
