# 080: full-text search from the command line (issue 5 item 1):
# `list --where 'grep=TEXT'` finds candidates by a word of their log
# (recorded by the row's makers or written by assay's own run), their
# code or their task's spec; identifiers with underscores stay whole, and
# query syntax in TEXT ( ( [ <= - " ) is plain text.
. "$(dirname "$0")/lib.sh"

cat >"$T/rows.jsonl" <<'JSONL'
{"task": {"id": "t/counter", "domain": "chip", "benchmark": "local", "env": "iverilog", "spec": "Build a free-running counter."}, "candidate": {"id": "c-count", "origin": "m1", "lang": "verilog", "code": "module top(input clk); reg [3:0] count_0; always @(posedge clk) count_0 <= count_0 + 1; endmodule\n"}, "recorded": [{"verdict": "fail", "log": "top.sv:1: warning: zorbulated width of count_0"}]}
{"task": {"id": "t/kernel", "domain": "gpu", "benchmark": "local", "env": "nvcc", "spec": "Sum a vector."}, "candidate": {"id": "c-kern", "origin": "m2", "lang": "cuda", "code": "__global__ void sum(float *x) { __syncthreads(); x[0] = 1; }\n"}}
{"task": "t/kernel", "candidate": {"id": "c-other", "origin": "m3", "lang": "cuda", "code": "int main(void) { return 0; }\n"}}
JSONL
"$ASSAY" --db "$DB" import "$T/rows.jsonl" >/dev/null || fail "import"
ids() { "$ASSAY" --db "$DB" list --json --where "$1" | sed -n 's/.*"id":"\([^"]*\)".*/\1/p' | tr '\n' ' '; }

expect_eq "a word of a recorded log" "$(ids 'grep=zorbulated')" "c-count "
expect_eq "case does not matter" "$(ids 'grep=ZORBULATED')" "c-count "
expect_eq "an identifier with underscores" "$(ids 'grep=__syncthreads')" "c-kern "
expect_eq "no part of an identifier" "$(count 'grep=syncthreads')" 0
expect_eq "count_0 whole" "$(ids 'grep=count_0')" "c-count "
expect_eq "a quoted phrase with <=" "$(ids 'grep="count_0 <= count_0"')" "c-count "
expect_eq "a paren" "$(ids 'grep=@(posedge')" "c-count "
expect_eq "a bracket" "$(ids 'grep=x[0]')" "c-kern "
expect_eq "a task's spec" "$(ids 'grep=vector')" "c-kern c-other "
expect_eq "with another predicate" "$(ids 'grep=vector model=m3')" "c-other "
expect_eq "negated" "$(ids 'grep!=vector')" "c-count "
"$ASSAY" --db "$DB" list --where 'grep=' >/dev/null 2>"$T/err"
expect_eq "grep= alone is bad usage" "$?" 2
grep -q "grep wants a text" "$T/err" || fail "no message: $(cat "$T/err")"

# a word of the log of a run made by assay, on shared data
need_data
command -v iverilog >/dev/null || skip "iverilog not installed"
"$ASSAY" --db "$DB" import "$DATA/rtlfixer/verilogeval-syntax.jsonl" \
    >/dev/null || fail "import rtlfixer"
expect_eq "no run yet" "$(count 'grep=Winfloop')" 0
ID=$("$ASSAY" --db "$DB" list --json --where benchmark=rtlfixer | sed -n 2p |
    sed -n 's/.*"id":"\([^"]*\)".*/\1/p')
"$ASSAY" --db "$DB" verify --quiet "$ID" >/dev/null || fail "verify $ID"
# the command line heads every log of an iverilog run
expect_eq "a word of the run's log" "$(ids 'grep=Winfloop')" "$ID "
