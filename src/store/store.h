/*
 * store.h - the sample database: the only module that calls sqlite3_*.
 *
 * One SQLite file (default ./assay.db) in WAL mode with foreign keys on.
 * The schema moves forward through an append-only list of migrations
 * tracked by PRAGMA user_version.  Tables: task, task_file, candidate,
 * recorded, run, label, review, event (the append-only journal), note
 * (free notes on a candidate), view (saved filters by name), search (the
 * full-text index), queue (one narrow row per candidate with its model,
 * kind, verdict, stage, category and status, kept by triggers, for
 * counts and filters at a million candidates) and queue_sum (the whole
 * queue's statistics, kept by triggers).  An import sets those triggers
 * aside in its own transaction and catches up in bulk before its commit
 * (store_import_begin, docs/adr/0014); a large one also builds the
 * identity index and the task and model indexes at its end
 * (docs/adr/0043).
 *
 * Every decision (label, review, undo) is its own committed transaction
 * and appends to the journal, so a killed program never loses one.
 * Labels and reviews are append-only history; the candidate row points
 * at its current label and review, and undo/redo move those pointers
 * back and forth as the journal says.
 *
 * The queue is read in pages (store_query_page) of small columns only:
 * code, logs and task files are read one candidate at a time, when shown.
 *
 * Callers: import.c, verify.c, commit/export code, the CLI and the UI.
 */
#ifndef ASSAY_STORE_H
#define ASSAY_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "model/sample.h"

#define STORE_SCHEMA_VERSION 16

struct store;

/*
 * Open (creating if needed) the database at path and migrate it.
 * A database newer than this build is refused.  *out is new; close with
 * store_close().  Returns 0 or -1 with err.
 */
int	store_open(struct store **out, const char *path, struct err *err);
void	store_close(struct store *st);		/* NULL-safe */
/*
 * A second connection to st's database file, for a thread of its own (a
 * connection is used by one thread at a time; SQLite's locks order the
 * two as they would two processes).  *out is new; close with
 * store_close().  0, or -1 with err (an in-memory database has no file
 * to open again).
 */
int	store_open_again(const struct store *st, struct store **out,
	    struct err *err);

/*
 * How long a write waits for another writer's lock before it fails with
 * "database is locked", in milliseconds (the store's busy handler
 * retries every 10 ms until then, as SQLite's own does with a growing
 * sleep).  store_open() sets 5000.
 */
void	store_lock_timeout(struct store *st, int ms);

/*
 * End every wait for the lock on st, the one going on and those to come,
 * at once with "database is locked": for a service cancelled while its
 * connection waits (a quit must not wait out the lock timeout).  Safe
 * from any thread; for good (the connection is on its way out).
 */
void	store_lock_cancel(struct store *st);

/*
 * How long st has been waiting for another connection's write lock, in
 * milliseconds: 0 when it is not waiting.  Waits less than a second
 * apart count as one (a service that retries after each timeout).  Safe
 * from any thread, so that a screen can say what its service waits for.
 */
long	store_lock_waiting_ms(const struct store *st);

/*
 * Whether the last store_begin() (which every decision, run and claim
 * opens with), or the last single-statement write (store_event_add()),
 * failed because another connection held the write lock past the lock
 * timeout: a caller that must not wait may keep what it meant to write
 * and try again later.  1 or 0.
 */
int	store_locked_out(const struct store *st);

/*
 * SQLite's data_version of this connection into *v: it changes when
 * another connection (another process: a headless verify, another
 * reviewer, a merge) commits, never for this one's own commits.  Costs
 * no read of the file, so a screen can ask it on a timer to know when to
 * read again.  0 or -1.
 */
int	store_data_version(struct store *st, int64_t *v, struct err *err);

/*
 * How many transactions this connection has committed since it was
 * opened (SQLite's commit hook: counted as a commit begins, so one that
 * then fails counts too).  The one call here that another thread may
 * make while the connection's own thread uses it: a thread watching
 * another connection's data_version tells by it which changes were
 * this connection's (ui/batch.c).
 */
unsigned long long store_commits(const struct store *st);

/* PRAGMA user_version of the open database. */
int	store_schema_version(struct store *st);

/*
 * A read transaction: every read until store_snapshot_end() sees the
 * database as it was at this call, whatever other connections commit
 * meanwhile (SQLite's WAL snapshot), and *max_run is the highest run id
 * in it, so that a caller that hears of runs stored by another
 * connection knows which of them what it read already holds.  Nothing
 * may be written in it.  0 or -1 with err.
 */
int	store_snapshot_begin(struct store *st, int64_t *max_run,
	    struct err *err);
