#!/bin/sh
# triage.sh - how often triage can show a reviewer where a failure is.
#
# Imports the RTLFixer syntax and simulate sets, verifies them, and
# prints the share of failed rows whose suggested category is compile
# or functional and whose evidence points to a line of the candidate
# (issue 3's benchmark; figures go to docs/benchmarks.md).
#
#   sh bench/triage.sh [build/assay]
set -eu
assay=$(cd "$(dirname "${1:-build/assay}")" && pwd)/$(basename "${1:-build/assay}")
data=${ASSAY_SHARED:-$(pwd)/../shared}/data
B=$(mktemp -d "${TMPDIR:-/tmp}/assay-triage.XXXXXX")
trap 'rm -rf "$B"' EXIT
db=$B/t.db

"$assay" --db "$db" import "$data/rtlfixer/verilogeval-syntax.jsonl" \
    "$data/rtlfixer/verilogeval-simulate.jsonl" >/dev/null
"$assay" --db "$db" verify --jobs 2 --quiet >/dev/null
failed=0 cf=0 pointed=0
for id in $("$assay" --db "$db" list --where "verdict=fail" |
    awk 'NR > 1 {print $1}'); do
	failed=$((failed + 1))
	row=$("$assay" --db "$db" show "$id" --json)
	case $row in
	*'"category":"compile"'*|*'"category":"functional"'*) ;;
	*) continue ;;
	esac
	cf=$((cf + 1))
	case $row in
	*'"evidence_line":'[1-9]*) pointed=$((pointed + 1)) ;;
	esac
done
echo "failed rows:                          $failed"
echo "suggested compile or functional:      $cf"
echo "... with evidence on a candidate line: $pointed" \
    "($(awk -v a="$pointed" -v b="$failed" 'BEGIN { printf "%.1f", 100 * a / b }')% of failed rows)"
