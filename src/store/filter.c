/*
 * filter.c - the filter language of the queue (docs/formats.md), compiled
 * to SQL over the queue table; see store.h for the language.
 *
 * KEY=VALUE, KEY!=VALUE and KEY~TEXT predicates joined by AND become a
 * WHERE text and its bound values (struct filter, store_int.h); grep=
 * becomes an FTS5 match, turned by filter_open() into a lookup in a
 * temporary table of matching seqs that stays valid while no text is
 * added (grep_table), so that paging through a search does not search
 * again.  The readers over a filter are in queue.c and stats.c.
 */
#include "store/store_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/vocab.h"

static const struct {
	const char	*key;
	const char	*expr;
} filter_keys[] = {
	{ "id", "c.id" },
	{ "task", "q.task_id" },
	{ "benchmark", "t.benchmark" },
	{ "domain", "t.domain" },
	{ "origin", "q.origin" },
	{ "model", "q.origin" },
	{ "kind", "q.kind" },
	{ "lang", "q.lang" },
	{ "env", "t.env" },
	{ "verdict", "q.verdict" },
	{ "stage", "q.stage" },
	/* as QUEUE_COLS: the current label's, else the latest run's */
	{ "category", "q.category" },
	{ "subcategory", "q.subcategory" },
	{ "status", "q.status" },
	{ "source", "c.source" },
	{ "parent", "c.parent" },
	{ "split", "t.split" },
	{ "license", "t.license" },
};

const char *
filter_key_expr(const char *key)
{
	for (size_t i = 0; i < sizeof filter_keys / sizeof filter_keys[0]; i++)
		if (key != NULL && strcmp(filter_keys[i].key, key) == 0)
			return filter_keys[i].expr;
	return NULL;
}

void
filter_release(struct filter *f)
{
	buf_release(&f->where);
	for (size_t i = 0; i < f->nvals; i++)
		free(f->vals[i]);
	free(f->vals);
	free(f->greps);
}

/*
 * Keys with a closed set of values: an unknown value (a typo, PASS) is an
 * error rather than a silently empty queue.  1 (err set) when bad.
 */
static int
filter_value_bad(const char *key, const char *val, struct err *err)
{
	static const struct { const char *key, *values; } sets[] = {
		{ "verdict", " " VOCAB_VERDICTS(VOCAB_WORD_) "none " },
		{ "status", " " VOCAB_STATUSES(VOCAB_WORD_) },
		{ "category", " " VOCAB_CATEGORIES(VOCAB_WORD_) "none " },
		{ "kind", " " VOCAB_KINDS(VOCAB_WORD_) },
	};

	for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) {
		char *padded;
		int found;

		if (strcmp(sets[i].key, key) != 0)
			continue;
		padded = xasprintf(" %s ", val);
		found = *val != '\0' && strchr(val, ' ') == NULL &&
		    strstr(sets[i].values, padded) != NULL;
		free(padded);
		if (!found) {
			err_set(err, "unknown %s '%s' (known:%.*s)", key, val,
			    (int)strlen(sets[i].values) - 1, sets[i].values);
			return 1;
		}
	}
	return 0;
}

/*
 * The end of the predicate at p: the next blank outside double quotes,
 * so that a quoted value (grep="a b", inner quotes doubled) may hold
 * blanks.
 */
static const char *
filter_word_end(const char *p, const char **open)
{
	int quoted = 0;

	*open = NULL;	/* the quote left open, if any */
	for (; *p != '\0'; p++) {
		if (*p == '"') {
			if (quoted && p[1] == '"') {
				p++;
			} else {
				quoted = !quoted;
				*open = quoted ? p : NULL;
			}
		} else if (!quoted && (*p == ' ' || *p == '\t')) {
			break;
		}
	}
	return p;
}

