/*
 * panes/term.h - the toolchain pane's functions for the workbench (its
 * state is the pane's own, in panes/term.c): verify, edit and model runs
 * in the pane, its I/O in the frame loop, the keyboard while its program
 * has it, and the zoom it makes.
 */
#ifndef ASSAY_UI_PANES_TERM_H
#define ASSAY_UI_PANES_TERM_H

#include <stddef.h>

#include "app/action.h"

struct wb;

/*
 * v: verify candidate id live in the pane through the verify service
 * (verify/service.h), its task's reference first when that never ran,
 * so that a defective task shows as task-defect, not as the model's
 * failure.  The service stores the runs; the pane shows their bytes.
 * 0 or -1 (message).  id is borrowed and may be wb->cur.id: this never
 * reloads wb->cur.
 */
int	wb_verify(struct wb *wb, const char *id);
/* Cancel the job (x). */
void	term_pane_cancel(struct wb *wb);
/* Open $EDITOR on the current candidate.  0 or -1 (message). */
int	term_pane_edit(struct wb *wb);
/*
 * A model run (model_run.c) writes into the pane: claim it (the pane is
 * cleared and titled; -1 with a message when it is busy), print text
 * (lines ending in \n), release it when the run ends (its story stays
 * while the candidate on screen does).
 */
int	term_pane_claim(struct wb *wb, const char *title);
void	term_pane_print(struct wb *wb, const char *text);
/*
 * One line of assay's own into the pane a model run claimed: its mark
 * (the reverse-video », which no run's or model's bytes can print),
 * then text, filtered as a run's output is (it may hold a server's
 * words), in the colour sgr ("1" bold, "31" red, NULL: none).  text
 * holds no newline.
 */
void	term_pane_say(struct wb *wb, const char *sgr, const char *text);
/* Show the pane's last line again (a view scrolled back, or held at
 * the line a verdict rests on, follows the output from now on). */
void	term_pane_to_end(struct wb *wb);
void	term_pane_release(struct wb *wb);
/* A job, the editor or a model run has the pane. */
int	term_pane_busy(const struct wb *wb);
/* A verification job is running. */
int	term_pane_verifying(const struct wb *wb);
/* 1 while the program in the pane has the keyboard. */
int	term_pane_kbd(const struct wb *wb);
/*
 * C-] (on 1): give the keyboard to the program in the pane (zoomed when
 * the pane is small), or say that none runs.  on 0: the workbench has
 * it (every key that reaches the workbench's tables says so).
 */
void	term_pane_keyboard(struct wb *wb, int on);
/* What runs in the pane, for the status line ("ENV · ID"); never NULL. */
const char *term_pane_program(const struct wb *wb);
/* Where the program's cursor is while it has the keyboard: 0, or -1
 * when the workbench has the keyboard. */
int	term_pane_cursor(const struct wb *wb, int *row, int *col,
	    int *visible);
/* Add the fds of what runs in the pane to ps (wb.h). */
struct wb_pollset;
void	term_pane_pollfds(struct wb *wb, struct wb_pollset *ps);
/* Poll timeout the pane needs (ms), -1 for none. */
int	term_pane_timeout(const struct wb *wb);
/* Read what is ready, advance the job, finish it or the editor. */
void	term_pane_io(struct wb *wb);
/* A key (keymap code) while the program has the keyboard: C-] (the
 * term table's keyboard action) takes it back, every other goes to the
 * program. */
void	term_pane_key(struct wb *wb, int key);
/* Zoom the pane for its program on a small screen (on), or give the
 * layout back (off); only undoes a zoom it made itself. */
void	term_pane_zoom(struct wb *wb, int on);
/* A key came while the zoom is held after a run: 1 when it only gave
 * the layout back (the key is used up), 0 when it should act too. */
int	term_pane_unhold(struct wb *wb, enum action a);
/* Stop everything before quitting. */
void	term_pane_stop(struct wb *wb);
/*
 * The candidate on screen changed while nothing runs in the pane: show
 * its latest run's stored log there (from the line its verdict rests
 * on), or say it never ran.  A live run stays until it ends; the output
 * of a model run (R, :repair, :generate) stays while it runs, then until
 * the reviewer moves to another candidate or the next program starts.
 */
void	term_pane_follow(struct wb *wb);

#endif
