/*
 * decide.h - the decisions a person or a command makes on candidates:
 * label, review, note, repair, undo and redo, and a label, review or
 * note over a list of candidates as one journal batch.
 *
 * Both front ends decide through here, the workbench (src/ui: 1-5, a,
 * r, f, m, u, C-r, e and the :label :review :note lines) and the headless
 * commands (src/cli: label, review, note, repair, undo, redo), so that a
 * rule about a decision is written once: a label rests on the latest
 * run, read in the label's own transaction; a repair is a candidate made
 * by the reviewer or by a model the reviewer runs (its origin), refused
 * when it hands the parent's code back, never stored twice, and
 * journalled as a "repair" event under the reviewer (the model's repair
 * loop in src/generate is handed decide_repair_make() by its caller); undo
 * and redo say what they moved in a struct, not in prose to be parsed
 * back.  Every call is one SQLite transaction that also appends to the
 * journal (design.md section 2), or joins the transaction of a batch
 * (decide_bulk) or of an import.
 *
 * Asking first (a failure label on a passing candidate, an accept of a
 * failing one) is the front end's business: it knows how to ask.  This
 * layer never prints and never exits; it returns -1 with err.
 *
 * Calls: store (the only SQLite caller).  Called by: src/ui, src/cli.
 */
#ifndef ASSAY_DECIDE_H
#define ASSAY_DECIDE_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "store/store.h"

/* What a decision does. */
enum decide_kind {
	DECIDE_LABEL,	/* category [sub], note: a label */
	DECIDE_REVIEW,	/* status, note: a review */
	DECIDE_NOTE,	/* text: a free note (never undone) */
};

/*
 * One decision, as the caller gives it; every string is borrowed.
 *   DECIDE_LABEL   category: compile api functional format performance;
 *                  sub (NULL: none); note (NULL: none); final 1: the
 *                  final word on a disagreement (no vote; sub and note
 *                  are not kept)
 *   DECIDE_REVIEW  status: unreviewed accepted rejected flagged;
 *                  note (NULL: none)
 *   DECIDE_NOTE    note: the text, not empty
 */
struct decide_act {
	enum decide_kind kind;
	const char	*category, *sub, *status, *note;
	int		 final;
};

/* What one decision rested on. */
struct decide_out {
	int64_t	 run_id;	/* DECIDE_LABEL: the latest run, 0: none */
	int	 unchanged;	/* 1: it changed nothing, so nothing was
				 * stored or journalled (decide_one()) */
};

/*
 * Make decision act on cand_id (a full id) by reviewer by, journalled
 * under by.  A label records the candidate's latest run and its evidence
 * as what it rests on, read in the same transaction as the label, so a
 * run stored between the front end's look and the label cannot be
 * missed.  A label or review that changes nothing (the candidate's
 * current one is by by, says the same and, a label, rests on the same
 * run) is not made and not journalled: out->unchanged says so.
 * Inside an open transaction (a batch, an import) it joins it;
 * otherwise it is its own.  out may be NULL.  0 or -1 with err (an
 * unknown category or status, an empty note, a bad reviewer name, a
 * candidate that does not exist); nothing changed on -1.
 */
int	decide_one(struct store *st, const struct decide_act *act,
	    const char *cand_id, const char *by, struct decide_out *out,
	    struct err *err);

/* decide_one() of a label, a review and a note, spelled out. */
int	decide_label(struct store *st, const char *cand_id,
	    const char *category, const char *sub, const char *note,
	    const char *by, struct decide_out *out, struct err *err);
int	decide_review(struct store *st, const char *cand_id,
	    const char *status, const char *note, const char *by,
	    struct err *err);
int	decide_note(struct store *st, const char *cand_id, const char *text,
	    const char *by, struct err *err);

/*
 * Make act on each of the n candidates ids[] (full ids) as one journal
 * batch in one transaction: one undo takes all of them back.  Those it
 * changes nothing on are left out, as decide_one() leaves them; *made
 * (may be NULL) is how many were made.  On -1 nothing changed, err
 * names the reason and *failed (may be NULL) the index of the candidate
 * it failed on (n when the batch itself failed).
 */
int	decide_bulk(struct store *st, const struct decide_act *act,
	    char *const *ids, size_t n, const char *by, size_t *failed,
	    size_t *made, struct err *err);

/*
 * How many of the n candidates ids[] (full ids) act would change
 * nothing on, by decide_one()'s rule (a note always changes something:
 * 0), read now, outside any transaction: what a front end says or asks
 * before deciding ("already: nothing changed" without a question).  A
 * candidate that cannot be read counts as changed.
 */
size_t	decide_unchanged(struct store *st, const struct decide_act *act,
	    char *const *ids, size_t n, const char *by);

