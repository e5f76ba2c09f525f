# 050-no-op-decisions.sh - issue 24, item G of what a new user met: a
# repeated decision was journalled every time (f pressed 16 times wrote
# 16 events, which inflated the throughput and took 16 undos).  Now a
# label or review that changes nothing (the same, by the same reviewer,
# on the same run) is not made: one event, and one u takes it back.
. "$(dirname "$0")/lib.sh"
command -v sqlite3 >/dev/null 2>&1 || skip "no sqlite3 shell to read the journal"

import_syntax
A=$(id_n 1)
events() {	# ACTION: the journal's events of that action on A
	sqlite3 "$DB" "SELECT count(*) FROM event WHERE cand_id = '$A' AND action = '$1'"
}

start 120 40
wait_for " 1/$N "
command_line "advance off"
wait_for "advance off"
i=0
while [ $i -lt 16 ]; do keys f; i=$((i + 1)); done
wait_for "$A flagged by tester already: nothing changed"
sleep 1
[ "$(events review)" -eq 1 ] || fail "16 f wrote $(events review) review events"
keys 1 1 1
wait_for "$A labelled compile by tester already: nothing changed"
sleep 1
[ "$(events label)" -eq 1 ] || fail "3 labels wrote $(events label) label events"
ok "16 f and 3 times 1 made one review and one label"

# one u takes the label back, the next the review
keys u
wait_for "undid label compile of $A"
keys u
wait_for "undid review flagged of $A"
[ "$(row "$A" | json_field status)" = unreviewed ] ||
    fail "two undos left $A $(row "$A" | json_field status)"
ok "one undo each"

# a bulk label on marked rows already so: no question, no batch, and
# the message says nothing changed (it said "label 2 candidates:
# compile" and asked y/n for nothing); one of two already so is counted
B=$(id_n 2); C=$(id_n 3)
keys g
wait_for " 1/$N "
keys Space Space
wait_for "2 marked"
command_line "label compile"
wait_for "label 2 marked candidates compile? y/n"
keys y
wait_for "label 2 candidates: compile by tester (one undo takes all back)"
before=$(sqlite3 "$DB" "SELECT count(*) FROM event")
keys g Space Space
wait_for "2 marked"
command_line "label compile"
wait_for "label 2 candidates: labelled compile by tester already: nothing changed"
sleep 0.5
[ "$(sqlite3 "$DB" "SELECT count(*) FROM event")" = "$before" ] ||
    fail "a bulk label that changed nothing was journalled"
keys g Space Space Space
wait_for "3 marked"
command_line "label compile"
wait_for "label 3 marked candidates compile (some already so)? y/n"
keys y
wait_for "label 1 of 3 candidates: compile by tester, 2 already so (one undo takes them back)"
[ "$(sqlite3 "$DB" "SELECT count(*) FROM event")" = "$((before + 1))" ] ||
    fail "the bulk label of one new of three wrote more than one event"
ok "a bulk decision counts what it changes, and asks nothing for nothing"

# a key that changes nothing still advances, as any decision key does
# (it stayed, so the next key landed on the same row)
command_line "advance on"
wait_for "advance on"
keys g
wait_for " 1/$N "
keys 2
wait_for " 2/$N "
keys k
wait_for " 1/$N "
keys 2
wait_for "labelled api by tester already: nothing changed"
wait_for " 2/$N "
ok "a decision key that changes nothing advances"

# the same review by another reviewer is a decision of its own
"$ASSAY" --db "$DB" --reviewer bob review "$A" flag >/dev/null
"$ASSAY" --db "$DB" --reviewer bob review "$A" flag >/dev/null
[ "$(events review)" -eq 2 ] || fail "bob's flags: $(events review) review events, want 2"
ok "the headless review is one event too"
quit_all
