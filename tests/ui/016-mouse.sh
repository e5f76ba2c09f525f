# 016-mouse.sh - issue 5, "Keys and looks": a click on a queue row
# selects it, the wheel moves the selection, and `mouse off` (in the
# config file, or :set mouse off) gives the mouse back to the terminal:
# the workbench stops asking for mouse reports (tmux's
# mouse_standard_flag of the pane goes to 0, so a real terminal sends
# none and selects text instead) and ignores any that still come.
# The reports are the xterm ones (ESC [ M b x y, each byte 32 + the
# value, x and y from 1) that the terminal sends once asked.
. "$(dirname "$0")/lib.sh"

"$ASSAY" --db "$DB" import "$DATA/rtlfixer/verilogeval-syntax.jsonl" \
    >/dev/null || fail "import rtlfixer"

# report BUTTON (0 press, 3 release, 64 wheel up, 65 wheel down) at
# screen column X, row Y (from 0)
# shellcheck disable=SC2046
report() { $TM send-keys -t t -H 1b 5b 4d $(printf '%x %x %x' \
    $((32 + $1)) $((33 + $2)) $((33 + $3))); }
click() { report 0 "$1" "$2"; report 3 "$1" "$2"; }
# does the program in the pane ask for mouse reports?  1 or 0
asks() { $TM display -p -t t '#{mouse_standard_flag}'; }

start 120 40
wait_for "1/174"
# the queue: title on row 0, its header on row 1, candidates from row 2
click 6 6
wait_for " 5/174 "
click 12 2
wait_for " 1/174 "
click 10 9
wait_for " 8/174 "
ok "a click on a queue row selects it"

report 65 10 9
wait_for " 11/174 "
report 64 10 9
wait_for " 8/174 "
ok "the wheel moves the selection three rows a notch"

[ "$(asks)" = 1 ] || fail "the workbench does not ask for mouse reports"
command_line "set mouse off"
wait_for "mouse off"
# the terminal hears of it when the frame is written: give it a moment
n=20
while [ "$(asks)" != 0 ] && [ $n -gt 0 ]; do sleep 0.1; n=$((n - 1)); done
[ "$(asks)" = 0 ] || fail "mouse off still asks for mouse reports"
click 6 4
report 65 10 9
sleep 0.5
screen | grep -q " 8/174 " || fail "the mouse acted while off"
command_line "set mouse on"
wait_for "mouse on"
[ "$(asks)" = 1 ] || fail "mouse on does not ask for mouse reports"
click 6 4
wait_for " 3/174 "
ok ":set mouse off and on"
keys q
wait_for "ASSAY-EXIT 0"

mkdir -p "$HOME/.config/assay"
printf '# no mouse: the terminal selects text\nmouse off\n' \
    >"$HOME/.config/assay/config"
start 120 40
wait_for "1/174"
[ "$(asks)" = 0 ] || fail "mouse off in the config asks for mouse reports"
keys j
wait_for " 2/174 "
keys q
wait_for "ASSAY-EXIT 0"
ok "mouse off in the config file"
