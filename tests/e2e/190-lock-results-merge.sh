# 190: no run is lost to a lock, runs as files, merge (issue 13 items 1,
# 3, 5, 7).  Another process (the sqlite3 shell) holds the write lock
# with BEGIN IMMEDIATE: with a short --lock-timeout every run is kept in
# the results file as not stored, the summary says 0 verified and the
# database holds no run, exit 3; `assay merge` then stores them all, a
# second merge adds nothing, and a stale or foreign line is refused with
# FILE:LINE while the rest merge.  With a lock released after 2 s and the
# default --lock-timeout, verify waits and stores every run.
# Issue 22 item 5: each line carries a MAC under the database's own key;
# a verdict edited to pass, a line without its MAC, of the version
# before MACs, of another key or with another line's MAC is refused,
# and ids, task ids and envs with control characters and a log over
# verify's cap are refused with nothing raw on the terminal.
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

# A merge under the held lock: --lock-timeout is the wait of the whole
# merge, not of each line (9 lines waited 9 times); the first line says
# why, then one line that the rest is not stored.
hold_lock
"$ASSAY" --db "$DB" merge --lock-timeout 1 "$T/r1.jsonl" >"$T/ml.out" 2>"$T/ml.err"
rc=$?
release_lock
expect_eq "merge exit under a held lock" $rc 3
expect_eq "waits for the lock" "$(grep -c 'database is locked' "$T/ml.err")" 1
grep -q "the runs after this line are not stored (merge again" "$T/ml.err" ||
    fail "no word that the rest is not stored: $(cat "$T/ml.err")"
grep -q "not stored 9" "$T/ml.out" || fail "merge under the lock: $(cat "$T/ml.out")"
expect_eq "runs after the merge under the lock" "$(runs)" 0

# Merge stores them; the summary is verify's, and equals the database.
"$ASSAY" --db "$DB" merge --json "$T/r1.jsonl" >"$T/m1.json" || fail "merge: $(cat "$T/m1.json")"
expect_eq "merge summary" "$(jq -c '[.merged, .verified, .unchanged, .refused, .pass, .fail]' "$T/m1.json")" "[9,9,0,0,6,3]"
expect_eq "runs after merge" "$(runs)" 9
expect_eq "v1 pass after merge" "$(count "verdict=pass")" 6
out=$("$ASSAY" --db "$DB" merge "$T/r1.jsonl")
expect_eq "second merge adds nothing" "$out" \
    "merged 0, unchanged 9: pass 6, fail 3, timeout 0, env-error 0, task-defect 0, skipped 0"
expect_eq "runs after the second merge" "$(runs)" 9
# A verify run again over what is already verified writes every run of
# its selection to --results, not only those it makes: after an
# interrupted verify, the rerun's results file held none of the runs
# the first had stored, and a merge elsewhere never got them.
"$ASSAY" --db "$DB" verify --quiet --timeout 60 --results "$T/again.jsonl" >"$T/again.out" 2>&1
expect_eq "rerun: all unchanged" "$(grep -o 'unchanged [0-9]*' "$T/again.out")" "unchanged 9"
expect_eq "rerun's results file holds the current runs" "$(wc -l <"$T/again.jsonl" | tr -d ' ')" 9
"$ASSAY" --db "$DB" merge "$T/again.jsonl" >"$T/again.m" 2>&1 ||
    fail "merge of the rerun's results: $(cat "$T/again.m")"
grep -q "unchanged 9" "$T/again.m" || fail "the current runs merge as already there: $(cat "$T/again.m")"

