# 027-long-lines.sh - issue 12, "everything readable whole", long lines:
# a 300-column line in the candidate pane at 80x24 is cut with a mark
# (›), l scrolls it right until its end shows (the title says from which
# column), h back; w wraps the long lines so that the end shows without
# scrolling, w again cuts them.  A combining accent (e + U+0301) is drawn
# in its cell, not dropped.  A run made in a zoom is cut when the layout
# comes back, with marks; w on the toolchain pane shows it wrapped.
. "$(dirname "$0")/lib.sh"

"$ASSAY" --db "$DB" import "$DATA/rtlfixer/verilogeval-syntax.jsonl" \
    >/dev/null || fail "import rtlfixer"
A=$("$ASSAY" --db "$DB" list --json | head -n 1 | json_field id)
{
	printf '// cafe\314\201 (a combining acute accent)\n'
	printf '// START'
	i=0
	while [ $i -lt 28 ]; do printf ' long-text'; i=$((i + 1)); done
	printf ' END_OF_LONG\n'
	printf 'module top_module ();\nendmodule\n'
} >"$T/long.v"
W=$(head -n 2 "$T/long.v" | tail -n 1 | wc -c)
[ "$W" -ge 300 ] || fail "the long line is $W columns"
L=$("$ASSAY" --db "$DB" --reviewer tester repair "$A" --file "$T/long.v" |
    awk '{ print $1 }')
[ -n "$L" ] || fail "no candidate with the long line"

start 80 24
wait_for " 1/175 "
command_line "goto $L"
wait_for "candidate $(echo "$L" | cut -c1-8)"
pane candidate | grep -q "START long-text.*›" || fail "no cut mark on the long line"
screen | grep -q -F "END_OF_LONG" && fail "the end shows before scrolling"
screen | grep -q -F "$(printf 'cafe\314\201')" ||
    fail "the combining accent was dropped"
ok "a long line is cut with a mark; the combining accent is drawn"

cnt=0
while ! screen | grep -q -F "END_OF_LONG" && [ $cnt -lt 20 ]; do
	keys l
	sleep 0.1
	cnt=$((cnt + 1))
done
screen | grep -q -F "END_OF_LONG" || fail "l never reached the end"
# the column stays in the title at 80 columns (it was cut to "from")
wait_for "from col "
screen | grep -q "from col [0-9][0-9]* ─" || fail "the title's column is cut: $(screen | grep 'from col')"
pane candidate | grep -q "END_OF_LONG *$" || fail "the end is cut"
pane candidate | grep -q "END_OF_LONG.*›" && fail "a cut mark at the end"
ok "l scrolls the 300-column line to its end ($cnt keys)"
keys Right Left h h h h h h h h h h h h h h h h h h h h
wait_gone "from col "
screen | grep -q -F "END_OF_LONG" && fail "h did not scroll back"

keys w
wait_for "candidate: long lines wrap"
keys Tab Tab G	# the candidate pane scrolls its wrapped rows
wait_for "END_OF_LONG"
keys g
wait_for "START long-text"
keys w
wait_for "are cut (h l scroll them)"
wait_gone "END_OF_LONG"
ok "w wraps the long lines and cuts them again"

# the toolchain pane: a run made zoomed is cut when the layout comes
# back (the terminal cannot reflow); the lines say so, and w on the
# pane shows the run again wrapped at its width
if command -v iverilog >/dev/null 2>&1; then
	keys Escape	# the focus back to the queue
	keys v
	wait_for "(zoomed until a key)" 60
	keys Escape
	wait_gone "(zoomed"
	pane toolchain | grep -q "›" || fail "no cut mark in the toolchain pane"
	keys Tab Tab Tab w
	wait_for "wrapped at the pane's width"
	pane toolchain | grep -q "›" && fail "still cut after w"
	# the command's last word, wherever the wrap cut it
	pane toolchain | tr -d '\n ' | grep -q -F "test.svcandidate.sv" ||
	    fail "the command's end is not shown"
	ok "w on the toolchain pane shows the run again, wrapped"
fi
command_line q
wait_for "ASSAY-EXIT 0"
