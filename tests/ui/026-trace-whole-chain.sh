# 026-trace-whole-chain.sh - issue 12, "everything readable whole", the
# trace: a chain of six steps (a candidate and five repairs, each of the
# one before; the last passes) is read whole at 80x24: on the last
# repair the trace shows it with what came before as far as fits, and j
# k g G scroll the pane to the chain's first step; on the first step the
# trace shows every repair after it, down to the one that passed.  Each
# step is titled by its verdict: `failed`, `repaired ✓`.  Zoomed, the
# whole chain shows from its first line.
. "$(dirname "$0")/lib.sh"
command -v iverilog >/dev/null 2>&1 || skip "iverilog is not installed"

"$ASSAY" --db "$DB" import "$DATA/rtlfixer/verilogeval-syntax.jsonl" \
    >/dev/null || fail "import rtlfixer"
A=$("$ASSAY" --db "$DB" list --json | head -n 1 | json_field id)
"$ASSAY" --db "$DB" show "$A" --json | sed -n 's/.*"code":"\(.*\)","code_hash.*/\1/p' |
    sed 's/\\n/\n/g; s/\\t/\t/g' >"$T/a.v"
grep -q "output Y1" "$T/a.v" || fail "no code for $A"
P=$A
CHAIN=$A
for i in 1 2 3 4; do
	{ cat "$T/a.v"; printf '// step %s\n' $i; } >"$T/s$i.v"
	P=$("$ASSAY" --db "$DB" --reviewer tester repair "$P" --file "$T/s$i.v" |
	    awk '{ print $1 }')
	CHAIN="$CHAIN $P"
done
sed 's/output Y1/output reg Y1/; s/output Y3/output reg Y3/' "$T/a.v" >"$T/s5.v"
P=$("$ASSAY" --db "$DB" --reviewer tester repair "$P" --file "$T/s5.v" |
    awk '{ print $1 }')
CHAIN="$CHAIN $P"
LAST=$P
# shellcheck disable=SC2086
"$ASSAY" --db "$DB" verify --quiet $CHAIN >/dev/null 2>&1
[ "$(row "$LAST" | json_field verdict)" = pass ] ||
    fail "the last repair does not pass"
[ "$(echo $CHAIN | wc -w)" -eq 6 ] || fail "not six steps: $CHAIN"
short() { echo "$1" | cut -c1-8; }

start 80 24
wait_for " 1/179 "
command_line "goto $LAST"
wait_for "candidate $(short "$LAST")"
wait_for "6 steps"
pane trace | grep -q -E "repaired ✓ +$(short "$LAST")" ||
    fail "the last step is not titled repaired ✓"
pane trace | grep -q -F "$(short "$A")" &&
    fail "the first step shows: the test needs a chain taller than the pane"
keys Tab Tab Tab Tab
wait_for "lines "
keys g
wait_for "lines 1-"
pane trace | grep -q -E "failed +$(short "$A")" ||
    fail "g did not scroll to the first step"
keys j
pane trace | grep -q -F "$(short "$A")" && sleep 0.3
pane trace | grep -q -F "$(short "$A")" && fail "j did not scroll"
keys G
wait_for "$(short "$LAST")  tester  pass"
pane trace | grep -q -E "repaired ✓ +$(short "$LAST")" || fail "G: no last step"
keys PgUp PgUp PgUp PgUp PgUp PgUp PgUp PgUp
wait_for "failed      $(short "$A")"
ok "the trace of the 6th step scrolls to the first in the normal layout"

# from the first step every repair after it shows, down to the pass
keys Escape
command_line "goto $A"
wait_for "candidate $(short "$A")"
keys Tab Tab Tab Tab G
wait_for "$(short "$LAST")  tester  pass"
pane trace | grep -q -E "repaired ✓ +$(short "$LAST")" ||
    fail "from the first step: no last step"
ok "from the first step the whole tree shows, down to the pass"

# zoomed: the whole chain from its first line
keys z
wait_for "trace (zoomed)"
for id in $CHAIN; do
	screen | grep -q -F "$(short "$id")" || fail "zoomed: $id is missing"
done
screen | sed -n 2p | grep -q -F "$(short "$A")" ||
    fail "zoomed: the chain does not start on the first line"
ok "zoomed, the whole chain shows from its first line"
command_line q
wait_for "ASSAY-EXIT 0"

# A branch: B (A's second repair) beside the chain's first repair C1,
# which has its own chain.  C1's repair stands further in than B, so it
# does not read as leading to B (both stood at one depth).
C1=$(echo $CHAIN | cut -d' ' -f2)
C2=$(echo $CHAIN | cut -d' ' -f3)
{ cat "$T/a.v"; printf '// a second repair of A\n'; } >"$T/b.v"
B=$("$ASSAY" --db "$DB" --reviewer tester repair "$A" --file "$T/b.v" |
    awk '{ print $1 }')
[ -n "$B" ] || fail "no second repair of $A"
start 120 40
wait_for " 1/"
command_line "goto $A"
wait_for "candidate $(short "$A")"
keys Tab Tab Tab Tab z
wait_for "trace (zoomed)"
col() { screen | grep -F "$(short "$1")" | head -n 1 |
    awk -v id="$(short "$1")" '{ print index($0, id) }'; }
wait_for "$(short "$B")"
[ "$(col "$C1")" = "$(col "$B")" ] ||
    fail "the two repairs of A stand at different depths: $(screen)"
[ "$(col "$C2")" -gt "$(col "$B")" ] ||
    fail "C1's repair stands at the depth of its sibling B: $(screen)"
ok "a repair's own chain stands further in than its sibling"
command_line q
wait_for "ASSAY-EXIT 0"
