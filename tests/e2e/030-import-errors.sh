# 030: bad input gets a clear FILE:LINE error, exit 2, and loses nothing;
# --keep-going skips and lists bad lines; re-import adds nothing (issue 2).
. "$(dirname "$0")/lib.sh"
need_data

head -n 3 "$DATA/rtlfixer/verilogeval-syntax.jsonl" > "$T/bad.jsonl"
echo '{"task_id": "broken", "solution": ' >> "$T/bad.jsonl"
sed -n 4,5p "$DATA/rtlfixer/verilogeval-syntax.jsonl" >> "$T/bad.jsonl"

"$ASSAY" --db "$DB" import --format rtlfixer "$T/bad.jsonl" 2>"$T/err"
expect_eq "malformed exit" $? 2
grep -q "bad.jsonl:4: invalid JSON" "$T/err" || fail "no FILE:LINE in: $(cat "$T/err")"
echo "ok: $(head -n 1 "$T/err")"
expect_eq "nothing of the failed file" "$(count '')" 0

"$ASSAY" --db "$DB" import --keep-going "$T/bad.jsonl" 2>"$T/err" || fail "keep-going"
grep -q "bad.jsonl:4: .*(skipped)" "$T/err" || fail "skipped line not listed"
expect_eq "keep-going imports the good lines" "$(count '')" 5

"$ASSAY" --db "$DB" import "$DATA/rtlfixer/verilogeval-syntax.jsonl" >"$T/out" || fail "import"
expect_eq "all rows" "$(count '')" 174
"$ASSAY" --db "$DB" import "$DATA/rtlfixer/verilogeval-syntax.jsonl" >"$T/out" || fail "re-import"
grep -q "0 new candidates (174 already there)" "$T/out" || fail "re-import added: $(cat "$T/out")"
expect_eq "re-import adds nothing" "$(count '')" 174

: > "$T/empty.jsonl"
"$ASSAY" --db "$DB" import "$T/empty.jsonl" 2>"$T/err" || fail "empty file"
grep -q "empty file" "$T/err" || fail "no word about the empty file"

printf '{"task_id": "x", "solution": "\377\376"}\n' > "$T/utf.jsonl"
"$ASSAY" --db "$DB" import --format rtlfixer "$T/utf.jsonl" 2>"$T/err"
expect_eq "invalid UTF-8 exit" $? 2
grep -q "utf.jsonl:1:" "$T/err" || fail "invalid UTF-8 not located: $(cat "$T/err")"

"$ASSAY" --db "$DB" import --format nonsense "$T/bad.jsonl" 2>/dev/null
expect_eq "unknown format exit" $? 2
"$ASSAY" --db "$DB" label nosuchid compile 2>/dev/null
expect_eq "unknown id exit" $? 2
"$ASSAY" --db "$DB" list --where "colour=red" 2>"$T/err"
expect_eq "bad filter exit" $? 2
grep -q "unknown filter key 'colour'" "$T/err" || fail "bad filter message"

# Typos get an error, not a quiet empty answer.
"$ASSAY" --db "$T/typo.db" list >/dev/null 2>"$T/err"
expect_eq "missing database exit" $? 2
[ ! -e "$T/typo.db" ] || fail "list created a database"
grep -q "no database at" "$T/err" || fail "missing database message"
"$ASSAY" --db "$DB" list --where "verdict=PASS" >/dev/null 2>"$T/err"
expect_eq "unknown verdict exit" $? 2
grep -q "unknown verdict 'PASS'" "$T/err" || fail "unknown verdict message"
"$ASSAY" --db "$DB" verify --timeout 0 >/dev/null 2>&1
expect_eq "bad --timeout exit" $? 2
"$ASSAY" --db "$DB" verify --jobs x >/dev/null 2>&1
expect_eq "bad --jobs exit" $? 2

# A database the user may not write still opens for reading (root can
# write anything, so this runs as another uid when the test is root).
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	mkdir -p "$T/ro" && cp "$DB" "$T/ro/r.db" && chmod 755 "$T" && chmod 777 "$T/ro" && chmod 444 "$T/ro/r.db"
	n=$(setpriv --reuid=65534 --regid=65534 --clear-groups "$ASSAY" --db "$T/ro/r.db" list --json | wc -l)
	expect_eq "read-only list" "$n" 174
	setpriv --reuid=65534 --regid=65534 --clear-groups "$ASSAY" --db "$T/ro/r.db" \
	    label "$("$ASSAY" --db "$DB" list | awk 'NR==2 {print $1}')" compile 2>"$T/err"
	expect_eq "read-only label exit" $? 2
	grep -q "readonly" "$T/err" || fail "read-only label message: $(cat "$T/err")"
fi

# A file whose first row has "task_id" is read as VerilogEval v1; where
# ExampleEval.jsonl is not beside it, the error says what was looked for
# and why (it said only "ExampleEval.jsonl: No such file or directory").
mkdir -p "$T/v1x"
printf '{"task_id":"zz"}\n' >"$T/v1x/rows.jsonl"
"$ASSAY" --db "$DB" import "$T/v1x/rows.jsonl" 2>"$T/v1x.err" >/dev/null
expect_eq "a stray v1 row: exit" $? 2
grep -q "ExampleEval.jsonl: not found: read as VerilogEval v1 (rows with \"task_id\")" "$T/v1x.err" ||
    fail "a stray v1 row: $(cat "$T/v1x.err")"
echo "ok: a stray v1 row says what was looked for"
