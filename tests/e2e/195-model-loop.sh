# 195 - the model in the loop: generate and repair through a command
# generator (a deterministic script) and through a chat-completions
# server on 127.0.0.1 that misbehaves on purpose; the API key never
# reaches the database, the logs or an export.
. "$(dirname "$0")/lib.sh"
need_data
command -v python3 >/dev/null || skip "no python3 for the test's model"
M=$(cd "$(dirname "$0")/model" && pwd)

# Three real failing RTLFixer rows of three tasks.
python3 - "$DATA/rtlfixer/verilogeval-syntax.jsonl" "$T" <<'PY' || fail "make rows"
import json, sys
src, t = sys.argv[1], sys.argv[2]
rows = [json.loads(l.replace("NaN", "null")) for l in open(src)]
want = ["2012_q2b", "2012_q2fsm", "2013_q2bfsm"]
picked, answers = [], {}
for tid in want:
    r = next(r for r in rows if r["task_id"] == tid)
    picked.append(r)
    good = r["prompt"] + r["canonical_solution"]
    wrong = r["prompt"] + "endmodule\n"
    fenced = ["Here is the fixed module (try %d):\n```verilog\n%s```\n" % (k, good)
              for k in range(3)]
    marker = r["detail_description"].strip()[:60]
    answers[marker] = {"2012_q2b": [wrong, good],
                       "2012_q2fsm": [wrong, wrong, good],
                       "2013_q2bfsm": fenced}[tid]
with open(t + "/rows.jsonl", "w") as f:
    for r in picked:
        f.write(json.dumps(r) + "\n")
json.dump(answers, open(t + "/answers.json", "w"))
PY
export FIXER_ANSWERS=$T/answers.json FIXER_LOG=$T/fixer.log
FIX="python3 $M/fixer.py"

"$ASSAY" --db "$DB" import --format rtlfixer "$T/rows.jsonl" >/dev/null ||
    fail "import"
"$ASSAY" --db "$DB" verify --quiet >/dev/null || fail "verify"
expect_eq "failing rows" "$(count 'verdict=fail')" 3

# Bad usage is exit 2 with the reason.
"$ASSAY" --db "$DB" repair --rounds 2 2>"$T/err" && fail "no generator"
grep -q "no generator" "$T/err" || fail "no generator message: $(cat "$T/err")"
"$ASSAY" --db "$DB" repair --rounds 0 --command true 2>/dev/null
expect_eq "--rounds 0 exit" $? 2

# Two rounds: 2012_q2b is repaired at once, 2012_q2fsm in round 2,
# 2013_q2bfsm answers in fences every time and stays a format failure.
"$ASSAY" --db "$DB" repair --rounds 2 --command "$FIX" --model fixer-1 \
    >"$T/repair.out" 2>&1 || fail "repair: $(cat "$T/repair.out")"
cat "$T/repair.out"
grep -q "repair round 1: asked 3, stored 3 new" "$T/repair.out" ||
    fail "round 1 summary"
grep -q "repair round 2: asked 2, stored 2 new" "$T/repair.out" ||
    fail "round 2 summary"
expect_eq "model repairs" "$(count 'origin=fixer-1 kind=repair')" 5
expect_eq "passing repairs" "$(count 'origin=fixer-1 verdict=pass')" 2
expect_eq "fenced answers are format failures" \
    "$(count 'origin=fixer-1 category=format')" 2
expect_eq "requests made" "$(wc -l <"$T/fixer.log" | tr -d ' ')" 5

# The round-2 request of 2012_q2fsm carries both rounds' feedback.
python3 - "$T/fixer.log" <<'PY' || fail "round-2 conversation"
import json, sys
reqs = [json.loads(l) for l in open(sys.argv[1])]
two = [r for r in reqs if sum(m["role"] == "assistant" for m in r["messages"]) == 2]
assert len(two) == 2, len(two)
for r in two:
    roles = [m["role"] for m in r["messages"]]
    assert roles == ["system", "user", "assistant", "user", "assistant", "user"], roles
    fb1, fb2 = r["messages"][3]["content"], r["messages"][5]["content"]
    assert "The toolchain" in fb1 and "The toolchain" in fb2, (fb1, fb2)
    assert "Fix the code" in fb2
