# 031: ids and names are paths and trailers (issue 10, item 9).  Every
# hostile id or name is refused at import with FILE:LINE, or imports
# cleanly; --reviewer and explicit ids are checked; the dataset commit
# carries one trailer block per sample and nothing injected.
. "$(dirname "$0")/lib.sh"

TB='"files": {"t_tb.sv": "module tb; endmodule\n"}'
task() {	# task ID DOMAIN
	printf '{"task": {"id": "%s", "domain": "%s", "env": "iverilog", %s}}' \
	    "$1" "$2" "$TB"
}
cand() {	# a candidate row of task local/ok with id $1 and extra fields $2
	k=$((${k:-0} + 1))
	printf '{"task": "local/ok", "candidate": {"id": "%s", "origin": "m", "code": "module TopModule; endmodule // %s\\n"}%s}' "$1" "$k" "${2:-}"
}

# refused ROW PATTERN: importing the one-row file fails with FILE:1 and
# the pattern, exit 2, and leaves nothing.
refused() {
	n=$((${n:-0} + 1))
	printf '%s\n' "$1" > "$T/h$n.jsonl"
	before=$(count '')
	"$ASSAY" --db "$DB" import "$T/h$n.jsonl" >/dev/null 2>"$T/err"
	rc=$?
	[ $rc = 2 ] || fail "row $n: exit $rc, want 2 for: $(printf "%s" "$1" | od -c | head -3)"
	grep -q "h$n.jsonl:1: .*$2" "$T/err" || fail "row $n: no 'h$n.jsonl:1: ...$2' in: $(cat "$T/err")"
	expect_eq "row $n refused, nothing left" "$(count '')" "$before"
}

task local/ok chip > "$T/ok.jsonl"; echo >> "$T/ok.jsonl"
cand c-1 >> "$T/ok.jsonl"; echo >> "$T/ok.jsonl"
"$ASSAY" --db "$DB" import "$T/ok.jsonl" >/dev/null || fail "clean import"
expect_eq "clean rows import" "$(count '')" 1

# Trailer injection through a newline, in review.by and in the id.
refused "$(cand c-2 ', "review": {"status": "accepted", "by": "eve\nAssay-Verdict: pass"}')" \
    "reviewer name 'eve\\\\nAssay-Verdict: pass': .*control"
refused "$(cand 'c-3\nSigned-off-by: x' '')" "candidate id 'c-3\\\\nSigned-off-by: x'"
refused "$(cand c-4 ', "labels": [{"category": "compile", "by": "a\rb"}]')" "reviewer name"
refused "$(cand c-5 ', "notes": [{"text": "n", "by": "\u001b]0;pwned\u0007"}]')" "reviewer name"
# Paths: reserved names, dots, empty ids, domains.
refused "$(cand task '')" "\"task\" is reserved"
refused "$(cand TASK '')" "\"task\" is reserved"
refused "$(cand c.6 '')" "candidate id 'c.6': the id holds '.'"
refused "$(cand '' '')" "an id must not be empty"
refused "$(cand -x '')" "begins with a letter or a digit"
refused "$(task 'local/../up' chip)" "task id 'local/../up'"
refused "$(task '../up' chip)" "task id"
refused "$(task '/abs' chip)" "no empty part"
refused "$(task 'a//b' chip)" "no empty part"
refused "$(task '.git/hooks' chip)" "task id"
refused "$(task local/d ..)" "domain '..': the domain must be one of chip, gpu, embedded, compiler, 3d"
refused "$(task local/d quantum)" "domain 'quantum'"
refused "$(printf '{"task": {"id": "local/f", "domain": "chip", "env": "iverilog", "files": {"-ofoo_tb.sv": "x"}}}')" \
    "file name '-ofoo_tb.sv': a file name begins with a letter"
refused "$(printf '{"task": {"id": "local/f", "domain": "chip", "env": "iverilog", "files": {"../x.sv": "x"}}}')" \
    "file name '../x.sv'"
# Benchmark, env and origin names: no control characters, line
# separators or direction controls, at most 200 bytes (they are shown in
# lists, panes, stats and exports).
refused "$(printf '{"task": {"id": "local/b", "benchmark": "b\\u001b]0;pwned\\u0007", "domain": "chip", "env": "iverilog", %s}}' "$TB")" \
    "task local/b: benchmark 'b\\\\x1b]0;pwned\\\\x07': a benchmark name holds no control characters (U+001B at byte 1)"
