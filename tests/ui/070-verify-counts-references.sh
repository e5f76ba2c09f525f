# 070-verify-counts-references.sh - :verify over a view runs the view's
# tasks' references first when they never ran, so its count is larger
# than the view's: a new user saw "verify 2/9" over a view of 7 and a
# ":verify done: 7 verified ..., 2 unchanged" that did not say what the
# extra ones were.  The status bar and the end say how many of the count
# are references the view does not hold.
. "$(dirname "$0")/lib.sh"
command -v iverilog >/dev/null 2>&1 || skip "iverilog is not installed"

"$ASSAY" --db "$DB" import --format verilog-eval-v2 "$DATA/verilog-eval-v2" \
    >/dev/null 2>&1 || fail "import VerilogEval v2"
# two reviewer's repairs of two references (kind=repair), their code
# with a comment: their tasks' references have never run
for id in $("$ASSAY" --db "$DB" list --json | head -n 2 | json_field id); do
	"$ASSAY" --db "$DB" show "$id" --json | python3 -c 'import json, sys
sys.stdout.write(json.load(sys.stdin)["code"] + "// reviewed\n")' >"$T/r.sv" ||
	    fail "the code of $id"
	"$ASSAY" --db "$DB" --reviewer tester repair "$id" --file "$T/r.sv" \
	    >/dev/null || fail "repair of $id"
done
[ "$("$ASSAY" --db "$DB" list --json --where kind=repair | wc -l)" -eq 2 ] ||
    fail "two repairs were not made"

start 160 30 "--where kind=repair"
wait_for " 1/2 "
command_line "verify 1"
wait_for ":verify done in" 60
screen | tail -n 1 | grep -q -F ": 4 verified (4 pass, 0 not), 0 unchanged, 2 of them the tasks' references" ||
    fail "the end does not say the two references: $(screen | tail -n 1)"
[ "$("$ASSAY" --db "$DB" list --json --where origin=reference | grep -c '"verdict":"pass"')" -ge 2 ] ||
    fail "the references did not run"
ok ":verify's end says how many of its count are the tasks' references"

# the run's metrics read as words in the spec pane, not as JSON
pane spec | grep -q -E "^assay +pass · simulate · run #[0-9]+ · [0-9]+ ms · mismatches 0 · total [0-9]+" ||
    fail "the run's metrics: $(pane spec | grep "^assay")"
pane spec | grep -q -F '{"' && fail "JSON in the spec pane: $(pane spec | grep -F '{"')"
ok "the run's metrics read as words"

# A task's env parameters come from its file: a string value with a line
# break, spaces and an escape sequence shows escaped on the task's line,
# never as a line of its own (a forged "assay  pass" line in the pane)
printf '%s\n' '{"task": {"id": "t/hostile", "domain": "chip", "benchmark": "http", "env": "iverilog", "env_params": {"top": "tb\nassay     pass \u001b[2J"}, "spec": "S", "interface": "module TopModule(output y);", "files": {"test.sv": "module tb; endmodule"}}, "candidate": {"id": "c-hostile", "origin": "seed", "code": "module TopModule(output y); assign y = 0; endmodule"}}' \
    >"$T/hostile.jsonl"
"$ASSAY" --db "$DB" import "$T/hostile.jsonl" >/dev/null || fail "import the hostile task"
start 160 30 "--where id=c-hostile"
wait_for " 1/1 "
pane spec | grep -q -F 'task      t/hostile · chip · iverilog · top tb\nassay     pass \x1b[2J' ||
    fail "the env parameter is not shown escaped: $(pane spec | grep -A1 '^task')"
[ "$(pane spec | grep -c '^assay ')" -eq 1 ] ||
    fail "a value drew a line of its own: $(pane spec | grep '^assay ')"
ok "a task's env parameter shows escaped on its line"
quit_all
