# 200: splits by a stable hash of the task id (issue 14 item 4).  Two
# databases built in different orders give every task the same split;
# a split set by hand stays through a new assignment and reaches
# export's meta; the split= filter lists a split's candidates.
. "$(dirname "$0")/lib.sh"
need_data
A=$T/a.db B=$T/b.db
"$ASSAY" --db "$A" import "$DATA/verilog-eval-v2" >/dev/null 2>&1 || fail "import a1"
"$ASSAY" --db "$A" import "$DATA/rtlfixer/verilogeval-syntax.jsonl" >/dev/null 2>&1 ||
    fail "import a2"
"$ASSAY" --db "$B" import "$DATA/rtlfixer/verilogeval-syntax.jsonl" >/dev/null 2>&1 ||
    fail "import b1"
"$ASSAY" --db "$B" import "$DATA/verilog-eval-v2" >/dev/null 2>&1 || fail "import b2"
R=train=0.8,valid=0.1,test=0.1
"$ASSAY" --db "$A" split --ratios "$R" >"$T/a.counts" || fail "split a"
"$ASSAY" --db "$B" split --ratios "$R" >"$T/b.counts" || fail "split b"
cmp "$T/a.counts" "$T/b.counts" || fail "counts differ: $(cat "$T/a.counts" "$T/b.counts")"
for s in train valid test; do
	grep -q "^$s  *[1-9][0-9]* tasks$" "$T/a.counts" || fail "no $s tasks: $(cat "$T/a.counts")"
	"$ASSAY" --db "$A" list --json --where "split=$s" |
	    sed 's/.*"task":"\([^"]*\)".*/\1/' | sort -u >"$T/a.$s"
	"$ASSAY" --db "$B" list --json --where "split=$s" |
	    sed 's/.*"task":"\([^"]*\)".*/\1/' | sort -u >"$T/b.$s"
	cmp "$T/a.$s" "$T/b.$s" || fail "split $s differs between the databases"
done
# No task in two splits (all samples of a task land in one).
expect_eq "tasks in two splits" "$(sort "$T/a.train" "$T/a.valid" "$T/a.test" |
    uniq -d | wc -l | tr -d ' ')" 0
cat "$T/a.counts"
echo "ok: the same splits from two import orders"

# By hand: a train task moved to test stays there.
task=$(head -n 1 "$T/a.train")
"$ASSAY" --db "$A" split --set test "$task" >/dev/null || fail "split --set"
"$ASSAY" --db "$A" split --ratios "$R" >/dev/null || fail "split again"
expect_eq "hand split kept" "$("$ASSAY" --db "$A" list --json \
    --where "task=$task split=test" | wc -l | tr -d ' ')" \
    "$("$ASSAY" --db "$A" list --json --where "task=$task" | wc -l | tr -d ' ')"
"$ASSAY" --db "$A" split | grep -q "^test .*(1 by hand)$" || fail "hand count"
id=$("$ASSAY" --db "$A" list --where "task=$task" | awk 'NR == 2 {print $1}')
"$ASSAY" --db "$A" review "$id" accept >/dev/null 2>&1
export_all "$A" --split "$R" --where "id=$id" \
    2>/dev/null | grep -q '"split":"test"' || fail "meta.split"
"$ASSAY" --db "$A" split --clear "$task" >/dev/null || fail "split --clear"
"$ASSAY" --db "$A" split --ratios "$R" >/dev/null
"$ASSAY" --db "$A" list --json --where "task=$task split=train" | grep -q . ||
    fail "cleared split not back to the hash"
echo "ok: a split by hand"

"$ASSAY" --db "$A" split --ratios train=0.9,test=0.2 >/dev/null 2>&1
expect_eq "shares not adding up" $? 2
"$ASSAY" --db "$A" split --set test no/such/task >/dev/null 2>&1
expect_eq "unknown task" $? 2
