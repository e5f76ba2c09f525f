/*
 * wb.h - the workbench's model, for the files of src/ui only.
 *
 * struct wb is the queue page, the selection and the candidate on
 * screen, the marks and the status line (message, question); what else
 * the workbench holds is a part of its own, changed by its own module:
 * the layout (struct wb_layout: pane.c, ui.c), the `:` and `/` lines
 * (struct wb_prompt: prompt.c), the search (struct wb_search: wb.c's
 * wb_search_*), the navigation stack (struct wb_navstack: wb_nav_*), the
 * background verification (struct batch: batch.c).  Each pane keeps its
 * own state (pane.h); the toolchain pane's functions are in
 * panes/term.h.  Nothing is drawn outside ui_frame();
 * I/O handlers and decisions only change the model and mark it dirty.
 */
#ifndef ASSAY_UI_WB_H
#define ASSAY_UI_WB_H

#include <poll.h>
#include <regex.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "app/config.h"
#include "decide/decide.h"
#include "app/history.h"
#include "app/keymap.h"
#include "base/buf.h"
#include "model/sample.h"
#include "store/store.h"
#include "ui/pane.h"
#include "ui/ui.h"
#include "verify/verify.h"

struct batch;
struct dsvc;
struct mrun;
struct pending;

/*
 * v and e zoom a small toolchain pane: while the program runs (RUN), and
 * after a verification ended until the next key that is not a scroll
 * key (HOLD), so that its output can be read.
 */
enum wb_auto_zoom { WB_AZ_NONE, WB_AZ_RUN, WB_AZ_HOLD };

/* A y/n question in the status bar and what a "y" does. */
enum wb_ask { WB_ASK_NONE, WB_ASK_QUIT, WB_ASK_BULK };

/*
 * The `:` and `/` lines (prompt.c, which alone changes it): whether one
 * is open and which, its text, the history and where Up/Down are in it,
 * and the completions of the word at the end.
 */
struct wb_prompt {
	int		 open;		/* the : or / line is open */
	char		 kind;		/* ':' or '/' */
	char		 text[256];
	size_t		 len;
	struct history	 hist;
	long		 pos;		/* the entry shown; -1: typed */
	char		*typed;		/* the line before Up; owned */
	char		**comps;	/* ncomps completions; owned */
	size_t		 ncomps;
	size_t		 comp;		/* the one chosen; ncomps: none */
	size_t		 word;		/* where the completed word starts */
	int		 cycling;	/* the next Tab walks comps */
};

/* `/` search (wb_search_set, wb_search_next): the pattern, compiled
 * when ok. */
struct wb_search {
	char		*pattern;	/* owned; NULL: none yet */
	regex_t		 re;
	int		 ok;
};

/* The candidate on screen and everything shown about it. */
struct wb_cur {
	char		*id;		/* NULL: nothing selected */
	struct candidate cand;
	struct task	 task;
	struct store_row row;		/* its queue row (decisions) */
	struct run	 run;		/* latest run, if has_run */
	int		 has_run;
	struct recorded	*rec;
	size_t		 nrec;
	struct store_note *notes;	/* its free notes, oldest first */
	size_t		 nnotes;
	struct store_vote *votes;	/* reviewers' labels (store_votes) */
	size_t		 nvotes;
};

/*
 * The navigation stack (VisiData's sheets): what Esc, or q in a
 * sub-view, goes back to.  A drill-down from the stats sheet, a :view
 * and a zoom push one; the entry holds what was there before.  Owns its
 * strings.
 */
enum wb_nav_kind { WB_NAV_FILTER, WB_NAV_ZOOM };
struct wb_nav {
	int	 kind;		/* enum wb_nav_kind */
	char	*filter;	/* the filter before, NULL: all */
	char	*id;		/* the candidate under the cursor then */
	struct pane *sheet;	/* a drill-down from it: open it again */
	struct pane_place place;	/* where its cursor was */
	char	 what[64];	/* for the message: "stats drill-down" */
};

/* The navigation stack: n entries, the top last (wb_nav_*). */
struct wb_navstack {
	struct wb_nav	*v;
	size_t		 n;
};

