/*
 * import_util.c - what the importers share (import.h): reading input
 * under the import's guard, listing directories, storing and counting
 * tasks and candidates, the JSONL row loop with its file:line errors,
 * the JSON getters, the roles of task files and the model names of
 * generation logs.  Below every importer file and import.c, so that the
 * readers of each format (import_*.c) and the dispatch (import.c) use it
 * and never each other.
 */
#include "exchange/import.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "base/file.h"
#include "base/hash.h"
#include "base/ident.h"
#include "envs/env.h"
#include "envs/verilog.h"
#include "exchange/import_rows.h"
#include "model/sample.h"

/*
 * The input import_path() is reading.  A pipe (import /dev/stdin,
 * import <(...)) can be read once: it is read whole before the format is
 * told, and import_read() hands out copies of that.  root is the real
 * path of the directory being imported: a file under it that resolves
 * outside it (a symlink to a host file) is refused.  Set and cleared by
 * import_path(), on the thread that imports: one per thread, so that an
 * import running on a service's thread (import_svc.h) keeps its own.
 */
static _Thread_local struct {
	const char	*pipe_path;
	char		*pipe_data;
	size_t		 pipe_len;
	char		*root;		/* realpath of the directory */
	char		*lexroot;	/* its path as given, absolute */
	struct import_watch *watch;	/* its cancel, or NULL */
	struct buf	 links;		/* the folder links left out, one
					 * warning line each */
} cur;

/* path made absolute and its "." and ".." parts resolved by name, not
 * through the file system: new string. */
static char *
lexical(const char *path)
{
	char cwd[PATH_MAX], *in, *tok, *save = NULL;
	struct buf b = BUF_INIT;

	if (path[0] == '/' || getcwd(cwd, sizeof cwd) == NULL)
		in = xstrdup(path);
	else
		in = xasprintf("%s/%s", cwd, path);
	for (tok = strtok_r(in, "/", &save); tok != NULL;
	    tok = strtok_r(NULL, "/", &save)) {
		if (strcmp(tok, ".") == 0)
			continue;
		if (strcmp(tok, "..") == 0) {
			char *slash = b.len > 0 ? strrchr(b.p, '/') : NULL;

			b.len = slash != NULL ? (size_t)(slash - b.p) : 0;
			if (b.p != NULL)
				b.p[b.len] = '\0';
			continue;
		}
		buf_printf(&b, "/%s", tok);
	}
	free(in);
	if (b.len == 0)
		buf_adds(&b, "/");
	return buf_detach(&b, NULL);
}

/* Is path dir itself or below it?  Both absolute, normalised. */
static int
below(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return strcmp(dir, "/") == 0 || (strncmp(path, dir, n) == 0 &&
	    (path[n] == '/' || path[n] == '\0'));
}

/*
 * During a directory import: refuse a file that a symlink takes out of
 * the imported directory (a link to a host file posing as a spec).  A
 * path named inside the directory must resolve inside it; a file beside
 * it that an importer reads by design (a KernelBench dump's problems in
 * ../levelN) may not itself be a link out of the directory's parent.
 */
static int
symlink_out(const char *path, struct err *err)
{
	char *lex = lexical(path), *real = realpath(path, NULL);
	char *up = xstrdup(cur.root), *slash = strrchr(up, '/');
	struct stat sb;
	int bad = 0;

	if (slash != NULL)
		slash[slash == up ? 1 : 0] = '\0';
	if (real != NULL) {
		if (below(lex, cur.lexroot))
			bad = !below(real, cur.root);
		else
			bad = lstat(path, &sb) == 0 && S_ISLNK(sb.st_mode) &&
			    !below(real, up);
	}
	if (bad)
		err_set(err, "%s: resolves to %s, outside %s: refused (a"
		    " symlink out of the imported directory)", path, real,
		    cur.root);
	free(lex);
	free(real);
	free(up);
	return bad ? -1 : 0;
}

