/*
 * dataset.h - the curated dataset in git (design.md section 8,
 * docs/formats.md "The dataset in git"): build the files of every
 * accepted candidate (the code, <id>.json) and of its task, once
 * (task.json and every verification file under files/), plus the
 * ancestors of a repair or optimization that are not accepted, marked
 * as context, and hand them to vcs.c with a commit message that names
 * each changed sample in its own trailer block.  Paths are relative;
 * an absolute source is cut to its benchmark's folder.  The dataset
 * mirrors the accepted set: a candidate rejected after it was committed
 * is removed by the next commit.
 *
 * Called by the commit command and the workbench's `c`.
 */
#ifndef ASSAY_DATASET_H
#define ASSAY_DATASET_H

#include <stdatomic.h>
#include <stddef.h>

#include "base/err.h"
#include "store/store.h"

struct dataset_result {
	int	 committed;	/* 0: nothing new, no commit made */
	char	 oid[41];
	size_t	 samples;	/* accepted candidates in the dataset */
	size_t	 context;	/* ancestors written as context */
	size_t	 added, modified, removed;	/* samples, not files */
};

/*
 * Mirror the accepted candidates of st into the repository repo_dir
 * (created when missing) and commit when anything changed.  message is
 * the subject line (NULL: a summary such as "assay: add 3, remove 1
 * samples"); reviewer signs the commit.  Returns 0 (res filled) or -1
 * with err.
 */
int	dataset_commit(struct store *st, const char *repo_dir,
	    const char *message, const char *reviewer,
	    struct dataset_result *res, struct err *err);

/*
 * dataset_commit() in its three steps, for the commit service
 * (dataset_svc.h), which runs the middle one on a thread of its own:
 *   - build: read the accepted candidates, their ancestors and tasks
 *     from st and make every file and the card (the caller's thread, the
 *     only step that reads the store); *out is new (dataset_job_free);
 *   - write: mirror the files into the repository and commit when
 *     anything changed; touches no store, so any one thread may run it;
 *     *cancel (NULL: none) set before the commit is written stops it
 *     with "cancelled: nothing committed";
 *   - finish: journal the commit ("commit" event) on st and fill *res.
 * Each returns 0 or -1 with err.
 */
struct dataset_job;
int	dataset_job_build(struct store *st, const char *repo_dir,
	    const char *message, const char *reviewer,
	    struct dataset_job **out, struct err *err);
int	dataset_job_write(struct dataset_job *j, const atomic_int *cancel,
	    struct err *err);
int	dataset_job_finish(struct store *st, struct dataset_job *j,
	    struct dataset_result *res, struct err *err);
/* The files the job writes (samples, task files, the card). */
size_t	dataset_job_files(const struct dataset_job *j);
/* Free j and all it holds; NULL-safe. */
void	dataset_job_free(struct dataset_job *j);

/* File extension for a candidate's language: "sv", "cu", "c", "s", "py". */
const char *dataset_ext(const char *lang);

/*
 * A source (a path, "path:line") as the dataset records it: relative
 * ones as they are; an absolute one from the benchmark's folder on when
 * the path names it ("/data/rtlfixer/x.jsonl:3" -> "rtlfixer/x.jsonl:3"
 * for benchmark "rtlfixer"), else its last component, so that no
 * machine's absolute path lands in the dataset.  New string; NULL for
 * NULL.
 */
char	*dataset_rel_source(const char *source, const char *benchmark);

#endif
