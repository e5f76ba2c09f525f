/*
 * import.h - importing the assay JSONL format and the public benchmark
 * layouts (VerilogEval v1 and v2, RTLFixer, RealBench, RTLLM,
 * KernelBench) and the dataset checkout; see docs/formats.md.  One file
 * a format (import_FORMAT.c), one line each in the table
 * (importers.h); import.c tells the format and holds the transaction,
 * import_util.c what the readers share.
 *
 * Identity: a task id is "<benchmark>/<problem>"; a candidate is its
 * (task, origin, code hash), so importing the same rows again adds
 * nothing, whatever path they come from.  Each input file (or problem
 * directory, or v1 file set) is imported in one transaction: a malformed
 * line fails the whole file with "path:line: what is wrong" and nothing
 * of it stays, unless keep_going is set, in which case bad lines are
 * skipped and listed in the report.
 *
 * Called by the import command and tests; writes through store.h only.
 */
#ifndef ASSAY_IMPORT_H
#define ASSAY_IMPORT_H

#include <stdatomic.h>
#include <stddef.h>

#include "base/buf.h"
#include "base/err.h"
#include "exchange/importers.h"
#include "store/store.h"

struct json_t;

/* IMPORT_AUTO, then one format a line of the table, IMPORT_ASSAY ... */
#define IMPORT_FORMAT_ENUM(e, file)	IMPORT_##e,
enum import_format {
	IMPORT_AUTO,
	IMPORTERS(IMPORT_FORMAT_ENUM)
};

struct import_opts {
	enum import_format	 format;
	int			 keep_going;
	const char		*by;	/* who imports: journal and labels */
	/* The licence of the tasks this import adds (an SPDX id); NULL:
	 * read from the LICENSE the data ships with (license.h). */
	const char		*license;
	/* Where the data comes from, "URL@COMMIT"; NULL: the git work tree
	 * the path lies in, if any (vcs_describe).  Task sources under the
	 * path become "URL@COMMIT:path-below-it". */
	const char		*repository;
	const char		*id_prefix;	/* prepended to explicit candidate
						 * ids and parents (assay JSONL);
						 * NULL: none (docs/adr/0011) */
	/* Called every IMPORT_PROGRESS_ROWS rows of a JSONL file, and at
	 * its end, with the rows read and the bytes read of total; may be
	 * NULL.  The importer never prints. */
	void	(*progress)(size_t rows, size_t done, size_t total, void *arg);
	void	*progress_arg;
};

#define IMPORT_PROGRESS_ROWS 4096

/*
 * What an import shows another thread while it runs (the import service,
 * import_svc.h), all relaxed atomics: rows, the rows read of a JSONL
 * file, done of total its bytes read; stored, the tasks and candidates
 * stored (new or already there).  cancel, set by the other thread, stops
 * the import before its next row (a JSONL row, a task, a candidate) with
 * "cancelled", and import_path() then rolls the input back whole.
 */
struct import_watch {
	atomic_int	cancel;
	atomic_size_t	rows, done, total, stored;	/* stored: candidates */
	/* Readable once cancel is set (the service's pipe), so that a
	 * reader waiting in poll() for a pipe's writer or its data wakes;
	 * -1: none. */
	int		cancel_fd;
};

struct import_report {
	size_t		 tasks_added, tasks_existing;
	size_t		 cands_added, cands_existing;
	size_t		 skipped;	/* bad lines skipped (keep_going) */
	struct buf	 warnings;	/* "path[:line]: message\n" lines */
	struct import_watch *watch;	/* borrowed; NULL (init): none */
};

/*
 * For the readers (import_util.c), each NULL-safe:
 * import_watch_rows() records a JSONL row read (line, bytes done of
 * total) and says whether to stop (1: cancelled); import_watch_cancelled()
 * says only that; import_watch_stored() counts one candidate (a row of
 * a JSONL input is a task and a candidate: counting both showed twice
 * the rows).
 */
int	import_watch_rows(struct import_watch *w, size_t line, size_t done,
	    size_t total);
int	import_watch_cancelled(struct import_watch *w);
void	import_watch_stored(struct import_watch *w);

