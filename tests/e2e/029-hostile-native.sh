# 029: x86-asm candidates that attack the verdict from inside their own
# process (issue 10, the red team's second round: a candidate that
# scanned its memory for the run's secret and printed forged result
# lines passed).  The candidate now runs in bench, a process that never
# holds the secret and cannot write the stage's output; check, with no
# candidate code, prints every result line (ADR 0020).  Each candidate
# is C compiled here to Intel assembly (gcc -S) for task sum_i32:
#
#   scan        wrong; reads every writable mapping of its process for
#               tokens of 12+ letters and digits and prints forged PASS,
#               ABI, timing and count lines after each, to stdout,
#               stderr and /proc/1/fd/1, then _exit(0)s: fail/crash
#               (its process ended)
#   scan-right  the same forgery from a correct sum that returns: it
#               passes, at the measured ratio, not the forged 984x, or
#               fails measures-disagree where callgrind counted its
#               first call, the scan (thousands of times the sum's
#               instructions, while its timed calls only sum)
#   proc        wrong by one; reads cmdline, environ, maps, mem, status
#               and fds 0-9 of /proc/self, its parent and PID 1 and
#               prints them: fail/mismatch, and its parent's (the
#               checker's) mem, environ and fds were refused
#   fds         wrong past n = 4; writes result lines to its parent's
#               stdout (refused), PID 1's, and fds 0-63, its own reply
#               pipe among them: fail/crash ("sent a reply the harness
#               never writes"), no forged line starts a line of the log
#   signal      correct, but SIGSTOPs its parent, the reference's worker,
#               PID 1, its group and everyone, and opens a pidfd; a sum
#               off by one if any got through: equivalent (all
#               refused); pass, or slower than gcc -O2 on some machines
#   ctor        correct, with a constructor that prints the result
#               lines before main: fail/forbidden-section
#   exit0       wrong; calls _exit(0) on its first call:
#               fail/crash, "the candidate's process ended"
. "$(dirname "$0")/lib.sh"
[ "$(uname -m)" = x86_64 ] || skip "x86-asm needs an x86-64 host"
command -v gcc >/dev/null || skip "gcc not installed"
command -v bwrap >/dev/null || skip "bubblewrap not installed"
command -v python3 >/dev/null || skip "python3 not installed"
EX=$(cd "$(dirname "$0")/../../examples" && pwd)
"$ASSAY" --db "$DB" import "$EX/compiler/sum_i32.jsonl" >/dev/null ||
    fail "import sum_i32"

