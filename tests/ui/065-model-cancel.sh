# 065-model-cancel.sh - what an attacker found in the model loop: a
# server answering 429 with Retry-After: 86400 made R wait a day, x said
# "cancelling the model run" for ever and a new R was refused.  The wait
# is cut to 60 s and said so; x ends it at once, with no try after it;
# the run ends as cancelled and R may run again.  The server is the
# test's chat-completions server on 127.0.0.1 (tests/e2e/model/
# chat_server.py), whose LONGWAIT task gets 429 with Retry-After: 86400
# (and the Authorization header echoed in its message: redacted).
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || skip "no python3 for the test's server"
command -v iverilog >/dev/null || skip "iverilog not installed"
. "$(dirname "$0")/../e2e/model/server.sh"

KEY="sk-test-$$-cancel"
printf 'module TopModule(output y); assign y = 1; endmodule\n' >"$T/answer.v"
# A VerilogEval-style testbench: y must be 1; the seed drives 0.
TB='module tb; wire y; TopModule dut(.y(y)); initial begin #1; if (y !== 1) $display(\"Mismatches: 1 in 1 samples\"); else $display(\"Mismatches: 0 in 1 samples\"); $finish; end endmodule'
printf '{"task": {"id": "t/long", "domain": "chip", "benchmark": "http", "env": "iverilog", "spec": "LONGWAIT task", "interface": "module TopModule(output y);", "files": {"test.sv": "%s"}}, "candidate": {"id": "c-seed", "origin": "seed", "code": "module TopModule(output y); assign y = 0; endmodule"}}\n' "$TB" \
    >"$T/rows.jsonl"
"$ASSAY" --db "$DB" import "$T/rows.jsonl" >/dev/null || fail "import"
"$ASSAY" --db "$DB" verify --quiet >/dev/null 2>&1
[ "$(row c-seed | json_field verdict)" = fail ] || fail "the seed does not fail: $(row c-seed)"

chat_server_start "$KEY"
chat_config hold-coder 4
requests() { wc -l <"$T/server.log" | tr -d ' '; }

start 200 40
wait_for " 1/1 "
keys R
wait_for "(the server asked to wait 86400.0 s; assay waits 60 s at most); try 2 in 60.0 s" 20
ok "the day's wait is cut to 60 s, and said so"
screen | grep -q -F "slow down, Bearer [redacted]" || fail "the 429's message is not redacted"
screen | grep -q -F -- "$KEY" && fail "the key is on the screen"
keys x
wait_for "the model run is cancelled: no repair of c-seed made" 10
ok "x ends the wait at once"
sleep 1.5
[ "$(requests)" = 1 ] || fail "tries after x: the server saw $(requests) requests"
ok "no try after x"
# a new R runs (it was refused while the old run hung)
# (its "asking the model" line lasts only until the 429 comes: a fast
# machine's screen never showed it; the server's count says it asked)
keys R
n=0
until [ "$(requests)" = 2 ]; do
	n=$((n + 1)); [ $n -lt 100 ] || fail "the second R: the server saw $(requests) requests"
	sleep 0.1
done
n=0
until screen | tail -n 1 | grep -q -F "(the server asked to wait 86400.0 s; assay waits 60 s at most); try 2 in 60.0 s"; do
	n=$((n + 1)); [ $n -lt 200 ] || fail "the second R's wait is not said: $(screen | tail -n 1)"
	sleep 0.1
done
[ "$(requests)" = 2 ] || fail "the second R: the server saw $(requests) requests"
ok "R runs again after the cancel"
keys x
wait_for "the model run is cancelled: no repair of c-seed made" 10
[ "$("$ASSAY" --db "$DB" list --json --where parent=c-seed | wc -l)" -eq 0 ] ||
    fail "a cancelled run stored a repair"
quit_all
kill $spid 2>/dev/null