/* The panes and where they are (pane.c lays them out, ui.c zooms). */
struct wb_layout {
	struct pane	 panes[WB_NPANES];
	struct pane	 sheets[WB_NSHEETS];
	int		 focus;		/* enum wb_pane */
	int		 zoom;		/* zoomed pane or -1 */
	int		 auto_zoom;	/* enum wb_auto_zoom */
	int		 zoom_before;	/* zoom before auto_zoom */
	int		 focus_before;	/* focus before auto_zoom */
	int		 relayout;
	int		 resized;	/* the terminal changed size */
};

struct wb {
	struct store		*st;		/* borrowed */
	const struct ui_opts	*o;		/* borrowed */
	struct verify_opts	 vopts;
	struct keymap		 km;
	struct config		 cfg;		/* theme, mouse, advance */
	char			*reviewer;
	char			*filter;	/* NULL: everything */

	/* The queue: only the visible page is held. */
	size_t			 count, sel, top;
	struct store_row	*rows;
	size_t			 nrows, rows_off;
	int			 stale;		/* re-read the page */
	/*
	 * With stale: the view changed around the cursor (a refresh, a
	 * bulk decision, a run stored), so the cursor follows its
	 * candidate, not its row number (wb_view_changed).
	 */
	int			 follow;
	int			 detached;	/* cur is not in the queue */
	/*
	 * With detached: the candidate under the cursor left the view when
	 * it changed around it (a run stored, another reviewer's label).
	 * The cursor never moves by itself, so it stays on screen where it
	 * was, dimmed and marked: a row shown before the view's row sel
	 * (sel == count: after the last), until the reviewer moves.
	 */
	int			 gone;
	/*
	 * The candidate a model run or the editor made last (R, :repair),
	 * announced on the status line, never selected by itself: the
	 * goto-new key goes to it.  Owned; NULL: none.
	 */
	char			*made;
	struct wb_cur		 cur;
	/*
	 * Counts the loads of cur (wb_load): a pane that keeps what it
	 * derived from the candidate (the code's syntax tree, the trace's
	 * chain) derives it again when this moved.
	 */
	unsigned long		 cur_gen;
	/* Marked candidates (Space), in memory only; owns the ids. */
	char			**marks;
	size_t			 nmarks;
	char			*bulk;		/* the :command a y runs */

	struct wb_layout	 lay;

	/* Bytes of program output since the last frame (the toolchain
	 * pane adds them): a flood draws less often. */
	size_t			 term_fed;

	/* The status bar. */
	char			 msg[512];
	int			 msg_err;
	/* The last WB_MSGLOG messages, whole, with their time (:messages;
	 * the status bar cuts a long one, and the next one hides it). */
#define WB_MSGLOG	64
	struct wb_logged {
		time_t	 at;
		int	 err;
		char	 text[512];
	}			 msglog[WB_MSGLOG];
	size_t			 nmsglog;	/* written in all */
	/* A y/n question (wb_ask): shown instead of msg until answered,
	 * so that no message written meanwhile hides it. */
	enum wb_ask		 ask;
	char			 question[512];
	char			 ask_id[80];	/* the candidate a decision
						   key's question is about */
	int			 ask_key;	/* bulk is a decision key's
						   line (ui.c) */
	int			 ask_quit;	/* what :quit's question is
						   about (ui.c's quit_why) */
	struct wb_prompt	 pr;		/* prompt.c's */
	struct wb_search	 find;		/* wb_search_*'s */

	struct dsvc		*commit;	/* c (commit.c); owned, NULL:
						   none runs */
	struct xfer		*import;	/* :import (xfer.c); owned,
						   NULL: none runs */
	struct xfer		*merge;		/* :merge (xfer.c); owned,
						   NULL: none runs */
	struct batch		*batch;		/* :verify (batch.c); owned,
						   NULL: never started */
	struct mrun		*mrun;		/* R, :repair, :generate
						   (model_run.c); owned,
						   NULL: none runs */
	struct wb_navstack	 nav;		/* wb_nav_*'s */

	/* Decisions that wait for the store's write lock (pending.c):
	 * npending, oldest first; the next try at pending_at (ms). */
	struct pending		*pending;
	size_t			 npending;
	int64_t			 pending_at;

