/*
 * import_rows.c - a JSONL input's rows parsed on a thread of their own
 * (import_rows.h, docs/adr/0031).
 *
 * A ring of RING chunks of up to CHUNK rows each: the parser fills the chunk
 * at tail and publishes it, the caller reads the chunk at head without
 * the lock and gives it back when it has taken its last row.  A chunk
 * is the parser's from the moment it is free until it is published,
 * then the caller's until it is given back, so the rows themselves need
 * no lock; the lock guards the counts.  Chunks keep the hand-overs to
 * one per CHUNK rows.
 */
#include "exchange/import_rows.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/buf.h"
#include "base/err.h"
#include "base/hash.h"
#include "exchange/import.h"

#define CHUNK	64	/* rows handed over at once, at most */
#define CHUNK_BYTES (1u << 20)	/* a chunk ends after a row past this much
				 * input, so that rows of megabytes (logs)
				 * are not parsed 512 ahead */
#define RING	8	/* chunks parsed ahead at most */

struct chunk {
	struct import_row	 rows[CHUNK];
	size_t			 n;
};

struct import_rows {
	const char	*path;
	const char	*data, *p, *end;
	size_t		 line;
	int		 nan_ok;
	import_prep_fn	 prep;
	import_prep_free_fn prep_free;

	pthread_mutex_t	 lock;
	pthread_cond_t	 filled;	/* a chunk published, or the end */
	pthread_cond_t	 freed;		/* a chunk given back, or stop */
	struct chunk	 ring[RING];
	size_t		 head;		/* the caller's chunk */
	size_t		 taken;		/* rows taken of it */
	int		 held;		/* the caller holds the chunk at head
					 * (the caller's alone) */
	size_t		 count;		/* chunks published, not given back */
	int		 eof;		/* the parser has published its last */
	int		 stop;		/* the caller wants no more */
	int		 threaded;
	pthread_t	 thread;
};

char *
import_nan_to_null(const char *line, size_t len, size_t *outlen)
{
	struct buf b = BUF_INIT;
	int in_str = 0;

	for (size_t i = 0; i < len; i++) {
		char ch = line[i];

		if (in_str) {
			buf_addc(&b, ch);
			if (ch == '\\' && i + 1 < len)
				buf_addc(&b, line[++i]);
			else if (ch == '"')
				in_str = 0;
			continue;
		}
		if (ch == '"') {
			in_str = 1;
		} else if (ch == 'N' && i + 3 <= len &&
		    memcmp(line + i, "NaN", 3) == 0 &&
		    (i == 0 || strchr(" \t:,[", line[i - 1]) != NULL) &&
		    (i + 3 == len || strchr(" \t\r\n,]}", line[i + 3]) != NULL)) {
			buf_adds(&b, "null");
			i += 2;
			continue;
		}
		buf_addc(&b, ch);
	}
	return buf_detach(&b, outlen);
}

/* Parse the next non-blank line of r into *out: 1, or 0 at the end. */
static int
parse_line(struct import_rows *r, struct import_row *out)
{
	while (r->p < r->end) {
		const char *nl = memchr(r->p, '\n', (size_t)(r->end - r->p));
		size_t l = nl != NULL ? (size_t)(nl - r->p) :
		    (size_t)(r->end - r->p);
		const char *txt = r->p;
		char *fixed = NULL;
		size_t tl = l;
		json_error_t jerr;
		json_t *row;
		struct err e;

		r->line++;
		r->p += l + (nl != NULL);
		while (tl > 0 && (txt[tl - 1] == '\r' || txt[tl - 1] == ' '))
			tl--;
		if (tl == 0)
			continue;
		if (r->nan_ok)
			txt = fixed = import_nan_to_null(txt, tl, &tl);
		row = json_loadb(txt, tl, JSON_REJECT_DUPLICATES, &jerr);
		free(fixed);
		out->line = r->line;
		out->done = (size_t)(r->p - r->data);
		out->row = NULL;
		out->error = NULL;
		out->prep = NULL;
		if (row != NULL && json_is_object(row)) {
			out->row = row;
			if (r->prep != NULL)
				out->prep = r->prep(row);
			return 1;
		}
		if (row == NULL && json_error_code(&jerr) ==
		    json_error_invalid_utf8)
			err_set(&e, "%s:%zu: invalid UTF-8 (%s, column %d)",
			    r->path, r->line, jerr.text, jerr.column);
		else if (row == NULL)
			err_set(&e, "%s:%zu: invalid JSON: %s (column %d)",
			    r->path, r->line, jerr.text, jerr.column);
		else
			err_set(&e, "%s:%zu: a row must be a JSON object",
			    r->path, r->line);
		json_decref(row);
		out->error = xstrdup(e.msg);
		return 1;
	}
	return 0;
}

