/*
 * ui.c - the workbench's frame loop: curses set-up, the layout of the
 * panes, key dispatch through the keymap, the decisions (label, review,
 * undo, commit) and the one function that draws, ui_frame().
 *
 * The loop polls stdin and the fds of every long operation running in
 * this process (ui_services: the toolchain pane's program, :verify's
 * jobs).  Keys are handled at once and redrawn at once; terminal
 * output only marks the model dirty and is drawn at most every
 * UI_FRAME_MS, so a chatty compiler costs a redraw per 10 ms, not per
 * read.  Every decision goes straight to the store, which commits it:
 * a killed workbench loses nothing.
 *
 * Called by main.c through ui_run() (ui.h).
 */
#include "ui/ui.h"

#include <errno.h>
#include <langinfo.h>
#include <limits.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <wchar.h>

#include "ui/bench.h"
#include "app/command.h"
#include "app/commands.h"
#include "app/config.h"
#include "app/task_new.h"
#include "decide/decide.h"
#include "lang/syntax.h"
#include "verify/smoke.h"
#include "ui/panes/term.h"
#include "ui/wb.h"
#include "model/vocab.h"

#define UI_FRAME_MS	10	/* coalesce terminal output redraws */
/*
 * Why: a program flooding the pane (seq 1 300000, a verbose build) is
 * read faster than it can be drawn; each frame reads every cell of the
 * pane from libvterm, which took a quarter of the time.  Past this many
 * bytes between two frames, frames come every UI_FLOOD_MS instead.
 */
#define UI_FLOOD_BYTES	32768
#define UI_FLOOD_MS	50

static volatile sig_atomic_t ui_signalled;

/* Box drawing: Unicode in a UTF-8 locale, ASCII otherwise. */
static struct {
	const char *h, *v, *tl, *tr, *tee_l, *tee_r, *tee_t, *cross;
} ui_box;

static void
ui_on_signal(int sig)
{
	ui_signalled = sig;
}

/*
 * Bracketed paste (xterm's mode 2004, which tmux, VTE and most terminals
 * honour): the terminal wraps pasted text in ESC [200~ ... ESC [201~, so
 * that a paste is text, never keys.  Without it, the 3 and 1 of a
 * coloured compiler line's ESC[31m pasted into the `:` line labelled the
 * candidate.  The two markers come back from curses as these codes.
 */
#define UI_KEY_PASTE_BEGIN	(KEY_MAX + 1)
#define UI_KEY_PASTE_END	(KEY_MAX + 2)

static void
ui_paste_mode(int on)
{
	fputs(on ? "\033[?2004h" : "\033[?2004l", stdout);
	fflush(stdout);
}

static void
ui_restore(void)
{
	if (!isendwin()) {
		endwin();
		ui_paste_mode(0);
	}
}

/* --- layout -------------------------------------------------------------- */

static void
pane_place(struct pane *p, int y, int x, int rows, int cols)
{
	if (p->win != NULL) {
		delwin(p->win);
		p->win = NULL;
	}
	/* tiny screens: never over the status bar or off the edge */
	if (y + rows > LINES - 1)
		rows = LINES - 1 - y;
	if (x + cols > COLS)
		cols = COLS - x;
	p->y = y;
	p->x = x;
	p->rows = rows > 0 ? rows : 0;
	p->cols = cols > 0 ? cols : 0;
	if (rows < 1 || cols < 1)
		return;
	p->win = newwin(rows, cols, y, x);
	if (p->ops->resize != NULL)
		p->ops->resize(p, rows, cols);
}

/* Width of the queue's content for a screen cols wide. */
static int
queue_width(int cols)
{
	if (cols >= 140)
		return 56;
	if (cols >= 120)
		return 46;
	if (cols >= 100)
		return 36;
	return cols >= 80 ? 30 : cols * 3 / 8;
}

/*
 * Rows: the status bar is the last; every pane has a title rule above
 * its content.  Right column, top down: spec, candidate, toolchain,
 * trace.
 */
static void
ui_layout(struct wb *wb)
{
	int H = LINES, W = COLS, body = H - 1, qw, rx, rw;
	int spec, term, trace, code, y;

	wb->lay.relayout = 0;
	for (int i = 0; i < WB_NPANES; i++)
		if (wb->lay.zoom >= 0 && i != wb->lay.zoom)
			pane_place(&wb->lay.panes[i], 0, 0, 0, 0);
	for (int i = 0; i < WB_NSHEETS; i++)
		pane_place(&wb->lay.sheets[i], 1, 1, body - 1, W - 2);
	if (wb->lay.zoom >= 0) {
		pane_place(&wb->lay.panes[wb->lay.zoom], 1, 1, body - 1, W - 2);
		return;
	}
	qw = queue_width(W);
	rx = qw + 2;
	rw = W - qw - 3;
	trace = body >= 40 ? 6 : 4;
	spec = body * 22 / 100;
	if (spec < 4)
		spec = 4;
	term = body * 30 / 100;
	if (term < 5)
		term = 5;
	code = body - spec - term - trace;
	if (code < 4) {
		code = 4;
		spec = body - code - term - trace;
		if (spec < 2)
			spec = 2;
	}
	pane_place(&wb->lay.panes[WB_QUEUE], 1, 1, body - 1, qw);
	y = 0;
	pane_place(&wb->lay.panes[WB_SPEC], y + 1, rx, spec - 1, rw);
	y += spec;
	pane_place(&wb->lay.panes[WB_CODE], y + 1, rx, code - 1, rw);
	y += code;
	pane_place(&wb->lay.panes[WB_TERM], y + 1, rx, term - 1, rw);
	y += term;
	pane_place(&wb->lay.panes[WB_TRACE], y + 1, rx, body - y - 1, rw);
}

/* --- drawing ------------------------------------------------------------- */

/* The title rule of pane p at row y from x over w columns. */
static void
draw_title(struct wb *wb, struct pane *p, int focused, int y, int x, int w,
    const char *left_corner, const char *right_corner)
{
	attr_t border = theme_attr(THEME_BORDER);
	char right[256] = "", name[64];
	int used, rlen;

	pane_puts(stdscr, y, x, 1, left_corner, border);
	for (int i = 1; i < w - 1; i++)
		pane_puts(stdscr, y, x + i, 1, ui_box.h, border);
	pane_puts(stdscr, y, x + w - 1, 1, right_corner, border);
	snprintf(name, sizeof name, " %s%s ", p->ops->name,
	    wb->lay.zoom < 0 || p != &wb->lay.panes[wb->lay.zoom] ? "" :
	    wb->lay.auto_zoom == WB_AZ_HOLD ? " (zoomed until a key)" :
	    " (zoomed)");
	used = pane_puts(stdscr, y, x + 2, w - 4, name, theme_attr(focused ?
	    THEME_TITLE_FOCUS : THEME_TITLE));
	p->title_room = w - used - 8;	/* its spaces, the rule on each side */
	if (p->ops->title != NULL)
		p->ops->title(p, right, sizeof right);
	if (right[0] == '\0')
		return;
	rlen = pane_width(right, strlen(right)) + 2;
	if (rlen > w - used - 6)
		rlen = w - used - 6;
	if (rlen > 2) {
		char *t = xasprintf(" %s ", right);

		pane_puts(stdscr, y, x + w - 2 - rlen, rlen, t,
		    theme_attr(THEME_TITLE));
		free(t);
	}
}

static void
draw_vline(int x, int y0, int y1)
{
	for (int y = y0; y < y1; y++)
		pane_puts(stdscr, y, x, 1, ui_box.v, theme_attr(THEME_BORDER));
}

static void
ui_frame(struct wb *wb)
{
	int body = LINES - 1, W = COLS, r, c, vis;
	struct pane *q = &wb->lay.panes[WB_QUEUE], *sheet;

	if (wb->lay.relayout) {
		ui_layout(wb);
		/* shrunk while a program runs in the pane: zoom it, if the
		 * pane has the keyboard or the focus (a resize took the
		 * focus from the queue the reviewer had gone back to) */
		if (wb->lay.resized && wb->lay.zoom < 0 && (term_pane_kbd(wb) ||
		    (term_pane_verifying(wb) && wb->lay.focus == WB_TERM))) {
			term_pane_zoom(wb, 1);
			if (wb->lay.relayout)
				ui_layout(wb);
		}
		wb->lay.resized = 0;
	}
	wb_sync(wb, q->rows > 1 ? q->rows - 1 : 20);
	term_pane_follow(wb);	/* the run of the candidate on screen */
	werase(stdscr);
	sheet = pane_sheet(wb);
	if (sheet != NULL || wb->lay.zoom >= 0) {
		struct pane *p = sheet != NULL ? sheet : &wb->lay.panes[wb->lay.zoom];

		draw_title(wb, p, sheet != NULL || wb->lay.focus == wb->lay.zoom, 0, 0,
		    W, ui_box.tl, ui_box.tr);
		draw_vline(0, 1, body);
		draw_vline(W - 1, 1, body);
	} else {
		int qx = q->cols + 1;

		draw_title(wb, q, wb->lay.focus == WB_QUEUE, 0, 0, qx + 1,
		    ui_box.tl, ui_box.tee_t);
		for (int i = WB_SPEC; i < WB_NPANES; i++) {
			struct pane *p = &wb->lay.panes[i];

			draw_title(wb, p, wb->lay.focus == i, p->y - 1, qx, W - qx,
			    i == WB_SPEC ? ui_box.tee_t : ui_box.tee_l,
			    i == WB_SPEC ? ui_box.tr : ui_box.tee_r);
		}
		draw_vline(0, 1, body);
		for (int y = 1; y < body; y++) {
			int is_title = 0;

			for (int i = WB_CODE; i < WB_NPANES; i++)
				if (wb->lay.panes[i].y - 1 == y)
					is_title = 1;
			if (is_title)
				continue;
			pane_puts(stdscr, y, qx, 1, ui_box.v,
			    theme_attr(THEME_BORDER));
			pane_puts(stdscr, y, W - 1, 1, ui_box.v,
			    theme_attr(THEME_BORDER));
		}
	}
	statusbar_draw(wb, stdscr, LINES - 1, W);
	wnoutrefresh(stdscr);
	for (int i = 0; i < WB_NPANES && sheet == NULL; i++) {
		struct pane *p = &wb->lay.panes[i];

		if (p->win == NULL)
			continue;
		werase(p->win);
		p->ops->draw(p, p->win);
		wnoutrefresh(p->win);
	}
	if (sheet != NULL && sheet->win != NULL) {
		werase(sheet->win);
		sheet->ops->draw(sheet, sheet->win);
		wnoutrefresh(sheet->win);
	}
	prompt_draw_menu(wb);
	if (sheet == NULL && wb->lay.panes[WB_TERM].win != NULL &&
	    term_pane_cursor(wb, &r, &c, &vis) == 0) {
		wmove(wb->lay.panes[WB_TERM].win, r, c);
		wnoutrefresh(wb->lay.panes[WB_TERM].win);
		curs_set(vis ? 1 : 0);
	} else if (wb->pr.open) {
		wmove(stdscr, LINES - 1, 1 + pane_width(wb->pr.text,
		    wb->pr.len));
		wnoutrefresh(stdscr);
		curs_set(1);
	} else {
		curs_set(0);
	}
	doupdate();
	wb->dirty = 0;
}

