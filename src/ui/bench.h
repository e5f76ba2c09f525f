/*
 * bench.h - `assay --bench-keys FILE`: the workbench replays the keys of
 * FILE through its own key handler and frame function, timing each key
 * from its arrival to the end of the frame it causes (doupdate() done),
 * and prints a report on stderr once curses has ended.  Used by
 * bench/scale.sh (issue 5, a million samples) and tests/e2e/160.
 *
 * FILE has one step a line:
 *   KEY          a key name as keymap_key_parse() reads it (j, Enter,
 *                C-r, PgDn, Space ...)
 *   N KEY        the key N times
 *   :TEXT, /TEXT the prompt key, TEXT a character at a time, then Enter
 *   @pace MS     from here on, each key arrives MS ms after the frame
 *                of the one before (0: at once, the default); meanwhile
 *                idle() runs the frame loop's services (a :verify started
 *                by the keys goes on), and the key's time runs from its
 *                arrival, so a service step it has to wait for counts
 * Blank lines and lines starting with '#' do nothing.
 *
 * Keys that ask the store for a new queue or a count over it are
 * "queries": the Enter of a : or / line, n and N, s, and Tab or Enter
 * on the statistics sheet.  Every other key is a "key".
 *
 * The report, one "name value" line each:
 *   rows N               candidates in the queue at the first frame
 *   first_frame_ms T     from assay's start (bench_t0) to the first frame
 *   highlight_ms T       from assay's start to the frame after late(),
 *                        the candidate in colour
 *   step key|query T NAME   each step, in order
 *   keys N, key_p50_ms T, key_p99_ms T, key_max_ms T
 *   queries N, query_max_ms T
 *   paced 1              some key had a @pace
 *   verify_runs N        when the keys started a :verify: the runs it
 *   verify_runs_fail N   stored during the replay (and of them not pass),
 *   verify_done N        the candidates it had handled at the end, of
 *   verify_total N       those in its view
 *   peak_rss_mb M        getrusage(RUSAGE_SELF) ru_maxrss
 */
#ifndef ASSAY_UI_BENCH_H
#define ASSAY_UI_BENCH_H

struct wb;
struct bench;

/*
 * Read the key file of wb->o->bench_keys, draw the first frame with
 * frame(), do what the frame loop does after it (late(), which sets up
 * highlighting) and draw again, then replay the keys through key() and
 * frame(), and set wb->quit.  idle(wb, ms) runs the frame loop without
 * the keyboard for ms before a paced key.  Call it once curses is up.  Returns a new
 * bench for bench_end(); a file that cannot be read or a bad line is
 * reported there ("FILE:LINE: what").
 */
struct bench *bench_run(struct wb *wb, void (*frame)(struct wb *),
	    void (*key)(struct wb *, int), void (*late)(struct wb *),
	    void (*idle)(struct wb *, int));

/*
 * After endwin(): print the report (or the error) on stderr and free b.
 * Returns the exit status: 0, or 2 when the key file was bad.
 */
int	bench_end(struct bench *b);

#endif
