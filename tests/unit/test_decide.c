/*
 * test_decide.c - unit tests for decide.c (cmocka) on a real SQLite
 * database in a mkdtemp directory: a label rests on the latest run read
 * in its own transaction, a final label is marked in label.final, bad
 * decisions change nothing, a bulk decision is one batch that one undo
 * takes back and that a bad id leaves unmade, undo and redo say what
 * they moved in a struct, and a repair is the reviewer's candidate,
 * journalled, refused when it hands the failed code back (issue 9,
 * item 2).
 */
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include "decide/decide.h"
#include "base/err.h"
#include "base/hash.h"
#include "model/sample.h"
#include "store/store.h"
#include "storefx.h"

struct fx {
	struct storefx	 sf;		/* the database and task local/t1 */
	struct store	*st;
	char		*a, *b, *c;	/* three candidates of local/t1 */
};

static int
fx_setup(void **state)
{
	struct fx *f = xcalloc(1, sizeof *f);

	if (storefx_init(&f->sf, "decide") < 0) {
		free(f);
		return -1;
	}
	f->st = f->sf.st;
	f->a = storefx_cand(&f->sf, "module a; endmodule\n");
	f->b = storefx_cand(&f->sf, "module b; endmodule\n");
	f->c = storefx_cand(&f->sf, "module c; endmodule\n");
	*state = f;
	return 0;
}

static int
fx_teardown(void **state)
{
	struct fx *f = *state;

	storefx_release(&f->sf);
	free(f->a);
	free(f->b);
	free(f->c);
	free(f);
	return 0;
}

/* Store a run of id with verdict and evidence (NULL: none); its run
 * id.  A failed run fails at compile. */
static int64_t
put_run(struct store *st, const char *id, const char *verdict,
    const char *evidence)
{
	int fail = strcmp(verdict, "fail") == 0;
	struct run r;
	struct err err;
	int64_t rid;

	memset(&r, 0, sizeof r);
	r.cand_id = xstrdup(id);
	r.env = xstrdup("iverilog");
	r.verdict = xstrdup(verdict);
	r.stage = xstrdup(fail ? "compile" : "simulate");
	r.category = fail ? xstrdup("compile") : NULL;
	r.evidence = xstrdup(evidence);
	if (store_run_add(st, &r, &err) < 0)
		fail_msg("store_run_add: %s", err.msg);
	rid = r.id;
	run_release(&r);
	return rid;
}

/* Store a failed run of id with evidence; its run id. */
static int64_t
add_run(struct store *st, const char *id, const char *evidence)
{
	return put_run(st, id, "fail", evidence);
}

/* The evidence of id's current label (new string), NULL when none. */
static char *
label_evidence(struct store *st, const char *id)
{
	struct store_label *l;
	struct err err;
	char *ev = NULL;
	size_t n;

	if (store_label_list(st, id, &l, &n, &err) < 0)
		fail_msg("store_label_list: %s", err.msg);
	for (size_t i = 0; i < n; i++) {
		if (l[i].current)
			ev = xstrdup(l[i].evidence != NULL ? l[i].evidence :
			    "(none)");
		store_label_release(&l[i]);
	}
	free(l);
	return ev;
}

/* How many journal events (all candidates). */
static size_t
events(struct store *st)
{
	struct store_event *e;
	struct err err;
	size_t n;

	if (store_event_list(st, NULL, &e, &n, &err) < 0)
		fail_msg("store_event_list: %s", err.msg);
	for (size_t i = 0; i < n; i++)
		store_event_release(&e[i]);
	free(e);
	return n;
}

/*
 * What both front ends ask or warn before a decision (decide_warning):
 * a failure label on passing candidates, an accept of ones that fail or
 * never ran, in words for one and for several; nothing for a review
 * other than accept, a note, or a label on failing candidates.
 * a passes, b fails, c never ran.
 */
