/*
 * import_kernelbench.c - the KernelBench reader; see import.h and
 * docs/formats.md.
 *
 * A KernelBench problem (levelN/P_Name.py: a PyTorch Model, get_inputs()
 * and get_init_inputs()) becomes a task of env triton with the problem as
 * its reference file; a model-generated kernel of a dump
 * (DUMP/kernels/levelL_problemP_*.py, a ModelNew) becomes a candidate of
 * that task; each row of the dump's results*.jsonl becomes a recorded
 * result of the kernel it names.  The rows' "*_us" fields hold
 * milliseconds despite their names: they are kept as they are and
 * repeated as runtime_ms / ref_runtime_ms.  A speedup over 10x carries
 * the flag "suspicious-speedup" (KernelBench's sign of reward hacking).
 *
 * It reads files and writes through store.h, inside the transaction that
 * import_path() holds; nothing here prints.
 */
#include "exchange/import.h"

#include <dirent.h>
#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "base/ident.h"
#include "base/file.h"
#include "model/sample.h"

/* KernelBench's own rule: a speedup over this is suspicious. */
#define KB_SUSPICIOUS_SPEEDUP 10.0

/* A problem imported in this run: where its kernels go. */
struct kb_problem {
	int	 level;
	long	 pid;
	char	*task_id;
};

/* One row of a results file, checked, waiting for its kernel. */
struct kb_row {
	const char	*file;		/* borrowed from the dump's list */
	size_t		 line;
	json_t		*row;		/* owned reference */
	char		*kernel;	/* base name of kernel_path */
	int		 used;
};

struct kb_ctx {
	struct store			*st;
	const struct import_opts	*opts;
	struct import_report		*rep;
	struct kb_problem		*probs;
	size_t				 nprobs;
};

/* --- files and names ------------------------------------------------- */

static int
kb_read(const char *path, char **out, size_t *len, struct err *err)
{
	return import_read(path, out, len, err);
}




/* N of a directory named "levelN", else -1. */
static int
kb_level_of(const char *name)
{
	char *end;
	long n;

	if (strncmp(name, "level", 5) != 0 || name[5] < '0' || name[5] > '9')
		return -1;
	n = strtol(name + 5, &end, 10);
	return *end == '\0' && n >= 0 && n < 1000 ? (int)n : -1;
}

/*
 * "12_Matmul_with_diagonal_matrices_.py": the problem number and the
 * name without ".py" (new string).  0, or -1 when the name is not so.
 */
static int
kb_problem_name(const char *file, long *pid, char **stem)
{
	char *end;

	if (file[0] < '0' || file[0] > '9' || !import_has_suffix(file, ".py"))
		return -1;
	*pid = strtol(file, &end, 10);
	if (*end != '_' || strlen(end) <= strlen("_.py"))
		return -1;
	*stem = xstrndup(file, strlen(file) - 3);
	return 0;
}

/* "level1_problem12_triton.py": level and problem.  0 or -1. */
static int
kb_kernel_name(const char *file, int *level, long *pid)
{
	char *end;
	long l;

	if (strncmp(file, "level", 5) != 0 || !import_has_suffix(file, ".py"))
		return -1;
	l = strtol(file + 5, &end, 10);
	if (end == file + 5 || l < 0 || l >= 1000 ||
	    strncmp(end, "_problem", 8) != 0)
		return -1;
	file = end + 8;
	*pid = strtol(file, &end, 10);
	if (end == file || (*end != '_' && *end != '.'))
		return -1;
	*level = (int)l;
	return 0;
}

/* import_any_entry(): is p a levelN directory? */
static int
kb_level_entry(const char *p, const char *name, void *arg)
{
	(void)arg;
	return kb_level_of(name) >= 0 && file_is_dir(p);
}

/* Does dir hold a levelN directory? */
static int
kb_has_levels(const char *dir)
{
	return import_any_entry(dir, kb_level_entry, NULL);
}

/* import_any_entry(): is name a kernel's (levelL_problemP_*.py)? */
static int
kb_kernel_entry(const char *p, const char *name, void *arg)
{
	int level;
	long pid;

	(void)p;
	(void)arg;
	return kb_kernel_name(name, &level, &pid) == 0;
}

