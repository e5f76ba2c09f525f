/*
 * card.c - dataset card front matter, split names and the head order of
 * JSON Lines files; see card.h.  The feature tables below are the
 * schema the writers keep to: export.c and export_for.c for sft rows,
 * dataset.c for a committed sample.
 */
#include "exchange/card.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#define F_STR(n)	{ n, "string", NULL, 0 }
#define F_INT(n)	{ n, "int64", NULL, 0 }
#define F_REAL(n)	{ n, "float64", NULL, 0 }
#define F_BOOL(n)	{ n, "bool", NULL, 0 }
#define F_STRUCT(n, f)	{ n, NULL, f, 0 }
#define F_LIST(n, f)	{ n, NULL, f, 1 }
#define F_END		{ NULL, NULL, NULL, 0 }

/* --- the schemas ------------------------------------------------------ */

static const struct card_feature file_hash[] = {
	F_STR("name"), F_STR("sha256"), F_END
};

static const struct card_feature provenance[] = {
	F_STR("license"), F_STR("license_source"), F_STR("source"),
	F_LIST("files", file_hash), F_END
};

/* export.c labels_json(), stable */
static const struct card_feature label[] = {
	F_STR("category"), F_STR("subcategory"), F_STR("note"),
	F_STR("evidence"), F_BOOL("final"), F_STR("by"), F_INT("at"), F_END
};

/* export.c turn_json() */
static const struct card_feature turn[] = {
	F_INT("message"), F_STR("candidate"), F_STR("origin"),
	F_STR("verdict"), F_BOOL("target"), F_END
};

/* export.c gain_json(): an optimisation's measured gain */
static const struct card_feature gain[] = {
	F_STR("metric"), F_STR("measured"), F_REAL("before"), F_REAL("after"),
	F_REAL("ratio"), F_REAL("threshold"), F_BOOL("counts"), F_END
};

/* export.c sft_one(), in the order written */
static const struct card_feature meta[] = {
	F_STR("task"), F_STR("benchmark"), F_STR("domain"), F_STR("env"),
	F_STR("toolchain"), F_STR("verdict"), F_BOOL("verified"),
	F_REAL("speedup"), F_STR("split"), F_STR("license"),
	F_STRUCT("provenance", provenance), F_LIST("labels", label),
	F_STR("reviewer"), F_STR("status"), F_STR("candidate"),
	F_STR("parent"), F_STR("kind"), F_STR("origin"), F_STR("lang"),
	F_STR("feedback"), F_LIST("turns", turn), F_STRUCT("gain", gain),
	F_END
};

static const struct card_feature message_w[] = {
	F_STR("role"), F_STR("content"), F_INT("weight"), F_END
};

static const struct card_feature message[] = {
	F_STR("role"), F_STR("content"), F_END
};

static const struct card_feature sft_assay[] = {
	F_LIST("messages", message_w), F_BOOL("only_last_turn_loss"),
	F_STRUCT("meta", meta), F_END
};

static const struct card_feature sft_openai[] = {
	F_LIST("messages", message_w), F_END
};

static const struct card_feature sft_trl[] = {
	F_LIST("prompt", message), F_LIST("completion", message),
	F_STRUCT("meta", meta), F_END
};

static const struct card_feature sft_llamafactory[] = {
	F_LIST("messages", message), F_STRUCT("meta", meta), F_END
};

static const struct card_feature sft_incoder[] = {
	F_LIST("messages", message), F_BOOL("only_last_turn_loss"),
	F_STRUCT("meta", meta), F_END
};

const struct card_feature *
card_features_sft(enum export_target target)
{
	switch (target) {
	case EXPORT_FOR_OPENAI:
		return sft_openai;
	case EXPORT_FOR_TRL:
		return sft_trl;
	case EXPORT_FOR_LLAMAFACTORY:
		return sft_llamafactory;
	case EXPORT_FOR_INCODER:
		return sft_incoder;
	case EXPORT_FOR_ASSAY:
	default:
		return sft_assay;
	}
}