void	store_snapshot_end(struct store *st);

/* Explicit transaction around a batch (import of one file). 0 or -1. */
int	store_begin(struct store *st, struct err *err);
/* Whether a transaction of store_begin() (or an import's, or a batch's)
 * is open: a caller that must not open a second one asks. */
int	store_in_tx(const struct store *st);
int	store_commit(struct store *st, struct err *err);
void	store_rollback(struct store *st);

/*
 * An import's transaction (issue 13, docs/adr/0014): store_import_begin()
 * is store_begin() that also drops the per-row insert triggers of the
 * search index and the queue (keeping their text); while it is open,
 * store_candidate_add() and store_recorded_add() add a candidate's code
 * and recorded logs to the search index themselves, with the rowids the
 * triggers give.  store_import_publish() adds the new tasks' specs, the
 * notes, the queue rows and the statistics in bulk and creates the
 * triggers again, inside the same transaction, just before the caller's
 * store_commit().  Nothing is visible to others before the commit, so a
 * file stays all-or-nothing; store_rollback() undoes all of it, triggers
 * included.  The write lock is held from store_import_begin() to the
 * commit.  0 or -1.
 */
int	store_import_begin(struct store *st, struct err *err);
int	store_import_publish(struct store *st, struct err *err);

/*
 * A savepoint inside the open transaction, so that one row of an import
 * can be undone alone; end it with keep = 1 (release) or 0 (roll back;
 * a row that changed nothing is released, which leaves the same, and is
 * cheap where a ROLLBACK TO after a schema change is not).
 */
int	store_savepoint(struct store *st, struct err *err);
void	store_savepoint_end(struct store *st, int keep);

/* --- tasks and candidates ------------------------------------------ */

/*
 * Insert t unless a task with its id exists; *inserted says which.
 * An existing task is left as it is.  0 or -1.
 */
int	store_task_put(struct store *st, const struct task *t, int *inserted,
	    struct err *err);

/* The env of task id into *env (new, caller frees), without its files:
 * 0, 1 when there is no such task, or -1. */
int	store_task_env(struct store *st, const char *id, char **env,
	    struct err *err);

/* Load task id into *out (caller releases).  Returns 0, 1 when no such
 * task, or -1. */
int	store_task_get(struct store *st, const char *id, struct task *out,
	    struct err *err);

/*
 * Insert c unless a candidate with the same (task, origin, code hash)
 * exists (looked up by its 16-byte identity key, candidate.ident, schema
 * v14; a key shared by a row whose task, origin or code differ is an
 * error, not a duplicate).  c->code_hash must be set.  When c->id is NULL a short stable
 * id is derived from that identity (7 hex digits of its sha256 after a
 * "c", longer on a clash) and stored in c->id.  On a duplicate, c->id is
 * set to the existing id and *inserted is 0.  0 or -1.
 */
int	store_candidate_add(struct store *st, struct candidate *c,
	    int *inserted, struct err *err);

/*
 * The failed turns before candidate id in its repair trajectory: 0 for a
 * candidate that is not a repair with a parent, else its parent's count
 * plus one, following parents while they are repairs (the chain the sft
 * export turns into one multi-turn sample), at most 1000 (a cycle).
 * *depth; 0, 1 when there is no such candidate, or -1.
 */
int	store_repair_depth(struct store *st, const char *id, int *depth,
	    struct err *err);

/* Load candidate id (code included).  0, 1 when not found, or -1. */
int	store_candidate_get(struct store *st, const char *id,
	    struct candidate *out, struct err *err);

/* Resolve a unique prefix of an id ("c3f9" -> "c3f9a0e"): new string in
 * *out.  0, 1 when none matches, 2 when ambiguous, or -1. */
int	store_candidate_resolve(struct store *st, const char *prefix,
	    char **out, struct err *err);

/* Recorded results of an imported row. */
int	store_recorded_add(struct store *st, const char *cand_id,
	    const struct recorded *r, struct err *err);
/* All recorded results of a candidate: *out new array of *n, release each. */
int	store_recorded_list(struct store *st, const char *cand_id,
	    struct recorded **out, size_t *n, struct err *err);

/*
 * The reference candidate of a task (origin "reference", the first
 * imported) and the verdict of its latest run.  *cand_id and *verdict
 * are new strings, NULL when the task has no reference or it never ran.
 * 0 or -1.
 */
int	store_task_reference(struct store *st, const char *task_id,
	    char **cand_id, char **verdict, struct err *err);

/* --- runs ----------------------------------------------------------- */

/* Store a finished run (r->id is set) and make it the candidate's latest. */
int	store_run_add(struct store *st, struct run *r, struct err *err);

