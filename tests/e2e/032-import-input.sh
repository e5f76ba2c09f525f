# 032: clear import errors, never raw SQL, and odd inputs (issue 10,
# items 10 and 11): explicit id clashes, the JSON error of a first line,
# a multi-file report, pipes, FIFOs and symlinks in a benchmark layout,
# duplicate keys.
. "$(dirname "$0")/lib.sh"

row() {	# row TASK CAND-ID CODE [PARENT]
	printf '{"task": {"id": "%s", "domain": "chip", "env": "iverilog"}, "candidate": {"id": "%s", "origin": "m", "code": "%s"%s}}\n' \
	    "$1" "$2" "$3" "${4:+, \"parent\": \"$4\"}"
}

# Two sources that both number from 0.
{ row src/a c-0 a0; row src/a c-1 a1 c-0; } > "$T/a.jsonl"
{ row src/b c-0 b0; row src/b c-1 b1 c-0; } > "$T/b.jsonl"
"$ASSAY" --db "$DB" import "$T/a.jsonl" >/dev/null || fail "first source"
"$ASSAY" --db "$DB" import "$T/b.jsonl" >/dev/null 2>"$T/err"
expect_eq "a clashing explicit id" $? 2
grep -q "b.jsonl:1: candidate id 'c-0' is already taken by another candidate (of task src/a); .*--id-prefix" "$T/err" ||
    fail "clash message: $(cat "$T/err")"
grep -qi "constraint" "$T/err" && fail "raw SQL: $(cat "$T/err")"
"$ASSAY" --db "$DB" import --id-prefix b- "$T/b.jsonl" >/dev/null || fail "--id-prefix"
"$ASSAY" --db "$DB" show --json b-c-1 | grep -q '"parent": *"b-c-0"' || fail "the prefixed parent"
expect_eq "both sources" "$(count '')" 4
"$ASSAY" --db "$DB" import --id-prefix '../' "$T/b.jsonl" >/dev/null 2>&1
expect_eq "a bad --id-prefix" $? 2

# A first line that is JSON jansson refuses gets the JSON error.
printf '{"task": {"id": "x"}, "n": 123456789012345678901234567890}\n' > "$T/big.jsonl"
"$ASSAY" --db "$DB" import "$T/big.jsonl" 2>"$T/err"
expect_eq "out of range exit" $? 2
grep -q "big.jsonl:1: invalid JSON: too big integer" "$T/err" || fail "out of range: $(cat "$T/err")"
printf '\n{"a": %s1%s}\n' "$(printf '[%.0s' $(seq 3000))" "$(printf ']%.0s' $(seq 3000))" > "$T/deep.jsonl"
"$ASSAY" --db "$DB" import "$T/deep.jsonl" 2>"$T/err"
expect_eq "too deep exit" $? 2
grep -q "deep.jsonl:2: invalid JSON: maximum parsing depth" "$T/err" || fail "too deep: $(cat "$T/err")"
printf 'not json\n' > "$T/text.jsonl"
"$ASSAY" --db "$DB" import "$T/text.jsonl" 2>"$T/err"
grep -q "text.jsonl:1: cannot tell the format" "$T/err" || fail "plain text: $(cat "$T/err")"

# A directory of no layout known lists the layouts auto tells apart;
# the help names every format, and task new's every kind of file.
mkdir "$T/nothing"
"$ASSAY" --db "$DB" import "$T/nothing" 2>"$T/err" && fail "an empty directory was taken"
grep -q "nothing: cannot tell the format of this directory from its layout (the layouts known: rtllm, realbench, kernelbench, tritonbench, archxbench, veriscope, verilog-eval-v1, verilog-eval-v2, dataset); give --format" "$T/err" ||
    fail "unknown directory: $(cat "$T/err")"
"$ASSAY" import --help > "$T/help" 2>&1
for f in assay verilog-eval-v2 verilog-eval-v1 rtlfixer kernelbench realbench rtllm \
    tritonbench archxbench veriscope text2cadquery supercoder dataset; do
	tr '\n' ' ' < "$T/help" | grep -q "[ ,(]$f[,;) ]" || fail "import --help does not name $f"
done
"$ASSAY" task --help 2>&1 | tr '\n' ' ' | grep -q "A CadQuery script (.py.*or a STEP file (.step, .stp) becomes a cad task" ||
    fail "task --help says nothing of CadQuery and STEP"
# A TritonBench checkout's root is taken for its data/ (no GPU needed
# to import)
"$ASSAY" --db "$T/tb.db" import "$(dirname "$0")/../data/tritonbench" > "$T/imp" 2>&1 ||
    fail "tritonbench checkout: $(cat "$T/imp")"
