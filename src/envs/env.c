/*
 * env.c - what every env shares: embedded share files, limits, plans,
 * work-directory inputs, task parameters and toolchain identities
 * (env.h).  The table of envs is registry.c, above every env file.
 */
#include "envs/env.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "base/hash.h"
#include "base/strset.h"
#include "base/ident.h"
#include "base/textsafe.h"

void
env_nonce(char *out, size_t n, size_t digits, char lead)
{
	unsigned char raw[32];
	size_t bytes, i;
	ssize_t got;

	if (n == 0)
		return;
	if (digits > n - 1)
		digits = n - 1;
	bytes = (digits + 1) / 2;
	if (bytes > sizeof raw)
		bytes = sizeof raw;
	do
		got = getrandom(raw, bytes, 0);
	while (got < 0 && errno == EINTR);
	if (got != (ssize_t)bytes)
		for (i = 0; i < bytes; i++)
			raw[i] = (unsigned char)(rand() ^ getpid());
	for (i = 0; i < digits && i < 2 * bytes; i++)
		out[i] = "0123456789abcdef"[i % 2 == 0 ? raw[i / 2] >> 4 :
		    raw[i / 2] & 15];
	out[i] = '\0';
	if (i > 0)
		out[0] = lead;
}

/* The table scripts/embed.sh generates from share/envs. */
struct env_share_file {
	const char *name;
	const unsigned char *data;
	size_t len;
};
extern const struct env_share_file env_share_files[];

const char *
env_share(const char *name, size_t *len)
{
	for (const struct env_share_file *f = env_share_files; f->name != NULL;
	    f++) {
		if (strcmp(f->name, name) == 0) {
			*len = f->len;
			return (const char *)f->data;
		}
	}
	return NULL;
}

int
env_digits(const char **p, const char *end, int *out)
{
	const char *q = *p;
	int n = 0, digits = 0;

	for (; (end == NULL || q < end) && *q >= '0' && *q <= '9'; q++) {
		n = env_digit(n, *q);
		digits++;
	}
	*p = q;
	*out = n;
	return digits;
}

int
env_atoi(const char *s)
{
	int n;

	return env_digits(&s, NULL, &n) > 0 ? n : 0;
}

void
env_set(char **field, const char *v)
{
	free(*field);
	*field = xstrdup(v);
}

void
env_verdict(struct run *r, enum verdict v, enum category cat,
    const char *subcategory, const char *evidence)
{
	const char *vn = verdict_name(v), *cn = category_name(cat);
	char *sub = subcategory != NULL ? xstrdup(subcategory) : NULL;
	char *ev = evidence != NULL ? xstrdup(evidence) : NULL;

	if (vn == NULL)
		ASSAY_BUG("env_verdict: not a verdict");
	env_set(&r->verdict, vn);
	env_set(&r->category, cn);
	free(r->subcategory);
	r->subcategory = sub;
	free(r->evidence);
	r->evidence = ev;
}

void
env_diags_dedup(struct run *r)
{
	struct strset seen = STRSET_INIT;
	size_t k = 0;

	for (size_t i = 0; i < r->ndiags; i++) {
		struct diag *d = &r->diags[i];
		/* \x1f: a unit separator no field is split on */
		char *key = xasprintf("%s\x1f%d\x1f%d\x1f%d\x1f%s\x1f%s",
		    d->file != NULL ? d->file : "", d->line, d->col,
		    d->cand_line, d->severity != NULL ? d->severity : "",
		    d->message != NULL ? d->message : "");

		if (strset_add(&seen, key))
			r->diags[k++] = *d;
		else
			diag_release(d);
		free(key);
	}
	r->ndiags = k;
	strset_release(&seen);
}

const char *
env_stage_output(const char *log, size_t len, size_t *outlen)
{
	const char *nl;

	if (len >= 2 && log[0] == '$' && log[1] == ' ' &&
	    (nl = memchr(log, '\n', len)) != NULL) {
		*outlen = len - (size_t)(nl + 1 - log);
		return nl + 1;
	}
	*outlen = log != NULL ? len : 0;
	return log;
}