/*
 * store_run_add() with a say in what becomes the latest run: latest 1
 * makes r the candidate's latest, 0 leaves the latest alone, 2 makes r
 * the latest unless the latest run started later than r (a run merged
 * from another machine that is older than one made here).  0 or -1.
 */
int	store_run_insert(struct store *st, struct run *r, int latest,
	    struct err *err);

/*
 * Whether cand_id already has the run r: the same input key, start time,
 * wall time and verdict (what `assay merge` checks so that merging a
 * results file twice adds nothing).  *exists 1 or 0.  0 or -1.
 */
int	store_run_exists(struct store *st, const struct run *r, int *exists,
	    struct err *err);

/*
 * Results keys (exchange/results.h, docs/adr/0033): the HMAC keys that
 * authenticate run result lines, each with an id the lines name.  A
 * key is STORE_KEY_HEX hex digits, an id STORE_KEY_ID; both buffers
 * take one byte more for the NUL.  Keys are secrets: nothing prints,
 * exports or journals them.
 */
#define STORE_KEY_HEX	64
#define STORE_KEY_ID	16

/*
 * The database's own key (made when the database was made or migrated
 * to schema 12): what `verify --results` uses outside a shard campaign.
 * id (may be NULL) and key are written.  0 or -1 with err.
 */
int	store_results_key_own(struct store *st, char *id, char *key,
	    struct err *err);

/* The key named id into key.  0, 1 when there is none, or -1. */
int	store_results_key_get(struct store *st, const char *id, char *key,
	    struct err *err);

/*
 * A new random key for a shard campaign, stored with note (the shard
 * directory; may be NULL); its id and key are written.  0 or -1.
 */
int	store_results_key_new(struct store *st, const char *note, char *id,
	    char *key, struct err *err);

/* The latest run of a candidate.  0, 1 when it has none, or -1. */
int	store_run_latest(struct store *st, const char *cand_id, struct run *out,
	    struct err *err);

/* Every run of a candidate, oldest first; *out new array, release each. */
int	store_run_list(struct store *st, const char *cand_id, struct run **out,
	    size_t *n, struct err *err);

/* --- decisions (each one committed and journalled) ------------------ */

/*
 * Label cand_id with category (compile api functional format
 * performance), optional subcategory and note, by reviewer `by`.
 * run_id (0 = none) and evidence record what the label rests on.
 */
int	store_label_set(struct store *st, const char *cand_id,
	    const char *category, const char *sub, const char *note,
	    const char *by, int64_t run_id, const char *evidence,
	    struct err *err);

/* Set the review status (unreviewed accepted rejected flagged). */
int	store_review_set(struct store *st, const char *cand_id,
	    const char *status, const char *note, const char *by,
	    struct err *err);

/*
 * Undo the latest decision (label or review) of reviewer by not yet
 * undone; redo by's latest undone one when by made no decision since.
 * Another reviewer's decisions are never touched: when someone else
 * decided the same candidate's label (or review) after by's step, it is
 * refused with err (-1) rather than taking theirs away.  A short
 * description of what changed goes into what (may be NULL; the words of
 * store_step_text).  Returns 0, 1 when there is nothing to undo/redo, or
 * -1.  The front ends call decide_undo() (decide/decide.h), which returns
 * what moved as a struct store_step.
 */
int	store_undo(struct store *st, const char *by, char *what, size_t n,
	    struct err *err);
int	store_redo(struct store *st, const char *by, char *what, size_t n,
	    struct err *err);
/* The same over everyone's steps: the newest decision of anyone
 * (`undo --any`); by is journalled as who undid it. */
int	store_undo_any(struct store *st, const char *by, char *what, size_t n,
	    struct err *err);
int	store_redo_any(struct store *st, const char *by, char *what, size_t n,
	    struct err *err);

/* What one undo or redo moved (store_undo_step). */
struct store_step {
	size_t	 count;		/* decisions moved: more than 1 for a batch */
	char	 cand_id[128];	/* the candidate of the one decided first */
	char	 field[16];	/* "label" or "review" */
	char	 detail[128];	/* its journal detail: "label compile" */
};
/*
 * store_undo() (redo 0) or store_redo() (redo 1), or their _any forms
 * (any 1), telling what moved in *out rather than in words.  0, 1 when
 * there is nothing to undo or redo (*out zeroed), or -1 with err.
 */
int	store_undo_step(struct store *st, int redo, const char *by, int any,
	    struct store_step *out, struct err *err);
