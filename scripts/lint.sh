#!/bin/sh
# lint.sh [BUILD] - module boundaries of docs/style.md and the floors of
# docs/architecture.md, checked in make test.
#  - curses only in src/ui; each library called from its one folder (and,
#    where one file wraps it, that file);
#  - label, review, note, repair, undo and redo only through decide/decide.h;
#  - scripts/layers.py: includes and calls only run down the floors, and
#    no two files use each other (it reads BUILD's objects for calls);
#  - every env has a row, with its attack tests, in docs/security.md's
#    threat-model table.
fail=0
hits=$(grep -rlE '#include *[<"](n?curses|ncursesw/curses)\.h' src | grep -v '^src/ui/')
if [ -n "$hits" ]; then echo "lint: curses outside src/ui: $hits"; fail=1; fi
check_only() {	# $1 pattern, $2 the one file, or folder/, allowed
	case $2 in
	*/) h=$(grep -rlE "$1" src | grep -v "^$2") ;;
	*) h=$(grep -rlE "$1" src | grep -v "^$2\$") ;;
	esac
	if [ -n "$h" ]; then echo "lint: $1 outside $2: $h"; fail=1; fi
}
check_only '\bsqlite3_[a-z_]+\s*\(' src/store/
check_only '#include "store/store_int\.h"' src/store/
check_only '\bgit_[a-z_]+\s*\(' src/exchange/vcs.c
check_only '\bvterm_[a-z_]+\s*\(' src/exec/term.c
check_only '\bts_(parser|tree|query|node|language)_[a-z_]+\s*\(' src/lang/
check_only '\bEVP_[A-Za-z_]+\s*\(' src/base/hash.c
check_only '\bseccomp_[a-z_]+\s*\(' src/exec/sysfilter.c
check_only '\bcurl_[a-z_]+\s*\(' src/base/http.c
# The front ends, the commands and the model loop decide through
# src/decide/decide.h (docs/adr/0019, 0047): a store decision call there
# would skip its rules.
h=$(grep -rlE '\bstore_(label_set|label_final|review_set|note_add|undo|redo|undo_any|redo_any|undo_step|batch_begin)\s*\(' src/ui src/cli src/app src/generate)
if [ -n "$h" ]; then echo "lint: a decision outside src/decide/decide.c: $h"; fail=1; fi
[ $fail -eq 0 ] && echo "lint: module boundaries ok"
# Every env of src/envs/registry.c has a row in docs/security.md's
# threat-model table ("Threat model per env"), under its .name, whose
# last cell names its attack tests, each of which exists: a test_ name
# in tests/unit/, a three-digit e2e number as tests/e2e/NNN-*.sh.  An
# env added without a row, or a row whose tests are gone, fails here.
tm=$(awk '/^## Threat model per env/ { t = 1; next } /^## / { t = 0 }
    t && /^\| / { print }' docs/security.md)
tmfail=0
for id in $(sed -n 's/^[[:space:]]*X(\([a-z0-9_]*\)).*/\1/p' \
    src/envs/registry.c); do
	name=$(awk -v v="env_$id" '$0 ~ "^const struct env_ops " v " = " \
	    { f = 1 } f && /\.name = "/ { sub(/.*\.name = "/, "");
	    sub(/".*/, ""); print; exit }' src/envs/*.c)
	row=$(printf '%s\n' "$tm" | awk -v n="$name" \
	    'index($0, "| " n " |") == 1 { print; exit }')
	if [ -z "$name" ] || [ -z "$row" ]; then
		echo "lint: env ${name:-$id} has no row in docs/security.md's" \
		    "threat-model table"
		tmfail=1
		continue
	fi
	tests=$(printf '%s\n' "$row" | awk -F'|' '{ print $(NF - 1) }')
	if [ -z "$(printf '%s' "$tests" | tr -d ' ')" ]; then
		echo "lint: env $name: its threat-model row names no attack test"
		tmfail=1
	fi
	for u in $(printf '%s\n' "$tests" | grep -oE 'test_[a-z0-9_]+' |
	    sort -u); do
		grep -rqw -- "$u" tests/unit || {
			echo "lint: env $name: unit test $u is in no file of" \
			    "tests/unit"
			tmfail=1
		}
	done
	for e in $(printf '%s\n' "$tests" | grep -oE '[0-9]+' |
	    grep -xE '[0-9]{3}' | sort -u); do
		ls tests/e2e/"$e"-*.sh >/dev/null 2>&1 || {
			echo "lint: env $name: no e2e test $e (tests/e2e/$e-*.sh)"
			tmfail=1
		}
	done
done
[ $tmfail -eq 0 ] && echo "lint: every env has its threat-model row" ||
    fail=1
python3 scripts/layers.py "${1:-build}" || fail=1
exit $fail
