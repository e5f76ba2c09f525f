# 024-navigation-stack.sh - issue 12, "a navigation stack" (VisiData's
# sheets): a drill-down from the stats sheet pushes; Esc goes back to the
# sheet and to the filter before it, with the cursor on the candidate it
# was on; a :view pushes and q in it goes back; a zoom pushes and Esc
# gives the layout back; Esc on another pane goes back to the queue; q
# at the top quits.  C-c closes the command line.
. "$(dirname "$0")/lib.sh"
command -v iverilog >/dev/null 2>&1 || skip "iverilog is not installed"

"$ASSAY" --db "$DB" import "$DATA/rtlfixer/verilogeval-syntax.jsonl" \
    >/dev/null || fail "import rtlfixer"
IDS=$("$ASSAY" --db "$DB" list --json | head -n 24 | json_field id)
# shellcheck disable=SC2086
"$ASSAY" --db "$DB" verify --jobs 2 --quiet $IDS >/dev/null 2>&1
NRUN=$("$ASSAY" --db "$DB" list --json --where "verdict!=none" | wc -l)
NCOMP=$("$ASSAY" --db "$DB" list --json --where \
    "verdict!=none benchmark=rtlfixer category=compile verdict!=pass" | wc -l)
[ "$NCOMP" -ge 2 ] || fail "need compile failures, have $NCOMP"
THIRD=$("$ASSAY" --db "$DB" list --json --where "verdict!=none" |
    sed -n 3p | json_field id | cut -c1-8)
status() { screen | tail -n 1; }

start 120 32
wait_for " 1/174 "
command_line "filter verdict!=none"
wait_for " 1/$NRUN "
keys j j
wait_for " 3/$NRUN "
keys s
wait_for "─ stats "
wait_for "rtlfixer · compile: $NCOMP of $NRUN"
keys Enter
wait_for " 1/$NCOMP "
wait_gone "─ stats "
status | grep -q -F "category=compile" || fail "no drill-down filter"
ok "Enter on a cell drills down to the $NCOMP compile failures"

keys Escape
wait_for "─ stats "
wait_for "rtlfixer · compile: $NCOMP of $NRUN"
ok "Esc goes back to the sheet, the cursor on the same cell"
keys Escape
wait_gone "─ stats "
wait_for " 3/$NRUN "
status | grep -q -F " verdict!=none " || fail "not back to the filter"
status | grep -q -F "category=compile" && fail "the drill-down stayed"
screen | grep -q -E "^│▶ $THIRD " || fail "the cursor is not on $THIRD"
ok "Esc again: back to verdict!=none with the cursor on $THIRD"

# a typed filter and a saved view push; q in them goes back, not out
command_line "filter verdict=pass"
wait_for "verdict=pass"
command_line "save passing"
wait_for "saved view passing"
keys Escape
wait_for "back from the filter to verdict!=none"
wait_for " 3/$NRUN "
command_line "view passing"
wait_for "view passing: verdict=pass (Esc goes back)"
keys q
wait_for "back from the view to verdict!=none"
keys q
wait_for "back from the filter to all"
wait_for " 1/174 "
ok "Esc and q in a filter or a view go back to the queue before it"

# a zoom pushes: Esc gives the layout back; Esc on a pane: the queue
keys Tab Tab z
wait_for "candidate (zoomed)"
keys Escape
wait_gone "(zoomed)"
wait_for " toolchain "
keys Escape
keys j
wait_for " 2/174 "
ok "Esc closes the zoom, then takes the focus back to the queue"

# C-c closes the command line
keys : f i l
keys C-c
wait_gone ":fil"
keys Escape
wait_for "nothing to go back to (q quits)"
keys q
wait_for "ASSAY-EXIT 0"
ok "C-c closes the prompt; q at the top quits"
