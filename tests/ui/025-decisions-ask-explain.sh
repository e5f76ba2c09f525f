# 025-decisions-ask-explain.sh - issue 12, "decisions ask or explain":
# a failure label on a passing candidate asks; a bulk accept of
# candidates that do not pass asks with their count; :unmark says what
# it did; an unterminated quote in :filter is an error with its column;
# an edit that reproduces the code of an existing candidate says so and
# records the repair; TERM=dumb is refused with a message.
. "$(dirname "$0")/lib.sh"
command -v iverilog >/dev/null 2>&1 || skip "iverilog is not installed"

"$ASSAY" --db "$DB" import "$DATA/rtlfixer/verilogeval-syntax.jsonl" \
    >/dev/null || fail "import rtlfixer"
IDS=$("$ASSAY" --db "$DB" list --json | head -n 12 | json_field id)
# shellcheck disable=SC2086
"$ASSAY" --db "$DB" verify --jobs 2 --quiet $IDS >/dev/null 2>&1
P=$("$ASSAY" --db "$DB" list --json --where verdict=pass | head -n 1 |
    json_field id)
[ -n "$P" ] || fail "need a passing candidate"
cat_of() { row "$1" | json_field category; }

# an unusable terminal is refused before anything is drawn
TERM=dumb "$ASSAY" --db "$DB" </dev/null >"$T/out" 2>"$T/err"
rc=$?
[ $rc -ne 0 ] || fail "TERM=dumb: exit 0"
grep -q "terminal 'dumb' cannot show the workbench" "$T/err" ||
    fail "TERM=dumb: no message: $(cat "$T/err")"
TERM=no-such-terminal "$ASSAY" --db "$DB" </dev/null >"$T/out" 2>"$T/err" &&
    fail "an unknown TERM: exit 0"
grep -q "unknown terminal type 'no-such-terminal'" "$T/err" ||
    fail "unknown TERM: no message: $(cat "$T/err")"
ok "TERM=dumb and an unknown TERM are refused with a message"

cat >"$T/ed" <<'ED'
#!/bin/sh
while read -r tag; do printf '\n// %s\n' "$tag" >>"$1"; done <"$(dirname "$0")/tag"
ED
chmod +x "$T/ed"
export EDITOR="$T/ed"

start 120 40 "--where verdict=pass"
wait_for " 1/"
wait_for "candidate $(echo "$P" | cut -c1-8)"
keys 1
wait_for "label $P compile although it passes? y/n"
keys n
wait_for "cancelled"
[ "$(cat_of "$P")" != compile ] || fail "labelled after n"
keys 1
wait_for "although it passes? y/n"
keys y
wait_for "$P labelled compile by tester"
[ "$(cat_of "$P")" = compile ] || fail "not labelled after y"
ok "a failure label on a passing candidate asks first"

command_line "filter verdict=fail"
wait_for "verdict=fail"
keys Space Space Space
wait_for "3 marked"
command_line "review accept"
wait_for "review 3 marked candidates accept although 3 of them do not pass? y/n"
keys n
wait_for "cancelled"
ok "a bulk accept of failing candidates asks with the count"

command_line "unmark"
wait_for "unmarked 3 candidates"
command_line "unmark"
wait_for "no candidate was marked"
ok ":unmark says what it did"

command_line 'filter grep="always @'
wait_for 'unterminated quote at column 6'
screen | tail -n 1 | grep -q -F "verdict=fail" ||
    fail "a bad filter changed the filter"
ok "an unterminated quote is an error with its column"

# edits: A -> R1 (one), R1 -> R2 (one two), then A edited into R2's code
command_line "filter"
wait_for " 1/174 "
A=$("$ASSAY" --db "$DB" list --json | head -n 1 | json_field id)
echo one >"$T/tag"
keys e
R1=$(repair_of "$A") || fail "no repair of $A"
wait_for "$R1: fail" 30
echo two >"$T/tag"
keys e
R2=$(repair_of "$R1") || fail "no repair of $R1"
wait_for "$R2: fail" 30
command_line "goto $A"
wait_for "candidate $(echo "$A" | cut -c1-8)"
printf 'one\ntwo\n' >"$T/tag"
keys e
wait_for "the edit reproduces $R2 (tester, a repair of $R1), recorded as a repair of $A" 30
"$ASSAY" --db "$DB" show "$R2" | grep -q "also a repair of $A" ||
    fail "no note on $R2"
[ "$("$ASSAY" --db "$DB" list --json --where "parent=$A" | wc -l)" -eq 1 ] ||
    fail "a second repair of $A was stored"
ok "an edit into existing code says so and records the repair"

# B, another candidate of A's task, edited into R1's code: R1 is in
# B's trace and diff, though its parent is A (B's trace said "no repair
# yet", its diff "nothing to compare")
TASK=$("$ASSAY" --db "$DB" list --json --where "id=$A" | json_field task)
B=$("$ASSAY" --db "$DB" list --json --where "task=$TASK kind!=repair" |
    json_field id | grep -v -x "$A" | head -n 1)
if [ -n "$B" ] && command -v python3 >/dev/null 2>&1; then
	"$ASSAY" --db "$DB" show --json "$R1" | python3 -c \
	    'import json, sys; sys.stdout.write(json.load(sys.stdin)["code"])' \
	    >"$T/r1code" || fail "the code of $R1"
	printf '#!/bin/sh\ncp "%s" "$1"\n' "$T/r1code" >"$T/ed-r1"
	chmod +x "$T/ed-r1"
	command_line q
	wait_for "ASSAY-EXIT 0"
	EDITOR="$T/ed-r1"
	start 120 40 "--where id=$B"
	wait_for " 1/1 "
	keys e
	wait_for "the edit reproduces $R1" 30
	command_line "goto $B"	# e shows the repair it made: back to B
	wait_for "candidate $(echo "$B" | cut -c1-8)"
	keys Tab Tab Tab Tab z
	wait_for "trace (zoomed)"
	screen | grep -F "$(echo "$R1" | cut -c1-8)" | grep -q "(the same code as a repair of $(echo "$A" | cut -c1-8))" ||
	    fail "$B's trace lacks $R1: $(screen)"
	screen | grep -q "no repair yet" && fail "$B's trace says no repair yet"
	keys Escape d
	wait_for "repair $R1"
	ok "a reproduced repair shows in the trace and the diff of the one it repaired"
	keys q
fi
command_line q
wait_for "ASSAY-EXIT 0"