/*
 * The step s that store_undo_step(redo, by, any) returned rc for, in
 * words (what store_undo() and friends put into what): "undid label
 * compile of c1a2b3c", "redid review accepted of 3 candidates, first of
 * c1a2b3c", "nothing to undo by ann".  Into buf of n bytes (truncated;
 * NULL or 0 writes nothing); returns buf.
 */
const char *store_step_text(int rc, int redo, const char *by, int any,
	    const struct store_step *s, char *buf, size_t n);

/*
 * A bulk decision: store_batch_begin() opens a transaction and gives a
 * new journal batch id to every decision made until store_batch_commit()
 * (or store_batch_rollback(), which discards them all).  One undo or
 * redo then takes back or replays the whole batch.  0 or -1.
 */
int	store_batch_begin(struct store *st, struct err *err);
int	store_batch_commit(struct store *st, struct err *err);
void	store_batch_rollback(struct store *st);

/*
 * Add a free note (text, non-empty) to cand_id by `by`, journalled as a
 * "note" event.  A note changes neither label nor review, and undo
 * leaves it alone.  0 or -1.
 */
int	store_note_add(struct store *st, const char *cand_id,
	    const char *text, const char *by, struct err *err);

/* One note.  Strings owned. */
struct store_note {
	int64_t	 id, at;
	char	*text, *by;
};
void	store_note_release(struct store_note *nt);	/* NULL-safe */
/* The notes of cand_id, oldest first: *out new array of *n, release
 * each, then free it.  0 or -1. */
int	store_note_list(struct store *st, const char *cand_id,
	    struct store_note **out, size_t *n, struct err *err);

/* --- saved views ---------------------------------------------------- */

/*
 * Save filter (NULL or "" for all) under name (no blanks), replacing a
 * view of that name.  A bad filter is refused.  0 or -1.
 */
int	store_view_save(struct store *st, const char *name,
	    const char *filter, const char *by, struct err *err);
/* The filter of view name: new string in *filter.  0, 1 when there is
 * no such view, or -1. */
int	store_view_get(struct store *st, const char *name, char **filter,
	    struct err *err);
struct store_view {
	char	*name, *filter;
};
void	store_view_release(struct store_view *v);	/* NULL-safe */
/* Every view by name: *out new array of *n, release each, free it. */
int	store_view_list(struct store *st, struct store_view **out, size_t *n,
	    struct err *err);

/* Append a free-form event to the journal (verify, commit, import). */
int	store_event_add(struct store *st, const char *who, const char *action,
	    const char *cand_id, const char *detail, struct err *err);
/*
 * The candidates that have a "repair" event whose detail starts with
 * prefix (compared byte for byte, no pattern), oldest event first, each
 * once: *ids a new array of *n new strings (strv_free()).  A range of
 * the index of the repair events' details (schema 16), never a read of
 * the whole journal: a cursor move asks it.  0 or -1.
 */
int	store_repair_events(struct store *st, const char *prefix, char ***ids,
	    size_t *n, struct err *err);

/* --- the queue ------------------------------------------------------ */

/* One row of the queue: small columns only.  All strings owned. */
struct store_row {
	int64_t	 seq;
	char	*id, *task, *benchmark, *domain, *origin, *kind, *lang;
	char	*parent, *source, *env;
	char	*verdict, *stage, *metrics;	/* of the latest run, or NULL */
	char	*category, *subcategory;	/* current label, else the run's */
	char	*category_source;		/* "auto" or the reviewer */
	char	*status;			/* review status */
	char	*reviewed_by;
};
void	store_row_release(struct store_row *r);

/*
 * Count / read the candidates that match filter (design.md section 5:
 * space-separated "key=value", "key!=value", "key~text" predicates over
 * id task benchmark domain origin model kind lang env verdict stage
 * category subcategory status source parent split license;
 * "split=none" the tasks with no split yet; "dup=yes" the near-duplicates
 * `assay dedup` marked to drop (dup=no the rest); "contaminated=yes"
 * those `assay contamination` flagged; "verdict=none" matches no
 * run yet; "disagree=yes" the candidates whose reviewers disagree (see
 * store_agreement); "grep=TEXT" matches candidates whose code, run or recorded
 * logs, or task spec hold TEXT as a phrase, full-text; a value may be
 * double-quoted to hold blanks, inner quotes doubled: grep="a <= b").
 * NULL or "" matches all.  A bad filter is an error naming the bad predicate.
 * Pages are in import order: rows [offset, offset + limit).
 *
 * A count reads the narrow queue table and its indexes (schema v6), and
 * the wide tables only for the keys that live there; a grep= result is
 * kept for the life of the store while no new text is indexed, so that
 * the pages and counts of one search do not search again.  An offset
 * costs its length in rows read: page a long queue with
 * store_query_seek().
 */
