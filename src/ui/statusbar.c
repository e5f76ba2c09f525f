/*
 * statusbar.c - the last row: position, filter, reviewer, then a
 * question, the `:` line, a message, or key hints read from the live
 * keymap (so a remapped key shows as it is bound).
 */
#include "ui/panes/term.h"
#include "ui/wb.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

/* The first key bound to a, as a name; "" when unbound. */
static void
key_of(const struct wb *wb, enum action a, char *buf, size_t n)
{
	int key;

	buf[0] = '\0';
	if (keymap_keys(&wb->km, KEYMAP_GLOBAL, a, &key, 1) > 0)
		keymap_key_name(key, buf, n);
}

/* The hints of rank CORE_RANK or less (help, verify, label, accept,
 * reject): the filter and the reviewer give way to them. */
#define CORE_RANK	4

/*
 * Key hints that fit in width columns, into buf: whole hints only, the
 * most important first (help, verify, label, accept, reject, ...), none
 * of a rank over maxrank, shown in a fixed order.
 */
static void
hints(const struct wb *wb, int width, int maxrank, char *buf, size_t n)
{
	static const struct {
		enum action a;
		const char *word;
		int rank;	/* 0 is the most important */
	} list[] = {
		{ ACTION_NONE, "label", 2 },	/* the five labels */
		{ ACTION_VERIFY, "verify", 1 }, { ACTION_ACCEPT, "accept", 3 },
		{ ACTION_REJECT, "reject", 4 }, { ACTION_FLAG, "flag", 6 },
		{ ACTION_EDIT, "edit", 5 }, { ACTION_UNDO, "undo", 7 },
		{ ACTION_COMMIT, "commit", 9 }, { ACTION_HELP, "help", 0 },
		{ ACTION_QUIT, "quit", 8 },
	};
	enum { NHINTS = sizeof list / sizeof list[0] };
	char text[NHINTS][96], k[5][16];
	int show[NHINTS] = { 0 }, used = 0, seq = 1;
	size_t len = 0;
	struct pane *sheet = pane_sheet((struct wb *)wb);

	if (sheet != NULL) {
		/* a sheet on top takes the keys: the queue's hints would
		 * offer what it does not do ("[1-5] label" over stats) */
		snprintf(buf, n, "%s sheet: q closes it%s", sheet->ops->name,
		    sheet == &wb->lay.sheets[WB_HELP] ? "" : "  ? help");
		if (pane_width(buf, strlen(buf)) > width)
			snprintf(buf, n, "q close");
		return;
	}

	for (int i = 0; i < 5; i++) {
		key_of(wb, (enum action)(ACTION_LABEL_COMPILE + i), k[i],
		    sizeof k[i]);
		if (k[i][0] != '1' + i || k[i][1] != '\0')
			seq = 0;
	}
	for (size_t i = 0; i < NHINTS; i++) {
		char key[16];

		text[i][0] = '\0';
		if (list[i].a == ACTION_NONE && seq)
			snprintf(text[i], sizeof text[i], "[1-5] label");
		else if (list[i].a == ACTION_NONE) {
			/* the bound keys only: an unbound label has none */
			size_t tl = 0;

			for (int j = 0; j < 5; j++)
				if (k[j][0] != '\0')
					tl += (size_t)snprintf(text[i] + tl,
					    sizeof text[i] - tl, "%s%s",
					    tl > 0 ? "/" : "", k[j]);
			if (tl > 0)
				snprintf(text[i] + tl, sizeof text[i] - tl,
				    " label");
		} else {
			key_of(wb, list[i].a, key, sizeof key);
			if (key[0] != '\0')
				snprintf(text[i], sizeof text[i], "%s %s",
				    key, list[i].word);
		}
	}
	/*
	 * take hints by rank until one does not fit (two blanks between):
	 * a less important short one never takes the place of a more
	 * important long one (at 80 columns "e edit" used to stay where
	 * "[1-5] label" went)
	 */
	for (int rank = 0, full = 0; rank < (int)NHINTS && rank <= maxrank &&
	    !full; rank++) {
		for (size_t i = 0; i < NHINTS; i++) {
			int w;

			if (list[i].rank != rank || text[i][0] == '\0')
				continue;
			w = pane_width(text[i], strlen(text[i])) +
			    (used > 0 ? 2 : 0);
			if (used + w > width) {
				full = 1;
				break;
			}
			show[i] = 1;
			used += w;
		}
	}
	buf[0] = '\0';
	for (size_t i = 0; i < NHINTS && len < n; i++)
		if (show[i])
			len += (size_t)snprintf(buf + len, n - len, "%s%s",
			    len > 0 ? "  " : "", text[i]);
}

