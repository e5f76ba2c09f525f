# 052-small-things.sh - issue 24, I of what a new user met, each small:
# the workbench with stdin not a terminal refuses (it spun at 30 % of a
# CPU); `:grep "a b"` searches the phrase, not its quote marks; `?`
# lists the `:` commands and the filter keys, and action names whole
# (prompt-history-prev was cut); at 80 columns the hint bar keeps the
# most important hints (it dropped label, accept and reject and kept
# "e edit"); a share under 1 % shows as "<1%", not "0%"; `list` keeps
# its columns for task-defect and env-error; `stats --generation` honours
# --format csv and md; the spec pane gives assay's evidence a line of its
# own instead of the dataset's log on the recorded line.
. "$(dirname "$0")/lib.sh"

import_syntax
A=$(id_n 1)

# stdin not a terminal: a refusal at once, exit 1
echo q | timeout 5 "$ASSAY" --db "$DB" >"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 1 ] || fail "stdin from a pipe: exit $rc, want 1"
grep -q "stdin is not one" "$T/err" || fail "no reason: $(cat "$T/err")"
[ ! -s "$T/out" ] || fail "the refusal wrote to the terminal: $(od -c "$T/out" | head -n 2)"
ok "with stdin not a terminal the workbench refuses"

# one label of 174 for the stats sheet: under 1 % (0.57 % rounds to 1)
"$ASSAY" --db "$DB" import "$DATA/rtlfixer/verilogeval-simulate.jsonl" \
    >/dev/null || fail "import simulate"
"$ASSAY" --db "$DB" label "$A" api >/dev/null || fail "label"
TOTAL=$("$ASSAY" --db "$DB" list --json | wc -l)

start 120 40
wait_for " 1/$TOTAL "
command_line 'grep "Unable to bind"'
wait_for "grep=\"Unable to bind\""
n=$(screen | sed -n 's/.*─ \([0-9]*\)\/\([0-9]*\) ─.*/\2/p' | head -n 1)
[ -n "$n" ] && [ "$n" -gt 0 ] || fail ':grep "Unable to bind" found nothing'
ok ":grep \"a b\" finds the phrase ($n candidates)"
keys Escape
wait_for " 1/$TOTAL "
# an unterminated quote is refused, as in a filter (it searched for
# the quote mark: grep="""Unable)
command_line 'grep "Unable'
wait_for "grep: unterminated quote at column 1"
screen | grep -q -F 'grep="""' && fail ":grep searched for a quote mark"
ok ":grep with an unterminated quote is refused"

keys s
wait_for "─ stats "
screen | grep -q "<1%" || fail "the stats sheet has no <1% share"
screen | grep -q -E " 1 +0%" && fail "a share of 1 shows as 0%"
keys Escape
ok "a share under 1 % shows as <1%"

keys ?
wait_for "live keymap"
in_help "prompt-history-prev " || fail "? cuts prompt-history-prev"
in_help "The : commands" || fail "? lists no : commands"
in_help ":verify \[JOBS\] \[force\]" || fail "? lists no :verify"
in_help "Filter keys" || fail "? lists no filter keys"
in_help "verdict stage category" || fail "? lists no filter key names"
# a command's whole first sentence, not its first source line ("...
# failure categories: compile api"), and every table under its own
# heading (the waveform sheet's keys stood under the prompt's)
in_help "or --sub\)\." ||
    fail "? cuts :label's first sentence"
in_help "The waveform sheet, W" || fail "? has no heading for the waveform sheet"
in_help "The : and / prompt" || fail "? has no heading for the prompt"
keys q
wait_gone "live keymap"
ok "? lists the : commands, the filter keys and whole action names"
keys q
wait_for "ASSAY-EXIT 0"

# 80 columns, a filter and a long reviewer name: the core hints (help to
# reject) all show, the reviewer gives way to them (with a filter "r
# reject" went where "verdict=fail · name" stayed), and the rest come by
# rank, none skipped
start 80 24 "--reviewer a-reviewer-with-a-long-name --where verdict=none"
wait_for " verdict=none "
bar=$(screen | tail -n 1)
for h in "? help" "v verify" "[1-5] label" "a accept" "r reject"; do
	echo "$bar" | grep -q -F "$h" || fail "80 columns with a filter drop '$h': $bar"
