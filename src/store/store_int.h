/*
 * store_int.h - what the files of src/store/ share, and nobody else.
 *
 * The store is one module in several files: store.c (opening, the
 * schema and its migrations, transactions, tasks, candidates, runs, the
 * import's hot path), journal.c (decisions, undo and redo, the
 * journal), filter.c (the filter language compiled to SQL, the grep=
 * tables), queue.c (pages, seeks, counts and saved views over a
 * filter), stats.c (statistics and reviewer agreement) and bench.c (the
 * scale bench's copies).  They
 * share the connection (struct store), the SQLite helpers of store.c and
 * the compiled filter.  Only files in src/store/ include this header;
 * everything else sees store.h.
 */
#ifndef ASSAY_STORE_INT_H
#define ASSAY_STORE_INT_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

#include "base/buf.h"
#include "base/err.h"
#include "base/hash.h"
#include "store/store.h"

/*
 * A grep= result kept as the temporary table grep_<slot> of candidate
 * seqs, so that paging through a search that matches half a million
 * candidates does not search again for every page.  It stays valid
 * while the search index gains no row (search_gen is the same).
 */
#define STORE_GREPS	4
struct store_grep {
	char	*query;		/* the FTS5 string; NULL: free */
	int64_t	 version;	/* search_gen.n when it was filled */
	uint64_t used;		/* for least recently used */
	size_t	 count;		/* its rows */
	int	 held;		/* patched (store_grep_patch): kept whatever
				   the version, until store_grep_forget() */
};

#define STORE_HOT	16	/* slots for the import's hot statements */
struct store {
	sqlite3	*db;
	int	 in_tx;		/* an explicit store_begin() is open */
	int	 readonly;	/* the file cannot be written: reads only */
	int	 locked_out;	/* the last store_begin() found the lock
				 * held past the lock timeout */
	/* The busy handler's state (store_lock_timeout()): its limit; a
	 * cancel that ends every wait (set from any thread); when the
	 * wait going on began and when it last looked (ms, 0: none; read
	 * from other threads by store_lock_waiting_ms()). */
	int		 busy_ms;
	int64_t		 busy_began;	/* this wait's start: its timeout */
	atomic_int	 busy_cancel;
	atomic_llong	 busy_since, busy_last;
	int64_t	 batch;		/* journal batch of new events; 0: none */
	/* this connection's commits (commit_count()); read from other
	 * threads by store_commits() */
	atomic_ullong commits;
	struct store_grep greps[STORE_GREPS];
	uint64_t grep_clock;
	/* Statements of the import's hot path, prepared once (hot()). */
	sqlite3_stmt *hot[STORE_HOT];
	/* store_import_begin(): where the import's rows start. */
	int	 bulk;
	int64_t	 bulk_task, bulk_seq, bulk_rec, bulk_note;
	int64_t	 bulk_task_doc;	/* the lowest search rowid of a task */
	char	*bulk_triggers;	/* the CREATE TRIGGERs set aside */
	char	*bulk_indexes;	/* the CREATE INDEXes set aside */
	int64_t	 bulk_added;	/* candidates the import added */
	int	 bulk_cand_aside; /* the candidate's indexes set aside */
	struct ident_set *bulk_idents;	/* their identities, then */
	int	 in_row;	/* a row's savepoint is open */
	int64_t	 bulk_docs;	/* search rows the import added itself */
	int64_t	 bulk_docs_row;	/* bulk_docs at the row's savepoint */
	int64_t	 row_changes;	/* the connection's changes at it */
	/* The candidate added last, whose recorded rows come next (they
	 * name it by seq), and in bulk the rowid of its last search row;
	 * forgotten at a rollback. */
	char	*last_id;
	int64_t	 last_seq, bulk_last_doc;
	/* The task store_task_env() read last in bulk, and its env. */
	char	*bulk_env_id, *bulk_env;
};

/* --- SQLite helpers (store.c) --------------------------------------- */

/* err gets "what: <SQLite's message>", copied now; returns -1. */
int	err_sqlite(struct err *err, sqlite3 *db, const char *what);
/* Prepare sql into *out (finalize it); -1 with err set. */
int	prepare(struct store *st, sqlite3_stmt **out, const char *sql,
	    struct err *err);
/* Run sql (no result rows, may be several statements); -1 with err. */
int	exec(struct store *st, const char *sql, struct err *err);
/* Step a statement that must finish (INSERT/UPDATE) and finalize it. */
int	step_done(struct store *st, sqlite3_stmt *s, const char *what,
	    struct err *err);
/*
 * Every list reader reads its rows with this: step s (finalized here)
 * until done or limit rows (SIZE_MAX: all), each into a zeroed item of
 * size bytes that fill() fills; out is the address of the caller's
 * array pointer (&rows, a struct T ** for items of type T), which gets
 * the array (NULL when empty), *n its length.  On an error the items
 * read so far go to release(), the array is freed, the pointer is NULL,
 * *n 0, and -1 returns with err set.
 */
int	rows_read(struct store *st, sqlite3_stmt *s, size_t size,
	    size_t limit, void (*fill)(sqlite3_stmt *, void *),
	    void (*release)(void *), void *out, size_t *n, const char *what,
	    struct err *err);
