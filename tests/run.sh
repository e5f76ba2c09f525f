#!/bin/sh
# run.sh SUITE ASSAY - run every tests/SUITE/*.sh with the binary's
# absolute path as $1, from the repository root.  Exit 0 passes, 77
# skips (with the reason on the script's output), anything else fails.
suite=$1
assay=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
pass=0 fail=0 skip=0 failed=""
# Every test proves an env's toolchain once (its smoke test, cached per
# toolchain): one cache for the suite, whatever HOME a test gives itself.
if [ -z "${ASSAY_SMOKE_DIR:-}" ]; then
	ASSAY_SMOKE_DIR=$(mktemp -d "${TMPDIR:-/tmp}/assay-smoke.XXXXXX")
	export ASSAY_SMOKE_DIR
	trap 'rm -rf "$ASSAY_SMOKE_DIR"' EXIT
fi
for t in tests/"$suite"/[0-9]*.sh; do
	[ -f "$t" ] || continue
	log=$(mktemp)
	start=$(date +%s)
	sh "$t" "$assay" >"$log" 2>&1
	rc=$?
	secs=$(( $(date +%s) - start ))
	case $rc in
	0)  pass=$((pass + 1)); echo "ok   $t (${secs}s)" ;;
	77) skip=$((skip + 1)); echo "skip $t: $(tail -n 1 "$log")" ;;
	*)  fail=$((fail + 1)); failed="$failed $t"
	    echo "FAIL $t (exit $rc, ${secs}s)"; sed 's/^/     | /' "$log" | tail -n 40 ;;
	esac
	rm -f "$log"
done
echo "$suite: $pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
