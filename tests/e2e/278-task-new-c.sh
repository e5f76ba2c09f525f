# 278: `assay task new` on a C function (issue 27, item 1): it becomes an
# x86-asm task whose interface is its prototype in the env's signature
# grammar and the registers the System V AMD64 ABI gives each parameter,
# with ref.c the file, the input vectors stated (seed, cases) and the
# reference the assembly gcc -O2 -S makes of it; that reference passes
# on the sandboxed verify path and the task is stored.  Assembly of
# another function (a - b for a * b) fails the equivalence check and
# nothing is stored; a prototype outside the grammar (int) and a file of
# two exported functions without --top are refused with FILE:LINE.
. "$(dirname "$0")/lib.sh"
[ "$(uname -m)" = x86_64 ] || skip "x86-asm needs an x86-64 host"
command -v gcc >/dev/null || skip "gcc not installed"
command -v as >/dev/null || skip "as not installed (binutils)"

cat > "$T/dot.c" <<'C'
#include <stddef.h>
#include <stdint.h>

/* The dot product of two int32 arrays, accumulated in a 64-bit sum
 * that wraps on overflow. */
int64_t
dot(const int32_t *a, const int32_t *b, size_t n)
{
	int64_t s = 0;

	for (size_t i = 0; i < n; i++)
		s += (int64_t)a[i] * b[i];
	return s;
}

static int64_t
unused(int64_t x)
{
	return x;
}
C
(cd "$T" && gcc -O2 -S -o dot.s dot.c) || fail "gcc -S"

"$ASSAY" --db "$DB" task new "$T/dot.c" --reference "$T/dot.s" --json > "$T/dot.json" ||
    fail "task new: $(cat "$T/dot.json")"
expect_eq "function" "$(jq -r .function "$T/dot.json")" dot
expect_eq "env" "$(jq -r .row.task.env "$T/dot.json")" x86-asm
expect_eq "signature" "$(jq -r .row.task.env_params.signature "$T/dot.json")" \
    "int64_t dot(const int32_t *a, const int32_t *b, size_t n)"
expect_eq "vectors" "$(jq -r '.row.task.env_params | "\(.seed) \(.cases)"' "$T/dot.json")" "1 2000"
jq -r .row.task.interface "$T/dot.json" | grep -qx 'System V AMD64 ABI: a in rdi, b in rsi, n in rdx; the int64_t result in rax; rbx, rbp, r12-r15 and rsp kept.' ||
    fail "ABI: $(jq -r .row.task.interface "$T/dot.json")"
expect_eq "spec" "$(jq -r .row.task.spec "$T/dot.json" | head -n 1)" \
    "The dot product of two int32 arrays, accumulated in a 64-bit sum"
expect_eq "verdict" "$(jq -r .verdict "$T/dot.json")" pass
expect_eq "cases run" "$(jq -r .metrics.cases "$T/dot.json")/$(jq -r .metrics.mismatches "$T/dot.json")" 2001/0
expect_eq "stored" "$(count 'task=local/dot origin=reference verdict=pass lang=asm')" 1

# another function's assembly: refused, nothing stored
sed 's/(int64_t)a\[i\] \* b\[i\]/(int64_t)a[i] - b[i]/' "$T/dot.c" > "$T/sub.c"
(cd "$T" && gcc -O2 -S -o sub.s sub.c) || fail "gcc -S sub"
"$ASSAY" --db "$DB" task new "$T/dot.c" --reference "$T/sub.s" --id local/dot_bad 2> "$T/bad.err" > /dev/null
expect_eq "bad reference exit" "$?" 1
grep -q 'the reference does not pass its own verification: fail at run (functional/mismatch)' "$T/bad.err" ||
    fail "bad: $(cat "$T/bad.err")"
expect_eq "bad stored" "$(count 'task=local/dot_bad')" 0

# outside the grammar: the line and the column
printf '#include <stdint.h>\n\nint\nsq(int x)\n{\n\treturn x * x;\n}\n' > "$T/sq.c"
"$ASSAY" --db "$DB" task new "$T/sq.c" --reference "$T/dot.s" 2> "$T/sq.err" && fail "int was taken"
grep -q "sq.c:3: signature: column 1: 'int' is not supported" "$T/sq.err" || fail "sq: $(cat "$T/sq.err")"
# two exported functions: --top chooses
sed 's/^static int64_t$/int64_t/' "$T/dot.c" > "$T/two.c"
"$ASSAY" --db "$DB" task new "$T/two.c" --reference "$T/dot.s" 2> "$T/two.err" && fail "two functions, no --top"
grep -q "two.c:6: 2 functions that are not static: name the task's with --top" "$T/two.err" ||
    fail "two: $(cat "$T/two.err")"
"$ASSAY" --db "$DB" task new "$T/two.c" --top dot --id local/dot2 --reference "$T/dot.s" --dry-run |
    jq -e '.task.env_params.symbol == "dot"' > /dev/null || fail "--top dot"
echo "ok: task new on C"