done
prev=1
for h in "v verify" "[1-5] label" "a accept" "r reject" "e edit" "f flag" \
    "u undo" "q quit" "c commit"; do
	if echo "$bar" | grep -q -F "$h"; then
		[ $prev -eq 1 ] || fail "'$h' shows while a more important hint does not: $bar"
	else
		prev=0
	fi
done
ok "at 80 columns with a filter the core hints show: $bar"
# where there is room, the reviewer shows again
$TM resize-window -t t -x 140 -y 24
wait_for "verdict=none · a-reviewer-with-a-long-name"
ok "at 140 columns the reviewer shows beside the filter"
$TM resize-window -t t -x 80 -y 24
wait_gone "a-reviewer-with-a-long-name"
# a message longer than the bar ends in an ellipsis (it was cut bare)
command_line "bogus"
wait_for "unknown command"
screen | tail -n 1 | grep -q "…$" ||
    fail "a long message is cut without an ellipsis: $(screen | tail -n 1)"
ok "a long message ends in an ellipsis"
# :messages shows it whole, with the ones before, in the toolchain pane
command_line "messages"
wait_for "at the end of the toolchain pane"
pane toolchain | grep -q "mouse, advance" ||
    fail ":messages does not show the long message whole: $(pane toolchain)"
ok ":messages shows the last messages whole"
keys q
wait_for "ASSAY-EXIT 0"

# list: a task-defect and an env-error row keep the columns
"$ASSAY" --db "$DB" list >"$T/list"
awk 'NR == 1 { c = index($0, "STAGE") } NR > 1 { if (substr($0, c - 1, 1) != " ") bad = 1 }
    END { exit bad }' "$T/list" || fail "list: a row runs into the STAGE column"
head -n 1 "$T/list" | grep -q "VERDICT     STAGE" ||
    fail "list: the VERDICT column is narrower than task-defect"
ok "list's VERDICT column holds task-defect and env-error"

# RTLFixer's first syntax row with its task's canonical solution as the
# code (assay passes what the row records as a compile error: below),
# under a task name longer than list's TASK column
python3 - "$DATA/rtlfixer/verilogeval-syntax.jsonl" "$T/agree.jsonl" <<'PY'
import json, sys
row = json.loads(open(sys.argv[1]).readline().replace("NaN", "null"))
row["solution"] = row["canonical_solution"]
row["task_id"] = row["task_id"] + "_disagree_with_a_long_task_name"
open(sys.argv[2], "w").write(json.dumps(row) + "\n")
PY
"$ASSAY" --db "$DB" import --format rtlfixer "$T/agree.jsonl" >/dev/null ||
    fail "import the disagreeing row"
# on a terminal, list cuts a long task to its column (it pushed every
# later column right); into a pipe the task stays whole, for scripts
$TM new-session -d -s lst -x 160 -y 6 "'$ASSAY' --db '$DB' list --where task~disagree; sleep 30"
sleep 1
lst=$($TM capture-pane -p -t lst)
$TM kill-session -t lst
# (awk counts bytes: the ellipsis counted as the one column it takes)
echo "$lst" | sed 's/…/./' |
    awk 'NR == 1 { c = index($0, "ORIGIN") } NR == 2 { exit substr($0, c - 1, 2) !~ /^ [a-z]/ }' ||
    fail "list on a terminal: the task runs into ORIGIN: $lst"
echo "$lst" | grep -q "rtlfixer/2012_q2b_disagree_with_a_long_… " ||
    fail "list on a terminal: no cut task: $lst"
"$ASSAY" --db "$DB" list --where task~disagree | grep -q "rtlfixer/2012_q2b_disagree_with_a_long_task_name " ||
    fail "list into a pipe cut the task"
