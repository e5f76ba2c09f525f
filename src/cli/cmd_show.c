/*
 * cmd_show.c - `assay show`: show one candidate whole.  Moved from cli.c.
 */
#include "cli/cli_shared.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/err.h"
#include "model/codec.h"
#include "model/feedback.h"
#include "store/store.h"
#include "verify/pipeline.h"

/* A run as show --json writes it: the codec's, its pipeline's members
 * as the trace pane shows them, and its log. */
static json_t *
run_json(const struct run *r)
{
	static const struct codec_ctx x = { .profile = CODEC_SHOW };
	json_t *o = codec_run(r, &x);
	struct pipeline_step *st;
	size_t n;

	if (pipeline_steps(r->env, r->metrics, &st, &n) == 0) {
		json_t *a = json_array();

		for (size_t i = 0; i < n; i++) {
			json_t *stages = json_array();

			for (size_t k = 0; k < st[i].nstages; k++)
				json_array_append_new(stages,
				    json_string(st[i].stages[k]));
			json_array_append_new(a, json_pack("{s:s, s:s, s:o,"
			    " s:o, s:o}", "env", st[i].env, "verdict",
			    st[i].verdict, "stage", codec_str(st[i].stage),
			    "subcategory", codec_str(st[i].subcategory),
			    "stages", stages));
		}
		json_object_set_new(o, "pipeline", a);
		pipeline_steps_free(st, n);
	}
	codec_put_shown(o, "log", r->log, r->log_len);
	return o;
}

/* A pipeline run's members, one line each: its stages, verdict, metrics. */
static void
print_pipeline(FILE *o, const struct run *r)
{
	struct pipeline_step *st;
	size_t n;

	if (pipeline_steps(r->env, r->metrics, &st, &n) < 0)
		return;
	fprintf(o, "pipeline %s:\n", r->env);
	for (size_t i = 0; i < n; i++) {
		fprintf(o, "  %-10s %-9s", st[i].env, st[i].verdict);
		for (size_t k = 0; k < st[i].nstages; k++)
			fprintf(o, " %s %s", st[i].stages[k],
			    pipeline_step_failed(&st[i], k) ? "\xe2\x9c\x97" :
			    "\xe2\x9c\x93");
		if (st[i].subcategory != NULL)
			fprintf(o, "  %s", st[i].subcategory);
		if (st[i].metrics != NULL && *st[i].metrics != '\0')
			fprintf(o, "  (%s)", st[i].metrics);
		fprintf(o, "\n");
	}
	pipeline_steps_free(st, n);
}

/*
 * A diagnostic as a compiler prints it: "file:line: severity: message",
 * "file: severity: message" without a line, "severity: message" without
 * a file (a note of the env's own, a linker error).
 */
static void
print_diag(FILE *o, const struct diag *d)
{
	fprintf(o, "  ");
	if (d->file != NULL && d->file[0] != '\0') {
		fprintf(o, "%s:", d->file);
		if (d->line > 0)
			fprintf(o, "%d:", d->line);
		fprintf(o, " ");
	}
	fprintf(o, "%s: %s%s\n", d->severity, d->message, d->cand_line > 0 ?
	    "  <- candidate" : "");
}

static const struct cmd_opt show_opts[] = {
	{ "json", 0, CMD_FLAG, 'j' },
	{ NULL, 0, CMD_FLAG, 0 }
};

/* "note      TEXT (BY)", a note of several lines indented under its
 * first, so that it cannot pass for another field of show. */
static void
show_note(FILE *o, const char *what, const char *text, const char *by)
{
	fprintf(o, "note      %s", what);
	for (const char *p = text; *p != '\0'; p++)
		if (*p == '\n')
			fputs("\n          ", o);
		else
			fputc(*p, o);
	fprintf(o, " (%s)\n", by != NULL ? by : "?");
}

