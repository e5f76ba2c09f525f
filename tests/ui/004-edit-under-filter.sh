# 004-edit-under-filter.sh - regression, workbench bug 1: `e` under a
# filter used freed memory.  wb_sync called wb_load(wb, wb->cur.id) and
# wb_load freed cur.id before reading it (ASan: heap-use-after-free in
# store_candidate_get), so after `:filter verdict=fail`, `j`, `e` the
# status bar showed garbage and the panes "nothing selected".  Also: the
# failing repair, which does match verdict=fail once its run is stored,
# was marked "(not in filter)".
. "$(dirname "$0")/lib.sh"

"$ASSAY" --db "$DB" import "$DATA/rtlfixer/verilogeval-syntax.jsonl" \
    >/dev/null || fail "import rtlfixer"
IDS=$("$ASSAY" --db "$DB" list --json | head -n 3 | json_field id)
# shellcheck disable=SC2086
"$ASSAY" --db "$DB" verify --quiet $IDS >/dev/null 2>&1
NFAIL=$("$ASSAY" --db "$DB" list --json --where verdict=fail | wc -l)
[ "$NFAIL" -ge 2 ] || fail "need two failing candidates, have $NFAIL"
ID=$("$ASSAY" --db "$DB" list --json --where verdict=fail | sed -n 2p |
    json_field id)

# an editor that changes the file but not what fails
cat >"$T/touch" <<'ED'
#!/bin/sh
printf '\n// touched in 004-edit-under-filter\n' >>"$1"
ED
chmod +x "$T/touch"
export EDITOR="$T/touch"
start 80 24
wait_for "1/174"
command_line "filter verdict=fail"
wait_for "1/$NFAIL"
keys j
wait_for "2/$NFAIL"
screen | grep -q "▶ $ID" || fail "$ID is not selected"
keys e

REP=$(repair_of "$ID") || fail "no repair of $ID in the store"
wait_for "$REP: fail" 30
[ "$(row "$REP" | json_field verdict)" = fail ] || fail "repair not failed"
ok "e made the failing repair $REP of $ID"

# a key gives the layout back (the zoom is held after the run)
keys Escape
wait_for " queue "
screen | grep -q -F "not in filter" &&
    fail "the repair that matches verdict=fail is 'not in filter'"
screen | grep -q "▶ $REP" || fail "the repair is not selected in the queue"
screen | tail -n 1 | grep -q -E "^ [0-9]+/$((NFAIL + 1)) " ||
    fail "the status bar does not count the repair in the filter"
for p in spec candidate trace; do
	pane $p | grep -q "nothing selected" && fail "$p: nothing selected"
done
pane spec | grep -q "$REP" || fail "the spec pane does not show $REP"
# the trace starts on a step, never on a feedback whose step is above
# it ("└ feedback: ..." stood first, the failed parent scrolled off)
pane trace | head -n 1 | grep -q "feedback" &&
    fail "the trace starts on an orphaned feedback: $(pane trace)"
pane trace | grep -q "$ID" || fail "the trace lacks the parent $ID: $(pane trace)"
ok "the repair is selected in the filter and shown in every pane"

command_line q	# :q leaves every view at once
wait_for "ASSAY-EXIT 0"
ok "quit cleanly (no sanitizer report)"
