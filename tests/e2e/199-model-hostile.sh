# 199 - what an attacker found in the model loop, against the test's
# chat-completions server on 127.0.0.1 (tests/e2e/model/chat_server.py):
#  1. a server that echoes the Authorization header in the response's
#     "model", "id" and finish_reason (the id's copy JSON-escaped, so that
#     only a decoder sees it), and in a 429's message: the response is read
#     redacted, its answer is not stored, and the key is in no byte of the
#     database, show --json, the raw and sft exports, stdout or stderr;
#     a command generator that answers such a response too;
#  2. a 429 with Retry-After: 86400: the wait is cut to 60 s and said so;
#     SIGINT during it ends the run at once (exit 130), no try is sent
#     after it and a conversation not yet sent is counted as cancelled;
#  3. an empty or white-space repair file is no repair;
#  4. a request that got HTTP 400 is counted as a request;
#  5. the key escaped in error bodies and a command's stderr;
#  6. the key in forms a second look found (octal of 2 digits, references
#     with leading zeros, \N{...}, \x{...}, CSS's \73, %u0073) in an
#     answer over HTTP and in a command's stderr: refused and redacted.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || skip "no python3 for the test's server"
command -v jq >/dev/null || skip "no jq"
. "$(dirname "$0")/model/server.sh"

KEY="sk-test-$$-hostile-key"
printf 'module TopModule(output y); assign y = 1; endmodule\n' >"$T/answer.v"
task() { printf '{"task": {"id": "%s", "domain": "chip", "benchmark": "hostile", "env": "iverilog", "spec": "%s task", "files": {}}}\n' "$1" "$2"; }
{
	task t/echoid ECHOID
	task t/plain PLAIN
} >"$T/tasks.jsonl"
"$ASSAY" --db "$DB" import "$T/tasks.jsonl" >/dev/null || fail "import tasks"

chat_server_start "$KEY"
trap 'kill $spid 2>/dev/null; [ -n "${KEEP_T:-}" ] || rm -rf "$T"' EXIT
EP="--endpoint http://127.0.0.1:$port/v1 --model tiny-coder --api-key-env TEST_API_KEY --temperature 0"

# --- 1. the key echoed in model, id and finish_reason --------------------
# shellcheck disable=SC2086
"$ASSAY" --db "$DB" generate $EP --no-verify --json >"$T/gen.json" 2>"$T/gen.err"
expect_eq "generate exit (the echoing response failed)" $? 1
cat "$T/gen.json" "$T/gen.err"
expect_eq "asked, added, failed, requests" \
    "$(jq -c '[.asked, .added, .failed, .requests]' "$T/gen.json")" "[2,1,1,2]"
# model (bytes), id (escaped: found only once decoded) and finish_reason
grep -q "^assay generate: t/echoid: the answer holds the API key of TEST_API_KEY (3 times, redacted); not stored" \
    "$T/gen.err" || fail "the echoing response is not refused: $(cat "$T/gen.err")"
expect_eq "candidates of t/echoid" "$(count task=t/echoid)" 0
expect_eq "candidates of t/plain" "$(count task=t/plain)" 1
# a command generator answering such a response object, the key in its
# id as an escape
cat >"$T/echo.sh" <<'SH'
first=$(printf %s "$TEST_API_KEY" | cut -c1)
rest=$(printf %s "$TEST_API_KEY" | cut -c2-)
cat >/dev/null
printf '{"id": "r-\\u%04x%s", "model": "m", "choices": [{"message": {"content": "module TopModule(output y); assign y = 0; endmodule"}}]}\n' "'$first" "$rest"
SH
"$ASSAY" --db "$DB" generate --where task=t/plain --api-key-env TEST_API_KEY \
    --model cmd-echo --command "sh $T/echo.sh" --no-verify >"$T/cmd.out" 2>"$T/cmd.err"
expect_eq "command echo exit" $? 1
grep -q "t/plain: the answer holds the API key of TEST_API_KEY (1 time, redacted); not stored" "$T/cmd.err" ||
    fail "the command's escaped key: $(cat "$T/cmd.out" "$T/cmd.err")"
expect_eq "candidates of cmd-echo" "$(count origin=cmd-echo)" 0

