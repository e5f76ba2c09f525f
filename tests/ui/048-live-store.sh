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
quit_all
