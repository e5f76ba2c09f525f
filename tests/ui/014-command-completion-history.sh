# 014-command-completion-history.sh - issue 5, "Keys and looks": the `:`
# line completes with Tab (command names, filter keys and their closed
# values, saved views, categories, bind's actions; several matches give
# their common prefix and a menu that the next Tab walks), and Up/Down
# walk the history of lines run, which survives a restart in
# $XDG_STATE_HOME/assay/history (here under the test's HOME).
. "$(dirname "$0")/lib.sh"

"$ASSAY" --db "$DB" import "$DATA/rtlfixer/verilogeval-syntax.jsonl" \
    >/dev/null || fail "import rtlfixer"
"$ASSAY" --db "$DB" list --json | head -n 3 | json_field id >"$T/ids"
ID=$(sed -n 3p "$T/ids")
HIST=$HOME/.local/state/assay/history
# the status bar shows the `:` line as its last row
line() { screen | tail -n 1 | sed 's/ *$//'; }
want_line() {
	n=50
	while [ $n -gt 0 ]; do
		[ "$(line)" = "$1" ] && return 0
		sleep 0.1
		n=$((n - 1))
	done
	fail "the command line is '$(line)', not '$1'"
}

start 120 40
wait_for "1/174"

# a command name, then a filter key, then a closed value
keys : f i l Tab
want_line ":filter"
keys v e r Tab
want_line ":filter verdict="
keys n o Tab
want_line ":filter verdict=none"
keys Enter
wait_for " verdict=none · tester"
ok "Tab completes a command, a filter key and a closed value"

# several matches: the common prefix, a menu, and Tab walks it
keys : f i l t e r Space c a Tab
want_line ":filter category="
keys Tab
wait_for "category=api  category=compile  category=format"
want_line ":filter category="
screen | tail -n 2 | head -n 1 | grep -q "category=none .*category=perf" ||
    fail "no menu of the categories above the status bar"
keys Tab
want_line ":filter category=api"
keys Tab
want_line ":filter category=compile"
keys BTab
want_line ":filter category=api"
keys Escape
want_line ":filter category=api"
keys C-u Escape
wait_gone ":filter"
ok "several matches: prefix, a menu, Tab and BTab walk it"

# at 80 columns the verdicts' menu does not fit: its end says so (the
# last that fit filled the line, and two went without a mark)
$TM resize-window -t t -x 80 -y 24
keys : f i l t e r Space v e r d Tab Tab
wait_for "verdict=env-error"
screen | tail -n 2 | head -n 1 | grep -q ">$" ||
    fail "a cut menu has no mark: $(screen | tail -n 2 | head -n 1)"
keys C-u Escape
wait_gone ":filter"
$TM resize-window -t t -x 120 -y 40
ok "a menu too long for the line ends in >"

# a saved view by name; a category; an action for bind
command_line "filter id=$ID"
wait_for " 1/1 "
command_line "save thirdrow"
wait_for "saved view thirdrow"
command_line "filter"
wait_for " 1/174 "
keys : v i e w Space t h Tab
want_line ":view thirdrow"
keys Enter
wait_for " 1/1 "
keys : l a b e l Space f u Tab
want_line ":label functional"
keys C-u b i n d Space K Space l a b e l - f o Tab
want_line ":bind K label-format"
keys Enter
wait_for "bind K label-format"
keys : s e t Space m Tab
want_line ":set mouse"
keys o f Tab
want_line ":set mouse off"
keys Enter
wait_for "mouse off"
ok "views, categories, actions and settings complete"

# history: Up walks back through the lines run, Down comes forward
keys : Up
want_line ":set mouse off"
keys Up
want_line ":bind K label-format"
keys Down
want_line ":set mouse off"
keys Down
want_line ":"
# typed text narrows the walk to lines that start with it
keys f i l Up
want_line ":filter"
keys Up
want_line ":filter id=$ID"
keys Escape
quit_all
[ -f "$HIST" ] || fail "no history file at $HIST"
grep -q -x ":view thirdrow" "$HIST" || fail "the history file lacks :view"
ok "Up and Down walk the history, narrowed by what is typed"

# the history survives a restart
start 120 40
wait_for "1/174"
keys : Up
want_line ":set mouse off"
keys C-u v Up
want_line ":view thirdrow"
keys Enter
wait_for " 1/1 "
keys / Up
want_line "/"
keys Escape
quit_all
ok "the history is there after a restart, per prompt"
