# 090: RealBench under Verilator (issue 3).  Import the RealBench copy in
# ../shared/data, verify the aes_sbox golden design and one failing sample
# (codev-qwen-7b's aes_sbox codeid 6, line 23 of its samples file) and
# check the verdicts and mismatch counts.
#
# Golden values were obtained by running the Verilator command by hand,
# outside assay, in a copy of aes/aes_sbox/verification/ with the design
# written as aes_sbox_top.sv (RealBench's Makefile needs Verilator 5.030):
#   verilator --binary --timing -Wno-fatal -Wno-DECLFILENAME --top-module tb \
#     -j 2 -Mdir obj -o ../run/Vtb aes_sbox_top.sv aes_sbox_testbench.sv \
#     aes_sbox_stimulus_gen.sv aes_sbox_ref.sv && (cd run && ./Vtb)
# Verilator 5.006 printed:
#   golden aes_sbox.v:   "Mismatches: 0 in 1535 samples"
#   codev-qwen-7b, codeid 6: "Hint: Output 'b' has 1529 mismatches. First
#     mismatch occurred at time 5." and "Mismatches: 1529 in 1535 samples"
#     (RealBench recorded the same 1529 under Verilator 5.030)
# and, in aes/aes_key_expand_128/verification (with its aes_rcon.v and
# aes_sbox.v) for codev-qwen-7b's codeid 16, which RealBench recorded as a
# pass (line 15 of its samples file):
#   "wo_0 has 176 mismatches. First at time 10" and "Hint: Total
#     mismatched samples is 176 out of 177 samples" (no "Mismatches:" line)
# and, in aes/aes_key_expand_128/verification with codev-qwen-7b's codeid 16
# (line 15, which RealBench recorded as a pass):
#   "wo_0 has 176 mismatches. First at time 10" and "Hint: Total
#     mismatched samples is 176 out of 177 samples" (no "Mismatches:" line)
. "$(dirname "$0")/lib.sh"
need_data
[ -d "$DATA/realbench" ] || skip "no RealBench at $DATA/realbench"
command -v verilator >/dev/null || skip "verilator not installed"
command -v g++ >/dev/null || skip "g++ not installed"
# json_field FIELD: the value of FIELD in one line of --json output
json_field() { sed -n "s/.*\"$1\":\(\"[^\"]*\"\|null\|[0-9]*\).*/\1/p" | tr -d '"'; }
row() { "$ASSAY" --db "$DB" list --json --where "id=$1"; }

"$ASSAY" --db "$DB" import --format realbench "$DATA/realbench" \
    2>"$T/import.err" || fail "import"
# Five module folders; aes_inv_cipher_top has samples but no folder here.
expect_eq "tasks" "$("$ASSAY" --db "$DB" list --where 'origin=reference' | awk 'NR>1 {print $2}' | sort | tr '\n' ' ')" \
    "realbench/aes_cipher_top realbench/aes_inv_sbox realbench/aes_key_expand_128 realbench/aes_rcon realbench/aes_sbox "
grep -q "aes_inv_cipher_top" "$T/import.err" ||
    fail "the rows of a module without a folder are not reported"
expect_eq "codev-qwen-7b's model name" \
    "$(count 'task=realbench/aes_sbox origin=codev-qwen-7b')" 2
# 12 rows: 2 for aes_inv_cipher_top, 2 the same code as another row.
expect_eq "a model name with dots" \
    "$(count 'origin=RTLCoder-Deepseek-v1.1')" 8
# Importing again adds nothing.
"$ASSAY" --db "$DB" import "$DATA/realbench/samples_subset/codev-qwen-7b.aes.subset.jsonl" \
    2>/dev/null | grep -q " 0 new candidates" || fail "re-import added candidates"

SAMPLE="task=realbench/aes_sbox source~codev-qwen-7b.aes.subset.jsonl:23"
expect_eq "the failing sample" "$(count "$SAMPLE")" 1
ID=$("$ASSAY" --db "$DB" list --json --where "$SAMPLE" | json_field id)
REF=$("$ASSAY" --db "$DB" list --json --where "task=realbench/aes_sbox origin=reference" | json_field id)
[ -n "$ID" ] && [ -n "$REF" ] || fail "no sample or no reference"
# Its recorded result came along.
"$ASSAY" --db "$DB" show "$ID" | grep -q -- "--- recorded: fail simulate ---" ||
    fail "the recorded verdict is missing"

# Only the sample: the task's reference runs first by itself.
"$ASSAY" --db "$DB" verify "$ID" || fail "verify"
expect_eq "golden verdict" "$(row "$REF" | json_field verdict)" pass
expect_eq "golden stage" "$(row "$REF" | json_field stage)" simulate
row "$REF" | grep -q '"metrics":{"mismatches":0,"total":1535,' ||
    fail "golden metrics: $(row "$REF")"
echo "ok: the golden design passes, 0 mismatches in 1535 samples"
expect_eq "sample verdict" "$(row "$ID" | json_field verdict)" fail
expect_eq "sample stage" "$(row "$ID" | json_field stage)" simulate
expect_eq "sample category" "$(row "$ID" | json_field category)" functional
expect_eq "sample subcategory" "$(row "$ID" | json_field subcategory)" mismatch
row "$ID" | grep -q '"metrics":{"mismatches":1529,"total":1535,' ||
    fail "sample metrics: $(row "$ID")"
echo "ok: the sample fails with 1529 mismatches in 1535 samples"
"$ASSAY" --db "$DB" show "$ID" | grep -q -F \
    "evidence: Hint: Output 'b' has 1529 mismatches. First mismatch occurred at time 5." ||
    fail "the evidence is not the testbench's hint line"
# The candidate ran as RealBench runs it: in place of aes_sbox_top.sv.
"$ASSAY" --db "$DB" show "$ID" | grep -q -- "-o ../run/T[0-9a-f]*/Vtb .* aes_sbox_top.sv" ||
    fail "the build does not compile the candidate as aes_sbox_top.sv"
echo "ok: the evidence and the command"
# Unchanged inputs: a second verify runs nothing.
"$ASSAY" --db "$DB" verify "$ID" | grep -q "verified 0, unchanged 2" ||
    fail "a second verify ran again"
echo "ok: unchanged inputs are not verified again"

# RealBench's false pass: its harness greps for "Hint: Output", which this
# testbench does not print; its result line is the total.
FALSE="task=realbench/aes_key_expand_128 source~codev-qwen-7b.aes.subset.jsonl:15"
KID=$("$ASSAY" --db "$DB" list --json --where "$FALSE" | json_field id)
[ -n "$KID" ] || fail "no codev-qwen-7b aes_key_expand_128 codeid 16"
"$ASSAY" --db "$DB" show "$KID" | grep -q -- "--- recorded: pass simulate ---" ||
    fail "not recorded as a pass"
"$ASSAY" --db "$DB" verify "$KID" >/dev/null 2>&1 || fail "verify"
expect_eq "recorded pass, re-derived" "$(row "$KID" | json_field verdict)" fail
expect_eq "its subcategory" "$(row "$KID" | json_field subcategory)" mismatch
row "$KID" | grep -q '"metrics":{"mismatches":176,"total":177,' ||
    fail "false pass metrics: $(row "$KID")"
"$ASSAY" --db "$DB" show "$KID" | grep -q -F \
    "evidence: wo_0 has 176 mismatches. First at time 10" ||
    fail "the evidence is not the first output with mismatches"
echo "ok: RealBench's false pass fails with 176 mismatches in 177 samples"
