# 033: show and list never drive the terminal (issue 10, item 15).
# Escape sequences in candidate code, origins, notes and toolchain logs
# (window title, OSC 52 clipboard, hidden text, C1 CSI) are shown as
# visible escapes and said so; a NUL in a log does not cut show; show
# --json keeps a log that is not UTF-8 and flags the replaced bytes.
. "$(dirname "$0")/lib.sh"
command -v iverilog >/dev/null || skip "no iverilog"

ESC=$(printf '\033')
# The candidate prints a title sequence, a NUL, an invalid byte and
# OSC 52 from inside the simulation; its code holds hidden text.
cat > "$T/rows.jsonl" <<'ROWS'
{"task": {"id": "local/esc", "domain": "chip", "env": "iverilog", "env_params": {"top": "tb"}, "files": {"tb.sv": "module tb; TopModule dut(); initial #1 $finish; endmodule\n"}}, "candidate": {"id": "c-esc", "origin": "m", "code": "module TopModule;\n// \u001b[8mhidden\u001b[0m\ninitial begin $write(\"A%cB\\n\", 8'd0); $write(\"%c]0;pwned%c\\n\", 8'd27, 8'd7); $write(\"%c\\n\", 8'hff); $write(\"%c]52;c;ZXZpbA==%c\\n\", 8'd27, 8'd7); end\nendmodule\n"}, "notes": [{"text": "see \u009b2J here"}]}
ROWS
"$ASSAY" --db "$DB" import "$T/rows.jsonl" >/dev/null || fail "import"
# The importer refuses an origin with control characters (FILE:LINE);
# one planted past it (an older database, a hand edit) is still shown
# escaped below.
sed 's/"origin": "m"/"origin": "m\\u001b]0;owned\\u0007"/; s/c-esc/c-esc2/' "$T/rows.jsonl" > "$T/bad.jsonl"
"$ASSAY" --db "$DB" import "$T/bad.jsonl" >/dev/null 2>"$T/err" && fail "an origin with ESC was imported"
grep -q 'bad.jsonl:1: .*origin' "$T/err" || fail "no FILE:LINE for the origin: $(cat "$T/err")"
command -v sqlite3 >/dev/null || skip "no sqlite3 to plant an origin"
sqlite3 "$DB" "UPDATE candidate SET origin = 'm' || char(27) || ']0;owned' || char(7) WHERE id = 'c-esc';
    UPDATE queue SET origin = 'm' || char(27) || ']0;owned' || char(7) WHERE id = 'c-esc';" || fail "sqlite3"
"$ASSAY" --db "$DB" verify c-esc >/dev/null 2>&1
"$ASSAY" --db "$DB" show --json c-esc > "$T/show.json" || fail "show --json"
grep -q '"runs": *\[{' "$T/show.json" || skip "no run (sandbox unavailable?)"

"$ASSAY" --db "$DB" show c-esc > "$T/show.txt" 2>"$T/err" || fail "show"
grep -q "$ESC" "$T/show.txt" && fail "show printed a raw ESC"
grep -q "$(printf '\302\233')" "$T/show.txt" && fail "show printed a raw C1 CSI"
grep -qF '\x1b]0;pwned\x07' "$T/show.txt" || fail "the title sequence is not shown escaped"
grep -qF '\x1b]52;c;ZXZpbA==\x07' "$T/show.txt" || fail "OSC 52 is not shown escaped"
grep -qF '\x1b[8mhidden\x1b[0m' "$T/show.txt" || fail "hidden text in the code"
grep -qF 'A\x00B' "$T/show.txt" || fail "a NUL cut the log: $(grep -a -A3 '^log:' "$T/show.txt")"
grep -qF '\xff' "$T/show.txt" || fail "the invalid byte"
grep -qF 'see \u009b2J here' "$T/show.txt" || fail "the note's C1 control"
grep -q "shown escaped" "$T/err" || fail "show does not say it escaped: $(cat "$T/err")"
echo "ok: show escapes title, clipboard, hidden text, C1, NUL and invalid UTF-8"

"$ASSAY" --db "$DB" list > "$T/list.txt" 2>"$T/err" || fail "list"
grep -q "$ESC" "$T/list.txt" && fail "list printed a raw ESC"
grep -qF 'm\x1b]0;owned\x07' "$T/list.txt" || fail "list origin: $(cat "$T/list.txt")"
grep -q "shown escaped" "$T/err" || fail "list does not say it escaped"
echo "ok: list escapes the origin"

# JSON: complete, valid UTF-8, the replaced bytes counted.
grep -q '"log": *"' "$T/show.json" || fail "show --json dropped the log"
grep -q '"log_replaced": *2' "$T/show.json" || fail "no log_replaced flag (NUL and 0xff): $(grep -o '"log[^"]*": *[^,]*' "$T/show.json")"
grep -q "$ESC" "$T/show.json" && fail "raw ESC in JSON"
if command -v python3 >/dev/null; then
	python3 -c 'import json,sys; o=json.load(open(sys.argv[1])); assert "\ufffd" in o["runs"][0]["log"], o["runs"][0]["log"]; assert "pwned" in o["runs"][0]["log"]' "$T/show.json" || fail "the JSON log"
fi
echo "ok: show --json keeps a log that is not UTF-8"

# An origin that is not UTF-8 (planted past the importer) keeps its row
# in list --json.
if command -v sqlite3 >/dev/null; then
	sqlite3 "$DB" "UPDATE candidate SET origin = CAST(X'6dff' AS TEXT) WHERE id = 'c-esc';
	    UPDATE queue SET origin = CAST(X'6dff' AS TEXT) WHERE id = 'c-esc';" || fail "sqlite3"
	expect_eq "list --json rows with a non-UTF-8 origin" "$(count '')" 1
	"$ASSAY" --db "$DB" list --json | grep -q '"origin": *"m\\ufffd"' ||
	    "$ASSAY" --db "$DB" list --json | grep -q "\"origin\": *\"m$(printf '\357\277\275')\"" ||
	    fail "origin: $("$ASSAY" --db "$DB" list --json)"
fi
