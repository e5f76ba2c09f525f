# 011-note.sh - issue 5, "Deciding fast": m opens :note for the selected
# candidate; the note is stored (journalled) without touching label or
# review, shows in the spec pane and in assay show --json.
. "$(dirname "$0")/lib.sh"

"$ASSAY" --db "$DB" import "$DATA/rtlfixer/verilogeval-syntax.jsonl" \
    >/dev/null || fail "import rtlfixer"
ID=$("$ASSAY" --db "$DB" list --json | head -n 1 | json_field id)

start 120 40
wait_for "1/174"
keys m
wait_for ":note"
keys -l "port width off by one"
keys Enter
wait_for "$ID noted by tester"
pane spec | grep -q -F "port width off by one (tester)" ||
    fail "the note is not in the spec pane"
ok "m adds a note, shown in the spec pane"
keys q
wait_for "ASSAY-EXIT 0"

"$ASSAY" --db "$DB" show "$ID" --json | grep -q -F \
    '"notes":[{"text":"port width off by one","by":"tester"' ||
    fail "the note is not in show --json"
"$ASSAY" --db "$DB" show "$ID" --json | grep -q -F '"status":"unreviewed"' ||
    fail "the note changed the review"
"$ASSAY" --db "$DB" show "$ID" | grep -q -F "note      port width off by one" ||
    fail "the note is not in show"
ok "assay show lists the note; the review is untouched"
