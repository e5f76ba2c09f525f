/*
 * import_rtllm.c - RTLLM (hkust-zhiyao/RTLLM v2.0) in its own layout;
 * see import.h and docs/formats.md.
 *
 *   ROOT/Category/Subcategory/DESIGN/design_description.txt  the spec
 *   ROOT/.../DESIGN/testbench.v         self-checking, its own top module
 *   ROOT/.../DESIGN/verified_X.v        the designers' RTL (the reference)
 *   ROOT/.../DESIGN/tdata.txt ...       data files read at run time
 *   ROOT/_chatgpt35/t1/DESIGN.v         model samples, t1..t5 per model
 *
 * A design folder is any folder holding design_description.txt and
 * testbench.v; it becomes the task rtllm/DESIGN (env iverilog, top the
 * testbench's own module) with the testbench and the data files as task
 * files.  The reference, renamed to the module the testbench instantiates
 * (verified_adder_8bit -> adder_8bit), is its candidate of origin
 * reference, and its header of that module the task's interface.  A sample folder is _MODEL/tK/ under PATH or beside it; each
 * DESIGN.v in it is a candidate of rtllm/DESIGN, origin from MODEL.  The
 * verdict is the testbench's own (RTLLM's default convention of the
 * Verilog envs, docs/envs.md).
 */
#define _GNU_SOURCE
#include "exchange/import.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "envs/verilog.h"
#include "base/file.h"
#include "model/sample.h"

#define RT_SPEC "design_description.txt"
#define RT_TB "testbench.v"
#define RT_DEPTH 8	/* how deep design folders are looked for */

/* Does dir hold an RTLLM design (its description and testbench)? */
static int
design_dir(const char *dir)
{
	char *a = xasprintf("%s/%s", dir, RT_SPEC);
	char *b = xasprintf("%s/%s", dir, RT_TB);
	int yes = file_is_reg(a) && file_is_reg(b);

	free(a);
	free(b);
	return yes;
}

/* "_MODEL" with "tK" folders under it? */
static int
sample_dir(const char *dir, const char *name)
{
	char **names;
	size_t n;
	struct err err;
	int yes = 0;

	if (name[0] != '_' || name[1] == '\0' || !file_is_dir(dir) ||
	    import_list_dir(dir, &names, &n, &err) < 0)
		return 0;
	for (size_t i = 0; i < n && !yes; i++)
		yes = names[i][0] == 't' && names[i][1] >= '0' &&
		    names[i][1] <= '9' &&
		    strspn(names[i] + 1, "0123456789") == strlen(names[i] + 1);
	strv_free(names, n);
	return yes;
}

/* The origin of a sample folder "_MODEL": upstream's two by name. */
static char *
origin_of(const char *folder)
{
	if (strcmp(folder, "_chatgpt35") == 0)
		return xstrdup("gpt-3.5");
	if (strcmp(folder, "_chatgpt4") == 0)
		return xstrdup("gpt-4");
	return xstrdup(folder + 1);
}

/*
 * Skip comments: the offset of the next byte of code at or after i in
 * code (len bytes), or len.
 */
static size_t
skip_comment(const char *code, size_t len, size_t i)
{
	while (i + 1 < len && code[i] == '/' && (code[i + 1] == '/' ||
	    code[i + 1] == '*')) {
		const char *e = code[i + 1] == '/' ?
		    memchr(code + i, '\n', len - i) :
		    memmem(code + i + 2, len - i - 2, "*/", 2);

		i = e == NULL ? len : (size_t)(e - code) + (code[i + 1] == '/' ?
		    1 : 2);
	}
	return i;
}

/* The names of the modules code declares, in order, into *out (new
 * strings); their count. */
static size_t
declared(const char *code, char ***out)
{
	size_t len = strlen(code), n = 0, l;
	const char *p = code, *name;

	*out = NULL;
	while ((name = verilog_next_module(code, len, &p, &l)) != NULL) {
		*out = xreallocarray(*out, n + 1, sizeof **out);
		(*out)[n++] = xstrndup(name, l);
	}
	return n;
}

/*
 * The first module tb instantiates, read lexically: "NAME [#(...)] INST
 * (" where NAME is no keyword and no module of tb's own.  The fallback
 * for testbenches the grammar misreads (RTLLM's pe and alu connect
 * their ports by position: "pe dut(clk,rst,a,b,c);").  New string, or
 * NULL.
 */
