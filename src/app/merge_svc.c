/*
 * merge_svc.c - the merge of run results files as a service; see
 * merge_svc.h.  The line checks moved here from cmd_merge.c.
 */
#include "app/merge_svc.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <dirent.h>
#include <limits.h>
#include <sys/stat.h>

#include "base/file.h"
#include "base/textsafe.h"
#include "base/worker.h"
#include "exchange/results.h"
#include "verify/verify.h"

struct msvc {
	struct store		*st;		/* borrowed */
	char			**files;
	size_t			 nfiles;
	char			*dir;		/* --shards, or NULL */
	struct worker		 w;
	int			 done;
	atomic_int		 cancel;
	int			 wake[2];	/* a byte on wake[1] at cancel
						 * wakes a read of a FIFO */
	/* the thread's alone until it is over */
	struct msvc_result	 res;
	struct vsvc_tally	 pending;	/* runs of the open batch */
	size_t			 npending;
	int			 locked_out;	/* the lock stayed held past the
						 * lock timeout: the rest is not
						 * stored, without a wait each */
	struct results_key	 key;		/* the last key found, or "" */
	/* read by the caller at any time */
	atomic_size_t		 a_lines, a_stored, a_unchanged, a_refused;
	pthread_mutex_t		 lock;		/* guards msgs, nmsgs */
	struct buf		 msgs;
	size_t			 nmsgs;
};

/* Append s to b as a terminal shows it safely (cli_vis's rule). */
static void
vis(struct buf *b, const char *s)
{
	safe_text(b, s, strlen(s), 0);
}

/* One message line, already safe, to the caller's queue. */
static void
post(struct msvc *m, struct buf *line)
{
	buf_addc(line, '\n');
	pthread_mutex_lock(&m->lock);
	buf_add(&m->msgs, line->p, line->len);
	m->nmsgs++;
	pthread_mutex_unlock(&m->lock);
	buf_release(line);
}

/*
 * "FILE:LINE: why", the whole message made terminal-safe: a file name,
 * an id or a value quoted from a line cannot drive the terminal
 * (docs/security.md).
 */
static void
merge_say(struct msvc *m, const char *file, size_t lineno, const char *why)
{
	struct buf b = BUF_INIT;
	char at[32];

	vis(&b, file);
	snprintf(at, sizeof at, ":%zu: ", lineno);
	buf_adds(&b, at);
	vis(&b, why);
	post(m, &b);
}

/* "assay merge: " then s made safe, then tail. */
static void
merge_note_vis(struct msvc *m, const char *s, const char *tail)
{
	struct buf b = BUF_INIT;

	buf_adds(&b, "assay merge: ");
	vis(&b, s);
	buf_adds(&b, tail);
	post(m, &b);
}

static void
merge_refuse(struct msvc *m, const char *file, size_t lineno,
    const char *why)
{
	merge_say(m, file, lineno, why);
	m->res.refused++;
	m->res.status = 2;
	atomic_fetch_add_explicit(&m->a_refused, 1, memory_order_relaxed);
}

static void
not_stored(struct msvc *m, size_t n)
{
	m->res.not_stored += n;
}

/*
 * Is the line authenticated under a key of this database?  0, or 1 with
 * why; -1 on a store error (err).
 */
static int
merge_mac(struct msvc *m, const char *line, size_t len, char *why,
    size_t n, struct err *err)
{
	char id[STORE_KEY_ID + 1];
	struct err e;
	int rc;

	if (results_line_key(line, len, id, &e) < 0) {
		snprintf(why, n, "%s", e.msg);
		return 1;
	}
	if (strcmp(id, m->key.id) != 0) {
		rc = store_results_key_get(m->st, id, m->key.key, err);
		if (rc < 0)
			return -1;
		if (rc > 0) {
			m->key.id[0] = '\0';
			snprintf(why, n, "unknown results key %s: the line was"
			    " not made by a verify of this database or of"
			    " shards it exported (merge it into that one)",
			    id);
			return 1;
		}
		memcpy(m->key.id, id, sizeof id);
	}
	if (results_line_check(line, len, &m->key, &e) < 0) {
		snprintf(why, n, "%s", e.msg);
		return 1;
	}
	return 0;
}