/* Does dir hold kernels/ with at least one levelL_problemP_*.py? */
static int
kb_is_dump(const char *dir)
{
	char *k = xasprintf("%s/kernels", dir);
	int yes = import_any_entry(k, kb_kernel_entry, NULL);

	free(k);
	return yes;
}

/* import_any_entry(): is name a problem file's (N_Name.py)? */
static int
kb_problem_entry(const char *p, const char *name, void *arg)
{
	long pid;
	char *stem;

	(void)p;
	(void)arg;
	if (kb_problem_name(name, &pid, &stem) < 0)
		return 0;
	free(stem);
	return 1;
}

/* Is dir a levelN directory with a problem file name (N_Name.py) in it? */
static int
kb_is_level(const char *dir)
{
	return kb_level_of(file_base(dir)) >= 0 &&
	    import_any_entry(dir, kb_problem_entry, NULL);
}

static int
import_kernelbench_detect(const char *path)
{
	char *p = file_trim(path);
	int yes;

	yes = file_is_dir(p) && (kb_has_levels(p) || kb_is_level(p) ||
	    kb_is_dump(p));
	free(p);
	return yes;
}

/* --- problems -------------------------------------------------------- */

/* 1-based line of offset off in text. */
static size_t
kb_line_at(const char *text, size_t off)
{
	size_t line = 1;

	for (size_t i = 0; i < off && text[i] != '\0'; i++)
		if (text[i] == '\n')
			line++;
	return line;
}

/*
 * Where pattern (an extended regex, one line) first matches in text: the
 * offset of the match, or -1.
 */
static long
kb_find(const char *text, const char *pattern)
{
	regex_t re;
	regmatch_t m;
	long off = -1;

	if (regcomp(&re, pattern, REG_EXTENDED | REG_NEWLINE) != 0)
		ASSAY_BUG("bad regex");
	if (regexec(&re, text, 1, &m, 0) == 0)
		off = (long)m.rm_so;
	regfree(&re);
	return off;
}

/* The start of the line after the one at p. */
static const char *
kb_next_line(const char *p)
{
	const char *nl = strchr(p, '\n');

	return nl != NULL ? nl + 1 : p + strlen(p);
}

/*
 * The docstring that opens the body starting at p (the line after a
 * class or def header), dedented: new string, NULL when the body opens
 * with something else.  -1 with "path:LINE: unterminated docstring"
 * when it never closes.
 */
static int
kb_docstring(const char *text, const char *p, const char *path,
    char **out, struct err *err)
{
	const char *q, *close;
	char quote[4];
	struct buf b = BUF_INIT;
	size_t indent = (size_t)-1;
	char *raw;

	*out = NULL;
	while (*p != '\0') {		/* skip blank lines */
		q = p + strspn(p, " \t\r");
		if (*q != '\n')
			break;
		p = q + 1;
	}
	q = p + strspn(p, " \t");
	if (*q == 'r' || *q == 'R' || *q == 'u' || *q == 'U')
		q++;
	if (strncmp(q, "\"\"\"", 3) != 0 && strncmp(q, "'''", 3) != 0)
		return 0;
	memcpy(quote, q, 3);
	quote[3] = '\0';
	close = strstr(q + 3, quote);
	if (close == NULL)
		return err_set(err, "%s:%zu: unterminated docstring", path,
		    kb_line_at(text, (size_t)(q - text)));
	raw = xstrndup(q + 3, (size_t)(close - q - 3));
	/* Dedent by the least indent of the lines after the first. */
	for (char *l = strchr(raw, '\n'); l != NULL; l = strchr(l, '\n')) {
		size_t w;

		l++;
		w = strspn(l, " \t");
		if (l[w] != '\n' && l[w] != '\0' && l[w] != '\r' && w < indent)
			indent = w;
	}
	for (char *l = raw; l != NULL; ) {
		char *nl = strchr(l, '\n');
		size_t w = strspn(l, " \t");

		/* The first line follows the quotes: no indent to keep. */
		l += l == raw || w < indent ? w : indent;
		buf_add(&b, l, nl != NULL ? (size_t)(nl - l) : strlen(l));
		if (nl == NULL)
			break;
		buf_addc(&b, '\n');
		l = nl + 1;
	}
	free(raw);
	/* Trim blank lines around it. */
	{
		char *s = buf_detach(&b, NULL), *e;
		size_t lead = strspn(s != NULL ? s : "", " \t\r\n");

		if (s == NULL)
			return 0;
		memmove(s, s + lead, strlen(s + lead) + 1);
		e = s + strlen(s);
		while (e > s && strchr(" \t\r\n", e[-1]) != NULL)
			*--e = '\0';
		if (*s == '\0') {
			free(s);
			return 0;
		}
		*out = s;
	}
	return 0;
}

