/*
 * test_vcs.c - unit tests for vcs.c (cmocka): init, mirror, commit, no-op
 * commits, removals, previews, identity and refusals.  Each test works in
 * its own mkdtemp directory, which is also $HOME (so no global git config
 * leaks in), and removes it at the end.  Results are checked with the git
 * command line, independently of libgit2.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "base/buf.h"
#include "base/err.h"
#include "exchange/vcs.h"
#include "testlib.h"

/* The per-test fixture: a temporary directory that is also $HOME. */
struct fx {
	char	dir[64];
	char	repo[PATH_MAX];		/* dir/data/set, not created */
	char	*old_home;
};

static const char *const managed[] = { "chip", "gpu" };


static int
fx_setup(void **state)
{
	struct fx *f = xcalloc(1, sizeof *f);
	const char *home = getenv("HOME");

	snprintf(f->dir, sizeof f->dir, "/tmp/assay-test-vcs-XXXXXX");
	if (mkdtemp(f->dir) == NULL) {
		free(f);
		return -1;
	}
	snprintf(f->repo, sizeof f->repo, "%s/data/set", f->dir);
	f->old_home = xstrdup(home);
	setenv("HOME", f->dir, 1);
	unsetenv("XDG_CONFIG_HOME");
	setenv("GIT_CONFIG_NOSYSTEM", "1", 1);	/* for the git CLI */
	*state = f;
	return 0;
}

static int
fx_teardown(void **state)
{
	struct fx *f = *state;

	rm_rf(f->dir);
	if (f->old_home != NULL)
		setenv("HOME", f->old_home, 1);
	else
		unsetenv("HOME");
	free(f->old_home);
	free(f);
	return 0;
}

/* Run a shell command; its stdout as a new string.  Fails the test on
 * a non-zero exit status. */
static char *
sh(const char *fmt, ...)
{
	struct buf b = BUF_INIT;
	char cmd[4096], chunk[512];
	va_list ap;
	size_t n;
	FILE *p;
	int status;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof cmd, fmt, ap);
	va_end(ap);
	p = popen(cmd, "r");
	assert_non_null(p);
	while ((n = fread(chunk, 1, sizeof chunk, p)) > 0)
		buf_add(&b, chunk, n);
	status = pclose(p);
	if (status != 0) {
		buf_release(&b);
		fail_msg("command failed (%d): %s", status, cmd);
	}
	buf_adds(&b, "");		/* never NULL */
	return buf_detach(&b, NULL);
}

/* Assert that the command's stdout is exactly want. */
static void
sh_expect(const char *want, const char *fmt, ...)
{
	char cmd[4096], *got;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof cmd, fmt, ap);
	va_end(ap);
	got = sh("%s", cmd);
	if (strcmp(got, want) != 0) {
		print_error("command: %s\n", cmd);
		free(got);
		fail_msg("unexpected output, wanted \"%s\"", want);
	}
	free(got);
}

static void
write_text(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");

	assert_non_null(fp);
	fputs(text, fp);
	assert_int_equal(fclose(fp), 0);
}


static int
path_exists(const char *dir, const char *rel)
{
	struct stat st;
	char *p = xasprintf("%s/%s", dir, rel);
	int r = lstat(p, &st) == 0;

	free(p);
	return r;
}

static struct vcs_file
file(const char *path, const char *data)
{
	struct vcs_file v = { path, data, strlen(data) };

	return v;
}

static struct vcs_commit_opts
opts_for(const char *repo, const char *message)
{
	struct vcs_commit_opts o;

	memset(&o, 0, sizeof o);
	o.repo_dir = repo;
	o.message = message;
	o.managed_dirs = managed;
	o.nmanaged = sizeof managed / sizeof managed[0];
	return o;
}

/* A repository made by plain git: README.md and one commit. */
static void
git_repo_with_readme(const char *repo)
{
	char *p;

	free(sh("git init -q -b main %s", repo));
	p = xasprintf("%s/README.md", repo);
	write_text(p, "# dataset\n");
	free(p);
	free(sh("cd %s && git add README.md && git -c user.name=T "
	    "-c user.email=t@example.org commit -q -m 'Add README'", repo));
}

