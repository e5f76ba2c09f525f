/*
 * task_new.c - verify the reference of a task made from real code, store
 * it when it passes, edit it in $EDITOR (task_new.h).
 */
#include "app/task_new.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "base/buf.h"
#include "base/file.h"
#include "envs/env.h"
#include "store/store.h"
#include "verify/smoke.h"

int
task_new_verify(const struct task_new *tn, const struct verify_opts *vo,
    FILE *progress, struct run *r, struct err *err)
{
	struct verify_opts o = *vo;
	struct candidate c = tn->ref;
	struct verify_job *j;
	char *shown = NULL;
	struct timespec t0, now;

	o.smoke = verify_smoke;
	c.id = (char *)"reference";
	/* Stored only when it passes, when verify_apply_reference() would
	 * leave it as it is; a failure is told as the env judged it, not
	 * as the task-defect it would make of a stored reference. */
	memset(r, 0, sizeof *r);
	if (verify_job_start(&j, &o, &tn->task, &c, 0, 24, 80, err) < 0)
		return -1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (!verify_job_step(j, NULL, NULL)) {
		struct pollfd p = { .fd = verify_job_fd(j), .events = POLLIN };
		const char *st = verify_job_stage(j);
		int ms = verify_job_timeout_ms(j);

		if (progress != NULL && st != NULL && (shown == NULL ||
		    strcmp(st, shown) != 0)) {
			clock_gettime(CLOCK_MONOTONIC, &now);
			fprintf(progress, "  %s (at %ld s)\n", st,
			    (long)(now.tv_sec - t0.tv_sec));
			fflush(progress);
			free(shown);
			shown = xstrdup(st);
		}
		if (ms > 200)
			ms = 200;
		if (poll(&p, p.fd >= 0 ? 1 : 0, ms) < 0 && errno != EINTR)
			break;
	}
	free(shown);
	verify_job_result(j, r);
	verify_job_free(j);
	return 0;
}

int
task_new_vacuous(const struct task_new *tn, const struct verify_opts *vo,
    char **why, struct err *err)
{
	struct verify_opts o = *vo;

	o.smoke = verify_smoke;
	*why = NULL;
	for (int ones = 0; ones <= 1; ones++) {
		char *code = task_new_stub(tn, ones);
		struct candidate c = tn->ref;
		struct run r = { 0 };
		int pass;

		if (code == NULL)
			return 0;
		c.id = (char *)"stub";
		c.origin = (char *)"stub";
		c.code = code;
		c.code_len = strlen(code);
		if (verify_run(&o, &tn->task, &c, &r, err) < 0) {
			free(code);
			run_release(&r);
			return -1;
		}
		pass = r.verdict != NULL && strcmp(r.verdict, "pass") == 0;
		free(code);
		run_release(&r);
		if (pass) {
			*why = xasprintf("the verification accepts a %s whose"
			    " outputs are constant %s: the reference or the"
			    " testbench does not constrain the outputs",
			    strcmp(tn->what, "function") == 0 ? "function" :
			    "design", ones ? "1s" : "0");
			return 1;
		}
	}
	return 0;
}

/* e past a leading "candidate.EXT:LINE[:COL]: " or nvcc's
 * "candidate.EXT(LINE): " (the env's name for the
 * reference's file, whose place the user's file name already says), else
 * e. */
static const char *
past_cand_place(const char *e)
{
	const char *p = e;

	if (strncmp(p, "candidate.", 10) != 0)
		return e;
	p += 10 + strspn(p + 10, "abcdefghijklmnopqrstuvwxyz");
	if ((*p != ':' && *p != '(') || strspn(p + 1, "0123456789") == 0)
		return e;
	if (*p == '(') {	/* nvcc's "candidate.cu(5): " */
		p += 1 + strspn(p + 1, "0123456789");
		if (*p++ != ')')
			return e;
	} else {
		p += 1 + strspn(p + 1, "0123456789");
		if (*p == ':' && p[1] >= '0' && p[1] <= '9') /* a column */
			p += 1 + strspn(p + 1, "0123456789");
	}
	if (*p++ != ':')
		return e;
	return p + strspn(p, " ");
}

