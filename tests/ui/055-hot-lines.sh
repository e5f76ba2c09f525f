# 055-hot-lines.sh - issue 26 item 4: a performance failure marks its hot
# lines.  max_u8's model-c (examples/compiler) is correct but slower than
# the reference: callgrind counts 131072 instructions on each of lines 16
# and 17 (its 32-step countdown, n = 4096), 43.8 % each.  The candidate
# pane marks both H in the gutter with their share after the line; the
# evidence row names the bottleneck.
. "$(dirname "$0")/lib.sh"
[ "$(uname -m)" = x86_64 ] || skip "x86-asm needs an x86-64 host"
command -v valgrind >/dev/null || skip "valgrind not installed: no hot lines"
EX=$(cd "$(dirname "$0")/../../examples/compiler" && pwd)

"$ASSAY" --db "$DB" import "$EX/max_u8.jsonl" >/dev/null || fail "import"
"$ASSAY" --db "$DB" verify --quiet --where origin=model-c >/dev/null
[ "$("$ASSAY" --db "$DB" list --json --where \
    'origin=model-c category=performance' | wc -l)" = 1 ] ||
	fail "model-c is not a performance failure"

start 120 40 "--where origin=model-c"
wait_for "1/1"
wait_for "decl"
screen | grep -q "16H.*decl.*%r8d.*hot: 43.8 % of the instructions" ||
	fail "line 16 is not marked hot"
screen | grep -q "17H.*jnz.*\.Lspin.*hot: 43.8 % of the instructions" ||
	fail "line 17 is not marked hot"
screen | grep -q "18H" && fail "line 18 (1.4 %) is marked"
screen | grep -q "line 16: correct but slower" ||
	fail "the evidence row does not point at line 16"
ok "the hot lines 16 and 17 are marked H with their share"

keys q
wait_for "ASSAY-EXIT 0"