static int
cmd_show(struct cmd_ctx *ctx, struct cmd_args *a, struct err *err)
{
	const struct cli_global *g = ctx->front;
	const char *val = NULL;
	struct candidate c;
	struct task t;
	struct run *runs = NULL;
	struct recorded *recs = NULL;
	struct store_event *evs = NULL;
	struct store_note *notes = NULL;
	struct store_decision d;
	size_t nruns = 0, nrecs = 0, nevs = 0, nnotes = 0, idx;
	struct store_row *row = NULL;
	size_t nrow = 0;
	struct store *st;
	char *id, *filter;
	int json = 0, ch;

	while ((ch = cmd_next(a, &val)) != -1) {
		if (ch == 'j')
			json = 1;
	}
	if (cli_open_store(g, &st) < 0)
		return 2;
	if ((id = cli_resolve(st, a->pos[0])) == NULL) {
		store_close(st);
		return 2;
	}
	if (store_candidate_get(st, id, &c, err) != 0 ||
	    store_task_get(st, c.task_id, &t, err) != 0 ||
	    store_run_list(st, id, &runs, &nruns, err) < 0 ||
	    store_recorded_list(st, id, &recs, &nrecs, err) < 0 ||
	    store_event_list(st, id, &evs, &nevs, err) < 0 ||
	    store_note_list(st, id, &notes, &nnotes, err) < 0 ||
	    store_decision_get(st, id, &d, err) < 0) {
		fprintf(stderr, "assay show: %s\n", err->msg);
		store_close(st);
		free(id);
		return 2;
	}
	filter = xasprintf("id=%s", id);
	if (store_query_index(st, filter, id, &idx, err) == 0)
		store_query_page(st, filter, 0, 1, &row, &nrow, err);
	free(filter);
	if (json) {
		json_t *o = nrow == 1 ? cli_row_json(&row[0]) : json_object();
		static const struct codec_ctx x = { .profile = CODEC_SHOW };
		json_t *arr;

		json_object_set_new(o, "task", codec_task(&t, &x, NULL));
		codec_candidate_put(o, &c, &x, NULL);
		arr = json_array();
		for (size_t i = 0; i < nruns; i++)
			json_array_append_new(arr, run_json(&runs[i]));
		json_object_set_new(o, "runs", arr);
		arr = json_array();
		for (size_t i = 0; i < nrecs; i++)
			json_array_append_new(arr, codec_recorded(&recs[i], &x));
		json_object_set_new(o, "recorded", arr);
		json_object_set_new(o, "label", d.category != NULL ?
		    json_pack("{s:s, s:o, s:o, s:o}", "category", d.category,
		    "subcategory", codec_str(d.subcategory), "by",
		    codec_str(d.label_by), "note", codec_str(d.label_note)) :
		    json_null());
		json_object_set_new(o, "review", json_pack("{s:s, s:o, s:o}",
		    "status", d.status, "note", codec_str(d.review_note),
		    "by", codec_str(d.review_by)));
		arr = json_array();
		for (size_t i = 0; i < nevs; i++)
			json_array_append_new(arr, json_pack("{s:I, s:I, s:s, s:s,"
			    " s:o}", "id", (json_int_t)evs[i].id, "at",
			    (json_int_t)evs[i].at, "who", evs[i].who, "action",
			    evs[i].action, "detail", codec_str(evs[i].detail)));
		json_object_set_new(o, "events", arr);
		arr = json_array();
		for (size_t i = 0; i < nnotes; i++)
			json_array_append_new(arr, json_pack("{s:o, s:o, s:I}",
			    "text", codec_str(notes[i].text), "by",
			    codec_str(notes[i].by), "at",
			    (json_int_t)notes[i].at));
		json_object_set_new(o, "notes", arr);
		cli_print_json(o);
	} else {
		char *mem = NULL;
		size_t memlen = 0;
		FILE *o = open_memstream(&mem, &memlen);

		if (o == NULL)
			fatal("open_memstream: %s", strerror(errno));
		fprintf(o, "candidate %s  task %s  (%s, %s)\n", c.id, t.id,
		    t.benchmark, t.domain);
		fprintf(o, "origin    %s  kind %s  lang %s%s%s\n", c.origin, c.kind,
		    c.lang, c.parent != NULL ? "  parent " : "",
		    c.parent != NULL ? c.parent : "");
		fprintf(o, "source    %s\n", c.source != NULL ? c.source : "-");
		fprintf(o, "status    %s%s%s", d.status, d.review_by != NULL ?
		    " by " : "", d.review_by != NULL ? d.review_by : "");
		if (d.category != NULL)
			fprintf(o, "  label %s%s%s by %s", d.category,
			    d.subcategory != NULL ? "/" : "",
			    d.subcategory != NULL ? d.subcategory : "",
			    d.label_by);
		fprintf(o, "\n");
		if (d.label_note != NULL)
			show_note(o, "on the label: ", d.label_note, d.label_by);
		if (d.review_note != NULL)
			show_note(o, "on the review: ", d.review_note,
			    d.review_by);
		for (size_t i = 0; i < nnotes; i++)
			show_note(o, "", notes[i].text, notes[i].by);
		fprintf(o, "\n--- code ---\n");
		fwrite(c.code, 1, c.code_len, o);
		fprintf(o, "%s", c.code_len > 0 &&
		    c.code[c.code_len - 1] != '\n' ? "\n" : "");
		for (size_t i = 0; i < nrecs; i++)
			fprintf(o, "\n--- recorded: %s %s ---\n%s\n",
			    recs[i].verdict != NULL ? recs[i].verdict : "-",
			    recs[i].stage != NULL ? recs[i].stage : "",
			    recs[i].log != NULL ? recs[i].log : "");
		for (size_t i = 0; i < nruns; i++) {
			const struct run *r = &runs[i];

			fprintf(o, "\n--- run %lld: %s%s%s%s%s (%s, %lld ms) ---\n",
			    (long long)r->id, r->verdict, r->stage != NULL ?
			    " at " : "", r->stage != NULL ? r->stage : "",
			    r->subcategory != NULL ? ", " : "",
			    r->subcategory != NULL ? r->subcategory : "",
			    r->toolchain != NULL ? r->toolchain : "?",
			    (long long)r->wall_ms);
			if (r->category != NULL)
				fprintf(o, "suggested category: %s%s%s\n",
				    r->category, r->subcategory != NULL ? "/" : "",
				    r->subcategory != NULL ? r->subcategory : "");
			/* A pass, arr skip or an env-error has evidence too
			 * ("skipped: no GPU"), as show --json says. */
			if (r->category != NULL || r->evidence != NULL)
				fprintf(o, "evidence: %s\n", r->evidence != NULL ?
				    r->evidence : "-");
			if (r->evidence_line > 0)
				fprintf(o, "evidence points to candidate line %d\n",
				    r->evidence_line);
			if (r->metrics != NULL)
				fprintf(o, "metrics: %s\n", r->metrics);
			if (r->feedback != NULL) {
				struct buf fb = BUF_INIT;

				if (feedback_words(&fb, r->feedback) > 0)
					fprintf(o, "feedback:\n%s", buf_str(&fb));
				buf_release(&fb);
			}
			print_pipeline(o, r);
			for (size_t k = 0; k < r->ndiags; k++)
				print_diag(o, &r->diags[k]);
			fprintf(o, "reproduce (with the run's files in the work"
			    " directory; verify --keep-workdir keeps them):\n%s",
			    r->command != NULL ? r->command : "");
			fprintf(o, "log:\n");
			fwrite(r->log, 1, r->log_len, o);
			fprintf(o, "\n");
		}
		fclose(o);
		cli_safe_print("show", mem, memlen);
		free(mem);
	}
	for (size_t i = 0; i < nruns; i++)
		run_release(&runs[i]);
	free(runs);
	for (size_t i = 0; i < nrecs; i++)
		recorded_release(&recs[i]);
	free(recs);
	for (size_t i = 0; i < nevs; i++)
		store_event_release(&evs[i]);
	free(evs);
	for (size_t i = 0; i < nnotes; i++)
		store_note_release(&notes[i]);
	free(notes);
	for (size_t i = 0; i < nrow; i++)
		store_row_release(&row[i]);
	free(row);
	store_decision_release(&d);
	candidate_release(&c);
	task_release(&t);
	free(id);
	store_close(st);
	return 0;
}

const struct cmd_entry cli_cmd_show = {
	"show", NULL, show_opts, 1, 1,
	"show ID [--json]",
	  "Show a candidate: task, code, recorded results, every run with its\n"
	  "diagnostics, log and the command that reproduces it, labels, review\n"
	  "notes and events.",
	CMD_CLI | CMD_TARGETS, cmd_show
};
