/*
 * codec.h - the one JSON codec of a task, a candidate, a recorded result
 * and a run (sample.h): every writer of one of them as JSON builds it
 * here, and the run result line is read back here, so that a field is
 * written one way wherever it appears (docs/formats.md, docs/adr/0029).
 *
 * A writer names its format, a profile; the profile decides which fields
 * are written and in which order, never how a field is written:
 *
 *   CODEC_RAW      the assay JSONL of export --format raw, read back by
 *                  import (round trip: text that JSON cannot carry is an
 *                  error, unknown fields kept in extra are merged back)
 *   CODEC_DATASET  the dataset's task.json and <id>.json (assay commit):
 *                  files and code by name and sha256, not by text
 *   CODEC_SHOW     show --json: text made valid UTF-8 for reading, with
 *                  KEY_replaced counting the bytes replaced
 *   CODEC_RESULT   a run result line (verify --results, merge), version
 *                  CODEC_RESULT_VERSION; runs only
 *
 * The rules every profile shares, field by field:
 * - a string field of the struct that is NULL is null, or left out where
 *   the format says "when there is one" (origin_raw, license_source,
 *   split, a raw task's spec, interface and source);
 * - text that is not valid UTF-8 gets U+FFFD for each bad byte (jansson
 *   refuses such a string and would drop its key), except where the
 *   profile must carry the bytes: a raw export's code and task files
 *   (error) and a result line's log (log_hex);
 * - JSON kept as text (env_params, metrics, inputs) is written as the
 *   value it holds, in its own key order; text that is not JSON is kept
 *   as a string, so nothing is lost; env_params absent is {};
 * - integers are integers: evidence_line and a diagnostic's cand_line are
 *   0 when they point nowhere, as the result line has always written them.
 *
 * Every json_t * returned is a new reference the caller releases with
 * json_decref(); the structs are only read.  Functions that can fail
 * return -1 (or NULL) and fill err with what is wrong.
 */
#ifndef ASSAY_CODEC_H
#define ASSAY_CODEC_H

#include <stddef.h>

#include <jansson.h>

#include "base/err.h"
#include "model/sample.h"

/* The version of the run result line ("assay_run"); a reader refuses
 * another.  2: the line ends in "mac_key" and "mac" (exchange/results.h),
 * which version 1 lines lack. */
#define CODEC_RESULT_VERSION	2

enum codec_profile {
	CODEC_RAW,
	CODEC_DATASET,
	CODEC_SHOW,
	CODEC_RESULT,
};

/*
 * What a writer knows that the struct does not hold.  Zero it, set the
 * profile and what that profile reads:
 * - file_role (CODEC_RAW tasks): the role a task file's name gives for a
 *   task of env (import_file_role(), handed down from exchange/): files
 *   whose roles all agree with their names are written as an object
 *   name -> text, else as [{"name", "role", "text"}];
 * - source (CODEC_DATASET): the task's or candidate's source as the
 *   dataset writes it (relative), NULL for null;
 * - code_file (CODEC_DATASET candidates): the name of the code's file;
 * - task_id, timeout_s, stored (CODEC_RESULT): the run's task, the
 *   --timeout it ran with (0: the task's own), whether it is stored.
 */
struct codec_ctx {
	enum codec_profile profile;
	const char	*(*file_role)(const char *name, const char *env);
	const char	*source;
	const char	*code_file;
	const char	*task_id;
	int		 timeout_s;
	int		 stored;
};

/*
 * A task as a new object.
 *   RAW:     id benchmark domain env env_params [spec] [interface]
 *            [source] files (text), then its extra's members that are
 *            not fields already.  NULL and err when a file is not UTF-8.
 *   DATASET: id benchmark domain env env_params spec interface files
 *            ([{name, role, path: "files/NAME", sha256}]) source license
 *            [license_source] [split split_by] [extra]
 *   SHOW:    id benchmark domain env env_params spec interface source
 *            files ([{name, role, content}])
 */
json_t	*codec_task(const struct task *t, const struct codec_ctx *x,
	    struct err *err);

/*
 * A candidate's fields added to o, after what o holds (show puts them
 * after the queue row, the dataset adds its own around them).
 *   RAW:     id origin [origin_raw] kind lang code parent source, then
 *            its extra's members that are not fields, but "$row" (the
 *            line's own unknown fields; the caller merges those).  -1
 *            and err when the code is not UTF-8.
 *   DATASET: id task origin [origin_raw] kind lang code (x->code_file)
 *            parent source (x->source) code_sha256; the dataset sorts
 *            the keys of <id>.json
 *   SHOW:    [generation] (extra's, generate.h) code code_hash
 *            [origin_raw]
 */
int	 codec_candidate_put(json_t *o, const struct candidate *c,
	    const struct codec_ctx *x, struct err *err);

/* The unknown fields of the line a candidate was imported from (its
 * extra's "$row") added to row, the raw line, where row lacks them. */