/*
 * One result column of a list reader that needs no code of its own: the
 * column of the same index goes into the item's field at byte offset off,
 * read as kind.  COL_TEXT fields are new strings (NULL for SQL NULL) that
 * a failed read frees; a reader whose rows need more (a blob, JSON, a
 * derived field) passes a fill() to rows_read() instead.
 */
enum col_kind { COL_I64, COL_INT, COL_TEXT };
struct col {
	size_t		off;
	enum col_kind	kind;
};
#define COL(type, field, kind)	{ offsetof(type, field), kind }
#define NCOLS(cols)		(sizeof (cols) / sizeof (cols)[0])
/* Free the COL_TEXT fields of cols in item and zero its size bytes;
 * NULL-safe.  The release of a row a column map made. */
void	cols_release(void *item, size_t size, const struct col *cols,
	    size_t ncols);
/* rows_read() with each row read by the ncols columns of cols. */
int	rows_cols(struct store *st, sqlite3_stmt *s, size_t size,
	    size_t limit, const struct col *cols, size_t ncols, void *out,
	    size_t *n, const char *what, struct err *err);
/* rows_cols() over sql, whose ?1 is bound to cand_id: the readers of
 * one candidate's history (recorded, labels, notes, events, votes). */
int	rows_by_cand(struct store *st, const char *sql, const char *cand_id,
	    size_t size, const struct col *cols, size_t ncols, void *out,
	    size_t *n, const char *what, struct err *err);
/*
 * The one way a reader of a single row reads it: sql, whose ?1 is bound
 * to key, stepped once; fill(s, item) when there is a row.  0, 1 when
 * there is none (item untouched), -1 with err ("what: ...").
 */
int	row_by_key(struct store *st, const char *sql, const char *key,
	    void (*fill)(sqlite3_stmt *, void *), void *item,
	    const char *what, struct err *err);
/* What a reviewer name and a category may be (ident.h, the schema):
 * 0, or -1 with err in words. */
int	check_by(const char *by, struct err *err);
int	check_category(const char *category, struct err *err);
/* Seconds since the epoch, as decisions and views record it. */
int64_t	now_s(void);
/* Bind v (NULL: SQL NULL) as text, copied. */
void	bind_text(sqlite3_stmt *s, int i, const char *v);
/* Column i as a new string (NULL for SQL NULL); col_blob also its length. */
char	*col_text(sqlite3_stmt *s, int i);
char	*col_blob(sqlite3_stmt *s, int i, size_t *len);
/*
 * A candidate's columns, in the order candidate_fill() reads them: the
 * one mapping of a candidate row to a struct candidate (store.c), for
 * store_candidate_get() and the scale bench's copies (bench.c).  A
 * query may select more after them, from column CAND_NCOLS on.
 */
#define CAND_COLS "id, task_id, origin, origin_raw, kind, lang, parent," \
	" source, code, code_hash, extra"
#define CAND_NCOLS 11
/* Fill the struct candidate item (zeroed) from a row of CAND_COLS; code
 * is NULL when the column is. */
void	candidate_fill(sqlite3_stmt *s, void *item);

/*
 * The candidate id rule (docs/adr/0011): "c" and the first n hex digits
 * of SHA-256(task_id NUL origin NUL code_hash), n from 7 up to the first
 * id not taken.  cand_id_hex() writes the digest; cand_id_at() the id of
 * n digits (a new string).
 */
void	cand_id_hex(const char *task_id, const char *origin,
	    const char *code_hash, char hex[HASH_HEX_LEN + 1]);
char	*cand_id_at(const char *hex, int n);
#define CAND_ID_MIN	7

/*
 * The identity key of a candidate (schema v14, docs/adr/0043): the
 * first CAND_IDENT bytes of the digest cand_id_hex() gives as hex, into
 * ident.  Unique per candidate (candidate.ident), in place of a unique
 * (task, origin, code hash) of three text columns.
 */
#define CAND_IDENT	16
void	cand_ident(const char *hex, unsigned char ident[CAND_IDENT]);

/* --- the filter (filter.c) ------------------------------------------- */

/*
 * Every table of the queue.  q (queue, schema v6) has one narrow row per
 * candidate with the columns filters and statistics read most; counts
 * and statistics join the others only when they need them (queue_from).
 */
#define QUEUE_FROM " FROM queue q" QUEUE_JOINS
#define QUEUE_JOINS \
	" JOIN candidate c ON c.seq = q.seq" \
	" JOIN task t ON t.id = q.task_id" \
	" LEFT JOIN run r ON r.id = c.run_id" \
	" LEFT JOIN label l ON l.id = c.label_id" \
	" LEFT JOIN review v ON v.id = c.review_id"

#define QUEUE_COLS \
	"c.seq, c.id, c.task_id, t.benchmark, t.domain, c.origin, c.kind," \
	" c.lang, c.parent, c.source, t.env, r.verdict, r.stage, r.metrics," \
	" coalesce(l.category, r.category), coalesce(l.subcategory," \
	" CASE WHEN l.id IS NULL THEN r.subcategory END)," \
	" CASE WHEN l.id IS NOT NULL THEN l.by" \
	" WHEN r.category IS NOT NULL THEN 'auto' END," \
	" coalesce(v.status, 'unreviewed'), v.by"

