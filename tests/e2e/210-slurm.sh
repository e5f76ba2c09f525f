# 210: verify on a real Slurm (issue 13 item 4).  The test starts a
# single-node Slurm of Debian's slurm-wlm and munge as root, on loopback
# only (SlurmctldHost=localhost(127.0.0.1), NoCtldInAddrAny,NoInAddrAny,
# munge with its own key and socket here), checks with ss that nothing
# of it listens elsewhere, and stops it at the end.  The RTLFixer syntax
# set is exported as 4 slices, `assay slurm` submits an array of 4
# tasks and the merge after it; the merged database must hold the same
# verdicts, stages and categories per candidate as a plain verify, a
# re-submission must submit nothing, and a task cancelled mid-way
# (scancel) leaves nothing and is the only one run again.  The shard
# directory's name holds a space, both quotes, '#', '%' and '$(...)':
# sbatch must read every #SBATCH value whole (issue 22 item 6).
# Issue 25 item 8: MaxArraySize is 3 here, so the 4 slices go in two
# arrays (0-2, and 3 as index 0 of the second); the merge runs after a
# failed or cancelled task (afterany) and names the missing slice, where
# afterok left it pending for ever; a second submission while the tasks
# are queued (held) submits nothing; a task on a node that goes down is
# requeued and completes; each slice's stats file is summed by the merge.
. "$(dirname "$0")/lib.sh"
need_data
command -v iverilog >/dev/null || skip "iverilog not installed"
[ "$(id -u)" -eq 0 ] || skip "the Slurm test starts its daemons as root"
for p in munged mungekey slurmctld slurmd sbatch squeue sinfo scontrol ss; do
	command -v $p >/dev/null 2>&1 || skip "no $p (slurm-wlm, munge: make deps)"
done

