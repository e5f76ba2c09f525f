# 230: provenance and licence (issue 14 item 7).  The shared sets ship an
# MIT LICENSE: their tasks get MIT, read from it; --license and
# --repository set them by hand; a file in a git work tree gets its
# repository and commit; samples inherit the licence in export meta and
# in the dataset; stats --by license counts them; a dataset import keeps
# it.
. "$(dirname "$0")/lib.sh"
need_data
command -v git >/dev/null || skip "git not installed"
export HOME=$T GIT_CONFIG_NOSYSTEM=1
"$ASSAY" --db "$DB" import "$DATA/verilog-eval-v2" >/dev/null 2>&1 || fail import
"$ASSAY" --db "$DB" import "$DATA/rtlfixer/verilogeval-syntax.jsonl" >/dev/null 2>&1 ||
    fail "import rtlfixer"
"$ASSAY" --db "$DB" stats --by license >"$T/lic" || fail "stats --by license"
cat "$T/lic"
grep -q "^MIT " "$T/lic" || fail "no MIT row"
expect_eq "licensed MIT" "$(count license=MIT)" "$(count "")"

mkdir -p "$T/mine"
printf '{"task":{"id":"local/inv","env":"iverilog","spec":"an inverter"},"candidate":{"id":"p-1","origin":"m","code":"module top_module(input a, output b); assign b = ~a; endmodule\\n"},"review":{"status":"accepted","by":"ann"}}\n' >"$T/mine/rows.jsonl"
"$ASSAY" --db "$DB" import --license Apache-2.0 \
    --repository https://example.org/mine@0123abcd "$T/mine/rows.jsonl" >/dev/null ||
    fail "import --license"
expect_eq "by hand" "$(count "license=Apache-2.0")" 1
"$ASSAY" --db "$DB" show p-1 --json | grep -q '"source":"https://example.org/mine@0123abcd:rows.jsonl:1"' ||
    fail "task source: $("$ASSAY" --db "$DB" show p-1 --json | grep -o '"source":"[^"]*"')"
"$ASSAY" --db "$DB" export --include-failing --where id=p-1 -o "$T/sft" \
    >/dev/null 2>&1 || fail "export p-1"
grep -q '"license":"Apache-2.0","provenance":{"license":"Apache-2.0","license_source":"--license","source":"https://example.org/mine@0123abcd:rows.jsonl:1","files":\[\]}' \
    "$T/sft.failing" || fail "export meta: $(cat "$T/sft.failing")"
echo "ok: licence read and given"

# A file in a git work tree: its repository and commit.
mkdir -p "$T/repo/data"
git -C "$T/repo" init -q
cp "$DATA/rtlfixer/LICENSE" "$T/repo/LICENSE"
printf '{"task":{"id":"local/buf","env":"iverilog","spec":"a buffer","files":{"tb.sv":"module tb; endmodule\\n"}},"candidate":{"id":"p-2","origin":"m","code":"module top_module(input a, output b); assign b = a; endmodule\\n"},"review":{"status":"accepted","by":"ann"}}\n' >"$T/repo/data/rows.jsonl"
git -C "$T/repo" add -A && git -C "$T/repo" -c user.name=t -c user.email=t@t commit -qm data
head=$(git -C "$T/repo" rev-parse HEAD | cut -c1-12)
"$ASSAY" --db "$DB" import "$T/repo/data/rows.jsonl" >/dev/null || fail "import from git"
"$ASSAY" --db "$DB" show p-2 --json | grep -q "\"source\":\"repo@$head:data/rows.jsonl:1\"" ||
    fail "git source: $("$ASSAY" --db "$DB" show p-2 --json | grep -o '"source":"[^"]*"' | head -n 1)"
expect_eq "licence from the work tree's LICENSE" "$(count "license=MIT id=p-2")" 1
"$ASSAY" --db "$DB" export --include-failing --where id=p-2 -o "$T/sft2.jsonl" \
    >/dev/null 2>&1 || fail "export p-2"
grep -q '"license_source":"repo/LICENSE","source":"repo@'"$head"':data/rows.jsonl:1","files":\[{"name":"tb.sv","sha256":"[0-9a-f]\{64\}"}\]' \
    "$T/sft2.failing.jsonl" || fail "provenance of p-2"
echo "ok: repository and commit from git"

"$ASSAY" --db "$DB" commit --repo "$T/ds" >/dev/null || fail commit
grep -q '"license":"Apache-2.0"' "$T/ds/chip/local/inv/p-1.json" || fail "sample licence"
grep -q '"license": "MIT"' "$T/ds/chip/local/buf/task.json" || fail "task licence"
"$ASSAY" --db "$T/b.db" import --format dataset "$T/ds" >/dev/null || fail "import dataset"
expect_eq "licences after the round trip" "$("$ASSAY" --db "$T/b.db" stats --by license --format csv |
    cut -d, -f1 | sort -u | tr '\n' ' ')" "Apache-2.0 MIT license "
echo "ok: the dataset carries it"
