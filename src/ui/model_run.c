/*
 * model_run.c - R, :repair and :generate: the model in the loop run in
 * the workbench's own process, through the round loop service
 * (generate/loop.h) the generate and repair commands drive (ADR 0039).
 *
 * The frame loop polls its fds (the asking thread's pipe, then the
 * verification's jobs) and steps it; the toolchain pane shows what the
 * commands print with --show: each request's feedback, each answer,
 * the round's summary, each verified run.  When it ends, the repair R
 * made is announced on the status line with the key that goes to it,
 * never selected (the cursor moves only by the reviewer's keys), and
 * the view is read again.  The generator is the config file's
 * (`generator ...` lines, model.h); the reviewer runs it and is the
 * journal's who; its answers are stored by the decision layer's rule
 * (decide_repair_make()).
 */
#include "ui/wb.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/config.h"
#include "generate/loop.h"
#include "generate/model.h"
#include "model/vocab.h"
#include "ui/panes/term.h"

/* The run in progress, owned by wb->mrun. */
struct mrun {
	struct gloop		*gl;
	struct model_cfg	 cfg;
	char			 model[128];
	char			 verb[16];	/* "repair", "generate" */
	char			*parent;	/* R: the candidate repaired */
	char			*made;		/* the last candidate made */
	size_t			 added, asked, failed;
	size_t			 runs;		/* verified runs */
	int			 cancelled;
};

/* --- the loop's hooks: what the commands print, into the pane --------- */

static void
on_asking(void *arg, const char *cand_id, int round, const char *feedback)
{
	struct wb *wb = arg;
	char *t = gloop_request_text(wb->mrun->model, cand_id, round,
	    feedback);

	term_pane_print(wb, t);
	free(t);
}

static void
on_answered(void *arg, size_t done, size_t n)
{
	struct wb *wb = arg;

	wb_msg(wb, 0, "%s: %zu/%zu answered", wb->mrun->model, done, n);
}

/* A request waits to try again: the status bar and the pane say so (a
 * server that answers 429 is slow, not stuck). */
static void
on_waiting(void *arg, const char *why, long wait_ms, int next_try)
{
	struct wb *wb = arg;
	char *t;

	wb_msg(wb, 0, "%s: %s; try %d in %.1f s", wb->mrun->model, why,
	    next_try, (double)wait_ms / 1000.0);
	t = xasprintf("retry: %s; try %d in %.1f s", why, next_try,
	    (double)wait_ms / 1000.0);
	term_pane_say(wb, "33", t);
	free(t);
}

static void
on_stored(void *arg, int round, const struct gen_report *rep)
{
	struct wb *wb = arg;
	struct mrun *m = wb->mrun;
	char *t;

	for (size_t i = 0; i < rep->nids; i++) {
		if (rep->is_new[i]) {
			free(m->made);
			m->made = xstrdup(rep->ids[i]);
		} else if (m->made == NULL) {
			m->made = xstrdup(rep->ids[i]);
		}
		t = gloop_answer_text(wb->st, rep, i);
		term_pane_print(wb, t);
		free(t);
	}
	for (size_t i = 0; i < rep->failed; i++) {
		t = xasprintf("assay: %s", rep->errors[i]);
		term_pane_say(wb, "31", t);
		free(t);
	}
	t = gloop_summary_text(m->verb, rep, strcmp(m->verb, "repair") == 0 ?
	    round : 0);
	t[strcspn(t, "\n")] = '\0';	/* one line */
	term_pane_say(wb, NULL, t);
	free(t);
	m->added += rep->added;
	m->asked += rep->asked;
	m->failed += rep->failed;
	wb_view_changed(wb);	/* the new rows; the cursor stays */
}