char *
env_first_error(const char *log, size_t len)
{
	const char *p, *end, *first = NULL, *pick = NULL;
	size_t firstlen = 0, picklen = 0;
	struct buf b = BUF_INIT;

	p = env_stage_output(log, len, &len);
	end = p + len;

	while (p < end && pick == NULL) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl != NULL ? nl : end;

		while (p < e && (*p == ' ' || *p == '\t'))
			p++;
		while (e > p && (e[-1] == ' ' || e[-1] == '\t' ||
		    e[-1] == '\r'))
			e--;
		if (e > p) {
			if (first == NULL) {
				first = p;
				firstlen = (size_t)(e - p);
			}
			for (const char *q = p; q + 5 <= e; q++)
				if (strncasecmp(q, "error", 5) == 0) {
					pick = p;
					picklen = (size_t)(e - p);
					break;
				}
		}
		p = nl != NULL ? nl + 1 : end;
	}
	if (pick == NULL) {
		pick = first;
		picklen = firstlen;
	}
	if (pick == NULL)
		return NULL;
	if (picklen > 300)
		picklen = 300;
	safe_text(&b, pick, picklen, 0);
	return buf_detach(&b, NULL);
}

char *
env_evidence(const char *ev, const char *log, size_t len, const char *tool)
{
	char *line;

	if (ev != NULL)
		return xstrdup(ev);
	line = log != NULL ? env_first_error(log, len) : NULL;
	return line != NULL ? line : xasprintf("%s failed without a message",
	    tool);
}

int
env_located(const char *line, size_t len, struct env_located *loc)
{
	static const struct { const char *word, *severity; } sevs[] = {
		{ "error:", "error" }, { "Error:", "error" },
		{ "fatal error:", "error" }, { "Fatal error:", "error" },
		{ "warning:", "warning" }, { "Warning:", "warning" },
		{ "note:", "note" }, { "sorry:", "sorry" },
	};
	const char *p, *end = line + len, *colon = memchr(line, ':', len);
	int n;

	memset(loc, 0, sizeof *loc);
	if (colon == NULL || colon == line || memchr(line, ' ',
	    (size_t)(colon - line)) != NULL)
		return 0;
	p = colon + 1;
	if (env_digits(&p, end, &loc->line) == 0 || p >= end || *p != ':')
		return 0;
	p++;
	{
		const char *q = p;

		if (env_digits(&q, end, &n) > 0 && q < end && *q == ':') {
			loc->col = n;
			p = q + 1;
		}
	}
	while (p < end && *p == ' ')
		p++;
	for (size_t i = 0; i < sizeof sevs / sizeof sevs[0]; i++) {
		size_t k = strlen(sevs[i].word);

		if ((size_t)(end - p) >= k && memcmp(p, sevs[i].word, k) == 0) {
			loc->severity = sevs[i].severity;
			p += k;
			break;
		}
	}
	while (p < end && *p == ' ')
		p++;
	loc->file = line;
	loc->flen = (size_t)(colon - line);
	loc->msg = p;
	loc->msglen = (size_t)(end - p);
	return 1;
}

int
env_rule_matches(const char *pattern, const char *text)
{
	const char *p = pattern, *t = text;
	int anchored = *p == '^';

	if (anchored)
		p++;
	for (;;) {
		size_t n = strcspn(p, "*");
		const char *at;

		if (anchored) {
			at = strncmp(t, p, n) == 0 ? t : NULL;
			anchored = 0;
		} else {
			char *part = xstrndup(p, n);

			at = strstr(t, part);
			free(part);
		}
		if (at == NULL)
			return 0;
		t = at + n;
		p += n;
		if (*p == '\0')
			return 1;
		p++;	/* the '*' */
	}
}

/* Is stage one of the blank-separated names of list? */
static int
stage_in(const char *list, const char *stage)
{
	size_t n = strlen(stage);

	for (const char *p = list; *p != '\0'; ) {
		size_t k = strcspn(p, " ");

		if (k == n && strncmp(p, stage, n) == 0)
			return 1;
		p += k;
		p += strspn(p, " ");
	}
	return 0;
}

