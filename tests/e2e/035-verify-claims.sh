# 035: two verifies on one database do not redo each other's work (issue
# 10, item 14): each candidate is claimed before it runs, so two
# concurrent `assay verify` over the RTLFixer syntax set make exactly one
# run per candidate; the claims of a verify killed with -9 lapse, and a
# later verify finishes its candidates, again one run each.
. "$(dirname "$0")/lib.sh"
need_data
command -v iverilog >/dev/null || skip "no iverilog"
command -v sqlite3 >/dev/null || skip "no sqlite3 program to count runs"
"$ASSAY" verify --help >/dev/null || fail "verify --help"

"$ASSAY" --db "$DB" import "$DATA/rtlfixer/verilogeval-syntax.jsonl" >/dev/null || fail "import"
n=$(count '')
expect_eq "candidates" "$n" 174
"$ASSAY" --db "$DB" verify --jobs 2 --quiet >"$T/a.out" 2>"$T/a.err" &
a=$!
"$ASSAY" --db "$DB" verify --jobs 2 --quiet >"$T/b.out" 2>"$T/b.err" &
b=$!
wait $a; ra=$?
wait $b; rb=$?
# 4: a verify that left candidates to the other (their runs are the
# other's); together they made one run of each (below).
case "$ra $rb" in
"0 0"|"0 4"|"4 0"|"4 4") ;;
*) fail "verify exits $ra $rb: $(cat "$T/a.err" "$T/b.err")" ;;
esac
expect_eq "runs of two concurrent verifies" "$(sqlite3 "$DB" 'SELECT count(*) FROM run')" "$n"
expect_eq "candidates with more than one run" \
    "$(sqlite3 "$DB" 'SELECT count(*) FROM (SELECT cand_id FROM run GROUP BY cand_id HAVING count(*) > 1)')" 0
expect_eq "claims left behind" "$(sqlite3 "$DB" 'SELECT count(*) FROM lease')" 0
cat "$T/a.err" "$T/b.err" | grep -q "left to another verify" || echo "note: the two verifies did not overlap"

# kill -9: its claims lapse (a 2 s claim here), the next verify runs the
# rest, and no candidate runs twice.
"$ASSAY" --db "$T/k.db" import "$DATA/rtlfixer/verilogeval-syntax.jsonl" >/dev/null || fail "import k"
ASSAY_CLAIM_TTL_S=2 "$ASSAY" --db "$T/k.db" verify --jobs 2 --quiet >/dev/null 2>&1 &
k=$!
i=0
while [ "$(sqlite3 "$T/k.db" 'SELECT count(*) FROM run' 2>/dev/null || echo 0)" -lt 10 ] && [ $i -lt 600 ]; do
	sleep 0.1; i=$((i + 1))
done
kill -9 $k 2>/dev/null; wait $k 2>/dev/null
claimed=$(sqlite3 "$T/k.db" 'SELECT count(*) FROM lease')
[ "$claimed" -gt 0 ] || echo "note: the killed verify held no claim when it died"
sleep 3
"$ASSAY" --db "$T/k.db" verify --jobs 2 --quiet >/dev/null 2>"$T/k.err" || fail "verify after a kill: $(cat "$T/k.err")"
grep -q "left to another verify" "$T/k.err" && fail "lapsed claims still held: $(cat "$T/k.err")"
expect_eq "runs after a killed verify and a second one" "$(sqlite3 "$T/k.db" 'SELECT count(*) FROM run')" "$n"
expect_eq "candidates with more than one run after the kill" \
    "$(sqlite3 "$T/k.db" 'SELECT count(*) FROM (SELECT cand_id FROM run GROUP BY cand_id HAVING count(*) > 1)')" 0
echo "ok: claims keep two verifies from redoing each other's work"
