# 051-editor-abandon.sh - issue 24, H of what a new user met: an editor
# that exits non-zero (vim's :cq, the way to abandon an edit) made a
# candidate of whatever the file held.  Now it makes none, and says so.
. "$(dirname "$0")/lib.sh"

import_syntax
ID=$(id_n 1)
# changes the file, then abandons: exit 1
cat >"$T/abandon" <<'ED'
#!/bin/sh
printf '\n// half an edit\n' >>"$1"
exit 1
ED
chmod +x "$T/abandon"
export EDITOR="$T/abandon"

start 120 40
wait_for " 1/$N "
keys e
wait_for "the editor exited with status 1: nothing saved" 10
[ "$("$ASSAY" --db "$DB" list --json --where "parent=$ID" | wc -l)" -eq 0 ] ||
    fail "the abandoned edit made a repair of $ID"
ok "an editor exiting 1 makes no candidate"
quit_all

# EDITOR is shell words, read as git reads it: a quoted argument stays
# one word (split on blanks, 'sh -c "exit 4"' ran sh -c '"exit' and
# reported status 2)
export EDITOR='sh -c "exit 4"'
start 120 40
wait_for " 1/$N "
keys e
wait_for "the editor exited with status 4: nothing saved" 10
ok "EDITOR with a quoted argument runs as at a prompt"
quit_all
