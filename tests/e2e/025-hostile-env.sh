# 025: the host's environment never reaches a stored log (issue 10,
# item 1).  verify runs with a canary variable in its environment and
# HOME under a directory named after the canary, over candidates that
# print /proc/1/environ, /proc/1/cmdline and /proc/self/mountinfo from
# inside the sandbox: Verilog ($fopen; after issue 22 a candidate's
# $fopen is refused before it runs, which the test accepts), x86-64
# assembly (raw syscalls) and firmware (semihosting SYS_OPEN/SYS_READ;
# after issue 10 item 6 the firmware can open nothing, which the test
# accepts).  The canary must be
# in no stored run (show --json of every candidate and the database file
# itself), and the reads must have worked: each log shows the sandbox's
# own environment (PATH=...) and bwrap's command line without its
# options (bwrap --args 3).
. "$(dirname "$0")/lib.sh"
need_data
command -v bwrap >/dev/null || skip "bubblewrap not installed"

CANARY=canary-$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')
EX=$(cd "$(dirname "$0")/../../examples" && pwd)
VTASK=verilog-eval-v2/Prob001_zero
XTASK=assay-examples/sum_i32
ATASK=embedded-demo/uart_hello
have_iverilog=0 have_x86=0 have_arm=0
command -v iverilog >/dev/null && have_iverilog=1
[ "$(uname -m)" = x86_64 ] && command -v gcc >/dev/null && have_x86=1
command -v qemu-system-arm >/dev/null && command -v arm-none-eabi-gcc \
    >/dev/null && have_arm=1
[ $((have_iverilog + have_x86 + have_arm)) -gt 0 ] || skip "no toolchain"

"$ASSAY" --db "$DB" import "$DATA/verilog-eval-v2" >/dev/null || fail "import v2"
"$ASSAY" --db "$DB" import "$EX/compiler/sum_i32.jsonl" >/dev/null || fail "import x86"
"$ASSAY" --db "$DB" import "$EX/embedded/uart_hello.jsonl" >/dev/null || fail "import arm"

# Verilog: print each file a byte at a time, NULs as newlines.
V='module TopModule(output zero);\n  assign zero = 1'"'"'b0;\n  integer f, c;\n  task dump(input [8*32-1:0] path);\n    begin\n      f = $fopen(path, \"r\");\n      if (f == 0) $display(\"open refused\");\n      if (f != 0) begin\n        c = $fgetc(f);\n        while (c != -1) begin\n          $write(\"%c\", c == 0 ? 10 : c);\n          c = $fgetc(f);\n        end\n        $fclose(f);\n      end\n      $display(\"\");\n    end\n  endtask\n  initial begin\n    dump(\"/proc/1/environ\");\n    dump(\"/proc/1/cmdline\");\n    dump(\"/proc/self/mountinfo\");\n  end\nendmodule\n'
# x86-64: on the first call, open/read/write the three files to fd 1
# (NULs as newlines), with caller-saved registers only; then a correct
# sum.
X='\t.intel_syntax noprefix\n\t.text\n\t.globl sum\nsum:\n\tcmp byte ptr [rip+done], 0\n\tjne 2f\n\tmov byte ptr [rip+done], 1\n\tpush rdi\n\tpush rsi\n\tsub rsp, 8\n\tlea rdi, [rip+p1]\n\tcall dump\n\tlea rdi, [rip+p2]\n\tcall dump\n\tlea rdi, [rip+p3]\n\tcall dump\n\tadd rsp, 8\n\tpop rsi\n\tpop rdi\n2:\txor eax, eax\n\ttest rsi, rsi\n\tje 4f\n3:\tmovsxd rdx, dword ptr [rdi]\n\tadd rax, rdx\n\tadd rdi, 4\n\tdec rsi\n\tjne 3b\n4:\tret\ndump:\n\tmov eax, 2\n\txor esi, esi\n\tsyscall\n\ttest eax, eax\n\tjs 9f\n\tmov r8d, eax\n\tmov edi, eax\n\tlea rsi, [rip+buf]\n\tmov edx, 65536\n\txor eax, eax\n\tsyscall\n\ttest rax, rax\n\tjle 8f\n\tmov rdx, rax\n\tlea rsi, [rip+buf]\n\txor ecx, ecx\n5:\tcmp byte ptr [rsi+rcx], 0\n\tjne 6f\n\tmov byte ptr [rsi+rcx], 10\n6:\tinc rcx\n\tcmp rcx, rdx\n\tjb 5b\n\tmov edi, 1\n\tmov eax, 1\n\tsyscall\n8:\tmov edi, r8d\n\tmov eax, 3\n\tsyscall\n9:\tret\n\t.data\np1:\t.asciz \"/proc/1/environ\"\np2:\t.asciz \"/proc/1/cmdline\"\np3:\t.asciz \"/proc/self/mountinfo\"\ndone:\t.byte 0\n\t.bss\nbuf:\t.zero 65536\n'
# Firmware: semihosting SYS_OPEN (1) and SYS_READ (6), NULs as newlines,
# printed with SYS_WRITE0; then the UART line the task wants.
A='#include \"stm32f4xx.h\"\n#include \"assay.h\"\n#include <string.h>\nstatic char buf[4096];\nstatic void dump(const char *p) {\n  uint32_t o[3] = { (uint32_t)p, 0, strlen(p) };\n  int fd = assay_semihost(1, o);\n  if (fd < 0) { assay_puts(\"open refused\\n\"); return; }\n  uint32_t r[3] = { (uint32_t)fd, (uint32_t)buf, sizeof buf - 1 };\n  int left = assay_semihost(6, r);\n  int n = (int)(sizeof buf - 1) - left;\n  for (int i = 0; i < n; i++) if (buf[i] == 0) buf[i] = 10;\n  buf[n > 0 ? n : 0] = 0;\n  assay_puts(buf);\n  assay_puts(\"\\n\");\n}\nstatic void putc1(char c) { while (!(USART1->SR & USART_SR_TXE)); USART1->DR = (uint8_t)c; }\nint main(void) {\n  dump(\"/proc/1/environ\");\n  dump(\"/proc/1/cmdline\");\n  dump(\"/proc/self/mountinfo\");\n  RCC->APB2ENR |= RCC_APB2ENR_USART1EN;\n  USART1->BRR = 0x8B;\n  USART1->CR1 = USART_CR1_UE | USART_CR1_TE;\n  for (const char *s = \"Hello, assay!\\r\\n\"; *s; s++) putc1(*s);\n  while (!(USART1->SR & USART_SR_TC));\n  return 0;\n}\n'
{
	[ $have_iverilog = 1 ] && printf '{"task": "%s", "candidate": {"origin": "leak-verilog", "code": "%s"}}\n' "$VTASK" "$V"
	[ $have_x86 = 1 ] && printf '{"task": "%s", "candidate": {"origin": "leak-x86", "code": "%s"}}\n' "$XTASK" "$X"
	[ $have_arm = 1 ] && printf '{"task": "%s", "candidate": {"origin": "leak-firmware", "code": "%s"}}\n' "$ATASK" "$A"
} > "$T/leak.jsonl"
"$ASSAY" --db "$DB" import "$T/leak.jsonl" >"$T/import" 2>&1 || fail "import leak: $(cat "$T/import")"

