# 022-undo-refilter.sh - after a decision, an undo or a redo the queue's
# rows and its count are read again together, and the selection is on
# the candidate the action named.  Under a filter, a decision takes the
# first candidate out; u brings it back: the count, the rows drawn and
# the selection must all say so (a page read from the rows held before
# the undo drew one row short of the count, with the selection on
# another candidate and a phantom row below the last).  C-r takes it out
# again; j then lands on a real row.  The same through a bulk review
# (the candidate under the cursor stays on screen when it leaves the
# view, issue 24).
. "$(dirname "$0")/lib.sh"

"$ASSAY" --db "$DB" import "$DATA/rtlfixer/verilogeval-syntax.jsonl" \
    >/dev/null || fail "import rtlfixer"
"$ASSAY" --db "$DB" list --json | head -n 4 | json_field id >"$T/ids"
A=$(sed -n 1p "$T/ids")
B=$(sed -n 2p "$T/ids")
C=$(sed -n 3p "$T/ids")
D=$(sed -n 4p "$T/ids")
lab() { "$ASSAY" --db "$DB" --reviewer "$1" label "$2" "$3" >/dev/null ||
    fail "label $2 $3 by $1"; }
# B, C, D in disagreement; A agreed (not in the queue)
lab alice "$A" compile
lab bob "$A" compile
for id in "$B" "$C" "$D"; do
	lab alice "$id" compile
	lab bob "$id" functional
done
short() { echo "$1" | cut -c1-8; }

# rows: the number of candidate rows drawn in the queue
rows() { screen | grep -c -E '^│(▶|\*| )[ *×][0-9a-f]{8} '; }
# selected ID: the queue's cursor is on ID and the spec pane shows it
selected() {
	screen | grep -q -E "^│▶[ *]$(short "$1") " ||
	    fail "$2: the cursor is not on $1"
	wait_for "candidate $(short "$1")"
}

start 120 40 "--reviewer carol"
wait_for "1/174"
command_line "filter disagree=yes"
wait_for " 1/3 "
[ "$(rows)" -eq 3 ] || fail "3 rows under the filter, drawn $(rows)"
selected "$B" "the filter"

keys 1			# final label: B leaves the disagreement queue
wait_for " 1/2 "
[ "$(rows)" -eq 2 ] || fail "2 rows after the decision, drawn $(rows)"
ok "a decision takes the candidate out of the filter"

keys u
wait_for "undid"
wait_for " 1/3 "
[ "$(rows)" -eq 3 ] || fail "u: the count says 3, drawn $(rows) rows"
selected "$B" "u"
keys C-l
wait_for " 1/3 "
[ "$(rows)" -eq 3 ] || fail "C-l: drawn $(rows) rows"
keys j j
wait_for " 3/3 "
selected "$D" "j j after u"
screen | grep -q -F "nothing selected" && fail "j landed on a phantom row"
ok "u brings the candidate back into the list, selected"

keys g
wait_for " 1/3 "
keys C-r
wait_for "redid"
wait_for "(not in filter)"
wait_for " -/2 "	# the queue's title: the cursor is on none of its rows
[ "$(rows)" -eq 2 ] || fail "C-r: the count says 2, drawn $(rows) rows"
keys j
wait_gone "(not in filter)"
selected "$C" "j after C-r"
keys j
wait_for " 2/2 "
selected "$D" "j j after C-r"
screen | grep -q -F "nothing selected" && fail "j landed on a phantom row"
ok "C-r takes it out again; the rows follow the count"

# a bulk review takes C and D out of an unreviewed filter together; u
# brings both back
command_line "filter disagree=yes status=unreviewed"
wait_for " 1/2 "
keys Space Space
wait_for "2 marked"
command_line "review reject"
wait_for "y/n"
keys y
wait_for "review 2 candidates: reject"
# the view is empty; the candidate under the cursor stays, marked, until
# the reviewer moves (issue 24)
wait_for " -/0 "
wait_for "left the view"
[ "$(rows)" -eq 1 ] || fail "the candidate that left is not shown"
keys u
wait_for "undid review rejected of 2 candidates, first of $C"
# back in the view, the candidate under the cursor is a row again
wait_for " 2/2 "
[ "$(rows)" -eq 2 ] || fail "bulk u: the count says 2, drawn $(rows) rows"
selected "$D" "bulk u"
keys C-r
wait_for "redid review rejected of 2 candidates, first of $C"
wait_for " -/0 "
[ "$(rows)" -eq 1 ] || fail "bulk C-r: drawn $(rows) rows, want the one left"
keys j
wait_for "no candidate matches the filter"
ok "a bulk u and C-r name the same candidate, and the rows follow"

command_line q	# :q leaves every view at once
wait_for "ASSAY-EXIT 0"