static void
test_decide_warning_words(void **state)
{
	struct fx *f = *state;
	struct decide_act label = { .kind = DECIDE_LABEL, .category = "api" };
	struct decide_act accept = { .kind = DECIDE_REVIEW,
	    .status = "accepted" };
	struct decide_act reject = { .kind = DECIDE_REVIEW,
	    .status = "rejected" };
	struct decide_act note = { .kind = DECIDE_NOTE, .note = "x" };
	char *all[3], w[96];

	put_run(f->st, f->a, "pass", NULL);
	add_run(f->st, f->b, "an error");
	all[0] = f->a;
	all[1] = f->b;
	all[2] = f->c;
	assert_string_equal(decide_warning(f->st, &label, &f->a, 1, w,
	    sizeof w), " although it passes");
	assert_string_equal(decide_warning(f->st, &label, &f->b, 1, w,
	    sizeof w), "");
	assert_string_equal(decide_warning(f->st, &label, all, 3, w,
	    sizeof w), " although 1 of them passes");
	assert_string_equal(decide_warning(f->st, &accept, &f->a, 1, w,
	    sizeof w), "");
	assert_string_equal(decide_warning(f->st, &accept, &f->b, 1, w,
	    sizeof w), " although it does not pass");
	assert_string_equal(decide_warning(f->st, &accept, &f->c, 1, w,
	    sizeof w), " although it never ran");
	assert_string_equal(decide_warning(f->st, &accept, all, 3, w,
	    sizeof w), " although 2 of them do not pass or never ran");
	assert_string_equal(decide_warning(f->st, &accept, all, 2, w,
	    sizeof w), " although 1 of them does not pass");
	assert_string_equal(decide_warning(f->st, &reject, &f->a, 1, w,
	    sizeof w), "");
	assert_string_equal(decide_warning(f->st, &note, &f->a, 1, w,
	    sizeof w), "");
	/* truncated, never overrun */
	assert_string_equal(decide_warning(f->st, &label, &f->a, 1, w, 8),
	    " althou");
}

static void
test_decide_label_rests_on_latest_run(void **state)
{
	struct fx *f = *state;
	struct decide_out out;
	struct err err;
	int64_t r2;
	char *ev;

	/* no run: the label rests on nothing, and says so */
	assert_int_equal(decide_label(f->st, f->a, "api", NULL, NULL, "ann",
	    &out, &err), 0);
	assert_int_equal(out.run_id, 0);
	ev = label_evidence(f->st, f->a);
	assert_string_equal(ev, "(none)");
	free(ev);
	/* two runs: the newer one, whatever the caller saw */
	add_run(f->st, f->a, "first error");
	r2 = add_run(f->st, f->a, "second error");
	assert_int_equal(decide_label(f->st, f->a, "compile", "syntax",
	    NULL, "ann", &out, &err), 0);
	assert_int_equal(out.run_id, r2);
	ev = label_evidence(f->st, f->a);
	assert_string_equal(ev, "second error");
	free(ev);
}

static void
test_decide_label_reads_run_in_open_transaction(void **state)
{
	struct fx *f = *state;
	struct decide_act a = { .kind = DECIDE_LABEL, .category = "format" };
	struct decide_out out;
	struct err err;
	int64_t rid;
	char *ev;

	/* a run stored inside the batch's own transaction is the one the
	 * label in that transaction rests on */
	assert_int_equal(store_batch_begin(f->st, &err), 0);
	rid = add_run(f->st, f->b, "fenced answer");
	assert_int_equal(decide_one(f->st, &a, f->b, "ann", &out, &err), 0);
	assert_int_equal(store_batch_commit(f->st, &err), 0);
	assert_int_equal(out.run_id, rid);
	ev = label_evidence(f->st, f->b);
	assert_string_equal(ev, "fenced answer");
	free(ev);
}

