# 007-recorded-disagreement.sh - issue 3, "Recorded versus re-derived":
# the spec pane shows the row's recorded result next to assay's own and
# marks a disagreement.  An RTLFixer syntax-set row recorded as a compile
# error that compiles and passes under Icarus Verilog 11 today.
. "$(dirname "$0")/lib.sh"
command -v iverilog >/dev/null || skip "iverilog not installed"

"$ASSAY" --db "$DB" import "$DATA/rtlfixer/verilogeval-syntax.jsonl" \
    >/dev/null || fail "import rtlfixer"
"$ASSAY" --db "$DB" verify --quiet --jobs 2 >/dev/null || fail "verify"
PASS=$("$ASSAY" --db "$DB" list --json --where "verdict=pass" | head -n 1 |
    json_field id)
FAIL=$("$ASSAY" --db "$DB" list --json --where "verdict=fail stage=compile" |
    head -n 1 | json_field id)
[ -n "$PASS" ] && [ -n "$FAIL" ] || fail "no pass or no compile failure"

start 120 30 "--where id=$PASS"
wait_for "$PASS"
pane spec | grep -q -F "≠ fail (compile) · assay says pass" ||
    fail "the disagreement is not marked"
ok "a recorded compile error that passes today is marked"
keys q
sleep 0.3

start 120 30 "--where id=$FAIL"
wait_for "$FAIL"
pane spec | grep -q -F "recorded" || fail "no recorded result shown"
pane spec | grep -q -F "≠" && fail "an agreement is marked as a disagreement"
ok "a recorded compile error that still fails to compile is not marked"
