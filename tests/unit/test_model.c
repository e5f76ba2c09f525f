/*
 * test_model.c - the generator's settings, the stored endpoint and
 * pass@k (model.c, generate.c), and err_set()'s escaping of the
 * untrusted names its messages quote (err.c).  The requests themselves are tested
 * end to end against a real server and a command (tests/e2e/195).
 * Issue 22 item 7: configured secrets are redacted (secret.c), and a
 * generator that echoes the API key gets it back redacted, in the
 * answer and in its error.
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <setjmp.h>
#include <cmocka.h>

#include "base/secret.h"
#include "generate/generate.h"
#include "generate/model.h"

static void
test_cfg_lines(void **state)
{
	struct model_cfg c;
	struct err err;

	(void)state;
	model_cfg_init(&c);
	assert_int_equal(model_cfg_line(&c, "theme light", &err), 0);
	assert_null(c.endpoint);
	assert_int_equal(model_cfg_line(&c,
	    "generator endpoint http://127.0.0.1:8080/v1\n", &err), 0);
	assert_string_equal(c.endpoint, "http://127.0.0.1:8080/v1");
	assert_int_equal(model_cfg_line(&c,
	    "generator command llama-cli -m m.gguf --json", &err), 0);
	assert_string_equal(c.command, "llama-cli -m m.gguf --json");
	assert_int_equal(model_cfg_line(&c, "generator temperature 0.7",
	    &err), 0);
	assert_true(fabs(c.temperature - 0.7) < 1e-9);
	assert_int_equal(model_cfg_line(&c, "generator temperature 3",
	    &err), -1);
	assert_non_null(strstr(err.msg, "0 to 2"));
	assert_int_equal(model_cfg_line(&c, "generator retries 1.5", &err),
	    -1);
	/* the feedback level: rich by default, minimal, nothing else */
	assert_int_equal(c.feedback_minimal, 0);
	assert_int_equal(model_cfg_line(&c, "generator feedback minimal",
	    &err), 0);
	assert_int_equal(c.feedback_minimal, 1);
	assert_int_equal(model_cfg_line(&c, "generator feedback rich", &err),
	    0);
	assert_int_equal(c.feedback_minimal, 0);
	assert_int_equal(model_cfg_line(&c, "generator feedback more", &err),
	    -1);
	assert_non_null(strstr(err.msg, "neither rich nor minimal"));
	assert_int_equal(model_cfg_line(&c, "generator colour red", &err),
	    -1);
	assert_non_null(strstr(err.msg, "unknown generator setting"));
	assert_int_equal(model_cfg_line(&c, "generator model", &err), -1);
	/* Both kinds set: refused until one goes. */
	assert_int_equal(model_cfg_check(&c, &err), -1);
	free(c.command);
	c.command = NULL;
	c.model = NULL;
	assert_int_equal(model_cfg_check(&c, &err), -1);
	assert_non_null(strstr(err.msg, "model name"));
	model_cfg_release(&c);
}

/* The limit's name, n and the price table (issue 25 item 7); the cost
 * is worked by hand: 400 uncached prompt tokens at 2.50, 600 cached at
 * 1.25 and 200 completion tokens at 10.00 US dollars per million are
 * (1000 + 750 + 2000) / 1e6 = 0.00375. */
