/*
 * template.h - the prompt templates of generate's strategies (ADR 0045,
 * docs/formats.md "Prompt templates").
 *
 * A template is a text file templates/<domain>/NAME (templates/common/NAME
 * for every domain), compiled into the binary by scripts/embed.sh as
 * share/envs is; a directory named by the environment variable
 * ASSAY_TEMPLATES, laid out the same way, is looked in first, so a
 * template can be changed without a build.  Its lines are text with
 * variables {{name}}, and directives, a line each starting with '@':
 *   @# ...            a comment
 *   @system, @user    the turn the lines after it go to
 *   @choose NAME      alternatives, separated by @or, closed by @end:
 *                     one of them is rendered
 *   @or, @end
 *   @if NAME          the lines up to @end, when variable NAME is set
 *                     and not empty
 * Blocks nest.  Unperturbed, a @choose renders its first alternative;
 * perturbed, the alternative is drawn from the seed, the salt (the task
 * and the sample) and the block's NAME, so that the same seed asks the
 * same prompt again.
 */
#ifndef ASSAY_GENERATE_TEMPLATE_H
#define ASSAY_GENERATE_TEMPLATE_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "base/err.h"

/* A variable: value NULL renders as "" and is false to @if. */
struct tmpl_var {
	const char	*name;
	const char	*value;
};

/* What a rendering gives (release with tmpl_out_release, NULL-safe). */
struct tmpl_out {
	char	*system, *user;	/* the two turns, new strings; a turn the
				 * template does not write is "" */
	char	*name;		/* the template used: "chip/perturb",
				 * "common/direct", new string */
	char	*where;		/* where it was read: "embedded" or the
				 * file's path, new string */
	char	 sha[13];	/* first 12 hex digits of its SHA-256 */
	json_t	*choices;	/* {"NAME": index, ...} of each @choose
				 * rendered, new reference */
};

void	tmpl_out_release(struct tmpl_out *o);

/*
 * Is name a template name (1..64 of [a-z0-9_-])?  1 or 0.
 */
int	tmpl_name_ok(const char *name);

/*
 * Render template NAME of domain (templates/DOMAIN/NAME, else
 * templates/common/NAME; each first under $ASSAY_TEMPLATES) with vars[n].
 * perturb 0 renders each @choose's first alternative; otherwise each
 * draws its alternative from seed, salt and its name.  0 with *out
 * filled, or -1 with err: no such template, or a malformed one
 * ("templates/chip/perturb:12: unknown variable {{foo}}").
 */
int	tmpl_render(const char *domain, const char *name,
	    const struct tmpl_var *vars, size_t n, int perturb, uint64_t seed,
	    const char *salt, struct tmpl_out *out, struct err *err);

#endif
