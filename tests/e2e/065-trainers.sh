# 065: training data that real trainers read right (issue 25 items 1-4),
# checked with the trainers' own libraries from the project venv
# (datasets, huggingface_hub, transformers, tokenizers, trl;
# tests/e2e/trainers/check.py).  Ten inverter tasks under a benchmark
# named verilog-eval-v1 (a name the hub's split patterns read as test),
# their direct answers copied to 9,990 rows, then a repair chain (a
# syntax error, a wrong polarity, the fix) verified by Icarus Verilog:
# - the plain sft file (direct rows first in the store) loads in
#   datasets without options, every row with the same keys;
# - the folder export loads by its card into train and test, with the
#   failing rows in config failing only; so does the committed repo;
# - for each --for target, only the final code's tokens carry loss.
. "$(dirname "$0")/lib.sh"
command -v iverilog >/dev/null || skip "iverilog not installed"
command -v git >/dev/null || skip "git not installed"
export HOME=$T GIT_CONFIG_NOSYSTEM=1
PY=${ASSAY_VENV:-$(dirname "$ASSAY")/venv}/bin/python3
CHECK=$(cd "$(dirname "$0")/trainers" && pwd)/check.py
"$PY" -c 'import datasets, huggingface_hub, transformers, tokenizers, trl' 2>/dev/null ||
    fail "the project venv ($PY) lacks datasets, transformers or trl: make deps"

python3 - "$T" <<'PY' || fail "write rows"
import json, sys
t = sys.argv[1]
tb = """module tb;
  reg in; wire out; integer errors = 0;
  top_module dut(.in(in), .out(out));
  initial begin
    in = 0; #1 if (out !== 1) errors = errors + 1;
    in = 1; #1 if (out !== 0) errors = errors + 1;
    if (errors == 0) $display("Your Design Passed");
    else $display("Test completed with %0d failures", errors);
    $finish;
  end
endmodule
"""
# a long spec, so that 10,000 rows span several of datasets' chunks
spec = "Build an inverter: out is the negation of in. " + " ".join(
    "Note %d: the output follows the input at once." % i for i in range(25))
good = "module top_module(input in, output out);\n  assign out = ~in;\nendmodule\n"
with open(t + "/rows.jsonl", "w") as f:
    for i in range(10):
        f.write(json.dumps({"task": {"id": "verilog-eval-v1/inv%d" % i, "domain": "chip",
            "benchmark": "verilog-eval-v1", "env": "iverilog",
            "env_params": {"top": "tb", "timeout_s": 30}, "spec": spec,
            "interface": "module top_module(input in, output out);",
            "files": {"tb.sv": tb}},
            "candidate": {"id": "d%d" % i, "origin": "gpt-4", "code": good}}) + "\n")
f1 = "module top_module(input in, output out)\n  assign out = ~in;\nendmodule\n"
f2 = "module top_module(input in, output out);\n  assign out = in;\nendmodule\n"
ok = "module top_module(input in, output out);\n  assign out = !in;\nendmodule\n"
open(t + "/f1.v", "w").write(f1)
open(t + "/f2.v", "w").write(f2)
task = "verilog-eval-v1/inv0"
with open(t + "/chain.jsonl", "w") as f:
    f.write(json.dumps({"task": task, "candidate": {"id": "r-f1", "origin": "gpt-4", "code": f1},
        "labels": [{"category": "compile", "subcategory": "syntax-error", "by": "ann",
                    "note": "no semicolon"}]}) + "\n")
    f.write(json.dumps({"task": task, "candidate": {"id": "r-f2", "origin": "ann", "kind": "repair",
        "parent": "r-f1", "code": f2}, "labels": [{"category": "functional", "by": "ann"}],
        "review": {"status": "accepted", "by": "ann"}}) + "\n")
    f.write(json.dumps({"task": task, "candidate": {"id": "r-ok", "origin": "ann", "kind": "repair",
        "parent": "r-f2", "code": ok}, "review": {"status": "accepted", "by": "ann"}}) + "\n")
