# 170: `assay envs` lists every env with its domain and whether its
# toolchain is here, says for each missing one what to install, and exits
# 0 even when some are missing (issue 4).
. "$(dirname "$0")/lib.sh"

"$ASSAY" envs >"$T/out" 2>&1
expect_eq "envs exit" $? 0
for e in iverilog:chip verilator:chip yosys:chip nvcc:gpu triton:gpu \
    arm-qemu:embedded x86-asm:compiler cad:3d; do
	grep -Eq "^${e%%:*} +${e##*:} +(yes|no) " "$T/out" ||
		fail "no row for $e in: $(cat "$T/out")"
done
echo "ok: all eight envs listed with their domains"

# With no toolchain on PATH, iverilog is missing: the row says so and the
# next line names the Debian package; the command still exits 0.
mkdir "$T/bin"
ln -s "$(command -v bwrap)" "$T/bin/bwrap" 2>/dev/null
PATH=$T/bin "$ASSAY" envs >"$T/out2" 2>&1
expect_eq "envs exit with toolchains missing" $? 0
grep -Eq "^iverilog +chip +no " "$T/out2" || fail "iverilog not missing: $(cat "$T/out2")"
grep -A1 -E "^iverilog " "$T/out2" | grep -q "install: apt-get install iverilog" ||
	fail "no install hint for iverilog: $(cat "$T/out2")"
grep -q "envs cannot run here" "$T/out2" || fail "no summary line"
echo "ok: a missing toolchain names its Debian package"
