# 006-small-screen-polish.sh - regression, workbench bug 4 (small screen
# polish): the queue's origin column was cut without an ellipsis
# ("codellama2-1"); an automatic category looked like a human label; with
# a filter the status bar showed the filter twice ("filter: ... (167)"
# and again) and dropped the key hints; at 80 columns the hints ended
# mid-word ("r reje"); help lines were cut ("...(the program, on the
# toolchain pane").
. "$(dirname "$0")/lib.sh"

"$ASSAY" --db "$DB" import "$DATA/rtlfixer/verilogeval-syntax.jsonl" \
    >/dev/null || fail "import rtlfixer"
IDS=$("$ASSAY" --db "$DB" list --json | head -n 3 | json_field id)
# shellcheck disable=SC2086
"$ASSAY" --db "$DB" verify --quiet $IDS >/dev/null 2>&1
ID=$("$ASSAY" --db "$DB" list --json | head -n 1 | json_field id)
[ "$(row "$ID" | json_field category_source)" = auto ] ||
    fail "fixture: $ID has no automatic category"

# the status bar ends with a whole hint (polled: a redraw after a resize
# may still be on its way when the screen is first read)
whole_hints() {
	n=30
	while [ $n -gt 0 ]; do
		screen | tail -n 1 | grep -q -E \
		    "(label|verify|accept|reject|flag|edit|undo|commit|help|quit) *$" &&
		    return 0
		sleep 0.1
		n=$((n - 1))
	done
	return 1
}

start 120 40
wait_for "1/174"
wait_for "origin"
screen | grep -q -F "codellama2-1 " && fail "origin cut without ellipsis"
screen | grep -q -F "codellama2…" || fail "no ellipsis on a cut origin"
ok "a cut origin ends in an ellipsis"

# automatic suggestion: "comp?"; a human label: "comp"
screen | grep -q -E "$ID +chip +fail +comp\\? " ||
    fail "the automatic category is not marked"
keys 1
wait_for "$ID labelled compile by tester"
screen | grep -q -E "$ID +chip +fail +comp +" ||
    fail "the human label is marked as automatic"
ok "comp? is a suggestion, comp a label"

$TM resize-window -t t -x 80 -y 24
wait_gone "origin"
keys C-l
whole_hints || fail "hints cut mid-word: $(screen | tail -n 1)"
screen | tail -n 1 | grep -q -F "? help" || fail "no help hint"
ok "80 columns: whole hints only"

command_line "filter verdict=fail benchmark=rtlfixer"
wait_for "1/3"
# once, and cut with an ellipsis where the core hints (help to reject)
# need its room (UI 052)
[ "$(screen | tail -n 1 | grep -o "verdict=fail" | wc -l)" -eq 1 ] ||
    fail "the filter shows twice: $(screen | tail -n 1)"
screen | tail -n 1 | grep -q -E "verdict=fail (benchmark=rtlfixer|[a-z=]*…) " ||
    fail "the filter is cut without an ellipsis: $(screen | tail -n 1)"
screen | tail -n 1 | grep -q -F "filter:" && fail "a filter: message"
whole_hints || fail "hints dropped or cut: $(screen | tail -n 1)"
screen | tail -n 1 | grep -q -F "? help" || fail "no help hint with a filter"
ok "a filter shows once, with the key hints"

# prose cut at a pane's edge ends in an ellipsis (it stopped bare: "Y1
# is not a vali│", "fail · co│"): the evidence line, a diagnostic after
# its line, the trace's rows
screen | grep -E "│line [0-9]+: " | grep -q "…│" ||
    fail "the evidence line is cut bare: $(screen | grep -E '│line [0-9]+: ')"
screen | grep -F "└ feedback: " | grep -q "…│" ||
    fail "the trace's feedback is cut bare: $(screen | grep -F '└ feedback')"
screen | grep -F "◀ " | grep -v "…│" | grep -q -E "[a-z]│" &&
    fail "a diagnostic is cut bare: $(screen | grep -F '◀ ')"
ok "prose cut at a pane's edge ends in an ellipsis"
# wrapped, a diagnosed line keeps its message where it fits (w took
# every message away)
n=0
until screen | tail -n 1 | grep -q "· candidate "; do
	keys Tab
	sleep 0.2
	n=$((n + 1)); [ $n -lt 6 ] || fail "Tab never focused the candidate pane"
done
keys w
wait_for "candidate: long lines wrap"
pane candidate | grep -q "◀ " ||
    fail "wrapped, the diagnostics' messages are gone: $(pane candidate)"
keys w
wait_for "are cut (h l scroll them)"
keys Escape
wait_for "focus: queue"
ok "wrapped lines keep their diagnostics' messages"
# the stored log opens where its evidence shows: the toolchain pane
# has five rows here, and "near the start" was fifteen lines
pane toolchain | grep -q "error: " ||
    fail "the toolchain pane hides the evidence: $(pane toolchain)"
ok "the stored log shows its evidence at 80x24"

keys ?
wait_for "live keymap"
screen | grep -A 1 -F "Open: focus the candidate" | grep -q -E \
    "(toolchain pane\)|^. +pane\))" ||
    fail "a help line is cut: $(screen | grep -F 'the program')"
screen | head -n 1 | grep -q -F "re─" && fail "the help title is cut"
screen | awk 'length($0) > 80 * 3 { bad = 1 } END { exit bad }' ||
    fail "a row is wider than the window"
ok "help lines wrap at 80 columns"
keys q
wait_gone "live keymap"
command_line q	# :q leaves every view at once
wait_for "ASSAY-EXIT 0"
