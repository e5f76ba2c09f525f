/*
 * results.h - run results as files (docs/formats.md "Run results"): each
 * run verify stores, one JSON object per line, so that runs made on
 * other machines (a Slurm array task, docs/cluster.md) travel back to
 * the main database, where `assay merge` folds them in.
 *
 * Each line ends in "mac_key" and "mac": the HMAC-SHA256, under a key
 * the merging database holds, of every byte of the line before
 * ',"mac":' (docs/adr/0033-authenticated-run-results.md).  The key is
 * the database's own (store_results_key_own) or a shard campaign's
 * (export --shards, kept in the database and the 0600 manifest); a line
 * edited by anyone without it no longer verifies.
 *
 * A results file is written to "<path>.tmp-XXXXXX" beside path and
 * renamed over path only when complete, so a reader never sees half a
 * file.  Completion markers ("<path>.done") say that every candidate of
 * a slice has a run in it.  The module never prints.
 *
 * Called by the verify and merge commands and tests.
 */
#ifndef ASSAY_RESULTS_H
#define ASSAY_RESULTS_H

#include <stddef.h>

#include <jansson.h>

#include "base/err.h"
#include "model/codec.h"
#include "model/sample.h"
#include "store/store.h"

/* The version every line carries as "assay_run" (the codec's). */
#define RESULTS_VERSION CODEC_RESULT_VERSION

/* The longest line merge reads: a 16 MiB log, each byte escaped as
 * \u00XX, and the rest of the run. */
#define RESULTS_LINE_MAX	((size_t)128 << 20)

/* A results key: its id (STORE_KEY_ID hex digits) and the key itself
 * (STORE_KEY_HEX hex digits, used as the HMAC key's bytes). */
struct results_key {
	char	id[STORE_KEY_ID + 1];
	char	key[STORE_KEY_HEX + 1];
};

struct results;

/*
 * Is k well formed: an id of STORE_KEY_ID and a key of STORE_KEY_HEX
 * lowercase hex digits?  0 or -1 with err (the key is never quoted).
 */
int	results_key_check(const struct results_key *k, struct err *err);

/*
 * The key of a shard manifest's "results_key" object ({"id", "key"}; o
 * may be NULL) into k, checked as results_key_check() does.  0, or -1
 * with err (a missing key says so).
 */
int	results_key_from_json(const json_t *o, struct results_key *k,
	    struct err *err);

/*
 * Start writing the results file path: a new temporary file beside it,
 * each line authenticated under key (copied); the temporary files of
 * path that a killed writer left are removed first (atomic_clean_stale:
 * only those no live writer holds).  *out is new; end with
 * results_close() or results_abort().  0 or -1 with err.
 */
int	results_open(struct results **out, const char *path,
	    const struct results_key *key, struct err *err);

/*
 * Append run r of a candidate of task task_id, verified with the timeout
 * override timeout_s (0: the task's own), as one line; stored says
 * whether the run is in the database that verify wrote (0: it could not
 * be stored, and this line is where it is kept).  The line is the
 * codec's (codec_run, CODEC_RESULT).  0 or -1 with err.
 */
int	results_add(struct results *w, const struct run *r, const char *task_id,
	    int timeout_s, int stored, struct err *err);

/* Lines written so far. */
size_t	results_count(const struct results *w);

/*
 * Flush, fsync and rename the temporary file over the path given to
 * results_open(), then fsync the directory; frees w.  0 or -1 with err
 * (the temporary file is then removed).
 */
int	results_close(struct results *w, struct err *err);

/* Remove the temporary file and free w.  NULL-safe. */
void	results_abort(struct results *w);

/*
 * The id of the key a line (len bytes, a trailing newline allowed) says
 * it was authenticated with, into id (STORE_KEY_ID + 1 bytes).  0, or
 * -1 with err when the line does not end in "mac_key" and "mac" (a line
 * of a version 1 file, written before MACs, or one cut or edited); a
 * line whose MAC is followed by a CR ("line ends in CR: a CRLF file?")
 * or by blanks is told so, and refused all the same.
 */
int	results_line_key(const char *line, size_t len, char *id,
	    struct err *err);

/*
 * Does the line's MAC match key (constant time)?  0, or -1 with err
 * ("wrong MAC: ...").  Check it before believing anything in the line.
 */
int	results_line_check(const char *line, size_t len,
	    const struct results_key *key, struct err *err);

/*
 * Parse one line of a results file (len bytes, no newline needed) into
 * *out (a run with no id; release it), the task id into *task_id (new,
 * caller frees), the timeout override into *timeout_s and the "stored"
 * flag into *stored (codec_run_parse).  The candidate id, task id and
 * env must pass ident.h's rules (no control characters).  The MAC is
 * not checked here (results_line_check).  0, or -1 with err saying
 * what is wrong (the caller adds file:line).
 */
int	results_parse(const char *line, size_t len, struct run *out,
	    char **task_id, int *timeout_s, int *stored, struct err *err);

/* "<results>.done": the completion marker of a results file.  New
 * string, caller frees. */
char	*results_marker_path(const char *results);

/*
 * Does the completion marker at marker say its slice is the one whose
 * sha256 the manifest gives (sha)?  1 yes; 0 when it is missing,
 * unreadable or of another slice.
 */
int	results_marker_ok(const char *marker, const char *sha);

/*
 * Per-slice statistics, as datatrove keeps one stats file per task and
 * sums them at the end: verify --input writes "<results>.stats.json"
 * beside its results file when the slice is complete, and merge --shards
 * sums those of the slices it merges (docs/formats.md, "Slice
 * statistics").  They are a report, not runs: nothing of them goes into
 * the database, and they carry no MAC.
 *
 * A stats object is a JSON object; results_stats_run() counts one run
 * into it: "runs", "verdicts" {VERDICT: n}, "run_wall_ms", and per env
 * "envs" {ENV: {"runs", "wall_ms", "toolchains" {IDENTITY: runs}}}.
 */
json_t	*results_stats_new(void);
void	 results_stats_run(json_t *st, const struct run *r);

/* "<results>.stats.json".  New string, caller frees. */
char	*results_stats_path(const char *results);

/*
 * Complete st (consumed) with the slice (its path and sha256), the
 * candidates it holds, the host, the start (Unix seconds) and the wall
 * and CPU seconds the task took (its own and its children's: the
 * toolchains), and write it atomically to results_stats_path(results).
 * 0 or -1 with err.
 */
int	results_stats_write(const char *results, json_t *st, const char *slice,
	    const char *sha, size_t candidates, long long started,
	    double wall_s, double cpu_s, struct err *err);

/*
 * Add the stats file at path into total (an object; sums of every
 * number, "verdicts", "envs" and "toolchains" merged, "slices" counted,
 * the hosts listed).  0, or -1 with err (a file missing or not a stats
 * file).
 */
int	results_stats_sum(json_t *total, const char *path, struct err *err);

/* sha256 of the file at path, read in chunks, into hex (65 bytes).  0 or
 * -1 with err. */
int	results_file_sha256(const char *path, char *hex, struct err *err);

#endif
