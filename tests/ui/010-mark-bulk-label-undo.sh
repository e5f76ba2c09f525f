# 010-mark-bulk-label-undo.sh - issue 5, "Deciding fast": Space marks
# three candidates (a * in the queue, the count in the status bar),
# :label asks y/n with the count, labels all three (checked through the
# headless list --json), one u undoes the whole bulk action, and after a
# restart one C-r redoes it.
. "$(dirname "$0")/lib.sh"

"$ASSAY" --db "$DB" import "$DATA/rtlfixer/verilogeval-syntax.jsonl" \
    >/dev/null || fail "import rtlfixer"
IDS=$("$ASSAY" --db "$DB" list --json | head -n 4 | json_field id)
A=$(echo "$IDS" | sed -n 1p)
B=$(echo "$IDS" | sed -n 2p)
C=$(echo "$IDS" | sed -n 3p)
D=$(echo "$IDS" | sed -n 4p)
cat_of() { row "$1" | json_field category; }

start 120 40
wait_for "1/174"
keys Space Space Space
wait_for "3 marked"
wait_for "4/174"
[ "$(screen | grep -c -F '│* ')" -eq 3 ] || fail "no * on the three marked rows"
ok "Space marks three candidates"

command_line "label compile"
wait_for "label 3 marked candidates compile? y/n"
keys n
wait_for "cancelled"
[ "$(cat_of "$A")" != compile ] || fail "labelled after n"
command_line "label compile"
wait_for "label 3 marked candidates compile? y/n"
# C-l repaints and keeps the question (it answered no)
keys C-l
sleep 0.3
screen | tail -n 1 | grep -q "compile? y/n" ||
    fail "C-l dropped the question: $(screen | tail -n 1)"
keys y
wait_for "label 3 candidates: compile"
wait_gone "3 marked"
for id in "$A" "$B" "$C"; do
	[ "$(cat_of "$id")" = compile ] || fail "$id is not labelled compile"
done
[ "$(cat_of "$D")" != compile ] || fail "an unmarked candidate is labelled"
row "$A" | grep -q -F '"category_source":"tester"' ||
    fail "the label is not by the reviewer"
ok "the bulk label applies to the three marked candidates"

keys u
wait_for "of 3 candidates"
for id in "$A" "$B" "$C"; do
	[ "$(cat_of "$id")" != compile ] || fail "$id still labelled after u"
done
ok "one u undoes the whole bulk label"
keys q
wait_for "ASSAY-EXIT 0"

start 120 40
wait_for "1/174"
keys C-r
wait_for "redid label compile of 3 candidates"
for id in "$A" "$B" "$C"; do
	[ "$(cat_of "$id")" = compile ] || fail "$id not relabelled by C-r"
done
ok "after a restart one C-r redoes it"

# :review on the selected candidate alone, and :unmark
keys g Space
wait_for "1 marked"
command_line "unmark"
wait_gone "1 marked"
keys g
wait_for "1/174"
# one candidate and nothing to warn of: decided at once, as f would
command_line "review flag"
wait_for "$A flagged by tester"
row "$A" | grep -q -F '"status":"flagged"' || fail "$A is not flagged"
ok ":review with nothing marked decides the selected candidate"
keys q
wait_for "ASSAY-EXIT 0"