/*
 * Wait until fd can be read or the import is cancelled (the watch's
 * cancel_fd, file_wait_readable()): 0, or -1 with err ("path:
 * cancelled").  No time limit and no busy wait: poll() sleeps.
 */
static int
wait_readable(int fd, const char *path, struct err *err)
{
	int rc;

	if (import_watch_cancelled(cur.watch))
		return err_set(err, "%s: cancelled", path);
	rc = file_wait_readable(fd, cur.watch != NULL ?
	    cur.watch->cancel_fd : -1);
	if (rc < 0)
		return err_set(err, "%s: %s", path, strerror(errno));
	if (rc == 0 || import_watch_cancelled(cur.watch))
		return err_set(err, "%s: cancelled", path);
	return 0;
}

/*
 * Read all of fd into a new buffer ("" when empty), waiting in poll()
 * before each read (wait_readable()), so that a pipe's reader can be
 * cancelled; fd may be non-blocking.  A read error is an error, never
 * taken for the end ("path: Is a directory").
 */
static int
read_fd(int fd, const char *path, char **out, size_t *len, struct err *err)
{
	struct buf b = BUF_INIT;
	char chunk[65536];
	ssize_t n;

	for (;;) {
		if (wait_readable(fd, path, err) < 0) {
			buf_release(&b);
			return -1;
		}
		n = read(fd, chunk, sizeof chunk);
		if (n == 0)
			break;
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n < 0) {
			buf_release(&b);
			return err_set(err, "%s: %s", path, strerror(errno));
		}
		if (b.len > IMPORT_READ_MAX) {
			buf_release(&b);
			return err_set(err, "%s: larger than %d MiB", path,
			    IMPORT_READ_MAX >> 20);
		}
		buf_add(&b, chunk, (size_t)n);
	}
	buf_adds(&b, "");
	*out = buf_detach(&b, len);
	return 0;
}

/*
 * Open an input file of the import for reading, its stat in *sb: the fd,
 * or -1 with err.  Refused: a link out of the imported tree, and anything
 * but a regular file.  O_NONBLOCK: a FIFO named like a benchmark file
 * must not hang the import; it is refused after the open.
 */
static int
open_input(const char *path, struct stat *sb, struct err *err)
{
	int fd;

	if (cur.root != NULL && symlink_out(path, err) < 0)
		return -1;
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return err_set(err, "%s: %s", path, strerror(errno));
	if (fstat(fd, sb) < 0 || !S_ISREG(sb->st_mode)) {
		close(fd);
		return err_set(err, "%s: not a regular file, refused", path);
	}
	return fd;
}

int
import_read(const char *path, char **out, size_t *len, struct err *err)
{
	struct stat sb;
	int fd, rc;

	*out = NULL;
	*len = 0;
	if (cur.pipe_path != NULL && strcmp(path, cur.pipe_path) == 0) {
		*out = xmalloc(cur.pipe_len + 1);
		memcpy(*out, cur.pipe_data, cur.pipe_len);
		(*out)[cur.pipe_len] = '\0';
		*len = cur.pipe_len;
		return 0;
	}
	fd = open_input(path, &sb, err);
	if (fd < 0)
		return -1;
	rc = read_fd(fd, path, out, len, err);
	close(fd);
	return rc;
}

/* A leading UTF-8 BOM left out of t's text (t->bom says so). */
static void
skip_bom(struct import_text *t)
{
	if (t->len >= 3 && memcmp(t->data, "\xef\xbb\xbf", 3) == 0) {
		t->data += 3;
		t->len -= 3;
		t->bom = 3;
	}
}

int
import_read_array(const char *path, const char *what, json_t **out,
    struct err *err)
{
	char *text;
	size_t len;
	json_error_t je;

	*out = NULL;
	if (import_read(path, &text, &len, err) < 0)
		return -1;
	*out = json_loadb(text, len, 0, &je);
	free(text);
	if (json_is_array(*out))
		return 0;
	/* parsed but no array: the parser left line -1; the value starts
	 * the file */
	err_set(err, "%s:%d: not %s: %s", path, *out == NULL ? je.line : 1,
	    what, *out == NULL ? je.text : "not an array");
	json_decref(*out);
	*out = NULL;
	return -1;
}