void	import_report_init(struct import_report *r);
void	import_report_release(struct import_report *r);

/* Parse a --format name ("auto", or an importer's name: "assay",
 * "verilog-eval-v2", ...).  0, or -1 with err naming the known ones. */
int	import_format_parse(const char *name, enum import_format *out,
	    struct err *err);
/* The --format name of f.  Static string. */
const char *import_format_name(enum import_format f);

/*
 * Import path (a file or a directory) into st.  With IMPORT_AUTO the
 * format is told from the layout and the first row.  Returns 0 (report
 * filled, warnings included) or -1 with err, e.g.
 * "data.jsonl:12: invalid JSON: ...".
 */
int	import_path(struct store *st, const char *path,
	    const struct import_opts *opts, struct import_report *rep,
	    struct err *err);

/*
 * Helpers the importers share (import_util.c).  import_list_dir(): the
 * sorted names of dir's entries, dot files left out, and during a
 * directory import symlinks to folders left out too (each named once in
 * the import's warnings: a walk never follows a folder link, so no loop
 * and no way out of the tree), into *out (a new
 * array of new strings, freed with strv_free()); 0, or -1 with
 * err ("dir: reason").  import_has_suffix(): 1 when s ends with suffix.
 */
/*
 * Read the file at path whole into *out (new, NUL-terminated, "" when
 * empty; *len bytes): the importers' one way to read.  The input given
 * to import_path() as a pipe comes from its buffer; anything else must
 * be a regular file (a FIFO or a device is refused, not waited on), and
 * during a directory import it must resolve inside that directory (a
 * symlink to a host file is refused).  0, or -1 with err ("path: why").
 */
int	import_read(const char *path, char **out, size_t *len,
	    struct err *err);
/*
 * Read the JSON file at path whole (import_read()) and parse it; it must
 * be an array, of what the message calls what ("VeriScope predictions
 * (a JSON array of {\"problem_id\", \"completion\"})").  *out is the new
 * array (json_decref()).  0, or -1 with err ("path:LINE: not WHAT:
 * REASON", the parser's line and words, or "not an array").
 */
int	import_read_array(const char *path, const char *what,
	    struct json_t **out, struct err *err);

/*
 * The text of a JSONL file, however large, without reading it into
 * memory: the file at path mapped read-only (t->data, t->len bytes, not
 * NUL-terminated; "" and 0 when empty), under the same guard and
 * refusals as import_read(); the input given as a pipe is its buffer.
 * A leading UTF-8 BOM (EF BB BF, which some editors and Windows tools
 * write) is left out, as Python's json does, so that the first row
 * parses; line numbers are unchanged.
 * Give it back with import_unmap().  0, or -1 with err ("path: why").
 */
struct import_text {
	const char	*data;
	size_t		 len;
	int		 mapped;	/* data is an mmap of the file */
	size_t		 bom;		/* bytes of a leading UTF-8 BOM left
					 * out of data (0 or 3) */
};
int	import_map(const char *path, struct import_text *t, struct err *err);
void	import_unmap(struct import_text *t);

/* Most bytes one input file may hold (import_read refuses more). */
#define IMPORT_READ_MAX	(1 << 30)

/* The latest decision time an import takes: 9999-12-31T23:59:59Z. */
#define IMPORT_AT_MAX	253402300799LL

/*
 * The guard import_read() reads under, set by import_path() around one
 * import: path read now when it is a pipe, or its real path kept as the
 * root when it is a directory.  A pipe or FIFO is opened without waiting
 * for its writer and read in poll() on it and on watch's cancel_fd
 * (watch may be NULL: no cancel), so that a cancel ends a wait for a
 * writer or for data at once ("path: cancelled").  0, or -1 with err
 * ("path: why"); import_guard_end() forgets it, and appends to
 * warnings (may be NULL) a line for each symlink to a folder that the
 * directory import's listings left out (import_list_dir()).
 */
int	import_guard_begin(const char *path, struct import_watch *watch,
	    struct err *err);
void	import_guard_end(struct buf *warnings);

