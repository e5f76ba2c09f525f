# 069-panes-open-on-what-matters.sh - a new user's second check (issue
# 24): the candidate pane opened on the first diagnosed line, else at the
# top unless the evidence's line was hot, so a functional failure's
# evidence (line 16 of an RTLFixer candidate, no diagnostics) was out of
# sight at 80x24; the statistics sheet cut model names at their end, so
# five rows read "codellama…", and its headers without a mark ("enver").
. "$(dirname "$0")/lib.sh"
command -v iverilog >/dev/null 2>&1 || skip "iverilog is not installed"
command -v jq >/dev/null 2>&1 || skip "no jq to read the candidates"

# RTLFixer's two candidates of 2012_q1g (simulate set): one fails with
# "Output 'f' has 50 mismatches" resting on line 16, with no diagnostics
grep '"task_id": "2012_q1g"' "$DATA/rtlfixer/verilogeval-simulate.jsonl" \
    >"$T/q1g.jsonl"
"$ASSAY" --db "$DB" import "$T/q1g.jsonl" >/dev/null || fail "import q1g"
"$ASSAY" --db "$DB" verify --quiet >/dev/null 2>&1
ID=
for c in $("$ASSAY" --db "$DB" list --json | json_field id); do
	"$ASSAY" --db "$DB" show --json "$c" >"$T/show.json"
	if jq -e '.runs[-1].evidence_line >= 12 and (.runs[-1].diagnostics | length) == 0' \
	    "$T/show.json" >/dev/null; then
		ID=$c
		LINE=$(jq -r '.runs[-1].evidence_line' "$T/show.json")
		TEXT=$(jq -r .code "$T/show.json" | sed -n "${LINE}p" |
		    sed 's/^[[:space:]]*//; s/[[:space:]]*$//')
		break
	fi
done
[ -n "$ID" ] || fail "fixture: no candidate of 2012_q1g rests on a line past 12"
[ -n "$TEXT" ] || fail "fixture: line $LINE of $ID is empty"

start 80 24 "--where id=$ID"
wait_for " 1/1 "
wait_for "run #"
pane candidate | grep -q -F -- "$TEXT" ||
    fail "the candidate pane does not show line $LINE ($TEXT): $(pane candidate)"
ok "the candidate pane opens on line $LINE, where the verdict rests"
# opened at 120x40 and shrunk to 80x24 before any scroll: the line is
# still in sight (the pane kept its top, the line fell below it)
start 120 40 "--where id=$ID"
wait_for " 1/1 "
wait_for "run #"
pane candidate | grep -q -F -- "$TEXT" || fail "at 120x40: not on line $LINE"
$TM resize-window -t t -x 80 -y 24
sleep 0.5
wait_for " 1/1 "
pane candidate | grep -q -F -- "$TEXT" ||
    fail "shrunk to 80x24, the candidate pane lost line $LINE ($TEXT): $(pane candidate)"
ok "shrunk, it still shows line $LINE"
start 80 24 "--where id=$ID"
wait_for " 1/1 "
wait_for "run #"
# w twice keeps the line at the top (it went back to line 1)
n=0
until screen | tail -n 1 | grep -q "· candidate "; do
	keys Tab
	sleep 0.2
	n=$((n + 1)); [ $n -lt 6 ] || fail "Tab never focused the candidate pane"
done
keys w
wait_for "candidate: long lines wrap"
keys w
wait_for "are cut (h l scroll them)"
pane candidate | grep -q -F -- "$TEXT" ||
    fail "w w left line $LINE: $(pane candidate)"
ok "w twice keeps the candidate pane on its line"
keys Escape
command_line q
wait_for "ASSAY-EXIT 0"

import_syntax
start 80 24
wait_for " 1/"
# the statistics sheet by model at 80 columns
keys s
wait_for " stats "
keys Tab
wait_for "model"
# names that differ at their end keep it: the syntax set's six models
# named codellama... (codellama2-13b, codellama2-34b, ...) read as five
# different rows at least (cut at their end, all read "codellama…")
rows=$(screen | sed -n 's/^│\([^ ]*\) .*/\1/p' | grep '^cod')
[ "$(echo "$rows" | sort -u | wc -l)" -ge 5 ] ||
    fail "model names cut alike: $(echo "$rows" | tr '\n' ' ')"
screen | head -n 2 | tail -n 1 | grep -q -E "enver |defec " &&
    fail "a header cut without a mark: $(screen | head -n 2)"
ok "the sheet cuts names in the middle and headers with a mark"
keys q
wait_gone " stats "
command_line q
wait_for "ASSAY-EXIT 0"
