/*
 * panes/term.c - the toolchain pane: a terminal (term.h) fed either by
 * a verification job of the verify service (service.h) on a pty, or by
 * $EDITOR on a pty (pty.h).  term.c knows nothing of ptys and pty.c
 * nothing of screens; this file wires them together (Neovim's terminal
 * is decoupled from its feeder the same way).
 *
 * I/O handlers only feed the terminal and mark the model dirty; the
 * cells are drawn by term_draw() inside the frame.  While the editor
 * runs it has the keyboard (kbd) until Ctrl-] takes it back.  When
 * the editor exits and the file changed, the change becomes a repair
 * candidate, which is verified in the pane at once.
 *
 * The terminal keeps its width while no program runs: libvterm 0.1.4
 * does not reflow, so shrinking it would cut long lines for good.  It
 * grows with the pane and is drawn clipped into a smaller one; it takes
 * the pane's size when a new program starts (and follows the editor,
 * which draws for its size).  The pane shows the terminal's scrollback
 * and screen as one list of lines (the view): its bottom while output
 * arrives, from an absolute line number once scrolled back, and, when a
 * failed verification ends, from the last line that holds the message its
 * verdict rests on (else its end, where a harness prints its results).
 * assay's own lines start with a mark no run can print (OWN_MARK).
 */
#define _GNU_SOURCE
#include "ui/panes/term.h"
#include "ui/wb.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "decide/decide.h"
#include "base/file.h"
#include "base/hash.h"
#include "exchange/dataset.h"
#include "exec/pty.h"
#include "exec/term.h"
#include "exec/termfilter.h"
#include "verify/service.h"
#include "verify/verify.h"
#include "model/vocab.h"

/*
 * The pane's own state (its priv): the terminal and what feeds it, and
 * the view of it.  Nothing outside this file reads it; the workbench asks
 * through the term_pane_* functions (panes/term.h).
 */
struct term_pane {
	struct term		*term;
	/* What a run, a stored log or a model's answer may show goes
	 * through tf (termfilter.h) into tfout; assay's own lines and the
	 * editor's screen do not. */
	struct term_filter	 tf;
	struct buf		 tfout;
	struct vsvc		*vs;		/* v's batch: the reference
						   and its candidate */
	int64_t			 job_t0;	/* ms, its job's start */
	struct pty		 ed;		/* the editor; pid > 0: runs */
	char			*ed_dir, *ed_path, *ed_cand;
	char			 ed_hash[SAMPLE_HASH_HEX];
	int			 claimed;	/* a model run writes here
						 * (term_pane_claim) */
	int			 kbd;		/* 1: the program has keys */
	int			 ed_focus;	/* the focus before e */
	char			 term_title[128];
	/* The candidate whose run the terminal shows (live or its stored
	 * log), NULL: none or another program's output (term_pane_follow) */
	char			*term_cand;
	/* The stored run shown for term_cand (its id; 0: "no run yet"),
	 * or -1 for a live run's or a model run's output, which stays. */
	int64_t			 term_run;
	/*
	 * The view of the terminal: its bottom (follow), or from line
	 * term_top, an absolute line number (term_sb_total()), so that new
	 * output does not move a view scrolled back.
	 */
	int			 term_follow;
	long			 term_top;
};

static struct term_pane *
term_pane_of(const struct wb *wb)
{
	return wb->lay.panes[WB_TERM].priv;
}

#define TERM_SMALL_ROWS 10	/* a smaller pane zooms for v and e */

/*
 * The marks that start assay's own lines in the pane (the header, the
 * verdict, a gap in a replayed log), in reverse video: the filter drops
 * reverse (and backgrounds) from every byte of a run, so that a run can
 * print "» ID: pass", colour and all, but never with this mark.
 */
#define OWN_MARK	"\033[7m\xc2\xbb\033[27m"		/* » */
#define GAP_MARK	"\033[7m\xe2\x8b\xaf\033[27m"	/* ⋯ */

int
term_pane_busy(const struct wb *wb)
{
	struct term_pane *tp = term_pane_of(wb);

	return tp->vs != NULL || tp->ed.pid > 0 || tp->claimed;
}

void
term_pane_pollfds(struct wb *wb, struct wb_pollset *ps)
{
	struct term_pane *tp = term_pane_of(wb);

	if (tp->vs != NULL) {
		struct pollfd *fds;
		size_t n = vsvc_pollfds(tp->vs, &fds);

		for (size_t i = 0; i < n; i++)
			wb_pollset_add(ps, fds[i].fd, POLLIN);
	} else if (tp->ed.pid > 0) {
		wb_pollset_add(ps, tp->ed.fd, POLLIN);
	}
}

int
term_pane_timeout(const struct wb *wb)
{
	struct term_pane *tp = term_pane_of(wb);

	if (tp->vs != NULL) {
		int t = vsvc_timeout_ms(tp->vs);

		return t < 100 ? t : 100;	/* reap, clock in the title */
	}
	if (tp->ed.pid > 0)
		return tp->ed.fd < 0 ? 20 : 500;
	return -1;
}

/* Zoom the toolchain pane for v and e when it is too small to read. */
static void
auto_zoom(struct wb *wb)
{
	if (wb->lay.auto_zoom == WB_AZ_HOLD) {
		/* a new run while the last one's zoom is held keeps it */
		wb->lay.auto_zoom = WB_AZ_RUN;
		return;
	}
	if (wb->lay.auto_zoom || wb->lay.zoom == WB_TERM)
		return;
	if (wb->lay.panes[WB_TERM].rows >= TERM_SMALL_ROWS)
		return;
	wb->lay.zoom_before = wb->lay.zoom;
	wb->lay.focus_before = wb->lay.focus;
	wb->lay.zoom = WB_TERM;
	wb->lay.focus = WB_TERM;	/* j/k scroll the output */
	wb->lay.auto_zoom = WB_AZ_RUN;
	wb->lay.relayout = 1;
}

static void
auto_unzoom(struct wb *wb)
{
	if (!wb->lay.auto_zoom)
		return;
	wb->lay.auto_zoom = WB_AZ_NONE;
	if (wb->lay.zoom == WB_TERM) {
		wb->lay.zoom = wb->lay.zoom_before;
		wb->lay.focus = wb->lay.focus_before;
	}
	wb->lay.relayout = 1;
}

void
term_pane_zoom(struct wb *wb, int on)
{
	if (on)
		auto_zoom(wb);
	else
		auto_unzoom(wb);
}

int
term_pane_unhold(struct wb *wb, enum action a)
{
	if (wb->lay.auto_zoom != WB_AZ_HOLD)
		return 0;
	switch (a) {
	case ACTION_MOVE_DOWN: case ACTION_MOVE_UP:
	case ACTION_PAGE_DOWN: case ACTION_PAGE_UP:
	case ACTION_MOVE_FIRST: case ACTION_MOVE_LAST:
	case ACTION_HELP:
		return 0;	/* read on */
	case ACTION_VERIFY: case ACTION_EDIT: case ACTION_MODEL_REPAIR:
		return 0;	/* the next program keeps the zoom */
	default:
		break;
	}
	auto_unzoom(wb);
	return a == ACTION_NONE || a == ACTION_ZOOM || a == ACTION_BACK ||
	    a == ACTION_QUIT;
}

