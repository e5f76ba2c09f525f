# 026: hostile x86-64 candidates against the sandbox's bounds (issue 10,
# items 2, 3 and 8): each is a correct sum() that first attacks, so that
# only the attack can make it anything but a pass.
#
#   fill-tmp     writes 20 files of 32 MiB into /tmp (each under the
#                file-size limit, together past the 256 MiB disk cap):
#                fail/resource-limit, nothing left on the host
#   shm          creates /dev/shm/NAME and, when it could, sums one
#                element short: /dev is read-only, so it passes
#   ptrace       ptrace(PTRACE_TRACEME), PTRACE_ATTACH of the sandbox's
#                PID 1 (bubblewrap),
#                process_vm_readv of it, and when either worked sums
#                short: the seccomp filter refuses both, so it passes
#   userns       unshare(CLONE_NEWUSER), clone(CLONE_NEWUSER) and
#                mount of a tmpfs, summing short when one worked:
#                refused, so it passes
#   kill-self    kill(getpid(), SIGKILL): the candidate's own process
#                (bench, ADR 0020) dies, and the checker says so:
#                fail/crash, not timeout
#   kill-parent  kill(getppid(), SIGKILL) and kill(1, SIGKILL), both
#                refused (the candidate may signal itself only), then
#                kill(getpid(), SIGKILL): fail/crash
#
# The workbench's /tmp is the host's: nothing may appear there.
. "$(dirname "$0")/lib.sh"
command -v bwrap >/dev/null || skip "bubblewrap not installed"
[ "$(uname -m)" = x86_64 ] || skip "x86-asm needs an x86-64 host"
command -v gcc >/dev/null || skip "gcc not installed"

EX=$(cd "$(dirname "$0")/../../examples" && pwd)
TASK=assay-examples/sum_i32
"$ASSAY" --db "$DB" import "$EX/compiler/sum_i32.jsonl" >/dev/null || fail "import x86"

