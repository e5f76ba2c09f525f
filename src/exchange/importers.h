/*
 * importers.h - the table of the importers, one line each: X(ENUM, file)
 * gives the format IMPORT_ENUM (import.h) and names the importer object
 * importer_file that src/exchange/import_file.c defines (struct
 * importer: its --format name, how --format auto knows its input, its
 * reader).  Adding an importer is that file and one line here.
 *
 * The order is the order --format auto asks them in, the more particular
 * first: each importer's layout test (the path's name, a directory's
 * entries) in table order, then, for a file no layout claimed, each one's
 * test of the first row in table order.  So RTLFixer (task_id and
 * solution) is asked before VerilogEval v1 (task_id), and the dataset
 * checkout (any folder holding chip/ ...) after the VerilogEval layouts.
 */
#ifndef ASSAY_IMPORTERS_H
#define ASSAY_IMPORTERS_H

#define IMPORTERS(X) \
	X(ASSAY, assay) \
	X(RTLFIXER, rtlfixer) \
	X(RTLLM, rtllm) \
	X(REALBENCH, realbench) \
	X(KERNELBENCH, kernelbench) \
	X(TRITONBENCH, tritonbench) \
	X(ARCHXBENCH, archxbench) \
	X(VERISCOPE, veriscope) \
	X(TEXT2CADQUERY, text2cadquery) \
	X(SUPERCODER, supercoder) \
	X(VEV1, vev1) \
	X(VEV2, vev2) \
	X(DATASET, dataset)

#endif