static void
test_cfg_endpoint_fields(void **state)
{
	struct model_cfg c;
	struct err err;
	json_t *msgs = json_array(), *req;

	(void)state;
	model_cfg_init(&c);
	assert_int_equal(c.use_n, 1);
	assert_int_equal(c.completion_tokens_param, 0);
	assert_int_equal(model_cfg_line(&c, "generator max-tokens 512", &err),
	    0);
	req = model_request(&c, msgs, 3);
	assert_int_equal(json_integer_value(json_object_get(req,
	    "max_tokens")), 512);
	assert_null(json_object_get(req, "max_completion_tokens"));
	assert_int_equal(json_integer_value(json_object_get(req, "n")), 3);
	json_decref(req);
	assert_int_equal(model_cfg_line(&c,
	    "generator max-tokens-param max_completion_tokens", &err), 0);
	req = model_request(&c, msgs, 1);
	assert_int_equal(json_integer_value(json_object_get(req,
	    "max_completion_tokens")), 512);
	assert_null(json_object_get(req, "max_tokens"));
	assert_null(json_object_get(req, "n"));	/* n = 1 is not sent */
	json_decref(req);
	assert_int_equal(model_cfg_line(&c, "generator max-tokens-param x",
	    &err), -1);
	assert_int_equal(model_cfg_line(&c, "generator n off", &err), 0);
	assert_int_equal(c.use_n, 0);
	assert_int_equal(model_cfg_line(&c, "generator n 2", &err), -1);
	/* The price table: exact names, the served model's row first. */
	c.model = strdup("gpt-x");
	assert_int_equal(model_cfg_line(&c,
	    "generator price gpt-x-2026-01-01 2.50 1.25 10.00", &err), 0);
	assert_int_equal(model_cfg_line(&c, "generator price gpt-x 1 0.5 4",
	    &err), 0);
	assert_int_equal(model_cfg_line(&c, "generator price gpt-x 1 0.5",
	    &err), -1);
	assert_non_null(strstr(err.msg, "MODEL INPUT CACHED OUTPUT"));
	assert_int_equal(model_cfg_line(&c, "generator price gpt-x 1 0.5 -4",
	    &err), -1);
	assert_int_equal(c.nprices, 2);
	assert_true(fabs(model_cost(&c, "gpt-x-2026-01-01", 1000, 600, 200) -
	    0.00375) < 1e-12);
	/* Another snapshot: the requested model's row (42 + 84 = 126). */
	assert_true(fabs(model_cost(&c, "gpt-x-2027", 42, -1, 21) -
	    126e-6) < 1e-12);
	/* No usage, or no row: no cost. */
	assert_true(model_cost(&c, NULL, -1, -1, 21) < 0);
	free(c.model);
	c.model = strdup("other");
	assert_true(model_cost(&c, "unknown", 42, 0, 21) < 0);
	/* A row again replaces it. */
	assert_int_equal(model_cfg_line(&c, "generator price gpt-x 2 1 8",
	    &err), 0);
	assert_int_equal(c.nprices, 2);
	assert_true(fabs(model_cost(&c, "gpt-x", 1000000, 0, 0) - 2.0) <
	    1e-12);
	model_cfg_release(&c);
	json_decref(msgs);
}

/* A command's chat-completions response: choices, a refusal, the usage
 * details; plain text is one answer. */
static void
test_model_chat_response(void **state)
{
	struct model_cfg cfg;
	struct model_reply out;
	struct err err;
	json_t *msgs = json_pack("[{s:s, s:s}]", "role", "user", "content",
	    "hi");

	(void)state;
	model_cfg_init(&cfg);
	cfg.timeout_s = 10;
	cfg.command = strdup("cat >/dev/null; printf '%s' '{\"id\":\"r-1\","
	    "\"model\":\"m-2026\",\"choices\":[{\"index\":0,\"message\":"
	    "{\"content\":\"a\"},\"finish_reason\":\"stop\"},{\"index\":1,"
	    "\"message\":{\"content\":null,\"refusal\":\"no\"},"
	    "\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":10,"
	    "\"completion_tokens\":5,\"prompt_tokens_details\":"
	    "{\"cached_tokens\":4},\"completion_tokens_details\":"
	    "{\"reasoning_tokens\":3}}}'");
	assert_int_equal(model_chat(&cfg, msgs, 2, &out, &err), 0);
	assert_int_equal(out.nanswers, 2);
	assert_string_equal(out.answers[0].text, "a");
	assert_null(out.answers[0].refusal);
	assert_string_equal(out.answers[1].text, "");
	assert_string_equal(out.answers[1].refusal, "no");
	assert_string_equal(out.id, "r-1");
	assert_string_equal(out.served, "m-2026");
	assert_int_equal(out.prompt_tokens, 10);
	assert_int_equal(out.cached_tokens, 4);
	assert_int_equal(out.reasoning_tokens, 3);
	assert_true(out.cost_usd < 0);	/* no price table */
	model_reply_release(&out);
	free(cfg.command);
	cfg.command = strdup("cat >/dev/null; printf 'module m; endmodule'");
	assert_int_equal(model_chat(&cfg, msgs, 1, &out, &err), 0);
	assert_int_equal(out.nanswers, 1);
	assert_string_equal(out.answers[0].text, "module m; endmodule");
	assert_int_equal(out.cached_tokens, -1);
	model_reply_release(&out);
	model_cfg_release(&cfg);
	json_decref(msgs);
}