static void
on_verified(void *arg, int round, const struct gen_report *rep,
    size_t passed, const struct vsvc_summary *vs)
{
	struct wb *wb = arg;
	size_t ran, again = 0;
	char *t;

	(void)round;
	if (rep->nids == 0)
		return;	/* nothing was to verify: no answer, or only the
			 * code handed back */
	/* what ran: an answer whose code was stored before is not run
	 * again (its run stands), which "verified 1" claimed it was */
	for (size_t i = 0; i < rep->nids; i++)
		again += !rep->is_new[i];
	ran = vs != NULL ? vs->done : rep->nids - again;
	if (ran > rep->nids - again)
		ran = rep->nids - again;	/* a reference the batch ran */
	if (again > 0)
		t = xasprintf("verified %zu: %zu of %zu pass (%zu the same "
		    "code as before, not run again)", ran, passed, rep->nids,
		    again);
	else
		t = xasprintf("verified %zu: %zu pass", ran, passed);
	term_pane_say(wb, NULL, t);
	free(t);
}

static void
on_run(void *arg, const struct vsvc_result *res)
{
	struct wb *wb = arg;
	char line[512];

	wb->mrun->runs++;
	/* the verdict, marked as assay's: a model's answer can hold the
	 * same words ("[1/1] c... pass"), never the mark */
	term_pane_say(wb, "1", vsvc_result_line(res, line, sizeof line));
	wb_view_changed(wb);
}

static void
on_problem(void *arg, enum vsvc_problem what, const char *id,
    const char *msg)
{
	struct wb *wb = arg;
	char *t;

	(void)what;
	t = xasprintf("assay: %s%s%s", id != NULL ? id : "",
	    id != NULL ? ": " : "", msg);
	term_pane_say(wb, "31", t);
	free(t);
}

/* --- start, step, end ----------------------------------------------------- */

static void
mrun_free(struct mrun *m)
{
	if (m == NULL)
		return;
	gloop_free(m->gl);
	model_cfg_release(&m->cfg);
	free(m->parent);
	free(m->made);
	free(m);
}

/*
 * The generator of the config file, checked: a new run with its name, or
 * NULL after a message.
 */
static struct mrun *
mrun_new(struct wb *wb, const char *what)
{
	struct mrun *m;
	struct err err;
	char *path = config_path("config");

	if (wb->mrun != NULL) {
		wb_msg(wb, 1, "%s: a model run is going on (x cancels it)",
		    what);
		free(path);
		return NULL;
	}
	m = xcalloc(1, sizeof *m);
	model_cfg_init(&m->cfg);
	if ((path != NULL && model_cfg_load(&m->cfg, path, &err) < 0) ||
	    model_cfg_check(&m->cfg, &err) < 0) {
		wb_msg(wb, 1, "%s: %s", what, err.msg);
		free(path);
		mrun_free(m);
		return NULL;
	}
	free(path);
	{
		char name[128];

		snprintf(m->model, sizeof m->model, "%s", model_name(&m->cfg,
		    name, sizeof name));
	}
	return m;
}

/* Start m over ids in the pane titled title.  0, or -1 with a message. */
static int
mrun_go(struct wb *wb, struct mrun *m, enum gloop_kind kind, int count,
    char **ids, size_t n, const char *title)
{
	struct gen_ctx g = { wb->st, &m->cfg, wb->reviewer };
	struct gloop_opts o = { .kind = kind, .samples = count,
	    .rounds = count, .jobs = 4, .verify = 1 };
	struct gloop_hooks h = { .asking = on_asking,
	    .answered = on_answered, .waiting = on_waiting,
	    .stored = on_stored, .verified = on_verified, .arg = wb };
	struct err err;

	/* verified as `assay verify` would, waiting for a held lock here */
	o.vo.vo = wb->vopts;
	o.vo.jobs = 4;
	o.vo.claim = 1;
	o.vo.refs = VSVC_REFS_ALL;
	o.vo.lock_wait_ms = WB_RUN_WAIT_MS;
	h.verify.finished = on_run;
	h.verify.problem = on_problem;
	if (term_pane_claim(wb, title) < 0) {
		mrun_free(m);
		return -1;
	}
	if (gloop_new(&m->gl, &g, &o, &h, ids, n, &err) < 0) {
		wb_msg(wb, 1, "%s: %s", title, err.msg);
		term_pane_release(wb);
		mrun_free(m);
		return -1;
	}
	wb->mrun = m;
	wb->job_last = WB_JOB_MODEL;
	if (gloop_start(m->gl) == 1)
		mrun_step(wb);	/* over at once: say so */
	return 0;
}