static void
test_decide_final_label_is_a_column(void **state)
{
	struct fx *f = *state;
	struct decide_act a = { .kind = DECIDE_LABEL, .category = "api",
	    .final = 1 };
	struct store_label *l;
	struct err err;
	size_t n;
	int final = -1;

	assert_int_equal(decide_label(f->st, f->a, "compile", NULL, NULL,
	    "ann", NULL, &err), 0);
	assert_int_equal(decide_one(f->st, &a, f->a, "cyd", NULL, &err), 0);
	assert_int_equal(store_label_list(f->st, f->a, &l, &n, &err), 0);
	assert_int_equal(n, 2);
	assert_int_equal(store_label_is_final(f->st, f->a, l[0].id, &final,
	    &err), 0);
	assert_int_equal(final, 0);
	assert_int_equal(store_label_is_final(f->st, f->a, l[1].id, &final,
	    &err), 0);
	assert_int_equal(final, 1);
	for (size_t i = 0; i < n; i++)
		store_label_release(&l[i]);
	free(l);
}

static void
test_decide_bad_decisions_change_nothing(void **state)
{
	struct fx *f = *state;
	struct decide_act bad = { .kind = (enum decide_kind)42 };
	struct err err;

	err_clear(&err);
	assert_int_equal(decide_label(f->st, f->a, "syntax", NULL, NULL,
	    "ann", NULL, &err), -1);
	assert_non_null(strstr(err.msg, "syntax"));
	assert_int_equal(decide_review(f->st, f->a, "maybe", NULL, "ann",
	    &err), -1);
	assert_non_null(strstr(err.msg, "maybe"));
	assert_int_equal(decide_note(f->st, f->a, "", "ann", &err), -1);
	assert_int_equal(decide_label(f->st, "nosuch", "api", NULL, NULL,
	    "ann", NULL, &err), -1);
	assert_int_equal(decide_review(f->st, f->a, "accepted", NULL,
	    "<ann>", &err), -1);
	assert_int_equal(decide_one(f->st, &bad, f->a, "ann", NULL, &err),
	    -1);
	assert_int_equal(events(f->st), 0);
	/* and the store is usable after each refusal: no transaction left
	 * open */
	assert_int_equal(store_in_tx(f->st), 0);
	assert_int_equal(decide_note(f->st, f->a, "fine", "ann", &err), 0);
	assert_int_equal(events(f->st), 1);
}

static void
test_decide_bulk_is_one_batch(void **state)
{
	struct fx *f = *state;
	struct decide_act a = { .kind = DECIDE_REVIEW, .status = "flagged" };
	char *ids[3] = { f->a, f->b, f->c }, *bad[3] = { f->a, "nosuch",
	    f->c };
	struct store_step step;
	struct err err;
	char text[256], want[256];
	size_t failed = 99;

	/* a bad id in the middle: nothing made, and which one says so */
	assert_int_equal(decide_bulk(f->st, &a, bad, 3, "ann", &failed, NULL,
	    &err), -1);
	assert_int_equal(failed, 1);
	assert_int_equal(events(f->st), 0);
	assert_int_equal(store_in_tx(f->st), 0);
	assert_int_equal(decide_bulk(f->st, &a, ids, 3, "ann", &failed, NULL,
	    &err), 0);
	assert_int_equal(events(f->st), 3);
	assert_int_equal(decide_undo(f->st, 0, "ann", 0, &step, &err), 0);
	assert_int_equal(step.count, 3);
	assert_string_equal(step.cand_id, f->a);	/* decided first */
	assert_string_equal(step.field, "review");
	snprintf(want, sizeof want, "undid review flagged of 3 candidates,"
	    " first of %s", f->a);
	assert_string_equal(decide_undo_text(0, 0, "ann", 0, &step, text,
	    sizeof text), want);
	assert_int_equal(decide_undo(f->st, 1, "ann", 0, &step, &err), 0);
	assert_int_equal(step.count, 3);
	assert_string_equal(step.cand_id, f->a);
}

/* A bulk decision over candidates some of which it already holds for:
 * those are counted before (no question for nothing) and left out. */
