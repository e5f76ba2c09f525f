/*
 * import_tritonbench.c - the TritonBench reader (thunlp/TritonBench,
 * both channels); see import.h, docs/formats.md and ADR 0046.
 *
 * TritonBench ships each problem as one executable file,
 * data/TritonBench_G_v1/NAME.py or data/TritonBench_T_v1/NAME.py: the
 * reference (Triton code for G, PyTorch for T), a line of 146 '#', then
 * the test code that calls it.  Its statistics file beside the folder
 * (TritonBench_G_v1.json, TritonBench_T_v1.jsonl; both a JSON array of
 * objects named by "file") holds the instruction a model is given.
 *
 * Each file becomes a task of env triton with env_params {"eval":
 * "stdout"}: the reference as the file NAME.py (role reference), the
 * test as test_NAME.py (role testbench), so that the env appends the
 * test to the candidate and compares its stdout with the reference's, as
 * TritonBench's own evaluation does (EVAL/eval_G/1_exe_acc.py and eval_T/).  A G
 * reference is Triton, so it is also the task's reference candidate; a
 * T reference is PyTorch, which the env's Triton check would fail, so it
 * is not.
 *
 * It reads files and writes through store.h, inside the transaction that
 * import_path() holds; nothing here prints.
 */
#include "exchange/import.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "base/buf.h"
#include "base/file.h"
#include "base/hash.h"
#include "base/ident.h"
#include "model/sample.h"

#define TB_SEP_LEN	146

/* The two channels: folder, statistics files, benchmark. */
static const struct tb_channel {
	char		 letter;
	const char	*dir, *stats[2], *bench;
} channels[] = {
	{ 'G', "TritonBench_G_v1", { "TritonBench_G_v1.json",
	    "TritonBench_G_v1.jsonl" }, "tritonbench-g" },
	{ 'T', "TritonBench_T_v1", { "TritonBench_T_v1.jsonl",
	    "TritonBench_T_v1.json" }, "tritonbench-t" },
};
#define NCHANNELS (sizeof channels / sizeof channels[0])

/* The channel whose folder name is name, or NULL. */
static const struct tb_channel *
tb_channel_of(const char *name)
{
	for (size_t i = 0; i < NCHANNELS; i++)
		if (strcmp(name, channels[i].dir) == 0)
			return &channels[i];
	return NULL;
}

/* Does dir hold a channel's folder? */
static int
tb_is_root(const char *dir)
{
	int yes = 0;

	for (size_t i = 0; i < NCHANNELS && !yes; i++) {
		char *p = xasprintf("%s/%s", dir, channels[i].dir);

		yes = file_is_dir(p);
		free(p);
	}
	return yes;
}

/* path trimmed, or its data/ when path is a checkout's root (new). */
static char *
tb_root(const char *path)
{
	char *p = file_trim(path), *d;

	if (!file_is_dir(p) || tb_channel_of(file_base(p)) != NULL ||
	    tb_is_root(p))
		return p;
	d = xasprintf("%s/data", p);
	if (file_is_dir(d) && tb_is_root(d)) {
		free(p);
		return d;
	}
	free(d);
	return p;
}

static int
import_tritonbench_detect(const char *path)
{
	char *p = tb_root(path);
	int yes = file_is_dir(p) && (tb_channel_of(file_base(p)) != NULL ||
	    tb_is_root(p));

	free(p);
	return yes;
}

/*
 * The offset of the separator line (146 '#', alone on its line) in text,
 * and the offset of the line after it; -1 when there is none.
 */
static long
tb_separator(const char *text, size_t len, size_t *after)
{
	const char *p = text, *end = text + len;

	while (p < end) {
		const char *e = memchr(p, '\n', (size_t)(end - p));
		size_t l = e != NULL ? (size_t)(e - p) : (size_t)(end - p);
		size_t n = l;

		while (n > 0 && (p[n - 1] == '\r' || p[n - 1] == ' '))
			n--;
		if (n == TB_SEP_LEN && strspn(p, "#") >= TB_SEP_LEN) {
			*after = (size_t)(p - text) + l + (e != NULL);
			return (long)(p - text);
		}
		p += l + (e != NULL);
	}
	return -1;
}

/*
 * The channel's statistics (a JSON array of objects, each naming its
 * "file"), read from beside the folder dir: new reference, or NULL when
 * there is no such file.  A file that is not such an array is an error
 * (-1); 0 otherwise.
 */
static int
tb_stats(const char *dir, const struct tb_channel *ch, json_t **out,
    struct err *err)
{
	char *up = file_dir(dir);