char *
task_new_why(const struct task_new *tn, const struct run *r)
{
	struct buf b = BUF_INIT;

	if (r->verdict != NULL && strcmp(r->verdict, "timeout") == 0) {
		long limit = env_param_int(&tn->task, "timeout_s", 0);

		buf_printf(&b, "the reference's own verification timed out%s%s"
		    " (the limit: %ld s): ", r->stage != NULL ? " at " : "",
		    r->stage != NULL ? r->stage : "", limit);
		buf_adds(&b, tn->task.env != NULL &&
		    strcmp(tn->task.env, "yosys") == 0 ? "proving the"
		    " reference equivalent to itself takes longer; give"
		    " --testbench TB, or a larger --timeout S" : "give a"
		    " larger --timeout S");
		return buf_detach(&b, NULL);
	}
	buf_printf(&b, "the reference does not pass its own verification: %s",
	    r->verdict != NULL ? r->verdict : "no verdict");
	if (r->stage != NULL)
		buf_printf(&b, " at %s", r->stage);
	if (r->category != NULL || r->subcategory != NULL)
		buf_printf(&b, " (%s%s%s)", r->category != NULL ?
		    r->category : "", r->category != NULL &&
		    r->subcategory != NULL ? "/" : "", r->subcategory != NULL ?
		    r->subcategory : "");
	if (r->evidence_line > 0 && tn->ref.source != NULL)
		buf_printf(&b, ": %s:%d", tn->ref.source, r->evidence_line);
	if (r->evidence != NULL && *r->evidence != '\0')
		buf_printf(&b, ": %s", r->evidence_line > 0 &&
		    tn->ref.source != NULL ? past_cand_place(r->evidence) :
		    r->evidence);
	return buf_detach(&b, NULL);
}

char *
task_new_bound_warning(const struct run *r)
{
	json_t *m = r->metrics != NULL ? json_loads(r->metrics, 0, NULL) :
	    NULL;
	const char *how = json_string_value(json_object_get(m, "equiv"));
	char *w = NULL;

	if (how != NULL && strcmp(how, "bounded") == 0)
		w = xasprintf("the reference's equivalence with itself is"
		    " proven for %lld steps only: a mutant that differs later"
		    " passes; raise --equiv-depth", (long long)
		    json_integer_value(json_object_get(m, "equiv_steps")));
	json_decref(m);
	return w;
}

int
task_new_store(struct store *st, struct task_new *tn, struct run *r,
    struct err *err)
{
	int inserted = 0;

	if (store_begin(st, err) < 0)
		return -1;
	if (store_task_put(st, &tn->task, &inserted, err) < 0)
		goto fail;
	if (!inserted) {
		err_set(err, "a task %s exists already (--id names another)",
		    tn->task.id);
		goto fail;
	}
	free(tn->ref.id);
	tn->ref.id = NULL;
	if (store_candidate_add(st, &tn->ref, &inserted, err) < 0)
		goto fail;
	free(r->cand_id);
	r->cand_id = xstrdup(tn->ref.id);
	if (store_run_add(st, r, err) < 0)
		goto fail;
	return store_commit(st, err);
fail:
	store_rollback(st);
	return -1;
}

int
task_new_edit(struct task_new *tn, const char *editor, struct err *err)
{
	const char *tmp = getenv("TMPDIR");
	char *dir, *path = NULL, *line, *text = NULL, *pretty = NULL;
	json_t *row;
	size_t len;
	int fd, status, rc = -1;
	pid_t pid;

	if (editor == NULL || *editor == '\0')
		editor = getenv("EDITOR");
	if (editor == NULL || *editor == '\0')
		editor = "vi";
	line = task_new_jsonl(tn, err);
	if (line == NULL)
		return -1;
	row = json_loads(line, 0, NULL);
	free(line);
	pretty = json_dumps(row, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(row);
	dir = xasprintf("%s/assay-task-XXXXXX", tmp != NULL && *tmp != '\0' ?
	    tmp : "/tmp");
	if (mkdtemp(dir) == NULL) {
		err_set(err, "%s: %s", dir, strerror(errno));
		goto out;
	}
	path = xasprintf("%s/task.json", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0 || write(fd, pretty, strlen(pretty)) !=
	    (ssize_t)strlen(pretty) || write(fd, "\n", 1) != 1) {
		err_set(err, "%s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		goto out;
	}
	close(fd);
	pid = fork();
	if (pid < 0) {
		err_set(err, "fork: %s", strerror(errno));
		goto out;
	}
	if (pid == 0) {
		/* the editor is shell words, as git reads EDITOR */
		execl("/bin/sh", "sh", "-c", "eval \"exec $0 \\\"\\$1\\\"\"",
		    editor, path, (char *)NULL);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			err_set(err, "waitpid: %s", strerror(errno));
			goto out;
		}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		err_set(err, "%s exited with status %d; nothing taken", editor,
		    WIFEXITED(status) ? WEXITSTATUS(status) : -1);
		goto out;
	}
	if (file_read(path, &text, &len, err) < 0)
		goto out;
	if (strlen(text) == strlen(pretty) + 1 &&
	    strncmp(text, pretty, strlen(pretty)) == 0) {
		rc = 1;
		goto out;
	}
	if (task_new_read_back(tn, text, err) < 0) {
		char *m = xasprintf("%s: %s", path, err->msg);

		err_set(err, "%s", m);
		free(m);
		goto out;
	}
	rc = 0;
out:
	if (path != NULL)
		unlink(path);
	rmdir(dir);
	free(dir);
	free(path);
	free(text);
	free(pretty);
	return rc;
}