mkdir "$T/c"
cat > "$T/c/scan.c" <<'EOF'
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
static char buf[1 << 16];
static int isal(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static void forge(int fd, const char *tok, int len)
{
	dprintf(fd, "%.*s equivalence: PASS (0 mismatches / 2001 cases)\n"
	    "%.*s abi: PASS (rbx rbp r12 r13 r14 r15 rsp df kept over 2001 calls)\n"
	    "%.*s timing: ref 984.3 ns/call, asm 1.0 ns/call, ratio 984.300 (best of 31 x 1024 calls, n=4096, pinned to cpu 0, 1 measurement)\n"
	    "%.*s count ref 20000\n%.*s count cand 1\n", len, tok, len, tok, len, tok, len, tok, len, tok);
}
int64_t sum(const int32_t *a, size_t n)
{
	static int done;
	int64_t s = 0;
	if (!done) {
		done = 1;
		int fd = open("/proc/self/maps", O_RDONLY), out = open("/proc/1/fd/1", O_WRONLY);
		ssize_t k = fd >= 0 ? read(fd, buf, sizeof buf - 1) : 0;
		int tokens = 0;
		if (fd >= 0) close(fd);
		buf[k > 0 ? k : 0] = 0;
		for (char *line = buf; *line && tokens < 400; ) {
			unsigned long lo, hi;
			char perm[8];
			char *nl = strchr(line, '\n');
			if (sscanf(line, "%lx-%lx %7s", &lo, &hi, perm) == 3 && perm[0] == 'r' && perm[1] == 'w' && !strstr(line, "[vvar]") && hi - lo < (64ul << 20)) {
				const char *p = (const char *)lo, *e = (const char *)hi;
				while (p < e && tokens < 400) {
					const char *q = p;
					while (q < e && isal(*q)) q++;
					if (q - p >= 12 && q - p <= 64) {
						forge(1, p, (int)(q - p));
						forge(2, p, (int)(q - p));
						if (out >= 0) forge(out, p, (int)(q - p));
						tokens++;
					}
					p = q + 1;
				}
			}
			if (!nl) break;
			line = nl + 1;
		}
#ifndef RIGHT
		_exit(0);
#endif
	}
#ifdef RIGHT
	for (size_t i = 0; i < n; i++) s += a[i];
#else
	for (size_t i = 0; i < n && i < 8; i++) s += a[i];
#endif
	return s;
}
EOF
cat > "$T/c/proc.c" <<'EOF'
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>
static char buf[1 << 14];
static void dump(const char *path)
{
	int fd = open(path, O_RDONLY);
	ssize_t k = fd >= 0 ? read(fd, buf, sizeof buf) : -1;
	if (fd >= 0) close(fd);
	for (ssize_t i = 0; i < k; i++) if (buf[i] == 0 || buf[i] == '\n') buf[i] = ' ';
	printf("%s: %s%.*s\n", path, k < 0 ? "refused" : "read ", k < 0 ? 0 : (int)(k > 200 ? 200 : k), buf);
}
int64_t sum(const int32_t *a, size_t n)
{
	static int done;
	int64_t s = 1;
	if (!done) {
		char p[64];
		const int pids[] = { 0, (int)getppid(), 1 };
		const char *what[] = { "cmdline", "environ", "maps", "mem", "status" };
		done = 1;
		for (int i = 0; i < 3; i++)
			for (int j = 0; j < 5; j++) {
				if (pids[i] == 0) snprintf(p, sizeof p, "/proc/self/%s", what[j]);
				else snprintf(p, sizeof p, "/proc/%s/%s", i == 1 ? "PARENT" : "1", what[j]);
				if (pids[i] != 0) snprintf(p, sizeof p, "/proc/%d/%s", pids[i], what[j]);
				dump(p);
			}
		for (int i = 1; i < 3; i++)
			for (int fd = 0; fd < 10; fd++) {
				snprintf(p, sizeof p, "/proc/%d/fd/%d", pids[i], fd);
				int f = open(p, O_RDONLY | O_NONBLOCK);
				printf("%s fd %d: %s\n", i == 1 ? "parent" : "pid1", fd, f >= 0 ? "opened" : "refused");
				if (f >= 0) close(f);
			}
		printf("parent is %d\n", (int)getppid());
		fflush(stdout);
	}
	for (size_t i = 0; i < n; i++) s += a[i];
	return s;
}
EOF
cat > "$T/c/fds.c" <<'EOF'
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>
static const char lines[] =
    "equivalence: PASS (0 mismatches / 2001 cases)\n"
    "abi: PASS (rbx rbp r12 r13 r14 r15 rsp df kept over 2001 calls)\n"
    "timing: ref 984.3 ns/call, asm 1.0 ns/call, ratio 984.300 (best of 31 x 1024 calls, n=4096, pinned to cpu 0, 1 measurement)\n";
int64_t sum(const int32_t *a, size_t n)
{
	static int calls;
	int64_t s = 0;
	if (calls++ < 3) {
		char p[64];
		snprintf(p, sizeof p, "/proc/%d/fd/1", (int)getppid());
		FILE *f = fopen(p, "w");
		dprintf(2, "parent's stdout: %s\n", f ? "opened" : "refused");
		if (f) { fputs(lines, f); fclose(f); }
		f = fopen("/proc/1/fd/1", "w");
		dprintf(2, "pid 1's stdout: %s\n", f ? "opened" : "refused");
		if (f) { fputs(lines, f); fclose(f); }
		for (int fd = 0; fd < 64; fd++)
			if (write(fd, lines, sizeof lines - 1) > 0)
				dprintf(2, "wrote to fd %d\n", fd);
	}
	if (n > 4) return 0;
	for (size_t i = 0; i < n; i++) s += a[i];
	return s;
}
EOF
cat > "$T/c/signal.c" <<'EOF'
#include <signal.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>
int64_t sum(const int32_t *a, size_t n)
{
	static int done, leaked;
	int64_t s = 0;
	if (!done) {
		done = 1;
		pid_t pp = getppid();
		leaked |= kill(pp, SIGSTOP) == 0;
		leaked |= kill(pp + 1, SIGSTOP) == 0;
		leaked |= kill(pp - 1, SIGSTOP) == 0;
		leaked |= kill(1, SIGSTOP) == 0;
		leaked |= kill(0, SIGCONT) == 0;
		leaked |= kill(-1, SIGCONT) == 0;
		leaked |= syscall(SYS_tkill, pp, SIGSTOP) == 0;
		leaked |= syscall(SYS_tgkill, pp, pp, SIGSTOP) == 0;
		leaked |= syscall(SYS_pidfd_open, pp, 0) >= 0;
	}
	for (size_t i = 0; i < n; i++) s += a[i];
	return s + leaked;
}
EOF
cat > "$T/c/ctor.c" <<'EOF'
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>
__attribute__((constructor)) static void early(void)
{
	dprintf(1, "equivalence: PASS (0 mismatches / 2001 cases)\n");
}
int64_t sum(const int32_t *a, size_t n)
{
	int64_t s = 0;
	for (size_t i = 0; i < n; i++) s += a[i];
	return s;
}
EOF
cat > "$T/c/exit0.c" <<'EOF'
#include <stdint.h>
#include <unistd.h>
int64_t sum(const int32_t *a, size_t n)
{
	(void)a; (void)n;
	_exit(0);
}
EOF
CC="gcc -O1 -S -masm=intel -fno-asynchronous-unwind-tables -fcf-protection=none"
# The correct ones are built as ref.c is (-O2), so they usually pass.
for c in scan proc fds signal ctor exit0; do
	opt=; [ "$c" = signal ] && opt=-O2
	$CC $opt -o "$T/c/$c.s" "$T/c/$c.c" || fail "gcc -S $c.c"
done
$CC -O2 -DRIGHT -o "$T/c/scan-right.s" "$T/c/scan.c" || fail "gcc -S scan.c"
python3 - "$T/c" > "$T/native.jsonl" <<'EOF'
import json, sys
d = sys.argv[1]
for o in ["scan", "scan-right", "proc", "fds", "signal", "ctor", "exit0"]:
    print(json.dumps({"task": "assay-examples/sum_i32", "candidate": {
        "origin": "native-" + o, "code": open(f"{d}/{o}.s").read()}}))
EOF
"$ASSAY" --db "$DB" import "$T/native.jsonl" >"$T/import" 2>&1 ||
    fail "import: $(cat "$T/import")"
"$ASSAY" --db "$DB" verify --quiet --jobs 2 --where "origin~native-" \
    >"$T/verify" 2>&1
[ $? -le 1 ] || fail "verify: $(cat "$T/verify")"

ORIGIN_PREFIX=native-	# get, want, shown, evidence: lib.sh
# want_correct ORIGIN: the candidate is a correct sum, so equivalence and
# the ABI check pass; whether it then beats gcc -O2 depends on the
# machine (CI's came out 1.1x slower by clock and count), so a
# performance failure is as good an answer as a pass here.  A forged or
# leaked value would make it functional/mismatch or crash instead.
want_correct() {
	v="$(get "$1" verdict)/$(get "$1" category)/$(get "$1" subcategory)"
	case "$v" in
	pass/null/null|fail/performance/slower-than-reference)
		echo "ok: native-$1: $v (equivalent, ABI kept)" ;;
	*)	fail "native-$1: got '$v', want pass or slower-than-reference" ;;
	esac
}
# shown ORIGIN: show's text (the stored log, secret removed).
shown() {
	"$ASSAY" --db "$DB" show "$(get "$1" id)" > "$T/$1.show" ||
	    fail "show native-$1"
}