/* The run is over: say how it went, announce what it made. */
static void
mrun_end(struct wb *wb)
{
	struct mrun *m = wb->mrun;
	const char *error = gloop_error(m->gl);
	char key[16] = "";
	int k;

	if (keymap_keys(&wb->km, KEYMAP_GLOBAL, ACTION_GOTO_NEW, &k, 1) > 0)
		keymap_key_name(k, key, sizeof key);
	if (m->made != NULL) {
		free(wb->made);
		wb->made = xstrdup(m->made);
	}
	term_pane_release(wb);
	if (error != NULL) {
		wb_msg(wb, 1, "the model run stopped: %s", error);
	} else if (m->parent != NULL && m->made != NULL) {
		/* announced, never selected: the cursor moves only by the
		 * reviewer's keys (issue 24) */
		struct run r;
		char *v = NULL;

		if (store_run_latest(wb->st, m->made, &r, NULL) == 0) {
			v = xstrdup(r.verdict);
			run_release(&r);
		}
		wb_msg(wb, 0, "repair %s of %s by the model: %s%s%s%s",
		    m->made, m->parent, v != NULL ? v : "not verified",
		    *key ? " (" : "", key, *key ? " goes to it)" : "");
		free(v);
	} else if (m->parent != NULL && m->cancelled) {
		wb_msg(wb, 0, "the model run is cancelled: no repair of %s "
		    "made", m->parent);
	} else if (m->parent != NULL) {
		wb_msg(wb, 1, "the model made no repair of %s: see the "
		    "toolchain pane", m->parent);
	} else {
		wb_msg(wb, m->failed > 0, "the model run is %s: %zu asked, %zu "
		    "new%s%s%s; its output is in the toolchain pane until you"
		    " move", m->cancelled ? "cancelled" : "done", m->asked,
		    m->added, m->made != NULL && *key ? " (" : "",
		    m->made != NULL ? key : "", m->made != NULL && *key ?
		    " goes to the last)" : "");
	}
	mrun_free(m);
	wb->mrun = NULL;
	wb_view_changed(wb);
}

int
mrun_running(const struct wb *wb)
{
	return wb->mrun != NULL;
}

void
mrun_pollfds(struct wb *wb, struct wb_pollset *ps)
{
	struct pollfd *fds;
	size_t n;

	if (wb->mrun == NULL)
		return;
	n = gloop_pollfds(wb->mrun->gl, &fds);
	for (size_t i = 0; i < n; i++)
		wb_pollset_add(ps, fds[i].fd, POLLIN);
}

int
mrun_timeout(const struct wb *wb)
{
	return wb->mrun != NULL ? gloop_timeout_ms(wb->mrun->gl) : -1;
}

void
mrun_step(struct wb *wb)
{
	if (wb->mrun == NULL)
		return;
	if (gloop_step(wb->mrun->gl) == 1)
		mrun_end(wb);
	wb->dirty = 1;
}

void
mrun_cancel(struct wb *wb)
{
	if (wb->mrun == NULL)
		return;
	wb->mrun->cancelled = 1;
	gloop_cancel(wb->mrun->gl);
	wb_msg(wb, 0, "cancelling the model run: what is asked now is still"
	    " stored, nothing more is asked");
}

void
mrun_stop(struct wb *wb)
{
	mrun_free(wb->mrun);
	wb->mrun = NULL;
}

/* --- R, :repair, :generate ---------------------------------------------- */

int
mrun_repair_one(struct wb *wb)
{
	struct mrun *m;
	struct err err;
	char *leaf = NULL, title[96];
	int rc;

	if (wb->cur.id == NULL || wb->cur.row.id == NULL) {
		wb_msg(wb, 1, "no candidate selected");
		return -1;
	}
	if ((m = mrun_new(wb, "R")) == NULL)
		return -1;
	if (gen_repair_leaf(wb->st, m->model, &wb->cur.row, &leaf,
	    &err) < 0) {
		wb_msg(wb, 1, "R: %s", err.msg);
		mrun_free(m);
		return -1;
	}
	if (leaf == NULL) {
		wb_msg(wb, 1, "nothing to repair: %s did not fail, its task's "
		    "reference does not pass, or %s's newest repair of it "
		    "passes", wb->cur.id, m->model);
		mrun_free(m);
		return -1;
	}
	m->parent = xstrdup(wb->cur.id);
	snprintf(m->verb, sizeof m->verb, "repair");
	snprintf(title, sizeof title, "model repair \xc2\xb7 %s", wb->cur.id);
	rc = mrun_go(wb, m, GLOOP_REPAIR, 1, &leaf, 1, title);
	if (rc == 0 && wb->mrun != NULL)
		wb_msg(wb, 0, "asking the model for a repair of %s ...", leaf);
	free(leaf);
	return rc;
}