/* Write the screen as text, one line per row, trailing blanks dropped. */
static void
ui_dump(const char *path)
{
	FILE *f = fopen(path, "w");
	wchar_t *row = xcalloc((size_t)COLS + 1, sizeof *row);

	if (f == NULL) {
		free(row);
		return;
	}
	for (int y = 0; y < LINES; y++) {
		char mb[MB_LEN_MAX];
		mbstate_t st;
		int n = mvwinnwstr(newscr, y, 0, row, COLS);
		size_t end;

		if (n == ERR)
			n = 0;
		row[n] = L'\0';
		end = wcslen(row);
		while (end > 0 && row[end - 1] == L' ')
			end--;
		memset(&st, 0, sizeof st);
		for (size_t i = 0; i < end; i++) {
			size_t k = wcrtomb(mb, row[i], &st);

			if (k == (size_t)-1) {
				fputc('?', f);
				memset(&st, 0, sizeof st);
			} else {
				fwrite(mb, 1, k, f);
			}
		}
		fputc('\n', f);
	}
	free(row);
	fclose(f);
}

/* --- decisions ----------------------------------------------------------- */

/*
 * The queue is the disagreement queue: its filter has the predicate
 * disagree=yes, so that 1-5 give the final label.
 */
static int
ui_disagree_queue(const struct wb *wb)
{
	const char *f = wb->filter, *p;

	for (p = f; p != NULL && (p = strstr(p, "disagree=yes")) != NULL;
	    p++)
		if ((p == f || p[-1] == ' ') && (p[12] == '\0' || p[12] == ' '))
			return 1;
	return 0;
}

/*
 * The decision keys (1-5, a, r, f) run the label and review commands
 * both front ends run (app/commands.h, cmd_decide()): one warning rule
 * (decide_warning(), asked about here), one journal, one set of
 * messages.  A key acts on the candidate under the cursor, never the
 * marks; its decision waits in the process while another holds the
 * database's lock (wb_decide()); then the cursor moves on (advance).
 * In the disagreement queue 1-5 give the final label (--final).
 */
static void ui_decide_key(struct wb *wb, const char *line);

static void ui_command_run(struct wb *wb, const char *line, unsigned where,
    int confirmed, int key);

/* u and C-r: the :undo and :redo command lines. */
static void
ui_undo(struct wb *wb, int redo)
{
	ui_command_run(wb, redo ? "redo" : "undo", CMD_KEY, 0, 0);
}

/* --- marks and bulk decisions (:label :review :note) -------------------- */

/* Space: mark or unmark the selected candidate, then advance. */
static void
ui_mark(struct wb *wb)
{
	struct pane *q = &wb->lay.panes[WB_QUEUE];

	if (wb->cur.id == NULL) {
		wb_msg(wb, 1, "no candidate selected");
		return;
	}
	wb_mark_toggle(wb, wb->cur.id);
	if (!wb->detached || wb->gone)
		q->ops->key(q, 0, ACTION_MOVE_DOWN);
}

/* --- settings: theme, mouse, advance (config file and :set) ------------ */

static char *ui_data_path(const char *dir, const char *rel);

/* Colours are wanted (NO_COLOR unset) and the terminal has them. */
static int
ui_colors(void)
{
	const char *no_color = getenv("NO_COLOR");

	return has_colors() && (no_color == NULL || *no_color == '\0');
}

/*
 * Use theme name: a file in the user's themes/ (config_path), else in
 * the data directory's, over the built-in theme of that name; a name
 * with a '/' is a theme file over dark.  Without colours it is mono,
 * whatever the name.  0, or -1 with a message (the theme in force stays).
 */
static int
ui_theme(struct wb *wb, const char *name)
{
	const char *base;
	char *rel, *path = NULL;
	struct err err;
	int color = ui_colors();

	if (name == NULL || *name == '\0')
		name = "dark";
	if (!color)
		name = "mono";
	if (strchr(name, '/') != NULL) {
		path = xstrdup(name);
		base = NULL;
	} else {
		rel = xasprintf("themes/%s.theme", name);
		path = config_path(rel);
		if (path != NULL && access(path, R_OK) != 0) {
			free(path);
			path = NULL;
		}
		if (path == NULL)
			path = ui_data_path(wb->o->data_dir, rel);
		free(rel);
		base = theme_builtin(name) != NULL ? name : NULL;
		if (path == NULL && base == NULL) {
			wb_msg(wb, 1, "no theme %s (dark, light, mono, or a "
			    "themes/%s.theme file)", name, name);
			return -1;
		}
	}
	if (theme_load(base, path, color, &err) < 0) {
		wb_msg(wb, 1, "%s (using the built-in %s theme)", err.msg,
		    base != NULL ? base : "dark");
		free(path);
		return -1;
	}
	free(path);
	wb->redraw_all = 1;
	return 0;
}

/* Clicks and the wheel as the config says (mouse on/off). */
static void
ui_mouse_set(struct wb *wb)
{
	mmask_t m = 0;

	if (wb->cfg.mouse)
		m = BUTTON1_PRESSED | BUTTON1_CLICKED | BUTTON3_PRESSED |
		    BUTTON4_PRESSED | BUTTON5_PRESSED;
	mousemask(m, NULL);
	/* a press acts at once: no waiting to tell a click from a drag */
	mouseinterval(0);
}

/*
 * A setting a command changed (cmd_set.c: ctx->setting): a theme is
 * loaded, the mouse switched; the command said the new value already.
 */
static void
ui_setting_apply(struct wb *wb, const char *name)
{
	if (name == NULL)
		return;
	if (strcmp(name, "theme") == 0 && ui_theme(wb, wb->cfg.theme) == 0 &&
	    !ui_colors())
		wb_msg(wb, 0, "theme %s (no colours here: the mono theme"
		    " stays)", wb->cfg.theme);
	else if (strcmp(name, "mouse") == 0)
		ui_mouse_set(wb);
}

/* --- the `:` line -------------------------------------------------------- */

static void ui_action(struct wb *wb, enum action a);
static void ui_quit(struct wb *wb);

static void
ui_goto(struct wb *wb, const char *prefix)
{
	struct err err;
	char *id = NULL;
	int rc = store_candidate_resolve(wb->st, prefix, &id, &err);

	if (rc == 0)
		wb_select_id(wb, id);
	else if (rc == 1)
		wb_msg(wb, 1, "no candidate %s", prefix);
	else if (rc == 2)
		wb_msg(wb, 1, "%s is ambiguous", prefix);
	else
		wb_msg(wb, 1, "goto %s: %s", prefix, err.msg);
	free(id);
}

/*
 * :grep TEXT - the queue becomes the candidates whose code, logs or spec
 * hold TEXT (the store's grep= predicate, full-text); TEXT is quoted as
 * a filter value, so blanks and quotes in it are plain text, but for a
 * pair of double quotes around all of it, which the filter language
 * would read as quoting.
 */
static void
ui_grep(struct wb *wb, const char *text)
{
	struct buf f = BUF_INIT;
	char *plain = NULL;
	size_t n = strlen(text);

	if (*text == '\0') {
		wb_msg(wb, 1, "grep wants a text, e.g. :grep __syncthreads");
		return;
	}
	/* :grep "a b" is the phrase a b, as grep="a b" in a filter: the
	 * quotes are the filter language's, not part of the text ("" is
	 * a quote in it) */
	if (text[0] == '"' && (n < 2 || text[n - 1] != '"')) {
		/* as a filter's grep="... says (it searched for the quote) */
		wb_msg(wb, 1, "grep: unterminated quote at column 1");
		return;
	}
	if (n >= 2 && text[0] == '"' && text[n - 1] == '"') {
		char *w = plain = xstrndup(text + 1, n - 2);

		for (const char *r = plain; *r != '\0'; r++) {
			*w++ = *r;
			if (r[0] == '"' && r[1] == '"')
				r++;
		}
		*w = '\0';
		text = plain;
	}
	{
		char *q = store_filter_quote(text);

		buf_printf(&f, "grep=%s", q);
		free(q);
	}
	free(plain);
	if (wb_nav_filter(wb, buf_str(&f), NULL, "grep") == 0 &&
	    wb->count == 0)
		wb_msg(wb, 0, "no candidate holds that text");
	buf_release(&f);
}

/* :verify alone with nothing marked in a view of one: v's live run. */
static int
ui_verify_one(struct wb *wb)
{
	if (wb->count > 1)
		return 0;
	ui_action(wb, ACTION_VERIFY);
	return 1;
}

/*
 * The `:` commands, one table entry each (app/command.h): the name,
 * alias, argument counts, usage and help, and the function that runs it
 * on the workbench (ctx->front) with the words typed after it (and, for
 * free text, ctx->line as typed).  A line whose first word is no entry
 * is an action name (keymap.h), else an error.
 */
#define WB(ctx)	((struct wb *)(ctx)->front)

