# 214: a candidate cannot reach the key that authenticates run results
# (issue 22 item 5).  A design opens the shard manifest (which holds the
# campaign key) and the database (which holds its own key and the
# campaign's) by their absolute host paths while it is verified, through
# verify --input on the slice and through a plain verify --results, and
# prints what it finds.  The sandbox shows it no host file: it opens
# nothing, and neither key is in any run log, results file or export;
# the slice's runs merge under the campaign key.
. "$(dirname "$0")/lib.sh"
command -v iverilog >/dev/null || skip "iverilog not installed"
command -v jq >/dev/null || skip "no jq"
command -v sqlite3 >/dev/null || skip "no sqlite3 shell"

mkdir "$T/sl" "$T/tmp"
chmod 711 "$T" "$T/tmp"		# the sandbox's uid reaches its work dirs
probe() {	# probe FILE...: a design that prints what each file holds
	printf 'module TopModule(input a, input b, output y);\n'
	printf '  assign y = a & b;\n  integer f, n; reg [8*300-1:0] line;\n'
	printf '  initial begin\n'
	for p in "$@"; do
		printf '    f = $fopen("%s", "r");\n' "$p"
		printf '    $display("probe %s fd=%%0d", f);\n' "$(basename "$p")"
		printf '    if (f != 0) while (!$feof(f)) begin n = $fgets(line, f); $display("probe: %%0s", line); end\n'
	done
	printf '  end\nendmodule\n'
}
probe "$T/sl/manifest.json" "$DB" >"$T/probe.v"
python3 - "$T/probe.v" >"$T/task.jsonl" <<'PY'
import json, sys
tb = """module tb;
  reg a, b; wire y; integer i, errors = 0;
  TopModule dut(.a(a), .b(b), .y(y));
  initial begin
    for (i = 0; i < 4; i = i + 1) begin
      {a, b} = i; #1;
      if (y !== (a & b)) errors = errors + 1;
    end
    $display("Mismatches: %1d in %1d samples", errors, 4);
    $finish;
  end
endmodule
"""
ref = "module TopModule(input a, input b, output y);\n  assign y = a & b;\nendmodule\n"
print(json.dumps({"task": {"id": "local/and2", "domain": "chip", "benchmark": "local",
      "env": "iverilog", "env_params": {"top": "tb"}, "spec": "An AND gate.",
      "files": {"tb.sv": tb}, "reference": ref},
      "candidate": {"id": "probe1", "origin": "red-team", "code": open(sys.argv[1]).read()}}))
PY
"$ASSAY" --db "$DB" import "$T/task.jsonl" >/dev/null || fail "import"
"$ASSAY" --db "$DB" export --format raw --shards 1 -o "$T/sl" >/dev/null || fail "export --shards"
CKEY=$(jq -r .results_key.key "$T/sl/manifest.json")
DKEY=$(sqlite3 "$DB" "SELECT key FROM results_key WHERE kind = 'database'")
[ ${#CKEY} -eq 64 ] && [ ${#DKEY} -eq 64 ] || fail "no keys"

# On the node: the slice in a scratch database, the campaign key.
TMPDIR=$T/tmp "$ASSAY" verify --input "$T/sl/slice-0000.jsonl" \
    --results "$T/r-slice.jsonl" --quiet --timeout 60 >/dev/null 2>"$T/v1.err" ||
    fail "verify --input: $(cat "$T/v1.err")"
# On the main database: its own key.
TMPDIR=$T/tmp "$ASSAY" --db "$DB" verify --force --quiet --timeout 60 \
    --results "$T/r-db.jsonl" >/dev/null 2>"$T/v2.err" || fail "verify: $(cat "$T/v2.err")"
jq -r 'select(.candidate == "probe1") | .log' "$T/r-slice.jsonl" "$T/r-db.jsonl" >"$T/probe.log"
cat "$T/probe.log"
if grep 'fd=' "$T/probe.log" | grep -qv 'fd=0$'; then
	fail "the design opened a host file"
fi
"$ASSAY" --db "$DB" merge "$T/r-slice.jsonl" >"$T/m.out" 2>&1 || fail "merge: $(cat "$T/m.out")"
"$ASSAY" --db "$DB" show --json probe1 >"$T/show.json" || fail "show"
"$ASSAY" --db "$DB" export --format raw --include-failing >"$T/raw.jsonl" 2>/dev/null || fail "export"
for k in "$CKEY" "$DKEY"; do
	if grep -a -q "$k" "$T/r-slice.jsonl" "$T/r-db.jsonl" "$T/show.json" \
	    "$T/raw.jsonl" "$T/v1.err" "$T/v2.err" "$T/m.out"; then
		fail "a results key reached a log, a results file or an export"
	fi
done
expect_eq "slice lines under the campaign key" \
    "$(jq -r .mac_key "$T/r-slice.jsonl" | sort -u)" "$(jq -r .results_key.id "$T/sl/manifest.json")"
echo "214: ok"
