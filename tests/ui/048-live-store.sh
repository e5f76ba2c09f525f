# 048-live-store.sh - issue 24, item E of what a new user met: the
# screen was stale; a run stored by a headless verify or a label by
# another reviewer did not show until C-l.  Now the workbench asks the
# store twice a second whether another process committed (SQLite's
# data_version) and re-reads its view and the candidate on screen when
# one did, the cursor staying where it is.  No key is sent here between
# the other process's change and the look.
. "$(dirname "$0")/lib.sh"
command -v iverilog >/dev/null 2>&1 || skip "iverilog is not installed"

import_syntax
C=$(id_n 3)
D=$(id_n 4)
# within SECONDS (default 2), the screen shows TEXT
soon() { wait_for "$1" "${2:-2}"; }

start 120 40
wait_for " 1/$N "
keys j j
wait_for " 3/$N "
wait_for "candidate $(short "$C")"
wait_for "no run of this candidate yet"
screen | grep -q -E "^│▶ $(short "$C") chip -  " || fail "$C has a verdict already"

# a headless verify of the candidate under the cursor
"$ASSAY" --db "$DB" verify --quiet "$C" >/dev/null 2>&1
V=$(row "$C" | json_field verdict)
[ -n "$V" ] && [ "$V" != null ] || fail "the headless verify stored no run"
soon "$(short "$C") chip $V"
screen | grep -q -E "^│▶ $(short "$C") chip $V " || fail "the cursor left $C"
soon "run #1 of $C"	# the toolchain pane shows the stored run
screen | grep -q " 3/$N " || fail "the cursor moved"
ok "a headless verify's run shows within a second, the cursor on $(short "$C")"

# another reviewer labels the row below; the row says so
"$ASSAY" --db "$DB" --reviewer bob label "$D" api >/dev/null ||
    fail "label by bob"
soon "$(short "$D") chip -       api"
screen | grep -q " 3/$N " || fail "the cursor moved"
ok "another reviewer's label shows within a second"

# the same under a filter the change takes the row out of: it stays,
# marked, under the cursor
M=$("$ASSAY" --db "$DB" list --json --where category=none | wc -l)
command_line "filter category=none"
wait_for " 1/$M "
keys j
wait_for " 2/$M "
E=$(screen | sed -n 's/^│▶ \([0-9a-f]\{8\}\) .*/\1/p')
"$ASSAY" --db "$DB" --reviewer bob label "$E" format >/dev/null ||
    fail "label $E by bob"
soon "$E left the view"
screen | grep -q -E "^│▶×$E " || fail "$E is not under the cursor, marked"
ok "a row another reviewer takes out of the view stays under the cursor"

# the same while a :verify runs: its thread stores runs on a connection
# of its own, which moves the screen's data_version with every run; a
# label by another process still shows (the thread tells it apart)
# (over 60 marked rows far below the screen, so that no run it stores
# makes the screen read its page again)
command_line "filter"
wait_for " 1/$N "
[ "$N" -ge 120 ] || fail "$N candidates: too few for rows off the screen"
command_line "goto $(id_n $((N - 60)))"
wait_for " $((N - 60))/$N "
i=0
while [ $i -lt 60 ]; do keys Space; i=$((i + 1)); done
wait_for "60 marked"
keys Home
wait_for " 1/$N "
command_line "verify 1 force"
wait_for "· verify " 30
F=$(id_n 5)
"$ASSAY" --db "$DB" --reviewer bob label "$F" compile >/dev/null ||
    fail "label $F by bob"
n=30
until screen | grep -q -E " $(short "$F") chip +[a-z-]+ +comp"; do
	n=$((n - 1))
	[ $n -gt 0 ] || fail "bob's label of $F did not show during :verify"
	sleep 0.1
done
screen | tail -n 1 | grep -q "· verify " ||
    fail "the :verify ended before the label: nothing tested"
screen | grep -q " 1/$N " || fail "the cursor moved"
ok "another process's label shows while a :verify stores runs"
keys x
wait_for ":verify cancelled after" 30
quit_all
