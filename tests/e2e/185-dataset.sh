# 190: the dataset stands on its own (issue 14 item 1).  Accept passing
# samples and a two-round repair chain (a failed RTLFixer row, a repair
# that still mismatches, one that passes, made with `assay repair`),
# commit, delete the database, import the checkout with --format
# dataset, verify: every candidate gets the verdict the dataset records,
# with the same input hashes; the sft export of the chain has both
# failed rounds with weight 0, the repair with weight 1 and the flag.
. "$(dirname "$0")/lib.sh"
need_data
command -v iverilog >/dev/null || skip "iverilog not installed"
command -v git >/dev/null || skip "git not installed"
export HOME=$T GIT_CONFIG_NOSYSTEM=1

"$ASSAY" --db "$DB" import "$DATA/verilog-eval-v2" \
    "$DATA/rtlfixer/verilogeval-syntax.jsonl" >/dev/null 2>&1 || fail import
"$ASSAY" --db "$DB" verify --quiet --jobs 2 --where "task~Prob00" >/dev/null ||
    fail verify
for id in $("$ASSAY" --db "$DB" list --where "task~Prob00 verdict=pass" |
    awk 'NR > 1 && NR <= 4 {print $1}'); do
	"$ASSAY" --db "$DB" review "$id" accept >/dev/null || fail "accept $id"
done
# The chain: the first syntax row of 2012_q2b (fails to compile), a
# repair whose Y3 misses a term (mismatches), then the right one.
root=$("$ASSAY" --db "$DB" list --where "source~verilogeval-syntax" |
    awk 'NR == 2 {print $1}')
printf 'module top_module(input [5:0] y, input w, output Y1, output Y3);\nassign Y1 = y[0] & w;\nassign Y3 = (y[1] | y[2]) & ~w;\nendmodule\n' >"$T/r1.sv"
r1=$("$ASSAY" --db "$DB" repair "$root" --file "$T/r1.sv" | awk '{print $1}')
[ -n "$r1" ] || fail "repair 1"
r2=$(printf 'module top_module(input [5:0] y, input w, output Y1, output Y3);\nassign Y1 = y[0] & w;\nassign Y3 = (y[1] | y[2] | y[4] | y[5]) & ~w;\nendmodule\n' |
    "$ASSAY" --db "$DB" repair "$r1" --file - | awk '{print $1}')
[ -n "$r2" ] || fail "repair 2"
"$ASSAY" --db "$DB" show "$r2" --json | grep -q '"origin":"tester"' ||
    fail "a repair's origin is the reviewer"
"$ASSAY" --db "$DB" show "$r2" --json | grep -q '"action":"repair"' ||
    fail "the repair is not journalled"
"$ASSAY" --db "$DB" verify --quiet "$root" "$r1" "$r2" >/dev/null
expect_eq "chain verdicts" "$("$ASSAY" --db "$DB" list --json --where "id=$root" |
    grep -o '"verdict":"[a-z]*"') $("$ASSAY" --db "$DB" list --json --where "id=$r1" |
    grep -o '"verdict":"[a-z]*"') $("$ASSAY" --db "$DB" list --json --where "id=$r2" |
    grep -o '"verdict":"[a-z]*"')" '"verdict":"fail" "verdict":"fail" "verdict":"pass"'
"$ASSAY" --db "$DB" review "$r2" accept >/dev/null || fail "accept $r2"
"$ASSAY" --db "$DB" commit --repo "$T/ds" >"$T/commit.out" || fail commit
grep -q "(4 samples, 2 context)" "$T/commit.out" || fail "$(cat "$T/commit.out")"

# What the dataset holds: files once per task, no absolute path, one
# trailer block per sample.
tdir=$(dirname "$(git -C "$T/ds" ls-files | grep "/$r2.json$")")
git -C "$T/ds" ls-files | grep -q "^$tdir/files/" || fail "no task files in $tdir"
for id in "$root" "$r1"; do
	grep -q '"role":"context"' "$T/ds/$tdir/$id.json" || fail "$id not context"
done
grep -q '"role":"sample"' "$T/ds/$tdir/$r2.json" || fail "$r2 not a sample"
git -C "$T/ds" grep -q -e "$SHARED" -e '"/' -- '*.json' &&
    fail "an absolute path in the dataset: $(git -C "$T/ds" grep -e "$SHARED" -e '"/' -- '*.json' | head -n 3)"
blocks=$(git -C "$T/ds" log -1 --format=%B | awk '/^Assay-Sample:/ {n++} END {print n}')
expect_eq "trailer blocks" "$blocks" 6
git -C "$T/ds" log -1 --format=%B | awk '
	/^Assay-Sample:/ { if (prev != "") bad = 1 }
	{ prev = $0 }
	END { exit bad }' || fail "a trailer block is not its own paragraph"