const struct env_rule *
env_rule_find(const struct env_rule *rules, size_t n, const char *stage,
    const char *text)
{
	if (text == NULL || stage == NULL)
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (stage_in(rules[i].stage, stage) &&
		    env_rule_matches(rules[i].pattern, text))
			return &rules[i];
	return NULL;
}

void
env_verdict_rule(struct run *r, enum verdict v, const struct env_rule *rule,
    enum category category, const char *subcategory, const char *evidence)
{
	if (rule != NULL)
		env_verdict(r, v, rule->category, rule->subcategory, evidence);
	else
		env_verdict(r, v, category, subcategory, evidence);
}

int
env_judge_limits(enum env_stop stop, int exit_code, const char *category,
    const char *what, struct run *r)
{
	char *ev;

	if (stop == ENV_STOP_OUTPUT) {
		env_verdict(r, VERDICT_FAIL, category_from_name(category),
		    "output-limit", "the output passed the capture cap");
		return 1;
	}
	if (stop == ENV_STOP_KILLED) {
		env_verdict(r, VERDICT_FAIL, category_from_name(category),
		    "harness-killed", NULL);
		ev = xasprintf("%s was killed (SIGKILL) from inside the"
		    " sandbox, well within its CPU limit: the candidate killed"
		    " the harness", what);
		env_set(&r->evidence, ev);
		free(ev);
		return 1;
	}
	if (stop != ENV_STOP_TIMEOUT && (stop != ENV_STOP_NONE ||
	    (exit_code != 128 + SIGXCPU && exit_code != 128 + SIGKILL)))
		return 0;
	/* Wall clock, or the CPU limit (SIGXCPU, then SIGKILL). */
	env_verdict(r, VERDICT_TIMEOUT, category_from_name(category), "timeout",
	    NULL);
	ev = xasprintf("%s hit its %s", what, stop == ENV_STOP_TIMEOUT ?
	    "wall-clock timeout" : "CPU-time limit");
	env_set(&r->evidence, ev);
	free(ev);
	return 1;
}

/* Free a NULL-terminated list of strings (the list itself is not). */
static void
free_list(char **list)
{
	for (size_t i = 0; list[i] != NULL; i++)
		free(list[i]);
}

/* Append copies of add to the NULL-terminated list (ENV_MAX_SEAL + 1). */
static void
add_list(char **list, const char *const *add)
{
	size_t n = 0;

	while (list[n] != NULL)
		n++;
	for (size_t i = 0; add[i] != NULL; i++) {
		if (n == ENV_MAX_SEAL)
			ASSAY_BUG("more than ENV_MAX_SEAL sealed files");
		list[n++] = xstrdup(add[i]);
	}
	list[n] = NULL;
}

void
env_plan_init(struct env_plan *p)
{
	memset(p, 0, sizeof *p);
	buf_init(&p->inputs);
	buf_adds(&p->inputs, "{");
	buf_init(&p->precheck);
}

void
env_plan_release(struct env_plan *p)
{
	if (p == NULL)
		return;
	for (size_t s = 0; s < p->nstages; s++) {
		for (size_t i = 0; p->stages[s].argv[i] != NULL; i++)
			free(p->stages[s].argv[i]);
		for (size_t i = 0; p->stages[s].ro[i] != NULL; i++)
			free(p->stages[s].ro[i]);
		free_list(p->stages[s].seal);
		free_list(p->stages[s].use);
	}
	free_list(p->seal);
	free(p->cand_file);
	buf_release(&p->inputs);
	buf_release(&p->precheck);
	free(p->launch);
	memset(p, 0, sizeof *p);
}

void
env_plan_seal(struct env_plan *p, const char *const *paths)
{
	add_list(p->nstages > 0 ? p->stages[p->nstages - 1].seal : p->seal,
	    paths);
}

