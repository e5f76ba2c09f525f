# 029-help-every-table.sh - issue 12 item 6: `?` lists every binding of
# every pane and sheet from the live keymap, and works in the sheets:
# `?` in the stats sheet shows the help over it (stats, diff and prompt
# tables included) and q gives the sheet back; a sheet key remapped with
# :bind stats acts and shows in the help.  iverilog's "declared here"
# notes get their own gutter mark (N), not W.
. "$(dirname "$0")/lib.sh"
command -v iverilog >/dev/null 2>&1 || skip "iverilog is not installed"

"$ASSAY" --db "$DB" import "$DATA/rtlfixer/verilogeval-syntax.jsonl" \
    >/dev/null || fail "import rtlfixer"
A=$("$ASSAY" --db "$DB" list --json | head -n 1 | json_field id)
"$ASSAY" --db "$DB" verify --quiet "$A" >/dev/null 2>&1
"$ASSAY" --db "$DB" show "$A" | grep -q "declared here" ||
    fail "no 'declared here' note in the run of $A"

start 120 40
wait_for " 1/174 "
# the notes: N; the errors: E
pane candidate | grep -q -E "^ ?4N +output Y1" ||
    fail "line 4 (Y1 declared here) is not marked N"
pane candidate | grep -q -E "^ ?9E " || fail "line 9 (the error) is not marked E"
ok "a note gets N in the gutter, an error E"

keys s
wait_for "─ stats "
keys ?
wait_for "live keymap"
in_help "h Left +cell-left +Stats: move the cell cursor left" ||
    fail "the stats keys are not in the help"
in_help "Enter +drill +Stats: filter the queue to the cell" ||
    fail "Enter of the stats sheet is not in the help"
in_help "s S +diff-layout +Diff: unified, or side by side" ||
    fail "the diff keys are not in the help"
in_help "Tab +prompt-complete +Prompt: complete the word" ||
    fail "the prompt keys are not in the help"
keys q
wait_gone "live keymap"
wait_for "─ stats "
ok "? in the stats sheet lists the stats, diff and prompt keys; q gives the sheet back"

# remap a sheet key: it acts, and the help says so
keys q
wait_gone "─ stats "
command_line "bind stats x cell-right"
wait_for "bind stats x cell-right"
keys s
wait_for "─ stats "
wait_for "· compile:"
keys x
wait_for "· api:"
keys ?
wait_for "live keymap"
in_help "l Right x +cell-right +Stats: move the cell cursor right" ||
    fail "the remapped key is not in the help"
ok ":bind stats remaps a sheet key, and ? shows it"
keys q
wait_gone "live keymap"
keys q
wait_gone "─ stats "
command_line q
wait_for "ASSAY-EXIT 0"
