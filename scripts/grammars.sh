#!/bin/sh
# grammars.sh - fetch, verify and compile one pinned tree-sitter grammar.
#
#   grammars.sh build MANIFEST NAME OUTDIR
#
# Reads NAME's version and sha256 from MANIFEST, fetches the tarball with
# `npm pack NAME@VERSION` into OUTDIR, refuses it unless the checksum
# matches, extracts src/ and compiles parser.c (and scanner.c when the
# grammar has one) with -O2 -w and no sanitizers into OUTDIR/NAME/NAME-*.o.
# A grammar already built from the same checksum is not fetched or
# compiled again.  Called by mk/grammars.mk, one grammar per make job.
set -eu

die() {
	echo "grammars: $*" >&2
	exit 1
}

sha256_of() {
	if command -v sha256sum >/dev/null 2>&1; then
		sha256sum "$1" | cut -d' ' -f1
	else
		shasum -a 256 "$1" | cut -d' ' -f1
	fi
}

[ $# -eq 4 ] && [ "$1" = build ] ||
    die "usage: grammars.sh build MANIFEST NAME OUTDIR"
manifest=$2 name=$3 out=$4
CC=${CC:-cc}

line=$(awk -v n="$name" '$1 == n && !/^#/ { print $2, $3; exit }' "$manifest")
[ -n "$line" ] || die "$name: not in $manifest"
version=${line% *}
sha=${line#* }
[ ${#sha} -eq 64 ] || die "$name: bad checksum in $manifest"

dir=$out/$name
done_file=$dir/.built
if [ -f "$done_file" ] && [ -f "$dir/$name-parser.o" ] &&
    [ "$(cat "$done_file")" = "$version $sha" ]; then
	exit 0
fi

mkdir -p "$out"
out_abs=$(cd "$out" && pwd)
tgz=$out_abs/$name-$version.tgz
if [ ! -f "$tgz" ] || [ "$(sha256_of "$tgz")" != "$sha" ]; then
	rm -f "$tgz"
	command -v npm >/dev/null 2>&1 || die "npm not found (run make deps)"
	echo "grammars: fetching $name@$version"
	(cd "$out_abs" && npm pack --silent "$name@$version" >/dev/null) ||
	    die "$name@$version: npm pack failed"
	[ -f "$tgz" ] || die "$name@$version: npm pack wrote no $tgz"
fi
got=$(sha256_of "$tgz")
if [ "$got" != "$sha" ]; then
	mv "$tgz" "$tgz.bad"
	die "$name@$version: CHECKSUM MISMATCH
  expected $sha
  got      $got
  (tarball kept as $tgz.bad; not extracted)"
fi

rm -rf "$dir"
mkdir -p "$dir"
tar -xzf "$tgz" -C "$dir" --strip-components=1 package/src ||
    die "$name@$version: cannot extract src/"
[ -f "$dir/src/parser.c" ] || die "$name@$version: no src/parser.c"

echo "grammars: compiling $name@$version"
# Object names carry the grammar name: ar members must be unique.
for f in parser scanner; do
	[ -f "$dir/src/$f.c" ] || continue
	$CC -O2 -w -I"$dir/src" -c "$dir/src/$f.c" -o "$dir/$name-$f.o.tmp"
	mv "$dir/$name-$f.o.tmp" "$dir/$name-$f.o"
done
echo "$version $sha" >"$done_file"