# --- 4. a request that got HTTP 400 is a request -------------------------
task t/bad ECHOERR >"$T/bad.jsonl"
"$ASSAY" --db "$T/bad.db" import "$T/bad.jsonl" >/dev/null || fail "import bad"
# shellcheck disable=SC2086
"$ASSAY" --db "$T/bad.db" generate $EP --no-verify --json >"$T/bad.json" 2>"$T/bad.err"
expect_eq "400 exit" $? 1
expect_eq "400: asked, failed, requests" "$(jq -c '[.asked, .failed, .requests]' "$T/bad.json")" "[1,1,1]"
# shellcheck disable=SC2086
"$ASSAY" --db "$T/bad.db" generate $EP --no-verify >"$T/bad.out" 2>"$T/bad2.err"
grep -q "requests" "$T/bad.out" && fail "the summary says a request count that is not the truth: $(cat "$T/bad.out")"
expect_eq "400: the summary" "$(cat "$T/bad.out")" "generate: asked 1, stored 0 new, 1 failed"

# --- 5. the key escaped in error bodies and a command's stderr -----------
# (issue: a body whose error.message is no string was shown as its raw
# bytes, redacted only as bytes, so a \u-escaped key came through)
{
	task t/esc400 ESC400
	task t/esc500 ESC500
	task t/objmsg OBJMSG
	task t/badjson BADJSON
} >"$T/err.jsonl"
"$ASSAY" --db "$T/err.db" import "$T/err.jsonl" >/dev/null || fail "import err"
# shellcheck disable=SC2086
"$ASSAY" --db "$T/err.db" generate $EP --retries 1 --jobs 1 --no-verify --json \
    >"$T/err.json" 2>"$T/err.err"
expect_eq "error bodies exit" $? 1
cat "$T/err.json" "$T/err.err"
expect_eq "error bodies: asked, failed, requests" \
    "$(jq -c '[.asked, .failed, .requests]' "$T/err.json")" "[4,4,4]"
# the JSON bodies as their redacted trees, the other as its text, each
# escaped copy (and the one escaped twice) replaced
grep -q -F 't/esc400: HTTP 400: {"detail":"bad key [redacted], again: [redacted]"}' "$T/err.err" ||
    fail "the 400's body"
grep -q -F 'HTTP 500: {"detail":"bad key [redacted], again: [redacted]"}; try 2 in 1.0 s' "$T/err.err" ||
    fail "the 500's retry line"
grep -q -F 't/esc500: HTTP 500: {"detail":"bad key [redacted], again: [redacted]"} (after 2 tries)' "$T/err.err" ||
    fail "the 500's failure"
grep -q -F 't/objmsg: HTTP 400: {"error":{"message":{"text":"[redacted]","[redacted]":1}}}' "$T/err.err" ||
    fail "the object message"
grep -q -F 't/badjson: HTTP 400: {"error": "bad key [redacted] [redacted] [redacted]' "$T/err.err" ||
    fail "the body that is not JSON"
# a command generator whose stderr holds the key with one letter escaped
cat >"$T/errcmd.sh" <<'SH'
cat >/dev/null
printf '{"error": "upstream said: s\\u006b%s"}\n' "${TEST_API_KEY#sk}" >&2
exit 3
SH
task t/cmderr CMDERR >"$T/cmderr.jsonl"
"$ASSAY" --db "$T/cmderr.db" import "$T/cmderr.jsonl" >/dev/null || fail "import cmderr"
"$ASSAY" --db "$T/cmderr.db" generate --api-key-env TEST_API_KEY \
    --model cmd-err --command "sh $T/errcmd.sh" --no-verify >"$T/errcmd.out" 2>"$T/errcmd.err"
expect_eq "command stderr exit" $? 1
cat "$T/errcmd.err"
grep -q -F 't/cmderr: command exited 3: {"error": "upstream said: [redacted]"}' "$T/errcmd.err" ||
    fail "the command's stderr"