/*
 * v as one value of a filter predicate: as it is when it has no blank or
 * double quote and is not empty, else double-quoted with inner quotes
 * doubled (the filter language's quoting).  New string.
 */
char	*store_filter_quote(const char *v);
/*
 * 1 when word is one predicate of the filter language (KEY=VALUE,
 * KEY!=VALUE, KEY~TEXT with a known KEY, grep=TEXT, ...), else 0: what
 * a command asks of a free word to tell a filter's term typed without
 * its quotes ("--where task~fsm benchmark=rtlfixer") from text.
 */
int	store_filter_is_term(const char *word);

int	store_query_count(struct store *st, const char *filter, size_t *n,
	    struct err *err);
int	store_query_page(struct store *st, const char *filter, size_t offset,
	    size_t limit, struct store_row **out, size_t *n, struct err *err);

/*
 * Keyset paging: up to limit rows of filter, after skipping skip of
 * them, from those whose seq is above from (dir > 0; from 0 is the
 * start) or below it (dir < 0, counting back from it; INT64_MAX is the
 * end).  The rows are in import order (ascending seq) either way.  Costs
 * skip + limit rows, wherever from is.  *out is a new array of *n rows:
 * release each, then free it.  0 or -1.
 */
int	store_query_seek(struct store *st, const char *filter, int64_t from,
	    int dir, size_t skip, size_t limit, struct store_row **out,
	    size_t *n, struct err *err);

/*
 * The seq of the row skip rows on from from (dir and from as for
 * store_query_seek(): skip 0 is the first row after from), reading only
 * the narrow queue rows (and the tables the filter's keys live in), so
 * that finding a position deep in a million costs milliseconds, where a
 * seek of that many whole rows costs seconds.  0, 1 when there is no
 * such row, or -1.
 */
int	store_query_nth(struct store *st, const char *filter, int64_t from,
	    int dir, size_t skip, int64_t *seq, struct err *err);

/* Position (0-based) of cand_id under filter, or -1 when not in it.
 * Costs a count of the rows before it. */
int	store_query_index(struct store *st, const char *filter,
	    const char *cand_id, size_t *index, struct err *err);

/* Position (0-based) of the candidate whose seq is seq under filter:
 * 0, 1 when it is not in it, or -1.  Costs a count of the rows before
 * it. */
int	store_query_position(struct store *st, const char *filter,
	    int64_t seq, size_t *index, struct err *err);

/*
 * The candidates of seqs[0..n) got new text (their runs were stored by
 * this process's own :verify, on another connection): bring every grep=
 * result this connection keeps up to date for them alone, a look at
 * their own search rows and their task's spec, instead of searching
 * again at the next page.  A result patched is then held: kept at every
 * later use, whatever text came meanwhile, until store_grep_forget();
 * the caller vouches that it patches every candidate whose text it adds
 * and forgets when another process may have added some.  0 or -1.
 */
int	store_grep_patch(struct store *st, const int64_t *seqs, size_t n,
	    struct err *err);
/* Search again at the next use of every grep= result kept (and end the
 * hold of store_grep_patch()). */
void	store_grep_forget(struct store *st);

/* Whether cand_id is under filter (*match 1) or not (0), in one lookup.
 * 0 or -1. */
int	store_query_match(struct store *st, const char *filter,
	    const char *cand_id, int *match, struct err *err);

/*
 * `/` over the queue: the seq of the first candidate of filter after
 * from (dir > 0; from 0 is the start) or before it (dir < 0; INT64_MAX
 * is the end) whose id, task, model, verdict or category matches
 * pattern (POSIX extended, case ignored), the columns the queue shows.
 * One statement over the narrow queue rows.  Returns 0 with *seq, 1 when
 * none is left that way, or -1 (a bad pattern, with regerror's words).
 */
int	store_query_find(struct store *st, const char *filter,
	    const char *pattern, int64_t from, int dir, int64_t *seq,
	    struct err *err);

/* Visit every matching row in order without holding them all: cb
 * returns 0 to go on, non-zero to stop (that value is returned). */
int	store_query_each(struct store *st, const char *filter,
	    int (*cb)(const struct store_row *row, void *arg), void *arg,
	    struct err *err);

/* --- statistics ---------------------------------------------------- */

/*
 * One cell of the error analysis: how many candidates of a group have
 * this latest verdict, category and subcategory.  Strings owned; verdict
 * is NULL for never run, category and subcategory NULL when absent (the
 * same values as a store_row's).
 */
struct store_stat {
	char	*group;
	char	*verdict, *category, *subcategory;
	size_t	 count;
};
void	store_stat_release(struct store_stat *c);	/* NULL-safe */

