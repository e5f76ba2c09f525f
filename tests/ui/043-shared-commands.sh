# 043-shared-commands.sh - issue 9, "one command layer": label, review,
# note, undo and redo are one entry each (src/app/cmd_*.c) that the CLI
# and the `:` line both run.  In the workbench the targets are the marks
# or the cursor's candidate, or --where FILTER as on the command line;
# the workbench asks where the CLI warns; :undo is u.  The same command
# typed in both front ends leaves the same database.
. "$(dirname "$0")/lib.sh"

"$ASSAY" --db "$DB" import "$DATA/rtlfixer/verilogeval-syntax.jsonl" \
    >/dev/null || fail "import rtlfixer"
cat_of() { row "$1" | json_field category; }
n_where() { "$ASSAY" --db "$DB" list --json --where "$1" | wc -l | tr -d ' '; }
N=$(n_where "task~mux")
[ "$N" -gt 1 ] || fail "want several mux candidates, got $N"

start 120 40
wait_for "1/174"

# --where in the workbench: every candidate the filter matches, asked
# about with the count, one batch
command_line "label api --where task~mux"
wait_for "label $N candidates api? y/n"
keys y
wait_for "label $N candidates: api by tester (one undo takes all back)"
[ "$(n_where "task~mux category=api")" = "$N" ] ||
    fail "not every mux candidate is labelled api"
[ "$(n_where "category=api")" = "$N" ] || fail "others were labelled api"
ok ":label --where labels every candidate the filter matches"

# :undo is the shared undo: the whole batch back
command_line "undo"
wait_for "undid label api of $N candidates"
[ "$(n_where "category=api")" = 0 ] || fail ":undo left api labels"
ok ":undo takes the batch back"

# an accept of a candidate that never ran is asked about in its words
ID=$("$ASSAY" --db "$DB" list --json | head -n 1 | json_field id)
command_line "review accept"
wait_for "review $ID accept although it never ran? y/n"
keys n
wait_for "cancelled"
row "$ID" | grep -q '"status":"unreviewed"' || fail "accepted after n"

# a filter of several predicates, quoted as one word; quotes around a
# --sub value are not kept (the same database as the CLI's)
M=$(n_where "task~mux verdict=none")
command_line "label format --sub \"two words\" --where \"task~mux verdict=none\""
wait_for "label $M candidates format/two words? y/n"
keys y
wait_for "label $M candidates: format/two words by tester"
[ "$(n_where "category=format subcategory=\"two words\"")" = "$M" ] ||
    fail "the quoted sub or filter was not read as one"
command_line "undo"
wait_for "undid label format/two words of $M candidates"

# Tab completes a command's options, and filter keys after --where
keys :
keys -l "label api --wh"
keys Tab
wait_for ":label api --where"
keys -l "verd"
keys Tab
wait_for ":label api --where verdict"
keys Escape
wait_gone ":label api --where"

# a key bound to a command that does not exist is refused at once
command_line "bind 6 labl compile"
wait_for "bind 6: unknown command 'labl'"

# usage errors name the entry's usage, as the CLI does
command_line "label bogus"
wait_for "label: unknown category 'bogus'"
command_line "review"
wait_for ":review: missing argument"
ok "the workbench asks and refuses as the entry says"
keys q
wait_for "ASSAY-EXIT 0"

# the CLI runs the same entries: same count, same batch, undone by one
"$ASSAY" --db "$DB" label --where "task~mux" api >"$T/out" 2>"$T/err" ||
    fail "assay label --where: $(cat "$T/err")"
grep -q "^label $N candidates: api by tester (one undo takes all back)$" \
    "$T/out" || fail "CLI label --where said: $(cat "$T/out")"
[ "$(n_where "category=api")" = "$N" ] || fail "CLI --where labelled others"
"$ASSAY" --db "$DB" undo >"$T/out" || fail "assay undo"
grep -q "undid label api of $N candidates" "$T/out" ||
    fail "CLI undo said: $(cat "$T/out")"
ok "assay label --where and assay undo do what :label and :undo did"