S=$T/slurm
mkdir -p "$S/munge" "$S/state" "$S/spool" "$S/log"
chmod 700 "$S/munge"
PIDS=""
stop_slurm() {
	for p in $PIDS; do kill "$p" 2>/dev/null; done
	for p in $PIDS; do wait "$p" 2>/dev/null; done
	PIDS=""
}
trap 'stop_slurm; [ -n "${KEEP_T:-}" ] || rm -rf "$T"' EXIT
trap 'exit 1' INT TERM
skip_slurm() { echo "--- logs"; tail -n 5 "$S"/log/* 2>/dev/null; skip "Slurm did not start: $*"; }

mungekey --create --keyfile="$S/munge/munge.key" || skip_slurm "mungekey"
munged -F -f --socket="$S/munge/munge.sock" --key-file="$S/munge/munge.key" \
    --log-file="$S/log/munged.log" --pid-file="$S/munge/munged.pid" \
    --seed-file="$S/munge/munged.seed" >"$S/log/munged.out" 2>&1 &
PIDS="$PIDS $!"

# Two free loopback ports, from this process's number.
P=$((20000 + $$ % 10000 * 2))
while ss -ltn | grep -q ":$P \|:$((P + 1)) "; do P=$((P + 2)); done
cat >"$S/slurm.conf" <<CONF
ClusterName=assaytest
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$P
SlurmdPort=$((P + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$S/munge/munge.sock
CommunicationParameters=NoCtldInAddrAny,NoInAddrAny
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
SwitchType=switch/none
ReturnToService=2
StateSaveLocation=$S/state
SlurmdSpoolDir=$S/spool
SlurmctldPidFile=$S/slurmctld.pid
SlurmdPidFile=$S/slurmd.pid
SlurmctldLogFile=$S/log/slurmctld.log
SlurmdLogFile=$S/log/slurmd.log
PlugStackConfig=$S/plugstack.conf
MaxArraySize=3
NodeName=localhost NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN
PartitionName=test Nodes=localhost Default=YES MaxTime=INFINITE State=UP
CONF
: >"$S/plugstack.conf"
export SLURM_CONF=$S/slurm.conf
i=0
until [ -S "$S/munge/munge.sock" ]; do
	i=$((i + 1)); [ $i -lt 50 ] || skip_slurm "munged made no socket"; sleep 0.1
done
slurmctld -D -f "$SLURM_CONF" >"$S/log/slurmctld.out" 2>&1 &
PIDS="$PIDS $!"
slurmd -D -N localhost -f "$SLURM_CONF" >"$S/log/slurmd.out" 2>&1 &
PIDS="$PIDS $!"
i=0
until sinfo -h -o %t 2>/dev/null | grep -q idle; do
	i=$((i + 1)); [ $i -lt 60 ] || skip_slurm "no idle node after 30 s"; sleep 0.5
done
echo "ok: single-node Slurm on 127.0.0.1:$P and :$((P + 1))"
# Nothing of it listens on another address.
ss -ltnp > "$T/ss"
mine=$(echo $PIDS | sed 's/ /|/g')
grep -E "pid=($mine)," "$T/ss" > "$T/ss.mine"
cat "$T/ss.mine"
expect_eq "listening sockets of the daemons" "$(wc -l < "$T/ss.mine")" 2
expect_eq "of them, off loopback" "$(awk '{print $4}' "$T/ss.mine" | grep -vc '^127\.0\.0\.1:')" 0

# What a plain verify makes, for comparison.
"$ASSAY" --db "$DB" import "$DATA/rtlfixer/verilogeval-syntax.jsonl" >/dev/null || fail "import"
cp "$DB" "$T/plain.db"
"$ASSAY" --db "$T/plain.db" verify --jobs 2 --quiet --timeout 60 >/dev/null || fail "plain verify"

# The cluster path of docs/cluster.md, in a directory whose name has
# what a shell or sbatch would read (issue 22 item 6): every #SBATCH
# value is quoted as sbatch reads it, '%' doubled in the log names.
WK="$T/work d'q\"x #h %p \$(touch PWNED)"
"$ASSAY" --db "$DB" export --format raw --shards 4 -o "$WK" >/dev/null || fail "export --shards"
out=$("$ASSAY" --db "$DB" slurm --jobs 1 --timeout 60 "$WK") || fail "assay slurm: $out"
echo "$out"
case $out in
"submitted array jobs "*" (slices 0-2), "*" (slices 3) over 4 of 4 slices and merge job "*" after them") ;;
*) fail "submit: $out" ;;
esac
grep -qxF "#SBATCH --output=\"$T/work d'q\\\"x #h %%p \$(touch PWNED)/logs/verify-%A_%a.out\"" "$WK/verify.sbatch" ||
    fail "the output name: $(grep output "$WK/verify.sbatch")"
merge_job=${out##* merge job }; merge_job=${merge_job%% *}
wait_jobs() {
	i=0
	while [ -n "$(squeue -h 2>/dev/null)" ]; do
		i=$((i + 1)); [ $i -lt 600 ] || fail "jobs still queued after 10 min: $(squeue)"
		sleep 1
	done
}
wait_jobs
# log_of I: the log of the task that verified slice I.
log_of() { grep -l "^assay slurm: slice 000$1 on " "$WK/logs/verify-"*.out | tail -n 1; }
for i in 0 1 2 3; do
	[ -n "$(log_of $i)" ] || fail "no log of slice $i: $(ls "$WK/logs")"
	[ -f "$WK/results/slice-000$i.jsonl.done" ] || fail "no marker for slice $i: $(tail -n 5 "$(log_of $i)")"
	[ -f "$WK/results/slice-000$i.jsonl.stats.json" ] || fail "no stats of slice $i"
done
expect_eq "tasks of the second array (slice 3 = 3 + 0)" "$(ls "$WK/logs" | grep -c '_0\.out$')" 2
[ -f "$WK/logs/merge-$merge_job.out" ] || fail "merge job $merge_job did not run: $(ls "$T" "$WK/logs")"
[ ! -e "$T/PWNED" ] && [ ! -e "$WK/PWNED" ] && [ ! -e "$S/spool/PWNED" ] || fail "the directory's name ran a command"
M1=$WK/logs/merge-$merge_job.out
expect_eq "merged by the merge job" "$(jq -c '[.verified, .refused, .not_stored, .slices, .merged_slices, .missing]' "$M1")" "[174,0,0,4,4,[]]"
# The slices' stats, summed: every candidate run once, the verdicts a
# plain verify gives (6 pass), one toolchain for iverilog on one host.
expect_eq "summed stats" "$(jq -c '.stats | [.slices, .candidates, .runs, .verdicts.pass, .verdicts.fail, .envs.iverilog.runs, (.envs.iverilog.toolchains | length), (.hosts | length), (.wall_s > 0), (.cpu_s > 0)]' "$M1")" \
    "[4,174,174,6,168,174,1,1,true,true]"

# The same database a plain verify makes: per candidate, verdict, stage,
# category and subcategory.
facts() { "$ASSAY" --db "$1" list --json | jq -r '[.id, .verdict, .stage, .category, .subcategory] | @tsv' | sort; }
facts "$T/plain.db" > "$T/plain.facts"
facts "$DB" > "$T/slurm.facts"
expect_eq "candidates judged" "$(wc -l < "$T/slurm.facts")" 174
cmp "$T/plain.facts" "$T/slurm.facts" || fail "slurm and plain verify differ: $(diff "$T/plain.facts" "$T/slurm.facts" | head)"
echo "ok: the same verdicts as a plain verify"
expect_eq "syntax passes" "$(count "verdict=pass")" 6

# Re-submitting runs nothing.
jobs_before=$(scontrol show jobs 2>/dev/null | grep -c '^JobId=')
out=$("$ASSAY" --db "$DB" slurm "$WK") || fail "re-submit: $out"
case $out in
"all 4 slices of "*"nothing submitted"*) echo "ok: re-submission submits nothing" ;;
*) fail "re-submit: $out" ;;
esac
expect_eq "no new job" "$(scontrol show jobs 2>/dev/null | grep -c '^JobId=')" "$jobs_before"
facts_ok() { facts "$DB" > "$T/now.facts"; cmp "$T/plain.facts" "$T/now.facts" || fail "$1: $(diff "$T/plain.facts" "$T/now.facts" | head)"; }
redo() { for i in "$@"; do rm -f "$WK/results/slice-000$i.jsonl"*; done; }
# merge_of OUT: the merge job's id in assay slurm's line OUT.
merge_of() { m=${1##* merge job }; echo "${m%% *}"; }

# --- a second submission while the first is queued -----------------------
# Slices 1 and 3 again, held (--hold), throttled: a second assay slurm
# sees their tasks and the merge in squeue and submits nothing.
redo 1 3
out=$("$ASSAY" --db "$DB" slurm --throttle 1 --timeout 60 --sbatch-arg=--hold "$WK") || fail "held: $out"
echo "$out"
case $out in
"submitted array jobs "*" (slices 1), "*" (slices 3) over 2 of 4 slices and merge job "*) ;;
*) fail "held: $out" ;;
esac
held_merge=$(merge_of "$out")
arrays=$(echo "$out" | sed 's/submitted array jobs \([0-9]*\) (slices 1), \([0-9]*\) .*/\1 \2/')
for a in $arrays; do
	scontrol show job "$a" | grep -q "ArrayTaskThrottle=1" || fail "array $a not throttled: $(scontrol show job "$a" | head -n 3)"
done
jobs_before=$(scontrol show jobs 2>/dev/null | grep -c '^JobId=')
out=$("$ASSAY" --db "$DB" slurm --timeout 60 "$WK") || fail "second: $out"
echo "$out"
case $out in
"nothing submitted: the 2 slices not complete are queued or running already (array jobs "*"), and merge job $held_merge waits for them") ;;
*) fail "second submission: $out" ;;
esac
expect_eq "jobs after the second submission" "$(scontrol show jobs 2>/dev/null | grep -c '^JobId=')" "$jobs_before"
scontrol release $arrays $held_merge || fail "release"
wait_jobs
expect_eq "the held campaign's merge" "$(jq -c '[.slices, .merged_slices, .missing]' "$WK/logs/merge-$held_merge.out")" "[4,4,[]]"
facts_ok "after the held run"
echo "ok: a second submission submits nothing twice"

