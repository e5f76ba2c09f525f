/*
 * vocab.h - the closed sets of words assay stores and shows, written
 * once (design.md section 3, docs/formats.md): run verdicts, the five
 * failure categories with their key and precedence, review statuses,
 * candidate kinds, and the subcategory families more than one env
 * gives.  Each set is an X-macro list; the enums, the name tables
 * (vocab.c) and the SQL lists the schema checks (VOCAB_SQL_IN) are made
 * from it, so a word is added in one line here.  No behaviour beyond
 * mapping names to indexes.  Called by every floor above model/.
 */
#ifndef ASSAY_VOCAB_H
#define ASSAY_VOCAB_H

#include <stddef.h>

/*
 * Verdicts: X(ENUM, name, short) -- short is the queue column's spelling.
 * fail and timeout are the candidate's failures (they get a category);
 * skipped, env-error and task-defect are not (docs/triage.md).
 */
#define VOCAB_VERDICTS(X) \
	X(VERDICT_PASS,		"pass",		"pass")		\
	X(VERDICT_FAIL,		"fail",		"fail")		\
	X(VERDICT_TIMEOUT,	"timeout",	"timeout")	\
	X(VERDICT_SKIPPED,	"skipped",	"skip")		\
	X(VERDICT_ENV_ERROR,	"env-error",	"env-err")	\
	X(VERDICT_TASK_DEFECT,	"task-defect",	"defect")

/*
 * Failure categories in the order of their keys 1-5 (design.md section
 * 3): X(ENUM, name, key, rank, short).  rank is the precedence when
 * several apply, 0 first: the earliest cause wins (format, compile, api,
 * functional, performance).
 */
#define VOCAB_CATEGORIES(X) \
	X(CATEGORY_COMPILE,	"compile",	'1', 1, "comp")	\
	X(CATEGORY_API,		"api",		'2', 2, "api")	\
	X(CATEGORY_FUNCTIONAL,	"functional",	'3', 3, "func")	\
	X(CATEGORY_FORMAT,	"format",	'4', 0, "fmt")	\
	X(CATEGORY_PERFORMANCE,	"performance",	'5', 4, "perf")

/*
 * Review statuses: X(ENUM, name, verb, short).  verb is what a person
 * types (:review accept, assay review ID accept); reset takes a review
 * back to unreviewed.
 */
#define VOCAB_STATUSES(X) \
	X(STATUS_UNREVIEWED,	"unreviewed",	"reset",	"-")	\
	X(STATUS_ACCEPTED,	"accepted",	"accept",	"acc")	\
	X(STATUS_REJECTED,	"rejected",	"reject",	"rej")	\
	X(STATUS_FLAGGED,	"flagged",	"flag",		"flag")

/* Candidate kinds: X(ENUM, name). */
#define VOCAB_KINDS(X) \
	X(KIND_DIRECT,		"direct")	\
	X(KIND_REPAIR,		"repair")	\
	X(KIND_OPTIMIZATION,	"optimization")

/*
 * Subcategories that several envs give, by family: X(ENUM, name,
 * family).  The limits verify.c enforces (design.md section 7,
 * env_judge_limits()), the format rules of triage, and the findings
 * every env makes the same way (forbidden-call: a call a candidate may
 * not make, semihosting's shell in arm-qemu, a system task that reaches
 * the simulation's files in the Verilog envs).  An env's own
 * subcategories (VerilogEval result codes, Verilator's warning names
 * ...) stay in its rules.
 */
#define VOCAB_SUBCATEGORIES(X) \
	X(SUB_OUTPUT_LIMIT,	"output-limit",		"limit")	\
	X(SUB_RESOURCE_LIMIT,	"resource-limit",	"limit")	\
	X(SUB_TIMEOUT,		"timeout",		"limit")	\
	X(SUB_HARNESS_KILLED,	"harness-killed",	"limit")	\
	X(SUB_CANCELLED,	"cancelled",		"limit")	\
	X(SUB_MARKDOWN_FENCE,	"markdown-fence",	"format")	\
	X(SUB_PROSE,		"prose",		"format")	\
	X(SUB_MISSING_TOP,	"missing-top",		"format")	\
	X(SUB_MISMATCH,		"mismatch",		"result")	\
	X(SUB_NO_RESULT,	"no-result",		"result")	\
	X(SUB_TOOLCHAIN_MISSING, "toolchain-missing",	"env")		\
	X(SUB_TOOLCHAIN_CRASH,	"toolchain-crash",	"env")		\
	X(SUB_TOOLCHAIN_BROKEN,	"toolchain-broken",	"env")		\
	X(SUB_TOOLCHAIN_ERROR,	"toolchain-error",	"env")		\
	X(SUB_REFERENCE_FAILS,	"reference-fails",	"defect")	\
	X(SUB_FORBIDDEN_CALL,	"forbidden-call",	"finding")

