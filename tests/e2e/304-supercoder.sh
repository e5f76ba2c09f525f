# 304: SuperCoder's rows (issue 27 item 4, ADR 0046): x86-asm in program
# mode, the input assembly (gcc -O3) the parent candidate, the answer an
# optimization of it.  The rows are written from the format
# (tests/data/supercoder/README.md).
#
# Golden verdicts, by hand: each .s linked with `gcc -no-pie -o p X.s -lm`
# and run on each case's input (printf '10\n' | ./p): the input and the
# closed form print 55, 0 and 5000050000; the loop that stops one short
# prints 45 (case 1); the candidate that loads from address 0 dies of
# SIGSEGV (status 139); `movq %rax, $1` does not assemble ("operand type
# mismatch", line 4).  An answer that is the input up to whitespace is
# correct but no speedup: SuperCoder counts it 1x (its
# identical_to_unoptimized), here performance/copied-input; the input
# itself (gcc-O3, the answer's parent) is judged on its own and passes.
# Program mode measures no speed, so the answer's gain does not count,
# and optimize says so.
. "$(dirname "$0")/lib.sh"
[ "$(uname -m)" = x86_64 ] || skip "not an x86-64 host"
command -v gcc >/dev/null || skip "gcc not installed"
D=$(dirname "$0")/../data/supercoder

# The rows' golden outputs are what their C sources (sum.c, add.c, kept
# beside the rows) print: each built with gcc and run on each case's
# input, and each row's prompt quotes its source whole.
for c in sum add; do
	gcc -O2 -o "$T/$c" "$D/$c.c" || fail "$c.c does not build"
done
python3 - "$D" "$T" <<'PY' || fail "the rows do not match their C sources"
import json, subprocess, sys
d, t = sys.argv[1], sys.argv[2]
srcs = {"sum_1_to_n": "sum", "add_two": "add"}
for line in open(d + "/supercoder_val.jsonl"):
    row = json.loads(line)
    x = row["extra_info"]
    name = srcs[x["problem_id"]]
    src = open("%s/%s.c" % (d, name)).read()
    assert src in x["question"], "%s.c is not the row's C code" % name
    assert len(x["inputs"]) == len(x["outputs"]) > 0
    for i, o in zip(x["inputs"], x["outputs"]):
        got = subprocess.run([t + "/" + name], input=i, capture_output=True,
                             text=True, check=True).stdout
        assert got == o, "%s on %r printed %r, the row says %r" % (name, i, got, o)
PY
echo "ok: the rows' outputs are what sum.c and add.c print"
"$ASSAY" --db "$DB" import "$D/supercoder_val.jsonl" > "$T/imp" 2>&1 || fail "import: $(cat "$T/imp")"
grep -q "2 new tasks, 3 new candidates" "$T/imp" || fail "auto-detected rows: $(cat "$T/imp")"
printf '{"extra_info": {"unoptimized_assembly": "x", "inputs": ["1"], "outputs": []}}\n' > "$T/bad.jsonl"
"$ASSAY" --db "$DB" import --format supercoder "$T/bad.jsonl" > "$T/err" 2>&1 && fail "a row with unpaired cases was taken"
grep -q 'bad.jsonl:1: extra_info.inputs and extra_info.outputs' "$T/err" || fail "error: $(cat "$T/err")"
"$ASSAY" --db "$DB" export --format raw --where "task=supercoder/sum_1_to_n origin=gcc-O3" > "$T/x.jsonl"
grep -q '"env_params":{"mode":"program"}' "$T/x.jsonl" || fail "program mode"
grep -q '"case3.out","role":"data","text":"5000050000\\n"' "$T/x.jsonl" || fail "test cases"
input=$("$ASSAY" --db "$DB" list --where 'task=supercoder/sum_1_to_n origin=gcc-O3' | awk 'NR==2 {print $1}')
"$ASSAY" --db "$DB" list --json --where 'origin=reference' | grep -q "\"kind\":\"optimization\",\"lang\":\"asm\",\"parent\":\"$input\"" ||
    fail "the answer is no optimization of the input"
expect_eq "add_two's answer is its input: no reference" "$(count 'task=supercoder/add_two origin=reference')" 0
"$ASSAY" --db "$DB" import "$(dirname "$0")/supercoder/candidates.jsonl" > /dev/null || fail "candidates"

"$ASSAY" --db "$DB" verify --quiet > /dev/null
v() { "$ASSAY" --db "$DB" list --json --where "$1" | grep -o "\"$2\":\"[a-z-]*\"" | head -n 1; }
expect_eq "closed form" "$(v 'origin=reference' verdict)" '"verdict":"pass"'
"$ASSAY" --db "$DB" list --json --where origin=reference | grep -q '"metrics":{"cases":3,"passed":3}' || fail "3 of 3"
expect_eq "the input itself" "$(v "task=supercoder/sum_1_to_n origin=gcc-O3" verdict)" '"verdict":"pass"'
expect_eq "add_two's input" "$(v "task=supercoder/add_two origin=gcc-O3" verdict)" '"verdict":"pass"'
"$ASSAY" --db "$DB" optimize --remeasure --where 'benchmark=supercoder origin=reference' > "$T/opt" 2>&1
grep -q ": does not count: speed is not measured in program mode" "$T/opt" || fail "optimize: $(cat "$T/opt")"
expect_eq "whitespace changed" "$(v 'origin=copied' subcategory)" '"subcategory":"copied-input"'
expect_eq "its category" "$(v 'origin=copied' category)" '"category":"performance"'
expect_eq "off by one" "$(v 'origin=off-by-one' subcategory)" '"subcategory":"mismatch"'
id=$("$ASSAY" --db "$DB" list --where origin=off-by-one | awk 'NR==2 {print $1}')
"$ASSAY" --db "$DB" show "$id" --json | grep -q 'case 1: stdout differs at line 1: got \\"45\\", want \\"55\\"' || fail "off-by-one's evidence"
expect_eq "null load" "$(v 'origin=crashes' subcategory)" '"subcategory":"crash"'
expect_eq "bad syntax" "$(v 'origin=bad-syntax' subcategory)" '"subcategory":"assembler-error"'