/* Free the rows of c (taken or not). */
static void
drop(struct import_rows *r, struct chunk *c)
{
	for (size_t k = 0; k < c->n; k++) {
		if (c->rows[k].prep != NULL)
			r->prep_free(c->rows[k].prep);
		json_decref(c->rows[k].row);
		free((char *)c->rows[k].error);
	}
	c->n = 0;
}

/*
 * Fill c with up to CHUNK rows, or fewer that end past CHUNK_BYTES of
 * the input, after freeing the ones it held: the rows are freed by the
 * thread that made them, for a block freed by another thread than its
 * allocator's waits for the lock of that thread's malloc arena.  The
 * rows it holds; 0 when the input had no row left.
 */
static size_t
fill(struct import_rows *r, struct chunk *c)
{
	const char *from = r->p;

	drop(r, c);
	while (c->n < CHUNK && (size_t)(r->p - from) < CHUNK_BYTES &&
	    parse_line(r, &c->rows[c->n]))
		c->n++;
	return c->n;
}

static void *
parser(void *arg)
{
	struct import_rows *r = arg;
	size_t tail = 0;

	for (;;) {
		size_t n;

		pthread_mutex_lock(&r->lock);
		while (r->count == RING && !r->stop)
			pthread_cond_wait(&r->freed, &r->lock);
		if (r->stop) {
			pthread_mutex_unlock(&r->lock);
			break;
		}
		pthread_mutex_unlock(&r->lock);
		/* The chunk at tail is free: nobody else touches it. */
		n = fill(r, &r->ring[tail]);
		pthread_mutex_lock(&r->lock);
		if (n > 0)
			r->count++;
		/* parse_line() passed over the blank lines at the end */
		if (n == 0 || r->p == r->end)
			r->eof = 1;
		pthread_cond_signal(&r->filled);
		pthread_mutex_unlock(&r->lock);
		if (n == 0 || r->p == r->end)
			break;
		tail = (tail + 1) % RING;
	}
	/* The digest context a prep function may have made here. */
	hash_thread_end();
	return NULL;
}

struct import_rows *
import_rows_open(const char *path, const char *data, size_t len, int nan_ok,
    import_prep_fn prep, import_prep_free_fn prep_free)
{
	struct import_rows *r = xcalloc(1, sizeof *r);

	r->prep = prep;
	r->prep_free = prep_free;
	r->path = path;
	r->data = r->p = data;
	r->end = data + len;
	r->nan_ok = nan_ok;
	pthread_mutex_init(&r->lock, NULL);
	pthread_cond_init(&r->filled, NULL);
	pthread_cond_init(&r->freed, NULL);
	/* A few rows are not worth a thread. */
	r->threaded = len > 64 * 1024 &&
	    pthread_create(&r->thread, NULL, parser, r) == 0;
	return r;
}

int
import_rows_next(struct import_rows *r, struct import_row *out)
{
	struct chunk *c = &r->ring[r->head];

	if (r->held && r->taken == c->n) {
		/* The caller's chunk is spent: give it back, with its rows
		 * for the parser to free. */
		r->held = 0;
		r->taken = 0;
		r->head = (r->head + 1) % RING;
		c = &r->ring[r->head];
		if (r->threaded) {
			pthread_mutex_lock(&r->lock);
			r->count--;
			pthread_cond_signal(&r->freed);
			pthread_mutex_unlock(&r->lock);
		}
	}
	if (!r->held) {
		if (!r->threaded) {
			if (fill(r, c) == 0)
				return 0;
		} else {
			pthread_mutex_lock(&r->lock);
			while (r->count == 0 && !r->eof)
				pthread_cond_wait(&r->filled, &r->lock);
			if (r->count == 0) {
				pthread_mutex_unlock(&r->lock);
				return 0;
			}
			pthread_mutex_unlock(&r->lock);
		}
		r->held = 1;
	}
	*out = c->rows[r->taken++];
	return 1;
}

void
import_rows_close(struct import_rows *r)
{
	if (r == NULL)
		return;
	if (r->threaded) {
		pthread_mutex_lock(&r->lock);
		r->stop = 1;
		pthread_cond_signal(&r->freed);
		pthread_mutex_unlock(&r->lock);
		pthread_join(r->thread, NULL);
	}
	for (size_t i = 0; i < RING; i++)
		drop(r, &r->ring[i]);
	pthread_cond_destroy(&r->filled);
	pthread_cond_destroy(&r->freed);
	pthread_mutex_destroy(&r->lock);
	free(r);
}