static char *
instantiated(const char *tb, char **own, size_t nown)
{
	static const char *const kw[] = { "module", "input", "output",
	    "inout", "reg", "wire", "logic", "integer", "real", "time",
	    "genvar", "parameter", "localparam", "assign", "always",
	    "initial", "begin", "end", "if", "else", "for", "while",
	    "repeat", "forever", "case", "task", "function", "return",
	    "wait", "fork", "join", "bit", "int", NULL };
	size_t len = strlen(tb);

	for (size_t i = 0; i < len; ) {
		size_t a, b, k;
		char *name;
		int bad = 0;

		i = skip_comment(tb, len, i);
		if (i >= len)
			break;
		if (!verilog_is_ident((unsigned char)tb[i]) || tb[i] == '$' ||
		    (tb[i] >= '0' && tb[i] <= '9') || (i > 0 &&
		    (verilog_is_ident((unsigned char)tb[i - 1]) ||
		    tb[i - 1] == '`' || tb[i - 1] == '.'))) {
			i++;
			continue;
		}
		for (a = i; i < len && verilog_is_ident((unsigned char)tb[i]);
		    i++)
			;
		b = i;
		k = i;
		while (k < len && strchr(" \t\r\n", tb[k]) != NULL)
			k++;
		if (k < len && tb[k] == '#') {	/* #(parameters) */
			int depth = 0;

			for (k++; k < len && strchr(" \t\r\n", tb[k]); k++)
				;
			for (; k < len; k++) {
				depth += (tb[k] == '(') - (tb[k] == ')');
				if (depth == 0)
					break;
			}
			k++;
		} else if (k == b) {
			continue;	/* "x(": a call, not "T x(" */
		}
		while (k < len && strchr(" \t\r\n", tb[k]) != NULL)
			k++;
		if (k >= len || !verilog_is_ident((unsigned char)tb[k]) ||
		    (tb[k] >= '0' && tb[k] <= '9'))
			continue;
		while (k < len && verilog_is_ident((unsigned char)tb[k]))
			k++;
		while (k < len && strchr(" \t\r\n", tb[k]) != NULL)
			k++;
		if (k >= len || tb[k] != '(')
			continue;
		name = xstrndup(tb + a, b - a);
		for (size_t j = 0; kw[j] != NULL && !bad; j++)
			bad = strcmp(kw[j], name) == 0;
		for (size_t j = 0; j < nown && !bad; j++)
			bad = strcmp(own[j], name) == 0;
		if (!bad)
			return name;
		free(name);
	}
	return NULL;
}

/* How often name occurs in code as a whole word. */
static size_t
word_count(const char *code, const char *name)
{
	size_t n = 0, l = strlen(name);

	for (const char *p = code; (p = strstr(p, name)) != NULL; p += l)
		if ((p == code || !verilog_is_ident((unsigned char)p[-1])) &&
		    !verilog_is_ident((unsigned char)p[l]))
			n++;
	return n;
}

/*
 * The reference as a candidate: when it does not declare want (the module
 * the testbench instantiates), its top module, the one no other module of
 * it names (verified_asyn_fifo, not the dual_port_RAM it instantiates), is
 * renamed to want.  New string.
 */
static char *
reference_code(const char *ref, const char *want)
{
	char **mods, *code;
	size_t n = declared(ref, &mods);
	const char *top = NULL;
	int has = 0;

	for (size_t i = 0; i < n; i++)
		has |= want != NULL && strcmp(mods[i], want) == 0;
	for (size_t i = 0; i < n && top == NULL; i++)
		if (word_count(ref, mods[i]) == 1)
			top = mods[i];
	if (top == NULL && n > 0)
		top = mods[0];
	code = want == NULL || has || top == NULL ? xstrdup(ref) :
	    verilog_rename_word(ref, top, want);
	for (size_t i = 0; i < n; i++)
		free(mods[i]);
	free(mods);
	return code;
}

/*
 * The header of module name in code, "module name ... ;" (ANSI ports
 * included), or NULL when code does not declare it.  New string.
 */
