#!/bin/sh
# demo.sh ASSAY - open the workbench on real samples: the shared
# VerilogEval v2 problems and the RTLFixer syntax and simulate sets,
# imported once into demo.db (a second run reuses it).
set -u
assay=$1
db=${ASSAY_DEMO_DB:-demo.db}
data=${ASSAY_SHARED:-../shared}/data

if [ ! -d "$data" ]; then
	cat <<MSG
assay demo: no sample data at $data.
The demo reads public benchmark data from ../shared/data beside this
checkout (VerilogEval v2 at data/verilog-eval-v2, RTLFixer at
data/rtlfixer).  Put a copy there, or set ASSAY_SHARED, and run
make demo again; you can also import your own with
  $assay --db $db import PATH
Opening an empty workbench.
MSG
	sleep 2
elif [ ! -f "$db" ]; then
	echo "assay demo: importing real samples into $db ..."
	"$assay" --db "$db" import "$data/verilog-eval-v2" \
	    "$data/rtlfixer/verilogeval-syntax.jsonl" \
	    "$data/rtlfixer/verilogeval-simulate.jsonl" || exit 2
	# Verify the references and the syntax set up front (a few seconds);
	# the rest verify live with v in the workbench.
	"$assay" --db "$db" verify --jobs 2 --quiet \
	    --where "source~verilogeval-syntax" || true
	"$assay" --db "$db" verify --jobs 2 --quiet \
	    --where "benchmark=verilog-eval-v2" || true
else
	echo "assay demo: reusing $db (delete it to import again)"
fi
exec "$assay" --db "$db" --repo demo-dataset