int
import_map(const char *path, struct import_text *out, struct err *err)
{
	struct stat sb;
	void *p;
	int fd;

	memset(out, 0, sizeof *out);
	out->data = "";
	if (cur.pipe_path != NULL && strcmp(path, cur.pipe_path) == 0) {
		out->data = cur.pipe_data;
		out->len = cur.pipe_len;
		skip_bom(out);
		return 0;
	}
	fd = open_input(path, &sb, err);
	if (fd < 0)
		return -1;
	if (sb.st_size == 0) {
		close(fd);
		return 0;
	}
	p = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return err_set(err, "%s: %s", path, strerror(errno));
	/* Read once, front to back: the kernel may read ahead and drop
	 * what is behind. */
	madvise(p, (size_t)sb.st_size, MADV_SEQUENTIAL);
	out->data = p;
	out->len = (size_t)sb.st_size;
	out->mapped = 1;
	skip_bom(out);
	return 0;
}

void
import_unmap(struct import_text *t)
{
	if (t->mapped)
		munmap((void *)(t->data - t->bom), t->len + t->bom);
	memset(t, 0, sizeof *t);
	t->data = "";
}

int
import_watch_rows(struct import_watch *w, size_t line, size_t done,
    size_t total)
{
	if (w == NULL)
		return 0;
	atomic_store_explicit(&w->rows, line, memory_order_relaxed);
	atomic_store_explicit(&w->done, done, memory_order_relaxed);
	atomic_store_explicit(&w->total, total, memory_order_relaxed);
	return import_watch_cancelled(w);
}

int
import_watch_cancelled(struct import_watch *w)
{
	return w != NULL && atomic_load_explicit(&w->cancel,
	    memory_order_relaxed) != 0;
}

void
import_watch_stored(struct import_watch *w)
{
	if (w != NULL)
		atomic_fetch_add_explicit(&w->stored, 1, memory_order_relaxed);
}

int
import_guard_begin(const char *path, struct import_watch *watch,
    struct err *err)
{
	struct stat sb;
	int rc;

	memset(&cur, 0, sizeof cur);
	cur.watch = watch;
	if (stat(path, &sb) < 0)
		return err_set(err, "%s: %s", path, strerror(errno));
	if (S_ISDIR(sb.st_mode)) {
		cur.root = realpath(path, NULL);
		cur.lexroot = lexical(path);
	} else if (!S_ISREG(sb.st_mode)) {
		/* A pipe can be read once: read it now, so that telling
		 * the format does not eat the rows.  O_NONBLOCK: the open
		 * of a FIFO does not wait for a writer (read_fd() does, in
		 * poll(), where a cancel reaches it). */
		int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);

		if (fd < 0)
			return err_set(err, "%s: %s", path, strerror(errno));
		rc = read_fd(fd, path, &cur.pipe_data, &cur.pipe_len, err);
		close(fd);
		if (rc < 0)
			return -1;
		cur.pipe_path = path;
	}
	return 0;
}

void
import_guard_end(struct buf *warnings)
{
	if (warnings != NULL && cur.links.len > 0)
		buf_add(warnings, cur.links.p, cur.links.len);
	buf_release(&cur.links);
	free(cur.pipe_data);
	free(cur.root);
	free(cur.lexroot);
	memset(&cur, 0, sizeof cur);
}

int
import_has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && strcmp(s + n - m, suffix) == 0;
}

static int
name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * During a directory import: is dir/name a symlink to a folder?  Such a
 * link is left out of every listing, with a warning naming it once
 * (cur.links): a walk that followed it could go round a loop (a link
 * to ".." gave every design of an RTLLM tree again at each level) or
 * out of the tree.  A link to a file is read, under symlink_out().
 */