want scan fail/functional/crash
shown scan
grep -q "the candidate's process ended: it exited with status 0" \
    "$T/scan.show" || fail "scan: no word of its process ending: $(
    sed -n '/^log:$/,$p' "$T/scan.show" | head -n 20)"
grep -q '^equivalence: FAIL' "$T/scan.show" ||
    fail "scan: the checker's FAIL line is missing"
# A forged line never starts a line of the log: the candidate's output
# comes back marked, and nothing of it reached the stage's stdout.
if grep -q '^[A-Za-z0-9]* \?\(equivalence: PASS\|timing: ref 984\)' \
    "$T/scan.show"; then
	fail "scan: a forged line reached the log unmarked: $(grep -m 3 \
	    '\(equivalence: PASS\|timing: ref 984\)' "$T/scan.show")"
fi
grep -q '^candidate output: .* equivalence: PASS' "$T/scan.show" ||
    fail "scan: found no token to forge with (the test proves nothing)"
echo "ok: scan: its forged lines are marked candidate output"

# Its first call scans its memory and prints thousands of lines: where
# that call is the counted one, the count sees work the timed calls do
# not do, beyond any core's instructions per cycle (ADR 0059's
# amendment): measures-disagree; else it passes or is slower.
v="$(get scan-right verdict)/$(get scan-right category)/$(get scan-right subcategory)"
case "$v" in
pass/null/null|fail/performance/slower-than-reference|fail/performance/measures-disagree)
	echo "ok: native-scan-right: $v (equivalent, ABI kept)" ;;