static void
test_model_name(void **state)
{
	struct model_cfg c;
	char buf[64];

	(void)state;
	model_cfg_init(&c);
	c.command = strdup("  /opt/bin/fixer.py --x");
	assert_string_equal(model_name(&c, buf, sizeof buf), "fixer.py");
	c.model = strdup("m-1");
	assert_string_equal(model_name(&c, buf, sizeof buf), "m-1");
	model_cfg_release(&c);
}

/* Golden values: the estimator by hand, 1 - C(n-c,k)/C(n,k). */
static void
test_pass_at_k(void **state)
{
	(void)state;
	assert_true(fabs(gen_pass_at_k(10, 3, 1) - 0.3) < 1e-12);
	/* 1 - C(7,5)/C(10,5) = 1 - 21/252 */
	assert_true(fabs(gen_pass_at_k(10, 3, 5) - (1 - 21.0 / 252)) < 1e-12);
	assert_true(gen_pass_at_k(5, 0, 3) == 0);
	assert_true(gen_pass_at_k(5, 3, 3) == 1.0);	/* n - c < k */
	assert_true(gen_pass_at_k(2, 1, 3) == 0);	/* k > n */
}

/* err_set() quotes untrusted names: no control byte survives it. */
static void
test_err_set_is_terminal_safe(void **state)
{
	struct err err;

	(void)state;
	err_set(&err, "unknown env '%s'", "iverilog\033]0;PWN\007\033[2J");
	assert_null(strchr(err.msg, '\033'));
	assert_null(strchr(err.msg, '\007'));
	assert_string_equal(err.msg, "unknown env 'iverilog?]0;PWN??[2J'");
	/* a C1 CSI in UTF-8, U+009B, and DEL */
	err_set(&err, "x\xc2\x9b" "1m\x7f" "y\n\tz");
	assert_string_equal(err.msg, "x??1m?y\n\tz");
	/* ordinary UTF-8 stays */
	err_set(&err, "caf\xc3\xa9");
	assert_string_equal(err.msg, "caf\xc3\xa9");
}

/* want's length is wantlen, or strlen(want) when 0. */
static void
redacts_to_n(const char *in, size_t len, const char *want, size_t wantlen,
    size_t n)
{
	size_t outlen, count = 99;
	char *r = secret_redact(in, len, &outlen, &count);

	if (want == NULL) {
		assert_null(r);
		assert_int_equal(count, 0);
		return;
	}
	assert_non_null(r);
	if (wantlen == 0)
		wantlen = strlen(want);
	assert_int_equal(outlen, wantlen);
	assert_memory_equal(r, want, outlen);
	assert_int_equal(count, n);
	free(r);
}

#define redacts_to(in, len, want, n) redacts_to_n(in, len, want, 0, n)
#define redacts_lit(in, want, n) redacts_to(in, sizeof in - 1, want, n)

