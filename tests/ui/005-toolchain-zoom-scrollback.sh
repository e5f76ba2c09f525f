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

# :messages with the pane scrolled back to the run's start: they are
# printed at its end and shown there (they were out of sight below)
command_line "messages"
wait_for "at the end of the toolchain pane"
pane toolchain | grep -q -F -- "--- the last" ||
    fail ":messages printed out of sight: $(pane toolchain)"
ok ":messages shows them in the pane, scrolled back or not"

# q from the focused toolchain pane gives the focus back first (issue 24)
keys q
wait_for "focus: queue"
keys q
wait_for "ASSAY-EXIT 0"

# Shrunk while v runs, after Esc gave the focus back to the queue: the
# queue keeps it (the toolchain pane zoomed and took it, so j scrolled
# the pane).  The candidate's simulation never ends; x cancels it.
printf '%s\n' '{"task": {"id": "t/hang", "domain": "chip", "env": "iverilog", "spec": "never ends", "files": {"test.sv": "module tb; top_module dut(); initial begin #1 $display(\"Mismatches: 0 in 1 samples\"); $finish; end endmodule"}}, "candidate": {"id": "c-hang", "origin": "hang", "code": "module top_module(); initial begin while (1) begin end end endmodule"}}' \
    >"$T/hang.jsonl"
"$ASSAY" --db "$DB" import "$T/hang.jsonl" >/dev/null || fail "import the hang"
start 200 50 "--where task=t/hang"
wait_for " 1/1 "
keys v
wait_for "verifying c-hang" 10
keys Escape
$TM resize-window -t t -x 80 -y 24
sleep 0.5
keys C-l
sleep 0.5
screen | tail -n 1 | grep -q "· toolchain" &&
    fail "the resize gave the focus to the toolchain pane: $(screen | tail -n 1)"
screen | grep -q -F "(zoomed" && fail "the resize zoomed the pane"
ok "a resize during v leaves the focus with the queue"
keys x
wait_for "cancelled" 10
quit_all

# assay verify on a terminal says what runs once no result came for 2 s
# (a run that never ends printed nothing until its timeout)
$TM new-session -d -s cli -x 120 -y 10 "'$ASSAY' --db '$DB' verify --timeout 6 --where task=t/hang; sleep 30"
sleep 3.5
$TM capture-pane -p -t cli | grep -q "1 running (c-hang at simulate), [0-9]* s since the last result" ||
    fail "verify on a terminal says nothing of a long run: $($TM capture-pane -p -t cli)"
n=0
until $TM capture-pane -p -t cli | grep -q "^verified 1"; do
	n=$((n + 1)); [ $n -lt 100 ] || fail "verify did not end"
	sleep 0.2
done
$TM capture-pane -p -t cli | grep -q "running (" &&
    fail "the running line stayed: $($TM capture-pane -p -t cli)"
$TM kill-session -t cli
ok "assay verify says what runs while no result comes"