/* The spec of a problem: a title, Model's docstring, what to write. */
static char *
kb_spec(int level, long pid, const char *stem, const char *doc)
{
	struct buf b = BUF_INIT;
	const char *name = strchr(stem, '_') + 1;

	buf_printf(&b, "KernelBench level %d, problem %ld: ", level, pid);
	for (const char *p = name; *p != '\0'; p++)
		buf_addc(&b, *p == '_' ? ' ' : *p);
	while (b.len > 0 && b.p[b.len - 1] == ' ')
		b.p[--b.len] = '\0';
	buf_adds(&b, "\n\n");
	if (doc != NULL)
		buf_printf(&b, "%s\n\n", doc);
	buf_adds(&b, "Write ModelNew, a replacement for Model with the same"
	    " __init__ and forward arguments whose forward runs custom Triton"
	    " kernels.  It must match Model's output (torch.allclose,"
	    " atol = rtol = 1e-4) on 5 random inputs from get_inputs(), and"
	    " is timed against Model over 100 trials with CUDA events.\n");
	return buf_detach(&b, NULL);
}

static int
kb_put_task(struct kb_ctx *x, const struct task *t, struct err *err)
{
	int inserted;

	if (store_task_put(x->st, t, &inserted, err) < 0)
		return -1;
	if (inserted)
		x->rep->tasks_added++;
	else
		x->rep->tasks_existing++;
	return 0;
}

/*
 * One problem file into a task.  A file that is not a KernelBench
 * problem (no class Model, get_inputs or get_init_inputs) is an error
 * naming the file.
 */
static int
kb_problem(struct kb_ctx *x, const char *dir, const char *file, int level,
    long pid, const char *stem, struct err *err)
{
	char *path = xasprintf("%s/%s", dir, file), *text = NULL;
	char *doc = NULL;
	struct task t = { 0 };
	size_t len;
	long cls;
	int rc = -1;

	if (kb_read(path, &text, &len, err) < 0)
		goto out;
	if (memchr(text, '\0', len) != NULL) {
		err_set(err, "%s:%zu: a NUL byte: not a Python source", path,
		    kb_line_at(text, strlen(text)));
		goto out;
	}
	cls = kb_find(text, "^class[ \t]+Model[ \t]*[(:]");
	if (cls < 0) {
		err_set(err, "%s: not a KernelBench problem: no `class"
		    " Model(...)` at the top level", path);
		goto out;
	}
	if (kb_find(text, "^def[ \t]+get_inputs[ \t]*\\(") < 0 ||
	    kb_find(text, "^def[ \t]+get_init_inputs[ \t]*\\(") < 0) {
		err_set(err, "%s: not a KernelBench problem: no top-level"
		    " get_inputs() or get_init_inputs()", path);
		goto out;
	}
	if (kb_docstring(text, kb_next_line(text + cls), path, &doc, err) < 0)
		goto out;
	{
		/* KernelBench's file names run to 86 bytes (level 1
		 * problem 79): a long one is shortened with a hash, the same
		 * way a row's reference to it is (ident_fit_task_id). */
		char *id = xasprintf("kernelbench/level%d/%s", level, stem);

		t.id = ident_fit_task_id(id);
		free(id);
	}
	t.benchmark = xstrdup("kernelbench");
	t.domain = xstrdup("gpu");
	t.env = xstrdup("triton");
	t.spec = kb_spec(level, pid, stem, doc);
	/* What the model is shown: the whole architecture to speed up. */
	t.interface = xstrndup(text, len);
	t.source = xstrdup(path);
	t.extra = xasprintf("{\"level\":%d,\"problem_id\":%ld}", level, pid);
	task_add_file(&t, file, "reference", text, len);
	if (kb_put_task(x, &t, err) < 0)
		goto out;
	x->probs = xreallocarray(x->probs, x->nprobs + 1, sizeof *x->probs);
	x->probs[x->nprobs].level = level;
	x->probs[x->nprobs].pid = pid;
	x->probs[x->nprobs].task_id = xstrdup(t.id);
	x->nprobs++;
	rc = 0;
out:
	task_release(&t);
	free(doc);
	free(text);
	free(path);
	return rc;
}

