# 002-resize-help-undo.sh - issue 2, "The workbench": the screen resizes
# at any time down to 80x24, `?` lists the live keymap (a key bound with
# :bind shows up), a label is undone with u and redone with C-r (checked
# through the headless list --json), q quits and --dump-screen writes the
# final screen.
. "$(dirname "$0")/lib.sh"

"$ASSAY" --db "$DB" import "$DATA/rtlfixer/verilogeval-syntax.jsonl" \
    >/dev/null || fail "import rtlfixer"
ID=$("$ASSAY" --db "$DB" list --json | head -n 1 | json_field id)

start 120 40 "--dump-screen '$T/screen.txt'"
wait_for "1/174"
wait_for "cat   st   origin"
ok "opens at 120x40"

# down to 80x24: every pane is still there and the queue drops columns
$TM resize-window -t t -x 80 -y 24
wait_gone "cat   st   origin"
# (waited for: the redraw after a resize may come a moment later)
for p in queue spec candidate toolchain trace; do
	wait_for " $p " 5
done
[ "$(screen | wc -l)" -le 24 ] || fail "more than 24 rows"
screen | awk 'length($0) > 80 * 3 { bad = 1 } END { exit bad }' ||
    fail "a row is wider than the window"
screen | grep -q -F "$ID" || fail "the selected row is gone"
ok "80x24 shows all five panes"

# ? lists the live keymap, including a key bound just now
command_line "bind K label-functional"
wait_for "bind K label-functional"
keys ?
wait_for "live keymap"
# the list is longer than the screen: page through it
for _ in 1 2 3; do
	screen | grep -q -E "3 K +Label: compiles but wrong" && break
	keys PgDn
	sleep 0.2
done
screen | grep -q -E "3 K +Label: compiles but wrong" ||
    fail "the new binding is not in the help"
for _ in 1 2 3 4; do
	screen | grep -q -E "C-r +Redo" && break
	keys PgDn
	sleep 0.2
done
screen | grep -q -E "C-r +Redo" || fail "C-r is not in the help"
keys G		# the help scrolls: the last rows, the prompt's table
wait_for "table prompt"
screen | grep -q -E "C-w +Prompt: delete the last word" ||
    fail "the prompt's keys are not in the help"
ok "? lists the live keymap"
keys q
wait_gone "live keymap"
# another key closes the help, as in htop, and says it did nothing (1
# closed it without a word: was it labelled?)
keys ?
wait_for "live keymap"
keys 1
wait_for "help closed; 1 did nothing (press it again)"
wait_gone "live keymap"
ok "a key over the help closes it and says it did nothing"

# larger again, with the help closed
$TM resize-window -t t -x 160 -y 50
wait_for "cat   st   origin"
ok "back to 160x50"

# label, undo, redo: the store says what the screen says
keys 1
wait_for "$ID labelled compile by tester"
[ "$(row "$ID" | json_field category_source)" = tester ] ||
    fail "label not stored"
keys u
wait_for "undid label compile of $ID"
[ "$(row "$ID" | json_field category)" = null ] ||
    fail "undo left a category: $(row "$ID")"
wait_for "1/174"
ok "u undoes the label and goes back to $ID"
keys C-r
wait_for "redid label compile of $ID"
[ "$(row "$ID" | json_field category)" = compile ] || fail "redo"
ok "C-r redoes it"
keys u
wait_for "undid label compile of $ID"

# K is bound now: it labels functional
keys K
wait_for "$ID labelled functional by tester"
ok "the :bind key works"

keys q
wait_for "ASSAY-EXIT 0"
grep -q "$ID labelled functional by tester" "$T/screen.txt" ||
    fail "--dump-screen misses the last message"
grep -q " queue " "$T/screen.txt" || fail "--dump-screen misses the queue"
ok "q quits and --dump-screen wrote the final screen"

# NO_COLOR: attributes only, no colour anywhere on the screen
export NO_COLOR=1
start 80 24 ""
wait_for "1/174"
esc=$(printf '\033')
if $TM capture-pane -p -e -t t | grep -q -E \
    "$esc\\[([0-9]+;)*([34][0-7]|38;5;[0-9]+)(;[0-9]+)*m"; then
	fail "NO_COLOR still shows colours"
fi
$TM capture-pane -p -e -t t | grep -q "$esc\\[[0-9;]*7m" ||
    fail "NO_COLOR lost the reverse-video selection"
ok "NO_COLOR shows attributes only"
keys q
wait_for "ASSAY-EXIT 0"
