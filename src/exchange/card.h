/*
 * card.h - what a trainer's reader needs to read a folder of JSON Lines
 * as intended (issue 25 items 1-3, docs/adr/0040): the dataset card's
 * YAML front matter (licence, configs with per-split data files, the
 * features of every column, task category, size), the names of splits,
 * and the order of a file's head, which readers infer column types from.
 *
 * The features are fixed tables, one per row shape (the sft export for
 * each --for target, a committed sample); the writers build rows with
 * exactly these keys, absent values null.  Called by export_files.c
 * (export -o DIR) and dataset.c (assay commit).
 */
#ifndef ASSAY_CARD_H
#define ASSAY_CARD_H

#include <stddef.h>

#include <jansson.h>

#include "base/buf.h"
#include "base/strset.h"
#include "exchange/export.h"

/* A column of dataset_info.features; tables end with a NULL name. */
struct card_feature {
	const char			*name;
	const char			*dtype;	/* "string", "int64", "float64",
						 * "bool"; NULL: fields */
	const struct card_feature	*fields;	/* a struct */
	int				 list;	/* a list of dtype or fields */
};

/* The columns of an sft row for target, and of a committed sample's
 * line (dataset.c).  Borrowed, static. */
const struct card_feature *card_features_sft(enum export_target target);
extern const struct card_feature card_features_sample[];

/* One data file of a config, in the card. */
struct card_file {
	const char	*config;	/* "default", "failing" */
	const char	*split;		/* card_split_name() */
	const char	*path;		/* relative to the card */
	size_t		 rows;
};

/*
 * The YAML front matter ("---" to "---", newline after) of a card into
 * b: license (the hub's ids of the SPDX ids given: lower case, unknown
 * for NOASSERTION or none; a list when several), task_categories
 * text-generation, tags, size_categories from the rows of the default
 * config, configs (each config's files by split; "default" is the
 * default) and dataset_info with features for every config.
 */
void	card_front_matter(struct buf *b, const char *const *licenses,
	    size_t nlicenses, const struct card_file *files, size_t nfiles,
	    const struct card_feature *features);

/*
 * The name of split in file names and in the card: letters, digits and
 * '_' (any other byte becomes '_', as the hub's split names allow no
 * more), "train" for a task without a split.  Writes at most n bytes.
 */
void	card_split_name(const char *split, char *out, size_t n);

/* Where split goes among a card's files: train, valid, validation, dev,
 * test first in that order (0..4), any other after (100). */
int	card_split_rank(const char *split);

/*
 * The head of a JSON Lines file.  Readers infer each column's type from
 * the first rows (HF datasets from its first 10 MiB, pyarrow from its
 * first block of 1 MiB), and a column that is null throughout them is
 * typed null, so that a later value fails the whole load.  Fed every
 * row in order, card_head_feed() says which rows carry a value at a
 * field path no row of the head (the first CARD_HEAD_BYTES) carried:
 * those the writer moves to the front.  Zero-initialise; release with
 * card_head_release().
 */
#define CARD_HEAD_BYTES	(1u << 20)

struct card_head {
	struct strset	 seen;	/* field paths that had a value */
	size_t		 bytes;	/* of the rows fed so far */
};

/* Feed row (len bytes as written): 1 when it must move to the front. */
int	card_head_feed(struct card_head *h, const json_t *row, size_t len);
void	card_head_release(struct card_head *h);

#endif
