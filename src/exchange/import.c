/*
 * import.c - import_path(): tells the format of an input from the table
 * of importers (importers.h) and runs its reader inside one transaction
 * per input, then gives the tasks it added their licence and repository
 * and journals the import; see import.h and docs/formats.md.
 *
 * Each reader (import_FORMAT.c) turns its input into struct task /
 * struct candidate / struct recorded values and hands them to the store
 * through import_util.c; a problem is an error naming its file and line,
 * and the transaction leaves nothing of a failed input.
 */
#include "exchange/import.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "curate/license.h"
#include "exchange/vcs.h"

void
import_report_init(struct import_report *r)
{
	memset(r, 0, sizeof *r);
	buf_init(&r->warnings);
}

void
import_report_release(struct import_report *r)
{
	if (r != NULL)
		buf_release(&r->warnings);
}

/* The importers by format: importers[IMPORT_X] is X's (none for auto). */
#define IMPORTER_ENTRY(e, file)	[IMPORT_##e] = &importer_##file,
static const struct importer *const importers[] = {
	[IMPORT_AUTO] = NULL,
	IMPORTERS(IMPORTER_ENTRY)
};
#define NIMPORTERS	(sizeof importers / sizeof importers[0])

int
import_format_parse(const char *name, enum import_format *out,
    struct err *err)
{
	struct buf known = BUF_INIT;

	if (strcmp(name, "auto") == 0) {
		*out = IMPORT_AUTO;
		return 0;
	}
	for (size_t i = IMPORT_AUTO + 1; i < NIMPORTERS; i++) {
		if (strcmp(name, importers[i]->name) == 0) {
			*out = (enum import_format)i;
			return 0;
		}
	}
	for (size_t i = IMPORT_AUTO + 1; i < NIMPORTERS; i++)
		buf_printf(&known, " %s", importers[i]->name);
	err_set(err, "unknown format '%s' (known: auto%s)", name,
	    buf_str(&known));
	buf_release(&known);
	return -1;
}

const char *
import_format_name(enum import_format f)
{
	return f == IMPORT_AUTO || (size_t)f >= NIMPORTERS ? "auto" :
	    importers[f]->name;
}

/* --- telling formats apart ------------------------------------------ */

/*
 * The first non-blank line of data as JSON into *row (NULL when it is
 * not JSON: jerr says why).  Returns 0 when every line is blank, else
 * the line's number.
 */
static size_t
first_row(const char *data, size_t len, json_t **row, json_error_t *jerr,
    char *lead)
{
	const char *p = data, *end = data + len;
	size_t line = 0;

	*row = NULL;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl != NULL ? (size_t)(nl - p) : (size_t)(end - p);
		char *fixed;
		size_t flen, k;

		line++;
		for (k = 0; k < l && strchr(" \t\r", p[k]) != NULL; k++)
			;
		if (k == l) {
			p += l + (nl != NULL);
			continue;
		}
		*lead = p[k];
		fixed = import_nan_to_null(p, l, &flen);
		*row = json_loadb(fixed, flen, JSON_REJECT_DUPLICATES, jerr);
		free(fixed);
		return line;
	}
	return 0;
}

/*
 * The format of path for --format auto: the first importer of the table
 * whose layout test takes it, else, for a file, the first whose row test
 * takes its first row.  0, or -1 with err ("path[:line]: ...").
 */
static int
detect(const char *path, enum import_format *out, struct err *err)
{
	struct stat sb;
	struct import_text in;
	json_error_t jerr;
	json_t *row;
	char lead = 0;
	size_t line;

	if (stat(path, &sb) < 0)
		return err_set(err, "%s: %s", path, strerror(errno));
	for (size_t i = IMPORT_AUTO + 1; i < NIMPORTERS; i++)
		if (importers[i]->detect != NULL && importers[i]->detect(path)) {
			*out = (enum import_format)i;
			return 0;
		}
	if (S_ISDIR(sb.st_mode)) {
		char **names;
		size_t n;

		/* A directory that cannot be read says why. */
		if (import_list_dir(path, &names, &n, err) < 0)
			return -1;
		struct buf known = BUF_INIT;

		strv_free(names, n);
		/* the formats that tell a directory by its layout */
		for (size_t i = IMPORT_AUTO + 1; i < NIMPORTERS; i++)
			if (importers[i]->detect != NULL)
				buf_printf(&known, "%s%s", known.len > 0 ?
				    ", " : "", importers[i]->name);
		err_set(err, "%s: cannot tell the format of this directory"
		    " from its layout (the layouts known: %s); give --format"
		    " (import --help lists them all)", path, buf_str(&known));
		buf_release(&known);
		return -1;
	}
	if (import_map(path, &in, err) < 0)
		return -1;
	line = first_row(in.data, in.len, &row, &jerr, &lead);
	import_unmap(&in);
	if (line > 0 && row == NULL && (lead == '{' || lead == '[')) {
		/* JSON that jansson refused (a number out of range, too
		 * deep, a duplicate key): that is the error, not the
		 * format. */
		return err_set(err, "%s:%zu: invalid JSON: %s (column %d)",
		    path, line, jerr.text, jerr.column);
	}
	if (line > 0 && !json_is_object(row)) {
		json_decref(row);
		return err_set(err, "%s:%zu: cannot tell the format: the first"
		    " line is not a JSON object; give --format", path, line);
	}
	/* An empty file asks with no row (the assay format takes it:
	 * nothing to read). */
	for (size_t i = IMPORT_AUTO + 1; i < NIMPORTERS; i++)
		if (importers[i]->detect_row != NULL &&
		    importers[i]->detect_row(row)) {
			*out = (enum import_format)i;
			json_decref(row);
			return 0;
		}
	json_decref(row);
	return err_set(err, "%s:%zu: cannot tell the format from the"
	    " first row; give --format", path, line);
}