static void
test_secret_redact(void **state)
{
	char msg[24], big[64];

	(void)state;
	secret_clear();
	redacts_to("sk-abcdefgh", 11, NULL, 0);		/* none yet */
	assert_int_equal(secret_add("short"), -1);	/* < SECRET_MIN */
	assert_int_equal(secret_add(NULL), -1);
	assert_int_equal(secret_add("sk-abcdefgh"), 0);
	assert_int_equal(secret_add("sk-abcdefgh"), 0);	/* once */
	assert_int_equal(secret_add("sk-abcdefgh-longer"), 0);
	redacts_to("plain text", 10, NULL, 0);
	redacts_to("sk-abcdefgh", 11, SECRET_MARK, 1);
	/* at both ends, twice in a row, the longest secret first */
	redacts_to("Bearer sk-abcdefghsk-abcdefgh!", 30,
	    "Bearer " SECRET_MARK SECRET_MARK "!", 2);
	redacts_to("k=sk-abcdefgh-longer;", 21, "k=" SECRET_MARK ";", 1);
	/* NULs do not end the text */
	redacts_to_n("a\0sk-abcdefgh\0b", 15, "a\0" SECRET_MARK "\0b",
	    sizeof SECRET_MARK + 3, 1);
	/* a secret cut short is not one */
	redacts_to("sk-abcdefg", 10, NULL, 0);
	/* in place, cut to fit */
	snprintf(msg, sizeof msg, "HTTP 401: sk-abcdefgh");
	assert_int_equal(secret_redact_in(msg, sizeof msg), 1);
	assert_string_equal(msg, "HTTP 401: " SECRET_MARK);
	memcpy(big, "key sk-abcdefgh sk-abcdefgh", 28);
	assert_int_equal(secret_redact_in(big, sizeof msg), 2);
	assert_string_equal(big, "key [redacted] [redacte");
	secret_clear();
	redacts_to("sk-abcdefgh", 11, NULL, 0);
}

/* A copy of a secret that an escape hides is found once decoded, and
 * the escapes that spell it are replaced; what is not the secret stays
 * as it was, escapes included. */
static void
test_secret_redact_escaped(void **state)
{
	(void)state;
	secret_clear();
	assert_int_equal(secret_add("sk-abcdefgh"), 0);
	/* JSON: one letter, every letter, upper-case hex, \/ among them */
	redacts_lit("a s\\u006b-abcdefgh b", "a " SECRET_MARK " b", 1);
	redacts_lit("\\u0073\\u006B\\u002d\\u0061\\u0062\\u0063\\u0064\\u0065"
	    "\\u0066\\u0067\\u0068!", SECRET_MARK "!", 1);
	/* an escape that is not the secret's stays escaped */
	redacts_lit("\\u00e9 \\n sk-abcdefg\\u0068 \\t",
	    "\\u00e9 \\n " SECRET_MARK " \\t", 1);
	/* percent-encoding, HTML references, C and Python escapes */
	redacts_lit("k=%73k-abcdefgh&x=1", "k=" SECRET_MARK "&x=1", 1);
	redacts_lit("&#115;k-abc&#x64;efgh", SECRET_MARK, 1);
	redacts_lit("\\x73k-abcdefgh \\163k-abcdefgh",
	    SECRET_MARK " " SECRET_MARK, 2);
	redacts_lit("\\U00000073k-abcdefgh", SECRET_MARK, 1);
	/* an escape of an escape: \\u0073 is \u0073 once decoded */
	redacts_lit("\\\\u0073k-abcdefgh", SECRET_MARK, 1);
	redacts_lit("%5Cu0073k-abcdefgh", SECRET_MARK, 1);
	/* bytes and escapes in one text: each counted */
	redacts_lit("sk-abcdefgh s\\u006b-abcdefgh",
	    SECRET_MARK " " SECRET_MARK, 2);
	/* a surrogate pair decodes to one character, a lone one to none */
	assert_int_equal(secret_add("key-\xf0\x9f\x94\x91-abcdef"), 0);
	redacts_lit("key-\\ud83d\\udd11-abcdef.", SECRET_MARK ".", 1);
	redacts_lit("key-\\ud83d-abcdef", NULL, 0);
	/* escapes that spell something else: nothing to do */
	redacts_lit("100% \\u0073k-abcdefg \\x &#bad; %zz", NULL, 0);
	secret_clear();
}