/* A value in double quotes loses them (in place); "" inside is one ". */
static void
filter_unquote(char *val)
{
	char *w = val;
	size_t len = strlen(val);

	if (len < 2 || val[0] != '"' || val[len - 1] != '"')
		return;
	val[len - 1] = '\0';
	for (const char *r = val + 1; *r != '\0'; r++) {
		if (r[0] == '"' && r[1] == '"')
			r++;
		*w++ = *r;
	}
	*w = '\0';
}

/*
 * grep=TEXT: candidates whose code, logs or task spec hold TEXT as a
 * phrase.  TEXT is bound as an FTS5 string ("..." with inner quotes
 * doubled), so that ( [ <= - are plain text and never query syntax.
 */
static void
filter_grep(struct filter *f, const char *text, int neg)
{
	struct buf q = BUF_INIT;
	size_t k = f->nvals + 1;

	buf_adds(&q, "\"");
	for (const char *r = text; *r != '\0'; r++) {
		if (*r == '"')
			buf_addc(&q, '"');
		buf_addc(&q, *r);
	}
	buf_adds(&q, "\"");
	f->greps = xreallocarray(f->greps, f->ngreps + 1, sizeof *f->greps);
	f->greps[f->ngreps].at = f->where.len;
	f->greps[f->ngreps].val = f->nvals;
	f->greps[f->ngreps].neg = neg;
	/*
	 * A candidate's search rows are its seq << 16 and on, a task's are
	 * negative (schema v6).  The IS NOT NULL keeps NOT IN from meeting
	 * a NULL (unknown).
	 */
	buf_printf(&f->where, " AND %s(q.seq IN (SELECT rowid >> 16 FROM"
	    " search WHERE search MATCH ?%zu AND rowid >= 0) OR q.task_id IN"
	    " (SELECT task_id FROM search_spec WHERE doc IN (SELECT rowid"
	    " FROM search WHERE search MATCH ?%zu AND rowid < 0)))",
	    neg ? "NOT " : "", k, k);
	f->greps[f->ngreps].len = f->where.len - f->greps[f->ngreps].at;
	f->ngreps++;
	f->vals = xreallocarray(f->vals, f->nvals + 1, sizeof *f->vals);
	f->vals[f->nvals++] = xstrdup(buf_str(&q));
	buf_release(&q);
}

static int filter_disagree(struct filter *, const char *, int, int,
    struct err *);

/*
 * dup=yes|no: a near-duplicate that an export drops (in a cluster of
 * `assay dedup`, not the one kept), or not.  contaminated=yes|no: shares
 * long n-grams with a benchmark (`assay contamination`), or not.
 */
static int
filter_flag(struct filter *f, const char *word, size_t klen,
    const char *val, int neg, int like, struct err *err)
{
	int yes, dup = klen == 3;

	if (like || (strcmp(val, "yes") != 0 && strcmp(val, "no") != 0))
		return err_set(err, "%.*s wants yes or no, as %.*s=yes",
		    (int)klen, word, (int)klen, word);
	yes = (strcmp(val, "yes") == 0) != neg;
	buf_printf(&f->where, " AND c.id %sIN (%s)", yes ? "" : "NOT ", dup ?
	    "SELECT cand_id FROM dup WHERE NOT keep" :
	    "SELECT cand_id FROM contamination");
	return 0;
}

/* KEY~TEXT as a LIKE pattern: %TEXT%, with % _ and \ in TEXT plain. */
static char *
filter_like(const char *text)
{
	struct buf b = BUF_INIT;

	buf_addc(&b, '%');
	for (; *text != '\0'; text++) {
		if (*text == '%' || *text == '_' || *text == '\\')
			buf_addc(&b, '\\');
		buf_addc(&b, *text);
	}
	buf_addc(&b, '%');
	return buf_detach(&b, NULL);
}

