#!/bin/sh
# scale.sh - the workbench on a million candidates (issue 5, item 7).
#
# Builds, once, a database of N candidates (default 1,000,000): the
# shared real rows (VerilogEval v2 and the RTLFixer syntax and simulate
# sets) imported and verified by assay, then copied under new ids until
# there are N (assay --bench-fill; each copy keeps its source's task,
# model, latest run and recorded logs, its code gains a comment line).
# The database is kept in $ASSAY_SCALE_DIR (default build-scale/, which
# git ignores) for the next run.
#
# Then replays bench/scale.keys in the real binary (assay --bench-keys)
# in a tmux terminal and prints what it measured against the targets:
# first frame 200 ms, each key to its frame 16 ms at the 99th percentile,
# a filter, search or statistics sheet 500 ms, peak memory 200 MB.
#
# Then the same keys at a person's pace (a key every ASSAY_SCALE_PACE ms
# after the frame before), twice in the same run: alone, and while a
# background :verify (JOBS 1, force) runs over the candidates of one
# task (ASSAY_SCALE_VERIFY_VIEW), so that runs are stored all through
# the replay (issue 24).  It prints both keys' median, 99th percentile
# and slowest, and how many runs the :verify stored meanwhile.  Those
# runs stay in the database (each a candidate's latest run again).
#
# The anchor: VisiData (Debian's visidata, installed here when missing)
# opening the same rows as JSONL (assay export --format raw) to a view
# filtered by model, against assay opening the database to the same
# filter (--where), in the same run.
#
#   sh bench/scale.sh [build/assay]
#
# ASSAY_SCALE_N=1000000      candidates
# ASSAY_SCALE_DIR=build-scale where the database and the JSONL are kept
# ASSAY_SCALE_REBUILD=1      build the database (and the JSONL) again
# ASSAY_SCALE_VD=0           no VisiData
# ASSAY_SCALE_VD_TIMEOUT=3600  seconds VisiData may take
# ASSAY_SCALE_VD_GB=16       the memory VisiData may take (ulimit -v)
# ASSAY_SCALE_VERIFY=0       no replay with a background :verify
# ASSAY_SCALE_VERIFY_VIEW=task=rtlfixer/review2015_fsmonehot  its view
# ASSAY_SCALE_PACE=40        ms between the paced keys
# ASSAY_SQL_SLOW_MS=N        every SQL statement of N ms or more goes to
#                            the report ("assay: sql N ms: SQL")
#
# In the report (build-scale/scale-N.report), a key of 100 ms or more
# says where its time went ("assay: slow key I: late, handler, frame"),
# as does a step of the frame loop between keys ("assay: slow WHAT").
set -eu
assay=$(cd "$(dirname "${1:-build/assay}")" && pwd)/$(basename "${1:-build/assay}")
here=$(cd "$(dirname "$0")" && pwd)
data=${ASSAY_SHARED:-$(pwd)/../shared}/data
n=${ASSAY_SCALE_N:-1000000}
dir=${ASSAY_SCALE_DIR:-build-scale}
db=$dir/scale-$n.db
jsonl=$dir/scale-$n.jsonl
keys=$here/scale.keys
model=codellama2-13b	# the anchor's filter: 20 % of the rows
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
db=$dir/scale-$n.db
jsonl=$dir/scale-$n.jsonl
T=$(mktemp -d "${TMPDIR:-/tmp}/assay-scale.XXXXXX")
trap 'rm -rf "$T"' EXIT

now() { date +%s.%N; }
ms() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0f", (b - a) * 1000 }'; }
say() { printf '%s\n' "$*"; }

[ -x "$assay" ] || { say "scale: no assay at $assay (make build)"; exit 2; }

# --- the database ----------------------------------------------------
if [ -n "${ASSAY_SCALE_REBUILD:-}" ] || [ ! -f "$db" ]; then
	[ -d "$data" ] || { say "scale: no shared data at $data"; exit 2; }
	rm -f "$db" "$db-wal" "$db-shm" "$jsonl"
	seed=$db.tmp
	rm -f "$seed" "$seed-wal" "$seed-shm"
	t0=$(now)
	"$assay" --db "$seed" import "$data/verilog-eval-v2" \
	    "$data/rtlfixer/verilogeval-syntax.jsonl" \
	    "$data/rtlfixer/verilogeval-simulate.jsonl" >/dev/null 2>&1
	# runs give the rows verdicts, categories and logs, as in real use
	"$assay" --db "$seed" verify --jobs 2 --quiet >/dev/null ||
	    say "scale: verify failed; the copies have no runs"
	t1=$(now)
	"$assay" --db "$seed" --bench-fill "$n" >/dev/null
	mv "$seed" "$db"	# closed: no -wal left
	t2=$(now)
	say "scale: built $db: import and verify $(ms "$t0" "$t1") ms," \
	    "copies $(ms "$t1" "$t2") ms"
