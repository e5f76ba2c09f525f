/*
 * export_files.c - where export lines go when they go to files: one
 * file (export -o FILE, its failing rows beside it) or a dataset folder
 * (export -o DIR/: a file per split and per config, the card with its
 * front matter, and a trainer's own index where it wants one).  Every
 * file is written under a temporary name and renamed when complete, and
 * its head is made to show every field's type (card.h): the rows that
 * carry a type the first MiB does not are moved to the front.  See
 * export.h; docs/formats.md "Export"; docs/adr/0040.
 */
#include "exchange/export.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/atomic.h"
#include "base/buf.h"
#include "exchange/card.h"

/* --- one file --------------------------------------------------------- */

/* A row moved to the front of its file. */
struct carried {
	size_t	 line;		/* its index in the file as first written */
	char	*text;
	size_t	 len;
};

/* One JSON Lines file being written. */
struct sink {
	char		*path, *tmp;	/* owned */
	FILE		*f;
	char		 split[40];	/* card_split_name(), or "" */
	int		 failing;
	size_t		 lines;
	struct card_head head;
	struct carried	*carry;		/* owned, with their text */
	size_t		 ncarry;
};

static int
sink_open(struct sink *s, const char *path, struct err *err)
{
	memset(s, 0, sizeof *s);
	s->path = xstrdup(path);
	s->f = atomic_create(path, &s->tmp, err);
	if (s->f == NULL) {
		free(s->path);
		free(s->tmp);
		memset(s, 0, sizeof *s);
		return -1;
	}
	return 0;
}

static int
sink_write(struct sink *s, const char *data, size_t len, const json_t *row,
    struct err *err)
{
	if (row != NULL && card_head_feed(&s->head, row, len)) {
		s->carry = xreallocarray(s->carry, s->ncarry + 1,
		    sizeof *s->carry);
		s->carry[s->ncarry].line = s->lines;
		s->carry[s->ncarry].text = xstrndup(data, len);
		s->carry[s->ncarry++].len = len;
	}
	if (fwrite(data, 1, len, s->f) != len)
		return err_set(err, "write %s: %s", s->tmp, strerror(errno));
	s->lines++;
	return 0;
}

static void
sink_release(struct sink *s)
{
	if (s->f != NULL) {
		fclose(s->f);
		unlink(s->tmp);
	}
	for (size_t i = 0; i < s->ncarry; i++)
		free(s->carry[i].text);
	free(s->carry);
	card_head_release(&s->head);
	free(s->path);
	free(s->tmp);
	memset(s, 0, sizeof *s);
}

/*
 * The carried rows first, then the file as written without them, into a
 * new temporary file renamed over the path.  0 or -1 with err.
 */
static int
sink_reorder(struct sink *s, struct err *err)
{
	char *tmp2 = NULL, *line = NULL;
	size_t cap = 0, k = 0, i = 0;
	FILE *in, *out;
	ssize_t n;
	int rc = -1;

	if (fclose(s->f) != 0) {
		s->f = NULL;
		unlink(s->tmp);
		return err_set(err, "write %s: %s", s->tmp, strerror(errno));
	}
	s->f = NULL;
	in = fopen(s->tmp, "r");
	if (in == NULL) {
		err_set(err, "%s: %s", s->tmp, strerror(errno));
		unlink(s->tmp);
		return -1;
	}
	out = atomic_create(s->path, &tmp2, err);
	if (out == NULL)
		goto out;
	for (size_t c = 0; c < s->ncarry; c++)
		fwrite(s->carry[c].text, 1, s->carry[c].len, out);
	while ((n = getline(&line, &cap, in)) > 0) {
		if (k < s->ncarry && s->carry[k].line == i)
			k++;	/* written first */
		else
			fwrite(line, 1, (size_t)n, out);
		i++;
	}
	if (ferror(in) || ferror(out)) {
		err_set(err, "copy %s: %s", s->tmp, strerror(errno));
		fclose(out);
		unlink(tmp2);
		goto out;
	}
	rc = atomic_commit(out, tmp2, s->path, err);
out:
	free(line);
	free(tmp2);
	fclose(in);
	unlink(s->tmp);
	return rc;
}

/* The file complete: in place under its name.  0 or -1 with err. */
static int
sink_commit(struct sink *s, struct err *err)
{
	int rc;

	if (s->ncarry > 0)
		rc = sink_reorder(s, err);
	else
		rc = atomic_commit(s->f, s->tmp, s->path, err);
	s->f = NULL;
	return rc;
}