# --- a task that fails: the merge runs anyway and names the slice --------
# Slice 1 changed after the export: verify --input refuses it (exit 2).
# With afterok its merge stayed PENDING (DependencyNeverSatisfied) for
# ever; with afterany it runs, merges the others and names slice 1.
redo 1
cp "$WK/slice-0001.jsonl" "$T/slice-0001.keep"
echo '{}' >>"$WK/slice-0001.jsonl"
out=$("$ASSAY" --db "$DB" slurm --timeout 60 "$WK") || fail "failing slice: $out"
echo "$out"
fail_merge=$(merge_of "$out")
wait_jobs
grep -q "changed since the export" "$(log_of 1)" || fail "slice 1 did not fail: $(tail -n 3 "$(log_of 1)")"
[ -f "$WK/logs/merge-$fail_merge.out" ] || fail "the merge after a failed task did not run"
expect_eq "the merge after a failed task" "$(jq -c '[.slices, .merged_slices, .missing]' "$WK/logs/merge-$fail_merge.out")" "[4,3,[1]]"
cp "$T/slice-0001.keep" "$WK/slice-0001.jsonl"
out=$("$ASSAY" --db "$DB" slurm --timeout 60 "$WK") || fail "after the failure: $out"
case $out in
"submitted array job "*" over 1 of 4 slices (1) and merge job "*) ;;
*) fail "after the failure: $out" ;;
esac
wait_jobs
[ -f "$WK/results/slice-0001.jsonl.done" ] || fail "slice 1 not redone"
echo "ok: a failed task: the merge ran and named it, the next submission redid it"

