# 021: a design cannot make the testbench's fail lines its own (issue 22,
# docs/security.md "Known gaps", found while writing the threat model).
# Only lines that carry the run's secret count, and the testbench's
# lines begin with it; a design that wrote " " without a newline just
# before each check made every fail line start with its blank instead,
# untagged and ignored, and the pass line then decided: `assign y = 0`
# failed, the same with `always @(a) $write(" ")` passed, in Icarus and
# Verilator.  The secret now starts a tagged line wherever it stands.
. "$(dirname "$0")/lib.sh"
command -v iverilog >/dev/null || skip "iverilog not installed"

python3 - "$T/rows.jsonl" <<'PY' || fail "write rows"
import json, sys
tb = """module tb;
  reg [1:0] a; wire y; integer i;
  TopModule dut(.a(a), .y(y));
  initial begin
    for (i = 0; i < 4; i = i + 1) begin
      a = i; #1;
      if (y !== ^a) $display("FAIL a=%b y=%b", a, y);
    end
    $display("PASS all checked");
    $finish;
  end
endmodule
"""
ref = "module TopModule(input [1:0] a, output y);\n  assign y = ^a;\nendmodule\n"
cands = {
    "wrong": "module TopModule(input [1:0] a, output y);\n  assign y = 1'b0;\nendmodule\n",
    "blank": "module TopModule(input [1:0] a, output y);\n  assign y = 1'b0;\n  always @(a) if (^a) $write(\" \");\nendmodule\n",
    "cr": "module TopModule(input [1:0] a, output y);\n  assign y = 1'b0;\n  always @(a) if (^a) $write(\"%c\", 8'd13);\nendmodule\n",
    "later": "module TopModule(input [1:0] a, output y);\n  assign y = 1'b0;\n  always @(a) #1 $write(\"x\");\nendmodule\n",
}
rows = []
for env, params in (("iverilog", {"top": "tb", "timeout_s": 30}),
                    ("verilator", {"top": "tb", "timeout_s": 300})):
    params = dict(params, pass_pattern="^PASS", fail_pattern="^FAIL")
    tid = "local/parity-" + env
    rows.append({"task": {"id": tid, "benchmark": "local", "domain": "chip",
                          "env": env, "env_params": params,
                          "files": {"tb.sv": tb}, "reference": ref}})
    for origin, code in cands.items():
        rows.append({"task": tid, "candidate": {"origin": origin + "-" + env, "code": code}})
open(sys.argv[1], "w").write("".join(json.dumps(r) + "\n" for r in rows))
PY
"$ASSAY" --db "$DB" import "$T/rows.jsonl" >/dev/null || fail "import"
envs=iverilog
command -v verilator >/dev/null && envs="$envs verilator"
for env in $envs; do
	"$ASSAY" --db "$DB" verify --quiet --where "env=$env" >/dev/null 2>&1
	v() { "$ASSAY" --db "$DB" list --json --where "origin=$1-$env" |
	    sed -n 's/.*"verdict":"\([^"]*\)".*/\1/p'; }
	expect_eq "$env reference" "$("$ASSAY" --db "$DB" list --json \
	    --where "task=local/parity-$env origin=reference" |
	    sed -n 's/.*"verdict":"\([^"]*\)".*/\1/p')" pass
	for o in wrong blank cr later; do
		expect_eq "$env $o" "$(v $o)" fail
	done
done