void
env_plan_use(struct env_plan *p, const char *const *names)
{
	if (p->nstages == 0)
		ASSAY_BUG("env_plan_use() before any stage");
	add_list(p->stages[p->nstages - 1].use, names);
}

void
env_plan_input(struct env_plan *p, const char *name)
{
	struct env_stage *s;

	if (p->nstages == 0)
		ASSAY_BUG("env_plan_input() before any stage");
	s = &p->stages[p->nstages - 1];
	if (strlen(name) >= sizeof s->input)
		ASSAY_BUG("a sealed input's name too long");
	snprintf(s->input, sizeof s->input, "%s", name);
}

void
env_plan_stage(struct env_plan *p, const char *name, const char *const *argv)
{
	env_plan_stage_in(p, name, argv, NULL);
}

void
env_plan_stage_in(struct env_plan *p, const char *name,
    const char *const *argv, const char *subdir)
{
	struct env_stage *s;
	size_t i;

	if (p->nstages == ENV_MAX_STAGES)
		ASSAY_BUG("too many stages");
	s = &p->stages[p->nstages++];
	snprintf(s->name, sizeof s->name, "%s", name);
	snprintf(s->subdir, sizeof s->subdir, "%s", subdir != NULL ? subdir :
	    "");
	for (i = 0; argv[i] != NULL && i + 1 < ENV_MAX_ARGS; i++)
		s->argv[i] = xstrdup(argv[i]);
	s->argv[i] = NULL;
}

void
env_note_input(struct env_plan *p, const char *name, const char *data,
    size_t len)
{
	char hex[HASH_HEX_LEN + 1];
	json_t *k = json_string(name);
	char *key = json_dumps(k, JSON_ENCODE_ANY);

	hash_sha256(data, len, hex);
	buf_printf(&p->inputs, "%s%s:\"%s\"", p->inputs.len > 1 ? "," : "",
	    key, hex);
	free(key);
	json_decref(k);
}

int
env_digit(int num, char c)
{
	int d = c - '0';

	return num > (INT_MAX - d) / 10 ? INT_MAX : num * 10 + d;
}

long
env_add(long a, long b)
{
	if (b > 0 && a > LONG_MAX - b)
		return LONG_MAX;
	if (b < 0 && a < LONG_MIN - b)
		return LONG_MIN;
	return a + b;
}

