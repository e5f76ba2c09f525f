# 190: no run is lost to a lock, runs as files, merge (issue 13 items 1,
# 3, 5, 7).  Another process (the sqlite3 shell) holds the write lock
# with BEGIN IMMEDIATE: with a short --lock-timeout every run is kept in
# the results file as not stored, the summary says 0 verified and the
# database holds no run, exit 3; `assay merge` then stores them all, a
# second merge adds nothing, and a stale or foreign line is refused with
# FILE:LINE while the rest merge.  With a lock released after 2 s and the
# default --lock-timeout, verify waits and stores every run.
. "$(dirname "$0")/lib.sh"
need_data
command -v iverilog >/dev/null || skip "iverilog not installed"
command -v sqlite3 >/dev/null || skip "no sqlite3 shell to hold a lock"

"$ASSAY" --db "$DB" import "$DATA/verilog-eval-v1" >/dev/null || fail "import"
runs() { sqlite3 "$DB" "SELECT count(*) FROM run"; }

# hold_lock: the sqlite3 shell takes the write lock and keeps it until
# release_lock; we wait until it says it has it.
hold_lock() {
	rm -f "$T/lock.fifo" "$T/lock.out"
	mkfifo "$T/lock.fifo"
	sqlite3 "$DB" <"$T/lock.fifo" >"$T/lock.out" 2>&1 &
	LOCKER=$!
	exec 3>"$T/lock.fifo"
	printf 'BEGIN IMMEDIATE;\nSELECT '"'"'locked'"'"';\n' >&3
	i=0
	until grep -q locked "$T/lock.out"; do
		i=$((i + 1)); [ $i -lt 100 ] || fail "sqlite3 never took the lock"
		sleep 0.1
	done
}
release_lock() { printf 'COMMIT;\n' >&3; exec 3>&-; wait "$LOCKER"; }

hold_lock
out=$("$ASSAY" --db "$DB" verify --quiet --timeout 60 --lock-timeout 1 \
    --results "$T/r1.jsonl" 2>"$T/err1")
rc=$?
release_lock
expect_eq "exit status when runs are not stored" $rc 3
expect_eq "summary under a held lock" "$out" \
    "verified 0, unchanged 0: pass 0, fail 0, timeout 0, env-error 0, task-defect 0, skipped 0; not stored 9"
expect_eq "runs in the database" "$(runs)" 0
grep -q 'database is locked' "$T/err1" || fail "no reason given: $(cat "$T/err1")"
expect_eq "runs kept in the results file" "$(grep -c '"stored":false' "$T/r1.jsonl")" 9
[ -z "$(ls "$T" | grep 'tmp-')" ] || fail "temporary file left: $(ls "$T")"

# Merge stores them; the summary is verify's, and equals the database.
"$ASSAY" --db "$DB" merge --json "$T/r1.jsonl" >"$T/m1.json" || fail "merge: $(cat "$T/m1.json")"
expect_eq "merge summary" "$(jq -c '[.verified, .unchanged, .refused, .pass, .fail]' "$T/m1.json")" "[9,0,0,6,3]"
expect_eq "runs after merge" "$(runs)" 9
expect_eq "v1 pass after merge" "$(count "verdict=pass")" 6
out=$("$ASSAY" --db "$DB" merge "$T/r1.jsonl")
expect_eq "second merge adds nothing" "$out" \
    "verified 0, unchanged 9: pass 6, fail 3, timeout 0, env-error 0, task-defect 0, skipped 0"
expect_eq "runs after the second merge" "$(runs)" 9

# A stale line (another code hash's key), a foreign one (no such
# candidate) and a task that does not match are refused; the rest merge.
head -n 1 "$T/r1.jsonl" | jq -c '.input_key = ("0" * 64) | .started += 1' > "$T/bad.jsonl"
head -n 1 "$T/r1.jsonl" | jq -c '.candidate = "cffffff0"' >> "$T/bad.jsonl"
head -n 1 "$T/r1.jsonl" | jq -c '.task = "rtlfixer/other" | .started += 2' >> "$T/bad.jsonl"
echo '{"assay_run": 1' >> "$T/bad.jsonl"
sed -n 2p "$T/r1.jsonl" | jq -c '.started += 5' >> "$T/bad.jsonl"
"$ASSAY" --db "$DB" merge "$T/bad.jsonl" >"$T/m2.out" 2>"$T/m2.err"
expect_eq "merge exit with refused lines" $? 2
grep -q "^$T/bad.jsonl:1: stale: " "$T/m2.err" || fail "stale: $(cat "$T/m2.err")"
grep -q "^$T/bad.jsonl:2: foreign: no candidate cffffff0" "$T/m2.err" || fail "foreign: $(cat "$T/m2.err")"
grep -q "^$T/bad.jsonl:3: foreign: candidate .* is of task verilog-eval-v1/" "$T/m2.err" || fail "task: $(cat "$T/m2.err")"
grep -q "^$T/bad.jsonl:4: invalid JSON" "$T/m2.err" || fail "bad JSON: $(cat "$T/m2.err")"
case $(cat "$T/m2.out") in
"verified 1, unchanged 0: "*"; refused 4") echo "ok: the good line merged" ;;
*) fail "merge with bad lines: $(cat "$T/m2.out")" ;;
esac
expect_eq "runs after the partial merge" "$(runs)" 10

# A lock held for 2 s is waited for: every run stored, exit 0.
hold_lock
( sleep 2; release_lock ) &
"$ASSAY" --db "$DB" verify --quiet --timeout 60 --force --json \
    --results "$T/r2.jsonl" >"$T/v2.json" || fail "verify under a short lock: $(cat "$T/v2.json")"
exec 3>&-
wait
expect_eq "verify waited for the lock" "$(jq -c '[.verified, .not_stored, .pass]' "$T/v2.json")" "[9,0,6]"
expect_eq "runs after the waiting verify" "$(runs)" 19
expect_eq "stored lines" "$(grep -c '"stored":true' "$T/r2.jsonl")" 9