# --- a node that goes down: the task is requeued and completes ------------
redo 0
out=$("$ASSAY" --db "$DB" slurm --timeout 60 "$WK") || fail "requeue: $out"
array=${out#submitted array job }; array=${array%% *}
i=0
until grep -q '^\[3/' "$WK/logs/verify-${array}_0.out" 2>/dev/null; do
	i=$((i + 1)); [ $i -lt 600 ] || fail "slice 0 never ran: $(squeue)"; sleep 0.5
done
scontrol update NodeName=localhost State=DOWN Reason=assay-test || fail "node down"
i=0
until squeue -h -j "$array" -o %T 2>/dev/null | grep -q PENDING; do
	i=$((i + 1)); [ $i -lt 120 ] || fail "the task was not requeued: $(squeue -j "$array"; scontrol show job "$array" | head -n 5)"
	sleep 0.5
done
scontrol show job "$array" | grep -o 'Restarts=[0-9]*' >"$T/restarts"
# RESUME is refused while the killed task is still completing on it;
# with ReturnToService=2 the node may come back by itself once its slurmd
# registers again.
i=0
until scontrol update NodeName=localhost State=RESUME 2>/dev/null ||
    sinfo -h -N -o %t | grep -qE '^(idle|mix|alloc)$'; do
	i=$((i + 1)); [ $i -lt 120 ] || fail "node resume: $(sinfo -N)"; sleep 0.5
done
# Slurm holds a requeued batch job back two minutes (its BeginTime):
# made eligible now, to keep the test short.
scontrol update JobId="$array" StartTime=now || fail "StartTime=now"
wait_jobs
expect_eq "the task's restarts" "$(cat "$T/restarts")" "Restarts=1"
expect_eq "slice 0 started twice in its log" "$(grep -c '^assay slurm: slice 0000 on ' "$WK/logs/verify-${array}_0.out")" 2
[ -f "$WK/results/slice-0000.jsonl.done" ] || fail "slice 0 not completed after the requeue"
facts_ok "after the requeue"
echo "ok: a task on a node that went down was requeued and completed"

# --- a task killed mid-way --------------------------------------------------
# Slice 2 is run again and its task cancelled (scancel: SIGTERM) after its
# third run; it leaves no results file, temporary file or marker, the
# merge runs after it and names slice 2, and the next submission runs
# slice 2 only.
redo 2
out=$("$ASSAY" --db "$DB" slurm --jobs 1 --timeout 60 "$WK") || fail "re-submit: $out"
case $out in
*" over 1 of 4 slices (2) "*) echo "ok: only slice 2 submitted" ;;
*) fail "re-submit after a loss: $out" ;;
esac
array=${out#submitted array job }; array=${array%% *}
merge2=$(merge_of "$out")
i=0
until grep -q '^\[3/' "$WK/logs/verify-${array}_2.out" 2>/dev/null; do
	i=$((i + 1)); [ $i -lt 600 ] || fail "slice 2 never ran: $(squeue)"; sleep 0.5
done
scancel "$array"
wait_jobs
grep -q "stopped by signal 15" "$WK/logs/verify-${array}_2.out" || fail "the task was not stopped: $(tail -n 3 "$WK/logs/verify-${array}_2.out")"
expect_eq "the merge after a cancelled task" "$(jq -c '[.merged_slices, .missing]' "$WK/logs/merge-$merge2.out")" "[3,[2]]"
expect_eq "left by the cancelled task" "$(ls "$WK/results" | grep -c 'slice-0002')" 0
out=$("$ASSAY" --db "$DB" slurm --jobs 2 --timeout 60 "$WK") || fail "re-submit after the kill: $out"
case $out in
*" over 1 of 4 slices (2) "*) echo "ok: only the killed slice submitted" ;;
*) fail "re-submit after the kill: $out" ;;
esac
wait_jobs
[ -f "$WK/results/slice-0002.jsonl.done" ] || fail "slice 2 not redone"
facts_ok "after the re-run"
echo "ok: the same verdicts after the re-run"
stop_slurm