	*out = NULL;
	for (size_t i = 0; i < 2 && *out == NULL; i++) {
		char *p = xasprintf("%s/%s", up, ch->stats[i]);
		struct stat sb;

		if (stat(p, &sb) < 0) {
			free(p);
			continue;
		}
		if (import_read_array(p, "TritonBench's statistics (a JSON"
		    " array of objects)", out, err) < 0) {
			free(p);
			free(up);
			return -1;
		}
		free(p);
	}
	free(up);
	return 0;
}

/* The statistics row of file, or NULL (borrowed from stats). */
static json_t *
tb_row(json_t *stats, const char *file)
{
	size_t i;
	json_t *row;

	json_array_foreach(stats, i, row) {
		const char *f = import_jstr(row, "file");

		if (f != NULL && strcmp(f, file) == 0)
			return row;
	}
	return NULL;
}

/* s without its leading and trailing blank space, each line's common
 * indentation (TritonBench's instructions are indented by 12) left. */
static void
tb_add_trimmed(struct buf *b, const char *s)
{
	const char *e;

	while (*s == ' ' || *s == '\n' || *s == '\t' || *s == '\r')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\n' || e[-1] == '\t' ||
	    e[-1] == '\r'))
		e--;
	while (s < e) {
		const char *nl = memchr(s, '\n', (size_t)(e - s));
		size_t l = nl != NULL ? (size_t)(nl - s) : (size_t)(e - s);
		size_t k = 0;

		while (k < l && k < 12 && s[k] == ' ')
			k++;
		buf_add(b, s + k, l - k);
		buf_addc(b, '\n');
		s += l + (nl != NULL);
	}
}

/*
 * The requirement: the channel's instruction from its statistics row (G:
 * comp_instru, else simp_instru; T: description, the signature, the
 * math, notes), then how it is judged.  New string.
 */
static char *
tb_spec(const struct tb_channel *ch, const char *stem, json_t *row)
{
	struct buf b = BUF_INIT;
	const char *s;

	buf_printf(&b, "TritonBench-%c: %s\n\n", ch->letter, stem);
	if (ch->letter == 'G') {
		s = import_jstr(row, "comp_instru");
		if (s == NULL)
			s = import_jstr(row, "simp_instru");
		if (s != NULL) {
			tb_add_trimmed(&b, s);
			buf_addc(&b, '\n');
		}
	} else if (row != NULL) {
		static const char *const keys[][2] = {
			{ "description", NULL }, { "func_inputs", "Signature" },
			{ "math", "Math" }, { "other", "Notes" } };

		buf_adds(&b, "Write a Triton implementation (kernels and the"
		    " Python wrapper that launches them) of this PyTorch"
		    " function.\n\n");
		for (size_t i = 0; i < 4; i++) {
			s = import_jstr(row, keys[i][0]);
			if (s == NULL || *s == '\0')
				continue;
			if (keys[i][1] != NULL)
				buf_printf(&b, "%s:\n", keys[i][1]);
			tb_add_trimmed(&b, s);
			buf_addc(&b, '\n');
		}
	}
	buf_adds(&b, "The benchmark's test code is appended to the answer and"
	    " run; the answer passes when what it prints is identical to what"
	    " the reference prints with the same test (TritonBench's"
	    " execution accuracy), and a Triton kernel must compute it.\n");
	return buf_detach(&b, NULL);
}

/* The statistics fields assay keeps in the task's extra: the channel and
 * what upstream says of the problem (its repository, difficulty). */
static char *
tb_extra(const struct tb_channel *ch, json_t *row)
{
	json_t *o = json_object();
	static const char *const keep[] = { "repo", "star", "difficulty",
	    "name", "torch_cnt", "params_cnt", NULL };
	char *s;

	json_object_set_new(o, "channel", json_sprintf("%c", ch->letter));
	for (size_t i = 0; row != NULL && keep[i] != NULL; i++) {
		json_t *v = json_object_get(row, keep[i]);

		if (v != NULL && !json_is_null(v))
			json_object_set(o, keep[i], v);
	}
	s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(o);
	return s;
}

/* One problem file of a channel's folder into a task (and, for G, its
 * reference candidate). */
static int
tb_problem(struct store *st, const struct tb_channel *ch, const char *dir,
    const char *file, json_t *stats, struct import_report *rep,
    struct err *err)
{
	char *path = xasprintf("%s/%s", dir, file), *text = NULL;
	char *stem = xstrndup(file, strlen(file) - 3), *id, *name;
	struct task t = { 0 };
	size_t len, after;
	long sep;
	int rc = -1;
	json_t *row = tb_row(stats, file);

