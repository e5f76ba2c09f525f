/*
 * svc_args.c - the options of import and merge; see svc_args.h.
 */
#include "app/svc_args.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/ident.h"

const struct cmd_opt svc_import_opts[] = {
	{ "format", 'f', CMD_VALUE, 'f' },
	{ "keep-going", 'k', CMD_FLAG, 'k' },
	{ "json", 0, CMD_FLAG, 'J' },
	{ "license", 0, CMD_VALUE, 'L' },
	{ "repository", 0, CMD_VALUE, 'R' },
	{ "id-prefix", 0, CMD_VALUE, 'p' },
	{ "progress", 0, CMD_FLAG, 'P' },
	{ NULL, 0, CMD_FLAG, 0 }
};

static void
flag(int *v)
{
	if (v != NULL)
		*v = 1;
}

int
svc_import_args(struct cmd_args *a, struct import_opts *o, int *json,
    int *progress, struct err *err)
{
	const char *val = NULL;
	struct err e;
	int ch;

	memset(o, 0, sizeof *o);
	o->format = IMPORT_AUTO;
	while ((ch = cmd_next(a, &val)) != -1) {
		if (ch == 'f') {
			if (import_format_parse(val, &o->format, err) < 0)
				return -1;
		} else if (ch == 'k') {
			o->keep_going = 1;
		} else if (ch == 'J') {
			flag(json);
		} else if (ch == 'P') {
			flag(progress);
		} else if (ch == 'L') {
			if (*val == '\0' || strpbrk(val, " \t\n") != NULL)
				return err_set(err, "bad licence '%s': want an"
				    " SPDX id such as MIT", val);
			o->license = val;
		} else if (ch == 'R') {
			if (*val == '\0' || strpbrk(val, " \t\n") != NULL)
				return err_set(err, "bad repository '%s': want"
				    " URL@COMMIT", val);
			o->repository = val;
		} else if (ch == 'p') {
			if (ident_check_id(val, &e) < 0)
				return err_set(err, "--id-prefix: %s", e.msg);
			o->id_prefix = val;
		}
	}
	return 0;
}

const struct cmd_opt svc_merge_opts[] = {
	{ "json", 0, CMD_FLAG, 'J' },
	{ "lock-timeout", 0, CMD_VALUE, 'L' },
	{ "shards", 0, CMD_VALUE, 'S' },
	{ "progress", 0, CMD_FLAG, 'P' },
	{ NULL, 0, CMD_FLAG, 0 }
};

int
svc_merge_args(struct cmd_args *a, const char **dir, long *lock_s,
    int *json, int *progress, struct err *err)
{
	const char *val = NULL;
	char *end;
	long v;
	int ch;

	*dir = NULL;
	while ((ch = cmd_next(a, &val)) != -1) {
		if (ch == 'J') {
			flag(json);
		} else if (ch == 'P') {
			flag(progress);
		} else if (ch == 'S') {
			*dir = val;
		} else if (ch == 'L') {
			errno = 0;
			v = strtol(val, &end, 10);
			if (*val == '\0' || *end != '\0' || errno != 0 ||
			    v < 0 || v > 86400)
				return err_set(err, "--lock-timeout wants whole"
				    " seconds, 0..86400");
			*lock_s = v;
		}
	}
	if ((*dir != NULL) == (a->npos > 0))
		return err_set(err, "give RESULTS files or --shards DIR%s",
		    *dir != NULL ? ", not both" : "");
	return 0;
}