static void
test_decide_bulk_counts_what_it_made(void **state)
{
	struct fx *f = *state;
	struct decide_act a = { .kind = DECIDE_REVIEW, .status = "flagged" };
	char *ids[3] = { f->a, f->b, f->c };
	struct err err;
	size_t made = 99;

	assert_int_equal(decide_unchanged(f->st, &a, ids, 3, "ann"), 0);
	assert_int_equal(decide_review(f->st, f->b, "flagged", NULL, "ann",
	    &err), 0);
	assert_int_equal(decide_unchanged(f->st, &a, ids, 3, "ann"), 1);
	/* another reviewer's flag is theirs: bob's would change it */
	assert_int_equal(decide_unchanged(f->st, &a, ids, 3, "bob"), 0);
	assert_int_equal(decide_bulk(f->st, &a, ids, 3, "ann", NULL, &made,
	    &err), 0);
	assert_int_equal(made, 2);
	assert_int_equal(events(f->st), 3);	/* 1 + 2, not 1 + 3 */
	assert_int_equal(decide_unchanged(f->st, &a, ids, 3, "ann"), 3);
	assert_int_equal(decide_bulk(f->st, &a, ids, 3, "ann", NULL, &made,
	    &err), 0);
	assert_int_equal(made, 0);
	assert_int_equal(events(f->st), 3);
}

static void
test_decide_undo_says_what_in_a_struct(void **state)
{
	struct fx *f = *state;
	struct store_step step;
	struct err err;
	char text[256], want[256];
	int rc;

	rc = decide_undo(f->st, 0, "ann", 0, &step, &err);
	assert_int_equal(rc, 1);
	assert_int_equal(step.count, 0);
	assert_string_equal(decide_undo_text(rc, 0, "ann", 0, &step, text,
	    sizeof text), "nothing to undo by ann");
	assert_string_equal(decide_undo_text(rc, 1, "ann", 1, &step, text,
	    sizeof text), "nothing to redo");
	assert_int_equal(decide_label(f->st, f->b, "functional", NULL, NULL,
	    "ann", NULL, &err), 0);
	assert_int_equal(decide_review(f->st, f->c, "accepted", NULL, "bob",
	    &err), 0);
	/* ann's undo takes back ann's label, not bob's newer review */
	rc = decide_undo(f->st, 0, "ann", 0, &step, &err);
	assert_int_equal(rc, 0);
	assert_int_equal(step.count, 1);
	assert_string_equal(step.cand_id, f->b);
	assert_string_equal(step.field, "label");
	assert_string_equal(step.detail, "label functional");
	snprintf(want, sizeof want, "undid label functional of %s", f->b);
	assert_string_equal(decide_undo_text(rc, 0, "ann", 0, &step, text,
	    sizeof text), want);
	/* anyone's: bob's review */
	rc = decide_undo(f->st, 0, "ann", 1, &step, &err);
	assert_int_equal(rc, 0);
	assert_string_equal(step.cand_id, f->c);
	assert_string_equal(step.detail, "review accepted");
	/* ann's redo replays ann's newest undo: the one of bob's review */
	rc = decide_undo(f->st, 1, "ann", 0, &step, &err);
	assert_int_equal(rc, 0);
	assert_string_equal(step.cand_id, f->c);
	rc = decide_undo(f->st, 1, "ann", 0, &step, &err);
	assert_int_equal(rc, 0);
	snprintf(want, sizeof want, "redid label functional of %s", f->b);
	assert_string_equal(decide_undo_text(rc, 1, "ann", 0, &step, text,
	    sizeof text), want);
}

/*
 * A step another reviewer undid (undo --any) counts as undone for its
 * owner too: ann's undo goes on to her step before it instead of
 * refusing for ever ("someone else decided it since"), and her redo
 * brings back both, newest undo first.
 */
