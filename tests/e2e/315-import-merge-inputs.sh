# 315: hostile inputs of import and merge.  A FIFO import stays
# interruptible by SIGINT and SIGTERM wherever it waits (no writer yet;
# a writer gone quiet).
. "$(dirname "$0")/lib.sh"

row() {	# row TASK CODE
	printf '{"task": {"id": "%s", "domain": "chip", "env": "iverilog"}, "candidate": {"origin": "m", "code": "%s"}}\n' "$1" "$2"
}
row src/a a0 > "$T/a.jsonl"
# until_says FILE WORD: wait (5 s at most) for a helper to print WORD
until_says() {
	n=0
	until grep -q "$2" "$1" 2>/dev/null; do
		n=$((n + 1)); [ $n -lt 50 ] || fail "no '$2' in $1"; sleep 0.1
	done
}
"$ASSAY" --db "$DB" import "$T/a.jsonl" >/dev/null || fail "the first import"

# killed SIG WHEN PID: wait for PID after SIG; fail unless it is gone
# within 2 s.  env --default-signal: a job started with & ignores SIGINT.
gone_within() {
	n=0
	while kill -0 "$2" 2>/dev/null; do
		n=$((n + 1)); [ $n -lt 20 ] || { kill -KILL "$2"; fail "$1: the import outlived the signal"; }
		sleep 0.1
	done
	echo "ok: $1"
}
mkfifo "$T/ff"
for sig in INT TERM; do
	env --default-signal=INT "$ASSAY" --db "$DB" import "$T/ff" 2>/dev/null &
	pid=$!
	sleep 0.5
	kill -$sig $pid
	gone_within "SIG$sig ends an import that waits for a FIFO's writer" $pid
	{ cat "$T/a.jsonl"; exec sleep 20; } > "$T/ff" &
	writer=$!
	env --default-signal=INT "$ASSAY" --db "$DB" import "$T/ff" 2>/dev/null &
	pid=$!
	sleep 0.5
	kill -$sig $pid
	gone_within "SIG$sig ends an import that waits for a slow writer" $pid
	kill $writer 2>/dev/null
	wait $writer 2>/dev/null
done

# merge DIR: a folder is no results file; it said "verified 0" with
# status 0 (fopen takes a directory, each read fails with EISDIR, and
# that read as the end).  Refused as a missing file is, exit 2.
mkdir "$T/rdir"
"$ASSAY" --db "$DB" merge "$T/rdir" >/dev/null 2>"$T/err"
expect_eq "merge DIR exit" $? 2
grep -q "assay merge: $T/rdir: Is a directory (a folder of shards: --shards DIR)" "$T/err" ||
    fail "merge DIR: $(cat "$T/err")"
"$ASSAY" --db "$DB" merge "$T/nothere" >/dev/null 2>"$T/err"
expect_eq "merge of a missing file exit" $? 2
# import DIR of a JSONL format: refused, never read as empty
"$ASSAY" --db "$DB" import --format assay "$T/rdir" >/dev/null 2>"$T/err"
expect_eq "import --format assay DIR exit" $? 2
grep -q "rdir: not a regular file, refused" "$T/err" || fail "import DIR: $(cat "$T/err")"