mkdir -p "$T/home-$CANARY"
chmod 755 "$T" "$T/home-$CANARY"
ASSAY_CANARY_TOKEN=$CANARY HOME=$T/home-$CANARY MY_API_TOKEN=$CANARY \
    "$ASSAY" --db "$DB" verify --quiet --jobs 2 --where "origin~leak-" \
    >"$T/verify" 2>&1 || fail "verify: $(cat "$T/verify")"

for origin in leak-verilog leak-x86 leak-firmware; do
	id=$("$ASSAY" --db "$DB" list --where "origin=$origin" | awk 'NR==2 {print $1}')
	[ -n "$id" ] || continue
	"$ASSAY" --db "$DB" show "$id" --json > "$T/$origin.json" || fail "show $origin"
	grep -q '"verdict":"\(pass\|fail\)"' "$T/$origin.json" ||
	    fail "$origin did not run: $(head -c 2000 "$T/$origin.json")"
	if grep -q "$CANARY" "$T/$origin.json"; then
		fail "$origin: the canary reached the stored run: $(grep -o ".\{60\}$CANARY.\{20\}" "$T/$origin.json" | head -n 3)"
	fi
	echo "ok: $origin: no canary in the stored run"
	# An x86 candidate's output comes back marked (it runs in a
	# process of its own, ADR 0020).
	"$ASSAY" --db "$DB" show "$id" | sed -n '/^log:$/,$p' |
	    sed 's/^candidate output: //' > "$T/$origin.log"
	[ $origin = leak-firmware ] && grep -q '^open refused' "$T/$origin.log" && {
		echo "ok: $origin: semihosting opens nothing"; continue; }
	[ $origin = leak-verilog ] && grep -q '"subcategory":"forbidden-call"' "$T/$origin.json" && {
		echo "ok: $origin: its \$fopen is refused before it runs"; continue; }
	# The Verilog simulation runs without /proc (ADR 0005): all three
	# opens must fail.
	[ $origin = leak-verilog ] && [ "$(grep -c '^open refused' "$T/$origin.log")" = 3 ] && {
		echo "ok: $origin: the simulation has no /proc"; continue; }
	grep -q '^PATH=/usr/' "$T/$origin.log" ||
	    fail "$origin: /proc/1/environ was not read (the test proves nothing)"
	# bwrap's command line: its options (host paths) went through a pipe.
	tr '\n' ' ' < "$T/$origin.log" | grep -q 'bwrap --args 3 \(--seccomp 4 \)\?-- ' ||
	    fail "$origin: /proc/1/cmdline was not read or shows bwrap's options"
	grep -q ' /work ' "$T/$origin.log" ||
	    fail "$origin: mountinfo was not read"
	echo "ok: $origin: read its sandbox's environ, cmdline and mountinfo"
done
# The database as stored (and its journal) holds no canary either.
if cat "$DB"* | grep -a -q "$CANARY"; then
	fail "the canary is in the database file"
fi
echo "ok: no canary in the database"
