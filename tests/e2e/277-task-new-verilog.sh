# 277: `assay task new` on real code (issue 27, item 1): RTLLM's
# counter_12 (../shared/data/rtllm/Control/Counter/counter_12: its
# design_description.txt, testbench.v and verified_counter_12.v).
# - Its ports come out as the file declares them (read off
#   verified_counter_12.v by hand: rst_n, clk, valid_count one-bit
#   inputs, out a 4-bit output reg), the module renamed to the one the
#   testbench instantiates.
# - With the testbench the task (env iverilog) verifies its reference as
#   pass in the sandbox and is stored with that run.
# - Without it the task (env yosys, equivalence with the reference by SAT
#   induction) accepts the reference and refuses a copy whose operator is
#   flipped (out + 1 -> out - 1) as fail/not-equivalent, and one that
#   wraps at 10 (differs only on the 11th count) at the sequential
#   default depth; --equiv-depth is stored, a bounded self-check warns.
# - A second task new with an existing id is refused before verifying;
#   a self-check that times out says so, with --testbench/--timeout.
# - A reference that fails its own testbench is refused with the reason
#   and nothing is stored; a design with a comment above its module takes
#   it as the requirement, one without asks for --spec or --edit; a
#   parameterised module's widths are evaluated; --edit takes the task
#   back from $EDITOR; generate's prompt and the sft export carry the
#   interface.
. "$(dirname "$0")/lib.sh"
need_data
command -v iverilog >/dev/null || skip "iverilog not installed"
command -v yosys >/dev/null || skip "yosys not installed"

D="$DATA/rtllm/Control/Counter/counter_12"
[ -f "$D/verified_counter_12.v" ] || skip "no RTLLM counter_12 at $D"
REF=$D/verified_counter_12.v

# 1. The ports, without storing anything.
"$ASSAY" --db "$DB" task new "$REF" --spec "$D/design_description.txt" \
    --testbench "$D/testbench.v" --dry-run --json > "$T/dry.json" ||
    fail "dry run: $(cat "$T/dry.json")"
expect_eq "module" "$(jq -r .module "$T/dry.json")" counter_12
expect_eq "ports" "$(jq -r '[.ports[] | "\(.dir) \(.name) \(.width)"] | join(", ")' "$T/dry.json")" \
    "input rst_n 1, input clk 1, input valid_count 1, output out 4"
expect_eq "out's range" "$(jq -r '.ports[3] | "\(.type) \(.range)"' "$T/dry.json")" "reg [3:0]"
expect_eq "dry run env" "$(jq -r .row.task.env "$T/dry.json")" iverilog
expect_eq "dry run top" "$(jq -r .row.task.env_params.top "$T/dry.json")" counter_12_tb
jq -r .row.task.reference "$T/dry.json" | grep -q '^module counter_12 *$' ||
    fail "the reference's module is not renamed to counter_12"
jq -r .row.task.interface "$T/dry.json" | grep -q 'output reg \[3:0\] out' ||
    fail "interface: $(jq -r .row.task.interface "$T/dry.json")"
[ ! -e "$DB" ] || fail "--dry-run made a database"

# 2. With the testbench: the reference passes and the task is stored.
"$ASSAY" --db "$DB" task new "$REF" --spec "$D/design_description.txt" \
    --testbench "$D/testbench.v" --json > "$T/tb.json" || fail "task new: $(cat "$T/tb.json")"
expect_eq "stored" "$(jq -r .stored "$T/tb.json")" true
expect_eq "testbench verdict" "$(jq -r .verdict "$T/tb.json")" pass
expect_eq "testbench stage" "$(jq -r .stage "$T/tb.json")" simulate
expect_eq "stored run" "$(count 'task=local/counter_12 origin=reference verdict=pass')" 1
"$ASSAY" --db "$DB" show --json "$(jq -r .reference "$T/tb.json")" | grep -q 'Your Design Passed' ||
    fail "the stored run is not the testbench's"
# the same id again is refused, nothing added
"$ASSAY" --db "$DB" task new "$REF" --spec "$D/design_description.txt" \
    --testbench "$D/testbench.v" 2> "$T/again.err" && fail "a second local/counter_12 was stored"