fi
# the defaults, not this user's keys, theme or history
mkdir -p "$T/home"
export HOME="$T/home" XDG_CONFIG_HOME="$T/home/.config" \
    XDG_STATE_HOME="$T/home/.local/state"
unset ASSAY_THEME NO_COLOR

# --- the keys, in a terminal -------------------------------------------
# run KEYSFILE REPORT [ASSAY OPTIONS]: the workbench in a tmux terminal of
# 120 x 40 (or, without tmux, drawing to /dev/null with TERM=xterm).
run() {
	k=$1 rep=$2
	shift 2
	if command -v tmux >/dev/null 2>&1; then
		sock=assay-scale-$$
		rm -f "$rep.rc"
		tmux -L "$sock" -f /dev/null new-session -d -x 120 -y 40 \
		    "\"$assay\" --db \"$db\" $* --bench-keys \"$k\" 2>\"$rep\";
		    echo \$? >\"$rep.rc\""
		while [ ! -f "$rep.rc" ]; do sleep 0.2; done
		tmux -L "$sock" kill-server 2>/dev/null || true
		[ "$(cat "$rep.rc")" = 0 ] || { cat "$rep"; exit 1; }
	else
		TERM=xterm "$assay" --db "$db" "$@" --bench-keys "$k" \
		    </dev/null >/dev/null 2>"$rep" || { cat "$rep"; exit 1; }
	fi
}
val() { awk -v k="$1" '$1 == k { print $2 }' "$2"; }
verdict() {	# VALUE TARGET
	awk -v v="$1" -v t="$2" 'BEGIN { print (v + 0 <= t + 0) ? "ok" : "MISSED" }'
}

printf 'q\n' >"$T/quit.keys"
run "$T/quit.keys" "$T/warm" --reviewer bench	# open it once, as in use
# Twice: the first pass reads from disk what the page cache does not hold
# yet (the statistics read whole indexes); the second is a session that
# has been open a while.  Each pass takes its decisions back at the end.
run "$keys" "$T/first" --reviewer bench
run "$keys" "$T/again" --reviewer bench
R=$dir/scale-$n.report	# every step of both, for a closer look
cat "$T/first" "$T/again" >"$R"
rows=$(val rows "$T/first")
say ""
say "scale: $rows candidates in $(du -h "$db" | cut -f1) ($db);" \
    "every step in $R"
say "machine: $(nproc) cpu, $(awk '/MemTotal/ { printf "%.0f GB", $2 / 1048576 }' /proc/meminfo), load average $(cut -d' ' -f1-3 /proc/loadavg)"
say ""
# one line per measure: the first pass, again, the target, ok or MISSED
# the report's awk: get(FILE, NAME) a field of a report, row(WHAT, A, B,
# TARGET) a line of the table
table='
function get(f, k, v, line) {
	while ((getline line < f) > 0) {
		split(line, w, " ")
		if (w[1] == k) { close(f); return w[2] }
	}
	close(f)
	return ""
}
function row(what, a, b, target) {
	if (target == "")
		printf "  %-42s %9.1f %9.1f\n", what, a, b
	else
		printf "  %-42s %9.1f %9.1f %7s  %s\n", what, a, b, target,
		    (a <= target && b <= target) ? "ok" : "MISSED"
}
'
awk -v first="$T/first" -v again="$T/again" "$table"'
BEGIN {
	printf "  %-42s %9s %9s %7s\n", "ms (memory MB)", "first", "again",
	    "target"
	row("first frame (start to drawn)", get(first, "first_frame_ms"),
	    get(again, "first_frame_ms"), 200)
	row("highlighted (start to the code in colour)",
	    get(first, "highlight_ms"), get(again, "highlight_ms"), "")
	row("keys: " get(first, "keys") ", median", get(first, "key_p50_ms"),
	    get(again, "key_p50_ms"), "")
	row("keys: 99th percentile", get(first, "key_p99_ms"),
	    get(again, "key_p99_ms"), 16)
	row("keys: slowest", get(first, "key_max_ms"), get(again, "key_max_ms"),
	    "")
	n = 0
	while ((getline line < first) > 0) {
		split(line, w, " ")
		if (w[1] != "step" || w[2] != "query")
			continue
		name = line
		sub(/^step query [0-9.]+ /, "", name)
		if (name == "s") name = "s (the statistics sheet)"
		if (name == "Tab") name = "Tab (the sheet by the next grouping)"
		qn[++n] = substr(name, 1, 42)
		qa[n] = w[3]
	}
	close(first)
	m = 0
	while ((getline line < again) > 0) {
		split(line, w, " ")
		if (w[1] == "step" && w[2] == "query")
			qb[++m] = w[3]
	}
	close(again)
	for (i = 1; i <= n; i++)
		row(qn[i], qa[i], qb[i], 500)
	row("peak memory", get(first, "peak_rss_mb"), get(again, "peak_rss_mb"),
	    200)
}'

