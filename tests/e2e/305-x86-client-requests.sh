# 305: x86-asm candidates that talk to the profiler counting them.  The
# count stage runs the candidate inside callgrind, and valgrind obeys
# any code it runs that issues a client request: amd64's preamble (rol
# rdi by 3, 13, 61 and 51) and xchg rbx, rbx with rax pointing at
# CALLGRIND_TOGGLE_COLLECT (0x43540002) switches the counting off.  Each
# candidate below is a correct sum about 20 idle turns an element slower
# than the reference; the first two passed as "2048.900x fewer
# instructions" (20489 -> 10) while the clock said 33x slower.
#   toggle    the requests written as instructions, at entry and before
#             ret (the security review's attack)
#   bytes     the same requests written with .byte
#   awx       the requests in a writable and executable section
#   xstack    .note.GNU-stack asking for an executable stack
#   runtime   the request's bytes kept in .rodata, copied at run time into
#             a page mmap'd executable and called: no scan of the object
#             sees them; callgrind's count and the clock must disagree
#   plain     the control: the slow sum with no request
. "$(dirname "$0")/lib.sh"
command -v bwrap >/dev/null || skip "bubblewrap not installed"
command -v python3 >/dev/null || skip "python3 not installed"
[ "$(uname -m)" = x86_64 ] && command -v gcc >/dev/null ||
    skip "x86-asm needs an x86-64 host with gcc"
EX=$(cd "$(dirname "$0")/../../examples" && pwd)
"$ASSAY" --db "$DB" import "$EX/compiler/sum_i32.jsonl" >/dev/null ||
    fail "import sum_i32"
mkdir "$T/c"

# The slow sum in Intel syntax; REQ is where a toggle goes.
cat > "$T/c/slow.s" <<'ASM'
	.intel_syntax noprefix
	.text
	.globl	sum
	.type	sum, @function
sum:
	push	rbx
	sub	rsp, 48
	mov	QWORD PTR [rsp], 0x43540002
	mov	QWORD PTR [rsp+8], 0
	mov	QWORD PTR [rsp+16], 0
	mov	QWORD PTR [rsp+24], 0
	mov	QWORD PTR [rsp+32], 0
	mov	QWORD PTR [rsp+40], 0
	mov	rax, rsp
	xor	edx, edx
REQ
	xor	r8d, r8d
	xor	ecx, ecx
.Lloop:
	cmp	rcx, rsi
	jae	.Ldone
	movsxd	rdx, DWORD PTR [rdi+rcx*4]
	mov	r9d, 20
.Lspin:
	dec	r9d
	jnz	.Lspin
	add	r8, rdx
	inc	rcx
	jmp	.Lloop
.Ldone:
	mov	rax, rsp
	xor	edx, edx
REQ
	mov	rax, r8
	add	rsp, 48
	pop	rbx
	ret
	.size	sum, .-sum
	.section	.note.GNU-stack,"",@progbits
ASM

# The run-time variant, from C: the request is data until it runs
# (volatile, so that gcc copies it from .rodata, not as immediates in
# the code, where the scan finds xchg rbx, rbx's bytes).
cat > "$T/c/runtime.c" <<'C'
#include <stddef.h>
#include <stdint.h>
#include <sys/mman.h>
static const volatile unsigned char req[] = { 0x48, 0xc1, 0xc7, 0x03, 0x48, 0xc1,
	0xc7, 0x0d, 0x48, 0xc1, 0xc7, 0x3d, 0x48, 0xc1, 0xc7, 0x33, 0x48,
	0x87, 0xdb, 0xc3 };
static void toggle(void)
{
	static void *page;
	uint64_t args[6] = { 0x43540002 };
	if (page == NULL) {
		void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			return;
		for (size_t i = 0; i < sizeof req; i++)
			((unsigned char *)p)[i] = req[i];
		page = p;
	}
	__asm__ volatile("call {*%2|%2}" : : "a"(args), "d"(0L), "r"(page) :
	    "memory", "cc");
}
int64_t sum(const int32_t *a, size_t n)
{
	int64_t s = 0;
	toggle();
	for (size_t i = 0; i < n; i++) {
		s += a[i];
		for (volatile int k = 0; k < 20; k++)
			;
	}
	toggle();
	return s;
}
C
gcc -O1 -S -masm=intel -fno-asynchronous-unwind-tables -fcf-protection=none \
    -o "$T/c/runtime.s" "$T/c/runtime.c" || fail "gcc -S runtime.c"

