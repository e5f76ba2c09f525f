/*
 * export.h - the curated samples out of the store, one JSON object per
 * line (design.md section 9, docs/formats.md "Export"):
 *
 *   raw  the assay JSONL of design.md section 5, round-trip safe: a
 *        task object the first time its task appears (by id after),
 *        the candidate, its recorded results, labels, review and
 *        notes (with their by and at, which the importer keeps), and
 *        every unknown field imported with it.  Parents come before
 *        their children, so `assay import` reads the file back whole.
 *   sft  chat messages for SFT trainers: direct (requirement -> code),
 *        repair (requirement -> failed code -> toolchain feedback ->
 *        ... -> repaired code: the whole chain of failed ancestors, each
 *        failed turn with "weight": 0 and the row with
 *        only_last_turn_loss), optimization (requirement + correct code
 *        -> faster code), each with a meta object.  Only verified code
 *        is a positive: a candidate without a passing verdict (with its
 *        speedup where the env judges performance) is left out unless
 *        include_failing.
 *
 * Both stream: the store is walked with store_query_each and one
 * candidate is loaded at a time; only the ids of tasks already written
 * are kept (raw).  The module never prints: it writes through the
 * caller's callback, or a FILE *, or a temporary file that is renamed
 * over the target only when complete.
 *
 * Called by the export command and tests.
 */
#ifndef ASSAY_EXPORT_H
#define ASSAY_EXPORT_H

#include <signal.h>
#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "base/err.h"
#include "curate/split.h"
#include "store/store.h"

enum export_format {
	EXPORT_SFT,
	EXPORT_RAW
};

/*
 * Whose reader an sft row is written for (--for; docs/formats.md
 * "Export for a trainer").  Every target learns only the last assistant
 * turn, by its trainer's own convention:
 *   ASSAY         the stable schema: messages {role, content, weight}
 *                 (weight 0/1 on assistant turns, null on the others),
 *                 only_last_turn_loss, meta
 *   OPENAI        OpenAI's chat fine-tuning lines: messages only, weight
 *                 on the assistant turns alone
 *   TRL           TRL's conversational prompt/completion: the failed
 *                 trajectory and its feedback in prompt, the final code
 *                 alone in completion (completion_only_loss); meta
 *   LLAMAFACTORY  sharegpt-style messages {role, content} and meta, read
 *                 through dataset_info.json, trained with mask_history
 *   INCODER       messages {role, content}, only_last_turn_loss (the
 *                 binarize_data.py rule), meta
 */
enum export_target {
	EXPORT_FOR_ASSAY,
	EXPORT_FOR_OPENAI,
	EXPORT_FOR_TRL,
	EXPORT_FOR_LLAMAFACTORY,
	EXPORT_FOR_INCODER
};

/* How much of a repair chain an sft row holds. */
enum export_trajectory {
	EXPORT_TRAJ_WHOLE,	/* every failed ancestor, one turn each */
	EXPORT_TRAJ_LAST	/* the direct parent only (single step) */
};

struct export_opts {
	enum export_format	 format;
	/* The user's FILTER (design.md section 5), NULL for none; see
	 * export_filter() for the default added to it. */
	const char		*where;
	/* Set (by a signal handler) to stop between two lines; the export
	 * then fails with "interrupted".  May be NULL. */
	volatile sig_atomic_t	*cancel;
	/* sft: how much of a repair chain a row holds (default whole). */
	enum export_trajectory	 trajectory;
	/* sft: also write candidates whose latest verdict is not a pass
	 * (or a pass without its speedup where the env judges speed);
	 * their meta says "verified": false. */
	int			 include_failing;
	/* nshards > 1: only the tasks whose export_shard_of() is shard
	 * (each with all its candidates), a slice of export_shards(). */
	unsigned		 shard, nshards;
	/* Assign splits first (split_assign(): by a stable hash of the task
	 * id, hand-set ones kept); NULL: the tasks' splits as they are.
	 * sft meta.split is the task's split either way. */
	const struct split_spec	*split;
	/* sft: keep the near-duplicates `assay dedup` marked (default: one
	 * per cluster, the rest counted in dups), and the samples `assay
	 * contamination` flagged (default: left out, counted).  A dup= or
	 * contaminated= predicate in where decides instead. */
	int			 keep_dups;
	int			 keep_contaminated;
	/* sft: whose reader the rows are for (default EXPORT_FOR_ASSAY). */
	enum export_target	 target;
};

