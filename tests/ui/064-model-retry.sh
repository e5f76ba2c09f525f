# 064-model-retry.sh - issue 24, H of what a new user met: a server that
# answers 429 made :generate look stuck (its retries showed only as a
# count in the round's summary).  The wait is said as it happens, in the
# status bar and the toolchain pane, with the server's reason and the
# wait it asked for; the summary counts the retries.  The server is the
# test's chat-completions server on 127.0.0.1 (tests/e2e/model/
# chat_server.py), whose RATE task gets one 429 with Retry-After: 1.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || skip "no python3 for the test's server"
. "$(dirname "$0")/../e2e/model/server.sh"

KEY="sk-test-$$-retry"
printf 'module TopModule(output y); assign y = 1; endmodule\n' >"$T/answer.v"
printf '%s\n' '{"task": {"id": "t/rate", "domain": "chip", "benchmark": "http", "env": "iverilog", "spec": "RATE limited task", "files": {}}, "candidate": {"id": "c-seed", "origin": "seed", "code": "module TopModule(output y); assign y = 0; endmodule"}}' \
    >"$T/rows.jsonl"
"$ASSAY" --db "$DB" import "$T/rows.jsonl" >/dev/null || fail "import"

# the workbench's environment is the tmux server's, made at the first start
chat_server_start "$KEY"
chat_config rate-coder 2

start 120 36
wait_for " 1/1 "
command_line "generate"
wait_for "rate-coder: HTTP 429: slow down; try 2 in 1.0 s" 20
ok "the 429 shows in the status bar as it happens"
pane toolchain | grep -q "retry: HTTP 429: slow down; try 2 in 1.0 s" ||
    fail "the toolchain pane does not say the retry: $(pane toolchain)"
ok "and in the toolchain pane"
wait_for "1 retry (HTTP 429" 30
ok "the summary counts the retry"
quit_all
kill $spid 2>/dev/null