static int
wbc_filter(struct cmd_ctx *ctx, struct cmd_args *a, struct err *err)
{
	(void)a;
	(void)err;
	/* the status bar shows the filter and the count: no message */
	(void)wb_nav_filter(WB(ctx), ctx->line, NULL, "filter");
	return 0;
}

static int
wbc_grep(struct cmd_ctx *ctx, struct cmd_args *a, struct err *err)
{
	(void)a;
	(void)err;
	ui_grep(WB(ctx), ctx->line);
	return 0;
}

static int
wbc_goto(struct cmd_ctx *ctx, struct cmd_args *a, struct err *err)
{
	(void)err;
	ui_goto(WB(ctx), a->npos > 0 ? a->pos[0] : "");
	return 0;
}

static int
wbc_model(struct cmd_ctx *ctx, struct cmd_args *a, struct err *err)
{
	const char *verb = ctx->entry->name, *arg = ctx->line;

	(void)a;
	(void)err;
	if (*arg != '\0' && strspn(arg, "0123456789") != strlen(arg))
		wb_msg(WB(ctx), 1, ":%s takes a number (%s), not '%s'", verb,
		    strcmp(verb, "repair") == 0 ? "rounds" :
		    "samples per task", arg);
	else
		mrun_start(WB(ctx), verb, arg);
	return 0;
}

static int
wbc_verify(struct cmd_ctx *ctx, struct cmd_args *a, struct err *err)
{
	struct wb *wb = WB(ctx);

	(void)a;
	(void)err;
	/* :verify over the marks or the view, in the background; alone in
	 * a view of one, v's live run */
	if (*ctx->line != '\0' || wb->nmarks > 0 || !ui_verify_one(wb))
		(void)batch_start(wb, ctx->line);
	return 0;
}

static int
wbc_unmark(struct cmd_ctx *ctx, struct cmd_args *a, struct err *err)
{
	struct wb *wb = WB(ctx);
	size_t n = wb->nmarks;

	(void)a;
	(void)err;
	wb_marks_clear(wb);
	if (n == 0)
		wb_msg(wb, 0, "no candidate was marked");
	else
		wb_msg(wb, 0, "unmarked %zu candidate%s", n, n == 1 ? "" : "s");
	return 0;
}

/* :save NAME, :view NAME, :views: the saved views (store_view_*). */
static int
wbc_save(struct cmd_ctx *ctx, struct cmd_args *a, struct err *err)
{
	struct wb *wb = WB(ctx);

	(void)a;
	if (store_view_save(wb->st, ctx->line, wb->filter, wb->reviewer,
	    err) < 0)
		wb_msg(wb, 1, "%s", err->msg);	/* "save view: ..." */
	else
		wb_msg(wb, 0, "saved view %s: %s", ctx->line, wb->filter ?
		    wb->filter : "all");
	return 0;
}

static int
wbc_view(struct cmd_ctx *ctx, struct cmd_args *a, struct err *err)
{
	struct wb *wb = WB(ctx);
	const char *name = ctx->line;
	char *filter = NULL;
	int rc = store_view_get(wb->st, name, &filter, err);

	(void)a;
	if (rc == 1)
		wb_msg(wb, 1, "no view %s (:views lists them)", name);
	else if (rc < 0)
		wb_msg(wb, 1, "view %s: %s", name, err->msg);
	else if (wb_nav_filter(wb, filter, NULL, "view") == 0)
		wb_msg(wb, 0, "view %s: %s (Esc goes back)", name,
		    filter != NULL && *filter != '\0' ? filter : "all");
	free(filter);
	err_clear(err);		/* said on the status line */
	return 0;
}

static int
wbc_views(struct cmd_ctx *ctx, struct cmd_args *a, struct err *err)
{
	struct wb *wb = WB(ctx);
	struct store_view *v;
	struct buf b = BUF_INIT;
	size_t n;

	(void)a;
	if (store_view_list(wb->st, &v, &n, err) < 0) {
		wb_msg(wb, 1, "views: %s", err->msg);
		err_clear(err);
		return 0;
	}
	if (n == 0)
		buf_adds(&b, "no saved views (:save NAME saves the filter)");
	else
		buf_adds(&b, "views:");
	for (size_t i = 0; i < n; i++) {
		buf_printf(&b, " %s (%s)", v[i].name, *v[i].filter != '\0' ?
		    v[i].filter : "all");
		store_view_release(&v[i]);
	}
	free(v);
	wb_msg(wb, 0, "%s", buf_str(&b));
	buf_release(&b);
	return 0;
}

/* :messages: the last messages of the status bar, whole, oldest first,
 * in the toolchain pane (a message cut at the bar's end, or hidden by
 * the next one, can be read there). */
static int
wbc_messages(struct cmd_ctx *ctx, struct cmd_args *a, struct err *err)
{
	struct wb *wb = WB(ctx);
	size_t n = wb->nmsglog < WB_MSGLOG ? wb->nmsglog : WB_MSGLOG;
	struct buf b = BUF_INIT;

	(void)a;
	(void)err;
	buf_printf(&b, "\r\n--- the last %zu message%s of the status bar ---"
	    "\r\n", n, n == 1 ? "" : "s");
	for (size_t i = wb->nmsglog - n; i < wb->nmsglog; i++) {
		const struct wb_logged *m = &wb->msglog[i % WB_MSGLOG];
		char at[16];

		strftime(at, sizeof at, "%H:%M:%S", localtime(&m->at));
		buf_printf(&b, "%s%s %s%s\r\n", m->err ? "\033[31m" : "", at,
		    m->text, m->err ? "\033[0m" : "");
	}
	term_pane_print(wb, buf_str(&b));
	/* in view: below a stored log held at its verdict's line they
	 * were printed out of sight */
	term_pane_to_end(wb);
	buf_release(&b);
	wb_msg(wb, 0, "the last %zu message%s %s at the end of the "
	    "toolchain pane", n, n == 1 ? "" : "s", n == 1 ? "is" : "are");
	return 0;
}

static int
wbc_quit(struct cmd_ctx *ctx, struct cmd_args *a, struct err *err)
{
	(void)a;
	(void)err;
	/* out at once, from any depth; the views stay on the stack until
	 * it does, so that "n" to its question keeps them */
	ui_quit(WB(ctx));
	return 0;
}

/* Why :task new stored nothing: longer than a status line, so all of it
 * goes to the toolchain pane, where the runs' own output is read, and
 * the status line says so. */
static void
task_refused(struct wb *wb, const char *file, const char *why)
{
	if (term_pane_claim(wb, "task new") == 0) {
		char *all = xasprintf("%s: %s; nothing stored\n", file, why);

		term_pane_print(wb, all);
		term_pane_release(wb);
		free(all);
		wb_msg(wb, 1, "task new: nothing stored (all of it in the"
		    " toolchain pane): %s", why);
	} else {
		wb_msg(wb, 1, "task new: %s; nothing stored", why);
	}
}

/*
 * :task new FILE [SECOND]: a task from real code (app/task_new.h),
 * SECOND the testbench (a CUDA harness), or a C file's reference .s.  The
 * task opens in $EDITOR on the whole terminal; on save its reference is
 * verified in the sandbox, waited for, and the task stored when it
 * passes; the status line says what happened.
 */
static int
wbc_task(struct cmd_ctx *ctx, struct cmd_args *a, struct err *err)
{
	struct wb *wb = WB(ctx);
	struct task_new_opts o = { 0 };
	struct task_new tn;
	struct run r = { 0 };
	char *line = xstrdup(ctx->line != NULL ? ctx->line : ""), *save;
	char *w[3] = { NULL, NULL, NULL }, *tok, *why = NULL;
	int n = 0, e;

	(void)a;
	for (tok = strtok_r(line, " \t", &save); tok != NULL && n < 3;
	    tok = strtok_r(NULL, " \t", &save))
		w[n++] = tok;
	if (n < 2 || strcmp(w[0], "new") != 0) {
		wb_msg(wb, 1, "usage: task new FILE [TESTBENCH|REFERENCE.s]");
		free(line);
		return 0;
	}
	/* the second file: a C function's reference assembly, else the
	 * testbench (a CUDA harness) */
	if (strlen(w[1]) > 2 && strcmp(w[1] + strlen(w[1]) - 2, ".c") == 0)
		o.reference = w[2];
	else
		o.testbench = w[2];
	if (task_new_build(&w[1], 1, &o, &tn, err) < 0) {
		wb_msg(wb, 1, "task new: %s", err->msg);
		goto out;
	}
	def_prog_mode();
	endwin();
	e = task_new_edit(&tn, NULL, err);
	reset_prog_mode();
	clearok(curscr, TRUE);
	wb->dirty = 1;
	if (e < 0) {
		wb_msg(wb, 1, "task new: %s", err->msg);
		goto out;
	}
	if (tn.skeleton) {
		wb_msg(wb, 1, "task new: %s: no requirement written over \"%s\";"
		    " nothing stored", w[1], TASK_NEW_SKELETON);
		goto out;
	}
	if (task_new_verify(&tn, &wb->vopts, NULL, &r, err) < 0) {
		wb_msg(wb, 1, "task new: %s", err->msg);
	} else if (r.verdict == NULL || strcmp(r.verdict, "pass") != 0) {
		why = task_new_why(&tn, &r);
		task_refused(wb, w[1], why);
		free(why);
	} else if ((e = task_new_vacuous(&tn, &wb->vopts, &why, err)) != 0) {
		task_refused(wb, w[1], e < 0 ? err->msg : why);
		free(why);
	} else if (task_new_store(wb->st, &tn, &r, err) < 0) {
		wb_msg(wb, 1, "task new: %s", err->msg);
	} else {
		/* the workbench's own commit does not move the store's
		 * data_version for its connection: read the view again */
		wb_view_changed(wb);
		wb_msg(wb, 0, "task %s stored; its reference %s passes (%s)",
		    tn.task.id, tn.ref.id, tn.task.env);
	}
out:
	err_clear(err);		/* said on the status line */
	run_release(&r);
	task_new_release(&tn);
	free(line);
	return 0;
}