/* The forms a second look found decoded to the key and were missed:
 * octal of 1 or 2 digits, references with leading zeros or no ';',
 * \N{...}, \x{...}, %uXXXX, CSS's \73 (which C reads as ';' and a
 * space: both readings are tried), and mixes; forms that spell
 * something else are left alone. */
static void
test_secret_redact_more_forms(void **state)
{
#define K_TAIL "ABCDEF12345678"
	(void)state;
	secret_clear();
	assert_int_equal(secret_add("sk-test-" K_TAIL), 0);
	/* octal of 1 to 3 digits, as C and Python read it */
	redacts_lit("a sk\\55test\\55" K_TAIL " b", "a " SECRET_MARK " b", 1);
	redacts_lit("\\163k\\55test-" K_TAIL, SECRET_MARK, 1);
	redacts_lit("sk-test-ABCDEF1234567\\70.", SECRET_MARK ".", 1);
	redacts_lit("\\163\\153\\055test-" K_TAIL, SECRET_MARK, 1);
	/* numeric references: any number of leading zeros, ';' optional */
	redacts_lit("&#000000115;k-test-" K_TAIL, SECRET_MARK, 1);
	redacts_lit("&#x000000073;k-test-" K_TAIL, SECRET_MARK, 1);
	redacts_lit("&#000000000000000000000000000000115;k-test-" K_TAIL,
	    SECRET_MARK, 1);
	redacts_lit("&#115k&#45test-" K_TAIL, SECRET_MARK, 1);
	/* \N{...}: Unicode's names, any case; Perl's \N{U+...} */
	redacts_lit("\\N{LATIN SMALL LETTER S}k-test-" K_TAIL, SECRET_MARK, 1);
	redacts_lit("s\\N{latin small letter k}\\N{HYPHEN-MINUS}test-"
	    "\\N{LATIN CAPITAL LETTER A}BCDEF1234567\\N{DIGIT EIGHT}",
	    SECRET_MARK, 1);
	redacts_lit("\\N{U+73}k-test-" K_TAIL, SECRET_MARK, 1);
	/* braced: Perl's \x{...} \o{...}, JavaScript's and Rust's \u{...} */
	redacts_lit("\\x{73}k-test-" K_TAIL, SECRET_MARK, 1);
	redacts_lit("\\x{ 000073 }k\\o{55}test\\u{2d}" K_TAIL, SECRET_MARK, 1);
	/* %uXXXX */
	redacts_lit("x=%u0073k%u002Dtest-" K_TAIL "&", "x=" SECRET_MARK "&", 1);
	/* CSS: 1 to 6 hex digits and one optional white space */
	redacts_lit("content: \"\\73 k-test-" K_TAIL "\"",
	    "content: \"" SECRET_MARK "\"", 1);
	redacts_lit("\\000073k\\2d\ntest-" K_TAIL, SECRET_MARK, 1);
	redacts_lit("\\73\\6B-test-" K_TAIL, SECRET_MARK, 1);
	/* C's \x takes every hex digit; a backslash and a line end are
	 * nothing; any other escaped character is itself */
	redacts_lit("\\x0073k-test-" K_TAIL, SECRET_MARK, 1);
	redacts_lit("sk-test-\\\n" K_TAIL, SECRET_MARK, 1);
	redacts_lit("s\\k\\-test-" K_TAIL, SECRET_MARK, 1);
	/* mixes, and an escape of one of these */
	redacts_lit("\\163\\N{LATIN SMALL LETTER K}&#00045;test%u002d"
	    "\\x{41}BCDEF1234567\\70", SECRET_MARK, 1);
	redacts_lit("%5C55", NULL, 0);
	redacts_lit("sk%5C55test-" K_TAIL, SECRET_MARK, 1);
	redacts_lit("&amp;#000115;k-test-" K_TAIL, SECRET_MARK, 1);
	/* both readings in one text, each copy in its own */
	redacts_lit("\\73 k-test-" K_TAIL " sk\\55test-" K_TAIL,
	    SECRET_MARK " " SECRET_MARK, 2);
	/* forms that spell something else: left alone */
	redacts_lit("sk\\55test\\55ABCDEF1234567 \\163k-test-ABCDEF1234569",
	    NULL, 0);
	redacts_lit("&#000000116;k-test-" K_TAIL, NULL, 0);
	redacts_lit("&#00000000115000;k-test-" K_TAIL, NULL, 0);
	redacts_lit("\\N{LATIN SMALL LETTER T}k-test-" K_TAIL, NULL, 0);
	redacts_lit("\\N{LATIN SMALL LETTER SS}k-test-" K_TAIL, NULL, 0);
	redacts_lit("\\N{LATIN SMALL LETTER S k-test-" K_TAIL, NULL, 0);
	redacts_lit("\\x{110000}k-test-" K_TAIL, NULL, 0);
	redacts_lit("%u0074k-test-" K_TAIL, NULL, 0);
	redacts_lit("\\74 k-test-" K_TAIL, NULL, 0);
	redacts_lit("\\0000073k-test-" K_TAIL, NULL, 0);
	secret_clear();
#undef K_TAIL
}

