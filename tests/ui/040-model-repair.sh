# 040-model-repair.sh - issue 15, "In the workbench": R asks the
# generator of the config file for a repair of the current candidate;
# the feedback sent and the answer show in the toolchain pane, the
# answer is verified there at once, the workbench selects it, and the
# trace shows the round.  The model is a deterministic script
# (tests/e2e/model/fixer.py) that answers the task's canonical solution.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || skip "no python3 for the test's model"
M=$(cd "$(dirname "$0")/../e2e/model" && pwd)

python3 - "$DATA/rtlfixer/verilogeval-syntax.jsonl" "$T" <<'PY' || fail "rows"
import json, sys
rows = [json.loads(l.replace("NaN", "null")) for l in open(sys.argv[1])]
r = next(r for r in rows if r["task_id"] == "2012_q2b")
open(sys.argv[2] + "/rows.jsonl", "w").write(json.dumps(r) + "\n")
good = r["prompt"] + r["canonical_solution"]
json.dump({r["detail_description"].strip()[:60]: [good, good]},
          open(sys.argv[2] + "/answers.json", "w"))
PY
"$ASSAY" --db "$DB" import --format rtlfixer "$T/rows.jsonl" >/dev/null ||
    fail "import"
"$ASSAY" --db "$DB" verify --quiet >/dev/null || fail "verify"
ID=$("$ASSAY" --db "$DB" list --json | json_field id)
mkdir -p "$HOME/.config/assay"
cat >"$HOME/.config/assay/config" <<CFG
generator command FIXER_ANSWERS=$T/answers.json python3 $M/fixer.py
generator model fixer-ui
CFG

start 120 36
wait_for "1/1"
keys R
wait_for "by the model: pass" 60
REP=$("$ASSAY" --db "$DB" list --json --where "parent=$ID" | json_field id)
[ -n "$REP" ] || fail "no repair of $ID"
R=$(row "$REP")
[ "$(echo "$R" | json_field origin)" = fixer-ui ] || fail "origin: $R"
[ "$(echo "$R" | json_field verdict)" = pass ] || fail "verdict: $R"
ok "R made repair $REP of $ID, verified: pass"
screen | grep -q "$REP" || fail "the workbench does not show $REP"
# the pane showed what was asked and answered
pane toolchain | grep -q "repair round 1: asked 1, stored 1 new" ||
    fail "the pane lacks the repair's summary"
pane toolchain | grep -q "$REP pass" || fail "the pane lacks the verification"
pane trace | grep -q "$REP" || fail "the trace lacks the repair"
# the request's start scrolled up: it is in the pane's scrollback
keys Tab Tab Tab
keys g
wait_for "asking fixer-ui to repair $ID" 10
ok "the toolchain pane showed the request and the answer verified; the trace shows the round"
keys q
wait_for "ASSAY-EXIT 0"