static void
test_decide_undo_past_a_step_another_undid(void **state)
{
	struct fx *f = *state;
	struct store_step step;
	struct err err;

	assert_int_equal(decide_label(f->st, f->a, "api", NULL, NULL, "ann",
	    NULL, &err), 0);
	assert_int_equal(decide_label(f->st, f->b, "format", NULL, NULL,
	    "ann", NULL, &err), 0);
	assert_int_equal(decide_undo(f->st, 0, "bob", 1, &step, &err), 0);
	assert_string_equal(step.cand_id, f->b);
	assert_int_equal(decide_undo(f->st, 0, "ann", 0, &step, &err), 0);
	assert_string_equal(step.cand_id, f->a);
	assert_string_equal(step.detail, "label api");
	assert_int_equal(decide_undo(f->st, 0, "ann", 0, &step, &err), 1);
	assert_int_equal(decide_undo(f->st, 1, "ann", 0, &step, &err), 0);
	assert_string_equal(step.cand_id, f->a);
	assert_int_equal(decide_undo(f->st, 1, "ann", 0, &step, &err), 0);
	assert_string_equal(step.cand_id, f->b);
	assert_int_equal(decide_undo(f->st, 1, "ann", 0, &step, &err), 1);
}

/* The candidate id, origin, kind and parent of id, "/"-joined. */
static void
cand_row(struct store *st, const char *id, char *buf, size_t n)
{
	struct candidate c;
	struct err err;

	if (store_candidate_get(st, id, &c, &err) != 0)
		fail_msg("store_candidate_get %s: %s", id, err.msg);
	snprintf(buf, n, "%s/%s/%s/%.*s", c.origin, c.kind, c.parent ?
	    c.parent : "-", (int)c.code_len, c.code);
	candidate_release(&c);
}

static void
test_decide_repair_is_the_reviewers_and_journalled(void **state)
{
	struct fx *f = *state;
	const char *code = "module a(output y); assign y = 1; endmodule\n";
	struct decide_repair r, again;
	struct store_event *e;
	struct store_step step;
	struct err err;
	char row[512], want[512];
	size_t n;

	assert_int_equal(decide_label(f->st, f->a, "compile", NULL, NULL,
	    "ann", NULL, &err), 0);
	assert_int_equal(decide_repair(f->st, f->a, code, strlen(code), "ann",
	    NULL, &r, &err), 0);
	assert_int_equal(r.inserted, 1);
	assert_string_equal(r.origin, "ann");
	cand_row(f->st, r.id, row, sizeof row);
	snprintf(want, sizeof want, "ann/repair/%s/%s", f->a, code);
	assert_string_equal(row, want);
	/* journalled under the reviewer, on the repair */
	assert_int_equal(store_event_list(f->st, r.id, &e, &n, &err), 0);
	assert_int_equal(n, 1);
	assert_string_equal(e[0].who, "ann");
	assert_string_equal(e[0].action, "repair");
	snprintf(want, sizeof want, "repair of %s", f->a);
	assert_string_equal(e[0].detail, want);
	store_event_release(&e[0]);
	free(e);
	/* the same repair again is the same candidate, journalled once */
	assert_int_equal(decide_repair(f->st, f->a, code, strlen(code), "ann",
	    NULL, &again, &err), 0);
	assert_int_equal(again.inserted, 0);
	assert_string_equal(again.id, r.id);
	assert_int_equal(events(f->st), 2);
	decide_repair_release(&again);
	/* undo takes back the label; the repair stays (like a note) */
	assert_int_equal(decide_undo(f->st, 0, "ann", 0, &step, &err), 0);
	assert_string_equal(step.cand_id, f->a);
	assert_string_equal(step.field, "label");
	assert_int_equal(decide_undo(f->st, 0, "ann", 0, &step, &err), 1);
	cand_row(f->st, r.id, row, sizeof row);
	decide_repair_release(&r);
	decide_repair_release(&r);	/* idempotent */
}

/* id carries one note: that it repairs parent too, reproduced by who. */
static void
assert_reproduced_note(struct store *st, const char *id, const char *parent,
    const char *who)
{
	struct store_note *nt;
	struct err err;
	char want[256];
	size_t n;

	assert_int_equal(store_note_list(st, id, &nt, &n, &err), 0);
	assert_int_equal(n, 1);
	snprintf(want, sizeof want, "also a repair of %s: a repair of it by"
	    " %s reproduced this code", parent, who);
	assert_string_equal(nt[0].text, want);
	store_note_release(&nt[0]);
	free(nt);
}

