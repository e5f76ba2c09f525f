/*
 * batch.c - :verify, background verification of many candidates from
 * the workbench.
 *
 * Why a child `assay verify` and not a second scheduler here: the CLI's
 * pool (cli.c cmd_verify) already runs the references first, skips
 * unchanged inputs, waits for a busy database (--lock-timeout) and keeps
 * every run; running it as a child process reuses all of that as it is,
 * and the workbench's loop only reads its progress lines
 * ("[k/N] ID VERDICT [STAGE] [SUB]" on stderr) from a pipe.  Each run is
 * stored by the child the moment it ends, so the queue re-reads its
 * view as results land (the cursor follows its candidate,
 * wb_view_changed), and moving and deciding go on meanwhile.  x or C-c
 * cancels: the child's process group is terminated; what it stored
 * stays.
 */
#define _GNU_SOURCE
#include "ui/wb.h"
#include "model/vocab.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define BATCH_REFRESH_MS	300	/* re-read the view at most this often */
#define BATCH_MAX_JOBS		64

/* The state of :verify, owned by wb->batch. */
struct batch {
	int		 pid;		/* the child `assay verify`; 0: none */
	int		 fd;		/* its stdout and stderr */
	struct buf	 part;		/* a line not ended yet */
	size_t		 done, total;	/* [done/total] of its last line */
	size_t		 results, pass, fail;	/* runs it stored */
	size_t		 seen;		/* results when the view was read */
	size_t		 unchanged;	/* from verify's summary line */
	int		 summary;	/* 1: that line was read */
	int64_t		 t0, refreshed;	/* ms */
	int		 jobs, cancelled;
	char		 last_err[256];
};

/* The state, made on first use. */
static struct batch *
batch_of(struct wb *wb)
{
	if (wb->batch == NULL) {
		wb->batch = xcalloc(1, sizeof *wb->batch);
		wb->batch->fd = -1;
	}
	return wb->batch;
}

int
batch_running(const struct wb *wb)
{
	return wb->batch != NULL && wb->batch->pid > 0;
}

int
batch_fd(const struct wb *wb)
{
	return batch_running(wb) ? wb->batch->fd : -1;
}

int
batch_progress(const struct wb *wb, size_t *done, size_t *total,
    size_t *fail)
{
	if (!batch_running(wb))
		return 0;
	*done = wb->batch->done;
	*total = wb->batch->total;
	*fail = wb->batch->fail;
	return 1;
}

/* Parse "[k/N] ID VERDICT ..." into the counts. */
static void
batch_line(struct wb *wb, const char *line)
{
	struct batch *b = batch_of(wb);
	size_t k, n;
	char id[64], verdict[32];

	/* verify's summary: "verified N, unchanged M: ..." (skips print
	 * no [k/N] line of their own) */
	if (sscanf(line, "verified %zu, unchanged %zu", &k, &n) == 2) {
		b->unchanged = n;
		b->summary = 1;
		return;
	}
	if (sscanf(line, "[%zu/%zu] %63s %31s", &k, &n, id, verdict) != 4) {
		/* anything else is worth seeing: an error of the child */
		if (strncmp(line, "assay", 5) == 0) {
			snprintf(b->last_err, sizeof b->last_err, "%s", line);
		}
		return;
	}
	b->done = k;
	b->total = n;
	b->results++;
	if (verdict_is(verdict, VERDICT_PASS))
		b->pass++;
	else
		b->fail++;
}

/* The child ended: say how it went and read the view again. */
static void
batch_end(struct wb *wb)
{
	struct batch *b = batch_of(wb);
	int st = 0;
	char dur[32];

	while (waitpid(b->pid, &st, 0) < 0 && errno == EINTR)
		;
	b->pid = 0;
	if (b->fd >= 0)
		close(b->fd);
	b->fd = -1;
	buf_release(&b->part);
	pane_duration(wb_now_ms() - b->t0, dur, sizeof dur);
	if (b->cancelled)
		wb_msg(wb, 0, ":verify cancelled after %zu result%s (stored); "
		    "%zu left unverified", b->results, b->results == 1 ? "" :
		    "s", b->total > b->done ? b->total - b->done : 0);
	else if (WIFEXITED(st) && WEXITSTATUS(st) == 2 && b->last_err[0])
		wb_msg(wb, 1, ":verify: %s", b->last_err);
	else
		wb_msg(wb, 0, ":verify done in %s: %zu verified (%zu pass, %zu "
		    "not), %zu unchanged", dur, b->results, b->pass, b->fail,
		    b->summary ? b->unchanged : b->done > b->results ?
		    b->done - b->results : 0);
	wb_view_changed(wb);
}

void
batch_io(struct wb *wb)
{
	struct batch *b = batch_of(wb);
	char chunk[4096];
	ssize_t n;
	int eof = 0;

	if (b->pid <= 0)
		return;
	for (;;) {
		n = read(b->fd, chunk, sizeof chunk);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			eof = n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK);
			break;
		}
		buf_add(&b->part, chunk, (size_t)n);
	}
	/* whole lines only; a partial one waits for its end */
	for (;;) {
		const char *s = buf_str(&b->part);
		const char *nl = memchr(s, '\n', b->part.len);
		size_t len;
		char *line;

		if (nl == NULL)
			break;
		len = (size_t)(nl - s);
		line = xstrndup(s, len);
		batch_line(wb, line);
		free(line);
		/* drop the line and its newline */
		memmove(b->part.p, b->part.p + len + 1, b->part.len - len);
		b->part.len -= len + 1;
	}
	if (eof) {
		batch_end(wb);
		return;
	}
	wb->dirty = 1;	/* the progress in the status bar */
	if (b->results != b->seen &&
	    wb_now_ms() - b->refreshed >= BATCH_REFRESH_MS) {
		b->seen = b->results;
		b->refreshed = wb_now_ms();
		wb_view_changed(wb);	/* the rows that got a verdict */
	}
}

