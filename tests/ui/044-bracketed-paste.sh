# 044-bracketed-paste.sh - a paste is text, never keys.  The workbench
# turns on the terminal's bracketed paste (mode 2004); a note pasted into
# the `:` line with a coloured compiler line in it (ESC[31m ... ESC[0m, a
# tab, a newline) is stored as its text, and the 3 and 1 of the colour
# code no longer label the candidate; a paste with no line open is
# ignored.  (Before: the ESC ended the prompt and the rest ran as keys.)
. "$(dirname "$0")/lib.sh"

"$ASSAY" --db "$DB" import "$DATA/rtlfixer/verilogeval-syntax.jsonl" \
    >/dev/null || fail "import rtlfixer"
ID=$("$ASSAY" --db "$DB" list --json | head -n 1 | json_field id)

start 120 40
wait_for "1/174"
keys :
keys -l "note "
$TM set-buffer -- "$(printf 'pasted \033[31merror\033[0m:\there\nnext')"
$TM paste-buffer -p -t t
keys Enter
wait_for "$ID noted by tester"
"$ASSAY" --db "$DB" show "$ID" --json | grep -q -F \
    '"text":"pasted error: here next"' ||
    fail "the pasted note: $("$ASSAY" --db "$DB" show "$ID" --json |
    grep -o '"notes":[^]]*')"
row "$ID" | grep -q '"category":null' ||
    fail "the paste labelled the candidate: $(row "$ID")"
ok "a paste into the : line is its text, escapes dropped"

# no line open: nothing of the paste acts
$TM set-buffer -- "13jjG"
$TM paste-buffer -p -t t
wait_for "a paste is text for the : or / line; here it was ignored"
screen | grep -q " 1/174 " || fail "the paste moved the cursor"
row "$ID" | grep -q '"category":null' || fail "the paste labelled"
ok "a paste with no line open is ignored"
keys q
wait_for "ASSAY-EXIT 0"