/* The workbench's own `:` commands (a key may run them: bind 9 :views);
 * the one table (main.c) lists them by UI_COMMANDS (ui.h). */
#define WBC	(CMD_WORKBENCH | CMD_KEY)
#define WBT	(CMD_WORKBENCH | CMD_KEY | CMD_TEXT)

const struct cmd_entry ui_cmd_filter = { "filter", "where", NULL, 0,
    CMD_MANY, "filter [FILTER]", "Show the candidates FILTER matches (the"
    " language of list --where); none: all.", WBT, wbc_filter };
const struct cmd_entry ui_cmd_grep = { "grep", NULL, NULL, 0,
    CMD_MANY, "grep TEXT", "Show the candidates whose code, logs or spec"
    " hold TEXT.", WBT, wbc_grep };
const struct cmd_entry ui_cmd_goto = { "goto", "show", NULL, 0, 1,
    "goto ID", "Go to the candidate ID (or a unique prefix).", WBC,
    wbc_goto };
const struct cmd_entry ui_cmd_unmark = { "unmark", NULL, NULL, 0, 0,
    "unmark", "Clear the marks.", WBC, wbc_unmark };
const struct cmd_entry ui_cmd_save = { "save", NULL, NULL, 0,
    CMD_MANY, "save NAME", "Save the filter as the view NAME.", WBT,
    wbc_save };
const struct cmd_entry ui_cmd_view = { "view", NULL, NULL, 0,
    CMD_MANY, "view NAME", "Show the saved view NAME.", WBT, wbc_view };
const struct cmd_entry ui_cmd_messages = { "messages", NULL, NULL, 0, 0,
    "messages", "Show the last 64 messages of the status bar, whole, in"
    " the toolchain pane.", WBC, wbc_messages };
const struct cmd_entry ui_cmd_views = { "views", NULL, NULL, 0, 0,
    "views", "List the saved views.", WBC, wbc_views };
const struct cmd_entry ui_cmd_repair = { "repair", NULL, NULL, 0, 1,
    "repair [ROUNDS]", "Ask the model to repair the failed candidates"
    " (marked, or the view's).", WBT | CMD_TARGETS, wbc_model };
const struct cmd_entry ui_cmd_generate = { "generate", NULL, NULL, 0,
    1, "generate [SAMPLES]", "Ask the model for candidates of the tasks"
    " (marked, or the view's).", WBT | CMD_TARGETS, wbc_model };
const struct cmd_entry ui_cmd_verify = { "verify", NULL, NULL, 0, 2,
    "verify [JOBS] [force]", "Verify the marked candidates, else the view,"
    " JOBS at a time, in the background.", WBC | CMD_TARGETS, wbc_verify };
const struct cmd_entry ui_cmd_task = { "task", NULL, NULL, 0, CMD_MANY,
    "task new FILE [TESTBENCH|REFERENCE.s]", "A task from real code"
    " (Verilog, C, CUDA, CadQuery, STEP): edit it in $EDITOR, then its"
    " reference is verified and the task stored when it passes.", WBT,
    wbc_task };
const struct cmd_entry ui_cmd_quit = { "quit", "q", NULL, 0, 0,
    "quit", "Leave the workbench.", WBC, wbc_quit };

/* A command's output and messages go to the status line. */
static void
ui_cmd_out(void *arg, const char *s, size_t n)
{
	while (n > 0 && s[n - 1] == '\n')
		n--;
	wb_msg(arg, 0, "%.*s", (int)n, s);
}

static void
ui_cmd_diag(void *arg, const char *s)
{
	wb_msg(arg, 1, "%s", s);
}

/* A shared command asks: keep its line to run again on a y. */
static int
ui_cmd_ask(struct cmd_ctx *ctx, const char *question)
{
	struct wb *wb = ctx->front;

	free(wb->bulk);
	wb->bulk = xasprintf("%s %s", ctx->entry->name, ctx->line);
	/* a decision key's question is about the candidate it was asked
	 * on: a y after the cursor moved does nothing */
	wb->ask_key = ctx->decide != NULL;
	snprintf(wb->ask_id, sizeof wb->ask_id, "%s", ctx->nids > 0 ?
	    ctx->ids[0] : "");
	wb_ask(wb, WB_ASK_BULK, "%s? y/n", question);
	return 0;
}

/* A decision key's decision: wb_decide(), which keeps it waiting while
 * another process holds the database's lock. */
static int
ui_ctx_decide(struct cmd_ctx *ctx, const struct decide_act *act,
    const char *id, struct decide_out *out, struct err *err)
{
	return wb_decide(ctx->front, act, id, out, err);
}

/* A key action's command runs the action (ctx->action). */
static void
ui_ctx_action(struct cmd_ctx *ctx, int a)
{
	ui_action(ctx->front, (enum action)a);
}

/*
 * Run entry e of the one table on the workbench from where (CMD_KEY or
 * CMD_WORKBENCH), on its parsed args (arg: the text after its name, as
 * typed): the database and the reviewer, its targets the marked
 * candidates, else the one under the cursor; the settings and the keys;
 * the key actions; its output and messages on the status line.
 * confirmed says the y was given to this very line.  Then follows what
 * the command did: marks cleared, the view read again, a setting
 * applied.
 */
static void
ui_entry_run(struct wb *wb, const struct cmd_entry *e, unsigned where,
    struct cmd_args *args, const char *arg, int confirmed, int key)
{
	struct cmd_ctx ctx = { .entry = e, .where = where, .front = wb,
	    .line = arg, .out = ui_cmd_out, .diag = ui_cmd_diag, .arg = wb,
	    .cfg = &wb->cfg, .km = &wb->km, .action = ui_ctx_action };
	char *one = wb->cur.id;
	struct err err;

	err_clear(&err);
	if (e->flags & CMD_STORE) {
		ctx.st = wb->st;
		ctx.by = wb->reviewer;
		ctx.ids = wb->nmarks > 0 ? wb->marks : &one;
		ctx.nids = wb->nmarks > 0 ? wb->nmarks : one != NULL;
		ctx.confirmed = confirmed;
		ctx.ask = ui_cmd_ask;
		if (key) {	/* a decision key: the cursor's, waiting */
			ctx.ids = &one;
			ctx.nids = one != NULL;
			ctx.decide = ui_ctx_decide;
		}
	}
	if (e->exec(&ctx, args, &err) != 0 && err.msg[0] != '\0')
		wb_msg(wb, 1, "%s: %s", e->name, err.msg);
	ui_setting_apply(wb, ctx.setting);
	if (ctx.clear_marks && wb->nmarks > 0)
		wb_marks_clear(wb);
	/* one candidate undone: go back to it; else the rows may leave
	 * the view and the cursor keeps its candidate */
	if (ctx.focus != NULL && key)
		wb_advance(wb, ctx.focus, wb->cfg.advance);
	else if (ctx.focus != NULL)
		wb_changed(wb, ctx.focus);
	else if (ctx.changed)
		wb_view_changed(wb);
	free(ctx.focus);
}

/* A key's action: its command of the one table (every key action is
 * one, app_action_cmds), run from a key. */
static void
ui_key_action(struct wb *wb, enum action a)
{
	const struct cmd_entry *e = app_action_cmd(a);
	struct cmd_args args;
	struct err err;
	char *argv[] = { (char *)e->name, NULL };

	if (cmd_parse(e, 1, argv, &args, &err) == 0)
		ui_entry_run(wb, e, CMD_KEY, &args, "", 0, 0);
	cmd_args_release(&args);
}

/*
 * Run a command line: typed after `:` (where CMD_WORKBENCH) or bound to
 * a key (CMD_KEY): the entry of the one table it names that runs there,
 * with the words after it (ui_entry_run).  A command that runs
 * elsewhere (`:export`, `:generator`) is refused with where it runs.
 */
static void
ui_command_run(struct wb *wb, const char *text, unsigned where,
    int confirmed, int key)
{
	const struct cmd_table *t = wb->o->commands;
	const struct cmd_entry *e;
	struct cmd_args args;
	struct err err;
	char **argv, *arg, *line = xstrdup(text);
	int argc;

	arg = line;
	while (*arg == ' ')
		arg++;
	memmove(line, arg, strlen(arg) + 1);
	arg = line + strcspn(line, " ");
	if (*arg != '\0')
		*arg++ = '\0';
	while (*arg == ' ')
		arg++;
	/* completion leaves a blank after the last word */
	for (size_t n = strlen(arg); n > 0 && arg[n - 1] == ' '; n--)
		arg[n - 1] = '\0';
	if (*line == '\0')
		goto out;
	if (cmd_find(t, line) == NULL) {
		struct buf names = BUF_INIT;

		/* the commands the table has, so the message cannot drift;
		 * the key actions are named as "an action name" */
		for (size_t i = 0; i < t->n && t->v[i] != NULL; i++)
			if ((t->v[i]->flags & CMD_WORKBENCH) &&
			    app_action_of(t->v[i]) == ACTION_NONE)
				buf_printf(&names, "%s, ", t->v[i]->name);
		wb_msg(wb, 1, "unknown command '%s' (%san action name; Tab"
		    " completes)", line, buf_str(&names));
		buf_release(&names);
		goto out;
	}
	if ((e = cmd_lookup(t, line, where, &err)) == NULL) {
		wb_msg(wb, 1, "%s", err.msg);
		goto out;
	}
	{
		char *l = xasprintf("%s %s", line, arg);

		argv = cmd_words(l, &argc);
		free(l);
	}
	err_clear(&err);
	if (cmd_parse_front(e, CMD_WORKBENCH, argc, argv, &args, &err) < 0)
		wb_msg(wb, 1, ":%s: %s (:%s)", e->name, err.msg, e->usage);
	else if (args.help)
		wb_msg(wb, 0, ":%s - %s", e->usage, e->help);
	else
		ui_entry_run(wb, e, where, &args, arg, confirmed, key);
	cmd_args_release(&args);
	cmd_words_free(argv);
out:
	free(line);
}

