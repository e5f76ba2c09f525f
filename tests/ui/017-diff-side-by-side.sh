# 017-diff-side-by-side.sh - issue 5, "Repair trajectories": the diff
# sheet `d` also shows side by side (s switches, and the choice stays
# for the next d): the removed line on the left next to the line that
# replaced it on the right, each with its line number, context on both
# sides.  From the repair, d compares it with its parent; from the
# parent, d goes forward to its repair (candidate -> repair).
. "$(dirname "$0")/lib.sh"
# wait_re REGEX WHY: poll the screen until a line matches REGEX (grep
# -E), or fail with WHY after 10 s; a frame may reach tmux in parts.
wait_re() {
	n=100
	while [ $n -gt 0 ]; do
		screen | grep -q -E -- "$1" && return 0
		sleep 0.1
		n=$((n - 1))
	done
	fail "$2"
}

"$ASSAY" --db "$DB" import "$DATA/rtlfixer/verilogeval-syntax.jsonl" \
    >/dev/null || fail "import rtlfixer"
ID=$("$ASSAY" --db "$DB" list --json | head -n 1 | json_field id)

# A non-interactive editor: declare Y1 as reg and add a comment line.
cat >"$T/fix" <<'FIX'
#!/bin/sh
sed -i 's/output Y1/output reg Y1/' "$1"
printf '\n// repaired in 017\n' >>"$1"
FIX
chmod +x "$T/fix"
export EDITOR="$T/fix"
start 120 40 "--where benchmark=rtlfixer"
wait_for "1/174"
# line N of the parent is "    output Y1," (N from the import)
N=$("$ASSAY" --db "$DB" show --json "$ID" | grep -o '"code":"[^"]*' |
    sed 's/^"code":"//; s/\\n/\n/g' | grep -n 'output Y1' | cut -d: -f1)
[ -n "$N" ] || fail "no 'output Y1' line in $ID"

keys e
REP=$(repair_of "$ID") || fail "no repair of $ID in the store"
wait_for "$REP: " 30
keys C-l

keys d
wait_for "parent $ID"
wait_re "^.-.*output Y1" "the unified diff has no removed line"
keys s
wait_for "side by side"
# one row: "N     output Y1," | "N     output reg Y1,"
wait_re "^│ *$N +output Y1, +│ *$N +output reg Y1," \
    "no row with the old line $N left and the new one right"
wait_re "│ +[0-9]+ +// repaired in 017" \
    "the added comment is not on the right"
wait_re "^│ *1 module top_module \( +│ *1 module top_module" \
    "the context is not on both sides"
screen | grep -q "^.-" && fail "side by side still shows - lines"
ok "s shows the diff side by side, paired by line"

# the old line in the fail colour, the new one in the pass colour
$TM capture-pane -p -e -t t | grep "output reg Y1" | grep -q '31m' ||
    fail "the removed text is not in the fail colour"
$TM capture-pane -p -e -t t | grep "output reg Y1" | grep -q '32m' ||
    fail "the added text is not in the pass colour"
ok "side by side is coloured"

keys q
wait_gone "─ diff ─"
command_line "goto $ID"
wait_for "candidate $ID"
keys d
wait_for "candidate $ID → repair $REP"
wait_for "side by side"
wait_re "│ *$N +output Y1, +│ *$N +output reg Y1," \
    "the parent does not diff forward to its repair"
keys s
wait_for "diff: unified"
wait_re "^.\+.*output reg Y1" "s does not go back to unified"
ok "from the parent, d shows candidate → repair; s goes back"
keys q
keys q
wait_for "ASSAY-EXIT 0"
