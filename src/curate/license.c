/*
 * license.c - SPDX ids from licence texts; see license.h.
 */
#include "curate/license.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "base/err.h"

/* Does text hold phrase, case and runs of blanks aside? */
static int
has(const char *text, size_t len, const char *phrase)
{
	for (size_t i = 0; i < len; i++) {
		size_t t = i;
		const char *p = phrase;

		while (*p != '\0' && t < len) {
			if (*p == ' ') {
				if (text[t] != ' ' && text[t] != '\n' &&
				    text[t] != '\t' && text[t] != '\r')
					break;
				while (t < len && (text[t] == ' ' ||
				    text[t] == '\n' || text[t] == '\t' ||
				    text[t] == '\r'))
					t++;
				p++;
				continue;
			}
			if ((text[t] | 0x20) != (*p | 0x20))
				break;
			t++;
			p++;
		}
		if (*p == '\0')
			return 1;
	}
	return 0;
}

const char *
license_spdx(const char *text, size_t len)
{
	if (has(text, len, "GNU AFFERO GENERAL PUBLIC LICENSE"))
		return "AGPL-3.0-only";
	if (has(text, len, "GNU LESSER GENERAL PUBLIC LICENSE"))
		return has(text, len, "Version 3") ? "LGPL-3.0-only" :
		    "LGPL-2.1-only";
	if (has(text, len, "GNU GENERAL PUBLIC LICENSE"))
		return has(text, len, "Version 3") ? "GPL-3.0-only" :
		    "GPL-2.0-only";
	if (has(text, len, "Apache License") && has(text, len, "Version 2.0"))
		return "Apache-2.0";
	if (has(text, len, "Mozilla Public License") &&
	    has(text, len, "2.0"))
		return "MPL-2.0";
	if (has(text, len, "Permission is hereby granted, free of charge"))
		return "MIT";
	if (has(text, len, "Permission to use, copy, modify, and/or"
	    " distribute this software for any purpose"))
		return "ISC";
	if (has(text, len, "Redistribution and use in source and binary"
	    " forms"))
		return has(text, len, "Neither the name") ||
		    has(text, len, "names of its contributors") ?
		    "BSD-3-Clause" : "BSD-2-Clause";
	if (has(text, len, "This is free and unencumbered software"))
		return "Unlicense";
	if (has(text, len, "CC0 1.0 Universal"))
		return "CC0-1.0";
	if (has(text, len, "Attribution-ShareAlike 4.0 International"))
		return "CC-BY-SA-4.0";
	if (has(text, len, "Attribution 4.0 International"))
		return "CC-BY-4.0";
	return "NOASSERTION";
}

static char *
find_in(const char *dir)
{
	static const char *const names[] = { "LICENSE", "LICENSE.txt",
	    "LICENSE.md", "LICENCE", "COPYING" };
	struct stat sb;

	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		char *p = xasprintf("%s/%s", dir, names[i]);

		if (stat(p, &sb) == 0 && S_ISREG(sb.st_mode))
			return p;
		free(p);
	}
	return NULL;
}

char *
license_file(const char *path)
{
	struct stat sb;
	char *dir, *slash, *found;

	if (stat(path, &sb) < 0)
		return NULL;
	dir = xstrdup(path);
	while (strlen(dir) > 1 && dir[strlen(dir) - 1] == '/')
		dir[strlen(dir) - 1] = '\0';
	if (!S_ISDIR(sb.st_mode)) {
		slash = strrchr(dir, '/');
		if (slash == NULL) {
			free(dir);
			dir = xstrdup(".");
		} else {
			*slash = '\0';
		}
	}
	found = find_in(dir);
	if (found == NULL && (slash = strrchr(dir, '/')) != NULL &&
	    slash != dir) {
		*slash = '\0';
		found = find_in(dir);
	}
	free(dir);
	return found;
}
