/*
 * feedback.h - a run's feedback object (docs/formats.md "Feedback"):
 * the counterexample, the waveform's first differing window, the
 * bottleneck and the hot lines an env's judge found, kept with the run
 * (struct run.feedback, JSON text) and carried as text into the repair
 * prompt, the SFT feedback turn, show and the panes.
 *
 * Every member is a JSON object with a "text": the compact form, at most
 * FEEDBACK_TEXT_MAX bytes, lines of at most FEEDBACK_LINE_MAX characters,
 * no control character but newline.  feedback_set() makes the text so,
 * whatever the env gave it, so a reader needs no check of its own.
 */
#ifndef ASSAY_FEEDBACK_H
#define ASSAY_FEEDBACK_H

#include <jansson.h>

#include "base/buf.h"
#include "model/sample.h"

#define FEEDBACK_TEXT_MAX 1500	/* bytes of one member's text */
#define FEEDBACK_LINE_MAX 120	/* characters of one of its lines */

/* The members, in the order the text form lists them. */
#define FEEDBACK_MEMBERS \
	"waveform", "counterexample", "bottleneck", "hot_lines"

/*
 * Set member name ("counterexample", "waveform", "bottleneck",
 * "hot_lines") of r->feedback to the object v (consumed), text being its
 * text form (borrowed; made bounded and printable as above, cut lines end
 * in "...", a cut text in "... (cut)").  A v that is not an object, or a
 * name not among FEEDBACK_MEMBERS, is dropped (a programming error in an
 * env, which must not fail a run).  r->feedback is created, or rewritten
 * keeping its other members.  Never fails (xmalloc() dies on OOM).
 */
void	feedback_set(struct run *r, const char *name, json_t *v,
	    const char *text);

/*
 * The text of member name of the feedback JSON text fb, borrowed into
 * *out, or NULL when fb is NULL, not JSON or lacks it.  The caller holds
 * *root (a new reference; json_decref() it when done).
 */
const char *feedback_text(const char *fb, const char *name, json_t **root);

/*
 * Append to b the feedback's texts in FEEDBACK_MEMBERS order, each under
 * a heading ("Counterexample:", "Waveform, first mismatch:",
 * "Bottleneck:", "Hot lines:") and ending in a newline; nothing when fb
 * is NULL or holds no member.  Returns the number of members written.
 */
int	feedback_words(struct buf *b, const char *fb);

#endif