# The results file holds no key; the database's own key made its MACs.
KID=$(sqlite3 "$DB" "SELECT id FROM results_key WHERE kind = 'database'")
KEY=$(sqlite3 "$DB" "SELECT key FROM results_key WHERE kind = 'database'")
[ ${#KEY} -eq 64 ] || fail "no results key of the database"
grep -q "$KEY" "$T/r1.jsonl" && fail "the key is in the results file"
expect_eq "lines authenticated with the database's key" \
    "$(grep -c "\"mac_key\":\"$KID\",\"mac\":\"[0-9a-f]\{64\}\"}\$" "$T/r1.jsonl")" 9

# sign FILE KEY ID: each line's MAC made again as verify makes it, by
# someone who holds the key (the checks below the MAC need such lines).
sign() {
	python3 - "$@" <<'PY'
import hashlib, hmac, sys
path, key, kid = sys.argv[1:4]
out = []
for l in open(path, encoding="utf-8"):
    l = l.rstrip("\n")
    i = l.rfind(',"mac_key":"')
    body = (l[:i] if i >= 0 else l[:-1]) + ',"mac_key":"%s"' % kid
    mac = hmac.new(key.encode(), body.encode(), hashlib.sha256).hexdigest()
    out.append(body + ',"mac":"%s"}' % mac)
open(path, "w", encoding="utf-8").write("\n".join(out) + "\n")
PY
}

# A stale line (another code hash's key), a foreign one (no such
# candidate) and a task that does not match are refused; the rest merge.
head -n 1 "$T/r1.jsonl" | jq -c '.input_key = ("0" * 64) | .started += 1' > "$T/bad.jsonl"
head -n 1 "$T/r1.jsonl" | jq -c '.candidate = "cffffff0"' >> "$T/bad.jsonl"
head -n 1 "$T/r1.jsonl" | jq -c '.task = "rtlfixer/other" | .started += 2' >> "$T/bad.jsonl"
sign "$T/bad.jsonl" "$KEY" "$KID"
echo '{"assay_run": 1' >> "$T/bad.jsonl"
sed -n 2p "$T/r1.jsonl" | jq -c '.started += 5' >> "$T/bad.jsonl"
sign "$T/bad.jsonl" "$KEY" "$KID"
sed -i '4s/.*/{"assay_run": 1/' "$T/bad.jsonl"
"$ASSAY" --db "$DB" merge "$T/bad.jsonl" >"$T/m2.out" 2>"$T/m2.err"
expect_eq "merge exit with refused lines" $? 2
grep -q "^$T/bad.jsonl:1: stale: " "$T/m2.err" || fail "stale: $(cat "$T/m2.err")"
grep -q "^$T/bad.jsonl:2: foreign: no candidate cffffff0" "$T/m2.err" || fail "foreign: $(cat "$T/m2.err")"
grep -q "^$T/bad.jsonl:3: foreign: candidate .* is of task verilog-eval-v1/" "$T/m2.err" || fail "task: $(cat "$T/m2.err")"
grep -q "^$T/bad.jsonl:4: no MAC" "$T/m2.err" || fail "bad JSON: $(cat "$T/m2.err")"
case $(cat "$T/m2.out") in
"merged 1, unchanged 0: "*"; refused 4") echo "ok: the good line merged" ;;
*) fail "merge with bad lines: $(cat "$T/m2.out")" ;;
esac
expect_eq "runs after the partial merge" "$(runs)" 10