	/*
	 * The live store (wb_live): the data_version last read, when it is
	 * read next (ms, monotonic), and whether it was read yet.
	 */
	int64_t			 data_version, live_at;
	int64_t			 run_mark;	/* the view read afresh holds
						   the runs up to this id */
	int			 live_seen;

	/* the long operation started last: x cancels it first (its start
	 * said "x cancels") */
	enum wb_job {
		WB_JOB_NONE, WB_JOB_VERIFY_ONE, WB_JOB_MODEL, WB_JOB_BATCH,
		WB_JOB_COMMIT, WB_JOB_IMPORT, WB_JOB_MERGE
	}			 job_last;

	int			 lock_shown;	/* the status bar says a wait
						 * for the lock: drawn again
						 * at each turn until it ends */
	int			 quit;
	int			 dirty;
	int			 redraw_all;
};

/* --- wb.c: the model -------------------------------------------------- */

/* Status bar message; err_msg != 0 shows it as an error. */
void	wb_msg(struct wb *wb, int is_err, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));

/*
 * Ask a y/n question: kind says what a y does.  It stays on the status
 * line until answered, whatever messages come meanwhile (a background
 * verify's, a model run's).
 */
void	wb_ask(struct wb *wb, enum wb_ask kind, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));

/* Re-read the count and the visible page when stale or scrolled, and
 * load the selected candidate when it changed. */
void	wb_sync(struct wb *wb, int page_rows);

/* The visible row at absolute index i, or NULL when not loaded. */
const struct store_row *wb_row(const struct wb *wb, size_t i);

/* Move the selection to index i (clamped). */
void	wb_select(struct wb *wb, size_t i);

/* Select candidate id: in the queue when the filter has it, else shown
 * on its own (until it matches: wb_sync checks again when stale).  Marks
 * everything stale.  id is borrowed and may point into wb->cur. */
void	wb_select_id(struct wb *wb, const char *id);

/*
 * After a decision on id, the candidate under the selection: move to the
 * next row (when advance) if it is still in the filter; if it left, the
 * next row has taken its place.  Why not count again: at a million
 * candidates a count and a position cost tens of milliseconds each, and
 * a decision changes one row (store_query_match tells).  Any other id,
 * or a candidate shown outside the queue, is counted and placed anew.
 */
void	wb_advance(struct wb *wb, const char *id, int advance);

/*
 * Candidate id changed (undo, redo, a bulk action): count the queue and
 * read its page again together, and select id (shown on its own when it
 * is not in the filter), as wb_select_id().
 */
void	wb_changed(struct wb *wb, const char *id);

/* Load candidate id as the current one (NULL clears).  id is borrowed
 * and may be wb->cur.id, which this frees: it works on a copy. */
void	wb_load(struct wb *wb, const char *id);
/*
 * This process stored something about the candidates ids[0..n) that
 * leaves the view's rows as they are (the same candidates match the
 * filter, in the same order; the caller checked): read the held page
 * again when one of them is on it, and the candidate on screen when it
 * is one, without counting the view again.  ids are borrowed.
 */
void	wb_rows_changed(struct wb *wb, char *const *ids, size_t n);
/*
 * This process stored something that moved the candidates of seqs[0..n)
 * into the view (delta +1) or out of it (-1; 0: neither), and nothing
 * else changed it: the count, the page's place and the selection shift
 * by the rows before them, and the page is read again at its place,
 * without counting the view again.  The candidate on screen must not be
 * one of them (its leaving is wb_view_changed's to show).
 */
void	wb_rows_moved(struct wb *wb, const int64_t *seqs, const int *delta,
	    size_t n);

/* Mark the queue and the current candidate for re-reading. */
void	wb_refresh(struct wb *wb);

/*
 * The view changed around the cursor (C-l, a bulk decision, an undo of
 * many, a run stored, another process's commit): re-read it and keep
 * the cursor on the candidate it was on.  The cursor moves only by the
 * reviewer's keys: when that candidate left the view it stays on screen
 * in its place, dimmed and marked (wb->gone), until the reviewer moves.
 */
void	wb_view_changed(struct wb *wb);

/* Rows the queue shows: the view's, and the one that left it under the
 * cursor. */
size_t	wb_shown(const struct wb *wb);