static void
ui_decide_key(struct wb *wb, const char *verb_args)
{
	int final;
	char *line;

	if (wb->cur.id == NULL || wb->cur.cand.id == NULL) {
		wb_msg(wb, 1, "no candidate selected");
		return;
	}
	/* the final word, on a row of the disagreement queue */
	final = strncmp(verb_args, "label ", 6) == 0 &&
	    ui_disagree_queue(wb) && (!wb->detached || wb->gone);
	line = xasprintf("%s%s", verb_args, final ? " --final" : "");
	ui_command_run(wb, line, CMD_KEY, 0, 1);
	free(line);
}

static void
ui_prompt_key(struct wb *wb, int key)
{
	char line[sizeof wb->pr.text];

	if (prompt_key(wb, key, line, sizeof line) == 0)
		return;
	if (wb->pr.kind == '/')
		(void)wb_search_set(wb, line);
	else
		ui_command_run(wb, line, CMD_WORKBENCH, 0, 0);
}

/* --- dispatch ------------------------------------------------------------ */

/* What x cancels, in the order it looks when the one started last has
 * ended: each with the wb_job its start records. */
static const struct ui_job {
	enum wb_job	 job;
	int		(*running)(const struct wb *);
	void		(*cancel)(struct wb *);
} ui_jobs[] = {
	{ WB_JOB_VERIFY_ONE, term_pane_verifying, term_pane_cancel },
	{ WB_JOB_MODEL, mrun_running, mrun_cancel },
	{ WB_JOB_BATCH, batch_running, batch_cancel },
	{ WB_JOB_COMMIT, commit_running, commit_cancel },
	{ WB_JOB_IMPORT, import_running, import_cancel },
	{ WB_JOB_MERGE, merge_running, merge_cancel },
};
#define UI_NJOBS	(sizeof ui_jobs / sizeof ui_jobs[0])

/*
 * x: the long operation started last, if it still runs (its start said
 * "x cancels"; with a v and an :import both running, x cancelled the v),
 * else the first that runs; with none, the toolchain pane says so.
 */
static void
ui_cancel(struct wb *wb)
{
	const struct ui_job *first = NULL;

	for (size_t i = 0; i < UI_NJOBS; i++) {
		if (!ui_jobs[i].running(wb))
			continue;
		if (ui_jobs[i].job == wb->job_last) {
			ui_jobs[i].cancel(wb);
			return;
		}
		if (first == NULL)
			first = &ui_jobs[i];
	}
	if (first != NULL)
		first->cancel(wb);
	else
		term_pane_cancel(wb);	/* says none runs */
}

/* What quitting would stop, the reason :quit asks first; QUIT_NONE when
 * nothing. */
enum quit_why { QUIT_NONE, QUIT_PENDING, QUIT_PANE, QUIT_VERIFY,
	QUIT_IMPORT, QUIT_MERGE };

static enum quit_why
quit_why(const struct wb *wb)
{
	size_t done, total, fail;

	if (wb->npending > 0)
		return QUIT_PENDING;
	if (term_pane_busy(wb))
		return QUIT_PANE;
	if (batch_progress(wb, &done, &total, &fail))
		return QUIT_VERIFY;
	if (import_running(wb))
		return QUIT_IMPORT;
	if (merge_running(wb))
		return QUIT_MERGE;
	return QUIT_NONE;
}

/* Ask :quit's question for why, after what ended before it ("" or a
 * clause and "; "); its reason is kept in wb->ask_quit. */
static void
quit_ask(struct wb *wb, enum quit_why why, const char *ended)
{
	size_t done = 0, total = 0, fail;

	wb->ask_quit = why;
	switch (why) {
	case QUIT_PENDING:
		wb_ask(wb, WB_ASK_QUIT, "%s%zu decision%s wait%s for the "
		    "database (another process holds its lock); quit and drop "
		    "%s? y/n", ended, wb->npending, wb->npending == 1 ? "" :
		    "s", wb->npending == 1 ? "s" : "", wb->npending == 1 ?
		    "it" : "them");
		break;
	case QUIT_PANE:
		wb_ask(wb, WB_ASK_QUIT, "%s%s is running in the toolchain "
		    "pane; quit anyway? y/n", ended, term_pane_verifying(wb) ?
		    "a verification" : mrun_running(wb) ? "a model run" :
		    "the editor");
		break;
	case QUIT_VERIFY:
		(void)batch_progress(wb, &done, &total, &fail);
		wb_ask(wb, WB_ASK_QUIT, "%s:verify is running (%zu of %zu); "
		    "quit and cancel it (what it stored stays)? y/n", ended,
		    done, total);
		break;
	case QUIT_IMPORT:
		wb_ask(wb, WB_ASK_QUIT, "%s:import is running; quit and cancel"
		    " it (nothing of it stays)? y/n", ended);
		break;
	case QUIT_MERGE:
		wb_ask(wb, WB_ASK_QUIT, "%s:merge is running; quit and cancel "
		    "it (the runs it stored stay; merging again stores the "
		    "rest)? y/n", ended);
		break;
	case QUIT_NONE:
		wb_ask(wb, WB_ASK_QUIT, "%squit? y/n", ended);
		break;
	}
}

/* Quit, asking first while something runs that quitting would stop. */
static void
ui_quit(struct wb *wb)
{
	enum quit_why why = quit_why(wb);

	if (why == QUIT_NONE)
		wb->quit = 1;
	else
		quit_ask(wb, why, "");
}

/*
 * :quit's question on screen is about what runs now: when what it asked
 * about ended (the lock freed and the pending decisions were made, the
 * :verify finished) it is asked again, saying so, for what quitting
 * would stop now, or as a plain "quit? y/n" (a question that offered to
 * drop decisions already made, or to cancel a :verify that had ended,
 * stayed on screen).  Called after the services' steps.
 */
static void
quit_reask(struct wb *wb)
{
	static const char *const ended[] = {
		[QUIT_PENDING] = "the database is free: the pending decisions"
		    " are made; ",
		[QUIT_PANE] = "the toolchain pane's program ended; ",
		[QUIT_VERIFY] = ":verify ended; ",
		[QUIT_IMPORT] = ":import ended; ",
		[QUIT_MERGE] = ":merge ended; ",
	};
	enum quit_why why;

	if (wb->ask != WB_ASK_QUIT || wb->ask_quit == QUIT_NONE)
		return;
	why = quit_why(wb);
	if ((int)why == wb->ask_quit)
		return;
	quit_ask(wb, why, ended[wb->ask_quit]);
	wb->dirty = 1;
}

/*
 * Esc and q give the focus back to the queue before they do anything
 * else, so that leaving a pane never drops a filter or a view (issue
 * 24): a zoomed pane goes back into the layout with it.  1 when the
 * focus was elsewhere and is the queue's now.
 */
static int
ui_focus_back(struct wb *wb, enum action a)
{
	char key[16] = "Esc";
	int k;

	if (wb->lay.focus == WB_QUEUE)
		return 0;
	if (wb->lay.zoom >= 0) {
		if (!wb->lay.auto_zoom)
			wb_nav_unzoom(wb);	/* its stack entry goes too */
		wb->lay.zoom = -1;
		wb->lay.auto_zoom = WB_AZ_NONE;
		wb->lay.relayout = 1;
	}
	wb->lay.focus = WB_QUEUE;
	/* the key pressed, not always Esc: q said "Esc again" */
	if (keymap_keys(&wb->km, KEYMAP_GLOBAL, a, &k, 1) > 0)
		keymap_key_name(k, key, sizeof key);
	wb_msg(wb, 0, "focus: queue%s%s%s", wb->nav.n > 0 ? " (" : "",
	    wb->nav.n > 0 ? key : "", wb->nav.n > 0 ? " again goes back a"
	    " view)" : "");
	return 1;
}

