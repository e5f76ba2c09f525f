# 027: wrong firmware and wrong assembly that used to pass (issue 10,
# items 6 and 7), each asserting its non-pass verdict and subcategory,
# and that nothing appeared on the host.
#
# arm-qemu (task uart_hello: "Hello, assay!\r\n" on USART1, exit 0):
#   forge-uart   never touches the USART; writes the expected line through
#                semihosting to every name the UART's file could have
#                (uart.txt, ev/uart.txt, QEMU's fd set, /proc/self/fd):
#                fail/uart-mismatch
#   shell        asks semihosting SYS_SYSTEM to write the UART's file:
#                QEMU's sandbox kills it, fail/forbidden-call
#   fill         writes 5 files of 60 MiB through semihosting, into
#                /dev/shm when it can (uncounted, the host's memory), else
#                into run/, past the work directory's cap:
#                fail/resource-limit
# x86-asm (task sum_i32):
#   big-n        correct up to n = 1024, 0 above (the timing used 4096):
#                fail/mismatch
#   later        correct for its first 2100 calls (about the check's), 0
#                after: fail/mismatch (MISMATCH while timing)
. "$(dirname "$0")/lib.sh"
command -v bwrap >/dev/null || skip "bubblewrap not installed"
EX=$(cd "$(dirname "$0")/../../examples" && pwd)
have_arm=0 have_x86=0
command -v qemu-system-arm >/dev/null && command -v arm-none-eabi-gcc \
    >/dev/null && have_arm=1
[ "$(uname -m)" = x86_64 ] && command -v gcc >/dev/null && have_x86=1
[ $((have_arm + have_x86)) -gt 0 ] || skip "neither arm-qemu nor x86-asm"

ATASK=embedded-demo/uart_hello
XTASK=assay-examples/sum_i32
"$ASSAY" --db "$DB" import "$EX/embedded/uart_hello.jsonl" >/dev/null || fail "import arm"
"$ASSAY" --db "$DB" import "$EX/compiler/sum_i32.jsonl" >/dev/null || fail "import x86"

FW='#include \"stm32f4xx.h\"\n#include \"assay.h\"\n#include <string.h>\nstatic char big[32768];\nstatic int wr(const char *p, const char *s, uint32_t n) {\n  uint32_t o[3] = { (uint32_t)p, 8, strlen(p) };\n  int fd = assay_semihost(1, o);\n  if (fd < 0) return -1;\n  uint32_t w[3] = { (uint32_t)fd, (uint32_t)s, n };\n  int left = assay_semihost(5, w);\n  uint32_t c[1] = { (uint32_t)fd };\n  assay_semihost(2, c);\n  return left;\n}\n'
LINE='Hello, assay!\\r\\n'
FORGE="$FW"'int main(void) {\n  const char *names[] = { \"uart.txt\", \"ev/uart.txt\", \"/dev/fdset/1\", \"/proc/self/fd/3\", \"/dev/stdout\" };\n  for (int i = 0; i < 5; i++) wr(names[i], \"'"$LINE"'\", 15);\n  return 0;\n}\n'
SHELL_FW="$FW"'int main(void) {\n  const char *cmd = \"printf '"'"'Hello, assay!\\\\r\\\\n'"'"' > ev/uart.txt\";\n  uint32_t a[2] = { (uint32_t)cmd, strlen(cmd) };\n  assay_semihost(0x12, a);\n  return 0;\n}\n'
FILL="$FW"'int main(void) {\n  char shm[16] = \"/dev/shm/big0\", name[8] = \"big0\";\n  for (int f = 0; f < 5; f++) {\n    shm[12] = name[3] = (char)(48 + f);\n    uint32_t s[3] = { (uint32_t)shm, 8, 13 };\n    int fd = assay_semihost(1, s);\n    uint32_t o[3] = { (uint32_t)name, 8, 4 };\n    if (fd < 0) fd = assay_semihost(1, o);\n    if (fd < 0) break;\n    for (int i = 0; i < 1920; i++) {\n      uint32_t w[3] = { (uint32_t)fd, (uint32_t)big, sizeof big };\n      if (assay_semihost(5, w) != 0) break;\n    }\n    uint32_t c[1] = { (uint32_t)fd };\n    assay_semihost(2, c);\n  }\n  return 0;\n}\n'
# sum(a, n) in Intel syntax; GUARD may jump to 5 (return 0).
xsum() {
	printf '%s' '\t.intel_syntax noprefix\n\t.text\n\t.globl sum\nsum:\n'"$1"'\txor eax, eax\n\ttest rsi, rsi\n\tje 4f\n3:\tmovsxd rdx, dword ptr [rdi]\n\tadd rax, rdx\n\tadd rdi, 4\n\tdec rsi\n\tjne 3b\n4:\tret\n5:\txor eax, eax\n\tret\n'"$2"
}
BIGN=$(xsum '\tcmp rsi, 1024\n\tja 5f\n' '')
LATER=$(xsum '\tinc qword ptr [rip+calls]\n\tcmp qword ptr [rip+calls], 2100\n\tja 5f\n' '\t.bss\n\t.p2align 3\ncalls:\t.zero 8\n')
{
	if [ $have_arm = 1 ]; then
		printf '{"task": "%s", "candidate": {"origin": "forge-uart", "code": "%s"}}\n' "$ATASK" "$FORGE"
		printf '{"task": "%s", "candidate": {"origin": "shell", "code": "%s"}}\n' "$ATASK" "$SHELL_FW"
		printf '{"task": "%s", "candidate": {"origin": "fill", "code": "%s"}}\n' "$ATASK" "$FILL"
	fi
	if [ $have_x86 = 1 ]; then
		printf '{"task": "%s", "candidate": {"origin": "big-n", "code": "%s"}}\n' "$XTASK" "$BIGN"
		printf '{"task": "%s", "candidate": {"origin": "later", "code": "%s"}}\n' "$XTASK" "$LATER"
	fi
} > "$T/forgery.jsonl"
"$ASSAY" --db "$DB" import "$T/forgery.jsonl" >"$T/import" 2>&1 || fail "import: $(cat "$T/import")"

mkdir -p "$T/work"
chmod 755 "$T" "$T/work"
TMPDIR=$T/work "$ASSAY" --db "$DB" verify --quiet --jobs 2 --timeout 60 \
    --where "source~forgery.jsonl" >"$T/verify" 2>&1
# want ORIGIN VERDICT/CATEGORY/SUBCATEGORY: lib.sh
if [ $have_arm = 1 ]; then
	want forge-uart fail/functional/uart-mismatch
	want shell fail/functional/forbidden-call
	want fill fail/functional/resource-limit
fi
if [ $have_x86 = 1 ]; then
	want big-n fail/functional/mismatch
	want later fail/functional/mismatch
	id=$("$ASSAY" --db "$DB" list --where origin=later | awk 'NR==2 {print $1}')
	"$ASSAY" --db "$DB" show "$id" | grep -q '^MISMATCH while timing' ||
	    fail "later: no MISMATCH while timing line"
fi
# Nothing outside the work directories, and none of them left.
expect_eq "work directories left" "$(ls "$T/work" | wc -l | tr -d ' ')" 0
echo "ok: no host side effect"