/* A generator that echoes the key: answer and error come back
 * redacted, the reply says so. */
static void
test_model_chat_redacts_the_key(void **state)
{
	static const char key[] = "sk-test-0123456789-canary";
	struct model_cfg cfg;
	struct model_reply out;
	struct err err;
	json_t *msgs = json_pack("[{s:s, s:s}]", "role", "user", "content",
	    "hi");

	(void)state;
	secret_clear();
	setenv("ASSAY_TEST_KEY", key, 1);
	model_cfg_init(&cfg);
	cfg.key_env = strdup("ASSAY_TEST_KEY");
	cfg.command = strdup("printf 'module m; // Authorization: Bearer %s"
	    "\\n' \"$ASSAY_TEST_KEY\"");
	cfg.timeout_s = 10;
	assert_int_equal(model_cfg_check(&cfg, &err), 0);
	assert_int_equal(model_chat(&cfg, msgs, 1, &out, &err), 0);
	assert_null(strstr(out.answers[0].text, key));
	assert_string_equal(out.answers[0].text, "module m; // Authorization:"
	    " Bearer " SECRET_MARK "\n");
	assert_int_equal(out.redacted, 1);
	model_reply_release(&out);
	/* An honest answer: nothing redacted. */
	free(cfg.command);
	cfg.command = strdup("printf 'module m; endmodule'");
	assert_int_equal(model_chat(&cfg, msgs, 1, &out, &err), 0);
	assert_int_equal(out.redacted, 0);
	model_reply_release(&out);
	/* The error of a command that prints it. */
	free(cfg.command);
	cfg.command = strdup("echo \"bad key $ASSAY_TEST_KEY\" >&2; exit 3");
	assert_int_equal(model_chat(&cfg, msgs, 1, &out, &err), -1);
	assert_null(strstr(err.msg, key));
	assert_non_null(strstr(err.msg, "bad key " SECRET_MARK));
	model_cfg_release(&cfg);
	json_decref(msgs);
	unsetenv("ASSAY_TEST_KEY");
	secret_clear();
}

/* A response that holds the key in every string a reply keeps, once as
 * bytes and once as a JSON escape (\u0073 is the key's "s"): each comes
 * back redacted, and the reply counts all of them. */