/*
 * The store is live: every WB_LIVE_MS, ask the store whether another
 * process committed (store_data_version: no read of the file); when one
 * did (a headless verify's runs, another reviewer's labels, a merge),
 * re-read the view and the candidate on screen, the cursor staying where
 * it is (wb_view_changed).  foreign: batch_foreign()'s answer (-1: no
 * :verify runs, and the data_version says; 0 or 1: its thread saw no
 * other commit, or one).  wb_live_wait: the ms until the next look, for
 * the frame loop's poll.
 */
#define WB_LIVE_MS	500
void	wb_live(struct wb *wb, int foreign);
int	wb_live_wait(const struct wb *wb);

/* Monotonic milliseconds. */
int64_t	wb_now_ms(void);

/* Set a new filter (NULL or "" for all); 0, or -1 with a message.
 * filter is borrowed and may be wb->filter. */
int	wb_set_filter(struct wb *wb, const char *filter);

/*
 * `/`: compile pattern (POSIX extended, ignoring case) as the search and
 * go to its first match after the selection.  0, or -1 with a message.
 */
int	wb_search_set(struct wb *wb, const char *pattern);
/* n / N: the next (dir 1) or previous (dir -1) match in the filter,
 * reading pages from the store as needed and wrapping around. */
void	wb_search_next(struct wb *wb, int dir);

void	wb_release(struct wb *wb);

/*
 * The navigation stack.  wb_nav_filter: push the filter in force and the
 * candidate under the cursor (with the sheet it came from and its
 * cursor, from->place, when from is not NULL), then set filter; what
 * names the step in messages.  0, or -1 with a message (nothing
 * pushed).  wb_nav_zoom: push a zoom (the
 * caller zooms).  wb_nav_unzoom: drop the newest zoom entry (z gave the
 * layout back).  wb_nav_pop: go back one step: 0, or 1 when the stack is
 * empty.
 */
int	wb_nav_filter(struct wb *wb, const char *filter, struct pane *from,
	    const char *what);
void	wb_nav_zoom(struct wb *wb);
void	wb_nav_unzoom(struct wb *wb);
int	wb_nav_pop(struct wb *wb);
void	wb_nav_release(struct wb *wb);

/* Marks: toggle id (1 when it is marked now), ask, clear all. */
int	wb_mark_toggle(struct wb *wb, const char *id);
int	wb_marked(const struct wb *wb, const char *id);
void	wb_marks_clear(struct wb *wb);


/* --- prompt.c: the `:` and `/` lines ---------------------------------- */

/* Load the history (a message says when it cannot be read). */
void	prompt_init(struct wb *wb);
void	prompt_release(struct wb *wb);
/* Open the prompt kind (':' or '/') with text (may be NULL). */
void	prompt_open(struct wb *wb, char kind, const char *text);
/*
 * A key while the prompt is open.  Returns 1 when Enter ran the line:
 * it is in out (size n), the prompt is closed and the line is in the
 * history.  0 otherwise (Esc closes the prompt).
 */
int	prompt_key(struct wb *wb, int key, char *out, size_t n);
/* The filter language's keys, as Tab completes them (n of them;
 * static). */
const char *const *prompt_filter_keys(size_t *n);
/* Draw the completion menu above the status bar, if one is open. */
void	prompt_draw_menu(struct wb *wb);
/* The `:` commands Tab completes, names and aliases (ui.c hands its
 * table down; app/command.h). */
struct cmd_table;
void	prompt_commands(const struct cmd_table *t);

/* --- the frame loop's poll set ----------------------------------------- */

/*
 * The fds the frame loop polls in one poll(): stdin, then each running
 * service's (the toolchain pane's program, :verify's jobs), added every
 * turn by their *_pollfds functions.  Owns its array; grows as needed.
 */
struct wb_pollset {
	struct pollfd	*v;
	size_t		 n, cap;
};
/* Add fd (ignored when < 0) with events. */
void	wb_pollset_add(struct wb_pollset *ps, int fd, short events);
void	wb_pollset_release(struct wb_pollset *ps);

/* --- batch.c: :verify in the background ------------------------------ */