grep -q 'exists already' "$T/again.err" || fail "again: $(cat "$T/again.err")"
# ... before anything is verified (no stage's progress line)
grep -q 'nothing verified' "$T/again.err" || fail "again: $(cat "$T/again.err")"
grep -q 'simulate (at ' "$T/again.err" && fail "the reference was verified before the id was checked"
expect_eq "candidates after the refusal" "$(count 'task=local/counter_12')" 1

# 3. Without the testbench: yosys equivalence accepts the reference ...
"$ASSAY" --db "$DB" task new "$REF" --spec "$D/design_description.txt" \
    --top verified_counter_12 --id local/counter_12_equiv --json > "$T/eq.json" ||
    fail "task new (equiv): $(cat "$T/eq.json")"
expect_eq "equiv env" "$(jq -r .row.task.env "$T/eq.json")" yosys
expect_eq "equiv verdict" "$(jq -r .verdict "$T/eq.json")" pass
case $(jq -r .metrics.equiv "$T/eq.json") in
induction|bounded) echo "ok: the reference is proven equivalent to itself ($(jq -r .metrics.equiv "$T/eq.json"))" ;;
*) fail "equiv proof: $(jq -c .metrics "$T/eq.json")" ;;
esac
# mutant SED ORIGIN: the reference changed by SED, verified as a
# candidate of local/counter_12_equiv: must fail at equiv, not-equivalent
mutant() {
    sed "$1" "$REF" > "$T/$2.v"
    cmp -s "$T/$2.v" "$REF" && fail "the $2 mutant is the reference"
    jq -cn --rawfile code "$T/$2.v" --arg o "$2" \
        '{task: "local/counter_12_equiv", candidate: {origin: $o, code: $code}}' > "$T/$2.jsonl"
    "$ASSAY" --db "$DB" import "$T/$2.jsonl" > /dev/null || fail "import the $2 mutant"
    "$ASSAY" --db "$DB" verify --where origin="$2" > "$T/verify.txt" || fail "verify: $(cat "$T/verify.txt")"
    row=$("$ASSAY" --db "$DB" list --json --where origin="$2")
    expect_eq "$2 verdict" "$(echo "$row" | jq -r .verdict)" fail
    expect_eq "$2 stage" "$(echo "$row" | jq -r .stage)" equiv
    expect_eq "$2 subcategory" "$(echo "$row" | jq -r .subcategory)" not-equivalent
}
# ... and refuses a mutated copy: out + 1 made out - 1
mutant 's/out <= out + 1;/out <= out - 1;/' mutant
# ... and one that differs only after a whole pass of the count: it
# wraps at 10, not 11 (the 11th clock).  The old default bound of 20
# steps (10 cycles: clk2fflogic makes two steps of a cycle) passed it
# (measured); a sequential design gets TASK_NEW_EQUIV_DEPTH_SEQ = 60.
expect_eq "sequential depth" "$(jq -r .row.task.env_params.equiv_depth "$T/eq.json")" 60
mutant "s/4'd11/4'd10/" wrap10
# --equiv-depth is the bound asked for, and a bounded self-check warns
"$ASSAY" --db "$DB" task new "$REF" --spec "$D/design_description.txt" \
    --top verified_counter_12 --id local/counter_12_d8 --equiv-depth 8 --dry-run --json > "$T/d8.json" ||
    fail "--equiv-depth: $(cat "$T/d8.json")"
expect_eq "--equiv-depth stored" "$(jq -r .row.task.env_params.equiv_depth "$T/d8.json")" 8
"$ASSAY" --db "$DB" task new "$REF" --testbench "$D/testbench.v" --equiv-depth 8 --id local/x \
    --spec "$D/design_description.txt" 2> "$T/d8.err" && fail "--equiv-depth with a testbench was taken"
grep -q 'equiv-depth bounds the proof of a task without a testbench' "$T/d8.err" || fail "d8: $(cat "$T/d8.err")"
# an 8-bit counter whose output is its top bit: induction cannot close
# (two states that differ in the low bits agree for up to 128 cycles),
# so 8 steps are only a bound, and that is told on stdout and in --json
# (--allow-vacuous: a constant 0 matches its top bit for 8 steps too,
# which is the vacuity check's to refuse, not this test's subject)
cat > "$T/msb.v" <<'EOF'
// Counts clock cycles; top is the count's most significant bit.
module msb (input clk, input rst, output top);
  reg [7:0] n;
  always @(posedge clk) if (rst) n <= 0; else n <= n + 1;
  assign top = n[7];