int
filter_compile(const char *text, struct filter *f, struct err *err)
{
	const char *p = text != NULL ? text : "";

	memset(f, 0, sizeof *f);
	buf_adds(&f->where, " WHERE 1");
	while (*p != '\0') {
		const char *end, *op, *open;
		size_t klen, i;
		char *word, *val;
		int neg = 0, like = 0;

		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '\0')
			break;
		end = filter_word_end(p, &open);
		if (open != NULL) {
			err_set(err, "filter: unterminated quote at column %zu:"
			    " %s", (size_t)(open - text) + 1, open);
			filter_release(f);
			return -1;
		}
		word = xstrndup(p, (size_t)(end - p));
		p = end;
		op = strpbrk(word, "=~!");
		if (op == NULL || op == word) {
			err_set(err, "bad filter predicate '%s': want KEY=VALUE,"
			    " KEY!=VALUE or KEY~TEXT", word);
			free(word);
			filter_release(f);
			return -1;
		}
		klen = (size_t)(op - word);
		if (op[0] == '!' && op[1] == '=') {
			neg = 1;
			val = (char *)op + 2;
		} else if (op[0] == '~') {
			like = 1;
			val = (char *)op + 1;
		} else if (op[0] == '=') {
			val = (char *)op + 1;
		} else {
			err_set(err, "bad filter predicate '%s'", word);
			free(word);
			filter_release(f);
			return -1;
		}
		filter_unquote(val);
		if (klen == 4 && strncmp(word, "grep", 4) == 0 &&
		    *val == '\0') {
			err_set(err, "bad filter predicate '%s': grep wants"
			    " a text", word);
			free(word);
			filter_release(f);
			return -1;
		}
		/* KEY~ with no text would match every row: a typo, not a
		 * wish (a bulk decision on it would take them all) */
		if (like && *val == '\0') {
			err_set(err, "bad filter predicate '%s': ~ wants a"
			    " text", word);
			free(word);
			filter_release(f);
			return -1;
		}
		if (klen == 4 && strncmp(word, "grep", 4) == 0) {
			filter_grep(f, val, neg);
			free(word);
			continue;
		}
		if ((klen == 3 && strncmp(word, "dup", 3) == 0) ||
		    (klen == 12 && strncmp(word, "contaminated", 12) == 0)) {
			int bad = filter_flag(f, word, klen, val, neg, like,
			    err) < 0;

			free(word);
			if (bad) {
				filter_release(f);
				return -1;
			}
			continue;
		}
		if (klen == 8 && strncmp(word, "disagree", 8) == 0) {
			int bad = filter_disagree(f, val, neg, like, err) < 0;

			free(word);
			if (bad) {
				filter_release(f);
				return -1;
			}
			continue;
		}
		for (i = 0; i < sizeof filter_keys / sizeof filter_keys[0]; i++)
			if (strlen(filter_keys[i].key) == klen &&
			    strncmp(filter_keys[i].key, word, klen) == 0)
				break;
		if (i == sizeof filter_keys / sizeof filter_keys[0]) {
			err_set(err, "unknown filter key '%.*s' (known: id task"
			    " benchmark domain origin model kind lang env verdict"
			    " stage category subcategory status source parent"
			    " split license grep disagree dup contaminated)",
			    (int)klen,
			    word);
			free(word);
			filter_release(f);
			return -1;
		}
		if (!like && filter_value_bad(filter_keys[i].key, val, err)) {
			free(word);
			filter_release(f);
			return -1;
		}
		if (!like && strcmp(val, "none") == 0) {
			buf_printf(&f->where, " AND %s IS %sNULL",
			    filter_keys[i].expr, neg ? "NOT " : "");
		} else {
			if (like)
				/* LIKE folds ASCII case as lower() did,
				 * without a new string per row */
				buf_printf(&f->where, " AND coalesce(%s, '')"
				    " LIKE ?%zu ESCAPE '\\'",
				    filter_keys[i].expr, f->nvals + 1);
			else if (!neg && *val != '\0')
				/* plain, so that an index can serve it */
				buf_printf(&f->where, " AND %s = ?%zu",
				    filter_keys[i].expr, f->nvals + 1);
			else
				buf_printf(&f->where, " AND coalesce(%s, '') %s ?%zu",
				    filter_keys[i].expr, neg ? "!=" : "=",
				    f->nvals + 1);
			f->vals = xreallocarray(f->vals, f->nvals + 1,
			    sizeof *f->vals);
			f->vals[f->nvals++] = like ? filter_like(val) :
			    xstrdup(val);
		}
		free(word);
	}
	return 0;
}