/* Where a grep= predicate sits in a compiled filter (filter_fast). */
struct filter_grep {
	size_t	 at, len;	/* its text in where */
	size_t	 val;		/* its FTS5 string in vals */
	int	 neg;
};

/* A compiled filter: WHERE text and its bound values in order. */
struct filter {
	struct buf	 where;
	char		**vals;
	size_t		 nvals;
	struct filter_grep *greps;
	size_t		 ngreps;
	int		 drive;		/* grep_table() slot to page by; -1 */
	int		 only;		/* drive is all the filter: */
	size_t		 count;		/* its count, known */
};

/* Compile text ("" or NULL: everything) into f; f is released on failure. */
int	filter_compile(const char *text, struct filter *f, struct err *err);
/* filter_compile(), then its grep= turned into lookups in temp tables. */
int	filter_open(struct store *st, const char *text, struct filter *f,
	    struct err *err);
void	filter_release(struct filter *f);
/* Bind f's values as ?1 .. ?nvals of s. */
void	filter_bind(const struct filter *f, sqlite3_stmt *s);
/*
 * Prepare the query that sql holds (its WHERE from f), release sql and
 * bind f's values as ?1 .. ?nvals: 0, the statement in *s for the caller
 * to finalize.  -1 with err set: sql and f are both released.
 */
int	filter_prepare(struct store *st, struct filter *f, struct buf *sql,
	    sqlite3_stmt **s, struct err *err);
/*
 * A query over a filter, as the readers of the queue (queue.c, stats.c)
 * build it: the filter opened (filter_open()), the SQL being written,
 * whose WHERE is f.where and whose values ?1 .. ?f.nvals are f's, and
 * the statement once prepared.
 */
struct fquery {
	struct filter	 f;
	struct buf	 sql;
	sqlite3_stmt	*s;
};
/*
 * filter_open() text into q->f; q->sql is empty, or with cols not NULL
 * as fquery_select() writes it.  0, or -1 with err (q holds nothing to
 * release).
 */
int	fquery_open(struct store *st, const char *text, const char *cols,
	    struct fquery *q, struct err *err);
/* Add "SELECT cols", the FROM of the queue that cols and the WHERE need
 * (queue_from()) and the WHERE to q->sql, for the caller to go on. */
void	fquery_select(struct fquery *q, const char *cols);
/* filter_prepare() q->sql into q->s: 0, or -1 with err (q released). */
int	fquery_prepare(struct store *st, struct fquery *q, struct err *err);
/* Finalize q->s, release q->sql and q->f, and zero q: a second release
 * is harmless. */
void	fquery_release(struct fquery *q);
/* The SQL expression of a filter key ("task": "q.task_id"); NULL if none. */
const char *filter_key_expr(const char *key);
/* The FROM of a count or GROUP BY over q: the wide tables only when text
 * (the columns and the WHERE) names their alias. */
void	queue_from(struct buf *sql, const char *text);
void	queue_joins(struct buf *sql, const char *text);

/* --- the reviewers' labels (filter.c, stats.c) ----------------------- */

/*
 * The labels that stand, as the CTEs live and votes.  An undo of the
 * decision that gave a label (or of its redo) takes the label back and
 * a redo gives it again, so a label stands when the newest journal event
 * that gave it or took it back is not an undo.  A label given to settle
 * a disagreement (store_label_final) is final; votes are each reviewer's
 * newest standing label that is not final, one per (candidate, reviewer).
 */
#define LIVE_CTE(scope) \
	" live AS (SELECT l.id, l.cand_id, l.by, l.category," \
	"  l.final" \
	"  FROM label l WHERE " scope " l.by != 'auto' AND coalesce((SELECT" \
	"   e.action FROM event e WHERE e.cand_id = l.cand_id" \
	"   AND e.field = 'label'" \
	"   AND ((e.action IN ('label', 'redo') AND e.after = l.id)" \
	"   OR (e.action = 'undo' AND e.before = l.id))" \
	"   ORDER BY e.id DESC LIMIT 1), 'label') != 'undo'),"
#define VOTES_CTE \
	" votes AS (SELECT cand_id, by, category, id FROM live" \
	"  WHERE NOT final AND id IN (SELECT max(id) FROM live" \
	"  WHERE NOT final GROUP BY cand_id, by))"
#define REVIEW_CTES LIVE_CTE("") VOTES_CTE

/*
 * The candidates in disagreement: two reviewers' votes differ, and no
 * final label came after the newest vote.
 */
#define DISAGREE_IDS \
	"WITH" REVIEW_CTES \
	" SELECT v.cand_id FROM votes v GROUP BY v.cand_id" \
	" HAVING count(DISTINCT v.category) > 1 AND max(v.id) > coalesce(" \
	" (SELECT max(f.id) FROM live f WHERE f.final" \
	" AND f.cand_id = v.cand_id), 0)"


#endif /* ASSAY_STORE_INT_H */
