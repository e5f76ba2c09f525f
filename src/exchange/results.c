/*
 * results.c - run results as JSON lines; see results.h and
 * docs/formats.md.  A line is written and read by the codec
 * (model/codec.h, CODEC_RESULT); files are written beside their target
 * and renamed when complete, as export.c does for -o FILE.
 */
#include "exchange/results.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "base/atomic.h"
#include "base/buf.h"
#include "base/hash.h"
#include "base/ident.h"
#include "model/codec.h"

struct results {
	char	*path, *tmp;
	FILE	*f;
	size_t	 n;
	struct results_key key;
};

/*
 * A line ends in MAC_KEY_OPEN ID '"' MAC_OPEN HEX '"}': the MAC covers
 * every byte before MAC_OPEN.
 */
#define MAC_KEY_OPEN	",\"mac_key\":\""
#define MAC_OPEN	",\"mac\":\""
#define MAC_TAIL	(sizeof MAC_OPEN - 1 + HASH_HEX_LEN + 2)
#define KEY_TAIL	(sizeof MAC_KEY_OPEN - 1 + STORE_KEY_ID + 1)

static int
is_hex(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' &&
		    s[i] <= 'f')))
			return 0;
	return 1;
}

int
results_key_check(const struct results_key *k, struct err *err)
{
	if (strlen(k->id) != STORE_KEY_ID || !is_hex(k->id, STORE_KEY_ID))
		return err_set(err, "a results key id is %d hex digits",
		    STORE_KEY_ID);
	if (strlen(k->key) != STORE_KEY_HEX || !is_hex(k->key,
	    STORE_KEY_HEX))
		return err_set(err, "a results key is %d hex digits",
		    STORE_KEY_HEX);
	return 0;
}

int
results_key_from_json(const json_t *o, struct results_key *k,
    struct err *err)
{
	const char *id = json_string_value(json_object_get(o, "id"));
	const char *key = json_string_value(json_object_get(o, "key"));

	if (o == NULL)
		return err_set(err, "no \"results_key\"");
	snprintf(k->id, sizeof k->id, "%s", id != NULL ? id : "");
	snprintf(k->key, sizeof k->key, "%s", key != NULL ? key : "");
	return results_key_check(k, err);
}

/* The MAC of the n bytes at p under k. */
static void
mac_of(const struct results_key *k, const char *p, size_t n, char *hex)
{
	hash_hmac_sha256(k->key, STORE_KEY_HEX, p, n, hex);
}

int
results_open(struct results **out, const char *path,
    const struct results_key *key, struct err *err)
{
	struct results *w;

	*out = NULL;
	if (results_key_check(key, err) < 0)
		return -1;
	w = xcalloc(1, sizeof *w);
	w->key = *key;
	/* what an earlier verify --results of path, killed, left */
	(void)atomic_clean_stale(path);
	w->f = atomic_create(path, &w->tmp, err);
	if (w->f == NULL) {
		free(w);
		return -1;
	}
	w->path = xstrdup(path);
	*out = w;
	return 0;
}

int
results_add(struct results *w, const struct run *r, const char *task_id,
    int timeout_s, int stored, struct err *err)
{
	struct codec_ctx x = { .profile = CODEC_RESULT, .task_id = task_id,
	    .timeout_s = timeout_s, .stored = stored };
	json_t *o = codec_run(r, &x);
	char *txt = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
	char mac[HASH_HEX_LEN + 1];
	struct buf line = BUF_INIT;
	size_t n;
	int rc = 0;

	json_decref(o);
	if (txt == NULL || (n = strlen(txt)) < 2 || txt[n - 1] != '}') {
		free(txt);
		return err_set(err, "%s: cannot encode the run of %s", w->tmp,
		    r->cand_id);
	}
	/* The object without its '}', the key's id, then the MAC of all
	 * that. */
	buf_add(&line, txt, n - 1);
	free(txt);
	buf_printf(&line, MAC_KEY_OPEN "%s\"", w->key.id);
	mac_of(&w->key, line.p, line.len, mac);
	buf_printf(&line, MAC_OPEN "%s\"}\n", mac);
	if (fwrite(line.p, 1, line.len, w->f) != line.len)
		rc = err_set(err, "write %s: %s", w->tmp, strerror(errno));
	else
		w->n++;
	buf_release(&line);
	return rc;
}

size_t
results_count(const struct results *w)
{
	return w->n;
}

int
results_close(struct results *w, struct err *err)
{
	int rc = atomic_commit(w->f, w->tmp, w->path, err);

	free(w->tmp);
	free(w->path);
	free(w);
	return rc;
}

