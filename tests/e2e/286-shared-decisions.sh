# 286: label, review and note are one command each for both front ends
# (src/app/cmd_*.c, issue 9 "one command layer"): on the command line
# their target is an ID or --where FILTER (every candidate it matches,
# one journal batch that one undo takes back); where the workbench asks
# (a failure label on a passing candidate, an accept of one that does not
# pass), the command line says so on stderr and goes on.
. "$(dirname "$0")/lib.sh"
need_data
command -v iverilog >/dev/null || skip "iverilog not installed"
"$ASSAY" --db "$DB" import "$DATA/verilog-eval-v2" >/dev/null ||
    fail "import verilog-eval-v2"
"$ASSAY" --db "$DB" import "$DATA/rtlfixer/verilogeval-syntax.jsonl" \
    >/dev/null || fail "import rtlfixer"
export ASSAY_REVIEWER=ann
id_of() { "$ASSAY" --db "$DB" list --json --where "$1" | head -n 1 |
    sed -n 's/.*"id":"\([^"]*\)".*/\1/p'; }
REF=$(id_of "origin=reference task~Prob001_zero")
[ -n "$REF" ] || fail "no reference of Prob001_zero"
"$ASSAY" --db "$DB" verify --quiet "$REF" >/dev/null || fail "verify $REF"
expect_eq "the reference passes" "$("$ASSAY" --db "$DB" list --json \
    --where "id=$REF" | sed -n 's/.*"verdict":"\([a-z-]*\)".*/\1/p')" pass

# a failure label on a passing candidate: done, with a note on stderr
"$ASSAY" --db "$DB" label "$REF" compile >"$T/out" 2>"$T/err" ||
    fail "label: $(cat "$T/err")"
expect_eq "label said" "$(cat "$T/out")" "$REF labelled compile by ann"
grep -q "^assay label: note: label $REF compile although it passes: done anyway$" \
    "$T/err" || fail "no warning on stderr: $(cat "$T/err")"
expect_eq "labelled" "$(count "id=$REF category=compile")" 1

# an accept of candidates that never ran, by filter: one batch, a note
N=$(count "task~mux origin!=reference")
[ "$N" -gt 1 ] || fail "want several mux candidates, got $N"
"$ASSAY" --db "$DB" review --where "task~mux origin!=reference" accept \
    >"$T/out" 2>"$T/err" || fail "review --where: $(cat "$T/err")"
expect_eq "review --where said" "$(cat "$T/out")" \
    "review $N candidates: accept by ann (one undo takes all back)"
grep -q "although $N of them do not pass or never ran: done anyway" \
    "$T/err" || fail "no warning on stderr: $(cat "$T/err")"
expect_eq "accepted" "$(count "status=accepted")" "$N"
"$ASSAY" --db "$DB" undo >"$T/out" || fail undo
expect_eq "one undo" "$(cat "$T/out")" \
    "undid review accepted of $N candidates, first of $(id_of "task~mux origin!=reference")"
expect_eq "none accepted after undo" "$(count "status=accepted")" 0

# a note by filter, the words joined; -- before words that look like
# options
"$ASSAY" --db "$DB" note --where "task~mux" -- --width is off >"$T/out" ||
    fail "note --where"
expect_eq "noted" "$(count "grep=\"width is off\"")" "$(count "task~mux")"

# errors: a filter that matches nothing, a bad one, an ID and --where
# together, a bad category: exit 2, nothing decided
"$ASSAY" --db "$DB" label --where "task~nosuch" api 2>"$T/err"
expect_eq "no match: exit" $? 2
grep -q "task~nosuch matches no candidate" "$T/err" || fail "$(cat "$T/err")"
"$ASSAY" --db "$DB" label --where "nokey=1" api 2>"$T/err"
expect_eq "bad filter: exit" $? 2
"$ASSAY" --db "$DB" label "$REF" --where "task~mux" api 2>"$T/err"
expect_eq "an ID and --where: exit" $? 2
grep -q "unknown category '$REF'" "$T/err" || fail "$(cat "$T/err")"
"$ASSAY" --db "$DB" label "$REF" bogus 2>"$T/err"
expect_eq "bad category: exit" $? 2
expect_eq "no api label" "$(count "category=api")" 0

# help names the ID first on the command line
"$ASSAY" help review | head -n 1 | grep -q "^usage: assay review ID accept|reject|flag|reset" ||
    fail "help review: $("$ASSAY" help review | head -n 1)"

# an option given twice is refused, not the last one silently kept; a
# SUB word and --sub together too
"$ASSAY" --db "$DB" label --where "task~mux" --where "task~q2" format \
    2>"$T/err"
