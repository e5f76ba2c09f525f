# 023-cursor-follows-candidate.sh - issue 12, "the cursor follows the
# candidate": after a change of the view the cursor stays on the
# candidate it was on, not on its row number.  (1) A bulk :label of three
# marked rows above the cursor takes them out of the view: the cursor
# stays on its candidate (it used to keep row 5, now another candidate).
# (2) A headless `assay verify` changes the view behind the workbench's
# back; C-l re-reads it: the candidate under the cursor left the view.
# Since issue 24 the cursor never moves by itself: the candidate stays on
# screen under it, dimmed and marked; a label key lands on it (the one
# the reviewer sees) and advances to the row after it.
. "$(dirname "$0")/lib.sh"
command -v iverilog >/dev/null 2>&1 || skip "iverilog is not installed"

"$ASSAY" --db "$DB" import "$DATA/rtlfixer/verilogeval-syntax.jsonl" \
    >/dev/null || fail "import rtlfixer"
"$ASSAY" --db "$DB" list --json | head -n 12 | json_field id >"$T/ids"
id_n() { sed -n "$1p" "$T/ids"; }
short() { echo "$1" | cut -c1-8; }
cat_of() { row "$1" | json_field category; }
selected() {
	screen | grep -q -E "^│▶[ *]$(short "$1") " ||
	    fail "$2: the cursor is not on $1"
}

# (1) marks above the cursor, then the bulk label
start 120 40 "--where category=none"
wait_for " 1/174 "
keys Space Space Space
wait_for "3 marked"
keys j
wait_for " 5/174 "
E=$(id_n 5)
selected "$E" "before the bulk label"
command_line "label compile"
wait_for "label 3 marked candidates compile? y/n"
keys y
wait_for "label 3 candidates: compile"
wait_for " 2/171 "
selected "$E" "after the bulk label"
wait_for "candidate $(short "$E")"
ok "after a bulk label above it the cursor stays on $(short "$E") (row 2)"

# (2) headless verify of the candidate under the cursor and one above:
# both leave the view verdict=none
command_line "filter verdict=none"
wait_for " 1/174 "
keys j j j j
wait_for " 5/174 "
E=$(id_n 5)
F=$(id_n 6)
selected "$E" "before the headless verify"
"$ASSAY" --db "$DB" verify --quiet "$(id_n 2)" "$E" >/dev/null 2>&1
[ "$(row "$E" | json_field verdict)" != "" ] || fail "no verdict for $E"
keys C-l
# the cursor never moves by itself (issue 24): E stays under it, marked,
# in its place (after row 3 of the 172 left)
wait_for "$(short "$E") left the view"
wait_for " -/172 "
screen | grep -q -E "^│▶×$(short "$E") .* left view" ||
    fail "$E is not shown under the cursor, marked"
screen | grep -A1 -E "^│▶×$(short "$E") " | tail -n 1 |
    grep -q -E "^│  $(short "$F") " || fail "$F is not the row after $E"
ok "C-l after a headless verify: the cursor stays on $(short "$E"), marked"

# a label key lands on E, the candidate the reviewer sees, and advances
# to the row after it
keys 3
wait_for "$E labelled functional by tester"
wait_for " 4/172 "
selected "$F" "after the label"
screen | grep -q -F "left the view" && fail "the row that left is still shown"
[ "$(cat_of "$F")" = "" ] || [ "$(cat_of "$F")" = null ] ||
    fail "$F was labelled by a key meant for $E: $(cat_of "$F")"
keys 3
wait_for "$F labelled functional by tester"
ok "the key lands on $(short "$E"); the next on $(short "$F")"
command_line q	# :q leaves every view at once
wait_for "ASSAY-EXIT 0"