/*
 * Where the error analysis counts a cell (`assay stats` and the `s`
 * sheet alike): "pass" for a pass whatever its label; otherwise its
 * category when it has one (a person's label wins over the verdict:
 * an env-error labelled compile counts as compile); otherwise
 * "env-error", "task-defect", "skipped", "unlabelled" (a fail or a
 * timeout without a category) or "unverified" (never run).  A static
 * string, or the cell's category (owned by c).
 */
const char *store_stat_bucket(const struct store_stat *c);

/*
 * Count the candidates that match filter (as store_query_count) by
 * group_key (a filter key: benchmark, model, domain, env, ...), verdict,
 * category and subcategory, in one GROUP BY.  *out is a new array of *n
 * cells ordered by group, verdict, category, subcategory (NULLs first):
 * release each, then free it.  A bad filter or key is an error.  0 or -1.
 */
int	store_stats(struct store *st, const char *filter,
	    const char *group_key, struct store_stat **out, size_t *n,
	    struct err *err);

/* --- reviewers: agreement, disagreements, throughput ----------------- */

/*
 * A reviewer's vote on a candidate is the newest label they gave it that
 * stands (an undo takes a label back, a redo gives it again) and is not
 * final.  A candidate is in disagreement when two reviewers' votes name
 * different categories and no final label came after the newest vote;
 * the filter disagree=yes lists those (disagree=no the others), and a
 * final label (the disagreement queue's 1-5) settles one.  Votes by
 * "auto" are not votes.
 */

/*
 * Label cand_id with category as the final word on a disagreement, by
 * `by`: a label decision like store_label_set() (journalled, undone and
 * redone the same way, the candidate's current label), which is no vote
 * and so leaves the agreement figures alone.  0 or -1.
 */
int	store_label_final(struct store *st, const char *cand_id,
	    const char *category, const char *by, int64_t run_id,
	    const char *evidence, struct err *err);

/*
 * Cohen's kappa for every pair of reviewers with votes on the same
 * candidates (among filter's candidates; NULL: all): *out is a new
 * array of *n pairs ordered by names (a < b), each with its confusion
 * matrix and agreement_kappa() computed; release each, then free it.
 * 0 or -1.
 */
struct agreement_pair;
int	store_agreement(struct store *st, const char *filter,
	    struct agreement_pair **out, size_t *n, struct err *err);

/*
 * Every reviewer's label and review decisions in the journal (on
 * filter's candidates; NULL: all), undone ones too, timed as
 * agreement_rate_add() says: *out is a new array of *n, by name;
 * release each, then free it.  0 or -1.
 */
struct agreement_rate;
int	store_throughput(struct store *st, const char *filter,
	    struct agreement_rate **out, size_t *n, struct err *err);

/* One reviewer's standing label on a candidate.  Strings owned. */
struct store_vote {
	char	*by, *category;
	int	 final;		/* the final label, not a vote */
	int64_t	 label_id;
};
void	store_vote_release(struct store_vote *v);	/* NULL-safe */

/*
 * The votes on cand_id by reviewer name, then its newest standing final
 * label if any: *out is a new array of *n; release each, then free it.
 * 0 or -1.
 */
int	store_votes(struct store *st, const char *cand_id,
	    struct store_vote **out, size_t *n, struct err *err);

/* --- journal listing ------------------------------------------------ */

struct store_event {
	int64_t	 id, at;
	char	*who, *action, *cand_id, *detail;
	int	 undone;
};
void	store_event_release(struct store_event *e);
/* Events of a candidate (all when cand_id is NULL), oldest first. */
int	store_event_list(struct store *st, const char *cand_id,
	    struct store_event **out, size_t *n, struct err *err);

/* Current label and review detail of a candidate for show/commit:
 * strings are new (caller frees), NULL when absent. */
struct store_decision {
	char	*category, *subcategory, *label_by, *label_note;
	char	*status, *review_note, *review_by;
	int64_t	 label_at, review_at;
	int64_t	 label_run_id;	/* the run the label rests on, 0: none */
	int	 label_final;	/* the label is a final one */
};
void	store_decision_release(struct store_decision *d);
int	store_decision_get(struct store *st, const char *cand_id,
	    struct store_decision *out, struct err *err);

/* --- export helpers (read-only) ------------------------------------- */

/* One label of a candidate's history.  Strings owned. */
struct store_label {
	int64_t	 id, at;
	char	*category, *subcategory, *note, *by, *evidence;
	int	 current;	/* the candidate's current label */
};
void	store_label_release(struct store_label *l);	/* NULL-safe */

