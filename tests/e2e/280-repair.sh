# 280: assay repair ID --file FILE and assay note ID TEXT (issue 9 item 2),
# the decision layer made headless: a person's repair made
# through it is the same as the workbench's e: the
# reviewer is its origin and the journal's who; undo takes back decisions,
# not the repair; stdin works; the failed code handed back is refused as
# the model's repair loop refuses it; a bad id or file is a clear error.
. "$(dirname "$0")/lib.sh"

cat >"$T/in.jsonl" <<'JSONL'
{"task":{"id":"local/r1","env":"iverilog","spec":"a wire","files":{"tb.sv":"module tb; endmodule\n"}},"candidate":{"id":"r-1","origin":"gpt-x","code":"module top_module(output y); assign y = 1 endmodule\n"}}
{"task":"local/r1","candidate":{"id":"r-2","origin":"gpt-x","code":"module top_module(output y); assign y = 2 endmodule\n"}}
JSONL
"$ASSAY" --db "$DB" import "$T/in.jsonl" >/dev/null || fail import
printf 'module top_module(output y); assign y = 1; endmodule\n' >"$T/fix.v"

# repair, then undo: the label before it is taken back, the repair stays
"$ASSAY" --db "$DB" label r-1 compile >/dev/null || fail label
"$ASSAY" --db "$DB" repair r-1 --file "$T/fix.v" >"$T/out" 2>"$T/err" ||
    fail "repair: $(cat "$T/err")"
rep=$(awk '{print $1}' "$T/out")
expect_eq "repair says" "$(cat "$T/out")" "$rep new repair of r-1 by tester"
"$ASSAY" --db "$DB" show "$rep" --json >"$T/show" || fail "show $rep"
grep -q '"origin":"tester"' "$T/show" || fail "origin: $(cat "$T/show")"
grep -q '"kind":"repair"' "$T/show" || fail "kind: $(cat "$T/show")"
grep -q '"parent":"r-1"' "$T/show" || fail "parent: $(cat "$T/show")"
grep -q '"who":"tester","action":"repair"' "$T/show" ||
    fail "the repair is not journalled as the reviewer's: $(cat "$T/show")"
expect_eq "undo" "$("$ASSAY" --db "$DB" undo)" "undid label compile of r-1"
expect_eq "the repair stays" "$(count "parent=r-1")" 1
expect_eq "nothing more" "$("$ASSAY" --db "$DB" undo)" "nothing to undo by tester"

# a free note, headless: journalled, shown, never undone
expect_eq "note" "$("$ASSAY" --db "$DB" note r-1 width is off by one)" \
    "r-1 noted by tester"
"$ASSAY" --db "$DB" show r-1 | grep -q "width is off by one" ||
    fail "the note is not shown"
expect_eq "a note is not undone" "$("$ASSAY" --db "$DB" undo)" \
    "nothing to undo by tester"
"$ASSAY" --db "$DB" note r-1 >/dev/null 2>&1
expect_eq "note without text exit" $? 2

# the same code again is the same candidate: nothing new
expect_eq "again" "$("$ASSAY" --db "$DB" repair r-1 --file "$T/fix.v")" \
    "$rep already there: repair of r-1 by tester"
expect_eq "still one repair" "$(count "parent=r-1")" 1

# from stdin, by another reviewer; a repair of r-2 that is r-1's repair's
# code is that candidate, recorded as r-2's repair too
printf 'module top_module(output y); assign y = 2; endmodule\n' |
    "$ASSAY" --db "$DB" --reviewer ann repair r-2 --file - >"$T/out2" ||
    fail "repair from stdin"
rep2=$(awk '{print $1}' "$T/out2")
"$ASSAY" --db "$DB" show "$rep2" --json | grep -q '"origin":"ann"' ||
    fail "stdin repair's origin"
"$ASSAY" --db "$DB" show "$rep2" | grep -q 'assign y = 2;' ||
    fail "stdin repair's code"
"$ASSAY" --db "$DB" repair r-2 --file "$T/fix.v" >/dev/null ||
    fail "repair into existing code"
"$ASSAY" --db "$DB" show "$rep" | grep -q "also a repair of r-2" ||
    fail "no note that $rep repairs r-2 too"

# the failed code handed back is refused, and nothing is stored
"$ASSAY" --db "$DB" show r-1 --json |
    python3 -c 'import json,sys; sys.stdout.write(json.load(sys.stdin)["code"])' \
    >"$T/same.v" || fail "code of r-1"
"$ASSAY" --db "$DB" repair r-1 --file "$T/same.v" >"$T/out" 2>"$T/err"
expect_eq "identical exit" $? 2
grep -q "same.v: this is the code of r-1 itself: nothing stored" "$T/err" ||
    fail "identical: $(cat "$T/err")"
expect_eq "nothing stored" "$(count "parent=r-1")" 1

# a bad id, a missing file
"$ASSAY" --db "$DB" repair nosuch --file "$T/fix.v" >"$T/out" 2>"$T/err"
expect_eq "bad id exit" $? 2
grep -q "nosuch" "$T/err" || fail "bad id: $(cat "$T/err")"
[ -s "$T/out" ] && fail "bad id printed: $(cat "$T/out")"
"$ASSAY" --db "$DB" repair r-1 --file "$T/none.v" >"$T/out" 2>"$T/err"
expect_eq "missing file exit" $? 2
grep -q "none.v" "$T/err" || fail "missing file: $(cat "$T/err")"
echo "280-repair: ok"
