# 024: candidates that attack a later stage of their own run, or the
# channel a later stage reads (issue 22, items 2 and 3).  Every program
# and file a stage runs or reads is sealed with its hash where no
# candidate process can write, and each stage after candidate code runs
# in a fresh work area holding only those files, read-only (ADR 0034).
# Each candidate below passed before that; none may pass now.
#
# x86-asm (task sum_i32); each is a correct sum about 13x slower than
# the reference, which the timing alone would fail as
# slower-than-reference unless callgrind says it runs fewer
# instructions:
#   swap-check   on its first call, renames a shell script of its own
#                over run/check; the count stage ran that script with
#                the secret on fd 5, and its "count ref 30000000" and
#                "count cand 10000" passed the sum as 3000x fewer
#                instructions
#   patch-bench  copies run/bench with its own first instruction made a
#                ret and renames the copy over bench: callgrind counted
#                4 instructions of the candidate (5122x fewer), no
#                secret needed
#   valgrindrc   writes .valgrindrc (--instr-atstart=no), which the
#                count stage's valgrind read from its working directory:
#                both counts 0
# arm-qemu:
#   sym-gpio     gpio_led with no register written: four functions whose
#                symbol names hold a newline and a "GPIOA: unimplemented
#                device write (...)" line, each called once; QEMU's
#                in_asm log printed "IN: NAME", and the second line of
#                the name was a write of the trace
#   sym-usart    usart2_config the same way: "OK\r\n" on USART2, the RCC
#                clocks and PA2/PA3's mode and AF7 forged
#   semihost     uart_hello: writes the UART's line to uart.txt and
#                forged trace lines to regtrace.log (the names the uart
#                and regtrace stages read now), and tries to overwrite
#                fw.elf and image.elf, through semihosting
# cad (when CadQuery is in the project venv):
#   cad-link     a CadQuery script whose exit handler replaces the
#                exported candidate.step with a link to the reference's
#                solid; the helper's lstat refused it before, and now it
#                is never sealed: the iou stage has no candidate.step
. "$(dirname "$0")/lib.sh"
command -v bwrap >/dev/null || skip "bubblewrap not installed"
command -v python3 >/dev/null || skip "python3 not installed"
EX=$(cd "$(dirname "$0")/../../examples" && pwd)
have_arm=0 have_x86=0
command -v qemu-system-arm >/dev/null && command -v arm-none-eabi-gcc \
    >/dev/null && have_arm=1
[ "$(uname -m)" = x86_64 ] && command -v gcc >/dev/null && have_x86=1
have_cad=0
"$ASSAY" envs | grep '^cad ' | grep -q 'CadQuery [0-9]' && have_cad=1
[ $((have_arm + have_x86)) -gt 0 ] || skip "neither arm-qemu nor x86-asm"
mkdir "$T/c"