endmodule
EOF
"$ASSAY" --db "$DB" task new "$T/msb.v" --equiv-depth 8 --allow-vacuous > "$T/msb.out" 2> /dev/null || fail "msb: $(cat "$T/msb.out")"
grep -qx "warning: the reference's equivalence with itself is proven for 8 steps only: a mutant that differs later passes; raise --equiv-depth" "$T/msb.out" ||
    fail "no bound warning: $(cat "$T/msb.out")"
"$ASSAY" --db "$DB" task new "$T/msb.v" --equiv-depth 8 --allow-vacuous --id local/msb2 --json > "$T/msb.json" || fail "msb json"
expect_eq "msb proof" "$(jq -r .metrics.equiv "$T/msb.json")" bounded
jq -r '.warnings[]' "$T/msb.json" | grep -q 'proven for 8 steps only' || fail "json warnings: $(jq -c .warnings "$T/msb.json")"

# 4. A reference that fails its own testbench: why, and nothing stored.
sed 's/4'"'"'d11/4'"'"'d10/' "$REF" > "$T/verified_counter_12.v"
"$ASSAY" --db "$DB" task new "$T/verified_counter_12.v" --spec "$D/design_description.txt" \
    --testbench "$D/testbench.v" --id local/counter_12_bad > "$T/bad.out" 2> "$T/bad.err"
expect_eq "bad reference exit" "$?" 1
grep -q 'the reference does not pass its own verification: fail at simulate' "$T/bad.err" ||
    fail "bad: $(cat "$T/bad.err")"
grep -q 'nothing stored' "$T/bad.err" || fail "bad: $(cat "$T/bad.err")"
grep -q '^  simulate (at [0-9]* s)$' "$T/bad.err" || fail "no progress line: $(cat "$T/bad.err")"
expect_eq "bad reference stored" "$(count 'task=local/counter_12_bad')" 0

# 4b. A self-check that runs out of time says so, with what to do:
# adder_pipe_64bit's proof takes over 60 s (measured), 3 s is its limit.
P=$DATA/rtllm/Arithmetic/Adder/adder_pipe_64bit
"$ASSAY" --db "$DB" task new "$P/verified_adder_64bit.v" --spec "$P/design_description.txt" \
    --timeout 3 --id local/slow --json > "$T/slow.json"
expect_eq "slow exit" "$?" 1
expect_eq "slow verdict" "$(jq -r .verdict "$T/slow.json")" timeout
jq -r .why "$T/slow.json" | grep -q "^the reference's own verification timed out at equiv (the limit: 3 s): .*give --testbench TB, or a larger --timeout S$" ||
    fail "slow: $(jq -r .why "$T/slow.json")"
expect_eq "slow stored" "$(count 'task=local/slow')" 0

# 4c. A data file the testbench reads that is not given is refused
# before anything runs: RTLLM's RISC-V alu reads reference.dat
# ($readmemh at testbench.v:43).
L=$DATA/rtllm/Miscellaneous/RISC-V/alu
"$ASSAY" --db "$DB" task new "$L/verified_alu.v" --testbench "$L/testbench.v" \
    --spec "$L/design_description.txt" > /dev/null 2> "$T/alu.err" && fail "alu without its data was taken"
grep -q "testbench.v:43: reads reference.dat, which is not given (name it after the design: task new verified_alu.v reference.dat --testbench testbench.v)" "$T/alu.err" ||
    fail "alu: $(cat "$T/alu.err")"
grep -q 'simulate (at' "$T/alu.err" && fail "alu: verified before the refusal"
"$ASSAY" --db "$DB" task new "$L/verified_alu.v" "$L/reference.dat" --testbench "$L/testbench.v" \
    --spec "$L/design_description.txt" --dry-run > /dev/null 2> "$T/alu.err" || fail "alu with its data: $(cat "$T/alu.err")"

# 4d. A refusal names the user's file once, not the env's candidate.sv
# too: RTLLM's float_multi does not synthesise (yosys: line 17's event
# list).
M=$DATA/rtllm/Arithmetic/Other/float_multi
"$ASSAY" --db "$DB" task new "$M/verified_float_multi.v" --spec "$M/design_description.txt" \
    --json > "$T/fm.json"
