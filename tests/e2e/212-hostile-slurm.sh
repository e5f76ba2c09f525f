# 212: the job scripts of `assay slurm` cannot be turned into commands
# (issue 22 item 6).  No Slurm is needed: a stand-in sbatch on PATH logs
# its arguments and, like a node, runs array task 0 of the script it is
# given.
# - A shard directory whose name holds a newline and a command: on the
#   code before, `#SBATCH --output=DIR/...` was written unquoted and the
#   command ran on the node; now slurm refuses it before writing or
#   submitting anything.  So is a database path or an --sbatch-arg with
#   control characters, whose escape sequences never reach the terminal.
# - A legal but awkward name (space, both quotes, '#', '%', '$(...)'):
#   every #SBATCH value is quoted as sbatch reads it (210 runs it on a
#   real Slurm), and --dry-run prints shell text that, run, makes
#   exactly the sbatch calls the real submission makes.
# - The campaign key: a manifest from another database is refused (its
#   merge would refuse every run); one from before keys gets a key.
# - Issue 25 item 8, what the stand-ins can show (210 runs it on a real
#   Slurm): --shards 1500 is cut at MaxArraySize (scontrol) into arrays
#   of indexes below it, each with the %N throttle; a campaign whose
#   slices squeue lists as queued submits nothing again; a failed squeue
#   submits nothing at all.
. "$(dirname "$0")/lib.sh"
need_data
command -v jq >/dev/null || skip "no jq"

mkdir "$T/bin"
cat >"$T/bin/sbatch" <<'SH'
#!/bin/sh
# A stand-in for sbatch: logs its arguments, one a line, then "--";
# runs array task 0 of a verify script as a node would; prints a job id.
{ for a in "$@"; do printf '%s\n' "$a"; done; echo --; } >>"$FAKE_LOG"
for a in "$@"; do last=$a; done
case $last in
*verify.sbatch) [ -z "${FAKE_RUN:-}" ] || SLURM_ARRAY_TASK_ID=0 sh "$last" >/dev/null 2>&1 ;;
esac
n=$(($(cat "$FAKE_N" 2>/dev/null || echo 100) + 1))
echo $n >"$FAKE_N"
echo "$n"
SH
# squeue: prints $FAKE_QUEUE (lines of %F|%K|%j|%T), fails with
# FAKE_SQUEUE_FAIL; scontrol show config: MaxArraySize $FAKE_MAXARRAY.
cat >"$T/bin/squeue" <<'SH'
#!/bin/sh
[ -z "${FAKE_SQUEUE_FAIL:-}" ] || { echo "squeue: error: cannot connect" >&2; exit 1; }
[ ! -f "${FAKE_QUEUE:-/nonexistent}" ] || cat "$FAKE_QUEUE"
SH
cat >"$T/bin/scontrol" <<'SH'
#!/bin/sh
{ for a in "$@"; do printf '%s\n' "$a"; done; echo --; } >>"$FAKE_SCONTROL_LOG"
[ "$*" = "show config" ] && echo "MaxArraySize            = ${FAKE_MAXARRAY:-1001}"
exit 0
SH
chmod +x "$T/bin/sbatch" "$T/bin/squeue" "$T/bin/scontrol"
export PATH="$T/bin:$PATH" FAKE_LOG="$T/sbatch.log" FAKE_N="$T/sbatch.n"
export FAKE_SCONTROL_LOG="$T/scontrol.log"

"$ASSAY" --db "$DB" import "$DATA/verilog-eval-v1" >/dev/null || fail "import"

# --- a newline in the shard directory's name ----------------------------
W="$T/$(printf 'w\ntouch PWNED #')"
"$ASSAY" --db "$DB" export --format raw --shards 2 -o "$W" >/dev/null ||
    fail "export --shards"
(cd "$T" && FAKE_RUN=1 "$ASSAY" --db "$DB" slurm --timeout 30 "$W") \
    >"$T/nl.out" 2>"$T/nl.err"
