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
chmod +x "$T/bin/sbatch"
export PATH="$T/bin:$PATH" FAKE_LOG="$T/sbatch.log" FAKE_N="$T/sbatch.n"

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
grep -qx -- "--dependency=afterok:101" "$FAKE_LOG" || fail "dependency on the array"
for f in PWNED2 PWNED3; do
	[ ! -e "$T/$f" ] && [ ! -e "$f" ] || fail "a name ran a command ($f)"
done
echo "ok: --dry-run prints exactly what runs"

# --- the campaign key ---------------------------------------------------
expect_eq "manifest mode" "$(stat -c %a "$Q/manifest.json")" 600
expect_eq "campaign key in the database" \
    "$(sqlite3 "$DB" "SELECT count(*) FROM results_key WHERE kind = 'campaign' AND id = '$(jq -r .results_key.id "$Q/manifest.json")' AND key = '$(jq -r .results_key.key "$Q/manifest.json")'")" 1
grep -q "$(jq -r .results_key.key "$Q/manifest.json")" "$Q/verify.sbatch" "$Q/merge.sbatch" "$FAKE_LOG" &&
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
