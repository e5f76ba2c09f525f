# 040: label, accept, commit through libgit2; trailers per sample; a
# rejected sample leaves the next commit; nothing new is no commit.
. "$(dirname "$0")/lib.sh"
need_data
command -v iverilog >/dev/null || skip "iverilog not installed"
command -v git >/dev/null || skip "git not installed"
export HOME=$T GIT_CONFIG_NOSYSTEM=1

"$ASSAY" --db "$DB" import "$DATA/verilog-eval-v2" 2>/dev/null >/dev/null || fail import
"$ASSAY" --db "$DB" verify --quiet --jobs 2 --where "task~Prob00" >/dev/null || fail verify
ids=$("$ASSAY" --db "$DB" list --where "task~Prob00 verdict=pass" | awk 'NR>1 && NR<=4 {print $1}')
for id in $ids; do
	"$ASSAY" --db "$DB" review "$id" accept >/dev/null || fail "accept $id"
done
"$ASSAY" --db "$DB" commit --repo "$T/ds" || fail "commit"
expect_eq "commits" "$(git -C "$T/ds" rev-list --count HEAD)" 1
expect_eq "branch" "$(git -C "$T/ds" symbolic-ref --short HEAD)" main
msg=$(git -C "$T/ds" log -1 --format=%B)
for id in $ids; do
	echo "$msg" | grep -q "^Assay-Sample: $id\$" || fail "no trailer for $id"
	git -C "$T/ds" ls-files | grep -q "/$id.sv\$" || fail "no code file for $id"
	git -C "$T/ds" ls-files | grep -q "/$id.json\$" || fail "no json for $id"
done
echo "$msg" | grep -q "^Assay-Verdict: pass$" || fail "no verdict trailer"
echo "$msg" | grep -q "^Reviewed-by: tester$" || fail "no reviewer trailer"
echo "$msg" | grep -q "^Toolchain: Icarus Verilog" || fail "no toolchain trailer"
git -C "$T/ds" ls-files | grep -q "^chip/verilog-eval-v2/Prob00[0-9]_[a-z0-9_]*/task.json$" || fail "layout"
echo "ok: first commit"

out=$("$ASSAY" --db "$DB" commit --repo "$T/ds") || fail "second commit"
case $out in "nothing new to commit"*) echo "ok: $out" ;; *) fail "$out" ;; esac
expect_eq "no new commit" "$(git -C "$T/ds" rev-list --count HEAD)" 1

first=$(echo "$ids" | head -n 1)
"$ASSAY" --db "$DB" review "$first" reject >/dev/null
"$ASSAY" --db "$DB" commit --repo "$T/ds" >/dev/null || fail "third commit"
expect_eq "commits after reject" "$(git -C "$T/ds" rev-list --count HEAD)" 2
git -C "$T/ds" ls-files | grep -q "/$first\." && fail "rejected sample still in the dataset"
git -C "$T/ds" log -1 --format=%B | grep -q "^Assay-Sample: $first$" || fail "removal not named"
echo "ok: rejected sample removed"

# Undo the reject through the journal: the sample comes back.
"$ASSAY" --db "$DB" undo | grep -q "undid review rejected of $first" || fail "undo"
"$ASSAY" --db "$DB" commit --repo "$T/ds" >/dev/null || fail "fourth commit"
git -C "$T/ds" ls-files | grep -q "/$first.sv" || fail "undone reject not restored"
git -C "$T/ds" fsck --no-progress 2>&1 | grep -q . && fail "fsck complains"
echo "ok: undo restored the sample"

# --repo naming a file: said so (libgit2 said "failed to make directory
# ...: directory exists"), exit 2, the file untouched
printf 'a file\n' >"$T/notadir"
"$ASSAY" --db "$DB" commit --repo "$T/notadir" >/dev/null 2>"$T/nd.err"
expect_eq "commit into a file: exit" $? 2
grep -q "$T/notadir is a file, not a directory" "$T/nd.err" ||
    fail "commit into a file: $(cat "$T/nd.err")"
expect_eq "the file untouched" "$(cat "$T/notadir")" "a file"