char *
export_failing_path(const char *path)
{
	size_t n = strlen(path);

	if (n > 6 && strcmp(path + n - 6, ".jsonl") == 0)
		return xasprintf("%.*s.failing.jsonl", (int)(n - 6), path);
	return xasprintf("%s.failing", path);
}

/* export -o FILE: the rows, and the failing ones in a file of their own. */
struct file_out {
	const char	*path;
	int		 reorder;	/* sft: a row's place is free */
	struct sink	 main, failing;
	int		 have_failing;
	size_t		 nfailing;
};

static int
file_write(const char *data, size_t len, const struct export_line *line,
    void *arg, struct err *err)
{
	struct file_out *o = arg;

	if (line->failing) {
		if (!o->have_failing) {
			char *p = export_failing_path(o->path);
			int rc = sink_open(&o->failing, p, err);

			free(p);
			if (rc < 0)
				return -1;
			o->have_failing = 1;
		}
		o->nfailing++;
		return sink_write(&o->failing, data, len, line->row, err);
	}
	/* raw keeps its order: parents before their children */
	return sink_write(&o->main, data, len, o->reorder ? line->row : NULL,
	    err);
}

int
export_file(struct store *st, const struct export_opts *opts,
    const char *path, struct export_report *rep, struct err *err)
{
	struct export_report dummy;
	struct file_out o = { .path = path,
	    .reorder = opts->format == EXPORT_SFT };
	int rc = -1;

	if (rep == NULL)
		rep = &dummy;
	if (sink_open(&o.main, path, err) < 0)
		return -1;
	if (export_run(st, opts, file_write, &o, rep, err) < 0)
		goto out;
	if (opts->cancel != NULL && *opts->cancel) {
		err_set(err, "interrupted");
		goto out;
	}
	if (o.have_failing && sink_commit(&o.failing, err) < 0)
		goto out;
	if (sink_commit(&o.main, err) < 0)
		goto out;
	rep->failing = o.nfailing;
	rc = 0;
out:
	sink_release(&o.main);
	sink_release(&o.failing);
	return rc;
}

/* --- a dataset folder -------------------------------------------------- */

struct dir_out {
	const char		*dir;
	enum export_target	 target;
	struct sink		*v;		/* owned */
	size_t			 n;
	char			**licenses;	/* distinct, owned */
	size_t			 nlicenses;
};

static int
dir_write(const char *data, size_t len, const struct export_line *line,
    void *arg, struct err *err)
{
	struct dir_out *o = arg;
	char split[40];
	size_t i;

	card_split_name(line->split, split, sizeof split);
	for (i = 0; i < o->n; i++)
		if (o->v[i].failing == line->failing &&
		    strcmp(o->v[i].split, split) == 0)
			break;
	if (i == o->n) {
		char *p = xasprintf("%s/%s/%s.jsonl", o->dir, line->failing ?
		    "failing" : "data", split);
		int rc;

		o->v = xreallocarray(o->v, o->n + 1, sizeof *o->v);
		rc = sink_open(&o->v[o->n], p, err);
		free(p);
		if (rc < 0)
			return -1;
		snprintf(o->v[o->n].split, sizeof o->v[o->n].split, "%s",
		    split);
		o->v[o->n].failing = line->failing;
		o->n++;
	}
	if (!line->failing) {
		size_t k;
		const char *lic = line->license != NULL ? line->license :
		    "none";

		for (k = 0; k < o->nlicenses && strcmp(o->licenses[k],
		    lic) != 0; k++)
			;
		if (k == o->nlicenses && o->nlicenses < 64) {
			o->licenses = xreallocarray(o->licenses,
			    o->nlicenses + 1, sizeof *o->licenses);
			o->licenses[o->nlicenses++] = xstrdup(lic);
		}
	}
	return sink_write(&o->v[i], data, len, line->row, err);
}

static int
sink_cmp(const void *a, const void *b)
{
	const struct sink *x = a, *y = b;
	int d = x->failing - y->failing;

	if (d == 0)
		d = card_split_rank(x->split) - card_split_rank(y->split);
	return d != 0 ? d : strcmp(x->split, y->split);
}

static int
make_dir(const char *path, struct err *err)
{
	if (mkdir(path, 0777) < 0 && errno != EEXIST)
		return err_set(err, "mkdir %s: %s", path, strerror(errno));
	return 0;
}

