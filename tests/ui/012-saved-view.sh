# 012-saved-view.sh - issue 5, "Saved views": :save NAME stores the
# filter in the database, :views lists it, :view NAME applies it after a
# restart, and assay list --view NAME uses it headless.
. "$(dirname "$0")/lib.sh"

"$ASSAY" --db "$DB" import "$DATA/rtlfixer/verilogeval-syntax.jsonl" \
    >/dev/null || fail "import rtlfixer"
ID=$("$ASSAY" --db "$DB" list --json | sed -n 3p | json_field id)

start 120 40
wait_for "1/174"
command_line "filter id=$ID"
wait_for "1/1"
command_line "save third"
wait_for "saved view third: id=$ID"
command_line "view nothere"
wait_for "no view nothere"
command_line q	# :q leaves every view at once
wait_for "ASSAY-EXIT 0"
ok ":save stores the filter"

start 120 40
wait_for "1/174"
command_line "views"
wait_for "views: third (id=$ID)"
command_line "view third"
wait_for "1/1"
screen | grep -q -F "id=$ID" || fail "the view's filter is not shown"
ok "the view survives a restart and :view applies it"
command_line q	# :q leaves every view at once
wait_for "ASSAY-EXIT 0"

[ "$("$ASSAY" --db "$DB" list --json --view third | wc -l)" -eq 1 ] ||
    fail "list --view does not apply the view"
"$ASSAY" --db "$DB" list --json --view third | grep -q -F "\"id\":\"$ID\"" ||
    fail "list --view lists another candidate"
"$ASSAY" --db "$DB" list --view nothere >/dev/null 2>&1 &&
    fail "an unknown view is not an error"
ok "assay list --view NAME"
