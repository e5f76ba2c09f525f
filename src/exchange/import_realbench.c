/*
 * import_realbench.c - the RealBench reader (docs/formats.md, "realbench"):
 * its module folders become tasks of env verilator, its sample JSONL rows
 * candidates with their recorded verdicts.  Called by import_path() inside
 * its transaction; writes through store.h only, never runs a tool.
 *
 * RealBench (IPRC-DIP/RealBench) keeps a module as
 *
 *   ROOT/CATEGORY/MODULE/MODULE.v             the golden design
 *   ROOT/CATEGORY/MODULE/MODULE.md.gpg        the specification, encrypted
 *   ROOT/CATEGORY/MODULE/verification/        testbench, stimulus, reference,
 *                                             helper modules, MODULE_top.sv
 *   ROOT/samples_subset/MODEL.CATEGORY.subset.jsonl
 *
 * A candidate replaces verification/MODULE_top.sv.  The shipped Makefile
 * targets Verilator 5.030 with warning names 5.006 rejects, so the task
 * carries no Makefile: the verilator env builds its own command, with the
 * candidate written as MODULE_top.sv (env_params.cand_file) so that its
 * messages read as in RealBench's logs.
 */
#include "exchange/import.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "base/file.h"
#include "model/sample.h"

#define RB_BENCH "realbench"
#define RB_SAMPLES "samples_subset"
#define RB_VERIF "verification"

/* --- files and directories ------------------------------------------ */

static int
rb_read(const char *path, char **out, size_t *len, struct err *err)
{
	return import_read(path, out, len, err);
}





/* Is dir a module folder (it holds verification/)? */
static int
module_dir(const char *dir)
{
	char *v = xasprintf("%s/%s", dir, RB_VERIF);
	int r = file_is_dir(v);

	free(v);
	return r;
}

/* The folder of module name under root (root/CATEGORY/name), new or NULL. */
static char *
find_module(const char *root, const char *name)
{
	char **cats;
	size_t n;
	struct err err;
	char *found = NULL;

	if (strchr(name, '/') != NULL || name[0] == '.' ||
	    import_list_dir(root, &cats, &n, &err) < 0)
		return NULL;
	for (size_t i = 0; i < n && found == NULL; i++) {
		char *dir = xasprintf("%s/%s/%s", root, cats[i], name);

		if (strcmp(cats[i], RB_SAMPLES) != 0 && module_dir(dir))
			found = dir;
		else
			free(dir);
	}
	strv_free(cats, n);
	return found;
}

/* --- tasks ------------------------------------------------------------ */

/*
 * The golden design's module header up to its first ';' and the port
 * declarations after it (RealBench's designs declare ports in the body):
 * the interface a candidate must keep.  New string; NULL when code holds
 * no "module name".
 */
static char *
interface_of(const char *code, const char *name)
{
	struct buf b = BUF_INIT;
	char *pat = xasprintf("module %s", name);
	size_t plen = strlen(pat);
	const char *p = code, *semi, *q;

	/* "module aes_sbox", not "module aes_sbox_x". */
	while ((p = strstr(p, pat)) != NULL && (p[plen] == '_' ||
	    (p[plen] >= '0' && p[plen] <= '9') || ((p[plen] | 32) >= 'a' &&
	    (p[plen] | 32) <= 'z')))
		p += plen;
	free(pat);
	if (p == NULL || (semi = strchr(p, ';')) == NULL)
		return NULL;
	buf_add(&b, p, (size_t)(semi - p) + 1);
	for (q = semi + 1; *q != '\0'; ) {
		const char *s = q, *nl = strchr(q, '\n');
		size_t l = nl != NULL ? (size_t)(nl - q) : strlen(q);

		while (*s == ' ' || *s == '\t' || *s == '\r')
			s++;
		if (s < q + l && strncmp(s, "input", 5) != 0 &&
		    strncmp(s, "output", 6) != 0 && strncmp(s, "inout", 5) != 0)
			break;
		buf_addc(&b, '\n');
		buf_add(&b, q, l);
		q += l + (nl != NULL);
	}
	/* Keep the text, not Windows line ends. */
	{
		char *t = buf_detach(&b, NULL), *w = t;

		for (char *r = t; *r != '\0'; r++)
			if (*r != '\r')
				*w++ = *r;
		*w = '\0';
		while (w > t && (w[-1] == '\n' || w[-1] == ' ' ||
		    w[-1] == '\t'))
			*--w = '\0';
		return t;
	}
}