int	import_list_dir(const char *dir, char ***out, size_t *n,
	    struct err *err);
int	import_has_suffix(const char *s, const char *suffix);

/*
 * The whole file at path into *out (new, NUL-terminated, "" when empty)
 * and *len (may be NULL).  0, or -1 with err ("path: reason").
 */
int	import_read_file(const char *path, char **out, size_t *len,
	    struct err *err);

/*
 * Store a task, or a candidate and, when it is new, its nrec recorded
 * results, counting it in rep as added or already there (*inserted, may
 * be NULL, says which for a candidate).  For the importers; 0, or -1
 * with err.
 */
int	import_put_task(struct store *st, const struct task *t,
	    struct import_report *rep, struct err *err);
int	import_put_candidate(struct store *st, struct candidate *c,
	    const struct recorded *r, size_t nrec, struct import_report *rep,
	    int *inserted, struct err *err);

/* Is path an RTLLM root or design folder (import_rtllm.c)?  1 or 0. */
int	import_rtllm_detect(const char *path);

/*
 * An importer: its --format name; detect(path), 1 when the path's layout
 * (its name, a directory's entries) is its format, else 0 (may be NULL);
 * detect_row(row), 1 when the first row of a file is of its format, row
 * NULL for a file with no row (may be NULL); run(), the reader, called
 * by import_path() inside its transaction: 0, or -1 with err
 * ("path[:line]: ...").  import_FILE.c defines importer_FILE and
 * importers.h lists it; --format auto asks them in that order.
 */
struct importer {
	const char	*name;
	int		(*detect)(const char *path);
	int		(*detect_row)(const struct json_t *row);
	int		(*run)(struct store *st, const char *path,
			    const struct import_opts *opts,
			    struct import_report *rep, struct err *err);
};
#define IMPORTER_DECLARE(e, file) \
	extern const struct importer importer_##file;
IMPORTERS(IMPORTER_DECLARE)

/*
 * The row loop of the JSONL readers (import_util.c): each non-blank line
 * of path parsed (bare NaN read as null when nan_ok) and handed to cb as
 * a JSON object with its 1-based line, in one savepoint each when
 * opts->keep_going (a failed row is then skipped, listed in
 * rep->warnings and not counted).  An error names "path:line: ..."; a
 * store error is given that place too.  Progress goes to
 * opts->progress.  0, or -1 with err (the first bad row without
 * keep_going).  The rows are parsed ahead on a thread of their own
 * (import_rows.h, docs/adr/0031); cb runs on the caller's thread, in
 * file order.  row is borrowed for the call.
 */
typedef int (*import_row_fn)(struct store *st, struct json_t *row,
    const char *path, size_t line, const struct import_opts *opts,
    struct import_report *rep, struct err *err);
int	import_each_jsonl(struct store *st, const char *path, int nan_ok,
	    const struct import_opts *opts, import_row_fn cb,
	    struct import_report *rep, struct err *err);

/*
 * The same loop for a reader that does part of a row's work ahead, on
 * the parsing thread: prep(row) (the row alone, never the store; its
 * result may be NULL) runs there as each row is parsed, and cb gets it
 * as prep (borrowed: cb may change it, and must leave in it only what
 * prep_free frees).  prep_free frees it after cb, on the parsing thread
 * (on the caller's for the rows left when the loop ends, and for an
 * input too small for a thread).  Both must use no globals but
 * thread-local ones.
 */
typedef void	*(*import_prep_fn)(struct json_t *row);
typedef void	 (*import_prep_free_fn)(void *prep);
typedef int (*import_prep_row_fn)(struct store *st, struct json_t *row,
    void *prep, const char *path, size_t line,
    const struct import_opts *opts, struct import_report *rep,
    struct err *err);
int	import_each_jsonl_prep(struct store *st, const char *path,
	    import_prep_fn prep, import_prep_free_fn prep_free,
	    const struct import_opts *opts, import_prep_row_fn cb,
	    struct import_report *rep, struct err *err);

/* "path:line: what" into err, for a row's own error; returns -1. */
int	import_row_error(struct err *err, const char *path, size_t line,
	    const char *what);