/*
 * :verify [JOBS] [force]: verify the marked candidates, else the view
 * (its filter), JOBS at a time (default: the CPUs, at most 8), through
 * the verify service in this process (verify/service.h), on a thread of
 * its own with its own store connection (ADR 0054): the frame loop hears
 * it through a pipe.  0, or -1 with a message.
 */
int	batch_start(struct wb *wb, const char *arg);
int	batch_running(const struct wb *wb);
/* Add its jobs' fds to ps; the poll timeout it needs (ms, -1: none). */
void	batch_pollfds(struct wb *wb, struct wb_pollset *ps);
int	batch_timeout(const struct wb *wb);
/* While it runs (1): candidates handled (another verify's claims
 * included), of total, and the runs stored or unchanged that did not
 * pass, all from one summary of the service (fail <= done); else 0. */
int	batch_progress(const struct wb *wb, size_t *done, size_t *total,
	    size_t *fail);
/* While it runs, of its count: in *busy the candidates another verify
 * (a second workbench, a headless verify) claimed and runs, in
 * *refs_added the references of the view's tasks it added to the view's
 * candidates (run first); both 0 when it does not run. */
void	batch_counts(const struct wb *wb, size_t *busy, size_t *refs_added);
/* While it runs, how long its connection has waited for another
 * process's write lock (ms; 0: not waiting). */
long	batch_lock_ms(const struct wb *wb);
/* The runs the last :verify stored (running or ended), and in *fail
 * those that did not pass; 0 when none was started. */
size_t	batch_stored(const struct wb *wb, size_t *fail);
/* Step it (after poll): hear what its thread did (jobs started, runs
 * stored), re-read the view's changed rows as results land, finish it. */
void	batch_io(struct wb *wb);
/* x, C-c: cancel it (its jobs stop; what it stored stays).  batch_stop
 * ends it at once and frees its state (quitting); it returns how many
 * finished runs it dropped that waited for another process's lock. */
void	batch_cancel(struct wb *wb);
size_t	batch_stop(struct wb *wb);
/*
 * While it runs: 1 when another connection (another process, or this
 * screen's own) committed since the last call, as :verify's thread,
 * which runs on a connection of its own, saw it; 0 when not; -1 when no
 * :verify runs (the screen's data_version says it alone then).
 */
int	batch_foreign(struct wb *wb);

/* --- commit.c: c in the background ------------------------------------ */

/*
 * c: commit the accepted candidates to the dataset repository (--repo)
 * through the commit service (exchange/dataset_svc.h): the store is
 * read now, git writes on the service's thread, the status line says
 * what was committed when it ends.  As a service of the frame loop;
 * x cancels it before git writes; commit_stop waits for git (quitting).
 */
void	commit_start(struct wb *wb);
int	commit_running(const struct wb *wb);
void	commit_pollfds(struct wb *wb, struct wb_pollset *ps);
int	commit_timeout(const struct wb *wb);
void	commit_step(struct wb *wb);
void	commit_cancel(struct wb *wb);
void	commit_stop(struct wb *wb);

/* --- xfer.c: :import and :merge in the background ------------------- */

/*
 * :import PATH [FORMAT] and :merge RESULTS... | --shards DIR (the options
 * of assay import and merge) through the import and merge services
 * (exchange/import_svc.h, app/merge_svc.h), each on a store connection
 * of its own, as services of the frame loop; one of each at a time.
 * *_progress: while it runs (1), the rows read (import) or lines read
 * (merge) and what was stored so far, and how long its connection has
 * been waiting for another's write lock (ms, 0: not waiting); else 0.
 * x cancels, a wait for the lock included: an import rolls its input
 * back, a merge keeps the runs stored.  *_stop ends it at once
 * (quitting): a wait for the lock ends, then it waits for the service's
 * thread.
 */
int	import_running(const struct wb *wb);
int	import_progress(const struct wb *wb, size_t *rows, size_t *stored,
	    long *lock_ms);
void	import_pollfds(struct wb *wb, struct wb_pollset *ps);
int	import_timeout(const struct wb *wb);
void	import_step(struct wb *wb);
void	import_cancel(struct wb *wb);
void	import_stop(struct wb *wb);
int	merge_running(const struct wb *wb);
int	merge_progress(const struct wb *wb, size_t *lines, size_t *stored,
	    long *lock_ms);
