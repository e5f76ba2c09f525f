# 046-cursor-moves-only-by-keys.sh - issue 24, item 2 (A, B, C of what a
# new user met): the cursor moves only by the reviewer's keys.  A
# background :verify over the view verdict=none takes the candidate under
# the cursor out of the view: it stays on screen under the cursor,
# dimmed and marked, while the rows around it change, and no message
# says the cursor moved ("left the view; now on ...", which came three
# times a second and restarted a lock-out on the decision keys).  A
# question (quit? y/n) stays on the status line while results land.
# j goes on to the row after it.  v in the same view keeps its output
# in the toolchain pane when its candidate leaves the view.
. "$(dirname "$0")/lib.sh"
command -v iverilog >/dev/null 2>&1 || skip "iverilog is not installed"

import_syntax
C=$(id_n 3)

start 120 40 "--where verdict=none"
wait_for " 1/$N "
keys j j
wait_for " 3/$N "
command_line "verify 1"
wait_for "· verify " 30
# the candidate under the cursor gets its run and leaves the view
n=0
verdict_of() { v=$(row "$1" | json_field verdict); [ "$v" = null ] || echo "$v"; }
until [ -n "$(verdict_of "$C")" ]; do
	n=$((n + 1)); [ $n -lt 300 ] || fail "$C got no run"; sleep 0.1
done
wait_for "$(short "$C") left the view"
screen | grep -q -E "^│▶×$(short "$C") " || fail "$C is not under the cursor"
wait_for "candidate $(short "$C")"
ok "the candidate under the cursor stays when it leaves the view"

# results go on landing; nothing moves the cursor, nothing says it moved
keys q
wait_for "quit and cancel it (what it stored stays)? y/n"
left0=$("$ASSAY" --db "$DB" list --json --where verdict=none | wc -l)
sleep 2
left1=$("$ASSAY" --db "$DB" list --json --where verdict=none | wc -l)
[ "$left1" -lt "$left0" ] || fail "no run landed meanwhile: no test"
screen | tail -n 1 | grep -q -F "quit and cancel it" ||
    fail "the question was overwritten: $(screen | tail -n 1)"
keys n
wait_for "not quitting"
screen | grep -q -E "^│▶×$(short "$C") " || fail "the cursor moved by itself"
screen | grep -q -F "now on" && fail "a message says the cursor moved"
ok "the question stays while results land; the cursor stays on $(short "$C")"

keys x
wait_for ":verify cancelled after" 30
# j: the row after it, a candidate still without a run
keys j
wait_gone "left the view"
D=$(screen | sed -n 's/^│▶ \([0-9a-f]\{8\}\) .*/\1/p')
[ -n "$D" ] || fail "j selected no row"
[ -z "$(verdict_of "$D")" ] || fail "j went to $D, not in the view"
ok "j goes on to $D"

# v: its run takes it out of the view; its output stays in the pane
keys v
# (pass or fail: which candidate D is depends on where the cancel fell)
wait_for "$D: " 60
wait_for "$D left the view"
sleep 0.5
# its run, from the line its verdict rests on, under its title
screen | grep -q -E "· $D · (pass|fail)( · lines [0-9]+-[0-9]+/[0-9]+)? ─" ||
    fail "the pane's title is not $D's run"
# (its first line, or for a pass its last: the pane shows a failure
# from the line it rests on, a long passing log from its end)
pane toolchain | grep -q -E "» verify $D|» $D: (pass|fail)" ||
    fail "the pane lost the run of $D"
pane toolchain | grep -q -F "no run yet" && fail "the pane shows another candidate"
ok "v keeps its output in the pane when its candidate leaves the view"
quit_all