/* Every problem of a levelN directory. */
static int
kb_level(struct kb_ctx *x, const char *dir, int level, struct err *err)
{
	char **names;
	size_t n, nprob = 0;

	if (import_list_dir(dir, &names, &n, err) < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		char *stem;
		long pid;
		struct err e;
		int rc;

		if (kb_problem_name(names[i], &pid, &stem) < 0) {
			buf_printf(&x->rep->warnings, "%s/%s: not a problem"
			    " (N_Name.py), ignored\n", dir, names[i]);
			continue;
		}
		if (store_savepoint(x->st, err) < 0) {
			free(stem);
			strv_free(names, n);
			return -1;
		}
		rc = kb_problem(x, dir, names[i], level, pid, stem, &e);
		store_savepoint_end(x->st, rc == 0);
		free(stem);
		if (rc == 0) {
			nprob++;
			continue;
		}
		if (!x->opts->keep_going) {
			*err = e;
			strv_free(names, n);
			return -1;
		}
		x->rep->skipped++;
		buf_printf(&x->rep->warnings, "%s (skipped)\n", e.msg);
	}
	strv_free(names, n);
	if (nprob == 0)
		buf_printf(&x->rep->warnings, "%s: no problems (N_Name.py)\n",
		    dir);
	return 0;
}

/* What the walks of root's directories take. */
struct kb_walk {
	struct kb_ctx	*x;
	struct err	*err;
};

/* import_each_entry(): the problems of p when it is a levelN directory. */
static int
kb_levels_entry(const char *p, const char *name, void *arg)
{
	struct kb_walk *w = arg;
	int level = kb_level_of(name);

	if (level < 0 || !file_is_dir(p))
		return 0;
	return kb_level(w->x, p, level, w->err);
}

/* The problems of every levelN directory of root. */
static int
kb_levels(struct kb_ctx *x, const char *root, struct err *err)
{
	struct kb_walk w = { x, err };

	return import_each_entry(root, kb_levels_entry, &w, err);
}

static const struct kb_problem *
kb_problem_find(const struct kb_ctx *x, int level, long pid)
{
	for (size_t i = 0; i < x->nprobs; i++)
		if (x->probs[i].level == level && x->probs[i].pid == pid)
			return &x->probs[i];
	return NULL;
}

/* --- results rows ---------------------------------------------------- */

/* A number member of o, or -1 with "path:line: ..." in err. */
static int
kb_num(json_t *o, const char *key, double *v, const char *path,
    size_t line, struct err *err)
{
	json_t *j = json_object_get(o, key);

	if (j == NULL)
		return err_set(err, "%s:%zu: missing \"%s\" (a number)", path,
		    line, key);
	if (!json_is_number(j))
		return err_set(err, "%s:%zu: \"%s\" must be a number", path,
		    line, key);
	*v = json_number_value(j);
	return 0;
}

/*
 * Check one row of a results file and fill r (r->row takes a
 * reference).  -1 with "path:line: what is wrong".
 */
static int
kb_row_check(json_t *row, const char *path, size_t line, struct kb_row *r,
    struct err *err)
{
	const char *kp = json_string_value(json_object_get(row, "kernel_path"));
	json_t *lv = json_object_get(row, "level");
	json_t *pv = json_object_get(row, "problem_id");
	double ms, ref, sp;
	const char *base;
	int level;
	long pid;