expect_eq "float_multi exit" "$?" 1
jq -r .why "$T/fm.json" | grep -q '/verified_float_multi.v:17: ERROR: Found non-synthesizable event list!$' ||
    fail "float_multi: $(jq -r .why "$T/fm.json")"

# 5. The comment above a module is its requirement; parameters evaluate.
cat > "$T/acc.v" <<'EOF'
// Accumulates in_data into sum on every clock while en is high;
// a synchronous reset clears sum.
module acc #(parameter W = 6, parameter OUT = W + 2) (
  input clk, input rst, input en,
  input [W-1:0] in_data,
  output reg [OUT-1:0] sum
);
  always @(posedge clk) if (rst) sum <= 0; else if (en) sum <= sum + in_data;
endmodule
EOF
"$ASSAY" --db "$DB" task new "$T/acc.v" --json > "$T/acc.json" || fail "acc: $(cat "$T/acc.json")"
expect_eq "acc widths" "$(jq -r '[.ports[] | "\(.name) \(.width)"] | join(", ")' "$T/acc.json")" \
    "clk 1, rst 1, en 1, in_data 6, sum 8"
expect_eq "acc parameters" "$(jq -r '[.parameters[] | "\(.name)=\(.value)"] | join(" ")' "$T/acc.json")" "W=6 OUT=W + 2"
expect_eq "acc spec" "$(jq -r .row.task.spec "$T/acc.json" | head -n 1)" \
    "Accumulates in_data into sum on every clock while en is high;"
expect_eq "acc verdict" "$(jq -r .verdict "$T/acc.json")" pass
# no comment, no --spec: asked for, nothing stored
sed 1,2d "$T/acc.v" > "$T/bare.v"
"$ASSAY" --db "$DB" task new "$T/bare.v" --id local/bare < /dev/null > /dev/null 2> "$T/bare.err" &&
    fail "a task without a requirement was stored"
grep -q 'no requirement' "$T/bare.err" || fail "bare: $(cat "$T/bare.err")"
# --edit: what the editor writes is the task
cat > "$T/ed.sh" <<'EOF'
#!/bin/sh
sed -i 's/TODO: say what the code does\./Sums in_data while en is high./' "$1"
EOF
chmod +x "$T/ed.sh"
EDITOR=$T/ed.sh "$ASSAY" --db "$DB" task new "$T/bare.v" --id local/bare --edit --json > "$T/ed.json" ||
    fail "edit: $(cat "$T/ed.json")"
expect_eq "edited spec" "$(jq -r .row.task.spec "$T/ed.json")" "Sums in_data while en is high."
# EDITOR is shell words, as git reads it: a quoted path stays one word
EDITOR="sh \"$T/ed.sh\"" "$ASSAY" --db "$DB" task new "$T/bare.v" --id local/bare2 --edit --json > "$T/ed2.json" ||
    fail "edit with a quoted EDITOR: $(cat "$T/ed2.json")"
expect_eq "edited spec, quoted EDITOR" "$(jq -r .row.task.spec "$T/ed2.json")" "Sums in_data while en is high."

# 6. The interface reaches the prompt generate sends and the sft export.
"$ASSAY" --db "$DB" export --format sft --where 'status!=rejected' -o "$T/sft.jsonl" > /dev/null 2>&1 ||
    fail "export"
grep '"local/acc"' "$T/sft.jsonl" | grep -q 'Interface:\\nmodule acc #(\\n    parameter W = 6' ||
    fail "sft: no interface for local/acc: $(grep -c . "$T/sft.jsonl") rows"
# generate asks a command generator, which keeps the request it got and
# answers with the design
printf '#!/bin/sh\ncat > "%s/request.json"\ncat "%s/acc.v"\n' "$T" "$T" > "$T/gen.sh"
chmod +x "$T/gen.sh"
"$ASSAY" --db "$DB" generate --where task=local/acc --command "$T/gen.sh" --model cmd-1 \
    > "$T/gen.out" 2>&1 || fail "generate: $(cat "$T/gen.out")"
jq -r '.messages[1].content' "$T/request.json" | grep -q '^    input \[W-1:0\] in_data,  // 6 bits$' ||
    fail "the prompt lacks the interface: $(jq -r '.messages[1].content' "$T/request.json")"
echo "ok: task new"
