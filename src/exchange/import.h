/*
 * import.h - readers for the assay JSONL format and the public benchmark
 * layouts (VerilogEval v1 and v2, RTLFixer); see docs/formats.md.
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

#include <stddef.h>

#include "base/buf.h"
#include "base/err.h"
#include "store/store.h"

enum import_format {
	IMPORT_AUTO,
	IMPORT_ASSAY,
	IMPORT_VEV2,		/* verilog-eval-v2 problem directory */
	IMPORT_VEV1,		/* verilog-eval-v1: four JSONL files */
	IMPORT_RTLFIXER,
	IMPORT_REALBENCH,	/* RealBench folders and samples JSONL */
	IMPORT_KERNELBENCH,	/* KernelBench problems, kernel dumps, results */
	IMPORT_DATASET,		/* a checkout of the dataset assay commit writes */
	IMPORT_RTLLM		/* RTLLM design folders and _MODEL/tK samples */
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

struct import_report {
	size_t		 tasks_added, tasks_existing;
	size_t		 cands_added, cands_existing;
	size_t		 skipped;	/* bad lines skipped (keep_going) */
	struct buf	 warnings;	/* "path[:line]: message\n" lines */
};

void	import_report_init(struct import_report *r);
void	import_report_release(struct import_report *r);

/* Parse a --format name ("auto", "assay", ...).  0, or -1 with err. */
int	import_format_parse(const char *name, enum import_format *out,
	    struct err *err);
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
 * Helpers the importers share (import.c).  import_list_dir(): the
 * sorted names of dir's entries, dot files left out, into *out (a new
 * array of new strings, freed with import_free_names()); 0, or -1 with
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
 * The text of a JSONL file, however large, without reading it into
 * memory: the file at path mapped read-only (t->data, t->len bytes, not
 * NUL-terminated; "" and 0 when empty), under the same guard and
 * refusals as import_read(); the input given as a pipe is its buffer.
 * Give it back with import_unmap().  0, or -1 with err ("path: why").
 */
struct import_text {
	const char	*data;
	size_t		 len;
	int		 mapped;	/* data is an mmap of the file */
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
 * root when it is a directory.  0, or -1 with err ("path: why");
 * import_guard_end() forgets it.
 */
int	import_guard_begin(const char *path, struct err *err);
void	import_guard_end(void);

int	import_list_dir(const char *dir, char ***out, size_t *n,
	    struct err *err);
void	import_free_names(char **names, size_t n);
int	import_has_suffix(const char *s, const char *suffix);

/*
 * The whole file at path into *out (new, NUL-terminated, "" when empty)
 * and *len (may be NULL).  0, or -1 with err ("path: reason").
 */
int	import_read_file(const char *path, char **out, size_t *len,
	    struct err *err);

/*
 * A dataset checkout (import_dataset.c, docs/formats.md "The dataset in
 * git"): every <domain>/<task-id>/task.json under path becomes a task
 * with its verification files from files/ (roles and sha256 as
 * task.json records them; a file whose hash differs is an error), every
 * <id>.json beside it a candidate with the id, parent, origin and kind
 * it records and the code its "code" names (hash checked), parents
 * first.  The run a sample records becomes a recorded result (verdict,
 * stage; never trusted, as always), its label and review decisions of
 * their "by" (else opts->by).  Called by import_path() inside its
 * transaction.  0, or -1 with err ("path: ...").
 */
int	import_dataset(struct store *st, const char *path,
	    const struct import_opts *opts, struct import_report *rep,
	    struct err *err);
/* Does directory path look like a dataset checkout?  1 or 0. */
int	import_dataset_detect(const char *path);

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

/*
 * RTLLM v2.0 in its own layout (import_rtllm.c, docs/formats.md): every
 * folder under path holding design_description.txt and testbench.v is
 * the task rtllm/DESIGN (env iverilog, top the testbench's own module,
 * the testbench and the data files as task files, the description as
 * spec) with its verified_*.v, renamed to the module the testbench
 * instantiates, as the candidate of origin reference; every
 * _MODEL/tK/DESIGN.v under path (or beside it) a candidate of origin
 * gpt-3.5 (_chatgpt35), gpt-4 (_chatgpt4) or MODEL.  Called by
 * import_path() inside its transaction.  0, or -1 with err.
 */
int	import_rtllm(struct store *st, const char *path,
	    const struct import_opts *opts, struct import_report *rep,
	    struct err *err);
/* Is path an RTLLM root or design folder?  1 or 0. */
int	import_rtllm_detect(const char *path);

/*
 * RealBench (import_realbench.c, docs/formats.md): path is the RealBench
 * root, a module folder (one holding verification/) or a samples JSONL
 * file.  Called by import_path() inside its transaction.  0, or -1 with
 * err ("path:line: ...").
 */
int	import_realbench(struct store *st, const char *path,
	    const struct import_opts *opts, struct import_report *rep,
	    struct err *err);
/* Does path look like RealBench (for --format auto)?  1 or 0. */
int	import_realbench_detect(const char *path);

/*
 * KernelBench (import_kernelbench.c, docs/formats.md).  path
 * is the data directory (levelN/ problem directories and kernel dumps:
 * DUMP/kernels/levelL_problemP_*.py with DUMP/results*.jsonl), one
 * levelN/ directory, one dump, or one results file of a dump (a dump
 * brings the problems of the levelN/ directories beside it).  Problems
 * become tasks "kernelbench/levelN/<file name without .py>" (benchmark
 * kernelbench, domain gpu, env triton, the problem as the task file of
 * role reference), kernels candidates (lang python), rows recorded
 * results of the kernel they name, an equal one never twice.  The rows'
 * "*_us" fields hold milliseconds: they are kept and repeated as
 * runtime_ms and ref_runtime_ms; a speedup over 10x gets the flag
 * "suspicious-speedup" in the recorded extra and log.  Called by
 * import_path() inside its transaction.  0, or -1 with err
 * ("path[:line]: ...").
 */
int	import_kernelbench(struct store *st, const char *path,
	    const struct import_opts *opts, struct import_report *rep,
	    struct err *err);
/* Is path a directory import_kernelbench() reads?  1 or 0. */
int	import_kernelbench_detect(const char *path);

/*
 * The importers of a file of their own (importers.c): the format they
 * read, whether a path is theirs (for --format auto) and the reader,
 * called by import_path() inside its transaction (0, or -1 with err).
 * late: asked only for a directory that is no VerilogEval layout.
 * Adding an importer is its file, an enum import_format value with its
 * name, and one line of the table.
 */
struct importer {
	const char		*name;
	enum import_format	 format;
	int			 late;
	int			(*detect)(const char *path);
	int			(*run)(struct store *st, const char *path,
				    const struct import_opts *opts,
				    struct import_report *rep,
				    struct err *err);
};
extern const struct importer importers[];
extern const size_t nimporters;

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
/* Is role one a task file may have (testbench, reference, source,
 * data)?  1 or 0. */
int	import_role_valid(const char *role);

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

/* The language of an env's candidates ("verilog" for iverilog; a
 * pipeline's first env's), "text" for an unknown env.  Static. */
const char *import_lang_of_env(const char *env);

#endif
