#!/bin/sh
# verify.sh - how much assay's verify costs over the toolchain itself.
#
# Runs `assay verify --jobs 2` over the shared data (VerilogEval v2 and
# the RTLFixer syntax and simulate sets), then, in the same run, a plain
# shell loop doing the same iverilog + vvp commands with the same
# parallelism: once under the same prlimit + bubblewrap lines assay
# uses, once bare.  Prints both ratios.  Target: at most 1.15 against
# the sandboxed loop.
#
#   sh bench/verify.sh [build/assay]
set -eu
assay=$(cd "$(dirname "${1:-build/assay}")" && pwd)/$(basename "${1:-build/assay}")
data=${ASSAY_SHARED:-$(pwd)/../shared}/data
jobs=2
B=$(mktemp -d "${TMPDIR:-/tmp}/assay-bench.XXXXXX")
chmod 755 "$B"	# the sandbox user must reach the work directories
[ -n "${KEEP_BENCH:-}" ] || trap 'rm -rf "$B"' EXIT

now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }

"$assay" --db "$B/a.db" import "$data/verilog-eval-v2" \
    "$data/rtlfixer/verilogeval-syntax.jsonl" \
    "$data/rtlfixer/verilogeval-simulate.jsonl" >/dev/null 2>&1
n=$("$assay" --db "$B/a.db" list --json | wc -l)

# The work directories, with the exact commands, for the loops.
mkdir -p "$B/work"
TMPDIR=$B/work "$assay" --db "$B/a.db" verify --jobs $jobs --quiet \
    --keep-workdir=all >/dev/null

t0=$(now)
"$assay" --db "$B/a.db" verify --jobs $jobs --force --quiet >/dev/null
t1=$(now)

# Each kept directory has reproduce.sh: "cd DIR", then one line per stage.
# The loop stops a run at its first failing stage, as verify does.
cat > "$B/one.sh" <<'ONE'
dir=$1 mode=$2
cd "$dir" || exit 1
tail -n +5 reproduce.sh | while IFS= read -r line; do
	sub=.
	case $line in
	"(cd "*)	# a stage that sees only a subdirectory
		sub=${line#(cd }; sub=${sub%% *}
		line=${line#*&& }; line=${line%)} ;;
	esac
	if [ "$mode" = bare ]; then
		line=${line##* -- }
	fi
	(cd "$sub" && timeout 30 sh -c "$line") </dev/null >/dev/null 2>&1 || exit 0
done
ONE
run_loop() {
	ls -d "$B"/work/assay-run-* | xargs -P $jobs -I{} sh "$B/one.sh" {} "$1"
}
t2=$(now); run_loop sandbox; t3=$(now)
t4=$(now); run_loop bare; t5=$(now)

a=$(secs "$t0" "$t1"); s=$(secs "$t2" "$t3"); b=$(secs "$t4" "$t5")
echo "candidates:            $n (jobs $jobs)"
echo "assay verify:          ${a} s"
echo "sandboxed shell loop:  ${s} s   ratio $(ratio "$a" "$s") (target <= 1.15)"
echo "bare shell loop:       ${b} s   ratio $(ratio "$a" "$b")"
