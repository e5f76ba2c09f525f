/*
 * task_new.c - a structured task from real code (task_new.h).
 */
#include "exchange/task_new.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/file.h"
#include "base/ident.h"
#include "envs/nvcc.h"
#include "envs/verilog.h"
#include "envs/x86sig.h"
#include "envs/yosys_equiv.h"
#include "exchange/import.h"
#include "lang/cfunc.h"
#include "lang/vheader.h"
#include "model/codec.h"

#define TN_TIMEOUT_SIM 60	/* s: RTLLM's testbenches run in < 1 s */
#define TN_TIMEOUT_EQUIV 240	/* s: the proof's half is sat's limit */
#define TN_X86_CASES 2000	/* the env's default, stated in the task */
#define TN_X86_SEED 1

static const struct codec_ctx tn_codec = { .profile = CODEC_RAW,
	.file_role = import_file_role };

static int
has_suffix(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);

	return a >= b && strcmp(s + a - b, suf) == 0;
}

/* The interface text of m: its header as a Verilog declaration with a
 * port a line, the width in bits beside a range with names in it. */
static char *
interface_text(const struct vh_module *m, const char *name)
{
	struct buf b = BUF_INIT;
	size_t np = 0;

	buf_printf(&b, "module %s", name);
	for (size_t i = 0; i < m->nparams; i++)
		np += !m->params[i].local;
	if (np > 0) {
		size_t k = 0;

		buf_adds(&b, " #(\n");
		for (size_t i = 0; i < m->nparams; i++) {
			const struct vh_param *p = &m->params[i];

			if (p->local)
				continue;
			buf_printf(&b, "    parameter %s%s%s%s\n", p->name,
			    p->value != NULL ? " = " : "",
			    p->value != NULL ? p->value : "",
			    ++k < np ? "," : "");
		}
		buf_adds(&b, ")");
	}
	buf_adds(&b, " (\n");
	for (size_t i = 0; i < m->nports; i++) {
		const struct vh_port *p = &m->ports[i];
		int names = p->range != NULL &&
		    strspn(p->range, "[]:0123456789 ") != strlen(p->range);

		buf_printf(&b, "    %s", p->dir);
		if (p->type != NULL)
			buf_printf(&b, " %s", p->type);
		if (p->is_signed)
			buf_adds(&b, " signed");
		if (p->range != NULL)
			buf_printf(&b, " %s", p->range);
		buf_printf(&b, " %s%s", p->name, p->unpacked != NULL ?
		    p->unpacked : "");
		buf_adds(&b, i + 1 < m->nports ? "," : "");
		if (names && p->width > 0)
			buf_printf(&b, "  // %ld bits", p->width);
		buf_addc(&b, '\n');
	}
	buf_adds(&b, ");\n");
	return buf_detach(&b, NULL);
}

/* The ports and parameters of m as the task's extra: {"module", "ports":
 * [{name, dir, type, range, width, signed}], "parameters": [{name,
 * value}]}; width null when it does not evaluate. */
static char *
interface_json(const struct vh_module *m, const char *name)
{
	json_t *o = json_object(), *ports = json_array(), *params =
	    json_array();
	char *s;

	for (size_t i = 0; i < m->nports; i++) {
		const struct vh_port *p = &m->ports[i];
		json_t *e = json_object();

		json_object_set_new(e, "name", json_string(p->name));
		json_object_set_new(e, "dir", json_string(p->dir));
		json_object_set_new(e, "type", p->type != NULL ?
		    json_string(p->type) : json_null());
		json_object_set_new(e, "range", p->range != NULL ?
		    json_string(p->range) : json_null());
		json_object_set_new(e, "width", p->width > 0 ?
		    json_integer(p->width) : json_null());
		json_object_set_new(e, "signed", json_boolean(p->is_signed));
		if (p->unpacked != NULL)
			json_object_set_new(e, "unpacked",
			    json_string(p->unpacked));
		json_array_append_new(ports, e);
	}
	for (size_t i = 0; i < m->nparams; i++)
		if (!m->params[i].local)
			json_array_append_new(params, json_pack("{s:s, s:o}",
			    "name", m->params[i].name, "value",
			    m->params[i].value != NULL ?
			    json_string(m->params[i].value) : json_null()));
	json_object_set_new(o, "module", json_string(name));
	json_object_set_new(o, "ports", ports);
	json_object_set_new(o, "parameters", params);
	s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(o);
	return s;
}

/* Does the design keep state: an edge-triggered or latched always?  A
 * word search (a comment that names one counts too, which only makes
 * the proof deeper). */
