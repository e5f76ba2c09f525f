# 005-toolchain-zoom-scrollback.sh - regression, workbench bugs 2 and 3.
# Bug 2: at 80x24 `v` zoomed the toolchain pane but gave the layout back
# as soon as the 13 ms run ended, and shrinking the libvterm screen (no
# reflow in 0.1.4) cut long lines for good: "candidate.sv:8: error: part
# select y[1:3] is ou" stayed cut even after `z`.  Now the zoom is held
# until a key and the terminal keeps its width while no program runs.
# Bug 3: the toolchain pane had no scrollback, so output longer than the
# pane lost its top (the `$ iverilog` line and the first error), and
# PgUp/k on the focused pane did nothing.
. "$(dirname "$0")/lib.sh"

"$ASSAY" --db "$DB" import "$DATA/rtlfixer/verilogeval-syntax.jsonl" \
    >/dev/null || fail "import rtlfixer"
SHORT=c0ce1bae	# one error: part select y[1:3] is out of order
LONG=cf6d0869	# 16 errors, about 30 lines of output
for id in $SHORT $LONG; do
	[ -n "$(row $id | json_field id)" ] || fail "fixture: no $id"
done
LINE="candidate.sv:8: error: part select y[1:3] is out of order."

start 80 24
wait_for "1/174"
command_line "goto $SHORT"
wait_for "candidate $SHORT"
keys v
wait_for "$SHORT: fail at compile" 30
sleep 0.3	# the zoom would be gone by now if it were not held
screen | grep -q -F "toolchain (zoomed until a key)" ||
    fail "the zoom did not stay after the run"
screen | grep -q -F "$LINE" || fail "the error line is cut while zoomed"
ok "the zoom stays after the run; the whole error line shows"

keys Escape
wait_for " queue "
screen | grep -q -F "$LINE" && fail "the small pane is not clipped"
keys Tab Tab Tab	# queue -> spec -> candidate -> toolchain
keys z
wait_for "toolchain (zoomed)"
screen | grep -q -F "$LINE" || fail "the line was cut for good: $(screen |
    grep -F 'part select')"
ok "after the layout came back and z, the line is whole again"
keys z
wait_for " queue "

# bug 3: output longer than the zoomed pane (22 rows) keeps its top
command_line "goto $LONG"
wait_for "candidate $LONG"
keys v
wait_for "$LONG: fail at compile" 30
wait_for "(zoomed until a key)"
# a run that ended shows its beginning: the command and the first error
screen | grep -q -F "\$ iverilog" || fail "the \$ iverilog line is lost"
screen | grep -q -F "candidate.sv:7: error: Unable to bind parameter" ||
    fail "the first error is lost"
screen | grep -q -E "lines 1-22/[0-9]+" || fail "no scroll indicator"
keys G
wait_for "$LONG: fail · compile"
screen | grep -q -E "lines [0-9]+-([0-9]+)/\\1" ||
    fail "G did not go to the end"
screen | grep -q -F "toolchain (zoomed until a key)" ||
    fail "a scroll key ended the held zoom"
keys k
wait_gone "$LONG: fail · compile"
keys g
wait_for "\$ iverilog"
ok "the zoomed output scrolls: g/G/k, with the position in the title"
keys Escape
wait_for " queue "

# a larger screen: no zoom; the focused pane scrolls its scrollback
$TM resize-window -t t -x 100 -y 40
wait_for "cat   st"
keys v
wait_for "$LONG: fail at compile" 30
screen | grep -q -F "(zoomed" && fail "a 100x40 screen zoomed"
pane toolchain | grep -q -F "\$ iverilog" ||
    fail "the pane does not show the beginning of the run"
# the toolchain pane has had the focus since the Tabs above
keys G
wait_for "$LONG: fail · compile"
pane toolchain | grep -q -F "\$ iverilog" && fail "G did not scroll"
keys PPage PPage PPage PPage
wait_for "\$ iverilog"
screen | grep -q -E "lines 1-[0-9]+/[0-9]+" || fail "no position after PgUp"
ok "G and PgUp scroll the toolchain pane's scrollback"

# q from the focused toolchain pane gives the focus back first (issue 24)
keys q
wait_for "focus: queue"
keys q
wait_for "ASSAY-EXIT 0"
