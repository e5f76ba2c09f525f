# 049-held-lock.sh - issue 24, item F of what a new user met: the screen
# froze for about 5 s on a decision key while another process held the
# database's write lock.  Now the key's decision waits in the workbench,
# shown as pending, keys keep working at once, and it is made when the
# lock frees.  The lock is held by a sqlite3 shell (BEGIN IMMEDIATE).
# A workbench told to stop (SIGTERM) while a decision waits makes it
# when the lock frees within 10 s, else prints the command that makes
# it.
. "$(dirname "$0")/lib.sh"
command -v sqlite3 >/dev/null 2>&1 || skip "no sqlite3 shell to hold the lock"

import_syntax
A=$(id_n 1)
ms() { echo $(( $(date +%s%N) / 1000000 )); }

start 120 40
wait_for " 1/$N "
# hold the write lock for 6 s
(echo "BEGIN IMMEDIATE;"; echo "SELECT 'locked';"; sleep 6; echo "COMMIT;") |
    sqlite3 "$DB" >"$T/locker" 2>&1 &
n=0
until grep -q locked "$T/locker" 2>/dev/null; do
	n=$((n + 1)); [ $n -lt 50 ] || fail "sqlite3 did not take the lock"
	sleep 0.1
done
t0=$(ms)
keys f
wait_for "review flagged $A waits" 3
t1=$(ms)
[ $((t1 - t0)) -lt 1500 ] || fail "the key took $((t1 - t0)) ms to answer"
wait_for " 2/$N "	# it advanced, as after a decision
screen | tail -n 1 | grep -q "· 1 pending" || fail "no pending count: $(screen | tail -n 1)"
screen | grep -q -E "$(short "$A") .* wait " ||
    fail "the row whose decision waits is not marked: $(screen | grep "$(short "$A")")"
t0=$(ms)
keys j k j
wait_for " 3/$N " 3
t1=$(ms)
[ $((t1 - t0)) -lt 1500 ] || fail "moving took $((t1 - t0)) ms"
grep -q locked "$T/locker" && [ "$(row "$A" | json_field status)" = unreviewed ] ||
    fail "the decision was made while the lock was held"
ok "under a held lock the key answers at once: pending, and keys move"

# the lock frees: the decision is made, the cursor stays
wait_for "1 pending decision made" 15
[ "$(row "$A" | json_field status)" = flagged ] ||
    fail "after the lock: $A is $(row "$A" | json_field status)"
screen | grep -q " 3/$N " || fail "the cursor moved"
screen | tail -n 1 | grep -q "· [0-9]* pending" && fail "still pending"
ok "when the lock frees the pending decision is made"

# :quit's question about a waiting decision is asked again when the lock
# frees and the decision is made (it stayed, offering to drop a decision
# already made)
keys G	# the last row, which the parts below do not use
wait_for " $N/$N " 3
hold 4
keys 1
wait_for "label compile" 3
H=$(screen | tail -n 1 | grep -o -E "label compile [0-9a-f]+ waits" |
    cut -d' ' -f3) || fail "no waiting label: $(screen | tail -n 1)"
keys q
wait_for "quit and drop it? y/n" 3
wait_for "the database is free: the pending decisions are made; quit? y/n" 15
[ "$(row "$H" | json_field category)" = compile ] ||
    fail "the label of $H was not made once the lock freed"
keys n
wait_for "not quitting" 3
ok ":quit's question follows what it asked about: the decision made, it asks again"

# Told to stop (SIGTERM) while a decision waits: it is made if the lock
# frees within 10 s (here after 3), else printed as the command that
# makes it (it was dropped without a word).
B=$(id_n 2)
C=$(id_n 3)
wb_pid() { pgrep -n -f -- "--db $DB" ; }
start 120 40 "--where id=$B"
wait_for " 1/1 "
hold 3
keys 3
wait_for "label functional $B waits" 3
kill -TERM "$(wb_pid)"
wait_for "ASSAY-EXIT" 15
[ "$(row "$B" | json_field category)" = functional ] ||
    fail "SIGTERM: the waiting label of $B was not made once the lock freed"