/*
 * The licence and repository of the tasks an import added (rowid above
 * since): --license, else the SPDX id of the LICENSE the data ships with
 * (its source the file's last two path components, "rtlfixer/LICENSE");
 * --repository, else the git work tree the path lies in.
 */
static int
provenance(struct store *st, const char *path, const struct import_opts *o,
    int64_t since, struct err *err)
{
	char *lic = NULL, *lsrc = NULL, *repo = NULL, *root = NULL;
	char *from = NULL, *to = NULL, *dir, *real;
	const char *spdx = o->license;
	struct stat sb;
	int rc;

	if (spdx != NULL) {
		lsrc = xstrdup("--license");
	} else if ((lic = license_file(path)) != NULL) {
		char *text;
		size_t len;
		const char *p = lic + strlen(lic);
		int slashes = 0;

		if (import_read_file(lic, &text, &len, err) < 0) {
			free(lic);
			return -1;
		}
		spdx = license_spdx(text, len);
		free(text);
		while (p > lic && slashes < 2)
			if (*--p == '/')
				slashes++;
		lsrc = xstrdup(slashes == 2 ? p + 1 : p);
	}
	/* the folder of the import, as the sources were written */
	dir = xstrdup(path);
	while (strlen(dir) > 1 && dir[strlen(dir) - 1] == '/')
		dir[strlen(dir) - 1] = '\0';
	if (stat(path, &sb) == 0 && !S_ISDIR(sb.st_mode)) {
		char *slash = strrchr(dir, '/');

		if (slash != NULL)
			*slash = '\0';
		else {
			free(dir);
			dir = xstrdup(".");
		}
	}
	if (o->repository != NULL) {
		from = xasprintf("%s/", dir);
		to = xasprintf("%s:", o->repository);
	} else if (vcs_describe(dir, &repo, &root) &&
	    (real = realpath(dir, NULL)) != NULL) {
		size_t n = strlen(root);
		const char *sub = strncmp(real, root, n) == 0 ? real + n : "";

		from = xasprintf("%s/", dir);
		to = xasprintf("%s:%s%s", repo, *sub == '/' ? sub + 1 : sub,
		    *sub != '\0' ? "/" : "");
		free(real);
	}
	rc = store_task_provenance(st, since, spdx, lsrc, from, to, err);
	free(dir);
	free(from);
	free(to);
	free(lic);
	free(lsrc);
	free(repo);
	free(root);
	return rc;
}
static int import_in(struct store *st, const char *path,
    enum import_format f, const struct import_opts *opts,
    struct import_report *rep, struct err *err);

int
import_path(struct store *st, const char *path,
    const struct import_opts *opts, struct import_report *rep,
    struct err *err)
{
	enum import_format f = opts->format;
	int rc;

	if (import_guard_begin(path, rep->watch, err) < 0)
		return -1;
	rc = import_in(st, path, f, opts, rep, err);
	import_guard_end(rc == 0 ? &rep->warnings : NULL);
	return rc;
}

/* import_path() once the input is known to be readable. */
static int
import_in(struct store *st, const char *path, enum import_format f,
    const struct import_opts *opts, struct import_report *rep,
    struct err *err)
{
	int64_t since;
	int rc;

	if (f == IMPORT_AUTO && detect(path, &f, err) < 0)
		return -1;
	if (store_import_begin(st, err) < 0)
		return -1;
	if (store_task_rowid_max(st, &since, err) < 0) {
		store_rollback(st);
		return -1;
	}
	if (f == IMPORT_AUTO || (size_t)f >= NIMPORTERS)
		rc = err_set(err, "%s: no reader for format %s", path,
		    import_format_name(f));
	else
		rc = importers[f]->run(st, path, opts, rep, err);
	if (rc == 0)
		rc = provenance(st, path, opts, since, err);
	if (rc < 0) {
		store_rollback(st);
		if (strncmp(err->msg, path, strlen(path)) != 0) {
			struct err e2;

			/* Say where: a store refusal names no file. */
			err_set(&e2, "%s: %s", path, err->msg);
			*err = e2;
		}
		return -1;
	}
	if (store_event_add(st, opts->by != NULL ? opts->by : "import",
	    "import", NULL, path, err) < 0 ||
	    store_import_publish(st, err) < 0 || store_commit(st, err) < 0) {
		store_rollback(st);
		return -1;
	}
	return 0;
}