# --- the keys at a person's pace, alone and with a :verify -------------
if [ "${ASSAY_SCALE_VERIFY:-1}" != 0 ]; then
	view=${ASSAY_SCALE_VERIFY_VIEW:-task=rtlfixer/review2015_fsmonehot}
	pace=${ASSAY_SCALE_PACE:-40}
	# the same set-up in both (the view, then all again); only the
	# second starts the :verify
	{ printf '@pace %s\n:filter %s\n:filter\n' "$pace" "$view"
	  cat "$keys"; } >"$T/alone.keys"
	{ printf '@pace %s\n:filter %s\n:verify 1 force\n:filter\n' \
	    "$pace" "$view"
	  cat "$keys"; } >"$T/verify.keys"
	run "$T/alone.keys" "$T/alone" --reviewer bench
	run "$T/verify.keys" "$T/verify" --reviewer bench
	cat "$T/alone" "$T/verify" >>"$R"
	say ""
	say "keys at a person's pace (one $pace ms after the frame before):" \
	    "alone, and while :verify 1 force runs over $view"
	awk -v alone="$T/alone" -v with="$T/verify" "$table"'
	BEGIN {
		printf "  %-42s %9s %9s %7s\n", "ms", "alone", ":verify",
		    "target"
		row("keys: " get(with, "keys") ", median", get(alone, "key_p50_ms"),
		    get(with, "key_p50_ms"), "")
		row("keys: 99th percentile", get(alone, "key_p99_ms"),
		    get(with, "key_p99_ms"), 16)
		row("keys: slowest", get(alone, "key_max_ms"),
		    get(with, "key_max_ms"), "")
		row("queries: slowest", get(alone, "query_max_ms"),
		    get(with, "query_max_ms"), 500)
		printf "  the :verify stored %d runs (%d not pass) during the replay;" \
		    " %d of its %d candidates handled\n", get(with, "verify_runs"),
		    get(with, "verify_runs_fail"), get(with, "verify_done"),
		    get(with, "verify_total")
	}'
	[ -n "$(val verify_total "$T/verify")" ] ||
	    say "scale: the :verify did not start (see $R)"
fi

# --- the anchor: VisiData --------------------------------------------
[ "${ASSAY_SCALE_VD:-1}" = 0 ] && exit 0
if ! command -v vd >/dev/null 2>&1; then
	SUDO=""
	[ "$(id -u)" -eq 0 ] || SUDO=sudo
	say "scale: installing visidata"
	$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	    --no-install-recommends visidata >/dev/null
fi
if [ ! -f "$jsonl" ]; then
	t0=$(now)
	"$assay" --db "$db" export --format raw -o "$jsonl" >/dev/null
	say "scale: exported $jsonl in $(ms "$t0" "$(now)") ms"
fi
# open, select the model's rows, and the filtered sheet of them
base=$(basename "$jsonl" .jsonl)
cat >"$T/anchor.vdj" <<VDJ
{"sheet": "", "col": "", "row": "", "longname": "open-file", "input": "$jsonl", "keystrokes": "o", "comment": ""}
{"sheet": "$base", "col": "", "row": "", "longname": "select-expr", "input": "candidate['origin'] == '$model'", "keystrokes": "z|", "comment": ""}
{"sheet": "$base", "col": "", "row": "", "longname": "dup-selected", "input": "", "keystrokes": "\\"", "comment": ""}
VDJ
t0=$(now)
vdrc=0
# a cap on its memory, so that a machine that has too little says so
(ulimit -v $(( ${ASSAY_SCALE_VD_GB:-16} * 1048576 ))
timeout "${ASSAY_SCALE_VD_TIMEOUT:-3600}" vd --batch -p "$T/anchor.vdj" \
    >"$T/vd.out" 2>&1) || vdrc=$?
t1=$(now)
vdms=$(ms "$t0" "$t1")
vdsel=$(sed -n 's/.*selected \([0-9]*\) rows.*/\1/p' "$T/vd.out" | tail -1)
# assay: open the database to the same filter, first frame drawn
run "$T/quit.keys" "$T/where" --where "model=$model"
ams=$(val first_frame_ms "$T/where" | awk '{ printf "%.0f", $1 }')
arows=$(val rows "$T/where")
say ""
say "anchor: open $(du -h "$jsonl" | cut -f1) of JSONL ($rows rows) to the rows of model $model"
if [ "$vdrc" -ne 0 ]; then
	say "  VisiData $(vd --version 2>/dev/null | sed 's/.* //'): did not finish (exit $vdrc) in $vdms ms"
	say "  assay --where model=$model: $ams ms to the first frame ($arows rows)"
	say "  ratio assay/VisiData: < $(awk -v a="$ams" -v b="$vdms" 'BEGIN { printf "%.5f", a / b }')"
else
	say "  VisiData $(vd --version 2>/dev/null | sed 's/.* //'): $vdms ms (${vdsel:-?} rows selected)"
	say "  assay --where model=$model: $ams ms to the first frame ($arows rows)"
	say "  ratio assay/VisiData: $(awk -v a="$ams" -v b="$vdms" 'BEGIN { printf "%.5f", a / b }')"
fi
