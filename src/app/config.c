/*
 * config.c - reviewer name, data and config paths, and the config file
 * (settings and key bindings); see config.h.
 */
#include "app/config.h"

#include <errno.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app/command.h"
#include "app/commands.h"
#include "base/buf.h"
#include "base/err.h"
#include "exchange/vcs.h"

char *
config_reviewer(const char *flag)
{
	const char *env = getenv("ASSAY_REVIEWER");
	struct passwd *pw;
	char *git;

	if (flag != NULL && *flag != '\0')
		return xstrdup(flag);
	if (env != NULL && *env != '\0')
		return xstrdup(env);
	git = vcs_config_user_name();
	if (git != NULL)
		return git;
	pw = getpwuid(getuid());
	if (pw != NULL && pw->pw_name != NULL && *pw->pw_name != '\0')
		return xstrdup(pw->pw_name);
	env = getenv("USER");
	return xstrdup(env != NULL && *env != '\0' ? env : "unknown");
}

static int
has_grammars(const char *dir)
{
	/* The build folder has a grammars/ cache too: look for our queries. */
	char *p = xasprintf("%s/grammars/verilog/highlights.scm", dir);
	struct stat sb;
	int ok = stat(p, &sb) == 0 && S_ISREG(sb.st_mode);

	free(p);
	return ok;
}

char *
config_data_dir(const char *argv0)
{
	const char *env = getenv("ASSAY_DATA_DIR");
	char exe[PATH_MAX], *slash;
	ssize_t n;

	if (env != NULL && *env != '\0')
		return xstrdup(env);
	n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n <= 0) {
		if (argv0 == NULL || realpath(argv0, exe) == NULL)
			return xstrdup("/usr/share/assay");
	} else {
		exe[n] = '\0';
	}
	for (int up = 0; up < 3; up++) {
		slash = strrchr(exe, '/');
		if (slash == NULL)
			break;
		*slash = '\0';
		if (has_grammars(exe))
			return xstrdup(exe);
	}
	return xstrdup("/usr/share/assay");
}

/* $VAR/assay/name, else $HOME/fallback/assay/name. */
static char *
xdg_path(const char *var, const char *fallback, const char *name)
{
	const char *dir = getenv(var), *home = getenv("HOME");

	/* the spec: a relative path is ignored */
	if (dir != NULL && *dir == '/')
		return xasprintf("%s/assay/%s", dir, name);
	if (home != NULL && *home != '\0')
		return xasprintf("%s/%s/assay/%s", home, fallback, name);
	return NULL;
}

char *
config_path(const char *name)
{
	return xdg_path("XDG_CONFIG_HOME", ".config", name);
}

char *
config_state_path(const char *name)
{
	return xdg_path("XDG_STATE_HOME", ".local/state", name);
}

/* The settings themselves (config_set(), config_get()) are settings.c's. */

/* Split a copy of line into at most max words; returns how many (max + 1
 * when there are more).  *copy is new; caller frees. */
static size_t
words(const char *line, char **copy, char **w, size_t max)
{
	size_t n = 0;
	char *p;

	*copy = xstrdup(line);
	for (p = strtok(*copy, " \t\r\n"); p != NULL;
	    p = strtok(NULL, " \t\r\n")) {
		if (n == max)
			return max + 1;
		w[n++] = p;
	}
	return n;
}

/* What a config line prints goes nowhere: the file is read quietly. */
static void
cfg_quiet(void *arg, const char *s, size_t n)
{
	(void)arg;
	(void)s;
	(void)n;
}

static void
cfg_quiet_diag(void *arg, const char *s)
{
	(void)arg;
	(void)s;
}

/* The config file's commands where no front end handed its table
 * (km->commands NULL): the ones app/ defines (commands.h). */
#define CFG_ENTRY(name)	&app_cmd_##name,
static const struct cmd_entry *const cfg_cmds[] = {
	APP_SETTINGS(CFG_ENTRY)
};
static const struct cmd_table cfg_table = { cfg_cmds,
    sizeof cfg_cmds / sizeof cfg_cmds[0] };

int
config_parse_line(struct config *c, struct keymap *km, const char *line,
    struct err *err)
{
	const struct cmd_table *t = km != NULL && km->commands != NULL ?
	    km->commands : &cfg_table;
	const struct cmd_entry *e;
	struct cmd_args a;
	char *copy = xstrdup(line), *rest, **w;
	int n, rc = -1;