/* The card: front matter, then what is where and how to load it. */
static char *
dir_card(const struct dir_out *o, const struct card_file *files,
    size_t nfiles)
{
	struct buf b = BUF_INIT;
	size_t good = 0, bad = 0;

	for (size_t i = 0; i < nfiles; i++) {
		if (strcmp(files[i].config, "default") == 0)
			good += files[i].rows;
		else
			bad += files[i].rows;
	}
	card_front_matter(&b, (const char *const *)o->licenses,
	    o->nlicenses, files, nfiles, card_features_sft(o->target));
	buf_printf(&b, "# Execution-verified code samples (sft, for %s)\n\n"
	    "Written by `assay export --format sft --for %s -o DIR/`: %zu"
	    " samples whose learnt turn passed a real toolchain run by assay"
	    " (config `default`)", export_target_name(o->target),
	    export_target_name(o->target), good);
	if (bad > 0)
		buf_printf(&b, ", and %zu that did not (config `failing`,"
		    " written by `--include-failing`; never part of"
		    " `default`)", bad);
	buf_adds(&b, ".\n\n| config | split | file | rows |\n"
	    "|---|---|---|---:|\n");
	for (size_t i = 0; i < nfiles; i++)
		buf_printf(&b, "| %s | %s | `%s` | %zu |\n", files[i].config,
		    files[i].split, files[i].path, files[i].rows);
	buf_adds(&b, "\nEvery sample of a task is in its task's split"
	    " (`assay split`); a task without one is in `train`.\n"
	    "Every row has the same keys (`dataset_info` above), an absent"
	    " value is null, and each assistant turn but the last is"
	    " context, never learnt.\n\n## Loading\n\n```python\n"
	    "from datasets import load_dataset\n"
	    "ds = load_dataset(\"path/to/this/folder\")    # the default"
	    " config: verified samples only\n");
	if (bad > 0)
		buf_adds(&b, "failing = load_dataset(\"path/to/this/folder\","
		    " \"failing\")\n");
	buf_adds(&b, "```\n\n");
	switch (o->target) {
	case EXPORT_FOR_TRL:
		buf_adds(&b, "Rows are TRL's conversational prompt/completion:"
		    " the requirement, each failed attempt and its toolchain"
		    " feedback are the prompt, the final code alone is the"
		    " completion, which `SFTTrainer` learns by default"
		    " (`completion_only_loss`).\n");
		break;
	case EXPORT_FOR_OPENAI:
		buf_adds(&b, "Each file is an OpenAI chat fine-tuning file:"
		    " failed assistant turns carry `\"weight\": 0`, the"
		    " learnt one `\"weight\": 1`.\n");
		break;
	case EXPORT_FOR_LLAMAFACTORY:
		buf_adds(&b, "For LLaMA-Factory: `dataset_dir` is this folder,"
		    " `dataset_info.json` names each split (`assay_train`,"
		    " ...) with its columns and tags, and"
		    " `llamafactory_args.yaml` sets `mask_history: true`, so"
		    " that only the last turn is learnt.\n");
		break;
	case EXPORT_FOR_INCODER:
		buf_adds(&b, "Each row has `messages` and"
		    " `only_last_turn_loss: true`, which `binarize_data.py`"
		    " reads: only the last assistant turn is learnt.\n");
		break;
	case EXPORT_FOR_ASSAY:
	default:
		buf_adds(&b, "Failed assistant turns carry `\"weight\": 0`,"
		    " the learnt one `\"weight\": 1`, the row"
		    " `only_last_turn_loss: true`, and `meta.turns` names the"
		    " target's index; `--for openai|trl|llamafactory|incoder`"
		    " writes each trainer's own form.\n");
		break;
	}
	return buf_detach(&b, NULL);
}