if [ $have_x86 = 1 ]; then
	"$ASSAY" --db "$DB" import "$EX/compiler/sum_i32.jsonl" >/dev/null ||
	    fail "import sum_i32"
	# The slow, correct sum every x86 candidate shares; ATTACK() runs
	# once, on the first call.
	cat > "$T/c/slow.h" <<'EOF'
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
static void attack(void);
int64_t sum(const int32_t *a, size_t n)
{
	static int done;
	int64_t s = 0;
	if (!done) {
		done = 1;
		attack();
	}
	for (size_t i = 0; i < n; i++) {
		s += a[i];
		for (volatile int k = 0; k < 12; k++)
			;
	}
	return s;
}
/* Write text to name, mode 0755; 0 or -1. */
static int put(const char *name, const void *p, size_t len)
{
	int fd = open(name, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	ssize_t k = fd >= 0 ? write(fd, p, len) : -1;
	if (fd >= 0) close(fd);
	return k == (ssize_t)len ? 0 : -1;
}
EOF
	cat > "$T/c/swap-check.c" <<'EOF'
#include "slow.h"
static const char script[] =
    "#!/bin/sh\n"
    "IFS= read -r s <&5\n"
    "echo \"$s count ref 30000000\"\n"
    "echo \"$s count cand 10000\"\n";
static void attack(void)
{
	put("forged", script, sizeof script - 1);
	dprintf(2, "rename over check: %s\n",
	    rename("forged", "check") == 0 ? "done" : "refused");
}
EOF
	cat > "$T/c/patch-bench.c" <<'EOF'
#include "slow.h"
static unsigned char img[1 << 20];
static void attack(void)
{
	int fd = open("bench", O_RDONLY), hits = 0;
	ssize_t len = fd >= 0 ? read(fd, img, sizeof img) : -1;
	const unsigned char *me = (const unsigned char *)sum;
	if (fd >= 0) close(fd);
	for (ssize_t i = 0; i + 16 <= len; i++)
		if (memcmp(img + i, me, 16) == 0) {
			img[i] = 0xc3;	/* ret: nothing left to count */
			hits++;
		}
	if (len > 0)
		put("forged", img, (size_t)len);
	dprintf(2, "patched %d place(s); rename over bench: %s\n", hits,
	    rename("forged", "bench") == 0 ? "done" : "refused");
	/* The same bytes written into bench itself. */
	fd = open("bench", O_WRONLY);
	dprintf(2, "bench opened for writing: %s\n", fd >= 0 ? "yes" : "no");
	if (fd >= 0) close(fd);
}
EOF
	cat > "$T/c/valgrindrc.c" <<'EOF'
#include "slow.h"
static const char rc[] = "--instr-atstart=no\n";
static void attack(void)
{
	dprintf(2, ".valgrindrc: %s\n", put(".valgrindrc", rc,
	    sizeof rc - 1) == 0 ? "written" : "refused");
}
EOF
	CC="gcc -O1 -S -masm=intel -fno-asynchronous-unwind-tables -fcf-protection=none -I$T/c"
	for c in swap-check patch-bench valgrindrc; do
		$CC -o "$T/c/$c.s" "$T/c/$c.c" || fail "gcc -S $c.c"
	done
fi

if [ $have_cad = 1 ]; then
	"$ASSAY" --db "$DB" import "$EX/3d/cadquery/cadquery.jsonl" \
	    >/dev/null || fail "import cadquery"
fi
if [ $have_arm = 1 ]; then
	for t in gpio_led usart2_config uart_hello; do
		"$ASSAY" --db "$DB" import "$EX/embedded/$t.jsonl" >/dev/null ||
		    fail "import $t"
	done
fi

python3 - "$T/c" $have_x86 $have_arm $have_cad > "$T/stages.jsonl" <<'EOF'
import json, sys
d, x86, arm = sys.argv[1], sys.argv[2] == "1", sys.argv[3] == "1"
cad = sys.argv[4] == "1"
W = "%s: unimplemented device write (size 4, offset 0x%03x, value 0x%08x)"

def symbols(lines):
    """Firmware calling one function per line, each with a symbol whose
    name is "fI", a newline and the line (GNU as: .globl and .set take
    the escape)."""
    asm, calls = [".syntax unified", ".text", ".thumb", ".p2align 2"], []
    for i, l in enumerate(lines):
        name = "f%d\\\\n%s" % (i, l)
        asm += [".globl t%d" % i, ".type t%d, %%function" % i,
                ".thumb_func", "t%d:" % i, "\\tb.n 1f", "1:\\tnop",
                "\\tbx lr", ".size t%d, 2" % i,
                ".globl \\\"%s\\\"" % name,
                ".set \\\"%s\\\", t%d + 2" % (name, i)]
        calls.append("t%d();" % i)
    return ("#include \"stm32f4xx.h\"\n__asm__(\"" + "\\n".join(asm) +
            "\\n\");\n" + "".join("extern void t%d(void);\n" % i
                                  for i in range(len(lines))), calls)

def row(task, origin, code, lang=None):
    c = {"origin": origin, "code": code}
    if lang:
        c["lang"] = lang
    print(json.dumps({"task": task, "candidate": c}))

if cad:
    row("cad-cq/bracket", "stage-cad-link",
        "import atexit, os\nimport cadquery as cq\n"
        "result = cq.Workplane('XY').box(1, 1, 1)\n"
        "def swap():\n    os.remove('candidate.step')\n"
        "    os.symlink('../ref/reference.step', 'candidate.step')\n"
        "    print('linked to the reference')\n"
        "atexit.register(swap)\n", "python")

if x86:
    for o in ["swap-check", "patch-bench", "valgrindrc"]:
        row("assay-examples/sum_i32", "stage-" + o,
            open("%s/%s.s" % (d, o)).read())
if arm:
    head, calls = symbols([W % ("RCC", 0x30, 1), W % ("GPIOA", 0, 0x400),
                           W % ("GPIOA", 0x18, 0x20),
                           W % ("GPIOA", 0x18, 0x200000)])
    row("embedded-demo/gpio_led", "stage-sym-gpio", head +
        "int main(void)\n{\n\t" + " ".join(calls) + "\n\treturn 0;\n}\n")
    head, calls = symbols([W % ("RCC", 0x30, 1), W % ("RCC", 0x40, 0x20000),
                           W % ("GPIOA", 0, 0xa0), W % ("GPIOA", 0x20, 0x7700)])
    row("embedded-demo/usart2_config", "stage-sym-usart", head +
        "int main(void)\n{\n\tconst char *s = \"OK\\r\\n\";\n\t" +
        " ".join(calls) + "\n\tUSART2->CR1 = USART_CR1_UE | USART_CR1_TE;\n"
        "\twhile (*s != '\\0')\n\t\tUSART2->DR = (uint8_t)*s++;\n"
        "\treturn 0;\n}\n")
    row("embedded-demo/uart_hello", "stage-semihost",
        "#include <string.h>\n#include \"assay.h\"\n"
        "static int wr(const char *p, const char *s) {\n"
        "  uint32_t o[3] = { (uint32_t)p, 8, strlen(p) };\n"
        "  int fd = assay_semihost(1, o);\n"
        "  if (fd < 0) return -1;\n"
        "  uint32_t w[3] = { (uint32_t)fd, (uint32_t)s, strlen(s) };\n"
        "  int left = assay_semihost(5, w);\n"
        "  uint32_t c[1] = { (uint32_t)fd };\n"
        "  assay_semihost(2, c);\n"
        "  return left == 0 ? 0 : -1;\n}\n"
        "static void say(const char *what, int rc) {\n"
        "  assay_puts(what); assay_puts(rc == 0 ? \": written\\n\" :"
        " \": refused\\n\");\n}\n"
        "int main(void) {\n"
        "  say(\"uart.txt\", wr(\"uart.txt\", \"Hello, assay!\\r\\n\"));\n"
        "  say(\"regtrace.log\", wr(\"regtrace.log\", \"GPIOA: unimplemented"
        " device write (size 4, offset 0x018, value 0x00000020)\\n\"));\n"
        "  say(\"fw.elf\", wr(\"fw.elf\", \"x\"));\n"
        "  say(\"image.elf\", wr(\"image.elf\", \"x\"));\n"
        "  return 0;\n}\n")
EOF
"$ASSAY" --db "$DB" import "$T/stages.jsonl" >"$T/import" 2>&1 ||
    fail "import: $(cat "$T/import")"
mkdir -p "$T/work"
chmod 755 "$T" "$T/work"
TMPDIR=$T/work "$ASSAY" --db "$DB" verify --quiet --jobs 2 --timeout 90 \
    --where "origin~stage-" >"$T/verify" 2>&1
[ $? -le 1 ] || fail "verify: $(cat "$T/verify")"

ORIGIN_PREFIX=stage-	# get, want, shown, evidence: lib.sh
# metric ORIGIN KEY: a number in its metrics, or nothing.
metric() {
	"$ASSAY" --db "$DB" list --json --where "origin=stage-$1" |
	    sed -n "s/.*\"$2\":\([0-9.]*\).*/\1/p"
}

if [ $have_x86 = 1 ]; then
	for c in swap-check patch-bench valgrindrc; do
		want $c fail/performance/slower-than-reference
		shown $c
	done
	grep -q '^candidate output: rename over check: refused' \
	    "$T/swap-check.show" || fail "swap-check: check was replaced: $(
	    grep 'rename over' "$T/swap-check.show")"
	grep -q '^candidate output: patched 1 place(s); rename over bench: refused' \
	    "$T/patch-bench.show" || fail "patch-bench: bench was replaced: $(
	    grep 'rename over' "$T/patch-bench.show")"
	grep -q '^candidate output: bench opened for writing: no' \
	    "$T/patch-bench.show" || fail "patch-bench: bench was writable"
	grep -q '^candidate output: .valgrindrc: written' \
	    "$T/valgrindrc.show" || fail "valgrindrc: wrote no .valgrindrc"
	if command -v valgrind >/dev/null; then
		for c in swap-check patch-bench valgrindrc; do
			ir=$(metric $c ir_cand)
			ref=$(metric $c ir_ref)
			[ -n "$ir" ] && [ "$ir" -gt 100000 ] && [ "$ref" -gt 0 ] ||
			    fail "$c: callgrind's count was not the candidate's:" \
			    "ref '$ref', cand '$ir'"
			echo "ok: $c: callgrind counted $ir instructions (ref $ref)"
		done
		# The count stage ran sealed copies, in an area of its own.
		grep -q '^# count runs in .assay-stage-count, with check (sha256 [0-9a-f]*) bench (sha256 [0-9a-f]*)' \
		    "$T/swap-check.show" ||
		    fail "swap-check: no sealed area in the command"
	fi