	copy[strcspn(copy, "\r\n")] = '\0';
	w = cmd_words(copy, &n);
	if (n == 0 || w[0][0] == '#') {
		rc = 0;
		goto out;
	}
	if (cmd_find(t, w[0]) == NULL) {
		struct buf names = BUF_INIT;

		for (size_t i = 0; i < t->n && t->v[i] != NULL; i++)
			if (t->v[i]->flags & CMD_CONFIG)
				buf_printf(&names, "%s%s", names.len > 0 ?
				    ", " : "", t->v[i]->name);
		err_set(err, "unknown setting '%s' (%s)", w[0],
		    buf_str(&names));
		buf_release(&names);
		goto out;
	}
	/* a command of the table that runs elsewhere says where */
	if ((e = cmd_lookup(t, w[0], CMD_CONFIG, err)) == NULL)
		goto out;
	rest = copy + strspn(copy, " \t");
	rest += strcspn(rest, " \t");
	rest += strspn(rest, " \t");
	if (cmd_parse(e, n, w, &a, err) < 0)
		err_set(err, "usage: %s", e->usage);
	else {
		struct cmd_ctx ctx = { .entry = e, .where = CMD_CONFIG,
		    .line = rest, .out = cfg_quiet, .diag = cfg_quiet_diag, .cfg = c,
		    .km = km };

		rc = e->exec(&ctx, &a, err) == 0 ? 0 : -1;
	}
	cmd_args_release(&a);
out:
	cmd_words_free(w);
	free(copy);
	return rc;
}

/* Where each key of the file was bound, to find conflicts. */
struct bound {
	enum keymap_table	 table;
	int			 key;
	enum action		 action;
	unsigned		 line;
};

/*
 * A bind line: the table, key and action it binds, without applying it.
 * 1 when line is a good bind, 0 otherwise.
 */
static int
bind_of(const char *line, struct bound *b)
{
	char *copy, *w[5];
	size_t n = words(line, &copy, w, 4), i = 1;
	int ok = 0;

	b->table = KEYMAP_GLOBAL;
	if (n < 3 || n > 4 || strcmp(w[0], "bind") != 0)
		goto out;
	if (n == 4) {
		if (keymap_table_parse(w[1], &b->table, NULL) < 0)
			goto out;
		i = 2;
	}
	ok = keymap_key_parse(w[i], &b->key, NULL) == 0 &&
	    keymap_action_parse(w[i + 1], &b->action, NULL) == 0;
out:
	free(copy);
	return ok;
}

int
config_load(struct config *c, struct keymap *km, const char *path,
    struct err *err)
{
	FILE *f = fopen(path, "r");
	struct bound *seen = NULL, b;
	size_t nseen = 0, problems = 0;
	char line[1024];
	unsigned lineno = 0;
	struct err e, first;

	if (f == NULL) {
		if (errno == ENOENT)
			return 1;
		return err_set(err, "%s: %s", path, strerror(errno));
	}
	first.msg[0] = '\0';
	while (fgets(line, sizeof line, f) != NULL) {
		lineno++;
		e.msg[0] = '\0';
		if (config_parse_line(c, km, line, &e) < 0) {
			if (problems++ == 0)
				err_set(&first, "%s:%u: %s", path, lineno,
				    e.msg);
			continue;
		}
		if (!bind_of(line, &b))
			continue;
		b.line = lineno;
		for (size_t i = 0; i < nseen; i++) {
			char name[32];

			if (seen[i].table != b.table || seen[i].key != b.key ||
			    seen[i].action == b.action)
				continue;
			keymap_key_name(b.key, name, sizeof name);
			if (problems++ == 0)
				err_set(&first, "%s:%u: %s is bound to %s "
				    "and at line %u to %s; line %u wins",
				    path, lineno, name,
				    keymap_action_name(b.action), seen[i].line,
				    keymap_action_name(seen[i].action), lineno);
			seen[i] = b;
			b.line = 0;
			break;
		}
		if (b.line != 0) {
			seen = xreallocarray(seen, nseen + 1, sizeof *seen);
			seen[nseen++] = b;
		}
	}
	if (ferror(f) && problems++ == 0)
		err_set(&first, "%s: %s", path, strerror(errno));
	fclose(f);
	free(seen);
	if (problems == 0)
		return 0;
	if (problems > 1)
		return err_set(err, "%s (and %zu more)", first.msg,
		    problems - 1);
	return err_set(err, "%s", first.msg);
}