expect_eq "--where twice: exit" $? 2
grep -q -- "--where given twice" "$T/err" || fail "$(cat "$T/err")"
"$ASSAY" --db "$DB" label "$REF" compile a b --sub d 2>"$T/err"
expect_eq "SUB and --sub: exit" $? 2
expect_eq "no format label" "$(count "category=format")" 0

# an ID and --where together: the message says why
"$ASSAY" --db "$DB" review "$REF" --where "task~mux" accept 2>"$T/err"
grep -q "with --where no ID comes first" "$T/err" || fail "$(cat "$T/err")"
# a usage error shows ID in the usage, as help does
"$ASSAY" --db "$DB" label "$REF" 2>"$T/err"
grep -q "^usage: assay label ID CATEGORY" "$T/err" || fail "$(cat "$T/err")"

# text that would reach a terminal raw is refused: an escape in a
# subcategory, a control character or invalid UTF-8 in a note, a blank
# note; KEY~ with no text (it would match every candidate)
"$ASSAY" --db "$DB" label "$REF" compile --sub "$(printf 'x\033[2Jy')" \
    2>"$T/err"
expect_eq "escape in a sub: exit" $? 2
grep -q "subcategory" "$T/err" || fail "$(cat "$T/err")"
"$ASSAY" --db "$DB" note "$REF" "$(printf 'a\033]0;t\007b')" 2>"$T/err"
expect_eq "control character in a note: exit" $? 2
"$ASSAY" --db "$DB" note "$REF" "$(printf 'bad \377 utf8')" 2>"$T/err"
expect_eq "invalid UTF-8 in a note: exit" $? 2
"$ASSAY" --db "$DB" note "$REF" "   " 2>"$T/err"
expect_eq "blank note: exit" $? 2
"$ASSAY" --db "$DB" note "$REF" "$(printf 'two\nlines\tand a tab')" ||
    fail "a note with a newline and a tab"
"$ASSAY" --db "$DB" label --where "id~" api 2>"$T/err"
expect_eq "id~ with no text: exit" $? 2
grep -q "~ wants a text" "$T/err" || fail "$(cat "$T/err")"
expect_eq "no api label" "$(count "category=api")" 0

# notes are never undone, and a bulk note does not say otherwise
"$ASSAY" --db "$DB" note --where "task~mux" again >"$T/out" ||
    fail "note --where"
grep -q "undo" "$T/out" && fail "a bulk note promises an undo: $(cat "$T/out")"

# a step another reviewer undid counts as undone for its owner too: her
# undo goes on to her step before it instead of refusing for ever
A1=$(id_of "task~mux origin!=reference")
"$ASSAY" --db "$DB" label "$A1" api >/dev/null || fail "label $A1"
"$ASSAY" --db "$DB" label "$REF" format >/dev/null || fail "label $REF"
ASSAY_REVIEWER=bob "$ASSAY" --db "$DB" undo --any >"$T/out" ||
    fail "bob undo --any"
grep -q "of $REF" "$T/out" || fail "bob's undo: $(cat "$T/out")"
"$ASSAY" --db "$DB" undo >"$T/out" 2>"$T/err" ||
    fail "ann's undo after bob's: $(cat "$T/err")"
expect_eq "ann's undo" "$(cat "$T/out")" "undid label api of $A1"

# the final word on a disagreement is the same command with --final (the
# keys 1-5 of a disagree=yes queue run it; issue 24, ADR 0047): no vote,
# so no subcategory or note, and the candidate leaves the queue
D=$(id_of "task~mux origin!=reference")
ASSAY_REVIEWER=bob "$ASSAY" --db "$DB" label "$D" functional >/dev/null ||
    fail "bob's label of $D"
"$ASSAY" --db "$DB" label "$D" compile >/dev/null || fail "ann's of $D"
expect_eq "in disagreement" "$(count "id=$D disagree=yes")" 1
"$ASSAY" --db "$DB" label "$D" format --final --note why >"$T/out" \
    2>"$T/err" && fail "--final with a note was taken"
grep -q "a final label is no vote" "$T/err" || fail "why: $(cat "$T/err")"
ASSAY_REVIEWER=carol "$ASSAY" --db "$DB" label "$D" functional --final \
    >"$T/out" || fail "label --final"
expect_eq "final label said" "$(cat "$T/out")" \
    "$D labelled functional (final) by carol (no run yet)"
expect_eq "out of the disagreement queue" "$(count "id=$D disagree=yes")" 0

# one table: a workbench command is refused on the command line, saying
# where it runs
"$ASSAY" --db "$DB" zoom >"$T/out" 2>"$T/err" && fail "assay zoom ran"
expect_eq "assay zoom" "$(cat "$T/err")" \
    "assay: zoom runs only on the : line (:zoom) and from a key"
"$ASSAY" --db "$DB" generator model x 2>"$T/err" && fail "generator ran"
expect_eq "assay generator" "$(cat "$T/err")" \
    "assay: generator runs only in the config file"
