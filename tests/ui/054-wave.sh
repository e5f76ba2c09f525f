# 054-wave.sh - issue 26 item 1: W (or :wave) opens the waveform sheet of
# a failed VerilogEval candidate: reference and candidate signals
# interleaved, 1-bit ones as a trace, buses as values, the differing steps
# marked with "^" (a mark that needs no colour), the cursor on the first
# mismatch; n/N walk the mismatches, +/- zoom, Esc or q goes back (its
# status message with it).  At 80x24,
# with and without NO_COLOR.  The candidate is Prob033_ece241_2014_q1c
# with overflow = a[7] & b[7]: its first mismatch is at 35 ps, a = b = 0x70
# (read from the Icarus dump by hand: tests/unit/vcd/icarus-prob033.vcd).
. "$(dirname "$0")/lib.sh"
command -v iverilog >/dev/null || skip "iverilog not installed"

"$ASSAY" --db "$DB" import "$DATA/verilog-eval-v2" >/dev/null 2>&1 ||
    fail "import v2"
cat >"$T/c.jsonl" <<'JSONL'
{"task":"verilog-eval-v2/Prob033_ece241_2014_q1c","candidate":{"id":"w-1","origin":"gpt-x","code":"module TopModule(input [7:0] a, input [7:0] b, output [7:0] s, output overflow);\n  assign s = a + b;\n  assign overflow = a[7] & b[7];\nendmodule\n"}}
JSONL
"$ASSAY" --db "$DB" import "$T/c.jsonl" >/dev/null || fail "import w-1"
"$ASSAY" --db "$DB" verify w-1 >/dev/null || fail "verify w-1"

for nc in "" 1; do
	if [ -n "$nc" ]; then export NO_COLOR=1; else unset NO_COLOR; fi
	start 80 24 "--where id=w-1"
	wait_for "w-1"
	keys W
	wait_for "─ w-1 · "
	wait_for "first mismatch 35 ps"
	# the rule names the sheet once: "─ wave ─── w-1 · first mismatch"
	screen | grep -q "wave ─* wave\|wave w-1" && fail "the title says wave twice"
	# the cursor's time under the ruler, on the first mismatch
	screen | grep -q "▼ 35" || fail "cursor not at 35"
	screen | grep -q "wave: 35 ps: s e0/e0 overflow 1/0!" || fail "status: values at 35"
	# rows: both sides of each pair, the mark row under overflow
	screen | grep -q "│s ref " || fail "no s ref row"
	screen | grep -q "│s cand " || fail "no s cand row"
	screen | grep -q "│overflow ref " || fail "no overflow ref row"
	screen | grep -q "│overflow cand " || fail "no overflow cand row"
	screen | grep -q "│tb_match " || fail "no tb_match row"
	screen | grep -q "≠ .*\^\^\^" || fail "no mark under the differing span"
	expect_marks=$(screen | grep -c "≠")
	[ "$expect_marks" = 1 ] || fail "mark rows: $expect_marks, want 1 (overflow only)"
	# buses show values: s is e0 at 35 (0x70 + 0x70)
	screen | grep "│s ref " | grep -q "e0" || fail "s ref lacks e0"
	# the 1-bit trace: high and low blocks
	screen | grep "│overflow ref " | grep -q "▔" || fail "no high level"
	screen | grep "│overflow ref " | grep -q "▁" || fail "no low level"
	# the status line says the values under the cursor
	screen | grep -q "overflow 1/0!" || fail "status lacks the values"
	ok "W opens on the first mismatch${nc:+ (NO_COLOR)}"

	keys n
	wait_gone "▼ 35 "
	screen | grep -q "overflow 1/0!\|overflow 0/1!" || fail "n: not on a mismatch"
	keys N
	wait_for "▼ 35"
	ok "n and N walk the mismatches"

	keys -
	wait_for "3 columns a step"
	keys +
	wait_for "6 columns a step"
	ok "zoom"

	keys Escape
	wait_gone "─ w-1 · "
	screen | grep -q " queue " || fail "Esc did not close the sheet"
	# the sheet's values under its cursor go with it
	screen | grep -q "wave: \|columns a step" && fail "the sheet's message stayed after Esc"
	command_line wave
	wait_for "─ w-1 · "
	keys q
	wait_gone "─ w-1 · "
	screen | grep -q "wave: " && fail "the sheet's message stayed after q"
	ok ":wave opens it, Esc and q go back, its message with it"

	# from the candidate pane and from the trace pane too
	keys Tab Tab
	wait_for " · candidate "
	keys W
	wait_for "─ w-1 · "
	keys Escape
	wait_gone "─ w-1 · "
	keys Tab Tab
	wait_for " · trace "
	keys W
	wait_for "─ w-1 · "
	keys Escape
	wait_gone "─ w-1 · "
	ok "W from the candidate and the trace pane"
	quit_all
done

# v runs it live: the wave stage's dump is data, not text for the pane;
# a line says where it went, and no VCD reaches the screen
start 120 40 "--where id=w-1"
wait_for "w-1"
keys v
wait_for "w-1: fail at simulate" 60
keys Tab Tab Tab	# queue -> spec -> candidate -> toolchain
keys G			# its end: the wave stage came last
wait_for "» w-1: fail"
pane toolchain | grep -q -F "the wave stage's output is data for assay" ||
    fail "no line says where the wave stage's output went"
pane toolchain | grep -q -E '\$(var|enddefinitions|timescale|dumpvars)' &&
    fail "the waveform dump reached the toolchain pane"
[ "$(row w-1 | json_field verdict)" = fail ] || fail "the run was not stored"
ok "v keeps the waveform dump out of the live pane"
quit_all
echo "054-wave: ok"
