# 197 - the generator against an OpenAI-compatible server that is not
# ours (issue 25 item 7): LLMock 0.2.2 from PyPI, pinned in the project
# venv (scripts/venv-requirements.txt), on 127.0.0.1.  Its scripted
# replies (POST /_llmock/scenario), its request journal (GET
# /_llmock/requests) and its resilience verdict (GET /_llmock/verdict)
# say what assay sent and how it retried:
# - --samples 3 is one request with n=3 and max_completion_tokens (the
#   config's choice); the three choices come back, are stored (one new,
#   the same code twice), verified (pass), and the record holds the
#   served model, the response id, the usage and its cost at the config's
#   price;
# - a 429 with retry-after: 1 and retry-after-ms: 300 is retried after
#   about 0.3 s, and LLMock's verdict finds no fault in the retry;
# - an empty answer with finish_reason "length" makes no candidate and
#   exit status 1.
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null || skip "no jq"
command -v iverilog >/dev/null || skip "iverilog not installed"
VENV=${ASSAY_VENV:-$(cd "$(dirname "$ASSAY")" && pwd)/venv}
PY=$VENV/bin/python3
[ -x "$PY" ] && "$PY" -c 'import llmock' 2>/dev/null ||
	skip "no LLMock in the project venv $VENV (make deps)"