void	 codec_row_unknown(json_t *row, const struct candidate *c);

/*
 * A recorded result as a new object.
 *   RAW:  its raw fields (extra), then [verdict] [stage] [log]
 *   SHOW: verdict stage log raw (the extra object, or null)
 */
json_t	*codec_recorded(const struct recorded *r, const struct codec_ctx *x);

/*
 * A run as a new object.
 *   RESULT:  assay_run candidate task env verdict stage category
 *            subcategory evidence evidence_line diagnostics metrics
 *            command toolchain input_key inputs timeout_s exit_code
 *            started wall_ms log|log_hex stored, the order of
 *            docs/formats.md "Run results"; a log that is not UTF-8 is
 *            log_hex, the hex of its bytes
 *   SHOW:    id env verdict stage subcategory category evidence
 *            evidence_line metrics toolchain inputs exit_code wall_ms
 *            started command diagnostics (show adds the pipeline and
 *            the log, codec_put_shown)
 *   DATASET: verdict stage subcategory metrics toolchain inputs env
 * A diagnostic is {file, line, col, severity, message, cand_line}.
 */
json_t	*codec_run(const struct run *r, const struct codec_ctx *x);

/*
 * A run result line (CODEC_RESULT) read back into out (zeroed first; the
 * caller run_release()s it), with its task id (new string), timeout and
 * stored flag.  A line without the version, of another version, with a
 * required field missing, a field of the wrong type or an unknown
 * verdict is -1 with err naming the field; out then holds nothing.
 */
int	 codec_run_parse(const char *line, size_t len, struct run *out,
	    char **task_id, int *timeout_s, int *stored, struct err *err);

/* --- read back: the assay JSONL (CODEC_RAW) and the dataset --------
 * The fields each reader knows are the ones codec_task and
 * codec_candidate_put write; the raw reader puts the others in extra,
 * where the raw writers find them again, so a round trip loses nothing.
 * A reader's -1 comes with err saying what is wrong, without the place:
 * the importer adds PATH:LINE or the file.  The struct is zeroed first
 * and released by the caller, also after an error.
 */

/*
 * A task object.
 *   RAW:     "id" and "env" required; "benchmark" "local" and "domain"
 *            "chip" when absent; "env_params" an object, kept as its
 *            text in its key order; "spec", "interface" and "source" as
 *            given (NULL when absent); "files" an object of name -> text,
 *            each role by x->file_role, or an array of {"name", "text",
 *            "role"} ("role" testbench, reference, source or data; by
 *            the name when absent); every other field but "reference"
 *            (which the importer makes a candidate) into extra.
 *   DATASET: task.json: "id", "benchmark", "domain" and "env" required;
 *            env_params, spec, interface, source, license,
 *            license_source, split (by hand when "split_by" is "hand")
 *            and the "extra" object; the files are the importer's (read
 *            from the checkout, each against its sha256).
 */
int	 codec_task_parse(json_t *to, const struct codec_ctx *x,
	    struct task *out, struct err *err);

/*
 * A candidate.
 *   RAW:     the "candidate" of row: "code" required; "origin" "unknown"
 *            and "kind" "direct" when absent, the kind one of vocab.h's;
 *            "id", "origin_raw", "lang", "parent" and "source" as given
 *            (NULL when absent); the code up to a NUL, and its hash; the
 *            candidate's other fields into extra, and the row's other
 *            fields into extra's "$row".  The task and the defaults that
 *            need the store or the envs (lang, source) are the
 *            importer's.
 *   DATASET: row is <id>.json: "id", "task", "origin", "kind", "lang"
 *            and "code" (its file's name) required; origin_raw, parent
 *            and source; the code is the importer's to read and check.
 */
int	 codec_candidate_parse(json_t *row, const struct codec_ctx *x,
	    struct candidate *out, struct err *err);

/* A recorded result of a row: "verdict", "stage" and "log" as given
 * (NULL when absent); as its extra the object without those of them
 * that end it, in that order, as strings (codec_recorded puts them back
 * there, docs/adr/0030). */
void	 codec_recorded_parse(json_t *v, struct recorded *out);

/* --- text, for the fields around these (labels, notes, messages) ---- */

/* n bytes of text as a JSON string: as they are when valid UTF-8, else
 * with U+FFFD for each bad byte (a NUL among them too). */
json_t	*codec_text(const char *s, size_t n);

/* s as a JSON string, or null when s is NULL (codec_text's rule). */
json_t	*codec_str(const char *s);

/*
 * o[key] = n bytes of s for reading: every invalid byte and every NUL
 * becomes U+FFFD, and o[key "_replaced"] says how many did; s NULL sets
 * null.  The form show --json writes text in.
 */
void	 codec_put_shown(json_t *o, const char *key, const char *s,
	    size_t n);

/* JSON kept as text (metrics, inputs, env_params): the value it holds,
 * the text itself as a string when it is not JSON, null for NULL. */
json_t	*codec_json_text(const char *txt);

#endif