int
term_pane_verifying(const struct wb *wb)
{
	return term_pane_of(wb)->vs != NULL;
}

int
term_pane_kbd(const struct wb *wb)
{
	struct term_pane *tp = term_pane_of(wb);

	return tp->kbd && tp->ed.pid > 0;
}

void
term_pane_keyboard(struct wb *wb, int on)
{
	struct term_pane *tp = term_pane_of(wb);

	if (!on) {
		tp->kbd = 0;
		return;
	}
	if (tp->ed.pid <= 0) {
		wb_msg(wb, 1, "no program runs in the toolchain pane");
		return;
	}
	tp->kbd = 1;
	wb->lay.focus = WB_TERM;
	auto_zoom(wb);
}

const char *
term_pane_program(const struct wb *wb)
{
	return term_pane_of(wb)->term_title;
}

int
term_pane_cursor(const struct wb *wb, int *row, int *col, int *visible)
{
	struct term_pane *tp = term_pane_of(wb);

	if (!term_pane_kbd(wb) || tp->term == NULL)
		return -1;
	term_cursor(tp->term, row, col, visible);
	return 0;
}

/*
 * The terminal takes the pane's size for a new program (rows x cols;
 * the zoomed size when v or e zoomed), and the view follows its output.
 */
static void
term_start(struct wb *wb, int rows, int cols)
{
	struct term_pane *tp = term_pane_of(wb);

	if (tp->term != NULL) {
		term_resize(tp->term, rows, cols);
		term_reset(tp->term);
	}
	term_filter_init(&tp->tf);
	tp->term_follow = 1;
	tp->term_top = 0;
	wb->lay.panes[WB_TERM].hscroll = 0;
	free(tp->term_cand);	/* the caller says whose, if anyone's */
	tp->term_cand = NULL;
	tp->term_run = -1;
}

/*
 * What the filter holds of the run's output ends (an open sequence is
 * dropped, its pen reset), so that what follows starts clean.
 */
static void
filter_end(struct term_pane *tp)
{
	buf_reset(&tp->tfout);
	term_filter_end(&tp->tf, &tp->tfout);
	if (tp->term != NULL && tp->tfout.len > 0)
		term_feed(tp->term, tp->tfout.p, tp->tfout.len);
}

/* assay's own text: after the run's, in its own colours. */
static void
feed_str(struct wb *wb, const char *s)
{
	struct term_pane *tp = term_pane_of(wb);

	filter_end(tp);
	if (tp->term != NULL)
		term_feed(tp->term, s, strlen(s));
}

/*
 * Untrusted bytes (a job's output in chunks cut anywhere, a stored log,
 * a model's answer) go through the filter: it also makes each line end
 * "\r\n", as pane jobs run on a raw pty (no \n -> \r\n).
 */
static void
job_out(const char *bytes, size_t len, void *arg)
{
	struct wb *wb = arg;
	struct term_pane *tp = term_pane_of(wb);

	if (tp->term == NULL)
		return;
	buf_reset(&tp->tfout);
	term_filter_run(&tp->tf, bytes, len, &tp->tfout);
	if (tp->tfout.len > 0)
		term_feed(tp->term, tp->tfout.p, tp->tfout.len);
	wb->term_fed += len;
	wb->dirty = 1;
}

/*
 * The verify service's hooks (service.h): the pane shows the bytes of
 * its one job at a time and says what became of each run; the service
 * decides what runs, in which order, and stores it.
 */
static void
svc_starting(void *arg, const struct candidate *c, const struct task *t,
    int *rows, int *cols)
{
	struct wb *wb = arg;
	char line[256];
	int r = wb->lay.panes[WB_TERM].rows, cl = wb->lay.panes[WB_TERM].cols;

	auto_zoom(wb);
	if (wb->lay.auto_zoom) {
		/* the job starts at the zoomed size */
		r = LINES - 2;
		cl = COLS - 2;
	}
	*rows = r > 0 ? r : 24;
	*cols = cl > 0 ? cl : 80;
	term_start(wb, *rows, *cols);
	snprintf(line, sizeof line, "\033[1m" OWN_MARK " verify %s \xc2\xb7 %s "
	    "\xc2\xb7 %s\033[0m\r\n", c->id, c->task_id, t->env ? t->env : "?");
	feed_str(wb, line);
}

static void
svc_started(void *arg, struct verify_job *j, const struct candidate *c,
    const struct task *t)
{
	struct wb *wb = arg;
	struct term_pane *tp = term_pane_of(wb);

	(void)j;
	tp->job_t0 = wb_now_ms();
	tp->term_cand = xstrdup(c->id);
	snprintf(tp->term_title, sizeof tp->term_title, "%s \xc2\xb7 %s",
	    t->env ? t->env : "", c->id);
	wb_msg(wb, 0, "verifying %s (x cancels)", c->id);
	wb->dirty = 1;
}

static void
svc_problem(void *arg, enum vsvc_problem what, const char *id,
    const char *msg)
{
	struct wb *wb = arg;

	if (what == VSVC_START) {
		char *m = xasprintf("\033[31massay: %s\033[0m\r\n", msg);

		feed_str(wb, m);
		free(m);
		auto_unzoom(wb);
		wb->dirty = 1;
	}
	if (id != NULL)
		wb_msg(wb, 1, "verify %s: %s", id, msg);
	else
		wb_msg(wb, 1, "verify: %s", msg);
}

static void svc_finished(void *arg, const struct vsvc_result *res);

int
wb_verify(struct wb *wb, const char *id)
{
	struct term_pane *tp = term_pane_of(wb);
	struct vsvc_opts o = {
		.vo = wb->vopts, .jobs = 1, .use_pty = 1,
		/* v runs the candidate again; its task's reference only
		 * when it never ran, first, to judge the candidate by */
		.force = 1, .refs = VSVC_REFS_UNRUN,
		.lock_wait_ms = WB_RUN_WAIT_MS,	/* a held lock: no freeze */
	};
	struct vsvc_hooks h = {
		.starting = svc_starting, .started = svc_started,
		.output = job_out, .finished = svc_finished,
		.problem = svc_problem, .arg = wb,
	};
	char *ids[1];
	struct err err;

	if (tp->vs != NULL) {
		wb_msg(wb, 1, "a verification is running: x cancels it");
		return -1;
	}
	if (tp->ed.pid > 0) {
		wb_msg(wb, 1, "the editor is running in the toolchain pane");
		return -1;
	}
	if (id == NULL) {
		wb_msg(wb, 1, "no candidate selected");
		return -1;
	}
	ids[0] = xstrdup(id);	/* id may be wb->cur.id */
	if (vsvc_new(&tp->vs, wb->st, &o, &h, ids, 1, &err) < 0) {
		wb_msg(wb, 1, "verify %s: %s", ids[0], err.msg);
		free(ids[0]);
		return -1;
	}
	if (vsvc_start(tp->vs) == 1) {
		/* it could not start: a hook said why */
		vsvc_free(tp->vs);
		tp->vs = NULL;
		free(ids[0]);
		return -1;
	}
	wb->job_last = WB_JOB_VERIFY_ONE;
	if (vsvc_count(tp->vs) > 1)
		wb_msg(wb, 0, "verifying the task's reference %s first, then"
		    " %s (x cancels)", vsvc_id(tp->vs, 0), ids[0]);
	free(ids[0]);
	return 0;
}

