# 041-sheets-are-panes.sh - the help, stats and diff sheets are panes
# (ADR 18): ? opens help over the stats sheet and closing it shows the
# sheet again; a drill-down from a grouping Tab chose comes back to that
# grouping and cell; a sheet with nothing to show does not open; the
# wheel-free keys a sheet does not use stay in it.
. "$(dirname "$0")/lib.sh"

"$ASSAY" --db "$DB" import "$DATA/rtlfixer/verilogeval-syntax.jsonl" \
    >/dev/null || fail "import rtlfixer"
start 120 40 "--where benchmark=rtlfixer"
wait_for "1/174"

keys s
wait_for "Tab groups"
screen | grep -q "^.benchmark " || fail "stats is not grouped by benchmark"
keys '?'
wait_for "live keymap"
screen | grep -q "Tab groups" && fail "help is not over the stats sheet"
keys '?'
wait_for "Tab groups"
screen | grep -q "live keymap" && fail "help did not close"
ok "help over the stats sheet gives the sheet back"

keys Tab
wait_for "model "
screen | grep -q "^.model " || fail "Tab did not group by model"
keys j l l Enter
wait_gone "Tab groups"
screen | grep -q " queue " || fail "Enter did not drill down to the queue"
F=$(screen | tail -n 1)
echo "$F" | grep -q "model=" || fail "the drill-down filter names no model: $F"
keys q
wait_for "Tab groups"
screen | grep -q "^.model " || fail "back from the drill-down: not by model"
screen | grep -q "back from the stats drill-down" ||
    fail "no message for the way back"
ok "back from a drill-down reopens the sheet at its grouping"

# a key the sheet does not use stays in it (the sheet is modal)
keys v
sleep 0.3
screen | grep -q "Tab groups" || fail "v left the stats sheet"
screen | grep -q "verifying" && fail "v verified from under the sheet"
keys Escape
wait_gone "Tab groups"
ok "the sheet keeps the keys it does not use"

# no reference, no parent, no repair: the diff sheet does not open
keys d
wait_for "diff: nothing to compare"
screen | grep -q " queue " || fail "an empty diff sheet opened"
ok "d with nothing to compare opens no sheet"

quit_all