static void
tally_sum(struct vsvc_tally *t, const struct vsvc_tally *p)
{
	t->pass += p->pass;
	t->fail += p->fail;
	t->timeout += p->timeout;
	t->skipped += p->skipped;
	t->env_error += p->env_error;
	t->task_defect += p->task_defect;
	t->other += p->other;
}

/* Forget the open batch (after its commit or its rollback). */
static void
batch_clear(struct msvc *m)
{
	memset(&m->pending, 0, sizeof m->pending);
	m->npending = 0;
}

/* Commit the open batch; its runs count once it is in. */
static void
merge_flush(struct msvc *m)
{
	struct err err;

	if (m->npending == 0)
		return;
	if (store_commit(m->st, &err) < 0) {
		struct buf b = BUF_INIT;

		buf_printf(&b, "assay merge: %s; %zu run%s not stored",
		    err.msg, m->npending, m->npending == 1 ? "" : "s");
		post(m, &b);
		store_rollback(m->st);
		not_stored(m, m->npending);
	} else {
		m->res.done += m->npending;
		tally_sum(&m->res.tally, &m->pending);
	}
	batch_clear(m);
}

/*
 * Why the run r (of task task_id, timeout override tmo) does not belong
 * to this database, into why; 0 when it does.  -1 on a store error.
 */
static int
merge_check(struct store *st, const struct run *r, const char *task_id,
    int tmo, char *why, size_t n, struct err *err)
{
	struct candidate c;
	struct task t;
	char key[SAMPLE_HASH_HEX];
	int rc = store_candidate_get(st, r->cand_id, &c, err);

	if (rc < 0)
		return -1;
	if (rc > 0) {
		snprintf(why, n, "foreign: no candidate %s in this database",
		    r->cand_id);
		return 1;
	}
	if (strcmp(c.task_id, task_id) != 0) {
		/* The message is made safe as a whole (merge_say). */
		snprintf(why, n, "foreign: candidate %s is of task %s here,"
		    " the run says %s", r->cand_id, c.task_id, task_id);
		candidate_release(&c);
		return 1;
	}
	rc = store_task_get(st, c.task_id, &t, err);
	if (rc != 0) {
		candidate_release(&c);
		return rc < 0 ? -1 : err_set(err, "no task %s", c.task_id);
	}
	rc = 0;
	if (r->input_key[0] != '\0') {
		verify_input_key_tool(&t, &c, tmo, r->toolchain != NULL ?
		    r->toolchain : "", key);
		if (strcmp(key, r->input_key) != 0) {
			snprintf(why, n, "stale: the inputs of %s (code, task"
			    " files, env, toolchain or timeout) are not those"
			    " the run was made with", r->cand_id);
			rc = 1;
		}
	}
	task_release(&t);
	candidate_release(&c);
	return rc;
}

/*
 * A results file read line by line from its fd, each read() after a
 * wait in poll() on it and on the service's cancel pipe
 * (file_wait_readable()): a FIFO whose writer is late or quiet ends at
 * once on a cancel.  err: the errno of a failed read, 0 when none.
 */
struct lines {
	int	 fd;
	int	 cancel_fd;
	char	 buf[65536];
	size_t	 pos, len;
	int	 eof, cancelled, err;
};

/* The next byte, or -1 at the end, on a cancel or an error. */
static int
lines_getc(struct lines *l)
{
	while (l->pos == l->len) {
		ssize_t n;
		int rc;

		if (l->eof || l->cancelled || l->err != 0)
			return -1;
		rc = file_wait_readable(l->fd, l->cancel_fd);
		if (rc <= 0) {
			if (rc < 0)
				l->err = errno;
			else
				l->cancelled = 1;
			return -1;
		}
		n = read(l->fd, l->buf, sizeof l->buf);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n < 0)
			l->err = errno;
		else if (n == 0)
			l->eof = 1;
		else {
			l->pos = 0;
			l->len = (size_t)n;
		}
	}
	return (unsigned char)l->buf[l->pos++];
}