void
results_abort(struct results *w)
{
	if (w == NULL)
		return;
	fclose(w->f);
	unlink(w->tmp);
	free(w->tmp);
	free(w->path);
	free(w);
}

/* len without a trailing newline. */
static size_t
chomp(const char *line, size_t len)
{
	if (len > 0 && line[len - 1] == '\n')
		len--;
	return len;
}

/* Does the line (len bytes, no newline) end in "mac_key" and "mac"?
 * 1 with the key's id in id, else 0. */
static int
mac_tail(const char *line, size_t len, char *id)
{
	const char *mac, *key;

	if (len < 2 + KEY_TAIL + MAC_TAIL)
		return 0;
	mac = line + len - MAC_TAIL;
	key = mac - KEY_TAIL;
	if (memcmp(mac, MAC_OPEN, sizeof MAC_OPEN - 1) != 0 ||
	    !is_hex(mac + sizeof MAC_OPEN - 1, HASH_HEX_LEN) ||
	    memcmp(line + len - 2, "\"}", 2) != 0 ||
	    memcmp(key, MAC_KEY_OPEN, sizeof MAC_KEY_OPEN - 1) != 0 ||
	    !is_hex(key + sizeof MAC_KEY_OPEN - 1, STORE_KEY_ID) ||
	    mac[-1] != '"')
		return 0;
	memcpy(id, key + sizeof MAC_KEY_OPEN - 1, STORE_KEY_ID);
	id[STORE_KEY_ID] = '\0';
	return 1;
}

int
results_line_key(const char *line, size_t len, char *id, struct err *err)
{
	size_t n;

	len = chomp(line, len);
	if (mac_tail(line, len, id))
		return 0;
	/* The MAC may be there, behind bytes an editor or a transfer
	 * added: say what they are, not that it is missing. */
	for (n = len; n > 0 && strchr(" \t\r", line[n - 1]) != NULL; n--)
		;
	if (n < len && mac_tail(line, n, id) && line[len - 1] == '\r')
		return err_set(err, "line ends in CR: a CRLF file? results"
		    " files are LF, each line ending right after its MAC"
		    " (tr -d '\\r' < FILE gives the file verify wrote)");
	if (n < len && mac_tail(line, n, id))
		return err_set(err, "line ends in white space after its MAC:"
		    " results files end each line right after the MAC's \"}"
		    " (the line was edited; strip the trailing blanks)");
	return err_set(err, "no MAC: a run result line ends in \"mac_key\""
	    " and \"mac\" (a file written before runs were authenticated,"
	    " assay_run 1, or one cut or edited; verify those candidates"
	    " again)");
}

int
results_line_check(const char *line, size_t len,
    const struct results_key *key, struct err *err)
{
	char id[STORE_KEY_ID + 1], want[HASH_HEX_LEN + 1];
	char got[HASH_HEX_LEN + 1];

	if (results_line_key(line, len, id, err) < 0)
		return -1;
	len = chomp(line, len);
	memcpy(got, line + len - 2 - HASH_HEX_LEN, HASH_HEX_LEN);
	got[HASH_HEX_LEN] = '\0';
	mac_of(key, line, len - MAC_TAIL, want);
	if (strcmp(id, key->id) != 0 || !hash_equal(got, want))
		return err_set(err, "wrong MAC: the line is not as verify"
		    " wrote it under results key %s (edited, or made with"
		    " another key)", id);
	return 0;
}

int
results_parse(const char *line, size_t len, struct run *out, char **task_id,
    int *timeout_s, int *stored, struct err *err)
{
	struct err why;

	if (codec_run_parse(line, len, out, task_id, timeout_s, stored,
	    err) < 0)
		return -1;
	if (ident_check_id(out->cand_id, &why) < 0)
		err_set(err, "\"candidate\": %s", why.msg);
	else if (ident_check_task_id(*task_id, &why) < 0)
		err_set(err, "\"task\": %s", why.msg);
	else if (ident_check_label(out->env, "an env name", &why) < 0)
		err_set(err, "\"env\": %s", why.msg);
	else
		return 0;
	run_release(out);
	free(*task_id);
	*task_id = NULL;
	return -1;
}

char *
results_marker_path(const char *results)
{
	return xasprintf("%s.done", results);
}

int
results_marker_ok(const char *marker, const char *sha)
{
	json_t *m = json_load_file(marker, 0, NULL);
	const char *have = json_string_value(json_object_get(m,
	    "slice_sha256"));
	int done = have != NULL && sha != NULL && strcmp(have, sha) == 0;

	json_decref(m);
	return done;
}

/* --- per-slice statistics -------------------------------------------- */

