# 200: shards by task, verify --input, completion markers, merge (issue
# 13 items 1-3).  The RTLFixer syntax set is exported as 4 raw slices;
# each task lies in exactly one slice, the slices hold every candidate
# once, each slice is verified in a scratch database of its own (the
# main database is not opened) and gets its completion marker, and the
# merged database has the verdict counts of 010's plain verify (golden
# values from the public harness, see 010): 144 compile failures (the
# "sorry" counts as compile since issue 11), 24 mismatches, 6 passes;
# since ADR 0058 rtlfixer/norgate, which drives an input, fails before
# the simulation: 145 and 23.
# A verify stopped mid-way (SIGTERM) leaves nothing behind, and a
# changed slice is refused.
. "$(dirname "$0")/lib.sh"
need_data
command -v iverilog >/dev/null || skip "iverilog not installed"

"$ASSAY" --db "$DB" import "$DATA/rtlfixer/verilogeval-syntax.jsonl" >/dev/null || fail "import"
"$ASSAY" --db "$DB" export --format raw --shards 4 -o "$T/sl" >"$T/export.out" || fail "export --shards"
expect_eq "slice files" "$(ls "$T/sl" | tr '\n' ' ')" \
    "manifest.json slice-0000.jsonl slice-0001.jsonl slice-0002.jsonl slice-0003.jsonl "
expect_eq "manifest candidates" "$(jq '.candidates' "$T/sl/manifest.json")" 174
expect_eq "manifest sum of slices" "$(jq '[.slices[].candidates] | add' "$T/sl/manifest.json")" 174
expect_eq "manifest tasks" "$(jq '[.slices[].tasks] | add' "$T/sl/manifest.json")" 88
for i in 0 1 2 3; do
	f=$T/sl/slice-000$i.jsonl
	expect_eq "slice $i checksum" "$(sha256sum "$f" | cut -d' ' -f1)" \
	    "$(jq -r ".slices[$i].sha256" "$T/sl/manifest.json")"
	jq -r '.task | if type == "object" then .id else . end' "$f" | sort -u >> "$T/tasks"
done
expect_eq "each task in one slice" "$(sort "$T/tasks" | uniq -d | wc -l)" 0
expect_eq "every task in a slice" "$(wc -l < "$T/tasks")" 88

# The main database is not needed on the node: verify reads the slice.
mkdir "$T/out" "$T/tmp"
chmod 711 "$T" "$T/tmp"		# the sandbox's uid reaches its work dirs
# progress N FILE: wait until the verify writing FILE began its N-th run.
progress() {
	i=0
	until grep -q "^\[$1/" "$T/$2"; do
		i=$((i + 1)); [ $i -lt 600 ] || fail "no progress: $(cat "$T/$2")"; sleep 0.1
	done
}
# A task killed mid-way (SIGTERM: Slurm's scancel, its time limit)
# leaves no results file, temporary file, marker or scratch database.
TMPDIR=$T/tmp "$ASSAY" verify --input "$T/sl/slice-0000.jsonl" --results "$T/out/r0.jsonl" \
    --jobs 1 --timeout 60 2>"$T/killed.err" &
pid=$!
progress 3 killed.err
kill -TERM $pid
wait $pid
expect_eq "exit of a stopped verify" $? 143
grep -q "stopped by signal 15" "$T/killed.err" || fail "stop: $(tail -n 2 "$T/killed.err")"
expect_eq "left behind by the stopped verify" "$(ls "$T/out" "$T/tmp" | grep -v ':$' | grep -c .)" 0
# A task killed with -9 leaves its scratch database; the next verify
# --input on the node removes it, but not that of a verify still alive
# (stopped here), whose directory is locked.
TMPDIR=$T/tmp "$ASSAY" verify --input "$T/sl/slice-0000.jsonl" --results "$T/out/k0.jsonl" \
    --jobs 1 --timeout 60 2>"$T/k9.err" &
k9=$!
progress 2 k9.err
kill -9 $k9; wait $k9 2>/dev/null
slices() { ls -d "$T"/tmp/assay-slice.* 2>/dev/null; }
dead=$(slices)
expect_eq "scratch directories a kill -9 left" "$(slices | grep -c .)" 1
TMPDIR=$T/tmp "$ASSAY" verify --input "$T/sl/slice-0001.jsonl" --results "$T/out/live.jsonl" \
    --jobs 1 --timeout 60 >/dev/null 2>"$T/live.err" &
live=$!
progress 1 live.err
kill -STOP $live
livedir=$(slices)
TMPDIR=$T/tmp "$ASSAY" verify --input "$T/sl/slice-0002.jsonl" --results "$T/out/other.jsonl" \
    --jobs 2 --quiet --timeout 60 >/dev/null 2>"$T/other.err"