static void
test_decide_repair_reproducing_a_candidate_says_so(void **state)
{
	struct fx *f = *state;
	const char *code = "module fixed; endmodule\n";
	struct decide_repair r1, r2;
	struct err err;

	assert_int_equal(decide_repair(f->st, f->a, code, strlen(code), "ann",
	    NULL, &r1, &err), 0);
	/* the same code as a repair of b: r1 again, now a repair of b too */
	assert_int_equal(decide_repair(f->st, f->b, code, strlen(code), "ann",
	    NULL, &r2, &err), 0);
	assert_int_equal(r2.inserted, 0);
	assert_string_equal(r2.id, r1.id);
	assert_string_equal(r2.parent, f->a);
	assert_reproduced_note(f->st, r1.id, f->b, "ann");
	/* a third answer of the same code changes nothing: no second
	 * note, no second event (a model's repeated answer added both each
	 * time) */
	{
		size_t before = events(f->st);

		decide_repair_release(&r2);
		assert_int_equal(decide_repair(f->st, f->b, code, strlen(code),
		    "ann", NULL, &r2, &err), 0);
		assert_string_equal(r2.id, r1.id);
		assert_int_equal(events(f->st), before);
		assert_reproduced_note(f->st, r1.id, f->b, "ann");
	}
	/* read back as b's repair (the trace, the diff); a's are by its
	 * parent pointer, not this journal */
	{
		char **ids;
		size_t n;

		assert_int_equal(decide_also_repairs(f->st, f->b, &ids, &n,
		    &err), 0);
		assert_int_equal(n, 1);
		assert_string_equal(ids[0], r1.id);
		strv_free(ids, n);
		assert_int_equal(decide_also_repairs(f->st, f->a, &ids, &n,
		    &err), 0);
		assert_int_equal(n, 0);
		strv_free(ids, n);
	}
	decide_repair_release(&r1);
	decide_repair_release(&r2);
}

static void
test_decide_repair_refusals_change_nothing(void **state)
{
	struct fx *f = *state;
	const char *same = "module a; endmodule\n";
	struct decide_repair r;
	struct err err;
	char want[256];

	err_clear(&err);
	/* the failed code handed back repairs nothing */
	assert_int_equal(decide_repair(f->st, f->a, same, strlen(same), "ann",
	    NULL, &r, &err), -1);
	snprintf(want, sizeof want, "this is the code of %s itself: nothing"
	    " stored", f->a);
	assert_string_equal(err.msg, want);
	assert_null(r.id);
	assert_int_equal(decide_repair(f->st, "nosuch", "x", 1, "ann", NULL,
	    &r, &err), -1);
	assert_string_equal(err.msg, "no candidate nosuch");
	assert_int_equal(decide_repair(f->st, f->a, "x", 1, "<ann>", NULL,
	    &r, &err), -1);
	/* no code: an empty file, or only white space (an editor that
	 * emptied it) */
	assert_int_equal(decide_repair(f->st, f->a, "", 0, "ann", NULL, &r,
	    &err), -1);
	snprintf(want, sizeof want, "the repair of %s is empty: no code,"
	    " nothing stored", f->a);
	assert_string_equal(err.msg, want);
	assert_int_equal(decide_repair(f->st, f->a, " \n\t\r\v\f", 6, "ann",
	    NULL, &r, &err), -1);
	snprintf(want, sizeof want, "the repair of %s is empty (only white"
	    " space): no code, nothing stored", f->a);
	assert_string_equal(err.msg, want);
	assert_null(r.id);
	/* a NUL is a byte of code, not white space */
	assert_int_equal(decide_code_blank(" \0 ", 3), 0);
	assert_int_equal(decide_code_blank(" x", 2), 0);
	assert_int_equal(decide_code_blank("", 0), 1);
	assert_int_equal(events(f->st), 0);
	assert_int_equal(store_in_tx(f->st), 0);
}

