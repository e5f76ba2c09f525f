# 008-search.sh - `/` searches the queue (issue 5 item 1): a regular
# expression, ignoring case, over the rows' id, task, origin, verdict and
# category; n and N go to the next and previous match across pages of
# the store, wrapping around with a message.
. "$(dirname "$0")/lib.sh"

"$ASSAY" --db "$DB" import "$DATA/rtlfixer/verilogeval-syntax.jsonl" \
    >/dev/null || fail "import rtlfixer"
# the rows whose task ends in mux2to1 (not mux2to1v), in queue order
POS=$("$ASSAY" --db "$DB" list --json | json_field task |
    grep -n 'MUX2TO1$\|mux2to1$' | cut -d: -f1 | tr '\n' ' ')
set -- $POS
[ $# -ge 2 ] || fail "need two mux2to1 rows, have: $POS"
FIRST=$1 SECOND=$2
eval "LAST=\${$#}"

start 80 24
wait_for "1/174"
keys /
keys -l 'MUX2TO1$'
wait_for "/MUX2TO1\$"
keys Enter
wait_for " $FIRST/174 "
ok "/ finds the first match at $FIRST"
keys n
wait_for " $SECOND/174 "
keys N
wait_for " $FIRST/174 "
ok "n and N move between matches"
keys N
wait_for " $LAST/174 "
wait_for "search hit TOP, continued at BOTTOM"
keys n
wait_for " $FIRST/174 "
wait_for "search hit BOTTOM, continued at TOP"
ok "the search wraps around with a message"

# a match far away, on another page: the last row's id
LASTID=$("$ASSAY" --db "$DB" list --json | tail -n 1 | json_field id)
keys g /
keys -l "^$LASTID"
keys Enter
wait_for " 174/174 "
keys /
keys -l 'no-such-thing-here'
keys Enter
wait_for "pattern not found: no-such-thing-here"
keys /
keys -l '(unclosed'
keys Enter
wait_for "/(unclosed:"
keys q
wait_for "ASSAY-EXIT 0"
ok "a far match, no match and a bad regex"

# Searching moves the selection only: no decision was made.
"$ASSAY" --db "$DB" list --json --where "status!=unreviewed" | grep -q . &&
    fail "a search changed a review"
ok "searching decides nothing"