static const struct card_feature sample_label[] = {
	F_STR("category"), F_STR("subcategory"), F_STR("by"), F_END
};

static const struct card_feature sample_review[] = {
	F_STR("status"), F_STR("note"), F_STR("by"), F_END
};

static const struct card_feature sample_run[] = {
	F_STR("verdict"), F_STR("stage"), F_STR("subcategory"), F_STR("env"),
	F_STR("toolchain"), F_STR("metrics"), F_LIST("inputs", file_hash),
	F_END
};

/* dataset.c sample_line() */
const struct card_feature card_features_sample[] = {
	F_STR("id"), F_STR("task"), F_STR("domain"), F_STR("benchmark"),
	F_STR("split"), F_STR("path"), F_STR("origin"), F_STR("origin_raw"),
	F_STR("kind"), F_STR("lang"), F_STR("parent"), F_STR("source"),
	F_STR("license"), F_STR("code"), F_STR("code_sha256"),
	F_STRUCT("label", sample_label), F_STRUCT("review", sample_review),
	F_STRUCT("run", sample_run), F_BOOL("verified"), F_END
};

/* --- the front matter ------------------------------------------------- */

static void
yaml_features(struct buf *b, const struct card_feature *f, int indent)
{
	for (; f->name != NULL; f++) {
		buf_printf(b, "%*s- name: %s\n", indent, "", f->name);
		if (f->dtype != NULL)
			buf_printf(b, "%*s  %s: %s\n", indent, "", f->list ?
			    "list" : "dtype", f->dtype);
		else {
			buf_printf(b, "%*s  %s:\n", indent, "", f->list ?
			    "list" : "struct");
			yaml_features(b, f->fields, indent + 2);
		}
	}
}

/* The hub's licence id of an SPDX id: lower case; unknown for none. */
static void
hub_license(const char *spdx, char *out, size_t n)
{
	size_t i = 0;

	if (spdx == NULL || *spdx == '\0' || strcmp(spdx, "none") == 0 ||
	    strcmp(spdx, "NOASSERTION") == 0)
		spdx = "unknown";
	for (; spdx[i] != '\0' && i + 1 < n; i++)
		out[i] = isalnum((unsigned char)spdx[i]) || spdx[i] == '.' ||
		    spdx[i] == '-' || spdx[i] == '+' ?
		    (char)tolower((unsigned char)spdx[i]) : '-';
	out[i] = '\0';
}

/* The hub's size category of n rows. */
static const char *
size_category(size_t n)
{
	static const struct { size_t below; const char *name; } cat[] = {
		{ 1000, "n<1K" }, { 10000, "1K<n<10K" },
		{ 100000, "10K<n<100K" }, { 1000000, "100K<n<1M" },
		{ 10000000, "1M<n<10M" }, { 100000000, "10M<n<100M" },
	};

	for (size_t i = 0; i < sizeof cat / sizeof cat[0]; i++)
		if (n < cat[i].below)
			return cat[i].name;
	return "100M<n<1B";
}

