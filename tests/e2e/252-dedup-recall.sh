# 252: dedup against brute force (issue 25 item 6): bench/dedup-recall.sh
# on the shared RTLFixer rows and on 2,000 samples made from them by
# edits; every pair whose shingle sets reach Jaccard 0.8 (all pairs
# compared by bench/dedup_recall.c) must end in one cluster for at least
# 95 % of them (recall), and at least 95 % of the pairs dedup joined on
# must reach it (precision).  The figures at 20,000 samples are in
# docs/benchmarks.md.
. "$(dirname "$0")/lib.sh"
need_data
command -v cc >/dev/null || skip "no C compiler for the reference"
command -v python3 >/dev/null || skip "no python3 for the synthetic set"
bench=$(cd "$(dirname "$0")/../../bench" && pwd)
ASSAY_SHARED=$SHARED sh "$bench/dedup-recall.sh" "$ASSAY" 2000 >"$T/out" 2>&1 ||
    fail "dedup-recall: $(cat "$T/out")"
cat "$T/out"
for set in rtlfixer synthetic; do
	r=$(sed -n "s/^dedup-recall: $set: .*: recall \([0-9.]*\)$/\1/p" "$T/out")
	p=$(sed -n "s/^dedup-recall: $set: .*: precision \([0-9.]*\)$/\1/p" "$T/out")
	n=$(sed -n "s/^dedup-recall: $set: true pairs (brute force) \([0-9]*\)$/\1/p" "$T/out")
	[ -n "$r" ] && [ -n "$p" ] && [ -n "$n" ] || fail "$set: no figures"
	[ "$n" -gt 20 ] || fail "$set: $n true pairs, too few to measure"
	awk -v r="$r" -v p="$p" 'BEGIN { exit !(r >= 0.95 && p >= 0.95) }' ||
	    fail "$set: recall $r, precision $p (want both >= 0.95)"
	echo "ok: $set: recall $r, precision $p over $n pairs"
done
echo "252-dedup-recall: ok"