static void
ui_action(struct wb *wb, enum action a)
{
	struct pane *p = &wb->lay.panes[wb->lay.focus];

	switch (a) {
	case ACTION_MOVE_DOWN: case ACTION_MOVE_UP:
	case ACTION_PAGE_DOWN: case ACTION_PAGE_UP:
	case ACTION_MOVE_FIRST: case ACTION_MOVE_LAST:
		/* the focused pane scrolls; others move the queue */
		if (p->ops->key == NULL || !p->ops->key(p, 0, a))
			wb->lay.panes[WB_QUEUE].ops->key(&wb->lay.panes[WB_QUEUE], 0,
			    a);
		break;
	case ACTION_SCROLL_LEFT: case ACTION_SCROLL_RIGHT:
	case ACTION_WRAP:
		/* the focused candidate or toolchain pane; else the
		 * candidate's, as j and k move the queue from any pane */
		if (wb->lay.focus != WB_TERM || !p->ops->key(p, 0, a))
			wb->lay.panes[WB_CODE].ops->key(&wb->lay.panes[WB_CODE], 0,
			    a);
		break;
	case ACTION_ENTER:
		if (p->ops->key != NULL && p->ops->key(p, 0, a))
			break;
		wb->lay.focus = WB_CODE;
		if (wb->lay.zoom >= 0)
			wb->lay.zoom = WB_CODE;
		wb->lay.relayout = 1;
		break;
	case ACTION_NEXT_PANE:
	case ACTION_PREV_PANE:
		wb->lay.focus = (wb->lay.focus + (a == ACTION_NEXT_PANE ? 1 :
		    WB_NPANES - 1)) % WB_NPANES;
		if (wb->lay.zoom >= 0) {
			wb->lay.zoom = wb->lay.focus;
			wb->lay.auto_zoom = 0;
			wb->lay.relayout = 1;
		}
		break;
	case ACTION_ZOOM:
		if (wb->lay.zoom < 0 && !wb->lay.auto_zoom)
			wb_nav_zoom(wb);	/* Esc gives the layout back */
		else if (wb->lay.zoom == wb->lay.focus && !wb->lay.auto_zoom)
			wb_nav_unzoom(wb);
		wb->lay.zoom = wb->lay.zoom == wb->lay.focus ? -1 : wb->lay.focus;
		wb->lay.auto_zoom = 0;
		wb->lay.relayout = 1;
		break;
	case ACTION_BACK:
		/* the focus first; views only from the queue */
		if (ui_focus_back(wb, a) || wb_nav_pop(wb) == 0)
			break;
		if (wb->lay.zoom >= 0) {	/* a zoom v or e made */
			wb->lay.zoom = -1;
			wb->lay.auto_zoom = 0;
			wb->lay.relayout = 1;
		} else {
			wb_msg(wb, 0, "nothing to go back to (q quits)");
		}
		break;
	case ACTION_VERIFY:
		wb_verify(wb, wb->cur.id);
		break;
	case ACTION_CANCEL:
		ui_cancel(wb);
		break;
	case ACTION_EDIT:
		term_pane_edit(wb);
		break;
	case ACTION_MODEL_REPAIR:
		mrun_repair_one(wb);
		break;
	case ACTION_GOTO_NEW:
		if (wb->made == NULL) {
			wb_msg(wb, 1, "no candidate made yet (R asks the model"
			    " for a repair)");
			break;
		}
		wb_select_id(wb, wb->made);
		wb_msg(wb, 0, "on %s, made last", wb->made);
		break;
	case ACTION_KEYBOARD:
		term_pane_keyboard(wb, 1);
		break;
	case ACTION_LABEL_COMPILE:	ui_decide_key(wb, "label compile"); break;
	case ACTION_LABEL_API:		ui_decide_key(wb, "label api"); break;
	case ACTION_LABEL_FUNCTIONAL:
		ui_decide_key(wb, "label functional");
		break;
	case ACTION_LABEL_FORMAT:	ui_decide_key(wb, "label format"); break;
	case ACTION_LABEL_PERFORMANCE:
		ui_decide_key(wb, "label performance");
		break;
	case ACTION_ACCEPT:		ui_decide_key(wb, "review accept"); break;
	case ACTION_REJECT:		ui_decide_key(wb, "review reject"); break;
	case ACTION_FLAG:		ui_decide_key(wb, "review flag"); break;
	case ACTION_MARK:		ui_mark(wb); break;
	case ACTION_NOTE:
		prompt_open(wb, ':', "note ");
		break;
	case ACTION_UNDO:		ui_undo(wb, 0); break;
	case ACTION_REDO:		ui_undo(wb, 1); break;
	case ACTION_COMMIT:		commit_start(wb); break;
	case ACTION_PROMPT:
	case ACTION_SEARCH:
		prompt_open(wb, a == ACTION_SEARCH ? '/' : ':', NULL);
		break;
	case ACTION_SEARCH_NEXT:	wb_search_next(wb, 1); break;
	case ACTION_SEARCH_PREV:	wb_search_next(wb, -1); break;
	case ACTION_STATS:
		(void)pane_open(&wb->lay.sheets[WB_STATS], NULL);
		break;
	case ACTION_DIFF:
		(void)pane_open(&wb->lay.sheets[WB_DIFF], NULL);
		break;
	case ACTION_WAVE:
		(void)pane_open(&wb->lay.sheets[WB_WAVE], NULL);
		break;
	case ACTION_SOLID:
		(void)pane_open(&wb->lay.sheets[WB_SOLID], NULL);
		break;
	case ACTION_HELP:
		(void)pane_open(&wb->lay.sheets[WB_HELP], NULL);
		break;
	case ACTION_REDRAW:
		/* Re-read: a toolchain found broken is proven again at the
		 * next verify (it may have been repaired meanwhile). */
		verify_smoke_forget();
		clearok(curscr, TRUE);
		wb->lay.relayout = 1;
		wb_view_changed(wb);
		break;
	case ACTION_QUIT:
		/* from another pane, back to the queue; in a sub-view, back
		 * to the view before (saying so); else quit */
		if (ui_focus_back(wb, a) || wb_nav_pop(wb) == 0)
			break;
		ui_quit(wb);
		break;
	case ACTION_CLOSE: case ACTION_CELL_LEFT: case ACTION_CELL_RIGHT:
	case ACTION_NEXT_GROUPING: case ACTION_PREV_GROUPING:
	case ACTION_DRILL: case ACTION_DIFF_LAYOUT: case ACTION_DIFF_NEXT:
	case ACTION_DIFF_PREV: case ACTION_WAVE_NEXT: case ACTION_WAVE_PREV:
	case ACTION_WAVE_ZOOM_IN: case ACTION_WAVE_ZOOM_OUT:
	case ACTION_PROMPT_RUN:
	case ACTION_PROMPT_LEAVE: case ACTION_PROMPT_COMPLETE:
	case ACTION_PROMPT_COMPLETE_BACK: case ACTION_PROMPT_HISTORY_PREV:
	case ACTION_PROMPT_HISTORY_NEXT: case ACTION_PROMPT_DELETE_CHAR:
	case ACTION_PROMPT_DELETE_WORD: case ACTION_PROMPT_CLEAR:
		/* the sheets' and the prompt's own tables (their panes'
		 * key operation, prompt_key) */
		wb_msg(wb, 1, "%s acts in its sheet or on the prompt only",
		    keymap_action_name(a));
		break;
	case ACTION_NONE:
	case ACTION_COUNT:
		break;
	}
}

static void
ui_key(struct wb *wb, int key)
{
	struct pane *q = &wb->lay.panes[WB_QUEUE], *sheet;
	enum action a;

	/* keys that came in one read act on what the last one selected */
	wb_sync(wb, q->rows > 1 ? q->rows - 1 : 20);
	wb->dirty = 1;
	/* the redraw key repaints under a question and keeps it (any other
	 * key answers no) */
	if (wb->ask != WB_ASK_NONE && keymap_lookup(&wb->km, KEYMAP_GLOBAL,
	    key) == ACTION_REDRAW) {
		clearok(curscr, TRUE);
		wb->lay.relayout = 1;
		return;
	}
	if (wb->ask != WB_ASK_NONE) {
		enum wb_ask ask = wb->ask;

		wb->ask = WB_ASK_NONE;
		wb->msg[0] = '\0';
		if (key != 'y' && key != 'Y') {
			/* what was not done, not a job's cancel (C-c under
			 * a question while :verify ran read as its end) */
			wb_msg(wb, 0, ask == WB_ASK_QUIT ? "not quitting" :
			    "cancelled the question: nothing done");
			free(wb->bulk);
			wb->bulk = NULL;
			return;
		}
		if (ask == WB_ASK_BULK) {
			char *line = wb->bulk;

			wb->bulk = NULL;
			if (line != NULL && wb->ask_key && (wb->cur.id == NULL ||
			    strcmp(wb->cur.id, wb->ask_id) != 0))
				wb_msg(wb, 1, "not done: the candidate under the "
				    "cursor changed (%.8s asked about)",
				    wb->ask_id);
			else if (line != NULL)
				ui_command_run(wb, line, wb->ask_key ? CMD_KEY :
				    CMD_WORKBENCH, 1, wb->ask_key);
			free(line);
		}
		else if (ask == WB_ASK_QUIT)
			wb->quit = 1;
		return;
	}
	if (wb->pr.open) {
		ui_prompt_key(wb, key);
		return;
	}
	if (term_pane_kbd(wb)) {
		term_pane_key(wb, key);
		return;
	}
	term_pane_keyboard(wb, 0);
	a = keymap_lookup(&wb->km, KEYMAP_GLOBAL, key);
	sheet = pane_sheet(wb);
	if (sheet != NULL) {	/* the sheet on top has every key */
		if (a == ACTION_PROMPT && !sheet->ops->key(sheet, key, a)) {
			/* ":" from anywhere, as ":q" is documented: the
			 * line opens over the sheet */
			prompt_open(wb, ':', NULL);
			return;
		}
		if (a != ACTION_PROMPT && !sheet->ops->key(sheet, key, a)) {
			/* said, not dropped: "1" on the stats sheet did
			 * nothing while the hints offered it */
			char name[32];

			keymap_key_name(key, name, sizeof name);
			wb_msg(wb, 1, "%s%s%s is not a key of the %s sheet (q "
			    "closes it)", name, a != ACTION_NONE ? " " : "",
			    a != ACTION_NONE ? keymap_action_name(a) : "",
			    sheet->ops->name);
		}
		return;
	}
	/* a zoom held after a run: scroll keys read, other keys end it */
	if (term_pane_unhold(wb, a))
		return;
	if (a == ACTION_NONE && keymap_command(&wb->km, key) != NULL) {
		/* bind KEY COMMAND LINE: as if typed after `:` */
		ui_command_run(wb, keymap_command(&wb->km, key), CMD_KEY, 0,
		    0);
		return;
	}
	if (a == ACTION_NONE) {
		char name[32];

		keymap_key_name(key, name, sizeof name);
		wb_msg(wb, 1, "%s is not bound (? lists the keys)", name);
		return;
	}
	if (a != ACTION_QUIT)	/* --dump-screen keeps the message */
		wb->msg[0] = '\0';
	ui_key_action(wb, a);
}

/*
 * One character of a bracketed paste (paste: its state, 1 inside one, 2
 * inside an escape sequence the paste holds).  Into an open `:` or `/`
 * line it is text: a newline or a tab as a blank, an escape sequence
 * (colours copied with a compiler's output) and other control
 * characters dropped; with no line open the paste is ignored, never read
 * as keys.
 */
static void
ui_paste_char(struct wb *wb, int *paste, int rc, wint_t ch)
{
	if (*paste == 2) {		/* ESC [ params final */
		if (rc != KEY_CODE_YES && ch >= 0x40 && ch <= 0x7e &&
		    ch != '[')
			*paste = 1;
		return;
	}
	if (rc == KEY_CODE_YES)
		return;
	if (ch == 0x1b) {
		*paste = 2;
		return;
	}
	if (ch == '\n' || ch == '\r' || ch == '\t')
		ch = ' ';
	if (ch < 0x20 || ch == 0x7f || (ch >= 0x80 && ch < 0xa0))
		return;
	if (!wb->pr.open) {
		wb_msg(wb, 1, "a paste is text for the : or / line; here it"
		    " was ignored");
		return;
	}
	ui_key(wb, (int)ch);
}

