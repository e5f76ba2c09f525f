# 198: repair --feedback minimal|rich (issue 26 item 5).  Two x86-asm
# candidates that fail as performance (a slower loop, the input copied
# back) are repaired by a deterministic command generator that repairs
# only when the request names the hot lines' numbers (model/hotfix.py):
# with --feedback minimal the request has the verdict, evidence, metrics
# and log without the feedback members, which alone carry the
# bottleneck, the hot lines and the counterexample, and both repairs fail
# again; with --feedback rich (the default) it names them and both pass.  The generation record keeps the
# level, the rich chains start again from the failed candidates (the
# same tasks and round), and stats --generation --by feedback shows the
# two rows: minimal 0/2, rich 2/2 in round 1.
. "$(dirname "$0")/lib.sh"
[ "$(uname -m)" = x86_64 ] || skip "x86-asm needs an x86-64 host"
command -v gcc >/dev/null || skip "gcc not installed"
command -v valgrind >/dev/null || skip "valgrind not installed: no hot lines"
command -v python3 >/dev/null || skip "no python3 for the test's model"
M=$(cd "$(dirname "$0")/model" && pwd)
EX=$(cd "$(dirname "$0")/../../examples/compiler" && pwd)

"$ASSAY" --db "$DB" import "$EX/max_u8.jsonl" "$EX/sum_i32.jsonl" \
    >/dev/null || fail "import"
# The fix is the task's reference with a line of its own (a new
# candidate, not the reference again; max_u8's model-a needs SSE4.1); "again" is the failed code with
# a comment, which fails as it did.
python3 - "$EX" "$T" <<'PY' || fail "make answers"
import json, sys
ex, t = sys.argv[1], sys.argv[2]
answers = {}
# hot: the hot lines callgrind finds (counted for n = 4096: max_u8's
# 32-step countdown on lines 16 and 17, sum_i32's model-d spread evenly,
# 4097 on each of 24, 25 and 26).
for name, bad, marker, hot in (("max_u8", "model-c", "maxu8", [16, 17]),
                               ("sum_i32", "model-d", "int64_t sum(",
                                [24, 25, 26])):
    code = {}
    for line in open("%s/%s.jsonl" % (ex, name)):
        o = json.loads(line)
        c, task = o.get("candidate"), o.get("task")
        if isinstance(c, dict):
            code[c["origin"]] = c["code"]
        elif isinstance(task, dict):
            ref = task["reference"]
            code["reference"] = ref["code"] if isinstance(ref, dict) else ref
    answers[marker] = {"fix": code["reference"] + "# repaired\n",
                       "again": code[bad] + "# tried again\n",
                       "hot": hot}
json.dump(answers, open(t + "/answers.json", "w"))
PY
export HOTFIX_ANSWERS=$T/answers.json HOTFIX_LOG=$T/requests.log
GEN="python3 $M/hotfix.py"

"$ASSAY" --db "$DB" verify --quiet --where \
    "origin=model-c task=assay-examples/max_u8" >/dev/null
"$ASSAY" --db "$DB" verify --quiet --where \
    "origin=model-d task=assay-examples/sum_i32" >/dev/null
expect_eq "performance failures" "$(count 'category=performance')" 2
ids=$("$ASSAY" --db "$DB" list --json --where category=performance |
    python3 -c 'import json,sys; print(" ".join(json.loads(l)["id"] for l in sys.stdin))')

