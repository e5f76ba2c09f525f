# 140: the cad env (issue 4).  Imports examples/3d (two tasks with a
# reference STEP solid each), verifies them in the sandbox with the OCCT
# helper and checks verdicts, categories and IoU metrics: the passing
# candidates pass, the misplaced or missized ones fail functional with
# their IoU, a truncated STEP fails compile, and the CadQuery scripts are
# skipped where CadQuery is not installed (they pass where it is).
. "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)

line=$("$ASSAY" envs | grep '^cad ')
case $line in
*" yes "*|*" partly "*) ;;	# partly: no CadQuery, scripts skipped
*) skip "cad env cannot run here: $line" ;;
esac

"$ASSAY" --db "$DB" import "$ROOT"/examples/3d/*.jsonl || fail "import"
expect_eq "cad candidates" "$(count 'env=cad')" 10
"$ASSAY" --db "$DB" verify --jobs 2 --check > "$T/verify.out" 2>&1
rc=$?
cat "$T/verify.out"
expect_eq "verify --check exit (some fail)" "$rc" 1

# field WHERE KEY: the value of "KEY": in the first row of list --json.
field() {
	"$ASSAY" --db "$DB" list --json --where "$1" |
	    head -n 1 | grep -o "\"$2\":[^,}]*" | head -n 1 | cut -d: -f2-
}
verdict() { field "$1" verdict; }
# near WHAT GOT WANT: numbers equal to 1e-6.
near() {
	awk -v a="$2" -v b="$3" 'BEGIN { d = a - b; exit !(a != "" &&
	    d < 1e-6 && d > -1e-6) }' || fail "$1: got '$2', want $3"
	echo "ok: $1 = $3"
}
P=task=cad-demo/plate_hole
B=task=cad-demo/l_bracket

# The references pass against their own solid (IoU 1).
expect_eq "plate reference" "$(verdict "$P origin=reference")" '"pass"'
expect_eq "bracket reference" "$(verdict "$B origin=reference")" '"pass"'
near "plate reference IoU" "$(field "$P origin=reference" iou)" 1

# A hole 0.4 mm off: still the plate (IoU 0.987635 >= 0.9).
expect_eq "plate model-a" "$(verdict "$P origin=model-a")" '"pass"'
near "plate model-a IoU" "$(field "$P origin=model-a" iou)" 0.987635
# The bracket built from other boxes is the same solid.
expect_eq "bracket model-a" "$(verdict "$B origin=model-a")" '"pass"'

# The hole misplaced, the hole too small, the upright at the wrong end.
for w in "$P origin=model-b" "$P origin=model-c" "$B origin=model-b"; do
	expect_eq "$w" "$(verdict "$w")" '"fail"'
	expect_eq "$w category" "$(field "$w" category)" '"functional"'
	expect_eq "$w subcategory" "$(field "$w" subcategory)" \
	    '"geometry-mismatch"'
done
near "misplaced hole IoU" "$(field "$P origin=model-b" iou)" 0.784074
near "small hole IoU" "$(field "$P origin=model-c" iou)" 0.845136
near "bracket upright IoU" "$(field "$B origin=model-b" iou)" 0.423729
"$ASSAY" --db "$DB" show "$(field "$P origin=model-b" id | tr -d '"')" |
    grep -q 'evidence: IoU 0.784074 below iou_min 0.9' ||
    fail "the mismatch's evidence must give the IoU"
# Their counterexamples: the IoU, the volume difference, and the largest
# difference of the bounding boxes' sides per axis.  The smaller hole
# leaves more material in the same box; the misplaced hole the same
# volume in the same box.
cex() {
	"$ASSAY" --db "$DB" show --json "$(field "$1" id | tr -d '"')" |
	    jq -c ".runs[0].feedback.counterexample | $2"
}
expect_eq "small hole: volume larger" "$(cex "$P origin=model-c" '.volume_diff > 0')" true
expect_eq "small hole: same box" "$(cex "$P origin=model-c" '[.bbox_diff[]] | max < 1e-6')" true
expect_eq "misplaced hole: same volume" "$(cex "$P origin=model-b" '.volume_diff | fabs < 1e-3')" true
expect_eq "misplaced hole: same box" "$(cex "$P origin=model-b" '[.bbox_diff[]] | max < 1e-6')" true
near "small hole counterexample IoU" "$(cex "$P origin=model-c" .iou)" 0.845136
# The upright at the other end: the same volume in the same box, as the
# helper measured them (15120 mm3, 50 x 30 x 40): only the IoU differs.
expect_eq "bracket upright: counterexample" "$(cex "$B origin=model-b" \
    '[.volume, .reference_volume, .bbox, .reference_bbox, ([.bbox_diff[]] | max)]')" \
    '[15120,15120,[0,0,0,50,30,40],[0,0,0,50,30,40],0]'
"$ASSAY" --db "$DB" show "$(field "$P origin=model-c" id | tr -d '"')" |
    grep -A3 '^Counterexample:' >"$T/cex.txt"
grep -q '^IoU 0.845136, below iou_min 0.9$' "$T/cex.txt" &&
    grep -q '^volume [0-9.]*, reference [0-9.]*: difference +[0-9.]* (+[0-9.]*%)$' "$T/cex.txt" &&
    grep -q '^bounding box, largest difference per axis: x 0.000, y 0.000, z 0.000$' "$T/cex.txt" ||
    fail "small hole: show's counterexample: $(cat "$T/cex.txt")"
echo "ok: the IoU failures' counterexamples: IoU, volume difference, box differences"

# A truncated STEP file cannot be read: compile / unreadable-step.
expect_eq "truncated STEP" "$(verdict "$B origin=model-c")" '"fail"'
expect_eq "its category" "$(field "$B origin=model-c" category)" '"compile"'
expect_eq "its subcategory" "$(field "$B origin=model-c" subcategory)" \
    '"unreadable-step"'

# CadQuery scripts: skipped with the reason, unless CadQuery is there
# (the project venv, `make deps`).
if printf '%s\n' "$line" | grep -q 'CadQuery [0-9]'; then
	expect_eq "plate script" "$(verdict "$P origin=model-d")" '"pass"'
	expect_eq "bracket script" "$(verdict "$B origin=model-d")" '"pass"'
else
	expect_eq "plate script" "$(verdict "$P origin=model-d")" '"skipped"'
	expect_eq "bracket script" "$(verdict "$B origin=model-d")" \
	    '"skipped"'
	id=$(field "$P origin=model-d" id | tr -d '"')
	"$ASSAY" --db "$DB" show "$id" --json |
	    grep -q '"evidence":"skipped: cadquery not installed"' ||
	    fail "a skipped script must say why"
	expect_eq "skipped category" "$(field "$P origin=model-d" category)" \
	    null
fi

# Every run records the helper it ran, and a second verify has nothing
# to do: the helper's identity is stable.
id=$(field "$P origin=model-a" id | tr -d '"')
"$ASSAY" --db "$DB" show "$id" --json | grep -q '"toolchain":"Open CASCADE Technology 7\.[0-9.]*, assay-iou [0-9a-f]\{12\}, ' ||
    fail "the toolchain must name OCCT and the helper's hash"
"$ASSAY" --db "$DB" show "$id" --json | grep -q '"inputs":{[^}]*"assay-iou":"[0-9a-f]\{64\}"' ||
    fail "the inputs must hold the helper's hash"
"$ASSAY" --db "$DB" verify > "$T/again.out" 2>&1 || fail "verify again"
grep -q 'verified 0, unchanged 10' "$T/again.out" ||
    fail "a second verify ran again: $(cat "$T/again.out")"
echo "ok: 140-cad"