static int
is_sequential(const char *code)
{
	static const char *const words[] = { "posedge", "negedge",
	    "always_ff", "always_latch" };

	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
		if (strstr(code, words[i]) != NULL)
			return 1;
	return 0;
}

/*
 * A file the testbench tb (named path) reads by a literal name
 * ($readmemh, $readmemb, $fopen other than for writing) that is none of
 * files[1..nfiles-1], by base name: -1 with err "TB:LINE: reads NAME,
 * which is not given ...", else 0.  Calls after "//" on their line are
 * comments and skipped.
 */
static int
tb_reads_given(const char *tb, const char *path, char *const *files,
    size_t nfiles, struct err *err)
{
	static const char *const calls[] = { "$readmemh", "$readmemb",
	    "$fopen" };
	const char *line = tb;
	int lineno = 1;

	for (const char *p = tb; *p != '\0'; p++) {
		const char *q, *e, *c;
		size_t k, nl;

		if (*p == '\n') {
			line = p + 1;
			lineno++;
			continue;
		}
		for (k = 0; k < 3; k++)
			if (strncmp(p, calls[k], strlen(calls[k])) == 0)
				break;
		if (k == 3)
			continue;
		for (c = line; c + 1 < p && !(c[0] == '/' && c[1] == '/');
		    c++)
			;
		q = p + strlen(calls[k]);
		if (c + 1 < p || (*q != ' ' && *q != '\t' && *q != '('))
			continue;
		q += strspn(q, " \t(");
		if (*q != '"' || (e = strchr(q + 1, '"')) == NULL ||
		    memchr(q, '\n', (size_t)(e - q)) != NULL)
			continue;
		if (k == 2) {	/* $fopen(NAME, "w"/"a"): written */
			const char *m = e + 1 + strspn(e + 1, " \t,");

			if (*m == '"' && (m[1] == 'w' || m[1] == 'a'))
				continue;
		}
		q++;
		nl = (size_t)(e - q);
		for (c = e; c > q && c[-1] != '/'; c--)
			;
		nl -= (size_t)(c - q);	/* the base name */
		q = c;
		for (k = 1; k < nfiles; k++) {
			const char *b = file_base(files[k]);

			if (strlen(b) == nl && memcmp(b, q, nl) == 0)
				break;
		}
		if (k == nfiles)
			return err_set(err, "%s:%d: reads %.*s, which is not"
			    " given (name it after the design: task new %s"
			    " %.*s --testbench %s)", path, lineno, (int)nl, q,
			    file_base(files[0]), (int)nl, q, file_base(path));
	}
	return 0;
}

/* The first module a testbench declares (its own top): new, or NULL. */
static char *
tb_top(const char *tb, size_t len)
{
	const char *p = tb, *name;
	size_t l;

	name = verilog_next_module(tb, len, &p, &l);
	return name != NULL ? xstrndup(name, l) : NULL;
}

/*
 * What every kind of task ends with: the requirement (--spec FILE, else
 * comment, else the skeleton) and the reference candidate (code, lang,
 * from source).  0, or -1 with err when the spec file does not read.
 */
static int
finish(struct task_new *tn, const struct task_new_opts *o,
    const char *comment, const char *code, const char *lang,
    const char *source, struct err *err)
{
	struct task *t = &tn->task;

	if (o->spec_file != NULL) {
		size_t sl;

		if (file_read(o->spec_file, &t->spec, &sl, err) < 0)
			return -1;
		if (strspn(t->spec, " \t\r\n") == sl)
			return err_set(err, "%s: an empty requirement",
			    o->spec_file);
	} else if (comment != NULL) {
		t->spec = xstrdup(comment);
	} else {
		t->spec = xstrdup(TASK_NEW_SKELETON);
		tn->skeleton = 1;
	}
	import_reference(&tn->ref, t->id, lang, xstrdup(source), xstrdup(code),
	    strlen(code));
	return 0;
}

/* The files after the first as task files of that role.  0 or -1. */
static int
add_files(struct task *t, char *const *files, size_t nfiles,
    const char *role, struct err *err)
{
	for (size_t i = 1; i < nfiles; i++) {
		char *data;
		size_t dl;

		if (file_read(files[i], &data, &dl, err) < 0)
			return -1;
		task_add_file(t, file_base(files[i]), role, data, dl);
		free(data);
	}
	return 0;
}