/*
 * A model's repair goes through the same rule: the model its origin, the
 * person who ran it the journal's who, the generation record kept, the
 * parent's own code refused (1, nothing stored), and a repeat of the
 * model's earlier answer recorded as a repair of the new parent too.
 */
static void
test_decide_repair_by_a_model_is_the_same_rule(void **state)
{
	struct fx *f = *state;
	const char *code = "module fixed; endmodule\n";
	const char *same = "module a; endmodule\n";
	struct decide_repair_in in = { f->a, code, strlen(code), "fixer-1",
	    NULL, "{\"generation\":{\"round\":1}}", 0 };
	struct decide_repair r, r2;
	struct candidate c;
	struct store_event *e;
	struct err err;
	char row[512], want[512];
	size_t n;

	assert_int_equal(decide_repair_make(f->st, &in, "ann", &r, &err), 0);
	assert_int_equal(r.inserted, 1);
	assert_string_equal(r.origin, "fixer-1");
	cand_row(f->st, r.id, row, sizeof row);
	snprintf(want, sizeof want, "fixer-1/repair/%s/%s", f->a, code);
	assert_string_equal(row, want);
	assert_int_equal(store_candidate_get(f->st, r.id, &c, &err), 0);
	assert_string_equal(c.extra, "{\"generation\":{\"round\":1}}");
	snprintf(want, sizeof want, "repair of %s by fixer-1", f->a);
	assert_string_equal(c.source, want);
	candidate_release(&c);
	assert_int_equal(store_event_list(f->st, r.id, &e, &n, &err), 0);
	assert_int_equal(n, 1);
	assert_string_equal(e[0].who, "ann");
	assert_string_equal(e[0].action, "repair");
	assert_string_equal(e[0].detail, want);
	store_event_release(&e[0]);
	free(e);

	/* the failed code handed back: 1, and nothing more is stored */
	in.code = same;
	in.len = strlen(same);
	assert_int_equal(decide_repair_make(f->st, &in, "ann", &r2, &err), 1);
	snprintf(want, sizeof want, "this is the code of %s itself: nothing"
	    " stored", f->a);
	assert_string_equal(err.msg, want);
	assert_null(r2.id);
	assert_int_equal(events(f->st), 1);
	assert_int_equal(store_in_tx(f->st), 0);

	/* a model's empty answer is no repair (2), its refusal is one: a
	 * candidate without code that records it */
	in.code = "\n";
	in.len = 1;
	assert_int_equal(decide_repair_make(f->st, &in, "ann", &r2, &err), 2);
	assert_null(r2.id);
	assert_int_equal(events(f->st), 1);
	in.code = "";
	in.len = 0;
	in.refusal = 1;
	assert_int_equal(decide_repair_make(f->st, &in, "ann", &r2, &err), 0);
	assert_int_equal(r2.inserted, 1);
	assert_int_equal(events(f->st), 2);
	decide_repair_release(&r2);
	in.refusal = 0;

	/* the same answer for b: the model's candidate, a repair of b too */
	in.parent = f->b;
	in.code = code;
	in.len = strlen(code);
	assert_int_equal(decide_repair_make(f->st, &in, "ann", &r2, &err), 0);
	assert_int_equal(r2.inserted, 0);
	assert_string_equal(r2.id, r.id);
	assert_reproduced_note(f->st, r.id, f->b, "fixer-1");
	decide_repair_release(&r);
	decide_repair_release(&r2);
}

/* How many journal events of id have action (label, review). */
static size_t
events_of(struct store *st, const char *id, const char *action)
{
	struct store_event *e;
	struct err err;
	size_t n, k = 0;

	if (store_event_list(st, id, &e, &n, &err) < 0)
		fail_msg("store_event_list: %s", err.msg);
	for (size_t i = 0; i < n; i++) {
		k += strcmp(e[i].action, action) == 0;
		store_event_release(&e[i]);
	}
	free(e);
	return k;
}

