# 047-esc-gives-focus-back.sh - issue 24, item D of what a new user met:
# Esc did two jobs.  With the toolchain pane focused, Esc popped the
# filter instead of giving the focus back, and q did the same: filters
# were lost.  Now Esc and q give the focus back to the queue first, the
# status bar names a focused pane, and filters and views pop only when
# the queue has the focus (q then goes back a view, saying so; at the top
# it quits).
. "$(dirname "$0")/lib.sh"

import_syntax
F="origin=starchat"
NF=$("$ASSAY" --db "$DB" list --json --where "$F" | wc -l)
status() { screen | tail -n 1; }
# focused NAME: the status bar names the pane that has the focus
focused() {
	n=50
	until status | grep -q -E "^ [0-9]+/[0-9]+ · $1 "; do
		n=$((n - 1)); [ $n -gt 0 ] || fail "the status bar does not name $1: $(status)"
		sleep 0.1
	done
}

start 120 40
wait_for " 1/$N "
command_line "filter $F"
wait_for " 1/$NF "

# :q while something waits asks; n keeps the views it would have left
# (it emptied the stack first: the filter stayed on screen with nothing
# to go back to, checked by the last Esc below).  What waits: a label
# the held write lock keeps pending.
if command -v sqlite3 >/dev/null 2>&1; then
	hold 30
	keys 3
	wait_for "· 1 pending"
	command_line "q"
	wait_for "quit and drop it? y/n"
	# too long for a narrow bar, the question is cut in its middle:
	# its head and its end stay (cut at its end, the y/n went; cut
	# before its "?", a warning would)
	$TM resize-window -t t -x 60 -y 40
	n=50
	until status | grep -q "^ 1 decision waits.*….*drop it? y/n *$"; do
		n=$((n - 1)); [ $n -gt 0 ] || fail "a cut question lost its end: $(status)"
		sleep 0.1
	done
	$TM resize-window -t t -x 120 -y 40
	wait_for "another process holds its lock); quit and drop it? y/n"
	keys n
	wait_for "not quitting"
	# the question, cut on the bar, is whole in :messages
	command_line "messages"
	wait_for "at the end of the toolchain pane"
	pane toolchain | grep -q "drop it? y/n" ||
	    fail ":messages lacks the question: $(pane toolchain)"
	kill "$locker" 2>/dev/null
	wait_for "1 pending decision made" 20
	keys k
	wait_for " 1/$NF "
	ok ":q answered n keeps the view; a cut question keeps its end"
fi

# Tab to the toolchain pane: the status bar names it
keys Tab Tab Tab
focused toolchain
keys Escape
wait_for "focus: queue"
status | grep -q -F "$F" || fail "Esc dropped the filter: $(status)"
status | grep -q -F "· toolchain" && fail "the status bar still names the pane"
screen | grep -q " 1/$NF " || fail "the view changed"
ok "Esc from the toolchain pane gives the focus back; the filter stays"

keys Tab Tab Tab
focused toolchain
keys q
wait_for "focus: queue (q again goes back a view)"
status | grep -q -F "$F" || fail "q dropped the filter: $(status)"
screen | grep -q "ASSAY-EXIT" && fail "q quit from the toolchain pane"
ok "q from the toolchain pane gives the focus back; the filter stays"

# a zoomed candidate pane: Esc gives the layout and the focus back
keys Tab z
wait_for "(zoomed)"
keys Escape
wait_for "focus: queue"
wait_gone "(zoomed)"
status | grep -q -F "$F" || fail "Esc from a zoom dropped the filter"
ok "Esc from a zoomed pane gives the layout and the focus back"

# from the queue, Esc goes back a view; q at the top quits
keys Escape
wait_for "back from the filter to all"
wait_for " 1/$N "
keys q
wait_for "ASSAY-EXIT 0"
ok "from the queue, Esc goes back a view; q at the top quits"