# A path with an ESC and a newline: the summary, "nothing imported", the
# lists of a failed multi-file import and the warnings show it escaped
# (it went to stdout raw: its "\e[31m" would colour the terminal).
esc=$(printf '\033')
F=$(printf 'sp ace\nnl\033[31mRED.jsonl')
row src/e e0 > "$T/$F"
( cd "$T" && "$ASSAY" --db "$DB" import "$F" > "$T/out" 2>&1 ) || fail "import of an odd name: $(cat "$T/out")"
grep -q "$esc" "$T/out" && fail "an ESC printed raw: $(cat -v "$T/out")"
grep -q -F 'nl\x1b[31mRED.jsonl: 1 new task, 1 new candidate' "$T/out" || fail "summary: $(cat -v "$T/out")"
printf 'bad\n' > "$T/$F"
( cd "$T" && "$ASSAY" --db "$DB" import "$F" a.jsonl > "$T/out" 2>&1 )
expect_eq "a bad odd-named file exit" $? 2
grep -q "$esc" "$T/out" && fail "an ESC printed raw: $(cat -v "$T/out")"
grep -q -F 'nl\x1b[31mRED.jsonl: nothing imported' "$T/out" || fail "nothing imported: $(cat -v "$T/out")"
grep -q -F 'assay: failed: sp ace\nnl\x1b[31mRED.jsonl' "$T/out" || fail "failed list: $(cat -v "$T/out")"
: > "$T/$F"
( cd "$T" && "$ASSAY" --db "$DB" import "$F" > "$T/out" 2>&1 ) || fail "an empty odd-named file"
grep -q "$esc" "$T/out" && fail "an ESC printed raw in a warning: $(cat -v "$T/out")"
grep -q -F 'RED.jsonl: empty file, nothing imported' "$T/out" || fail "warning: $(cat -v "$T/out")"

# Folder links in a directory import are skipped with a warning naming
# the link, by every importer's walk (import_list_dir): RTLLM followed
# a link to ".." round the loop, 180 candidates "already there" beside
# the 36, and more with a second link.
if [ -d "$DATA/rtllm" ]; then
	cp -r "$DATA/rtllm" "$T/rl"
	ln -s .. "$T/rl/Control/up"
	ln -s ../.. "$T/rl/Memory/up2"
	"$ASSAY" --db "$T/rl.db" import "$T/rl" > "$T/out" 2>&1 || fail "rtllm with loops: $(cat "$T/out")"
	grep -q "rl: 36 new tasks, 36 new candidates (0 already there)" "$T/out" ||
	    fail "rtllm with loops: $(cat "$T/out")"
	grep -q "rl/Control/up: a symlink to a folder, skipped" "$T/out" || fail "no warning for up: $(cat "$T/out")"
	grep -q "rl/Memory/up2: a symlink to a folder, skipped" "$T/out" || fail "no warning for up2: $(cat "$T/out")"
	expect_eq "each link named once" "$(grep -c 'a symlink to a folder' "$T/out")" 2
fi
# the same in a layout read by another importer (KernelBench's levels)
if [ -d "$DATA/kernelbench" ]; then
	cp -r "$DATA/kernelbench" "$T/kb"
	"$ASSAY" --db "$T/kb0.db" import "$T/kb" > "$T/out0" 2>&1 || fail "kernelbench: $(cat "$T/out0")"
	d=$(find "$T/kb" -mindepth 1 -maxdepth 2 -type d | tail -n 1)
	ln -s "$T/kb" "$d/loop"
	"$ASSAY" --db "$T/kb1.db" import "$T/kb" > "$T/out1" 2>&1 || fail "kernelbench with a loop: $(cat "$T/out1")"
	grep -q "$d/loop: a symlink to a folder, skipped" "$T/out1" || fail "kernelbench loop: $(cat "$T/out1")"
	expect_eq "kernelbench with a loop imports the same" \
	    "$(grep 'new tasks' "$T/out1")" "$(grep 'new tasks' "$T/out0")"
fi

# A leading UTF-8 BOM is read past (it gave "the first line is not a
# JSON object"); line numbers stay.
{ printf '\357\273\277'; row src/bom b0; row src/bom b1; } > "$T/bom.jsonl"
"$ASSAY" --db "$DB" import "$T/bom.jsonl" > "$T/out" 2>&1 || fail "a BOM file: $(cat "$T/out")"
grep -q "bom.jsonl: 1 new task, 2 new candidates" "$T/out" || fail "BOM: $(cat "$T/out")"
{ printf '\357\273\277'; row src/bom2 c0; printf 'bad\n'; } > "$T/bom2.jsonl"
"$ASSAY" --db "$DB" import "$T/bom2.jsonl" > "$T/out" 2>&1
grep -q "bom2.jsonl:2: " "$T/out" || fail "BOM line numbers: $(cat "$T/out")"