struct export_report {
	size_t	 lines;		/* JSON lines written */
	size_t	 parents;	/* raw: parents outside the filter */
	size_t	 tasks;		/* raw: task objects written */
	size_t	 unverified;	/* sft: left out, no passing verdict */
	size_t	 empty;		/* raw: task-only lines (no candidate) */
	size_t	 split[SPLIT_MAX];	/* tasks per split, with opts->split */
	size_t	 dups;		/* sft: near-duplicates left out */
	size_t	 contaminated;	/* sft: contaminated samples left out */
	size_t	 failing;	/* sft, include_failing: rows written to
				 * the failing file or config */
};

/* What a line is, for a writer that sorts lines into files. */
struct export_line {
	const json_t	*row;		/* the line as JSON, borrowed */
	const char	*split;		/* sft: its task's split, or NULL */
	const char	*license;	/* sft: its task's licence, or NULL */
	int		 failing;	/* sft: not a verified positive
					 * (include_failing) */
};

/*
 * Write len bytes (one whole line, newline included), which line
 * describes (borrowed for the call); 0 or -1 with err.
 */
typedef int (*export_write_fn)(const char *data, size_t len,
    const struct export_line *line, void *arg, struct err *err);

/* Parse "sft" or "raw".  0, or -1 with err. */
int	export_format_parse(const char *name, enum export_format *out,
	    struct err *err);

/* Parse "assay", "openai", "trl", "llamafactory" or "incoder".  0, or
 * -1 with err. */
int	export_target_parse(const char *name, enum export_target *out,
	    struct err *err);
const char *export_target_name(enum export_target t);

/*
 * An sft row for target from its messages (the stable form: {role,
 * content} with "weight" on the assistant turns, the last one learnt)
 * and its meta; consumes both, returns a new reference.
 */
json_t	*export_shape(enum export_target target, json_t *msgs, json_t *meta);

/* Parse "whole" or "last".  0, or -1 with err. */
int	export_trajectory_parse(const char *name,
	    enum export_trajectory *out, struct err *err);

/*
 * Is a candidate's latest run a verified positive?  verdict "pass"; and
 * where speed is judged (kind "optimization", or env triton or x86-asm,
 * alone or in a pipeline) its metrics (JSON object text) must hold a
 * speedup ("speedup", else "time_ratio", else "ir_ratio"), stored in
 * *speedup (may be NULL; 0 when none applies).  1 yes, 0 no.
 */
int	export_verified(const char *kind, const char *env, const char *verdict,
	    const char *metrics, double *speedup);

/*
 * An optimisation's measured gain over its parent (`assay optimize`,
 * extra.optimization of the candidate's extra JSON text): -1 when kind
 * is not "optimization" or there is no such record (export_verified()
 * decides alone), else 1 when it counts, 0 when it does not; *ratio
 * gets its ratio (0 when none).  *gain (may be NULL) gets the record
 * (new reference, or NULL).  A verified optimisation with a record is
 * one that passes and counts.
 */
int	export_gain(const char *kind, const char *extra, double *ratio,
	    json_t **gain);

/*
 * The filter an export of this format runs with: sft adds
 * "status=accepted" unless where has a status predicate of its own
 * (status=, status!= or status~), so the trainer gets the curated set by
 * default and --where status!=rejected (or any status) widens it; raw
 * adds nothing (a whole-database round trip by default).  New string,
 * caller frees; NULL when there is no filter at all.
 */
char	*export_filter(enum export_format format, const char *where);

/*
 * Export the candidates of st that match opts through write(arg).  With
 * no filter at all (raw, no where) tasks without any candidate are
 * written too, at the end, so the round trip keeps every task.  Returns
 * 0 (rep filled, may be NULL) or -1 with err; the lines already written
 * stay written.
 */
int	export_run(struct store *st, const struct export_opts *opts,
	    export_write_fn write, void *arg, struct export_report *rep,
	    struct err *err);

/* export_run() onto a stdio stream; a write error fails the export. */
int	export_stream(struct store *st, const struct export_opts *opts,
	    FILE *out, struct export_report *rep, struct err *err);