static void
test_vcs_commit_creates_repository(void **state)
{
	struct fx *f = *state;
	struct vcs_file files[] = {
		file("chip/t1/task.json", "{\"id\": \"t1\"}\n"),
		file("chip/t1/c1a2b3c.sv", "module m; endmodule\n"),
	};
	struct vcs_commit_opts o = opts_for(f->repo, "Accept c1a2b3c\n");
	struct vcs_result res;
	struct err err = { "" };
	char *got, *path;

	assert_int_equal(vcs_commit(&o, files, 2, &res, &err), 0);
	assert_string_equal(err.msg, "");
	assert_int_equal(res.committed, 1);
	assert_int_equal(strlen(res.oid), 40);
	assert_int_equal(res.added, 2);
	assert_int_equal(res.modified, 0);
	assert_int_equal(res.removed, 0);

	sh_expect("main\n", "git -C %s symbolic-ref --short HEAD", f->repo);
	sh_expect("chip/t1/c1a2b3c.sv\nchip/t1/task.json\n",
	    "git -C %s ls-files", f->repo);
	sh_expect("Accept c1a2b3c\n", "git -C %s log --format=%%s", f->repo);
	got = xasprintf("%s\n", res.oid);
	sh_expect(got, "git -C %s rev-parse HEAD", f->repo);
	free(got);
	/* $HOME has no config: the fallback identity. */
	sh_expect("assay <assay@localhost>\n",
	    "git -C %s log -1 --format='%%an <%%ae>'", f->repo);
	sh_expect("", "git -C %s status --porcelain", f->repo);
	free(sh("git -C %s fsck --no-progress 2>&1", f->repo));

	path = xasprintf("%s/chip/t1/c1a2b3c.sv", f->repo);
	got = read_text(path);
	assert_string_equal(got, "module m; endmodule\n");
	free(got);
	free(path);
}

static void
test_vcs_commit_same_set_is_noop(void **state)
{
	struct fx *f = *state;
	struct vcs_file files[] = {
		file("gpu/k1/task.json", "{}\n"),
		file("gpu/k1/aa11.cu", "__global__ void k(void) {}\n"),
	};
	struct vcs_commit_opts o = opts_for(f->repo, "Accept aa11\n");
	struct vcs_result res;
	struct err err = { "" };

	assert_int_equal(vcs_commit(&o, files, 2, &res, &err), 0);
	assert_int_equal(res.committed, 1);
	o.message = "Nothing new\n";
	assert_int_equal(vcs_commit(&o, files, 2, &res, &err), 0);
	assert_int_equal(res.committed, 0);
	assert_string_equal(res.oid, "");
	assert_int_equal(res.added + res.modified + res.removed, 0);
	sh_expect("1\n", "git -C %s rev-list --count HEAD", f->repo);

	/* An empty set into a new repository makes no commit either. */
	snprintf(f->repo, sizeof f->repo, "%s/empty", f->dir);
	o.repo_dir = f->repo;
	assert_int_equal(vcs_commit(&o, NULL, 0, &res, &err), 0);
	assert_int_equal(res.committed, 0);
}

static void
test_vcs_commit_removes_unlisted_keeps_others(void **state)
{
	struct fx *f = *state;
	struct vcs_file files[] = {
		file("chip/t1/a1.sv", "module a; endmodule\n"),
		file("chip/t2/b2.sv", "module b; endmodule\n"),
		file("chip/t2/task.json", "{}\n"),
	};
	struct vcs_commit_opts o = opts_for(f->repo, "Accept a1, b2\n");
	struct vcs_result res;
	struct err err = { "" };
	char *first, *want, *p;

	git_repo_with_readme(f->repo);
	first = sh("git -C %s rev-parse HEAD", f->repo);
	p = xasprintf("%s/notes.txt", f->repo);	/* untracked, unmanaged */
	write_text(p, "mine\n");
	free(p);

	assert_int_equal(vcs_commit(&o, files, 3, &res, &err), 0);
	assert_int_equal(res.committed, 1);
	assert_int_equal(res.added, 3);
	sh_expect(first, "git -C %s log -1 --format=%%P", f->repo);
	sh_expect("2\n", "git -C %s rev-list --count HEAD", f->repo);

	/* b2 was rejected: the next commit drops it and its task. */
	o.message = "Reject b2\n";
	assert_int_equal(vcs_commit(&o, files, 1, &res, &err), 0);
	assert_int_equal(res.committed, 1);
	assert_int_equal(res.added, 0);
	assert_int_equal(res.modified, 0);
	assert_int_equal(res.removed, 2);
	sh_expect("D\tchip/t2/b2.sv\nD\tchip/t2/task.json\n",
	    "git -C %s show --name-status --format= HEAD", f->repo);
	sh_expect("README.md\nchip/t1/a1.sv\n", "git -C %s ls-files", f->repo);
	sh_expect("?? notes.txt\n", "git -C %s status --porcelain", f->repo);
	assert_true(path_exists(f->repo, "README.md"));
	assert_true(path_exists(f->repo, "notes.txt"));
	assert_true(path_exists(f->repo, "chip/t1/a1.sv"));
	assert_false(path_exists(f->repo, "chip/t2/b2.sv"));
	assert_false(path_exists(f->repo, "chip/t2"));	/* pruned */
	want = xasprintf("3\n");
	sh_expect(want, "git -C %s rev-list --count HEAD", f->repo);
	free(want);
	free(first);
}