/* The string member key of o (borrowed from o), or NULL when o is no
 * object or key no string; import_jdup(): a new copy, or NULL. */
const char *import_jstr(struct json_t *o, const char *key);
char	*import_jdup(struct json_t *o, const char *key);

/* A JSON object of o's members not named in known (NULL-terminated),
 * as compact text: new string, or NULL when there are none. */
char	*import_unknown_fields(struct json_t *o, const char *const *known);

/* Set c's code to a copy of code, with its length and sha256. */
void	import_set_code(struct candidate *c, const char *code);

/* The VerilogEval v1 and RTLFixer rule for a candidate's code: the
 * solution as it is when it holds "module top_module", else prompt
 * (NULL: none) then solution.  New string. */
char	*import_v1_code(const char *prompt, const char *solution);

/* The task of a VerilogEval v1 problem in benchmark (verilog-eval-v1, or
 * rtlfixer, which reuses its problems): id BENCHMARK/TASK_ID, domain
 * chip, env iverilog with the test bench tb as top and the candidate
 * compiled last.  Sets those fields of t (new strings). */
void	import_v1_task(struct task *t, const char *benchmark,
	    const char *task_id);


/*
 * The role of a task file by its name, for a task of env (docs/formats.md):
 * for a Verilog env, "data" when the name does not end in .v, .sv, .vh,
 * .svh or .vlib (verilog_is_data()); then "testbench" when one of its
 * words (split at '_', '-' and '.', any case) is tb, test or testbench,
 * "reference" for ref, reference or golden, else "source".  So
 * "tb_RAM.v" and "testbench.v" are testbenches and
 * "Prob068_countbcd_ref.sv" a reference.  Static string.
 */
const char *import_file_role(const char *name, const char *env);

/*
 * The model name of an RTLFixer / VerilogEval generation log name, by
 * the rule in docs/formats.md: the part before "_pass_at_k", after the
 * last "_cot_", "_react_" or "_openaifunc_", else after the last
 * "_<digits>_".  New string; the whole name when no rule applies.
 */
char	*import_model_from_log(const char *log);

/*
 * Replace bare NaN tokens outside strings with null (pandas writes them;
 * they are not JSON).  New string of *len bytes.
 */
char	*import_nan_to_null(const char *line, size_t len, size_t *outlen);

/*
 * The first module a testbench (len bytes) declares: new string, or NULL.
 * import_tb_task(): a Verilog task of a problem folder with a
 * self-checking testbench (ArchXBench, VeriScope): id (fitted), benchmark,
 * domain chip, env iverilog with {"top": the testbench's first module},
 * the testbench as task file tbname (role testbench), source dir; sets
 * those fields of t (new strings).  0, or -1 with err when the testbench
 * declares no module.
 */
char	*import_tb_top(const char *tb, size_t len);
int	import_tb_task(struct task *t, const char *id, const char *benchmark,
	    const char *dir, const char *tbname, const char *tb, size_t tblen,
	    struct err *err);
/*
 * Folder walks of the directory importers.  import_each_entry(): fn
 * (path "dir/name", name, arg) for each entry of dir in name order (as
 * import_list_dir() lists them) until fn returns non-zero; that value,
 * 0 when every call gave 0, or -1 with err (may be NULL) when dir cannot
 * be listed.  import_any_entry(): does pred(path, name, arg) hold for an
 * entry of dir (an unlistable dir holds none)?  1 or 0.
 */
int	import_each_entry(const char *dir,
	    int (*fn)(const char *path, const char *name, void *arg),
	    void *arg, struct err *err);
int	import_any_entry(const char *dir,
	    int (*pred)(const char *path, const char *name, void *arg),
	    void *arg);

/*
 * What a directory importer's walk carries to each folder: the store,
 * the report, the name of the group being read (a level, a tier; NULL
 * above them) and where an error goes.  Borrowed.
 */
struct import_walk {
	struct store		*st;
	struct import_report	*rep;
	const char		*group;
	struct err		*err;
};

