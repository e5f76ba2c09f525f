# 285: every command reads its arguments by the spec in its table entry
# (src/app/command.h), so an unknown option, a missing value, a value
# given to a flag or an extra argument is a usage error, exit 2, for
# every command, before it acts (issue 9: `assay undo --dry-run` once
# undid, `assay envs --json` ignored the option).  `assay help` and
# `assay help CMD` are written from the same table.
. "$(dirname "$0")/lib.sh"

for i in 1 2; do
	printf '{"task": {"id": "local/s", "domain": "chip", "env": "iverilog"}, "candidate": {"id": "c-%s", "origin": "m", "code": "module TopModule; endmodule // %s\\n"}}\n' $i $i
done > "$T/rows.jsonl"
"$ASSAY" --db "$DB" import "$T/rows.jsonl" >/dev/null || fail "import"
"$ASSAY" --db "$DB" label c-1 compile --note "options after the ids" \
    >/dev/null || fail "label with an option after its arguments"
cat_of() { "$ASSAY" --db "$DB" list --json --where "id=$1" | sed 's/.*"category": *"\{0,1\}\([a-z]*\)"\{0,1\},.*/\1/'; }
expect_eq "labelled" "$(cat_of c-1)" compile

# usage_error WHAT WANT-IN-STDERR CMD...: exit 2, the reason and the usage.
usage_error() {
	what=$1 want=$2
	shift 2
	"$ASSAY" --db "$DB" "$@" >"$T/out" 2>"$T/err"
	expect_eq "$what: exit" $? 2
	grep -Fq -- "$want" "$T/err" || fail "$what: no '$want' in: $(cat "$T/err")"
	grep -q "^usage: assay $1" "$T/err" || fail "$what: no usage: $(cat "$T/err")"
	[ -s "$T/out" ] && fail "$what: printed on stdout: $(cat "$T/out")"
	return 0
}

usage_error "undo --dry-run" "unknown option '--dry-run'" undo --dry-run
expect_eq "undo --dry-run undid nothing" "$(cat_of c-1)" compile
usage_error "envs --jsn" "unknown option '--jsn'" envs --jsn
# envs --json now means it: one object with every env the table lists.
"$ASSAY" envs --json > "$T/envs.json" || fail "envs --json"
python3 -c 'import json,sys; o=json.load(open(sys.argv[1])); n=[e["name"] for e in o["envs"]]; assert "iverilog" in n and "x86-asm" in n and len(n) == 8, n; assert all(e["present"] in ("yes","partly","no") for e in o["envs"]); assert "present" in o["sandbox"] and "present" in o["venv"]' "$T/envs.json" ||
    fail "envs --json: $(cat "$T/envs.json")"
expect_eq "envs --json table rows" "$("$ASSAY" envs | awk 'NR>1 && /^[a-z]/ && $0 !~ /^(sandbox|venv) / {n++} /^$/ {exit} END {print n}')" 8
usage_error "envs with an argument" "unexpected argument 'x'" envs x
usage_error "stats with an argument" "unexpected argument 'x'" stats x
usage_error "undo with an argument" "unexpected argument 'c-1'" undo c-1
usage_error "show with two ids" "unexpected argument 'c-2'" show c-1 c-2
usage_error "show without an id" "missing argument" show
usage_error "label without a category" "missing argument" label c-1
usage_error "a value missing" "--where wants a value" list --where
usage_error "a value given to a flag" "--json takes no value" list --json=yes
usage_error "an unknown short option" "unknown option '-z'" verify -z
usage_error "a prefix is not an option" "unknown option '--jso'" list --jso
expect_eq "no decision was made by any of them" "$(cat_of c-1)" compile

# Every command in the table, by the list `assay help` prints.
"$ASSAY" help >"$T/help" || fail "assay help"
cmds=$(sed -n 's/^ *assay \[--db FILE\] \([a-z]*\).*/\1/p' "$T/help")
n=0
for c in $cmds; do
	usage_error "$c --no-such-option" "unknown option '--no-such-option'" \
	    "$c" --no-such-option
	n=$((n + 1))
done
[ "$n" -ge 19 ] || fail "only $n commands in assay help: $(cat "$T/help")"
echo "ok: all $n commands refuse an unknown option"

# Option forms the spec reads: --name=value, a short flag, "--" before an
# argument that starts with a dash.
"$ASSAY" --db "$DB" list --where=id=c-2 --json >"$T/out" || fail "--where="
expect_eq "--where=VALUE" "$(wc -l <"$T/out" | tr -d ' ')" 1
"$ASSAY" --db "$DB" show -- -x >/dev/null 2>"$T/err"
expect_eq "show -- -x (a positional)" $? 2
grep -q "is not a candidate id" "$T/err" || fail "-x after --: $(cat "$T/err")"

# A filter's term among a label's SUB words is --where's, typed without
# its quotes: refused, nothing labelled (it became the subcategory).
before=$(sqlite3 "$DB" "SELECT count(*) FROM event")
"$ASSAY" --db "$DB" label compile --where id=c-2 kind=direct >/dev/null 2>"$T/err"
expect_eq "a filter's term as SUB" $? 2
grep -q "'kind=direct' is a filter's term, not a subcategory" "$T/err" ||
	fail "SUB filter term: $(cat "$T/err")"
expect_eq "nothing labelled" "$(sqlite3 "$DB" "SELECT count(*) FROM event")" "$before"
"$ASSAY" --db "$DB" label compile --where "id=c-2 kind=direct" >/dev/null 2>"$T/err" ||
	fail "the quoted filter: $(cat "$T/err")"

# Help from the table: assay help CMD and CMD --help are the same text.
"$ASSAY" help label >"$T/h1" || fail "assay help label"
"$ASSAY" label --help >"$T/h2" || fail "assay label --help"
cmp -s "$T/h1" "$T/h2" || fail "help label differs from label --help"
head -n 1 "$T/h1" | grep -q "^usage: assay label ID CATEGORY" ||
	fail "help label: $(cat "$T/h1")"
grep -q "five failure categories" "$T/h1" || fail "help text: $(cat "$T/h1")"
"$ASSAY" help no-such-command >/dev/null 2>&1
expect_eq "help for no command" $? 2
"$ASSAY" help label extra >/dev/null 2>&1
expect_eq "help with two arguments" $? 2
echo "ok: strict arguments for every command"