static void
test_vcs_commit_replaces_symlink_not_target(void **state)
{
	struct fx *f = *state;
	struct vcs_file files[] = { file("chip/t1/a1.sv", "new\n") };
	struct vcs_commit_opts o = opts_for(f->repo, "Accept a1\n");
	struct vcs_result res;
	struct err err = { "" };
	char *outside, *link, *data;

	git_repo_with_readme(f->repo);
	outside = xasprintf("%s/outside.txt", f->dir);
	write_text(outside, "keep\n");
	free(sh("mkdir -p %s/chip/t1 && ln -s %s %s/chip/t1/a1.sv", f->repo,
	    outside, f->repo));

	assert_int_equal(vcs_commit(&o, files, 1, &res, &err), 0);
	assert_int_equal(res.committed, 1);
	data = read_text(outside);
	assert_string_equal(data, "keep\n");
	free(data);
	link = xasprintf("%s/chip/t1/a1.sv", f->repo);
	data = read_text(link);
	assert_string_equal(data, "new\n");
	free(data);
	sh_expect("100644 blob\n", "git -C %s ls-tree HEAD chip/t1/a1.sv "
	    "| cut -d' ' -f1-2", f->repo);
	free(link);
	free(outside);
}

static void
test_vcs_changes_lists_added_modified_deleted(void **state)
{
	struct fx *f = *state;
	struct vcs_file before[] = {
		file("chip/t1/b.sv", "b\n"),
		file("chip/t1/a.sv", "a\n"),
	};
	struct vcs_file after[] = {
		file("chip/t1/c.sv", "c\n"),
		file("chip/t1/a.sv", "a changed\n"),
		file("README.md", "# dataset\n"),	/* unmanaged, same */
	};
	struct vcs_commit_opts o = opts_for(f->repo, "Accept a, b\n");
	struct vcs_change *c = NULL;
	struct vcs_result res;
	struct err err = { "" };
	size_t n = 99;

	/* No repository yet: everything is added, and nothing is created. */
	assert_int_equal(vcs_changes(&o, before, 2, &c, &n, &err), 0);
	assert_int_equal(n, 2);
	assert_string_equal(c[0].path, "chip/t1/a.sv");
	assert_int_equal(c[0].status, 'A');
	assert_string_equal(c[1].path, "chip/t1/b.sv");
	assert_int_equal(c[1].status, 'A');
	vcs_changes_free(c, n);
	assert_false(path_exists(f->dir, "data"));

	git_repo_with_readme(f->repo);
	assert_int_equal(vcs_commit(&o, before, 2, &res, &err), 0);
	assert_int_equal(res.committed, 1);

	assert_int_equal(vcs_changes(&o, before, 2, &c, &n, &err), 0);
	assert_int_equal(n, 0);
	vcs_changes_free(c, n);

	assert_int_equal(vcs_changes(&o, after, 3, &c, &n, &err), 0);
	assert_int_equal(n, 3);
	assert_string_equal(c[0].path, "chip/t1/a.sv");
	assert_int_equal(c[0].status, 'M');
	assert_string_equal(c[1].path, "chip/t1/b.sv");
	assert_int_equal(c[1].status, 'D');
	assert_string_equal(c[2].path, "chip/t1/c.sv");
	assert_int_equal(c[2].status, 'A');
	vcs_changes_free(c, n);

	/* A preview writes nothing. */
	assert_false(path_exists(f->repo, "chip/t1/c.sv"));
	assert_true(path_exists(f->repo, "chip/t1/b.sv"));
	sh_expect("", "git -C %s status --porcelain", f->repo);

	/* And the commit agrees with the preview. */
	o.message = "Update a, reject b, accept c\n";
	assert_int_equal(vcs_commit(&o, after, 3, &res, &err), 0);
	assert_int_equal(res.committed, 1);
	assert_int_equal(res.added, 1);
	assert_int_equal(res.modified, 1);
	assert_int_equal(res.removed, 1);
	sh_expect("M\tchip/t1/a.sv\nD\tchip/t1/b.sv\nA\tchip/t1/c.sv\n",
	    "git -C %s show --name-status --format= HEAD", f->repo);
}