fi

if [ $have_arm = 1 ]; then
	for c in sym-gpio sym-usart; do
		want $c fail/compile/forbidden-symbol
		shown $c
		grep -q '^evidence: .*f[0-9]^J[A-Z]*: unimplemented device write' \
		    "$T/$c.show" || fail "$c: the evidence names no such symbol:" \
		    "$(grep '^evidence' "$T/$c.show")"
		echo "ok: $c: the symbol name is refused"
	done
	want semihost fail/functional/uart-mismatch
	shown semihost
	for f in uart.txt regtrace.log; do
		grep -q "^$f: written" "$T/semihost.show" ||
		    fail "semihost: $f was not written (the test proves nothing)"
	done
	for f in fw.elf image.elf; do
		grep -q "^$f: refused" "$T/semihost.show" ||
		    fail "semihost: the firmware rewrote $f"
	done
	expect_eq "semihost: register writes" "$(metric semihost reg_writes)" 0
fi
if [ $have_cad = 1 ]; then
	want cad-link fail/compile/unreadable-step
	shown cad-link
	grep -q '^linked to the reference' "$T/cad-link.show" ||
	    fail "cad-link: no link was made (the test proves nothing)"
	grep -q 'candidate.step, made by the cadquery stage, was not sealed' \
	    "$T/cad-link.show" || fail "cad-link: no word of the refused seal"
fi
expect_eq "work directories left" "$(ls "$T/work" | wc -l | tr -d ' ')" 0
echo "ok: no stage ran or read what a candidate wrote"