void
card_front_matter(struct buf *b, const char *const *licenses,
    size_t nlicenses, const struct card_file *files, size_t nfiles,
    const struct card_feature *features)
{
	struct strset seen = STRSET_INIT;
	const char *configs[8];
	size_t nconfigs = 0, rows = 0, nlic = 0;
	struct buf lic = BUF_INIT;

	for (size_t i = 0; i < nlicenses; i++) {
		char id[64];

		hub_license(licenses[i], id, sizeof id);
		if (strset_add(&seen, id)) {
			buf_printf(&lic, "- %s\n", id);
			nlic++;
		}
	}
	strset_release(&seen);
	if (nlic == 0)
		buf_adds(&lic, "- unknown\n");
	buf_adds(b, "---\nlicense:");
	if (nlic <= 1)
		buf_printf(b, " %.*s\n", (int)(lic.len > 3 ? lic.len - 3 : 0),
		    lic.len > 2 ? lic.p + 2 : "");
	else
		buf_printf(b, "\n%s", buf_str(&lic));
	buf_release(&lic);
	for (size_t i = 0; i < nfiles; i++) {
		size_t k;

		if (strcmp(files[i].config, "default") == 0)
			rows += files[i].rows;
		for (k = 0; k < nconfigs && strcmp(configs[k],
		    files[i].config) != 0; k++)
			;
		if (k == nconfigs && nconfigs < sizeof configs /
		    sizeof configs[0])
			configs[nconfigs++] = files[i].config;
	}
	buf_printf(b, "task_categories:\n- text-generation\n"
	    "tags:\n- code\n- execution-verified\n"
	    "size_categories:\n- %s\nconfigs:\n", size_category(rows));
	for (size_t k = 0; k < nconfigs; k++) {
		buf_printf(b, "- config_name: %s\n", configs[k]);
		if (strcmp(configs[k], "default") == 0)
			buf_adds(b, "  default: true\n");
		buf_adds(b, "  data_files:\n");
		for (size_t i = 0; i < nfiles; i++)
			if (strcmp(files[i].config, configs[k]) == 0)
				buf_printf(b, "  - split: %s\n    path: %s\n",
				    files[i].split, files[i].path);
	}
	buf_adds(b, "dataset_info:\n");
	for (size_t k = 0; k < nconfigs; k++) {
		buf_printf(b, "- config_name: %s\n  features:\n", configs[k]);
		yaml_features(b, features, 2);
	}
	buf_adds(b, "---\n\n");
}

void
card_split_name(const char *split, char *out, size_t n)
{
	size_t i = 0;

	if (split == NULL || *split == '\0')
		split = "train";
	for (; split[i] != '\0' && i + 1 < n; i++)
		out[i] = isalnum((unsigned char)split[i]) ? split[i] : '_';
	out[i] = '\0';
}

int
card_split_rank(const char *split)
{
	static const char *const order[] = { "train", "valid",
	    "validation", "dev", "test" };

	for (int i = 0; i < (int)(sizeof order / sizeof order[0]); i++)
		if (strcmp(split, order[i]) == 0)
			return i;
	return 100;
}

/* --- the head --------------------------------------------------------- */

/*
 * Every field path of v that holds a value (not null, not an empty
 * list) under prefix: "meta.speedup", "meta.labels[].note".  With add,
 * put them in set; else stop at the first one set does not hold.
 * Returns 1 when a path was missing from set.
 */
static int
paths(struct strset *set, struct buf *prefix, const json_t *v, int add)
{
	size_t len = prefix->len;
	int missing = 0;

	if (json_is_object(v)) {
		const char *k;
		json_t *e;

		json_object_foreach((json_t *)v, k, e) {
			buf_printf(prefix, ".%s", k);
			missing |= paths(set, prefix, e, add);
			prefix->len = len;
			prefix->p[len] = '\0';
			if (missing && !add)
				break;
		}
	} else if (json_is_array(v)) {
		size_t i;
		json_t *e;

		buf_adds(prefix, "[]");
		json_array_foreach(v, i, e) {
			missing |= paths(set, prefix, e, add);
			if (missing && !add)
				break;
		}
		prefix->len = len;
		prefix->p[len] = '\0';
	} else if (!json_is_null(v)) {
		const char *p = buf_str(prefix);

		if (add)
			missing = strset_add(set, p);
		else
			missing = !strset_has(set, p);
	}
	return missing;
}

int
card_head_feed(struct card_head *h, const json_t *row, size_t len)
{
	struct buf prefix = BUF_INIT;
	int carrier = 0;

	buf_adds(&prefix, "");
	if (h->bytes < CARD_HEAD_BYTES)
		paths(&h->seen, &prefix, row, 1);
	else if (paths(&h->seen, &prefix, row, 0)) {
		/* a type the head does not show: this row goes first */
		prefix.len = 0;
		prefix.p[0] = '\0';
		paths(&h->seen, &prefix, row, 1);
		carrier = 1;
	}
	buf_release(&prefix);
	h->bytes += len;
	return carrier;
}

void
card_head_release(struct card_head *h)
{
	strset_release(&h->seen);
	h->bytes = 0;
}