# a context sample nobody reviewed has no Reviewed-by (it said
# "unknown"); the accepted one names its reviewer
git -C "$T/ds" log -1 --format=%B >"$T/msg"
grep -q "^Reviewed-by: unknown" "$T/msg" && fail "Reviewed-by: unknown in $(cat "$T/msg")"
awk -v id="$root" '$0 == "Assay-Sample: " id { on = 1; next }
	/^Assay-Sample:/ { on = 0 } on && /^Reviewed-by:/ { bad = 1 }
	END { exit bad }' "$T/msg" || fail "the unreviewed context $root has a Reviewed-by"
awk -v id="$r2" '$0 == "Assay-Sample: " id { on = 1; next }
	/^Assay-Sample:/ { on = 0 } on && /^Reviewed-by: tester$/ { ok = 1 }
	END { exit !ok }' "$T/msg" || fail "the accepted $r2 has no Reviewed-by: tester"
echo "ok: the dataset holds tasks, files, samples and context"

# The card and the split files (issue 14 item 8, issue 25 items 2-3).
card=$T/ds/README.md
for want in "^4 samples of [0-9]* tasks, and 2 context candidates" \
    "^| chip | 4 |$" "^| pass | 4 |$" "^| direct | 3 |$" "^| repair | 1 |$" \
    "^| MIT | 4 |$" "^| Icarus Verilog version" "^## Splits" \
    "near-duplicates: 0 of these samples" "contamination: 0 of these samples" \
    '^license: mit$' '^- config_name: default$' '^    path: data/train.jsonl$' \
    'load_dataset("path/to/this/repository")'; do
	grep -q -e "$want" "$card" || fail "card lacks '$want': $(cat "$card")"
done
[ "$(head -n 1 "$card")" = "---" ] || fail "the card opens with no front matter"
expect_eq "data/train.jsonl lines" "$(wc -l <"$T/ds/data/train.jsonl" | tr -d ' ')" 4
python3 -c '
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
assert all(r["verified"] and r["code"] and r["license"] == "MIT"
           and isinstance(r["run"]["inputs"], list) for r in rows), rows
assert len({tuple(r) for r in rows}) == 1, "rows with different keys"
' "$T/ds/data/train.jsonl" || fail "data/train.jsonl rows"
git -C "$T/ds" ls-files | grep -q "^README.md$" || fail "README.md not committed"
echo "ok: the card and the split files"

# One codec (src/model/codec.h): the raw export, the dataset and show
# --json write a candidate's, its task's and its latest run's fields the
# same way (the source aside, which the dataset makes relative).
"$ASSAY" --db "$DB" export --format raw --where "id=$r2" >"$T/agree.raw" ||
    fail "export raw $r2"
for id in "$root" "$r1" "$r2"; do
	"$ASSAY" --db "$DB" show --json "$id" >"$T/agree.$id.show" || fail "show $id"
done
python3 - "$T" "$T/ds/$tdir" "$root" "$r1" "$r2" <<'PY' || fail "export, dataset and show disagree"
import hashlib, json, sys
t, d, ids = sys.argv[1], sys.argv[2], sys.argv[3:]
raw = [json.loads(l) for l in open(t + "/agree.raw")]
rc = {r["candidate"]["id"]: r["candidate"] for r in raw}
rt = [r["task"] for r in raw if isinstance(r["task"], dict)][0]
dt = json.load(open(d + "/task.json"))
def same(what, *vals):
    if any(v != vals[0] for v in vals):
        sys.exit("%s: %r" % (what, vals))
for id in ids:
    s = json.load(open("%s/agree.%s.show" % (t, id)))
    ds = json.load(open("%s/%s.json" % (d, id)))
    r = rc[id]
    for k in ("id", "origin", "kind", "lang", "parent"):
        same(id + " " + k, r[k], ds[k], s[k])
    # only when there is one: null is not "none" (show wrote null)
    same(id + " origin_raw", [x.get("origin_raw") for x in (r, ds, s)
         if "origin_raw" in x], [x["origin_raw"] for x in (r, ds, s)
         if x.get("origin_raw") is not None])
    code = open("%s/%s" % (d, ds["code"]), encoding="utf-8").read()
    same(id + " code", r["code"], s["code"], code)
    same(id + " code hash", ds["code_sha256"], s["code_hash"],
         hashlib.sha256(code.encode()).hexdigest())
    for k in ("id", "benchmark", "domain", "env", "env_params", "spec"):
        same(id + " task " + k, rt[k], dt[k], s["task"][k])
    same(id + " interface", rt.get("interface"), dt["interface"],
         s["task"]["interface"])
    files = sorted((f["name"], f["role"], f["content"]) for f in s["task"]["files"])
    same(id + " files", sorted(rt["files"].items()) if isinstance(rt["files"], dict)
         else sorted((f["name"], f["text"]) for f in rt["files"]),
         [(n, c) for n, _, c in files])
    same(id + " file hashes", sorted((f["name"], f["role"], f["sha256"]) for f in dt["files"]),
         [(n, role, hashlib.sha256(c.encode()).hexdigest()) for n, role, c in files])
    run = max(s["runs"], key=lambda x: x["id"])
    for k in ("verdict", "stage", "subcategory", "metrics", "toolchain", "inputs", "env"):
        same(id + " run " + k, ds["run"][k], run[k])
