# 013-diff.sh - issue 5 item 4: d opens a diff sheet of the candidate
# against what it came from (a repair: its parent), coloured, unified,
# through libgit2; q closes it.
. "$(dirname "$0")/lib.sh"

"$ASSAY" --db "$DB" import "$DATA/rtlfixer/verilogeval-syntax.jsonl" \
    >/dev/null || fail "import rtlfixer"
ID=$("$ASSAY" --db "$DB" list --json | head -n 1 | json_field id)

# A non-interactive editor: declare Y1 as reg and say so.
cat >"$T/fix" <<'FIX'
#!/bin/sh
sed -i 's/output Y1/output reg Y1/' "$1"
printf '\n// repaired in 013-diff\n' >>"$1"
FIX
chmod +x "$T/fix"
export EDITOR="$T/fix"
start 120 40 "--where benchmark=rtlfixer"
wait_for "1/174"

keys e
REP=$(repair_of "$ID") || fail "no repair of $ID in the store"
wait_for "$REP: " 30
keys C-l

keys d
wait_for "parent $ID"
wait_for "candidate $REP"
screen | grep -q "^.@@ -" || fail "no hunk header"
screen | grep -q "^.-.*output Y1" || fail "no removed line"
screen | grep -q "^.+.*output reg Y1" || fail "no added line"
screen | grep -q "^.+// repaired in 013-diff" || fail "no added comment"
ok "d shows the repair's diff against its parent"

keys q
wait_gone "parent $ID"
screen | grep -q " queue " || fail "q did not close the diff"
ok "q closes the diff"
keys q
wait_for "ASSAY-EXIT 0"

# A repair saved with CRLF line ends (an editor on another system, or
# RealBench's references): compared line by line as LF, only the line
# changed shows (every line differed, each CR drawn as '?').
cat >"$T/crlf" <<'FIX'
#!/bin/sh
sed -i -e 's/output Y1/output reg Y1/' -e 's/$/\r/' "$1"
FIX
chmod +x "$T/crlf"
ID2=$("$ASSAY" --db "$DB" list --json | sed -n 2p | json_field id)
export EDITOR="$T/crlf"
start 120 40 "--where id=$ID2"
wait_for " 1/1 "
keys e
REP2=$(repair_of "$ID2") || fail "no CRLF repair of $ID2 in the store"
"$ASSAY" --db "$DB" show --json "$REP2" | grep -q '\\r\\n' ||
    fail "the repair has no CRLF line ends"
wait_for "$REP2: " 30
keys C-l
"$ASSAY" --db "$DB" list --json --where "id=$REP2" >/dev/null
start 120 40 "--where id=$REP2"
wait_for " 1/1 "
keys d
wait_for "parent $ID2"
wait_for "CRLF line ends compared as LF"
[ "$(screen | grep -c "^.-[^-]")" -le 1 ] ||
    fail "more than the changed line is removed: $(screen)"
screen | grep -q "^.+.*output reg Y1" || fail "no added line"
screen | grep -q "?$" && fail "a CR is drawn as ?"
ok "CRLF line ends are compared as LF"
keys q
keys q
wait_for "ASSAY-EXIT 0"
