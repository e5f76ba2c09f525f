/*
 * ui.h - the workbench (design.md section 6): queue, spec, candidate,
 * toolchain and trace panes over a store, driven by the keymap.  The only
 * entry point of src/ui; main.c calls it once the store is open.
 */
#ifndef ASSAY_UI_H
#define ASSAY_UI_H

struct store;
struct verify_opts;

struct ui_opts {
	const char *db_path;		/* for the title */
	const char *reviewer;		/* recorded on every decision */
	const char *repo_dir;		/* dataset repository for `c` (default "dataset") */
	const char *data_dir;		/* has grammars/ and themes/ */
	const struct verify_opts *vopts;	/* sandbox and limits for `v` */
	const char *filter;		/* initial queue filter or NULL */
	const char *dump_screen;	/* write the final screen as text here on exit, or NULL */
	const char *bench_keys;		/* replay these keys (bench.h), or NULL */
	double	    bench_t0;		/* CLOCK_MONOTONIC s at start */
	const struct cmd_table *commands;	/* the one table (main.c):
						 * the `:` line, keys, config */
};

/*
 * The workbench's own commands (ui.c), one entry ui_cmd_NAME each, run
 * from the `:` line and from keys; the one table lists them.
 */
#define UI_COMMANDS(X) \
	X(filter) \
	X(grep) \
	X(goto) \
	X(unmark) \
	X(save) \
	X(view) \
	X(views) \
	X(messages) \
	X(repair) \
	X(generate) \
	X(verify) \
	X(import) \
	X(merge) \
	X(task) \
	X(quit)
struct cmd_entry;
struct cmd_table;
#define UI_DECLARE(name)	extern const struct cmd_entry ui_cmd_##name;
UI_COMMANDS(UI_DECLARE)
#undef UI_DECLARE

/* Run the workbench on st until the user quits; returns the exit status. */
int	ui_run(struct store *st, const struct ui_opts *o);

#endif
