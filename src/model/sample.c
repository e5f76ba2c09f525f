/* sample.c - release helpers for the plain structs of sample.h. */
#include "model/sample.h"

#include <stdlib.h>
#include <string.h>

#include "base/err.h"

void
task_release(struct task *t)
{
	if (t == NULL)
		return;
	free(t->id);
	free(t->benchmark);
	free(t->domain);
	free(t->env);
	free(t->env_params);
	free(t->spec);
	free(t->interface);
	free(t->source);
	free(t->extra);
	free(t->license);
	free(t->license_source);
	free(t->split);
	for (size_t i = 0; i < t->nfiles; i++) {
		free(t->files[i].name);
		free(t->files[i].role);
		free(t->files[i].data);
	}
	free(t->files);
	memset(t, 0, sizeof *t);
}

void
candidate_release(struct candidate *c)
{
	if (c == NULL)
		return;
	free(c->id);
	free(c->task_id);
	free(c->origin);
	free(c->origin_raw);
	free(c->kind);
	free(c->lang);
	free(c->parent);
	free(c->source);
	free(c->code);
	free(c->extra);
	memset(c, 0, sizeof *c);
}

void
recorded_release(struct recorded *r)
{
	if (r == NULL)
		return;
	free(r->verdict);
	free(r->stage);
	free(r->log);
	free(r->extra);
	memset(r, 0, sizeof *r);
}

void
diag_release(struct diag *d)
{
	if (d == NULL)
		return;
	free(d->file);
	free(d->severity);
	free(d->message);
	memset(d, 0, sizeof *d);
}

void
run_release(struct run *r)
{
	if (r == NULL)
		return;
	free(r->cand_id);
	free(r->env);
	free(r->verdict);
	free(r->stage);
	free(r->subcategory);
	free(r->category);
	free(r->evidence);
	free(r->command);
	free(r->toolchain);
	free(r->inputs);
	free(r->metrics);
	free(r->feedback);
	free(r->wave);
	free(r->log);
	for (size_t i = 0; i < r->ndiags; i++)
		diag_release(&r->diags[i]);
	free(r->diags);
	memset(r, 0, sizeof *r);
}

void
task_add_file(struct task *t, const char *name, const char *role,
    const char *data, size_t len)
{
	struct task_file *f;

	t->files = xreallocarray(t->files, t->nfiles + 1, sizeof *t->files);
	f = &t->files[t->nfiles++];
	f->name = xstrdup(name);
	f->role = xstrdup(role);
	f->data = xstrndup(data, len);
	f->len = len;
}

const struct task_file *
task_file_by_role(const struct task *t, const char *role)
{
	for (size_t i = 0; i < t->nfiles; i++)
		if (strcmp(t->files[i].role, role) == 0)
			return &t->files[i];
	return NULL;
}

const struct task_file *
task_file_by_name(const struct task *t, const char *name)
{
	for (size_t i = 0; i < t->nfiles; i++)
		if (strcmp(t->files[i].name, name) == 0)
			return &t->files[i];
	return NULL;
}

void
run_add_diag(struct run *r, const char *file, int line, int col,
    const char *severity, const char *message, int cand_line)
{
	struct diag *d;

	r->diags = xreallocarray(r->diags, r->ndiags + 1, sizeof *r->diags);
	d = &r->diags[r->ndiags++];
	d->file = xstrdup(file);
	d->line = line;
	d->col = col;
	d->severity = xstrdup(severity);
	d->message = xstrdup(message);
	d->cand_line = cand_line;
}
