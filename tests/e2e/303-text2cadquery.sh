# 303: a CadQuery text-to-CAD set in Text-to-CadQuery's row format
# (issue 27 item 4, ADR 0046): {"input": prompt, "output": script}, each
# a task of env cad whose reference solid is the script's, judged by
# volumetric IoU.  The rows are written from the format
# (tests/data/text2cadquery/README.md).
#
# Golden values: the plate's reference solid is 60 x 40 x 5 less a
# 10 mm hole, 12000 - 25 pi 5 = 11607.301 mm^3 (by hand); a 60 x 40 x 15
# box around it holds it whole, so IoU = 11607.301 / 36000 = 0.322425.
. "$(dirname "$0")/lib.sh"
"$ASSAY" envs | grep -q '^cad .*CadQuery [0-9]' || skip "no CadQuery in the project venv (make deps)"
D=$(dirname "$0")/../data/text2cadquery

"$ASSAY" --db "$DB" import "$D/text2cadquery.jsonl" > "$T/imp" 2>&1 || fail "import: $(cat "$T/imp")"
grep -q "2 new tasks, 2 new candidates" "$T/imp" || fail "auto-detected rows: $(cat "$T/imp")"
printf '{"uid": "x", "input": "a part"}\n' > "$T/bad.jsonl"
"$ASSAY" --db "$DB" import --format text2cadquery "$T/bad.jsonl" > "$T/err" 2>&1 && fail "a row without a script was taken"
grep -q 'bad.jsonl:1: missing the CadQuery script' "$T/err" || fail "error: $(cat "$T/err")"
"$ASSAY" --db "$DB" export --format raw --where "task=text2cadquery/0000/00000007 origin=reference" > "$T/x.jsonl"
grep -q '"env":"cad"' "$T/x.jsonl" || fail "env"
grep -q '"reference.py":"import cadquery' "$T/x.jsonl" || fail "reference.py"
grep -q '"spec":"Create a rectangular plate' "$T/x.jsonl" || fail "spec"
"$ASSAY" --db "$DB" import "$(dirname "$0")/text2cadquery/candidates.jsonl" > /dev/null || fail "candidates"

"$ASSAY" --db "$DB" verify --jobs 2 --quiet > /dev/null
v() { "$ASSAY" --db "$DB" list --json --where "$1" | grep -o "\"$2\":\"[a-z-]*\"" | head -n 1; }
expect_eq "references" "$(count 'origin=reference verdict=pass')" 2
expect_eq "sketch and cut" "$(v 'origin=sketch-and-cut' verdict)" '"verdict":"pass"'
expect_eq "no hole, 3x thick" "$(v 'origin=no-hole' subcategory)" '"subcategory":"geometry-mismatch"'
"$ASSAY" --db "$DB" list --json --where origin=no-hole | grep -q '"iou":0.322425' || fail "IoU 0.322425"
expect_eq "fenced" "$(v 'origin=fenced' subcategory)" '"subcategory":"markdown-fence"'