void
term_pane_cancel(struct wb *wb)
{
	struct term_pane *tp = term_pane_of(wb);
	struct verify_job *j = tp->vs != NULL ? vsvc_job(tp->vs, 0) : NULL;

	if (j == NULL) {
		wb_msg(wb, 1, "no verification is running");
		return;
	}
	wb_msg(wb, 0, "cancelling %s", verify_job_cand(j));
	vsvc_cancel(tp->vs);
}

/*
 * What of evidence the log shows as it is: its first 40 bytes, or what
 * follows a "candidate line N: " prefix, at least 12 bytes of it, into
 * key (48 bytes).  0, or -1 when there is no such key.
 */
static int
evidence_key(const char *evidence, char *key)
{
	const char *e = evidence, *colon;
	size_t n;

	if (e == NULL)
		return -1;
	/* "candidate.sv:12: message" is printed by the tool as is; an
	 * evidence of our own ("candidate line 3: ...") quotes after it. */
	if ((colon = strstr(e, ": ")) != NULL && colon - e < 64 &&
	    strlen(colon + 2) >= 12 && strncmp(e, "candidate line", 14) == 0)
		e = colon + 2;
	n = strcspn(e, "\n");
	if (n > 40)
		n = 40;
	if (n < 12)
		return -1;
	memcpy(key, e, n);
	key[n] = '\0';
	return 0;
}

/*
 * The absolute line (term_sb_total() numbering) of the last line of t
 * that holds the start of evidence (evidence_key).  -1 when none does.
 *
 * The last, not the first: the judge took the evidence from a line of
 * the testbench's (the first tagged one) or of the toolchain's, but the
 * log the pane shows has lost the tag that told them from a candidate's
 * own output.  A candidate that prints the same text from its initial
 * block, before the testbench does, would otherwise set the view on its
 * own copy, and on whatever it printed after it (a forged "» ID: pass").
 * The testbench prints its results after the candidate's start.  A copy
 * a candidate prints after them (a final block) still takes the view;
 * the pane's title keeps the verdict and no line a run prints carries
 * assay's mark (OWN_MARK), so that the copy cannot pass for assay's.
 */
static long
evidence_row(const struct term *t, const char *evidence)
{
	char key[48], text[1024];
	int rows, cols;

	if (evidence_key(evidence, key) < 0)
		return -1;
	term_size(t, &rows, &cols);
	for (int row = rows - 1; row >= -term_sb_lines(t); row--) {
		term_row_text(t, row, text, sizeof text);
		if (strstr(text, key) != NULL)
			return term_sb_total(t) + row;
	}
	return -1;
}

/* A failed run's output: show it from the line its verdict rests on,
 * when the view follows the end and such a line is there. */
static void
show_evidence(struct wb *wb, const char *evidence)
{
	struct term_pane *tp = term_pane_of(wb);
	long at, first;

	if (!tp->term_follow || tp->term == NULL)
		return;
	at = evidence_row(tp->term, evidence);
	first = term_sb_total(tp->term) - term_sb_lines(tp->term);
	/* near the start: from the start, with the command line, when
	 * the evidence still shows in the pane's rows from there (at
	 * 80x24 the pane has five: "near" was 15 lines, out of sight) */
	if (at >= 0) {
		int rows = wb->lay.panes[WB_TERM].rows;

		tp->term_follow = 0;
		tp->term_top = at - first < rows - 1 ? first : at - 1;
	}
}

/*
 * A stored log is replayed at every cursor move onto its candidate, and
 * the terminal keeps TERM_SB_MAX lines of it at most: a log of 6 MB took
 * 0.35 s a move to feed and kept its last 5000 rows.  The pane replays
 * its end, REPLAY_ROWS lines and at most REPLAY_ROWS rows' worth of
 * bytes at the pane's width; and when the line the verdict rests on
 * lies before that, REPLAY_AROUND bytes from that line's start (so that
 * show_evidence finds it), each gap said in a line of its own.
 */
#define REPLAY_ROWS	1500
#define REPLAY_AROUND	(16u << 10)

struct replay {
	size_t	 head_from, head_to;	/* the evidence's part; empty: none */
	size_t	 tail_from;		/* the end from here */
};

static void
replay_plan(const char *log, size_t n, const char *evidence, int cols,
    struct replay *rp)
{
	size_t max = (size_t)REPLAY_ROWS * (size_t)(cols > 0 ? cols : 80);
	size_t from = n, lines = 0;
	const char *hit, *nl;
	char key[48];

	memset(rp, 0, sizeof *rp);
	while (from > 0 && n - from < max) {
		if (log[from - 1] == '\n' && ++lines > REPLAY_ROWS)
			break;
		from--;
	}
	/* cut by bytes: from the next line's start when that is near, else
	 * inside the line (one longer than the tail) */
	if (from > 0 && log[from - 1] != '\n' &&
	    (nl = memchr(log + from, '\n', n - from)) != NULL &&
	    nl + 1 < log + n && (size_t)(nl - log) - from < 4096)
		from = (size_t)(nl + 1 - log);
	while (from < n && ((unsigned char)log[from] & 0xC0) == 0x80)
		from++;		/* not inside a UTF-8 sequence */
	rp->tail_from = from;
	/* the last line that holds the evidence, as evidence_row() */
	if (from == 0 || evidence_key(evidence, key) < 0)
		return;
	hit = NULL;
	for (const char *at = log; at < log + n && (at = memmem(at,
	    n - (size_t)(at - log), key, strlen(key))) != NULL; ) {
		hit = at;	/* then on from the next line */
		if ((nl = memchr(at, '\n', n - (size_t)(at - log))) == NULL)
			break;
		at = nl + 1;
	}
	if (hit == NULL || (size_t)(hit - log) >= from)
		return;		/* none, or in the end replayed anyway */
	rp->head_from = (size_t)(hit - log);
	while (rp->head_from > 0 && log[rp->head_from - 1] != '\n' &&
	    (size_t)(hit - log) - rp->head_from < REPLAY_AROUND)
		rp->head_from--;
	if (rp->head_from < 4096)
		rp->head_from = 0;	/* near the start: the command too */
	rp->head_to = rp->head_from + REPLAY_AROUND;
	if (rp->head_to > from)
		rp->head_to = from;
	/* to the end of the line it cuts, when that is near */
	nl = memchr(log + rp->head_to, '\n', from - rp->head_to);
	if (nl != NULL && (size_t)(nl - log) < rp->head_to + 4096)
		rp->head_to = (size_t)(nl + 1 - log);
}