static void
test_vcs_commit_message_stored_verbatim(void **state)
{
	struct fx *f = *state;
	static const char msg[] =
	    "Accept 1 sample: chip/rtlfixer/2012_q2b\n"
	    "\n"
	    "  indented line kept\n"
	    "\n"
	    "Assay-Sample: c1a2b3c\n"
	    "Assay-Verdict: pass\n"
	    "Assay-Category: logic\n"
	    "Reviewed-by: Ada Lovelace <ada@example.org>\n"
	    "Toolchain: iverilog 11.0\n";
	struct vcs_file files[] = { file("chip/rtlfixer/2012_q2b/c1a2b3c.sv",
	    "module top_module; endmodule\n") };
	struct vcs_commit_opts o = opts_for(f->repo, msg);
	struct vcs_result res;
	struct err err = { "" };
	char *want;

	assert_int_equal(vcs_commit(&o, files, 1, &res, &err), 0);
	assert_int_equal(res.committed, 1);
	want = xasprintf("%s\n", msg);	/* git log ends each entry with \n */
	sh_expect(want, "git -C %s log -1 --format=%%B", f->repo);
	free(want);
	/* The raw object: the message after the header's blank line. */
	sh_expect(msg, "git -C %s cat-file commit HEAD | sed '1,/^$/d'",
	    f->repo);
	sh_expect("c1a2b3c\n", "git -C %s log -1 "
	    "--format='%%(trailers:key=Assay-Sample,valueonly)' | head -1",
	    f->repo);
}

static void
test_vcs_commit_identity_from_opts_then_config(void **state)
{
	struct fx *f = *state;
	struct vcs_file one[] = { file("chip/t/a.sv", "1\n") };
	struct vcs_file two[] = { file("chip/t/a.sv", "2\n") };
	struct vcs_commit_opts o = opts_for(f->repo, "one\n");
	struct vcs_result res;
	struct err err = { "" };
	char *cfg;

	cfg = xasprintf("%s/.gitconfig", f->dir);
	write_text(cfg, "[user]\n\tname = Config Name\n"
	    "\temail = config@example.org\n");
	free(cfg);

	o.author_name = "Ada Lovelace";
	o.author_email = "ada@example.org";
	assert_int_equal(vcs_commit(&o, one, 1, &res, &err), 0);
	assert_int_equal(res.committed, 1);
	sh_expect("Ada Lovelace <ada@example.org> Ada Lovelace\n",
	    "git -C %s log -1 --format='%%an <%%ae> %%cn'", f->repo);

	o.author_name = NULL;
	o.author_email = NULL;
	o.message = "two\n";
	assert_int_equal(vcs_commit(&o, two, 1, &res, &err), 0);
	assert_int_equal(res.committed, 1);
	sh_expect("Config Name <config@example.org>\n",
	    "git -C %s log -1 --format='%%an <%%ae>'", f->repo);
}

static void
test_vcs_config_user_name_from_home(void **state)
{
	struct fx *f = *state;
	char *cfg, *name;

	name = vcs_config_user_name();
	assert_null(name);

	cfg = xasprintf("%s/.gitconfig", f->dir);
	write_text(cfg, "[user]\n\tname = Grace Hopper\n");
	free(cfg);
	name = vcs_config_user_name();
	assert_non_null(name);
	assert_string_equal(name, "Grace Hopper");
	free(name);
}

static void
test_vcs_unopenable_git_dir_is_error(void **state)
{
	struct fx *f = *state;
	struct vcs_file files[] = { file("chip/t/a.sv", "1\n") };
	struct vcs_commit_opts o = opts_for(f->repo, "one\n");
	struct vcs_change *c = NULL;
	struct vcs_result res;
	struct err err = { "" };
	size_t n = 0;
	char *p;

	/* A .git that libgit2 cannot open must not be re-initialised. */
	p = xasprintf("%s/.git", f->repo);
	free(sh("mkdir -p %s", p));
	assert_int_equal(vcs_commit(&o, files, 1, &res, &err), -1);
	assert_non_null(strstr(err.msg, "safe.directory"));
	assert_non_null(strstr(err.msg, p));
	assert_int_equal(res.committed, 0);
	assert_false(path_exists(p, "HEAD"));
	assert_false(path_exists(f->repo, "chip"));

	err.msg[0] = '\0';
	assert_int_equal(vcs_changes(&o, files, 1, &c, &n, &err), -1);
	assert_non_null(strstr(err.msg, "safe.directory"));
	assert_null(c);
	free(p);
}