ro=$?
[ -d "$livedir" ]; kept=$?
kill -CONT $live
wait $live || fail "the stopped verify: $(tail -n 3 "$T/live.err")"
[ $ro = 0 ] || fail "verify beside a live one: $(cat "$T/other.err")"
[ "$livedir" != "$dead" ] && [ ! -e "$dead" ] || fail "the dead verify's scratch database stays: $(cat "$T/live.err")"
grep -q "removed 1 scratch database that a killed verify --input left in $T/tmp" "$T/live.err" ||
    fail "no word of the sweep: $(cat "$T/live.err")"
expect_eq "a live verify's scratch directory kept (0: yes)" $kept 0
expect_eq "scratch directories at the end" "$(slices | grep -c .)" 0
rm -f "$T"/out/*

for i in 0 1 2 3; do
	"$ASSAY" --db "$T/nowhere.db" verify --input "$T/sl/slice-000$i.jsonl" \
	    --results "$T/out/r$i.jsonl" --jobs 2 --quiet --timeout 60 --json >"$T/v$i.json" || fail "verify slice $i: $(cat "$T/v$i.json")"
	expect_eq "slice $i complete" "$(jq .complete "$T/v$i.json")" true
	[ -f "$T/out/r$i.jsonl.done" ] || fail "no marker for slice $i"
	expect_eq "slice $i runs" "$(wc -l < "$T/out/r$i.jsonl")" "$(jq ".slices[$i].candidates" "$T/sl/manifest.json")"
done
[ ! -e "$T/nowhere.db" ] || fail "verify --input opened --db"

"$ASSAY" --db "$DB" merge --json "$T"/out/r*.jsonl >"$T/merge.json" || fail "merge"
expect_eq "merged" "$(jq -c '[.verified, .refused, .not_stored]' "$T/merge.json")" "[174,0,0]"
SYN="source~verilogeval-syntax"
expect_eq "syntax compile fails" "$(count "$SYN verdict=fail stage=compile")" 145
expect_eq "syntax mismatches" "$(count "$SYN verdict=fail stage=simulate")" 23
expect_eq "syntax passes" "$(count "$SYN verdict=pass")" 6
expect_eq "syntax env-errors" "$(count "$SYN verdict=env-error")" 0
expect_eq "merge again adds nothing" "$("$ASSAY" --db "$DB" merge --json "$T"/out/r*.jsonl | jq -c '[.verified, .unchanged]')" "[0,174]"

# merge --shards finds each slice's results by its marker whatever the
# results file is called (here r0.jsonl ..., not slice-0000.jsonl): the
# marker names the slice by its sha256.  A results file that is a link
# out of the directory is left out and its slice listed as missing.
mkdir "$T/sl/results"
for i in 0 1 2 3; do
	cp "$T/out/r$i.jsonl" "$T/out/r$i.jsonl.done" "$T/out/r$i.jsonl.stats.json" "$T/sl/results/"
done
"$ASSAY" --db "$DB" merge --json --shards "$T/sl" >"$T/ms.json" 2>"$T/ms.err" || fail "merge --shards: $(cat "$T/ms.err")"
expect_eq "merge --shards with other names" "$(jq -c '[.merged_slices, .missing, .unchanged, .stats.runs]' "$T/ms.json")" "[4,[],174,174]"
rm "$T/sl/results/r3.jsonl"
ln -s "$T/out/r3.jsonl" "$T/sl/results/r3.jsonl"
"$ASSAY" --db "$DB" merge --shards "$T/sl" >"$T/ml.out" 2>"$T/ml.err"
expect_eq "merge --shards with a link out: exit" $? 1
grep -q "r3.jsonl: not a regular file inside the shard directory" "$T/ml.err" || fail "the link: $(cat "$T/ml.err")"
grep -q "slices: 3 of 4 merged; missing 1: 3 (no completion marker naming them in" "$T/ml.out" || fail "the link's slice: $(cat "$T/ml.out")"

# A slice that was changed after the export is refused, nothing written.
sed '1s/"lang"/"lang" /' "$T/sl/slice-0001.jsonl" > "$T/changed.jsonl"
cp "$T/changed.jsonl" "$T/sl/slice-0001.jsonl"
"$ASSAY" verify --input "$T/sl/slice-0001.jsonl" --results "$T/out/x.jsonl" --quiet 2>"$T/changed.err"
expect_eq "changed slice exit" $? 2
grep -q "sha256 .* is not the one in .*manifest.json" "$T/changed.err" || fail "changed slice: $(cat "$T/changed.err")"
[ ! -e "$T/out/x.jsonl.done" ] || fail "marker for a changed slice"