PY
echo "ok: export, dataset and show agree on the candidates, task and runs"

# The verdicts and input hashes before, then from the dataset alone.
verdicts() {
	"$ASSAY" --db "$1" list --json --where "status=accepted" |
	    sed 's/.*"id":"\([^"]*\)".*"verdict":"\([^"]*\)".*/\1 \2/' | sort
	for id in "$root" "$r1"; do
		"$ASSAY" --db "$1" list --json --where "id=$id" |
		    sed 's/.*"id":"\([^"]*\)".*"verdict":"\([^"]*\)".*/\1 \2/'
	done
	"$ASSAY" --db "$1" show "$r2" --json | grep -o '"inputs":{[^}]*}' | head -n 1
}
verdicts "$DB" >"$T/before"
rm -f "$DB" "$DB-wal" "$DB-shm"
"$ASSAY" --db "$DB" import --format dataset "$T/ds" >"$T/import.out" ||
    fail "import --format dataset: $(cat "$T/import.out")"
expect_eq "candidates from the dataset" "$(count "")" 6
"$ASSAY" --db "$DB" verify --quiet >/dev/null
verdicts "$DB" >"$T/after"
cmp "$T/before" "$T/after" || fail "verdicts differ: $(diff "$T/before" "$T/after")"
"$ASSAY" --db "$DB" stats --recorded >"$T/rec"
grep -v "^benchmark" "$T/rec" | awk '$2 != $3 {bad = 1} END {exit bad}' ||
    fail "recorded and re-derived differ: $(cat "$T/rec")"
echo "ok: import --format dataset then verify gives the recorded verdicts"

"$ASSAY" --db "$DB" export --where "id=$r2" >"$T/sft.jsonl" || fail export
expect_eq "sft rows" "$(wc -l <"$T/sft.jsonl" | tr -d ' ')" 1
grep -q '"weight":0}.*"weight":0}.*"weight":1}\],"only_last_turn_loss":true' \
    "$T/sft.jsonl" || fail "trajectory: $(cat "$T/sft.jsonl")"
grep -q "\"turns\":\[{\"message\":2,\"candidate\":\"$root\",\"origin\":\"[^\"]*\",\"verdict\":\"fail\",\"target\":false},{\"message\":4,\"candidate\":\"$r1\",\"origin\":\"tester\",\"verdict\":\"fail\",\"target\":false},{\"message\":6,\"candidate\":\"$r2\",\"origin\":\"tester\",\"verdict\":\"pass\",\"target\":true}\]" \
    "$T/sft.jsonl" || fail "meta.turns: $(cat "$T/sft.jsonl")"
grep -q 'mismatch' "$T/sft.jsonl" || fail "no feedback of the mismatching round"
echo "ok: the rebuilt trajectory has both rounds, weights and the flag"

# The context's label, given later, goes in with who gave it: a
# Labelled-by trailer, still no Reviewed-by (nobody reviewed it).
"$ASSAY" --db "$DB" label "$root" compile >/dev/null || fail "label $root"
"$ASSAY" --db "$DB" commit --repo "$T/ds" >/dev/null || fail "commit the label"
git -C "$T/ds" log -1 --format=%B >"$T/msg2"
awk -v id="$root" '$0 == "Assay-Sample: " id { on = 1; next }
	/^Assay-Sample:/ { on = 0 } on && /^Labelled-by: tester$/ { l = 1 }
	on && /^Reviewed-by:/ { r = 1 } END { exit !(l && !r) }' "$T/msg2" ||
    fail "the labelled context's trailers: $(cat "$T/msg2")"
echo "ok: trailers say who labelled and who reviewed"

# A file changed in the checkout is refused by its hash.
echo "// changed" >>"$T/ds/$tdir/$r2.sv"
"$ASSAY" --db "$T/x.db" import --format dataset "$T/ds" >/dev/null 2>"$T/err"
expect_eq "tampered exit" $? 2
grep -q "$r2.sv: sha256 .* differs from the .* that .*$r2.json records" "$T/err" || fail "tampered: $(cat "$T/err")"
