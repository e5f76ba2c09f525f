# 019-disagreement-queue.sh - issue 5, "Error analysis and people": the
# disagreement queue.  Where two reviewers' labels differ, Enter on the
# stats sheet's agreement page (or the filter disagree=yes) makes the
# queue the candidates in disagreement; the spec pane shows each vote,
# and one key, 1-5, gives the final label, which takes the candidate out
# of the queue.  A final label is no vote: kappa does not move.  u takes
# it back (the disagreement returns), C-r gives it again.
. "$(dirname "$0")/lib.sh"

"$ASSAY" --db "$DB" import "$DATA/rtlfixer/verilogeval-syntax.jsonl" \
    >/dev/null || fail "import rtlfixer"
"$ASSAY" --db "$DB" list --json | head -n 3 | json_field id >"$T/ids"
A=$(sed -n 1p "$T/ids")
B=$(sed -n 2p "$T/ids")
C=$(sed -n 3p "$T/ids")
lab() { "$ASSAY" --db "$DB" --reviewer "$1" label "$2" "$3" >/dev/null ||
    fail "label $2 $3 by $1"; }
# A: both compile; B: compile against functional; C: api against format
lab alice "$A" compile
lab alice "$B" compile
lab alice "$C" api
lab bob "$A" compile
lab bob "$B" functional
lab bob "$C" format
n_dis() { "$ASSAY" --db "$DB" list --json --where disagree=yes | wc -l; }
[ "$(n_dis)" -eq 2 ] || fail "want 2 disagreements, have $(n_dis)"
KAPPA=$("$ASSAY" --db "$DB" stats --agreement | grep '^alice ')
# notes on B: the votes stand above them (at 120x40 the spec pane
# stopped at the notes, and the votes were below)
for i in 1 2 3 4 5 6; do
	"$ASSAY" --db "$DB" --reviewer dave note "$B" "note $i on why the label is hard" >/dev/null ||
	    fail "note $i"
done

start 120 40 "--reviewer carol"
wait_for "1/174"
keys s
wait_for " stats "
keys BTab
wait_for "agreement: Cohen's kappa"
wait_for "2 candidates in disagreement"
keys Enter
wait_for " 1/2 "
screen | tail -n 1 | grep -q -F " disagree=yes " ||
    fail "Enter did not open the disagreement queue"
wait_for "votes     alice compile · bob functional"
# cut at its bottom, the spec pane says which lines show (no mark)
screen | grep -q -E "─ rtlfixer · lines 1-[0-9]+/[0-9]+ ─" ||
    fail "the cut spec pane does not say so: $(screen | head -n 1)"
ok "Enter on the agreement page opens the disagreement queue"

# 3: functional is the final label of B, which leaves the queue
keys 3
wait_for "$B labelled functional (final) by carol"
wait_for " 1/1 "
wait_for "votes     alice api · bob format"
row "$B" | grep -q -F '"category":"functional"' ||
    fail "$B is not labelled functional"
row "$B" | grep -q -F '"category_source":"carol"' ||
    fail "the final label is not carol's"
[ "$(n_dis)" -eq 1 ] || fail "B still in disagreement"
ok "3 gives the final label and the next disagreement comes up"

# 4: format for C; the queue is empty
keys 4
wait_for "$C labelled format (final) by carol"
wait_for "no candidate matches the filter"
[ "$(n_dis)" -eq 0 ] || fail "disagreements left: $(n_dis)"
[ "$("$ASSAY" --db "$DB" stats --agreement | grep '^alice ')" = "$KAPPA" ] ||
    fail "a final label moved kappa"
ok "the queue empties; kappa is unchanged by final labels"

# u takes the final label of C back: it is in disagreement again
keys u
wait_for "undid label format (final) of $C"
wait_for " 1/1 "
[ "$(n_dis)" -eq 1 ] || fail "undo did not reopen C"
keys C-r
wait_for "redid label format (final) of $C"
[ "$(n_dis)" -eq 0 ] || fail "redo did not settle C"
ok "u and C-r take a final label back and give it again"

# outside the disagreement queue 1-5 are a vote as ever
command_line "filter"
wait_for " 1/174 "
keys 2
wait_for "$A labelled api by"
[ "$(n_dis)" -eq 1 ] || fail "carol's vote on A is no disagreement"
command_line q	# :q leaves every view at once
wait_for "ASSAY-EXIT 0"
ok "1-5 elsewhere are a reviewer's vote, which may disagree"
"$ASSAY" --db "$DB" show --json "$B" | grep -q "label functional (final)" ||
    fail "show --json does not list the final label in the journal"