/*
 * One line of l into b (its newline kept), at most max bytes: a longer
 * one is read to its end and dropped, with *over set.  0 at the end of
 * the file (or on a cancel or an error: l says which), else 1.
 */
static int
read_line(struct lines *l, struct buf *b, size_t max, int *over)
{
	int c, any = 0;

	buf_reset(b);
	*over = 0;
	while ((c = lines_getc(l)) >= 0) {
		any = 1;
		if (b->len < max)
			buf_addc(b, (char)c);
		else
			*over = 1;
		if (c == '\n')
			break;
	}
	return any;
}

/* Store r in the open batch (opened here when there is none). */
static void
merge_store(struct msvc *m, const char *file, size_t lineno,
    struct run *r)
{
	char why[ERR_MSG_MAX + 32];
	struct err err;

	if (m->locked_out) {
		not_stored(m, 1);	/* said once, below */
	} else if (m->npending == 0 && store_begin(m->st, &err) < 0) {
		snprintf(why, sizeof why, "not stored: %s", err.msg);
		merge_say(m, file, lineno, why);
		not_stored(m, 1);
		/* --lock-timeout is the wait of the whole merge, not of
		 * each line: the lines after this are not stored either
		 * (merging again stores them; 9 lines waited 9 times) */
		if (store_locked_out(m->st)) {
			m->locked_out = 1;
			merge_say(m, file, lineno, "the database's lock stayed "
			    "held past the lock timeout: the runs after this "
			    "line are not stored (merge again to store them)");
		}
	} else if (store_run_insert(m->st, r, 2, &err) < 0) {
		/* Inside the batch: the whole batch goes back. */
		snprintf(why, sizeof why, "not stored: %s", err.msg);
		merge_say(m, file, lineno, why);
		store_rollback(m->st);
		not_stored(m, m->npending + 1);
		batch_clear(m);
	} else {
		m->npending++;
		vsvc_tally_add(&m->pending, r->verdict);
		if (m->npending >= MSVC_BATCH)
			merge_flush(m);
	}
}

static void
merge_line(struct msvc *m, const char *file, size_t lineno,
    const char *line, size_t len)
{
	struct run r;
	struct err err;
	char *task = NULL, why[ERR_MSG_MAX + 32];
	int tmo = 0, stored, rc, exists;

	/* Nothing in the line is believed before its MAC. */
	rc = merge_mac(m, line, len, why, sizeof why, &err);
	if (rc != 0) {
		if (rc > 0) {
			merge_refuse(m, file, lineno, why);
		} else {
			merge_say(m, file, lineno, err.msg);
			not_stored(m, 1);
		}
		return;
	}
	if (results_parse(line, len, &r, &task, &tmo, &stored, &err) < 0) {
		merge_refuse(m, file, lineno, err.msg);
		return;
	}
	if (r.log_len > VERIFY_OUTPUT_CAP) {
		snprintf(why, sizeof why, "a log of %zu bytes, over verify's"
		    " cap of %u", r.log_len, VERIFY_OUTPUT_CAP);
		merge_refuse(m, file, lineno, why);
		run_release(&r);
		free(task);
		return;
	}
	rc = merge_check(m->st, &r, task, tmo, why, sizeof why, &err);
	if (rc == 0)
		rc = store_run_exists(m->st, &r, &exists, &err) < 0 ? -1 :
		    exists ? 2 : 0;
	if (rc == 1) {
		merge_refuse(m, file, lineno, why);
	} else if (rc == 2) {
		m->res.unchanged++;
		vsvc_tally_add(&m->res.tally, r.verdict);
		atomic_fetch_add_explicit(&m->a_unchanged, 1,
		    memory_order_relaxed);
	} else if (rc < 0) {
		merge_say(m, file, lineno, err.msg);
		not_stored(m, 1);
	} else {
		merge_store(m, file, lineno, &r);
	}
	run_release(&r);
	free(task);
}

