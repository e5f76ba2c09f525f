# 282: `assay task new` refuses a vacuous task (review finding A5): a
# reference whose outputs are all x proves equivalent to anything (yosys:
# an x of the reference matches any value), and a testbench that compares
# nothing passes any design; either way every candidate would pass.
# Before storing, the task's verification must reject trivial stubs (the
# same ports, outputs constant 0, then all 1s); here a stub passes, the
# task is refused and nothing stored, unless --allow-vacuous.  A real
# reference (the xor below) rejects both stubs and is stored; so for a
# C function (x86-asm) that returns 0 against one that adds 1.
. "$(dirname "$0")/lib.sh"
command -v yosys >/dev/null || skip "yosys not installed"
command -v iverilog >/dev/null || skip "iverilog not installed"
command -v bwrap >/dev/null || skip "bubblewrap not installed"

printf '%s\n' '// y is nothing in particular' \
    'module allx(input [7:0] a, output [7:0] y);' \
    '  assign y = 8'"'"'bx;' 'endmodule' > "$T/allx.v"
printf '%s\n' '// y = a xor b' \
    'module xr(input [3:0] a, input [3:0] b, output [3:0] y);' \
    '  assign y = a ^ b;' 'endmodule' > "$T/xr.v"
# a testbench that drives the design and checks nothing
printf '%s\n' '`timescale 1ns/1ps' 'module tb;' '  reg [3:0] a, b;' \
    '  wire [3:0] y;' '  xr dut(.a(a), .b(b), .y(y));' \
    '  initial begin a = 1; b = 2; #5;' \
    '    $display("Mismatches: 0 in 1 samples"); $finish; end' \
    'endmodule' > "$T/tb_any.v"

# 1. the all-x reference (yosys equivalence): refused, nothing stored
"$ASSAY" --db "$DB" task new "$T/allx.v" > "$T/x.out" 2> "$T/x.err" &&
    fail "the all-x reference was stored: $(cat "$T/x.out")"
grep -q "the verification accepts a design whose outputs are constant 0: the reference or the testbench does not constrain the outputs; nothing stored" "$T/x.err" ||
    fail "no vacuous message: $(cat "$T/x.err")"
expect_eq "nothing stored (all x)" "$(count 'task=local/allx')" 0

# 2. a testbench that passes anything: refused
"$ASSAY" --db "$DB" task new "$T/xr.v" --testbench "$T/tb_any.v" \
    --id local/xr-any > "$T/any.out" 2> "$T/any.err" &&
    fail "the check-nothing testbench was stored"
grep -q "accepts a design whose outputs are constant 0" "$T/any.err" ||
    fail "no vacuous message: $(cat "$T/any.err")"
expect_eq "nothing stored (testbench)" "$(count 'task=local/xr-any')" 0

# 3. --allow-vacuous stores it anyway
"$ASSAY" --db "$DB" task new "$T/allx.v" --allow-vacuous > "$T/ax.out" 2>&1 ||
    fail "--allow-vacuous: $(cat "$T/ax.out")"
expect_eq "stored with --allow-vacuous" "$(count 'task=local/allx')" 1

# 4. a real reference rejects both stubs and is stored
"$ASSAY" --db "$DB" task new "$T/xr.v" > "$T/xr.out" 2>&1 ||
    fail "xor: $(cat "$T/xr.out")"
expect_eq "the xor task stored" "$(count 'task=local/xr verdict=pass')" 1
# 5. a C function that returns 0 whatever its input (x86-asm): the
# return-0 stub passes, refused; one that adds 1 is stored
if command -v gcc >/dev/null; then
	printf '%s\n' '#include <stdint.h>' '/* returns zero */' \
	    'int32_t zero(int32_t a) { (void)a; return 0; }' > "$T/zero.c"
	printf '%s\n' '#include <stdint.h>' '/* adds one */' \
	    'int32_t inc(int32_t a) { return a + 1; }' > "$T/inc.c"
	gcc -O2 -S "$T/zero.c" -o "$T/zero.s" && gcc -O2 -S "$T/inc.c" \
	    -o "$T/inc.s" || fail "gcc -S"
	"$ASSAY" --db "$DB" task new "$T/zero.c" --reference "$T/zero.s" \
	    > "$T/z.out" 2> "$T/z.err" && fail "the return-0 task was stored"
	grep -q "accepts a function whose outputs are constant 0" "$T/z.err" ||
	    fail "no vacuous message: $(cat "$T/z.err")"
	"$ASSAY" --db "$DB" task new "$T/inc.c" --reference "$T/inc.s" \
	    > "$T/i.out" 2>&1 || fail "inc: $(cat "$T/i.out")"
	expect_eq "the inc task stored" "$(count 'task=local/inc verdict=pass')" 1
fi
echo "ok: task new vacuous"
