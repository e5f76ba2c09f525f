/*
 * triage.c - failure categories from diagnostics and code; see triage.h.
 * The rules are data, held by each env (struct env_rule, its rules[]):
 * add a line there to teach assay a new cause.
 */
#include "verify/triage.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/buf.h"
#include "base/err.h"
#include "envs/env.h"
#include "envs/verilog.h"
#include "model/vocab.h"

static void
set(char **field, const char *v)
{
	free(*field);
	*field = v != NULL ? xstrdup(v) : NULL;
}

/* Length of the line at p (up to '\n' or end). */
static size_t
line_len(const char *p, const char *end)
{
	const char *nl = memchr(p, '\n', (size_t)(end - p));

	return nl != NULL ? (size_t)(nl - p) : (size_t)(end - p);
}

static int
blank_or_comment(const char *p, size_t n)
{
	while (n > 0 && (*p == ' ' || *p == '\t' || *p == '\r')) {
		p++;
		n--;
	}
	return n == 0 || (n >= 2 && p[0] == '/' && (p[1] == '/' || p[1] == '*'))
	    || p[0] == '*';
}

/* A line of English prose: a capitalised word followed by more words
 * and no Verilog punctuation. */
static int
prose(const char *p, size_t n)
{
	size_t words = 0;

	while (n > 0 && (*p == ' ' || *p == '\t'))
		p++, n--;
	if (n == 0 || *p < 'A' || *p > 'Z')
		return 0;
	for (size_t i = 0; i < n; i++) {
		if (strchr(";=<>(){}[]@#`$", p[i]) != NULL)
			return 0;
		if (p[i] == ' ' && i + 1 < n && p[i + 1] != ' ')
			words++;
	}
	return words >= 3;
}

static int
is_ident(char ch)
{
	return ch == '_' || (ch >= '0' && ch <= '9') ||
	    ((ch | 32) >= 'a' && (ch | 32) <= 'z');
}

/* Does w stand in code as a whole word? */
static int
has_word(const char *code, size_t len, const char *w)
{
	size_t wl = strlen(w);

	for (const char *p = code; p + wl <= code + len; p++)
		if (memcmp(p, w, wl) == 0 && (p == code || !is_ident(p[-1])) &&
		    (p + wl == code + len || !is_ident(p[wl])))
			return 1;
	return 0;
}

/* Does code declare "module NAME" for a name of the space-separated
 * list names?  Comments are skipped (verilog_next_module()). */
static int
declares_one(const char *code, size_t len, const char *names)
{
	const char *p = code, *n, *w;
	size_t nl;

	while ((n = verilog_next_module(code, len, &p, &nl)) != NULL)
		for (w = names; *w != '\0'; ) {
			size_t wl = strcspn(w, " ");

			if (wl == nl && memcmp(w, n, nl) == 0)
				return 1;
			w += wl;
			w += *w == ' ';
		}
	return 0;
}

const char *
triage_format(const char *code, size_t len, const char *lang, int compiled,
    int *line)
{
	return triage_format_tops(code, len, lang, compiled, NULL, line);
}

const char *
triage_format_tops(const char *code, size_t len, const char *lang,
    int compiled, const char *tops, int *line)
{
	const char *p = code, *end = code + len, *last_end = NULL;
	int n = 0, first_code = 0, verilog = lang != NULL &&
	    strcmp(lang, "verilog") == 0;
	int prose_line = 0;

	*line = 0;
	for (; p < end; p += line_len(p, end) + 1) {
		size_t l = line_len(p, end);
		const char *s = p;

		n++;
		while (s < p + l && (*s == ' ' || *s == '\t'))
			s++;
		if (p + l - s >= 3 && memcmp(s, "```", 3) == 0) {
			*line = n;
			return "markdown-fence";
		}
		if (!verilog || blank_or_comment(p, l))
			continue;
		if (first_code == 0) {
			first_code = n;
			if (prose(p, l))
				prose_line = n;
		}
		if (last_end != NULL && prose(p, l) && prose_line == 0)
			prose_line = n;
		if (has_word(p, l, "endmodule"))
			last_end = p;
	}
	if (prose_line > 0) {
		*line = prose_line;
		return "prose";
	}
	if (verilog && !compiled && (tops != NULL ? !declares_one(code, len,
	    tops) : !has_word(code, len, "TopModule") &&
	    !has_word(code, len, "top_module"))) {
		*line = 1;
		return "missing-top";
	}
	return NULL;
}

