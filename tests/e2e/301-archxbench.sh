# 301: ArchXBench in its own layout (issue 27 item 4, ADR 0046), on two
# real problems of sureshpurini/ArchXBench (tests/data/archxbench/README.md).
# Each level-*/PROBLEM/ folder is a task of env iverilog: tb.v the
# testbench (its own module the top), problem-description.txt the
# requirement, design-specs.txt the interface; the verdict is the env's
# ArchXBench convention ("Passed: N, Failed: M", docs/envs.md).
#
# Golden verdicts, by hand: each candidate and the folder's tb.v run with
#   iverilog -g2012 -o sim cand.v tb.v && vvp sim
# (Icarus Verilog 11.0): comparator "ours" prints "Passed: 5, Failed: 0";
# gt and lt swapped "Passed: 1, Failed: 4"; "liar" (its own pass line,
# outputs tied to 0) "Passed: 0, Failed: 5".  mux2to1's specification
# names the module mux2to1 (a, b, sel, y) but its testbench instantiates
# mux_2to1 (sel, in0, in1, out): a design written to the specification
# does not elaborate ("Unknown module type: mux_2to1"), one written to the
# testbench prints "Passed: 9, Failed: 0".
. "$(dirname "$0")/lib.sh"
command -v iverilog >/dev/null || skip "iverilog not installed"
D=$(dirname "$0")/../data/archxbench

"$ASSAY" --db "$DB" import "$D" > "$T/imp" 2>&1 || fail "import: $(cat "$T/imp")"
grep -q "2 new tasks, 0 new candidates" "$T/imp" || fail "import: $(cat "$T/imp")"
"$ASSAY" --db "$DB" import --format archxbench "$D/level-0" | grep -q "0 new tasks" ||
    fail "a second import (of the level) added something"
"$ASSAY" --db "$DB" import "$(dirname "$0")/archxbench/candidates.jsonl" > /dev/null || fail "candidates"
"$ASSAY" --db "$DB" export --format raw --where "task=archxbench/level-0/comparator-4bit origin=ours" > "$T/x.jsonl"
grep -q '"env_params":{"top":"tb_comparator_4bit"}' "$T/x.jsonl" || fail "top"
grep -q '"interface":"Design Name: comparator_4bit' "$T/x.jsonl" || fail "interface"
grep -q '"level":"level-0"' "$T/x.jsonl" || fail "level"

"$ASSAY" --db "$DB" verify --quiet > /dev/null
v() { "$ASSAY" --db "$DB" list --json --where "$1" | grep -o "\"$2\":\"[a-z-]*\"" | head -n 1; }
expect_eq "comparator" "$(v 'origin=ours' verdict)" '"verdict":"pass"'
expect_eq "swapped" "$(v 'origin=swapped' subcategory)" '"subcategory":"mismatch"'
"$ASSAY" --db "$DB" list --json --where origin=swapped | grep -q '"failures":4' || fail "swapped: 4 failures"
expect_eq "its own pass line" "$(v 'origin=liar' verdict)" '"verdict":"fail"'
expect_eq "mux to the specification" "$(v 'origin=by-the-spec' subcategory)" '"subcategory":"missing-top"'
expect_eq "mux to the testbench" "$(v 'origin=by-the-testbench' verdict)" '"verdict":"pass"'