ok "list cuts a long task on a terminal, not into a pipe"
# an origin of accented letters is cut between characters, not inside
# one, and padded to its column in characters (it was cut and padded
# by bytes: invalid UTF-8, and the next columns moved left)
printf '%s\n' '{"task": {"id": "t/u8", "domain": "chip", "env": "iverilog", "spec": "x", "files": {}}, "candidate": {"id": "c-u8", "origin": "modèle-éééééééééééééééééééééééé", "code": "module x; endmodule"}}' \
    >"$T/u8.jsonl"
"$ASSAY" --db "$DB" import "$T/u8.jsonl" >/dev/null || fail "import u8"
"$ASSAY" --db "$DB" list --where task=t/u8 | python3 -c '
import sys
lines = sys.stdin.buffer.read().decode("utf-8").splitlines()  # valid UTF-8
c = lines[0].index("VERDICT")
assert lines[1][c - 1:c + 1] == " -", lines
assert "modèle-" + "é" * 19 + " " in lines[1], lines
' || fail "list cuts or pads an accented origin by bytes"
$TM new-session -d -s lu8 -x 160 -y 6 "'$ASSAY' --db '$DB' list --where task=t/u8; sleep 30"
sleep 1
$TM capture-pane -p -t lu8 | grep -q "modèle-éééééééééééééééééé… -" ||
    fail "list on a terminal: $($TM capture-pane -p -t lu8)"
$TM kill-session -t lu8
ok "list cuts and pads an accented origin by characters"

# stats --generation in csv and md
"$ASSAY" --db "$DB" generate --where "id=$A" --no-verify --model m1 \
    --command 'printf "module top_module(); endmodule\n"' >/dev/null ||
    fail "generate"
"$ASSAY" --db "$DB" stats --generation --format csv >"$T/csv"
head -n 1 "$T/csv" | grep -q "^model,generated,passed,pass@1" ||
    fail "csv: $(head -n 1 "$T/csv")"
grep -q "^m1,1,0," "$T/csv" || fail "csv row: $(cat "$T/csv")"
"$ASSAY" --db "$DB" stats --generation --format md >"$T/md"
head -n 2 "$T/md" | tail -n 1 | grep -q "^|---|---:|" || fail "md: $(cat "$T/md")"
grep -q "^| m1 | 1 | 0 |" "$T/md" || fail "md row: $(cat "$T/md")"
ok "stats --generation --format csv and md"

# the spec pane: assay's evidence on a line of its own; the recorded line
# shows the dataset's log only where it disagrees (it stood where the
# evidence belongs)
if command -v iverilog >/dev/null 2>&1; then
	"$ASSAY" --db "$DB" verify --quiet "$A" >/dev/null 2>&1
	start 120 40 "--where id=$A"
	wait_for "run #"
	pane spec | grep -q -E "^evidence +candidate\.sv:[0-9]+: " ||
	    fail "no evidence line of assay's: $(pane spec)"
	pane spec | grep -q -E "^recorded +fail \(compile\) *$" ||
	    fail "the recorded line holds the dataset's log: $(pane spec)"
	ok "assay's evidence has its own line; the recorded one agrees, short"
	quit_all
	# the disagreement (the row imported above): the recorded log is
	# named as such and follows assay's verdict, never as its evidence
	D=$("$ASSAY" --db "$DB" list --json --where "source~agree.jsonl" |
	    json_field id)
	"$ASSAY" --db "$DB" verify --quiet "$D" >/dev/null 2>&1
	start 120 40 "--where id=$D"
	wait_for "run #"
	# (the pane wraps the line: read it as one)
	pane spec | sed -n '/^recorded/,/^[a-z]/p' | tr -s ' \n' '  ' |
	    grep -q -E "^recorded ≠ fail \(compile\) · assay says pass( at [a-z]+)? · the recorded log: 2012_q2b\.sv:[0-9]+: error" ||
	    fail "the disagreement's recorded line: $(pane spec)"
	ok "a disagreement: assay's verdict, then the recorded log, named"
	quit_all
fi