/*
 * export_run() into path, atomically: the lines go to a new
 * "<path>.tmp-XXXXXX" in the same directory, which is flushed, fsynced
 * and renamed over path only when the export is complete (the
 * directory is fsynced after).  On any failure, interruption included,
 * the temporary file is removed and path is left as it was.  The new
 * file gets the mode a plain create would (0666 less the umask).
 * sft rows that are not verified positives (include_failing) go to
 * export_failing_path(path) instead, written the same way, so that a
 * trainer reading path never learns one.  A row that carries a value at
 * a field path the first MiB of its file does not is moved to the front
 * (card.h), so that a reader inferring types from the head sees them
 * all.  0 or -1 with err.
 */
int	export_file(struct store *st, const struct export_opts *opts,
	    const char *path, struct export_report *rep, struct err *err);

/* Where export_file() writes path's failing rows: "x.jsonl" gives
 * "x.failing.jsonl", anything else "<path>.failing".  New string. */
char	*export_failing_path(const char *path);

/*
 * sft into the folder dir (made if missing), a dataset a trainer loads
 * as it is (docs/formats.md "Export", docs/adr/0040):
 *   dir/data/<split>.jsonl     the verified rows of each split (a task
 *                              without a split: train)
 *   dir/failing/<split>.jsonl  the rows include_failing adds
 *   dir/README.md              the card: YAML front matter with the
 *                              licences, configs "default" (data/) and
 *                              "failing", the features, and how to load
 *   dir/dataset_info.json, dir/llamafactory_args.yaml
 *                              (EXPORT_FOR_LLAMAFACTORY)
 * Each file is written as export_file() writes one.  Files of an
 * earlier export that this one does not write are left as they were.
 * 0 or -1 with err.
 */
int	export_dir(struct store *st, const struct export_opts *opts,
	    const char *dir, struct export_report *rep, struct err *err);

/*
 * Do the sft messages (a JSON array of {role, content}) alternate as
 * the strict trainers require: an optional system message first, then
 * user and assistant in turn, from a user turn to an assistant turn,
 * with no other role?  0 yes, -1 with the reason (n bytes) in why.
 */
int	export_messages_check(const json_t *msgs, char *why, size_t n);

/*
 * The slice (0..nshards-1) task task_id falls in: FNV-1a (32 bits) of
 * the id modulo nshards, so a task's reference and candidates stay
 * together and the partition does not depend on the order of rows.
 */
unsigned export_shard_of(const char *task_id, unsigned nshards);

/* One slice of export_shards(). */
struct export_slice {
	char	 file[32];		/* "slice-0000.jsonl", in dir */
	size_t	 tasks, candidates, bytes;
	char	 sha256[65];
};

/*
 * Shards by task (docs/cluster.md): write nshards raw slices of the
 * candidates that match opts->where (opts->format must be EXPORT_RAW)
 * into the directory dir (made if missing), each with every task it
 * holds whole and any parent outside it, so that each imports on its
 * own; then dir/manifest.json (slice files, counts, sha256 of each, the
 * filter, and "results_key": a new campaign key stored in st, with
 * which the nodes authenticate their runs; results.h), mode 0600.
 * Each file is written atomically (export_file()).  *slices
 * is a new array of nshards (caller frees) or NULL.  0 or -1 with err.
 */
int	export_shards(struct store *st, const struct export_opts *opts,
	    const char *dir, unsigned nshards, struct export_slice **slices,
	    struct err *err);

/*
 * The prompts of an SFT row, for the model loop (generate.c) to ask a
 * model exactly what the export later trains on:
 * export_system_prompt(): the system turn for a task's domain and the
 * code's language ("You are an expert in digital hardware design...");
 * export_requirement(): the first user turn (spec, then "Interface:"),
 * export_feedback(): the user turn after a failed candidate's code (its
 * latest run's verdict, evidence, diagnostics with candidate lines and a
 * log excerpt, else its recorded result); *source says which ("run",
 * "recorded", "none").  New strings; export_feedback returns NULL with
 * err when the store fails.
 */
char	*export_system_prompt(const struct task *t, const char *lang);
char	*export_requirement(const struct task *t);
char	*export_feedback(struct store *st, const char *cand_id,
	    const char **source, struct err *err);

#endif