/* "assay merge: PATH: why": a file that cannot be read; the status 2. */
static int
merge_unreadable(struct msvc *m, const char *path, const char *why)
{
	char tail[256];

	snprintf(tail, sizeof tail, ": %s", why);
	merge_note_vis(m, path, tail);
	m->res.status = 2;
	return -1;
}

/*
 * Merge the results file path.  0, or -1 when it cannot be read (said,
 * and the status set): not there, a directory (fopen() took one and
 * every read failed with EISDIR, which read as an empty file merged
 * nothing and said so with status 0), or a read error part way (what
 * was read before it stays merged).  A FIFO is opened without waiting
 * for its writer and read in poll() (struct lines), so a cancel ends a
 * merge that waits on one.
 */
static int
merge_file(struct msvc *m, const char *path)
{
	struct lines *l;
	struct buf line = BUF_INIT;
	struct stat sb;
	size_t lineno = 0;
	int fd, over, rc = 0;

	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return merge_unreadable(m, path, strerror(errno));
	if (fstat(fd, &sb) == 0 && S_ISDIR(sb.st_mode)) {
		close(fd);
		return merge_unreadable(m, path, "Is a directory (a folder of"
		    " shards: --shards DIR)");
	}
	l = xcalloc(1, sizeof *l);
	l->fd = fd;
	l->cancel_fd = m->wake[0];
	while (!atomic_load(&m->cancel) &&
	    read_line(l, &line, RESULTS_LINE_MAX, &over) > 0) {
		lineno++;
		m->res.lines++;
		atomic_store_explicit(&m->a_lines, m->res.lines,
		    memory_order_relaxed);
		if (over) {
			merge_refuse(m, path, lineno, "a line over 128 MiB,"
			    " longer than any verify writes");
			continue;
		}
		if (line.len == 1 && line.p[0] == '\n')
			continue;
		merge_line(m, path, lineno, line.p, line.len);
		atomic_store_explicit(&m->a_stored, m->res.done + m->npending,
		    memory_order_relaxed);
	}
	/* the end of the lines is the file's end, a cancel or an error: an
	 * error is said */
	if (l->err != 0) {
		char why[160];

		snprintf(why, sizeof why, "read error after line %zu: %s",
		    lineno, strerror(l->err));
		rc = merge_unreadable(m, path, why);
	}
	buf_release(&line);
	close(fd);
	free(l);
	return rc;
}

/* A completion marker found in DIR/results: its slice, its results. */
struct marker {
	char	*sha;		/* the slice's sha256 it names */
	char	*results;	/* the results file beside it */
};

/* Is path a regular file (not a link) whose real path is under root
 * (itself a real path)? */
static int
inside(const char *path, const char *root)
{
	char real[PATH_MAX];
	size_t n = strlen(root);
	struct stat sb;

	if (lstat(path, &sb) < 0 || !S_ISREG(sb.st_mode) ||
	    realpath(path, real) == NULL)
		return 0;
	return strncmp(real, root, n) == 0 && real[n] == '/';
}

/*
 * Every completion marker in dir/results (NAME.done, whatever NAME is),
 * so that a slice's results are found whatever its results file was
 * called (`verify --input SLICE --results OUT` under any scheduler): a
 * marker counts for the slice whose sha256 it names, and its results
 * file is NAME, beside it, which must be a regular file inside dir (a
 * link or a marker whose "results" names another file is told and left
 * out).  *n markers; the array is new.
 */