python3 - "$T/c" > "$T/rows.jsonl" <<'PY'
import json, sys
d = sys.argv[1]
slow = open(d + "/slow.s").read()
rol = "\trol\trdi, 3\n\trol\trdi, 13\n\trol\trdi, 61\n\trol\trdi, 51\n"
byt = ("\t.byte 0x48, 0xc1, 0xc7, 0x03, 0x48, 0xc1, 0xc7, 0x0d\n"
       "\t.byte 0x48, 0xc1, 0xc7, 0x3d, 0x48, 0xc1, 0xc7, 0x33\n"
       "\t.byte 0x48, 0x87, 0xdb\n")
toggle = slow.replace("REQ\n", rol + "\txchg\trbx, rbx\n")
def row(origin, code):
    print(json.dumps({"task": "assay-examples/sum_i32", "candidate":
                      {"origin": "cr-" + origin, "kind": "optimization",
                       "lang": "asm", "code": code}}))
row("toggle", toggle)
row("bytes", slow.replace("REQ\n", byt))
row("awx", toggle.replace("\t.text\n",
                          '\t.section .text.hot, "awx", @progbits\n', 1))
row("xstack", slow.replace("REQ\n", "").replace(
    '.note.GNU-stack,"",', '.note.GNU-stack,"x",'))
row("runtime", open(d + "/runtime.s").read())
row("plain", slow.replace("REQ\n", ""))
PY
"$ASSAY" --db "$DB" import "$T/rows.jsonl" >"$T/import" 2>&1 ||
    fail "import: $(cat "$T/import")"
"$ASSAY" --db "$DB" verify --quiet --jobs 2 --timeout 90 --where "origin~cr-" \
    >"$T/verify" 2>&1
[ $? -le 1 ] || fail "verify: $(cat "$T/verify")"

ORIGIN_PREFIX=cr-	# get, want, shown, evidence: lib.sh

# Refused in the assemble stage, before any code runs; the evidence
# names the line of cand.s the bytes came from by the line table of
# as -g: the toggle's rol rdi, 3 is line 16; as numbers instructions
# only, so the .byte lines count as the instruction before them (line
# 15, xor edx, edx).
want toggle fail/compile/forbidden-client-request
want bytes fail/compile/forbidden-client-request
for c in toggle:16 bytes:15; do
	l=${c#*:}
	c=${c%:*}
	shown $c
	grep -q "^evidence: cand.s:$l: valgrind's client-request preamble (rol rdi, 3; rol rdi, 13; rol rdi, 61; rol rdi, 51) in section .text at 0x" \
	    "$T/$c.show" || fail "$c: evidence: $(grep '^evidence' "$T/$c.show")"
	grep -q "^evidence points to candidate line $l\$" "$T/$c.show" ||
	    fail "$c: evidence line: $(grep '^evidence points' "$T/$c.show")"
	echo "ok: $c: refused at cand.s:$l"
done
want awx fail/compile/forbidden-section
shown awx
grep -q '^evidence: section .text.hot is writable and executable' \
    "$T/awx.show" || fail "awx: evidence: $(grep '^evidence' "$T/awx.show")"
want xstack fail/compile/forbidden-section
shown xstack
grep -q '^evidence: section .note.GNU-stack is executable' \
    "$T/xstack.show" ||
    fail "xstack: evidence: $(grep '^evidence' "$T/xstack.show")"

want plain fail/performance/slower-than-reference
if command -v valgrind >/dev/null; then
	# The run-time request switched callgrind off (the count proves
	# the forgery took place), and the clock disagreeing fails it.
	want runtime fail/performance/measures-disagree
	ir=$(get runtime ir_cand)
	ref=$(get runtime ir_ref)
	[ -n "$ir" ] && [ "$ir" -lt 1000 ] && [ "$ref" -gt 10000 ] ||
	    fail "runtime: the forgery did not take (ref '$ref', cand '$ir')"
	echo "ok: runtime: callgrind counted $ir instructions (ref $ref)"
	shown runtime
	grep -q '^evidence: the two measures disagree: callgrind: [0-9.]*x fewer instructions .*; time: [0-9.]*x slower' \
	    "$T/runtime.show" ||
	    fail "runtime: evidence: $(grep '^evidence' "$T/runtime.show")"
	"$ASSAY" --db "$DB" show --json "$(get runtime id)" |
	    grep -q '"hot_lines"' && fail "runtime: the forged hot lines kept"
	echo "ok: runtime: no hot lines from the forged profile"
else
	want runtime fail/performance/slower-than-reference
fi
