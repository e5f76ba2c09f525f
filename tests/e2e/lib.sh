# lib.sh - helpers for end-to-end tests; sourced with $1 = assay binary.
set -u
ASSAY=$1
SHARED=${ASSAY_SHARED:-$(cd "$(dirname "$0")/../../.." && pwd)/shared}
DATA=$SHARED/data
T=$(mktemp -d "${TMPDIR:-/tmp}/assay-e2e.XXXXXX")
[ -n "${KEEP_T:-}" ] || trap 'rm -rf "$T"' EXIT
DB=$T/assay.db
export ASSAY_REVIEWER=tester

fail() { echo "FAIL: $*"; exit 1; }
skip() { echo "$*"; exit 77; }
# expect_eq WHAT GOT WANT
expect_eq() { [ "$2" = "$3" ] || fail "$1: got '$2', want '$3'"; echo "ok: $1 = $3"; }
# count candidates of a list --where FILTER
count() { "$ASSAY" --db "$DB" list --json --where "$1" | wc -l | tr -d ' '; }
need_data() { [ -d "$DATA" ] || skip "no shared data at $DATA"; }
# export_all DB ARG... - an sft export of DB with --include-failing: the
# rows to learn, then the failing ones, on stdout (the export writes
# them to two files, never one stream; issue 25 item 3).  Its notices
# stay on stderr; the exit status is the export's.
export_all() {
	_db=$1
	shift
	_o=$T/export-all.jsonl
	rm -f "$_o" "$T/export-all.failing.jsonl"
	"$ASSAY" --db "$_db" export --include-failing -o "$_o" "$@" >/dev/null ||
	    return $?
	cat "$_o"
	[ ! -e "$T/export-all.failing.jsonl" ] || cat "$T/export-all.failing.jsonl"
}
# need_triton [no-gpu]: skip unless the project venv has torch and triton
# (assay envs), and with no-gpu unless no GPU is here (the CPU path runs).
need_triton() {
	tri=$("$ASSAY" envs | grep '^triton ')
	printf '%s\n' "$tri" | grep -Eq '; torch [0-9][^;]*; triton [0-9]' ||
		skip "no torch and triton in the project venv (make deps): $tri"
	[ "${1:-}" != no-gpu ] || printf '%s\n' "$tri" | grep -q '; no GPU' ||
		skip "a GPU is here: the GPU path runs instead (150-kernelbench.sh)"
}
