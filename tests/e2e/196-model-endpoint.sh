# 196 - what the field's clients expect of an OpenAI-compatible endpoint
# (issue 25 item 7), against the test's chat-completions server on
# 127.0.0.1 (tests/e2e/model/chat_server.py; 197 runs a server from
# PyPI): the limit sent as max_completion_tokens when the config says so;
# --samples K as one request with n=K, asked again for what a server that
# ignores n left out, and without n once a server refuses it (llama.cpp's
# 400); a refusal stored as a candidate without code that verifies as
# format/refusal; an empty answer of a reasoning model stored as nothing
# and counted as failed; the served model, the response id, cached and
# reasoning tokens and the cost from the config's price table recorded
# once per response; retry-after-ms honoured over a longer Retry-After.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || skip "no python3 for the test's server"
command -v jq >/dev/null || skip "no jq"
command -v iverilog >/dev/null || skip "iverilog not installed"
M=$(cd "$(dirname "$0")/model" && pwd)

KEY="sk-test-$$-endpoint"
printf 'module TopModule(output y); assign y = 1; endmodule\n' >"$T/answer.v"
# A VerilogEval-style testbench: y must be 1.
TB='module tb; wire y; TopModule dut(.y(y)); initial begin #1; if (y !== 1) $display(\"Mismatches: 1 in 1 samples\"); else $display(\"Mismatches: 0 in 1 samples\"); $finish; end endmodule'
task() { printf '{"task": {"id": "%s", "domain": "chip", "benchmark": "ep", "env": "iverilog", "spec": "%s task", "interface": "module TopModule(output y);", "files": {"test.sv": "%s"}}}\n' "$1" "$2" "$TB"; }
{
	task t/n PLAIN
	task t/refuse REFUSE
	task t/reason REASON
	task t/cached CACHED
	task t/mswait MSWAIT
} >"$T/tasks.jsonl"
"$ASSAY" --db "$DB" import "$T/tasks.jsonl" >/dev/null || fail "import tasks"

SERVER_KEY=$KEY SERVER_LOG=$T/server.log SERVER_ANSWER=$T/answer.v \
    python3 "$M/chat_server.py" >"$T/port" 2>"$T/server.err" &
spid=$!
trap 'kill $spid 2>/dev/null; [ -n "${KEEP_T:-}" ] || rm -rf "$T"' EXIT
for i in 1 2 3 4 5 6 7 8 9 10; do [ -s "$T/port" ] && break; sleep 0.5; done
port=$(cat "$T/port")
[ -n "$port" ] || fail "server did not start: $(cat "$T/server.err")"
export TEST_API_KEY=$KEY

# The generator and its price table from the config file, as a user
# keeps them; the command line names no generator setting.
export XDG_CONFIG_HOME=$T/cfg
mkdir -p "$T/cfg/assay"
cat >"$T/cfg/assay/config" <<CFG
generator endpoint http://127.0.0.1:$port/v1
generator model tiny-coder
generator api-key-env TEST_API_KEY
generator temperature 0
generator max-tokens 256
generator max-tokens-param max_completion_tokens
generator timeout 10
generator retries 2
generator price tiny-coder 1.00 0.50 4.00
generator price tiny-coder-2026-01-01 2.50 1.25 10.00
CFG

"$ASSAY" --db "$DB" generate --samples 3 --json >"$T/gen.json" 2>"$T/gen.err"
expect_eq "generate exit (the reasoning model's empty answers failed)" $? 1
cat "$T/gen.json" "$T/gen.err"
# Asked 15 samples of 5 tasks.  t/n, t/cached and t/mswait: one response
# of 3 choices each (9 new).  t/refuse: the server answers one choice
# (a refusal) whatever n says, so it is asked with n=3, 2, 1: three
# refusals, one candidate without code and twice the same.  t/reason:
# three empty answers, no candidate.  The 429 is no response.
expect_eq "summary" "$(jq -c '[.asked, .requests, .added, .same_code, .failed, .refusals]' "$T/gen.json")" \
    "[15,9,10,2,3,3]"
