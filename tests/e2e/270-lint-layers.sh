#!/bin/sh
# 270-lint-layers.sh - scripts/layers.py rejects an upward include, an
# include without its folder, an upward call and a circle, and passes the
# same tree without them (docs/architecture.md, the floors).
. "$(dirname "$0")/lib.sh"
root=$(pwd)
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
mkdir -p "$T/src/base" "$T/src/store" "$T/build/src/base" "$T/build/src/store"
cd "$T"
printf 'int store_open(void);\nint store_open(void) { return 0; }\n' > src/store/store.c
printf '/* s */\n' > src/store/store.h
printf 'int a(void);\nint a(void) { return 1; }\n' > src/base/a.c
lint() { python3 "$root/scripts/layers.py" build > out 2>&1; }
build() { for f in src/*/*.c; do cc -c -o "build/${f%.c}.o" "$f" || exit 1; done; }
build
lint || fail "a clean tree fails: $(cat out)"

printf '#include "store/store.h"\nint a(void);\nint a(void) { return 1; }\n' > src/base/a.c
lint && fail "an upward include passed"
grep -q 'src/base/a.c:1: base/ includes store/store.h' out || fail "upward include: $(cat out)"

printf '#include "a.h"\nint a(void);\nint a(void) { return 1; }\n' > src/base/a.c
: > src/base/a.h
lint && fail "an include without its folder passed"
grep -q 'src/base/a.c:1: include "a.h" without its folder' out || fail "bare include: $(cat out)"
rm src/base/a.h

printf '#include "../store/store.h"\nint a(void);\nint a(void) { return 1; }\n' > src/base/a.c
lint && fail "an upward include by a relative path passed"
grep -q 'src/base/a.c:1: include "../store/store.h" by a relative path' out || fail "relative include: $(cat out)"

printf 'int store_open(void);\nint a(void);\nint a(void) { return store_open(); }\n' > src/base/a.c
build; lint && fail "an upward call passed"
grep -q 'src/base/a.c: calls store_open of src/store/store.c' out || fail "upward call: $(cat out)"

printf 'int b(void);\nint a(void);\nint a(void) { return b(); }\n' > src/base/a.c
printf 'int a(void);\nint b(void);\nint b(void) { return a() + 1; }\n' > src/base/b.c
build; lint && fail "a circle passed"
grep -q 'circle: src/base/a.c <-> src/base/b.c' out || fail "circle: $(cat out)"
echo ok