PY
"$ASSAY" --db "$DB" import --license MIT "$T/rows.jsonl" >/dev/null || fail import
"$ASSAY" --db "$DB" verify --quiet --jobs 2 >/dev/null || fail verify
"$ASSAY" --db "$DB" --bench-fill 9990 >/dev/null || fail "bench-fill"
# the repair chain comes after every direct row, as repairs do
"$ASSAY" --db "$DB" import "$T/chain.jsonl" >/dev/null || fail "import chain"
"$ASSAY" --db "$DB" verify --quiet r-f1 r-f2 r-ok >/dev/null
expect_eq "chain verdicts" "$(for id in r-f1 r-f2 r-ok; do
	"$ASSAY" --db "$DB" list --json --where "id=$id" | grep -o '"verdict":"[a-z]*"'
done | tr '\n' ' ')" '"verdict":"fail" "verdict":"fail" "verdict":"pass" '

# 1. A 10,000-row mixed export loads without options.
"$ASSAY" --db "$DB" export --where 'status!=rejected' --split train=0.7,test=0.3 \
    -o "$T/big.jsonl" >/dev/null 2>"$T/big.err" || fail "export: $(cat "$T/big.err")"
expect_eq "rows" "$(wc -l <"$T/big.jsonl" | tr -d ' ')" 9991
"$PY" "$CHECK" big "$T/big.jsonl" || fail "the plain file"

# 2, 3. The folder and its card; failing rows apart.
"$ASSAY" --db "$DB" export --where 'status!=rejected' --include-failing \
    -o "$T/sft/" >"$T/dir.out" 2>&1 || fail "export -o DIR/: $(cat "$T/dir.out")"
grep -q "and 2 failing lines to $T/sft/failing/" "$T/dir.out" || fail "$(cat "$T/dir.out")"
"$PY" "$CHECK" folder "$T/sft" r-f1 r-f2 || fail "the folder"
# --include-failing never mixes into a stream, and a file's go beside it
"$ASSAY" --db "$DB" export --include-failing >/dev/null 2>"$T/err"
expect_eq "--include-failing to stdout" $? 2
grep -q "a file of their own" "$T/err" || fail "$(cat "$T/err")"
"$ASSAY" --db "$DB" export --where 'status!=rejected kind=repair' --include-failing \
    -o "$T/rep.jsonl" >/dev/null || fail "export -o FILE --include-failing"
expect_eq "learnt repair rows" "$(wc -l <"$T/rep.jsonl" | tr -d ' ')" 1
expect_eq "failing repair rows" "$(wc -l <"$T/rep.failing.jsonl" | tr -d ' ')" 1
grep -q '"candidate":"r-f2"' "$T/rep.failing.jsonl" || fail "r-f2 not apart"

# The committed repository: accept the ten direct answers (the copies
# are not accepted), the fix, and the failed repair r-f2 (already).
for i in 0 1 2 3 4 5 6 7 8 9; do
	"$ASSAY" --db "$DB" review "d$i" accept >/dev/null || fail "accept d$i"
done
"$ASSAY" --db "$DB" commit --repo "$T/verilog-eval-v1" >/dev/null || fail commit
[ -e "$T/verilog-eval-v1/samples.jsonl" ] && fail "samples.jsonl, failing rows included, is still written"
"$PY" "$CHECK" commit "$T/verilog-eval-v1" r-f2 || fail "the committed repo"

# 4. Each trainer learns only the final code.
targets="assay openai trl llamafactory incoder"
for target in $targets; do
	"$ASSAY" --db "$DB" export --for "$target" --where id=r-ok -o "$T/for-$target/" \
	    >"$T/out-$target" || fail "export --for $target"
done
# what the folder holds, as it says (it named README.md and data/ only)
for f in README.md data dataset_info.json llamafactory_args.yaml; do
	[ -e "$T/for-llamafactory/$f" ] || fail "no $f for llamafactory"
	grep -q "$f" "$T/out-llamafactory" ||
	    fail "the message does not name $f: $(cat "$T/out-llamafactory")"
done
"$PY" "$CHECK" loss "$(echo $targets | tr ' ' ,)" "$T/for-" "$T/f1.v" "$T/f2.v" ||
    fail "--for"
"$ASSAY" --db "$DB" export --for llamafactory --where id=r-ok -o "$T/lf.jsonl" \
    >/dev/null 2>&1
expect_eq "--for llamafactory wants a folder" $? 2
"$ASSAY" --db "$DB" export --format raw --for trl >/dev/null 2>&1
expect_eq "--for with raw" $? 2
echo "065: ok"
