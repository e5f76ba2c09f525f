#!/bin/sh
# lint.sh - module boundaries of docs/style.md, checked in make test.
fail=0
hits=$(grep -rlE '#include *[<"](n?curses|ncursesw/curses)\.h' src/core src/envs 2>/dev/null)
if [ -n "$hits" ]; then echo "lint: curses outside src/ui: $hits"; fail=1; fi
hits=$(grep -rlE '\b(sqlite3_[a-z_]+|git_[a-z_]+|ts_(parser|tree|query|node|language)_[a-z_]+|vterm_[a-z_]+)\s*\(' src/ui src/envs src/main.c 2>/dev/null)
if [ -n "$hits" ]; then echo "lint: library called outside its core module: $hits"; fail=1; fi
check_only() {	# $1 pattern, $2 the one file allowed
	h=$(grep -rlE "$1" src | grep -v "^$2\$")
	if [ -n "$h" ]; then echo "lint: $1 outside $2: $h"; fail=1; fi
}
check_only '\bsqlite3_[a-z_]+\s*\(' src/core/store.c
check_only '\bgit_[a-z_]+\s*\(' src/core/vcs.c
check_only '\bvterm_[a-z_]+\s*\(' src/core/term.c
check_only '\bts_(parser|tree|query|node|language)_[a-z_]+\s*\(' src/core/syntax.c
check_only '\bEVP_[A-Za-z_]+\s*\(' src/core/hash.c
check_only '\bseccomp_[a-z_]+\s*\(' src/core/sysfilter.c
check_only '\bcurl_[a-z_]+\s*\(' src/core/http.c
[ $fail -eq 0 ] && echo "lint: module boundaries ok"
exit $fail