# A performance failure marks its hot lines (show --json): max_u8's
# model-c spends its time in the 32-step countdown of lines 16 and 17
# (131072 instructions each, counted by callgrind for n = 4096).
slow=$("$ASSAY" --db "$DB" list --json --where \
    "origin=model-c task=assay-examples/max_u8" |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
"$ASSAY" --db "$DB" show --json "$slow" >"$T/slow.json" || fail "show"
python3 - "$T/slow.json" <<'PY' || fail "hot lines in show --json"
import json, sys
r = json.load(open(sys.argv[1]))["runs"][-1]
fb = r["feedback"]
hot = fb["hot_lines"]
assert [(h["line"], h["count"]) for h in hot["lines"][:2]] == \
    [(16, 131072), (17, 131072)], hot
assert hot["instructions"] > 262144 and hot["reference"], hot
assert abs(sum(h["share"] for h in hot["lines"][:2]) - 262144 /
           hot["instructions"]) < 0.001, hot
assert hot["text"].splitlines()[1] == "line 16: 131072 (%.1f %%)" % (
    100 * 131072 / hot["instructions"]), hot["text"]
assert fb["bottleneck"]["text"].startswith("lines 16 and 17 run 88 %"), fb
# The bottleneck is the member's alone: the evidence is the verdict's.
assert "bottleneck" not in r["evidence"], r["evidence"]
assert r["evidence"].startswith("correct but slower than the reference: "), r
assert fb["bottleneck"]["line"] == 16 and not r["evidence_line"], r
assert "hot cand" not in r["log"] and "feedback members" in r["log"], r["log"]
print("ok: hot lines 16 and 17, the bottleneck a member, not in the log")
PY

# A bad level is bad usage.
"$ASSAY" --db "$DB" repair --feedback some --command "$GEN" \
    --model hotfix 2>"$T/err"
expect_eq "--feedback some exit" $? 2
grep -q "neither rich nor minimal" "$T/err" || fail "bad level: $(cat "$T/err")"
"$ASSAY" --db "$DB" stats --by feedback >/dev/null 2>"$T/err"
expect_eq "--by feedback without --generation exit" $? 2

"$ASSAY" --db "$DB" repair --feedback minimal $ids \
    --command "$GEN" --model hotfix >"$T/min.out" 2>&1 ||
    fail "repair minimal: $(cat "$T/min.out")"
expect_eq "minimal requests" "$(wc -l <"$T/requests.log" | tr -d ' ')" 2
# No hot line, bottleneck or checker's count line in a minimal request.
python3 - "$T/requests.log" <<'PY' || fail "minimal requests"
import json, re, sys
for line in open(sys.argv[1]):
    fb = json.loads(line)["messages"][-1]["content"]
    assert not re.search(r"Hot lines|hot (cand|ref) |(?i:bottleneck)|"
                         r"It points at|lines? (1[67]|2[456])\b", fb), fb
    assert "checker lines taken out of the log" in fb, fb
    assert "slower-than-reference" in fb or "copied-input" in fb, fb
print("ok: minimal requests carry neither the hot lines nor the bottleneck")
PY
expect_eq "minimal repairs pass" \
    "$(count 'origin=hotfix kind=repair verdict=pass')" 0

mv "$T/requests.log" "$T/min.log"
"$ASSAY" --db "$DB" repair $ids --command "$GEN" --model hotfix \
    >"$T/rich.out" 2>&1 ||
    fail "repair rich: $(cat "$T/rich.out")"
expect_eq "rich requests" "$(wc -l <"$T/requests.log" | tr -d ' ')" 2
# The same tasks and round: each rich request repairs the first failure.
python3 - "$T/requests.log" <<'PY' || fail "rich requests"
import json, sys
for line in open(sys.argv[1]):
    msgs = json.loads(line)["messages"]
    assert [m["role"] for m in msgs] == ["system", "user", "assistant",
                                         "user"], [m["role"] for m in msgs]
    fb = msgs[-1]["content"]
    assert "Hot lines:" in fb and "Bottleneck:" in fb, fb
    assert "callgrind, one call on the timing input:" in fb, fb
print("ok: rich requests carry the bottleneck and the hot lines")
PY
expect_eq "rich repairs pass" \
    "$(count 'origin=hotfix kind=repair verdict=pass')" 2

# The level is in the generation record.
id=$("$ASSAY" --db "$DB" list --json --where \
    'origin=hotfix kind=repair verdict=pass' | head -n 1 |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
"$ASSAY" --db "$DB" show --json "$id" | python3 -c '
import json, sys
g = json.load(sys.stdin)["generation"]
assert g["feedback"] == "rich" and g["round"] == 1, g' ||
    fail "the generation record lacks the level"

"$ASSAY" --db "$DB" stats --generation --by feedback --format json \
    >"$T/stats.json" || fail "stats"
cat "$T/stats.json"
python3 - "$T/stats.json" <<'PY' || fail "stats by feedback"
import json, sys
rows = {r["feedback"]: r for r in map(json.loads, open(sys.argv[1]))}
assert set(rows) == {"minimal", "rich"}, rows
for level, passed in (("minimal", 0), ("rich", 2)):
    r = rows[level]
    assert r["model"] == "hotfix", r
    assert r["repairs"] == [{"round": 1, "tried": 2, "passed": passed}], r
print("ok: minimal 0/2, rich 2/2")
PY
"$ASSAY" --db "$DB" stats --generation --by feedback >"$T/stats.txt" ||
    fail "stats table"
cat "$T/stats.txt"
grep -q "^hotfix  *minimal .* 0/2 " "$T/stats.txt" || fail "table minimal"
grep -q "^hotfix  *rich .* 2/2 " "$T/stats.txt" || fail "table rich"
echo "198-repair-feedback: ok"