static int
folder_link(const char *dir, const struct dirent *e)
{
	struct stat sb;
	char *p, *line;
	int yes;

	if (cur.root == NULL || (e->d_type != DT_LNK &&
	    e->d_type != DT_UNKNOWN))
		return 0;
	p = xasprintf("%s/%s", dir, e->d_name);
	yes = lstat(p, &sb) == 0 && S_ISLNK(sb.st_mode) &&
	    stat(p, &sb) == 0 && S_ISDIR(sb.st_mode);
	if (yes) {
		line = xasprintf("%s: a symlink to a folder, skipped (a"
		    " directory import follows no folder links)\n", p);
		if (cur.links.len == 0 || strstr(buf_str(&cur.links),
		    line) == NULL)
			buf_adds(&cur.links, line);
		free(line);
	}
	free(p);
	return yes;
}

int
import_list_dir(const char *dir, char ***out, size_t *n, struct err *err)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	*out = NULL;
	*n = 0;
	if (d == NULL)
		return err_set(err, "%s: %s", dir, strerror(errno));
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.' || folder_link(dir, e))
			continue;
		*out = xreallocarray(*out, *n + 1, sizeof **out);
		(*out)[(*n)++] = xstrdup(e->d_name);
	}
	closedir(d);
	if (*n > 1)
		qsort(*out, *n, sizeof **out, name_cmp);
	return 0;
}

int
import_each_entry(const char *dir,
    int (*fn)(const char *path, const char *name, void *arg), void *arg,
    struct err *err)
{
	char **names;
	size_t n;
	int rc = 0;

	if (import_list_dir(dir, &names, &n, err) < 0)
		return -1;
	for (size_t i = 0; i < n && rc == 0; i++) {
		char *p = xasprintf("%s/%s", dir, names[i]);

		rc = fn(p, names[i], arg);
		free(p);
	}
	strv_free(names, n);
	return rc;
}

int
import_any_entry(const char *dir,
    int (*pred)(const char *path, const char *name, void *arg), void *arg)
{
	return import_each_entry(dir, pred, arg, NULL) > 0;
}

/* What import_each_problem() gives import_each_entry(). */
struct each_problem {
	int			(*is_problem)(const char *);
	int			(*fn)(const char *, void *, struct err *);
	void			 *arg;
	const char		 *why;
	struct import_report	 *rep;
	struct err		 *err;
};

static int
each_problem_entry(const char *p, const char *name, void *arg)
{
	struct each_problem *w = arg;

	(void)name;
	if (w->is_problem(p))
		return w->fn(p, w->arg, w->err);
	if (file_is_dir(p))
		buf_printf(&w->rep->warnings, "%s: %s\n", p, w->why);
	return 0;
}

int
import_each_problem(const char *dir, int (*is_problem)(const char *),
    int (*fn)(const char *path, void *arg, struct err *err), void *arg,
    const char *why, struct import_report *rep, struct err *err)
{
	struct each_problem w = { is_problem, fn, arg, why, rep, err };

	return import_each_entry(dir, each_problem_entry, &w, err);
}

/* What the walks of import_layout_*() give import_*_entry(). */
struct layout_arg {
	const struct import_layout	*l;
	int				 depth;
	const struct import_walk	*w;
};

static int
layout_holds_entry(const char *p, const char *name, void *arg)
{
	const struct layout_arg *a = arg;

	if (a->depth == 1)
		return a->l->is_problem(p);
	return a->l->group_name(name) && import_layout_holds(a->l, p, 1);
}

int
import_layout_holds(const struct import_layout *l, const char *dir,
    int depth)
{
	struct layout_arg a = { l, depth, NULL };

	return import_any_entry(dir, layout_holds_entry, &a);
}

/* Every problem folder of group folder dir. */
static int
layout_group(const struct import_layout *l, const struct import_walk *w,
    const char *dir)
{
	struct import_walk gw = *w;

	gw.group = file_base(dir);
	return import_each_problem(dir, l->is_problem, l->problem, &gw,
	    l->not_problem, w->rep, w->err);
}

