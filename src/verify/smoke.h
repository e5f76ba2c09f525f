/*
 * smoke.h - a toolchain is proven, not assumed (issue 21, ADR 0032).
 *
 * Each env has a smoke test, share/envs/smoke/ENV.json: a tiny task, a
 * known-good sample that must pass (or be skipped for what the machine
 * lacks, such as a GPU, after the stages that can run here have passed)
 * and a known-bad sample that must fail in a named stage.  Both run as
 * any candidate does, through verify jobs in the sandbox, with the
 * task's own limits.  A toolchain whose good sample does not pass, or
 * whose bad sample does not fail there, is broken: `assay envs` says so
 * with the tool's first error line and what to do, and verify stores
 * env-error/toolchain-broken for every candidate of that env instead of
 * blaming the candidates or their tasks.
 *
 * A pass is cached twice: for the life of the process, and on disk
 * under the toolchain's fingerprint (the env, its identity, the smoke
 * sample, the sandbox mode, PATH, and the installed packages and the
 * project venv as their files' times and sizes), in
 * $ASSAY_SMOKE_DIR, else $XDG_CACHE_HOME/assay/smoke, else
 * $HOME/.cache/assay/smoke: a second call costs a stat() or two.  A
 * broken result is cached for the process only, so that a repair is
 * seen by the next command.
 */
#ifndef ASSAY_VERIFY_SMOKE_H
#define ASSAY_VERIFY_SMOKE_H

#include "base/err.h"
#include "verify/verify.h"

/*
 * The smoke test of env (one env, not a pipeline), run now or taken from
 * a cache, with the sandbox and work root of o (its limits are not
 * used: the smoke task's own hold).  The result is owned by the
 * process-wide cache and lives until the process ends: do not free it.
 * Returns it; never NULL.  A toolchain that is missing altogether is
 * SMOKE_NONE here: verify_toolchain() says so first.  Not thread-safe:
 * call from the thread that runs verify jobs.
 */
const struct smoke_result *verify_smoke(const char *env,
	    const struct verify_opts *o);

/*
 * verify_smoke(), proven anew when its pass came from the disk cache:
 * the verify service asks it when a reference fails, since a toolchain
 * can break in a way its fingerprint does not see (a helper program or
 * a library of its own replaced or lost), and then every reference
 * would become task-defect and every candidate fail (issue 21).  At
 * most once per env and process; a pass proven in this process is
 * believed.  The result is the process's from then on.
 */
const struct smoke_result *verify_smoke_again(const char *env,
	    const struct verify_opts *o);

/*
 * Forget this process's results that are not a pass, so that the next
 * verify_smoke() proves those envs again: a long-running workbench whose
 * toolchain was repaired sees it at C-l (redraw and re-read) without a
 * restart.  Results already handed out stay valid.  At most 16 results
 * are kept per process; past that, an env is assumed to work.
 */
void	verify_smoke_forget(void);


#endif
