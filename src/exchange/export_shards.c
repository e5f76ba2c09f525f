/*
 * export_shards.c - `assay export --format raw --shards N -o DIR`: N
 * slices partitioned by task and a manifest, for verifying on a cluster
 * (docs/cluster.md).  Each slice is an ordinary raw export (export.c)
 * restricted to the tasks of its shard; this file only loops, checksums
 * and writes the manifest.  Called by the export command and tests.
 */
#include "exchange/export.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <jansson.h>

#include "base/atomic.h"
#include "exchange/results.h"

int
export_shards(struct store *st, const struct export_opts *opts,
    const char *dir, unsigned nshards, struct export_slice **slices,
    struct err *err)
{
	struct export_opts o = *opts;
	struct results_key key;
	struct export_slice *v;
	json_t *man = NULL, *arr;
	char *filter = NULL, *path = NULL, *txt = NULL;
	size_t ntasks = 0, ncands = 0;
	int rc = -1;

	*slices = NULL;
	if (opts->format != EXPORT_RAW)
		return err_set(err, "--shards writes the raw format only");
	if (nshards < 1 || nshards > 100000)
		return err_set(err, "--shards wants 1..100000, not %u", nshards);
	if (mkdir(dir, 0777) < 0 && errno != EEXIST)
		return err_set(err, "%s: %s", dir, strerror(errno));
	v = xcalloc(nshards, sizeof *v);
	arr = json_array();
	o.nshards = nshards;
	for (unsigned i = 0; i < nshards; i++) {
		struct export_report rep;
		struct stat sb;

		snprintf(v[i].file, sizeof v[i].file, "slice-%04u.jsonl", i);
		free(path);
		path = xasprintf("%s/%s", dir, v[i].file);
		o.shard = i;
		if (export_file(st, &o, path, &rep, err) < 0 ||
		    results_file_sha256(path, v[i].sha256, err) < 0)
			goto out;
		if (stat(path, &sb) < 0) {
			err_set(err, "%s: %s", path, strerror(errno));
			goto out;
		}
		v[i].bytes = (size_t)sb.st_size;
		v[i].tasks = rep.tasks;
		v[i].candidates = rep.lines - rep.empty;
		ntasks += v[i].tasks;
		ncands += v[i].candidates;
		json_array_append_new(arr, json_pack("{s:I, s:s, s:I, s:I, s:I,"
		    " s:s}", "index", (json_int_t)i, "file", v[i].file,
		    "tasks", (json_int_t)v[i].tasks, "candidates",
		    (json_int_t)v[i].candidates, "bytes",
		    (json_int_t)v[i].bytes, "sha256", v[i].sha256));
	}
	/* The campaign's results key: the nodes' verify --input MACs its
	 * run lines with it, merge checks them with the database's copy
	 * (results.h).  Only the owner may read the manifest. */
	if (store_results_key_new(st, dir, key.id, key.key, err) < 0)
		goto out;
	filter = export_filter(opts->format, opts->where);
	man = json_pack("{s:i, s:o, s:s, s:I, s:I, s:I, s:I, s:o, s:{s:s, s:s}}",
	    "assay_shards", 1, "filter", filter != NULL ? json_string(filter) :
	    json_null(), "partition", "fnv1a32(task id) mod shards", "shards",
	    (json_int_t)nshards, "tasks", (json_int_t)ntasks, "candidates",
	    (json_int_t)ncands, "created", (json_int_t)time(NULL), "slices",
	    arr, "results_key", "id", key.id, "key", key.key);
	arr = NULL;
	txt = json_dumps(man, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
	free(path);
	path = xasprintf("%s/manifest.json", dir);
	if (atomic_write_mode(path, txt, 0600, err) < 0)
		goto out;
	*slices = v;
	v = NULL;
	rc = 0;
out:
	json_decref(arr);
	json_decref(man);
	free(txt);
	free(filter);
	free(path);
	free(v);
	return rc;
}