static char *
header_of(const char *code, const char *name)
{
	size_t len = strlen(code), l = name != NULL ? strlen(name) : 0;

	for (size_t i = 0; name != NULL && i < len; ) {
		size_t j;

		i = skip_comment(code, len, i);
		if (i >= len)
			break;
		if (len - i <= 6 || memcmp(code + i, "module", 6) != 0 ||
		    (i > 0 && verilog_is_ident((unsigned char)code[i - 1])) ||
		    verilog_is_ident((unsigned char)code[i + 6])) {
			i++;
			continue;
		}
		for (j = i + 6; j < len && strchr(" \t\r\n", code[j]) != NULL;
		    j++)
			;
		if (len - j >= l && memcmp(code + j, name, l) == 0 &&
		    !verilog_is_ident((unsigned char)code[j + l])) {
			const char *semi = strchr(code + j, ';');

			return semi != NULL ? xasprintf("%.*s\n",
			    (int)(semi - code - i + 1), code + i) : NULL;
		}
		i = j;
	}
	return NULL;
}

/* The design folder dir (named design) into the task rtllm/DESIGN. */
static int
rt_design(struct store *st, const char *dir, const char *design,
    const char *root, struct import_report *rep, struct err *err)
{
	struct task t = { 0 };
	struct candidate c = { 0 };
	char **names = NULL, **mods = NULL, *tb = NULL, *spec = NULL;
	char *ref = NULL, *refpath = NULL, *want = NULL, *p;
	size_t n = 0, nm = 0, tblen, len0;
	json_t *params, *extra;
	int rc = -1;

	if (import_list_dir(dir, &names, &n, err) < 0)
		return -1;
	p = xasprintf("%s/%s", dir, RT_TB);
	rc = import_read(p, &tb, &tblen, err);
	free(p);
	p = xasprintf("%s/%s", dir, RT_SPEC);
	if (rc == 0)
		rc = import_read(p, &spec, &len0, err);
	free(p);
	if (rc < 0)
		goto out;
	rc = -1;
	nm = declared(tb, &mods);
	if (nm == 0) {
		err_set(err, "%s/%s: no module in the testbench", dir, RT_TB);
		goto out;
	}
	t.id = xasprintf("rtllm/%s", design);
	t.benchmark = xstrdup("rtllm");
	t.domain = xstrdup("chip");
	t.env = xstrdup("iverilog");
	params = json_pack("{s:s, s:i}", "top", mods[0], "timeout_s", 60);
	t.env_params = json_dumps(params, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(params);
	t.spec = spec;
	spec = NULL;
	t.source = xstrdup(dir);
	{
		/* Category/Subcategory, as upstream sorts the designs. */
		size_t rl = strlen(root);
		const char *rel = strncmp(dir, root, rl) == 0 &&
		    dir[rl] == '/' ? dir + rl + 1 : NULL;
		char *cat = rel != NULL && strrchr(rel, '/') != NULL ?
		    xstrndup(rel, (size_t)(strrchr(rel, '/') - rel)) : NULL;

		if (cat != NULL) {
			extra = json_pack("{s:s}", "category", cat);
			t.extra = json_dumps(extra, JSON_COMPACT);
			json_decref(extra);
		}
		free(cat);
	}
	task_add_file(&t, RT_TB, "testbench", tb, tblen);
	for (size_t i = 0; i < n; i++) {
		const char *name = names[i];
		struct task_file f = { (char *)name, (char *)"source", NULL, 0 };
		char *data;
		size_t len;

		if (strcmp(name, RT_TB) == 0 || strcmp(name, RT_SPEC) == 0 ||
		    strcmp(name, "makefile") == 0 ||
		    strcmp(name, "Makefile") == 0)
			continue;
		p = xasprintf("%s/%s", dir, name);
		if (strncmp(name, "verified_", 9) == 0 &&
		    import_has_suffix(name, ".v") && refpath == NULL) {
			refpath = p;
			continue;
		}
		if (!verilog_is_data(&f) || !file_is_reg(p)) {
			buf_printf(&rep->warnings, "%s: not part of an RTLLM"
			    " design (testbench.v, verified_*.v, data files),"
			    " ignored\n", p);
			free(p);
			continue;
		}
		rc = import_read(p, &data, &len, err);
		free(p);
		if (rc < 0)
			goto out;
		rc = -1;
		task_add_file(&t, name, "data", data, len);
		free(data);
	}
	/* The module a candidate must define: the one the testbench
	 * instantiates (docs/envs.md). */
	want = verilog_expected_tops(&t);
	if (want != NULL)
		want[strcspn(want, " ")] = '\0';
	else
		want = instantiated(tb, mods, nm);
	if (refpath != NULL) {
		char *code;

		if (import_read(refpath, &ref, &len0, err) < 0)
			goto out;
		code = reference_code(ref, want);
		/* The interface: the reference's header of that module, which
		 * also names it where the grammar misreads the testbench. */
		t.interface = header_of(code, want);
		import_reference(&c, t.id, "verilog", xstrdup(refpath), code,
		    strlen(code));
	} else {
		buf_printf(&rep->warnings, "%s: no verified_*.v reference\n",
		    dir);
	}
	if (import_put_task(st, &t, rep, err) < 0)
		goto out;
	if (c.code != NULL &&
	    import_put_candidate(st, &c, NULL, 0, rep, NULL, err) < 0)
		goto out;
	rc = 0;
out:
	task_release(&t);
	candidate_release(&c);
	strv_free(names, n);
	strv_free(mods, nm);
	free(tb);
	free(spec);
	free(ref);
	free(refpath);
	free(want);
	return rc;
}

/* Every design folder under dir (depth levels down). */
static int
rt_walk(struct store *st, const char *dir, const char *root, int depth,
    size_t *designs, char ***samples, size_t *nsamples,
    struct import_report *rep, struct err *err)
{
	char **names;
	size_t n;
	int rc = 0;

	if (design_dir(dir)) {
		const char *slash = strrchr(dir, '/');

		(*designs)++;
		return rt_design(st, dir, slash != NULL ? slash + 1 : dir, root,
		    rep, err);
	}
	if (depth == 0 || import_list_dir(dir, &names, &n, err) < 0)
		return depth == 0 ? 0 : -1;
	for (size_t i = 0; i < n && rc == 0; i++) {
		char *sub = xasprintf("%s/%s", dir, names[i]);

		if (sample_dir(sub, names[i])) {
			*samples = xreallocarray(*samples, *nsamples + 1,
			    sizeof **samples);
			(*samples)[(*nsamples)++] = sub;
			continue;
		}
		if (file_is_dir(sub))
			rc = rt_walk(st, sub, root, depth - 1, designs, samples,
			    nsamples, rep, err);
		free(sub);
	}
	strv_free(names, n);
	return rc;
}

/* The samples of one _MODEL folder: every tK/DESIGN.v. */
static int
rt_samples(struct store *st, const char *dir, struct import_report *rep,
    struct err *err)
{
	const char *folder = strrchr(dir, '/') != NULL ? strrchr(dir, '/') + 1 :
	    dir;
	char **trials, *origin = origin_of(folder);
	size_t nt, orphans = 0, clen;
	int rc = -1;

	if (import_list_dir(dir, &trials, &nt, err) < 0) {
		free(origin);
		return -1;
	}
	for (size_t i = 0; i < nt; i++) {
		char *tdir = xasprintf("%s/%s", dir, trials[i]), **files;
		size_t nf;

		if (trials[i][0] != 't' || !file_is_dir(tdir) ||
		    import_list_dir(tdir, &files, &nf, err) < 0) {
			free(tdir);
			continue;
		}
		for (size_t k = 0; k < nf; k++) {
			struct candidate c = { 0 };
			struct task t;
			char *path, *design, *code;
			json_t *x;
			int found;

			if (!import_has_suffix(files[k], ".v"))
				continue;
			design = xstrndup(files[k], strlen(files[k]) - 2);
			c.task_id = xasprintf("rtllm/%s", design);
			free(design);
			found = store_task_get(st, c.task_id, &t, err);
			if (found < 0) {
				candidate_release(&c);
				strv_free(files, nf);
				free(tdir);
				goto out;
			}
			if (found == 1) {
				orphans++;
				candidate_release(&c);
				continue;
			}
			task_release(&t);
			path = xasprintf("%s/%s", tdir, files[k]);
			if (import_read(path, &code, &clen, err) < 0) {
				free(path);
				candidate_release(&c);
				strv_free(files, nf);
				free(tdir);
				goto out;
			}
			c.origin = xstrdup(origin);
			c.origin_raw = xasprintf("%s/%s", folder, trials[i]);
			import_direct_code(&c, "verilog", path, code,
			    strlen(code));
			x = json_pack("{s:s}", "sample", trials[i]);
			c.extra = json_dumps(x, JSON_COMPACT);
			json_decref(x);
			rc = import_put_candidate(st, &c, NULL, 0, rep, NULL,
			    err);
			candidate_release(&c);
			if (rc < 0) {
				strv_free(files, nf);
				free(tdir);
				goto out;
			}
			rc = -1;
		}
		strv_free(files, nf);
		free(tdir);
	}
	if (orphans > 0)
		buf_printf(&rep->warnings, "%s: %zu sample(s) of designs"
		    " without a folder here, not imported (a sample without"
		    " its testbench cannot be judged)\n", dir, orphans);
	rc = 0;
out:
	strv_free(trials, nt);
	free(origin);
	return rc;
}

static int
import_rtllm(struct store *st, const char *path,
    const struct import_opts *opts, struct import_report *rep,
    struct err *err)
{
	char *root = xstrdup(path), **samples = NULL, **names = NULL;
	size_t designs = 0, nsamples = 0, n = 0;
	int rc;

	(void)opts;
	while (strlen(root) > 1 && root[strlen(root) - 1] == '/')
		root[strlen(root) - 1] = '\0';
	rc = rt_walk(st, root, root, RT_DEPTH, &designs, &samples, &nsamples,
	    rep, err);
	/* Sample folders beside PATH (PATH a category, or the designs
	 * kept apart from upstream's _chatgpt35/). */
	if (rc == 0 && nsamples == 0 && strrchr(root, '/') != NULL) {
		char *up = xstrndup(root, (size_t)(strrchr(root, '/') - root));

		if (*up != '\0' && import_list_dir(up, &names, &n, err) == 0) {
			for (size_t i = 0; i < n; i++) {
				char *sub = xasprintf("%s/%s", up, names[i]);

				if (sample_dir(sub, names[i])) {
					samples = xreallocarray(samples,
					    nsamples + 1, sizeof *samples);
					samples[nsamples++] = sub;
				} else {
					free(sub);
				}
			}
		}
		free(up);
	}
	/* Samples alone answer designs imported before. */
	if (rc == 0 && designs == 0 && nsamples == 0)
		rc = err_set(err, "%s: no RTLLM design folders (%s with %s)"
		    " or sample folders (_MODEL/tK/DESIGN.v)", path, RT_SPEC,
		    RT_TB);
	for (size_t i = 0; rc == 0 && i < nsamples; i++)
		rc = rt_samples(st, samples[i], rep, err);
	strv_free(samples, nsamples);
	strv_free(names, n);
	free(root);
	return rc;
}

int
import_rtllm_detect(const char *path)
{
	char **names;
	size_t n;
	struct err err;
	int yes = 0;

	if (!file_is_dir(path))
		return 0;
	if (design_dir(path))
		return 1;
	/* Upstream's root: category folders of design folders, two down;
	 * or sample folders (_chatgpt35/t1/...). */
	if (import_list_dir(path, &names, &n, &err) < 0)
		return 0;
	for (size_t i = 0; i < n && !yes; i++) {
		char *a = xasprintf("%s/%s", path, names[i]), **sub;
		size_t ns;

		yes = sample_dir(a, names[i]);
		if (!yes && file_is_dir(a) &&
		    import_list_dir(a, &sub, &ns, &err) == 0) {
			for (size_t k = 0; k < ns && !yes; k++) {
				char *b = xasprintf("%s/%s", a, sub[k]), **d;
				size_t nd;

				yes = design_dir(b);
				if (!yes && file_is_dir(b) &&
				    import_list_dir(b, &d, &nd, &err) == 0) {
					for (size_t j = 0; j < nd && !yes; j++) {
						char *c = xasprintf("%s/%s", b,
						    d[j]);

						yes = design_dir(c);
						free(c);
					}
					strv_free(d, nd);
				}
				free(b);
			}
			strv_free(sub, ns);
		}
		free(a);
	}
	strv_free(names, n);
	return yes;
}

const struct importer importer_rtllm = {
	"rtllm", import_rtllm_detect, NULL, import_rtllm
};