expect_eq "exit with a newline in the directory" $? 2
cat "$T/nl.err"
[ ! -e "$T/PWNED" ] || fail "the directory's name ran a command on the node"
[ ! -e "$W/verify.sbatch" ] || fail "a script was written"
[ ! -e "$FAKE_LOG" ] || fail "sbatch was called"
grep -q "the shard directory '.*w\\\\ntouch PWNED #' holds control characters" \
    "$T/nl.err" || fail "message: $(cat -v "$T/nl.err")"
echo "ok: a newline in the directory is refused, nothing submitted"

# The database's path and --sbatch-arg are checked the same way, and
# their escape sequences are shown escaped.
W2="$T/plain"
"$ASSAY" --db "$DB" export --format raw --shards 2 -o "$W2" >/dev/null || fail "export"
EDB="$T/$(printf 'db\033]0;PWN\007\n.db')"
cp "$DB" "$EDB"
# Exported from that copy, so that its key is there.
W3="$T/from-copy"
"$ASSAY" --db "$EDB" export --format raw --shards 2 -o "$W3" >/dev/null || fail "export from the copy"
"$ASSAY" --db "$EDB" slurm --dry-run "$W3" >"$T/db.out" 2>"$T/db.err"
expect_eq "exit with a control character in the database path" $? 2
grep -q "the database '.*db\\\\x1b\\]0;PWN\\\\x07\\\\n.db' holds control" "$T/db.err" ||
    fail "db message: $(cat -v "$T/db.err")"
"$ASSAY" --db "$DB" slurm --dry-run --sbatch-arg "$(printf -- '--comment=a\033[2Jb')" \
    "$W2" >"$T/arg.out" 2>"$T/arg.err"
expect_eq "exit with a control character in --sbatch-arg" $? 2
grep -q -- "--sbatch-arg '--comment=a\\\\x1b\\[2Jb' holds control" "$T/arg.err" ||
    fail "arg message: $(cat -v "$T/arg.err")"
if grep -q "$(printf '\033')" "$T/db.out" "$T/db.err" "$T/arg.out" "$T/arg.err"; then
	fail "an escape sequence reached the terminal"
fi
[ ! -e "$W3/verify.sbatch" ] && [ ! -e "$W2/verify.sbatch" ] || fail "a script was written"
echo "ok: control characters in the database path and --sbatch-arg refused"

# --- an awkward legal name: quoted, and --dry-run is what runs ----------
Q="$T/$(printf '%s' "w d'q\"x #h %p \$(touch PWNED2)")"
"$ASSAY" --db "$DB" export --format raw --shards 2 -o "$Q" >/dev/null || fail "export to Q"
SA="--comment=it's \"q\" \$(touch PWNED3)"
"$ASSAY" --db "$DB" slurm --dry-run --jobs 2 --sbatch-arg "$SA" "$Q" \
    >"$T/dry.out" 2>"$T/dry.err" || fail "dry run: $(cat "$T/dry.err")"