grep -q "t/reason: empty answer (finish_reason length, 64 reasoning tokens): no candidate; raise max-tokens" \
    "$T/gen.err" || fail "the empty answer's reason"
# Cost: t/n and t/mswait 42 prompt + 21 completion tokens at 1/4 USD per
# million; the refusals 42 + 21, 14, 7; the empty answers 3 x (42 + 64);
# t/cached at its snapshot's row: 400 prompt, 600 cached, 200 completion
# at 2.50/1.25/10.00.  Sum: 0.005190 USD.
expect_eq "cost of the run (USD)" "$(jq '.cost_usd * 1e6 | round' "$T/gen.json")" 5190
expect_eq "cached tokens" "$(jq .cached_tokens "$T/gen.json")" 600
# The 429 of t/mswait is said as it happens, with the wait it asked for
# (it showed only as a count in the summary), and counted as a retry.
grep -q "^assay generate: HTTP 429: slow down; try 2 in 0.2 s$" "$T/gen.err" ||
    fail "the 429 is not said as it happens: $(cat "$T/gen.err")"
expect_eq "retries" "$(jq -c '[.retried, .retries]' "$T/gen.json")" "[1,1]"
expect_eq "reasoning tokens" "$(jq .reasoning_tokens "$T/gen.json")" 342

# What the server saw: the limit as max_completion_tokens, n=3 on the
# first request of each task, the refusal's task asked again for the rest.
python3 - "$T/server.log" <<'PY' || fail "requests"
import json, sys
reqs = [json.loads(l) for l in open(sys.argv[1])]
bodies = [(r, json.loads(r["body"])) for r in reqs]
def of(marker):
    return [(r, b) for r, b in bodies if marker in b["messages"][1]["content"]]
for r, b in bodies:
    assert b.get("max_completion_tokens") == 256 and "max_tokens" not in b, b
for m in ("PLAIN", "CACHED"):
    assert [b.get("n") for _, b in of(m)] == [3], (m, [b.get("n") for _, b in of(m)])
assert [b.get("n") for _, b in of("REFUSE")] == [3, 2, None], [b.get("n") for _, b in of("REFUSE")]
assert len(of("REASON")) == 3
rate = of("MSWAIT")
assert [b.get("n") for _, b in rate] == [3, 3], rate
gap = rate[1][0]["t"] - rate[0][0]["t"]
# retry-after-ms: 200 wins over Retry-After: 5.
assert 0.15 <= gap < 2.0, gap
print("ok: max_completion_tokens and n sent; retried %.2f s after the 429 (retry-after-ms 200)" % gap)
PY

expect_eq "candidates of t/n" "$(count 'task=t/n origin=tiny-coder')" 3
expect_eq "candidates of t/refuse (one empty)" "$(count 'task=t/refuse origin=tiny-coder')" 1
expect_eq "candidates of t/reason" "$(count 'task=t/reason')" 0
expect_eq "t/n's answers pass" "$(count 'task=t/n verdict=pass')" 3
# A refusal is a format failure, said so.
expect_eq "the refusal verified" "$("$ASSAY" --db "$DB" list --json --where task=t/refuse |
    jq -r '[.verdict, .category, .subcategory] | join(" ")')" "fail format refusal"
rid=$("$ASSAY" --db "$DB" list --json --where task=t/refuse | jq -r .id)
"$ASSAY" --db "$DB" show --json "$rid" >"$T/refuse.json" || fail "show refusal"
expect_eq "the refusal recorded" "$(jq -r '.generation.refusal' "$T/refuse.json")" \
    "I can't help with that request."
expect_eq "the refusal's code" "$(jq -r '.code' "$T/refuse.json")" ""

# The record of a response of three choices: the served model and the
# response id on each, usage and cost once.
for id in $("$ASSAY" --db "$DB" list --json --where task=t/cached | jq -r .id); do
	"$ASSAY" --db "$DB" show --json "$id" | jq -c '.generation |
	    [.served_model, (.response_id | startswith("chatcmpl-test-")), .choice,
	     .params.n, .params.max_completion_tokens, .usage, .cost_usd]'