refused "$(printf '{"task": {"id": "local/b", "benchmark": "b\\u2028x", "domain": "chip", "env": "iverilog", %s}}' "$TB")" \
    "benchmark .*line separators or direction controls (U+2028"
refused "$(printf '{"task": {"id": "local/e", "domain": "chip", "env": "iverilog\\n", %s}}' "$TB")" \
    "task local/e: env 'iverilog\\\\n': an env name holds no control characters"
refused "$(printf '{"task": {"id": "local/e", "domain": "chip", "env": "iver\\u202elog", %s}}' "$TB")" \
    "env .*direction controls (U+202E"
refused "$(printf '{"task": "local/ok", "candidate": {"origin": "gpt\\u001b[2J", "code": "module TopModule; endmodule // o1\\n"}}')" \
    "origin 'gpt\\\\x1b\\[2J': an origin holds no control characters"
refused "$(printf '{"task": "local/ok", "candidate": {"origin": "a\\u2066b", "code": "module TopModule; endmodule // o2\\n"}}')" \
    "origin .*direction controls (U+2066"
refused "$(printf '{"task": "local/ok", "candidate": {"origin": "%s", "code": "module TopModule; endmodule // o3\\n"}}' "$(printf '%0201d' 0)")" \
    "an origin is at most 200 bytes"
refused "$(printf '{"task": "local/ok", "candidate": {"origin": " m", "code": "module TopModule; endmodule // o4\\n"}}')" \
    "origin ' m': an origin has no leading or trailing space"
# A model name is an origin: generate and repair refuse a bad one before
# any request.
for cmd in generate repair; do
	"$ASSAY" --db "$DB" $cmd --endpoint http://127.0.0.1:9 --model \
	    "$(printf 'm\033]0;x\007')" --where task=local/ok >/dev/null 2>"$T/err"
	expect_eq "$cmd refuses a model name with ESC" $? 2
	grep -q "model 'm\\\\x1b\]0;x\\\\x07': a model name (its candidates' origin) holds no control characters" "$T/err" ||
	    fail "$cmd: message: $(cat "$T/err")"
done
# Label categories and review statuses: the valid words, never SQL.
refused "$(cand c-7 ', "labels": [{"category": "syntax"}]')" \
    "unknown category 'syntax' (compile api functional format performance)"
refused "$(cand c-8 ', "review": {"status": "approved"}')" \
    "unknown review status 'approved' (unreviewed accepted rejected flagged)"
grep -q "constraint" "$T"/err && fail "raw SQL in a message"

# --reviewer and ASSAY_REVIEWER are checked by every command that
# records a name.
ID=$("$ASSAY" --db "$DB" list --json | sed 's/.*"id": *"\([^"]*\)".*/\1/')
expect_eq "the clean candidate's id" "$ID" c-1
for cmd in "review $ID accept" "label $ID compile" "undo" "commit --repo $T/ds"; do
	# shellcheck disable=SC2086
	"$ASSAY" --db "$DB" --reviewer "$(printf 'eve\nSigned-off-by: x')" $cmd >/dev/null 2>"$T/err"
	expect_eq "bad --reviewer refused by $cmd" $? 2
	grep -q "reviewer name 'eve\\\\nSigned-off-by: x'" "$T/err" || fail "message: $(cat "$T/err")"
done
# A name given by hand is refused by every command (it may reach the
# journal, a human repair's origin or a trailer), not only by those above.
"$ASSAY" --db "$DB" --reviewer "$(printf 'a\nb')" list >/dev/null 2>&1
expect_eq "bad --reviewer refused by list" $? 2
ASSAY_REVIEWER="$(printf 'a\033[2Jb')" "$ASSAY" --db "$DB" review "$ID" accept >/dev/null 2>"$T/err"
expect_eq "bad ASSAY_REVIEWER refused" $? 2
grep -q "ASSAY_REVIEWER" "$T/err" || fail "does not say where the name came from: $(cat "$T/err")"
"$ASSAY" --db "$DB" show "$(printf 'c-1\nx')" >/dev/null 2>"$T/err"
expect_eq "an explicit id with a newline" $? 2
grep -q "is not a candidate id" "$T/err" || fail "explicit id message: $(cat "$T/err")"

# A plain commit: one trailer block per sample, nothing injected.
"$ASSAY" --db "$DB" --reviewer "Zoë O'Brien" review "$ID" accept >/dev/null 2>&1 || fail "accept"
"$ASSAY" --db "$DB" commit --repo "$T/ds" >/dev/null || fail "commit"
git -C "$T/ds" log -1 --format=%B > "$T/msg"
expect_eq "one Assay-Verdict trailer" "$(grep -c '^Assay-Verdict:' "$T/msg")" 1
expect_eq "no Signed-off-by" "$(grep -c '^Signed-off-by:' "$T/msg")" 0
grep -q "^Reviewed-by: Zoë O'Brien$" "$T/msg" || fail "reviewer trailer: $(cat "$T/msg")"
[ -f "$T/ds/chip/local/ok/c-1.sv" ] || fail "dataset path"

# A decision time out of range, or not a number, is refused; one that
# got into an older database does not crash stats --reviewers.
refused "$(cand c-9 ', "review": {"status": "flagged", "at": 99999999999999999}')" \
    "review: \"at\" must be seconds since 1970"
refused "$(cand c-10 ', "labels": [{"category": "api", "at": "yesterday"}]')" \
    "label: \"at\" must be"
refused "$(cand c-11 ', "labels": [{"category": "api", "at": -5}]')" "\"at\" must be"
if command -v sqlite3 >/dev/null; then
	sqlite3 "$DB" "UPDATE event SET at = 9223372036854775000 WHERE action = 'review';
	    UPDATE review SET at = 9223372036854775000;" || fail "sqlite3"
	for f in table csv md json; do
		"$ASSAY" --db "$DB" stats --reviewers --format $f >"$T/out" 2>&1
		expect_eq "stats --reviewers --format $f with a huge time" $? 0
	done
	grep -q "@9223372036854775000" "$T/out" || grep -q "9223372036854775000" "$T/out" || \
	    fail "the raw time is not shown: $(cat "$T/out")"
else
	echo "skipped part: no sqlite3 program to plant a huge time"
fi
# A task file name planted in the database past the importer (an older
# database) still never reaches a toolchain as an option.
if command -v sqlite3 >/dev/null && command -v iverilog >/dev/null; then
	printf '{"task": {"id": "local/opt", "domain": "chip", "env": "iverilog", "files": {"foo_tb.sv": "module tb; TopModule dut(); initial $finish; endmodule\\n"}}, "candidate": {"id": "c-opt", "origin": "m", "code": "module TopModule; endmodule\\n"}}\n' > "$T/opt.jsonl"
	"$ASSAY" --db "$DB" import "$T/opt.jsonl" >/dev/null || fail "import opt"
	sqlite3 "$DB" "UPDATE task_file SET name = '-ofoo_tb.sv' WHERE task_id = 'local/opt'" || fail "sqlite3"
	"$ASSAY" --db "$DB" verify c-opt >/dev/null 2>"$T/err"
	expect_eq "verify with a file named like an option" $? 2
	grep -q "bad task file name '-ofoo_tb.sv': a file name begins with a letter" "$T/err" ||
	    fail "option-like file name: $(cat "$T/err")"
	[ -e foo_tb.sv ] || [ -e "$T/foo_tb.sv" ] && fail "iverilog wrote foo_tb.sv"
fi
echo "ok: hostile ids and names refused with FILE:LINE"

# Printable UTF-8 in a label imports.
printf '{"task": "local/ok", "candidate": {"origin": "Zo\\u00eb/gpt-4o:t=0.2", "code": "module TopModule; endmodule // o5\\n"}}\n' > "$T/label-ok.jsonl"
"$ASSAY" --db "$DB" import "$T/label-ok.jsonl" >/dev/null 2>"$T/err" ||
    fail "a printable origin was refused: $(cat "$T/err")"
"$ASSAY" --db "$DB" list --json | grep -q '"origin": *"Zoë/gpt-4o:t=0.2"' ||
    fail "the printable origin is not listed as imported"
echo "ok: a printable origin imports"