/* The role of a verification file, NULL when it is not one to keep. */
static const char *
verif_role(const char *name, const char *module)
{
	char *top = xasprintf("%s_top.sv", module);
	int is_top = strcmp(name, top) == 0;

	free(top);
	if (is_top || (!import_has_suffix(name, ".sv") && !import_has_suffix(name, ".v")))
		return NULL;
	if (strstr(name, "_testbench.") != NULL ||
	    strstr(name, "_stimulus_gen.") != NULL)
		return "testbench";	/* their $finish ends the run */
	if (strstr(name, "_ref.") != NULL)
		return "reference";
	return "source";
}

static int
put_candidate(struct store *st, struct candidate *c,
    const struct recorded *r, struct import_report *rep, struct err *err)
{
	int inserted;

	if (store_candidate_add(st, c, &inserted, err) < 0)
		return -1;
	if (!inserted) {
		rep->cands_existing++;
		return 0;
	}
	rep->cands_added++;
	if (r != NULL && r->verdict != NULL &&
	    store_recorded_add(st, c->id, r, err) < 0)
		return -1;
	return 0;
}

/*
 * Import the module folder dir: the task realbench/MODULE with the files
 * of verification/ (MODULE_top.sv and the Makefile aside) and the golden
 * design as its candidate of origin "reference".
 */
static int
rb_module(struct store *st, const char *dir, struct import_report *rep,
    struct err *err)
{
	char *d = file_trim(dir), *vdir = xasprintf("%s/%s", d, RB_VERIF);
	const char *name = file_base(d);
	char *cat = file_dir(d), *golden = NULL, *gpath = NULL, *x;
	char **names = NULL;
	size_t n = 0, glen = 0, tbs = 0;
	struct task t = { 0 };
	struct candidate c = { 0 };
	json_t *extra;
	int rc = -1;

