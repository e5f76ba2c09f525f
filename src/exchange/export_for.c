/*
 * export_for.c - the sft rows of `export --for TARGET`: one row of
 * messages and meta (export.c) shaped the way each trainer reads it, so
 * that each learns only the last assistant turn by its own convention
 * (docs/formats.md "Export for a trainer", docs/adr/0040).  Called by
 * export.c for every sft row; the features a card states for each
 * shape are in card.c.
 */
#include "exchange/export.h"

#include <string.h>

static const struct {
	enum export_target	 target;
	const char		*name;
} targets[] = {
	{ EXPORT_FOR_ASSAY, "assay" },
	{ EXPORT_FOR_OPENAI, "openai" },
	{ EXPORT_FOR_TRL, "trl" },
	{ EXPORT_FOR_LLAMAFACTORY, "llamafactory" },
	{ EXPORT_FOR_INCODER, "incoder" },
};

int
export_target_parse(const char *name, enum export_target *out,
    struct err *err)
{
	for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++)
		if (strcmp(name, targets[i].name) == 0) {
			*out = targets[i].target;
			return 0;
		}
	return err_set(err, "unknown target '%s' (known: assay openai trl"
	    " llamafactory incoder)", name);
}

const char *
export_target_name(enum export_target t)
{
	for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++)
		if (targets[i].target == t)
			return targets[i].name;
	return "assay";
}

/*
 * A copy of message m: role and content, and its weight when with is
 * "all" (null where m has none) or "assistant" (assistant turns only).
 */
static json_t *
message(const json_t *m, const char *with)
{
	const char *role = json_string_value(json_object_get(m, "role"));
	json_t *w = json_object_get(m, "weight");
	json_t *o = json_pack("{s:O, s:O}", "role", json_object_get(m,
	    "role"), "content", json_object_get(m, "content"));

	if (with != NULL && (strcmp(with, "all") == 0 || (role != NULL &&
	    strcmp(role, "assistant") == 0)))
		json_object_set(o, "weight", w != NULL ? w : json_null());
	return o;
}

/* msgs[from, to) as new messages (message()'s with). */
static json_t *
messages(const json_t *msgs, size_t from, size_t to, const char *with)
{
	json_t *a = json_array();

	for (size_t i = from; i < to; i++)
		json_array_append_new(a, message(json_array_get(msgs, i),
		    with));
	return a;
}

json_t *
export_shape(enum export_target target, json_t *msgs, json_t *meta)
{
	size_t n = json_array_size(msgs);
	json_t *o = json_object();

	switch (target) {
	case EXPORT_FOR_OPENAI:
		/* OpenAI's lines: messages alone; weight 0 keeps a failed
		 * turn out of the loss, 1 learns the last */
		json_object_set_new(o, "messages", messages(msgs, 0, n,
		    "assistant"));
		json_decref(meta);
		meta = NULL;
		break;
	case EXPORT_FOR_TRL:
		/* completion_only_loss learns the completion alone: the
		 * final code; the failed turns and feedback are prompt */
		json_object_set_new(o, "prompt", messages(msgs, 0,
		    n > 0 ? n - 1 : 0, NULL));
		json_object_set_new(o, "completion", messages(msgs,
		    n > 0 ? n - 1 : 0, n, NULL));
		break;
	case EXPORT_FOR_LLAMAFACTORY:
		/* mask_history (a training argument) learns the last
		 * turn; dataset_info.json names the columns and tags */
		json_object_set_new(o, "messages", messages(msgs, 0, n,
		    NULL));
		break;
	case EXPORT_FOR_INCODER:
		json_object_set_new(o, "messages", messages(msgs, 0, n,
		    NULL));
		json_object_set_new(o, "only_last_turn_loss", json_true());
		break;
	case EXPORT_FOR_ASSAY:
	default:
		/* the stable schema: every message has every key */
		json_object_set_new(o, "messages", messages(msgs, 0, n,
		    "all"));
		json_object_set_new(o, "only_last_turn_loss", json_true());
		break;
	}
	if (meta != NULL)
		json_object_set_new(o, "meta", meta);
	json_decref(msgs);
	return o;
}
