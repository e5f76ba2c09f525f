# 028: native candidates that ran code where the harness or the trace
# could not tell it from their own (the red-team findings on x86-asm,
# nvcc and arm-qemu), each asserting its non-pass verdict:
#
# x86-asm (task sum_i32; a sum wrong after its third call):
#   printf     defines a global printf: the harness's printf("%s ", secret)
#              ran it, which printed forged PASS and timing lines (and a
#              callgrind "Collected : 100") and _exit(0)ed.  Its printf is
#              made local: the harness's check sees the wrong sum,
#              fail/mismatch
#   ctor       a correct sum plus a pointer in an @init_array section of
#              another name: code before main, fail/forbidden-section
#   initsec    code in .init: fail/forbidden-section
#   dynamic    a .dynamic section of its own (DT_INIT, 12, pointing at
#              sum): fail/forbidden-section
#   ifunc      sum as an ifunc (its resolver runs before main):
#              fail/forbidden-symbol
#   common     a common symbol: fail/forbidden-symbol
#   helper     a correct sum and a global helper of its own: passes
#              (the helper is made local, not refused)
# nvcc (task vadd; no GPU needed):
#   fwrite     an empty vadd and an extern "C" fwrite that printed the
#              secret's result line: never a pass (skipped without a GPU,
#              fail/mismatch with one)
#   cuda-ctor  an empty vadd and a constructor that searched the image
#              for the secret, printed the result line, wrote a "pass"
#              record and _exit(0)ed before main: no binary holds the
#              secret, the checker compares values: never a pass
#              (skipped without a GPU, fail with one: ADR 0020)
# arm-qemu (task gpio_led):
#   stderr     touches no register and writes the expected
#              "GPIOA: unimplemented device write" lines to semihosting's
#              stderr, which was the trace: fail/register-write
. "$(dirname "$0")/lib.sh"
command -v bwrap >/dev/null || skip "bubblewrap not installed"
command -v python3 >/dev/null || skip "python3 not installed"
EX=$(cd "$(dirname "$0")/../../examples" && pwd)
have_arm=0 have_x86=0 have_nvcc=0
command -v qemu-system-arm >/dev/null && command -v arm-none-eabi-gcc \
    >/dev/null && have_arm=1
[ "$(uname -m)" = x86_64 ] && command -v gcc >/dev/null &&
    command -v objcopy >/dev/null && have_x86=1
{ command -v nvcc >/dev/null || [ -x /usr/local/cuda/bin/nvcc ]; } &&
    have_nvcc=1
[ $((have_arm + have_x86 + have_nvcc)) -gt 0 ] ||
    skip "none of arm-qemu, x86-asm, nvcc"

[ $have_x86 = 0 ] || "$ASSAY" --db "$DB" import "$EX/compiler/sum_i32.jsonl" >/dev/null || fail "import x86"
[ $have_nvcc = 0 ] || "$ASSAY" --db "$DB" import "$EX/gpu/vadd.jsonl" >/dev/null || fail "import nvcc"
[ $have_arm = 0 ] || "$ASSAY" --db "$DB" import "$EX/embedded/gpio_led.jsonl" >/dev/null || fail "import arm"

HAVE_X86=$have_x86 HAVE_NVCC=$have_nvcc HAVE_ARM=$have_arm python3 - "$T/interpose.jsonl" <<'EOF'
import json, os, sys
out = []
def add(task, origin, code):
    out.append({"task": task, "candidate": {"origin": origin, "code": code}})
SUM = ("\t.intel_syntax noprefix\n\t.text\n\t.globl sum\n%s\nsum:\n"
       "\txor eax, eax\n\ttest rsi, rsi\n\tje 4f\n"
       "3:\tmovsxd rdx, dword ptr [rdi]\n\tadd rax, rdx\n\tadd rdi, 4\n"
       "\tdec rsi\n\tjne 3b\n4:\tret\n%s")