ok "a signal makes a waiting decision once the lock frees"

start 120 40 "--where id=$C"
wait_for " 1/1 "
hold 30
keys 3
wait_for "label functional $C waits" 3
kill -TERM "$(wb_pid)"
wait_for "ASSAY-EXIT" 20
line=$($TM capture-pane -p -J -t t | grep -F " label '$C' 'functional'") ||
    { dump; fail "SIGTERM under a held lock: the decision is not printed"; }
screen | grep -q "ASSAY-EXIT 1" ||
    { dump; fail "SIGTERM under a held lock: exit status not 1 with a decision not made"; }
kill "$locker" 2>/dev/null
wait_for "ASSAY-EXIT"
# the printed line runs as printed, from another folder, under another
# reviewer's name in the environment: it names the database and the
# reviewer (it named neither: "no database at assay.db")
(cd / && ASSAY_REVIEWER=someone-else eval "\"\$ASSAY\" ${line#*assay }") \
    >"$T/ran" 2>&1 || fail "the printed command failed: $line: $(cat "$T/ran")"
[ "$(row "$C" | json_field category)" = functional ] ||
    fail "the printed command did not label $C"
[ "$(sqlite3 "$DB" "SELECT who FROM event WHERE cand_id = '$C' AND action = 'label'")" = tester ] ||
    fail "the printed command did not name the reviewer tester"
ok "one the lock keeps from being made is printed as a command that runs as printed; exit 1"

# A commit under the held lock: git writes, and the journal's entry of
# the commit waits as a decision does (it was lost: "committed, but not
# journalled").
D=$(id_n 4)
"$ASSAY" --db "$DB" review "$D" accept >/dev/null || fail "accept $D"
start 120 40 "--repo $T/repo --where id=$D"
wait_for " 1/1 "
hold 4
keys c
wait_for "its journal entry waits for the database's lock" 20
[ "$(sqlite3 "$DB" "SELECT count(*) FROM event WHERE action = 'commit'")" = 0 ] ||
    fail "the commit was journalled under the lock"
wait_for "1 pending decision made" 20
oid=$(git -C "$T/repo" rev-parse HEAD)
[ "$(sqlite3 "$DB" "SELECT detail FROM event WHERE action = 'commit'")" = "$oid" ] ||
    fail "the commit $oid is not in the journal once the lock freed"
ok "a commit's journal entry waits for the lock and is made when it frees"
quit_all

# A verification under the held lock (v; :verify shows the same) says
# it waits for the lock (the status said nothing, or a cut note), then
# stores its run when it frees and says no more.
if command -v iverilog >/dev/null 2>&1; then
	E=$(id_n 5)
	start 120 40 "--where id=$E"
	wait_for " 1/1 "
	hold 4
	keys v
	wait_for "waits for the database's lock (" 10
	ok "v under a held lock says it waits"
	wait_for "$(short "$E"): " 30
	wait_gone "waits for the database's lock" 5
	[ "$(row "$E" | json_field verdict)" != null ] ||
	    fail "the run of $E was not stored once the lock freed"
	ok "and stores its run when the lock frees"
	quit_all

	# :verify's run kept for a lock that stays held when the workbench
	# is told to stop: said on stderr, exit 1 (it was dropped silently)
	G=$(id_n 6)
	start 120 40 "--where id=$G"
	wait_for " 1/1 "
	hold 40
	command_line "verify 1"
	wait_for "waits for the database's lock (" 30
	kill -TERM "$(wb_pid)"
	wait_for "ASSAY-EXIT" 20
	$TM capture-pane -p -J -t t | grep -q "1 finished run of :verify was not stored" ||
	    { dump; fail "a run dropped on SIGTERM is not said"; }
	screen | grep -q "ASSAY-EXIT 1" || { dump; fail "exit status not 1"; }
	kill "$locker" 2>/dev/null
	ok ":verify's run the lock kept, dropped on SIGTERM, is said; exit 1"
fi