static void
test_model_chat_redacts_every_field(void **state)
{
	static const char key[] = "sk-test-0123456789-fields";
	struct model_cfg cfg;
	struct model_reply out;
	struct err err;
	json_t *msgs = json_pack("[{s:s, s:s}]", "role", "user", "content",
	    "hi");

	(void)state;
	secret_clear();
	setenv("ASSAY_TEST_KEY", key, 1);
	model_cfg_init(&cfg);
	cfg.key_env = strdup("ASSAY_TEST_KEY");
	cfg.timeout_s = 10;
	/* id and refusal escaped, model and finish_reason as bytes */
	cfg.command = strdup("cat >/dev/null; k=${ASSAY_TEST_KEY#s}; printf"
	    " '{\"id\":\"r-\\\\u0073%s\",\"model\":\"proxy %s\","
	    "\"choices\":[{\"message\":{\"content\":\"module m;\"},"
	    "\"finish_reason\":\"stop %s\"},{\"message\":{\"content\":"
	    "null,\"refusal\":\"no \\\\u0073%s\"}}]}' \"$k\""
	    " \"$ASSAY_TEST_KEY\" \"$ASSAY_TEST_KEY\" \"$k\"");
	assert_int_equal(model_cfg_check(&cfg, &err), 0);
	assert_int_equal(model_chat(&cfg, msgs, 2, &out, &err), 0);
	assert_int_equal(out.nanswers, 2);
	assert_string_equal(out.id, "r-" SECRET_MARK);
	assert_string_equal(out.served, "proxy " SECRET_MARK);
	assert_string_equal(out.answers[0].finish, "stop " SECRET_MARK);
	assert_string_equal(out.answers[1].refusal, "no " SECRET_MARK);
	assert_string_equal(out.answers[0].text, "module m;");
	assert_int_equal(out.redacted, 4);
	model_reply_release(&out);
	model_cfg_release(&cfg);
	json_decref(msgs);
	unsetenv("ASSAY_TEST_KEY");
	secret_clear();
}

static int waits;

static void
count_wait(void *arg, const char *why, long wait_ms, int next_try)
{
	(void)arg;
	(void)why;
	(void)wait_ms;
	(void)next_try;
	waits++;
}

/* A stop set before a request: nothing is sent (the command never
 * runs: it would create the file), the error says so, no try counted. */
static void
test_model_chat_stopped(void **state)
{
	struct model_cfg cfg;
	struct model_stop stop;
	struct model_reply out;
	struct err err;
	char path[] = "/tmp/assay-test-stop-XXXXXX", *cmd;
	json_t *msgs = json_pack("[{s:s, s:s}]", "role", "user", "content",
	    "hi");
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	unlink(path);
	model_cfg_init(&cfg);
	model_stop_init(&stop);
	cfg.stop = &stop;
	cfg.waiting = count_wait;
	cmd = malloc(strlen(path) + 64);
	sprintf(cmd, "touch %s; printf 'module m;'", path);
	cfg.command = cmd;
	assert_int_equal(model_chat(&cfg, msgs, 1, &out, &err), 0);
	assert_int_equal(out.attempts, 1);
	assert_int_equal(access(path, F_OK), 0);	/* it ran */
	model_reply_release(&out);
	unlink(path);
	assert_int_equal(model_stop_isset(&stop), 0);
	model_stop_set(&stop);
	model_stop_set(&stop);	/* idempotent */
	assert_int_equal(model_stop_isset(&stop), 1);
	assert_int_equal(model_chat(&cfg, msgs, 1, &out, &err), -1);
	assert_string_equal(err.msg, "cancelled before it was sent");
	assert_int_equal(out.attempts, 0);
	assert_int_equal(waits, 0);
	assert_int_equal(access(path, F_OK), -1);	/* it did not run */
	model_cfg_release(&cfg);
	model_stop_destroy(&stop);
	json_decref(msgs);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_secret_redact),
		cmocka_unit_test(test_secret_redact_escaped),
		cmocka_unit_test(test_secret_redact_more_forms),
		cmocka_unit_test(test_model_chat_redacts_the_key),
		cmocka_unit_test(test_model_chat_redacts_every_field),
		cmocka_unit_test(test_model_chat_stopped),
		cmocka_unit_test(test_cfg_lines),
		cmocka_unit_test(test_cfg_endpoint_fields),
		cmocka_unit_test(test_model_chat_response),
		cmocka_unit_test(test_model_name),
		cmocka_unit_test(test_pass_at_k),
		cmocka_unit_test(test_err_set_is_terminal_safe),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