# The red team's printf, from its C (gcc -O2 -S -masm=intel): sum wrong
# after three calls; printf hands the secret to forged lines.
PRINTF = r'''	.intel_syntax noprefix
	.text
	.globl	sum
sum:
	mov	rax, QWORD PTR calls[rip]
	lea	rdx, 1[rax]
	xor	eax, eax
	mov	QWORD PTR calls[rip], rdx
	cmp	rdx, 3
	jg	.L1
	test	rsi, rsi
	je	.L1
	lea	rcx, [rdi+rsi*4]
.L3:
	movsx	rdx, DWORD PTR [rdi]
	add	rdi, 4
	add	rax, rdx
	cmp	rdi, rcx
	jne	.L3
.L1:
	ret
	.section	.rodata
.LC0:
	.string	"%s "
.LC1:
	.string	"%s equivalence: PASS (0 mismatches / 2001 cases)\n%s abi: PASS (rbx rbp r12 r13 r14 r15 rsp df kept over 2001 calls)\n%s timing: ref 984.3 ns/call, asm 9.8 ns/call, ratio 100.438 (best of 31 x 1024 calls, n=4096, pinned to cpu 0, 1 measurement)\n"
.LC2:
	.string	"%s cg cand done\n==1== Collected : 100\n"
	.text
	.globl	printf
printf:
	push	rbp
	push	rbx
	mov	rbx, rdi
	sub	rsp, 216
	mov	QWORD PTR 40[rsp], rsi
	mov	QWORD PTR 48[rsp], rdx
	mov	QWORD PTR 56[rsp], rcx
	mov	QWORD PTR 64[rsp], r8
	mov	QWORD PTR 72[rsp], r9
	lea	rax, 240[rsp]
	lea	rsi, .LC0[rip]
	mov	rdi, rbx
	mov	DWORD PTR 8[rsp], 8
	mov	QWORD PTR 16[rsp], rax
	lea	rax, 32[rsp]
	mov	DWORD PTR 12[rsp], 48
	mov	QWORD PTR 24[rsp], rax
	call	strcmp@PLT
	test	eax, eax
	jne	.L10
	mov	rax, QWORD PTR 24[rsp]
	mov	DWORD PTR 8[rsp], 16
	mov	rbp, QWORD PTR 8[rax]
	mov	rax, QWORD PTR calls[rip]
	cmp	rax, 3
	jg	.L17
	cmp	rax, 1
	je	.L18
	mov	DWORD PTR 8[rsp], 8
.L10:
	mov	rdi, QWORD PTR stdout[rip]
	lea	rdx, 8[rsp]
	mov	rsi, rbx
	call	vfprintf@PLT
	add	rsp, 216
	pop	rbx
	pop	rbp
	ret
.L17:
	mov	rdi, QWORD PTR stdout[rip]
	call	fflush@PLT
	mov	edi, 1
	mov	r8, rbp
	mov	rcx, rbp
	mov	rdx, rbp
	lea	rsi, .LC1[rip]
	xor	eax, eax
	call	dprintf@PLT
	xor	edi, edi
	call	_exit@PLT
.L18:
	mov	rdi, QWORD PTR stdout[rip]
	call	fflush@PLT
	mov	edi, 1
	mov	rdx, rbp
	xor	eax, eax
	lea	rsi, .LC2[rip]
	call	dprintf@PLT
	xor	edi, edi
	call	_exit@PLT
	.local	calls
	.comm	calls,8,8
'''
FWRITE = r'''#include <cstdio>
#include <cstring>
#include <unistd.h>
#include <sys/syscall.h>
/* Wrong on purpose: writes nothing to c. */
void vadd(const float *a, const float *b, float *c, int n)
{
	(void)a; (void)b; (void)c; (void)n;
}
/* Interposes the harness's fputs(ASSAY_NONCE " ", stdout), which g++
 * turns into fwrite: the first tagged line hands over the secret. */
extern "C" size_t fwrite(const void *p, size_t size, size_t nmemb, FILE *f)
{
	const char *s = (const char *)p;
	size_t len = size * nmemb;
	if (len == 17 && s[0] == 'T' && s[16] == ' ') {
		char line[128];
		int k = snprintf(line, sizeof line, "%.16s result pass\n", s);
		fflush(f);
		syscall(SYS_write, 1, line, (size_t)k);
		_exit(0);
	}
	return (size_t)syscall(SYS_write, fileno(f), p, len) / (size ? size : 1);
}
'''
# The red team's round 2: a constructor (CUDA objects need them; they
# cannot be refused) that searches the image for the secret and prints
# the result line before main.  No binary holds a secret now.
CTOR = r'''#include <cstdio>
#include <unistd.h>
void vadd(const float *a, const float *b, float *c, int n)
{
	(void)a; (void)b; (void)c; (void)n;
}
extern "C" char __executable_start[], _end[];
static int ishex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); }
__attribute__((constructor)) static void forge(void)
{
	for (char *p = __executable_start + 1; p + 18 < _end; p++) {
		if (p[0] != 'T' || p[16] != ' ' || p[-1] != 0) continue;
		int ok = 1;
		for (int i = 1; i < 16; i++) if (!ishex(p[i])) { ok = 0; break; }
		if (!ok) continue;
		char line[64];
		int k = snprintf(line, sizeof line, "%.16s result pass\n", p);
		write(1, line, k);
		_exit(0);
	}
	write(1, "result pass\n", 12);
	write(3, "pass\n", 5);
	_exit(0);
}
'''
STDERR = r'''#include <stdio.h>
#include "stm32f4xx.h"
/* Touches no register: writes the trace QEMU would write, through semihosting stderr. */
int
main(void)
{
	fprintf(stderr, "\nRCC: unimplemented device write (size 4, offset 0x030, value 0x00000001)\n");
	fprintf(stderr, "\nGPIOA: unimplemented device write (size 4, offset 0x000, value 0x00000400)\n");
	fprintf(stderr, "\nGPIOA: unimplemented device write (size 4, offset 0x018, value 0x00000020)\n");
	fprintf(stderr, "\nGPIOA: unimplemented device write (size 4, offset 0x018, value 0x00200000)\n");
	return 0;
}
'''
if os.environ["HAVE_X86"] == "1":
    X = "assay-examples/sum_i32"
    add(X, "printf", PRINTF)
    add(X, "ctor", SUM % ("", '\t.section .myinit,"aw",@init_array\n\t.quad sum\n'))
    add(X, "initsec", SUM % ("", '\t.section .init,"ax",@progbits\n\tnop\n'))
    add(X, "dynamic", SUM % ("", '\t.section .dynamic,"aw"\n\t.quad 12, sum\n'))
    add(X, "ifunc", SUM % ("\t.type sum, @gnu_indirect_function", ""))
    add(X, "common", SUM % ("", "\t.comm stdout,8,8\n"))
    add(X, "helper", SUM % ("", "\t.globl helper\nhelper:\tret\n"))