/*
 * Every label ever given to cand_id, oldest first, undone ones included
 * (current says which one the candidate points at).  *out is a new
 * array of *n: release each, then free it.  0 or -1.
 */
int	store_label_list(struct store *st, const char *cand_id,
	    struct store_label **out, size_t *n, struct err *err);

/*
 * A task's split.  hand = 1: set by a person (split NULL gives the task
 * back to the hash), journalled as a "split" event of by; an unknown
 * task is an error.  hand = 0: an assignment by hash, which leaves a
 * hand-set split alone.  0 or -1.
 */
int	store_task_split_set(struct store *st, const char *task_id,
	    const char *split, int hand, const char *by, struct err *err);

/*
 * Visit every task's id, split (NULL: none) and whether it was set by
 * hand, in id order; cb returns non-zero to stop (that value returned).
 * Strings are borrowed for the call.  0 or -1.
 */
int	store_task_split_each(struct store *st,
	    int (*cb)(const char *task_id, const char *split, int hand,
	    void *arg), void *arg, struct err *err);

/* The highest rowid of the task table (0 when empty), so that an import
 * can name the tasks it adds.  0 or -1. */
int	store_task_rowid_max(struct store *st, int64_t *max, struct err *err);

/*
 * Provenance of the tasks added after rowid since: those without a
 * licence get license (an SPDX id) and license_source; a source that
 * starts with from gets to in its place (the import folder's path for
 * "URL@COMMIT:folder/").  NULL arguments change nothing.  0 or -1.
 */
int	store_task_provenance(struct store *st, int64_t since,
	    const char *license, const char *license_source,
	    const char *from, const char *to, struct err *err);

/* One candidate of a near-duplicate cluster (dedup.c).  Borrowed. */
struct store_dup {
	const char	*cand_id;
	const char	*cluster;	/* the id of the candidate kept */
	int		 exact;		/* same normalised code as the kept */
	double		 similarity;	/* Jaccard with the kept (its shingles) */
	int		 keep;		/* the one an export keeps */
};

/*
 * Replace every cluster mark with rows (n of them; the candidates of
 * clusters of two or more), in one transaction.  0 or -1.
 */
int	store_dup_replace(struct store *st, const struct store_dup *rows,
	    size_t n, struct err *err);

/* One benchmark a candidate shares long n-grams with.  Borrowed. */
struct store_contam {
	const char	*cand_id;
	const char	*benchmark;
	const char	*task_id;	/* the benchmark task most shared, or NULL */
	size_t		 ngrams;	/* n-grams shared with it */
};

/*
 * Replace the contamination marks against the benchmarks named (every
 * row of those benchmarks goes) with rows, in one transaction.  0 or -1.
 */
int	store_contam_replace(struct store *st, const char *const *benchmarks,
	    size_t nbench, const struct store_contam *rows, size_t n,
	    struct err *err);

/*
 * Visit the id of every task that has no candidate, in id order, without
 * holding them all: cb returns 0 to go on, non-zero to stop (that value
 * is returned).  The id is borrowed for the call.  0 or -1.
 */
int	store_task_each_empty(struct store *st,
	    int (*cb)(const char *task_id, void *arg), void *arg,
	    struct err *err);

/* --- decisions replayed by an import (dated) ------------------------ */

/*
 * The decisions of an assay JSONL row as `assay import` replays them,
 * dated at (seconds since the epoch, the "at" that `assay export --format
 * raw` wrote) rather than now, in the history row and in the journal
 * event alike, so that export -> import -> export is stable and
 * throughput (store_throughput) reads the reviewers' own times.  at <= 0
 * means now.  Each is otherwise the decision it names, journalled the
 * same way, and atomic (inside the caller's transaction when one is
 * open):
 *   store_label_set_at    store_label_set(), or store_label_final()
 *                         when final (sub and note are then ignored);
 *                         no run_id (runs are not exported)
 *   store_review_set_at   store_review_set()
 *   store_note_add_at     store_note_add()
 * 0 or -1 with err.
 */
int	store_label_set_at(struct store *st, const char *cand_id,
	    const char *category, const char *sub, const char *note,
	    const char *by, int final, const char *evidence, int64_t at,
	    struct err *err);
int	store_review_set_at(struct store *st, const char *cand_id,
	    const char *status, const char *note, const char *by, int64_t at,
	    struct err *err);
int	store_note_add_at(struct store *st, const char *cand_id,
	    const char *text, const char *by, int64_t at, struct err *err);

/*
 * Whether label label_id of cand_id (an id from store_label_list) was
 * given by store_label_final(): *final 1 or 0.  0 or -1.
 */
int	store_label_is_final(struct store *st, const char *cand_id,
	    int64_t label_id, int *final, struct err *err);