static int
layout_group_entry(const char *p, const char *name, void *arg)
{
	const struct layout_arg *a = arg;

	if (!a->l->group_name(name) || !file_is_dir(p))
		return 0;
	return layout_group(a->l, a->w, p);
}

/* import_layout_run() of the trimmed path p: 1 when p is not laid out
 * so. */
static int
layout_run(const struct import_layout *l, struct import_walk *w,
    const char *p)
{
	struct layout_arg a = { l, 2, w };
	char *up;
	int rc;

	if (import_layout_holds(l, p, 2))
		return import_each_entry(p, layout_group_entry, &a, w->err);
	if ((!l->group_named || l->group_name(file_base(p))) &&
	    import_layout_holds(l, p, 1))
		return layout_group(l, w, p);
	if (!l->is_problem(p))
		return 1;
	up = file_dir(p);
	w->group = file_base(up);
	rc = l->problem(p, w, w->err);
	free(up);
	return rc;
}

int
import_layout_run(const struct import_layout *l, struct store *st,
    const char *path, struct import_report *rep, struct err *err)
{
	struct import_walk w = { st, rep, NULL, err };
	char *p = file_trim(path);
	int rc = layout_run(l, &w, p);

	if (rc > 0)
		rc = err_set(err, "%s: %s", p, l->not_data);
	free(p);
	return rc;
}

int
import_tb_problem(const struct import_walk *w, const char *dir,
    const struct import_tb_files *f, const char *id, struct task *t,
    struct err *err)
{
	char *brief = NULL, *tb = NULL, *iface = NULL;
	size_t blen, tlen, ilen;
	json_t *extra;
	int rc = -1;

	if (import_read_in(dir, f->brief, 0, &brief, &blen, err) < 0 ||
	    import_read_in(dir, f->tb, 0, &tb, &tlen, err) < 0 ||
	    import_read_in(dir, f->iface, 1, &iface, &ilen, err) < 0)
		goto out;
	if (iface == NULL && f->warn_iface)
		buf_printf(&w->rep->warnings, "%s: no %s\n", dir, f->iface);
	if (import_tb_task(t, id, f->benchmark, dir, f->tb, tb, tlen,
	    err) < 0)
		goto out;
	t->spec = import_spec(brief, blen, f->tail);
	if (iface != NULL)
		t->interface = xstrndup(iface, ilen);
	extra = json_pack("{s:s}", f->group_key, w->group);
	t->extra = json_dumps(extra, JSON_COMPACT);
	json_decref(extra);
	rc = import_put_task(w->st, t, w->rep, err);
out:
	free(brief);
	free(tb);
	free(iface);
	return rc;
}

int
import_has_file(const char *dir, const char *name)
{
	char *p = xasprintf("%s/%s", dir, name);
	int yes = file_is_reg(p);

	free(p);
	return yes;
}

int
import_read_in(const char *dir, const char *name, int optional,
    char **out, size_t *len, struct err *err)
{
	char *p = xasprintf("%s/%s", dir, name);
	int rc = 0;

	*out = NULL;
	*len = 0;
	if (!optional || file_is_reg(p))
		rc = import_read(p, out, len, err);
	free(p);
	return rc;
}

char *
import_spec(const char *text, size_t len, const char *tail)
{
	struct buf b = BUF_INIT;

	buf_add(&b, text, len);
	if (b.len > 0 && b.p[b.len - 1] != '\n')
		buf_addc(&b, '\n');
	buf_adds(&b, tail);
	return buf_detach(&b, NULL);
}

void
import_direct_code(struct candidate *c, const char *lang, char *source,
    char *code, size_t len)
{
	c->kind = xstrdup("direct");
	c->lang = xstrdup(lang);
	c->source = source;
	c->code = code;
	c->code_len = len;
	hash_sha256(c->code, c->code_len, c->code_hash);
}

