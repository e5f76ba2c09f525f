# 306: generate --strategy migrate --from c on an x86-asm task made by
# `task new`, which keeps ref.c with role "source" (importers use
# "reference"): the migration starts from that file.  A --from naming no
# language is bad usage (exit 2, nothing asked); when every matched task
# is left out (no cuda source) the summary says no task is left to ask,
# not that none matched.
. "$(dirname "$0")/lib.sh"
[ "$(uname -m)" = x86_64 ] || skip "x86-asm needs an x86-64 host"
command -v gcc >/dev/null || skip "gcc not installed"
command -v python3 >/dev/null || skip "no python3 for the test's generator"

cat > "$T/sum.c" <<'C'
#include <stddef.h>
#include <stdint.h>

/* The sum of an int32 array, in a 64-bit sum that wraps. */
int64_t
sum(const int32_t *a, size_t n)
{
	int64_t s = 0;

	for (size_t i = 0; i < n; i++)
		s += a[i];
	return s;
}
C
(cd "$T" && gcc -O2 -S -o sum.s sum.c) || fail "gcc -S"
"$ASSAY" --db "$DB" task new "$T/sum.c" --reference "$T/sum.s" \
    --id local/sum >/dev/null 2>"$T/new.err" || fail "task new: $(cat "$T/new.err")"

cat >"$T/gen.py" <<'PY'
import json, os, sys
req = json.load(sys.stdin)
open(os.environ["GEN_LOG"], "a").write(json.dumps(req) + "\n")
sys.stdout.write(open(os.environ["GEN_ASM"]).read())
PY
export GEN_LOG=$T/gen.log GEN_ASM=$T/sum.s
GEN="python3 $T/gen.py"

"$ASSAY" --db "$DB" generate --where task=local/sum --strategy migrate \
    --from cobol --command "$GEN" --model g-1 --no-verify >"$T/cobol.out" 2>&1
expect_eq "--from cobol exit" $? 2
grep -q "cobol: not a language to migrate from" "$T/cobol.out" ||
    fail "why: $(cat "$T/cobol.out")"

"$ASSAY" --db "$DB" generate --where task=local/sum --strategy migrate \
    --from c --command "$GEN" --model g-1 --no-verify >"$T/c.out" 2>&1 ||
    fail "migrate from c: $(cat "$T/c.out")"
grep -q "left out" "$T/c.out" && fail "the task was left out: $(cat "$T/c.out")"
expect_eq "requests" "$(wc -l <"$GEN_LOG" | tr -d ' ')" 1
python3 - "$GEN_LOG" <<'PY' || fail "the request"
import json, sys
m = json.loads(open(sys.argv[1]).readline())["messages"]
assert "This c implementation is correct" in m[1]["content"], m[1]
assert "s += a[i];" in m[1]["content"], m[1]       # ref.c, role source
print("ok: the migration starts from ref.c (role source)")
PY
"$ASSAY" --db "$DB" list --json --where origin=g-1 | jq -r .id >"$T/g1"
expect_eq "migrated candidates" "$(wc -l <"$T/g1" | tr -d ' ')" 1
"$ASSAY" --db "$DB" show --json "$(cat "$T/g1")" |
    jq -e '.generation.migrated_from == {"lang": "c", "file": "ref.c"}' \
    >/dev/null || fail "migrated_from: $("$ASSAY" --db "$DB" show --json "$(cat "$T/g1")" | jq -c .generation)"

"$ASSAY" --db "$DB" generate --where task=local/sum --strategy migrate \
    --from cuda --command "$GEN" --model g-1 --no-verify >"$T/cuda.out" 2>&1
expect_eq "--from cuda exit" $? 0
grep -q "local/sum: no candidate in that language passes" "$T/cuda.out" ||
    fail "no why: $(cat "$T/cuda.out")"
grep -q "^generate: no task left to ask (1 matched, all left out)$" "$T/cuda.out" ||
    fail "summary: $(cat "$T/cuda.out")"
grep -q "no task matches" "$T/cuda.out" && fail "said no task matches"
expect_eq "requests" "$(wc -l <"$GEN_LOG" | tr -d ' ')" 1
echo "306-migrate-task-new: ok"
