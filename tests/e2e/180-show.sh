# 180: `assay show` prints what `show --json` holds.  The evidence of
# every run that has one, whatever its verdict (a skipped run's
# "skipped: ..." line too), and diagnostics as a compiler prints them:
# "file:line: severity: message", "file: severity: message" without a
# line, "severity: message" without a file, never ":0:".
. "$(dirname "$0")/lib.sh"

# jfield KEY FILE: the first string value of KEY in the JSON in FILE.
jfield() {
	sed -n "s/.*\"$1\": *\"\(\([^\"\\\\]\|\\\\.\)*\)\".*/\1/p" "$2" |
	    head -n 1
}

# A skipped run: the cad env with its OCCT helper made missing.
"$ASSAY" --db "$DB" import examples/3d/plate_hole.jsonl >/dev/null ||
	fail "import"
ASSAY_LIBEXEC=$T/none "$ASSAY" --db "$DB" verify --where "env=cad" \
    >"$T/v" 2>&1 || fail "verify: $(cat "$T/v")"
id=$("$ASSAY" --db "$DB" list --json --where "env=cad origin=reference" |
    sed 's/.*"id": *"\([^"]*\)".*/\1/')
"$ASSAY" --db "$DB" show --json "$id" >"$T/json" || fail "show --json"
"$ASSAY" --db "$DB" show "$id" >"$T/show" || fail "show"
expect_eq "verdict" "$(jfield verdict "$T/json")" skipped
ev=$(jfield evidence "$T/json")
[ -n "$ev" ] || fail "no evidence in show --json: $(cat "$T/json")"
grep -qxF "evidence: $ev" "$T/show" ||
	fail "no 'evidence: $ev' line in show: $(sed -n '/^--- run/,$p' "$T/show")"
grep -q "^suggested category" "$T/show" &&
	fail "a skipped run has no category: $(sed -n '/^--- run/,$p' "$T/show")"
echo "ok: a skipped run's evidence is shown"

# Diagnostics without a line or a file, planted in that run's row: the
# envs make few of the former.
if command -v sqlite3 >/dev/null; then
	sqlite3 "$DB" "UPDATE run SET diagnostics = '[{\"file\":\"a.sv\",
	    \"line\":3,\"col\":0,\"severity\":\"error\",\"message\":\"one\",
	    \"cand_line\":3},{\"file\":\"a.sv\",\"line\":0,\"col\":0,
	    \"severity\":\"warning\",\"message\":\"two\",\"cand_line\":0},
	    {\"file\":\"\",\"line\":0,\"col\":0,\"severity\":\"note\",
	    \"message\":\"three\",\"cand_line\":0}]'" ||
		fail "sqlite3 update"
	"$ASSAY" --db "$DB" show "$id" >"$T/show" || fail "show"
	grep -qxF "  a.sv:3: error: one  <- candidate" "$T/show" ||
		fail "file:line form: $(grep '^  ' "$T/show")"
	grep -qxF "  a.sv: warning: two" "$T/show" ||
		fail "file without a line: $(grep '^  ' "$T/show")"
	grep -qxF "  note: three" "$T/show" ||
		fail "no file: $(grep '^  ' "$T/show")"
	echo "ok: diagnostics with and without a line or a file"
	# --json writes them as a run result line does (src/model/codec.h):
	# a line that points nowhere is 0, not null, and so is the run's
	# evidence line; the run's fields agree with its result line.
	"$ASSAY" --db "$DB" show --json "$id" >"$T/json" || fail "show --json"
	jq -e '.runs[0].diagnostics[1].cand_line == 0 and
	    .runs[0].diagnostics[0].cand_line == 3 and
	    .runs[0].evidence_line == 0' "$T/json" >/dev/null ||
		fail "cand_line/evidence_line: $(jq -c '.runs[0] | del(.log, .command)' "$T/json")"
	ASSAY_LIBEXEC=$T/none "$ASSAY" --db "$T/r.db" import \
	    examples/3d/plate_hole.jsonl >/dev/null || fail "import r.db"
	ASSAY_LIBEXEC=$T/none "$ASSAY" --db "$T/r.db" verify --where \
	    "env=cad origin=reference" --results "$T/r.jsonl" >/dev/null 2>&1
	"$ASSAY" --db "$T/r.db" show --json "$id" >"$T/r.show" || fail "show r.db"
	jq -e -s '.[0] as $r | .[1].runs[0] as $s | [$r.env, $r.verdict,
	    $r.stage, $r.category, $r.subcategory, $r.evidence,
	    $r.evidence_line, $r.metrics, $r.toolchain, $r.inputs] ==
	    [$s.env, $s.verdict, $s.stage, $s.category, $s.subcategory,
	    $s.evidence, $s.evidence_line, $s.metrics, $s.toolchain, $s.inputs]' \
	    "$T/r.jsonl" "$T/r.show" >/dev/null ||
		fail "result line and show --json disagree: $(cat "$T/r.jsonl")"
	echo "ok: show --json writes a run's fields as its result line does"
else
	echo "skipped part: no sqlite3 program to plant diagnostics"
fi

# A real one without a file: the x86-asm linker's undefined symbol, which
# the harness calls from several places, is one diagnostic.
if [ "$(uname -m)" = x86_64 ] && command -v gcc >/dev/null &&
    command -v as >/dev/null; then
	"$ASSAY" --db "$DB" import examples/compiler/sum_i32.jsonl \
	    >/dev/null || fail "import sum_i32"
	# sum without .globl: the linker does not see it.
	cat >"$T/ng.jsonl" <<'EOF'
{"task": "assay-examples/sum_i32", "candidate": {"origin": "not-global", "kind": "optimization", "lang": "asm", "code": "\t.intel_syntax noprefix\n\t.text\nsum:\n\txor\teax, eax\n\tret\n"}}
EOF
	"$ASSAY" --db "$DB" import "$T/ng.jsonl" >"$T/imp" 2>&1 ||
		fail "import: $(cat "$T/imp")"
	id=$("$ASSAY" --db "$DB" list --json --where "origin=not-global" |
	    sed 's/.*"id": *"\([^"]*\)".*/\1/')
	"$ASSAY" --db "$DB" verify "$id" >"$T/v" 2>&1
	"$ASSAY" --db "$DB" show "$id" >"$T/show" || fail "show"
	grep -q "^suggested category: compile/missing-symbol" "$T/show" ||
		fail "not missing-symbol: $(sed -n '/^--- run/,$p' "$T/show")"
	expect_eq "undefined reference diagnostics" \
	    "$(grep -c "^  .*undefined reference" "$T/show")" 1
	grep -qxF "  error: undefined reference to \`sum'" "$T/show" ||
		fail "the diagnostic: $(grep '^  ' "$T/show")"
	grep -q '^  :\|:0: ' "$T/show" && fail "a :0: in: $(grep '^  ' "$T/show")"
	echo "ok: the linker's undefined symbol is one diagnostic, no :0:"
else
	echo "skipped part: x86-asm needs an x86-64 host with gcc and as"
fi
