# 007-stats-drilldown.sh - the statistics sheet (issue 3 item 7, issue 5
# item 5): `s` on imported and verified real data shows the error
# analysis per benchmark, hjkl move a cell cursor, Tab groups by model,
# and Enter on a cell sets the queue filter to that group and cell, with
# exactly the candidates the cell counted.
. "$(dirname "$0")/lib.sh"
command -v iverilog >/dev/null 2>&1 || skip "iverilog is not installed"

# The syntax set's one env-error became a compile failure (issue 11 item
# 4): the env-error is the simulate set's row 26 (a sorry and nothing of
# the candidate's), imported alone, so 175 candidates.
sed -n 26p "$DATA/rtlfixer/verilogeval-simulate.jsonl" > "$T/sorry.jsonl"
"$ASSAY" --db "$DB" import "$DATA/rtlfixer/verilogeval-syntax.jsonl" \
    "$T/sorry.jsonl" >/dev/null || fail "import rtlfixer"
IDS=$("$ASSAY" --db "$DB" list --json | head -n 24 | json_field id)
IDS="$IDS $("$ASSAY" --db "$DB" list --json --where source~sorry.jsonl | json_field id)"
# shellcheck disable=SC2086
"$ASSAY" --db "$DB" verify --jobs 4 --quiet $IDS >/dev/null 2>&1
n_of() { "$ASSAY" --db "$DB" list --json --where "$1" | wc -l; }
# an env-error labelled compile counts as compile, in `assay stats` as
# on the sheet (store_stat_bucket)
# (since iverilog's "sorry" is a compile failure, issue 11, the first 24
# may hold no env-error; then there is nothing to label)
ENVE=$("$ASSAY" --db "$DB" list --json --where verdict=env-error | head -n 1 |
    json_field id)
if [ -n "$ENVE" ]; then
	"$ASSAY" --db "$DB" label "$ENVE" compile >/dev/null ||
	    fail "label $ENVE"
fi
NCOMP=$(n_of "benchmark=rtlfixer category=compile verdict!=pass")
NPASS=$(n_of "verdict=pass")
NUNV=$(n_of "verdict=none category=none")
[ "$NCOMP" -ge 2 ] || fail "need compile failures, have $NCOMP"
[ "$NPASS" -ge 1 ] || fail "need a pass, have $NPASS"
CLICOMP=$("$ASSAY" --db "$DB" stats --where benchmark=rtlfixer --format csv |
    awk -F, '$2 == "compile" { n += $4 } END { print n + 0 }')
[ "$CLICOMP" -eq "$NCOMP" ] ||
    fail "assay stats counts $CLICOMP compile, the sheet's filter $NCOMP"

start 120 32
wait_for "1/175"
keys s
wait_for " stats "
screen | grep -q "benchmark .* comp .* pass .* unver" ||
    fail "the sheet has no header"
wait_for "rtlfixer · compile: $NCOMP of 175"
screen | grep -q -E "│rtlfixer +$NCOMP " || fail "no rtlfixer row"
ok "s shows the error analysis, cursor on rtlfixer compile"

# a decision key over the sheet says it is not the sheet's, and decides
# nothing (it did nothing, silently, while the hints offered it)
keys 1
wait_for "1 label-compile is not a key of the stats sheet (q closes it)"
[ "$(sqlite3 "$DB" "SELECT count(*) FROM event WHERE action = 'label'")" = "$([ -n "$ENVE" ] && echo 1 || echo 0)" ] ||
    fail "1 over the stats sheet labelled"
ok "a decision key over the sheet is refused, saying why"
# ":" opens the line over the sheet (":q from anywhere"); Esc closes
# the line, the sheet stays
keys :
n=30
until screen | tail -n 1 | grep -q "^:"; do
	n=$((n - 1)); [ $n -gt 0 ] || fail ": did not open the line over the sheet: $(screen | tail -n 1)"
	sleep 0.1
done
keys Escape
wait_for "rtlfixer · compile: $NCOMP of 175"
screen | grep -q " stats " || fail "Esc on the line closed the sheet"
ok ": opens the command line over the sheet"

# h at the first column stays; l l l l l: pass; l l l: unverified
keys h l l
wait_for "rtlfixer · functional:"
keys h h
wait_for "rtlfixer · compile: $NCOMP of 175"
keys j
wait_for "all · compile: $NCOMP of 175"
keys k
wait_for "rtlfixer · compile:"
ok "h/j/k/l move the cell cursor"

# Tab groups by model, BTab back
keys Tab
wait_for "Enter: model="
keys BTab
wait_for "Enter: benchmark=rtlfixer category=compile verdict!=pass"

keys Enter
wait_for " 1/$NCOMP "
wait_gone " stats "
screen | tail -n 1 | grep -q -F \
    "benchmark=rtlfixer category=compile verdict!=pass" ||
    fail "the status bar does not show the cell's filter"
ok "Enter filters the queue to the $NCOMP compile failures"

# from the whole queue: the all row, pass and unverified columns
command_line "filter"
wait_for " 1/175 "
keys s
wait_for " stats "
keys j l l l l l
wait_for "all · pass: $NPASS of 175"
keys Enter
wait_for " 1/$NPASS "
screen | tail -n 1 | grep -q -F " verdict=pass " || fail "no verdict=pass"
command_line "filter"
wait_for " 1/175 "
keys s
wait_for " stats "
keys j l l l l l l l l
wait_for "all · unverified: $NUNV of 175"
keys Enter
wait_for " 1/$NUNV "
ok "pass ($NPASS) and unverified ($NUNV) cells drill down"

# q and Esc close the sheet without changing the filter
keys s
wait_for " stats "
keys Escape
wait_gone " stats "
keys s
wait_for " stats "
keys q
wait_gone " stats "
wait_for " 1/$NUNV "
command_line q	# :q leaves every view at once
wait_for "ASSAY-EXIT 0"
ok "q and Esc close the sheet"