/* What a :repair or :generate runs over: the repair leaves or the tasks
 * of the rows it is handed (store_query_each). */
struct gather {
	struct store	*st;
	const char	*model;
	int		 tasks;		/* gather tasks, not leaves */
	char		**v;
	size_t		 n;
	struct err	*err;
};

static void
gather_add(struct gather *g, const char *id)
{
	for (size_t i = 0; i < g->n; i++)
		if (strcmp(g->v[i], id) == 0)
			return;
	g->v = xreallocarray(g->v, g->n + 1, sizeof *g->v);
	g->v[g->n++] = xstrdup(id);
}

static int
gather_row(const struct store_row *row, void *arg)
{
	struct gather *g = arg;
	char *leaf;

	if (g->tasks) {
		gather_add(g, row->task);
		return 0;
	}
	if (gen_repair_leaf(g->st, g->model, row, &leaf, g->err) < 0)
		return 1;
	if (leaf != NULL)
		gather_add(g, leaf);
	free(leaf);
	return 0;
}

static int
gather_empty(const char *task_id, void *arg)
{
	gather_add(arg, task_id);
	return 0;
}

int
mrun_start(struct wb *wb, const char *verb, const char *count)
{
	int repair = strcmp(verb, "repair") == 0;
	struct mrun *m;
	struct err err;
	struct gather g = { wb->st, NULL, !repair, NULL, 0, &err };
	char title[96];
	int n = count != NULL && *count != '\0' ? atoi(count) : 1, rc = 0;

	if (n < 1 || n > (repair ? 100 : 1000)) {
		wb_msg(wb, 1, ":%s takes %s 1..%d", verb, repair ? "rounds" :
		    "samples per task", repair ? 100 : 1000);
		return -1;
	}
	if ((m = mrun_new(wb, verb)) == NULL)
		return -1;
	g.model = m->model;
	snprintf(m->verb, sizeof m->verb, "%s", verb);
	for (size_t i = 0; rc >= 0 && i < wb->nmarks; i++) {
		char *f = xasprintf("id=%s", wb->marks[i]);

		rc = store_query_each(wb->st, f, gather_row, &g, &err);
		free(f);
	}
	if (rc >= 0 && wb->nmarks == 0) {
		rc = store_query_each(wb->st, wb->filter, gather_row, &g, &err);
		/* generate with no filter: the tasks with no candidate too */
		if (rc >= 0 && !repair && wb->filter == NULL)
			rc = store_task_each_empty(wb->st, gather_empty, &g,
			    &err);
	}
	if (rc < 0 || g.n == 0) {
		if (rc < 0)
			wb_msg(wb, 1, ":%s: %s", verb, err.msg);
		else
			wb_msg(wb, 0, ":%s: %s", verb, repair ? "no failed "
			    "candidate to repair" : "no task");
		strv_free(g.v, g.n);
		mrun_free(m);
		return -1;
	}
	snprintf(title, sizeof title, "model %s \xc2\xb7 %s", verb,
	    wb->nmarks > 0 ? "marked" : "view");
	rc = mrun_go(wb, m, repair ? GLOOP_REPAIR : GLOOP_GENERATE, n, g.v,
	    g.n, title);
	if (rc == 0 && wb->mrun != NULL)
		wb_msg(wb, 0, "%s over the %s (%zu): it runs in the toolchain "
		    "pane; moving and deciding go on", verb, wb->nmarks > 0 ?
		    "marked candidates" : "view", g.n);
	strv_free(g.v, g.n);
	return rc;
}