/* A line of assay's own saying how much of the log was left out. */
static void
left_out(struct wb *wb, size_t bytes, const char *id)
{
	struct term_pane *tp = term_pane_of(wb);
	char line[256], size[32];

	if (bytes >= (1u << 20))
		snprintf(size, sizeof size, "%.1f MiB", (double)bytes /
		    (1u << 20));
	else
		snprintf(size, sizeof size, "%zu KiB", (bytes + 1023) >> 10);
	snprintf(line, sizeof line, "%s\033[2m" GAP_MARK " %s of the log "
	    "left out (assay show %s prints it all)\033[0m\r\n",
	    term_filter_mid_line(&tp->tf) ? "\r\n" : "", size, id);
	feed_str(wb, line);
}

/* Replay a stored log, its end and the line its verdict rests on. */
static void
replay_log(struct wb *wb, const struct run *r, const char *id, int cols)
{
	struct replay rp;

	replay_plan(r->log, r->log_len, r->evidence, cols, &rp);
	if (rp.head_to > rp.head_from) {
		if (rp.head_from > 0)
			left_out(wb, rp.head_from, id);
		job_out(r->log + rp.head_from, rp.head_to - rp.head_from, wb);
		filter_end(term_pane_of(wb));
		if (rp.tail_from > rp.head_to)
			left_out(wb, rp.tail_from - rp.head_to, id);
	} else if (rp.tail_from > 0) {
		left_out(wb, rp.tail_from, id);
	}
	job_out(r->log + rp.tail_from, r->log_len - rp.tail_from, wb);
}

void
term_pane_follow(struct wb *wb)
{
	struct term_pane *tp = term_pane_of(wb);
	struct wb_cur *c = &wb->cur;
	struct pane *p = &wb->lay.panes[WB_TERM];
	char line[512], dur[32];
	int pass;

	if (term_pane_busy(wb) || tp->term == NULL || c->id == NULL ||
	    c->cand.id == NULL || p->rows < 1)
		return;
	/* the same candidate: shown again only when it got a newer run
	 * (another process stored one: the live store) */
	if (tp->term_cand != NULL && strcmp(tp->term_cand, c->id) == 0 &&
	    (tp->term_run < 0 || tp->term_run == (c->has_run ? c->run.id :
	    0)))
		return;
	term_start(wb, p->rows, p->cols);
	tp->term_cand = xstrdup(c->id);
	tp->term_run = c->has_run ? c->run.id : 0;
	wb->dirty = 1;
	if (!c->has_run) {
		snprintf(tp->term_title, sizeof tp->term_title, "%s "
		    "\xc2\xb7 not run", c->id);
		feed_str(wb, "\033[2mno run of this candidate yet: v verifies"
		    " it here, e edits it\033[0m\r\n");
		return;
	}
	pass = verdict_is(c->run.verdict, VERDICT_PASS);
	pane_duration(c->run.wall_ms, dur, sizeof dur);
	snprintf(line, sizeof line, "\033[2m" OWN_MARK " run #%lld of %s "
	    "\xc2\xb7 %s (the stored log; v runs it again)\033[0m\r\n",
	    (long long)c->run.id, c->id, c->run.env ? c->run.env : "");
	feed_str(wb, line);
	if (c->run.log != NULL)
		replay_log(wb, &c->run, c->id, p->cols);
	snprintf(line, sizeof line, "\r\n\033[1;%dm" OWN_MARK " %s: %s%s%s "
	    "(%s)\033[0m\r\n", pass ? 32 : 31, c->id, c->run.verdict ?
	    c->run.verdict : "?", c->run.stage ? " \xc2\xb7 " : "",
	    c->run.stage ? c->run.stage : "", dur);
	feed_str(wb, line);
	/* the verdict last: the title's fitting keeps it (term_title) */
	snprintf(tp->term_title, sizeof tp->term_title, "%s \xc2\xb7 %s "
	    "\xc2\xb7 run #%lld \xc2\xb7 %s", c->run.env ? c->run.env : "",
	    c->id, (long long)c->run.id, c->run.verdict ? c->run.verdict :
	    "?");
	if (!pass)
		show_evidence(wb, c->run.evidence);
}

/* A job ended, its run stored by the service: show the verdict. */
static void
svc_finished(void *arg, const struct vsvc_result *res)
{
	struct wb *wb = arg;
	struct term_pane *tp = term_pane_of(wb);
	const struct run *r = res->run;
	char line[512], dur[32];
	int pass, cancelled = res->cancelled;

	pass = verdict_is(r->verdict, VERDICT_PASS);
	pane_duration(r->wall_ms, dur, sizeof dur);
	snprintf(line, sizeof line, "\r\n\033[1;%dm" OWN_MARK " %s: %s%s%s"
	    "%s%s (%s)\033[0m\r\n", pass ? 32 : cancelled ? 33 : 31,
	    r->cand_id, r->verdict, r->stage ? " \xc2\xb7 " : "",
	    r->stage ? r->stage : "", r->category ? " \xc2\xb7 suggests " : "",
	    r->category ? r->category : "", dur);
	feed_str(wb, line);
	if (cancelled) {
		wb_msg(wb, 0, "%s: cancelled; no run stored", r->cand_id);
	} else if (!res->stored) {
		wb_msg(wb, 1, "store run of %s: %s", r->cand_id, res->error);
	} else {
		wb_msg(wb, 0, "%s: %s%s%s (run #%lld, %s)", r->cand_id,
		    r->verdict, r->stage ? " at " : "", r->stage ? r->stage : "",
		    (long long)r->id, dur);
	}
	snprintf(tp->term_title, sizeof tp->term_title, "%s \xc2\xb7 %s "
	    "\xc2\xb7 %s", r->env ? r->env : "", r->cand_id, cancelled ?
	    "cancelled" : r->verdict);
	/* The message that decided the verdict matters most: show the run
	 * from the line that holds it (a compile error near the start);
	 * else its end, where the harness's results and the verdict are. */
	if (!pass && !cancelled)
		show_evidence(wb, r->evidence);
	/* a small screen keeps the zoom until a key, to read the output */
	if (cancelled)
		auto_unzoom(wb);
	else if (wb->lay.auto_zoom)
		wb->lay.auto_zoom = WB_AZ_HOLD;
	wb_view_changed(wb);	/* its row may leave the view */
	/* Then the service starts the next one (the candidate after its
	 * task's reference), unless cancelled. */
}

