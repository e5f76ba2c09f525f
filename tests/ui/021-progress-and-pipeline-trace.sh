# 021-progress-and-pipeline-trace.sh - issue 3: the Verilator env runs
# from the workbench with live output; its build is slow (5-110 s), so
# while it runs the toolchain pane's title shows the stage and the
# seconds, and the workbench still moves through the queue.  RealBench's
# aes_sbox golden design, built with a ccache of its own that starts
# empty (a warm cache makes the build too quick to watch).  Then a
# pipeline (iverilog+yosys): the trace pane shows each env's stages.
. "$(dirname "$0")/lib.sh"
command -v verilator >/dev/null || skip "verilator not installed"
command -v g++ >/dev/null || skip "g++ not installed"
[ -d "$DATA/realbench" ] || skip "no RealBench at $DATA/realbench"

"$ASSAY" --db "$DB" import "$DATA/realbench" >/dev/null 2>&1 ||
    fail "import realbench"
REF=$("$ASSAY" --db "$DB" list --json --where \
    "task=realbench/aes_sbox origin=reference" | json_field id)
[ -n "$REF" ] || fail "no aes_sbox reference"
N=$("$ASSAY" --db "$DB" list --json --where task=realbench/aes_sbox | wc -l)
[ "$N" -gt 1 ] || fail "no samples of aes_sbox"
# As root the build runs as a uid of its own, which must reach the cache.
chmod 711 "$T"
export ASSAY_CCACHE_DIR="$T/ccache"

start 120 40 "--where task=realbench/aes_sbox"
wait_for "$REF"
wait_for "1/$N"
keys v
wait_for "build · running" 30
ok "the title shows the build stage and its clock"
# Responsive while it builds: the queue moves, the job goes on.
keys j
wait_for "2/$N" 5
screen | grep -q "build · running" || fail "the build stopped on a key"
ok "the queue moves while the build runs"
# Past 100 lines of output the title also carries the scroll position;
# the stage and its clock stay whole (the env and the id go first).
n=600
while [ $n -gt 0 ] && ! screen | grep -q -E "lines [0-9]+-[0-9]{3}/[0-9]{3}"; do
	screen | grep -q "pass at simulate" && break
	sleep 0.1; n=$((n - 1))
done
if screen | grep -q -E "lines [0-9]+-[0-9]{3}/"; then
	screen | grep -q -E "build · running [0-9]+\.[0-9] s · lines [0-9]+-[0-9]+/[0-9]+ ─" ||
	    fail "the stage, clock or position were cut from the title"
	ok "a long build's title keeps its stage, clock and position whole"
fi
wait_for "$REF: pass at simulate" 120
ok "the golden design passes"
[ "$(row "$REF" | json_field verdict)" = pass ] || fail "run not stored"
[ -n "$(ls "$T/ccache")" ] || fail "the build did not use its cache"
ok "the build filled the compiler cache"
keys q
sleep 0.3

# A pipeline's run in the trace pane: one row per env, its stages.
command -v iverilog >/dev/null && command -v yosys >/dev/null || exit 0
cat > "$T/latch.jsonl" <<'EOF'
{"task": {"id": "local/enc", "domain": "chip", "env": "iverilog+yosys", "env_params": {"iverilog": {"top": "tb"}, "yosys": {"latches": false}}, "files": {"tb.sv": "module tb;\n  reg [1:0] in; wire y;\n  TopModule dut(.in(in), .y(y));\n  initial begin\n    in = 2'b11; #1;\n    if (y !== 1'b1) $fatal(1, \"wrong\");\n    $display(\"Your Design Passed\");\n    $finish;\n  end\nendmodule\n"}}, "candidate": {"origin": "latchy", "code": "module TopModule(input [1:0] in, output reg y);\n  always @(*) if (in[0]) y = in[1];\nendmodule\n"}}
EOF
"$ASSAY" --db "$DB" import "$T/latch.jsonl" >/dev/null || fail "import pipeline"
"$ASSAY" --db "$DB" verify --quiet --where origin=latchy >/dev/null ||
    fail "verify pipeline"
start 120 40 "--where origin=latchy"
wait_for "yosys:synth"
pane trace | grep -q "iverilog *pass *compile ✓ isolate ✓ simulate ✓" ||
    fail "no iverilog row in the trace"
pane trace | grep -q "yosys *fail *synth ✗" ||
    fail "no yosys row in the trace"
ok "the trace pane shows each env's stages"