void
filter_bind(const struct filter *f, sqlite3_stmt *s)
{
	for (size_t i = 0; i < f->nvals; i++)
		bind_text(s, (int)i + 1, f->vals[i]);
}

/* 1 when text names the table alias a ("c" in "c.id"), outside words. */
static int
names_alias(const char *text, char a)
{
	for (const char *p = text; (p = strchr(p, a)) != NULL; p++) {
		if (p[1] != '.')
			continue;
		if (p == text || !(p[-1] == '_' || p[-1] == '.' ||
		    (p[-1] >= 'a' && p[-1] <= 'z') ||
		    (p[-1] >= 'A' && p[-1] <= 'Z') ||
		    (p[-1] >= '0' && p[-1] <= '9')))
			return 1;
	}
	return 0;
}

/*
 * The FROM of a count or a GROUP BY over the queue: queue q, and the
 * wide tables only when text (the columns and the WHERE) names them.
 * Why: at a million candidates, a count that touches each candidate or
 * run row reads gigabytes; one that stays on q reads an index.
 */
void
queue_joins(struct buf *sql, const char *text)
{
	int r = names_alias(text, 'r'), l = names_alias(text, 'l');
	int v = names_alias(text, 'v');
	int c = r || l || v || names_alias(text, 'c');

	if (c)
		buf_adds(sql, " JOIN candidate c ON c.seq = q.seq");
	if (names_alias(text, 't'))
		buf_adds(sql, " JOIN task t ON t.id = q.task_id");
	if (r)
		buf_adds(sql, " LEFT JOIN run r ON r.id = c.run_id");
	if (l)
		buf_adds(sql, " LEFT JOIN label l ON l.id = c.label_id");
	if (v)
		buf_adds(sql, " LEFT JOIN review v ON v.id = c.review_id");
}

void
queue_from(struct buf *sql, const char *text)
{
	buf_adds(sql, " FROM queue q");
	queue_joins(sql, text);
}

/* How many rows search ever had: it grows with every new text. */
static int
search_version(struct store *st, int64_t *out, struct err *err)
{
	sqlite3_stmt *s;
	int rc;

	*out = 0;
	if (prepare(st, &s, "SELECT n FROM search_gen", err) < 0)
		return -1;
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		*out = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return err_sqlite(err, st->db, "search version");
	return 0;
}

/*
 * The slot of the temporary table temp.grep_<slot> holding the seqs of
 * the candidates that match the FTS5 string query, filled now unless a
 * fill of the same query is still valid.  0 or -1.
 */
static int
grep_table(struct store *st, const char *query, int *slot,
    struct err *err)
{
	struct store_grep *g = NULL;
	sqlite3_stmt *s;
	char sql[512];
	int64_t version;
	int k = 0;

	if (search_version(st, &version, err) < 0)
		return -1;
	for (int i = 0; i < STORE_GREPS; i++) {
		if (st->greps[i].query != NULL &&
		    strcmp(st->greps[i].query, query) == 0) {
			k = i;
			g = &st->greps[i];
			break;
		}
		if (st->greps[i].used < st->greps[k].used)
			k = i;
	}
	*slot = k;
	if (g != NULL && (g->held || g->version == version)) {
		g->used = ++st->grep_clock;
		return 0;
	}
	g = &st->greps[k];
	free(g->query);
	g->query = NULL;
	g->held = 0;
	snprintf(sql, sizeof sql, "DROP TABLE IF EXISTS temp.grep_%d;"
	    " CREATE TEMP TABLE grep_%d(seq INTEGER PRIMARY KEY);", k, k);
	if (exec(st, sql, err) < 0)
		return -1;
	/* a spec's words match every candidate of its task */
	snprintf(sql, sizeof sql, "INSERT OR IGNORE INTO temp.grep_%d"
	    " SELECT rowid >> 16 FROM search WHERE search MATCH ?1 AND"
	    " rowid >= 0 UNION ALL SELECT q.seq FROM queue q WHERE q.task_id"
	    " IN (SELECT task_id FROM search_spec WHERE doc IN (SELECT rowid"
	    " FROM search WHERE search MATCH ?1 AND rowid < 0))", k);
	if (prepare(st, &s, sql, err) < 0)
		return -1;
	bind_text(s, 1, query);
	if (step_done(st, s, "search", err) < 0)
		return -1;
	g->count = (size_t)sqlite3_changes(st->db);
	g->query = xstrdup(query);
	g->version = version;
	g->used = ++st->grep_clock;
	return 0;
}