void
import_reference(struct candidate *c, const char *task_id, const char *lang,
    char *source, char *code, size_t len)
{
	c->task_id = xstrdup(task_id);
	c->origin = xstrdup("reference");
	import_direct_code(c, lang, source, code, len);
}

int
import_put_reference(struct store *st, const char *task_id, const char *lang,
    char *source, const char *code, struct import_report *rep,
    struct err *err)
{
	struct candidate c = { 0 };
	int rc;

	import_reference(&c, task_id, lang, source, xstrdup(code), strlen(code));
	rc = import_put_candidate(st, &c, NULL, 0, rep, NULL, err);
	candidate_release(&c);
	return rc;
}

int
import_read_file(const char *path, char **out, size_t *len, struct err *err)
{
	if (import_read(path, out, len, err) < 0)
		return -1;
	if (*out == NULL)
		*out = xstrdup("");
	return 0;
}

/* Store a task and count it. */
int
import_put_task(struct store *st, const struct task *t,
    struct import_report *rep, struct err *err)
{
	int inserted;

	if (import_watch_cancelled(rep->watch))
		return err_set(err, "cancelled");
	if (store_task_put(st, t, &inserted, err) < 0)
		return -1;
	if (inserted)
		rep->tasks_added++;
	else
		rep->tasks_existing++;
	return 0;
}

/* Store a candidate (and its recorded result if new) and count it. */
int
import_put_candidate(struct store *st, struct candidate *c,
    const struct recorded *r, size_t nrec, struct import_report *rep,
    int *inserted, struct err *err)
{
	int ins;

	if (import_watch_cancelled(rep->watch))
		return err_set(err, "cancelled");
	if (store_candidate_add(st, c, &ins, err) < 0)
		return -1;
	import_watch_stored(rep->watch);
	if (inserted != NULL)
		*inserted = ins;
	if (!ins) {
		rep->cands_existing++;
		return 0;
	}
	rep->cands_added++;
	for (size_t i = 0; i < nrec; i++)
		if (store_recorded_add(st, c->id, &r[i], err) < 0)
			return -1;
	return 0;
}

/* --- the row readers' helpers ---------------------------------------- */

char *
import_model_from_log(const char *log)
{
	static const char *const markers[] = { "_cot_", "_react_",
	    "_openaifunc_" };
	const char *end = strstr(log, "_pass_at_k");
	const char *best = NULL;
	size_t n;

	if (end == NULL)
		end = log + strlen(log);
	for (size_t m = 0; m < sizeof markers / sizeof markers[0]; m++) {
		size_t ml = strlen(markers[m]);

		for (const char *p = log; (p = strstr(p, markers[m])) != NULL &&
		    p < end; p++)
			if (best == NULL || p + ml > best)
				best = p + ml;
	}
	if (best == NULL) {
		/* "..._reflexion-verilog_2_gpt-4": after the last _<digits>_ */
		for (const char *p = log; p < end; p++) {
			const char *q = p + 1;

			if (*p != '_' || q >= end || *q < '0' || *q > '9')
				continue;
			while (q < end && *q >= '0' && *q <= '9')
				q++;
			if (q < end && *q == '_')
				best = q + 1;
		}
	}
	if (best == NULL || best >= end)
		return xstrdup(log);
	n = (size_t)(end - best);
	return xstrndup(best, n);
}