	if (import_list_dir(vdir, &names, &n, err) < 0)
		goto out;
	t.id = xasprintf("%s/%s", RB_BENCH, name);
	t.benchmark = xstrdup(RB_BENCH);
	t.domain = xstrdup("chip");
	t.env = xstrdup("verilator");
	{
		char *top = xasprintf("%s_top.sv", name);
		json_t *p = json_pack("{s:s, s:s, s:s, s:b, s:i}", "top", "tb",
		    "dut_top", name, "cand_file", top, "lint_sources", 1,
		    "timeout_s", 300);

		t.env_params = json_dumps(p, JSON_COMPACT |
		    JSON_PRESERVE_ORDER);
		json_decref(p);
		free(top);
	}
	t.source = xstrdup(d);
	for (size_t i = 0; i < n; i++) {
		const char *role = verif_role(names[i], name);
		char *path, *data;
		size_t len;

		if (role == NULL) {
			x = xasprintf("%s_top.sv", name);
			if (strcmp(names[i], "Makefile") != 0 &&
			    strcmp(names[i], x) != 0)
				buf_printf(&rep->warnings, "%s/%s: not a"
				    " Verilog file, ignored\n", vdir, names[i]);
			free(x);
			continue;
		}
		path = xasprintf("%s/%s", vdir, names[i]);
		if (!file_is_reg(path)) {
			free(path);
			continue;
		}
		if (rb_read(path, &data, &len, err) < 0) {
			free(path);
			goto out;
		}
		task_add_file(&t, names[i], role, data, len);
		tbs += strcmp(role, "testbench") == 0;
		free(data);
		free(path);
	}
	if (tbs == 0) {
		err_set(err, "%s: no testbench (*_testbench.sv) in %s", d,
		    RB_VERIF);
		goto out;
	}
	/* The golden design; the copy in verification/ when it is absent. */
	gpath = xasprintf("%s/%s.v", d, name);
	if (!file_is_reg(gpath)) {
		free(gpath);
		gpath = xasprintf("%s/%s_top.sv", vdir, name);
	}
	if (file_is_reg(gpath) && rb_read(gpath, &golden, &glen, err) < 0)
		goto out;
	if (golden != NULL)
		t.interface = interface_of(golden, name);
	x = xasprintf("%s/%s.md.gpg", d, name);
	t.spec = xasprintf("RealBench %s/%s.  Its specification ships"
	    " encrypted (%s.md.gpg%s); the interface is the golden design's.",
	    file_base(cat), name, name,
	    file_is_reg(x) ? "" : ", not in this copy");
	extra = json_pack("{s:s, s:s}", "category", file_base(cat),
	    "encrypted_spec", file_base(x));
	t.extra = json_dumps(extra, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(extra);
	free(x);
	if (import_put_task(st, &t, rep, err) < 0)
		goto out;
	if (golden != NULL) {
		import_reference(&c, t.id, "verilog", xstrdup(gpath), golden,
		    glen);
		golden = NULL;
		if (put_candidate(st, &c, NULL, rep, err) < 0)
			goto out;
	} else {
		buf_printf(&rep->warnings, "%s: no golden design (%s.v), the"
		    " task has no reference\n", d, name);
	}
	rc = 0;
out:
	strv_free(names, n);
	task_release(&t);
	candidate_release(&c);
	free(golden);
	free(gpath);
	free(cat);
	free(vdir);
	free(d);
	return rc;
}

/* Every module folder of the RealBench root, category by category. */
static int
rb_modules(struct store *st, const char *root, struct import_report *rep,
    size_t *count, struct err *err)
{
	char **cats = NULL, **mods = NULL;
	size_t ncat = 0, nmod = 0;
	int rc = 0;

	if (import_list_dir(root, &cats, &ncat, err) < 0)
		return -1;
	for (size_t i = 0; i < ncat && rc == 0; i++) {
		char *cdir = xasprintf("%s/%s", root, cats[i]);

		if (strcmp(cats[i], RB_SAMPLES) != 0 && file_is_dir(cdir) &&
		    import_list_dir(cdir, &mods, &nmod, err) == 0) {
			for (size_t k = 0; k < nmod && rc == 0; k++) {
				char *m = xasprintf("%s/%s", cdir, mods[k]);

				if (module_dir(m)) {
					rc = rb_module(st, m, rep, err);
					(*count)++;
				}
				free(m);
			}
			strv_free(mods, nmod);
		}
		free(cdir);
	}
	strv_free(cats, ncat);
	return rc;
}

/* --- samples ---------------------------------------------------------- */

/*
 * The model of a samples file, "MODEL.CATEGORY.subset.jsonl": the name
 * without ".jsonl" and ".subset", then without ".CATEGORY" when root has
 * such a category folder.  Model names hold dots themselves
 * ("llama-3.1-8b-instruct", "RTLCoder-Deepseek-v1.1").  New string.
 */
static char *
model_of(const char *path, const char *root)
{
	char *m = xstrdup(file_base(path)), *dot;

	if (import_has_suffix(m, ".jsonl"))
		m[strlen(m) - 6] = '\0';
	if (import_has_suffix(m, ".subset"))
		m[strlen(m) - 7] = '\0';
	dot = strrchr(m, '.');
	if (dot != NULL && dot != m && root != NULL) {
		char *c = xasprintf("%s/%s", root, dot + 1);

		if (file_is_dir(c))
			*dot = '\0';
		free(c);
	}
	return m;
}

struct rb_file {
	const char	*path;
	const char	*root;		/* where module folders are, or NULL */
	char		*model;
	size_t		 missing;	/* rows whose task has no folder */
	struct buf	 names;		/* their tasks, " name," each */
};

static int
row_err(struct err *err, const char *path, size_t line, const char *what)
{
	return err_set(err, "%s:%zu: %s", path, line, what);
}

static const char *const sample_known[] = { "task", "code", "syntax",
	"function", "formal", "syntax_info", "function_info", "formal_info",
	NULL };

/*
 * RealBench's verdict fields: syntax and function are 1 (passed), 0
 * (failed) or -2 (not evaluated); formal likewise.  syntax 0 is a failed
 * Verilator compile of the candidate with the testbench, which spans
 * assay's lint and build stages: recorded with no stage, so that neither
 * is marked as a disagreement.  function 0 is a simulation with
 * mismatches, function 1 a pass.
 */
static void
recorded_of(json_t *row, struct recorded *r)
{
	json_t *raw = json_object(), *v;
	json_int_t syn, fun;

	memset(r, 0, sizeof *r);
	for (size_t i = 2; sample_known[i] != NULL; i++)
		if ((v = json_object_get(row, sample_known[i])) != NULL)
			json_object_set(raw, sample_known[i], v);
	syn = json_is_integer(json_object_get(row, "syntax")) ?
	    json_integer_value(json_object_get(row, "syntax")) : -2;
	fun = json_is_integer(json_object_get(row, "function")) ?
	    json_integer_value(json_object_get(row, "function")) : -2;
	if (syn == 0) {
		r->verdict = xstrdup("fail");
		r->log = xstrdup(json_string_value(json_object_get(row,
		    "syntax_info")));
	} else if (syn == 1 && fun == 0) {
		r->verdict = xstrdup("fail");
		r->stage = xstrdup("simulate");
		r->log = xstrdup(json_string_value(json_object_get(row,
		    "function_info")));
	} else if (syn == 1 && fun == 1) {
		r->verdict = xstrdup("pass");
		r->stage = xstrdup("simulate");
		r->log = xstrdup(json_string_value(json_object_get(row,
		    "function_info")));
	}
	if (r->verdict != NULL)
		r->extra = json_dumps(raw, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(raw);
}

/* One sample row; 1 when its task has no module folder (skipped). */
static int
rb_row(struct store *st, json_t *row, struct rb_file *f, size_t line,
    struct import_report *rep, struct err *err)
{
	const char *tname = json_string_value(json_object_get(row, "task"));
	const char *code = json_string_value(json_object_get(row, "code"));
	struct candidate c = { 0 };
	struct recorded r = { 0 };
	struct task t;
	json_t *x, *v;
	const char *k;
	int found, rc = -1;

	if (tname == NULL || *tname == '\0')
		return row_err(err, f->path, line, "missing \"task\" string");
	if (code == NULL)
		return row_err(err, f->path, line, "missing \"code\" string");
	c.task_id = xasprintf("%s/%s", RB_BENCH, tname);
	found = store_task_get(st, c.task_id, &t, err);
	if (found < 0)
		goto out;
	if (found == 0) {
		task_release(&t);
	} else {
		char *dir = f->root != NULL ? find_module(f->root, tname) :
		    NULL;

		if (dir == NULL) {
			char *w = xasprintf(" %s,", tname);

			if (strstr(buf_str(&f->names), w) == NULL)
				buf_adds(&f->names, w);
			free(w);
			f->missing++;
			rc = 1;
			goto out;
		}
		rc = rb_module(st, dir, rep, err);
		free(dir);
		if (rc < 0)
			goto out;
		rc = -1;
	}
	c.origin = xstrdup(f->model);
	c.origin_raw = xstrdup(file_base(f->path));
	import_direct_code(&c, "verilog", xasprintf("%s:%zu", f->path, line),
	    xstrdup(code), json_string_length(json_object_get(row, "code")));
	x = json_object();
	json_object_foreach(row, k, v) {
		int known = 0;

		for (size_t i = 0; sample_known[i] != NULL && !known; i++)
			known = strcmp(sample_known[i], k) == 0;
		if (!known)
			json_object_set(x, k, v);
	}
	if (json_object_size(x) > 0)
		c.extra = json_dumps(x, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(x);
	recorded_of(row, &r);
	rc = put_candidate(st, &c, &r, rep, err);
out:
	candidate_release(&c);
	recorded_release(&r);
	return rc;
}

/*
 * A samples JSONL file, one row at a time: a bad row fails the file with
 * path:line, or with keep_going is skipped, in its own savepoint so that
 * it leaves nothing behind.
 */
static int
rb_samples(struct store *st, const char *path, const char *root,
    int keep_going, struct import_report *rep, struct err *err)
{
	struct rb_file f = { path, root, NULL, 0, BUF_INIT };
	char *data, *p, *end;
	size_t len, line = 0, rows = 0;

	if (rb_read(path, &data, &len, err) < 0)
		return -1;
	f.model = model_of(path, root);
	for (p = data, end = data + len; p < end; ) {
		char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl != NULL ? (size_t)(nl - p) : (size_t)(end - p);
		struct import_report before = *rep;
		json_error_t jerr;
		struct err rowerr;
		json_t *row;
		int rc;

		line++;
		row = NULL;
		while (l > 0 && (p[l - 1] == '\r' || p[l - 1] == ' '))
			l--;
		if (l == 0) {
			p = nl != NULL ? nl + 1 : end;
			continue;
		}
		rows++;
		row = json_loadb(p, l, JSON_REJECT_DUPLICATES, &jerr);
		p = nl != NULL ? nl + 1 : end;
		if (row == NULL)
			rc = err_set(&rowerr, "%s:%zu: invalid JSON: %s (column"
			    " %d)", path, line, jerr.text, jerr.column);
		else if (!json_is_object(row))
			rc = row_err(&rowerr, path, line, "a row must be a JSON"
			    " object");
		else if ((rc = store_savepoint(st, &rowerr)) == 0) {
			rc = rb_row(st, row, &f, line, rep, &rowerr);
			store_savepoint_end(st, rc >= 0);
		}
		json_decref(row);
		if (rc < 0) {
			rep->tasks_added = before.tasks_added;
			rep->tasks_existing = before.tasks_existing;
			rep->cands_added = before.cands_added;
			rep->cands_existing = before.cands_existing;
			if (strncmp(rowerr.msg, path, strlen(path)) != 0) {
				struct err e2;

				err_set(&e2, "%s:%zu: %s", path, line,
				    rowerr.msg);
				rowerr = e2;
			}
			if (!keep_going) {
				*err = rowerr;
				free(data);
				free(f.model);
				buf_release(&f.names);
				return -1;
			}
			rep->skipped++;
			buf_printf(&rep->warnings, "%s (skipped)\n",
			    rowerr.msg);
		}
	}
	if (rows == 0)
		buf_printf(&rep->warnings, "%s: empty file, nothing imported\n",
		    path);
	if (f.missing > 0)
		buf_printf(&rep->warnings, "%s: %zu row%s not imported: no"
		    " module folder (CATEGORY/MODULE/verification) in %s for"
		    "%.*s\n", path, f.missing, f.missing == 1 ? "" : "s",
		    root != NULL ? root : "this copy", (int)f.names.len - 1,
		    buf_str(&f.names));
	free(data);
	free(f.model);
	buf_release(&f.names);
	return 0;
}

/* --- the entry points ------------------------------------------------- */

static int
import_realbench_detect(const char *path)
{
	char *p = file_trim(path), *s;
	int r = 0;

	if (file_is_dir(p)) {
		s = xasprintf("%s/%s", p, RB_SAMPLES);
		r = module_dir(p) || file_is_dir(s);
		free(s);
	} else if (import_has_suffix(p, ".jsonl")) {
		struct import_text in;
		const char *data, *q, *end;
		struct err e;

		data = import_map(p, &in, &e) == 0 ? in.data : NULL;
		end = data != NULL ? data + in.len : NULL;
		for (q = data; data != NULL && q < end; ) {
			const char *nl = memchr(q, '\n', (size_t)(end - q));
			size_t l = nl != NULL ? (size_t)(nl - q) : (size_t)(end - q);
			json_t *row;
			size_t k = 0;

			while (k < l && (q[k] == ' ' || q[k] == '\t' ||
			    q[k] == '\r'))
				k++;
			if (k == l) {
				q += l + (nl != NULL);
				continue;
			}
			row = json_loadb(q, l, 0, NULL);
			r = json_is_string(json_object_get(row, "task")) &&
			    json_object_get(row, "codeid") != NULL &&
			    json_is_string(json_object_get(row, "code"));
			json_decref(row);
			break;
		}
		if (data != NULL)
			import_unmap(&in);
	}
	free(p);
	return r;
}

static int
import_realbench(struct store *st, const char *path,
    const struct import_opts *opts, struct import_report *rep,
    struct err *err)
{
	char *p = file_trim(path), *sdir = NULL, *root = NULL;
	char **names = NULL;
	size_t n = 0, mods = 0, files = 0;
	int rc = -1;

	if (!file_is_dir(p)) {
		/* A samples file: module folders sit beside its folder. */
		if (!file_is_reg(p)) {
			err_set(err, "%s: %s", p, strerror(ENOENT));
			goto out;
		}
		sdir = file_dir(p);
		root = file_dir(sdir);
		rc = rb_samples(st, p, root, opts->keep_going, rep, err);
		goto out;
	}
	if (module_dir(p)) {
		rc = rb_module(st, p, rep, err);
		goto out;
	}
	if (rb_modules(st, p, rep, &mods, err) < 0)
		goto out;
	sdir = xasprintf("%s/%s", p, RB_SAMPLES);
	if (file_is_dir(sdir)) {
		if (import_list_dir(sdir, &names, &n, err) < 0)
			goto out;
		for (size_t i = 0; i < n; i++) {
			char *f = xasprintf("%s/%s", sdir, names[i]);

			if (import_has_suffix(names[i], ".jsonl") &&
			    file_is_reg(f)) {
				files++;
				if (rb_samples(st, f, p, opts->keep_going, rep,
				    err) < 0) {
					free(f);
					goto out;
				}
			}
			free(f);
		}
	}
	if (mods == 0 && files == 0) {
		err_set(err, "%s: no RealBench module folders (CATEGORY/MODULE/"
		    "verification) and no %s/*.jsonl", p, RB_SAMPLES);
		goto out;
	}
	rc = 0;
out:
	strv_free(names, n);
	free(sdir);
	free(root);
	free(p);
	return rc;
}

const struct importer importer_realbench = {
	"realbench", import_realbench_detect, NULL, import_realbench
};
