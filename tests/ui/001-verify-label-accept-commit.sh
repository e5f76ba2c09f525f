# 001-verify-label-accept-commit.sh - issue 2, "The workbench" and its UI
# test: verify a failing RTLFixer candidate live and see iverilog's error
# in the toolchain pane, label it 1, accept a passing VerilogEval v2
# reference, press c, and find the commit in the dataset's git log.
. "$(dirname "$0")/lib.sh"

"$ASSAY" --db "$DB" import "$DATA/rtlfixer/verilogeval-syntax.jsonl" \
    >/dev/null || fail "import rtlfixer"
"$ASSAY" --db "$DB" import "$DATA/verilog-eval-v2" >/dev/null 2>&1 ||
    fail "import verilog-eval-v2"
ID=$("$ASSAY" --db "$DB" list --json --where benchmark=rtlfixer | head -n 1 |
    json_field id)
[ -n "$ID" ] || fail "no rtlfixer candidate"

start 100 30 "--where benchmark=rtlfixer --repo '$T/dataset'"
wait_for "$ID"
wait_for "1/174"

# v: iverilog's own output appears in the toolchain pane, live
keys v
wait_for "$ID: fail at compile" 30
pane toolchain | grep -q "error:" ||
    fail "no iverilog error in the toolchain pane"
ok "iverilog's error shows in the toolchain pane"
pane toolchain | grep -q -F "$ID: fail" || fail "no verdict line in the pane"
[ "$(row "$ID" | json_field verdict)" = fail ] || fail "run not stored"
ok "the run is stored: fail"

# 1: label compile by the reviewer, then advance
keys 1
wait_for "$ID labelled compile by tester"
wait_for "2/174"
[ "$(row "$ID" | json_field category)" = compile ] || fail "no label"
[ "$(row "$ID" | json_field category_source)" = tester ] ||
    fail "label not by the reviewer"
ok "labelled compile by tester and advanced"

# a passing reference: filter, verify, accept
command_line "filter task=verilog-eval-v2/Prob001_zero"
wait_for "1/1"
REF=$("$ASSAY" --db "$DB" list --json --where \
    task=verilog-eval-v2/Prob001_zero | json_field id)
keys v
wait_for "$REF: pass at simulate" 30
keys a
wait_for "$REF accepted by tester"
[ "$(row "$REF" | json_field status)" = accepted ] || fail "not accepted"
ok "the reference passed and is accepted"

# c: commit to the dataset repository
keys c
wait_for "committed 1 sample"
git -C "$T/dataset" log --format=%B >"$T/log" || fail "no dataset repository"
[ "$(git -C "$T/dataset" rev-list --count HEAD)" = 1 ] ||
    fail "want one commit"
grep -q "^Assay-Sample: $REF" "$T/log" || fail "no Assay-Sample trailer"
grep -q "^Assay-Verdict: pass" "$T/log" || fail "no Assay-Verdict trailer"
grep -q "^Reviewed-by: tester" "$T/log" || fail "no Reviewed-by trailer"
ok "one commit with the sample's trailers"

# c again: nothing new
keys c
wait_for "nothing new to commit"
[ "$(git -C "$T/dataset" rev-list --count HEAD)" = 1 ] ||
    fail "a second commit was made"
ok "nothing new to commit"

command_line q	# :q leaves every view at once
wait_for "ASSAY-EXIT 0"
ok "q quits with status 0"