# The correct sum after the attack, which runs on the first call, jumps
# to 1 when it is done and keeps the arguments on the stack.
SUM='1:\tadd rsp, 8\n\tpop rsi\n\tpop rdi\n2:\txor eax, eax\n\ttest rsi, rsi\n\tje 4f\n3:\tmovsxd rdx, dword ptr [rdi]\n\tadd rax, rdx\n\tadd rdi, 4\n\tdec rsi\n\tjne 3b\n4:\tret\n'
HEAD='\t.intel_syntax noprefix\n\t.text\n\t.globl sum\nsum:\n\tcmp byte ptr [rip+done], 0\n\tjne 2f\n\tmov byte ptr [rip+done], 1\n\tpush rdi\n\tpush rsi\n\tsub rsp, 8\n'
# SIGALRM blocked (the harness's 2 s a call must not end it first);
# open(name, O_WRONLY|O_CREAT|O_TRUNC, 0644), 512 writes of 64 KiB,
# close; 20 names /tmp/fa ... /tmp/ft.
FILL='\tmov eax, 14\n\txor edi, edi\n\tlea rsi, [rip+alrm]\n\txor edx, edx\n\tmov r10d, 8\n\tsyscall\n\txor r9d, r9d\n5:\tlea rdi, [rip+name]\n\tmov eax, r9d\n\tadd eax, 97\n\tmov byte ptr [rdi+6], al\n\tmov eax, 2\n\tmov esi, 0x241\n\tmov edx, 420\n\tsyscall\n\ttest eax, eax\n\tjs 1f\n\tmov r8d, eax\n\tmov r10d, 512\n6:\tmov edi, r8d\n\tlea rsi, [rip+buf]\n\tmov edx, 65536\n\tmov eax, 1\n\tsyscall\n\ttest rax, rax\n\tjle 7f\n\tdec r10d\n\tjne 6b\n7:\tmov edi, r8d\n\tmov eax, 3\n\tsyscall\n\tinc r9d\n\tcmp r9d, 20\n\tjb 5b\n'
FILLDATA='\t.data\nname:\t.asciz \"/tmp/fa\"\ndone:\t.byte 0\n\t.p2align 3\nalrm:\t.quad 0x2000\n\t.bss\nbuf:\t.zero 65536\n'
SHM='\tlea rdi, [rip+name]\n\tmov eax, 2\n\tmov esi, 0x241\n\tmov edx, 420\n\tsyscall\n\ttest eax, eax\n\tjs 1f\n\tdec qword ptr [rsp+8]\n'
SHMDATA='\t.data\nname:\t.asciz \"/dev/shm/assay-hostile-shm\"\ndone:\t.byte 0\n'
# ptrace(PTRACE_TRACEME) (allowed anywhere but under the filter);
# ptrace(PTRACE_ATTACH, 1, 0, 0); process_vm_readv(1, iov, 1, iov, 1, 0)
PTRACE='\tmov eax, 101\n\txor edi, edi\n\txor esi, esi\n\txor edx, edx\n\txor r10d, r10d\n\tsyscall\n\ttest eax, eax\n\tjne 7f\n\tdec qword ptr [rsp+8]\n7:\tmov eax, 101\n\tmov edi, 16\n\tmov esi, 1\n\txor edx, edx\n\txor r10d, r10d\n\tsyscall\n\ttest eax, eax\n\tjne 8f\n\tdec qword ptr [rsp+8]\n8:\tmov eax, 310\n\tmov edi, 1\n\tlea rsi, [rip+iov]\n\tmov edx, 1\n\tlea r10, [rip+iov]\n\tmov r8d, 1\n\txor r9d, r9d\n\tsyscall\n\ttest rax, rax\n\tjle 1f\n\tdec qword ptr [rsp+8]\n'
PTRACEDATA='\t.data\ndone:\t.byte 0\n\t.p2align 3\niov:\t.quad buf\n\t.quad 8\nbuf:\t.quad 0\n'
# unshare(CLONE_NEWUSER); clone(CLONE_NEWUSER|SIGCHLD) (a child that
# exits at once); mount("none", "/tmp", "tmpfs", 0, 0)
USERNS='\tmov eax, 272\n\tmov edi, 0x10000000\n\tsyscall\n\ttest eax, eax\n\tjne 8f\n\tdec qword ptr [rsp+8]\n8:\tmov eax, 56\n\tmov edi, 0x10000011\n\txor esi, esi\n\txor edx, edx\n\txor r10d, r10d\n\txor r8d, r8d\n\tsyscall\n\ttest rax, rax\n\tjne 9f\n\tmov eax, 60\n\txor edi, edi\n\tsyscall\n9:\tjs 10f\n\tdec qword ptr [rsp+8]\n10:\tmov eax, 165\n\tlea rdi, [rip+s_none]\n\tlea rsi, [rip+s_tmp]\n\tlea rdx, [rip+s_fs]\n\txor r10d, r10d\n\txor r8d, r8d\n\tsyscall\n\ttest eax, eax\n\tjne 1f\n\tdec qword ptr [rsp+8]\n'
USERNSDATA='\t.data\ndone:\t.byte 0\ns_none:\t.asciz \"none\"\ns_tmp:\t.asciz \"/tmp\"\ns_fs:\t.asciz \"tmpfs\"\n'
# kill(getpid() / getppid() / 1, SIGKILL)
KILLSELF='\tmov eax, 39\n\tsyscall\n\tmov edi, eax\n\tmov esi, 9\n\tmov eax, 62\n\tsyscall\n'
KILLPARENT='\tmov eax, 110\n\tsyscall\n\tmov edi, eax\n\tmov esi, 9\n\tmov eax, 62\n\tsyscall\n\tmov edi, 1\n\tmov esi, 9\n\tmov eax, 62\n\tsyscall\n'"$KILLSELF"
KILLDATA='\t.data\ndone:\t.byte 0\n'
{
	printf '{"task": "%s", "candidate": {"origin": "kill-self", "code": "%s"}}\n' "$TASK" "$HEAD$KILLSELF$SUM$KILLDATA"
	printf '{"task": "%s", "candidate": {"origin": "kill-parent", "code": "%s"}}\n' "$TASK" "$HEAD$KILLPARENT$SUM$KILLDATA"
	printf '{"task": "%s", "candidate": {"origin": "ptrace", "code": "%s"}}\n' "$TASK" "$HEAD$PTRACE$SUM$PTRACEDATA"
	printf '{"task": "%s", "candidate": {"origin": "userns", "code": "%s"}}\n' "$TASK" "$HEAD$USERNS$SUM$USERNSDATA"
	printf '{"task": "%s", "candidate": {"origin": "fill-tmp", "code": "%s"}}\n' "$TASK" "$HEAD$FILL$SUM$FILLDATA"
	printf '{"task": "%s", "candidate": {"origin": "shm", "code": "%s"}}\n' "$TASK" "$HEAD$SHM$SUM$SHMDATA"
} > "$T/hostile.jsonl"
"$ASSAY" --db "$DB" import "$T/hostile.jsonl" >"$T/import" 2>&1 || fail "import: $(cat "$T/import")"

ls /tmp/fa /dev/shm/assay-hostile-shm 2>/dev/null && fail "left over from an earlier run"
"$ASSAY" --db "$DB" verify --quiet --where "task=$TASK origin!=reference" \
    >"$T/verify" 2>&1
# want ORIGIN VERDICT/CATEGORY/SUBCATEGORY: lib.sh
want fill-tmp fail/functional/resource-limit
want shm pass/null/null
want kill-self fail/functional/crash
want kill-parent fail/functional/crash
want ptrace pass/null/null
want userns pass/null/null
[ ! -e /tmp/fa ] || fail "fill-tmp wrote the host's /tmp"
[ ! -e /dev/shm/assay-hostile-shm ] || fail "shm wrote the host's /dev/shm"
echo "ok: nothing written on the host"
