# 170: `assay envs` lists every env with its domain and whether its
# toolchain is here, says for each missing one what to install, and exits
# 0 even when some are missing (issue 4).
. "$(dirname "$0")/lib.sh"

"$ASSAY" envs >"$T/out" 2>&1
expect_eq "envs exit" $? 0
for e in iverilog:chip verilator:chip yosys:chip nvcc:gpu triton:gpu \
    arm-qemu:embedded x86-asm:compiler cad:3d; do
	grep -Eq "^${e%%:*} +${e##*:} +(yes|no|partly) " "$T/out" ||
		fail "no row for $e in: $(cat "$T/out")"
done
echo "ok: all eight envs listed with their domains"

# A toolchain that is here but lacks a part some candidates need (torch,
# triton or a GPU for triton, CadQuery for cad scripts) is "partly", and
# the next lines say what is missing and how to get it; its runs are
# still made, and skipped with the reason (140-cad.sh).
# partial ENV SAYS MISSING HINT: the row's identity says SAYS (a regex)
# exactly when the env is partly here.
partial() {
	row=$(grep -E "^$1 " "$T/out")
	if printf '%s\n' "$row" | grep -Eq "$2"; then
		printf '%s\n' "$row" | grep -Eq "^$1 +[a-z0-9]+ +partly " ||
			fail "$1 lacks a part but is not partly: $row"
		grep -A2 -E "^$1 " "$T/out" | grep -Eq "^ {30}missing: .*($3)" ||
			fail "no missing line for $1: $(grep -A2 -E "^$1 " "$T/out")"
		grep -A2 -E "^$1 " "$T/out" | grep -Fq "$4" ||
			fail "no hint for $1: $(grep -A2 -E "^$1 " "$T/out")"
		echo "ok: $1 is partly here, with what is missing and the hint"
	else
		printf '%s\n' "$row" | grep -Eq "^$1 +[a-z0-9]+ +(yes|no) " ||
			fail "$1 is whole or absent, not partly: $row"
		echo "ok: $1 lacks no part"
	fi
}
partial triton "torch not installed|triton not installed|no GPU" \
    "torch|triton|a GPU" "project venv (make deps)"
partial cad ", no CadQuery" "CadQuery" "project venv (make deps"
partial x86-asm "; no valgrind;" "valgrind" "valgrind is optional"
if grep -q " partly " "$T/out"; then
	grep -q "envs run here in part" "$T/out" ||
		fail "no summary of the partial envs: $(cat "$T/out")"
fi

# With no toolchain on PATH, iverilog is missing: the row says so and the
# next line names the Debian package; the command still exits 0.
mkdir "$T/bin"
for tool in bwrap setpriv prlimit true; do
	ln -s "$(command -v $tool)" "$T/bin/$tool"
done
PATH=$T/bin "$ASSAY" envs >"$T/out2" 2>&1
expect_eq "envs exit with toolchains missing" $? 0
grep -Eq "^iverilog +chip +no " "$T/out2" || fail "iverilog not missing: $(cat "$T/out2")"
grep -A1 -E "^iverilog " "$T/out2" | grep -q "install: apt-get install iverilog" ||
	fail "no install hint for iverilog: $(cat "$T/out2")"
grep -q "envs cannot run here" "$T/out2" || fail "no summary line"
echo "ok: a missing toolchain names its Debian package"

# A candidate whose toolchain is missing is verified as skipped, with what
# to install as its evidence, not an error that stops the batch
# (design.md section 2: skipped is "toolchain or hardware missing").  The
# cad env's OCCT helper is made missing by pointing ASSAY_LIBEXEC away.
"$ASSAY" --db "$DB" import examples/3d/plate_hole.jsonl >/dev/null ||
	fail "import"
n=$(count "env=cad")
ASSAY_LIBEXEC=$T/none "$ASSAY" --db "$DB" verify --where "env=cad" >"$T/v" 2>&1
expect_eq "verify exit with the toolchain missing" $? 0
grep -q "skipped $n\$" "$T/v" || fail "not all $n skipped: $(cat "$T/v")"
expect_eq "skipped, no-toolchain" "$(count "env=cad subcategory=no-toolchain")" "$n"
id=$("$ASSAY" --db "$DB" list --json --where "env=cad" | head -n 1 |
    sed 's/.*"id": *"\([^"]*\)".*/\1/')
"$ASSAY" --db "$DB" show "$id" >"$T/show"
grep -q "apt-get install libocct" "$T/show" || fail "no install line: $(cat "$T/show")"
echo "ok: a missing toolchain gives skipped/no-toolchain with the packages"