grep -q "3 new tasks, 1 new candidate" "$T/imp" || fail "tritonbench checkout: $(cat "$T/imp")"

# Duplicate keys and a non-numeric "at" are refused with FILE:LINE.
row src/d c-d dd | sed 's/"origin": "m"/"origin": "m", "origin": "evil"/' > "$T/dup.jsonl"
"$ASSAY" --db "$DB" import "$T/dup.jsonl" 2>"$T/err"
expect_eq "duplicate key exit" $? 2
grep -q "dup.jsonl:1: invalid JSON: duplicate object key" "$T/err" || fail "duplicate: $(cat "$T/err")"

# Several files: which went in, which failed, which were not tried.
row src/e c-e1 e1 > "$T/e1.jsonl"
row src/e c-e3 e3 > "$T/e3.jsonl"
"$ASSAY" --db "$DB" import "$T/e1.jsonl" "$T/dup.jsonl" "$T/e3.jsonl" "$T/big.jsonl" >/dev/null 2>"$T/err"
expect_eq "multi-file exit" $? 2
grep -q "^assay: imported: $T/e1.jsonl$" "$T/err" || fail "imported list: $(cat "$T/err")"
grep -q "^assay: failed: $T/dup.jsonl$" "$T/err" || fail "failed list: $(cat "$T/err")"
grep -q "^assay: not tried: $T/e3.jsonl $T/big.jsonl$" "$T/err" || fail "not tried: $(cat "$T/err")"

# Pipes: detection must not eat the rows.
row src/p c-p1 p1 | "$ASSAY" --db "$DB" import /dev/stdin >"$T/out" || fail "import /dev/stdin"
grep -q "1 new candidate" "$T/out" || fail "stdin imported nothing: $(cat "$T/out")"
mkfifo "$T/pipe"
row src/p c-p2 p2 > "$T/pipe" &
"$ASSAY" --db "$DB" import "$T/pipe" >"$T/out" || fail "import a FIFO named on the command line"
wait
grep -q "1 new candidate" "$T/out" || fail "FIFO imported nothing: $(cat "$T/out")"
expect_eq "rows from pipes" "$(count 'task~src/p')" 2

# A benchmark layout with a FIFO and a symlink to a host file: refused
# (FIFO) without hanging, and no host file becomes a spec.
need_data
mkdir "$T/v2"
cp "$DATA/verilog-eval-v2/Prob001_zero_"* "$T/v2/"
for f in "$DATA/verilog-eval-v2/Prob002_m2014_q4i_"*; do
	ln -s "$f" "$T/v2/"	# a symlink to a file elsewhere
done
timeout 20 "$ASSAY" --db "$T/v2.db" import "$T/v2" >/dev/null 2>"$T/err"
expect_eq "a symlink out of the layout" $? 2
grep -q "Prob002_m2014_q4i_.*resolves to .*outside $T/v2: refused" "$T/err" || fail "symlink: $(cat "$T/err")"
rm "$T/v2/Prob002_"*
mkfifo "$T/v2/Prob003_step_one_prompt.txt"
cp "$DATA/verilog-eval-v2/Prob003_step_one_test.sv" "$DATA/verilog-eval-v2/Prob003_step_one_ref.sv" "$T/v2/"
timeout 20 "$ASSAY" --db "$T/v2.db" import "$T/v2" >/dev/null 2>"$T/err"
rc=$?
[ $rc != 124 ] || fail "a FIFO hung the VerilogEval importer"
expect_eq "a FIFO in the layout" $rc 2
grep -q "Prob003_step_one_prompt.txt: not a regular file, refused" "$T/err" || fail "FIFO: $(cat "$T/err")"
expect_eq "nothing of the refused layout" "$("$ASSAY" --db "$T/v2.db" list --json 2>/dev/null | wc -l | tr -d ' ')" 0
rm "$T/v2/Prob003_"*
ln -s Prob001_zero_ref.sv "$T/v2/Prob004_alias_ref.sv"	# inside: fine
cp "$T/v2/Prob001_zero_test.sv" "$T/v2/Prob004_alias_test.sv"
cp "$T/v2/Prob001_zero_prompt.txt" "$T/v2/Prob004_alias_prompt.txt"
"$ASSAY" --db "$T/v2.db" import "$T/v2" >/dev/null 2>"$T/err" || fail "a symlink inside the layout: $(cat "$T/err")"
expect_eq "problems with a symlink inside the layout" "$("$ASSAY" --db "$T/v2.db" list --json | wc -l | tr -d ' ')" 2
echo "ok: import input classes"
