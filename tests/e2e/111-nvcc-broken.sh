# 111: a toolchain is proven, not assumed (issue 21).  On a fresh Debian 12
# machine nvcc found no host compiler it accepts ("ERROR: No supported
# gcc/g++ host compiler found, but clang-14 is available") and every CUDA
# candidate, references included, became task-defect with "nvcc failed
# without an error message" while `assay envs` said yes.  A stand-in nvcc
# first on PATH answers --version as CUDA 11.8 does and fails every
# compile with Debian's message, word for word (/usr/lib/nvidia-cuda-
# toolkit/bin/g++ of nvidia-cuda-toolkit 11.8.89~11.8.0-5~deb12u1):
#  - assay envs says broken, with that first error line and what to do;
#  - verify stores env-error/toolchain-broken for every candidate, the
#    reference too, says so once, and never fail or task-defect;
#  - sandboxed, where the stand-in is out of the sandbox's sight, the same;
#  - with the stand-in gone, the same database verifies again for real.
# Needs no CUDA: the stand-in is all the toolchain there is.
. "$(dirname "$0")/lib.sh"
[ -x /usr/local/cuda/bin/nvcc ] &&
	skip "NVIDIA's toolkit in /usr/local/cuda is used before PATH"
EX=$(cd "$(dirname "$0")/../.." && pwd)/examples/gpu
mkdir "$T/bin"
cat >"$T/bin/nvcc" <<'SH'
#!/bin/sh
case " $* " in
*" --version "*)
	echo "nvcc: NVIDIA (R) Cuda compiler driver"
	echo "Cuda compilation tools, release 11.8, V11.8.89"
	exit 0 ;;
esac
echo "ERROR: No supported gcc/g++ host compiler found, but clang-14 is available." >&2
echo "       Use 'nvcc -ccbin clang-14' to use that instead." >&2
exit 1
SH
chmod +x "$T/bin/nvcc"
MSG="No supported gcc/g++ host compiler found"

# assay envs: broken, the tool's first error line, what to do.
PATH=$T/bin:$PATH "$ASSAY" envs --no-sandbox >"$T/envs" 2>&1
expect_eq "envs exit" $? 0
grep -Eq '^nvcc +gpu +broken +Cuda compilation tools, release 11.8.*host compiler none accepted' "$T/envs" ||
	fail "nvcc not broken: $(cat "$T/envs")"
grep -A2 '^nvcc ' "$T/envs" | grep -q "error: .*$MSG" ||
	fail "no first error line: $(grep -A2 '^nvcc ' "$T/envs")"
grep -A2 '^nvcc ' "$T/envs" | grep -q "fix: .*apt-get install g++-11" ||
	fail "no fix line: $(grep -A2 '^nvcc ' "$T/envs")"
grep -q "1 of 8 envs are installed but fail their smoke test" "$T/envs" ||
	fail "no summary of the broken env: $(cat "$T/envs")"
PATH=$T/bin:$PATH "$ASSAY" envs --no-sandbox --json >"$T/envs.json"
grep -q '"name":"nvcc","domain":"gpu","present":"broken"' "$T/envs.json" ||
	fail "json: $(cat "$T/envs.json")"
grep -q '"smoke":"failed","error":"the known-good sample: env-error at compile: ERROR: No supported' "$T/envs.json" ||
	fail "json error: $(cat "$T/envs.json")"
echo "ok: assay envs says broken, with nvcc's first error and the fix"

