# 034: undo and redo act on the reviewer's own decisions (issue 10, item
# 13): `--reviewer alice undo` never takes back bob's label; a step of
# alice's that bob has decided over is refused, not silently clobbered;
# --any undoes the newest step of anyone.
. "$(dirname "$0")/lib.sh"

for i in 1 2 3; do
	printf '{"task": {"id": "local/u", "domain": "chip", "env": "iverilog"}, "candidate": {"id": "c-%s", "origin": "m", "code": "module TopModule; endmodule // %s\\n"}}\n' $i $i
done > "$T/rows.jsonl"
"$ASSAY" --db "$DB" import "$T/rows.jsonl" >/dev/null || fail "import"
as() { who=$1; shift; "$ASSAY" --db "$DB" --reviewer "$who" "$@"; }
cat_of() { "$ASSAY" --db "$DB" list --json --where "id=$1" | sed 's/.*"category": *"\{0,1\}\([a-z]*\)"\{0,1\},.*/\1/'; }

as alice label c-1 compile >/dev/null || fail "alice labels"
as bob label c-2 functional >/dev/null || fail "bob labels"
as alice undo > "$T/out" || fail "alice undo"
grep -q "undid label compile of c-1" "$T/out" || fail "alice's undo: $(cat "$T/out")"
expect_eq "bob's label stays" "$(cat_of c-2)" functional
expect_eq "alice's label is gone" "$(cat_of c-1)" null
as alice undo > "$T/out" || fail "alice undo again"
grep -q "nothing to undo by alice" "$T/out" || fail "alice has nothing left: $(cat "$T/out")"
expect_eq "bob's label still stays" "$(cat_of c-2)" functional
as alice redo > "$T/out" || fail "alice redo"
expect_eq "alice's redo" "$(cat_of c-1)" compile

# Decided over by someone else: refused, both labels kept.
as alice review c-3 flag >/dev/null || fail "alice flags"
as bob review c-3 accept >/dev/null 2>&1 || fail "bob accepts"
as alice undo > "$T/out" 2>"$T/err"
expect_eq "undoing a step someone decided over" $? 2
grep -q "someone else decided it since" "$T/err" || fail "message: $(cat "$T/err")"
"$ASSAY" --db "$DB" list --json --where "id=c-3" | grep -q '"status": *"accepted"' || fail "bob's review was taken"
# --any: the newest of anyone's, journalled as alice's act.
as alice undo --any > "$T/out" || fail "undo --any"
grep -q "undid review accepted of c-3" "$T/out" || fail "--any: $(cat "$T/out")"
"$ASSAY" --db "$DB" list --json --where "id=c-3" | grep -q '"status": *"flagged"' || fail "--any did not restore alice's flag"
"$ASSAY" --db "$DB" undo --bogus >/dev/null 2>&1
expect_eq "undo with a bad option" $? 2
echo "ok: undo and redo are the reviewer's own"