cat "$T/dry.out"
# Every #SBATCH value in quotes, as sbatch reads them.
for s in verify merge; do
	grep '^#SBATCH' "$Q/$s.sbatch" >"$T/$s.sb"
	expect_eq "$s: unquoted #SBATCH values" \
	    "$(grep -vc '^#SBATCH --[a-z-]*="[^"]*\(\\"[^"]*\)*"$' "$T/$s.sb")" 0
done
grep -q "^#SBATCH --output=\"$T/w d'q\\\\\"x #h %%p \$(touch PWNED2)/logs/verify-%A_%a.out\"\$" \
    "$Q/verify.sbatch" || fail "output value: $(grep output "$Q/verify.sbatch")"
# The dry run's text, run by a shell, makes the calls a real run makes.
(cd "$T" && sh "$T/dry.out") >/dev/null || fail "the dry run's text does not run"
mv "$FAKE_LOG" "$T/dry.calls"
rm -f "$FAKE_N"
(cd "$T" && "$ASSAY" --db "$DB" slurm --jobs 2 --sbatch-arg "$SA" "$Q") \
    >"$T/real.out" 2>&1 || fail "real run: $(cat "$T/real.out")"
cat "$T/real.out"
cmp "$T/dry.calls" "$FAKE_LOG" || fail "dry run and real run differ: $(diff "$T/dry.calls" "$FAKE_LOG")"
expect_eq "sbatch calls" "$(grep -c '^--$' "$FAKE_LOG")" 2
grep -qxF -- "$SA" "$FAKE_LOG" || fail "--sbatch-arg not passed whole"
grep -qxF -- "$Q/merge.sbatch" "$FAKE_LOG" || fail "the merge script's path"
# The merge runs after the array however it ends, and is killed (not
# left pending) should its dependency become invalid.
grep -qx -- "--dependency=afterany:101" "$FAKE_LOG" || fail "dependency on the array"
grep -qx -- "--kill-on-invalid-dep=yes" "$FAKE_LOG" || fail "--kill-on-invalid-dep"
expect_eq "--requeue on every sbatch" "$(grep -cx -- "--requeue" "$FAKE_LOG")" 2
tag=$(grep -o '^--job-name=assay-merge-[0-9a-f]*$' "$FAKE_LOG" | sed 's/.*-//')
[ ${#tag} -eq 12 ] || fail "the campaign's tag: $(grep job-name "$FAKE_LOG")"
grep -qx -- "--job-name=assay-verify-$tag-0" "$FAKE_LOG" || fail "the array's name"
for f in PWNED2 PWNED3; do
	[ ! -e "$T/$f" ] && [ ! -e "$f" ] || fail "a name ran a command ($f)"
done
echo "ok: --dry-run prints exactly what runs"

# --- a second submission while the slices are queued ----------------------
# squeue lists both slices' tasks and the merge as pending: nothing is
# submitted twice.  With slice 1 alone queued, slice 0 is submitted and
# the pending merge made to wait for both arrays (scontrol update).
printf '101|0|assay-verify-%s-0|PENDING\n101|1|assay-verify-%s-0|PENDING\n102|N/A|assay-merge-%s|PENDING\n' \
    "$tag" "$tag" "$tag" >"$T/queue"
rm -f "$FAKE_LOG"
FAKE_QUEUE=$T/queue "$ASSAY" --db "$DB" slurm "$Q" >"$T/again.out" 2>&1 || fail "again: $(cat "$T/again.out")"
cat "$T/again.out"
grep -q "nothing submitted: the 2 slices not complete are queued or running already (array job 101), and merge job 102 waits for them" \
    "$T/again.out" || fail "again: $(cat "$T/again.out")"
[ ! -e "$FAKE_LOG" ] || fail "sbatch was called again: $(cat "$FAKE_LOG")"
# Another campaign's jobs (another tag) do not count.
sed "s/$tag/000000000000/" "$T/queue" >"$T/queue.other"
FAKE_QUEUE=$T/queue.other "$ASSAY" --db "$DB" slurm --dry-run "$Q" >"$T/other-q.out" 2>&1 ||
    fail "other queue: $(cat "$T/other-q.out")"
grep -q -- "--array=0-1 " "$T/other-q.out" || fail "another campaign's jobs counted: $(cat "$T/other-q.out")"
grep -v '|0|' "$T/queue" >"$T/queue.one"
: >"$FAKE_SCONTROL_LOG"
FAKE_QUEUE=$T/queue.one "$ASSAY" --db "$DB" slurm "$Q" >"$T/one.out" 2>&1 || fail "one: $(cat "$T/one.out")"
cat "$T/one.out"
expect_eq "sbatch calls with slice 1 queued" "$(grep -c '^--$' "$FAKE_LOG")" 1
grep -qx -- "--array=0" "$FAKE_LOG" || fail "slice 0 alone: $(cat "$FAKE_LOG")"
grep -qx "Dependency=afterany:101:103" "$FAKE_SCONTROL_LOG" ||
    fail "the pending merge not made to wait: $(cat "$FAKE_SCONTROL_LOG")"
grep -qx "JobId=102" "$FAKE_SCONTROL_LOG" || fail "the merge's id"
# A squeue that fails: nothing is submitted blind.
rm -f "$FAKE_LOG"
FAKE_SQUEUE_FAIL=1 "$ASSAY" --db "$DB" slurm "$Q" >"$T/sq.out" 2>&1
expect_eq "exit when squeue fails" $? 2
grep -q "squeue failed (exit 1): cannot see which slices are queued already; nothing submitted" "$T/sq.out" ||
    fail "squeue failure: $(cat "$T/sq.out")"
[ ! -e "$FAKE_LOG" ] || fail "sbatch was called blind"
echo "ok: queued slices are not submitted twice"

# --- 1500 slices, MaxArraySize 1001, --throttle 8 ---------------------------
"$ASSAY" --db "$DB" export --format raw --shards 1500 -o "$T/big" >/dev/null || fail "export 1500"
FAKE_MAXARRAY=1001 "$ASSAY" --db "$DB" slurm --dry-run --throttle 8 "$T/big" >"$T/big.out" 2>&1 ||
    fail "1500: $(cat "$T/big.out")"
expect_eq "arrays for 1500 slices" "$(grep -c '^JOB[0-9]*=\$(sbatch' "$T/big.out")" 2
grep -q "^JOB1=.*--job-name=assay-verify-[0-9a-f]*-0 --array=0-1000%8 '$T/big/verify.sbatch' 0) &&\$" "$T/big.out" ||
    fail "first array: $(head -n 1 "$T/big.out")"
grep -q "^JOB2=.*--job-name=assay-verify-[0-9a-f]*-1001 --array=0-498%8 '$T/big/verify.sbatch' 1001) &&\$" "$T/big.out" ||
    fail "second array: $(sed -n 2p "$T/big.out")"
grep -q -- '--dependency=afterany:"${JOB1%%;\*}":"${JOB2%%;\*}" ' "$T/big.out" ||
    fail "the merge after both: $(tail -n 1 "$T/big.out")"
# The script verifies slice BASE + its index: task 498 of the second is
# slice 1499.
(cd "$T" && rm -f "$FAKE_LOG" && SLURM_ARRAY_TASK_ID=498 sh -x "$T/big/verify.sbatch" 1001 2>&1 | grep -q "slice-1499.jsonl") ||
    fail "slice 1001 + 498"
echo "ok: 1500 slices in arrays below MaxArraySize, throttled"

# --- the campaign key ---------------------------------------------------
expect_eq "manifest mode" "$(stat -c %a "$Q/manifest.json")" 600
expect_eq "campaign key in the database" \
    "$(sqlite3 "$DB" "SELECT count(*) FROM results_key WHERE kind = 'campaign' AND id = '$(jq -r .results_key.id "$Q/manifest.json")' AND key = '$(jq -r .results_key.key "$Q/manifest.json")'")" 1
grep -q "$(jq -r .results_key.key "$Q/manifest.json")" "$Q/verify.sbatch" "$Q/merge.sbatch" "$T/dry.calls" &&
    fail "the key is in a script or on a command line"
# Shards of another database: their runs would all be refused.
"$ASSAY" --db "$T/other.db" import "$DATA/verilog-eval-v1" >/dev/null || fail "import other"
"$ASSAY" --db "$T/other.db" slurm --dry-run "$W2" >"$T/other.out" 2>"$T/other.err"
expect_eq "exit with another database's shards" $? 2
grep -q "results key .* is not in .*other.db: these shards were exported from another database" \
    "$T/other.err" || fail "other db: $(cat "$T/other.err")"
# An export from before keys gets one, kept in both places.
jq 'del(.results_key)' "$W2/manifest.json" >"$T/m.json" && cp "$T/m.json" "$W2/manifest.json"
"$ASSAY" --db "$DB" slurm --dry-run "$W2" >/dev/null 2>"$T/old.err" || fail "old manifest: $(cat "$T/old.err")"
expect_eq "a key added to the old manifest" "$(jq -r '.results_key.key | length' "$W2/manifest.json")" 64
expect_eq "its mode" "$(stat -c %a "$W2/manifest.json")" 600
expect_eq "and in the database" \
    "$(sqlite3 "$DB" "SELECT count(*) FROM results_key WHERE id = '$(jq -r .results_key.id "$W2/manifest.json")'")" 1
echo "212: ok"
