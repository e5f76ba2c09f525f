# 028-background-verify.sh - issue 12, "background verification from the
# workbench": :verify over a view of hundreds (the RTLFixer syntax and
# simulate sets without one model's rows, 364 candidates) runs through
# the verify service (in the workbench since issue 24), 4 at a time, in
# the background: the status line shows the progress, the rows get
# their verdicts as results land, and moving and labelling go on
# meanwhile (the labels land on the candidates shown); at the end
# every candidate of the view has a stored run.  A second :verify is
# cancelled with x: it stops, what it stored stays.
. "$(dirname "$0")/lib.sh"
command -v iverilog >/dev/null 2>&1 || skip "iverilog is not installed"

"$ASSAY" --db "$DB" import "$DATA/rtlfixer/verilogeval-syntax.jsonl" \
    "$DATA/rtlfixer/verilogeval-simulate.jsonl" >/dev/null ||
    fail "import rtlfixer"
VIEW="origin!=gpt-3.5-turbo-16k-0613"
N=$("$ASSAY" --db "$DB" list --json --where "$VIEW" | wc -l)
[ "$N" -ge 300 ] || fail "the view has $N candidates, want 300 or more"
"$ASSAY" --db "$DB" list --json --where "$VIEW" | json_field id >"$T/ids"
id_n() { sed -n "$1p" "$T/ids"; }
short() { echo "$1" | cut -c1-8; }
unverified() { "$ASSAY" --db "$DB" list --json --where "$VIEW verdict=none" |
    wc -l; }

start 120 40 "--where $VIEW"
wait_for " 1/$N "
command_line "verify 4"
wait_for ":verify $N candidates, 4 at a time, in the background"
wait_for "· verify " 30
# the fails never outnumber what was done: both come from one summary
# (the events' count ran ahead: "verify 44/347 (45 fail)")
for i in 1 2 3 4 5 6 7 8; do
	line=$(screen | tail -n 1)
	d=$(echo "$line" | sed -n 's/.*verify \([0-9]*\)\/[0-9]* (\([0-9]*\) fail.*/\1/p')
	f=$(echo "$line" | sed -n 's/.*verify \([0-9]*\)\/[0-9]* (\([0-9]*\) fail.*/\2/p')
	[ -z "$d" ] || [ "$f" -le "$d" ] || fail "more fails than done: $line"
	sleep 0.2
done
ok "the progress shows in the status line"

# moving and labelling while it runs; each label lands on the row shown
keys j j
wait_for " 3/$N "
# the title is drawn before the rows: wait for the row too
wait_for "▶ $(short "$(id_n 3)") " 5
keys 1
wait_for "$(id_n 3) labelled compile by tester"
keys j j j
wait_for " 7/$N "
keys 3
wait_for "$(id_n 7) labelled functional by tester"
screen | tail -n 1 | grep -q "verify [0-9]*/$N" ||
    fail "the verification ended before the keys: no test of working meanwhile"
ok "moving and labelling go on while it runs"

# rows get their verdicts as results land
wait_for "$(short "$(id_n 1)") chip fail" 60
ok "the rows show the verdicts that landed"

wait_for ":verify done in" 300
[ "$(unverified)" -eq 0 ] || fail "$(unverified) candidates have no run"
row "$(id_n 3)" | grep -q -F '"category":"compile"' ||
    fail "the label of $(id_n 3) was lost"
row "$(id_n 7)" | grep -q -F '"category":"functional"' ||
    fail "the label of $(id_n 7) was lost"
row "$(id_n 4)" | grep -q -F '"category_source":"tester"' &&
    fail "$(id_n 4) was labelled by a key meant for another"
ok "every one of the $N candidates has a stored run; the labels stayed"

# again: nothing changed, and the message says so
command_line "verify"
wait_for "0 verified (0 pass, 0 not), $N unchanged" 120
ok "a second :verify reports $N unchanged"

# cancel: x stops it; what it stored stays
command_line "verify 1 force"
wait_for "· verify " 30
keys x
wait_for ":verify cancelled after" 30
screen | tail -n 1 | grep -q "· verify " && fail "still running after x"
# what is left counts from the view, not from what the service has
# looked at so far (a cancel at once said "0 left unverified")
# forced, they keep their runs: "not verified again" (it said "left
# unverified" of candidates that had runs)
left=$(screen | tail -n 1 | sed -n 's/.*; \([0-9]*\) not verified again.*/\1/p')
[ -n "$left" ] && [ "$left" -gt 0 ] ||
    fail "x at once: $(screen | tail -n 1)"
res=$(screen | tail -n 1 | sed -n 's/.*cancelled after \([0-9]*\) result.*/\1/p')
[ $((res + left)) -eq "$N" ] ||
    fail "$res results and $left left of $N: $(screen | tail -n 1)"
ok "x cancels :verify; $res results, $left not verified again of $N"
command_line q
wait_for "ASSAY-EXIT 0"