static struct marker *
markers_read(struct msvc *m, const char *dir, size_t *n)
{
	char *rdir = xasprintf("%s/results", dir), root[PATH_MAX];
	struct marker *v = NULL;
	struct dirent *e;
	DIR *d;

	*n = 0;
	if (realpath(dir, root) == NULL || (d = opendir(rdir)) == NULL) {
		free(rdir);
		return NULL;
	}
	while ((e = readdir(d)) != NULL) {
		size_t len = strlen(e->d_name);
		char *marker, *res;
		const char *sha, *named, *base;
		json_t *o;

		if (len <= 5 || strcmp(e->d_name + len - 5, ".done") != 0)
			continue;
		marker = xasprintf("%s/%s", rdir, e->d_name);
		res = xasprintf("%s/%.*s", rdir, (int)(len - 5), e->d_name);
		o = inside(marker, root) ? json_load_file(marker, 0, NULL) :
		    NULL;
		sha = json_string_value(json_object_get(o, "slice_sha256"));
		named = json_string_value(json_object_get(o, "results"));
		base = named != NULL ? strrchr(named, '/') : NULL;
		base = base != NULL ? base + 1 : named;
		if (sha == NULL) {
			free(res);
		} else if (base == NULL || strlen(base) != len - 5 ||
		    strncmp(base, e->d_name, len - 5) != 0) {
			merge_note_vis(m, marker, ": its \"results\" is not the"
			    " file beside it; left out");
			free(res);
		} else if (!inside(res, root)) {
			merge_note_vis(m, res, ": not a regular file inside"
			    " the shard directory; left out");
			free(res);
		} else {
			v = xreallocarray(v, *n + 1, sizeof *v);
			v[*n].sha = xstrdup(sha);
			v[(*n)++].results = res;
		}
		json_decref(o);
		free(marker);
	}
	closedir(d);
	free(rdir);
	return v;
}

/*
 * The shards' slices: the results of every slice of dir's manifest whose
 * completion marker is there (and says the manifest's slice), their
 * stats files summed; the others listed as missing.  A slice's results
 * are dir/results/FILE (FILE the slice's name) when its marker is there,
 * else those of another marker in dir/results that names the slice
 * (markers_read()).  0, or -1 when the
 * manifest cannot be read (said).
 */
static int
merge_shards(struct msvc *m, const char *dir)
{
	struct msvc_result *sh = &m->res;
	char *path = xasprintf("%s/manifest.json", dir);
	json_t *man = json_load_file(path, 0, NULL), *v;
	struct err err;
	struct marker *mk = NULL;
	size_t i, nmk = 0;

	if (!json_is_array(json_object_get(man, "slices"))) {
		merge_note_vis(m, path, ": no manifest of export --shards");
		free(path);
		json_decref(man);
		m->res.status = 2;
		return -1;
	}
	mk = markers_read(m, dir, &nmk);
	json_array_foreach(json_object_get(man, "slices"), i, v) {
		const char *file = json_string_value(json_object_get(v, "file"));
		const char *sha = json_string_value(json_object_get(v,
		    "sha256"));
		char *res, *marker, *stats;

		if (atomic_load(&m->cancel))
			break;
		sh->nslices++;
		if (file == NULL || strchr(file, '/') != NULL) {
			json_array_append_new(sh->missing, json_integer(
			    (json_int_t)i));
			continue;
		}
		res = xasprintf("%s/results/%s", dir, file);
		marker = results_marker_path(res);
		if (!results_marker_ok(marker, sha)) {
			/* Another name for its results file. */
			for (size_t k = 0; k < nmk; k++) {
				if (sha != NULL && strcmp(mk[k].sha, sha) == 0) {
					free(res);
					res = xstrdup(mk[k].results);
					free(marker);
					marker = results_marker_path(res);
					break;
				}
			}
		}
		stats = results_stats_path(res);
		if (!results_marker_ok(marker, sha)) {
			json_array_append_new(sh->missing, json_integer(
			    (json_int_t)i));
		} else if (merge_file(m, res) == 0) {
			sh->merged++;
			if (access(stats, F_OK) != 0)
				sh->nostats++;
			else if (results_stats_sum(sh->stats, stats,
			    &err) < 0) {
				merge_note_vis(m, err.msg, "");
				sh->nostats++;
			}
		}
		free(res);
		free(marker);
		free(stats);
	}
	for (i = 0; i < nmk; i++) {
		free(mk[i].sha);
		free(mk[i].results);
	}
	free(mk);
	free(path);
	json_decref(man);
	return 0;
}

