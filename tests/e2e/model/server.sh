# server.sh - sourced by the tests that talk to the test's
# chat-completions server (chat_server.py, beside this file), after their
# lib.sh (fail, $T).
#
# chat_server_start KEY: start it on 127.0.0.1 with KEY as its bearer
# key, its request log in $T/server.log and its answer the file
# $T/answer.v (the caller writes it); sets $port and $spid (kill it when
# done) and exports TEST_API_KEY=KEY; fails when it does not start.
chat_server_start() {
	SERVER_KEY=$1 SERVER_LOG=$T/server.log SERVER_ANSWER=$T/answer.v \
	    python3 "$(dirname "$0")/../e2e/model/chat_server.py" \
	    >"$T/port" 2>"$T/server.err" &
	spid=$!
	for _i in 1 2 3 4 5 6 7 8 9 10; do
		[ -s "$T/port" ] && break
		sleep 0.5
	done
	port=$(cat "$T/port")
	[ -n "$port" ] || fail "server did not start: $(cat "$T/server.err")"
	export TEST_API_KEY="$1"
}

# chat_config MODEL RETRIES: $HOME/.config/assay/config names the server
# as the generator (the workbench reads it), MODEL its model name.
chat_config() {
	mkdir -p "$HOME/.config/assay"
	cat >"$HOME/.config/assay/config" <<CFG
generator endpoint http://127.0.0.1:$port/v1
generator model $1
generator api-key-env TEST_API_KEY
generator temperature 0
generator timeout 10
generator retries $2
CFG
}
