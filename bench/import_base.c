/*
 * import_base.c - the anchor of bench/import.sh (issue 13, item 6).
 *
 *   import_base gen SEED.jsonl N OUT.jsonl
 *       N rows of the assay JSONL from the rows of SEED (a raw export of
 *       the shared data), round after round: a copy's code gains a line
 *       "// assay bench copy K", so that it is a new candidate (its own
 *       code hash and id), as bench/scale.sh's copies are; its "id" is
 *       dropped (the importer derives one) and its task is named by id
 *       after the first time.
 *   import_base load ROWS.jsonl DB
 *       The plain program assay import is measured against: each row
 *       parsed with jansson and its candidate inserted into one SQLite
 *       table, its code and recorded logs into an FTS5 table with the
 *       tokenizer assay's search index uses, one prepared statement
 *       each, one transaction, WAL, synchronous NORMAL: what any
 *       importer of these rows must do at least.
 *
 * Built by bench/import.sh with cc; not part of assay.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <sqlite3.h>

static int
die(const char *what, const char *why)
{
	fprintf(stderr, "import_base: %s: %s\n", what, why);
	return 2;
}

static int
gen(const char *seed, long n, const char *out)
{
	FILE *in = fopen(seed, "r"), *o = fopen(out, "w");
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	json_t **rows = NULL;
	size_t nrows = 0;
	long k = 0;

	if (in == NULL || o == NULL)
		return die(seed, "cannot open");
	while ((len = getline(&line, &cap, in)) > 0) {
		json_t *r = json_loadb(line, (size_t)len, 0, NULL);

		if (r == NULL || json_object_get(r, "candidate") == NULL) {
			json_decref(r);
			continue;
		}
		rows = realloc(rows, (nrows + 1) * sizeof *rows);
		rows[nrows++] = r;
	}
	free(line);
	fclose(in);
	for (long round = 0; k < n; round++) {
		for (size_t i = 0; i < nrows && k < n; i++, k++) {
			json_t *r = json_deep_copy(rows[i]);
			json_t *c = json_object_get(r, "candidate"), *t;
			char *txt;

			if (round > 0) {
				const char *code = json_string_value(
				    json_object_get(c, "code"));
				char *nc;

				if (code == NULL)
					code = "";
				nc = malloc(strlen(code) + 64);
				sprintf(nc, "%s\n// assay bench copy %ld\n", code,
				    round);
				json_object_set_new(c, "code", json_string(nc));
				free(nc);
				json_object_del(c, "id");
				json_object_del(c, "parent");
				t = json_object_get(r, "task");
				if (json_is_object(t))
					json_object_set_new(r, "task", json_string(
					    json_string_value(json_object_get(t,
					    "id"))));
			}
			txt = json_dumps(r, JSON_COMPACT | JSON_PRESERVE_ORDER);
			fprintf(o, "%s\n", txt);
			free(txt);
			json_decref(r);
		}
		if (nrows == 0)
			break;
	}
	for (size_t i = 0; i < nrows; i++)
		json_decref(rows[i]);
	free(rows);
	if (fclose(o) != 0)
		return die(out, "write failed");
	return 0;
}

static const char *
str(json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

static void
bind(sqlite3_stmt *s, int i, const char *v)
{
	if (v == NULL)
		sqlite3_bind_null(s, i);
	else
		sqlite3_bind_text(s, i, v, -1, SQLITE_TRANSIENT);
}

static int
load(const char *path, const char *dbpath)
{
	sqlite3 *db;
	sqlite3_stmt *ins, *fts;
	FILE *in = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	long rows = 0;

	if (in == NULL)
		return die(path, "cannot open");
	if (sqlite3_open(dbpath, &db) != SQLITE_OK ||
	    sqlite3_exec(db, "PRAGMA journal_mode = WAL;"
	    "PRAGMA synchronous = NORMAL;"
	    "CREATE TABLE sample(seq INTEGER PRIMARY KEY, id TEXT UNIQUE,"
	    " task TEXT, origin TEXT, kind TEXT, lang TEXT, source TEXT,"
	    " code BLOB, recorded TEXT);"
	    "CREATE VIRTUAL TABLE search USING fts5(body,"
	    " tokenize = \"unicode61 tokenchars '_'\");"
	    "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
		return die(dbpath, sqlite3_errmsg(db));
	if (sqlite3_prepare_v2(db, "INSERT INTO sample(id, task, origin, kind,"
	    " lang, source, code, recorded) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7,"
	    " ?8)", -1, &ins, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "INSERT INTO search(body) VALUES (?1)", -1,
	    &fts, NULL) != SQLITE_OK)
		return die(dbpath, sqlite3_errmsg(db));
	while ((len = getline(&line, &cap, in)) > 0) {
		json_t *r = json_loadb(line, (size_t)len, 0, NULL), *c, *t, *rec;
		json_t *v;
		char *rtxt = NULL;
		size_t i;

		if (r == NULL)
			return die(path, "invalid JSON");
		c = json_object_get(r, "candidate");
		t = json_object_get(r, "task");
		rec = json_object_get(r, "recorded");
		bind(ins, 1, str(c, "id"));
		bind(ins, 2, json_is_object(t) ? str(t, "id") :
		    json_string_value(t));
		bind(ins, 3, str(c, "origin"));
		bind(ins, 4, str(c, "kind"));
		bind(ins, 5, str(c, "lang"));
		bind(ins, 6, str(c, "source"));
		bind(ins, 7, str(c, "code"));
		if (rec != NULL)
			rtxt = json_dumps(rec, JSON_COMPACT);
		bind(ins, 8, rtxt);
		free(rtxt);
		if (sqlite3_step(ins) != SQLITE_DONE)
			return die("insert", sqlite3_errmsg(db));
		sqlite3_reset(ins);
		bind(fts, 1, str(c, "code"));
		if (sqlite3_step(fts) != SQLITE_DONE)
			return die("insert search", sqlite3_errmsg(db));
		sqlite3_reset(fts);
		json_array_foreach(rec, i, v) {
			if (str(v, "log") == NULL)
				continue;
			bind(fts, 1, str(v, "log"));
			if (sqlite3_step(fts) != SQLITE_DONE)
				return die("insert search", sqlite3_errmsg(db));
			sqlite3_reset(fts);
		}
		json_decref(r);
		rows++;
	}
	free(line);
	fclose(in);
	sqlite3_finalize(ins);
	sqlite3_finalize(fts);
	if (sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
		return die("commit", sqlite3_errmsg(db));
	sqlite3_close(db);
	printf("%ld rows\n", rows);
	return 0;
}

int
main(int argc, char **argv)
{
	if (argc == 5 && strcmp(argv[1], "gen") == 0)
		return gen(argv[2], atol(argv[3]), argv[4]);
	if (argc == 4 && strcmp(argv[1], "load") == 0)
		return load(argv[2], argv[3]);
	fprintf(stderr, "usage: import_base gen SEED N OUT | load ROWS DB\n");
	return 2;
}