/* A wait for the lock shorter than this is not worth a word. */
#define LOCK_SHOW_MS	300

/* ":import" or ":merge"'s progress after left (n bytes): what it read
 * (done units) and stored (things), or that it waits for another
 * process's lock, and how long. */
static void
xfer_status(char *left, size_t n, const char *what, const char *unit,
    const char *things, size_t done, size_t stored, long lock_ms)
{
	size_t len = strlen(left);

	if (lock_ms >= LOCK_SHOW_MS)
		snprintf(left + len, n - len, "\xc2\xb7 %s waits for the "
		    "database's lock (%ld s; x cancels) ", what,
		    (lock_ms + 500) / 1000);
	else
		snprintf(left + len, n - len, "\xc2\xb7 %s %zu %s, %zu %s ",
		    what, done, unit, stored, things);
}

/*
 * A question too long for the bar is cut in its middle, with an
 * ellipsis: its head says what is asked ("label 48 candidates"), its end
 * the warning and what to answer ("although 7 of them pass? y/n").  Cut
 * at its end, the "y/n" went; cut just before its "?", the warning did.
 */
static void
question_draw(WINDOW *win, int y, int cols, const char *q, attr_t a)
{
	int room = cols - 1, total = pane_width(q, strlen(q)), head, w = 0;
	const char *p = q, *end = q + strlen(q);
	char cut[512];

	if (total <= room || room < 8) {
		pane_puts(win, y, 1, room, q, a);
		return;
	}
	head = room / 3;
	/* the tail: the last room - head columns, whole characters */
	while (p < end && total - w > room - head) {
		int cw;

		p += pane_char(p, (size_t)(end - p), &cw);
		w += cw;
	}
	pane_cut(q, head, cut, sizeof cut);	/* ends in the ellipsis */
	pane_puts(win, y, 1 + pane_puts(win, y, 1, head, cut, a), room - head,
	    p, a);
}