/* Write data to workdir/name with mode; 0 or -1 with err. */
static int
write_file(const char *workdir, const char *name, const char *data,
    size_t len, mode_t mode, struct err *err)
{
	char *path;
	int fd;
	size_t off = 0;
	struct err e;

	/* Why: a name is also a toolchain argument; "-ofoo_tb.sv" must
	 * never be read as an option, "../x" never leave workdir. */
	if (ident_check_file_name(name, &e) < 0) {
		char show[96];

		return err_set(err, "bad task file name '%s': %s",
		    ident_show(name, show, sizeof show), e.msg);
	}
	path = xasprintf("%s/%s", workdir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
	if (fd < 0) {
		err_set(err, "write %s: %s", path, strerror(errno));
		free(path);
		return -1;
	}
	while (off < len) {
		ssize_t n = write(fd, data + off, len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err_set(err, "write %s: %s", path, strerror(errno));
			close(fd);
			free(path);
			return -1;
		}
		off += (size_t)n;
	}
	close(fd);
	free(path);
	return 0;
}

int
env_write_input(struct env_plan *p, const char *workdir, const char *name,
    const char *data, size_t len, struct err *err)
{
	if (write_file(workdir, name, data, len, 0644, err) < 0)
		return -1;
	env_note_input(p, name, data, len);
	return 0;
}

int
env_write_task_files(struct env_plan *p, const char *workdir,
    const struct task *t, const char *const *reserved, const char *by,
    struct err *err)
{
	for (size_t i = 0; i < t->nfiles; i++) {
		const struct task_file *f = &t->files[i];

		for (size_t r = 0; reserved[r] != NULL; r++)
			if (strcmp(f->name, reserved[r]) == 0)
				return err_set(err, "task file name %s is"
				    " reserved by %s", f->name, by);
		if (env_write_input(p, workdir, f->name, f->data, f->len,
		    err) < 0)
			return -1;
	}
	return 0;
}

int
env_plan_data(struct env_plan *p, const char *workdir, const char *name,
    const char *data, size_t len, struct err *err)
{
	struct env_stage *s;
	char *dir;
	size_t n = 0;
	int rc;

	if (p->nstages == 0)
		return err_set(err, "data file %s: no stage to read it", name);
	s = &p->stages[p->nstages - 1];
	while (s->ro[n] != NULL)
		n++;
	if (n == ENV_MAX_RO)
		return err_set(err, "data file %s: more than %d data files",
		    name, ENV_MAX_RO);
	dir = s->subdir[0] != '\0' ? xasprintf("%s/%s", workdir, s->subdir) :
	    xstrdup(workdir);
	/* Read-only here too: without the sandbox nothing binds it. */
	rc = write_file(dir, name, data, len, 0444, err);
	free(dir);
	if (rc < 0)
		return -1;
	env_note_input(p, name, data, len);
	s->ro[n] = xstrdup(name);
	return 0;
}

int
env_mkdir(const char *workdir, const char *name, struct err *err)
{
	char *path = xasprintf("%s/%s", workdir, name);
	int rc = mkdir(path, 0755);

	if (rc < 0)
		err_set(err, "mkdir %s: %s", path, strerror(errno));
	free(path);
	return rc < 0 ? -1 : 0;
}

static json_t *
param(const struct task *t, const char *key, json_t **root)
{
	*root = t->env_params != NULL ? json_loads(t->env_params, 0, NULL) :
	    NULL;
	return *root != NULL ? json_object_get(*root, key) : NULL;
}

long
env_param_int(const struct task *t, const char *key, long def)
{
	json_t *root, *v = param(t, key, &root);
	long r = json_is_number(v) ? (long)json_number_value(v) : def;

	json_decref(root);
	return r;
}

int
env_param_bool(const struct task *t, const char *key, int def)
{
	json_t *root, *v = param(t, key, &root);
	int r = json_is_boolean(v) ? json_is_true(v) : def;

	json_decref(root);
	return r;
}

char *
env_param_str(const struct task *t, const char *key)
{
	json_t *root, *v = param(t, key, &root);
	char *r = xstrdup(json_string_value(v));

	json_decref(root);
	return r;
}

int
env_param_strv(const struct task *t, const char *key, char ***v, size_t *n,
    struct err *err)
{
	json_t *root, *val = param(t, key, &root), *e;
	size_t i;
	int rc = 0;

	*v = NULL;
	*n = 0;
	if (json_is_string(val)) {
		*v = xmalloc(sizeof **v);
		(*v)[(*n)++] = xstrdup(json_string_value(val));
	} else if (json_is_array(val)) {
		*v = xcalloc(json_array_size(val) + 1, sizeof **v);
		json_array_foreach(val, i, e) {
			if (!json_is_string(e)) {
				strv_free(*v, *n);
				*v = NULL;
				*n = 0;
				rc = -1;
				break;
			}
			(*v)[(*n)++] = xstrdup(json_string_value(e));
		}
	} else if (val != NULL && !json_is_null(val)) {
		rc = -1;
	}
	if (rc < 0)
		err_set(err, "env_params.%s: a string or an array of strings",
		    key);
	json_decref(root);
	return rc;
}

#define TOOL_QUERY_S 30	/* a version query, at most */

int
env_tool_version(const char *const *argv, char *buf, size_t n)
{
	int fds[2], status, hung = 0;
	time_t deadline;
	char tmp[512];
	size_t len = 0;
	ssize_t k;
	pid_t pid;

	if (pipe(fds) < 0)
		return -1;
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY);
		sigset_t none;

		sigemptyset(&none);	/* not the starting thread's mask */
		sigprocmask(SIG_SETMASK, &none, NULL);
		setpgid(0, 0);
		dup2(null, 0);
		dup2(fds[1], 1);
		dup2(fds[1], 2);
		close(fds[0]);
		close(fds[1]);
		execvp(argv[0], (char *const *)argv);
		_exit(127);
	}
	close(fds[1]);
	deadline = time(NULL) + TOOL_QUERY_S;
	for (;;) {
		char sink[512];
		struct pollfd pf = { .fd = fds[0], .events = POLLIN };
		time_t left = deadline - time(NULL);

		/* A tool that hangs on its version query (a broken wrapper)
		 * must not hang assay: killed, and it does not run. */
		if (left <= 0 || (poll(&pf, 1, (int)left * 1000) == 0)) {
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			hung = 1;
			break;
		}

		/* Keep only the start, but drain it all: the tool must not
		 * die of SIGPIPE. */
		if (len < sizeof tmp - 1)
			k = read(fds[0], tmp + len, sizeof tmp - 1 - len);
		else
			k = read(fds[0], sink, sizeof sink);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		if (len < sizeof tmp - 1)
			len += (size_t)k;
	}
	close(fds[0]);
	tmp[len] = '\0';
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (hung || !WIFEXITED(status) || WEXITSTATUS(status) == 127 ||
	    len == 0) {
		/* What it said, for the caller's message. */
		char *line = env_first_error(tmp, len);

		snprintf(buf, n, "%s", hung ? "it did not answer within"
		    " 30 s" : line != NULL ? line : "it printed nothing");
		free(line);
		return -1;
	}
	tmp[strcspn(tmp, "\n")] = '\0';
	/* "Icarus Verilog version 11.0 (stable) ()": drop an empty "()". */
	len = strlen(tmp);
	if (len > 3 && strcmp(tmp + len - 3, " ()") == 0)
		tmp[len - 3] = '\0';
	snprintf(buf, n, "%s", tmp);
	return 0;
}