print("ok: round-2 requests hold the whole conversation")
PY

# What produced each repair is stored with it, and journalled.
id=$("$ASSAY" --db "$DB" list --json --where 'origin=fixer-1 verdict=pass' |
    head -n 1 | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
"$ASSAY" --db "$DB" show --json "$id" >"$T/show.json" || fail "show"
python3 - "$T/show.json" <<'PY' || fail "generation record"
import json, sys
o = json.load(open(sys.argv[1]))
g = o["generation"]
assert g["model"] == "fixer-1" and g["generator"] == "command", g
assert g["round"] in (1, 2), g
assert g["request"][0]["role"] == "system", g["request"][0]
assert g["answer"].startswith("module top_module"), g["answer"][:40]
# The decision layer's rule (decide_repair_make): the person who ran the
# loop is the journal's who, the model its origin, named in the detail.
ev = [e for e in o["events"] if e["action"] == "repair"]
assert len(ev) == 1, o["events"]
assert ev[0]["who"] == "tester", ev[0]
assert ev[0]["detail"] == "repair of %s by fixer-1" % o["parent"], ev[0]
assert o["origin"] == "fixer-1" and o["kind"] == "repair", o
print("ok: request, answer and round stored; journalled")
PY

# A second run goes on from the newest repairs: only 2013_q2bfsm's chain is
# still failing, and it gets one more round.
"$ASSAY" --db "$DB" repair --command "$FIX" --model fixer-1 >"$T/again.out" ||
    true
grep -q "repair round 1: asked 1," "$T/again.out" ||
    fail "resume: $(cat "$T/again.out")"

# generate: two samples of one task, the same fenced answer twice.
"$ASSAY" --db "$DB" generate --where task=rtlfixer/2013_q2bfsm --samples 2 \
    --command "$FIX" --model fixer-1 --json >"$T/gen.json" ||
    fail "generate: $(cat "$T/gen.json")"
grep -q '"asked":2' "$T/gen.json" || fail "generate asked: $(cat "$T/gen.json")"
grep -q '"added":1' "$T/gen.json" || fail "generate added"
grep -q '"same_code":1' "$T/gen.json" || fail "generate same code"
expect_eq "direct model candidates" "$(count 'origin=fixer-1 kind=direct')" 1

# stats: per model, the direct candidates and the repairs per round.
"$ASSAY" --db "$DB" stats --generation --format json >"$T/gstats.json" ||
    fail "stats --generation"
python3 - "$T/gstats.json" <<'PY' || fail "stats --generation figures"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
assert [r["model"] for r in rows] == ["fixer-1"], rows
r = rows[0]
# the same fenced answer twice: two samples of one candidate
assert r["generated"] == 2 and r["passed"] == 0, r
assert r["repairs"][0] == {"round": 1, "tried": 3, "passed": 1}, r["repairs"]
assert r["repairs"][1] == {"round": 2, "tried": 2, "passed": 1}, r["repairs"]
print("ok: stats --generation counts repairs per round")
PY
"$ASSAY" --db "$DB" stats --by model | grep -q "repair r1" ||
    fail "stats --by model shows the models' table"

# pass@k over the samples drawn (issue 25 item 5): five samples of one
# task, four of them the same failing code and one passing.  Two
# candidates are stored, five attempts recorded: pass@1 is
# 1 - C(4,1)/C(5,1) = 0.2 (counting distinct code gave 0.5) and five
# requests were sent (counting candidates gave 2).
python3 - "$T/rows.jsonl" "$T" <<'PY' || fail "sampler answers"
import json, sys
r = [json.loads(l) for l in open(sys.argv[1])][0]
open(sys.argv[2] + "/good.v", "w").write(r["prompt"] + r["canonical_solution"])
open(sys.argv[2] + "/bad.v", "w").write(r["prompt"] + "endmodule\n")
PY
cat >"$T/sampler.py" <<'PY'
import json, os, sys
json.load(sys.stdin)
path = os.environ["SAMPLER_COUNT"]
n = int(open(path).read()) if os.path.exists(path) else 0
open(path, "w").write(str(n + 1))
sys.stdout.write(open(os.environ["SAMPLER_DIR"] + ("/good.v" if n == 2 else "/bad.v")).read())
PY
SAMPLER_COUNT=$T/sampler.n SAMPLER_DIR=$T "$ASSAY" --db "$DB" generate \
    --where task=rtlfixer/2012_q2b --samples 5 --jobs 1 \
    --command "python3 $T/sampler.py" --model sampler-1 --json \
    >"$T/sampler.json" 2>"$T/sampler.err" ||
    fail "generate --samples 5: $(cat "$T/sampler.err")"
grep -q '"asked":5,"added":2,"same_code":3' "$T/sampler.json" ||
    fail "five samples, two codes: $(cat "$T/sampler.json")"
expect_eq "sampler candidates" "$(count 'origin=sampler-1')" 2
"$ASSAY" --db "$DB" stats --generation --format json \
    --where origin=sampler-1 >"$T/pk.json" || fail "stats --generation"
python3 - "$T/pk.json" <<'PY' || fail "pass@k over samples: $(cat "$T/pk.json")"
import json, sys
r = [json.loads(l) for l in open(sys.argv[1])]
assert [x["model"] for x in r] == ["sampler-1"], r
r = r[0]
assert r["generated"] == 5 and r["passed"] == 1 and r["tasks"] == 1, r
assert abs(r["pass@1"] - 0.2) < 1e-9, r["pass@1"]
# k = 5 samples of the task: one passes among them
assert r["pass@k"] == {"k": 5, "value": 1.0}, r["pass@k"]
assert r["requests"] == 5 and r["failed_requests"] == 0, r
print("ok: pass@1 0.2 over five samples with duplicates, 5 requests")
PY

# A model that hands back the failed code: no repair is stored, and
# --json prints one object on stdout whatever verify says.
orig2=$("$ASSAY" --db "$DB" list --json --where 'task=rtlfixer/2012_q2b kind=direct origin!=fixer-1' |
    head -n 1 | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
cat >"$T/echo.py" <<'PY'
import json, sys
msgs = json.load(sys.stdin)["messages"]
sys.stdout.write([m for m in msgs if m["role"] == "assistant"][-1]["content"])
PY
"$ASSAY" --db "$DB" repair "$orig2" --command "python3 $T/echo.py" \
    --model echo-1 --json >"$T/echo.json" 2>"$T/echo.err" ||
    fail "echo repair: $(cat "$T/echo.err")"
expect_eq "echo repair: one line on stdout" "$(wc -l <"$T/echo.json" | tr -d ' ')" 1
python3 - "$T/echo.json" <<'PY' || fail "echo repair json: $(cat "$T/echo.json")"
import json, sys
o = json.load(open(sys.argv[1]))
assert o["command"] == "repair" and o["added"] == 0, o
assert o["rounds"][0]["same_code"] == 1, o
print("ok: the failed code handed back is no repair")
PY
expect_eq "no echo repair stored" "$(count 'origin=echo-1')" 0

# A command that fails is a clear error, nothing stored.
"$ASSAY" --db "$DB" generate --where task=rtlfixer/2013_q2bfsm --command \
    'echo boom >&2; exit 3' --model broken >"$T/out" 2>"$T/err"
expect_eq "failed command exit" $? 1
grep -q "command exited 3: boom" "$T/err" || fail "command error: $(cat "$T/err")"
expect_eq "nothing from a failed command" "$(count 'origin=broken')" 0

# A person's repair from a file, headless.
orig=$("$ASSAY" --db "$DB" list --json --where 'task=rtlfixer/2013_q2bfsm kind=direct origin!=fixer-1' |
    head -n 1 | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
python3 -c 'import json,sys; r=[json.loads(l) for l in open(sys.argv[1])][2]; print(r["prompt"]+r["canonical_solution"])' \
    "$T/rows.jsonl" >"$T/fix.v"
"$ASSAY" --db "$DB" --reviewer alice repair "$orig" --file - --verify <"$T/fix.v" \
    >"$T/hand.out" || fail "repair --file: $(cat "$T/hand.out")"
expect_eq "alice's repair passes" \
    "$(count "origin=alice parent=$orig verdict=pass")" 1

# Imported names with control characters are refused at import with
# FILE:LINE (docs/formats.md), and the message itself is escaped: an
# escape sequence in a benchmark or env name cannot drive the terminal,
# a newline in an origin cannot start a row.  Nothing of the file is kept.
printf '%s\n' '{"task": {"id": "t/esc", "domain": "chip", "benchmark": "b\u001b]0;PWN\u0007", "env": "iverilog\u001b[2J", "spec": "x", "files": {}}, "candidate": {"id": "c-esc1", "origin": "m\nAssay-Verdict: pass", "code": "module x; endmodule"}}' \
    >"$T/esc.jsonl"
"$ASSAY" --db "$T/esc.db" import "$T/esc.jsonl" >"$T/esc.out" 2>"$T/esc.err" &&
    fail "a benchmark name with an escape sequence was imported"
grep -q 'esc.jsonl:1: ' "$T/esc.err" || fail "no FILE:LINE: $(cat "$T/esc.err")"
if grep -q "$(printf '\033')" "$T/esc.out" "$T/esc.err"; then
	fail "an escape sequence reached the terminal"
fi
"$ASSAY" --db "$T/esc.db" list --json >"$T/esc.list" 2>/dev/null
expect_eq "rows kept from the refused file" "$(wc -l <"$T/esc.list" | tr -d ' ')" 0

# --- HTTP: a chat-completions server on 127.0.0.1 ----------------------
KEY="sk-test-$$-canary-key"
printf 'module top_module(output y); assign y = 1; endmodule\n' >"$T/answer.v"
cat >"$T/tasks.jsonl" <<'J'
{"task": {"id": "t/rate", "domain": "chip", "benchmark": "http", "env": "iverilog", "spec": "RATE limited task", "files": {}}}
{"task": {"id": "t/slow", "domain": "chip", "benchmark": "http", "env": "iverilog", "spec": "SLOW task", "files": {}}}
{"task": {"id": "t/broken", "domain": "chip", "benchmark": "http", "env": "iverilog", "spec": "BROKEN task", "files": {}}}
{"task": {"id": "t/other", "domain": "chip", "benchmark": "http", "env": "iverilog", "spec": "OTHER task", "files": {}}}
J
"$ASSAY" --db "$T/http.db" import "$T/tasks.jsonl" >/dev/null || fail "import tasks"
SERVER_KEY=$KEY SERVER_LOG=$T/server.log SERVER_ANSWER=$T/answer.v \
    python3 "$M/chat_server.py" >"$T/port" 2>"$T/server.err" &
spid=$!
trap 'kill $spid 2>/dev/null; [ -n "${KEEP_T:-}" ] || rm -rf "$T"' EXIT
for i in 1 2 3 4 5 6 7 8 9 10; do [ -s "$T/port" ] && break; sleep 0.5; done
port=$(cat "$T/port")
[ -n "$port" ] || fail "server did not start: $(cat "$T/server.err")"
export TEST_API_KEY=$KEY
"$ASSAY" --db "$T/http.db" generate --endpoint "http://127.0.0.1:$port/v1" \
    --model tiny-coder --api-key-env TEST_API_KEY --temperature 0.2 \
    --timeout 3 --retries 1 --no-verify --json >"$T/http.out" 2>"$T/http.err"
expect_eq "http generate exit (two requests fail)" $? 1
cat "$T/http.out" "$T/http.err"
grep -q '"asked":4' "$T/http.out" || fail "asked 4"
grep -q '"added":2' "$T/http.out" || fail "RATE (after a 429) and OTHER stored"
grep -q '"failed":2' "$T/http.out" || fail "SLOW and BROKEN failed"
grep -q '"prompt_tokens":84' "$T/http.out" || fail "usage summed"
# the 429 that was retried shows (issue 24, H: retries never showed)
grep -q '"retried":1' "$T/http.out" || fail "the retried request is not counted"
expect_eq "stored from the server" "$("$ASSAY" --db "$T/http.db" list --json --where origin=tiny-coder | wc -l | tr -d ' ')" 2
expect_eq "rate-limited task answered" "$("$ASSAY" --db "$T/http.db" list --json --where 'origin=tiny-coder task=t/rate' | wc -l | tr -d ' ')" 1
# The server saw the key, model, temperature; 429 was retried.
python3 - "$T/server.log" "$KEY" <<'PY' || fail "server log"
import json, sys
reqs = [json.loads(l) for l in open(sys.argv[1])]
assert all(r["auth"] == "Bearer " + sys.argv[2] for r in reqs), reqs
bodies = [json.loads(r["body"]) for r in reqs]
assert all(b["model"] == "tiny-coder" and b["temperature"] == 0.2 for b in bodies)
rate = [b for b in bodies if "RATE" in b["messages"][1]["content"]]
assert len(rate) == 2, len(rate)
print("ok: bearer key, model, temperature sent; 429 retried")
PY
grep -q "timed out after 3 s" "$T/http.err" || grep -q "timed out" "$T/http.err" ||
    fail "timeout error"
# The key is nowhere assay writes.
"$ASSAY" --db "$T/http.db" export --format raw >"$T/raw.jsonl" || fail "export"
"$ASSAY" --db "$T/http.db" export --format sft --where status!=rejected \
    >"$T/sft.jsonl" || fail "export sft"
if grep -a -r -q "$KEY" "$T/http.db" "$T/raw.jsonl" "$T/sft.jsonl" \
    "$T/http.out" "$T/http.err" "$DB"; then
	fail "the API key leaked"
fi
echo "ok: the API key is in no database, output or export"
grep -q '"generation"' "$T/raw.jsonl" || fail "raw export keeps the generation record"

# --- issue 22 item 7: an endpoint that echoes the key -------------------
# ECHO answers with the Authorization header in a comment above the
# module, ECHOERR with a 400 whose message quotes it; a command
# generator prints the key it was given.  No answer that holds the key
# is stored (each is a failed request whose error shows it redacted),
# and nothing assay writes or prints holds it.  (A run log that would
# show it is redacted: unit test_service.)
cat >"$T/echo-tasks.jsonl" <<J
{"task": {"id": "t/echo", "domain": "chip", "benchmark": "http", "env": "iverilog", "spec": "ECHO task", "files": {}}}
{"task": {"id": "t/echoerr", "domain": "chip", "benchmark": "http", "env": "iverilog", "spec": "ECHOERR task", "files": {}}}
J
"$ASSAY" --db "$T/echo.db" import "$T/echo-tasks.jsonl" >/dev/null || fail "import echo tasks"
"$ASSAY" --db "$T/echo.db" generate --endpoint "http://127.0.0.1:$port/v1" \
    --model tiny-coder --api-key-env TEST_API_KEY --temperature 0.2 \
    --timeout 10 --retries 0 --no-verify --json >"$T/echo.out" 2>"$T/echo.err"
expect_eq "echo generate exit (both refused)" $? 1
cat "$T/echo.out" "$T/echo.err"
grep -q '"asked":2' "$T/echo.out" || fail "echo: asked 2"
grep -q '"added":0' "$T/echo.out" || fail "echo: an answer holding the key was stored"
grep -q '"failed":2' "$T/echo.out" || fail "echo: both failed"
grep -q "t/echo: the answer holds the API key of TEST_API_KEY (1 time, redacted); not stored" \
    "$T/echo.err" || fail "echo: the reason"
grep -q "t/echoerr: HTTP 400: bad request; you sent Authorization: Bearer \[redacted\]" \
    "$T/echo.err" || fail "echoerr: the redacted error"
expect_eq "candidates from echoing answers" \
    "$("$ASSAY" --db "$T/echo.db" list --json --where origin=tiny-coder | wc -l | tr -d ' ')" 0
# A command generator that prints the key it was handed.
"$ASSAY" --db "$T/echo.db" generate --api-key-env TEST_API_KEY \
    --command 'printf "module top_module(output y); // %s\n  assign y = 1;\nendmodule\n" "$TEST_API_KEY"' \
    --model cmd-echo --no-verify >"$T/cmd.out" 2>"$T/cmd.err"
expect_eq "command echo exit" $? 1
grep -q "holds the API key of TEST_API_KEY" "$T/cmd.err" || fail "command echo: $(cat "$T/cmd.err")"
expect_eq "candidates from the echoing command" \
    "$("$ASSAY" --db "$T/echo.db" list --json --where origin=cmd-echo | wc -l | tr -d ' ')" 0
"$ASSAY" --db "$T/echo.db" export --format raw >"$T/echo-raw.jsonl" || fail "export echo db"
if grep -a -r -q -- "$KEY" "$T/echo.db"* "$T/echo.out" "$T/echo.err" "$T/cmd.out" \
    "$T/cmd.err" "$T/echo-raw.jsonl"; then
	fail "the API key reached the database, the terminal or an export"
fi
echo "ok: an echoed key is refused, redacted where shown, stored nowhere"
# Two failed candidates of one task answered with the same code (issue
# 24, H): the second answer is that candidate, a repair of the first
# parent; --show names each answer with the candidate it was asked for,
# never the stored candidate's own parent.
if command -v iverilog >/dev/null 2>&1; then
	python3 - "$DATA/rtlfixer/verilogeval-syntax.jsonl" "$T" <<'PY' || fail "same-code rows"
import json, sys
rows = [json.loads(l.replace("NaN", "null")) for l in open(sys.argv[1])]
a = [r for r in rows if r["task_id"] == "2012_q2b"][:2]
open(sys.argv[2] + "/same.jsonl", "w").write("".join(json.dumps(r) + "\n" for r in a))
good = a[0]["prompt"] + a[0]["canonical_solution"]
json.dump({a[0]["detail_description"].strip()[:60]: [good]},
          open(sys.argv[2] + "/same.json", "w"))
PY
	"$ASSAY" --db "$T/same.db" import --format rtlfixer "$T/same.jsonl" >/dev/null ||
	    fail "import same"
	"$ASSAY" --db "$T/same.db" verify --quiet >/dev/null
	"$ASSAY" --db "$T/same.db" list --json --where verdict=fail |
	    python3 -c 'import json, sys; [print(json.loads(l)["id"]) for l in sys.stdin]' \
	    >"$T/same.ids"
	expect_eq "failed candidates of 2012_q2b" "$(wc -l <"$T/same.ids" | tr -d ' ')" 2
	FIXER_ANSWERS=$T/same.json "$ASSAY" --db "$T/same.db" repair --show \
	    --jobs 1 --command "$FIX" --model same-1 --no-verify >"$T/same.out" 2>&1 ||
	    fail "repair same: $(cat "$T/same.out")"
	for p in $(cat "$T/same.ids"); do
		grep -q -- "--- answer: c[0-9a-f]*, repair of $p" "$T/same.out" ||
		    fail "no answer shown as a repair of $p: $(cat "$T/same.out")"
	done
	grep -q "(the same code as before)" "$T/same.out" ||
	    fail "the repeated answer is not said to repeat"
	echo "ok: each answer is shown under the candidate it was asked for"
fi
echo "195: ok"
