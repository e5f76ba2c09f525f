# 307: the labels of stats' rows.  A task without a licence counts under
# "-" in stats --by license (not an empty name).  A minimal repair whose
# answer repeats code the model already gave without a feedback level
# (its direct answer: the same code by the same origin is one candidate)
# is counted under "unknown" by stats --generation --by feedback, not
# "-": the attempt table keeps no level (docs/formats.md).
. "$(dirname "$0")/lib.sh"
[ "$(uname -m)" = x86_64 ] || skip "x86-asm needs an x86-64 host"
command -v gcc >/dev/null || skip "gcc not installed"
command -v python3 >/dev/null || skip "no python3 for the test's generator"
EX=$(cd "$(dirname "$0")/../../examples/compiler" && pwd)

"$ASSAY" --db "$DB" import "$EX/sum_i32.jsonl" >/dev/null || fail "import"
"$ASSAY" --db "$DB" stats --by license --format csv >"$T/lic" ||
    fail "stats --by license"
grep -q '^-,' "$T/lic" || fail "no - row: $(cat "$T/lic")"
grep -q '^,' "$T/lic" && fail "an empty licence name: $(cat "$T/lic")"
"$ASSAY" --db "$DB" stats --by license >"$T/lic.txt" || fail "table"
grep -q '^- ' "$T/lic.txt" || fail "no - row in the table: $(cat "$T/lic.txt")"
echo "ok: no licence is -"

# model-b does not assemble; the generator always answers model-a's
# code, first to generate (a direct answer: no level), then to repair.
"$ASSAY" --db "$DB" verify --quiet --where origin=model-b >/dev/null
bad=$("$ASSAY" --db "$DB" list --json --where 'origin=model-b verdict=fail' | jq -r .id)
[ -n "$bad" ] || fail "model-b does not fail"
"$ASSAY" --db "$DB" list --json --where origin=model-a | jq -r .id >"$T/refid"
"$ASSAY" --db "$DB" show --json "$(cat "$T/refid")" |
    python3 -c 'import json,sys; sys.stdout.write(json.load(sys.stdin)["code"])' >"$T/ref.s"
"$ASSAY" --db "$DB" generate --where task=assay-examples/sum_i32 --no-verify \
    --command "cat $T/ref.s" --model echo-1 >"$T/gen.out" 2>&1 ||
    fail "generate: $(cat "$T/gen.out")"
"$ASSAY" --db "$DB" repair --feedback minimal "$bad" --no-verify \
    --command "cat $T/ref.s" --model echo-1 >"$T/rep.out" 2>&1 ||
    fail "repair: $(cat "$T/rep.out")"
grep -q "stored 0 new" "$T/rep.out" || fail "the answer is new code: $(cat "$T/rep.out")"
"$ASSAY" --db "$DB" stats --generation --by feedback --format csv >"$T/fb" ||
    fail "stats --by feedback"
grep -q '^echo-1,unknown,' "$T/fb" || fail "not unknown: $(cat "$T/fb")"
grep -q '^echo-1,-,' "$T/fb" && fail "filed under -: $(cat "$T/fb")"
echo "307-stats-labels: ok"
