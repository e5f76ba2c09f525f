# 050: the sandbox's own failures are the environment's, never the
# candidate's (issue 2).  A bwrap that cannot start refuses verify with
# a reason; one that fails at random (EAGAIN under load, seen with many
# concurrent jobs) is retried once and then recorded as env-error.
. "$(dirname "$0")/lib.sh"
need_data
command -v iverilog >/dev/null || skip "iverilog not installed"

"$ASSAY" --db "$DB" import "$DATA/verilog-eval-v2" >/dev/null 2>&1 || fail import

# No bwrap on the PATH: refuse, say why, exit 2, store nothing.
mkdir -p "$T/nobwrap"
for tool in prlimit setpriv iverilog vvp sh; do
	ln -s "$(command -v $tool)" "$T/nobwrap/$tool"
done
PATH=$T/nobwrap "$ASSAY" --db "$DB" verify --where "task~Prob001" 2>"$T/err"
expect_eq "verify without bwrap exit" $? 2
grep -q "bubblewrap" "$T/err" || fail "no reason given: $(cat "$T/err")"
expect_eq "nothing stored" "$(count 'verdict!=none')" 0

# A bwrap older than 0.8 (no --disable-userns): refuse, and say so,
# rather than fail every stage.
mkdir -p "$T/oldbwrap"
real=$(command -v bwrap)
cat > "$T/oldbwrap/bwrap" <<SH
#!/bin/sh
for a; do [ "\$a" = --disable-userns ] && { echo "bwrap: Unknown option --disable-userns" >&2; exit 1; }; done
exec $real "\$@"
SH
chmod 755 "$T" "$T/oldbwrap" "$T/oldbwrap/bwrap"
PATH=$T/oldbwrap:$PATH "$ASSAY" --db "$DB" verify --where "task~Prob001" 2>"$T/err"
expect_eq "verify with an old bwrap exit" $? 2
grep -q -- "--disable-userns" "$T/err" || fail "no reason given: $(cat "$T/err")"
expect_eq "nothing stored" "$(count 'verdict!=none')" 0

# A bwrap that starts ("true") but then fails like an exhausted kernel.
mkdir -p "$T/flaky"
cat > "$T/flaky/bwrap" <<'SH'
#!/bin/sh
for a; do last=$a; done
[ "$last" = true ] && exit 0
echo "bwrap: Creating new namespace failed: Resource temporarily unavailable" >&2
exit 1
SH
chmod 755 "$T/flaky/bwrap"
chmod 755 "$T" "$T/flaky"
PATH=$T/flaky:$PATH "$ASSAY" --db "$DB" verify --quiet --where "task~Prob001" >/dev/null ||
    fail "verify with a failing sandbox"
id=$("$ASSAY" --db "$DB" list --where "task~Prob001" | awk 'NR==2 {print $1}')
expect_eq "verdict" "$("$ASSAY" --db "$DB" list --where "id=$id" | awk 'NR==2 {print $4}')" env-error
"$ASSAY" --db "$DB" show "$id" --json | grep -q '"subcategory":"sandbox-failure"' ||
    fail "not marked sandbox-failure"
# And with a working sandbox the same candidate passes.
"$ASSAY" --db "$DB" verify --quiet --force --where "id=$id" >/dev/null || fail "verify again"
expect_eq "verdict with the sandbox back" "$("$ASSAY" --db "$DB" list --where "id=$id" | awk 'NR==2 {print $4}')" pass

# A work directory left by an assay killed with -9 (its pid is gone) is
# removed by the next verify; a kept one (with reproduce.sh) stays.
mkdir -p "$T/work/assay-run-2147483000-stale" "$T/work/assay-run-2147483001-kept"
: > "$T/work/assay-run-2147483001-kept/reproduce.sh"
chmod 755 "$T" "$T/work"
TMPDIR=$T/work "$ASSAY" --db "$DB" verify --quiet --force --where "id=$id" >/dev/null || fail "verify in $T/work"
[ ! -e "$T/work/assay-run-2147483000-stale" ] || fail "stale work directory not removed"
[ -e "$T/work/assay-run-2147483001-kept" ] || fail "a kept work directory was removed"
expect_eq "work directories left" "$(ls "$T/work" | wc -l | tr -d ' ')" 1