	if (!json_is_integer(lv) || !json_is_integer(pv))
		return err_set(err, "%s:%zu: \"level\" and \"problem_id\" must"
		    " be integers", path, line);
	if (kp == NULL || *kp == '\0')
		return err_set(err, "%s:%zu: missing \"kernel_path\" (a"
		    " string)", path, line);
	if (kb_num(row, "runtime_triton_us", &ms, path, line, err) < 0 ||
	    kb_num(row, "runtime_original_us", &ref, path, line, err) < 0)
		return -1;
	if (!(ms > 0) || !(ref > 0))
		return err_set(err, "%s:%zu: runtimes must be above 0 (got"
		    " %g and %g)", path, line, ms, ref);
	if (json_object_get(row, "speedup") != NULL &&
	    kb_num(row, "speedup", &sp, path, line, err) < 0)
		return -1;
	base = file_base(kp);
	if (kb_kernel_name(base, &level, &pid) < 0)
		return err_set(err, "%s:%zu: kernel_path '%s' does not name a"
		    " levelL_problemP_*.py kernel", path, line, kp);
	if (level != (int)json_integer_value(lv) ||
	    pid != (long)json_integer_value(pv))
		return err_set(err, "%s:%zu: kernel_path names level %d problem"
		    " %ld, the row says level %lld problem %lld", path, line,
		    level, pid, (long long)json_integer_value(lv),
		    (long long)json_integer_value(pv));
	r->file = path;
	r->line = line;
	r->row = json_incref(row);
	r->kernel = xstrdup(base);
	r->used = 0;
	return 0;
}

/*
 * Read every row of a results file into *rows.  A malformed row fails
 * the import with path:line, or is skipped and listed with keep_going.
 */
static int
kb_rows_read(struct kb_ctx *x, const char *path, struct kb_row **rows,
    size_t *nrows, struct err *err)
{
	char *data, *p, *end;
	size_t len, line = 0, seen = 0;

	if (kb_read(path, &data, &len, err) < 0)
		return -1;
	for (p = data, end = data + len; p < end; ) {
		char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl != NULL ? (size_t)(nl - p) : (size_t)(end - p);
		const char *txt = p;
		json_error_t jerr;
		json_t *row;
		struct err e;
		struct kb_row r;
		int rc = -1;

		line++;
		p += l + (nl != NULL);
		while (l > 0 && (txt[l - 1] == '\r' || txt[l - 1] == ' '))
			l--;
		if (l == 0)
			continue;
		seen++;
		row = json_loadb(txt, l, JSON_REJECT_DUPLICATES, &jerr);
		if (row == NULL)
			err_set(&e, "%s:%zu: invalid JSON: %s (column %d)",
			    path, line, jerr.text, jerr.column);
		else if (!json_is_object(row))
			err_set(&e, "%s:%zu: a row must be a JSON object", path,
			    line);
		else
			rc = kb_row_check(row, path, line, &r, &e);
		json_decref(row);
		if (rc == 0) {
			*rows = xreallocarray(*rows, *nrows + 1, sizeof **rows);
			(*rows)[(*nrows)++] = r;
			continue;
		}
		if (!x->opts->keep_going) {
			*err = e;
			free(data);
			return -1;
		}
		x->rep->skipped++;
		buf_printf(&x->rep->warnings, "%s (skipped)\n", e.msg);
	}
	if (seen == 0)
		buf_printf(&x->rep->warnings, "%s: empty file, nothing"
		    " imported\n", path);
	free(data);
	return 0;
}

/* A member of o as a double, def when it is not a number. */
static double
kb_get(json_t *o, const char *key, double def)
{
	json_t *j = json_object_get(o, key);

	return json_is_number(j) ? json_number_value(j) : def;
}

/*
 * The recorded result of a row: verdict by the triton env's own rule
 * (correct and at least as fast as the reference passes; slower fails
 * at timing), a one-line log, and extra = the raw row plus runtime_ms,
 * ref_runtime_ms and the flags.
 */
