#!/bin/sh
# term.sh ASSAY [LINES] - the toolchain pane's throughput against tmux.
# Issue 12 item 7: a program printing `seq 1 LINES` (default 300000) in
# the toolchain pane (run through `e` with an EDITOR that prints it),
# against the same program in a tmux pane nested in the same outer tmux,
# both at 120x40.  Prints the seconds from the key to the last line on
# the outer screen for each, and their ratio (target: at most 1.0).
# Figures go in docs/benchmarks.md.
set -u
ASSAY=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
N=${2:-300000}
SHARED=${ASSAY_SHARED:-$(cd "$(dirname "$0")/../.." && pwd)/shared}
T=$(mktemp -d "${TMPDIR:-/tmp}/assay-term.XXXXXX")
SOCK=assay-bench$$
TM="tmux -L $SOCK -f /dev/null"
trap '$TM kill-server >/dev/null 2>&1; tmux -L inner$$ kill-server >/dev/null 2>&1; rm -rf "$T"' EXIT INT TERM

now() { date +%s.%N; }
# wait_last WINDOW: until the outer screen of WINDOW shows the last line
wait_last() {
	while ! $TM capture-pane -p -t "$1" | grep -q -x -E "[│| ]*$N[ │|]*"; do
		sleep 0.01
	done
}

"$ASSAY" --db "$T/a.db" import "$SHARED/data/rtlfixer/verilogeval-syntax.jsonl" \
    >/dev/null || { echo "import failed"; exit 1; }
printf '#!/bin/sh\nseq 1 %s\nsleep 30\n' "$N" >"$T/ed"
chmod +x "$T/ed"
$TM new-session -d -s w -x 120 -y 40 \
    "cd $T && LANG=C.UTF-8 EDITOR=$T/ed HOME=$T $ASSAY --db $T/a.db" || exit 1
sleep 2
$TM send-keys -t w z	# the queue zoomed: the toolchain pane's width
$TM send-keys -t w z
$TM send-keys -t w Tab Tab Tab z	# the toolchain pane, zoomed
sleep 1
t0=$(now)
$TM send-keys -t w e
wait_last w
t1=$(now)

t2=$(now)
$TM new-window -d -t w -n n "tmux -L inner$$ -f /dev/null new-session \
    'seq 1 $N; sleep 60'"
wait_last w:n
t3=$(now)
awk -v a="$t0" -v b="$t1" -v c="$t2" -v d="$t3" 'BEGIN {
	pane = b - a; nested = d - c;
	printf "toolchain pane: %.2f s\nnested tmux:    %.2f s\nratio:          %.2f\n",
	    pane, nested, pane / nested }'