/* Remove the editor's temporary file and directory. */
static void
ed_cleanup(struct wb *wb)
{
	struct term_pane *tp = term_pane_of(wb);

	if (tp->ed_path != NULL)
		unlink(tp->ed_path);
	if (tp->ed_dir != NULL)
		rmdir(tp->ed_dir);
	free(tp->ed_path);
	free(tp->ed_dir);
	free(tp->ed_cand);
	tp->ed_path = tp->ed_dir = tp->ed_cand = NULL;
	memset(&tp->ed, 0, sizeof tp->ed);
	tp->ed.fd = -1;
	tp->kbd = 0;
}

/*
 * The edit of parent reproduced the code of candidate rep->id, which
 * exists (decide_repair recorded it as a repair of parent too): say so
 * and show it; verify it only when it never ran.
 */
static void
ed_reproduced(struct wb *wb, const char *parent,
    const struct decide_repair *rep)
{
	struct run r;
	struct err err;
	char *keep = xstrdup(rep->id);
	int has_run;

	/* its own repair already: nothing new recorded, so not said to
	 * be ("recorded as a repair of" the parent it had) */
	const char *rec = rep->parent != NULL && strcmp(rep->parent,
	    parent) == 0 ? "already a repair of" : "recorded as a repair of";

	has_run = store_run_latest(wb->st, keep, &r, &err) == 0;
	wb_select_id(wb, keep);
	if (has_run) {
		auto_unzoom(wb);
		wb_msg(wb, 0, "the edit reproduces %s (%s%s%s), %s %s; its "
		    "latest run: %s", keep, rep->origin, rep->parent ?
		    ", a repair of " : "", rep->parent ? rep->parent : "", rec,
		    parent, r.verdict);
		run_release(&r);
	} else if (wb_verify(wb, keep) == 0) {
		wb_msg(wb, 0, "the edit reproduces %s (%s), %s %s; verifying "
		    "it", keep, rep->origin, rec, parent);
	} else {
		auto_unzoom(wb);
	}
	free(keep);
	wb_refresh(wb);
}

/* The editor exited: a changed file becomes a repair by the reviewer
 * (decide_repair), verified at once. */
static void
ed_finish(struct wb *wb)
{
	struct term_pane *tp = term_pane_of(wb);
	struct decide_repair rep;
	struct err err;
	char *code, *parent, *source, hash[SAMPLE_HASH_HEX];
	size_t len = 0;
	int st, rc;

	pty_release(&tp->ed);
	st = tp->ed.status;
	/* the program that had the keyboard is gone: the focus goes back
	 * to where it was before e (through the auto zoom, which gives it
	 * back when it ends) */
	if (wb->lay.auto_zoom)
		wb->lay.focus_before = tp->ed_focus;
	else if (wb->lay.focus == WB_TERM)
		wb->lay.focus = tp->ed_focus;
	if (file_read(tp->ed_path, &code, &len, &err) < 0) {
		wb_msg(wb, 1, "editor: cannot read %s", err.msg);
		goto out;
	}
	hash_sha256(code, len, hash);
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		/* an editor's way to abandon an edit (vim's :cq): no
		 * candidate, whatever the file holds (docs/formats.md) */
		wb_msg(wb, 0, "the editor exited with %s %d: nothing saved",
		    WIFEXITED(st) ? "status" : "signal", WIFEXITED(st) ?
		    WEXITSTATUS(st) : WTERMSIG(st));
		free(code);
		goto out;
	}
	if (strcmp(hash, tp->ed_hash) == 0) {
		wb_msg(wb, 0, "editor closed: no change, nothing saved");
		free(code);
		goto out;
	}
	source = xasprintf("edit of %s", tp->ed_cand);
	/* the reviewer's edit must not be lost to a held lock: this one
	 * write waits as long as a command would */
	store_lock_timeout(wb->st, 5000);
	rc = decide_repair(wb->st, tp->ed_cand, code, len, wb->reviewer,
	    source, &rep, &err);
	store_lock_timeout(wb->st, WB_LOCK_MS);
	free(source);
	free(code);
	if (rc < 0) {
		wb_msg(wb, 1, "save repair of %s: %s", tp->ed_cand, err.msg);
		goto out;
	}
	parent = xstrdup(tp->ed_cand);
	ed_cleanup(wb);
	if (!rep.inserted) {
		ed_reproduced(wb, parent, &rep);
	} else {
		wb_select_id(wb, rep.id);
		if (wb_verify(wb, rep.id) == 0)
			wb_msg(wb, 0, "saved repair %s of %s; verifying it",
			    rep.id, parent);
		else
			auto_unzoom(wb);
		wb_refresh(wb);
	}
	decide_repair_release(&rep);
	free(parent);
	return;
out:
	ed_cleanup(wb);
	auto_unzoom(wb);
	wb_refresh(wb);
}

int
term_pane_claim(struct wb *wb, const char *title)
{
	struct term_pane *tp = term_pane_of(wb);
	int rows = wb->lay.panes[WB_TERM].rows;
	int cols = wb->lay.panes[WB_TERM].cols;

	if (term_pane_busy(wb)) {
		wb_msg(wb, 1, "the toolchain pane is busy (x cancels a "
		    "verification)");
		return -1;
	}
	term_start(wb, rows > 0 ? rows : 24, cols > 0 ? cols : 80);
	tp->claimed = 1;
	snprintf(tp->term_title, sizeof tp->term_title, "%s", title);
	wb->dirty = 1;
	return 0;
}

void
term_pane_print(struct wb *wb, const char *text)
{
	if (text == NULL)
		return;
	job_out(text, strlen(text), wb);
	filter_end(term_pane_of(wb));	/* the text is whole */
}

void
term_pane_say(struct wb *wb, const char *sgr, const char *text)
{
	char head[64];

	snprintf(head, sizeof head, "\033[0m%s%s%s" OWN_MARK " ",
	    sgr != NULL ? "\033[" : "", sgr != NULL ? sgr : "",
	    sgr != NULL ? "m" : "");
	feed_str(wb, head);
	/* the text through the filter, then its line end ("\r\n") */
	job_out(text, strlen(text), wb);
	job_out("\n", 1, wb);
	filter_end(term_pane_of(wb));
	feed_str(wb, "\033[0m");
}

void
term_pane_to_end(struct wb *wb)
{
	term_pane_of(wb)->term_follow = 1;
	wb->dirty = 1;
}

void
term_pane_release(struct wb *wb)
{
	struct term_pane *tp = term_pane_of(wb);

	tp->claimed = 0;
	/* the story stays while its candidate is on screen; moving shows
	 * the next one's stored log (issue 12) */
	free(tp->term_cand);
	tp->term_cand = xstrdup(wb->cur.id);
	tp->term_run = -1;
	wb->dirty = 1;
}

