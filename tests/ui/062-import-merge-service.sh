# 062-import-merge-service.sh - issue 24 item 1, import and merge as
# in-process services (ADR 0055): `:import PATH` from the workbench's
# `:` line runs in the background through the import service (the
# status line shows it), keys go on meanwhile, and the imported rows
# appear in the queue without C-l, the cursor where it was; a path that
# is not there is named; x cancels an import and nothing of it stays;
# `:merge RESULTS` stores the runs of a results file the same way and
# names the line it refuses.  Under another process's lock an import
# says it waits; x and q (which asks) end the wait at once.
#
# The input of :import is a FIFO the test writes only after the keys,
# so that the import is surely still running while they are pressed
# (the importer reads a pipe whole before it starts).
. "$(dirname "$0")/lib.sh"
command -v iverilog >/dev/null 2>&1 || skip "iverilog is not installed"

SIM=$DATA/rtlfixer/verilogeval-simulate.jsonl
import_syntax				# 174 candidates, ids in $T/ids
NSIM=$("$ASSAY" --db "$T/sim.db" import --json "$SIM" |
    json_field candidates_added)
[ "$NSIM" -gt 0 ] || fail "the simulate set has no candidates"
ALL=$((N + NSIM))

start 120 40 ""
wait_for " 1/$N "

# a path that is not there: said at once, nothing runs
command_line "import $T/nowhere.jsonl"
wait_for "import: $T/nowhere.jsonl: No such file or directory"
screen | tail -n 1 | grep -q "· import " && fail "a bad path started an import"
ok "a bad path is named"

# :import from a FIFO: running until the test writes it
mkfifo "$T/sim.fifo"
command_line "import $T/sim.fifo"
wait_for "importing $T/sim.fifo"
wait_for "· import " 10
ok "the import runs in the background, shown in the status line"

keys j j
wait_for " 3/$N "
keys 1
wait_for "$(id_n 3) labelled compile by tester"
wait_for " 4/$N "			# a label moves on to the next row
screen | tail -n 1 | grep -q "· import " ||
    fail "the import ended before the keys: no test of working meanwhile"
ok "moving and labelling go on while it runs"

cat "$SIM" >"$T/sim.fifo" &
wait_for "new tasks, $NSIM new candidates (0 already there)" 60
wait_for " 4/$ALL " 10
screen | grep -q -E "^│▶ $(short "$(id_n 4)") " ||
    fail "the cursor left row 4 when the rows came in"
[ "$("$ASSAY" --db "$DB" list --json | wc -l)" -eq "$ALL" ] ||
    fail "the database does not hold $ALL candidates"
row "$(id_n 3)" | grep -q -F '"category":"compile"' ||
    fail "the label given while it ran was lost"
ok "the $NSIM imported rows appear without C-l; the cursor stays"

# x cancels an import: nothing of it stays (its rows, each given a
# comment line, would all be new candidates)
sed 's|"solution": "module|"solution": "// cx\\nmodule|' "$SIM" >"$T/new.jsonl"
grep -q '// cx' "$T/new.jsonl" || fail "the rows were not changed"
mkfifo "$T/again.fifo"
command_line "import $T/again.fifo"
wait_for "· import " 10
keys x
# the cancel reaches the import where it waits for the FIFO's writer
# (067-import-fifo-cancel.sh tests it at length)
wait_for "import: $T/again.fifo: cancelled; nothing of it stored" 10
[ "$("$ASSAY" --db "$DB" list --json | wc -l)" -eq "$ALL" ] ||
    fail "a cancelled import left rows"
ok "x cancels an import and nothing of it stays"

# :merge: the runs of a results file made on a copy of this database
cp "$DB" "$T/copy.db"
"$ASSAY" --db "$T/copy.db" verify --quiet --results "$T/runs.jsonl" \
    "$(id_n 1)" "$(id_n 2)" >/dev/null || true
NRUNS=$(wc -l <"$T/runs.jsonl")
[ "$NRUNS" -eq 2 ] || fail "the results file has $NRUNS runs, want 2"
command_line "merge $T/runs.jsonl"
wait_for "merge: 2 runs stored, 0 already there, 0 refused, 0 not stored" 60
[ "$("$ASSAY" --db "$DB" list --json --where "verdict!=none" | wc -l)" -ge 2 ] ||
    fail "the merged runs are not in the database"
screen | grep -q -E "^│▶ $(short "$(id_n 4)") " ||
    fail "the cursor moved when the merge ended"
ok ":merge stores the runs of a results file"
command_line "merge $T/runs.jsonl"
wait_for "merge: 0 runs stored, 2 already there" 60
ok "a second :merge adds nothing"

# a line this database did not make is refused, and the status line says why
printf '{"candidate":"%s"}\n' "$(id_n 5)" >"$T/bad.jsonl"
command_line "merge $T/bad.jsonl"
wait_for "1 refused, 0 not stored; " 60
screen | tail -n 1 | grep -q -F "$T/bad.jsonl:1: " ||
    fail "the refusal does not name the file and line"
ok ":merge says what it refused"

# Another process holds the write lock (a sqlite3 shell, BEGIN
# IMMEDIATE, for 120 s or until killed): an :import says it waits for
# the lock, x ends the wait at once (it waited out the 60 s lock
# timeout), and q asks, then quits at once (the screen froze for a
# minute and the question was never asked).
if command -v sqlite3 >/dev/null 2>&1; then
	hold 120
	command_line "import $T/new.jsonl"
	wait_for "import waits for the database's lock" 10
	ok "an :import under another's lock says it waits"
	keys x
	wait_for "import: $T/new.jsonl: cancelled; nothing of it stored" 10
	ok "x ends its wait at once"
	command_line "import $T/new.jsonl"
	wait_for "import waits for the database's lock" 10
	command_line q
	wait_for ":import is running; quit and cancel it" 5
	keys y
	wait_for "ASSAY-EXIT 0" 10
	ok "q asks, and y quits at once though it waits for the lock"
	kill "$locker" 2>/dev/null
	wait "$locker" 2>/dev/null
	[ "$("$ASSAY" --db "$DB" list --json | wc -l)" -eq "$ALL" ] ||
	    fail "an import cancelled under the lock left rows"
else
	command_line q
	wait_for "ASSAY-EXIT 0"
fi