/*
 * Every problem folder of dir, in name order: fn(path, arg, err) for each
 * entry is_problem(path) accepts, until one fails; any other folder is
 * named in rep's warnings as "PATH: WHY" (a plain file is passed over).
 * 0, or -1 with err (fn's, or "dir: reason" when dir cannot be listed).
 */
int	import_each_problem(const char *dir, int (*is_problem)(const char *),
	    int (*fn)(const char *path, void *arg, struct err *err),
	    void *arg, const char *why, struct import_report *rep,
	    struct err *err);

/*
 * A benchmark laid out as ROOT/GROUP/PROBLEM/ folders (ArchXBench's
 * levels, VeriScope's tiers): group_name() says whether a folder's name
 * is a group's, is_problem() whether a folder is a problem, problem()
 * imports one (arg is the struct import_walk, its group set), and
 * not_problem is the warning for another folder in a group.  A path
 * given as one group must have a group's name when group_named is set.
 * import_layout_holds(): does dir hold a problem folder (depth 1) or a
 * group folder with one (depth 2)?  1 or 0.
 * import_layout_run(): import path (its trailing slashes dropped) as
 * the root, one group, or one problem folder (its parent's name the
 * group): 0, or -1 with err ("PATH: not_data" when it is none of them).
 */
struct import_layout {
	int		(*group_name)(const char *name);
	int		(*is_problem)(const char *dir);
	int		(*problem)(const char *dir, void *arg, struct err *err);
	const char	 *not_problem;
	int		  group_named;
	const char	 *not_data;
};
int	import_layout_holds(const struct import_layout *l, const char *dir,
	    int depth);
int	import_layout_run(const struct import_layout *l, struct store *st,
	    const char *path, struct import_report *rep, struct err *err);

/*
 * A problem folder dir with a self-checking testbench (ArchXBench,
 * VeriScope) into task t (zeroed; the caller releases it) of id, and
 * stored: the requirement is file brief ended by tail, the interface
 * file iface (optional; a warning in w->rep when it is missing and
 * warn_iface), the task as import_tb_task() makes it, extra
 * {group_key: w->group}.  0, or -1 with err.
 */
struct import_tb_files {
	const char	*benchmark;
	const char	*brief;
	const char	*tb;
	const char	*iface;
	int		 warn_iface;
	const char	*tail;
	const char	*group_key;
};
int	import_tb_problem(const struct import_walk *w, const char *dir,
	    const struct import_tb_files *f, const char *id, struct task *t,
	    struct err *err);

/* Is there a regular file name in dir?  1 or 0. */
int	import_has_file(const char *dir, const char *name);

/*
 * The file name in dir read whole as import_read() does: new string in
 * *out, *len bytes.  When optional and the file is not there, *out is
 * NULL, *len 0 and it is no error.  0, or -1 with err ("dir/name: why").
 */
int	import_read_in(const char *dir, const char *name, int optional,
	    char **out, size_t *len, struct err *err);

/*
 * A task's requirement: the len bytes of text, ended by a newline when
 * it has none (an empty text stays empty), then tail.  New string.
 */
char	*import_spec(const char *text, size_t len, const char *tail);

/*
 * import_direct_code(): c's kind "direct", language lang, source and
 * code: the len bytes at code (NUL-terminated), hashed.  source and code
 * are taken: the new strings become c's.
 * import_reference(): c (zeroed, or released) filled as the reference
 * solution of task_id: origin "reference", and as import_direct_code().
 * import_put_reference() does that with code copied (a C string), stores
 * it, counts it in rep and releases it: 0, or -1 with err.
 */
void	import_direct_code(struct candidate *c, const char *lang,
	    char *source, char *code, size_t len);
void	import_reference(struct candidate *c, const char *task_id,
	    const char *lang, char *source, char *code, size_t len);
int	import_put_reference(struct store *st, const char *task_id,
	    const char *lang, char *source, const char *code,
	    struct import_report *rep, struct err *err);

/* The language of an env's candidates ("verilog" for iverilog; a
 * pipeline's first env's), "text" for an unknown env.  Static. */
const char *import_lang_of_env(const char *env);

#endif
