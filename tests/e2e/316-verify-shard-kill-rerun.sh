# 316: a `verify --shard` killed with -9 and run again at once completes
# its shard: the dead verify's claims (this host, its pid gone) are taken
# over without waiting for them to lapse, so the results file has every
# candidate of the shard and the exit status is 0.  A verify that is
# alive (stopped here, so that it holds its claims) keeps them: a second
# verify of those candidates leaves them to it, says how many in --json
# (left_to_another) and exits 4.
. "$(dirname "$0")/lib.sh"
need_data
command -v iverilog >/dev/null || skip "no iverilog"
command -v sqlite3 >/dev/null || skip "no sqlite3 program to read claims"

"$ASSAY" --db "$DB" import "$DATA/rtlfixer/verilogeval-syntax.jsonl" >/dev/null || fail "import"
"$ASSAY" --db "$DB" verify --shard 0/4 --jobs 2 --quiet --results "$T/s.jsonl" >/dev/null 2>&1 &
k=$!
i=0
while [ "$(sqlite3 "$DB" 'SELECT count(*) FROM run' 2>/dev/null || echo 0)" -lt 8 ] && [ $i -lt 600 ]; do
	sleep 0.1; i=$((i + 1))
done
kill -9 $k 2>/dev/null; wait $k 2>/dev/null
held=$(sqlite3 "$DB" 'SELECT count(*) FROM lease')
[ "$held" -gt 0 ] || echo "note: the killed verify held no claim when it died"
# At once: the default 60 s claim has not lapsed.
"$ASSAY" --db "$DB" verify --shard 0/4 --jobs 2 --quiet --json --results "$T/s.jsonl" >"$T/r.json" 2>"$T/r.err"
rc=$?
[ $rc = 0 ] || fail "rerun after kill -9 exits $rc: $(cat "$T/r.err" "$T/r.json")"
grep -q "left to another verify" "$T/r.err" && fail "a dead verify's claims still held: $(cat "$T/r.err")"
expect_eq "left_to_another after the rerun" "$(jq .left_to_another "$T/r.json")" 0
# Every candidate of the shard has a current run: a third verify of it
# runs nothing, and the results file has one line per candidate.
"$ASSAY" --db "$DB" verify --shard 0/4 --quiet --json >"$T/c.json" 2>"$T/c.err" || fail "check verify: $(cat "$T/c.err")"
expect_eq "runs the check verify made" "$(jq .verified "$T/c.json")" 0
shard=$(jq .unchanged "$T/c.json")
[ "$shard" -gt 0 ] || fail "empty shard"
expect_eq "lines of the rerun's results file" "$(wc -l <"$T/s.jsonl")" "$shard"
expect_eq "claims left behind" "$(sqlite3 "$DB" 'SELECT count(*) FROM lease')" 0

# A live verify keeps its claims: stopped (alive) while it holds some,
# another verify of the same candidates leaves them to it.
"$ASSAY" --db "$T/l.db" import "$DATA/rtlfixer/verilogeval-syntax.jsonl" >/dev/null || fail "import l"
"$ASSAY" --db "$T/l.db" verify --jobs 2 --quiet >/dev/null 2>&1 &
a=$!
i=0
while [ "$(sqlite3 "$T/l.db" 'SELECT count(*) FROM lease' 2>/dev/null || echo 0)" -lt 1 ] && [ $i -lt 600 ]; do
	sleep 0.05; i=$((i + 1))
done
kill -STOP $a
ids=$(sqlite3 "$T/l.db" 'SELECT cand_id FROM lease')
n=$(echo "$ids" | grep -c .)
[ "$n" -gt 0 ] || { kill -CONT $a; fail "the live verify held no claim"; }
# shellcheck disable=SC2086
"$ASSAY" --db "$T/l.db" verify --quiet --json $ids >"$T/b.json" 2>"$T/b.err"
rb=$?
kill -CONT $a
wait $a || fail "the live verify failed"
expect_eq "exit status of a verify that left candidates to a live one" "$rb" 4
expect_eq "left_to_another" "$(jq .left_to_another "$T/b.json")" "$n"
grep -q "left to another verify" "$T/b.err" || fail "no word of the candidates left: $(cat "$T/b.err")"
echo "ok: a killed verify's claims are taken over at once; a live one's stand"
