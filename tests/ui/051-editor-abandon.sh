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

# An editor that empties the file, or leaves only white space, and exits
# 0: no repair (docs/formats.md "an empty answer makes no candidate"),
# by the decision layer's rule, which `assay repair --file` follows too
# (e2e 199).
cat >"$T/emptier" <<'ED'
#!/bin/sh
: >"$1"
ED
cat >"$T/blanker" <<'ED'
#!/bin/sh
printf '  \n\t\n' >"$1"
ED
chmod +x "$T/emptier" "$T/blanker"
for ed in emptier blanker; do
	export EDITOR="$T/$ed"
	start 160 40
	wait_for " 1/$N "
	keys e
	if [ $ed = emptier ]; then
		wait_for "save repair of $ID: the repair of $ID is empty: no code, nothing stored" 10
	else
		wait_for "save repair of $ID: the repair of $ID is empty (only white space): no code, nothing stored" 10
	fi
	[ "$("$ASSAY" --db "$DB" list --json --where "parent=$ID" | wc -l)" -eq 0 ] ||
	    fail "the $ed's edit made a repair of $ID"
	ok "an edit the $ed left without code makes no candidate"
	quit_all
done