/*
 * What a person should be asked, or told, before act on the n candidates
 * ids[] (full ids): a failure label on candidates whose latest run
 * passes, an accept of ones whose latest verdict is not pass or that
 * never ran.  Into buf of len bytes: " although it passes", " although
 * 2 of them do not pass or never ran", "" when nothing (any other act:
 * always "").  Reads each candidate's latest run; one that cannot be
 * read counts as never ran.  Returns buf.
 */
const char *decide_warning(struct store *st, const struct decide_act *act,
	    char *const *ids, size_t n, char *buf, size_t len);

/*
 * The candidates journalled as "also a repair of" parent: existing code
 * an edit or a model reproduced while repairing parent, recorded by
 * decide_repair() (their own parent is another candidate, or none).
 * *ids new (strv_free()), oldest first.  0 or -1.
 */
int	decide_also_repairs(struct store *st, const char *parent,
	    char ***ids, size_t *n, struct err *err);

/* A repair made by decide_repair(). */
struct decide_repair {
	char	*id;		/* new string: the repair's candidate id */
	int	 inserted;	/* 0: the code was a candidate already (id) */
	char	*origin;	/* new string: that candidate's origin */
	char	*parent;	/* new string: its own parent, or NULL */
};
/* Free the strings of r; NULL-safe and idempotent. */
void	decide_repair_release(struct decide_repair *r);

/* What a repair is made of (decide_repair_make()); all borrowed. */
struct decide_repair_in {
	const char	*parent;	/* the failed candidate, a full id */
	const char	*code;		/* len bytes */
	size_t		 len;
	const char	*origin;	/* its author: NULL for the reviewer,
					 * by; else a model's name */
	const char	*source;	/* where it came from ("edit of
					 * c1a2b3c"); NULL: "repair of PARENT
					 * by ORIGIN" */
	const char	*extra;		/* JSON text kept with it (a model's
					 * generation record); NULL: none */
	int		 refusal;	/* a model's refusal (its text in
					 * extra): stored without code */
};

/* Is code (len bytes) no code at all: empty, or only white space (space,
 * tab, newline, carriage return, vertical tab, form feed)?  The one
 * test for "an empty answer makes no candidate", whoever answers. */
int	decide_code_blank(const char *code, size_t len);

/*
 * The one rule for a repair, whoever makes it (the workbench's editor,
 * `assay repair --file`, the model's repair loop): in->code as a repair
 * of candidate in->parent, a candidate of parent's task and language,
 * kind "repair", parent as its parent, in->origin as its origin (the
 * reviewer by when NULL), with in->source and in->extra, journalled as
 * a "repair" event under by ("repair of PARENT", "repair of PARENT by
 * ORIGIN" when the origin is not by), in one transaction (or the
 * caller's).  by must be a reviewer name (ident_check_reviewer()): the
 * person who made the repair or ran the model.  Code identical to the
 * parent's is refused: 1, err says so, nothing stored (handing the
 * failed code back repairs nothing; the model loop ends that chain).
 * Code that is empty or only white space (decide_code_blank()) is no
 * repair, unless in->refusal: 2, err says so, nothing stored (an editor
 * that emptied the file, an empty --file).
 * Code that is already a candidate of the task by that origin is not
 * stored twice: r->inserted is 0, r->id names it and, when it is not yet
 * a repair of parent, the journal and a note on it say it repairs parent
 * too.  A repair is never undone (like a note): undo and redo take back
 * labels and reviews.  *r is filled on 0 (release it); on 1 or -1
 * nothing changed and err says why.
 */
int	decide_repair_make(struct store *st, const struct decide_repair_in *in,
	    const char *by, struct decide_repair *r, struct err *err);

/*
 * A reviewer's repair: decide_repair_make() of code (len bytes) as a
 * repair of parent by by, with source (NULL: "repair of PARENT by BY"),
 * no extra; code identical to the parent's, or blank, is an error here
 * (-1).  0, or -1 with err.
 */
int	decide_repair(struct store *st, const char *parent, const char *code,
	    size_t len, const char *by, const char *source,
	    struct decide_repair *r, struct err *err);

/*
 * Undo (redo 0) or redo (redo 1) reviewer by's newest step, or anyone's
 * (any 1, journalled as by's): a bulk decision's batch moves whole.
 * *out says what moved: its count, the candidate decided first, the
 * field and its journal detail.  0, 1 when there is nothing to undo or
 * redo (*out zeroed), or -1 with err (another reviewer decided the
 * candidate since: see store_undo).
 */
int	decide_undo(struct store *st, int redo, const char *by, int any,
	    struct store_step *out, struct err *err);

/*
 * What decide_undo() did (rc its return, out its step), in the words
 * both front ends print: "undid label compile of c1a2b3c",
 * "redid review accepted of 3 candidates, first of c1a2b3c", "nothing to
 * undo by ann".  Into buf of n bytes (truncated); returns buf.
 */
const char *decide_undo_text(int rc, int redo, const char *by, int any,
	    const struct store_step *out, char *buf, size_t n);

#endif