/*
 * A decision that changes nothing is not made: the same review or label
 * by the same reviewer (a label on the same run) adds no event, and out
 * says so (issue 24: f pressed sixteen times wrote sixteen events).
 * Another reviewer's, another subcategory's, a newer run's is made.
 */
static void
test_decide_same_decision_is_not_journalled(void **state)
{
	struct fx *f = *state;
	struct decide_act fin = { .kind = DECIDE_LABEL, .category = "api",
	    .final = 1 };
	struct decide_out out;
	struct err err;

	for (int i = 0; i < 16; i++) {
		struct decide_act a = { .kind = DECIDE_REVIEW,
		    .status = "flagged" };

		assert_int_equal(decide_one(f->st, &a, f->a, "ann", &out,
		    &err), 0);
		assert_int_equal(out.unchanged, i > 0);
	}
	assert_int_equal(events_of(f->st, f->a, "review"), 1);
	assert_int_equal(decide_review(f->st, f->a, "flagged", NULL, "bob",
	    &err), 0);
	assert_int_equal(events_of(f->st, f->a, "review"), 2);
	assert_int_equal(decide_review(f->st, f->a, "flagged", "why", "bob",
	    &err), 0);
	assert_int_equal(events_of(f->st, f->a, "review"), 3);

	/* a label: the same on the same run is nothing; a newer run or
	 * another subcategory makes it again */
	assert_int_equal(decide_label(f->st, f->b, "compile", NULL, NULL,
	    "ann", &out, &err), 0);
	assert_int_equal(out.unchanged, 0);
	assert_int_equal(decide_label(f->st, f->b, "compile", NULL, NULL,
	    "ann", &out, &err), 0);
	assert_int_equal(out.unchanged, 1);
	assert_int_equal(events_of(f->st, f->b, "label"), 1);
	add_run(f->st, f->b, "an error");
	assert_int_equal(decide_label(f->st, f->b, "compile", NULL, NULL,
	    "ann", &out, &err), 0);
	assert_int_equal(out.unchanged, 0);
	assert_int_equal(decide_label(f->st, f->b, "compile", "syntax", NULL,
	    "ann", &out, &err), 0);
	assert_int_equal(out.unchanged, 0);
	assert_int_equal(events_of(f->st, f->b, "label"), 3);

	/* a final label twice is one; over a vote of the same words it is
	 * a decision of its own */
	assert_int_equal(decide_label(f->st, f->c, "api", NULL, NULL, "cyd",
	    NULL, &err), 0);
	assert_int_equal(decide_one(f->st, &fin, f->c, "cyd", &out, &err), 0);
	assert_int_equal(out.unchanged, 0);
	assert_int_equal(decide_one(f->st, &fin, f->c, "cyd", &out, &err), 0);
	assert_int_equal(out.unchanged, 1);
	assert_int_equal(events_of(f->st, f->c, "label"), 2);
}

#define FX_TEST(t) cmocka_unit_test_setup_teardown(t, fx_setup, fx_teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		FX_TEST(test_decide_label_rests_on_latest_run),
		FX_TEST(test_decide_label_reads_run_in_open_transaction),
		FX_TEST(test_decide_final_label_is_a_column),
		FX_TEST(test_decide_bad_decisions_change_nothing),
		FX_TEST(test_decide_bulk_is_one_batch),
		FX_TEST(test_decide_bulk_counts_what_it_made),
		FX_TEST(test_decide_undo_says_what_in_a_struct),
		FX_TEST(test_decide_repair_is_the_reviewers_and_journalled),
		FX_TEST(test_decide_repair_reproducing_a_candidate_says_so),
		FX_TEST(test_decide_repair_refusals_change_nothing),
		FX_TEST(test_decide_repair_by_a_model_is_the_same_rule),
		FX_TEST(test_decide_warning_words),
		FX_TEST(test_decide_undo_past_a_step_another_undid),
		FX_TEST(test_decide_same_decision_is_not_journalled),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
