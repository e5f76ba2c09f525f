/*
 * fuzz_import.c - libFuzzer target for the importers (issue 10): the
 * input is one file handed to import_path() in the format FUZZ_FORMAT
 * (IMPORT_ASSAY, IMPORT_RTLFIXER or IMPORT_AUTO, set by the Makefile),
 * into an in-memory store.  Crashes, leaks and undefined behaviour are
 * the findings; import errors are expected and ignored.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "base/err.h"
#include "exchange/import.h"
#include "store/store.h"

#ifndef FUZZ_FORMAT
#define FUZZ_FORMAT IMPORT_ASSAY
#endif

static struct store *st;
static char path[64];
static unsigned runs;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct import_opts o = { .format = FUZZ_FORMAT, .by = "fuzz" };
	struct import_report rep;
	struct err err;
	FILE *f;

	if (path[0] == '\0')
		snprintf(path, sizeof path, "/tmp/assay-fuzz-%ld.jsonl",
		    (long)getpid());
	/* A fresh store now and then: what an import adds stays. */
	if (st == NULL || ++runs % 500 == 0) {
		store_close(st);
		if (store_open(&st, ":memory:", &err) < 0)
			abort();
	}
	f = fopen(path, "wb");
	if (f == NULL)
		abort();
	fwrite(data, 1, size, f);
	fclose(f);
	o.keep_going = size > 0 && (data[0] & 1);
	import_report_init(&rep);
	(void)import_path(st, path, &o, &rep, &err);
	import_report_release(&rep);
	unlink(path);
	return 0;
}