static void
kb_recorded(json_t *row, struct recorded *r)
{
	json_t *x = json_deep_copy(row), *stats, *flags = json_array();
	double ms = kb_get(row, "runtime_triton_us", 0);
	double ref = kb_get(row, "runtime_original_us", 0);
	double sp = kb_get(row, "speedup", ref / ms);
	const char *hw;
	json_int_t trials, attempts;
	struct buf b = BUF_INIT;

	stats = json_object_get(row, "runtime_triton_stats");
	hw = json_string_value(json_object_get(stats, "hardware"));
	trials = json_integer_value(json_object_get(stats, "num_trials"));
	attempts = json_integer_value(json_object_get(row, "attempts"));
	if (sp > KB_SUSPICIOUS_SPEEDUP) {
		json_array_append_new(flags, json_string("suspicious-speedup"));
		buf_printf(&b, "suspicious-speedup: %.2fx is over %.0fx,"
		    " KernelBench's sign of reward hacking; ", sp,
		    KB_SUSPICIOUS_SPEEDUP);
	} else if (sp < 1.0) {
		buf_printf(&b, "slower than the reference: %.2fx; ", sp);
	} else {
		buf_printf(&b, "speedup %.2fx: ", sp);
	}
	buf_printf(&b, "%.3f ms against %.3f ms for the PyTorch reference",
	    ms, ref);
	if (trials > 0 || hw != NULL) {
		buf_adds(&b, " (");
		if (trials > 0)
			buf_printf(&b, "mean of %lld trials%s",
			    (long long)trials, hw != NULL ? ", " : "");
		if (hw != NULL)
			buf_adds(&b, hw);
		buf_adds(&b, ")");
	}
	if (attempts > 0)
		buf_printf(&b, ", %lld attempt%s", (long long)attempts,
		    attempts == 1 ? "" : "s");
	json_object_set_new(x, "runtime_ms", json_real(ms));
	json_object_set_new(x, "ref_runtime_ms", json_real(ref));
	if (json_array_size(flags) > 0)
		json_object_set(x, "flags", flags);
	json_decref(flags);
	r->verdict = xstrdup(sp >= 1.0 ? "pass" : "fail");
	r->stage = xstrdup("timing");
	r->log = buf_detach(&b, NULL);
	r->extra = json_dumps(x, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(x);
}

/* Add rec to cand_id unless an equal one is there (re-import, or the
 * same row in two results files).  *added says which.  0 or -1. */
static int
kb_recorded_put(struct kb_ctx *x, const char *cand_id,
    const struct recorded *rec, int *added, struct err *err)
{
	struct recorded *have;
	size_t n;
	int dup = 0;

	*added = 0;
	if (store_recorded_list(x->st, cand_id, &have, &n, err) < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (have[i].extra != NULL && strcmp(have[i].extra,
		    rec->extra) == 0)
			dup = 1;
		recorded_release(&have[i]);
	}
	free(have);
	if (dup)
		return 0;
	*added = 1;
	return store_recorded_add(x->st, cand_id, rec, err);
}

/* The model a row names, if any: borrowed from the row. */
static const char *
kb_row_model(json_t *row)
{
	static const char *const keys[] = { "model", "model_name", "run_name" };

	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		const char *m = json_string_value(json_object_get(row,
		    keys[i]));

		if (m != NULL && *m != '\0')
			return m;
	}
	return NULL;
}

/* --- dumps ----------------------------------------------------------- */

/* One kernel file into a candidate with its rows' recorded results. */
static int
kb_kernel(struct kb_ctx *x, const char *dump, const char *file,
    const char *task_id, struct kb_row *rows, size_t nrows,
    struct err *err)
{
	char *path = xasprintf("%s/kernels/%s", dump, file), *code = NULL;
	struct candidate c = { 0 };
	const char *model = NULL;
	size_t len;
	int inserted, rc = -1;