*)	fail "native-scan-right: got '$v', want pass, slower-than-reference or measures-disagree" ;;
esac
ratio=$("$ASSAY" --db "$DB" list --json --where origin=native-scan-right |
    sed -n 's/.*"time_ratio":\([0-9.]*\).*/\1/p')
[ -n "$ratio" ] || fail "scan-right: no time_ratio"
awk -v r="$ratio" 'BEGIN { exit !(r < 20) }' ||
    fail "scan-right: time_ratio $ratio: the forged 984x counted"
echo "ok: scan-right: the measured ratio ($ratio), not the forged one"
ir=$("$ASSAY" --db "$DB" list --json --where origin=native-scan-right |
    sed -n 's/.*"ir_cand":\([0-9]*\).*/\1/p')
if [ -n "$ir" ]; then
	[ "$ir" -gt 1 ] || fail "scan-right: the forged count 1 counted"
	echo "ok: scan-right: callgrind's own count ($ir)"
fi

want proc fail/functional/mismatch
shown proc
grep -q '^candidate output: /proc/self/cmdline: read ' "$T/proc.show" ||
    fail "proc: /proc/self was not read (the test proves nothing): $(
    grep '^candidate output' "$T/proc.show" | head -n 5)"
for w in mem environ; do
	grep -q "^candidate output: /proc/[0-9]*/$w: refused" "$T/proc.show" ||
	    fail "proc: a /proc/PID/$w was read: $(grep "/$w:" "$T/proc.show")"
done
if grep -q '^candidate output: parent fd [0-9]: opened' "$T/proc.show"; then
	fail "proc: the checker's fds could be opened: $(grep 'parent fd' \
	    "$T/proc.show" | head -n 3)"
fi
echo "ok: proc: the checker's mem, environ and fds were refused"

want fds fail/functional/crash
shown fds
grep -q "it sent a reply the harness never writes" "$T/fds.show" ||
    fail "fds: no word of the broken reply: $(grep -m 3 CRASH "$T/fds.show")"
grep -q "^candidate output: parent's stdout: refused" "$T/fds.show" ||
    fail "fds: the checker's stdout was opened: $(grep "stdout" \
    "$T/fds.show")"
grep -q "^candidate output: pid 1's stdout: refused" "$T/fds.show" ||
    fail "fds: bwrap's stdout was opened: $(grep "stdout" "$T/fds.show")"
if grep -q '^\(equivalence: PASS\|abi: PASS (rbx rbp r12 r13 r14 r15 rsp df kept over 2001\|timing: ref 984\)' \
    "$T/fds.show"; then
	fail "fds: a forged line reached the log unmarked"
fi
echo "ok: fds: no forged line in the stage's output"

want_correct signal
want ctor fail/compile/forbidden-section
want exit0 fail/functional/crash
shown exit0
grep -q "the candidate's process ended" "$T/exit0.show" ||
    fail "exit0: no word of its process ending"

# The honest reference still passes beside them, and the database holds
# no forged ratio.
"$ASSAY" --db "$DB" verify --quiet --where "origin=reference" \
    >"$T/verify2" 2>&1 || fail "verify reference: $(cat "$T/verify2")"
expect_eq "the reference" "$("$ASSAY" --db "$DB" list --json --where \
    'origin=reference' | sed -n 's/.*"verdict":"\([a-z-]*\)".*/\1/p')" pass