# verify: env-error/toolchain-broken for all nine, told once.
"$ASSAY" --db "$DB" import "$EX"/*.jsonl >/dev/null || fail "import"
expect_eq "candidates" "$(count '')" 9
PATH=$T/bin:$PATH "$ASSAY" --db "$DB" verify --no-sandbox --jobs 2 >"$T/v" 2>&1
expect_eq "verify exit" $? 0
expect_eq "env-error/toolchain-broken" \
    "$(count 'verdict=env-error subcategory=toolchain-broken')" 9
expect_eq "fail" "$(count 'verdict=fail')" 0
expect_eq "task-defect" "$(count 'verdict=task-defect')" 0
expect_eq "notes" "$(grep -c "nvcc is broken here: its smoke test failed.*$MSG" "$T/v")" 1
grep -q "env-error 9, task-defect 0" "$T/v" || fail "summary: $(tail -n 1 "$T/v")"
ref=$("$ASSAY" --db "$DB" list --json --where "origin=reference" | head -n 1 |
    sed 's/.*"id":"\([^"]*\)".*/\1/')
"$ASSAY" --db "$DB" show "$ref" >"$T/show"
grep -q "^evidence: nvcc is broken here: .*ERROR: $MSG.*apt-get install g++-11" "$T/show" ||
	fail "evidence: $(grep evidence "$T/show")"
grep -q "failed without an error message" "$T/show" &&
	fail "the log has the error, the evidence says none: $(cat "$T/show")"
grep -q "^       Use 'nvcc -ccbin clang-14'" "$T/show" ||
	fail "the smoke test's log is not in the run: $(cat "$T/show")"
echo "ok: every candidate and the references are env-error/toolchain-broken"

# Sandboxed: the stand-in is outside /usr, all the sandbox sees.
PATH=$T/bin:$PATH "$ASSAY" --db "$DB" verify --jobs 2 >"$T/v2" 2>&1
expect_eq "sandboxed env-error/toolchain-broken" \
    "$(count 'verdict=env-error subcategory=toolchain-broken')" 9
grep -q "outside /usr, which is all of the system the sandbox sees" "$T/v2" ||
	fail "no hint about /usr: $(cat "$T/v2")"
echo "ok: sandboxed too, with what to do"

# Repaired (the stand-in gone): env-error runs are made again, for real.
if command -v nvcc >/dev/null 2>&1 && "$ASSAY" envs | grep -Eq '^nvcc +gpu +yes '; then
	"$ASSAY" --db "$DB" verify --jobs 2 >"$T/v3" 2>&1
	expect_eq "env-error after the repair" "$(count 'verdict=env-error')" 0
	expect_eq "compile failures after the repair" \
	    "$(count 'verdict=fail stage=compile')" 2
	echo "ok: after the repair every candidate ran again"
fi

# An nvcc that does not even start (its shared library gone): broken, not
# missing; every candidate env-error/toolchain-broken with the loader's
# line, never skipped/no-toolchain.
cat >"$T/bin/nvcc" <<'SH'
#!/bin/sh
echo "nvcc: error while loading shared libraries: libnvvm.so.4: cannot open shared object file: No such file or directory" >&2
exit 127
SH
PATH=$T/bin:$PATH "$ASSAY" envs --no-sandbox >"$T/envs3" 2>&1
grep -Eq '^nvcc +gpu +broken ' "$T/envs3" || fail "not broken: $(cat "$T/envs3")"
grep -A1 '^nvcc ' "$T/envs3" | grep -q "error: .*libnvvm.so.4: cannot open shared object file" ||
	fail "no loader line: $(grep -A2 '^nvcc ' "$T/envs3")"
DB2=$T/start.db
"$ASSAY" --db "$DB2" import "$EX"/*.jsonl >/dev/null || fail "import"
PATH=$T/bin:$PATH "$ASSAY" --db "$DB2" verify --no-sandbox --jobs 2 >"$T/v4" 2>&1
expect_eq "not started: env-error/toolchain-broken" \
    "$("$ASSAY" --db "$DB2" list --json --where 'verdict=env-error subcategory=toolchain-broken' | wc -l | tr -d ' ')" 9
expect_eq "not started: skipped" \
    "$("$ASSAY" --db "$DB2" list --json --where 'verdict=skipped' | wc -l | tr -d ' ')" 0
grep -q "libnvvm.so.4" "$T/v4" || fail "the note lacks the loader's line: $(cat "$T/v4")"
echo "ok: an nvcc that does not start is broken, not missing"
