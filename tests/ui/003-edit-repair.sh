# 003-edit-repair.sh - issue 2, "The workbench": e opens $EDITOR on the
# candidate in the toolchain pane; a saved change becomes a repair (kind
# repair, origin the reviewer, the old one as parent) that is verified at once
# and shows in the trace pane.  Ctrl-] hands the keyboard back and forth
# while an interactive editor runs.
. "$(dirname "$0")/lib.sh"

"$ASSAY" --db "$DB" import "$DATA/rtlfixer/verilogeval-syntax.jsonl" \
    >/dev/null || fail "import rtlfixer"
ID=$("$ASSAY" --db "$DB" list --json | head -n 1 | json_field id)

# A non-interactive editor: declare the outputs as reg and say so.
cat >"$T/fix" <<'FIX'
#!/bin/sh
sed -i 's/output Y1/output reg Y1/; s/output Y3/output reg Y3/' "$1"
printf '\n// repaired in 003-edit-repair\n' >>"$1"
FIX
chmod +x "$T/fix"

# the workbench gets $EDITOR from its environment (start passes it on)
export EDITOR="$T/fix"
start 80 24 "--where benchmark=rtlfixer"
wait_for "1/174"

# fail first, so that the repair answers the toolchain's feedback
keys v
wait_for "$ID: fail at compile" 30
keys e
REP=$(repair_of "$ID") || fail "no repair of $ID in the store"
# the small screen keeps the zoom after the run until a key
wait_for "$REP: " 30
wait_for "(zoomed until a key)"
keys Escape
wait_for "repaired" 30
R=$(row "$REP")
[ "$(echo "$R" | json_field kind)" = repair ] || fail "kind: $R"
[ "$(echo "$R" | json_field origin)" = tester ] || fail "origin: $R"
[ "$(echo "$R" | json_field parent)" = "$ID" ] || fail "parent: $R"
"$ASSAY" --db "$DB" show "$REP" | grep -q "repaired in 003-edit-repair" ||
    fail "the repair lacks the edit"
ok "e made repair $REP of $ID"

# it was verified in the pane, and the trace shows failed -> repaired
wait_for "$REP: " 30
V=$(row "$REP" | json_field verdict)
[ -n "$V" ] && [ "$V" != null ] || fail "the repair was not verified"
pane trace | grep -q "failed *$ID" || fail "trace lacks the failed parent"
pane trace | grep -q "feedback" || fail "trace lacks the feedback"
pane trace | grep -q "repaired[ ✓]*$REP .*$V" || fail "trace lacks the repair"
ok "the trace shows $ID -> feedback -> $REP ($V)"
# the small screen zoomed for e and v and gave the layout back
screen | grep -q " queue " || fail "the layout did not come back"
ok "the layout is back after the run"

# an interactive editor: the keyboard goes back and forth with C-]
if command -v vi >/dev/null 2>&1; then
	keys q
	wait_for "ASSAY-EXIT 0"
	export EDITOR=vi
	start 100 30 "--where benchmark=rtlfixer"
	wait_for "1/175"
	keys e
	wait_for "has the keyboard"
	keys C-]
	wait_for "keyboard: workbench"
	keys C-]
	wait_for "has the keyboard"
	keys Escape
	keys -l ":q!"
	keys Enter
	wait_for "no change, nothing saved"
	[ "$("$ASSAY" --db "$DB" list --json --where "parent=$ID" |
	    wc -l)" -eq 1 ] || fail "quitting vi made a repair"
	ok "C-] hands the keyboard back and forth; :q! saves nothing"
fi
keys q
wait_for "ASSAY-EXIT 0"
