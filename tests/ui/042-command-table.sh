# 042-command-table.sh - issue 9, item 1: the `:` line looks its
# commands up in a table (app/command.h), so each takes the arguments its
# entry says and refuses the rest with its usage; aliases (where, show, q)
# are the same entries; Tab offers every entry, names and aliases; a key
# can be bound to a command line (`bind 2 goto ID`).
. "$(dirname "$0")/lib.sh"

"$ASSAY" --db "$DB" import "$DATA/rtlfixer/verilogeval-syntax.jsonl" \
    >/dev/null || fail "import rtlfixer"
"$ASSAY" --db "$DB" list --json | head -n 2 | json_field id >"$T/ids"
ID=$(sed -n 2p "$T/ids")

# a key bound to a command line in the config file (read at start)
mkdir -p "$HOME/.config/assay"
printf 'bind 2 goto %s\n' "$ID" >"$HOME/.config/assay/config"

start 120 40
wait_for "1/174"


# too many arguments: the reason and the usage, nothing done
command_line "goto $ID extra"
wait_for ":goto: unexpected argument 'extra' (:goto ID)"
screen | grep -q " 1/174 " || fail "goto with two arguments moved"
command_line "unmark now"
wait_for ":unmark: unexpected argument 'now' (:unmark)"
ok "a command refuses arguments its entry does not take"

# keys bound to command lines run them as if typed after `:`
keys 2
wait_for " 2/174 "
# the config file's binding replaced 2's label action: nothing labelled
"$ASSAY" --db "$DB" list --json | grep -q '"category":"' &&
    fail "key 2 labelled a candidate instead of running its command line"
command_line "bind 3 filter id=$ID"
wait_for "bind 3 filter id=$ID"
keys 3
wait_for " 1/1 "
command_line "filter"
wait_for " 1/174 "
ok "bind KEY COMMAND LINE, from the config file and the \`:\` line"

# ? lists the keys bound to command lines, after the action tables
keys '?'
wait_for "help"
keys G
wait_for "Keys bound to : command lines"
wait_for ":goto $ID"
wait_for ":filter id=$ID"
keys q
wait_gone "Keys bound to : command lines"
ok "? lists the keys bound to command lines"

# an alias runs its entry
command_line "show $ID"
wait_for " 2/174 "
command_line "where id=$ID"
wait_for " 1/1 "
command_line "filter"
wait_for " 1/174 "
ok "show and where are goto and filter"

# free text keeps its words, dashes included
command_line "grep -- no such text"
wait_for "no candidate holds that text"
ok "free text is not read as options"

# Tab offers the table's entries: verify and quit are commands too
# last_line_is TEXT: the status bar's last row becomes TEXT
last_line_is() {
	n=50
	while [ $n -gt 0 ]; do
		[ "$(screen | tail -n 1 | sed 's/ *$//')" = "$1" ] && return 0
		sleep 0.1
		n=$((n - 1))
	done
	fail "the command line is '$(screen | tail -n 1)', not '$1'"
}
keys : v e r Tab
last_line_is ":verify"
keys C-u q u Tab
last_line_is ":quit"
keys Escape
command_line "unknown-thing"
wait_for "unknown command 'unknown-thing' (filter, grep, goto, unmark"
# one table: a command that runs elsewhere says where (issue 24, ADR 47)
command_line "export -o x.jsonl"
wait_for "export runs only on the command line (assay export)"
command_line "generator model m"
wait_for "generator runs only in the config file"
keys : q Enter
wait_for "ASSAY-EXIT 0"
ok "Tab completes from the table; :export and :generator say where they run; :q quits"