# what was stored of each failure: the attempts' errors, redacted
# (stored_error DB DUMP TEXT: DB dumped to DUMP holds TEXT)
stored_error() {
	sqlite3 "$1" .dump >"$2" 2>/dev/null || "$ASSAY" --db "$1" export --format raw >"$2"
	grep -q -F "$3" "$2" || fail "attempt.error is not the redacted message: $3"
}
stored_error "$T/cmderr.db" "$T/err-dump.sql" 'command exited 3: {"error": "upstream said: [redacted]"}'
# --- 6. forms a second look found: an answer over HTTP, a command's stderr
# (octal of 2 digits, references with leading zeros, \N{...}, \x{...},
# CSS's \73, %u0073: the answer was stored, "stored 1 new")
task t/forms FORMS >"$T/forms.jsonl"
"$ASSAY" --db "$T/forms.db" import "$T/forms.jsonl" >/dev/null || fail "import forms"
# shellcheck disable=SC2086
"$ASSAY" --db "$T/forms.db" generate $EP --no-verify >"$T/forms.out" 2>"$T/forms.err"
expect_eq "forms exit" $? 1
cat "$T/forms.out" "$T/forms.err"
grep -q "^assay generate: t/forms: the answer holds the API key of TEST_API_KEY (7 times, redacted); not stored" \
    "$T/forms.err" || fail "the answer with the key in 7 forms is not refused"
expect_eq "forms: the summary" "$(cat "$T/forms.out")" "generate: asked 1, stored 0 new, 1 failed"
expect_eq "candidates of t/forms" \
    "$("$ASSAY" --db "$T/forms.db" list --json --where task=t/forms | wc -l | tr -d ' ')" 0
