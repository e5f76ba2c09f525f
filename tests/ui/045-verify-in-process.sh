# 045-verify-in-process.sh - issue 24, item 1: :verify runs the verify
# service inside the workbench (ADR 0039), not a child `assay verify`
# whose progress lines are parsed: while it runs, the only assay process
# is the workbench itself (its jobs are sandboxed toolchains), the status
# line counts the runs as the service stores them, and at the end every
# candidate of the view has a run.  The syntax set has 174 candidates,
# one job at a time: some seconds, long enough to look.
. "$(dirname "$0")/lib.sh"
command -v iverilog >/dev/null 2>&1 || skip "iverilog is not installed"

import_syntax

start 120 40
wait_for " 1/$N "
command_line "verify 1"
wait_for ":verify $N candidates, 1 at a time, in the background"
wait_for "· verify " 30
# the processes running this binary: the workbench only
n=$(ps -e -o args= | grep -c -F -x "$ASSAY --db $DB")
others=$(ps -e -o args= | grep -F "$ASSAY " | grep -v -F -x "$ASSAY --db $DB" |
    grep -v -F "grep" || true)
[ "$n" -eq 1 ] && [ -z "$others" ] ||
    fail "assay processes besides the workbench: $others"
screen | tail -n 1 | grep -q "· verify [0-9]*/$N" ||
    fail "the verification ended before the look: no test"
ok "while :verify runs, the workbench is the only assay process"

wait_for ":verify done in" 300
screen | tail -n 1 | grep -q -E ": $N verified \([0-9]+ pass, [0-9]+ not\), 0 unchanged" ||
    fail "the summary does not count $N runs"
left=$("$ASSAY" --db "$DB" list --json --where verdict=none | wc -l)
[ "$left" -eq 0 ] || fail "$left candidates have no run"
ok "the service stored a run of each of the $N candidates"
quit_all
