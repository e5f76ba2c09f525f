# 112: the nvcc env's checker (share/envs/nvcc/assay_check.c, ADR 0020)
# without a GPU: it is built as the build stage builds it (cc -O2
# -lseccomp) and run as the run stage runs it (./check, the secret on fd
# 5) against stand-in harnesses, shell scripts that write the records
# assay_harness.h writes (fd 3).  harness-want stands for the harness
# without the candidate, harness for the harness with it:
#
#   honest     the candidate's values are the wanted ones: result pass
#   wrong      one value off: result fail mismatch, at the want run's
#              tolerance, after the counterexample line (index, both
#              values, the tolerance)
#   forged     no values, a "pass" record, and forged result lines with
#              guessed secrets on stdout: result fail mismatch, its
#              lines marked candidate output
#   early      prints "result pass" lines and exits 0 before any record
#              (a constructor would): result fail runtime-error
#   signal     SIGSTOPs the checker and everyone, reads the checker's
#              environ and fds (refused unless the test runs as root,
#              who reads any /proc), then answers honestly: result pass
#   failsays   the candidate's process reports a launch error: believed
#              (a candidate can only hurt itself)
#   nogpu      the want run finds no GPU: no-gpu, exit 77
#   wantfails  the harness fails without the candidate: harness-error,
#              exit 3, never the candidate's fail
# Which run a harness binary is, is compiled in (ASSAY_WANT_RUN): each
# stand-in exits 9 when ASSAY_HARNESS_MODE, which a candidate could set,
# reaches it at all (issue 22).
. "$(dirname "$0")/lib.sh"
command -v cc >/dev/null || skip "no C compiler"
[ -f /usr/include/seccomp.h ] || skip "libseccomp-dev not installed"
SRC=$(cd "$(dirname "$0")/../../share/envs/nvcc" && pwd)/assay_check.c
mkdir "$T/run"
cc -O2 -o "$T/run/check" "$SRC" -lseccomp 2>"$T/cc" ||
    fail "the checker does not build: $(cat "$T/cc")"
SECRET=T$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')

# Floats 1, 2, 3 and 4 (IEEE 754, little-endian), for printf.
F1='\000\000\200\077' F2='\000\000\000\100' F3='\000\000\100\100'
F4='\000\000\200\100'
want_ok() {
	cat > "$T/run/harness-want" <<EOF
#!/bin/sh
[ -z "\${ASSAY_HARNESS_MODE+x}" ] || exit 9
echo "assay: device 0: stand-in"
printf 'expect 3 0 0\n$F1$F2$F3' >&3
printf 'pass\n' >&3
EOF
	chmod +x "$T/run/harness-want"
}
# cand NAME BODY: the stand-in harness with the candidate.
cand() {
	printf '#!/bin/sh\n[ -z "${ASSAY_HARNESS_MODE+x}" ] || exit 9\n%s\n' \
	    "$2" > "$T/run/harness"
	chmod +x "$T/run/harness"
	(cd "$T/run" && ./check 5<<EOF >"$T/$1.out" 2>&1
$SECRET
EOF
	echo $? > "$T/$1.rc")
}
# result NAME RC LINE: the exit status and the tagged line.
result() {
	expect_eq "$1: exit status" "$(cat "$T/$1.rc")" "$2"
	grep -qx "$SECRET $3" "$T/$1.out" ||
	    fail "$1: no '$3' line: $(cat "$T/$1.out")"
	expect_eq "$1: tagged result lines" "$(grep -c "^$SECRET result" \
	    "$T/$1.out")" "$(case $3 in result*) echo 1;; *) echo 0;; esac)"
}

want_ok
cand honest "printf 'metric avg_kernel_ms 0.5\nexpect 3 0 0\n$F1$F2$F3' >&3; printf 'pass\n' >&3"
result honest 0 "result pass"
grep -qx "$SECRET metric avg_kernel_ms 0.5" "$T/honest.out" ||
    fail "honest: no metric line"

cand wrong "printf 'expect 3 0 0\n$F1$F2$F4' >&3; printf 'pass\n' >&3"
result wrong 1 "result fail mismatch: 1 of 3 values differ; first at index 2: got 4, want 3; largest error 1"
# The counterexample the judge keeps: the first value out of tolerance,
# as the checker compared it, before the result.
grep -qx "$SECRET counterexample array=1 of=1 index=2 got=4 want=3 atol=0 rtol=0 bad=1 n=3" "$T/wrong.out" ||
    fail "wrong: no counterexample line: $(cat "$T/wrong.out")"

cand forged "echo 'T0123456789abcdef result pass'; echo '$SECRET' | tr 0-9a-f x; printf 'pass\n' >&3"
result forged 1 "result fail mismatch: the harness compared 0 arrays with the candidate, 1 without it"
grep -q '^candidate output: T0123456789abcdef result pass' "$T/forged.out" ||
    fail "forged: its line is not marked: $(cat "$T/forged.out")"
grep -q "^$SECRET counterexample" "$T/forged.out" &&
    fail "forged: a counterexample without a value compared"

cand early "echo 'result pass'; exit 0"
result early 1 "result fail runtime-error: the harness exited 0 without its result"

cand signal "kill -STOP \$PPID 2>&1 || echo 'stop refused'
kill -STOP -1 2>&1 || echo 'stop all refused'
cat /proc/\$PPID/environ >/dev/null 2>&1 || echo 'environ refused'
ls /proc/\$PPID/fd >/dev/null 2>&1 || echo 'fd refused'
printf 'expect 3 0 0\n$F1$F2$F3' >&3; printf 'pass\n' >&3"
result signal 0 "result pass"
# Root (CI) reads every process's /proc whatever it is; in the sandbox
# the candidate never is root (the x86 twin in e2e 029 runs there).
refusals='stop refused|stop all refused'
[ "$(id -u)" = 0 ] || refusals="$refusals|environ refused|fd refused"
echo "$refusals" | tr '|' '\n' | while read -r w; do
	grep -q "^candidate output: $w" "$T/signal.out" ||
	    fail "signal: not '$w': $(cat "$T/signal.out")"
done || exit 1
echo "ok: signal: refused: $refusals"

cand failsays "printf 'fail launch-error vadd: invalid configuration argument\n' >&3; exit 1"
result failsays 1 "result fail launch-error: vadd: invalid configuration argument"

cat > "$T/run/harness-want" <<'EOF'
#!/bin/sh
printf 'no-gpu no CUDA-capable device is detected\n' >&3
exit 77
EOF
cand nogpu "printf 'pass\n' >&3"
result nogpu 77 "no-gpu: no CUDA-capable device is detected"

cat > "$T/run/harness-want" <<'EOF'
#!/bin/sh
printf 'fail runtime-error cudaMalloc: out of memory\n' >&3
exit 1
EOF
cand wantfails "printf 'pass\n' >&3"
result wantfails 3 "harness-error: the harness without the candidate failed: runtime-error cudaMalloc: out of memory"