const char *
env_venv_dir(void)
{
	static _Thread_local char dir[PATH_MAX];	/* the caller's thread's */
	const char *env = getenv("ASSAY_VENV");
	char exe[PATH_MAX], *slash, *py;
	ssize_t len;
	int ok;

	if (env != NULL && *env != '\0') {
		if (snprintf(dir, sizeof dir, "%s", env) >= (int)sizeof dir)
			return NULL;
	} else {
		len = readlink("/proc/self/exe", exe, sizeof exe - 1);
		if (len <= 0)
			return NULL;
		exe[len] = '\0';
		slash = strrchr(exe, '/');
		if (slash == NULL)
			return NULL;
		*slash = '\0';
		if (snprintf(dir, sizeof dir, "%s/venv", exe) >=
		    (int)sizeof dir)
			return NULL;
	}
	py = xasprintf("%s/bin/python3", dir);
	ok = access(py, X_OK) == 0;
	free(py);
	return ok ? dir : NULL;
}

const char *
env_python(int *venv)
{
	*venv = env_venv_dir() != NULL;
	return *venv ? ENV_VENV_PYTHON : "/usr/bin/python3";
}

int
env_venv_versions(const char *const *names, char *buf, size_t n)
{
	const char *dir = env_venv_dir();
	struct buf code = BUF_INIT;
	char *py;
	int rc;

	if (dir == NULL) {
		snprintf(buf, n, "no venv");
		return 0;
	}
	buf_adds(&code, "import importlib.metadata as m\nout = []\n"
	    "for name in (");
	for (size_t i = 0; names[i] != NULL; i++)
		buf_printf(&code, "'%s', ", names[i]);
	buf_adds(&code, "):\n"
	    "    try:\n"
	    "        out.append(name + ' ' + m.version(name))\n"
	    "    except Exception:\n"
	    "        out.append(name + ' not installed')\n"
	    "print(', '.join(out))\n");
	py = xasprintf("%s/bin/python3", dir);
	{
		const char *const argv[] = { py, "-I", "-c", buf_str(&code),
		    NULL };

		rc = env_tool_version(argv, buf, n);
	}
	free(py);
	buf_release(&code);
	return rc;
}