/* A curses key into a keymap key; -1 for keys the keymap cannot name. */
static int
ui_keycode(int rc, wint_t ch)
{
	if (rc != KEY_CODE_YES) {
		if (ch == '\n')
			return KEYMAP_CTRL('j');
		return (int)ch;
	}
	if (ch >= KEY_F(0) && ch <= KEY_F(63))
		return KEYMAP_KEY_F((int)(ch - KEY_F(0)));
	switch (ch) {
	case KEY_UP:		return KEYMAP_KEY_UP;
	case KEY_DOWN:		return KEYMAP_KEY_DOWN;
	case KEY_LEFT:		return KEYMAP_KEY_LEFT;
	case KEY_RIGHT:		return KEYMAP_KEY_RIGHT;
	case KEY_HOME:		return KEYMAP_KEY_HOME;
	case KEY_END:		return KEYMAP_KEY_END;
	case KEY_PPAGE:		return KEYMAP_KEY_PGUP;
	case KEY_NPAGE:		return KEYMAP_KEY_PGDN;
	case KEY_IC:		return KEYMAP_KEY_INS;
	case KEY_DC:		return KEYMAP_KEY_DEL;
	case KEY_BTAB:		return KEYMAP_KEY_BTAB;
	case KEY_ENTER:		return KEYMAP_KEY_ENTER;
	case KEY_BACKSPACE:	return KEYMAP_KEY_BACKSPACE;
	default:		return -1;
	}
}

/* A KEY_MOUSE: the event into mouse.c's terms. */
static void
ui_mouse(struct wb *wb)
{
	MEVENT ev;

	if (getmouse(&ev) != OK || !wb->cfg.mouse)
		return;
	wb->dirty = 1;
	if (ev.bstate & BUTTON4_PRESSED)
		mouse_event(wb, ev.y, ev.x, 0, -1);
	else if (ev.bstate & BUTTON5_PRESSED)
		mouse_event(wb, ev.y, ev.x, 0, 1);
	else if (ev.bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED))
		mouse_event(wb, ev.y, ev.x, 1, 0);
	else if (ev.bstate & BUTTON3_PRESSED)
		mouse_event(wb, ev.y, ev.x, 3, 0);
}

/* --- set-up and the loop ------------------------------------------------- */

static void
ui_box_init(void)
{
	const char *cs = nl_langinfo(CODESET);

	if (cs != NULL && (strcmp(cs, "UTF-8") == 0 ||
	    strcmp(cs, "utf8") == 0)) {
		ui_box.h = "\xe2\x94\x80";
		ui_box.v = "\xe2\x94\x82";
		ui_box.tl = "\xe2\x94\x8c";
		ui_box.tr = "\xe2\x94\x90";
		ui_box.tee_l = "\xe2\x94\x9c";
		ui_box.tee_r = "\xe2\x94\xa4";
		ui_box.tee_t = "\xe2\x94\xac";
		ui_box.cross = "\xe2\x94\xbc";
	} else {
		pane_ascii = 1;
		ui_box.h = "-";
		ui_box.v = "|";
		ui_box.tl = ui_box.tr = ui_box.tee_l = ui_box.tee_r = "+";
		ui_box.tee_t = ui_box.cross = "+";
	}
}

/*
 * The user's files: the key file $XDG_CONFIG_HOME/assay/keys (bind and
 * unbind lines, as before the config file), then the config file
 * $XDG_CONFIG_HOME/assay/config (settings and bindings; config.h).
 * Problems go to the status bar with their file and line.
 */
static void
ui_load_keys(struct wb *wb)
{
	char *keys = config_path("keys"), *cfg = config_path("config");
	struct err err;

	if (keys != NULL && keymap_load(&wb->km, keys, &err) < 0)
		wb_msg(wb, 1, "%s", err.msg);
	if (cfg != NULL && config_load(&wb->cfg, &wb->km, cfg, &err) < 0)
		wb_msg(wb, 1, "%s", err.msg);
	free(keys);
	free(cfg);
}

/*
 * Why: a build tree's data directory may be build/ (it holds the grammar
 * cache) while themes/ and the queries sit one level up; look in both.
 * New string, or NULL when neither has rel.
 */
static char *
ui_data_path(const char *dir, const char *rel)
{
	const char *bases[2] = { dir, NULL };
	char *up = dir != NULL ? xasprintf("%s/..", dir) : NULL;

	bases[1] = up;
	for (int i = 0; i < 2; i++) {
		char *p;

		if (bases[i] == NULL)
			continue;
		p = xasprintf("%s/%s", bases[i], rel);
		if (access(p, R_OK) == 0) {
			free(up);
			return p;
		}
		free(p);
	}
	free(up);
	return NULL;
}

/*
 * Why not initscr(): it draws on any terminal, and a dumb one (TERM=dumb,
 * an unknown TERM, no cursor addressing) gets the whole screen on one
 * line.  newterm() says when the terminal is unknown, and tigetstr()
 * whether it can move the cursor.  0, or -1 after saying why on stderr.
 */
static int
ui_open_terminal(int keys_replayed)
{
	const char *term = getenv("TERM");
	int known;

	if (term == NULL || *term == '\0' || strcmp(term, "dumb") == 0) {
		fprintf(stderr, "assay: the terminal %s%s%s cannot show the "
		    "workbench (it cannot move the cursor); set TERM to your "
		    "terminal's type (e.g. TERM=xterm-256color), or use the "
		    "headless commands (assay help)\n", term && *term ? "'" :
		    "", term && *term ? term : "type is not set (TERM)",
		    term && *term ? "'" : "");
		return -1;
	}
	/* terminfo asked first, then stdin: nothing is written to the
	 * terminal before the workbench knows it can start */
	known = ui_terminfo_check(term);
	if (known < 0) {
		fprintf(stderr, "assay: unknown terminal type '%s' (no "
		    "terminfo entry); set TERM to your terminal's type, e.g. "
		    "TERM=xterm-256color\n", term);
		return -1;
	}
	if (known > 0) {
		fprintf(stderr, "assay: the terminal '%s' cannot move the "
		    "cursor, so it cannot show the workbench; set TERM to your "
		    "terminal's type, or use the headless commands (assay "
		    "help)\n", term);
		return -1;
	}
	/* keys come from stdin: a pipe or a file would be read as keys,
	 * or at its end poll() says "readable" for ever (30 % of a CPU);
	 * asked before curses writes a byte to the terminal */
	if (!keys_replayed && !isatty(STDIN_FILENO)) {
		fprintf(stderr, "assay: the workbench reads its keys from a "
		    "terminal, and stdin is not one; run it in a terminal, or "
		    "use the headless commands (assay help)\n");
		return -1;
	}
	if (newterm(NULL, stdout, stdin) == NULL) {
		fprintf(stderr, "assay: curses could not start on the terminal"
		    " '%s'\n", term);
		return -1;
	}
	return 0;
}

static void
ui_init_curses(struct wb *wb)
{
	const char *env = getenv("ASSAY_THEME");
	struct err err;

	ui_box_init();
	fatal_set_hook(ui_restore);
	raw();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	define_key("\033[200~", UI_KEY_PASTE_BEGIN);
	define_key("\033[201~", UI_KEY_PASTE_END);
	ui_paste_mode(1);
	/* Esc alone must not lag: 25 ms is ample for a sequence's bytes */
	set_escdelay(25);
	curs_set(0);
	if (ui_colors()) {
		start_color();
		use_default_colors();
	}
	/* ASSAY_THEME for one run, else the config's, else dark */
	if (ui_theme(wb, env != NULL && *env != '\0' ? env :
	    wb->cfg.theme) < 0 && theme_load(NULL, NULL, ui_colors(),
	    &err) < 0)
		ASSAY_BUG("the built-in theme does not load");
	ui_mouse_set(wb);
}

/*
 * Highlighting is set up after the first frame: compiling the grammars'
 * queries takes longer than everything else the first frame needs, and
 * the queue and the code read well without colour for that moment.
 * The candidate on screen is parsed again, in colour.
 */
static void
ui_syntax_init(struct wb *wb)
{
	struct err err;
	char *gdir;

	gdir = ui_data_path(wb->o->data_dir, "grammars/verilog/highlights.scm");
	if (gdir != NULL)
		gdir[strlen(gdir) - strlen("/verilog/highlights.scm")] = '\0';
	else
		gdir = xstrdup("grammars");
	if (syntax_init(gdir, &err) < 0)
		wb_msg(wb, 1, "highlighting: %s", err.msg);
	free(gdir);
	(void)pane_open(&wb->lay.panes[WB_CODE], NULL);	/* parse it again */
	wb->dirty = 1;
}

/*
 * The long operations the frame loop drives, each in this process: its
 * fds join the keyboard's in one poll(), and it is stepped after each
 * (ADR 0039).  None is a child assay whose output is parsed.
 */
static const struct ui_service {
	const char *name;
	int	(*running)(const struct wb *);
	void	(*pollfds)(struct wb *, struct wb_pollset *);
	int	(*wait_ms)(const struct wb *);	/* ms, -1: none */
	void	(*step)(struct wb *);
} ui_services[] = {
	{ "toolchain pane", term_pane_busy, term_pane_pollfds,
	    term_pane_timeout, term_pane_io },
	{ ":verify", batch_running, batch_pollfds, batch_timeout, batch_io },
	{ "model run", mrun_running, mrun_pollfds, mrun_timeout, mrun_step },
	{ "pending decisions", pending_running, pending_pollfds,
	    pending_wait, pending_step },
	{ "commit", commit_running, commit_pollfds, commit_timeout,
	    commit_step },
	{ ":import", import_running, import_pollfds, import_timeout,
	    import_step },
	{ ":merge", merge_running, merge_pollfds, merge_timeout, merge_step },
};
#define UI_NSERVICES	(sizeof ui_services / sizeof ui_services[0])

/* The panes of the layout (enum wb_pane) and the sheets (enum wb_sheet):
 * the only place that names them; everything else goes through their
 * operations. */
