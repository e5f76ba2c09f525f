# 112: the nvcc env's checker (share/envs/nvcc/assay_check.c, ADR 0020,
# ADR 0056) without a GPU: it is built as the build stage builds it (cc
# -O2 -lseccomp) and run as its two stages run it, each in an area of its
# own, against stand-in harnesses, shell scripts that write the records
# assay_harness.h writes (fd 3).  harness-want stands for the harness
# without the candidate, harness for the harness with it:
#   want/  check and harness-want: ./check want 5<SECRET writes want.rec
#   run/   check and harness:      ./check run 5<SECRET 6<want.rec
# (the sandbox's half, that no path of the run stage reaches the want
# stage's area, is e2e 113's):
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
#   execwant   runs ./harness-want with the checker's pipe as its fd 3,
#              opens want.rec, its own fd 6 and every file the checker's
#              /proc/PPID/fd names, and sends what it finds as its own
#              (issue 22): there is nothing to find, result fail mismatch
#   nowant     the run stage without fd 6: harness-error, exit 3, and no
#              candidate run
#   nogpu      the want run finds no GPU: no-gpu, exit 77, from the want
#              stage, no want.rec
#   wantfails  the harness fails without the candidate: harness-error,
#              exit 3, from the want stage, never the candidate's fail
# Which run a harness binary is, is compiled in (ASSAY_WANT_RUN): each
# stand-in exits 9 when ASSAY_HARNESS_MODE, which a candidate could set,
# reaches it at all (issue 22).
. "$(dirname "$0")/lib.sh"
command -v cc >/dev/null || skip "no C compiler"
[ -f /usr/include/seccomp.h ] || skip "libseccomp-dev not installed"
SRC=$(cd "$(dirname "$0")/../../share/envs/nvcc" && pwd)/assay_check.c
cc -O2 -o "$T/check" "$SRC" -lseccomp 2>"$T/cc" ||
    fail "the checker does not build: $(cat "$T/cc")"
SECRET=T$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')

# Floats 1, 2, 3 and 4 (IEEE 754, little-endian), for printf.
F1='\000\000\200\077' F2='\000\000\000\100' F3='\000\000\100\100'
F4='\000\000\200\100'
# want_stage BODY: a fresh want area with check and the stand-in harness
# without the candidate, and the want stage run there (want.out, .rc);
# its want.rec is kept outside any area, as the seal store keeps it.
want_stage() {
	rm -rf "$T/want" "$T/want.rec"
	mkdir "$T/want"
	cp "$T/check" "$T/want/check"
	printf '#!/bin/sh\n[ -z "${ASSAY_HARNESS_MODE+x}" ] || exit 9\n%s\n' \
	    "$1" > "$T/want/harness-want"
	chmod +x "$T/want/harness-want"
	(cd "$T/want" && ./check want 5<<EOF >"$T/want.out" 2>&1
$SECRET
EOF
	echo $? > "$T/want.rc")
	[ ! -e "$T/want/want.rec" ] || mv "$T/want/want.rec" "$T/want.rec"
}
want_ok() {
	want_stage "echo 'assay: device 0: stand-in'
printf 'expect 3 0 0\n$F1$F2$F3' >&3
printf 'pass\n' >&3"
	expect_eq "want stage: exit status" "$(cat "$T/want.rc")" 0
	# No verdict of its own; the expected values kept as records.
	grep -q "^$SECRET" "$T/want.out" && fail "want stage: a tagged line:" \
	    "$(cat "$T/want.out")"
	printf "expect 3 0 0\n$F1$F2$F3""pass\n" > "$T/want.expected"
	cmp -s "$T/want.rec" "$T/want.expected" ||
	    fail "want.rec: $(od -c "$T/want.rec" | head -5)"
	echo "ok: the want stage keeps want.rec"
}
# cand NAME BODY: a fresh run area with check and the stand-in harness
# with the candidate (no harness-want, no want.rec), the run stage run
# there with want.rec on fd 6 alone.
cand() {
	rm -rf "$T/run"
	mkdir "$T/run"
	cp "$T/check" "$T/run/check"
	printf '#!/bin/sh\n[ -z "${ASSAY_HARNESS_MODE+x}" ] || exit 9\n%s\n' \
	    "$2" > "$T/run/harness"
	chmod +x "$T/run/harness"
	(cd "$T/run" && ./check run 5<<EOF 6<"$T/want.rec" >"$T/$1.out" 2>&1
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

# The attack on the want run's values (issue 22): each way it tries, it
# sends what it found as its own and exits, a pass if any worked.
cand execwant "if [ -e ./harness-want ]; then ./harness-want; exit 0; fi
echo 'exec refused: no ./harness-want here'
for f in want.rec /proc/self/fd/6 /proc/\$PPID/fd/*; do
	[ -f \"\$f\" ] && [ -r \"\$f\" ] || continue
	case \$(head -c 6 \"\$f\" 2>/dev/null) in
	expect) cat \"\$f\" >&3; echo \"stole \$f\"; exit 0 ;;
	esac
done
echo 'no want file reached'
[ -e /proc/self/fd/6 ] && echo 'fd 6 is open'
printf 'expect 3 0 0\n$F1$F1$F1' >&3; printf 'pass\n' >&3"
result execwant 1 "result fail mismatch: 2 of 3 values differ; first at index 1: got 1, want 2; largest error 2"
grep -q '^candidate output: exec refused' "$T/execwant.out" ||
    fail "execwant: ran harness-want: $(cat "$T/execwant.out")"
grep -q '^candidate output: no want file reached' "$T/execwant.out" ||
    fail "execwant: reached a want file: $(cat "$T/execwant.out")"
grep -q 'fd 6 is open' "$T/execwant.out" &&
    fail "execwant: the checker's fd 6 reached the candidate"
echo "ok: execwant: no harness-want, no want file, no fd 6"

# The run stage without its want values: the task's, no candidate run.
rm -rf "$T/run" && mkdir "$T/run" && cp "$T/check" "$T/run/check"
printf '#!/bin/sh\necho ran > ran\nprintf "pass\\n" >&3\n' > "$T/run/harness"
chmod +x "$T/run/harness"
(cd "$T/run" && ./check run 5<<EOF >"$T/nowant.out" 2>&1
$SECRET
EOF
echo $? > "$T/nowant.rc")
result nowant 3 "harness-error: the expected values of the want stage did not reach the checker (fd 6)"
[ ! -e "$T/run/ran" ] || fail "nowant: the candidate's run started"

want_stage "printf 'no-gpu no CUDA-capable device is detected\n' >&3
exit 77"
cp "$T/want.out" "$T/nogpu.out"; cp "$T/want.rc" "$T/nogpu.rc"
result nogpu 77 "no-gpu: no CUDA-capable device is detected"
[ ! -e "$T/want.rec" ] || fail "nogpu: want.rec written"

want_stage "printf 'fail runtime-error cudaMalloc: out of memory\n' >&3
exit 1"
cp "$T/want.out" "$T/wantfails.out"; cp "$T/want.rc" "$T/wantfails.rc"
result wantfails 3 "harness-error: the harness without the candidate failed: runtime-error cudaMalloc: out of memory"
[ ! -e "$T/want.rec" ] || fail "wantfails: want.rec written"
