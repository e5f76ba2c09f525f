# 057-solid-sheet.sh - issue 26 item 2: S (and :solid) opens the 3D
# sheet of a cad failure: the candidate's and the reference's solids,
# as the OCCT helper meshed them in the run's iou stage, in front, top,
# side and iso views, the IoU in the title, the material only one of
# them has coloured (red the candidate's, blue the reference's), or
# marked x and o under NO_COLOR; it follows a resize, Esc closes it.
# Input: examples/3d, the L bracket whose upright stands at the wrong
# end (model-b, IoU 0.423729, the e2e 140-cad figure).
. "$(dirname "$0")/lib.sh"
ROOT=$(pwd)

case $("$ASSAY" envs | grep '^cad ') in
*" yes "*|*" partly "*) ;;
*) skip "the cad env cannot run here" ;;
esac
"$ASSAY" --db "$DB" import "$ROOT/examples/3d/l_bracket.jsonl" \
    >/dev/null || fail "import"
"$ASSAY" --db "$DB" verify --where "origin=model-b" >/dev/null 2>&1
"$ASSAY" --db "$DB" verify --where "origin=model-c" >/dev/null 2>&1
ID=$("$ASSAY" --db "$DB" list --json --where "origin=model-b" |
    json_field id)
BAD=$("$ASSAY" --db "$DB" list --json --where "origin=model-c" |
    json_field id)
[ -n "$ID" ] && [ -n "$BAD" ] || fail "no bracket candidates"

# The bracket's upright: x 0..10 in the reference, 50..60 in the
# candidate; the base is shared.
start 120 40 "--where id=$ID"
wait_for "1/1"
wait_for "$ID"
keys S
wait_for "candidate front"
screen | head -n 1 | grep -q "3D .*IoU 0.423729" || fail "no IoU in the title"
for w in "candidate front" "candidate top" "candidate side" \
    "candidate iso" "reference front" "reference iso" "red: candidate only"
do
	screen | grep -q "$w" || fail "no '$w' on the 3D sheet"
done
# colour: red (196 at its brightest) in the candidate's row, blue in the
# reference's, grey where both are; half-blocks
$TM capture-pane -e -p -t t >"$T/c.txt"
sed -n '4,20p' "$T/c.txt" | grep -q '38;5;\(88\|124\|160\|196\)m' ||
    fail "no red in the candidate's views"
sed -n '4,20p' "$T/c.txt" | grep -q '38;5;\(18\|20\|27\|33\)m' &&
    fail "blue in the candidate's views"
sed -n '22,38p' "$T/c.txt" | grep -q '38;5;\(18\|20\|27\|33\)m' ||
    fail "no blue in the reference's views"
grep -q '38;5;\(240\|245\|250\|255\)m' "$T/c.txt" ||
    fail "no grey for the shared base"
screen | grep -q "$(printf '\342\226\200')" || fail "no half-blocks"
ok "S draws both solids with the difference coloured, IoU in the title"

# the front view (x right): the candidate's upright on the right of its
# panel (the 28 columns after the border), the reference's on the left
panel() { LC_ALL=C.UTF-8 sed 's/^.\(.\{28\}\).*/\1/'; }
front=$(screen | sed -n '4,20p' | panel)
B=$(printf '\342\226\200')
# rows of the upright alone: blank where it is not, a half-block where it is
printf '%s\n' "$front" | grep -q "^ .*$B\$" ||
    fail "the candidate's upright is not at the right of its front view"
front=$(screen | sed -n '22,38p' | panel)
printf '%s\n' "$front" | grep -q "^$B.* \$" ||
    fail "the reference's upright is not at the left of its front view"
ok "front view: the uprights at opposite ends"

$TM resize-window -t t -x 80 -y 24
wait_for "candidate iso" 10
screen | grep -q "IoU 0.423729" || fail "no IoU after the resize"
screen | grep -q "reference front" || fail "no reference row at 80x24"
[ "$(screen | head -n 1 | wc -m)" -le 81 ] || fail "wider than 80"
ok "the sheet follows a resize to 80x24"

keys Escape
wait_gone "candidate front"
screen | grep -q " queue " || fail "Esc did not close the 3D sheet"
ok "Esc closes it"

# from the candidate pane and the trace pane too; C-c closes as well
keys Tab Tab
wait_for " · candidate "
keys S
wait_for "candidate front"
keys C-c
wait_gone "candidate front"
keys Tab Tab
wait_for " · trace "
keys S
wait_for "candidate front"
keys Escape
wait_gone "candidate front"
ok "S from the candidate and the trace pane; C-c closes"

# a truncated STEP file: no solids, and the sheet says why
start 80 24 "--where id=$BAD"
wait_for "1/1"
command_line "solid"
wait_for "3D: no solids to draw"
screen | grep -q "candidate front" && fail "a sheet without solids"
ok ":solid on an unreadable solid says why"
keys q
wait_for "ASSAY-EXIT 0"

# NO_COLOR: characters instead of colours (and for the rest of the test)
export NO_COLOR=1
start 80 24 "--where id=$ID"
wait_for "1/1"
command_line "solid"
wait_for "x: candidate only"
# at 80x24: the candidate's pictures on rows 4..12, the reference's on
# 14..22
screen | sed -n '4,12p' | grep -q "x" || fail "no x in the candidate's row"
screen | sed -n '14,22p' | grep -q "o" || fail "no o in the reference's row"
screen | sed -n '4,12p' | grep -q "o" && fail "an o in the candidate's row"
screen | sed -n '4,22p' | grep -q "[:+#@]" || fail "no shared material"
$TM capture-pane -e -p -t t | grep -q '38;5;' && fail "colour under NO_COLOR"
ok "NO_COLOR marks the difference x and o"
keys q
keys q
wait_for "ASSAY-EXIT 0"

# A bracket built on the wrong workplane (examples/3d/cadquery model-b,
# e2e 145): the helper's best turn is a fifth view, where the turned
# candidate and the reference are the same solid: no x or o there.
"$ASSAY" --db "$DB" import "$ROOT/examples/3d/cadquery/cadquery.jsonl" \
    >/dev/null || fail "import cadquery"
"$ASSAY" --db "$DB" verify --where "task=cad-cq/bracket origin=model-b" \
    >/dev/null 2>&1
TURN=$("$ASSAY" --db "$DB" list --json \
    --where "task=cad-cq/bracket origin=model-b" | json_field id)
case $(row "$TURN") in
*'"subcategory":"wrong-orientation"'*) ;;
*) echo "no CadQuery here: the turned view is not tried"; exit 0 ;;
esac
start 120 40 "--where id=$TURN"
wait_for "$TURN"
keys S
wait_for "turned 270 about X: 1.000000"
screen | grep -q "candidate iso  *turned 270 about X" ||
    fail "no turned view beside the candidate's iso view"
# the fifth panel: 22 columns after 92 (four panels of 22 and their gaps)
fifth() { LC_ALL=C.UTF-8 sed 's/^.\{93\}\(.\{22\}\).*/\1/'; }
fourth() { LC_ALL=C.UTF-8 sed 's/^.\{70\}\(.\{22\}\).*/\1/'; }
screen | sed -n '4,20p' | fourth | grep -q x ||
    fail "the candidate's iso view shows no difference"
screen | sed -n '4,20p;22,38p' | fifth | grep -q '[xo]' &&
    fail "the turned candidate differs from the reference"
screen | sed -n '4,20p' | fifth | grep -q '[:+#@]' ||
    fail "no turned candidate drawn"
ok "the best right-angle turn is a view of its own, matching the reference"
keys Escape
keys q
wait_for "ASSAY-EXIT 0"