int
store_grep_patch(struct store *st, const int64_t *seqs, size_t n,
    struct err *err)
{
	int64_t version;

	if (search_version(st, &version, err) < 0)
		return -1;
	for (int k = 0; k < STORE_GREPS; k++) {
		struct store_grep *g = &st->greps[k];
		sqlite3_stmt *s;
		char sql[512];

		/* never skipped for a current version: runs stored after
		 * these, not yet told, moved it already */
		if (g->query == NULL)
			continue;
		/* the candidate's own rows, then its task's spec */
		snprintf(sql, sizeof sql, "SELECT EXISTS (SELECT 1 FROM search"
		    " WHERE search MATCH ?1 AND rowid BETWEEN ?2 << 16 AND"
		    " (?2 << 16) + 65535) OR EXISTS (SELECT 1 FROM queue q"
		    " JOIN search_spec p ON p.task_id = q.task_id WHERE"
		    " q.seq = ?2 AND p.doc IN (SELECT rowid FROM search WHERE"
		    " search MATCH ?1 AND rowid < 0))");
		if (prepare(st, &s, sql, err) < 0)
			return -1;
		for (size_t i = 0; i < n; i++) {
			sqlite3_stmt *w;
			int in;

			sqlite3_reset(s);
			bind_text(s, 1, g->query);
			sqlite3_bind_int64(s, 2, seqs[i]);
			if (sqlite3_step(s) != SQLITE_ROW) {
				sqlite3_finalize(s);
				return err_sqlite(err, st->db, "grep patch");
			}
			in = sqlite3_column_int(s, 0);
			snprintf(sql, sizeof sql, in ? "INSERT OR IGNORE INTO"
			    " temp.grep_%d VALUES (?1)" : "DELETE FROM"
			    " temp.grep_%d WHERE seq = ?1", k);
			if (prepare(st, &w, sql, err) < 0) {
				sqlite3_finalize(s);
				return -1;
			}
			sqlite3_bind_int64(w, 1, seqs[i]);
			if (step_done(st, w, "grep patch", err) < 0) {
				sqlite3_finalize(s);
				return -1;
			}
			if (in)
				g->count += (size_t)sqlite3_changes(st->db);
			else
				g->count -= (size_t)sqlite3_changes(st->db);
		}
		sqlite3_finalize(s);
		g->version = version;
		g->held = 1;
	}
	return 0;
}

void
store_grep_forget(struct store *st)
{
	for (int k = 0; k < STORE_GREPS; k++) {
		st->greps[k].version = -1;
		st->greps[k].held = 0;
	}
}

/*
 * Turn f's grep= predicates into lookups in their grep_table(), so that
 * a page or a count does not search again.  The full-text form that
 * filter_compile() wrote stays correct for every other caller.
 */
