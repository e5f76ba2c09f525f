# 296 - generation strategies (issue 27 item 2, ADR 0045): a command
# generator answers a `perturb` and a `migrate` request of one chip task
# (Verilog -> SystemVerilog from the reference that passes) and of one
# x86-asm task (C -> assembly from its ref.c); each candidate records its
# strategy and template, the perturbed prompts differ by sample and
# repeat with the seed, and `stats --generation --by strategy` shows
# both strategies with their pass rates.
. "$(dirname "$0")/lib.sh"
need_data
command -v iverilog >/dev/null || skip "iverilog not installed"
command -v python3 >/dev/null || skip "no python3 for the test's generator"

P=$DATA/verilog-eval-v2/Prob041_dff8r
jstr() { sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/\t/\\t/g' -e 's/\r/\\r/g' "$1" | awk 'BEGIN { ORS = "" } { print $0 "\\n" }'; }
sed 's/RefModule/TopModule/' "${P}_ref.sv" > "$T/top.v"
printf '{"task": {"id": "local/dff8r", "benchmark": "local", "domain": "chip", "env": "iverilog", "env_params": {"top": "tb"}, "spec": "8 D flip-flops with an active high synchronous reset.", "interface": "module TopModule(input clk, input [7:0] d, input reset, output reg [7:0] q);", "files": {"test.sv": "%s", "ref.sv": "%s"}, "reference": "%s"}}\n' \
    "$(jstr "${P}_test.sv")" "$(jstr "${P}_ref.sv")" "$(jstr "$T/top.v")" >"$T/task.jsonl"
"$ASSAY" --db "$DB" import "$T/task.jsonl" >/dev/null || fail "import"
"$ASSAY" --db "$DB" import "$(dirname "$0")/../../examples/compiler/sum_i32.jsonl" \
    >/dev/null || fail "import sum_i32"
"$ASSAY" --db "$DB" verify --quiet --where 'task=local/dff8r' >/dev/null || fail "verify"
expect_eq "the reference passes" "$(count 'task=local/dff8r origin=reference verdict=pass')" 1

# The generator: SystemVerilog when asked to migrate from verilog, the
# design in plain Verilog with a comment naming the sample otherwise; an
# x86 request gets the assembly the example's reference is.  It logs
# every request.
cat >"$T/gen.py" <<'PY'
import json, os, sys
req = json.load(sys.stdin)
log = os.environ["GEN_LOG"]
open(log, "a").write(json.dumps(req) + "\n")
user = req["messages"][-1]["content"]
if "global symbol sum" in user or "int64_t sum(" in user:
    sys.stdout.write(open(os.environ["GEN_ASM"]).read())
elif "This verilog implementation is correct" in user:
    sys.stdout.write("module TopModule(input logic clk, input logic [7:0] d,\n"
                     "                 input logic reset, output logic [7:0] q);\n"
                     "  always_ff @(posedge clk)\n"
                     "    q <= reset ? 8'd0 : d;\n"
                     "endmodule\n")
else:
    n = sum(1 for _ in open(log))
    sys.stdout.write("// sample %d\nmodule TopModule(input clk, input [7:0] d, input reset,\n"
                     "                 output reg [7:0] q);\n"
                     "  always @(posedge clk)\n"
                     "    if (reset) q <= 0; else q <= d;\n"
                     "endmodule\n" % n)
PY
"$ASSAY" --db "$DB" list --json --where 'task=assay-examples/sum_i32 origin=reference' |
    python3 -c 'import json,sys; print(json.loads(sys.stdin.readline())["id"])' >"$T/asmref" ||
    fail "the x86 reference"
"$ASSAY" --db "$DB" show --json "$(cat "$T/asmref")" |
    python3 -c 'import json,sys; sys.stdout.write(json.load(sys.stdin)["code"])' >"$T/answer.s"
export GEN_LOG=$T/gen.log GEN_ASM=$T/answer.s
GEN="python3 $T/gen.py"

# Bad usage: migrate wants --from; --from wants migrate; an unknown
# strategy or template name.
"$ASSAY" --db "$DB" generate --strategy migrate --command "$GEN" 2>"$T/err"
expect_eq "migrate without --from" $? 2
grep -q "wants --from LANG" "$T/err" || fail "why: $(cat "$T/err")"
"$ASSAY" --db "$DB" generate --from verilog --command "$GEN" 2>/dev/null
expect_eq "--from without migrate" $? 2
"$ASSAY" --db "$DB" generate --strategy shuffle --command "$GEN" 2>"$T/err"
expect_eq "unknown strategy" $? 2
grep -q "unknown strategy 'shuffle'" "$T/err" || fail "why: $(cat "$T/err")"
"$ASSAY" --db "$DB" generate --template ../x --command "$GEN" 2>/dev/null
expect_eq "a template name with a slash" $? 2
"$ASSAY" --db "$DB" generate --where task=local/dff8r --template nosuch \
    --command "$GEN" --model g-1 --no-verify >/dev/null 2>"$T/err"
expect_eq "no such template" $? 2
grep -q "no template chip/nosuch nor common/nosuch" "$T/err" || fail "why: $(cat "$T/err")"
[ ! -e "$GEN_LOG" ] || fail "a request was sent for bad usage"

# perturb: three samples of the chip task, seed 7.
"$ASSAY" --db "$DB" generate --where task=local/dff8r --strategy perturb \
    --seed 7 --samples 3 --jobs 1 --command "$GEN" --model g-1 --json \
    >"$T/perturb.json" 2>"$T/perturb.err" || fail "perturb: $(cat "$T/perturb.err")"
grep -q '"asked":3,"added":3' "$T/perturb.json" || fail "perturb: $(cat "$T/perturb.json")"
# migrate: the reference (Verilog) asked again as SystemVerilog.
"$ASSAY" --db "$DB" generate --where task=local/dff8r --strategy migrate \
    --from verilog --command "$GEN" --model g-1 --json >"$T/migrate.json" \
    2>"$T/migrate.err" || fail "migrate: $(cat "$T/migrate.err")"
grep -q '"asked":1,"added":1' "$T/migrate.json" || fail "migrate: $(cat "$T/migrate.json")"
# migrate C -> x86-64 assembly from the task's ref.c (stored, not verified)
"$ASSAY" --db "$DB" generate --where task=assay-examples/sum_i32 \
    --strategy migrate --from c --command "$GEN" --model g-1 --no-verify \
    >"$T/asm.out" 2>&1 || fail "migrate from c: $(cat "$T/asm.out")"
# no source in cuda: the task is left out, with why
"$ASSAY" --db "$DB" generate --where task=local/dff8r --strategy migrate \
    --from cuda --command "$GEN" --model g-1 >"$T/none.out" 2>&1
grep -q "local/dff8r: no candidate in that language passes" "$T/none.out" ||
    fail "no source: $(cat "$T/none.out")"
expect_eq "requests sent" "$(wc -l <"$GEN_LOG" | tr -d ' ')" 5

python3 - "$GEN_LOG" <<'PY' || fail "the prompts"
import json, sys
reqs = [json.loads(l) for l in open(sys.argv[1])]
perturb = reqs[:3]
users = [r["messages"][-1]["content"] for r in perturb]
assert all("8 D flip-flops" in u for u in users), users
# the seed draws per sample: three samples, not one prompt three times
assert len(set(users)) > 1 or len(set(r["messages"][0]["content"] for r in perturb)) > 1, users
mig = reqs[3]["messages"]
assert mig[0]["content"].endswith("complete systemverilog code only, without explanations or markdown fences."), mig[0]
assert "This verilog implementation is correct" in mig[1]["content"], mig[1]
assert "q <= d;" in mig[1]["content"] and "Write the same behaviour in systemverilog" in mig[1]["content"], mig[1]
asm = reqs[4]["messages"]
assert "This c implementation is correct" in asm[1]["content"], asm[1]
assert "s += a[i];" in asm[1]["content"], asm[1]          # ref.c
assert "asm" in asm[0]["content"], asm[0]
print("ok: perturbed prompts differ by sample; migrations show their source")
PY

# What each candidate records.
"$ASSAY" --db "$DB" list --json --where 'origin=g-1' >"$T/g1.list"
python3 - "$T/g1.list" "$ASSAY" "$DB" <<'PY' || fail "generation records"
import json, subprocess, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
seen = {}
for r in rows:
    o = json.loads(subprocess.run([sys.argv[2], "--db", sys.argv[3], "show", "--json", r["id"]],
                                  capture_output=True, check=True).stdout)
    g = o["generation"]
    seen.setdefault(g["strategy"], []).append((o, g))
assert sorted(seen) == ["migrate", "perturb"], sorted(seen)
for o, g in seen["perturb"]:
    t = g["template"]
    assert t["name"] == "chip/perturb" and t["where"] == "templates/chip/perturb", t
    assert t["seed"] == 7 and sorted(t["choices"]) == ["order", "phrasing", "stress"], t
    assert len(t["sha256"]) == 12 and o["lang"] == "verilog", (t, o["lang"])
langs = sorted(o["lang"] for o, g in seen["migrate"])
assert langs == ["asm", "systemverilog"], langs
for o, g in seen["migrate"]:
    assert g["template"]["name"] == "common/migrate", g["template"]
    src = g["migrated_from"]
    if o["lang"] == "asm":
        assert src == {"lang": "c", "file": "ref.c"}, src
    else:
        assert src["lang"] == "verilog" and "candidate" in src, src
print("ok: strategy, template (name, sha256, seed, choices) and source recorded")
PY
expect_eq "the SystemVerilog migration passes" \
    "$(count 'origin=g-1 lang=systemverilog verdict=pass')" 1
expect_eq "perturbed samples pass" "$(count 'origin=g-1 lang=verilog verdict=pass')" 3

# The same seed asks the same prompts again.
mv "$GEN_LOG" "$T/first.log"
"$ASSAY" --db "$DB" generate --where task=local/dff8r --strategy perturb \
    --seed 7 --samples 3 --jobs 1 --command "$GEN" --model g-2 --no-verify \
    >/dev/null 2>&1 || fail "perturb again"
python3 - "$T/first.log" "$GEN_LOG" <<'PY' || fail "seeded prompts repeat"
import json, sys
a = [json.loads(l)["messages"] for l in open(sys.argv[1])][:3]
b = [json.loads(l)["messages"] for l in open(sys.argv[2])]
assert a == b, (a, b)
print("ok: seed 7 asks the same three prompts again")
PY

# stats --generation --by strategy: both strategies, with pass rates.
"$ASSAY" --db "$DB" stats --generation --by strategy --where origin=g-1 \
    --format json >"$T/st.json" || fail "stats --by strategy"
python3 - "$T/st.json" <<'PY' || fail "stats by strategy: $(cat "$T/st.json")"
import json, sys
rows = {r["strategy"]: r for r in map(json.loads, open(sys.argv[1]))}
assert sorted(rows) == ["migrate", "perturb"], rows
assert rows["perturb"]["generated"] == 3 and rows["perturb"]["passed"] == 3, rows["perturb"]
assert rows["perturb"]["pass_rate"] == 1.0, rows["perturb"]
# two migrations: the SystemVerilog one passes, the assembly one is not verified
assert rows["migrate"]["generated"] == 2 and rows["migrate"]["passed"] == 1, rows["migrate"]
assert rows["migrate"]["pass_rate"] == 0.5, rows["migrate"]
print("ok: stats --generation --by strategy")
PY
"$ASSAY" --db "$DB" stats --generation --by strategy | grep -q '^perturb ' ||
    fail "the table has no perturb row"
"$ASSAY" --db "$DB" stats --by strategy 2>/dev/null
expect_eq "--by strategy without --generation" $? 2

# A template from ASSAY_TEMPLATES wins over the compiled-in one.
mkdir -p "$T/tpl/chip"
printf '@system\nSYSTEM {{lang}}\n@user\nONLY {{task}}\n' >"$T/tpl/chip/direct"
ASSAY_TEMPLATES=$T/tpl "$ASSAY" --db "$DB" generate --where task=local/dff8r \
    --command "$GEN" --model g-3 --no-verify >/dev/null 2>&1 || fail "own template"
tail -n 1 "$GEN_LOG" | grep -q '"content": "ONLY local/dff8r"' ||
    fail "ASSAY_TEMPLATES: $(tail -n 1 "$GEN_LOG")"
printf '@user\n@choose x\na\n@or\n{{nope}}\n@end\n' >"$T/tpl/chip/bad"
ASSAY_TEMPLATES=$T/tpl "$ASSAY" --db "$DB" generate --where task=local/dff8r \
    --template bad --command "$GEN" --model g-3 --no-verify >/dev/null 2>"$T/err"
grep -q "tpl/chip/bad:5: unknown variable {{nope}}" "$T/err" ||
    fail "a bad template's FILE:LINE: $(cat "$T/err")"
echo "296: ok"