# A free loopback port, then the server on it alone (no network beyond).
port=$("$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$PY" -m llmock.cli serve --host 127.0.0.1 --port "$port" --response-style static \
    --tool-mode off --log-level warning >"$T/llmock.out" 2>&1 &
spid=$!
trap 'kill $spid 2>/dev/null; [ -n "${KEEP_T:-}" ] || rm -rf "$T"' EXIT
api() {	# api METHOD PATH [JSON]: the admin API, the answer on stdout
	"$PY" - "$port" "$@" <<'PY'
import json, sys, urllib.request
port, method, path = sys.argv[1:4]
data = sys.argv[4].encode() if len(sys.argv) > 4 else None
req = urllib.request.Request("http://127.0.0.1:%s%s" % (port, path), data=data, method=method,
                             headers={"Content-Type": "application/json"})
print(urllib.request.urlopen(req, timeout=10).read().decode())
PY
}
i=0
until api GET /v1/models >/dev/null 2>&1; do
	i=$((i + 1)); [ $i -lt 60 ] || fail "LLMock did not start: $(tail -n 5 "$T/llmock.out")"
	sleep 0.5
done
echo "ok: LLMock $("$PY" -c 'import importlib.metadata as m; print(m.version("llmock"))') on 127.0.0.1:$port"

GOOD='module TopModule(output y); assign y = 1; endmodule'
TB='module tb; wire y; TopModule dut(.y(y)); initial begin #1; if (y !== 1) $display(\"Mismatches: 1 in 1 samples\"); else $display(\"Mismatches: 0 in 1 samples\"); $finish; end endmodule'
export XDG_CONFIG_HOME=$T/cfg
mkdir -p "$T/cfg/assay"
cat >"$T/cfg/assay/config" <<CFG
generator endpoint http://127.0.0.1:$port/v1
generator temperature 0
generator max-tokens 128
generator max-tokens-param max_completion_tokens
generator timeout 10
generator retries 2
generator price coder-a 1.00 0.50 4.00
CFG
# one NAME MODEL SAMPLES: a database with one task, generate for it.
one() {
	printf '{"task": {"id": "t/%s", "domain": "chip", "benchmark": "llmock", "env": "iverilog", "spec": "Drive y high.", "interface": "module TopModule(output y);", "files": {"test.sv": "%s"}}}\n' \
	    "$1" "$TB" >"$T/$1.jsonl"
	"$ASSAY" --db "$T/$1.db" import "$T/$1.jsonl" >/dev/null || fail "import $1"
	"$ASSAY" --db "$T/$1.db" generate --model "$2" --samples "$3" --json \
	    >"$T/$1.json" 2>"$T/$1.err"
}

# --- n choices of one scripted reply --------------------------------------
api POST /_llmock/scenario "{\"behaviors\": [{\"type\": \"reply\", \"text\": \"$GOOD\n\", \"match\": {\"model\": \"coder-a\"}}]}" >/dev/null ||
    fail "scenario a"
one a coder-a 3 || fail "generate a: $(cat "$T/a.err")"
cat "$T/a.json"
expect_eq "a: asked, requests, added, same code, failed, passed" \
    "$(jq -c '[.asked, .requests, .added, .same_code, .failed, .passed]' "$T/a.json")" "[3,1,1,2,0,3]"
api GET /_llmock/requests >"$T/journal.json" || fail "journal"
expect_eq "a: what LLMock received" \
    "$(jq -c '[.requests[] | select(.model == "coder-a") | .body | [.n, .max_completion_tokens, has("max_tokens"), .temperature]]' "$T/journal.json")" \
    "[[3,128,false,0]]"
id=$("$ASSAY" --db "$T/a.db" list --json | jq -r .id)
"$ASSAY" --db "$T/a.db" show --json "$id" >"$T/a.show" || fail "show a"
expect_eq "a: served model and response id" \
    "$(jq -r '.generation | [.served_model, (.response_id | test("^chatcmpl-[0-9a-f]+$"))] | @tsv' "$T/a.show")" \
    "$(printf 'coder-a\ttrue')"
# LLMock counts tokens as characters / 4; the cost is the config's price
# of the usage it reported: 1 USD per million prompt tokens, 4 per
# million completion tokens.
jq -e '.generation | .usage.prompt_tokens >= 0 and .usage.completion_tokens > 0 and
    (.cost_usd - (.usage.prompt_tokens * 1 + .usage.completion_tokens * 4) / 1e6 | fabs) < 1e-12' \
    "$T/a.show" >/dev/null || fail "a: usage and cost: $(jq -c .generation.usage "$T/a.show") $(jq .generation.cost_usd "$T/a.show")"
echo "ok: a: usage $(jq -c .generation.usage "$T/a.show"), cost $(jq .generation.cost_usd "$T/a.show") USD"

# --- 429, retry-after: 1 and retry-after-ms: 300 ----------------------------
api POST /_llmock/scenario "{\"behaviors\": [{\"type\": \"fail\", \"status\": 429, \"retry_after\": 0.3, \"match\": {\"model\": \"coder-b\"}}, {\"type\": \"reply\", \"text\": \"$GOOD\n\", \"match\": {\"model\": \"coder-b\"}}]}" >/dev/null ||
    fail "scenario b"
one b coder-b 1 || fail "generate b: $(cat "$T/b.err")"
expect_eq "b: added after the 429" "$(jq -c '[.added, .failed]' "$T/b.json")" "[1,0]"
api GET /_llmock/requests >"$T/journal.json" || fail "journal"
jq -r '[.requests[] | select(.model == "coder-b")] | "\(.[0].status) \(.[0].retry_after) \(.[1].status) \(.[1].started_at - .[0].ended_at)"' \
    "$T/journal.json" >"$T/b.gap"
read -r s1 ra s2 gap <"$T/b.gap"
expect_eq "b: statuses" "$s1 $ra $s2" "429 0.3 200"
awk -v g="$gap" 'BEGIN { exit !(g >= 0.28 && g < 0.95) }' ||
    fail "b: retried $gap s after the 429, not after retry-after-ms's 0.3 s"
echo "ok: b: retried $gap s after the 429 (retry-after-ms 300, Retry-After 1)"

# --- an empty answer -----------------------------------------------------
api POST /_llmock/scenario '{"behaviors": [{"type": "reply", "text": "", "finish_reason": "length", "match": {"model": "coder-c"}}]}' >/dev/null ||
    fail "scenario c"
one c coder-c 1
expect_eq "c: exit" $? 1
grep -q "t/c: empty answer (finish_reason length): no candidate; raise max-tokens" "$T/c.err" ||
    fail "c: $(cat "$T/c.err")"
expect_eq "c: candidates" "$("$ASSAY" --db "$T/c.db" list --json | wc -l | tr -d ' ')" 0

# LLMock's own judgement of how assay retried.
api GET /_llmock/verdict >"$T/verdict.json" || fail "verdict"
jq -c '{passed, calls, attempts, faults_injected, errors, warnings}' "$T/verdict.json"
expect_eq "LLMock's verdict: errors, warnings" "$(jq -c '[.errors, .warnings]' "$T/verdict.json")" "[0,0]"
echo "197: ok"