static int
filter_fast(struct store *st, struct filter *f, struct err *err)
{
	struct buf w = BUF_INIT;
	size_t from = 0, rest = f->where.len - strlen(" WHERE 1");

	f->drive = -1;
	f->only = 0;
	if (f->ngreps == 0)
		return 0;
	for (size_t i = 0; i < f->ngreps; i++) {
		const struct filter_grep *g = &f->greps[i];
		int slot;

		if (grep_table(st, f->vals[g->val], &slot, err) < 0) {
			buf_release(&w);
			return -1;
		}
		buf_add(&w, f->where.p + from, g->at - from);
		buf_printf(&w, " AND q.seq %sIN temp.grep_%d", g->neg ?
		    "NOT " : "", slot);
		if (!g->neg)
			f->drive = slot;
		/* one grep= and nothing else: its table is the queue */
		if (f->ngreps == 1 && !g->neg && g->len == rest) {
			f->only = 1;
			f->count = st->greps[slot].count;
		}
		from = g->at + g->len;
	}
	buf_add(&w, f->where.p + from, f->where.len - from);
	buf_release(&f->where);
	f->where = w;
	f->ngreps = 0;
	return 0;
}

/* filter_compile() then filter_fast(); f is released on failure. */
int
filter_open(struct store *st, const char *text, struct filter *f,
    struct err *err)
{
	if (filter_compile(text, f, err) < 0)
		return -1;
	if (filter_fast(st, f, err) < 0) {
		filter_release(f);
		return -1;
	}
	return 0;
}

int
filter_prepare(struct store *st, struct filter *f, struct buf *sql,
    sqlite3_stmt **s, struct err *err)
{
	int rc = prepare(st, s, buf_str(sql), err);

	buf_release(sql);
	if (rc < 0) {
		filter_release(f);
		return -1;
	}
	filter_bind(f, *s);
	return 0;
}

int
fquery_open(struct store *st, const char *text, const char *cols,
    struct fquery *q, struct err *err)
{
	memset(q, 0, sizeof *q);
	if (filter_open(st, text, &q->f, err) < 0)
		return -1;
	if (cols != NULL)
		fquery_select(q, cols);
	return 0;
}

void
fquery_select(struct fquery *q, const char *cols)
{
	struct buf named = BUF_INIT;

	/* the FROM joins what the SELECT and the WHERE name */
	buf_printf(&named, "%s %s", cols, buf_str(&q->f.where));
	buf_printf(&q->sql, "SELECT %s", cols);
	queue_from(&q->sql, buf_str(&named));
	buf_adds(&q->sql, buf_str(&q->f.where));
	buf_release(&named);
}

int
fquery_prepare(struct store *st, struct fquery *q, struct err *err)
{
	if (filter_prepare(st, &q->f, &q->sql, &q->s, err) < 0) {
		memset(q, 0, sizeof *q);
		return -1;
	}
	return 0;
}

void
fquery_release(struct fquery *q)
{
	sqlite3_finalize(q->s);
	buf_release(&q->sql);
	filter_release(&q->f);
	memset(q, 0, sizeof *q);
}

/* disagree=yes|no (or !=): a candidate in disagreement, or not. */
static int
filter_disagree(struct filter *f, const char *val, int neg, int like,
    struct err *err)
{
	int yes;

	if (like || (strcmp(val, "yes") != 0 && strcmp(val, "no") != 0))
		return err_set(err, "disagree wants yes or no, as "
		    "disagree=yes");
	yes = (strcmp(val, "yes") == 0) != neg;
	buf_printf(&f->where, " AND c.id %sIN (" DISAGREE_IDS ")",
	    yes ? "" : "NOT ");
	return 0;
}

int
store_filter_is_term(const char *word)
{
	struct filter f;
	struct err err;
	int ok;

	if (word == NULL || strpbrk(word, "=~") == NULL ||
	    strpbrk(word, " \t") != NULL)
		return 0;
	ok = filter_compile(word, &f, &err) == 0;
	if (ok)
		filter_release(&f);
	return ok;
}

char *
store_filter_quote(const char *v)
{
	struct buf b = BUF_INIT;

	if (*v != '\0' && strpbrk(v, " \t\"") == NULL)
		return xstrdup(v);
	buf_addc(&b, '"');
	for (; *v != '\0'; v++) {
		if (*v == '"')
			buf_addc(&b, '"');
		buf_addc(&b, *v);
	}
	buf_addc(&b, '"');
	return buf_detach(&b, NULL);
}
