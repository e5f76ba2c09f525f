/*
 * test_dataset_svc.c - unit tests for the commit as a service
 * (exchange/dataset_svc.c, issue 24 item 1, ADR 0047), cmocka, on a real
 * SQLite store and a real git repository (libgit2): driven by a plain
 * poll loop, as `assay commit` drives it, it commits the accepted
 * candidate and journals the commit; a second run has nothing new; a
 * commit cancelled before git writes leaves no repository.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <limits.h>
#include <poll.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "decide/decide.h"
#include "base/err.h"
#include "exchange/dataset_svc.h"
#include "store/store.h"
#include "storefx.h"

struct fx {
	struct storefx	 sf;
	struct store	*st;
	char		 repo[PATH_MAX];
};

static int
fx_setup(void **state)
{
	struct fx *f = xcalloc(1, sizeof *f);
	struct err err;
	char *id;

	if (storefx_init(&f->sf, "dsvc") < 0) {
		free(f);
		return -1;
	}
	f->st = f->sf.st;
	snprintf(f->repo, sizeof f->repo, "%.*s/dataset", PATH_MAX - 16,
	    f->sf.dir);
	id = storefx_cand(&f->sf, "module a; endmodule\n");
	if (decide_review(f->st, id, "accepted", NULL, "tester", &err) < 0)
		fail_msg("decide_review: %s", err.msg);
	free(id);
	*state = f;
	return 0;
}

static int
fx_teardown(void **state)
{
	struct fx *f = *state;

	storefx_release(&f->sf);
	free(f);
	return 0;
}

/* Drive a commit service to its end with a plain poll loop. */
static int
drive(struct fx *f, struct dataset_result *res, struct err *err)
{
	struct dsvc *s;
	int rc, turns = 0;

	if (dsvc_new(&s, f->st, f->repo, NULL, "tester", err) < 0)
		return -1;
	assert_true(dsvc_files(s) >= 3);	/* code, json, task, card */
	while (!dsvc_step(s)) {
		struct pollfd p = { .fd = dsvc_fd(s), .events = POLLIN };

		assert_true(p.fd >= 0);
		assert_true(poll(&p, 1, 10000) >= 0);
		assert_true(++turns < 100);
	}
	assert_int_equal(dsvc_fd(s), -1);	/* done: nothing to poll */
	rc = dsvc_result(s, res, err);
	dsvc_free(s);
	return rc;
}

static void
test_dsvc_commits_and_journals(void **state)
{
	struct fx *f = *state;
	struct dataset_result res;
	struct store_event *ev = NULL;
	struct err err;
	size_t n = 0, commits = 0;
	char head[PATH_MAX + 16];

	assert_int_equal(drive(f, &res, &err), 0);
	assert_int_equal(res.committed, 1);
	assert_int_equal(res.samples, 1);
	assert_int_equal(res.added, 1);
	assert_int_equal(strlen(res.oid), 40);
	snprintf(head, sizeof head, "%s/.git/HEAD", f->repo);
	assert_int_equal(access(head, F_OK), 0);
	/* journalled on the caller's thread, once */
	assert_int_equal(store_event_list(f->st, NULL, &ev, &n, &err), 0);
	for (size_t i = 0; i < n; i++)
		if (strcmp(ev[i].action, "commit") == 0) {
			commits++;
			assert_string_equal(ev[i].detail, res.oid);
		}
	for (size_t i = 0; i < n; i++)
		store_event_release(&ev[i]);
	free(ev);
	assert_int_equal(commits, 1);
	/* the same accepted set again: nothing new, no commit */
	assert_int_equal(drive(f, &res, &err), 0);
	assert_int_equal(res.committed, 0);
	assert_int_equal(res.samples, 1);
}

static void
test_dataset_job_cancelled_writes_nothing(void **state)
{
	struct fx *f = *state;
	struct dataset_job *j;
	struct err err;
	atomic_int cancel;
	char git[PATH_MAX + 16];

	atomic_init(&cancel, 1);
	assert_int_equal(dataset_job_build(f->st, f->repo, NULL, "tester", &j,
	    &err), 0);
	assert_int_equal(dataset_job_write(j, &cancel, &err), -1);
	assert_string_equal(err.msg, "cancelled: nothing committed");
	dataset_job_free(j);
	snprintf(git, sizeof git, "%s/.git", f->repo);
	assert_int_not_equal(access(git, F_OK), 0);
	/* a bad reviewer name is refused before anything is read */
	assert_int_equal(dataset_job_build(f->st, f->repo, NULL, "a\nb", &j,
	    &err), -1);
	assert_null(j);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_dsvc_commits_and_journals,
		    fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(
		    test_dataset_job_cancelled_writes_nothing, fx_setup,
		    fx_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
