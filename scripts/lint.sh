#!/bin/sh
# lint.sh [BUILD] - module boundaries of docs/style.md and the floors of
# docs/architecture.md, checked in make test.
#  - curses only in src/ui; each library called from its one folder (and,
#    where one file wraps it, that file);
#  - label, review, note, repair, undo and redo only through app/decide.h;
#  - scripts/layers.py: includes and calls only run down the floors, and
#    no two files use each other (it reads BUILD's objects for calls).
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
# The front ends decide through src/app/decide.h (docs/adr/0019): a
# store decision call in src/ui or src/cli would skip its rules.
h=$(grep -rlE '\bstore_(label_set|label_final|review_set|note_add|undo|redo|undo_any|redo_any|undo_step|batch_begin)\s*\(' src/ui src/cli)
if [ -n "$h" ]; then echo "lint: a decision outside src/app/decide.c: $h"; fail=1; fi
[ $fail -eq 0 ] && echo "lint: module boundaries ok"
python3 scripts/layers.py "${1:-build}" || fail=1
exit $fail