void	merge_pollfds(struct wb *wb, struct wb_pollset *ps);
int	merge_timeout(const struct wb *wb);
void	merge_step(struct wb *wb);
void	merge_cancel(struct wb *wb);
void	merge_stop(struct wb *wb);

/* --- model_run.c: R, :repair, :generate -------------------------------- */

/*
 * R: a repair of the candidate on screen (the newest of the model's
 * chain from it, when that failed too), one round, verified; :repair
 * [ROUNDS] and :generate [SAMPLES] over the marked candidates, else the
 * view.  The generator is the config file's; the round loop service
 * (generate/loop.h) runs in this process, its story in the toolchain
 * pane.  0, or -1 with a message.
 */
int	mrun_repair_one(struct wb *wb);
int	mrun_start(struct wb *wb, const char *verb, const char *count);
/* As a service of the frame loop. */
int	mrun_running(const struct wb *wb);
void	mrun_pollfds(struct wb *wb, struct wb_pollset *ps);
int	mrun_timeout(const struct wb *wb);
void	mrun_step(struct wb *wb);
/* x: stop after what is asked now.  mrun_stop: end it (quitting). */
void	mrun_cancel(struct wb *wb);
void	mrun_stop(struct wb *wb);

/* --- pending.c: decisions that wait for the lock --------------------- */

/*
 * How long the workbench's connection waits for a write lock another
 * process holds (ms): short, so that no key freezes the screen; what it
 * meant to write waits in this process instead (pending.c, and the
 * verify service's lock_wait_ms).
 */
#define WB_LOCK_MS	20
/* How long a finished run may wait for the lock before it is given up. */
#define WB_RUN_WAIT_MS	(10 * 60 * 1000)

/*
 * Make decision act on id as the reviewer (decide_one()): 0 when made
 * (out says what it rested on, or that it changed nothing), -1 with err
 * when refused; 1 when another process holds the write lock, or earlier
 * decisions still wait for it: then it waits too, in order, and is made
 * when the lock frees (the status line says so).  act's strings are
 * copied.
 */
int	wb_decide(struct wb *wb, const struct decide_act *act, const char *id,
	    struct decide_out *out, struct err *err);
/* The waiting decisions as a service of the frame loop (a timer). */
int	pending_running(const struct wb *wb);
void	pending_pollfds(struct wb *wb, struct wb_pollset *ps);
int	pending_wait(const struct wb *wb);
void	pending_step(struct wb *wb);
/* Whether a decision on candidate id waits (its queue row says so). */
int	pending_has(const struct wb *wb, const char *id);
/* The journal's entry of commit oid (made in the repository) waits for
 * the lock like a decision. */
void	pending_commit(struct wb *wb, const char *oid);
/* Drop what waits (quitting: the question said so). */
void	pending_release(struct wb *wb);
/*
 * Make what waits, waiting wait_ms for the lock (the workbench was told
 * to stop: a signal, not the reviewer's quit); what still cannot be made
 * is printed on stderr as the commands that make it, then dropped:
 * whole command lines, with the database db_path (NULL: the default)
 * and the reviewer, each word quoted for the shell, so that they run as
 * printed from any folder.  After endwin(): it writes to the terminal.
 * Returns how many were not made (0: every one was).
 */
size_t	pending_flush(struct wb *wb, int wait_ms, const char *db_path);

/* --- mouse.c ---------------------------------------------------------- */

/*
 * A mouse event at screen row y, column x: a click (button 1, 3) selects
 * the queue row or focuses the pane under it, the wheel (dir -1 up, 1
 * down, 0 for a click) scrolls what is under it.
 */
void	mouse_event(struct wb *wb, int y, int x, int button, int dir);

/* --- terminfo.c ------------------------------------------------------- */

/*
 * Whether terminfo knows the terminal type term and it can move the
 * cursor, asked without a byte to the terminal: 0 yes, 1 it cannot move
 * the cursor, -1 no entry.  Source: terminfo(5), setupterm(3X).
 */
int	ui_terminfo_check(const char *term);

/* --- statusbar.c ------------------------------------------------------ */

void	statusbar_draw(struct wb *wb, WINDOW *win, int y, int cols);

#endif