#define VOCAB_ENUM_(id, ...)	id,
/* The names of a list as array initialisers: { VOCAB_VERDICTS(VOCAB_NAME_) } */
#define VOCAB_NAME_(id, name, ...)	name,
/* The names of a list as one string, each followed by a blank:
 * " " VOCAB_VERDICTS(VOCAB_WORD_) is " pass fail ... task-defect " */
#define VOCAB_WORD_(id, name, ...)	name " "
/* The verbs of the review statuses ({ "reset", "accept", ... }) */
#define VOCAB_VERB_(id, name, verb, sh)	verb,

enum verdict {
	VERDICT_NONE = -1,	/* no run, or a name outside the set */
	VOCAB_VERDICTS(VOCAB_ENUM_)
	VERDICT_N
};

enum category {
	CATEGORY_NONE = -1,
	VOCAB_CATEGORIES(VOCAB_ENUM_)
	CATEGORY_N
};

enum status {
	STATUS_NONE = -1,
	VOCAB_STATUSES(VOCAB_ENUM_)
	STATUS_N
};

enum cand_kind {
	KIND_NONE = -1,
	VOCAB_KINDS(VOCAB_ENUM_)
	KIND_N
};

enum subcategory {
	SUB_NONE = -1,
	VOCAB_SUBCATEGORIES(VOCAB_ENUM_)
	SUB_N
};

/*
 * The names of a list as SQL, for a CHECK or a trigger's WHEN:
 * VOCAB_SQL_IN(VOCAB_CATEGORIES) is the string literal
 * "('compile','api','functional','format','performance','')"; the
 * closing '' ends the list without a comma, so a check reads
 * "(col IN " VOCAB_SQL_IN(L) " AND col <> '')".  NULL passes, as in a
 * CHECK.
 */
#define VOCAB_SQL_Q_(id, name, ...)	"'" name "',"
#define VOCAB_SQL_IN(LIST)	"(" LIST(VOCAB_SQL_Q_) "'')"
#define VOCAB_SQL_CHECK(col, LIST) \
	"(" col " IN " VOCAB_SQL_IN(LIST) " AND " col " <> '')"

/*
 * Name to index: the index of name in its list, or the _NONE value (-1)
 * for NULL or a name outside the list.  Exact, case-sensitive match.
 */
enum verdict	verdict_from_name(const char *name);
enum category	category_from_name(const char *name);
enum status	status_from_name(const char *name);
enum cand_kind	cand_kind_from_name(const char *name);
enum subcategory subcategory_from_name(const char *name);

/* The review status a verb names ("accept" -> STATUS_ACCEPTED), or
 * STATUS_NONE. */
enum status	status_from_verb(const char *verb);

/*
 * Index to name: static strings; NULL for an index outside the list
 * (the _NONE values included).
 */
const char	*verdict_name(enum verdict v);
const char	*category_name(enum category c);
const char	*status_name(enum status s);
const char	*status_verb(enum status s);
const char	*cand_kind_name(enum cand_kind k);
const char	*subcategory_name(enum subcategory s);
const char	*subcategory_family(enum subcategory s);

/* The queue's short spellings: "env-err", "func", "acc"; NULL outside. */
const char	*verdict_short(enum verdict v);
const char	*category_short(enum category c);
const char	*status_short(enum status s);

/* The key of a category ('1'..'5'), and the category of a key, or
 * CATEGORY_NONE. */
int		 category_key(enum category c);
enum category	category_from_key(int key);

/*
 * A category's precedence, 0 first (format); CATEGORY_N for
 * CATEGORY_NONE or out of range, so that none ranks after every
 * category.
 */
int		 category_rank(enum category c);

/* 1 when the verdict name is v (NULL-safe: NULL is never a verdict). */
int		 verdict_is(const char *name, enum verdict v);
/* 1 when the verdict name is a candidate failure (fail, timeout): the
 * runs triage gives a category. */
int		 verdict_failed(const char *name);

/*
 * The names of a list separated by sep into buf (n bytes, always
 * terminated, cut at n): for messages that say what is allowed
 * ("compile api functional format performance").  Returns buf.
 */
char		*category_list(char *buf, size_t n, const char *sep);

#endif
