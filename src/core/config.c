/* config.c - reviewer name and data paths; see config.h. */
#include "config.h"

#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "err.h"
#include "vcs.h"

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
