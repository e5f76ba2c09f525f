# lib.sh - helpers for the workbench tests: a private tmux server drives
# the real binary (tmux regress/ style).  Sourced with $1 = assay binary;
# the caller's cwd is the repository root, ../shared sits beside it.
set -u
ASSAY=$1
SHARED=${ASSAY_SHARED:-$(cd "$(dirname "$0")/../../.." && pwd)/shared}
DATA=$SHARED/data
SOCK=assay-test$$
TM="tmux -L $SOCK -f /dev/null"

fail() { echo "FAIL: $*"; dump; exit 1; }
skip() { echo "$*"; exit 77; }
ok() { echo "ok: $*"; }

command -v tmux >/dev/null 2>&1 || skip "tmux is not installed"
[ -d "$DATA" ] || skip "no shared data at $DATA"

T=$(mktemp -d "${TMPDIR:-/tmp}/assay-ui.XXXXXX")
cleanup() { $TM kill-server >/dev/null 2>&1; rm -rf "$T"; }
trap cleanup EXIT INT TERM
export HOME=$T/home
mkdir -p "$HOME"
export ASSAY_REVIEWER=tester
unset NO_COLOR ASSAY_THEME XDG_CONFIG_HOME XDG_STATE_HOME
DB=$T/assay.db

# start W H ARGS: run assay (ARGS are shell words, quoted by the caller)
# in $T inside a W x H tmux window; the window stays after it exits and
# shows "ASSAY-EXIT <status>".  A second start reuses the window.
# $EDITOR and $NO_COLOR as they are now reach the workbench.
start() {
	w=$1; h=$2; shift 2
	cat >"$T/launch.sh" <<LAUNCH
cd "$T" || exit 1
LANG=C.UTF-8 LC_ALL=C.UTF-8; export LANG LC_ALL
${EDITOR+EDITOR='$EDITOR'; export EDITOR}
${NO_COLOR+NO_COLOR='$NO_COLOR'; export NO_COLOR}
"$ASSAY" --db "$DB" $*
echo "ASSAY-EXIT \$?"
sleep 600
LAUNCH
	if $TM has-session -t t 2>/dev/null; then
		$TM resize-window -t t -x "$w" -y "$h"
		$TM respawn-pane -k -t t "sh $T/launch.sh" ||
		    fail "tmux respawn-pane"
	else
		$TM new-session -d -s t -x "$w" -y "$h" "sh $T/launch.sh" ||
		    fail "tmux new-session"
	fi
}

screen() { $TM capture-pane -p -t t 2>/dev/null; }
dump() { echo "--- screen ---"; screen; echo "--------------"; }
keys() { $TM send-keys -t t "$@"; }
# type a `:` command line and run it
command_line() { keys :; keys -l "$1"; keys Enter; }

# wait_for TEXT [SECONDS]: poll the screen until it shows TEXT (fixed
# string) or fail after SECONDS (default 15).
wait_for() {
	n=$(( ${2:-15} * 10 ))
	while [ $n -gt 0 ]; do
		screen | grep -F -q -- "$1" && return 0
		sleep 0.1
		n=$((n - 1))
	done
	fail "timed out waiting for '$1'"
}

# wait_gone TEXT [SECONDS]: the opposite.
wait_gone() {
	n=$(( ${2:-15} * 10 ))
	while [ $n -gt 0 ]; do
		screen | grep -F -q -- "$1" || return 0
		sleep 0.1
		n=$((n - 1))
	done
	fail "timed out waiting for '$1' to go"
}

# pane NAME: the text of pane NAME (from its title rule to the next
# rule or the status bar), without the queue and the borders.
pane() {
	screen | awk -v name=" $1 " '
	    index($0, name) && /(─|--)/ { on = 1; next }
	    on && /(├|┌|\+-)/ { exit }
	    on && !/^(│|\|)/ { exit }
	    on { n = split($0, f, /│|\|/); print f[n - 1] }'
}

# json_field FIELD: the value of FIELD in one line of --json output
json_field() { sed -n "s/.*\"$1\":\(\"[^\"]*\"\|null\|[0-9]*\).*/\1/p" | tr -d '"'; }

# row ID: the list --json row of candidate ID
row() { "$ASSAY" --db "$DB" list --json --where "id=$1"; }

# quit_all: q until the workbench exits (q goes back one view at a time,
# and quits at the top), without touching the command history.
# repair_of ID: wait (30 s at most) for the repair of ID in the store
# and print its id; 1 when none came
repair_of() {
	n=300
	while [ $n -gt 0 ]; do
		r=$("$ASSAY" --db "$DB" list --json --where "parent=$1" |
		    json_field id)
		[ -n "$r" ] && { echo "$r"; return 0; }
		sleep 0.1
		n=$((n - 1))
	done
	return 1
}

# hold SECONDS: the database's write lock, from a sqlite3 shell (BEGIN
# IMMEDIATE); $locker is its pid: killed, the lock frees
hold() {
	rm -f "$T/locker"
	(echo "BEGIN IMMEDIATE;"; echo "SELECT 'locked';"; sleep "$1";
	    echo "COMMIT;") | sqlite3 "$DB" >"$T/locker" 2>&1 &
	locker=$!
	n=0
	until grep -q locked "$T/locker" 2>/dev/null; do
		n=$((n + 1)); [ $n -lt 50 ] || fail "sqlite3 did not take the lock"
		sleep 0.1
	done
}

quit_all() {
	n=0
	while [ $n -lt 12 ]; do
		keys q
		sleep 0.2
		screen | grep -q -F "ASSAY-EXIT" && break
		n=$((n + 1))
	done
	wait_for "ASSAY-EXIT 0"
}

# import_syntax: the RTLFixer syntax set (174 candidates) into $DB, its
# ids in import order in $T/ids and their number in $N; id_n K is the
# K-th, short ID its first 8 characters (as the queue shows it).
import_syntax() {
	"$ASSAY" --db "$DB" import "$DATA/rtlfixer/verilogeval-syntax.jsonl" \
	    >/dev/null || fail "import the syntax set"
	"$ASSAY" --db "$DB" list --json | json_field id >"$T/ids"
	N=$(wc -l <"$T/ids")
}
id_n() { sed -n "$1p" "$T/ids"; }
short() { echo "$1" | cut -c1-8; }

# in_help PATTERN: page through the open help from its top until the
# extended regular expression PATTERN shows; 1 when it never does.
in_help() {
	keys g
	sleep 0.2
	k=0
	while ! screen | grep -q -E -- "$1" && [ $k -lt 20 ]; do
		keys PgDn
		sleep 0.2
		k=$((k + 1))
	done
	screen | grep -q -E -- "$1"
}