int
term_pane_edit(struct wb *wb)
{
	struct term_pane *tp = term_pane_of(wb);
	struct wb_cur *c = &wb->cur;
	struct err err;
	char *dir, *argv[6];
	int fd, rows = wb->lay.panes[WB_TERM].rows, cols = wb->lay.panes[WB_TERM].cols;
	const char *tmp = getenv("TMPDIR");

	if (term_pane_busy(wb)) {
		wb_msg(wb, 1, "the toolchain pane is busy (x cancels a "
		    "verification)");
		return -1;
	}
	if (c->id == NULL || c->cand.code == NULL) {
		wb_msg(wb, 1, "no candidate selected");
		return -1;
	}
	dir = xasprintf("%s/assay-edit-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (mkdtemp(dir) == NULL) {
		wb_msg(wb, 1, "editor: %s: %s", dir, strerror(errno));
		free(dir);
		return -1;
	}
	tp->ed_dir = dir;
	tp->ed_path = xasprintf("%s/%s.%s", dir, c->cand.id,
	    dataset_ext(c->cand.lang));
	tp->ed_cand = xstrdup(c->cand.id);
	fd = open(tp->ed_path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0 || write(fd, c->cand.code, c->cand.code_len) !=
	    (ssize_t)c->cand.code_len) {
		wb_msg(wb, 1, "editor: %s: %s", tp->ed_path, strerror(errno));
		if (fd >= 0)
			close(fd);
		ed_cleanup(wb);
		return -1;
	}
	close(fd);
	hash_sha256(c->cand.code, c->cand.code_len, tp->ed_hash);
	auto_zoom(wb);
	if (wb->lay.auto_zoom) {
		rows = LINES - 2;
		cols = COLS - 2;
	}
	argv[0] = "/bin/sh";
	argv[1] = "-c";
	/* EDITOR is shell words, as git reads it: 'code --wait' and
	 * 'sh -c "exit 1"' run as they would at a prompt */
	argv[2] = "eval \"exec ${EDITOR:-vi} \\\"\\$1\\\"\"";
	argv[3] = "assay-edit";
	argv[4] = tp->ed_path;
	argv[5] = NULL;
	rows = rows > 0 ? rows : 24;
	cols = cols > 0 ? cols : 80;
	term_start(wb, rows, cols);
	tp->ed_focus = wb->lay.auto_zoom ? wb->lay.focus_before :
	    wb->lay.focus;
	if (pty_spawn(&tp->ed, argv, tp->ed_dir, NULL, rows, cols, 0,
	    &err) < 0) {
		wb_msg(wb, 1, "editor: %s", err.msg);
		ed_cleanup(wb);
		auto_unzoom(wb);
		return -1;
	}
	tp->kbd = 1;
	wb->lay.focus = WB_TERM;
	snprintf(tp->term_title, sizeof tp->term_title, "%s \xc2\xb7 %s",
	    getenv("EDITOR") && *getenv("EDITOR") ? getenv("EDITOR") : "vi",
	    c->cand.id);
	wb_msg(wb, 0, "editing %s: save and quit to make a repair; C-] "
	    "gives the keyboard back", c->cand.id);
	wb->dirty = 1;
	return 0;
}

void
term_pane_io(struct wb *wb)
{
	struct term_pane *tp = term_pane_of(wb);

	if (tp->vs != NULL) {
		if (vsvc_step(tp->vs) == 1) {
			vsvc_free(tp->vs);
			tp->vs = NULL;
		}
		wb->dirty = 1;	/* the clock in the title */
		return;
	}
	if (tp->ed.pid > 0) {
		static char chunk[262144];
		size_t have = 0;
		ssize_t n;

		/*
		 * A pty read gives at most a few KiB: gather what is there
		 * and feed it at once, so that the terminal sees a flood as
		 * one (term_feed's fast path for many plain lines).
		 */
		while (tp->ed.fd >= 0 && (n = pty_read(&tp->ed, chunk + have,
		    sizeof chunk - have)) > 0) {
			have += (size_t)n;
			if (have + 4096 > sizeof chunk) {
				if (tp->term != NULL)
					term_feed(tp->term, chunk, have);
				wb->term_fed += have;
				have = 0;
			}
		}
		if (have > 0) {
			if (tp->term != NULL)
				term_feed(tp->term, chunk, have);
			wb->term_fed += have;
			wb->dirty = 1;
		}
		if (pty_reap(&tp->ed)) {
			/* the editor exited: show what it left, then act */
			while (tp->ed.fd >= 0 && (n = pty_read(&tp->ed, chunk,
			    sizeof chunk)) > 0 && tp->term != NULL)
				term_feed(tp->term, chunk, (size_t)n);
			ed_finish(wb);
		}
	}
}

/* libvterm's answer to a key: bytes for the program. */
static void
term_out(const char *bytes, size_t len, void *arg)
{
	struct wb *wb = arg;
	struct term_pane *tp = term_pane_of(wb);

	if (tp->ed.pid > 0 && tp->ed.fd >= 0)
		(void)pty_write(&tp->ed, bytes, len);
}

void
term_pane_key(struct wb *wb, int key)
{
	struct term_pane *tp = term_pane_of(wb);
	static const struct { int key; enum term_key tk; } map[] = {
		{ KEYMAP_KEY_ENTER, TERM_KEY_ENTER },
		{ KEYMAP_KEY_TAB, TERM_KEY_TAB },
		{ KEYMAP_KEY_ESC, TERM_KEY_ESCAPE },
		{ KEYMAP_KEY_BACKSPACE, TERM_KEY_BACKSPACE },
		{ KEYMAP_KEY_UP, TERM_KEY_UP },
		{ KEYMAP_KEY_DOWN, TERM_KEY_DOWN },
		{ KEYMAP_KEY_LEFT, TERM_KEY_LEFT },
		{ KEYMAP_KEY_RIGHT, TERM_KEY_RIGHT },
		{ KEYMAP_KEY_HOME, TERM_KEY_HOME },
		{ KEYMAP_KEY_END, TERM_KEY_END },
		{ KEYMAP_KEY_PGUP, TERM_KEY_PAGEUP },
		{ KEYMAP_KEY_PGDN, TERM_KEY_PAGEDOWN },
		{ KEYMAP_KEY_INS, TERM_KEY_INS },
		{ KEYMAP_KEY_DEL, TERM_KEY_DEL },
	};

	if (keymap_lookup(&wb->km, KEYMAP_TERM, key) == ACTION_KEYBOARD) {
		tp->kbd = 0;
		auto_unzoom(wb);
		wb->lay.focus = WB_TERM;	/* Enter hands it back */
		wb_msg(wb, 0, "keyboard: workbench (C-] or Enter on the "
		    "toolchain pane gives it back to the program)");
		return;
	}
	if (tp->term == NULL || tp->ed.pid <= 0)
		return;
	for (size_t i = 0; i < sizeof map / sizeof map[0]; i++) {
		if (map[i].key == key) {
			term_key(tp->term, map[i].tk, 0);
			return;
		}
	}
	if (key == KEYMAP_KEY_BTAB) {
		term_key(tp->term, TERM_KEY_TAB, 1);	/* shift */
	} else if (key >= KEYMAP_KEY_F(0) && key <= KEYMAP_KEY_MAX) {
		term_key(tp->term, (enum term_key)(TERM_KEY_FN + key -
		    KEYMAP_KEY_F(0)), 0);
	} else if (key >= 0 && key < 32) {
		char ch = (char)key;	/* a control character as it is */

		(void)pty_write(&tp->ed, &ch, 1);
	} else if (key < KEYMAP_KEY_BASE) {
		term_unichar(tp->term, (uint32_t)key, 0);
	}
}