"$ASSAY" --db "$T/forms.db" export --format raw >"$T/forms-raw.jsonl" || fail "export forms"
sqlite3 "$T/forms.db" .dump >"$T/forms-dump.sql" 2>/dev/null || :
# a command generator whose stderr holds the key in each of those forms
cat >"$T/formscmd.sh" <<'SH'
cat >/dev/null
k1=${TEST_API_KEY#s}
printf 'upstream: sk\\55%s | &#000000115;%s | \\N{LATIN SMALL LETTER S}%s | \\x{73}%s | \\73 %s | %%u0073%s\n' \
    "${TEST_API_KEY#sk-}" "$k1" "$k1" "$k1" "$k1" "$k1" >&2
exit 3
SH
"$ASSAY" --db "$T/forms.db" generate --api-key-env TEST_API_KEY \
    --model cmd-forms --command "sh $T/formscmd.sh" --no-verify >"$T/formscmd.out" 2>"$T/formscmd.err"
expect_eq "command stderr forms exit" $? 1
cat "$T/formscmd.err"
R='[redacted]'
grep -q -F "t/forms: command exited 3: upstream: $R | $R | $R | $R | $R | $R" "$T/formscmd.err" ||
    fail "the command's stderr with the key in 6 forms"
stored_error "$T/forms.db" "$T/formscmd-dump.sql" "command exited 3: upstream: $R | $R | $R | $R | $R | $R"

if command -v iverilog >/dev/null; then
	# assay repair through the same server: a failing seed, a 500
	TB='module tb; wire y; TopModule dut(.y(y)); initial begin #1; if (y !== 1) $display(\"Mismatches: 1 in 1 samples\"); else $display(\"Mismatches: 0 in 1 samples\"); $finish; end endmodule'
	printf '{"task": {"id": "t/rep", "domain": "chip", "benchmark": "hostile", "env": "iverilog", "spec": "ESC500 task", "interface": "module TopModule(output y);", "files": {"test.sv": "%s"}}, "candidate": {"id": "c-seed", "origin": "seed", "code": "module TopModule(output y); assign y = 0; endmodule"}}\n' "$TB" \
	    >"$T/rep.jsonl"
	"$ASSAY" --db "$T/rep.db" import "$T/rep.jsonl" >/dev/null || fail "import rep"
	"$ASSAY" --db "$T/rep.db" verify --quiet >/dev/null 2>&1
	# shellcheck disable=SC2086
	"$ASSAY" --db "$T/rep.db" repair c-seed $EP --retries 1 --no-verify \
	    >"$T/rep.out" 2>"$T/rep.err"
	expect_eq "repair exit" $? 1
	cat "$T/rep.out" "$T/rep.err"
	grep -q -F 'HTTP 500: {"detail":"bad key [redacted], again: [redacted]"}' "$T/rep.err" ||
	    fail "repair's error"
	sqlite3 "$T/rep.db" .dump >"$T/rep-dump.sql" 2>/dev/null || :
fi

# --- 6. Retry-After: far, huge, zero, past --------------------------------
FAR="HDR[Retry-After: Thu, 01 Jan 2099 00:00:00 GMT]"
HUGE="HDR[Retry-After: 99999999999999999999]"
{
	task t/far "$FAR"
	task t/huge "$HUGE"
} >"$T/far.jsonl"
"$ASSAY" --db "$T/far.db" import "$T/far.jsonl" >/dev/null || fail "import far"
# shellcheck disable=SC2086
"$ASSAY" --db "$T/far.db" generate $EP --retries 4 --jobs 2 --no-verify \
    >"$T/far.out" 2>"$T/far.err" &
gpid=$!
for i in $(seq 1 50); do [ "$(grep -c "try 2 in" "$T/far.err")" = 2 ] && break; sleep 0.2; done
kill -INT $gpid
wait $gpid
expect_eq "far exit after SIGINT" $? 130
cat "$T/far.err"
expect_eq "far and huge: told as more than a day" \
    "$(grep -c -F 'HTTP 429: slow down, Bearer [redacted] (the server asked to wait more than a day; assay waits 60 s at most); try 2 in 60.0 s' "$T/far.err")" 2
grep -q 1000000000 "$T/far.err" && fail "the internal cap is told as what the server asked"
# nothing asked: our backoff (1 s before try 2), not a retry at once
{
	task t/past "HDR[Retry-After: Thu, 01 Jan 2015 00:00:00 GMT]"
	task t/zero "HDR[Retry-After: 0]"
	task t/zeroms "HDR[retry-after-ms: 0]"
} >"$T/zero.jsonl"
"$ASSAY" --db "$T/zero.db" import "$T/zero.jsonl" >/dev/null || fail "import zero"
: >"$T/server.log"
# shellcheck disable=SC2086
"$ASSAY" --db "$T/zero.db" generate $EP --retries 2 --jobs 3 --no-verify \
    >"$T/zero.out" 2>"$T/zero.err"
expect_eq "zero exit" $? 1
cat "$T/zero.err"
expect_eq "zero: waits of 1 s then 2 s" \
    "$(grep -c -F 'HTTP 429: slow down, Bearer [redacted]; try 2 in 1.0 s' "$T/zero.err") $(grep -c -F 'HTTP 429: slow down, Bearer [redacted]; try 3 in 2.0 s' "$T/zero.err")" "3 3"
# the server's clock: each task's three tries span the 3 s of backoff
python3 - "$T/server.log" <<'PY' || fail "a zero or past Retry-After was retried at once"
import json, re, sys
tries = {}
for line in open(sys.argv[1]):
    r = json.loads(line)
    m = re.search(r"HDR\[[^\]]*\]", r["body"])
    tries.setdefault(m.group(0), []).append(r["t"])
for k, ts in sorted(tries.items()):
    span = max(ts) - min(ts)
    print("%s: %d tries in %.2f s" % (k, len(ts), span))
    assert len(ts) == 3 and span >= 2.9, k
PY

# --- 2. Retry-After: 86400, cut and cancelled ----------------------------
{
	task t/long1 LONGWAIT
	task t/long2 LONGWAIT
} >"$T/long.jsonl"
"$ASSAY" --db "$T/long.db" import "$T/long.jsonl" >/dev/null || fail "import long"
: >"$T/server.log"
# shellcheck disable=SC2086
"$ASSAY" --db "$T/long.db" generate $EP --retries 4 --jobs 1 --no-verify --json \
    >"$T/long.json" 2>"$T/long.err" &
gpid=$!
for i in $(seq 1 50); do grep -q "try 2 in" "$T/long.err" && break; sleep 0.2; done
cat "$T/long.err"
grep -q "^assay generate: HTTP 429: slow down, Bearer \[redacted\] (the server asked to wait 86400.0 s; assay waits 60 s at most); try 2 in 60.0 s$" \
    "$T/long.err" || fail "the cut wait is not said: $(cat "$T/long.err")"
t0=$(date +%s)
kill -INT $gpid
wait $gpid
rc=$?
secs=$(( $(date +%s) - t0 ))
cat "$T/long.json" "$T/long.err"
expect_eq "exit after SIGINT" $rc 130
[ $secs -le 3 ] || fail "the run took ${secs} s to stop after SIGINT"
echo "ok: stopped ${secs} s after SIGINT"
grep -q "^assay generate: stopped by signal 2$" "$T/long.err" || fail "no stop message"
expect_eq "requests the server saw" "$(wc -l <"$T/server.log" | tr -d ' ')" 1
expect_eq "asked, failed, cancelled, requests" \
    "$(jq -c '[.asked, .failed, .cancelled, .requests]' "$T/long.json")" "[2,1,1,1]"
grep -q "HTTP 429: slow down, Bearer \[redacted\] (cancelled before try 2)" "$T/long.err" ||
    fail "the failed request's reason"
sleep 1
expect_eq "no try after the cancel" "$(wc -l <"$T/server.log" | tr -d ' ')" 1

# --- 3. an empty repair ----------------------------------------------------
cid=$("$ASSAY" --db "$DB" list --json --where task=t/plain | jq -r .id)
: >"$T/empty.sv"
printf ' \n\t\r\n' >"$T/blank.sv"
"$ASSAY" --db "$DB" repair "$cid" --file "$T/empty.sv" >"$T/e.out" 2>"$T/e.err"
expect_eq "empty repair exit" $? 2
expect_eq "empty repair says" "$(cat "$T/e.err")" \
    "assay repair: $T/empty.sv: the repair of $cid is empty: no code, nothing stored"
"$ASSAY" --db "$DB" repair "$cid" --file - <"$T/blank.sv" >"$T/b.out" 2>"$T/b.err"
expect_eq "white-space repair exit" $? 2
expect_eq "white-space repair says" "$(cat "$T/b.err")" \
    "assay repair: stdin: the repair of $cid is empty (only white space): no code, nothing stored"
expect_eq "repairs stored" "$(count "parent=$cid")" 0

# --- the key in no byte of what assay wrote or printed ----------------------
for id in $("$ASSAY" --db "$DB" list --json | jq -r .id); do
	"$ASSAY" --db "$DB" show --json "$id"
done >"$T/show.json"
grep -q '"served_model":"tiny-coder"' "$T/show.json" || fail "show --json has no generation record"
"$ASSAY" --db "$DB" export --format raw >"$T/raw.jsonl" || fail "export raw"
export_all "$DB" --format sft >"$T/sft.jsonl" || fail "export sft"
"$ASSAY" --db "$DB" stats --generation --format json >"$T/stats.json" || fail "stats"
sqlite3 "$DB" .dump >"$T/dump.sql" 2>/dev/null || "$ASSAY" --db "$DB" export --format raw >"$T/dump.sql"
if grep -a -l -- "$KEY" "$DB"* "$T/long.db"* "$T/bad.db"* "$T/forms.db"* "$T"/*.json "$T"/*.err "$T"/*.out "$T"/*.jsonl \
    "$T/dump.sql"; then
	fail "the API key leaked into the files above"
fi
# nor any escaped form of it that assay's redaction catches, by a
# decoder of the test's own (JSON, C, percent, HTML escapes, 4 deep)
python3 "$(dirname "$0")/model/no_key.py" "$KEY" "$DB"* "$T"/*.db* "$T"/*.json "$T"/*.err \
    "$T"/*.out "$T"/*.jsonl "$T"/*.sql || fail "an escaped API key leaked"
# the escaped copy the server sent: nowhere either
ESC=$(printf '\\u%04x' "'$(printf %s "$KEY" | cut -c1)")$(printf %s "$KEY" | cut -c2-)
if grep -a -F -l -- "$ESC" "$DB"* "$T"/*.json "$T"/*.err "$T"/*.out "$T"/*.jsonl; then
	fail "the escaped API key leaked"
fi
echo "ok: the key is in no database, show, export, stats, stdout or stderr"
echo "199: ok"
