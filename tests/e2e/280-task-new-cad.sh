# 280: `assay task new` on a solid (issue 27, item 1): the plate of
# examples/3d/cadquery/plate/reference.py (a CadQuery script) and the
# plate with a hole of examples/3d/plate_hole.jsonl (its reference.step)
# each become a cad task with the file as its reference solid; the
# script's leading comment is the requirement; each reference passes by
# its IoU with itself (1) and is stored.  A script whose solid cannot be
# made is refused with the exception and nothing is stored; a .step that
# is no STEP text is refused at line 1.
. "$(dirname "$0")/lib.sh"
"$ASSAY" envs | grep -q '^cad .* yes ' || skip "the cad env is not complete here (assay-iou, CadQuery)"

EX=$(cd "$(dirname "$0")/../../examples/3d" && pwd)
cp "$EX/cadquery/plate/reference.py" "$T/plate.py"
"$ASSAY" --db "$DB" task new "$T/plate.py" --json > "$T/plate.json" || fail "plate: $(cat "$T/plate.json")"
expect_eq "solid" "$(jq -r .solid "$T/plate.json")" plate
expect_eq "env" "$(jq -r '.row.task | "\(.env) \(.domain) \(.env_params.reference)"' "$T/plate.json")" "cad 3d reference.py"
expect_eq "spec" "$(jq -r .row.task.spec "$T/plate.json" | head -n 1)" \
    "A plate 80 x 50 x 6 centred on the origin in XY, from z = 0 to 6,"
expect_eq "verdict" "$(jq -r '"\(.verdict) \(.stage) \(.metrics.iou)"' "$T/plate.json")" "pass iou 1"
expect_eq "stored" "$(count 'task=local/plate origin=reference verdict=pass lang=python')" 1

head -n 1 "$EX/plate_hole.jsonl" | jq -r '.task.files["reference.step"]' > "$T/plate_hole.step"
head -n 1 "$EX/plate_hole.jsonl" | jq -r .task.spec > "$T/plate_hole.txt"
"$ASSAY" --db "$DB" task new "$T/plate_hole.step" --spec /dev/null 2> "$T/empty.err" && fail "an empty spec was taken"
grep -q '/dev/null: an empty requirement' "$T/empty.err" || fail "empty: $(cat "$T/empty.err")"
"$ASSAY" --db "$DB" task new "$T/plate_hole.step" --spec "$T/plate_hole.txt" --json > "$T/step.json" ||
    fail "step: $(cat "$T/step.json")"
expect_eq "step verdict" "$(jq -r '"\(.verdict) \(.metrics.iou)"' "$T/step.json")" "pass 1"
expect_eq "step stored" "$(count 'task=local/plate_hole origin=reference verdict=pass lang=step')" 1

sed 's/\.hole(6))/.hole(6).fillet(50))/' "$T/plate.py" > "$T/bad.py"
"$ASSAY" --db "$DB" task new "$T/bad.py" 2> "$T/bad.err" > /dev/null
expect_eq "bad script exit" "$?" 1
grep -q 'the reference does not pass its own verification: task-defect at reference (bad-reference): the reference script failed' "$T/bad.err" ||
    fail "bad: $(cat "$T/bad.err")"
expect_eq "bad stored" "$(count 'task=local/bad')" 0

printf 'solid\n' > "$T/no.step"
"$ASSAY" --db "$DB" task new "$T/no.step" 2> "$T/no.err" && fail "no STEP text was taken"
grep -q 'no.step:1: not STEP text' "$T/no.err" || fail "no: $(cat "$T/no.err")"
echo "ok: task new on solids"
