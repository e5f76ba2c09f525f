# 068-model-error-key.sh - what an attacker found in the model loop: a
# server's error body without a string error.message was shown as its
# bytes, so an API key written as JSON \u escapes reached the toolchain
# pane, the status bar and the attempt's error in the database.  The
# test's chat-completions server on 127.0.0.1 (tests/e2e/model/
# chat_server.py) answers the ESC500 task with a 500 whose body holds the
# key with every character escaped (and once escaped twice): R shows the
# retry line and the failure with [redacted] in its place, and the key,
# plain or in any escaped form assay catches, is on no screen and in no
# byte of the database.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || skip "no python3 for the test's server"
command -v iverilog >/dev/null || skip "iverilog not installed"
. "$(dirname "$0")/../e2e/model/server.sh"

KEY="sk-test-$$-error-key"
printf 'module TopModule(output y); assign y = 1; endmodule\n' >"$T/answer.v"
# A VerilogEval-style testbench: y must be 1; the seed drives 0.
TB='module tb; wire y; TopModule dut(.y(y)); initial begin #1; if (y !== 1) $display(\"Mismatches: 1 in 1 samples\"); else $display(\"Mismatches: 0 in 1 samples\"); $finish; end endmodule'
printf '{"task": {"id": "t/esc", "domain": "chip", "benchmark": "http", "env": "iverilog", "spec": "ESC500 task", "interface": "module TopModule(output y);", "files": {"test.sv": "%s"}}, "candidate": {"id": "c-seed", "origin": "seed", "code": "module TopModule(output y); assign y = 0; endmodule"}}\n' "$TB" \
    >"$T/rows.jsonl"
"$ASSAY" --db "$DB" import "$T/rows.jsonl" >/dev/null || fail "import"
"$ASSAY" --db "$DB" verify --quiet >/dev/null 2>&1
[ "$(row c-seed | json_field verdict)" = fail ] || fail "the seed does not fail: $(row c-seed)"

chat_server_start "$KEY"
chat_config err-coder 1
no_key() { python3 "$(dirname "$0")/../e2e/model/no_key.py" "$KEY" "$@"; }

start 200 40
wait_for " 1/1 "
keys R
wait_for 'HTTP 500: {"detail":"bad key [redacted], again: [redacted]"}; try 2 in 1.0 s' 20
screen >"$T/screen1.txt"
ok "the retry line shows the body redacted"
wait_for 'HTTP 500: {"detail":"bad key [redacted], again: [redacted]"} (after 2 tries)' 20
screen >"$T/screen2.txt"
ok "the failure shows the body redacted"
no_key "$T/screen1.txt" "$T/screen2.txt" || fail "the key is on the screen"
ok "the key is on no screen"
quit_all
kill $spid 2>/dev/null
sqlite3 "$DB" .dump >"$T/dump.sql" 2>/dev/null || "$ASSAY" --db "$DB" export --format raw >"$T/dump.sql"
grep -q -F 'bad key [redacted], again: [redacted]' "$T/dump.sql" ||
    fail "the attempt's error is not stored redacted"
no_key "$DB"* "$T/dump.sql" || fail "the key is in the database"
ok "the key is in no byte of the database"