void
term_pane_stop(struct wb *wb)
{
	struct term_pane *tp = term_pane_of(wb);

	vsvc_free(tp->vs);
	tp->vs = NULL;
	if (tp->ed.pid > 0) {
		pty_release(&tp->ed);
		ed_cleanup(wb);
	}
	term_free(tp->term);
	tp->term = NULL;
}

/* --- drawing ------------------------------------------------------------ */

/* Why index arithmetic: libvterm 0.1.4's palette does not round-trip. */
static int
cube_to_8(int idx, int *bold)
{
	int r, g, b;

	if (idx < 16) {
		*bold = idx >= 8;
		return idx % 8;
	}
	if (idx >= 232) {
		*bold = idx >= 244;
		return idx >= 238 ? COLOR_WHITE : COLOR_BLACK;
	}
	idx -= 16;
	r = idx / 36;
	g = idx / 6 % 6;
	b = idx % 6;
	return (r >= 3 ? 1 : 0) | (g >= 3 ? 2 : 0) | (b >= 3 ? 4 : 0);
}

static int
level(int v)
{
	return v < 48 ? 0 : v < 115 ? 1 : (v - 35) / 40;
}

static int
cell_color(const struct term_color *tc, int *bold)
{
	int b = 0, c;

	switch (tc->kind) {
	case TERM_COLOR_DEFAULT:
		return -1;
	case TERM_COLOR_INDEXED:
		if (tc->idx < COLORS)
			return tc->idx;
		c = cube_to_8(tc->idx, &b);
		break;
	default:
		if (COLORS >= 256)
			return 16 + 36 * level(tc->r) + 6 * level(tc->g) +
			    level(tc->b);
		c = (tc->r > 127 ? 1 : 0) | (tc->g > 127 ? 2 : 0) |
		    (tc->b > 127 ? 4 : 0);
		b = tc->r + tc->g + tc->b > 600;
		break;
	}
	if (bold != NULL && b)
		*bold = 1;
	return c;
}

/* The view: scrollback and the used screen rows as one list of lines. */
struct term_view {
	int	 sb;		/* lines of scrollback: the list's first */
	int	 total;		/* lines in the list */
	int	 top;		/* first line shown */
	long	 base;		/* absolute number of the list's line 0 */
};

/*
 * Rows of the screen in use: all of them while the editor runs (it
 * draws the whole screen), else down to the last row with text, so that
 * a terminal taller than the pane shows its output, not blank rows.
 */
static int
term_used_rows(const struct wb *wb)
{
	struct term_pane *tp = term_pane_of(wb);
	char text[4096];
	int rows;

	term_size(tp->term, &rows, NULL);
	if (tp->ed.pid > 0)
		return rows;
	for (; rows > 0; rows--) {
		term_row_text(tp->term, rows - 1, text, sizeof text);
		if (text[0] != '\0')
			break;
	}
	return rows;
}

static void
term_view(const struct pane *p, struct term_view *v)
{
	const struct wb *wb = p->wb;
	struct term_pane *tp = term_pane_of(wb);
	int max;

	v->sb = term_sb_lines(tp->term);
	v->total = v->sb + term_used_rows(wb);
	v->base = term_sb_total(tp->term) - v->sb;
	max = v->total > p->rows ? v->total - p->rows : 0;
	if (tp->term_follow || (tp->kbd && tp->ed.pid > 0)) {
		v->top = max;
	} else {
		long top = tp->term_top - v->base;

		v->top = top < 0 ? 0 : top > max ? max : (int)top;
	}
}

/* Draw terminal row r (below 0: the scrollback) at line y of win. */
static void
term_draw_row(struct pane *p, WINDOW *win, int y, int r)
{
	struct wb *wb = p->wb;
	struct term_pane *tp = term_pane_of(wb);
	int color = theme_has_color();

	int hs = p->hscroll, tr, tc;

	term_size(tp->term, &tr, &tc);
	if (hs > tc - p->cols)
		hs = tc - p->cols > 0 ? tc - p->cols : 0;
	for (int c = 0; c < p->cols;) {
		struct term_cell cell;
		wchar_t wch[TERM_MAX_CHARS + 1];
		cchar_t cc;
		attr_t a = A_NORMAL;
		int pair = 0, n, bold = 0;

		term_cell(tp->term, r, c + hs, &cell);
		if (cell.width == 0) {
			c++;
			continue;
		}
		for (n = 0; n < TERM_MAX_CHARS && cell.chars[n]; n++)
			wch[n] = (wchar_t)cell.chars[n];
		if (n == 0)
			wch[n++] = L' ';
		wch[n] = L'\0';
		if (color) {
			int fg = cell_color(&cell.fg, &bold);
			int bg = cell_color(&cell.bg, NULL);

			if (fg != -1 || bg != -1)
				pair = alloc_pair(fg, bg);
			if (pair < 0)
				pair = 0;
		}
		if (cell.bold || bold)
			a |= A_BOLD;
		if (cell.underline)
			a |= A_UNDERLINE;
		if (cell.italic)
			a |= A_ITALIC;
		if (cell.reverse)
			a |= A_REVERSE;
		if (!color && (cell.fg.kind != TERM_COLOR_DEFAULT) &&
		    !cell.bold)
			a |= A_BOLD;	/* colour stands out */
		if (c + cell.width > p->cols)
			break;
		setcchar(&cc, wch, a, 0, &pair);
		mvwadd_wch(win, y, c, &cc);
		c += cell.width;
	}
	/* text cut at either edge gets a mark */
	for (int c = hs + p->cols; c < tc; c++) {
		struct term_cell cell;

		term_cell(tp->term, r, c, &cell);
		if (cell.chars[0] != 0 && cell.chars[0] != ' ') {
			pane_puts(win, y, p->cols - 1, 1, pane_ascii ? ">" :
			    "\xe2\x80\xba", theme_attr(THEME_LINENR) |
			    A_BOLD | A_REVERSE);
			break;
		}
	}
	if (hs > 0)
		pane_puts(win, y, 0, 1, pane_ascii ? "<" : "\xe2\x80\xb9",
		    theme_attr(THEME_LINENR) | A_BOLD | A_REVERSE);
}

