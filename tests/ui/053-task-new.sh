# 053-task-new.sh - issue 27, item 1: `:task new FILE TESTBENCH` in the
# workbench opens the task made from RTLLM's counter_12 in $EDITOR; the
# requirement written there is the task's, and on save the reference is
# verified against the testbench and the task stored with its passing
# run, and the queue counts it at once.  A reference that fails is told
# whole in the toolchain pane.  An editor that writes nothing over the
# skeleton stores nothing.
. "$(dirname "$0")/lib.sh"

D="$DATA/rtllm/Control/Counter/counter_12"
[ -f "$D/verified_counter_12.v" ] || skip "no RTLLM counter_12"
command -v iverilog >/dev/null || skip "iverilog not installed"
"$ASSAY" --db "$DB" import "$DATA/rtlfixer/verilogeval-syntax.jsonl" \
    >/dev/null || fail "import rtlfixer"

# the editor writes the requirement over the skeleton
cat >"$T/ed" <<'ED'
#!/bin/sh
sed -i 's/TODO: say what the code does\./Counts 0..11 while valid_count is high./' "$1"
ED
chmod +x "$T/ed"
export EDITOR="$T/ed"
start 100 30
wait_for "1/174"
command_line "task new $D/verified_counter_12.v $D/testbench.v"
wait_for "task local/counter_12 stored" 60
R=$("$ASSAY" --db "$DB" list --json --where "task=local/counter_12")
[ "$(echo "$R" | json_field verdict)" = pass ] || fail "reference: $R"
"$ASSAY" --db "$DB" show --json "$(echo "$R" | json_field id)" |
    grep -q 'Counts 0..11 while valid_count is high.' ||
    fail "the edited requirement is not the task's"
ok ":task new stored local/counter_12 with its passing reference"
# the queue counts the new candidate without C-l: the workbench's own
# commit does not move PRAGMA data_version for its connection
wait_for "1/175" 10
ok "the queue shows the stored reference at once"

# a reference that fails its testbench (the wrap 11 made 10): the status
# line is cut at the screen's width; the whole reason is in the
# toolchain pane, up to its "nothing stored"
printf '#!/bin/sh\nsed -i "s/TODO: say what the code does\\./Counts./" "$1"\n' >"$T/ed"
sed "s/4'd11/4'd10/" "$D/verified_counter_12.v" > "$T/verified_counter_12.v"
command_line "task new $T/verified_counter_12.v $D/testbench.v"
wait_for "all of it in the toolchain pane" 60
pane toolchain | tr -d '\n ' | grep -q "verified_counter_12.v:thereferencedoesnotpassitsownverification:failatsimulate(functional/mismatch):.*;nothingstored" ||
    fail "the whole reason is not in the toolchain pane"
ok "a long failure is read whole in the toolchain pane"

# an editor that leaves the skeleton: nothing stored
printf '#!/bin/sh\ntrue\n' >"$T/ed"
cp "$D/verified_counter_12.v" "$T/c.v"
command_line "task new $T/c.v"
wait_for "no requirement written" 30
[ -z "$("$ASSAY" --db "$DB" list --json --where "task=local/verified_counter_12")" ] ||
    fail "a task without a requirement was stored"
ok "the skeleton left as it was stores nothing"
quit_all