const char *
import_jstr(json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

char *
import_jdup(json_t *o, const char *key)
{
	return xstrdup(import_jstr(o, key));
}

char *
import_unknown_fields(json_t *o, const char *const *known)
{
	json_t *extra = json_object(), *v;
	const char *key;
	char *txt = NULL;

	json_object_foreach(o, key, v) {
		int k = 0;

		for (size_t i = 0; known[i] != NULL && !k; i++)
			k = strcmp(known[i], key) == 0;
		if (!k)
			json_object_set(extra, key, v);
	}
	if (json_object_size(extra) > 0)
		txt = json_dumps(extra, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(extra);
	return txt;
}

void
import_set_code(struct candidate *c, const char *code)
{
	free(c->code);
	c->code = xstrdup(code);
	c->code_len = strlen(code);
	hash_sha256(c->code, c->code_len, c->code_hash);
}

/* import_each_jsonl() and import_each_jsonl_prep(): cb or pcb. */
static int
each_jsonl(struct store *st, const char *path, int nan_ok,
    import_prep_fn prep, import_prep_free_fn prep_free,
    const struct import_opts *opts, import_row_fn cb,
    import_prep_row_fn pcb, struct import_report *rep, struct err *err)
{
	int keep_going = opts->keep_going;
	struct import_text in;
	struct import_rows *rows;
	struct import_row r;
	size_t line = 0, nrows = 0, next_progress = IMPORT_PROGRESS_ROWS;

	/* Mapped, not read: a million rows are more than a gigabyte. */
	if (import_map(path, &in, err) < 0)
		return -1;
	/* Parsed ahead on a thread of their own (ADR 0031). */
	rows = import_rows_open(path, in.data, in.len, nan_ok, prep,
	    prep_free);
	while (import_rows_next(rows, &r)) {
		struct err rowerr;
		int rc;

		line = r.line;
		nrows++;
		if (import_watch_rows(rep->watch, line, r.done, in.len)) {
			import_row_error(err, path, line, "cancelled");
			import_rows_close(rows);
			import_unmap(&in);
			return -1;
		}
		if (opts->progress != NULL && line >= next_progress) {
			opts->progress(line, r.done, in.len,
			    opts->progress_arg);
			next_progress = (line / IMPORT_PROGRESS_ROWS + 1) *
			    IMPORT_PROGRESS_ROWS;
		}
		if (r.row == NULL) {
			err_set(&rowerr, "%s", r.error);
			rc = -1;
		} else {
			/* A savepoint per row: a skipped row leaves nothing,
			 * not even in the counts. */
			struct import_report before = *rep;

			err_clear(&rowerr);
			/* Without keep_going a bad row fails the whole
			 * file, so a row needs no savepoint of its own
			 * (each one journals every page the row changes). */
			rc = keep_going ? store_savepoint(st, &rowerr) : 0;
			if (rc == 0) {
				rc = cb != NULL ? cb(st, r.row, path, line,
				    opts, rep, &rowerr) : pcb(st, r.row, r.prep,
				    path, line, opts, rep, &rowerr);
				if (keep_going)
					store_savepoint_end(st, rc == 0);
			}
			if (rc < 0) {
				rep->tasks_added = before.tasks_added;
				rep->tasks_existing = before.tasks_existing;
				rep->cands_added = before.cands_added;
				rep->cands_existing = before.cands_existing;
			}
			if (rc < 0 && strncmp(rowerr.msg, path, strlen(path)) != 0) {
				struct err e2;

				/* A store failure: say where it happened. */
				err_set(&e2, "%s:%zu: %s", path, line, rowerr.msg);
				rowerr = e2;
			}
		}
		if (rc < 0) {
			if (!keep_going) {
				err_set(err, "%s", rowerr.msg);
				import_rows_close(rows);
				import_unmap(&in);
				return -1;
			}
			rep->skipped++;
			buf_printf(&rep->warnings, "%s (skipped)\n", rowerr.msg);
		}
	}
	import_rows_close(rows);
	if (opts->progress != NULL)
		opts->progress(line, in.len, in.len, opts->progress_arg);
	if (nrows == 0)
		buf_printf(&rep->warnings, "%s: empty file, nothing imported\n",
		    path);
	import_unmap(&in);
	return 0;
}

int
import_each_jsonl(struct store *st, const char *path, int nan_ok,
    const struct import_opts *opts, import_row_fn cb,
    struct import_report *rep, struct err *err)
{
	return each_jsonl(st, path, nan_ok, NULL, NULL, opts, cb, NULL, rep,
	    err);
}

int
import_each_jsonl_prep(struct store *st, const char *path,
    import_prep_fn prep, import_prep_free_fn prep_free,
    const struct import_opts *opts, import_prep_row_fn cb,
    struct import_report *rep, struct err *err)
{
	return each_jsonl(st, path, 0, prep, prep_free, opts, NULL, cb, rep,
	    err);
}

int
import_row_error(struct err *err, const char *path, size_t line,
    const char *what)
{
	return err_set(err, "%s:%zu: %s", path, line, what);
}

void
import_v1_task(struct task *t, const char *benchmark, const char *task_id)
{
	t->id = xasprintf("%s/%s", benchmark, task_id);
	t->benchmark = xstrdup(benchmark);
	t->domain = xstrdup("chip");
	t->env = xstrdup("iverilog");
	t->env_params = xstrdup("{\"top\":\"tb\",\"timeout_s\":30,"
	    "\"candidate_last\":true}");
}

char *
import_v1_code(const char *prompt, const char *solution)
{
	if (strstr(solution, "module top_module") != NULL)
		return xstrdup(solution);
	return xasprintf("%s%s", prompt != NULL ? prompt : "", solution);
}

/* --- the roles of task files --------------------------------------- */

const char *
import_lang_of_env(const char *env)
{
	const struct env_ops *e = env_find(env);

	/* A pipeline "iverilog+yosys" is in the language of its first env. */
	if (e == NULL && env != NULL && strchr(env, '+') != NULL) {
		char *first = xstrndup(env, strcspn(env, "+"));

		e = env_find(first);
		free(first);
	}
	return e != NULL ? e->lang : "text";
}

/* Is one of name's words (split at '_', '-', '.') in words, ignoring
 * case? */
static int
has_word(const char *name, const char *const *words)
{
	const char *p = name;

	while (*p != '\0') {
		size_t n = strcspn(p, "_-.");

		for (size_t i = 0; n > 0 && words[i] != NULL; i++)
			if (strlen(words[i]) == n &&
			    strncasecmp(p, words[i], n) == 0)
				return 1;
		p += n;
		if (*p != '\0')
			p++;
	}
	return 0;
}

const char *
import_file_role(const char *name, const char *env)
{
	static const char *const tb[] = { "tb", "test", "testbench", NULL };
	static const char *const ref[] = { "ref", "reference", "golden",
	    NULL };

	if (strcmp(import_lang_of_env(env), "verilog") == 0) {
		struct task_file f = { (char *)name, (char *)"source", NULL, 0 };

		if (verilog_is_data(&f))
			return "data";
	}
	if (has_word(name, tb))
		return "testbench";
	if (has_word(name, ref))
		return "reference";
	return "source";
}

/* The first module a testbench declares: its top (the module -s names).
 * New string, or NULL when it declares none. */
char *
import_tb_top(const char *tb, size_t len)
{
	const char *p = tb, *name;
	size_t l;

	name = verilog_next_module(tb, len, &p, &l);
	return name != NULL ? xstrndup(name, l) : NULL;
}

/*
 * A Verilog task of a problem folder laid out as a self-checking
 * testbench beside prose (ArchXBench, VeriScope): id, benchmark, domain
 * chip, env iverilog with the testbench's own module as top, the
 * testbench as the task file tbname (role testbench), the source dir.
 * 0, or -1 with err ("dir/tbname: no module in the testbench").
 */
int
import_tb_task(struct task *t, const char *id, const char *benchmark,
    const char *dir, const char *tbname, const char *tb, size_t tblen,
    struct err *err)
{
	char *top = import_tb_top(tb, tblen);
	json_t *params;

	if (top == NULL)
		return err_set(err, "%s/%s: no module in the testbench", dir,
		    tbname);
	t->id = ident_fit_task_id(id);
	t->benchmark = xstrdup(benchmark);
	t->domain = xstrdup("chip");
	t->env = xstrdup("iverilog");
	params = json_pack("{s:s}", "top", top);
	t->env_params = json_dumps(params, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(params);
	free(top);
	t->source = xstrdup(dir);
	task_add_file(t, tbname, "testbench", tb, tblen);
	return 0;
}
