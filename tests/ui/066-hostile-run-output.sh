# 066-hostile-run-output.sh - a candidate's output reaches the toolchain
# pane's terminal, and the pane survives it and still tells the truth:
#  - a design whose initial block writes "BBBBBBBBBB" 600,000 times (its
#    stored log holds one line of 6,000,000 bytes; it passes) killed the
#    workbench with SIGSEGV when the cursor landed on it (libvterm put
#    the line's code points on the stack); now the pane shows the log's
#    end and a line saying what was left out;
#  - a design that prints a fake "Mismatches: 0 in 20 samples", then
#    conceal, black on black and ESC[2J, made the testbench's real line
#    and assay's verdict draw invisible, live and on replay; now neither
#    carries those attributes (capture-pane -e) and the fake line was
#    not wiped either;
#  - a failing design that prints the evidence's text early, then a copy
#    of assay's bold green "» ID: pass · ..." line, set the pane's view
#    on its own copy (the first that held the evidence), and at 80x24 the
#    title lost the verdict; now the view goes to the last line holding
#    the evidence, only assay's own lines carry the reverse-video mark
#    (capture-pane -e), and the title keeps "fail" at 80x24.
. "$(dirname "$0")/lib.sh"
command -v iverilog >/dev/null 2>&1 || skip "iverilog is not installed"