static const struct pane_ops *const ui_panes[WB_NPANES] = {
	[WB_QUEUE] = &pane_queue_ops, [WB_SPEC] = &pane_spec_ops,
	[WB_CODE] = &pane_code_ops, [WB_TERM] = &pane_term_ops,
	[WB_TRACE] = &pane_trace_ops,
};
static const struct pane_ops *const ui_sheets[WB_NSHEETS] = {
	[WB_HELP] = &pane_help_ops, [WB_STATS] = &pane_stats_ops,
	[WB_DIFF] = &pane_diff_ops, [WB_WAVE] = &pane_wave_ops,
	[WB_SOLID] = &pane_solid_ops,
};

static void
ui_panes_free(struct wb *wb)
{
	for (int i = 0; i < WB_NPANES; i++)
		pane_free(&wb->lay.panes[i]);
	for (int i = 0; i < WB_NSHEETS; i++)
		pane_free(&wb->lay.sheets[i]);
}

/*
 * With --bench-keys, a step of the frame loop that took UI_SLOW_MS or
 * more since t0 (ms) is told on stderr, which goes to the report: where
 * a slow key's time went (bench/scale.sh).
 */
#define UI_SLOW_MS	100
static void
ui_slow(const struct wb *wb, const char *what, int64_t t0)
{
	int64_t ms = wb_now_ms() - t0;

	if (wb->o->bench_keys != NULL && ms >= UI_SLOW_MS)
		fprintf(stderr, "assay: slow %s %lld ms\n", what, (long long)ms);
}

/*
 * One turn of the frame loop's waiting: poll fd (the keyboard; -1: none)
 * with every running service's fds for timeout ms at most (-1: until one
 * is ready), or less when a service or the live store wants a turn
 * sooner; then look at the store and step the services.  The poll set
 * is made afresh each turn in *ps, as many as run.  -1 when poll()
 * failed (errno), else 0.
 */
static int
ui_turn(struct wb *wb, struct wb_pollset *ps, int fd, int timeout)
{
	int64_t t0;
	int t;

	ps->n = 0;
	if (fd >= 0)
		wb_pollset_add(ps, fd, POLLIN);
	for (size_t i = 0; i < UI_NSERVICES; i++) {
		if (!ui_services[i].running(wb))
			continue;
		ui_services[i].pollfds(wb, ps);
		t = ui_services[i].wait_ms(wb);
		if (t >= 0 && (timeout < 0 || t < timeout))
			timeout = t;
	}
	/* the live store: look for other processes' commits */
	t = wb_live_wait(wb);
	if (timeout < 0 || t < timeout)
		timeout = t;
	if (poll(ps->v, (nfds_t)ps->n, timeout) < 0 && errno != EINTR)
		return -1;
	if (wb->lock_shown)	/* its seconds go on, or it ends */
		wb->dirty = 1;
	t0 = wb_now_ms();
	if (wb_live_wait(wb) == 0)	/* :verify's thread knows best */
		wb_live(wb, batch_foreign(wb));
	ui_slow(wb, "the live store", t0);
	for (size_t i = 0; i < UI_NSERVICES; i++)
		if (ui_services[i].running(wb)) {
			t0 = wb_now_ms();
			ui_services[i].step(wb);
			ui_slow(wb, ui_services[i].name, t0);
		}
	quit_reask(wb);
	return 0;
}

/*
 * --bench-keys with @pace: the frame loop without the keyboard for ms,
 * as it runs between a person's keys: the services stepped, a frame
 * drawn when they made the screen dirty (at most every UI_FRAME_MS).  A
 * step that starts before the time is up runs to its end.
 */
static void
ui_bench_idle(struct wb *wb, int ms)
{
	struct wb_pollset ps = { 0 };
	int64_t now = wb_now_ms(), end = now + ms, last = now;

	while ((now = wb_now_ms()) < end) {
		int timeout = (int)(end - now);

		if (wb->dirty || wb->lay.relayout) {
			if (now - last >= UI_FRAME_MS) {
				ui_frame(wb);
				ui_slow(wb, "a frame between keys", now);
				last = now;
				continue;
			}
			if (UI_FRAME_MS - (now - last) < timeout)
				timeout = (int)(UI_FRAME_MS - (now - last));
		}
		if (ui_turn(wb, &ps, -1, timeout) < 0)
			break;
	}
	wb_pollset_release(&ps);
}

int
ui_run(struct store *st, const struct ui_opts *o)
{
	static const struct verify_opts vdefault;
	struct wb wb;
	struct sigaction sa;
	int64_t last_frame = 0;
	struct bench *bench = NULL;
	int syntax_ready = 0, paste = 0;	/* inside a bracketed paste */
	struct wb_pollset ps = { 0 };
	size_t lost, runs_lost;

	memset(&wb, 0, sizeof wb);
	wb.st = st;
	wb.o = o;
	wb.vopts = o->vopts != NULL ? *o->vopts : vdefault;
	wb.reviewer = xstrdup(o->reviewer != NULL ? o->reviewer : "unknown");
	wb.lay.zoom = -1;
	wb.lay.focus = WB_QUEUE;
	wb.lay.relayout = 1;
	wb.stale = 1;
	wb.dirty = 1;
	keymap_init(&wb.km);
	keymap_defaults(&wb.km);
	config_init(&wb.cfg);
	prompt_init(&wb);
	prompt_commands(o->commands);
	wb.km.commands = o->commands;
	for (int i = 0; i < WB_NPANES; i++) {
		pane_init(&wb.lay.panes[i], ui_panes[i], &wb);
		(void)pane_open(&wb.lay.panes[i], NULL);
	}
	for (int i = 0; i < WB_NSHEETS; i++)
		pane_init(&wb.lay.sheets[i], ui_sheets[i], &wb);

	ui_load_keys(&wb);
	if (o->filter != NULL && *o->filter != '\0' &&
	    wb_set_filter(&wb, o->filter) < 0)
		wb.filter = NULL;	/* the message says why */

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = ui_on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	setlocale(LC_ALL, "");
	if (ui_open_terminal(o->bench_keys != NULL) < 0) {
		ui_panes_free(&wb);
		prompt_release(&wb);
		config_release(&wb.cfg);
		wb_release(&wb);
		return 1;
	}
	ui_init_curses(&wb);
	/* never wait long for another process's lock: what the workbench
	 * writes waits in this process instead (pending.c) */
	store_lock_timeout(st, WB_LOCK_MS);
	if (o->bench_keys != NULL)	/* replays the keys, then quits */
		bench = bench_run(&wb, ui_frame, ui_key, ui_syntax_init,
		    ui_bench_idle);
	while (!wb.quit && !ui_signalled) {
		int timeout = -1, rc;
		int64_t now = wb_now_ms();
		wint_t ch;

		if (wb.dirty || wb.lay.relayout) {
			int every = wb.term_fed > UI_FLOOD_BYTES ? UI_FLOOD_MS :
			    UI_FRAME_MS;

			if (now - last_frame >= every || wb.redraw_all) {
				ui_frame(&wb);
				last_frame = now;
				wb.redraw_all = 0;
				wb.term_fed = 0;
				if (!syntax_ready) {
					ui_syntax_init(&wb);
					syntax_ready = 1;
					/*
					 * a resize during the set-up waits in
					 * curses, not on stdin: read it now
					 */
					timeout = 0;
				}
			} else {
				timeout = (int)(every - (now - last_frame));
			}
		}
		if (ui_turn(&wb, &ps, STDIN_FILENO, timeout) < 0)
			break;
		while ((rc = wget_wch(stdscr, &ch)) != ERR) {
			int key;

			if (rc == KEY_CODE_YES && ch == UI_KEY_PASTE_BEGIN) {
				paste = 1;
				continue;
			}
			if (rc == KEY_CODE_YES && ch == UI_KEY_PASTE_END) {
				paste = 0;
				wb.redraw_all = 1;
				continue;
			}
			if (paste) {
				ui_paste_char(&wb, &paste, rc, ch);
				continue;
			}

			if (rc == KEY_CODE_YES && ch == KEY_MOUSE) {
				ui_mouse(&wb);
				wb.redraw_all = 1;
				continue;
			}
			if (rc == KEY_CODE_YES && ch == KEY_RESIZE) {
				/* the whole screen again: a terminal that
				 * reflows its lines on a resize (tmux) keeps
				 * cells curses no longer knows of */
				clearok(curscr, TRUE);
				wb.lay.relayout = 1;
				wb.lay.resized = 1;
				wb.redraw_all = 1;
				continue;
			}
			key = ui_keycode(rc, ch);
			if (key < 0)
				continue;
			ui_key(&wb, key);
			wb.redraw_all = 1;	/* keys draw at once */
			if (wb.quit)
				break;
		}
	}
	wb.dirty = 1;
	ui_frame(&wb);
	if (o->dump_screen != NULL)
		ui_dump(o->dump_screen);
	mrun_stop(&wb);		/* an answer on its way is left to it */
	term_pane_stop(&wb);
	runs_lost = batch_stop(&wb);	/* what it stored stays */
	commit_stop(&wb);	/* git's files are never left half written */
	import_stop(&wb);	/* its input rolled back */
	merge_stop(&wb);	/* its open batch committed */
	if (!ui_signalled)
		pending_release(&wb);	/* the question said they go */
	wb_pollset_release(&ps);
	ui_panes_free(&wb);
	endwin();
	ui_paste_mode(0);
	/* told to stop (SIGTERM, SIGHUP): what waits for the lock is made
	 * if the lock frees within 10 s, else printed as commands */
	lost = pending_flush(&wb, 10000, o->db_path);
	if (runs_lost > 0)	/* dropped silently before */
		fprintf(stderr, "assay: the database's lock stayed held: %zu"
		    " finished run%s of :verify %s not stored; assay verify "
		    "makes %s again\n", runs_lost, runs_lost == 1 ? "" : "s",
		    runs_lost == 1 ? "was" : "were", runs_lost == 1 ? "it" :
		    "them");
	syntax_shutdown();
	prompt_release(&wb);
	config_release(&wb.cfg);
	wb_release(&wb);
	if (lost > 0 || runs_lost > 0)
		return 1;	/* decisions or runs were not stored */
	return bench != NULL ? bench_end(bench) : 0;
}