/* A terminal wider or taller than the pane is clipped, never shrunk. */
static void
term_draw(struct pane *p, WINDOW *win)
{
	struct wb *wb = p->wb;
	struct term_pane *tp = term_pane_of(wb);
	struct term_view v;

	if (tp->term == NULL)
		return;
	term_damage(tp->term, NULL, NULL);	/* the frame redraws it all */
	term_view(p, &v);
	for (int y = 0; y < p->rows && v.top + y < v.total; y++)
		term_draw_row(p, win, y, v.top + y - v.sb);
	if (!term_pane_busy(wb) && tp->term_title[0] == '\0')
		pane_puts(win, 0, 0, p->cols, "v verifies the candidate here; "
		    "e edits it", theme_attr(THEME_DIM));
}

/*
 * Why grow only: a shrunk libvterm screen loses what was right of the
 * new width for good.  The editor is the exception: it draws for the
 * size it is told, so it gets the pane's size exactly.
 */
static void
term_resize_pane(struct pane *p, int rows, int cols)
{
	struct wb *wb = p->wb;
	struct term_pane *tp = term_pane_of(wb);
	int tr, tc;

	if (rows < 1 || cols < 1)
		return;
	if (tp->term == NULL) {
		tp->term = term_new(rows, cols, term_out, wb);
		return;
	}
	if (tp->ed.pid > 0) {
		term_resize(tp->term, rows, cols);
		pty_resize(&tp->ed, rows, cols);
		return;
	}
	term_size(tp->term, &tr, &tc);
	if (rows <= tr && cols <= tc)
		return;
	term_resize(tp->term, rows > tr ? rows : tr, cols > tc ? cols : tc);
	if (tp->vs != NULL)
		vsvc_resize(tp->vs, rows > tr ? rows : tr,
		    cols > tc ? cols : tc);
}

/* Scroll the view; at the bottom it follows new output again. */
static int
term_scroll(struct pane *p, enum action a)
{
	struct wb *wb = p->wb;
	struct term_pane *tp = term_pane_of(wb);
	struct term_view v;
	int page = p->rows > 1 ? p->rows - 1 : 1, max, top;

	if (tp->term == NULL)
		return 1;
	term_view(p, &v);
	max = v.total > p->rows ? v.total - p->rows : 0;
	top = v.top;
	switch (a) {
	case ACTION_MOVE_DOWN:	top++; break;
	case ACTION_MOVE_UP:	top--; break;
	case ACTION_PAGE_DOWN:	top += page; break;
	case ACTION_PAGE_UP:	top -= page; break;
	case ACTION_MOVE_FIRST:	top = 0; break;
	case ACTION_MOVE_LAST:	top = max; break;
	default:
		return 0;
	}
	if (top > max)
		top = max;
	if (top < 0)
		top = 0;
	tp->term_follow = top >= max;
	tp->term_top = v.base + top;
	wb->dirty = 1;
	return 1;
}

static int
term_ops_key(struct pane *p, int key, enum action a)
{
	struct wb *wb = p->wb;
	struct term_pane *tp = term_pane_of(wb);

	(void)key;	/* the workbench's actions only */
	/* Enter on the pane gives the keyboard back to its program. */
	if (a == ACTION_ENTER && tp->ed.pid > 0) {
		tp->kbd = 1;
		auto_zoom(wb);
		wb_msg(wb, 0, "keyboard: %s (C-] gives it back)",
		    tp->term_title);
		return 1;
	}
	if (a == ACTION_SCROLL_LEFT || a == ACTION_SCROLL_RIGHT) {
		int tr, tc, step = p->cols / 2 > 1 ? p->cols / 2 : 1;

		if (tp->term == NULL)
			return 1;
		term_size(tp->term, &tr, &tc);
		p->hscroll += a == ACTION_SCROLL_RIGHT ? step : -step;
		if (p->hscroll > tc - p->cols)
			p->hscroll = tc - p->cols;
		if (p->hscroll < 0)
			p->hscroll = 0;
		wb->dirty = 1;
		return 1;
	}
	if (a == ACTION_WRAP) {
		/*
		 * libvterm 0.1.4 does not reflow: lines cut when the pane
		 * shrank stay cut.  w shows the run again from its stored
		 * log, wrapped at the pane's width (term_pane_follow).
		 */
		if (term_pane_busy(wb)) {
			wb_msg(wb, 1, "toolchain: a program runs; h and l "
			    "scroll its cut lines");
			return 1;
		}
		if (wb->cur.id == NULL || !wb->cur.has_run) {
			wb_msg(wb, 1, "toolchain: no stored run of this "
			    "candidate to wrap");
			return 1;
		}
		free(tp->term_cand);
		tp->term_cand = NULL;
		tp->term_title[0] = '\0';
		term_pane_follow(wb);
		wb_msg(wb, 0, "toolchain: run #%lld again, wrapped at the "
		    "pane's width", (long long)wb->cur.run.id);
		return 1;
	}
	return term_scroll(p, a);
}

/*
 * The title: what ran and its verdict, then while a program runs its
 * stage and clock, then the scroll position when the lines do not all
 * fit.  A narrow pane drops the first fields (the env, the id) before
 * the stage, the clock or the position (pane_title_fit).
 */
static void
term_title(struct pane *p, char *buf, size_t n)
{
	struct wb *wb = p->wb;
	struct term_pane *tp = term_pane_of(wb);
	struct term_view v;
	int keep = 1, lines = 0;

	if (tp->term != NULL && p->rows > 0 && !(tp->kbd && tp->ed.pid > 0)) {
		term_view(p, &v);
		lines = v.total > p->rows;
	}
	if (tp->vs != NULL && vsvc_job(tp->vs, 0) != NULL) {
		/* progress: the stage and the clock */
		snprintf(buf, n, "%s \xc2\xb7 %s \xc2\xb7 running %.1f s",
		    tp->term_title, verify_job_stage(vsvc_job(tp->vs, 0)),
		    (wb_now_ms() - tp->job_t0) / 1000.0);
		keep = 2;
	} else if (tp->ed.pid > 0) {
		snprintf(buf, n, "%s \xc2\xb7 %s", tp->term_title,
		    tp->kbd ? "has the keyboard (C-] releases)" :
		    "Enter gives it the keyboard");
	} else {	/* no title yet: the position alone */
		snprintf(buf, n, "%s", tp->term_title);
	}
	if (lines) {
		pane_title_lines(buf, n, v.top, p->rows, v.total);
		keep++;
	}
	pane_title_fit(buf, p->title_room, keep);
}

static int
term_open(struct pane *p, const struct pane_place *at)
{
	struct term_pane *tp = p->priv;

	(void)at;
	tp->ed.fd = -1;
	return 0;
}

/* After term_pane_stop(): what is left is memory. */
static void
term_close(struct pane *p)
{
	struct term_pane *tp = p->priv;

	free(tp->term_cand);
	tp->term_cand = NULL;
	term_free(tp->term);
	tp->term = NULL;
	buf_release(&tp->tfout);
}

const struct pane_ops pane_term_ops = {
	.name = "toolchain",
	.priv_size = sizeof(struct term_pane),
	.open = term_open,
	.draw = term_draw,
	.key = term_ops_key,
	.resize = term_resize_pane,
	.title = term_title,
	.close = term_close,
};