/* --- benchmarks ----------------------------------------------------- */

/*
 * For the scale bench (bench/scale.sh): copy the candidates there are,
 * in import order and round after round, until the database holds total
 * candidates.  A copy keeps its source's task, origin, kind, lang,
 * parent, source, latest run and recorded results (the search index
 * follows through its triggers); its code gains one comment line
 * ("// assay bench copy N of ID"), so that it is a new (task, origin,
 * code) and gets its own id and code hash, as an import would give it.
 * Commits every 20000 copies.  *added says how many were made.  0 or -1
 * (the slice in progress is rolled back).
 */
int	store_bench_fill(struct store *st, size_t total, size_t *added,
	    struct err *err);

/* --- the model loop (generate.h) ------------------------------------ */

/* A candidate a model made, with what its generation record says. */
struct store_gen_row {
	const char	*id, *task, *kind;	/* borrowed for the call */
	const char	*model;		/* extra.generation.model */
	const char	*strategy;	/* extra.generation.strategy of the
					 * candidate it is, or NULL */
	const char	*verdict;	/* of the latest run, or NULL */
	const char	*error;		/* a request that got no answer: why
					 * (id NULL); else NULL */
	int		 round;		/* 0 direct, 1.. repair rounds */
	const char	*feedback;	/* a repair's request carried:
					 * extra.generation.feedback of the
					 * candidate its answer is ("rich",
					 * "minimal"), NULL not recorded */
	int64_t		 prompt_tokens, completion_tokens;	/* -1: none */
	int64_t		 latency_ms;
};

/*
 * Visit every attempt (schema 13: one per answer a model gave, or per
 * request that failed), in the order made, then every candidate with an
 * extra.generation record but no attempt (made before schema 13, or
 * imported from another database) as one attempt read from that
 * record: cb returns 0 to go on, non-zero to stop (that value is
 * returned).  For an attempt, kind and round are the request's; id and
 * verdict are those of the candidate its answer is (NULL for a failed
 * request, with error set).  0 or -1.
 */
int	store_attempt_each(struct store *st,
	    int (*cb)(const struct store_gen_row *row, void *arg), void *arg,
	    struct err *err);

/* One answer a model gave (or a request that got none). */
struct store_attempt {
	const char	*task_id;	/* required */
	const char	*cand_id;	/* the candidate its code is; NULL:
					 * no answer */
	const char	*parent;	/* a repair's failed candidate */
	const char	*model;		/* required */
	const char	*kind;		/* "direct" or "repair" */
	int		 round;		/* 0 direct, 1.. repair rounds */
	int64_t		 prompt_tokens, completion_tokens;	/* -1: none */
	int64_t		 latency_ms;
	const char	*error;		/* why a request failed, or NULL */
};

/*
 * Set key of candidate cand_id's extra (a JSON object; made when there is
 * none) to the JSON text value, and journal it as action by who with
 * detail: one transaction, or part of the caller's.  What a measurement
 * made after the candidate was stored adds (optimize's gain, ADR 0045);
 * the code, and so the id, never change.  0, 1 no such candidate, -1
 * with err (value not JSON, the store).
 */
int	store_candidate_extra_set(struct store *st, const char *cand_id,
	    const char *key, const char *value, const char *who,
	    const char *action, const char *detail, struct err *err);

/* Record attempt a (its own transaction).  0 or -1. */
int	store_attempt_add(struct store *st, const struct store_attempt *a,
	    struct err *err);

/*
 * Claims (issue 10, item 14): two verifies on one database must not run
 * the same candidate.  store_claim() takes cand_id for holder (a string
 * unique to the process, e.g. "host:pid:random") for ttl_s seconds:
 * *got is 1 when holder has it now (new, or already its own), 0 when
 * another holder's unexpired claim stands.  A claim that expired (its
 * process was killed) is dropped first, and so is another holder's
 * unexpired one when gone (may be NULL) says its holder is dead
 * (gone(holder) nonzero; verify: a killed process on this host,
 * vsvc_holder_gone()).  store_claims_renew() extends
 * every claim of holder by ttl_s from now; store_claim_release() drops
 * holder's claim on cand_id (NULL: all of holder's).  Each is its own
 * transaction; 0 or -1 with err.
 */
int	store_claim(struct store *st, const char *cand_id, const char *holder,
	    int ttl_s, int (*gone)(const char *holder), int *got,
	    struct err *err);
int	store_claims_renew(struct store *st, const char *holder, int ttl_s,
	    struct err *err);
int	store_claim_release(struct store *st, const char *cand_id,
	    const char *holder, struct err *err);

#endif