	if (kb_read(path, &code, &len, err) < 0)
		goto out;
	if (memchr(code, '\0', len) != NULL) {
		err_set(err, "%s:%zu: a NUL byte: not a Python source", path,
		    kb_line_at(code, strlen(code)));
		goto out;
	}
	for (size_t i = 0; i < nrows && model == NULL; i++)
		if (strcmp(rows[i].kernel, file) == 0)
			model = kb_row_model(rows[i].row);
	c.task_id = xstrdup(task_id);
	c.origin = xstrdup(model != NULL ? model : "unknown");
	/* Neither the kernels nor the rows name the model: keep which dump
	 * they came from. */
	c.origin_raw = xstrdup(model != NULL ? model : file_base(dump));
	import_direct_code(&c, "python", xstrdup(path), code, len);
	code = NULL;
	if (store_candidate_add(x->st, &c, &inserted, err) < 0)
		goto out;
	if (inserted)
		x->rep->cands_added++;
	else
		x->rep->cands_existing++;
	for (size_t i = 0; i < nrows; i++) {
		struct recorded r = { 0 };
		int added;

		if (strcmp(rows[i].kernel, file) != 0)
			continue;
		rows[i].used = 1;
		kb_recorded(rows[i].row, &r);
		rc = kb_recorded_put(x, c.id, &r, &added, err);
		recorded_release(&r);
		if (rc < 0)
			goto out;
		rc = -1;
	}
	rc = 0;
out:
	candidate_release(&c);
	free(code);
	free(path);
	return rc;
}

/*
 * A dump: the rows of its results*.jsonl (only the file named only, when
 * not NULL), then each kernel of kernels/ with the rows that name it.
 * Rows whose kernel is not in kernels/ are counted in one warning per
 * file; kernels whose problem was not imported are warned about.
 */
static int
kb_dump(struct kb_ctx *x, const char *dump, const char *only,
    struct err *err)
{
	char *kdir = xasprintf("%s/kernels", dump);
	char **files = NULL, **kernels = NULL;
	size_t nfiles = 0, nkernels = 0, nrows = 0, nk = 0;
	struct kb_row *rows = NULL;
	int rc = -1;

	if (import_list_dir(dump, &files, &nfiles, err) < 0)
		goto out;
	for (size_t i = 0; i < nfiles; i++) {
		char *p;

		if (only != NULL ? strcmp(files[i], only) != 0 :
		    strncmp(files[i], "results", 7) != 0 ||
		    !import_has_suffix(files[i], ".jsonl"))
			continue;
		p = xasprintf("%s/%s", dump, files[i]);
		free(files[i]);
		files[i] = p;		/* rows borrow the path from here */
		if (kb_rows_read(x, p, &rows, &nrows, err) < 0)
			goto out;
	}
	if (import_list_dir(kdir, &kernels, &nkernels, err) < 0)
		goto out;
	for (size_t i = 0; i < nkernels; i++) {
		const struct kb_problem *pr;
		size_t added, existing;
		int level;
		long pid;

		if (kb_kernel_name(kernels[i], &level, &pid) < 0) {
			buf_printf(&x->rep->warnings, "%s/%s: not a kernel"
			    " (levelL_problemP_*.py), ignored\n", kdir,
			    kernels[i]);
			continue;
		}
		pr = kb_problem_find(x, level, pid);
		if (pr == NULL) {
			buf_printf(&x->rep->warnings, "%s/%s: no problem %ld in"
			    " level%d/ beside the dump, ignored\n", kdir,
			    kernels[i], pid, level);
			continue;
		}
		if (store_savepoint(x->st, err) < 0)
			goto out;
		added = x->rep->cands_added;
		existing = x->rep->cands_existing;
		rc = kb_kernel(x, dump, kernels[i], pr->task_id, rows, nrows,
		    err);
		store_savepoint_end(x->st, rc == 0);
		if (rc < 0) {
			if (!x->opts->keep_going)
				goto out;
			/* Nothing of a skipped kernel stays, in the counts
			 * neither. */
			x->rep->cands_added = added;
			x->rep->cands_existing = existing;
			x->rep->skipped++;
			buf_printf(&x->rep->warnings, "%s (skipped)\n",
			    err->msg);
		}
		rc = -1;
		nk++;
	}
	if (nk == 0)
		buf_printf(&x->rep->warnings, "%s: no kernels"
		    " (levelL_problemP_*.py)\n", kdir);
	/* Rows of kernels the dump does not hold: one line per file. */
	for (size_t i = 0; i < nrows; ) {
		const char *f = rows[i].file;
		size_t unused = 0, total = 0, shown = 0;
		struct buf ids = BUF_INIT;

		for (; i < nrows && rows[i].file == f; i++) {
			total++;
			if (rows[i].used)
				continue;
			if (unused++ < 4)
				buf_printf(&ids, "%s%s", shown++ ? ", " : "",
				    rows[i].kernel);
		}
		if (unused > 0)
			buf_printf(&x->rep->warnings, "%s: %zu of %zu rows name"
			    " kernels not in %s (%s%s); their results are not"
			    " imported\n", f, unused, total, kdir,
			    buf_str(&ids), unused > shown ? ", ..." : "");
		buf_release(&ids);
	}
	rc = 0;
out:
	for (size_t i = 0; i < nrows; i++) {
		json_decref(rows[i].row);
		free(rows[i].kernel);
	}
	free(rows);
	strv_free(files, nfiles);
	strv_free(kernels, nkernels);
	free(kdir);
	return rc;
}