static int
verilog_task(char *const *files, size_t nfiles, const struct task_new_opts *o,
    const char *code, size_t len, struct task_new *tn, struct err *err)
{
	const char *path = files[0];
	struct vh_file vf;
	const struct vh_module *m;
	struct task *t = &tn->task;
	char *tb = NULL, *ref = NULL, *top = NULL;
	size_t tblen = 0;
	json_t *params;
	int rc = -1;

	if (vh_scan(code, len, &vf, err) < 0)
		return -1;
	m = o->top != NULL && o->testbench == NULL ? vh_find(&vf, o->top) :
	    vh_top(&vf, code);
	if (vf.nmodules == 0) {
		err_set(err, "%s:%d: no module the Verilog grammar can read",
		    path, vf.error_line > 0 ? vf.error_line : 1);
		goto out;
	}
	if (m == NULL) {
		err_set(err, "%s: no module %s (it declares %s%s)", path,
		    o->top, vf.modules[0].name, vf.nmodules > 1 ? ", ..." :
		    "");
		goto out;
	}
	if (m->nports == 0) {
		err_set(err, "%s:%d: module %s: no port the Verilog grammar can"
		    " read%s", path, vf.error_line > 0 ? vf.error_line :
		    m->line, m->name, vf.has_error ? " (it cannot read this"
		    " line)" : "");
		goto out;
	}
	if (vf.has_error)
		buf_printf(&tn->warnings, "%s:%d: the Verilog grammar cannot"
		    " read this line; the ports are what it read\n", path,
		    vf.error_line);
	for (size_t i = 0; i < m->nports; i++)
		if (m->ports[i].width == 0)
			buf_printf(&tn->warnings, "%s:%d: port %s: the width of"
			    " %s is not known without elaboration\n", path,
			    m->ports[i].line, m->ports[i].name,
			    m->ports[i].range);
	t->domain = xstrdup("chip");
	t->benchmark = xstrdup("local");
	t->source = xstrdup(path);
	if (o->testbench != NULL) {
		char *want;

		if (file_read(o->testbench, &tb, &tblen, err) < 0)
			goto out;
		if (tb_reads_given(tb, o->testbench, files, nfiles, err) < 0)
			goto out;
		top = tb_top(tb, tblen);
		if (top == NULL) {
			err_set(err, "%s: no module in the testbench",
			    o->testbench);
			goto out;
		}
		t->env = xstrdup(o->env != NULL ? o->env : "iverilog");
		if (o->equiv_depth > 0) {
			err_set(err, "%s: --equiv-depth bounds the proof of"
			    " a task without a testbench", o->testbench);
			goto out;
		}
		params = json_pack("{s:s, s:i}", "top", top, "timeout_s",
		    o->timeout_s > 0 ? o->timeout_s : TN_TIMEOUT_SIM);
		task_add_file(t, file_base(o->testbench), "testbench", tb,
		    tblen);
		/* the module the testbench instantiates is the task's */
		want = verilog_expected_tops(t);
		if (want != NULL)
			want[strcspn(want, " ")] = '\0';
		if (o->top != NULL && want != NULL &&
		    strcmp(o->top, want) != 0) {
			err_set(err, "%s: the testbench instantiates %s, not"
			    " --top %s", o->testbench, want, o->top);
			free(want);
			json_decref(params);
			goto out;
		}
		tn->module = want != NULL ? want : xstrdup(o->top != NULL ?
		    o->top : m->name);
		if (vh_find(&vf, tn->module) == NULL)
			buf_printf(&tn->warnings, "%s: module %s renamed %s,"
			    " the module %s instantiates\n", path, m->name,
			    tn->module, file_base(o->testbench));
		ref = vh_find(&vf, tn->module) != NULL ? xstrdup(code) :
		    verilog_rename_word(code, m->name, tn->module);
	} else {
		const char *ext = has_suffix(path, ".sv") ? "sv" : "v";
		char *fname;

		t->env = xstrdup(o->env != NULL ? o->env : "yosys");
		if (strcmp(t->env, "yosys") != 0) {
			err_set(err, "%s: without a testbench the task is"
			    " judged by equivalence with yosys, not env %s",
			    path, t->env);
			goto out;
		}
		tn->module = xstrdup(m->name);
		if (!yosys_script_safe(tn->module)) {
			err_set(err, "%s:%d: module name %s cannot go into a"
			    " yosys script", path, m->line, tn->module);
			goto out;
		}
		params = json_pack("{s:b, s:s, s:i}", "equiv", 1, "equiv_top",
		    tn->module, "timeout_s", o->timeout_s > 0 ?
		    o->timeout_s : TN_TIMEOUT_EQUIV);
		if (o->equiv_depth > 0 || is_sequential(code))
			json_object_set_new(params, "equiv_depth",
			    json_integer(o->equiv_depth > 0 ?
			    o->equiv_depth : TASK_NEW_EQUIV_DEPTH_SEQ));
		fname = xasprintf("%s_ref.%s", tn->module, ext);
		task_add_file(t, fname, "reference", code, len);
		free(fname);
		ref = xstrdup(code);
	}
	t->env_params = json_dumps(params, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(params);
	if (add_files(t, files, nfiles, "data", err) < 0)
		goto out;
	t->id = o->id != NULL ? xstrdup(o->id) : xasprintf("local/%s",
	    tn->module);
	if (ident_check_task_id(t->id, err) < 0)
		goto out;
	t->interface = interface_text(m, tn->module);
	tn->nports = m->nports;
	tn->what = "module";
	tn->counted = "ports";
	t->extra = interface_json(m, tn->module);
	if (finish(tn, o, m->comment, ref, "verilog", path, err) < 0)
		goto out;
	rc = 0;
out:
	free(ref);
	free(tb);
	free(top);
	vh_release(&vf);
	return rc;
}

/* The interface of an x86-asm task: the prototype, then where the ABI
 * puts each parameter and the result, and what the arrays are. */
static char *
x86_interface(const struct x86sig *sig, const char *prototype)
{
	static const char *const regs[X86SIG_MAX_PARAMS] = { "rdi", "rsi",
	    "rdx", "rcx", "r8", "r9" };
	struct buf b = BUF_INIT;

	buf_printf(&b, "%s;\n\nSystem V AMD64 ABI:", prototype);
	for (size_t i = 0; i < sig->nparams; i++)
		buf_printf(&b, "%s %s in %s", i > 0 ? "," : "",
		    sig->params[i].name, regs[i]);
	if (sig->nparams == 0)
		buf_adds(&b, " no arguments");
	if (sig->ret != X86SIG_VOID)
		buf_printf(&b, "; the %s result in %s", x86sig_type_name(
		    sig->ret), x86sig_type_size(sig->ret) == 8 ? "rax" :
		    x86sig_type_size(sig->ret) == 4 ? "eax" :
		    x86sig_type_size(sig->ret) == 2 ? "ax" : "al");
	buf_adds(&b, "; rbx, rbp, r12-r15 and rsp kept.\n");
	for (size_t i = 0; i < sig->nparams; i++)
		if (sig->params[i].pointer)
			buf_printf(&b, "%s: an array of %s %s elements (%s).\n",
			    sig->params[i].name, sig->len >= 0 ?
			    sig->params[sig->len].name : "n",
			    x86sig_type_name(sig->params[i].type),
			    sig->params[i].is_const ? "read only" :
			    "written, compared after each call");
	buf_printf(&b, "Checked on %d seeded random cases with edge values"
	    " (seed %d) against the C reference built with gcc -O2.\n",
	    TN_X86_CASES, TN_X86_SEED);
	return buf_detach(&b, NULL);
}

static int
c_task(char *const *files, size_t nfiles, const struct task_new_opts *o,
    const char *code, size_t len, struct task_new *tn, struct err *err)
{
	const char *path = files[0];
	struct cf_file cf;
	const struct cf_func *f = NULL;
	struct task *t = &tn->task;
	struct x86sig sig;
	char *asm_code = NULL;
	size_t asm_len, nglobal = 0;
	json_t *params;
	int rc = -1;

	if (o->testbench != NULL)
		return err_set(err, "%s: a C function is judged against itself"
		    " on generated inputs, not by a testbench", path);
	if (o->env != NULL && strcmp(o->env, "x86-asm") != 0)
		return err_set(err, "%s: a C function becomes an x86-asm task,"
		    " not env %s", path, o->env);
	if (cf_scan(code, len, 0, &cf, err) < 0)
		return -1;
	for (size_t i = 0; i < cf.nfuncs; i++) {
		if (o->top != NULL ? strcmp(cf.funcs[i].name, o->top) == 0 :
		    !cf.funcs[i].is_static) {
			nglobal++;
			if (f == NULL)
				f = &cf.funcs[i];
		}
	}
	if (f == NULL) {
		err_set(err, "%s:%d: %s", path, cf.error_line > 0 ?
		    cf.error_line : 1, o->top != NULL ? "no such function"
		    " (--top)" : "no function defined that is not static");
		goto out;
	}
	if (o->top == NULL && nglobal > 1) {
		err_set(err, "%s:%d: %zu functions that are not static: name"
		    " the task's with --top", path, cf.funcs[0].line, nglobal);
		goto out;
	}
	if (x86sig_parse(f->prototype, NULL, &sig, err) < 0) {
		char *m = xasprintf("%s:%d: %s (%s)", path, f->line, err->msg,
		    f->prototype);

		err_set(err, "%s", m);
		free(m);
		goto out;
	}
	if (o->reference == NULL) {
		err_set(err, "%s: an x86-asm task's reference is assembly: give"
		    " --reference FILE.s (gcc -O2 -S %s makes one)", path,
		    file_base(path));
		goto out;
	}
	if (file_read(o->reference, &asm_code, &asm_len, err) < 0)
		goto out;
	if (memchr(asm_code, '\0', asm_len) != NULL) {
		err_set(err, "%s: a NUL byte: not a text file", o->reference);
		goto out;
	}
	if (cf.error_line > 0)
		buf_printf(&tn->warnings, "%s:%d: the C grammar cannot read"
		    " this line\n", path, cf.error_line);
	tn->module = xstrdup(f->name);
	t->domain = xstrdup("compiler");
	t->benchmark = xstrdup("local");
	t->source = xstrdup(path);
	t->env = xstrdup("x86-asm");
	params = json_pack("{s:s, s:s, s:i, s:i}", "symbol", f->name,
	    "signature", f->prototype, "cases", TN_X86_CASES, "seed",
	    TN_X86_SEED);
	if (o->timeout_s > 0)
		json_object_set_new(params, "timeout_s",
		    json_integer(o->timeout_s));
	t->env_params = json_dumps(params, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(params);
	task_add_file(t, "ref.c", "source", code, len);
	if (add_files(t, files, nfiles, "source", err) < 0)
		goto out;
	t->id = o->id != NULL ? xstrdup(o->id) : xasprintf("local/%s",
	    f->name);
	if (ident_check_task_id(t->id, err) < 0)
		goto out;
	t->interface = x86_interface(&sig, f->prototype);
	tn->nports = sig.nparams;
	tn->what = "function";
	tn->counted = "parameters";
	{
		json_t *x = json_pack("{s:s, s:s}", "function", f->name,
		    "signature", f->prototype);

		t->extra = json_dumps(x, JSON_COMPACT | JSON_PRESERVE_ORDER);
		json_decref(x);
	}
	if (finish(tn, o, f->comment, asm_code, "asm", o->reference, err) < 0)
		goto out;
	rc = 0;
out:
	free(asm_code);
	cf_release(&cf);
	return rc;
}

/* The interface of an nvcc task: the host entries, the kernels, each
 * launch as written and the target's limits. */
static char *
cuda_interface(const struct cf_file *cf, const char *arch)
{
	struct cuda_launch_limits lim;
	struct buf b = BUF_INIT;
	int any = 0;

	for (size_t i = 0; i < cf->nfuncs; i++)
		if (!cf->funcs[i].is_kernel && !cf->funcs[i].is_static) {
			buf_printf(&b, "%s%s;\n", any++ ? "" : "Host entry:\n",
			    cf->funcs[i].prototype);
		}
	any = 0;
	for (size_t i = 0; i < cf->nfuncs; i++)
		if (cf->funcs[i].is_kernel)
			buf_printf(&b, "%s__global__ %s;\n", any++ ? "" :
			    "Kernels:\n", cf->funcs[i].prototype);
	for (size_t i = 0; i < cf->nlaunches; i++)
		buf_printf(&b, "%s%s%s in %s (line %d)\n", i == 0 ?
		    "Launches:\n" : "", cf->launches[i].kernel,
		    cf->launches[i].config, cf->launches[i].caller != NULL ?
		    cf->launches[i].caller : "file scope",
		    cf->launches[i].line);
	nvcc_limits(arch, &lim);
	buf_printf(&b, "Launch limits of %s: gridDim.x <= %lld, gridDim.y and"
	    " .z <= %lld; blockDim.x and .y <= %lld, .z <= %lld, %lld threads"
	    " a block; static __shared__ memory <= %lld bytes a block",
	    arch, lim.grid_x, lim.grid_yz, lim.block_xy, lim.block_z,
	    lim.threads, lim.smem_static);
	if (lim.smem_optin > 0)
		buf_printf(&b, ", dynamic with the opt-in <= %lld",
		    lim.smem_optin);
	buf_adds(&b, ".\n");
	return buf_detach(&b, NULL);
}

static int
cuda_task(char *const *files, size_t nfiles, const struct task_new_opts *o,
    const char *code, size_t len, struct task_new *tn, struct err *err)
{
	const char *path = files[0], *arch = o->arch != NULL ? o->arch :
	    "sm_90";
	struct cf_file cf;
	const struct cf_func *entry = NULL, *kernel = NULL;
	struct task *t = &tn->task;
	json_t *params, *x;
	int rc = -1;

	if (o->env != NULL && strcmp(o->env, "nvcc") != 0)
		return err_set(err, "%s: a CUDA kernel becomes an nvcc task,"
		    " not env %s", path, o->env);
	if (!nvcc_arch_ok(arch))
		return err_set(err, "--arch %s is not a target like sm_90",
		    arch);
	if (cf_scan(code, len, 1, &cf, err) < 0)
		return -1;
	for (size_t i = 0; i < cf.nfuncs; i++) {
		const struct cf_func *f = &cf.funcs[i];

		if (f->is_kernel && kernel == NULL)
			kernel = f;
		if (!f->is_kernel && !f->is_static && (o->top == NULL ?
		    entry == NULL : strcmp(f->name, o->top) == 0))
			entry = f;
	}
	if (kernel == NULL) {
		err_set(err, "%s:%d: no __global__ kernel", path,
		    cf.error_line > 0 ? cf.error_line : 1);
		goto out;
	}
	if (o->top != NULL && entry == NULL) {
		err_set(err, "%s: no host function %s (--top)", path, o->top);
		goto out;
	}
	if (cf.nlaunches == 0)
		buf_printf(&tn->warnings, "%s: no launch of a kernel: the"
		    " launch check has nothing to hold to the limits\n", path);
	if (cf.error_line > 0)
		buf_printf(&tn->warnings, "%s:%d: the CUDA grammar cannot read"
		    " this line\n", path, cf.error_line);
	tn->module = xstrdup(entry != NULL ? entry->name : kernel->name);
	t->domain = xstrdup("gpu");
	t->benchmark = xstrdup("local");
	t->source = xstrdup(path);
	t->env = xstrdup("nvcc");
	params = json_pack("{s:s}", "arch", arch);
	if (o->testbench != NULL) {
		char *h;
		size_t hl;

		if (file_read(o->testbench, &h, &hl, err) < 0) {
			json_decref(params);
			goto out;
		}
		json_object_set_new(params, "harness",
		    json_string(file_base(o->testbench)));
		task_add_file(t, file_base(o->testbench), "source", h, hl);
		free(h);
	}
	if (o->timeout_s > 0)
		json_object_set_new(params, "timeout_s",
		    json_integer(o->timeout_s));
	t->env_params = json_dumps(params, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(params);
	if (add_files(t, files, nfiles, "source", err) < 0)
		goto out;
	t->id = o->id != NULL ? xstrdup(o->id) : xasprintf("local/%s",
	    tn->module);
	if (ident_check_task_id(t->id, err) < 0)
		goto out;
	t->interface = cuda_interface(&cf, arch);
	tn->nports = cf.nlaunches;
	tn->what = "entry";
	tn->counted = "launches";
	x = json_pack("{s:s, s:s, s:[]}", "entry", tn->module, "arch", arch,
	    "launches");
	for (size_t i = 0; i < cf.nlaunches; i++)
		json_array_append_new(json_object_get(x, "launches"),
		    json_pack("{s:s, s:s, s:i}", "kernel",
		    cf.launches[i].kernel, "config", cf.launches[i].config,
		    "line", cf.launches[i].line));
	t->extra = json_dumps(x, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(x);
	if (finish(tn, o, entry != NULL && entry->comment != NULL ?
	    entry->comment : kernel->comment, code, "cuda", path, err) < 0)
		goto out;
	rc = 0;
out:
	cf_release(&cf);
	return rc;
}

#define TN_CAD_INTERFACE "One solid, millimetres: STEP (ISO 10303-21) text," \
	" or a CadQuery script that leaves it in `result`.\n"

/*
 * The comment a Python script opens with: its leading "#" lines (not a
 * "#!" line), markers removed, or its module docstring.  New string, or
 * NULL.  Read from the text: assay links no Python grammar.
 */
static char *
py_comment(const char *code)
{
	static const char dq[] = "\"\"\"", sq[] = "'''";
	struct buf b = BUF_INIT;
	const char *p = code;

	while (*p == '\n' || (p[0] == '#' && p[1] == '!')) {
		p = strchr(p, '\n');
		p = p != NULL ? p + 1 : "";
	}
	if (strncmp(p, dq, 3) == 0 || strncmp(p, sq, 3) == 0) {
		const char *e = strstr(p + 3, p[0] == '"' ? dq : sq);
		const char *a = p + 3;

		while (e != NULL && a < e && (*a == '\n' || *a == ' '))
			a++;
		if (e != NULL)
			buf_add(&b, a, (size_t)(e - a));
		while (b.len > 0 && (b.p[b.len - 1] == '\n' ||
		    b.p[b.len - 1] == ' '))
			b.len--;
		if (b.len > 0)
			buf_addc(&b, '\n');
	} else {
		while (*p == '#') {
			const char *nl = strchr(p, '\n');
			size_t l = nl != NULL ? (size_t)(nl - p) : strlen(p);

			p++;
			l--;
			if (l > 0 && *p == ' ') {
				p++;
				l--;
			}
			buf_add(&b, p, l);
			buf_addc(&b, '\n');
			p += l;
			if (*p == '\n')
				p++;
		}
	}
	return b.len > 0 ? buf_detach(&b, NULL) : (buf_release(&b), NULL);
}

/* A CadQuery script (.py) or a STEP file (.step, .stp, step 1) as a cad
 * task whose reference solid it is. */
static int
cad_task(char *const *files, size_t nfiles, const struct task_new_opts *o,
    const char *code, size_t len, int step, struct task_new *tn,
    struct err *err)
{
	const char *path = files[0];
	struct task *t = &tn->task;
	char *comment = NULL, *stem;
	json_t *params;
	int rc = -1;

	if (o->testbench != NULL)
		return err_set(err, "%s: a solid is judged by its IoU with the"
		    " reference, not by a testbench", path);
	if (o->env != NULL && strcmp(o->env, "cad") != 0)
		return err_set(err, "%s: a solid becomes a cad task, not env"
		    " %s", path, o->env);
	if (nfiles > 1)
		return err_set(err, "%s: a cad task has one file, the"
		    " reference solid", files[1]);
	if (step && strncmp(code, "ISO-10303-21", 12) != 0)
		return err_set(err, "%s:1: not STEP text: no ISO-10303-21"
		    " header", path);
	if (!step && strstr(code, "cadquery") == NULL)
		return err_set(err, "%s: a Python script that does not import"
		    " cadquery", path);
	stem = xstrdup(file_base(path));
	stem[strcspn(stem, ".")] = '\0';
	tn->module = stem;
	tn->what = "solid";
	tn->counted = NULL;
	t->domain = xstrdup("3d");
	t->benchmark = xstrdup("local");
	t->source = xstrdup(path);
	t->env = xstrdup("cad");
	params = json_pack("{s:f}", "iou_min", 0.9);
	if (!step)
		json_object_set_new(params, "reference",
		    json_string("reference.py"));
	if (o->timeout_s > 0)
		json_object_set_new(params, "timeout_s",
		    json_integer(o->timeout_s));
	t->env_params = json_dumps(params, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(params);
	task_add_file(t, step ? "reference.step" : "reference.py",
	    "reference", code, len);
	t->id = o->id != NULL ? xstrdup(o->id) : xasprintf("local/%s", stem);
	if (ident_check_task_id(t->id, err) < 0)
		goto out;
	t->interface = xstrdup(TN_CAD_INTERFACE);
	if (!step)
		comment = py_comment(code);
	if (finish(tn, o, comment, code, step ? "step" : "python", path,
	    err) < 0)
		goto out;
	rc = 0;
out:
	free(comment);
	return rc;
}

int
task_new_build(char *const *files, size_t nfiles,
    const struct task_new_opts *o, struct task_new *out, struct err *err)
{
	char *code;
	size_t len;
	int rc;

	memset(out, 0, sizeof *out);
	buf_init(&out->warnings);
	if (nfiles == 0)
		return err_set(err, "no file");
	if (!has_suffix(files[0], ".v") && !has_suffix(files[0], ".sv") &&
	    !has_suffix(files[0], ".c") && !has_suffix(files[0], ".cu") &&
	    !has_suffix(files[0], ".py") && !has_suffix(files[0], ".step") &&
	    !has_suffix(files[0], ".stp"))
		return err_set(err, "%s: not Verilog or SystemVerilog (.v,"
		    " .sv), C (.c), CUDA (.cu), a CadQuery script (.py) or a"
		    " STEP file (.step, .stp)", files[0]);
	if (file_read(files[0], &code, &len, err) < 0)
		return -1;
	if (memchr(code, '\0', len) != NULL) {
		free(code);
		return err_set(err, "%s: a NUL byte: not a text file",
		    files[0]);
	}
	if (has_suffix(files[0], ".c"))
		rc = c_task(files, nfiles, o, code, len, out, err);
	else if (has_suffix(files[0], ".cu"))
		rc = cuda_task(files, nfiles, o, code, len, out, err);
	else if (has_suffix(files[0], ".py") || has_suffix(files[0], ".step")
	    || has_suffix(files[0], ".stp"))
		rc = cad_task(files, nfiles, o, code, len,
		    !has_suffix(files[0], ".py"), out, err);
	else
		rc = verilog_task(files, nfiles, o, code, len, out, err);
	free(code);
	return rc;
}

void
task_new_release(struct task_new *tn)
{
	task_release(&tn->task);
	candidate_release(&tn->ref);
	free(tn->module);
	buf_release(&tn->warnings);
	memset(tn, 0, sizeof *tn);
}

char *
task_new_jsonl(const struct task_new *tn, struct err *err)
{
	json_t *t = codec_task(&tn->task, &tn_codec, err), *row;
	char *s;

	if (t == NULL)
		return NULL;
	json_object_set_new(t, "reference", codec_text(tn->ref.code,
	    tn->ref.code_len));
	row = json_pack("{s:o}", "task", t);
	s = json_dumps(row, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(row);
	return s;
}

int
task_new_read_back(struct task_new *tn, const char *text, struct err *err)
{
	json_error_t je;
	json_t *row = json_loads(text, 0, &je), *to;
	struct task t;
	const char *ref;

	if (row == NULL)
		return err_set(err, "line %d, column %d: %s", je.line,
		    je.column, je.text);
	to = json_object_get(row, "task");
	ref = json_string_value(json_object_get(to, "reference"));
	if (!json_is_object(to) || ref == NULL || *ref == '\0') {
		json_decref(row);
		return err_set(err, "no \"task\" with its \"reference\"");
	}
	if (codec_task_parse(to, &tn_codec, &t, err) < 0 ||
	    ident_check_task_id(t.id, err) < 0) {
		task_release(&t);
		json_decref(row);
		return -1;
	}
	if (t.source == NULL)
		t.source = tn->task.source != NULL ?
		    xstrdup(tn->task.source) : NULL;
	task_release(&tn->task);
	tn->task = t;
	free(tn->ref.task_id);
	tn->ref.task_id = xstrdup(t.id);
	free(tn->ref.code);
	tn->ref.code = NULL;
	import_set_code(&tn->ref, ref);
	tn->skeleton = t.spec == NULL || strstr(t.spec, TASK_NEW_SKELETON)
	    != NULL;
	json_decref(row);
	return 0;
}

/* A Verilog module of tn's ports whose outputs are all 0 (ones: all 1),
 * from the task's extra (interface_json()). */
static char *
verilog_stub(const struct task_new *tn, int ones)
{
	json_t *x = tn->task.extra != NULL ? json_loads(tn->task.extra, 0,
	    NULL) : NULL;
	json_t *ports = json_object_get(x, "ports"), *params =
	    json_object_get(x, "parameters"), *e;
	struct buf b = BUF_INIT;
	size_t i;

	if (!json_is_array(ports) || json_array_size(ports) == 0) {
		json_decref(x);
		return NULL;
	}
	buf_printf(&b, "module %s", tn->module);
	json_array_foreach(params, i, e) {
		const char *v = json_string_value(json_object_get(e, "value"));

		buf_printf(&b, "%sparameter %s = %s", i == 0 ? " #(" : ", ",
		    json_string_value(json_object_get(e, "name")),
		    v != NULL ? v : "1");
	}
	if (json_array_size(params) > 0)
		buf_adds(&b, ")");
	buf_adds(&b, " (");
	json_array_foreach(ports, i, e) {
		const char *range = json_string_value(json_object_get(e,
		    "range"));
		const char *unp = json_string_value(json_object_get(e,
		    "unpacked"));

		buf_printf(&b, "%s%s%s%s%s %s%s", i > 0 ? ", " : "",
		    json_string_value(json_object_get(e, "dir")),
		    json_is_true(json_object_get(e, "signed")) ? " signed" :
		    "", range != NULL ? " " : "", range != NULL ? range : "",
		    json_string_value(json_object_get(e, "name")),
		    unp != NULL ? unp : "");
	}
	buf_adds(&b, ");\n");
	json_array_foreach(ports, i, e)
		if (strcmp(json_string_value(json_object_get(e, "dir")),
		    "output") == 0 && json_object_get(e, "unpacked") == NULL)
			buf_printf(&b, "  assign %s = %s;\n", json_string_value(
			    json_object_get(e, "name")), ones ? "~0" : "0");
	buf_adds(&b, "endmodule\n");
	json_decref(x);
	return buf_detach(&b, NULL);
}

char *
task_new_stub(const struct task_new *tn, int ones)
{
	const char *env = tn->task.env;

	if (env == NULL || tn->module == NULL)
		return NULL;
	if (strcmp(tn->task.domain, "chip") == 0)
		return verilog_stub(tn, ones);
	if (strcmp(env, "x86-asm") == 0)
		return xasprintf("\t.text\n\t.globl\t%s\n\t.type\t%s, @function\n"
		    "%s:\n\t%s\n\tret\n\t.size\t%s, .-%s\n"
		    "\t.section\t.note.GNU-stack,\"\",@progbits\n", tn->module,
		    tn->module, tn->module, ones ? "movq\t$-1, %rax" :
		    "xorl\t%eax, %eax", tn->module, tn->module);
	return NULL;
}
