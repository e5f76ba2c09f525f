# 308: x86-asm candidates that behave otherwise when they are counted or
# timed (issue 22, third round; ADR 0059).  Each passed on main before
# it: the count stage made one call and never looked at its result, a
# clock up to 1.5x slower passed when callgrind said fewer instructions,
# and the timing called the function again and again on one unchanged
# buffer.  sum_i32's reference runs 20489 instructions, about 1 us.
#   vg         knows callgrind by LD_PRELOAD (valgrind sets it) and
#              returns 0 at once there; elsewhere a right sum and a busy
#              wait, 1.37x slower: passed as "23.389x fewer instructions";
#              bench now clears LD_PRELOAD before the counted call, so it
#              is counted doing its work
#   vgmaps     the same, knowing callgrind by vgpreload in
#              /proc/self/maps, which cannot be hidden
#   vgright    right everywhere, but counted it runs an unrolled loop
#              (1.6x fewer instructions), timed a plain loop and a busy
#              wait (1.4x slower): passed, the count vetoing the clock.
#              It knows it is counted with no tell of valgrind's: the
#              count stage's one call is its first, on the timing input
#              (n = 4096), where the check's first call has n = 0
#   memo       remembers its answer for a buffer with the same address,
#              length and three sampled elements (wrong once a middle
#              element changes): passed 225x faster
#   memoends   the same keyed on the first and last element
#   firstcall  right on the first call for an address, then its last
#              answer again while the address stays (a timed batch)
#   inc        right, and in O(1) a timed call: it finds the harness's
#              change state in the bss (the word that moved by one
#              xorshift64 step between two calls, through the linker's
#              __bss_start and _end) and updates its own sum by the one
#              element the change wrote: passed 66x faster after the
#              changing input came in; its counted call sums whole
#              (618x more instructions than the reference), so the clock
#              says faster than any core's instructions per cycle allow:
#              measures-disagree
#   scalar     a task of one scalar (bits: 64 turns of a loop over x);
#              a right memo of 4096 answers keyed on x: the timing
#              called it with one x, and it passed 24x faster; each timed
#              call has an x drawn afresh now, and the memo is no faster
. "$(dirname "$0")/lib.sh"
command -v bwrap >/dev/null || skip "bubblewrap not installed"
command -v python3 >/dev/null || skip "python3 not installed"
[ "$(uname -m)" = x86_64 ] && command -v gcc >/dev/null ||
    skip "x86-asm needs an x86-64 host with gcc"
EX=$(cd "$(dirname "$0")/../../examples" && pwd)
"$ASSAY" --db "$DB" import "$EX/compiler/sum_i32.jsonl" >/dev/null ||
    fail "import sum_i32"
python3 - > "$T/bits.jsonl" <<'PY'
import json
ref = ("#include <stdint.h>\n"
       "uint64_t bits(uint64_t x)\n{\n\tuint64_t s = 0;\n"
       "\tfor (int i = 0; i < 64; i++)\n\t\ts += (x >> i) & 1;\n"
       "\treturn s;\n}\n")
print(json.dumps({"task": {"id": "ct/bits", "env": "x86-asm",
    "domain": "compiler", "env_params": {"symbol": "bits",
    "signature": "uint64_t bits(uint64_t x)", "syntax": "intel"},
    "spec": "bits(x): the set bits of x",
    "files": {"ref.c": ref}}}))
PY
"$ASSAY" --db "$DB" import "$T/bits.jsonl" >/dev/null || fail "import bits"
mkdir "$T/c"

