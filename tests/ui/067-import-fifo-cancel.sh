# 067-import-fifo-cancel.sh - an :import that waits on its input ends
# at once when told to: a FIFO with no writer (the open waits for one)
# and a FIFO whose writer wrote a little and went quiet (the read waits
# for data); a :merge of a FIFO the same.  x cancels it within about a
# second and a second :import may start; q and y quit at once; SIGTERM
# ends the workbench at once; nothing of the workbench's process stays.  Before, the import's thread
# sat in open() or read() until a writer came: x showed "cancelling"
# for ever, quit froze the screen and SIGTERM waited for the writer.
. "$(dirname "$0")/lib.sh"

"$ASSAY" --db "$DB" import "$DATA/rtlfixer/verilogeval-syntax.jsonl" \
    >/dev/null || fail "import the syntax set"
N=$("$ASSAY" --db "$DB" list --json | wc -l)
head -n 20 "$DATA/rtlfixer/verilogeval-simulate.jsonl" >"$T/sim.jsonl"
mkfifo "$T/ff" "$T/ff2"

# the workbench's pid: the process whose cwd is $T and argv the db's
wb_pid() { pgrep -f -x "$ASSAY --db $DB" | head -n 1; }
# now: the time in whole seconds
now() { date +%s; }

start 120 40 ""
wait_for " 1/$N "

# no writer: x ends the wait for one
command_line "import $T/ff"
wait_for "· import " 10
sleep 0.5
t0=$(now)
keys x
wait_for "import: $T/ff: cancelled; nothing of it stored" 3
ok "x cancels an import that waits for a FIFO's writer ($(( $(now) - t0 )) s)"

# a second :import is taken (the first is over), and cancelled again
command_line "import $T/ff"
wait_for "importing $T/ff" 5
screen | grep -q "an import of .* is running" && fail "a second :import was refused"
keys x
wait_for "import: $T/ff: cancelled; nothing of it stored" 3
ok "a second :import runs once the first is cancelled"

# slow_import: :import of ff2, whose writer writes some rows, then
# falls silent (its pid in $writer)
slow_import() {
	{ cat "$T/sim.jsonl"; exec sleep 30; } >"$T/ff2" &
	writer=$!
	command_line "import $T/ff2"
	wait_for "· import " 10
	sleep 1
}

# a slow writer: some rows, then silence; x ends the wait for data
slow_import
keys x
wait_for "import: $T/ff2: cancelled; nothing of it stored" 3
ok "x cancels an import that waits for a slow writer's data"
kill "$writer" 2>/dev/null
[ "$("$ASSAY" --db "$DB" list --json | wc -l)" -eq "$N" ] ||
    fail "a cancelled import left rows"

# :merge of a FIFO nobody writes: x ends it too (it waited in fopen())
command_line "merge $T/ff"
wait_for "merging $T/ff" 5
sleep 0.5
keys x
wait_for "merge (cancelled): 0 runs stored" 3
ok "x cancels a :merge that waits for a FIFO's writer"

# q and y with an import waiting on the FIFO: the workbench ends at once
command_line "import $T/ff"
wait_for "· import " 10
command_line q
wait_for ":import is running; quit and cancel it" 5
t0=$(now)
keys y
wait_for "ASSAY-EXIT 0" 3
ok "q, y quit at once with an import waiting ($(( $(now) - t0 )) s)"

# SIGTERM with an import waiting for a slow writer's data
start 120 40 ""
wait_for " 1/$N "
slow_import
pid=$(wb_pid)
[ -n "$pid" ] || fail "no workbench process found"
kill -TERM "$pid"
wait_for "ASSAY-EXIT" 3
n=0
while kill -0 "$pid" 2>/dev/null; do
	n=$((n + 1)); [ $n -lt 20 ] || fail "the workbench outlived SIGTERM"
	sleep 0.1
done
ok "SIGTERM ends the workbench at once while an import waits for data"
kill "$writer" 2>/dev/null
[ "$("$ASSAY" --db "$DB" list --json | wc -l)" -eq "$N" ] ||
    fail "an import ended by SIGTERM left rows"