	if (import_read(path, &text, &len, err) < 0)
		goto out;
	if (memchr(text, '\0', len) != NULL) {
		err_set(err, "%s: a NUL byte: not a Python source", path);
		goto out;
	}
	sep = tb_separator(text, len, &after);
	if (sep < 0) {
		err_set(err, "%s: not a TritonBench problem: no line of %d '#'"
		    " between the code and its test", path, TB_SEP_LEN);
		goto out;
	}
	if (strstr(text + after, "def test") == NULL) {
		size_t line = 1;

		for (const char *p = text; p < text + after; p++)
			line += *p == '\n';
		err_set(err, "%s:%zu: not a TritonBench problem: no test"
		    " function (def test_...) after the separator", path, line);
		goto out;
	}
	id = xasprintf("%s/%s", ch->bench, stem);
	t.id = ident_fit_task_id(id);
	free(id);
	t.benchmark = xstrdup(ch->bench);
	t.domain = xstrdup("gpu");
	t.env = xstrdup("triton");
	t.env_params = xstrdup("{\"eval\":\"stdout\"}");
	t.spec = tb_spec(ch, stem, row);
	if (ch->letter == 'T' && import_jstr(row, "func_inputs") != NULL)
		t.interface = import_jdup(row, "func_inputs");
	t.source = xstrdup(path);
	t.extra = tb_extra(ch, row);
	task_add_file(&t, file, "reference", text, (size_t)sep);
	name = xasprintf("test_%s", file);
	task_add_file(&t, name, "testbench", text + after, len - after);
	free(name);
	if (import_put_task(st, &t, rep, err) < 0)
		goto out;
	if (ch->letter == 'G') {
		char *code = xstrndup(text, (size_t)sep);

		rc = import_put_reference(st, t.id, "python", xstrdup(path),
		    code, rep, err);
		free(code);
		if (rc < 0)
			goto out;
	}
	rc = 0;
out:
	task_release(&t);
	free(stem);
	free(text);
	free(path);
	return rc;
}

/* Every NAME.py of a channel's folder. */
static int
tb_folder(struct store *st, const struct tb_channel *ch, const char *dir,
    struct import_report *rep, struct err *err)
{
	char **names;
	size_t n, done = 0;
	json_t *stats = NULL;
	int rc = -1;

	if (tb_stats(dir, ch, &stats, err) < 0)
		return -1;
	if (stats == NULL)
		buf_printf(&rep->warnings, "%s: no %s beside it: the tasks"
		    " have no instruction\n", dir, ch->stats[0]);
	if (import_list_dir(dir, &names, &n, err) < 0)
		goto out;
	for (size_t i = 0; i < n; i++) {
		if (!import_has_suffix(names[i], ".py") ||
		    strlen(names[i]) <= 3)
			continue;
		if (tb_problem(st, ch, dir, names[i], stats, rep, err) < 0) {
			strv_free(names, n);
			goto out;
		}
		done++;
	}
	strv_free(names, n);
	if (done == 0) {
		err_set(err, "%s: no TritonBench problems (NAME.py) in it", dir);
		goto out;
	}
	rc = 0;
out:
	json_decref(stats);
	return rc;
}

static int
import_tritonbench(struct store *st, const char *path,
    const struct import_opts *opts, struct import_report *rep,
    struct err *err)
{
	char *p = tb_root(path);
	const struct tb_channel *ch;
	int rc = -1;

	(void)opts;
	if (!file_is_dir(p)) {
		err_set(err, "%s: not TritonBench data (want its checkout,"
		    " its data/ directory, or TritonBench_G_v1/ or TritonBench_T_v1/)",
		    p);
		goto out;
	}
	ch = tb_channel_of(file_base(p));
	if (ch != NULL) {
		rc = tb_folder(st, ch, p, rep, err);
		goto out;
	}
	if (!tb_is_root(p)) {
		err_set(err, "%s: not TritonBench data: no TritonBench_G_v1/"
		    " or TritonBench_T_v1/ in it", p);
		goto out;
	}
	for (size_t i = 0; i < NCHANNELS; i++) {
		char *d = xasprintf("%s/%s", p, channels[i].dir);
		int r = file_is_dir(d) ? tb_folder(st, &channels[i], d, rep,
		    err) : 0;

		free(d);
		if (r < 0)
			goto out;
	}
	rc = 0;
out:
	free(p);
	return rc;
}

const struct importer importer_tritonbench = {
	"tritonbench", import_tritonbench_detect, NULL, import_tritonbench
};