# The work a timed call does beyond the reference's: a busy wait of TURNS
# turns; 1500 makes the sum about 1.37x slower.
cat > "$T/c/busy.h" <<'C'
#ifndef TURNS
#define TURNS 1500
#endif
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static int64_t slow_sum(const int32_t *a, size_t n)
{
	int64_t s = 0;
	for (size_t i = 0; i < n; i++)
		s += a[i];
	for (volatile int k = 0; k < TURNS; k++)
		;
	return s;
}
C
cat > "$T/c/vg.c" <<'C'
#include "busy.h"
static int mode;
int64_t sum(const int32_t *a, size_t n)
{
	if (mode == 0)
		mode = getenv("LD_PRELOAD") != NULL ? 1 : 2;
	return mode == 1 ? 0 : slow_sum(a, n);
}
C
cat > "$T/c/maps.h" <<'C'
/* 1 under valgrind: its preloaded library is mapped. */
static int counted(void)
{
	char line[512];
	int yes = 0;
	FILE *f = fopen("/proc/self/maps", "r");
	while (f != NULL && fgets(line, sizeof line, f) != NULL)
		if (strstr(line, "vgpreload") != NULL)
			yes = 1;
	if (f != NULL)
		fclose(f);
	return yes;
}
C
cat > "$T/c/vgmaps.c" <<'C'
#include "busy.h"
#include "maps.h"
static int mode;
int64_t sum(const int32_t *a, size_t n)
{
	if (mode == 0)
		mode = counted() ? 1 : 2;
	return mode == 1 ? 0 : slow_sum(a, n);
}
C
# 1750 turns (1.43x slower on a quiet machine): slower than 1.25x
# however busy the machine, faster than main's 1.5x.
cat > "$T/c/vgright.c" <<'C'
#define TURNS 1750
#include "busy.h"
static int mode;
int64_t sum(const int32_t *a, size_t n)
{
	int64_t s = 0, t = 0, u = 0, v = 0;
	size_t i = 0;
	if (mode == 0)
		mode = n >= 4096 ? 1 : 2;
	if (mode == 2)
		return slow_sum(a, n);
	for (; i + 8 <= n; i += 8) {
		s += (int64_t)a[i] + a[i + 1];
		t += (int64_t)a[i + 2] + a[i + 3];
		u += (int64_t)a[i + 4] + a[i + 5];
		v += (int64_t)a[i + 6] + a[i + 7];
	}
	for (; i < n; i++)
		s += a[i];
	return s + t + u + v;
}
C
# KEY is what a remembered answer is kept for.
memo() {
	cat <<C
#include <stddef.h>
#include <stdint.h>
static const int32_t *last_a;
static size_t last_n;
static int32_t key[3];
static int64_t last_s;
int64_t sum(const int32_t *a, size_t n)
{
	if ($1)
		return last_s;
	int64_t s = 0;
	for (size_t i = 0; i < n; i++)
		s += a[i];
	last_a = a;
	last_n = n;
	last_s = s;
	if (n > 0) {
		key[0] = a[0];
		key[1] = a[n / 2];
		key[2] = a[n - 1];
	}
	return s;
}
C
}
memo 'n > 0 && a == last_a && n == last_n && a[0] == key[0] &&
	    a[n / 2] == key[1] && a[n - 1] == key[2]' > "$T/c/memo.c"
memo 'n > 0 && a == last_a && n == last_n && a[0] == key[0] &&
	    a[n - 1] == key[2]' > "$T/c/memoends.c"
memo 'a == last_a && n >= 1024' > "$T/c/firstcall.c"
cat > "$T/c/scalar.c" <<'C'
#include <stdint.h>
static uint64_t seen[4096], answer[4096];
static unsigned char kept[4096];
uint64_t bits(uint64_t x)
{
	unsigned k = (unsigned)(x ^ (x >> 29)) % 4096;
	if (kept[k] && seen[k] == x)
		return answer[k];
	uint64_t s = 0;
	for (int i = 0; i < 64; i++) {
		s += (x >> i) & 1;
		__asm__ volatile("" : "+r"(s));
	}
	seen[k] = x;
	kept[k] = 1;
	answer[k] = s;
	return s;
}
C

cat > "$T/c/inc.c" <<'C'
#include <stddef.h>
#include <stdint.h>
/* Incremental sum: finds the harness's change state (a bss word that
 * advances by one xorshift64 step between two calls), then per call
 * updates only the element the change wrote. */
extern char __bss_start[], _end[];
#define MAXN 8192
#define SNAPW (1 << 20)
static int32_t g_copy[MAXN];
static uint64_t g_snap[SNAPW];
static const int32_t *g_ca;
static size_t g_cn, g_sn;
static int64_t g_cs;
static uint64_t *g_st, g_lastx;
static uint64_t xs(uint64_t x) { x ^= x << 13; x ^= x >> 7; x ^= x << 17; return x; }
static int mine(const char *p)
{
	return (p >= (const char *)g_copy && p < (const char *)(g_copy + MAXN)) ||
	    (p >= (const char *)g_snap && p < (const char *)(g_snap + SNAPW));
}
int64_t sum(const int32_t *a, size_t n)
{
	if (g_st != NULL && a == g_ca && n == g_cn && n > 0) {
		uint64_t x = *g_st;
		if (x == xs(g_lastx)) {
			size_t at = (size_t)(((x >> 32) * (n & 0xffffffffu)) >> 32);
			g_cs += (int64_t)a[at] - g_copy[at];
			g_copy[at] = a[at];
			g_lastx = x;
			return g_cs;
		}
	}
	int64_t s = 0;
	for (size_t i = 0; i < n; i++)
		s += a[i];
	if (n > MAXN || n == 0)
		return s;
	for (size_t i = 0; i < n; i++)
		g_copy[i] = a[i];
	g_ca = a; g_cn = n; g_cs = s;
	uint64_t *b = (uint64_t *)(((uintptr_t)__bss_start + 7) & ~(uintptr_t)7);
	size_t w = (size_t)((uint64_t *)_end - b), j = 0;
	if (g_st == NULL && g_sn != 0) {
		for (size_t i = 0; i < w && j < SNAPW; i++) {
			if (mine((char *)&b[i]))
				continue;
			if (g_snap[j] != 0 && b[i] == xs(g_snap[j])) {
				g_st = &b[i];
				break;
			}
			j++;
		}
	}
	if (g_st != NULL) {
		g_lastx = *g_st;
	} else {
		j = 0;
		for (size_t i = 0; i < w && j < SNAPW; i++)
			if (!mine((char *)&b[i]))
				g_snap[j++] = b[i];
		g_sn = j;
	}
	return s;
}
C

