# 093: data files (issue 11, item 2).  A task file whose name is not a
# Verilog source (.v .sv .vh .svh .vlib), or whose role is "data", is not
# compiled: it is put read-only where the simulation runs, so that the
# testbench opens it by its bare name ($readmemh("tdata.txt", ...),
# $fopen("golden.txt", "r")), under the sandbox.  A candidate that
# rewrites the expected values before the testbench reads them (which
# passes when run by hand: the forged file is what the testbench reads)
# must not pass: its $fopen is refused before it runs (fail/forbidden-call,
# issue 22), and the file is read-only in the sandbox besides.  The same
# task runs under verilator when it is installed.
. "$(dirname "$0")/lib.sh"
command -v iverilog >/dev/null || skip "iverilog not installed"

jstr() { sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/\t/\\t/g' "$1" | awk 'BEGIN { ORS = "" } { print $0 "\\n" }'; }
cat > "$T/tb.sv" <<'SV'
module tb;
  reg [7:0] a; wire [7:0] y;
  reg [7:0] in [0:3];
  integer fd, i, want, errors = 0, n = 0;
  TopModule dut(.a(a), .y(y));
  initial begin
    $readmemh("tdata.txt", in);
    #5;
    fd = $fopen("golden.txt", "r");
    if (fd == 0) begin $display("cannot open golden.txt"); $fatal(1); end
    for (i = 0; i < 4; i = i + 1) begin
      a = in[i]; #1;
      if ($fscanf(fd, "%h", want) != 1) $fatal(1, "golden.txt too short");
      n = n + 1;
      if (y !== want[7:0]) errors = errors + 1;
    end
    $display("Mismatches: %1d in %1d samples", errors, n);
    $finish;
  end
endmodule
SV
cat > "$T/ref.v" <<'SV'
module TopModule(input [7:0] a, output [7:0] y);
  assign y = a + 1;
endmodule
SV
cat > "$T/wrong.v" <<'SV'
module TopModule(input [7:0] a, output [7:0] y);
  assign y = a - 1;
endmodule
SV
# y = a, and golden.txt rewritten to match it at time 0.
cat > "$T/forger.v" <<'SV'
module TopModule(input [7:0] a, output [7:0] y);
  integer fd;
  assign y = a;
  initial begin
    fd = $fopen("golden.txt", "w");
    if (fd != 0) begin
      $fdisplay(fd, "01\n10\n7f\nfe");
      $fclose(fd);
    end
  end
endmodule
SV
printf '01\n10\n7f\nfe\n' > "$T/tdata.txt"
printf '02\n11\n80\nff\n' > "$T/golden.txt"

# By hand, in one directory, the forger passes: the point of the test.
mkdir "$T/hand" && cp "$T/tb.sv" "$T/forger.v" "$T/tdata.txt" "$T/golden.txt" "$T/hand/"
(cd "$T/hand" && iverilog -g2012 -s tb -o sim forger.v tb.sv && vvp -n sim) > "$T/hand.out" 2>&1
grep -q "Mismatches: 0 in 4 samples" "$T/hand.out" || fail "by hand the forger should pass: $(cat "$T/hand.out")"

task() { # ID ENV
	printf '{"task": {"id": "%s", "env": "%s", "env_params": {"top": "tb"}, "files": [{"name": "tb.sv", "text": "%s"}, {"name": "tdata.txt", "text": "%s"}, {"name": "golden.txt", "role": "data", "text": "%s"}], "reference": "%s"}}\n' \
	    "$1" "$2" "$(jstr "$T/tb.sv")" "$(jstr "$T/tdata.txt")" "$(jstr "$T/golden.txt")" "$(jstr "$T/ref.v")"
	for c in wrong forger; do
		printf '{"task": "%s", "candidate": {"origin": "%s", "code": "%s"}}\n' "$1" "$c" "$(jstr "$T/$c.v")"
	done
}
task local/data-iv iverilog > "$T/tasks.jsonl"
HAVE_VL=0
command -v verilator >/dev/null && command -v g++ >/dev/null && HAVE_VL=1
[ $HAVE_VL = 1 ] && task local/data-vl verilator >> "$T/tasks.jsonl"
"$ASSAY" --db "$DB" import "$T/tasks.jsonl" || fail "import"

"$ASSAY" --db "$DB" verify --quiet >/dev/null || fail "verify"
v() { "$ASSAY" --db "$DB" list --json --where "$1" | grep -o '"verdict":"[a-z-]*"' | head -n 1; }
envs=iv
[ $HAVE_VL = 1 ] && envs="iv vl"
for e in $envs; do
	expect_eq "$e: reference reads its data and passes" "$(v "task=local/data-$e origin=reference")" '"verdict":"pass"'
	expect_eq "$e: a wrong design fails" "$(v "task=local/data-$e origin=wrong")" '"verdict":"fail"'
	expect_eq "$e: the forger cannot rewrite golden.txt" "$(v "task=local/data-$e origin=forger")" '"verdict":"fail"'
	id=$("$ASSAY" --db "$DB" list --where "task=local/data-$e origin=forger" | awk 'NR==2 {print $1}')
	"$ASSAY" --db "$DB" show "$id" --json | grep -q '"subcategory":"forbidden-call"' ||
	    fail "$e: the forger's \$fopen should be refused"
	# The data files are inputs of the run, hashed, and bound read-only
	# (the wrong design's run: the forger's never simulates).
	id=$("$ASSAY" --db "$DB" list --where "task=local/data-$e origin=wrong" | awk 'NR==2 {print $1}')
	"$ASSAY" --db "$DB" show "$id" --json > "$T/show.json"
	grep -q '\\"golden.txt\\":\\"' "$T/show.json" || grep -q '"golden.txt":"' "$T/show.json" ||
	    fail "$e: golden.txt is not among the run's inputs"
	grep -q -- "--ro-bind [^ ]*/run/golden.txt /work/golden.txt" "$T/show.json" ||
	    fail "$e: golden.txt is not bound read-only"
done
[ $HAVE_VL = 1 ] || echo "verilator not installed: its half skipped"
echo "ok: data files"