static void
test_vcs_bare_repository_is_error(void **state)
{
	struct fx *f = *state;
	struct vcs_file files[] = { file("chip/t/a.sv", "1\n") };
	struct vcs_commit_opts o = opts_for(f->repo, "one\n");
	struct vcs_result res;
	struct err err = { "" };

	free(sh("git init -q --bare %s", f->repo));
	assert_int_equal(vcs_commit(&o, files, 1, &res, &err), -1);
	assert_non_null(strstr(err.msg, "bare"));
	assert_false(path_exists(f->repo, ".git"));
	assert_false(path_exists(f->repo, "chip"));
}

static void
test_vcs_bad_paths_rejected(void **state)
{
	struct fx *f = *state;
	static const char *const bad[] = {
		"../escape.sv", "/etc/passwd", "chip/.git/config",
		"chip//a.sv", "chip/./a.sv", "chip/t/", "", ".GIT/HEAD",
	};
	struct vcs_file dup[] = {
		file("chip/t/a.sv", "1\n"), file("chip/t/a.sv", "2\n"),
	};
	struct vcs_commit_opts o = opts_for(f->repo, "bad\n");
	struct vcs_result res;
	struct err err;
	struct vcs_file one;
	size_t i;

	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		one = file(bad[i], "x\n");
		err.msg[0] = '\0';
		assert_int_equal(vcs_commit(&o, &one, 1, &res, &err), -1);
		assert_non_null(strstr(err.msg, "bad path"));
	}
	assert_int_equal(vcs_commit(&o, dup, 2, &res, &err), -1);
	assert_non_null(strstr(err.msg, "twice"));
	assert_false(path_exists(f->dir, "data"));
	assert_false(path_exists(f->dir, "escape.sv"));
}

static void
test_vcs_version_names_libgit2(void **state)
{
	char buf[64];
	int major = -1, minor = -1, rev = -1;

	(void)state;
	vcs_version(buf, sizeof buf);
	assert_int_equal(sscanf(buf, "libgit2 %d.%d.%d", &major, &minor,
	    &rev), 3);
	assert_int_equal(major, 1);
	assert_true(minor >= 5);
}

static void
test_vcs_diff_text_unified(void **state)
{
	const char *a = "one\ntwo\nthree\n";
	const char *b = "one\nTWO\nthree\nfour\n";
	struct err err = { "" };
	char *out = NULL;
	size_t len = 0;

	(void)state;
	assert_int_equal(vcs_diff_text(a, strlen(a), b, strlen(b), "ref.v",
	    "cand.v", &out, &len, &err), 0);
	assert_non_null(out);
	assert_int_equal(strlen(out), len);
	assert_non_null(strstr(out, "--- a/ref.v\n"));
	assert_non_null(strstr(out, "+++ b/cand.v\n"));
	assert_non_null(strstr(out, "\n@@ -1,3 +1,4 @@"));
	assert_non_null(strstr(out, "\n-two\n"));
	assert_non_null(strstr(out, "\n+TWO\n"));
	assert_non_null(strstr(out, "\n+four\n"));
	assert_non_null(strstr(out, "\n one\n"));
	free(out);

	/* equal texts: an empty diff */
	assert_int_equal(vcs_diff_text(a, strlen(a), a, strlen(a), NULL, NULL,
	    &out, &len, &err), 0);
	assert_string_equal(out, "");
	assert_int_equal(len, 0);
	free(out);
}

#define FX_TEST(t) cmocka_unit_test_setup_teardown(t, fx_setup, fx_teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		FX_TEST(test_vcs_commit_creates_repository),
		FX_TEST(test_vcs_commit_same_set_is_noop),
		FX_TEST(test_vcs_commit_removes_unlisted_keeps_others),
		FX_TEST(test_vcs_commit_replaces_symlink_not_target),
		FX_TEST(test_vcs_changes_lists_added_modified_deleted),
		FX_TEST(test_vcs_commit_message_stored_verbatim),
		FX_TEST(test_vcs_commit_identity_from_opts_then_config),
		FX_TEST(test_vcs_config_user_name_from_home),
		FX_TEST(test_vcs_unopenable_git_dir_is_error),
		FX_TEST(test_vcs_bare_repository_is_error),
		FX_TEST(test_vcs_bad_paths_rejected),
		cmocka_unit_test(test_vcs_version_names_libgit2),
		cmocka_unit_test(test_vcs_diff_text_unified),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