void
statusbar_draw(struct wb *wb, WINDOW *win, int y, int cols)
{
	attr_t base = theme_attr(THEME_STATUS);
	char left[512], right[512];
	size_t done, total, fail;
	long lock_ms, batch_ms;
	int x, lmax;

	wmove(win, y, 0);
	for (int i = 0; i < cols; i++)
		waddch(win, ' ' | base);
	if (wb->ask != WB_ASK_NONE) {
		attr_t a = theme_attr(THEME_PROMPT);

		wmove(win, y, 0);
		for (int i = 0; i < cols; i++)
			waddch(win, ' ' | a);
		question_draw(win, y, cols, wb->question, a);
		return;
	}
	if (wb->pr.open) {
		char line[300];

		snprintf(line, sizeof line, "%c%.*s", wb->pr.kind ?
		    wb->pr.kind : ':', (int)wb->pr.len, wb->pr.text);
		pane_puts(win, y, 0, cols, line, base);
		return;
	}
	if (wb->gone)
		snprintf(left, sizeof left, " %.8s left the view ",
		    wb->cur.id ? wb->cur.id : "");
	else if (wb->count == 0)
		snprintf(left, sizeof left, " 0/0 ");
	else if (wb->detached)
		snprintf(left, sizeof left, " %s (not in filter) ",
		    wb->cur.id ? wb->cur.id : "");
	else
		snprintf(left, sizeof left, " %zu/%zu ", wb->sel + 1,
		    wb->count);
	/* a pane other than the queue has the focus (where the scroll
	 * keys act; Esc gives it back): name it */
	if (wb->lay.focus != WB_QUEUE)
		snprintf(left + strlen(left), sizeof left - strlen(left),
		    "\xc2\xb7 %s ", wb->lay.panes[wb->lay.focus].ops->name);
	if (wb->nmarks > 0)
		snprintf(left + strlen(left), sizeof left - strlen(left),
		    "\xc2\xb7 %zu marked ", wb->nmarks);
	if (wb->npending > 0)	/* decisions that wait for the lock */
		snprintf(left + strlen(left), sizeof left - strlen(left),
		    "\xc2\xb7 %zu pending ", wb->npending);
	if (batch_progress(wb, &done, &total, &fail)) {	/* :verify */
		size_t busy, refs;
		char by[96] = "";

		batch_counts(wb, &busy, &refs);
		if (busy > 0)	/* done counts them: say whose they are */
			snprintf(by, sizeof by, ", %zu by another verify",
			    busy);
		if (refs > 0)	/* total counts them, the view does not */
			snprintf(by + strlen(by), sizeof by - strlen(by),
			    ", %zu reference%s added", refs, refs == 1 ? "" :
			    "s");
		snprintf(left + strlen(left), sizeof left - strlen(left),
		    "\xc2\xb7 verify %zu/%zu (%zu fail%s) ", done, total, fail,
		    by);
	}
	/* v's run, :verify's claims and runs, a model run's candidates
	 * waiting to be stored: said, not a frozen count */
	lock_ms = store_lock_waiting_ms(wb->st);
	if ((batch_ms = batch_lock_ms(wb)) > lock_ms)
		lock_ms = batch_ms;
	if (lock_ms >= LOCK_SHOW_MS)
		snprintf(left + strlen(left), sizeof left - strlen(left),
		    "\xc2\xb7 waits for the database's lock (%ld s) ",
		    (lock_ms + 500) / 1000);
	wb->lock_shown = lock_ms >= LOCK_SHOW_MS;
	if (import_progress(wb, &done, &total, &lock_ms))	/* :import */
		xfer_status(left, sizeof left, "import", "rows", "candidates",
		    done, total, lock_ms);
	if (merge_progress(wb, &done, &total, &lock_ms))	/* :merge */
		xfer_status(left, sizeof left, "merge", "lines", "runs", done,
		    total, lock_ms);
	x = pane_puts(win, y, 0, cols, left, base | A_BOLD);
	/*
	 * The filter and the reviewer, unless the core hints (help to
	 * reject) would not fit beside them: then the reviewer goes, and a
	 * long filter is cut with an ellipsis, down to 12 columns (at 80
	 * columns "r reject" used to go where "verdict=fail · name" stayed).
	 */
	hints(wb, cols, CORE_RANK, right, sizeof right);
	lmax = cols - x - pane_width(right, strlen(right)) - 3;
	snprintf(left, sizeof left, " %s \xc2\xb7 %s ", wb->filter ?
	    wb->filter : "all", wb->reviewer);
	if (pane_width(left, strlen(left)) > lmax)
		snprintf(left, sizeof left, " %s ", wb->filter ? wb->filter :
		    "all");
	if (pane_width(left, strlen(left)) > lmax) {
		char cut[256];

		pane_cut(wb->filter ? wb->filter : "all", lmax > 14 ?
		    lmax - 2 : 12, cut, sizeof cut);
		snprintf(left, sizeof left, " %s ", cut);
	}
	if (term_pane_kbd(wb)) {
		char key[16] = "";
		int k;

		if (keymap_keys(&wb->km, KEYMAP_TERM, ACTION_KEYBOARD, &k,
		    1) > 0)
			keymap_key_name(k, key, sizeof key);
		snprintf(right, sizeof right, " keyboard: %s \xc2\xb7 %s gives "
		    "it back to the workbench ", term_pane_program(wb), key);
		pane_text(win, y, x, cols - x, right, theme_attr(THEME_PROMPT));
		return;
	}
	if (wb->msg[0] != '\0') {
		/* the message first; filter and reviewer where room is left */
		int w = pane_width(wb->msg, strlen(wb->msg)) + 2;
		int lw = pane_width(left, strlen(left));
		char cut[sizeof wb->msg + 4];

		x += pane_puts(win, y, x, cols - x, " ", base);
		/* a message longer than the bar ends in an ellipsis */
		pane_cut(wb->msg, cols - x, cut, sizeof cut);
		x += pane_puts(win, y, x, cols - x, cut, theme_attr(
		    wb->msg_err ? THEME_STATUS_ERR : THEME_STATUS_MSG));
		if (x + lw + 1 < cols && w > 0)
			pane_puts(win, y, cols - lw, lw, left, base);
		return;
	}
	x += pane_puts(win, y, x, cols - x, left, base);
	hints(wb, cols - x - 2, INT_MAX, right, sizeof right);
	pane_puts(win, y, x + 1, cols - x - 1, right, base);
}
