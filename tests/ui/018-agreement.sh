# 018-agreement.sh - issue 5, "Error analysis and people": two reviewers
# label the same six candidates in the workbench, each in a session of
# their own (--reviewer), with single keys and auto-advance, and do not
# always agree.  Their Cohen's kappa, worked out by hand below, shows in
# `assay stats --agreement` and on the agreement page of the stats sheet
# with the 5x5 confusion matrix; the reviewers page counts decisions.
#
#   candidate   1        2           3           4           5    6
#   alice       compile  compile     functional  functional  api  compile
#   bob         compile  functional  functional  functional  api  api
#
# agreements: 1, 3, 4, 5 -> po = 4/6
# alice's categories: compile 3, functional 2, api 1
# bob's categories:   compile 1, functional 3, api 2
# pe = (3*1 + 2*3 + 1*2) / 6^2 = 11/36
# kappa = (po - pe) / (1 - pe) = (24/36 - 11/36) / (25/36) = 13/25 = 0.52
. "$(dirname "$0")/lib.sh"
# wait_re REGEX WHY: poll the screen until a line matches REGEX (grep
# -E), or fail with WHY after 10 s; a frame may reach tmux in parts.
wait_re() {
	n=100
	while [ $n -gt 0 ]; do
		screen | grep -q -E -- "$1" && return 0
		sleep 0.1
		n=$((n - 1))
	done
	fail "$2"
}

"$ASSAY" --db "$DB" import "$DATA/rtlfixer/verilogeval-syntax.jsonl" \
    >/dev/null || fail "import rtlfixer"

# keys 1 compile, 2 api, 3 functional; each label advances
start 120 40 "--reviewer alice"
wait_for "1/174"
for k in 1 1 3 3 2 1; do keys "$k"; done
wait_for " 7/174 "
keys q
wait_for "ASSAY-EXIT 0"
start 120 40 "--reviewer bob"
wait_for "1/174"
for k in 1 3 3 3 2 2; do keys "$k"; done
wait_for " 7/174 "
keys q
wait_for "ASSAY-EXIT 0"
ok "alice and bob label six candidates each"

"$ASSAY" --db "$DB" stats --agreement >"$T/agree" || fail "stats --agreement"
grep -q -E '^alice +bob +6 +4 +0\.667 +0\.306 +0\.520$' "$T/agree" ||
    { cat "$T/agree"; fail "stats --agreement does not give kappa 0.520"; }
# the matrix: alice's rows, bob's columns
grep -q -E '^compile +1 +1 +1 +0 +0$' "$T/agree" ||
    { cat "$T/agree"; fail "wrong compile row of the matrix"; }
grep -q -E '^functional +0 +0 +2 +0 +0$' "$T/agree" ||
    fail "wrong functional row of the matrix"
grep -q '^2 candidates in disagreement (disagree=yes)$' "$T/agree" ||
    fail "the disagreements are not counted"
"$ASSAY" --db "$DB" stats --agreement --format json |
    grep -q '"kappa":0\.5199999\|"kappa":0\.52' || fail "json kappa"
"$ASSAY" --db "$DB" stats --reviewers >"$T/rev" || fail "stats --reviewers"
grep -q -E '^alice +6 +5 ' "$T/rev" || { cat "$T/rev"; fail "alice's count"; }
grep -q -E '^bob +6 +5 ' "$T/rev" || fail "bob's decisions"
ok "assay stats --agreement: kappa 0.52 and the matrix; --reviewers"

# the sheet: s, then Tab past the four groupings to reviewers, agreement
start 120 40 "--reviewer carol"
wait_for "1/174"
keys s
wait_for " stats "
keys Tab Tab Tab Tab
wait_for "reviewers: decisions per hour"
wait_re "│alice +6 +5 " "no alice on the reviewers page"
keys Tab
wait_for "agreement: Cohen's kappa"
wait_re "│alice +& bob +6 +4 +0\.67 +0\.31 +0\.52" \
    "the sheet does not show kappa 0.52"
wait_re "│compile +1 +1 +1 +0 +0" "the sheet has no confusion matrix"
wait_for "2 candidates in disagreement"
ok "the stats sheet shows the reviewers and kappa with the matrix"
keys q
wait_gone " stats "
keys q
wait_for "ASSAY-EXIT 0"