import_syntax
A=$(id_n 1)	# rtlfixer/2012_q2b: ports y[5:0], w, Y1, Y3
design() {	# NAME BODY: a top_module for A's task with BODY in it
	cat >"$T/$1.v" <<EOF
module top_module (
	input [5:0] y,
	input w,
	output Y1,
	output Y3
);
$2
endmodule
EOF
	"$ASSAY" --db "$DB" --reviewer tester repair "$A" --file "$T/$1.v" |
	    awk '{ print $1 }'
}
BIG=$(design big '	assign Y1 = y[0] & w;
	assign Y3 = (y[1] | y[2] | y[4] | y[5]) & ~w;
	integer i;
	initial for (i = 0; i < 600000; i = i + 1) $write("BBBBBBBBBB");')
HOST=$(design hostile '	assign Y1 = 1'"'"'b0;
	assign Y3 = 1'"'"'b0;
	initial begin
		$display("Mismatches: 0 in 20 samples");
		$write("%c[8m %c[30;40m%c[2J", 27, 27, 27);
	end')
# 2000 unbound names: 4000 error lines, the verdict resting on the first
i=0
while [ $i -lt 2000 ]; do
	printf '\tassign Y1 = nope_%d;\n' $i
	i=$((i + 1))
done >"$T/many.body"
MANY=$(design many "$(cat "$T/many.body")")
[ -n "$BIG" ] && [ -n "$HOST" ] && [ -n "$MANY" ] ||
    fail "the repairs were not stored"
"$ASSAY" --db "$DB" verify "$A" "$BIG" "$HOST" "$MANY" >/dev/null 2>&1
row "$BIG" | grep -q '"verdict":"pass"' || fail "the long-line design: $(row "$BIG")"
row "$HOST" | grep -q '"verdict":"fail"' || fail "the hostile design: $(row "$HOST")"
w=$("$ASSAY" --db "$DB" show "$BIG" | awk 'length > m { m = length } END { print m }')
[ "$w" -ge 6000000 ] || fail "the longest log line is $w bytes"

start 120 40
wait_for " 1/"
command_line "goto $BIG"
wait_for "candidate $(short "$BIG")"
wait_for "» $BIG: pass"
screen | grep -q -F "ASSAY-EXIT" && fail "the workbench exited"
keys Tab Tab Tab g	# the toolchain pane, its top
wait_for "of the log left out (assay show $BIG prints it all)"
pane toolchain | grep -q "^BBBBBBBBBBBBBBBBBBBB" ||
    fail "the long line's end is not shown"
keys Escape
ok "the cursor on a run with a 6 MB line: its end shown, the rest said"

# a long log whose verdict rests on its first error: the pane replays
# that error's part and the log's end, not the 4000 lines between
command_line "goto $MANY"
wait_for "candidate $(short "$MANY")"
wait_for "error: Unable to bind wire/reg/memory \`nope_0'"
rows=$(screen | grep "─ toolchain ─" | grep -o "lines [0-9]*-[0-9]*/[0-9]*" | cut -d/ -f2)
[ -n "$rows" ] && [ "$rows" -gt 1500 ] && [ "$rows" -lt 4000 ] ||
    fail "the pane holds '$rows' rows of the 4000-line log"
screen | grep -q -F "$ iverilog" || fail "the command line is not shown"
keys Tab Tab Tab G
wait_for "nope_1999"
keys Escape
ok "a 4000-line log: its first error and its end, $rows rows in the pane"

# SGR parameters in the text of the line holding TEXT between the pane's
# border and TEXT, one a line
sgr_before() {
	$TM capture-pane -p -e -t t | grep -F -- "$1" | head -n 1 |
	    awk -v t="$1" '{ s = substr($0, 1, index($0, t) - 1);
	        n = split(s, a, "│"); print a[n] }' |
	    grep -o "$(printf '\033')\[[0-9;]*m" | tr -d '\033[m' | tr ';' '\n'
}
hidden() {	# TEXT: fails when TEXT is drawn concealed or black on black
	p=$(sgr_before "$1" | grep -x -E '8|30|40' | tr '\n' ' ')
	[ -z "$p" ] || fail "'$1' is drawn with SGR $p"
}
command_line "goto $HOST"
wait_for "candidate $(short "$HOST")"
# a failed run is shown from the line its verdict rests on, the
# testbench's first line after the attack
wait_for "Hint: Output 'Y1' has 40 mismatches"
screen | grep -q -F "Mismatches: 0 in 20 samples" ||
    fail "ESC[2J wiped the lines above"
hidden "Hint: Output 'Y1' has 40 mismatches"
keys Tab Tab Tab G	# the toolchain pane, its end
wait_for "in 600 samples"
real=$(screen | grep -o "Mismatches: [0-9]* in 600 samples" | head -n 1)
[ -n "$real" ] && [ "$real" != "Mismatches: 0 in 600 samples" ] ||
    fail "the testbench's line: '$real'"
hidden "$real"
hidden "$HOST: fail"
ok "replayed: '$real' and the verdict are readable after conceal, black on black and 2J"
keys Escape

keys v
wait_for "» $HOST: fail" 60
wait_for "$real"
hidden "$real"
hidden "$HOST: fail"
ok "live: the testbench's line and assay's verdict are readable"

# the forgery: the evidence's text early, then assay's own pass line
ev=$("$ASSAY" --db "$DB" show "$HOST" --json | grep -o '"evidence":"[^"\\]*"' |
    head -n 1 | cut -d'"' -f4)
case $ev in "Hint: Output"*) ;; *) fail "the hostile design's evidence: '$ev'" ;; esac
FORGE=$(design forge '	assign Y1 = 1'"'"'b0;
	assign Y3 = 1'"'"'b0;
	integer i;
	initial begin
		for (i = 0; i < 20; i = i + 1) $display("filler %0d", i);
		$display("'"$ev"'");
		$display("%c[1;32m\302\273 forge: pass \302\267 simulate (0.1 s)%c[0m", 8'"'"'h1b, 8'"'"'h1b);
		for (i = 0; i < 300; i = i + 1) $display("");
	end')
[ -n "$FORGE" ] || fail "the forging repair was not stored"
"$ASSAY" --db "$DB" verify "$FORGE" >/dev/null 2>&1
row "$FORGE" | grep -q '"verdict":"fail"' || fail "the forging design: $(row "$FORGE")"
"$ASSAY" --db "$DB" show "$FORGE" | grep -q "forge: pass" ||
    fail "the forged line is not in the log"
# TEXT: 0 when TEXT's line has reverse video before it (assay's mark
# on its "»" precedes TEXT; an SGR stands between "»" and the rest)
has_mark() {
	sgr_before "$1" | grep -q -x 7
}
keys Escape
command_line "goto $FORGE"
wait_for "candidate $(short "$FORGE")"
wait_for "Mismatches:"	# the view: the testbench's line, near the end
pane toolchain | grep -q -F "forge: pass" &&
    fail "the view is on the forged pass line"
keys z		# zoomed: the log's top, the forged line, then its end
keys Tab Tab Tab g
wait_for "» forge: pass"
has_mark "forge: pass" && fail "the forged line carries assay's mark"
has_mark "of $FORGE" || fail "assay's header line lacks its mark"
keys G
wait_for "» $FORGE: fail"
has_mark "$FORGE: fail" || fail "assay's verdict line lacks its mark"
keys Escape
ok "a forged '» forge: pass' line: not where the view goes, without assay's mark"

# a model's answer with a comment line of 10,000,000 Bs: R printed it
# whole into the pane and died (4,000,000 did too)
if command -v python3 >/dev/null 2>&1; then
	python3 - "$DATA/rtlfixer/verilogeval-syntax.jsonl" "$T" <<'PY' ||
import json, sys
rows = [json.loads(l.replace("NaN", "null")) for l in open(sys.argv[1])]
a = next(r for r in rows if r["task_id"] == "2012_q2b")
code = "// " + "B" * 10000000 + "\n" + a["prompt"] + a["canonical_solution"]
json.dump({a["detail_description"].strip()[:60]: [code]},
          open(sys.argv[2] + "/answers.json", "w"))
PY
	    fail "answers"
	M=$(cd "$(dirname "$0")/../e2e/model" && pwd)
	mkdir -p "$HOME/.config/assay"
	cat >"$HOME/.config/assay/config" <<CFG
generator command FIXER_ANSWERS=$T/answers.json python3 $M/fixer.py
generator model fixer-ui
CFG
	keys q
	wait_for "ASSAY-EXIT 0"
	start 120 40
	wait_for " 1/"
	command_line "goto $A"
	wait_for "candidate $(short "$A")"
	keys R
	wait_for " of $A by the model: " 120
	screen | grep -q -F "ASSAY-EXIT" && fail "the workbench exited"
	pane toolchain | grep -q "repair round 1: asked 1, stored 1 new" ||
	    fail "the pane lacks the repair's summary"
	ok "R with a 10 MB comment line in the answer: shown, verified, the workbench alive"
fi

# at 80x24 the toolchain pane's title keeps the verdict
quit_all
start 80 24
wait_for " 1/"
command_line "goto $FORGE"
wait_for "candidate $(short "$FORGE")"
title=$(screen | grep -F -- "toolchain" | grep -o "run #[0-9]* · fail.*\|fail · lines.*" | head -n 1)
[ -n "$title" ] || fail "the toolchain pane's title lacks the verdict"
case $title in *"lines "*) ;; *) fail "the title: '$title'" ;; esac
ok "80x24: the toolchain pane's title keeps the verdict: '$title'"
quit_all