/* Is the word at p, of length n, assigned here ("x =", "x <=",
 * "assign x") rather than compared ("x ==", "x <= y" in an if)? */
static int
drives(const char *line, size_t len, const char *p, size_t n)
{
	const char *q = p + n, *end = line + len, *s = line;


	while (s < p && (*s == ' ' || *s == '\t'))
		s++;
	if (end - s >= 6 && memcmp(s, "assign", 6) == 0) {
		/* "assign x = ...": only the target is driven. */
		for (s += 6; s < p && (*s == ' ' || *s == '\t'); s++)
			;
		return s == p;
	}
	while (q < end && (*q == ' ' || *q == '\t'))
		q++;
	if (q < end && *q == '[') {		/* x[3] <= ... */
		while (q < end && *q != ']')
			q++;
		if (q < end)
			q++;
		while (q < end && (*q == ' ' || *q == '\t'))
			q++;
	}
	if (q < end && *q == '=' && (q + 1 >= end || q[1] != '='))
		return 1;
	/* "x <=" starting a statement is a non-blocking assignment; after
	 * "if (" or an operator it is a comparison. */
	if (q + 1 >= end || q[0] != '<' || q[1] != '=')
		return 0;
	for (q = p; q > line && (q[-1] == ' ' || q[-1] == '\t'); q--)
		;
	return q == line || q[-1] == ';' || q[-1] == ')' || q[-1] == ':' ||
	    (q - line >= 5 && memcmp(q - 5, "begin", 5) == 0) ||
	    (q - line >= 4 && memcmp(q - 4, "else", 4) == 0);
}

/*
 * The output a mismatch line names, into word: VerilogEval's "Hint: Output
 * 'q' has 86 mismatches.", RealBench's "Hint: Output text_out has 287
 * mismatches." and "wo_0 has 176 mismatches." (its "total has N
 * mismatches" names none).  1 when there is one.
 */
static int
output_name(const char *evidence, char *word, size_t n)
{
	const char *quoted = strstr(evidence, "Output '");
	const char *plain = strstr(evidence, "Output "), *name, *q;
	long k;

	if (quoted != NULL) {
		name = quoted + 8;
		q = strchr(name, '\'');
	} else {
		name = plain != NULL ? plain + 7 : evidence;
		for (q = name; is_ident(*q); q++)
			;
		if (sscanf(q, " has %ld mismatches", &k) != 1 ||
		    ((size_t)(q - name) == 5 && memcmp(name, "total", 5) == 0))
			return 0;
	}
	if (q == NULL || q == name || (size_t)(q - name) >= n)
		return 0;
	memcpy(word, name, (size_t)(q - name));
	word[q - name] = '\0';
	return 1;
}

int
triage_output_line(const char *code, size_t len, const char *evidence)
{
	const char *p, *end;
	char word[128];
	int n = 0, decl = 0, drive = 0;
	size_t wl;

	if (!output_name(evidence, word, sizeof word))
		return 0;
	wl = strlen(word);
	for (p = code, end = code + len; p < end; p += line_len(p, end) + 1) {
		size_t l = line_len(p, end);

		n++;
		for (const char *w = p; w + wl <= p + l; w++) {
			if (memcmp(w, word, wl) != 0 || (w > p && is_ident(w[-1])) ||
			    (w + wl < p + l && is_ident(w[wl])))
				continue;
			if (drives(p, l, w, wl)) {
				drive = n;	/* the last one drives it */
				break;
			}
			if (decl == 0)
				decl = n;
		}
	}
	return drive != 0 ? drive : decl;
}