/* import_each_entry(): p when it is a dump, a word when it is neither a
 * dump nor a levelN directory. */
static int
kb_dumps_entry(const char *p, const char *name, void *arg)
{
	struct kb_walk *w = arg;

	if (!file_is_dir(p) || kb_level_of(name) >= 0)
		return 0;
	if (kb_is_dump(p))
		return kb_dump(w->x, p, NULL, w->err);
	buf_printf(&w->x->rep->warnings, "%s: neither a levelN/ problem"
	    " directory nor a kernel dump (kernels/ and results*.jsonl),"
	    " ignored\n", p);
	return 0;
}

/* Every dump of root, and a word about what else is there. */
static int
kb_dumps(struct kb_ctx *x, const char *root, struct err *err)
{
	struct kb_walk w = { x, err };

	return import_each_entry(root, kb_dumps_entry, &w, err);
}

static int
import_kernelbench(struct store *st, const char *path,
    const struct import_opts *opts, struct import_report *rep,
    struct err *err)
{
	struct kb_ctx x = { st, opts, rep, NULL, 0 };
	char *p = file_trim(path), *root = NULL, *dump = NULL;
	struct stat sb;
	int rc = -1;

	if (stat(p, &sb) < 0) {
		err_set(err, "%s: %s", p, strerror(errno));
		goto out;
	}
	if (!S_ISDIR(sb.st_mode)) {
		/* One results file: its dump, the problems beside it. */
		dump = file_dir(p);
		root = file_dir(dump);
		if (!import_has_suffix(p, ".jsonl") || !kb_is_dump(dump)) {
			err_set(err, "%s: not a results file of a KernelBench"
			    " dump (DUMP/results*.jsonl beside DUMP/kernels/);"
			    " give the data directory, a levelN/ directory,"
			    " a dump or its results file", p);
			goto out;
		}
		if (kb_levels(&x, root, err) < 0 ||
		    kb_dump(&x, dump, file_base(p), err) < 0)
			goto out;
	} else if (kb_has_levels(p)) {
		if (kb_levels(&x, p, err) < 0 || kb_dumps(&x, p, err) < 0)
			goto out;
	} else if (kb_level_of(file_base(p)) >= 0) {
		if (kb_level(&x, p, kb_level_of(file_base(p)), err) < 0)
			goto out;
	} else if (kb_is_dump(p)) {
		root = file_dir(p);
		if (kb_levels(&x, root, err) < 0 || kb_dump(&x, p, NULL,
		    err) < 0)
			goto out;
	} else {
		err_set(err, "%s: not KernelBench data (want the directory of"
		    " levelN/ problems and kernel dumps, one levelN/"
		    " directory, or one dump with kernels/)", p);
		goto out;
	}
	if (root != NULL && x.nprobs == 0) {
		err_set(err, "%s: no KernelBench problems (levelN/N_Name.py)"
		    " beside the dump", root);
		goto out;
	}
	rc = 0;
out:
	for (size_t i = 0; i < x.nprobs; i++)
		free(x.probs[i].task_id);
	free(x.probs);
	free(root);
	free(dump);
	free(p);
	return rc;
}

/* A first row of a dump's results file names its problem and kernel. */
static int
import_kernelbench_detect_row(const json_t *row)
{
	return row != NULL && json_object_get(row, "problem_id") != NULL &&
	    json_object_get(row, "kernel_path") != NULL;
}

const struct importer importer_kernelbench = {
	"kernelbench", import_kernelbench_detect,
	import_kernelbench_detect_row, import_kernelbench
};