# --progress off a terminal, under another's lock: plain lines, no \r
# and no escape sequence (it wrote "\r\e[K... waits for the database's lock")
if command -v python3 >/dev/null; then
	python3 -c 'import sqlite3, sys, time
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute("BEGIN IMMEDIATE")
print("locked", flush=True)
time.sleep(3)' "$DB" > "$T/locker" &
	locker=$!
	until_says "$T/locker" locked
	row src/lock l0 > "$T/lock.jsonl"
	"$ASSAY" --db "$DB" import --progress "$T/lock.jsonl" > /dev/null 2> "$T/err" || fail "import under a lock: $(cat "$T/err")"
	wait $locker
	grep -q "waits for the database's lock" "$T/err" || fail "no lock line: $(cat -v "$T/err")"
	tr -d '\n' < "$T/err" | grep -q "$(printf '[\r\033]')" && fail "control bytes off a terminal: $(cat -v "$T/err")"
	echo "ok: --progress off a terminal writes plain lines"
fi

# Results lines: a CRLF file and a trailing blank are told as such (they
# were "no MAC"); a SIGKILLed verify --results left FILE.tmp-XXXXXX that
# nothing removed: the next verify --results FILE removes it, and keeps
# one a live writer holds.
command -v iverilog >/dev/null || { echo "no iverilog: results checks skipped"; exit 0; }
need_data
"$ASSAY" --db "$T/v.db" import "$DATA/verilog-eval-v1" >/dev/null 2>&1 || fail "import v1"
id=$("$ASSAY" --db "$T/v.db" list --json | head -n 1 | sed 's/.*"id":"\([^"]*\)".*/\1/')
cp "$T/v.db" "$T/v2.db"
echo stale > "$T/out.jsonl.tmp-AbC123"
python3 -c 'import fcntl, os, sys, time
fd = os.open(sys.argv[1], os.O_CREAT | os.O_WRONLY, 0o644)
fcntl.flock(fd, fcntl.LOCK_EX)
print("held", flush=True)
time.sleep(10)' "$T/out.jsonl.tmp-Held01" > "$T/holder" &
holder=$!
until_says "$T/holder" held
"$ASSAY" --db "$T/v2.db" verify --quiet --timeout 60 --results "$T/out.jsonl" "$id" >/dev/null 2>&1 ||
    fail "verify --results"
kill $holder; wait $holder 2>/dev/null
[ -e "$T/out.jsonl.tmp-AbC123" ] && fail "a stale temporary results file stayed"
[ -e "$T/out.jsonl.tmp-Held01" ] || fail "a held temporary results file was removed"
echo "ok: the next verify --results removes a killed one's temporary file, not a live one's"
sed 's/$/\r/' "$T/out.jsonl" > "$T/crlf.jsonl"
"$ASSAY" --db "$T/v.db" merge "$T/crlf.jsonl" > /dev/null 2> "$T/err"
expect_eq "a CRLF results file exit" $? 2
grep -q "crlf.jsonl:1: line ends in CR: a CRLF file? results files are LF" "$T/err" || fail "CRLF: $(cat "$T/err")"
sed 's/$/ /' "$T/out.jsonl" > "$T/sp.jsonl"
"$ASSAY" --db "$T/v.db" merge "$T/sp.jsonl" > /dev/null 2> "$T/err"
grep -q "sp.jsonl:1: line ends in white space after its MAC" "$T/err" || fail "trailing blank: $(cat "$T/err")"
"$ASSAY" --db "$T/v.db" merge "$T/out.jsonl" > "$T/out" 2>&1 || fail "the LF file: $(cat "$T/out")"
grep -q "merged 1, unchanged 0" "$T/out" || fail "the LF file: $(cat "$T/out")"

# import --json of a path that is not UTF-8 and fails: its "failed" is
# the path with U+FFFD (json_string() refused it and the summary crashed)
( cd "$T" && "$ASSAY" --db "$DB" import --json "$(printf 'bad\377.jsonl')" > "$T/out" 2>/dev/null )
expect_eq "a failed non-UTF-8 path exit" $? 2
grep -q '"failed":"bad' "$T/out" || fail "--json failed: $(cat "$T/out")"