/*
 * The text of a diagnostic as its log line holds it.  Verilator's carry
 * their code in front ("PROCASSWIRE: Procedural ..."), which its line
 * puts before the place ("%Error-PROCASSWIRE: f.sv:11:20: Procedural").
 */
static const char *
diag_text(const char *msg)
{
	const char *p = msg;

	while ((*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
	    *p == '_')
		p++;
	return p > msg && p[0] == ':' && p[1] == ' ' ? p + 2 : msg;
}

/*
 * How well evidence quotes d: 2 its place ("FILE:LINE:") and its text, 1
 * its text only, of 8 characters or more (a message without a place, or
 * one that yosys printed apart from the lines it names), 0 not at all.
 */
static int
quotes(const char *evidence, const struct diag *d)
{
	const char *text = diag_text(d->message), *p;
	char at[320];
	size_t al;
	int placed = 0;

	if (d->file[0] != '\0' && d->line > 0) {
		snprintf(at, sizeof at, "%s:%d:", d->file, d->line);
		al = strlen(at);
		for (p = evidence; (p = strstr(p, at)) != NULL; p += al)
			if (p == evidence || p[-1] == ' ' || p[-1] == '\t') {
				placed = 1;
				break;
			}
	}
	if (text[0] == '\0')
		return placed ? 2 : 0;
	if (strstr(evidence, text) == NULL)
		return 0;
	/* Without its place, a short text ("x") could be anywhere. */
	return placed ? 2 : strlen(text) >= 8;
}

/*
 * The diagnostic the evidence quotes, or NULL: the best quote, an error
 * before a warning, else the first.  Several diagnostics can share a
 * message (PROCASSWIRE on five lines); the place tells them apart.
 */
static const struct diag *
quoted_diag(const struct run *r)
{
	const struct diag *best = NULL;
	int score = 0;

	for (size_t d = 0; d < r->ndiags; d++) {
		const struct diag *dg = &r->diags[d];
		int s;

		if (strcmp(dg->severity, "note") == 0)
			continue;
		s = 2 * quotes(r->evidence, dg);
		if (s == 0)
			continue;
		s += strcmp(dg->severity, "error") == 0;
		if (s > score) {
			best = dg;
			score = s;
		}
	}
	return best;
}

/*
 * The modules a compile log says it could not find (Icarus Verilog's
 * "Unknown module type: NAME", on the line that instantiates it),
 * space-separated: the modules the task's files expect, as the tool read
 * them.  New string, or NULL when the log names none.
 */
static char *
unknown_modules(const struct run *r)
{
	static const char tag[] = "Unknown module type: ";
	struct buf b = BUF_INIT;

	for (size_t d = 0; d < r->ndiags; d++) {
		const char *m = strstr(r->diags[d].message, tag), *e;

		if (m == NULL)
			continue;
		m += sizeof tag - 1;
		for (e = m; verilog_is_ident((unsigned char)*e); e++)
			;
		if (e == m)
			continue;
		if (b.len > 0)
			buf_addc(&b, ' ');
		buf_add(&b, m, (size_t)(e - m));
	}
	return b.len > 0 ? buf_detach(&b, NULL) : NULL;
}

/* Does c hold no code (nothing but white space)? */
static int
no_code(const struct candidate *c)
{
	for (size_t i = 0; i < c->code_len; i++)
		if (c->code[i] != ' ' && c->code[i] != '\t' &&
		    c->code[i] != '\n' && c->code[i] != '\r')
			return 0;
	return 1;
}

/*
 * Was c a model's refusal: a generation record (generate.h) with a
 * refusal?  It names the subcategory only: an empty candidate fails
 * whatever its record says.
 */
static int
refusal_of(const struct candidate *c)
{
	json_t *x = c->extra != NULL ? json_loads(c->extra, 0, NULL) : NULL;
	int r = json_is_string(json_object_get(json_object_get(x,
	    "generation"), "refusal"));

	json_decref(x);
	return r;
}

void
triage_apply(const char *env, const struct candidate *c, const char *tops,
    struct run *r)
{
	const struct env_ops *ops = env_find(env);
	const char *fmt;
	char *known;
	int line, compiled;

	if (!verdict_failed(r->verdict))
		return;
	/* No code at all: nothing to compile or run, whatever the env
	 * says of an empty file (format wins, design.md section 3). */
	if (no_code(c)) {
		int refused = refusal_of(c);

		set(&r->category, category_name(CATEGORY_FORMAT));
		set(&r->subcategory, refused ? "refusal" : "no-code");
		set(&r->evidence, refused ? "the model refused; the refusal is"
		    " the generation record's (show)" : "the candidate holds"
		    " no code");
		r->evidence_line = 0;
		return;
	}
	/* The modules the task expects: those tops() reads from its files,
	 * else those the compile log could not find.  When neither names
	 * one, the tool found every module the testbench instantiates: a
	 * compile failure is the error it is, never a missing top. */
	known = tops != NULL ? xstrdup(tops) : unknown_modules(r);
	/* format wins: a fenced answer fails to compile because of it. */
	compiled = (r->stage != NULL && strcmp(r->stage, "compile") != 0) ||
	    known == NULL;
	fmt = triage_format_tops(c->code, c->code_len, c->lang, compiled,
	    known, &line);
	if (fmt != NULL) {
		char *missing = xasprintf("no module %s", known);
		char *ev = xasprintf("candidate line %d: %s%s%s", line,
		    strcmp(fmt, "markdown-fence") == 0 ?
		    "a markdown fence around the code" :
		    strcmp(fmt, "prose") == 0 ? "prose around the code" :
		    missing, r->evidence != NULL ? "; symptom: " : "",
		    r->evidence != NULL ? r->evidence : "");

		free(missing);
		free(known);

		set(&r->category, category_name(CATEGORY_FORMAT));
		set(&r->subcategory, fmt);
		set(&r->evidence, ev);
		r->evidence_line = line;
		free(ev);
		return;
	}
	free(known);
	/* A warning on a candidate line can explain a functional failure. */
	if (category_from_name(r->category) == CATEGORY_FUNCTIONAL &&
	    r->subcategory != NULL && strcmp(r->subcategory, "mismatch") == 0 &&
	    ops != NULL) {
		for (size_t d = 0; d < r->ndiags; d++) {
			const struct diag *dg = &r->diags[d];
			const struct env_rule *rule;
			char *ev;

			if (dg->cand_line <= 0 || strcmp(dg->severity, "warning"))
				continue;
			rule = env_rule_find(ops->rules, ops->nrules,
			    ENV_RULE_WARNING, dg->message);
			if (rule == NULL)
				continue;
			ev = xasprintf("%s:%d: warning: %s; symptom: %s",
			    dg->file, dg->line, dg->message, r->evidence != NULL ?
			    r->evidence : "mismatches");
			set(&r->category, category_name(rule->category));
			set(&r->subcategory, rule->subcategory);
			set(&r->evidence, ev);
			r->evidence_line = dg->cand_line;
			free(ev);
			return;
		}
	}
	if (r->evidence_line != 0)
		return;		/* the env's judge knows better */
	/* The evidence quotes a diagnostic: its line, or none when it is
	 * outside the candidate (the testbench, a submodule, no place). */
	if (r->evidence != NULL) {
		const struct diag *dg = quoted_diag(r);

		if (dg != NULL) {
			r->evidence_line = dg->cand_line;
			return;
		}
	}
	/* A mismatch names the output that differs: point to the code that
	 * drives it. */
	if (r->subcategory != NULL && strcmp(r->subcategory, "mismatch") ==
	    0) {
		if (r->evidence != NULL)
			r->evidence_line = triage_output_line(c->code,
			    c->code_len, r->evidence);
		return;
	}
	/* Evidence that quotes no message (a limit, a tool that stopped
	 * without one): the first error on a candidate line, never a
	 * warning, which would point at some unrelated line. */
	for (size_t d = 0; d < r->ndiags; d++)
		if (r->diags[d].cand_line > 0 &&
		    strcmp(r->diags[d].severity, "error") == 0) {
			r->evidence_line = r->diags[d].cand_line;
			break;
		}
}