/* The service's thread: every file, or the shards, then the last batch. */
static int
merge_run(void *arg)
{
	struct msvc *m = arg;

	if (m->dir != NULL)
		merge_shards(m, m->dir);
	for (size_t i = 0; i < m->nfiles && !atomic_load(&m->cancel); i++)
		merge_file(m, m->files[i]);
	merge_flush(m);
	m->res.cancelled = atomic_load(&m->cancel) != 0;
	return 0;
}

int
msvc_new(struct msvc **out, struct store *st, char *const *files,
    size_t nfiles, const char *shards_dir, struct err *err)
{
	struct msvc *m = xcalloc(1, sizeof *m);

	*out = NULL;
	if (file_cancel_pipe(m->wake) < 0) {
		err_set(err, "merge: pipe: %s", strerror(errno));
		free(m);
		return -1;
	}
	m->st = st;
	m->files = xcalloc(nfiles + 1, sizeof *m->files);
	for (size_t i = 0; i < nfiles; i++)
		m->files[i] = xstrdup(files[i]);
	m->nfiles = nfiles;
	m->dir = xstrdup(shards_dir);
	if (m->dir != NULL) {
		m->res.missing = json_array();
		m->res.stats = json_object();
	}
	buf_init(&m->msgs);
	pthread_mutex_init(&m->lock, NULL);
	atomic_init(&m->cancel, 0);
	if (worker_start(&m->w, merge_run, m, err) < 0) {
		msvc_free(m);
		return -1;
	}
	*out = m;
	return 0;
}

int
msvc_fd(const struct msvc *s)
{
	return s->done ? -1 : worker_fd(&s->w);
}

int
msvc_step(struct msvc *s)
{
	if (!s->done && worker_over(&s->w))
		s->done = 1;
	return s->done;
}

void
msvc_progress(const struct msvc *s, struct msvc_progress *p)
{
	p->lines = atomic_load_explicit(&s->a_lines, memory_order_relaxed);
	p->stored = atomic_load_explicit(&s->a_stored, memory_order_relaxed);
	p->unchanged = atomic_load_explicit(&s->a_unchanged,
	    memory_order_relaxed);
	p->refused = atomic_load_explicit(&s->a_refused,
	    memory_order_relaxed);
}

size_t
msvc_messages(struct msvc *s, struct buf *out)
{
	size_t n;

	pthread_mutex_lock(&s->lock);
	if (s->msgs.len > 0)
		buf_add(out, s->msgs.p, s->msgs.len);
	buf_reset(&s->msgs);
	n = s->nmsgs;
	s->nmsgs = 0;
	pthread_mutex_unlock(&s->lock);
	return n;
}

void
msvc_cancel(struct msvc *s)
{
	/* the flag first, then the byte that wakes a read in poll() */
	if (atomic_exchange(&s->cancel, 1) == 0)
		(void)!write(s->wake[1], "x", 1);
}

const struct msvc_result *
msvc_result(const struct msvc *s)
{
	return &s->res;
}

void
msvc_free(struct msvc *s)
{
	if (s == NULL)
		return;
	if (!s->done)
		msvc_cancel(s);
	worker_join(&s->w);
	for (size_t i = 0; i < s->nfiles; i++)
		free(s->files[i]);
	free(s->files);
	free(s->dir);
	json_decref(s->res.missing);
	json_decref(s->res.stats);
	buf_release(&s->msgs);
	pthread_mutex_destroy(&s->lock);
	close(s->wake[0]);
	close(s->wake[1]);
	free(s);
}
