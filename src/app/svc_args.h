/*
 * svc_args.h - the options of `import` and `merge`, for both front ends:
 * `assay import`/`merge` (src/cli) and the workbench's `:import`/`:merge`
 * (src/ui) read the same options into the same service's start
 * arguments (exchange/import_svc.h, app/merge_svc.h; ADR 0055).
 */
#ifndef ASSAY_SVC_ARGS_H
#define ASSAY_SVC_ARGS_H

#include "app/command.h"
#include "base/err.h"
#include "exchange/import.h"

/*
 * import: --format F (-f), --keep-going (-k), --json, --license SPDX,
 * --repository URL@COMMIT, --id-prefix P, --progress.
 */
extern const struct cmd_opt svc_import_opts[];

/*
 * Read a's options (svc_import_opts) into *o (zeroed here: format auto),
 * *json and *progress (1 when given, else left as they are; either may
 * be NULL where the front end has no use for it).  The strings of *o
 * point into a.  0, or -1 with err saying what is wrong, as the usage
 * error names it ("bad licence 'x y': want an SPDX id such as MIT").
 */
int	svc_import_args(struct cmd_args *a, struct import_opts *o, int *json,
	    int *progress, struct err *err);

/* merge: --json, --lock-timeout S, --shards DIR, --progress. */
extern const struct cmd_opt svc_merge_opts[];

/*
 * Read a's options (svc_merge_opts): *dir the --shards DIR (a's, or
 * NULL), *lock_s the --lock-timeout in whole seconds 0..86400 (left as
 * it is when not given), *json and *progress as for svc_import_args().
 * Checks that RESULTS files or --shards are given, not both.  0, or -1
 * with err ("--lock-timeout wants whole seconds, 0..86400").
 */
int	svc_merge_args(struct cmd_args *a, const char **dir, long *lock_s,
	    int *json, int *progress, struct err *err);

#endif