ALL="vg vgmaps vgright memo memoends firstcall inc scalar"
for c in $ALL; do
	gcc -O2 -S -masm=intel -fno-asynchronous-unwind-tables \
	    -fcf-protection=none -I"$T/c" -o "$T/c/$c.s" "$T/c/$c.c" ||
	    fail "gcc -S $c.c"
done
python3 - "$T/c" $ALL > "$T/rows.jsonl" <<'PY'
import json, sys
for o in sys.argv[2:]:
    task = "ct/bits" if o == "scalar" else "assay-examples/sum_i32"
    print(json.dumps({"task": task, "candidate": {
        "origin": "ct-" + o, "kind": "optimization", "lang": "asm",
        "code": open("%s/%s.s" % (sys.argv[1], o)).read()}}))
PY
"$ASSAY" --db "$DB" import "$T/rows.jsonl" >"$T/import" 2>&1 ||
    fail "import: $(cat "$T/import")"
"$ASSAY" --db "$DB" verify --quiet --jobs 2 --timeout 90 \
    --where "origin~ct-" >"$T/verify" 2>&1
[ $? -le 1 ] || fail "verify: $(cat "$T/verify")"

ORIGIN_PREFIX=ct-	# get, want, shown, evidence: lib.sh

if command -v valgrind >/dev/null; then
	# No LD_PRELOAD when counted: vg does its work there, and its
	# count says what the clock says.
	want vg fail/performance/slower-than-reference
	evidence vg | grep -q 'callgrind: 1\.[0-9]*x more instructions.*time: 1\.[0-9]*x slower' ||
	    fail "vg: evidence $(evidence vg)"
	# The count stage's call is checked as the check's are.
	want vgmaps fail/functional/differs-when-counted
	evidence vgmaps | grep -q '^wrong when counted: the counted call returned 0, the reference -45931740816' ||
	    fail "vgmaps: evidence $(evidence vgmaps)"
	# Right when counted, but the clock past a busy machine's noise
	# fails it whatever the count says.
	want vgright fail/performance/measures-disagree
	evidence vgright | grep -q 'callgrind: 1\.[0-9]*x fewer instructions.*time: 1\.[0-9]*x slower' ||
	    fail "vgright: evidence $(evidence vgright)"
else
	# No count: the clock alone, and it says slower.
	for c in vg vgmaps vgright; do
		want $c fail/performance/slower-than-reference
	done
fi
# The answer carried from timed call to timed call: the clock's gain is
# beyond what the counted call's instructions allow.  Without valgrind
# there is no count, and the clock alone passes it (docs/security.md).
if command -v valgrind >/dev/null; then
	want inc fail/performance/measures-disagree
	evidence inc | grep -q 'more instructions.*x faster.*the clock says faster by more than 16x' ||
	    fail "inc: evidence $(evidence inc)"
fi
# The timed calls see an input that changes between calls, and every
# answer is compared.
for c in memo memoends firstcall; do
	want $c fail/functional/mismatch
	evidence $c | grep -q '^MISMATCH while timing' ||
	    fail "$c: evidence $(evidence $c)"
done
# The memo of a scalar is right, but it is timed on fresh values and is
# no faster than the loop it remembers (its misses cost a little more:
# it may even be slower).
v=$(get scalar verdict)/$(get scalar subcategory)
case $v in
pass/null|fail/slower-than-reference) echo "ok: ct-scalar = $v";;
*) fail "ct-scalar: $v";;
esac
ratio=$("$ASSAY" --db "$DB" list --json --where origin=ct-scalar |
    sed -n 's/.*"time_ratio":\([0-9.]*\).*/\1/p')
python3 -c "import sys; sys.exit(0 if 0 < float('$ratio') < 1.5 else 1)" ||
    fail "scalar: a memo timed $ratio x the reference"
echo "ok: scalar: the memo timed ${ratio}x the reference"
echo "ok: no candidate passed by being counted or timed otherwise"
