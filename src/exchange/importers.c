/*
 * importers.c - the table of the importers that live in a file of their
 * own (import.h, struct importer), in the order --format auto asks them.
 * import.c reads the assay JSONL, VerilogEval and RTLFixer itself.
 */
#include "exchange/import.h"

const struct importer importers[] = {
	{ "rtllm", IMPORT_RTLLM, 0, import_rtllm_detect, import_rtllm },
	{ "realbench", IMPORT_REALBENCH, 0, import_realbench_detect,
	    import_realbench },
	{ "kernelbench", IMPORT_KERNELBENCH, 0, import_kernelbench_detect,
	    import_kernelbench },
	{ "dataset", IMPORT_DATASET, 1, import_dataset_detect,
	    import_dataset },
};

const size_t nimporters = sizeof importers / sizeof importers[0];