/* o[key] += v, o[key] made a number when absent. */
static void
add_num(json_t *o, const char *key, double v)
{
	json_t *have = json_object_get(o, key);

	if (json_is_integer(have) && v == (double)(json_int_t)v)
		json_object_set_new(o, key, json_integer(
		    json_integer_value(have) + (json_int_t)v));
	else if (json_is_number(have))
		json_object_set_new(o, key, json_real(json_number_value(have) +
		    v));
	else if (v == (double)(json_int_t)v)
		json_object_set_new(o, key, json_integer((json_int_t)v));
	else
		json_object_set_new(o, key, json_real(v));
}

/* o[key], an object, made when absent.  Borrowed. */
static json_t *
sub(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	if (!json_is_object(v)) {
		v = json_object();
		json_object_set_new(o, key, v);
	}
	return v;
}

/* Every number of from added into to, objects merged the same way. */
static void
add_tree(json_t *to, json_t *from)
{
	const char *k;
	json_t *v;

	json_object_foreach(from, k, v) {
		if (json_is_number(v))
			add_num(to, k, json_number_value(v));
		else if (json_is_object(v))
			add_tree(sub(to, k), v);
	}
}

json_t *
results_stats_new(void)
{
	return json_pack("{s:i, s:i, s:{}, s:i, s:{}}", "runs", 0, "run_wall_ms",
	    0, "verdicts", "candidates", 0, "envs");
}

void
results_stats_run(json_t *st, const struct run *r)
{
	json_t *env = sub(sub(st, "envs"), r->env != NULL ? r->env : "?");

	add_num(st, "runs", 1);
	add_num(st, "run_wall_ms", (double)r->wall_ms);
	add_num(sub(st, "verdicts"), r->verdict != NULL ? r->verdict : "?", 1);
	add_num(env, "runs", 1);
	add_num(env, "wall_ms", (double)r->wall_ms);
	add_num(sub(env, "toolchains"), r->toolchain != NULL &&
	    *r->toolchain != '\0' ? r->toolchain : "(none)", 1);
}

char *
results_stats_path(const char *results)
{
	return xasprintf("%s.stats.json", results);
}

int
results_stats_write(const char *results, json_t *st, const char *slice,
    const char *sha, size_t candidates, long long started, double wall_s,
    double cpu_s, struct err *err)
{
	char host[256] = "", *path, *txt;
	int rc;

	gethostname(host, sizeof host - 1);
	json_object_set_new(st, "assay_stats", json_integer(1));
	json_object_set_new(st, "slice", json_string(slice));
	json_object_set_new(st, "slice_sha256", json_string(sha));
	json_object_set_new(st, "host", codec_str(host));
	json_object_set_new(st, "candidates", json_integer((json_int_t)
	    candidates));
	json_object_set_new(st, "started", json_integer(started));
	json_object_set_new(st, "wall_s", json_real(wall_s));
	json_object_set_new(st, "cpu_s", json_real(cpu_s));
	txt = json_dumps(st, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(st);
	path = results_stats_path(results);
	rc = atomic_write(path, txt, err);
	free(path);
	free(txt);
	return rc;
}

int
results_stats_sum(json_t *total, const char *path, struct err *err)
{
	json_error_t je;
	json_t *o = json_load_file(path, 0, &je), *hosts, *h;

	if (o == NULL)
		return err_set(err, "%s:%d: %s", path, je.line, je.text);
	if (!json_is_integer(json_object_get(o, "assay_stats"))) {
		json_decref(o);
		return err_set(err, "%s: not a slice's stats file (no"
		    " assay_stats)", path);
	}
	/* The start, the sha and the host are the slice's own. */
	json_object_del(o, "assay_stats");
	json_object_del(o, "started");
	add_num(total, "slices", 1);
	add_tree(total, o);
	hosts = json_object_get(total, "hosts");
	if (!json_is_array(hosts)) {
		hosts = json_array();
		json_object_set_new(total, "hosts", hosts);
	}
	h = json_object_get(o, "host");
	if (json_is_string(h)) {
		size_t i;
		json_t *v;
		int seen = 0;

		json_array_foreach(hosts, i, v)
			seen |= json_equal(v, h);
		if (!seen)
			json_array_append(hosts, h);
	}
	json_decref(o);
	return 0;
}

int
results_file_sha256(const char *path, char *hex, struct err *err)
{
	struct hash_ctx *h;
	char chunk[65536];
	FILE *f = fopen(path, "rb");
	size_t n;

	if (f == NULL)
		return err_set(err, "%s: %s", path, strerror(errno));
	h = hash_new();
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		hash_update(h, chunk, n);
	hash_final(h, hex);
	if (ferror(f)) {
		fclose(f);
		return err_set(err, "read %s: %s", path, strerror(errno));
	}
	fclose(f);
	return 0;
}
