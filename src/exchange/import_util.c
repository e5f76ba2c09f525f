/*
 * import_util.c - what the importers share (import.h): reading input
 * under the import's guard, listing directories, storing and counting
 * tasks and candidates.  Below every importer file and import.c, so that
 * the readers of each format (import_*.c) and the dispatch (import.c)
 * use it and never each other.
 */
#include "exchange/import.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/sample.h"

/*
 * The input import_path() is reading.  A pipe (import /dev/stdin,
 * import <(...)) can be read once: it is read whole before the format is
 * told, and import_read() hands out copies of that.  root is the real
 * path of the directory being imported: a file under it that resolves
 * outside it (a symlink to a host file) is refused.  Set and cleared by
 * import_path(); import is single-threaded.
 */
static struct {
	const char	*pipe_path;
	char		*pipe_data;
	size_t		 pipe_len;
	char		*root;		/* realpath of the directory */
	char		*lexroot;	/* its path as given, absolute */
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

/* Read all of fd into a new buffer ("" when empty). */
static int
read_fd(int fd, const char *path, char **out, size_t *len, struct err *err)
{
	struct buf b = BUF_INIT;
	char chunk[65536];
	ssize_t n;

	while ((n = read(fd, chunk, sizeof chunk)) != 0) {
		if (n < 0 && errno == EINTR)
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
	if (cur.root != NULL && symlink_out(path, err) < 0)
		return -1;
	/* O_NONBLOCK: a FIFO named like a benchmark file must not hang the
	 * import; it is refused below. */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return err_set(err, "%s: %s", path, strerror(errno));
	if (fstat(fd, &sb) < 0 || !S_ISREG(sb.st_mode)) {
		close(fd);
		return err_set(err, "%s: not a regular file, refused", path);
	}
	rc = read_fd(fd, path, out, len, err);
	close(fd);
	return rc;
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
		return 0;
	}
	if (cur.root != NULL && symlink_out(path, err) < 0)
		return -1;
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return err_set(err, "%s: %s", path, strerror(errno));
	if (fstat(fd, &sb) < 0 || !S_ISREG(sb.st_mode)) {
		close(fd);
		return err_set(err, "%s: not a regular file, refused", path);
	}
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
	return 0;
}

void
import_unmap(struct import_text *t)
{
	if (t->mapped)
		munmap((void *)t->data, t->len);
	memset(t, 0, sizeof *t);
	t->data = "";
}

int
import_guard_begin(const char *path, struct err *err)
{
	struct stat sb;
	int rc;

	memset(&cur, 0, sizeof cur);
	if (stat(path, &sb) < 0)
		return err_set(err, "%s: %s", path, strerror(errno));
	if (S_ISDIR(sb.st_mode)) {
		cur.root = realpath(path, NULL);
		cur.lexroot = lexical(path);
	} else if (!S_ISREG(sb.st_mode)) {
		/* A pipe can be read once: read it now, so that telling
		 * the format does not eat the rows. */
		int fd = open(path, O_RDONLY | O_CLOEXEC);

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
import_guard_end(void)
{
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
		if (e->d_name[0] == '.')
			continue;
		*out = xreallocarray(*out, *n + 1, sizeof **out);
		(*out)[(*n)++] = xstrdup(e->d_name);
	}
	closedir(d);
	if (*n > 1)
		qsort(*out, *n, sizeof **out, name_cmp);
	return 0;
}

void
import_free_names(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
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

	if (store_candidate_add(st, c, &ins, err) < 0)
		return -1;
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