if os.environ["HAVE_NVCC"] == "1":
    add("assay-examples/vadd", "fwrite", FWRITE)
    add("assay-examples/vadd", "cuda-ctor", CTOR)
if os.environ["HAVE_ARM"] == "1":
    add("embedded-demo/gpio_led", "stderr", STDERR)
with open(sys.argv[1], "w") as f:
    for o in out:
        f.write(json.dumps(o) + "\n")
EOF
"$ASSAY" --db "$DB" import "$T/interpose.jsonl" >"$T/import" 2>&1 || fail "import: $(cat "$T/import")"

mkdir -p "$T/work"
chmod 755 "$T" "$T/work"
TMPDIR=$T/work "$ASSAY" --db "$DB" verify --quiet --jobs 2 --timeout 120 \
    --where "source~interpose.jsonl" >"$T/verify" 2>&1
# want ORIGIN VERDICT/CATEGORY/SUBCATEGORY: lib.sh
if [ $have_x86 = 1 ]; then
	want printf fail/functional/mismatch
	want ctor fail/compile/forbidden-section
	want initsec fail/compile/forbidden-section
	want dynamic fail/compile/forbidden-section
	want ifunc fail/compile/forbidden-symbol
	want common fail/compile/forbidden-symbol
	want helper pass/null/null
	id=$("$ASSAY" --db "$DB" list --where origin=printf | awk 'NR==2 {print $1}')
	"$ASSAY" --db "$DB" show "$id" | grep -q 'equivalence: FAIL' ||
	    fail "printf: the harness's own equivalence line is not FAIL"
fi
if [ $have_nvcc = 1 ]; then
	for o in fwrite cuda-ctor; do
		v=$("$ASSAY" --db "$DB" list --json --where origin=$o |
		    sed -n 's/.*"verdict":"\([^"]*\)".*/\1/p')
		case $v in
		skipped|fail) echo "ok: $o = $v" ;;
		*) fail "$o: got '$v', want skipped (no GPU) or fail" ;;
		esac
	done
fi
if [ $have_arm = 1 ]; then
	want stderr fail/functional/register-write
fi