int
batch_timeout(const struct wb *wb)
{
	const struct batch *b = wb->batch;

	if (b == NULL || b->pid <= 0 || b->results == b->seen)
		return -1;
	/* a result read but not shown yet: show it when its time comes */
	return (int)(BATCH_REFRESH_MS - (wb_now_ms() - b->refreshed) > 0 ?
	    BATCH_REFRESH_MS - (wb_now_ms() - b->refreshed) : 0);
}

void
batch_cancel(struct wb *wb)
{
	struct batch *b = batch_of(wb);

	if (b->pid <= 0)
		return;
	b->cancelled = 1;
	/* the child leads its own group: its jobs' processes go with it */
	if (kill(-b->pid, SIGTERM) < 0)
		(void)kill(b->pid, SIGTERM);
	wb_msg(wb, 0, "cancelling :verify after %zu of %zu", b->done,
	    b->total);
}

void
batch_stop(struct wb *wb)
{
	if (wb->batch == NULL)
		return;
	if (wb->batch->pid > 0) {
		batch_cancel(wb);
		batch_end(wb);
	}
	buf_release(&wb->batch->part);
	free(wb->batch);
	wb->batch = NULL;
}

/* Default parallelism: the CPUs, at most 8. */
static long
batch_default_jobs(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > 8 ? 8 : n;
}

int
batch_start(struct wb *wb, const char *arg)
{
	struct batch *b = batch_of(wb);
	char self[4096], jobs[32], timeout[32], *copy, *tok, *save = NULL;
	char **argv;
	long nj = batch_default_jobs();
	int force = 0, fds[2], n = 0;
	pid_t pid;

	if (b->pid > 0) {
		wb_msg(wb, 1, ":verify is running (%zu of %zu; x cancels it)",
		    b->done, b->total);
		return -1;
	}
	copy = xstrdup(arg != NULL ? arg : "");
	for (tok = strtok_r(copy, " ", &save); tok != NULL;
	    tok = strtok_r(NULL, " ", &save)) {
		char *end;
		long v = strtol(tok, &end, 10);

		if (strcmp(tok, "force") == 0 || strcmp(tok, "--force") == 0) {
			force = 1;
		} else if (*end == '\0' && v >= 1 && v <= BATCH_MAX_JOBS) {
			nj = v;
		} else {
			wb_msg(wb, 1, ":verify [JOBS] [force]: JOBS is 1..%d, "
			    "not '%s'", BATCH_MAX_JOBS, tok);
			free(copy);
			return -1;
		}
	}
	free(copy);
	if (wb->nmarks == 0 && wb->count == 0) {
		wb_msg(wb, 1, ":verify: the view is empty");
		return -1;
	}
	if (wb_assay_path(wb, ":verify", self, sizeof self) < 0)
		return -1;
	snprintf(jobs, sizeof jobs, "%ld", nj);
	snprintf(timeout, sizeof timeout, "%d", wb->vopts.timeout_s);
	argv = xcalloc(wb->nmarks + 16, sizeof *argv);
	argv[n++] = self;
	argv[n++] = "--db";
	argv[n++] = (char *)wb->o->db_path;
	argv[n++] = "verify";
	argv[n++] = "--jobs";
	argv[n++] = jobs;
	if (force)
		argv[n++] = "--force";
	if (wb->vopts.no_sandbox)
		argv[n++] = "--no-sandbox";
	if (wb->vopts.timeout_s > 0) {
		argv[n++] = "--timeout";
		argv[n++] = timeout;
	}
	if (wb->nmarks > 0) {
		for (size_t i = 0; i < wb->nmarks; i++)
			argv[n++] = wb->marks[i];
	} else if (wb->filter != NULL) {
		argv[n++] = "--where";
		argv[n++] = wb->filter;
	}
	argv[n] = NULL;
	if (pipe2(fds, O_CLOEXEC) < 0) {
		wb_msg(wb, 1, ":verify: pipe: %s", strerror(errno));
		free(argv);
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		wb_msg(wb, 1, ":verify: fork: %s", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		free(argv);
		return -1;
	}
	if (pid == 0) {
		int nul = open("/dev/null", O_RDWR);

		setsid();	/* its own group: cancel ends all of it */
		if (nul >= 0)
			dup2(nul, STDIN_FILENO);
		dup2(fds[1], STDOUT_FILENO);
		dup2(fds[1], STDERR_FILENO);
		execv(self, argv);
		dprintf(STDERR_FILENO, "assay: exec %s: %s\n", self,
		    strerror(errno));
		_exit(2);
	}
	close(fds[1]);
	(void)fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK);
	memset(b, 0, sizeof *b);
	b->pid = pid;
	b->fd = fds[0];
	b->t0 = wb_now_ms();
	b->refreshed = b->t0;
	b->total = wb->nmarks > 0 ? wb->nmarks : wb->count;
	b->jobs = (int)nj;
	wb_msg(wb, 0, ":verify %zu candidate%s, %ld at a time, in the "
	    "background (x cancels)", b->total, b->total == 1 ? "" : "s", nj);
	free(argv);
	return 0;
}
