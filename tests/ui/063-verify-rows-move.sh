# 063-verify-rows-move.sh - issue 24, ADR 0054: while a :verify stores
# runs, rows that enter or leave the view move the count and the rows
# after them without the view being counted again (wb_rows_moved), and
# the cursor stays on the reviewer's candidate.  A verdict=none view;
# the ten rows above the cursor are marked and verified, so each leaves
# the view while the cursor sits below them: at every look the cursor
# is on the same candidate and the queue title counts what the
# database holds, within the runs that landed since.
. "$(dirname "$0")/lib.sh"
command -v iverilog >/dev/null 2>&1 || skip "iverilog is not installed"

import_syntax
X=$(id_n 15)

start 120 40 "--where verdict=none"
wait_for " 1/$N "
i=0
while [ $i -lt 10 ]; do keys Space; i=$((i + 1)); done
wait_for "10 marked"
keys j j j j
wait_for " 15/$N "
wait_for "candidate $(short "$X")"
command_line "verify 1 force"
wait_for "· verify " 30
none() { "$ASSAY" --db "$DB" list --json --where verdict=none | wc -l; }
looks=0 moved=0
while screen | tail -n 1 | grep -q "· verify "; do
	s=$(screen)
	now=$(none)
	echo "$s" | grep -q -E "^│▶ $(short "$X") " ||
	    fail "the cursor left $(short "$X") while rows above it left the view"
	pos=$(echo "$s" | sed -n '1s/.* \([0-9]*\)\/\([0-9]*\) .*/\1 \2/p')
	set -- $pos
	[ -n "${2:-}" ] || fail "no position in the queue's title"
	[ "$1" -lt 15 ] && moved=1
	# the screen may lag the database (it shows runs every 300 ms), never
	# lead it
	[ "$2" -ge "$now" ] ||
	    fail "the queue counts $2, the database $now after it"
	[ $(( 15 - $1 )) -eq $(( N - $2 )) ] ||
	    fail "at $1 of $2: the index moved by other than the rows that left"
	looks=$((looks + 1))
done
[ $looks -ge 3 ] || fail "only $looks looks while it ran: nothing tested"
[ $moved -eq 1 ] || fail "the cursor's index never moved up as rows above it left"
wait_for ":verify done in" 60
left=$("$ASSAY" --db "$DB" list --json --where verdict=none | wc -l)
wait_for " 5/$left "
screen | grep -q -E "^│▶ $(short "$X") " || fail "the cursor left $(short "$X")"
ok "rows above the cursor left the view; the cursor stayed on $(short "$X"), its index went 15 to 5 of $left"
quit_all
