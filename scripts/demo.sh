#!/bin/sh
# demo.sh ASSAY - open the workbench on samples of all five domains: the
# shared VerilogEval v2 problems and the RTLFixer syntax and simulate sets
# (chip), and our own example tasks of the other four domains (examples/:
# GPU, embedded, compiler, 3D), imported once into demo.db (a second run
# reuses it).
set -u
assay=$1
db=${ASSAY_DEMO_DB:-demo.db}
data=${ASSAY_SHARED:-../shared}/data

if [ -f "$db" ]; then
	echo "assay demo: reusing $db (delete it to import again)"
	exec "$assay" --db "$db" --repo demo-dataset
fi

echo "assay demo: importing samples into $db ..."
for f in examples/*/*.jsonl; do
	[ -f "$f" ] || continue
	"$assay" --db "$db" import "$f" >/dev/null || exit 2
done
if [ -d "$data" ]; then
	"$assay" --db "$db" import "$data/verilog-eval-v2" \
	    "$data/rtlfixer/verilogeval-syntax.jsonl" \
	    "$data/rtlfixer/verilogeval-simulate.jsonl" || exit 2
else
	cat <<MSG
assay demo: no benchmark data at $data.
The chip part of the demo reads public benchmark data from ../shared/data
beside this checkout (VerilogEval v2 at data/verilog-eval-v2, RTLFixer
at data/rtlfixer).  Put a copy there, or set ASSAY_SHARED, delete $db
and run make demo again; you can also import your own with
  $assay --db $db import PATH
Opening the workbench on the example tasks only.
MSG
	sleep 2
fi
# Verify the examples, the references and the syntax set up front (under
# a minute); the rest verify live with v in the workbench.  A toolchain
# this machine lacks gives skipped or env-error with the reason, and
# `assay envs` says what to install.  One line shows how far each set
# is: verify's "[k/N] ID VERDICT" lines, counted as they come.
verify_set() {	# WHAT FILTER
	echo "assay demo: verifying $1 ..."
	"$assay" --db "$db" verify --jobs 2 --where "$2" 2>&1 >/dev/null |
	    awk -v what="$1" '
	    /^\[[0-9]+\/[0-9]+\] / {
		k = substr($1, 2, length($1) - 2)
		printf "\rassay demo: %s %s done (%s %s)        ", what, k, $2, $3
		fflush()
		next
	    }
	    { print }	# a message of verify: as it is
	    END { printf "\n" }'
}
verify_set "the examples" "domain!=chip"
if [ -d "$data" ]; then
	verify_set "the RTLFixer syntax set" "source~verilogeval-syntax"
	verify_set "VerilogEval v2" "benchmark=verilog-eval-v2"
fi
exec "$assay" --db "$db" --repo demo-dataset
