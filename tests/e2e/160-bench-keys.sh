# 160: `assay --bench-keys FILE` (issue 5 item 7): the workbench replays
# the keys of FILE through its own key handler and frame loop, without a
# terminal (TERM set, output to /dev/null), and reports on stderr the
# first frame, each key's time to its frame, the queries (a filter, a
# full-text search, the statistics sheet) and the peak memory.  Nothing
# here asserts a time: the fields, that the keys acted (the screen at the
# end), and FILE:LINE for a bad line.
. "$(dirname "$0")/lib.sh"

cat >"$T/rows.jsonl" <<'JSONL'
{"task": {"id": "t/counter", "domain": "chip", "benchmark": "local", "env": "iverilog", "spec": "Build a free-running counter."}, "candidate": {"id": "c-count", "origin": "m1", "lang": "verilog", "code": "module top(input clk); reg [3:0] count_0; always @(posedge clk) count_0 <= count_0 + 1; endmodule\n"}, "recorded": [{"verdict": "fail", "log": "top.sv:1: warning: zorbulated width of count_0"}]}
{"task": "t/counter", "candidate": {"id": "c-two", "origin": "m2", "lang": "verilog", "code": "module top(input clk); endmodule\n"}}
{"task": "t/counter", "candidate": {"id": "c-three", "origin": "m2", "lang": "verilog", "code": "module top(input clk); wire w; endmodule\n"}}
JSONL
"$ASSAY" --db "$DB" import "$T/rows.jsonl" >/dev/null || fail "import"
export HOME="$T" XDG_CONFIG_HOME="$T/config" XDG_STATE_HOME="$T/state"

cat >"$T/keys" <<'KEYS'
# a comment, then keys
j
2 k
:filter model=m2
:grep zorbulated
s
Esc
KEYS
TERM=xterm "$ASSAY" --db "$DB" --dump-screen "$T/screen" \
    --bench-keys "$T/keys" </dev/null >/dev/null 2>"$T/report"
expect_eq "exit status" "$?" 0
R=$T/report
field() { awk -v k="$1" '$1 == k { print $2 }' "$R"; }
number() {	# NAME: the field is there and is a number
	v=$(field "$1")
	echo "$v" | grep -Eq '^[0-9]+(\.[0-9]+)?$' ||
	    fail "$1: '$v' is not a number in: $(cat "$R")"
	echo "ok: $1 = $v"
}
for k in first_frame_ms highlight_ms key_p50_ms key_p99_ms key_max_ms \
    query_max_ms peak_rss_mb; do
	number "$k"
done
expect_eq "rows at the first frame" "$(field rows)" 3
awk '$1 == "peak_rss_mb" && $2 > 0 { ok = 1 } END { exit !ok }' "$R" ||
    fail "no memory measured"
# j, k, k; a : line is keys (the colon, each character), its Enter a query
expect_eq "steps named" "$(awk '$1 == "step" { $3 = ""; print }' "$R" |
    tr -s ' ' | tr '\n' '|')" \
    "step key j|step key k|step key k|step query :filter model=m2|step query :grep zorbulated|step query s|step key Esc|"
expect_eq "keys counted" "$(field keys)" \
    "$((1 + 2 + 16 + 16 + 1))"
expect_eq "queries counted" "$(field queries)" 3
# the keys acted: the search left one candidate in the queue
grep -q "c-count" "$T/screen" || fail "no c-count on screen: $(cat "$T/screen")"
grep -q "c-two" "$T/screen" && fail "c-two still in the queue after :grep"
grep -q "1/1" "$T/screen" || fail "the queue is not 1/1: $(cat "$T/screen")"
echo "ok: the search acted"

# @pace: the frame loop runs between keys, so a :verify the keys start
# goes on; the report says what it did (how many runs it stored depends
# on the machine's speed, so only that it is a number)
# (its work directories in a folder of this test's, to see that none is
# left behind: they are removed on a thread of their own)
printf '@pace 5\n:verify 1 force\n3 j\n@pace 0\nk\n' >"$T/paced"
mkdir -m 711 "$T/runs" && chmod o+x "$T"
TMPDIR=$T/runs TERM=xterm "$ASSAY" --db "$DB" --bench-keys "$T/paced" \
    </dev/null >/dev/null 2>"$R"
expect_eq "paced exit status" "$?" 0
expect_eq "paced" "$(field paced)" 1
expect_eq "the :verify's view" "$(field verify_total)" 3
for k in verify_runs verify_runs_fail verify_done key_p99_ms; do
	number "$k"
done
expect_eq "paced steps" "$(awk '$1 == "step" { $3 = ""; print }' "$R" |
    tr -s ' ' | tr '\n' '|')" \
    "step query :verify 1 force|step key j|step key j|step key j|step key k|"
expect_eq "work directories left" "$(ls "$T/runs")" ""
printf '@pace x\n' >"$T/badpace"
TERM=xterm "$ASSAY" --db "$DB" --bench-keys "$T/badpace" </dev/null \
    >/dev/null 2>"$T/err"
expect_eq "a bad pace" "$?" 2
grep -q "$T/badpace:1: @pace MS" "$T/err" || fail "no pace message: $(cat "$T/err")"

# a bad line: the file and its line, exit 2, the screen left alone
printf 'j\n\nNoSuchKey\n' >"$T/bad"
TERM=xterm "$ASSAY" --db "$DB" --bench-keys "$T/bad" </dev/null \
    >/dev/null 2>"$T/err"
expect_eq "a bad key is bad usage" "$?" 2
grep -q "$T/bad:3: " "$T/err" || fail "no FILE:LINE: $(cat "$T/err")"
printf '0 j\n' >"$T/zero"
TERM=xterm "$ASSAY" --db "$DB" --bench-keys "$T/zero" </dev/null \
    >/dev/null 2>"$T/err"
expect_eq "a count of 0" "$?" 2
grep -q "$T/zero:1: a count" "$T/err" || fail "no count message: $(cat "$T/err")"
TERM=xterm "$ASSAY" --db "$DB" --bench-keys "$T/none" </dev/null \
    >/dev/null 2>"$T/err"
expect_eq "a missing file" "$?" 2
grep -q "$T/none: No such file" "$T/err" || fail "no message: $(cat "$T/err")"
exit 0