/* dataset_info.json and the training arguments, for LLaMA-Factory. */
static int
dir_llamafactory(const struct dir_out *o, const struct card_file *files,
    size_t nfiles, struct err *err)
{
	json_t *info = json_object();
	struct buf args = BUF_INIT;
	char *text, *p;
	int rc;

	for (size_t i = 0; i < nfiles; i++) {
		char name[64];

		snprintf(name, sizeof name, "assay_%s%s", strcmp(
		    files[i].config, "default") == 0 ? "" : "failing_",
		    files[i].split);
		json_object_set_new(info, name, json_pack("{s:s, s:s,"
		    " s:{s:s}, s:{s:s, s:s, s:s, s:s, s:s}}", "file_name",
		    files[i].path, "formatting", "sharegpt", "columns",
		    "messages", "messages", "tags", "role_tag", "role",
		    "content_tag", "content", "user_tag", "user",
		    "assistant_tag", "assistant", "system_tag", "system"));
	}
	text = json_dumps(info, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(info);
	p = xasprintf("%s/dataset_info.json", o->dir);
	rc = atomic_write(p, text, err);
	free(p);
	free(text);
	if (rc < 0)
		return -1;
	/* mask_history is a training argument, not a dataset's */
	buf_adds(&args, "# LLaMA-Factory training arguments for this folder"
	    " (assay export --for llamafactory):\n# merge into your training"
	    " YAML.  mask_history learns the last turn only; the\n# failed"
	    " attempts and their feedback before it are context.\n"
	    "dataset_dir: .\n");
	/* train on the default config's splits but the held-out ones */
	for (size_t i = 0, n = 0; i < nfiles; i++) {
		int held = card_split_rank(files[i].split) > 0 &&
		    card_split_rank(files[i].split) < 100;

		if (strcmp(files[i].config, "default") != 0 || held)
			continue;
		buf_printf(&args, "%sassay_%s", n++ == 0 ? "dataset: " : ",",
		    files[i].split);
	}
	/* a dataset line was started: end it */
	if (args.p[args.len - 1] != '\n')
		buf_adds(&args, "\n");
	else
		buf_adds(&args, "# no split to train on: give tasks splits"
		    " (assay split) and export again\n");
	buf_adds(&args, "mask_history: true\n");
	p = xasprintf("%s/llamafactory_args.yaml", o->dir);
	rc = atomic_write(p, buf_str(&args), err);
	free(p);
	buf_release(&args);
	return rc;
}

int
export_dir(struct store *st, const struct export_opts *opts,
    const char *dir, struct export_report *rep, struct err *err)
{
	struct export_report dummy;
	struct dir_out o = { .dir = dir, .target = opts->target };
	struct card_file *files = NULL;
	char *p, *text;
	int rc = -1;

	if (rep == NULL)
		rep = &dummy;
	if (opts->format != EXPORT_SFT)
		return err_set(err, "a folder is written for --format sft");
	if (make_dir(dir, err) < 0)
		return -1;
	p = xasprintf("%s/data", dir);
	rc = make_dir(p, err);
	free(p);
	if (rc < 0)
		return -1;
	p = xasprintf("%s/failing", dir);
	rc = opts->include_failing ? make_dir(p, err) : 0;
	free(p);
	if (rc < 0)
		return -1;
	rc = -1;
	if (export_run(st, opts, dir_write, &o, rep, err) < 0)
		goto out;
	if (opts->cancel != NULL && *opts->cancel) {
		err_set(err, "interrupted");
		goto out;
	}
	if (o.n == 0) {
		/* nothing to train on: the folder still has its layout
		 * (an empty train split, which datasets refuses to load) */
		o.v = xcalloc(1, sizeof *o.v);
		p = xasprintf("%s/data/train.jsonl", dir);
		rc = sink_open(&o.v[0], p, err);
		free(p);
		if (rc < 0)
			goto out;
		rc = -1;
		snprintf(o.v[0].split, sizeof o.v[0].split, "train");
		o.n = 1;
	}
	qsort(o.v, o.n, sizeof *o.v, sink_cmp);
	files = xcalloc(o.n, sizeof *files);
	for (size_t i = 0; i < o.n; i++) {
		files[i].config = o.v[i].failing ? "failing" : "default";
		files[i].split = o.v[i].split;
		files[i].path = o.v[i].path + strlen(dir) + 1;
		files[i].rows = o.v[i].lines;
		if (o.v[i].failing)
			rep->failing += o.v[i].lines;
	}
	for (size_t i = 0; i < o.n; i++)
		if (sink_commit(&o.v[i], err) < 0)
			goto out;
	if (opts->target == EXPORT_FOR_LLAMAFACTORY &&
	    dir_llamafactory(&o, files, o.n, err) < 0)
		goto out;
	text = dir_card(&o, files, o.n);
	p = xasprintf("%s/README.md", dir);
	rc = atomic_write(p, text, err);
	free(p);
	free(text);
out:
	free(files);
	for (size_t i = 0; i < o.n; i++)
		sink_release(&o.v[i]);
	free(o.v);
	for (size_t i = 0; i < o.nlicenses; i++)
		free(o.licenses[i]);
	free(o.licenses);
	return rc;
}