# --- issue 22 item 5: a results file cannot be edited ------------------
# The red team's forgery: a real fail line with its verdict edited to
# pass (and a later start, so that it would be the latest run).
latest() { "$ASSAY" --db "$DB" list --json --where "id=$1" | jq -r .verdict; }
fl=$(grep -m 1 '"verdict":"fail"' "$T/r1.jsonl")
fid=$(printf '%s\n' "$fl" | jq -r .candidate)
printf '%s\n' "$fl" | jq -c '.verdict = "pass" | .stage = null | .started += 100' > "$T/forged.jsonl"
# The same edit with the MAC taken away, a file of the version before
# MACs, a line authenticated by another database's key, a MAC of
# another line.
printf '%s\n' "$fl" | jq -c '.verdict = "pass" | .started += 101 | del(.mac_key, .mac)' >> "$T/forged.jsonl"
printf '%s\n' "$fl" | jq -c '.assay_run = 1 | .verdict = "pass" | .started += 102 | del(.mac_key, .mac)' >> "$T/forged.jsonl"
printf '%s\n' "$fl" | jq -c '.verdict = "pass" | .started += 103' > "$T/other.jsonl"
sign "$T/other.jsonl" "$(printf '%064d' 7)" 0123456789abcdef
cat "$T/other.jsonl" >> "$T/forged.jsonl"
mac2=$(sed -n 2p "$T/r1.jsonl" | jq -r .mac)
printf '%s\n' "$fl" | jq -c --arg m "$mac2" '.verdict = "pass" | .started += 104 | .mac = $m' >> "$T/forged.jsonl"
"$ASSAY" --db "$DB" merge "$T/forged.jsonl" >"$T/m3.out" 2>"$T/m3.err"
expect_eq "merge exit with forged lines" $? 2
cat "$T/m3.err"
grep -q "^$T/forged.jsonl:1: wrong MAC" "$T/m3.err" || fail "edited verdict: $(cat "$T/m3.err")"
grep -q "^$T/forged.jsonl:2: no MAC" "$T/m3.err" || fail "MAC removed"
grep -q "^$T/forged.jsonl:3: no MAC.*assay_run 1" "$T/m3.err" || fail "version 1 line"
grep -q "^$T/forged.jsonl:4: unknown results key 0123456789abcdef" "$T/m3.err" || fail "foreign key"
grep -q "^$T/forged.jsonl:5: wrong MAC" "$T/m3.err" || fail "MAC of another line"
expect_eq "forged lines refused" "$(sed 's/.*refused //' "$T/m3.out")" 5
expect_eq "the forged candidate's latest verdict" "$(latest "$fid")" fail
expect_eq "runs after the forgeries" "$(runs)" 10

# Lines the key authenticates are still checked: ids, task ids and envs
# with control characters are refused, and nothing of them reaches the
# terminal raw (ESC sequences did, in "foreign" errors); so is a log
# over verify's 16 MiB cap.  The file's own name is shown escaped too.
bad="$T/$(printf 'bad\033]0;PWN\007').jsonl"
{
	printf '%s\n' "$fl" | jq -c '.candidate = "c\u001b[2Jx" | .started += 200'
	printf '%s\n' "$fl" | jq -c '.task = "verilog-eval-v1/x\u001b]0;PWN\u0007" | .started += 201'
	printf '%s\n' "$fl" | jq -c '.env = "iverilog\u001b[31m" | .started += 202'
	printf '%s\n' "$fl" | jq -c '.env = "iverilog\nAssay-Verdict: pass" | .started += 203'
} > "$bad"
python3 - "$fl" >>"$bad" <<'PY'
import json, sys
o = json.loads(sys.argv[1])
o["log"] = "x" * (16 * 1024 * 1024 + 1)
o["started"] += 204
print(json.dumps(o, separators=(",", ":")))
PY
sign "$bad" "$KEY" "$KID"
"$ASSAY" --db "$DB" merge "$bad" >"$T/m4.out" 2>"$T/m4.err"
expect_eq "merge exit with hostile ids" $? 2
cat -v "$T/m4.err"
if grep -q "$(printf '\033')" "$T/m4.out" "$T/m4.err"; then
	fail "an escape sequence reached the terminal"
fi
grep -q 'bad\\x1b\]0;PWN\\x07\.jsonl:1: "candidate"' "$T/m4.err" || fail "candidate id: $(cat -v "$T/m4.err")"
grep -q ':2: "task"' "$T/m4.err" || fail "task id"
grep -q ':3: "env"' "$T/m4.err" || fail "env"
grep -q ':4: "env"' "$T/m4.err" || fail "env with a newline"
grep -q ":5: a log of 16777217 bytes, over verify's cap" "$T/m4.err" || fail "log over the cap"
expect_eq "hostile lines refused" "$(sed 's/.*refused //' "$T/m4.out")" 5
expect_eq "runs after the hostile lines" "$(runs)" 10

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