done | sort >"$T/cached.rec"
cat "$T/cached.rec"
expect_eq "records of the cached response" "$(cat "$T/cached.rec")" \
'["tiny-coder-2026-01-01",true,0,3,256,{"prompt_tokens":1000,"completion_tokens":200,"cached_tokens":600,"reasoning_tokens":150},0.00375]
["tiny-coder-2026-01-01",true,1,3,256,{},null]
["tiny-coder-2026-01-01",true,2,3,256,{},null]'
# stats --generation (every answer an attempt, issue 25 item 5) counts
# each response's usage once, on the attempt of its first answer: the
# same prompt and completion tokens as the run's summary.
"$ASSAY" --db "$DB" stats --generation --format json >"$T/gstats.json" || fail "stats --generation"
expect_eq "stats: tokens of the responses" "$(jq -c '[.prompt_tokens, .completion_tokens]' "$T/gstats.json")" \
    "$(jq -c '[.prompt_tokens, .completion_tokens]' "$T/gen.json")"

# --- a server that refuses n (llama.cpp: "Only one completion choice is
# allowed"), one that ignores it, and --n off --------------------------
# Each in a database of its own task: generate without --where asks
# every task that has no candidate yet.
one() {	# one NAME MARKER GENERATE-OPTIONS...
	n=$1 m=$2
	shift 2
	task "t/$n" "$m" >"$T/$n.jsonl"
	"$ASSAY" --db "$T/$n.db" import "$T/$n.jsonl" >/dev/null || fail "import $n"
	"$ASSAY" --db "$T/$n.db" generate --samples 2 --no-verify --json "$@" \
	    >"$T/$n.json" 2>"$T/$n.err" || fail "generate $n: $(cat "$T/$n.err")"
}
: >"$T/server.log"
one non NO_N
expect_eq "NO_N: asked, requests, added, same code, failed" \
    "$(jq -c '[.asked, .requests, .added, .same_code, .failed]' "$T/non.json")" "[2,2,1,1,0]"
one ign IGNORE_N
expect_eq "IGNORE_N: asked, requests, added, failed" \
    "$(jq -c '[.asked, .requests, .added, .failed]' "$T/ign.json")" "[2,2,1,0]"
one off PLAIN_OFF --n off
expect_eq "--n off: asked, requests, added" "$(jq -c '[.asked, .requests, .added]' "$T/off.json")" "[2,2,1]"
python3 - "$T/server.log" <<'PY' || fail "n requests"
import json, sys
bodies = [json.loads(json.loads(l)["body"]) for l in open(sys.argv[1])]
def ns(marker):
    return [b.get("n") for b in bodies if marker in b["messages"][1]["content"]]
# Refused with 400, asked again at once without n, and never with it again.
assert ns("NO_N") == [2, None, None], ns("NO_N")
assert ns("IGNORE_N") == [2, None], ns("IGNORE_N")
assert ns("PLAIN_OFF") == [None, None], ns("PLAIN_OFF")
print("ok: n refused, ignored and off")
PY

# --- a command generator that answers nothing ---------------------------
"$ASSAY" --db "$T/off.db" generate --where task=t/off --command 'printf "\n\n"' \
    --model blank-1 --no-verify >"$T/blank.out" 2>"$T/blank.err"
expect_eq "an empty command answer: exit" $? 1
grep -q "t/off: empty answer (finish_reason none): no candidate" "$T/blank.err" ||
    fail "blank: $(cat "$T/blank.err")"
expect_eq "candidates from an empty answer" \
    "$("$ASSAY" --db "$T/off.db" list --json --where origin=blank-1 | wc -l | tr -d ' ')" 0
if grep -a -r -q -- "$KEY" "$T"/*.db "$T"/*.json "$T"/*.err; then
	fail "the API key leaked"
fi
echo "196: ok"
