#!/bin/sh
# dedup.sh - assay dedup on a million samples (issue 14 item 5).
#
# Builds, once, a database of N candidates (default 1,000,000): the
# shared VerilogEval v2 and RTLFixer rows, copied under new ids until
# there are N (assay --bench-fill: each copy gains a comment line, so
# after normalisation every copy is an exact duplicate of its source,
# as regenerated samples of a pipeline are).  Kept in $ASSAY_SCALE_DIR
# (default build-scale/, which git ignores) as dedup-N.db.
#
# Then times, in the same run, on the same database:
#   floor  assay dedup --exact-only --dry-run: read every candidate,
#          normalise it with its grammar and hash it (the exact pass
#          alone; the least any dedup of these samples costs)
#   full   assay dedup --dry-run: the same plus MinHash and LSH
#   datasketch  the same work by the established implementation:
#          bench/dedup_datasketch.py (datasketch's MinHash and MinHashLSH,
#          64 permutations, shingles of 5 tokens, threshold 0.8) over the
#          raw export of the same database (written once, not timed), in
#          a virtual environment of its own (build-scale/venv-datasketch,
#          pip install datasketch); left out, with the reason, where pip
#          cannot install it
# and prints each one's time and peak memory and the ratios.
#
#   sh bench/dedup.sh [build/assay]
#
# ASSAY_SCALE_N=1000000        candidates
# ASSAY_SCALE_DIR=build-scale  where the database is kept
# ASSAY_SCALE_REBUILD=1        build the database again
# ASSAY_DEDUP_DATASKETCH=0     no datasketch arm
set -eu
assay=$(cd "$(dirname "${1:-build/assay}")" && pwd)/$(basename "${1:-build/assay}")
data=${ASSAY_SHARED:-$(pwd)/../shared}/data
n=${ASSAY_SCALE_N:-1000000}
dir=${ASSAY_SCALE_DIR:-build-scale}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
db=$dir/dedup-$n.db
T=$(mktemp -d "${TMPDIR:-/tmp}/assay-dedup.XXXXXX")
trap 'rm -rf "$T"' EXIT

now() { date +%s.%N; }
ms() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0f", (b - a) * 1000 }'; }

[ -x "$assay" ] || { echo "dedup: no assay at $assay (make build)"; exit 2; }
if [ -n "${ASSAY_SCALE_REBUILD:-}" ] || [ ! -f "$db" ]; then
	[ -d "$data" ] || { echo "dedup: no shared data at $data"; exit 2; }
	rm -f "$db" "$db-wal" "$db-shm"
	t0=$(now)
	"$assay" --db "$db.tmp" import "$data/verilog-eval-v2" \
	    "$data/rtlfixer/verilogeval-syntax.jsonl" \
	    "$data/rtlfixer/verilogeval-simulate.jsonl" >/dev/null 2>&1
	"$assay" --db "$db.tmp" --bench-fill "$n" >/dev/null
	mv "$db.tmp" "$db"
	echo "dedup: built $db in $(ms "$t0" "$(now)") ms"
fi

# run NAME ARGS...: time assay dedup ARGS, its peak memory from
# /usr/bin/time when there is one
run() {
	name=$1
	shift
	t0=$(now)
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -f "%M %U %S" -o "$T/$name.mem" "$assay" \
		    --db "$db" dedup --dry-run --quiet "$@" >"$T/$name.out"
	else
		"$assay" --db "$db" dedup --dry-run --quiet "$@" >"$T/$name.out"
		echo 0 0 0 >"$T/$name.mem"
	fi
	t1=$(now)
	echo "$(ms "$t0" "$t1")" >"$T/$name.ms"
	awk '{printf "%.0f", ($2 + $3) * 1000}' "$T/$name.mem" >"$T/$name.cpu"
	printf '%-10s %8s ms wall %8s ms cpu %6s MB  %s\n' "$name" \
	    "$(cat "$T/$name.ms")" "$(cat "$T/$name.cpu")" \
	    "$(awk '{printf "%.0f", $1 / 1024}' "$T/$name.mem")" \
	    "$(tail -n 1 "$T/$name.out")"
}
run floor --exact-only
run full
# CPU time is the figure: the wall clock of a shared machine measures
# its other users too
awk -v f="$(cat "$T/floor.cpu")" -v m="$(cat "$T/full.cpu")" 'BEGIN {
	printf "full / floor (cpu): %.2f (MinHash and LSH cost %.0f%% over" \
	    " reading, normalising and hashing every sample)\n", m / f,
	    (m - f) * 100 / f }'

[ "${ASSAY_DEDUP_DATASKETCH:-1}" = 0 ] && exit 0
venv=$dir/venv-datasketch
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import datasketch' 2>/dev/null; then
	python3 -m venv "$venv" >/dev/null 2>&1 &&
	    "$venv/bin/pip" install -q datasketch >/dev/null 2>&1 || {
		echo "datasketch: cannot be installed here (no venv or no PyPI);"
		echo "the exact pass is the anchor"
		exit 0
	}
fi
jsonl=$dir/dedup-$n.jsonl
[ -f "$jsonl" ] || "$assay" --db "$db" export --format raw -o "$jsonl" >/dev/null
here=$(cd "$(dirname "$0")" && pwd)
t0=$(now)
if [ -x /usr/bin/time ]; then
	/usr/bin/time -f "%M %U %S" -o "$T/ds.mem" "$venv/bin/python" \
	    "$here/dedup_datasketch.py" <"$jsonl" >"$T/ds.out"
else
	"$venv/bin/python" "$here/dedup_datasketch.py" <"$jsonl" >"$T/ds.out"
	echo 0 0 0 >"$T/ds.mem"
fi
t1=$(now)
echo "$(ms "$t0" "$t1")" >"$T/ds.ms"
awk '{printf "%.0f", ($2 + $3) * 1000}' "$T/ds.mem" >"$T/ds.cpu"
printf '%-10s %8s ms wall %8s ms cpu %6s MB  %s (datasketch %s)\n' datasketch \
    "$(cat "$T/ds.ms")" "$(cat "$T/ds.cpu")" \
    "$(awk '{printf "%.0f", $1 / 1024}' "$T/ds.mem")" "$(cat "$T/ds.out")" \
    "$("$venv/bin/python" -c 'import datasketch; print(datasketch.__version__)')"
awk -v d="$(cat "$T/ds.cpu")" -v m="$(cat "$T/full.cpu")" 'BEGIN {
	printf "full / datasketch (cpu): %.2f (below 1: assay is faster; assay" \
	    " parses every sample with its grammar, the anchor splits words)\n",
	    m / d }'
